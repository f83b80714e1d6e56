//! The shard records of `xcover solve --shard I/M` (kinds `solve-count` and `solve-optimize`,
//! see [`super::ShardRecord`]): what a shard's search gives, in the one record type that
//! `xcover merge` reads.

use super::{Hex64, Kind, Shard, ShardRecord, Status};
use crate::engine::optimize::{Optimum, Sense};
use crate::engine::{Outcome, Problem, SplitInfo};

/// The record of a counting shard: the problem's fingerprint, the count and the statistics,
/// the parts counted (`tasks`) and how the search ended.
pub fn count_record(
    problem: &Problem,
    shard: Shard,
    outcome: &Outcome,
    split: Option<&SplitInfo>,
    seconds: f64,
) -> ShardRecord {
    let mut r = ShardRecord::new(Kind::SolveCount, Hex64(problem.fingerprint()), shard);
    r.solutions = u128::from(outcome.stats.solutions());
    r.nodes = outcome.stats.nodes();
    r.updates = Some(outcome.stats.updates());
    r.tasks = split.map_or(1, |s| s.mine as u64);
    r.status = Status::of_end(outcome.end);
    r.seconds = seconds;
    r.seal()
}

/// The record of an optimising shard: as [`count_record`], with the sense, the best value
/// found in the shard, its bound, and the best solution's options as their input lines
/// (`layout`, e.g. `3,17,42`). `lines` gives an option's input line. `stopped_by` says what
/// stopped a search that did not end ([`Status::stopped`]: only a deadline or an interrupt
/// stops a shard).
#[allow(clippy::too_many_arguments)]
pub fn optimize_record(
    problem: &Problem,
    shard: Shard,
    sense: Sense,
    best: &Optimum,
    stopped_by: Status,
    split: Option<&SplitInfo>,
    seconds: f64,
    lines: impl Fn(crate::engine::OptionId) -> usize,
) -> ShardRecord {
    let mut r = ShardRecord::new(Kind::SolveOptimize, Hex64(problem.fingerprint()), shard);
    r.solutions = u128::from(best.stats.solutions());
    r.nodes = best.stats.nodes();
    r.updates = Some(best.stats.updates());
    r.tasks = split.map_or(1, |s| s.mine as u64);
    r.status = Status::of_optimum(best.status, stopped_by);
    r.sense = Some(sense);
    r.value = best.value();
    r.bound = best.bound;
    r.layout = best.solutions.first().map(|s| {
        let mut l: Vec<usize> = s.options.iter().map(|&o| lines(o)).collect();
        l.sort_unstable();
        l.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    });
    r.seconds = seconds;
    r.seal()
}
