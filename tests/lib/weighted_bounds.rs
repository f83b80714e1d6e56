//! Tests: what a time-limited weighted n-queens search reports (issue 11 §1, §2, §6): every
//! bound is proven, every value is a real layout's, `value == bound` only when optimal, and
//! the time limit covers the whole search.

use std::time::Duration;

use dancelinks::engine::Budget;
use dancelinks::engine::optimize::{Keep, Status};
use dancelinks::queens::weighted::{
    BoundKind, Method, Request, SplitMix64, WeightedQueens, explicit_layout,
};

use crate::common::check;

/// A board whose optimum is known: the squares of a placement carry 100, every other square
/// 1..=60, so that the placement (100·n) is the best and nothing else reaches it.
fn planted(n: usize, g: &mut SplitMix64) -> (Vec<i64>, i128) {
    let mut q = explicit_layout(n).expect("n >= 4");
    // Shuffle the ranks' files a little while they stay a placement (a few random swaps).
    for _ in 0..n {
        let (i, j) = (g.below(n as u64) as usize, g.below(n as u64) as usize);
        q.swap(i, j);
        let ok = {
            let mut sums: Vec<usize> = q.iter().enumerate().map(|(r, &c)| r + c as usize).collect();
            let mut diffs: Vec<usize> = q
                .iter()
                .enumerate()
                .map(|(r, &c)| r + n - c as usize)
                .collect();
            sums.sort();
            sums.dedup();
            diffs.sort();
            diffs.dedup();
            sums.len() == n && diffs.len() == n
        };
        if !ok {
            q.swap(i, j);
        }
    }
    let mut board: Vec<i64> = (0..n * n).map(|_| g.range(1, 60)).collect();
    for (r, &c) in q.iter().enumerate() {
        board[r * n + c as usize] = 100;
    }
    (board, 100 * n as i128)
}

/// Random boards n = 4..40, random time limits of 0 to 3 ms, every method, 1 and 2 threads,
/// three kinds of result: `value <= optimum <= bound`. The optimum comes from enumeration
/// (n <= 10), an unlimited run (n <= 20) or a planted placement (above).
#[test]
fn time_limited_results_bracket_the_optimum() {
    let mut g = SplitMix64::new(1111);
    let lagrangian = BoundKind::Lagrangian(dancelinks::queens::weighted::DEFAULT_LAGRANGE_STEPS);
    let kinds = [
        lagrangian,
        BoundKind::Assignment,
        BoundKind::RankFileMax,
        BoundKind::Generic,
    ];
    for case in 0..100 {
        let n = 4 + g.below(37) as usize;
        let mut model = WeightedQueens::new(n);
        let (board, optimum) = if n <= 20 {
            let board: Vec<i64> = (0..n * n).map(|_| g.range(-20, 99)).collect();
            let exact = Request {
                method: if n <= 10 {
                    Method::Enumerate
                } else {
                    Method::BranchBound(lagrangian)
                },
                ..Request::default()
            };
            let res = model.solve(&board, &exact);
            assert_eq!(res.status, Status::Optimal);
            let optimum = res.maximum().expect("a placement");
            (board, optimum)
        } else {
            planted(n, &mut g)
        };
        for &kind in &kinds {
            for threads in [1, 2] {
                let keep = match g.below(4) {
                    0 => Keep::AllOptimal { limit: 2 },
                    1 => Keep::Top(3),
                    _ => Keep::Best,
                };
                let micros = g.below(3001);
                let req = Request {
                    keep,
                    budget: Budget::unlimited().with_time(Duration::from_micros(micros)),
                    method: Method::BranchBound(kind),
                    threads,
                };
                let res = model.solve(&board, &req);
                let (status, value, bound) = (res.status, res.maximum(), res.bound);
                let what = format!(
                    "case {case}: n={n} {kind:?} threads={threads} {keep:?} {micros} µs: \
                     {status:?} {value:?} {bound:?}"
                );
                check(&res, &board, optimum, keep, &what);
            }
        }
    }
}
