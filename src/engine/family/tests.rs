//! The family on the models: known counts, the queens heat map, the best solutions against
//! a search, save and load.

use super::*;
use crate::engine::Budget;
use crate::models::{Model, langford::Langford, matchings::Matchings, queens::Queens};
use std::ops::ControlFlow;

fn family(problem: &Problem) -> Family {
    Family::build(problem, 1 << 30, &mut || false).unwrap()
}

fn sorted(s: &[OptionId]) -> Vec<u32> {
    let mut v: Vec<u32> = s.iter().map(|o| o.0).collect();
    v.sort_unstable();
    v
}

#[test]
fn eight_queens_count_and_marginals_are_the_heat_map() {
    let q = Queens::new(8).unwrap();
    let f = family(q.problem());
    assert_eq!(f.count(), Ok(92));
    let m = f.marginals().unwrap();
    // Option r·n + c is the queen on (r, c): the marginals are the heat map, rank-major.
    let h = crate::queens::heatmap::heatmap(8, false);
    assert_eq!(m, h.counts);
    assert_eq!(m.iter().sum::<u128>(), 92 * 8);
}

#[test]
fn known_counts_of_the_models() {
    assert_eq!(family(Langford::new(7).unwrap().problem()).count(), Ok(52));
    assert_eq!(family(Langford::new(8).unwrap().problem()).count(), Ok(300));
    let k12 = family(Matchings::new(12).unwrap().problem());
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
    let f = family(q.problem());
    let mut g = SplitMix64::new(11);
    let weights: Vec<i64> = (0..64).map(|_| g.range(-50, 99)).collect();
    let mut all: Vec<(i64, Vec<u32>)> = Vec::new();
    crate::models::for_each_solution(q.problem(), &Budget::unlimited(), |s| {
        all.push((s.iter().map(|o| weights[o.0 as usize]).sum(), sorted(s)));
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
    let f = family(l.problem());
    let mut text = Vec::new();
    crate::io::zdd_text::write_family(&mut text, &f, |o| {
        (o.0 as usize + 2, l.problem().format_option(o))
    })
    .unwrap();
    let back = crate::io::zdd_text::read(&text[..], 1 << 20).unwrap();
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
    let err = crate::io::zdd_text::read(&text[..], 1000).unwrap_err();
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
        let e = crate::io::zdd_text::read(text.as_bytes(), 1 << 20).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.message.contains(message), "{text:?}: {e}");
    }
    let e = crate::io::zdd_text::read("root 0\nroot 0\n".as_bytes(), 1 << 20).unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn an_overflowing_count_is_an_error_and_the_rest_still_answers() {
    // 2^130 solutions: 130 items with two options each.
    let mut b = crate::engine::ProblemBuilder::new();
    for i in 0..130 {
        b.primary(&format!("p{i}")).unwrap();
    }
    for i in 0..130 {
        b.add_option_named(&format!("p{i}"), 0).unwrap();
        b.add_option_named(&format!("p{i}"), 0).unwrap();
    }
    let f = family(&b.build().unwrap());
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
    let small = Family::from_nodes(f.nodes.clone(), f.root, f.options, 4096);
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
