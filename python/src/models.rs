//! The classic models of `xcover model` (`dancelinks::models`) for the Python package: each
//! built by the crate's own model code into a [`NativeModel`], whose problem is a
//! [`NativeProblem`] (the Python `Problem`) and which decodes a solution (its option indices)
//! into the model's numbers, its text picture and an SVG picture. Also the batch sudoku solver
//! (`models::sudoku::solve_batch`).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::engine::OptionId;
use dancelinks::io::svg::{self, Cell, CellGrid, Style, SvgBoards};
use dancelinks::models::dominoes::Dominoes;
use dancelinks::models::edge_matching::EdgeMatching;
use dancelinks::models::langford::Langford;
use dancelinks::models::matchings::Matchings;
use dancelinks::models::polyomino::{Board, Piece, Tiling};
use dancelinks::models::queens::Queens;
use dancelinks::models::sudoku::{self, Grid, Puzzle, Sudoku};
use dancelinks::models::word_squares::{self, WordSquares};
use dancelinks::models::{Model, ModelError};

use crate::NativeProblem;
use crate::pictures::written;
use crate::worker::{Stop, run_polled};

/// A model's error as ValueError; `what` names the input of a positioned one.
fn model_error(e: ModelError, what: &str) -> PyErr {
    match e {
        ModelError::At {
            line,
            column,
            message,
        } => PyValueError::new_err(format!("{what}, line {line}, column {column}: {message}")),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// Which model, with what its decoding needs beyond [`Model`].
enum Kind {
    Sudoku(Sudoku, Puzzle),
    Tiling(Tiling, Board, Vec<String>),
    Langford(Langford),
    Matchings(Matchings, usize),
    Queens(Queens, usize),
    WordSquares(WordSquares),
    Dominoes(Dominoes),
    EdgeMatching(EdgeMatching, &'static str),
}

impl Kind {
    fn model(&self) -> &dyn Model {
        match self {
            Kind::Sudoku(m, _) => m,
            Kind::Tiling(m, _, _) => m,
            Kind::Langford(m) => m,
            Kind::Matchings(m, _) => m,
            Kind::Queens(m, _) => m,
            Kind::WordSquares(m) => m,
            Kind::Dominoes(m) => m,
            Kind::EdgeMatching(m, _) => m,
        }
    }
}

/// A model of `dancelinks::models`, built once; `problem()` is its exact-cover problem.
#[pyclass(module = "dancelinks._native", frozen)]
pub(crate) struct NativeModel {
    kind: Kind,
    /// The model's name: sudoku, polyomino, langford, matchings, queens, word-squares,
    /// dominoes.
    #[pyo3(get)]
    name: &'static str,
}

impl NativeModel {
    fn new(kind: Kind) -> Self {
        let name = match &kind {
            Kind::Sudoku(..) => "sudoku",
            Kind::Tiling(..) => "polyomino",
            Kind::Langford(_) => "langford",
            Kind::Matchings(..) => "matchings",
            Kind::Queens(..) => "queens",
            Kind::WordSquares(_) => "word-squares",
            Kind::Dominoes(_) => "dominoes",
            Kind::EdgeMatching(_, name) => name,
        };
        NativeModel { kind, name }
    }

    /// The side of the square board whose square (r, c) is option r·n + c (queens), whose
    /// marginals are drawn as a heat map; None for the other models.
    pub(crate) fn heat_board(&self) -> Option<usize> {
        match &self.kind {
            Kind::Queens(_, n) => Some(*n),
            _ => None,
        }
    }

    /// The model, for the crate's functions of any model.
    pub(crate) fn model(&self) -> &dyn Model {
        self.kind.model()
    }

    /// The number of options of the model's problem.
    pub(crate) fn option_count(&self) -> usize {
        self.kind.model().problem().option_count()
    }

    /// A solution's options, checked against the problem.
    fn options(&self, solution: &[u32]) -> PyResult<Vec<OptionId>> {
        let count = self.kind.model().problem().option_count();
        match solution.iter().find(|&&o| o as usize >= count) {
            Some(o) => Err(PyValueError::new_err(format!(
                "option {o} in a solution of a problem of {count} options"
            ))),
            None => Ok(solution.iter().map(|&o| OptionId(o)).collect()),
        }
    }

    /// The rows of a text picture (one line each) as characters.
    fn text_rows(&self, solution: &[OptionId]) -> Vec<Vec<char>> {
        self.kind
            .model()
            .decode(solution)
            .lines()
            .map(|l| l.chars().collect())
            .collect()
    }
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

/// A grid of `rows` (equal lengths) as cells, each its own text; `region` says which cells
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

#[pymethods]
impl NativeModel {
    /// sudoku(puzzle): 81 characters, `1`-`9` clues, `.` or `0` blanks.
    #[staticmethod]
    fn sudoku(puzzle: &str) -> PyResult<Self> {
        let p = Puzzle::parse(puzzle).map_err(|e| model_error(e, "puzzle"))?;
        let m = Sudoku::new(p).map_err(|e| model_error(e, "puzzle"))?;
        Ok(Self::new(Kind::Sudoku(m, p)))
    }

    /// polyomino(board, pieces): `board` a built-in name (`6x10`, `8x8-minus-centre`) or a
    /// picture (`.` a cell, `#` a hole, a line a row); `pieces` `[(name, "##/#.")]`, None for
    /// the twelve pentominoes.
    #[staticmethod]
    #[pyo3(signature = (board, pieces=None))]
    fn polyomino(board: &str, pieces: Option<Vec<(String, String)>>) -> PyResult<Self> {
        let b = if board.contains(['.', '#', '\n']) {
            Board::parse(board).map_err(|e| model_error(e, "board picture"))?
        } else {
            Board::named(board.trim()).map_err(|e| match e {
                ModelError::Invalid(m) => PyValueError::new_err(format!(
                    "{m}; or draw the board: a string of '.' (a cell) and '#' (a hole), a \
                     line per row, or a boolean array"
                )),
                other => model_error(other, "board"),
            })?
        };
        let pieces = match pieces {
            None => dancelinks::models::polyomino::pentominoes(),
            Some(p) => {
                let mut out = Vec::with_capacity(p.len());
                for (name, picture) in p {
                    if name.is_empty() || name.contains(char::is_whitespace) {
                        return Err(PyValueError::new_err(format!(
                            "a piece's name is a word, not '{name}'"
                        )));
                    }
                    if let Some(ch) = picture.chars().find(|c| !matches!(c, '#' | '.' | '/')) {
                        return Err(PyValueError::new_err(format!(
                            "piece {name}: '{ch}' in its picture (`#` a cell, `.` none, `/` \
                             between rows)"
                        )));
                    }
                    let piece = Piece::drawn(&name, &picture);
                    if piece.cells.is_empty() {
                        return Err(PyValueError::new_err(format!("piece {name} has no cell")));
                    }
                    out.push(piece);
                }
                out
            }
        };
        let names = pieces.iter().map(|p| p.name.clone()).collect();
        let t = Tiling::new(pieces, b.clone()).map_err(|e| model_error(e, "board"))?;
        Ok(Self::new(Kind::Tiling(t, b, names)))
    }

    /// langford(n): Langford pairs of 1..n.
    #[staticmethod]
    fn langford(n: usize) -> PyResult<Self> {
        let m = Langford::new(n).map_err(|e| model_error(e, "n"))?;
        Ok(Self::new(Kind::Langford(m)))
    }

    /// matchings(n): the perfect matchings of K_n.
    #[staticmethod]
    fn matchings(n: usize) -> PyResult<Self> {
        let m = Matchings::new(n).map_err(|e| model_error(e, "n"))?;
        Ok(Self::new(Kind::Matchings(m, n)))
    }

    /// queens(n): n queens as an exact cover (diagonals secondary).
    #[staticmethod]
    fn queens(n: usize) -> PyResult<Self> {
        let m = Queens::new(n).map_err(|e| model_error(e, "n"))?;
        Ok(Self::new(Kind::Queens(m, n)))
    }

    /// word_squares(words): double word squares of the words (one length, letters and
    /// digits, distinct).
    #[staticmethod]
    fn word_squares(words: Vec<String>) -> PyResult<Self> {
        if let Some((k, w)) = words
            .iter()
            .enumerate()
            .find(|(_, w)| w.contains(['\n', '\r']))
        {
            return Err(PyValueError::new_err(format!(
                "word {}: '{}' holds a line break",
                k + 1,
                w.escape_default()
            )));
        }
        let parsed = word_squares::parse_words(&words.join("\n")).map_err(|e| match e {
            ModelError::At { line, message, .. } => {
                PyValueError::new_err(format!("word {line}: {message}"))
            }
            other => PyValueError::new_err(other.to_string()),
        })?;
        let m = WordSquares::new(&parsed).map_err(|e| model_error(e, "words"))?;
        Ok(Self::new(Kind::WordSquares(m)))
    }

    /// dominoes(rows, cols, horizontal, vertical): domino tilings of a rectangle, (u, v)
    /// bounds on the horizontal and vertical dominoes (None: any number).
    #[staticmethod]
    #[pyo3(signature = (rows, cols, horizontal=None, vertical=None))]
    fn dominoes(
        rows: usize,
        cols: usize,
        horizontal: Option<(u32, u32)>,
        vertical: Option<(u32, u32)>,
    ) -> PyResult<Self> {
        let m = Dominoes::new(rows, cols, horizontal, vertical)
            .map_err(|e| model_error(e, "rectangle"))?;
        Ok(Self::new(Kind::Dominoes(m)))
    }

    /// macmahon(rows, cols, colours, border): MacMahon's squares of `colours` colours on a
    /// rows×cols rectangle, adjacent edges matching, the border of colour `border` (None: any).
    #[staticmethod]
    #[pyo3(signature = (rows=4, cols=6, colours=3, border=Some(0)))]
    fn macmahon(rows: usize, cols: usize, colours: usize, border: Option<u8>) -> PyResult<Self> {
        let m = EdgeMatching::macmahon(colours, rows, cols, border)
            .map_err(|e| model_error(e, "rectangle"))?;
        Ok(Self::new(Kind::EdgeMatching(m, "macmahon")))
    }

    /// edge_matching(rows, cols, colours, seed, rotations): a random edge-matching puzzle of
    /// rows×cols tiles with edges of `colours` colours, cut from a solved grid made from `seed`.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, colours=7, seed=1, rotations=true))]
    fn edge_matching(
        rows: usize,
        cols: usize,
        colours: usize,
        seed: u64,
        rotations: bool,
    ) -> PyResult<Self> {
        let m = EdgeMatching::random(rows, cols, colours, seed, rotations)
            .map_err(|e| model_error(e, "puzzle"))?;
        Ok(Self::new(Kind::EdgeMatching(m, "edge-matching")))
    }

    /// The model's exact-cover problem (for the Python `Problem`).
    fn problem(&self) -> NativeProblem {
        NativeProblem {
            problem: Arc::new(self.kind.model().problem().clone()),
            lines: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// One line saying what the problem is (the comment of its DLX file).
    fn title(&self) -> String {
        self.kind.model().title()
    }

    /// The solution as `xcover model NAME --solve` draws it in text.
    fn text(&self, solution: Vec<u32>) -> PyResult<String> {
        Ok(self.kind.model().decode(&self.options(&solution)?))
    }

    /// The solution's numbers and their shape, for the models that have numbers: sudoku (the
    /// 9×9 digits), langford (the row), matchings (the edges, (n/2, 2)), queens (the file of
    /// each rank); None for the models drawn in letters (tilings, word squares, dominoes: the
    /// text's characters).
    fn numbers(&self, solution: Vec<u32>) -> PyResult<Option<(Vec<i64>, Vec<usize>)>> {
        let s = self.options(&solution)?;
        Ok(match &self.kind {
            Kind::Sudoku(m, _) => {
                Some((m.grid(&s).iter().map(|&d| d as i64).collect(), vec![9, 9]))
            }
            Kind::Langford(m) => {
                let row: Vec<i64> = m.row(&s).iter().map(|&k| k as i64).collect();
                let len = row.len();
                Some((row, vec![len]))
            }
            Kind::Matchings(m, _) => {
                let e = m.edges(&s);
                let len = e.len();
                Some((
                    e.iter().flat_map(|&(i, j)| [i as i64, j as i64]).collect(),
                    vec![len, 2],
                ))
            }
            Kind::Queens(_, n) => {
                let rows = self.text_rows(&s);
                let files = rows
                    .iter()
                    .map(|r| r.iter().position(|&c| c == 'Q').map_or(-1, |f| f as i64))
                    .collect();
                Some((files, vec![*n]))
            }
            Kind::Tiling(..)
            | Kind::WordSquares(_)
            | Kind::Dominoes(_)
            | Kind::EdgeMatching(..) => None,
        })
    }

    /// The solution as an SVG picture, drawn by the crate's writers.
    fn svg(&self, solution: Vec<u32>) -> PyResult<String> {
        let s = self.options(&solution)?;
        let title = self.kind.model().title();
        match &self.kind {
            Kind::Sudoku(m, p) => {
                let g = sudoku_grid(&m.grid(&s), &p.cells);
                written(|out| svg::cell_grid(out, &g, "sudoku"))
            }
            Kind::Tiling(m, b, names) => {
                let cover = m.cover(&s);
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
                    rows: b.rows(),
                    cols: b.cols(),
                    cells,
                    coloured: true,
                };
                written(|out| svg::cell_grid(out, &g, &title))
            }
            Kind::Langford(m) => {
                // One row of 2n cells, each number's two cells a region of its colour.
                let row = m.row(&s);
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
                written(|out| svg::cell_grid(out, &g, &title))
            }
            Kind::Matchings(m, n) => written(|out| svg::matching(out, *n, &m.edges(&s), &title)),
            Kind::Queens(_, n) => {
                let rows = self.text_rows(&s);
                let files: Vec<u32> = rows
                    .iter()
                    .filter_map(|r| r.iter().position(|&c| c == 'Q').map(|f| f as u32))
                    .collect();
                let style = Style {
                    cell: if *n <= 16 { 32 } else { 16 },
                    per_row: 1,
                };
                written(|out| {
                    let pic = SvgBoards::start(out, *n, 1, style)?;
                    pic.board(out, 0, &title, None, Some(&files))?;
                    pic.finish(out)
                })
            }
            // Tiles drawn as their text boxes (each tile's four colours around it).
            Kind::WordSquares(_) | Kind::EdgeMatching(..) => {
                let g = char_grid(&self.text_rows(&s), false, |_, _, _| Some(0));
                written(|out| svg::cell_grid(out, &g, &title))
            }
            Kind::Dominoes(_) => {
                // Each domino a region: a `<` and the `>` after it, a `^` and the `v` below.
                let rows = self.text_rows(&s);
                let cols = rows.first().map_or(0, Vec::len);
                let g = char_grid(&rows, true, |r, c, ch| match ch {
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
                                // Horizontal dominoes in even colours, vertical in odd ones.
                                region: 2 * x.region + usize::from(x.text == "^" || x.text == "v"),
                                ..x
                            })
                        })
                        .collect(),
                    ..g
                };
                written(|out| svg::cell_grid(out, &g, &title))
            }
        }
    }
}

/// sudoku_svg(grid, clues, title) -> str: a sudoku grid (81 digits, 0 blank) with the clues of
/// its puzzle in bold.
#[pyfunction]
fn sudoku_svg(grid: Vec<u8>, clues: Vec<u8>, title: &str) -> PyResult<String> {
    let (Ok(g), Ok(c)) = (
        <Grid>::try_from(grid.as_slice()),
        <Grid>::try_from(clues.as_slice()),
    ) else {
        return Err(PyValueError::new_err("a sudoku grid has 81 cells"));
    };
    if g.iter().chain(c.iter()).any(|&d| d > 9) {
        return Err(PyValueError::new_err("a sudoku cell holds 0 (blank) to 9"));
    }
    written(|out| svg::cell_grid(out, &sudoku_grid(&g, &c), title))
}

/// Puzzles per batch of [`sudoku_batch`]: Ctrl-C stops it between batches.
const BATCH: usize = 4096;

/// What [`sudoku_batch`] returns: `(grids: bytes, counts, interrupted)`.
type Batch<'py> = (Bound<'py, PyBytes>, Vec<usize>, bool);

/// sudoku_batch(puzzles, limit, threads) -> (grids: bytes, counts, interrupted), None when
/// abandoned
///
/// Solves every puzzle (81-character lines) as `xcover model sudoku --file F --solve` does
/// (`models::sudoku::solve_batch`, in parallel on `threads`, 0 for all cores): `counts[i]` the
/// solutions found for puzzle i (at most `limit`), `grids` their 81 digits each, puzzle after
/// puzzle. After Ctrl-C, the puzzles of the batches done.
#[pyfunction]
#[pyo3(signature = (puzzles, limit=1, threads=0))]
fn sudoku_batch<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    limit: u64,
    threads: usize,
) -> PyResult<Option<Batch<'py>>> {
    if limit == 0 {
        return Err(PyValueError::new_err("limit must be at least 1"));
    }
    crate::check_threads(threads)?;
    let mut parsed = Vec::with_capacity(puzzles.len());
    for (k, text) in puzzles.iter().enumerate() {
        parsed.push(Puzzle::parse(text).map_err(|e| match e {
            ModelError::At {
                column, message, ..
            } => PyValueError::new_err(format!("puzzle {k}, column {column}: {message}")),
            other => PyValueError::new_err(format!("puzzle {k}: {other}")),
        })?);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the worker threads: {e}")))?;
    let stop = Stop::new();
    let flag = stop.clone();
    let (solved, interrupted) = run_polled(py, &stop, None, move || {
        let (mut grids, mut counts) = (Vec::new(), Vec::new());
        for chunk in parsed.chunks(BATCH) {
            if flag.is_set() {
                break;
            }
            for found in pool.install(|| sudoku::solve_batch(chunk, limit)) {
                counts.push(found.len());
                for g in found {
                    grids.extend_from_slice(&g);
                }
            }
        }
        (grids, counts)
    })?;
    let Some((grids, counts)) = solved else {
        return Ok(None);
    };
    Ok(Some((PyBytes::new(py, &grids), counts, interrupted)))
}

/// The classes and functions of this module, added to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeModel>()?;
    m.add_function(wrap_pyfunction!(sudoku_svg, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_batch, m)?)?;
    Ok(())
}
