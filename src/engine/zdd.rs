//! The solution family as data: a ZDD of the memoised search, its path counts, and exact
//! uniform sampling (the idea of Knuth's DLX6, which writes the search as a ZDD).
//!
//! # The diagram
//!
//! A zero-suppressed decision diagram whose paths from the root to ⊤ are the solutions.
//! Each node names an option and has two children: HI, the sub-problem left after taking
//! the option, and LO, the next option of the same branching item (⊥ after the last). A
//! path takes the options of the nodes it leaves by HI; leaving by LO skips an option.
//!
//! It is built by a depth-first walk of the search tree ([`Zdd::build`]): at each node the
//! item of fewest options (leftmost on ties, as the search branches) and its options in list
//! order. A node's sub-problem is named by its memo key ([`Solver::state_key`]: the items
//! still open and the colours set), which fixes the options still available and so the whole
//! subtree below; a sub-problem met again takes the chain already built for it. The chain of
//! a sub-problem is made bottom-up once all of its options were searched: one node per option
//! whose HI is not ⊥ (an option in no solution is left out), the last option first, each node
//! the LO of the one before. A node equal to one made before (same option, HI and LO) is not
//! made twice. So the diagram has at most one chain per distinct sub-problem, no node with HI
//! ⊥, and no two equal nodes; node ids grow bottom-up (a node's children have smaller ids),
//! and a sub-problem with no solution is ⊥, one with every primary item covered ⊤.
//!
//! Unlike the memo's table ([`super::Memo`]), which forgets when full, the builder keeps every
//! sub-problem: it is bounded by a memory budget instead, and refuses ([`ZddError::Memory`])
//! when the diagram would outgrow it.
//!
//! # Counts and samples
//!
//! [`Zdd::counts`] counts the paths below every node in one pass in id order (count(⊥) = 0,
//! count(⊤) = 1, count(n) = count(HI) + count(LO)), in `u128` with every sum checked: a
//! family too large for `u128` is [`ZddError::Overflow`], never a wrong count.
//!
//! [`Sampler::draw`] draws one solution exactly uniformly: a rank uniform in `0..count(root)`
//! ([`SplitMix64::below_u128`], by rejection), then the path of that rank, walking down from
//! the root: at a node, ranks below count(HI) take the option and go to HI, the others skip
//! it (rank minus count(HI)) and go to LO. Ranks and solutions are in one-to-one
//! correspondence, so each solution has probability exactly 1 / count(root); equivalently,
//! at each sub-problem each option is taken with probability count(child) / count(node).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::problem::OptionId;
use super::search::dlx::Solver;
use crate::random::SplitMix64;

/// The id of ⊥, the empty family (no solution).
pub const BOTTOM: u32 = 0;
/// The id of ⊤, the family of the empty set (every primary item covered).
pub const TOP: u32 = 1;

/// One node of a [`Zdd`]: an option, HI (after taking it) and LO (without it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZddNode {
    /// The option.
    pub option: OptionId,
    /// The id of the sub-problem after taking the option (never [`BOTTOM`]).
    pub hi: u32,
    /// The id of the next option of the same branching item, or [`BOTTOM`].
    pub lo: u32,
}

/// Why no diagram (or no count) could be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZddError {
    /// The diagram would need more memory than the budget allows.
    #[error(
        "the ZDD outgrew its memory budget of {budget} bytes ({subproblems} sub-problems, {nodes} nodes so far)"
    )]
    Memory {
        /// The budget, in bytes.
        budget: u64,
        /// Sub-problems kept when it was refused.
        subproblems: usize,
        /// Nodes made when it was refused.
        nodes: usize,
    },
    /// More nodes than 32-bit ids can name.
    #[error("the ZDD has more than 2^32 - 2 nodes")]
    TooManyNodes,
    /// The caller's stop condition said to stop before the diagram was complete.
    #[error("stopped before the ZDD was complete")]
    Stopped,
    /// A path count does not fit in 128 bits.
    #[error("the number of solutions exceeds 2^128 - 1")]
    Overflow,
    /// Items with multiplicities: the memo's keys do not describe their sub-problems.
    #[error(
        "items with multiplicities (u:v|name) have no ZDD here: the memo's keys do not describe their sub-problems"
    )]
    Multiplicities,
}

/// What building a diagram did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ZddStats {
    /// Distinct sub-problems searched (with at least one primary item open and every open
    /// one with an option left).
    pub subproblems: usize,
    /// Sub-problems met again and taken from those already built.
    pub hits: u64,
    /// Nodes made that were equal to one made before.
    pub shared: u64,
    /// The builder's estimate of the memory it used at its largest, in bytes.
    pub bytes: u64,
}

/// A ZDD of the solutions of a search (see the module documentation).
#[derive(Clone, Debug)]
pub struct Zdd {
    /// Node `id` is `nodes[id - 2]`.
    nodes: Vec<ZddNode>,
    root: u32,
    stats: ZddStats,
}

/// Bytes the builder counts per node: the node, its entry in the table of nodes made, and
/// its count when sampling.
const NODE_BYTES: u64 = 12 + 24 + 16;
/// Bytes the builder counts per sub-problem beyond its key: the table's entry and the key's
/// allocation.
const SUBPROBLEM_BYTES: u64 = 64;
/// Sub-problems between two calls of the stop condition.
const STOP_EVERY: usize = 1024;

/// One level of the walk: the sub-problem's key, its branching item's options, the next
/// one to try, and the options taken so far with their (non-⊥) HI.
#[derive(Default)]
struct Frame {
    key: Vec<u64>,
    options: Vec<OptionId>,
    next: usize,
    taken: Vec<(OptionId, u32)>,
}

/// The builder's tables.
struct Builder {
    words: usize,
    budget: u64,
    key: Vec<u64>,
    subproblems: HashMap<Box<[u64]>, u32>,
    unique: HashMap<ZddNode, u32>,
    nodes: Vec<ZddNode>,
    stats: ZddStats,
}

impl Builder {
    fn bytes(&self) -> u64 {
        let per_key = SUBPROBLEM_BYTES + 8 * self.words as u64;
        self.subproblems.len() as u64 * per_key + self.nodes.len() as u64 * NODE_BYTES
    }

    fn check_memory(&mut self) -> Result<(), ZddError> {
        let bytes = self.bytes();
        self.stats.bytes = self.stats.bytes.max(bytes);
        if bytes > self.budget {
            return Err(ZddError::Memory {
                budget: self.budget,
                subproblems: self.subproblems.len(),
                nodes: self.nodes.len(),
            });
        }
        Ok(())
    }

    /// The id of the node (option, hi, lo), made unless an equal one exists.
    fn node(&mut self, node: ZddNode) -> Result<u32, ZddError> {
        if let Some(&id) = self.unique.get(&node) {
            self.stats.shared += 1;
            return Ok(id);
        }
        let id = u32::try_from(self.nodes.len() + 2)
            .ok()
            .filter(|&id| id < u32::MAX)
            .ok_or(ZddError::TooManyNodes)?;
        self.nodes.push(node);
        self.unique.insert(node, id);
        Ok(id)
    }

    /// Opens the solver's current state: `Some(id)` when its diagram is known at once (⊤,
    /// ⊥, or a sub-problem met before), `None` when `frame` was set up to search it.
    fn enter(&mut self, solver: &Solver<'_>, frame: &mut Frame) -> Option<u32> {
        let view = solver.state();
        let Some(item) = view.shortest_item() else {
            return Some(TOP);
        };
        if view.len(item) == 0 {
            return Some(BOTTOM);
        }
        solver.state_key(&mut self.key);
        if let Some(&id) = self.subproblems.get(&self.key[..]) {
            self.stats.hits += 1;
            return Some(id);
        }
        frame.key.clear();
        frame.key.extend_from_slice(&self.key);
        frame.options.clear();
        frame.options.extend(view.options(item));
        frame.next = 0;
        frame.taken.clear();
        None
    }

    /// Closes a searched sub-problem: its chain, bottom-up, remembered under its key.
    fn leave(&mut self, frame: &Frame) -> Result<u32, ZddError> {
        let mut lo = BOTTOM;
        for &(option, hi) in frame.taken.iter().rev() {
            lo = self.node(ZddNode { option, hi, lo })?;
        }
        self.subproblems
            .insert(frame.key.clone().into_boxed_slice(), lo);
        self.check_memory()?;
        Ok(lo)
    }
}

impl Zdd {
    /// The diagram of the completions of `solver`'s state (its forced options are on no
    /// path: a path is what completes them), within about `max_bytes` bytes of tables (see
    /// [`ZddStats::bytes`]). `stop` is asked every 1,024 sub-problems searched; true ends
    /// the build with [`ZddError::Stopped`]. The solver is left as it was found.
    pub fn build(
        solver: &mut Solver<'_>,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Zdd, ZddError> {
        if solver.problem().has_multiplicities() {
            return Err(ZddError::Multiplicities);
        }
        let words = solver.memo_words();
        let mut b = Builder {
            words,
            budget: max_bytes,
            key: vec![0; words],
            subproblems: HashMap::new(),
            unique: HashMap::new(),
            nodes: Vec::new(),
            stats: ZddStats::default(),
        };
        let base = solver.forced().len();
        let result = Self::walk(solver, &mut b, stop);
        // An error leaves options forced at the depth it was found: take them back.
        while solver.forced().len() > base {
            solver.unforce_last();
        }
        let root = result?;
        b.stats.subproblems = b.subproblems.len();
        Ok(Zdd {
            nodes: b.nodes,
            root,
            stats: b.stats,
        })
    }

    /// The depth-first walk, on an explicit stack of frames (one per level, reused).
    fn walk(
        solver: &mut Solver<'_>,
        b: &mut Builder,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<u32, ZddError> {
        let mut frames: Vec<Frame> = vec![Frame::default()];
        if let Some(id) = b.enter(solver, &mut frames[0]) {
            return Ok(id);
        }
        let mut depth = 0usize;
        let mut searched = 0usize;
        loop {
            let frame = &mut frames[depth];
            if frame.next < frame.options.len() {
                let option = frame.options[frame.next];
                frame.next += 1;
                solver
                    .force(option)
                    .expect("an option of the branching item's list can be taken");
                if frames.len() <= depth + 1 {
                    frames.push(Frame::default());
                }
                let (upper, lower) = frames.split_at_mut(depth + 1);
                match b.enter(solver, &mut lower[0]) {
                    Some(id) => {
                        solver.unforce_last();
                        if id != BOTTOM {
                            upper[depth].taken.push((option, id));
                        }
                    }
                    None => depth += 1,
                }
            } else {
                let id = b.leave(frame)?;
                searched += 1;
                if searched.is_multiple_of(STOP_EVERY) && stop() {
                    return Err(ZddError::Stopped);
                }
                if depth == 0 {
                    return Ok(id);
                }
                depth -= 1;
                let option = solver.unforce_last().expect("forced at the level above");
                if id != BOTTOM {
                    frames[depth].taken.push((option, id));
                }
            }
        }
    }

    /// The root's id: [`BOTTOM`] when there is no solution, [`TOP`] when the only solution
    /// takes no option.
    pub fn root(&self) -> u32 {
        self.root
    }

    /// The number of nodes, terminals not included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the diagram is a terminal only.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node `id` (2 and up; the ids `2..len() + 2`, children before parents).
    pub fn node(&self, id: u32) -> ZddNode {
        assert!(id > TOP, "a terminal has no option");
        self.nodes[(id - 2) as usize]
    }

    /// The nodes with their ids, in id order (children before parents).
    pub fn nodes(&self) -> impl Iterator<Item = (u32, ZddNode)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 2, n))
    }

    /// The nodes (node `id` at `id - 2`) and the root, taken out of the diagram.
    pub fn into_parts(self) -> (Vec<ZddNode>, u32) {
        (self.nodes, self.root)
    }

    /// What the build did.
    pub fn stats(&self) -> ZddStats {
        self.stats
    }

    /// The number of paths from each id to ⊤ (by id: ⊥ 0, ⊤ 1, then the nodes), or
    /// [`ZddError::Overflow`] when one does not fit in a `u128`.
    pub fn counts(&self) -> Result<Vec<u128>, ZddError> {
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 2);
        counts.extend([0, 1]);
        for n in &self.nodes {
            let c = counts[n.hi as usize]
                .checked_add(counts[n.lo as usize])
                .ok_or(ZddError::Overflow)?;
            counts.push(c);
        }
        Ok(counts)
    }

    /// The number of solutions (paths from the root to ⊤).
    pub fn count(&self) -> Result<u128, ZddError> {
        Ok(self.counts()?[self.root as usize])
    }

    /// Calls `f` with each solution (its options in path order, the order the search chose
    /// them) until it breaks; false if it broke. There are [`Zdd::count`] of them: for small
    /// families.
    pub fn for_each_solution(&self, mut f: impl FnMut(&[OptionId]) -> ControlFlow<()>) -> bool {
        // Depth-first over the HI edges; LO edges are siblings.
        let mut path: Vec<OptionId> = Vec::new();
        // (node, the path's length when it was reached)
        let mut stack: Vec<(u32, usize)> = vec![(self.root, 0)];
        while let Some((id, len)) = stack.pop() {
            path.truncate(len);
            match id {
                BOTTOM => {}
                TOP => {
                    if f(&path).is_break() {
                        return false;
                    }
                }
                _ => {
                    let n = self.node(id);
                    stack.push((n.lo, len));
                    path.push(n.option);
                    stack.push((n.hi, len + 1));
                }
            }
        }
        true
    }
}

/// Exact uniform draws from a [`Zdd`]'s solutions (see the module documentation).
pub struct Sampler<'z> {
    zdd: &'z Zdd,
    counts: Vec<u128>,
}

impl<'z> Sampler<'z> {
    /// A sampler over `zdd`'s solutions, or [`ZddError::Overflow`] when they are too many
    /// to count in 128 bits.
    pub fn new(zdd: &'z Zdd) -> Result<Sampler<'z>, ZddError> {
        Ok(Sampler {
            counts: zdd.counts()?,
            zdd,
        })
    }

    /// The number of solutions.
    pub fn count(&self) -> u128 {
        self.counts[self.zdd.root as usize]
    }

    /// The solution of rank `rank` (`0..count()`), its options in path order, into `out`
    /// (cleared first). Ranks follow the order of [`Zdd::for_each_solution`].
    pub fn solution(&self, mut rank: u128, out: &mut Vec<OptionId>) {
        assert!(rank < self.count(), "a rank below the number of solutions");
        out.clear();
        let mut id = self.zdd.root;
        while id > TOP {
            let n = self.zdd.node(id);
            let hi = self.counts[n.hi as usize];
            if rank < hi {
                out.push(n.option);
                id = n.hi;
            } else {
                rank -= hi;
                id = n.lo;
            }
        }
        debug_assert!(id == TOP && rank == 0);
    }

    /// One solution drawn uniformly, into `out`; false (and `out` empty) when there is none.
    pub fn draw(&self, rng: &mut SplitMix64, out: &mut Vec<OptionId>) -> bool {
        out.clear();
        if self.count() == 0 {
            return false;
        }
        let rank = rng.below_u128(self.count());
        self.solution(rank, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Budget, Problem, ProblemBuilder};
    use crate::models::Model;
    use std::collections::BTreeMap;

    fn unlimited() -> impl FnMut() -> bool {
        || false
    }

    fn build(problem: &Problem) -> Zdd {
        Zdd::build(&mut Solver::new(problem), 1 << 30, &mut unlimited()).unwrap()
    }

    /// A solution as a set: its option indices, sorted.
    fn as_set(s: &[OptionId]) -> Vec<u32> {
        let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
        v.sort_unstable();
        v
    }

    /// Every solution of the plain search, as sets, with how often each was listed.
    fn listed(problem: &Problem) -> BTreeMap<Vec<u32>, u32> {
        let mut all = BTreeMap::new();
        Solver::new(problem).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            *all.entry(as_set(s)).or_insert(0) += 1;
            ControlFlow::Continue(())
        });
        all
    }

    fn paths(zdd: &Zdd) -> BTreeMap<Vec<u32>, u32> {
        let mut all = BTreeMap::new();
        zdd.for_each_solution(|s| {
            *all.entry(as_set(s)).or_insert(0) += 1;
            ControlFlow::Continue(())
        });
        all
    }

    /// A random problem: `primary` primary items, up to 3 secondary ones, options of 1 to 4
    /// items, coloured secondary entries (2 colours) when `colours`.
    fn random_problem(g: &mut SplitMix64, colours: bool) -> Problem {
        let primary = 2 + g.below(6) as usize;
        let secondary = g.below(4) as usize;
        let mut b = ProblemBuilder::new();
        for i in 0..primary {
            b.primary(&format!("p{i}")).unwrap();
        }
        for i in 0..secondary {
            b.secondary(&format!("s{i}")).unwrap();
        }
        let options = 3 + g.below(14) as usize;
        for _ in 0..options {
            let mut spec = Vec::new();
            let first = g.below(primary as u64);
            spec.push(format!("p{first}"));
            for i in 0..primary as u64 {
                if i != first && g.below(4) == 0 {
                    spec.push(format!("p{i}"));
                }
            }
            for i in 0..secondary as u64 {
                if g.below(3) == 0 {
                    spec.push(if colours && g.below(3) != 0 {
                        format!("s{i}:{}", ["A", "B"][g.below(2) as usize])
                    } else {
                        format!("s{i}")
                    });
                }
            }
            b.add_option_named(&spec.join(" "), 0).unwrap();
        }
        b.build().unwrap()
    }

    /// The well-formedness the module documentation promises: ids bottom-up, no HI ⊥, no two
    /// equal nodes.
    fn check_shape(zdd: &Zdd) {
        let mut seen = std::collections::HashSet::new();
        for (id, n) in zdd.nodes() {
            assert!(n.hi < id && n.lo < id, "{id}: {n:?}");
            assert_ne!(n.hi, BOTTOM);
            assert!(seen.insert(n), "{n:?} twice");
        }
        assert!((zdd.root as usize) < zdd.len() + 2);
    }

    #[test]
    fn paths_are_the_solutions_of_random_problems() {
        let mut g = SplitMix64::new(38);
        for round in 0..600 {
            let problem = random_problem(&mut g, round % 2 == 1);
            let zdd = build(&problem);
            check_shape(&zdd);
            let count = Solver::new(&problem).count(&Budget::unlimited());
            assert_eq!(
                zdd.count().unwrap(),
                u128::from(count.stats.solutions()),
                "round {round}"
            );
            let listed = listed(&problem);
            let paths = paths(&zdd);
            assert!(
                paths.values().all(|&k| k == 1),
                "round {round}: a repeated path"
            );
            assert_eq!(paths, listed, "round {round}");
            // Ranks name the paths in order.
            let sampler = Sampler::new(&zdd).unwrap();
            let mut ranked = Vec::new();
            let mut s = Vec::new();
            for r in 0..sampler.count() {
                sampler.solution(r, &mut s);
                ranked.push(s.clone());
            }
            let mut walked = Vec::new();
            zdd.for_each_solution(|s| {
                walked.push(s.to_vec());
                ControlFlow::Continue(())
            });
            assert_eq!(ranked, walked, "round {round}");
        }
    }

    #[test]
    fn counts_agree_with_the_models() {
        use crate::models::{langford::Langford, matchings::Matchings, polyomino};
        let langford = Langford::new(8).unwrap();
        let zdd = build(langford.problem());
        check_shape(&zdd);
        assert_eq!(zdd.count().unwrap(), 300);
        let tiling =
            polyomino::Tiling::pentominoes(polyomino::Board::rectangle(3, 20).unwrap()).unwrap();
        let zdd = build(tiling.problem());
        check_shape(&zdd);
        let plain = Solver::new(tiling.problem()).count(&Budget::unlimited());
        assert_eq!(zdd.count().unwrap(), u128::from(plain.stats.solutions()));
        assert_eq!(paths(&zdd), listed(tiling.problem()));
        // Many solutions, few nodes: perfect matchings of K_12 (11!! = 10395).
        let m = Matchings::new(12).unwrap();
        let zdd = build(m.problem());
        assert_eq!(zdd.count().unwrap(), 10395);
        assert!(zdd.len() < 2000, "{}", zdd.len());
    }

    #[test]
    fn the_empty_completion_and_no_solution() {
        let mut b = ProblemBuilder::new();
        b.primary("a").unwrap();
        b.primary("b").unwrap();
        b.add_option_named("a b", 0).unwrap();
        b.add_option_named("a", 0).unwrap();
        let problem = b.build().unwrap();
        let mut solver = Solver::new(&problem);
        solver.force(OptionId(0)).unwrap();
        let zdd = Zdd::build(&mut solver, 1 << 20, &mut unlimited()).unwrap();
        assert_eq!((zdd.root(), zdd.count().unwrap()), (TOP, 1));
        let mut s = vec![OptionId(0)];
        assert!(
            Sampler::new(&zdd)
                .unwrap()
                .draw(&mut SplitMix64::new(1), &mut s)
        );
        assert!(s.is_empty(), "the empty completion");
        solver.unforce_all();
        solver.force(OptionId(1)).unwrap();
        let zdd = Zdd::build(&mut solver, 1 << 20, &mut unlimited()).unwrap();
        assert_eq!((zdd.root(), zdd.count().unwrap()), (BOTTOM, 0));
        assert_eq!(solver.forced(), vec![OptionId(1)], "the solver as it was");
        let sampler = Sampler::new(&zdd).unwrap();
        let mut s = vec![OptionId(0)];
        assert!(!sampler.draw(&mut SplitMix64::new(1), &mut s));
        assert!(s.is_empty());
    }

    #[test]
    fn a_small_budget_is_refused_and_the_solver_restored() {
        use crate::models::langford::Langford;
        let langford = Langford::new(8).unwrap();
        let mut solver = Solver::new(langford.problem());
        let err = Zdd::build(&mut solver, 4096, &mut unlimited()).unwrap_err();
        assert!(
            matches!(err, ZddError::Memory { budget: 4096, .. }),
            "{err}"
        );
        assert!(solver.forced().is_empty());
        assert_eq!(solver.count(&Budget::unlimited()).stats.solutions(), 300);
        let mut calls = 0;
        let mut stop = || {
            calls += 1;
            true
        };
        let m = crate::models::matchings::Matchings::new(16).unwrap();
        let err = Zdd::build(&mut Solver::new(m.problem()), 1 << 30, &mut stop).unwrap_err();
        assert_eq!(err, ZddError::Stopped);
        assert_eq!(calls, 1);
    }

    /// Counts beyond 2^128 are refused: 2^130 solutions (130 items with two options each,
    /// which the diagram shares down to 260 nodes).
    #[test]
    fn a_count_beyond_128_bits_is_an_error() {
        let mut b = ProblemBuilder::new();
        for i in 0..130 {
            b.primary(&format!("p{i}")).unwrap();
        }
        for i in 0..130 {
            b.add_option_named(&format!("p{i}"), 0).unwrap();
            b.add_option_named(&format!("p{i}"), 0).unwrap();
        }
        let problem = b.build().unwrap();
        let zdd = build(&problem);
        assert_eq!(zdd.len(), 260);
        assert_eq!(zdd.count(), Err(ZddError::Overflow));
        assert!(Sampler::new(&zdd).is_err());
        // 127 items: 2^127 fits.
        let mut b = ProblemBuilder::new();
        for i in 0..127 {
            b.primary(&format!("p{i}")).unwrap();
        }
        for i in 0..127 {
            b.add_option_named(&format!("p{i}"), 0).unwrap();
            b.add_option_named(&format!("p{i}"), 0).unwrap();
        }
        assert_eq!(build(&b.build().unwrap()).count(), Ok(1 << 127));
    }

    /// The 0.999 quantile of the chi-square distribution with `k` degrees of freedom, by
    /// Wilson and Hilferty's cube-root normal approximation: k (1 - 2/(9k) + z √(2/(9k)))³,
    /// z = 3.0902 the normal 0.999 quantile, within 1% of the
    /// table from 10 degrees of freedom up (k = 15: 37.84, the table's 37.70; k = 51:
    /// 87.98, the table's 87.97.)
    fn chi2_999(k: usize) -> f64 {
        let k = k as f64;
        let v = 2.0 / (9.0 * k);
        k * (1.0 - v + 3.090_232 * v.sqrt()).powi(3)
    }

    /// Pearson's statistic of `draws` draws against the uniform distribution over `listed`'s
    /// solutions (every draw must be one of them).
    fn chi2(listed: &BTreeMap<Vec<u32>, u32>, draws: &[Vec<u32>]) -> f64 {
        let mut seen: BTreeMap<&Vec<u32>, u64> = listed.keys().map(|k| (k, 0)).collect();
        for d in draws {
            *seen.get_mut(d).expect("a sample is a solution") += 1;
        }
        let expected = draws.len() as f64 / listed.len() as f64;
        seen.values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum()
    }

    fn samples(zdd: &Zdd, seed: u64, k: usize) -> Vec<Vec<u32>> {
        let sampler = Sampler::new(zdd).unwrap();
        let mut rng = SplitMix64::new(seed);
        let mut s = Vec::new();
        (0..k)
            .map(|_| {
                assert!(sampler.draw(&mut rng, &mut s));
                as_set(&s)
            })
            .collect()
    }

    #[test]
    fn the_quantile_matches_the_table() {
        for (k, table) in [(10, 29.588), (15, 37.697), (51, 87.968)] {
            let q = chi2_999(k);
            assert!((q - table).abs() / table < 0.03, "{k}: {q} against {table}");
        }
    }

    /// Langford pairs of 7 (52 solutions, 51 degrees of freedom): 10,400 draws, 200 expected
    /// per solution.
    #[test]
    fn samples_are_uniform_by_chi_square() {
        let langford = crate::models::langford::Langford::new(7).unwrap();
        let zdd = build(langford.problem());
        let listed = listed(langford.problem());
        assert_eq!(listed.len(), 52);
        let draws = samples(&zdd, 2026, 52 * 200);
        let stat = chi2(&listed, &draws);
        assert!(stat < chi2_999(51), "chi-square {stat} >= {}", chi2_999(51));
    }

    /// A root with two options of very different subtrees: `A p1 p2 p3 p4` alone (1
    /// solution) or `A` then the 15 ways to cover p1..p4 by the other 15 non-empty subsets
    /// (Bell(4)). A sampler choosing uniformly among the options at each node would give the
    /// first solution half the draws instead of one in 16; the test checks that it would be
    /// caught, and that the exact sampler is not.
    #[test]
    fn an_unbalanced_tree_is_sampled_uniformly() {
        let mut b = ProblemBuilder::new();
        for name in ["A", "p1", "p2", "p3", "p4"] {
            b.primary(name).unwrap();
        }
        b.add_option_named("A p1 p2 p3 p4", 0).unwrap();
        b.add_option_named("A", 0).unwrap();
        for mask in 1..16u32 {
            let spec: Vec<String> = (0..4)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| format!("p{}", i + 1))
                .collect();
            b.add_option_named(&spec.join(" "), 0).unwrap();
        }
        let problem = b.build().unwrap();
        let zdd = build(&problem);
        let listed = listed(&problem);
        assert_eq!(listed.len(), 16);
        let draws = samples(&zdd, 7, 16 * 250);
        let stat = chi2(&listed, &draws);
        assert!(stat < chi2_999(15), "chi-square {stat} >= {}", chi2_999(15));
        // The naive sampler: at each sub-problem, each option with a solution below equally
        // likely.
        let mut rng = SplitMix64::new(7);
        let naive: Vec<Vec<u32>> = (0..16 * 250)
            .map(|_| {
                let mut s = Vec::new();
                let mut id = zdd.root();
                while id > TOP {
                    let mut chain = Vec::new();
                    let mut n = id;
                    while n != BOTTOM {
                        chain.push(zdd.node(n));
                        n = zdd.node(n).lo;
                    }
                    let pick = chain[rng.below(chain.len() as u64) as usize];
                    s.push(pick.option);
                    id = pick.hi;
                }
                as_set(&s)
            })
            .collect();
        let naive_stat = chi2(&listed, &naive);
        assert!(
            naive_stat > chi2_999(15),
            "the naive sampler passed: {naive_stat}"
        );
    }

    #[test]
    fn a_seed_gives_the_same_draws() {
        let langford = crate::models::langford::Langford::new(7).unwrap();
        let zdd = build(langford.problem());
        assert_eq!(samples(&zdd, 5, 20), samples(&zdd, 5, 20));
        assert_ne!(samples(&zdd, 5, 20), samples(&zdd, 6, 20));
    }
}
