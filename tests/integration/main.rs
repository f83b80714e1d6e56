//! One integration-test binary (links once); a module per area.

mod args;
mod cli;
mod common;
mod docs;
mod engine;
mod faults;
mod formats;
mod instances;
mod interrupt;
mod layering;
mod listing;
mod merge;
mod model;
mod preprocess;
mod queens;
mod queens_bits;
mod queens_max;
mod queens_max_shard;
mod queens_max_trust;
mod solve;
mod solve_parallel;
mod solve_zdd;
mod weighted_bounds;
