//! The exporter seam: the one [`Format`] of every command's `--format`, and the writers of
//! record streams, one per record format, chosen once.
//!
//! A command builds its records (`crate::records::rows`, the shard records) and hands them to
//! a [`Writer`]: [`Writer::begin`] (the CSV header of a stream that may have no record),
//! [`Writer::record`] for each record, [`Writer::trailer`] for a closing record of another
//! kind, [`Writer::end`]. A record is one serde-derived struct ([`Record`]); CSV and JSON
//! Lines both take their fields from it, so a field has one name and one place in both.
//!
//! Text, boards and SVG are each command's own view, for people (docs/formats.md); the
//! record formats are [`Format::RECORDS`], and every command that writes records takes them
//! all.
//!
//! A new record format is a variant of [`Format`], listed in [`Format::RECORDS`], and a
//! variant of [`Writer`] with its arms in [`Writer`]'s methods: this file only.

use std::io::{self, Write};

use serde::Serialize;

use super::cells;

/// An output format. Each command takes the ones it has (its `--format` lists them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The command's text for people.
    Text,
    /// Boards of `X` (queen) and `.` (empty).
    Board,
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one flat object a line.
    Json,
    /// One SVG picture.
    Svg,
}

impl Format {
    /// The formats of records, which every command writing records takes.
    pub const RECORDS: [Format; 2] = [Format::Csv, Format::Json];

    /// The format's name in `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Board => "board",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Svg => "svg",
        }
    }

    /// Whether the format writes records (through a [`Writer`]).
    pub fn is_records(self) -> bool {
        Format::RECORDS.contains(&self)
    }
}

#[cfg(feature = "cli")]
impl Format {
    /// The parser of a command's `--format`: the command's own formats, each with its help
    /// (`""` for none), then the record formats it did not name. Any other value is refused
    /// by clap with the list of these.
    pub fn parser(
        own: &[(Format, &'static str)],
    ) -> impl clap::builder::TypedValueParser<Value = Format> {
        use clap::ValueEnum;
        use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
        let mut values: Vec<PossibleValue> = own
            .iter()
            .map(|&(f, help)| {
                let v = PossibleValue::new(f.name());
                if help.is_empty() { v } else { v.help(help) }
            })
            .collect();
        for f in Format::RECORDS {
            if !own.iter().any(|&(g, _)| g == f) {
                values.extend(f.to_possible_value());
            }
        }
        PossibleValuesParser::new(values).map(|s| {
            Format::value_variants()
                .iter()
                .copied()
                .find(|f| f.name() == s)
                .expect("a possible value is a format")
        })
    }
}

/// A record the writers take: a serde-derived struct of scalar fields (a flattened map, such
/// as a layout's `n, q0, ...`, counts as its fields).
pub trait Record: Serialize {
    /// The kind of record, named by a `record` field in a stream of several kinds.
    const KIND: &'static str;

    /// Writes the record's CSV rows: the record itself, unless a field is a list (a `solve`
    /// solution is a row per option).
    fn csv_rows<W: Write>(&self, rows: &mut CsvRows<W>) -> io::Result<()> {
        rows.row(self)
    }
}

/// The CSV rows of a stream: the header (the first row's field names) before the first row.
pub struct CsvRows<W: Write> {
    w: csv::Writer<W>,
    /// The header is still to be written.
    header: bool,
    /// [`Writer::begin`]: only the header, from the first row.
    header_only: bool,
}

impl<W: Write> CsvRows<W> {
    /// Writes one row (after the header, the first time).
    pub fn row<R: Serialize + ?Sized>(&mut self, r: &R) -> io::Result<()> {
        if self.header {
            self.w
                .write_record(cells::names(r)?)
                .map_err(cells::into_io)?;
            self.header = false;
        }
        if self.header_only {
            return Ok(());
        }
        cells::write_row(&mut self.w, r)
    }
}

/// The buffer of the CSV writer (the output beneath is buffered too; this one saves calls).
const CSV_BUFFER: usize = 1 << 16;

/// A JSON Lines record of a stream of kinds: `record` first.
#[derive(Serialize)]
struct Tagged<'a, R: ?Sized> {
    record: &'static str,
    #[serde(flatten)]
    fields: &'a R,
}

/// The writer of a stream of records in one record format.
pub enum Writer<W: Write> {
    /// CSV: a header row, then a row a record.
    Csv(Box<CsvRows<W>>),
    /// JSON Lines: one flat object a line; in a stream of kinds, `record` names the kind.
    Json {
        /// The output.
        out: W,
        /// The stream mixes kinds of record.
        kinds: bool,
    },
}

impl<W: Write> Writer<W> {
    /// The writer of `format`'s records into `out`; `kinds`: the stream mixes kinds of record
    /// (`solve`'s solutions, then a summary). `Err(out)` for a format that is a command's own
    /// view (text, boards, SVG).
    pub fn new(format: Format, out: W, kinds: bool) -> Result<Writer<W>, W> {
        match format {
            Format::Csv => Ok(Writer::Csv(Box::new(CsvRows {
                w: csv::WriterBuilder::new()
                    .buffer_capacity(CSV_BUFFER)
                    .from_writer(out),
                header: true,
                header_only: false,
            }))),
            Format::Json => Ok(Writer::Json { out, kinds }),
            Format::Text | Format::Board | Format::Svg => Err(out),
        }
    }

    /// What comes before the records, from a record like them (in CSV the header, so that a
    /// stream without records still has it).
    pub fn begin<R: Record>(&mut self, like: &R) -> io::Result<()> {
        match self {
            Writer::Csv(rows) => {
                rows.header_only = true;
                let r = like.csv_rows(rows);
                rows.header_only = false;
                r
            }
            Writer::Json { .. } => Ok(()),
        }
    }

    /// Writes one record.
    pub fn record<R: Record>(&mut self, r: &R) -> io::Result<()> {
        match self {
            Writer::Csv(rows) => r.csv_rows(rows),
            Writer::Json { out, kinds } => {
                // As an io::Error, so that a closed pipe is recognised as one (exit 0).
                if *kinds {
                    let tagged = Tagged {
                        record: R::KIND,
                        fields: r,
                    };
                    serde_json::to_writer(&mut *out, &tagged).map_err(io::Error::from)?;
                } else {
                    serde_json::to_writer(&mut *out, r).map_err(io::Error::from)?;
                }
                out.write_all(b"\n")
            }
        }
    }

    /// Writes a record of another kind that closes the stream (`solve`'s summary), where the
    /// format mixes kinds (JSON Lines); CSV, one table, leaves it out.
    pub fn trailer<R: Record>(&mut self, r: &R) -> io::Result<()> {
        match self {
            Writer::Csv(_) => Ok(()),
            Writer::Json { .. } => self.record(r),
        }
    }

    /// Writes out what is buffered (after each board of `queens max`, say).
    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            Writer::Csv(rows) => rows.w.flush(),
            Writer::Json { out, .. } => out.flush(),
        }
    }

    /// Ends the stream.
    pub fn end(mut self) -> io::Result<()> {
        self.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::rows::{Decimal, HeatmapRecord, LayoutFields, MaxRecord, SolutionRecord};
    use crate::records::{Hex64, Kind, Shard, ShardRecord, Status};

    fn written<R: Record>(format: Format, kinds: bool, records: &[R]) -> String {
        let mut out = Vec::new();
        let mut w = Writer::new(format, &mut out, kinds).ok().unwrap();
        for r in records {
            w.record(r).unwrap();
        }
        w.end().unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The CSV of a record with plain fields is the `csv` crate's (header and values).
    #[test]
    fn csv_is_the_csv_crates_for_plain_records() {
        let mut r = ShardRecord::new(Kind::QueensMax, Hex64(0xfeed), Shard::WHOLE);
        r.n = Some(8);
        r.value = Some(-3);
        r.layout = Some("0,4,7".into());
        r.seconds = 1e-7;
        let r = r.seal();
        let mut want = csv::Writer::from_writer(Vec::new());
        want.serialize(&r).unwrap();
        let want = String::from_utf8(want.into_inner().unwrap()).unwrap();
        assert_eq!(written(Format::Csv, false, &[r]), want);
    }

    /// CSV and JSON Lines have the same fields in the same order, a flattened layout's too;
    /// no value is an empty cell and `null`.
    #[test]
    fn csv_and_json_have_the_same_fields() {
        let q = [1u32, 3, 0, 2];
        let records = [
            MaxRecord {
                board: 1,
                board_status: Status::BelowFloor,
                score: Some(-5),
                place: Some(1),
                board_bound: Some(i128::from(i64::MAX)),
                optimal_count: None,
                nodes: 7,
                layout: LayoutFields {
                    n: 4,
                    queens: Some(&q),
                },
            },
            MaxRecord {
                board: 2,
                board_status: Status::Infeasible,
                score: None,
                place: None,
                board_bound: None,
                optimal_count: Some(0),
                nodes: 0,
                layout: LayoutFields { n: 4, queens: None },
            },
        ];
        let csv = written(Format::Csv, false, &records);
        assert_eq!(
            csv,
            "board,board_status,score,place,board_bound,optimal_count,nodes,n,q0,q1,q2,q3\n\
             1,below-floor,-5,1,9223372036854775807,,7,4,1,3,0,2\n\
             2,infeasible,,,,0,0,4,,,,\n"
        );
        let json = written(Format::Json, false, &records);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        for (line, row) in json.lines().zip(csv.lines().skip(1)) {
            let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).unwrap();
            let keys: Vec<&str> = v.keys().map(String::as_str).collect();
            let mut sorted = header.clone();
            sorted.sort_unstable();
            assert_eq!(keys, sorted, "{line}");
            for (k, cell) in header.iter().zip(row.split(',')) {
                let want = match &v[*k] {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                assert_eq!(cell, want, "{k} in {line}");
            }
        }
    }

    /// A share is plain decimal in CSV (`0`, `1`), a number in JSON.
    #[test]
    fn decimals_are_plain_in_csv() {
        let r = |s: f64| HeatmapRecord {
            rank: 0,
            file: 1,
            solutions: 2,
            share: Some(Decimal(s)),
        };
        let records = [r(0.0), r(1.0), r(0.25), r(1e-7)];
        assert_eq!(
            written(Format::Csv, false, &records),
            "rank,file,solutions,share\n0,1,2,0\n0,1,2,1\n0,1,2,0.25\n0,1,2,0.0000001\n"
        );
        assert!(written(Format::Json, false, &records[..2]).ends_with("\"share\":1.0}\n"));
    }

    /// A stream of kinds names each record's kind first in JSON; CSV writes a solution a row
    /// per option, leaves out the trailer, and `begin` writes the header alone.
    #[test]
    fn solve_streams() {
        let options = ["a b".to_string(), "c \"x\"".to_string()];
        let s = SolutionRecord {
            solution: 1,
            cost: None,
            options: &options,
            lines: &[3, 5],
        };
        let summary = crate::records::rows::CountRecord {
            solutions: 1,
            status: Status::Complete,
        };
        let mut csv = Vec::new();
        let mut w = Writer::new(Format::Csv, &mut csv, true).ok().unwrap();
        w.begin(&s).unwrap();
        w.record(&s).unwrap();
        w.trailer(&summary).unwrap();
        w.end().unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "solution,position,line,option\n1,1,3,a b\n1,2,5,\"c \"\"x\"\"\"\n"
        );
        let mut json = Vec::new();
        let mut w = Writer::new(Format::Json, &mut json, true).ok().unwrap();
        w.begin(&s).unwrap();
        w.record(&s).unwrap();
        w.trailer(&summary).unwrap();
        w.end().unwrap();
        assert_eq!(
            String::from_utf8(json).unwrap(),
            "{\"record\":\"solution\",\"solution\":1,\"cost\":null,\"options\":[\"a b\",\"c \\\"x\\\"\"],\"lines\":[3,5]}\n\
             {\"record\":\"count\",\"solutions\":1,\"status\":\"complete\"}\n"
        );
        let mut empty = Vec::new();
        let mut w = Writer::new(Format::Csv, &mut empty, true).ok().unwrap();
        w.begin(&s).unwrap();
        w.end().unwrap();
        assert_eq!(empty, b"solution,position,line,option\n");
    }

    /// A list has no CSV cell: an error, not a panic.
    #[test]
    fn a_list_is_no_csv_cell() {
        #[derive(Serialize)]
        struct Bad {
            xs: Vec<u8>,
        }
        impl Record for Bad {
            const KIND: &'static str = "bad";
        }
        let mut out = Vec::new();
        let mut w = Writer::new(Format::Csv, &mut out, false).ok().unwrap();
        let e = w.record(&Bad { xs: vec![1] }).unwrap_err();
        assert!(e.to_string().contains("does not fit"), "{e}");
    }

    #[test]
    fn views_have_no_writer() {
        for f in [Format::Text, Format::Board, Format::Svg] {
            assert!(!f.is_records());
            assert!(Writer::new(f, Vec::new(), false).is_err());
        }
        for f in Format::RECORDS {
            assert!(Writer::new(f, Vec::new(), false).is_ok());
        }
    }
}
