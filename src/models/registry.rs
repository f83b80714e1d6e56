//! The one list of the classic models, and each model built from its arguments with what
//! its solutions become: `xcover model NAME` (src/cmd/model.rs) and the Python package's
//! `dancelinks.models` both build a model here, from a [`Spec`], into a [`Built`], which is
//! the [`Model`] (problem, title, text picture) and also decodes a solution into the model's
//! numbers ([`Built::numbers`]) and draws it ([`Built::svg`], [`Built::marginals_svg`]), so
//! that the command line and the notebook give the same answers and the same pictures.
//!
//! ```
//! use dancelinks::models::registry::{MODELS, Spec};
//! use dancelinks::models::{Model, for_each_solution};
//! use dancelinks::engine::Budget;
//!
//! assert_eq!(MODELS.len(), 9);
//! let langford = Spec::Langford(4).build().unwrap();
//! assert_eq!((langford.name(), langford.title().as_str()), ("langford", "Langford pairs, n = 4"));
//! for_each_solution(langford.problem(), &Budget::unlimited(), |s| {
//!     let numbers = langford.numbers(s).unwrap();
//!     assert_eq!(numbers.shape, [8]);
//!     assert!(langford.svg(s).starts_with("<svg"));
//!     std::ops::ControlFlow::Break(())
//! });
//! ```

use crate::engine::{OptionId, Problem};

use super::dominoes::Dominoes;
use super::edge_matching::EdgeMatching;
use super::langford::Langford;
use super::matchings::Matchings;
use super::pictures;
use super::polyomino::{self, Board, Piece, Tiling};
use super::queens::Queens;
use super::sudoku::{Puzzle, Sudoku};
use super::word_squares::WordSquares;
use super::{Model, ModelError};

/// A model of the list: its names in each front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The model's name ([`Built::name`], Python's `Model.name`).
    pub name: &'static str,
    /// Its subcommand: `xcover model COMMAND`.
    pub command: &'static str,
    /// Its function in the Python package: `dancelinks.models.FUNCTION`.
    pub function: &'static str,
}

/// Every model, in the order of `xcover model --help`.
pub const MODELS: [Entry; 9] = [
    entry("langford", "langford", "langford"),
    entry("polyomino", "pentominoes", "polyominoes"),
    entry("sudoku", "sudoku", "sudoku"),
    entry("matchings", "matchings", "matchings"),
    entry("queens", "queens", "queens"),
    entry("word-squares", "word-squares", "word_squares"),
    entry("dominoes", "dominoes", "dominoes"),
    entry("macmahon", "macmahon", "macmahon"),
    entry("edge-matching", "edge-matching", "edge_matching"),
];

const fn entry(name: &'static str, command: &'static str, function: &'static str) -> Entry {
    Entry {
        name,
        command,
        function,
    }
}

/// A model and its arguments, as a front read them.
#[derive(Clone, Debug)]
pub enum Spec {
    /// One sudoku puzzle.
    Sudoku(Puzzle),
    /// Tilings of `board` by `pieces` (None: the twelve pentominoes), each used once.
    Polyomino {
        /// The board.
        board: Board,
        /// The pieces ([`Piece::parse`]); None for [`polyomino::pentominoes`].
        pieces: Option<Vec<Piece>>,
    },
    /// Langford pairs of 1..n.
    Langford(usize),
    /// The perfect matchings of K_n.
    Matchings(usize),
    /// n queens as an exact cover.
    Queens(usize),
    /// Double word squares of the words (see [`super::word_squares::parse_words`]).
    WordSquares(Vec<String>),
    /// Domino tilings of a rectangle, (u, v) bounds on the horizontal and vertical dominoes.
    Dominoes {
        /// Rows of the rectangle.
        rows: usize,
        /// Columns of the rectangle.
        cols: usize,
        /// Between u and v horizontal dominoes (None: any number).
        horizontal: Option<(u32, u32)>,
        /// Between u and v vertical dominoes (None: any number).
        vertical: Option<(u32, u32)>,
    },
    /// MacMahon's squares of `colours` colours on a rectangle, the border of one colour.
    MacMahon {
        /// Rows of the rectangle.
        rows: usize,
        /// Columns of the rectangle.
        cols: usize,
        /// The number of colours.
        colours: usize,
        /// The colour of the border (None: any).
        border: Option<u8>,
    },
    /// A random edge-matching puzzle made from a seed.
    EdgeMatching {
        /// Rows of tiles.
        rows: usize,
        /// Columns of tiles.
        cols: usize,
        /// Colours of the inner edges.
        colours: usize,
        /// The seed of the puzzle.
        seed: u64,
        /// Whether tiles may be turned.
        rotations: bool,
    },
}

impl Spec {
    /// The model built.
    pub fn build(self) -> Result<Built, ModelError> {
        let kind = match self {
            Spec::Sudoku(p) => Kind::Sudoku(Sudoku::new(p)?, p),
            Spec::Polyomino { board, pieces } => {
                let pieces = pieces.unwrap_or_else(polyomino::pentominoes);
                let names = pieces.iter().map(|p| p.name.clone()).collect();
                Kind::Tiling(Tiling::new(pieces, board.clone())?, board, names)
            }
            Spec::Langford(n) => Kind::Langford(Langford::new(n)?),
            Spec::Matchings(n) => Kind::Matchings(Matchings::new(n)?, n),
            Spec::Queens(n) => Kind::Queens(Queens::new(n)?, n),
            Spec::WordSquares(words) => Kind::WordSquares(WordSquares::new(&words)?),
            Spec::Dominoes {
                rows,
                cols,
                horizontal,
                vertical,
            } => Kind::Dominoes(Dominoes::new(rows, cols, horizontal, vertical)?),
            Spec::MacMahon {
                rows,
                cols,
                colours,
                border,
            } => Kind::EdgeMatching(
                EdgeMatching::macmahon(colours, rows, cols, border)?,
                "macmahon",
            ),
            Spec::EdgeMatching {
                rows,
                cols,
                colours,
                seed,
                rotations,
            } => Kind::EdgeMatching(
                EdgeMatching::random(rows, cols, colours, seed, rotations)?,
                "edge-matching",
            ),
        };
        Ok(Built { kind })
    }
}

/// Which model, with what its pictures need beyond [`Model`].
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

/// A model built from a [`Spec`]: the [`Model`], and what its solutions become.
pub struct Built {
    kind: Kind,
}

/// A solution's numbers (see [`Built::numbers`]): `values` row-major in an array of `shape`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// The numbers, row-major.
    pub values: Vec<i64>,
    /// The shape of their array.
    pub shape: Vec<usize>,
}

impl Built {
    /// The model's name, its `name` in [`MODELS`].
    pub fn name(&self) -> &'static str {
        match &self.kind {
            Kind::Sudoku(..) => "sudoku",
            Kind::Tiling(..) => "polyomino",
            Kind::Langford(_) => "langford",
            Kind::Matchings(..) => "matchings",
            Kind::Queens(..) => "queens",
            Kind::WordSquares(_) => "word-squares",
            Kind::Dominoes(_) => "dominoes",
            Kind::EdgeMatching(_, name) => name,
        }
    }

    fn model(&self) -> &dyn Model {
        match &self.kind {
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

    /// The side of the square board whose square (r, c) is option r·n + c (queens), whose
    /// marginals are drawn as the heat map of `queens heatmap`; None for the other models.
    pub fn heat_board(&self) -> Option<usize> {
        match &self.kind {
            Kind::Queens(_, n) => Some(*n),
            _ => None,
        }
    }

    /// A solution given by its option indices, checked against the problem.
    pub fn solution(&self, options: &[u32]) -> Result<Vec<OptionId>, ModelError> {
        let count = self.problem().option_count();
        match options.iter().find(|&&o| o as usize >= count) {
            Some(o) => Err(ModelError::Invalid(format!(
                "option {o} in a solution of a problem of {count} options"
            ))),
            None => Ok(options.iter().map(|&o| OptionId(o)).collect()),
        }
    }

    /// The rows of the text picture of a solution, as characters.
    fn text_rows(&self, solution: &[OptionId]) -> Vec<Vec<char>> {
        self.decode(solution)
            .lines()
            .map(|l| l.chars().collect())
            .collect()
    }

    /// The file of the queen on each rank of a queens solution (None: no queen there).
    fn files(&self, solution: &[OptionId]) -> Vec<Option<u32>> {
        self.text_rows(solution)
            .iter()
            .map(|r| r.iter().position(|&c| c == 'Q').map(|f| f as u32))
            .collect()
    }

    /// The solution's numbers, for the models that have numbers: sudoku (the 9×9 digits),
    /// langford (the row), matchings (the edges, (n/2, 2), vertices from 1), queens (the
    /// file of the queen of each rank, -1 for none); None for the models drawn in letters
    /// (tilings, word squares, dominoes, edge matching: their text picture is the answer).
    pub fn numbers(&self, s: &[OptionId]) -> Option<Numbers> {
        let (values, shape) = match &self.kind {
            Kind::Sudoku(m, _) => (
                m.grid(s).iter().map(|&d| i64::from(d)).collect(),
                vec![9, 9],
            ),
            Kind::Langford(m) => {
                let row: Vec<i64> = m.row(s).iter().map(|&k| k as i64).collect();
                let len = row.len();
                (row, vec![len])
            }
            Kind::Matchings(m, _) => {
                let e = m.edges(s);
                let len = e.len();
                (
                    e.iter().flat_map(|&(i, j)| [i as i64, j as i64]).collect(),
                    vec![len, 2],
                )
            }
            Kind::Queens(_, n) => {
                let files = self.files(s);
                (
                    files.iter().map(|f| f.map_or(-1, i64::from)).collect(),
                    vec![*n],
                )
            }
            Kind::Tiling(..)
            | Kind::WordSquares(_)
            | Kind::Dominoes(_)
            | Kind::EdgeMatching(..) => {
                return None;
            }
        };
        Some(Numbers { values, shape })
    }

    /// The solution as an SVG picture: a sudoku with its clues in bold, a tiling with each
    /// piece in its colour, a Langford row with each pair in its colour, a matching on a
    /// circle, a board with its queens, dominoes each in its colour, word squares and
    /// edge-matching tilings as their text picture's cells (see [`pictures`]).
    pub fn svg(&self, s: &[OptionId]) -> String {
        let title = self.title();
        match &self.kind {
            Kind::Sudoku(m, p) => pictures::sudoku(&m.grid(s), &p.cells, "sudoku"),
            Kind::Tiling(m, b, names) => {
                pictures::tiling(b.rows(), b.cols(), &m.cover(s), names, &title)
            }
            Kind::Langford(m) => pictures::langford(&m.row(s), &title),
            Kind::Matchings(m, n) => pictures::matching(*n, &m.edges(s), &title),
            Kind::Queens(_, n) => {
                let files: Vec<u32> = self.files(s).into_iter().flatten().collect();
                pictures::queens(*n, &files, &title)
            }
            Kind::WordSquares(_) | Kind::EdgeMatching(..) => {
                pictures::text_boxes(&self.text_rows(s), &title)
            }
            Kind::Dominoes(_) => pictures::dominoes(&self.text_rows(s), &title),
        }
    }

    /// The marginals (`counts`, one per option, of `total` solutions) as `xcover model NAME
    /// --marginals --format svg` draws them ([`pictures::marginals`]); None for a model whose
    /// picture is not a grid.
    pub fn marginals_svg(&self, total: u128, counts: &[u128]) -> Option<String> {
        pictures::marginals(self.model(), self.heat_board(), total, counts)
    }
}

impl Model for Built {
    fn problem(&self) -> &Problem {
        self.model().problem()
    }
    fn title(&self) -> String {
        self.model().title()
    }
    fn decode(&self, solution: &[OptionId]) -> String {
        self.model().decode(solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_names_itself_as_the_list_does() {
        let specs = [
            Spec::Langford(3),
            Spec::Polyomino {
                board: Board::named("3x20").unwrap(),
                pieces: None,
            },
            Spec::Sudoku(Puzzle::parse(&".".repeat(81)).unwrap()),
            Spec::Matchings(4),
            Spec::Queens(4),
            Spec::WordSquares(vec!["ab".into(), "cd".into(), "ac".into(), "bd".into()]),
            Spec::Dominoes {
                rows: 2,
                cols: 2,
                horizontal: None,
                vertical: None,
            },
            Spec::MacMahon {
                rows: 2,
                cols: 3,
                colours: 2,
                border: None,
            },
            Spec::EdgeMatching {
                rows: 2,
                cols: 2,
                colours: 2,
                seed: 1,
                rotations: true,
            },
        ];
        for (spec, entry) in specs.into_iter().zip(MODELS) {
            let built = spec.build().unwrap();
            assert_eq!(built.name(), entry.name);
            let mut first = None;
            super::super::for_each_solution(
                built.problem(),
                &crate::engine::Budget::unlimited(),
                |s| {
                    first = Some(s.to_vec());
                    std::ops::ControlFlow::Break(())
                },
            );
            let s = first.expect("a solution");
            assert!(built.svg(&s).starts_with("<svg"), "{}", entry.name);
        }
    }

    #[test]
    fn a_solution_is_checked_against_the_problem() {
        let m = Spec::Queens(4).build().unwrap();
        assert_eq!(
            m.solution(&[16]).unwrap_err().to_string(),
            "option 16 in a solution of a problem of 16 options"
        );
        assert_eq!(m.heat_board(), Some(4));
    }
}
