//! Totals by meeting in the middle (issue 5): the board is cut between ranks `k - 1` and `k`
//! (`k = n / 2`); every placement of the top `k` ranks and every placement of the bottom
//! `n - k` ranks is listed once, grouped by its set of files, and a solution is a pair (top
//! with files `C`, bottom with files `!C`) whose diagonals are disjoint. See docs/bits.md.
//!
//! Only the diagonals that meet both halves matter: sum diagonals `r + c` and difference
//! diagonals `r - c + n - 1` in `k..=k + n - 2`. A placement keeps them in one `u64`
//! *pattern* (sums in bits `0..n-1`, differences in bits `32..32 + n - 1`), so a pair is
//! compatible exactly when the two patterns share no bit: one AND per pair, and the pairs of one
//! group are scanned with vector instructions (AVX-512 or AVX2 when the CPU has them).
//!
//! Symmetry: the left-right mirror maps top file sets `C` to `m(C)` and preserves the count of
//! pairs; for even `n` the up-down flip maps (top `C`, bottom `!C`) to (top `!C`, bottom `C`),
//! so a single table (the top placements) serves both halves, and the groups `C`, `!C`, `m(C)`,
//! `!m(C)` have the same count: only one group per orbit is joined, times the orbit size.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

/// The largest board counted this way: the tables hold every half-board placement (n = 18:
/// 2.8·10⁸ patterns, 2.2 GB; n = 19 would need about 16 GB).
pub(super) const MAX_N: usize = 18;

/// Half-board placements grouped by file set: the patterns of set `C` are
/// `pats[start[C]..start[C + 1]]`.
struct Table {
    start: Vec<usize>,
    pats: Vec<u64>,
}

impl Table {
    fn group(&self, c: usize) -> &[u64] {
        &self.pats[self.start[c]..self.start[c + 1]]
    }
}

/// The table of top placements and the units of work: orbit representatives `(C, x)` (for
/// even `n`, `x` is [`NO_MIDDLE`]) with the size of their orbit, in increasing order.
pub(super) struct Plan {
    n: usize,
    top: Table,
    reps: Vec<(u32, u8, u8)>,
}

/// The `x` of a unit of an even board (no middle rank).
const NO_MIDDLE: u8 = u8::MAX;

/// The width of the diagonal windows: `n - 1` for even `n`, `n` for odd `n`.
fn width(n: usize) -> usize {
    n - 1 + n % 2
}

/// The pattern bits of a queen on absolute rank `ar`, file `f`: the diagonals in the window
/// `k..k + width(n)` (`k = n / 2`).
fn queen_bits(n: usize, ar: usize, f: usize) -> u64 {
    let (k, w) = (n / 2, width(n));
    let mut p = 0;
    let (s, d) = (ar + f, ar + n - 1 - f);
    if (k..k + w).contains(&s) {
        p |= 1u64 << (s - k);
    }
    if (k..k + w).contains(&d) {
        p |= 1u64 << (32 + d - k);
    }
    p
}

/// Every non-attacking placement of the top `n / 2` ranks, grouped by file set. Two passes of
/// the same search, each split over the first rank's files on the rayon pool: count the group
/// sizes, then write each pattern to its slot.
fn table(n: usize) -> Table {
    let mask = (1u32 << n) - 1;
    let bits: Vec<Vec<u64>> = (0..n / 2)
        .map(|ar| (0..n).map(|f| queen_bits(n, ar, f)).collect())
        .collect();
    // The search below rank 0's file `f0`, calling `leaf(files, pattern)` at each placement.
    fn walk(
        bits: &[Vec<u64>],
        mask: u32,
        r: usize,
        (c, l, d, p): (u32, u32, u32, u64),
        leaf: &mut dyn FnMut(u32, u64),
    ) {
        if r == bits.len() {
            leaf(c, p);
            return;
        }
        let mut a = mask & !(c | l | d);
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            let q = p | bits[r][bit.trailing_zeros() as usize];
            walk(bits, mask, r + 1, (c | bit, (l | bit) << 1, (d | bit) >> 1, q), leaf);
        }
    }
    let first = |f0: usize, leaf: &mut dyn FnMut(u32, u64)| {
        let bit = 1u32 << f0;
        walk(&bits, mask, 1, (bit, bit << 1, bit >> 1, bits[0][f0]), leaf);
    };
    let sets = 1usize << n;
    let counts: Vec<Vec<u32>> = (0..n)
        .into_par_iter()
        .map(|f0| {
            let mut cnt = vec![0u32; sets];
            first(f0, &mut |c, _| cnt[c as usize] += 1);
            cnt
        })
        .collect();
    let mut start = vec![0usize; sets + 1];
    for c in 0..sets {
        start[c + 1] = start[c] + counts.iter().map(|v| v[c] as usize).sum::<usize>();
    }
    let total = start[sets];
    let slots: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
    (0..n).into_par_iter().for_each(|f0| {
        // This subtree's slots of group C begin after those of the subtrees f < f0.
        let mut cursor: Vec<usize> = (0..sets)
            .map(|c| start[c] + counts[..f0].iter().map(|v| v[c] as usize).sum::<usize>())
            .collect();
        first(f0, &mut |c, p| {
            let at = &mut cursor[c as usize];
            slots[*at].store(p, Ordering::Relaxed);
            *at += 1;
        });
    });
    let pats = slots.into_iter().map(AtomicU64::into_inner).collect();
    Table { start, pats }
}

/// Reverses the low `w` bits of `x`.
fn reverse(x: u64, w: usize) -> u64 {
    x.reverse_bits() >> (64 - w)
}

/// The pattern of the up-down mirror image (rank `r` to `n - 1 - r`): the image's sum
/// diagonals are the original's difference diagonals reversed in the window, and the other way
/// round (the window is symmetric: `2k + width - 1 = 2(n - 1)`).
fn flip(p: u64, n: usize) -> u64 {
    let w = width(n);
    let low = (1u64 << w) - 1;
    reverse((p >> 32) & low, w) | reverse(p & low, w) << 32
}

impl Plan {
    /// Builds the table for `n` (`6 <= n <= MAX_N`) on the current rayon pool.
    pub(super) fn new(n: usize) -> Plan {
        assert!((6..=MAX_N).contains(&n), "meet in the middle takes 6..={MAX_N}");
        let k = n / 2;
        let full = (1u32 << n) - 1;
        let mirror = |c: u32| c.reverse_bits() >> (32 - n);
        let mut reps = Vec::new();
        for c in (0..=full).filter(|c| c.count_ones() as usize == k) {
            // The orbit of the unit under the left-right mirror and the up-down flip.
            // For odd n the middle rank's queen is on a file x outside C and the bottom
            // half has the files D = !C - x.
            let middles: Vec<u8> = if n % 2 == 0 {
                vec![NO_MIDDLE]
            } else {
                (0..n as u8).filter(|&x| c & (1 << x) == 0).collect()
            };
            for x in middles {
                let (d, y) = if x == NO_MIDDLE {
                    (full ^ c, x)
                } else {
                    (full ^ c ^ (1 << x), (n - 1) as u8 - x)
                };
                let mut orbit = [(c, x), (d, x), (mirror(c), y), (mirror(d), y)];
                if orbit.iter().all(|&u| u >= (c, x)) {
                    orbit.sort_unstable();
                    let size = 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count();
                    reps.push((c, x, size as u8));
                }
            }
        }
        Plan {
            n,
            top: table(n),
            reps,
        }
    }

    /// The number of units of work (orbit representatives).
    pub(super) fn len(&self) -> usize {
        self.reps.len()
    }

    /// Joins unit `i`: (solutions counted for its whole orbit, pairs tested).
    pub(super) fn join(&self, i: usize) -> (u128, u64) {
        let (c, x, weight) = self.reps[i];
        let n = self.n;
        let full = (1usize << n) - 1;
        let c = c as usize;
        let (tops, bots): (Vec<u64>, &[u64]) = if x == NO_MIDDLE {
            let tops = self.top.group(c).iter().map(|&p| flip(p, n)).collect();
            (tops, self.top.group(full ^ c))
        } else {
            // The middle rank's queen on file x: both halves must leave it alone.
            let x = usize::from(x);
            let m = queen_bits(n, n / 2, x);
            let ok = |p: &&u64| **p & m == 0;
            let d = full ^ c ^ (1 << x);
            let tops = self.top.group(c).iter().filter(ok).map(|&p| flip(p, n));
            let bots: Vec<u64> = self.top.group(d).iter().filter(ok).copied().collect();
            let found = disjoint_pairs(&tops.collect::<Vec<u64>>(), &bots);
            let tested = (self.top.group(c).iter().filter(ok).count() * bots.len()) as u64;
            return (u128::from(found) * u128::from(weight), tested);
        };
        let found = disjoint_pairs(&tops, bots);
        let tested = (tops.len() * bots.len()) as u64;
        (u128::from(found) * u128::from(weight), tested)
    }
}

/// The body of [`disjoint_pairs`], compiled once per instruction set: four patterns of `a`
/// at a time against all of `b`, so each load of `b` serves four tests.
macro_rules! disjoint_body {
    ($a:expr, $b:expr) => {{
        let (a, b): (&[u64], &[u64]) = ($a, $b);
        let mut total = 0u64;
        let mut quads = a.chunks_exact(4);
        for q in &mut quads {
            let (x0, x1, x2, x3) = (q[0], q[1], q[2], q[3]);
            let (mut s0, mut s1, mut s2, mut s3) = (0u64, 0u64, 0u64, 0u64);
            for &y in b {
                s0 += u64::from(x0 & y == 0);
                s1 += u64::from(x1 & y == 0);
                s2 += u64::from(x2 & y == 0);
                s3 += u64::from(x3 & y == 0);
            }
            total += s0 + s1 + s2 + s3;
        }
        for &x in quads.remainder() {
            total += b.iter().map(|&y| u64::from(x & y == 0)).sum::<u64>();
        }
        total
    }};
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,popcnt")]
fn disjoint_avx512(a: &[u64], b: &[u64]) -> u64 {
    disjoint_body!(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn disjoint_avx2(a: &[u64], b: &[u64]) -> u64 {
    disjoint_body!(a, b)
}

fn disjoint_plain(a: &[u64], b: &[u64]) -> u64 {
    disjoint_body!(a, b)
}

/// The number of pairs `(x, y)`, `x` in `a`, `y` in `b`, with `x & y == 0`.
fn disjoint_pairs(a: &[u64], b: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
        {
            // SAFETY: the CPU has the features the function was compiled for.
            return unsafe { disjoint_avx512(a, b) };
        }
        if is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { disjoint_avx2(a, b) };
        }
    }
    disjoint_plain(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_is_an_involution_and_matches_the_geometry() {
        for n in [6usize, 9, 12, 17, 18] {
            for ar in 0..n {
                for f in 0..n {
                    let p = queen_bits(n, ar, f);
                    assert_eq!(flip(flip(p, n), n), p);
                    assert_eq!(flip(p, n), queen_bits(n, n - 1 - ar, f), "n={n}");
                }
            }
        }
    }

    #[test]
    fn disjoint_pairs_agree_on_every_instruction_set() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x.rotate_left(23) & 0x0003_ffff_0003_ffff
        };
        let a: Vec<u64> = (0..37).map(|_| next()).collect();
        let b: Vec<u64> = (0..101).map(|_| next()).collect();
        let want = a
            .iter()
            .map(|&p| b.iter().filter(|&&q| p & q == 0).count() as u64)
            .sum::<u64>();
        assert!(want > 0 && want < 37 * 101);
        assert_eq!(disjoint_plain(&a, &b), want);
        assert_eq!(disjoint_pairs(&a, &b), want);
    }
}
