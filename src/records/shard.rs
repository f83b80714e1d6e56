//! The shard record: one record type for every command that can split its work into `M`
//! shards (`queens count --shard`, `solve --shard`, ...), written as JSON Lines, CSV or a
//! `key=value` text line (the codecs are in `io::shard`), and merged by `records::merge`
//! (which builds on this file, never the reverse).
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
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Status;
use crate::engine::fnv1a64;
use crate::engine::optimize::Sense;
use crate::quote::quote;

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

/// The words of [`Sense`] in the records: `max` and `min`.
pub fn sense_name(sense: Sense) -> &'static str {
    match sense {
        Sense::Maximize => "max",
        Sense::Minimize => "min",
    }
}

/// [`Sense`] from its word in the records.
pub fn parse_sense(s: &str) -> Result<Sense, String> {
    match s {
        "max" => Ok(Sense::Maximize),
        "min" => Ok(Sense::Minimize),
        _ => Err(format!("unknown sense '{s}'")),
    }
}

/// `sense` as `max`/`min` (an optional field: `null` or empty when absent).
mod sense_word {
    use super::{Deserialize, Deserializer, Sense, Serializer, parse_sense, sense_name};

    pub fn serialize<S: Serializer>(v: &Option<Sense>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_some(sense_name(*v)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Sense>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(w) => parse_sense(&w).map(Some).map_err(serde::de::Error::custom),
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
    #[serde(with = "sense_word", default)]
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
            put("sense", &sense_name(v));
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
                .ok_or_else(|| format!("'{}' is not key=value", quote(tok)))?;
            if !FIELDS.contains(&k) {
                return Err(format!("unknown field '{}'", quote(k)));
            }
            if map.insert(k, v).is_some() {
                return Err(format!("field '{}' given twice", quote(k)));
            }
        }
        fn get<T: FromStr>(m: &BTreeMap<&str, &str>, k: &str) -> Result<Option<T>, String> {
            match m.get(k) {
                None => Ok(None),
                Some(v) => v
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("'{}': bad value", quote(&format!("{k}={v}")))),
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
            sense: map.get("sense").map(|v| parse_sense(v)).transpose()?,
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
