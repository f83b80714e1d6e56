//! N-queens models on the engine: the exact-cover model, symmetry of the square, the
//! word-parallel counter, and weighted N-queens.

pub mod bits;
pub mod board;
pub mod count;
pub mod heatmap;
pub mod listing;
pub mod model;
pub mod symmetry;
pub mod weighted;
