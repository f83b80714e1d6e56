//! Splitting a search into independent sub-problems, for threads and for cluster shards.
//!
//! The search tree is cut at a fixed depth: every node at that depth becomes a sub-problem,
//! described by the options chosen on the way to it (its prefix). Forcing a prefix into a
//! fresh solver reproduces exactly the state the full search reaches there, so the sub-trees
//! have the same node and update counts as in one sequential run, and the parts, taken in
//! order, enumerate the solutions in the same order as the sequential search.

use std::ops::ControlFlow;
use std::sync::Mutex;

use rayon::prelude::*;

use super::budget::{Budget, End, Outcome};
use super::problem::OptionId;
use super::search::dlx::{Solver, View, Visitor};
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

/// Whether part `k` (0-based, in split order) belongs to shard `shard` of `shards` (1-based):
/// parts are dealt round-robin, so that neighbouring parts, which tend to cost alike, spread
/// over all shards.
pub(crate) fn in_shard(k: usize, shard: usize, shards: usize) -> bool {
    k % shards == shard - 1
}

/// Sub-problems per thread that [`Solver::split_for`] aims at for a run on threads: enough
/// that the unequal sizes of sub-trees even out over the threads.
pub(crate) const PARTS_PER_THREAD: usize = 256;

/// Sub-problems a split for `shards` shards aims at: at least [`SHARD_PARTS_MIN`], and
/// [`PARTS_PER_SHARD`] per shard, so that every shard gets many sub-trees and no shard much
/// more work than the mean. Depends only on `shards`, so that every shard of a run computes
/// the same split.
pub(crate) fn shard_target(shards: usize) -> usize {
    SHARD_PARTS_MIN.max(shards.saturating_mul(PARTS_PER_SHARD))
}

/// See [`shard_target`].
pub(crate) const SHARD_PARTS_MIN: usize = 4096;
/// See [`shard_target`].
pub(crate) const PARTS_PER_SHARD: usize = 64;

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

/// The end of a run over several parts: exhausted only if every part was.
fn worse(a: End, b: End) -> End {
    if a == End::Exhausted { b } else { a }
}

/// Counts the solutions of the parts of a split (or of one shard's parts) on the current
/// rayon pool, each sub-problem within `budget` (only its deadline is meant to be used: node,
/// mem and solution limits apply per sub-problem, not to the total). `make` builds a fresh
/// solver for a worker; it must have the same options in the same order as the one that was
/// split. With an unlimited budget, the totals of solutions, nodes, updates, mems and
/// cleansings are those of one sequential search (and the shards add up to them).
pub(crate) fn count_split<'p, F>(
    split: &Split,
    shard: Option<(usize, usize)>,
    budget: &Budget,
    make: F,
) -> Outcome
where
    F: Fn() -> Solver<'p> + Sync + Send,
{
    let mine = split.shard_parts(shard);
    budget.stop.progress().add_parts(mine.len() as u64);
    let (stats, end) = mine
        .par_iter()
        .map_init(&make, |solver, &k| {
            let r = match &split.parts[k] {
                Part::Solution(_) => (
                    Stats {
                        solutions: 1,
                        ..Stats::default()
                    },
                    End::Exhausted,
                ),
                Part::Subproblem(prefix) => {
                    let o =
                        solver.run_subproblem(prefix, budget, &mut super::search::dlx::CountOnly);
                    (o.stats, o.end)
                }
            };
            budget.stop.progress().part_counted(r.0.solutions().into());
            r
        })
        .reduce(
            || (Stats::default(), End::Exhausted),
            |a, b| (a.0 + b.0, worse(a.1, b.1)),
        );
    Outcome {
        end,
        stats: split.above(shard) + stats,
    }
}

/// What a worker of [`run_split_ordered`] found in one part: the solutions (options
/// concatenated, with their lengths) and the outcome.
struct Found {
    options: Vec<OptionId>,
    lengths: Vec<usize>,
    outcome: Outcome,
}

/// Runs the parts of a split (or of one shard's parts) on the threads of `pool` (`_threads` is
/// not used: the pool's size is) through the ordered window of
/// [`super::window::ordered_window`], and
/// reports every solution to `sink` on the calling thread, **in the order of the sequential
/// search**: each part's solutions are buffered, and the parts are handed to `sink` in order.
/// At most `window` parts are ahead of the last one handed over (finished or running), so the
/// memory held is bounded by the solutions of `window` parts, not by the number of solutions.
///
/// Each sub-problem runs within `budget` (meant for a deadline). `sink` returning `Break`
/// stops the run (`End::Stopped`); a part that does not finish (a deadline) stops it after
/// that part's solutions. Statistics are summed over the parts that ran, plus the tree above
/// the cut (see [`count_split`]); on a complete run they are those of the sequential search.
///
/// Call it from outside `pool` (the calling thread waits for the workers).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_split_ordered<'p, F, S>(
    pool: &rayon::ThreadPool,
    _threads: usize,
    window: usize,
    split: &Split,
    shard: Option<(usize, usize)>,
    budget: &Budget,
    make: F,
    mut sink: S,
) -> Outcome
where
    F: Fn() -> Solver<'p> + Sync + Send,
    S: FnMut(&[OptionId]) -> ControlFlow<()>,
{
    let mine = split.shard_parts(shard);
    // Solvers are reused from task to task (building one costs as much as a small part).
    let solvers: Mutex<Vec<Solver<'p>>> = Mutex::new(Vec::new());
    let lock = || solvers.lock().unwrap_or_else(|e| e.into_inner());
    let mut stats = split.above(shard);
    let mut end = End::Exhausted;
    let work = |&k: &usize| {
        let mut found = Found {
            options: Vec::new(),
            lengths: Vec::new(),
            outcome: Outcome {
                end: End::Exhausted,
                stats: Stats::default(),
            },
        };
        match &split.parts[k] {
            Part::Solution(options) => {
                found.options.extend_from_slice(options);
                found.lengths.push(options.len());
                found.outcome.stats.solutions = 1;
            }
            Part::Subproblem(prefix) => {
                let taken = lock().pop();
                let mut solver = taken.unwrap_or_else(&make);
                let (options, lengths) = (&mut found.options, &mut found.lengths);
                found.outcome = solver.run_subproblem(prefix, budget, &mut |s: &[OptionId]| {
                    options.extend_from_slice(s);
                    lengths.push(s.len());
                    ControlFlow::Continue(())
                });
                lock().push(solver);
            }
        }
        found
    };
    let done = super::window::ordered_window(Some(pool), &mine, window, work, |found: Found| {
        let mut at = 0;
        for &len in &found.lengths {
            let s = &found.options[at..at + len];
            at += len;
            if sink(s).is_break() {
                end = End::Stopped;
                stats += found.outcome.stats;
                return Ok(ControlFlow::Break(()));
            }
        }
        stats += found.outcome.stats;
        if found.outcome.end != End::Exhausted {
            end = found.outcome.end;
            return Ok(ControlFlow::Break(()));
        }
        Ok::<_, std::convert::Infallible>(ControlFlow::Continue(()))
    });
    let Ok(()) = done;
    Outcome { end, stats }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::io::dlx_format;

    /// n queens: ranks and files primary, diagonals secondary, options row by row.
    fn queens(n: usize) -> crate::engine::Problem {
        let mut text = String::new();
        for i in 0..n {
            text += &format!("r{i} c{i} ");
        }
        text += "|";
        for d in 0..2 * n - 1 {
            text += &format!(" a{d} b{d}");
        }
        text += "\n";
        for i in 0..n {
            for j in 0..n {
                text += &format!("r{i} c{j} a{} b{}\n", i + j, n - 1 - i + j);
            }
        }
        dlx_format::parse(text.as_bytes(), "test").unwrap().problem
    }

    /// Every solution of the sequential search, in order, and its statistics.
    fn sequential(p: &crate::engine::Problem) -> (Vec<Vec<OptionId>>, Stats) {
        let mut all = Vec::new();
        let o = Solver::new(p).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            all.push(s.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(o.end, End::Exhausted);
        (all, o.stats)
    }

    #[test]
    fn a_window_of_one_part_keeps_the_order() {
        let p = queens(8);
        let (seq, stats) = sequential(&p);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (window, depth) in [(1, 1), (1, 3), (2, 2), (100, 4)] {
            let split = Solver::new(&p).split(depth);
            let mut found = Vec::new();
            let o = run_split_ordered(
                &pool,
                3,
                window,
                &split,
                None,
                &Budget::unlimited(),
                || Solver::new(&p),
                |s: &[OptionId]| {
                    found.push(s.to_vec());
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(found, seq);
            assert_eq!(o.stats, stats);
            // The sink stops the run.
            let mut n = 0;
            let o = run_split_ordered(
                &pool,
                3,
                window,
                &split,
                None,
                &Budget::unlimited(),
                || Solver::new(&p),
                |_: &[OptionId]| {
                    n += 1;
                    if n == 5 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert_eq!((o.end, n), (End::Stopped, 5));
        }
    }

    #[test]
    fn count_split_keeps_a_deadline() {
        let p = queens(12);
        let split = Solver::new(&p).split(2);
        let budget = Budget::unlimited().with_time(std::time::Duration::ZERO);
        let o = count_split(&split, None, &budget, || Solver::new(&p));
        assert_eq!(o.end, End::TimeLimit);
    }
}
