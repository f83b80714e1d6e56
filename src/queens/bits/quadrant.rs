//! Totals by quadrants (issue 15). The board is cut by a vertical line into a West half (the
//! files `0..h`, `h = n / 2`) and an East half (the files `h..n`, `n - h` of them), and by
//! horizontal lines into North (ranks `0..h`), for odd `n` a middle rank `h`, and South (ranks
//! `n - h..n`). The outer loop runs over the sets `R` of ranks whose queen stands in the East
//! half (`|R| = n - h`, one per East file). For one `R`:
//!
//! - every *East* configuration is a placement of the North-East quadrant on the ranks
//!   `R ∩ North`, the South-East one on `R ∩ South` (and the middle rank's queen if the middle
//!   rank is in `R`) with the East files shared out between them, the parts not attacking
//!   each other; the same for the *West* half on the other ranks;
//! - an East and a West configuration make a solution exactly when no diagonal holds a queen
//!   of each. Only the diagonals that cross the vertical midline can, `2n - 2` of them: each
//!   configuration keeps those it uses as a `u64` *signature*, and the unit's count is the
//!   number of (East, West) pairs with disjoint signatures ([`disjoint_pairs`]).
//!
//! One table lists every placement inside an `h × (n - h)` rectangle (any subset of ranks, one
//! queen per rank and per file at most), grouped by (rank set, file set); the four quadrants
//! are reflections of that rectangle (West ones use file sets that avoid the rectangle's first
//! file when `n` is odd). The up-down flip maps the units `R` to `flip(R)`, and for even `n` the
//! left-right mirror maps `R` to its complement: only the smallest unit of each orbit is
//! counted, times the orbit's size. See docs/bits.md.

use rayon::prelude::*;

/// The largest board counted this way (memory: n = 23 needs an 11 × 12 table).
pub(super) const MAX_N: usize = 23;

/// Signature bits counted per chunk in [`disjoint_pairs`]: a chunk table holds the ORs of the
/// `2^CHUNK` subsets of one chunk's transposed bit vectors.
const CHUNK: usize = 5;

/// Entries per transposed block: 512 bits, one AVX-512 register.
const BLOCK: usize = 512;

/// Below this many entries on the shorter side, pairs are tested one by one.
const SHORT: usize = 24;

/// A placement of one quadrant, in board coordinates: the sum diagonals `r + c` and the
/// difference diagonals `r - c + n - 1` it takes (`2n - 1` bits each), and its signature.
#[derive(Clone, Copy, Debug, Default)]
struct Piece {
    s: u64,
    d: u64,
    sig: u64,
}

/// The four quadrants, as reflections of the table's rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quad {
    NorthEast,
    SouthEast,
    NorthWest,
    SouthWest,
}

/// The cut of the board.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    n: usize,
    /// Ranks of North (and South), files of West.
    h: usize,
    /// Files of East (`n - h`): the rectangle is `h` ranks by `e` files.
    e: usize,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        assert!((4..=MAX_N).contains(&n), "quadrants take 4..={MAX_N}");
        Geometry {
            n,
            h: n / 2,
            e: n - n / 2,
        }
    }

    /// `x` (a mask of `2n - 1` diagonals) with diagonal `k` moved to `2n - 2 - k`.
    fn rev(&self, x: u64) -> u64 {
        x.reverse_bits() >> (65 - 2 * self.n)
    }

    /// The diagonals crossing the vertical midline, in `2n - 2` bits: sums `h..=n + h - 2`,
    /// then differences `n - h..=2n - 2 - h`.
    fn signature(&self, s: u64, d: u64) -> u64 {
        let (n, h) = (self.n, self.h);
        let m = (1u64 << (n - 1)) - 1;
        ((s >> h) & m) | (((d >> (n - h)) & m) << (n - 1))
    }

    fn piece(&self, s: u64, d: u64) -> Piece {
        Piece {
            s,
            d,
            sig: self.signature(s, d),
        }
    }

    /// A table entry (local sums in the low half, local differences `i - j + e - 1` in the
    /// high half) placed in quadrant `q`.
    fn place(&self, q: Quad, entry: u64) -> Piece {
        let h = self.h;
        let ls = entry & 0xffff_ffff;
        let ld = entry >> 32;
        let (s, d) = match q {
            Quad::NorthEast => (ls << h, ld),
            Quad::SouthEast => (self.rev(ld), self.rev(ls << h)),
            Quad::NorthWest => (ld, ls << h),
            Quad::SouthWest => (self.rev(ls << h), self.rev(ld)),
        };
        self.piece(s, d)
    }

    /// A queen on board rank `r`, file `c`.
    fn queen(&self, r: usize, c: usize) -> Piece {
        self.piece(1 << (r + c), 1 << (r + self.n - 1 - c))
    }

    /// The table's files usable by a half: all of them for East, and for West (mirrored) all
    /// but the first when `n` is odd.
    fn files(&self, west: bool) -> u32 {
        let all = (1u32 << self.e) - 1;
        if west && self.e > self.h {
            all & !1
        } else {
            all
        }
    }

    /// Board file of the rectangle's file `j` in half `west`.
    fn board_file(&self, west: bool, j: usize) -> usize {
        if west {
            self.n - 1 - self.h - j
        } else {
            self.h + j
        }
    }
}

/// Every placement inside the `h × e` rectangle, grouped by (rank set, file set): the entries
/// of key `ranks << e | files` are `entries[start[key]..start[key + 1]]`.
struct Table {
    e: usize,
    start: Vec<u32>,
    entries: Vec<u64>,
}

impl Table {
    fn new(g: Geometry) -> Table {
        let (h, e) = (g.h, g.e);
        // Depth-first over the ranks: skip rank i, or put a queen on an open file.
        fn walk<F: FnMut(usize, u64)>(
            h: usize,
            e: usize,
            i: usize,
            (rows, cols, s, d): (u32, u32, u32, u32),
            leaf: &mut F,
        ) {
            if i == h {
                leaf(
                    (rows as usize) << e | cols as usize,
                    u64::from(s) | u64::from(d) << 32,
                );
                return;
            }
            walk(h, e, i + 1, (rows, cols, s, d), leaf);
            for j in 0..e {
                let (bs, bd) = (1u32 << (i + j), 1u32 << (i + e - 1 - j));
                if cols >> j & 1 == 0 && s & bs == 0 && d & bd == 0 {
                    walk(
                        h,
                        e,
                        i + 1,
                        (rows | 1 << i, cols | 1 << j, s | bs, d | bd),
                        leaf,
                    );
                }
            }
        }
        let keys = 1usize << (h + e);
        // Split over rank 0 (empty or on file j), so the two passes run in parallel, unless
        // the per-seed group counters would take more than 256 MB (n = 23): then one seed.
        type State = (u32, u32, u32, u32);
        let seeds: Vec<(usize, State)> = if keys * (e + 1) <= 1 << 26 {
            std::iter::once((1, (0, 0, 0, 0)))
                .chain((0..e).map(|j| (1, (1, 1 << j, 1 << j, 1 << (e - 1 - j)))))
                .collect()
        } else {
            vec![(0, (0, 0, 0, 0))]
        };
        let run = |(i, st): (usize, State), leaf: &mut dyn FnMut(usize, u64)| {
            walk(h, e, i, st, &mut |k, p| leaf(k, p));
        };
        let mut counts: Vec<Vec<u32>> = seeds
            .par_iter()
            .map(|&st| {
                let mut c = vec![0u32; keys];
                run(st, &mut |k, _| c[k] += 1);
                c
            })
            .collect();
        // Group k starts after groups 0..k; within it, seed f writes after seeds 0..f: turn
        // the counts into those cursors in place.
        let mut start = vec![0u32; keys + 1];
        let mut total = 0u64;
        for k in 0..keys {
            start[k] = u32::try_from(total).expect("table over 2^32 entries");
            for c in counts.iter_mut() {
                let here = u64::from(c[k]);
                c[k] = u32::try_from(total).expect("table over 2^32 entries");
                total += here;
            }
        }
        start[keys] = u32::try_from(total).expect("table over 2^32 entries");
        let mut entries = vec![0u64; total as usize];
        let cursors = counts;
        struct Out(*mut u64);
        // SAFETY: the seeds write disjoint slots (their cursors cover disjoint ranges).
        unsafe impl Sync for Out {}
        unsafe impl Send for Out {}
        let out = Out(entries.as_mut_ptr());
        let out = &out;
        seeds
            .par_iter()
            .zip(cursors.into_par_iter())
            .for_each(|(&st, mut cur)| {
                run(st, &mut |k, p| {
                    // SAFETY: slot cur[k] lies in this seed's range of group k, inside
                    // `entries`, and no other seed writes it.
                    unsafe { out.0.add(cur[k] as usize).write(p) };
                    cur[k] += 1;
                });
            });
        Table { e, start, entries }
    }

    fn group(&self, ranks: u32, files: u32) -> &[u64] {
        let k = (ranks as usize) << self.e | files as usize;
        &self.entries[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// The units of work: orbit representatives `R` (board rank sets whose queen is East) with the
/// size of their orbit, in increasing order, and the table.
pub(super) struct Plan {
    g: Geometry,
    table: Table,
    units: Vec<(u32, u8)>,
}

/// Scratch buffers of [`Plan::join`], kept by a worker across units.
#[derive(Default)]
pub(super) struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    north: Vec<Piece>,
    north_ok: Vec<Piece>,
    south: Vec<Piece>,
    pairs: Pairs,
}

impl Plan {
    pub(super) fn new(n: usize) -> Plan {
        let g = Geometry::new(n);
        let flip = |r: u32| r.reverse_bits() >> (32 - n);
        let full = (1u32 << n) - 1;
        let mut units = Vec::new();
        for r in (0..=full).filter(|r| r.count_ones() as usize == g.e) {
            let mut orbit = vec![r, flip(r)];
            if n.is_multiple_of(2) {
                orbit.push(full ^ r);
                orbit.push(full ^ flip(r));
            }
            if orbit.iter().all(|&o| o >= r) {
                orbit.sort_unstable();
                orbit.dedup();
                units.push((r, orbit.len() as u8));
            }
        }
        Plan {
            g,
            table: Table::new(g),
            units,
        }
    }

    /// The number of units of work (orbit representatives).
    pub(super) fn len(&self) -> usize {
        self.units.len()
    }

    /// Counts unit `i`: (solutions counted for its whole orbit, pairs of signatures tested).
    pub(super) fn join(&self, i: usize, scratch: &mut Scratch) -> (u128, u64) {
        let (r, weight) = self.units[i];
        let [(en, es, east_mid), (wn, ws, west_mid)] = self.half_ranks(r);
        let mut east = std::mem::take(&mut scratch.east);
        let mut west = std::mem::take(&mut scratch.west);
        self.half(false, en, es, east_mid, &mut east, scratch);
        let found = if east.is_empty() {
            0
        } else {
            self.half(true, wn, ws, west_mid, &mut west, scratch);
            scratch.pairs.count(&east, &west)
        };
        let tested = (east.len() as u64).saturating_mul(west.len() as u64);
        scratch.east = east;
        scratch.west = west;
        (u128::from(found) * u128::from(weight), tested)
    }

    /// The ranks of unit `r` (the board ranks whose queen stands East) as [`Plan::half`]
    /// takes them, for the East half then the West half: (table ranks in the North quadrant,
    /// table ranks in the South quadrant, whether the middle rank's queen is in this half).
    fn half_ranks(&self, r: u32) -> [(u32, u32, bool); 2] {
        let g = self.g;
        let n = g.n;
        let north_mask = (1u32 << g.h) - 1;
        // The table's rank i is board rank i (North) or n - 1 - i (South).
        let flip = |x: u32| x.reverse_bits() >> (32 - n);
        let mid = n % 2 == 1;
        let east_mid = mid && r >> g.h & 1 == 1;
        let rest = ((1u32 << n) - 1) ^ r;
        [
            (r & north_mask, flip(r) & north_mask, east_mid),
            (rest & north_mask, flip(rest) & north_mask, mid && !east_mid),
        ]
    }

    /// The signatures of every configuration of one half: table ranks `north` in the North
    /// quadrant, `south` in the South one (flipped), the middle rank's queen if `mid`.
    fn half(
        &self,
        west: bool,
        north: u32,
        south: u32,
        mid: bool,
        out: &mut Vec<u64>,
        s: &mut Scratch,
    ) {
        let g = self.g;
        out.clear();
        let files = g.files(west);
        let (qn, qs) = if west {
            (Quad::NorthWest, Quad::SouthWest)
        } else {
            (Quad::NorthEast, Quad::SouthEast)
        };
        let k = north.count_ones();
        for c in subsets(files, k) {
            let top = self.table.group(north, c);
            if top.is_empty() {
                continue;
            }
            s.north.clear();
            s.north.extend(top.iter().map(|&p| g.place(qn, p)));
            let left = files & !c;
            if mid {
                let mut m = left;
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let bottom = self.table.group(south, left & !(1 << j));
                    if bottom.is_empty() {
                        continue;
                    }
                    let q = g.queen(g.h, g.board_file(west, j));
                    s.north_ok.clear();
                    s.north_ok.extend(
                        s.north
                            .iter()
                            .filter(|p| p.s & q.s == 0 && p.d & q.d == 0)
                            .map(|p| Piece {
                                s: p.s | q.s,
                                d: p.d | q.d,
                                sig: p.sig | q.sig,
                            }),
                    );
                    if s.north_ok.is_empty() {
                        continue;
                    }
                    s.south.clear();
                    s.south.extend(bottom.iter().map(|&p| g.place(qs, p)));
                    join_pieces(&s.north_ok, &s.south, out);
                }
            } else {
                let bottom = self.table.group(south, left);
                if bottom.is_empty() {
                    continue;
                }
                s.south.clear();
                s.south.extend(bottom.iter().map(|&p| g.place(qs, p)));
                join_pieces(&s.north, &s.south, out);
            }
        }
    }
}

/// Appends the signature of every compatible (a, b) pair.
fn join_pieces(a: &[Piece], b: &[Piece], out: &mut Vec<u64>) {
    for x in a {
        // Branch-free: write every pair, keep those that fit.
        out.reserve(b.len());
        let mut len = out.len();
        let base = out.as_mut_ptr();
        for y in b {
            // SAFETY: at most b.len() values are written past the old length, within the
            // capacity reserved above.
            unsafe { base.add(len).write(x.sig | y.sig) };
            len += usize::from((x.s & y.s) | (x.d & y.d) == 0);
        }
        // SAFETY: the first `len` values are initialised.
        unsafe { out.set_len(len) };
    }
}

/// The subsets of `set` with `k` elements, in increasing order.
fn subsets(set: u32, k: u32) -> impl Iterator<Item = u32> {
    // Index space: the k-subsets of 0..popcount(set), Gosper's hack, mapped through `set`.
    let w = set.count_ones();
    let mut x: u64 = if k > w { u64::MAX } else { (1u64 << k) - 1 };
    let end = 1u64 << w;
    std::iter::from_fn(move || {
        if x >= end {
            return None;
        }
        let cur = x;
        if k == 0 {
            x = end;
        } else {
            let c = x & x.wrapping_neg();
            let r = x + c;
            x = (((r ^ x) >> 2) / c) | r;
        }
        Some(deposit(cur as u32, set))
    })
}

/// Scatters the low bits of `x` to the positions of the set bits of `mask` (PDEP).
fn deposit(mut x: u32, mask: u32) -> u32 {
    let mut out = 0;
    let mut m = mask;
    while m != 0 && x != 0 {
        let b = m & m.wrapping_neg();
        m ^= b;
        if x & 1 != 0 {
            out |= b;
        }
        x >>= 1;
    }
    out
}

/// The transposed blocks and chunk tables of [`Pairs::count`], and the sieved lists, kept
/// across calls.
#[derive(Default)]
pub(super) struct Pairs {
    tables: Vec<[u64; 8]>,
    long: Vec<u64>,
    short: Vec<u64>,
    long_start: Vec<usize>,
    short_start: Vec<usize>,
}

/// The sieve aims at buckets of about this many signatures on the blocked side (a bucket's
/// last block is partial: smaller buckets waste more of their blocks).
const SIEVE_BUCKET: usize = 128;

/// At most this many sieve bits.
const MAX_SIEVE: u32 = 7;

impl Pairs {
    /// The number of pairs `(x, y)`, `x` in `a`, `y` in `b`, with `x & y == 0`.
    ///
    /// The longer list is cut into blocks of [`BLOCK`] signatures, bit-transposed, with chunk
    /// tables of ORs; the shorter one is scanned against each block. A few *sieve* bits (those
    /// most often set in both lists) bucket both lists first: a block of the bucket with sieve
    /// bits `a` only meets the buckets `u` with `u & a == 0`, and the sieve bits are dropped
    /// from the signatures that remain to be tested.
    fn count(&mut self, a: &[u64], b: &[u64]) -> u64 {
        let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        if short.len().min(long.len()) < SHORT {
            return naive(short, long);
        }
        let used = long.iter().chain(short).fold(0, |acc, &x| acc | x);
        let k = ((long.len() / SIEVE_BUCKET).max(1).ilog2())
            .min(MAX_SIEVE)
            .min(used.count_ones());
        let key = sieve_bits(long, short, used, k);
        let rest = used & !key;
        let chunks = (rest.count_ones() as usize).div_ceil(CHUNK).max(1);
        bucket(long, key, rest, &mut self.long, &mut self.long_start);
        bucket(short, key, rest, &mut self.short, &mut self.short_start);
        self.tables.resize(chunks << CHUNK, [0; 8]);
        let all = (1usize << k) - 1;
        let mut total = 0u64;
        for ka in 0..=all {
            let group = &self.long[self.long_start[ka]..self.long_start[ka + 1]];
            let free = all & !ka;
            for block in group.chunks(BLOCK) {
                build_tables(block, chunks, &mut self.tables);
                let mut u = free;
                loop {
                    let ys = &self.short[self.short_start[u]..self.short_start[u + 1]];
                    if !ys.is_empty() {
                        total += scan(&self.tables, chunks, ys);
                    }
                    if u == 0 {
                        break;
                    }
                    u = (u - 1) & free;
                }
            }
        }
        total
    }
}

/// The `k` bits of `used` most often set in both lists (the product of their frequencies,
/// estimated on a sample), as a mask.
fn sieve_bits(long: &[u64], short: &[u64], used: u64, k: u32) -> u64 {
    if k == 0 {
        return 0;
    }
    let freq = |v: &[u64]| {
        let step = (v.len() / 256).max(1);
        let mut f = [0u32; 64];
        for &x in v.iter().step_by(step) {
            for (b, c) in f.iter_mut().enumerate() {
                *c += (x >> b & 1) as u32;
            }
        }
        let m = v.iter().step_by(step).count() as f64;
        f.map(|c| f64::from(c) / m)
    };
    let (fl, fs) = (freq(long), freq(short));
    let mut bits: Vec<usize> = (0..64).filter(|&b| used >> b & 1 == 1).collect();
    bits.sort_by(|&x, &y| (fl[y] * fs[y]).total_cmp(&(fl[x] * fs[x])).then(x.cmp(&y)));
    bits.iter().take(k as usize).fold(0, |m, &b| m | 1 << b)
}

/// Sorts `src` into buckets by the bits `key` (gathered to the low bits), keeping of each
/// signature only the bits `rest` (gathered to the low bits): bucket `u` is
/// `out[start[u]..start[u + 1]]`.
fn bucket(src: &[u64], key: u64, rest: u64, out: &mut Vec<u64>, start: &mut Vec<usize>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2.
        unsafe { bucket_bmi2(src, key, rest, out, start) };
        return;
    }
    bucket_with(src, key, rest, out, start, pext_plain);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn bucket_bmi2(src: &[u64], key: u64, rest: u64, out: &mut Vec<u64>, start: &mut Vec<usize>) {
    use std::arch::x86_64::_pext_u64;
    bucket_with(src, key, rest, out, start, |x, m| _pext_u64(x, m));
}

#[inline(always)]
fn bucket_with(
    src: &[u64],
    key: u64,
    rest: u64,
    out: &mut Vec<u64>,
    start: &mut Vec<usize>,
    pext: impl Fn(u64, u64) -> u64,
) {
    let buckets = 1usize << key.count_ones();
    start.clear();
    start.resize(buckets + 1, 0);
    for &x in src {
        start[pext(x, key) as usize + 1] += 1;
    }
    for u in 0..buckets {
        start[u + 1] += start[u];
    }
    out.clear();
    out.resize(src.len(), 0);
    // Fill with a cursor per bucket (start[u] moves to the bucket's end, then back).
    for &x in src {
        let u = pext(x, key) as usize;
        out[start[u]] = pext(x, rest);
        start[u] += 1;
    }
    for u in (1..=buckets).rev() {
        start[u] = start[u - 1];
    }
    start[0] = 0;
}

/// The bits of `x` at the positions of `mask`, gathered to the low bits (BMI2's PEXT).
fn pext_plain(x: u64, mask: u64) -> u64 {
    let (mut out, mut m, mut i) = (0u64, mask, 0);
    while m != 0 {
        let b = m.trailing_zeros();
        m &= m - 1;
        out |= (x >> b & 1) << i;
        i += 1;
    }
    out
}

/// Pairs tested one by one.
fn naive(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().filter(|&&y| x & y == 0).count() as u64)
        .sum()
}

/// Transposes `block` (at most [`BLOCK`] signatures) into bit vectors and fills, for each chunk
/// `c` of [`CHUNK`] signature bits and each subset `s` of it, `tables[c << CHUNK | s]` with the
/// OR of the bit vectors of `s`: bit `j` is set when entry `j` has a bit of `s`. Slots past the
/// block's end are marked in every entry of chunk 0, so they never count as disjoint.
fn build_tables(block: &[u64], chunks: usize, tables: &mut [[u64; 8]]) {
    let size = 1usize << CHUNK;
    // Singletons first: tables[c << CHUNK | 1 << i] is the vector of bit c * CHUNK + i.
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { transpose_avx512(block, chunks, tables) };
    } else {
        transpose_plain(block, chunks, tables);
    }
    #[cfg(not(target_arch = "x86_64"))]
    transpose_plain(block, chunks, tables);
    let mut pad = [0u64; 8];
    for j in block.len()..BLOCK {
        pad[j / 64] |= 1 << (j % 64);
    }
    for c in 0..chunks {
        let t = &mut tables[c * size..(c + 1) * size];
        t[0] = if c == 0 { pad } else { [0; 8] };
        for s in 1..size {
            let low = s & (s - 1);
            if low == 0 {
                // A singleton: its vector, plus the padding for chunk 0.
                if c == 0 {
                    for w in 0..8 {
                        t[s][w] |= pad[w];
                    }
                }
                continue;
            }
            let top = s & s.wrapping_neg();
            let (l, tp) = (t[low], t[top]);
            t[s] = std::array::from_fn(|w| l[w] | tp[w]);
        }
    }
}

/// The singleton slots of [`build_tables`], one bit at a time.
fn transpose_plain(block: &[u64], chunks: usize, tables: &mut [[u64; 8]]) {
    for c in 0..chunks {
        for i in 0..CHUNK {
            tables[c << CHUNK | 1 << i] = [0; 8];
        }
    }
    for (j, &x) in block.iter().enumerate() {
        let (w, bit) = (j / 64, 1u64 << (j % 64));
        let mut m = x;
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            if b < chunks * CHUNK {
                tables[(b / CHUNK) << CHUNK | 1 << (b % CHUNK)][w] |= bit;
            }
        }
    }
}

/// The singleton slots of [`build_tables`] with AVX-512: for 64 signatures at a time, a byte
/// permutation and a qword transpose put byte `k` of all 64 in one register, whose bit `i` of
/// every byte is then collected by a shift and `vpmovb2m` into the word of bit `8k + i`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[allow(clippy::needless_range_loop)] // w, g, k index several arrays at once
fn transpose_avx512(block: &[u64], chunks: usize, tables: &mut [[u64; 8]]) {
    use std::arch::x86_64::*;
    let bits = chunks * CHUNK;
    let bytes = bits.div_ceil(8).min(8);
    // Output byte 8k + e is input byte 8e + k: qword k holds byte k of the 8 signatures.
    let idx: [u8; 64] = std::array::from_fn(|o| ((o % 8) * 8 + o / 8) as u8);
    // SAFETY: 64 bytes.
    let idx = unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) };
    for w in 0..BLOCK / 64 {
        let lo = (w * 64).min(block.len());
        let hi = (w * 64 + 64).min(block.len());
        let mut buf = [0u64; 64];
        buf[..hi - lo].copy_from_slice(&block[lo..hi]);
        // tmp[g][k]: byte k of the signatures 8g..8g + 8 (of this word's 64).
        let mut tmp = [[0u64; 8]; 8];
        for g in 0..8 {
            // SAFETY: 8 u64 in and out.
            unsafe {
                let v = _mm512_loadu_si512(buf[8 * g..].as_ptr().cast());
                _mm512_storeu_si512(tmp[g].as_mut_ptr().cast(), _mm512_permutexvar_epi8(idx, v));
            }
        }
        for k in 0..bytes {
            let y: [u64; 8] = std::array::from_fn(|g| tmp[g][k]);
            // SAFETY: 8 u64.
            let y = unsafe { _mm512_loadu_si512(y.as_ptr().cast()) };
            // Byte 8g + e of y is byte k of signature 8g + e.
            let mut shifted = y;
            for i in (0..8).rev() {
                let b = 8 * k + i;
                // The top bit of each byte is bit i of the byte after shifting by 7 - i.
                if b < bits {
                    let word = _mm512_movepi8_mask(shifted);
                    tables[(b / CHUNK) << CHUNK | 1 << (b % CHUNK)][w] = word;
                }
                shifted = _mm512_add_epi8(shifted, shifted);
            }
        }
        for b in 8 * bytes..bits {
            tables[(b / CHUNK) << CHUNK | 1 << (b % CHUNK)][w] = 0;
        }
    }
}

/// Sum over `ys` of the entries of the block that share no bit with `y`.
fn scan(tables: &[[u64; 8]], chunks: usize, ys: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vpopcntdq") {
            // SAFETY: the CPU has the features the function was compiled for.
            return unsafe { scan_avx512(tables, chunks, ys) };
        }
        if is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { scan_avx2(tables, chunks, ys) };
        }
    }
    scan_plain(tables, chunks, ys)
}

macro_rules! scan_body {
    ($tables:expr, $chunks:expr, $ys:expr) => {{
        let (tables, chunks, ys): (&[[u64; 8]], usize, &[u64]) = ($tables, $chunks, $ys);
        let mask = (1u64 << CHUNK) - 1;
        let mut total = 0u64;
        for &y in ys {
            let mut acc = tables[(y & mask) as usize];
            for c in 1..chunks {
                let t = &tables[c << CHUNK | ((y >> (c * CHUNK)) & mask) as usize];
                for w in 0..8 {
                    acc[w] |= t[w];
                }
            }
            let ones: u32 = acc.iter().map(|w| w.count_ones()).sum();
            total += u64::from(BLOCK as u32 - ones);
        }
        total
    }};
}

fn scan_plain(tables: &[[u64; 8]], chunks: usize, ys: &[u64]) -> u64 {
    scan_body!(tables, chunks, ys)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn scan_avx2(tables: &[[u64; 8]], chunks: usize, ys: &[u64]) -> u64 {
    scan_body!(tables, chunks, ys)
}

/// [`scan`] with AVX-512: one register per block, `vpopcntq` for the count.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
fn scan_avx512(tables: &[[u64; 8]], chunks: usize, ys: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    let mask = (1u64 << CHUNK) - 1;
    let base = tables.as_ptr();
    let mut sum = _mm512_setzero_si512();
    let mut n = 0u64;
    for &y in ys {
        // SAFETY: every index is below chunks << CHUNK <= tables.len(); unaligned loads.
        unsafe {
            let mut acc = _mm512_loadu_si512(base.add((y & mask) as usize).cast());
            for c in 1..chunks {
                let t = base.add(c << CHUNK | ((y >> (c * CHUNK)) & mask) as usize);
                acc = _mm512_or_si512(acc, _mm512_loadu_si512(t.cast()));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(acc));
        }
        n += 1;
    }
    let ones = _mm512_reduce_add_epi64(sum) as u64;
    n * BLOCK as u64 - ones
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_give_the_oeis_totals() {
        let oeis = [2u128, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
        for (i, &want) in oeis.iter().enumerate() {
            let n = i + 4;
            let plan = Plan::new(n);
            let mut scratch = Scratch::default();
            let got: u128 = (0..plan.len()).map(|k| plan.join(k, &mut scratch).0).sum();
            assert_eq!(got, want, "n={n}");
        }
    }

    #[test]
    fn transposes_agree() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let v: Vec<u64> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        for (len, chunks) in [
            (512, 13),
            (511, 8),
            (64, 7),
            (65, 1),
            (1, 9),
            (300, 2),
            (0, 3),
        ] {
            let mut t1 = vec![[7u64; 8]; chunks << CHUNK];
            let mut t2 = t1.clone();
            let block = &v[..len];
            transpose_plain(block, chunks, &mut t1);
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") {
                // SAFETY: the CPU has the features.
                unsafe { transpose_avx512(block, chunks, &mut t2) };
                assert_eq!(t1, t2, "len={len} chunks={chunks}");
            }
            // Bit b of entry j is in the singleton of bit b.
            for (j, &e) in block.iter().enumerate() {
                for b in 0..(chunks * CHUNK).min(64) {
                    let got = t1[(b / CHUNK) << CHUNK | 1 << (b % CHUNK)][j / 64] >> (j % 64) & 1;
                    assert_eq!(got, e >> b & 1);
                }
            }
        }
    }

    #[test]
    fn subsets_are_all_k_subsets_in_order() {
        for set in [0u32, 0b1, 0b1011_0110, 0x7fe] {
            for k in 0..=set.count_ones() + 1 {
                let got: Vec<u32> = subsets(set, k).collect();
                let want: Vec<u32> = (0..=set)
                    .filter(|&x| x & !set == 0 && x.count_ones() == k)
                    .collect();
                assert_eq!(got, want, "set={set:b} k={k}");
            }
        }
    }

    #[test]
    fn bulk_pair_counts_match_brute_force() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bits: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x.rotate_left(29) & (u64::MAX >> (64 - bits))
        };
        let mut pairs = Pairs::default();
        for (la, lb, bits) in [
            (0, 9, 10),
            (30, 700, 38),
            (513, 40, 44),
            (1100, 1500, 23),
            (25, 1024, 5),
            (600, 600, 64),
            (5000, 3000, 38),
            (2100, 4500, 44),
        ] {
            let a: Vec<u64> = (0..la).map(|_| next(bits)).collect();
            let b: Vec<u64> = (0..lb).map(|_| next(bits)).collect();
            let want = naive(&a, &b);
            assert_eq!(pairs.count(&a, &b), want, "{la} {lb} {bits}");
            assert_eq!(pairs.count(&b, &a), want);
            // Every instruction set on one block.
            let chunks = 64usize.div_ceil(CHUNK);
            let mut t = vec![[0u64; 8]; chunks << CHUNK];
            let blk = &a[..a.len().min(BLOCK)];
            // Bucketing with and without BMI2 agree.
            let (key, rest) = (0x0000_0300_0000_1008u64, 0x0000_00ff_00ff_f0f0u64);
            let (mut o1, mut s1, mut o2, mut s2) = (vec![], vec![], vec![], vec![]);
            bucket(&b, key, rest, &mut o1, &mut s1);
            bucket_with(&b, key, rest, &mut o2, &mut s2, pext_plain);
            assert_eq!((&o1, &s1), (&o2, &s2));
            assert_eq!(s1.len(), 17);
            for u in 0..16 {
                for &x in &o1[s1[u]..s1[u + 1]] {
                    assert_eq!(x & !((1 << 24) - 1), 0);
                }
                let want = b
                    .iter()
                    .filter(|&&x| pext_plain(x, key) == u as u64)
                    .count();
                assert_eq!(s1[u + 1] - s1[u], want);
            }
            build_tables(blk, chunks, &mut t);
            let want = naive(blk, &b);
            assert_eq!(scan_plain(&t, chunks, &b), want);
            assert_eq!(scan(&t, chunks, &b), want);
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                assert_eq!(unsafe { scan_avx2(&t, chunks, &b) }, want);
            }
        }
    }
}

#[cfg(test)]
mod stats {
    use super::*;

    #[test]
    #[ignore]
    fn list_stats() {
        let n: usize = std::env::var("QN")
            .map(|v| v.parse().unwrap())
            .unwrap_or(17);
        let plan = Plan::new(n);
        let mut s = Scratch::default();
        let (mut se, mut sw, mut de, mut dw, mut pairs, mut units) =
            (0u64, 0u64, 0u64, 0u64, 0u128, 0u64);
        let mut t_half = std::time::Duration::ZERO;
        let mut t_count = std::time::Duration::ZERO;
        let step = (plan.len() / 300).max(1);
        for i in (0..plan.len()).step_by(step) {
            let (r, _) = plan.units[i];
            let [(en, es, east_mid), (wn, ws, west_mid)] = plan.half_ranks(r);
            let mut east = Vec::new();
            let mut west = Vec::new();
            let t = std::time::Instant::now();
            plan.half(false, en, es, east_mid, &mut east, &mut s);
            plan.half(true, wn, ws, west_mid, &mut west, &mut s);
            t_half += t.elapsed();
            let t = std::time::Instant::now();
            pairs += u128::from(s.pairs.count(&east, &west));
            t_count += t.elapsed();
            se += east.len() as u64;
            sw += west.len() as u64;
            east.sort_unstable();
            east.dedup();
            west.sort_unstable();
            west.dedup();
            de += east.len() as u64;
            dw += west.len() as u64;
            units += 1;
        }
        println!(
            "n={n} units={} sampled={units} avg E={} W={} distinct E={} W={} sols/unit={} half={:?} count={:?}",
            plan.len(),
            se / units,
            sw / units,
            de / units,
            dw / units,
            pairs / u128::from(units),
            t_half,
            t_count
        );
    }
}

#[cfg(test)]
mod micro {
    use super::*;

    #[test]
    #[ignore]
    fn build_cost() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let v: Vec<u64> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & x.rotate_left(7) & ((1u64 << 33) - 1)
            })
            .collect();
        let chunks = 7;
        let mut t = vec![[0u64; 8]; chunks << CHUNK];
        let s = std::time::Instant::now();
        for _ in 0..20000 {
            build_tables(std::hint::black_box(&v), chunks, &mut t);
        }
        println!("build {:?} per block", s.elapsed() / 20000);
        let s = std::time::Instant::now();
        let mut tot = 0;
        for _ in 0..200 {
            tot += scan(&t, chunks, std::hint::black_box(&v));
        }
        println!("scan {:?} per entry {tot}", s.elapsed() / 200 / 512);
    }
}
