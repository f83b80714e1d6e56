//! Weighted n-queens, "the Sultan's Successors": a board of integers, place n
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

mod big;
pub mod count;
mod hungarian;
mod lagrange;
mod lns;
mod shard;
pub mod stack;
mod ties;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

pub use crate::random::SplitMix64;
pub use shard::{
    PartRequest, PartResult, SPLIT_PARTS_MIN, SPLIT_PARTS_PER_SHARD, SplitStats, check_record,
    fingerprint, layout_text, method_name, parse_layout, record_rule, split_target,
};

use crate::engine::optimize::{self, Bound, Config, Keep, Sense, Status};
use crate::engine::{Budget, ItemId, MAX_NODES, OptionId, Problem, Solver, Stats, View, Visitor};

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
    /// assignment bound; see [`optimize::Strategy::workers`]). 1: sequential.
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
    pub solver: Solver<'a>,
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
            Method::BranchBound(kind) => self.branch_bound(board, req, kind),
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

    /// The start of a branch and bound on `board` (before `deadline`).
    pub(crate) fn start(&self, board: &[i64], deadline: Option<Instant>) -> Start<'_> {
        let n = self.n;
        let gains = Sense::Maximize.gains(board);
        let order = optimize::best_first(&self.problem, &gains);
        let built = Instant::now();
        let mut solver = Solver::with_options(&self.problem, order.iter().copied());
        self.solver_nanos.store(
            u64::try_from(built.elapsed().as_nanos()).unwrap_or(u64::MAX),
            std::sync::atomic::Ordering::Relaxed,
        );
        let seeds: Vec<Vec<OptionId>> = heuristic(n, board, &mut solver, deadline)
            .map(|q| {
                q.iter()
                    .enumerate()
                    .map(|(r, &c)| OptionId((r * n) as u32 + c))
                    .collect()
            })
            .into_iter()
            .collect();
        Start {
            gains,
            order,
            solver,
            seeds,
        }
    }

    fn branch_bound(&mut self, board: &[i64], req: &Request, kind: BoundKind) -> BoardResult {
        let n = self.n;
        let deadline = req.budget.deadline;
        let Start {
            gains,
            order,
            mut solver,
            mut seeds,
        } = self.start(board, deadline);
        let maxima = rank_file_maxima(n, board);
        if deadline.is_none()
            && req.keep == Keep::Best
            && matches!(kind, BoundKind::Lagrangian(_))
            && n >= LNS_MIN_N
            && let Some(seed) = seeds.first_mut()
        {
            // No time limit: a short large-neighbourhood search first, so that a search
            // stopped by an interrupt has a good layout to show (the aims find none until
            // they reach the optimum). It changes the start only, not the optimum reported.
            let gain = |s: &[OptionId]| s.iter().map(|o| gains[o.0 as usize]).sum::<i128>();
            if gain(seed) < maxima {
                let start = layout_of(n, seed);
                let until = Instant::now() + UNTIMED_LNS;
                let (q, _, _) = lns::improve(
                    self,
                    &mut solver,
                    board,
                    &gains,
                    &order,
                    &start,
                    until,
                    &req.budget.stop,
                    req.threads,
                    1,
                );
                *seed = options_of(n, &q);
            }
        }
        if let (Some(deadline), Keep::Best, BoundKind::Lagrangian(steps)) =
            (deadline, req.keep, kind)
            && n >= LNS_MIN_N
            && let Some(seed) = seeds.first()
        {
            return self.big_board(
                board,
                req,
                (&gains, &order, &mut solver),
                seed,
                deadline,
                steps,
            );
        }
        let config = Config {
            sense: Sense::Maximize,
            keep: req.keep,
            budget: req.budget.clone(),
        };
        let opt = match kind {
            BoundKind::Lagrangian(steps) => {
                let root = steps
                    .saturating_mul(ROOT_STEP_FACTOR)
                    .max(ROOT_STEPS_PER_RANK * n as u32);
                let run = Run {
                    config: &config,
                    maxima,
                    seeds: &seeds,
                    order: &order,
                    threads: req.threads,
                    steps,
                    root_steps: root,
                };
                self.lagrange(&mut solver, board, &gains, &run)
            }
            BoundKind::Assignment => {
                let run = Run {
                    config: &config,
                    maxima,
                    seeds: &seeds,
                    order: &order,
                    threads: req.threads,
                    steps: 0,
                    root_steps: 0,
                };
                self.lagrange(&mut solver, board, &gains, &run)
            }
            BoundKind::RankFileMax => {
                let b = || RankFileMaxBound::new(n, &self.line_of_item, board);
                self.optimize_gains(&mut solver, &gains, b, &config, &seeds, maxima)
            }
            BoundKind::Generic => {
                let b = || {
                    let share = optimize::ShareBound::new(&self.problem, &gains);
                    ties::Tied(share, TieBreak::new(n, &self.line_of_item))
                };
                self.optimize_gains(&mut solver, &gains, b, &config, &seeds, maxima)
            }
        };
        let mut layouts = layouts_of(n, &opt);
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

impl WeightedQueens {
    /// A big board under a time limit ([`big`]): the large-neighbourhood search from the
    /// heuristic's layout `seed` for [`LNS_SHARE`] of the time, then the descent of the bound.
    fn big_board<'p>(
        &'p self,
        board: &[i64],
        req: &Request,
        (gains, order, solver): (&[i128], &[OptionId], &mut Solver<'p>),
        seed: &[OptionId],
        deadline: Instant,
        steps: u32,
    ) -> BoardResult {
        let n = self.n;
        let now = Instant::now();
        let until = now + deadline.saturating_duration_since(now).mul_f64(LNS_SHARE);
        let start = layout_of(n, seed);
        let (q, score, _) = lns::improve(
            self,
            solver,
            board,
            gains,
            order,
            &start,
            until,
            &req.budget.stop,
            req.threads,
            1,
        );
        let root = steps
            .saturating_mul(ROOT_STEP_FACTOR)
            .max(ROOT_STEPS_PER_RANK * n as u32);
        let seed = options_of(n, &q);
        let d = self.descend(
            solver,
            board,
            gains,
            order,
            &seed,
            score,
            (deadline, &req.budget.stop),
            req.threads,
            steps,
            root,
        );
        let mut best = Layout { score, queens: q };
        if let Some(f) = d.found
            && f.score > best.score
        {
            best = f;
        }
        // The cheap bound of the whole board is proven too, and there is always one.
        let maxima = rank_file_maxima(n, board);
        let bound = d.upper.map_or(maxima, |b| b.min(maxima)).max(best.score);
        let status = if bound == best.score {
            Status::Optimal
        } else {
            Status::Feasible
        };
        BoardResult {
            n,
            status,
            layouts: vec![best],
            optimal_count: None,
            bound: Some(bound),
            nodes: d.nodes,
        }
    }
}

impl WeightedQueens {
    /// With several `threads`, one more solver (trying the options in `order`) and bound
    /// (`make`) per thread besides the main one ([`optimize::Strategy::workers`]); none for
    /// one thread.
    pub(crate) fn workers<B>(
        &self,
        order: &[OptionId],
        threads: usize,
        make: impl Fn() -> B,
    ) -> Vec<(Solver<'_>, B)> {
        let workers = if threads > 1 { threads } else { 0 };
        (0..workers)
            .map(|_| {
                let solver = Solver::with_options(&self.problem, order.iter().copied());
                (solver, make())
            })
            .collect()
    }
}

/// What [`WeightedQueens::lagrange`] runs with.
struct Run<'a> {
    config: &'a Config,
    /// The rank/file maxima of the board: a bound proven beforehand.
    maxima: i128,
    /// Known layouts (the heuristic's), as square options.
    seeds: &'a [Vec<OptionId>],
    /// The option order of the solvers ([`optimize::best_first`]).
    order: &'a [OptionId],
    /// Threads for the branch and bound (1: sequential).
    threads: usize,
    /// Subgradient steps per node (0: the plain assignment bound), and at the root.
    steps: u32,
    root_steps: u32,
}

impl WeightedQueens {
    /// Branch and bound with [`lagrange::LagrangeBound`] (`steps` = 0: the plain assignment
    /// bound), aiming high first ([`optimize::Strategy::aiming`]), computing in the
    /// narrowest integer type the board allows.
    fn lagrange<'p>(
        &'p self,
        solver: &mut Solver<'p>,
        board: &[i64],
        gains: &[i128],
        run: &Run<'_>,
    ) -> optimize::Optimum {
        let n = self.n;
        let width = lagrange::Width::of(n, board);
        let (mut opt, void) =
            lagrange::with_width!(width, T => self.lagrange_in::<T>(solver, board, gains, run));
        if void {
            // The i32 computation went out of its range (possible in principle, never seen on
            // real boards): solve again in i64, which the same board always fits.
            let (again, _) = self.lagrange_in::<i64>(solver, board, gains, run);
            let stats = opt.stats;
            opt = again;
            opt.stats += stats;
        }
        opt
    }

    /// [`WeightedQueens::lagrange`] in the integer type `T`; true if the result is void
    /// because a bound went out of the range of `T`.
    fn lagrange_in<'p, T: hungarian::HungarianInt + Send + Sync>(
        &'p self,
        solver: &mut Solver<'p>,
        board: &[i64],
        gains: &[i128],
        run: &Run<'_>,
    ) -> (optimize::Optimum, bool) {
        let (n, lines) = (self.n, &self.line_of_item[..]);
        let (steps, root_steps) = (run.steps, run.root_steps);
        // Each aim searches the last one's nodes again: they start from where they ended.
        let memo = lagrange::Memo::<T>::new(n, lagrange::MEMO_BYTES);
        let bound = || {
            lagrange::LagrangeBound::<T>::new(n, lines, board, steps, root_steps).with_memo(&memo)
        };
        let mut walked = Stats::default();
        if run.config.keep == Keep::Best {
            // The plain assignment bound: one Hungarian solve at the root where the walk is
            // not taken.
            let mut b = lagrange::LagrangeBound::<T>::new(n, lines, board, 0, 0);
            let walk = self.walk_at_root(solver, gains, &mut b, run.config, run.seeds);
            // Out of the range of `T`, the walk's values mean nothing (the caller solves
            // again in a wider type).
            if !b.out_of_range() {
                match walk {
                    Ok(opt) => return (opt, false),
                    Err(stats) => walked = stats,
                }
            }
        }
        let (mut opt, void) = self.aim_with(solver, gains, run, bound, |b| b.out_of_range());
        opt.stats += walked;
        (opt, void)
    }

    /// [`optimize::optimize`] aiming high ([`optimize::Strategy::aiming`]) with the bounds
    /// `make` makes (one per thread); true if the result is void because some bound went out
    /// of its range (`void`).
    fn aim_with<'p, B: Bound + Send>(
        &'p self,
        solver: &mut Solver<'p>,
        gains: &[i128],
        run: &Run<'_>,
        make: impl Fn() -> B,
        void: impl Fn(&B) -> bool,
    ) -> (optimize::Optimum, bool) {
        let mut workers = self.workers(run.order, run.threads, &make);
        let mut b = make();
        // The cheap bound of the whole board is proven too, and there is always one.
        let plan = optimize::Strategy::new()
            .seeds(run.seeds)
            .aiming()
            .proven(run.maxima)
            .workers(&mut workers);
        let opt = optimize::optimize(solver, gains, &mut b, run.config, plan);
        let void = void(&b) || workers.iter().any(|(_, w)| void(w));
        (opt, void)
    }

    /// [`optimize::optimize`] with a bound `make` makes, first trying the tie rule's
    /// walk at the root's bound for one best layout (`Keep::Best`, [`ties`]).
    fn optimize_gains<B: Bound + Send>(
        &self,
        solver: &mut Solver<'_>,
        gains: &[i128],
        make: impl Fn() -> B,
        config: &Config,
        seeds: &[Vec<OptionId>],
        maxima: i128,
    ) -> optimize::Optimum {
        let mut walked = Stats::default();
        if config.keep == Keep::Best {
            match self.walk_at_root(solver, gains, &mut make(), config, seeds) {
                Ok(opt) => return opt,
                Err(stats) => walked = stats,
            }
        }
        // The cheap bound of the whole board is proven too, and there is always one.
        let plan = optimize::Strategy::new().seeds(seeds).proven(maxima);
        let mut opt = optimize::optimize(solver, gains, &mut make(), config, plan);
        opt.stats += walked;
        opt
    }

    /// The tie rule's walk ([`ties::smallest_reaching`]) at the root's bound with `bound`,
    /// taken when a seed reaches that bound: the seed is then optimal, and the walk finds the
    /// smallest optimal layout (until the deadline; cut short, the seed is reported). `Err`
    /// with the walk's statistics when no seed reaches the root's bound. The root's bound
    /// takes at most [`WALK_SHARE`] of the time left.
    fn walk_at_root<B: Bound>(
        &self,
        solver: &mut Solver<'_>,
        gains: &[i128],
        bound: &mut B,
        config: &Config,
        seeds: &[Vec<OptionId>],
    ) -> Result<optimize::Optimum, Stats> {
        let gain = |s: &[OptionId]| s.iter().map(|o| gains[o.0 as usize]).sum::<i128>();
        let Some(seed) = seeds.iter().max_by_key(|s| gain(s)) else {
            return Err(Stats::default());
        };
        let require = gain(seed);
        let deadline = config.budget.deadline;
        let root_deadline = deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now).mul_f64(WALK_SHARE)
        });
        let (walk, value, stats) = ties::smallest_reaching(
            solver,
            &self.line_of_item,
            gains,
            bound,
            root_deadline,
            (deadline, &config.budget.stop),
            require,
        );
        if value != Some(require) {
            return Err(stats);
        }
        // Cut short by the deadline, the seed (optimal too) is reported.
        let options = walk.unwrap_or_else(|| {
            let mut s = seed.clone();
            s.sort_unstable();
            s
        });
        Ok(optimize::Optimum {
            status: Status::Optimal,
            solutions: vec![optimize::Scored {
                value: require,
                options,
            }],
            optimal_count: None,
            bound: Some(require),
            stats,
        })
    }
}

/// The share of the time left that the tie rule's walk at the root may take
/// ([`WeightedQueens::walk_at_root`]).
const WALK_SHARE: f64 = 0.125;

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

/// A quick starting layout: the first solution in heaviest-first order (within a small node
/// budget), then improved by swapping the files of two ranks while that keeps the queens
/// apart and raises the score. The swaps stop at the `deadline`; the first layout may take
/// [`HEURISTIC_GRACE`] beyond it, so that a search given no time still reports a heavy layout
/// when one is quick to find. The grace counts from the deadline, not from the start of the
/// search (which at n = 1000 may come after the deadline); a search that runs out of it stops
/// at once, and [`explicit_layout`] is the start instead (None for n = 2 and 3).
pub fn heuristic(
    n: usize,
    board: &[i64],
    solver: &mut Solver<'_>,
    deadline: Option<Instant>,
) -> Option<Vec<u32>> {
    let budget = Budget {
        nodes: Some(2_000 + 200 * n as u64),
        deadline: deadline.map(|d| d.checked_add(HEURISTIC_GRACE).unwrap_or(d)),
        ..Budget::solutions(1)
    };
    let mut first = FirstLayout {
        n,
        deadline: budget.deadline,
        entered: 0,
        late: false,
        layout: None,
    };
    solver.run(&budget, &mut first);
    let mut q = first.layout.or_else(|| explicit_layout(n))?;
    improve_by_swaps(n, board, &mut q, deadline);
    Some(q)
}

/// A layout for every n except 2 and 3, in O(n), from the classic explicit construction
/// (Hoffman, Loessi and Moore 1969): with 1-based files, rank i takes the i-th of the even
/// files 2, 4, … followed by the odd files 1, 3, …; when n mod 6 = 2 the odd files are
/// 3, 1, 7, 9, …, 5 instead, when n mod 6 = 3 the even files are 4, 6, …, 2 and the odd ones
/// 5, 7, …, 1, 3. The heuristic's start when the search for a heavy first layout ran out of
/// time (at n = 1000 that search alone takes about a second).
pub fn explicit_layout(n: usize) -> Option<Vec<u32>> {
    if n == 2 || n == 3 {
        return None;
    }
    let n32 = n as u32;
    let mut evens: Vec<u32> = (1..=n32).filter(|c| c % 2 == 0).collect();
    let mut odds: Vec<u32> = (1..=n32).filter(|c| c % 2 == 1).collect();
    match n % 6 {
        2 => {
            odds.swap(0, 1);
            let five = odds.remove(2);
            odds.push(five);
        }
        3 => {
            evens.rotate_left(1);
            odds.rotate_left(2);
        }
        _ => {}
    }
    Some(evens.into_iter().chain(odds).map(|c| c - 1).collect())
}

/// The visitor of [`heuristic`]: keeps the first layout, and reads the clock every 16 nodes
/// (the engine does every 1024, which is most of a second at n = 1000), stopping the search
/// once the deadline has passed ([`Visitor::stop`]).
struct FirstLayout {
    n: usize,
    deadline: Option<Instant>,
    entered: u32,
    late: bool,
    layout: Option<Vec<u32>>,
}

impl Visitor for FirstLayout {
    const PRUNES: bool = true;

    fn enter(&mut self, _view: &View<'_>) -> bool {
        if let Some(d) = self.deadline
            && !self.late
        {
            self.entered = self.entered.wrapping_add(1);
            self.late = self.entered.is_multiple_of(16) && Instant::now() >= d;
        }
        !self.late
    }

    fn stop(&self) -> bool {
        self.late
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        self.layout = Some(layout_of(self.n, options));
        ControlFlow::Break(())
    }
}

/// Local repair: swap the files of ranks i and j when both diagonals stay free and the score
/// rises; repeat until no swap helps, or until the `deadline` (checked once per rank).
pub(crate) fn improve_by_swaps(n: usize, board: &[i64], q: &mut [u32], deadline: Option<Instant>) {
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
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
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
    fn read(&mut self, view: &View<'_>, lines: &[Line], board: &[i64]) -> bool {
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
                Line::Rank(r) => {
                    self.ranks.push(r);
                    rank_items.push(item);
                }
                Line::File(c) => {
                    self.file_pos[c as usize] = self.files as u32;
                    self.file_list.push(c);
                    self.files += 1;
                }
                Line::Diagonal(_) | Line::AntiDiagonal(_) => {}
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

/// The tie-break of the queens bounds ([`Bound::precedes`]): option `r·n + c` is square (r, c),
/// so a layout's sorted options list its files rank by rank, and comparing them compares the
/// layouts as rank → file vectors.
pub(crate) struct TieBreak {
    n: usize,
    /// The item of each rank.
    rank_item: Vec<ItemId>,
    /// Scratch: the file chosen in each rank, `u32::MAX` if none.
    chosen: Vec<u32>,
}

impl TieBreak {
    pub fn new(n: usize, lines: &[Line]) -> Self {
        let mut rank_item = vec![ItemId(0); n];
        for (i, line) in lines.iter().enumerate() {
            if let Line::Rank(r) = *line {
                rank_item[r as usize] = ItemId(i as u32);
            }
        }
        TieBreak {
            n,
            rank_item,
            chosen: vec![u32::MAX; n],
        }
    }

    /// Whether a layout below the node of `view` could be lexicographically smaller than
    /// `best` (sorted square options, one per rank): rank by rank, while the node can still
    /// match `best`, whether it can place the queen on a smaller file.
    pub fn precedes(&mut self, view: &View<'_>, best: &[OptionId]) -> bool {
        let n = self.n;
        if best.len() != n {
            return true;
        }
        self.chosen.iter_mut().for_each(|c| *c = u32::MAX);
        for o in view.chosen() {
            self.chosen[o.0 as usize / n] = o.0 % n as u32;
        }
        for (r, b) in best.iter().enumerate() {
            let k = b.0 % n as u32;
            let c = self.chosen[r];
            if c != u32::MAX {
                match c.cmp(&k) {
                    std::cmp::Ordering::Less => return true,
                    std::cmp::Ordering::Greater => return false,
                    std::cmp::Ordering::Equal => continue,
                }
            }
            let mut same = false;
            for o in view.options(self.rank_item[r]) {
                let c = o.0 % n as u32;
                if c < k {
                    return true;
                }
                same |= c == k;
            }
            if !same {
                return false;
            }
        }
        false
    }
}

/// The rank/file maxima of a whole board: min(Σ over ranks of the rank's largest number, Σ
/// over files of the same), an upper bound on every layout's score, in O(n²).
pub(crate) fn rank_file_maxima(n: usize, board: &[i64]) -> i128 {
    let mut by_rank = 0i128;
    let mut col = vec![i64::MIN; n];
    for row in board.chunks_exact(n) {
        by_rank += row.iter().copied().max().unwrap_or(0) as i128;
        for (c, &w) in col.iter_mut().zip(row) {
            *c = (*c).max(w);
        }
    }
    let by_file: i128 = col.iter().map(|&c| c as i128).sum();
    by_rank.min(by_file)
}

/// The rank/file maxima bound: min(Σ over free ranks of the best safe square, Σ over free
/// files of the same). Cheap and weak.
pub(crate) struct RankFileMaxBound<'a> {
    lines: &'a [Line],
    board: &'a [i64],
    free: FreeSquares,
    ties: TieBreak,
}

impl<'a> RankFileMaxBound<'a> {
    /// The bound for an n×n `board` with the model's rank and file `lines`.
    pub fn new(n: usize, lines: &'a [Line], board: &'a [i64]) -> Self {
        RankFileMaxBound {
            lines,
            board,
            free: FreeSquares::new(n),
            ties: TieBreak::new(n, lines),
        }
    }
}

impl Bound for RankFileMaxBound<'_> {
    const TIE_BREAK: bool = true;

    fn precedes(&mut self, view: &View<'_>, best: &[OptionId]) -> bool {
        self.ties.precedes(view, best)
    }

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
