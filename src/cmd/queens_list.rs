//! `xcover queens list`: every n-queens solution (or one per symmetry class), numbered in
//! lexicographic order of its columns (or, with `--order search`, in the order the
//! dancing-links search finds them), as boards, CSV, JSON Lines or one SVG picture.
//!
//! Both engines write the lexicographic listing through [`listing::list`]: the same tasks, the
//! same ordered window, the same row writer ([`ListFormat`]), so their output is
//! byte-identical.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use super::InputError;
use super::queens_count::thread_pool;
use crate::io::export::{Format, Writer};
use crate::io::output::Output;
use crate::io::queens::write_list_svg;
use crate::io::records::ListFormat;
use crate::io::svg;
use crate::queens::count::Engine as QueensEngine;
use crate::queens::listing;
use crate::records::rows::{LayoutFields, ListRecord};

const EXAMPLES: &str = "\
Examples:
  xcover queens list 8 --format csv                  # all 92 solutions of 8-queens as CSV
  xcover queens list 10 --unique --format json       # one record per class, with its size
  xcover queens list 32 --order search --limit 24 --format svg -o first.svg  # at once";

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
    /// The order of the solutions: `lex` (lexicographic order of the columns) or `search`
    /// (the dancing-links search's own order, which finds the first solutions of any board
    /// at once).
    #[arg(long, value_enum, default_value_t = Order::Lex)]
    pub order: Order,
    /// The search of the lexicographic listing: `bits` (word-parallel, the fastest) or `dlx`
    /// (dancing links on the exact-cover model); the output is the same, byte for byte.
    /// `--order search` is dlx's [default: bits, or dlx with --order search].
    #[arg(long, value_enum)]
    pub engine: Option<Engine>,
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

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Lexicographic order of the columns `(q0, q1, ...)`, the same for every engine and
    /// thread count (the default).
    Lex,
    /// The order the dancing-links search finds the solutions in (it branches on the rank or
    /// file with the fewest open squares): the first ones come at once for every n, where the
    /// lexicographic order needs a long search from n = 30 on. One thread; the same order on
    /// every run.
    Search,
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
    let engine = match (args.order, args.engine) {
        (Order::Search, Some(Engine::Bits)) => {
            return Err(InputError(
                "--order search is the order of the dancing-links search: use it without \
                 --engine bits"
                    .into(),
            )
            .into());
        }
        (Order::Search, _) | (Order::Lex, Some(Engine::Dlx)) => QueensEngine::Dlx,
        (Order::Lex, None | Some(Engine::Bits)) => QueensEngine::Bits,
    };
    let mut out = Output::create(args.output.as_deref())?;
    // The rows of boards, CSV and JSON Lines are written by the fast encoders; SVG and any
    // other record format take the solutions one by one.
    let Some(format) = ListFormat::of(args.format) else {
        match Writer::new(args.format, &mut out, false) {
            Ok(w) => write_records(&args, engine, w)?,
            Err(out) => write_svg(&args, engine, out)?,
        }
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    };
    out.write_all(&format.header(n, args.unique))?;
    match args.order {
        Order::Lex => listing::list(
            n,
            args.unique,
            args.limit,
            format,
            engine,
            Some(&pool),
            &mut out,
        )?,
        Order::Search => {
            listing::list_in_search_order(n, args.unique, args.limit, format, &mut out)?
        }
    };
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
/// order of the listing, until `each` breaks (on the calling thread).
fn for_each_solution(
    args: &Args,
    engine: QueensEngine,
    each: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let _ = match args.order {
        Order::Lex => listing::for_each_solution(n, args.unique, engine, each)?,
        Order::Search => listing::for_each_solution_in_search_order(n, args.unique, each)?,
    };
    Ok(())
}

/// A record format without a fast encoder: the solutions one by one, as [`ListRecord`]s.
fn write_records(
    args: &Args,
    engine: QueensEngine,
    mut w: Writer<&mut Output>,
) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut index = 0u64;
    let mut failure = None;
    for_each_solution(args, engine, |q, class_size| {
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
/// before drawing, at most [`svg::MAX_BOARDS`] of them: the listing (the same solutions in the
/// same order as the other formats, on the calling thread) stops as soon as it has them (or
/// one more, to refuse a bigger picture).
fn write_svg(args: &Args, engine: QueensEngine, out: &mut Output) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let want = args.limit.unwrap_or(u64::MAX).min(svg::MAX_BOARDS + 1);
    let mut boards: Vec<(Vec<u32>, Option<u8>)> = Vec::new();
    for_each_solution(args, engine, |q, class_size| {
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
    write_list_svg(out, n, &boards)?;
    Ok(())
}
