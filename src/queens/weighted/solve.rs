//! Solving one board by branch and bound: the start (the heuristic's layout, the option order,
//! the search), the bound each [`BoundKind`] asks for, the tie rule's walk at the root, and
//! the big board under a time limit (large-neighbourhood search, then the descent of the
//! bound, [`super::big`]).

use std::time::Instant;

use crate::engine::optimize::{self, Bound, Config, Keep, Sense, Status};
use crate::engine::run::{self, Dance, Tactics, Workers};
use crate::engine::{OptionId, Stats};

use super::{
    BoardResult, BoundKind, LNS_MIN_N, LNS_SHARE, Layout, ROOT_STEP_FACTOR, ROOT_STEPS_PER_RANK,
    RankFileMaxBound, Request, Start, TieBreak, UNTIMED_LNS, WeightedQueens, heuristic, hungarian,
    lagrange, layout_of, layouts_of, lns, options_of, rank_file_maxima, ties,
};

impl WeightedQueens {
    /// The start of a branch and bound on `board` (before `deadline`).
    pub(crate) fn start(&self, board: &[i64], deadline: Option<Instant>) -> Start<'_> {
        let n = self.n;
        let gains = Sense::Maximize.gains(board);
        let order = optimize::best_first(&self.problem, &gains);
        let built = Instant::now();
        let mut solver = Dance::in_order(&self.problem, order.iter().copied());
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

    /// Branch and bound on `board` with the bound `kind` asks for.
    pub(super) fn search_board(
        &mut self,
        board: &[i64],
        req: &Request,
        kind: BoundKind,
    ) -> BoardResult {
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

    /// A big board under a time limit ([`super::big`]): the large-neighbourhood search from the
    /// heuristic's layout `seed` for [`LNS_SHARE`] of the time, then the descent of the bound.
    fn big_board<'p>(
        &'p self,
        board: &[i64],
        req: &Request,
        (gains, order, solver): (&[i128], &[OptionId], &mut Dance<'p>),
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

    /// With several `threads`, one more search (trying the options in `order`) and bound
    /// (`make`) per thread besides the main one ([`Tactics::workers`]); none for one thread.
    pub(crate) fn workers<B>(
        &self,
        order: &[OptionId],
        threads: usize,
        make: impl Fn() -> B,
    ) -> Workers<'_, B> {
        let workers = if threads > 1 { threads } else { 0 };
        Workers::new(&self.problem, order, workers, make)
    }
}

/// What [`WeightedQueens::lagrange`] runs with.
pub(super) struct Run<'a> {
    pub(super) config: &'a Config,
    /// The rank/file maxima of the board: a bound proven beforehand.
    pub(super) maxima: i128,
    /// Known layouts (the heuristic's), as square options.
    pub(super) seeds: &'a [Vec<OptionId>],
    /// The option order of the solvers ([`optimize::best_first`]).
    pub(super) order: &'a [OptionId],
    /// Threads for the branch and bound (1: sequential).
    pub(super) threads: usize,
    /// Subgradient steps per node (0: the plain assignment bound), and at the root.
    pub(super) steps: u32,
    pub(super) root_steps: u32,
}

impl WeightedQueens {
    /// Branch and bound with [`lagrange::LagrangeBound`] (`steps` = 0: the plain assignment
    /// bound), aiming high first ([`Tactics::aiming`]), computing in the
    /// narrowest integer type the board allows.
    fn lagrange<'p>(
        &'p self,
        solver: &mut Dance<'p>,
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
        solver: &mut Dance<'p>,
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

    /// [`run::optimize_by_hand`] aiming high ([`Tactics::aiming`]) with the bounds
    /// `make` makes (one per thread); true if the result is void because some bound went out
    /// of its range (`void`).
    fn aim_with<'p, B: Bound + Send>(
        &'p self,
        solver: &mut Dance<'p>,
        gains: &[i128],
        run: &Run<'_>,
        make: impl Fn() -> B,
        void: impl Fn(&B) -> bool,
    ) -> (optimize::Optimum, bool) {
        let mut workers = self.workers(run.order, run.threads, &make);
        let mut b = make();
        // The cheap bound of the whole board is proven too, and there is always one.
        let plan = Tactics::new()
            .seeds(run.seeds)
            .aiming()
            .proven(run.maxima)
            .workers(&mut workers);
        let opt = run::optimize_by_hand(solver, gains, &mut b, run.config, plan);
        let void = void(&b) || workers.bounds().any(&void);
        (opt, void)
    }

    /// [`run::optimize_by_hand`] with a bound `make` makes, first trying the tie rule's
    /// walk at the root's bound for one best layout (`Keep::Best`, [`ties`]).
    fn optimize_gains<B: Bound + Send>(
        &self,
        solver: &mut Dance<'_>,
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
        let plan = Tactics::new().seeds(seeds).proven(maxima);
        let mut opt = run::optimize_by_hand(solver, gains, &mut make(), config, plan);
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
        solver: &mut Dance<'_>,
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
