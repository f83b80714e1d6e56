//! The family of solutions against brute force: on thousands of small random problems, every
//! question asked of the diagram (count, marginals, including, excluding, the k best, samples,
//! iteration, save and load) agrees with the list of solutions the plain search gives.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use dancelinks::engine::family::{Direction, Family};
use dancelinks::engine::{Budget, OptionId, Problem, ProblemBuilder, Solver};
use proptest::prelude::*;

/// A random problem: 2 to 6 primary items, 0 to 2 secondary ones (coloured entries), 1 to
/// 14 options of 1 to 4 items.
fn problem() -> impl Strategy<Value = Problem> {
    (2usize..7, 0usize..3).prop_flat_map(|(primary, secondary)| {
        let option = (
            0..primary,
            proptest::collection::vec(0..primary, 0..3),
            proptest::collection::vec((0..secondary.max(1), 0u8..3), 0..2),
        );
        proptest::collection::vec(option, 1..15).prop_map(move |options| {
            let mut b = ProblemBuilder::new();
            for i in 0..primary {
                b.primary(&format!("p{i}")).unwrap();
            }
            for i in 0..secondary {
                b.secondary(&format!("s{i}")).unwrap();
            }
            for (first, more, sec) in options {
                let mut items = vec![first];
                items.extend(more.into_iter().filter(|&i| i != first));
                items.sort_unstable();
                items.dedup();
                let mut spec: Vec<String> = items.iter().map(|i| format!("p{i}")).collect();
                if secondary > 0 {
                    let mut seen = Vec::new();
                    for (s, colour) in sec {
                        if !seen.contains(&s) {
                            seen.push(s);
                            spec.push(match colour {
                                0 => format!("s{s}"),
                                c => format!("s{s}:{}", ["A", "B"][c as usize - 1]),
                            });
                        }
                    }
                }
                b.add_option_named(&spec.join(" "), 0).unwrap();
            }
            b.build().unwrap()
        })
    })
}

fn set(s: &[OptionId]) -> Vec<u32> {
    let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
    v.sort_unstable();
    v
}

/// Every solution of the plain search, as sorted option sets.
fn brute(problem: &Problem) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    Solver::new(problem).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        all.push(set(s));
        ControlFlow::Continue(())
    });
    all.sort();
    all
}

fn family_sets(f: &Family) -> Vec<Vec<u32>> {
    let mut v: Vec<Vec<u32>> = f.iter().map(|s| set(&s)).collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn every_question_agrees_with_brute_force(
        problem in problem(),
        picks in proptest::collection::vec(0u32..64, 0..3),
        raw_weights in proptest::collection::vec(-5i64..6, 14),
        k in 1usize..6,
        seed in 0u64..1000,
    ) {
        let all = brute(&problem);
        let f = Family::build(&problem, 1 << 24, &mut || false).unwrap();
        let options = problem.option_count();
        // Count and iteration.
        prop_assert_eq!(f.count().unwrap(), all.len() as u128);
        prop_assert_eq!(family_sets(&f), all.clone());
        // Ranks are iteration order.
        let listed: Vec<Vec<OptionId>> = f.iter().collect();
        for (r, s) in listed.iter().enumerate() {
            prop_assert_eq!(f.solution(r as u128).unwrap(), Some(s.clone()));
        }
        prop_assert_eq!(f.solution(all.len() as u128).unwrap(), None);
        // Marginals.
        let mut m = vec![0u128; options];
        for s in &all {
            for &o in s {
                m[o as usize] += 1;
            }
        }
        prop_assert_eq!(f.marginals().unwrap(), m);
        // Including and excluding some options.
        let picked: Vec<OptionId> =
            picks.iter().map(|&p| OptionId(p % options as u32)).collect();
        let has = |s: &Vec<u32>, o: &OptionId| s.contains(&o.0);
        let inc: Vec<Vec<u32>> =
            all.iter().filter(|s| picked.iter().all(|o| has(s, o))).cloned().collect();
        let exc: Vec<Vec<u32>> =
            all.iter().filter(|s| !picked.iter().any(|o| has(s, o))).cloned().collect();
        let fi = f.including(&picked).unwrap();
        let fe = f.excluding(&picked).unwrap();
        prop_assert_eq!(fi.count().unwrap(), inc.len() as u128);
        prop_assert_eq!(family_sets(&fi), inc);
        prop_assert_eq!(fe.count().unwrap(), exc.len() as u128);
        prop_assert_eq!(family_sets(&fe), exc);
        // The derived diagrams keep the shape of a built one.
        for g in [&fi, &fe] {
            let mut seen = std::collections::HashSet::new();
            for (id, n) in g.nodes() {
                prop_assert!(n.hi < id && n.lo < id && n.hi != 0);
                prop_assert!(seen.insert(n));
            }
        }
        // The k best, both ways: values of the brute-force order, ties in rank order.
        let weights: Vec<i64> = (0..options).map(|o| raw_weights[o % 14]).collect();
        let value = |s: &[OptionId]| s.iter().map(|o| weights[o.0 as usize]).sum::<i64>();
        for direction in [Direction::Maximize, Direction::Minimize] {
            let mut ranked: Vec<(i64, usize, Vec<OptionId>)> = listed
                .iter()
                .enumerate()
                .map(|(r, s)| (value(s), r, s.clone()))
                .collect();
            ranked.sort_by(|a, b| match direction {
                Direction::Maximize => b.0.cmp(&a.0).then(a.1.cmp(&b.1)),
                Direction::Minimize => a.0.cmp(&b.0).then(a.1.cmp(&b.1)),
            });
            let expected: Vec<(i64, Vec<OptionId>)> =
                ranked.into_iter().take(k).map(|(v, _, s)| (v, s)).collect();
            prop_assert_eq!(f.best(&weights, k, direction).unwrap(), expected);
        }
        // Samples: solutions, reproducible.
        let draws = f.sample(20, seed).unwrap();
        prop_assert_eq!(draws.len(), if all.is_empty() { 0 } else { 20 });
        for d in &draws {
            prop_assert!(all.binary_search(&set(d)).is_ok());
        }
        prop_assert_eq!(f.sample(20, seed).unwrap(), draws);
        // Save and load.
        let mut text = Vec::new();
        dancelinks::io::zdd_text::write_family(&mut text, &f, |o| {
            (o.0 as usize + 1, problem.format_option(o))
        }).unwrap();
        let back = dancelinks::io::zdd_text::read(&text[..], 1 << 24).unwrap();
        prop_assert_eq!(back.family.iter().collect::<Vec<_>>(), listed);
    }
}

/// Samples are uniform: on a problem with solutions of very different subtrees, the draws of
/// each solution stay within 5 standard deviations of the mean.
#[test]
fn samples_cover_the_solutions_evenly() {
    let mut b = ProblemBuilder::new();
    for name in ["A", "p1", "p2", "p3", "p4"] {
        b.primary(name).unwrap();
    }
    b.add_option_named("A p1 p2 p3 p4", 0).unwrap();
    b.add_option_named("A", 0).unwrap();
    for mask in 1..16u32 {
        let spec: Vec<String> = (0..4)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| format!("p{}", i + 1))
            .collect();
        b.add_option_named(&spec.join(" "), 0).unwrap();
    }
    let problem = b.build().unwrap();
    let f = Family::build(&problem, 1 << 20, &mut || false).unwrap();
    assert_eq!(f.count(), Ok(16));
    let mut seen: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
    for s in f.sample(16_000, 3).unwrap() {
        *seen.entry(set(&s)).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 16);
    // Mean 1000, standard deviation about 31.
    assert!(
        seen.values().all(|&c| (845..=1155).contains(&c)),
        "{seen:?}"
    );
}

/// Weighted n-queens two ways: the best of the family of all n-queens solutions under the
/// board's weights (option r·n + c is the queen on (r, c)) and `queens max`'s optimiser, on
/// random boards of fixed seeds, n = 4 to 10; the number of optimal layouts too (the k best
/// with k the count, cut where the value drops).
#[test]
fn the_best_queens_of_the_family_are_queens_max() {
    use dancelinks::models::{Model, queens::Queens};
    use dancelinks::queens::weighted::{Method, Request, WeightedQueens, random_boards};
    for n in 4..=10 {
        let q = Queens::new(n).unwrap();
        let f = Family::build(q.problem(), 1 << 28, &mut || false).unwrap();
        let count = f.count().unwrap() as usize;
        let mut model = WeightedQueens::new(n);
        for (t, board) in random_boards(n, 3, 100 + n as u64, 0, 9).iter().enumerate() {
            let r = model.solve(
                board,
                &Request {
                    keep: dancelinks::engine::optimize::Keep::AllOptimal { limit: usize::MAX },
                    method: Method::Enumerate,
                    threads: 1,
                    ..Request::default()
                },
            );
            let all = f.best(board, count, Direction::Maximize).unwrap();
            assert_eq!(all.len(), count);
            let best = all[0].0;
            assert_eq!(Some(i128::from(best)), r.maximum(), "n={n} board {t}");
            let optimal = all.iter().take_while(|(v, _)| *v == best).count();
            assert_eq!(Some(optimal as u64), r.optimal_count, "n={n} board {t}");
            // Each of the family's optimal solutions is one of the optimiser's layouts.
            let layouts: std::collections::BTreeSet<Vec<u32>> =
                r.layouts.iter().map(|l| l.queens.clone()).collect();
            for (_, s) in all.iter().take(optimal) {
                let mut files = vec![0u32; n];
                for o in s {
                    files[o.0 as usize / n] = o.0 % n as u32;
                }
                assert!(layouts.contains(&files), "n={n} board {t}: {files:?}");
            }
        }
    }
}

/// The generator of the property test makes problems with solutions, often several: a test
/// over problems without any would check little.
#[test]
fn the_random_problems_have_solutions() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut some, mut many) = (0, 0);
    for _ in 0..500 {
        let p = problem().new_tree(&mut runner).unwrap().current();
        let n = brute(&p).len();
        some += usize::from(n > 0);
        many += usize::from(n > 2);
    }
    assert!(
        some > 200 && many > 50,
        "{some} with solutions, {many} with 3 or more"
    );
}

// ---------------------------------------------------------------------------------------------
// The family on the models: known counts, the queens heat map, the best solutions against a
// search, save and load, overflow, budgets.

mod models {
    use super::*;
    use dancelinks::engine::family::FamilyError;
    use dancelinks::engine::zdd::{Zdd, ZddError};
    use dancelinks::models::{Model, langford::Langford, matchings::Matchings, queens::Queens};
    use dancelinks::random::SplitMix64;

    fn built(problem: &Problem) -> Family {
        Family::build(problem, 1 << 30, &mut || false).unwrap()
    }

    fn sorted_set(s: &[OptionId]) -> Vec<u32> {
        let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn eight_queens_count_and_marginals_are_the_heat_map() {
        let q = Queens::new(8).unwrap();
        let f = built(q.problem());
        assert_eq!(f.count(), Ok(92));
        let m = f.marginals().unwrap();
        // Option r·n + c is the queen on (r, c): the marginals are the heat map, rank-major.
        let h = dancelinks::queens::heatmap::heatmap(8, false);
        assert_eq!(m, h.counts);
        assert_eq!(m.iter().sum::<u128>(), 92 * 8);
    }

    #[test]
    fn known_counts_of_the_models() {
        assert_eq!(built(Langford::new(7).unwrap().problem()).count(), Ok(52));
        assert_eq!(built(Langford::new(8).unwrap().problem()).count(), Ok(300));
        let k12 = built(Matchings::new(12).unwrap().problem());
        assert_eq!(k12.count(), Ok(10395));
        // Each of the 66 edges of K12 is in 9!! = 945 perfect matchings.
        let m = k12.marginals().unwrap();
        assert_eq!(m.len(), 66);
        assert!(m.iter().all(|&c| c == 945), "{m:?}");
        // Including an edge: 945; excluding it: 10395 - 945; both: none.
        let e = OptionId(0);
        assert_eq!(k12.including(&[e]).unwrap().count(), Ok(945));
        assert_eq!(k12.excluding(&[e]).unwrap().count(), Ok(10395 - 945));
        assert_eq!(
            k12.including(&[e])
                .unwrap()
                .excluding(&[e])
                .unwrap()
                .count(),
            Ok(0)
        );
    }

    #[test]
    fn the_best_queens_by_weights_agree_with_a_search() {
        let q = Queens::new(8).unwrap();
        let f = built(q.problem());
        let mut g = SplitMix64::new(11);
        let weights: Vec<i64> = (0..64).map(|_| g.range(-50, 99)).collect();
        let mut all: Vec<(i64, Vec<u32>)> = Vec::new();
        dancelinks::models::for_each_solution(q.problem(), &Budget::unlimited(), |s| {
            all.push((s.iter().map(|o| weights[o.0 as usize]).sum(), sorted_set(s)));
            ControlFlow::Continue(())
        });
        all.sort_by_key(|a| std::cmp::Reverse(a.0));
        let best = f.best(&weights, 5, Direction::Maximize).unwrap();
        let values: Vec<i64> = best.iter().map(|b| b.0).collect();
        let expected: Vec<i64> = all.iter().take(5).map(|a| a.0).collect();
        assert_eq!(values, expected);
        for (v, s) in &best {
            assert_eq!(*v, s.iter().map(|o| weights[o.0 as usize]).sum::<i64>());
        }
        let worst = f.best(&weights, 1, Direction::Minimize).unwrap();
        assert_eq!(worst[0].0, all.last().unwrap().0);
    }

    #[test]
    fn save_and_load_give_the_same_family() {
        let l = Langford::new(7).unwrap();
        let f = built(l.problem());
        let mut text = Vec::new();
        dancelinks::io::zdd_text::write_family(&mut text, &f, |o| {
            (o.0 as usize + 2, l.problem().format_option(o))
        })
        .unwrap();
        let back = dancelinks::io::zdd_text::read(&text[..], 1 << 20).unwrap();
        assert_eq!(back.family.count(), Ok(52));
        assert_eq!(back.family.len(), f.len());
        let a: Vec<_> = f.iter().collect();
        let b: Vec<_> = back.family.iter().collect();
        assert_eq!(a, b);
        assert!(
            back.labels
                .iter()
                .all(|lab| lab.text == l.problem().format_option(lab.option)
                    && lab.line == lab.option.0 as usize + 2)
        );
        // A budget too small for the nodes is refused at the node that passes it.
        let err = dancelinks::io::zdd_text::read(&text[..], 1000).unwrap_err();
        assert!(err.message.contains("memory budget"), "{err}");
    }

    #[test]
    fn bad_texts_are_refused_at_their_line() {
        let cases: [(&str, usize, &str); 8] = [
            ("o 0 2 a\nn 2 0 1 0\n", 2, "no `root`"),
            ("o 0 2 a\nn 3 0 1 0\nroot 3\n", 2, "node 3 where node 2"),
            ("o 0 2 a\nn 2 1 1 0\nroot 2\n", 2, "option 1 has no"),
            ("o 0 2 a\nn 2 0 0 0\nroot 2\n", 2, "HI 0"),
            ("o 0 2 a\nn 2 0 1 2\nroot 2\n", 2, "LO 2"),
            ("o 0 2 a\nn 2 0 1 0\nroot 3\n", 3, "root 3"),
            ("o 1 2 a\no 0 3 b\nroot 0\n", 2, "increasing"),
            ("o 0 2 a\nx 1\nroot 0\n", 2, "'x' is not a record"),
        ];
        for (text, line, message) in cases {
            let e = dancelinks::io::zdd_text::read(text.as_bytes(), 1 << 20).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(message), "{text:?}: {e}");
        }
        let e = dancelinks::io::zdd_text::read("root 0\nroot 0\n".as_bytes(), 1 << 20).unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn an_overflowing_count_is_an_error_and_the_rest_still_answers() {
        // 2^130 solutions: 130 items with two options each.
        let mut b = dancelinks::engine::ProblemBuilder::new();
        for i in 0..130 {
            b.primary(&format!("p{i}")).unwrap();
        }
        for i in 0..130 {
            b.add_option_named(&format!("p{i}"), 0).unwrap();
            b.add_option_named(&format!("p{i}"), 0).unwrap();
        }
        let f = built(&b.build().unwrap());
        assert_eq!(f.count(), Err(FamilyError::Overflow));
        assert_eq!(f.marginals(), Err(FamilyError::Overflow));
        assert!(f.sample(1, 0).is_err());
        // Weight 1 on the even options: the best takes all 130 of them.
        let w: Vec<i64> = (0..260).map(|i| i64::from(i % 2 == 0)).collect();
        let best = f.best(&w, 2, Direction::Maximize).unwrap();
        assert_eq!(best[0].0, 130);
        assert_eq!(best[1].0, 129);
        // Including 128 of the even options leaves 2^2 solutions, a count again.
        let evens: Vec<OptionId> = (0..128).map(|i| OptionId(2 * i)).collect();
        assert_eq!(f.including(&evens).unwrap().count(), Ok(4));
        assert_eq!(f.excluding(&evens).unwrap().count(), Ok(4));
    }

    #[test]
    fn a_small_budget_refuses_new_diagrams_and_lists() {
        let l = Langford::new(8).unwrap();
        let f = Family::build(l.problem(), 1 << 30, &mut || false).unwrap();
        let zdd = Zdd::build(&mut Solver::new(l.problem()), 1 << 30, &mut || false).unwrap();
        let small = Family::from_zdd(zdd, l.problem().option_count(), 4096);
        assert!(matches!(
            small.excluding(&[OptionId(3)]),
            Err(FamilyError::Memory { .. })
        ));
        let w = vec![1; f.option_count()];
        assert!(matches!(
            small.best(&w, 10, Direction::Maximize),
            Err(FamilyError::Memory { .. })
        ));
        assert!(matches!(
            Family::build(l.problem(), 4096, &mut || false),
            Err(FamilyError::Build(ZddError::Memory { .. }))
        ));
    }
}
