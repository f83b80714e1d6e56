//! The n-queens problem as a model: the exact-cover problem of [`crate::queens::model`]
//! (ranks and files primary in organ-pipe order, diagonals secondary, option `r·n + c` for the
//! queen on square (r, c)), decoded into a board.

use crate::engine::{OptionId, Problem};
use crate::queens::model::Queens as QueensModel;

use super::{Model, ModelError};

/// The n-queens problem, 1 ≤ n ≤ [`crate::queens::model::MAX_N`].
#[derive(Debug, Clone)]
pub struct Queens {
    model: QueensModel,
}

impl Queens {
    /// The problem for an n×n board.
    pub fn new(n: usize) -> Result<Queens, ModelError> {
        let model = QueensModel::new(n).map_err(|e| ModelError::Invalid(e.to_string()))?;
        Ok(Queens { model })
    }
}

impl Model for Queens {
    fn problem(&self) -> &Problem {
        self.model.problem()
    }
    fn title(&self) -> String {
        format!("{n} queens on an {n}x{n} board", n = self.model.n())
    }
    /// The board, rank 0 first: `Q` for a queen, `.` for an empty square.
    fn decode(&self, solution: &[OptionId]) -> String {
        let n = self.model.n();
        let mut rows = vec![vec!['.'; n]; n];
        for &o in solution {
            let s = self.model.board().square(o);
            rows[s.rank][s.file] = 'Q';
        }
        rows.into_iter()
            .map(|r| r.into_iter().collect::<String>() + "\n")
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::models::solve_count;

    #[test]
    fn counts_and_a_board() {
        for (n, c) in [(1, 1), (4, 2), (6, 4), (8, 92)] {
            let q = Queens::new(n).unwrap();
            assert_eq!(solve_count(q.problem(), &Budget::unlimited()), c);
        }
        let q = Queens::new(4).unwrap();
        let s = crate::engine::run::Dance::new(q.problem()).first().unwrap();
        let board = q.decode(&s);
        assert_eq!(board.lines().count(), 4);
        assert!(board.lines().all(|l| l.matches('Q').count() == 1));
        assert!(Queens::new(0).is_err());
    }
}
