//! Splitting a search into independent sub-problems, for threads and for cluster shards.
//!
//! The search tree is cut at a fixed depth: every node at that depth becomes a sub-problem,
//! described by the options chosen on the way to it (its prefix). Forcing a prefix into a
//! fresh solver reproduces exactly the state the full search reaches there, so the sub-trees
//! have the same node and update counts as in one sequential run, and the parts, taken in
//! order, enumerate the solutions in the same order as the sequential search.

use std::ops::ControlFlow;

use super::budget::{Budget, End, Outcome};
use super::problem::OptionId;
use super::search::dlx::{Solver, View, Visitor};
use super::search::{Cut, Search};
use super::stats::Stats;

/// A piece of the search tree above or at the cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// A solution found above the cut, complete in itself.
    Solution(Vec<OptionId>),
    /// The sub-tree below these forced options.
    Subproblem(Vec<OptionId>),
}

/// The parts of a search tree cut at some depth, in the order of the sequential search, and
/// the statistics of the part of the tree above the cut.
#[derive(Clone, Debug)]
pub struct Split {
    /// The parts, in the order of the sequential search.
    pub parts: Vec<Part>,
    /// The statistics of the tree above the cut.
    pub stats: Stats,
}

struct Cutter {
    depth: usize,
    parts: Vec<Part>,
}

impl Visitor for Cutter {
    const PRUNES: bool = true;
    fn enter(&mut self, view: &View<'_>) -> bool {
        if view.depth() >= self.depth {
            self.parts.push(Part::Subproblem(view.chosen().collect()));
            false
        } else {
            true
        }
    }
    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        self.parts.push(Part::Solution(options.to_vec()));
        ControlFlow::Continue(())
    }
}

impl Solver<'_> {
    /// Cuts the search tree below the current forced options at `depth` chosen options (forced
    /// ones included). A depth not deeper than the forced options gives one sub-problem.
    pub fn split(&mut self, depth: usize) -> Split {
        let mut cutter = Cutter {
            depth,
            parts: Vec::new(),
        };
        let outcome = self.run(&Budget::unlimited(), &mut cutter);
        let mut stats = outcome.stats;
        // The nodes at the cut are counted again as the roots of the sub-problems.
        let cut = cutter
            .parts
            .iter()
            .filter(|p| matches!(p, Part::Subproblem(_)))
            .count() as u64;
        stats.nodes -= cut;
        Split {
            parts: cutter.parts,
            stats,
        }
    }

    /// [`Solver::run_subproblem`] with some options left out of the sub-tree as well (those a
    /// visitor excluded above the cut, see [`Visitor::exclude`]); they come back afterwards.
    /// Options that are not active once the prefix is forced are ignored.
    pub fn run_subproblem_without<V: Visitor>(
        &mut self,
        prefix: &[OptionId],
        excluded: &[OptionId],
        budget: &Budget,
        visitor: &mut V,
    ) -> Outcome {
        let before = self.forced().len();
        for &o in prefix {
            self.force(o)
                .expect("a split prefix is always consistent with its solver");
        }
        let taken = self.exclude_options(excluded);
        let outcome = self.run(budget, visitor);
        self.include_options(taken);
        let keep = self.forced();
        self.unforce_all();
        for &o in &keep[..before] {
            self.force(o)
                .expect("re-forcing options that were forced before");
        }
        outcome
    }

    /// Forces the prefix, runs the visitor over the sub-tree, and unforces it again.
    pub fn run_subproblem<V: Visitor>(
        &mut self,
        prefix: &[OptionId],
        budget: &Budget,
        visitor: &mut V,
    ) -> Outcome {
        self.run_subproblem_without(prefix, &[], budget, visitor)
    }
}

/// The dance as threads see it.
impl Search for Solver<'_> {
    type Prefix = Part;

    fn count(&mut self, budget: &Budget) -> Outcome {
        Solver::count(self, budget)
    }

    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Outcome {
        self.run(budget, &mut |s: &[OptionId]| sink(s))
    }

    fn cut(&mut self, want: usize) -> Cut<Part> {
        let (split, depth) = self.split_for(want);
        Cut {
            parts: split.parts,
            above: split.stats,
            depth,
        }
    }

    fn count_below(&mut self, part: &Part, budget: &Budget) -> Outcome {
        match part {
            Part::Solution(_) => Outcome {
                end: End::Exhausted,
                stats: Stats {
                    solutions: 1,
                    ..Stats::default()
                },
            },
            Part::Subproblem(prefix) => {
                self.run_subproblem(prefix, budget, &mut super::search::dlx::CountOnly)
            }
        }
    }
}

/// Whether part `k` (0-based, in split order) belongs to shard `shard` of `shards` (1-based):
/// parts are dealt round-robin, so that neighbouring parts, which tend to cost alike, spread
/// over all shards.
pub(crate) fn in_shard(k: usize, shard: usize, shards: usize) -> bool {
    k % shards == shard - 1
}

/// The deepest cut [`Solver::split_for`] tries (below the forced options).
pub(crate) const MAX_SPLIT_DEPTH: usize = 16;

impl Solver<'_> {
    /// The split whose cut is the shallowest depth with at least `target` sub-problems (or
    /// the deepest tried, [`MAX_SPLIT_DEPTH`] below the forced options, or the depth where the
    /// tree has no nodes left to cut). The depth depends only on the problem, the solver's
    /// option order and `target`, so the split is the same on every machine. Returns the split
    /// and the depth of its cut (forced options included).
    pub(crate) fn split_for(&mut self, target: usize) -> (Split, usize) {
        let base = self.forced().len();
        let mut depth = base + 1;
        loop {
            let split = self.split(depth);
            let subproblems = split.subproblems();
            if subproblems >= target || subproblems == 0 || depth >= base + MAX_SPLIT_DEPTH {
                return (split, depth);
            }
            depth += 1;
        }
    }
}

impl Split {
    /// The number of sub-problems (parts below the cut).
    pub fn subproblems(&self) -> usize {
        self.parts
            .iter()
            .filter(|p| matches!(p, Part::Subproblem(_)))
            .count()
    }

    /// The indices of the parts of shard `shard` (`(I, M)`, 1-based), or all parts.
    pub(crate) fn shard_parts(&self, shard: Option<(usize, usize)>) -> Vec<usize> {
        let (s, m) = shard.unwrap_or((1, 1));
        (0..self.parts.len())
            .filter(|&k| in_shard(k, s, m))
            .collect()
    }

    /// The statistics of the tree above the cut that a run over `shard` accounts for: all of
    /// them for the whole split and for shard 1, none for the other shards (so that shard
    /// totals add up exactly). Solutions above the cut are counted with their parts.
    pub(crate) fn above(&self, shard: Option<(usize, usize)>) -> Stats {
        if shard.is_none_or(|(s, _)| s == 1) {
            let mut above = self.stats;
            above.solutions = 0;
            above
        } else {
            Stats::default()
        }
    }
}
