//! Running a search on threads and in shards: the plan (threads, shard), the choice of the
//! split, and a problem's fingerprint (which shards of one run share).
//!
//! One thread without a shard runs the plain sequential search. Otherwise the search tree is
//! cut ([`Solver::split_for`]) at the shallowest depth that gives enough sub-problems —
//! `PARTS_PER_THREAD` per thread on threads, `shard_target(M)` for shards, so that every
//! shard of a run computes the same split whatever its thread count (`choose.rs`) — and the
//! sub-problems are dealt to a rayon pool (`threads.rs`).

use std::ops::ControlFlow;
use std::sync::Mutex;

use super::choose::{WINDOW_PER_THREAD, split_target};
use super::threads;
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::count::SplitInfo;
use crate::engine::optimize::{
    Config, Keep, Optimum, Sense, ShareBound, Strategy, best_first, optimize, optimize_split,
};
use crate::engine::problem::{OptionId, Problem};
use crate::engine::search::Search;
use crate::engine::search::dlx::Solver;
use crate::engine::search::multiplicity::MultiplicitySolver;
use crate::engine::split::{Part, Split, in_shard};
use crate::engine::stats::Stats;

/// How a search spreads: on how many threads, and which shard of the split (the part of
/// `run::Plan` this file reads).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Spread {
    /// Worker threads; 0 means all cores.
    pub threads: usize,
    /// Only part `I` of `M` (1-based) of the deterministic split.
    pub shard: Option<(usize, usize)>,
    /// Count and list on Knuth's exact DLX2 tree ([`Solver::knuth_tree`]).
    pub knuth: bool,
}

impl Spread {
    /// A solver over all options of `problem`, on the tree this plan asks for.
    fn solver<'p>(&self, problem: &'p Problem) -> Solver<'p> {
        let mut solver = Solver::new(problem);
        solver.knuth_tree(self.knuth);
        solver
    }

    /// The number of worker threads (0 resolved to the number of cores).
    pub(crate) fn thread_count(&self) -> usize {
        threads::thread_count(self.threads)
    }

    /// Whether the plain sequential search runs (one thread, no shard).
    pub(crate) fn is_sequential(&self) -> bool {
        self.shard.is_none() && self.thread_count() == 1
    }

    /// The split of `solver`'s search (its forced options stay) this plan uses.
    pub(crate) fn split(&self, solver: &mut Solver<'_>) -> (Split, SplitInfo) {
        let threads = self.thread_count();
        let cut = Search::cut(solver, split_target(threads, self.shard));
        let (split, depth) = (
            Split {
                parts: cut.parts,
                stats: cut.above,
            },
            cut.depth,
        );
        let (s, m) = self.shard.unwrap_or((1, 1));
        let info = SplitInfo {
            depth,
            subproblems: split.subproblems(),
            parts: split.parts.len(),
            mine: (0..split.parts.len())
                .filter(|&k| in_shard(k, s, m))
                .count(),
            threads,
        };
        (split, info)
    }

    pub(super) fn pool(&self) -> threads::Pool {
        threads::pool(self.threads)
    }

    /// Counts the solutions of `problem` (all options, input order; no multiplicities: those
    /// are Algorithm M's) by the dance within `budget`. On threads or in a shard only the
    /// budget's deadline applies (see [`Spread::supports`]).
    pub(crate) fn count(&self, problem: &Problem, budget: &Budget) -> (Outcome, Option<SplitInfo>) {
        let mut solver = self.solver(problem);
        if self.is_sequential() {
            return (Search::count(&mut solver, budget), None);
        }
        let (split, info) = self.split(&mut solver);
        let outcome = self
            .pool()
            .install(|| count_split(&split, self.shard, budget, || self.solver(problem)));
        (outcome, Some(info))
    }

    /// Reports every solution of `problem` to `sink`, in the order of the sequential search,
    /// within `budget` (on threads or in a shard only its deadline applies). On threads at most
    /// [`WINDOW_PER_THREAD`] sub-problems per thread are held ahead of the output.
    pub(crate) fn list<S>(
        &self,
        problem: &Problem,
        budget: &Budget,
        sink: S,
    ) -> (Outcome, Option<SplitInfo>)
    where
        S: FnMut(&[OptionId]) -> ControlFlow<()>,
    {
        if problem.has_multiplicities() {
            let mut sink = sink;
            return (
                Search::list(&mut MultiplicitySolver::new(problem), budget, &mut sink),
                None,
            );
        }
        let mut solver = self.solver(problem);
        if self.is_sequential() {
            let mut sink = sink;
            return (Search::list(&mut solver, budget, &mut sink), None);
        }
        let (split, info) = self.split(&mut solver);
        let threads = info.threads;
        let outcome = run_split_ordered(
            &self.pool(),
            threads,
            WINDOW_PER_THREAD * threads,
            &split,
            self.shard,
            budget,
            || self.solver(problem),
            sink,
        );
        (outcome, Some(info))
    }

    /// Whether a budget can be kept on this plan: on threads and in shards the budget of
    /// solutions, nodes and mems would apply to each sub-problem, not to the whole, so only a
    /// deadline is supported there (the caller runs one thread without a shard instead, or
    /// refuses).
    pub(crate) fn supports(&self, budget: &Budget) -> bool {
        self.is_sequential()
            || (budget.solutions.is_none() && budget.nodes.is_none() && budget.mems.is_none())
    }
}

impl Spread {
    /// Branch and bound over the problem's costs (DLX5's `|n`) with the generic bound
    /// ([`ShareBound`]), options tried best first ([`best_first`]).
    ///
    /// - One thread, no shard: the sequential search.
    /// - Threads (`Keep::Best` without a node or mem budget): [`Strategy::workers`]; other
    ///   cases run the sequential search.
    /// - A shard: the plain search tree (best-first option order) is split as for counting
    ///   and each of the shard's parts is optimised in turn (on one thread), each part starting
    ///   from the best solutions found so far (`optimize_split`). The shard's status is `optimal` when every part
    ///   was searched to the end: its solutions are then the best of its parts, and the best
    ///   over all shards is the optimum.
    pub(crate) fn optimize(
        &self,
        problem: &Problem,
        sense: Sense,
        keep: Keep,
        budget: Budget,
    ) -> (Optimum, Option<SplitInfo>) {
        let weights: Vec<i64> = problem.options().map(|o| problem.cost(o)).collect();
        let gains = sense.gains(&weights);
        let order = best_first(problem, &gains);
        let mut solver = Solver::with_options(problem, order.iter().copied());
        let mut bound = ShareBound::new(problem, &gains);
        let config = Config {
            sense,
            keep,
            budget,
        };
        if self.shard.is_none() {
            let threads = self.thread_count();
            if threads == 1 {
                return (
                    optimize(&mut solver, &gains, &mut bound, &config, Strategy::new()),
                    None,
                );
            }
            let mut workers: Vec<_> = (0..threads)
                .map(|_| {
                    (
                        Solver::with_options(problem, order.iter().copied()),
                        ShareBound::new(problem, &gains),
                    )
                })
                .collect();
            let plan = Strategy::new().workers(&mut workers);
            let best = optimize(&mut solver, &gains, &mut bound, &config, plan);
            return (best, None);
        }
        let (split, mut info) = self.split(&mut solver);
        // The parts of a shard are optimised one after the other, on one thread.
        info.threads = 1;
        let optimum = optimize_split(
            &mut solver,
            &weights,
            &gains,
            &mut bound,
            &config,
            &split,
            self.shard,
        );
        (optimum, Some(info))
    }
}

/// The end of a run over several parts: exhausted only if every part was.
fn worse(a: End, b: End) -> End {
    if a == End::Exhausted { b } else { a }
}

/// Counts the solutions of the parts of a split (or of one shard's parts) on the current
/// pool ([`threads::deal_with`]), each sub-problem within `budget` (only its deadline is meant to be used: node,
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
    let counted = threads::deal_with(&mine, &make, |solver, &k| {
        let o = Search::count_below(solver, &split.parts[k], budget);
        budget
            .stop
            .progress()
            .part_counted(o.stats.solutions().into());
        (o.stats, o.end)
    });
    let (stats, end) = counted
        .into_iter()
        .fold((Stats::default(), End::Exhausted), |a, b| {
            (a.0 + b.0, worse(a.1, b.1))
        });
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
/// [`threads::ordered_window`], and
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
    pool: &threads::Pool,
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
    let done = threads::ordered_window(Some(pool), &mine, window, work, |found: Found| {
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
