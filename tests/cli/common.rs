//! Helpers shared by the test modules: the binary, and the library tests' helpers (every
//! n-queens placement by brute force, a layout's checked score, shard records as if read from
//! a file).

use assert_cmd::Command;

// Some of them (`located`) serve only the library's tests.
#[path = "../lib/common.rs"]
#[allow(dead_code)]
mod library;
pub use library::{all_optimal, brute_best, check, placements, queens_shards, score, text};

/// The `xcover` binary of this build.
pub fn xcover() -> Command {
    Command::cargo_bin("xcover").expect("binary built")
}
