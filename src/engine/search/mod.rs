//! The searches.

pub(super) mod cells;
pub(super) mod dense;
pub(super) mod dlx;
pub(super) mod memo;
pub(super) mod multiplicity;
pub(super) mod parts;
