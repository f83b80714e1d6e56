//! Exact cover with colours and multiplicities: the models of `dancelinks::models` solved by
//! xcover and by the Rust crates `dlx` 0.8.5 and `exact-covers` 0.3.0, side by side in one run.
//!
//! Solvers (one thread each; every one counts all solutions):
//! - `xcover`: what `xcover solve --count` runs (memo `auto`, the default search tree);
//! - `xc-knuth`: `--knuth`, DLX2's exact tree without the memo;
//! - `xc-memo-on`, `xc-memo-off`: `--memo on` / `--memo off` (problems without multiplicities;
//!   `--memo off` counts with the bitset engine `engine::Dense` where it takes the problem);
//! - `xc-cells`: the sparse-set engine `engine::Cells` (SSXCC's tree; no multiplicities);
//! - `dlx`: the crate `dlx`, its solver for the problem's kind (Algorithm X, C for colours, M
//!   for multiplicities, MC for both), MRV choice;
//! - `exact-covers`: the crate `exact-covers`, its dancing-links solver (Algorithm C). Its
//!   dancing-cells solver is not implemented in 0.3.0 and it has no multiplicities: those
//!   runs are skipped, saying so.
//!
//! The solvers alternate within each round (A B C A B C ...), at least two rounds; every count
//! is checked against xcover's. Prints solutions, nodes (where the solver reports them), the
//! median time and its ratio to `xcover`; for xcover, whether the count used the memo.
//!
//! The coloured instances: word squares, a random 7×7 edge-matching puzzle with 7 colours
//! (`xcover model edge-matching 7x7 --colours 7 --seed 1`; `-- quick`: 6×6) and MacMahon's 24
//! squares on 4×6 (full runs only).
//!
//! Then the suite (benches/suite/counts.csv) as `python3 benches/suite/gen.py` writes it into
//! target/suite/instances/: xcover's solvers only (the crates `dlx` and `exact-covers` take no
//! time limit), each run stopped after `XCOVER_BENCH_TIMEOUT` seconds (default 60) and shown
//! as `>T` (that solver is not run again on that instance), every finished count checked
//! against counts.csv; then, per instance, the default's time ÷ the best of `xc-knuth`,
//! `xc-memo-on` and `xc-memo-off`. Without the generated files the suite is skipped, saying so.
//!
//! Run: `cargo bench --bench xcc` (`-- quick`: one round at smaller sizes, without the suite;
//! `-- suite`: the suite alone). Set `XCOVER_BENCH_REPS` for more rounds.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use dancelinks::engine::run::{self, Plan};
use dancelinks::engine::{Budget, Cells, End, MemoMode, Problem};
use dancelinks::io::dlx_format;
use dancelinks::models::Model;
use dancelinks::models::dominoes::Dominoes;
use dancelinks::models::edge_matching::EdgeMatching;
use dancelinks::models::langford::Langford;
use dancelinks::models::matchings::Matchings;
use dancelinks::models::polyomino::{Board, Tiling};
use dancelinks::models::queens::Queens;
use dancelinks::models::sudoku::{Puzzle, Sudoku};
use dancelinks::models::word_squares::WordSquares;

/// A solved sudoku grid; an instance keeps its first cells as clues and counts the completions.
const GRID: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Xcover,
    Knuth,
    MemoOn,
    MemoOff,
    Cells,
    Dlx,
    ExactCovers,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Xcover => "xcover",
            Kind::Knuth => "xc-knuth",
            Kind::MemoOn => "xc-memo-on",
            Kind::MemoOff => "xc-memo-off",
            Kind::Cells => "xc-cells",
            Kind::Dlx => "dlx",
            Kind::ExactCovers => "exact-covers",
        }
    }
}

struct Run {
    solutions: u128,
    nodes: Option<u64>,
    /// Whether xcover's count used the memo (`None` for the other solvers).
    memo: Option<bool>,
    time: Duration,
    /// Whether the count ended (not stopped by the time limit).
    finished: bool,
}

/// The budget of one run: unlimited, or stopped after `limit`.
fn budget(limit: Option<Duration>) -> Budget {
    match limit {
        Some(l) => Budget::unlimited().with_time(l),
        None => Budget::unlimited(),
    }
}

fn xcover_run(problem: &Problem, knuth: bool, mode: MemoMode, limit: Option<Duration>) -> Run {
    let plan = Plan {
        knuth,
        memo: mode,
        budget: budget(limit),
        ..Plan::default()
    };
    let t = Instant::now();
    let c = run::count(problem, &plan);
    let time = t.elapsed();
    Run {
        solutions: c.count,
        nodes: Some(c.stats.nodes()),
        memo: Some(c.memo.is_some()),
        time,
        finished: c.end == End::Exhausted,
    }
}

/// The sparse-set engine, [`Cells`], counting all solutions (its node count is SSXCC's).
fn cells_run(problem: &Problem, limit: Option<Duration>) -> Run {
    let mut engine = Cells::new(problem).expect("no multiplicities");
    let t = Instant::now();
    let o = engine.count(&budget(limit));
    let time = t.elapsed();
    Run {
        solutions: u128::from(o.stats.solutions()),
        nodes: Some(o.stats.nodes()),
        memo: None,
        time,
        finished: o.end == End::Exhausted,
    }
}

/// The problem as DLX text with names the crate `dlx` accepts (letters and digits only):
/// item `k` is `i{k}`, a colour one printable ASCII character (all the crate reads), bounds
/// written `u:v|name`. `None` when there are more colours than such characters.
fn dlx_text(problem: &Problem) -> Option<String> {
    let glyphs: Vec<char> = ('!'..='~').filter(|&c| c != ':' && c != '|').collect();
    let mut s = String::new();
    for item in problem.items() {
        if problem.is_primary(item) {
            let (u, v) = problem.bounds(item);
            if (u, v) != (1, 1) {
                s += &format!("{u}:{v}|");
            }
        } else if item.0 as usize == problem.primary_count() {
            s += "| ";
        }
        s += &format!("i{} ", item.0);
    }
    s.push('\n');
    for o in problem.options() {
        for e in problem.option_entries(o) {
            s += &format!("i{}", e.item.0);
            if !e.colour.is_none() {
                s.push(':');
                s.push(*glyphs.get(e.colour.0 as usize - 1)?);
            }
            s.push(' ');
        }
        s.push('\n');
    }
    Some(s)
}

fn dlx_solve<P: dlx::Solve>(problem: &mut P) -> Run {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    let mut solver = dlx::Solver::new(problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let t = Instant::now();
    let mut solutions = 0u128;
    while solver.next_solution(&mut chooser) {
        solutions += 1;
    }
    let time = t.elapsed();
    // The crate's profile counts the nodes where it branched; solutions are nodes in Knuth's count.
    let nodes = solver.get_profile().iter().sum::<usize>() as u64 + solutions as u64;
    Run {
        solutions,
        nodes: Some(nodes),
        memo: None,
        time,
        finished: true,
    }
}

fn dlx_run(problem: &Problem, text: &str) -> Run {
    let spec = dlx::Spec::new(text, false).expect("valid spec");
    match (problem.has_colours(), problem.has_multiplicities()) {
        (false, false) => {
            dlx_solve(&mut dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("X"))
        }
        (true, false) => dlx_solve(&mut dlx::c::Problem::from_spec(&spec).expect("C")),
        (false, true) => {
            dlx_solve(&mut dlx::m::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("M"))
        }
        (true, true) => dlx_solve(&mut dlx::mc::Problem::from_spec(&spec).expect("MC")),
    }
}

/// An option for the crate `exact-covers`: its primary items, its secondary items and colours.
type EcOption = (Vec<u32>, Vec<(u32, Option<u32>)>);

/// The problem for the crate `exact-covers`: items by index, colours by number.
struct Ec {
    primary: Vec<u32>,
    secondary: Vec<u32>,
    options: Vec<EcOption>,
}

fn ec_problem(problem: &Problem) -> Ec {
    let (mut primary, mut secondary) = (Vec::new(), Vec::new());
    for item in problem.items() {
        if problem.is_primary(item) {
            primary.push(item.0);
        } else {
            secondary.push(item.0);
        }
    }
    let options = problem
        .options()
        .map(|o| {
            let (mut p, mut s) = (Vec::new(), Vec::new());
            for e in problem.option_entries(o) {
                if problem.is_primary(e.item) {
                    p.push(e.item.0);
                } else {
                    s.push((e.item.0, (!e.colour.is_none()).then_some(e.colour.0)));
                }
            }
            (p, s)
        })
        .collect();
    Ec {
        primary,
        secondary,
        options,
    }
}

fn ec_run(ec: &Ec) -> Run {
    use exact_covers::{DlSolver, Solver};
    let mut solver: DlSolver<u32, u32> = DlSolver::new(&ec.primary, &ec.secondary);
    for (p, s) in &ec.options {
        solver.add_option(p, s);
    }
    let t = Instant::now();
    let mut solutions = 0u128;
    solver.solve(|_| {
        solutions += 1;
        ControlFlow::Continue(())
    });
    Run {
        solutions,
        nodes: None,
        memo: None,
        time: t.elapsed(),
        finished: true,
    }
}

/// `count` distinct words of length `len` over the first `letters` letters, drawn by a fixed
/// linear congruential generator: a word list for double word squares.
fn random_words(count: usize, len: usize, letters: u8) -> Vec<String> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut seen = std::collections::HashSet::new();
    let mut words = Vec::new();
    while words.len() < count {
        let w: String = (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (b'a' + ((state >> 33) % u64::from(letters)) as u8) as char
            })
            .collect();
        if seen.insert(w.clone()) {
            words.push(w);
        }
    }
    words
}

fn sudoku_first(clues: usize) -> Sudoku {
    let line: String = GRID
        .chars()
        .enumerate()
        .map(|(k, c)| if k < clues { c } else { '.' })
        .collect();
    Sudoku::new(Puzzle::parse(&line).expect("puzzle")).expect("sudoku")
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let suite_only = std::env::args().any(|a| a == "suite");
    let rounds: usize = std::env::var("XCOVER_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 1 } else { 2 });
    if !suite_only {
        models(quick, rounds);
    }
    if quick && !suite_only {
        println!("suite: skipped in a quick run (`cargo bench --bench xcc -- suite` runs it)");
    } else {
        suite(rounds);
    }
}

/// The models of `dancelinks::models`, every solver.
fn models(quick: bool, rounds: usize) {
    let size = |full: usize, small: usize| if quick { small } else { full };

    let (lf, pent, q, m, clues, words, dom, em) = (
        size(12, 11),
        if quick { (4, 15) } else { (6, 10) },
        size(14, 12),
        size(18, 16),
        size(37, 42),
        size(240, 200),
        if quick { (6, 8) } else { (8, 8) },
        size(7, 6),
    );
    let mut cases: Vec<(String, Problem)> = vec![
        (
            format!("langford {lf}"),
            Langford::new(lf).unwrap().problem().clone(),
        ),
        (
            format!("pentominoes {}x{}", pent.0, pent.1),
            Tiling::pentominoes(Board::rectangle(pent.0, pent.1).unwrap())
                .unwrap()
                .problem()
                .clone(),
        ),
        (
            format!("queens {q}"),
            Queens::new(q).unwrap().problem().clone(),
        ),
        (
            format!("matchings K{m}"),
            Matchings::new(m).unwrap().problem().clone(),
        ),
        (
            format!("sudoku {clues} clues"),
            sudoku_first(clues).problem().clone(),
        ),
        (
            format!("word squares {words}x4"),
            WordSquares::new(&random_words(words, 4, 8))
                .unwrap()
                .problem()
                .clone(),
        ),
        (
            format!("dominoes {}x{}", dom.0, dom.1),
            Dominoes::new(dom.0, dom.1, None, None)
                .unwrap()
                .problem()
                .clone(),
        ),
        (
            format!("edge-matching {em}x{em}"),
            EdgeMatching::random(em, em, 7, 1, false)
                .unwrap()
                .problem()
                .clone(),
        ),
    ];
    // MacMahon's squares have no smaller instance with solutions: full runs only.
    if !quick {
        cases.push((
            "macmahon 4x6".to_string(),
            EdgeMatching::macmahon(3, 4, 6, Some(0))
                .unwrap()
                .problem()
                .clone(),
        ));
    }

    println!(
        "{} run, {rounds} round(s), one thread per solver",
        if quick { "quick" } else { "full" }
    );
    if std::process::Command::new("python3")
        .args(["-c", "import xcover"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!("python package xcover: installed, but this benchmark has no driver for it");
    } else {
        println!("python package xcover: not installed, skipped");
    }
    println!(
        "{:<22} {:<13} {:>16} {:>12} {:>5} {:>10} {:>7}",
        "instance", "solver", "solutions", "nodes", "memo", "median(s)", "ratio"
    );
    for (name, problem) in &cases {
        let mult = problem.has_multiplicities();
        let mut kinds = vec![Kind::Xcover, Kind::Knuth];
        if !mult {
            kinds.extend([Kind::MemoOn, Kind::MemoOff, Kind::Cells]);
        }
        let text = dlx_text(problem);
        let mut skipped = Vec::new();
        if text.is_some() {
            kinds.push(Kind::Dlx);
        } else {
            skipped.push("dlx: more colours than its one-character colour names");
        }
        if mult {
            skipped.push("exact-covers: no multiplicities");
        } else {
            kinds.push(Kind::ExactCovers);
        }
        let ec = (!mult).then(|| ec_problem(problem));
        let mut runs: Vec<Vec<Run>> = kinds.iter().map(|_| Vec::new()).collect();
        for _ in 0..rounds {
            for (k, kind) in kinds.iter().enumerate() {
                let r = match kind {
                    Kind::Xcover => xcover_run(problem, false, MemoMode::Auto, None),
                    Kind::Knuth => xcover_run(problem, true, MemoMode::Off, None),
                    Kind::MemoOn => xcover_run(problem, false, MemoMode::On, None),
                    Kind::MemoOff => xcover_run(problem, false, MemoMode::Off, None),
                    Kind::Cells => cells_run(problem, None),
                    Kind::Dlx => dlx_run(problem, text.as_deref().unwrap()),
                    Kind::ExactCovers => ec_run(ec.as_ref().unwrap()),
                };
                runs[k].push(r);
            }
        }
        let base = median(runs[0].iter().map(|r| r.time).collect());
        let expected = runs[0][0].solutions;
        for (kind, rs) in kinds.iter().zip(&runs) {
            for r in rs {
                assert_eq!(
                    r.solutions,
                    expected,
                    "{name}: {} counts {} solutions, xcover {expected}",
                    kind.name(),
                    r.solutions
                );
            }
            let t = median(rs.iter().map(|r| r.time).collect());
            let nodes = rs[0].nodes.map_or("-".to_string(), |n| n.to_string());
            let memo = match rs[0].memo {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            };
            println!(
                "{:<22} {:<13} {:>16} {:>12} {:>5} {:>10.3} {:>7.2}",
                name,
                kind.name(),
                expected,
                nodes,
                memo,
                t.as_secs_f64(),
                t.as_secs_f64() / base.as_secs_f64()
            );
        }
        for s in skipped {
            println!("{name:<22} skipped: {s}");
        }
    }
    println!(
        "exact-covers: its dancing-cells solver (DcSolver) is unimplemented in 0.3.0, skipped"
    );
}

/// The suite written by `benches/suite/gen.py`, xcover's solvers with a time limit, counts
/// checked against benches/suite/counts.csv.
fn suite(rounds: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/suite/instances");
    let table = root.join("benches/suite/counts.csv");
    if !dir.is_dir() {
        println!(
            "suite: skipped, no {} (run python3 benches/suite/gen.py first)",
            dir.display()
        );
        return;
    }
    let csv = std::fs::read_to_string(&table).expect("benches/suite/counts.csv");
    let limit = Duration::from_secs_f64(
        std::env::var("XCOVER_BENCH_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60.0),
    );
    println!(
        "suite: {rounds} round(s), one thread per solver, each run stopped after {:.0} s (>T)",
        limit.as_secs_f64()
    );
    println!(
        "{:<18} {:<6} {:<13} {:>34} {:>12} {:>5} {:>10} {:>7}",
        "instance", "set", "solver", "solutions", "nodes", "memo", "median(s)", "ratio"
    );
    let mut summary = Vec::new();
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (name, set) = (fields[0], fields[2]);
        let want: u128 = fields[3].parse().expect("a count in counts.csv");
        let path = dir.join(format!("{name}.dlx"));
        let Ok(bytes) = std::fs::read(&path) else {
            println!("{name:<18} skipped: no {}", path.display());
            continue;
        };
        let problem = dlx_format::parse(&bytes, name).expect("a DLX file").problem;
        let mut kinds = vec![Kind::Xcover, Kind::Knuth];
        if !problem.has_multiplicities() {
            kinds.extend([Kind::MemoOn, Kind::MemoOff, Kind::Cells]);
        }
        let mut runs: Vec<Vec<Run>> = kinds.iter().map(|_| Vec::new()).collect();
        for _ in 0..rounds {
            for (k, kind) in kinds.iter().enumerate() {
                // A solver stopped once is not run again: it is `>T` on this instance.
                if runs[k].iter().any(|r| !r.finished) {
                    continue;
                }
                let l = Some(limit);
                let r = match kind {
                    Kind::Xcover => xcover_run(&problem, false, MemoMode::Auto, l),
                    Kind::Knuth => xcover_run(&problem, true, MemoMode::Off, l),
                    Kind::MemoOn => xcover_run(&problem, false, MemoMode::On, l),
                    Kind::MemoOff => xcover_run(&problem, false, MemoMode::Off, l),
                    Kind::Cells => cells_run(&problem, l),
                    Kind::Dlx | Kind::ExactCovers => unreachable!("not run on the suite"),
                };
                runs[k].push(r);
            }
        }
        // The median of a solver's times, or None when any of its runs was stopped.
        let times: Vec<Option<Duration>> = runs
            .iter()
            .map(|rs| {
                rs.iter()
                    .all(|r| r.finished)
                    .then(|| median(rs.iter().map(|r| r.time).collect()))
            })
            .collect();
        for ((kind, rs), t) in kinds.iter().zip(&runs).zip(&times) {
            let r = &rs[0];
            if r.finished {
                assert_eq!(
                    r.solutions,
                    want,
                    "{name}: {} counts {} solutions, counts.csv {want}",
                    kind.name(),
                    r.solutions
                );
            }
            let memo = match r.memo {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            };
            let (solutions, nodes) = if r.finished {
                (
                    r.solutions.to_string(),
                    r.nodes.map_or("-".to_string(), |n| n.to_string()),
                )
            } else {
                ("-".to_string(), "-".to_string())
            };
            let (time, ratio) = match (t, times[0]) {
                (Some(t), Some(base)) => (
                    format!("{:.3}", t.as_secs_f64()),
                    format!("{:.2}", t.as_secs_f64() / base.as_secs_f64()),
                ),
                (Some(t), None) => (format!("{:.3}", t.as_secs_f64()), "-".to_string()),
                (None, _) => (">T".to_string(), "-".to_string()),
            };
            println!(
                "{name:<18} {set:<6} {:<13} {solutions:>34} {nodes:>12} {memo:>5} {time:>10} {ratio:>7}",
                kind.name()
            );
        }
        let best = kinds
            .iter()
            .zip(&times)
            .filter(|(k, _)| matches!(k, Kind::Knuth | Kind::MemoOn | Kind::MemoOff))
            .filter_map(|(_, t)| *t)
            .min();
        let ratio = match (times[0], best) {
            (Some(d), Some(b)) => format!("{:.2}", d.as_secs_f64() / b.as_secs_f64()),
            (None, Some(b)) => format!(">{:.2}", limit.as_secs_f64() / b.as_secs_f64()),
            _ => "-".to_string(),
        };
        summary.push(format!("{name:<18} {set:<6} {ratio:>8}"));
    }
    println!(
        "the default's time ÷ the best of xc-knuth, xc-memo-on, xc-memo-off \
         ('>x': the default stopped):"
    );
    for row in summary {
        println!("{row}");
    }
}
