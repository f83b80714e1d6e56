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

    /// The diagonals on which a North piece of half `west` (with the middle rank's queen, for
    /// odd `n`) and a South piece of the same half can meet: the only ones the join of the two
    /// tests ([`Window`]).
    fn window(&self, west: bool) -> Window {
        let (n, h) = (self.n, self.h);
        let files = if west { 0..h } else { h..n };
        let (mut north, mut south) = ((0u64, 0u64), (0u64, 0u64));
        for c in files {
            for r in 0..n {
                let q = self.queen(r, c);
                if r < n - h {
                    north = (north.0 | q.s, north.1 | q.d);
                } else {
                    south = (south.0 | q.s, south.1 | q.d);
                }
            }
        }
        let range = |m: u64| {
            let lo = m.trailing_zeros();
            let width = 64 - m.leading_zeros() - lo;
            assert!(width <= 32 && m >> lo == (1u64 << width) - 1);
            (lo, (1u64 << width) - 1)
        };
        let (ls, ms) = range(north.0 & south.0);
        let (ld, md) = range(north.1 & south.1);
        Window { ls, ms, ld, md }
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

/// The sum diagonals `ls..ls + width` (mask `ms` after the shift) and difference diagonals
/// `ld..` (mask `md`) shared by the North and South pieces of a half, packed into one `u64`
/// per piece (sums low, differences from bit 32): two pieces of a half attack each other
/// exactly when their keys share a bit.
#[derive(Clone, Copy, Debug)]
struct Window {
    ls: u32,
    ms: u64,
    ld: u32,
    md: u64,
}

impl Window {
    fn key(&self, p: &Piece) -> u64 {
        ((p.s >> self.ls) & self.ms) | ((p.d >> self.ld) & self.md) << 32
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
    /// The join windows of the East and the West half.
    windows: [Window; 2],
    table: Table,
    units: Vec<(u32, u8)>,
}

/// Scratch buffers of [`Plan::join`], kept by a worker across units.
#[derive(Default)]
pub(super) struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    north: Placed,
    north_ok: Placed,
    south: Placed,
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
            windows: [g.window(false), g.window(true)],
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
        let win = self.windows[usize::from(west)];
        let k = north.count_ones();
        for c in subsets(files, k) {
            let top = self.table.group(north, c);
            if top.is_empty() {
                continue;
            }
            place(g, win, qn, top, &mut s.north, mid);
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
                    s.north_ok.filter_from(&s.north, q, win.key(&q));
                    if s.north_ok.key.is_empty() {
                        continue;
                    }
                    place(g, win, qs, bottom, &mut s.south, false);
                    join_pieces(&s.north_ok, &s.south, out);
                }
            } else {
                let bottom = self.table.group(south, left);
                if bottom.is_empty() {
                    continue;
                }
                place(g, win, qs, bottom, &mut s.south, false);
                join_pieces(&s.north, &s.south, out);
            }
        }
    }
}

/// Placed pieces of a quadrant group, as columns: join keys and signatures, and (when asked
/// for) the board diagonals `s` and `d`.
#[derive(Default)]
struct Placed {
    key: Vec<u64>,
    sig: Vec<u64>,
    s: Vec<u64>,
    d: Vec<u64>,
}

impl Placed {
    /// The pieces of `from` (with diagonals) that do not attack the queen `q` (join key
    /// `qk`), each with `q` added; keys and signatures only.
    fn filter_from(&mut self, from: &Placed, q: Piece, qk: u64) {
        self.key.clear();
        self.sig.clear();
        for i in 0..from.key.len() {
            if from.s[i] & q.s == 0 && from.d[i] & q.d == 0 {
                self.key.push(from.key[i] | qk);
                self.sig.push(from.sig[i] | q.sig);
            }
        }
    }
}

/// Places the table entries `group` in quadrant `q` into `out` (replacing it): join keys,
/// signatures and, if `diagonals`, the board diagonals.
fn place(g: Geometry, win: Window, q: Quad, group: &[u64], out: &mut Placed, diagonals: bool) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("gfni") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { place_avx512(g, win, q, group, out, diagonals) };
        return;
    }
    place_plain(g, win, q, group, out, diagonals);
}

fn place_plain(
    g: Geometry,
    win: Window,
    q: Quad,
    group: &[u64],
    out: &mut Placed,
    diagonals: bool,
) {
    out.key.clear();
    out.sig.clear();
    out.s.clear();
    out.d.clear();
    for &e in group {
        let p = g.place(q, e);
        out.key.push(win.key(&p));
        out.sig.push(p.sig);
        if diagonals {
            out.s.push(p.s);
            out.d.push(p.d);
        }
    }
}

/// [`place`] eight entries at a time: the bit reversals of the flipped quadrants are a GFNI
/// affine map (bits within bytes) and a byte shuffle.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn place_avx512(
    g: Geometry,
    win: Window,
    q: Quad,
    group: &[u64],
    out: &mut Placed,
    diagonals: bool,
) {
    use std::arch::x86_64::*;
    let len = group.len();
    for v in [&mut out.key, &mut out.sig, &mut out.s, &mut out.d] {
        v.clear();
        v.reserve(len + 8);
    }
    let (n, h) = (g.n as u64, g.h as u64);
    let cnt = |c: u64| _mm512_set1_epi64(c as i64);
    let lo32 = cnt(0xffff_ffff);
    let rev_bits = cnt(0x8040_2010_0804_0201);
    let rev_bytes_idx: [u8; 64] = std::array::from_fn(|i| ((i / 8) * 8 + 7 - i % 8) as u8);
    // SAFETY: 64 bytes.
    let rev_bytes = unsafe { _mm512_loadu_si512(rev_bytes_idx.as_ptr().cast()) };
    let rev_shift = cnt(65 - 2 * n);
    let rev = |x: __m512i| {
        let b = _mm512_gf2p8affine_epi64_epi8(x, rev_bits, 0);
        _mm512_srlv_epi64(_mm512_shuffle_epi8(b, rev_bytes), rev_shift)
    };
    let (sh_h, sh_nh, sh_n1) = (cnt(h), cnt(n - h), cnt(n - 1));
    let m = cnt((1u64 << (n - 1)) - 1);
    let (wls, wms, wld, wmd) = (
        cnt(win.ls.into()),
        cnt(win.ms),
        cnt(win.ld.into()),
        cnt(win.md),
    );
    let c32 = cnt(32);
    let dst = [
        out.key.as_mut_ptr(),
        out.sig.as_mut_ptr(),
        out.s.as_mut_ptr(),
        out.d.as_mut_ptr(),
    ];
    let mut i = 0;
    while i < len {
        let mask: __mmask8 = if len - i >= 8 {
            0xff
        } else {
            (1u16 << (len - i)) as u8 - 1
        };
        // SAFETY: masked loads within `group`, masked stores within the capacity reserved.
        unsafe {
            let e = _mm512_maskz_loadu_epi64(mask, group.as_ptr().add(i).cast());
            let ls = _mm512_and_si512(e, lo32);
            let ld = _mm512_srli_epi64::<32>(e);
            let lsh = _mm512_sllv_epi64(ls, sh_h);
            let (ps, pd) = match q {
                Quad::NorthEast => (lsh, ld),
                Quad::SouthEast => (rev(ld), rev(lsh)),
                Quad::NorthWest => (ld, lsh),
                Quad::SouthWest => (rev(lsh), rev(ld)),
            };
            let sig = _mm512_or_si512(
                _mm512_and_si512(_mm512_srlv_epi64(ps, sh_h), m),
                _mm512_sllv_epi64(_mm512_and_si512(_mm512_srlv_epi64(pd, sh_nh), m), sh_n1),
            );
            let key = _mm512_or_si512(
                _mm512_and_si512(_mm512_srlv_epi64(ps, wls), wms),
                _mm512_sllv_epi64(_mm512_and_si512(_mm512_srlv_epi64(pd, wld), wmd), c32),
            );
            _mm512_mask_storeu_epi64(dst[0].add(i).cast(), mask, key);
            _mm512_mask_storeu_epi64(dst[1].add(i).cast(), mask, sig);
            if diagonals {
                _mm512_mask_storeu_epi64(dst[2].add(i).cast(), mask, ps);
                _mm512_mask_storeu_epi64(dst[3].add(i).cast(), mask, pd);
            }
        }
        i += 8;
    }
    // SAFETY: the first `len` values were written (the diagonals only if asked for).
    unsafe {
        out.key.set_len(len);
        out.sig.set_len(len);
        if diagonals {
            out.s.set_len(len);
            out.d.set_len(len);
        }
    }
}

/// Appends the signature of every compatible pair of a North piece of `a` and a South piece
/// of `b`.
fn join_pieces(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { join_avx512(a, b, out) };
        return;
    }
    join_plain(a, b, out);
}

fn join_plain(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    for (&xk, &xs) in a.key.iter().zip(&a.sig) {
        // Branch-free: write every pair, keep those that fit.
        out.reserve(b.key.len());
        let mut len = out.len();
        let base = out.as_mut_ptr();
        for (&k, &y) in b.key.iter().zip(&b.sig) {
            // SAFETY: at most b.key.len() values are written past the old length, within the
            // capacity reserved above.
            unsafe { base.add(len).write(xs | y) };
            len += usize::from(xk & k == 0);
        }
        // SAFETY: the first `len` values are initialised.
        unsafe { out.set_len(len) };
    }
}

/// [`join_pieces`] with AVX-512: eight South pieces tested per instruction, the signatures
/// of the compatible ones compressed to the front of a register and stored at the end of
/// `out` (a full 8-lane store: the capacity keeps 8 slots of room).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn join_avx512(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    use std::arch::x86_64::*;
    let (keys, sigs) = (&b.key, &b.sig);
    let m = keys.len();
    assert_eq!(m, sigs.len());
    out.reserve(a.key.len() * m + 8);
    let mut len = out.len();
    let base = out.as_mut_ptr();
    let tail = m % 8;
    let full = m - tail;
    let tail_mask: __mmask8 = (1u16 << tail) as u8 - 1;
    for (&xk, &xs) in a.key.iter().zip(&a.sig) {
        let vk = _mm512_set1_epi64(xk as i64);
        let vs = _mm512_set1_epi64(xs as i64);
        let mut i = 0;
        // SAFETY: loads of 8 values at i < full (in bounds), masked loads past it; each
        // store writes 8 slots from len <= old length + pairs so far, within the capacity.
        unsafe {
            while i < full {
                let k = _mm512_loadu_si512(keys.as_ptr().add(i).cast());
                let ok = _mm512_testn_epi64_mask(k, vk);
                let y = _mm512_or_si512(_mm512_loadu_si512(sigs.as_ptr().add(i).cast()), vs);
                _mm512_storeu_si512(base.add(len).cast(), _mm512_maskz_compress_epi64(ok, y));
                len += ok.count_ones() as usize;
                i += 8;
            }
            if tail != 0 {
                let k = _mm512_maskz_loadu_epi64(tail_mask, keys.as_ptr().add(i).cast());
                let ok = _mm512_mask_testn_epi64_mask(tail_mask, k, vk);
                let y = _mm512_or_si512(
                    _mm512_maskz_loadu_epi64(tail_mask, sigs.as_ptr().add(i).cast()),
                    vs,
                );
                _mm512_storeu_si512(base.add(len).cast(), _mm512_maskz_compress_epi64(ok, y));
                len += ok.count_ones() as usize;
            }
        }
    }
    // SAFETY: the first `len` values are initialised.
    unsafe { out.set_len(len) };
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
    fn placements_and_joins_agree() {
        // Every group of the 9-rank tables of n = 17, 18 placed in each quadrant, with
        // AVX-512 and without, and joined both ways.
        for n in [17, 18] {
            let g = Geometry::new(n);
            let table = Table::new(g);
            let mut x = 0x1234_5678_9abc_def1u64;
            for q in [
                Quad::NorthEast,
                Quad::SouthEast,
                Quad::NorthWest,
                Quad::SouthWest,
            ] {
                let win = g.window(matches!(q, Quad::NorthWest | Quad::SouthWest));
                for _ in 0..40 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let ranks = (x as u32) & ((1 << g.h) - 1);
                    let files = (x >> 32) as u32 & ((1 << g.e) - 1);
                    let group = table.group(ranks, files);
                    let (mut p1, mut p2) = (Placed::default(), Placed::default());
                    place_plain(g, win, q, group, &mut p1, true);
                    for (i, &e) in group.iter().enumerate() {
                        let p = g.place(q, e);
                        assert_eq!(
                            (p1.key[i], p1.sig[i], p1.s[i], p1.d[i]),
                            (win.key(&p), p.sig, p.s, p.d)
                        );
                    }
                    #[cfg(target_arch = "x86_64")]
                    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("gfni") {
                        // SAFETY: the CPU has the features.
                        unsafe { place_avx512(g, win, q, group, &mut p2, true) };
                        assert_eq!(
                            (&p1.key, &p1.sig, &p1.s, &p1.d),
                            (&p2.key, &p2.sig, &p2.s, &p2.d)
                        );
                    }
                    let (mut o1, mut o2) = (vec![], vec![]);
                    join_plain(&p1, &p1, &mut o1);
                    join_pieces(&p1, &p1, &mut o2);
                    assert_eq!(o1, o2);
                }
            }
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

#[cfg(test)]
mod analysis {
    use super::*;

    /// Work counts of the parts of a unit on a sample (QN, QSTEP).
    #[test]
    #[ignore]
    fn work_split() {
        let n: usize = std::env::var("QN")
            .map(|v| v.parse().unwrap())
            .unwrap_or(17);
        let plan = Plan::new(n);
        let step: usize = std::env::var("QSTEP")
            .map(|v| v.parse().unwrap())
            .unwrap_or(150);
        let g = plan.g;
        let mut s = Scratch::default();
        let (mut jt, mut js, mut placed) = (0u64, 0u64, 0u64);
        let (mut lanes, mut ideal, mut scans, mut blocks, mut elems) =
            (0u64, 0f64, 0u64, 0u64, 0u64);
        let mut units = 0;
        let mut chunk_hist = [0u64; 16];
        let mut midf = 0u64;
        let mut span = [[(0u64, 0u64); 2]; 6];
        let mut cur_cost = 0u64;
        let _thr: u64 = std::env::var("QTHR")
            .map(|v| v.parse().unwrap())
            .unwrap_or(512);
        fn scans_unit(ls: &[usize], ss: &[usize], k: u32) -> u64 {
            let all = (1usize << k) - 1;
            let mut t = 0u64;
            for ka in 0..=all {
                let nb = (ls[ka + 1] - ls[ka]).div_ceil(BLOCK) as u64;
                let free = all & !ka;
                let mut u = free;
                loop {
                    t += nb * (ss[u + 1] - ss[u]) as u64;
                    if u == 0 {
                        break;
                    }
                    u = (u - 1) & free;
                }
            }
            t
        }
        for i in (0..plan.len()).step_by(step) {
            units += 1;
            let (r, _) = plan.units[i];
            let hr = plan.half_ranks(r);
            let mut lists = [Vec::new(), Vec::new()];
            for (w, &(nr, sr, mid)) in hr.iter().enumerate() {
                let west = w == 1;
                let files = g.files(west);
                for c in subsets(files, nr.count_ones()) {
                    let top = plan.table.group(nr, c).len() as u64;
                    if top == 0 {
                        continue;
                    }
                    placed += top;
                    let left = files & !c;
                    if mid {
                        let mut m = left;
                        while m != 0 {
                            let j = m.trailing_zeros();
                            m &= m - 1;
                            let b = plan.table.group(sr, left & !(1 << j)).len() as u64;
                            placed += b;
                            midf += top;
                            jt += top * b;
                        }
                    } else {
                        let b = plan.table.group(sr, left).len() as u64;
                        placed += b;
                        jt += top * b;
                    }
                }
                plan.half(west, nr, sr, mid, &mut lists[w], &mut s);
                js += lists[w].len() as u64;
            }
            let (a, b) = (&lists[0], &lists[1]);
            let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
            if short.len() < SHORT {
                continue;
            }
            let used = long.iter().chain(short.iter()).fold(0, |acc, &x| acc | x);
            let k = ((long.len() / SIEVE_BUCKET).max(1).ilog2())
                .min(MAX_SIEVE)
                .min(used.count_ones());
            let key = sieve_bits(long, short, used, k);
            let rest = used & !key;
            let chunks = (rest.count_ones() as usize).div_ceil(CHUNK).max(1);
            chunk_hist[chunks] += 1;
            for (vi, &kk) in [9u32, 10, 11, 12, 13, 14].iter().enumerate() {
                for order in 1..2 {
                    let kk = kk.min(used.count_ones());
                    let key2 = sieve_bits(long, short, used, kk);
                    let ch2 = ((used & !key2).count_ones() as usize)
                        .div_ceil(CHUNK)
                        .max(1) as u64;
                    let mut bits: Vec<u32> = (0..64).filter(|&b| key2 >> b & 1 == 1).collect();
                    let f = |b: u32| long.iter().filter(|&&x| x >> b & 1 == 1).count();
                    bits.sort_by_key(|&b| std::cmp::Reverse(f(b)));
                    // key bit i (from the top) = bits[i]; trie splits on bits[0] first.
                    let kf = |x: u64| {
                        bits.iter()
                            .fold(0usize, |a, &b| a << 1 | (x >> b & 1) as usize)
                    };
                    let mut lcount = vec![0u64; 1 << kk];
                    for &x in long.iter() {
                        lcount[kf(x)] += 1;
                    }
                    let mut sh = vec![0u64; 1 << kk];
                    for &y in short.iter() {
                        sh[kf(y)] += 1;
                    }
                    let all = (1usize << kk) - 1;
                    // DP over the trie: cost(node) = min(leaf, split).
                    fn dp(
                        d: u32,
                        v: usize,
                        kk: u32,
                        all: usize,
                        ch: u64,
                        lcount: &[u64],
                        sh: &[u64],
                        split_only_big: bool,
                    ) -> (u64, u64, u64) {
                        let lo = v << (kk - d);
                        let hi = (v + 1) << (kk - d);
                        let size: u64 = lcount[lo..hi].iter().sum();
                        if size == 0 {
                            return (0, 0, 0);
                        }
                        let nb = size.div_ceil(BLOCK as u64);
                        let dmask = (1usize << (kk - d)) - 1;
                        let free = all & !lo;
                        let (mut sc, mut ex) = (0u64, 0u64);
                        let mut u = free;
                        loop {
                            sc += nb * sh[u];
                            if u & dmask != 0 {
                                ex += nb * sh[u];
                            }
                            if u == 0 {
                                break;
                            }
                            u = (u - 1) & free;
                        }
                        let leaf = (sc * ch + ex, sc, ex);
                        if d == kk || (split_only_big && size <= 512) {
                            return leaf;
                        }
                        let a = dp(d + 1, v << 1, kk, all, ch, lcount, sh, split_only_big);
                        let b = dp(d + 1, v << 1 | 1, kk, all, ch, lcount, sh, split_only_big);
                        if a.0 + b.0 < leaf.0 {
                            (a.0 + b.0, a.1 + b.1, a.2 + b.2)
                        } else {
                            leaf
                        }
                    }
                    let (c, sc, _) = if order == 0 {
                        dp(0, 0, kk, all, ch2, &lcount, &sh, false)
                    } else {
                        // greedy per-node bit choice, with zeta sums
                        let mut z = sh.clone();
                        for b in 0..kk {
                            for m in 0..=all {
                                if m >> b & 1 == 1 {
                                    z[m] += z[m ^ (1 << b)];
                                }
                            }
                        }
                        let keys: Vec<usize> = long.iter().map(|&x| kf(x)).collect();
                        fn leaf(
                            size: u64,
                            f: usize,
                            v: usize,
                            all: usize,
                            ch: u64,
                            z: &[u64],
                        ) -> (u64, u64) {
                            if size == 0 {
                                return (0, 0);
                            }
                            let nb = size.div_ceil(BLOCK as u64);
                            let ys = z[all & !v];
                            let fixed_ok = z[f & !v];
                            (
                                nb * (ys * ch + (ys - fixed_ok))
                                    + nb * (1u64 << (all & !v).count_ones()) * 3,
                                nb * ys,
                            )
                        }
                        fn rec(
                            keys: Vec<usize>,
                            f: usize,
                            v: usize,
                            all: usize,
                            ch: u64,
                            z: &[u64],
                        ) -> (u64, u64) {
                            let me = leaf(keys.len() as u64, f, v, all, ch, z);
                            if f == all || keys.is_empty() {
                                return me;
                            }
                            let mut best: Option<(u64, usize)> = None;
                            let mut m = all & !f;
                            while m != 0 {
                                let b = m & m.wrapping_neg();
                                m ^= b;
                                let c1 = keys.iter().filter(|&&x| x & b != 0).count() as u64;
                                let c0 = keys.len() as u64 - c1;
                                let cost = leaf(c0, f | b, v, all, ch, z).0
                                    + leaf(c1, f | b, v | b, all, ch, z).0;
                                if best.is_none_or(|(bc, _)| cost < bc) {
                                    best = Some((cost, b));
                                }
                            }
                            let (_, b) = best.unwrap();
                            let (k1, k0): (Vec<usize>, Vec<usize>) =
                                keys.into_iter().partition(|&x| x & b != 0);
                            let a = rec(k0, f | b, v, all, ch, z);
                            let c = rec(k1, f | b, v | b, all, ch, z);
                            if a.0 + c.0 < me.0 {
                                (a.0 + c.0, a.1 + c.1)
                            } else {
                                me
                            }
                        }
                        let (c, sc) = rec(keys, 0, 0, all, ch2, &z);
                        (c, sc, 0)
                    };
                    span[vi][order].0 += c;
                    span[vi][order].1 += sc;
                }
            }
            let (mut lo, mut ls, mut so, mut ss) = (vec![], vec![], vec![], vec![]);
            bucket(long, key, rest, &mut lo, &mut ls);
            bucket(short, key, rest, &mut so, &mut ss);
            cur_cost += scans_unit(&ls, &ss, k) * chunks as u64;
            let all = (1usize << k) - 1;
            for ka in 0..=all {
                let len = ls[ka + 1] - ls[ka];
                let free = all & !ka;
                let mut ys = 0u64;
                let mut u = free;
                loop {
                    ys += (ss[u + 1] - ss[u]) as u64;
                    if u == 0 {
                        break;
                    }
                    u = (u - 1) & free;
                }
                let nb = len.div_ceil(BLOCK) as u64;
                blocks += nb;
                scans += nb * ys;
                lanes += nb * ys * BLOCK as u64;
                ideal += len as f64 * ys as f64;
                elems += (len as u64) * 0;
            }
        }
        let _ = elems;
        println!(
            "current OR cost {} mid filter {}",
            cur_cost / units,
            midf / units
        );
        for (vi, v) in span.iter().enumerate() {
            println!(
                "k={} OR cost/unit (dp) {} scans {} | (greedy bit per node) {} scans {}",
                vi + 9,
                v[0].0 / units,
                v[0].1 / units,
                v[1].0 / units,
                v[1].1 / units
            );
        }
        println!(
            "n={n} units sampled={units} join tested={} surv={} ({:.2}) placed={} | blocks={} scans={} lanes={:.3e} ideal={:.3e} fill={:.2} chunks={:?}",
            jt / units,
            js / units,
            js as f64 / jt as f64,
            placed / units,
            blocks / units,
            scans / units,
            lanes as f64 / units as f64,
            ideal / units as f64,
            ideal / lanes as f64,
            &chunk_hist[..10]
        );
    }
}

#[cfg(test)]
mod unit_bench {
    use super::*;

    fn thread_cpu() -> f64 {
        let mut ts = libc_timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime with a valid pointer.
        unsafe { clock_gettime(3, &mut ts) };
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    }
    #[repr(C)]
    struct libc_timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clk: i32, ts: *mut libc_timespec) -> i32;
    }

    /// Thread CPU time of the list building and the pair count on a sample of units
    /// (QN, QSTEP, QREPS): best of the repetitions.
    #[test]
    #[ignore]
    fn unit_split() {
        let env = |k: &str, d: usize| std::env::var(k).map(|v| v.parse().unwrap()).unwrap_or(d);
        let n = env("QN", 19);
        let step = env("QSTEP", 150);
        let reps = env("QREPS", 3);
        let plan = Plan::new(n);
        let mut s = Scratch::default();
        let idx: Vec<usize> = (0..plan.len()).step_by(step).collect();
        let (mut best_h, mut best_c) = (f64::MAX, f64::MAX);
        let mut found = 0u64;
        for _ in 0..reps {
            let (mut th, mut tc) = (0.0, 0.0);
            found = 0;
            for &i in &idx {
                let (r, _) = plan.units[i];
                let [(en, es, em), (wn, ws, wm)] = plan.half_ranks(r);
                let mut east = std::mem::take(&mut s.east);
                let mut west = std::mem::take(&mut s.west);
                let t = thread_cpu();
                plan.half(false, en, es, em, &mut east, &mut s);
                plan.half(true, wn, ws, wm, &mut west, &mut s);
                let t2 = thread_cpu();
                found += s.pairs.count(&east, &west);
                tc += thread_cpu() - t2;
                th += t2 - t;
                s.east = east;
                s.west = west;
            }
            best_h = best_h.min(th);
            best_c = best_c.min(tc);
        }
        println!(
            "n={n} units={} lists {:.3} s count {:.3} s (best of {reps}) found {found}",
            idx.len(),
            best_h,
            best_c
        );
    }
}
