//! `xcover queens count`: the number of n-queens solutions (or fundamental solutions), on a
//! thread pool, optionally one shard of a deterministic split for clusters.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::io::output::Output;
use crate::queens::bits;
use crate::queens::model::{self, CountConfig, Queens, Reduction};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: super::BoardSize,
    /// Count fundamental solutions: classes under the 8 symmetries of the square.
    #[arg(long)]
    pub unique: bool,
    /// How much of the square's symmetry the dlx engine uses to save work (none and mirror
    /// are for comparison; the answer is the same).
    #[arg(long, value_enum, default_value_t = Reduction::Full)]
    pub symmetry: Reduction,
    /// Output format: text prints the bare count (a key=value line for a shard).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads (default: all cores). The answer does not depend on it.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Count only part I of M of the deterministic split (for clusters), e.g. `--shard 3/10`.
    /// Combine the records with `xcover queens merge`.
    #[arg(long, value_parser = parse_shard, value_name = "I/M")]
    pub shard: Option<(usize, usize)>,
    /// Counting engine: dancing links (the exact-cover model) or the word-parallel counter.
    #[arg(long, value_enum, default_value_t = Engine::Dlx)]
    pub engine: Engine,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Write the record to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Csv,
    Json,
}

#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    Dlx,
    Bits,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dlx => "dlx",
            Engine::Bits => "bits",
        }
    }
}

/// Parses `I/M` with 1 <= I <= M.
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, m) = s
        .split_once('/')
        .ok_or_else(|| format!("'{s}' is not of the form I/M (e.g. 3/10)"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("shard number '{i}' is not a positive integer"))?;
    let m: usize = m
        .trim()
        .parse()
        .map_err(|_| format!("shard count '{m}' is not a positive integer"))?;
    if m == 0 || i == 0 || i > m {
        return Err(format!("shard {i}/{m} is out of range (need 1 <= I <= M)"));
    }
    Ok((i, m))
}

/// One count record: what `count` prints with `--format csv|json` (and `key=value` text for a
/// shard), and what `merge` reads and writes. `solutions` and `unique` are u128 (written as
/// plain decimal numbers in every format); `residue` is `solutions mod 1_000_000_007`
/// accumulated independently, to catch a corrupted `solutions` field at merge.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct CountRecord {
    pub n: usize,
    pub engine: String,
    pub shard: Option<usize>,
    pub shards: Option<usize>,
    pub solutions: u128,
    pub unique: Option<u128>,
    pub nodes: u64,
    pub seconds: f64,
    pub residue: u64,
}

impl CountRecord {
    /// The `key=value` text line of a record (absent fields left out).
    pub fn text_line(&self) -> String {
        let mut s = format!("n={} engine={}", self.n, self.engine);
        if let Some(i) = self.shard {
            s += &format!(" shard={i}");
        }
        if let Some(m) = self.shards {
            s += &format!(" shards={m}");
        }
        s += &format!(" solutions={}", self.solutions);
        if let Some(u) = self.unique {
            s += &format!(" unique={u}");
        }
        s += &format!(
            " nodes={} seconds={:.3} residue={}",
            self.nodes, self.seconds, self.residue
        );
        s
    }
}

/// Writes a record in the given format. Text: the bare count (fundamental solutions when
/// `unique_text`), or the `key=value` line for a single shard.
pub fn write_record(
    out: &mut Output,
    record: &CountRecord,
    format: Format,
    unique_text: bool,
) -> anyhow::Result<()> {
    match format {
        Format::Text => {
            if record.shard.is_some() {
                writeln!(out, "{}", record.text_line())?;
            } else if unique_text {
                writeln!(out, "{}", record.unique.unwrap_or(0))?;
            } else {
                writeln!(out, "{}", record.solutions)?;
            }
        }
        Format::Json => {
            serde_json::to_writer(&mut *out, record)?;
            writeln!(out)?;
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(&mut *out);
            w.serialize(record)?;
            w.flush()?;
        }
    }
    Ok(())
}

/// A progress bar on stderr when it is a terminal, else nothing.
pub fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::new(0);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} sub-problems, {msg} solutions, ETA {eta}",
    )
    .ok()?;
    pb.set_style(style);
    Some(pb)
}

/// Builds the rayon pool for `--threads` (all cores by default).
pub fn thread_pool(threads: Option<u32>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .context("cannot start the worker threads")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.board.n as usize;
    let model = Queens::new(n)?;
    let pool = thread_pool(args.threads)?;
    let pb = progress_bar();
    let progress = |done: usize, total: usize, solutions: u128| {
        if let Some(pb) = &pb {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
            pb.set_message(solutions.to_string());
        }
    };
    let start = Instant::now();
    let (record, stats_line) = match args.engine {
        Engine::Dlx => {
            let config = CountConfig {
                unique: args.unique,
                reduction: args.symmetry,
                shard: args.shard,
            };
            let c = pool.install(|| model::count(&model, &config, &progress))?;
            let seconds = start.elapsed().as_secs_f64();
            let line = format!(
                "n={n} engine=dlx sub-problems={}/{} nodes={} updates={} mems={} seconds={seconds:.3}",
                c.tasks, c.tasks_total, c.work.nodes, c.work.updates, c.work.mems
            );
            let record = CountRecord {
                n,
                // The split differs with the reduction, so shards of different reductions
                // must not be merged: the engine name says which one was used.
                engine: match args.symmetry {
                    Reduction::Full => "dlx".into(),
                    Reduction::Mirror => "dlx-mirror".into(),
                    Reduction::None => "dlx-none".into(),
                },
                shard: args.shard.map(|s| s.0),
                shards: args.shard.map(|s| s.1),
                solutions: c.solutions,
                unique: c.unique,
                nodes: c.work.nodes,
                seconds,
                residue: c.residue,
            };
            (record, line)
        }
        Engine::Bits => {
            let c = pool.install(|| bits::count(n, args.unique, args.shard, &progress));
            let seconds = start.elapsed().as_secs_f64();
            let line = format!(
                "n={n} engine=bits sub-problems={} nodes={} seconds={seconds:.3}",
                bits::task_count(n),
                c.nodes
            );
            let record = CountRecord {
                n,
                engine: "bits".into(),
                shard: args.shard.map(|s| s.0),
                shards: args.shard.map(|s| s.1),
                solutions: c.solutions,
                unique: args.unique.then_some(c.unique),
                nodes: c.nodes,
                seconds,
                residue: c.residue,
            };
            (record, line)
        }
    };
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    if args.stats {
        eprintln!("{stats_line}");
    }
    let mut out = Output::create(args.output.as_deref())?;
    write_record(&mut out, &record, args.format, args.unique)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
