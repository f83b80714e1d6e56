//! Benchmark of the word-parallel n-queens counter (`xcover::queens::bits`), harness = false.
//!
//! `cargo bench --bench bits` counts n = 12..=17 with 1 and 2 threads and prints the wall time
//! (best of the repetitions), the CPU time of that run (user + system, from /proc/self/stat:
//! the machine is shared, so wall time alone overstates the cost), solutions, unique, nodes,
//! and for n <= 16 the time of the DLX engine (one thread, the organ-pipe exact-cover model)
//! and the ratio DLX time / bits time. Options (after `--`):
//! `--min N` (default 12), `--max N` (default 17; `--max 18` asks for n = 18 too),
//! `--dlx-max N` (default 16, as issue 5 asks for the ratio up to n=16; DLX n=16 takes about
//! 30 s on an idle machine; 0 skips the DLX runs), `--threads T` (only T threads instead of
//! both 1 and 2), `--reps R` (default 1).

use std::time::{Duration, Instant};

use xcover::engine::{Budget, Entry, Problem, ProblemBuilder, Solver};
use xcover::queens::bits;

/// The n-queens exact-cover problem: ranks and files primary in organ-pipe order, all
/// diagonals secondary, options row-major.
fn queens_problem(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let m = n / 2;
    // Organ-pipe: r{m} c{m} r{m-1} c{m-1} r{m+1} c{m+1} ...
    let mut order2 = vec![m];
    let mut d = 1;
    while order2.len() < n {
        if m >= d {
            order2.push(m - d);
        }
        if m + d < n && order2.len() < n {
            order2.push(m + d);
        }
        d += 1;
    }
    for &k in &order2 {
        b.primary(&format!("r{k}")).unwrap();
        b.primary(&format!("c{k}")).unwrap();
    }
    for k in 0..2 * n - 1 {
        b.secondary(&format!("a{k}")).unwrap();
    }
    for k in 0..2 * n - 1 {
        b.secondary(&format!("b{k}")).unwrap();
    }
    for i in 0..n {
        for j in 0..n {
            let names = [
                format!("r{i}"),
                format!("c{j}"),
                format!("a{}", i + j),
                format!("b{}", n - 1 - i + j),
            ];
            let entries: Vec<Entry> = names
                .iter()
                .map(|s| Entry::plain(b.item_id(s).unwrap()))
                .collect();
            b.add_option(entries, 0).unwrap();
        }
    }
    b.build().unwrap()
}

/// CPU time of this process so far (user + system, from /proc/self/stat; 0 elsewhere). The
/// machine is shared, so wall time alone overstates the cost when other jobs run.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Best wall time of `reps` runs, the CPU seconds of that run, and the count.
fn time_bits(
    n: usize,
    unique: bool,
    threads: usize,
    reps: usize,
) -> (Duration, f64, bits::BitsCount) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut best = Duration::MAX;
    let mut cpu = 0.0;
    let mut result = bits::BitsCount::default();
    for _ in 0..reps {
        let c0 = cpu_seconds();
        let t = Instant::now();
        result = pool.install(|| bits::count(n, unique, None, &|_, _, _| {}));
        let e = t.elapsed();
        if e < best {
            best = e;
            cpu = cpu_seconds() - c0;
        }
    }
    (best, cpu, result)
}

/// OEIS A000170 and A002562 for n = 12..=18 (/work/shared/reference/queens-counts.csv); every
/// run is checked against them.
const OEIS: [(u128, u128); 7] = [
    (14200, 1787),
    (73712, 9233),
    (365596, 45752),
    (2279184, 285053),
    (14772512, 1846955),
    (95815104, 11977939),
    (666090624, 83263591),
];

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("a number"))
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let min = arg(&args, "--min", 12);
    let max = arg(&args, "--max", 17);
    let dlx_max = arg(&args, "--dlx-max", 16);
    let reps = arg(&args, "--reps", 1).max(1);
    let only = arg(&args, "--threads", 0);
    let thread_counts: Vec<usize> = if only > 0 { vec![only] } else { vec![1, 2] };
    // `--method search` (with the fundamental count), `mitm` (totals only), `both` (default).
    let method = args
        .iter()
        .position(|a| a == "--method")
        .and_then(|i| args.get(i + 1))
        .map_or("both", |s| s.as_str());
    let uniques: Vec<bool> = match method {
        "search" => vec![true],
        "mitm" => vec![false],
        _ => vec![true, false],
    };
    println!(
        "{:>3} {:>7} {:>7} {:>6} {:>9} {:>7} {:>12} {:>11} {:>14} {:>8} {:>8}",
        "n",
        "method",
        "threads",
        "tasks",
        "seconds",
        "cpu_s",
        "solutions",
        "unique",
        "nodes",
        "dlx_s",
        "dlx/bits"
    );
    for n in min..=max {
        let dlx = (n <= dlx_max).then(|| {
            // One thread, the same organ-pipe model as `queens count --engine dlx`.
            let p = queens_problem(n);
            let t = Instant::now();
            let out = Solver::new(&p).count(&Budget::unlimited());
            (t.elapsed(), out.stats.solutions())
        });
        for (&threads, &unique) in thread_counts
            .iter()
            .flat_map(|t| uniques.iter().map(move |u| (t, u)))
        {
            let (time, cpu, c) = time_bits(n, unique, threads, reps);
            assert!(c.residue_ok());
            if let Some(&want) = n.checked_sub(12).and_then(|i| OEIS.get(i)) {
                let got = (c.solutions, if unique { c.unique } else { want.1 });
                assert_eq!(got, want, "n={n}: not the OEIS counts");
            }
            let (dlx_s, ratio) = match dlx {
                Some((d, sols)) => {
                    assert_eq!(u128::from(sols), c.solutions, "DLX and bits disagree");
                    (
                        format!("{:.3}", d.as_secs_f64()),
                        format!("{:.1}", d.as_secs_f64() / time.as_secs_f64()),
                    )
                }
                None => ("-".into(), "-".into()),
            };
            println!(
                "{:>3} {:>7} {:>7} {:>6} {:>9.3} {:>7.2} {:>12} {:>11} {:>14} {:>8} {:>8}",
                n,
                if unique { "search" } else { "mitm" },
                threads,
                bits::task_count(n),
                time.as_secs_f64(),
                cpu,
                c.solutions,
                if unique {
                    c.unique.to_string()
                } else {
                    "-".into()
                },
                c.nodes,
                dlx_s,
                ratio
            );
        }
    }
}
