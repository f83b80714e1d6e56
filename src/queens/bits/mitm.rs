//! Totals by meeting in the middle. The board is cut into `h` top ranks, a middle
//! band of `b` ranks (one for odd `n`, two for even `n`) and `h` bottom ranks. A *unit* is a
//! file set `C` of the top half and a placement `P` of the band; the bottom half then has the
//! files `D = !C - files(P)`. The unit's solutions are the pairs (top placement on the files
//! `C`, bottom placement on the files `D`) that attack neither each other nor `P`. See
//! docs/bits.md.
//!
//! Only the diagonals that meet two parts matter: sum diagonals `r + c` and difference
//! diagonals `r - c + n - 1` in the window `h..h + n + b - 1`. A placement keeps them in one
//! `u64` *pattern* (sums in the low half, differences from bit 32), so two parts are compatible
//! exactly when their patterns share no bit: one AND per pair. The pairs of a unit are counted
//! with vector instructions (AVX-512 or AVX2 when the CPU has them).
//!
//! Every placement of the top `h` ranks is listed once, grouped by file set (the *table*). The
//! bottom half is a top half of the upside-down board, so the same table serves both halves:
//! a bottom placement on the files `D` is the flip of a table entry of group `D`.
//!
//! Symmetry: the left-right mirror maps a unit `(C, P)` to `(m(C), m(P))`, and the up-down flip
//! maps it to `(D, flip(P))`, with the same number of solutions. Only the smallest unit of each
//! orbit is joined, and its count is multiplied by the orbit's size.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::queens::common::full_mask;

/// The largest board counted this way: the table holds every placement of the top half
/// (n = 18: 8 ranks, 1.2 GB in all; n = 19, 9 ranks, would need about ten times more).
pub(super) const MAX_N: usize = 18;

/// How the board is cut: `h` top ranks, a middle band of `b` ranks, `h` bottom ranks
/// (`2h + b = n`). The diagonals that matter are those in the window `h..h + w`
/// (`w = n + b - 1`), which is symmetric under the up-down flip (`2h + w - 1 = 2(n - 1)`).
#[derive(Clone, Copy, Debug)]
struct Geometry {
    n: usize,
    b: usize,
    h: usize,
    w: usize,
}

impl Geometry {
    fn new(n: usize, b: usize) -> Geometry {
        // The patterns fit in u64 (w <= 32) and the squeezed ones in u32 (n - b <= 17).
        assert!(
            b <= n && (n - b).is_multiple_of(2) && n + b <= 33 && n - b <= 17,
            "bad band {b} for n={n}"
        );
        Geometry {
            n,
            b,
            h: (n - b) / 2,
            w: n + b - 1,
        }
    }

    /// The pattern bits of a queen on rank `r`, file `f`.
    fn queen(&self, r: usize, f: usize) -> u64 {
        let (n, h, w) = (self.n, self.h, self.w);
        let mut p = 0;
        let (s, d) = (r + f, r + n - 1 - f);
        if (h..h + w).contains(&s) {
            p |= 1u64 << (s - h);
        }
        if (h..h + w).contains(&d) {
            p |= 1u64 << (32 + d - h);
        }
        p
    }

    /// The pattern of the up-down mirror image (rank `r` to `n - 1 - r`): the image's sum
    /// diagonals are the original's difference diagonals reversed in the window, and the other
    /// way round.
    fn flip(&self, p: u64) -> u64 {
        let w = self.w;
        let low = (1u64 << w) - 1;
        let rev = |x: u64| x.reverse_bits() >> (64 - w);
        rev((p >> 32) & low) | rev(p & low) << 32
    }

    /// The part of a pattern that a top half and a bottom half can share: the diagonals
    /// `h + b..=h + n - 2` of both families (`n - 1 - b` bits each, 16 at most), in one `u32`.
    fn squeeze(&self, p: u64) -> u32 {
        let m = (1u64 << (self.n - 1 - self.b)) - 1;
        (((p >> self.b) & m) | (((p >> (32 + self.b)) & m) << 16)) as u32
    }
}

/// The band used for `n`: one rank for odd `n`, two for even `n` (measured fastest for
/// n = 16..18: a wider band means fewer pairs but many more, smaller units; docs/bits.md).
fn band(n: usize) -> usize {
    if n % 2 == 1 { 1 } else { 2 }
}

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

/// Every non-attacking placement of the top `h` ranks, grouped by file set. Two passes of the
/// same search, each split over the first rank's files on the rayon pool: count the group
/// sizes, then write each pattern to its slot. `None` when `stop()` said so (asked at each
/// placement of the first [`STOP_CHECK_RANK`] ranks, so within milliseconds).
fn table(g: Geometry, bits: &[Vec<u64>], stop: &(dyn Fn() -> bool + Sync)) -> Option<Table> {
    let n = g.n;
    let mask = full_mask(n);
    let sticky = super::StickyStop::new(stop);
    let halt = || sticky.now();
    // The search below rank 0's file `f0`, calling `leaf(files, pattern)` at each placement.
    // The last rank calls `leaf` directly for each open file.
    fn walk<F: FnMut(u32, u64)>(
        bits: &[Vec<u64>],
        mask: u32,
        r: usize,
        (c, l, d, p): (u32, u32, u32, u64),
        leaf: &mut F,
        halt: &dyn Fn() -> bool,
    ) {
        if r == STOP_CHECK_RANK && halt() {
            return;
        }
        let mut a = mask & !(c | l | d);
        if r + 1 == bits.len() {
            while a != 0 {
                let bit = a & a.wrapping_neg();
                a ^= bit;
                leaf(c | bit, p | bits[r][bit.trailing_zeros() as usize]);
            }
            return;
        }
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            let q = p | bits[r][bit.trailing_zeros() as usize];
            walk(
                bits,
                mask,
                r + 1,
                (c | bit, (l | bit) << 1, (d | bit) >> 1, q),
                leaf,
                halt,
            );
        }
    }
    fn first<F: FnMut(u32, u64)>(
        bits: &[Vec<u64>],
        mask: u32,
        f0: usize,
        leaf: &mut F,
        halt: &dyn Fn() -> bool,
    ) {
        let bit = 1u32 << f0;
        if bits.len() == 1 {
            leaf(bit, bits[0][f0]);
        } else {
            let at = (bit, bit << 1, bit >> 1, bits[0][f0]);
            walk(bits, mask, 1, at, leaf, halt);
        }
    }
    let sets = 1usize << n;
    let counts: Vec<Vec<u32>> = (0..n)
        .into_par_iter()
        .map(|f0| {
            let mut cnt = vec![0u32; sets];
            first(bits, mask, f0, &mut |c, _| cnt[c as usize] += 1, &halt);
            cnt
        })
        .collect();
    // A cut count would misplace the patterns: stop before writing them.
    if halt() {
        return None;
    }
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
        let mut put = |c: u32, p| {
            let at = &mut cursor[c as usize];
            slots[*at].store(p, Ordering::Relaxed);
            *at += 1;
        };
        first(bits, mask, f0, &mut put, &halt);
    });
    if halt() {
        return None;
    }
    let pats = slots.into_iter().map(AtomicU64::into_inner).collect();
    Some(Table { start, pats })
}

/// The rank of the table's search at which it asks whether to stop: below it a subtree takes
/// microseconds, and the placements of the ranks above are few.
const STOP_CHECK_RANK: usize = 2;

/// One placement of the band.
#[derive(Clone, Copy, Debug)]
struct Band {
    files: u32,
    pattern: u64,
    /// The indices of its up-down flip, left-right mirror, and both.
    flip: u32,
    mirror: u32,
    both: u32,
}

/// The units of work: orbit representatives `(C, band index)` with the size of their orbit,
/// in increasing order.
pub(super) struct Plan {
    g: Geometry,
    /// `bits[r][f]`: the pattern of a queen on rank `r` (of the top half), file `f`.
    top: Table,
    /// The patterns of `top`, each flipped up-down (same groups).
    flipped: Vec<u64>,
    bands: Vec<Band>,
    reps: Vec<(u32, u32, u8)>,
}

impl Plan {
    /// The units for `n` (`6 <= n <= MAX_N`), or `None` when `stop()` said so: building the
    /// table takes seconds from n = 17 on.
    pub(super) fn new_until(n: usize, stop: &(dyn Fn() -> bool + Sync)) -> Option<Plan> {
        assert!(
            (6..=MAX_N).contains(&n),
            "meet in the middle takes 6..={MAX_N}"
        );
        Plan::with_band(n, band(n), stop)
    }

    fn with_band(n: usize, b: usize, stop: &(dyn Fn() -> bool + Sync)) -> Option<Plan> {
        let g = Geometry::new(n, b);
        let full = full_mask(n);
        // The band placements as file lists (rank h first), in lexicographic order.
        let mut lists: Vec<Vec<u8>> = vec![Vec::new()];
        for i in 0..b {
            let mut next = Vec::new();
            for l in &lists {
                for f in 0..n as u8 {
                    let free = l
                        .iter()
                        .enumerate()
                        .all(|(j, &e)| e != f && usize::from(e.abs_diff(f)) != i - j);
                    if free {
                        let mut m = l.clone();
                        m.push(f);
                        next.push(m);
                    }
                }
            }
            lists = next;
        }
        let index = |l: &[u8]| lists.binary_search_by(|m| m.as_slice().cmp(l)).unwrap() as u32;
        let mirror = |l: &[u8]| -> Vec<u8> { l.iter().map(|&f| (n - 1) as u8 - f).collect() };
        let bands: Vec<Band> = lists
            .iter()
            .map(|l| {
                let rev: Vec<u8> = l.iter().rev().copied().collect();
                Band {
                    files: l.iter().fold(0u32, |a, &f| a | 1 << f),
                    pattern: l
                        .iter()
                        .enumerate()
                        .fold(0u64, |a, (i, &f)| a | g.queen(g.h + i, usize::from(f))),
                    flip: index(&rev),
                    mirror: index(&mirror(l)),
                    both: index(&mirror(&rev)),
                }
            })
            .collect();
        let mirror_set = |c: u32| c.reverse_bits() >> (32 - n);
        let mut reps = Vec::new();
        for c in (0..=full).filter(|c| c.count_ones() as usize == g.h) {
            for (i, band) in bands.iter().enumerate() {
                if band.files & c != 0 {
                    continue;
                }
                let d = full ^ c ^ band.files;
                let me = (c, i as u32);
                let mut orbit = [
                    me,
                    (d, band.flip),
                    (mirror_set(c), band.mirror),
                    (mirror_set(d), band.both),
                ];
                if orbit.iter().all(|&u| u >= me) {
                    orbit.sort_unstable();
                    let size = 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count();
                    reps.push((c, i as u32, size as u8));
                }
            }
        }
        let bits: Vec<Vec<u64>> = (0..g.h)
            .map(|r| (0..n).map(|f| g.queen(r, f)).collect())
            .collect();
        let top = table(g, &bits, stop)?;
        if stop() {
            return None;
        }
        let flipped = top.pats.par_iter().map(|&p| g.flip(p)).collect();
        Some(Plan {
            g,
            top,
            flipped,
            bands,
            reps,
        })
    }

    /// The number of units of work (orbit representatives).
    pub(super) fn len(&self) -> usize {
        self.reps.len()
    }

    /// Joins unit `i`: (solutions counted for its whole orbit, pairs tested).
    pub(super) fn join(&self, i: usize, scratch: &mut Scratch) -> (u128, u64) {
        let Scratch {
            tops,
            bots,
            top_sq,
            bot_sq,
        } = scratch;
        let (c, bi, weight) = self.reps[i];
        let g = self.g;
        let full = (1u32 << g.n) - 1;
        let band = self.bands[bi as usize];
        let d = full ^ c ^ band.files;
        // The top half must leave the band alone; the bottom half is a top half of the
        // upside-down board, which must leave the flipped band alone. Flipping the tops
        // instead of the bottoms gives the same pairs.
        let avoid = g.flip(band.pattern);
        let (c, d) = (c as usize, d as usize);
        let (t0, t1) = (self.top.start[c], self.top.start[c + 1]);
        keep_disjoint(&self.flipped[t0..t1], avoid, tops);
        if tops.is_empty() {
            return (0, 0);
        }
        keep_disjoint(self.top.group(d), avoid, bots);
        // Now only the diagonals the two halves can share matter.
        top_sq.clear();
        top_sq.extend(tops.iter().map(|&p| g.squeeze(p)));
        bot_sq.clear();
        bot_sq.extend(bots.iter().map(|&p| g.squeeze(p)));
        let found = disjoint_pairs(top_sq, bot_sq);
        let tested = (tops.len() * bots.len()) as u64;
        (u128::from(found) * u128::from(weight), tested)
    }
}

/// Scratch buffers of [`Plan::join`], kept by a worker across units.
#[derive(Default)]
pub(super) struct Scratch {
    tops: Vec<u64>,
    bots: Vec<u64>,
    top_sq: Vec<u32>,
    bot_sq: Vec<u32>,
}

/// Sets `out` to the patterns of `src` that share no bit with `avoid`, in order.
fn keep_disjoint(src: &[u64], avoid: u64, out: &mut Vec<u64>) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F.
        unsafe { keep_disjoint_avx512(src, avoid, out) };
        return;
    }
    out.extend(src.iter().filter(|&&p| p & avoid == 0));
}

/// [`keep_disjoint`] with AVX-512: eight patterns tested at a time, the kept ones stored
/// contiguously with a compressing store.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn keep_disjoint_avx512(src: &[u64], avoid: u64, out: &mut Vec<u64>) {
    use std::arch::x86_64::*;
    out.reserve(src.len());
    let dst = out.as_mut_ptr();
    let a = _mm512_set1_epi64(avoid as i64);
    let mut kept = 0usize;
    let mut chunks = src.chunks_exact(8);
    for ch in &mut chunks {
        // SAFETY: `ch` holds 8 u64; at most `src.len()` values are stored into `out`, whose
        // capacity is at least that.
        unsafe {
            let v = _mm512_loadu_si512(ch.as_ptr().cast());
            let k = _mm512_testn_epi64_mask(v, a);
            _mm512_mask_compressstoreu_epi64(dst.add(kept).cast(), k, v);
            kept += k.count_ones() as usize;
        }
    }
    for &p in chunks.remainder() {
        if p & avoid == 0 {
            // SAFETY: as above.
            unsafe { dst.add(kept).write(p) };
            kept += 1;
        }
    }
    debug_assert!(kept <= out.capacity());
    // SAFETY: the first `kept` values were written above.
    unsafe { out.set_len(kept) };
}

/// The body of [`disjoint_pairs`], compiled once per instruction set: four patterns of `a`
/// at a time against all of `b`, so each load of `b` serves four tests.
macro_rules! disjoint_body {
    ($a:expr, $b:expr) => {{
        let (a, b): (&[u32], &[u32]) = ($a, $b);
        let mut total = 0u64;
        // Lane sums stay below 2^32: a group holds far fewer than 2^32 placements.
        let mut quads = a.chunks_exact(4);
        for q in &mut quads {
            let (x0, x1, x2, x3) = (q[0], q[1], q[2], q[3]);
            let (mut s0, mut s1, mut s2, mut s3) = (0u32, 0u32, 0u32, 0u32);
            for &y in b {
                s0 += u32::from(x0 & y == 0);
                s1 += u32::from(x1 & y == 0);
                s2 += u32::from(x2 & y == 0);
                s3 += u32::from(x3 & y == 0);
            }
            total += u64::from(s0) + u64::from(s1) + u64::from(s2) + u64::from(s3);
        }
        for &x in quads.remainder() {
            total += b.iter().map(|&y| u64::from(x & y == 0)).sum::<u64>();
        }
        total
    }};
}

/// [`disjoint_pairs`] with AVX-512, written out: sixteen bottoms per vector, four tops
/// broadcast, each test (`vptestnmd`) feeding a masked add, so a test costs two instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn disjoint_avx512(a: &[u32], b: &[u32]) -> u64 {
    use std::arch::x86_64::*;
    let mut total = 0u64;
    let whole = b.len() / 16 * 16;
    let (body, rest) = b.split_at(whole);
    let mut quads = a.chunks_exact(4);
    let one = _mm512_set1_epi32(1);
    for q in &mut quads {
        let t: [__m512i; 4] = std::array::from_fn(|i| _mm512_set1_epi32(q[i] as i32));
        let mut acc = [_mm512_setzero_si512(); 4];
        for ch in body.chunks_exact(16) {
            // SAFETY: `ch` holds 16 u32 (64 bytes); unaligned loads are allowed.
            let y = unsafe { _mm512_loadu_si512(ch.as_ptr().cast()) };
            for i in 0..4 {
                let k = _mm512_testn_epi32_mask(t[i], y);
                acc[i] = _mm512_mask_add_epi32(acc[i], k, acc[i], one);
            }
        }
        let sum = _mm512_add_epi32(
            _mm512_add_epi32(acc[0], acc[1]),
            _mm512_add_epi32(acc[2], acc[3]),
        );
        // Each lane counts at most 4 * b.len() / 16 pairs: no overflow of an i32 lane.
        total += u64::from(_mm512_reduce_add_epi32(sum) as u32);
        for &y in rest {
            total += q.iter().map(|&x| u64::from(x & y == 0)).sum::<u64>();
        }
    }
    for &x in quads.remainder() {
        total += b.iter().map(|&y| u64::from(x & y == 0)).sum::<u64>();
    }
    total
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn disjoint_avx2(a: &[u32], b: &[u32]) -> u64 {
    disjoint_body!(a, b)
}

fn disjoint_plain(a: &[u32], b: &[u32]) -> u64 {
    disjoint_body!(a, b)
}

/// The number of pairs `(x, y)`, `x` in `a`, `y` in `b`, with `x & y == 0`.
fn disjoint_pairs(a: &[u32], b: &[u32]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f") {
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
        for (n, b) in [
            (6usize, 0usize),
            (6, 2),
            (9, 1),
            (9, 3),
            (12, 0),
            (17, 1),
            (18, 2),
        ] {
            let g = Geometry::new(n, b);
            for r in 0..n {
                for f in 0..n {
                    let p = g.queen(r, f);
                    assert_eq!(g.flip(g.flip(p)), p);
                    assert_eq!(g.flip(p), g.queen(n - 1 - r, f), "n={n} b={b}");
                }
            }
        }
    }

    #[test]
    fn every_band_gives_the_oeis_totals() {
        let oeis = [4u128, 40, 92, 352, 724, 2680, 14200];
        for (i, &want) in oeis.iter().enumerate() {
            let n = i + 6;
            for b in (n % 2..=4).step_by(2) {
                let plan = Plan::with_band(n, b, &|| false).unwrap();
                let mut scratch = Scratch::default();
                let got: u128 = (0..plan.len()).map(|k| plan.join(k, &mut scratch).0).sum();
                assert_eq!(got, want, "n={n} b={b}");
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
        // Squeezed to u32 (low 16 bits of each half) the answer is that of the squeezed sets.
        let sq = |v: &[u64]| -> Vec<u32> {
            v.iter()
                .map(|&p| ((p & 0xffff) | ((p >> 32) & 0xffff) << 16) as u32)
                .collect()
        };
        let (a32, b32) = (sq(&a), sq(&b));
        let want32 = a32
            .iter()
            .map(|&p| b32.iter().filter(|&&q| p & q == 0).count() as u64)
            .sum::<u64>();
        assert!(want32 > 0 && want32 < 37 * 101);
        assert_eq!(disjoint_plain(&a32, &b32), want32);
        assert_eq!(disjoint_pairs(&a32, &b32), want32);
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            assert_eq!(unsafe { disjoint_avx2(&a32, &b32) }, want32);
        }
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F.
            assert_eq!(unsafe { disjoint_avx512(&a32, &b32) }, want32);
            // Lengths around the vector width and the block of four.
            for (na, nb) in [(0, 5), (3, 16), (4, 15), (5, 33), (9, 48)] {
                let want: u64 = a32[..na]
                    .iter()
                    .map(|&p| b32[..nb].iter().filter(|&&q| p & q == 0).count() as u64)
                    .sum();
                // SAFETY: as above.
                assert_eq!(unsafe { disjoint_avx512(&a32[..na], &b32[..nb]) }, want);
            }
        }
        for avoid in [0, b[0], b[3] | b[7], u64::MAX] {
            let mut kept = vec![99; 3];
            keep_disjoint(&b, avoid, &mut kept);
            let want: Vec<u64> = b.iter().copied().filter(|&q| q & avoid == 0).collect();
            assert_eq!(kept, want);
        }
    }

    #[test]
    fn units_cover_every_file_set_and_band_once_by_weight() {
        // Summing the orbit sizes of the representatives gives back every (C, P) pair.
        for (n, b) in [(8usize, 0usize), (8, 2), (9, 1), (10, 2), (11, 3)] {
            let plan = Plan::with_band(n, b, &|| false).unwrap();
            let h = (n - b) / 2;
            let all: usize = (0u32..1 << n)
                .filter(|c| c.count_ones() as usize == h)
                .map(|c| plan.bands.iter().filter(|p| p.files & c == 0).count())
                .sum();
            let covered: usize = plan.reps.iter().map(|r| usize::from(r.2)).sum();
            assert_eq!(covered, all, "n={n} b={b}");
        }
    }
}
