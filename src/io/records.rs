//! The codec side of the records the commands print (`crate::records::rows`): which kind
//! each is and how it lays out in CSV ([`Record`], for the writers of [`super::export`]), the
//! fast encoders of the `queens list` rows, and the text views that are not one line a record.
//! docs/formats.md is the table of the records.
//!
//! - CSV has a header row; JSON Lines one flat object a line (pandas `read_json(lines=True)`
//!   reads it as is), fields in the order of the CSV columns. Where a stream mixes kinds of
//!   record, a `record` field names the kind.
//! - No value is an empty CSV field and `null` in JSON; a numeric column never holds a word.

// Without the `cli` feature only the layout rows (`ListFormat`, for the bits lister) are used;
// the other writers serve the binary.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

use std::io::{self, Write};

use super::export::{CsvRows, Format, Record};
use crate::records::ShardRecord;
use crate::records::Status;
use crate::records::rows::{
    CountRecord, HeatmapRecord, ListRecord, MarginalRecord, MaxRecord, OptimumRecord,
    QueensCountRecord, SolutionRecord, SummaryRecord,
};

// ---------------------------------------------------------------------------------------------
// The kinds of record

impl Record for ListRecord<'_> {
    const KIND: &'static str = "solution";
}

impl Record for HeatmapRecord {
    const KIND: &'static str = "square";
}

impl Record for MaxRecord<'_> {
    const KIND: &'static str = "layout";
}

impl Record for QueensCountRecord<'_> {
    const KIND: &'static str = "count";
}

impl Record for ShardRecord {
    const KIND: &'static str = "shard";
}

impl Record for SolutionRecord<'_> {
    const KIND: &'static str = "solution";

    /// A row per option: a list has no one cell.
    fn csv_rows<W: Write>(&self, rows: &mut CsvRows<W>) -> io::Result<()> {
        for r in self.option_rows() {
            rows.row(&r)?;
        }
        Ok(())
    }
}

impl Record for CountRecord {
    const KIND: &'static str = "count";
}

impl Record for SummaryRecord {
    const KIND: &'static str = "summary";
}

impl Record for OptimumRecord {
    const KIND: &'static str = "optimum";
}

impl Record for MarginalRecord<'_> {
    const KIND: &'static str = "marginal";
}

// ---------------------------------------------------------------------------------------------
// `queens list`: the fast encoders

/// The fast encoders of the `queens list` rows, one per format that has one ([`ListFormat::of`]
/// maps a [`Format`] to it): CSV `solution,n,q0,...,q{n-1}` (plus `class_size` with
/// `--unique`), the same fields as one flat JSON object a line (the fields of a
/// `ListRecord`, as the writers of [`super::export`] write it: a test checks), or text
/// boards. Both engines and every thread count write through it.
///
/// Rows are numbered in the global order, which a worker does not know, so a row is written in
/// two parts: [`ListFormat::tail`] (everything after the number, formatted on the worker) and
/// [`ListFormat::head`] (the number, put in front by the ordered writer). Integers are written
/// by table or `itoa`, never `format!`: the CSV of n = 16 is 600 MB.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// `K,n,q0,...,q{n-1}` (plus `,S` with the class size); the header is [`ListFormat::header`].
    Csv,
    /// `{"solution":K,"n":n,"q0":f0,...}` (plus `,"class_size":S`), one line per solution.
    Json,
    /// `Solution K: q0 ... q{n-1}` (plus ` (class of S)`), then the board, `X` and `.`
    /// separated by spaces; a blank line before every solution but the first.
    Board,
}

/// `,c` for each number `c < 100`, padded to 3 bytes, and its length: one copy and no branch
/// per file.
const CSV_SMALL: [([u8; 3], usize); 100] = {
    let mut t = [([0u8; 3], 0usize); 100];
    let mut c = 0;
    while c < 100 {
        t[c] = if c < 10 {
            ([b',', b'0' + c as u8, 0], 2)
        } else {
            ([b',', b'0' + (c / 10) as u8, b'0' + (c % 10) as u8], 3)
        };
        c += 1;
    }
    t
};

/// The most files in a row [`ListFormat::tail`] formats through its stack buffer.
const LIST_MAX_N: usize = 64;

/// Appends a number below 256 in decimal.
#[inline]
fn push_small(out: &mut Vec<u8>, v: u8) {
    if v >= 100 {
        out.push(b'0' + v / 100);
    }
    if v >= 10 {
        out.push(b'0' + v / 10 % 10);
    }
    out.push(b'0' + v % 10);
}

impl ListFormat {
    /// What comes before the first row: the CSV header, nothing otherwise.
    pub fn header(self, n: usize, unique: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if self == ListFormat::Csv {
            out.extend_from_slice(b"solution,n");
            let mut buf = itoa::Buffer::new();
            for r in 0..n {
                out.extend_from_slice(b",q");
                out.extend_from_slice(buf.format(r).as_bytes());
            }
            if unique {
                out.extend_from_slice(b",class_size");
            }
            out.push(b'\n');
        }
        out
    }

    /// Appends the numbered start of row `index` (1-based).
    #[inline]
    pub fn head(self, out: &mut Vec<u8>, index: u64) {
        let mut b = itoa::Buffer::new();
        match self {
            ListFormat::Csv => out.extend_from_slice(b.format(index).as_bytes()),
            ListFormat::Json => {
                out.extend_from_slice(b"{\"solution\":");
                out.extend_from_slice(b.format(index).as_bytes());
            }
            ListFormat::Board => {
                if index > 1 {
                    out.push(b'\n');
                }
                out.extend_from_slice(b"Solution ");
                out.extend_from_slice(b.format(index).as_bytes());
                out.push(b':');
            }
        }
    }

    /// Appends the rest of the row of the layout `q` (after [`ListFormat::head`]), newline
    /// included. Files are below 64.
    #[inline]
    pub fn tail(self, out: &mut Vec<u8>, q: &[u8], class_size: Option<u8>) {
        let n = q.len();
        match self {
            ListFormat::Csv => {
                // One copy per row from a stack buffer: 3 bytes per number, 1 newline.
                let mut buf = [0u8; 3 * (LIST_MAX_N + 2) + 1];
                let (nb, nl) = CSV_SMALL[n % 100];
                buf[..3].copy_from_slice(&nb);
                let mut i = nl;
                for &c in q {
                    let (bytes, len) = CSV_SMALL[usize::from(c) % 100];
                    buf[i..i + 3].copy_from_slice(&bytes);
                    i += len;
                }
                if let Some(s) = class_size {
                    let (bytes, len) = CSV_SMALL[usize::from(s) % 100];
                    buf[i..i + 3].copy_from_slice(&bytes);
                    i += len;
                }
                buf[i] = b'\n';
                out.extend_from_slice(&buf[..=i]);
            }
            ListFormat::Json => {
                out.extend_from_slice(b",\"n\":");
                push_small(out, n as u8);
                for (r, &c) in q.iter().enumerate() {
                    out.extend_from_slice(b",\"q");
                    push_small(out, r as u8);
                    out.extend_from_slice(b"\":");
                    push_small(out, c);
                }
                if let Some(s) = class_size {
                    out.extend_from_slice(b",\"class_size\":");
                    push_small(out, s);
                }
                out.extend_from_slice(b"}\n");
            }
            ListFormat::Board => {
                for &c in q {
                    out.push(b' ');
                    push_small(out, c);
                }
                if let Some(s) = class_size {
                    out.extend_from_slice(b" (class of ");
                    push_small(out, s);
                    out.push(b')');
                }
                out.push(b'\n');
                for &c in q {
                    for f in 0..n {
                        if f > 0 {
                            out.push(b' ');
                        }
                        out.push(if f == usize::from(c) { b'X' } else { b'.' });
                    }
                    out.push(b'\n');
                }
            }
        }
    }

    /// One whole row (head and tail).
    pub fn row(self, out: &mut Vec<u8>, index: u64, q: &[u8], class_size: Option<u8>) {
        self.head(out, index);
        self.tail(out, q, class_size);
    }
}

impl ListFormat {
    /// The encoder of a `queens list` format, `None` for the formats it has none of (SVG, and
    /// record formats, which take `ListRecord`s through a [`super::export::Writer`]).
    pub fn of(format: Format) -> Option<ListFormat> {
        match format {
            Format::Board => Some(ListFormat::Board),
            Format::Csv => Some(ListFormat::Csv),
            Format::Json => Some(ListFormat::Json),
            Format::Text | Format::Svg => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Text views

/// The text of `queens heatmap`: a line with the total, then the n×n table of counts, rank 0
/// first, right-aligned in columns as wide as the largest count.
pub fn write_heatmap_text<W: Write>(
    out: &mut W,
    n: usize,
    counts: &[u128],
    total: u128,
    unique: bool,
) -> std::io::Result<()> {
    let what = if unique {
        "fundamental solutions (representatives)"
    } else {
        "solutions"
    };
    writeln!(
        out,
        "{n}-queens: {total} {what}; solutions with a queen on each square, rank 0 first:"
    )?;
    let mut buf = itoa::Buffer::new();
    let width = counts
        .iter()
        .map(|&c| buf.format(c).len())
        .max()
        .unwrap_or(1);
    let mut line = String::new();
    for rank in counts.chunks(n.max(1)) {
        line.clear();
        for (f, &c) in rank.iter().enumerate() {
            if f > 0 {
                line.push(' ');
            }
            let s = buf.format(c);
            line.extend(std::iter::repeat_n(' ', width - s.len()));
            line.push_str(s);
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// The text of a `solve` solution, as DLX1 prints one: its number (`N:`, or `N: cost C` when
/// optimising), then its options, one a line, each indented by one space.
pub fn write_solution_text<W: Write>(out: &mut W, s: &SolutionRecord) -> io::Result<()> {
    match s.cost {
        Some(c) => writeln!(out, "{}: cost {c}", s.solution)?,
        None => writeln!(out, "{}:", s.solution)?,
    }
    for o in s.options {
        writeln!(out, " {o}")?;
    }
    Ok(())
}

/// A layout as n lines of `X` (queen) and `.` separated by spaces, rank 0 first.
pub fn write_board_text<W: Write>(out: &mut W, n: usize, queens: &[u32]) -> io::Result<()> {
    for &c in queens {
        let row: Vec<&str> = (0..n as u32)
            .map(|j| if j == c { "X" } else { "." })
            .collect();
        writeln!(out, "{}", row.join(" "))?;
    }
    Ok(())
}

/// A count in the text format, the one rule of every command that counts (`solve --count`,
/// `queens count`): a count that ran to the end is its bare number; a count cut short (an
/// interrupt, a time, node or solution limit) is never a bare number but its record as
/// `key=value` words with its `status` (`record` writes them), so that a script reading the
/// number (`n=$(xcover ...)`) cannot take a lower bound for the count.
pub fn write_count_text<W: Write>(
    out: &mut W,
    count: u128,
    status: Status,
    record: impl FnOnce(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    if status == Status::Complete {
        writeln!(out, "{count}")
    } else {
        record(out)
    }
}

/// The text of a `solve --count` record (when the count is cut short): `key=value` words.
pub fn write_solve_count_text<W: Write>(out: &mut W, r: &CountRecord) -> io::Result<()> {
    writeln!(out, "solutions={} status={}", r.solutions, r.status.name())
}

/// The text of a `queens count` record (when the count is cut short): `key=value` words.
pub fn write_queens_count_text<W: Write>(out: &mut W, r: &QueensCountRecord) -> io::Result<()> {
    writeln!(
        out,
        "n={} solutions={} unique={} status={} engine={} symmetry={} nodes={} seconds={:.3}",
        r.n,
        r.solutions,
        r.unique.map_or_else(String::new, |u| u.to_string()),
        r.status.name(),
        r.engine,
        r.symmetry,
        r.nodes,
        r.seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::export::Writer;
    use crate::records::rows::LayoutFields;

    /// The fast `queens list` rows are the records the seam writes from [`ListRecord`].
    #[test]
    fn list_rows_are_the_records_of_the_writers() {
        for unique in [false, true] {
            let layouts: Vec<(Vec<u8>, Option<u8>)> = vec![
                (vec![1, 3, 0, 2], unique.then_some(2)),
                (vec![2, 0, 3, 1], unique.then_some(8)),
                (
                    vec![10, 31, 9, 0, 5, 7, 11, 12, 13, 14, 15],
                    unique.then_some(1),
                ),
            ];
            for (format, fast) in [
                (Format::Csv, ListFormat::Csv),
                (Format::Json, ListFormat::Json),
            ] {
                for (q, class_size) in &layouts {
                    let n = q.len();
                    let r = ListRecord {
                        solution: 12345,
                        layout: LayoutFields { n, queens: Some(q) },
                        class_size: *class_size,
                    };
                    let mut want = Vec::new();
                    let mut w = Writer::new(format, &mut want, false).unwrap();
                    w.record(&r).unwrap();
                    w.end().unwrap();
                    let mut got = fast.header(n, unique);
                    fast.row(&mut got, 12345, q, *class_size);
                    assert_eq!(
                        String::from_utf8(got).unwrap(),
                        String::from_utf8(want).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn notice_wording() {
        use crate::records::{Status, partial_notice};
        assert_eq!(
            partial_notice(Status::Time, 52).unwrap(),
            "stopped by the time limit after 52 solutions (partial count)"
        );
        assert_eq!(partial_notice(Status::Complete, 52), None);
    }

    #[test]
    fn solution_text_is_dlx1s() {
        let options = ["a b".to_string(), "c".to_string()];
        let mut s = SolutionRecord {
            solution: 3,
            cost: None,
            options: &options,
            lines: &[2, 5],
        };
        let mut out = Vec::new();
        write_solution_text(&mut out, &s).unwrap();
        s.cost = Some(-4);
        write_solution_text(&mut out, &s).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3:\n a b\n c\n3: cost -4\n a b\n c\n"
        );
    }
}
