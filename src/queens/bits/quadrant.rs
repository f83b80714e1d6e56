//! Totals by quadrants. The board is cut by a vertical line into a West half (the
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
//!   number of (East, West) pairs with disjoint signatures ([`Pairs::count`]).
//!
//! One table lists every placement inside an `h × (n - h)` rectangle (any subset of ranks, one
//! queen per rank and per file at most), grouped by (rank set, file set); the four quadrants
//! are reflections of that rectangle (West ones use file sets that avoid the rectangle's first
//! file when `n` is odd). The up-down flip maps the units `R` to `flip(R)`, and for even `n` the
//! left-right mirror maps `R` to its complement: only the smallest unit of each orbit is
//! counted, times the orbit's size. See docs/bits.md.

use rayon::prelude::*;

use crate::queens::common::full_mask;

mod kernels;

use kernels::{bucket, bucket_long, build_tables, join_pieces, long_keys, place, scan_leaf};

/// The largest board counted this way (memory: n = 23 needs an 11 × 12 table).
pub(super) const MAX_N: usize = 23;

/// The rank of the table's search at which it asks whether to stop: below it a subtree takes
/// at most milliseconds (n = 23), and the nodes above are few.
const STOP_CHECK_RANK: usize = 3;

/// Signature bits counted per chunk in [`Pairs::count`]: a chunk table holds the ORs of the
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
    #[cfg(test)]
    fn new(g: Geometry) -> Table {
        Table::new_until(g, &|| false).expect("a build that never stops ends")
    }

    /// [`Table::new`] that stops when `stop()` says so (`None`), asked at each node of rank
    /// [`STOP_CHECK_RANK`]: the table of n = 22 takes seconds.
    fn new_until(g: Geometry, stop: &(dyn Fn() -> bool + Sync)) -> Option<Table> {
        let (h, e) = (g.h, g.e);
        let sticky = super::StickyStop::new(stop);
        let halt = || sticky.now();
        // Depth-first over the ranks: skip rank i, or put a queen on an open file.
        fn walk<F: FnMut(usize, u64)>(
            h: usize,
            e: usize,
            i: usize,
            (rows, cols, s, d): (u32, u32, u32, u32),
            leaf: &mut F,
            halt: &dyn Fn() -> bool,
        ) {
            if i == STOP_CHECK_RANK && halt() {
                return;
            }
            if i == h {
                leaf(
                    (rows as usize) << e | cols as usize,
                    u64::from(s) | u64::from(d) << 32,
                );
                return;
            }
            walk(h, e, i + 1, (rows, cols, s, d), leaf, halt);
            for j in 0..e {
                let (bs, bd) = (1u32 << (i + j), 1u32 << (i + e - 1 - j));
                if cols >> j & 1 == 0 && s & bs == 0 && d & bd == 0 {
                    walk(
                        h,
                        e,
                        i + 1,
                        (rows | 1 << i, cols | 1 << j, s | bs, d | bd),
                        leaf,
                        halt,
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
            walk(h, e, i, st, &mut |k, p| leaf(k, p), &halt);
        };
        let mut counts: Vec<Vec<u32>> = seeds
            .par_iter()
            .map(|&st| {
                let mut c = vec![0u32; keys];
                run(st, &mut |k, _| c[k] += 1);
                c
            })
            .collect();
        // A cut count would misplace the entries (and write outside a seed's range): stop
        // before writing them.
        if halt() {
            return None;
        }
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
        let len = entries.len();
        let out = Out(entries.as_mut_ptr());
        let out = &out;
        let starts = &start;
        seeds
            .par_iter()
            .zip(cursors.into_par_iter())
            .for_each(|(&st, mut cur)| {
                run(st, &mut |k, p| {
                    debug_assert!(cur[k] < starts[k + 1] && (cur[k] as usize) < len);
                    // SAFETY: slot cur[k] lies in this seed's range of group k, inside
                    // `entries`, and no other seed writes it.
                    unsafe { out.0.add(cur[k] as usize).write(p) };
                    cur[k] += 1;
                });
            });
        if halt() {
            return None;
        }
        Some(Table { e, start, entries })
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
        Plan::new_until(n, &|| false).expect("a build that never stops ends")
    }

    /// [`Plan::new`] that stops when `stop()` says so (`None`).
    pub(super) fn new_until(n: usize, stop: &(dyn Fn() -> bool + Sync)) -> Option<Plan> {
        let g = Geometry::new(n);
        let flip = |r: u32| r.reverse_bits() >> (32 - n);
        let full = full_mask(n);
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
        Some(Plan {
            g,
            windows: [g.window(false), g.window(true)],
            table: Table::new_until(g, stop)?,
            units,
        })
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

    /// The East and the West signature lists of unit `i` (for timing the two phases of
    /// [`Plan::join`] apart).
    pub(super) fn lists(
        &self,
        i: usize,
        east: &mut Vec<u64>,
        west: &mut Vec<u64>,
        scratch: &mut Scratch,
    ) {
        let [(en, es, east_mid), (wn, ws, west_mid)] = self.half_ranks(self.units[i].0);
        self.half(false, en, es, east_mid, east, scratch);
        self.half(true, wn, ws, west_mid, west, scratch);
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
        let rest = full_mask(n) ^ r;
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

/// The transposed blocks and chunk tables of [`Pairs::count`], the sieved lists and the
/// sieve's trie, kept across calls.
#[derive(Default)]
pub(super) struct Pairs {
    tables: Vec<[u64; 8]>,
    bits: Vec<[u64; 8]>,
    long: Vec<u64>,
    short: Vec<u64>,
    long_start: Vec<usize>,
    short_start: Vec<usize>,
    /// `zeta[m]`: the number of short signatures whose sieve bits lie in `m`.
    zeta: Vec<u64>,
    /// The long signatures' sieve keys, and how many have each.
    keys: Vec<u8>,
    hist: Vec<u32>,
    /// The trie's leaves: (fixed sieve bits, their values).
    leaves: Vec<(u32, u32)>,
    leaf_of: Vec<u32>,
}

/// At most this many sieve bits (they sit in the top byte of a bucketed long signature).
const MAX_SIEVE: u32 = 8;

/// The trie's cost model, in instructions: a block's transpose and chunk tables, a scanned
/// signature's fixed part and each chunk, and a visited bucket of the short list.
const COST_BLOCK: u64 = 2000;

const COST_SCAN: u64 = 4;
const COST_CHUNK: u64 = 3;
const COST_BUCKET: u64 = 6;

impl Pairs {
    /// The number of pairs `(x, y)`, `x` in `a`, `y` in `b`, with `x & y == 0`.
    ///
    /// The longer list is cut into blocks of [`BLOCK`] signatures, bit-transposed, with chunk
    /// tables of ORs; the shorter one is scanned against each block. A few *sieve* bits (those
    /// most often set in both lists) sort both lists first: the short one into buckets by
    /// the values of all the sieve bits, the long one into the leaves of a trie, each leaf
    /// the long signatures with given values `V` on some of the sieve bits `F` (chosen leaf by
    /// leaf from a cost model, so that leaves fill their blocks). A leaf's blocks only meet
    /// the short buckets `u` with `u & V == 0`; its other sieve bits are tested as one extra
    /// bit vector per bucket. The sieve bits are dropped from the chunked signatures.
    pub(super) fn count(&mut self, a: &[u64], b: &[u64]) -> u64 {
        let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        if short.len().min(long.len()) < SHORT {
            return naive(short, long);
        }
        let used = long.iter().chain(short).fold(0, |acc, &x| acc | x);
        let k = if long.len() <= BLOCK {
            0
        } else {
            MAX_SIEVE.min(used.count_ones())
        };
        let key = sieve_bits(long, short, used, k);
        let rest = used & !key;
        let chunks = (rest.count_ones() as usize).div_ceil(CHUNK).max(1);
        let all = (1u32 << k) - 1;
        bucket(short, key, rest, &mut self.short, &mut self.short_start);
        // Subset sums of the short buckets' sizes.
        self.zeta.clear();
        self.zeta
            .extend(self.short_start.windows(2).map(|w| (w[1] - w[0]) as u64));
        for bit in 0..k {
            for m in 0..=all as usize {
                if m >> bit & 1 == 1 {
                    self.zeta[m] += self.zeta[m ^ 1 << bit];
                }
            }
        }
        // The trie over the long list's sieve keys.
        long_keys(long, key, &mut self.keys, &mut self.hist);
        self.leaves.clear();
        let trie = Trie {
            block: COST_BLOCK,
            all,
            chunks: chunks as u64,
            hist: &self.hist,
            zeta: &self.zeta,
        };
        trie.split(0, 0, long.len() as u64, &mut self.leaves);
        self.leaf_of.clear();
        self.leaf_of.resize(1 << k, 0);
        for (i, &(f, v)) in self.leaves.iter().enumerate() {
            let free = all & !f;
            let mut sub = free;
            loop {
                self.leaf_of[(v | sub) as usize] = i as u32;
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & free;
            }
        }
        bucket_long(
            long,
            &self.keys,
            rest,
            &self.leaf_of,
            self.leaves.len(),
            &mut self.long,
            &mut self.long_start,
        );
        self.tables.resize(chunks << CHUNK, [0; 8]);
        self.bits.resize(64, [0; 8]);
        let mut total = 0u64;
        for (i, &(f, v)) in self.leaves.iter().enumerate() {
            let group = &self.long[self.long_start[i]..self.long_start[i + 1]];
            let loose = all & !f;
            for block in group.chunks(BLOCK) {
                build_tables(block, chunks, loose != 0, &mut self.bits, &mut self.tables);
                total += scan_leaf(
                    &self.tables,
                    chunks,
                    &self.bits[56..],
                    loose,
                    all & !v,
                    &self.short,
                    &self.short_start,
                );
            }
        }
        total
    }
}

impl Scratch {
    /// The pair counter of the scratch.
    pub(super) fn pairs(&mut self) -> &mut Pairs {
        &mut self.pairs
    }
}

/// One transposed block of [`Pairs::count`] and its chunk tables, on its own (for timing the
/// kernels apart).
pub(super) struct Block {
    chunks: usize,
    tables: Vec<[u64; 8]>,
    bits: Vec<[u64; 8]>,
}

impl Block {
    /// An empty block of signatures of `chunks` chunks.
    pub(super) fn new(chunks: usize) -> Block {
        Block {
            chunks,
            tables: vec![[0; 8]; chunks << CHUNK],
            bits: vec![[0; 8]; 64],
        }
    }

    /// Transposes `block` (at most [`BLOCK`] signatures) and builds its chunk tables.
    pub(super) fn build(&mut self, block: &[u64]) {
        assert!(block.len() <= BLOCK);
        build_tables(block, self.chunks, false, &mut self.bits, &mut self.tables);
    }

    /// The pairs (signature of the block, `y` of `ys`) that share no bit.
    pub(super) fn scan(&self, ys: &[u64]) -> u64 {
        scan_leaf(
            &self.tables,
            self.chunks,
            &self.bits[56..],
            0,
            0,
            ys,
            &[0, ys.len()],
        )
    }
}

/// The greedy trie of [`Pairs::count`]: the sieve keys `all`, the long list's
/// histogram over it and the short list's subset sums.
struct Trie<'a> {
    block: u64,
    all: u32,
    chunks: u64,
    hist: &'a [u32],
    zeta: &'a [u64],
}

impl Trie<'_> {
    /// The modelled cost of a leaf of `size` long signatures with values `v` on the bits `f`.
    fn leaf_cost(&self, size: u64, f: u32, v: u32) -> u64 {
        if size == 0 {
            return 0;
        }
        let blocks = size.div_ceil(BLOCK as u64);
        let open = self.all & !v;
        let ys = self.zeta[open as usize];
        let plain = self.zeta[(f & !v) as usize];
        let buckets = 1u64 << open.count_ones();
        blocks
            * (self.block
                + ys * (COST_SCAN + COST_CHUNK * self.chunks)
                + (ys - plain)
                + buckets * COST_BUCKET)
    }

    /// Splits the node (bits `f` fixed to `v`, `size` long signatures) while that lowers the
    /// modelled cost, pushing its leaves; returns their cost. Each split takes the sieve bit
    /// whose two children cost least as leaves.
    fn split(&self, f: u32, v: u32, size: u64, leaves: &mut Vec<(u32, u32)>) -> u64 {
        if size == 0 {
            return 0;
        }
        let here = self.leaf_cost(size, f, v);
        let free = self.all & !f;
        if free == 0 {
            leaves.push((f, v));
            return here;
        }
        // Signatures of the node with each free bit set.
        let mut ones = [0u64; MAX_SIEVE as usize];
        let mut sub = free;
        loop {
            let h = u64::from(self.hist[(v | sub) as usize]);
            if h != 0 {
                let mut m = sub;
                while m != 0 {
                    ones[m.trailing_zeros() as usize] += h;
                    m &= m - 1;
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & free;
        }
        let mut best = (u64::MAX, 0u32);
        let mut m = free;
        while m != 0 {
            let bit = m.trailing_zeros();
            m &= m - 1;
            let (f1, c1) = (f | 1 << bit, ones[bit as usize]);
            let cost = self.leaf_cost(size - c1, f1, v) + self.leaf_cost(c1, f1, v | 1 << bit);
            if cost < best.0 {
                best = (cost, bit);
            }
        }
        let bit = best.1;
        let (f1, c1) = (f | 1 << bit, ones[bit as usize]);
        let mark = leaves.len();
        let cost = self.split(f1, v, size - c1, leaves) + self.split(f1, v | 1 << bit, c1, leaves);
        if cost < here {
            cost
        } else {
            leaves.truncate(mark);
            leaves.push((f, v));
            here
        }
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

/// Pairs tested one by one.
fn naive(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().filter(|&&y| x & y == 0).count() as u64)
        .sum()
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
    fn the_phases_apart_count_what_join_counts() {
        for n in [11, 12] {
            let plan = Plan::new(n);
            let mut s = Scratch::default();
            let (mut east, mut west) = (Vec::new(), Vec::new());
            for i in 0..plan.len() {
                plan.lists(i, &mut east, &mut west, &mut s);
                let found = s.pairs().count(&east, &west);
                assert_eq!(found, naive(&east, &west));
                let (sols, _) = plan.join(i, &mut s);
                assert_eq!(sols, u128::from(found) * u128::from(plan.units[i].1));
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let v: Vec<u64> = (0..700)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & x.rotate_left(7) & ((1u64 << 35) - 1)
            })
            .collect();
        let mut block = Block::new(7);
        for len in [BLOCK, 300, 1] {
            block.build(&v[..len]);
            assert_eq!(block.scan(&v[BLOCK..]), naive(&v[..len], &v[BLOCK..]));
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
        }
    }
}
