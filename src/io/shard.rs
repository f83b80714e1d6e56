//! Shard records and their merge: one record type for every command that can split its work
//! into `M` shards (`queens count --shard`, `solve --shard`, ...), written as JSON Lines, CSV
//! or a `key=value` text line, and one [`merge`] that checks the records cover the split
//! exactly once and adds them up.
//!
//! # The record
//!
//! One flat object (pandas `read_json(lines=True)` reads a file of them), fields in this order:
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `record` | `"shard"` | what the line is |
//! | `kind` | `queens-count`, `solve-count`, `solve-optimize`, `queens-max` | what was computed |
//! | `fingerprint` | 16 hex digits | the problem: records merge only with equal fingerprints |
//! | `n`, `engine`, `symmetry` | optional | the queens parameters (queens kinds only; for `queens-max` `engine` is the method, e.g. `lagrangian-15`) |
//! | `shard`, `shards` | integers | part `shard` of `shards` (1-based); `1/1` is the whole |
//! | `solutions` | u128 | solutions counted (found, for optimisation) |
//! | `unique` | optional u128 | fundamental solutions, when counted |
//! | `nodes` | u64 | search nodes |
//! | `updates` | optional u64 | list updates, when the engine counts them |
//! | `tasks` | u64 | sub-problems of the split counted in this shard |
//! | `status` | see [`Status`] | how the shard ended |
//! | `sense`, `value`, `bound` | optional | optimisation kinds: `max`/`min`, the best value found, a bound on the best value |
//! | `floor` | optional | `queens-max`: only values of at least this were looked for |
//! | `layout` | optional | optimisation kinds: the best solution (no whitespace) |
//! | `seconds` | decimal | wall time, to the millisecond |
//! | `check` | 16 hex digits | the checksum below |
//!
//! # The check
//!
//! `check` is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`, over bytes)
//! of the record's canonical text: the `key=value` text line ([`ShardRecord::text_line`])
//! without its ` check=...` suffix, as UTF-8. That line holds every other field, in the order
//! of the table, absent optional fields left out, separated by one space; numbers in decimal,
//! `seconds` with exactly three decimals, `fingerprint` as 16 lowercase hex digits. So every
//! format checks alike, and a record converted from one format to another keeps its check.
//! It catches accidents (an edited digit, a truncated line, a record of another run), not a
//! deliberate forger, who can recompute it.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, Write};

use super::input::{InputError, LineReader};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest line a record file may have (bytes, newline excluded).
pub const MAX_LINE: usize = 64 * 1024;

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A 64-bit value written as 16 lowercase hex digits (fingerprints and checks).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hex64(pub u64);

impl Hex64 {
    /// The FNV-1a 64 hash of `bytes`.
    pub fn of(bytes: &[u8]) -> Hex64 {
        Hex64(fnv1a64(bytes))
    }
}

impl fmt::Display for Hex64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl FromStr for Hex64 {
    type Err = String;
    fn from_str(s: &str) -> Result<Hex64, String> {
        if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("'{s}' is not 16 hex digits"));
        }
        u64::from_str_radix(s, 16)
            .map(Hex64)
            .map_err(|e| format!("'{s}': {e}"))
    }
}

impl Serialize for Hex64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex64, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Part `index` of `count` of a deterministic split (`1 <= index <= count`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// A shard that is not `I/M` with `1 <= I <= M`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not of the form `I/M`.
    #[error("'{0}' is not of the form I/M (e.g. 3/10)")]
    Form(String),
    /// `I` is 0 or greater than `M`.
    #[error("shard {0}/{1} is out of range (need 1 <= I <= M)")]
    Range(u64, u64),
}

impl Shard {
    /// The whole split: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count` (1-based), or [`ShardError::Range`] unless `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if index == 0 || index > count {
            return Err(ShardError::Range(index, count));
        }
        Ok(Shard { index, count })
    }

    /// 1-based.
    pub fn index(self) -> u64 {
        self.index
    }

    /// M, the number of shards of the split.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether task `k` (0-based) of the split belongs to this shard: tasks are dealt
    /// round-robin, task `k` to shard `k mod M + 1`.
    #[inline]
    pub fn owns(self, k: usize) -> bool {
        k as u64 % self.count == self.index - 1
    }

    /// `(I, M)` as `usize`s, for the engine's split.
    pub fn as_pair(self) -> (usize, usize) {
        (self.index as usize, self.count as usize)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(s.to_string());
        let (i, m) = s.split_once('/').ok_or_else(form)?;
        let i: u64 = i.trim().parse().map_err(|_| form())?;
        let m: u64 = m.trim().parse().map_err(|_| form())?;
        Shard::new(i, m)
    }
}

/// What a record counts or optimises.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `queens count`: n-queens solutions.
    QueensCount,
    /// `solve --count`: exact covers of a DLX problem.
    SolveCount,
    /// `solve --minimize`/`--maximize`: the best cost of a DLX problem.
    SolveOptimize,
    /// `queens max --shard`: the best layout of a weighted n-queens board.
    QueensMax,
}

impl Kind {
    /// The name in the records (`queens-count`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::QueensCount => "queens-count",
            Kind::SolveCount => "solve-count",
            Kind::SolveOptimize => "solve-optimize",
            Kind::QueensMax => "queens-max",
        }
    }

    /// Whether records of this kind carry a value to optimise.
    pub fn optimizes(self) -> bool {
        matches!(self, Kind::SolveOptimize | Kind::QueensMax)
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        [
            Kind::QueensCount,
            Kind::SolveCount,
            Kind::SolveOptimize,
            Kind::QueensMax,
        ]
        .into_iter()
        .find(|k| k.name() == s)
        .ok_or_else(|| format!("unknown kind '{s}'"))
    }
}

/// How a shard's search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A count that ran to the end.
    Complete,
    /// Stopped by the solution limit.
    Limit,
    /// Stopped by the time limit.
    Time,
    /// Stopped by the node budget.
    Nodes,
    /// Stopped by the mem budget.
    Mems,
    /// Optimisation: the best value is proved.
    Optimal,
    /// Optimisation: a value was found, not proved best (a budget ran out).
    Feasible,
    /// Optimisation: proved to have no solution.
    Infeasible,
    /// Optimisation from a floor (`queens max --floor F`): proved that no solution reaches
    /// the floor (the bound is `F − 1`).
    BelowFloor,
}

impl Status {
    /// Every status, in the order of the declaration.
    pub const ALL: [Status; 9] = [
        Status::Complete,
        Status::Limit,
        Status::Time,
        Status::Nodes,
        Status::Mems,
        Status::Optimal,
        Status::Feasible,
        Status::Infeasible,
        Status::BelowFloor,
    ];

    /// The word in the records (`complete`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Limit => "limit",
            Status::Time => "time",
            Status::Nodes => "nodes",
            Status::Mems => "mems",
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::BelowFloor => "below-floor",
        }
    }

    /// Whether the search of the shard finished (nothing left unexplored).
    pub fn finished(self) -> bool {
        matches!(
            self,
            Status::Complete | Status::Optimal | Status::Infeasible | Status::BelowFloor
        )
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Status, String> {
        Status::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown status '{s}'"))
    }
}

/// The direction of an optimisation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sense {
    /// Maximise.
    Max,
    /// Minimise.
    Min,
}

impl Sense {
    /// The word in the records: `max` or `min`.
    pub fn name(self) -> &'static str {
        match self {
            Sense::Max => "max",
            Sense::Min => "min",
        }
    }

    /// Whether `a` is better than `b`.
    pub fn better(self, a: i128, b: i128) -> bool {
        match self {
            Sense::Max => a > b,
            Sense::Min => a < b,
        }
    }
}

impl FromStr for Sense {
    type Err = String;
    fn from_str(s: &str) -> Result<Sense, String> {
        match s {
            "max" => Ok(Sense::Max),
            "min" => Ok(Sense::Min),
            _ => Err(format!("unknown sense '{s}'")),
        }
    }
}

/// One shard's result (see the module documentation for the fields and the check).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// Always `"shard"`.
    pub record: String,
    /// What was computed.
    pub kind: Kind,
    /// The problem's fingerprint: records merge only with equal fingerprints.
    pub fingerprint: Hex64,
    /// The board size (queens kinds only).
    pub n: Option<u32>,
    /// The counting engine, `dlx` or `bits` (queens kinds only).
    pub engine: Option<String>,
    /// The symmetry reduction, `full`, `mirror` or `none` (queens kinds only).
    pub symmetry: Option<String>,
    /// This part of the split, 1-based.
    pub shard: u64,
    /// M, the number of parts of the split.
    pub shards: u64,
    /// Solutions counted (found, for optimisation).
    pub solutions: u128,
    /// Fundamental solutions, when counted.
    pub unique: Option<u128>,
    /// Search nodes.
    pub nodes: u64,
    /// List updates, when the engine counts them.
    pub updates: Option<u64>,
    /// Sub-problems of the split counted in this shard.
    pub tasks: u64,
    /// How the shard's search ended.
    pub status: Status,
    /// The direction, for optimisation kinds.
    pub sense: Option<Sense>,
    /// The best value found (optimisation kinds).
    pub value: Option<i128>,
    /// A bound on the best value (optimisation kinds).
    pub bound: Option<i128>,
    /// Only values of at least this were looked for (`queens-max` with `--floor`).
    pub floor: Option<i128>,
    /// The best solution, without whitespace (optimisation kinds).
    pub layout: Option<String>,
    /// Wall time in seconds, to the millisecond.
    pub seconds: f64,
    /// The record's checksum (see the module documentation).
    pub check: Hex64,
}

impl ShardRecord {
    /// A record with the given identity and shard, zero counts, status complete; fill in the
    /// rest, then call [`ShardRecord::seal`].
    pub fn new(kind: Kind, fingerprint: Hex64, shard: Shard) -> ShardRecord {
        ShardRecord {
            record: "shard".into(),
            kind,
            fingerprint,
            n: None,
            engine: None,
            symmetry: None,
            shard: shard.index(),
            shards: shard.count(),
            solutions: 0,
            unique: None,
            nodes: 0,
            updates: None,
            tasks: 0,
            status: Status::Complete,
            sense: None,
            value: None,
            bound: None,
            floor: None,
            layout: None,
            seconds: 0.0,
            check: Hex64(0),
        }
    }

    /// Rounds `seconds` to the millisecond and sets `check`. Call after the last change.
    pub fn seal(mut self) -> ShardRecord {
        self.seconds = round_ms(self.seconds);
        self.check = self.expected_check();
        self
    }

    /// The check the record's fields call for.
    pub fn expected_check(&self) -> Hex64 {
        Hex64::of(self.canonical().as_bytes())
    }

    /// The canonical text the check is computed over: the text line without `check`.
    pub fn canonical(&self) -> String {
        let mut s = String::with_capacity(256);
        let mut put = |k: &str, v: &dyn fmt::Display| {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(k);
            s.push('=');
            s.push_str(&v.to_string());
        };
        put("record", &self.record);
        put("kind", &self.kind.name());
        put("fingerprint", &self.fingerprint);
        if let Some(v) = self.n {
            put("n", &v);
        }
        if let Some(v) = &self.engine {
            put("engine", v);
        }
        if let Some(v) = &self.symmetry {
            put("symmetry", v);
        }
        put("shard", &self.shard);
        put("shards", &self.shards);
        put("solutions", &self.solutions);
        if let Some(v) = self.unique {
            put("unique", &v);
        }
        put("nodes", &self.nodes);
        if let Some(v) = self.updates {
            put("updates", &v);
        }
        put("tasks", &self.tasks);
        put("status", &self.status.name());
        if let Some(v) = self.sense {
            put("sense", &v.name());
        }
        if let Some(v) = self.value {
            put("value", &v);
        }
        if let Some(v) = self.bound {
            put("bound", &v);
        }
        if let Some(v) = self.floor {
            put("floor", &v);
        }
        if let Some(v) = &self.layout {
            put("layout", v);
        }
        put("seconds", &format_args!("{:.3}", self.seconds));
        s
    }

    /// The `key=value` text line (absent optional fields left out), `check` last.
    pub fn text_line(&self) -> String {
        format!("{} check={}", self.canonical(), self.check)
    }

    /// Parses a text line written by [`ShardRecord::text_line`].
    pub fn parse_text_line(line: &str) -> Result<ShardRecord, String> {
        let mut map = BTreeMap::new();
        for tok in line.split_whitespace() {
            let (k, v) = tok
                .split_once('=')
                .ok_or_else(|| format!("'{tok}' is not key=value"))?;
            if !FIELDS.contains(&k) {
                return Err(format!("unknown field '{k}'"));
            }
            if map.insert(k, v).is_some() {
                return Err(format!("field '{k}' given twice"));
            }
        }
        fn get<T: FromStr>(m: &BTreeMap<&str, &str>, k: &str) -> Result<Option<T>, String> {
            match m.get(k) {
                None => Ok(None),
                Some(v) => v
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("'{k}={v}': bad value")),
            }
        }
        fn need<T: FromStr>(m: &BTreeMap<&str, &str>, k: &str) -> Result<T, String> {
            get(m, k)?.ok_or_else(|| format!("missing '{k}='"))
        }
        Ok(ShardRecord {
            record: need(&map, "record")?,
            kind: need(&map, "kind")?,
            fingerprint: need(&map, "fingerprint")?,
            n: get(&map, "n")?,
            engine: get(&map, "engine")?,
            symmetry: get(&map, "symmetry")?,
            shard: need(&map, "shard")?,
            shards: need(&map, "shards")?,
            solutions: need(&map, "solutions")?,
            unique: get(&map, "unique")?,
            nodes: need(&map, "nodes")?,
            updates: get(&map, "updates")?,
            tasks: need(&map, "tasks")?,
            status: need(&map, "status")?,
            sense: get(&map, "sense")?,
            value: get(&map, "value")?,
            bound: get(&map, "bound")?,
            floor: get(&map, "floor")?,
            layout: get(&map, "layout")?,
            seconds: need(&map, "seconds")?,
            check: need(&map, "check")?,
        })
    }
}

/// The fields in their order (the CSV header).
pub const FIELDS: [&str; 21] = [
    "record",
    "kind",
    "fingerprint",
    "n",
    "engine",
    "symmetry",
    "shard",
    "shards",
    "solutions",
    "unique",
    "nodes",
    "updates",
    "tasks",
    "status",
    "sense",
    "value",
    "bound",
    "floor",
    "layout",
    "seconds",
    "check",
];

fn round_ms(s: f64) -> f64 {
    if s.is_finite() && s >= 0.0 {
        (s * 1000.0).round() / 1000.0
    } else {
        0.0
    }
}

/// The formats a record is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// One `key=value` line per record.
    Text,
    /// CSV with a header line.
    Csv,
    /// JSON Lines: one object per line.
    Json,
}

/// Writes records in `format` (CSV: the header first).
pub fn write_records<'a>(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = &'a ShardRecord>,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Text => {
            for r in records {
                writeln!(out, "{}", r.text_line())?;
            }
        }
        Format::Json => {
            for r in records {
                serde_json::to_writer(&mut *out, r)?;
                writeln!(out)?;
            }
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(&mut *out);
            for r in records {
                w.serialize(r).map_err(io::Error::other)?;
            }
            w.flush()?;
        }
    }
    Ok(())
}

/// Where a record came from: file name and 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Source {
    /// The file's name as given.
    pub file: String,
    /// The 1-based line.
    pub line: u64,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A record with its source.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// Where the record was read.
    pub source: Source,
    /// The record.
    pub record: ShardRecord,
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
    /// A file without records.
    #[error("{file}: no shard record in the file")]
    Empty {
        /// The file's name.
        file: String,
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
        let parse = |reason: String| ReadError::Parse { at: at(), reason };
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

/// A rule of a record kind, checked at merge on each record and on the total: `Err(reason)`
/// rejects it. The kind's owner provides it ([`Kind::rule`]).
pub type RecordRule = fn(&ShardRecord) -> Result<(), String>;

impl Kind {
    /// The kind's own checks of a record (beyond the check sum and the common fields).
    pub fn rule(self) -> Option<RecordRule> {
        match self {
            Kind::QueensCount => Some(crate::queens::count::check_record),
            Kind::QueensMax => Some(crate::queens::weighted::check_record),
            Kind::SolveCount | Kind::SolveOptimize => None,
        }
    }
}

/// One thing wrong with a set of records.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// An empty set of records.
    #[error("no records to merge")]
    NoRecords,
    /// A record whose `check` does not match its fields.
    #[error(
        "{at}: check {found} does not match the record's fields (want {want}): the record was edited or corrupted"
    )]
    BadCheck {
        /// The record.
        at: Source,
        /// The check it carries.
        found: Hex64,
        /// The check of its fields.
        want: Hex64,
    },
    /// A record that breaks a rule of its own (a field out of range, the kind's rule).
    #[error("{at}: {reason}")]
    Invalid {
        /// The record.
        at: Source,
        /// The rule broken.
        reason: String,
    },
    /// A field that differs from the first record's: records of different runs.
    #[error("{at}: {field} is {found}, but {first} has {want}: records of different runs")]
    Mixed {
        /// The record.
        at: Source,
        /// The field's name.
        field: &'static str,
        /// Its value in this record.
        found: String,
        /// The first record.
        first: Source,
        /// Its value in the first record.
        want: String,
    },
    /// Shards of the split without a record.
    #[error("missing shards of {shards}: {}", list(.missing))]
    Missing {
        /// M, the number of shards of the split.
        shards: u64,
        /// The shards (1-based) without a record.
        missing: Vec<u64>,
    },
    /// A shard with more than one record.
    #[error("duplicate shard {shard}/{shards}: {} records, at {}", .at.len(), list(.at))]
    Duplicate {
        /// The shard (1-based).
        shard: u64,
        /// M, the number of shards of the split.
        shards: u64,
        /// Where its records are.
        at: Vec<Source>,
    },
    /// A total (named) that does not fit its type.
    #[error("the total of {0} overflows")]
    Overflow(&'static str),
    /// The totals break a rule of the kind.
    #[error("the total is inconsistent: {0}")]
    Total(String),
}

/// A layout (`queens-max`: files comma-separated) as numbers, for the tie-break: compared as
/// vectors, `9` before `10`.
fn layout_key(layout: Option<&str>) -> Vec<u64> {
    layout.map_or_else(Vec::new, |l| {
        l.split(',')
            .map(|x| x.parse().unwrap_or(u64::MAX))
            .collect()
    })
}

fn list<T: fmt::Display>(v: &[T]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Everything wrong with a set of records (at least one problem).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct MergeError {
    /// What is wrong, at least one problem.
    pub problems: Vec<Problem>,
}

/// The merged total of a complete set of shards.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The total as the record of the whole (shard 1/1), sealed.
    pub total: ShardRecord,
    /// The number of shards merged.
    pub shards: u64,
}

/// Checks that `records` are the shards `1..=M` of one run, each exactly once and intact, and
/// adds them up.
///
/// Checked: every record's `check`; `record` is `"shard"`; `1 <= shard <= shards`; `kind`,
/// `fingerprint`, `n`, `engine`, `symmetry`, `shards`, whether `unique` was counted, the
/// optimisation `sense` and the `floor` equal across records; the kind's own rule
/// ([`Kind::rule`], e.g. n in range, checked on each record and on the total);
/// every shard present once (each duplicate named by file and line). Totals: counts summed in
/// u128/u64 with overflow checked, `seconds` summed (CPU-ish time of the whole), status
/// `complete` only if every shard completed (else the first other status); for optimisation
/// kinds the best value (and its layout) wins — among equal values of `queens-max` the
/// smallest layout, compared as numbers —, the bound is the loosest shard bound, and the
/// status is `optimal` only if every shard was optimal, infeasible or below the floor, with
/// some value (`below-floor` when there is no value and some shard was below the floor).
pub fn merge(records: &[Located]) -> Result<Merged, MergeError> {
    let fail = |problems: Vec<Problem>| Err(MergeError { problems });
    let Some(first) = records.first() else {
        return fail(vec![Problem::NoRecords]);
    };
    let mut problems = Vec::new();
    let f = &first.record;
    let rule = f.kind.rule();
    for Located { source, record: r } in records {
        let invalid = |reason: String| Problem::Invalid {
            at: source.clone(),
            reason,
        };
        let want = r.expected_check();
        if r.check != want {
            problems.push(Problem::BadCheck {
                at: source.clone(),
                found: r.check,
                want,
            });
            continue;
        }
        if r.record != "shard" {
            problems.push(invalid(format!("record is '{}', not 'shard'", r.record)));
        }
        if r.shard == 0 || r.shard > r.shards {
            problems.push(invalid(format!(
                "shard {}/{} out of range (need 1 <= I <= M)",
                r.shard, r.shards
            )));
        }
        let mut mixed = |field: &'static str, found: String, want: String| {
            if found != want {
                problems.push(Problem::Mixed {
                    at: source.clone(),
                    field,
                    found,
                    first: first.source.clone(),
                    want,
                });
            }
        };
        let opt = |x: &Option<String>| x.clone().unwrap_or_else(|| "absent".into());
        let opt_n = |x: Option<u32>| x.map_or_else(|| "absent".into(), |v| v.to_string());
        mixed("kind", r.kind.name().into(), f.kind.name().into());
        mixed(
            "fingerprint",
            r.fingerprint.to_string(),
            f.fingerprint.to_string(),
        );
        mixed("n", opt_n(r.n), opt_n(f.n));
        mixed("engine", opt(&r.engine), opt(&f.engine));
        mixed("symmetry", opt(&r.symmetry), opt(&f.symmetry));
        mixed("shards", r.shards.to_string(), f.shards.to_string());
        let counted = |x: Option<u128>| if x.is_some() { "counted" } else { "absent" };
        mixed("unique", counted(r.unique).into(), counted(f.unique).into());
        let sense = |x: Option<Sense>| x.map_or("absent", Sense::name).to_string();
        mixed("sense", sense(r.sense), sense(f.sense));
        let floor = |x: Option<i128>| x.map_or_else(|| "absent".into(), |v| v.to_string());
        mixed("floor", floor(r.floor), floor(f.floor));
        if r.kind.optimizes() && r.sense.is_none() {
            problems.push(invalid("an optimisation record without a sense".into()));
        }
        if let Some(rule) = rule
            && let Err(reason) = rule(r)
        {
            problems.push(invalid(reason));
        }
    }
    if !problems.is_empty() {
        return fail(problems);
    }
    let m = f.shards;
    let mut seen: BTreeMap<u64, Vec<Source>> = BTreeMap::new();
    for l in records {
        seen.entry(l.record.shard)
            .or_default()
            .push(l.source.clone());
    }
    let missing: Vec<u64> = if seen.len() as u64 == m {
        Vec::new()
    } else {
        (1..=m).filter(|i| !seen.contains_key(i)).collect()
    };
    if !missing.is_empty() {
        problems.push(Problem::Missing { shards: m, missing });
    }
    for (&shard, at) in &seen {
        if at.len() > 1 {
            problems.push(Problem::Duplicate {
                shard,
                shards: m,
                at: at.clone(),
            });
        }
    }
    if !problems.is_empty() {
        return fail(problems);
    }

    let mut t = ShardRecord::new(f.kind, f.fingerprint, Shard::WHOLE);
    t.n = f.n;
    t.engine = f.engine.clone();
    t.symmetry = f.symmetry.clone();
    t.unique = f.unique.map(|_| 0);
    t.updates = f.updates.map(|_| 0);
    t.sense = f.sense;
    t.floor = f.floor;
    let mut status: Option<Status> = None;
    let mut all_proved = true;
    let mut below_floor = false;
    let mut bound_known = true;
    let mut overflow = None;
    let mut over = |field: &'static str| {
        overflow.get_or_insert(Problem::Overflow(field));
    };
    for Located { record: r, .. } in records {
        match t.solutions.checked_add(r.solutions) {
            Some(v) => t.solutions = v,
            None => over("solutions"),
        }
        if let Some(u) = t.unique.as_mut() {
            match u.checked_add(r.unique.unwrap_or(0)) {
                Some(v) => *u = v,
                None => over("unique"),
            }
        }
        match t.nodes.checked_add(r.nodes) {
            Some(v) => t.nodes = v,
            None => over("nodes"),
        }
        match (t.updates, r.updates) {
            (Some(a), Some(b)) => match a.checked_add(b) {
                Some(v) => t.updates = Some(v),
                None => over("updates"),
            },
            _ => t.updates = None,
        }
        match t.tasks.checked_add(r.tasks) {
            Some(v) => t.tasks = v,
            None => over("tasks"),
        }
        t.seconds += r.seconds;
        if r.kind.optimizes() {
            let sense = r.sense.unwrap_or(Sense::Max);
            // The best value; among equals (queens-max) the smallest layout, as one search
            // reports it.
            if let Some(v) = r.value
                && t.value.is_none_or(|best| {
                    sense.better(v, best)
                        || (v == best
                            && r.kind == Kind::QueensMax
                            && layout_key(r.layout.as_deref()) < layout_key(t.layout.as_deref()))
                })
            {
                t.value = Some(v);
                t.layout = r.layout.clone();
            }
            below_floor |= r.status == Status::BelowFloor;
            if !matches!(
                r.status,
                Status::Optimal | Status::Infeasible | Status::BelowFloor
            ) {
                all_proved = false;
            }
            // The bound of the whole: the loosest of the shards' bounds (a proved shard's
            // bound is its value, one below the floor's is the floor − 1; an infeasible one
            // bounds nothing).
            let b = match r.status {
                Status::Optimal => r.value.or(r.bound),
                Status::BelowFloor => r.bound,
                Status::Infeasible => None,
                _ => {
                    if r.bound.is_none() {
                        bound_known = false;
                    }
                    r.bound
                }
            };
            if let Some(b) = b
                && t.bound.is_none_or(|cur| sense.better(b, cur))
            {
                t.bound = Some(b);
            }
        } else if r.status != Status::Complete && status.is_none() {
            status = Some(r.status);
        }
    }
    if let Some(p) = overflow {
        return fail(vec![p]);
    }
    if f.kind.optimizes() {
        t.status = match (all_proved, t.value.is_some()) {
            (true, true) => Status::Optimal,
            (true, false) if below_floor => Status::BelowFloor,
            (true, false) => Status::Infeasible,
            (false, true) => Status::Feasible,
            (false, false) => records
                .iter()
                .map(|l| l.record.status)
                .find(|s| !s.finished())
                .unwrap_or(Status::Feasible),
        };
        if !bound_known && !all_proved {
            t.bound = None;
        }
        if t.status == Status::Optimal {
            t.bound = t.value;
        }
    } else {
        t.status = status.unwrap_or(Status::Complete);
    }
    let total = t.seal();
    if let Some(rule) = rule
        && let Err(reason) = rule(&total)
    {
        return fail(vec![Problem::Total(reason)]);
    }
    Ok(Merged { total, shards: m })
}
