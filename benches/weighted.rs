//! Benchmark of weighted n-queens. Run with `cargo bench --bench weighted`.
//!
//! 1. Throughput: many seeded random 1..99 8×8 boards, parsed from the classic text format
//!    and solved (enumeration path and branch-and-bound path), boards per second.
//! 2. One seeded random 1..99 board per n, solved by branch and bound with a per-board time
//!    limit; prints nodes, time, value, bound and status. The boards are written to
//!    `target/weighted-bench/n{N}.txt` (classic format) so that `benches/weighted_mip.py`
//!    solves identical inputs with HiGHS and CP-SAT.
//!
//! 3. Ties: the all-zero n×n board (default 16: 14,772,512 optimal layouts) as text reports it
//!    (`solve_from`: the smallest optimal layout) and as the records report it
//!    (`solve_counted`: the same layout and `optimal_count`), one thread; the two must give
//!    the same layout, and each should take well under 5 s (counting the optimal layouts by
//!    listing them would take over a minute).
//!
//! Environment:
//! - `WEIGHTED_SIZES` (default `12,16,20,24,28,32`): the sizes of part 2;
//!   `WEIGHTED_LONG=1` adds 40 and 50.
//! - `WEIGHTED_TIME` seconds per board (default 60; 600 for n >= 40 with `WEIGHTED_LONG`).
//! - `WEIGHTED_SEED` (default 1), `WEIGHTED_BOARDS` (8×8 boards, default 200000).
//! - `WEIGHTED_THREADS` (default 1): threads per board in part 2.
//! - `WEIGHTED_BOUNDS` (default `lagrangian`): a comma list of `lagrangian`, `assignment`,
//!   `maxima`, `generic`, to compare bounds.
//! - `WEIGHTED_TIES_N` (default 16): the size of the all-zero board of part 3.

use std::time::{Duration, Instant};

use dancelinks::engine::Budget;
use dancelinks::engine::optimize::Keep;
use dancelinks::io::weights::{parse_classic, write_classic};
use dancelinks::queens::weighted::{
    BoundKind, DEFAULT_LAGRANGE_STEPS, Method, Request, WeightedQueens, random_boards,
};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let seed: u64 = env("WEIGHTED_SEED", 1);
    let k: usize = env("WEIGHTED_BOARDS", 200_000);
    let long = std::env::var("WEIGHTED_LONG").is_ok_and(|v| v == "1");

    // Part 1: throughput at n = 8, parsing included.
    let boards = random_boards(8, k, seed, 1, 99);
    let mut text = Vec::new();
    write_classic(&mut text, 8, &boards).expect("write to memory");
    println!("## n = 8 throughput ({k} boards, {} bytes)", text.len());
    println!("{:<28} {:>12} {:>14}", "path", "seconds", "boards/s");
    for (name, method, count) in [
        ("parse + enumerate (92)", Method::Enumerate, k),
        (
            "parse + branch and bound",
            Method::BranchBound(BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS)),
            k.min(20_000),
        ),
    ] {
        let start = Instant::now();
        let parsed = parse_classic(&text, "bench", None).expect("valid boards");
        let mut model = WeightedQueens::new(8);
        let req = Request {
            method,
            ..Request::default()
        };
        let mut checksum = 0i128;
        for b in 0..count {
            checksum += model.solve(parsed.board(b), &req).maximum().unwrap_or(0);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:<28} {secs:>12.3} {:>14.0}   (checksum {checksum})",
            count as f64 / secs
        );
    }

    // Part 2: one board per size.
    let sizes: String = env("WEIGHTED_SIZES", "12,16,20,24,28,32".to_string());
    let mut sizes: Vec<usize> = sizes
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    if long {
        sizes.extend([40, 50]);
    }
    let bounds: String = env("WEIGHTED_BOUNDS", "lagrangian".to_string());
    let threads: usize = env("WEIGHTED_THREADS", 1);
    let dir = std::path::Path::new("target/weighted-bench");
    std::fs::create_dir_all(dir).expect("create target/weighted-bench");
    println!();
    println!("## one seeded 1..99 board per n (seed {seed})");
    println!(
        "{:>3} {:<11} {:<10} {:>8} {:>8} {:>12} {:>9} {:>9}",
        "n", "bound", "status", "value", "bound", "nodes", "seconds", "us/node"
    );
    for &n in &sizes {
        let board = random_boards(n, 1, seed, 1, 99).remove(0);
        let path = dir.join(format!("n{n}.txt"));
        let mut f = Vec::new();
        write_classic(&mut f, n, std::slice::from_ref(&board)).expect("write to memory");
        std::fs::write(&path, f).expect("write board file");
        let limit: f64 = env("WEIGHTED_TIME", if n >= 40 && long { 600.0 } else { 60.0 });
        let mut model = WeightedQueens::new(n);
        for name in bounds.split(',') {
            let kind = match name.trim() {
                "assignment" => BoundKind::Assignment,
                "maxima" => BoundKind::RankFileMax,
                "generic" => BoundKind::Generic,
                _ => BoundKind::Lagrangian(DEFAULT_LAGRANGE_STEPS),
            };
            let req = Request {
                keep: Keep::Best,
                budget: Budget::unlimited().with_time(Duration::from_secs_f64(limit)),
                method: Method::BranchBound(kind),
                threads,
            };
            let start = Instant::now();
            let r = model.solve(&board, &req);
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{n:>3} {:<11} {:<10} {:>8} {:>8} {:>12} {:>9.3} {:>9.1}",
                name.trim(),
                format!("{:?}", r.status).to_lowercase(),
                r.maximum().map_or("-".into(), |v| v.to_string()),
                r.bound.map_or("-".into(), |v| v.to_string()),
                r.nodes,
                secs,
                secs * 1e6 / r.nodes.max(1) as f64
            );
        }
    }

    // Part 3: the all-zero board, text's way and the records' way.
    let n: usize = env("WEIGHTED_TIES_N", 16);
    let board = vec![0i64; n * n];
    let mut model = WeightedQueens::new(n);
    println!();
    println!("## all-zero {n}×{n}, one thread");
    println!(
        "{:<32} {:>9} {:>8} {:>14}",
        "format (path)", "seconds", "value", "optimal_count"
    );
    let req = Request::default();
    let start = Instant::now();
    let text = model.solve_from(&board, &req, None).0;
    let text_secs = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let records = model.solve_counted(&board, &req, None).0;
    let records_secs = start.elapsed().as_secs_f64();
    for (name, r, secs) in [
        ("text (solve_from)", &text, text_secs),
        ("csv, json (solve_counted)", &records, records_secs),
    ] {
        println!(
            "{name:<32} {secs:>9.3} {:>8} {:>14}",
            r.maximum().map_or("-".into(), |v| v.to_string()),
            r.optimal_count.map_or("-".into(), |c| c.to_string())
        );
    }
    assert_eq!(
        text.layouts, records.layouts,
        "the formats report the same layout"
    );
}
