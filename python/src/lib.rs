//! `dancelinks._native`: the native half of the Python package `dancelinks`, a thin layer over
//! the Rust library (`dancelinks::queens`, `dancelinks::engine`, `dancelinks::io`): it converts
//! Python's values to the crate's and back, and calls the crate, which parses, decides and
//! names what the command line does the same way.
//!
//! Every long call runs on a worker thread that Ctrl-C stops ([`worker`]): the call returns
//! what it has with `interrupted = True` (the Python layer raises `dancelinks.Interrupted`, a
//! `KeyboardInterrupt` carrying the partial result). Weighted n-queens is in [`weighted`], the
//! classic models in [`models`], the pictures in [`pictures`].
//!
//! Arrays cross the boundary as `bytes` (native-endian `int64`, `uint8` for queen files) that
//! the Python layer views with `numpy.frombuffer`: no dependency on numpy's C API, so one build
//! works with every numpy.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyIsADirectoryError, PyOSError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::engine::optimize::{Keep, Sense};
use dancelinks::engine::run::{self, Plan};
use dancelinks::engine::{Budget, MemoMode, OptionId};
use dancelinks::io::dlx_format;
use dancelinks::io::input::LineReader;
use dancelinks::queens::count::{self as qcount, Engine, Request};
use dancelinks::queens::heatmap::heatmap_until as queens_heatmap;
use dancelinks::queens::listing;
use dancelinks::queens::stream::{self, Layouts};
use dancelinks::records::Status;

use worker::{CHUNK, Progress, Stop, Stream, engine_report, run_polled};

mod family;
mod models;
mod pictures;
mod weighted;
mod worker;

/// A file's error as Python's OSError built from its errno, so that Python picks the subclass
/// (FileNotFoundError, PermissionError, ...) and says `[Errno 2] No such file or directory:
/// 'FILE'` as `open` does.
pub(crate) fn os_error(e: &std::io::Error, file: &str) -> PyErr {
    let text = e.to_string();
    // The OS's words without std's " (os error N)".
    let words = text.split(" (os error").next().unwrap_or(&text).to_string();
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, words, file.to_string())),
        None => PyOSError::new_err(format!("cannot read {file}: {text}")),
    }
}

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The plan on `threads` of a count or listing of a problem within `limit` solutions and
/// `time_limit` seconds: one thread when the budget is not one threads can keep.
fn listing_plan(limit: Option<u64>, time_limit: Option<f64>, threads: usize) -> PyResult<Plan> {
    check_threads(threads)?;
    let mut plan = Plan {
        threads,
        budget: time_budget(time_limit)?,
        ..Plan::default()
    };
    plan.budget.solutions = limit;
    Ok(plan.on_threads_that_keep_the_budget())
}

/// A time limit in seconds as a duration (`None`: no limit; beyond what a duration holds:
/// none).
fn seconds(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    match time_limit {
        Some(t) if t.is_nan() || t < 0.0 => Err(PyValueError::new_err(format!(
            "time_limit must be a number of seconds >= 0, not {t}"
        ))),
        t => Ok(t.and_then(|t| Duration::try_from_secs_f64(t).ok())),
    }
}

/// The budget of a time limit in seconds, from now.
fn time_budget(time_limit: Option<f64>) -> PyResult<Budget> {
    let mut budget = Budget::unlimited();
    budget.deadline = seconds(time_limit)?.and_then(|d| Instant::now().checked_add(d));
    Ok(budget)
}

/// `threads` checked as the crate checks a plan's threads (`run::check_threads`).
pub(crate) fn check_threads(threads: usize) -> PyResult<()> {
    run::check_threads(threads).map_err(value_error)?;
    Ok(())
}

/// `n` checked as a board of the n-queens listing.
fn check_board(n: usize) -> PyResult<()> {
    stream::check_size(n).map_err(value_error)
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
/// whether it stopped: `interrupted` is then true and the counts are lower bounds. A signal
/// that came too late to stop it (the count ended whole) leaves the whole count the answer.
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
    // By the crate's names of its engines.
    let engine = match engine {
        None => Engine::fastest(n, None),
        Some(name) => Engine::parse(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "engine must be 'dlx' or 'bits' (or None for the fastest), not '{name}'"
            ))
        })?,
    };
    let request = Request {
        n,
        unique,
        engine,
        threads: Some(threads),
        ..Request::new(n)
    };
    request.validate().map_err(value_error)?;
    let stop = Stop::new();
    let flag = stop.clone();
    let p = Arc::new(Progress::default());
    let report = Arc::clone(&p);
    let (counted, _) = run_polled(
        py,
        &stop,
        progress.as_ref().map(|f| (f, Arc::clone(&p).reader())),
        move || {
            qcount::count_until(&request, flag.engine(), &|done, total, found| {
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
    Ok(Some((c.solutions, c.unique, engine.name(), c.interrupted)))
}

/// What [`solutions_array`] returns: `(files, class_sizes, interrupted)`.
type Listed<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, bool);

/// solutions_array(n, unique, limit, threads) -> (files: bytes, class_sizes: bytes, interrupted)
///
/// Every n-queens solution in lexicographic order (the order of `xcover queens list`), at most
/// `limit`: `files` holds n bytes a solution (the file of the queen of each rank, 0-based);
/// with `unique` one representative per symmetry class, and `class_sizes` one byte each.
/// After Ctrl-C, the solutions listed so far, a prefix of the listing (`stream::collect`);
/// None when abandoned.
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
    let stop = Stop::new();
    let flag = stop.clone();
    let (listed, interrupted) = run_polled(py, &stop, None, move || {
        stream::collect(n, unique, limit, threads, flag.engine())
    })?;
    let Some(listed) = listed else {
        return Ok(None);
    };
    let layouts = listed.map_err(value_error)?;
    Ok(Some((
        PyBytes::new(py, &layouts.files),
        PyBytes::new(py, &layouts.class_sizes),
        interrupted,
    )))
}

/// QueensStream(n, unique, limit): the n-queens solutions in lexicographic order, as chunks
/// `(files: bytes, class_sizes: bytes)` of up to 4096 solutions (`stream::in_chunks`).
#[pyclass(module = "dancelinks._native")]
struct QueensStream {
    inner: Stream<Layouts>,
}

#[pymethods]
impl QueensStream {
    #[new]
    #[pyo3(signature = (n, unique=false, limit=None))]
    fn new(n: usize, unique: bool, limit: Option<u64>) -> PyResult<Self> {
        check_board(n)?;
        let inner = Stream::start(move |send, stop| {
            stream::in_chunks(n, unique, limit, CHUNK, stop.engine(), send);
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
            .map(|l| (PyBytes::new(py, &l.files), PyBytes::new(py, &l.class_sizes))))
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
    let stop = Stop::new();
    let flag = stop.clone();
    let (h, _) = run_polled(py, &stop, None, move || {
        queens_heatmap(n, unique, &|| flag.is_set())
    })?;
    Ok(h.flatten().map(|h| (h.counts, h.total)))
}

/// What [`NativeProblem::optimise`] returns: `(status, bound, [(value, [option])], nodes,
/// interrupted)`.
type Optimised = (String, Option<i128>, Vec<(i128, Vec<u32>)>, u64, bool);

/// An exact-cover problem (items, options, colours, costs, multiplicities), built once.
#[pyclass(module = "dancelinks._native", frozen)]
pub(crate) struct NativeProblem {
    pub(crate) problem: Arc<dancelinks::engine::Problem>,
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
        let problem = dlx_format::from_tokens(&primary, &secondary, &options, costs.as_deref())
            .map_err(value_error)?;
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
        let file = std::fs::File::open(&path).map_err(|e| os_error(&e, &shown))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(PyIsADirectoryError::new_err(format!(
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

    /// count(limit, time_limit, threads, memo, progress) -> (count, status, nodes,
    /// interrupted), None when a second Ctrl-C abandoned it: as `xcover solve --count` counts
    /// (`memo` None: the default policy; True/False: the memo on or off).
    /// `progress(done, total, found)`: the sub-problems of the split done and in all (0 and 0
    /// while there is none) and the solutions counted in those done.
    #[pyo3(signature = (limit=None, time_limit=None, threads=0, memo=None, progress=None))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        time_limit: Option<f64>,
        threads: usize,
        memo: Option<bool>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Option<(u128, String, u64, bool)>> {
        let mut plan = listing_plan(limit, time_limit, threads)?;
        plan.memo = match memo {
            None => MemoMode::Auto,
            Some(true) => MemoMode::On,
            Some(false) => MemoMode::Off,
        };
        let problem = Arc::clone(&self.problem);
        let stop = Stop::new();
        plan.budget = plan.budget.with_stop(stop.engine());
        let (report, ended) = engine_report(&stop, |p| u128::from(p.solutions));
        let (c, interrupted) = run_polled(
            py,
            &stop,
            progress.as_ref().map(|f| (f, report)),
            move || {
                let c = run::count(&problem, &plan);
                ended.set(c.count);
                c
            },
        )?;
        let Some(c) = c else {
            return Ok(None);
        };
        if c.end == dancelinks::engine::End::Overflow {
            return Err(PyOverflowError::new_err(
                "the number of solutions does not fit in 128 bits (it is over 3.4e38)",
            ));
        }
        Ok(Some((
            c.count,
            Status::of_end(c.end).name().to_string(),
            c.stats.nodes(),
            interrupted,
        )))
    }

    /// optimise(maximise, top, time_limit, threads, progress)
    ///     -> (status, bound, [(value, [option])], nodes, interrupted) (None when a second
    ///     Ctrl-C abandoned it), as `xcover solve
    ///     --minimize/--maximize` (branch and bound over the options' costs).
    ///     `progress(done, total, found)`: the sub-problems done and in all (0 and 0 without
    ///     a split) and the nodes searched.
    #[pyo3(signature = (maximise, top=None, time_limit=None, threads=0, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn optimise(
        &self,
        py: Python<'_>,
        maximise: bool,
        top: Option<usize>,
        time_limit: Option<f64>,
        threads: usize,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Option<Optimised>> {
        check_threads(threads)?;
        if self.problem.has_multiplicities() {
            return Err(PyValueError::new_err(
                "items with multiplicities (u:v|name) can be counted and listed, not optimised",
            ));
        }
        if top == Some(0) {
            return Err(PyValueError::new_err("top must be at least 1"));
        }
        let stop = Stop::new();
        let plan = Plan {
            threads,
            budget: time_budget(time_limit)?.with_stop(stop.engine()),
            ..Plan::default()
        };
        let sense = if maximise {
            Sense::Maximize
        } else {
            Sense::Minimize
        };
        let keep = top.map_or(Keep::Best, Keep::Top);
        let problem = Arc::clone(&self.problem);
        let (report, ended) = engine_report(&stop, |p| u128::from(p.nodes));
        let (best, interrupted) = run_polled(
            py,
            &stop,
            progress.as_ref().map(|f| (f, report)),
            move || {
                let best = run::optimize(&problem, &plan, sense, keep).0;
                ended.set(u128::from(best.stats.nodes()));
                best
            },
        )?;
        let Some(best) = best else {
            return Ok(None);
        };
        let status = Status::of_optimum(best.status, Status::stopped(stop.engine(), Status::Time));
        let solutions = best
            .solutions
            .iter()
            .map(|s| (s.value, s.options.iter().map(|o| o.0).collect()))
            .collect();
        Ok(Some((
            status.name().to_string(),
            best.bound,
            solutions,
            best.stats.nodes(),
            interrupted,
        )))
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
        let mut plan = listing_plan(limit, time_limit, threads)?;
        let problem = Arc::clone(&problem.problem);
        let inner = Stream::start(move |send, stop| {
            let mut chunk: Vec<Vec<u32>> = Vec::new();
            let mut gone = false;
            plan.budget = plan.budget.clone().with_stop(stop.engine());
            run::list(&problem, &plan, |s: &[OptionId]| {
                chunk.push(s.iter().map(|o| o.0).collect());
                if chunk.len() >= CHUNK / 16 && !send(std::mem::take(&mut chunk)) {
                    gone = true;
                }
                if gone || stop.is_set() {
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
    m.add_class::<QueensStream>()?;
    m.add_class::<NativeProblem>()?;
    m.add_class::<ProblemStream>()?;
    m.add("MAX_N", listing::MAX_N)?;
    m.add("MAX_THREADS", run::MAX_THREADS)?;
    weighted::register(m)?;
    pictures::register(m)?;
    models::register(m)?;
    family::register(m)?;
    Ok(())
}
