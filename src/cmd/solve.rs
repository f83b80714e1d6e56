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
//! - `--zdd FILE`, `--sample K`: the solutions as a ZDD, and uniform draws from it
//!   ([`super::solve_zdd`]).
//!
//! Warnings (ignored options), budget notices and `--stats` (Knuth's `Altogether ...` line) go
//! to stderr. Exit 0 when the search ran (also with no solutions, or stopped by a budget), 2 on
//! bad input or usage. docs/formats.md is the table of the records.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cmd::{InputError, diag};
use crate::engine::estimate::{self, SolverWalk, TreeEstimate};
use crate::engine::optimize::{self, Keep, Optimum, Sense};
use crate::engine::preprocess as pre;
use crate::engine::run::{self, Plan};
use crate::engine::{
    Budget, End, MemoMode, OptionId, Outcome, Solver, SplitInfo, Stats, Stop, structure_bytes,
};
use crate::io::dlx_format::{self, DlxFile};
use crate::io::export::{Format, Writer};
use crate::io::output::Output;
use crate::io::records::{self, write_solution_text};
use crate::io::shard;
use crate::records::rows::{CountRecord, OptimumRecord, SolutionRecord, SummaryRecord};
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
    if super::solve_zdd::wanted(&args) {
        return super::solve_zdd::run(&args, &dlx);
    }
    // The time limit counts from here: preprocessing is part of the run.
    let budget = budget(&args);
    if dlx.problem.has_multiplicities() && (args.minimize || args.maximize || args.shard.is_some())
    {
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
    if args.top.is_some() && !(args.minimize || args.maximize) {
        return Err(InputError("--top needs --minimize or --maximize".into()).into());
    }
    let mut plan = plan(&args, budget)?;
    if args.estimate {
        return estimate(&args, &dlx, &plan);
    }
    let mut out = Output::create(args.output.as_deref())?;
    // Ctrl-C stops the search; what it found is written with status `interrupted`.
    crate::io::output::stop_gracefully_on_interrupt(plan.stop());
    // Solutions so far and the time, on a terminal only.
    let streams = !(args.count || args.minimize || args.maximize);
    let pb = super::progress(
        "{spinner} {msg} {elapsed}",
        None,
        streams,
        args.output.as_deref(),
    );
    plan.stop().progress().reset();
    let _watch = watch(&args, &dlx, &plan, pb.as_ref(), streams);
    if args.minimize || args.maximize {
        plan.budget.solutions = None;
        optimise(&args, &dlx, &plan, out, pb.as_ref())?;
        return Ok(interrupted_or_success());
    }
    let (outcome, split, total) = if args.count {
        count(&args, &dlx, &plan, &mut out, pb.as_ref())?
    } else {
        let r = enumerate(&dlx, &plan, args.format, &mut out, pb.as_ref());
        if let Some(pb) = &pb {
            pb.finish_and_clear();
        }
        let (outcome, split) = r?;
        (outcome, split, outcome.stats.solutions().into())
    };
    report(&args, &dlx, &outcome, split, total, out)?;
    Ok(interrupted_or_success())
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

/// The sense asked for (minimising unless `--maximize`).
fn sense(args: &Args) -> Sense {
    if args.maximize {
        Sense::Maximize
    } else {
        Sense::Minimize
    }
}

/// Counts and optimisations show the sub-problems done of total and the time left; an
/// optimisation also its best cost and the root's bound. A listing shows its solutions
/// ([`enumerate`]).
fn watch(
    args: &Args,
    dlx: &DlxFile,
    plan: &Plan,
    pb: Option<&indicatif::ProgressBar>,
    streams: bool,
) -> Option<super::ProgressWatch> {
    let sense = sense(args);
    let optimises = args.minimize || args.maximize;
    // A count's line is driven by Knuth's estimate of its tree, made on a thread of its own
    // while the count runs (on a terminal only), when the count runs on the bitset engine,
    // whose searches post the nodes they enter.
    let dense = !args.knuth
        && !dlx.problem.has_multiplicities()
        && dlx.problem.option_count() <= crate::engine::DENSE_MAX_OPTIONS;
    let tree = (pb.is_some() && args.count && dense).then(|| {
        let estimate = std::sync::Arc::new(std::sync::OnceLock::<f64>::new());
        let (problem, made) = (dlx.problem.clone(), estimate.clone());
        std::thread::spawn(move || {
            let _ = made.set(tree_estimate(&problem, false).nodes);
        });
        estimate
    });
    // The nodes last posted and when they changed: a count whose nodes stop moving has left
    // the bitset engine (for the memo), and its line goes back to the sub-problems.
    let moved = std::sync::Mutex::new((0u64, Duration::ZERO));
    match pb {
        Some(pb) if !streams => Some(super::watch_progress(pb, plan.stop(), move |p, elapsed| {
            let mut s = String::from("searching");
            if optimises {
                if let Some(v) = p.best {
                    s += &format!(", best cost {}", sense.value(v));
                }
                if let Some(b) = p.bound {
                    s += &format!(", bound {}", sense.value(b));
                }
            }
            let mut m = moved.lock().unwrap_or_else(|e| e.into_inner());
            if m.0 != p.nodes {
                *m = (p.nodes, elapsed);
            }
            let still = elapsed.saturating_sub(m.1) > Duration::from_secs(2);
            let estimate = tree
                .as_ref()
                .and_then(|t| t.get().copied())
                .filter(|_| !still);
            let parts = super::count_line(p, elapsed, estimate);
            if !parts.is_empty() {
                s += ", ";
                s += &parts;
            }
            s
        })),
        Some(pb) => {
            pb.set_message("searching");
            None
        }
        None => None,
    }
}

/// `--minimize`/`--maximize`: the optimum (or a shard's record) to `out`, its status line on
/// stderr.
fn optimise(
    args: &Args,
    dlx: &DlxFile,
    plan: &Plan,
    mut out: Output,
    pb: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<()> {
    let sense = sense(args);
    let keep = match args.top {
        Some(k) => Keep::Top(usize::try_from(k).unwrap_or(usize::MAX)),
        None => Keep::Best,
    };
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
        let status = optimum_status(&best, &plan.budget);
        write_optimum(&mut out, args.format, dlx, &best, status)?;
    }
    out.finish()?;
    diag::notice(&status_line(&best, plan.stop()));
    if args.stats {
        diag::notice(&knuth_line(dlx, &best.stats));
        if let Some(s) = split {
            diag::notice(&split_line(&s));
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
    if counted.end == crate::engine::End::Overflow {
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
        let r = solve_record::count_record(
            &dlx.problem,
            shard,
            &outcome,
            counted.split.as_ref(),
            seconds,
        );
        shard::write_records(&mut *out, [&r], args.format)?;
    } else {
        let status = Status::of_end(outcome.end);
        write_count(out, args.format, counted.count, status)?;
    }
    if args.stats
        && let Some(m) = counted.memo
    {
        diag::notice(&format!(
            "memo: {} hits, {} stores, {} evictions, {} nodes saved, {} bytes",
            m.hits, m.stores, m.evictions, m.nodes_saved, m.bytes
        ));
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
    let bytes = structure_bytes(&dlx.problem, outcome.stats.max_level());
    if args.stats
        && !(args.count && args.shard.is_some())
        && let Ok(mut w) = Writer::new(args.format, &mut out, true)
    {
        let mut summary = SummaryRecord::new(status, &outcome.stats, bytes);
        if args.count {
            summary.solutions = total;
        }
        w.trailer(&summary)?;
        w.end()?;
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
        diag::notice(&outcome.stats.knuth_line_of(total, bytes));
        if let Some(s) = split {
            diag::notice(&split_line(&s));
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
        let s = &reduced.stats;
        diag::notice(&format!(
            "preprocess: removed {} of {} options in {} rounds, {} work, {:.3}s{}",
            s.options_removed,
            s.options_before,
            s.rounds,
            s.work,
            start.elapsed().as_secs_f64(),
            if s.complete {
                ""
            } else {
                " (stopped by the work limit)"
            }
        ));
    }
    let option_lines = reduced.original.iter().map(|&o| dlx.line_of(o)).collect();
    Ok(DlxFile {
        problem: reduced.problem,
        option_lines,
        warnings: dlx.warnings,
    })
}

/// Random probes of `--estimate`.
const ESTIMATE_PROBES: u32 = 10_000;

/// How long `--estimate` times the count's engine.
const ESTIMATE_SAMPLE: Duration = Duration::from_millis(250);

/// Knuth's estimate of the tree a count of `problem` searches: DLX2's with `knuth`, else
/// without the options that leave an item no option (the bitset engine's and the links'
/// default).
fn tree_estimate(problem: &crate::engine::Problem, knuth: bool) -> TreeEstimate {
    let mut solver = Solver::new(problem);
    let mut walk = if knuth {
        SolverWalk::new(&mut solver)
    } else {
        SolverWalk::without_wipe_outs(&mut solver)
    };
    estimate::estimate(&mut walk, ESTIMATE_PROBES, 0x9e37_79b9_7f4a_7c15)
}

/// `--estimate`: Knuth's estimate of the search tree ([`crate::engine::estimate`]) and the
/// time that means here, from the rate of the count's own engine (with the plan's threads and
/// memo) over [`ESTIMATE_SAMPLE`]; a count that ends within the sample is reported as it is.
fn estimate(args: &Args, dlx: &DlxFile, plan: &Plan) -> anyhow::Result<ExitCode> {
    if dlx.problem.has_multiplicities() {
        return Err(InputError(
            "--estimate walks the dancing links' tree, which items with multiplicities \
             (u:v|name) do not have: count with a --time-limit instead"
                .into(),
        )
        .into());
    }
    let tree = tree_estimate(&dlx.problem, args.knuth);
    let mut sample = plan.clone();
    sample.budget.deadline = Some(Instant::now() + ESTIMATE_SAMPLE);
    let began = Instant::now();
    let counted = run::count(&dlx.problem, &sample);
    let seconds = began.elapsed().as_secs_f64().max(1e-6);
    let nodes = counted.stats.nodes();
    let threads = plan.thread_count();
    let mut line = format!(
        "estimate: tree~{:.3e} nodes (±{:.0}%, {} probes)",
        tree.nodes,
        100.0 * tree.std_error / tree.nodes.max(1.0),
        tree.probes
    );
    if counted.end == End::Exhausted {
        line += &format!(
            "; the count ended within the sample: {} solutions, {nodes} nodes in {}",
            counted.count,
            super::queens_count::human(seconds)
        );
    } else {
        let rate = nodes as f64 / seconds;
        line += &format!(
            "; about {} on {threads} thread{} on this machine ({:.2e} nodes/s over {:.2} s; \
             rough: within a factor of a few, less where the memo pays)",
            super::queens_count::human(tree.nodes / rate.max(1.0)),
            if threads == 1 { "" } else { "s" },
            rate,
            seconds
        );
    }
    let mut out = Output::create(args.output.as_deref())?;
    writeln!(out, "{line}")?;
    out.finish()?;
    Ok(interrupted_or_success())
}

/// 128 + the signal after an interrupt (130 for Ctrl-C), else success.
fn interrupted_or_success() -> ExitCode {
    crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::SUCCESS)
}

/// Knuth's `Altogether ...` line of a search of the file's problem.
fn knuth_line(dlx: &DlxFile, stats: &Stats) -> String {
    stats.knuth_line(structure_bytes(&dlx.problem, stats.max_level()))
}

/// `--stats` on threads or in a shard: how the search was split.
fn split_line(s: &SplitInfo) -> String {
    format!(
        "sub-problems={} parts={}/{} depth={} threads={}",
        s.subproblems, s.mine, s.parts, s.depth, s.threads
    )
}

/// The `solution` records of a stream: a solution's number, cost (when optimising), options as
/// written and input lines, in buffers kept from one solution to the next.
#[derive(Default)]
struct Solutions {
    texts: Vec<String>,
    lines: Vec<usize>,
}

impl Solutions {
    fn record(
        &mut self,
        dlx: &DlxFile,
        solution: u64,
        cost: Option<i128>,
        options: &[OptionId],
    ) -> SolutionRecord<'_> {
        self.texts.clear();
        self.texts
            .extend(options.iter().map(|&o| dlx.problem.format_option(o)));
        self.lines.clear();
        self.lines.extend(options.iter().map(|&o| dlx.line_of(o)));
        SolutionRecord {
            solution,
            cost,
            options: &self.texts,
            lines: &self.lines,
        }
    }
}

/// Begins a stream of solutions from one like them (one option, a cost when optimising): the
/// CSV header.
fn begin_solutions(w: &mut Writer<&mut Output>, cost: Option<i128>) -> std::io::Result<()> {
    w.begin(&SolutionRecord {
        solution: 0,
        cost,
        options: &[String::new()],
        lines: &[0],
    })
}

/// Where `solve` writes its solutions: the writer chosen once from the format.
enum Sink<'o> {
    /// DLX1's text.
    Text(&'o mut Output),
    /// A record per solution.
    Records(Writer<&'o mut Output>),
}

fn write_count(
    out: &mut Output,
    format: Format,
    count: u128,
    status: Status,
) -> anyhow::Result<()> {
    match Writer::new(format, out, true) {
        Ok(mut w) => {
            w.record(&CountRecord {
                solutions: count,
                status,
            })?;
            w.end()?;
        }
        Err(out) => {
            let record = CountRecord {
                solutions: count,
                status,
            };
            records::write_count_text(out, count, status, |out| {
                records::write_solve_count_text(out, &record)
            })?
        }
    }
    Ok(())
}

/// Runs the search and writes every solution as it is found. A write error (a closed pipe,
/// a full disk) stops the search and is returned.
fn enumerate(
    dlx: &DlxFile,
    plan: &Plan,
    format: Format,
    out: &mut Output,
    pb: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Outcome, Option<SplitInfo>)> {
    let problem = &dlx.problem;
    let mut number = 0u64;
    // The progress line counts the solutions written (every 1024th, and the first ones).
    let tick = |number: u64| {
        if let Some(pb) = pb
            && (number < 1024 || number.is_multiple_of(1024))
        {
            pb.set_message(format!("{number} solutions"));
        }
    };
    let mut failure: Option<anyhow::Error> = None;
    // The writer, chosen once: records, or DLX1's text.
    let mut sink = match Writer::new(format, out, true) {
        Ok(mut w) => {
            begin_solutions(&mut w, None)?;
            Sink::Records(w)
        }
        Err(out) => Sink::Text(out),
    };
    let mut solutions = Solutions::default();
    let outcome = run::list(problem, plan, |s: &[OptionId]| {
        number += 1;
        tick(number);
        let r = solutions.record(dlx, number, None, s);
        let r = match &mut sink {
            Sink::Records(w) => w.record(&r),
            Sink::Text(out) => write_solution_text(out, &r),
        };
        stop_on_error(r.map_err(Into::into), &mut failure)
    });
    match failure {
        Some(e) => Err(e),
        None => {
            if let Sink::Records(w) = sink {
                w.end()?;
            }
            Ok(outcome)
        }
    }
}

fn stop_on_error(r: anyhow::Result<()>, failure: &mut Option<anyhow::Error>) -> ControlFlow<()> {
    match r {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            *failure = Some(e);
            ControlFlow::Break(())
        }
    }
}

/// One line for stderr saying what the result is.
fn status_line(best: &Optimum, stop: &Stop) -> String {
    let why = if stop.requested() {
        "interrupted"
    } else {
        "a budget ran out"
    };
    match (best.status, best.value(), best.bound) {
        (optimize::Status::Optimal, Some(v), _) => format!("optimal: cost {v} (proven)"),
        (optimize::Status::Feasible, Some(v), Some(b)) => {
            format!("feasible: cost {v}, bound {b} ({why} before the proof)")
        }
        (optimize::Status::Feasible, Some(v), None) => {
            format!("feasible: cost {v}, no bound ({why} before the proof)")
        }
        (optimize::Status::Unknown, _, Some(b)) => {
            format!("unknown: no solution found ({why}; bound {b})")
        }
        (optimize::Status::Unknown, _, None) => {
            format!("unknown: no solution found ({why}; no bound)")
        }
        _ => "infeasible: the problem has no exact cover".to_string(),
    }
}

/// The kept solutions, best first: text as DLX1 prints solutions with the cost in the heading
/// (`1: cost 5`), CSV `solution,cost,position,line,option`, or JSON Lines solution records
/// followed by an `optimum` record (status, cost, bound).
fn write_optimum(
    out: &mut Output,
    format: Format,
    dlx: &DlxFile,
    best: &Optimum,
    status: Status,
) -> anyhow::Result<()> {
    let number = |k: usize| k as u64 + 1;
    let mut solutions = Solutions::default();
    match Writer::new(format, out, true) {
        Ok(mut w) => {
            begin_solutions(&mut w, Some(0))?;
            for (k, s) in best.solutions.iter().enumerate() {
                w.record(&solutions.record(dlx, number(k), Some(s.value), &s.options))?;
            }
            w.trailer(&OptimumRecord {
                status,
                cost: best.value(),
                bound: best.bound,
                solutions: best.solutions.len(),
                nodes: best.stats.nodes(),
                updates: best.stats.updates(),
                mems: best.stats.mems(),
            })?;
            w.end()?;
        }
        Err(out) => {
            for (k, s) in best.solutions.iter().enumerate() {
                let r = solutions.record(dlx, number(k), Some(s.value), &s.options);
                write_solution_text(&mut *out, &r)?;
            }
        }
    }
    Ok(())
}

/// The status word of an optimum. When no solution was found before a budget ran out, the
/// optimiser does not say which budget: the statistics against the budget do.
fn optimum_status(best: &Optimum, budget: &Budget) -> Status {
    let stopped_by = if budget.stop.requested() {
        Status::Interrupted
    } else if budget.nodes.is_some_and(|n| best.stats.nodes() >= n) {
        Status::Nodes
    } else if budget.mems.is_some_and(|m| best.stats.mems() >= m) {
        Status::Mems
    } else {
        Status::Time
    };
    Status::of_optimum(best.status, stopped_by)
}
