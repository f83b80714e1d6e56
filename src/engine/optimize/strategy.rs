//! The strategies of one optimisation ([`Strategy`], run by [`optimize`]): seeds, aiming high
//! first with a floor that descends ([`AimSteps`]), a bound proven beforehand, and workers on
//! threads that share the best found; and the one conclusion of every search ([`conclude`],
//! [`settle`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::Receiver;

use super::bounds::Bound;
use super::branch_bound::{BranchBound, Incumbent, Part, Window, placed, sorted_seed};
use super::types::{Config, Keep, Optimum, Scored, Sense, Status};
use crate::engine::budget::{Budget, End};
use crate::engine::problem::OptionId;
use crate::engine::run::threads;
use crate::engine::search::dlx::Solver;
use crate::engine::stats::Stats;

/// What one optimisation runs with besides its [`Config`] ([`optimize`]): the solutions to
/// start from, whether to aim high first, a floor, a bound proven beforehand, and the
/// threads. `Strategy::new()` is one thread, no seeds, no aims.
pub struct Strategy<'a, 'p, B> {
    /// Known exact covers to start from (e.g. a heuristic's), each a list of options.
    pub seeds: &'a [Vec<OptionId>],
    /// Aim high first (`Keep::Best` with a seed; see [`Strategy::aiming`]).
    pub aim: bool,
    /// Look only for solutions whose gain reaches this (`Keep::Best`; see [`Strategy::floor`]).
    pub floor: Option<i128>,
    /// An upper bound on the gain proven beforehand (e.g. a model's cheap bound of the whole
    /// problem): a search cut short reports it when it proved no better one.
    pub proven: Option<i128>,
    /// One more solver (over the same problem, with the same option order) and bound per
    /// thread besides the main one; empty: one thread.
    pub workers: &'a mut [(Solver<'p>, B)],
}

impl<'p, B> Strategy<'_, 'p, B> {
    /// One thread, no seeds, no aims, no floor.
    pub fn new() -> Self {
        Strategy {
            seeds: &[],
            aim: false,
            floor: None,
            proven: None,
            workers: &mut [],
        }
    }
}

impl<B> Default for Strategy<'_, '_, B> {
    fn default() -> Self {
        Strategy::new()
    }
}

impl<'a, 'p, B> Strategy<'a, 'p, B> {
    /// Starts from these known solutions.
    pub fn seeds(self, seeds: &'a [Vec<OptionId>]) -> Self {
        Strategy { seeds, ..self }
    }

    /// Aims high first: pruning is only as good as the best solution known, and a
    /// heuristic's is often far below the optimum. So the search first asks for solutions of
    /// at least an *aim* just below the root's bound, pruning everything that cannot reach
    /// it. Such a search is small; when it ends without a solution, nothing reaches the aim
    /// (an upper bound one below it is proven) and the aim comes down, by a step sized from
    /// the last two searches so that the next one is about [`AIM_GROWTH`] times larger. The
    /// first search that finds a solution goes on as an ordinary branch and bound from it and
    /// proves its result. If the budget runs out, the best bound proven so far is reported.
    /// Statistics add up over all searches. Only for `Keep::Best` with a seed (otherwise the
    /// search runs as is).
    pub fn aiming(self) -> Self {
        Strategy { aim: true, ..self }
    }

    /// Looks only for the best solution whose gain reaches `floor` (seeds below it are left
    /// out), pruning from the root whatever cannot reach it, with no aims. `Optimal`: the best
    /// solution reaching the floor; `Infeasible`: none reaches it (the bound is then `None`:
    /// the caller knows the floor).
    pub fn floor(self, floor: i128) -> Self {
        Strategy {
            floor: Some(floor),
            ..self
        }
    }

    /// An upper bound on the gain proven beforehand, reported by a search cut short that
    /// proved no better one.
    pub fn proven(self, proven: i128) -> Self {
        Strategy {
            proven: Some(proven),
            ..self
        }
    }

    /// Searches on these threads as well ([`PARALLEL_CUT`]): every search is cut at that
    /// depth below its root; the tree above the cut is searched on the main solver, the
    /// sub-trees below it are handed to the workers, which prune against the best gain any
    /// of them has found. Only for `Keep::Best` without a node or mem budget (otherwise one
    /// thread). The best value, the status and the solution reported are those of the
    /// sequential search: the one with the smallest sorted options if the bound breaks ties
    /// ([`Bound::TIE_BREAK`]), otherwise the first optimal solution in the sequential
    /// search's order. Node counts vary.
    pub fn workers(self, workers: &'a mut [(Solver<'p>, B)]) -> Self {
        Strategy { workers, ..self }
    }
}

/// Branch and bound on `solver` (whose option order should put good options first, see
/// [`best_first`](super::bounds::best_first)) with the `gains` of the options ([`Sense::gains`] of
/// their weights, as the bound was built on), as `config` and `plan` say. A search cut short whose
/// best solution reaches the bound it proved is reported `Optimal`, so a value equals its bound
/// only then.
///
/// The solver is left as it was found (forced options stay forced and are part of every
/// solution).
pub fn optimize<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    plan: Strategy<'_, 'p, B>,
) -> Optimum {
    let Strategy {
        seeds,
        aim,
        floor,
        proven,
        workers,
    } = plan;
    let mut found = match floor {
        Some(floor) => optimize_floor_parallel(solver, gains, bound, workers, config, seeds, floor),
        None if aim => optimize_aiming_parallel(solver, gains, bound, workers, config, seeds),
        None => optimize_gains_parallel(solver, gains, bound, workers, config, seeds),
    };
    if let Some(proven) = proven
        && matches!(found.status, Status::Feasible | Status::Unknown)
    {
        let sense = config.sense;
        let gain = found.bound.map_or(proven, |b| sense.value(b).min(proven));
        found.bound = Some(sense.value(gain));
        found = settle(config.keep, found);
    }
    found
}

/// One search from `seeds` with nothing else ([`optimize`]).
pub(in crate::engine) fn optimize_gains<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    settle(
        config.keep,
        search(solver, gains, bound, config, seeds, Window::default()),
    )
}

/// A search cut short whose best solution reaches the bound it proved is optimal after all
/// (`Keep::Best`; under the other modes the rest of the list is not proven): so a reported
/// value equals its bound only when the status is `Optimal`.
pub(crate) fn settle(keep: Keep, mut optimum: Optimum) -> Optimum {
    if keep == Keep::Best
        && optimum.status == Status::Feasible
        && optimum.bound.is_some()
        && optimum.bound == optimum.value()
    {
        optimum.status = Status::Optimal;
    }
    optimum
}

/// [`Strategy::aiming`] on one thread.
pub(super) fn optimize_aiming<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    if config.keep != Keep::Best || seeds.is_empty() {
        // Nothing to aim from (the aims are measured against the best seed).
        return settle(
            config.keep,
            search(solver, gains, bound, config, seeds, Window::default()),
        );
    }
    let probe = probe(solver, gains, bound, config, seeds);
    let found = aim_loop(config, probe, &mut |window, config, found| {
        search(solver, gains, bound, config, &with(seeds, found), window)
    });
    settle(config.keep, found)
}

/// [`Strategy::aiming`] with [`Strategy::workers`] (one thread without workers, in other modes than
/// `Keep::Best`, and with a node or mem budget).
pub(super) fn optimize_aiming_parallel<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let limited = config.budget.nodes.is_some() || config.budget.mems.is_some();
    if workers.is_empty() || limited || config.keep != Keep::Best || seeds.is_empty() {
        return optimize_aiming(solver, gains, bound, config, seeds);
    }
    let probe = probe(solver, gains, bound, config, seeds);
    let found = aim_loop(config, probe, &mut |window, config, found| {
        let seeds = with(seeds, found);
        search_parallel(solver, bound, workers, gains, config, &seeds, window)
    });
    settle(config.keep, found)
}

/// One search on several threads, without aims ([`Strategy::workers`]; `xcover solve --threads`).
pub(super) fn optimize_gains_parallel<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let limited = config.budget.nodes.is_some() || config.budget.mems.is_some();
    if workers.is_empty() || limited || config.keep != Keep::Best {
        return optimize_gains(solver, gains, bound, config, seeds);
    }
    let found = search_parallel(
        solver,
        bound,
        workers,
        gains,
        config,
        seeds,
        Window::default(),
    );
    settle(config.keep, found)
}

/// Depth (below the root) at which a search on several threads is cut ([`Strategy::workers`]).
pub const PARALLEL_CUT: usize = 3;

/// A search of the root node only, for its bound (with the seeds as the solutions known).
pub(super) fn probe<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
) -> Optimum {
    let config = Config {
        budget: Budget {
            nodes: Some(1),
            ..config.budget.clone()
        },
        ..config.clone()
    };
    search(solver, gains, bound, &config, seeds, Window::default())
}

/// How many times larger than the last each next search of an [`AimSteps`] series is sized.
/// Measured on nine proofs (weighted n-queens, n = 28..40, one thread): without the bound's
/// memo of node states 2.7, 4, 6 and 10 gave 1.21 M, 1.06 M, 1.06 M and 1.23 M nodes; with
/// it (a later search restarts the earlier ones' nodes cheaply) 6 took 61.0 s against 65.3 s
/// for 4, and less time on each of the nine; 2 and 3 took 98 s and 80 s; n = 40 on two threads 6 beat 4
/// and 8 on three boards.
pub const AIM_GROWTH: f64 = 6.0;

/// The steps of a descending series of floor searches: [`Strategy::aiming`]'s aims, and any
/// caller's descent of a bound by floor searches. The size of a search grows about
/// exponentially as its floor comes down, so after a search that found nothing the next step
/// is sized from the last two searches for the next search to be about [`AIM_GROWTH`] times
/// larger
/// than the last (at most twice the previous step, at least 1). The series starts from the
/// root, counted as a search of one node at `upper + 1`.
#[derive(Clone, Copy, Debug)]
pub struct AimSteps {
    step: i128,
    /// The last search's floor and nodes.
    last: (i128, u64),
    /// ln(nodes) per unit of floor between the last two searches (0 before two).
    rate: f64,
}

impl AimSteps {
    /// The series below a proven `upper`, with a first step of `first` (at least 1).
    pub fn new(upper: i128, first: i128) -> AimSteps {
        AimSteps {
            step: first.max(1),
            last: (upper.saturating_add(1), 1),
            rate: 0.0,
        }
    }

    /// The step below the proven bound for the next floor.
    pub fn step(&self) -> i128 {
        self.step
    }

    /// After a search at `floor` that found nothing, in `nodes` nodes: the next step.
    pub fn failed(&mut self, floor: i128, nodes: u64) {
        let units = (self.last.0 - floor) as f64;
        let rate = (nodes.max(1) as f64 / self.last.1 as f64).ln() / units;
        let next = if rate > 0.0 {
            (AIM_GROWTH.ln() / rate).round() as i128
        } else {
            2 * self.step
        };
        self.step = next.clamp(1, 2 * self.step);
        self.last = (floor, nodes.max(1));
        self.rate = rate.max(0.0);
    }

    /// Caps the step so that the next search, predicted from the growth rate, takes at most
    /// `room` times the last search's time (for a caller with a deadline: a search that
    /// cannot finish proves nothing). Keeps at least 1.
    pub fn fit(&mut self, room: f64) {
        if self.rate > 0.0 && room.is_finite() {
            let most = (room.max(1.0).ln() / self.rate).floor() as i128;
            self.step = self.step.min(most).max(1);
        }
    }
}

/// One search of [`aim_loop`]: its window, its config, and a solution an aim found to start
/// from (besides the seeds).
pub(super) type AimSearch<'a> = dyn FnMut(Window, &Config, Option<&[OptionId]>) -> Optimum + 'a;

/// The seeds and a solution found by an aim, to start the next search from.
fn with(seeds: &[Vec<OptionId>], found: Option<&[OptionId]>) -> Vec<Vec<OptionId>> {
    let mut all = seeds.to_vec();
    all.extend(found.map(<[OptionId]>::to_vec));
    all
}

/// The aims of [`Strategy::aiming`], after the root's `probe`; `run(window, config, found)` is
/// one search, starting from the seeds and `found` (a solution an aim found, if any).
///
/// With a deadline the aims get the first half of the time (an aim cut short without a
/// solution has nothing to show, while the ordinary search keeps improving on the seed); the
/// ordinary search gets the rest, whatever happened to the aims: an aim cut short by the
/// aims' half with a solution reaching it hands that solution to the ordinary search, which
/// goes on from it until it proves it or the deadline comes. So a deadline is spent to the
/// end unless the search ends first.
pub(super) fn aim_loop(config: &Config, probe: Optimum, run: &mut AimSearch<'_>) -> Optimum {
    if probe.status != Status::Feasible {
        // Solved at the root: nothing to aim at.
        return probe;
    }
    let sense = config.sense;
    let seed_gain = probe.solutions.first().map(|s| sense.value(s.value));
    let mut upper = match probe.bound {
        Some(b) => sense.value(b),
        None => return probe,
    };
    let mut stats = probe.stats;
    // A solution an aim found before the aims' time ran out, for the ordinary search.
    let mut carried: Option<Vec<OptionId>> = None;
    if let Some(floor) = seed_gain {
        let mut steps = AimSteps::new(upper, (upper - floor) >> 5);
        let start = std::time::Instant::now();
        let aims_until = config
            .budget
            .deadline
            .map(|d| start + d.saturating_duration_since(start) / 2);
        loop {
            let aim = upper + 1 - steps.step();
            if aim <= floor || aims_until.is_some_and(|t| std::time::Instant::now() >= t) {
                break;
            }
            let aim_config = &Config {
                budget: Budget {
                    deadline: aims_until.or(config.budget.deadline),
                    ..config.budget.clone()
                },
                ..config.clone()
            };
            // `upper` is proven (by the root, or by the aims that failed): a search can stop
            // at the first solution that reaches it.
            let window = Window {
                floor: Some(aim),
                ceiling: Some(upper),
            };
            let mut found = run(window, aim_config, None);
            let nodes = found.stats.nodes().max(1);
            stats += found.stats;
            found.stats = stats;
            match found.status {
                Status::Optimal if found.value().is_some_and(|v| sense.value(v) >= aim) => {
                    return found;
                }
                Status::Optimal => {
                    // Nothing reaches the aim.
                    upper = aim - 1;
                    steps.failed(aim, nodes);
                }
                Status::Feasible | Status::Unknown
                    if found.value().is_some_and(|v| sense.value(v) >= aim) =>
                {
                    // Cut short by the aims' half of the time, not by the budget: the
                    // ordinary search goes on from the solution found.
                    let aims_over = aims_until.is_some_and(|t| std::time::Instant::now() >= t);
                    if aims_over && config.budget.out_of_time().is_none() {
                        carried = found.solutions.first().map(|s| s.options.clone());
                        break;
                    }
                    // Out of the budget with a solution reaching the aim.
                    found.bound = Some(sense.value(upper.max(seed_gain.unwrap_or(upper))));
                    return found;
                }
                _ => {
                    // Out of the aims' time: the ordinary search gets the rest.
                    break;
                }
            }
        }
    }
    let window = Window {
        floor: None,
        ceiling: Some(upper),
    };
    let mut last = run(window, config, carried.as_deref());
    stats += last.stats;
    last.stats = stats;
    if last.status == Status::Feasible {
        // The bound of the last search is its root's; the aims may have proven a better one.
        let b = last
            .bound
            .map(|b| sense.value(b))
            .unwrap_or(upper)
            .min(upper);
        let best = last.value().map(|v| sense.value(v)).unwrap_or(b);
        last.bound = Some(sense.value(b.max(best)));
    }
    last
}

/// What a worker of [`search_parallel`] brings back: what it kept, its statistics, and
/// whether every part it took was searched to the end.
pub(super) type WorkerResult = (Vec<Incumbent>, Stats, bool);

/// One search of [`Strategy::workers`] (`Keep::Best`).
pub(super) fn search_parallel<'p, B: Bound + Send>(
    main: &mut Solver<'p>,
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    gains: &[i128],
    config: &Config,
    seeds: &[Vec<OptionId>],
    window: Window,
) -> Optimum {
    let shared = Mutex::new(None);
    // The tree above the cut, searched here while the workers search the nodes at the cut,
    // which it sends them in order.
    let mut top = BranchBound::new(gains, bound, config.keep);
    top.set_watch(&config.budget);
    top.aim(window);
    top.shared = Some(&shared);
    top.cut = Some(main.forced().len() + PARALLEL_CUT);
    for seed in seeds {
        let (gain, s) = sorted_seed(seed, gains);
        top.offer(gain, &s, 0);
    }
    let (sender, receiver) = crossbeam_channel::bounded::<(u64, Part)>(2 * workers.len());
    top.part_sender = Some(sender);
    let stop = AtomicBool::new(false);
    let (stop, shared) = (&stop, &shared);
    let work = |((solver, bound), receiver): (&mut (Solver<'p>, B), Receiver<(u64, Part)>)| {
        let mut bb = BranchBound::new(gains, bound, Keep::Best);
        bb.set_watch(&config.budget);
        bb.aim(window);
        bb.shared = Some(shared);
        let mut stats = Stats::default();
        let mut complete = true;
        while !stop.load(Ordering::Relaxed) {
            // Ends when the top has sent its last part and hung up.
            let Ok((k, (prefix, excluded))) = receiver.recv() else {
                break;
            };
            bb.part_place = 2 * k + 2;
            let o = solver.run_subproblem_without(&prefix, &excluded, &config.budget, &mut bb);
            stats += o.stats;
            config.budget.stop.progress().part_done();
            if o.end != End::Exhausted || bb.was_late() {
                complete = false;
                stop.store(true, Ordering::Relaxed);
            }
        }
        (placed(bb.kept, bb.kept_place), stats, complete)
    };
    // Only the workers hold the receiving end: once they have all stopped, the top's sending
    // fails and it stops too.
    let receivers: Vec<_> = workers.iter().map(|_| receiver.clone()).collect();
    drop(receiver);
    let mine = workers.iter_mut().zip(receivers);
    let (outcome, results): (_, Vec<WorkerResult>) = threads::beside(mine, work, || {
        let outcome = main.run(&config.budget, &mut top);
        top.part_sender = None;
        outcome
    });
    let mut stats = outcome.stats;
    let mut complete = outcome.end == End::Exhausted && !top.was_late();
    let mut kept: Vec<Incumbent> = placed(std::mem::take(&mut top.kept), top.kept_place);
    let root = top.root_bound.flatten();
    for (k, s, c) in results {
        kept.extend(k);
        stats += s;
        complete &= c;
    }
    // The best gain; among equals the one `Incumbent::wins` prefers, whichever thread found
    // it.
    let best = kept
        .into_iter()
        .reduce(|a, b| if b.wins::<B>(&a) { b } else { a });
    let kept = best.map(|b| (b.gain, b.options)).into_iter().collect();
    conclude(config.sense, kept, complete, root, stats)
}

/// The result of a search that was `complete` (or not), kept `kept` (gains, best first) and
/// had `root` as the bound at its root: its status, the solutions in weight units, and the
/// bound (the best value when optimal, the root's when cut short). `optimal_count` is left
/// to the caller.
pub(crate) fn conclude(
    sense: Sense,
    kept: Vec<(i128, Vec<OptionId>)>,
    complete: bool,
    root: Option<i128>,
    stats: Stats,
) -> Optimum {
    let best_gain = kept.first().map(|k| k.0);
    let status = match (complete, best_gain) {
        (true, Some(_)) => Status::Optimal,
        (true, None) => Status::Infeasible,
        (false, Some(_)) => Status::Feasible,
        (false, None) => Status::Unknown,
    };
    let bound_gain = match status {
        Status::Optimal => best_gain,
        Status::Infeasible => None,
        // Only a bound the search proved: never the best found (no proof that nothing is
        // better), none when the root's bound was not computed.
        _ => root.map(|r| match best_gain {
            Some(b) => r.max(b),
            None => r,
        }),
    };
    Optimum {
        status,
        solutions: kept
            .into_iter()
            .map(|(g, o)| Scored {
                value: sense.value(g),
                options: o,
            })
            .collect(),
        optimal_count: None,
        bound: bound_gain.map(|g| sense.value(g)),
        stats,
    }
}

pub(super) fn search<B: Bound>(
    solver: &mut Solver<'_>,
    gains: &[i128],
    bound: &mut B,
    config: &Config,
    seeds: &[Vec<OptionId>],
    window: Window,
) -> Optimum {
    assert_eq!(
        gains.len(),
        solver.problem().option_count(),
        "one weight per option"
    );
    let mut bb = BranchBound::new(gains, bound, config.keep);
    bb.set_watch(&config.budget);
    if config.keep == Keep::Best {
        bb.aim(window);
    }
    let mut best_seed: Option<(i128, Vec<OptionId>)> = None;
    for seed in seeds {
        let (gain, s) = sorted_seed(seed, gains);
        if let Keep::AllOptimal { .. } = config.keep {
            // Under AllOptimal the search meets the seeds again and counts them then; they
            // only raise the floor here.
            if best_seed.as_ref().is_none_or(|b| gain > b.0) {
                bb.floor = Some(gain);
                best_seed = Some((gain, s));
            }
        } else {
            bb.offer(gain, &s, 0);
        }
    }
    let outcome = solver.run(&config.budget, &mut bb);
    let complete = outcome.end == End::Exhausted && !bb.was_late();
    let mut kept = std::mem::take(&mut bb.kept);
    if let Keep::AllOptimal { limit } = config.keep {
        if let Some((g, s)) = best_seed {
            // A search cut short may not have met the seed again.
            if kept.first().is_none_or(|k| g > k.0) {
                kept = vec![(g, s)];
                bb.ties = 1;
            }
        }
        kept.truncate(limit.max(1));
    }
    let root = bb.root_bound.flatten();
    let mut optimum = conclude(config.sense, kept, complete, root, outcome.stats);
    optimum.optimal_count = match (config.keep, optimum.status) {
        (Keep::AllOptimal { .. }, Status::Optimal) => Some(bb.ties),
        (Keep::AllOptimal { .. }, Status::Infeasible) => Some(0),
        _ => None,
    };
    optimum
}

/// [`Strategy::floor`], on the `workers` when there are some (one thread in other modes than
/// `Keep::Best` and with a node or mem budget).
pub(super) fn optimize_floor_parallel<'p, B: Bound + Send>(
    solver: &mut Solver<'p>,
    gains: &[i128],
    bound: &mut B,
    workers: &mut [(Solver<'p>, B)],
    config: &Config,
    seeds: &[Vec<OptionId>],
    floor: i128,
) -> Optimum {
    let limited = config.budget.nodes.is_some() || config.budget.mems.is_some();
    let window = Window {
        floor: Some(floor),
        ceiling: None,
    };
    // A seed below the floor would be reported as the best: only those reaching it count.
    let seeds: Vec<Vec<OptionId>> = seeds
        .iter()
        .filter(|s| sorted_seed(s, gains).0 >= floor)
        .cloned()
        .collect();
    let seeds = &seeds[..];
    let found = if workers.is_empty() || limited || config.keep != Keep::Best {
        search(solver, gains, bound, config, seeds, window)
    } else {
        search_parallel(solver, bound, workers, gains, config, seeds, window)
    };
    settle(config.keep, found)
}

#[cfg(test)]
mod tests {
    use super::{AimSteps, Window, aim_loop};
    use crate::engine::Budget;
    use crate::engine::optimize::{Config, Keep, Optimum, Scored, Sense, Status};
    use crate::engine::problem::OptionId;
    use crate::engine::stats::Stats;
    use std::time::{Duration, Instant};

    fn optimum(status: Status, value: Option<i128>, bound: Option<i128>) -> Optimum {
        Optimum {
            status,
            solutions: value
                .map(|v| Scored {
                    value: v,
                    options: vec![OptionId(v as u32)],
                })
                .into_iter()
                .collect(),
            optimal_count: None,
            bound,
            stats: Stats::default(),
        }
    }

    /// An aim cut short by the aims' half of the deadline with a solution reaching it does
    /// not end the optimisation: the ordinary search goes on from that solution with the
    /// whole deadline (it used to return at half the time limit). No timing is asserted: the
    /// searches are stand-ins that report what they were given.
    #[test]
    fn an_aim_cut_short_with_a_solution_hands_it_to_the_ordinary_search() {
        let deadline = Instant::now() + Duration::from_millis(200);
        let config = Config {
            sense: Sense::Maximize,
            keep: Keep::Best,
            budget: Budget {
                deadline: Some(deadline),
                ..Budget::unlimited()
            },
        };
        let probe = optimum(Status::Feasible, Some(10), Some(100));
        let mut calls: Vec<(Window, Option<Instant>, Option<Vec<OptionId>>)> = Vec::new();
        let found = aim_loop(&config, probe, &mut |window, config, found| {
            calls.push((window, config.budget.deadline, found.map(<[_]>::to_vec)));
            if window.floor.is_some() {
                // The first aim finds 99 and runs out of the aims' time.
                let until = config.budget.deadline.expect("a deadline");
                std::thread::sleep(until.saturating_duration_since(Instant::now()));
                optimum(Status::Feasible, Some(99), Some(100))
            } else {
                optimum(Status::Optimal, Some(99), Some(99))
            }
        });
        assert_eq!(calls.len(), 2, "{calls:?}");
        let aims_until = calls[0].1.expect("the aims' deadline");
        assert!(aims_until < deadline);
        assert_eq!(calls[1].0.floor, None);
        assert_eq!(
            calls[1].1,
            Some(deadline),
            "the ordinary search gets the rest"
        );
        assert_eq!(
            calls[1].2,
            Some(vec![OptionId(99)]),
            "from the aim's solution"
        );
        assert_eq!(found.status, Status::Optimal);
        assert_eq!(found.value(), Some(99));
    }

    /// Without a deadline an aim cut short (by a node budget) with a solution reports it: the
    /// budget is spent.
    #[test]
    fn an_aim_cut_short_by_the_budget_reports_its_solution() {
        let config = Config {
            sense: Sense::Maximize,
            keep: Keep::Best,
            budget: Budget {
                nodes: Some(5),
                ..Budget::unlimited()
            },
        };
        let probe = optimum(Status::Feasible, Some(10), Some(100));
        let mut calls = 0;
        let found = aim_loop(&config, probe, &mut |_, _, _| {
            calls += 1;
            optimum(Status::Feasible, Some(99), Some(100))
        });
        assert_eq!(calls, 1);
        assert_eq!(found.status, Status::Feasible);
        assert_eq!(found.value(), Some(99));
        assert_eq!(found.bound, Some(100));
    }

    /// Steps grow while the searches grow slowly, at most doubling; a fast-growing search
    /// series gets small steps; `fit` keeps the next search inside the room left.
    #[test]
    fn aim_steps_follow_the_growth_of_the_searches() {
        let mut s = AimSteps::new(100, 1);
        assert_eq!(s.step(), 1);
        // 2 nodes one unit below the root (1 node): rate ln 2, 6× is 2.6 units, but at most
        // twice the last step.
        s.failed(100, 2);
        assert_eq!(s.step(), 2);
        // Barely growing: the step doubles (no more).
        s.failed(98, 3);
        assert_eq!(s.step(), 4);
        s.failed(94, 3);
        assert_eq!(s.step(), 8);
        // 3 → 3·4^4 nodes over 8 units: rate ln 4 / 2, so 6× is 2.6 units: 3.
        s.failed(86, 3 * 256);
        assert_eq!(s.step(), 3);
        // Room for 16× the last search: ln 16 / (ln 4 / 2) = 4 units, above the step; room for
        // less than 2× leaves 1.
        let mut t = s;
        t.fit(16.0);
        assert_eq!(t.step(), 3);
        t.fit(5.0);
        assert_eq!(t.step(), 2);
        s.failed(84, 3 * 256 * 4);
        assert_eq!(s.step(), 3);
        let mut u = s;
        u.fit(1.5);
        assert_eq!(u.step(), 1);
        u.fit(f64::INFINITY);
        assert_eq!(u.step(), 1);
    }
}
