//! The sparse-set search against the links solver and the models; the random problems and
//! the exact-cover check that the other searches' tests share.

use super::super::{Resumable, Search};
use super::*;
use crate::engine::{Colour, Entry, ItemId, ProblemBuilder, Solver};
use crate::io::dlx_format;
use crate::models::Model;
use crate::models::edge_matching::EdgeMatching;
use crate::models::langford::Langford;
use crate::models::polyomino::{Board, Tiling};
use crate::models::queens::Queens;
use crate::models::sudoku::{Puzzle, Sudoku};
use crate::random::SplitMix64;

/// Counts `problem` with the sparse-set engine: (solutions, nodes, updates).
fn cells(problem: &Problem) -> (u64, u64, u64) {
    let outcome = Cells::new(problem).unwrap().count(&Budget::unlimited());
    assert_eq!(outcome.end, End::Exhausted);
    let s = outcome.stats;
    (s.solutions(), s.nodes(), s.updates())
}

/// SSXCC's node counts and updates: Knuth's figures from `../shared/reference/
/// knuth-node-counts.csv` (13-queens, the sudoku) and, for the smaller instances, the
/// output of his `ssxcc` (built from ssxcc.w with gcc -O3) run on the DLX text that
/// `xcover model ...` writes for the same model, as noted on each line.
#[test]
fn node_counts_equal_ssxccs() {
    // (what, problem, solutions, SSXCC's nodes, SSXCC's updates)
    let queens = |n| Queens::new(n).unwrap().problem().clone();
    let langford = |n| Langford::new(n).unwrap().problem().clone();
    let pentominoes = |r, c| {
        Tiling::pentominoes(Board::rectangle(r, c).unwrap())
            .unwrap()
            .problem()
            .clone()
    };
    let sudoku = |s: &str| {
        Sudoku::new(Puzzle::parse(s).unwrap())
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
    let cases: Vec<(&str, Problem, u64, u64, u64)> = vec![
        // xcover model queens 8 | ssxcc
        ("queens 8", queens(8), 92, 857, 15_736),
        // the CSV: 13-queens, organ-pipe order (SSXCC's updates from ssxcc)
        ("queens 13", queens(13), 73_712, 859_365, 16_337_485),
        // xcover model langford 8 | ssxcc
        ("langford 8", langford(8), 300, 2_267, 34_765),
        // xcover model langford 10 | ssxcc
        ("langford 10", langford(10), 0, 38_422, 832_687),
        // xcover model pentominoes 3x20 | ssxcc
        ("pentominoes 3x20", pentominoes(3, 20), 8, 9_328, 8_765_520),
        // the CSV: the hard sudoku (updates from ssxcc)
        (
            "sudoku",
            sudoku(
                "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
            ),
            1,
            82,
            1_284,
        ),
        // xcover model edge-matching 5x5 --colours 5 --seed 1 | ssxcc
        ("edge matching 5x5", edges(5, 5, 5, 1), 16, 812, 118_856),
        // xcover model edge-matching 6x6 --colours 7 --seed 1 | ssxcc
        ("edge matching 6x6", edges(6, 6, 7, 1), 4, 955, 291_291),
        // xcover model macmahon 2x3 --colours 2 --border none | ssxcc
        (
            "macmahon 2x3",
            EdgeMatching::macmahon(2, 2, 3, None)
                .unwrap()
                .problem()
                .clone(),
            416,
            1_023,
            12_067,
        ),
    ];
    for (what, problem, solutions, nodes, updates) in cases {
        assert_eq!(
            cells(&problem),
            (solutions, nodes, updates),
            "{what}: (solutions, nodes, updates) against SSXCC's"
        );
    }
}

/// The larger instances of the CSV (a second or more each in a release build):
/// `cargo test --release --lib cells -- --ignored`.
#[test]
#[ignore]
fn node_counts_equal_ssxccs_on_the_larger_instances() {
    let l12 = Langford::new(12).unwrap();
    assert_eq!(cells(l12.problem()).1, 2_217_430);
    let p = Tiling::pentominoes(Board::rectangle(6, 10).unwrap()).unwrap();
    assert_eq!(cells(p.problem()).1, 1_210_926);
    let words = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference/words-240x4.txt");
    if let Ok(text) = std::fs::read_to_string(words) {
        let words = crate::models::word_squares::parse_words(&text).unwrap();
        let ws = crate::models::word_squares::WordSquares::new(&words).unwrap();
        assert_eq!(cells(ws.problem()), (33_890, 960_135, 181_466_021));
    }
}

/// A random XCC problem: up to 8 primary items, up to 4 secondary ones, up to 3 colours,
/// up to 21 options of 1 to 4 items.
pub(crate) fn random_problem(rng: &mut SplitMix64) -> Problem {
    let np = 1 + rng.below(8) as usize;
    let ns = rng.below(5) as usize;
    let nc = 1 + rng.below(3) as u32;
    let mut b = ProblemBuilder::new();
    // Primary and secondary items declared interleaved, to exercise the layout.
    let mut items = Vec::new();
    let (mut p, mut s) = (0, 0);
    while p < np || s < ns {
        if s == ns || (p < np && rng.below(2) == 0) {
            items.push((b.primary(&format!("p{p}")).unwrap(), true));
            p += 1;
        } else {
            items.push((b.secondary(&format!("s{s}")).unwrap(), false));
            s += 1;
        }
    }
    let colours: Vec<Colour> = (0..nc)
        .map(|c| b.colour(&format!("c{c}")).unwrap())
        .collect();
    for _ in 0..rng.below(22) {
        let mut entries: Vec<Entry> = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let (item, primary) = items[rng.below(items.len() as u64) as usize];
            if entries.iter().any(|e| e.item == item) {
                continue;
            }
            let c = rng.below(u64::from(nc) + 1) as usize;
            entries.push(if primary || c == 0 {
                Entry::plain(item)
            } else {
                Entry::coloured(item, colours[c - 1])
            });
        }
        // Options without a primary item are refused by the builder: skip them.
        let _ = b.add_option(entries, 0);
    }
    b.build().unwrap()
}

/// Whether `solution` covers every primary item exactly once and gives every secondary
/// item at most one colour (or takes it, uncoloured, at most once).
pub(crate) fn is_cover(problem: &Problem, solution: &[OptionId]) -> bool {
    let mut primary = vec![0u32; problem.item_count()];
    let mut colour: Vec<Option<Colour>> = vec![None; problem.item_count()];
    for &o in solution {
        for e in problem.option_entries(o) {
            let i = e.item.0 as usize;
            if problem.is_primary(e.item) {
                primary[i] += 1;
            } else {
                match colour[i] {
                    None => colour[i] = Some(e.colour),
                    Some(c) if c == e.colour && !c.is_none() => {}
                    Some(_) => return false,
                }
            }
        }
    }
    problem
        .items()
        .filter(|&i| problem.is_primary(i))
        .all(|i: ItemId| primary[i.0 as usize] == 1)
}

/// On many random small problems, colours included: the same solutions as the
/// dancing-links solver (as sets of options), each an exact cover, and a second search
/// of the same engine finds the same.
#[test]
fn random_problems_agree_with_the_links_solver() {
    let mut rng = SplitMix64::new(0x5eed_ce11);
    for round in 0..5000 {
        let problem = random_problem(&mut rng);
        let mut want: Vec<Vec<OptionId>> = Vec::new();
        Solver::new(&problem).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            let mut s = s.to_vec();
            s.sort();
            want.push(s);
            ControlFlow::Continue(())
        });
        want.sort();
        let mut engine = Cells::new(&problem).unwrap();
        for _ in 0..2 {
            let mut got: Vec<Vec<OptionId>> = Vec::new();
            let outcome = engine.run(&Budget::unlimited(), |s: &[OptionId]| {
                assert!(is_cover(&problem, s), "round {round}: not a cover: {s:?}");
                let mut s = s.to_vec();
                s.sort();
                got.push(s);
                ControlFlow::Continue(())
            });
            assert_eq!(outcome.end, End::Exhausted);
            assert_eq!(outcome.stats.solutions(), got.len() as u64);
            got.sort();
            assert_eq!(got, want, "round {round}");
            let counted = engine.count(&Budget::unlimited());
            assert_eq!(counted.stats.solutions(), want.len() as u64);
            assert_eq!(counted.stats.nodes(), outcome.stats.nodes());
        }
    }
}

/// A count resumed after node limits of every size gives the whole count's solutions and
/// nodes, and its estimate of the fraction done never goes back (thousands of random
/// problems, colours and secondary items included; 13-queens in slices of 1 to 64 nodes).
#[test]
fn a_resumed_count_is_the_whole_count() {
    let mut rng = SplitMix64::new(0xce11_5e5e);
    let q = Queens::new(13).unwrap();
    let queens = q.problem().clone();
    let mut problems: Vec<Problem> = (0..3000).map(|_| random_problem(&mut rng)).collect();
    problems.push(queens);
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Cells::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited()).stats;
        let mut last = 0.0;
        let mut limit = 0;
        loop {
            limit += 1 + rng.below(64);
            let out = engine.resume(&Budget {
                nodes: Some(limit),
                ..Budget::default()
            });
            let (solutions, nodes) = (out.stats.solutions(), out.stats.nodes());
            let progress = engine.progress();
            assert!(
                progress >= last - 1e-12,
                "round {round}: {last} then {progress}"
            );
            last = progress;
            if out.end == End::Exhausted {
                assert_eq!(progress, 1.0);
                assert_eq!(
                    (solutions, nodes),
                    (whole.solutions(), whole.nodes()),
                    "round {round}"
                );
                break;
            }
            assert_eq!(out.end, End::NodeLimit, "round {round}");
            assert_eq!(
                nodes, limit,
                "round {round}: the limit is on the whole count"
            );
        }
    }
}

/// Budgets: a solution limit, a node limit and a sink that stops, as the links solver
/// honours them.
#[test]
fn budgets_stop_the_search() {
    let q = Queens::new(8).unwrap();
    let mut engine = Cells::new(q.problem()).unwrap();
    let o = engine.count(&Budget::solutions(5));
    assert_eq!((o.end, o.stats.solutions()), (End::SolutionLimit, 5));
    let o = engine.count(&Budget {
        nodes: Some(100),
        ..Budget::default()
    });
    assert_eq!((o.end, o.stats.nodes()), (End::NodeLimit, 100));
    let mut seen = 0;
    let o = engine.run(&Budget::unlimited(), |_: &[OptionId]| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((o.end, o.stats.solutions(), seen), (End::Stopped, 3, 3));
    assert_eq!(engine.first().map(|s| s.len()), Some(8));
    let o = engine.count(&Budget::solutions(0));
    assert_eq!((o.end, o.stats.nodes()), (End::SolutionLimit, 0));
    // After all that, a full count is still right.
    assert_eq!(engine.count(&Budget::unlimited()).stats.solutions(), 92);
}

/// Edge cases: no primary item (the empty cover), a primary item without options (no
/// search, as SSXCC), and multiplicities (refused).
#[test]
fn edge_cases() {
    let mut b = ProblemBuilder::new();
    b.secondary("s").unwrap();
    assert_eq!(cells(&b.build().unwrap()), (1, 1, 0));
    let f = dlx_format::parse(b"a b\na\n", "t").unwrap();
    assert_eq!(cells(&f.problem), (0, 0, 0));
    let f = dlx_format::parse(b"2:3|a b\na\na b\n", "t").unwrap();
    assert!(matches!(
        Cells::new(&f.problem),
        Err(CellsError::Multiplicities)
    ));
}

/// The problems the tests of parts use: random ones (colours and secondary items
/// included) and a few models, colour-free and coloured.
fn problems_for_parts(rng: &mut SplitMix64, random: usize) -> Vec<Problem> {
    let mut problems: Vec<Problem> = (0..random).map(|_| random_problem(rng)).collect();
    problems.push(Queens::new(8).unwrap().problem().clone());
    problems.push(Langford::new(7).unwrap().problem().clone());
    problems.push(
        EdgeMatching::random(4, 4, 4, 2, true)
            .unwrap()
            .problem()
            .clone(),
    );
    problems.push(
        EdgeMatching::macmahon(2, 2, 3, None)
            .unwrap()
            .problem()
            .clone(),
    );
    problems
}

/// Checks the nodes of a count by parts against the whole count's: the same on the random
/// problems of `problems_for_parts` (the first `random`), within 1% on the models. A part's
/// search starts from its prefix taken afresh, where the whole search enters the part's node
/// after backing up from the parts before it, and backing up restores the sizes of the sets
/// but not the order of their entries nor of the active list: the forced moves can come in
/// another order, and a wipe-out be found one forced move sooner or later (8-queens cut at
/// depth 1: 858 nodes against 857).
fn assert_nodes(round: usize, random: usize, parts: u64, whole: u64, what: &str) {
    if round < random {
        assert_eq!(parts, whole, "round {round}: {what}");
    } else {
        assert!(
            parts.abs_diff(whole) * 100 <= whole,
            "round {round}: {what}: {parts} against {whole}"
        );
    }
}

/// Counts every part of `parts` with `engine` in one go: (solutions, nodes) summed.
fn count_parts(engine: &mut Cells, parts: &[Vec<u32>]) -> (u64, u64) {
    let (mut solutions, mut nodes) = (0, 0);
    for part in parts {
        let out = engine.count_below(part, &Budget::unlimited());
        assert_eq!(out.end, End::Exhausted);
        assert_eq!(engine.progress(), 1.0);
        assert_eq!(Resumable::nodes(engine), out.stats.nodes());
        solutions += out.stats.solutions();
        nodes += out.stats.nodes();
    }
    (solutions, nodes)
}

/// The tree cut by the search itself: the parts' counts and the solutions above the cut
/// make the whole count, which is the bitset search's, and the nodes above the cut and in
/// the parts make the whole count's nodes (a part's node is the node the whole search
/// enters: the same items and sizes; see `assert_nodes` for the models). Every part has the
/// cut's depth.
#[test]
fn the_parts_of_its_own_cut_add_up_to_the_whole_count() {
    let mut rng = SplitMix64::new(0xce11_c075);
    for (round, problem) in problems_for_parts(&mut rng, 1500).iter().enumerate() {
        let mut engine = Cells::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited()).stats;
        if let Ok(mut dense) = crate::engine::Dense::new(problem) {
            let d = dense.count(&Budget::unlimited()).stats;
            assert_eq!(d.solutions(), whole.solutions(), "round {round}");
        }
        for want in [1, 2, 7, 64] {
            let cut = Search::cut(&mut engine, want);
            assert!(cut.parts.iter().all(|p| p.len() == cut.depth));
            assert!(cut.parts.is_empty() || cut.depth > 0, "round {round}");
            let (solutions, nodes) = count_parts(&mut engine, &cut.parts);
            assert_eq!(
                solutions + cut.above.solutions(),
                whole.solutions(),
                "round {round}, want {want}: the solutions"
            );
            let what = format!("want {want}: the nodes");
            assert_nodes(round, 1500, nodes + cut.above.nodes(), whole.nodes(), &what);
        }
    }
}

/// The tree cut by the bitset search (another choice of items where the two differ, and
/// its look one step ahead on colours): the sparse-set search's counts of its parts and
/// the solutions above its cut make the whole count.
#[test]
fn the_parts_cut_by_the_bitset_search_add_up_to_the_whole_count() {
    let mut rng = SplitMix64::new(0xce11_de25);
    for (round, problem) in problems_for_parts(&mut rng, 1500).iter().enumerate() {
        let Ok(mut dense) = crate::engine::Dense::new(problem) else {
            continue;
        };
        let mut engine = Cells::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited()).stats;
        for want in [1, 2, 7, 64] {
            let cut = Search::cut(&mut dense, want);
            let mut solutions = cut.above.solutions();
            for part in &cut.parts {
                let mine = engine.count_below(part, &Budget::unlimited());
                let theirs = dense.count_below(part, &Budget::unlimited());
                assert_eq!(mine.end, End::Exhausted);
                assert_eq!(
                    mine.stats.solutions(),
                    theirs.stats.solutions(),
                    "round {round}, want {want}, part {part:?}"
                );
                solutions += mine.stats.solutions();
            }
            assert_eq!(solutions, whole.solutions(), "round {round}, want {want}");
        }
    }
}

/// A part counts the solutions that contain its prefix's options, whatever the order they
/// are taken in: none where they conflict, where one leaves an item no option, or where the
/// prefix names no option.
#[test]
fn a_part_counts_the_solutions_with_its_options() {
    // Options 0 and 1 share the item a.
    let f = dlx_format::parse(b"a b c\na b\na c\nb c\nc\nb\n", "t").unwrap();
    let mut engine = Cells::new(&f.problem).unwrap();
    assert_eq!(engine.count(&Budget::unlimited()).stats.solutions(), 2);
    for (prefix, solutions) in [
        (vec![0], 1),
        (vec![1], 1),
        (vec![0, 1], 0),
        (vec![1, 0], 0),
        (vec![0, 3], 1),
        (vec![0, 3, 2], 0),
        (vec![7], 0),
        (vec![2, 3], 0),
        (vec![2], 0),
        (vec![3, 0], 1),
        (vec![4, 1], 1),
    ] {
        let out = engine.count_below(&prefix, &Budget::unlimited());
        assert_eq!(out.end, End::Exhausted, "{prefix:?}");
        assert_eq!(out.stats.solutions(), solutions, "{prefix:?}");
        assert_eq!(engine.progress(), 1.0);
    } // The search branches on y (one option, {x y}); a prefix that takes {x z} first (the
    // bitset search's choice could) leaves y no option, which only the check of the sizes
    // sees: hiding x's options is not checked, as the search's own choice needs no check.
    let f = dlx_format::parse(b"x y z\nx z\nx y\nz\n", "t").unwrap();
    let mut engine = Cells::new(&f.problem).unwrap();
    assert_eq!(engine.count(&Budget::unlimited()).stats.solutions(), 1);
    for (prefix, solutions) in [(vec![0], 0), (vec![1], 1), (vec![2], 1), (vec![2, 1], 1)] {
        let out = engine.count_below(&prefix, &Budget::unlimited());
        assert_eq!(out.end, End::Exhausted, "{prefix:?}");
        assert_eq!(out.stats.solutions(), solutions, "{prefix:?}");
    }
}

/// A part counted in slices of 1 to 64 nodes, each resumed where the last stopped, gives
/// the part's count and nodes in one go; its estimate of the fraction done never goes back
/// and ends at 1; the limit of each slice is on the part's count so far.
#[test]
fn a_part_resumed_is_the_part_counted_in_one_go() {
    let mut rng = SplitMix64::new(0xce11_7e5e);
    let mut problems = problems_for_parts(&mut rng, 600);
    problems.push(Queens::new(10).unwrap().problem().clone());
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Cells::new(problem).unwrap();
        let cut = Search::cut(&mut engine, 7);
        for part in &cut.parts {
            let whole = engine.count_below(part, &Budget::unlimited()).stats;
            let mut limit = 1 + rng.below(64);
            let mut out = engine.count_below(
                part,
                &Budget {
                    nodes: Some(limit),
                    ..Budget::default()
                },
            );
            let mut last = 0.0;
            loop {
                let progress = engine.progress();
                assert!(
                    progress >= last - 1e-12,
                    "round {round}: {last} then {progress}"
                );
                last = progress;
                if out.end == End::Exhausted {
                    assert_eq!(progress, 1.0);
                    break;
                }
                assert_eq!(out.end, End::NodeLimit, "round {round}");
                assert_eq!(out.stats.nodes(), limit, "round {round}");
                assert_eq!(Resumable::nodes(&engine), limit);
                assert!(progress < 1.0, "round {round}");
                limit += 1 + rng.below(64);
                out = engine.resume(&Budget {
                    nodes: Some(limit),
                    ..Budget::default()
                });
            }
            assert_eq!(
                (out.stats.solutions(), out.stats.nodes()),
                (whole.solutions(), whole.nodes()),
                "round {round}, part {part:?}"
            );
        }
    }
}

/// A forked search counts the same, whole and by parts, and shares the arrays as built.
#[test]
fn a_forked_search_counts_the_same() {
    let mut rng = SplitMix64::new(0xce11_f0e5);
    for (round, problem) in problems_for_parts(&mut rng, 300).iter().enumerate() {
        let mut engine = Cells::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited()).stats;
        let cut = Search::cut(&mut engine, 5);
        // Stopped half way: the fork starts afresh all the same.
        let _ = engine.count(&Budget {
            nodes: Some(3),
            ..Budget::default()
        });
        let mut fork = engine.fork();
        assert!(Arc::ptr_eq(&fork.set0, &engine.set0));
        assert_eq!(fork.nodes(), 0);
        let again = fork.count(&Budget::unlimited()).stats;
        assert_eq!(
            (again.solutions(), again.nodes(), again.updates()),
            (whole.solutions(), whole.nodes(), whole.updates()),
            "round {round}"
        );
        let (solutions, nodes) = count_parts(&mut fork, &cut.parts);
        assert_eq!(solutions + cut.above.solutions(), whole.solutions());
        assert_nodes(
            round,
            300,
            nodes + cut.above.nodes(),
            whole.nodes(),
            "by parts",
        );
    }
}

/// On threads (`run/threads.rs`), with deadlines that stop the parts half way, the count
/// and nodes are the count's on one thread (the nodes as in `assert_nodes`).
#[test]
fn the_count_on_threads_is_the_count() {
    use crate::engine::run::threads::{Shared, count_on_threads, resume_in_growing_slices};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut rng = SplitMix64::new(0xce11_4ead);
    let mut problems = problems_for_parts(&mut rng, 150);
    problems.push(Queens::new(10).unwrap().problem().clone());
    for (round, problem) in problems.iter().enumerate() {
        let mut engine = Cells::new(problem).unwrap();
        let whole = engine.count(&Budget::unlimited()).stats;
        let (split, _) =
            pool.install(|| count_on_threads(engine.sibling(), 2, 16, &Budget::unlimited()));
        assert_eq!(split.end, End::Exhausted, "round {round}");
        assert_eq!(split.stats.solutions(), whole.solutions(), "round {round}");
        assert_nodes(round, 150, split.stats.nodes(), whole.nodes(), "on threads");
        let mut shared = pool.install(|| Shared::new(engine.sibling(), 2, 16));
        let stats = resume_in_growing_slices(&pool, &mut shared, round);
        assert_eq!(stats.solutions(), whole.solutions(), "round {round}");
        assert_nodes(
            round,
            150,
            stats.nodes(),
            whole.nodes(),
            "resumed on threads",
        );
    }
}
