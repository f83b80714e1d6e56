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
//! The flags ([`super::solve_args`]) are turned into decisions once (a [`Task`], the engine's
//! [`Plan`], a [`solve_zdd::Request`]); the library runs the search and io's exporters
//! ([`crate::io::solve`]) write its results.
//!
//! Warnings (ignored options), budget notices and `--stats` (Knuth's `Altogether ...` line) go
//! to stderr. Exit 0 when the search ran (also with no solutions, or stopped by a budget), 2 on
//! bad input or usage. docs/formats.md is the table of the records.

use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

pub use super::solve_args::Args;
use super::solve_args::{MemoArg, Task};
use super::solve_estimate::{self, Shown};
use super::solve_zdd;
use crate::cmd::{InputError, diag};
use crate::engine::optimize::{Keep, Sense};
use crate::engine::preprocess as pre;
use crate::engine::run::{self, Plan};
use crate::engine::{End, OptionId, Outcome, SplitInfo};
use crate::io::dlx_format::{self, DlxFile};
use crate::io::export::Format;
use crate::io::output::Output;
use crate::io::shard;
use crate::io::solve::{self as export, SolutionWriter};
use crate::records::solve as solve_record;
use crate::records::{Status, partial_notice};

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
    let zdd = args.zdd_request();
    if zdd.wanted() {
        return solve_zdd::run(&zdd, &dlx);
    }
    // The time limit counts from here: preprocessing is part of the run.
    let budget = args.budget();
    let task = args.task();
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
    let mut plan = args.plan(budget)?;
    if args.estimate {
        return solve_estimate::run(&dlx.problem, &plan, args.output.as_deref());
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
