//! The SVG pictures of the Python package, drawn by the crate (`dancelinks::models::pictures`,
//! the pictures of the command line's `--format svg`): boards with their queens (a solution,
//! a sheet of solutions, weighted boards) and heat maps. The Python layer
//! (`dancelinks/_display.py`) wraps each in an object with `_repr_svg_` for Jupyter.

use pyo3::prelude::*;

use dancelinks::models::pictures;

use crate::value_error;

/// svg_boards(n, queens, labels, weights, cell, per_row) -> str
///
/// Boards of side `n` in a grid, `per_row` to a row, squares of `cell` pixels, as `xcover
/// queens list --format svg` (chequered, `weights` None) and `xcover queens max --format svg`
/// (each board shaded by its weights, n×n rank-major, which are written in) draw them: board k
/// labelled `labels[k]`, with queens on the files `queens[k]` (rank 0 first; None: no queens).
/// At most `MAX_BOARDS` boards (`pictures::boards`).
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
    pictures::boards(n, &queens, &labels, weights.as_deref(), cell, per_row).map_err(value_error)
}

/// svg_heatmap(n, counts, title) -> str: the heat map of `xcover queens heatmap --format svg`
/// (n×n counts, rank-major).
#[pyfunction]
pub(crate) fn svg_heatmap(n: usize, counts: Vec<u128>, title: &str) -> PyResult<String> {
    pictures::heatmap(n, &counts, title).map_err(value_error)
}

/// weighted_title(board, value, status, bound): the title of a weighted board's picture, as
/// `xcover queens max --format svg` writes it (the bound when the value is not proven).
#[pyfunction]
#[pyo3(signature = (board, value, status, bound=None))]
fn weighted_title(board: usize, value: Option<i128>, status: &str, bound: Option<i128>) -> String {
    pictures::weighted_title(board, value, status, bound)
}

/// The functions of this module, added to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(svg_boards, m)?)?;
    m.add_function(wrap_pyfunction!(weighted_title, m)?)?;
    m.add_function(wrap_pyfunction!(svg_heatmap, m)?)?;
    Ok(())
}
