//! N-queens models on the engine: the exact-cover model, symmetry of the square, the
//! word-parallel counter, and weighted N-queens.

pub mod bits;
pub mod board;
pub mod common;
pub mod count;
pub mod heatmap;
pub mod listing;
pub mod model;
pub mod stream;
pub mod symmetry;
pub mod weighted;

/// The merge rules of the queens record kinds (`queens-count`, `queens-max`), for
/// [`crate::records::merge`].
pub fn record_rules() -> [crate::records::Rule; 2] {
    [count::record_rule(), weighted::record_rule()]
}
