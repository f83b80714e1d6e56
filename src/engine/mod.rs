//! The exact-cover engine: problems, the dancing-links solver, statistics and budgets, the
//! split into independent sub-problems, the optimising (branch-and-bound) layer, and the
//! preprocessing that removes options in no solution.
//!
//! Nothing here knows about any particular model.

mod cells;
mod dlx;
mod memo;
mod multiplicity;
pub mod optimize;
mod parallel;
pub mod preprocess;
mod problem;
mod split;
mod stats;
mod window;

pub use cells::{Cells, CellsError};
pub use dlx::{CountOnly, ForceError, MemoOutcome, Solver, View, Visitor};
pub use memo::{
    DEFAULT_MEMO_BYTES, Memo, MemoCount, MemoMode, MemoStats, PROBE_NODES, count as count_memoised,
};
pub use multiplicity::MultiplicitySolver;
pub use parallel::{Plan, SplitInfo, WINDOW_PER_THREAD};
pub use problem::{
    BuildError, Colour, Entry, ItemId, MAX_NODES, OptionId, Problem, ProblemBuilder, fnv1a64,
};
pub use split::{
    MAX_SPLIT_DEPTH, PARTS_PER_SHARD, PARTS_PER_THREAD, Part, SHARD_PARTS_MIN, Split,
    count_parallel, count_split, in_shard, run_split_ordered, shard_target,
};
pub use stats::{
    Budget, End, Outcome, PROGRESS, Progress, ProgressSnapshot, Stats, clear_stop, out_of_time,
    request_stop, stop_requested, structure_bytes,
};
pub use window::ordered_window;
