//! The codecs of the shard records ([`crate::records::ShardRecord`]): written as `key=value`
//! text lines, CSV or JSON Lines, and read back from any of the three, line by line.

use std::io::{self, BufRead, Write};

use super::export::{self, Format};
use super::input::{InputError, LineReader};
use crate::records::{Kind, Located, ShardRecord, Source, Status};

/// The longest line a record file may have (bytes, newline excluded).
pub const MAX_LINE: usize = 64 * 1024;

/// Writes records in `format`: text as one `key=value` line each, CSV (the header first) and
/// JSON Lines through [`export::Writer`]. Boards and SVG are no format of records.
pub fn write_records<'a>(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = &'a ShardRecord>,
    format: Format,
) -> io::Result<()> {
    let mut w = match export::Writer::new(format, out, false) {
        Ok(w) => w,
        Err(out) if format == Format::Text => {
            for r in records {
                writeln!(out, "{}", r.text_line())?;
            }
            return Ok(());
        }
        Err(_) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "shard records are written as text or a record format, not {}",
                    format.name()
                ),
            ));
        }
    };
    for r in records {
        w.record(r)?;
    }
    w.end()
}

/// Writes the total of merged records (`xcover merge`): text as the command that made the
/// shards prints its result — a count (the classes with `--unique`), an optimum's value (its
/// status without one), a `queens max` line (`max_line`) — else the total's record.
pub fn write_total(out: &mut dyn Write, t: &ShardRecord, format: Format) -> io::Result<()> {
    match format {
        Format::Text => {
            if t.kind == Kind::QueensMax {
                writeln!(out, "{}", max_line(t))
            } else if t.kind.optimizes() {
                match t.value {
                    Some(v) => writeln!(out, "{v}"),
                    None => writeln!(out, "{}", t.status.name()),
                }
            } else {
                writeln!(out, "{}", t.unique.unwrap_or(t.solutions))
            }
        }
        f => write_records(out, [t], f),
    }
}

/// The text line of a merged `queens-max` total, as `queens max` prints a board: the maximum
/// when optimal, `V feasible bound=B` or `unknown bound=B` when a shard was cut short, `none
/// below-floor bound=B` when no layout reaches the floor, `none` when there is no layout.
fn max_line(t: &ShardRecord) -> String {
    let opt = |v: Option<i128>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
    match (t.status, t.value) {
        (Status::Optimal, Some(v)) => v.to_string(),
        (Status::BelowFloor, _) => format!("none below-floor bound={}", opt(t.bound)),
        (Status::Infeasible, _) => "none".into(),
        (_, Some(v)) => format!("{v} feasible bound={}", opt(t.bound)),
        (_, None) => format!("unknown bound={}", opt(t.bound)),
    }
}

/// Why a record file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The stream itself: unreadable, a line over [`MAX_LINE`] bytes, NUL, not UTF-8.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A line that is not a record in any of the three formats.
    #[error("{at}: not a shard record: {reason}")]
    Parse {
        /// The line.
        at: Source,
        /// What is wrong with it.
        reason: String,
    },
    /// A file without records, named at its last line.
    #[error("{file}:{line}: no shard record in the file")]
    Empty {
        /// The file's name.
        file: String,
        /// The file's last line (1 for an empty file).
        line: usize,
    },
}

/// Reads every record of one input, line by line: JSON Lines (a line starting with `{`), CSV
/// (a header line starting with `record,`, then rows) or `key=value` text lines, detected at the
/// first non-blank line. Blank lines are skipped. `file` names the input in errors.
pub fn read_records(input: &mut dyn BufRead, file: &str) -> Result<Vec<Located>, ReadError> {
    enum Mode {
        Unknown,
        Json,
        Csv(csv::StringRecord),
        Text,
    }
    let mut mode = Mode::Unknown;
    let mut out = Vec::new();
    let mut lines = LineReader::new(input, file);
    lines.set_max_line_bytes(MAX_LINE);
    while let Some((line_no, line)) = lines.next_line()? {
        let line_no = line_no as u64;
        let at = || Source {
            file: file.to_string(),
            line: line_no,
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        // serde's and csv's messages quote the input as it is: escaped here, once for all
        // three formats, so that no control byte of a record file reaches the terminal.
        let parse = |reason: String| ReadError::Parse {
            at: at(),
            reason: crate::quote::escape(&reason),
        };
        if let Mode::Unknown = mode {
            if line.starts_with('{') {
                mode = Mode::Json;
            } else if line.starts_with("record,") {
                let header = csv_row(line).map_err(parse)?;
                mode = Mode::Csv(header);
                continue;
            } else {
                mode = Mode::Text;
            }
        }
        let record = match &mode {
            Mode::Json => serde_json::from_str::<ShardRecord>(line).map_err(|e| {
                parse(if e.to_string().contains("unknown field `residue`") {
                    "a record of an older xcover (it has no check); count that shard again".into()
                } else {
                    e.to_string()
                })
            })?,
            Mode::Csv(header) => {
                let row = csv_row(line).map_err(parse)?;
                row.deserialize::<ShardRecord>(Some(header))
                    .map_err(|e| parse(e.to_string()))?
            }
            Mode::Text => ShardRecord::parse_text_line(line).map_err(parse)?,
            Mode::Unknown => unreachable!("mode set above"),
        };
        out.push(Located {
            source: at(),
            record,
        });
    }
    if out.is_empty() {
        return Err(ReadError::Empty {
            file: file.to_string(),
            line: lines.lines_read().max(1),
        });
    }
    Ok(out)
}

/// One CSV line as a row.
fn csv_row(line: &str) -> Result<csv::StringRecord, String> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    match rdr.records().next() {
        Some(Ok(r)) => Ok(r),
        Some(Err(e)) => Err(e.to_string()),
        None => Err("empty CSV row".into()),
    }
}
