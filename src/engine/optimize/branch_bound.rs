//! The visitor that does the branch and bound ([`BranchBound`]): it keeps the best solutions
//! found, prunes every node whose bound cannot beat (or tie) them, watches the clock and the
//! stop handle, and for a parallel search cuts the tree into parts at a depth.

use std::ops::ControlFlow;
use std::sync::Mutex;

use super::bounds::Bound;
use super::types::Keep;
use crate::engine::budget::{Budget, Watch};
use crate::engine::problem::{ItemId, OptionId};
use crate::engine::search::dlx::{View, Visitor};

/// The best solution any thread of a parallel search has found.
pub(super) type Shared = Option<Incumbent>;

/// A best solution: its gain, its place in the order of the sequential search
/// ([`BranchBound::place`]) and its sorted options.
#[derive(Clone, Debug)]
pub(super) struct Incumbent {
    pub(super) gain: i128,
    pub(super) place: u64,
    pub(super) options: Vec<OptionId>,
}

impl Incumbent {
    /// Whether this solution is reported rather than `other`: a greater gain or, among equal
    /// gains, with [`Bound::TIE_BREAK`] the smaller sorted options, otherwise the one the
    /// sequential search meets first (the smaller place).
    pub(super) fn wins<B: Bound>(&self, other: &Incumbent) -> bool {
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
pub(super) type Part = (Vec<OptionId>, Vec<OptionId>);

/// What one search of [`Strategy::aiming`] asks for, in gains (`Keep::Best` only): solutions
/// of at least `floor`; and a proven upper bound, `ceiling`, at which it can stop.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Window {
    pub(super) floor: Option<i128>,
    pub(super) ceiling: Option<i128>,
}

/// The visitor that does the branch and bound.
pub(super) struct BranchBound<'a, B: Bound> {
    pub(super) gains: &'a [i128],
    pub(super) bound: &'a mut B,
    pub(super) keep: Keep,
    /// Gain and sorted options, best first.
    pub(super) kept: Vec<(i128, Vec<OptionId>)>,
    /// What solutions must reach to matter: for AllOptimal a seed's gain, for Best the aim
    /// of [`Strategy::aiming`].
    pub(super) floor: Option<i128>,
    /// Number of solutions with the best gain (AllOptimal).
    pub(super) ties: u64,
    /// A proven upper bound on every solution's gain (the aims of [`Strategy::aiming`] prove
    /// one): once a solution reaches it, nothing is left to find and every node is pruned.
    pub(super) ceiling: Option<i128>,
    /// The bound at the first node of the search.
    pub(super) root_bound: Option<Option<i128>>,
    pub(super) scratch: Vec<OptionId>,
    /// Parallel search (`Keep::Best`): the best solution any thread has found (among those
    /// of equal gain, the one [`Incumbent::wins`] prefers).
    pub(super) shared: Option<&'a Mutex<Shared>>,
    /// Where the solutions this visitor finds stand in the order of the sequential search,
    /// so that a parallel search without [`Bound::TIE_BREAK`] reports the solution the
    /// sequential one would: 0 for seeds and the sequential search; in a parallel search
    /// `2p + 1` for those the search above the cut finds after its `p`-th part, `2k + 2` for
    /// those of part `k`. See [`BranchBound::place`].
    pub(super) part_place: u64,
    /// The place of `kept[0]` (`Keep::Best`).
    pub(super) kept_place: u64,
    /// Parallel search: nodes at this depth are not searched but listed in `parts`, each with
    /// the options its ancestors excluded (`excluded_at[d]`: those of the node at depth d on
    /// the current path).
    pub(super) cut: Option<usize>,
    pub(super) parts: Vec<Part>,
    /// A parallel search sends its parts to the workers as it finds them instead of listing
    /// them (a bounded channel: the top waits while the workers are busy, so the parts in
    /// memory stay a few per worker however many the cut makes), numbered in order.
    pub(super) part_sender: Option<crossbeam_channel::Sender<(u64, Part)>>,
    pub(super) parts_sent: u64,
    pub(super) excluded_at: Vec<Vec<OptionId>>,
    /// The budget's deadline and stop handle, read on an adaptive stride ([`Watch`]): the
    /// engine reads them only every 1024 nodes, which at n = 1000 queens is most of a second.
    /// Once late the search stops ([`Visitor::stop`]): it unwinds at once and counts as cut
    /// short.
    pub(super) watch: Watch,
}

impl<'a, B: Bound> BranchBound<'a, B> {
    pub(super) fn new(gains: &'a [i128], bound: &'a mut B, keep: Keep) -> Self {
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
    pub(super) fn set_watch(&mut self, budget: &Budget) {
        self.watch = Watch::new(budget.stop.clone(), budget.deadline);
        self.bound.deadline(budget.deadline, &budget.stop);
    }

    /// One node entered: whether the deadline has passed or a stop was requested.
    pub(super) fn late(&mut self) -> bool {
        self.watch.tick()
    }

    /// Whether the search was found late (without reading the clock).
    pub(super) fn was_late(&self) -> bool {
        self.watch.is_late()
    }
}

impl<B: Bound> BranchBound<'_, B> {
    /// Takes the floor and the ceiling of one search of the aims (`Keep::Best`).
    pub(super) fn aim(&mut self, window: Window) {
        self.floor = window.floor;
        self.ceiling = window.ceiling;
    }

    /// The gain a subtree must reach to matter, and whether reaching it exactly is enough.
    pub(super) fn threshold(&self) -> Option<(i128, bool)> {
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
    pub(super) fn best_known(&self) -> Option<i128> {
        self.best_placed().map(|(gain, _)| gain)
    }

    /// The gain and place of the best solution kept here or by any thread.
    pub(super) fn best_placed(&self) -> Option<(i128, u64)> {
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
    pub(super) fn best_solution(&self) -> Option<Incumbent> {
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
    pub(super) fn place(&self) -> u64 {
        match self.cut {
            Some(_) => 2 * (self.parts.len() as u64 + self.parts_sent) + 1,
            None => self.part_place,
        }
    }

    /// Without [`Bound::TIE_BREAK`]: whether a solution found now, tying the best known,
    /// would be reported instead of it (the sequential search meets it first). Always false
    /// in the sequential search, where the first one found is kept.
    pub(super) fn earlier_than_best(&self) -> bool {
        self.best_placed().is_none_or(|(_, p)| self.place() < p)
    }

    /// Whether nothing is left to find (`Keep::Best` only, without tie-break): a solution
    /// has reached the ceiling, and nothing found from here on could replace it.
    pub(super) fn done(&self) -> bool {
        self.keep == Keep::Best
            && !B::TIE_BREAK
            && self.ceiling.is_some_and(|c| {
                self.best_placed()
                    .is_some_and(|(b, p)| b >= c && p <= self.place())
            })
    }

    /// Whether a subtree or solution reaching `upper` matters under `threshold` (one reading
    /// of [`BranchBound::threshold`]).
    ///
    /// In a parallel search another thread may raise the shared best at any moment, so every
    /// decision reads the threshold once and judges both the tie and the rest from that
    /// reading. Two readings could see no best and then a best the gain only ties: the tie
    /// judged against the first (no tie), the rest against the second (not worth it), and a
    /// solution the sequential search reports is dropped.
    fn worth(threshold: Option<(i128, bool)>, upper: i128) -> bool {
        match threshold {
            None => true,
            Some((t, ties)) => upper > t || (ties && upper == t),
        }
    }

    /// Offers a solution (options sorted) found at `place` ([`BranchBound::place`]);
    /// duplicates of kept ones are ignored.
    pub(super) fn offer(&mut self, gain: i128, options: &[OptionId], place: u64) {
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
            Some(r) if self.keep != Keep::Best => {
                Self::worth(self.threshold(), so_far.saturating_add(r))
            }
            Some(r) => {
                // No solution is above the ceiling: a node whose bound reaches it can only tie.
                let upper = so_far
                    .saturating_add(r)
                    .min(self.ceiling.unwrap_or(i128::MAX));
                let threshold = self.threshold();
                match threshold {
                    // A tie with the best known: worth it only if it could win the tie-break.
                    Some((t, false)) if upper == t && B::TIE_BREAK => match self.best_solution() {
                        Some(best) => self.bound.precedes(view, &best.options),
                        None => true,
                    },
                    Some((t, false)) if upper == t => self.earlier_than_best(),
                    _ => Self::worth(threshold, upper),
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
        let threshold = self.threshold();
        let tie = self.keep == Keep::Best
            && matches!(threshold, Some((t, false)) if t == gain)
            && (B::TIE_BREAK || self.earlier_than_best());
        if tie || Self::worth(threshold, gain) {
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

/// The best solution a `Keep::Best` visitor kept (at most one), with its place.
pub(super) fn placed(kept: Vec<(i128, Vec<OptionId>)>, place: u64) -> Vec<Incumbent> {
    kept.into_iter()
        .map(|(gain, options)| Incumbent {
            gain,
            place,
            options,
        })
        .collect()
}

/// A seed's total gain and its options sorted by id (the form solutions are kept in).
pub(super) fn sorted_seed(seed: &[OptionId], gains: &[i128]) -> (i128, Vec<OptionId>) {
    let mut s = seed.to_vec();
    s.sort_unstable();
    (s.iter().map(|o| gains[o.0 as usize]).sum(), s)
}
