//! The exporters of a family of solutions ([`crate::engine::family`]): the marginals
//! (`solve --marginals`, `model NAME --marginals`) and samples drawn as text pictures in one
//! SVG (`model NAME --sample K --format svg`).
//!
//! The marginals are one record per option of the problem, in index order: `option` (its
//! index, from 0), `line` (its line in the DLX text), `text` (as written there), `solutions`
//! (how many solutions take it) and `share` (that over the number of solutions; empty when
//! there is none). Text: a first line `N solutions`, then one line per option,
//! `SOLUTIONS LINE: TEXT`, the counts right-aligned.

use std::io::{self, Write};

use super::export::{Format, Writer};
use super::svg::{self, Cell, CellGrid};
use crate::engine::OptionId;
use crate::records::rows::{Decimal, MarginalRecord};

/// Writes the marginals `counts` (one per option, in index order) of a family of `total`
/// solutions in `format` (text, CSV, JSON Lines); `describe` gives an option's line and text.
pub fn write_marginals<W: Write>(
    out: &mut W,
    format: Format,
    total: u128,
    counts: &[u128],
    describe: impl Fn(OptionId) -> (usize, String),
) -> io::Result<()> {
    let share = |c: u128| (total != 0).then(|| Decimal(c as f64 / total as f64));
    match Writer::new(format, &mut *out, false) {
        Ok(mut w) => {
            w.begin(&MarginalRecord {
                option: 0,
                line: 0,
                text: "",
                solutions: 0,
                share: None,
            })?;
            for (o, &c) in counts.iter().enumerate() {
                let (line, text) = describe(OptionId(o as u32));
                w.record(&MarginalRecord {
                    option: o as u32,
                    line,
                    text: &text,
                    solutions: c,
                    share: share(c),
                })?;
            }
            w.end()?;
        }
        Err(out) => {
            writeln!(out, "{total} solution{}", if total == 1 { "" } else { "s" })?;
            let width = counts
                .iter()
                .map(|c| c.to_string().len())
                .max()
                .unwrap_or(1);
            for (o, &c) in counts.iter().enumerate() {
                let (line, text) = describe(OptionId(o as u32));
                writeln!(out, "{c:>width$} {line}: {text}")?;
            }
            out.flush()?;
        }
    }
    Ok(())
}

/// Pictures in text (lines of characters, as a model decodes a solution) as one SVG: each
/// picture a grid of cells, one under the other in order, a blank row between; each character
/// a region of its own colour (a tiling's pieces, a board's queens), `#` a hole. `title` is
/// written above.
pub fn text_pictures_svg<W: Write>(
    out: &mut W,
    pictures: &[String],
    title: &str,
) -> io::Result<()> {
    let cols = pictures
        .iter()
        .flat_map(|p| p.lines().map(|r| r.chars().count()))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut cells: Vec<Option<Cell>> = Vec::new();
    let mut regions: Vec<char> = Vec::new();
    let mut rows = 0;
    for (k, picture) in pictures.iter().enumerate() {
        if k > 0 {
            cells.extend(std::iter::repeat_n(None, cols));
            rows += 1;
        }
        for line in picture.lines() {
            let mut n = 0;
            for ch in line.chars() {
                n += 1;
                cells.push((ch != '#').then(|| {
                    let region = match regions.iter().position(|&r| r == ch) {
                        Some(i) => i,
                        None => {
                            regions.push(ch);
                            regions.len() - 1
                        }
                    };
                    Cell {
                        text: if ch == '.' {
                            String::new()
                        } else {
                            ch.to_string()
                        },
                        region,
                        strong: false,
                    }
                }));
            }
            cells.extend(std::iter::repeat_n(None, cols - n));
            rows += 1;
        }
    }
    let grid = CellGrid {
        rows: rows.max(1),
        cols,
        cells: if rows == 0 { vec![None; cols] } else { cells },
        coloured: true,
    };
    svg::cell_grid(out, &grid, title)
}
