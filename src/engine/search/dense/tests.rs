//! The bitset search against the links solver, on random problems and on the models.

use super::*;
use crate::engine::estimate::{self, Walk};
use crate::engine::run::choose::dense_target;
use crate::engine::run::threads::{Shared, count_on_threads, resume_in_growing_slices};
use crate::engine::search::cells::tests::{is_cover, random_problem};
use crate::engine::{Cells, ProblemBuilder, Solver};
use crate::models::Model;
use crate::models::edge_matching::EdgeMatching;
use crate::models::langford::Langford;
use crate::models::polyomino::{Board, Tiling};
use crate::models::queens::Queens;
use crate::models::sudoku::{Puzzle, Sudoku};
use crate::random::SplitMix64;

/// Every solution of `problem`, each as its sorted options, sorted.
fn listing(problem: &Problem) -> Vec<Vec<OptionId>> {
    let mut all: Vec<Vec<OptionId>> = Vec::new();
    Solver::new(problem).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        let mut s = s.to_vec();
        s.sort();
        all.push(s);
        ControlFlow::Continue(())
    });
    all.sort();
    all
}

#[test]
fn random_problems_agree_with_the_links_solver() {
    let mut rng = SplitMix64::new(0xde45_e5e7);
    for round in 0..5000 {
        let problem = random_problem(&mut rng);
        let want = listing(&problem);
        let mut engine = Dense::new(&problem).unwrap();
        let mut got: Vec<Vec<OptionId>> = Vec::new();
        let outcome = engine.run(&Budget::unlimited(), |s: &[OptionId]| {
            assert!(is_cover(&problem, s), "round {round}: not a cover: {s:?}");
            let mut s = s.to_vec();
            s.sort();
            got.push(s);
            ControlFlow::Continue(())
        });
        assert_eq!(outcome.end, End::Exhausted);
        got.sort();
        assert_eq!(got, want, "round {round}");
        let counted = engine.count(&Budget::unlimited());
        assert_eq!(
            counted.stats.solutions(),
            want.len() as u64,
            "round {round}"
        );
        assert_eq!(
            counted.stats.nodes(),
            outcome.stats.nodes(),
            "round {round}"
        );
        // The sizes on a trail (the way of problems with many primary items): the same
        // tree, and the same again after a resume.
        let mut trailed = Dense::new(&problem).unwrap().with_trail(true);
        assert_eq!(
            trailed.count(&Budget::unlimited()).stats,
            counted.stats,
            "round {round}"
        );
        let half = Budget {
            nodes: Some(counted.stats.nodes() / 2),
            ..Budget::unlimited()
        };
        trailed.count(&half);
        assert_eq!(
            trailed.resume(&Budget::unlimited()).stats,
            counted.stats,
            "round {round}"
        );
    }
}

/// A sudoku with its first 33 cells given and the rest open (324 primary items, many
/// solutions).
fn open_sudoku() -> Problem {
    let clues = "534678912672195348198342567859761";
    let grid = format!("{clues}{}", ".".repeat(81 - clues.len()));
    Sudoku::new(Puzzle::parse(&grid).unwrap())
        .unwrap()
        .problem()
        .clone()
}

/// An open sudoku whose conflict rows hold options in fewer than two thirds of their words
/// (25 clues: 3.0 of 5) takes the sparse walk for how its words with conflicts change from one
/// option of an item to the next (in 0.11 of the words).
#[test]
fn an_open_sudoku_of_sparse_rows_takes_the_sparse_walk_for_its_changing_words() {
    let grid = "....5....8.5.7..6..1...3.............62...9.1.7......6....8....68..92..7.51.6.248";
    let problem = Sudoku::new(Puzzle::parse(grid).unwrap())
        .unwrap()
        .problem()
        .clone();
    let t = Dense::new(&problem).unwrap().t;
    let nonzero = t.conflicts.iter().filter(|&&r| r != 0).count();
    assert!(
        3 * nonzero < 2 * t.conflicts.len(),
        "rows on fewer than 2/3 of the words"
    );
    assert!(tables::word_change(&t.conflicts, &t.item_bits, t.words) >= 0.1);
    assert!(t.sparse_walk);
}

/// The options a try removes walked through a mask of the words that have some, or word by
/// word: the same tree, the same counts (random problems, the sizes copied and on a trail; a
/// sudoku, whose tables choose the mask).
#[test]
fn the_two_walks_of_the_removed_options_search_the_same_tree() {
    let mut rng = SplitMix64::new(0x5ba5_e0a1);
    let mut problems: Vec<Problem> = (0..2000).map(|_| random_problem(&mut rng)).collect();
    let sudoku = open_sudoku();
    assert!(Dense::new(&sudoku).unwrap().t.sparse_walk);
    problems.push(sudoku);
    for (round, problem) in problems.iter().enumerate() {
        let whole = Dense::new(problem)
            .unwrap()
            .with_sparse_walk(false)
            .count(&Budget::unlimited())
            .stats;
        for trail in [false, true] {
            let mut sparse = Dense::new(problem)
                .unwrap()
                .with_trail(trail)
                .with_sparse_walk(true);
            let got = sparse.count(&Budget::unlimited()).stats;
            assert_eq!(got, whole, "round {round}, trail {trail}");
        }
    }
}

#[test]
fn a_count_stopped_on_nodes_resumes_to_the_whole_count() {
    let mut rng = SplitMix64::new(0x7e5_0e5);
    let mut problems: Vec<Problem> = (0..300).map(|_| random_problem(&mut rng)).collect();
    problems.push(Queens::new(8).unwrap().problem().clone());
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Dense::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited());
        let step = 1 + rng.below(40);
        let mut limit = step;
        let mut out = engine.count(&Budget {
            nodes: Some(limit),
            ..Budget::unlimited()
        });
        while out.end == End::NodeLimit {
            assert!(out.stats.nodes() <= limit, "round {round}");
            limit += step;
            out = engine.resume(&Budget {
                nodes: Some(limit),
                ..Budget::unlimited()
            });
        }
        assert_eq!(out.end, End::Exhausted, "round {round}");
        assert_eq!(out.stats, whole.stats, "round {round}");
    }
}

#[test]
fn the_rest_of_a_stopped_count_is_the_rest_of_the_count() {
    // Stopped after any number of nodes, the count so far and the counts below the rest's
    // prefixes add up to the whole count (a part that wipes out at once counts 0), and the
    // rest's weights to the estimate of what is left.
    let mut rng = SplitMix64::new(0x004e_570f);
    let mut problems: Vec<Problem> = (0..300).map(|_| random_problem(&mut rng)).collect();
    problems.push(Queens::new(8).unwrap().problem().clone());
    problems.push(Langford::new(8).unwrap().problem().clone());
    let mut stopped = 0;
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Dense::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited());
        for stop in [1, 2, 5, 17, 100, 1000] {
            let mut engine = Dense::new(problem).unwrap();
            let out = engine.count(&Budget {
                nodes: Some(stop),
                ..Budget::unlimited()
            });
            if out.end != End::NodeLimit {
                continue;
            }
            stopped += 1;
            let (done, rest) = (engine.progress(), engine.rest());
            let weights: f64 = rest.iter().map(|(_, w)| w).sum();
            assert!(
                (done + weights - 1.0).abs() < 1e-9,
                "round {round} stop {stop}"
            );
            let mut counted = out.stats.solutions();
            let mut other = Dense::new(problem).unwrap();
            for (prefix, _) in &rest {
                let part = other.count_below(prefix, &Budget::unlimited());
                assert_eq!(part.end, End::Exhausted);
                counted += part.stats.solutions();
            }
            assert_eq!(
                counted,
                whole.stats.solutions(),
                "round {round} stop {stop}"
            );
        }
    }
    assert!(stopped > 300, "counts stopped half way: {stopped}");
}

#[test]
fn the_count_on_threads_is_the_count_with_the_same_nodes() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut rng = SplitMix64::new(0x7_4ead);
    let mut problems: Vec<Problem> = (0..300).map(|_| random_problem(&mut rng)).collect();
    problems.push(Queens::new(9).unwrap().problem().clone());
    problems.push(
        EdgeMatching::random(4, 4, 4, 2, true)
            .unwrap()
            .problem()
            .clone(),
    );
    // 324 primary items: the sizes on a trail.
    let sudoku = open_sudoku();
    assert!(Dense::new(&sudoku).unwrap().t.trail);
    problems.push(sudoku);
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Dense::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited());
        let (split, info) = pool.install(|| {
            count_on_threads(engine.sibling(), 3, dense_target(3), &Budget::unlimited())
        });
        assert_eq!(split.end, End::Exhausted, "round {round}");
        assert_eq!(
            split.stats.solutions(),
            whole.stats.solutions(),
            "round {round}"
        );
        assert_eq!(split.stats.nodes(), whole.stats.nodes(), "round {round}");
        assert_eq!(
            split.stats.updates(),
            whole.stats.updates(),
            "round {round}"
        );
        assert!(
            info.subproblems <= whole.stats.nodes() as usize,
            "round {round}"
        );
    }
}

/// A count on threads stopped by deadlines again and again, its sub-problems suspended and
/// resumed by the engines that hold them, ends with the count and nodes of one search.
#[test]
fn a_count_on_threads_resumed_after_deadlines_is_the_count() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut rng = SplitMix64::new(0x5_4a7e);
    let mut problems: Vec<Problem> = (0..200).map(|_| random_problem(&mut rng)).collect();
    problems.push(Queens::new(10).unwrap().problem().clone());
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Dense::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited());
        let mut shared = pool.install(|| Shared::new(engine.sibling(), 2, dense_target(2)));
        let stats = resume_in_growing_slices(&pool, &mut shared, round);
        assert_eq!(stats.solutions(), whole.stats.solutions(), "round {round}");
        assert_eq!(stats.nodes(), whole.stats.nodes(), "round {round}");
    }
}

/// The node counts are at most SSXCC's on problems with colours, within 1% of them
/// without (his figures, as in the sparse-set engine's test `node_counts_equal_ssxccs`:
/// `xcover model ... | ssxcc`), the counts the same.
#[test]
fn node_counts_are_at_most_ssxccs_with_colours() {
    let queens = |n| Queens::new(n).unwrap().problem().clone();
    let langford = |n| Langford::new(n).unwrap().problem().clone();
    let pentominoes = |r, c| {
        Tiling::pentominoes(Board::rectangle(r, c).unwrap())
            .unwrap()
            .problem()
            .clone()
    };
    let edges = |r, c, k, seed| {
        EdgeMatching::random(r, c, k, seed, true)
            .unwrap()
            .problem()
            .clone()
    };
    let sudoku = Sudoku::new(
        Puzzle::parse(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        )
        .unwrap(),
    )
    .unwrap()
    .problem()
    .clone();
    let macmahon = EdgeMatching::macmahon(2, 2, 3, None)
        .unwrap()
        .problem()
        .clone();
    // (what, problem, solutions, SSXCC's nodes)
    let cases: Vec<(&str, Problem, u64, u64)> = vec![
        ("queens 8", queens(8), 92, 857),
        ("queens 13", queens(13), 73_712, 859_365),
        ("langford 8", langford(8), 300, 2_267),
        ("langford 10", langford(10), 0, 38_422),
        ("pentominoes 3x20", pentominoes(3, 20), 8, 9_328),
        ("sudoku", sudoku, 1, 82),
        ("edge matching 5x5", edges(5, 5, 5, 1), 16, 812),
        ("edge matching 6x6", edges(6, 6, 7, 1), 4, 955),
        ("macmahon 2x3", macmahon, 416, 1_023),
    ];
    for (what, problem, solutions, ssxcc) in cases {
        let out = Dense::new(&problem).unwrap().count(&Budget::unlimited());
        assert_eq!(out.end, End::Exhausted, "{what}");
        assert_eq!(out.stats.solutions(), solutions, "{what}");
        // With colours (the look one step ahead) never more; without, within 1% (the
        // order of forced moves differs from SSXCC's).
        let most = if problem.has_colours() {
            ssxcc
        } else {
            ssxcc + ssxcc / 100
        };
        assert!(
            out.stats.nodes() <= most,
            "{what}: {} nodes, SSXCC {ssxcc}",
            out.stats.nodes()
        );
        // The sparse-set engine follows SSXCC exactly: the figure is his.
        assert_eq!(
            Cells::new(&problem)
                .unwrap()
                .count(&Budget::unlimited())
                .stats
                .nodes(),
            ssxcc,
            "{what}"
        );
    }
}

#[test]
fn budgets_stop_the_search() {
    let q = Queens::new(8).unwrap();
    let mut engine = Dense::new(q.problem()).unwrap();
    let o = engine.count(&Budget::solutions(5));
    assert_eq!((o.end, o.stats.solutions()), (End::SolutionLimit, 5));
    let o = engine.count(&Budget {
        nodes: Some(10),
        ..Budget::unlimited()
    });
    assert_eq!((o.end, o.stats.nodes()), (End::NodeLimit, 10));
    let budget = Budget::unlimited();
    budget.stop.request();
    assert_eq!(engine.count(&budget).end, End::Interrupted);
    let o = engine.run(&Budget::unlimited(), |_| ControlFlow::Break(()));
    assert_eq!((o.end, o.stats.solutions()), (End::Stopped, 1));
}

#[test]
fn refuses_multiplicities_and_counts_a_hopeless_problem() {
    let mut b = ProblemBuilder::new();
    b.primary_with_bounds("a", 1, 2).unwrap();
    b.add_option_named("a", 0).unwrap();
    let p = b.build().unwrap();
    assert_eq!(Dense::new(&p).err(), Some(DenseError::Multiplicities));
    // A primary item in no option: none.
    let mut b = ProblemBuilder::new();
    b.primary("a").unwrap();
    b.primary("b").unwrap();
    b.add_option_named("a", 0).unwrap();
    let p = b.build().unwrap();
    assert_eq!(
        Dense::new(&p)
            .unwrap()
            .count(&Budget::unlimited())
            .stats
            .solutions(),
        0
    );
}

/// The exact mean of Knuth's estimator on `tree`: every root-to-leaf path a probe may take,
/// its estimate (the sum of weight × cost of its nodes, the weight the product of the
/// degrees above) times its probability (the product of their inverses), summed.
fn expected_estimate(tree: &mut impl Walk) -> f64 {
    fn paths(tree: &mut impl Walk, path: &mut Vec<u32>) -> f64 {
        tree.reset();
        let (mut weight, mut total, mut chance) = (1.0f64, 0.0f64, 1.0f64);
        for &k in path.iter() {
            total += weight * tree.cost();
            let d = tree.degree();
            weight *= f64::from(d);
            chance /= f64::from(d);
            tree.down(k);
        }
        total += weight * tree.cost();
        let d = tree.degree();
        if d == 0 {
            return chance * total;
        }
        let mut sum = 0.0;
        for k in 0..d {
            path.push(k);
            sum += paths(tree, path);
            path.pop();
        }
        sum
    }
    paths(tree, &mut Vec::new())
}

/// Knuth's estimator is unbiased on the tree it walks; the bitset search's walk is its
/// tree, node for node: the exact mean over every path the probes may take is the count's
/// node count, on random problems (with and without colours, so with and without the
/// look one step ahead) and the sizes copied or on a trail.
#[test]
fn the_walk_estimates_the_bitset_searchs_nodes_exactly_in_expectation() {
    let mut rng = SplitMix64::new(0x3a1c_0ffe);
    let mut looked_ahead = 0;
    for round in 0..3000 {
        let problem = random_problem(&mut rng);
        let Ok(mut walk) = DenseWalk::new(&problem) else {
            continue;
        };
        let nodes = Dense::new(&problem)
            .unwrap()
            .count(&Budget::unlimited())
            .stats
            .nodes();
        let mean = expected_estimate(&mut walk);
        assert!(
            (mean - nodes as f64).abs() <= 1e-9 * nodes.max(1) as f64,
            "round {round}: {mean} against {nodes} nodes"
        );
        let trail = walk.dense().t.trail;
        let mut walk = DenseWalk::on(Dense::new(&problem).unwrap().with_trail(!trail));
        let mean = expected_estimate(&mut walk);
        assert!(
            (mean - nodes as f64).abs() <= 1e-9 * nodes.max(1) as f64,
            "round {round} (trail switched): {mean} against {nodes} nodes"
        );
        looked_ahead += usize::from(walk.dense().t.lookahead && nodes > 3);
    }
    assert!(
        looked_ahead > 100,
        "{looked_ahead} problems with the look-ahead"
    );
}

/// On models with colours (the look-ahead) and without: the mean of many probes is near the
/// count's nodes, and the exact mean is them.
#[test]
fn the_walks_probes_average_to_the_nodes_on_models() {
    let macmahon = EdgeMatching::macmahon(2, 2, 3, None)
        .unwrap()
        .problem()
        .clone();
    let queens = Queens::new(8).unwrap().problem().clone();
    let edges = EdgeMatching::random(5, 5, 5, 1, true)
        .unwrap()
        .problem()
        .clone();
    for (what, problem) in [
        ("macmahon 2x3", macmahon),
        ("queens 8", queens),
        ("edges 5x5", edges),
    ] {
        let nodes = Dense::new(&problem)
            .unwrap()
            .count(&Budget::unlimited())
            .stats
            .nodes() as f64;
        let mut walk = DenseWalk::new(&problem).unwrap();
        let e = estimate::estimate(&mut walk, 20_000, 11);
        assert!(
            (e.nodes - nodes).abs() < 0.05 * nodes,
            "{what}: {e:?} against {nodes}"
        );
        let exact = expected_estimate(&mut walk);
        assert!(
            (exact - nodes).abs() < 1e-9 * nodes,
            "{what}: {exact} against {nodes}"
        );
    }
}

/// The cut's depth found by walks of doubling limit is the one a walk per depth finds (the
/// first depth with `want` nodes), with the same prefixes and the same statistics above it:
/// random problems, 8-queens, an open sudoku and Langford 8.
#[test]
fn the_cut_is_at_the_first_depth_with_the_nodes_wanted() {
    // The cut as it was found before: one walk per depth.
    fn walk_per_depth(dense: &mut Dense<'_>, want: usize) -> (Vec<Vec<u32>>, Stats) {
        let mut cut = 1;
        loop {
            dense.start();
            dense.cut = cut;
            dense.found.clear();
            let outcome = dense
                .search::<false, _>(&Budget::unlimited(), &mut |_: &[OptionId]| {
                    ControlFlow::Continue(())
                });
            dense.cut = usize::MAX;
            if dense.found.len() / cut >= want.max(1) || dense.found.is_empty() {
                let found = std::mem::take(&mut dense.found);
                return (
                    found.chunks(cut).map(<[u32]>::to_vec).collect(),
                    outcome.stats,
                );
            }
            cut += 1;
        }
    }
    let mut rng = SplitMix64::new(0xc07_de97);
    let mut problems: Vec<Problem> = (0..300).map(|_| random_problem(&mut rng)).collect();
    problems.push(Queens::new(8).unwrap().problem().clone());
    problems.push(Langford::new(8).unwrap().problem().clone());
    problems.push(open_sudoku());
    for (round, problem) in problems.iter().enumerate() {
        let Ok(mut dense) = Dense::new(problem) else {
            continue;
        };
        for want in [1, 2, 3, 7, 16, 100] {
            let (parts, above) = dense.prefixes(want);
            let (old_parts, old_above) = walk_per_depth(&mut dense, want);
            assert_eq!(parts, old_parts, "round {round}, want {want}");
            assert_eq!(above, old_above, "round {round}, want {want}");
        }
    }
}
