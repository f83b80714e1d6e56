//! The exporters of `xcover solve`'s results, each writing the format it is given (chosen once
//! from `--format`): the solutions of a listing or of samples ([`SolutionWriter`]), a count
//! ([`write_count`]), an optimum ([`write_optimum`]), the `--stats` summary record
//! ([`write_summary`]); and the lines on stderr that say how a search went ([`optimum_line`],
//! [`knuth_line`], [`split_line`], [`memo_line`], [`preprocess_line`], [`zdd_line`]).
//! docs/formats.md is the table of the records.
//!
//! - Text is DLX1's: a heading `N:` (`N: cost C` when optimising), then the solution's
//!   options as written in the input, one a line, each indented by one space.
//! - CSV: a header, then a row per (solution, option); JSON Lines: a `solution` record per
//!   solution, then a closing record of another kind (`optimum`, `summary`).

use std::io::{self, Write};

use super::dlx_format::DlxFile;
use super::export::{Format, Record, Writer};
use super::records::{write_count_text, write_solution_text, write_solve_count_text};
use crate::engine::optimize::{self, Optimum};
use crate::engine::preprocess::PreStats;
use crate::engine::zdd::Zdd;
use crate::engine::{MemoStats, OptionId, Problem, SplitInfo, Stats, structure_bytes};
use crate::records::Status;
use crate::records::rows::{CountRecord, OptimumRecord, SolutionRecord, SummaryRecord};

/// The writer of a stream of solutions of a DLX file, in text or records: each solution with
/// its number, cost (when optimising), options as written and input lines, from buffers kept
/// from one solution to the next.
pub struct SolutionWriter<'o, 'd, W: Write> {
    dlx: &'d DlxFile,
    sink: Sink<'o, W>,
    texts: Vec<String>,
    lines: Vec<usize>,
}

/// Where the solutions go: the writer chosen once from the format.
enum Sink<'o, W: Write> {
    /// DLX1's text.
    Text(&'o mut W),
    /// A record per solution.
    Records(Writer<&'o mut W>),
}

impl<'o, 'd, W: Write> SolutionWriter<'o, 'd, W> {
    /// Begins a stream of `dlx`'s solutions in `format` (the CSV header, from a solution like
    /// the ones to come: with a cost when `costs`).
    pub fn new(
        out: &'o mut W,
        format: Format,
        dlx: &'d DlxFile,
        costs: bool,
    ) -> io::Result<SolutionWriter<'o, 'd, W>> {
        let sink = match Writer::new(format, out, true) {
            Ok(mut w) => {
                w.begin(&SolutionRecord {
                    solution: 0,
                    cost: costs.then_some(0),
                    options: &[String::new()],
                    lines: &[0],
                })?;
                Sink::Records(w)
            }
            Err(out) => Sink::Text(out),
        };
        Ok(SolutionWriter {
            dlx,
            sink,
            texts: Vec::new(),
            lines: Vec::new(),
        })
    }

    /// Writes solution `number` (from 1), made of `options`, with its `cost` when optimising.
    pub fn write(
        &mut self,
        number: u64,
        cost: Option<i128>,
        options: &[OptionId],
    ) -> io::Result<()> {
        let dlx = self.dlx;
        self.texts.clear();
        self.texts
            .extend(options.iter().map(|&o| dlx.problem.format_option(o)));
        self.lines.clear();
        self.lines.extend(options.iter().map(|&o| dlx.line_of(o)));
        let r = SolutionRecord {
            solution: number,
            cost,
            options: &self.texts,
            lines: &self.lines,
        };
        match &mut self.sink {
            Sink::Records(w) => w.record(&r),
            Sink::Text(out) => write_solution_text(out, &r),
        }
    }

    /// Writes a record of another kind that closes the stream, where the format has one
    /// (JSON Lines); text and CSV leave it out.
    pub fn trailer<R: Record>(&mut self, r: &R) -> io::Result<()> {
        match &mut self.sink {
            Sink::Records(w) => w.trailer(r),
            Sink::Text(_) => Ok(()),
        }
    }

    /// Ends the stream: the records' buffers written out (text is left to the output's own
    /// end).
    pub fn end(self) -> io::Result<()> {
        match self.sink {
            Sink::Records(w) => w.end(),
            Sink::Text(_) => Ok(()),
        }
    }
}

/// `--count`: the count in `format`. Text is the bare number for a complete count, else
/// `solutions=N status=S` (`write_count_text`); CSV `solutions,status`; JSON a `count`
/// record.
pub fn write_count<W: Write>(
    out: &mut W,
    format: Format,
    count: u128,
    status: Status,
) -> io::Result<()> {
    let record = CountRecord {
        solutions: count,
        status,
    };
    match Writer::new(format, out, true) {
        Ok(mut w) => {
            w.record(&record)?;
            w.end()
        }
        Err(out) => write_count_text(out, count, status, |out| {
            write_solve_count_text(out, &record)
        }),
    }
}

/// `--minimize`/`--maximize`: the kept solutions, best first: text as DLX1 prints solutions
/// with the cost in the heading (`1: cost 5`), CSV `solution,cost,position,line,option`, or
/// JSON Lines solution records followed by an `optimum` record (status, cost, bound).
pub fn write_optimum<W: Write>(
    out: &mut W,
    format: Format,
    dlx: &DlxFile,
    best: &Optimum,
    status: Status,
) -> io::Result<()> {
    let mut w = SolutionWriter::new(out, format, dlx, true)?;
    for (k, s) in best.solutions.iter().enumerate() {
        w.write(k as u64 + 1, Some(s.value), &s.options)?;
    }
    w.trailer(&OptimumRecord {
        status,
        cost: best.value(),
        bound: best.bound,
        solutions: best.solutions.len(),
        nodes: best.stats.nodes(),
        updates: best.stats.updates(),
        mems: best.stats.mems(),
    })?;
    w.end()
}

/// `--stats` with JSON Lines: the closing `summary` record of a count or a listing of
/// `problem` (`solutions`: all of them, remembered ones included); the other formats have
/// none.
pub fn write_summary<W: Write>(
    out: &mut W,
    format: Format,
    problem: &Problem,
    status: Status,
    stats: &Stats,
    solutions: u128,
) -> io::Result<()> {
    if let Ok(mut w) = Writer::new(format, out, true) {
        let mut summary = SummaryRecord::new(status, stats, search_bytes(problem, stats));
        summary.solutions = solutions;
        w.trailer(&summary)?;
        w.end()?;
    }
    Ok(())
}

/// Knuth's bytes of the data structure of a search of `problem`.
fn search_bytes(problem: &Problem, stats: &Stats) -> u64 {
    structure_bytes(problem, stats.max_level())
}

/// Knuth's `Altogether ...` line of a search of `problem` that found `solutions` in all.
pub fn knuth_line(problem: &Problem, stats: &Stats, solutions: u128) -> String {
    stats.knuth_line_of(solutions, search_bytes(problem, stats))
}

/// How a search was split (on threads or in a shard).
pub fn split_line(s: &SplitInfo) -> String {
    format!(
        "sub-problems={} parts={}/{} depth={} threads={}",
        s.subproblems, s.mine, s.parts, s.depth, s.threads
    )
}

/// What a count's memo did.
pub fn memo_line(m: &MemoStats) -> String {
    format!(
        "memo: {} hits, {} stores, {} evictions, {} nodes saved, {} bytes",
        m.hits, m.stores, m.evictions, m.nodes_saved, m.bytes
    )
}

/// What `--preprocess` removed, in `seconds`.
pub fn preprocess_line(s: &PreStats, seconds: f64) -> String {
    format!(
        "preprocess: removed {} of {} options in {} rounds, {} work, {:.3}s{}",
        s.options_removed,
        s.options_before,
        s.rounds,
        s.work,
        seconds,
        if s.complete {
            ""
        } else {
            " (stopped by the work limit)"
        }
    )
}

/// What building the ZDD took: its nodes, the sub-problems met, the memo's hits, the nodes
/// shared, the bytes, the solutions (`None`: more than 2^128 - 1) and the `seconds`.
pub fn zdd_line(zdd: &Zdd, count: Option<u128>, seconds: f64) -> String {
    let s = zdd.stats();
    format!(
        "zdd: {} nodes, {} sub-problems, {} hits, {} shared nodes, {} bytes, {} solution{}, {:.3}s",
        zdd.len(),
        s.subproblems,
        s.hits,
        s.shared,
        s.bytes,
        match count {
            Some(c) => c.to_string(),
            None => "more than 2^128 - 1".to_string(),
        },
        if count == Some(1) { "" } else { "s" },
        seconds
    )
}

/// How an optimisation ended, in one line: `optimal: cost 5 (proven)`, `feasible: cost 5,
/// bound 3 (...)`, `unknown: ...`, `infeasible: ...`. `interrupted`: a budget that ran out was
/// an interrupt.
pub fn optimum_line(best: &Optimum, interrupted: bool) -> String {
    let why = if interrupted {
        "interrupted"
    } else {
        "a budget ran out"
    };
    match (best.status, best.value(), best.bound) {
        (optimize::Status::Optimal, Some(v), _) => format!("optimal: cost {v} (proven)"),
        (optimize::Status::Feasible, Some(v), Some(b)) => {
            format!("feasible: cost {v}, bound {b} ({why} before the proof)")
        }
        (optimize::Status::Feasible, Some(v), None) => {
            format!("feasible: cost {v}, no bound ({why} before the proof)")
        }
        (optimize::Status::Unknown, _, Some(b)) => {
            format!("unknown: no solution found ({why}; bound {b})")
        }
        (optimize::Status::Unknown, _, None) => {
            format!("unknown: no solution found ({why}; no bound)")
        }
        _ => "infeasible: the problem has no exact cover".to_string(),
    }
}
