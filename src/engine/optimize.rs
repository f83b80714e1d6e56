//! The optimising layer: branch and bound over the dancing-links search.
//!
//! Every option carries a weight (an `i64`; the costs of a DLX5-style model are one source, see
//! [`Problem::cost`](crate::engine::Problem::cost), but the weights are passed separately so that
//! one built model serves many weight sets). The optimiser looks for exact covers of best total
//! weight, for a [`Sense`]: least total (`Minimize`, DLX5's meaning of costs) or greatest
//! (`Maximize`).
//!
//! Internally everything is a maximisation of *gains*: the weight for `Maximize`, its negation
//! for `Minimize`, held in `i128` so that neither negating `i64::MIN` nor adding many weights can
//! overflow. At every node of the search a [`Bound`] gives an upper bound on the gain that the
//! options still to be chosen can add; the subtree is pruned when the gain so far plus the bound
//! cannot beat (or, when ties are wanted, tie) the solutions kept so far.
//!
//! What is kept is a [`Keep`]: the best solution, every optimal solution (with a cap on how
//! many are stored; all are counted), or the K best. A search may start from known solutions
//! (a heuristic's), so that pruning bites from the first node; the result says what it is:
//! [`Status::Optimal`] (the tree was exhausted), [`Status::Feasible`] (the budget ran out: the
//! best found and an upper bound, so the gap is known), [`Status::Infeasible`] (no exact cover at
//! all) or [`Status::Unknown`] (the budget ran out before any solution was found).
//!
//! The bound is pluggable: [`ShareBound`] works for any model, a model can supply a stronger
//! one (the n-queens model's assignment bound lives in `queens::weighted`).
//!
//! ```
//! use dancelinks::engine::optimize::{self, Config, Keep, Sense, ShareBound, Status};
//! use dancelinks::engine::{Budget, ProblemBuilder, Solver};
//! let mut b = ProblemBuilder::new();
//! for name in ["a", "b", "c"] { b.primary(name).unwrap(); }
//! // Costs as DLX5 reads them: cover a, b, c at least total cost.
//! for (opt, cost) in [("a b", 5), ("c", 1), ("a", 2), ("b c", 3), ("a b c", 7)] {
//!     b.add_option_named(opt, cost).unwrap();
//! }
//! let problem = b.build().unwrap();
//! let weights: Vec<i64> = problem.options().map(|o| problem.cost(o)).collect();
//! let sense = Sense::Minimize;
//! let gains = sense.gains(&weights);
//! let mut solver = Solver::with_options(&problem, optimize::best_first(&problem, &gains));
//! let mut bound = ShareBound::new(&problem, &gains);
//! let config = Config { sense, keep: Keep::Top(2), budget: Budget::unlimited() };
//! let strategy = optimize::Strategy::new();
//! let best = optimize::optimize(&mut solver, &gains, &mut bound, &config, strategy);
//! assert_eq!(best.status, Status::Optimal);
//! let values: Vec<i128> = best.solutions.iter().map(|s| s.value).collect();
//! assert_eq!(values, vec![5, 6]); // {a, b c} = 2 + 3, {a b, c} = 5 + 1 (then {a b c} = 7)
//! ```

//!
//! # The files
//!
//! - `types.rs`: the words of the API ([`Sense`], [`Keep`], [`Status`], [`Optimum`],
//!   [`Config`]);
//! - `bounds.rs`: the [`Bound`] trait, [`ShareBound`] and the best-first option order;
//! - `branch_bound.rs`: the visitor that prunes and keeps the best (private);
//! - `strategy.rs`: [`optimize`] and its [`Strategy`] (seeds, aims, floors, workers);
//! - `shards.rs`: the top of the tree cut into parts (`split_bound`) and the parts of a
//!   shard optimised in turn (`optimize_parts`; `optimize_split` for the parts of a count's
//!   split), the crate's own (weighted n-queens' shards
//!   use them; a program splits through the shard of `run::Plan`).
//!
//! Each file builds on the ones above it, never the reverse.

mod bounds;
mod branch_bound;
mod shards;
mod strategy;
mod types;

pub use bounds::{Bound, NoBound, ShareBound, best_first};
pub(crate) use shards::{BoundSplit, optimize_parts, optimize_split, split_bound};
pub use strategy::{AIM_GROWTH, AimSteps, PARALLEL_CUT, Strategy, optimize};
pub(crate) use strategy::{conclude, settle};
pub use types::{Config, Keep, Optimum, Scored, Sense, Status};
