//! Running a search on threads and in shards: the plan (threads, shard), the choice of the
//! split, and a problem's fingerprint (which shards of one run share).
//!
//! One thread without a shard runs the plain sequential search. Otherwise the search tree is
//! cut ([`Solver::split_for`]) at the shallowest depth that gives enough sub-problems —
//! [`PARTS_PER_THREAD`] per thread on threads, [`shard_target`]`(M)` for shards, so that every
//! shard of a run computes the same split whatever its thread count — and the sub-problems
//! are dealt to a rayon pool.

use std::ops::ControlFlow;

use super::budget::{Budget, Outcome};
use super::optimize::{
    Config, Keep, Optimum, Sense, ShareBound, Strategy, best_first, optimize, optimize_split,
};
use super::problem::{OptionId, Problem};
use super::search::dlx::Solver;
use super::search::multiplicity::MultiplicitySolver;
use super::split::{
    PARTS_PER_THREAD, Split, count_split, in_shard, run_split_ordered, shard_target,
};

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

impl Spread {
    /// A solver over all options of `problem`, on the tree this plan asks for.
    fn solver<'p>(&self, problem: &'p Problem) -> Solver<'p> {
        let mut solver = Solver::new(problem);
        solver.knuth_tree(self.knuth);
        solver
    }

    /// The number of worker threads (0 resolved to the number of cores).
    pub(crate) fn thread_count(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }

    /// Whether the plain sequential search runs (one thread, no shard).
    pub(crate) fn is_sequential(&self) -> bool {
        self.shard.is_none() && self.thread_count() == 1
    }

    /// The split of `solver`'s search (its forced options stay) this plan uses.
    pub(crate) fn split(&self, solver: &mut Solver<'_>) -> (Split, SplitInfo) {
        let threads = self.thread_count();
        let target = match self.shard {
            Some((_, m)) => shard_target(m),
            None => PARTS_PER_THREAD.saturating_mul(threads),
        };
        let (split, depth) = solver.split_for(target);
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

    pub(super) fn pool(&self) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.thread_count())
            .build()
            .expect("cannot start the worker threads")
    }

    /// Counts the solutions of `problem` (all options, input order) within `budget`. On
    /// threads or in a shard only the budget's deadline applies (see [`Spread::supports`]).
    pub(crate) fn count(&self, problem: &Problem, budget: &Budget) -> (Outcome, Option<SplitInfo>) {
        if problem.has_multiplicities() {
            return (MultiplicitySolver::new(problem).count(budget), None);
        }
        let mut solver = self.solver(problem);
        if self.is_sequential() {
            return (solver.count(budget), None);
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
                MultiplicitySolver::new(problem).run(budget, &mut sink),
                None,
            );
        }
        let mut solver = self.solver(problem);
        if self.is_sequential() {
            let mut sink = sink;
            return (solver.run(budget, &mut sink), None);
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

/// Sub-problems per thread a listing may hold ahead of the output (finished or running).
pub const WINDOW_PER_THREAD: usize = 32;

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
