//! What a count found: the one result of every count, whichever search ran it (the front
//! door's count, the memoised dance, the portfolio, a count on threads), and the split it ran
//! on.

use super::budget::{End, Outcome};
use super::search::memo::MemoStats;
use super::stats::Stats;

/// A count, memoised or not.
#[derive(Copy, Clone, Debug)]
pub struct Count {
    /// How the search ended (a count not [`End::Exhausted`] is a lower bound).
    pub end: End,
    /// The number of solutions.
    pub count: u128,
    /// What the search did (with a memo: of the final search, probe included in `memo`).
    pub stats: Stats,
    /// What the memo did, when one was used.
    pub memo: Option<MemoStats>,
    /// The split of a plain count on threads or in a shard.
    pub split: Option<SplitInfo>,
}

impl Count {
    /// The count of a search without a memo, from its outcome.
    pub(crate) fn whole(outcome: Outcome, split: Option<SplitInfo>) -> Count {
        Count {
            end: outcome.end,
            count: u128::from(outcome.stats.solutions()),
            stats: outcome.stats,
            memo: None,
            split,
        }
    }
}

/// Parts of the split a parallel or sharded run used (for `--stats`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SplitInfo {
    /// Depth of the cut (options chosen above it).
    pub depth: usize,
    /// Sub-problems in the whole split.
    pub subproblems: usize,
    /// Parts (sub-problems and solutions above the cut) in the whole split.
    pub parts: usize,
    /// Parts of this run (this shard's, or all).
    pub mine: usize,
    /// Threads used.
    pub threads: usize,
}
