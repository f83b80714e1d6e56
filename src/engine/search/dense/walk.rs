//! The bitset search's tree as Knuth's random probes walk it ([`Walk`]): the tree [`Dense`]
//! counts, node for node, so that the probes' mean is an unbiased estimate of the nodes a
//! count of the problem on the bitset search enters (and posts for a progress line).
//!
//! A node of that tree is an entry to a level that is neither a wipe-out (abandoned inside the
//! try) nor, on problems with colours, a dead end seen one step ahead (two items with one
//! option left whose options conflict: abandoned before it is entered); a solution is a node.
//! The walk goes down only to children that are nodes: at each node it tries every option of
//! the branching item (chosen by the search's own rule, on the same list of uncovered items
//! in the same order) and keeps those whose level would be entered. That costs a probe a try
//! per child at each level, as the search's own node does, and gives the estimator a
//! narrower spread than counting abandoned children as nodes of cost 0.

use super::Dense;
use super::tables::DenseError;
use crate::engine::estimate::Walk;
use crate::engine::problem::Problem;

/// The tree of [`Dense`] on a problem, walked from its root by [`Walk::down`].
pub struct DenseWalk<'p> {
    dense: Dense<'p>,
    /// The level the walk is at, and its uncovered primary items.
    depth: usize,
    pactive: u32,
    /// Whether the level the walk is at is a node (the search enters it).
    node: bool,
    /// The options of the branching item whose levels are nodes: the children.
    children: Vec<u32>,
}

impl<'p> DenseWalk<'p> {
    /// The walk of the bitset search's tree of `problem`; refuses what [`Dense::new`]
    /// refuses.
    pub fn new(problem: &'p Problem) -> Result<DenseWalk<'p>, DenseError> {
        Ok(DenseWalk::on(Dense::new(problem)?))
    }

    /// The walk of `dense`'s tree.
    pub(super) fn on(dense: Dense<'p>) -> DenseWalk<'p> {
        let mut walk = DenseWalk {
            dense,
            depth: 0,
            pactive: 0,
            node: false,
            children: Vec::new(),
        };
        walk.reset();
        walk
    }

    /// The search walked (for the tests).
    #[cfg(test)]
    pub(super) fn dense(&self) -> &Dense<'p> {
        &self.dense
    }

    /// Tries option `o` at the walk's level: level `depth + 1`'s options and sizes, and the
    /// uncovered items (`pactive`). False on a wipe-out.
    fn try_option(&mut self, o: u32, pactive: &mut u32) -> bool {
        let mut removed = 0;
        let depth = self.depth;
        let (t, mut a) = self.dense.arrays();
        let taken = a.try_option_as_built(t, depth, o, pactive, &mut removed);
        self.dense.trail_top = a.trail_top;
        taken
    }

    /// Undoes a try at the walk's level, which left `pactive` uncovered items: the swaps of
    /// the list of uncovered items in reverse (so its order is the one the search has at the
    /// next try) and, on a trail, the sizes it took.
    fn untry(&mut self, pactive: u32, trail: usize) {
        let d = &mut self.dense;
        for a in pactive..self.pactive {
            let i = d.from[a as usize];
            let x = d.prim[a as usize];
            let y = d.prim[i as usize];
            d.prim[i as usize] = x;
            d.pos[x as usize] = i;
            d.prim[a as usize] = y;
            d.pos[y as usize] = a;
        }
        if d.t.trail {
            for k in trail..d.trail_top {
                d.sizes[d.trail[k] as usize] += 1;
            }
            d.trail_top = trail;
        }
    }

    /// The sizes of the primary items at level `depth` (one array on a trail).
    fn sizes(&self, depth: usize) -> &[u32] {
        let p = self.dense.t.primaries;
        let here = if self.dense.t.trail { 0 } else { depth };
        &self.dense.sizes[here * p..(here + 1) * p]
    }

    /// Whether the search abandons level `depth`, with `pactive` uncovered items, before
    /// entering it: with the look-ahead rule (problems with colours), two of the options of
    /// the items with one option left conflict.
    fn dead_ahead(&self, depth: usize, pactive: u32) -> bool {
        if !self.dense.t.lookahead {
            return false;
        }
        let (t, w) = (&self.dense.t, self.dense.t.words);
        let sizes = self.sizes(depth);
        let live = &self.dense.live[depth * w..(depth + 1) * w];
        let forced: Vec<u32> = self.dense.prim[..pactive as usize]
            .iter()
            .filter(|&&x| sizes[x as usize] == 1)
            .map(|&x| {
                let x = x as usize;
                let bits = &t.item_bits[x * w..(x + 1) * w];
                let k = (t.item_lo[x]..t.item_hi[x])
                    .find(|&k| bits[k as usize] & live[k as usize] != 0)
                    .expect("an option left");
                k * 64 + (bits[k as usize] & live[k as usize]).trailing_zeros()
            })
            .collect();
        forced.iter().enumerate().any(|(i, &a)| {
            let row = &t.conflicts[a as usize * w..(a as usize + 1) * w];
            forced[i + 1..]
                .iter()
                .any(|&b| a != b && row[b as usize / 64] >> (b % 64) & 1 != 0)
        })
    }

    /// The search's branching item at the walk's level: the uncovered primary item with the
    /// fewest options, the first declared on ties, the first in the list with one option.
    fn branching_item(&self) -> u32 {
        let sizes = self.sizes(self.depth);
        let (mut best, mut least) = (0u32, u32::MAX);
        for &x in &self.dense.prim[..self.pactive as usize] {
            let s = sizes[x as usize];
            if s < least || (s == least && x < best) {
                best = x;
                least = s;
                if s == 1 {
                    break;
                }
            }
        }
        best
    }

    /// Enters the walk's level as the search would: whether it is a node, and its children.
    fn enter(&mut self) {
        self.children.clear();
        self.node = !self.dead_ahead(self.depth, self.pactive);
        if !self.node || self.pactive == 0 {
            return;
        }
        let w = self.dense.t.words;
        let item = self.branching_item() as usize;
        let trail = self.dense.trail_top;
        for k in self.dense.t.item_lo[item]..self.dense.t.item_hi[item] {
            let k = k as usize;
            let mut bits =
                self.dense.t.item_bits[item * w + k] & self.dense.live[self.depth * w + k];
            while bits != 0 {
                let o = (k * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                let mut pactive = self.pactive;
                if self.try_option(o, &mut pactive)
                    && (pactive == 0 || !self.dead_ahead(self.depth + 1, pactive))
                {
                    self.children.push(o);
                }
                self.untry(pactive, trail);
            }
        }
    }
}

impl Walk for DenseWalk<'_> {
    fn cost(&mut self) -> f64 {
        if self.node { 1.0 } else { 0.0 }
    }

    fn degree(&mut self) -> u32 {
        self.children.len() as u32
    }

    fn down(&mut self, k: u32) {
        let o = self.children[k as usize];
        let mut pactive = self.pactive;
        let entered = self.try_option(o, &mut pactive);
        debug_assert!(entered, "a child is a node");
        self.depth += 1;
        self.pactive = pactive;
        self.enter();
    }

    fn reset(&mut self) {
        self.dense.start();
        self.depth = 0;
        self.pactive = self.dense.cursor.pactive;
        if self.dense.cursor.done {
            self.node = false;
            self.children.clear();
        } else {
            self.enter();
        }
    }
}
