//! Knuth's estimate of the size of a backtrack tree by random probes (TAOCP 7.2.2, (21);
//! Knuth 1975, "Estimating the efficiency of backtrack programs"): a walk from the root that
//! goes down to a child chosen uniformly at random, seeing `d_k` children at depth k, is an
//! unbiased estimate of the number of nodes, `1 + d_1 + d_1·d_2 + ...`; the mean of many
//! walks is the estimate. The one place for the idea: any tree that can be walked
//! ([`Walk`]) is estimated by [`estimate`] (or walk by walk, [`Probes`]) — the n-queens
//! counter's rank-by-rank tree, the search tree of any exact-cover problem on the dancing
//! links ([`SolverWalk`]: branching on the item with the fewest options, as the dance does),
//! and the bitset search's tree ([`DenseWalk`](crate::engine::DenseWalk), node for node).
//! Which tree a count's nodes are of is the front door's to say
//! (`run::count_tree`).

use super::search::dlx::Solver;
use crate::random::SplitMix64;

/// A tree that a probe walks from its root down to a leaf.
pub trait Walk {
    /// What the node the walk is at counts for (1 by default): the estimate is of the sum of
    /// this over the nodes (Knuth's estimate of a cost), so a node that costs 0 is not
    /// counted though the walk may pass it.
    fn cost(&mut self) -> f64 {
        1.0
    }
    /// The children of the node the walk is at (0 at a leaf: a solution or a dead end).
    fn degree(&mut self) -> u32;
    /// Goes down to child `k` (`k < degree()`).
    fn down(&mut self, k: u32);
    /// Back to the root.
    fn reset(&mut self);
}

/// What the probes say of a tree.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TreeEstimate {
    /// The estimated number of nodes (the root included; a solution counts as a node, as in
    /// Knuth's statistics).
    pub nodes: f64,
    /// The standard error of `nodes` (the probes' spread over the square root of their
    /// number): the estimate's own measure of how far off it may be. Trees with a few heavy
    /// branches are underestimated by most probe sets, so read it as a lower bound of the
    /// error.
    pub std_error: f64,
    /// Probes made.
    pub probes: u32,
}

/// The mean of `probes` random walks of `tree` (at least one), from a generator seeded with
/// `seed` (so the estimate is the same on every run and platform): [`Probes`] made at once.
pub fn estimate(tree: &mut impl Walk, probes: u32, seed: u64) -> TreeEstimate {
    let mut made = Probes::new(seed);
    for _ in 0..probes.max(1) {
        made.probe(tree);
    }
    tree.reset();
    made.estimate()
}

/// Random walks of a tree made so far: an estimate refined walk by walk (a progress line's,
/// probing while the count runs). Each walk picks child `⌊r·d / 2³²⌋` for the high 32 bits
/// `r` of the next draw of a generator seeded once, so that the same walks give the same
/// estimate on every run and platform.
#[derive(Clone, Debug)]
pub struct Probes {
    draws: SplitMix64,
    sum: f64,
    squares: f64,
    made: u32,
}

impl Probes {
    /// No walk yet; the walks' choices drawn from a generator seeded with `seed`.
    pub fn new(seed: u64) -> Probes {
        Probes {
            draws: SplitMix64::new(seed),
            sum: 0.0,
            squares: 0.0,
            made: 0,
        }
    }

    /// One more walk of `tree`, from its root (it is left at the leaf reached).
    pub fn probe(&mut self, tree: &mut impl Walk) {
        tree.reset();
        let (mut weight, mut total) = (1.0f64, 0.0f64);
        loop {
            total += weight * tree.cost();
            let d = tree.degree();
            if d == 0 {
                break;
            }
            weight *= f64::from(d);
            let k = (((self.draws.next_u64() >> 32) * u64::from(d)) >> 32) as u32;
            tree.down(k);
        }
        self.sum += total;
        self.squares += total * total;
        self.made = self.made.saturating_add(1);
    }

    /// The walks' mean and its standard error (0 nodes before the first walk).
    pub fn estimate(&self) -> TreeEstimate {
        let m = f64::from(self.made.max(1));
        let mean = self.sum / m;
        let variance = (self.squares / m - mean * mean).max(0.0);
        TreeEstimate {
            nodes: mean,
            std_error: (variance / m).sqrt(),
            probes: self.made,
        }
    }
}

/// The search tree of an exact-cover problem on a [`Solver`], walked by hand: at each node
/// the active primary item with the fewest options (leftmost on ties, the search's own
/// choice), one child per option left on it — the dancing links' tree (`--knuth`, and the
/// dance's on problems with colours). The dance's default tree on colour-free problems
/// ([`SolverWalk::without_wipe_outs`]) does not enter a child that leaves an uncovered
/// primary item without an option (a *wipe-out*, SSXCC's rule): it is that tree less its
/// wiped-out leaves, so the same walk estimates it with those leaves costing 0
/// ([`Walk::cost`]), at the same price. (The bitset search's tree is that one less the dead
/// ends its look-ahead sees on problems with colours: [`DenseWalk`](crate::engine::DenseWalk)
/// walks it.) The walk forces the options it goes down
/// through and takes them back at [`Walk::reset`]; options forced before the walk stay.
pub struct SolverWalk<'s, 'p> {
    solver: &'s mut Solver<'p>,
    /// Options this walk forced (taken back at reset).
    forced: usize,
    /// Wiped-out nodes cost 0.
    prune: bool,
}

impl<'s, 'p> SolverWalk<'s, 'p> {
    /// The dancing links' tree from the solver's current state (its forced options are the
    /// root).
    pub fn new(solver: &'s mut Solver<'p>) -> Self {
        SolverWalk {
            solver,
            forced: 0,
            prune: false,
        }
    }

    /// The links' default tree on colour-free problems: wiped-out nodes are not counted.
    pub fn without_wipe_outs(solver: &'s mut Solver<'p>) -> Self {
        let mut walk = SolverWalk::new(solver);
        walk.prune = true;
        walk
    }
}

impl Walk for SolverWalk<'_, '_> {
    fn cost(&mut self) -> f64 {
        let state = self.solver.state();
        let wiped = self.prune && state.shortest_item().is_some_and(|i| state.len(i) == 0);
        if wiped { 0.0 } else { 1.0 }
    }

    fn degree(&mut self) -> u32 {
        let state = self.solver.state();
        match state.shortest_item() {
            Some(item) => state.len(item) as u32,
            None => 0,
        }
    }

    fn down(&mut self, k: u32) {
        let state = self.solver.state();
        let option = state
            .shortest_item()
            .and_then(|item| state.options(item).nth(k as usize))
            .expect("a child below the degree");
        self.solver
            .force(option)
            .expect("an option still on an active item can be forced");
        self.forced += 1;
    }

    fn reset(&mut self) {
        for _ in 0..self.forced {
            self.solver.unforce_last();
        }
        self.forced = 0;
    }
}

impl Drop for SolverWalk<'_, '_> {
    fn drop(&mut self) {
        self.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A complete tree of given degrees per level.
    struct Complete {
        degrees: Vec<u32>,
        depth: usize,
    }

    impl Walk for Complete {
        fn degree(&mut self) -> u32 {
            self.degrees.get(self.depth).copied().unwrap_or(0)
        }
        fn down(&mut self, _: u32) {
            self.depth += 1;
        }
        fn reset(&mut self) {
            self.depth = 0;
        }
    }

    /// On a tree whose nodes at each depth all have the same degree every probe is exact.
    #[test]
    fn a_uniform_tree_is_estimated_exactly() {
        let mut t = Complete {
            degrees: vec![3, 2, 4],
            depth: 0,
        };
        let e = estimate(&mut t, 10, 1);
        assert_eq!(e.nodes, 1.0 + 3.0 + 6.0 + 24.0);
        assert_eq!(e.std_error, 0.0);
        assert_eq!(e.probes, 10);
    }

    /// The exact-cover trees of a small problem, the links' (DLX2's) and the bitset engine's:
    /// the probes average to their real node counts, and the walk leaves the solver as it
    /// found it.
    #[test]
    fn the_solver_walk_estimates_the_search_tree() {
        use crate::engine::Budget;
        use crate::queens::board::{Corners, exact_cover};
        // 7-queens (ranks, files, diagonals): many options wipe out an item.
        let problem = exact_cover(7, Corners::Keep).problem;
        let mut solver = Solver::new(&problem);
        solver.knuth_tree(true);
        let counted = solver.count(&Budget::unlimited());
        let e = estimate(&mut SolverWalk::new(&mut solver), 20_000, 7);
        let real = counted.stats.nodes() as f64;
        // The search counts every node but the root.
        assert!(
            (e.nodes - 1.0 - real).abs() < 0.05 * real,
            "{e:?} against {real}"
        );
        assert!(solver.forced().is_empty());
        assert_eq!(solver.count(&Budget::unlimited()).stats, counted.stats);
        // Without the children that wipe out an item: the bitset engine's tree.
        let dense = crate::engine::Dense::new(&problem)
            .unwrap()
            .count(&Budget::unlimited());
        let e = estimate(&mut SolverWalk::without_wipe_outs(&mut solver), 20_000, 7);
        let real = dense.stats.nodes() as f64;
        assert!(real < counted.stats.nodes() as f64);
        assert!(
            (e.nodes - 1.0 - real).abs() < 0.05 * real,
            "{e:?} against {real}"
        );
        assert!(solver.forced().is_empty());
    }
}
