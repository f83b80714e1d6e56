//! Where the queens stand: for each square of the n×n board, the number of n-queens solutions
//! with a queen on it.
//!
//! # Method
//!
//! One bitboard search over the solutions with `q0 <= (n-1)/2` (the left half of rank 0, the
//! same enumerator as [`crate::queens::listing`]), split into the same lexicographic tasks and
//! run on the current rayon pool. Every node returns the number of solutions below it, and the
//! node that puts a queen on `(r, c)` adds that number to square `(r, c)`: one addition per
//! node, none per leaf and rank, so the table costs no more than counting the solutions by
//! enumeration. The solutions with `q0 > (n-1)/2` are the left-right mirrors of those with
//! `q0 < (n-1)/2`, so their table is the mirror of that part's and is not searched.
//!
//! This is cheaper than counting each square of one eighth of the board with its queen forced
//! (about `n²/8` forced counts, each a sizeable fraction of a full search): one search of half
//! the board fills the whole table. [`forced_count`] is that per-square count; the tests use it
//! as an independent check, and it answers for a single square.
//!
//! With `unique`, the table counts the representatives (the lexicographically smallest image,
//! [`crate::queens::symmetry::representative_class`]) of the fundamental solutions: each representative adds
//! one to each of its n squares. That table is not symmetric (the representatives are not),
//! and its total is A002562(n).
//!
//! # Cost
//!
//! The search visits every solution with `q0 <= (n-1)/2` and the dead ends above them, so the
//! time grows like the number of solutions, A000170(n), about 6 to 7 times per step of n
//! (n = 16: 14.8 million solutions, n = 17: 95.8 million, n = 18: 667 million); the unique
//! table adds a symmetry test per such solution. See the module tests for the times measured.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::queens::common::{MAX_N, full_mask};
use crate::queens::listing;
use crate::queens::symmetry::Symmetry;

/// Solutions (or, with `unique`, class representatives) with a queen on each square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heatmap {
    /// The board size.
    pub n: usize,
    /// Whether the table counts class representatives only.
    pub unique: bool,
    /// The number of solutions (A000170), or with `unique` of representatives (A002562).
    pub total: u128,
    /// `n * n` counts, rank-major: `counts[rank * n + file]`.
    pub counts: Vec<u128>,
}

/// One square of a [`Heatmap`], as a record for the output layer: CSV
/// `rank,file,solutions,share`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HeatCell {
    /// The square's rank (row), from 0.
    pub rank: usize,
    /// The square's file (column), from 0.
    pub file: usize,
    /// Solutions (or representatives) with a queen on the square.
    pub solutions: u128,
    /// `solutions / total` (0 when there are no solutions); each rank's and each file's shares
    /// add up to 1.
    pub share: f64,
}

impl Heatmap {
    /// The count of square `(rank, file)`.
    pub fn get(&self, rank: usize, file: usize) -> u128 {
        self.counts[rank * self.n + file]
    }

    /// The squares, rank-major.
    pub fn cells(&self) -> impl Iterator<Item = HeatCell> + '_ {
        (0..self.n * self.n).map(|i| {
            let solutions = self.counts[i];
            HeatCell {
                rank: i / self.n,
                file: i % self.n,
                solutions,
                share: if self.total == 0 {
                    0.0
                } else {
                    solutions as f64 / self.total as f64
                },
            }
        })
    }

    /// The largest count (for a colour scale).
    pub fn max(&self) -> u128 {
        self.counts.iter().copied().max().unwrap_or(0)
    }
}

/// Tasks of the heat-map search: enough for a few per thread even on a large pool.
const MIN_TASKS: usize = 256;

/// The heat map of the `n`-queens solutions (`1 <= n <= 32`; panics outside), or with `unique`
/// of the fundamental solutions' representatives. Runs on the current rayon pool. Sums are
/// `u128` with checked addition; a task's counters are `u64` (a task would need 10^19 solutions
/// to overflow, centuries of work).
pub fn heatmap(n: usize, unique: bool) -> Heatmap {
    heatmap_until(n, unique, &|| false).expect("a search that never stops ends")
}

/// [`heatmap`] that stops when `stop()` says so: each task asks it every few ranks below its
/// prefix (and, with `unique`, at every solution), so the search ends within milliseconds of
/// the request. `None` when it stopped: the table would be partial.
pub fn heatmap_until(n: usize, unique: bool, stop: &(dyn Fn() -> bool + Sync)) -> Option<Heatmap> {
    assert!(
        (1..=MAX_N).contains(&n),
        "n must be in 1..={MAX_N}, got {n}"
    );
    let tasks: Vec<Vec<u8>> = listing::tasks(n, MIN_TASKS)
        .into_iter()
        .filter(|p| 2 * usize::from(p[0]) < n)
        .collect();
    let cut = AtomicBool::new(false);
    // (left half, middle file) tables: q0 < (n-1)/2, and q0 = (n-1)/2 for odd n.
    let zero = || (vec![0u128; n * n], vec![0u128; n * n]);
    let (left, middle) = tasks
        .par_iter()
        .map(|p| {
            let mut t = vec![0u64; n * n];
            let whole = !stop()
                && if unique {
                    tally_unique(n, p, &mut t, stop)
                } else {
                    tally(n, p, &mut t, stop)
                };
            cut.fetch_or(!whole, Ordering::Relaxed);
            (2 * usize::from(p[0]) + 1 == n, t)
        })
        .fold(zero, |(mut l, mut m), (mid, t)| {
            add_into(
                if mid { &mut m } else { &mut l },
                t.iter().map(|&x| u128::from(x)),
            );
            (l, m)
        })
        .reduce(zero, |(mut l, mut m), (l2, m2)| {
            add_into(&mut l, l2.into_iter());
            add_into(&mut m, m2.into_iter());
            (l, m)
        });
    if cut.into_inner() {
        return None;
    }
    let mut counts = middle;
    add_into(&mut counts, left.iter().copied());
    if !unique {
        // The mirror images of the left half (files reversed).
        let mirrored = (0..n * n).map(|i| left[i / n * n + (n - 1 - i % n)]);
        add_into(&mut counts, mirrored);
    }
    // Every solution has one queen on rank 0.
    let total = counts[..n].iter().try_fold(0u128, |a, &b| a.checked_add(b));
    Some(Heatmap {
        n,
        unique,
        total: total.expect("n-queens count overflows u128"),
        counts,
    })
}

fn add_into(acc: &mut [u128], xs: impl Iterator<Item = u128>) {
    for (a, x) in acc.iter_mut().zip(xs) {
        *a = a.checked_add(x).expect("n-queens count overflows u128");
    }
}

/// Ranks below a task's prefix at which [`Tally`] asks whether to stop: the subtrees below
/// are searched in microseconds to milliseconds, and the nodes at that rank are few enough that
/// asking costs nothing measurable.
const STOP_CHECK_DEPTH: usize = 3;

/// Adds to `t[r * n + c]` the solutions extending `prefix` with a queen on `(r, c)`; false
/// when `stop()` cut it short (`t` is then partial).
fn tally(n: usize, prefix: &[u8], t: &mut [u64], stop: &(dyn Fn() -> bool + Sync)) -> bool {
    let mut masks = (0u32, 0u32, 0u32);
    let mask = full_mask(n);
    for &c in prefix {
        let bit = 1u32 << c;
        let (cols, ld, rd) = masks;
        if (cols | ld | rd) & bit != 0 {
            return true;
        }
        masks = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    let (cols, ld, rd) = masks;
    let r = prefix.len();
    let below = if r == n {
        1
    } else {
        let mut w = Tally {
            n,
            mask,
            t,
            check: r + STOP_CHECK_DEPTH,
            stop,
            stopped: false,
        };
        let below = w.descend(r, mask & !(cols | ld | rd), cols, ld, rd);
        if w.stopped {
            return false;
        }
        below
    };
    for (r, &c) in prefix.iter().enumerate() {
        t[r * n + usize::from(c)] += below;
    }
    true
}

struct Tally<'t> {
    n: usize,
    mask: u32,
    t: &'t mut [u64],
    /// The rank at which to ask `stop`.
    check: usize,
    stop: &'t (dyn Fn() -> bool + Sync),
    /// `stop` said so: every subtree after it counts 0.
    stopped: bool,
}

impl Tally<'_> {
    /// The solutions below rank `r` with open files `open`, each counted on its squares.
    fn descend(&mut self, r: usize, mut open: u32, cols: u32, ld: u32, rd: u32) -> u64 {
        if r == self.check && (self.stopped || (self.stop)()) {
            self.stopped = true;
            return 0;
        }
        let row = r * self.n;
        if r + 1 == self.n {
            if open != 0 {
                self.t[row + open.trailing_zeros() as usize] += 1;
                return 1;
            }
            return 0;
        }
        let mut total = 0;
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            let (c, l, d) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
            let next = self.mask & !(c | l | d);
            if next != 0 {
                let below = self.descend(r + 1, next, c, l, d);
                self.t[row + bit.trailing_zeros() as usize] += below;
                total += below;
            }
        }
        total
    }
}

/// Adds one to each square of each class representative extending `prefix`; false when
/// `stop()` cut it short.
fn tally_unique(n: usize, prefix: &[u8], t: &mut [u64], stop: &(dyn Fn() -> bool + Sync)) -> bool {
    listing::for_each_solution_in::<()>(n, prefix, true, |q, _| {
        if stop() {
            return ControlFlow::Break(());
        }
        for (r, &c) in q.iter().enumerate() {
            t[r * n + usize::from(c)] += 1;
        }
        ControlFlow::Continue(())
    })
    .is_continue()
}

/// The number of `n`-queens solutions with a queen on `(rank, file)`, by a search with that
/// queen placed first (its file and diagonals taken on every other rank). Runs on the calling
/// thread.
pub fn forced_count(n: usize, rank: usize, file: usize) -> u128 {
    assert!(
        (1..=MAX_N).contains(&n) && rank < n && file < n,
        "square ({rank}, {file}) off an n = {n} board"
    );
    let mask = full_mask(n);
    // The squares the forced queen attacks on each rank, and its own rank: only its file.
    let mut forbid = [0u32; MAX_N];
    for (r, f) in forbid.iter_mut().enumerate().take(n) {
        if r == rank {
            *f = mask & !(1 << file);
            continue;
        }
        let d = r.abs_diff(rank);
        *f = 1 << file;
        if file + d < n {
            *f |= 1 << (file + d);
        }
        if file >= d {
            *f |= 1 << (file - d);
        }
    }
    fn rec(n: usize, mask: u32, forbid: &[u32; MAX_N], r: usize, c: u32, l: u32, d: u32) -> u64 {
        let mut open = mask & !(c | l | d | forbid[r]);
        if r + 1 == n {
            return u64::from(open != 0);
        }
        let mut total = 0;
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            total += rec(
                n,
                mask,
                forbid,
                r + 1,
                c | bit,
                (l | bit) << 1,
                (d | bit) >> 1,
            );
        }
        total
    }
    u128::from(rec(n, mask, &forbid, 0, 0, 0, 0))
}

/// The image of a heat map under a symmetry of the square (a test helper, public for the
/// integration tests of the CLI).
pub fn transformed(h: &Heatmap, s: Symmetry) -> Vec<u128> {
    let n = h.n;
    let mut out = vec![0u128; n * n];
    for r in 0..n {
        for c in 0..n {
            let (r2, c2) = s.map(n, r, c);
            out[r2 * n + c2] = h.get(r, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::symmetry;

    /// A000170 and A002562 for n = 1..=12.
    const SOLUTIONS: [u128; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    const UNIQUE: [u128; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

    /// The table by brute force: every permutation of the files, kept when no two queens
    /// share a diagonal (and with `unique` when no image is lexicographically smaller).
    fn brute(n: usize, unique: bool) -> (u128, Vec<u128>) {
        fn perms(k: usize, p: &mut Vec<u8>, used: &mut Vec<bool>, f: &mut dyn FnMut(&[u8])) {
            if k == p.capacity() {
                f(p);
                return;
            }
            for c in 0..used.len() {
                if !used[c] {
                    used[c] = true;
                    p.push(c as u8);
                    perms(k + 1, p, used, f);
                    p.pop();
                    used[c] = false;
                }
            }
        }
        let mut counts = vec![0u128; n * n];
        let mut total = 0;
        let mut check = |q: &[u8]| {
            let ok = (0..n).all(|a| (a + 1..n).all(|b| (b - a) != q[a].abs_diff(q[b]) as usize));
            if ok && (!unique || symmetry::canonical(q) == q) {
                total += 1;
                for (r, &c) in q.iter().enumerate() {
                    counts[r * n + c as usize] += 1;
                }
            }
        };
        perms(
            0,
            &mut Vec::with_capacity(n),
            &mut vec![false; n],
            &mut check,
        );
        (total, counts)
    }

    #[test]
    fn small_boards_match_brute_force() {
        for n in 1..=8 {
            for unique in [false, true] {
                let h = heatmap(n, unique);
                let (total, counts) = brute(n, unique);
                assert_eq!((h.total, &h.counts), (total, &counts), "n = {n}, {unique}");
            }
        }
    }

    #[test]
    fn ranks_and_files_add_up_to_the_total_and_the_table_has_the_8_symmetries() {
        for n in 1..=12 {
            let h = heatmap(n, false);
            assert_eq!(h.total, SOLUTIONS[n - 1], "n = {n}");
            for i in 0..n {
                let rank: u128 = (0..n).map(|j| h.get(i, j)).sum();
                let file: u128 = (0..n).map(|j| h.get(j, i)).sum();
                assert_eq!((rank, file), (h.total, h.total), "n = {n}, line {i}");
            }
            for s in Symmetry::ALL {
                assert_eq!(transformed(&h, s), h.counts, "n = {n}, {s:?}");
            }
            let u = heatmap(n, true);
            assert_eq!(u.total, UNIQUE[n - 1], "n = {n}");
            for i in 0..n {
                let rank: u128 = (0..n).map(|j| u.get(i, j)).sum();
                let file: u128 = (0..n).map(|j| u.get(j, i)).sum();
                assert_eq!((rank, file), (u.total, u.total), "unique n = {n}, line {i}");
            }
        }
    }

    #[test]
    fn forced_counts_agree_with_the_table() {
        for n in [1, 4, 5, 8, 9, 11] {
            let h = heatmap(n, false);
            for r in 0..n {
                for c in 0..n {
                    assert_eq!(forced_count(n, r, c), h.get(r, c), "n = {n} ({r}, {c})");
                }
            }
        }
    }

    #[test]
    fn cells_carry_shares() {
        let h = heatmap(8, false);
        let cells: Vec<HeatCell> = h.cells().collect();
        assert_eq!(cells.len(), 64);
        assert_eq!((cells[9].rank, cells[9].file), (1, 1));
        assert_eq!(cells[0].solutions, 4);
        let rank0: f64 = cells[..8].iter().map(|c| c.share).sum();
        assert!((rank0 - 1.0).abs() < 1e-12);
        assert!(heatmap(3, false).cells().all(|c| c.share == 0.0));
    }
}
