//! Input and output formats, used by the subcommands: Knuth's DLX text, weight boards, and the
//! CSV/JSON/SVG writers, and atomic output files.

pub mod dlx_format;
pub mod output;
pub mod shard;
pub mod solve_record;
pub mod weights;
