//! `xcover solve [FILE|-]`: solve an exact-cover problem given in Knuth's DLX format.
//!
//! Output (stdout, or `-o FILE` written atomically):
//! - `--format text` (default), as DLX1 prints solutions: a heading `N:` (the solution's
//!   number, from 1), then the solution's options, one per line, each indented by one space,
//!   written as in the input (`p r x:A y`), in the order the engine chose them.
//! - `--format csv`: a header `solution,position,line,option`, then one record per option of
//!   each solution: the solution number (from 1), the option's position in it (from 1, in the
//!   order chosen), the option's line in the input file, and the option as written; the empty
//!   solution (with multiplicities `0:v`) is one record with the last three empty.
//! - `--format json`: JSON Lines, one flat `{"record":"solution",...}` object per solution
//!   with its number, cost (`null`), options and input lines; with `--stats`, a final
//!   `{"record":"summary",...}` record with how the search ended (`status`) and the statistics.
//! - `--count`: only the number of solutions (text: the number; csv: `solutions,status`;
//!   json: a `{"record":"count","solutions":N,"status":...}` record). The status says whether
//!   the count is complete or what stopped it; a partial count is also said on stderr.
//!
//! - `--minimize` / `--maximize` (DLX5's costs, `|n` at the end of an option): branch and
//!   bound with the generic bound; the best solution (or the `--top K` best), best first, each
//!   with its total cost (text heading `1: cost 5`; CSV `solution,cost,position,line,option`;
//!   JSON solution records then an `optimum` record with status, cost and bound). The status
//!   (optimal, feasible with a bound when a budget ran out, infeasible) is also said on stderr.
//!
//! - `--preprocess`: the search runs on the problem without the options that can be in no
//!   solution (`engine::preprocess`); solutions are written with their input text and lines,
//!   perhaps in another order. Refused with `--shard` and with multiplicities.
//!
//! - `--zdd FILE`, `--sample K`, `--marginals`: the solutions as a ZDD, uniform draws from
//!   it, the solutions taking each option ([`super::solve_zdd`]).
//! - `--estimate`: Knuth's estimate of a count's tree ([`super::solve_estimate`]).
//!
//! The flags are turned into decisions once (a [`Task`], the engine's [`Plan`], a
//! [`solve_zdd::Request`]); the results are written by io's exporters ([`crate::io::solve`]).
//!
//! Warnings (ignored options), budget notices and `--stats` (Knuth's `Altogether ...` line) go
//! to stderr. Exit 0 when the search ran (also with no solutions, or stopped by a budget), 2 on
//! bad input or usage. docs/formats.md is the table of the records.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::solve_estimate::{self, Shown};
use super::solve_zdd;
use crate::cmd::{InputError, diag};
use crate::engine::optimize::{Keep, Sense};
use crate::engine::preprocess as pre;
use crate::engine::run::{self, Plan};
use crate::engine::{Budget, End, MemoMode, OptionId, Outcome, SplitInfo, Stop};
use crate::io::dlx_format::{self, DlxFile};
use crate::io::export::Format;
use crate::io::output::Output;
use crate::io::shard;
use crate::io::solve::{self as export, SolutionWriter};
use crate::records::solve as solve_record;
use crate::records::{Shard, Status, partial_notice};

/// The formats of `xcover solve`.
const FORMATS: &[(Format, &str)] = &[
    (
        Format::Text,
        "DLX1's layout: `N:` then the options, one per line",
    ),
    (
        Format::Csv,
        "A header row, then one record per (solution, option)",
    ),
    (
        Format::Json,
        "JSON Lines: one object per solution (and a summary with --stats)",
    ),
];

/// `--memo`: when a count remembers sub-problem counts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoArg {
    /// Run the plain and the memoised search in turns (a portfolio with a guarantee).
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl MemoArg {
    fn mode(self) -> MemoMode {
        match self {
            MemoArg::Auto => MemoMode::Auto,
            MemoArg::On => MemoMode::On,
            MemoArg::Off => MemoMode::Off,
        }
    }
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("memoised").multiple(true).args(["count", "zdd", "sample", "marginals"])))]
pub struct Args {
    /// The DLX file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-")]
    pub input: Option<PathBuf>,

    /// Print only the number of solutions.
    #[arg(long)]
    pub count: bool,

    /// Print only an estimate of a count's work, in milliseconds to a second: the search
    /// tree's nodes by Knuth's random probes, and the time that means on this machine (the
    /// count's own engine timed for a quarter of a second).
    #[arg(long, conflicts_with_all = ["count", "minimize", "maximize", "limit", "zdd", "sample", "shard", "top"])]
    pub estimate: bool,

    /// Stop after N solutions (on one thread).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Output format.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,

    /// Write the output to FILE (atomically: a temporary file renamed at the end) instead
    /// of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Print Knuth's statistics line on stderr (and a summary record with --format json).
    #[arg(long)]
    pub stats: bool,

    /// Stop when the search has visited N nodes (on one thread).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Stop when the search has spent N mems (on one thread).
    #[arg(long, value_name = "N")]
    pub mems: Option<u64>,

    /// Stop after SECONDS of search (a decimal number).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    pub time_limit: Option<Duration>,

    /// Find a solution of least total cost (DLX5's `|n` cost entries), by branch and bound.
    #[arg(long, conflicts_with_all = ["maximize", "count"])]
    pub minimize: bool,

    /// Find a solution of greatest total cost, by branch and bound.
    #[arg(long, conflicts_with = "count")]
    pub maximize: bool,

    /// With --minimize/--maximize: the K best solutions instead of one.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,

    // With --limit, --nodes or --mems the search runs on one thread (said at those options).
    #[command(flatten)]
    pub threads: super::Threads,

    /// With --count: remember the counts of sub-problems met before (the same items left
    /// and colours set): `auto` runs the plain search and a memoised search (with parts, in
    /// frontier order) in turns, each resuming where it stopped, at most 64 times the better
    /// of them; `on` always (the memoised dance), `off` never. On threads each thread
    /// keeps a table of its own for its sub-problems. A shard counts without it (`on` is
    /// refused with --shard).
    #[arg(long, value_enum, default_value_t = MemoArg::Auto, value_name = "WHEN", requires = "count")]
    pub memo: MemoArg,

    /// Search exactly DLX2's tree, so that nodes, updates and mems are Knuth's figures for
    /// the same input: no memo.
    #[arg(long, conflicts_with = "memo")]
    pub knuth: bool,

    /// With --count: the memory the memo may use, e.g. `64M`, `2G` (bytes without a suffix;
    /// K, M, G, T are powers of 1024), at least 4K. When it is full, old counts are
    /// forgotten. With --zdd or --sample: the memory the diagram may use; beyond it the
    /// command stops and writes nothing.
    #[arg(long, value_name = "SIZE", value_parser = parse_memo_size, default_value = "256M", requires = "memoised")]
    pub memo_mem: u64,

    /// Before the search, remove the options that can be in no solution (choosing one would
    /// leave some primary item no compatible option), round after round, within a work limit.
    /// The same solutions, written as without it, but perhaps in another order. Not with
    /// --shard or multiplicities.
    #[arg(long)]
    pub preprocess: bool,

    /// Run only part I of M of the deterministic split (for clusters), e.g. `--shard 3/10`.
    /// With --count or --minimize/--maximize the output is the shard's record (text: a
    /// key=value line), for `xcover merge`; a listing lists the shard's solutions.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<Shard>,

    /// Write the solutions as a ZDD to FILE (`-`: stdout), in the text docs/engine.md
    /// describes, built by the memoised search within --memo-mem on one thread.
    #[arg(long, value_name = "FILE", conflicts_with_all = ZDD_CONFLICTS)]
    pub zdd: Option<PathBuf>,

    /// Draw K solutions (0 to 1,000,000) exactly uniformly, with replacement, from the
    /// ZDD's counts, listed as a listing lists them (numbered in the order drawn).
    #[arg(long, value_name = "K", conflicts_with_all = ZDD_CONFLICTS,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub sample: Option<u64>,

    /// The seed of --sample: the same seed, the same draws.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample")]
    pub seed: u64,

    /// For each option, the number of solutions that take it (option, line, text,
    /// solutions, share), counted on the ZDD (see --zdd).
    #[arg(long, conflicts_with_all = ZDD_CONFLICTS, conflicts_with = "sample")]
    pub marginals: bool,
}

/// What --zdd and --sample do not combine with.
const ZDD_CONFLICTS: [&str; 10] = [
    "count",
    "limit",
    "nodes",
    "mems",
    "minimize",
    "maximize",
    "top",
    "shard",
    "preprocess",
    "knuth",
];

/// The smallest `--memo-mem`: a table of one probe sequence of the longest keys is about
/// this size, and a smaller budget would not be kept.
const MIN_MEMO_BYTES: u64 = 4 << 10;

/// `--memo-mem`: a size ([`super::parse_size`]) of at least [`MIN_MEMO_BYTES`].
fn parse_memo_size(s: &str) -> Result<u64, String> {
    let bytes = super::parse_size(s)?;
    if bytes < MIN_MEMO_BYTES {
        return Err(format!(
            "'{}' is below the memo's smallest table, 4K (--memo off counts without a memo)",
            crate::quote::quote(s)
        ));
    }
    Ok(bytes)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.memo == MemoArg::On && args.shard.is_some() {
        return Err(InputError(
            "--memo on cannot be combined with --shard: a shard counts its sub-problems \
             without the memo, so that the shards add up"
                .into(),
        )
        .into());
    }
    let dlx = dlx_format::read(super::open_input(args.input.as_deref(), "a DLX problem")?)?;
    for w in &dlx.warnings {
        diag::warning(&format!("{}:{}: {}", w.file, w.line, w.message));
    }
    let zdd = zdd_request(&args);
    if zdd.wanted() {
        return solve_zdd::run(&zdd, &dlx);
    }
    // The time limit counts from here: preprocessing is part of the run.
    let budget = budget(&args);
    let task = Task::of(&args);
    let optimises = matches!(task, Task::Optimise(..));
    if dlx.problem.has_multiplicities() && (optimises || args.shard.is_some()) {
        return Err(InputError(
            "items with multiplicities (u:v|name) can be counted and listed, not optimised or \
             sharded"
                .into(),
        )
        .into());
    }
    let dlx = if args.preprocess {
        preprocess(dlx, &args)?
    } else {
        dlx
    };
    if args.top.is_some() && !optimises {
        return Err(InputError("--top needs --minimize or --maximize".into()).into());
    }
    let mut plan = plan(&args, budget)?;
    if args.estimate {
        return solve_estimate::run(&dlx.problem, &plan, args.knuth, args.output.as_deref());
    }
    let mut out = Output::create(args.output.as_deref())?;
    // Ctrl-C stops the search; what it found is written with status `interrupted`.
    crate::io::output::stop_gracefully_on_interrupt(plan.stop());
    // Solutions so far and the time, on a terminal only.
    let shown = Shown {
        counts: matches!(task, Task::Count),
        optimises: match task {
            Task::Optimise(sense, _) => Some(sense),
            _ => None,
        },
        streams: matches!(task, Task::List),
        knuth: args.knuth,
    };
    let pb = super::progress(
        "{spinner} {msg} {elapsed}",
        None,
        shown.streams,
        args.output.as_deref(),
    );
    plan.stop().progress().reset();
    let _watch = solve_estimate::watch(&dlx.problem, &plan, pb.as_ref(), shown);
    let (outcome, split, total) = match task {
        Task::Optimise(sense, keep) => {
            plan.budget.solutions = None;
            optimise(&args, &dlx, &plan, (sense, keep), out, pb.as_ref())?;
            return Ok(interrupted_or_success());
        }
        Task::Count => count(&args, &dlx, &plan, &mut out, pb.as_ref())?,
        Task::List => {
            let r = list(&dlx, &plan, args.format, &mut out, pb.as_ref());
            if let Some(pb) = &pb {
                pb.finish_and_clear();
            }
            let (outcome, split) = r?;
            (outcome, split, outcome.stats.solutions().into())
        }
    };
    report(&args, &dlx, &outcome, split, total, out)?;
    Ok(interrupted_or_success())
}

/// What a search of `solve` does, decided once from the flags.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Every solution, written as it is found.
    List,
    /// The number of solutions (`--count`).
    Count,
    /// The best solution, or the `--top K` best, in a sense (`--minimize`, `--maximize`).
    Optimise(Sense, Keep),
}

impl Task {
    fn of(args: &Args) -> Task {
        if args.minimize || args.maximize {
            let sense = if args.maximize {
                Sense::Maximize
            } else {
                Sense::Minimize
            };
            let keep = match args.top {
                Some(k) => Keep::Top(usize::try_from(k).unwrap_or(usize::MAX)),
                None => Keep::Best,
            };
            Task::Optimise(sense, keep)
        } else if args.count {
            Task::Count
        } else {
            Task::List
        }
    }
}

/// What `--zdd`, `--sample` and `--marginals` ask ([`solve_zdd::Request::wanted`] says
/// whether any of them was given).
fn zdd_request(args: &Args) -> solve_zdd::Request {
    solve_zdd::Request {
        zdd: args.zdd.clone(),
        sample: args.sample,
        seed: args.seed,
        marginals: args.marginals,
        format: args.format,
        output: args.output.clone(),
        stats: args.stats,
        time_limit: args.time_limit,
        memo_mem: args.memo_mem,
    }
}

/// The budget of the limits asked for, with the command's stop handle.
fn budget(args: &Args) -> Budget {
    Budget {
        solutions: args.limit,
        nodes: args.nodes,
        mems: args.mems,
        // A limit beyond what an Instant can hold is no limit.
        deadline: args.time_limit.and_then(|t| Instant::now().checked_add(t)),
        stop: Stop::new(),
    }
}

/// The plan of the search asked for: one thread when the budget is not one threads can keep
/// (an error for a shard).
fn plan(args: &Args, budget: Budget) -> anyhow::Result<Plan> {
    let plan = Plan {
        threads: args.threads.get(),
        shard: args.shard.map(Shard::as_pair),
        knuth: args.knuth,
        // Knuth's tree is the plain search's: its counts are DLX2's.
        memo: if args.knuth {
            MemoMode::Off
        } else {
            args.memo.mode()
        },
        memo_bytes: args.memo_mem,
        budget,
    };
    if args.shard.is_some() && !plan.keeps_budget() {
        return Err(InputError("--shard cannot be combined with --limit, --nodes or --mems (they would apply to each sub-problem); --time-limit can".into()).into());
    }
    Ok(plan.on_threads_that_keep_the_budget())
}

/// `--minimize`/`--maximize`: the optimum (or a shard's record) to `out`, its status line on
/// stderr.
fn optimise(
    args: &Args,
    dlx: &DlxFile,
    plan: &Plan,
    (sense, keep): (Sense, Keep),
    mut out: Output,
    pb: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let (best, split) = run::optimize(&dlx.problem, plan, sense, keep);
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if let Some(shard) = args.shard {
        let seconds = start.elapsed().as_secs_f64();
        let line = |o| dlx.line_of(o);
        let r = solve_record::optimize_record(
            &dlx.problem,
            shard,
            sense,
            &best,
            Status::stopped(plan.stop(), Status::Time),
            split.as_ref(),
            seconds,
            line,
        );
        shard::write_records(&mut out, [&r], args.format)?;
    } else {
        let status = Status::of_optimum_within(&best, &plan.budget);
        export::write_optimum(&mut out, args.format, dlx, &best, status)?;
    }
    out.finish()?;
    diag::notice(&export::optimum_line(&best, plan.stop().requested()));
    if args.stats {
        let solutions = best.stats.solutions().into();
        diag::notice(&export::knuth_line(&dlx.problem, &best.stats, solutions));
        if let Some(s) = split {
            diag::notice(&export::split_line(&s));
        }
    }
    Ok(())
}

/// `--count`: the count (or a shard's record) to `out`; with `--stats` the memo's line on
/// stderr. Returns how the search ended, its split and the number of solutions, remembered
/// ones included.
fn count(
    args: &Args,
    dlx: &DlxFile,
    plan: &Plan,
    out: &mut Output,
    pb: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Outcome, Option<SplitInfo>, u128)> {
    let start = Instant::now();
    let counted = run::count(&dlx.problem, plan);
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if counted.end == End::Overflow {
        anyhow::bail!(
            "the number of solutions does not fit in 128 bits (it is over 3.4e38): not counted"
        );
    }
    let outcome = Outcome {
        end: counted.end,
        stats: counted.stats,
    };
    if let Some(shard) = args.shard {
        let seconds = start.elapsed().as_secs_f64();
        let split = counted.split.as_ref();
        let r = solve_record::count_record(&dlx.problem, shard, &outcome, split, seconds);
        shard::write_records(&mut *out, [&r], args.format)?;
    } else {
        let status = Status::of_end(outcome.end);
        export::write_count(out, args.format, counted.count, status)?;
    }
    if args.stats
        && let Some(m) = counted.memo
    {
        diag::notice(&export::memo_line(&m));
    }
    Ok((outcome, counted.split, counted.count))
}

/// The end of a count or a listing: the `--stats` summary record, then on stderr what the
/// result is (no solution, a partial result) and Knuth's statistics line. `total` is the
/// number of solutions, remembered ones included.
fn report(
    args: &Args,
    dlx: &DlxFile,
    outcome: &Outcome,
    split: Option<SplitInfo>,
    total: u128,
    mut out: Output,
) -> anyhow::Result<()> {
    let status = Status::of_end(outcome.end);
    if args.stats && !(args.count && args.shard.is_some()) {
        export::write_summary(
            &mut out,
            args.format,
            &dlx.problem,
            status,
            &outcome.stats,
            total,
        )?;
    }
    out.finish()?;

    // An empty listing would print nothing at all: say that the search found no solution.
    if !args.count && status == Status::Complete && outcome.stats.solutions() == 0 {
        diag::notice(if args.shard.is_some() {
            "no solution in this shard"
        } else {
            "no solution"
        });
    }
    // A partial count says so; a listing stopped by its own --limit is what was asked for.
    if (args.count || status != Status::Limit)
        && let Some(notice) = partial_notice(status, total)
    {
        diag::notice(&notice);
    }
    if args.stats {
        diag::notice(&export::knuth_line(&dlx.problem, &outcome.stats, total));
        if let Some(s) = split {
            diag::notice(&export::split_line(&s));
        }
    }
    Ok(())
}

/// `--preprocess`: the file with only the options that can be in a solution, each with its
/// line in the input (so that the output is written as without it); with `--stats`, a line
/// on stderr says what was removed.
fn preprocess(dlx: DlxFile, args: &Args) -> anyhow::Result<DlxFile> {
    if args.shard.is_some() {
        return Err(InputError(
            "--preprocess cannot be combined with --shard (every shard must split the same \
             problem)"
                .into(),
        )
        .into());
    }
    let start = Instant::now();
    let reduced = pre::preprocess(&dlx.problem, &pre::Limits::default())
        .map_err(|e| InputError(format!("--preprocess: {e}")))?;
    if args.stats {
        let seconds = start.elapsed().as_secs_f64();
        diag::notice(&export::preprocess_line(&reduced.stats, seconds));
    }
    let option_lines = reduced.original.iter().map(|&o| dlx.line_of(o)).collect();
    Ok(DlxFile {
        problem: reduced.problem,
        option_lines,
        warnings: dlx.warnings,
    })
}

/// 128 + the signal after an interrupt (130 for Ctrl-C), else success.
fn interrupted_or_success() -> ExitCode {
    crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::SUCCESS)
}

/// Runs the search and writes every solution as it is found (the progress line counts them).
/// A write error (a closed pipe, a full disk) stops the search and is returned.
fn list(
    dlx: &DlxFile,
    plan: &Plan,
    format: Format,
    out: &mut Output,
    pb: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Outcome, Option<SplitInfo>)> {
    let mut number = 0u64;
    let mut failure: Option<std::io::Error> = None;
    let mut w = SolutionWriter::new(out, format, dlx, false)?;
    let outcome = run::list(&dlx.problem, plan, |s: &[OptionId]| {
        number += 1;
        // Every 1024th, and the first ones.
        if let Some(pb) = pb
            && (number < 1024 || number.is_multiple_of(1024))
        {
            pb.set_message(format!("{number} solutions"));
        }
        match w.write(number, None, s) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    match failure {
        Some(e) => Err(e.into()),
        None => {
            w.end()?;
            Ok(outcome)
        }
    }
}
