//! Perfect matchings of the complete graph K_n: sets of n/2 edges that meet every vertex once.
//!
//! - primary items: the vertices `1`..`n`;
//! - options: the edges `i j`, i < j, in lexicographic order.
//!
//! There are (n-1)!! = 1·3·5·…·(n-1) of them for even n (K8: 105, K10: 945), none for odd n.

use crate::engine::{OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// The largest n (about half a million edges).
pub const MAX_N: usize = 1000;

/// The perfect matchings of K_n.
#[derive(Debug, Clone)]
pub struct Matchings {
    n: usize,
    problem: Problem,
    edges: Vec<(usize, usize)>,
}

impl Matchings {
    /// The problem for K_n, 1 ≤ n ≤ [`MAX_N`].
    pub fn new(n: usize) -> Result<Matchings, ModelError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(ModelError::Invalid(format!(
                "n must be between 1 and {MAX_N}, not {n}"
            )));
        }
        let mut b = ProblemBuilder::new();
        let vertices: Vec<_> = (1..=n)
            .map(|v| b.primary(&v.to_string()))
            .collect::<Result<_, _>>()?;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                b.add_option(
                    [vertices[i], vertices[j]].map(crate::engine::Entry::plain),
                    0,
                )?;
                edges.push((i + 1, j + 1));
            }
        }
        Ok(Matchings {
            n,
            problem: b.build()?,
            edges,
        })
    }

    /// The edges of a solution, each `(i, j)` with i < j, sorted.
    pub fn edges(&self, solution: &[OptionId]) -> Vec<(usize, usize)> {
        let mut e: Vec<_> = solution.iter().map(|o| self.edges[o.0 as usize]).collect();
        e.sort_unstable();
        e
    }
}

impl Model for Matchings {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        format!("perfect matchings of K{}", self.n)
    }
    /// The edges, e.g. `1-4 2-3`.
    fn decode(&self, solution: &[OptionId]) -> String {
        let e: Vec<String> = self
            .edges(solution)
            .iter()
            .map(|(i, j)| format!("{i}-{j}"))
            .collect();
        format!("{}\n", e.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::models::solve_count;

    #[test]
    fn counts_are_double_factorials() {
        let mut double_factorial = 1u64;
        for n in 1..=10usize {
            if n % 2 == 0 {
                double_factorial *= n as u64 - 1;
            }
            let expected = if n % 2 == 0 { double_factorial } else { 0 };
            let m = Matchings::new(n).unwrap();
            assert_eq!(
                solve_count(m.problem(), &Budget::unlimited()),
                expected,
                "K{n}"
            );
        }
    }

    #[test]
    fn a_solution_decodes_to_a_perfect_matching() {
        let m = Matchings::new(6).unwrap();
        let s = crate::engine::run::Dance::new(m.problem()).first().unwrap();
        let edges = m.edges(&s);
        let mut seen: Vec<usize> = edges.iter().flat_map(|&(i, j)| [i, j]).collect();
        seen.sort_unstable();
        assert_eq!(seen, (1..=6).collect::<Vec<_>>());
        assert_eq!(m.decode(&s).split_whitespace().count(), 3);
    }
}
