//! Tests: weighted n-queens (`queens max`, `queens random`) and the engine's optimiser.

use std::collections::BTreeSet;

use dancelinks::engine::optimize::{self, Config, Keep, NoBound, Sense, ShareBound, Status};
use dancelinks::engine::{Budget, Entry, ItemId, OptionId, ProblemBuilder, Solver};
use dancelinks::queens::weighted::{
    BoundKind, Method, Request, SplitMix64, WeightedQueens, random_boards,
};
use proptest::prelude::*;

use crate::common::{all_optimal, brute_best, placements, score};

const METHODS: [Method; 5] = [
    Method::Enumerate,
    Method::BranchBound(BoundKind::Assignment),
    Method::BranchBound(BoundKind::Lagrangian(4)),
    Method::BranchBound(BoundKind::RankFileMax),
    Method::BranchBound(BoundKind::Generic),
];

#[test]
fn random_boards_against_brute_force() {
    let mut g = SplitMix64::new(2024);
    for n in 4..=9 {
        let all = placements(n);
        let mut model = WeightedQueens::new(n);
        let trials = if n <= 7 { 6 } else { 3 };
        for t in 0..trials {
            // Narrow ranges make ties (several optimal layouts); wide ones make them rare.
            let (lo, hi) = if t % 2 == 0 { (1, 3) } else { (-1000, 1000) };
            let board: Vec<i64> = (0..n * n).map(|_| g.range(lo, hi)).collect();
            let (best, set) = brute_best(n, &board, &all);
            for m in METHODS {
                let r = model.solve(&board, &all_optimal(m));
                assert_eq!(r.maximum(), best, "n={n} {m:?} {board:?}");
                assert_eq!(r.optimal_count, Some(set.len() as u64), "n={n} {m:?}");
                let got: BTreeSet<Vec<u32>> = r.layouts.iter().map(|l| l.queens.clone()).collect();
                assert_eq!(got, set, "n={n} {m:?}");
                for l in &r.layouts {
                    assert_eq!(l.score, score(n, &board, &l.queens));
                }
                // Best only: one optimal layout.
                let r = model.solve(
                    &board,
                    &Request {
                        method: m,
                        ..Request::default()
                    },
                );
                assert_eq!(r.maximum(), best);
                // The tie rule, for every method: the smallest optimal layout.
                assert_eq!(set.first(), Some(&r.layouts[0].queens), "n={n} {m:?}");
            }
        }
    }
}

/// Boards where every layout ties (all zeros, all sevens, `r·n + c + 1`) or most do (0/1):
/// every method and thread count reports the lexicographically smallest optimal layout, and
/// where the bound is exact at the root the search ends after a walk, not a proof among ties.
#[test]
fn tie_heavy_boards_report_the_smallest_optimal_layout() {
    let mut g = SplitMix64::new(77);
    for n in 4..=9 {
        let all = placements(n);
        let mut model = WeightedQueens::new(n);
        let boards: [Vec<i64>; 4] = [
            vec![0; n * n],
            vec![7; n * n],
            (0..n * n).map(|k| k as i64 + 1).collect(),
            (0..n * n).map(|_| g.range(0, 1)).collect(),
        ];
        for board in &boards {
            let (best, set) = brute_best(n, board, &all);
            for m in METHODS {
                for threads in [1, 2] {
                    let r = model.solve(
                        board,
                        &Request {
                            method: m,
                            threads,
                            ..Request::default()
                        },
                    );
                    assert_eq!(r.status, Status::Optimal, "n={n} {m:?}");
                    assert_eq!(r.maximum(), best, "n={n} {m:?} {board:?}");
                    assert_eq!(
                        set.first(),
                        Some(&r.layouts[0].queens),
                        "n={n} {m:?} {board:?}"
                    );
                }
            }
        }
    }
    // n = 16, where the search among ties took minutes: the walk's nodes, not a proof's.
    for board in [vec![0; 256], (1..=256).collect::<Vec<i64>>()] {
        let r = WeightedQueens::new(16).solve(&board, &Request::default());
        assert_eq!(r.status, Status::Optimal);
        assert!(r.nodes < 100_000, "{} nodes", r.nodes);
        let first = [0, 2, 4, 1, 12, 8, 13, 11, 14, 5, 15, 6, 3, 10, 7, 9];
        assert_eq!(r.layouts[0].queens, first, "the first 16-queens solution");
    }
}

#[test]
fn equal_weights_make_every_solution_optimal() {
    for (n, count) in [(1, 1u64), (4, 2), (6, 4), (8, 92)] {
        let mut model = WeightedQueens::new(n);
        let board = vec![7i64; n * n];
        for m in METHODS {
            let r = model.solve(&board, &all_optimal(m));
            assert_eq!(r.optimal_count, Some(count), "n={n} {m:?}");
            assert_eq!(r.maximum(), Some(7 * n as i128));
        }
    }
}

/// A small random exact-cover problem with costs: (primary, secondary, options as item lists,
/// costs).
fn small_problem() -> impl Strategy<Value = (usize, usize, Vec<Vec<usize>>, Vec<i64>)> {
    (1usize..5, 0usize..3).prop_flat_map(|(p, s)| {
        let option =
            proptest::sample::subsequence((0..p + s).collect::<Vec<_>>(), 1..=(p + s).min(3));
        (
            Just(p),
            Just(s),
            proptest::collection::vec(option, 1..10),
            proptest::collection::vec(-20i64..20, 10),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn optimiser_matches_brute_force((p, s, opts, costs) in small_problem()) {
        let mut b = ProblemBuilder::new();
        let mut items: Vec<ItemId> = (0..p).map(|i| b.primary(&format!("p{i}")).unwrap()).collect();
        items.extend((0..s).map(|i| b.secondary(&format!("s{i}")).unwrap()));
        let mut kept = Vec::new();
        for (k, o) in opts.iter().enumerate() {
            if b.add_option(o.iter().map(|&i| Entry::plain(items[i])), costs[k]).is_ok() {
                kept.push((o.clone(), costs[k]));
            }
        }
        let problem = b.build().unwrap();
        let weights: Vec<i64> = problem.options().map(|o| problem.cost(o)).collect();
        // Brute force over all subsets of options.
        let m = kept.len();
        let mut values: Vec<i128> = Vec::new();
        for mask in 0u32..(1 << m) {
            let mut used = vec![0; p + s];
            let mut total = 0i128;
            for (k, (o, c)) in kept.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    for &i in o { used[i] += 1; }
                    total += *c as i128;
                }
            }
            if used[..p].iter().all(|&u| u == 1) && used[p..].iter().all(|&u| u <= 1) {
                values.push(total);
            }
        }
        for sense in [Sense::Maximize, Sense::Minimize] {
            let gains = sense.gains(&weights);
            // Best first in the sense's order.
            let mut sorted: Vec<i128> = values.iter().map(|&v| match sense { Sense::Maximize => v, Sense::Minimize => -v }).collect();
            sorted.sort_by(|a, b| b.cmp(a));
            let sorted: Vec<i128> = sorted.into_iter().map(|g| sense.value(g)).collect();
            // A search cut short: whatever it reports is consistent with the true optimum.
            {
                let budget = Budget { nodes: Some(2), ..Budget::unlimited() };
                let config = Config { sense, keep: Keep::Best, budget };
                let mut solver = Solver::with_options(&problem, optimize::best_first(&problem, &gains));
                let r = optimize::optimize(&mut solver, &gains, &mut ShareBound::new(&problem, &gains), &config, optimize::Strategy::new());
                if let Some(&best) = sorted.first() {
                    // In gain terms: found <= best <= bound.
                    let g = |v: i128| match sense { Sense::Maximize => v, Sense::Minimize => -v };
                    if let Some(v) = r.value() { prop_assert!(g(v) <= g(best)); }
                    if let Some(b) = r.bound { prop_assert!(g(b) >= g(best)); }
                    prop_assert!(r.status != Status::Infeasible);
                }
            }
            for keep in [Keep::Best, Keep::AllOptimal { limit: usize::MAX }, Keep::Top(3)] {
                let config = Config { sense, keep, budget: Budget::unlimited() };
                let mut solver = Solver::with_options(&problem, optimize::best_first(&problem, &gains));
                let r1 = optimize::optimize(&mut solver, &gains, &mut ShareBound::new(&problem, &gains), &config, optimize::Strategy::new());
                let r2 = optimize::optimize(&mut solver, &gains, &mut NoBound, &config, optimize::Strategy::new());
                for r in [&r1, &r2] {
                    if values.is_empty() {
                        prop_assert_eq!(r.status, Status::Infeasible);
                        prop_assert!(r.solutions.is_empty());
                        prop_assert_eq!(r.bound, None);
                        continue;
                    }
                    prop_assert_eq!(r.status, Status::Optimal);
                    prop_assert_eq!(r.value(), Some(sorted[0]));
                    prop_assert_eq!(r.bound, Some(sorted[0]));
                    let got: Vec<i128> = r.solutions.iter().map(|s| s.value).collect();
                    match keep {
                        Keep::Best => prop_assert_eq!(got.len(), 1),
                        Keep::AllOptimal { .. } => {
                            let ties = sorted.iter().filter(|&&v| v == sorted[0]).count();
                            prop_assert_eq!(r.optimal_count, Some(ties as u64));
                            prop_assert_eq!(got.len(), ties);
                        }
                        Keep::Top(k) => prop_assert_eq!(&got[..], &sorted[..k.min(sorted.len())]),
                    }
                    for sol in &r.solutions {
                        let v: i128 = sol.options.iter().map(|o: &OptionId| problem.cost(*o) as i128).sum();
                        prop_assert_eq!(v, sol.value);
                    }
                }
            }
        }
    }
}

/// Deeper trees (n = 11..13), where the aims, the reduced-cost fixing and the inherited duals
/// of the default bound all come into play: the default method and the plain assignment bound,
/// on one thread and in parallel, agree with scoring every solution (enumeration), for the
/// best value and for the number of optimal layouts.
#[test]
fn larger_boards_agree_with_enumeration() {
    let mut g = SplitMix64::new(4711);
    for n in 11..=13 {
        let mut model = WeightedQueens::new(n);
        for t in 0..2 {
            let (lo, hi) = if t == 0 { (1, 99) } else { (-5, 5) };
            let board: Vec<i64> = (0..n * n).map(|_| g.range(lo, hi)).collect();
            let listed = model.solve(&board, &all_optimal(Method::Enumerate));
            for m in [Method::Auto, Method::BranchBound(BoundKind::Assignment)] {
                // One thread, and the parallel search with two and three workers.
                for threads in [1, 2, 3] {
                    let best = model.solve(
                        &board,
                        &Request {
                            method: m,
                            threads,
                            ..Request::default()
                        },
                    );
                    assert_eq!(best.status, Status::Optimal);
                    assert_eq!(best.maximum(), listed.maximum(), "n={n} {m:?} {threads}");
                    let q = &best.layouts[0].queens;
                    assert_eq!(best.layouts[0].score, score(n, &board, q));
                    let mut files = q.clone();
                    files.sort();
                    assert_eq!(files, (0..n as u32).collect::<Vec<_>>());
                }
                let all = model.solve(&board, &all_optimal(m));
                assert_eq!(all.optimal_count, listed.optimal_count, "n={n} {m:?}");
            }
        }
    }
}

/// Ties between optimal layouts are broken by the lexicographically smallest layout (files
/// rank by rank), whatever the method, the bound and the threads: every branch and bound
/// agrees with enumeration (which sorts the layouts) on boards with many optimal layouts.
#[test]
fn ties_go_to_the_smallest_layout_on_any_threads() {
    let methods = [
        Method::Enumerate,
        Method::BranchBound(BoundKind::Lagrangian(15)),
        Method::BranchBound(BoundKind::Assignment),
        Method::BranchBound(BoundKind::RankFileMax),
    ];
    for n in 6..=10 {
        let mut model = WeightedQueens::new(n);
        let mut boards = random_boards(n, 3, n as u64, 1, 3);
        boards.push(vec![5; n * n]);
        // A symmetric pattern: the weight of a square is its distance from the nearest edge.
        boards.push(
            (0..n * n)
                .map(|s| {
                    let (r, c) = (s / n, s % n);
                    r.min(c).min(n - 1 - r).min(n - 1 - c) as i64
                })
                .collect(),
        );
        for board in &boards {
            let mut seen = BTreeSet::new();
            for method in methods {
                for threads in [1, 2, 3] {
                    for keep in [Keep::Best, Keep::AllOptimal { limit: 2 }] {
                        let req = Request {
                            method,
                            threads,
                            keep,
                            ..Request::default()
                        };
                        let r = model.solve(board, &req);
                        assert_eq!(r.status, Status::Optimal);
                        seen.insert((keep == Keep::Best, r.layouts.clone()));
                    }
                }
            }
            assert_eq!(seen.len(), 2, "n = {n}: {seen:?}");
        }
    }
}
