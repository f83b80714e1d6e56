//! `xcover queens count`: the number of n-queens solutions (or fundamental solutions), on a
//! thread pool, optionally one shard of a deterministic split for clusters
//! ([`crate::queens::count`] does the work).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::io::export::Format;
use crate::io::output::Output;
use crate::io::queens::write_count;
use crate::io::shard;
use crate::queens::count::{self, Engine, Request};
use crate::queens::model::Reduction;
use crate::records::Shard;
use crate::records::Status;
use crate::records::rows::QueensCountRecord;

/// The formats of `queens count` and `merge`: text, then the record formats.
pub(super) const FORMATS: &[(Format, &str)] = &[
    (
        Format::Text,
        "The count; with --shard, the shard record as one `key=value` line",
    ),
    (Format::Csv, "CSV with a header line"),
    (Format::Json, "JSON Lines: one object per line"),
];

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
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub threads: super::Threads,
    /// Count only part I of M of the deterministic split (for clusters), e.g. `--shard 3/10`.
    /// Combine the records with `xcover merge`.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<Shard>,
    /// Counting engine: dancing links (the exact-cover model) or the word-parallel counter
    /// [default: bits, or dlx when --symmetry is mirror or none].
    #[arg(long, value_enum)]
    pub engine: Option<Engine>,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Only print an estimate of the work (Knuth's random probes; milliseconds) and how to
    /// split it with --shard; count nothing.
    #[arg(long)]
    pub estimate: bool,
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
    let style =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} sub-problems, {msg}").ok()?;
    pb.set_style(style);
    Some(pb)
}

/// Builds the rayon pool for `--threads` (all cores for `None` or 0).
pub fn thread_pool(threads: Option<u32>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(super::Threads { threads }.get())
        .build()
        .context("cannot start the worker threads")
}

/// Counts estimated to take longer than this print the estimate on stderr first.
const LONG_RUN_SECONDS: f64 = 3600.0;

/// More one-hour shards than this is beyond any cluster: the estimate says so instead.
const BEYOND_REACH_SHARDS: u64 = 10_000_000;

/// A duration in words: seconds, minutes, hours, days or years.
pub(super) fn human(seconds: f64) -> String {
    let units = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
    ];
    for (size, name) in units {
        if seconds >= 2.0 * size {
            return format!("{:.0} {name}", seconds / size);
        }
    }
    format!("{seconds:.1} seconds")
}

/// The estimate and, for a long count, how to split it.
fn estimate_line(request: &Request, e: &count::Estimate) -> String {
    let basis = match e.basis {
        count::Basis::Tree => format!("tree~{:.2e} nodes", e.tree_nodes),
        count::Basis::Measured(method) => format!("totals by {method}, from measured times"),
    };
    let mut s = format!(
        "estimate: n={} engine={} {basis}; about {} on {} thread{} on this machine \
         (rough: within a factor of a few)",
        request.n,
        request.engine.name(),
        human(e.seconds),
        e.threads,
        if e.threads == 1 { "" } else { "s" },
    );
    // When dlx was chosen, say whether the bits engine's totals are far faster.
    let bits = Request {
        engine: Engine::Bits,
        ..*request
    };
    if let (Engine::Dlx, Ok(b)) = (request.engine, count::estimate(&bits))
        && b.seconds * 4.0 < e.seconds
    {
        s += &format!(" (`--engine bits`: about {})", human(b.seconds));
    }
    if request.shard != Shard::WHOLE {
        s += &format!(" for shard {}", request.shard);
    } else if e.seconds > LONG_RUN_SECONDS * BEYOND_REACH_SHARDS as f64 {
        s += "; beyond the reach of any cluster (n = 27 took a large one a year): \
              splitting with --shard will not make it finish";
    } else if e.seconds > LONG_RUN_SECONDS {
        let m = e.shards_for(LONG_RUN_SECONDS);
        s += &format!(
            "; split it into about {m} shards of an hour each: `--shard I/{m}` for I = 1..{m} on \
             as many machines, then `xcover merge` (docs/cluster.md)"
        );
    }
    s
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let request = Request {
        n: args.board.n as usize,
        unique: args.unique,
        engine: args
            .engine
            .unwrap_or_else(|| Engine::fastest(args.board.n as usize, args.symmetry)),
        symmetry: args.symmetry,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        threads: Some(args.threads.get()),
    };
    request
        .validate()
        .map_err(|e| super::InputError(e.to_string()))?;
    // Below this n every count takes minutes at most: no probes.
    const ESTIMATE_FROM_N: usize = 18;
    if !args.estimate && request.n < ESTIMATE_FROM_N {
        return count_and_write(&args, &request, None);
    }
    let estimate = count::estimate(&request)?;
    if args.estimate {
        let mut out = Output::create(args.output.as_deref())?;
        writeln!(out, "{}", estimate_line(&request, &estimate))?;
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    if estimate.seconds > LONG_RUN_SECONDS {
        super::diag::notice(&estimate_line(&request, &estimate));
    }
    count_and_write(&args, &request, Some(estimate.seconds))
}

/// The time left of a count, for its progress line: before any task is done, what the
/// estimate (`prior`, seconds of the whole count) leaves; then the tasks' own pace since the
/// first report of them (the tables are built before it), `done` of `total` tasks in
/// `since` seconds — the totals methods stripe their units over the tasks, so that tasks
/// cost about the same.
fn time_left(
    prior: Option<f64>,
    elapsed: f64,
    since: f64,
    done: usize,
    total: usize,
) -> Option<f64> {
    if done == 0 || total == 0 {
        return prior.map(|p| (p - elapsed).max(0.0));
    }
    let share = done as f64 / total as f64;
    Some(since * (1.0 - share) / share)
}

/// Runs the count and writes its record; `prior` is the estimate of its seconds, if made.
fn count_and_write(args: &Args, request: &Request, prior: Option<f64>) -> anyhow::Result<ExitCode> {
    let pb = progress_bar();
    let began = Instant::now();
    // When the first report of the tasks came.
    let tasks = std::sync::OnceLock::<Instant>::new();
    let progress = |done: usize, total: usize, solutions: u128| {
        if let Some(pb) = &pb {
            pb.set_length(total as u64);
            pb.set_position(done as u64);
            let first = *tasks.get_or_init(Instant::now);
            let left = time_left(
                prior,
                began.elapsed().as_secs_f64(),
                first.elapsed().as_secs_f64(),
                done,
                total,
            );
            pb.set_message(match left {
                Some(t) => format!("{solutions} solutions, about {} left", human(t)),
                None => format!("{solutions} solutions"),
            });
        }
    };
    // Ctrl-C stops the count and writes it with status `interrupted`, a lower bound.
    let stop = crate::engine::Stop::new();
    crate::io::output::stop_gracefully_on_interrupt(&stop);
    let start = Instant::now();
    let counted = count::count_until(request, &stop, &progress)?;
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
    let mut out = Output::create(args.output.as_deref())?;
    let record = QueensCountRecord {
        n: request.n as u32,
        solutions: counted.solutions,
        unique: counted.unique,
        status: if counted.interrupted {
            Status::Interrupted
        } else {
            Status::Complete
        },
        engine: request.engine.name(),
        symmetry: request.reduction().name(),
        nodes: counted.work.nodes,
        seconds,
    };
    match args.format {
        _ if args.shard.is_some() => {
            let record = counted.record(request, seconds);
            shard::write_records(&mut out, [&record], args.format)?;
        }
        format => {
            let c = if args.unique {
                counted.unique.unwrap_or(0)
            } else {
                counted.solutions
            };
            write_count(&mut out, format, &record, c)?;
        }
    }
    out.finish()?;
    if counted.interrupted {
        let c = counted.solutions;
        super::diag::notice(&format!(
            "xcover: interrupted after {c} solution{} (a lower bound: status=interrupted)",
            if c == 1 { "" } else { "s" }
        ));
    }
    Ok(crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::SUCCESS))
}
