//! The memoised count ([`Solver::count_memo`]): the dance of [`Solver::run`] with a table of
//! sub-problem counts ([`Memo`]) keyed by the items still open and the colours set, so that a
//! node met before adds its stored count instead of searching its subtree again.

use super::links::{ROOT, STEP};
use super::solver::{CountOnly, Solver};
use crate::engine::budget::{Budget, End};
use crate::engine::search::memo::{Memo, MemoStats};
use crate::engine::stats::Stats;

/// The state of one memoised count ([`Solver::count_memo`]): the table, and per level the
/// key of the node being searched, its hash, and the count and nodes when it was entered.
pub(super) struct MemoRun<'m> {
    table: &'m mut Memo,
    keys: Vec<u64>,
    tags: Vec<u64>,
    entry: Vec<(u128, u64)>,
    /// The counts taken from the table so far.
    remembered: u128,
}

/// The result of a memoised count.
#[derive(Copy, Clone, Debug)]
pub struct MemoOutcome {
    /// How the search ended (a count not [`End::Exhausted`] is a lower bound).
    pub end: End,
    /// The number of solutions: those visited plus those remembered.
    pub count: u128,
    /// What the search did; its `solutions` are the solutions visited one by one.
    pub stats: Stats,
    /// What the memo did in this count.
    pub memo: MemoStats,
}

impl Solver<'_> {
    /// Writes the memo key of the state between searches into `key` of
    /// [`Solver::memo_words`] words: the key [`Solver::count_memo`] gives a node with the
    /// same items open and colours set (see [`Memo`]).
    pub fn state_key(&self, key: &mut [u64]) {
        assert_eq!(key.len(), self.memo_words(), "a key of memo_words words");
        if self.has_colours {
            self.memo_key::<true>(key);
        } else {
            self.memo_key::<false>(key);
        }
    }

    /// The length in u64 words of the memo keys of this solver's nodes: one bit per item,
    /// and on coloured problems 32 bits per secondary item for the colour it is purified to.
    pub fn memo_words(&self) -> usize {
        let items = self.problem.item_count();
        let colours = if self.has_colours {
            self.problem.secondary_count().div_ceil(2)
        } else {
            0
        };
        items.div_ceil(64) + colours
    }

    /// Counts all solutions, exactly, with the sub-problem counts kept in `memo` (see
    /// [`Memo`]): a node whose open items and colours were met before adds the count stored
    /// then instead of searching its subtree again. The budget's node, mem and time limits
    /// apply (a count stopped by one is a lower bound); its solution limit does not, since
    /// remembered solutions are never visited one by one. `memo` must have been made for
    /// [`Solver::memo_words`] words and used only with solvers over the same options: a key
    /// describes a state of that option set fully, so the table may serve several counts
    /// (with other forced options, say) and stays exact.
    pub fn count_memo(&mut self, budget: &Budget, memo: &mut Memo) -> MemoOutcome {
        assert_eq!(
            memo.words(),
            self.memo_words(),
            "a memo made for this solver"
        );
        let budget = Budget {
            solutions: None,
            ..budget.clone()
        };
        let mut run = MemoRun {
            table: memo,
            keys: Vec::new(),
            tags: Vec::new(),
            entry: Vec::new(),
            remembered: 0,
        };
        let before = run.table.stats();
        let outcome = if self.has_colours {
            self.search::<true, true, false, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        } else if self.knuth {
            self.search::<false, true, false, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        } else {
            self.search::<false, true, true, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        };
        self.stats += outcome.stats;
        let after = run.table.stats();
        MemoOutcome {
            end: outcome.end,
            count: u128::from(outcome.stats.solutions) + run.remembered,
            stats: outcome.stats,
            memo: MemoStats {
                hits: after.hits - before.hits,
                stores: after.stores - before.stores,
                evictions: after.evictions - before.evictions,
                nodes_saved: after.nodes_saved - before.nodes_saved,
                bytes: after.bytes,
            },
        }
    }

    /// Writes the memo key of the current state into `key` (zeroed first): a bit per open
    /// item (primary items in the active ring; secondary items in theirs with a non-empty
    /// list or a colour), then the colours of purified secondary items.
    pub(super) fn memo_key<const COLOURS: bool>(&self, key: &mut [u64]) {
        key.fill(0);
        let cl = &self.links.cl;
        let nd = &self.links.nd;
        let mut k = cl[ROOT as usize].next;
        while k != ROOT {
            let i = (k / STEP - 1) as usize;
            key[i / 64] |= 1 << (i % 64);
            k = cl[k as usize].next;
        }
        let head = self.links.last_itm;
        let first_secondary = self.problem.primary_count() + 1;
        let colour_words = self.problem.item_count().div_ceil(64);
        let mut k = cl[head as usize].next;
        while k != head {
            let h = (k / STEP) as usize;
            let i = h - 1;
            let colour = if COLOURS { self.links.purified[h] } else { 0 };
            if colour != 0 {
                let j = h - first_secondary;
                key[i / 64] |= 1 << (i % 64);
                key[colour_words + j / 2] |= u64::from(colour as u32) << (32 * (j % 2));
            } else if nd[h].itm > 0 {
                key[i / 64] |= 1 << (i % 64);
            }
            k = cl[k as usize].next;
        }
    }

    /// The memo's part of entering a node at `level`: true if its count is remembered (and
    /// then added), false if the node must be searched (its key and the counts so far are
    /// kept for [`Solver::memo_leave`]).
    pub(super) fn memo_enter<const COLOURS: bool>(
        &self,
        run: &mut MemoRun<'_>,
        level: usize,
        solutions: u64,
        nodes: u64,
    ) -> bool {
        let w = run.table.words();
        if run.tags.len() <= level {
            run.tags.resize(level + 1, 0);
            run.entry.resize(level + 1, (0, 0));
            run.keys.resize((level + 1) * w, 0);
        }
        let key = &mut run.keys[level * w..(level + 1) * w];
        self.memo_key::<COLOURS>(key);
        let tag = Memo::hash(key);
        if let Some(count) = run.table.get(tag, key) {
            run.remembered += count;
            return true;
        }
        run.tags[level] = tag;
        run.entry[level] = (u128::from(solutions) + run.remembered, nodes);
        false
    }

    /// The memo's part of leaving a node at `level` whose subtree was searched in full:
    /// stores its count.
    pub(super) fn memo_leave(run: &mut MemoRun<'_>, level: usize, solutions: u64, nodes: u64) {
        let w = run.table.words();
        let (count_before, nodes_before) = run.entry[level];
        let count = u128::from(solutions) + run.remembered - count_before;
        let key = &run.keys[level * w..(level + 1) * w];
        run.table
            .store(run.tags[level], key, count, nodes - nodes_before);
    }
}
