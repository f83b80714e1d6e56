//! `xcover queens heatmap`: where the queens stand — for each square, the number of n-queens
//! solutions with a queen on it, as a table, CSV, JSON Lines or an SVG heat map.

use std::path::PathBuf;
use std::process::ExitCode;

use super::queens_count::thread_pool;
use crate::io::output::Output;
use crate::io::records::{HeatmapCsv, HeatmapRecord, write_heatmap_text, write_json_line};
use crate::io::svg;
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
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub threads: super::Threads,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// A line with the total, then the n×n table of counts, rank 0 first.
    Text,
    /// `rank,file,solutions,share`, one row per square, rank-major.
    Csv,
    /// JSON Lines: one flat record per square with the fields of the CSV.
    Json,
    /// The board coloured by count, with a legend (the colour scale, minimum and maximum).
    Svg,
}

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
    match args.format {
        Format::Text => write_heatmap_text(&mut out, n, &h.counts, h.total, h.unique)?,
        Format::Csv => {
            let mut w = HeatmapCsv::new(&mut out)?;
            for r in HeatmapRecord::of_table(n, &h.counts, h.total) {
                w.write(&r)?;
            }
            w.flush()?;
        }
        Format::Json => {
            for r in HeatmapRecord::of_table(n, &h.counts, h.total) {
                write_json_line(&mut out, &r)?;
            }
        }
        Format::Svg => {
            let what = if h.unique {
                "fundamental solutions"
            } else {
                "solutions"
            };
            let title = format!("{n}-queens: where the queens stand ({} {what})", h.total);
            svg::heatmap(&mut out, n, &h.counts, &title)?;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
