//! The memoised counts of the dance: [`Solver::count_memo`], and the count in turns that the
//! default's portfolio runs, [`Solver::count_memo_resumable`], whose stop leaves the levels
//! covered and goes on where it stopped; with Knuth's estimate of the tree done at a stop.

use super::links::STEP;
use super::memo_dance::{self, MemoPath, MemoRun, Resume, Suspended};
use super::solver::{CountOnly, Solver};
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::count::Count;
use crate::engine::search::memo::{Memo, MemoStats};

/// One call of [`Solver::count_memo_resumable`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct MemoTurn {
    /// How the call ended: [`End::Exhausted`] when the count is done.
    pub end: End,
    /// The count, when exhausted (0 otherwise).
    pub count: u128,
    /// The nodes this call entered.
    pub nodes: u64,
    /// Knuth's estimate of the fraction of the tree searched (1 when exhausted).
    pub progress: f64,
}

impl Solver<'_> {
    /// The length in u64 words of the memo keys of this solver's nodes: one bit per item,
    /// and on coloured problems 32 bits per secondary item for the colour it is purified to.
    pub fn memo_words(&self) -> usize {
        memo_dance::words(self.problem, self.has_colours)
    }

    /// Counts all solutions, exactly, with the sub-problem counts kept in `memo` (see
    /// [`Memo`]): a node whose open items and colours were met before adds the count stored
    /// then instead of searching its subtree again. The budget's node, mem and time limits
    /// apply (a count stopped by one is a lower bound); its solution limit does not, since
    /// remembered solutions are never visited one by one. `memo` must have been made for
    /// [`Solver::memo_words`] words and used only with solvers over the same options: a key
    /// describes a state of that option set fully, so the table may serve several counts
    /// (with other forced options, say) and stays exact.
    pub fn count_memo(&mut self, budget: &Budget, memo: &mut Memo) -> Count {
        let before = memo.stats();
        let (outcome, path) = self.memo_search(budget, memo, MemoPath::default(), Resume::No);
        let after = memo.stats();
        // The count: the solutions visited one by one (the statistics' `solutions`) and
        // those remembered; what the memo did in this count.
        Count {
            end: outcome.end,
            count: u128::from(outcome.stats.solutions) + path.remembered,
            stats: outcome.stats,
            memo: Some(MemoStats {
                hits: after.hits - before.hits,
                stores: after.stores - before.stores,
                evictions: after.evictions - before.evictions,
                nodes_saved: after.nodes_saved - before.nodes_saved,
                bytes: after.bytes,
            }),
            split: None,
        }
    }

    /// [`Solver::count_memo`] in turns: a call stopped by the budget's nodes, mems or clock
    /// leaves its levels covered and its path in `memo`'s keys kept, and the next call goes
    /// on where it stopped (nothing is searched twice, and no path is walked back through the
    /// table). Each call on the same `memo`, until one ends the count
    /// ([`End::Exhausted`]: the exact count) or the solver is dropped; no other search may
    /// run on the solver in between. A stop gives Knuth's estimate of the fraction of the
    /// tree searched, read off the levels still covered.
    pub(crate) fn count_memo_resumable(&mut self, budget: &Budget, memo: &mut Memo) -> MemoTurn {
        let (from, path) = match self.suspended.take() {
            Some(s) => (Resume::At(s.point), s.path),
            None => (Resume::Root, MemoPath::default()),
        };
        let before = match from {
            Resume::At(p) => p.solutions,
            _ => 0,
        };
        let (outcome, path) = self.memo_search(budget, memo, path, from);
        match self.stopped.take() {
            Some(point) => {
                let progress = self.progress(point.level);
                self.suspended = Some(Box::new(Suspended { point, path }));
                MemoTurn {
                    end: outcome.end,
                    count: 0,
                    nodes: outcome.stats.nodes,
                    progress,
                }
            }
            None => MemoTurn {
                end: outcome.end,
                count: if outcome.end == End::Exhausted {
                    u128::from(before + outcome.stats.solutions) + path.remembered
                } else {
                    0
                },
                nodes: outcome.stats.nodes,
                progress: if outcome.end == End::Exhausted {
                    1.0
                } else {
                    0.0
                },
            },
        }
    }

    /// The memoised search on `memo` along `path` from `from`, on the tree of this solver
    /// (colours, Knuth's or the early abort's), within `budget` but for its solution limit
    /// (remembered solutions are never visited one by one); its statistics are added to the
    /// solver's. Gives the outcome and the path.
    fn memo_search(
        &mut self,
        budget: &Budget,
        memo: &mut Memo,
        path: MemoPath,
        from: Resume,
    ) -> (Outcome, MemoPath) {
        assert_eq!(
            memo.words(),
            self.memo_words(),
            "a memo made for this solver"
        );
        let budget = Budget {
            solutions: None,
            ..budget.clone()
        };
        let mut run = MemoRun::on_path(memo, path);
        let visitor = &mut CountOnly;
        let outcome = if self.has_colours {
            self.search::<true, true, false, CountOnly>(&budget, visitor, Some(&mut run), from)
        } else if self.knuth {
            self.search::<false, true, false, CountOnly>(&budget, visitor, Some(&mut run), from)
        } else {
            self.search::<false, true, true, CountOnly>(&budget, visitor, Some(&mut run), from)
        };
        self.stats += outcome.stats;
        (outcome, run.path)
    }

    /// Knuth's estimate of the fraction of the tree searched when levels `0..level` are
    /// covered: `Σ k_l / (d_0 ⋯ d_l)`, level `l`'s item having `d_l` options of which its
    /// choice is the `k_l`-th from 0 (the branches before it done). A covered item's list
    /// is as it was when covered: no deeper cover hides its options.
    fn progress(&self, level: usize) -> f64 {
        let nd = &self.links.nd;
        let (mut done, mut weight) = (0.0, 1.0);
        for &cur in &self.choice[..level] {
            let item = nd[(cur / STEP) as usize].itm as u32;
            let options = nd[(item / STEP) as usize].itm.max(1);
            let mut k = 0u32;
            let mut n = nd[(item / STEP) as usize].down;
            while n != cur && n != item {
                k += 1;
                n = nd[(n / STEP) as usize].down;
            }
            weight /= f64::from(options);
            done += f64::from(k) * weight;
        }
        done
    }

    /// Writes the memo key of the state between searches into `key` of
    /// [`Solver::memo_words`] words: the key [`Solver::count_memo`] gives a node with the
    /// same items open and colours set (see [`Memo`]).
    pub fn state_key(&self, key: &mut [u64]) {
        assert_eq!(key.len(), self.memo_words(), "a key of memo_words words");
        if self.has_colours {
            memo_dance::write_key::<true>(&self.links, self.problem, key);
        } else {
            memo_dance::write_key::<false>(&self.links, self.problem, key);
        }
    }
}
