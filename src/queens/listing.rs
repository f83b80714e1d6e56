//! Listing n-queens solutions at the speed of the output: a word-parallel (bitboard) enumerator
//! in lexicographic order, split into ordered tasks, fast row formatting, and an ordered
//! parallel driver with bounded memory.
//!
//! # Order
//!
//! A solution is its columns `q[0..n]` (`q[r]` is the file of the queen on rank `r`). The
//! enumerator places ranks 0, 1, ..., n-1 in turn and tries the open files of a rank in
//! increasing order (lowest set bit first), so solutions come out in lexicographic order of
//! `q`. The dancing-links search ([`Engine::Dlx`]) solves each prefix's sub-problem and
//! sorts its solutions into the same order, solution for solution.
//!
//! A *task* is a prefix: the files of the first `d` ranks. [`tasks`] lists every legal prefix
//! of one depth in lexicographic order, so the tasks' solutions, concatenated in task order,
//! are exactly all solutions in lexicographic order.
//!
//! With `unique`, a solution is kept only when it is the representative of its class under the
//! 8 symmetries of the square (its lexicographically smallest image), decided by
//! [`symmetry::representative_class`], which also gives the class size. A representative has
//! `q0 <= (n-1)/2` (the left-right mirror has `q0' = n-1-q0`), so files beyond are not tried
//! on rank 0.
//!
//! # Rows and numbering
//!
//! Rows are numbered (1, 2, ...) in the global order, which a worker does not know. A worker
//! therefore formats each row without its number ([`ListFormat::tail`]) into [`Rows`], and the
//! ordered writer puts the number in front ([`ListFormat::head`], [`Rows::write_numbered`]):
//! a copy of the rows plus one `itoa` per row, done on the writing thread.
//!
//! # Parallel order
//!
//! The engine's door deals the tasks to a rayon pool (`run::deal_in_order`) with at most
//! `window` tasks in flight (started or finished but not yet written) and hands their results
//! to a sink in task order. Memory is bounded by `window` task results. [`list`] puts it all
//! together, and halves the search with the left-right mirror (see [`list`] and
//! docs/queens.md).
//!
//! # The files
//!
//! - this file: the listings ([`list`], [`for_each_solution`], the search order) and their
//!   tasks;
//! - `tasks.rs`: the task prefixes and the bitboard enumerator below a prefix;
//! - `search.rs`: one task's search, by either engine;
//! - `rows.rs`: rows formatted by a worker ([`Rows`]) and numbered by the writer;
//! - `mirror.rs`: a left task's solutions kept for its mirror task.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Mutex;

mod mirror;
mod rows;
mod search;
mod tasks;
#[cfg(test)]
mod tests;

use crate::engine::run::{self, Dance};
use crate::engine::{Budget, OptionId};
use crate::io::records::ListFormat;
pub use crate::queens::common::MAX_N;
use crate::queens::count::Engine;
use crate::queens::model::{Queens, QueensError};
use crate::queens::symmetry;

use mirror::Mirror;
pub use rows::Rows;
use rows::{NumberedRows, WINDOW_ROWS};
use search::{BitsSearch, DlxSearch, Emit, TaskFn, TaskSearch};
pub use tasks::{for_each_solution_in, tasks};

/// The number of tasks [`list`] splits `n` into with [`Engine::Bits`], at least: many
/// small tasks keep both the buffers (memory) and the imbalance at the end small.
const LIST_MIN_TASKS: usize = 4096;

/// The same for [`Engine::Dlx`]: every task's sub-problem is solved whole and its first
/// ranks forced out of the search's own order, which costs more the deeper the tasks (for
/// n = 14, depth 1 visits 1.33 times the updates of the whole search, depth 2 1.50, depth 4
/// 1.71), so its tasks are as few as balance allows.
const DLX_MIN_TASKS: usize = 64;

/// Rows a task should hold at most, roughly: the window's memory is about
/// `window × ROWS_PER_TASK` rows, whatever n.
const ROWS_PER_TASK: u128 = 4096;

/// The fewest tasks [`list`] asks for at most (their prefixes are in memory; [`tasks`] may
/// give up to n times more at the depth that reaches it).
const LIST_MAX_TASKS: usize = 1 << 16;

/// The most tasks in flight in [`list`], whatever the thread count (memory).
const LIST_MAX_WINDOW: usize = 64;

/// The number of solutions of the n-queens problem where it is known (A000170, n = 1..=27;
/// a test checks the table against the counters for n <= 13): `None` above.
pub fn solutions_known(n: usize) -> Option<u128> {
    n.checked_sub(1).and_then(|i| SOLUTIONS.get(i)).copied()
}

/// A000170(n) for n = 1..=27, to size the tasks and for [`solutions_known`].
const SOLUTIONS: [u128; 27] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
];

/// The tasks of [`list`] for `n`: enough that each holds about [`ROWS_PER_TASK`] rows (at
/// least `min_tasks`, at most [`LIST_MAX_TASKS`]), so the memory of the window does not grow
/// with n. With a `limit`, no more tasks than `limit` rows need.
fn list_tasks(n: usize, limit: u64, min_tasks: usize) -> Vec<Vec<u8>> {
    let sols = SOLUTIONS.get(n - 1).copied().unwrap_or(u128::MAX);
    let rows = sols.min(u128::from(limit));
    let want = usize::try_from(rows / ROWS_PER_TASK).unwrap_or(usize::MAX);
    tasks(n, want.clamp(min_tasks, LIST_MAX_TASKS))
}

/// Calls `emit(q, class_size)` for every `n`-queens solution in lexicographic order of `q`,
/// found by `engine` on the calling thread; with `unique` for every class representative (its
/// lexicographically smallest image) with `class_size = Some(size)` (`None` without `unique`).
/// Stops at the first `Break` of `emit` and returns it. The solutions and their order are
/// those of [`list`], for either engine.
pub fn for_each_solution(
    n: usize,
    unique: bool,
    engine: Engine,
    mut emit: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, QueensError> {
    match engine {
        Engine::Bits if (1..=MAX_N).contains(&n) => Ok(for_each_solution_in(n, &[], unique, emit)),
        Engine::Bits => Err(QueensError::BadSize(n)),
        Engine::Dlx => {
            let model = Queens::new(n)?;
            Ok(DlxSearch::new(&model, unique).each(&[], &mut emit))
        }
    }
}

/// Calls `emit(q, class_size)` for every `n`-queens solution in the order the dancing-links
/// search finds them on the exact-cover model ([`Queens`]): it branches on the rank or file
/// with the fewest open squares (the middle of the board first on ties), so the first
/// solutions come after a few hundred nodes for every n, where lexicographic order puts them
/// behind a long search from n = 30 on. With `unique`, every class representative with
/// `class_size = Some(size)`: the search runs below each root of
/// [`Queens::representative_roots`] in turn (q0 = 0, 1, ...), where representatives are
/// common. Every solution exactly once, on the calling thread, in the same order on every run.
/// Stops at the first `Break` of `emit` and returns it.
pub fn for_each_solution_in_search_order(
    n: usize,
    unique: bool,
    mut emit: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, QueensError> {
    let model = Queens::new(n)?;
    let mut q = [0u8; MAX_N];
    let flow = std::cell::Cell::new(ControlFlow::Continue(()));
    let mut visit = |s: &[OptionId]| {
        let q = &mut q[..n];
        model.columns_into(s, q);
        let f = match unique {
            false => emit(q, None),
            true => match symmetry::representative_class(q) {
                Some(size) => emit(q, Some(size)),
                None => ControlFlow::Continue(()),
            },
        };
        flow.set(f);
        f
    };
    if !unique {
        Dance::new(model.problem()).run(&Budget::unlimited(), &mut visit);
        return Ok(flow.get());
    }
    for (options, queen) in model.representative_roots() {
        let mut solver = Dance::in_order(model.problem(), options.iter().copied());
        solver.run_subproblem(&[queen], &Budget::unlimited(), &mut visit);
        if flow.get().is_break() {
            break;
        }
    }
    Ok(flow.get())
}

/// Writes the rows (no header) of every `n`-queens solution (with `unique` every class
/// representative with its class size) in the order of
/// [`for_each_solution_in_search_order`], numbered from 1, at most `limit`, in `format`, to
/// `out`. Returns the number of rows written.
pub fn list_in_search_order(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    format: ListFormat,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    let mut rows = NumberedRows::new(out, format, 0, limit);
    let _ = for_each_solution_in_search_order(n, unique, |q, class_size| rows.push(q, class_size))
        .map_err(io::Error::other)?;
    rows.finish()
}

/// Writes the rows (no header) of every `n`-queens solution — with `unique`, every class
/// representative with its class size — in lexicographic order, numbered from 1, at most
/// `limit`, in `format`, to `out`, found by `engine`. Returns the number of rows written.
/// The output does not depend on the number of threads nor on the engine.
///
/// Tasks are prefixes of the first ranks, in lexicographic order ([`tasks`]). On a pool of one
/// thread (or without threads) the calling thread enumerates them in turn and formats each row
/// whole into a large buffer. Otherwise they run on `pool` (or the current rayon pool) with at
/// most `4 × threads` (and at most 64) tasks in flight (`run::deal_in_order`): a worker formats
/// its task's rows without their numbers ([`Rows`]), the calling thread numbers them and
/// writes each task's rows with one `write_all`.
///
/// Without `unique` half the search is saved by the left-right mirror (both engines): the
/// tasks with `q0 >= n/2` are the mirror images of those with `q0 < (n-1)/2` in reverse order
/// (the mirror reverses the lexicographic order), so a left task keeps its solutions,
/// front-coded (`Mirror`), and its mirror task writes them mirrored and reversed instead of
/// searching. A right task whose partner's solutions are not there (not finished yet) searches
/// itself, so no task ever waits.
///
/// Call it from outside the pool (see `run::deal_in_order`).
pub fn list(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    format: ListFormat,
    engine: Engine,
    pool: Option<&rayon::ThreadPool>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let model = match engine {
        Engine::Bits => None,
        Engine::Dlx => Some(Queens::new(n).map_err(io::Error::other)?),
    };
    let all = match engine {
        Engine::Bits => list_tasks(n, limit, LIST_MIN_TASKS),
        Engine::Dlx => list_tasks(n, limit, DLX_MIN_TASKS),
    };
    // With `unique` rank 0 is already restricted to the left half.
    let mirror = (!unique).then(|| Mirror::new(all.len()));
    let search = |i: usize, s: &mut dyn TaskSearch, emit: &mut Emit<'_>| match &mirror {
        Some(m) => m.each(n, &all, i, s, emit),
        None => s.each(&all[i], emit),
    };
    let new_search = || -> Box<dyn TaskSearch + '_> {
        match &model {
            None => Box::new(BitsSearch { n, unique }),
            Some(m) => Box::new(DlxSearch::new(m, unique)),
        }
    };
    if threads <= 1 {
        return list_in_turn(all.len(), limit, format, &mut *new_search(), &search, out);
    }
    let index: Vec<usize> = (0..all.len()).collect();
    let window = (4 * threads).min(LIST_MAX_WINDOW);
    let mut written = 0u64;
    let mut buf = Vec::new();
    // A task holds at most `cap` rows, the window at most `WINDOW_ROWS`; the rest of a bigger
    // task is streamed by the writer itself, so memory stays bounded whatever n and threads.
    let cap = limit.min(WINDOW_ROWS / window as u64);
    let mut rest: Option<Box<dyn TaskSearch + '_>> = None;
    let searches: Mutex<Vec<Box<dyn TaskSearch + Send + '_>>> = Mutex::new(Vec::new());
    let sink = |(i, rows): (usize, Rows)| {
        buf.clear();
        written += rows.write_numbered(format, written + 1, limit - written, &mut buf);
        out.write_all(&buf)?;
        if rows.len() as u64 >= cap && written < limit {
            let s = rest.get_or_insert_with(new_search);
            written = stream_rest(&all[i], &mut **s, format, cap, written, limit, out)?;
        }
        Ok::<_, io::Error>(if written >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    };
    run::deal_in_order(
        pool,
        &index,
        window,
        |&i| {
            let take = searches.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut s = take.unwrap_or_else(|| match &model {
                None => Box::new(BitsSearch { n, unique }),
                Some(m) => Box::new(DlxSearch::new(m, unique)),
            });
            let rows = Rows::gather(format, cap, |emit| search(i, &mut *s, emit));
            searches.lock().unwrap_or_else(|e| e.into_inner()).push(s);
            (i, rows)
        },
        sink,
    )?;
    Ok(written)
}

/// [`list`] on the calling thread alone: the tasks in turn, each row formatted whole (number
/// included) into a buffer written every `rows::WRITE_BUFFER` bytes.
fn list_in_turn(
    tasks: usize,
    limit: u64,
    format: ListFormat,
    s: &mut dyn TaskSearch,
    search: &TaskFn<'_>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut rows = NumberedRows::new(out, format, 0, limit);
    for i in 0..tasks {
        let flow = search(i, s, &mut |q, class_size| rows.push(q, class_size));
        if flow.is_break() {
            break;
        }
    }
    rows.finish()
}

/// Writes the rows of the solutions extending `prefix` after its first `skip` (already
/// written, numbered up to `written`) straight to `out`, numbered on, until `limit` rows are
/// written in all; returns the new number written. `s` searches the task again from its start
/// (the same solutions in the same order as the worker's).
fn stream_rest(
    prefix: &[u8],
    s: &mut dyn TaskSearch,
    format: ListFormat,
    skip: u64,
    written: u64,
    limit: u64,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut rows = NumberedRows::new(out, format, written, limit);
    let mut seen = 0u64;
    let _ = s.each(prefix, &mut |q, class_size| {
        seen += 1;
        if seen <= skip {
            ControlFlow::Continue(())
        } else {
            rows.push(q, class_size)
        }
    });
    rows.finish()
}
