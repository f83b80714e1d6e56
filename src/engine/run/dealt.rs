//! The models' own work dealt to threads through the door: a model that cuts its work into
//! tasks itself (the queens listing's prefixes, a batch of sudoku puzzles) hands them here
//! rather than starting threads of its own.
//!
//! - [`deal_in_order`]: tasks on a rayon pool, at most a window of them in flight, their
//!   results handed to a sink on the calling thread in the order of the tasks (a listing
//!   whose output must not depend on the threads);
//! - [`deal_each`]: every task on the current rayon pool, the results in the order of the
//!   tasks.
//!
//! Both are the door's thread module's own (`threads.rs`), under the names the models use.

use std::ops::ControlFlow;

use super::threads;

/// Runs `work` on every task on `pool` (or the current rayon pool), at most `window` tasks in
/// flight (running, or finished and waiting for the sink), and calls `sink` on the results in
/// task order on the calling thread. Stops at the first `Break` or error of the sink (tasks in
/// flight finish and are dropped) and returns the error; a panic in `work` is resumed on the
/// calling thread. Call it from outside the pool (from a thread of the pool the windows are
/// solved in turn instead).
pub(crate) fn deal_in_order<Task, T, E>(
    pool: Option<&rayon::ThreadPool>,
    tasks: &[Task],
    window: usize,
    work: impl Fn(&Task) -> T + Sync,
    sink: impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E>
where
    Task: Sync,
    T: Send,
{
    threads::ordered_window(pool, tasks, window, work, sink)
}

/// `work` on every task on the current rayon pool; the results in the order of the tasks.
pub(crate) fn deal_each<T, R>(tasks: &[T], work: impl Fn(&T) -> R + Sync + Send) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    threads::deal_with(tasks, || (), |_, task| work(task))
}
