//! Langford pairs: place two copies of each number `1..=n` in a row of `2n` places so that the
//! two `k`s have exactly `k` places between them (Knuth, TAOCP 7.2.2.1).
//!
//! - primary items: the numbers `1`..`n`, then the places `s1`..`s{2n}`;
//! - options: `k s{i} s{i+k+1}` for each number `k` and first place `i` with `i + k + 1 <= 2n`,
//!   in the order of `k`, then `i`.
//!
//! Both members of a mirror pair are solutions: n = 3 has two (`3 1 2 1 3 2` and its mirror),
//! n = 7 has 52, n = 8 has 300; only n ≡ 0 or 3 (mod 4) have any.

use crate::engine::{OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// The largest n the model builds (the problem has about 2n² options).
pub const MAX_N: usize = 200;

/// The Langford pairs problem for one n.
#[derive(Debug, Clone)]
pub struct Langford {
    n: usize,
    problem: Problem,
    /// For each option: the number and its first place (1-based).
    placements: Vec<(usize, usize)>,
}

impl Langford {
    /// The problem for `n`, 1 ≤ n ≤ [`MAX_N`].
    pub fn new(n: usize) -> Result<Langford, ModelError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(ModelError::Invalid(format!(
                "n must be between 1 and {MAX_N}, not {n}"
            )));
        }
        let mut b = ProblemBuilder::new();
        for k in 1..=n {
            b.primary(&k.to_string())?;
        }
        for i in 1..=2 * n {
            b.primary(&format!("s{i}"))?;
        }
        let mut placements = Vec::new();
        for k in 1..=n {
            for i in 1..=2 * n {
                let j = i + k + 1;
                if j > 2 * n {
                    break;
                }
                b.add_option_named(&format!("{k} s{i} s{j}"), 0)?;
                placements.push((k, i));
            }
        }
        Ok(Langford {
            n,
            problem: b.build()?,
            placements,
        })
    }

    /// The row of `2n` numbers a solution gives (0 where no option placed one).
    pub fn row(&self, solution: &[OptionId]) -> Vec<usize> {
        let mut row = vec![0; 2 * self.n];
        for &o in solution {
            let (k, i) = self.placements[o.0 as usize];
            row[i - 1] = k;
            row[i + k] = k;
        }
        row
    }
}

impl Model for Langford {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        format!("Langford pairs, n = {}", self.n)
    }
    /// The row, e.g. `3 1 2 1 3 2`.
    fn decode(&self, solution: &[OptionId]) -> String {
        let row: Vec<String> = self.row(solution).iter().map(|k| k.to_string()).collect();
        format!("{}\n", row.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::models::{for_each_solution, solve_count};
    use std::ops::ControlFlow;

    #[test]
    fn known_counts_with_both_mirror_images() {
        for (n, count) in [(1, 0), (2, 0), (3, 2), (4, 2), (5, 0), (6, 0), (7, 52)] {
            let m = Langford::new(n).unwrap();
            assert_eq!(
                solve_count(m.problem(), &Budget::unlimited()),
                count,
                "n = {n}"
            );
        }
    }

    #[test]
    fn every_decoded_row_is_a_langford_sequence() {
        let m = Langford::new(7).unwrap();
        let mut rows = std::collections::BTreeSet::new();
        for_each_solution(m.problem(), &Budget::unlimited(), |s| {
            let row = m.row(s);
            for k in 1..=7 {
                let at: Vec<usize> = (0..14).filter(|&i| row[i] == k).collect();
                assert_eq!(at.len(), 2);
                assert_eq!(at[1] - at[0], k + 1);
            }
            rows.insert(row);
            ControlFlow::Continue(())
        });
        assert_eq!(rows.len(), 52);
        // Mirror images come in pairs.
        for r in &rows {
            let mut m = r.clone();
            m.reverse();
            assert!(rows.contains(&m));
        }
        let m3 = Langford::new(3).unwrap();
        let first = crate::engine::run::Dance::new(m3.problem())
            .first()
            .unwrap();
        let text = m3.decode(&first);
        assert!(text == "3 1 2 1 3 2\n" || text == "2 3 1 2 1 3\n", "{text}");
    }

    #[test]
    fn bad_n_is_refused() {
        assert!(Langford::new(0).is_err());
        assert!(Langford::new(MAX_N + 1).is_err());
    }
}
