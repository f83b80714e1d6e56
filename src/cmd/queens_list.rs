//! `xcover queens list`: every n-queens solution (or one per symmetry class), numbered in
//! lexicographic order of its columns, as boards, CSV, JSON Lines or one SVG picture.
//!
//! Both engines write through [`listing::list`]: the same tasks, the same ordered window, the
//! same row writer ([`ListFormat`]), so their output is byte-identical.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use super::InputError;
use super::queens_count::thread_pool;
use crate::io::export::{Format, Writer};
use crate::io::output::Output;
use crate::io::records::ListFormat;
use crate::io::svg::{self, SvgBoards};
use crate::queens::listing::{self, ListEngine};
use crate::queens::model::{self, Queens};
use crate::records::rows::{LayoutFields, ListRecord};

const EXAMPLES: &str = "\
Examples:
  xcover queens list 8 --format csv                  # all 92 solutions of 8-queens as CSV
  xcover queens list 10 --unique --format json       # one record per class, with its size
  xcover queens list 12 --limit 24 --format svg -o first.svg";

#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub board: super::BoardSize,
    /// One representative per class under the 8 symmetries of the square (the
    /// lexicographically smallest image), with the size of its class.
    #[arg(long)]
    pub unique: bool,
    /// Stop after K solutions (1 or more).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Output format.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "board")]
    pub format: Format,
    /// The search: `bits` (word-parallel, the fastest) or `dlx` (dancing links on the
    /// exact-cover model). The output is the same, byte for byte.
    #[arg(long, value_enum, default_value_t = Engine::Bits)]
    pub engine: Engine,
    #[command(flatten)]
    pub threads: super::Threads,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Word-parallel bitboard search (the default).
    Bits,
    /// Dancing links on the exact-cover model.
    Dlx,
}

/// The formats of `queens list`.
const FORMATS: &[(Format, &str)] = &[
    (
        Format::Board,
        "A heading line, then n lines of `X` (queen) and `.` (empty), rank 0 first",
    ),
    (
        Format::Csv,
        "`solution,n,q0,...,q{n-1}` (0-based files), plus `class_size` with --unique",
    ),
    (
        Format::Json,
        "JSON Lines: `{\"solution\":1,\"n\":8,\"q0\":0,...}`, plus `\"class_size\"` with --unique",
    ),
    (
        Format::Svg,
        "The boards in one SVG picture (at most 1,000: use --limit)",
    ),
];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.board.n as usize;
    let pool = thread_pool(args.threads.threads)?;
    let engine = match args.engine {
        Engine::Bits => ListEngine::Bits,
        Engine::Dlx => ListEngine::Dlx,
    };
    let mut out = Output::create(args.output.as_deref())?;
    // The rows of boards, CSV and JSON Lines are written by the fast encoders; SVG and any
    // other record format take the solutions one by one.
    let Some(format) = ListFormat::of(args.format) else {
        match Writer::new(args.format, &mut out, false) {
            Ok(w) => write_records(&args, &pool, w)?,
            Err(out) => write_svg(&args, &pool, out)?,
        }
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    };
    out.write_all(&format.header(n, args.unique))?;
    listing::list(
        n,
        args.unique,
        args.limit,
        format,
        engine,
        Some(&pool),
        &mut out,
    )?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn stop_at(index: u64, limit: u64) -> ControlFlow<()> {
    if index >= limit {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// Hands each solution (its files, and with `--unique` its class size) to `each`, in the
/// order of the listing, until `each` breaks.
fn for_each_solution(
    args: &Args,
    pool: &rayon::ThreadPool,
    mut each: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    match args.engine {
        Engine::Bits => {
            let _ = listing::for_each_solution_in(n, &[], args.unique, &mut each);
        }
        Engine::Dlx => {
            let model = Queens::new(n)?;
            model::for_each_solution(&model, args.unique, Some(pool), |q, c| {
                Ok::<_, std::convert::Infallible>(each(q, c))
            })?;
        }
    }
    Ok(())
}

/// A record format without a fast encoder: the solutions one by one, as [`ListRecord`]s.
fn write_records(
    args: &Args,
    pool: &rayon::ThreadPool,
    mut w: Writer<&mut Output>,
) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut index = 0u64;
    let mut failure = None;
    for_each_solution(args, pool, |q, class_size| {
        index += 1;
        let r = ListRecord {
            solution: index,
            layout: LayoutFields { n, queens: Some(q) },
            class_size,
        };
        if let Err(e) = w.record(&r) {
            failure = Some(e);
            return ControlFlow::Break(());
        }
        stop_at(index, limit)
    })?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    w.end()?;
    Ok(())
}

/// One SVG picture of the boards. The picture's size comes first, so the boards are gathered
/// before drawing, at most [`svg::MAX_BOARDS`] of them: the listing stops as soon as it has
/// them (or one more, to refuse a bigger picture), as fast as the CSV of as many boards.
fn write_svg(args: &Args, pool: &rayon::ThreadPool, out: &mut Output) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let want = args.limit.unwrap_or(u64::MAX).min(svg::MAX_BOARDS + 1);
    let mut boards: Vec<(Vec<u32>, Option<u8>)> = Vec::new();
    for_each_solution(args, pool, |q, class_size| {
        boards.push((q.iter().map(|&c| u32::from(c)).collect(), class_size));
        stop_at(boards.len() as u64, want)
    })?;
    if boards.len() as u64 > svg::MAX_BOARDS {
        return Err(InputError(format!(
            "more than {} boards for one SVG picture: choose some with --limit K (K <= {}), \
             or use --format csv",
            svg::MAX_BOARDS,
            svg::MAX_BOARDS
        ))
        .into());
    }
    let pic = SvgBoards::start(out, n, boards.len(), svg::LIST_STYLE)?;
    for (k, (q, class_size)) in boards.iter().enumerate() {
        let label = match class_size {
            Some(c) => format!("#{} (class of {c})", k + 1),
            None => format!("#{}", k + 1),
        };
        pic.board(out, k, &label, None, Some(q))?;
    }
    pic.finish(out)?;
    Ok(())
}
