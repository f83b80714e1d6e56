//! Threads: the one place of the engine that starts them. A search on threads is cut into
//! parts — the nodes at some depth of its tree, each named by the options taken on the way
//! (its prefix), found by the search itself
//! ([`Search::cut`](crate::engine::search::Search::cut)) — and the parts are dealt to
//! the workers of a rayon pool, each worker with a search of its own that counts or lists
//! below a prefix
//! ([`Search::count_below`](crate::engine::search::Search::count_below)). How many parts a thread gets is the plan's
//! choice (`choose.rs`); what is dealt here:
//!
//! - [`deal_with`]: every part in turn to a worker with a state of its own, made once per
//!   batch of work and reused (a plain count on threads);
//! - [`deal_per_thread`]: the same with one state per thread of the pool, kept over all the
//!   parts that thread takes and handed back at the end (a memoised count on threads: a memo
//!   table per thread);
//! - [`deal`]: tasks that carry what they need; through it [`Shared`], a count on threads
//!   that stops at deadlines and resumes where it stopped (the bitset search's, on threads
//!   and in the portfolio);
//! - [`ordered_window`]: parts whose results are handed on in the order of the parts, with a
//!   bounded number in flight (a listing on threads);
//! - [`beside`]: workers on threads of their own beside a search on the calling thread that
//!   feeds them (the optimiser on threads).
//!
//! Every search that runs on threads does so through these; no other file of the engine
//! starts a thread.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::count::SplitInfo;
use crate::engine::search::Resumable;
use crate::engine::stats::Stats;

/// The number of worker threads of `threads` (0: all cores).
pub(crate) fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// A pool of worker threads.
pub(crate) type Pool = rayon::ThreadPool;

/// A pool of `threads` workers (0: all cores).
pub(crate) fn pool(threads: usize) -> Pool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .expect("cannot start the worker threads")
}

/// `work` on every task on the current pool; the results in the order of the tasks.
pub(crate) fn deal<T, R>(tasks: Vec<T>, work: impl Fn(T) -> R + Sync + Send) -> Vec<R>
where
    T: Send,
    R: Send,
{
    tasks.into_par_iter().map(work).collect()
}

/// `work` on every task on the current pool, each worker with a state `make` builds for a
/// batch of tasks and reuses over it (building one may cost as much as a small part); the
/// results in the order of the tasks.
pub(crate) fn deal_with<S, T, R>(
    tasks: &[T],
    make: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &T) -> R + Sync + Send,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    tasks.par_iter().map_init(make, work).collect()
}

/// `work(state, k)` for every task `k` of `0..tasks` on the current pool of `threads`
/// threads, each thread with **one** state of its own, built by `make` on its first task and
/// kept over every task it takes (neighbouring tasks, which rayon hands to the same thread
/// first, share most of what a state remembers). Returns the results in task order and the
/// states built.
pub(crate) fn deal_per_thread<S, R>(
    tasks: usize,
    threads: usize,
    make: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, usize) -> R + Sync + Send,
) -> (Vec<R>, Vec<S>)
where
    S: Send,
    R: Send,
{
    // One slot per thread, found by the thread's index in the pool; the lock is never
    // contended (a thread only takes its own), it only proves that to the compiler.
    let slots: Vec<Mutex<Option<S>>> = (0..threads.max(1)).map(|_| Mutex::new(None)).collect();
    let results = (0..tasks)
        .into_par_iter()
        .map(|k| {
            let slot = rayon::current_thread_index().unwrap_or(0) % slots.len();
            let mut guard = slots[slot].lock().expect("a worker's own state");
            let state = guard.get_or_insert_with(&make);
            work(state, k)
        })
        .collect();
    let states = slots
        .into_iter()
        .filter_map(|s| s.into_inner().expect("a worker's own state"))
        .collect();
    (results, states)
}

/// Runs `each` on every worker, each on a thread of its own, while `main` runs on the calling
/// thread (it feeds the workers, e.g. through a channel; they end when it hangs up). Returns
/// `main`'s result and the workers', in the order of the workers. A worker's panic is
/// resumed here.
pub(crate) fn beside<W, R, M>(
    workers: impl IntoIterator<Item = W>,
    each: impl Fn(W) -> R + Sync,
    main: impl FnOnce() -> M,
) -> (M, Vec<R>)
where
    W: Send,
    R: Send,
{
    std::thread::scope(|scope| {
        let each = &each;
        let handles: Vec<_> = workers
            .into_iter()
            .map(|w| scope.spawn(move || each(w)))
            .collect();
        let m = main();
        let results = handles
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .collect();
        (m, results)
    })
}

/// Runs `work` on every task on `pool` (or the current rayon pool), at most `window` tasks in
/// flight (running, or finished and waiting for the sink), and calls `sink` on the results in
/// task order on the calling thread. Stops at the first `Break` or error of the sink (tasks in
/// flight finish and are dropped) and returns the error. A panic in `work` is resumed on the
/// calling thread.
///
/// The calling thread only waits and runs the sink; call it from outside the pool (from a
/// thread of the pool it would occupy that thread, and deadlock a pool of one thread — so it
/// then falls back to solving windows with `par_iter` and sinking them in order).
pub(crate) fn ordered_window<Task, T, E>(
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

/// Counts with `search` on the current pool of `threads` threads: its tree is cut into at
/// least `want` parts (where the tree has them), and each worker counts those it takes with
/// a search of its own ([`Resumable::fork`]). Only the budget's deadline and stop apply
/// (limits of solutions, nodes and mems would apply per part). The statistics of the tree
/// above the cut are included.
pub(crate) fn count_on_threads<S: Resumable>(
    search: S,
    threads: usize,
    want: usize,
    budget: &Budget,
) -> (Outcome, SplitInfo) {
    let mut run = Shared::new(search, threads, want);
    budget.stop.progress().add_parts(run.prefixes.len() as u64);
    let end = run.resume(budget);
    (
        Outcome {
            end,
            stats: run.stats,
        },
        run.info,
    )
}

/// A count on threads that stops at a deadline and resumes: the parts of
/// [`count_on_threads`], each counted by a search that keeps it when a deadline stops it half
/// way, so that the next call resumes it where it stopped.
pub(crate) struct Shared<S: Resumable> {
    proto: S,
    prefixes: Vec<S::Prefix>,
    /// The parts not started yet, and those stopped half way with their searches.
    pending: Vec<usize>,
    suspended: Vec<(usize, S)>,
    /// Searches free for the next part.
    idle: Mutex<Vec<S>>,
    /// The statistics of the tree above the cut and of the finished parts.
    stats: Stats,
    /// Of the parts stopped half way: their nodes, and the sum of their estimated fractions
    /// done, each times its weight.
    partial_nodes: u64,
    partial_progress: f64,
    /// Each part's estimated share of the tree (equal shares of a cut), and the share done
    /// before the parts were made (by a count they are the rest of).
    weights: Vec<f64>,
    done_before: f64,
    info: SplitInfo,
}

impl<S: Resumable> Shared<S> {
    /// Cuts the tree of `search`'s problem into at least `want` parts for `threads` threads
    /// (the cut is searched here).
    pub(crate) fn new(mut search: S, threads: usize, want: usize) -> Shared<S> {
        let cut = search.cut(want);
        let n = cut.parts.len();
        let weights = vec![1.0 / n.max(1) as f64; n];
        Shared::with_parts(
            search, cut.parts, weights, cut.above, 0.0, cut.depth, threads,
        )
    }

    /// The parts `prefixes` of `search`'s tree, weighed by their estimated shares
    /// `weights`, for `threads` threads: what is left of a count that did `above` (its
    /// solutions included) and an estimated share `done_before` of the tree; the depth of
    /// the deepest part is `depth`.
    pub(crate) fn with_parts(
        search: S,
        prefixes: Vec<S::Prefix>,
        weights: Vec<f64>,
        above: Stats,
        done_before: f64,
        depth: usize,
        threads: usize,
    ) -> Shared<S> {
        let info = SplitInfo {
            depth,
            subproblems: prefixes.len(),
            parts: prefixes.len() + above.solutions as usize,
            mine: prefixes.len() + above.solutions as usize,
            threads,
        };
        Shared {
            proto: search,
            pending: (0..prefixes.len()).rev().collect(),
            suspended: Vec::new(),
            prefixes,
            idle: Mutex::new(Vec::new()),
            stats: above,
            partial_nodes: 0,
            partial_progress: 0.0,
            weights,
            done_before,
            info,
        }
    }

    /// Counts the parts not counted yet, on the current pool, until they are all done
    /// ([`End::Exhausted`]) or the budget's deadline or stop ends the call.
    pub(crate) fn resume(&mut self, budget: &Budget) -> End {
        let budget = Budget {
            solutions: None,
            nodes: None,
            mems: None,
            ..budget.clone()
        };
        // The suspended parts first, then the others in order.
        let mut work: Vec<(usize, Option<S>)> = std::mem::take(&mut self.suspended)
            .into_iter()
            .map(|(k, e)| (k, Some(e)))
            .collect();
        work.extend(self.pending.drain(..).rev().map(|k| (k, None)));
        let (proto, prefixes, idle) = (&self.proto, &self.prefixes, &self.idle);
        let count = |(k, search): (usize, Option<S>)| {
            if let Some(end) = budget.out_of_time() {
                let stats = Stats::default();
                return (k, search, Outcome { end, stats });
            }
            let (search, out) = match search {
                // The outcome's statistics are the whole part's.
                Some(mut e) => {
                    let out = e.resume(&budget).expect("a resumable search resumes");
                    (e, out)
                }
                None => {
                    let spare = idle.lock().expect("the idle searches").pop();
                    let mut e = spare.unwrap_or_else(|| proto.fork());
                    let out = e.count_below(&prefixes[k], &budget);
                    (e, out)
                }
            };
            if out.end == End::Exhausted {
                budget
                    .stop
                    .progress()
                    .part_counted(out.stats.solutions().into());
                idle.lock().expect("the idle searches").push(search);
                (k, None, out)
            } else {
                (k, Some(search), out)
            }
        };
        // On one thread the parts in turn on the calling thread (no pool needed).
        let results: Vec<(usize, Option<S>, Outcome)> = if self.info.threads > 1 {
            deal(work, count)
        } else {
            work.into_iter().map(count).collect()
        };
        let mut end = End::Exhausted;
        self.partial_nodes = 0;
        self.partial_progress = 0.0;
        for (k, search, out) in results {
            if out.end == End::Exhausted {
                self.stats += out.stats;
                continue;
            }
            match search {
                // Not started before the deadline: back to the list.
                None => self.pending.push(k),
                Some(e) => {
                    self.partial_nodes += e.nodes();
                    self.partial_progress += e.progress() * self.weights[k];
                    self.suspended.push((k, e));
                }
            }
            if end == End::Exhausted {
                end = out.end;
            }
        }
        self.pending.sort_unstable_by(|a, b| b.cmp(a));
        end
    }

    /// The estimated fraction of the count done: the share done before the parts, the
    /// finished parts, and the estimates of those stopped half way
    /// ([`Resumable::progress`]), each part by its weight.
    pub(crate) fn progress(&self) -> f64 {
        if self.pending.is_empty() && self.suspended.is_empty() {
            return 1.0;
        }
        let open: f64 = (self.pending.iter().copied())
            .chain(self.suspended.iter().map(|(k, _)| *k))
            .map(|k| self.weights[k])
            .sum();
        let all: f64 = self.weights.iter().sum();
        (self.done_before + all - open + self.partial_progress).clamp(0.0, 1.0)
    }

    /// What the count did so far (the solutions of the finished parts; the nodes of all).
    pub(crate) fn stats(&self) -> Stats {
        let mut s = self.stats;
        s.nodes += self.partial_nodes;
        s
    }

    /// The split.
    pub(crate) fn info(&self) -> SplitInfo {
        self.info
    }
}

/// For tests of a [`Resumable`] search: resumes `shared` on `pool` in time slices growing
/// from 20 µs until it ends, checking that each slice ends by its deadline or the count, and
/// that the progress stays a fraction and ends at 1 (`round` names the problem in a failure).
#[cfg(test)]
pub(crate) fn resume_in_growing_slices<S: Resumable>(
    pool: &rayon::ThreadPool,
    shared: &mut Shared<S>,
    round: usize,
) -> Stats {
    let mut slice = std::time::Duration::from_micros(20);
    loop {
        let budget = Budget::unlimited().with_time(slice);
        let end = pool.install(|| shared.resume(&budget));
        assert!((0.0..=1.0).contains(&shared.progress()), "round {round}");
        if end == End::Exhausted {
            break;
        }
        assert_eq!(end, End::TimeLimit, "round {round}");
        slice += slice / 4;
    }
    assert_eq!(shared.progress(), 1.0, "round {round}");
    shared.stats()
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
