//! The optimising layer: branch and bound over the dancing-links search.
//!
//! Every option carries a weight (an `i64`; the costs of a DLX5-style model are one source, see
//! [`Problem::cost`], but the weights are passed separately so that one built model serves many
//! weight sets). The optimiser looks for exact covers of best total weight, for a [`Sense`]:
//! least total (`Minimize`, DLX5's meaning of costs) or greatest (`Maximize`).
//!
//! Internally everything is a maximisation of *gains*: the weight for `Maximize`, its negation
//! for `Minimize`, held in `i128` so that neither negating `i64::MIN` nor adding many weights can
//! overflow. At every node of the search a [`Bound`] gives an upper bound on the gain that the
//! options still to be chosen can add; the subtree is pruned when the gain so far plus the bound
//! cannot beat (or, when ties are wanted, tie) the solutions kept so far.
//!
//! What is kept is a [`Keep`]: the best solution, every optimal solution (with a cap on how
//! many are stored; all are counted), or the K best. A search may start from known solutions
//! (a heuristic's), so that pruning bites from the first node; the result says what it is:
//! [`Status::Optimal`] (the tree was exhausted), [`Status::Feasible`] (the budget ran out: the
//! best found and an upper bound, so the gap is known), [`Status::Infeasible`] (no exact cover at
//! all) or [`Status::Unknown`] (the budget ran out before any solution was found).
//!
//! The bound is pluggable: [`ShareBound`] works for any model, a model can supply a stronger
//! one (the n-queens model's assignment bound lives in `queens::weighted`).
//!
//! ```
//! use dancelinks::engine::optimize::{self, Config, Keep, Sense, ShareBound, Status};
//! use dancelinks::engine::{Budget, ProblemBuilder, Solver};
//! let mut b = ProblemBuilder::new();
//! for name in ["a", "b", "c"] { b.primary(name).unwrap(); }
//! // Costs as DLX5 reads them: cover a, b, c at least total cost.
//! for (opt, cost) in [("a b", 5), ("c", 1), ("a", 2), ("b c", 3), ("a b c", 7)] {
//!     b.add_option_named(opt, cost).unwrap();
//! }
//! let problem = b.build().unwrap();
//! let weights: Vec<i64> = problem.options().map(|o| problem.cost(o)).collect();
//! let sense = Sense::Minimize;
//! let gains = sense.gains(&weights);
//! let mut solver = Solver::with_options(&problem, optimize::best_first(&problem, &gains));
//! let mut bound = ShareBound::new(&problem, &gains);
//! let config = Config { sense, keep: Keep::Top(2), budget: Budget::unlimited() };
//! let strategy = optimize::Strategy::new();
//! let best = optimize::optimize(&mut solver, &gains, &mut bound, &config, strategy);
//! assert_eq!(best.status, Status::Optimal);
//! let values: Vec<i128> = best.solutions.iter().map(|s| s.value).collect();
//! assert_eq!(values, vec![5, 6]); // {a, b c} = 2 + 3, {a b, c} = 5 + 1 (then {a b c} = 7)
//! ```

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::budget::{Budget, End, Stop, Watch};
use super::dlx::{Solver, View, Visitor};
use super::problem::{ItemId, OptionId, Problem};
use super::stats::Stats;

mod shards;
use shards::optimize_floor_parallel;
pub use shards::{BoundSplit, PartsOptimum, optimize_parts, split_bound};

/// Minimise or maximise the total weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sense {
    /// Least total weight.
    Minimize,
    /// Greatest total weight.
    Maximize,
}

impl Sense {
    /// The gain of a weight: what the optimiser maximises.
    pub fn gain(self, weight: i64) -> i128 {
        match self {
            Sense::Maximize => weight as i128,
            Sense::Minimize => -(weight as i128),
        }
    }
    /// Gains of all weights.
    pub fn gains(self, weights: &[i64]) -> Vec<i128> {
        weights.iter().map(|&w| self.gain(w)).collect()
    }
    /// A total gain back in the units of the weights.
    pub fn value(self, gain: i128) -> i128 {
        match self {
            Sense::Maximize => gain,
            Sense::Minimize => -gain,
        }
    }
}

/// An upper bound on what the options still to be chosen can add to the gain.
///
/// `bound` is called at every node (before branching) with the view of the search: the options
/// still available for every active primary item. It must return an upper bound on the sum of
/// the gains of the options that complete the current partial solution to an exact cover, or
/// `None` when it can prove that there is no completion at all. Returning a value that is too
/// low loses solutions; a bound of `i128::MAX` never prunes.
///
/// `target` is what the remaining options must add to matter (the subtree is pruned when the
/// bound is below it, or equal to it when ties are not wanted); `None` while there is nothing
/// to beat. An iterative bound may stop tightening once it is below the target.
pub trait Bound {
    /// An upper bound on the gains of the options that can complete the current partial
    /// solution; `None` when no completion exists.
    fn bound(&mut self, view: &View<'_>, target: Option<i128>) -> Option<i128>;
    /// Called after `bound` kept a node: options of the node that cannot be part of a
    /// completion reaching that call's target, to be left out of the node's subtree (see
    /// [`Visitor::exclude`]). None by default.
    fn exclude(&mut self, _view: &View<'_>, _out: &mut Vec<OptionId>) {}
    /// Whether `order` does anything.
    const ORDERS: bool = false;
    /// Called after `bound` kept a node: the options of the item it branches on, to be put
    /// in the order to try them (most promising first), in place ([`Visitor::order`]).
    fn order(&mut self, _view: &View<'_>, _options: &mut [OptionId]) {}
    /// Whether `choose` does anything.
    const CHOOSES: bool = false;
    /// Called after `bound` kept a node and `exclude` ran: the active primary item to branch
    /// on ([`Visitor::choose`]), or `None` (the default) for the engine's item of minimum
    /// length. Any active primary item is a valid branching: the choice shapes the tree, not
    /// the result.
    fn choose(&mut self, _view: &View<'_>) -> Option<ItemId> {
        None
    }
    /// Called before each search with its budget's deadline and stop handle, so that a bound
    /// that works long at one node (an iterative bound at a large root) can stop in time. A
    /// bound that stops early must still return a valid bound. Nothing by default.
    fn deadline(&mut self, _at: Option<Instant>, _stop: &Stop) {}
    /// Whether `Keep::Best` breaks ties between equally good solutions deterministically:
    /// the one whose sorted option ids are lexicographically smallest is reported, whatever
    /// the number of threads. Such a search does not prune a node whose bound ties the best
    /// solution known unless [`Bound::precedes`] says that nothing below it can win the
    /// tie, and does not stop at the first solution that reaches a proven ceiling. Off by
    /// default (the first best solution found is kept).
    const TIE_BREAK: bool = false;
    /// With [`Bound::TIE_BREAK`]: whether some completion of the current node could have
    /// sorted option ids lexicographically smaller than `best` (sorted). Must not answer
    /// false when one could; `true` (the default) never prunes a tie.
    fn precedes(&mut self, _view: &View<'_>, _best: &[OptionId]) -> bool {
        true
    }
}

/// The best solution any thread of a parallel search has found.
type Shared = Option<Incumbent>;

/// A best solution: its gain, its place in the order of the sequential search
/// ([`BranchBound::place`]) and its sorted options.
#[derive(Clone, Debug)]
struct Incumbent {
    gain: i128,
    place: u64,
    options: Vec<OptionId>,
}

impl Incumbent {
    /// Whether this solution is reported rather than `other`: a greater gain or, among equal
    /// gains, with [`Bound::TIE_BREAK`] the smaller sorted options, otherwise the one the
    /// sequential search meets first (the smaller place).
    fn wins<B: Bound>(&self, other: &Incumbent) -> bool {
        self.gain > other.gain
            || (self.gain == other.gain
                && if B::TIE_BREAK {
                    self.options < other.options
                } else {
                    self.place < other.place
                })
    }
}

/// A sub-tree of a parallel search: the options chosen above it and those its ancestors
/// excluded.
type Part = (Vec<OptionId>, Vec<OptionId>);

/// A bound that never prunes.
pub struct NoBound;
impl Bound for NoBound {
    fn bound(&mut self, _: &View<'_>, _: Option<i128>) -> Option<i128> {
        Some(i128::MAX / 4)
    }
}

/// The generic bound for any model: the gain of each option is divided among its primary items
/// (rounded up), and each active primary item adds the best share among its still-available
/// options. Valid because every primary item is covered by exactly one option, and an option's
/// shares add up to at least its gain. `None` when some active primary item has no option left.
///
/// Secondary items are ignored, so the bound is weak where they matter (the diagonals of
/// n-queens); there a model-specific bound pays.
///
/// One evaluation walks every available option of every active item: at n = 1000 queens a
/// million options, a tenth of a second. So it reads the clock every `SHARE_CLOCK_ITEMS` (64)
/// items, and past the deadline it takes each remaining item's best share over all its
/// options instead: still a valid bound, at once.
pub struct ShareBound {
    share: Vec<i128>,
    /// Per item, the best share among all its options (`None`: the item has none).
    best_share: Vec<Option<i128>>,
    deadline: Option<Instant>,
}

/// How many items [`ShareBound`] scans between reads of the clock.
const SHARE_CLOCK_ITEMS: usize = 64;

impl ShareBound {
    /// The bound for `problem` with the gain of option `o` in `gains[o]`.
    pub fn new(problem: &Problem, gains: &[i128]) -> ShareBound {
        let mut best_share: Vec<Option<i128>> = vec![None; problem.item_count()];
        let share = problem
            .options()
            .map(|o| {
                let primaries = || {
                    problem
                        .option_entries(o)
                        .iter()
                        .filter(|e| problem.is_primary(e.item))
                };
                let k = primaries().count().max(1) as i128;
                let g = gains[o.0 as usize];
                // Ceiling division, for negative gains too.
                let share = g.div_euclid(k) + i128::from(g.rem_euclid(k) != 0);
                for e in primaries() {
                    let best = &mut best_share[e.item.0 as usize];
                    *best = Some(best.map_or(share, |b| b.max(share)));
                }
                share
            })
            .collect();
        ShareBound {
            share,
            best_share,
            deadline: None,
        }
    }
}

impl Bound for ShareBound {
    fn bound(&mut self, view: &View<'_>, _: Option<i128>) -> Option<i128> {
        let mut total = 0i128;
        let mut late = false;
        for (k, item) in view.active_primary().enumerate() {
            if !late && k % SHARE_CLOCK_ITEMS == SHARE_CLOCK_ITEMS - 1 {
                late = self.deadline.is_some_and(|d| Instant::now() >= d);
            }
            let best = if late {
                self.best_share[item.0 as usize]?
            } else {
                view.options(item).map(|o| self.share[o.0 as usize]).max()?
            };
            total += best;
        }
        Some(total)
    }

    fn deadline(&mut self, at: Option<Instant>, _stop: &Stop) {
        self.deadline = at;
    }
}

/// Which solutions to keep.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// One optimal solution.
    Best,
    /// Every optimal solution is counted; at most `limit` of them are stored (the first
    /// found, or with [`Bound::TIE_BREAK`] those with the smallest sorted options).
    AllOptimal {
        /// The most optimal solutions stored.
        limit: usize,
    },
    /// The K best solutions (ties at the K-th place broken by the order of discovery).
    Top(usize),
}

/// How an optimisation ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The search was complete: the solutions kept are proven best.
    Optimal,
    /// The budget ran out: the solutions are the best found, `bound` limits what is possible.
    Feasible,
    /// There is no exact cover at all.
    Infeasible,
    /// The budget ran out before any solution was found.
    Unknown,
}

impl Status {
    /// The status in words: `optimal`, `feasible`, `infeasible`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
        }
    }
}

/// A solution and its total weight (in the units of the weights, not gains).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The total weight of the options.
    pub value: i128,
    /// The options, sorted by id.
    pub options: Vec<OptionId>,
}

/// The result of [`optimize`].
#[derive(Clone, Debug)]
pub struct Optimum {
    /// How the search ended.
    pub status: Status,
    /// Best first. For `Keep::Best` one, for `AllOptimal` the optimal ones (up to the limit),
    /// for `Top(k)` up to k.
    pub solutions: Vec<Scored>,
    /// For `Keep::AllOptimal` with status `Optimal`: the number of optimal solutions (0 when
    /// `Infeasible`).
    pub optimal_count: Option<u64>,
    /// The best value any solution can have (in weight units: an upper bound when maximising,
    /// a lower bound when minimising). Equals the best value when optimal; `None` when
    /// infeasible.
    pub bound: Option<i128>,
    /// Statistics of the search (nodes include pruned ones).
    pub stats: Stats,
}

impl Optimum {
    /// The best value found.
    pub fn value(&self) -> Option<i128> {
        self.solutions.first().map(|s| s.value)
    }
}

/// Settings of one optimisation.
#[derive(Clone, Debug)]
pub struct Config {
    /// Minimise or maximise.
    pub sense: Sense,
    /// Which solutions to keep.
    pub keep: Keep,
    /// When to stop.
    pub budget: Budget,
}

/// The visitor that does the branch and bound.
struct BranchBound<'a, B: Bound> {
    gains: &'a [i128],
    bound: &'a mut B,
    keep: Keep,
    /// Gain and sorted options, best first.
    kept: Vec<(i128, Vec<OptionId>)>,
    /// What solutions must reach to matter: for AllOptimal a seed's gain, for Best the aim
    /// of [`Strategy::aiming`].
    floor: Option<i128>,
    /// Number of solutions with the best gain (AllOptimal).
    ties: u64,
    /// A proven upper bound on every solution's gain (the aims of [`Strategy::aiming`] prove
    /// one): once a solution reaches it, nothing is left to find and every node is pruned.
    ceiling: Option<i128>,
    /// The bound at the first node of the search.
    root_bound: Option<Option<i128>>,
    scratch: Vec<OptionId>,
    /// Parallel search (`Keep::Best`): the best solution any thread has found (among those
    /// of equal gain, the one [`Incumbent::wins`] prefers).
    shared: Option<&'a Mutex<Shared>>,
    /// Where the solutions this visitor finds stand in the order of the sequential search,
    /// so that a parallel search without [`Bound::TIE_BREAK`] reports the solution the
    /// sequential one would: 0 for seeds and the sequential search; in a parallel search
    /// `2p + 1` for those the search above the cut finds after its `p`-th part, `2k + 2` for
    /// those of part `k`. See [`BranchBound::place`].
    part_place: u64,
    /// The place of `kept[0]` (`Keep::Best`).
    kept_place: u64,
    /// Parallel search: nodes at this depth are not searched but listed in `parts`, each with
    /// the options its ancestors excluded (`excluded_at[d]`: those of the node at depth d on
    /// the current path).
    cut: Option<usize>,
    parts: Vec<Part>,
    /// A parallel search sends its parts to the workers as it finds them instead of listing
    /// them (a bounded channel: the top waits while the workers are busy, so the parts in
    /// memory stay a few per worker however many the cut makes), numbered in order.
    part_sender: Option<crossbeam_channel::Sender<(u64, Part)>>,
    parts_sent: u64,
    excluded_at: Vec<Vec<OptionId>>,
    /// The budget's deadline and stop handle, read on an adaptive stride ([`Watch`]): the
    /// engine reads them only every 1024 nodes, which at n = 1000 queens is most of a second.
    /// Once late the search stops ([`Visitor::stop`]): it unwinds at once and counts as cut
    /// short.
    watch: Watch,
}

impl<'a, B: Bound> BranchBound<'a, B> {
    fn new(gains: &'a [i128], bound: &'a mut B, keep: Keep) -> Self {
        BranchBound {
            gains,
            bound,
            keep,
            kept: Vec::new(),
            floor: None,
            ties: 0,
            ceiling: None,
            root_bound: None,
            scratch: Vec::new(),
            shared: None,
            part_place: 0,
            kept_place: 0,
            cut: None,
            parts: Vec::new(),
            part_sender: None,
            parts_sent: 0,
            excluded_at: Vec::new(),
            watch: Watch::default(),
        }
    }

    /// The deadline and stop handle of the search's budget; the deadline is given to the
    /// bound too ([`Bound::deadline`]).
    fn set_watch(&mut self, budget: &Budget) {
        self.watch = Watch::new(budget.stop.clone(), budget.deadline);
        self.bound.deadline(budget.deadline, &budget.stop);
    }

    /// One node entered: whether the deadline has passed or a stop was requested.
    fn late(&mut self) -> bool {
        self.watch.tick()
    }

    /// Whether the search was found late (without reading the clock).
    fn was_late(&self) -> bool {
        self.watch.is_late()
    }
}

impl<B: Bound> BranchBound<'_, B> {
    /// Takes the floor and the ceiling of one search of the aims (`Keep::Best`).
    fn aim(&mut self, window: Window) {
        self.floor = window.floor;
        self.ceiling = window.ceiling;
    }

    /// The gain a subtree must reach to matter, and whether reaching it exactly is enough.
    fn threshold(&self) -> Option<(i128, bool)> {
        match self.keep {
            Keep::Best => match (self.best_known(), self.floor) {
                (Some(k), Some(f)) if f > k => Some((f, true)),
                (Some(k), _) => Some((k, false)),
                (None, f) => f.map(|f| (f, true)),
            },
            Keep::AllOptimal { .. } => match (self.kept.first().map(|k| k.0), self.floor) {
                (Some(a), Some(b)) => Some((a.max(b), true)),
                (a, b) => a.or(b).map(|t| (t, true)),
            },
            Keep::Top(k) => {
                if self.kept.len() >= k {
                    self.kept.last().map(|s| (s.0, false))
                } else {
                    None
                }
            }
        }
    }

    /// The best gain kept here or, in a parallel search, by any thread.
    fn best_known(&self) -> Option<i128> {
        self.best_placed().map(|(gain, _)| gain)
    }

    /// The gain and place of the best solution kept here or by any thread.
    fn best_placed(&self) -> Option<(i128, u64)> {
        let here = self.kept.first().map(|k| (k.0, self.kept_place));
        let shared = self.shared.and_then(|s| {
            s.lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .map(|b| (b.gain, b.place))
        });
        match (here, shared) {
            (Some(a), Some(b)) => Some(
                if (b.0, std::cmp::Reverse(b.1)) > (a.0, std::cmp::Reverse(a.1)) {
                    b
                } else {
                    a
                },
            ),
            (a, b) => a.or(b),
        }
    }

    /// The best solution kept here or by any thread, cloned: for the tie-break only.
    fn best_solution(&self) -> Option<Incumbent> {
        let here = self.kept.first().map(|(gain, options)| Incumbent {
            gain: *gain,
            place: self.kept_place,
            options: options.clone(),
        });
        let shared = self
            .shared
            .and_then(|s| s.lock().unwrap_or_else(|e| e.into_inner()).clone());
        match (here, shared) {
            (Some(a), Some(b)) => Some(if a.wins::<B>(&b) { a } else { b }),
            (a, b) => a.or(b),
        }
    }

    /// The place of the solutions found now ([`BranchBound::part_place`]): above the cut of
    /// a parallel search it follows the parts listed so far.
    fn place(&self) -> u64 {
        match self.cut {
            Some(_) => 2 * (self.parts.len() as u64 + self.parts_sent) + 1,
            None => self.part_place,
        }
    }

    /// Without [`Bound::TIE_BREAK`]: whether a solution found now, tying the best known,
    /// would be reported instead of it (the sequential search meets it first). Always false
    /// in the sequential search, where the first one found is kept.
    fn earlier_than_best(&self) -> bool {
        self.best_placed().is_none_or(|(_, p)| self.place() < p)
    }

    /// Whether nothing is left to find (`Keep::Best` only, without tie-break): a solution
    /// has reached the ceiling, and nothing found from here on could replace it.
    fn done(&self) -> bool {
        self.keep == Keep::Best
            && !B::TIE_BREAK
            && self.ceiling.is_some_and(|c| {
                self.best_placed()
                    .is_some_and(|(b, p)| b >= c && p <= self.place())
            })
    }

    fn worth(&self, upper: i128) -> bool {
        match self.threshold() {
            None => true,
            Some((t, ties)) => upper > t || (ties && upper == t),
        }
    }

    /// Offers a solution (options sorted) found at `place` ([`BranchBound::place`]);
    /// duplicates of kept ones are ignored.
    fn offer(&mut self, gain: i128, options: &[OptionId], place: u64) {
        if self.kept.iter().any(|(g, o)| *g == gain && o == options) {
            return;
        }
        self.watch.stop().progress().offer_best(gain);
        match self.keep {
            Keep::Best => {
                let new = Incumbent {
                    gain,
                    place,
                    options: options.to_vec(),
                };
                let better_than_kept = self.kept.first().is_none_or(|(g, o)| {
                    new.wins::<B>(&Incumbent {
                        gain: *g,
                        place: self.kept_place,
                        options: o.clone(),
                    })
                });
                if better_than_kept {
                    self.kept.clear();
                    self.kept.push((gain, options.to_vec()));
                    self.kept_place = place;
                    if let Some(s) = self.shared {
                        let mut best = s.lock().unwrap_or_else(|e| e.into_inner());
                        if best.as_ref().is_none_or(|b| new.wins::<B>(b)) {
                            *best = Some(new);
                        }
                    }
                }
            }
            Keep::AllOptimal { limit } => match self.kept.first().map(|k| k.0) {
                Some(best) if gain < best => {}
                Some(best) if gain == best => {
                    self.ties += 1;
                    if self.kept.len() < limit {
                        self.kept.push((gain, options.to_vec()));
                    } else if B::TIE_BREAK {
                        // Keep the `limit` smallest options lists.
                        if let Some(largest) = (0..self.kept.len())
                            .max_by(|&i, &j| self.kept[i].1.cmp(&self.kept[j].1))
                            && options < &self.kept[largest].1[..]
                        {
                            self.kept[largest] = (gain, options.to_vec());
                        }
                    }
                }
                _ => {
                    self.kept.clear();
                    self.ties = 1;
                    // The best value is remembered even when no layout may be stored.
                    self.kept.push((gain, options.to_vec()));
                }
            },
            Keep::Top(k) => {
                if k == 0 {
                    return;
                }
                if self.kept.len() >= k && gain <= self.kept[k - 1].0 {
                    return;
                }
                let pos = self.kept.partition_point(|s| s.0 >= gain);
                self.kept.insert(pos, (gain, options.to_vec()));
                self.kept.truncate(k);
            }
        }
    }
}

impl<B: Bound> Visitor for BranchBound<'_, B> {
    const PRUNES: bool = true;
    const ORDERS: bool = B::ORDERS;

    fn order(&mut self, view: &View<'_>, options: &mut [OptionId]) {
        self.bound.order(view, options);
    }

    const CHOOSES: bool = B::CHOOSES;

    fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
        self.bound.choose(view)
    }

    fn enter(&mut self, view: &View<'_>) -> bool {
        if self.cut.is_some_and(|c| view.depth() >= c) {
            let d = view.depth().min(self.excluded_at.len());
            let part = (view.chosen().collect(), self.excluded_at[..d].concat());
            match &self.part_sender {
                Some(sender) => {
                    // Every worker has gone: they ran out of time, and so does the top.
                    if sender.send((self.parts_sent, part)).is_err() {
                        self.watch.set_late();
                    }
                    self.parts_sent += 1;
                    self.watch.stop().progress().add_parts(1);
                }
                None => self.parts.push(part),
            }
            return false;
        }
        if self.done() || self.late() {
            return false;
        }
        let so_far: i128 = view.chosen().map(|o| self.gains[o.0 as usize]).sum();
        let target = self.threshold().map(|(t, _)| t.saturating_sub(so_far));
        let rest = self.bound.bound(view, target);
        if self.root_bound.is_none() {
            self.root_bound = Some(rest.map(|r| so_far.saturating_add(r)));
        }
        match rest {
            None => false,
            Some(r) if self.keep != Keep::Best => self.worth(so_far.saturating_add(r)),
            Some(r) => {
                // No solution is above the ceiling: a node whose bound reaches it can only tie.
                let upper = so_far
                    .saturating_add(r)
                    .min(self.ceiling.unwrap_or(i128::MAX));
                match self.threshold() {
                    // A tie with the best known: worth it only if it could win the tie-break.
                    Some((t, false)) if upper == t && B::TIE_BREAK => match self.best_solution() {
                        Some(best) => self.bound.precedes(view, &best.options),
                        None => true,
                    },
                    Some((t, false)) if upper == t => self.earlier_than_best(),
                    _ => self.worth(upper),
                }
            }
        }
    }

    /// Past the deadline the search ends at once (the node just cut off by `late`).
    fn stop(&self) -> bool {
        self.was_late()
    }

    fn exclude(&mut self, view: &View<'_>, out: &mut Vec<OptionId>) {
        let before = out.len();
        self.bound.exclude(view, out);
        if self.cut.is_some() {
            // Remembered per depth, so that each part carries its ancestors' exclusions.
            let d = view.depth();
            self.excluded_at.resize_with(d + 1, Vec::new);
            self.excluded_at[d].clear();
            self.excluded_at[d].extend_from_slice(&out[before..]);
        }
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        let gain: i128 = options.iter().map(|o| self.gains[o.0 as usize]).sum();
        let tie = self.keep == Keep::Best
            && matches!(self.threshold(), Some((t, false)) if t == gain)
            && (B::TIE_BREAK || self.earlier_than_best());
        if tie || self.worth(gain) {
            let mut s = std::mem::take(&mut self.scratch);
            s.clear();
            s.extend_from_slice(options);
            s.sort_unstable();
            let place = self.place();
            self.offer(gain, &s, place);
            self.scratch = s;
        }
        ControlFlow::Continue(())
    }
}

/// Options in the order to try them: best gain first (ties by id).
///
/// Gains in a range no wider than the number of options (the numbers of a queens board) are
/// sorted by counting, in linear time: a million options at n = 1000 queens take a few
/// milliseconds instead of a tenth of a second.
pub fn best_first(problem: &Problem, gains: &[i128]) -> Vec<OptionId> {
    let count = problem.option_count();
    let gain = |o: OptionId| gains[o.0 as usize];
    let (lo, hi) = match (
        problem.options().map(gain).min(),
        problem.options().map(gain).max(),
    ) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => return Vec::new(),
    };
    let width = hi.abs_diff(lo);
    if width < count.max(1 << 10) as u128 {
        // Counting sort: one bucket per gain, the best first; ids ascend within a bucket.
        let bucket = |o: OptionId| (hi - gain(o)) as usize;
        let mut start = vec![0u32; width as usize + 2];
        for o in problem.options() {
            start[bucket(o) + 1] += 1;
        }
        for b in 1..start.len() {
            start[b] += start[b - 1];
        }
        let mut order = vec![OptionId(0); count];
        for o in problem.options() {
            let slot = &mut start[bucket(o)];
            order[*slot as usize] = o;
            *slot += 1;
        }
        return order;
    }
    let mut order: Vec<OptionId> = problem.options().collect();
    // A total order (ids are distinct), so the unstable sort gives the same order, faster.
    order.sort_unstable_by_key(|&o| (std::cmp::Reverse(gain(o)), o));
    order
}

/// What one optimisation runs with besides its [`Config`] ([`optimize`]): the solutions to
/// start from, whether to aim high first, a floor, a bound proven beforehand, and the
/// threads. `Strategy::new()` is one thread, no seeds, no aims.
pub struct Strategy<'a, 'p, B> {
    /// Known exact covers to start from (e.g. a heuristic's), each a list of options.
    pub seeds: &'a [Vec<OptionId>],
    /// Aim high first (`Keep::Best` with a seed; see [`Strategy::aiming`]).
    pub aim: bool,
    /// Look only for solutions whose gain reaches this (`Keep::Best`; see [`Strategy::floor`]).
    pub floor: Option<i128>,
    /// An upper bound on the gain proven beforehand (e.g. a model's cheap bound of the whole
    /// problem): a search cut short reports it when it proved no better one.
    pub proven: Option<i128>,
    /// One more solver (over the same problem, with the same option order) and bound per
    /// thread besides the main one; empty: one thread.
    pub workers: &'a mut [(Solver<'p>, B)],
}

impl<'p, B> Strategy<'_, 'p, B> {
    /// One thread, no seeds, no aims, no floor.
    pub fn new() -> Self {
        Strategy {
            seeds: &[],
            aim: false,
            floor: None,
            proven: None,
            workers: &mut [],
        }
    }
}

impl<B> Default for Strategy<'_, '_, B> {
    fn default() -> Self {
        Strategy::new()
    }
}

impl<'a, 'p, B> Strategy<'a, 'p, B> {
    /// Starts from these known solutions.
    pub fn seeds(self, seeds: &'a [Vec<OptionId>]) -> Self {
        Strategy { seeds, ..self }
    }

    /// Aims high first: pruning is only as good as the best solution known, and a
    /// heuristic's is often far below the optimum. So the search first asks for solutions of
    /// at least an *aim* just below the root's bound, pruning everything that cannot reach
    /// it. Such a search is small; when it ends without a solution, nothing reaches the aim
    /// (an upper bound one below it is proven) and the aim comes down, by a step sized from
    /// the last two searches so that the next one is about [`AIM_GROWTH`] times larger. The
    /// first search that finds a solution goes on as an ordinary branch and bound from it and
    /// proves its result. If the budget runs out, the best bound proven so far is reported.
    /// Statistics add up over all searches. Only for `Keep::Best` with a seed (otherwise the
    /// search runs as is).
    pub fn aiming(self) -> Self {
        Strategy { aim: true, ..self }
    }

    /// Looks only for the best solution whose gain reaches `floor` (seeds below it are left
    /// out), pruning from the root whatever cannot reach it, with no aims. `Optimal`: the best
    /// solution reaching the floor; `Infeasible`: none reaches it (the bound is then `None`:
    /// the caller knows the floor).
    pub fn floor(self, floor: i128) -> Self {
        Strategy {
            floor: Some(floor),
            ..self
        }
    }

    /// An upper bound on the gain proven beforehand, reported by a search cut short that
    /// proved no better one.
    pub fn proven(self, proven: i128) -> Self {
        Strategy {
            proven: Some(proven),
            ..self
        }
    }

    /// Searches on these threads as well ([`PARALLEL_CUT`]): every search is cut at that
    /// depth below its root; the tree above the cut is searched on the main solver, the
    /// sub-trees below it are handed to the workers, which prune against the best gain any
    /// of them has found. Only for `Keep::Best` without a node or mem budget (otherwise one
    /// thread). The best value, the status and the solution reported are those of the
    /// sequential search: the one with the smallest sorted options if the bound breaks ties
    /// ([`Bound::TIE_BREAK`]), otherwise the first optimal solution in the sequential
    /// search's order. Node counts vary.
    pub fn workers(self, workers: &'a mut [(Solver<'p>, B)]) -> Self {
        Strategy { workers, ..self }
    }
}

/// Branch and bound on `solver` (whose option order should put good options first, see
/// [`best_first`]) with the `gains` of the options ([`Sense::gains`] of their weights, as the
/// bound was built on), as `config` and `plan` say. A search cut short whose best solution
/// reaches the bound it proved is reported `Optimal`, so a value equals its bound only then.
///
/// The solver is left as it was found (forced options stay forced and are part of every
/// solution).
pub fn optimize<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    plan: Strategy<'_, 'p, B>,
) -> Optimum {
    let Strategy {
        seeds,
        aim,
        floor,
        proven,
        workers,
    } = plan;
    let mut found = match floor {
        Some(floor) => optimize_floor_parallel(solver, gains, bound, workers, config, seeds, floor),
        None if aim => optimize_aiming_parallel(solver, gains, bound, workers, config, seeds),
        None => optimize_gains_parallel(solver, gains, bound, workers, config, seeds),
    };
    if let Some(proven) = proven
        && matches!(found.status, Status::Feasible | Status::Unknown)
    {
        let sense = config.sense;
        let gain = found.bound.map_or(proven, |b| sense.value(b).min(proven));
        found.bound = Some(sense.value(gain));
        found = settle(config.keep, found);
    }
    found
}

/// One search from `seeds` with nothing else ([`optimize`]).
pub(in crate::engine) fn optimize_gains<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    settle(
        config.keep,
        search(solver, gains, bound, config, seeds, Window::default()),
    )
}

/// A search cut short whose best solution reaches the bound it proved is optimal after all
/// (`Keep::Best`; under the other modes the rest of the list is not proven): so a reported
/// value equals its bound only when the status is `Optimal`.
pub(crate) fn settle(keep: Keep, mut optimum: Optimum) -> Optimum {
    if keep == Keep::Best
        && optimum.status == Status::Feasible
        && optimum.bound.is_some()
        && optimum.bound == optimum.value()
    {
        optimum.status = Status::Optimal;
    }
    optimum
}

/// What one search of [`Strategy::aiming`] asks for, in gains (`Keep::Best` only): solutions
/// of at least `floor`; and a proven upper bound, `ceiling`, at which it can stop.
#[derive(Copy, Clone, Debug, Default)]
struct Window {
    floor: Option<i128>,
    ceiling: Option<i128>,
}

/// [`Strategy::aiming`] on one thread.
fn optimize_aiming<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    if config.keep != Keep::Best || seeds.is_empty() {
        // Nothing to aim from (the aims are measured against the best seed).
        return settle(
            config.keep,
            search(solver, gains, bound, config, seeds, Window::default()),
        );
    }
    let probe = probe(solver, gains, bound, config, seeds);
    let found = aim_loop(config, probe, &mut |window, config| {
        search(solver, gains, bound, config, seeds, window)
    });
    settle(config.keep, found)
}

/// [`Strategy::aiming`] with [`Strategy::workers`] (one thread without workers, in other modes than
/// `Keep::Best`, and with a node or mem budget).
fn optimize_aiming_parallel<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let limited = config.budget.nodes.is_some() || config.budget.mems.is_some();
    if workers.is_empty() || limited || config.keep != Keep::Best || seeds.is_empty() {
        return optimize_aiming(solver, gains, bound, config, seeds);
    }
    let probe = probe(solver, gains, bound, config, seeds);
    let found = aim_loop(config, probe, &mut |window, config| {
        search_parallel(solver, bound, workers, gains, config, seeds, window)
    });
    settle(config.keep, found)
}

/// One search on several threads, without aims ([`Strategy::workers`]; `xcover solve --threads`).
fn optimize_gains_parallel<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let limited = config.budget.nodes.is_some() || config.budget.mems.is_some();
    if workers.is_empty() || limited || config.keep != Keep::Best {
        return optimize_gains(solver, gains, bound, config, seeds);
    }
    let found = search_parallel(
        solver,
        bound,
        workers,
        gains,
        config,
        seeds,
        Window::default(),
    );
    settle(config.keep, found)
}

/// Depth (below the root) at which a search on several threads is cut ([`Strategy::workers`]).
pub const PARALLEL_CUT: usize = 3;

/// A search of the root node only, for its bound (with the seeds as the solutions known).
fn probe<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let config = Config {
        budget: Budget {
            nodes: Some(1),
            ..config.budget.clone()
        },
        ..config.clone()
    };
    search(solver, gains, bound, &config, seeds, Window::default())
}

/// How many times larger than the last each next search of an [`AimSteps`] series is sized.
/// Measured on nine proofs (weighted n-queens, n = 28..40, one thread): without the bound's
/// memo of node states 2.7, 4, 6 and 10 gave 1.21 M, 1.06 M, 1.06 M and 1.23 M nodes; with
/// it (a later search restarts the earlier ones' nodes cheaply) 6 took 61.0 s against 65.3 s
/// for 4, and less time on each of the nine; 2 and 3 took 98 s and 80 s; n = 40 on two threads 6 beat 4
/// and 8 on three boards.
pub const AIM_GROWTH: f64 = 6.0;

/// The steps of a descending series of floor searches: [`Strategy::aiming`]'s aims, and any
/// caller's descent of a bound by floor searches. The size of a search grows about
/// exponentially as its floor comes down, so after a search that found nothing the next step
/// is sized from the last two searches for the next search to be about [`AIM_GROWTH`] times
/// larger
/// than the last (at most twice the previous step, at least 1). The series starts from the
/// root, counted as a search of one node at `upper + 1`.
#[derive(Clone, Copy, Debug)]
pub struct AimSteps {
    step: i128,
    /// The last search's floor and nodes.
    last: (i128, u64),
    /// ln(nodes) per unit of floor between the last two searches (0 before two).
    rate: f64,
}

impl AimSteps {
    /// The series below a proven `upper`, with a first step of `first` (at least 1).
    pub fn new(upper: i128, first: i128) -> AimSteps {
        AimSteps {
            step: first.max(1),
            last: (upper.saturating_add(1), 1),
            rate: 0.0,
        }
    }

    /// The step below the proven bound for the next floor.
    pub fn step(&self) -> i128 {
        self.step
    }

    /// After a search at `floor` that found nothing, in `nodes` nodes: the next step.
    pub fn failed(&mut self, floor: i128, nodes: u64) {
        let units = (self.last.0 - floor) as f64;
        let rate = (nodes.max(1) as f64 / self.last.1 as f64).ln() / units;
        let next = if rate > 0.0 {
            (AIM_GROWTH.ln() / rate).round() as i128
        } else {
            2 * self.step
        };
        self.step = next.clamp(1, 2 * self.step);
        self.last = (floor, nodes.max(1));
        self.rate = rate.max(0.0);
    }

    /// Caps the step so that the next search, predicted from the growth rate, takes at most
    /// `room` times the last search's time (for a caller with a deadline: a search that
    /// cannot finish proves nothing). Keeps at least 1.
    pub fn fit(&mut self, room: f64) {
        if self.rate > 0.0 && room.is_finite() {
            let most = (room.max(1.0).ln() / self.rate).floor() as i128;
            self.step = self.step.min(most).max(1);
        }
    }
}

/// The aims of [`Strategy::aiming`], after the root's `probe`; `run(window)` is one search.
fn aim_loop(
    config: &Config,
    probe: Optimum,
    run: &mut dyn FnMut(Window, &Config) -> Optimum,
) -> Optimum {
    if probe.status != Status::Feasible {
        // Solved at the root: nothing to aim at.
        return probe;
    }
    let sense = config.sense;
    let seed_gain = probe.solutions.first().map(|s| sense.value(s.value));
    let mut upper = match probe.bound {
        Some(b) => sense.value(b),
        None => return probe,
    };
    let mut stats = probe.stats;
    if let Some(floor) = seed_gain {
        let mut steps = AimSteps::new(upper, (upper - floor) >> 5);
        // With a deadline, aims get the first half of the time: an aim that times out has no
        // solution to show, while the ordinary search keeps improving on the seed.
        let start = std::time::Instant::now();
        let aims_until = config
            .budget
            .deadline
            .map(|d| start + d.saturating_duration_since(start) / 2);
        loop {
            let aim = upper + 1 - steps.step();
            if aim <= floor || aims_until.is_some_and(|t| std::time::Instant::now() >= t) {
                break;
            }
            let config = &Config {
                budget: Budget {
                    deadline: aims_until.or(config.budget.deadline),
                    ..config.budget.clone()
                },
                ..config.clone()
            };
            // `upper` is proven (by the root, or by the aims that failed): a search can stop
            // at the first solution that reaches it.
            let window = Window {
                floor: Some(aim),
                ceiling: Some(upper),
            };
            let mut found = run(window, config);
            let nodes = found.stats.nodes().max(1);
            stats += found.stats;
            found.stats = stats;
            match found.status {
                Status::Optimal if found.value().is_some_and(|v| sense.value(v) >= aim) => {
                    return found;
                }
                Status::Optimal => {
                    // Nothing reaches the aim.
                    upper = aim - 1;
                    steps.failed(aim, nodes);
                }
                Status::Feasible | Status::Unknown
                    if found.value().is_some_and(|v| sense.value(v) >= aim) =>
                {
                    // Out of time with a solution reaching the aim: nothing better to do.
                    found.bound = Some(sense.value(upper.max(seed_gain.unwrap_or(upper))));
                    return found;
                }
                _ => {
                    // Out of the aims' time: the ordinary search gets the rest.
                    break;
                }
            }
        }
    }
    let window = Window {
        floor: None,
        ceiling: Some(upper),
    };
    let mut last = run(window, config);
    stats += last.stats;
    last.stats = stats;
    if last.status == Status::Feasible {
        // The bound of the last search is its root's; the aims may have proven a better one.
        let b = last
            .bound
            .map(|b| sense.value(b))
            .unwrap_or(upper)
            .min(upper);
        let best = last.value().map(|v| sense.value(v)).unwrap_or(b);
        last.bound = Some(sense.value(b.max(best)));
    }
    last
}

/// What a worker of [`search_parallel`] brings back: what it kept, its statistics, and
/// whether every part it took was searched to the end.
type WorkerResult = (Vec<Incumbent>, Stats, bool);

/// One search of [`Strategy::workers`] (`Keep::Best`).
fn search_parallel<'p, B: Bound + Send>(
    main: &mut Solver<'p>,
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    gains: &[i128],
    config: &Config,
    seeds: &[Vec<OptionId>],
    window: Window,
) -> Optimum {
    let shared = Mutex::new(None);
    // The tree above the cut, searched here while the workers search the nodes at the cut,
    // which it sends them in order.
    let mut top = BranchBound::new(gains, bound, config.keep);
    top.set_watch(&config.budget);
    top.aim(window);
    top.shared = Some(&shared);
    top.cut = Some(main.forced().len() + PARALLEL_CUT);
    for seed in seeds {
        let (gain, s) = sorted_seed(seed, gains);
        top.offer(gain, &s, 0);
    }
    let (sender, receiver) = crossbeam_channel::bounded::<(u64, Part)>(2 * workers.len());
    top.part_sender = Some(sender);
    let stop = AtomicBool::new(false);
    let (outcome, results): (_, Vec<WorkerResult>) = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|(solver, bound)| {
                let (receiver, stop, shared) = (receiver.clone(), &stop, &shared);
                scope.spawn(move || {
                    let mut bb = BranchBound::new(gains, bound, Keep::Best);
                    bb.set_watch(&config.budget);
                    bb.aim(window);
                    bb.shared = Some(shared);
                    let mut stats = Stats::default();
                    let mut complete = true;
                    while !stop.load(Ordering::Relaxed) {
                        // Ends when the top has sent its last part and hung up.
                        let Ok((k, (prefix, excluded))) = receiver.recv() else {
                            break;
                        };
                        bb.part_place = 2 * k + 2;
                        let o = solver.run_subproblem_without(
                            &prefix,
                            &excluded,
                            &config.budget,
                            &mut bb,
                        );
                        stats += o.stats;
                        config.budget.stop.progress().part_done();
                        if o.end != End::Exhausted || bb.was_late() {
                            complete = false;
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    (placed(bb.kept, bb.kept_place), stats, complete)
                })
            })
            .collect();
        // Only the workers hold the receiving end: once they have all stopped, the top's
        // sending fails and it stops too.
        drop(receiver);
        let outcome = main.run(&config.budget, &mut top);
        top.part_sender = None;
        let results = handles
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .collect();
        (outcome, results)
    });
    let mut stats = outcome.stats;
    let mut complete = outcome.end == End::Exhausted && !top.was_late();
    let mut kept: Vec<Incumbent> = placed(std::mem::take(&mut top.kept), top.kept_place);
    let root = top.root_bound.flatten();
    for (k, s, c) in results {
        kept.extend(k);
        stats += s;
        complete &= c;
    }
    // The best gain; among equals the one `Incumbent::wins` prefers, whichever thread found
    // it.
    let best = kept
        .into_iter()
        .reduce(|a, b| if b.wins::<B>(&a) { b } else { a });
    let kept = best.map(|b| (b.gain, b.options)).into_iter().collect();
    conclude(config.sense, kept, complete, root, stats)
}

/// The best solution a `Keep::Best` visitor kept (at most one), with its place.
fn placed(kept: Vec<(i128, Vec<OptionId>)>, place: u64) -> Vec<Incumbent> {
    kept.into_iter()
        .map(|(gain, options)| Incumbent {
            gain,
            place,
            options,
        })
        .collect()
}

/// A seed's total gain and its options sorted by id (the form solutions are kept in).
fn sorted_seed(seed: &[OptionId], gains: &[i128]) -> (i128, Vec<OptionId>) {
    let mut s = seed.to_vec();
    s.sort_unstable();
    (s.iter().map(|o| gains[o.0 as usize]).sum(), s)
}

/// The result of a search that was `complete` (or not), kept `kept` (gains, best first) and
/// had `root` as the bound at its root: its status, the solutions in weight units, and the
/// bound (the best value when optimal, the root's when cut short). `optimal_count` is left
/// to the caller.
pub(crate) fn conclude(
    sense: Sense,
    kept: Vec<(i128, Vec<OptionId>)>,
    complete: bool,
    root: Option<i128>,
    stats: Stats,
) -> Optimum {
    let best_gain = kept.first().map(|k| k.0);
    let status = match (complete, best_gain) {
        (true, Some(_)) => Status::Optimal,
        (true, None) => Status::Infeasible,
        (false, Some(_)) => Status::Feasible,
        (false, None) => Status::Unknown,
    };
    let bound_gain = match status {
        Status::Optimal => best_gain,
        Status::Infeasible => None,
        // Only a bound the search proved: never the best found (no proof that nothing is
        // better), none when the root's bound was not computed.
        _ => root.map(|r| match best_gain {
            Some(b) => r.max(b),
            None => r,
        }),
    };
    Optimum {
        status,
        solutions: kept
            .into_iter()
            .map(|(g, o)| Scored {
                value: sense.value(g),
                options: o,
            })
            .collect(),
        optimal_count: None,
        bound: bound_gain.map(|g| sense.value(g)),
        stats,
    }
}

fn search<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
    window: Window,
) -> Optimum {
    assert_eq!(
        gains.len(),
        solver.problem().option_count(),
        "one weight per option"
    );
    let mut bb = BranchBound::new(gains, bound, config.keep);
    bb.set_watch(&config.budget);
    if config.keep == Keep::Best {
        bb.aim(window);
    }
    let mut best_seed: Option<(i128, Vec<OptionId>)> = None;
    for seed in seeds {
        let (gain, s) = sorted_seed(seed, gains);
        if let Keep::AllOptimal { .. } = config.keep {
            // Under AllOptimal the search meets the seeds again and counts them then; they
            // only raise the floor here.
            if best_seed.as_ref().is_none_or(|b| gain > b.0) {
                bb.floor = Some(gain);
                best_seed = Some((gain, s));
            }
        } else {
            bb.offer(gain, &s, 0);
        }
    }
    let outcome = solver.run(&config.budget, &mut bb);
    let complete = outcome.end == End::Exhausted && !bb.was_late();
    let mut kept = std::mem::take(&mut bb.kept);
    if let Keep::AllOptimal { limit } = config.keep {
        if let Some((g, s)) = best_seed {
            // A search cut short may not have met the seed again.
            if kept.first().is_none_or(|k| g > k.0) {
                kept = vec![(g, s)];
                bb.ties = 1;
            }
        }
        kept.truncate(limit.max(1));
    }
    let root = bb.root_bound.flatten();
    let mut optimum = conclude(config.sense, kept, complete, root, outcome.stats);
    optimum.optimal_count = match (config.keep, optimum.status) {
        (Keep::AllOptimal { .. }, Status::Optimal) => Some(bb.ties),
        (Keep::AllOptimal { .. }, Status::Infeasible) => Some(0),
        _ => None,
    };
    optimum
}

#[cfg(test)]
mod tests {
    use super::AimSteps;

    /// Steps grow while the searches grow slowly, at most doubling; a fast-growing search
    /// series gets small steps; `fit` keeps the next search inside the room left.
    #[test]
    fn aim_steps_follow_the_growth_of_the_searches() {
        let mut s = AimSteps::new(100, 1);
        assert_eq!(s.step(), 1);
        // 2 nodes one unit below the root (1 node): rate ln 2, 6× is 2.6 units, but at most
        // twice the last step.
        s.failed(100, 2);
        assert_eq!(s.step(), 2);
        // Barely growing: the step doubles (no more).
        s.failed(98, 3);
        assert_eq!(s.step(), 4);
        s.failed(94, 3);
        assert_eq!(s.step(), 8);
        // 3 → 3·4^4 nodes over 8 units: rate ln 4 / 2, so 6× is 2.6 units: 3.
        s.failed(86, 3 * 256);
        assert_eq!(s.step(), 3);
        // Room for 16× the last search: ln 16 / (ln 4 / 2) = 4 units, above the step; room for
        // less than 2× leaves 1.
        let mut t = s;
        t.fit(16.0);
        assert_eq!(t.step(), 3);
        t.fit(5.0);
        assert_eq!(t.step(), 2);
        s.failed(84, 3 * 256 * 4);
        assert_eq!(s.step(), 3);
        let mut u = s;
        u.fit(1.5);
        assert_eq!(u.step(), 1);
        u.fit(f64::INFINITY);
        assert_eq!(u.step(), 1);
    }
}
