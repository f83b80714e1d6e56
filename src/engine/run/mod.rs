//! The front door of the engine: one plan, three searches.
//!
//! Every caller — the commands, the models, a program embedding the crate — runs a search
//! here: it [`count`]s, [`list`]s or [`optimize`]s a [`Problem`] on a [`Plan`]. The plan says
//! how, once: on how many threads, which shard of the deterministic split, on Knuth's exact
//! tree or not, with a memo of how many bytes, and within which [`Budget`] (whose [`Stop`]
//! handle stops it from outside and carries its progress). Which search runs underneath is
//! the plan's business, not the caller's:
//!
//! - a problem with multiplicities runs Algorithm M ([`MultiplicitySolver`]), its count on the
//!   plan's threads (its tree cut into parts by paths), its listing on one thread;
//! - a count runs what `choose` decides (below);
//! - a listing runs the dance ([`Solver`]), on one thread or with its tree split and the
//!   parts dealt to threads or shards (`parallel.rs`, `threads.rs`);
//! - a count may remember its sub-problems ([`MemoMode`], the table of `search/memo.rs`);
//! - an optimisation is branch and bound over the options' costs (see `optimize.rs`).
//!
//! # Which search: `choose.rs`
//!
//! Which search a count runs — the links dance on DLX1's or DLX2's tree, Algorithm M, the
//! sparse-set search ([`Cells`]), the bitset search ([`Dense`]), the portfolio
//! of the bitset search and the memoised one, the memoised dance, or independent parts one
//! by one — is decided once, by `choose::choose`, whose module doc holds every rule and tuning constant
//! of that choice in one table. The default ([`MemoMode::Auto`]) runs the portfolio on
//! problems the bitset search takes. Threads are started in one place, `threads.rs`, which
//! deals the parts of a search's tree to them.
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
pub(crate) mod choose;
mod dealt;
mod memo_split;
mod names;
mod optimize_by_hand;
mod paired;
mod parallel;
mod portfolio;
pub(crate) mod threads;

pub use crate::engine::count::{Count, SplitInfo};
/// A search by hand cuts its tree into [`Part`]s ([`Dance::split`]): a shard's work is one
/// part of that split.
pub use crate::engine::split::{Part, Split};
pub use by_hand::{Dance, shard_takes};
pub use choose::{
    ALONE_NODES, DEAD_ENDS_FOR_WATCH, DENSE_MEMO_FACTOR, DENSE_SLICE_NODES, MEMO_NODE_MEMS,
    PROBE_NODES, TRAILER_SHARE, WINDOW_PER_THREAD,
};
pub(crate) use dealt::{deal_each, deal_in_order};
pub use names::{MAX_THREADS, check_threads};
pub(crate) use optimize_by_hand::{
    BoundSplit, nothing_found, optimize_part, settled, split_for_shards,
};
pub use optimize_by_hand::{Tactics, Workers, optimize_by_hand};

use std::ops::ControlFlow;

use super::budget::{Budget, End, Outcome, Stop};
use super::optimize::{Keep, Optimum, Sense};
use super::problem::{OptionId, Problem};
use super::stats::Stats;
use crate::engine::search::Search;
use crate::engine::search::cells::Cells;
use crate::engine::search::dense::{Dense, DenseWalk};
use crate::engine::search::dlx::Solver;
use crate::engine::search::memo::{DEFAULT_MEMO_BYTES, Memo, MemoStats};
use crate::engine::search::multiplicity::MultiplicitySolver;
use choose::{Choice, Opener};
use memo_split::count_split_memo;
use parallel::Spread;

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

/// Counts the solutions of `problem` on `plan`, by the search `choose::choose` picks. On
/// threads or in a shard only the budget's deadline applies ([`Plan::keeps_budget`]). A shard
/// never uses the memo (its count must add up with the other shards'); on threads the
/// memoised count cuts the top of the tree into sub-problems and each thread counts its share
/// with a table of `memo_bytes / threads` (`memo_split.rs`); a count with a solution limit or
/// of a problem with multiplicities runs without a memo.
pub fn count(problem: &Problem, plan: &Plan) -> Count {
    match choose::choose(problem, plan) {
        Choice::Parts(parts) => count_parts(parts, plan),
        Choice::Portfolio(opener) => count_by_portfolio(problem, plan, opener),
        Choice::Plain(search) => plain(problem, plan, &plan.spread(), search),
        Choice::Memo { dense, probe } => count_memo(problem, plan, dense, probe),
    }
}

/// The tree whose nodes a count on a plan posts to the plan's progress board
/// ([`ProgressSnapshot::nodes`](crate::engine::ProgressSnapshot)) while its plain search
/// runs, for Knuth's probes to estimate ([`crate::engine::estimate`]): a display's share of
/// the tree done.
pub enum CountTree<'p> {
    /// The bitset search's tree, walked on its tables.
    Dense(Box<DenseWalk<'p>>),
    /// The dance's.
    Links {
        /// DLX2's tree (every option a child:
        /// [`SolverWalk::new`](crate::engine::estimate::SolverWalk::new)), else the one
        /// without the options that leave an item no option
        /// ([`SolverWalk::without_wipe_outs`](crate::engine::estimate::SolverWalk::without_wipe_outs)).
        knuth: bool,
    },
}

/// The tree a count of `problem` on `plan` posts the nodes of, as `choose` decides the
/// search: the bitset search's (alone, on threads, or as the portfolio's plain search: while
/// the memoised search leads, the nodes stop moving), the dance's (plain, on the plan's
/// threads). `None` where the nodes posted are of no one tree: a problem cut into independent
/// parts, the memoised dance (whose probe may switch trees), the sparse-set search and
/// Algorithm M (which post none).
pub fn count_tree<'p>(problem: &'p Problem, plan: &Plan) -> Option<CountTree<'p>> {
    match choose::choose(problem, plan) {
        Choice::Portfolio(Opener::Dance(_)) => Dense::new(problem)
            .ok()
            .map(|dense| CountTree::Dense(Box::new(dense.into_walk()))),
        Choice::Portfolio(Opener::Dense(dense))
        | Choice::Plain(choose::Plain::Dense(dense))
        | Choice::Memo {
            dense: Some(dense), ..
        } => Some(CountTree::Dense(Box::new(dense.into_walk()))),
        Choice::Plain(choose::Plain::Dance) => Some(CountTree::Links {
            knuth: plan.knuth || problem.has_colours(),
        }),
        _ => None,
    }
}

/// The memoised dance of [`Choice::Memo`]: with `probe` ([`MemoMode::Auto`]) the bitset
/// search's first slice on one thread, then the probe that decides the memo and the tree.
fn count_memo(problem: &Problem, plan: &Plan, mut dense: Option<Dense<'_>>, probe: bool) -> Count {
    let budget = &plan.budget;
    let mut spread = plan.spread();
    // The bitset search goes first on one thread: most counts it takes end within its first
    // slice, before any probe.
    if let Some(d) = dense.as_mut()
        && spread.is_sequential()
        && probe
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
        if probe {
            plan.memo_bytes.min(choose::PROBE_BYTES)
        } else {
            plan.memo_bytes
        },
    );
    if probe {
        let probe_nodes = choose::probe_nodes(words);
        let probe = Budget {
            nodes: Some(budget.nodes.map_or(probe_nodes, |n| n.min(probe_nodes))),
            ..budget.clone()
        };
        let out = solver.count_memo(&probe, &mut memo);
        memo.set_max_bytes(plan.memo_bytes);
        if out.end != End::NodeLimit || budget.nodes.is_some_and(|n| n <= probe_nodes) {
            return out;
        }
        let saved = out.memo.map_or(0, |m| m.nodes_saved);
        let nodes = out.stats.nodes().max(1);
        if choose::knuth_after_probe(solver.dead_ends(), nodes) {
            spread.knuth = true;
            solver.knuth_tree(true);
        }
        if !choose::memo_pays(saved, out.stats.mems(), nodes, dense.is_some()) {
            if let Some(d) = dense.as_mut()
                && spread.is_sequential()
            {
                return Count::whole(d.resume(budget), None);
            }
            return plain(problem, plan, &spread, choose::plain(problem, plan, dense));
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
            split: Some(info),
            ..out
        };
    }
    let out = solver.count_memo(budget, &mut memo);
    // The table's whole work, the probe's included.
    Count {
        memo: Some(memo.stats()),
        ..out
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
/// nodes or mems: the bitset search alone first (on one thread its first
/// [`DENSE_SLICE_NODES`] nodes, whose rest becomes the parts, [`rest_of`]; on threads its
/// first [`ALONE_NODES`], then the parts of a cut from the root, [`parts_of`]), then the
/// portfolio (`portfolio.rs`) of the two plain searches over the parts ([`PlainPair`]) and
/// the memoised search. Where the bitset search's tables are large, the memoised dance opens
/// the count alone on the calling thread ([`Opener::Dance`]), and may go on in the portfolio.
fn count_by_portfolio<'p>(problem: &'p Problem, plan: &Plan, opener: Opener<'p>) -> Count {
    use portfolio::First;
    let budget = &plan.budget;
    let spread = plan.spread();
    let (mut dense, opened) = match opener {
        Opener::Dense(dense) => (dense, None),
        Opener::Dance(buy) => {
            match portfolio::open_with_dance(problem, plan.memo_bytes, budget, buy) {
                Ok(count) => return count,
                Err(opened) => (
                    Dense::new(problem).expect("its tables were sized: it takes the problem"),
                    opened,
                ),
            }
        }
    };
    if spread.is_sequential() {
        let started = std::time::Instant::now();
        let out = dense.count(&Budget {
            nodes: Some(DENSE_SLICE_NODES),
            ..budget.clone()
        });
        if out.end != End::NodeLimit {
            return Count::whole(out, None);
        }
        let shared = rest_of(dense, problem);
        let first = First::Done(started.elapsed());
        return portfolio::count(shared, first, problem, plan.memo_bytes, budget, opened);
    }
    if let Some(count) = first_alone(&mut dense, budget) {
        return count;
    }
    let pair = PlainPair::new(dense, second_for(problem));
    let threads = spread.thread_count();
    spread.pool().install(|| {
        let shared = parts_of(pair, threads, budget);
        let first = First::Run(choose::THREADS_FIRST_SLICE);
        portfolio::count(shared, first, problem, plan.memo_bytes, budget, opened)
    })
}

/// The rest of `dense`'s count, stopped by its budget, as parts for the plain searches on
/// one thread ([`Dense::rest`]: nothing is counted twice, and no cut is walked).
fn rest_of<'p>(dense: Dense<'p>, problem: &'p Problem) -> threads::Shared<PlainPair<'p>> {
    let (prefixes, weights): (Vec<_>, Vec<_>) = dense.rest().into_iter().unzip();
    let depth = prefixes.iter().map(Vec::len).max().unwrap_or(0);
    let (above, done) = (Dense::stats(&dense), dense.progress());
    let pair = PlainPair::new(dense, second_for(problem));
    threads::Shared::with_parts(pair, prefixes, weights, above, done, depth, 1)
}

/// The two plain searches over a tree's parts (`paired.rs`): the bitset search, which cuts the
/// tree, and the sparse-set search when it takes the problem.
pub(crate) type PlainPair<'p> = paired::Paired<Dense<'p>, Cells<'p>>;

/// The second plain search, when it takes the problem (no multiplicities, within its size).
fn second_for<'p>(problem: &'p Problem) -> Option<Cells<'p>> {
    Cells::new(problem).ok()
}

/// The bitset search's first [`ALONE_NODES`] nodes, alone: the count when it ends within them
/// (a small count pays for no cut, no second search and no memo), else `None` and the rest is
/// counted again from the root by the parts.
fn first_alone(dense: &mut Dense<'_>, budget: &Budget) -> Option<Count> {
    let out = dense.count(&Budget {
        nodes: Some(ALONE_NODES),
        ..budget.clone()
    });
    (out.end != End::NodeLimit).then(|| Count::whole(out, None))
}

/// `pair`'s tree cut into parts for `threads` threads (at least
/// [`dense_target`](choose::dense_target)), posted to the progress board.
fn parts_of<'p>(
    pair: PlainPair<'p>,
    threads: usize,
    budget: &Budget,
) -> threads::Shared<PlainPair<'p>> {
    let shared = threads::Shared::new(pair, threads, choose::dense_target(threads));
    budget
        .stop
        .progress()
        .add_parts(shared.info().subproblems as u64);
    shared
}

/// The plain count by `search` (the bitset search and Algorithm M on the plan's threads, the
/// sparse-set search on one thread, the dance on `spread`).
fn plain<'p>(
    problem: &'p Problem,
    plan: &Plan,
    spread: &Spread,
    search: choose::Plain<'p>,
) -> Count {
    match search {
        choose::Plain::Dense(mut d) => {
            // The bitset search alone, so that a plain count's statistics are the same on
            // every run and on any number of threads (the pair of plain searches is the
            // default count's).
            if spread.is_sequential() {
                return Count::whole(d.count(&plan.budget), None);
            }
            let threads = spread.thread_count();
            let (outcome, info) = spread.pool().install(|| {
                threads::count_on_threads(d, threads, choose::dense_target(threads), &plan.budget)
            });
            Count::whole(outcome, Some(info))
        }
        choose::Plain::Cells(mut cells) => {
            Count::whole(Search::count(&mut cells, &plan.budget), None)
        }
        choose::Plain::Multiplicities => {
            let mut m = MultiplicitySolver::new(problem);
            if spread.is_sequential() {
                return Count::whole(Search::count(&mut m, &plan.budget), None);
            }
            let threads = spread.thread_count();
            let (outcome, info) = spread.pool().install(|| {
                threads::count_on_threads(m, threads, choose::dense_target(threads), &plan.budget)
            });
            Count::whole(outcome, Some(info))
        }
        choose::Plain::Dance => {
            let (outcome, split) = spread.count(problem, &plan.budget);
            Count::whole(outcome, split)
        }
    }
}

/// Reports every solution of `problem` to `sink` (its options in the order chosen), in the
/// order of the sequential search, until `sink` breaks or the budget runs out (on threads or
/// in a shard only its deadline applies). On threads at most
/// [`WINDOW_PER_THREAD`] sub-problems per thread are held ahead
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
