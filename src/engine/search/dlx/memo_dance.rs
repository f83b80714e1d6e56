//! The memo's part of the dance: the key of a node (the items still open and the colours
//! set), what the memoised count (`memo_count.rs`) does on entering and leaving a node with a
//! table of sub-problem counts ([`Memo`]): a node met before adds its stored count instead of
//! searching its subtree again; and where a count in turns stopped (a [`Point`], the
//! [`MemoPath`] of keys: [`Suspended`] in the solver).

use super::links::{Links, ROOT, STEP};
use crate::engine::problem::Problem;
use crate::engine::search::memo::Memo;

/// The memoised count keeps the counts of the nodes that branch, whose item has at least
/// this many options. A node whose item has none counts 0, found again by the walk that
/// chooses its item (as cheap as the key's); a node whose item has one counts what its only
/// child counts, and the child is the node kept (or, not branching either, passes the
/// question on). A sub-problem met again at a node that does not branch is entered, and its
/// forced options walked down to the first node that branches, where the table answers:
/// more nodes (domino tilings 12×12: 78,207 against 74,023), fewer stores (21,995 against
/// 52,053) and a smaller table. It spares the key's hash, the table's probe and its store
/// on most of a sudoku's nodes and a tiling's. One thread, `--memo on`, alternating rounds,
/// against a memo at every node: a 25×25 sudoku of 325 clues 23.4 → 17.1 ms (DLX2's tree
/// 15.7), domino tilings 12×12 86 → 33 ms and 16×16 2.01 → 1.11 s, the Aztec diamond of
/// order 8 68 → 41 ms, lozenge tilings of the hexagon 4,5,6 14.1 → 9.1 ms, mixed tilings
/// 7×7 2.44 → 2.14 s; matchings of K18 and independent blocks the same.
pub(super) const MEMO_LEAST_OPTIONS: i32 = 2;

/// The tag of a level whose node the memo passed by ([`Memo::hash`] is never 0).
const PASSED: u64 = 0;

/// The state of one memoised count (`Solver::count_memo`): the table, and the path of
/// nodes being searched ([`MemoPath`]).
pub(super) struct MemoRun<'m> {
    pub(super) table: &'m mut Memo,
    pub(super) path: MemoPath,
}

/// Per level the key of the node being searched, its hash, and the count, the nodes and the
/// table's nodes saved when it was entered; and the counts taken from the table so far. A
/// count stopped to be resumed (`Solver::count_memo_resumable`) keeps it until it goes on.
#[derive(Default)]
pub(super) struct MemoPath {
    keys: Vec<u64>,
    tags: Vec<u64>,
    entry: Vec<(u128, u64, u64)>,
    pub(super) remembered: u128,
}

/// The length in u64 words of the memo keys of a solver's nodes on `problem`: one bit per item,
/// and on coloured problems 32 bits per secondary item for the colour it is purified to.
pub(super) fn words(problem: &Problem, has_colours: bool) -> usize {
    let items = problem.item_count();
    let colours = if has_colours {
        problem.secondary_count().div_ceil(2)
    } else {
        0
    };
    items.div_ceil(64) + colours
}

/// Writes the memo key of the current state into `key` (zeroed first): a bit per open
/// item (primary items in the active ring; secondary items in theirs with a non-empty
/// list or a colour), then the colours of purified secondary items.
pub(super) fn write_key<const COLOURS: bool>(links: &Links, problem: &Problem, key: &mut [u64]) {
    key.fill(0);
    let cl = &links.cl;
    let mut k = cl[ROOT as usize].next;
    while k != ROOT {
        let i = (k / STEP - 1) as usize;
        key[i / 64] |= 1 << (i % 64);
        k = cl[k as usize].next;
    }
    write_secondary_key::<COLOURS>(links, problem, key);
}

/// The secondary items' part of the memo key (see [`write_key`]), added to `key`.
fn write_secondary_key<const COLOURS: bool>(links: &Links, problem: &Problem, key: &mut [u64]) {
    let cl = &links.cl;
    let nd = &links.nd;
    let head = links.last_itm;
    // The header index of the first secondary item (the primaries are 1..first_secondary).
    let first_secondary = (links.first_secondary / STEP) as usize;
    let colour_words = problem.item_count().div_ceil(64);
    let mut k = cl[head as usize].next;
    while k != head {
        let h = (k / STEP) as usize;
        let i = h - 1;
        let colour = if COLOURS { links.purified[h] } else { 0 };
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

impl<'m> MemoRun<'m> {
    /// A memoised count's state on `table` going on along `path`.
    pub(super) fn on_path(table: &'m mut Memo, path: MemoPath) -> MemoRun<'m> {
        MemoRun { table, path }
    }

    /// The key of the node at `level`, zeroed, for its primary items to be written by the
    /// walk that chooses its item ([`Links::best_item_keyed`]).
    pub(super) fn key_at(&mut self, level: usize) -> &mut [u64] {
        let w = self.table.words();
        let path = &mut self.path;
        if path.tags.len() <= level {
            path.tags.resize(level + 1, 0);
            path.entry.resize(level + 1, (0, 0, 0));
            path.keys.resize((level + 1) * w, 0);
        }
        let key = &mut path.keys[level * w..(level + 1) * w];
        key.fill(0);
        key
    }

    /// The memo's part of entering a node at `level` whose primary items' part of the key
    /// [`MemoRun::key_at`] holds: true if its count is remembered (and then added), false if
    /// the node must be searched (its key and the counts so far are kept for
    /// [`MemoRun::leave`]).
    pub(super) fn enter<const COLOURS: bool>(
        &mut self,
        links: &Links,
        problem: &Problem,
        level: usize,
        solutions: u64,
        nodes: u64,
    ) -> bool {
        let w = self.table.words();
        let path = &mut self.path;
        let key = &mut path.keys[level * w..(level + 1) * w];
        write_secondary_key::<COLOURS>(links, problem, key);
        let tag = Memo::hash(key);
        if let Some(count) = self.table.get(tag, key) {
            path.remembered += count;
            return true;
        }
        path.tags[level] = tag;
        path.entry[level] = (
            u128::from(solutions) + path.remembered,
            nodes,
            self.table.stats().nodes_saved,
        );
        false
    }

    /// A node at `level` the memo passes by (its count is not kept): [`MemoRun::leave`]
    /// stores nothing for it.
    pub(super) fn pass(&mut self, level: usize) {
        self.path.tags[level] = PASSED;
    }

    /// The memo's part of leaving a node at `level` whose subtree was searched in full:
    /// stores its count, and its cost: the nodes of its subtree as the plain dance would
    /// search it, those visited and those the hits below it spared. So a hit on it spares
    /// the plain tree's nodes, nested hits included, and the nodes saved add up with the
    /// nodes visited to the plain dance's tree (a 16×16 sudoku: 1.75 M visited and 26.5 M
    /// saved, against the plain tree's 28.3 M). Counted as the memoised search's own nodes
    /// only, a hit below hits spared a fraction of that, and a table that cut the tree to a
    /// sixth looked as if it had not halved it (`bigsud16a`: 512,667 saved against 550,860
    /// visited, the plain tree 3.4 M).
    pub(super) fn leave(&mut self, level: usize, solutions: u64, nodes: u64) {
        let w = self.table.words();
        let path = &self.path;
        if path.tags[level] == PASSED {
            return;
        }
        let (count_before, nodes_before, saved_before) = path.entry[level];
        let count = u128::from(solutions) + path.remembered - count_before;
        let key = &path.keys[level * w..(level + 1) * w];
        let spared = self.table.stats().nodes_saved - saved_before;
        let cost = (nodes - nodes_before).saturating_add(spared);
        self.table.store(path.tags[level], key, count, cost);
    }
}

/// The point where a resumable search stopped: at the top of a level, about to enter its
/// node, with the counters of the whole count so far (levels `0..level` covered).
#[derive(Clone, Copy, Debug)]
pub(super) struct Point {
    pub(super) level: usize,
    pub(super) nodes: u64,
    pub(super) solutions: u64,
    pub(super) max_level: u32,
}

/// How a search starts, and what a stop by the budget does.
#[derive(Clone, Copy)]
pub(super) enum Resume {
    /// From the root; a stop unwinds every level (the solver is as it was).
    No,
    /// From the root; a stop by the budget's nodes, mems or clock leaves the levels covered
    /// and notes where in [`Solver::stopped`].
    Root,
    /// From a point where a resumable search stopped, as [`Resume::Root`].
    At(Point),
}

/// A memoised count stopped to be resumed: where, and its path of keys.
pub(super) struct Suspended {
    pub(super) point: Point,
    pub(super) path: MemoPath,
}
