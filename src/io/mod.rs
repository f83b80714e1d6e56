//! Input and output formats, used by the subcommands: Knuth's DLX text, weight boards, and the
//! CSV/JSON/SVG writers; bounded line input and output files that do no more than `>`.

pub mod dlx_format;
pub mod input;
pub mod output;
pub mod weights;

pub use input::{quote, quote_bytes};
