//! The visitor API of the dance: a visitor's choices change the tree, not the solutions.

use std::ops::ControlFlow;

use super::{Solver, View, Visitor};
use crate::engine::budget::{Budget, End};
use crate::engine::problem::{ItemId, OptionId};
use crate::queens::weighted::WeightedQueens;

/// Cuts every node off after `after` nodes, and stops the search then if `stops`.
struct CutAfter {
    after: u64,
    entered: u64,
    stops: bool,
    solutions: u64,
}

impl Visitor for CutAfter {
    const PRUNES: bool = true;
    fn enter(&mut self, _view: &View<'_>) -> bool {
        self.entered += 1;
        self.entered <= self.after
    }
    fn stop(&self) -> bool {
        self.stops
    }
    fn solution(&mut self, _: &[OptionId]) -> ControlFlow<()> {
        self.solutions += 1;
        ControlFlow::Continue(())
    }
}

/// Branches on the rightmost active primary item instead of the shortest.
struct Rightmost {
    solutions: u64,
}

impl Visitor for Rightmost {
    const CHOOSES: bool = true;
    fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
        view.active_primary().last()
    }
    fn solution(&mut self, _: &[OptionId]) -> ControlFlow<()> {
        self.solutions += 1;
        ControlFlow::Continue(())
    }
}

/// A visitor's choice of the branching item changes the tree, not the solutions, and
/// leaves the solver as it found it.
#[test]
fn a_visitor_may_choose_the_branching_item() {
    let model = WeightedQueens::new(8);
    let mut solver = Solver::new(model.problem());
    let mrv = solver.count(&Budget::unlimited());
    let mut rightmost = Rightmost { solutions: 0 };
    let out = solver.run(&Budget::unlimited(), &mut rightmost);
    assert_eq!((out.stats.solutions, rightmost.solutions), (92, 92));
    assert_ne!(out.stats.nodes, mrv.stats.nodes);
    assert_eq!(solver.count(&Budget::unlimited()).stats, mrv.stats);
}

/// A visitor's stop ends the search at the node it cut off, without trying the other
/// options of the levels above, and leaves the solver as it found it.
#[test]
fn a_visitor_stops_the_search_at_once() {
    let model = WeightedQueens::new(8);
    let mut solver = Solver::new(model.problem());
    for after in [0, 1, 5, 20, 100] {
        let mut stopper = CutAfter {
            after,
            entered: 0,
            stops: true,
            solutions: 0,
        };
        let out = solver.run(&Budget::unlimited(), &mut stopper);
        assert_eq!(out.end, End::Stopped, "after {after}");
        // Solutions count as nodes without being entered.
        let nodes = stopper.entered + stopper.solutions;
        assert_eq!(out.stats.nodes, nodes, "after {after}");
        assert_eq!(stopper.entered, after + 1);
        let mut cutter = CutAfter {
            after,
            entered: 0,
            stops: false,
            solutions: 0,
        };
        let out = solver.run(&Budget::unlimited(), &mut cutter);
        assert_eq!(out.end, End::Exhausted, "after {after}");
        // Cutting nodes off still enters every sibling left on the way back up.
        assert!(after == 0 || cutter.entered > after + 1, "after {after}");
        let mut all = CutAfter {
            after: u64::MAX,
            entered: 0,
            stops: true,
            solutions: 0,
        };
        let out = solver.run(&Budget::unlimited(), &mut all);
        assert_eq!(
            (out.end, all.solutions),
            (End::Exhausted, 92),
            "after {after}"
        );
    }
}

/// A memoised count stopped every few nodes and resumed goes on where it stopped: the same
/// count and the same nodes in all as one call of [`Solver::count_memo`] (nothing searched
/// twice), with or without colours, on either tree and in either order of branching (the
/// item of fewest options first, or frontier order); the estimate of the tree done never
/// falls below 0 nor passes 1, and the solver is usable again after the count ends.
#[test]
fn a_memoised_count_resumes_where_it_stopped() {
    use crate::engine::search::cells::tests::random_problem;
    use crate::engine::search::memo::Memo;
    use crate::models::Model;
    use crate::random::SplitMix64;
    let mut problems: Vec<crate::engine::problem::Problem> = vec![
        crate::models::queens::Queens::new(8)
            .unwrap()
            .problem()
            .clone(),
        crate::models::langford::Langford::new(8)
            .unwrap()
            .problem()
            .clone(),
    ];
    let mut rng = SplitMix64::new(0x2e5e_11ed);
    problems.extend((0..300).map(|_| random_problem(&mut rng)));
    for (k, problem) in problems.iter().enumerate() {
        for (knuth, frontier) in [(false, false), (true, false), (false, true)] {
            let solver_for = |problem| {
                let solver = Solver::new(problem);
                if frontier {
                    solver.in_frontier_order()
                } else {
                    solver
                }
            };
            let mut whole = solver_for(problem);
            whole.knuth_tree(knuth);
            let mut memo = Memo::new(whole.memo_words(), 1 << 20);
            let want = whole.count_memo(&Budget::unlimited(), &mut memo);
            let mut solver = solver_for(problem);
            solver.knuth_tree(knuth);
            let mut memo = Memo::new(solver.memo_words(), 1 << 20);
            let (mut nodes, mut slice, mut turns) = (0, 1, 0);
            let got = loop {
                let turn = solver.count_memo_resumable(
                    &Budget {
                        nodes: Some(slice),
                        ..Budget::unlimited()
                    },
                    &mut memo,
                );
                nodes += turn.nodes;
                turns += 1;
                assert!(
                    (0.0..=1.0).contains(&turn.progress),
                    "problem {k}: {turn:?}"
                );
                if turn.end == End::Exhausted {
                    break turn.count;
                }
                assert_eq!(turn.end, End::NodeLimit, "problem {k}");
                slice += 1 + slice / 4;
            };
            assert_eq!(
                got, want.count,
                "problem {k}, knuth {knuth}, frontier {frontier}, {turns} turns"
            );
            assert_eq!(nodes, want.stats.nodes(), "problem {k}, knuth {knuth}");
            assert_eq!(
                u128::from(solver.count(&Budget::unlimited()).stats.solutions),
                want.count,
                "problem {k}: the solver as it was"
            );
        }
    }
}

/// The memoised count keeps the counts of the nodes that branch only: a problem whose every
/// node has a forced option stores nothing, a dead end stores nothing, and a problem that
/// branches once (below a forced root) stores that one node; each counts as the plain count.
#[test]
fn the_memo_keeps_the_nodes_that_branch() {
    use crate::engine::search::memo::Memo;
    let count = |text: &str| {
        let f = crate::io::dlx_format::parse(text.as_bytes(), "test").unwrap();
        let plain = Solver::new(&f.problem).count(&Budget::unlimited());
        let mut solver = Solver::new(&f.problem);
        let mut memo = Memo::new(solver.memo_words(), 1 << 20);
        let out = solver.count_memo(&Budget::unlimited(), &mut memo);
        assert_eq!(out.count, u128::from(plain.stats.solutions()), "{text}");
        (
            out.count,
            out.memo.expect("a memoised count's table").stores,
        )
    };
    // a, then b c, then d: each item has one option when chosen.
    assert_eq!(count("a b c d\na\nb c\nd\n"), (1, 0));
    // Dead ends store nothing either: c has no option.
    assert_eq!(count("a b c\na\nb\n"), (0, 0));
    // Two ways to cover a b; each way leaves c forced.
    assert_eq!(count("a b c\na b\na\nb\nc\n"), (2, 1));
}
