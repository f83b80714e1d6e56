//! `xcover queens random`: random weight boards in the classic format, reproducible from the
//! seed on every platform and version (SplitMix64, see `random::SplitMix64`).

use std::path::PathBuf;
use std::process::ExitCode;

use super::InputError;
use crate::io::output::Output;
use crate::io::weights;
use crate::random::SplitMix64;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board size (1 to 1,000).
    #[arg(value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub n: u64,
    /// How many boards (0 to 1,000,000).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub boards: u64,
    /// The seed of the generator.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Smallest number.
    #[arg(
        long,
        value_name = "A",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub min: i64,
    /// Largest number.
    #[arg(
        long,
        value_name = "B",
        default_value_t = 99,
        allow_negative_numbers = true
    )]
    pub max: i64,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.min > args.max {
        return Err(InputError(format!("--min {} is above --max {}", args.min, args.max)).into());
    }
    let n = args.n as usize;
    // The same numbers, in the same order, as `queens::weighted::random_boards`.
    let mut g = SplitMix64::new(args.seed);
    let mut out = Output::create(args.output.as_deref())?;
    weights::write_classic_stream(&mut out, n, args.boards, || g.range(args.min, args.max))?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
