//! `xcover queens heatmap`: where the queens stand — for each square, the number of n-queens
//! solutions with a queen on it, as a table, CSV, JSON Lines or an SVG heat map.

use std::path::PathBuf;
use std::process::ExitCode;

use super::queens_count::thread_pool;
use crate::io::export::Format;
use crate::io::output::Output;
use crate::io::queens::write_heatmap;
use crate::queens::count::{self, Engine, Request};
use crate::queens::heatmap::heatmap;
use crate::queens::model::Reduction;

const EXAMPLES: &str = "\
Examples:
  xcover queens heatmap 8                            # the 8×8 table of counts
  xcover queens heatmap 12 --format csv              # rank,file,solutions,share per square
  xcover queens heatmap 14 --unique --format svg -o heat.svg";

#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub board: super::BoardSize,
    /// Count only the representatives of the fundamental solutions (one per class under the
    /// 8 symmetries of the square, the lexicographically smallest image).
    #[arg(long)]
    pub unique: bool,
    /// Output format.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub threads: super::Threads,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The formats of `queens heatmap`.
const FORMATS: &[(Format, &str)] = &[
    (
        Format::Text,
        "A line with the total, then the n×n table of counts, rank 0 first",
    ),
    (
        Format::Csv,
        "`rank,file,solutions,share`, one row per square, rank-major",
    ),
    (
        Format::Json,
        "JSON Lines: one flat record per square with the fields of the CSV",
    ),
    (
        Format::Svg,
        "The board coloured by count, with a legend (the colour scale, minimum and maximum)",
    ),
];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.board.n as usize;
    let pool = thread_pool(args.threads.threads)?;
    // A heat map visits every solution (of half the board): from n = 18 on that takes long,
    // so say first about how long, as `queens count` does.
    const ESTIMATE_FROM_N: usize = 18;
    if n >= ESTIMATE_FROM_N {
        let request = Request {
            engine: Engine::Dlx,
            symmetry: Some(Reduction::Mirror),
            threads: Some(pool.current_num_threads()),
            ..Request::new(n)
        };
        if let Ok(e) = count::estimate(&request) {
            super::diag::notice(&format!(
                "estimate: queens heatmap {n} visits every solution, a search the size of \
                 `queens count {n} --engine dlx --symmetry mirror` but faster per node: at \
                 most about {} on {} thread{} (rough: within a factor of a few)",
                super::queens_count::human(e.seconds),
                e.threads,
                if e.threads == 1 { "" } else { "s" },
            ));
        }
    }
    let h = pool.install(|| heatmap(n, args.unique));
    let mut out = Output::create(args.output.as_deref())?;
    write_heatmap(&mut out, args.format, n, &h.counts, h.total, h.unique)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
