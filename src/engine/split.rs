//! Splitting a search into independent sub-problems, for threads and for cluster shards.
//!
//! The search tree is cut at a fixed depth: every node at that depth becomes a sub-problem,
//! described by the options chosen on the way to it (its prefix). Forcing a prefix into a
//! fresh solver reproduces exactly the state the full search reaches there, so the sub-trees
//! have the same node and update counts as in one sequential run, and the parts, taken in
//! order, enumerate the solutions in the same order as the sequential search.

use std::ops::ControlFlow;

use rayon::prelude::*;

use super::dlx::{Solver, View, Visitor};
use super::problem::OptionId;
use super::stats::{Budget, Stats};

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
    pub parts: Vec<Part>,
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
    ) -> super::stats::Outcome {
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
    ) -> super::stats::Outcome {
        self.run_subproblem_without(prefix, &[], budget, visitor)
    }
}

/// Whether part `k` (0-based, in split order) belongs to shard `shard` of `shards` (1-based):
/// parts are dealt round-robin, so that neighbouring parts, which tend to cost alike, spread
/// over all shards.
pub fn in_shard(k: usize, shard: usize, shards: usize) -> bool {
    k % shards == shard - 1
}

/// Counts the solutions of the sub-problems of a split (optionally only those of one shard)
/// on the current rayon pool. `make` builds a fresh solver for a worker. Parts above the cut
/// count when they belong to the shard. Returns the summed statistics (including the split's
/// own when `shard` is `None` or the first shard, so that shard totals add up exactly).
pub fn count_parallel<'p, F>(split: &Split, shard: Option<(usize, usize)>, make: F) -> Stats
where
    F: Fn() -> Solver<'p> + Sync + Send,
{
    let (s, m) = shard.unwrap_or((1, 1));
    let mut total = if s == 1 {
        let mut above = split.stats;
        above.solutions = 0;
        above
    } else {
        Stats::default()
    };
    let sub: Stats = split
        .parts
        .par_iter()
        .enumerate()
        .filter(|(k, _)| in_shard(*k, s, m))
        .map_init(&make, |solver, (_, part)| match part {
            Part::Solution(_) => Stats {
                solutions: 1,
                ..Stats::default()
            },
            Part::Subproblem(prefix) => {
                solver
                    .run_subproblem(prefix, &Budget::unlimited(), &mut super::dlx::CountOnly)
                    .stats
            }
        })
        .sum();
    total += sub;
    total
}
