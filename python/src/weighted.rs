//! Weighted n-queens for the Python `maximise`: a stack of boards solved as `xcover queens max`
//! solves them (the crate's choices of what to keep, threads and clock:
//! `dancelinks::queens::weighted::stack`), and a board's records as the command line writes
//! them (`dancelinks::records::MaxBoard`).

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::io::export::{Format, Writer};
use dancelinks::queens::weighted::stack::{self, BoardClock};
use dancelinks::queens::weighted::{self, WeightedQueens};
use dancelinks::records::{MaxBoard, Status, places as ranking};

use crate::worker::{Progress, Stop, run_polled};
use crate::{check_threads, seconds, value_error};

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
pub(crate) fn maximise<'py>(
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
    let keep = stack::keep(top, all_optimal, None, floor).map_err(value_error)?;
    let time_limit = seconds(time_limit)?;
    let numbers: Vec<i64> = weights
        .chunks_exact(8)
        .map(|b| i64::from_ne_bytes(b.try_into().expect("8 bytes")))
        .collect();
    // 0, the Python default, is the command line's `--threads` not given.
    let threads = stack::threads(n, (threads != 0).then_some(threads));
    let stop = Stop::new();
    let flag = stop.clone();
    let p = Arc::new(Progress::default());
    p.total.store(k, Ordering::Relaxed);
    let report = Arc::clone(&p);
    let (answers, interrupted) =
        run_polled(py, &stop, progress.as_ref().map(|f| (f, p.reader())), move || {
            let stop = flag;
            let mut out = Boards::default();
            if k == 0 {
                return out;
            }
            let mut clock = BoardClock::start(time_limit);
            let mut model = WeightedQueens::new(n);
            for b in 0..k {
                if stop.is_set() {
                    break;
                }
                let board = &numbers[b * n * n..(b + 1) * n * n];
                let req = weighted::Request {
                    keep,
                    budget: clock.next_budget().with_stop(stop.engine()),
                    method: weighted::Method::Auto,
                    threads,
                };
                let (res, below_floor) = model.solve_counted(board, &req, floor);
                let status = Status::of_board_stopped(
                    res.status,
                    below_floor,
                    Status::stopped(stop.engine(), Status::Time),
                );
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
pub(crate) fn check_weighted_size(n: usize) -> PyResult<()> {
    weighted::check_size(n).map_err(value_error)
}

/// places(scores) -> [place]: the places of a ranking, best 1, tied scores sharing the better
/// place (the `place` column of `xcover queens max`).
#[pyfunction]
fn places(scores: Vec<i128>) -> Vec<usize> {
    ranking(scores)
}

/// max_records(board, n, status, bound, optimal_count, nodes, scores, layouts) -> str
///
/// A board's records as `xcover queens max --format json` writes them (JSON Lines: one a
/// layout, best first, or one without a layout): the columns of `--format csv`, in its order.
#[pyfunction]
#[pyo3(signature = (board, n, status, bound, optimal_count, nodes, scores, layouts))]
#[allow(clippy::too_many_arguments)]
fn max_records(
    board: usize,
    n: usize,
    status: &str,
    bound: Option<i128>,
    optimal_count: Option<u64>,
    nodes: u64,
    scores: Vec<i128>,
    layouts: Vec<Vec<u32>>,
) -> PyResult<String> {
    let status = Status::from_str(status).map_err(value_error)?;
    if scores.len() != layouts.len() || layouts.iter().any(|l| l.len() != n) {
        return Err(PyValueError::new_err(format!(
            "{} scores and {} layouts of {n} queens do not match",
            scores.len(),
            layouts.len()
        )));
    }
    let layouts: Vec<(i128, &[u32])> = scores
        .iter()
        .zip(&layouts)
        .map(|(&s, l)| (s, l.as_slice()))
        .collect();
    let record = MaxBoard {
        board,
        status,
        bound,
        optimal_count,
        nodes,
        n,
    };
    let mut out = Vec::new();
    let mut w = Writer::new(Format::Json, &mut out, false).expect("JSON is a record format");
    record
        .records(&layouts, |r| w.record(r))
        .map_err(value_error)?;
    w.end().map_err(value_error)?;
    String::from_utf8(out).map_err(value_error)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(maximise, m)?)?;
    m.add_function(wrap_pyfunction!(check_weighted_size, m)?)?;
    m.add_function(wrap_pyfunction!(places, m)?)?;
    m.add_function(wrap_pyfunction!(max_records, m)?)?;
    m.add("MAX_WEIGHTED_N", weighted::MAX_N)?;
    Ok(())
}
