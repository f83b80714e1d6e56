//! A search driven by hand: the door for a caller that steers one dancing-links search itself
//! rather than asking for a count, a listing or an optimum of a whole problem.
//!
//! A [`Dance`] is the plain dance over one [`Problem`] (DLX1's tree for colour-free problems,
//! or Knuth's DLX2 tree on request), with what the models need of it and nothing more:
//!
//! - its options tried in an order of the caller's, or only some of them
//!   ([`Dance::in_order`]: heaviest first for a branch and bound, a symmetry-restricted board);
//! - options forced into every solution ([`Dance::force`], [`Dance::unforce_all`]): a prefix
//!   of the search, the fixed ranks of a large-neighbourhood search;
//! - a [`Visitor`] that sees every node and solution and may prune or stop ([`Dance::run`]);
//! - the tree cut at a depth into parts ([`Dance::split`]), each part's sub-tree searched on
//!   its own ([`Dance::run_subproblem`]), parts dealt to shards round-robin
//!   ([`shard_takes`]).
//!
//! Every method is the dance's own, forwarded: a search by hand runs exactly as the engine's
//! searches run it. The branch and bound over a [`Dance`] is in `optimize_by_hand.rs`.

use crate::engine::{
    Budget, CountOnly, ForceError, OptionId, Outcome, Problem, Solver, Split, Visitor, in_shard,
};

/// One dancing-links search over a problem, driven by its caller (see the module
/// documentation). Reusable: every search leaves it as it found it (forced options stay
/// forced until [`Dance::unforce_all`]).
pub struct Dance<'p> {
    pub(super) solver: Solver<'p>,
}

impl<'p> Dance<'p> {
    /// The search over all options of `problem`, in input order.
    pub fn new(problem: &'p Problem) -> Dance<'p> {
        Dance {
            solver: Solver::new(problem),
        }
    }

    /// The search over the given options only, each item's options tried in the order given;
    /// leaving options out restricts the problem. Each option may appear once.
    pub fn in_order(problem: &'p Problem, options: impl IntoIterator<Item = OptionId>) -> Self {
        Dance {
            solver: Solver::with_options(problem, options),
        }
    }

    /// Searches Knuth's exact DLX2 tree (a node for every dead end) when `knuth`, else the
    /// early abort of dead ends on colour-free problems (the default; same solutions, same
    /// order, fewer nodes).
    pub fn knuth_tree(&mut self, knuth: bool) -> &mut Self {
        self.solver.knuth_tree(knuth);
        self
    }

    /// Forces `option` into every solution of the searches that follow.
    pub fn force(&mut self, option: OptionId) -> Result<(), ForceError> {
        self.solver.force(option)
    }

    /// Frees every forced option.
    pub fn unforce_all(&mut self) {
        self.solver.unforce_all();
    }

    /// The forced options, in the order they were forced.
    pub fn forced(&self) -> Vec<OptionId> {
        self.solver.forced()
    }

    /// Runs the search, reporting to `visitor`, until the tree is exhausted, the visitor stops
    /// it or the budget runs out.
    pub fn run<V: Visitor>(&mut self, budget: &Budget, visitor: &mut V) -> Outcome {
        self.solver.run(budget, visitor)
    }

    /// The first solution, if any.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        self.solver.first()
    }

    /// Forces the `prefix` (a part of [`Dance::split`]), runs `visitor` over its sub-tree and
    /// frees the prefix again.
    pub fn run_subproblem<V: Visitor>(
        &mut self,
        prefix: &[OptionId],
        budget: &Budget,
        visitor: &mut V,
    ) -> Outcome {
        self.solver.run_subproblem(prefix, budget, visitor)
    }

    /// Counts the solutions below the `prefix` (a part of [`Dance::split`]) and frees the
    /// prefix again.
    pub fn count_subproblem(&mut self, prefix: &[OptionId], budget: &Budget) -> Outcome {
        self.solver.run_subproblem(prefix, budget, &mut CountOnly)
    }

    /// Cuts the search tree below the forced options at `depth` chosen options (forced ones
    /// included) into parts, in the order of the search.
    pub fn split(&mut self, depth: usize) -> Split {
        self.solver.split(depth)
    }
}

/// Whether part `k` (0-based, in the order of a split) belongs to shard `shard` of `shards`
/// (1-based): parts are dealt round-robin, as the engine's own shards deal them, so that
/// neighbouring parts, which tend to cost alike, spread over all shards.
pub fn shard_takes(k: usize, shard: usize, shards: usize) -> bool {
    in_shard(k, shard, shards)
}
