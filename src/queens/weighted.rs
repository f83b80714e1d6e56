//! Weighted n-queens, "the Sultan's Successors": a board of integers, place n
//! non-attacking queens so that the numbers under them add up to as much as possible.
//!
//! The model is the exact-cover one: primary items for the ranks and files (organ-pipe order,
//! middle first, as Knuth lists them), secondary items for the diagonals, one option per square,
//! option `r·n + c` for square (r, c). It is built once per n ([`WeightedQueens::new`]) and
//! reused for every board; a board's numbers are the options' weights.
//!
//! Two ways to solve a board:
//! - [`Method::BranchBound`]: the engine's branch and bound, driven by hand through the door
//!   ([`run::optimize_by_hand`](crate::engine::run::optimize_by_hand)),
//!   heaviest squares first, started from a heuristic layout (the first layout in heaviest-first
//!   order, improved by swapping pairs of files), with a bound from [`BoundKind`]: the
//!   assignment (Hungarian) bound over the free ranks and files using the still-safe squares,
//!   or the weaker rank/file maxima.
//! - [`Method::Enumerate`]: for small n, every solution is listed once (92 for n=8) and each
//!   board is scored against all of them. Exact and fast for many small boards.
//!
//! [`Method::Auto`] enumerates for n <= [`ENUMERATE_MAX_N`] and branches and bounds above,
//! with the Lagrangian-tightened assignment bound.
//!
//! # The files
//!
//! - this file: the model, the request and the result, enumeration;
//! - `solve.rs`: a board's branch and bound (its start, the bound each [`BoundKind`] asks
//!   for, the tie rule's walk at the root, a big board under a time limit);
//! - `heuristic.rs`: the start's layout ([`heuristic`], [`explicit_layout`]);
//! - `squares.rs`, `hungarian.rs`, `lagrange.rs`: the bounds (the free squares of a node and
//!   the rank/file maxima; the assignment; its Lagrangian tightening);
//! - `ties.rs`: the tie rule (the smallest optimal layout);
//! - `lns.rs`, `big.rs`: the large-neighbourhood search and the descent of the bound;
//! - `shard.rs`: a search split over machines, and searches from a floor;
//! - `count.rs`: the number of optimal layouts, counted apart from the search;
//! - `stack.rs`: the choices a search of a stack of boards makes (keep, threads, clock).

mod big;
pub mod count;
mod heuristic;
mod hungarian;
mod lagrange;
mod lns;
mod shard;
mod solve;
mod squares;
pub mod stack;
mod ties;

use std::ops::ControlFlow;
use std::time::Duration;

pub use crate::random::SplitMix64;
pub use heuristic::{explicit_layout, heuristic};
pub use shard::{
    PartRequest, PartResult, SPLIT_PARTS_MIN, SPLIT_PARTS_PER_SHARD, SplitStats, check_record,
    fingerprint, layout_text, method_name, parse_layout, record_rule, split_target,
};
use solve::Run;
use squares::FreeSquares;
pub(crate) use squares::{RankFileMaxBound, rank_file_maxima};
pub(crate) use ties::TieBreak;

use crate::engine::optimize::{self, Keep, Status};
use crate::engine::run::Dance;
use crate::engine::{Budget, MAX_NODES, OptionId, Problem};

use super::board::{self, Line};

/// The largest board `queens max` (and the Python `maximise`) takes: the largest n for which a
/// search under a time limit of a second answers within two seconds in well under 2 GB
/// (release build, two threads, `queens random 1000`: 1.5 s and 0.19 GB on a loaded machine;
/// n = 2000 took 3.8 s and 0.7 GB, n = 4000 13 s and 6.1 GB before the search built fewer
/// solvers). Building the model and a solver over its 5n² + 6n − 2 nodes grows as n², and a
/// search at n = 1000 is still far from proving anything. [`check_size`] refuses the rest,
/// before anything is allocated: call it before converting the numbers of a board.
pub const MAX_N: usize = 1000;

/// The nodes of the model for an n×n board (see [`MAX_N`]).
const fn model_nodes(n: usize) -> u64 {
    let n = n as u64;
    5 * n * n + 6 * n - 2
}

const _: () = assert!(model_nodes(MAX_N) < MAX_NODES);

/// About how many bytes a search of an n×n board on `threads` threads needs at most: the
/// model (about 44 bytes a square), the board, its gains and option order (28), a solver per
/// thread and one more (100 a square each), a bound per thread (about 48), and 64 MB of
/// address space per thread for the allocator and its stack. An estimate on the high side,
/// for a refusal before anything is built ([`check_memory`]).
pub fn memory_estimate(n: usize, threads: usize) -> u64 {
    let squares = (n as u64).saturating_mul(n as u64);
    let t = threads.max(1) as u64;
    let per_square = 44 + 28 + 100 * (t + 1) + 48 * t;
    squares
        .saturating_mul(per_square)
        .saturating_add(t.saturating_mul(64 << 20))
        .saturating_add(64 << 20)
}

/// Whether a search of an n×n board on `threads` threads fits in `limit` bytes (an
/// address-space limit such as `ulimit -v`), by [`memory_estimate`]: the error says how much
/// it needs.
pub fn check_memory(n: usize, threads: usize, limit: u64) -> Result<(), WeightedError> {
    let need = memory_estimate(n, threads);
    if need > limit {
        Err(WeightedError::Memory {
            n,
            threads,
            need,
            limit,
        })
    } else {
        Ok(())
    }
}

/// What the weighted n-queens library refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightedError {
    /// n = 0.
    #[error("a board has at least one square (n = 0)")]
    Empty,
    /// n above [`MAX_N`].
    #[error("n = {0} is above {MAX_N}, the largest board queens max takes")]
    TooLarge(usize),
    /// The search would need more memory than the limit ([`check_memory`]).
    #[error(
        "a {n}×{n} board on {threads} thread(s) needs about {} MB, above the memory limit of {} MB \
         (ulimit -v): use fewer threads (--threads) or a higher limit",
        need >> 20,
        limit >> 20
    )]
    Memory {
        /// The board size.
        n: usize,
        /// The threads of the search.
        threads: usize,
        /// The bytes it needs ([`memory_estimate`]).
        need: u64,
        /// The limit, in bytes.
        limit: u64,
    },
}

/// Whether `queens max` and the Python `maximise` take an n×n board: 1 to [`MAX_N`]
/// ([`WeightedQueens::new`] panics otherwise). It allocates nothing: call it as soon as n is
/// known, before reading or converting the board's numbers.
pub fn check_size(n: usize) -> Result<(), WeightedError> {
    match n {
        0 => Err(WeightedError::Empty),
        n if n > MAX_N => Err(WeightedError::TooLarge(n)),
        _ => Ok(()),
    }
}

/// The smallest n for which several threads pay, and so the smallest n for which `queens max`
/// uses all cores when `--threads` is not given: below it a board is solved in milliseconds
/// and building a solver and a bound per thread costs more than the split saves (release build, one board file each, 1 vs 2 threads: n = 12, 300 boards,
/// 1.3 s vs 1.8 s; n = 16, 100 boards, 1.75 s vs 2.15 s; n = 20, 20 boards, 1.17 s vs 1.16 s).
/// The layouts reported do not depend on the threads.
pub const PARALLEL_MIN_N: usize = 20;

/// Largest n for which [`Method::Auto`] enumerates all solutions (724 of them for n=10).
pub const ENUMERATE_MAX_N: usize = 10;

/// Subgradient steps per node of the default bound (measured best of 1, 3, 8, 15, 30 at
/// n = 16..24; see docs/weighted.md).
pub const DEFAULT_LAGRANGE_STEPS: u32 = 15;

/// The smallest n for which a search under a time limit first improves its start by a
/// large-neighbourhood search (`lns`), for [`LNS_SHARE`] of the time.
pub const LNS_MIN_N: usize = 40;

/// The share of the time left that the large-neighbourhood search takes (see [`LNS_MIN_N`]).
pub const LNS_SHARE: f64 = 0.7;

/// From [`LNS_MIN_N`], a search without a time limit first improves the heuristic's layout by
/// this much large-neighbourhood search (not when that layout already reaches the rank/file
/// maxima): an interrupted search then reports a layout near the optimum rather than the
/// heuristic's (`queens random 40 --seed 1`, SIGINT after 0.5 to 2 s on a loaded machine:
/// 3512 to 3608 instead of 3059; the optimum is 3665).
pub const UNTIMED_LNS: Duration = Duration::from_millis(300);

/// How long the heuristic's first layout may take beyond the deadline ([`heuristic`]).
pub const HEURISTIC_GRACE: Duration = Duration::from_millis(100);

/// The most subgradient steps per node `queens max --lagrange-steps` takes (the root gets
/// [`ROOT_STEP_FACTOR`] times as many).
pub const MAX_LAGRANGE_STEPS: u32 = 10_000;

/// The root node of a Lagrangian search gets this many times the steps of the other nodes,
/// and at least [`ROOT_STEPS_PER_RANK`] per rank: its multipliers are where every node's start,
/// and its bound is what is reported when the time runs out.
pub const ROOT_STEP_FACTOR: u32 = 20;

/// See [`ROOT_STEP_FACTOR`] (1000 steps at n = 40: about 0.05 s).
pub const ROOT_STEPS_PER_RANK: u32 = 25;

/// How to solve a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Enumerate for n <= [`ENUMERATE_MAX_N`], else branch and bound with the Lagrangian bound.
    Auto,
    /// List every solution once and score each board against all of them (small n).
    Enumerate,
    /// The engine's branch and bound with the given bound.
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
    /// The sum of the weights under the queens.
    pub score: i128,
    /// The file (0-based) of the queen in each rank.
    pub queens: Vec<u32>,
}

/// The result for one board.
#[derive(Clone, Debug)]
pub struct BoardResult {
    /// The board size.
    pub n: usize,
    /// Optimal, feasible (a budget ran out), infeasible or unknown.
    pub status: Status,
    /// Best first: one, every optimal one (up to a limit) or the K best, as asked.
    pub layouts: Vec<Layout>,
    /// The number of optimal layouts, when asked for all of them and proven.
    pub optimal_count: Option<u64>,
    /// A proven upper bound on the maximum: equal to it when optimal, `None` when
    /// infeasible. A search cut short reports the best bound it proved, or, when it had no
    /// time for one, the rank/file maxima of the board; never the best layout's score.
    pub bound: Option<i128>,
    /// Search nodes (0 for enumeration).
    pub nodes: u64,
}

impl BoardResult {
    /// The best score found, if any layout was.
    pub fn maximum(&self) -> Option<i128> {
        self.layouts.first().map(|l| l.score)
    }
}

/// What to report for a board.
#[derive(Clone, Debug)]
pub struct Request {
    /// Which layouts to keep: the best, every optimal one, or the K best.
    pub keep: Keep,
    /// The search budget (time, nodes) for each board.
    pub budget: Budget,
    /// How to solve the board.
    pub method: Method,
    /// Threads for one board's branch and bound (`Keep::Best` with the Lagrangian or
    /// assignment bound; see [`Tactics::workers`](crate::engine::run::Tactics::workers)). 1: sequential.
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

/// What a branch and bound on one board starts from ([`WeightedQueens::start`]).
pub(crate) struct Start<'a> {
    /// The gain of each option (its square's weight, maximised).
    pub gains: Vec<i128>,
    /// The options, best first ([`optimize::best_first`]).
    pub order: Vec<OptionId>,
    /// A solver trying the options in that order.
    pub solver: Dance<'a>,
    /// The heuristic's layout, if it found one in time, as a seed.
    pub seeds: Vec<Vec<OptionId>>,
}

/// The weighted n-queens model for one n, reusable for many boards.
pub struct WeightedQueens {
    n: usize,
    problem: Problem,
    /// What each item stands for.
    line_of_item: Vec<Line>,
    /// All solutions (as files per rank), listed once on demand for enumeration.
    all: Option<Vec<u32>>,
    /// How long the last solver over the model took to build, in nanoseconds
    /// ([`WeightedQueens::solver_cost`]).
    solver_nanos: std::sync::atomic::AtomicU64,
}

impl WeightedQueens {
    /// The model for an n×n board (n >= 1): the board's exact cover with the corner
    /// diagonals kept ([`board::exact_cover`]).
    pub fn new(n: usize) -> WeightedQueens {
        if let Err(e) = check_size(n) {
            panic!("WeightedQueens::new({n}): {e}");
        }
        let board::ExactCover { problem, lines, .. } = board::exact_cover(n, board::Corners::Keep);
        let line_of_item = lines;
        WeightedQueens {
            n,
            problem,
            line_of_item,
            all: None,
            solver_nanos: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// How long a solver over the model takes to build (the last one a search built; zero
    /// before any): on a big board a phase that needs more solvers (the threads of the
    /// large-neighbourhood search, of the descent of the bound) builds them only when they
    /// would take at most half the time left, so that the deadline holds.
    pub fn solver_cost(&self) -> Duration {
        Duration::from_nanos(self.solver_nanos.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The board size.
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
            let mut solver = Dance::new(&self.problem);
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
        // The cheap bound of the whole board, for a progress display.
        req.budget
            .stop
            .progress()
            .offer_bound(rank_file_maxima(self.n, board));
        let method = match req.method {
            Method::Auto if self.n <= ENUMERATE_MAX_N => Method::Enumerate,
            Method::Auto => Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
            m => m,
        };
        match method {
            Method::Enumerate => self.enumerate(board, req.keep),
            Method::BranchBound(kind) => self.search_board(board, req, kind),
            Method::Auto => unreachable!("resolved above"),
        }
    }

    fn enumerate(&mut self, board: &[i64], keep: Keep) -> BoardResult {
        let n = self.n;
        let all = self.all_solutions();
        let count = all.len() / n.max(1);
        let score = |k: usize| score_of(n, board, &all[k * n..(k + 1) * n]);
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
}

/// The layouts of an optimisation's solutions, in its order.
fn layouts_of(n: usize, opt: &optimize::Optimum) -> Vec<Layout> {
    opt.solutions
        .iter()
        .map(|s| Layout {
            score: s.value,
            queens: layout_of(n, &s.options),
        })
        .collect()
}

/// The score of a layout (files per rank) on a board.
fn score_of(n: usize, board: &[i64], q: &[u32]) -> i128 {
    q.iter()
        .enumerate()
        .map(|(r, &c)| board[r * n + c as usize] as i128)
        .sum()
}

/// The square options of a layout (files per rank).
fn options_of(n: usize, q: &[u32]) -> Vec<OptionId> {
    q.iter()
        .enumerate()
        .map(|(r, &c)| OptionId((r * n) as u32 + c))
        .collect()
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

    #[test]
    fn explicit_layouts_are_placements() {
        assert_eq!(explicit_layout(2), None);
        assert_eq!(explicit_layout(3), None);
        for n in (1..200).chain([999, 1000]).filter(|&n| n != 2 && n != 3) {
            let q = explicit_layout(n).expect("a layout for n != 2, 3");
            let mut files = q.clone();
            files.sort();
            assert_eq!(files, (0..n as u32).collect::<Vec<_>>(), "n = {n}");
            let sums: std::collections::HashSet<_> =
                q.iter().enumerate().map(|(r, &c)| r + c as usize).collect();
            let diffs: std::collections::HashSet<_> = q
                .iter()
                .enumerate()
                .map(|(r, &c)| r + n - c as usize)
                .collect();
            assert_eq!((sums.len(), diffs.len()), (n, n), "n = {n}");
        }
    }

    /// The model's size limit is the engine's: `check_size` says so in its message.
    #[test]
    fn sizes_outside_the_model_are_refused() {
        assert_eq!(check_size(0), Err(WeightedError::Empty));
        assert!(check_size(MAX_N).is_ok());
        let e = check_size(MAX_N + 1).unwrap_err();
        assert!(e.to_string().contains(&MAX_N.to_string()), "{e}");
    }

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
            hungarian::TEST_POTENTIAL_LIMIT.with(|t| t.set(Some(0)));
            let retried = model.solve(&board, &req);
            hungarian::TEST_POTENTIAL_LIMIT.with(|t| t.set(None));
            assert_eq!(expected.status, Status::Optimal);
            for r in [&normal, &retried] {
                assert_eq!(r.status, Status::Optimal);
                assert_eq!(r.maximum(), expected.maximum());
            }
            assert!(retried.nodes > normal.nodes);
        }
    }

    /// The memo of the aims (`lagrange::Memo`) changes the speed, never the answer: with
    /// every node given the same key, each node starts from some other node's state and
    /// branches on its item where that item is still open, and the optimum and its layout
    /// are still the brute-force ones, on one thread and on two.
    #[test]
    fn colliding_memo_keys_leave_the_answer_exact() {
        let enumerate = Request {
            method: Method::Enumerate,
            ..Request::default()
        };
        // Whether the collisions changed a search at all (else the test tests nothing).
        let mut changed = false;
        for n in [9, 10, 11] {
            let mut model = WeightedQueens::new(n);
            for board in random_boards(n, 3, 40 + n as u64, -20, 99) {
                let expected = model.solve(&board, &enumerate);
                for threads in [1, 2] {
                    let req = Request {
                        method: Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
                        threads,
                        ..Request::default()
                    };
                    let normal = model.solve(&board, &req);
                    lagrange::TEST_MEMO_COLLIDES.with(|t| t.set(true));
                    let collided = model.solve(&board, &req);
                    lagrange::TEST_MEMO_COLLIDES.with(|t| t.set(false));
                    changed |= collided.nodes != normal.nodes;
                    for r in [&normal, &collided] {
                        assert_eq!(r.status, Status::Optimal, "n = {n}");
                        assert_eq!(r.maximum(), expected.maximum(), "n = {n}");
                        assert_eq!(r.layouts, expected.layouts, "n = {n}, {threads} threads");
                    }
                }
            }
        }
        assert!(changed, "the colliding memo was never used");
    }
}
