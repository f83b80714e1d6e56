//! The exact-cover engine: problems, the dancing-links solver, statistics and budgets, the
//! split into independent sub-problems, the optimising (branch-and-bound) layer, and the
//! preprocessing that removes options in no solution.
//!
//! The front door is [`run`]: a [`run::Plan`] (threads, shard, tree, memo, budget with its
//! [`Stop`] handle) and three searches on it, [`run::count`], [`run::list`] and
//! [`run::optimize`]. The solvers, the split and the bounds below it are what those are made
//! of; [`Solver`] stays public for a caller that drives one search by hand (forced options, a
//! [`Visitor`]).
//!
//! Nothing here knows about any particular model.

mod budget;
mod count;
pub mod estimate;
pub mod family;
pub mod optimize;
pub mod preprocess;
mod problem;
pub mod run;
mod search;
mod split;
mod stats;
pub mod zdd;

pub use budget::{Budget, End, Outcome, Progress, ProgressSnapshot, Stop};
pub use problem::{
    BuildError, Colour, Entry, ItemId, MAX_NODES, OptionId, Problem, ProblemBuilder, fnv1a64,
};
pub use run::{MemoMode, PROBE_NODES};
pub use run::{SplitInfo, WINDOW_PER_THREAD};
pub use search::cells::{Cells, CellsError};
pub use search::dense::{DENSE_MAX_OPTIONS, Dense, DenseError};
pub use search::dlx::{CountOnly, ForceError, Solver, View, Visitor};
pub use search::memo::{DEFAULT_MEMO_BYTES, Memo, MemoStats};
pub use search::multiplicity::MultiplicitySolver;
pub(crate) use split::in_shard;
pub use split::{Part, Split};
pub use stats::{Stats, structure_bytes};
