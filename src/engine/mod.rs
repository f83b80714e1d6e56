//! The exact-cover engine: problems, the dancing-links solver, statistics and budgets, the
//! split into independent sub-problems, and the optimising (branch-and-bound) layer.
//!
//! Nothing here knows about any particular model.

mod dlx;
pub mod optimize;
mod problem;
mod split;
mod stats;

pub use dlx::{CountOnly, ForceError, Solver, View, Visitor};
pub use problem::{
    BuildError, Colour, Entry, ItemId, MAX_NODES, OptionId, Problem, ProblemBuilder,
};
pub use split::{Part, Split, count_parallel, in_shard};
pub use stats::{Budget, End, Outcome, Stats};
