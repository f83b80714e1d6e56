//! Sudoku: fill a 9×9 grid with the digits 1 to 9 so that each row, column and 3×3 box holds
//! each digit once, agreeing with the given clues.
//!
//! - primary items, for rows `r`, columns `c`, boxes `b` (0-based, boxes row by row) and
//!   digits `d` (1-9): `p{r}{c}` (the cell is filled), `r{r}{d}`, `c{c}{d}`, `b{b}{d}` (the
//!   row, column, box holds d);
//! - options: `p{r}{c} r{r}{d} c{c}{d} b{b}{d}`, one per cell and digit: a clue's cell has only
//!   the clue's option, a blank cell the digits that no clue in its row, column or box rules
//!   out.
//!
//! A puzzle is 81 characters, row by row: `1`-`9` a clue, `.` or `0` a blank. [`solve_batch`]
//! solves many puzzles, one problem built per puzzle, in parallel.

use std::ops::ControlFlow;

use crate::engine::run::{self, Plan};
use crate::engine::{Budget, OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// A puzzle or a solved grid: 81 cells row by row, 0 for a blank.
pub type Grid = [u8; 81];

/// A puzzle read from its 81-character line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Puzzle {
    /// The clues, row by row, 0 for a blank.
    pub cells: Grid,
}

fn box_of(r: usize, c: usize) -> usize {
    3 * (r / 3) + c / 3
}

impl Puzzle {
    /// Reads a puzzle: 81 characters `1`-`9`, `.` or `0` (surrounding whitespace is ignored).
    /// Errors say where: `1:COLUMN: problem` (line 1; a reader of many lines puts its own).
    /// Two equal clues in one row, column or box are an error at the second.
    pub fn parse(line: &str) -> Result<Puzzle, ModelError> {
        let lead = line.len() - line.trim_start().len();
        let text = line.trim();
        let at = |k: usize, message: String| ModelError::At {
            line: 1,
            column: line[..lead].chars().count() + k + 1,
            message,
        };
        let mut cells = [0u8; 81];
        let mut count = 0;
        for (k, ch) in text.chars().enumerate() {
            if k == 81 {
                return Err(at(
                    k,
                    format!(
                        "a puzzle has 81 cells; this line has {} characters",
                        text.chars().count()
                    ),
                ));
            }
            cells[k] = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                other => {
                    return Err(at(
                        k,
                        format!(
                            "'{}' in a puzzle (a cell is a digit 1-9, or '.' or '0' for a blank)",
                            other.escape_default()
                        ),
                    ));
                }
            };
            count += 1;
        }
        if count < 81 {
            return Err(at(
                count,
                format!("a puzzle has 81 cells; this line has {count} characters"),
            ));
        }
        // A clue repeated in a row, column or box: at the later one.
        for k in 0..81 {
            let d = cells[k];
            if d == 0 {
                continue;
            }
            let (r, c) = (k / 9, k % 9);
            for (j, &e) in cells[..k].iter().enumerate() {
                let (r2, c2) = (j / 9, j % 9);
                if e != d {
                    continue;
                }
                let unit = if r2 == r {
                    "row"
                } else if c2 == c {
                    "column"
                } else if box_of(r2, c2) == box_of(r, c) {
                    "box"
                } else {
                    continue;
                };
                return Err(at(
                    k,
                    format!(
                        "the clue {d} at row {}, column {} repeats the {d} at row {}, column {} \
                         in its {unit}",
                        r + 1,
                        c + 1,
                        r2 + 1,
                        c2 + 1
                    ),
                ));
            }
        }
        Ok(Puzzle { cells })
    }
}

/// The exact-cover problem of one puzzle.
#[derive(Debug, Clone)]
pub struct Sudoku {
    puzzle: Puzzle,
    problem: Problem,
    /// For each option: the cell (0..81) and its digit.
    placements: Vec<(u8, u8)>,
}

impl Sudoku {
    /// The problem of `puzzle`.
    pub fn new(puzzle: Puzzle) -> Result<Sudoku, ModelError> {
        let g = &puzzle.cells;
        let mut row = [0u16; 9];
        let mut col = [0u16; 9];
        let mut bx = [0u16; 9];
        for k in 0..81 {
            if g[k] != 0 {
                let bit = 1 << g[k];
                row[k / 9] |= bit;
                col[k % 9] |= bit;
                bx[box_of(k / 9, k % 9)] |= bit;
            }
        }
        let mut b = ProblemBuilder::new();
        let mut p = Vec::with_capacity(81);
        for r in 0..9 {
            for c in 0..9 {
                p.push(b.primary(&format!("p{r}{c}"))?);
            }
        }
        let unit = |prefix: char, b: &mut ProblemBuilder| -> Result<Vec<_>, ModelError> {
            let mut v = Vec::with_capacity(81);
            for u in 0..9 {
                for d in 1..=9 {
                    v.push(b.primary(&format!("{prefix}{u}{d}"))?);
                }
            }
            Ok(v)
        };
        let ri = unit('r', &mut b)?;
        let ci = unit('c', &mut b)?;
        let bi = unit('b', &mut b)?;
        let mut placements = Vec::new();
        for k in 0..81 {
            let (r, c) = (k / 9, k % 9);
            let x = box_of(r, c);
            for d in 1..=9u8 {
                let allowed = if g[k] != 0 {
                    g[k] == d
                } else {
                    (row[r] | col[c] | bx[x]) & (1 << d) == 0
                };
                if !allowed {
                    continue;
                }
                let j = d as usize - 1;
                b.add_option(
                    [p[k], ri[9 * r + j], ci[9 * c + j], bi[9 * x + j]]
                        .map(crate::engine::Entry::plain),
                    0,
                )?;
                placements.push((k as u8, d));
            }
        }
        Ok(Sudoku {
            puzzle,
            problem: b.build()?,
            placements,
        })
    }

    /// The grid a solution fills in (the clues, and the digits of its options).
    pub fn grid(&self, solution: &[OptionId]) -> Grid {
        let mut g = self.puzzle.cells;
        for &o in solution {
            let (k, d) = self.placements[o.0 as usize];
            g[k as usize] = d;
        }
        g
    }
}

/// A grid as its 81-character line (`.` for a blank).
pub fn line(grid: &Grid) -> String {
    grid.iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect()
}

/// A grid as a picture: nine lines of digits (`.` for a blank) with the boxes ruled off,
/// as a person writes it down.
///
/// ```
/// # use dancelinks::models::sudoku::picture;
/// let mut grid = [0u8; 81];
/// grid[0] = 5;
/// let text = picture(&grid);
/// assert_eq!(text.lines().next(), Some("5 . . | . . . | . . ."));
/// assert_eq!(text.lines().nth(3), Some("------+-------+------"));
/// assert_eq!(text.lines().count(), 11);
/// ```
pub fn picture(grid: &Grid) -> String {
    let mut text = String::with_capacity(11 * 22);
    for r in 0..9 {
        if r == 3 || r == 6 {
            text.push_str("------+-------+------\n");
        }
        for c in 0..9 {
            if c > 0 {
                text.push_str(if c == 3 || c == 6 { " | " } else { " " });
            }
            let d = grid[9 * r + c];
            text.push(if d == 0 { '.' } else { (b'0' + d) as char });
        }
        text.push('\n');
    }
    text
}

/// Whether `grid` is a solved sudoku (every row, column and box holds 1 to 9) that agrees with
/// the clues of `puzzle`.
pub fn is_solution(puzzle: &Puzzle, grid: &Grid) -> bool {
    let clues_kept = (0..81).all(|k| puzzle.cells[k] == 0 || puzzle.cells[k] == grid[k]);
    let full = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u16;
        for k in cells {
            seen |= 1 << grid[k];
        }
        seen == 0b11_1111_1110
    };
    clues_kept
        && (0..9).all(|u| {
            full(&mut (0..9).map(|j| 9 * u + j))
                && full(&mut (0..9).map(|j| 9 * j + u))
                && full(&mut (0..9).map(|j| 9 * (3 * (u / 3) + j / 3) + 3 * (u % 3) + j % 3))
        })
}

impl Model for Sudoku {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        format!("sudoku {}", line(&self.puzzle.cells))
    }
    /// The grid, nine lines of nine digits.
    fn decode(&self, solution: &[OptionId]) -> String {
        let l = line(&self.grid(solution));
        (0..9)
            .map(|r| format!("{}\n", &l[9 * r..9 * r + 9]))
            .collect()
    }
}

/// Solves each puzzle: its solutions, at most `limit` each, in the engine's order. One problem
/// is built per puzzle; the puzzles are solved in parallel on rayon's pool and the answers
/// come back in the puzzles' order.
pub fn solve_batch(puzzles: &[Puzzle], limit: u64) -> Vec<Vec<Grid>> {
    run::deal_each(puzzles, |&puzzle| {
        // A puzzle from `Puzzle::parse` always builds (324 items, at most 729 options).
        let Ok(model) = Sudoku::new(puzzle) else {
            return Vec::new();
        };
        let plan = Plan {
            budget: Budget::solutions(limit),
            ..Plan::default()
        };
        let mut found = Vec::new();
        run::list(model.problem(), &plan, |s: &[OptionId]| {
            found.push(model.grid(s));
            ControlFlow::Continue(())
        });
        found
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run::Dance;

    /// A puzzle with one solution (from the sudoku literature), and the solution.
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn a_known_puzzle_has_its_one_solution() {
        let p = Puzzle::parse(PUZZLE).unwrap();
        let all = solve_batch(&[p], u64::MAX);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].len(), 1);
        assert_eq!(line(&all[0][0]), SOLVED);
        assert!(is_solution(&p, &all[0][0]));
        let m = Sudoku::new(p).unwrap();
        let s = Dance::new(m.problem()).first().unwrap();
        assert_eq!(m.decode(&s).replace('\n', ""), SOLVED);
    }

    #[test]
    fn a_solved_grid_and_an_empty_grid() {
        let full = Puzzle::parse(SOLVED).unwrap();
        assert_eq!(solve_batch(&[full], 5), vec![vec![full.cells]]);
        let empty = Puzzle::parse(&".".repeat(81)).unwrap();
        let grids = &solve_batch(&[empty], 20)[0];
        assert_eq!(grids.len(), 20);
        assert!(grids.iter().all(|g| is_solution(&empty, g)));
        let distinct: std::collections::BTreeSet<_> = grids.iter().collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn bad_puzzles_say_where() {
        let e = |s: &str| Puzzle::parse(s).unwrap_err().to_string();
        assert_eq!(
            e(&format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..])),
            "1:11: 'x' in a puzzle (a cell is a digit 1-9, or '.' or '0' for a blank)"
        );
        assert_eq!(
            e(&PUZZLE[..80]),
            "1:81: a puzzle has 81 cells; this line has 80 characters"
        );
        assert_eq!(
            e(&format!("{PUZZLE}1")),
            "1:82: a puzzle has 81 cells; this line has 82 characters"
        );
        let mut twice = PUZZLE.to_string();
        twice.replace_range(2..3, "5");
        assert_eq!(
            e(&twice),
            "1:3: the clue 5 at row 1, column 3 repeats the 5 at row 1, column 1 in its row"
        );
        assert!(Puzzle::parse(&format!("  {PUZZLE} ")).is_ok());
    }
}
