//! dancelinks, the library of the `xcover` command: Knuth's Algorithm X over dancing links,
//! for generalised exact cover with colours (XCC), and the models built on it (N-queens,
//! weighted N-queens, and the classic models of docs/models.md).
//!
//! The crate is rooms with arrows one way:
//! - [`engine`]: the dancing-links search, statistics, budgets, the optimising
//!   (branch-and-bound) layer and the split into sub-problems. It knows nothing of queens or
//!   the other models.
//! - [`models`]: classic exact-cover models (Langford pairs, polyomino tilings, sudoku,
//!   perfect matchings, queens, double word squares, domino tilings with multiplicities), each
//!   a problem and a decoder of its solutions. They know nothing of the command line.
//! - [`queens`]: the N-queens models (exact cover, symmetry, word-parallel counter, weighted).
//!   They know nothing of the command line.
//! - [`io`]: input and output formats (Knuth's DLX text, weight boards, shard records, bounded
//!   line input); with the `cli` feature also the binary's CSV/JSON/SVG writers and atomic
//!   output files, which are not API.
//! - `cmd` (with the `cli` feature): the subcommands of the `xcover` binary; thin layers over the
//!   above. Not part of the API.
//!
//! docs/engine.md ("The library API") describes the API. With `default-features = false` the
//! crate has no command-line dependencies (clap, indicatif, anyhow, tempfile, libc,
//! signal-hook): the `cli` feature, on by default, brings them, with the binary and the modules
//! only it uses.

#![warn(missing_docs)]

// The binary's subcommands live here so the binary stays a thin `main` and the integration
// tests can walk the clap tree (`dancelinks::cmd::Cli::command()`); they are not API: hidden from
// the documentation, and may change in any release.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cmd;
pub mod engine;
pub mod io;
pub mod models;
pub mod queens;
pub mod quote;
pub mod random;
pub mod records;
