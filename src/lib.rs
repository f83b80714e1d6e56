//! xcover: Knuth's Algorithm X over dancing links, for generalised exact cover with colours
//! (XCC), and the models built on it (N-queens, weighted N-queens).
//!
//! The crate is four rooms with arrows one way:
//! - [`engine`]: the dancing-links search, statistics, budgets, the optimising
//!   (branch-and-bound) layer and the split into sub-problems. It knows nothing of queens.
//! - [`queens`]: the N-queens models (exact cover, symmetry, word-parallel counter, weighted).
//!   They know nothing of the command line.
//! - [`io`]: input and output formats (Knuth's DLX text, weight boards, CSV/JSON/SVG writers,
//!   atomic output files).
//! - [`cmd`]: the subcommands of the `xcover` binary; thin layers over the above.

pub mod cmd;
pub mod engine;
pub mod io;
pub mod queens;
