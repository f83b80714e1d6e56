//! Counts the solutions of DLX files with the sparse-set engine ([`Cells`]), and with the
//! dancing-links solver for comparison: `cargo run --release --example cells -- [--dlx] FILE...`.
//!
//! Prints, per file: solutions, nodes, updates, mems and the wall-clock time of the search
//! (input excluded), on one line.

use std::time::Instant;

use dancelinks::engine::{Budget, Cells, Solver};
use dancelinks::io::dlx_format;

fn main() {
    let mut links = false;
    for arg in std::env::args().skip(1) {
        if arg == "--dlx" {
            links = true;
            continue;
        }
        let bytes = std::fs::read(&arg).expect("readable file");
        let file = dlx_format::parse(&bytes, &arg).expect("a DLX file");
        let t = Instant::now();
        let outcome = if links {
            Solver::new(&file.problem).count(&Budget::unlimited())
        } else {
            Cells::new(&file.problem)
                .expect("no multiplicities")
                .count(&Budget::unlimited())
        };
        let s = outcome.stats;
        println!(
            "{arg}: {} solutions, {} nodes, {} updates, {} mems, {:.3} s",
            s.solutions(),
            s.nodes(),
            s.updates(),
            s.mems(),
            t.elapsed().as_secs_f64()
        );
    }
}
