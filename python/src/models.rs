//! The classic models of `xcover model` for the Python package: each built by the crate's
//! registry of the models (`dancelinks::models::registry`, as the command line builds them)
//! into a [`NativeModel`], whose problem is a [`NativeProblem`] (the Python `Problem`) and
//! which decodes a solution (its option indices) into the crate's numbers, text picture and
//! SVG picture of the model. Also the batch sudoku solver (`models::sudoku::solve_batch`).
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::models::pictures;
use dancelinks::models::polyomino::{Board, Piece};
use dancelinks::models::registry::{Built, MODELS, Spec};
use dancelinks::models::sudoku::{self, Puzzle};
use dancelinks::models::word_squares;
use dancelinks::models::{Model, ModelError};

use crate::worker::{Stop, run_polled};
use crate::{NativeProblem, value_error};

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

/// A model of `dancelinks::models`, built once by the crate's registry
/// (`dancelinks::models::registry`); `problem()` is its exact-cover problem.
#[pyclass(module = "dancelinks._native", frozen)]
pub(crate) struct NativeModel {
    model: Built,
    /// The model's name (the registry's): sudoku, polyomino, langford, matchings, queens,
    /// word-squares, dominoes, macmahon, edge-matching.
    #[pyo3(get)]
    name: &'static str,
}

impl NativeModel {
    /// The model of `spec`, a refusal as ValueError naming `what` (the input).
    fn build(spec: Spec, what: &str) -> PyResult<Self> {
        let model = spec.build().map_err(|e| model_error(e, what))?;
        Ok(NativeModel {
            name: model.name(),
            model,
        })
    }

    /// The model, for the crate's functions of any model.
    pub(crate) fn model(&self) -> &Built {
        &self.model
    }
}

#[pymethods]
impl NativeModel {
    /// sudoku(puzzle): 81 characters, `1`-`9` clues, `.` or `0` blanks.
    #[staticmethod]
    fn sudoku(puzzle: &str) -> PyResult<Self> {
        let p = Puzzle::parse(puzzle).map_err(|e| model_error(e, "puzzle"))?;
        Self::build(Spec::Sudoku(p), "puzzle")
    }

    /// polyomino(board, pieces): `board` a built-in name (`6x10`, `8x8-minus-centre`) or a
    /// picture (`.` a cell, `#` a hole, a line a row); `pieces` `[(name, "##/#.")]`, None for
    /// the twelve pentominoes.
    #[staticmethod]
    #[pyo3(signature = (board, pieces=None))]
    fn polyomino(board: &str, pieces: Option<Vec<(String, String)>>) -> PyResult<Self> {
        let board = if board.contains(['.', '#', '\n']) {
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
            None => None,
            Some(p) => Some(
                p.iter()
                    .map(|(name, picture)| Piece::parse(name, picture))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(value_error)?,
            ),
        };
        Self::build(Spec::Polyomino { board, pieces }, "board")
    }

    /// langford(n): Langford pairs of 1..n.
    #[staticmethod]
    fn langford(n: usize) -> PyResult<Self> {
        Self::build(Spec::Langford(n), "n")
    }

    /// matchings(n): the perfect matchings of K_n.
    #[staticmethod]
    fn matchings(n: usize) -> PyResult<Self> {
        Self::build(Spec::Matchings(n), "n")
    }

    /// queens(n): n queens as an exact cover (diagonals secondary).
    #[staticmethod]
    fn queens(n: usize) -> PyResult<Self> {
        Self::build(Spec::Queens(n), "n")
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
        Self::build(Spec::WordSquares(parsed), "words")
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
        let spec = Spec::Dominoes {
            rows,
            cols,
            horizontal,
            vertical,
        };
        Self::build(spec, "rectangle")
    }

    /// macmahon(rows, cols, colours, border): MacMahon's squares of `colours` colours on a
    /// rows×cols rectangle, adjacent edges matching, the border of colour `border` (None: any).
    #[staticmethod]
    #[pyo3(signature = (rows=4, cols=6, colours=3, border=Some(0)))]
    fn macmahon(rows: usize, cols: usize, colours: usize, border: Option<u8>) -> PyResult<Self> {
        let spec = Spec::MacMahon {
            rows,
            cols,
            colours,
            border,
        };
        Self::build(spec, "rectangle")
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
        let spec = Spec::EdgeMatching {
            rows,
            cols,
            colours,
            seed,
            rotations,
        };
        Self::build(spec, "puzzle")
    }

    /// The model's exact-cover problem (for the Python `Problem`).
    fn problem(&self) -> NativeProblem {
        NativeProblem {
            problem: Arc::new(self.model.problem().clone()),
            lines: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// One line saying what the problem is (the comment of its DLX file).
    fn title(&self) -> String {
        self.model.title()
    }

    /// The solution as `xcover model NAME --solve` draws it in text.
    fn text(&self, solution: Vec<u32>) -> PyResult<String> {
        let s = self.model.solution(&solution).map_err(value_error)?;
        Ok(self.model.decode(&s))
    }

    /// The solution's numbers and their shape (`Built::numbers`), None for the models drawn
    /// in letters.
    fn numbers(&self, solution: Vec<u32>) -> PyResult<Option<(Vec<i64>, Vec<usize>)>> {
        let s = self.model.solution(&solution).map_err(value_error)?;
        Ok(self.model.numbers(&s).map(|n| (n.values, n.shape)))
    }

    /// The solution as the crate's SVG picture of the model (`Built::svg`).
    fn svg(&self, solution: Vec<u32>) -> PyResult<String> {
        let s = self.model.solution(&solution).map_err(value_error)?;
        Ok(self.model.svg(&s))
    }
}

/// sudoku_svg(grid, clues, title) -> str: a sudoku grid (81 digits, 0 blank) with the clues of
/// its puzzle in bold.
#[pyfunction]
fn sudoku_svg(grid: Vec<u8>, clues: Vec<u8>, title: &str) -> PyResult<String> {
    pictures::sudoku_of_digits(&grid, &clues, title).map_err(value_error)
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
    let models: Vec<(&str, &str, &str)> = MODELS
        .iter()
        .map(|e| (e.name, e.command, e.function))
        .collect();
    m.add("MODELS", models)?;
    Ok(())
}
