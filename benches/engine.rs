//! Engine benchmark: the same DLX inputs solved by xcover's engine and by the crate
//! `dlx` 0.8.5 (its DLX1-style solver `x`, the fastest dancing-links crate we found), side by
//! side in one run. Prints solutions, nodes, updates, mems and time for each, and the ratio.
//!
//! Run: `cargo bench --bench engine` (add `-- quick` for a short run without 14-queens).

use std::time::{Duration, Instant};

use dancelinks::engine::{Budget, Solver};
use dancelinks::io::dlx_format;

#[path = "../tests/lib/instances.rs"]
mod instances;

struct Run {
    solutions: u64,
    nodes: u64,
    updates: u64,
    mems: u64,
    time: Duration,
}

fn xcover_run(text: &str) -> Run {
    let parsed = dlx_format::parse(text.as_bytes(), "bench").expect("valid DLX input");
    let problem = parsed.problem;
    let mut solver = Solver::new(&problem);
    let t = Instant::now();
    let o = solver.count(&Budget::unlimited());
    let time = t.elapsed();
    Run {
        solutions: o.stats.solutions(),
        nodes: o.stats.nodes(),
        updates: o.stats.updates(),
        mems: o.stats.mems(),
        time,
    }
}

fn dlx_crate_run(text: &str) -> Run {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    let spec = dlx::Spec::new(text, false).expect("valid spec");
    let mut problem = dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("problem");
    let mut solver = dlx::Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let t = Instant::now();
    let mut solutions = 0u64;
    while solver.next_solution(&mut chooser) {
        solutions += 1;
    }
    let time = t.elapsed();
    // The crate's profile counts the nodes where it branched; solutions are nodes in Knuth's count.
    let nodes = solver.get_profile().iter().sum::<usize>() as u64 + solutions;
    Run {
        solutions,
        nodes,
        updates: solver.get_updates() as u64,
        mems: 0,
        time,
    }
}

fn best_of<F: FnMut() -> Run>(reps: usize, mut f: F) -> Run {
    let mut best = f();
    for _ in 1..reps {
        let r = f();
        if r.time < best.time {
            best = r;
        }
    }
    best
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let reps: usize = std::env::var("XCOVER_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut cases: Vec<(String, String)> = vec![
        ("13-queens organ-pipe".into(), instances::queens(13, true)),
        ("13-queens plain".into(), instances::queens(13, false)),
        (
            "pentominoes 6x10".into(),
            instances::pentominoes(6, 10, false),
        ),
        (
            "pentominoes 6x10, X in a quarter".into(),
            instances::pentominoes(6, 10, true),
        ),
        ("langford n=11".into(), instances::langford(11)),
    ];
    if !quick {
        cases.insert(0, ("14-queens plain".into(), instances::queens(14, false)));
        cases.insert(
            0,
            ("14-queens organ-pipe".into(), instances::queens(14, true)),
        );
    }
    println!(
        "{:<34} {:>8} {:>10} {:>12} {:>12} {:>12} {:>9} {:>9} {:>6}",
        "instance", "engine", "solutions", "nodes", "updates", "mems", "time(s)", "dlx(s)", "ratio"
    );
    for (name, text) in &cases {
        // Interleave the two engines so that machine noise hits both alike.
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..reps {
            ours.push(best_of(1, || xcover_run(text)));
            theirs.push(best_of(1, || dlx_crate_run(text)));
        }
        let a = ours.into_iter().min_by_key(|r| r.time).unwrap();
        let b = theirs.into_iter().min_by_key(|r| r.time).unwrap();
        assert_eq!(a.solutions, b.solutions, "{name}: engines disagree");
        println!(
            "{:<34} {:>8} {:>10} {:>12} {:>12} {:>12} {:>9.3} {:>9.3} {:>6.2}",
            name,
            "xcover",
            a.solutions,
            a.nodes,
            a.updates,
            a.mems,
            a.time.as_secs_f64(),
            b.time.as_secs_f64(),
            a.time.as_secs_f64() / b.time.as_secs_f64()
        );
        println!(
            "{:<34} {:>8} {:>10} {:>12} {:>12} {:>12}",
            "", "dlx", b.solutions, b.nodes, b.updates, "-"
        );
    }
}
