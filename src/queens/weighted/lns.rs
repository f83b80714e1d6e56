//! Large-neighbourhood search on a layout: repeatedly free the queens of k ranks and place them
//! again as well as possible, keeping the other queens where they are.
//!
//! A neighbourhood is a set of k ranks (a window of consecutive ranks, the ranks whose queens
//! stand in a window of consecutive files, a window around the queen that loses most against
//! its rank's best square, or k ranks at random). Its sub-problem — the k freed ranks on the k
//! freed files, avoiding the fixed queens' diagonals and each other — is solved exactly by the
//! library's own branch and bound: the model's solver with the fixed queens forced
//! ([`Dance::force`]), the Lagrangian bound ([`LagrangeBound`]), and a floor one above the
//! layout's score ([`Tactics::floor`](crate::engine::run::Tactics::floor)), so that a sub-search proves in a few
//! nodes that nothing better exists, or finds the best better placement. A node budget keeps
//! each sub-search short; k grows while the sub-searches finish well inside it and shrinks when
//! they run out of it.
//!
//! Every layout it reports is a real placement (the solver's exact covers) with its real
//! score; it only ever replaces a layout by a better one.

use std::sync::Mutex;
use std::time::Instant;

use super::hungarian::HungarianInt;
use super::lagrange::{self, LagrangeBound};
use super::{DEFAULT_LAGRANGE_STEPS, SplitMix64, WeightedQueens, layout_of, score_of};
use crate::engine::optimize::{self, Config, Keep, Sense};
use crate::engine::run::{self, Dance, Tactics};
use crate::engine::{Budget, OptionId, Stop};

/// The fewest ranks a neighbourhood frees.
const K_MIN: usize = 4;

/// Nodes a sub-search may take (a safety net: the clock stops it first, see
/// [`SUB_TARGET_US`]).
const SUB_NODES: u64 = 1_000_000;

/// The time a sub-search should take, in microseconds: k grows while they take less than
/// half of it, shrinks when one takes more than twice (one is stopped at four times).
const SUB_TARGET_US: u64 = 10_000;

/// Steps at the root of a sub-search (its ranks are few: the root's bound converges fast).
const SUB_ROOT_STEPS: u32 = 60;

/// What the searches of one board share: the best layout any thread has.
struct Best {
    score: i128,
    queens: Vec<u32>,
    /// How many times it improved.
    improvements: u64,
}

/// Statistics of a run of [`improve`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LnsStats {
    /// Sub-searches run, and those that found a better layout.
    pub subproblems: u64,
    pub improvements: u64,
    /// The k of the last sub-search of the first thread.
    pub k: usize,
}

/// Improves `start` (files per rank, a placement) on `board` until `deadline`, on `threads`
/// threads (each its own neighbourhoods, all sharing the best layout). Returns the best layout
/// found (`start` if nothing beats it) with its score.
///
/// The first thread searches on `main` (the model's solver, left as it was found); each other
/// thread builds its own solver, unless that would take more than half the time left (the
/// model's [`WeightedQueens::solver_cost`]): on a big board with little time, one thread.
#[allow(clippy::too_many_arguments)]
pub(crate) fn improve<'p>(
    model: &'p WeightedQueens,
    main: &mut Dance<'p>,
    board: &[i64],
    gains: &[i128],
    order: &[OptionId],
    start: &[u32],
    deadline: Instant,
    stop: &Stop,
    threads: usize,
    seed: u64,
) -> (Vec<u32>, i128, LnsStats) {
    let n = model.n;
    let score = score_of(n, board, start);
    if n < 2 * K_MIN {
        return (start.to_vec(), score, LnsStats::default());
    }
    let best = Mutex::new(Best {
        score,
        queens: start.to_vec(),
        improvements: 0,
    });
    let threads = threads.max(1);
    let width = lagrange::Width::of(n, board);
    let mut main = Some(main);
    let stats: Vec<LnsStats> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let best = &best;
                let seed = seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let solver = main.take();
                scope.spawn(move || {
                    lagrange::with_width!(width, T => {
                        worker::<T>(model, solver, board, gains, order, best, (deadline, stop), seed)
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an LNS thread"))
            .collect()
    });
    let best = best.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut total = LnsStats {
        k: stats.first().map_or(0, |s| s.k),
        ..LnsStats::default()
    };
    for s in &stats {
        total.subproblems += s.subproblems;
    }
    total.improvements = best.improvements;
    (best.queens, best.score, total)
}

/// One thread of [`improve`], on `solver` or, without one, on a solver of its own.
#[allow(clippy::too_many_arguments)]
fn worker<'p, T: HungarianInt + Send + Sync>(
    model: &'p WeightedQueens,
    solver: Option<&mut Dance<'p>>,
    board: &[i64],
    gains: &[i128],
    order: &[OptionId],
    best: &Mutex<Best>,
    (deadline, stop): (Instant, &Stop),
    seed: u64,
) -> LnsStats {
    let n = model.n;
    let lines = &model.line_of_item[..];
    let mut own;
    let solver = match solver {
        Some(s) => s,
        None => {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < 2 * model.solver_cost() {
                return LnsStats::default();
            }
            own = Dance::in_order(&model.problem, order.iter().copied());
            &mut own
        }
    };
    let mut rng = SplitMix64::new(seed);
    let (mut q, mut score) = {
        let b = best.lock().unwrap_or_else(|e| e.into_inner());
        (b.queens.clone(), b.score)
    };
    let mut stats = LnsStats::default();
    let target = std::time::Duration::from_micros(SUB_TARGET_US);
    let mut k = (K_MIN * 2).min(n);
    let make = || LagrangeBound::<T>::new(n, lines, board, DEFAULT_LAGRANGE_STEPS, SUB_ROOT_STEPS);
    // A bound serves the sub-searches while they free no fewer ranks: their roots then never
    // lie below the last root (see `LagrangeBound::locate_root`).
    let mut bound = make();
    let mut bound_free = n;
    let mut free = vec![false; n];
    let mut ranks: Vec<usize> = Vec::with_capacity(n);
    let mut scratch: Vec<usize> = Vec::with_capacity(n);
    while Instant::now() < deadline && !stop.requested() {
        {
            let b = best.lock().unwrap_or_else(|e| e.into_inner());
            if b.score > score {
                q.clone_from(&b.queens);
                score = b.score;
            }
        }
        neighbourhood(n, board, &q, k, &mut rng, &mut ranks, &mut scratch);
        free.iter_mut().for_each(|f| *f = false);
        for &r in &ranks {
            free[r] = true;
        }
        for (r, &c) in q.iter().enumerate() {
            if !free[r] {
                solver
                    .force(OptionId((r * n) as u32 + c))
                    .expect("a layout's queens are consistent");
            }
        }
        if ranks.len() < bound_free {
            bound = make();
        }
        bound_free = ranks.len();
        let began = Instant::now();
        let config = Config {
            sense: Sense::Maximize,
            keep: Keep::Best,
            budget: Budget {
                nodes: Some(SUB_NODES),
                deadline: Some(deadline.min(began + 4 * target)),
                ..Budget::unlimited()
            }
            .with_stop(stop),
        };
        let plan = Tactics::new().floor(score + 1);
        let found = run::optimize_by_hand(solver, gains, &mut bound, &config, plan);
        solver.unforce_all();
        stats.subproblems += 1;
        if let Some(s) = found.solutions.first()
            && s.value > score
        {
            q = layout_of(n, &s.options);
            score = s.value;
            debug_assert_eq!(score, score_of(n, board, &q));
            let mut b = best.lock().unwrap_or_else(|e| e.into_inner());
            if score > b.score {
                b.score = score;
                b.queens.clone_from(&q);
                b.improvements += 1;
            }
        }
        let finished = matches!(
            found.status,
            optimize::Status::Optimal | optimize::Status::Infeasible
        );
        let took = began.elapsed();
        if !finished || took > 2 * target {
            k = (k - 1).max(K_MIN);
        } else if took < target / 2 {
            k = (k + 1).min(n);
        }
        stats.k = k;
    }
    stats
}

/// Picks the ranks to free into `ranks` (sorted), by one of five kinds of neighbourhood: k
/// of them, or between k/2 and k for a rectangle.
fn neighbourhood(
    n: usize,
    board: &[i64],
    q: &[u32],
    k: usize,
    rng: &mut SplitMix64,
    ranks: &mut Vec<usize>,
    scratch: &mut Vec<usize>,
) {
    ranks.clear();
    let k = k.min(n);
    match rng.below(5) {
        0 => {
            // Consecutive ranks.
            let r0 = rng.below((n - k + 1) as u64) as usize;
            ranks.extend(r0..r0 + k);
        }
        1 => {
            // The ranks whose queens stand in consecutive files.
            let c0 = rng.below((n - k + 1) as u64) as u32;
            ranks.extend((0..n).filter(|&r| (c0..c0 + k as u32).contains(&q[r])));
        }
        2 => {
            // Around one of the queens that lose most against their rank's best square.
            scratch.clear();
            scratch.extend(0..n);
            let loss = |r: usize| {
                let row = &board[r * n..(r + 1) * n];
                row.iter().copied().max().unwrap_or(0) - row[q[r] as usize]
            };
            scratch.sort_by_key(|&r| std::cmp::Reverse(loss(r)));
            let pick = scratch[rng.below(k.min(n) as u64) as usize];
            let r0 = pick.saturating_sub(k / 2).min(n - k);
            ranks.extend(r0..r0 + k);
        }
        4 => {
            // A rectangle: consecutive ranks, and the ranks whose queens stand in
            // consecutive files.
            let a = k / 2;
            let r0 = rng.below((n - a + 1) as u64) as usize;
            let c0 = rng.below((n - a + 1) as u64) as u32;
            ranks.extend(
                (0..n)
                    .filter(|&r| (r0..r0 + a).contains(&r) || (c0..c0 + a as u32).contains(&q[r])),
            );
        }
        _ => {
            // k ranks at random (a partial Fisher–Yates shuffle).
            scratch.clear();
            scratch.extend(0..n);
            for i in 0..k {
                let j = i + rng.below((n - i) as u64) as usize;
                scratch.swap(i, j);
            }
            ranks.extend_from_slice(&scratch[..k]);
        }
    }
    ranks.sort_unstable();
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::queens::weighted::{Method, Request, random_boards};

    /// Whether `q` (a file per rank) places n non-attacking queens.
    pub(in crate::queens::weighted) fn is_placement(n: usize, q: &[u32]) -> bool {
        let mut files = vec![false; n];
        let mut a = vec![false; 2 * n];
        let mut b = vec![false; 2 * n];
        for (r, &c) in q.iter().enumerate() {
            let c = c as usize;
            if c >= n || files[c] || a[r + c] || b[r + n - 1 - c] {
                return false;
            }
            files[c] = true;
            a[r + c] = true;
            b[r + n - 1 - c] = true;
        }
        q.len() == n
    }

    /// From the explicit layout, the search only reports placements with their real scores,
    /// never below the start, never above the optimum (a full branch and bound).
    #[test]
    fn improvements_are_real_placements_below_the_optimum() {
        for n in [12usize, 16, 20] {
            let mut model = WeightedQueens::new(n);
            for board in random_boards(n, 2, 70 + n as u64, 1, 99) {
                let start = super::super::explicit_layout(n).expect("n >= 4");
                let gains = Sense::Maximize.gains(&board);
                let order = optimize::best_first(&model.problem, &gains);
                let deadline = Instant::now() + std::time::Duration::from_millis(200);
                let mut solver = Dance::in_order(&model.problem, order.iter().copied());
                let (q, s, stats) = improve(
                    &model,
                    &mut solver,
                    &board,
                    &gains,
                    &order,
                    &start,
                    deadline,
                    &Stop::new(),
                    2,
                    7,
                );
                assert!(is_placement(n, &q), "n = {n}");
                assert_eq!(s, score_of(n, &board, &q));
                assert!(s >= score_of(n, &board, &start));
                assert!(stats.subproblems > 0);
                let req = Request {
                    method: Method::Auto,
                    ..Request::default()
                };
                let opt = model.solve(&board, &req).maximum().expect("a layout");
                assert!(s <= opt, "n = {n}: {s} > {opt}");
            }
        }
    }
}
