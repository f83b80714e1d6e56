//! The number of optimal layouts of a board, counted apart from the search that proved its
//! maximum ([`WeightedQueens::count_optimal`]), and the one entry point that reports a board
//! with its count ([`WeightedQueens::solve_counted`]).
//!
//! The search reports its best layout, its bound and its status the same way whatever is
//! written: text, CSV, JSON and the Python `maximise` take them from one
//! [`WeightedQueens::solve_from`]. The count of the optimal layouts (`optimal_count`) comes
//! after, only once the maximum is proven, and never changes the layout, the bound or the
//! status:
//!
//! - n <= [`ENUMERATE_MAX_N`] (or `--method enumerate`): the solutions listed once per model,
//!   scored against the board.
//! - A board on which every layout scores the same (w(r, c) = a(r) + b(c): all zeros, a
//!   constant, `r·n + c + 1`): every n-queens solution is optimal, and the count is the
//!   number of n-queens solutions, known for n <= 27 (A000170, [`listing::solutions_known`]);
//!   above, it is not counted.
//! - Otherwise a count-only branch and bound: the layouts scoring at least the maximum, every
//!   node whose Lagrangian bound falls below it pruned, none stored.
//!
//! A count cut short (its time, the board's time limit, an interrupt) is no count: `None`.

use std::time::{Duration, Instant};

use super::hungarian::HungarianInt;
use super::lagrange::{self, LagrangeBound};
use super::{
    BoardResult, BoundKind, DEFAULT_LAGRANGE_STEPS, ENUMERATE_MAX_N, Layout, Method,
    ROOT_STEP_FACTOR, ROOT_STEPS_PER_RANK, Request, WeightedQueens, options_of, score_of,
};
use crate::engine::optimize::{self, Config, Keep, Sense, Status};
use crate::engine::run::{self, Dance, Tactics};
use crate::engine::{Budget, Stop};
use crate::queens::listing;

/// The least time the count of the optimal layouts gets ([`WeightedQueens::solve_counted`]):
/// it may take as long as the search that proved the maximum, and at least this, never past
/// the board's deadline.
pub const COUNT_MIN_TIME: Duration = Duration::from_secs(1);

impl WeightedQueens {
    /// [`WeightedQueens::solve_from`], and then, when the result is a proven maximum of a
    /// `Keep::Best` search without a floor, the number of optimal layouts (0 for a board
    /// proven to have none)
    /// ([`BoardResult::optimal_count`], by [`WeightedQueens::count_optimal`]) in at most
    /// max([`COUNT_MIN_TIME`], the time the search took), never past `req.budget`'s
    /// deadline; `None` when the count did not end in that time. The layout, the bound and the
    /// status are those of `solve_from`: what `queens max` writes in every format, and the
    /// Python `maximise`.
    pub fn solve_counted(
        &mut self,
        board: &[i64],
        req: &Request,
        floor: Option<i128>,
    ) -> (BoardResult, bool) {
        let started = Instant::now();
        let (mut res, below_floor) = self.solve_from(board, req, floor);
        if req.keep != Keep::Best || floor.is_some() || below_floor {
            return (res, below_floor);
        }
        if res.status == Status::Infeasible {
            // Proven: no layout at all (n = 2, 3).
            res.optimal_count = Some(0);
        }
        if res.status == Status::Optimal
            && let Some(best) = res.layouts.first().cloned()
        {
            let own = started.elapsed().max(COUNT_MIN_TIME);
            let now = Instant::now();
            let mut deadline = now.checked_add(own);
            if let Some(d) = req.budget.deadline {
                deadline = Some(deadline.map_or(d, |o| o.min(d)));
            }
            res.optimal_count =
                self.count_optimal(board, &best, (deadline, &req.budget.stop), req.method);
        }
        (res, below_floor)
    }

    /// The number of layouts of `board` scoring `best.score`, where `best` is an optimal
    /// layout (its score the proven maximum), counted before `deadline` unless `stop` is
    /// requested (see the module);
    /// `None` when the count did not end in time, was interrupted, or is not known (a board
    /// on which every layout ties, n > 27). `method` picks the bound of the count-only
    /// search (the Lagrangian steps of `--method lagrangian`, none for `assignment`).
    pub fn count_optimal(
        &mut self,
        board: &[i64],
        best: &Layout,
        (deadline, stop): (Option<Instant>, &Stop),
        method: Method,
    ) -> Option<u64> {
        let n = self.n;
        assert_eq!(board.len(), n * n, "board of n² numbers");
        if n <= ENUMERATE_MAX_N || method == Method::Enumerate {
            let all = self.all_solutions();
            let ties = all
                .chunks_exact(n)
                .filter(|q| score_of(n, board, q) == best.score)
                .count();
            return Some(ties as u64);
        }
        if every_layout_ties(n, board) {
            return listing::solutions_known(n).and_then(|c| u64::try_from(c).ok());
        }
        let steps = match method {
            Method::BranchBound(BoundKind::Lagrangian(s)) => s,
            Method::BranchBound(BoundKind::Assignment) => 0,
            _ => DEFAULT_LAGRANGE_STEPS,
        };
        let width = lagrange::Width::of(n, board);
        let (count, void) = lagrange::with_width!(width, T => self.count_in::<T>(board, best, (deadline, stop), steps));
        if void {
            // Out of the range of i32: count again in i64, which every board fits.
            return self.count_in::<i64>(board, best, (deadline, stop), steps).0;
        }
        count
    }

    /// The count-only search of [`WeightedQueens::count_optimal`] in the integer type `T`;
    /// true if it is void because the bound went out of the range of `T`.
    fn count_in<T: HungarianInt + Send + Sync>(
        &self,
        board: &[i64],
        best: &Layout,
        (deadline, stop): (Option<Instant>, &Stop),
        steps: u32,
    ) -> (Option<u64>, bool) {
        let n = self.n;
        let gains = Sense::Maximize.gains(board);
        let order = optimize::best_first(&self.problem, &gains);
        let mut solver = Dance::in_order(&self.problem, order.iter().copied());
        let root = steps
            .saturating_mul(ROOT_STEP_FACTOR)
            .max(ROOT_STEPS_PER_RANK * n as u32);
        let mut bound = LagrangeBound::<T>::new(n, &self.line_of_item, board, steps, root);
        // Every optimal layout is counted, one stored; the optimal layout as the seed prunes
        // from the root every node that cannot reach the maximum.
        let config = Config {
            sense: Sense::Maximize,
            keep: Keep::AllOptimal { limit: 1 },
            budget: Budget {
                deadline,
                ..Budget::unlimited()
            }
            .with_stop(stop),
        };
        let seeds = [options_of(n, &best.queens)];
        let plan = Tactics::new().seeds(&seeds);
        let opt = run::optimize_by_hand(&mut solver, &gains, &mut bound, &config, plan);
        let count = match opt.status {
            Status::Optimal if opt.value() == Some(best.score) => opt.optimal_count,
            _ => None,
        };
        (count, bound.out_of_range())
    }
}

/// Whether every layout of the board scores the same: w(r, c) = a(r) + b(c), i.e.
/// w(r, c) − w(r, 0) − w(0, c) + w(0, 0) = 0 on every square (then a layout, one square per
/// rank and per file, scores Σ a + Σ b).
pub fn every_layout_ties(n: usize, board: &[i64]) -> bool {
    let w = |r: usize, c: usize| i128::from(board[r * n + c]);
    (0..n).all(|r| (0..n).all(|c| w(r, c) - w(r, 0) - w(0, c) + w(0, 0) == 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::weighted::random_boards;

    /// The count of every path is the brute-force one: the enumeration's, the tied boards'
    /// (A000170), and the count-only search's on boards with several optimal layouts.
    #[test]
    fn counts_are_the_brute_force_ones() {
        for n in [6usize, 8, 11, 12] {
            let mut model = WeightedQueens::new(n);
            let all: Vec<u32> = model.all_solutions().to_vec();
            // Few distinct numbers: many ties. And boards where every layout ties.
            let mut boards = random_boards(n, 3, 70 + n as u64, 0, 2);
            boards.push(vec![0; n * n]);
            boards.push((0..n * n).map(|i| i as i64 + 1).collect());
            boards.push(
                (0..n * n)
                    .map(|i| 3 * (i / n) as i64 - 2 * (i % n) as i64)
                    .collect(),
            );
            for board in boards {
                let scores: Vec<i128> = all
                    .chunks_exact(n)
                    .map(|q| score_of(n, &board, q))
                    .collect();
                let max = *scores.iter().max().unwrap();
                let expected = scores.iter().filter(|&&s| s == max).count() as u64;
                let req = Request::default();
                let (res, _) = model.solve_counted(&board, &req, None);
                assert_eq!(res.maximum(), Some(max), "n = {n}");
                assert_eq!(res.optimal_count, Some(expected), "n = {n}");
                // The count-only search itself, below the enumeration's sizes too.
                let best = res.layouts[0].clone();
                for method in [
                    Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
                    Method::BranchBound(BoundKind::Assignment),
                ] {
                    let steps = match method {
                        Method::BranchBound(BoundKind::Lagrangian(s)) => s,
                        _ => 0,
                    };
                    let width = lagrange::Width::of(n, &board);
                    let counted = lagrange::with_width!(width, T => {
                        model.count_in::<T>(&board, &best, (None, &Stop::new()), steps).0
                    });
                    assert_eq!(counted, Some(expected), "n = {n}, {method:?}");
                }
            }
        }
    }

    /// A board on which every layout ties is counted from A000170, not searched: at n = 16
    /// its 14,772,512 optimal layouts come at once, and above n = 27 there is no count.
    #[test]
    fn tied_boards_take_the_known_count() {
        let n = 16;
        let mut model = WeightedQueens::new(n);
        let board = vec![7; n * n];
        let started = Instant::now();
        let (res, _) = model.solve_counted(&board, &Request::default(), None);
        assert_eq!(res.status, Status::Optimal);
        assert_eq!(res.optimal_count, Some(14_772_512));
        assert!(started.elapsed() < Duration::from_secs(5));
        let n = 28;
        let mut model = WeightedQueens::new(n);
        let (res, _) = model.solve_counted(&vec![0; n * n], &Request::default(), None);
        assert_eq!(res.status, Status::Optimal);
        assert_eq!(res.optimal_count, None);
        assert!(every_layout_ties(3, &[1, 2, 3, 4, 5, 6, 7, 8, 9]));
        assert!(!every_layout_ties(3, &[1, 2, 3, 4, 5, 6, 7, 8, 10]));
    }

    /// A count that cannot end before its deadline is no count.
    #[test]
    fn a_count_cut_short_is_none() {
        let n = 14;
        let mut model = WeightedQueens::new(n);
        // Two numbers: a great many optimal layouts, and no tie of every layout.
        let board = &random_boards(n, 1, 3, 0, 1)[0];
        let (res, _) = model.solve_from(board, &Request::default(), None);
        let best = res.layouts[0].clone();
        let past = Some(Instant::now());
        let method = Method::Auto;
        assert_eq!(
            model.count_optimal(board, &best, (past, &Stop::new()), method),
            None
        );
    }
}
