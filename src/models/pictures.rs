//! The crate's pictures as SVG text, drawn by the writers of [`crate::io::svg`]: each model's
//! solution (through the registry's `Built::svg`: a grid of cells, a board with its
//! queens, a matching on a circle), a model's marginals, and the n-queens boards and heat maps
//! that the command line's `--format svg` writes. The command line and the Python package
//! draw through here, so a picture is the same wherever it is asked for.
//!
//! Each model's solution is first a [`CellGrid`] (or a board, or a matching): a sudoku's 81
//! cells, its boxes the regions and its clues in bold; a tiling's cells, each piece a region
//! of its own colour, named by its piece; Langford pairs as one row of 2n cells, the two cells
//! of each number a region; dominoes, each domino a region (horizontal ones in even colours,
//! vertical ones in odd); word squares and edge-matching tilings as the cells of their text
//! picture.

use std::io;

use super::Model;
use super::ModelError;
use super::sudoku::Grid;
use crate::io::svg::{self, Cell, CellGrid, Style, SvgBoards};

pub use crate::io::svg::{MAX_BOARDS, weighted_title};

/// The text of a picture written into a buffer: the writers fail only on I/O, which a `Vec`
/// never does, and write only UTF-8.
fn written(draw: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
    let mut out = Vec::new();
    draw(&mut out).expect("writing to a Vec does not fail");
    String::from_utf8(out).expect("the SVG writers write UTF-8")
}

fn invalid(message: String) -> ModelError {
    ModelError::Invalid(message)
}

/// A grid of cells drawn with `title` above it.
fn cell_grid(grid: &CellGrid, title: &str) -> String {
    written(|out| svg::cell_grid(out, grid, title))
}

/// A sudoku grid as a picture's cells: the boxes as regions, the clues in bold.
fn sudoku_grid(grid: &Grid, clues: &Grid) -> CellGrid {
    let cells = (0..81)
        .map(|k| {
            let (r, c) = (k / 9, k % 9);
            Some(Cell {
                text: if grid[k] == 0 {
                    String::new()
                } else {
                    grid[k].to_string()
                },
                region: 3 * (r / 3) + c / 3,
                strong: clues[k] != 0,
            })
        })
        .collect();
    CellGrid {
        rows: 9,
        cols: 9,
        cells,
        coloured: false,
    }
}

/// A grid of `rows` of characters as cells, each its own text; `region` says which cells
/// belong together (None: a hole).
fn char_grid(
    rows: &[Vec<char>],
    coloured: bool,
    region: impl Fn(usize, usize, char) -> Option<usize>,
) -> CellGrid {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut cells = Vec::with_capacity(rows.len() * cols);
    for (r, row) in rows.iter().enumerate() {
        for c in 0..cols {
            let ch = row.get(c).copied().unwrap_or('#');
            cells.push(region(r, c, ch).map(|region| Cell {
                text: ch.to_string(),
                region,
                strong: !coloured,
            }));
        }
    }
    CellGrid {
        rows: rows.len(),
        cols,
        cells,
        coloured,
    }
}

/// A sudoku grid (0 a blank) with the clues of its puzzle in bold.
pub fn sudoku(grid: &Grid, clues: &Grid, title: &str) -> String {
    cell_grid(&sudoku_grid(grid, clues), title)
}

/// [`sudoku`] of any two lists of digits, which must be 81 each, 0 to 9.
pub fn sudoku_of_digits(grid: &[u8], clues: &[u8], title: &str) -> Result<String, ModelError> {
    let (Ok(g), Ok(c)) = (<Grid>::try_from(grid), <Grid>::try_from(clues)) else {
        return Err(invalid("a sudoku grid has 81 cells".into()));
    };
    if g.iter().chain(c.iter()).any(|&d| d > 9) {
        return Err(invalid("a sudoku cell holds 0 (blank) to 9".into()));
    }
    Ok(sudoku(&g, &c, title))
}

/// A tiling: `cover` gives the piece on each cell of a `rows × cols` board (None: a hole),
/// each piece a region of its own colour named by `names`.
pub(super) fn tiling(
    rows: usize,
    cols: usize,
    cover: &[Option<usize>],
    names: &[String],
    title: &str,
) -> String {
    let cells = cover
        .iter()
        .map(|c| {
            c.map(|k| Cell {
                text: names[k].clone(),
                region: k,
                strong: false,
            })
        })
        .collect();
    let g = CellGrid {
        rows,
        cols,
        cells,
        coloured: true,
    };
    cell_grid(&g, title)
}

/// Langford pairs: one row of 2n cells, each number's two cells a region of its colour.
pub(super) fn langford(row: &[usize], title: &str) -> String {
    let g = CellGrid {
        rows: 1,
        cols: row.len(),
        cells: row
            .iter()
            .map(|&k| {
                Some(Cell {
                    region: k,
                    text: k.to_string(),
                    strong: false,
                })
            })
            .collect(),
        coloured: true,
    };
    cell_grid(&g, title)
}

/// A perfect matching of K_n: the vertices on a circle, the edges as lines.
pub(super) fn matching(n: usize, edges: &[(usize, usize)], title: &str) -> String {
    written(|out| svg::matching(out, n, edges, title))
}

/// One n×n board with its queens on `files` (rank 0 first), as `queens list --format svg`
/// draws a board, its squares bigger.
pub(super) fn queens(n: usize, files: &[u32], title: &str) -> String {
    let style = Style {
        cell: if n <= 16 { 32 } else { 16 },
        per_row: 1,
    };
    written(|out| {
        let pic = SvgBoards::start(out, n, 1, style)?;
        pic.board(out, 0, title, None, Some(files))?;
        pic.finish(out)
    })
}

/// The text picture's characters as cells on a white grid, one region (word squares; an
/// edge-matching tiling, each tile drawn as its text box, its four colours around it).
pub(super) fn text_boxes(rows: &[Vec<char>], title: &str) -> String {
    cell_grid(&char_grid(rows, false, |_, _, _| Some(0)), title)
}

/// Dominoes from their text picture: each domino a region (a `<` and the `>` after it, a `^`
/// and the `v` below), horizontal dominoes in even colours, vertical ones in odd.
pub(super) fn dominoes(rows: &[Vec<char>], title: &str) -> String {
    let cols = rows.first().map_or(0, Vec::len);
    let g = char_grid(rows, true, |r, c, ch| match ch {
        '<' | '^' => Some(r * cols + c),
        '>' => Some(r * cols + c - 1),
        'v' => Some((r - 1) * cols + c),
        _ => None,
    });
    let g = CellGrid {
        cells: g
            .cells
            .into_iter()
            .map(|c| {
                c.map(|x| Cell {
                    text: String::new(),
                    region: 2 * x.region + usize::from(x.text == "^" || x.text == "v"),
                    ..x
                })
            })
            .collect(),
        ..g
    };
    cell_grid(&g, title)
}

/// The marginals of a model's solutions (`counts`, one per option; `total` solutions) as
/// `xcover model NAME --marginals --format svg` draws them: on a square board whose square
/// (r, c) is option r·n + c (`board`, queens) the heat map of `queens heatmap`; for a model
/// whose picture is a grid, a heat map per mark ([`super::heat`]); None for a model without a
/// grid.
pub fn marginals(
    model: &dyn Model,
    board: Option<usize>,
    total: u128,
    counts: &[u128],
) -> Option<String> {
    if let Some(n) = board {
        return Some(written(|out| {
            svg::queens_heatmap(out, n, counts, total, false)
        }));
    }
    let mut drawn = false;
    let svg = written(|out| {
        drawn = super::heat::write_svg(out, model, total, counts)?;
        Ok(())
    });
    drawn.then_some(svg)
}

/// Boards of side `n` in a grid, `per_row` to a row, squares of `cell` pixels, as `xcover
/// queens list --format svg` (chequered, `weights` None) and `xcover queens max --format svg`
/// (each board shaded by its weights, n×n rank-major, which are written in) draw them: board k
/// labelled `labels[k]`, with queens on the files `queens[k]` (rank 0 first; None: no queens).
/// At most [`MAX_BOARDS`] boards of side 1 to 1,024, squares of 4 to 100 pixels.
pub fn boards(
    n: usize,
    queens: &[Option<Vec<u32>>],
    labels: &[String],
    weights: Option<&[Vec<i64>]>,
    cell: usize,
    per_row: usize,
) -> Result<String, ModelError> {
    let k = queens.len();
    if labels.len() != k || weights.is_some_and(|w| w.len() != k) {
        return Err(invalid(
            "svg_boards: one label (and one weight board) per board".into(),
        ));
    }
    if k as u64 > MAX_BOARDS {
        return Err(invalid(format!(
            "{k} boards are more than one picture holds ({MAX_BOARDS}): draw a slice of them"
        )));
    }
    if !(1..=1024).contains(&n) || !(4..=100).contains(&cell) || per_row == 0 {
        return Err(invalid(format!(
            "cannot draw boards of side {n} with {cell}-pixel squares, {per_row} to a row"
        )));
    }
    for q in queens.iter().flatten() {
        if q.len() > n || q.iter().any(|&f| f as usize >= n) {
            return Err(invalid(format!(
                "a layout of an {n}x{n} board has at most {n} files 0 to {}",
                n - 1
            )));
        }
    }
    if let Some(w) = weights.and_then(|w| w.iter().find(|b| b.len() != n * n)) {
        return Err(invalid(format!(
            "weights of {} squares for an {n}x{n} board",
            w.len()
        )));
    }
    let style = Style { cell, per_row };
    Ok(written(|out| {
        let pic = SvgBoards::start(out, n, k, style)?;
        for (b, q) in queens.iter().enumerate() {
            let w = weights.map(|w| w[b].as_slice());
            pic.board(out, b, &labels[b], w, q.as_deref())?;
        }
        pic.finish(out)
    }))
}

/// The heat map of `xcover queens heatmap --format svg`: n×n counts, rank-major.
pub fn heatmap(n: usize, counts: &[u128], title: &str) -> Result<String, ModelError> {
    if n == 0 || counts.len() != n * n {
        return Err(invalid(format!(
            "a heat map of side {n} has {} counts, not {}",
            n * n,
            counts.len()
        )));
    }
    Ok(written(|out| svg::heatmap(out, n, counts, title)))
}
