//! Branch and bound driven by hand: the door for a model that brings its own bound, its own
//! option order and its own start (weighted n-queens), rather than optimising a problem's
//! costs with the generic bound ([`run::optimize`](super::optimize)).
//!
//! - [`optimize_by_hand`]: one branch and bound on a [`Dance`] (its option order, its forced
//!   options) with the caller's [`Bound`], as [`Tactics`] say: known solutions to start from
//!   (seeds), aiming high first, a floor (a bound to beat: only solutions reaching it are
//!   looked for), a bound proven beforehand, and more threads ([`Workers`]).
//! - For a split over machines, [`split_for_shards`] cuts the top of the tree into parts
//!   (deterministically, the same in every shard) and [`optimize_part`] searches one shard's
//!   parts in turn; [`nothing_found`] and [`settled`] are the optimiser's conclusions for a
//!   caller that combines such searches itself.
//!
//! Each is the optimiser's own function, forwarded: nothing here changes what it does.

use crate::engine::optimize::{
    self, Bound, Config, Keep, Optimum, Sense, Strategy, conclude, optimize_parts, settle,
    split_bound,
};
use crate::engine::{Budget, OptionId, Problem, Solver, Stats};

use super::by_hand::Dance;

pub(crate) use crate::engine::optimize::BoundSplit;

/// How one shard's parts were searched ([`optimize_part`]).
#[derive(Clone, Debug)]
pub(crate) struct ShardOptimum {
    /// `Optimal`: every part of the shard was searched to the end; `Infeasible`: every part
    /// was searched and none reaches the floor; `Feasible`/`Unknown`: cut short by the
    /// deadline. The bound is an upper bound on the parts of the shard (and the seeds).
    pub optimum: Optimum,
    /// The parts of the shard (of the whole split).
    pub mine: usize,
    /// The parts of the shard searched to the end.
    pub searched: usize,
}

/// One more search (over the same problem, with the same option order) and bound per thread
/// besides the main one: the threads of a branch and bound by hand ([`Tactics::workers`]).
pub struct Workers<'p, B> {
    searches: Vec<(Solver<'p>, B)>,
}

impl<'p, B> Workers<'p, B> {
    /// `count` workers over `problem`, each trying the options in `order`, each with a bound
    /// from `make`; none for a count of 0 (one thread).
    pub fn new(
        problem: &'p Problem,
        order: &[OptionId],
        count: usize,
        make: impl Fn() -> B,
    ) -> Self {
        Workers {
            searches: (0..count)
                .map(|_| (Solver::with_options(problem, order.iter().copied()), make()))
                .collect(),
        }
    }

    /// No workers: one thread.
    pub fn none() -> Self {
        Workers {
            searches: Vec::new(),
        }
    }

    /// The workers' bounds, as the searches left them.
    pub fn bounds(&self) -> impl Iterator<Item = &B> {
        self.searches.iter().map(|(_, b)| b)
    }
}

/// What a branch and bound by hand runs with besides its [`Config`]
/// ([`optimize_by_hand`]): the solutions to start from, whether to aim high first, a floor, a
/// bound proven beforehand, and the threads. `Tactics::new()` is one thread, no seeds, no
/// aims. (The optimiser's [`Strategy`], for a [`Dance`].)
pub struct Tactics<'a, 'p, B> {
    seeds: &'a [Vec<OptionId>],
    aim: bool,
    floor: Option<i128>,
    proven: Option<i128>,
    workers: Option<&'a mut Workers<'p, B>>,
}

impl<B> Tactics<'_, '_, B> {
    /// One thread, no seeds, no aims, no floor.
    pub fn new() -> Self {
        Tactics {
            seeds: &[],
            aim: false,
            floor: None,
            proven: None,
            workers: None,
        }
    }
}

impl<B> Default for Tactics<'_, '_, B> {
    fn default() -> Self {
        Tactics::new()
    }
}

impl<'a, 'p, B> Tactics<'a, 'p, B> {
    /// Starts from these known solutions ([`Strategy::seeds`]).
    pub fn seeds(self, seeds: &'a [Vec<OptionId>]) -> Self {
        Tactics { seeds, ..self }
    }

    /// Aims high first ([`Strategy::aiming`]).
    pub fn aiming(self) -> Self {
        Tactics { aim: true, ..self }
    }

    /// Looks only for the best solution whose gain reaches `floor` ([`Strategy::floor`]).
    pub fn floor(self, floor: i128) -> Self {
        Tactics {
            floor: Some(floor),
            ..self
        }
    }

    /// An upper bound on the gain proven beforehand ([`Strategy::proven`]).
    pub fn proven(self, proven: i128) -> Self {
        Tactics {
            proven: Some(proven),
            ..self
        }
    }

    /// Searches on these threads as well ([`Strategy::workers`]).
    pub fn workers(self, workers: &'a mut Workers<'p, B>) -> Self {
        Tactics {
            workers: Some(workers),
            ..self
        }
    }
}

/// Branch and bound on `dance` (whose option order should put good options first, see
/// [`best_first`](optimize::best_first)) with the `gains` of the options and the caller's
/// `bound`, as `config` and `tactics` say ([`optimize::optimize`]). The dance is left as it
/// was found (forced options stay forced and are part of every solution).
pub fn optimize_by_hand<'p, B: Bound + Send>(
    dance: &mut Dance<'p>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    tactics: Tactics<'_, 'p, B>,
) -> Optimum {
    let Tactics {
        seeds,
        aim,
        floor,
        proven,
        workers,
    } = tactics;
    let strategy = Strategy {
        seeds,
        aim,
        floor,
        proven,
        workers: match workers {
            Some(w) => &mut w.searches,
            None => &mut [],
        },
    };
    optimize::optimize(&mut dance.solver, gains, bound, config, strategy)
}

/// The deterministic split of the `Keep::Best` branch and bound of `dance` (below its forced
/// options) for shards: the top of the tree searched with a fresh bound from `make_bound`,
/// pruning what cannot reach `floor`, cut at the shallowest depth that gives at least
/// `target` parts (or where a top of the tree takes more than `max_nodes` nodes). Only the
/// deadline and stop of `limits` apply. Returns the split and the bound that made it.
pub(crate) fn split_for_shards<B: Bound>(
    dance: &mut Dance<'_>,
    gains: &[i128],
    make_bound: &dyn Fn() -> B,
    floor: Option<i128>,
    target: usize,
    max_nodes: u64,
    limits: &Budget,
) -> (BoundSplit, B) {
    split_bound(
        &mut dance.solver,
        gains,
        make_bound,
        floor,
        target,
        max_nodes,
        limits,
    )
}

/// Searches the parts of `split` that belong to shard `shard = (I, M)` (1-based, dealt
/// round-robin) one after the other, on `dance` (no options forced, the option order the
/// split was made with) and `workers`, with `bound` kept across the parts; each part from the
/// best solution known so far (`seeds` reaching `floor`, the split's, earlier parts'), for
/// solutions reaching `floor` or else aiming high. `config.keep` must be `Keep::Best`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn optimize_part<'p, B: Bound + Send>(
    dance: &mut Dance<'p>,
    gains: &[i128],
    split: &BoundSplit,
    shard: (usize, usize),
    bound: &mut B,
    workers: &mut Workers<'p, B>,
    config: &Config,
    seeds: &[Vec<OptionId>],
    floor: Option<i128>,
) -> ShardOptimum {
    let p = optimize_parts(
        &mut dance.solver,
        gains,
        split,
        shard,
        bound,
        &mut workers.searches,
        config,
        seeds,
        floor,
    );
    ShardOptimum {
        optimum: p.optimum,
        mine: p.mine,
        searched: p.searched,
    }
}

/// The result of a search cut short before it found or proved anything (`Unknown`, no
/// bound), with its statistics.
pub(crate) fn nothing_found(sense: Sense, stats: Stats) -> Optimum {
    conclude(sense, Vec::new(), false, None, stats)
}

/// A result cut short whose best solution reaches the bound it proved is optimal after all
/// (`Keep::Best`; under the other modes the rest of the list is not proven).
pub(crate) fn settled(keep: Keep, optimum: Optimum) -> Optimum {
    settle(keep, optimum)
}
