//! The front door of the engine: one plan, three searches.
//!
//! Every caller — the commands, the models, a program embedding the crate — runs a search
//! here: it [`count`]s, [`list`]s or [`optimize`]s a [`Problem`] on a [`Plan`]. The plan says
//! how, once: on how many threads, which shard of the deterministic split, on Knuth's exact
//! tree or not, with a memo of how many bytes, and within which [`Budget`] (whose [`Stop`]
//! handle stops it from outside and carries its progress). Which search runs underneath is
//! the plan's business, not the caller's:
//!
//! - a problem with multiplicities runs Algorithm M
//!   ([`MultiplicitySolver`](super::MultiplicitySolver)) on one thread;
//! - one thread without a shard runs the plain dance ([`Solver`]), or for a count of a
//!   problem with colours the sparse-set search ([`Cells`], see `count_in_cells`);
//! - threads or a shard split the tree and deal the parts out (see `parallel.rs`);
//! - a count may remember its sub-problems ([`MemoMode`], the table of `memo.rs`);
//! - an optimisation is branch and bound over the options' costs (see `optimize.rs`).
//!
//! # The default count: the policy in one table
//!
//! A count with [`MemoMode::Auto`] (the default) of a problem the bitset search ([`Dense`])
//! takes, without Knuth's tree, a shard or a limit of solutions, nodes or mems, runs the
//! *portfolio* (`portfolio.rs`): the bitset search first alone, then beside the memoised
//! search with parts in frontier order (`parts.rs`), in rounds of growing length, each
//! search resuming where it stopped, until one ends the count. Its guarantee: whatever the
//! problem, at most `2 / LEAST_SHARE` (64) times the time of the better of the two searches
//! alone, plus the first slice; about `1 + LEAST_SHARE` (1.03) times it when the searches'
//! estimates of the time they still need point at the better one. A problem that falls apart
//! into parts no option joins is first cut into them, each counted so, the smallest first. Every other count (a budget
//! of nodes, mems or solutions, `--knuth`, a shard, multiplicities, more than 16,384 options)
//! follows the rules of [`MemoMode`].
//!
//! | rule | constant | value | range | why |
//! |---|---|---|---|---|
//! | the bitset search alone first, on one thread | [`DENSE_SLICE_NODES`] | 2^12 nodes | 2^10–2^20 | small counts end before any other search starts; at 2^16 domino tilings of 8×8 took 10 ms before the memo joined, which counts them in 5 ms |
//! | the same on threads, in time | `THREADS_FIRST_SLICE` (`portfolio.rs`) | 10 ms | 1 ms–1 s | at 100 ms the memo joined too late on two threads: mixed 8×8 1.74 s against 0.82 at 10 ms (1.17 on one thread) |
//! | every search's least part of each round | `LEAST_SHARE` (`portfolio.rs`) | 1/32 | 1/256–1/4 | the guarantee's factor is 2/LEAST_SHARE; the cost when the plain search is best is LEAST_SHARE |
//! | a memoised search leads a round only if it estimates this many times less time left than the plain search | `LEAD_MARGIN` (`portfolio.rs`) | 4 | 1–16 | Knuth's estimate of the bitset search's progress runs 4× low early on pentominoes 6×10 |
//! | rounds double, the leader's turn first | — | 2× | — | a round is at most the sum of all before it: the factor 2 of the guarantee; a leader that ends the count spares the others' shares of its round |
//! | the memo table's memory | [`Plan::memo_bytes`] | 256 MiB | — | the memoised search's table |
//! | the memoised search takes at most | `PARTS_MAX_PRIMARIES` | 4,096 primary items | — | its recursion is as deep as the primary items |
//!
//! ```
//! use std::ops::ControlFlow;
//!
//! use dancelinks::engine::optimize::{Keep, Sense};
//! use dancelinks::engine::run::{self, Plan};
//! use dancelinks::engine::{Budget, ProblemBuilder, Stop};
//!
//! // Two items and three options with their costs: {a b} costs 5, {a} and {b} 1 each.
//! let mut b = ProblemBuilder::new();
//! for name in ["a", "b"] {
//!     b.primary(name).unwrap();
//! }
//! for (option, cost) in [("a b", 5), ("a", 1), ("b", 1)] {
//!     b.add_option_named(option, cost).unwrap();
//! }
//! let problem = b.build().unwrap();
//!
//! // One handle stops every search of the plan: another thread may call `stop.request()`.
//! let stop = Stop::new();
//! let plan = Plan {
//!     budget: Budget::unlimited().with_stop(&stop),
//!     ..Plan::default()
//! };
//!
//! let counted = run::count(&problem, &plan);
//! assert_eq!(counted.count, 2);
//! assert!(counted.end.is_complete());
//!
//! let mut sizes = Vec::new();
//! let (listed, _) = run::list(&problem, &plan, |options| {
//!     sizes.push(options.len());
//!     ControlFlow::Continue(())
//! });
//! assert_eq!((sizes, listed.stats.solutions()), (vec![1, 2], 2));
//!
//! let (best, _) = run::optimize(&problem, &plan, Sense::Minimize, Keep::Best);
//! assert_eq!(best.value(), Some(2));
//! ```

mod by_hand;
mod dealt;
mod names;
mod optimize_by_hand;

pub use by_hand::{Dance, shard_takes};
pub(crate) use dealt::{deal_each, deal_in_order};
pub use names::{MAX_THREADS, check_threads};
pub(crate) use optimize_by_hand::{
    BoundSplit, nothing_found, optimize_part, settled, split_for_shards,
};
pub use optimize_by_hand::{Tactics, Workers, optimize_by_hand};

use std::ops::ControlFlow;

use super::budget::{Budget, End, Outcome, Stop};
use super::memo_split::count_split_memo;
use super::optimize::{Keep, Optimum, Sense};
use super::parallel::{SplitInfo, Spread};
use super::problem::{OptionId, Problem};
use super::search::cells::Cells;
use super::search::dense::Dense;
use super::search::dlx::Solver;
use super::search::memo::{DEFAULT_MEMO_BYTES, Memo, MemoStats};
use super::stats::Stats;

/// How to run a search. The default is one thread, the whole tree, the plain search (no
/// memo, DLX1's tree for colour-free problems) and no limit.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Worker threads; 0 means all cores.
    pub threads: usize,
    /// Only part `I` of `M` (1-based) of the deterministic split.
    pub shard: Option<(usize, usize)>,
    /// Count and list on Knuth's exact DLX2 tree ([`Solver::knuth_tree`]).
    pub knuth: bool,
    /// Whether a count remembers sub-problem counts.
    pub memo: MemoMode,
    /// The memory a memo may take, in bytes.
    pub memo_bytes: u64,
    /// When the search ends, and the handle that stops it from outside.
    pub budget: Budget,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            threads: 1,
            shard: None,
            knuth: false,
            memo: MemoMode::Off,
            memo_bytes: DEFAULT_MEMO_BYTES,
            budget: Budget::unlimited(),
        }
    }
}

impl Plan {
    /// The handle that stops this plan's searches and carries their progress.
    pub fn stop(&self) -> &Stop {
        &self.budget.stop
    }

    /// The number of worker threads (0 resolved to the number of cores).
    pub fn thread_count(&self) -> usize {
        self.spread().thread_count()
    }

    /// The plan on one thread when its budget cannot be kept on its threads
    /// ([`Plan::keeps_budget`]): a solution, node or mem limit is kept exactly on one thread.
    /// A shard keeps its plan (the caller refuses such a budget for a shard).
    pub fn on_threads_that_keep_the_budget(mut self) -> Plan {
        if self.shard.is_none() && !self.keeps_budget() {
            self.threads = 1;
        }
        self
    }

    /// Whether the budget can be kept on these threads and this shard: there the budget of
    /// solutions, nodes and mems would apply to each sub-problem, not to the whole, so only a
    /// deadline is supported (the caller runs one thread without a shard instead, or
    /// refuses).
    pub fn keeps_budget(&self) -> bool {
        self.spread().supports(&self.budget)
    }

    /// The threads, shard and tree, for the split.
    fn spread(&self) -> Spread {
        Spread {
            threads: self.threads,
            shard: self.shard,
            knuth: self.knuth,
        }
    }
}

/// Whether a count remembers sub-problem counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum MemoMode {
    /// Count with the bitset search ([`Dense`], where it takes the problem) for up to
    /// [`DENSE_SLICE_NODES`] nodes on one thread first, then (if the count goes on) decide
    /// from a short probe: a memoised search of [`PROBE_NODES`] nodes (a quarter of
    /// that with the long keys of many colours) in a table of 4 MiB; the memo is
    /// kept when the probe ended the count or its hits saved more mems than the memo costs
    /// ([`MEMO_NODE_MEMS`] a node; [`DENSE_MEMO_FACTOR`] times that against the bitset
    /// search, which then resumes where it stopped), and the dance's tree is DLX2's unless
    /// the probe cut off dead ends often enough ([`DEAD_ENDS_FOR_WATCH`]).
    #[default]
    Auto,
    /// Always (on the plan's threads: a table per thread).
    On,
    /// Never: the plain search, on the plan's threads.
    Off,
}

/// What the memo costs a node of the memoised search, in mems of the plain one (measured:
/// sudoku's plain nodes of about 200 mems ran 7 times slower memoised, 6×10 pentominoes' of
/// about 12,000 mems gained from it). [`MemoMode::Auto`] keeps the memo when the probe's hits
/// saved more mems than this per node visited.
pub const MEMO_NODE_MEMS: u64 = 800;

/// The probe of [`MemoMode::Auto`], in nodes. Its cost is paid again when the memo is
/// dropped (the plain search starts over): 4,096 memoised nodes are 0.4% of Langford 12's
/// count by instruction count, and the cost grows with the probe (8,192 nodes: 0.8%),
/// while on the benchmark set the decision is the same for probes of 4,096 to 32,768 nodes
/// (pentominoes' saving per node, the closest call, 1,064 to 2,398 mems against the 800
/// the memo costs).
pub const PROBE_NODES: u64 = 1 << 12;

/// The memory of the probe's table (it may grow to the plan's `memo_bytes` afterwards, when
/// the memo is kept).
const PROBE_BYTES: u64 = 4 << 20;

/// [`MemoMode::Auto`] keeps the early abort of dead ends (the colour-free tree that commits an
/// option only when it leaves every primary item an option, [`Solver::knuth_tree`]`(false)`)
/// when the probe cut off at least one dead end per this many nodes, and takes DLX2's tree
/// otherwise. The abort costs about 37% more instructions a node (marking the option's items,
/// watching every length: 13-queens 964 against 706 a node, Langford 12 946 against 686); it
/// saves a node per dead end. Measured rates: 13-queens 0.20 a node, Langford 0.28 (DLX2's
/// tree 12% and 7% fewer instructions), pentominoes 1.8 to 2.0 (a third of DLX2's nodes).
pub const DEAD_ENDS_FOR_WATCH: u64 = 2;

/// A count, memoised or not.
#[derive(Copy, Clone, Debug)]
pub struct Count {
    /// How the search ended (a count not [`End::Exhausted`] is a lower bound).
    pub end: End,
    /// The number of solutions.
    pub count: u128,
    /// What the search did (with a memo: of the final search, probe included in `memo`).
    pub stats: Stats,
    /// What the memo did, when one was used.
    pub memo: Option<MemoStats>,
    /// The split of a plain count on threads or in a shard.
    pub split: Option<SplitInfo>,
}

impl Count {
    /// The count of a search without a memo, from its outcome.
    fn whole(outcome: Outcome, split: Option<SplitInfo>) -> Count {
        Count {
            end: outcome.end,
            count: u128::from(outcome.stats.solutions()),
            stats: outcome.stats,
            memo: None,
            split,
        }
    }
}

/// Counts the solutions of `problem` on `plan`. On threads or in a shard only the budget's
/// deadline applies ([`Plan::keeps_budget`]). A shard never uses the memo (its count must add
/// up with the other shards'); on threads the memoised count cuts the top of the tree into
/// sub-problems and each thread counts its share with a table of `memo_bytes / threads`
/// (`memo_split.rs`); a count with a solution limit or of a problem with multiplicities runs
/// without a memo.
pub fn count(problem: &Problem, plan: &Plan) -> Count {
    let budget = &plan.budget;
    if plan.memo == MemoMode::Auto
        && !plan.knuth
        && plan.shard.is_none()
        && budget.solutions.is_none()
        && budget.nodes.is_none()
        && budget.mems.is_none()
    {
        // Parts that no option joins are counted one by one, the smallest first.
        if let Some(parts) = problem.independent_parts() {
            return count_parts(parts, plan);
        }
        if let Ok(dense) = Dense::new(problem) {
            return count_by_portfolio(problem, plan, dense);
        }
    }
    let mut dense = if plan.memo == MemoMode::On && budget.solutions.is_none() {
        None
    } else {
        dense_for(problem, plan)
    };
    let mut spread = plan.spread();
    if plan.memo == MemoMode::Off
        || plan.shard.is_some()
        || budget.solutions.is_some()
        || problem.has_multiplicities()
    {
        return plain(problem, plan, &spread, dense.as_mut());
    }
    // The bitset search goes first on one thread: most counts it takes end within its first
    // slice, before any probe.
    if let Some(d) = dense.as_mut()
        && spread.is_sequential()
        && plan.memo == MemoMode::Auto
    {
        let slice = Budget {
            nodes: Some(
                budget
                    .nodes
                    .map_or(DENSE_SLICE_NODES, |n| n.min(DENSE_SLICE_NODES)),
            ),
            ..budget.clone()
        };
        let out = d.count(&slice);
        if out.end != End::NodeLimit || budget.nodes.is_some_and(|n| n <= DENSE_SLICE_NODES) {
            return Count::whole(out, None);
        }
    }
    let mut solver = Solver::new(problem);
    solver.knuth_tree(plan.knuth);
    let words = solver.memo_words();
    let mut memo = Memo::new(
        words,
        match plan.memo {
            MemoMode::Auto => plan.memo_bytes.min(PROBE_BYTES),
            _ => plan.memo_bytes,
        },
    );
    if plan.memo == MemoMode::Auto {
        // Long keys (colours: half a word per secondary item) cost a node more to hash and a
        // slot more memory: the probe is shorter and its table small, so that it stays about
        // 1% of the search it decides about (word squares, 130-word keys: 1,024 nodes in a
        // 4 MiB table; before, 8,192 nodes in 58 MB cost 8% of the count).
        let probe_nodes = (PROBE_NODES * 8 / words.max(8) as u64).max(PROBE_NODES / 4);
        let probe = Budget {
            nodes: Some(budget.nodes.map_or(probe_nodes, |n| n.min(probe_nodes))),
            ..budget.clone()
        };
        let out = solver.count_memo(&probe, &mut memo);
        memo.set_max_bytes(plan.memo_bytes);
        if out.end != End::NodeLimit || budget.nodes.is_some_and(|n| n <= probe_nodes) {
            return Count {
                end: out.end,
                count: out.count,
                stats: out.stats,
                memo: Some(out.memo),
                split: None,
            };
        }
        // The tree: DLX2's unless the early abort of dead ends pays (see
        // `DEAD_ENDS_FOR_WATCH`).
        let nodes = out.stats.nodes().max(1);
        if solver.dead_ends() < nodes / DEAD_ENDS_FOR_WATCH {
            spread.knuth = true;
            solver.knuth_tree(true);
        }
        // The memo pays when the mems its hits saved (nodes saved × the probe's mems per node)
        // exceed its own cost, about MEMO_NODE_MEMS a node visited (hashing the key, probing
        // a table that outgrows the caches); against the bitset search, whose nodes cost
        // less, DENSE_MEMO_FACTOR times that.
        let nodes = u128::from(nodes);
        let saved_mems = u128::from(out.memo.nodes_saved) * u128::from(out.stats.mems()) / nodes;
        let cost = MEMO_NODE_MEMS
            * if dense.is_some() {
                DENSE_MEMO_FACTOR
            } else {
                1
            };
        if saved_mems < nodes * u128::from(cost) {
            if let Some(d) = dense.as_mut()
                && spread.is_sequential()
            {
                return Count::whole(d.resume(budget), None);
            }
            return plain(problem, plan, &spread, dense.as_mut());
        }
    }
    if !spread.is_sequential() {
        // On threads each worker counts its sub-problems with a table of its own (the probe's
        // table is dropped: its entries are a 4,096-node search's worth).
        let (split, info) = spread.split(&mut solver);
        let out = spread.pool().install(|| {
            count_split_memo(
                problem,
                spread.knuth,
                &split,
                info.threads,
                budget,
                plan.memo_bytes,
            )
        });
        return Count {
            end: out.end,
            count: out.count,
            stats: out.stats,
            memo: Some(out.memo),
            split: Some(info),
        };
    }
    let out = solver.count_memo(budget, &mut memo);
    Count {
        end: out.end,
        count: out.count,
        stats: out.stats,
        memo: Some(memo.stats()),
        split: None,
    }
}

/// The count of a problem cut into independent parts: the product of the parts' counts,
/// each counted on `plan` (as a problem of its own: by the portfolio where the bitset search
/// takes it), the part with the fewest options first; a part without a solution ends the
/// count at once; a part cut short ends it with that part's ending (a count of 0 then, no
/// lower bound), and a product past 128 bits with [`End::Overflow`].
fn count_parts(mut parts: Vec<Problem>, plan: &Plan) -> Count {
    parts.sort_by_key(Problem::option_count);
    let mut product = 1u128;
    let mut stats = Stats::default();
    let mut memo: Option<MemoStats> = None;
    for part in &parts {
        let c = count(part, plan);
        stats += c.stats;
        if let Some(m) = c.memo {
            match memo.as_mut() {
                Some(all) => *all += m,
                None => memo = Some(m),
            }
        }
        let end = if !c.end.is_complete() {
            Some(c.end)
        } else if c.count == 0 {
            product = 0;
            break;
        } else {
            match product.checked_mul(c.count) {
                Some(p) => {
                    product = p;
                    None
                }
                None => Some(End::Overflow),
            }
        };
        if let Some(end) = end {
            stats.solutions = 0;
            return Count {
                end,
                count: 0,
                stats,
                memo,
                split: None,
            };
        }
    }
    stats.solutions = u64::try_from(product).unwrap_or(u64::MAX);
    Count {
        end: End::Exhausted,
        count: product,
        stats,
        memo,
        split: None,
    }
}

/// The default count of a problem the bitset search takes, without a limit of solutions,
/// nodes or mems: the bitset search's first [`DENSE_SLICE_NODES`] nodes on one thread, then
/// the portfolio of the plain and the memoised search (`portfolio.rs`); on threads the
/// plain search is the bitset search on the plan's threads, from the start.
fn count_by_portfolio(problem: &Problem, plan: &Plan, mut dense: Dense<'_>) -> Count {
    use super::portfolio::{self, Plain};
    let budget = &plan.budget;
    let spread = plan.spread();
    let finish = if spread.is_sequential() {
        let started = std::time::Instant::now();
        let out = dense.count(&Budget {
            nodes: Some(DENSE_SLICE_NODES),
            ..budget.clone()
        });
        if out.end != End::NodeLimit {
            return Count::whole(out, None);
        }
        portfolio::count(
            Plain::Sequential(dense, started.elapsed()),
            problem,
            plan.memo_bytes,
            budget,
        )
    } else {
        let threads = spread.thread_count();
        spread.pool().install(|| {
            let shared = super::search::dense::Shared::new(dense, threads);
            budget
                .stop
                .progress()
                .add_parts(shared.info().subproblems as u64);
            portfolio::count(Plain::Threads(shared), problem, plan.memo_bytes, budget)
        })
    };
    let f = finish;
    Count {
        end: f.end,
        count: f.count,
        stats: f.stats,
        memo: f.memo,
        split: f.split,
    }
}

/// The nodes of the bitset search ([`Dense`]) a default count runs alone, on one thread,
/// before the memoised search joins it (or, with a budget of nodes or mems, before the
/// memo's probe): a count that ends within them never pays for the memo, and one on which the
/// memo pays spends them first (domino tilings of 8×8: 10 ms at 2^16 nodes against 5 ms for
/// the whole memoised count; perfect matchings of K16: 50 ms at 2^20 against 1 ms). At 2^12
/// the memo's shares cost 13-queens and the word squares nothing measurable (0.08 s and
/// 0.22 s either way).
pub const DENSE_SLICE_NODES: u64 = 1 << 12;

/// How much more the memo must save against the bitset search than against the dance (see
/// [`MEMO_NODE_MEMS`]): a bitset node costs a third to a half of a dance node (pentominoes
/// 6×10: 1.4 µs against 2.8; MacMahon's squares 0.30 against 0.50), and a memoised one more
/// than a plain one (pentominoes 3.9 µs), so the memo must cut the tree by far more.
/// Measured: pentominoes' memo saves 1,064 to 2,398 mems a node (the bitset search wins by
/// 1.8×), perfect matchings' millions.
pub const DENSE_MEMO_FACTOR: u64 = 8;

/// The bitset search for a count on `plan`, if it takes `problem` and pays: not on Knuth's
/// tree, not in a shard (a shard's parts come from the dance's split), within
/// [`DENSE_MAX_OPTIONS`](super::DENSE_MAX_OPTIONS), and for problems with secondary items or
/// options of four items or more on average. On short options of primary items alone
/// (Langford pairs: three) a dance update costs no more than a bitset decrement and the
/// dance wins (Langford 12: 0.25 s against 0.27).
fn dense_for<'p>(problem: &'p Problem, plan: &Plan) -> Option<Dense<'p>> {
    if plan.knuth
        || plan.shard.is_some()
        || (problem.secondary_count() == 0 && problem.entry_count() < 4 * problem.option_count())
    {
        return None;
    }
    Dense::new(problem).ok()
}

/// The plain count: the bitset search when it takes the problem (on the plan's threads),
/// else the sparse-set search for colours on one thread, else the dance.
fn plain(problem: &Problem, plan: &Plan, spread: &Spread, dense: Option<&mut Dense<'_>>) -> Count {
    if let Some(d) = dense {
        if spread.is_sequential() {
            return Count::whole(d.count(&plan.budget), None);
        }
        let threads = spread.thread_count();
        let (outcome, info) = spread
            .pool()
            .install(|| super::search::dense::count_on_threads(d, threads, &plan.budget));
        return Count::whole(outcome, Some(info));
    }
    if let Some(outcome) = count_in_cells(problem, plan) {
        return Count::whole(outcome, None);
    }
    let (outcome, split) = spread.count(problem, &plan.budget);
    Count::whole(outcome, split)
}

/// The plain count of a problem with colours on one thread without a shard, unless the plan
/// asks for Knuth's tree: the sparse-set search ([`Cells`], SSXCC's rules: forced moves,
/// wipe-outs, SSXCC's tree and node count), which beats the dance on the coloured benchmark
/// set (word squares, edge matching, MacMahon's squares: 0.78 to 0.91 of its time) and loses
/// to it on the colour-free one (13-queens, Langford, pentominoes: 1.1 to 1.2), hence the
/// rule. A listing keeps the dance, whose order of solutions is the same on every number of
/// threads. `None`: the dance counts.
fn count_in_cells(problem: &Problem, plan: &Plan) -> Option<Outcome> {
    if plan.knuth || !problem.has_colours() || plan.shard.is_some() || plan.thread_count() != 1 {
        return None;
    }
    let mut cells = Cells::new(problem).ok()?;
    Some(cells.count(&plan.budget))
}

/// Reports every solution of `problem` to `sink` (its options in the order chosen), in the
/// order of the sequential search, until `sink` breaks or the budget runs out (on threads or
/// in a shard only its deadline applies). On threads at most
/// [`WINDOW_PER_THREAD`](super::WINDOW_PER_THREAD) sub-problems per thread are held ahead
/// of the output. The memo does not apply: a listing visits every solution.
pub fn list<S>(problem: &Problem, plan: &Plan, sink: S) -> (Outcome, Option<SplitInfo>)
where
    S: FnMut(&[OptionId]) -> ControlFlow<()>,
{
    plan.spread().list(problem, &plan.budget, sink)
}

/// Branch and bound over the problem's costs (DLX5's `|n`): the best solutions as `keep`
/// says, minimal or maximal as `sense` says. One thread without a shard runs the sequential
/// search; threads run workers that share the best found; a shard optimises its parts of the
/// split in turn. A problem with multiplicities cannot be optimised (the caller refuses it).
pub fn optimize(
    problem: &Problem,
    plan: &Plan,
    sense: Sense,
    keep: Keep,
) -> (Optimum, Option<SplitInfo>) {
    plan.spread()
        .optimize(problem, sense, keep, plan.budget.clone())
}
