//! The records the commands print, and the CSV and JSON Lines writers for them: one shape per
//! kind of record, the same in every command and in both formats (docs/formats.md is the
//! table of them).
//!
//! - A *layout* (queens on a board) is always the columns `n, q0, ..., q{n-1}`: the board size,
//!   then the file (0-based) of the queen on each rank.
//! - CSV goes through the `csv` crate with a header row; JSON Lines through serde-derived
//!   structs, one flat object a line (pandas `read_json(lines=True)` reads it as is), fields in
//!   the order of the CSV columns. Where a stream mixes kinds of record, a `record` field names
//!   the kind.
//! - No value is an empty CSV field and `null` in JSON; a numeric column never holds a word.
//! - A result that may be partial carries a `status` ([`crate::records::Status`]).

// Without the `cli` feature only the layout rows (`ListFormat`, for the bits lister) are used;
// the other writers serve the binary.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

use std::io::Write;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::records::Status;

/// The buffer of every CSV writer (the output beneath is buffered too; this one saves calls).
const CSV_BUFFER: usize = 1 << 16;

/// A CSV writer with the crate's settings and a large buffer.
pub fn csv_writer<W: Write>(w: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .buffer_capacity(CSV_BUFFER)
        .from_writer(w)
}

/// Writes one JSON Lines record (a serde-derived struct) and its newline.
pub fn write_json_line<W: Write>(w: &mut W, record: &impl Serialize) -> std::io::Result<()> {
    // As an io::Error, so that a closed pipe is recognised as one (exit 0).
    serde_json::to_writer(&mut *w, record).map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

// ---------------------------------------------------------------------------------------------
// Layouts

/// A layout's fields for JSON: `"n": n, "q0": f0, ...` (flattened into the record).
pub struct LayoutFields<'a, T> {
    pub n: usize,
    /// The files of the queens, rank 0 first; `None` when there is no layout (the `q` fields
    /// are then `null`).
    pub queens: Option<&'a [T]>,
}

/// The names of the first layout columns, so that JSON records need not format them.
const Q_KEYS: [&str; 64] = [
    "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
    "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23", "q24", "q25", "q26", "q27",
    "q28", "q29", "q30", "q31", "q32", "q33", "q34", "q35", "q36", "q37", "q38", "q39", "q40",
    "q41", "q42", "q43", "q44", "q45", "q46", "q47", "q48", "q49", "q50", "q51", "q52", "q53",
    "q54", "q55", "q56", "q57", "q58", "q59", "q60", "q61", "q62", "q63",
];

impl<T: Copy + Into<u64>> Serialize for LayoutFields<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.n + 1))?;
        m.serialize_entry("n", &self.n)?;
        let mut key = String::new();
        let mut buf = itoa::Buffer::new();
        for r in 0..self.n {
            let v: Option<u64> = self.queens.map(|q| q[r].into());
            match Q_KEYS.get(r) {
                Some(k) => m.serialize_entry(k, &v)?,
                None => {
                    key.clear();
                    key.push('q');
                    key.push_str(buf.format(r));
                    m.serialize_entry(key.as_str(), &v)?;
                }
            }
        }
        m.end()
    }
}

/// The CSV header of a layout: `n,q0,...,q{n-1}`.
pub fn layout_header<W: Write>(w: &mut csv::Writer<W>, n: usize) -> csv::Result<()> {
    w.write_field("n")?;
    let mut key = String::new();
    let mut buf = itoa::Buffer::new();
    for r in 0..n {
        key.clear();
        key.push('q');
        key.push_str(buf.format(r));
        w.write_field(&key)?;
    }
    Ok(())
}

/// The CSV fields of a layout (empty `q` fields without one).
pub fn layout_fields<W: Write, T: Copy + Into<u64>>(
    w: &mut csv::Writer<W>,
    n: usize,
    queens: Option<&[T]>,
) -> csv::Result<()> {
    let mut buf = itoa::Buffer::new();
    w.write_field(buf.format(n))?;
    match queens {
        Some(q) => {
            for &c in q {
                w.write_field(buf.format(c.into()))?;
            }
        }
        None => {
            for _ in 0..n {
                w.write_field("")?;
            }
        }
    }
    Ok(())
}

/// Writes an optional number as a CSV field (empty for `None`).
fn opt_field<W: Write, V: itoa::Integer>(w: &mut csv::Writer<W>, v: Option<V>) -> csv::Result<()> {
    match v {
        Some(v) => w.write_field(itoa::Buffer::new().format(v)),
        None => w.write_field(""),
    }
}

// ---------------------------------------------------------------------------------------------
// `queens list`

/// The rows of `queens list`, the one definition of its record in every format: CSV
/// `solution,n,q0,...,q{n-1}` (plus `class_size` with `--unique`), the same fields as one flat
/// JSON object a line, or text boards. Both engines and every thread count write through it.
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

// ---------------------------------------------------------------------------------------------
// `queens heatmap`

/// One square of `queens heatmap`: the number of solutions (or representatives, with
/// `--unique`) with a queen on it, and its share of all of them (`None`, an empty field, when
/// there are none).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct HeatmapRecord {
    pub rank: usize,
    pub file: usize,
    pub solutions: u128,
    pub share: Option<f64>,
}

impl HeatmapRecord {
    /// The records of a table of `n * n` counts (rank-major) out of `total`, rank-major.
    pub fn of_table(n: usize, counts: &[u128], total: u128) -> impl Iterator<Item = Self> + '_ {
        (0..n * n).map(move |i| HeatmapRecord {
            rank: i / n,
            file: i % n,
            solutions: counts[i],
            share: (total != 0).then(|| counts[i] as f64 / total as f64),
        })
    }
}

/// The CSV writer of `queens heatmap`: the header at creation, then one row per square.
pub struct HeatmapCsv<W: Write> {
    w: csv::Writer<W>,
}

impl<W: Write> HeatmapCsv<W> {
    pub fn new(out: W) -> csv::Result<Self> {
        let mut w = csv_writer(out);
        w.write_record(["rank", "file", "solutions", "share"])?;
        Ok(HeatmapCsv { w })
    }

    pub fn write(&mut self, r: &HeatmapRecord) -> csv::Result<()> {
        let mut buf = itoa::Buffer::new();
        self.w.write_field(buf.format(r.rank))?;
        self.w.write_field(buf.format(r.file))?;
        self.w.write_field(buf.format(r.solutions))?;
        match r.share {
            Some(s) => self.w.write_field(s.to_string())?,
            None => self.w.write_field("")?,
        }
        self.w.write_record(None::<&[u8]>)
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

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

// ---------------------------------------------------------------------------------------------
// `queens max`

/// One `queens max` record: a board's result with one of its reported layouts (one record per
/// layout; a board without any layout has one record with empty score and layout).
///
/// `place` is the layout's place in the board's ranking, best 1; tied scores share a place
/// (1, 1, 3: standard competition ranking).
#[derive(Serialize)]
pub struct MaxRecord<'a> {
    pub board: usize,
    pub status: Status,
    pub score: Option<i128>,
    pub place: Option<usize>,
    /// Upper bound on the maximum (equal to it when optimal).
    pub bound: Option<i128>,
    /// The number of optimal layouts, when counted (`--all-optimal`, JSON).
    pub optimal_count: Option<u64>,
    pub nodes: u64,
    #[serde(flatten)]
    pub layout: LayoutFields<'a, u32>,
}

/// The CSV writer of `queens max`.
pub struct MaxCsv<W: Write> {
    w: csv::Writer<W>,
    n: usize,
}

impl<W: Write> MaxCsv<W> {
    /// A writer of rows of boards of side n, after the header row when `header`.
    pub fn new(out: W, n: usize, header: bool) -> csv::Result<Self> {
        let mut w = csv_writer(out);
        if !header {
            return Ok(MaxCsv { w, n });
        }
        for h in [
            "board",
            "status",
            "score",
            "place",
            "bound",
            "optimal_count",
            "nodes",
        ] {
            w.write_field(h)?;
        }
        layout_header(&mut w, n)?;
        w.write_record(None::<&[u8]>)?;
        Ok(MaxCsv { w, n })
    }

    pub fn write(&mut self, r: &MaxRecord) -> csv::Result<()> {
        let w = &mut self.w;
        let mut buf = itoa::Buffer::new();
        w.write_field(buf.format(r.board))?;
        w.write_field(r.status.name())?;
        opt_field(w, r.score)?;
        opt_field(w, r.place)?;
        opt_field(w, r.bound)?;
        opt_field(w, r.optimal_count)?;
        w.write_field(buf.format(r.nodes))?;
        layout_fields(w, self.n, r.layout.queens)?;
        w.write_record(None::<&[u8]>)
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Places in a ranking, best first: tied scores share a place (standard competition ranking:
/// 1, 1, 3).
pub fn places(scores: impl IntoIterator<Item = i128>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    let mut prev: Option<i128> = None;
    for (i, s) in scores.into_iter().enumerate() {
        let p = match prev {
            Some(p) if p == s => *out.last().expect("a previous place"),
            _ => i + 1,
        };
        out.push(p);
        prev = Some(s);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// `solve`

/// A solution of `solve`: its number, its total cost (`null` unless optimising), its options
/// as written and their lines in the input.
#[derive(Serialize)]
pub struct SolutionRecord<'a> {
    pub record: &'static str,
    pub solution: u64,
    pub cost: Option<i128>,
    pub options: &'a [String],
    pub lines: &'a [usize],
}

/// `queens count` without `--shard`: the count, plain, with the same fields in CSV and JSON
/// (`--shard` writes the sealed shard record that `merge` takes instead).
#[derive(Serialize)]
pub struct QueensCountRecord<'a> {
    pub n: u32,
    pub solutions: u128,
    /// Fundamental solutions, when counted (`--unique`); empty otherwise.
    pub unique: Option<u128>,
    /// `complete`, or `interrupted` (the counts are then lower bounds).
    pub status: Status,
    pub engine: &'a str,
    pub symmetry: &'a str,
    pub nodes: u64,
    pub seconds: f64,
}

impl QueensCountRecord<'_> {
    /// Writes the record: a header row and one row in CSV, a JSON line, or `key=value` words
    /// in text.
    pub fn write(
        &self,
        out: &mut dyn Write,
        format: crate::io::shard::Format,
    ) -> std::io::Result<()> {
        use crate::io::shard::Format;
        match format {
            Format::Csv => {
                let mut w = csv_writer(&mut *out);
                w.serialize(self).map_err(std::io::Error::other)?;
                w.flush()
            }
            Format::Json => write_json_line(&mut &mut *out, self),
            Format::Text => writeln!(
                out,
                "n={} solutions={} unique={} status={} engine={} symmetry={} nodes={} seconds={:.3}",
                self.n,
                self.solutions,
                self.unique.map_or_else(String::new, |u| u.to_string()),
                self.status.name(),
                self.engine,
                self.symmetry,
                self.nodes,
                self.seconds
            ),
        }
    }
}

/// `solve --count`: the number of solutions and whether that is all of them.
#[derive(Serialize)]
pub struct CountRecord {
    pub record: &'static str,
    pub solutions: u128,
    pub status: Status,
}

/// `solve --stats --format json`: the search's statistics at the end.
#[derive(Serialize)]
pub struct SummaryRecord {
    pub record: &'static str,
    pub status: Status,
    pub solutions: u128,
    pub nodes: u64,
    pub updates: u64,
    /// Knuth's `I` of `I+M mems` (0: input is not counted).
    pub input_mems: u64,
    pub mems: u64,
    /// Knuth's bytes of the data structure ([`crate::engine::structure_bytes`]).
    pub bytes: u64,
    pub cleansings: u64,
    pub max_level: u32,
}

impl SummaryRecord {
    /// The summary of a search whose data structure took `bytes`.
    pub fn new(status: Status, stats: &crate::engine::Stats, bytes: u64) -> SummaryRecord {
        SummaryRecord {
            record: "summary",
            status,
            solutions: stats.solutions().into(),
            nodes: stats.nodes(),
            updates: stats.updates(),
            input_mems: stats.input_mems(),
            mems: stats.mems(),
            bytes,
            cleansings: stats.cleansings(),
            max_level: stats.max_level(),
        }
    }
}

/// `solve --minimize/--maximize --format json`: how the optimisation ended.
#[derive(Serialize)]
pub struct OptimumRecord {
    pub record: &'static str,
    pub status: Status,
    pub cost: Option<i128>,
    pub bound: Option<i128>,
    pub solutions: usize,
    pub nodes: u64,
    pub updates: u64,
    pub mems: u64,
}

/// The CSV headers of `solve`.
pub const SOLVE_CSV_HEADER: [&str; 4] = ["solution", "position", "line", "option"];
pub const SOLVE_OPT_CSV_HEADER: [&str; 5] = ["solution", "cost", "position", "line", "option"];
pub const SOLVE_COUNT_CSV_HEADER: [&str; 2] = ["solutions", "status"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::partial_notice;

    #[test]
    fn places_share_ties() {
        assert_eq!(places([9, 9, 7, 5, 5, 5, 1]), vec![1, 1, 3, 4, 4, 4, 7]);
        assert_eq!(places(Vec::<i128>::new()), Vec::<usize>::new());
    }

    /// The `queens list` record as serde would write it: the fast rows must match.
    #[derive(Serialize)]
    struct ListRecord<'a> {
        solution: u64,
        #[serde(flatten)]
        layout: LayoutFields<'a, u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        class_size: Option<u8>,
    }

    #[test]
    fn list_rows_are_the_serde_and_csv_crate_records() {
        for (q, class_size) in [
            (vec![1u8, 3, 0, 2], None),
            (vec![0u8], Some(1)),
            (vec![10u8, 31, 9, 0, 5, 7, 11, 12, 13, 14, 15], Some(8)),
        ] {
            let n = q.len();
            let r = ListRecord {
                solution: 12345,
                layout: LayoutFields {
                    n,
                    queens: Some(&q),
                },
                class_size,
            };
            let mut got = Vec::new();
            ListFormat::Json.row(&mut got, 12345, &q, class_size);
            let mut want = serde_json::to_vec(&r).unwrap();
            want.push(b'\n');
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );

            let mut w = csv_writer(Vec::new());
            w.write_field("solution").unwrap();
            layout_header(&mut w, n).unwrap();
            if class_size.is_some() {
                w.write_field("class_size").unwrap();
            }
            w.write_record(None::<&[u8]>).unwrap();
            w.write_field("12345").unwrap();
            layout_fields(&mut w, n, Some(&q)).unwrap();
            if let Some(c) = class_size {
                w.write_field(c.to_string()).unwrap();
            }
            w.write_record(None::<&[u8]>).unwrap();
            let want = String::from_utf8(w.into_inner().unwrap()).unwrap();
            let mut got = ListFormat::Csv.header(n, class_size.is_some());
            ListFormat::Csv.row(&mut got, 12345, &q, class_size);
            assert_eq!(String::from_utf8(got).unwrap(), want);
        }
    }

    #[test]
    fn notice_wording() {
        assert_eq!(
            partial_notice(Status::Time, 52).unwrap(),
            "stopped by the time limit after 52 solutions (partial count)"
        );
        assert_eq!(partial_notice(Status::Complete, 52), None);
    }
}
