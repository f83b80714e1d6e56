//! Word-parallel n-queens counter: ranks are the branching items, files and both
//! diagonal families are bit masks in one `u32` each, and the full 8-fold symmetry of the square
//! is used, so that one search gives both the number of solutions (OEIS A000170) and the number
//! of fundamental solutions, the classes under rotations and reflections (A002562).
//!
//! # Method: full symmetry, exactly
//!
//! The 8 symmetries of the square act on permutations as the 8 combinations of: take the inverse
//! permutation or not (transpose), reverse the ranks or not, reverse the files or not. The
//! *canonical form* of a solution is the lexicographically smallest of its 8 images. Each class is
//! counted once, at its canonical form, with weight `8 / s` where `s` is the number of images equal
//! to the solution (its stabiliser): 8, 4 (symmetric under the half turn) or 2 (under the quarter
//! turn); 1 only for n = 1. So `solutions = 8·C8 + 4·C4 + 2·C2` and `unique = C8 + C4 + C2` come
//! out of one search.
//!
//! The search visits only a set `S` that contains every canonical form, and which is easy to
//! enforce with masks (this is takaken's split into a corner part and a "BOUND1/BOUND2" part, with
//! our own leaf test):
//!
//! **Corner part.** At most one corner holds a queen (any two corners share a rank, a file or a
//! long diagonal). If one does, the only symmetries that keep the queen on the top-left corner are
//! the identity and the transpose, and no solution with n > 1 is symmetric under a transpose
//! (queens `(i, j)` and `(j, i)` share an anti-diagonal, so an involution would have at most one
//! 2-cycle and one fixed point); so the class has 8 members, exactly two of them (`p` and `p⁻¹`)
//! with the queen on (0, 0), and the canonical one has `p[1] < p⁻¹[1]`. `S` is exactly
//! `p[0] = 0, p[1] = k` (`2 <= k <= n-2`) with file 1 forbidden on ranks `2..k` — precisely the
//! canonical forms, all of weight 8, with no test at the leaves.
//!
//! **Edge part.** No corner queen: each edge of the board has exactly one queen, not on a corner.
//! Measure each edge queen's distance to its nearest corner; rotations and reflections permute the
//! four edge queens and keep these distances, and the rank-0 file of any image is one of them, so
//! every image has `p'[0] >= b_min` (the smallest distance). `S` is: `p[0] = b` with
//! `b < n-1-b` (left half; the middle file is impossible as the minimum, since queens in the
//! middles of two adjacent edges share a diagonal), the queens on files 0 and n-1 on ranks
//! `b..=n-1-b`, the queen on rank n-1 on files `b..=n-1-b`. The masks forbid the side files on
//! ranks `1..b` and `n-b..n-1`, and the outer files on the last rank; on rank `n-1-b`, the side
//! files not yet taken must be taken there (none left → prune; one left → only that file), which
//! prunes takaken's way. The canonical form is in `S` (its rank-0 file is the minimum distance,
//! in the left half), and a leaf `p` of `S` is canonical iff no image `g(p)` is smaller. An image
//! whose rank-0 file differs from `b` is larger (it is at least `b`), so the leaf test
//! (`symmetry::representative_class`, the one allocation-free canonical test, shared with the
//! dlx model: it compares each image with `p` rank by rank as it computes it and drops it at the
//! first difference) only looks at images with `g(p)[0] = b` — few, found from `p[0]`,
//! `p[n-1]`, `p⁻¹[0]`, `p⁻¹[n-1]` — rejects `p` if one is smaller and counts the equal ones for
//! the stabiliser.
//!
//! This is where careless implementations over-count (1788 instead of 1787 classes for n=12): when
//! two or more edge queens tie for the minimum distance, several images of one class lie in the
//! searched set, and weights given by the pre-placement alone count that class more than once.
//! Here every leaf is compared with all its images, so each class is counted exactly once; the
//! tests check n=1..15 against A002562 and, for n=1..10, against an independent brute force that
//! lists every solution and collects the canonical forms in a set.
//!
//! Boards with n < 6 are counted by a plain enumeration of all solutions with the full 8-image
//! comparison (one task); the split needs at least four ranks below the pre-placement.
//!
//! # Totals only
//!
//! When the fundamental count is not asked for, boards of 12 to 23 are counted by one of two
//! faster methods ([`totals_method`]). Quadrants (the `quadrant` submodule, n = 16 and
//! 18..=23): for each set of ranks whose queen is in the East half, the East and West halves'
//! configurations are listed as signatures of the diagonals crossing the midline, and the
//! disjoint pairs are counted in bulk. Meeting in the middle (`mitm`, n = 12..=15 and 17):
//! every placement of the top
//! half is listed once, grouped by its set of files, and the solutions are the pairs (top half,
//! upside-down top half) on complementary files, with a middle band of one or two ranks
//! enumerated between them, whose diagonals are disjoint. Mirror and flip symmetry divide the
//! work by about 4. The same [`task_count`] tasks carry the work, so shards work alike.
//!
//! # Sub-problems
//!
//! The tasks are the placements of the first few ranks (a fixed depth depending on `n` only)
//! under the constraints of `S`, in a deterministic order: all corner tasks, then the edge
//! tasks by increasing `b`. [`count`] hands them out on the current rayon pool (work
//! stealing); with a shard `(i, m)` only task `k` with `shard_takes``(k, i, m)` is counted, so
//! the `m` shards add up exactly to the whole.

use std::ops::AddAssign;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::engine::Stop;
use crate::engine::run::shard_takes;

pub use super::common::MAX_N;
use super::common::{RESIDUE_MODULUS, full_mask};
use super::symmetry;

mod mitm;
mod quadrant;

/// The phases of the count by quadrants one by one, for the `phases` benchmark's timings (not
/// a stable interface).
#[doc(hidden)]
pub mod quadrant_parts {
    use super::quadrant::{Block as QBlock, Plan, Scratch};

    /// The units of a count by quadrants, with one worker's scratch buffers.
    pub struct Units {
        plan: Plan,
        scratch: Scratch,
    }

    impl Units {
        /// The plan (table and units) for `n` (4..=23).
        pub fn new(n: usize) -> Units {
            assert!(
                (4..=super::quadrant::MAX_N).contains(&n),
                "quadrants take n = 4..={}",
                super::quadrant::MAX_N
            );
            Units {
                plan: Plan::new(n),
                scratch: Scratch::default(),
            }
        }

        /// The number of units.
        pub fn len(&self) -> usize {
            self.plan.len()
        }

        /// Whether there are no units.
        pub fn is_empty(&self) -> bool {
            self.plan.len() == 0
        }

        /// The East and West signature lists of unit `i`.
        pub fn lists(&mut self, i: usize, east: &mut Vec<u64>, west: &mut Vec<u64>) {
            self.plan.lists(i, east, west, &mut self.scratch);
        }

        /// The pairs `(x, y)`, `x` in `east`, `y` in `west`, with `x & y == 0`.
        pub fn pairs(&mut self, east: &[u64], west: &[u64]) -> u64 {
            self.scratch.pairs().count(east, west)
        }

        /// Unit `i` whole: (solutions counted for its orbit, pairs tested).
        pub fn join(&mut self, i: usize) -> (u128, u64) {
            self.plan.join(i, &mut self.scratch)
        }
    }

    /// One transposed block of signatures with its chunk tables.
    pub struct Block(QBlock);

    impl Block {
        /// An empty block of signatures of `chunks` chunks of 5 bits.
        pub fn new(chunks: usize) -> Block {
            Block(QBlock::new(chunks))
        }

        /// Transposes `block` (at most 512 signatures) and builds the chunk tables.
        pub fn build(&mut self, block: &[u64]) {
            self.0.build(block);
        }

        /// The pairs (signature of the block, `y` of `ys`) that share no bit.
        pub fn scan(&self, ys: &[u64]) -> u64 {
            self.0.scan(ys)
        }
    }
}

/// Boards from this size up to [`mitm::MAX_N`] are counted by meeting in the middle when the
/// fundamental count is not asked for.
const MITM_MIN_N: usize = 12;

/// Boards from this size up to [`quadrant::MAX_N`] are counted by quadrants when the
/// fundamental count is not asked for (below it, meeting in the middle is faster).
const QUADRANT_MIN_N: usize = 16;

/// Boards below this size are counted by a plain enumeration of all solutions with an explicit
/// canonical-form test (a single task); the symmetric split needs `n >= 4`.
const SMALL_N: usize = 6;

/// The result of a count (or of part of it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitsCount {
    /// Number of solutions (A000170).
    pub solutions: u128,
    /// Number of fundamental solutions: classes under the 8 symmetries of the square (A002562).
    /// 0 when [`count`] was not asked for it.
    pub unique: u128,
    /// A measure of work: queens placed by the workers below the tasks' pre-placements (the
    /// symmetric search), or pairs of half-boards tested (the meet-in-the-middle totals). It
    /// saturates at `u64::MAX` rather than wrap.
    pub nodes: u64,
    /// Sum over the counted tasks of (task solutions mod [`RESIDUE_MODULUS`]), mod that prime.
    /// It is accumulated independently of `solutions`, so a merged record whose `solutions`
    /// disagrees with its residue ([`BitsCount::residue_ok`]) has been corrupted.
    pub residue: u64,
}

impl BitsCount {
    /// True when `solutions mod RESIDUE_MODULUS` equals the independently kept residue.
    pub fn residue_ok(&self) -> bool {
        self.solutions % u128::from(RESIDUE_MODULUS) == u128::from(self.residue)
    }
}

impl AddAssign for BitsCount {
    /// Adds two counts. Panics if a 128-bit sum overflows (impossible for any board that can be
    /// counted: A000170(27) is below 2^58).
    fn add_assign(&mut self, o: BitsCount) {
        self.solutions = self
            .solutions
            .checked_add(o.solutions)
            .expect("n-queens solution count overflows u128");
        self.unique = self
            .unique
            .checked_add(o.unique)
            .expect("n-queens unique count overflows u128");
        self.nodes = self.nodes.saturating_add(o.nodes);
        self.residue =
            ((self.residue % RESIDUE_MODULUS) + (o.residue % RESIDUE_MODULUS)) % RESIDUE_MODULUS;
    }
}

impl std::ops::Add for BitsCount {
    type Output = BitsCount;
    fn add(mut self, o: BitsCount) -> BitsCount {
        self += o;
        self
    }
}

impl std::iter::Sum for BitsCount {
    fn sum<I: Iterator<Item = BitsCount>>(iter: I) -> BitsCount {
        iter.fold(BitsCount::default(), |a, b| a + b)
    }
}

/// Which part of `S` a task belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `n < SMALL_N`: the whole board by plain enumeration.
    Small,
    /// Queen at (0, 0); `k = p[1]`.
    Corner { k: u8 },
    /// No corner queen; `b = p[0]`.
    Edge { b: u8 },
}

/// One sub-problem: the first `len` ranks placed.
#[derive(Clone, Copy, Debug)]
struct Task {
    kind: Kind,
    len: u8,
    files: [u8; 8],
}

/// The constraints of one part of `S` for a board of size `n`: extra files forbidden on each
/// rank, and (edge part) the rank by which both side files must be taken.
#[derive(Clone, Copy)]
struct Frame {
    mask: u32,
    forbid: [u32; MAX_N],
    /// Rank `n-1-b` for an edge task: when it is reached, the side files not yet taken must be
    /// taken there (none left over: the later ranks may not use them). `usize::MAX` if none.
    side_rank: usize,
    sides: u32,
}

impl Frame {
    fn new(n: usize, kind: Kind) -> Frame {
        let mask = full_mask(n);
        let sides = 1 | (1u32 << (n - 1));
        let mut f = Frame {
            mask,
            forbid: [0; MAX_N],
            side_rank: usize::MAX,
            sides,
        };
        match kind {
            Kind::Small => {}
            Kind::Corner { k } => {
                // The file-1 queen stands below rank k: forbid file 1 on ranks 2..k.
                for r in 2..usize::from(k) {
                    f.forbid[r] = 2;
                }
            }
            Kind::Edge { b } => {
                let b = usize::from(b);
                // Side queens on ranks b..=n-1-b, the last-rank queen on files b..=n-1-b.
                for r in 1..b {
                    f.forbid[r] = sides;
                    f.forbid[n - 1 - r] = sides;
                }
                let inner = (full_mask(n - b) >> b) << b;
                f.forbid[n - 1] = mask & !inner;
                f.side_rank = n - 1 - b;
            }
        }
        f
    }

    /// The files open on rank `r` given the files and diagonals taken.
    #[inline(always)]
    fn open(&self, r: usize, cols: u32, ld: u32, rd: u32) -> u32 {
        let mut a = self.mask & !(cols | ld | rd | self.forbid[r]);
        if r == self.side_rank {
            let missing = self.sides & !cols;
            if missing == self.sides {
                a = 0;
            } else if missing != 0 {
                a &= missing;
            }
        }
        a
    }
}

/// A stop asked of `stop` and remembered once it said so: the table walks of meeting in the
/// middle and of the quadrants ask it from several threads, and every walk must end once one
/// has seen it (a table cut short is dropped whole).
struct StickyStop<'a> {
    seen: std::sync::atomic::AtomicBool,
    stop: &'a (dyn Fn() -> bool + Sync),
}

impl<'a> StickyStop<'a> {
    fn new(stop: &'a (dyn Fn() -> bool + Sync)) -> Self {
        StickyStop {
            seen: std::sync::atomic::AtomicBool::new(false),
            stop,
        }
    }

    /// Whether a stop was asked for, now or before.
    fn now(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let stopped = self.seen.load(Relaxed) || (self.stop)();
        if stopped {
            self.seen.store(true, Relaxed);
        }
        stopped
    }
}

/// A task's search checks for a stop at the ranks with more than this many ranks below them.
const STOP_CHECK_RANKS: usize = 12;

/// Pre-placement depth of the split for `n` (ranks placed in a task).
fn depth(n: usize) -> usize {
    match n {
        0..=11 => 2,
        12..=15 => 3,
        _ => 4,
    }
}

/// The tasks for `n`, in the deterministic order.
fn tasks(n: usize) -> Vec<Task> {
    assert!(
        (1..=MAX_N).contains(&n),
        "n must be in 1..={MAX_N}, got {n}"
    );
    if n < SMALL_N {
        return vec![Task {
            kind: Kind::Small,
            len: 0,
            files: [0; 8],
        }];
    }
    let d = depth(n);
    let mut out = Vec::new();
    for k in 2..=n - 2 {
        let kind = Kind::Corner { k: k as u8 };
        extend(n, kind, &[0, k], d, &mut out);
    }
    let mut b = 1;
    while b < n - 1 - b {
        let kind = Kind::Edge { b: b as u8 };
        extend(n, kind, &[b], d, &mut out);
        b += 1;
    }
    out
}

/// Appends every legal extension of `prefix` to `d` ranks.
fn extend(n: usize, kind: Kind, prefix: &[usize], d: usize, out: &mut Vec<Task>) {
    let frame = Frame::new(n, kind);
    let (mut cols, mut ld, mut rd) = (0u32, 0u32, 0u32);
    for (r, &c) in prefix.iter().enumerate() {
        let bit = 1u32 << c;
        debug_assert!(frame.open(r, cols, ld, rd) & bit != 0);
        cols |= bit;
        ld = (ld | bit) << 1;
        rd = (rd | bit) >> 1;
    }
    fn rec(
        frame: &Frame,
        kind: Kind,
        files: &mut Vec<usize>,
        d: usize,
        (cols, ld, rd): (u32, u32, u32),
        out: &mut Vec<Task>,
    ) {
        if files.len() >= d {
            let mut t = Task {
                kind,
                len: files.len() as u8,
                files: [0; 8],
            };
            for (i, &f) in files.iter().enumerate() {
                t.files[i] = f as u8;
            }
            out.push(t);
            return;
        }
        let mut a = frame.open(files.len(), cols, ld, rd);
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            files.push(bit.trailing_zeros() as usize);
            rec(
                frame,
                kind,
                files,
                d,
                (cols | bit, (ld | bit) << 1, (rd | bit) >> 1),
                out,
            );
            files.pop();
        }
    }
    let mut files = prefix.to_vec();
    // Leave at least four ranks to the worker (it unrolls the last three).
    let d = d.min(n - 4).max(prefix.len());
    rec(&frame, kind, &mut files, d, (cols, ld, rd), out);
}

/// The number of sub-problems (tasks) in the deterministic split for `n` (`1 <= n <= 32`).
pub fn task_count(n: usize) -> usize {
    tasks(n).len()
}

/// Counts the `n`-queens solutions, and with `unique` the fundamental solutions too
/// (`1 <= n <= 32`; panics outside that range).
///
/// With `unique`, or for `n` outside `12..=23`, the symmetric search runs (it finds both
/// counts). Without `unique`, boards of 12 to 23 are counted by [`totals_method`]: meeting in
/// the middle or quadrants (docs/bits.md), which are faster and give the solutions only.
/// Without `unique`, the field is always 0, whichever method ran.
///
/// Runs on the current rayon pool. The work is split into [`task_count`]`(n)` tasks in both
/// methods; `shard = Some((i, m))` (1-based `i <= m`) counts only the tasks `k` with
/// `shard_takes``(k, i, m)`, so the `m` shards add up to the whole. `progress(done, total,
/// solutions_so_far)` is called from the worker threads after each task (total = the tasks of
/// this shard).
///
/// Feasibility: n=18 takes seconds, each further n about 7-9 times longer; n=27 took a large
/// cluster a year. Nothing overflows for any `n <= 32` (sums in `u128`, checked).
pub fn count(
    n: usize,
    unique: bool,
    shard: Option<(usize, usize)>,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> BitsCount {
    count_with(n, unique, Method::Auto, shard, progress)
}

/// How [`count_with`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// What [`count`] does: the symmetric search with `unique`, else [`totals_method`].
    Auto,
    /// The symmetric search (both counts).
    Search,
    /// Totals by meeting in the middle (`6 <= n <= 18`).
    Mitm,
    /// Totals by quadrants (`4 <= n <= 23`).
    Quadrant,
}

/// The method [`count`] uses for the totals of `n` (without `unique`): the fastest measured
/// (docs/bits.md).
pub fn totals_method(n: usize) -> Method {
    match n {
        // Meeting in the middle wins up to 15 and at 17 (measured, docs/bits.md).
        17 => Method::Mitm,
        MITM_MIN_N..QUADRANT_MIN_N => Method::Mitm,
        QUADRANT_MIN_N..=quadrant::MAX_N => Method::Quadrant,
        _ => Method::Search,
    }
}

/// [`count`] with the method chosen: `Mitm` and `Quadrant` give the solutions only (`unique`
/// is then 0) and panic outside their range of `n`; `Search` finds both counts.
pub fn count_with(
    n: usize,
    unique: bool,
    method: Method,
    shard: Option<(usize, usize)>,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> BitsCount {
    count_until(n, unique, method, shard, &Stop::new(), progress)
}

/// [`count_with`] stopped through `stop`: once it is requested the tasks not begun are
/// skipped and the running ones end at their upper ranks, so the count is a lower bound.
pub fn count_until(
    n: usize,
    unique: bool,
    method: Method,
    shard: Option<(usize, usize)>,
    stop: &Stop,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> BitsCount {
    let stopped = || stop.requested();
    if let Some((i, m)) = shard {
        assert!(m >= 1 && (1..=m).contains(&i), "bad shard {i}/{m}");
    }
    let all = tasks(n);
    let mine: Vec<(usize, Task)> = all
        .iter()
        .copied()
        .enumerate()
        .filter(|(k, _)| shard.is_none_or(|(i, m)| shard_takes(*k, i, m)))
        .collect();
    let total = mine.len();
    let state = Mutex::new((0usize, 0u128));
    let report = |c: &BitsCount| {
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        s.0 += 1;
        s.1 += c.solutions;
        progress(s.0, total, s.1);
    };
    let method = match method {
        Method::Auto if unique => Method::Search,
        Method::Auto => totals_method(n),
        m => m,
    };
    let stride = all.len();
    // Task k counts the units i with i % tasks == k (meeting in the middle, quadrants).
    let striped = |len: usize, join: &Join| {
        mine.par_iter()
            .map(|&(k, _)| {
                let (mut solutions, mut nodes) = (0u128, 0u64);
                for i in (k..len).step_by(stride) {
                    // Interrupted: the units counted so far are a lower bound.
                    if stop.requested() {
                        break;
                    }
                    join(i, &mut |s, tested| {
                        solutions = solutions.checked_add(s).expect("count overflows u128");
                        nodes = nodes.saturating_add(tested);
                    });
                }
                let c = BitsCount {
                    solutions,
                    unique: 0,
                    nodes,
                    residue: (solutions % u128::from(RESIDUE_MODULUS)) as u64,
                };
                report(&c);
                c
            })
            .sum()
    };
    match method {
        Method::Mitm => {
            assert!(
                (6..=mitm::MAX_N).contains(&n),
                "meet in the middle takes n = 6..={}",
                mitm::MAX_N
            );
            if mine.is_empty() {
                return BitsCount::default();
            }
            let Some(plan) = mitm::Plan::new_until(n, &stopped) else {
                return BitsCount::default();
            };
            return striped(plan.len(), &|i, add| {
                thread_local! {
                    static SCRATCH: std::cell::RefCell<mitm::Scratch> = Default::default();
                }
                SCRATCH.with_borrow_mut(|s| {
                    let (found, tested) = plan.join(i, s);
                    add(found, tested);
                });
            });
        }
        Method::Quadrant => {
            assert!(
                (4..=quadrant::MAX_N).contains(&n),
                "quadrants take n = 4..={}",
                quadrant::MAX_N
            );
            if mine.is_empty() {
                return BitsCount::default();
            }
            let Some(plan) = quadrant::Plan::new_until(n, &stopped) else {
                return BitsCount::default();
            };
            return striped(plan.len(), &|i, add| {
                thread_local! {
                    static SCRATCH: std::cell::RefCell<quadrant::Scratch> = Default::default();
                }
                SCRATCH.with_borrow_mut(|s| {
                    let (found, tested) = plan.join(i, s);
                    add(found, tested);
                });
            });
        }
        Method::Search | Method::Auto => {}
    }
    mine.par_iter()
        .map(|(_, t)| {
            if stop.requested() {
                return BitsCount::default();
            }
            let mut c = run_task(n, t, stop);
            if !unique {
                c.unique = 0;
            }
            report(&c);
            c
        })
        .sum()
}

/// Counts one unit `i` of the totals methods, passing (solutions, pairs tested) to the sink.
type Join<'a> = dyn Fn(usize, &mut dyn FnMut(u128, u64)) + Sync + 'a;

/// Classes found with 8, 4, 2 and 1 members, and nodes.
type Classes = (u64, u64, u64, u64, u64);

/// Counts one task.
fn run_task(n: usize, t: &Task, stop: &Stop) -> BitsCount {
    let (w8, w4, w2, w1, nodes) = match t.kind {
        Kind::Small => small(n),
        Kind::Corner { .. } => search::<false>(n, t, stop),
        Kind::Edge { .. } => search::<true>(n, t, stop),
    };
    let (w8, w4, w2, w1) = (
        u128::from(w8),
        u128::from(w4),
        u128::from(w2),
        u128::from(w1),
    );
    let solutions = 8 * w8 + 4 * w4 + 2 * w2 + w1;
    let unique = w8 + w4 + w2 + w1;
    BitsCount {
        solutions,
        unique,
        nodes,
        residue: (solutions % u128::from(RESIDUE_MODULUS)) as u64,
    }
}

/// The state of one task's search.
struct Walk<'f> {
    frame: &'f Frame,
    /// Read at the upper ranks (see [`Walk::descend`]).
    stop: &'f Stop,
    n: usize,
    start: usize,
    files: [u8; MAX_N],
    bits: [u32; MAX_N],
    /// Classes of size 8, 4, 2 found.
    w: [u64; 3],
    nodes: u64,
}

/// The bitboard search below a task's pre-placement. Returns the classes of size 8, 4, 2
/// (and 1) found and the nodes. `EDGE` selects the canonical test at the leaves.
///
/// Ranks `start..=n-4` recurse (`descend`); the last three ranks are unrolled (`tail`: ranks
/// `n-3` and `n-2` are nested loops over their open files, rank `n-1` has at most one open
/// file). Measured: as fast as an explicit stack, and simpler.
fn search<const EDGE: bool>(n: usize, t: &Task, stop: &Stop) -> Classes {
    let frame = Frame::new(n, t.kind);
    let start = usize::from(t.len);
    debug_assert!(start + 4 <= n);
    let mut walk = Walk {
        frame: &frame,
        stop,
        n,
        start,
        files: [0; MAX_N],
        bits: [0; MAX_N],
        w: [0; 3],
        nodes: 0,
    };
    walk.files[..start].copy_from_slice(&t.files[..start]);
    let (mut c, mut l, mut d) = (0u32, 0u32, 0u32);
    for &f in &t.files[..start] {
        let bit = 1u32 << f;
        c |= bit;
        l = (l | bit) << 1;
        d = (d | bit) >> 1;
    }
    let a = frame.open(start, c, l, d);
    walk.descend::<EDGE>(start, a, c, l, d);
    (walk.w[0], walk.w[1], walk.w[2], 0, walk.nodes)
}

impl Walk<'_> {
    /// Tries every open file `a` of rank `r` (`r <= n-4`).
    fn descend<const EDGE: bool>(&mut self, r: usize, mut a: u32, c: u32, l: u32, d: u32) {
        // A task at n = 24 and beyond runs for hours: it sees a stop at its upper ranks,
        // whose subtrees take milliseconds, at the cost of one load per upper node (a tiny
        // share of the nodes). What it counted is then a lower bound, as the caller reports.
        if self.n - r > STOP_CHECK_RANKS && self.stop.requested() {
            return;
        }
        let frame = self.frame;
        let tail = r + 4 == self.n;
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            self.nodes += 1;
            if EDGE {
                self.bits[r % MAX_N] = bit;
            }
            let nc = c | bit;
            let nl = (l | bit) << 1;
            let nd = (d | bit) >> 1;
            if tail {
                self.tail::<EDGE>(nc, nl, nd);
                continue;
            }
            // Look ahead: the next rank needs an open file, and so does the one after it
            // even before the next queen takes its squares.
            let next = frame.open(r + 1, nc, nl, nd);
            if next == 0 || frame.mask & !(nc | nl << 1 | nd >> 1) == 0 {
                continue;
            }
            self.descend::<EDGE>(r + 1, next, nc, nl, nd);
        }
    }

    /// Ranks n-3, n-2 and n-1, unrolled.
    #[inline(always)]
    fn tail<const EDGE: bool>(&mut self, c: u32, l: u32, d: u32) {
        let frame = self.frame;
        let last = self.n - 1;
        let mut a3 = frame.open(last - 2, c, l, d);
        while a3 != 0 {
            let bit3 = a3 & a3.wrapping_neg();
            a3 ^= bit3;
            self.nodes += 1;
            let (c3, l3, d3) = (c | bit3, (l | bit3) << 1, (d | bit3) >> 1);
            let mut a2 = frame.open(last - 1, c3, l3, d3);
            while a2 != 0 {
                let bit2 = a2 & a2.wrapping_neg();
                a2 ^= bit2;
                self.nodes += 1;
                let leaf = frame.open(last, c3 | bit2, (l3 | bit2) << 1, (d3 | bit2) >> 1);
                if leaf != 0 {
                    self.nodes += 1;
                    if EDGE {
                        self.bits[last - 2] = bit3;
                        self.bits[last - 1] = bit2;
                        self.bits[last] = leaf;
                        edge_leaf(&mut self.files, &self.bits, self.start, self.n, &mut self.w);
                    } else {
                        self.w[0] += 1;
                    }
                }
            }
        }
    }
}

/// A leaf of the edge part: the files from the rank bits, then the canonical test.
#[inline(never)]
fn edge_leaf(
    files: &mut [u8; MAX_N],
    bits: &[u32; MAX_N],
    start: usize,
    n: usize,
    w: &mut [u64; 3],
) {
    for (f, b) in files[start..n].iter_mut().zip(&bits[start..n]) {
        *f = b.trailing_zeros() as u8;
    }
    match symmetry::representative_class(&files[..n]) {
        Some(8) => w[0] += 1,
        Some(4) => w[1] += 1,
        Some(2) => w[2] += 1,
        _ => {}
    }
}

/// Small boards: every solution by plain backtracking, canonical forms by
/// [`symmetry::representative_class`].
fn small(n: usize) -> Classes {
    let mut counts = (0, 0, 0, 0, 0);
    let mut p = vec![0u8; n];
    fn rec(n: usize, r: usize, p: &mut [u8], cols: u32, ld: u32, rd: u32, c: &mut Classes) {
        if r == n {
            match symmetry::representative_class(p) {
                Some(8) => c.0 += 1,
                Some(4) => c.1 += 1,
                Some(2) => c.2 += 1,
                Some(_) => c.3 += 1,
                None => {}
            }
            return;
        }
        let mut a = full_mask(n) & !(cols | ld | rd);
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            c.4 += 1;
            p[r] = bit.trailing_zeros() as u8;
            rec(n, r + 1, p, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, c);
        }
    }
    rec(n, 0, &mut p, 0, 0, 0, &mut counts);
    counts
}
