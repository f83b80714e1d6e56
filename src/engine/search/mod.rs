//! The searches: each module one way to walk the tree of an exact-cover problem, its data
//! structures explained first in its own documentation. Which of them runs, on how many
//! threads, is the front door's choice (`engine::run`); each stops on a
//! [`Budget`](super::Budget).
//!
//! | search | what it keeps | when the front door runs it |
//! |---|---|---|
//! | [`dlx`]: the dance ([`Solver`](super::Solver), Knuth's DLX1/DLX2) | one array of 16-byte nodes linked by 32-bit indices, and the item rings; undone by dancing back | every listing and optimisation; the counts the others do not take (Knuth's tree, a shard), split into parts on threads; the memoised count of `MemoMode` outside the portfolio; in the portfolio, memoised, twice: the item of fewest options first, and in frontier order ([`frontier`]) |
//! | [`dense`]: bitsets ([`Dense`](super::Dense)) | a conflict row of bits per option and, per level, the options still possible and the primary items' sizes; undone by forgetting a level | the default count of a problem of at most [`DENSE_MAX_OPTIONS`](super::DENSE_MAX_OPTIONS) options (first alone, then over the parts of its tree beside `cells` in the portfolio), and the plain count of such a problem |
//! | [`cells`]: sparse sets ([`Cells`](super::Cells), Knuth's SSXCC) | flat `u32` arrays: each item's options as a set with a size, the active items; undone by restoring sizes | beside `dense` over the parts of its tree (whichever is faster per node counts most of them); the plain count of a problem with colours on one thread that `dense` does not take |
//! | [`multiplicity`]: Algorithm M ([`MultiplicitySolver`](super::MultiplicitySolver), Knuth's DLX3) | DLX2's links with a bound and a slack per primary item | every problem with multiplicities (`u:v` items) |
//!
//! [`memo`] is no search but the table the memoised searches share: sub-problem counts by
//! key, exact (the whole key is compared), bounded in memory (it forgets, it never fails).

pub(super) mod cells;
pub(super) mod dense;
pub(super) mod dlx;
pub(super) mod frontier;
pub(super) mod memo;
pub(super) mod multiplicity;

use std::ops::ControlFlow;

use super::budget::{Budget, Outcome};
use super::problem::OptionId;
use super::stats::Stats;

/// One search, as the door and its threads see it: it counts, lists, resumes after a budget
/// ran out, cuts its tree into parts by prefixes and counts below one.
/// Implemented by thin wrappers over each search's own functions (the shape of the queens
/// listing's `TaskSearch`): the dance (parts: its split's), the bitset search (resumable;
/// parts: prefixes of its tree), Algorithm M (parts: paths of branch numbers; it does not
/// resume) and the sparse-set search (resumable; parts: prefixes of its tree, or of the
/// bitset search's, whose options a part takes in turn). `run/threads.rs` deals the parts
/// to threads. The memoised dances keep a table across their turns and are driven by the
/// portfolio instead.
pub(crate) trait Search: Send {
    /// A part of the tree cut at some depth: a node at the cut, named by the options taken
    /// on the way to it (for the dance also a solution above the cut, a part of its own).
    type Prefix: Send + Sync;

    /// Counts the solutions from the start within `budget`.
    fn count(&mut self, budget: &Budget) -> Outcome;

    /// Counts on from where a count stopped on its budget; `None` when this search cannot
    /// resume, which is the default (it then starts over with [`Search::count`]).
    fn resume(&mut self, budget: &Budget) -> Option<Outcome> {
        let _ = budget;
        None
    }

    /// Reports every solution to `sink` within `budget`, until `sink` breaks.
    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Outcome;

    /// The parts at the first depth with at least `want` of them (or as deep as the search
    /// cuts), in the order of the search.
    fn cut(&mut self, want: usize) -> Cut<Self::Prefix>;

    /// Counts the solutions of one part within `budget` (a node at the cut: that node and
    /// its subtree).
    fn count_below(&mut self, part: &Self::Prefix, budget: &Budget) -> Outcome;
}

/// A search's tree cut into parts ([`Search::cut`]).
pub(crate) struct Cut<P> {
    /// The parts, in the order of the search.
    pub parts: Vec<P>,
    /// What the search above the cut did, the solutions it found there included (the
    /// dance's are parts as well).
    pub above: Stats,
    /// The depth of the cut (options taken above it).
    pub depth: usize,
}

/// A [`Search`] whose count of a part can stop on a deadline and go on later, by the same
/// search ([`Search::resume`]), and that another thread can copy.
pub(crate) trait Resumable: Search + Sized + Sync {
    /// Another search of the same problem, sharing nothing it changes.
    fn fork(&self) -> Self;

    /// The estimated fraction of the current count done (from 0 to 1).
    fn progress(&self) -> f64;

    /// The nodes of the current count so far (over all its resumptions).
    fn nodes(&self) -> u64;
}
