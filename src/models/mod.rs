//! Classic exact-cover models, each built as an engine [`Problem`] with meaningful item and
//! option names, and decoded back from a solution into a picture.
//!
//! Every model has the same shape (docs/models.md):
//! - a struct built by a pure function, `new(...) -> Result<Self, ModelError>`, that holds the
//!   problem and whatever the decoding needs;
//! - the [`Model`] trait: [`Model::problem`], [`Model::title`] (one line saying what the
//!   problem is, written as a comment at the top of the DLX file) and [`Model::decode`], which
//!   turns a solution (its options, in any order) into a picture.
//!
//! The models use the engine and know nothing of the command line; the engine knows nothing of
//! them. Counting and listing are the engine's: [`solve_count`] picks the solver that fits
//! (Algorithm M for a model with multiplicities); `crate::io::dlx_format::write` writes a
//! model's problem as Knuth's DLX text, its title as the comment line.
//!
//! ```
//! use dancelinks::engine::Budget;
//! use dancelinks::engine::run::Dance;
//! use dancelinks::models::{Model, langford::Langford, solve_count};
//!
//! let model = Langford::new(7).unwrap();
//! assert_eq!(solve_count(model.problem(), &Budget::unlimited()), 52);
//! let first = Dance::new(model.problem()).first().unwrap();
//! let row = model.decode(&first); // e.g. "1 7 1 2 6 4 2 5 3 7 4 6 3 5\n"
//! assert_eq!(row.split_whitespace().count(), 14);
//! let text = dancelinks::io::dlx_format::to_string(model.problem(), &model.title()).unwrap();
//! assert!(text.starts_with("| Langford pairs, n = 7\n1 2 3 4 5 6 7 s1 s2"));
//! ```

use std::ops::ControlFlow;

use crate::engine::run::{self, Plan};
use crate::engine::{Budget, BuildError, OptionId, Problem};

pub mod dominoes;
pub mod edge_matching;
pub mod heat;
pub mod langford;
pub mod matchings;
pub mod pictures;
pub mod polyomino;
pub mod queens;
pub mod registry;
pub mod sudoku;
pub mod word_squares;

/// Why a model could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// An argument out of range or inconsistent (the message says which and why).
    #[error("{0}")]
    Invalid(String),
    /// An input text (a board picture, a puzzle, a word list) with a mistake at a place.
    #[error("{line}:{column}: {message}")]
    At {
        /// 1-based line of the text.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The problem builder refused the model (too large, for one).
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// What every model offers.
pub trait Model {
    /// The exact-cover problem.
    fn problem(&self) -> &Problem;
    /// One line saying what the problem is, e.g. `Langford pairs, n = 7`.
    fn title(&self) -> String;
    /// A solution (its options, in any order) as a picture: lines ending in `\n`.
    fn decode(&self, solution: &[OptionId]) -> String;
}

/// The number of solutions of `problem` (with either solver: Algorithm M when some item has
/// a multiplicity), within `budget`.
pub fn solve_count(problem: &Problem, budget: &Budget) -> u64 {
    let counted = run::count(problem, &one_thread(budget));
    u64::try_from(counted.count).expect("a plain count fits in u64")
}

/// Calls `visit` with each solution of `problem` (options in the order chosen) until it
/// returns `Break`, with either solver as [`solve_count`].
pub fn for_each_solution(
    problem: &Problem,
    budget: &Budget,
    visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
) {
    run::list(problem, &one_thread(budget), visit);
}

/// The plan of the models' searches: the sequential search within `budget`.
fn one_thread(budget: &Budget) -> Plan {
    Plan {
        budget: budget.clone(),
        ..Plan::default()
    }
}
