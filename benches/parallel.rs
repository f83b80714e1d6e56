//! Parallel and sharded solving, side by side in one run:
//!
//! - `solve --count` on 1 and 2 threads (`run::count` without a memo; one thread is the plain sequential
//!   search), alternating, best of `XCOVER_BENCH_REPS` (default 3) wall times, and the ratio
//!   (target: at least 1.8 on 14-queens organ-pipe and 6x10 pentominoes);
//! - the shards of M = 50 on 14-queens, one thread each: the sum of the counts equals the whole,
//!   and the largest shard's time over the mean (target: at most 3).
//!
//! Run: `cargo bench --bench parallel` (`-- quick` for 13-queens and the symmetry-broken
//! pentominoes instead).

use std::time::{Duration, Instant};

use dancelinks::engine::Problem;
use dancelinks::engine::run::{self, Plan};
use dancelinks::io::dlx_format;

#[path = "../tests/lib/instances.rs"]
mod instances;

/// The plain count (no memo) on `threads`, of shard `shard`.
fn plan(threads: usize, shard: Option<(usize, usize)>) -> Plan {
    Plan {
        threads,
        shard,
        ..Plan::default()
    }
}

fn timed(problem: &Problem, plan: &Plan) -> (u64, u64, Duration) {
    let t = Instant::now();
    let c = run::count(problem, plan);
    (c.stats.solutions(), c.stats.nodes(), t.elapsed())
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let reps: usize = std::env::var("XCOVER_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let cases: Vec<(&str, String)> = if quick {
        vec![
            ("13-queens organ-pipe", instances::queens(13, true)),
            (
                "pentominoes 6x10, X in a quarter",
                instances::pentominoes(6, 10, true),
            ),
        ]
    } else {
        vec![
            ("14-queens organ-pipe", instances::queens(14, true)),
            ("pentominoes 6x10", instances::pentominoes(6, 10, false)),
        ]
    };
    println!(
        "{:<34} {:>10} {:>12} {:>9} {:>9} {:>6}",
        "instance", "solutions", "nodes", "t=1(s)", "t=2(s)", "ratio"
    );
    for (name, text) in &cases {
        let problem = dlx_format::parse(text.as_bytes(), "bench").unwrap().problem;
        let one = plan(1, None);
        let two = plan(2, None);
        let (mut best1, mut best2) = (Duration::MAX, Duration::MAX);
        let mut counts = None;
        for _ in 0..reps {
            let a = timed(&problem, &one);
            let b = timed(&problem, &two);
            assert_eq!((a.0, a.1), (b.0, b.1), "{name}: threads disagree");
            counts = Some((a.0, a.1));
            best1 = best1.min(a.2);
            best2 = best2.min(b.2);
        }
        let (solutions, nodes) = counts.unwrap();
        println!(
            "{:<34} {:>10} {:>12} {:>9.3} {:>9.3} {:>6.2}",
            name,
            solutions,
            nodes,
            best1.as_secs_f64(),
            best2.as_secs_f64(),
            best1.as_secs_f64() / best2.as_secs_f64()
        );
    }

    let (name, text) = &cases[0];
    let problem = dlx_format::parse(text.as_bytes(), "bench").unwrap().problem;
    let whole = timed(&problem, &plan(1, None));
    for m in [50usize] {
        let mut times = Vec::new();
        let mut total = 0;
        for i in 1..=m {
            let (s, _, t) = timed(&problem, &plan(1, Some((i, m))));
            total += s;
            times.push(t.as_secs_f64());
        }
        assert_eq!(total, whole.0, "{name}: the shards do not add up");
        let mean = times.iter().sum::<f64>() / m as f64;
        let max = times.iter().cloned().fold(0.0, f64::max);
        let min = times.iter().cloned().fold(f64::MAX, f64::min);
        println!(
            "{name}, M = {m} shards: {total} solutions (= whole); shard seconds min {min:.4} mean {mean:.4} max {max:.4}; max/mean {:.2}; sum {:.3} vs whole {:.3}",
            max / mean,
            times.iter().sum::<f64>(),
            whole.2.as_secs_f64()
        );
    }
}
