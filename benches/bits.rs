//! Benchmark of the word-parallel n-queens counter (`dancelinks::queens::bits`), harness = false.
//!
//! `cargo bench --bench bits` counts n = 12..=17 with 1 and 2 threads and prints the wall time
//! (best of the repetitions), the CPU time of that run (user + system, from /proc/self/stat:
//! the machine is shared, so wall time alone overstates the cost), solutions, unique, nodes,
//! and for n <= 16 the time of the DLX engine (one thread, the organ-pipe exact-cover model)
//! and the ratio DLX time / bits time. Options (after `--`):
//! `--min N` (default 12), `--max N` (default 17; `--max 18` asks for n = 18 too),
//! `--dlx-max N` (default 16: the ratio up to n=16; DLX n=16 takes about
//! 30 s on an idle machine; 0 skips the DLX runs), `--threads T` (only T threads instead of
//! both 1 and 2), `--reps R` (default 1).
//!
//! `--method` picks what is timed: `search` (with the fundamental count), `mitm` (totals by
//! meeting in the middle, n <= 18), `quad` (totals by quadrants, n <= 23), `auto` (what
//! `count` does without `--unique`), `both` (default: search and auto).
//! `--baseline` also times a plain bitboard counter (takaken/Somers, mirror symmetry only,
//! one thread) at n = 16 in the same run and prints each row's CPU time as a multiple of it
//! (the yardstick of docs/performance.md). `--prev PATH` runs a previous xcover binary's
//! `queens count N --engine bits -t T` for the same rows (its CPU time from the children's
//! times in /proc/self/stat). `--shard I/M` counts only shard I of M and extrapolates the
//! CPU time ×M (the table is built in every shard, so this overstates a little); the count
//! is then checked against the shard's own total only.

use std::time::{Duration, Instant};

use dancelinks::engine::{Budget, Entry, Problem, ProblemBuilder, Solver};
use dancelinks::queens::bits;

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
    proc_ticks(11) + proc_ticks(12)
}

/// CPU time of the waited-for children so far (cutime + cstime).
fn child_cpu_seconds() -> f64 {
    proc_ticks(13) + proc_ticks(14)
}

/// Field `i` (0-based, after the command name) of /proc/self/stat, in seconds (100 Hz ticks).
fn proc_ticks(i: usize) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) / 100.0
}

/// The plain bitboard counter of takaken and Jeff Somers (left-right mirror symmetry only):
/// the yardstick of docs/performance.md. Returns the number of solutions.
fn plain_count(n: usize) -> u64 {
    fn rec(mask: u32, cols: u32, l: u32, r: u32) -> u64 {
        if cols == mask {
            return 1;
        }
        let mut a = mask & !(cols | l | r);
        let mut total = 0;
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            total += rec(mask, cols | bit, (l | bit) << 1, (r | bit) >> 1);
        }
        total
    }
    let mask = (1u32 << n) - 1;
    let mut total = 0;
    // The first rank's queen in the left half, doubled; the middle file for odd n once.
    for f in 0..n / 2 {
        let bit = 1u32 << f;
        total += 2 * rec(mask, bit, bit << 1, bit >> 1);
    }
    if n % 2 == 1 {
        let bit = 1u32 << (n / 2);
        total += rec(mask, bit, bit << 1, bit >> 1);
    }
    total
}

/// CPU seconds of the previous binary `prev` counting `n` on `threads` threads, and its count.
fn time_prev(prev: &str, n: usize, threads: usize) -> (f64, u128) {
    let c0 = child_cpu_seconds();
    let out = std::process::Command::new(prev)
        .args(["queens", "count", &n.to_string(), "--engine", "bits", "-t"])
        .arg(threads.to_string())
        .output()
        .expect("run the previous binary");
    let cpu = child_cpu_seconds() - c0;
    let text = String::from_utf8_lossy(&out.stdout);
    let sols = text
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .expect("a count from the previous binary");
    (cpu, sols)
}

/// Best wall time of `reps` runs, the CPU seconds of that run, and the count.
fn time_bits(
    n: usize,
    unique: bool,
    method: bits::Method,
    shard: Option<(usize, usize)>,
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
        result = pool.install(|| bits::count_with(n, unique, method, shard, &|_, _, _| {}));
        let e = t.elapsed();
        if e < best {
            best = e;
            cpu = cpu_seconds() - c0;
        }
    }
    (best, cpu, result)
}

/// OEIS A000170 and A002562 for n = 12..=23; every
/// whole run is checked against them.
const OEIS: [(u128, u128); 12] = [
    (14200, 1787),
    (73712, 9233),
    (365596, 45752),
    (2279184, 285053),
    (14772512, 1846955),
    (95815104, 11977939),
    (666090624, 83263591),
    (4968057848, 621012754),
    (39029188884, 4878666808),
    (314666222712, 39333324973),
    (2691008701644, 336376244042),
    (24233937684440, 3029242658210),
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
    let method = args
        .iter()
        .position(|a| a == "--method")
        .and_then(|i| args.get(i + 1))
        .map_or("both", |s| s.as_str());
    let runs: Vec<(bool, bits::Method, &str)> = match method {
        "search" => vec![(true, bits::Method::Search, "search")],
        "mitm" => vec![(false, bits::Method::Mitm, "mitm")],
        "quad" => vec![(false, bits::Method::Quadrant, "quad")],
        "auto" => vec![(false, bits::Method::Auto, "auto")],
        "totals" => vec![
            (false, bits::Method::Mitm, "mitm"),
            (false, bits::Method::Quadrant, "quad"),
        ],
        _ => vec![
            (true, bits::Method::Search, "search"),
            (false, bits::Method::Auto, "auto"),
        ],
    };
    let shard = args
        .iter()
        .position(|a| a == "--shard")
        .and_then(|i| args.get(i + 1))
        .map(|s| {
            let (i, m) = s.split_once('/').expect("--shard I/M");
            (i.parse::<usize>().unwrap(), m.parse::<usize>().unwrap())
        });
    let prev = args
        .iter()
        .position(|a| a == "--prev")
        .and_then(|i| args.get(i + 1))
        .cloned();
    // The yardstick: the plain counter at n = 16, one thread, CPU seconds.
    let baseline = args.iter().any(|a| a == "--baseline").then(|| {
        let c0 = cpu_seconds();
        let sols = plain_count(16);
        assert_eq!(u128::from(sols), OEIS[4].0, "the plain counter is wrong");
        let cpu = cpu_seconds() - c0;
        println!("baseline: plain bitboard counter (mirror only), n=16, 1 thread: {cpu:.2} CPU-s");
        cpu
    });
    println!(
        "{:>3} {:>7} {:>7} {:>6} {:>9} {:>8} {:>15} {:>11} {:>16} {:>8} {:>8} {:>8} {:>8}",
        "n",
        "method",
        "threads",
        "tasks",
        "seconds",
        "cpu_s",
        "solutions",
        "unique",
        "nodes",
        "x_base",
        "prev_cpu",
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
        for (&threads, &(unique, meth, name)) in thread_counts
            .iter()
            .flat_map(|t| runs.iter().map(move |u| (t, u)))
        {
            let (time, cpu, c) = time_bits(n, unique, meth, shard, threads, reps);
            assert!(c.residue_ok());
            let scale = shard.map_or(1.0, |(_, m)| m as f64);
            if shard.is_none()
                && let Some(&want) = n.checked_sub(12).and_then(|i| OEIS.get(i))
            {
                let got = (c.solutions, if unique { c.unique } else { want.1 });
                assert_eq!(got, want, "n={n}: not the OEIS counts");
            }
            let (dlx_s, ratio) = match dlx {
                Some((d, sols)) if shard.is_none() => {
                    assert_eq!(u128::from(sols), c.solutions, "DLX and bits disagree");
                    (
                        format!("{:.3}", d.as_secs_f64()),
                        format!("{:.1}", d.as_secs_f64() / time.as_secs_f64()),
                    )
                }
                _ => ("-".into(), "-".into()),
            };
            let x_base = baseline.map_or("-".into(), |b| format!("{:.2}", cpu * scale / b));
            let prev_cpu = match (&prev, shard) {
                (Some(p), None) => {
                    let (pc, ps) = time_prev(p, n, threads);
                    assert_eq!(ps, c.solutions, "the previous binary disagrees");
                    format!("{pc:.2}")
                }
                _ => "-".into(),
            };
            println!(
                "{:>3} {:>7} {:>7} {:>6} {:>9.3} {:>8.2} {:>15} {:>11} {:>16} {:>8} {:>8} {:>8} {:>8}",
                n,
                name,
                threads,
                bits::task_count(n),
                time.as_secs_f64() * scale,
                cpu * scale,
                c.solutions,
                if unique {
                    c.unique.to_string()
                } else {
                    "-".into()
                },
                c.nodes,
                x_base,
                prev_cpu,
                dlx_s,
                ratio
            );
        }
    }
    if shard.is_some() {
        println!(
            "(--shard: seconds and cpu_s are one shard's times ×M; solutions are the shard's)"
        );
    }
}
