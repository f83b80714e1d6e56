//! The merge of shard records: checks that a set of records is the shards `1..=M` of one
//! run, each exactly once and intact, and adds them up.

use std::collections::BTreeMap;
use std::fmt;

use super::Status;
use super::shard::{Hex64, Kind, Located, Shard, ShardRecord, Source, sense_name};
use crate::engine::optimize::Sense;
use crate::quote::quote;

/// A model's own checks of its record kind, beyond the check sum and the common fields:
/// `Err(reason)` rejects a record. Checked at merge on each record and on the total. The merge
/// knows no model; each model hands over its rule (e.g. `queens::record_rules()`), so the
/// arrows point from the models down to the records.
#[derive(Copy, Clone, Debug)]
pub struct Rule {
    /// The kind the rule is for.
    pub kind: Kind,
    /// The check.
    pub check: fn(&ShardRecord) -> Result<(), String>,
}

/// The most shard ranges (or duplicate shards) a message names; the rest are counted.
const NAMED: usize = 8;

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
    /// Shards of the split without a record, as ranges: the first few, and how many in all
    /// (a split of 2^64 − 1 shards with one record costs as much as one with two).
    #[error("missing shards of {shards}: {}{}", ranges(.first), counted(.first, *.missing, *.shards))]
    Missing {
        /// M, the number of shards of the split.
        shards: u64,
        /// How many shards have no record.
        missing: u64,
        /// The first ranges of missing shards (1-based, inclusive), at most a few.
        first: Vec<(u64, u64)>,
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
    /// More shards with more than one record than are named one by one.
    #[error("{0} more duplicate shards")]
    MoreDuplicates(u64),
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
    let mut s = v
        .iter()
        .take(NAMED)
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if v.len() > NAMED {
        s.push_str(&format!(", and {} more", v.len() - NAMED));
    }
    s
}

/// Ranges of shards: `3, 5..9`.
fn ranges(v: &[(u64, u64)]) -> String {
    v.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}..{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` (9,999,999 of 10,000,000)` when the ranges named do not say how many shards they are.
fn counted(first: &[(u64, u64)], missing: u64, shards: u64) -> String {
    if first.len() as u64 == missing {
        String::new()
    } else {
        format!(" ({} of {})", thousands(missing), thousands(shards))
    }
}

/// `10000000` as `10,000,000`.
fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut s = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// Whether `a` is a better value than `b`.
fn better(sense: Sense, a: i128, b: i128) -> bool {
    match sense {
        Sense::Maximize => a > b,
        Sense::Minimize => a < b,
    }
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
/// optimisation `sense` and the `floor` equal across records; the kind's own rule (the
/// [`Rule`] in `rules` for the kind, e.g. n in range, checked on each record and on the total);
/// every shard present once (each duplicate named by file and line). Totals: counts summed in
/// u128/u64 with overflow checked, `seconds` summed (CPU-ish time of the whole), status
/// `complete` only if every shard completed (else the first other status); for optimisation
/// kinds the best value (and its layout) wins — among equal values of `queens-max` the
/// smallest layout, compared as numbers —, the bound is the loosest shard bound, and the
/// status is `optimal` only if every shard was optimal, infeasible or below the floor, with
/// some value (`below-floor` when there is no value and some shard was below the floor).
///
/// Every value a message quotes from a record goes through [`quote`]: a field can hold any
/// text a file held.
pub fn merge(records: &[Located], rules: &[Rule]) -> Result<Merged, MergeError> {
    let fail = |problems: Vec<Problem>| Err(MergeError { problems });
    // An interrupted shard that was run again (`parallel --resume-failed` appends the new
    // record) is the new record's: the interrupted one is dropped. One without a rerun is
    // refused below.
    let rerun: std::collections::HashSet<u64> = records
        .iter()
        .filter(|l| l.record.status != Status::Interrupted)
        .map(|l| l.record.shard)
        .collect();
    let kept: Vec<Located>;
    let records = if records
        .iter()
        .any(|l| l.record.status == Status::Interrupted && rerun.contains(&l.record.shard))
    {
        kept = records
            .iter()
            .filter(|l| l.record.status != Status::Interrupted || !rerun.contains(&l.record.shard))
            .cloned()
            .collect();
        &kept[..]
    } else {
        records
    };
    let Some(first) = records.first() else {
        return fail(vec![Problem::NoRecords]);
    };
    let mut problems = Vec::new();
    let f = &first.record;
    let rule = rules.iter().find(|r| r.kind == f.kind).map(|r| r.check);
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
            problems.push(invalid(format!(
                "record is '{}', not 'shard'",
                quote(&r.record)
            )));
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
                    found: quote(&found),
                    first: first.source.clone(),
                    want: quote(&want),
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
        let sense = |x: Option<Sense>| x.map_or("absent", sense_name).to_string();
        mixed("sense", sense(r.sense), sense(f.sense));
        let floor = |x: Option<i128>| x.map_or_else(|| "absent".into(), |v| v.to_string());
        mixed("floor", floor(r.floor), floor(f.floor));
        if r.kind.optimizes() && r.sense.is_none() {
            problems.push(invalid("an optimisation record without a sense".into()));
        }
        if r.status == Status::Interrupted {
            // Its counts are lower bounds of an unknown part of the shard.
            problems.push(invalid(format!(
                "shard {} was interrupted (status=interrupted): run it again",
                r.shard
            )));
        } else if let Some(rule) = rule
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
    // The gaps between the shards seen, walked in order: memory grows with the records, not
    // with M.
    let missing = m - seen.len() as u64;
    if missing > 0 {
        let mut first = Vec::new();
        // The shard after the last one seen (as u128: after shard 2^64 − 1 comes 2^64).
        let mut next: u128 = 1;
        let end = u128::from(m) + 1;
        for k in seen
            .keys()
            .map(|&k| u128::from(k))
            .chain(std::iter::once(end))
        {
            if k > next && first.len() < NAMED {
                // Both ends lie in 1..=m, so they fit a u64.
                first.push((next as u64, (k - 1) as u64));
            }
            next = k + 1;
        }
        problems.push(Problem::Missing {
            shards: m,
            missing,
            first,
        });
    }
    let mut duplicates = 0;
    for (&shard, at) in &seen {
        if at.len() > 1 {
            duplicates += 1;
            if duplicates <= NAMED as u64 {
                problems.push(Problem::Duplicate {
                    shard,
                    shards: m,
                    at: at.clone(),
                });
            }
        }
    }
    if duplicates > NAMED as u64 {
        problems.push(Problem::MoreDuplicates(duplicates - NAMED as u64));
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
            let sense = r.sense.unwrap_or(Sense::Maximize);
            // The best value; among equals (queens-max) the smallest layout, as one search
            // reports it.
            if let Some(v) = r.value
                && t.value.is_none_or(|best| {
                    better(sense, v, best)
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
                && t.bound.is_none_or(|cur| better(sense, b, cur))
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
