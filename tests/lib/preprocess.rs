//! Tests: preprocessing. Random XCC problems keep their solutions (as sets of original
//! options); `xcover solve --preprocess` gives the same counts, the same solutions written
//! with the same lines, says what it removed with `--stats`, and refuses what it cannot do.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use dancelinks::engine::preprocess::{Limits, preprocess};
use dancelinks::engine::{Budget, OptionId, Problem, Solver};
use dancelinks::io::dlx_format;
use proptest::prelude::*;

/// Every solution, each as its sorted options.
fn solutions(problem: &Problem) -> BTreeSet<Vec<OptionId>> {
    let mut all = BTreeSet::new();
    Solver::new(problem).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        let mut s = s.to_vec();
        s.sort();
        assert!(all.insert(s), "a solution twice");
        ControlFlow::Continue(())
    });
    all
}

/// A random small XCC problem in DLX format: up to 6 primary and 3 secondary items, up to 3
/// colours, up to 24 options of up to 4 items (dense enough that some options are blocked).
fn random_problem() -> impl Strategy<Value = String> {
    crate::engine::random_xcc(7, 25)
}

proptest! {
    #[test]
    fn preprocessing_keeps_the_solutions(text in random_problem(), work in 1u64..400) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        let want = solutions(problem);
        // With the default limit (a fixpoint) and with a small one (stopped anywhere).
        for limits in [Limits::default(), Limits { work }] {
            let r = preprocess(problem, &limits).unwrap();
            prop_assert_eq!(
                r.stats.options_removed + r.problem.option_count(),
                problem.option_count()
            );
            prop_assert!(r.original.windows(2).all(|w| w[0] < w[1]));
            for o in r.problem.options() {
                prop_assert_eq!(r.problem.format_option(o), problem.format_option(r.original(o)));
            }
            let got: BTreeSet<Vec<OptionId>> = solutions(&r.problem)
                .into_iter()
                .map(|s| {
                    let mut s: Vec<OptionId> = s.into_iter().map(|o| r.original(o)).collect();
                    s.sort();
                    s
                })
                .collect();
            prop_assert_eq!(&got, &want);
            if r.stats.complete {
                // At the fixpoint every option left is in some solution's reach: preprocessing
                // again removes nothing.
                let again = preprocess(&r.problem, &Limits::default()).unwrap();
                prop_assert_eq!(again.stats.options_removed, 0);
                prop_assert_eq!(again.stats.rounds, 1);
            }
        }
    }
}
