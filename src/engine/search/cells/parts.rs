//! The sparse-set search's parts (see "Parts" in the module documentation): the cut of its
//! tree by prefixes, and the count below a prefix.

use std::ops::ControlFlow;

use super::{Cells, Counters, Paused, SPACER};
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::OptionId;
use crate::engine::stats::Stats;

impl Cells<'_> {
    /// The parts at the top of the tree, for threads: the options taken on the way to every
    /// node at the first level with at least `want` of them (at most the depth of the tree),
    /// in the order of the search, and what the search above that level found (solutions
    /// above it included; the nodes at the level itself are left to [`Cells::count_below`]).
    /// Forced moves are levels as any other (each entry to a level is a node).
    pub(crate) fn prefixes(&mut self, want: usize) -> (Vec<Vec<u32>>, Stats) {
        let primaries = self.problem.primary_count();
        let mut cut = 1;
        loop {
            self.paused = None;
            self.cut = cut;
            self.found.clear();
            let budget = &Budget::unlimited();
            let none = &mut |_: &[OptionId]| ControlFlow::Continue(());
            let outcome = if self.coloured {
                self.search::<true, false, true, _>(budget, none)
            } else {
                self.search::<false, false, true, _>(budget, none)
            };
            self.cut = usize::MAX;
            self.done = false;
            // `found` holds `cut` options per part.
            if self.found.len() / cut >= want || self.found.is_empty() || cut > primaries {
                let found = std::mem::take(&mut self.found);
                return (
                    found.chunks(cut).map(<[u32]>::to_vec).collect(),
                    outcome.stats,
                );
            }
            cut += 1;
        }
    }

    /// Counts the solutions that contain the options of `prefix` (the problem's option ids,
    /// from [`Cells::prefixes`] or from the bitset search's cut of the same problem) within
    /// `budget`: the options are taken in turn from the root, as the search tries them (no
    /// node, no mem counted), then the node reached and its subtree are counted. A count the
    /// budget stops goes on with [`Cells::resume`], its node limit on the part's count so far.
    /// A prefix whose options conflict counts nothing.
    pub(crate) fn count_below(&mut self, prefix: &[u32], budget: &Budget) -> Outcome {
        self.counted = Stats::default();
        self.paused = if self.coloured {
            self.descend::<true>(prefix)
        } else {
            self.descend::<false>(prefix)
        };
        if self.paused.is_none() {
            self.done = true;
            return Outcome {
                end: End::Exhausted,
                stats: Stats::default(),
            };
        }
        self.resume(budget)
    }

    /// Takes the options of `prefix` in turn from the root: where the node would be left for
    /// the search; `None` if an option is not there to take (it conflicts with one before it,
    /// or an item it does not cover has no option left).
    ///
    /// At each level the item to branch on is the search's own choice when the option
    /// contains it, so that the node reached by a prefix of [`Cells::prefixes`] is the one the
    /// whole search enters (the same active items, sizes and force stack); otherwise (the
    /// bitset search chose another item) the option's first active primary item, which may
    /// leave an item without options unnoticed by the hiding (only the search's choice of the
    /// fewest options rules that out), hence the check of the sizes after each option.
    fn descend<const COLOURS: bool>(&mut self, prefix: &[u32]) -> Option<Paused> {
        if self.hopeless || prefix.len() > self.problem.primary_count() {
            return None;
        }
        self.set.copy_from_slice(&self.set0);
        self.nd.copy_from_slice(&self.nd0);
        self.item.copy_from_slice(&self.item0);
        self.prim.copy_from_slice(&self.prim0);
        self.force.clear();
        self.trail.clear();
        let mut k = Counters::default();
        let mut active = self.item.len() as u32;
        let mut pactive = self.prim.len() as u32;
        let mut epoch = 1;
        for (level, &o) in prefix.iter().enumerate() {
            if o as usize >= self.start.len() {
                return None;
            }
            let (x, forced) = match self.choose(active, pactive, &mut k) {
                Some((x, forced)) if self.node_of(o, x).is_some() => (x, forced),
                _ => (self.first_primary(o, active)?, false),
            };
            let node = self.node_of(o, x)?;
            // The option is still there if its node is among `x`'s present options (had it
            // been hidden, it would have left the set of `x`, active all along).
            if self.nd[node as usize].loc >= x + self.set[x as usize - 1] {
                return None;
            }
            active -= 1;
            self.swap_out(x, active, &mut pactive, &mut k);
            self.hide::<false, COLOURS>(x, 0, active, active, epoch, &mut k);
            if !forced {
                // No sizes saved: the count never backs up past the prefix.
                self.next_epoch(&mut epoch);
            }
            self.choice[level] = node;
            if !self.commit::<COLOURS>(node, &mut active, &mut pactive, epoch, &mut k) {
                return None;
            }
            if (0..pactive).any(|p| self.set[self.prim[p as usize] as usize - 1] == 0) {
                return None;
            }
        }
        Some(Paused {
            active,
            pactive,
            epoch,
            level: prefix.len(),
            saveptr: 0,
            floor: prefix.len(),
        })
    }

    /// The node of option `o` in item `x`'s block, if `o` contains `x`.
    fn node_of(&self, o: u32, x: u32) -> Option<u32> {
        let mut y = self.start[o as usize];
        loop {
            let itm = self.nd[y as usize].itm;
            if itm >= SPACER {
                return None;
            }
            if itm == x {
                return Some(y);
            }
            y += 1;
        }
    }

    /// The first primary item of option `o` still active (position below `active`).
    fn first_primary(&self, o: u32, active: u32) -> Option<u32> {
        let mut y = self.start[o as usize];
        loop {
            let itm = self.nd[y as usize].itm;
            if itm >= SPACER {
                return None;
            }
            if itm < self.second && self.set[itm as usize - 2] < active {
                return Some(itm);
            }
            y += 1;
        }
    }

    /// The item to branch on at the entry to a node, by SSXCC's rules: a forced move left
    /// over from the level above, else the active primary item with the fewest options,
    /// leftmost on ties, unless the scan finds items with one option (pushed on the force
    /// stack, the one to take popped). With whether it is a forced move; `None` when no
    /// primary item is left (a solution). For [`Cells::descend`]: the search's loop has the
    /// same code inline, which a call to this function made 1.7% more instructions.
    fn choose(&mut self, active: u32, pactive: u32, k: &mut Counters) -> Option<(u32, bool)> {
        while let Some(x) = self.force.pop() {
            if at!(self.set, x - 2) < active {
                return Some((x, true));
            }
        }
        let mut least = u64::MAX;
        k.scans += u64::from(pactive);
        for p in 0..pactive {
            let x = at!(self.prim, p);
            let s = at!(self.set, x - 1);
            if s <= 1 {
                debug_assert!(s == 1, "a wiped-out item escaped the check");
                self.force.push(x);
            } else {
                least = least.min(u64::from(s) << 32 | u64::from(x));
            }
        }
        if !self.force.is_empty() {
            // The items with one option are taken from the right end of the active list
            // leftwards, as a scan of that list pushes them.
            if self.force.len() > 1 {
                let set = &self.set;
                self.force.sort_unstable_by_key(|&x| set[x as usize - 2]);
            }
            return self.force.pop().map(|x| (x, true));
        }
        (least != u64::MAX).then_some((least as u32, false))
    }
}

/// The sparse-set search as the door and threads see it: a count or a listing from the
/// start, and parts of its tree cut by the options taken on the way to them, counted (and
/// resumed when a deadline stops them) by searches forked for threads (`run/threads.rs`).
impl super::super::Search for Cells<'_> {
    type Prefix = Vec<u32>;

    fn count(&mut self, budget: &Budget) -> Outcome {
        Cells::count(self, budget)
    }

    fn resume(&mut self, budget: &Budget) -> Option<Outcome> {
        Some(Cells::resume(self, budget))
    }

    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Outcome {
        self.run(budget, |s: &[OptionId]| sink(s))
    }

    fn cut(&mut self, want: usize) -> super::super::Cut<Vec<u32>> {
        let (parts, above) = self.prefixes(want);
        super::super::Cut {
            depth: parts.first().map_or(0, Vec::len),
            parts,
            above,
        }
    }

    fn count_below(&mut self, prefix: &Vec<u32>, budget: &Budget) -> Outcome {
        Cells::count_below(self, prefix, budget)
    }
}

impl super::super::Resumable for Cells<'_> {
    fn fork(&self) -> Self {
        self.sibling()
    }

    fn progress(&self) -> f64 {
        Cells::progress(self)
    }

    fn nodes(&self) -> u64 {
        self.counted.nodes
    }
}
