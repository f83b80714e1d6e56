//! Benchmark of weighted proofs split over shards. Run with
//! `cargo bench --bench weighted_shard`.
//!
//! For each size, one seeded random 1..99 board: the unsharded proof (one thread), then for
//! M = 1, 4, 16 the M shards one after the other (one thread each), merged, with
//! - `none`: no floor (each shard proves the best of its part);
//! - `first`: the floor is the score of a first run limited to a tenth of the unsharded
//!   proof's time (the recipe of docs/cluster.md; its time is not in the sum);
//! - `opt`: the floor is the optimum (the best case: the first run found it).
//!
//! Prints the sum of the shards' seconds and nodes against the unsharded proof's, the largest
//! shard, and checks that the merge gives the unsharded maximum and layout (panics if not).
//!
//! Environment: `WSHARD_SIZES` (default `24,28,32`), `WSHARD_SEED` (default 1),
//! `WSHARD_SHARDS` (default `1,4,16`), `WSHARD_FLOORS` (default `none,first,opt`).

use std::time::{Duration, Instant};

use dancelinks::engine::Budget;
use dancelinks::queens;
use dancelinks::queens::weighted::{
    PartRequest, Request, WeightedQueens, layout_text, random_boards,
};
use dancelinks::records::{self as shard, Located, Shard, Source};

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn list(name: &str, default: &str) -> Vec<String> {
    env(name, default)
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn main() {
    let seed: u64 = env("WSHARD_SEED", "1").parse().expect("WSHARD_SEED");
    let sizes: Vec<usize> = list("WSHARD_SIZES", "24,28,32")
        .iter()
        .map(|s| s.parse().expect("WSHARD_SIZES"))
        .collect();
    let counts: Vec<u64> = list("WSHARD_SHARDS", "1,4,16")
        .iter()
        .map(|s| s.parse().expect("WSHARD_SHARDS"))
        .collect();
    let floors = list("WSHARD_FLOORS", "none,first,opt");
    println!("## weighted proofs split over shards (seed {seed}, one thread per shard)");
    println!(
        "{:>3} {:>3} {:>6} {:>6} {:>9} {:>9} {:>7} {:>10} {:>10} {:>7} {:>9}",
        "n",
        "M",
        "floor",
        "F",
        "whole s",
        "shards s",
        "ratio",
        "whole nd",
        "shards nd",
        "parts",
        "max shard"
    );
    for &n in &sizes {
        let board = random_boards(n, 1, seed, 1, 99).remove(0);
        let mut model = WeightedQueens::new(n);
        let req = Request::default();
        let start = Instant::now();
        let whole = model.solve(&board, &req);
        let whole_s = start.elapsed().as_secs_f64();
        let best = whole.maximum().expect("a layout");
        let layout = layout_text(&whole.layouts[0].queens);
        for f in &floors {
            let floor = match f.as_str() {
                "none" => None,
                "opt" => Some(best),
                "first" => {
                    let quick = Request {
                        budget: Budget::unlimited()
                            .with_time(Duration::from_secs_f64(whole_s / 10.0)),
                        ..Request::default()
                    };
                    model.solve(&board, &quick).maximum()
                }
                other => panic!("unknown floor {other}"),
            };
            for &m in &counts {
                let mut records = Vec::new();
                let mut sum = 0.0f64;
                let mut largest = 0.0f64;
                let mut parts = 0;
                for i in 1..=m {
                    let shard = Shard::new(i, m).expect("a shard");
                    let part = PartRequest {
                        shard: Some(shard.as_pair()),
                        floor,
                    };
                    let t = Instant::now();
                    let p = model.solve_part(&board, &req, &part);
                    let s = t.elapsed().as_secs_f64();
                    sum += s;
                    largest = largest.max(s);
                    parts = p.split.map_or(0, |x| x.parts);
                    records.push(Located {
                        source: Source {
                            file: "bench".into(),
                            line: i,
                        },
                        record: p.record(&board, shard, s),
                    });
                }
                let total = shard::merge(&records, &queens::record_rules())
                    .expect("the shards merge")
                    .total;
                assert_eq!(total.value, Some(best), "n={n} M={m} floor={f}");
                assert_eq!(
                    total.layout.as_deref(),
                    Some(&layout[..]),
                    "n={n} M={m} floor={f}"
                );
                assert_eq!(total.status, shard::Status::Optimal);
                println!(
                    "{:>3} {:>3} {:>6} {:>6} {:>9.3} {:>9.3} {:>7.2} {:>10} {:>10} {:>7} {:>9.3}",
                    n,
                    m,
                    f,
                    floor.map_or_else(|| "-".to_string(), |v| v.to_string()),
                    whole_s,
                    sum,
                    sum / whole_s,
                    whole.nodes,
                    total.nodes,
                    parts,
                    largest
                );
            }
        }
    }
}
