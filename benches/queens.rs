//! N-queens counting benchmark (a plain `main`, `harness = false`): prints a table.
//!
//! For n = 12..=16 (set `XCOVER_BENCH_MAX_N` to change the top): the dancing-links count with
//! all 8 symmetries and with the left-right mirror, each on 1 and 2 threads, the same engine
//! without symmetry on 1 thread, and a plain mirror-only bitboard counter (Jeff Somers'
//! method, one thread) as the baseline, all timed in the same run. Run with `cargo bench --bench queens`.

use std::time::Instant;

use dancelinks::queens::count::Counted;
use dancelinks::queens::model::{CountConfig, Queens, Reduction, count};

/// A000170 for n = 0..=17, to check every run.
const A000170: [u64; 18] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104,
];

/// Jeff Somers' counter: bitboards of the attacked files and diagonals, the first rank's queen
/// in the left half (counted twice), for odd n the middle file with the second rank's queen in
/// the left half (counted twice). One thread.
fn somers(n: usize) -> u64 {
    fn below(all: u32, cols: u32, left: u32, right: u32) -> u64 {
        if cols == all {
            return 1;
        }
        let mut free = !(cols | left | right) & all;
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += below(
                all,
                cols | bit,
                ((left | bit) << 1) & all,
                (right | bit) >> 1,
            );
        }
        total
    }
    if n == 1 {
        return 1;
    }
    let all = (1u32 << n) - 1;
    let mut total = 0;
    for c in 0..n / 2 {
        let bit = 1 << c;
        total += 2 * below(all, bit, (bit << 1) & all, bit >> 1);
    }
    if n % 2 == 1 {
        let mid = 1u32 << (n / 2);
        let (cols, left, right) = (mid, (mid << 1) & all, mid >> 1);
        let mut free = !(cols | left | right) & all & (mid - 1);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += 2 * below(
                all,
                cols | bit,
                ((left | bit) << 1) & all,
                (right | bit) >> 1,
            );
        }
    }
    total
}

fn dlx(n: usize, threads: usize, reduction: Reduction) -> (Counted, f64) {
    let model = Queens::new(n).expect("valid n");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let config = CountConfig {
        reduction,
        ..CountConfig::default()
    };
    let start = Instant::now();
    let c = pool
        .install(|| count(&model, &config, &|_, _, _| {}))
        .expect("count");
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(c.solutions, A000170[n] as u128, "n = {n}");
    (c, secs)
}

fn main() {
    let max_n: usize = std::env::var("XCOVER_BENCH_MAX_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16)
        .min(17);
    println!("Nodes (DLX2 count; a solution is a node), 1 thread:");
    println!(
        "{:>3} {:>12} {:>14} {:>12} {:>12}",
        "n", "solutions", "no symmetry", "mirror", "full"
    );
    for n in 8..=11 {
        let (p, _) = dlx(n, 1, Reduction::None);
        let (m, _) = dlx(n, 1, Reduction::Mirror);
        let (f, _) = dlx(n, 1, Reduction::Full);
        println!(
            "{n:>3} {:>12} {:>14} {:>12} {:>12}",
            m.solutions, p.work.nodes, m.work.nodes, f.work.nodes
        );
    }
    println!();
    println!(
        "{:>3} {:<22} {:>7} {:>12} {:>12} {:>9}",
        "n", "engine", "threads", "solutions", "nodes", "seconds"
    );
    let mut summary = Vec::new();
    for (n, &known) in A000170.iter().enumerate().take(max_n + 1).skip(12) {
        let (f1, tf1) = dlx(n, 1, Reduction::Full);
        let (f2, tf2) = dlx(n, 2, Reduction::Full);
        let (m1, tm1) = dlx(n, 1, Reduction::Mirror);
        let (m2, tm2) = dlx(n, 2, Reduction::Mirror);
        let (p1, tp) = dlx(n, 1, Reduction::None);
        let start = Instant::now();
        let s = somers(n);
        let ts = start.elapsed().as_secs_f64();
        assert_eq!(s, known, "Somers n = {n}");
        for (name, threads, c, t) in [
            ("dlx full symmetry", 1, &f1, tf1),
            ("dlx full symmetry", 2, &f2, tf2),
            ("dlx mirror", 1, &m1, tm1),
            ("dlx mirror", 2, &m2, tm2),
            ("dlx no symmetry", 1, &p1, tp),
        ] {
            println!(
                "{n:>3} {name:<22} {threads:>7} {:>12} {:>12} {t:>9.3}",
                c.solutions, c.work.nodes
            );
        }
        println!(
            "{n:>3} {:<22} {:>7} {s:>12} {:>12} {ts:>9.3}",
            "bitboard (Somers)", 1, "-"
        );
        summary.push((n, tp / tm1, tp / tf1, tm1 / tm2, tf1 / tf2, tf2 / ts));
    }
    println!();
    println!(
        "{:>3} {:>15} {:>13} {:>16} {:>16} {:>20}",
        "n",
        "mirror speedup",
        "full speedup",
        "mirror 2t vs 1t",
        "full 2t vs 1t",
        "full 2t / Somers 1t"
    );
    for (n, mirror, full, m_threads, f_threads, somers) in summary {
        println!(
            "{n:>3} {mirror:>14.2}x {full:>12.2}x {m_threads:>15.2}x {f_threads:>15.2}x {somers:>19.2}x"
        );
    }
}
