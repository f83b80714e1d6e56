//! Knuth's estimate of a count's tree in `xcover solve`: `--estimate`, which prints it and the
//! time it means on this machine, and the progress line of a count or an optimisation on
//! a terminal, which it drives.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cmd::InputError;
use crate::engine::estimate::{Probes, SolverWalk, TreeEstimate, Walk};
use crate::engine::optimize::Sense;
use crate::engine::run::{self, CountTree, Plan};
use crate::engine::{End, Problem, Solver};
use crate::io::output::Output;

/// Random probes of `--estimate`, at most...
const ESTIMATE_PROBES: u32 = 10_000;

/// ...and the time they may take (the bitset search's tree costs a probe a try per child:
/// 10,000 probes of the word squares of words-240x4 take 5 s, more than the count).
const ESTIMATE_PROBING: Duration = Duration::from_secs(1);

/// How long `--estimate` times the count's engine.
const ESTIMATE_SAMPLE: Duration = Duration::from_millis(250);

/// The seed of the probes' choices (the same estimate on every run).
const PROBE_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The progress line's probes: the CPU time they take at once, from the start of the count
/// (the first estimate, as good as `--estimate`'s 10,000 probes on the benchmark set)...
const LINE_FIRST_PROBING: Duration = Duration::from_millis(250);

/// ...their share of one core after that (refining the estimate while the count runs,
/// without taking a core from it)...
const LINE_PROBING_SHARE: f64 = 0.02;

/// ...and the length of a burst of probes between sleeps.
const LINE_BURST: Duration = Duration::from_millis(5);

/// Probes the tree a count of `problem` on `plan` searches ([`run::count_tree`]), or the
/// dance's without a tree of its own (DLX2's with `knuth`, else without the options that leave
/// an item no option), giving the estimate so far to `each` after every probe until it
/// breaks.
fn probe_count_tree(
    problem: &Problem,
    tree: Option<CountTree<'_>>,
    knuth: bool,
    mut each: impl FnMut(&TreeEstimate) -> ControlFlow<()>,
) {
    fn go(walk: &mut impl Walk, each: &mut impl FnMut(&TreeEstimate) -> ControlFlow<()>) {
        let mut probes = Probes::new(PROBE_SEED);
        loop {
            probes.probe(walk);
            if each(&probes.estimate()).is_break() {
                return;
            }
        }
    }
    match tree {
        Some(CountTree::Dense(mut walk)) => go(&mut *walk, &mut each),
        tree => {
            let knuth = match tree {
                Some(CountTree::Links { knuth }) => knuth,
                _ => knuth,
            };
            let mut solver = Solver::new(problem);
            if knuth {
                go(&mut SolverWalk::new(&mut solver), &mut each);
            } else {
                go(&mut SolverWalk::without_wipe_outs(&mut solver), &mut each);
            }
        }
    }
}

/// Knuth's estimate of the tree a count of `problem` on `plan` searches, from
/// `ESTIMATE_PROBES` probes or those made in `ESTIMATE_PROBING`.
fn tree_estimate(problem: &Problem, plan: &Plan) -> TreeEstimate {
    let mut last = None;
    let began = Instant::now();
    probe_count_tree(problem, run::count_tree(problem, plan), plan.knuth, |e| {
        last = Some(*e);
        if e.probes >= ESTIMATE_PROBES || began.elapsed() >= ESTIMATE_PROBING {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    last.expect("a probe")
}

/// The progress line's estimate of a count's tree: probes made while the count runs, on a
/// thread of their own, `LINE_FIRST_PROBING` at once and then `LINE_PROBING_SHARE` of a core
/// in bursts, the estimate refined by each (the mean of all so far: a few probes say little
/// of a tree with heavy branches). The thread ends soon after `ended` is set.
fn probe_while_counting(
    problem: Problem,
    plan: Plan,
    estimate: Arc<Mutex<Option<f64>>>,
    ended: Arc<AtomicBool>,
) {
    let Some(tree) = run::count_tree(&problem, &plan) else {
        return;
    };
    let started = Instant::now();
    let (mut busy, mut burst) = (Duration::ZERO, Instant::now());
    probe_count_tree(&problem, Some(tree), plan.knuth, |e| {
        *estimate.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.nodes);
        let now = Instant::now();
        if now - burst < LINE_BURST {
            return ControlFlow::Continue(());
        }
        busy += now - burst;
        // Sleep until the probes' time is within their share again.
        loop {
            if ended.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            let allowed = LINE_FIRST_PROBING.as_secs_f64()
                + LINE_PROBING_SHARE * started.elapsed().as_secs_f64();
            let over = busy.as_secs_f64() - allowed;
            if over <= 0.0 {
                break;
            }
            std::thread::sleep(Duration::from_secs_f64(
                (over / LINE_PROBING_SHARE).min(0.25),
            ));
        }
        burst = Instant::now();
        ControlFlow::Continue(())
    });
}

/// Sets its flag when dropped: the progress line's closure holds it, so the probes end with
/// the line.
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `--estimate`: Knuth's estimate of the tree the count searches ([`run::count_tree`]: the bitset
/// search's or the dance's; [`crate::engine::estimate`]) and the
/// time that means here, from the rate of the count's own engine (with the plan's threads and
/// memo) over `ESTIMATE_SAMPLE`; a count that ends within the sample is reported as it is.
/// Written to `output` (stdout when `None`).
pub fn run(problem: &Problem, plan: &Plan, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    if problem.has_multiplicities() {
        return Err(InputError(
            "--estimate walks the dancing links' tree, which items with multiplicities \
             (u:v|name) do not have: count with a --time-limit instead"
                .into(),
        )
        .into());
    }
    let tree = tree_estimate(problem, plan);
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
}

/// A count shows the nodes searched of its estimated tree and the time left that means
/// ([`super::count_line`]), else, as an optimisation does, the sub-problems done of total and
/// the time left; an optimisation also its best cost and the root's bound. A listing shows its solutions (the
/// listing sets the message itself).
pub fn watch(
    problem: &Problem,
    plan: &Plan,
    pb: Option<&indicatif::ProgressBar>,
    shown: Shown,
) -> Option<super::ProgressWatch> {
    // A count's line is driven by Knuth's estimate of the tree whose nodes its search posts
    // (the bitset search's or the dance's), made on a thread of its own while the count runs
    // (on a terminal only).
    let ended = Arc::new(AtomicBool::new(false));
    let tree = (pb.is_some() && shown.counts && !problem.has_multiplicities()).then(|| {
        let estimate = Arc::new(Mutex::new(None::<f64>));
        let (problem, plan, made, ended) = (
            problem.clone(),
            plan.clone(),
            estimate.clone(),
            ended.clone(),
        );
        std::thread::spawn(move || probe_while_counting(problem, plan, made, ended));
        estimate
    });
    let ends_probes = SetOnDrop(ended);
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
                let _probing = &ends_probes;
                let estimate = tree
                    .as_ref()
                    .and_then(|t| *t.lock().unwrap_or_else(|e| e.into_inner()))
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
