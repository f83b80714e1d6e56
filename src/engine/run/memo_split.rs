//! The memoised count on threads: the top of the tree is cut into sub-problems as for a plain
//! count on threads (`parallel::Spread::split`), and each worker thread counts the
//! sub-problems it takes with **a table of its own** (of `max_bytes / threads`), kept from one
//! sub-problem to the next.
//!
//! Why a table per thread rather than one shared: a key describes a state of the whole option
//! set (the items open, the colours set), not of a sub-problem, so a thread's table stays exact
//! across all the sub-problems it counts, and neighbouring sub-problems (which rayon hands to
//! the same thread first: it splits the index range in halves) share most of their states. A
//! shared table would find the few states two threads both meet, at the price of a lock or an
//! atomic protocol on every lookup of every node.

use super::Count;
use super::threads;
use crate::engine::budget::{Budget, End};
use crate::engine::problem::Problem;
use crate::engine::search::dlx::Solver;
use crate::engine::search::memo::{Memo, MemoStats};
use crate::engine::split::{Part, Split};
use crate::engine::stats::Stats;

/// Counts the parts of `split` (all of them) on the current rayon pool of `threads` threads,
/// each worker with a solver over `problem` on the tree `knuth` names and a memo table of at
/// most `max_bytes / threads` bytes. Only the budget's deadline (and the stop request) is
/// meant to be used: node and mem limits apply per sub-problem. The statistics of the tree
/// above the cut are included; the split is the caller's to fill in.
pub(super) fn count_split_memo(
    problem: &Problem,
    knuth: bool,
    split: &Split,
    threads: usize,
    budget: &Budget,
    max_bytes: u64,
) -> Count {
    let make = || {
        let mut solver = Solver::new(problem);
        solver.knuth_tree(knuth);
        let memo = Memo::new(solver.memo_words(), max_bytes / threads.max(1) as u64);
        (solver, memo)
    };
    let budget = Budget {
        solutions: None,
        ..budget.clone()
    };
    budget.stop.progress().add_parts(split.parts.len() as u64);
    // One (solver, table) per worker thread ([`threads::deal_per_thread`]).
    let (counted, workers) =
        threads::deal_per_thread(split.parts.len(), threads, make, |(solver, memo), k| {
            let r = match &split.parts[k] {
                Part::Solution(_) => (1u128, Stats::default(), End::Exhausted),
                Part::Subproblem(prefix) => {
                    for &o in prefix {
                        solver
                            .force(o)
                            .expect("a split prefix is always consistent with its solver");
                    }
                    let out = solver.count_memo(&budget, memo);
                    solver.unforce_all();
                    (out.count, out.stats, out.end)
                }
            };
            budget.stop.progress().part_counted(r.0);
            r
        });
    let (count, stats, end) =
        counted
            .into_iter()
            .fold((0u128, Stats::default(), End::Exhausted), |a, b| {
                let end = if a.2 == End::Exhausted { b.2 } else { a.2 };
                (
                    a.0.checked_add(b.0).expect("a count below 2^128"),
                    a.1 + b.1,
                    end,
                )
            });
    let mut memo = MemoStats::default();
    for (_, table) in workers {
        memo += table.stats();
    }
    Count {
        end,
        count,
        stats: split.above(None) + stats,
        memo: Some(memo),
        split: None,
    }
}
