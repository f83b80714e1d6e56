//! The words of an optimisation: its [`Sense`], what to [`Keep`], how it ended ([`Status`]),
//! the solutions it found ([`Scored`], [`Optimum`]) and its settings ([`Config`]).

use crate::engine::budget::Budget;
use crate::engine::problem::OptionId;
use crate::engine::stats::Stats;

/// Minimise or maximise the total weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sense {
    /// Least total weight.
    Minimize,
    /// Greatest total weight.
    Maximize,
}

impl Sense {
    /// The gain of a weight: what the optimiser maximises.
    pub fn gain(self, weight: i64) -> i128 {
        match self {
            Sense::Maximize => weight as i128,
            Sense::Minimize => -(weight as i128),
        }
    }
    /// Gains of all weights.
    pub fn gains(self, weights: &[i64]) -> Vec<i128> {
        weights.iter().map(|&w| self.gain(w)).collect()
    }
    /// A total gain back in the units of the weights.
    pub fn value(self, gain: i128) -> i128 {
        match self {
            Sense::Maximize => gain,
            Sense::Minimize => -gain,
        }
    }
}

/// Which solutions to keep.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// One optimal solution.
    Best,
    /// Every optimal solution is counted; at most `limit` of them are stored (the first found, or
    /// with [`Bound::TIE_BREAK`](crate::engine::optimize::Bound::TIE_BREAK) those with the smallest
    /// sorted options).
    AllOptimal {
        /// The most optimal solutions stored.
        limit: usize,
    },
    /// The K best solutions (ties at the K-th place broken by the order of discovery).
    Top(usize),
}

/// How an optimisation ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The search was complete: the solutions kept are proven best.
    Optimal,
    /// The budget ran out: the solutions are the best found, `bound` limits what is possible.
    Feasible,
    /// There is no exact cover at all.
    Infeasible,
    /// The budget ran out before any solution was found.
    Unknown,
}

impl Status {
    /// The status in words: `optimal`, `feasible`, `infeasible`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
        }
    }
}

/// A solution and its total weight (in the units of the weights, not gains).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The total weight of the options.
    pub value: i128,
    /// The options, sorted by id.
    pub options: Vec<OptionId>,
}

/// The result of [`optimize`](crate::engine::optimize::optimize()).
#[derive(Clone, Debug)]
pub struct Optimum {
    /// How the search ended.
    pub status: Status,
    /// Best first. For `Keep::Best` one, for `AllOptimal` the optimal ones (up to the limit),
    /// for `Top(k)` up to k.
    pub solutions: Vec<Scored>,
    /// For `Keep::AllOptimal` with status `Optimal`: the number of optimal solutions (0 when
    /// `Infeasible`).
    pub optimal_count: Option<u64>,
    /// The best value any solution can have (in weight units: an upper bound when maximising,
    /// a lower bound when minimising). Equals the best value when optimal; `None` when
    /// infeasible.
    pub bound: Option<i128>,
    /// Statistics of the search (nodes include pruned ones).
    pub stats: Stats,
}

impl Optimum {
    /// The best value found.
    pub fn value(&self) -> Option<i128> {
        self.solutions.first().map(|s| s.value)
    }
}

/// Settings of one optimisation.
#[derive(Clone, Debug)]
pub struct Config {
    /// Minimise or maximise.
    pub sense: Sense,
    /// Which solutions to keep.
    pub keep: Keep,
    /// When to stop.
    pub budget: Budget,
}
