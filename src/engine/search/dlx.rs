//! Dancing links, in the style of Knuth's DLX1 and DLX2.
//!
//! # The data structure
//!
//! One flat array `nd` of 16-byte nodes `{up, down, itm, color}`; every link is a `u32` array
//! index. For a problem with N items and options `o1, o2, ...`:
//!
//! ```text
//!  index:  0     1 .. N         N+1      N+2 .. N+1+|o1|   next     ...
//!          ---   item headers   spacer   nodes of o1       spacer   nodes of o2 ...
//!                itm = length   itm = 0                    itm = -1
//! ```
//!
//! * Nodes `1..=N` are the item headers, primary items first (in declaration order), then
//!   secondary ones. A header's `itm` slot holds the item's current length (number of options
//!   still in its list); `up`/`down` make the circular list of the options that contain it.
//! * Each option is a run of consecutive nodes, one per item, whose `itm` is the header index.
//!   Between options sit spacer nodes with `itm <= 0`: a spacer's `up` points to the first node
//!   of the option before it and its `down` to the last node of the option after it, so an
//!   option is walked circularly without left/right links.
//! * `color` is 0 for "no colour", a colour number for a coloured secondary item, and -1 for a
//!   node whose item has been purified to the node's colour (DLX2). A spacer's `color` holds
//!   the size of the option before it less one: the nodes that hiding that option removes.
//! * A second array `cl` of `{prev, next}` links holds two rings: the active primary items,
//!   headed by `cl[0]`, and the secondary items, headed by `cl[N+1]`. Only primary items are
//!   ever chosen for branching.
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

use super::memo::{Memo, MemoStats};
use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::count::Count;
use crate::engine::problem::{Entry, ItemId, OptionId, Problem};
use crate::engine::stats::Stats;

#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct Node {
    up: u32,
    down: u32,
    /// Header index for an option node; the length for a header; `<= 0` for a spacer.
    itm: i32,
    color: i32,
}

#[derive(Copy, Clone, Debug, Default)]
struct Link {
    prev: u32,
    next: u32,
}

/// Counters kept in registers during the hot loops, folded into [`Stats`] at the end.
///
/// Colour-free problems (the DLX1 path) do not count mems node by node: every mem DLX2 charges
/// in `cover` and `uncover` is a fixed number per covered item, per hidden option and per
/// removed node, so the path counts those three events and derives mems and updates from
/// them at the end (`fold_plain`). Unhiding then counts nothing at all, since a complete
/// search restores exactly what it removed. The coloured path counts as DLX2 does.
#[derive(Default)]
struct Counters {
    mems: u64,
    updates: u64,
    cleansings: u64,
    /// Colour-free path: items covered, options hidden, nodes removed.
    covers: u64,
    hides: u64,
    removals: u64,
    /// Set by a watching `hide_plain` when an unmarked primary item's length drops to zero:
    /// the option being committed leaves that item no option ([`Links::commit_watched`]).
    dead: bool,
    /// Options whose commit found such a dead end (each a node of DLX2's tree that this tree
    /// does not visit).
    dead_ends: u64,
}

impl Counters {
    /// Mems and updates of the colour-free path: DLX2 charges 4 mems per cover (item links and
    /// the first `down`), 3 per hidden option (the spacer's two and the next `down`) and 6 per
    /// removed node (2 to read it, 4 to unlink it and decrement the length), and the same again
    /// for the matching uncover. `undone` are the events an early stop unwound without a
    /// matching uncover in the search (Knuth just stops).
    /// The mems spent so far, for the mem budget. On the colour-free path the covering events
    /// are converted as in `fold_plain`, counting each cover's uncover as done: a slight
    /// overestimate (by what the current path will uncover), which only makes a mem budget
    /// stop a little early.
    #[inline(always)]
    fn mems_so_far<const COLOURS: bool>(&self) -> u64 {
        if COLOURS {
            self.mems
        } else {
            self.mems + 2 * (4 * self.covers + 3 * self.hides + 6 * self.removals)
        }
    }

    fn fold_plain(&mut self, undone: &Counters) {
        let cover_mems = 4 * self.covers + 3 * self.hides + 6 * self.removals;
        let uncover_mems =
            cover_mems - (4 * undone.covers + 3 * undone.hides + 6 * undone.removals);
        self.mems += cover_mems + uncover_mems;
        self.updates += self.covers + self.removals;
    }
}

/// The linked structure and the operations on it. Kept apart from the search state so that
/// the hot functions borrow only what they touch.
struct Links {
    nd: Vec<Node>,
    cl: Vec<Link>,
    /// Index of the first spacer: headers are `1..last_itm`.
    last_itm: u32,
    /// The colour each secondary item is purified to, 0 for none, by header index (not
    /// slot): what the memo's key records of coloured items ([`Memo`]).
    purified: Vec<i32>,
    /// The slot of the first secondary item's header (`last_itm` when there is none).
    first_secondary: u32,
}

const ROOT: u32 = 0;

// Node references are *slots*: twice the node's index in `nd`, so that a reference times 8 is
// the node's byte offset, which x86 can scale in an address without a shift (a 16-byte
// stride cannot be). Consecutive nodes are `STEP` apart. Item headers are referenced by slot
// too, and the item rings `cl` are indexed by the header's slot (odd entries unused).
//
// The hot functions index through raw pointers without bounds checks. Every reference stored
// in `nd` and `cl` is created in `Solver::with_options` and stays within the arrays, which
// never change size after construction; `debug_assert!` checks each access in tests.
const STEP: u32 = 2;

macro_rules! at {
    ($base:expr, $len:expr, $r:expr) => {{
        let r = $r as usize;
        debug_assert!(r % 2 == 0 && r / 2 < $len);
        unsafe { &mut *($base as *mut u8).add(r * 8).cast::<Node>() }
    }};
}
macro_rules! nd {
    ($l:expr, $r:expr) => {{
        let len = $l.nd.len();
        let base = $l.nd.as_mut_ptr();
        at!(base, len, $r)
    }};
}
macro_rules! cl {
    ($l:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $l.cl.len());
        unsafe { $l.cl.get_unchecked_mut(i) }
    }};
}

/// Removes the other nodes of the option containing `rr` from their item lists (the inner
/// loop of DLX2's `cover`, with its colour test: nodes marked -1 by `purify` stay put).
#[inline(always)]
fn hide<const COLOURS: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
    let mut nn = rr + STEP;
    while nn != rr {
        let node = *at!(nd, len, nn);
        if COLOURS && node.color < 0 {
            c.mems += 1;
            nn += STEP;
            continue;
        }
        c.mems += 2;
        if node.itm <= 0 {
            nn = node.up;
            continue;
        }
        at!(nd, len, node.up).down = node.down;
        at!(nd, len, node.down).up = node.up;
        at!(nd, len, node.itm).itm -= 1;
        c.mems += 4;
        c.updates += 1;
        nn += STEP;
    }
}

/// `hide` for colour-free problems, in two tight loops: right of `rr` up to the spacer that
/// ends the option, then from the option's first node (the spacer's `up`) back to `rr`. Only
/// the first loop tests for the spacer, and the spacer's position gives the number of nodes
/// removed, so nothing is counted node by node.
#[inline(always)]
fn hide_plain<const WATCH: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
    c.hides += 1;
    // The option's nodes are consecutive: walk them by pointer, and look links up by slot.
    let start: *mut Node = at!(nd, len, rr);
    let mut p = start;
    loop {
        // SAFETY: an option node is followed by more option nodes and then a spacer, all in
        // `nd`; the walk stops at the spacer.
        p = unsafe { p.add(1) };
        debug_assert!((unsafe { p.offset_from(nd) }) < len as isize);
        let node = unsafe { *p };
        if node.itm <= 0 {
            // The spacer after an option holds its size less one (set up in `with_options`).
            c.removals += u64::from(node.color as u32);
            p = at!(nd, len, node.up);
            break;
        }
        at!(nd, len, node.up).down = node.down;
        at!(nd, len, node.down).up = node.up;
        shorten::<WATCH>(at!(nd, len, node.itm), c);
    }
    while p != start {
        // SAFETY: `p` runs from the option's first node to `start`, within the option.
        let node = unsafe { *p };
        at!(nd, len, node.up).down = node.down;
        at!(nd, len, node.down).up = node.up;
        shorten::<WATCH>(at!(nd, len, node.itm), c);
        p = unsafe { p.add(1) };
    }
}

/// Decrements the length of the header `h`; when watching, notes a primary item left with no
/// option. A header's `color` is 0 for a primary item that may run out and -1 for one that
/// may not (secondary items always, and the items of the option being committed), so the
/// test is one `or` of the two fields.
#[inline(always)]
fn shorten<const WATCH: bool>(h: &mut Node, c: &mut Counters) {
    h.itm -= 1;
    if WATCH {
        c.dead |= (h.itm | h.color) == 0;
    }
}

/// `unhide` for colour-free problems: the mirror image of `hide_plain`, right to left (the
/// spacer before the option points, `down`, to its last node).
#[inline(always)]
fn unhide_plain<const TALLY: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
    // `p` points at the node of slot `nn` (the value stored in the links).
    let mut p: *mut Node = at!(nd, len, rr);
    let mut nn = rr;
    loop {
        // SAFETY: an option node is preceded by more option nodes and then a spacer, all in
        // `nd`; the walk stops at the spacer.
        p = unsafe { p.sub(1) };
        nn -= STEP;
        debug_assert!(std::ptr::eq(p, at!(nd, len, nn)));
        let node = unsafe { &*p };
        let itm = node.itm;
        if itm <= 0 {
            let last = node.down;
            if TALLY {
                c.hides += 1;
                c.removals += u64::from((last - nn) / STEP - 1);
            }
            nn = last;
            break;
        }
        let (up, down) = (node.up, node.down);
        at!(nd, len, up).down = nn;
        at!(nd, len, down).up = nn;
        at!(nd, len, itm).itm += 1;
    }
    while nn != rr {
        let node = *at!(nd, len, nn);
        at!(nd, len, node.up).down = nn;
        at!(nd, len, node.down).up = nn;
        at!(nd, len, node.itm).itm += 1;
        nn -= STEP;
    }
}

/// Puts back what `hide(rr)` removed, walking the option in the opposite direction.
#[inline(always)]
fn unhide<const COLOURS: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
    let mut nn = rr - STEP;
    while nn != rr {
        let node = *at!(nd, len, nn);
        if COLOURS && node.color < 0 {
            c.mems += 1;
            nn -= STEP;
            continue;
        }
        c.mems += 2;
        if node.itm <= 0 {
            nn = node.down;
            continue;
        }
        at!(nd, len, node.up).down = nn;
        at!(nd, len, node.down).up = nn;
        at!(nd, len, node.itm).itm += 1;
        c.mems += 4;
        nn -= STEP;
    }
}

impl Links {
    /// Links the list of the item with header `head` anew, with exactly `order` (its nodes)
    /// from top to bottom.
    fn relink(&mut self, head: u32, order: &[u32]) {
        let mut prev = head;
        for &q in order {
            self.nd[(prev / STEP) as usize].down = q;
            self.nd[(q / STEP) as usize].up = prev;
            prev = q;
        }
        self.nd[(prev / STEP) as usize].down = head;
        self.nd[(head / STEP) as usize].up = prev;
    }

    /// Takes an active option out of every list it is in (an exclusion by the visitor);
    /// returns how many nodes were removed.
    fn exclude(&mut self, first: u32) -> u64 {
        let mut p = first;
        let mut removed = 0;
        loop {
            let node = self.nd[(p / STEP) as usize];
            if node.itm <= 0 {
                return removed;
            }
            self.nd[(node.up / STEP) as usize].down = node.down;
            self.nd[(node.down / STEP) as usize].up = node.up;
            self.nd[(node.itm as u32 / STEP) as usize].itm -= 1;
            removed += 1;
            p += STEP;
        }
    }

    /// Puts back an option taken out by `exclude`, in the reverse order.
    fn include(&mut self, first: u32) {
        let mut p = first;
        while self.nd[(p / STEP) as usize].itm > 0 {
            p += STEP;
        }
        while p != first {
            p -= STEP;
            let node = self.nd[(p / STEP) as usize];
            self.nd[(node.up / STEP) as usize].down = p;
            self.nd[(node.down / STEP) as usize].up = p;
            self.nd[(node.itm as u32 / STEP) as usize].itm += 1;
        }
    }

    #[inline(always)]
    fn cover<const COLOURS: bool>(&mut self, item: u32, c: &mut Counters) {
        self.cover_watched::<COLOURS, false>(item, c);
    }

    /// `cover`, and on the colour-free path with `WATCH` the watch of `shorten`.
    #[inline(always)]
    fn cover_watched<const COLOURS: bool, const WATCH: bool>(
        &mut self,
        item: u32,
        c: &mut Counters,
    ) {
        let Link { prev, next } = *cl!(self, item);
        cl!(self, prev).next = next;
        cl!(self, next).prev = prev;
        // The colour-free path leaves counting covers to the callers (`commit_plain` counts an
        // option's at once).
        if COLOURS {
            c.mems += 4;
            c.updates += 1;
        }
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let last_itm = self.last_itm;
        let mut rr = at!(nd, len, item).down;
        while rr >= last_itm {
            // The next option of the list is read before hiding this one: hiding never
            // changes the links of `item`'s own list, and reading first keeps the list walk
            // off the critical path of the stores.
            let next = at!(nd, len, rr).down;
            if COLOURS {
                hide::<true>(nd, len, rr, c);
            } else {
                hide_plain::<WATCH>(nd, len, rr, c);
            }
            rr = next;
            if COLOURS {
                c.mems += 1;
            }
        }
    }

    #[inline(always)]
    fn uncover<const COLOURS: bool, const TALLY: bool>(&mut self, item: u32, c: &mut Counters) {
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let last_itm = self.last_itm;
        let mut rr = at!(nd, len, item).up;
        if COLOURS {
            c.mems += 1;
        }
        if TALLY {
            c.covers += 1;
        }
        while rr >= last_itm {
            let next = at!(nd, len, rr).up;
            if COLOURS {
                unhide::<true>(nd, len, rr, c);
            } else {
                unhide_plain::<TALLY>(nd, len, rr, c);
            }
            rr = next;
            if COLOURS {
                c.mems += 1;
            }
        }
        let Link { prev, next } = *cl!(self, item);
        cl!(self, prev).next = item;
        cl!(self, next).prev = item;
        if COLOURS {
            c.mems += 3;
        }
    }

    /// DLX2's `purify`: node `p` gives its secondary item colour `x`; remove every option that
    /// gives the item another colour, mark those that agree with -1.
    fn purify(&mut self, p: u32, c: &mut Counters) {
        let node = *nd!(self, p);
        let item = node.itm as u32;
        let x = node.color;
        c.mems += 1;
        c.cleansings += 1;
        self.purified[(item / STEP) as usize] = x;
        let mut rr = nd!(self, item).down;
        c.mems += 1;
        while rr >= self.last_itm {
            c.mems += 1;
            if nd!(self, rr).color != x {
                hide::<true>(self.nd.as_mut_ptr(), self.nd.len(), rr, c);
            } else if rr != p {
                c.cleansings += 1;
                c.mems += 1;
                nd!(self, rr).color = -1;
            }
            rr = nd!(self, rr).down;
            c.mems += 1;
        }
    }

    fn unpurify(&mut self, p: u32, c: &mut Counters) {
        let node = *nd!(self, p);
        let item = node.itm as u32;
        let x = node.color;
        c.mems += 1;
        self.purified[(item / STEP) as usize] = 0;
        let mut rr = nd!(self, item).up;
        c.mems += 1;
        while rr >= self.last_itm {
            c.mems += 1;
            if nd!(self, rr).color < 0 {
                nd!(self, rr).color = x;
                c.mems += 1;
            } else if rr != p {
                unhide::<true>(self.nd.as_mut_ptr(), self.nd.len(), rr, c);
            }
            rr = nd!(self, rr).up;
            c.mems += 1;
        }
    }

    /// Covers or purifies the items of the option at node `cur`, other than `cur`'s own.
    #[inline(always)]
    fn commit_others<const COLOURS: bool>(&mut self, cur: u32, c: &mut Counters) {
        if !COLOURS {
            self.commit_plain(cur, c);
            return;
        }
        let mut pp = cur + STEP;
        while pp != cur {
            let node = *nd!(self, pp);
            c.mems += 1;
            if node.itm <= 0 {
                pp = node.up;
                c.mems += 1;
            } else {
                if !COLOURS || node.color == 0 {
                    self.cover::<COLOURS>(node.itm as u32, c);
                } else if node.color > 0 {
                    self.purify(pp, c);
                }
                pp += STEP;
            }
        }
    }

    /// `commit_others` for colour-free problems: every other item of the option is covered, in
    /// two loops as in `hide_plain` (right of `cur` to the spacer, then from the option's first
    /// node back to `cur`), and the counts are taken once, from the spacer: DLX2's mems for
    /// the walk (one per node, two for the spacer) and one cover per other item.
    #[inline(always)]
    fn commit_plain(&mut self, cur: u32, c: &mut Counters) {
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let mut pp = cur + STEP;
        loop {
            let node = *at!(nd, len, pp);
            if node.itm <= 0 {
                let others = u64::from(node.color as u32);
                c.mems += others + 2;
                c.covers += others;
                pp = node.up;
                break;
            }
            self.cover::<false>(node.itm as u32, c);
            pp += STEP;
        }
        while pp != cur {
            let itm = at!(nd, len, pp).itm;
            self.cover::<false>(itm as u32, c);
            pp += STEP;
        }
    }

    /// Undoes `commit_plain(cur)`, right to left, with the same mems.
    #[inline(always)]
    fn uncommit_plain<const TALLY: bool>(&mut self, cur: u32, c: &mut Counters) {
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let mut pp = cur - STEP;
        loop {
            let node = *at!(nd, len, pp);
            if node.itm <= 0 {
                // The spacer before the option: `down` is its last node.
                c.mems += u64::from((node.down - pp) / STEP + 1);
                pp = node.down;
                break;
            }
            self.uncover::<false, TALLY>(node.itm as u32, c);
            pp -= STEP;
        }
        while pp != cur {
            let itm = at!(nd, len, pp).itm;
            self.uncover::<false, TALLY>(itm as u32, c);
            pp -= STEP;
        }
    }

    /// `commit_plain` that stops as soon as an item it covers leaves another primary item
    /// with no option (SSXCC's early abort): then it undoes what it covered and returns
    /// false, and the option is a dead end that costs no search node. The option's own items
    /// are marked (header `color` -1) first, since running out is no fault for an item the
    /// option covers anyway; `uncommit_watched` clears the marks.
    #[inline(always)]
    fn commit_watched(&mut self, cur: u32, c: &mut Counters) -> bool {
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let mut pp = self.next_in_option(cur);
        while pp != cur {
            let itm = at!(nd, len, pp).itm;
            at!(nd, len, itm).color = -1;
            pp = self.next_in_option(pp);
        }
        c.dead = false;
        let mut pp = self.next_in_option(cur);
        while pp != cur {
            let itm = at!(nd, len, pp).itm;
            self.cover_watched::<false, true>(itm as u32, c);
            c.covers += 1;
            c.mems += 1;
            if c.dead {
                // Undo: clear the marks of the items not covered, uncover the others.
                let mut q = self.next_in_option(pp);
                while q != cur {
                    let itm = at!(nd, len, q).itm;
                    at!(nd, len, itm).color = self.unmarked(itm);
                    q = self.next_in_option(q);
                }
                let mut q = pp;
                while q != cur {
                    let itm = at!(nd, len, q).itm;
                    self.uncover::<false, false>(itm as u32, c);
                    at!(nd, len, itm).color = self.unmarked(itm);
                    c.mems += 1;
                    q = self.prev_in_option(q);
                }
                c.dead = false;
                return false;
            }
            pp = self.next_in_option(pp);
        }
        true
    }

    /// Undoes a `commit_watched(cur)` that returned true, right to left, and clears its marks.
    #[inline(always)]
    fn uncommit_watched<const TALLY: bool>(&mut self, cur: u32, c: &mut Counters) {
        let len = self.nd.len();
        let nd = self.nd.as_mut_ptr();
        let mut pp = self.prev_in_option(cur);
        while pp != cur {
            let itm = at!(nd, len, pp).itm;
            self.uncover::<false, TALLY>(itm as u32, c);
            at!(nd, len, itm).color = self.unmarked(itm);
            c.mems += 1;
            pp = self.prev_in_option(pp);
        }
    }

    /// The header `color` of item `itm` when no option marks it: 0 for a primary item, -1 for
    /// a secondary one (which may run out of options).
    #[inline(always)]
    fn unmarked(&self, itm: i32) -> i32 {
        -i32::from(itm as u32 >= self.first_secondary)
    }

    /// The node after `p` in its option, circularly (past the spacer to the first node).
    #[inline(always)]
    fn next_in_option(&mut self, p: u32) -> u32 {
        let q = nd!(self, p + STEP);
        if q.itm <= 0 { q.up } else { p + STEP }
    }

    /// The node before `p` in its option, circularly (past the spacer to the last node).
    #[inline(always)]
    fn prev_in_option(&mut self, p: u32) -> u32 {
        let q = nd!(self, p - STEP);
        if q.itm <= 0 { q.down } else { p - STEP }
    }

    /// Undoes `commit_others(cur)`, right to left.
    #[inline(always)]
    fn uncommit_others<const COLOURS: bool, const TALLY: bool>(
        &mut self,
        cur: u32,
        c: &mut Counters,
    ) {
        if !COLOURS {
            self.uncommit_plain::<TALLY>(cur, c);
            return;
        }
        let mut pp = cur - STEP;
        while pp != cur {
            let node = *nd!(self, pp);
            c.mems += 1;
            if node.itm <= 0 {
                pp = node.down;
                c.mems += 1;
            } else {
                if !COLOURS || node.color == 0 {
                    self.uncover::<COLOURS, TALLY>(node.itm as u32, c);
                } else if node.color > 0 {
                    self.unpurify(pp, c);
                }
                pp -= STEP;
            }
        }
    }

    /// The active primary item of minimum length, leftmost on ties, and its length.
    #[inline(always)]
    fn best_item(&mut self, c: &mut Counters) -> (u32, i32) {
        let mut t = i32::MAX;
        let mut best = ROOT;
        let mut k = cl!(self, ROOT).next;
        c.mems += 1;
        while t != 0 && k != ROOT {
            let len = nd!(self, k).itm;
            c.mems += 1;
            if len < t {
                best = k;
                t = len;
            }
            k = cl!(self, k).next;
            c.mems += 1;
        }
        (best, t)
    }
}

/// How many options ahead [`Solver::with_options`] prefetches their entries, and how many it
/// locates at once.
const PREFETCH_AHEAD: usize = 8;
const PREFETCH_CHUNK: usize = 4096;

/// A hint to bring the cache line at `p` into the cache (nothing on other targets).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

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

/// The state of one memoised count ([`Solver::count_memo`]): the table, and per level the
/// key of the node being searched, its hash, and the count and nodes when it was entered.
struct MemoRun<'m> {
    table: &'m mut Memo,
    keys: Vec<u64>,
    tags: Vec<u64>,
    entry: Vec<(u128, u64)>,
    /// The counts taken from the table so far.
    remembered: u128,
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
    problem: &'p Problem,
    links: Links,
    has_colours: bool,
    /// Header index of each item.
    header_of_item: Vec<u32>,
    /// Item of each header index (index 0 unused).
    item_of_header: Vec<ItemId>,
    /// Option of each node (`u32::MAX` for headers and spacers).
    node_option: Vec<u32>,
    /// First node of each option, or 0 when the option was left out of this solver.
    first_node: Vec<u32>,
    /// First nodes of the forced options, in the order they were forced.
    forced: Vec<u32>,
    /// First nodes of the options the visitor excluded, in order, and where each level's
    /// exclusions start in that list (see [`Visitor::exclude`]).
    excluded: Vec<u32>,
    excluded_from: Vec<usize>,
    /// `reordered[l]`: the nodes of the item chosen at level `l` in their order before the
    /// visitor reordered them (empty if it did not), to be put back before the item is
    /// uncovered (see [`Visitor::order`]).
    reordered: Vec<Vec<u32>>,
    /// Scratch for [`Solver::order_item`]: the options as the visitor orders them, the nodes
    /// not matched yet, and the nodes in the new order.
    order_scratch: (Vec<OptionId>, Vec<u32>, Vec<u32>),
    /// `choice[l]` is the node chosen at level `l` of the current search.
    choice: Vec<u32>,
    /// Scratch for reporting solutions.
    solution: Vec<OptionId>,
    stats: Stats,
    /// Knuth's exact DLX2 tree (a node for every dead end) instead of the early abort of
    /// [`Links::commit_watched`]; see [`Solver::knuth_tree`].
    knuth: bool,
    /// Dead ends the searches of this solver found while committing (see
    /// [`Solver::dead_ends`]).
    dead_ends: u64,
}

impl<'p> Solver<'p> {
    /// A solver over all options of the problem, in input order.
    pub fn new(problem: &'p Problem) -> Solver<'p> {
        Self::with_options(problem, problem.options())
    }

    /// A solver over the given options only, inserted into the item lists in the order given.
    /// The order is the order in which each item's options are tried; leaving options out
    /// restricts the problem (symmetry breaking, sub-problems). Each option may appear once.
    pub fn with_options(problem: &'p Problem, options: impl IntoIterator<Item = OptionId>) -> Self {
        let n_items = problem.item_count();
        let mut header_of_item = vec![0u32; n_items];
        let mut item_of_header = vec![ItemId(0); n_items + 1];
        let mut h = 1u32;
        for primary in [true, false] {
            for item in problem
                .items()
                .filter(|&i| problem.is_primary(i) == primary)
            {
                header_of_item[item.0 as usize] = h;
                item_of_header[h as usize] = item;
                h += 1;
            }
        }
        let second = 1 + problem.primary_count() as u32;
        let last_itm = n_items as u32 + 1;
        // Rings: 0 <-> primaries <-> 0, and last_itm <-> secondaries <-> last_itm.
        let mut cl = vec![Link::default(); last_itm as usize + 1];
        let ring = |cl: &mut Vec<Link>, head: u32, first: u32, end: u32| {
            let mut prev = head;
            for k in first..end {
                cl[prev as usize].next = k;
                cl[k as usize].prev = prev;
                prev = k;
            }
            cl[prev as usize].next = head;
            cl[head as usize].prev = prev;
        };
        ring(&mut cl, ROOT, 1, second);
        ring(&mut cl, last_itm, second, last_itm);

        let mut nd: Vec<Node> = Vec::with_capacity(
            last_itm as usize + 1 + problem.entry_count() + problem.option_count(),
        );
        nd.push(Node::default());
        for k in 1..last_itm {
            nd.push(Node {
                up: k,
                down: k,
                itm: 0,
                // Secondary items may run out of options ([`shorten`]).
                color: if k < second { 0 } else { -1 },
            });
        }
        let mut node_option = Vec::with_capacity(nd.capacity());
        node_option.resize(last_itm as usize, u32::MAX);
        let mut first_node = vec![0u32; problem.option_count()];
        // The first spacer.
        nd.push(Node::default());
        node_option.push(u32::MAX);
        let mut spacer = last_itm;
        let mut count = 0i32;
        // An order far from the problem's (best first, say) reads the options' entries all
        // over the problem (a million options at n = 1000 queens): for a chunk of options at
        // a time, a tight first loop finds where they are, many cache misses at once, and the
        // main loop fetches each option's entries a few options ahead.
        let mut options = options.into_iter();
        let mut chunk: Vec<(OptionId, &[Entry])> = Vec::with_capacity(PREFETCH_CHUNK);
        loop {
            chunk.clear();
            chunk.extend(
                options
                    .by_ref()
                    .take(PREFETCH_CHUNK)
                    .map(|o| (o, problem.option_entries(o))),
            );
            if chunk.is_empty() {
                break;
            }
            for (i, &(opt, entries)) in chunk.iter().enumerate() {
                if let Some(&(_, ahead)) = chunk.get(i + PREFETCH_AHEAD) {
                    prefetch(ahead.as_ptr());
                }
                assert!(
                    first_node[opt.0 as usize] == 0,
                    "option {} given twice to Solver::with_options",
                    opt.0
                );
                first_node[opt.0 as usize] = spacer + 1;
                for e in entries {
                    let k = header_of_item[e.item.0 as usize];
                    let x = nd.len() as u32;
                    let up = nd[k as usize].up;
                    nd[up as usize].down = x;
                    nd[k as usize].up = x;
                    nd[k as usize].itm += 1;
                    nd.push(Node {
                        up,
                        down: k,
                        itm: k as i32,
                        color: e.colour.0 as i32,
                    });
                    node_option.push(opt.0);
                }
                let last = nd.len() as u32 - 1;
                nd[spacer as usize].down = last;
                count += 1;
                spacer = nd.len() as u32;
                nd.push(Node {
                    up: first_node[opt.0 as usize],
                    down: 0,
                    itm: -count,
                    // The option's other nodes: what hiding it removes (see `hide_plain`).
                    color: entries.len() as i32 - 1,
                });
                node_option.push(u32::MAX);
            }
        }
        // Everything above is in node indices; the links store slots (see `STEP`).
        for node in nd.iter_mut() {
            node.up *= STEP;
            node.down *= STEP;
        }
        for node in nd.iter_mut().skip(last_itm as usize + 1) {
            if node.itm > 0 {
                node.itm *= STEP as i32;
            }
        }
        let mut cl_slots = vec![Link::default(); cl.len() * STEP as usize];
        for (k, link) in cl.iter().enumerate() {
            cl_slots[k * STEP as usize] = Link {
                prev: link.prev * STEP,
                next: link.next * STEP,
            };
        }
        let cl = cl_slots;
        let last_itm = last_itm * STEP;
        for h in header_of_item.iter_mut() {
            *h *= STEP;
        }
        for f in first_node.iter_mut() {
            *f *= STEP;
        }
        Solver {
            problem,
            links: Links {
                nd,
                cl,
                last_itm,
                purified: vec![0; n_items + 1],
                first_secondary: second * STEP,
            },
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
            dead_ends: 0,
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

    /// Writes the memo key of the state between searches into `key` of
    /// [`Solver::memo_words`] words: the key [`Solver::count_memo`] gives a node with the
    /// same items open and colours set (see [`Memo`]).
    pub fn state_key(&self, key: &mut [u64]) {
        assert_eq!(key.len(), self.memo_words(), "a key of memo_words words");
        if self.has_colours {
            self.memo_key::<true>(key);
        } else {
            self.memo_key::<false>(key);
        }
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
            self.search::<true, false, false, V>(budget, visitor, None)
        } else if self.knuth {
            self.search::<false, false, false, V>(budget, visitor, None)
        } else {
            self.search::<false, false, true, V>(budget, visitor, None)
        };
        self.stats += outcome.stats;
        outcome
    }

    /// The length in u64 words of the memo keys of this solver's nodes: one bit per item,
    /// and on coloured problems 32 bits per secondary item for the colour it is purified to.
    pub fn memo_words(&self) -> usize {
        let items = self.problem.item_count();
        let colours = if self.has_colours {
            self.problem.secondary_count().div_ceil(2)
        } else {
            0
        };
        items.div_ceil(64) + colours
    }

    /// Counts all solutions, exactly, with the sub-problem counts kept in `memo` (see
    /// [`Memo`]): a node whose open items and colours were met before adds the count stored
    /// then instead of searching its subtree again. The budget's node, mem and time limits
    /// apply (a count stopped by one is a lower bound); its solution limit does not, since
    /// remembered solutions are never visited one by one. `memo` must have been made for
    /// [`Solver::memo_words`] words and used only with solvers over the same options: a key
    /// describes a state of that option set fully, so the table may serve several counts
    /// (with other forced options, say) and stays exact.
    pub fn count_memo(&mut self, budget: &Budget, memo: &mut Memo) -> Count {
        assert_eq!(
            memo.words(),
            self.memo_words(),
            "a memo made for this solver"
        );
        let budget = Budget {
            solutions: None,
            ..budget.clone()
        };
        let mut run = MemoRun {
            table: memo,
            keys: Vec::new(),
            tags: Vec::new(),
            entry: Vec::new(),
            remembered: 0,
        };
        let before = run.table.stats();
        let outcome = if self.has_colours {
            self.search::<true, true, false, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        } else if self.knuth {
            self.search::<false, true, false, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        } else {
            self.search::<false, true, true, CountOnly>(&budget, &mut CountOnly, Some(&mut run))
        };
        self.stats += outcome.stats;
        let after = run.table.stats();
        // The count: the solutions visited one by one (the statistics' `solutions`) and
        // those remembered; what the memo did in this count.
        Count {
            end: outcome.end,
            count: u128::from(outcome.stats.solutions) + run.remembered,
            stats: outcome.stats,
            memo: Some(MemoStats {
                hits: after.hits - before.hits,
                stores: after.stores - before.stores,
                evictions: after.evictions - before.evictions,
                nodes_saved: after.nodes_saved - before.nodes_saved,
                bytes: after.bytes,
            }),
            split: None,
        }
    }

    /// Writes the memo key of the current state into `key` (zeroed first): a bit per open
    /// item (primary items in the active ring; secondary items in theirs with a non-empty
    /// list or a colour), then the colours of purified secondary items.
    fn memo_key<const COLOURS: bool>(&self, key: &mut [u64]) {
        key.fill(0);
        let cl = &self.links.cl;
        let nd = &self.links.nd;
        let mut k = cl[ROOT as usize].next;
        while k != ROOT {
            let i = (k / STEP - 1) as usize;
            key[i / 64] |= 1 << (i % 64);
            k = cl[k as usize].next;
        }
        let head = self.links.last_itm;
        let first_secondary = self.problem.primary_count() + 1;
        let colour_words = self.problem.item_count().div_ceil(64);
        let mut k = cl[head as usize].next;
        while k != head {
            let h = (k / STEP) as usize;
            let i = h - 1;
            let colour = if COLOURS { self.links.purified[h] } else { 0 };
            if colour != 0 {
                let j = h - first_secondary;
                key[i / 64] |= 1 << (i % 64);
                key[colour_words + j / 2] |= u64::from(colour as u32) << (32 * (j % 2));
            } else if nd[h].itm > 0 {
                key[i / 64] |= 1 << (i % 64);
            }
            k = cl[k as usize].next;
        }
    }

    /// The memo's part of entering a node at `level`: true if its count is remembered (and
    /// then added), false if the node must be searched (its key and the counts so far are
    /// kept for [`Solver::memo_leave`]).
    fn memo_enter<const COLOURS: bool>(
        &self,
        run: &mut MemoRun<'_>,
        level: usize,
        solutions: u64,
        nodes: u64,
    ) -> bool {
        let w = run.table.words();
        if run.tags.len() <= level {
            run.tags.resize(level + 1, 0);
            run.entry.resize(level + 1, (0, 0));
            run.keys.resize((level + 1) * w, 0);
        }
        let key = &mut run.keys[level * w..(level + 1) * w];
        self.memo_key::<COLOURS>(key);
        let tag = Memo::hash(key);
        if let Some(count) = run.table.get(tag, key) {
            run.remembered += count;
            return true;
        }
        run.tags[level] = tag;
        run.entry[level] = (u128::from(solutions) + run.remembered, nodes);
        false
    }

    /// The memo's part of leaving a node at `level` whose subtree was searched in full:
    /// stores its count.
    fn memo_leave(run: &mut MemoRun<'_>, level: usize, solutions: u64, nodes: u64) {
        let w = run.table.words();
        let (count_before, nodes_before) = run.entry[level];
        let count = u128::from(solutions) + run.remembered - count_before;
        let key = &run.keys[level * w..(level + 1) * w];
        run.table
            .store(run.tags[level], key, count, nodes - nodes_before);
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

    fn view(&self, level: usize) -> View<'_> {
        View {
            solver: self,
            links: &self.links,
            level,
        }
    }

    /// Knuth's main loop (DLX2, section "Solve the problem"), with the labels as states.
    fn search<const COLOURS: bool, const MEMO: bool, const WATCH: bool, V: Visitor>(
        &mut self,
        budget: &Budget,
        visitor: &mut V,
        mut memo: Option<&mut MemoRun<'_>>,
    ) -> Outcome {
        let mut c = Counters::default();
        let mut nodes = 0u64;
        let mut solutions = 0u64;
        let base = self.forced.len() as u32;
        let mut max_level = base;
        let max_solutions = budget.solutions.unwrap_or(u64::MAX);
        let max_nodes = budget.nodes.unwrap_or(u64::MAX);
        let max_mems = budget.mems.unwrap_or(u64::MAX);
        let mut end = End::Exhausted;

        // Every primary item already covered (by forced options, or none declared): the
        // empty completion is the one solution, counted as a node as DLX1 counts solutions.
        if self.links.cl[ROOT as usize].next == ROOT {
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
        let mut level: usize = 0;
        let mut best: u32;
        let mut cur: u32;
        // Room for every level: each covers a primary item, so there are at most as many
        // levels as primary items, plus one for the level that finds a solution.
        let levels = self.problem.primary_count() + 1;
        if self.choice.len() < levels {
            self.choice.resize(levels, 0);
        }
        // Levels 0..depth hold a full cover (item and option) that an early stop must undo.
        let depth_to_unwind: usize;
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
            if nodes & 0x3ff == 0
                && let Some(e) = budget.out_of_time()
            {
                end = e;
                depth_to_unwind = level;
                break;
            }
            nodes += 1;
            let remembered = MEMO
                && self.memo_enter::<COLOURS>(
                    memo.as_deref_mut().expect("a memo run"),
                    level,
                    solutions,
                    nodes,
                );
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
                best = if V::CHOOSES {
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
                        Self::memo_leave(run, level, solutions, nodes);
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
        self.finish(c, nodes, solutions, max_level, end)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::weighted::WeightedQueens;

    /// Cuts every node off after `after` nodes, and stops the search then if `stops`.
    struct CutAfter {
        after: u64,
        entered: u64,
        stops: bool,
        solutions: u64,
    }

    impl Visitor for CutAfter {
        const PRUNES: bool = true;
        fn enter(&mut self, _view: &View<'_>) -> bool {
            self.entered += 1;
            self.entered <= self.after
        }
        fn stop(&self) -> bool {
            self.stops
        }
        fn solution(&mut self, _: &[OptionId]) -> ControlFlow<()> {
            self.solutions += 1;
            ControlFlow::Continue(())
        }
    }

    /// Branches on the rightmost active primary item instead of the shortest.
    struct Rightmost {
        solutions: u64,
    }

    impl Visitor for Rightmost {
        const CHOOSES: bool = true;
        fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
            view.active_primary().last()
        }
        fn solution(&mut self, _: &[OptionId]) -> ControlFlow<()> {
            self.solutions += 1;
            ControlFlow::Continue(())
        }
    }

    /// A visitor's choice of the branching item changes the tree, not the solutions, and
    /// leaves the solver as it found it.
    #[test]
    fn a_visitor_may_choose_the_branching_item() {
        let model = WeightedQueens::new(8);
        let mut solver = Solver::new(model.problem());
        let mrv = solver.count(&Budget::unlimited());
        let mut rightmost = Rightmost { solutions: 0 };
        let out = solver.run(&Budget::unlimited(), &mut rightmost);
        assert_eq!((out.stats.solutions, rightmost.solutions), (92, 92));
        assert_ne!(out.stats.nodes, mrv.stats.nodes);
        assert_eq!(solver.count(&Budget::unlimited()).stats, mrv.stats);
    }

    /// A visitor's stop ends the search at the node it cut off, without trying the other
    /// options of the levels above, and leaves the solver as it found it.
    #[test]
    fn a_visitor_stops_the_search_at_once() {
        let model = WeightedQueens::new(8);
        let mut solver = Solver::new(model.problem());
        for after in [0, 1, 5, 20, 100] {
            let mut stopper = CutAfter {
                after,
                entered: 0,
                stops: true,
                solutions: 0,
            };
            let out = solver.run(&Budget::unlimited(), &mut stopper);
            assert_eq!(out.end, End::Stopped, "after {after}");
            // Solutions count as nodes without being entered.
            let nodes = stopper.entered + stopper.solutions;
            assert_eq!(out.stats.nodes, nodes, "after {after}");
            assert_eq!(stopper.entered, after + 1);
            let mut cutter = CutAfter {
                after,
                entered: 0,
                stops: false,
                solutions: 0,
            };
            let out = solver.run(&Budget::unlimited(), &mut cutter);
            assert_eq!(out.end, End::Exhausted, "after {after}");
            // Cutting nodes off still enters every sibling left on the way back up.
            assert!(after == 0 || cutter.entered > after + 1, "after {after}");
            let mut all = CutAfter {
                after: u64::MAX,
                entered: 0,
                stops: true,
                solutions: 0,
            };
            let out = solver.run(&Budget::unlimited(), &mut all);
            assert_eq!(
                (out.end, all.solutions),
                (End::Exhausted, 92),
                "after {after}"
            );
        }
    }
}
