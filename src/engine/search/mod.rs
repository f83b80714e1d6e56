//! The searches.

pub(super) mod cells;
pub(super) mod dense;
pub(super) mod dlx;
pub(super) mod memo;
pub(super) mod multiplicity;
pub(super) mod parts;

use std::ops::ControlFlow;

use super::budget::{Budget, Outcome};
use super::problem::OptionId;
use super::stats::Stats;

/// One search, as threads see it: it counts, lists, resumes after a budget ran out, cuts its
/// tree into parts by prefixes and counts below one, and says what it did. Implemented for
/// the searches by thin wrappers over their own functions (the shape of the queens listing's
/// `TaskSearch`); `run/threads.rs` deals its parts to threads.
pub(crate) trait Search: Send {
    /// A part of the tree cut at some depth: a node at the cut, named by the options taken
    /// on the way to it (for the dance also a solution above the cut, a part of its own).
    type Prefix: Send + Sync;

    /// Counts the solutions from the start within `budget`.
    fn count(&mut self, budget: &Budget) -> Outcome;

    /// Counts on from where a count stopped on its budget; `None` when this search cannot
    /// resume (it then starts over with [`Search::count`]).
    fn resume(&mut self, budget: &Budget) -> Option<Outcome>;

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

    /// What the search did so far.
    fn stats(&self) -> Stats;
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
