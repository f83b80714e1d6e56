//! Tests: `solve --threads` and `--shard` (issue 16). The library's split and plan (counts,
//! statistics and the order of solutions do not depend on the threads; shards add up; the
//! optimum does not depend on threads or shards), the problem fingerprint, and the real binary.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use dancelinks::engine::optimize::{Keep, Sense, Status};
use dancelinks::engine::run::{self, Plan};
use dancelinks::engine::{Budget, End, OptionId, Problem, Solver, Stats};
use dancelinks::io::dlx_format;
use proptest::prelude::*;

use crate::instances;

fn problem(text: &str) -> Problem {
    dlx_format::parse(text.as_bytes(), "test").unwrap().problem
}

fn sequential(p: &Problem) -> (Vec<Vec<OptionId>>, Stats) {
    let mut all = Vec::new();
    let o = Solver::new(p).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        all.push(s.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!(o.end, End::Exhausted);
    (all, o.stats)
}

fn plan(threads: usize, shard: Option<(usize, usize)>) -> Plan {
    Plan {
        threads,
        shard,
        ..Plan::default()
    }
}

fn list(p: &Problem, plan: Plan) -> (Vec<Vec<OptionId>>, Stats) {
    let mut all = Vec::new();
    let (o, _) = run::list(p, &plan, |s: &[OptionId]| {
        all.push(s.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!(o.end, End::Exhausted);
    (all, o.stats)
}

/// The plain count (no memo) of `p` on `plan`, with the split it used.
fn count(p: &Problem, plan: Plan) -> (run::Count, Option<dancelinks::engine::SplitInfo>) {
    let c = run::count(p, &plan);
    (c, c.split)
}

/// Solutions, nodes, updates, mems, cleansings and the maximum level all agree.
fn same_stats(a: Stats, b: Stats) {
    assert_eq!(a, b);
}

#[test]
fn threads_count_and_list_like_one_thread() {
    for text in [
        instances::queens(10, true),
        instances::queens(9, false),
        instances::langford(8),
        instances::pentominoes(3, 20, false),
    ] {
        let p = problem(&text);
        let (seq, stats) = sequential(&p);
        // The count on one thread: the bitset search where it takes the problem (queens,
        // pentominoes), else the dance (Langford pairs); on threads the same tree.
        let (one, _) = count(&p, plan(1, None));
        assert_eq!(one.count, u128::from(stats.solutions()));
        for threads in [2, 3, 5] {
            let (c, info) = count(&p, plan(threads, None));
            same_stats(c.stats, one.stats);
            let info = info.unwrap();
            assert!(
                info.subproblems >= 256 * threads || info.depth >= 2,
                "{info:?}"
            );
            let (found, s) = list(&p, plan(threads, None));
            assert_eq!(found, seq, "the solutions in the sequential order");
            same_stats(s, stats);
        }
    }
}

#[test]
fn shards_add_up_and_list_their_parts() {
    let p = problem(&instances::queens(11, true));
    let (seq, stats) = sequential(&p);
    for m in [1, 2, 7, 50] {
        let mut total = Stats::default();
        let mut found = BTreeSet::new();
        let mut tasks = 0;
        for i in 1..=m {
            let (c, info) = count(&p, plan(2, Some((i, m))));
            let info = info.unwrap();
            assert!(info.subproblems >= 4096 || info.depth >= 6, "{info:?}");
            tasks += info.mine;
            total += c.stats;
            let (l, s) = list(&p, plan(1, Some((i, m))));
            assert_eq!(s, c.stats);
            for sol in l {
                assert!(found.insert(sol), "a solution in two shards");
            }
        }
        same_stats(total, stats);
        assert_eq!(found.len(), seq.len());
        let whole = count(&p, plan(1, Some((1, 1)))).1.unwrap();
        assert_eq!(tasks, whole.parts);
    }
}

#[test]
fn fingerprints_see_the_problem_not_the_text() {
    let a = problem("| a comment\na b | x\na x:A |2\nb\n");
    let b = problem("a    b |x\n\n| another comment\na  x:A |1 |1\nb\n");
    assert_eq!(a.fingerprint(), b.fingerprint());
    assert_eq!(a.fingerprint_hex().len(), 16);
    for other in [
        "a b | x\nb\na x:A |2\n", // options in another order
        "b a | x\na x:A |2\nb\n", // items in another order
        "a b | x\na x:B |2\nb\n", // another colour
        "a b | x\na x:A |3\nb\n", // another cost
        "a b x\na x |2\nb\n",     // x primary
        "a b | y\na y:A |2\nb\n", // another name
    ] {
        assert_ne!(a.fingerprint(), problem(other).fingerprint(), "{other}");
    }
    // Fixed for all time: records written by this version must merge with those of the next.
    assert_eq!(
        problem(&instances::queens(8, true)).fingerprint(),
        problem(&instances::queens(8, true)).fingerprint()
    );
}

/// A random small problem with costs, in DLX format.
fn random_costed() -> impl Strategy<Value = String> {
    (1usize..6, 0usize..3).prop_flat_map(|(np, ns)| {
        let entry = (0..np + ns, 0usize..3);
        let option = (proptest::collection::vec(entry, 1..5), 0u32..9);
        proptest::collection::vec(option, 0..16).prop_map(move |options| {
            let mut s = String::new();
            for i in 0..np {
                s.push_str(&format!("p{i} "));
            }
            s.push('|');
            for i in 0..ns {
                s.push_str(&format!(" s{i}"));
            }
            s.push('\n');
            for (opt, cost) in options {
                let mut seen = BTreeSet::new();
                let mut line = Vec::new();
                for (item, colour) in opt {
                    if !seen.insert(item) {
                        continue;
                    }
                    line.push(match (item < np, colour) {
                        (true, _) => format!("p{item}"),
                        (false, 0) => format!("s{}", item - np),
                        (false, c) => format!("s{}:c{c}", item - np),
                    });
                }
                if line.iter().any(|n| n.starts_with('p')) {
                    s.push_str(&format!("{} |{cost}\n", line.join(" ")));
                }
            }
            s
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Threads and shards find the sequential optimum (and the top 3 values); with threads
    /// the best solution is the sequential one; a shard is optimal, and the best over the
    /// shards is the optimum.
    #[test]
    fn optimum_does_not_depend_on_threads_or_shards(text in random_costed()) {
        let p = problem(&text);
        for sense in [Sense::Minimize, Sense::Maximize] {
            for keep in [Keep::Best, Keep::Top(3)] {
                let (seq, _) = run::optimize(&p, &plan(1, None), sense, keep);
                let values = |o: &dancelinks::engine::optimize::Optimum| -> Vec<i128> {
                    o.solutions.iter().map(|s| s.value).collect()
                };
                let (par, _) = run::optimize(&p, &plan(3, None), sense, keep);
                prop_assert_eq!(par.status, seq.status);
                prop_assert_eq!(values(&par), values(&seq));
                if keep == Keep::Best {
                    // The same solution, not just the same value: the one the sequential
                    // search meets first among the optimal ones.
                    let options = |o: &dancelinks::engine::optimize::Optimum| -> Vec<Vec<OptionId>> {
                        o.solutions.iter().map(|s| s.options.clone()).collect()
                    };
                    for threads in [2, 3] {
                        let (par, _) = run::optimize(&p, &plan(threads, None), sense, keep);
                        prop_assert_eq!(options(&par), options(&seq));
                    }
                }
                for m in [1, 2, 3] {
                    let mut best: Vec<i128> = Vec::new();
                    for i in 1..=m {
                        let (s, _) = run::optimize(&p, &plan(1, Some((i, m))), sense, keep);
                        prop_assert!(matches!(s.status, Status::Optimal | Status::Infeasible));
                        best.extend(values(&s));
                    }
                    best.sort_by_key(|&v| std::cmp::Reverse(sense.value(v)));
                    best.truncate(values(&seq).len());
                    prop_assert_eq!(best, values(&seq));
                }
            }
        }
    }
}

/// Among many equally good solutions, threads report the one the sequential search reports
/// (the first it meets), run after run: every 10-queens solution costs the same under unit
/// costs, and many tie under costs 0..2.
#[test]
fn threads_report_the_sequential_solution_among_ties() {
    let text = instances::queens(10, true);
    for costs in [|_: usize| 1u32, |k: usize| (k % 3) as u32] {
        // Comments start with `|`; the first other line declares the items, the rest are
        // options, each given a cost.
        let mut costed = String::new();
        let mut lines = text.lines().filter(|l| !l.starts_with('|'));
        costed.push_str(lines.next().expect("the items line"));
        costed.push('\n');
        for (k, option) in lines.enumerate() {
            costed.push_str(&format!("{option} |{}\n", costs(k)));
        }
        let p = problem(&costed);
        for sense in [Sense::Minimize, Sense::Maximize] {
            let (seq, _) = run::optimize(&p, &plan(1, None), sense, Keep::Best);
            assert_eq!(seq.status, Status::Optimal);
            for threads in [2, 3, 4] {
                for _ in 0..3 {
                    let (par, _) = run::optimize(&p, &plan(threads, None), sense, Keep::Best);
                    assert_eq!(par.status, Status::Optimal);
                    assert_eq!(par.solutions, seq.solutions, "{threads} threads, {sense:?}");
                }
            }
        }
    }
}
