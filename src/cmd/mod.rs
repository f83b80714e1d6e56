//! The subcommands of the `xcover` binary, one module each (xsv style): each has an `Args`
//! struct (clap derive) and a `run` function that parses nothing itself, calls the library and
//! writes output.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

pub mod merge;
pub mod queens_count;
pub mod queens_heatmap;
pub mod queens_list;
pub mod queens_max;
pub mod queens_random;
pub mod solve;

/// Exact cover by dancing links, and the N-queens problems on it.
#[derive(Parser, Debug)]
#[command(name = "xcover", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve an exact-cover problem in Knuth's DLX format.
    Solve(solve::Args),
    /// Merge shard records (of `queens count --shard`, `solve --shard`) into the total,
    /// after checking that they cover the split exactly once, intact.
    Merge(merge::Args),
    /// N-queens: count, list, weighted maximum, random boards, shard merging.
    #[command(subcommand)]
    Queens(QueensCommand),
}

#[derive(Subcommand, Debug)]
pub enum QueensCommand {
    /// Count the solutions of the n-queens problem.
    Count(queens_count::Args),
    /// List the solutions of the n-queens problem.
    List(queens_list::Args),
    /// Where the queens stand: for each square, the number of solutions with a queen on it.
    Heatmap(queens_heatmap::Args),
    /// Weighted n-queens: the maximum sum under n non-attacking queens, for each board.
    Max(queens_max::Args),
    /// Generate random weight boards in the classic format.
    Random(queens_random::Args),
    /// Merge the records of `queens count --shard` runs into the total (`xcover merge`).
    Merge(merge::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Queens(q) => match q {
            QueensCommand::Count(a) => queens_count::run(a),
            QueensCommand::List(a) => queens_list::run(a),
            QueensCommand::Heatmap(a) => queens_heatmap::run(a),
            QueensCommand::Max(a) => queens_max::run(a),
            QueensCommand::Random(a) => queens_random::run(a),
            QueensCommand::Merge(a) => merge::run(a),
        },
    }
}

/// An error in the user's input (file contents or arguments): exit code 2 with the message.
/// Other errors (I/O) also exit 2; a broken pipe exits 0 quietly.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// A clap value parser for a duration given as a nonnegative decimal number of seconds.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if secs.is_nan() || secs < 0.0 {
        return Err(format!("'{s}' is not a nonnegative number of seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("'{s}': {e}"))
}

/// The board size argument of the n-queens commands that take one.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BoardSize {
    /// Board size (1 to 32).
    #[arg(
        value_parser = clap::value_parser!(u32).range(1..=crate::queens::count::MAX_N as i64),
        allow_negative_numbers = true
    )]
    pub n: u32,
}
