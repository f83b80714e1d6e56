//! Exact cover with multiplicities (Knuth's Algorithm M, the problem DLX3 solves): a primary
//! item declared `u:v|name` must be covered at least `u` and at most `v` times; ordinary
//! primary items are `1:1`, secondary items are covered at most once or share a colour.
//!
//! # The data structure
//!
//! The links of DLX2 ([`crate::engine::Solver`]), with plain node indices: one array of nodes
//! `{up, down, top, colour}`, item headers `1..=N` (primary items first), spacers between
//! options (`top <= 0`; a spacer's `up` is the first node of the option before it, its `down`
//! the last node of the option after it), and the rings of active primary and secondary items.
//! Each primary item also has a `bound` (how many more options may still cover it) and a
//! `slack` (`v - u`): it still *needs* `bound - slack` options when that is positive.
//!
//! # The search
//!
//! At each node the active primary item `i` of least branching degree `len(i) + 1 -
//! needed(i)` is chosen (leftmost on ties; for `1:1` items this is DLX2's rule). A degree of
//! 0 or less means `i` cannot get the options it needs: the node fails. Otherwise the
//! branches are "the first option of `i`'s list (in list order) that the solution still uses
//! is `x`", for each `x`, and, when `i` needs nothing more, "`i` gets no more options":
//!
//! - If this option is `i`'s last (`bound` reaches 0), `i` is covered as in DLX2 and each
//!   option of its list is tried in turn.
//! - Otherwise `i` stays active: each option tried is *tweaked* out first (taken out of `i`'s
//!   list and hidden from the other lists), so that the branches below it never use it or an
//!   option before it again, and every solution is found once. The tweaks of a level are
//!   undone together, in reverse order, when the level is left.
//!
//! Choosing an option covers its other items: a primary item's bound goes down and the item
//! is covered when it reaches 0; secondary items are covered or purified as in DLX2.
//! Everything is undone in exactly the reverse order.
//!
//! # Parts on threads
//!
//! A node is named by its *path*: at each level above it, the number of the branch taken (the
//! `k`-th option tried, counting those tried in list order, or [`NO_MORE`]). A cut at depth
//! `d` searches the tree above `d` and notes the path of every node at depth `d` without
//! entering it; counting a part follows its path from the root, trying only the branch named
//! at each level (a level whose item stays active still tweaks out, without trying them, the
//! options before the branch, as the whole search would have), and then searches the node's
//! subtree. The parts' nodes and solutions, with the cut's, are the whole search's exactly;
//! the work of following a path is not counted (its nodes, updates and mems are the cut's).

use std::ops::ControlFlow;

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::{OptionId, Problem};
use crate::engine::stats::Stats;

/// Link-level counters of a search.
#[derive(Copy, Clone, Default)]
struct Counters {
    nodes: u64,
    solutions: u64,
    updates: u64,
    mems: u64,
    cleansings: u64,
    max_level: u32,
}

/// Why a search stopped early.
struct Stop(End);

/// A solver for problems with multiplicities (also correct, but slower than
/// [`crate::engine::Solver`], on problems without).
pub struct MultiplicitySolver<'p> {
    problem: &'p Problem,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Header of an option node; length of a header; `<= 0` for a spacer.
    top: Vec<i32>,
    /// Colour of a node (0 none, -1 purified to it), as in DLX2.
    colour: Vec<i32>,
    /// Ring links of the item headers; 0 heads the primary ring, `n + 1` the secondary one.
    prev: Vec<u32>,
    next: Vec<u32>,
    bound: Vec<u32>,
    slack: Vec<u32>,
    primaries: u32,
    /// Option of each node (`u32::MAX` for headers and spacers).
    option_of: Vec<u32>,
    /// The node chosen at each level (0: the level's item got no more options).
    choice: Vec<u32>,
    /// Nodes tweaked out of their item's list, level by level (see the module doc).
    tweaked: Vec<u32>,
    solution: Vec<OptionId>,
    c: Counters,
    /// The branch taken at each level of the current path: the `k`-th option tried, or
    /// [`NO_MORE`] (see "Parts on threads" in the module doc).
    path: Vec<u32>,
    /// Cutting: the depth whose nodes are noted as parts (their paths, into `cuts`), not
    /// entered.
    cut_at: Option<usize>,
    cuts: Vec<Vec<u32>>,
    /// Counting a part: the branches to take down to it (no other is tried above it), and
    /// the counters of the part alone.
    follow: Vec<u32>,
    part: Counters,
}

/// The branch "the level's item gets no more options" in a path.
const NO_MORE: u32 = u32::MAX;

impl<'p> MultiplicitySolver<'p> {
    /// A solver over all options of `problem`, in input order.
    pub fn new(problem: &'p Problem) -> Self {
        let n = problem.item_count();
        let mut header = vec![0u32; n];
        let mut h = 1u32;
        for primary in [true, false] {
            for item in problem
                .items()
                .filter(|&i| problem.is_primary(i) == primary)
            {
                header[item.0 as usize] = h;
                h += 1;
            }
        }
        let primaries = problem.primary_count() as u32;
        let last = n as u32 + 1;
        let mut prev = vec![0u32; n + 2];
        let mut next = vec![0u32; n + 2];
        let mut ring = |head: u32, first: u32, end: u32| {
            let mut p = head;
            for k in first..end {
                next[p as usize] = k;
                prev[k as usize] = p;
                p = k;
            }
            next[p as usize] = head;
            prev[head as usize] = p;
        };
        ring(0, 1, primaries + 1);
        ring(last, primaries + 1, last);
        let mut bound = vec![0u32; n + 2];
        let mut slack = vec![0u32; n + 2];
        for item in problem.items() {
            let (u, v) = problem.bounds(item);
            bound[header[item.0 as usize] as usize] = v;
            slack[header[item.0 as usize] as usize] = v - u;
        }
        let size = n + 2 + problem.entry_count() + problem.option_count();
        let mut s = MultiplicitySolver {
            problem,
            up: (0..=n as u32).collect(),
            down: (0..=n as u32).collect(),
            top: vec![0; n + 1],
            colour: vec![0; n + 1],
            prev,
            next,
            bound,
            slack,
            primaries,
            option_of: vec![u32::MAX; n + 1],
            choice: Vec::new(),
            tweaked: Vec::new(),
            solution: Vec::new(),
            c: Counters::default(),
            path: Vec::new(),
            cut_at: None,
            cuts: Vec::new(),
            follow: Vec::new(),
            part: Counters::default(),
        };
        s.up.reserve(size);
        // The first spacer.
        let mut spacer = s.push(0, 0, 0, 0, u32::MAX);
        for (count, option) in problem.options().enumerate() {
            let first = s.top.len() as u32;
            for e in problem.option_entries(option) {
                let k = header[e.item.0 as usize];
                let x = s.top.len() as u32;
                let last = s.up[k as usize];
                s.push(last, k, k as i32, e.colour.0 as i32, option.0);
                s.down[last as usize] = x;
                s.up[k as usize] = x;
                s.top[k as usize] += 1;
            }
            s.down[spacer as usize] = s.top.len() as u32 - 1;
            spacer = s.push(first, 0, -(count as i32) - 1, 0, u32::MAX);
        }
        s
    }

    fn push(&mut self, up: u32, down: u32, top: i32, colour: i32, option: u32) -> u32 {
        self.up.push(up);
        self.down.push(down);
        self.top.push(top);
        self.colour.push(colour);
        self.option_of.push(option);
        self.top.len() as u32 - 1
    }

    /// Counts all solutions (within the budget).
    pub fn count(&mut self, budget: &Budget) -> Outcome {
        self.search(budget, false, &mut |_: &[OptionId]| {
            ControlFlow::Continue(())
        })
    }

    /// Reports every solution to `sink`, with its options in the order chosen, until the
    /// tree is exhausted, `sink` breaks or the budget runs out.
    pub fn run<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        budget: &Budget,
        sink: &mut S,
    ) -> Outcome {
        self.search(budget, true, sink)
    }

    fn search<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        budget: &Budget,
        wants: bool,
        sink: &mut S,
    ) -> Outcome {
        self.c = Counters::default();
        self.choice.clear();
        self.tweaked.clear();
        let end = match self.level(0, budget, wants, sink) {
            Ok(()) => End::Exhausted,
            Err(Stop(end)) => end,
        };
        Outcome {
            end,
            stats: self.last_stats(),
        }
    }

    /// What the latest search did (each search starts its counters afresh).
    fn last_stats(&self) -> Stats {
        Stats {
            solutions: self.c.solutions,
            nodes: self.c.nodes,
            updates: self.c.updates,
            mems: self.c.mems,
            cleansings: self.c.cleansings,
            max_level: self.c.max_level,
        }
    }

    /// The paths of the nodes at the first depth with at least `want` of them (or the
    /// deepest tried), and what the search above that depth did (its solutions included; the
    /// nodes at the depth itself are the parts').
    fn cut_into(&mut self, want: usize) -> (Vec<Vec<u32>>, Stats, usize) {
        let mut depth = 1;
        loop {
            self.cut_at = Some(depth);
            self.cuts.clear();
            let out = self.count(&Budget::unlimited());
            self.cut_at = None;
            if self.cuts.len() >= want || self.cuts.is_empty() || depth >= MAX_CUT_DEPTH {
                return (std::mem::take(&mut self.cuts), out.stats, depth);
            }
            depth += 1;
        }
    }

    /// Counts the part at the end of `path` (from [`MultiplicitySolver::cut_into`]): its
    /// node and subtree, with the counters of those alone.
    fn count_part(&mut self, path: &[u32], budget: &Budget) -> Outcome {
        self.follow = path.to_vec();
        self.part = Counters::default();
        let out = self.count(budget);
        self.follow.clear();
        self.c = self.part;
        Outcome {
            end: out.end,
            stats: self.last_stats(),
        }
    }

    /// The branch to take at `depth` when counting a part (`None`: every branch).
    fn wanted(&self, depth: usize) -> Option<u32> {
        self.follow.get(depth).copied()
    }

    fn take_branch(&mut self, depth: usize, k: u32) {
        if self.path.len() <= depth {
            self.path.resize(depth + 1, 0);
        }
        self.path[depth] = k;
    }

    /// One node of the search at `depth`: everything it changes is restored before it
    /// returns, also when it stops the search. Cutting, a node at the cut's depth is noted,
    /// not entered; counting a part, the part's node is where its counters start.
    fn level<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        depth: usize,
        budget: &Budget,
        wants: bool,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if self.cut_at == Some(depth) {
            self.cuts.push(self.path[..depth].to_vec());
            return Ok(());
        }
        if !self.follow.is_empty() && depth == self.follow.len() {
            let above = self.c;
            self.c = Counters::default();
            let result = self.node(depth, budget, wants, sink);
            self.part = self.c;
            self.c = above;
            return result;
        }
        self.node(depth, budget, wants, sink)
    }

    /// [`MultiplicitySolver::level`]'s node.
    fn node<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        depth: usize,
        budget: &Budget,
        wants: bool,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if budget.nodes.is_some_and(|n| self.c.nodes >= n) {
            return Err(Stop(End::NodeLimit));
        }
        if budget.mems.is_some_and(|m| self.c.mems >= m) {
            return Err(Stop(End::MemLimit));
        }
        if self.c.nodes & 0x3ff == 0
            && let Some(e) = budget.out_of_time()
        {
            return Err(Stop(e));
        }
        self.c.nodes += 1;
        self.c.max_level = self.c.max_level.max(depth as u32);
        if self.next[0] == 0 {
            return self.found(depth, wants, sink, budget);
        }
        let Some(i) = self.best_item() else {
            return Ok(());
        };
        if self.choice.len() <= depth {
            self.choice.resize(depth + 1, 0);
        }
        let needed_before = self.needed(i);
        self.bound[i as usize] -= 1;
        let mut result = Ok(());
        let want = self.wanted(depth);
        let mut k = 0u32;
        if self.bound[i as usize] == 0 {
            // This is the last option of `i` (or none): cover `i`, try each option.
            self.cover(i);
            let mut x = self.down[i as usize];
            while x != i && result.is_ok() {
                if want.is_none_or(|w| w == k) {
                    self.take_branch(depth, k);
                    result = self.try_option(x, depth, budget, wants, sink);
                }
                x = self.down[x as usize];
                self.c.mems += 1;
                k += 1;
            }
            if result.is_ok() && needed_before == 0 && want.is_none_or(|w| w == NO_MORE) {
                self.take_branch(depth, NO_MORE);
                self.choice[depth] = 0;
                result = self.level(depth + 1, budget, wants, sink);
            }
            self.uncover(i);
        } else {
            // `i` stays active: tweak each option out before trying it.
            let from = self.tweaked.len();
            let after = self.needed(i);
            let mut x = self.down[i as usize];
            while x != i && result.is_ok() {
                // Too few options would be left for what `i` needs after this one.
                if (self.top[i as usize] as u32) < after + 1 {
                    break;
                }
                self.tweak(x, i);
                self.tweaked.push(x);
                if want.is_none_or(|w| w == k) {
                    self.take_branch(depth, k);
                    result = self.try_option(x, depth, budget, wants, sink);
                }
                x = self.down[x as usize];
                self.c.mems += 1;
                k += 1;
            }
            if result.is_ok() && needed_before == 0 && want.is_none_or(|w| w == NO_MORE) {
                self.take_branch(depth, NO_MORE);
                // No more options for `i`: every one is tweaked out; take `i` off the ring.
                let (p, q) = (self.prev[i as usize], self.next[i as usize]);
                self.next[p as usize] = q;
                self.prev[q as usize] = p;
                self.choice[depth] = 0;
                result = self.level(depth + 1, budget, wants, sink);
                self.next[p as usize] = i;
                self.prev[q as usize] = i;
            }
            while self.tweaked.len() > from {
                let x = self.tweaked.pop().expect("tweaked");
                self.untweak(x, i);
            }
        }
        self.bound[i as usize] += 1;
        result
    }

    /// Chooses the option of node `x` at `depth`, searches below, and takes it back.
    fn try_option<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        x: u32,
        depth: usize,
        budget: &Budget,
        wants: bool,
        sink: &mut S,
    ) -> Result<(), Stop> {
        self.choice[depth] = x;
        self.commit_others(x);
        let result = self.level(depth + 1, budget, wants, sink);
        self.uncommit_others(x);
        result
    }

    fn found<S: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        depth: usize,
        wants: bool,
        sink: &mut S,
        budget: &Budget,
    ) -> Result<(), Stop> {
        self.c.solutions += 1;
        if wants {
            self.solution.clear();
            for &x in &self.choice[..depth] {
                if x != 0 {
                    self.solution.push(OptionId(self.option_of[x as usize]));
                }
            }
            if sink(&self.solution).is_break() {
                return Err(Stop(End::Stopped));
            }
        }
        if budget.solutions.is_some_and(|n| self.c.solutions >= n) {
            return Err(Stop(End::SolutionLimit));
        }
        Ok(())
    }

    /// Options `i` still needs: `bound - slack`, or 0.
    fn needed(&self, i: u32) -> u32 {
        self.bound[i as usize].saturating_sub(self.slack[i as usize])
    }

    /// The active primary item of least branching degree, leftmost on ties; `None` if that
    /// degree is 0 or less (the item cannot get what it needs).
    fn best_item(&mut self) -> Option<u32> {
        let mut best = 0;
        let mut degree = i64::MAX;
        let mut k = self.next[0];
        while k != 0 {
            let d = i64::from(self.top[k as usize]) + 1 - i64::from(self.needed(k));
            self.c.mems += 2;
            if d < degree {
                degree = d;
                best = k;
                if d <= 0 {
                    return None;
                }
            }
            k = self.next[k as usize];
        }
        Some(best)
    }

    /// The node after `q` in its option, cyclically (rightwards).
    fn right(&self, q: u32) -> u32 {
        let r = q + 1;
        if self.top[r as usize] <= 0 {
            self.up[r as usize]
        } else {
            r
        }
    }

    /// The node before `q` in its option, cyclically (leftwards).
    fn left(&self, q: u32) -> u32 {
        let l = q - 1;
        if self.top[l as usize] <= 0 {
            self.down[l as usize]
        } else {
            l
        }
    }

    fn unlink(&mut self, q: u32) {
        let (u, d) = (self.up[q as usize], self.down[q as usize]);
        self.down[u as usize] = d;
        self.up[d as usize] = u;
        let t = self.top[q as usize] as usize;
        self.top[t] -= 1;
        self.c.updates += 1;
        self.c.mems += 4;
    }

    fn relink(&mut self, q: u32) {
        let (u, d) = (self.up[q as usize], self.down[q as usize]);
        self.down[u as usize] = q;
        self.up[d as usize] = q;
        let t = self.top[q as usize] as usize;
        self.top[t] += 1;
        self.c.mems += 4;
    }

    /// Takes the option of `x` out of every list but its own item's.
    fn hide(&mut self, x: u32) {
        let mut q = self.right(x);
        while q != x {
            self.c.mems += 1;
            if self.colour[q as usize] >= 0 {
                self.unlink(q);
            }
            q = self.right(q);
        }
    }

    /// Puts back what `hide(x)` took out, in reverse order.
    fn unhide(&mut self, x: u32) {
        let mut q = self.left(x);
        while q != x {
            self.c.mems += 1;
            if self.colour[q as usize] >= 0 {
                self.relink(q);
            }
            q = self.left(q);
        }
    }

    fn cover(&mut self, i: u32) {
        let (p, q) = (self.prev[i as usize], self.next[i as usize]);
        self.next[p as usize] = q;
        self.prev[q as usize] = p;
        self.c.updates += 1;
        let mut x = self.down[i as usize];
        while x != i {
            self.hide(x);
            x = self.down[x as usize];
        }
    }

    fn uncover(&mut self, i: u32) {
        let mut x = self.up[i as usize];
        while x != i {
            self.unhide(x);
            x = self.up[x as usize];
        }
        let (p, q) = (self.prev[i as usize], self.next[i as usize]);
        self.next[p as usize] = i;
        self.prev[q as usize] = i;
    }

    /// Takes option `x` out of the list of `i` (its item) and hides it from the others.
    fn tweak(&mut self, x: u32, i: u32) {
        self.hide(x);
        let d = self.down[x as usize];
        self.down[i as usize] = d;
        self.up[d as usize] = i;
        self.top[i as usize] -= 1;
        self.c.updates += 1;
        self.c.mems += 4;
    }

    /// Undoes `tweak(x, i)`; tweaks are undone last first.
    fn untweak(&mut self, x: u32, i: u32) {
        let d = self.down[x as usize];
        self.up[d as usize] = x;
        self.down[i as usize] = x;
        self.top[i as usize] += 1;
        self.c.mems += 4;
        self.unhide(x);
    }

    /// DLX2's purify: node `p` gives its secondary item its colour.
    fn purify(&mut self, p: u32) {
        let item = self.top[p as usize] as u32;
        let colour = self.colour[p as usize];
        let mut q = self.down[item as usize];
        while q != item {
            if self.colour[q as usize] != colour {
                self.hide(q);
            } else if q != p {
                self.colour[q as usize] = -1;
                self.c.cleansings += 1;
            }
            q = self.down[q as usize];
            self.c.mems += 2;
        }
    }

    fn unpurify(&mut self, p: u32) {
        let item = self.top[p as usize] as u32;
        let colour = self.colour[p as usize];
        let mut q = self.up[item as usize];
        while q != item {
            if self.colour[q as usize] < 0 {
                self.colour[q as usize] = colour;
            } else if q != p {
                self.unhide(q);
            }
            q = self.up[q as usize];
            self.c.mems += 2;
        }
    }

    fn is_primary_header(&self, h: u32) -> bool {
        h <= self.primaries
    }

    /// Covers, purifies or counts down the other items of the option of `x`.
    fn commit_others(&mut self, x: u32) {
        let mut q = self.right(x);
        while q != x {
            let j = self.top[q as usize] as u32;
            if self.is_primary_header(j) {
                self.bound[j as usize] -= 1;
                if self.bound[j as usize] == 0 {
                    self.cover(j);
                }
            } else if self.colour[q as usize] == 0 {
                self.cover(j);
            } else if self.colour[q as usize] > 0 {
                self.purify(q);
            }
            q = self.right(q);
        }
    }

    /// Undoes `commit_others(x)`, right to left.
    fn uncommit_others(&mut self, x: u32) {
        let mut q = self.left(x);
        while q != x {
            let j = self.top[q as usize] as u32;
            if self.is_primary_header(j) {
                if self.bound[j as usize] == 0 {
                    self.uncover(j);
                }
                self.bound[j as usize] += 1;
            } else if self.colour[q as usize] == 0 {
                self.uncover(j);
            } else if self.colour[q as usize] > 0 {
                self.unpurify(q);
            }
            q = self.left(q);
        }
    }

    /// The problem being solved.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }
}

/// The deepest cut tried.
const MAX_CUT_DEPTH: usize = 16;

/// Algorithm M as the door sees it: a count or a listing from the start, and parts of its
/// tree for threads (see "Parts on threads" above); a count stopped half way starts over (it
/// does not resume).
impl super::Search for MultiplicitySolver<'_> {
    type Prefix = Vec<u32>;

    fn count(&mut self, budget: &Budget) -> Outcome {
        MultiplicitySolver::count(self, budget)
    }

    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Outcome {
        self.run(budget, &mut |s: &[OptionId]| sink(s))
    }

    fn cut(&mut self, want: usize) -> super::Cut<Vec<u32>> {
        let (parts, above, depth) = self.cut_into(want);
        super::Cut {
            parts,
            above,
            depth,
        }
    }

    fn count_below(&mut self, path: &Vec<u32>, budget: &Budget) -> Outcome {
        self.count_part(path, budget)
    }
}

impl super::Resumable for MultiplicitySolver<'_> {
    fn fork(&self) -> Self {
        MultiplicitySolver::new(self.problem)
    }

    /// Not estimated (a display only): 0 until the count ends.
    fn progress(&self) -> f64 {
        0.0
    }

    fn nodes(&self) -> u64 {
        self.c.nodes
    }
}
