//! Helpers shared by the test modules: every n-queens placement by brute force (independent
//! of the engine and of the bit counters), a layout's checked score, and shard records as if
//! read from a file.

use dancelinks::records::{Located, ShardRecord, Source};

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
