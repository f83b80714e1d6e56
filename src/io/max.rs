//! The exporter of `queens max`: each board's result written as soon as it is done, in the
//! format chosen once ([`MaxWriter`]) — a text line per board (and the layouts asked for), a
//! record per layout (CSV, JSON Lines: [`MaxRecord`]), or a board per result in one SVG
//! picture — and its `--stats` line ([`stats_line`]).
//!
//! Text: one line per board with the maximum (`none` without a placement; after it
//! `feasible bound=B` or `unknown bound=B` when a time limit cut the search short). With
//! `--top K` the line holds the K best scores. `--board`/`--all-optimal` add the layouts, each
//! as n lines followed by an empty line.

use std::io::{self, Write};

use super::export::{Format, Writer};
use super::records::write_board_text;
use super::svg::{self, SvgBoards};
use crate::engine::optimize;
use crate::records::Status;
use crate::records::rows::{LayoutFields, MaxBoard, MaxRecord};

/// A board's result as it is written.
#[derive(Clone, Debug)]
pub struct Board<'a> {
    /// The board's number in the input, from 1.
    pub number: usize,
    /// The board size.
    pub n: usize,
    /// The board's weights, rank-major.
    pub weights: &'a [i64],
    /// How the optimiser ended.
    pub ending: optimize::Status,
    /// No layout reaches the floor (`--floor`).
    pub below_floor: bool,
    /// What stopped a search that did not end ([`Status::stopped`]).
    pub stopped_by: Status,
    /// The layouts reported, best first: score and the file of the queen on each rank.
    pub layouts: Vec<(i128, &'a [u32])>,
    /// The number of optimal layouts, when counted.
    pub optimal_count: Option<u64>,
    /// A proven upper bound on the maximum.
    pub bound: Option<i128>,
    /// Search nodes.
    pub nodes: u64,
}

impl Board<'_> {
    /// How the board's search ended, the one status word of its records: `below-floor` from a
    /// floor no layout reaches, else the optimiser's ending (`interrupted` for an unproven
    /// result after an interrupt; `time` when no layout was found in time).
    pub fn status(&self) -> Status {
        Status::of_board_stopped(self.ending, self.below_floor, self.stopped_by)
    }

    /// The board's status in text, `--stats` and SVG titles: the word of its records, but
    /// `unknown` for a search that found no layout in time.
    pub fn word(&self) -> &'static str {
        word(self.status())
    }

    /// The best score found, if any layout was.
    pub fn maximum(&self) -> Option<i128> {
        self.layouts.first().map(|&(score, _)| score)
    }
}

/// A status in text: `unknown` for `time` (no layout found in time).
fn word(status: Status) -> &'static str {
    match status {
        Status::Time => "unknown",
        s => s.name(),
    }
}

/// What the text view shows, from the command's flags.
#[derive(Copy, Clone, Debug)]
pub struct TextView {
    /// Right-justify each number in this many columns.
    pub width: usize,
    /// `--top K`: the K best scores on the line, each layout with its score.
    pub top: bool,
    /// `--board`: the best layout.
    pub board: bool,
    /// `--all-optimal`: every optimal layout, and their count.
    pub all_optimal: bool,
}

/// Where the boards' results go: the writer chosen once from the format.
pub enum MaxWriter<'o, W: Write> {
    /// One line per board (and the layouts asked for).
    Text(&'o mut W, TextView),
    /// A record per layout.
    Records(Writer<&'o mut W>),
    /// A board per result in one picture.
    Svg(&'o mut W, SvgBoards),
}

impl<'o, W: Write> MaxWriter<'o, W> {
    /// Begins the output of `count` boards of side `n` in `format`: the CSV header (even
    /// without boards), the SVG picture's start.
    pub fn new(
        out: &'o mut W,
        format: Format,
        n: usize,
        count: usize,
        text: TextView,
    ) -> io::Result<MaxWriter<'o, W>> {
        Ok(match Writer::new(format, out, false) {
            Ok(mut w) => {
                w.begin(&MaxRecord {
                    board: 0,
                    board_status: Status::Infeasible,
                    score: None,
                    place: None,
                    board_bound: None,
                    optimal_count: None,
                    nodes: 0,
                    layout: LayoutFields { n, queens: None },
                })?;
                MaxWriter::Records(w)
            }
            Err(out) if format == Format::Svg => {
                let pic = SvgBoards::start(&mut *out, n, count, svg::WEIGHTS_STYLE)?;
                MaxWriter::Svg(out, pic)
            }
            Err(out) => MaxWriter::Text(out, text),
        })
    }

    /// Writes a board's result (records are written out at once).
    pub fn board(&mut self, b: &Board) -> io::Result<()> {
        match self {
            MaxWriter::Text(out, view) => write_text(out, view, b),
            MaxWriter::Records(w) => {
                let board = MaxBoard {
                    board: b.number,
                    status: b.status(),
                    bound: b.bound,
                    optimal_count: b.optimal_count,
                    nodes: b.nodes,
                    n: b.n,
                };
                board.records(&b.layouts, |r| w.record(r))?;
                w.flush()
            }
            MaxWriter::Svg(out, pic) => {
                let title = svg::weighted_title(b.number, b.maximum(), b.word(), b.bound);
                let queens = b.layouts.first().map(|&(_, q)| q);
                pic.board(out, b.number - 1, &title, Some(b.weights), queens)
            }
        }
    }

    /// What closes the output: the end of the picture, the buffered records.
    pub fn end(self) -> io::Result<()> {
        match self {
            MaxWriter::Records(w) => w.end(),
            MaxWriter::Svg(out, pic) => pic.finish(out),
            MaxWriter::Text(..) => Ok(()),
        }
    }
}

/// A value or `none`.
fn opt(v: Option<i128>) -> String {
    v.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// `--stats`: a board's line, after `seconds` of search.
pub fn stats_line(b: &Board, seconds: f64) -> String {
    format!(
        "board {}: n={} status={} nodes={} value={} bound={} seconds={:.3}",
        b.number,
        b.n,
        b.word(),
        b.nodes,
        opt(b.maximum()),
        opt(b.bound),
        seconds
    )
}

/// The text of a board (the module's documentation says what it is).
fn write_text<W: Write>(out: &mut W, view: &TextView, b: &Board) -> io::Result<()> {
    let w = view.width;
    let mut line = match b.ending {
        _ if b.below_floor => format!("{:>w$} below-floor bound={}", "none", opt(b.bound)),
        optimize::Status::Infeasible => format!("{:>w$}", "none"),
        optimize::Status::Unknown => format!("{:>w$}", "unknown"),
        _ if view.top => b
            .layouts
            .iter()
            .map(|&(score, _)| format!("{score:>w$}"))
            .collect::<Vec<_>>()
            .join(" "),
        _ => format!("{:>w$}", opt(b.maximum())),
    };
    if matches!(
        b.ending,
        optimize::Status::Feasible | optimize::Status::Unknown
    ) {
        // The optimiser's word, whatever the floor.
        let word = word(Status::of_board_stopped(b.ending, false, b.stopped_by));
        line.push_str(&format!(" {word} bound={}", opt(b.bound)));
    }
    if view.all_optimal
        && let Some(c) = b.optimal_count
    {
        line.push_str(&format!(" ({c} optimal)"));
    }
    writeln!(out, "{line}")?;
    let shown: &[_] = if view.all_optimal || view.top {
        &b.layouts
    } else if view.board {
        &b.layouts[..b.layouts.len().min(1)]
    } else {
        &[]
    };
    if view.board || view.all_optimal {
        for &(score, queens) in shown {
            if view.top {
                writeln!(out, "{score}")?;
            }
            write_board_text(out, b.n, queens)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
