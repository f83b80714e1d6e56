//! A sparse-set ("dancing cells") search for exact cover with colours, in the manner of
//! Knuth's SSXCC: the same rules, hence the same search tree and node count, with its own
//! data layout.
//!
//! # The data structures
//!
//! Nothing is linked. Four flat arrays of `u32` hold everything the search changes.
//!
//! * **`set`**: one block per item. An item is named by the index `x` of its block, and the
//!   four words before the block are its bookkeeping: `set[x-1]` is the number of its options
//!   still present (`size`), `set[x-2]` its position in the active list (`pos`), `set[x-3]`
//!   its position in the primary list (`ppos`, primary items only) and `set[x-4]` the epoch
//!   in which its size was last saved on the trail (`stamp`, secondary items only). The block
//!   itself, `set[x..x+len]`, holds the nodes (see `nd`) of every option that contains the
//!   item, the present ones first: `set[x..x+size]` *is* the item's set of present options.
//!   Removing an option from an item swaps it with the last present one and decreases
//!   `size`; to put options back it suffices to restore `size`, because removed entries are
//!   only ever swapped with other entries of the same block. Primary items have the lower
//!   blocks, in declaration order, then the secondary items, so `x < second` tells a primary
//!   item, and comparing blocks compares declaration order. The bookkeeping sits next to
//!   the first entries: reading an item's `pos` and `size` touches one cache line.
//! * **`item`**, the active list: `item[0..active]` are the items still to be dealt with
//!   (primary items not covered, secondary items neither purified nor taken), and `pos` is
//!   the inverse permutation. An item leaves by a swap with `item[active-1]`. While an option
//!   is being tried, its items sit at positions `active..oactive`, so a secondary item
//!   purified at an earlier level is recognised by `pos >= oactive`.
//! * **`prim`**, the primary list: the active primary items alone, kept the same way
//!   (`prim[0..pactive]`, inverse `ppos`), so that choosing the branching item and saving
//!   sizes never walk past the secondary items (word squares have 256 of them and 8
//!   primary ones).
//! * **`nd`**, the nodes: the options one after the other, one 8-byte node `{itm, loc}` per
//!   item, with a spacer node after each option. `itm` is the item's block index and never
//!   changes; `loc` is where the node now sits in that block (`set[loc] = node` always). A
//!   spacer's `itm` is [`SPACER`] plus the length of the option before it, so walking an
//!   option cyclically from any of its nodes steps from the spacer back to its first node;
//!   the spacer's `loc` is that option's [`OptionId`]. The colours are apart, in `clr`, read
//!   only when a secondary item is purified.
//!
//! Undoing is restoring sizes. Before a branching item's options are tried, the sizes of
//! the active primary items go on a save stack (`savestack`, with the active counts in
//! `levels`); a secondary item's size goes on a `trail` the first time it changes in an
//! *epoch* (one per option tried at a branching node), which its `stamp` tells. Trying the
//! next option restores the saved sizes and pops the trail back to the level's mark. A
//! forced move saves nothing, since there is no next option to try. Knuth's SSXCC saves the
//! size of every active item instead; the trail touches only the secondary items that
//! changed, few on the coloured problems.
//!
//! # The rules (SSXCC's)
//!
//! At each node: if an item is known to have one option left (the force stack), take that
//! option (a *forced move*); otherwise scan the active primary items for the fewest options,
//! leftmost on ties, and push every item with one option on the force stack (then take one).
//! No primary item left: a solution. The chosen item leaves the active list and its options
//! leave the sets of the other items (`hide`). Trying an option: its other items leave the
//! active list; each primary one hides its remaining options, each secondary one not yet
//! purified hides the options that give it another colour (all others, if the option gives
//! it none). While hiding, an active primary item left with no option abandons the option at
//! once (a *wipe-out*, no node), and one left with a single option goes on the force stack.
//!
//! A node is counted at each entry to a level: branching nodes, forced moves and solutions
//! alike, as SSXCC counts `nodes`; an option abandoned by a wipe-out is no node. On Knuth's
//! instances the count equals SSXCC's (see the tests).
//!
//! The order of the forced moves matters for the node count (a wipe-out may be found one
//! forced move sooner or later), so this engine keeps SSXCC's orders exactly: the same swaps
//! in every set and in the active list, hence the same order of options in each set and of
//! the items pushed on the force stack; items with one option found by the scan of the
//! primary list are pushed in the order of their positions in the active list, as SSXCC's
//! scan of that list pushes them. Its updates (removals from sets and swaps out of the
//! active list) equal SSXCC's too; its mems are counted per event at SSXCC's rates, roughly.
//!
//! A count stopped by its budget of nodes, mems or time at the entry to a node keeps the
//! arrays as they are and the search's own variables in `paused`; [`Cells::resume`] goes on
//! from there, and [`Cells::progress`] is Knuth's estimate of the fraction of the tree done
//! from the choices on the path (the portfolio's plain search, when this one wins the race
//! against the bitset search: `run/mod.rs`).
//!
//! # Parts
//!
//! The tree is cut for threads (`run/threads.rs`) as the bitset search cuts its own:
//! [`Cells::prefixes`] searches the levels above a depth and notes each node at that depth
//! by its *prefix*, the options taken on the way to it (a forced move is a level like any
//! other); [`Cells::count_below`] takes a prefix's options from the root as the search tries
//! them, then counts that node and its subtree with the prefix's depth as its floor, so that
//! it stops, resumes and estimates its progress as a whole count does. A prefix cut by the
//! bitset search names a node of another tree (the two choose other items at forced moves
//! and, with colours, the bitset search looks one step ahead): its options are taken all
//! the same, each by one of its primary items, and the part counts the solutions that
//! contain them. The nodes of the parts and above the cut are the whole count's but for a
//! few: backing up restores the sizes of the sets and not the order of their entries nor
//! of the active list, so the whole search may take the forced moves of a part's node in
//! another order than the part's search, which starts from its prefix taken afresh
//! (8-queens cut at depth 1: 858 nodes against 857; the counts are the same). The searches
//! forked for threads share the arrays as built (`Arc`) and allocate only those they change
//! and a copy of the colours.
//!
//! Multiplicities (`u:v` primary items) are not handled: [`Cells::new`] refuses them. Costs
//! are ignored (every exact cover is a solution, whatever it costs).

use std::ops::ControlFlow;
use std::sync::Arc;

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::{OptionId, Problem};
use crate::engine::stats::Stats;

/// A spacer's `itm` is this plus the length of the option before it.
pub const SPACER: u32 = 1 << 31;

/// The words of bookkeeping before each item's block in `set` (`stamp`, `ppos`, `pos`,
/// `size`).
const EXTRA: u32 = 4;

/// One node: an item of an option, or a spacer.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct Node {
    /// The item's block in `set`; for a spacer, [`SPACER`] + the option's length.
    itm: u32,
    /// Where the node sits in its item's block; for a spacer, the option's id.
    loc: u32,
}

/// What a branching level saved: the active counts after its item left, where its primary
/// sizes begin on the save stack, and the trail's length then.
#[derive(Copy, Clone, Debug, Default)]
struct Saved {
    active: u32,
    pactive: u32,
    save: u32,
    trail: u32,
}

/// The arrays as built, which no search changes (see [`Cells`]), and the colours.
struct Built {
    set0: Arc<[u32]>,
    nd0: Arc<[Node]>,
    item0: Arc<[u32]>,
    prim0: Arc<[u32]>,
    start: Arc<[u32]>,
    clr: Vec<u32>,
}

/// Why a problem cannot be searched by [`Cells`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CellsError {
    /// Some primary item has a multiplicity other than `1:1`.
    #[error("the sparse-set engine does not handle multiplicities (u:v items)")]
    Multiplicities,
    /// The problem is too large for 31-bit indices.
    #[error("problem too large for the sparse-set engine")]
    TooLarge,
}

/// Counters of the search's events, turned into Knuth's statistics at the end.
#[derive(Copy, Clone, Debug, Default)]
struct Counters {
    /// Entries removed from a set (an update; nine mems: the node, `pos`, `size`, the last
    /// entry, and the five writes).
    removals: u64,
    /// Items swapped out of the active list (an update; five mems).
    swaps: u64,
    /// Options looked at in a hidden item's set (one mem; two when a colour is compared).
    scanned: u64,
    /// Items looked at when choosing the branching item (two mems).
    scans: u64,
    /// Sizes saved (three mems each) and restored (two mems each).
    saves: u64,
    restores: u64,
}

impl Counters {
    fn mems(&self) -> u64 {
        9 * self.removals
            + 5 * self.swaps
            + self.scanned
            + 2 * self.scans
            + 3 * self.saves
            + 2 * self.restores
    }
    fn updates(&self) -> u64 {
        self.removals + self.swaps
    }
}

/// The sparse-set search for one [`Problem`]. Reusable: each search starts from the state
/// the constructor built.
///
/// The arrays as built are never changed and are shared (`Arc`) with the searches that
/// `Resumable::fork` makes for threads, so that a fork allocates
/// only the arrays it changes and the colours (`clr`).
pub struct Cells<'p> {
    problem: &'p Problem,
    /// The item blocks as built (see the module documentation); copied into `set` per run.
    set0: Arc<[u32]>,
    /// The nodes as built; copied into `nd` per run.
    nd0: Arc<[Node]>,
    /// The active list as built.
    item0: Arc<[u32]>,
    /// The primary list as built.
    prim0: Arc<[u32]>,
    /// `start[o]`: the first node of option `o`, to find an option of a prefix.
    start: Arc<[u32]>,
    set: Vec<u32>,
    nd: Vec<Node>,
    item: Vec<u32>,
    /// The active primary items, in an order of their own (`ppos` is the inverse).
    prim: Vec<u32>,
    /// The colour of each node (0: none), for secondary items. Never changed either, but a
    /// fork copies it rather than sharing it: read in the inner loops, through an `Arc` it
    /// took 5% more instructions on edge matching (6x6, 7 colours).
    clr: Vec<u32>,
    /// Blocks at or past this index belong to secondary items.
    second: u32,
    /// Whether some option gives some item a colour.
    coloured: bool,
    /// Some primary item has no option at all: there is nothing to search.
    hopeless: bool,
    /// Items known to have one option left (possibly stale: check they are still active).
    force: Vec<u32>,
    /// `choice[l]`: the node chosen at level `l`.
    choice: Vec<u32>,
    /// `levels[l]`: what branching level `l` saved before trying its options.
    levels: Vec<Saved>,
    /// (item, size) pairs of the active primary items, saved by each branching level.
    savestack: Vec<(u32, u32)>,
    /// (item, size) pairs of secondary items, saved when first changed in an epoch.
    trail: Vec<(u32, u32)>,
    /// Scratch for reporting a solution.
    solution: Vec<OptionId>,
    stats: Stats,
    /// Where a count stopped by its budget of nodes, mems or time stands, to resume from
    /// ([`Cells::resume`]); `None` when the next search starts from the root.
    paused: Option<Paused>,
    /// The statistics of the current count so far, over its resumptions.
    counted: Stats,
    /// The current count has ended (its tree is searched).
    done: bool,
    /// The level at which [`Cells::prefixes`] notes the nodes as parts instead of entering
    /// them (`usize::MAX`: none), and the options of those noted, one prefix after the other.
    cut: usize,
    found: Vec<u32>,
}

/// The search's own variables at the entry to a node, all that a count stopped there needs
/// besides the arrays to go on (the force stack is in the arrays).
#[derive(Copy, Clone, Debug)]
struct Paused {
    active: u32,
    pactive: u32,
    epoch: u32,
    level: usize,
    saveptr: u32,
    /// The level the count started at: a part's node ([`Cells::count_below`]), 0 for the
    /// root. Backing up past it ends the count.
    floor: usize,
}

/// Reads `$v[$i]` without a bounds check. Every index the search forms is a block index,
/// a node index or a position below the length fixed at construction (the invariants
/// `set[nd[y].loc] = y`, `item[pos(x)] = x`); `debug_assert!` checks each access.
macro_rules! at {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len());
        // SAFETY: see the macro's comment: the index is below the array's fixed length.
        unsafe { *$v.get_unchecked(i) }
    }};
}

/// Writes `$v[$i] = $x` without a bounds check (as [`at`]).
macro_rules! put {
    ($v:expr, $i:expr, $x:expr) => {{
        let i = $i as usize;
        let x = $x;
        debug_assert!(i < $v.len());
        // SAFETY: as for `at!`.
        unsafe { *$v.get_unchecked_mut(i) = x }
    }};
}

impl<'p> Cells<'p> {
    /// The engine for `problem`: primary items must be covered exactly once, secondary items
    /// at most once or all with one colour. Refuses multiplicities; ignores costs.
    pub fn new(problem: &'p Problem) -> Result<Cells<'p>, CellsError> {
        if problem.has_multiplicities() {
            return Err(CellsError::Multiplicities);
        }
        let n = problem.item_count();
        let total = problem.entry_count() as u64 + problem.option_count() as u64 + 1;
        if total + (EXTRA as u64 + 1) * n as u64 >= u64::from(SPACER) {
            return Err(CellsError::TooLarge);
        }
        // How many options contain each item.
        let mut len = vec![0u32; n];
        for o in problem.options() {
            for e in problem.option_entries(o) {
                len[e.item.0 as usize] += 1;
            }
        }
        // Blocks: primary items first, then secondary, each in declaration order.
        let mut block = vec![0u32; n];
        let mut item0 = Vec::with_capacity(n);
        let mut next = EXTRA;
        let mut second = 0;
        for pass in [true, false] {
            if !pass {
                second = next;
            }
            for i in problem.items() {
                if problem.is_primary(i) == pass {
                    block[i.0 as usize] = next;
                    item0.push(next);
                    next += len[i.0 as usize] + EXTRA;
                }
            }
        }
        let mut set0 = vec![0u32; next as usize];
        for (k, &x) in item0.iter().enumerate() {
            set0[x as usize - 2] = k as u32;
            if x < second {
                set0[x as usize - 3] = k as u32;
            }
        }
        let prim0: Vec<u32> = item0.iter().copied().filter(|&x| x < second).collect();
        let mut hopeless = false;
        for i in problem.items() {
            if problem.is_primary(i) && len[i.0 as usize] == 0 {
                hopeless = true;
            }
        }
        // Nodes: a spacer, then each option followed by a spacer.
        let mut nd0 = Vec::with_capacity(total as usize);
        let mut start = Vec::with_capacity(problem.option_count());
        let mut clr = Vec::with_capacity(total as usize);
        nd0.push(Node {
            itm: SPACER,
            loc: u32::MAX,
        });
        clr.push(0);
        let mut coloured = false;
        for o in problem.options() {
            let entries = problem.option_entries(o);
            start.push(nd0.len() as u32);
            for e in entries {
                let x = block[e.item.0 as usize];
                let size = &mut set0[x as usize - 1];
                let loc = x + *size;
                *size += 1;
                let y = nd0.len() as u32;
                set0[loc as usize] = y;
                nd0.push(Node { itm: x, loc });
                clr.push(e.colour.0);
                coloured |= !e.colour.is_none();
            }
            nd0.push(Node {
                itm: SPACER + entries.len() as u32,
                loc: o.0,
            });
            clr.push(0);
        }
        Ok(Cells::on(
            problem,
            Built {
                set0: set0.into(),
                nd0: nd0.into(),
                item0: item0.into(),
                prim0: prim0.into(),
                start: start.into(),
                clr,
            },
            second,
            coloured,
            hopeless,
        ))
    }

    /// A search at the root on arrays built for `problem` (by [`Cells::new`], or shared with
    /// another search of the same problem).
    fn on(
        problem: &'p Problem,
        b: Built,
        second: u32,
        coloured: bool,
        hopeless: bool,
    ) -> Cells<'p> {
        let levels = problem.primary_count() + 2;
        Cells {
            problem,
            set: b.set0.to_vec(),
            nd: b.nd0.to_vec(),
            item: b.item0.to_vec(),
            prim: b.prim0.to_vec(),
            force: Vec::with_capacity(b.item0.len()),
            prim0: b.prim0,
            set0: b.set0,
            nd0: b.nd0,
            item0: b.item0,
            start: b.start,
            clr: b.clr,
            second,
            coloured,
            hopeless,
            choice: vec![0; levels],
            levels: vec![Saved::default(); levels],
            savestack: Vec::new(),
            trail: Vec::new(),
            solution: Vec::with_capacity(levels),
            stats: Stats::default(),
            paused: None,
            counted: Stats::default(),
            done: false,
            cut: usize::MAX,
            found: Vec::new(),
        }
    }

    /// Another search of the same problem, at the root, sharing the arrays as built.
    fn sibling(&self) -> Cells<'p> {
        let b = Built {
            set0: Arc::clone(&self.set0),
            nd0: Arc::clone(&self.nd0),
            item0: Arc::clone(&self.item0),
            prim0: Arc::clone(&self.prim0),
            start: Arc::clone(&self.start),
            clr: self.clr.clone(),
        };
        Cells::on(self.problem, b, self.second, self.coloured, self.hopeless)
    }

    /// The problem searched.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// The statistics of all searches so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Counts all solutions (within the budget).
    pub fn count(&mut self, budget: &Budget) -> Outcome {
        self.paused = None;
        self.resume(budget)
    }

    /// Goes on with the count where its budget of nodes, mems or time stopped it (from the
    /// root if it ended or none began), within `budget`, whose node limit is on the whole
    /// count so far. The outcome's statistics are the whole count's.
    pub(crate) fn resume(&mut self, budget: &Budget) -> Outcome {
        if self.paused.is_none() {
            self.counted = Stats::default();
        }
        let budget = &Budget {
            nodes: budget.nodes.map(|n| n.saturating_sub(self.counted.nodes)),
            ..budget.clone()
        };
        let outcome = if self.coloured {
            self.search::<true, false, false, _>(budget, &mut |_: &[OptionId]| {
                ControlFlow::Continue(())
            })
        } else {
            self.search::<false, false, false, _>(budget, &mut |_: &[OptionId]| {
                ControlFlow::Continue(())
            })
        };
        self.stats += outcome.stats;
        self.counted += outcome.stats;
        Outcome {
            end: outcome.end,
            stats: self.counted,
        }
    }

    /// Knuth's estimate of the fraction of the tree a count stopped by its budget has
    /// searched (1 once it ended): at each level on the path, the options of its item tried
    /// before the one in hand, divided by the product of the options of the levels down to
    /// it (a forced move: one option). For a part ([`Cells::count_below`]), the levels from
    /// the part's node down: the fraction of the part.
    pub(crate) fn progress(&self) -> f64 {
        if self.done {
            return 1.0;
        }
        let Some(at) = self.paused else {
            return 0.0;
        };
        let (mut fraction, mut scale) = (0.0, 1.0);
        for l in at.floor..at.level {
            // The branching item left the active list before its options were tried, so
            // its block keeps its size while it is on the path.
            let Node { itm, loc } = self.nd[self.choice[l] as usize];
            let options = self.set[itm as usize - 1].max(1);
            scale /= f64::from(options);
            fraction += f64::from(loc - itm) * scale;
        }
        fraction.clamp(0.0, 1.0)
    }

    /// Runs the search, giving each solution to `sink` as the problem's option ids in the
    /// order chosen (forced moves included), until the tree is exhausted, `sink` breaks or the
    /// budget runs out.
    pub fn run<F: FnMut(&[OptionId]) -> ControlFlow<()>>(
        &mut self,
        budget: &Budget,
        mut sink: F,
    ) -> Outcome {
        self.paused = None;
        let outcome = if self.coloured {
            self.search::<true, true, false, _>(budget, &mut sink)
        } else {
            self.search::<false, true, false, _>(budget, &mut sink)
        };
        self.stats += outcome.stats;
        outcome
    }

    /// The first solution, if any.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        let mut found = None;
        self.run(&Budget::solutions(1), |s: &[OptionId]| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        found
    }

    /// The option whose node is `y`: the id kept in the spacer after it.
    fn option_of(&self, mut y: u32) -> OptionId {
        while self.nd[y as usize].itm < SPACER {
            y += 1;
        }
        OptionId(self.nd[y as usize].loc)
    }

    /// Removes the options in `c`'s set, except those that give `c` the colour `colour`
    /// (none except if `colour` is 0), from the sets of their other items that are still
    /// active before the option being tried (`pos < oactive`). With `CHECK`, an active
    /// primary item (`pos < active`) left with one option goes on the force stack, and one
    /// left with none returns false at once (the state is then half-updated: the caller
    /// restores sizes). A secondary item whose size changes for the first time under `epoch`
    /// has its old size put on the trail.
    #[inline(always)]
    fn hide<const CHECK: bool, const COLOURS: bool>(
        &mut self,
        c: u32,
        colour: u32,
        oactive: u32,
        active: u32,
        epoch: u32,
        k: &mut Counters,
    ) -> bool {
        let second = self.second;
        let set = self.set.as_mut_ptr();
        let nd = self.nd.as_mut_ptr();
        // The colours' address in a local rather than read through `self` after the stores
        // below.
        let clr = self.clr.as_ptr();
        let end = c + at!(self.set, c - 1);
        k.scanned += u64::from(end - c);
        let mut rr = c;
        while rr < end {
            let tt = at!(self.set, rr);
            rr += 1;
            debug_assert!((tt as usize) < self.clr.len());
            // SAFETY: `tt` is a node of `c`'s block, below `clr.len()` (the nodes' count).
            if COLOURS && colour != 0 && unsafe { *clr.add(tt as usize) } == colour {
                continue;
            }
            // Remove option `tt` from the other sets it is in.
            let mut nn = tt + 1;
            while nn != tt {
                debug_assert!((nn as usize) < self.nd.len());
                // SAFETY: `nn` walks the nodes of option `tt`, all below `nd.len()`; every
                // block index `uu` has its four header words before it and its entries
                // `uu..uu+len` inside `set`; `nnp` is a node index taken from `set`.
                unsafe {
                    let Node { itm: uu, loc: vv } = *nd.add(nn as usize);
                    if uu >= SPACER {
                        nn -= uu - SPACER;
                        continue;
                    }
                    let h = set.add(uu as usize);
                    debug_assert!(uu >= EXTRA && (uu as usize) < self.set.len());
                    let p = *h.sub(2);
                    if p < oactive {
                        let sz = *h.sub(1);
                        let ss = sz - 1;
                        if uu < second {
                            if CHECK && ss <= 1 && p < active {
                                if ss == 0 {
                                    return false;
                                }
                                self.force.push(uu);
                            }
                        } else if *h.sub(4) != epoch {
                            *h.sub(4) = epoch;
                            self.trail.push((uu, sz));
                        }
                        let nnp = *h.add(ss as usize);
                        *h.sub(1) = ss;
                        *h.add(ss as usize) = nn;
                        *set.add(vv as usize) = nnp;
                        (*nd.add(nn as usize)).loc = uu + ss;
                        (*nd.add(nnp as usize)).loc = vv;
                        k.removals += 1;
                    }
                }
                nn += 1;
            }
        }
        true
    }

    /// Swaps item `x` out of the active list, to position `p` (the new `active` count or
    /// below it); `p` must be at least `x`'s position. A primary item leaves the primary
    /// list as well (`pactive` decreases).
    #[inline(always)]
    fn swap_out(&mut self, x: u32, p: u32, pactive: &mut u32, k: &mut Counters) {
        let pp = at!(self.set, x - 2);
        let cc = at!(self.item, p);
        put!(self.item, p, x);
        put!(self.item, pp, cc);
        put!(self.set, cc - 2, pp);
        put!(self.set, x - 2, p);
        if x < self.second {
            *pactive -= 1;
            let q = *pactive;
            let qq = at!(self.set, x - 3);
            let dd = at!(self.prim, q);
            put!(self.prim, q, x);
            put!(self.prim, qq, dd);
            put!(self.set, dd - 3, qq);
            put!(self.set, x - 3, q);
        }
        k.swaps += 1;
    }

    /// Takes the option at node `node` of the branching item's block: its other items leave
    /// the active list (`active` decreases), and each hides the options it excludes. False
    /// when that wipes out an active primary item (the state is then half-updated).
    #[inline(always)]
    fn commit<const COLOURS: bool>(
        &mut self,
        node: u32,
        active: &mut u32,
        pactive: &mut u32,
        epoch: u32,
        k: &mut Counters,
    ) -> bool {
        let second = self.second;
        let oactive = *active;
        let mut p = oactive;
        let mut q = node + 1;
        while q != node {
            let c = at!(self.nd, q).itm;
            if c >= SPACER {
                q -= c - SPACER;
                continue;
            }
            if at!(self.set, c - 2) < p {
                p -= 1;
                self.swap_out(c, p, pactive, k);
            }
            q += 1;
        }
        *active = p;
        let mut q = node + 1;
        while q != node {
            let cc = at!(self.nd, q).itm;
            if cc >= SPACER {
                q -= cc - SPACER;
                continue;
            }
            if cc < second {
                if !self.hide::<true, COLOURS>(cc, 0, oactive, p, epoch, k) {
                    return false;
                }
            } else if at!(self.set, cc - 2) < oactive {
                // Not purified at a lower level.
                let colour = if COLOURS { at!(self.clr, q) } else { 0 };
                if !self.hide::<true, COLOURS>(cc, colour, oactive, p, epoch, k) {
                    return false;
                }
            }
            q += 1;
        }
        true
    }

    /// A new epoch for the trail: stamps from before it no longer count.
    #[inline(always)]
    fn next_epoch(&mut self, epoch: &mut u32) {
        if *epoch == u32::MAX {
            // Forget every stamp (an item saved twice is harmless; a stale stamp is not).
            for &x in self.item0.iter() {
                self.set[x as usize - 4] = 0;
            }
            *epoch = 0;
        }
        *epoch += 1;
    }

    /// Restores the state saved at branching level `level`: the active counts, the sizes of
    /// its active primary items, and (from the trail, newest first) those of the secondary
    /// items changed since.
    #[inline(always)]
    fn restore(&mut self, level: usize, active: &mut u32, pactive: &mut u32, k: &mut Counters) {
        let lv = self.levels[level];
        *active = lv.active;
        *pactive = lv.pactive;
        for i in lv.save..lv.save + lv.pactive {
            let (x, s) = at!(self.savestack, i);
            put!(self.set, x - 1, s);
        }
        let mark = lv.trail as usize;
        k.restores += u64::from(lv.pactive) + (self.trail.len() - mark) as u64;
        while self.trail.len() > mark {
            let (x, s) = self.trail.pop().expect("above the mark");
            put!(self.set, x - 1, s);
        }
    }

    /// SSXCC's search, with its labels as structured control flow: `forward` enters a level
    /// (a node), `advance` tries the option at `cur`, `abort` moves on to the next option of
    /// the level or backs up. With `CUT`, the nodes at level `cut` are noted in `found` and
    /// not entered ([`Cells::prefixes`]), a test after each option taken that the whole
    /// count is compiled without.
    fn search<const COLOURS: bool, const REPORT: bool, const CUT: bool, F>(
        &mut self,
        budget: &Budget,
        sink: &mut F,
    ) -> Outcome
    where
        F: FnMut(&[OptionId]) -> ControlFlow<()>,
    {
        let paused = self.paused.take();
        if paused.is_none() {
            self.set.copy_from_slice(&self.set0);
            self.nd.copy_from_slice(&self.nd0);
            self.item.copy_from_slice(&self.item0);
            self.prim.copy_from_slice(&self.prim0);
            self.force.clear();
            self.trail.clear();
        }
        self.done = false;
        let mut k = Counters::default();
        let mut nodes = 0u64;
        let mut solutions = 0u64;
        let mut max_level = 0u32;
        let max_solutions = budget.solutions.unwrap_or(u64::MAX);
        let max_nodes = budget.nodes.unwrap_or(u64::MAX);
        let max_mems = budget.mems.unwrap_or(u64::MAX);
        let mut end = End::Exhausted;
        if !self.hopeless && max_solutions == 0 {
            end = End::SolutionLimit;
        }
        if !self.hopeless && max_solutions > 0 {
            let Paused {
                mut active,
                mut pactive,
                mut epoch,
                mut level,
                mut saveptr,
                floor,
            } = paused.unwrap_or(Paused {
                active: self.item.len() as u32,
                pactive: self.prim.len() as u32,
                epoch: 1,
                level: 0,
                saveptr: 0,
                floor: 0,
            });
            // A budget that ends the count at the entry to a node leaves everything as it
            // was there: the count can go on from it.
            macro_rules! pause {
                () => {
                    self.paused = Some(Paused {
                        active,
                        pactive,
                        epoch,
                        level,
                        saveptr,
                        floor,
                    })
                };
            }
            // The branching item and the position in its block of the option being tried.
            let mut best: u32;
            let mut cur: u32 = 0;
            'forward: loop {
                if nodes >= max_nodes {
                    end = End::NodeLimit;
                    pause!();
                    break;
                }
                if max_mems != u64::MAX && k.mems() >= max_mems {
                    end = End::MemLimit;
                    pause!();
                    break;
                }
                if nodes & 0xff == 0
                    && let Some(e) = budget.out_of_time()
                {
                    end = e;
                    pause!();
                    break;
                }
                nodes += 1;
                // A forced move left over from the level above?
                let mut forced = false;
                best = 0;
                while let Some(x) = self.force.pop() {
                    if at!(self.set, x - 2) < active {
                        best = x;
                        forced = true;
                        break;
                    }
                }
                let mut advance = true;
                if !forced {
                    // The active primary item with the fewest options, leftmost on ties.
                    // The least (size, block) as one key: a minimum without a branch on
                    // the sizes, which a scan compares in no predictable order.
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
                    if least != u64::MAX {
                        best = least as u32;
                    }
                    if !self.force.is_empty() {
                        // The items with one option are taken from the right end of the
                        // active list leftwards, as a scan of that list pushes them.
                        if self.force.len() > 1 {
                            let set = &self.set;
                            self.force.sort_unstable_by_key(|&x| set[x as usize - 2]);
                        }
                        best = self.force.pop().expect("not empty");
                        forced = true;
                    } else if least == u64::MAX {
                        // No primary item left: a solution.
                        solutions += 1;
                        max_level = max_level.max(level as u32);
                        if REPORT {
                            self.solution.clear();
                            for l in 0..level {
                                let o = self.option_of(self.choice[l]);
                                self.solution.push(o);
                            }
                            if sink(&self.solution).is_break() {
                                end = End::Stopped;
                                break 'forward;
                            }
                        }
                        if solutions >= max_solutions {
                            end = End::SolutionLimit;
                            break 'forward;
                        }
                        advance = false;
                    }
                }
                if advance {
                    // Take `best` out of the active list and hide its options.
                    active -= 1;
                    self.swap_out(best, active, &mut pactive, &mut k);
                    self.hide::<false, COLOURS>(best, 0, active, active, epoch, &mut k);
                    if !forced {
                        // Save the sizes of the active primary items; those of secondary
                        // items go on the trail when they change, under a new epoch.
                        let need = (saveptr + pactive) as usize;
                        if self.savestack.len() < need {
                            let grown = need.max(2 * self.savestack.len());
                            self.savestack.resize(grown, (0, 0));
                        }
                        for p in 0..pactive {
                            let x = at!(self.prim, p);
                            put!(self.savestack, saveptr + p, (x, at!(self.set, x - 1)));
                        }
                        k.saves += u64::from(pactive);
                        self.levels[level] = Saved {
                            active,
                            pactive,
                            save: saveptr,
                            trail: self.trail.len() as u32,
                        };
                        saveptr += pactive;
                        self.next_epoch(&mut epoch);
                    }
                    cur = best;
                }
                loop {
                    if advance {
                        let node = at!(self.set, cur);
                        self.choice[level] = node;
                        if self.commit::<COLOURS>(node, &mut active, &mut pactive, epoch, &mut k) {
                            level += 1;
                            max_level = max_level.max(level as u32);
                            if !CUT || level != self.cut {
                                continue 'forward;
                            }
                            // A part for a thread: noted, not entered (its forced moves
                            // are the part's: the force stack is cleared below).
                            for l in 0..level {
                                let o = self.option_of(self.choice[l]);
                                self.found.push(o.0);
                            }
                            level -= 1;
                        }
                        self.force.clear();
                    } else {
                        // backup
                        if level == floor {
                            break 'forward;
                        }
                        level -= 1;
                        let Node { itm, loc } = at!(self.nd, self.choice[level]);
                        best = itm;
                        cur = loc;
                    }
                    // abort: the next option of this level, if any (never at a forced
                    // move, whose item had a single option).
                    if cur + 1 < best + at!(self.set, best - 1) {
                        self.restore(level, &mut active, &mut pactive, &mut k);
                        saveptr = self.levels[level].save + pactive;
                        self.next_epoch(&mut epoch);
                        cur += 1;
                        advance = true;
                    } else {
                        advance = false;
                    }
                }
            }
        }
        self.done = end == End::Exhausted;
        Outcome {
            end,
            stats: Stats {
                solutions,
                nodes,
                updates: k.updates(),
                mems: k.mems(),
                cleansings: 0,
                max_level,
            },
        }
    }
}

mod parts;
#[cfg(test)]
pub(crate) mod tests;
