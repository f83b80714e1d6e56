//! Codecs: Knuth's DLX text ([`dlx_format`]), weight boards ([`weights`]), the one output
//! [`export::Format`] and the writers of record streams in each record format ([`export`]),
//! the exporters of the commands' results (`solve`'s in [`solve`], a family of solutions'
//! in [`family`], `queens max`'s in [`max`], the other queens commands' in [`queens`]), the
//! shard records' three spellings ([`shard`]; the records themselves are in
//! [`crate::records`]), bounded line input ([`input`]) and the SVG pictures ([`svg`]: boards,
//! heat maps, the models' solutions). With the `cli` feature, also what only the binary uses:
//! output files that do no more than `>`.
//! docs/formats.md is the table of the records.

mod cells;
pub mod dlx_format;
pub mod export;
pub mod family;
pub mod input;
pub mod max;
// Output files and stdout handling for the binary (anyhow, tempfile, signals): not API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod output;
pub mod queens;
// The kinds of the records of docs/formats.md, the fast `queens list` rows (the bits lister
// writes through them) and the text views.
pub(crate) mod records;
pub mod shard;
pub mod solve;
pub mod svg;
pub mod weights;
pub mod zdd_text;

pub use crate::quote::{quote, quote_bytes};
/// The formats of the `queens list` rows, which `queens::listing::list` writes.
pub use records::ListFormat;
