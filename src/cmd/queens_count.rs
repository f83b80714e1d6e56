//! `xcover queens count`: the number of n-queens solutions (or fundamental solutions), on a
//! thread pool, optionally one shard of a deterministic split for clusters
//! ([`crate::queens::count`] does the work).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::io::output::Output;
use crate::io::shard::{self, Format, Shard};
use crate::queens::count::{self, Engine, Request};
use crate::queens::model::Reduction;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: super::BoardSize,
    /// Count fundamental solutions: classes under the 8 symmetries of the square.
    #[arg(long)]
    pub unique: bool,
    /// How much of the square's symmetry the dlx engine uses to save work (none and mirror
    /// are for comparison; the answer is the same). Default: full. The bits engine always
    /// uses the full symmetry and rejects the others.
    #[arg(long, value_enum)]
    pub symmetry: Option<Reduction>,
    /// Output format: text prints the bare count (the key=value record line for a shard).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads (default: all cores). The answer does not depend on it.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Count only part I of M of the deterministic split (for clusters), e.g. `--shard 3/10`.
    /// Combine the records with `xcover merge`.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<Shard>,
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
    let request = Request {
        n: args.board.n as usize,
        unique: args.unique,
        engine: args.engine,
        symmetry: args.symmetry,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        threads: args.threads.map(|t| t as usize),
    };
    request
        .validate()
        .map_err(|e| super::InputError(e.to_string()))?;
    let pb = progress_bar();
    let progress = |done: usize, total: usize, solutions: u128| {
        if let Some(pb) = &pb {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
            pb.set_message(solutions.to_string());
        }
    };
    let start = Instant::now();
    let counted = count::count(&request, &progress)?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    if args.stats {
        let w = counted.work;
        let mut line = format!(
            "n={} engine={} symmetry={} sub-problems={}/{} nodes={}",
            request.n,
            request.engine.name(),
            request.reduction().name(),
            counted.tasks,
            counted.tasks_total,
            w.nodes
        );
        if let (Some(u), Some(m)) = (w.updates, w.mems) {
            line += &format!(" updates={u} mems={m}");
        }
        eprintln!("{line} seconds={seconds:.3}");
    }
    let record = counted.record(&request, seconds);
    let mut out = Output::create(args.output.as_deref())?;
    match args.format {
        Format::Text if args.shard.is_none() => {
            let c = if args.unique {
                counted.unique.unwrap_or(0)
            } else {
                counted.solutions
            };
            writeln!(out, "{c}")?;
        }
        f => shard::write_records(&mut out, [&record], f)?,
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
