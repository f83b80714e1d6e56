//! `xcover queens merge`: combines the records of `xcover queens count --shard I/M` runs into
//! the total, after checking that they cover the split exactly once.
//!
//! Accepted inputs, detected per file: JSON (one record, or several as JSON Lines or
//! concatenated objects), CSV with the header `count --format csv` writes (one or more rows),
//! and the `key=value` text lines `count --shard` prints by default (one record a line).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::InputError;
use super::queens_count::{CountRecord, Format, write_record};
use crate::io::output::{Output, read_input};
use crate::queens::model::RESIDUE_MODULUS;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard record files written by `xcover queens count --shard I/M` (`-` for stdin).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Output format of the total: text prints the bare count.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the total to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Reads every record of one file.
fn read_records(path: &Path) -> anyhow::Result<Vec<CountRecord>> {
    let (bytes, name) = read_input(Some(path))?;
    let text =
        String::from_utf8(bytes).map_err(|_| InputError(format!("{name}: not UTF-8 text")))?;
    let first = text.trim_start();
    let records = if first.starts_with('{') {
        let mut out = Vec::new();
        let stream = serde_json::Deserializer::from_str(&text).into_iter::<CountRecord>();
        for r in stream {
            match r {
                Ok(r) => out.push(r),
                Err(e) => {
                    return Err(InputError(format!(
                        "{name}: line {}, column {}: not a count record: {e}",
                        e.line(),
                        e.column()
                    ))
                    .into());
                }
            }
        }
        out
    } else if first.starts_with("n=") {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                parse_text_line(l)
                    .map_err(|e| InputError(format!("{name}: line {}: {e}", i + 1)).into())
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    } else {
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let mut out = Vec::new();
        for r in rdr.deserialize::<CountRecord>() {
            match r {
                Ok(r) => out.push(r),
                Err(e) => {
                    let line = e.position().map(|p| p.line()).unwrap_or(0);
                    return Err(InputError(format!(
                        "{name}: line {line}: not a count record (expected JSON, CSV with the \
                         header of `count --format csv`, or key=value text): {e}"
                    ))
                    .into());
                }
            }
        }
        out
    };
    if records.is_empty() {
        bail!(InputError(format!("{name}: no count record in the file")));
    }
    Ok(records)
}

/// Parses a `key=value` line as written by `CountRecord::text_line`.
fn parse_text_line(line: &str) -> Result<CountRecord, String> {
    let mut map = BTreeMap::new();
    for tok in line.split_whitespace() {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| format!("'{tok}' is not key=value"))?;
        if map.insert(k, v).is_some() {
            return Err(format!("key '{k}' given twice"));
        }
    }
    fn get<T: std::str::FromStr>(m: &BTreeMap<&str, &str>, k: &str) -> Result<Option<T>, String> {
        match m.get(k) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| format!("'{k}={v}': bad value")),
        }
    }
    fn need<T: std::str::FromStr>(m: &BTreeMap<&str, &str>, k: &str) -> Result<T, String> {
        get(m, k)?.ok_or_else(|| format!("missing '{k}='"))
    }
    Ok(CountRecord {
        n: need(&map, "n")?,
        engine: need(&map, "engine")?,
        shard: get(&map, "shard")?,
        shards: get(&map, "shards")?,
        solutions: need(&map, "solutions")?,
        unique: get(&map, "unique")?,
        nodes: need(&map, "nodes")?,
        seconds: need(&map, "seconds")?,
        residue: need(&map, "residue")?,
    })
}

/// Checks that the records are exactly the shards 1..=M of one count, and adds them up.
pub fn merge(records: &[(String, CountRecord)]) -> Result<CountRecord, InputError> {
    let Some((first_name, first)) = records.first() else {
        return Err(InputError("no records to merge".into()));
    };
    let mut problems = Vec::new();
    for (name, r) in records {
        if r.shard.is_none() || r.shards.is_none() {
            problems.push(format!(
                "{name}: not a shard record (no shard/shards fields)"
            ));
            continue;
        }
        if r.n != first.n {
            problems.push(format!(
                "mixed n: {name} has n={}, {first_name} has n={}",
                r.n, first.n
            ));
        }
        if r.shards != first.shards {
            problems.push(format!(
                "mixed shard counts: {name} has M={}, {first_name} has M={}",
                r.shards.unwrap_or(0),
                first.shards.unwrap_or(0)
            ));
        }
        if r.engine != first.engine {
            problems.push(format!(
                "mixed engines: {name} has {}, {first_name} has {}",
                r.engine, first.engine
            ));
        }
        if r.unique.is_some() != first.unique.is_some() {
            problems.push(format!(
                "{name} and {first_name} differ in counting fundamental solutions (--unique)"
            ));
        }
        if (r.solutions % RESIDUE_MODULUS as u128) as u64 != r.residue {
            problems.push(format!(
                "{name}: shard {}: solutions={} does not match its check residue {} (corrupted record?)",
                r.shard.unwrap_or(0),
                r.solutions,
                r.residue
            ));
        }
        if r.residue >= RESIDUE_MODULUS {
            problems.push(format!("{name}: residue {} out of range", r.residue));
        }
    }
    if !problems.is_empty() {
        return Err(InputError(problems.join("; ")));
    }
    let m = first.shards.unwrap_or(0);
    let mut seen: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, r) in records {
        let i = r.shard.unwrap_or(0);
        if i == 0 || i > m {
            problems.push(format!("{name}: shard {i}/{m} out of range"));
        }
        seen.entry(i).or_default().push(name);
    }
    let missing: Vec<String> = (1..=m)
        .filter(|i| !seen.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        problems.push(format!("missing shards of {m}: {}", missing.join(", ")));
    }
    for (i, names) in &seen {
        if names.len() > 1 {
            problems.push(format!("duplicate shard {i}/{m}: in {}", names.join(", ")));
        }
    }
    if !problems.is_empty() {
        return Err(InputError(problems.join("; ")));
    }
    let overflow = || InputError("the total overflows".into());
    let mut total = CountRecord {
        n: first.n,
        engine: first.engine.clone(),
        shard: None,
        shards: Some(m),
        solutions: 0,
        unique: first.unique.map(|_| 0),
        nodes: 0,
        seconds: 0.0,
        residue: 0,
    };
    for (_, r) in records {
        total.solutions = total
            .solutions
            .checked_add(r.solutions)
            .ok_or_else(overflow)?;
        if let (Some(t), Some(u)) = (total.unique.as_mut(), r.unique) {
            *t = t.checked_add(u).ok_or_else(overflow)?;
        }
        total.nodes = total.nodes.checked_add(r.nodes).ok_or_else(overflow)?;
        total.seconds += r.seconds;
        total.residue = (total.residue + r.residue) % RESIDUE_MODULUS;
    }
    debug_assert_eq!(
        (total.solutions % RESIDUE_MODULUS as u128) as u64,
        total.residue
    );
    Ok(total)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut records = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        for r in read_records(path)? {
            records.push((name.clone(), r));
        }
    }
    let total = merge(&records)?;
    let mut out = Output::create(args.output.as_deref())?;
    write_record(&mut out, &total, args.format, total.unique.is_some())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
