//! Weighted n-queens, "the Sultan's Successors" (issue 4): a board of integers, place n
//! non-attacking queens so that the numbers under them add up to as much as possible.
//!
//! The model is the exact-cover one: primary items for the ranks and files (organ-pipe order,
//! middle first, as Knuth lists them), secondary items for the diagonals, one option per square,
//! option `r·n + c` for square (r, c). It is built once per n ([`WeightedQueens::new`]) and
//! reused for every board; a board's numbers are the options' weights.
//!
//! Two ways to solve a board:
//! - [`Method::BranchBound`]: the engine's branch and bound ([`crate::engine::optimize`]),
//!   heaviest squares first, started from a heuristic layout (the first layout in heaviest-first
//!   order, improved by swapping pairs of files), with a bound from [`BoundKind`]: the
//!   assignment (Hungarian) bound over the free ranks and files using the still-safe squares,
//!   or the weaker rank/file maxima.
//! - [`Method::Enumerate`]: for small n, every solution is listed once (92 for n=8) and each
//!   board is scored against all of them. Exact and fast for many small boards.
//!
//! [`Method::Auto`] enumerates for n <= [`ENUMERATE_MAX_N`] and branches and bounds above,
//! with the Lagrangian-tightened assignment bound.

pub mod lagrange;

use std::ops::ControlFlow;

use crate::engine::optimize::{self, Bound, Config, Keep, Sense, Status};
use crate::engine::{Budget, OptionId, Problem, Solver, View};

use super::board;

/// Largest n for which [`Method::Auto`] enumerates all solutions (724 of them for n=10).
pub const ENUMERATE_MAX_N: usize = 10;

/// Subgradient steps per node of the default bound (measured best of 1, 3, 8, 15, 30 at
/// n = 16..24; see docs/weighted.md).
pub const DEFAULT_LAGRANGE_STEPS: u32 = 15;

/// The root node of a Lagrangian search gets this many times the steps of the other nodes,
/// and at least [`ROOT_STEPS_PER_RANK`] per rank: its multipliers are where every node's start,
/// and its bound is what is reported when the time runs out.
pub const ROOT_STEP_FACTOR: u32 = 20;

/// See [`ROOT_STEP_FACTOR`] (1000 steps at n = 40: about 0.05 s).
pub const ROOT_STEPS_PER_RANK: u32 = 25;

/// How to solve a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    Auto,
    Enumerate,
    BranchBound(BoundKind),
}

/// The bound used by the branch and bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// Maximum-weight assignment of the free ranks to the free files on still-safe squares.
    Assignment,
    /// The assignment bound tightened by Lagrangian penalties on the diagonals (up to this
    /// many subgradient steps per node).
    Lagrangian(u32),
    /// The smaller of: the sum over free ranks of their best safe square, the same over files.
    RankFileMax,
    /// The engine's generic bound (each square's weight split between its rank and file).
    Generic,
}

/// One layout: the file of the queen in each rank, and its score.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Layout {
    pub score: i128,
    pub queens: Vec<u32>,
}

/// The result for one board.
#[derive(Clone, Debug)]
pub struct BoardResult {
    pub n: usize,
    pub status: Status,
    /// Best first: one, every optimal one (up to a limit) or the K best, as asked.
    pub layouts: Vec<Layout>,
    /// The number of optimal layouts, when asked for all of them and proven.
    pub optimal_count: Option<u64>,
    /// Upper bound on the maximum (equal to it when optimal; `None` when infeasible).
    pub bound: Option<i128>,
    /// Search nodes (0 for enumeration).
    pub nodes: u64,
}

impl BoardResult {
    pub fn maximum(&self) -> Option<i128> {
        self.layouts.first().map(|l| l.score)
    }
}

/// What to report for a board.
#[derive(Clone, Debug)]
pub struct Request {
    pub keep: Keep,
    pub budget: Budget,
    pub method: Method,
    /// Threads for one board's branch and bound (`Keep::Best` with the Lagrangian or
    /// assignment bound; see [`optimize::optimize_aiming_parallel`]). 1: sequential.
    pub threads: usize,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            keep: Keep::Best,
            budget: Budget::unlimited(),
            method: Method::Auto,
            threads: 1,
        }
    }
}

/// The weighted n-queens model for one n, reusable for many boards.
pub struct WeightedQueens {
    n: usize,
    problem: Problem,
    /// For each item: `Some((true, r))` for rank r, `Some((false, c))` for file c, None for
    /// a diagonal.
    line_of_item: Vec<Option<(bool, u32)>>,
    /// All solutions (as files per rank), listed once on demand for enumeration.
    all: Option<Vec<u32>>,
}

impl WeightedQueens {
    /// The model for an n×n board (n >= 1): the board's exact cover with the corner
    /// diagonals kept ([`board::exact_cover`]).
    pub fn new(n: usize) -> WeightedQueens {
        let board::ExactCover { problem, lines, .. } = board::exact_cover(n, board::Corners::Keep);
        let line_of_item = lines
            .iter()
            .map(|l| match *l {
                board::Line::Rank(r) => Some((true, r)),
                board::Line::File(c) => Some((false, c)),
                board::Line::Diagonal(_) | board::Line::AntiDiagonal(_) => None,
            })
            .collect();
        WeightedQueens {
            n,
            problem,
            line_of_item,
            all: None,
        }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    /// The exact-cover problem (option `r·n + c` is square (r, c)).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Every solution, as files per rank, concatenated (n entries each), in search order.
    pub fn all_solutions(&mut self) -> &[u32] {
        if self.all.is_none() {
            let n = self.n;
            let mut all = Vec::new();
            let mut solver = Solver::new(&self.problem);
            solver.run(&Budget::unlimited(), &mut |s: &[OptionId]| {
                all.extend(layout_of(n, s));
                ControlFlow::Continue(())
            });
            self.all = Some(all);
        }
        self.all.as_deref().unwrap_or(&[])
    }

    /// Solves one board (`board[r·n + c]` is the number on square (r, c)).
    pub fn solve(&mut self, board: &[i64], req: &Request) -> BoardResult {
        assert_eq!(board.len(), self.n * self.n, "board of n² numbers");
        let method = match req.method {
            Method::Auto if self.n <= ENUMERATE_MAX_N => Method::Enumerate,
            Method::Auto => Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
            m => m,
        };
        match method {
            Method::Enumerate => self.enumerate(board, req.keep),
            Method::BranchBound(kind) => self.branch_bound(board, req, kind),
            Method::Auto => unreachable!("resolved above"),
        }
    }

    fn enumerate(&mut self, board: &[i64], keep: Keep) -> BoardResult {
        let n = self.n;
        let all = self.all_solutions();
        let count = all.len() / n.max(1);
        let score = |k: usize| -> i128 {
            let q = &all[k * n..(k + 1) * n];
            q.iter()
                .enumerate()
                .map(|(r, &c)| board[r * n + c as usize] as i128)
                .sum()
        };
        let layout = |k: usize, s: i128| Layout {
            score: s,
            queens: all[k * n..(k + 1) * n].to_vec(),
        };
        let mut layouts: Vec<Layout>;
        let mut optimal_count = None;
        match keep {
            Keep::Best | Keep::AllOptimal { .. } => {
                let scores: Vec<i128> = (0..count).map(score).collect();
                let best = scores.iter().copied().max();
                layouts = Vec::new();
                if let Keep::AllOptimal { .. } = keep {
                    optimal_count = Some(0);
                }
                if let Some(best) = best {
                    let mut ties = 0u64;
                    for (k, &s) in scores.iter().enumerate() {
                        if s == best {
                            ties += 1;
                            layouts.push(layout(k, s));
                        }
                    }
                    layouts.sort();
                    let cap = match keep {
                        Keep::AllOptimal { limit } => {
                            optimal_count = Some(ties);
                            limit.max(1)
                        }
                        _ => 1,
                    };
                    layouts.truncate(cap);
                }
            }
            Keep::Top(k) => {
                layouts = (0..count).map(|i| layout(i, score(i))).collect();
                layouts.sort_by(|a, b| b.score.cmp(&a.score).then(a.queens.cmp(&b.queens)));
                layouts.truncate(k);
            }
        }
        let status = if count == 0 {
            Status::Infeasible
        } else {
            Status::Optimal
        };
        let bound = layouts.first().map(|l| l.score);
        BoardResult {
            n,
            status,
            layouts,
            optimal_count,
            bound,
            nodes: 0,
        }
    }

    fn branch_bound(&mut self, board: &[i64], req: &Request, kind: BoundKind) -> BoardResult {
        let n = self.n;
        let gains = Sense::Maximize.gains(board);
        let order = optimize::best_first(&self.problem, &gains);
        let mut solver = Solver::with_options(&self.problem, order.iter().copied());
        let seeds: Vec<Vec<OptionId>> = heuristic(n, board, &mut solver)
            .map(|q| {
                q.iter()
                    .enumerate()
                    .map(|(r, &c)| OptionId((r * n) as u32 + c))
                    .collect()
            })
            .into_iter()
            .collect();
        let config = Config {
            sense: Sense::Maximize,
            keep: req.keep,
            budget: req.budget,
        };
        let opt = match kind {
            BoundKind::Lagrangian(steps) => {
                let root = steps
                    .saturating_mul(ROOT_STEP_FACTOR)
                    .max(ROOT_STEPS_PER_RANK * n as u32);
                let run = (&config, &seeds[..], &order[..], req.threads);
                self.lagrange(&mut solver, board, &gains, run, steps, root)
            }
            BoundKind::Assignment => {
                let run = (&config, &seeds[..], &order[..], req.threads);
                self.lagrange(&mut solver, board, &gains, run, 0, 0)
            }
            BoundKind::RankFileMax => {
                let mut b = RankFileMaxBound::new(n, &self.line_of_item, board);
                optimize::optimize_gains(&mut solver, &gains, &mut b, &config, &seeds)
            }
            BoundKind::Generic => {
                let mut b = optimize::ShareBound::new(&self.problem, &gains);
                optimize::optimize_gains(&mut solver, &gains, &mut b, &config, &seeds)
            }
        };
        let mut layouts: Vec<Layout> = opt
            .solutions
            .iter()
            .map(|s| Layout {
                score: s.value,
                queens: layout_of(n, &s.options),
            })
            .collect();
        if let Keep::AllOptimal { .. } = req.keep {
            layouts.sort();
        }
        BoardResult {
            n,
            status: opt.status,
            layouts,
            optimal_count: opt.optimal_count,
            bound: opt.bound,
            nodes: opt.stats.nodes(),
        }
    }
}

/// What [`WeightedQueens::lagrange`] runs with: the settings, the seeds, the option order and
/// the number of threads.
type Run<'a> = (&'a Config, &'a [Vec<OptionId>], &'a [OptionId], usize);

impl WeightedQueens {
    /// Branch and bound with [`lagrange::LagrangeBound`] (`steps` = 0: the plain assignment
    /// bound), aiming high first ([`optimize::optimize_aiming_parallel`]), computing in the
    /// narrowest integer type the board allows.
    fn lagrange<'p>(
        &'p self,
        solver: &mut Solver<'p>,
        board: &[i64],
        gains: &[i128],
        run: Run<'_>,
        steps: u32,
        root_steps: u32,
    ) -> optimize::Optimum {
        let n = self.n;
        let (mut opt, void) = if lagrange::fits_i32(n, board) {
            self.lagrange_in::<i32>(solver, board, gains, run, (steps, root_steps))
        } else if lagrange::fits_i64(n, board) {
            self.lagrange_in::<i64>(solver, board, gains, run, (steps, root_steps))
        } else {
            self.lagrange_in::<i128>(solver, board, gains, run, (steps, root_steps))
        };
        if void {
            // The i32 computation went out of its range (possible in principle, never seen on
            // real boards): solve again in i64, which the same board always fits.
            let (again, _) =
                self.lagrange_in::<i64>(solver, board, gains, run, (steps, root_steps));
            let stats = opt.stats;
            opt = again;
            opt.stats += stats;
        }
        opt
    }

    /// [`WeightedQueens::lagrange`] in the integer type `T`; true if the result is void
    /// because a bound went out of the range of `T`.
    fn lagrange_in<'p, T: lagrange::HungarianInt + Send + Sync>(
        &'p self,
        solver: &mut Solver<'p>,
        board: &[i64],
        gains: &[i128],
        (config, seeds, order, threads): Run<'_>,
        (steps, root_steps): (u32, u32),
    ) -> (optimize::Optimum, bool) {
        let (n, lines) = (self.n, &self.line_of_item[..]);
        let bound = || lagrange::LagrangeBound::<T>::new(n, lines, board, steps, root_steps);
        // With several threads, one more solver and bound per thread besides the main one.
        let workers = if threads > 1 { threads } else { 0 };
        let mut workers: Vec<_> = (0..workers)
            .map(|_| {
                let solver = Solver::with_options(&self.problem, order.iter().copied());
                (solver, bound())
            })
            .collect();
        let mut b = bound();
        let opt =
            optimize::optimize_aiming_parallel(solver, gains, &mut b, &mut workers, config, seeds);
        let void = b.out_of_range() || workers.iter().any(|(_, w)| w.out_of_range());
        (opt, void)
    }
}

/// The files per rank of a solution given as square options.
fn layout_of(n: usize, options: &[OptionId]) -> Vec<u32> {
    let mut q = vec![0u32; n];
    for o in options {
        let r = o.0 as usize / n;
        q[r] = o.0 % n as u32;
    }
    q
}

/// A quick starting layout: the first solution in heaviest-first order (within a small node
/// budget), then improved by swapping the files of two ranks while that keeps the queens
/// apart and raises the score.
pub fn heuristic(n: usize, board: &[i64], solver: &mut Solver<'_>) -> Option<Vec<u32>> {
    let budget = Budget {
        nodes: Some(2_000 + 200 * n as u64),
        ..Budget::solutions(1)
    };
    let mut first = None;
    solver.run(&budget, &mut |s: &[OptionId]| {
        first = Some(layout_of(n, s));
        ControlFlow::Break(())
    });
    let mut q = first?;
    improve_by_swaps(n, board, &mut q);
    Some(q)
}

/// Local repair: swap the files of ranks i and j when both diagonals stay free and the score
/// rises; repeat until no swap helps.
pub fn improve_by_swaps(n: usize, board: &[i64], q: &mut [u32]) {
    let mut da = vec![0u32; 2 * n];
    let mut db = vec![0u32; 2 * n];
    for (r, &c) in q.iter().enumerate() {
        da[r + c as usize] += 1;
        db[r + n - 1 - c as usize] += 1;
    }
    let w = |r: usize, c: u32| board[r * n + c as usize] as i128;
    let mut improved = true;
    while improved {
        improved = false;
        for i in 0..n {
            for j in i + 1..n {
                let (ci, cj) = (q[i], q[j]);
                let delta = w(i, cj) + w(j, ci) - w(i, ci) - w(j, cj);
                if delta <= 0 {
                    continue;
                }
                da[i + ci as usize] -= 1;
                db[i + n - 1 - ci as usize] -= 1;
                da[j + cj as usize] -= 1;
                db[j + n - 1 - cj as usize] -= 1;
                let (ai, bi) = (i + cj as usize, i + n - 1 - cj as usize);
                let (aj, bj) = (j + ci as usize, j + n - 1 - ci as usize);
                let ok = da[ai] == 0
                    && db[bi] == 0
                    && da[aj] == 0
                    && db[bj] == 0
                    && ai != aj
                    && bi != bj;
                if ok {
                    q.swap(i, j);
                    da[ai] += 1;
                    db[bi] += 1;
                    da[aj] += 1;
                    db[bj] += 1;
                    improved = true;
                } else {
                    da[i + ci as usize] += 1;
                    db[i + n - 1 - ci as usize] += 1;
                    da[j + cj as usize] += 1;
                    db[j + n - 1 - cj as usize] += 1;
                }
            }
        }
    }
}

/// The still-safe squares of the free ranks, read from the search's view, as a matrix over the
/// free ranks × free files. Shared by the queens bounds.
struct FreeSquares {
    n: usize,
    ranks: Vec<u32>,
    /// Position of each free file among the free files, `u32::MAX` if not free.
    file_pos: Vec<u32>,
    files: usize,
    /// The free files, in the order of their positions.
    file_list: Vec<u32>,
    /// `cell[i·files + j]`: weight of the safe square (rank i, file j) or None.
    cell: Vec<Option<i64>>,
}

impl FreeSquares {
    fn new(n: usize) -> Self {
        FreeSquares {
            n,
            ranks: Vec::with_capacity(n),
            file_pos: vec![u32::MAX; n],
            files: 0,
            file_list: Vec::with_capacity(n),
            cell: Vec::with_capacity(n * n),
        }
    }

    /// Fills from the view; false if a free rank or file has no safe square left.
    fn read(&mut self, view: &View<'_>, lines: &[Option<(bool, u32)>], board: &[i64]) -> bool {
        let n = self.n;
        self.ranks.clear();
        self.file_pos.iter_mut().for_each(|p| *p = u32::MAX);
        self.files = 0;
        self.file_list.clear();
        let mut rank_items = Vec::with_capacity(n);
        for item in view.active_primary() {
            if view.len(item) == 0 {
                return false;
            }
            match lines[item.0 as usize] {
                Some((true, r)) => {
                    self.ranks.push(r);
                    rank_items.push(item);
                }
                Some((false, c)) => {
                    self.file_pos[c as usize] = self.files as u32;
                    self.file_list.push(c);
                    self.files += 1;
                }
                None => {}
            }
        }
        let m = self.files;
        self.cell.clear();
        self.cell.resize(self.ranks.len() * m, None);
        for (i, &item) in rank_items.iter().enumerate() {
            for o in view.options(item) {
                let c = o.0 as usize % n;
                let j = self.file_pos[c] as usize;
                self.cell[i * m + j] = Some(board[o.0 as usize]);
            }
        }
        true
    }
}

/// The rank/file maxima bound: min(Σ over free ranks of the best safe square, Σ over free
/// files of the same). Cheap and weak.
pub struct RankFileMaxBound<'a> {
    lines: &'a [Option<(bool, u32)>],
    board: &'a [i64],
    free: FreeSquares,
}

impl<'a> RankFileMaxBound<'a> {
    pub fn new(n: usize, lines: &'a [Option<(bool, u32)>], board: &'a [i64]) -> Self {
        RankFileMaxBound {
            lines,
            board,
            free: FreeSquares::new(n),
        }
    }
}

impl Bound for RankFileMaxBound<'_> {
    fn bound(&mut self, view: &View<'_>, _: Option<i128>) -> Option<i128> {
        if !self.free.read(view, self.lines, self.board) {
            return None;
        }
        let m = self.free.files;
        let mut by_rank = 0i128;
        let mut col = vec![None::<i64>; m];
        for i in 0..self.free.ranks.len() {
            let mut best = None::<i64>;
            for (j, cm) in col.iter_mut().enumerate() {
                if let Some(w) = self.free.cell[i * m + j] {
                    best = Some(best.map_or(w, |b| b.max(w)));
                    *cm = Some(cm.map_or(w, |b| b.max(w)));
                }
            }
            by_rank += best? as i128;
        }
        let mut by_file = 0i128;
        for c in col {
            by_file += c? as i128;
        }
        Some(by_rank.min(by_file))
    }
}

/// A tiny, documented pseudo-random generator for reproducible boards: SplitMix64 (Steele,
/// Lea and Flood 2014; the constants of Vigna's reference code). Output is the same on every
/// platform and version.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..span` (span >= 1) by rejection: draws below `2^64 mod span` are redrawn,
    /// so every value is equally likely. `span` 0 means the full 2^64 range.
    pub fn below(&mut self, span: u64) -> u64 {
        if span == 0 {
            return self.next_u64();
        }
        let reject_below = span.wrapping_neg() % span; // 2^64 mod span
        loop {
            let x = self.next_u64();
            if x >= reject_below {
                return x % span;
            }
        }
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi);
        let span = (hi as i128 - lo as i128 + 1) as u128;
        let span = if span == 1u128 << 64 { 0 } else { span as u64 };
        (lo as i128 + self.below(span) as i128) as i64
    }
}

/// `k` boards of n×n numbers in `min..=max`, row by row, from SplitMix64 seeded with `seed`:
/// board after board, rank after rank, one draw of [`SplitMix64::range`] per square.
pub fn random_boards(n: usize, k: usize, seed: u64, min: i64, max: i64) -> Vec<Vec<i64>> {
    let mut g = SplitMix64::new(seed);
    (0..k)
        .map(|_| (0..n * n).map(|_| g.range(min, max)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// When the i32 bound goes out of its range, the board is solved again in i64: the
    /// answer is the same (and the nodes of the void attempt are counted).
    #[test]
    fn a_bound_out_of_its_range_is_solved_again_wider() {
        let n = 11;
        let req = Request {
            method: Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
            ..Request::default()
        };
        let enumerate = Request {
            method: Method::Enumerate,
            ..Request::default()
        };
        let mut model = WeightedQueens::new(n);
        for board in random_boards(n, 3, 11, -50, 99) {
            let expected = model.solve(&board, &enumerate);
            let normal = model.solve(&board, &req);
            lagrange::TEST_POTENTIAL_LIMIT.with(|t| t.set(Some(0)));
            let retried = model.solve(&board, &req);
            lagrange::TEST_POTENTIAL_LIMIT.with(|t| t.set(None));
            assert_eq!(expected.status, Status::Optimal);
            for r in [&normal, &retried] {
                assert_eq!(r.status, Status::Optimal);
                assert_eq!(r.maximum(), expected.maximum());
            }
            assert!(retried.nodes > normal.nodes);
        }
    }

    #[test]
    fn splitmix_reference_values() {
        // Vigna's splitmix64.c with seed 1234567: first outputs.
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }
}
