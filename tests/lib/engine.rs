//! Tests: engine. Counts and Knuth's figures on generated instances, a brute-force solver for
//! random XCC problems, budgets, limits, `first`, splitting, and fuzzing of the DLX reader.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use dancelinks::engine::run::{self, Plan};
use dancelinks::engine::{
    Budget, End, Memo, MemoMode, MultiplicitySolver, OptionId, Part, Problem, ProblemBuilder,
    Solver, Stats,
};
use dancelinks::io::dlx_format::{self, DlxFile, Limits};
use proptest::prelude::*;

use crate::instances;

fn parse(text: &str) -> DlxFile {
    let f = dlx_format::parse(text.as_bytes(), "test").expect("generated instance parses");
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    f
}

/// Counts on Knuth's DLX2 tree, whose figures these tests check.
fn count(text: &str) -> Stats {
    let f = parse(text);
    let outcome = Solver::new(&f.problem)
        .knuth_tree(true)
        .count(&Budget::unlimited());
    assert_eq!(outcome.end, End::Exhausted);
    outcome.stats
}

/// All solutions, in the order found.
fn solutions(problem: &Problem, budget: &Budget) -> (Vec<Vec<OptionId>>, Stats, End) {
    let mut all = Vec::new();
    let outcome = Solver::new(problem).run(budget, &mut |s: &[OptionId]| {
        all.push(s.to_vec());
        ControlFlow::Continue(())
    });
    (all, outcome.stats, outcome.end)
}

/// Checks the semantics of exact cover with colours, independently of the engine: every
/// primary item exactly once; every secondary item at most once, or only by options that all
/// give it the same colour.
fn is_exact_cover(problem: &Problem, options: &[OptionId]) -> bool {
    let mut uses = vec![0usize; problem.item_count()];
    let mut colours: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); problem.item_count()];
    for &o in options {
        for e in problem.option_entries(o) {
            uses[e.item.0 as usize] += 1;
            colours[e.item.0 as usize].insert(e.colour.0);
        }
    }
    problem.items().all(|i| {
        let k = i.0 as usize;
        if problem.is_primary(i) {
            uses[k] == 1
        } else {
            uses[k] <= 1 || (colours[k].len() == 1 && !colours[k].contains(&0))
        }
    })
}

/// Every subset of the options that is an exact cover, each as a sorted list.
fn brute_force(problem: &Problem) -> BTreeSet<Vec<OptionId>> {
    let n = problem.option_count();
    assert!(n <= 16);
    (0u32..1 << n)
        .map(|mask| {
            (0..n as u32)
                .filter(|k| mask & (1 << k) != 0)
                .map(OptionId)
                .collect::<Vec<_>>()
        })
        .filter(|s| is_exact_cover(problem, s))
        .collect()
}

#[test]
fn queens_counts_1_to_12_in_both_orders() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for (n, &want) in (1..).zip(expected.iter()) {
        for organ_pipe in [true, false] {
            let stats = count(&instances::queens(n, organ_pipe));
            assert_eq!(stats.solutions(), want, "n={n} organ_pipe={organ_pipe}");
        }
    }
}

#[test]
fn queens_solutions_are_covers_and_boards() {
    let f = parse(&instances::queens(8, true));
    let (all, stats, _) = solutions(&f.problem, &Budget::unlimited());
    assert_eq!(all.len(), 92);
    assert_eq!(stats.solutions(), 92);
    let mut boards = BTreeSet::new();
    for s in &all {
        assert!(is_exact_cover(&f.problem, s));
        // Read the queens back from the option names and check no two attack each other.
        let mut queens: Vec<(i64, i64)> = s
            .iter()
            .map(|&o| {
                let text = f.problem.format_option(o);
                let mut it = text.split(' ');
                let r = it.next().unwrap()[1..].parse().unwrap();
                let c = it.next().unwrap()[1..].parse().unwrap();
                (r, c)
            })
            .collect();
        queens.sort();
        for (i, a) in queens.iter().enumerate() {
            for b in &queens[i + 1..] {
                assert!(a.0 != b.0 && a.1 != b.1 && (a.0 - b.0).abs() != (a.1 - b.1).abs());
            }
        }
        boards.insert(queens);
    }
    assert_eq!(boards.len(), 92, "every solution is found once");
}

#[test]
fn organ_pipe_order_of_8() {
    assert_eq!(instances::organ_pipe_order(8), [4, 3, 5, 2, 6, 1, 7, 0]);
    assert_eq!(instances::organ_pipe_order(13)[..5], [6, 5, 7, 4, 8]);
    let text = instances::queens(8, true);
    let items = text.lines().nth(1).unwrap();
    assert!(items.starts_with("r4 c4 r3 c3 r5 c5 r2 c2 r6 c6 r1 c1 r7 c7 r0 c0 | a1 b1 a2 b2"));
    assert!(items.ends_with("a13 b13"));
}

#[test]
fn knuth_13_queens_organ_pipe() {
    let text = instances::queens(13, true);
    let stats = count(&text);
    assert_eq!(stats.solutions(), 73712);
    assert_eq!(stats.nodes(), 1_046_319);
    assert_eq!(stats.updates(), 17_463_157);
    assert_eq!(stats.mems(), 252_453_315);
    // 72 items (26 primary, 46 diagonals) and 2 ring heads; 915 nodes (node 0, 72 headers,
    // 672 entries, 170 spacers); 13 levels: 16·74 + 16·915 + 4·13 bytes.
    let bytes = dancelinks::engine::structure_bytes(&parse(&text).problem, stats.max_level());
    assert_eq!(bytes, 15_876);
    assert_eq!(
        stats.knuth_line(bytes),
        "Altogether 73712 solutions, 0+252453315 mems, 17463157 updates, 15876 bytes, \
         1046319 nodes."
    );
}

#[test]
fn knuth_13_queens_plain_order() {
    let stats = count(&instances::queens(13, false));
    assert_eq!(stats.solutions(), 73712);
    assert_eq!(stats.nodes(), 1_651_935);
    assert_eq!(stats.updates(), 31_415_080);
}

#[test]
fn langford_pairs() {
    for (n, want) in [(1, 0), (2, 0), (3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        assert_eq!(count(&instances::langford(n)).solutions(), want, "n={n}");
    }
}

#[test]
fn langford_solutions_are_valid() {
    let f = parse(&instances::langford(7));
    let (all, _, _) = solutions(&f.problem, &Budget::unlimited());
    assert_eq!(all.len(), 52);
    let mut seqs = BTreeSet::new();
    for s in &all {
        let mut slots = [0usize; 14];
        for &o in s {
            let text = f.problem.format_option(o);
            let parts: Vec<&str> = text.split(' ').collect();
            let k: usize = parts[0].parse().unwrap();
            let i: usize = parts[1][1..].parse().unwrap();
            let j: usize = parts[2][1..].parse().unwrap();
            assert_eq!(j - i, k + 1);
            slots[i] = k;
            slots[j] = k;
        }
        assert!(slots.iter().all(|&k| k != 0));
        let mirror: Vec<usize> = slots.iter().rev().copied().collect();
        seqs.insert(slots.to_vec());
        assert!(mirror != slots.to_vec());
    }
    // Both mirror images are among the solutions.
    for s in &seqs {
        let mirror: Vec<usize> = s.iter().rev().copied().collect();
        assert!(seqs.contains(&mirror));
    }
}

#[test]
fn pentomino_orientations() {
    let counts: Vec<usize> = instances::PENTOMINOES
        .iter()
        .map(|(_, cells)| instances::orientations(cells).len())
        .collect();
    // F I L N P T U V W X Y Z
    assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
}

#[test]
fn pentominoes_3x20() {
    let f = parse(&instances::pentominoes(3, 20, false));
    let (all, _, _) = solutions(&f.problem, &Budget::unlimited());
    assert_eq!(all.len(), 8);
    for s in &all {
        assert_eq!(s.len(), 12);
        assert!(is_exact_cover(&f.problem, s));
    }
}

const SUDOKU: &str =
    "53..7.... 6..195... .98....6. 8...6...3 4..8.3..1 7...2...6 .6....28. ...419..5 ....8..79";

#[test]
fn sudoku_unique_solution_is_a_valid_grid() {
    let f = parse(&instances::sudoku(SUDOKU));
    let (all, _, _) = solutions(&f.problem, &Budget::unlimited());
    assert_eq!(all.len(), 1);
    let mut grid = [[0u8; 9]; 9];
    for &o in &all[0] {
        // p{r}{c} r{r}{d} ...
        let text = f.problem.format_option(o);
        let b = text.as_bytes();
        let (r, c) = ((b[1] - b'0') as usize, (b[2] - b'0') as usize);
        grid[r][c] = b[b.len() - 1] - b'0';
    }
    let full: BTreeSet<u8> = (1..=9).collect();
    for k in 0..9 {
        let row: BTreeSet<u8> = (0..9).map(|j| grid[k][j]).collect();
        let col: BTreeSet<u8> = (0..9).map(|i| grid[i][k]).collect();
        let bx: BTreeSet<u8> = (0..9)
            .map(|t| grid[3 * (k / 3) + t / 3][3 * (k % 3) + t % 3])
            .collect();
        assert_eq!(row, full);
        assert_eq!(col, full);
        assert_eq!(bx, full);
    }
    let givens: Vec<char> = SUDOKU.chars().filter(|c| !c.is_whitespace()).collect();
    for (k, g) in givens.iter().enumerate() {
        if let Some(d) = g.to_digit(10) {
            assert_eq!(grid[k / 9][k % 9] as u32, d);
        }
    }
}

#[test]
fn taocp_colour_example() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/taocp-colour.dlx");
    let text = std::fs::read_to_string(&path).unwrap();
    let f = parse(&text);
    let (all, stats, _) = solutions(&f.problem, &Budget::unlimited());
    assert_eq!(stats.solutions(), 1);
    let names: Vec<String> = all[0].iter().map(|&o| f.problem.format_option(o)).collect();
    assert_eq!(names, ["q x:A", "p r x:A y"]);
}

#[test]
fn builder_api_by_id_with_colours() {
    use dancelinks::engine::Entry;
    let mut b = ProblemBuilder::new();
    let p = b.primary("p").unwrap();
    let q = b.primary("q").unwrap();
    let x = b.secondary("x").unwrap();
    let red = b.colour("red").unwrap();
    let blue = b.colour("blue").unwrap();
    b.add_option([Entry::plain(p), Entry::coloured(x, red)], 1)
        .unwrap();
    b.add_option([Entry::plain(q), Entry::coloured(x, red)], 2)
        .unwrap();
    b.add_option([Entry::plain(q), Entry::coloured(x, blue)], 3)
        .unwrap();
    let problem = b.build().unwrap();
    let (all, _, _) = solutions(&problem, &Budget::unlimited());
    assert_eq!(all, [vec![OptionId(0), OptionId(1)]]);
    assert_eq!(problem.cost(OptionId(2)), 3);
}

#[test]
fn costs_are_read_and_summed() {
    let f = dlx_format::parse(b"a b\na |3 |4\nb |0\na b\n", "t").unwrap();
    assert_eq!(f.problem.cost(OptionId(0)), 7);
    assert_eq!(f.problem.cost(OptionId(1)), 0);
    assert_eq!(f.problem.cost(OptionId(2)), 0);
    assert_eq!(f.problem.format_option(OptionId(0)), "a");
}

#[test]
fn limit_first_and_budgets() {
    let f = parse(&instances::queens(8, true));
    let (all, full, _) = solutions(&f.problem, &Budget::unlimited());
    // --limit: the first k solutions, in order.
    for k in [1, 5, 92, 100] {
        let (some, stats, end) = solutions(&f.problem, &Budget::solutions(k));
        assert_eq!(some[..], all[..(k as usize).min(92)]);
        assert_eq!(stats.solutions(), k.min(92));
        assert_eq!(
            end,
            if k <= 92 {
                End::SolutionLimit
            } else {
                End::Exhausted
            }
        );
    }
    assert_eq!(Solver::new(&f.problem).first().as_ref(), all.first());
    // A node budget stops within it; the solver is left reusable.
    let mut solver = Solver::new(&f.problem);
    for nodes in [1, 10, 100, 500] {
        let budget = Budget {
            nodes: Some(nodes),
            ..Budget::default()
        };
        let o = solver.count(&budget);
        assert_eq!(o.end, End::NodeLimit);
        assert!(o.stats.nodes() <= nodes);
        assert!(o.stats.solutions() < 92);
    }
    let o = solver.count(&Budget::unlimited());
    assert_eq!(o.stats, full);
    let o = solver.count(&Budget {
        mems: Some(1000),
        ..Budget::default()
    });
    assert_eq!(o.end, End::MemLimit);
    let o = solver.count(&Budget::unlimited().with_time(std::time::Duration::ZERO));
    assert_eq!(o.end, End::TimeLimit);
    assert_eq!(solver.count(&Budget::unlimited()).stats, full);
}

/// The parts of a split, taken in order, reproduce the sequential search.
fn check_split(problem: &Problem, depth: usize) {
    let (all, seq, _) = solutions(problem, &Budget::unlimited());
    let mut solver = Solver::new(problem);
    let split = solver.split(depth);
    let mut found = Vec::new();
    let mut stats = split.stats;
    for part in &split.parts {
        match part {
            Part::Solution(s) => found.push(s.clone()),
            Part::Subproblem(prefix) => {
                let o =
                    solver.run_subproblem(prefix, &Budget::unlimited(), &mut |s: &[OptionId]| {
                        found.push(s.to_vec());
                        ControlFlow::Continue(())
                    });
                stats += o.stats;
            }
        }
    }
    assert_eq!(found, all, "depth {depth}");
    assert_eq!(stats.solutions(), seq.solutions());
    assert_eq!(stats.nodes(), seq.nodes(), "depth {depth}");
    assert_eq!(stats.updates(), seq.updates(), "depth {depth}");
    // On threads the totals are those of the count on one thread (the same search: the
    // bitset search where it takes the problem), in shards (the plan's own split of the
    // dance) the sequential ones.
    let spread = |threads, shard| Plan {
        threads,
        shard,
        ..Plan::default()
    };
    let par = run::count(problem, &spread(2, None)).stats;
    let one = run::count(problem, &spread(1, None)).stats;
    assert_eq!(par.solutions(), seq.solutions());
    assert_eq!(par.nodes(), one.nodes());
    for shards in [2, 3, 5] {
        let sum: Stats = (1..=shards)
            .map(|s| run::count(problem, &spread(1, Some((s, shards)))).stats)
            .sum();
        assert_eq!(sum.solutions(), seq.solutions(), "{shards} shards");
        assert_eq!(sum.nodes(), seq.nodes(), "{shards} shards");
    }
}

#[test]
fn split_reproduces_sequential_search() {
    let queens = parse(&instances::queens(9, true));
    for depth in 0..5 {
        check_split(&queens.problem, depth);
    }
    let colours = parse(&instances::pentominoes(3, 20, false));
    check_split(&colours.problem, 2);
    let taocp = parse("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n");
    for depth in 0..4 {
        check_split(&taocp.problem, depth);
    }
}

/// A random small XCC problem in DLX format.
fn random_problem() -> impl Strategy<Value = String> {
    random_xcc(5, 11)
}

/// A random XCC problem in DLX format: fewer than `primary` primary items, up to 3 secondary
/// ones, up to 3 colours, fewer than `options` options of up to 4 items each.
pub fn random_xcc(primary: usize, options: usize) -> impl Strategy<Value = String> {
    (1usize..primary, 0usize..4, 1usize..4).prop_flat_map(move |(np, ns, nc)| {
        let entry = (0..np + ns, 0..=nc);
        let option = proptest::collection::vec(entry, 1..5);
        proptest::collection::vec(option, 0..options).prop_map(move |options| {
            let mut s = String::new();
            for i in 0..np {
                s.push_str(&format!("p{i} "));
            }
            s.push('|');
            for i in 0..ns {
                s.push_str(&format!(" s{i}"));
            }
            s.push('\n');
            for opt in options {
                let mut seen = BTreeSet::new();
                let mut line = Vec::new();
                for (item, colour) in opt {
                    if !seen.insert(item) {
                        continue;
                    }
                    if item < np {
                        line.push(format!("p{item}"));
                    } else if colour == 0 {
                        line.push(format!("s{}", item - np));
                    } else {
                        line.push(format!("s{}:c{colour}", item - np));
                    }
                }
                s.push_str(&line.join(" "));
                s.push('\n');
            }
            s
        })
    })
}

proptest! {
    #[test]
    fn random_xcc_matches_brute_force(text in random_problem()) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        let (all, stats, end) = solutions(problem, &Budget::unlimited());
        prop_assert_eq!(end, End::Exhausted);
        prop_assert_eq!(stats.solutions(), all.len() as u64);
        for s in &all {
            prop_assert!(is_exact_cover(problem, s), "not a cover: {:?}", s);
        }
        let found: BTreeSet<Vec<OptionId>> = all
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.sort();
                s
            })
            .collect();
        prop_assert_eq!(found.len(), all.len(), "a solution was reported twice");
        prop_assert_eq!(&found, &brute_force(problem));
        // Counting only agrees with enumerating.
        let counted = Solver::new(problem).count(&Budget::unlimited()).stats;
        prop_assert_eq!(counted, stats);
        // Knuth's DLX2 tree finds the same solutions in the same order; the default tree,
        // which abandons dead ends while committing, never visits more nodes.
        let mut knuth = Vec::new();
        let mut solver = Solver::new(problem);
        let k = solver.knuth_tree(true).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            knuth.push(s.to_vec());
            ControlFlow::Continue(())
        });
        prop_assert_eq!(&knuth, &all);
        prop_assert!(k.stats.nodes() >= stats.nodes());
        // The solver is left as it was found.
        prop_assert_eq!(solver.knuth_tree(false).count(&Budget::unlimited()).stats, stats);
        // Splitting at any depth gives the same solutions in the same order.
        for depth in 0..3 {
            let mut solver = Solver::new(problem);
            let split = solver.split(depth);
            let mut parts = Vec::new();
            let mut nodes = split.stats.nodes();
            for part in &split.parts {
                match part {
                    Part::Solution(s) => parts.push(s.clone()),
                    Part::Subproblem(prefix) => {
                        nodes += solver
                            .run_subproblem(prefix, &Budget::unlimited(), &mut |s: &[OptionId]| {
                                parts.push(s.to_vec());
                                ControlFlow::Continue(())
                            })
                            .stats
                            .nodes();
                    }
                }
            }
            prop_assert_eq!(&parts, &all);
            prop_assert_eq!(nodes, stats.nodes());
        }
    }

    #[test]
    fn reader_never_panics_on_random_bytes(
        bytes in proptest::collection::vec(
            prop_oneof![
                4 => proptest::sample::select(b"ab|: \n\tx1\r".to_vec()),
                1 => any::<u8>(),
            ],
            0..200,
        )
    ) {
        check_reader(&bytes);
    }

    #[test]
    fn reader_never_panics_on_mutated_files(
        base in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let sources = [
            instances::queens(4, true),
            "| c\np q r | x y\np q x y:A\np r x:A y |2\np x:B\nq x:A\nr y:B |1 |3\n".to_string(),
            instances::langford(3),
        ];
        let mut bytes = sources[base].clone().into_bytes();
        for (at, byte, op) in edits {
            let k = at % (bytes.len() + 1);
            match op {
                0 => bytes.insert(k, byte),
                1 if k < bytes.len() => { bytes.remove(k); }
                _ if k < bytes.len() => bytes[k] = byte,
                _ => bytes.push(byte),
            }
        }
        check_reader(&bytes);
    }
}

/// The reader gives a problem or a clean error with a sensible position, never a panic; a
/// problem it gives can be searched.
fn check_reader(bytes: &[u8]) {
    let lines = bytes.split(|&b| b == b'\n').count();
    match dlx_format::parse_with(
        bytes,
        "fuzz.dlx",
        &Limits {
            max_line_bytes: 64,
            max_nodes: 1000,
            max_bytes: u64::MAX,
        },
    ) {
        Ok(f) => {
            assert!(f.problem.item_count() > 0);
            assert_eq!(f.option_lines.len(), f.problem.option_count());
            let o = Solver::new(&f.problem).count(&Budget {
                nodes: Some(10_000),
                ..Budget::default()
            });
            let _ = o.stats.solutions();
        }
        Err(e) => {
            assert!(e.line >= 1 && e.line <= lines, "{e}");
            assert!(e.column >= 1, "{e}");
            let shown = e.to_string();
            assert!(shown.starts_with(&format!("fuzz.dlx:{}:{}: ", e.line, e.column)));
        }
    }
}

#[test]
fn reader_limits() {
    let limits = Limits {
        max_line_bytes: 10,
        max_nodes: 8,
        max_bytes: u64::MAX,
    };
    let e = dlx_format::parse_with(b"a b\na\nabcdefghijk\n", "f", &limits).unwrap_err();
    assert_eq!((e.line, e.column), (3, 11));
    assert_eq!(e.kind, dlx_format::ErrorKind::LineTooLong(10));
    // 2 items + (2+1) + (2+1) nodes = 8; one more option is too many.
    let ok = dlx_format::parse_with(b"a b\na b\na b\n", "f", &limits).unwrap();
    assert_eq!(ok.problem.option_count(), 2);
    let e = dlx_format::parse_with(b"a b\na b\na b\na\n", "f", &limits).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(matches!(e.kind, dlx_format::ErrorKind::TooManyNodes(8)));
    // A memory limit of 8 nodes' worth: the option that would pass it fails at its line.
    let memory = Limits {
        max_bytes: 8 * dlx_format::BYTES_PER_NODE,
        ..Limits::default()
    };
    dlx_format::parse_with(b"a b\na b\na b\n", "f", &memory).unwrap();
    let e = dlx_format::parse_with(b"a b\na b\na b\na\n", "f", &memory).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(matches!(
        e.kind,
        dlx_format::ErrorKind::TooBigForMemory { nodes: 10, .. }
    ));
    assert!(e.to_string().contains("outgrows the memory"), "{e}");
}

#[test]
fn reader_accepts_knuths_layout_and_extensions() {
    let text = "\u{feff}| comment\n\n   | indented comment\n  first second |third\r\n first third:long-colour \n\tsecond\n";
    let f = dlx_format::parse(text.as_bytes(), "f").unwrap();
    assert_eq!(f.problem.primary_count(), 2);
    assert_eq!(f.problem.secondary_count(), 1);
    assert_eq!(f.option_lines, [5, 6]);
    assert_eq!(
        f.problem.format_option(OptionId(0)),
        "first third:long-colour"
    );
    // An option without primary items is ignored, with a warning naming its line.
    let f = dlx_format::parse(b"a | x\nx\na x\n", "w.dlx").unwrap();
    assert_eq!(f.problem.option_count(), 1);
    assert_eq!(f.warnings.len(), 1);
    assert_eq!(f.warnings[0].line, 2);
    assert_eq!(
        f.warnings[0].to_string(),
        "w.dlx:2: warning: option ignored (no primary items): x"
    );
}

/// The user-built model of `examples/dominoes.rs` (docs/engine.md, "The library API"): domino
/// tilings of a 3x4 board (11 of them).
#[test]
fn docs_example_domino_tilings() {
    use dancelinks::engine::{Budget, Entry, ProblemBuilder, Solver};
    use std::ops::ControlFlow;

    let (rows, cols) = (3, 4);
    let mut b = ProblemBuilder::new();
    // One primary item per cell: each cell is covered by exactly one domino.
    let mut cell = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            cell.push(b.primary(&format!("c{r}{c}")).unwrap());
        }
    }
    let id = |r: usize, c: usize| cell[r * cols + c];
    // One option per domino: horizontal (cost 1) and vertical (cost 2).
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                b.add_option([Entry::plain(id(r, c)), Entry::plain(id(r, c + 1))], 1)
                    .unwrap();
            }
            if r + 1 < rows {
                b.add_option([Entry::plain(id(r, c)), Entry::plain(id(r + 1, c))], 2)
                    .unwrap();
            }
        }
    }
    let problem = b.build().unwrap();

    let mut solver = Solver::new(&problem);
    let outcome = solver.count(&Budget::unlimited());
    assert_eq!(outcome.stats.solutions(), 11);

    // Visit solutions; stop at the first one that uses only horizontal dominoes.
    let mut all_horizontal = None;
    solver.run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        if s.iter().all(|&o| problem.cost(o) == 1) {
            all_horizontal = Some(
                s.iter()
                    .map(|&o| problem.format_option(o))
                    .collect::<Vec<_>>(),
            );
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    let rows_of_dominoes = all_horizontal.unwrap();
    assert_eq!(rows_of_dominoes.len(), 6);
    assert!(rows_of_dominoes.contains(&"c00 c01".to_string()));

    let first = solver.first().unwrap();
    assert_eq!(first.len(), 6);
    assert!(is_exact_cover(&problem, &first));
}

#[test]
fn reader_columns_count_characters() {
    let e = dlx_format::parse("é ü\né x\n".as_bytes(), "f").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    // A long line cut in the middle of a character: the column counts whole characters.
    let limits = Limits {
        max_line_bytes: 4,
        max_nodes: 100,
        max_bytes: u64::MAX,
    };
    let e = dlx_format::parse_with("a\néééé\n".as_bytes(), "f", &limits).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    let e = dlx_format::parse("a\nä\u{fffd}\n".as_bytes(), "f").unwrap_err();
    assert_eq!(
        e.kind,
        dlx_format::ErrorKind::UnknownItem("ä\u{fffd}".into())
    );
    let e = dlx_format::parse(b"a\n\xc3\xa4\xc3\n", "f").unwrap_err();
    assert_eq!(
        (e.line, e.column, e.kind),
        (2, 2, dlx_format::ErrorKind::InvalidUtf8)
    );
}

#[test]
fn mem_budget_stops_within_the_budget_and_close_to_it() {
    let f = parse(&instances::queens(12, true));
    let full = Solver::new(&f.problem).count(&Budget::unlimited()).stats;
    for limit in [1_000_000u64, 10_000_000] {
        let budget = Budget {
            mems: Some(limit),
            ..Budget::unlimited()
        };
        let mut solver = Solver::new(&f.problem);
        let outcome = solver.count(&budget);
        assert_eq!(outcome.end, End::MemLimit);
        let mems = outcome.stats.mems();
        assert!(
            mems <= limit && mems * 10 >= limit * 9,
            "stopped at {mems} mems for a budget of {limit}"
        );
        assert!(outcome.stats.solutions() < full.solutions());
        // The solver is whole again afterwards.
        assert_eq!(solver.count(&Budget::unlimited()).stats, full);
    }
}

/// A visitor that leaves the options of `excluded` out below every node from depth `from`
/// on, naming each twice and also naming options that are no longer active (both must be
/// ignored by the engine), and records the solutions.
struct Excluder {
    excluded: Vec<OptionId>,
    from: usize,
    found: Vec<Vec<OptionId>>,
    stop_after: usize,
    /// How `order` reorders: 0 not at all, 1 reversed, 2 rotated by one plus the depth.
    reorder: u8,
    /// The root's options in the order it asked for, and the root's option of each solution
    /// in the order they were found.
    root_order: Vec<OptionId>,
    root_choices: Vec<OptionId>,
}

impl Excluder {
    fn new(excluded: &[OptionId], from: usize, stop_after: usize, reorder: u8) -> Self {
        Excluder {
            excluded: excluded.to_vec(),
            from,
            found: Vec::new(),
            stop_after,
            reorder,
            root_order: Vec::new(),
            root_choices: Vec::new(),
        }
    }
}

impl dancelinks::engine::Visitor for Excluder {
    const PRUNES: bool = true;
    const ORDERS: bool = true;
    fn order(&mut self, view: &dancelinks::engine::View<'_>, options: &mut [OptionId]) {
        match self.reorder {
            1 => options.reverse(),
            2 => {
                let k = (1 + view.depth()) % options.len();
                options.rotate_left(k);
            }
            _ => {}
        }
        if view.depth() == 0 {
            self.root_order = options.to_vec();
        }
    }
    fn enter(&mut self, _: &dancelinks::engine::View<'_>) -> bool {
        true
    }
    fn exclude(&mut self, view: &dancelinks::engine::View<'_>, out: &mut Vec<OptionId>) {
        if view.depth() >= self.from {
            out.extend(&self.excluded);
            out.extend(&self.excluded);
        }
    }
    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        // Options come in the order of the levels (no forced ones here).
        if self.root_choices.last() != options.first() {
            self.root_choices.extend(options.first());
        }
        let mut s = options.to_vec();
        s.sort();
        self.found.push(s);
        if self.found.len() >= self.stop_after {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

proptest! {
    /// Options excluded by the visitor at the root are never part of a solution, every other
    /// solution is still found, and the solver is whole again afterwards, also after an early
    /// stop (a later count gives the full figures); the same when the visitor reorders the
    /// options of each chosen item, whose order the search then follows.
    #[test]
    fn excluded_options_leave_the_subtree_and_come_back(
        text in random_problem(),
        mask in any::<u16>(),
        stop_after in 1usize..4,
        reorder in 0u8..3,
    ) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        let excluded: Vec<OptionId> = problem.options().filter(|o| mask >> (o.0 % 16) & 1 == 1).collect();
        let expected: BTreeSet<Vec<OptionId>> = brute_force(problem)
            .into_iter()
            .filter(|s| !s.iter().any(|o| excluded.contains(o)))
            .collect();
        let full = Solver::new(problem).count(&Budget::unlimited()).stats;
        let mut solver = Solver::new(problem);
        for from in [0, 1] {
            let mut v = Excluder::new(&excluded, from, usize::MAX, reorder);
            solver.run(&Budget::unlimited(), &mut v);
            // The root's options were tried in the order asked for (it is asked only when
            // there are two or more).
            let mut tried = v.root_order.iter();
            for o in v.root_choices.iter().filter(|_| !v.root_order.is_empty()) {
                prop_assert!(tried.any(|t| t == o), "{:?} out of the order {:?}", o, v.root_order);
            }
            let found: BTreeSet<Vec<OptionId>> = v.found.iter().cloned().collect();
            prop_assert_eq!(found.len(), v.found.len(), "a solution was reported twice");
            for s in &v.found {
                prop_assert!(is_exact_cover(problem, s));
            }
            if from == 0 {
                prop_assert_eq!(&found, &expected);
            } else {
                // Below the root only: a superset of the solutions avoiding the excluded.
                prop_assert!(found.is_superset(&expected));
            }
            prop_assert_eq!(solver.count(&Budget::unlimited()).stats, full);
            let mut v = Excluder::new(&excluded, from, stop_after, reorder);
            solver.run(&Budget::unlimited(), &mut v);
            prop_assert_eq!(solver.count(&Budget::unlimited()).stats, full);
        }
    }
}

proptest! {
    /// `optimize_aiming` (the aims below the root bound, then an ordinary branch and bound)
    /// finds the best total of a brute force, with or without a seed, with the generic bound.
    #[test]
    fn aiming_optimiser_matches_brute_force(
        text in random_problem(),
        weights in proptest::collection::vec(-20i64..60, 16),
    ) {
        use dancelinks::engine::optimize::{self, Config, Keep, Sense, ShareBound, Status};
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        let w: Vec<i64> = problem.options().map(|o| weights[o.0 as usize % 16]).collect();
        let all = brute_force(problem);
        let best = all.iter().map(|s| s.iter().map(|o| w[o.0 as usize] as i128).sum::<i128>()).max();
        for sense in [Sense::Maximize, Sense::Minimize] {
            let gains = sense.gains(&w);
            let expected = all
                .iter()
                .map(|s| s.iter().map(|o| gains[o.0 as usize]).sum::<i128>())
                .max()
                .map(|g| sense.value(g));
            if sense == Sense::Maximize {
                prop_assert_eq!(expected, best);
            }
            let seeds: Vec<Vec<Vec<OptionId>>> = vec![Vec::new(), all.iter().take(1).cloned().collect()];
            for seed in &seeds {
                let mut solver = Solver::with_options(problem, optimize::best_first(problem, &gains));
                let mut bound = ShareBound::new(problem, &gains);
                let config = Config { sense, keep: Keep::Best, budget: Budget::unlimited() };
                let strategy = optimize::Strategy::new().seeds(seed).aiming();
                let r = optimize::optimize(&mut solver, &gains, &mut bound, &config, strategy);
                prop_assert_eq!(r.value(), expected);
                prop_assert_eq!(r.status, if expected.is_some() { Status::Optimal } else { Status::Infeasible });
                if let Some(s) = r.solutions.first() {
                    prop_assert!(all.contains(&s.options));
                }
                // The solver is whole again.
                prop_assert_eq!(solver.count(&Budget::unlimited()).stats.solutions(), all.len() as u64);
            }
        }
    }
}

/// Appends the option lines of the random problems below: each option's entries (item,
/// colour) with repeated items dropped; items below `np` are the primary `p0..`, the others the
/// secondary `s0..`, colour 0 meaning none.
fn push_options(s: &mut String, np: usize, options: Vec<Vec<(usize, usize)>>) {
    for opt in options {
        let mut seen = BTreeSet::new();
        let line: Vec<String> = opt
            .into_iter()
            .filter(|&(item, _)| seen.insert(item))
            .map(|(item, colour)| match (item < np, colour) {
                (true, _) => format!("p{item}"),
                (false, 0) => format!("s{}", item - np),
                (false, c) => format!("s{}:c{c}", item - np),
            })
            .collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
}

/// A random XCC problem with more options than the brute force can take (up to 40), for
/// comparing the memoised count with the plain one: few items, so that nodes with the same
/// items left are common.
fn random_memo_problem() -> impl Strategy<Value = String> {
    (1usize..7, 0usize..4, 0usize..3).prop_flat_map(|(np, ns, nc)| {
        let entry = (0..np + ns, 0..=nc);
        let option = proptest::collection::vec(entry, 1..4);
        proptest::collection::vec(option, 0..40).prop_map(move |options| {
            let mut s: String = (0..np).map(|i| format!("p{i} ")).collect();
            s.push('|');
            s.extend((0..ns).map(|i| format!(" s{i}")));
            s.push('\n');
            push_options(&mut s, np, options);
            s
        })
    })
}

proptest! {
    /// The memoised count equals the plain count (itself checked against the brute force
    /// above), with a roomy table and with one so small that it keeps replacing entries.
    #[test]
    fn memoised_counts_are_exact(text in random_memo_problem()) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let plain = Solver::new(&f.problem).count(&Budget::unlimited());
        for bytes in [1 << 20, 1] {
            let mut solver = Solver::new(&f.problem);
            let mut memo = Memo::new(solver.memo_words(), bytes);
            let memoised = solver.count_memo(&Budget::unlimited(), &mut memo);
            prop_assert_eq!(memoised.end, End::Exhausted);
            prop_assert_eq!(memoised.count, u128::from(plain.stats.solutions()));
            prop_assert!(memoised.stats.nodes() <= plain.stats.nodes());
            // The solver is left as it was found: a second count agrees.
            prop_assert_eq!(solver.count(&Budget::unlimited()).stats, plain.stats);
            // On two threads: the top of the tree cut into sub-problems, a table per thread.
            let plan = Plan { threads: 2, memo: MemoMode::On, memo_bytes: bytes, ..Plan::default() };
            let threaded = run::count(&f.problem, &plan);
            prop_assert_eq!(threaded.end, End::Exhausted);
            prop_assert_eq!(threaded.count, u128::from(plain.stats.solutions()));
        }
    }
}

/// Perfect matchings of the complete graph K_n: (n-1)!! of them. The memo finds them in far
/// fewer nodes than the plain search, and a table too small to hold them stays exact.
#[test]
fn memoised_matchings_of_complete_graphs() {
    let matchings = |n: usize| {
        let mut s: String = (0..n).map(|i| format!("v{i} ")).collect();
        s.push('\n');
        for i in 0..n {
            for j in i + 1..n {
                s.push_str(&format!("v{i} v{j}\n"));
            }
        }
        s
    };
    for (n, want) in [
        (2, 1u128),
        (4, 3),
        (6, 15),
        (10, 945),
        (14, 135_135),
        (20, 654_729_075),
    ] {
        let f = parse(&matchings(n));
        // A 4 KiB table holds a few dozen counts: enough for the small graphs only.
        let sizes: &[u64] = if n <= 14 {
            &[256 << 20, 4096]
        } else {
            &[256 << 20]
        };
        for &bytes in sizes {
            let mut solver = Solver::new(&f.problem);
            let mut memo = Memo::new(solver.memo_words(), bytes);
            let out = solver.count_memo(&Budget::unlimited(), &mut memo);
            assert_eq!(
                (out.end, out.count),
                (End::Exhausted, want),
                "K{n}, {bytes} bytes"
            );
            if n == 20 {
                // DLX6 visits a few tens of thousands of nodes here; the plain search
                // hundreds of millions.
                assert!(out.stats.nodes() < 200_000, "{}", out.stats.nodes());
                let memo = out.memo.expect("a memoised count's table");
                assert!(memo.hits > 0 && memo.evictions == 0);
            }
        }
    }
    // The automatic choice takes the memo here, and counts beyond u64 stay exact in u128
    // (the count of K_n itself fits; the sum is the check).
    let f = parse(&matchings(16));
    let auto = run::count(
        &f.problem,
        &Plan {
            memo: MemoMode::Auto,
            ..Plan::default()
        },
    );
    assert_eq!(auto.count, 2_027_025);
    assert!(auto.memo.is_some());
    // On two threads each thread has a table; the count is the same, and the tables still
    // save most of the plain search (2,027,025 solutions, over 4 million nodes without).
    let two = run::count(
        &f.problem,
        &Plan {
            threads: 2,
            memo: MemoMode::On,
            ..Plan::default()
        },
    );
    assert_eq!((two.end, two.count), (End::Exhausted, 2_027_025));
    let memo = two.memo.expect("the memo on threads");
    assert!(memo.hits > 0);
    assert!(two.split.is_some());
    assert!(two.stats.nodes() < 400_000, "{}", two.stats.nodes());
    // The default on two threads: the same count, by whichever search ends it first.
    let auto = run::count(
        &f.problem,
        &Plan {
            threads: 2,
            ..Plan::default()
        },
    );
    assert_eq!((auto.end, auto.count), (End::Exhausted, 2_027_025));
}

/// A random small problem with multiplicities (`u:v|name` on some primary items) and colours,
/// in DLX format.
fn random_multiplicity_problem() -> impl Strategy<Value = String> {
    let bounds = proptest::collection::vec((0u32..3, 1u32..4), 1..5);
    (bounds, 0usize..3, 0usize..3).prop_flat_map(|(bounds, ns, nc)| {
        let np = bounds.len();
        let entry = (0..np + ns, 0..=nc);
        let option = proptest::collection::vec(entry, 1..4);
        proptest::collection::vec(option, 0..13).prop_map(move |options| {
            let mut s = String::new();
            for (i, &(u, v)) in bounds.iter().enumerate() {
                match (u.min(v), v) {
                    (1, 1) => s.push_str(&format!("p{i} ")),
                    (u, v) if u == v => s.push_str(&format!("{v}|p{i} ")),
                    (u, v) => s.push_str(&format!("{u}:{v}|p{i} ")),
                }
            }
            s.push('|');
            s.extend((0..ns).map(|i| format!(" s{i}")));
            s.push('\n');
            push_options(&mut s, np, options);
            s
        })
    })
}

/// Every subset of the options in which each primary item is covered between its bounds and
/// each secondary item at most once or by options that agree on a colour.
fn brute_force_with_bounds(problem: &Problem) -> BTreeSet<Vec<OptionId>> {
    let n = problem.option_count();
    assert!(n <= 16);
    (0u32..1 << n)
        .map(|mask| {
            (0..n as u32)
                .filter(|k| mask & (1 << k) != 0)
                .map(OptionId)
                .collect::<Vec<_>>()
        })
        .filter(|s| {
            let mut uses = vec![0u32; problem.item_count()];
            let mut colours: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); problem.item_count()];
            for &o in s {
                for e in problem.option_entries(o) {
                    uses[e.item.0 as usize] += 1;
                    colours[e.item.0 as usize].insert(e.colour.0);
                }
            }
            problem.items().all(|i| {
                let k = i.0 as usize;
                let (u, v) = problem.bounds(i);
                if problem.is_primary(i) {
                    (u..=v).contains(&uses[k])
                } else {
                    uses[k] <= 1 || (colours[k].len() == 1 && !colours[k].contains(&0))
                }
            })
        })
        .collect()
}

proptest! {
    /// Algorithm M finds exactly the brute force's solutions, each once, and on problems
    /// without multiplicities the same number as the dancing-links solver.
    #[test]
    fn multiplicities_match_brute_force(text in random_multiplicity_problem()) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        let mut all = Vec::new();
        let mut solver = MultiplicitySolver::new(problem);
        let out = solver.run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            all.push(s.to_vec());
            ControlFlow::Continue(())
        });
        prop_assert_eq!(out.end, End::Exhausted);
        prop_assert_eq!(out.stats.solutions(), all.len() as u64);
        let found: BTreeSet<Vec<OptionId>> = all
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.sort();
                s
            })
            .collect();
        prop_assert_eq!(found.len(), all.len(), "a solution was reported twice");
        prop_assert_eq!(&found, &brute_force_with_bounds(problem));
        // Counting agrees, and the solver is left as it was found.
        prop_assert_eq!(solver.count(&Budget::unlimited()).stats, out.stats);
        if !problem.has_multiplicities() {
            let dlx = Solver::new(problem).count(&Budget::unlimited());
            prop_assert_eq!(dlx.stats.solutions(), out.stats.solutions());
        }
    }

    /// On threads Algorithm M's tree is cut into parts by their paths: the count, nodes,
    /// updates and mems of the parts and the cut add up to the whole search's exactly.
    #[test]
    fn multiplicities_on_threads_add_up_to_the_whole_search(text in random_multiplicity_problem()) {
        let f = dlx_format::parse(text.as_bytes(), "random").unwrap();
        let problem = &f.problem;
        prop_assume!(problem.has_multiplicities());
        let whole = MultiplicitySolver::new(problem).count(&Budget::unlimited());
        for threads in [2, 3] {
            let plan = Plan { threads, memo: MemoMode::Off, ..Plan::default() };
            let c = run::count(problem, &plan);
            prop_assert_eq!(c.end, End::Exhausted);
            prop_assert_eq!(c.count, u128::from(whole.stats.solutions()));
            prop_assert_eq!(c.stats, whole.stats);
            prop_assert!(c.split.is_some_and(|s| s.threads == threads), "counted on threads");
        }
    }
}
