//! Big boards under a time limit: from n =
//! [`LNS_MIN_N`](super::LNS_MIN_N), a search with a deadline first improves the heuristic's
//! layout by the large-neighbourhood search ([`super::lns`]) for [`LNS_SHARE`](super::LNS_SHARE)
//! of the time, then spends the rest proving the bound down from the root's: searches for a
//! layout scoring at least the bound proven so far minus a step (sized as the aims' steps,
//! [`optimize::AimSteps`], and kept small enough for the next search to end in time), each
//! pruning everything below that floor ([`Tactics::floor`](crate::engine::run::Tactics::floor), on every
//! thread). One that finds none proves the floor minus one; one that finds a layout ends the
//! descent (its layout is then optimal: nothing scores more than the bound proven before it).
//! The floor searches share one [`lagrange::Memo`]: each starts the last one's nodes from
//! the states they ended with.
//! The ordinary branch and bound from the layout, which on these boards finds nothing better
//! in the time, is not run.

use std::time::Instant;

use super::hungarian::HungarianInt;
use super::lagrange::{self, LagrangeBound};
use super::{Layout, WeightedQueens, layout_of};
use crate::engine::optimize::{self, Config, Keep, Sense, Status};
use crate::engine::run::{self, Dance, Tactics};
use crate::engine::{Budget, OptionId, Stop};

/// What [`WeightedQueens::descend`] proved and found.
pub(super) struct Descent {
    /// The best bound proven (`None`: not even the root's was computed).
    pub upper: Option<i128>,
    /// A layout a floor search found (above the start's score).
    pub found: Option<Layout>,
    /// Nodes over all searches.
    pub nodes: u64,
}

impl WeightedQueens {
    /// The descent of the bound (see the module) from the root's until `deadline`, with the
    /// Lagrangian bound (`steps` per node, `root_steps` at the root) on `threads` threads;
    /// `seed` is the best layout known (square options) and `score` its score.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn descend<'p>(
        &'p self,
        solver: &mut Dance<'p>,
        board: &[i64],
        gains: &[i128],
        order: &[OptionId],
        seed: &[OptionId],
        score: i128,
        (deadline, stop): (Instant, &Stop),
        threads: usize,
        steps: u32,
        root_steps: u32,
    ) -> Descent {
        // i64 (or i128) only: the i32 computation may have to be run again (see
        // `WeightedQueens::lagrange`), which a descent cut by a deadline cannot afford.
        let args = (
            solver,
            board,
            gains,
            order,
            seed,
            score,
            (deadline, stop),
            threads,
        );
        let width = lagrange::Width::of(self.n, board).at_least_i64();
        lagrange::with_width!(width, T => self.descend_in::<T>(args, steps, root_steps))
    }

    #[allow(clippy::type_complexity)]
    fn descend_in<'p, T: HungarianInt + Send + Sync>(
        &'p self,
        args: (
            &mut Dance<'p>,
            &[i64],
            &[i128],
            &[OptionId],
            &[OptionId],
            i128,
            (Instant, &Stop),
            usize,
        ),
        steps: u32,
        root_steps: u32,
    ) -> Descent {
        let (solver, board, gains, order, seed, score, (deadline, stop), threads) = args;
        let (n, lines) = (self.n, &self.line_of_item[..]);
        // Each floor searches the last one's nodes again: they start from where they ended.
        let memo = lagrange::Memo::<T>::new(n, lagrange::MEMO_BYTES);
        let bound = || LagrangeBound::<T>::new(n, lines, board, steps, root_steps).with_memo(&memo);
        // More threads only when their solvers take at most half the time left.
        let left = deadline.saturating_duration_since(Instant::now());
        let extra = u32::try_from(threads).unwrap_or(u32::MAX);
        let threads = if left >= 2 * extra * self.solver_cost() {
            threads
        } else {
            1
        };
        let mut workers = self.workers(order, threads, bound);
        let mut b = bound();
        let seeds = [seed.to_vec()];
        let config = |nodes| Config {
            sense: Sense::Maximize,
            keep: Keep::Best,
            budget: Budget {
                nodes,
                deadline: Some(deadline),
                ..Budget::unlimited()
            }
            .with_stop(stop),
        };
        // The root's bound.
        let plan = Tactics::new().seeds(&seeds);
        let probe = run::optimize_by_hand(solver, gains, &mut b, &config(Some(1)), plan);
        let mut out = Descent {
            upper: probe.bound,
            found: None,
            nodes: probe.stats.nodes(),
        };
        let Some(mut upper) = probe.bound else {
            return out;
        };
        stop.progress().offer_bound(upper);
        let config = config(None);
        let mut steps = optimize::AimSteps::new(upper, 1);
        while upper > score {
            let floor = (upper + 1 - steps.step()).max(score + 1);
            let began = Instant::now();
            let plan = Tactics::new()
                .seeds(&seeds)
                .floor(floor)
                .workers(&mut workers);
            let r = run::optimize_by_hand(solver, gains, &mut b, &config, plan);
            out.nodes += r.stats.nodes();
            if let Some(s) = r.solutions.first() {
                out.found = Some(Layout {
                    score: s.value,
                    queens: layout_of(n, &s.options),
                });
            }
            match r.status {
                Status::Infeasible => {
                    // Nothing reaches the floor. The next search about `AIM_GROWTH` times larger,
                    // but small enough to end before the deadline (one that cannot end
                    // proves nothing): at most half the time left.
                    upper = floor - 1;
                    stop.progress().offer_bound(upper);
                    steps.failed(floor, r.stats.nodes());
                    let left = deadline.saturating_duration_since(Instant::now());
                    let took = began.elapsed().as_secs_f64().max(1e-3);
                    steps.fit(left.as_secs_f64() / 2.0 / took);
                }
                Status::Optimal => {
                    // The best layout reaching the floor, and nothing is above `upper`.
                    upper = r.value().unwrap_or(upper);
                    break;
                }
                Status::Feasible | Status::Unknown => break,
            }
        }
        out.upper = Some(upper);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::weighted::lns::tests::is_placement;
    use crate::queens::weighted::{
        Method, Request, WeightedQueens, explicit_layout, options_of, random_boards, score_of,
    };
    use std::time::Duration;

    /// Run to the end, the descent proves the optimum (enumeration or a full branch and
    /// bound): its bound never passes below it, and the layout it finds is an optimal one
    /// with its real score; on one and two threads, from the explicit layout.
    #[test]
    fn the_descent_ends_at_the_optimum() {
        for n in [8usize, 11, 12, 14] {
            let mut model = WeightedQueens::new(n);
            let (lo, hi) = if n % 2 == 0 { (1, 99) } else { (-40, 60) };
            for board in random_boards(n, 3, 900 + n as u64, lo, hi) {
                let req = Request {
                    method: Method::Auto,
                    ..Request::default()
                };
                let opt = model.solve(&board, &req).maximum().expect("a placement");
                let start = explicit_layout(n).expect("n >= 4");
                let score = score_of(n, &board, &start);
                let gains = Sense::Maximize.gains(&board);
                let order = optimize::best_first(&model.problem, &gains);
                for threads in [1, 2] {
                    let mut solver = Dance::in_order(&model.problem, order.iter().copied());
                    let deadline = Instant::now() + Duration::from_secs(60);
                    let d = model.descend(
                        &mut solver,
                        &board,
                        &gains,
                        &order,
                        &options_of(n, &start),
                        score,
                        (deadline, &Stop::new()),
                        threads,
                        15,
                        300,
                    );
                    assert_eq!(d.upper, Some(opt), "n = {n}, {threads} threads");
                    match d.found {
                        Some(f) => {
                            assert!(is_placement(n, &f.queens));
                            assert_eq!(f.score, score_of(n, &board, &f.queens));
                            assert_eq!(f.score, opt);
                        }
                        None => assert_eq!(score, opt),
                    }
                }
            }
        }
    }

    /// A big board under a time limit reports a real placement with its score, and a bound
    /// at least that score (and at least the optimum, by the descent's proof).
    #[test]
    fn a_time_limited_big_board_reports_a_real_layout() {
        let n = super::super::LNS_MIN_N;
        let mut model = WeightedQueens::new(n);
        let board = &random_boards(n, 1, 5, 1, 99)[0];
        for threads in [1, 2] {
            let req = Request {
                budget: Budget {
                    deadline: Some(Instant::now() + Duration::from_millis(1500)),
                    ..Budget::unlimited()
                },
                threads,
                ..Request::default()
            };
            let r = model.solve(board, &req);
            let best = &r.layouts[0];
            assert!(is_placement(n, &best.queens));
            assert_eq!(best.score, score_of(n, board, &best.queens));
            let bound = r.bound.expect("a bound");
            assert!(bound >= best.score);
            assert_eq!(r.status == Status::Optimal, bound == best.score);
        }
    }
}
