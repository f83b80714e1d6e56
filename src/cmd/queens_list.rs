//! `xcover queens list`: every n-queens solution (or one per symmetry class), numbered in
//! lexicographic order of its columns, as boards, CSV, JSON Lines or one SVG picture.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use super::InputError;
use super::queens_count::thread_pool;
use crate::io::output::Output;
use crate::io::records::{LayoutFields, ListCsv, ListRecord, write_json_line};
use crate::io::svg::{self, SvgBoards};
use crate::queens::model::{self, Queens};

#[derive(clap::Args, Debug)]
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
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// A heading line, then n lines of `X` (queen) and `.` (empty), rank 0 first.
    Board,
    /// `solution,n,q0,...,q{n-1}` (0-based files), plus `class_size` with --unique.
    Csv,
    /// JSON Lines: `{"solution":1,"n":8,"q0":0,...}`, plus `"class_size"` with --unique.
    Json,
    /// The boards in one SVG picture (at most 1,000: use --limit).
    Svg,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.board.n as usize;
    let model = Queens::new(n)?;
    let pool = thread_pool(args.threads)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut out = Output::create(args.output.as_deref())?;
    match args.format {
        Format::Board => write_boards(&model, &args, &pool, limit, &mut out)?,
        Format::Csv => {
            let mut w = ListCsv::new(&mut out, n, args.unique)?;
            let mut index = 0u64;
            model::for_each_solution(&model, args.unique, Some(&pool), |q, class_size| {
                index += 1;
                w.write(&ListRecord {
                    solution: index,
                    layout: LayoutFields { n, queens: Some(q) },
                    class_size,
                })?;
                Ok::<_, csv::Error>(stop_at(index, limit))
            })?;
            w.flush()?;
        }
        Format::Json => {
            let mut index = 0u64;
            model::for_each_solution(&model, args.unique, Some(&pool), |q, class_size| {
                index += 1;
                let r = ListRecord {
                    solution: index,
                    layout: LayoutFields { n, queens: Some(q) },
                    class_size,
                };
                write_json_line(&mut out, &r)?;
                Ok::<_, std::io::Error>(stop_at(index, limit))
            })?;
        }
        Format::Svg => write_svg(&model, &args, &pool, limit, &mut out)?,
    }
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

/// Text boards: a heading `Solution K: f0 f1 ...` then n lines of `X` and `.`.
fn write_boards(
    model: &Queens,
    args: &Args,
    pool: &rayon::ThreadPool,
    limit: u64,
    out: &mut Output,
) -> std::io::Result<()> {
    let n = args.board.n as usize;
    let mut index = 0u64;
    let mut line = String::new();
    model::for_each_solution(model, args.unique, Some(pool), |q, class_size| {
        index += 1;
        line.clear();
        if index > 1 {
            line.push('\n');
        }
        line += &format!("Solution {index}:");
        for &c in q {
            line += &format!(" {c}");
        }
        if let Some(s) = class_size {
            line += &format!(" (class of {s})");
        }
        line.push('\n');
        for &c in q {
            for f in 0..n {
                if f > 0 {
                    line.push(' ');
                }
                line.push(if f == c as usize { 'X' } else { '.' });
            }
            line.push('\n');
        }
        out.write_all(line.as_bytes())?;
        Ok::<_, std::io::Error>(stop_at(index, limit))
    })
}

/// One SVG picture of the boards. The picture's size comes first, so the boards are gathered
/// before drawing, at most [`svg::MAX_BOARDS`] of them: the listing stops as soon as it has
/// them (or one more, to refuse a bigger picture), as fast as the CSV of as many boards.
fn write_svg(
    model: &Queens,
    args: &Args,
    pool: &rayon::ThreadPool,
    limit: u64,
    out: &mut Output,
) -> anyhow::Result<()> {
    let n = args.board.n as usize;
    let want = limit.min(svg::MAX_BOARDS + 1);
    let mut boards: Vec<(Vec<u32>, Option<u8>)> = Vec::new();
    model::for_each_solution(model, args.unique, Some(pool), |q, class_size| {
        boards.push((q.iter().map(|&c| u32::from(c)).collect(), class_size));
        Ok::<_, std::io::Error>(stop_at(boards.len() as u64, want))
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
