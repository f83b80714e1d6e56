//! Weighted proofs split over machines, and searches from a floor.
//!
//! [`WeightedQueens::solve_part`] runs shard `I` of `M` of the deterministic split of a
//! board's branch and bound, or the whole search, optionally from a *floor* `F`: only layouts
//! scoring at least `F` are looked for, so that a search (or a shard) that finds none proves
//! that the maximum is below `F` ("below the floor", bound `F − 1`).
//!
//! The split ([`run::split_for_shards`]): the top of the search tree, searched with the
//! bound (a fresh one, the same in every shard), pruning only what cannot reach the floor (or,
//! without a floor, nodes without a placement), cut at the shallowest depth that gives at
//! least [`split_target`]`(M)` parts; part `k` (in search order) belongs to shard
//! `k mod M + 1`. It depends on the board, the bound (`--method`, `--lagrange-steps`), the
//! floor, M and the program — not on the clock, the threads, the heuristic's layout or the
//! shard — so the M shards cover the search exactly once. Each shard searches its parts one
//! after the other with the ordinary branch and bound (from the floor, or aiming high without
//! one), each from the best layout found so far (and the heuristic's), on `req.threads`
//! threads.
//!
//! A shard's record ([`PartResult::record`], kind `queens-max`) carries the board's
//! [`fingerprint`] (n and every number), the method, the floor, the best layout of its part
//! (or none) and the bound it proved; `xcover merge` takes the best over the shards, ties to
//! the lexicographically smallest layout, as one search reports.

use crate::engine::optimize::{Bound, Config, Keep, Optimum, Sense, ShareBound, Status};
use crate::engine::run::{self, BoundSplit, Dance, Tactics, Workers};
use crate::engine::{OptionId, Stats};
use crate::quote::quote;
use crate::records::{self, Hex64, Kind, Rule, Shard, ShardRecord};

use super::hungarian::HungarianInt;
use super::lagrange::{self, LagrangeBound};
use super::{
    BoardResult, BoundKind, DEFAULT_LAGRANGE_STEPS, ENUMERATE_MAX_N, MAX_N, Method,
    RankFileMaxBound, Request, Run, Start, WeightedQueens, explicit_layout, layouts_of,
    rank_file_maxima,
};

/// Parts per shard the split aims at (see [`split_target`]).
pub const SPLIT_PARTS_PER_SHARD: usize = 8;

/// The fewest parts the split aims at (see [`split_target`]).
pub const SPLIT_PARTS_MIN: usize = 32;

/// The parts the split of a board aims at for `shards` shards: at least
/// [`SPLIT_PARTS_MIN`], and [`SPLIT_PARTS_PER_SHARD`] per shard, so that each shard gets
/// several sub-trees from all over the tree.
pub fn split_target(shards: usize) -> usize {
    SPLIT_PARTS_MIN.max(shards.saturating_mul(SPLIT_PARTS_PER_SHARD))
}

/// Nodes per part of [`split_target`] that one top of the tree may take before the split
/// stops deepening (see [`run::split_for_shards`]).
pub const SPLIT_NODES_PER_PART: u64 = 16;

/// The most nodes one top of the tree may take before the split stops deepening:
/// [`SPLIT_NODES_PER_PART`] per part aimed at.
pub fn split_max_nodes(shards: usize) -> u64 {
    SPLIT_NODES_PER_PART.saturating_mul(split_target(shards) as u64)
}

/// Which part of a board's search to run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PartRequest {
    /// Shard `(I, M)` (1-based) of the split; `None`: the whole search.
    pub shard: Option<(usize, usize)>,
    /// Only layouts scoring at least this much are looked for.
    pub floor: Option<i128>,
}

/// How the split went, for one shard.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitStats {
    /// The depth of the cut (queens placed above it).
    pub depth: usize,
    /// The parts of the whole split.
    pub parts: usize,
    /// The parts of this shard.
    pub mine: usize,
    /// The parts of this shard searched to the end.
    pub searched: usize,
}

/// The result of [`WeightedQueens::solve_part`].
#[derive(Clone, Debug)]
pub struct PartResult {
    /// The best layout of the part (at most one), the status and the bound. For a shard the
    /// status and bound are those of its part of the search: `Optimal` when every part of the
    /// shard was searched (the layout is the best of the part, or the heuristic's when
    /// that is better), `Infeasible` when the part has no layout (reaching the floor, if
    /// there is one: see `below_floor`), `Feasible`/`Unknown` when the time ran out.
    pub result: BoardResult,
    /// The search was complete and no layout reaches the floor: the maximum (of the part)
    /// is below it; `result.status` is then `Infeasible` and `result.bound` is `floor − 1`.
    /// (On the boards without any layout, n = 2 and 3, the result is infeasible instead.)
    pub below_floor: bool,
    /// The method that ran (`Auto` resolved).
    pub method: Method,
    /// The floor asked for.
    pub floor: Option<i128>,
    /// The engine's statistics (every search; for a shard the top of the tree too).
    pub stats: Stats,
    /// For a shard: how the search was split.
    pub split: Option<SplitStats>,
    /// A stop was requested through the budget's [`crate::engine::Stop`] before the search
    /// ended: an unproven result is `interrupted`.
    pub interrupted: bool,
}

/// The fingerprint of a board: FNV-1a 64 of `queens-max n=N w=W1,W2,...` (the numbers row
/// by row, in decimal). Shards merge only with equal fingerprints.
pub fn fingerprint(n: usize, board: &[i64]) -> Hex64 {
    let mut s = format!("queens-max n={n} w=");
    for (i, w) in board.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&w.to_string());
    }
    Hex64::of(s.as_bytes())
}

/// The name of a method in the records (`engine`): `lagrangian-K` (K steps per node),
/// `assignment`, `maxima`, `generic` or `enumerate`. The split depends on it.
pub fn method_name(method: Method) -> String {
    match method {
        Method::Auto => "auto".into(),
        Method::Enumerate => "enumerate".into(),
        Method::BranchBound(BoundKind::Lagrangian(k)) => format!("lagrangian-{k}"),
        Method::BranchBound(BoundKind::Assignment) => "assignment".into(),
        Method::BranchBound(BoundKind::RankFileMax) => "maxima".into(),
        Method::BranchBound(BoundKind::Generic) => "generic".into(),
    }
}

/// The method of a record's `engine` field ([`method_name`]), for the branch and bound only.
fn parse_method(s: &str) -> Option<BoundKind> {
    match s {
        "assignment" => Some(BoundKind::Assignment),
        "maxima" => Some(BoundKind::RankFileMax),
        "generic" => Some(BoundKind::Generic),
        _ => {
            let k: u32 = s.strip_prefix("lagrangian-")?.parse().ok()?;
            (k <= super::MAX_LAGRANGE_STEPS && s == format!("lagrangian-{k}"))
                .then_some(BoundKind::Lagrangian(k))
        }
    }
}

/// A layout as written in the records: the files rank by rank, comma-separated (`2,0,3,1`).
pub fn layout_text(queens: &[u32]) -> String {
    queens
        .iter()
        .map(|q| q.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses [`layout_text`]; `None` unless it is a placement of n non-attacking queens.
pub fn parse_layout(s: &str, n: usize) -> Option<Vec<u32>> {
    let q: Vec<u32> = s
        .split(',')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    if q.len() != n {
        return None;
    }
    let mut file = vec![false; n];
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    for (r, &c) in q.iter().enumerate() {
        let c = c as usize;
        if c >= n
            || std::mem::replace(&mut file[c], true)
            || std::mem::replace(&mut diag[r + c], true)
            || std::mem::replace(&mut anti[r + n - 1 - c], true)
        {
            return None;
        }
    }
    Some(q)
}

/// The rule the merge checks `queens-max` records by ([`check_record`]).
pub fn record_rule() -> Rule {
    Rule {
        kind: Kind::QueensMax,
        check: check_record,
    }
}

/// The rules of a `queens-max` record, checked by [`records::merge`] on each record and on the
/// total: n in the model's range; a known branch-and-bound method; no symmetry or unique
/// count; sense `max`; a layout exactly when there is a value, and then a placement of n
/// queens; a value reaching the floor; a status a weighted shard can have, and its value and
/// bound as that status says (`optimal`: bound = value; `below-floor`: no value, a floor,
/// bound = floor − 1; `infeasible`: no value, no bound; `feasible`: a value not
/// above the bound; `time`: no value). The fingerprint cannot be checked without the board.
pub fn check_record(r: &ShardRecord) -> Result<(), String> {
    use records::Status as S;
    let n = r.n.ok_or("a queens-max record without n")? as usize;
    if !(1..=MAX_N).contains(&n) {
        return Err(format!("n = {n} is outside 1..={MAX_N}"));
    }
    let engine = r.engine.as_deref().unwrap_or("");
    if parse_method(engine).is_none() {
        return Err(format!("unknown method '{}'", quote(engine)));
    }
    if r.symmetry.is_some() || r.unique.is_some() {
        return Err("a queens-max record has no symmetry or unique count".into());
    }
    if r.sense != Some(Sense::Maximize) {
        return Err("a queens-max record maximises (sense=max)".into());
    }
    match (&r.layout, r.value) {
        (Some(l), Some(_)) => {
            parse_layout(l, n)
                .ok_or_else(|| format!("layout '{}' is not a placement of {n} queens", quote(l)))?;
        }
        (None, None) => {}
        _ => return Err("a value without a layout, or a layout without a value".into()),
    }
    if let (Some(f), Some(v)) = (r.floor, r.value)
        && v < f
    {
        return Err(format!("value {v} is below the floor {f}"));
    }
    if let (Some(b), Some(v)) = (r.bound, r.value)
        && b < v
    {
        return Err(format!("bound {b} is below the value {v}"));
    }
    let ok = match r.status {
        S::Optimal => r.value.is_some() && r.bound == r.value,
        S::BelowFloor => {
            r.value.is_none() && r.floor.is_some() && r.bound == r.floor.map(|f| f - 1)
        }
        S::Infeasible => r.value.is_none() && r.bound.is_none(),
        S::Feasible => r.value.is_some(),
        S::Time => r.value.is_none(),
        _ => false,
    };
    if !ok {
        return Err(format!(
            "status {} does not fit value={} bound={} floor={}",
            r.status.name(),
            opt(r.value),
            opt(r.bound),
            opt(r.floor)
        ));
    }
    Ok(())
}

fn opt(v: Option<i128>) -> String {
    v.map_or_else(|| "none".into(), |v| v.to_string())
}

impl PartResult {
    /// The sealed shard record of this result for `shard` of the board (`n` and its numbers),
    /// taking `seconds`.
    pub fn record(&self, board: &[i64], shard: Shard, seconds: f64) -> ShardRecord {
        use records::Status as S;
        let res = &self.result;
        let mut r = ShardRecord::new(Kind::QueensMax, fingerprint(res.n, board), shard);
        r.n = Some(res.n as u32);
        r.engine = Some(method_name(self.method));
        r.solutions = u128::from(self.stats.solutions());
        r.nodes = self.stats.nodes();
        r.updates = Some(self.stats.updates());
        r.tasks = self.split.map_or(1, |s| s.mine as u64);
        let stopped_by = if self.interrupted {
            S::Interrupted
        } else {
            S::Time
        };
        r.status = S::of_board_stopped(res.status, self.below_floor, stopped_by);
        r.sense = Some(Sense::Maximize);
        r.value = res.maximum();
        r.bound = res.bound;
        r.floor = self.floor;
        r.layout = res.layouts.first().map(|l| layout_text(&l.queens));
        r.seconds = seconds;
        r.seal()
    }
}

/// What one run of [`run_part`] gives.
struct Ran {
    optimum: Optimum,
    /// The split, when it was made and is valid (not voided).
    split: Option<BoundSplit>,
    info: Option<SplitStats>,
    /// A bound went out of the range of its integer type: the result is void.
    void: bool,
}

/// [`run_part`] on one thread with a bound that is never void and no split given.
fn run_part_alone<B: Bound + Send>(
    solver: &mut Dance<'_>,
    gains: &[i128],
    make: &dyn Fn() -> B,
    config: &Config,
    seeds: &[Vec<OptionId>],
    part: &PartRequest,
) -> Ran {
    run_part(
        solver,
        gains,
        make,
        &mut Workers::none(),
        config,
        seeds,
        part,
        None,
        &|_| false,
    )
}

/// One part's search with bounds from `make` (see [`WeightedQueens::solve_part`]); `split`:
/// a valid split made earlier (after a void run), else it is made here.
#[allow(clippy::too_many_arguments)]
fn run_part<'p, B: Bound + Send>(
    solver: &mut Dance<'p>,
    gains: &[i128],
    make: &dyn Fn() -> B,
    workers: &mut Workers<'p, B>,
    config: &Config,
    seeds: &[Vec<OptionId>],
    part: &PartRequest,
    split: Option<BoundSplit>,
    void: &dyn Fn(&B) -> bool,
) -> Ran {
    let workers_void = |w: &Workers<'p, B>| w.bounds().any(void);
    let Some((s, m)) = part.shard else {
        let floor = part.floor.expect("a floor when there is no shard");
        let mut b = make();
        let plan = Tactics::new().seeds(seeds).floor(floor).workers(workers);
        let optimum = run::optimize_by_hand(solver, gains, &mut b, config, plan);
        let void = void(&b) || workers_void(workers);
        return Ran {
            optimum,
            split: None,
            info: None,
            void,
        };
    };
    let split = match split {
        Some(split) => split,
        None => {
            let (split, b) = run::split_for_shards(
                solver,
                gains,
                make,
                part.floor,
                split_target(m),
                split_max_nodes(m),
                &config.budget,
            );
            if void(&b) {
                let optimum = run::nothing_found(config.sense, split.stats);
                return Ran {
                    optimum,
                    split: None,
                    info: None,
                    void: true,
                };
            }
            split
        }
    };
    let mut b = make();
    let p = run::optimize_part(
        solver,
        gains,
        &split,
        (s, m),
        &mut b,
        workers,
        config,
        seeds,
        part.floor,
    );
    let info = SplitStats {
        depth: split.depth,
        parts: split.parts.len(),
        mine: p.mine,
        searched: p.searched,
    };
    Ran {
        optimum: p.optimum,
        void: void(&b) || workers_void(workers),
        split: Some(split),
        info: Some(info),
    }
}

impl WeightedQueens {
    /// One board's answer: [`WeightedQueens::solve`], or with `floor` the best layout reaching
    /// it ([`WeightedQueens::solve_part`] of the whole search); true when no layout reaches the
    /// floor (the result is then `Infeasible` with bound `floor − 1`).
    pub fn solve_from(
        &mut self,
        board: &[i64],
        req: &Request,
        floor: Option<i128>,
    ) -> (BoardResult, bool) {
        match floor {
            Some(floor) => {
                let part = PartRequest {
                    shard: None,
                    floor: Some(floor),
                };
                let p = self.solve_part(board, req, &part);
                (p.result, p.below_floor)
            }
            None => (self.solve(board, req), false),
        }
    }

    /// Solves part of a board's search (see the module documentation): shard `part.shard` of
    /// the split, or the whole search, for layouts reaching `part.floor`. Keeps the best
    /// layout only (`req.keep` is not read). A shard always branches and bounds (`Auto` and
    /// `Enumerate` run the default Lagrangian bound); without a shard `Auto` enumerates for
    /// n <= [`ENUMERATE_MAX_N`]. Without a shard and a floor this is [`WeightedQueens::solve`]
    /// with `Keep::Best`.
    pub fn solve_part(&mut self, board: &[i64], req: &Request, part: &PartRequest) -> PartResult {
        assert_eq!(board.len(), self.n * self.n, "board of n² numbers");
        let n = self.n;
        let lagrangian = Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS));
        let method = match req.method {
            Method::Auto | Method::Enumerate if part.shard.is_some() => lagrangian,
            Method::Auto if n <= ENUMERATE_MAX_N => Method::Enumerate,
            Method::Auto => lagrangian,
            m => m,
        };
        let best = Request {
            keep: Keep::Best,
            method,
            ..req.clone()
        };
        if part.shard.is_none() && part.floor.is_none() {
            let result = self.solve(board, &best);
            return PartResult {
                result,
                below_floor: false,
                method,
                floor: None,
                stats: Stats::default(),
                split: None,
                interrupted: req.budget.stop.requested(),
            };
        }
        let Method::BranchBound(kind) = method else {
            // A floor on the enumeration: the best layout, if it reaches the floor.
            let mut result = self.solve(board, &best);
            let floor = part.floor.expect("a floor");
            let below = result.maximum().is_none_or(|m| m < floor) && explicit_layout(n).is_some();
            if below {
                result.status = Status::Infeasible;
                result.layouts.clear();
                result.bound = Some(floor - 1);
            }
            return PartResult {
                result,
                below_floor: below,
                method,
                floor: part.floor,
                stats: Stats::default(),
                split: None,
                interrupted: req.budget.stop.requested(),
            };
        };
        let Start {
            gains,
            order,
            mut solver,
            seeds,
        } = self.start(board, req.budget.deadline);
        let config = Config {
            sense: Sense::Maximize,
            keep: Keep::Best,
            budget: req.budget.clone(),
        };
        let lines = &self.line_of_item[..];
        let ran = match kind {
            BoundKind::Lagrangian(_) | BoundKind::Assignment => {
                let steps = match kind {
                    BoundKind::Lagrangian(k) => k,
                    _ => 0,
                };
                let root_steps = if steps == 0 {
                    0
                } else {
                    steps
                        .saturating_mul(super::ROOT_STEP_FACTOR)
                        .max(super::ROOT_STEPS_PER_RANK * n as u32)
                };
                let run = Run {
                    config: &config,
                    maxima: rank_file_maxima(n, board),
                    seeds: &seeds,
                    order: &order,
                    threads: req.threads,
                    steps,
                    root_steps,
                };
                self.lagrange_part(&mut solver, board, &gains, &run, part)
            }
            BoundKind::RankFileMax => {
                let make = || RankFileMaxBound::new(n, lines, board);
                run_part_alone(&mut solver, &gains, &make, &config, &seeds, part)
            }
            BoundKind::Generic => {
                // With the queens' tie-break, as a whole run has ([`super::ties::Tied`]).
                let make = || {
                    let share = ShareBound::new(&self.problem, &gains);
                    super::ties::Tied(share, super::TieBreak::new(n, lines))
                };
                run_part_alone(&mut solver, &gains, &make, &config, &seeds, part)
            }
        };
        let mut opt = ran.optimum;
        // n = 2 and 3 have no layout at all: infeasible, floor or not.
        let below_floor = part.floor.is_some()
            && opt.status == Status::Infeasible
            && explicit_layout(n).is_some();
        if below_floor {
            opt.bound = part.floor.map(|f| f - 1);
        } else if opt.status == Status::Infeasible {
            opt.bound = None;
        }
        if matches!(opt.status, Status::Feasible | Status::Unknown) {
            // The cheap bound of the whole board is proven too, and there is always one.
            let maxima = rank_file_maxima(n, board);
            opt.bound = Some(opt.bound.map_or(maxima, |b| b.min(maxima)));
            if let Some(f) = part.floor {
                // Nothing proven is below what the floor search proved.
                opt.bound = opt.bound.map(|b| b.max(f - 1));
            }
            opt = run::settled(Keep::Best, opt);
        }
        let layouts = layouts_of(n, &opt);
        PartResult {
            result: BoardResult {
                n,
                status: opt.status,
                layouts,
                optimal_count: None,
                bound: opt.bound,
                nodes: opt.stats.nodes(),
            },
            below_floor,
            method,
            floor: part.floor,
            stats: opt.stats,
            split: ran.info,
            interrupted: req.budget.stop.requested(),
        }
    }

    /// [`run_part`] with the Lagrangian (or assignment) bound in the narrowest integer type
    /// the board allows; a void run is repeated in `i64` (reusing the split when it was valid).
    fn lagrange_part<'p>(
        &'p self,
        solver: &mut Dance<'p>,
        board: &[i64],
        gains: &[i128],
        run: &Run<'_>,
        part: &PartRequest,
    ) -> Ran {
        let n = self.n;
        let width = lagrange::Width::of(n, board);
        let first = lagrange::with_width!(width, T => {
            self.lagrange_part_in::<T>(solver, board, gains, run, part, None)
        });
        if !first.void {
            return first;
        }
        let mut again = self.lagrange_part_in::<i64>(solver, board, gains, run, part, first.split);
        again.optimum.stats += first.optimum.stats;
        again
    }

    fn lagrange_part_in<'p, T: HungarianInt + Send + Sync>(
        &'p self,
        solver: &mut Dance<'p>,
        board: &[i64],
        gains: &[i128],
        run: &Run<'_>,
        part: &PartRequest,
        split: Option<BoundSplit>,
    ) -> Ran {
        let (n, lines) = (self.n, &self.line_of_item[..]);
        let (steps, root_steps) = (run.steps, run.root_steps);
        let make = || LagrangeBound::<T>::new(n, lines, board, steps, root_steps);
        let mut workers = self.workers(run.order, run.threads, make);
        let void = |b: &LagrangeBound<'_, T>| b.out_of_range();
        run_part(
            solver,
            gains,
            &make,
            &mut workers,
            run.config,
            run.seeds,
            part,
            split,
            &void,
        )
    }
}
