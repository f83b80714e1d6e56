//! One integration-test binary (links once); a module per area.

mod engine;
mod instances;
mod merge;
mod queens;
mod queens_bits;
mod queens_max;
mod solve;
mod solve_parallel;
