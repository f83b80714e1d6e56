//! The tie rule: of several optimal layouts, the lexicographically smallest (files rank by
//! rank) is reported.
//!
//! The branch and bound breaks ties as it goes ([`Bound::TIE_BREAK`]): it cannot prune a
//! node whose bound only ties the best layout known unless nothing below it can come first.
//! On a board where the bound is exact at the root (all zeros; `r·n + c + 1`, where every
//! layout scores the same) that is nearly every node. So before it, [`smallest_reaching`]
//! walks the squares in lexicographic order — rank 0 first, files in increasing order —
//! looking for a layout that reaches the root's bound, pruning every node whose bound is
//! below it: the first one it meets is optimal (it reaches a proven bound) and the smallest
//! of the optimal ones. The walk is taken only when the heuristic's layout already reaches
//! the root's bound (so that it is sure to end at the first layout); on the other boards it
//! costs one bound at the root.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::engine::optimize::Bound;
use crate::engine::run::Dance;
use crate::engine::{Budget, ItemId, OptionId, Stats, Stop, View, Visitor};

use super::super::board::Line;
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

/// A bound given the queens' tie-break ([`TieBreak`]), for a bound that has none (the
/// engine's generic one), so that every method follows the tie rule.
pub(crate) struct Tied<B>(pub B, pub TieBreak);

impl<B: Bound> Bound for Tied<B> {
    fn bound(&mut self, view: &View<'_>, target: Option<i128>) -> Option<i128> {
        self.0.bound(view, target)
    }
    fn exclude(&mut self, view: &View<'_>, out: &mut Vec<OptionId>) {
        self.0.exclude(view, out)
    }
    const ORDERS: bool = B::ORDERS;
    fn order(&mut self, view: &View<'_>, options: &mut [OptionId]) {
        self.0.order(view, options)
    }
    const CHOOSES: bool = B::CHOOSES;
    fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
        self.0.choose(view)
    }
    fn deadline(&mut self, at: Option<Instant>, stop: &Stop) {
        self.0.deadline(at, stop)
    }
    const TIE_BREAK: bool = true;
    fn precedes(&mut self, view: &View<'_>, best: &[OptionId]) -> bool {
        self.1.precedes(view, best)
    }
}

/// The lexicographically smallest layout whose options' `gains` add up to at least the
/// bound at the root, searched on `solver` (the model's problem, option
/// `r·n + c` for square (r, c)) with `bound` pruning the nodes that cannot reach it, until
/// `deadline` or a request through `stop`: the layout as sorted square options (`None` when
/// none was met in time), the root's bound, and the statistics of the walk. The walk ends at
/// once unless the root's bound is `require`; the root has until `root_deadline`.
pub(crate) fn smallest_reaching<B: Bound>(
    solver: &mut Dance<'_>,
    lines: &[Line],
    gains: &[i128],
    bound: &mut B,
    root_deadline: Option<Instant>,
    (deadline, stop): (Option<Instant>, &Stop),
    require: i128,
) -> (Option<Vec<OptionId>>, Option<i128>, Stats) {
    let mut rank_of_item = vec![u32::MAX; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        if let Line::Rank(r) = *line {
            rank_of_item[i] = r;
        }
    }
    bound.deadline(root_deadline, stop);
    let mut walk = LexWalk {
        gains,
        bound,
        value: None,
        rank_of_item,
        deadline: root_deadline,
        after_root: deadline,
        require,
        late: false,
        found: None,
        stop: stop.clone(),
    };
    let budget = Budget {
        deadline,
        ..Budget::unlimited()
    }
    .with_stop(stop);
    let outcome = solver.run(&budget, &mut walk);
    (walk.found, walk.value, outcome.stats)
}

/// The visitor of [`smallest_reaching`].
struct LexWalk<'a, B> {
    gains: &'a [i128],
    bound: &'a mut B,
    /// The score to reach (`None` until the root's bound sets it).
    value: Option<i128>,
    /// The rank of each item (`u32::MAX` for the other lines).
    rank_of_item: Vec<u32>,
    deadline: Option<Instant>,
    /// The deadline once the root's bound is the one required.
    after_root: Option<Instant>,
    /// The root's bound the walk requires (it stops, `late`, on another).
    require: i128,
    late: bool,
    found: Option<Vec<OptionId>>,
    /// The walk's stop handle, read with the clock at each node.
    stop: Stop,
}

impl<B: Bound> Visitor for LexWalk<'_, B> {
    const PRUNES: bool = true;

    fn enter(&mut self, view: &View<'_>) -> bool {
        // The walk is short and its nodes slow (a bound each): the clock is read at each.
        self.late |= self.stop.out_of_time(self.deadline).is_some();
        if self.late {
            return false;
        }
        let so_far: i128 = view.chosen().map(|o| self.gains[o.0 as usize]).sum();
        let target = self.value.map(|v| v.saturating_sub(so_far));
        let Some(rest) = self.bound.bound(view, target) else {
            return false;
        };
        let value = match self.value {
            Some(v) => v,
            None => {
                let v = so_far.saturating_add(rest);
                self.value = Some(v);
                self.late |= v != self.require;
                self.deadline = self.after_root;
                self.bound.deadline(self.after_root, &self.stop);
                v
            }
        };
        !self.late && rest >= value - so_far
    }

    fn stop(&self) -> bool {
        self.late
    }

    fn exclude(&mut self, view: &View<'_>, out: &mut Vec<OptionId>) {
        self.bound.exclude(view, out)
    }

    const ORDERS: bool = true;

    /// Files in increasing order: the options of a rank are its squares `r·n + c`.
    fn order(&mut self, _view: &View<'_>, options: &mut [OptionId]) {
        options.sort_unstable();
    }

    const CHOOSES: bool = true;

    /// The lowest rank still free.
    fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
        view.active_primary()
            .filter(|i| self.rank_of_item[i.0 as usize] != u32::MAX)
            .min_by_key(|i| self.rank_of_item[i.0 as usize])
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        let gain: i128 = options.iter().map(|o| self.gains[o.0 as usize]).sum();
        if self.value.is_some_and(|v| gain >= v) {
            let mut s = options.to_vec();
            s.sort_unstable();
            self.found = Some(s);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}
