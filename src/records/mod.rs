//! The records: what a result is, apart from how it is written. The shard record with its
//! check, the one status word of every record that may be partial, the merge of shards, and
//! the records the commands print.
//!
//! This room knows no model. A model that has a record kind of its own hands the merge its
//! checks as a [`Rule`]; the codecs (JSON Lines, CSV, `key=value`) are in `io`, below the
//! models and above this room.

mod merge;
// The records the commands print (docs/formats.md).
pub(crate) mod rows;
mod shard;
// The shard records of `xcover solve --shard`.
#[cfg(feature = "cli")]
pub(crate) mod solve;
mod status;

pub use merge::{MergeError, Merged, Problem, Rule, merge};
pub use shard::{
    FIELDS, Hex64, Kind, Located, Shard, ShardError, ShardRecord, Source, parse_sense, sense_name,
};
pub use status::{Status, partial_notice};
// What the Python binding writes through the command line's records: a `queens max` board's
// records and the places of a ranking.
pub use rows::{LayoutFields, MaxBoard, MaxRecord, places};
