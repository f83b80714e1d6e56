//! The exporters of the n-queens commands' results, each writing the format it is given: a
//! count (`queens count`), a heat map (`queens heatmap`), listed boards as one SVG picture
//! (`queens list --format svg`). The rows of `queens list` have their fast encoders
//! ([`super::ListFormat`]), `queens max` its own exporter ([`super::max`]).

use std::io::{self, Write};

use super::export::{Format, Writer};
use super::records::{write_count_text, write_heatmap_text, write_queens_count_text};
use super::svg::{self, SvgBoards};
use crate::records::rows::{HeatmapRecord, QueensCountRecord};

/// `queens count`: the record in a record format; text is the bare `count` (the solutions,
/// or the classes with `--unique`) when complete, else the record as `key=value` words
/// (`write_count_text`).
pub fn write_count<W: Write>(
    out: &mut W,
    format: Format,
    record: &QueensCountRecord,
    count: u128,
) -> io::Result<()> {
    match Writer::new(format, out, false) {
        Ok(mut w) => {
            w.record(record)?;
            w.end()
        }
        Err(out) => write_count_text(out, count, record.status, |out| {
            write_queens_count_text(out, record)
        }),
    }
}

/// `queens heatmap`: the `n × n` table of `counts` (rank-major) of `total` solutions
/// (representatives with `unique`): a record per square, an SVG heat map, or the text table
/// (`write_heatmap_text`).
pub fn write_heatmap<W: Write>(
    out: &mut W,
    format: Format,
    n: usize,
    counts: &[u128],
    total: u128,
    unique: bool,
) -> io::Result<()> {
    match Writer::new(format, out, false) {
        Ok(mut w) => {
            for r in HeatmapRecord::of_table(n, counts, total) {
                w.record(&r)?;
            }
            w.end()
        }
        Err(out) if format == Format::Svg => svg::queens_heatmap(out, n, counts, total, unique),
        Err(out) => write_heatmap_text(out, n, counts, total, unique),
    }
}

/// `queens list --format svg`: the boards of side `n` (the file of the queen on each rank,
/// and the class size with `--unique`) as one picture, each labelled with its number.
pub fn write_list_svg<W: Write>(
    out: &mut W,
    n: usize,
    boards: &[(Vec<u32>, Option<u8>)],
) -> io::Result<()> {
    let pic = SvgBoards::start(out, n, boards.len(), svg::LIST_STYLE)?;
    for (k, (q, class_size)) in boards.iter().enumerate() {
        let label = match class_size {
            Some(c) => format!("#{} (class of {c})", k + 1),
            None => format!("#{}", k + 1),
        };
        pic.board(out, k, &label, None, Some(q))?;
    }
    pic.finish(out)
}
