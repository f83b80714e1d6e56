//! The text of a ZDD of solutions (`xcover solve --zdd FILE`), one record a line, for a
//! program to load (docs/engine.md, "The solutions as a ZDD", is the format's manual):
//!
//! ```text
//! # xcover ZDD: 3 options, 3 nodes, 2 solutions
//! o 0 2 a b
//! o 1 3 a
//! o 2 4 b
//! n 2 2 1 0
//! n 3 1 2 0
//! n 4 0 1 3
//! root 4
//! ```
//!
//! (the problem `a b` with options `a b`, `a` and `b` on lines 2 to 4: its solutions are
//! `a b` and `a` with `b`.)
//!
//! - `#` starts a comment line (the first one says what the file holds).
//! - `o INDEX LINE TEXT`: an option on some node: its index (from 0, in the order of the
//!   input's options), its line in the input, and its text as written there. One line per
//!   option that appears, in index order, before the nodes.
//! - `n ID OPTION HI LO`: a node: its id (from 2), its option's index, and the ids of HI
//!   (the sub-problem after taking the option) and LO (the next option of the same branching
//!   item). 0 is ⊥ (no solution), 1 is ⊤ (every primary item covered). Nodes come in id
//!   order and a node's HI and LO are smaller ids, so one pass in file order counts paths.
//! - `root ID`: the last line: the diagram's root (0 when there is no solution, 1 when the
//!   one solution takes no option).

use std::io::{self, BufRead, Write};

use crate::engine::OptionId;
use crate::engine::family::{BUILD_NODE_BYTES, Family};
use crate::engine::zdd::{BOTTOM, TOP, Zdd, ZddNode};

/// Writes `zdd` in the format above; `describe` gives an option's input line and text, and
/// `count` (the number of solutions, when it fits) goes into the comment line.
pub fn write<W: Write>(
    out: &mut W,
    zdd: &Zdd,
    count: Option<u128>,
    describe: impl Fn(OptionId) -> (usize, String),
) -> io::Result<()> {
    write_nodes(out, || zdd.nodes(), zdd.len(), zdd.root(), count, describe)
}

/// Writes a [`Family`] in the format above (what [`read`] reads back).
pub fn write_family<W: Write>(
    out: &mut W,
    family: &Family,
    describe: impl Fn(OptionId) -> (usize, String),
) -> io::Result<()> {
    write_nodes(
        out,
        || family.nodes(),
        family.len(),
        family.root(),
        family.count().ok(),
        describe,
    )
}

fn write_nodes<W: Write, I: Iterator<Item = (u32, ZddNode)>>(
    out: &mut W,
    nodes: impl Fn() -> I,
    len: usize,
    root: u32,
    count: Option<u128>,
    describe: impl Fn(OptionId) -> (usize, String),
) -> io::Result<()> {
    let mut used: Vec<u32> = nodes().map(|(_, n)| n.option.0).collect();
    used.sort_unstable();
    used.dedup();
    let solutions = match count {
        Some(c) => format!("{c} solution{}", if c == 1 { "" } else { "s" }),
        None => "more than 2^128 - 1 solutions".to_string(),
    };
    writeln!(
        out,
        "# xcover ZDD: {} option{}, {len} node{}, {solutions}",
        used.len(),
        if used.len() == 1 { "" } else { "s" },
        if len == 1 { "" } else { "s" },
    )?;
    for &o in &used {
        let (line, text) = describe(OptionId(o));
        writeln!(out, "o {o} {line} {text}")?;
    }
    for (id, n) in nodes() {
        writeln!(out, "n {id} {} {} {}", n.option.0, n.hi, n.lo)?;
    }
    writeln!(out, "root {root}")
}

/// An option named by an `o` line: its index, its line in the problem's input, its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLabel {
    /// The option's index.
    pub option: OptionId,
    /// Its line in the input of the problem.
    pub line: usize,
    /// Its text as written there.
    pub text: String,
}

/// What [`read`] reads: the family and its options' labels, in index order.
#[derive(Clone, Debug)]
pub struct ZddFile {
    /// The family; its options are numbered 0 to the largest index of an `o` line.
    pub family: Family,
    /// The `o` lines.
    pub labels: Vec<OptionLabel>,
}

/// A mistake in a ZDD text, at a line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}: {message}")]
pub struct ReadError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads the format above, checking everything it promises: `o` lines in increasing index
/// order before the nodes, node ids from 2 in order, each node's option named by an `o`
/// line, HI in 1 to ID − 1, LO in 0 to ID − 1, `root` last, naming an id made. Nodes beyond
/// `max_bytes` (counted as a diagram being made counts them) are refused before they are
/// read. An I/O error is reported at the line it happened. A file whose nodes are equal or
/// unreachable still loads (a family does not need them unique).
pub fn read<R: BufRead>(input: R, max_bytes: u64) -> Result<ZddFile, ReadError> {
    let mut labels: Vec<OptionLabel> = Vec::new();
    let mut nodes: Vec<ZddNode> = Vec::new();
    let mut root: Option<u32> = None;
    let mut number = 0usize;
    for line in input.lines() {
        number += 1;
        let err = |message: String| ReadError {
            line: number,
            message,
        };
        let line = line.map_err(|e| err(format!("cannot read: {e}")))?;
        if line.starts_with('#') {
            continue;
        }
        if root.is_some() {
            return Err(err("a line after `root`, which must be the last".into()));
        }
        let (kind, rest) = line.split_once(' ').unwrap_or((&line, ""));
        let int = |field: Option<&str>, what: &str| -> Result<u64, ReadError> {
            let t = field.ok_or_else(|| err(format!("`{kind}` needs {what}")))?;
            t.parse::<u64>()
                .map_err(|_| err(format!("{what} must be a whole number, not '{t}'")))
        };
        let next_id = nodes.len() as u64 + 2;
        match kind {
            "o" => {
                if !nodes.is_empty() {
                    return Err(err("an `o` line after the nodes".into()));
                }
                let mut f = rest.splitn(3, ' ');
                let index = int(f.next(), "the option's index")?;
                let at = int(f.next(), "the option's line")?;
                let text = f.next().unwrap_or("").to_string();
                let index = u32::try_from(index)
                    .map_err(|_| err(format!("option index {index} is too large")))?;
                if labels.last().is_some_and(|l| l.option.0 >= index) {
                    return Err(err(format!(
                        "option {index} after option {}: `o` lines come in increasing index order",
                        labels.last().map_or(0, |l| l.option.0)
                    )));
                }
                labels.push(OptionLabel {
                    option: OptionId(index),
                    line: at as usize,
                    text,
                });
            }
            "n" => {
                let mut f = rest.split(' ');
                let id = int(f.next(), "an id")?;
                let option = int(f.next(), "an option")?;
                let hi = int(f.next(), "HI")?;
                let lo = int(f.next(), "LO")?;
                if f.next().is_some() {
                    return Err(err("`n` has four fields: ID OPTION HI LO".into()));
                }
                if id != next_id {
                    return Err(err(format!("node {id} where node {next_id} was due")));
                }
                if labels
                    .binary_search_by_key(&option, |l| u64::from(l.option.0))
                    .is_err()
                {
                    return Err(err(format!("option {option} has no `o` line")));
                }
                if hi == u64::from(BOTTOM) || hi >= id {
                    return Err(err(format!(
                        "HI {hi} of node {id}: HI is 1 (⊤) or a node before it"
                    )));
                }
                if lo >= id {
                    return Err(err(format!(
                        "LO {lo} of node {id}: LO is 0 (⊥), 1 (⊤) or a node before it"
                    )));
                }
                let needed = (nodes.len() as u64 + 3) * BUILD_NODE_BYTES;
                if needed > max_bytes {
                    return Err(err(format!(
                        "node {id}: the diagram outgrows the memory budget of {max_bytes} bytes"
                    )));
                }
                if id >= u64::from(u32::MAX) {
                    return Err(err("more than 2^32 - 2 nodes".into()));
                }
                nodes.push(ZddNode {
                    option: OptionId(option as u32),
                    hi: hi as u32,
                    lo: lo as u32,
                });
            }
            "root" => {
                let id = int(Some(rest), "the root's id")?;
                if id >= next_id {
                    return Err(err(format!(
                        "root {id}: the root is 0 (⊥), 1 (⊤) or a node of the file"
                    )));
                }
                root = Some(id as u32);
            }
            _ => {
                return Err(err(format!(
                    "'{kind}' is not a record of a ZDD (`o`, `n`, `root` or a `#` comment)"
                )));
            }
        }
    }
    let root = root.ok_or_else(|| ReadError {
        line: number,
        message: "no `root` line at the end".into(),
    })?;
    let options = labels.last().map_or(0, |l| l.option.0 as usize + 1);
    debug_assert!(root == BOTTOM || root == TOP || root as usize <= nodes.len() + 1);
    Ok(ZddFile {
        family: Family::from_nodes(nodes, root, options, max_bytes),
        labels,
    })
}
