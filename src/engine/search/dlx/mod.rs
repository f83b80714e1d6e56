//! Dancing links, in the style of Knuth's DLX1 and DLX2: the engine's first search, and the
//! one every other is checked against.
//!
//! - [`links`]: the data structure (one array of nodes linked by 32-bit indices, the item
//!   rings) and how it is built from a [`Problem`](crate::engine::Problem).
//! - [`dance`]: covering, uncovering, hiding, purifying, committing an option, and the
//!   counters of mems and updates they keep.
//! - [`solver`]: the [`Solver`], its search (Knuth's Algorithm X with DLX2's control flow),
//!   forced options, and the [`Visitor`] API.
//! - [`memo_dance`]: the memo's part of the memoised count: a node's key, what entering and
//!   leaving a node does with the table, and where a count in turns stopped.
//! - [`memo_count`]: the memoised counts ([`Solver::count_memo`], and in turns resumed in
//!   place for the default's portfolio, with Knuth's estimate at a stop).

mod dance;
mod links;
mod memo_count;
mod memo_dance;
mod solver;
#[cfg(test)]
mod tests;

pub use solver::{CountOnly, ForceError, Solver, View, Visitor};
