//! The status word: how a result ended, in the `status` field of every record that may be
//! partial (counts, optima, shards). One enum, so that a count and a shard of it cannot spell
//! the same ending two ways.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::engine::End;
use crate::engine::optimize;

/// How a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A count that ran to the end.
    Complete,
    /// Stopped by the solution limit.
    Limit,
    /// Stopped by the time limit.
    Time,
    /// Stopped by the node budget.
    Nodes,
    /// Stopped by the mem budget.
    Mems,
    /// Optimisation: the best value is proved.
    Optimal,
    /// Optimisation: a value was found, not proved best (a budget ran out; a bound says how
    /// far it may be off).
    Feasible,
    /// Optimisation: proved to have no solution.
    Infeasible,
    /// Optimisation from a floor (`queens max --floor F`): proved that no solution reaches
    /// the floor (the bound is `F − 1`).
    BelowFloor,
    /// Stopped by an interrupt (SIGINT, SIGTERM): a count is a lower bound; an optimum is the
    /// best found, with the bound proven so far.
    Interrupted,
    /// A count that would not fit in 128 bits: refused, never wrapped.
    Overflow,
}

impl Status {
    /// Every status, in the order of the declaration.
    pub const ALL: [Status; 11] = [
        Status::Complete,
        Status::Limit,
        Status::Time,
        Status::Nodes,
        Status::Mems,
        Status::Optimal,
        Status::Feasible,
        Status::Infeasible,
        Status::BelowFloor,
        Status::Interrupted,
        Status::Overflow,
    ];

    /// The word in the records (`complete`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Limit => "limit",
            Status::Time => "time",
            Status::Nodes => "nodes",
            Status::Mems => "mems",
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::BelowFloor => "below-floor",
            Status::Interrupted => "interrupted",
            Status::Overflow => "overflow",
        }
    }

    /// Whether the search finished (nothing left unexplored).
    pub fn finished(self) -> bool {
        matches!(
            self,
            Status::Complete | Status::Optimal | Status::Infeasible | Status::BelowFloor
        )
    }

    /// How a search ended. A visitor's stop (a write error) reads as the solution limit: the
    /// output is cut short either way.
    pub fn of_end(end: End) -> Status {
        match end {
            End::Exhausted => Status::Complete,
            End::SolutionLimit | End::Stopped => Status::Limit,
            End::NodeLimit => Status::Nodes,
            End::MemLimit => Status::Mems,
            End::TimeLimit => Status::Time,
            End::Interrupted => Status::Interrupted,
            End::Overflow => Status::Overflow,
        }
    }

    /// What stopped a search that did not end by itself, for [`Status::of_optimum`]:
    /// `interrupted` when a stop was requested through `stop`, else `otherwise` (the budget
    /// that ran out).
    pub fn stopped(stop: &crate::engine::Stop, otherwise: Status) -> Status {
        if stop.requested() {
            Status::Interrupted
        } else {
            otherwise
        }
    }

    /// How an optimisation ended; `unknown` (no solution when a budget ran out) is said by
    /// what stopped it (`stopped_by`, see [`Status::stopped`]). After an interrupt
    /// (`stopped_by` is `interrupted`) an unproven result is `interrupted`: the best found with
    /// the bound proven so far.
    pub fn of_optimum(status: optimize::Status, stopped_by: Status) -> Status {
        let interrupted = stopped_by == Status::Interrupted;
        match status {
            optimize::Status::Optimal => Status::Optimal,
            optimize::Status::Infeasible => Status::Infeasible,
            _ if interrupted => Status::Interrupted,
            optimize::Status::Feasible => Status::Feasible,
            optimize::Status::Unknown => stopped_by,
        }
    }

    /// How an optimisation within `budget` ended ([`Status::of_optimum`]). When no solution
    /// was found before a budget ran out, the optimiser does not say which budget: the
    /// statistics against the budget do.
    pub fn of_optimum_within(best: &optimize::Optimum, budget: &crate::engine::Budget) -> Status {
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

    /// How a weighted board's search ended, the one status word of its records (`queens max`,
    /// its shards, the Python binding): `below-floor` when no layout reaches the floor, else
    /// [`Status::of_optimum`] with `time` for no layout in time (the deadline is the only
    /// budget of a board).
    pub fn of_board(status: optimize::Status, below_floor: bool) -> Status {
        Status::of_board_stopped(status, below_floor, Status::Time)
    }

    /// [`Status::of_board`] of a search stopped by `stopped_by` ([`Status::stopped`]).
    pub fn of_board_stopped(
        status: optimize::Status,
        below_floor: bool,
        stopped_by: Status,
    ) -> Status {
        if below_floor {
            Status::BelowFloor
        } else {
            Status::of_optimum(status, stopped_by)
        }
    }

    /// What stopped the search, in words for the stderr notice (`None` when it was not
    /// stopped).
    pub fn stopped_by(self) -> Option<&'static str> {
        match self {
            Status::Limit => Some("the solution limit"),
            Status::Time => Some("the time limit"),
            Status::Nodes => Some("the node budget"),
            Status::Mems => Some("the mem budget"),
            Status::Interrupted => Some("an interrupt"),
            _ => None,
        }
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Status, String> {
        Status::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown status '{s}'"))
    }
}

/// The stderr line for a partial count: `stopped by the time limit after 52 solutions
/// (partial count)` (without the `xcover: ` prefix). `None` for a complete answer.
pub fn partial_notice(status: Status, solutions: u128) -> Option<String> {
    let why = status.stopped_by()?;
    let s = if solutions == 1 { "" } else { "s" };
    Some(format!(
        "stopped by {why} after {solutions} solution{s} (partial count)"
    ))
}
