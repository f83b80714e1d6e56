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

use std::io::{self, Write};

use crate::engine::OptionId;
use crate::engine::zdd::Zdd;

/// Writes `zdd` in the format above; `describe` gives an option's input line and text, and
/// `count` (the number of solutions, when it fits) goes into the comment line.
pub fn write<W: Write>(
    out: &mut W,
    zdd: &Zdd,
    count: Option<u128>,
    describe: impl Fn(OptionId) -> (usize, String),
) -> io::Result<()> {
    let mut used: Vec<u32> = zdd.nodes().map(|(_, n)| n.option.0).collect();
    used.sort_unstable();
    used.dedup();
    let solutions = match count {
        Some(c) => format!("{c} solution{}", if c == 1 { "" } else { "s" }),
        None => "more than 2^128 - 1 solutions".to_string(),
    };
    writeln!(
        out,
        "# xcover ZDD: {} option{}, {} node{}, {solutions}",
        used.len(),
        if used.len() == 1 { "" } else { "s" },
        zdd.len(),
        if zdd.len() == 1 { "" } else { "s" },
    )?;
    for &o in &used {
        let (line, text) = describe(OptionId(o));
        writeln!(out, "o {o} {line} {text}")?;
    }
    for (id, n) in zdd.nodes() {
        writeln!(out, "n {id} {} {} {}", n.option.0, n.hi, n.lo)?;
    }
    writeln!(out, "root {}", zdd.root())
}
