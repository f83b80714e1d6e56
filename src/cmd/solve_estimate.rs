//! Knuth's estimate of a count's tree in `xcover solve`: `--estimate`, which prints it and the
//! time it means on this machine, and the progress line of a count or an optimisation on
//! a terminal, which it drives.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cmd::InputError;
use crate::engine::estimate::{self, SolverWalk, TreeEstimate};
use crate::engine::optimize::Sense;
use crate::engine::run::{self, Plan};
use crate::engine::{End, Problem, Solver};
use crate::io::output::Output;

/// Random probes of `--estimate`.
const ESTIMATE_PROBES: u32 = 10_000;

/// How long `--estimate` times the count's engine.
const ESTIMATE_SAMPLE: Duration = Duration::from_millis(250);

/// Knuth's estimate of the tree a count of `problem` searches: DLX2's with `knuth`, else
/// without the options that leave an item no option (the bitset engine's and the links'
/// default).
fn tree_estimate(problem: &Problem, knuth: bool) -> TreeEstimate {
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
/// memo) over `ESTIMATE_SAMPLE`; a count that ends within the sample is reported as it is.
/// Written to `output` (stdout when `None`).
pub fn run(
    problem: &Problem,
    plan: &Plan,
    knuth: bool,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    if problem.has_multiplicities() {
        return Err(InputError(
            "--estimate walks the dancing links' tree, which items with multiplicities \
             (u:v|name) do not have: count with a --time-limit instead"
                .into(),
        )
        .into());
    }
    let tree = tree_estimate(problem, knuth);
    let mut sample = plan.clone();
    sample.budget.deadline = Some(Instant::now() + ESTIMATE_SAMPLE);
    let began = Instant::now();
    let counted = run::count(problem, &sample);
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
    let mut out = Output::create(output)?;
    writeln!(out, "{line}")?;
    out.finish()?;
    Ok(crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// What a search of `solve` shows while it runs.
#[derive(Clone, Copy, Debug)]
pub struct Shown {
    /// A count (its line is driven by the tree's estimate).
    pub counts: bool,
    /// An optimisation in this sense (its line shows the best cost and the root's bound).
    pub optimises: Option<Sense>,
    /// A listing, which writes its solutions while it works (its line counts them).
    pub streams: bool,
    /// DLX2's tree (`--knuth`).
    pub knuth: bool,
}

/// Counts and optimisations show the sub-problems done of total and the time left; an
/// optimisation also its best cost and the root's bound. A listing shows its solutions (the
/// listing sets the message itself).
pub fn watch(
    problem: &Problem,
    plan: &Plan,
    pb: Option<&indicatif::ProgressBar>,
    shown: Shown,
) -> Option<super::ProgressWatch> {
    // A count's line is driven by Knuth's estimate of its tree, made on a thread of its own
    // while the count runs (on a terminal only), when the count runs on the bitset engine,
    // whose searches post the nodes they enter.
    let dense = !shown.knuth
        && !problem.has_multiplicities()
        && problem.option_count() <= crate::engine::DENSE_MAX_OPTIONS;
    let tree = (pb.is_some() && shown.counts && dense).then(|| {
        let estimate = std::sync::Arc::new(std::sync::OnceLock::<f64>::new());
        let (problem, made) = (problem.clone(), estimate.clone());
        std::thread::spawn(move || {
            let _ = made.set(tree_estimate(&problem, false).nodes);
        });
        estimate
    });
    // The nodes last posted and when they changed: a count whose nodes stop moving has left
    // the bitset engine (for the memo), and its line goes back to the sub-problems.
    let moved = std::sync::Mutex::new((0u64, Duration::ZERO));
    match pb {
        Some(pb) if !shown.streams => {
            Some(super::watch_progress(pb, plan.stop(), move |p, elapsed| {
                let mut s = String::from("searching");
                if let Some(sense) = shown.optimises {
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
            }))
        }
        Some(pb) => {
            pb.set_message("searching");
            None
        }
        None => None,
    }
}
