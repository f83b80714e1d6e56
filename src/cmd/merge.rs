//! `xcover merge` (also `xcover queens merge`): checks that shard records cover their split
//! exactly once and adds them up ([`crate::records::merge`] does the work, with the rules of the models).
//!
//! Each file is read line by line (JSON Lines, CSV with a header, or `key=value` lines,
//! detected per file); a line longer than 64 KiB is an error at once.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::io::export::Format;
use crate::io::output::Output;
use crate::io::shard;
use crate::queens;
use crate::records::{self, Located};

/// The formats of the total.
const FORMATS: &[(Format, &str)] = &[
    (Format::Text, "The total alone (see above)"),
    (Format::Csv, "The total record, CSV with a header line"),
    (Format::Json, "The total record as one JSON object"),
];

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard record files (`-` for stdin), from `xcover queens count`, `queens max` or `solve`
    /// run with `--shard I/M`.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Output format of the total: text prints the bare count (fundamental solutions when
    /// they were counted; the best value for an optimisation; for `queens max` shards the
    /// line `queens max` prints); csv and json the total record.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,
    /// Write the total to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn read(path: &Path) -> anyhow::Result<Vec<Located>> {
    if path == Path::new("-") {
        super::diag::stdin_hint(Some(path), "shard records");
        crate::io::input::check_stdin()?;
        let stdin = std::io::stdin();
        return Ok(shard::read_records(&mut stdin.lock(), "<stdin>")?);
    }
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    Ok(shard::read_records(
        &mut BufReader::with_capacity(1 << 16, file),
        &name,
    )?)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut records = Vec::new();
    for path in &args.files {
        records.extend(read(path)?);
    }
    let merged = records::merge(&records, &queens::record_rules())?;
    let t = &merged.total;
    let mut out = Output::create(args.output.as_deref())?;
    shard::write_total(&mut out, t, args.format)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
