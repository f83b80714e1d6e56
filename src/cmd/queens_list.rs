//! `xcover queens list`: every n-queens solution (or one per symmetry class), numbered in
//! lexicographic order of its columns, as boards, CSV, JSON Lines or one SVG picture.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use super::queens_count::thread_pool;
use crate::io::output::Output;
use crate::queens::model::{self, CountConfig, Queens};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: super::BoardSize,
    /// One representative per class under the 8 symmetries of the square (the
    /// lexicographically smallest image), with the size of its class.
    #[arg(long)]
    pub unique: bool,
    /// Stop after K solutions.
    #[arg(long, value_name = "K")]
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
    /// `solution,q0,...,q{n-1}` (0-based files), plus `class_size` with --unique.
    Csv,
    /// JSON Lines: `{"solution":1,"columns":[...]}`, plus `"class_size"` with --unique.
    Json,
    /// All boards in one SVG picture.
    Svg,
}

/// SVG geometry: square size, boards per row, gaps.
const CELL: usize = 12;
const PER_ROW: usize = 8;
const GAP: usize = 16;
const LABEL: usize = 16;

fn svg_header(n: usize, count: u64) -> String {
    let board = n * CELL;
    let cols = (count as usize).clamp(1, PER_ROW);
    let rows = (count as usize).div_ceil(PER_ROW).max(1);
    let w = GAP + cols * (board + GAP);
    let h = GAP + rows * (board + LABEL + GAP);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    )
}

fn svg_board(q: &[u8], index: u64, class_size: Option<u8>) -> String {
    let n = q.len();
    let board = n * CELL;
    let k = (index - 1) as usize;
    let x0 = GAP + (k % PER_ROW) * (board + GAP);
    let y0 = GAP + (k / PER_ROW) * (board + LABEL + GAP);
    let mut s = format!("<g transform=\"translate({x0},{y0})\">\n");
    let label = match class_size {
        Some(c) => format!("#{index} (class of {c})"),
        None => format!("#{index}"),
    };
    s += &format!("<text x=\"0\" y=\"11\">{label}</text>\n");
    for r in 0..n {
        for c in 0..n {
            let fill = if (r + c) % 2 == 0 {
                "#f0d9b5"
            } else {
                "#b58863"
            };
            s += &format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>",
                c * CELL,
                LABEL + r * CELL
            );
        }
        s.push('\n');
    }
    for (r, &c) in q.iter().enumerate() {
        s += &format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"black\"/>\n",
            c as usize * CELL + CELL / 2,
            LABEL + r * CELL + CELL / 2,
            CELL / 3
        );
    }
    s += "</g>\n";
    s
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.board.n as usize;
    let model = Queens::new(n)?;
    let pool = thread_pool(args.threads)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut out = Output::create(args.output.as_deref())?;

    match args.format {
        Format::Csv => {
            let mut header = String::from("solution");
            for r in 0..n {
                header += &format!(",q{r}");
            }
            if args.unique {
                header += ",class_size";
            }
            writeln!(out, "{header}")?;
        }
        Format::Svg => {
            // The picture's size comes first, so count the boards before drawing them.
            let config = CountConfig {
                unique: args.unique,
                ..CountConfig::default()
            };
            let c = pool.install(|| model::count(&model, &config, &|_, _, _| {}))?;
            let total = if args.unique {
                c.unique.unwrap_or(0)
            } else {
                c.solutions
            };
            let shown = total.min(limit as u128) as u64;
            write!(out, "{}", svg_header(n, shown))?;
        }
        _ => {}
    }

    let mut index = 0u64;
    let mut line = String::new();
    if limit > 0 {
        model::for_each_solution(&model, args.unique, Some(&pool), |q, class_size| {
            index += 1;
            line.clear();
            match args.format {
                Format::Board => {
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
                }
                Format::Csv => {
                    line += &index.to_string();
                    for &c in q {
                        line += &format!(",{c}");
                    }
                    if let Some(s) = class_size {
                        line += &format!(",{s}");
                    }
                    line.push('\n');
                }
                Format::Json => {
                    line += &format!("{{\"solution\":{index},\"columns\":[");
                    for (i, &c) in q.iter().enumerate() {
                        if i > 0 {
                            line.push(',');
                        }
                        line += &c.to_string();
                    }
                    line.push(']');
                    if let Some(s) = class_size {
                        line += &format!(",\"class_size\":{s}");
                    }
                    line += "}\n";
                }
                Format::Svg => line += &svg_board(q, index, class_size),
            }
            out.write_all(line.as_bytes())?;
            Ok::<_, std::io::Error>(if index >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        })?;
    }
    if args.format == Format::Svg {
        writeln!(out, "</svg>")?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
