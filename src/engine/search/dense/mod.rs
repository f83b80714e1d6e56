//! A bitset search for exact cover with colours, for problems with few options (up to
//! [`DENSE_MAX_OPTIONS`]): every option's conflicts are one row of bits, computed once, so
//! that taking an option is a bitwise AND over the options still possible, whatever its
//! secondary items and colours.
//!
//! # The data structures
//!
//! Options are numbered `0..m` as in the problem and a set of options is `words` = ⌈m/64⌉
//! `u64`s, option `o` being bit `o % 64` of word `o / 64`.
//!
//! * **`conflicts`**: row `o` (words `o*words..(o+1)*words`) is the set of options that
//!   cannot be in a solution with `o`: those that share a primary item with it, and those
//!   that share a secondary item unless both give that item the same colour (an option
//!   giving it no colour shares it with nobody). `o` is in its own row. Exact cover with
//!   colours is exactly "pairwise free of conflicts, every primary item covered", so after
//!   the row the secondary items need no further thought: they have no state at all.
//! * **`live[d]`**, one set per level `d`: the options still possible when level `d` is
//!   entered. Level `d + 1`'s set is level `d`'s less the row of the option tried.
//! * **`sizes[d]`**, one array per level (or, with more than 128 primary items, one array
//!   whose decreases go on a `trail` that the next try at a level gives back): for each
//!   primary item, how many options of `live[d]` contain it. The options a try removes
//!   (`live[d] ∧ row`) are walked bit by bit and each takes one from the sizes of its primary
//!   items (`pitems`); nothing is walked for secondary items. Undoing a try is forgetting
//!   level `d + 1`. While a try removes options, the sizes of the items it covers are raised
//!   by `COVERED` (they drop to 0 too), so that a size that reaches 0 is a wipe-out.
//! * **`prim`**, the primary items not yet covered, as a sparse set (`prim[0..pactive]`,
//!   inverse `pos`): a try swaps the items of its option past the end (`from` remembers
//!   where each came from), and the next try at the level swaps them back, the latest first.
//! * **`frames[d]`**: level `d`'s branching item, where the walk through its options stands
//!   (a word and its options not yet tried), how many are left to try (the item's size when
//!   the level was entered, less the tries), the option in hand, and `pactive` and the
//!   trail's length when the level was entered.
//!
//! The search's time goes mostly to branches that the data decide, mispredicted as often as
//! not, rather than to instructions (on a sudoku about four a cycle): the choice takes the
//! least of keys `size << 16 | item` with no branch but the one out at a size of 1, a try
//! tests for a wipe-out once per option removed rather than per decrement, a level ends on
//! its count of options left rather than by walking words that have none, and where the
//! conflict rows spread over most words (a sudoku, pentominoes) a try walks the options it
//! removes through a mask of the words that have some rather than testing every word.
//!
//! # The rules (SSXCC's, and one more)
//!
//! At each node the uncovered primary item with the fewest options is chosen, the first
//! declared on ties, and its options are tried in order; an item with a single option left
//! is a *forced move*, and the first of those in the list of uncovered items is taken. A try
//! whose removals leave an uncovered primary item with no option is abandoned at once (a
//! *wipe-out*: no node). No uncovered primary item left: a solution. Nodes are counted as
//! SSXCC counts them (every entry to a level, solutions included).
//!
//! One more rule on problems with colours, a wipe-out seen one step ahead: when items have a
//! single option left, their options must all be taken, so if two of them conflict the node
//! is abandoned before it is entered (no node). SSXCC finds the same dead end after one or
//! more forced moves. On the coloured benchmark instances the tree is then 3 to 18% smaller
//! than SSXCC's (word squares 904,862 nodes against 960,135; MacMahon's squares 4×6 24.6
//! million against 30.1), for 0 to 4% more time. On colour-free problems it costs more time
//! than it saves (13-queens: 15%) and is left out.
//!
//! The list of uncovered items changes order as items leave it; each try's swaps are undone
//! in reverse before the next, so its order, and with it the tree, depends only on the
//! options taken on the way: the same tree whether searched whole or in sub-problems on
//! threads (`run/threads.rs`), with the same node count.
//!
//! The price of a try is `words` words ANDed plus one decrement per primary item of each
//! option removed; a link engine pays an update per item of each option removed, secondary
//! ones included, and restores them all. The conflict rows take m²/8 bytes, hence the limit
//! on m.
//!
//! Knuth's random probes walk this tree node for node ([`DenseWalk`], walk.rs), for the
//! estimate of a count's size and the time left on its progress line.
//!
//! Multiplicities (`u:v` primary items) are not handled: [`Dense::new`] refuses them. Costs
//! are ignored (every exact cover is a solution).

use std::ops::ControlFlow;

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::{OptionId, Problem};
use crate::engine::stats::Stats;

mod tables;
mod walk;

use tables::Tables;
pub use tables::{DENSE_MAX_OPTIONS, DenseError};
pub use walk::DenseWalk;

/// Added to the sizes of the items an option covers while the options it removes are
/// removed (see [`Arrays::try_option`]): more than any size.
const COVERED: u32 = 1 << 30;

/// What one level remembers while its options are tried.
#[derive(Copy, Clone, Debug, Default)]
struct Frame {
    /// The branching item (its index among the primary items).
    item: u32,
    /// The word of the item's options being walked, and its options not yet tried.
    word: u32,
    bits: u64,
    /// The uncovered primary items when the level was entered.
    pactive: u32,
    /// The option being tried.
    option: u32,
    /// The length of the sizes' trail when the level was entered (see [`Tables::trail`]).
    trail: u32,
    /// How many of the item's options are not yet tried (its size when the level was
    /// entered, less the tries): the level is done when none is left, without walking the
    /// words that have none (a loop whose length the options decide, mispredicted).
    left: u32,
}

/// Where a search stands: the level, the level it started at (it ends on backing up past
/// it), whether that level is being entered or its next option tried, and the uncovered
/// primary items.
#[derive(Copy, Clone, Debug, Default)]
struct Cursor {
    depth: usize,
    base: usize,
    entering: bool,
    pactive: u32,
    /// The search backed up past its base: nothing more to count.
    done: bool,
}

/// What a search did so far, turned into [`Stats`] at its end.
#[derive(Copy, Clone, Debug, Default)]
struct Tally {
    nodes: u64,
    solutions: u64,
    /// Options removed by a try (an update each).
    removed: u64,
    /// Options tried.
    tries: u64,
    /// Items looked at when choosing the branching item.
    scans: u64,
    max_level: u32,
}

impl Tally {
    /// Mems, counted per event: a try reads its conflict row and the level's set and writes
    /// the next (three per word); a removal reads an option's primary items and updates
    /// their sizes (three); the choice reads one size per item.
    fn mems(&self, words: usize) -> u64 {
        3 * words as u64 * self.tries + 3 * self.removed + self.scans
    }

    fn stats(&self, words: usize) -> Stats {
        Stats {
            solutions: self.solutions,
            nodes: self.nodes,
            updates: self.removed,
            mems: self.mems(words),
            cleansings: 0,
            max_level: self.max_level,
        }
    }
}

/// The bitset search for one [`Problem`]. Reusable: each search starts afresh.
pub struct Dense<'p> {
    problem: &'p Problem,
    t: Tables,
    live: Vec<u64>,
    sizes: Vec<u32>,
    prim: Vec<u32>,
    pos: Vec<u32>,
    /// The items whose sizes the tries on the way down decreased, one entry a decrease, and
    /// its length (trail mode only).
    trail: Vec<u32>,
    trail_top: usize,
    /// `from[a]`: where the item swapped to position `a` of `prim` (as an option covered it)
    /// came from. The items covered on the way down sit at positions `pactive..`, the latest
    /// lowest, so a level undoes the swaps of its tries by walking up from `pactive`.
    from: Vec<u32>,
    frames: Vec<Frame>,
    solution: Vec<OptionId>,
    cursor: Cursor,
    tally: Tally,
    /// The depth at which [`Dense::prefixes`] notes sub-problems (`usize::MAX`: none), and
    /// the options of those noted, one prefix after the other.
    cut: usize,
    /// Scratch: the options of the items with one option left.
    forced: Vec<u32>,
    found: Vec<u32>,
    /// For [`Dense::prefixes`]' walk that finds the depth of its cut (0: no such walk): the
    /// nodes wanted at one depth, and the nodes met so far at each depth (to `cut`). The walk
    /// descends no deeper than the first depth to have that many.
    want_at_depth: usize,
    at_depth: Vec<u64>,
    stats: Stats,
}

impl<'p> Dense<'p> {
    /// The engine for `problem`; refuses multiplicities and problems past
    /// [`DENSE_MAX_OPTIONS`] options; ignores costs.
    pub fn new(problem: &'p Problem) -> Result<Dense<'p>, DenseError> {
        Ok(Dense::on(problem, Tables::new(problem)?))
    }

    /// The bytes [`Dense::new`] writes for `problem`'s tables (conflict rows and item rows,
    /// `m/64` words each), without building them; its refusals as well.
    pub(crate) fn table_bytes(problem: &Problem) -> Result<usize, DenseError> {
        Tables::bytes(problem)
    }

    /// An engine for `problem` on tables built for it.
    fn on(problem: &'p Problem, t: Tables) -> Dense<'p> {
        let (levels, words, primaries) = (t.primaries + 2, t.words, t.primaries);
        let trail = if t.trail { t.pitems.len() } else { 0 };
        Dense {
            problem,
            t,
            live: vec![0; levels * words],
            sizes: vec![0; levels * primaries],
            prim: (0..primaries as u32).collect(),
            pos: (0..primaries as u32).collect(),
            trail: vec![0; trail],
            trail_top: 0,
            from: vec![0; primaries],
            frames: vec![Frame::default(); levels],
            solution: Vec::with_capacity(levels),
            cursor: Cursor::default(),
            tally: Tally::default(),
            cut: usize::MAX,
            forced: Vec::new(),
            found: Vec::new(),
            want_at_depth: 0,
            at_depth: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// The same engine with the sizes on a trail or copied per level, whatever the number of
    /// primary items (for the tests: both ways must search the same tree).
    #[cfg(test)]
    fn with_trail(self, on: bool) -> Dense<'p> {
        let mut t = self.t;
        t.trail = on;
        Dense::on(self.problem, t)
    }

    /// The same engine with the options a try removes walked through a mask of the words that
    /// have some, or word by word, whatever the tables chose (for the tests: both ways must
    /// search the same tree; the mask takes 64 words at most).
    #[cfg(test)]
    fn with_sparse_walk(self, on: bool) -> Dense<'p> {
        let mut t = self.t;
        t.sparse_walk = on && t.words <= 64;
        Dense::on(self.problem, t)
    }

    /// A new engine for the same problem, with a copy of this one's tables.
    fn sibling(&self) -> Dense<'p> {
        Dense::on(self.problem, self.t.clone())
    }

    /// Knuth's probes' walk of this search's tree ([`DenseWalk`]), on its tables.
    pub fn into_walk(self) -> DenseWalk<'p> {
        DenseWalk::on(self)
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
        self.start();
        self.resume(budget)
    }

    /// Continues a count that stopped on the budget's node or mem limit (the limits are on
    /// the whole count so far); after [`Dense::count`] ended the tree, counts nothing more.
    /// The outcome's statistics are the whole count's.
    pub fn resume(&mut self, budget: &Budget) -> Outcome {
        let before = self.tally.stats(self.t.words);
        let outcome =
            self.search::<false, _>(budget, &mut |_: &[OptionId]| ControlFlow::Continue(()));
        let s = outcome.stats;
        self.stats += Stats {
            solutions: s.solutions - before.solutions,
            nodes: s.nodes - before.nodes,
            updates: s.updates - before.updates,
            mems: s.mems - before.mems,
            cleansings: 0,
            max_level: s.max_level,
        };
        outcome
    }

    /// Knuth's estimate of the fraction of the tree a count stopped by its budget has
    /// searched (1 once it ended): at each level on the path, the options tried before the
    /// one in hand, divided by the product of the options of the levels down to it.
    pub(crate) fn progress(&self) -> f64 {
        let c = self.cursor;
        if c.done {
            return 1.0;
        }
        let w = self.t.words;
        let (mut fraction, mut scale) = (0.0, 1.0);
        // Levels below `c.depth` have an option in hand; when not entering, level `c.depth`
        // has finished its latest option.
        let top = if c.entering { c.depth } else { c.depth + 1 };
        for d in c.base..top {
            let f = self.frames[d];
            let (item, live) = (f.item as usize, &self.live[d * w..(d + 1) * w]);
            let bits = &self.t.item_bits[item * w..(item + 1) * w];
            let total: u32 = (0..w).map(|k| (bits[k] & live[k]).count_ones()).sum();
            let later: u32 = (f.word as usize + 1..w)
                .map(|k| (bits[k] & live[k]).count_ones())
                .sum();
            let left = f.bits.count_ones() + later;
            let in_hand = u32::from(d < c.depth);
            let done = total.saturating_sub(left + in_hand);
            scale /= f64::from(total.max(1));
            fraction += f64::from(done) * scale;
        }
        fraction.clamp(0.0, 1.0)
    }

    /// Puts the search at the root, its tally at zero.
    fn start(&mut self) {
        let (w, p) = (self.t.words, self.t.primaries);
        self.live[..w].copy_from_slice(&self.t.live0);
        self.sizes[..p].copy_from_slice(&self.t.size0);
        self.trail_top = 0;
        for (k, x) in self.prim.iter_mut().enumerate() {
            *x = k as u32;
        }
        for (k, x) in self.pos.iter_mut().enumerate() {
            *x = k as u32;
        }
        self.tally = Tally::default();
        self.cursor = Cursor {
            depth: 0,
            base: 0,
            entering: true,
            pactive: p as u32,
            done: self.t.hopeless,
        };
    }

    /// The arrays a search changes, borrowed apart from the tables it reads: held in locals,
    /// their addresses stay in registers instead of being reloaded from `self` after every
    /// store (the compiler cannot tell a store to a size from one to a field of `self`).
    fn arrays(&mut self) -> (&Tables, Arrays<'_>) {
        (
            &self.t,
            Arrays {
                live: &mut self.live,
                sizes: &mut self.sizes,
                prim: &mut self.prim,
                pos: &mut self.pos,
                from: &mut self.from,
                trail: &mut self.trail,
                trail_top: self.trail_top,
            },
        )
    }
}

/// The arrays of [`Dense`] that a search changes (see the module documentation), and the
/// length of the sizes' trail.
struct Arrays<'a> {
    live: &'a mut [u64],
    sizes: &'a mut [u32],
    prim: &'a mut [u32],
    pos: &'a mut [u32],
    from: &'a mut [u32],
    trail: &'a mut [u32],
    trail_top: usize,
}

impl Arrays<'_> {
    /// [`Arrays::try_option`] as the tables say (on a trail or not, the sparse walk or not),
    /// for the callers outside the search's loop.
    fn try_option_as_built(
        &mut self,
        t: &Tables,
        d: usize,
        o: u32,
        pactive: &mut u32,
        removed: &mut u64,
    ) -> bool {
        match (t.trail, t.sparse_walk) {
            (true, true) => self.try_option::<true, true>(t, d, o, pactive, removed),
            (true, false) => self.try_option::<true, false>(t, d, o, pactive, removed),
            (false, true) => self.try_option::<false, true>(t, d, o, pactive, removed),
            (false, false) => self.try_option::<false, false>(t, d, o, pactive, removed),
        }
    }

    /// Tries option `o` at level `d`: level `d + 1`'s options and sizes, and the uncovered
    /// items. False on a wipe-out. Adds the options removed to `removed`.
    #[inline(always)]
    fn try_option<const TRAIL: bool, const SPARSE: bool>(
        &mut self,
        t: &Tables,
        d: usize,
        o: u32,
        pactive: &mut u32,
        removed: &mut u64,
    ) -> bool {
        let (w, p, o) = (t.words, t.primaries, o as usize);
        debug_assert!(o + 1 < t.pstart.len() && (d + 2) * w <= self.live.len());
        // SAFETY (the whole function): `o` and every option removed are options, below m, so
        // `pstart[o + 1]` exists, `pitems[pstart[o]..pstart[o + 1]]` are primary items, each
        // below `p` (the length of `prim`, `pos`, `from`, and of each level's sizes), and
        // conflict row `o` is `words` long; `d + 1` is at most the number of primary items
        // plus one (each level covers one at least), below the levels of `live` and
        // `sizes`; the uncovered items number at least the items of an option that covers
        // them; the trail has room for every primary entry of every option, and an option
        // is removed at most once on the way down.
        unsafe {
            let base = if TRAIL {
                0
            } else {
                self.sizes.copy_within(d * p..(d + 1) * p, (d + 1) * p);
                (d + 1) * p
            };
            // Its primary items are covered: each swapped to the end of the uncovered ones.
            // Their sizes drop to 0 too; raised by `COVERED` while the options are removed,
            // they do not, and a size that does is an uncovered item's: a wipe-out, seen
            // without a branch per decrement (one that the sizes decide is mispredicted as
            // often as not).
            let (lo, hi) = (*t.pstart.get_unchecked(o), *t.pstart.get_unchecked(o + 1));
            for k in lo..hi {
                let x = *t.pitems.get_unchecked(k as usize);
                *pactive -= 1;
                let a = *pactive;
                debug_assert!((x as usize) < p && (a as usize) < p);
                let i = *self.pos.get_unchecked(x as usize);
                let last = *self.prim.get_unchecked(a as usize);
                *self.prim.get_unchecked_mut(i as usize) = last;
                *self.pos.get_unchecked_mut(last as usize) = i;
                *self.prim.get_unchecked_mut(a as usize) = x;
                *self.pos.get_unchecked_mut(x as usize) = a;
                *self.from.get_unchecked_mut(a as usize) = i;
                *self.sizes.get_unchecked_mut(base + x as usize) += COVERED;
            }
            let mut top = self.trail_top;
            let mut wiped = false;
            // Option `q` is removed: a decrement of the size of each of its primary items.
            macro_rules! remove {
                ($q:expr) => {{
                    let q: usize = $q;
                    *removed += 1;
                    debug_assert!(q + 1 < t.pstart.len());
                    let (a, b) = (*t.pstart.get_unchecked(q), *t.pstart.get_unchecked(q + 1));
                    for j in a..b {
                        let x = *t.pitems.get_unchecked(j as usize) as usize;
                        debug_assert!(x < p);
                        let s = self.sizes.get_unchecked_mut(base + x);
                        *s -= 1;
                        wiped |= *s == 0;
                        if TRAIL {
                            debug_assert!(top < self.trail.len());
                            *self.trail.get_unchecked_mut(top) = x as u32;
                            top += 1;
                        }
                    }
                }};
            }
            if SPARSE {
                // The next level's options first, with no branch, noting the words where
                // options are removed; then the options removed, with a branch per option
                // and per word that has some, instead of one per word and per option: a
                // sudoku removes two or three options a try, spread over its five or six
                // words, so that whether a word has some is mispredicted as often as not.
                debug_assert!(w <= 64, "one bit a word");
                // The mask shifted in from the last word down, rather than each word's bit
                // shifted to its place: the compiler makes a vector loop of the latter that
                // takes more instructions than the words it saves (a sudoku's five words: 95
                // against 55).
                let mut words = 0u64;
                for k in (0..w).rev() {
                    let l = *self.live.get_unchecked(d * w + k);
                    let r = *t.conflicts.get_unchecked(o * w + k);
                    *self.live.get_unchecked_mut((d + 1) * w + k) = l & !r;
                    words = words << 1 | u64::from(l & r != 0);
                }
                // `o` itself is removed (it is live and in its own row).
                if words != 0 {
                    let mut k = words.trailing_zeros() as usize;
                    words &= words - 1;
                    let mut gone =
                        *self.live.get_unchecked(d * w + k) & *t.conflicts.get_unchecked(o * w + k);
                    loop {
                        let q = k * 64 + gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        remove!(q);
                        // After the option's last item rather than at the item that emptied
                        // (the same options removed, counted the same).
                        if wiped {
                            break;
                        }
                        if gone == 0 {
                            if words == 0 {
                                break;
                            }
                            k = words.trailing_zeros() as usize;
                            words &= words - 1;
                            gone = *self.live.get_unchecked(d * w + k)
                                & *t.conflicts.get_unchecked(o * w + k);
                        }
                    }
                }
            } else {
                'words: for k in 0..w {
                    let l = *self.live.get_unchecked(d * w + k);
                    let r = *t.conflicts.get_unchecked(o * w + k);
                    *self.live.get_unchecked_mut((d + 1) * w + k) = l & !r;
                    let mut gone = l & r;
                    while gone != 0 {
                        let q = k * 64 + gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        remove!(q);
                        if wiped {
                            break 'words;
                        }
                    }
                }
            }
            for k in lo..hi {
                let x = *t.pitems.get_unchecked(k as usize) as usize;
                *self.sizes.get_unchecked_mut(base + x) -= COVERED;
            }
            self.trail_top = top;
            if wiped {
                return false;
            }
        }
        true
    }
}

impl<'p> Dense<'p> {
    /// The search (see the module documentation), from the cursor on, until it backs up
    /// past the cursor's base level or the budget runs out.
    fn search<const REPORT: bool, F>(&mut self, budget: &Budget, sink: &mut F) -> Outcome
    where
        F: FnMut(&[OptionId]) -> ControlFlow<()>,
    {
        match (self.t.lookahead, self.t.trail, self.t.sparse_walk) {
            (true, true, true) => self.search_with::<REPORT, true, true, true, F>(budget, sink),
            (true, true, false) => self.search_with::<REPORT, true, true, false, F>(budget, sink),
            (true, false, true) => self.search_with::<REPORT, true, false, true, F>(budget, sink),
            (true, false, false) => self.search_with::<REPORT, true, false, false, F>(budget, sink),
            (false, true, true) => self.search_with::<REPORT, false, true, true, F>(budget, sink),
            (false, true, false) => self.search_with::<REPORT, false, true, false, F>(budget, sink),
            (false, false, true) => self.search_with::<REPORT, false, false, true, F>(budget, sink),
            (false, false, false) => {
                self.search_with::<REPORT, false, false, false, F>(budget, sink)
            }
        }
    }

    /// [`Dense::search`], with or without the look one step ahead, with the sizes copied per
    /// level or on a trail.
    fn search_with<
        const REPORT: bool,
        const LOOKAHEAD: bool,
        const TRAIL: bool,
        const SPARSE: bool,
        F,
    >(
        &mut self,
        budget: &Budget,
        sink: &mut F,
    ) -> Outcome
    where
        F: FnMut(&[OptionId]) -> ControlFlow<()>,
    {
        let (w, p) = (self.t.words, self.t.primaries);
        let mut t = self.tally;
        let max_solutions = budget.solutions.unwrap_or(u64::MAX);
        let max_nodes = budget.nodes.unwrap_or(u64::MAX);
        let max_mems = budget.mems.unwrap_or(u64::MAX);
        let Cursor {
            depth: mut d,
            base,
            mut entering,
            mut pactive,
            mut done,
        } = self.cursor;
        let Dense {
            t: tables,
            live,
            sizes,
            prim,
            pos,
            from,
            trail,
            trail_top,
            frames,
            solution,
            cut,
            forced,
            found,
            want_at_depth,
            at_depth,
            ..
        } = self;
        let (tables, want_at_depth) = (&*tables, *want_at_depth);
        // The depth from which an entered node is looked at for the cut (`cut`, read only
        // there): every depth from 1 while the cut's depth is being found.
        let watch = if want_at_depth != 0 { 1 } else { *cut };
        let mut a = Arrays {
            live,
            sizes,
            prim,
            pos,
            from,
            trail,
            trail_top: *trail_top,
        };
        let frames = &mut frames[..];
        // Back to the level above to try its next option, or the search is done when this was
        // its base level.
        macro_rules! back_up {
            () => {{
                if d == base {
                    done = true;
                } else {
                    d -= 1;
                    entering = false;
                }
                continue;
            }};
        }
        let mut end = End::Exhausted;
        let mut posted = t.nodes;
        if !done && t.solutions >= max_solutions {
            end = End::SolutionLimit;
        }
        while !done && end == End::Exhausted {
            if entering {
                if t.nodes >= max_nodes {
                    end = End::NodeLimit;
                    break;
                }
                if max_mems != u64::MAX && t.mems(w) >= max_mems {
                    end = End::MemLimit;
                    break;
                }
                if t.nodes & 0x3ff == 0 {
                    // For a display: the nodes entered since the last post.
                    if t.nodes > posted {
                        budget.stop.progress().add_nodes(t.nodes - posted);
                        posted = t.nodes;
                    }
                    if let Some(e) = budget.out_of_time() {
                        end = e;
                        break;
                    }
                }
                // One test on the hot path for both the cut and the walk that finds its
                // depth (a second test here cost word squares 6%).
                if d >= watch {
                    if want_at_depth != 0 && d <= *cut {
                        // The walk that finds the cut's depth: the first depth with the nodes
                        // wanted is as deep as it goes from now on.
                        at_depth[d] += 1;
                        if at_depth[d] >= want_at_depth as u64 {
                            *cut = d;
                        }
                    }
                    if d == *cut {
                        // A sub-problem for a thread: noted, not entered.
                        if want_at_depth == 0 {
                            found.extend(frames[..d].iter().map(|f| f.option));
                        }
                        entering = false;
                        d -= 1;
                        continue;
                    }
                }
                if pactive == 0 {
                    t.nodes += 1;
                    t.max_level = t.max_level.max(d as u32);
                    t.solutions += 1;
                    if REPORT {
                        solution.clear();
                        for f in &frames[..d] {
                            solution.push(OptionId(f.option));
                        }
                        if sink(solution).is_break() {
                            end = End::Stopped;
                        }
                    }
                    if t.solutions >= max_solutions && end == End::Exhausted {
                        end = End::SolutionLimit;
                    }
                    back_up!();
                }
                // The uncovered primary item with the fewest options: the first declared on
                // ties, the first in the list of uncovered items with one option. That list's
                // order depends on the options taken on the way here alone (each try's swaps
                // are undone in reverse), so the tree is the same whether searched whole or
                // in sub-problems on threads.
                let here = if TRAIL { 0 } else { d * p };
                let sizes = &a.sizes[here..here + p];
                let uncovered = &a.prim[..pactive as usize];
                // Each item's size and index make one key, `size << 16 | item`, so that the
                // least key is the choice, and the loop has no branch that depends on the
                // sizes but the one out at a size of 1 (the first of those in the list, as
                // the keys before it are of larger sizes): a branch per item that a size
                // decided would be mispredicted as often as not.
                // Two items a round, with one test for a size of 1 for both (the first of the
                // two taken if both have one): half the loop's branches and counter updates
                // (9.5 instructions an item against 11).
                let key_of = |x: u32| {
                    debug_assert!((x as usize) < sizes.len() && x < 1 << 16);
                    // SAFETY: the primary items are below `p = sizes.len()`.
                    (unsafe { *sizes.get_unchecked(x as usize) }) << 16 | x
                };
                let mut key = u32::MAX;
                t.scans += u64::from(pactive);
                let mut pairs = uncovered.chunks_exact(2);
                'scan: {
                    for pair in &mut pairs {
                        let (kx, ky) = (key_of(pair[0]), key_of(pair[1]));
                        let k = kx.min(ky);
                        if k < 2 << 16 {
                            key = if kx < 2 << 16 { kx } else { ky };
                            break 'scan;
                        }
                        key = key.min(k);
                    }
                    if let [x] = pairs.remainder() {
                        key = key.min(key_of(*x));
                    }
                }
                let (best, least) = (key & 0xffff, key >> 16);
                if LOOKAHEAD && least == 1 {
                    // Every item with one option left: if two of those options conflict,
                    // this is a dead end (a wipe-out one step ahead: no node).
                    forced.clear();
                    let live = &a.live[d * w..(d + 1) * w];
                    for &x in uncovered {
                        if sizes[x as usize] == 1 {
                            let bits = &tables.item_bits[x as usize * w..(x as usize + 1) * w];
                            let k = (tables.item_lo[x as usize]..tables.item_hi[x as usize])
                                .find(|&k| bits[k as usize] & live[k as usize] != 0)
                                .expect("an option left");
                            let o = k * 64 + (bits[k as usize] & live[k as usize]).trailing_zeros();
                            forced.push(o);
                        }
                    }
                    let mut dead = false;
                    'pairs: for (i, &a) in forced.iter().enumerate() {
                        let row = &tables.conflicts[a as usize * w..(a as usize + 1) * w];
                        for &b in &forced[i + 1..] {
                            if a != b && row[b as usize / 64] >> (b % 64) & 1 != 0 {
                                dead = true;
                                break 'pairs;
                            }
                        }
                    }
                    if dead {
                        back_up!();
                    }
                }
                t.nodes += 1;
                t.max_level = t.max_level.max(d as u32);
                debug_assert!((best as usize) < p && d < frames.len());
                // SAFETY: `best` is a primary item, below `p`, its first word `lo` below `w`,
                // and `d` below the levels (each level covers an item at least).
                let (lo, bits) = unsafe {
                    let lo = *tables.item_lo.get_unchecked(best as usize);
                    let bits = *tables
                        .item_bits
                        .get_unchecked(best as usize * w + lo as usize)
                        & *a.live.get_unchecked(d * w + lo as usize);
                    (lo, bits)
                };
                // SAFETY: as above.
                *unsafe { frames.get_unchecked_mut(d) } = Frame {
                    item: best,
                    word: lo,
                    bits,
                    pactive,
                    option: 0,
                    trail: a.trail_top as u32,
                    left: least,
                };
            }
            // The next option of level `d`.
            debug_assert!(d < frames.len());
            // SAFETY: `d` is below the levels (each level covers an item at least).
            let f = *unsafe { frames.get_unchecked(d) };
            if f.left == 0 {
                back_up!();
            }
            let (mut word, mut bits) = (f.word, f.bits);
            while bits == 0 {
                // There is one left, in a later word.
                word += 1;
                debug_assert!(word < tables.item_hi[f.item as usize]);
                // SAFETY: the item's options left are in its words, below `w`.
                bits = unsafe {
                    *tables
                        .item_bits
                        .get_unchecked(f.item as usize * w + word as usize)
                        & *a.live.get_unchecked(d * w + word as usize)
                };
            }
            let o = word * 64 + bits.trailing_zeros();
            // SAFETY: as above.
            let frame = unsafe { frames.get_unchecked_mut(d) };
            frame.word = word;
            frame.bits = bits & (bits - 1);
            frame.option = o;
            frame.left -= 1;
            // SAFETY: positions and items of the list are below `p`, the length of `prim`,
            // `pos` and `from`; the trail holds primary items, below `p` too.
            unsafe {
                // Undo the swaps of the tries since this level was entered, the latest first:
                // they moved items to the positions `pactive..f.pactive`, the latest to the
                // lowest.
                for k in pactive..f.pactive {
                    debug_assert!((k as usize) < p);
                    let i = *a.from.get_unchecked(k as usize);
                    let x = *a.prim.get_unchecked(k as usize);
                    let y = *a.prim.get_unchecked(i as usize);
                    *a.prim.get_unchecked_mut(i as usize) = x;
                    *a.pos.get_unchecked_mut(x as usize) = i;
                    *a.prim.get_unchecked_mut(k as usize) = y;
                    *a.pos.get_unchecked_mut(y as usize) = k;
                }
                pactive = f.pactive;
                if TRAIL {
                    // Give back what the tries since this level was entered took.
                    debug_assert!(a.trail_top <= a.trail.len());
                    for k in f.trail as usize..a.trail_top {
                        let x = *a.trail.get_unchecked(k) as usize;
                        debug_assert!(x < p);
                        *a.sizes.get_unchecked_mut(x) += 1;
                    }
                    a.trail_top = f.trail as usize;
                }
            }
            t.tries += 1;
            if a.try_option::<TRAIL, SPARSE>(tables, d, o, &mut pactive, &mut t.removed) {
                d += 1;
                entering = true;
            } else {
                entering = false;
            }
        }
        *trail_top = a.trail_top;
        self.tally = t;
        self.cursor = Cursor {
            depth: d,
            base,
            entering,
            pactive,
            done,
        };
        Outcome {
            end,
            stats: t.stats(w),
        }
    }
}
mod parts;
#[cfg(test)]
mod tests;
