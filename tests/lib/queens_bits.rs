//! The word-parallel counter (`dancelinks::queens::bits`): OEIS counts with 1 and 2 threads, shards
//! that add up (with consistent check residues), and an independent brute force for small n.

use std::collections::HashSet;
use std::sync::Mutex;

use dancelinks::queens::bits::{self, BitsCount};
use dancelinks::queens::count::RESIDUE_MODULUS as RESIDUE_PRIME;

use crate::common::placements;

/// OEIS A000170 (solutions) and A002562 (fundamental solutions), n = 1..=15
/// (from /work/shared/reference/queens-counts.csv).
const OEIS: [(u128, u128); 15] = [
    (1, 1),
    (0, 0),
    (0, 0),
    (2, 1),
    (10, 2),
    (4, 1),
    (40, 6),
    (92, 12),
    (352, 46),
    (724, 92),
    (2680, 341),
    (14200, 1787),
    (73712, 9233),
    (365596, 45752),
    (2279184, 285053),
];

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn count(n: usize, shard: Option<(usize, usize)>) -> BitsCount {
    bits::count(n, true, shard, &|_, _, _| {})
}

#[test]
fn oeis_counts_one_thread() {
    let p = pool(1);
    for (i, &(solutions, unique)) in OEIS.iter().enumerate() {
        let n = i + 1;
        let c = p.install(|| count(n, None));
        assert_eq!((c.solutions, c.unique), (solutions, unique), "n={n}");
        assert!(c.residue_ok(), "n={n}");
    }
}

#[test]
fn oeis_counts_two_threads() {
    let p = pool(2);
    for (i, &(solutions, unique)) in OEIS.iter().enumerate() {
        let n = i + 1;
        let c = p.install(|| count(n, None));
        assert_eq!((c.solutions, c.unique), (solutions, unique), "n={n}");
    }
}

#[test]
fn same_nodes_whatever_the_thread_count() {
    let one = pool(1).install(|| count(13, None));
    let two = pool(2).install(|| count(13, None));
    assert_eq!(one, two);
    assert!(one.nodes > 0);
}

#[test]
fn shards_add_up_with_consistent_residues() {
    let p = pool(2);
    for n in [1, 4, 6, 8, 11, 12, 13] {
        let whole = p.install(|| count(n, None));
        let tasks = bits::task_count(n);
        for m in [1, 2, 3, 7, tasks, tasks + 5] {
            let mut merged = BitsCount::default();
            for i in 1..=m {
                let part = p.install(|| count(n, Some((i, m))));
                assert!(part.residue_ok(), "n={n} shard {i}/{m}");
                merged += part;
            }
            assert_eq!(merged, whole, "n={n} M={m}");
            assert!(merged.residue_ok());
        }
    }
}

#[test]
fn residue_catches_a_corrupted_record() {
    let c = count(10, None);
    assert!(c.residue_ok());
    let bad = BitsCount {
        solutions: c.solutions + 1,
        ..c
    };
    assert!(!bad.residue_ok());
    // The residue is summed mod the prime, not taken from the sum.
    let big = BitsCount {
        solutions: u128::from(RESIDUE_PRIME) + 3,
        unique: 1,
        nodes: 0,
        residue: 3,
    };
    let mut twice = big;
    twice += big;
    assert_eq!(twice.residue, 6);
    assert!(twice.residue_ok());
}

#[test]
fn progress_reaches_the_total() {
    let seen = Mutex::new(Vec::new());
    let c = pool(2).install(|| {
        bits::count(12, true, Some((2, 3)), &|done, total, sols| {
            seen.lock().unwrap().push((done, total, sols))
        })
    });
    let seen = seen.into_inner().unwrap();
    let total = (0..bits::task_count(12)).filter(|k| k % 3 == 1).count();
    assert_eq!(seen.len(), total);
    let last = seen.iter().max_by_key(|s| s.0).unwrap();
    assert_eq!(*last, (total, total, c.solutions));
}

#[test]
fn split_is_fine_grained() {
    assert!(bits::task_count(16) >= 1000);
    assert!(bits::task_count(18) >= bits::task_count(16));
    for n in 1..=32 {
        assert!(bits::task_count(n) >= 1, "n={n}");
    }
}

/// A symmetry of the square as a map of (rank, file), given n - 1.
type Map = fn(usize, usize, usize) -> (usize, usize);

/// The smallest of the 8 images of a solution, each made by moving every queen (r, c) with a
/// symmetry of the square.
fn canonical(p: &[usize]) -> Vec<usize> {
    let n = p.len();
    let m = n - 1;
    let maps: [Map; 8] = [
        |_, r, c| (r, c),
        |m, r, c| (c, m - r),
        |m, r, c| (m - r, m - c),
        |m, r, c| (m - c, r),
        |m, r, c| (r, m - c),
        |m, r, c| (m - r, c),
        |_, r, c| (c, r),
        |m, r, c| (m - c, m - r),
    ];
    maps.iter()
        .map(|f| {
            let mut img = vec![usize::MAX; n];
            for (r, &c) in p.iter().enumerate() {
                let (r2, c2) = f(m, r, c);
                img[r2] = c2;
            }
            img
        })
        .min()
        .unwrap()
}

#[test]
fn agrees_with_brute_force() {
    for n in 1..=10 {
        let all: Vec<Vec<usize>> = placements(n)
            .into_iter()
            .map(|q| q.into_iter().map(|c| c as usize).collect())
            .collect();
        let classes: HashSet<Vec<usize>> = all.iter().map(|p| canonical(p)).collect();
        let c = count(n, None);
        assert_eq!(c.solutions, all.len() as u128, "n={n}");
        assert_eq!(c.unique, classes.len() as u128, "n={n}");
    }
}

#[test]
fn brute_force_by_permutations() {
    // Every permutation of 0..n, kept when no two queens share a diagonal (n <= 8).
    fn perms(k: usize, p: &mut Vec<usize>, used: &mut [bool], out: &mut u64) {
        let n = used.len();
        if k == n {
            let ok = (0..n).all(|i| (i + 1..n).all(|j| p[i].abs_diff(p[j]) != j - i));
            *out += u64::from(ok);
            return;
        }
        for c in 0..n {
            if !used[c] {
                used[c] = true;
                p.push(c);
                perms(k + 1, p, used, out);
                p.pop();
                used[c] = false;
            }
        }
    }
    for n in 1..=8 {
        let mut found = 0;
        perms(0, &mut Vec::new(), &mut vec![false; n], &mut found);
        assert_eq!(count(n, None).solutions, u128::from(found), "n={n}");
    }
}

#[test]
#[should_panic(expected = "n must be in 1..=32")]
fn n_zero_is_refused() {
    bits::task_count(0);
}

#[test]
#[should_panic(expected = "n must be in 1..=32")]
fn n_above_32_is_refused() {
    count(33, None);
}

#[test]
fn large_boards_split_without_overflow() {
    // The split for the largest boards is built (no count: that would take ages).
    assert!(bits::task_count(32) > bits::task_count(20));
}

/// Totals only (`unique = false`): boards of 12..=18 are counted by meeting in the middle.
fn totals(n: usize, shard: Option<(usize, usize)>) -> BitsCount {
    bits::count(n, false, shard, &|_, _, _| {})
}

#[test]
fn totals_only_match_oeis_with_one_and_two_threads() {
    for threads in [1, 2] {
        let p = pool(threads);
        for (i, &(solutions, _)) in OEIS.iter().enumerate() {
            let n = i + 1;
            let c = p.install(|| totals(n, None));
            assert_eq!(c.solutions, solutions, "n={n} threads={threads}");
            assert_eq!(c.unique, 0, "n={n}: unique is not computed when not asked");
            assert!(c.residue_ok(), "n={n}");
        }
    }
}

#[test]
fn totals_only_agree_with_the_symmetric_search() {
    // The two methods are independent: the search (with the fundamental count) and the join.
    let p = pool(2);
    for n in 12..=14 {
        let joined = p.install(|| totals(n, None));
        let searched = p.install(|| count(n, None));
        assert_eq!(joined.solutions, searched.solutions, "n={n}");
        assert!(joined.nodes > 0);
    }
}

#[test]
fn totals_only_shards_add_up() {
    let p = pool(2);
    for n in [12, 13] {
        let whole = p.install(|| totals(n, None));
        let tasks = bits::task_count(n);
        for m in [2, 3, 7, tasks + 5] {
            let mut merged = BitsCount::default();
            for i in 1..=m {
                let part = p.install(|| totals(n, Some((i, m))));
                assert!(part.residue_ok(), "n={n} shard {i}/{m}");
                merged += part;
            }
            assert_eq!(merged, whole, "n={n} M={m}");
        }
    }
}

#[test]
fn totals_only_progress_reaches_the_total() {
    let seen = Mutex::new(Vec::new());
    let c = pool(2).install(|| {
        bits::count(13, false, Some((1, 4)), &|done, total, sols| {
            seen.lock().unwrap().push((done, total, sols))
        })
    });
    let seen = seen.into_inner().unwrap();
    let total = (0..bits::task_count(13)).filter(|k| k % 4 == 0).count();
    assert_eq!(seen.len(), total);
    let last = seen.iter().max_by_key(|s| s.0).unwrap();
    assert_eq!(*last, (total, total, c.solutions));
}

/// Totals by quadrants (`Method::Quadrant`, issue 15), whatever `count` picks for `n`.
fn quadrants(n: usize, shard: Option<(usize, usize)>) -> BitsCount {
    bits::count_with(n, false, bits::Method::Quadrant, shard, &|_, _, _| {})
}

#[test]
fn quadrant_totals_match_oeis_for_both_parities() {
    for threads in [1, 2] {
        let p = pool(threads);
        for (i, &(solutions, _)) in OEIS.iter().enumerate().skip(3) {
            let n = i + 1;
            if threads == 1 && n > 14 {
                continue;
            }
            let c = p.install(|| quadrants(n, None));
            assert_eq!(c.solutions, solutions, "n={n} threads={threads}");
            assert_eq!(c.unique, 0);
            assert!(c.residue_ok(), "n={n}");
            assert!(c.nodes > 0, "n={n}");
        }
    }
}

#[test]
fn quadrant_totals_agree_with_meeting_in_the_middle_and_search() {
    let p = pool(2);
    for n in 10..=13 {
        let q = p.install(|| quadrants(n, None));
        let m = p.install(|| bits::count_with(n, false, bits::Method::Mitm, None, &|_, _, _| {}));
        let s = p.install(|| count(n, None));
        assert_eq!(q.solutions, m.solutions, "n={n}");
        assert_eq!(q.solutions, s.solutions, "n={n}");
    }
}

#[test]
fn quadrant_shards_add_up() {
    let p = pool(2);
    for n in [12, 13, 14] {
        let whole = p.install(|| quadrants(n, None));
        let tasks = bits::task_count(n);
        for m in [2, 5, 16, tasks + 3] {
            let mut merged = BitsCount::default();
            for i in 1..=m {
                let part = p.install(|| quadrants(n, Some((i, m))));
                assert!(part.residue_ok(), "n={n} shard {i}/{m}");
                merged += part;
            }
            assert_eq!(merged, whole, "n={n} M={m}");
        }
    }
}

#[test]
fn totals_method_is_the_measured_fastest() {
    use bits::Method;
    assert_eq!(bits::totals_method(11), Method::Search);
    assert_eq!(bits::totals_method(12), Method::Mitm);
    assert_eq!(bits::totals_method(17), Method::Mitm);
    for n in [16, 18, 19, 20, 23] {
        assert_eq!(bits::totals_method(n), Method::Quadrant, "n={n}");
    }
    assert_eq!(bits::totals_method(24), Method::Search);
}
