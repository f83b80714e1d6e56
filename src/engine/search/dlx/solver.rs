//! The dancing-links solver: the [`Solver`] over the links of one problem, its search (plain,
//! or memoised with [`Solver::count_memo`], whose work at a node is `memo_dance.rs`'s), the
//! options forced before a search, and the [`Visitor`] API through which a search is watched,
//! pruned, reordered and steered.
//!
//! # The search
//!
//! Algorithm X (TAOCP 7.2.2.1) with Knuth's exact control flow (`forward`, `advance`, `backup`,
//! `recover`): choose the active primary item of minimum length (leftmost on ties), cover it,
//! try its options in list order; covering an option covers its other items, or purifies
//! coloured ones. Uncovering runs in exactly the reverse order. Node, update and mem counts
//! are those of DLX2 on the same input.
//!
//! A search can start from forced options (sub-problems for threads and clusters), can stop
//! on a [`Budget`], and can be watched and pruned by a [`Visitor`] (the optimising layer).

use std::ops::ControlFlow;

use super::dance::Counters;
use super::links::{Built, Links, ROOT, STEP, cl, nd};
use super::memo_dance::{MEMO_LEAST_OPTIONS, MemoRun, Point, Resume, Suspended};
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::{ItemId, OptionId, Problem};
use crate::engine::stats::Stats;

/// What a [`Solver`] reports to during a search.
///
/// `solution` is called for each solution with its options in the order they were chosen
/// (forced options first). `enter` is called at every node before branching when `PRUNES` is
/// true; returning false prunes the subtree below (it still counts as a node), and `stop`
/// then says whether to end the search altogether. The constants
/// let the count-only and plain paths compile without the work they do not need.
pub trait Visitor {
    /// Whether `solution` needs the options (false: count only).
    const WANTS_SOLUTIONS: bool = true;
    /// Whether `enter` is called.
    const PRUNES: bool = false;
    /// Called at every node before branching (when `PRUNES`); false prunes the node's subtree.
    fn enter(&mut self, _view: &View<'_>) -> bool {
        true
    }
    /// Asked after `enter` returned false: true ends the whole search there and then
    /// (`End::Stopped`), instead of backing up to the next option of the level above. The
    /// covered levels are uncovered in reverse order without trying another option, which
    /// is what a visitor past its deadline wants: cutting every node off instead still
    /// covers and uncovers every remaining option on the way back up. Only visitors that
    /// prune are asked, so the other paths compile without it.
    fn stop(&self) -> bool {
        false
    }
    /// Options to leave out of the subtree of the node just entered (called when `enter` kept
    /// it), appended to `out`. They come back when the search leaves the node. A bound uses
    /// this to drop options that cannot be part of a good enough solution, so that the choice
    /// of the branching item sees the shorter lists. Options that are not active (already
    /// hidden, or listed twice) are ignored.
    fn exclude(&mut self, _view: &View<'_>, _out: &mut Vec<OptionId>) {}
    /// Called for each solution with its options in the order chosen; `Break` stops the search.
    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()>;
    /// Whether `order` is called.
    const ORDERS: bool = false;
    /// The options of the item chosen at the node just entered (and kept), to be put in the
    /// order to try them, in place. By default the order of the lists (the solver's option
    /// order) stands.
    fn order(&mut self, _view: &View<'_>, _options: &mut [OptionId]) {}
    /// Whether `choose` is called.
    const CHOOSES: bool = false;
    /// The item to branch on at the node just entered (and kept), after `exclude`: one of
    /// the view's active primary items (any of them is a valid branching, so the choice
    /// changes the tree, never the solutions), or `None` for the solver's own choice, the
    /// item of minimum length, leftmost on ties (MRV).
    fn choose(&mut self, _view: &View<'_>) -> Option<ItemId> {
        None
    }
}

/// Counts solutions only.
pub struct CountOnly;
impl Visitor for CountOnly {
    const WANTS_SOLUTIONS: bool = false;
    fn solution(&mut self, _: &[OptionId]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Any closure over the chosen options is a visitor.
impl<F: FnMut(&[OptionId]) -> ControlFlow<()>> Visitor for F {
    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        self(options)
    }
}

/// A read-only view of the search state, given to [`Visitor::enter`]: the options chosen so
/// far and what is still active. This is what bounds and heuristics of an optimiser read.
pub struct View<'a> {
    solver: &'a Solver<'a>,
    links: &'a Links,
    level: usize,
}

impl View<'_> {
    /// The options chosen so far, forced ones first.
    pub fn chosen(&self) -> impl Iterator<Item = OptionId> + '_ {
        self.solver
            .forced
            .iter()
            .chain(&self.solver.choice[..self.level])
            .map(|&n| OptionId(self.solver.node_option[(n / STEP) as usize]))
    }
    /// Number of options chosen so far (forced ones included).
    pub fn depth(&self) -> usize {
        self.solver.forced.len() + self.level
    }
    /// The primary items still to be covered, in ring order.
    pub fn active_primary(&self) -> impl Iterator<Item = ItemId> + '_ {
        let cl = &self.links.cl;
        let mut k = cl[ROOT as usize].next;
        std::iter::from_fn(move || {
            if k == ROOT {
                None
            } else {
                let item = self.solver.item_of_header[(k / STEP) as usize];
                k = cl[k as usize].next;
                Some(item)
            }
        })
    }
    /// The active primary item with the fewest options, leftmost on ties: the engine's own
    /// branching choice (MRV), for a visitor that chooses ([`Visitor::choose`]) and wants to
    /// know it. `None` when every primary item is covered.
    pub fn shortest_item(&self) -> Option<ItemId> {
        let mut best: Option<(usize, ItemId)> = None;
        for i in self.active_primary() {
            let len = self.len(i);
            if best.is_none_or(|(l, _)| len < l) {
                best = Some((len, i));
            }
        }
        best.map(|(_, i)| i)
    }
    /// How many options are still available for an active item.
    pub fn len(&self, item: ItemId) -> usize {
        let h = self.solver.header_of_item[item.0 as usize];
        self.links.nd[(h / STEP) as usize].itm as usize
    }
    /// The options still available for an active item, in list order.
    pub fn options(&self, item: ItemId) -> impl Iterator<Item = OptionId> + '_ {
        let h = self.solver.header_of_item[item.0 as usize];
        let nd = &self.links.nd;
        let mut p = nd[(h / STEP) as usize].down;
        std::iter::from_fn(move || {
            if p == h {
                None
            } else {
                let o = OptionId(self.solver.node_option[(p / STEP) as usize]);
                p = nd[(p / STEP) as usize].down;
                Some(o)
            }
        })
    }
    /// The problem being solved.
    pub fn problem(&self) -> &Problem {
        self.solver.problem
    }
}

/// Why an option could not be forced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForceError {
    /// The option is not among the solver's options.
    #[error("option {0} is not in this solver")]
    Unknown(u32),
    /// The option cannot be chosen with the options already forced.
    #[error("option {0} conflicts with the options already forced")]
    Conflict(u32),
}

/// A dancing-links solver for one [`Problem`]. Reusable: every search leaves the structure as
/// it found it (forced options stay forced until [`Solver::unforce_all`]).
pub struct Solver<'p> {
    pub(super) problem: &'p Problem,
    pub(super) links: Links,
    pub(super) has_colours: bool,
    /// Header index of each item.
    pub(super) header_of_item: Vec<u32>,
    /// Item of each header index (index 0 unused).
    pub(super) item_of_header: Vec<ItemId>,
    /// Option of each node (`u32::MAX` for headers and spacers).
    pub(super) node_option: Vec<u32>,
    /// First node of each option, or 0 when the option was left out of this solver.
    pub(super) first_node: Vec<u32>,
    /// First nodes of the forced options, in the order they were forced.
    pub(super) forced: Vec<u32>,
    /// First nodes of the options the visitor excluded, in order, and where each level's
    /// exclusions start in that list (see [`Visitor::exclude`]).
    pub(super) excluded: Vec<u32>,
    pub(super) excluded_from: Vec<usize>,
    /// `reordered[l]`: the nodes of the item chosen at level `l` in their order before the
    /// visitor reordered them (empty if it did not), to be put back before the item is
    /// uncovered (see [`Visitor::order`]).
    pub(super) reordered: Vec<Vec<u32>>,
    /// Scratch for [`Solver::order_item`]: the options as the visitor orders them, the nodes
    /// not matched yet, and the nodes in the new order.
    pub(super) order_scratch: (Vec<OptionId>, Vec<u32>, Vec<u32>),
    /// `choice[l]` is the node chosen at level `l` of the current search.
    pub(super) choice: Vec<u32>,
    /// Scratch for reporting solutions.
    pub(super) solution: Vec<OptionId>,
    pub(super) stats: Stats,
    /// Knuth's exact DLX2 tree (a node for every dead end) instead of the early abort of
    /// [`Links::commit_watched`]; see [`Solver::knuth_tree`].
    pub(super) knuth: bool,
    /// The memoised count's order of branching: empty for the item of fewest options first
    /// (MRV); else each primary item's rank in frontier order, by header (`k / STEP`), and
    /// the open item of least rank is taken after any forced one
    /// ([`Solver::in_frontier_order`]).
    pub(super) frontier: Vec<u32>,
    /// Dead ends the searches of this solver found while committing (see
    /// [`Solver::dead_ends`]).
    pub(super) dead_ends: u64,
    /// The nodes of the current search posted to the budget's progress board (a field rather
    /// than a local of the search loop, where it took a register: 0.65% more instructions
    /// on Langford 10 against 0.4%).
    pub(super) posted: u64,
    /// Where a resumable search stopped ([`Resume`]): set by the search, taken by its caller.
    pub(super) stopped: Option<Point>,
    /// A memoised count stopped to be resumed ([`Solver::count_memo_resumable`]): its levels
    /// are still covered, and no other search may run on this solver.
    pub(super) suspended: Option<Box<Suspended>>,
}

impl<'p> Solver<'p> {
    /// A solver over all options of the problem, in input order.
    pub fn new(problem: &'p Problem) -> Solver<'p> {
        Self::with_options(problem, problem.options())
    }

    /// The solver whose memoised count branches in frontier order: after any item with one
    /// option or none, on the open primary item first in a breadth-first order of the graph
    /// of primary items that share an option, from an end of a longest shortest path
    /// (`frontier_ranks` in `search/frontier.rs`). On a grid the covered cells form a staircase whose edge, the only part of the
    /// board a sub-problem can differ in, stays as narrow as the board: few distinct
    /// sub-problems where the item of fewest options wanders over the board (Knuth's 7×7
    /// mixed tilings: 119,753 nodes against 6,387,659). Only the memoised count's choice
    /// changes; the plain searches keep theirs.
    pub fn in_frontier_order(mut self) -> Self {
        let ranks = crate::engine::search::frontier::frontier_ranks(self.problem);
        let mut frontier = vec![u32::MAX; self.item_of_header.len()];
        for (item, &rank) in ranks.iter().enumerate() {
            let h = self.header_of_item[item] / STEP;
            if (h as usize) < frontier.len() {
                frontier[h as usize] = rank;
            }
        }
        self.frontier = frontier;
        self
    }

    /// Whether the memoised count branches in frontier order ([`Solver::in_frontier_order`]).
    pub fn is_in_frontier_order(&self) -> bool {
        !self.frontier.is_empty()
    }

    /// A solver over the given options only, inserted into the item lists in the order given.
    /// The order is the order in which each item's options are tried; leaving options out
    /// restricts the problem (symmetry breaking, sub-problems). Each option may appear once.
    pub fn with_options(problem: &'p Problem, options: impl IntoIterator<Item = OptionId>) -> Self {
        let Built {
            links,
            header_of_item,
            item_of_header,
            node_option,
            first_node,
        } = Links::build(problem, options);
        Solver {
            problem,
            links,
            has_colours: problem.has_colours(),
            header_of_item,
            item_of_header,
            node_option,
            first_node,
            forced: Vec::new(),
            excluded: Vec::new(),
            excluded_from: Vec::new(),
            reordered: Vec::new(),
            order_scratch: Default::default(),
            choice: Vec::new(),
            solution: Vec::new(),
            stats: Stats::default(),
            knuth: false,
            frontier: Vec::new(),
            dead_ends: 0,
            posted: 0,
            stopped: None,
            suspended: None,
        }
    }

    /// The problem being solved.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// Statistics of all searches run on this solver so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The dead ends all searches of this solver so far cut off while committing an option
    /// (a primary item left without options): on a colour-free problem off Knuth's tree, each
    /// is a node of DLX2's tree that this search did not visit, so `nodes + dead_ends` is
    /// about the size of DLX2's tree for the same work. 0 on Knuth's tree and with colours.
    pub fn dead_ends(&self) -> u64 {
        self.dead_ends
    }

    /// The options forced so far.
    pub fn forced(&self) -> Vec<OptionId> {
        self.forced
            .iter()
            .map(|&n| OptionId(self.node_option[(n / STEP) as usize]))
            .collect()
    }

    /// Forces an option into every solution: its items are covered (or purified) before the
    /// search starts. Used to split a search into sub-problems. The result is the same state
    /// the search reaches when it chooses the same options, whatever the order.
    pub fn force(&mut self, option: OptionId) -> Result<(), ForceError> {
        let first = *self
            .first_node
            .get(option.0 as usize)
            .filter(|&&n| n != 0)
            .ok_or(ForceError::Unknown(option.0))?;
        if !self.is_active(first) {
            return Err(ForceError::Conflict(option.0));
        }
        let mut c = Counters::default();
        // Cover through a primary item of the option, as the search does (covering a coloured
        // secondary item instead of purifying it would remove the options that agree on its
        // colour). Every option has a primary item, and its nodes run from `first` to the
        // next spacer.
        let mut first = first;
        let itm_at = |r: u32| self.links.nd[(r / STEP) as usize].itm;
        while itm_at(first) > 0
            && !self
                .problem
                .is_primary(self.item_of_header[(itm_at(first) as u32 / STEP) as usize])
        {
            first += STEP;
        }
        let item = itm_at(first) as u32;
        if self.has_colours {
            self.links.cover::<true>(item, &mut c);
            self.links.commit_others::<true>(first, &mut c);
        } else {
            self.links.cover::<false>(item, &mut c);
            c.covers += 1;
            self.links.commit_others::<false>(first, &mut c);
        }
        self.forced.push(first);
        Ok(())
    }

    /// Undoes every [`Solver::force`], in reverse order.
    pub fn unforce_all(&mut self) {
        while self.unforce_last().is_some() {}
    }

    /// Undoes the last [`Solver::force`]: the option it forced, or `None` when none is left.
    pub fn unforce_last(&mut self) -> Option<OptionId> {
        let first = self.forced.pop()?;
        let mut c = Counters::default();
        let item = self.links.nd[(first / STEP) as usize].itm as u32;
        if self.has_colours {
            self.links.uncommit_others::<true, false>(first, &mut c);
            self.links.uncover::<true, false>(item, &mut c);
        } else {
            self.links.uncommit_others::<false, false>(first, &mut c);
            self.links.uncover::<false, false>(item, &mut c);
        }
        Some(OptionId(self.node_option[(first / STEP) as usize]))
    }

    // Stepping by hand, for a walk of the tree outside `search` (the ZDD builder,
    // `engine::zdd`): `force` an option, read the state, `unforce_last`.

    /// The state between searches (the forced options, what is still active), read as a
    /// visitor reads a node of the search.
    pub fn state(&self) -> View<'_> {
        self.view(0)
    }

    /// An option is still choosable when every node of it is linked into its item's list and
    /// its items that need covering are still active (a coloured secondary item whose colour
    /// was fixed keeps agreeing options in its list).
    fn is_active(&self, first: u32) -> bool {
        let node_at = |r: u32| self.links.nd[(r / STEP) as usize];
        let mut p = first;
        loop {
            let node = node_at(p);
            if node.itm <= 0 {
                p = node.up;
            } else {
                // Linked iff its neighbours point back at it.
                let linked = node_at(node.up).down == p && node_at(node.down).up == p;
                let h = node.itm as u32;
                let cl = &self.links.cl;
                let in_ring = cl[cl[h as usize].prev as usize].next == h;
                let usable = match node.color {
                    0 => linked && in_ring,
                    c if c > 0 => linked,
                    _ => true, // already purified to this option's colour
                };
                if !usable {
                    return false;
                }
                p += STEP;
            }
            if p == first {
                return true;
            }
        }
    }

    /// Whether the search follows Knuth's DLX2 tree exactly: a search node for every dead end,
    /// so that nodes, updates and mems are DLX2's on the same input. Off by default: a
    /// colour-free search then abandons an option as soon as committing it leaves a primary
    /// item with no option, before the rest of it is covered (Knuth's SSXCC does so too),
    /// which visits fewer nodes on the same solutions in the same order. Coloured problems
    /// always follow DLX2's tree.
    pub fn knuth_tree(&mut self, knuth: bool) -> &mut Self {
        self.knuth = knuth;
        self
    }

    /// Counts all solutions (within the budget).
    pub fn count(&mut self, budget: &Budget) -> Outcome {
        self.run(budget, &mut CountOnly)
    }

    /// The first solution, if any.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        let mut found = None;
        self.run(&Budget::solutions(1), &mut |s: &[OptionId]| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        found
    }

    /// Runs the search, reporting to `visitor`, until the tree is exhausted, the visitor stops
    /// it or the budget runs out. Statistics of this run are in the outcome (and are added to
    /// [`Solver::stats`]).
    pub fn run<V: Visitor>(&mut self, budget: &Budget, visitor: &mut V) -> Outcome {
        let outcome = if self.has_colours {
            self.search::<true, false, false, V>(budget, visitor, None, Resume::No)
        } else if self.knuth {
            self.search::<false, false, false, V>(budget, visitor, None, Resume::No)
        } else {
            self.search::<false, false, true, V>(budget, visitor, None, Resume::No)
        };
        self.stats += outcome.stats;
        outcome
    }

    fn report<V: Visitor>(&mut self, level: usize, visitor: &mut V) -> ControlFlow<()> {
        if !V::WANTS_SOLUTIONS {
            return visitor.solution(&[]);
        }
        self.solution.clear();
        for &n in self.forced.iter().chain(&self.choice[..level]) {
            self.solution
                .push(OptionId(self.node_option[(n / STEP) as usize]));
        }
        let sol = std::mem::take(&mut self.solution);
        let flow = visitor.solution(&sol);
        self.solution = sol;
        flow
    }

    pub(super) fn view(&self, level: usize) -> View<'_> {
        View {
            solver: self,
            links: &self.links,
            level,
        }
    }

    /// Knuth's main loop (DLX2, section "Solve the problem"), with the labels as states.
    /// Unless memoised it posts the nodes it enters to the budget's progress board every
    /// 1,024 nodes and at its end, as the bitset search does, for a progress line.
    pub(super) fn search<const COLOURS: bool, const MEMO: bool, const WATCH: bool, V: Visitor>(
        &mut self,
        budget: &Budget,
        visitor: &mut V,
        mut memo: Option<&mut MemoRun<'_>>,
        from: Resume,
    ) -> Outcome {
        debug_assert!(
            self.suspended.is_none(),
            "a solver with a memoised count stopped to be resumed"
        );
        let mut c = Counters::default();
        let base = self.forced.len() as u32;
        // A resumed search goes on with the counters of the whole count; its outcome is this
        // call's part. Only a memoised count is resumed: the plain searches compile without
        // a word of it (their instruction counts are Knuth's loop's).
        let resumed = match from {
            Resume::At(p) if MEMO => Some(p),
            _ => None,
        };
        let (mut level, mut nodes, mut solutions, mut max_level) = match resumed {
            Some(p) => (p.level, p.nodes, p.solutions, p.max_level),
            None => (0, 0, 0, base),
        };
        let (start_nodes, start_solutions) = (nodes, solutions);
        let resumable = MEMO && !matches!(from, Resume::No);
        let max_solutions = budget.solutions.unwrap_or(u64::MAX);
        let max_nodes = budget.nodes.map_or(u64::MAX, |n| nodes.saturating_add(n));
        let max_mems = budget.mems.unwrap_or(u64::MAX);
        let mut end = End::Exhausted;

        // Every primary item already covered (by forced options, or none declared): the
        // empty completion is the one solution, counted as a node as DLX1 counts solutions.
        if resumed.is_none() && self.links.cl[ROOT as usize].next == ROOT {
            if max_solutions > 0 && max_nodes > 0 {
                nodes = 1;
                solutions = 1;
                if self.report(0, visitor).is_break() {
                    end = End::Stopped;
                }
            } else {
                end = if max_solutions == 0 {
                    End::SolutionLimit
                } else {
                    End::NodeLimit
                };
            }
            return self.finish(c, nodes, solutions, max_level, end);
        }

        // Knuth's labels as structured control flow: `forward` opens a level, `advance` tries
        // the next option of the level's item, `backup` closes a level whose options are all
        // tried, `recover` undoes an option before the next is tried.
        let mut best: u32;
        let mut cur: u32;
        // Room for every level: each covers a primary item, so there are at most as many
        // levels as primary items, plus one for the level that finds a solution.
        let levels = self.problem.primary_count() + 1;
        if self.choice.len() < levels {
            self.choice.resize(levels, 0);
        }
        // Levels 0..depth hold a full cover (item and option) that an early stop must undo.
        let mut depth_to_unwind: usize;
        macro_rules! recover {
            () => {
                if WATCH {
                    self.links.uncommit_watched::<false>(cur, &mut c);
                } else {
                    self.links.uncommit_others::<COLOURS, false>(cur, &mut c);
                }
                cur = nd!(self.links, cur).down;
                c.mems += 2;
                self.choice[level] = cur;
            };
        }
        let mut exclusions: Vec<OptionId> = Vec::new();
        self.posted = 0;
        'forward: loop {
            if nodes >= max_nodes {
                end = End::NodeLimit;
                depth_to_unwind = level;
                break;
            }
            if max_mems != u64::MAX && c.mems_so_far::<COLOURS>() >= max_mems {
                end = End::MemLimit;
                depth_to_unwind = level;
                break;
            }
            // The clock every 1,024 nodes, a memoised search's every 64 (its nodes cost
            // microseconds: a turn of the default's portfolio is ended by it).
            if nodes & if MEMO { 0x3f } else { 0x3ff } == 0 {
                // For a display: the nodes entered since the last post (a memoised search's
                // nodes are of a smaller tree than the one a display estimates: not posted).
                if !MEMO && nodes > self.posted {
                    budget.stop.progress().add_nodes(nodes - self.posted);
                    self.posted = nodes;
                }
                if let Some(e) = budget.out_of_time() {
                    end = e;
                    depth_to_unwind = level;
                    break;
                }
            }
            nodes += 1;
            // A memoised node's key and choice come from one walk of the ring; the memo
            // passes by a node that does not branch (`MEMO_LEAST_OPTIONS`). The choice is
            // made before a visitor's exclusions, so a memoised search takes none.
            debug_assert!(!(MEMO && V::PRUNES), "a memoised search does not prune");
            let mut keyed = ROOT;
            let remembered = MEMO && {
                let run = memo.as_deref_mut().expect("a memo run");
                let (item, len) = if self.frontier.is_empty() {
                    self.links
                        .best_item_keyed::<true>(&mut c, run.key_at(level))
                } else {
                    self.links
                        .frontier_item_keyed(&mut c, run.key_at(level), &self.frontier)
                };
                keyed = item;
                if len < MEMO_LEAST_OPTIONS {
                    run.pass(level);
                    false
                } else {
                    run.enter::<COLOURS>(&self.links, self.problem, level, solutions, nodes)
                }
            };
            if remembered || (V::PRUNES && !visitor.enter(&self.view(level))) {
                if !remembered && visitor.stop() {
                    // The visitor ends the search: nothing is covered at this level, and the
                    // levels above unwind at once, without trying their other options.
                    end = End::Stopped;
                    depth_to_unwind = level;
                    break;
                }
                // Back up without having covered anything at this level.
                if level == 0 {
                    depth_to_unwind = 0;
                    break;
                }
                level -= 1;
                cur = self.choice[level];
                best = nd!(self.links, cur).itm as u32;
                c.mems += 2;
                recover!();
            } else {
                if V::PRUNES {
                    self.exclude_for(level, visitor, &mut exclusions, &mut c);
                }
                best = if MEMO {
                    keyed
                } else if V::CHOOSES {
                    self.chosen_item(level, visitor, &mut c)
                } else {
                    self.links.best_item(&mut c).0
                };
                self.links.cover::<COLOURS>(best, &mut c);
                if !COLOURS {
                    c.covers += 1;
                }
                if V::ORDERS {
                    self.order_item(level, best, visitor);
                }
                cur = nd!(self.links, best).down;
                c.mems += 2;
                self.choice[level] = cur;
            }
            loop {
                // advance
                if cur == best {
                    // backup
                    if V::ORDERS {
                        self.restore_order(level, best);
                    }
                    self.links.uncover::<COLOURS, false>(best, &mut c);
                    if V::PRUNES {
                        self.include_level(level);
                    }
                    if MEMO {
                        let run = memo.as_deref_mut().expect("a memo run");
                        run.leave(level, solutions, nodes);
                    }
                    if level == 0 {
                        depth_to_unwind = 0;
                        break 'forward;
                    }
                    level -= 1;
                    cur = self.choice[level];
                    best = nd!(self.links, cur).itm as u32;
                    c.mems += 2;
                } else {
                    if WATCH {
                        if !self.links.commit_watched(cur, &mut c) {
                            // A dead end found while committing: nothing to undo.
                            c.dead_ends += 1;
                            cur = nd!(self.links, cur).down;
                            c.mems += 2;
                            self.choice[level] = cur;
                            continue;
                        }
                    } else {
                        self.links.commit_others::<COLOURS>(cur, &mut c);
                    }
                    c.mems += 1;
                    if cl!(self.links, ROOT).next != ROOT {
                        level += 1;
                        max_level = max_level.max(base + level as u32);
                        continue 'forward;
                    }
                    nodes += 1;
                    solutions += 1;
                    max_level = max_level.max(base + level as u32 + 1);
                    if self.report(level + 1, visitor).is_break() {
                        end = End::Stopped;
                        depth_to_unwind = level + 1;
                        break 'forward;
                    }
                    if solutions >= max_solutions {
                        end = End::SolutionLimit;
                        depth_to_unwind = level + 1;
                        break 'forward;
                    }
                }
                recover!();
            }
        }
        // A memoised count (no visitor, no solution limit) stops only at the top of a level,
        // by the budget's nodes, mems or clock.
        if resumable && end != End::Exhausted {
            self.stopped = Some(Point {
                level,
                nodes,
                solutions,
                max_level,
            });
            depth_to_unwind = 0;
        }
        // An early stop leaves levels 0..depth covered: undo them, deepest first, so the
        // solver can be used again. Knuth's counts do not include this clean-up.
        let mut undone = Counters::default();
        for l in (0..depth_to_unwind).rev() {
            let cur = self.choice[l];
            let item = self.links.nd[(cur / STEP) as usize].itm as u32;
            if WATCH {
                self.links.uncommit_watched::<true>(cur, &mut undone);
            } else {
                self.links
                    .uncommit_others::<COLOURS, true>(cur, &mut undone);
            }
            if V::ORDERS {
                self.restore_order(l, item);
            }
            self.links.uncover::<COLOURS, true>(item, &mut undone);
            if V::PRUNES {
                self.include_level(l);
            }
        }
        if !COLOURS {
            c.fold_plain(&undone);
        }
        if !MEMO && nodes > self.posted {
            budget.stop.progress().add_nodes(nodes - self.posted);
        }
        self.finish(
            c,
            nodes - start_nodes,
            solutions - start_solutions,
            max_level,
            end,
        )
    }

    /// The header of the item to branch on at `level`: the visitor's choice
    /// ([`Visitor::choose`]), or the item of minimum length when it leaves it to the solver.
    fn chosen_item<V: Visitor>(&mut self, level: usize, visitor: &mut V, c: &mut Counters) -> u32 {
        let Some(item) = visitor.choose(&self.view(level)) else {
            return self.links.best_item(c).0;
        };
        let h = self
            .header_of_item
            .get(item.0 as usize)
            .copied()
            .filter(|&h| {
                self.problem.is_primary(item) && {
                    let cl = &self.links.cl;
                    cl[cl[h as usize].prev as usize].next == h
                }
            });
        // Covering an item that is not in the ring would corrupt the links.
        h.expect("Visitor::choose must name an active primary item")
    }

    /// Lets the visitor reorder the list of `item`, just covered at `level` (a covered item's
    /// list is not touched by the levels below it); the old order is kept for
    /// [`Solver::restore_order`], since uncovering must walk the list in the exact reverse of
    /// the order in which covering hid its options.
    fn order_item<V: Visitor>(&mut self, level: usize, item: u32, visitor: &mut V) {
        if self.reordered.len() <= level {
            self.reordered.resize_with(level + 1, Vec::new);
        }
        let mut nodes = std::mem::take(&mut self.reordered[level]);
        nodes.clear();
        let mut p = self.links.nd[(item / STEP) as usize].down;
        while p != item {
            nodes.push(p);
            p = self.links.nd[(p / STEP) as usize].down;
        }
        if nodes.len() > 1 {
            let (mut options, mut pool, mut order) = std::mem::take(&mut self.order_scratch);
            options.clear();
            options.extend(
                nodes
                    .iter()
                    .map(|&p| OptionId(self.node_option[(p / STEP) as usize])),
            );
            visitor.order(&self.view(level), &mut options);
            // Each node is taken once, so the new order is a permutation of the old.
            pool.clear();
            pool.extend_from_slice(&nodes);
            order.clear();
            for o in &options {
                let i = pool
                    .iter()
                    .position(|&p| self.node_option[(p / STEP) as usize] == o.0)
                    .expect("Visitor::order must permute the options it is given");
                order.push(pool.swap_remove(i));
            }
            let changed = order != nodes;
            if changed {
                self.links.relink(item, &order);
            }
            self.order_scratch = (options, pool, order);
            if changed {
                self.reordered[level] = nodes;
                return;
            }
        }
        nodes.clear();
        self.reordered[level] = nodes;
    }

    /// Puts the list of `item`, chosen at `level`, back in the order [`Solver::order_item`]
    /// found it in.
    fn restore_order(&mut self, level: usize, item: u32) {
        if let Some(nodes) = self.reordered.get_mut(level)
            && !nodes.is_empty()
        {
            self.links.relink(item, nodes);
            nodes.clear();
        }
    }

    /// Asks the visitor which options to exclude below the node at `level` and takes them
    /// out. Each removed node counts as an update (and 4 mems), as in `hide`.
    fn exclude_for<V: Visitor>(
        &mut self,
        level: usize,
        visitor: &mut V,
        out: &mut Vec<OptionId>,
        c: &mut Counters,
    ) {
        if self.excluded_from.len() <= level {
            self.excluded_from.resize(level + 1, 0);
        }
        self.excluded_from[level] = self.excluded.len();
        out.clear();
        visitor.exclude(&self.view(level), out);
        for o in out.iter() {
            let first = self.first_node.get(o.0 as usize).copied().unwrap_or(0);
            if first != 0 && self.is_active(first) {
                let removed = self.links.exclude(first);
                c.updates += removed;
                c.mems += 4 * removed;
                self.excluded.push(first);
            }
        }
    }

    /// Takes the active ones of `options` out of their lists before a search (for
    /// `run_subproblem_without`); returns how many, for `include_options`.
    pub(crate) fn exclude_options(&mut self, options: &[OptionId]) -> usize {
        let from = self.excluded.len();
        for o in options {
            let first = self.first_node.get(o.0 as usize).copied().unwrap_or(0);
            if first != 0 && self.is_active(first) {
                self.links.exclude(first);
                self.excluded.push(first);
            }
        }
        self.excluded.len() - from
    }

    /// Puts back the last `count` options taken out by `exclude_options`.
    pub(crate) fn include_options(&mut self, count: usize) {
        for _ in 0..count {
            let first = self.excluded.pop().expect("excluded before");
            self.links.include(first);
        }
    }

    /// Puts back the options excluded at `level` (the node is being left).
    fn include_level(&mut self, level: usize) {
        let from = self.excluded_from.get(level).copied().unwrap_or(usize::MAX);
        while self.excluded.len() > from {
            let first = self.excluded.pop().expect("nonempty");
            self.links.include(first);
        }
    }

    fn finish(
        &mut self,
        c: Counters,
        nodes: u64,
        solutions: u64,
        max_level: u32,
        end: End,
    ) -> Outcome {
        self.dead_ends += c.dead_ends;
        Outcome {
            end,
            stats: Stats {
                solutions,
                nodes,
                updates: c.updates,
                mems: c.mems,
                cleansings: c.cleansings,
                max_level,
            },
        }
    }
}
