//! The sparse-set search against the links solver and the models; the random problems and
//! the exact-cover check that the other searches' tests share.

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
