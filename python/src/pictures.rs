//! The SVG pictures of the Python package, drawn by the crate's own writers
//! (`dancelinks::io::svg`, the pictures of the command line's `--format svg`): boards with their
//! queens (a solution, a sheet of solutions, weighted boards), heat maps, and grids of cells (a
//! sudoku, a tiling). The Python layer (`dancelinks/_display.py`) wraps each in an object with
//! `_repr_svg_` for Jupyter.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use dancelinks::io::svg::{self, Cell, CellGrid, Style, SvgBoards};

/// The text of a picture written into a buffer (the writers only fail on I/O, and a `Vec`
/// does not).
pub(crate) fn written(draw: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> PyResult<String> {
    let mut out = Vec::new();
    draw(&mut out).map_err(|e| PyValueError::new_err(format!("cannot draw: {e}")))?;
    String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// svg_boards(n, queens, labels, weights, cell, per_row) -> str
///
/// Boards of side `n` in a grid, `per_row` to a row, squares of `cell` pixels, as `xcover
/// queens list --format svg` (chequered, `weights` None) and `xcover queens max --format svg`
/// (each board shaded by its weights, n×n rank-major, which are written in) draw them: board k
/// labelled `labels[k]`, with queens on the files `queens[k]` (rank 0 first; None: no queens).
/// At most `svg::MAX_BOARDS` boards.
#[pyfunction]
#[pyo3(signature = (n, queens, labels, weights=None, cell=12, per_row=8))]
pub(crate) fn svg_boards(
    n: usize,
    queens: Vec<Option<Vec<u32>>>,
    labels: Vec<String>,
    weights: Option<Vec<Vec<i64>>>,
    cell: usize,
    per_row: usize,
) -> PyResult<String> {
    let k = queens.len();
    if labels.len() != k || weights.as_ref().is_some_and(|w| w.len() != k) {
        return Err(PyValueError::new_err(
            "svg_boards: one label (and one weight board) per board",
        ));
    }
    if k as u64 > svg::MAX_BOARDS {
        return Err(PyValueError::new_err(format!(
            "{k} boards are more than one picture holds ({}): draw a slice of them",
            svg::MAX_BOARDS
        )));
    }
    if !(1..=1024).contains(&n) || !(4..=100).contains(&cell) || per_row == 0 {
        return Err(PyValueError::new_err(format!(
            "cannot draw boards of side {n} with {cell}-pixel squares, {per_row} to a row"
        )));
    }
    for q in queens.iter().flatten() {
        if q.len() > n || q.iter().any(|&f| f as usize >= n) {
            return Err(PyValueError::new_err(format!(
                "a layout of an {n}x{n} board has at most {n} files 0 to {}",
                n - 1
            )));
        }
    }
    if let Some(w) = weights
        .as_ref()
        .and_then(|w| w.iter().find(|b| b.len() != n * n))
    {
        return Err(PyValueError::new_err(format!(
            "weights of {} squares for an {n}x{n} board",
            w.len()
        )));
    }
    let style = Style { cell, per_row };
    written(|out| {
        let pic = SvgBoards::start(out, n, k, style)?;
        for (b, q) in queens.iter().enumerate() {
            let w = weights.as_ref().map(|w| w[b].as_slice());
            pic.board(out, b, &labels[b], w, q.as_deref())?;
        }
        pic.finish(out)
    })
}

/// svg_heatmap(n, counts, title) -> str: the heat map of `xcover queens heatmap --format svg`
/// (n×n counts, rank-major).
#[pyfunction]
pub(crate) fn svg_heatmap(n: usize, counts: Vec<u128>, title: &str) -> PyResult<String> {
    if n == 0 || counts.len() != n * n {
        return Err(PyValueError::new_err(format!(
            "a heat map of side {n} has {} counts, not {}",
            n * n,
            counts.len()
        )));
    }
    written(|out| svg::heatmap(out, n, &counts, title))
}

/// svg_cell_grid(rows, cols, cells, coloured, title) -> str: a grid of cells (row-major,
/// each None for a hole or `(text, region, strong)`), thick lines around the regions.
#[pyfunction]
pub(crate) fn svg_cell_grid(
    rows: usize,
    cols: usize,
    cells: Vec<Option<(String, usize, bool)>>,
    coloured: bool,
    title: &str,
) -> PyResult<String> {
    if rows == 0 || cols == 0 || rows > 1024 || cols > 1024 || cells.len() != rows * cols {
        return Err(PyValueError::new_err(format!(
            "a grid of {rows}x{cols} cells, given {}",
            cells.len()
        )));
    }
    let grid = CellGrid {
        rows,
        cols,
        cells: cells
            .into_iter()
            .map(|c| {
                c.map(|(text, region, strong)| Cell {
                    text,
                    region,
                    strong,
                })
            })
            .collect(),
        coloured,
    };
    written(|out| svg::cell_grid(out, &grid, title))
}

/// The functions of this module, added to the native module.
/// weighted_title(board, value, status, bound): the title of a weighted board's picture, as
/// `xcover queens max --format svg` writes it (the bound when the value is not proven).
#[pyfunction]
#[pyo3(signature = (board, value, status, bound=None))]
fn weighted_title(board: usize, value: Option<i128>, status: &str, bound: Option<i128>) -> String {
    svg::weighted_title(board, value, status, bound)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(svg_boards, m)?)?;
    m.add_function(wrap_pyfunction!(weighted_title, m)?)?;
    m.add_function(wrap_pyfunction!(svg_heatmap, m)?)?;
    m.add_function(wrap_pyfunction!(svg_cell_grid, m)?)?;
    Ok(())
}
