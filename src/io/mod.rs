//! Input and output formats, used by the subcommands: Knuth's DLX text, weight boards, the
//! records every command prints and their CSV/JSON writers, the SVG board writer, and atomic
//! output files. docs/formats.md is the table of the records.

pub mod dlx_format;
pub mod output;
pub mod records;
pub mod svg;
pub mod weights;
