//! The bitset search's tree in parts: cut from the root for threads ([`Dense::prefixes`]),
//! or the rest of a count stopped by its budget ([`Dense::rest`]), each part a node named by
//! the options taken on the way to it and counted by [`Dense::count_below`]; and the search
//! as the door and its threads see it ([`Search`], [`Resumable`]).

use std::ops::ControlFlow;

use super::{Cursor, Dense};
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::OptionId;
use crate::engine::search::{Cut, Resumable, Search};
use crate::engine::stats::Stats;

impl Dense<'_> {
    /// The rest of a count stopped by its budget, as sub-problems: every node not yet
    /// entered whose parent is on the current path (the node about to be entered, and the
    /// options not yet tried at each level of the path), the deepest first, each named by
    /// the options taken on the way to it (for [`Dense::count_below`]) and weighed by Knuth's
    /// estimate of its share of the tree (as [`Dense::progress`] weighs the path). With the
    /// count so far ([`Dense::stats`] of this count) they make up the whole count, and their
    /// weights add up to `1 − progress()`. Empty once the count ended.
    pub(crate) fn rest(&self) -> Vec<(Vec<u32>, f64)> {
        let c = self.cursor;
        if c.done {
            return Vec::new();
        }
        let w = self.t.words;
        let top = if c.entering { c.depth } else { c.depth + 1 };
        let path: Vec<u32> = self.frames[..c.depth].iter().map(|f| f.option).collect();
        // Per level of the path: the weight of a child, and the options not tried yet.
        let mut scale = 1.0;
        let mut levels = Vec::with_capacity(top - c.base);
        for d in c.base..top {
            let f = self.frames[d];
            let (item, live) = (f.item as usize, &self.live[d * w..(d + 1) * w]);
            let bits = &self.t.item_bits[item * w..(item + 1) * w];
            let total: u32 = (0..w).map(|k| (bits[k] & live[k]).count_ones()).sum();
            scale /= f64::from(total.max(1));
            // The rest of the word being walked, then the later words, in the order the
            // search tries them.
            let mut options = Vec::new();
            let (mut k, mut b) = (f.word as usize, f.bits);
            loop {
                while b != 0 {
                    options.push(k as u32 * 64 + b.trailing_zeros());
                    b &= b - 1;
                }
                k += 1;
                if k >= w {
                    break;
                }
                b = bits[k] & live[k];
            }
            levels.push((d, scale, options));
        }
        let mut rest = Vec::new();
        if c.entering {
            rest.push((path.clone(), scale));
        }
        for (d, weight, options) in levels.into_iter().rev() {
            for o in options {
                let mut prefix = path[..d].to_vec();
                prefix.push(o);
                rest.push((prefix, weight));
            }
        }
        rest
    }

    /// Runs the search, giving each solution to `sink` as the problem's option ids in the
    /// order chosen, until the tree is exhausted, `sink` breaks or the budget runs out.
    pub fn run<F: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        budget: &Budget,
        mut sink: F,
    ) -> Outcome {
        self.start();
        let outcome = self.search::<true, _>(budget, &mut sink);
        self.stats += outcome.stats;
        outcome
    }

    /// The sub-problems at the top of the tree, for threads: the options taken on the way
    /// to every node at the first depth with at least `want` of them (at most the depth of
    /// the tree), and what the search above that depth found (solutions above it included;
    /// the nodes at the depth itself are left to [`Dense::count_below`]).
    ///
    /// Walks that find the depth, then one that notes the prefixes there. A finding walk goes
    /// down to a limit, counting the nodes at each depth, and from the first depth to have
    /// `want` of them it goes no deeper (so it ends knowing the least such depth within the
    /// limit); the limit doubles from 1 until one is found, or until the tree ends above it.
    /// A walk per depth, as before, cost a 25×25 sudoku 98 ms for its cut 519 levels deep
    /// through long runs of forced moves (the count itself takes 60 ms); one finding walk
    /// without a limit cost word squares, whose cut is at depth 1, a dive through the first
    /// word's subtree (words5x824 on two threads 1.00 → 1.07 s).
    pub(crate) fn prefixes(&mut self, want: usize) -> (Vec<Vec<u32>>, Stats) {
        let walk = |dense: &mut Dense<'_>, cut: usize| {
            dense.start();
            dense.cut = cut;
            dense.found.clear();
            let outcome = dense
                .search::<false, _>(&Budget::unlimited(), &mut |_: &[OptionId]| {
                    ControlFlow::Continue(())
                });
            dense.cut = usize::MAX;
            outcome
        };
        let want = want.max(1) as u64;
        let deepest = self.t.primaries + 1;
        let mut limit = 1;
        let depth = loop {
            self.want_at_depth = want as usize;
            self.at_depth.clear();
            self.at_depth.resize(deepest + 1, 0);
            let finding = walk(self, limit);
            self.want_at_depth = 0;
            if let Some(d) = (1..=limit).find(|&d| self.at_depth[d] >= want) {
                break d;
            }
            if self.at_depth[limit] == 0 || limit >= deepest {
                // The tree ends above the limit with no depth of `want` nodes: the walk went
                // through all of it.
                return (Vec::new(), finding.stats);
            }
            limit = (limit * 2).min(deepest);
        };
        let outcome = walk(self, depth);
        // `found` holds `depth` options per sub-problem.
        let found = std::mem::take(&mut self.found);
        (
            found.chunks(depth).map(<[u32]>::to_vec).collect(),
            outcome.stats,
        )
    }

    /// Counts the solutions below the node reached by taking the options of `prefix` (from
    /// [`Dense::prefixes`] or [`Dense::rest`]) in turn: that node and its subtree. A prefix
    /// of [`Dense::rest`] may end in an option not tried yet that leaves an item no option
    /// (a wipe-out, no node): its count is 0.
    pub(crate) fn count_below(&mut self, prefix: &[u32], budget: &Budget) -> Outcome {
        self.start();
        let mut pactive = self.t.primaries as u32;
        let mut removed = 0;
        for (d, &o) in prefix.iter().enumerate() {
            self.frames[d].option = o;
            let (t, mut a) = self.arrays();
            let taken = a.try_option_as_built(t, d, o, &mut pactive, &mut removed);
            self.trail_top = a.trail_top;
            if !taken {
                debug_assert_eq!(d + 1, prefix.len(), "a wipe-out at the prefix's end only");
                self.cursor.done = true;
                return Outcome {
                    end: End::Exhausted,
                    stats: Stats::default(),
                };
            }
        }
        self.cursor = Cursor {
            depth: prefix.len(),
            base: prefix.len(),
            entering: true,
            pactive,
            done: false,
        };
        let outcome =
            self.search::<false, _>(budget, &mut |_: &[OptionId]| ControlFlow::Continue(()));
        self.stats += outcome.stats;
        outcome
    }
}

/// The bitset search as threads see it (`run/threads.rs` deals its sub-problems, and resumes
/// those a deadline stopped with the engine that holds them).
impl Search for Dense<'_> {
    type Prefix = Vec<u32>;

    fn count(&mut self, budget: &Budget) -> Outcome {
        Dense::count(self, budget)
    }

    fn resume(&mut self, budget: &Budget) -> Option<Outcome> {
        Some(Dense::resume(self, budget))
    }

    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Outcome {
        self.run(budget, sink)
    }

    fn cut(&mut self, want: usize) -> Cut<Vec<u32>> {
        let (parts, above) = self.prefixes(want);
        Cut {
            depth: parts.first().map_or(0, Vec::len),
            parts,
            above,
        }
    }

    fn count_below(&mut self, prefix: &Vec<u32>, budget: &Budget) -> Outcome {
        Dense::count_below(self, prefix, budget)
    }
}

impl Resumable for Dense<'_> {
    fn fork(&self) -> Self {
        self.sibling()
    }

    fn progress(&self) -> f64 {
        Dense::progress(self)
    }

    fn nodes(&self) -> u64 {
        self.tally.nodes
    }
}
