//! Statistics of a search, budgets (termination conditions) and how a search ended.

use std::ops::{Add, AddAssign};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a search did, in Knuth's terms. Statistics of several runs (threads, sub-problems,
/// shards) add up with `+=`; the maximum level is the maximum of both.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    pub(crate) solutions: u64,
    pub(crate) nodes: u64,
    pub(crate) updates: u64,
    pub(crate) mems: u64,
    pub(crate) cleansings: u64,
    pub(crate) max_level: u32,
}

impl Stats {
    /// Solutions found.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }
    /// Nodes of the search tree; a solution counts as a node, as in DLX1/DLX2.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
    /// Link updates: one per item removed from the item ring and one per node removed from
    /// an item list.
    pub fn updates(&self) -> u64 {
        self.updates
    }
    /// Memory accesses, counted where Knuth's DLX2 counts them (search only, not input).
    pub fn mems(&self) -> u64 {
        self.mems
    }
    /// Options that kept their colour when a secondary item was purified (DLX2's cleansings).
    pub fn cleansings(&self) -> u64 {
        self.cleansings
    }
    /// The deepest level reached; a solution with k options has level k.
    pub fn max_level(&self) -> u32 {
        self.max_level
    }
    /// Mems of reading the input: Knuth's `I` in `I+M mems`. xcover counts only the mems of
    /// the search (`M`, [`Stats::mems`]), so this is 0.
    pub fn input_mems(&self) -> u64 {
        0
    }
    /// Knuth's closing line of DLX1/DLX2, with `bytes` from [`structure_bytes`]:
    /// `Altogether 73712 solutions, 0+252453315 mems, 17463157 updates, 6756 bytes, 1046319 nodes.`
    pub fn knuth_line(&self, bytes: u64) -> String {
        self.knuth_line_of(self.solutions.into(), bytes)
    }
    /// [`Stats::knuth_line`] for a search that found `solutions` in all, some of them not
    /// one by one (a memoised count remembers them).
    pub fn knuth_line_of(&self, solutions: u128, bytes: u64) -> String {
        format!(
            "Altogether {} solution{}, {}+{} mems, {} updates, {} bytes, {} nodes.",
            solutions,
            if solutions == 1 { "" } else { "s" },
            self.input_mems(),
            self.mems,
            self.updates,
            bytes,
            self.nodes
        )
    }
}

/// The bytes of the data structure of a search of `problem` that reached level `max_level`,
/// counted as Knuth's DLX2 counts them (`(last_itm+1)·sizeof(item) + last_node·sizeof(node) +
/// maxl·sizeof(int)`):
///
/// - 16 bytes per item header of the item array, as DLX2's `item` (an 8-byte name and the
///   `prev`/`next` links): the N items and the two ring heads (`cl[0]`, `cl[N+1]`);
/// - 16 bytes per node of the node array (`up`, `down`, `itm`, `color`): node 0, the N
///   headers, one node per item of each option, and a spacer before, between and after the
///   options;
/// - 4 bytes per level of the `choice` array reached.
///
/// The side arrays of this implementation (the option of each node, the forced options, the
/// names kept for output) are not counted, as Knuth counts none of his.
pub fn structure_bytes(problem: &super::Problem, max_level: u32) -> u64 {
    let items = problem.item_count() as u64;
    let nodes = 1 + items + problem.entry_count() as u64 + problem.option_count() as u64 + 1;
    16 * (items + 2) + 16 * nodes + 4 * u64::from(max_level)
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.solutions += o.solutions;
        self.nodes += o.nodes;
        self.updates += o.updates;
        self.mems += o.mems;
        self.cleansings += o.cleansings;
        self.max_level = self.max_level.max(o.max_level);
    }
}

impl Add for Stats {
    type Output = Stats;
    fn add(mut self, o: Stats) -> Stats {
        self += o;
        self
    }
}

impl std::iter::Sum for Stats {
    fn sum<I: Iterator<Item = Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), |a, b| a + b)
    }
}

/// When a search stops early. Every limit is optional; `Budget::unlimited()` has none.
#[derive(Copy, Clone, Debug, Default)]
pub struct Budget {
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop when this many nodes have been visited.
    pub nodes: Option<u64>,
    /// Stop when this many mems have been spent.
    pub mems: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// No limit at all.
    pub fn unlimited() -> Budget {
        Budget::default()
    }
    /// Stop after `n` solutions.
    pub fn solutions(n: u64) -> Budget {
        Budget {
            solutions: Some(n),
            ..Budget::default()
        }
    }
    /// The same budget with a deadline `limit` from now (no deadline if the clock cannot hold it).
    pub fn with_time(mut self, limit: Duration) -> Budget {
        // A limit beyond what the clock can hold is no limit.
        self.deadline = Instant::now().checked_add(limit);
        self
    }
}

/// The process-wide request to stop: every search of the crate looks at it where it looks at
/// its deadline (every 1,024 nodes or each sub-problem, with or without a deadline) and ends
/// with [`End::Interrupted`], keeping what it has. The command line sets it on the first
/// SIGINT or SIGTERM; a library caller may set it from any thread.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop as soon as it next looks (the process-wide request).
pub fn request_stop() {
    STOP.store(true, Ordering::Relaxed);
}

/// Whether a stop was requested and not cleared since.
#[inline]
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Withdraws a stop request, so that later searches run (a library caller's next call).
pub fn clear_stop() {
    STOP.store(false, Ordering::Relaxed);
}

/// How the clock and the stop request end a search now: `Interrupted` before `TimeLimit`,
/// `None` while it may go on.
#[inline]
pub fn out_of_time(deadline: Option<Instant>) -> Option<End> {
    if stop_requested() {
        Some(End::Interrupted)
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        Some(End::TimeLimit)
    } else {
        None
    }
}

/// What running searches post for a display to read ([`PROGRESS`]): nodes entered, parts of
/// a split done of total, and for an optimisation the best gain found and a proven bound (a
/// model that knows one posts it: the engine's searches of parts and neighbourhoods do not).
/// Relaxed and approximate — a display, never a result. A caller that shows it calls
/// [`Progress::reset`] before each search.
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    parts_done: AtomicU64,
    parts_total: AtomicU64,
    /// (best gain found, root bound), in the optimiser's gains.
    optimum: Mutex<(Option<i128>, Option<i128>)>,
}

/// The process-wide progress board.
pub static PROGRESS: Progress = Progress::new();

/// A reading of [`PROGRESS`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Nodes entered so far (by the searches that post them: the optimiser).
    pub nodes: u64,
    /// Parts of a split finished.
    pub parts_done: u64,
    /// Parts of the split (0: no split).
    pub parts_total: u64,
    /// The best gain found so far.
    pub best: Option<i128>,
    /// The least bound posted, in gains.
    pub bound: Option<i128>,
}

impl Progress {
    const fn new() -> Progress {
        Progress {
            nodes: AtomicU64::new(0),
            parts_done: AtomicU64::new(0),
            parts_total: AtomicU64::new(0),
            optimum: Mutex::new((None, None)),
        }
    }

    /// Clears the board for a new search.
    pub fn reset(&self) {
        self.nodes.store(0, Ordering::Relaxed);
        self.parts_done.store(0, Ordering::Relaxed);
        self.parts_total.store(0, Ordering::Relaxed);
        *self.optimum.lock().unwrap_or_else(|e| e.into_inner()) = (None, None);
    }

    /// What the board says now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let (best, bound) = *self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        ProgressSnapshot {
            nodes: self.nodes.load(Ordering::Relaxed),
            parts_done: self.parts_done.load(Ordering::Relaxed),
            parts_total: self.parts_total.load(Ordering::Relaxed),
            best,
            bound,
        }
    }

    pub(crate) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn add_parts(&self, total: u64) {
        self.parts_total.fetch_add(total, Ordering::Relaxed);
    }

    pub(crate) fn part_done(&self) {
        self.parts_done.fetch_add(1, Ordering::Relaxed);
    }

    /// A solution of `gain` was found (the best is kept).
    pub(crate) fn offer_best(&self, gain: i128) {
        let mut o = self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        o.0 = Some(o.0.map_or(gain, |b| b.max(gain)));
    }

    /// No solution gains more than `gain` (the least is kept).
    pub(crate) fn offer_bound(&self, gain: i128) {
        let mut o = self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        o.1 = Some(o.1.map_or(gain, |b| b.min(gain)));
    }
}

/// How a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The whole tree was searched.
    Exhausted,
    /// The solution limit was reached.
    SolutionLimit,
    /// The visitor asked to stop.
    Stopped,
    /// The node budget ran out.
    NodeLimit,
    /// The mem budget ran out.
    MemLimit,
    /// The deadline passed.
    TimeLimit,
    /// A stop was requested ([`request_stop`]: Ctrl-C on the command line).
    Interrupted,
}

impl End {
    /// True when the search covered the whole tree, so counts are exact.
    pub fn is_complete(self) -> bool {
        self == End::Exhausted
    }
}

/// The result of a search: how it ended and what it did.
#[derive(Copy, Clone, Debug)]
pub struct Outcome {
    /// How the search ended.
    pub end: End,
    /// What it did.
    pub stats: Stats,
}
