//! Codecs: Knuth's DLX text ([`dlx_format`]), weight boards ([`weights`]), the shard records'
//! three spellings ([`shard`]; the records themselves are in [`crate::records`]), and bounded
//! line input ([`input`]). With the `cli` feature, also
//! what only the binary uses: the records every command prints and their CSV/JSON writers, the
//! SVG board writer, and output files that do no more than `>`. docs/formats.md is the table of
//! the records.

pub mod dlx_format;
pub mod input;
// Output files and stdout handling for the binary (anyhow, tempfile, signals): not API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod output;
// The record shapes of docs/formats.md; the bits lister writes its rows through them.
pub(crate) mod records;
pub mod shard;
#[cfg(feature = "cli")]
pub(crate) mod svg;
pub mod weights;

pub use crate::quote::{quote, quote_bytes};
