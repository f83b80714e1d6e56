//! Domino tilings with a given number of horizontal and vertical dominoes: an exact cover
//! with multiplicities (Knuth's DLX3, `u:v|name` items).
//!
//! - primary items: `u:v|h` (between u and v horizontal dominoes) and `u:v|v` (vertical),
//!   then the cells `r{row}c{col}` (0-based), row by row;
//! - options: `h r{r}c{c} r{r}c{c+1}` for each horizontal place, then `v r{r}c{c} r{r+1}c{c}`
//!   for each vertical one.
//!
//! With the default bounds (0 to all the dominoes, for both) the solutions are all the domino
//! tilings of the rectangle (4×4: 36, 6×6: 6,728, 8×8: 12,988,816).

use crate::engine::{Entry, OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// The longest side.
pub const MAX_SIDE: usize = 256;

/// The domino tilings of a rectangle with bounded numbers of each kind.
#[derive(Debug, Clone)]
pub struct Dominoes {
    rows: usize,
    cols: usize,
    horizontal: (u32, u32),
    vertical: (u32, u32),
    problem: Problem,
    /// For each option: its first cell and whether it is horizontal.
    placements: Vec<(usize, usize, bool)>,
}

impl Dominoes {
    /// The tilings of a `rows × cols` rectangle by dominoes, between `horizontal.0` and
    /// `horizontal.1` of them horizontal, between `vertical.0` and `vertical.1` vertical; `None`
    /// for either is `0:` the number of dominoes (`rows·cols/2`).
    pub fn new(
        rows: usize,
        cols: usize,
        horizontal: Option<(u32, u32)>,
        vertical: Option<(u32, u32)>,
    ) -> Result<Dominoes, ModelError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(ModelError::Invalid(format!(
                "the sides are 1 to {MAX_SIDE} cells, not {rows}x{cols}"
            )));
        }
        let all = ((rows * cols / 2) as u32).max(1);
        let horizontal = horizontal.unwrap_or((0, all));
        let vertical = vertical.unwrap_or((0, all));
        for (name, (u, v)) in [("--horizontal", horizontal), ("--vertical", vertical)] {
            if v == 0 || u > v {
                return Err(ModelError::Invalid(format!(
                    "{name} {u}:{v} is not a range (need u <= v and v >= 1)"
                )));
            }
        }
        let mut b = ProblemBuilder::new();
        let h = b.primary_with_bounds("h", horizontal.0, horizontal.1)?;
        let v = b.primary_with_bounds("v", vertical.0, vertical.1)?;
        let mut cell = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                cell.push(b.primary(&format!("r{r}c{c}"))?);
            }
        }
        let mut placements = Vec::new();
        for (kind, horizontal) in [(h, true), (v, false)] {
            for r in 0..rows {
                for c in 0..cols {
                    let other = if horizontal {
                        (c + 1 < cols).then(|| r * cols + c + 1)
                    } else {
                        (r + 1 < rows).then(|| (r + 1) * cols + c)
                    };
                    let Some(other) = other else { continue };
                    b.add_option([kind, cell[r * cols + c], cell[other]].map(Entry::plain), 0)?;
                    placements.push((r, c, horizontal));
                }
            }
        }
        Ok(Dominoes {
            rows,
            cols,
            horizontal,
            vertical,
            problem: b.build()?,
            placements,
        })
    }

    /// The number of horizontal dominoes in a solution.
    pub fn horizontal_count(&self, solution: &[OptionId]) -> usize {
        solution
            .iter()
            .filter(|o| self.placements[o.0 as usize].2)
            .count()
    }
}

impl Model for Dominoes {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        format!(
            "domino tilings of a {}x{} rectangle, {}:{} horizontal, {}:{} vertical",
            self.rows,
            self.cols,
            self.horizontal.0,
            self.horizontal.1,
            self.vertical.0,
            self.vertical.1
        )
    }
    /// The rectangle: `<>` a horizontal domino, `^` over `v` a vertical one.
    fn decode(&self, solution: &[OptionId]) -> String {
        let mut g = vec![vec!['.'; self.cols]; self.rows];
        for &o in solution {
            let (r, c, horizontal) = self.placements[o.0 as usize];
            if horizontal {
                g[r][c] = '<';
                g[r][c + 1] = '>';
            } else {
                g[r][c] = '^';
                g[r + 1][c] = 'v';
            }
        }
        g.into_iter()
            .map(|row| row.into_iter().collect::<String>() + "\n")
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::models::{for_each_solution, solve_count};
    use std::ops::ControlFlow;

    /// Tilings of a rows × cols rectangle counted by their number of horizontal dominoes, by
    /// filling the first empty cell (row-major) with a domino to its right or below.
    fn by_horizontal(rows: usize, cols: usize) -> Vec<u64> {
        fn go(filled: &mut [bool], rows: usize, cols: usize, h: usize, out: &mut [u64]) {
            let Some(k) = (0..filled.len()).find(|&k| !filled[k]) else {
                out[h] += 1;
                return;
            };
            let (r, c) = (k / cols, k % cols);
            if c + 1 < cols && !filled[k + 1] {
                filled[k] = true;
                filled[k + 1] = true;
                go(filled, rows, cols, h + 1, out);
                filled[k] = false;
                filled[k + 1] = false;
            }
            if r + 1 < rows {
                filled[k] = true;
                filled[k + cols] = true;
                go(filled, rows, cols, h, out);
                filled[k] = false;
                filled[k + cols] = false;
            }
        }
        let mut out = vec![0; rows * cols / 2 + 1];
        go(&mut vec![false; rows * cols], rows, cols, 0, &mut out);
        out
    }

    #[test]
    fn known_totals() {
        for (r, c, n) in [(2, 2, 2), (2, 3, 3), (3, 3, 0), (4, 4, 36), (6, 6, 6728)] {
            let d = Dominoes::new(r, c, None, None).unwrap();
            assert!(d.problem().has_multiplicities());
            assert_eq!(solve_count(d.problem(), &Budget::unlimited()), n, "{r}x{c}");
        }
    }

    #[test]
    fn bounds_agree_with_a_brute_force() {
        for (rows, cols) in [(2, 4), (3, 4), (4, 4), (4, 5)] {
            let counts = by_horizontal(rows, cols);
            let m = (rows * cols / 2) as u32;
            for u in 0..=m {
                for v in u.max(1)..=m {
                    let expected: u64 = counts[u as usize..=v as usize].iter().sum();
                    let d = Dominoes::new(rows, cols, Some((u, v)), None).unwrap();
                    assert_eq!(
                        solve_count(d.problem(), &Budget::unlimited()),
                        expected,
                        "{rows}x{cols} h {u}:{v}"
                    );
                }
                // Exactly u horizontal, given as the vertical count instead.
                if m - u >= 1 {
                    let d = Dominoes::new(rows, cols, None, Some((m - u, m - u))).unwrap();
                    let mut n = 0;
                    for_each_solution(d.problem(), &Budget::unlimited(), |s| {
                        assert_eq!(d.horizontal_count(s), u as usize);
                        n += 1;
                        ControlFlow::Continue(())
                    });
                    assert_eq!(n, counts[u as usize]);
                }
            }
        }
    }

    #[test]
    fn a_picture_and_bad_bounds() {
        let d = Dominoes::new(2, 2, Some((2, 2)), None).unwrap();
        let mut pictures = Vec::new();
        for_each_solution(d.problem(), &Budget::unlimited(), |s| {
            pictures.push(d.decode(s));
            ControlFlow::Continue(())
        });
        assert_eq!(pictures, ["<>\n<>\n"]);
        assert!(Dominoes::new(2, 2, Some((3, 2)), None).is_err());
        assert!(Dominoes::new(0, 2, None, None).is_err());
    }
}
