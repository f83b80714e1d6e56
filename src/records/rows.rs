//! The records the commands print: one struct per kind of record, its fields in the order of
//! the columns (docs/formats.md is the table of them). The writers, one per format, are in
//! `io::export`; a command fills these in and hands them over.
//!
//! - A *layout* (queens on a board) is always the fields `n, q0, ..., q{n-1}`: the board size,
//!   then the file (0-based) of the queen on each rank ([`LayoutFields`]).
//! - No value is an empty CSV field and `null` in JSON; a numeric field never holds a word.
//! - A result that may be partial carries a `status` ([`Status`]).

// Without the `cli` feature no command prints these.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

use serde::Serialize;
use serde::ser::SerializeMap;

use super::Status;

/// The newtype name by which [`Decimal`] tells the CSV writer to write plain decimal.
pub const DECIMAL: &str = "Decimal";

/// A number written in plain decimal in CSV (`0`, `0.25`, `1`, as Rust's `Display`) and as a
/// JSON number.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decimal(pub f64);

impl Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(DECIMAL, &self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Layouts

/// A layout's fields: `"n": n, "q0": f0, ...` (flattened into the record).
pub struct LayoutFields<'a, T> {
    /// The board size.
    pub n: usize,
    /// The files of the queens, rank 0 first; `None` when there is no layout (the `q` fields
    /// are then empty).
    pub queens: Option<&'a [T]>,
}

/// The names of the first layout columns, so that records need not format them.
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

// ---------------------------------------------------------------------------------------------
// `queens list`

/// A `queens list` row: its number, the layout, and with `--unique` the size of its class.
/// The command writes CSV and JSON through the fast encoders of `io::records::ListFormat`,
/// which write these same fields; other record formats take this record.
#[derive(Serialize)]
pub struct ListRecord<'a> {
    pub solution: u64,
    #[serde(flatten)]
    pub layout: LayoutFields<'a, u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_size: Option<u8>,
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
    pub share: Option<Decimal>,
}

impl HeatmapRecord {
    /// The records of a table of `n * n` counts (rank-major) out of `total`, rank-major.
    pub fn of_table(n: usize, counts: &[u128], total: u128) -> impl Iterator<Item = Self> + '_ {
        (0..n * n).map(move |i| HeatmapRecord {
            rank: i / n,
            file: i % n,
            solutions: counts[i],
            share: (total != 0).then(|| Decimal(counts[i] as f64 / total as f64)),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// `queens max`

/// One `queens max` record: a board's result with one of its reported layouts (one record per
/// layout; a board without any layout has one record with empty score and layout).
///
/// `score` and `place` are the layout's; `board_status`, `board_bound`, `optimal_count` and
/// `nodes` are the board's, the same on each of its records. `place` is the layout's place in
/// the board's ranking, best 1; tied scores share a place (1, 1, 3: standard competition
/// ranking).
#[derive(Serialize)]
pub struct MaxRecord<'a> {
    /// The board's number in the input, from 1.
    pub board: usize,
    /// How the board's search ended.
    pub board_status: Status,
    /// The layout's score.
    pub score: Option<i128>,
    /// The layout's place in the board's ranking.
    pub place: Option<usize>,
    /// Upper bound on the board's maximum (equal to it when optimal).
    pub board_bound: Option<i128>,
    /// The number of optimal layouts, when counted.
    pub optimal_count: Option<u64>,
    /// The board's search nodes.
    pub nodes: u64,
    /// The layout (none on the record of a board without one).
    #[serde(flatten)]
    pub layout: LayoutFields<'a, u32>,
}

/// A `queens max` board as its records carry it: the fields that are the same on each of
/// its records.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MaxBoard {
    /// The board's number in the input, from 1.
    pub board: usize,
    /// How its search ended.
    pub status: Status,
    /// Upper bound on its maximum.
    pub bound: Option<i128>,
    /// The number of optimal layouts, when counted.
    pub optimal_count: Option<u64>,
    /// Search nodes.
    pub nodes: u64,
    /// The board size.
    pub n: usize,
}

impl MaxBoard {
    /// The board's records, handed to `write` in order: one a layout (`(score, files)`, best
    /// first), each with its place in the ranking, or one without a layout when there is
    /// none. The command line writes these, and the Python binding's `records()` reads them.
    pub fn records<'q, E>(
        &self,
        layouts: &[(i128, &'q [u32])],
        mut write: impl FnMut(&MaxRecord<'q>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut record = MaxRecord {
            board: self.board,
            board_status: self.status,
            score: None,
            place: None,
            board_bound: self.bound,
            optimal_count: self.optimal_count,
            nodes: self.nodes,
            layout: LayoutFields {
                n: self.n,
                queens: None,
            },
        };
        if layouts.is_empty() {
            return write(&record);
        }
        let places = places(layouts.iter().map(|&(score, _)| score));
        for (&(score, queens), place) in layouts.iter().zip(places) {
            record.score = Some(score);
            record.place = Some(place);
            record.layout.queens = Some(queens);
            write(&record)?;
        }
        Ok(())
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
// `queens count`

/// `queens count` without `--shard`: the count, plain (`--shard` writes the sealed shard
/// record that `merge` takes instead).
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

// ---------------------------------------------------------------------------------------------
// `solve`: a stream of kinds (`solution`, then `summary` or `optimum`), each named by a
// `record` field in JSON Lines.

/// A solution of `solve`: its number, its total cost (`None` unless optimising), its options
/// as written and their lines in the input. In CSV it is one [`OptionRow`] per option.
#[derive(Serialize)]
pub struct SolutionRecord<'a> {
    pub solution: u64,
    pub cost: Option<i128>,
    pub options: &'a [String],
    pub lines: &'a [usize],
}

/// One option of a solution, a CSV row of `solve`: `cost` only when optimising. The empty
/// solution (every primary item may be covered 0 times) is one row without an option:
/// `position`, `line` and `option` empty.
#[derive(Serialize)]
pub struct OptionRow<'a> {
    pub solution: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<i128>,
    pub position: Option<usize>,
    pub line: Option<usize>,
    pub option: &'a str,
}

impl SolutionRecord<'_> {
    /// The solution's options as rows, in the order chosen; one row without an option for
    /// the empty solution, so that every solution has its number in the CSV.
    pub fn option_rows(&self) -> impl Iterator<Item = OptionRow<'_>> {
        let empty = self.options.is_empty().then_some(OptionRow {
            solution: self.solution,
            cost: self.cost,
            position: None,
            line: None,
            option: "",
        });
        self.options
            .iter()
            .zip(self.lines)
            .enumerate()
            .map(|(k, (option, &line))| OptionRow {
                solution: self.solution,
                cost: self.cost,
                position: Some(k + 1),
                line: Some(line),
                option,
            })
            .chain(empty)
    }
}

/// `solve --count`: the number of solutions and whether that is all of them.
#[derive(Serialize)]
pub struct CountRecord {
    pub solutions: u128,
    pub status: Status,
}

/// `solve --stats`: the search's statistics at the end.
#[derive(Serialize)]
pub struct SummaryRecord {
    pub status: Status,
    pub solutions: u128,
    pub nodes: u64,
    pub updates: u64,
    /// Knuth's `I` of `I+M mems` (0: input is not counted).
    pub input_mems: u64,
    pub mems: u64,
    /// Knuth's bytes of the data structure (`engine::structure_bytes`).
    pub bytes: u64,
    pub cleansings: u64,
    pub max_level: u32,
}

impl SummaryRecord {
    /// The summary of a search whose data structure took `bytes`.
    pub fn new(status: Status, stats: &crate::engine::Stats, bytes: u64) -> SummaryRecord {
        SummaryRecord {
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

/// `solve --marginals`, `model NAME --marginals`: one option's marginal.
#[derive(Serialize)]
pub struct MarginalRecord<'a> {
    /// The option's index, from 0.
    pub option: u32,
    /// Its line in the DLX text.
    pub line: usize,
    /// Its text as written there.
    pub text: &'a str,
    /// The number of solutions that take it.
    pub solutions: u128,
    /// Its share of all solutions (`None` when there is none).
    pub share: Option<Decimal>,
}

/// `solve --minimize/--maximize`: how the optimisation ended.
#[derive(Serialize)]
pub struct OptimumRecord {
    pub status: Status,
    pub cost: Option<i128>,
    pub bound: Option<i128>,
    pub solutions: usize,
    pub nodes: u64,
    pub updates: u64,
    pub mems: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_share_ties() {
        assert_eq!(places([9, 9, 7, 5, 5, 5, 1]), vec![1, 1, 3, 4, 4, 4, 7]);
        assert_eq!(places(Vec::<i128>::new()), Vec::<usize>::new());
    }

    #[test]
    fn option_rows_number_positions_from_1() {
        let options = ["a b".to_string(), "c".to_string()];
        let s = SolutionRecord {
            solution: 7,
            cost: Some(3),
            options: &options,
            lines: &[4, 2],
        };
        let rows: Vec<(u64, Option<usize>, Option<usize>, &str)> = s
            .option_rows()
            .map(|r| (r.solution, r.position, r.line, r.option))
            .collect();
        assert_eq!(
            rows,
            vec![(7, Some(1), Some(4), "a b"), (7, Some(2), Some(2), "c")]
        );
        // The empty solution keeps its number: one row without an option.
        let empty = SolutionRecord {
            solution: 2,
            cost: None,
            options: &[],
            lines: &[],
        };
        let rows: Vec<_> = empty
            .option_rows()
            .map(|r| (r.solution, r.position, r.line, r.option))
            .collect();
        assert_eq!(rows, vec![(2, None, None, "")]);
    }
}
