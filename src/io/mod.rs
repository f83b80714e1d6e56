//! Input and output formats, used by the subcommands: Knuth's DLX text, weight boards, the
//! records every command prints and their CSV/JSON writers, the SVG board writer; bounded line
//! input, and output files that do no more than `>`. docs/formats.md is the table of the records.

pub mod dlx_format;
pub mod input;
pub mod output;
pub mod records;
pub mod shard;
pub mod solve_record;
pub mod svg;
pub mod weights;

pub use input::{quote, quote_bytes};
