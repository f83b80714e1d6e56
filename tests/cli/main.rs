//! The command line's integration tests: they run the `xcover` binary of this build (or walk
//! its clap tree), so they need the `cli` feature. One binary (links once); a module per area.
//! The library's own tests are in tests/lib.

mod args;
mod cli;
mod common;
mod docs;
mod family;
mod faults;
mod formats;
// The instances of the library's tests (Knuth's queens, pentominoes, ...).
#[path = "../lib/instances.rs"]
mod instances;
mod interrupt;
mod listing;
mod merge;
mod model;
mod preprocess;
mod queens;
mod queens_max;
mod queens_max_shard;
mod queens_max_trust;
mod solve;
mod solve_parallel;
mod solve_zdd;
mod weighted_bounds;
