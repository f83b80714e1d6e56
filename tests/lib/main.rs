//! The library's integration tests: what a user of the crate builds without the command line
//! (`default-features = false`), through its public API only (the engine, the models, queens,
//! records and the formats), and the layering of its rooms. One binary (links once); a module
//! per area. The command line's tests are in tests/cli.

mod common;
mod engine;
mod family;
mod floors;
mod instances;
mod layering;
mod merge;
mod preprocess;
mod queens;
mod queens_bits;
mod queens_max;
mod queens_max_shard;
mod solve_parallel;
mod weighted_bounds;
