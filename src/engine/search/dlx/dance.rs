//! The dance: covering and uncovering items, hiding and unhiding options, on the links of
//! [`links`](super::links). Every operation has its mirror image, and a search undoes them in
//! exactly the reverse order (Knuth's "dancing"). Mems and updates are counted where they
//! happen, as in DLX2, in [`Counters`].

use super::links::{Link, Links, Node, ROOT, STEP, at, cl, nd};

/// Counters kept in registers during the hot loops, folded into
/// [`Stats`](crate::engine::Stats) at the end.
///
/// Colour-free problems (the DLX1 path) do not count mems node by node: every mem DLX2 charges
/// in `cover` and `uncover` is a fixed number per covered item, per hidden option and per
/// removed node, so the path counts those three events and derives mems and updates from
/// them at the end (`fold_plain`). Unhiding then counts nothing at all, since a complete
/// search restores exactly what it removed. The coloured path counts as DLX2 does.
#[derive(Default)]
pub(super) struct Counters {
    pub(super) mems: u64,
    pub(super) updates: u64,
    pub(super) cleansings: u64,
    /// Colour-free path: items covered, options hidden, nodes removed.
    pub(super) covers: u64,
    pub(super) hides: u64,
    pub(super) removals: u64,
    /// Set by a watching `hide_plain` when an unmarked primary item's length drops to zero:
    /// the option being committed leaves that item no option ([`Links::commit_watched`]).
    pub(super) dead: bool,
    /// Options whose commit found such a dead end (each a node of DLX2's tree that this tree
    /// does not visit).
    pub(super) dead_ends: u64,
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
    pub(super) fn mems_so_far<const COLOURS: bool>(&self) -> u64 {
        if COLOURS {
            self.mems
        } else {
            self.mems + 2 * (4 * self.covers + 3 * self.hides + 6 * self.removals)
        }
    }

    pub(super) fn fold_plain(&mut self, undone: &Counters) {
        let cover_mems = 4 * self.covers + 3 * self.hides + 6 * self.removals;
        let uncover_mems =
            cover_mems - (4 * undone.covers + 3 * undone.hides + 6 * undone.removals);
        self.mems += cover_mems + uncover_mems;
        self.updates += self.covers + self.removals;
    }
}

/// Removes the other nodes of the option containing `rr` from their item lists (the inner
/// loop of DLX2's `cover`, with its colour test: nodes marked -1 by `purify` stay put).
#[inline(always)]
pub(super) fn hide<const COLOURS: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
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
pub(super) fn hide_plain<const WATCH: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
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
pub(super) fn unhide_plain<const TALLY: bool>(
    nd: *mut Node,
    len: usize,
    rr: u32,
    c: &mut Counters,
) {
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
pub(super) fn unhide<const COLOURS: bool>(nd: *mut Node, len: usize, rr: u32, c: &mut Counters) {
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
    pub(super) fn relink(&mut self, head: u32, order: &[u32]) {
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
    pub(super) fn exclude(&mut self, first: u32) -> u64 {
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
    pub(super) fn include(&mut self, first: u32) {
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
    pub(super) fn cover<const COLOURS: bool>(&mut self, item: u32, c: &mut Counters) {
        self.cover_watched::<COLOURS, false>(item, c);
    }

    /// `cover`, and on the colour-free path with `WATCH` the watch of `shorten`.
    #[inline(always)]
    pub(super) fn cover_watched<const COLOURS: bool, const WATCH: bool>(
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
    pub(super) fn uncover<const COLOURS: bool, const TALLY: bool>(
        &mut self,
        item: u32,
        c: &mut Counters,
    ) {
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
    pub(super) fn purify(&mut self, p: u32, c: &mut Counters) {
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

    pub(super) fn unpurify(&mut self, p: u32, c: &mut Counters) {
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
    pub(super) fn commit_others<const COLOURS: bool>(&mut self, cur: u32, c: &mut Counters) {
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
    pub(super) fn commit_plain(&mut self, cur: u32, c: &mut Counters) {
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
    pub(super) fn uncommit_plain<const TALLY: bool>(&mut self, cur: u32, c: &mut Counters) {
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
    pub(super) fn commit_watched(&mut self, cur: u32, c: &mut Counters) -> bool {
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
    pub(super) fn uncommit_watched<const TALLY: bool>(&mut self, cur: u32, c: &mut Counters) {
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
    pub(super) fn unmarked(&self, itm: i32) -> i32 {
        -i32::from(itm as u32 >= self.first_secondary)
    }

    /// The node after `p` in its option, circularly (past the spacer to the first node).
    #[inline(always)]
    pub(super) fn next_in_option(&mut self, p: u32) -> u32 {
        let q = nd!(self, p + STEP);
        if q.itm <= 0 { q.up } else { p + STEP }
    }

    /// The node before `p` in its option, circularly (past the spacer to the last node).
    #[inline(always)]
    pub(super) fn prev_in_option(&mut self, p: u32) -> u32 {
        let q = nd!(self, p - STEP);
        if q.itm <= 0 { q.down } else { p - STEP }
    }

    /// Undoes `commit_others(cur)`, right to left.
    #[inline(always)]
    pub(super) fn uncommit_others<const COLOURS: bool, const TALLY: bool>(
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
    pub(super) fn best_item(&mut self, c: &mut Counters) -> (u32, i32) {
        self.best_item_keyed::<false>(c, &mut [])
    }

    /// The memoised count's key and choice in frontier order, in one walk of the ring: a bit
    /// per active primary item into `key` (zeroed before), and the item to branch on: one
    /// with no option or one (the first such: a forced move costs no branching), else the
    /// open item of least `rank` (indexed by header, `k / STEP`; see
    /// [`Solver::in_frontier_order`](super::Solver::in_frontier_order)). The walk stops at an
    /// item without options; the key is whole when the length returned is not 0.
    #[inline(always)]
    pub(super) fn frontier_item_keyed(
        &mut self,
        c: &mut Counters,
        key: &mut [u64],
        rank: &[u32],
    ) -> (u32, i32) {
        let mut forced = (ROOT, i32::MAX);
        let mut first = (ROOT, i32::MAX, u32::MAX);
        let mut k = cl!(self, ROOT).next;
        c.mems += 1;
        while forced.1 != 0 && k != ROOT {
            let i = (k / STEP - 1) as usize;
            key[i / 64] |= 1 << (i % 64);
            let len = nd!(self, k).itm;
            c.mems += 1;
            if len <= 1 {
                if len < forced.1 {
                    forced = (k, len);
                }
            } else if rank[(k / STEP) as usize] < first.2 {
                first = (k, len, rank[(k / STEP) as usize]);
            }
            k = cl!(self, k).next;
            c.mems += 1;
        }
        if forced.0 != ROOT {
            forced
        } else {
            (first.0, first.1)
        }
    }

    /// [`Links::best_item`] that, with `KEY`, also writes a bit per active primary item it
    /// walks into `key` (zeroed before): the memoised count's key and choice in one walk of
    /// the ring. The walk stops where [`Links::best_item`] stops, at an item without options;
    /// the key is whole when the length returned is not 0.
    #[inline(always)]
    pub(super) fn best_item_keyed<const KEY: bool>(
        &mut self,
        c: &mut Counters,
        key: &mut [u64],
    ) -> (u32, i32) {
        let mut t = i32::MAX;
        let mut best = ROOT;
        let mut k = cl!(self, ROOT).next;
        c.mems += 1;
        while t != 0 && k != ROOT {
            if KEY {
                let i = (k / STEP - 1) as usize;
                key[i / 64] |= 1 << (i % 64);
            }
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
