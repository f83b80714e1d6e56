//! A memoised count over sets of options that splits a problem into independent parts: the
//! search the default count runs beside the plain one (see the front door, `engine::run`).
//!
//! # The data structures
//!
//! Options are numbered `0..m` as in the problem; a set of options is `words` = ⌈m/64⌉
//! `u64`s. Primary items are numbered `0..p` in the *branching order* (below); a set of them
//! is `pwords` = ⌈p/64⌉ words.
//!
//! * **`conflicts`**: row `o` is the set of options that cannot be in a solution with `o`
//!   (the bitset engine's rows, [`conflict_rows`](super::dense::conflict_rows)).
//! * **A state** is `live` (the options still possible) followed by `open` (the primary items
//!   not yet covered): `words + pwords` words, one state per level in `states`. Taking
//!   option `o` is `live ∧ ¬conflicts[o]`, `open ∧ ¬items[o]`.
//! * **The key of a state is the state itself.** Two nodes with the same live options and
//!   the same open items have the same completions, whatever the colours or secondary items
//!   that led there: the conflict rows already say everything about them. So the memo is
//!   exact on coloured problems without a word about colours.
//! * **Parts.** Per node one pass over the live options counts, for each open item, its
//!   live options (`sizes`) and joins the items of each live option in a union-find
//!   (`parent`, reset lazily by a generation stamp). The open items whose roots differ lie in
//!   parts that no live option joins: the count is the product of the parts' counts, each part
//!   counted as a state of its own (its own key, so a part met again in another context is a
//!   hit). Parts are counted smallest first, and a part without a solution ends the product at
//!   once.
//!
//! # The rules
//!
//! An open item with no live option ends the node (0). No open item: one solution. Otherwise
//! the item to branch on is the first open item in the branching order, after any item with
//! a single option left (a forced move costs no branching). The branching order is a
//! breadth-first order of the graph of primary items that share
//! an option, from an end of a longest shortest path (Cuthill and McKee's idea): on a grid
//! it sweeps the board diagonal by diagonal, so the covered cells form a staircase whose
//! edge, the only part of the board a state can differ in, stays as narrow as the board.
//!
//! # Teams on threads
//!
//! [`Parts::team`] makes one search per thread over one table shared by all
//! ([`SharedMemo`]: readers never wait, and a writer never waits either). The first member tries each
//! node's branches from the first option, the second from the last, so that they set out into
//! different sub-problems; what one stores is a hit for the other, and where their paths
//! meet the later one walks through the earlier one's counts. The first member to end has
//! the count and tells the others to stop (`team_done`: they end [`End::Stopped`]). Every
//! member's count is exact whatever the others did: a count in the table is a finished
//! sub-problem's.
//!
//! # Budgets and resuming
//!
//! The search is a recursion; a budget that runs out unwinds it, and every sub-problem
//! finished before that is in the table. Counting again with the same table resumes: the
//! path to where it stopped is walked again through hits. The unwinding also measures how
//! far the search had come ([`PartsOutcome::progress`]): Knuth's estimate of the fraction of
//! the tree done, `(k + f) / d` at a node whose `k` of `d` branches were done and whose
//! `k+1`-st was done to the fraction `f`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::memo::{Memo, MemoStats, SharedMemo, SharedMemoReader, Stored};
use crate::engine::budget::{Budget, End};
use crate::engine::problem::Problem;
use crate::engine::stats::Stats;

/// The most primary items [`Parts`] takes (its recursion is as deep as the primary items).
pub(crate) const PARTS_MAX_PRIMARIES: usize = 4096;

/// How a count by [`Parts`] ended.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PartsOutcome {
    /// How it ended.
    pub end: End,
    /// The count, exact when `end` is [`End::Exhausted`] (0 otherwise).
    pub count: u128,
    /// The estimated fraction of the tree searched (1 when exhausted).
    pub progress: f64,
    /// The nodes visited by this call.
    pub nodes: u64,
}

/// Why a recursion unwinds: the end, and how far the node had come.
struct Halt {
    end: End,
    progress: f64,
}

/// The memoised count with parts, for one problem and one table.
pub(crate) struct Parts {
    words: usize,
    pwords: usize,
    primaries: usize,
    // The problem's tables, never changed, shared by the members of a team: on a problem
    // of thousands of options they are megabytes (a 25×25 sudoku's rows: 8 MB), and a copy
    // per member cost more than the memo's share of a count.
    conflicts: Arc<[u64]>,
    /// `items[o * pwords..]`: the primary items of option `o` (branching numbering).
    items: Arc<Vec<u64>>,
    /// `with[i * words..]`: the options that contain primary item `i`.
    with: Arc<Vec<u64>>,
    /// `joins[jstart[o]..jstart[o + 1]]`: the items of option `o` for the union-find (primary
    /// items `0..p`, secondary items after them).
    jstart: Arc<Vec<u32>>,
    joins: Arc<Vec<u32>>,
    /// The first primary item of each option (branching numbering; every option has one).
    first: Arc<Vec<u32>>,
    /// One state per level (`words + pwords` words each).
    states: Vec<u64>,
    sizes: Vec<u32>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    generation: u32,
    /// The table, shared by the members of a team ([`Parts::team`]), and this search's way
    /// into it while it counts.
    memo: Arc<SharedMemo>,
    reader: Option<SharedMemoReader>,
    /// What this search did with the table (the bytes are the table's: [`Parts::memo_stats`]).
    tally: MemoStats,
    /// Branches are tried from the last option to the first (a thread of a team, so that
    /// it counts other sub-problems than its mates first).
    reversed: bool,
    /// Set when a mate of the team has the count: the others stop ([`End::Stopped`]).
    team_done: Option<Arc<AtomicBool>>,
    nodes: u64,
    max_nodes: u64,
    max_level: u32,
    hopeless: bool,
}

impl Parts {
    /// The search for `problem` with a table of at most `memo_bytes`; `None` when
    /// the problem has multiplicities, more options than the bitset engine takes or more than
    /// [`PARTS_MAX_PRIMARIES`] primary items.
    #[cfg(test)]
    pub(crate) fn new(problem: &Problem, memo_bytes: u64) -> Option<Parts> {
        Parts::with_conflicts(problem, memo_bytes, None)
    }

    /// [`Parts::new`] with the conflict rows already built (the bitset search's, which are
    /// the same: on a problem of thousands of options building them again costs more than
    /// the memo's share of a short count).
    pub(crate) fn with_conflicts(
        problem: &Problem,
        memo_bytes: u64,
        conflicts: Option<&Arc<[u64]>>,
    ) -> Option<Parts> {
        let m = problem.option_count();
        if problem.has_multiplicities() || m > super::dense::DENSE_MAX_OPTIONS {
            return None;
        }
        let primary: Vec<_> = problem.items().filter(|&i| problem.is_primary(i)).collect();
        let p = primary.len();
        if p > PARTS_MAX_PRIMARIES || p == 0 {
            return None;
        }
        let words = m.div_ceil(64).max(1);
        let pwords = p.div_ceil(64).max(1);
        // The numbering of all items for the union-find: primary ones in branching order.
        let declared: Vec<u32> = {
            let mut index = vec![u32::MAX; problem.item_count()];
            for (k, i) in primary.iter().enumerate() {
                index[i.0 as usize] = k as u32;
            }
            index
        };
        let rank = frontier_rank(problem, &declared, p);
        let mut number = vec![u32::MAX; problem.item_count()];
        let mut next_secondary = p as u32;
        for i in problem.items() {
            let d = declared[i.0 as usize];
            number[i.0 as usize] = if d != u32::MAX {
                rank[d as usize]
            } else {
                next_secondary += 1;
                next_secondary - 1
            };
        }
        let mut items = vec![0u64; m * pwords];
        let mut with = vec![0u64; p * words];
        let mut jstart = vec![0u32];
        let mut joins = Vec::new();
        let mut first = Vec::with_capacity(m);
        for o in problem.options() {
            let k = o.0 as usize;
            let mut lowest = u32::MAX;
            for e in problem.option_entries(o) {
                let x = number[e.item.0 as usize];
                joins.push(x);
                if (x as usize) < p {
                    items[k * pwords + x as usize / 64] |= 1 << (x % 64);
                    with[x as usize * words + k / 64] |= 1 << (k % 64);
                    lowest = lowest.min(x);
                }
            }
            jstart.push(joins.len() as u32);
            first.push(lowest);
        }
        let hopeless = (0..p).any(|i| with[i * words..(i + 1) * words].iter().all(|&w| w == 0));
        let conflicts = match conflicts {
            // Shared, not copied: a 25×25 sudoku's rows are 8 MB.
            Some(rows) => {
                debug_assert_eq!(rows.len(), m * words);
                Arc::clone(rows)
            }
            None => super::dense::conflict_rows(problem, words),
        };
        let n = problem.item_count();
        Some(Parts {
            words,
            pwords,
            primaries: p,
            conflicts,
            items: Arc::new(items),
            with: Arc::new(with),
            jstart: Arc::new(jstart),
            joins: Arc::new(joins),
            first: Arc::new(first),
            states: Vec::new(),
            sizes: vec![0; p],
            parent: vec![0; n],
            stamp: vec![0; n],
            generation: 0,
            memo: Arc::new(SharedMemo::new(words + pwords, memo_bytes)),
            reader: None,
            tally: MemoStats::default(),
            reversed: false,
            team_done: None,
            nodes: 0,
            max_nodes: u64::MAX,
            max_level: 0,
            hopeless,
        })
    }

    /// A team of `n` searches of the same problem for `n` threads, sharing one table of
    /// `memo_bytes`: the first tries each node's branches in order, the second in reverse
    /// (the others as the first two, alternately), so that they count different sub-problems
    /// first and each finds the others' counts in the table; the first of them to end has
    /// the count. `None` as for [`Parts::with_conflicts`].
    pub(crate) fn team(
        problem: &Problem,
        memo_bytes: u64,
        conflicts: Option<&Arc<[u64]>>,
        n: usize,
    ) -> Option<Vec<Parts>> {
        let first = Parts::with_conflicts(problem, memo_bytes, conflicts)?;
        let done = Arc::new(AtomicBool::new(false));
        let mut team: Vec<Parts> = (1..n).map(|_| first.mate()).collect();
        team.insert(0, first);
        for (k, p) in team.iter_mut().enumerate() {
            p.reversed = k % 2 == 1;
            p.team_done = Some(done.clone());
        }
        Some(team)
    }

    /// A search of the same problem over the same table, with a fresh state.
    fn mate(&self) -> Parts {
        Parts {
            words: self.words,
            pwords: self.pwords,
            primaries: self.primaries,
            conflicts: self.conflicts.clone(),
            items: self.items.clone(),
            with: self.with.clone(),
            jstart: self.jstart.clone(),
            joins: self.joins.clone(),
            first: self.first.clone(),
            states: Vec::new(),
            sizes: vec![0; self.sizes.len()],
            parent: vec![0; self.parent.len()],
            stamp: vec![0; self.stamp.len()],
            generation: 0,
            memo: self.memo.clone(),
            reader: None,
            tally: MemoStats::default(),
            reversed: false,
            team_done: None,
            nodes: 0,
            max_nodes: u64::MAX,
            max_level: 0,
            hopeless: self.hopeless,
        }
    }

    /// What the table did so far for the team of `members` (over one table): their hits
    /// and stores added up, the table's bytes once.
    pub(crate) fn memo_stats(members: &[Parts]) -> Option<MemoStats> {
        let first = members.first()?;
        let mut all = MemoStats {
            bytes: first.memo.stats().bytes,
            ..MemoStats::default()
        };
        for p in members {
            all += MemoStats {
                bytes: 0,
                ..p.tally
            };
        }
        Some(all)
    }

    /// The statistics of every count so far (nodes, the deepest level).
    pub(crate) fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            max_level: self.max_level,
            ..Stats::default()
        }
    }

    /// Counts the solutions within `budget` (its node limit counts this call's nodes; its
    /// solution and mem limits do not apply). Called again after a budget ran out, it resumes
    /// through the table. A count past `u128` ends [`End::Overflow`].
    pub(crate) fn count(&mut self, budget: &Budget) -> PartsOutcome {
        let start = self.nodes;
        self.max_nodes = budget.nodes.map_or(u64::MAX, |n| start.saturating_add(n));
        let state = self.words + self.pwords;
        if self.states.len() < state * 2 {
            self.states.resize(state * 2, 0);
        }
        // The root: every option live, every primary item open.
        let m = self.conflicts.len() / self.words;
        let (live, open) = self.states[..state].split_at_mut(self.words);
        fill_ones(live, m);
        fill_ones(open, self.primaries);
        // Inside the table while counting: the tables it reads stay allocated.
        self.reader = Some(self.memo.enter());
        let result = if self.hopeless {
            Ok(0)
        } else {
            self.node(0, budget)
        };
        self.reader = None;
        let nodes = self.nodes - start;
        if result.is_ok()
            && let Some(done) = &self.team_done
        {
            done.store(true, Ordering::Relaxed);
        }
        match result {
            Ok(count) => PartsOutcome {
                end: End::Exhausted,
                count,
                progress: 1.0,
                nodes,
            },
            Err(halt) => PartsOutcome {
                end: halt.end,
                count: 0,
                progress: halt.progress,
                nodes,
            },
        }
    }

    /// The way into the table, while counting.
    fn reader(&self) -> &SharedMemoReader {
        self.reader
            .as_ref()
            .expect("inside the table while counting")
    }

    /// The state of level `d`.
    fn state(&self, d: usize) -> &[u64] {
        let s = self.words + self.pwords;
        &self.states[d * s..(d + 1) * s]
    }

    /// Makes room for level `d + 1` and returns (level `d`, level `d + 1`).
    fn two_states(&mut self, d: usize) -> (&[u64], &mut [u64]) {
        let s = self.words + self.pwords;
        if self.states.len() < (d + 2) * s {
            self.states.resize((d + 2) * s, 0);
        }
        let (a, b) = self.states.split_at_mut((d + 1) * s);
        (&a[d * s..], &mut b[..s])
    }

    fn find(&mut self, mut x: u32) -> u32 {
        if self.stamp[x as usize] != self.generation {
            self.stamp[x as usize] = self.generation;
            self.parent[x as usize] = x;
            return x;
        }
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    /// Counts the completions of the state at level `d`.
    fn node(&mut self, d: usize, budget: &Budget) -> Result<u128, Halt> {
        let (w, pw) = (self.words, self.pwords);
        if self.nodes >= self.max_nodes {
            return Err(Halt {
                end: End::NodeLimit,
                progress: 0.0,
            });
        }
        // The clock every 8 nodes: a memoised node costs a pass over the live options (a
        // microsecond or two on a sudoku, tens of microseconds on thousands of options), and
        // the portfolio's turns may be a fraction of a millisecond; a reading of the clock
        // costs a few hundredths of a microsecond.
        if self.nodes & 0x7 == 0
            && let Some(end) = budget.out_of_time().or_else(|| {
                self.team_done
                    .as_ref()
                    .is_some_and(|d| d.load(Ordering::Relaxed))
                    .then_some(End::Stopped)
            })
        {
            return Err(Halt { end, progress: 0.0 });
        }
        self.nodes += 1;
        self.max_level = self.max_level.max(d as u32);
        let state_len = w + pw;
        let base = d * state_len;
        let state = &self.states[base..base + state_len];
        if state[w..].iter().all(|&x| x == 0) {
            return Ok(1);
        }
        let tag = Memo::hash(state);
        if let Some((count, cost)) = self.reader().get(tag, state) {
            self.tally.hits += 1;
            self.tally.nodes_saved = self.tally.nodes_saved.saturating_add(cost);
            return Ok(count);
        }
        let before = self.nodes;

        // One pass over the live options: the sizes of the open items, and the parts.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        for k in 0..pw {
            let mut bits = self.states[base + w + k];
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.sizes[i] = 0;
            }
        }
        for k in 0..w {
            let mut bits = self.states[base + k];
            while bits != 0 {
                let o = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (s, e) = (self.jstart[o] as usize, self.jstart[o + 1] as usize);
                let r0 = self.find(self.joins[s]);
                for j in s..e {
                    let x = self.joins[j];
                    if (x as usize) < self.primaries {
                        self.sizes[x as usize] += 1;
                    }
                    if j > s {
                        let r = self.find(x);
                        if r != r0 {
                            // Union: the later root points at the first item's root.
                            let r0 = self.find(r0);
                            self.parent[r as usize] = r0;
                        }
                    }
                }
            }
        }
        // Wipe-outs, the branching item, and whether the open items are in one part.
        let mut forced = u32::MAX;
        let mut root = u32::MAX;
        let mut parts = false;
        for k in 0..pw {
            let mut bits = self.states[base + w + k];
            while bits != 0 {
                let i = (k * 64 + bits.trailing_zeros() as usize) as u32;
                bits &= bits - 1;
                let size = self.sizes[i as usize];
                if size == 0 {
                    return Ok(0);
                }
                if size == 1 && forced == u32::MAX {
                    forced = i;
                }
                let r = self.find(i);
                if root == u32::MAX {
                    root = r;
                } else if r != root {
                    parts = true;
                }
            }
        }
        let count = if parts {
            self.parts(d, budget)?
        } else {
            let item = if forced != u32::MAX {
                forced
            } else {
                first_bit(&self.states[base + w..base + w + pw])
            };
            self.branch(d, item as usize, budget)?
        };
        // Level d's state, untouched by the levels below, is the key.
        let cost = self.nodes - before;
        let key = &self.states[base..base + state_len];
        let stored = self.reader().store(tag, key, count, cost);
        self.tally.stores += 1;
        self.tally.evictions += u64::from(stored == Stored::Replaced);
        Ok(count)
    }

    /// Tries each live option of `item` at level `d`.
    fn branch(&mut self, d: usize, item: usize, budget: &Budget) -> Result<u128, Halt> {
        let (w, pw) = (self.words, self.pwords);
        let total = self.sizes[item] as f64;
        let mut sum = 0u128;
        let mut done = 0usize;
        for j in 0..w {
            let k = if self.reversed { w - 1 - j } else { j };
            let mut bits = self.state(d)[k] & self.with[item * w + k];
            while bits != 0 {
                let o = if self.reversed {
                    let b = 63 - bits.leading_zeros() as usize;
                    bits &= !(1u64 << b);
                    k * 64 + b
                } else {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    k * 64 + b
                };
                let (row, its) = (o * w, o * pw);
                let conflicts = &self.conflicts[row..row + w];
                let items = &self.items[its..its + pw];
                let s = self.words + self.pwords;
                if self.states.len() < (d + 2) * s {
                    self.states.resize((d + 2) * s, 0);
                }
                let (a, b) = self.states.split_at_mut((d + 1) * s);
                let (from, to) = (&a[d * s..], &mut b[..s]);
                for j in 0..w {
                    to[j] = from[j] & !conflicts[j];
                }
                for j in 0..pw {
                    to[w + j] = from[w + j] & !items[j];
                }
                match self.node(d + 1, budget) {
                    Ok(c) => match sum.checked_add(c) {
                        Some(s) => sum = s,
                        None => return Err(Parts::overflowed()),
                    },
                    Err(h) => {
                        return Err(Halt {
                            end: h.end,
                            progress: (done as f64 + h.progress) / total,
                        });
                    }
                }
                done += 1;
            }
        }
        Ok(sum)
    }

    /// Counts the parts of the state at level `d` (found by the union-find of [`Parts::node`])
    /// each as a state of its own, smallest first, and multiplies.
    fn parts(&mut self, d: usize, budget: &Budget) -> Result<u128, Halt> {
        let (w, pw) = (self.words, self.pwords);
        let s = w + pw;
        // Each part's state: its live options (those whose first item is in it) and open items.
        let mut roots: Vec<u32> = Vec::new();
        let mut part_states: Vec<u64> = Vec::new();
        let mut part_sizes: Vec<(u32, usize)> = Vec::new();
        let here = self.state(d).to_vec();
        for k in 0..pw {
            let mut bits = here[w + k];
            while bits != 0 {
                let i = (k * 64 + bits.trailing_zeros() as usize) as u32;
                bits &= bits - 1;
                let r = self.find(i);
                let j = match roots.iter().position(|&x| x == r) {
                    Some(j) => j,
                    None => {
                        roots.push(r);
                        part_states.resize(part_states.len() + s, 0);
                        roots.len() - 1
                    }
                };
                part_states[j * s + w + k] |= 1 << (i % 64);
            }
        }
        for k in 0..w {
            let mut bits = here[k];
            while bits != 0 {
                let o = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let r = self.find(self.first[o]);
                // An option whose items are all open lies in the part of its first item.
                if let Some(j) = roots.iter().position(|&x| x == r) {
                    part_states[j * s + k] |= 1 << (o % 64);
                }
            }
        }
        for j in 0..roots.len() {
            let live: usize = part_states[j * s..j * s + w]
                .iter()
                .map(|x| x.count_ones() as usize)
                .sum();
            part_sizes.push((live as u32, j));
        }
        part_sizes.sort_unstable();
        let total = part_sizes.len() as f64;
        // A product past 128 bits is an overflow only if no later part has no solution (nor
        // a part whose own count overflowed: its completions are many, but the product may
        // still be 0).
        let mut product = Some(1u128);
        for (done, &(_, j)) in part_sizes.iter().enumerate() {
            {
                let (_, to) = self.two_states(d);
                to.copy_from_slice(&part_states[j * s..(j + 1) * s]);
            }
            match self.node(d + 1, budget) {
                Ok(0) => return Ok(0),
                Ok(c) => product = product.and_then(|p| p.checked_mul(c)),
                Err(h) if h.end == End::Overflow => product = None,
                Err(h) => {
                    return Err(Halt {
                        end: h.end,
                        progress: (done as f64 + h.progress) / total,
                    });
                }
            }
        }
        product.ok_or_else(Parts::overflowed)
    }

    /// The halt of a count past `u128` (reported, never wrapped).
    fn overflowed() -> Halt {
        Halt {
            end: End::Overflow,
            progress: 0.0,
        }
    }
}

/// Sets the first `n` bits of `set` and clears the rest.
fn fill_ones(set: &mut [u64], n: usize) {
    for (k, x) in set.iter_mut().enumerate() {
        let lo = k * 64;
        *x = if n >= lo + 64 {
            !0
        } else if n > lo {
            (1u64 << (n - lo)) - 1
        } else {
            0
        };
    }
}

/// The index of the lowest set bit of a non-empty set.
fn first_bit(set: &[u64]) -> u32 {
    for (k, &x) in set.iter().enumerate() {
        if x != 0 {
            return (k * 64) as u32 + x.trailing_zeros();
        }
    }
    unreachable!("a non-empty set")
}

/// The branching order: for each primary item (by its index among
/// the primary items, `declared`), its rank in a breadth-first order of the graph of primary
/// items that share an option, started from an end of a longest shortest path (found by two
/// sweeps), neighbours taken in declaration order; each part of the graph in turn.
fn frontier_rank(problem: &Problem, declared: &[u32], p: usize) -> Vec<u32> {
    // The graph as one array of neighbour lists (`adjacent[start[a]..start[a + 1]]`, sorted,
    // no repeats), built in two passes over the options: a list per item would cost an
    // allocation or more per item and per option, a tenth of a millisecond on a sudoku —
    // half the memo's share of a short count.
    let primaries_of = |o| {
        problem
            .option_entries(o)
            .iter()
            .map(|e| declared[e.item.0 as usize])
            .filter(|&x| x != u32::MAX)
    };
    let mut start = vec![0usize; p + 1];
    for o in problem.options() {
        let n = primaries_of(o).count();
        for a in primaries_of(o) {
            start[a as usize + 1] += n - 1;
        }
    }
    for a in 0..p {
        start[a + 1] += start[a];
    }
    let mut adjacent = vec![0u32; start[p]];
    let mut fill = start.clone();
    for o in problem.options() {
        for a in primaries_of(o) {
            for b in primaries_of(o) {
                if a != b {
                    adjacent[fill[a as usize]] = b;
                    fill[a as usize] += 1;
                }
            }
        }
    }
    // Sorted without repeats, each list moved down to its new start.
    let mut end = 0;
    for a in 0..p {
        let (from, to) = (start[a], start[a + 1]);
        adjacent[from..to].sort_unstable();
        start[a] = end;
        let mut last = u32::MAX;
        for k in from..to {
            let b = adjacent[k];
            if b != last {
                adjacent[end] = b;
                end += 1;
                last = b;
            }
        }
    }
    start[p] = end;
    let neighbours = |x: usize| &adjacent[start[x]..start[x + 1]];
    let bfs = |start: u32, seen: &mut Vec<bool>, out: &mut Vec<u32>| {
        let from = out.len();
        seen[start as usize] = true;
        out.push(start);
        let mut k = from;
        while k < out.len() {
            let x = out[k] as usize;
            k += 1;
            for &y in neighbours(x) {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    out.push(y);
                }
            }
        }
    };
    let mut rank = vec![u32::MAX; p];
    let mut order: Vec<u32> = Vec::with_capacity(p);
    let mut placed = vec![false; p];
    for s in 0..p as u32 {
        if placed[s as usize] {
            continue;
        }
        // Two sweeps: the last item reached from `s`, then the last reached from that one.
        let mut end = s;
        for _ in 0..2 {
            let mut seen = placed.clone();
            let mut sweep = Vec::new();
            bfs(end, &mut seen, &mut sweep);
            end = *sweep.last().expect("the start itself");
        }
        bfs(end, &mut placed, &mut order);
    }
    for (r, &x) in order.iter().enumerate() {
        rank[x as usize] = r as u32;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::cells::tests::random_problem;
    use crate::engine::{Dense, ProblemBuilder};
    use crate::random::SplitMix64;

    fn count(problem: &Problem) -> u128 {
        let mut parts = Parts::new(problem, 1 << 20).expect("taken");
        let out = parts.count(&Budget::unlimited());
        assert_eq!(out.end, End::Exhausted);
        out.count
    }

    /// Thousands of random problems (colours, secondary items): the count is the bitset
    /// search's, and a count resumed after node limits of every size is too.
    #[test]
    fn random_problems_agree_with_the_bitset_search() {
        let mut rng = SplitMix64::new(47);
        for _ in 0..2000 {
            let problem = random_problem(&mut rng);
            let Ok(mut dense) = Dense::new(&problem) else {
                continue;
            };
            let want = u128::from(dense.count(&Budget::unlimited()).stats.solutions());
            let Some(mut parts) = Parts::new(&problem, 1 << 16) else {
                continue;
            };
            assert_eq!(count(&problem), want);
            // Slices that grow, as the portfolio's do (a slice shorter than the way back to
            // where the last one stopped would make no progress).
            let mut slice = 1 + rng.below(5);
            loop {
                let out = parts.count(&Budget {
                    nodes: Some(slice),
                    ..Budget::default()
                });
                slice += slice / 2 + 1;
                if out.end == End::Exhausted {
                    assert_eq!(out.count, want);
                    break;
                }
                assert_eq!(out.end, End::NodeLimit);
                assert!((0.0..=1.0).contains(&out.progress));
            }
        }
    }

    /// Blocks that share no item: the count is the product of theirs, and a block without a
    /// solution makes it 0.
    #[test]
    fn independent_blocks_multiply() {
        // k blocks, each "cover a, b, c by {a b}, {c}, {a}, {b c}": 2 solutions each.
        let blocks = |k: usize, dead: Option<usize>| {
            let mut b = ProblemBuilder::new();
            for i in 0..k {
                for x in ["a", "b", "c"] {
                    b.primary(&format!("{x}{i}")).unwrap();
                }
            }
            for i in 0..k {
                let mut opts = vec!["a b", "c", "a", "b c"];
                if dead == Some(i) {
                    opts = vec!["a b", "a c"];
                }
                for o in opts {
                    let named: Vec<String> = o.split(' ').map(|x| format!("{x}{i}")).collect();
                    b.add_option_named(&named.join(" "), 0).unwrap();
                }
            }
            b.build().unwrap()
        };
        let p = blocks(40, None);
        assert_eq!(count(&p), 1 << 40);
        let p = blocks(40, Some(17));
        assert_eq!(count(&p), 0);
        // 2^130 does not fit: the count says so, never wraps.
        let p = blocks(130, None);
        let mut parts = Parts::new(&p, 1 << 20).unwrap();
        assert_eq!(parts.count(&Budget::unlimited()).end, End::Overflow);
    }

    /// Domino tilings of n×n: the cells primary, one option per domino.
    fn dominoes(n: usize) -> Problem {
        let mut b = ProblemBuilder::new();
        for r in 0..n {
            for c in 0..n {
                b.primary(&format!("{r}.{c}")).unwrap();
            }
        }
        for r in 0..n {
            for c in 0..n {
                if c + 1 < n {
                    b.add_option_named(&format!("{r}.{c} {r}.{}", c + 1), 0)
                        .unwrap();
                }
                if r + 1 < n {
                    b.add_option_named(&format!("{r}.{c} {}.{c}", r + 1), 0)
                        .unwrap();
                }
            }
        }
        b.build().unwrap()
    }

    /// A team of two or three on threads, sharing one table and stopped by node limits of
    /// every size and resumed, counts what one search counts, on random problems and on a
    /// grid where the table does most of the work; its members split the nodes.
    #[test]
    fn a_team_on_threads_counts_what_one_counts() {
        let run = |team: &mut Vec<Parts>, budget: &Budget| -> Vec<PartsOutcome> {
            std::thread::scope(|s| {
                let handles: Vec<_> = team
                    .iter_mut()
                    .map(|p| s.spawn(move || p.count(budget)))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            })
        };
        let mut rng = SplitMix64::new(4747);
        for case in 0..600 {
            let problem = if case == 0 {
                dominoes(10)
            } else {
                random_problem(&mut rng)
            };
            let Some(_) = Parts::new(&problem, 1 << 16) else {
                continue;
            };
            let want = count(&problem);
            let n = 2 + case % 2;
            let mut team = Parts::team(&problem, 1 << 20, None, n).unwrap();
            let mut slice = 1 + rng.below(50);
            let got = loop {
                let outs = run(
                    &mut team,
                    &Budget {
                        nodes: Some(slice),
                        ..Budget::default()
                    },
                );
                slice *= 2;
                if let Some(o) = outs.iter().find(|o| o.end == End::Exhausted) {
                    break o.count;
                }
                for o in &outs {
                    assert!(
                        matches!(o.end, End::NodeLimit | End::Stopped),
                        "{:?}",
                        o.end
                    );
                }
            };
            assert_eq!(got, want, "case {case}");
            if case == 0 {
                let nodes: Vec<u64> = team.iter().map(|p| p.stats().nodes()).collect();
                assert!(
                    nodes.iter().all(|&k| k > 0),
                    "every member worked: {nodes:?}"
                );
            }
        }
    }
}
