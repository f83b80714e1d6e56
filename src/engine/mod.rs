//! The exact-cover engine, in two floors: the searches below, one front door above.
//!
//! The front door is [`run`]: a [`run::Plan`] (threads, shard, tree, memo, budget with its
//! [`Stop`] handle) and three searches on it, [`run::count`], [`run::list`] and
//! [`run::optimize`]; `run::choose` decides once which search runs and how, and `run::threads`
//! is the one place that deals work to threads. A model that drives a search itself does it
//! through the door too ([`run::Dance`], [`run::optimize_by_hand`]). Below, in the crate-private
//! `search` module, the searches (the dance, Algorithm M, the sparse-set and bitset searches,
//! the memo): each knows nothing of threads or policy. [`Solver`], [`Dense`], [`Cells`] and
//! [`MultiplicitySolver`] stay public for a program that runs one search on purpose.
//! Beside them: problems, statistics and budgets, the split into sub-problems, the optimising
//! layer's data, the ZDD and the family of solutions, and the preprocessing that removes options
//! in no solution.
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
pub use search::dense::{DENSE_MAX_OPTIONS, Dense, DenseError, DenseWalk};
pub use search::dlx::{CountOnly, ForceError, Solver, View, Visitor};
pub use search::memo::{DEFAULT_MEMO_BYTES, Memo, MemoStats};
pub use search::multiplicity::MultiplicitySolver;
pub(crate) use split::in_shard;
pub use split::{Part, Split};
pub use stats::{Stats, structure_bytes};
