//! The ordered window: sub-problems solved on a rayon pool, their results handed to a sink in
//! the order of the tasks, with a bounded number in flight. The parallel plans and the split
//! listing both stream through it.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

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
