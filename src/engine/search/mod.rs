//! The searches: each module one way to walk the tree of an exact-cover problem, its data
//! structures explained first in its own documentation. Which of them runs, on how many
//! threads, is the front door's choice (`engine::run`); each stops on a
//! [`Budget`](super::Budget).
//!
//! | search | what it keeps | when the front door runs it |
//! |---|---|---|
//! | [`dlx`]: the dance ([`Solver`](super::Solver), Knuth's DLX1/DLX2) | one array of 16-byte nodes linked by 32-bit indices, and the item rings; undone by dancing back | every listing and optimisation; the counts the others do not take (Knuth's tree, a shard), split into parts on threads; the memoised count of `MemoMode` outside the portfolio |
//! | [`dense`]: bitsets ([`Dense`](super::Dense)) | a conflict row of bits per option and, per level, the options still possible and the primary items' sizes; undone by forgetting a level | the default count of a problem of at most [`DENSE_MAX_OPTIONS`](super::DENSE_MAX_OPTIONS) options (first alone, then in the portfolio), and the plain count of such a problem unless its options are short and colour-free |
//! | [`parts`]: bitsets, memoised, cut into independent parts | per level a state (the options still possible, the items still open) that is also the memo's key; a union-find that finds the parts | the default count, beside `dense` in the portfolio |
//! | [`cells`]: sparse sets ([`Cells`](super::Cells), Knuth's SSXCC) | flat `u32` arrays: each item's options as a set with a size, the active items; undone by restoring sizes | the plain count of a problem with colours on one thread that `dense` does not take |
//! | [`multiplicity`]: Algorithm M ([`MultiplicitySolver`](super::MultiplicitySolver), Knuth's DLX3) | DLX2's links with a bound and a slack per primary item | every problem with multiplicities (`u:v` items) |
//!
//! [`memo`] is no search but the table the memoised searches share: sub-problem counts by
//! key, exact (the whole key is compared), bounded in memory (it forgets, it never fails).

pub(super) mod cells;
pub(super) mod dense;
pub(super) mod dlx;
pub(super) mod memo;
pub(super) mod multiplicity;
pub(super) mod parts;
