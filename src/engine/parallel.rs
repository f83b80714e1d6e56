//! Running a search on threads and in shards: the plan (threads, shard), the choice of the
//! split, and a problem's fingerprint (which shards of one run share).
//!
//! One thread without a shard runs the plain sequential search. Otherwise the search tree is
//! cut ([`Solver::split_for`]) at the shallowest depth that gives enough sub-problems —
//! [`PARTS_PER_THREAD`] per thread on threads, [`shard_target`]`(M)` for shards, so that every
//! shard of a run computes the same split whatever its thread count — and the sub-problems
//! are dealt to a rayon pool.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::dlx::Solver;
use super::multiplicity::MultiplicitySolver;
use super::optimize::{
    Config, Keep, Optimum, Scored, Sense, ShareBound, Status, best_first, conclude, optimize_gains,
    optimize_gains_parallel,
};
use super::problem::{OptionId, Problem};
use super::split::{
    PARTS_PER_THREAD, Part, Split, count_split, in_shard, run_split_ordered, shard_target,
};
use super::stats::{Budget, Outcome};

/// How to run a search: on how many threads, and which shard of the split.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
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

impl Plan {
    /// A solver over all options of `problem`, on the tree this plan asks for.
    fn solver<'p>(&self, problem: &'p Problem) -> Solver<'p> {
        let mut solver = Solver::new(problem);
        solver.knuth_tree(self.knuth);
        solver
    }

    /// The number of worker threads (0 resolved to the number of cores).
    pub fn thread_count(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }

    /// Whether the plain sequential search runs (one thread, no shard).
    pub fn is_sequential(&self) -> bool {
        self.shard.is_none() && self.thread_count() == 1
    }

    /// The split of `solver`'s search (its forced options stay) this plan uses.
    pub fn split(&self, solver: &mut Solver<'_>) -> (Split, SplitInfo) {
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

    fn pool(&self) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.thread_count())
            .build()
            .expect("cannot start the worker threads")
    }

    /// Counts the solutions of `problem` (all options, input order) within `budget`. On
    /// threads or in a shard only the budget's deadline applies (see [`Plan::supports`]).
    pub fn count(&self, problem: &Problem, budget: &Budget) -> (Outcome, Option<SplitInfo>) {
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
    pub fn list<S>(
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
    pub fn supports(&self, budget: &Budget) -> bool {
        self.is_sequential()
            || (budget.solutions.is_none() && budget.nodes.is_none() && budget.mems.is_none())
    }
}

/// Sub-problems per thread a listing may hold ahead of the output (finished or running).
pub const WINDOW_PER_THREAD: usize = 32;

// ---------------------------------------------------------------------------------------------
// The ordered window

/// Runs `work` on every task on `pool` (or the current rayon pool), at most `window` tasks in
/// flight (running, or finished and waiting for the sink), and calls `sink` on the results in
/// task order on the calling thread. Stops at the first `Break` or error of the sink (tasks in
/// flight finish and are dropped) and returns the error. A panic in `work` is resumed on the
/// calling thread.
///
/// The calling thread only waits and runs the sink; call it from outside the pool (from a
/// thread of the pool it would occupy that thread, and deadlock a pool of one thread — so it
/// then falls back to solving windows with `par_iter` and sinking them in order).
pub fn ordered_window<Task, T, E>(
    pool: Option<&rayon::ThreadPool>,
    tasks: &[Task],
    window: usize,
    work: impl Fn(&Task) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E>
where
    Task: Sync,
    T: Send,
{
    let window = window.max(1);
    let inside = match pool {
        Some(p) => p.current_thread_index().is_some(),
        None => rayon::current_thread_index().is_some(),
    };
    if inside {
        return windows_in_turn(tasks, window, &work, &mut sink);
    }
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let work = &work;
    let cancel = &cancel;
    let result = match pool {
        Some(p) => p.in_place_scope_fifo(|s| drive(s, tasks, window, work, cancel, tx, &rx, sink)),
        None => {
            rayon::in_place_scope_fifo(|s| drive(s, tasks, window, work, cancel, tx, &rx, sink))
        }
    };
    match result {
        Ok(r) => r,
        Err(panic) => resume_unwind(panic),
    }
}

/// A task's index and its result (or its panic).
type Done<T> = (usize, std::thread::Result<T>);

/// The calling thread's loop of [`ordered_window`]: starts tasks while the window has room,
/// sinks results in order, waits for the next one. `Err` is a task's panic, resumed by the
/// caller once the scope has ended.
#[allow(clippy::too_many_arguments)]
fn drive<'scope, Task, T, E, W>(
    s: &rayon::ScopeFifo<'scope>,
    tasks: &'scope [Task],
    window: usize,
    work: &'scope W,
    cancel: &'scope AtomicBool,
    tx: mpsc::Sender<Done<T>>,
    rx: &mpsc::Receiver<Done<T>>,
    mut sink: impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> std::thread::Result<Result<(), E>>
where
    Task: Sync,
    T: Send + 'scope,
    W: Fn(&Task) -> T + Sync,
{
    // Results of tasks next..started, `None` while running.
    let mut ready: VecDeque<Option<T>> = VecDeque::with_capacity(window);
    let (mut next, mut started) = (0usize, 0usize);
    let result = loop {
        while started < tasks.len() && started < next + window {
            let (tx, task, i) = (tx.clone(), &tasks[started], started);
            s.spawn_fifo(move |_| {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let r = catch_unwind(AssertUnwindSafe(|| work(task)));
                let _ = tx.send((i, r));
            });
            ready.push_back(None);
            started += 1;
        }
        if next == tasks.len() {
            break Ok(Ok(()));
        }
        if let Some(t) = ready.front_mut().and_then(Option::take) {
            ready.pop_front();
            next += 1;
            match sink(t) {
                Ok(ControlFlow::Continue(())) => continue,
                Ok(ControlFlow::Break(())) => break Ok(Ok(())),
                Err(e) => break Ok(Err(e)),
            }
        }
        let (i, r) = rx.recv().expect("a sender is alive");
        match r {
            Ok(t) => ready[i - next] = Some(t),
            Err(panic) => break Err(panic),
        }
    };
    // Tasks not started yet return at once; those running finish and are dropped.
    cancel.store(true, Ordering::Relaxed);
    result
}

/// [`ordered_window`] from inside the pool: windows solved in parallel, then sunk in order.
fn windows_in_turn<Task: Sync, T: Send, E>(
    tasks: &[Task],
    window: usize,
    work: &(impl Fn(&Task) -> T + Sync),
    sink: &mut impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    for chunk in tasks.chunks(window) {
        let results: Vec<T> = chunk.par_iter().map(work).collect();
        for t in results {
            if sink(t)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and every version of Rust.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

impl Problem {
    /// A stable 64-bit hash of the problem as parsed: the items (names, primary or secondary,
    /// in order), the options in order with their items, colours (by name) and costs. Shards of
    /// one run have the same fingerprint; another input, or the same options in another order
    /// (which changes the split), has another. Comments, spacing and line numbers do not count.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.bytes(b"xcover-problem-1");
        h.u64(self.item_count() as u64);
        for item in self.items() {
            h.bytes(&[u8::from(self.is_primary(item))]);
            h.str(self.item_name(item));
        }
        h.u64(self.option_count() as u64);
        for o in self.options() {
            let entries = self.option_entries(o);
            h.u64(entries.len() as u64);
            for e in entries {
                h.u64(u64::from(e.item.0));
                h.str(self.colour_name(e.colour).unwrap_or(""));
            }
            h.u64(self.cost(o) as u64);
        }
        h.0
    }

    /// [`Problem::fingerprint`] as 16 lowercase hexadecimal digits.
    pub fn fingerprint_hex(&self) -> String {
        format!("{:016x}", self.fingerprint())
    }
}

impl Plan {
    /// Branch and bound over the problem's costs (DLX5's `|n`) with the generic bound
    /// ([`ShareBound`]), options tried best first ([`best_first`]).
    ///
    /// - One thread, no shard: the sequential search.
    /// - Threads (`Keep::Best` without a node or mem budget): [`optimize_gains_parallel`]; other
    ///   cases run the sequential search.
    /// - A shard: the plain search tree (best-first option order) is split as for counting
    ///   and each of the shard's parts is optimised in turn (on one thread), each part starting
    ///   from the best solutions found so far. The shard's status is `optimal` when every part
    ///   was searched to the end: its solutions are then the best of its parts, and the best
    ///   over all shards is the optimum.
    pub fn optimize(
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
                    optimize_gains(&mut solver, &gains, &mut bound, &config, &[]),
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
            let best =
                optimize_gains_parallel(&mut solver, &gains, &mut bound, &mut workers, &config);
            return (best, None);
        }
        let (split, mut info) = self.split(&mut solver);
        // The parts of a shard are optimised one after the other, each seeded with the best so
        // far.
        info.threads = 1;
        let mut stats = split.above(self.shard);
        let mut kept: Vec<Scored> = Vec::new();
        let mut complete = true;
        // The best bound of a part cut short, in gains; `unbounded` when a part was cut short
        // without one or never reached (then the shard has no proven bound).
        let mut open: Option<i128> = None;
        let mut unbounded = false;
        for k in split.shard_parts(self.shard) {
            match &split.parts[k] {
                Part::Solution(options) => {
                    let mut options = options.clone();
                    options.sort_unstable();
                    let value = options.iter().map(|o| weights[o.0 as usize] as i128).sum();
                    kept.push(Scored { value, options });
                }
                Part::Subproblem(prefix) => {
                    for &o in prefix {
                        solver
                            .force(o)
                            .expect("a split prefix is always consistent with its solver");
                    }
                    let seeds: Vec<Vec<OptionId>> =
                        kept.iter().map(|s| s.options.clone()).collect();
                    let part = optimize_gains(&mut solver, &gains, &mut bound, &config, &seeds);
                    solver.unforce_all();
                    stats += part.stats;
                    if matches!(part.status, Status::Feasible | Status::Unknown) {
                        complete = false;
                        match part.bound.map(|b| sense.value(b)) {
                            Some(b) => open = Some(open.map_or(b, |o| o.max(b))),
                            None => unbounded = true,
                        }
                    }
                    kept.extend(part.solutions);
                }
            }
            // Best first (by gain), duplicates (a seed found again) dropped, as many as kept.
            kept.sort_by(|a, b| {
                sense
                    .value(b.value)
                    .cmp(&sense.value(a.value))
                    .then_with(|| a.options.cmp(&b.options))
            });
            kept.dedup();
            kept.truncate(match keep {
                Keep::Best => 1,
                Keep::Top(k) => k,
                Keep::AllOptimal { limit } => limit.max(1),
            });
            if budget
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                complete = false;
                unbounded = true;
                break;
            }
        }
        let kept = kept
            .into_iter()
            .map(|s| (sense.value(s.value), s.options))
            .collect();
        let root = if unbounded { None } else { open };
        let optimum = conclude(sense, kept, complete, root, stats);
        (optimum, Some(info))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_window_keeps_the_order_stops_and_propagates_errors() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let tasks: Vec<u64> = (0..1000).collect();
        // Uneven work: later tasks finish first.
        let work = |&t: &u64| {
            let spin = (1000 - t) * 50;
            (0..spin)
                .fold(t, |a, b| a.wrapping_add(b % 3))
                .wrapping_sub((0..spin).fold(0u64, |a, b| a.wrapping_add(b % 3)))
        };
        for window in [1, 2, 8, 64] {
            let mut seen = Vec::new();
            ordered_window(Some(&pool), &tasks, window, work, |t| {
                seen.push(t);
                Ok::<_, ()>(ControlFlow::Continue(()))
            })
            .unwrap();
            assert_eq!(seen, tasks);
            // From inside the pool too.
            let mut seen = Vec::new();
            pool.install(|| {
                ordered_window(None, &tasks, window, work, |t| {
                    seen.push(t);
                    Ok::<_, ()>(ControlFlow::Continue(()))
                })
            })
            .unwrap();
            assert_eq!(seen, tasks);
        }
        let mut seen = 0;
        let r = ordered_window(Some(&pool), &tasks, 8, work, |t| {
            seen += 1;
            if t == 10 {
                Err("stop")
            } else {
                Ok(ControlFlow::Continue(()))
            }
        });
        assert_eq!((r, seen), (Err("stop"), 11));
        let mut seen = 0;
        let r = ordered_window(Some(&pool), &tasks, 8, work, |t| {
            seen += 1;
            Ok::<_, ()>(if t == 20 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        });
        assert_eq!((r, seen), (Ok(()), 21));
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panic_in_a_task_reaches_the_caller() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let tasks: Vec<u32> = (0..100).collect();
        let _ = ordered_window(
            Some(&pool),
            &tasks,
            4,
            |&t| {
                assert!(t != 37, "boom");
                t
            },
            |_| Ok::<_, ()>(ControlFlow::Continue(())),
        );
    }
}
