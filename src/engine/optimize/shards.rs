//! A branch and bound split over machines: the deterministic split of a
//! `Keep::Best` search into parts, and the search of one shard's parts.
//!
//! [`split_bound`] searches the top of the tree with the bound, as the sequential search
//! would, down to a cut: every node kept at the cut becomes a part (the options chosen on the
//! way to it and those its ancestors excluded). The cut is the shallowest depth that gives at
//! least `target` parts. What the top of the tree prunes depends only on the problem, the
//! solver's option order, the bound and the `floor` — not on any heuristic's layout, the
//! clock, the threads or the shard — so every shard of a run computes the same parts.
//! [`optimize_parts`] then searches the parts of shard `I` of `M` (parts dealt round-robin,
//! [`in_shard`]) one after the other, each by the ordinary branch and bound (aiming high, or
//! from the floor), each starting from the best solution found so far.
//!
//! [`optimize_split`] searches a shard's parts of a count's split in turn the same way (a shard
//! of `run::optimize`, any [`Keep`]); both share how a part is searched and what the parts
//! cut short leave unproven.
//!
//! The shards' results combine by taking the best: with the tie-break of the bound
//! ([`Bound::TIE_BREAK`]), the smallest sorted options among the best, as one search reports.

use std::time::Instant;

use super::bounds::Bound;
use super::branch_bound::{BranchBound, Window, sorted_seed};
use super::strategy::{
    Strategy, conclude, optimize, optimize_aiming_parallel, optimize_floor_parallel, settle,
};
use super::types::{Config, Keep, Optimum, Scored, Status};
use crate::engine::budget::{Budget, End};
use crate::engine::problem::OptionId;
use crate::engine::search::dlx::Solver;
use crate::engine::split::{MAX_SPLIT_DEPTH, Part, Split, in_shard};
use crate::engine::stats::Stats;

/// The top of a branch-and-bound tree, cut into parts ([`split_bound`]).
#[derive(Clone, Debug)]
pub(crate) struct BoundSplit {
    /// The sub-trees at the cut, in the order of the search: the options chosen on the way to
    /// each (forced ones included) and the options its ancestors excluded.
    pub parts: Vec<(Vec<OptionId>, Vec<OptionId>)>,
    /// The best solution found above the cut (gain, sorted options), if any.
    pub found: Option<(i128, Vec<OptionId>)>,
    /// The depth of the cut (options chosen, forced ones included).
    pub depth: usize,
    /// The bound (gain) at the root of the search; `None` when the root has no completion
    /// or its bound was not computed.
    pub root: Option<i128>,
    /// Statistics of the top of the tree (every depth tried).
    pub stats: Stats,
    /// Whether the top of the tree was searched to the end before the deadline. If not, the
    /// parts are not the split and must not be searched.
    pub complete: bool,
}

/// The split of the `Keep::Best` branch and bound of `solver` (below its forced options) for
/// shards: the top of the tree searched with a fresh bound from `make_bound` (so that its
/// state does not depend on earlier searches), pruning what cannot reach `floor` (a gain;
/// `None`: only nodes without a completion) or a solution found above the cut, and cut at the
/// shallowest depth that gives at least `target` parts.
///
/// Deeper cuts are tried one after the other while there are fewer parts. A floor prunes the
/// top of the tree hard, and it may not widen: the deepening stops where no part is left (the
/// top of the tree was the whole search: every shard has done it, and there is nothing left to
/// split), at `MAX_SPLIT_DEPTH` below the forced options, or once a top of the tree takes
/// more than `max_nodes` nodes; the split is then the one with the most parts of the depths
/// tried (the shallowest of equals). So the work every shard repeats stays small.
///
/// Deterministic given the problem, the option order, the bound, the floor, `target` and
/// `max_nodes`, unless the deadline of `limits` passes or its stop is requested (then
/// `complete` is false). Returns the split and the bound that made it.
pub(crate) fn split_bound<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    make_bound: &dyn Fn() -> B,
    floor: Option<i128>,
    target: usize,
    max_nodes: u64,
    limits: &Budget,
) -> (BoundSplit, B) {
    let base = solver.forced().len();
    let mut stats = Stats::default();
    // Only the deadline and the stop handle of `limits` apply: the split's own node budget
    // is `max_nodes`, per depth.
    let deadline = limits.deadline;
    let budget = Budget {
        deadline,
        ..Budget::unlimited()
    }
    .with_stop(&limits.stop);
    let mut best: Option<(BoundSplit, B)> = None;
    let mut depth = base + 1;
    loop {
        let mut bound = make_bound();
        let mut bb = BranchBound::new(gains, &mut bound, Keep::Best);
        bb.aim(Window {
            floor,
            ceiling: None,
        });
        bb.cut = Some(depth);
        bb.set_watch(&budget);
        let outcome = solver.run(&budget, &mut bb);
        stats += outcome.stats;
        // A bound stopped by the clock is still valid but not the one the other shards
        // compute: a split that ran into the deadline is not the split.
        let complete = outcome.end == End::Exhausted
            && !bb.was_late()
            && deadline.is_none_or(|d| Instant::now() < d);
        let parts = std::mem::take(&mut bb.parts);
        let found = bb.kept.first().cloned();
        let root = bb.root_bound.flatten();
        drop(bb);
        let split = BoundSplit {
            parts,
            found,
            depth,
            root,
            stats,
            complete,
        };
        let last = !complete
            || split.parts.len() >= target
            || split.parts.is_empty()
            || depth >= base + MAX_SPLIT_DEPTH;
        if last {
            return (split, bound);
        }
        let wide = outcome.stats.nodes() > max_nodes;
        if best
            .as_ref()
            .is_none_or(|b| split.parts.len() > b.0.parts.len())
        {
            best = Some((split, bound));
        }
        if wide {
            let (mut split, bound) = best.expect("a split was kept");
            split.stats = stats;
            return (split, bound);
        }
        depth += 1;
    }
}

/// How one shard's parts were searched ([`optimize_parts`]).
#[derive(Clone, Debug)]
pub(crate) struct PartsOptimum {
    /// `Optimal`: every part of the shard was searched to the end and the best solution
    /// reaching the floor is kept; `Infeasible`: every part was searched and none reaches the
    /// floor (or there is no solution at all); `Feasible`/`Unknown`: cut short by the deadline.
    /// The bound (gain units converted to weights by the sense) is an upper bound on the
    /// parts of the shard (and the seeds): the best value when optimal, `floor − 1` when
    /// nothing reaches a floor, `None` when infeasible without a floor or when nothing was
    /// proven.
    pub optimum: Optimum,
    /// The parts of the shard (of the whole split).
    pub mine: usize,
    /// The parts of the shard searched to the end.
    pub searched: usize,
}

/// Searches the parts of `split` that belong to shard `shard = (I, M)` (1-based, dealt
/// round-robin), one after the other, on `solver` (no options forced; its option order the
/// one the split was made with) and `workers` (threads, as in
/// [`Strategy::workers`](super::Strategy::workers)), with `bound` (kept across the parts: each
/// part's root starts from the last one's state). Each part is searched for solutions reaching
/// `floor` (a gain) when there is one, else aiming high
/// ([`Strategy::aiming`](super::Strategy::aiming)); each starts from the best solution known so
/// far (`seeds` reaching the floor, the split's own solution, earlier parts'). `config.keep`
/// must be `Keep::Best`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn optimize_parts<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    split: &BoundSplit,
    shard: (usize, usize),
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
    floor: Option<i128>,
) -> PartsOptimum {
    assert_eq!(config.keep, Keep::Best, "shards keep the best solution");
    let (s, m) = shard;
    let mine: Vec<usize> = (0..split.parts.len())
        .filter(|&k| in_shard(k, s, m))
        .collect();
    let mut best: Option<(i128, Vec<OptionId>)> = None;
    let offer = |best: &mut Option<(i128, Vec<OptionId>)>, c: (i128, Vec<OptionId>)| {
        // A greater gain; among equal gains, with a tie-break, the smaller options.
        let better =
            |b: &(i128, Vec<OptionId>)| c.0 > b.0 || (B::TIE_BREAK && c.0 == b.0 && c.1 < b.1);
        if floor.is_none_or(|f| c.0 >= f) && best.as_ref().is_none_or(better) {
            *best = Some(c);
        }
    };
    for seed in seeds {
        offer(&mut best, sorted_seed(seed, gains));
    }
    if let Some(f) = &split.found {
        offer(&mut best, f.clone());
    }
    let mut stats = split.stats;
    let mut searched = 0;
    // The parts cut short or never started (then the root's bound is the shard's).
    let mut open = Open {
        unbounded: !split.complete,
        ..Open::default()
    };
    if split.complete {
        for &k in &mine {
            if config.budget.out_of_time().is_some() {
                open.unbounded = true;
                break;
            }
            let (prefix, excluded) = &split.parts[k];
            let seeds: Vec<Vec<OptionId>> = best.iter().map(|b| b.1.clone()).collect();
            let part = search_part(solver, prefix, excluded, |solver| match floor {
                Some(f) => {
                    optimize_floor_parallel(solver, gains, bound, workers, config, &seeds, f)
                }
                None => optimize_aiming_parallel(solver, gains, bound, workers, config, &seeds),
            });
            stats += part.stats;
            for sol in &part.solutions {
                offer(
                    &mut best,
                    (config.sense.value(sol.value), sol.options.clone()),
                );
            }
            match part.status {
                Status::Optimal | Status::Infeasible => searched += 1,
                Status::Feasible | Status::Unknown => {
                    open.cut_short(part.bound.map(|b| config.sense.value(b)));
                    // The parts not started are bounded by the root only.
                    open.unbounded |= searched + 1 < mine.len();
                    break;
                }
            }
        }
    }
    let complete = split.complete && searched == mine.len();
    let kept: Vec<_> = best.into_iter().collect();
    let best_gain = kept.first().map(|k| k.0);
    let root = if open.unbounded {
        split.root
    } else {
        open.best
    };
    let known = !open.unbounded || split.root.is_some();
    let mut optimum = conclude(config.sense, kept, complete, root, stats);
    if !complete {
        // Every finished part is below the floor or the best found; the others are bounded.
        let below = floor.map(|f| f - 1);
        optimum.bound = if known {
            [root, best_gain, below]
                .into_iter()
                .flatten()
                .max()
                .map(|g| config.sense.value(g))
        } else {
            None
        };
        optimum = settle(Keep::Best, optimum);
    } else if optimum.status == Status::Infeasible {
        optimum.bound = floor.map(|f| config.sense.value(f - 1));
    }
    PartsOptimum {
        optimum,
        mine: mine.len(),
        searched,
    }
}

/// What a shard's parts cut short leave unproven: the greatest bound (a gain) of a part cut
/// short, or no bound at all once a part was cut short without one or never started.
#[derive(Copy, Clone, Debug, Default)]
struct Open {
    best: Option<i128>,
    unbounded: bool,
}

impl Open {
    /// A part ended early with `bound` (a gain; `None`: it proved none).
    fn cut_short(&mut self, bound: Option<i128>) {
        match bound {
            Some(b) => self.best = Some(self.best.map_or(b, |o| o.max(b))),
            None => self.unbounded = true,
        }
    }
}

/// Runs `search` on the part of `solver`'s tree below `prefix` (forced) without the options
/// `excluded`, and leaves the solver as it was found.
fn search_part<'p>(
    solver: &mut Solver<'p>,
    prefix: &[OptionId],
    excluded: &[OptionId],
    search: impl FnOnce(&mut Solver<'p>) -> Optimum,
) -> Optimum {
    for &o in prefix {
        solver
            .force(o)
            .expect("a part's options are consistent with its solver");
    }
    let taken = solver.exclude_options(excluded);
    let part = search(solver);
    solver.include_options(taken);
    solver.unforce_all();
    part
}

/// Optimises the parts of a count's `split` of `solver` (its option order the one split)
/// that belong to `shard` (all parts without one), one after the other on one thread, each
/// part's search seeded with the best solutions found so far; `weights` are the options'
/// weights, for the solutions the split reached above its cut. The result is `Optimal` when
/// every part was searched to the end: its solutions are then the best of the parts, and
/// the best over all shards is the optimum.
pub(crate) fn optimize_split<B: Bound + Send>(
    solver: &mut Solver<'_>,
    weights: &[i64],
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    split: &Split,
    shard: Option<(usize, usize)>,
) -> Optimum {
    let (sense, keep) = (config.sense, config.keep);
    let mut stats = split.above(shard);
    let mut kept: Vec<Scored> = Vec::new();
    let mut complete = true;
    let mut open = Open::default();
    for k in split.shard_parts(shard) {
        match &split.parts[k] {
            Part::Solution(options) => {
                // A solution the split reached above its cut: found by this shard's search,
                // as a count counts it.
                stats.solutions += 1;
                let mut options = options.clone();
                options.sort_unstable();
                let value = options.iter().map(|o| weights[o.0 as usize] as i128).sum();
                kept.push(Scored { value, options });
            }
            Part::Subproblem(prefix) => {
                let seeds: Vec<Vec<OptionId>> = kept.iter().map(|s| s.options.clone()).collect();
                let part = search_part(solver, prefix, &[], |solver| {
                    optimize(solver, gains, bound, config, Strategy::new().seeds(&seeds))
                });
                stats += part.stats;
                if matches!(part.status, Status::Feasible | Status::Unknown) {
                    complete = false;
                    open.cut_short(part.bound.map(|b| sense.value(b)));
                }
                kept.extend(part.solutions);
            }
        }
        // Best first (by gain), duplicates (a seed found again) dropped, as many as kept.
        kept.sort_by(|a, b| {
            sense
                .value(b.value)
                .cmp(&sense.value(a.value))
                .then_with(|| a.options.cmp(&b.options))
        });
        kept.dedup();
        kept.truncate(match keep {
            Keep::Best => 1,
            Keep::Top(k) => k,
            Keep::AllOptimal { limit } => limit.max(1),
        });
        if config.budget.out_of_time().is_some() {
            complete = false;
            open.unbounded = true;
            break;
        }
    }
    let kept = kept
        .into_iter()
        .map(|s| (sense.value(s.value), s.options))
        .collect();
    let root = if open.unbounded { None } else { open.best };
    conclude(sense, kept, complete, root, stats)
}
