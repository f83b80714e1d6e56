//! Bounds: what the options still to be chosen can add at most ([`Bound`]), the generic
//! [`ShareBound`] that works for any model, and the best-first order of the options.

use std::time::Instant;

use crate::engine::budget::Stop;
use crate::engine::problem::{ItemId, OptionId, Problem};
use crate::engine::search::dlx::View;

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
    /// [`Visitor::exclude`](crate::engine::Visitor::exclude)). None by default.
    fn exclude(&mut self, _view: &View<'_>, _out: &mut Vec<OptionId>) {}
    /// Whether `order` does anything.
    const ORDERS: bool = false;
    /// Called after `bound` kept a node: the options of the item it branches on, to be put in the
    /// order to try them (most promising first), in place
    /// ([`Visitor::order`](crate::engine::Visitor::order)).
    fn order(&mut self, _view: &View<'_>, _options: &mut [OptionId]) {}
    /// Whether `choose` does anything.
    const CHOOSES: bool = false;
    /// Called after `bound` kept a node and `exclude` ran: the active primary item to branch on
    /// ([`Visitor::choose`](crate::engine::Visitor::choose)), or `None` (the default) for the
    /// engine's item of minimum length. Any active primary item is a valid branching: the choice
    /// shapes the tree, not the result.
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
pub(super) const SHARE_CLOCK_ITEMS: usize = 64;

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
