//! When a search ends: the limits it is given ([`Budget`]), the handle through which it is
//! stopped from outside and posts its progress ([`Stop`]), and the one word for how it ended
//! ([`End`], with its statistics in an [`Outcome`]).
//!
//! # The data
//!
//! A [`Stop`] is an [`Arc`] of one small board shared by everyone who holds a clone:
//!
//! - `interrupt`, an [`AtomicBool`]: set by [`Stop::request`] from any thread (the command
//!   line's signal handler on the first SIGINT or SIGTERM, a binding's Ctrl-C), read by the
//!   searches where they read the clock, never in the inner loop of the dance;
//! - `progress`, the counters a display reads ([`Progress`]): nodes entered, parts of a split
//!   done of total, and for an optimisation the best gain found and a proven bound.
//!
//! The limits a search is given when it starts (solutions, nodes, mems, a deadline) are in
//! the [`Budget`], which carries the handle: one value says when a search ends,
//! whether from inside (a limit) or from outside (the interrupt). A search that finds the
//! interrupt set ends with [`End::Interrupted`] and keeps what it has.
//!
//! Nothing here is process-wide: two searches with two handles stop independently, and a
//! handle that nobody requests never stops anything.
//!
//! # The clock
//!
//! Reading the clock costs far more than a node of the dance, so the searches read it rarely:
//! the dance every 1,024 nodes ([`Budget::out_of_time`]), the
//! optimiser with a stride that adapts to how slow its nodes are ([`Watch`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::stats::Stats;

/// When a search stops early: the limits it starts with, every one optional
/// (`Budget::unlimited()` has none), and the [`Stop`] handle through which it is stopped from
/// outside and posts its progress. Cloning a budget clones the handle: the clone stops with
/// the original.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop when this many nodes have been visited.
    pub nodes: Option<u64>,
    /// Stop when this many mems have been spent.
    pub mems: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// The interrupt and the progress board.
    pub stop: Stop,
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
    /// The same budget stopped through `stop`.
    pub fn with_stop(mut self, stop: &Stop) -> Budget {
        self.stop = stop.clone();
        self
    }
    /// How the interrupt and the deadline end a search now: `Interrupted` before `TimeLimit`,
    /// `None` while it may go on. Reads the clock only when there is a deadline.
    #[inline]
    pub fn out_of_time(&self) -> Option<End> {
        self.stop.out_of_time(self.deadline)
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
    /// A stop was requested through the budget's [`Stop`] (Ctrl-C on the command line).
    Interrupted,
    /// The count would not fit in 128 bits: it is refused rather than wrapped.
    Overflow,
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

/// A handle to stop a search from outside and to read its progress; cheap to clone (an
/// [`Arc`]). Every clone is the same handle. The default handle is a fresh one.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<Board>);

#[derive(Debug, Default)]
struct Board {
    interrupt: AtomicBool,
    progress: Progress,
}

impl Stop {
    /// A fresh handle: not requested, progress zero.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every search that holds this handle to stop as soon as it next looks (every 1,024
    /// nodes or each sub-problem); it ends with [`End::Interrupted`], keeping what it has.
    pub fn request(&self) {
        self.0.interrupt.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was requested and not cleared since.
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.interrupt.load(Ordering::Relaxed)
    }

    /// Withdraws a request, so that the next search with this handle runs.
    pub fn clear(&self) {
        self.0.interrupt.store(false, Ordering::Relaxed);
    }

    /// The progress board of the searches that hold this handle.
    pub fn progress(&self) -> &Progress {
        &self.0.progress
    }

    /// How the interrupt and the clock end a search now: `Interrupted` before `TimeLimit`,
    /// `None` while it may go on.
    #[inline]
    pub fn out_of_time(&self, deadline: Option<Instant>) -> Option<End> {
        if self.requested() {
            Some(End::Interrupted)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(End::TimeLimit)
        } else {
            None
        }
    }
}

/// What running searches post for a display to read: nodes entered, parts of a split done of
/// total, the solutions of a count's finished parts, and for an optimisation the best gain found and a proven bound (a model that knows
/// one posts it: the engine's searches of parts and neighbourhoods do not). Relaxed and
/// approximate — a display, never a result. A caller that shows it calls [`Progress::reset`]
/// before each search.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    parts_done: AtomicU64,
    parts_total: AtomicU64,
    solutions: AtomicU64,
    /// (best gain found, root bound), in the optimiser's gains.
    optimum: Mutex<(Option<i128>, Option<i128>)>,
}

/// A reading of a [`Progress`] board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Nodes entered so far (by the searches that post them: the optimiser).
    pub nodes: u64,
    /// Parts of a split finished.
    pub parts_done: u64,
    /// Parts of the split (0: no split).
    pub parts_total: u64,
    /// Solutions counted in the parts finished (a count split into parts; saturates).
    pub solutions: u64,
    /// The best gain found so far.
    pub best: Option<i128>,
    /// The least bound posted, in gains.
    pub bound: Option<i128>,
}

impl Progress {
    /// Clears the board for a new search.
    pub fn reset(&self) {
        self.nodes.store(0, Ordering::Relaxed);
        self.parts_done.store(0, Ordering::Relaxed);
        self.parts_total.store(0, Ordering::Relaxed);
        self.solutions.store(0, Ordering::Relaxed);
        *self.optimum.lock().unwrap_or_else(|e| e.into_inner()) = (None, None);
    }

    /// What the board says now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let (best, bound) = *self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        ProgressSnapshot {
            nodes: self.nodes.load(Ordering::Relaxed),
            parts_done: self.parts_done.load(Ordering::Relaxed),
            parts_total: self.parts_total.load(Ordering::Relaxed),
            solutions: self.solutions.load(Ordering::Relaxed),
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

    /// A part of a count finished with `solutions` solutions.
    pub(crate) fn part_counted(&self, solutions: u128) {
        self.part_done();
        let s = u64::try_from(solutions).unwrap_or(u64::MAX);
        // Saturating: a display, never a result.
        let _ = self
            .solutions
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(s))
            });
    }

    /// A solution of `gain` was found (the best is kept).
    pub(crate) fn offer_best(&self, gain: i128) {
        let mut o = self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        o.0 = Some(o.0.map_or(gain, |b| b.max(gain)));
    }

    /// No solution gains more than `gain` (the least is kept).
    pub fn offer_bound(&self, gain: i128) {
        let mut o = self.optimum.lock().unwrap_or_else(|e| e.into_inner());
        o.1 = Some(o.1.map_or(gain, |b| b.min(gain)));
    }
}

/// How often a [`Watch`] reads the clock when nodes are quick (in nodes).
const CLOCK_NODES: u32 = 16;

/// Reads of the clock closer than this are quick: the stride between them may double.
const CLOCK_QUICK: Duration = Duration::from_millis(1);

/// The adaptive clock of a search whose nodes may be slow (the optimiser's: a bound over a
/// million options takes a tenth of a second, so the dance's every-1,024-nodes reading is most
/// of a second at n = 1000 queens). It reads the deadline and the interrupt every `stride`
/// nodes: 1 while nodes are slow, doubling up to [`CLOCK_NODES`] while [`CLOCK_QUICK`] passes
/// between reads. Once late it stays late. It posts the nodes it counted to the handle's
/// progress board as it reads.
#[derive(Debug)]
pub(crate) struct Watch {
    stop: Stop,
    deadline: Option<Instant>,
    /// Nodes entered since the clock was last read, and how many to enter before reading it
    /// again.
    entered: u32,
    stride: u32,
    clock_read: Option<Instant>,
    late: bool,
}

impl Default for Watch {
    /// A watch of a fresh handle without a deadline.
    fn default() -> Watch {
        Watch::new(Stop::default(), None)
    }
}

impl Watch {
    /// A watch of `stop` and `deadline`, not late.
    pub(crate) fn new(stop: Stop, deadline: Option<Instant>) -> Watch {
        Watch {
            stop,
            deadline,
            entered: 0,
            stride: 1,
            clock_read: None,
            late: false,
        }
    }

    /// The handle watched.
    pub(crate) fn stop(&self) -> &Stop {
        &self.stop
    }

    /// Whether the search was found late (without reading the clock).
    pub(crate) fn is_late(&self) -> bool {
        self.late
    }

    /// Marks the search late (a worker that must end now).
    pub(crate) fn set_late(&mut self) {
        self.late = true;
    }

    /// One node entered: whether the deadline has passed or a stop was requested (read every
    /// `stride` nodes).
    pub(crate) fn tick(&mut self) -> bool {
        if !self.late {
            self.entered += 1;
            if self.entered >= self.stride {
                self.stop.progress().add_nodes(u64::from(self.entered));
                self.entered = 0;
                if let Some(deadline) = self.deadline {
                    let now = Instant::now();
                    self.late = now >= deadline || self.stop.requested();
                    let quick = self
                        .clock_read
                        .is_some_and(|t| now.saturating_duration_since(t) < CLOCK_QUICK);
                    self.stride = if quick {
                        (self.stride * 2).min(CLOCK_NODES)
                    } else {
                        1
                    };
                    self.clock_read = Some(now);
                } else {
                    self.late = self.stop.requested();
                    self.stride = CLOCK_NODES;
                }
            }
        }
        self.late
    }
}
