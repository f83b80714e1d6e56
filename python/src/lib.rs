//! `dancelinks._native`: the native half of the Python package `dancelinks`, a thin layer over
//! the Rust library (`dancelinks::queens`, `dancelinks::engine`, `dancelinks::io`).
//!
//! Every long call runs on a worker thread while the calling thread, without the interpreter
//! lock, waits for it and every [`POLL`] asks Python whether a signal came
//! ([`Python::check_signals`]). On Ctrl-C the stop flag of the call and the engine's stop request
//! ([`dancelinks::engine::request_stop`]) are set; the searches that
//! watch it (listings, the boards of a stack, a problem's listing) stop at the next solution or
//! board, and the call returns what it has with `interrupted = True` (the Python layer raises
//! `dancelinks.Interrupted`, a `KeyboardInterrupt` carrying the partial result).
//!
//! Arrays cross the boundary as `bytes` (native-endian `int64`, `uint8` for queen files) that
//! the Python layer views with `numpy.frombuffer`: no dependency on numpy's C API, so one build
//! works with every numpy.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::engine::optimize::{Keep, Sense};
use dancelinks::engine::{
    Budget, BuildError, DEFAULT_MEMO_BYTES, Entry, MemoMode, OptionId, Plan, ProblemBuilder,
    count_memoised,
};
use dancelinks::io::dlx_format::{self, ErrorKind};
use dancelinks::io::input::LineReader;
use dancelinks::queens::count::{self as qcount, Engine, Request};
use dancelinks::queens::heatmap::heatmap_until as queens_heatmap;
use dancelinks::queens::listing;
use dancelinks::queens::weighted::{self, WeightedQueens};
use dancelinks::records::Status;

mod models;
mod pictures;

/// How often the waiting thread looks for signals and reports progress.
const POLL: Duration = Duration::from_millis(50);

/// Layouts (or solutions) per chunk a streaming worker hands to the iterator.
const CHUNK: usize = 4096;

/// Chunks a streaming worker may hold ahead of the iterator.
const CHUNKS_AHEAD: usize = 4;

/// A progress report for the Python callback: `(done, total, found)`.
#[derive(Default)]
struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    found: AtomicU64,
}

impl Progress {
    /// The callback's arguments.
    fn args(&self) -> (usize, usize, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
            self.found.load(Ordering::Relaxed),
        )
    }
}

/// Runs `work` on a worker thread while the calling thread, without the interpreter lock,
/// waits for it. Every [`POLL`] the waiting thread checks for signals and calls `progress` with
/// the lock held. A first `KeyboardInterrupt` sets `stop` (the worker ends at its next stopping
/// point, and its result is returned); a second one abandons the worker (`None`: it runs on in
/// the background until its next stopping point, and its result is dropped). Returns the
/// worker's result and whether a signal interrupted it. An exception raised by `progress`
/// stops the worker and is returned once it ends.
fn run_polled<T: Send + 'static>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    progress: Option<(&Bound<'_, PyAny>, Arc<Progress>)>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<(Option<T>, bool)> {
    let report = progress.map(|(f, p)| (f.clone().unbind(), p));
    // The engine's searches stop at the process-wide request (as the command line's on
    // SIGINT): withdrawn before the call, made on the first Ctrl-C.
    dancelinks::engine::clear_stop();
    let (tx, rx) = sync_channel(1);
    let worker = std::thread::Builder::new()
        .name("dancelinks".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start a worker thread: {e}")))?;
    let (result, signals, failure) = py.detach(move || {
        let mut failure: Option<PyErr> = None;
        let mut signals = 0u32;
        loop {
            match rx.recv_timeout(POLL) {
                Ok(r) => {
                    // The last report: the end of the work, as the callback should show it.
                    if let Some((f, p)) = &report
                        && failure.is_none()
                    {
                        failure = Python::attach(|py| f.call1(py, p.args()).err());
                    }
                    return (Ok(Some(r)), signals, failure);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = match worker.join() {
                        Err(p) => p
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| p.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "a panic".into()),
                        Ok(()) => "no result".into(),
                    };
                    let e = PyRuntimeError::new_err(format!(
                        "internal error in the dancelinks worker thread: {why}"
                    ));
                    return (Err(e), signals, failure);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let abandon = Python::attach(|py| {
                if py.check_signals().is_err() {
                    signals += 1;
                    stop.store(true, Ordering::Relaxed);
                    dancelinks::engine::request_stop();
                    return signals >= 2;
                }
                if let Some((f, p)) = &report
                    && failure.is_none()
                    && let Err(e) = f.call1(py, p.args())
                {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
                false
            });
            if abandon {
                return (Ok(None), signals, failure);
            }
        }
    });
    let result = result?;
    // The worker returned: later calls run unstopped (an abandoned one keeps the request, so
    // that it ends at its next stopping point).
    if result.is_some() {
        dancelinks::engine::clear_stop();
    }
    match failure {
        Some(e) => Err(e),
        None => Ok((result, signals > 0)),
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The budget (`limit` solutions, `time_limit` seconds) and the plan on `threads` of a count
/// or listing of a problem: one thread when the budget is not one threads can keep.
fn listing_plan(
    limit: Option<u64>,
    time_limit: Option<f64>,
    threads: usize,
) -> PyResult<(Budget, Plan)> {
    check_threads(threads)?;
    let mut budget = time_budget(time_limit)?;
    budget.solutions = limit;
    let mut plan = Plan {
        threads,
        shard: None,
        knuth: false,
    };
    if !plan.supports(&budget) {
        plan.threads = 1;
    }
    Ok((budget, plan))
}

/// The budget of a time limit in seconds (`None`: no limit; beyond what the clock holds: none).
fn time_budget(time_limit: Option<f64>) -> PyResult<Budget> {
    let mut budget = Budget::unlimited();
    if let Some(t) = time_limit {
        if t.is_nan() || t < 0.0 {
            return Err(PyValueError::new_err(format!(
                "time_limit must be a number of seconds >= 0, not {t}"
            )));
        }
        if let Ok(d) = Duration::try_from_secs_f64(t) {
            budget.deadline = Instant::now().checked_add(d);
        }
    }
    Ok(budget)
}

fn check_threads(threads: usize) -> PyResult<()> {
    if threads > 1024 {
        return Err(PyValueError::new_err(format!(
            "threads must be 0 (all cores) to 1024, not {threads}"
        )));
    }
    Ok(())
}

fn check_board(n: usize) -> PyResult<()> {
    if !(1..=listing::MAX_N).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "n must be 1 to {}, not {n}",
            listing::MAX_N
        )));
    }
    Ok(())
}

/// What [`count`] returns: `(solutions, unique or None, engine, interrupted)`.
type CountAnswer = (u128, Option<u128>, &'static str, bool);

/// count(n, unique, engine, threads, progress) -> (solutions, unique or None, engine,
/// interrupted), None when a second Ctrl-C abandoned it
///
/// The number of n-queens solutions (and fundamental solutions with `unique`), as `xcover
/// queens count` counts them: by `engine` ("dlx", "bits"; None: the fastest for n), in one
/// call of the library's counter. Ctrl-C makes the engine's stop request, which the counter
/// watches (between tasks, every 1,024 nodes, while building its tables), and the counter says
/// whether it stopped: `interrupted` is then true and the counts are lower bounds. A count
/// during which a signal came is reported interrupted even if it ended whole.
/// `progress(done, total, found)` gets the tasks done and the solutions counted so far.
#[pyfunction]
#[pyo3(signature = (n, unique=false, engine=None, threads=0, progress=None))]
fn count(
    py: Python<'_>,
    n: usize,
    unique: bool,
    engine: Option<&str>,
    threads: usize,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Option<CountAnswer>> {
    check_threads(threads)?;
    // Both engines count the boards 1 to MAX_N: say so, not what the engine picked for n says.
    check_board(n)?;
    let engine = match engine {
        None => Engine::fastest(n, None),
        Some("dlx") => Engine::Dlx,
        Some("bits") => Engine::Bits,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "engine must be 'dlx' or 'bits' (or None for the fastest), not '{other}'"
            )));
        }
    };
    let request = Request {
        n,
        unique,
        engine,
        threads: Some(threads),
        ..Request::new(n)
    };
    request.validate().map_err(value_error)?;
    let stop = Arc::new(AtomicBool::new(false));
    let p = Arc::new(Progress::default());
    let report = Arc::clone(&p);
    let (counted, signalled) = run_polled(
        py,
        &stop,
        progress.as_ref().map(|f| (f, Arc::clone(&p))),
        move || {
            qcount::count(&request, &|done, total, found| {
                report.done.store(done, Ordering::Relaxed);
                report.total.store(total, Ordering::Relaxed);
                report
                    .found
                    .store(u64::try_from(found).unwrap_or(u64::MAX), Ordering::Relaxed);
            })
        },
    )?;
    let Some(counted) = counted else {
        return Ok(None);
    };
    let c = counted.map_err(value_error)?;
    Ok(Some((
        c.solutions,
        c.unique,
        engine.name(),
        c.interrupted || signalled,
    )))
}

/// What [`solutions_array`] returns: `(files, class_sizes, interrupted)`.
type Listed<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, bool);

/// solutions_array(n, unique, limit, threads) -> (files: bytes, class_sizes: bytes, interrupted)
///
/// Every n-queens solution in lexicographic order (the order of `xcover queens list`), at most
/// `limit`: `files` holds n bytes a solution (the file of the queen of each rank, 0-based);
/// with `unique` one representative per symmetry class, and `class_sizes` one byte each.
/// After Ctrl-C, the solutions listed so far, a prefix of the listing; None when abandoned.
#[pyfunction]
#[pyo3(signature = (n, unique=false, limit=None, threads=0))]
fn solutions_array<'py>(
    py: Python<'py>,
    n: usize,
    unique: bool,
    limit: Option<u64>,
    threads: usize,
) -> PyResult<Option<Listed<'py>>> {
    check_board(n)?;
    check_threads(threads)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let (listed, interrupted) = run_polled(py, &stop, None, move || {
        list_all(n, unique, limit, threads, &flag)
    })?;
    let Some((files, sizes)) = listed else {
        return Ok(None);
    };
    let files = files.map_err(value_error)?;
    Ok(Some((
        PyBytes::new(py, &files),
        PyBytes::new(py, &sizes),
        interrupted,
    )))
}

/// The solutions of [`solutions_array`]: with a limit (or one thread) in one sequential pass,
/// otherwise the tasks of the listing on a pool, concatenated in order up to the first task
/// that `stop` cut short (so that the result is always a prefix of the listing).
fn list_all(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    threads: usize,
    stop: &AtomicBool,
) -> (Result<Vec<u8>, String>, Vec<u8>) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => return (Err(format!("cannot start the worker threads: {e}")), vec![]),
    };
    let one_task = |prefix: &[u8], limit: u64| {
        let (mut files, mut sizes) = (Vec::new(), Vec::new());
        let mut k = 0u64;
        let flow = listing::for_each_solution_in(n, prefix, unique, |q, size| {
            if k >= limit || stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            files.extend_from_slice(q);
            if let Some(s) = size {
                sizes.push(s);
            }
            k += 1;
            ControlFlow::Continue(())
        });
        (files, sizes, flow.is_continue())
    };
    if limit.is_some() || pool.current_num_threads() == 1 {
        let (f, s, _) = one_task(&[], limit.unwrap_or(u64::MAX));
        return (Ok(f), s);
    }
    use rayon::prelude::*;
    let tasks = listing::tasks(n, 16 * pool.current_num_threads());
    let parts: Vec<(Vec<u8>, Vec<u8>, bool)> =
        pool.install(|| tasks.par_iter().map(|p| one_task(p, u64::MAX)).collect());
    let mut files = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut sizes = Vec::new();
    for (f, s, whole) in parts {
        files.extend_from_slice(&f);
        sizes.extend_from_slice(&s);
        if !whole {
            break;
        }
    }
    (Ok(files), sizes)
}

/// An iterator over chunks produced by a worker thread: each `next()` waits (without the
/// interpreter lock, looking for signals) for the next chunk. Dropping it stops the worker.
struct Stream<T> {
    rx: Mutex<Option<Receiver<T>>>,
    stop: Arc<AtomicBool>,
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl<T: Send + 'static> Stream<T> {
    /// Starts `work(send)`; `send` returns false once the iterator is gone (stop then).
    fn start(work: impl FnOnce(&dyn Fn(T) -> bool, &AtomicBool) + Send + 'static) -> Self {
        let (tx, rx): (SyncSender<T>, Receiver<T>) = sync_channel(CHUNKS_AHEAD);
        // A stop request left by an abandoned call must not cut this listing short.
        dancelinks::engine::clear_stop();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let worker = std::thread::spawn(move || {
            let send = |t: T| !flag.load(Ordering::Relaxed) && tx.send(t).is_ok();
            work(&send, &flag);
        });
        Stream {
            rx: Mutex::new(Some(rx)),
            stop,
            worker: Mutex::new(Some(worker)),
        }
    }

    /// The next chunk, `None` at the end. A `KeyboardInterrupt` while waiting stops the worker
    /// and is raised.
    fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        let mut guard = self.rx.lock().expect("one reader at a time");
        let Some(mut rx) = guard.take() else {
            return Ok(None);
        };
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(t) => {
                    *guard = Some(rx);
                    return Ok(Some(t));
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
            }
        }
    }
}

impl<T> Drop for Stream<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut rx) = self.rx.lock() {
            rx.take();
        }
        if let Ok(mut w) = self.worker.lock()
            && let Some(w) = w.take()
        {
            let _ = w.join();
        }
    }
}

/// QueensStream(n, unique, limit): the n-queens solutions in lexicographic order, as chunks
/// `(files: bytes, class_sizes: bytes)` of up to 4096 solutions.
#[pyclass(module = "dancelinks._native")]
struct QueensStream {
    inner: Stream<(Vec<u8>, Vec<u8>)>,
}

#[pymethods]
impl QueensStream {
    #[new]
    #[pyo3(signature = (n, unique=false, limit=None))]
    fn new(n: usize, unique: bool, limit: Option<u64>) -> PyResult<Self> {
        check_board(n)?;
        let limit = limit.unwrap_or(u64::MAX);
        let inner = Stream::start(move |send, stop| {
            let (mut files, mut sizes) = (Vec::new(), Vec::new());
            let mut k = 0u64;
            let flow = listing::for_each_solution_in(n, &[], unique, |q, size| {
                if k >= limit || stop.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                k += 1;
                files.extend_from_slice(q);
                if let Some(s) = size {
                    sizes.push(s);
                }
                if files.len() >= CHUNK * n
                    && !send((std::mem::take(&mut files), std::mem::take(&mut sizes)))
                {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if (flow.is_continue() || k >= limit) && !files.is_empty() {
                send((files, sizes));
            }
        });
        Ok(QueensStream { inner })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)>> {
        Ok(self
            .inner
            .next(py)?
            .map(|(f, s)| (PyBytes::new(py, &f), PyBytes::new(py, &s))))
    }
}

/// heatmap(n, unique) -> (counts as Python ints, total) or None when stopped
///
/// For every square (rank-major), the number of n-queens solutions with a queen on it. Ctrl-C
/// stops the search within milliseconds (a partial table is not returned).
#[pyfunction]
#[pyo3(signature = (n, unique=false))]
fn heatmap(py: Python<'_>, n: usize, unique: bool) -> PyResult<Option<(Vec<u128>, u128)>> {
    check_board(n)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let (h, _) = run_polled(py, &stop, None, move || {
        queens_heatmap(n, unique, &|| flag.load(Ordering::Relaxed))
    })?;
    Ok(h.flatten().map(|h| (h.counts, h.total)))
}

/// The answers of the boards of a stack, column by column (one Python object a column, not one
/// a board: a stack of 10,000 small boards costs the Python layer a few slices a board).
#[derive(Default)]
struct Boards {
    status: Vec<&'static str>,
    bound: Vec<Option<i128>>,
    optimal_count: Vec<Option<u64>>,
    nodes: Vec<u64>,
    /// Layouts of each board.
    layouts: Vec<usize>,
    /// The layouts' scores, board after board.
    scores: Vec<i128>,
    /// The layouts' files, board after board (see [`maximise`]).
    files: Vec<u8>,
}

/// What [`maximise`] returns: the columns of [`Boards`] and whether Ctrl-C stopped the stack.
type Maximised<'py> = (
    Vec<&'static str>,
    Vec<Option<i128>>,
    Vec<Option<u64>>,
    Vec<u64>,
    Vec<usize>,
    Vec<i128>,
    Bound<'py, PyBytes>,
    bool,
);

/// maximise(weights, k, n, all_optimal, top, time_limit, threads, floor, progress)
///     -> (status, bound, optimal_count, nodes, layouts, scores, files, interrupted), None when
///     a second Ctrl-C abandoned it
///
/// `weights`: k boards of n×n native-endian int64 (rank-major). Each board as `xcover queens
/// max` solves it (the same method, the same layouts). The answer comes as columns: one entry
/// a board in `status`, `bound`, `optimal_count`, `nodes` and `layouts` (how many), one a
/// layout in `scores`; `files` holds n bytes a layout when n <= 255, else 4 bytes
/// (native-endian uint32) a queen. Boards not reached after an interrupt are left out.
/// `progress(boards done, boards, layouts found)`.
#[pyfunction]
#[pyo3(signature = (weights, k, n, all_optimal=false, top=None, time_limit=None, threads=0, floor=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn maximise<'py>(
    py: Python<'py>,
    weights: &[u8],
    k: usize,
    n: usize,
    all_optimal: bool,
    top: Option<usize>,
    time_limit: Option<f64>,
    threads: usize,
    floor: Option<i128>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Option<Maximised<'py>>> {
    check_threads(threads)?;
    if k.checked_mul(n * n).and_then(|c| c.checked_mul(8)) != Some(weights.len()) {
        return Err(PyValueError::new_err(format!(
            "{} bytes are not {k} boards of {n}x{n} int64",
            weights.len()
        )));
    }
    if k > 0 {
        weighted::check_size(n).map_err(value_error)?;
    }
    if top == Some(0) {
        return Err(PyValueError::new_err("top must be at least 1"));
    }
    if floor.is_some() && (top.is_some() || all_optimal) {
        return Err(PyValueError::new_err(
            "floor cannot be combined with top or all_optimal",
        ));
    }
    if top.is_some() && all_optimal {
        return Err(PyValueError::new_err(
            "top and all_optimal cannot be combined",
        ));
    }
    time_budget(time_limit)?;
    let numbers: Vec<i64> = weights
        .chunks_exact(8)
        .map(|b| i64::from_ne_bytes(b.try_into().expect("8 bytes")))
        .collect();
    let keep = match (top, all_optimal) {
        (Some(t), _) => Keep::Top(t),
        (None, true) => Keep::AllOptimal { limit: usize::MAX },
        // As the command line's records: the best layout (the same search as every format),
        // then the optimal layouts counted apart (`solve_counted`).
        (None, false) => Keep::Best,
    };
    // As the command line: one thread for boards too small for the split to pay.
    let threads = if threads == 0 && n < weighted::PARALLEL_MIN_N {
        1
    } else if threads == 0 {
        std::thread::available_parallelism().map_or(1, |t| t.get())
    } else {
        threads
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let p = Arc::new(Progress::default());
    p.total.store(k, Ordering::Relaxed);
    let report = Arc::clone(&p);
    let (answers, interrupted) =
        run_polled(py, &stop, progress.as_ref().map(|f| (f, p)), move || {
            let stop = flag;
            let mut out = Boards::default();
            if k == 0 {
                return out;
            }
            let mut model_started = Some(Instant::now());
            let mut model = WeightedQueens::new(n);
            for b in 0..k {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let board = &numbers[b * n * n..(b + 1) * n * n];
                let mut budget = Budget::unlimited();
                if let Some(t) = time_limit.and_then(|t| Duration::try_from_secs_f64(t).ok()) {
                    let start = model_started.take().unwrap_or_else(Instant::now);
                    budget.deadline = start.checked_add(t);
                }
                let req = weighted::Request {
                    keep,
                    budget,
                    method: weighted::Method::Auto,
                    threads,
                };
                let (res, below_floor) = model.solve_counted(board, &req, floor);
                let status = Status::of_board(res.status, below_floor);
                out.scores.extend(res.layouts.iter().map(|l| l.score));
                for l in &res.layouts {
                    if n <= 255 {
                        out.files.extend(l.queens.iter().map(|&q| q as u8));
                    } else {
                        out.files
                            .extend(l.queens.iter().flat_map(|&q| q.to_ne_bytes()));
                    }
                }
                out.status.push(status.name());
                out.bound.push(res.bound);
                out.optimal_count.push(res.optimal_count);
                out.nodes.push(res.nodes);
                out.layouts.push(res.layouts.len());
                report.done.store(b + 1, Ordering::Relaxed);
                report
                    .found
                    .fetch_add(res.layouts.len() as u64, Ordering::Relaxed);
            }
            out
        })?;
    let Some(b) = answers else {
        return Ok(None);
    };
    Ok(Some((
        b.status,
        b.bound,
        b.optimal_count,
        b.nodes,
        b.layouts,
        b.scores,
        PyBytes::new(py, &b.files),
        interrupted,
    )))
}

/// check_weighted_size(n): ValueError unless the weighted model takes n×n boards (before the
/// Python layer converts a stack).
#[pyfunction]
fn check_weighted_size(n: usize) -> PyResult<()> {
    weighted::check_size(n).map_err(value_error)
}

/// What [`NativeProblem::optimise`] returns: `(status, bound, [(value, [option])], nodes,
/// interrupted)`.
type Optimised = (String, Option<i128>, Vec<(i128, Vec<u32>)>, u64, bool);

/// An exact-cover problem (items, options, colours, costs, multiplicities), built once.
#[pyclass(module = "dancelinks._native", frozen)]
struct NativeProblem {
    problem: Arc<dancelinks::engine::Problem>,
    /// The input line of each option (read_dlx), else empty.
    lines: Vec<usize>,
    warnings: Vec<String>,
}

#[pymethods]
impl NativeProblem {
    /// NativeProblem(primary, secondary, options, costs): options are lists of tokens
    /// `name` or `name:colour`; primary items may be `u:v|name` (multiplicities).
    #[new]
    #[pyo3(signature = (primary, secondary, options, costs=None))]
    fn new(
        primary: Vec<String>,
        secondary: Vec<String>,
        options: Vec<Vec<String>>,
        costs: Option<Vec<i64>>,
    ) -> PyResult<Self> {
        let mut b = ProblemBuilder::new();
        let item_err = |name: &str, e: BuildError| value_error(format!("item '{name}': {e}"));
        // Items as the DLX reader takes them: its parser of `u:v|name`, the builder's names.
        for spec in &primary {
            let (name, bounds) = dlx_format::item_spec(spec).map_err(value_error)?;
            match bounds {
                Some((u, v)) => b.primary_with_bounds(name, u, v),
                None => b.primary(name),
            }
            .map_err(|e| item_err(spec, e))?;
        }
        for name in &secondary {
            if let Ok((_, Some(_))) = dlx_format::item_spec(name) {
                return Err(value_error(ErrorKind::Multiplicity(name.clone())));
            }
            b.secondary(name).map_err(|e| item_err(name, e))?;
        }
        if let Some(c) = &costs
            && c.len() != options.len()
        {
            return Err(PyValueError::new_err(format!(
                "{} costs for {} options",
                c.len(),
                options.len()
            )));
        }
        for (k, option) in options.iter().enumerate() {
            let cost = costs.as_ref().map_or(0, |c| c[k]);
            let mut entries = Vec::with_capacity(option.len());
            let fail =
                |e: BuildError| value_error(format!("option {k} ({}): {e}", option.join(" ")));
            for token in option {
                let (name, colour) = match token.split_once(':') {
                    Some((n, c)) => (n, Some(c)),
                    None => (token.as_str(), None),
                };
                let item = b
                    .item_id(name)
                    .ok_or_else(|| fail(BuildError::UnknownItem(name.to_string())))?;
                let entry = match colour {
                    None => Entry::plain(item),
                    Some(c) => Entry::coloured(item, b.colour(c).map_err(fail)?),
                };
                entries.push(entry);
            }
            b.add_option(entries, cost).map_err(fail)?;
        }
        let problem = b.build().map_err(value_error)?;
        Ok(NativeProblem {
            problem: Arc::new(problem),
            lines: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// read_dlx(path): a problem in Knuth's DLX format (with DLX3's multiplicities and DLX5's
    /// costs), as `xcover solve` reads it. Errors are `FILE:LINE:COLUMN: message`.
    #[staticmethod]
    fn read_dlx(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let shown = path.display().to_string();
        let file = std::fs::File::open(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot read {shown}: {e}")))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(PyOSError::new_err(format!(
                "cannot read {shown}: it is a directory"
            )));
        }
        let reader = LineReader::new(std::io::BufReader::with_capacity(1 << 16, file), shown);
        let dlx = py
            .detach(|| dlx_format::read(reader))
            .map_err(value_error)?;
        Ok(NativeProblem {
            lines: dlx.option_lines.clone(),
            warnings: dlx
                .warnings
                .iter()
                .map(|w| format!("{}:{}: {}", w.file, w.line, w.message))
                .collect(),
            problem: Arc::new(dlx.problem),
        })
    }

    /// The items' names: (primary, secondary), with multiplicities as the DLX item line writes
    /// them (`v|name`, `u:v|name`).
    fn items(&self) -> (Vec<String>, Vec<String>) {
        let p = &self.problem;
        let (mut primary, mut secondary) = (Vec::new(), Vec::new());
        for i in p.items() {
            if p.is_primary(i) {
                primary.push(dlx_format::item_token(p, i));
            } else {
                secondary.push(p.item_name(i).to_string());
            }
        }
        (primary, secondary)
    }

    /// The options as DLX text (`p r x:A y`).
    fn options(&self) -> Vec<String> {
        let p = &self.problem;
        p.options().map(|o| p.format_option(o)).collect()
    }

    /// The options' costs.
    fn costs(&self) -> Vec<i64> {
        let p = &self.problem;
        p.options().map(|o| p.cost(o)).collect()
    }

    /// The input line of each option (read_dlx), else an empty list.
    fn option_lines(&self) -> Vec<usize> {
        self.lines.clone()
    }

    /// The reader's warnings (options without a primary item, ignored as DLX1 does).
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// Whether some item has a multiplicity.
    fn has_multiplicities(&self) -> bool {
        self.problem.has_multiplicities()
    }

    /// count(limit, time_limit, threads, memo) -> (count, status, nodes, interrupted), as
    /// `xcover solve --count` counts (the memo decided by a probe unless `memo` is false).
    #[pyo3(signature = (limit=None, time_limit=None, threads=0, memo=None))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        time_limit: Option<f64>,
        threads: usize,
        memo: Option<bool>,
    ) -> PyResult<(u128, String, u64, bool)> {
        let (budget, plan) = listing_plan(limit, time_limit, threads)?;
        let mode = match memo {
            None => MemoMode::Auto,
            Some(true) => MemoMode::On,
            Some(false) => MemoMode::Off,
        };
        let problem = Arc::clone(&self.problem);
        let stop = Arc::new(AtomicBool::new(false));
        let (c, interrupted) = run_polled(py, &stop, None, move || {
            count_memoised(&problem, &plan, &budget, mode, DEFAULT_MEMO_BYTES)
        })?;
        let Some(c) = c else {
            return Ok((0, "abandoned".into(), 0, true));
        };
        Ok((
            c.count,
            Status::of_end(c.end).name().to_string(),
            c.stats.nodes(),
            interrupted,
        ))
    }

    /// optimise(maximise, top, time_limit, threads)
    ///     -> (status, bound, [(value, [option])], nodes, interrupted), as `xcover solve
    ///     --minimize/--maximize` (branch and bound over the options' costs).
    #[pyo3(signature = (maximise, top=None, time_limit=None, threads=0))]
    fn optimise(
        &self,
        py: Python<'_>,
        maximise: bool,
        top: Option<usize>,
        time_limit: Option<f64>,
        threads: usize,
    ) -> PyResult<Optimised> {
        check_threads(threads)?;
        if self.problem.has_multiplicities() {
            return Err(PyValueError::new_err(
                "items with multiplicities (u:v|name) can be counted and listed, not optimised",
            ));
        }
        if top == Some(0) {
            return Err(PyValueError::new_err("top must be at least 1"));
        }
        let budget = time_budget(time_limit)?;
        let plan = Plan {
            threads,
            shard: None,
            knuth: false,
        };
        let sense = if maximise {
            Sense::Maximize
        } else {
            Sense::Minimize
        };
        let keep = top.map_or(Keep::Best, Keep::Top);
        let problem = Arc::clone(&self.problem);
        let stop = Arc::new(AtomicBool::new(false));
        let (best, interrupted) = run_polled(py, &stop, None, move || {
            plan.optimize(&problem, sense, keep, budget).0
        })?;
        let Some(best) = best else {
            return Ok(("abandoned".into(), None, Vec::new(), 0, true));
        };
        let status = Status::of_optimum(best.status, Status::Time);
        let solutions = best
            .solutions
            .iter()
            .map(|s| (s.value, s.options.iter().map(|o| o.0).collect()))
            .collect();
        Ok((
            status.name().to_string(),
            best.bound,
            solutions,
            best.stats.nodes(),
            interrupted,
        ))
    }
}

/// ProblemStream(problem, limit, time_limit, threads): the problem's solutions (lists of option
/// indices, in the order chosen) in the order of `xcover solve`, as chunks of lists.
#[pyclass(module = "dancelinks._native")]
struct ProblemStream {
    inner: Stream<Vec<Vec<u32>>>,
}

#[pymethods]
impl ProblemStream {
    #[new]
    #[pyo3(signature = (problem, limit=None, time_limit=None, threads=0))]
    fn new(
        problem: &NativeProblem,
        limit: Option<u64>,
        time_limit: Option<f64>,
        threads: usize,
    ) -> PyResult<Self> {
        let (budget, plan) = listing_plan(limit, time_limit, threads)?;
        let problem = Arc::clone(&problem.problem);
        let inner = Stream::start(move |send, stop| {
            let mut chunk: Vec<Vec<u32>> = Vec::new();
            let mut gone = false;
            plan.list(&problem, &budget, |s: &[OptionId]| {
                chunk.push(s.iter().map(|o| o.0).collect());
                if chunk.len() >= CHUNK / 16 && !send(std::mem::take(&mut chunk)) {
                    gone = true;
                }
                if gone || stop.load(Ordering::Relaxed) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if !gone && !chunk.is_empty() {
                send(chunk);
            }
        });
        Ok(ProblemStream { inner })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<Vec<u32>>>> {
        self.inner.next(py)
    }
}

/// The native module of `dancelinks`; the Python API is in `dancelinks/__init__.py`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solutions_array, m)?)?;
    m.add_function(wrap_pyfunction!(heatmap, m)?)?;
    m.add_function(wrap_pyfunction!(maximise, m)?)?;
    m.add_function(wrap_pyfunction!(check_weighted_size, m)?)?;
    m.add_class::<QueensStream>()?;
    m.add_class::<NativeProblem>()?;
    m.add_class::<ProblemStream>()?;
    m.add("MAX_N", listing::MAX_N)?;
    m.add("MAX_WEIGHTED_N", weighted::MAX_N)?;
    pictures::register(m)?;
    models::register(m)?;
    Ok(())
}
