//! Helpers shared by the test modules (of both test binaries: tests/cli includes this file):
//! every n-queens placement by brute force (independent of the engine and of the bit
//! counters), a layout's checked score and a board's optimum by brute force, shard records as
//! if read from a file or from a real count, and the checks of a weighted board's result.

use std::collections::BTreeSet;

use dancelinks::engine::Budget;
use dancelinks::engine::optimize::{Keep, Status};
use dancelinks::io::export::Format;
use dancelinks::io::shard::write_records;
use dancelinks::queens::count::{Engine, Request as CountRequest, count};
use dancelinks::queens::weighted::{BoardResult, Method, Request};
use dancelinks::records::{Located, Shard, ShardRecord, Source};

/// Every placement of n non-attacking queens (files per rank, in increasing lexicographic
/// order), by plain backtracking on (rank, file) pairs: no bit tricks, no engine.
pub fn placements(n: usize) -> Vec<Vec<u32>> {
    fn rec(n: usize, q: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        let r = q.len();
        if r == n {
            out.push(q.clone());
            return;
        }
        for c in 0..n as u32 {
            let safe = q
                .iter()
                .enumerate()
                .all(|(r2, &c2)| c2 != c && r2.abs_diff(r) as u32 != c2.abs_diff(c));
            if safe {
                q.push(c);
                rec(n, q, out);
                q.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, &mut Vec::new(), &mut out);
    out
}

/// A layout's score on an n×n board (row-major), after checking that it places n
/// non-attacking queens.
pub fn score(n: usize, board: &[i64], queens: &[u32]) -> i128 {
    assert_eq!(queens.len(), n, "{queens:?}: not one queen per rank");
    let mut file = vec![false; n];
    let mut a = vec![false; 2 * n];
    let mut b = vec![false; 2 * n];
    let mut total = 0i128;
    for (r, &c) in queens.iter().enumerate() {
        let c = c as usize;
        assert!(
            c < n && !file[c] && !a[r + c] && !b[r + n - c],
            "{queens:?} is no placement"
        );
        (file[c], a[r + c], b[r + n - c]) = (true, true, true);
        total += i128::from(board[r * n + c]);
    }
    total
}

/// `records` as if read from the lines 1, 2, ... of `file`.
pub fn located(records: &[ShardRecord], file: &str) -> Vec<Located> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| Located {
            source: Source {
                file: file.into(),
                line: i as u64 + 1,
            },
            record: r.clone(),
        })
        .collect()
}

/// The records of a real count of n split in m shards.
pub fn queens_shards(n: usize, m: u64, engine: Engine, unique: bool) -> Vec<ShardRecord> {
    (1..=m)
        .map(|i| {
            let request = CountRequest {
                n,
                unique,
                engine,
                symmetry: None,
                shard: Shard::new(i, m).unwrap(),
                threads: Some(1),
            };
            count(&request, &|_, _, _| {})
                .unwrap()
                .record(&request, 0.25)
        })
        .collect()
}

/// Shard records as a file of `format` holds them.
pub fn text(records: &[ShardRecord], format: Format) -> String {
    let mut buf = Vec::new();
    write_records(&mut buf, records, format).unwrap();
    String::from_utf8(buf).unwrap()
}

/// A search for every optimal layout by `method`, on one thread.
pub fn all_optimal(method: Method) -> Request {
    Request {
        keep: Keep::AllOptimal { limit: usize::MAX },
        budget: Budget::unlimited(),
        method,
        threads: 1,
    }
}

/// (maximum, optimal layouts) by brute force.
pub fn brute_best(n: usize, board: &[i64], all: &[Vec<u32>]) -> (Option<i128>, BTreeSet<Vec<u32>>) {
    let best = all.iter().map(|q| score(n, board, q)).max();
    let set = all
        .iter()
        .filter(|q| Some(score(n, board, q)) == best)
        .cloned()
        .collect();
    (best, set)
}

/// The rule of a time-limited result (docs/weighted.md), given the board's optimum: every
/// value a real layout's, every bound proven, `value == bound` only when optimal.
pub fn check(res: &BoardResult, board: &[i64], optimum: i128, keep: Keep, what: &str) {
    for l in &res.layouts {
        assert_eq!(score(res.n, board, &l.queens), l.score, "{what}");
        assert!(
            l.score <= optimum,
            "{what}: {} above the optimum {optimum}",
            l.score
        );
    }
    match res.status {
        Status::Optimal => {
            assert_eq!(res.maximum(), Some(optimum), "{what}");
            assert_eq!(res.bound, Some(optimum), "{what}");
        }
        Status::Feasible | Status::Unknown => {
            let bound = res.bound.unwrap_or_else(|| panic!("{what}: no bound"));
            assert!(
                bound >= optimum,
                "{what}: bound {bound} below the optimum {optimum}"
            );
            if keep == Keep::Best {
                assert_ne!(
                    res.maximum(),
                    Some(bound),
                    "{what}: value == bound, not optimal"
                );
            }
            assert_eq!(
                res.status == Status::Unknown,
                res.layouts.is_empty(),
                "{what}"
            );
        }
        Status::Infeasible => panic!("{what}: every board of n >= 4 has a placement"),
    }
}
