//! The n×n board as an exact-cover problem, built in one place for every queens model:
//! Knuth's organ-pipe order, the lines of the board (ranks, files, both diagonal families),
//! the contract between squares and options, and the builder.
//!
//! # Layout
//!
//! - primary items: the ranks `r0..r{n-1}` and files `c0..c{n-1}`, declared from the middle
//!   outward ([`organ_pipe`]), rank before file; for n = 8:
//!   `r4 c4 r3 c3 r5 c5 r2 c2 r6 c6 r1 c1 r7 c7 r0 c0`. The engine branches on the leftmost
//!   item of minimum length, so the middle of the board is tried first;
//! - secondary items: the diagonals `a{r+c}` and anti-diagonals `b{n-1-r+c}`, declared
//!   `a0 b0 a1 b1 ...`; with [`Corners::Drop`] the four single-square corner diagonals (`a0`,
//!   `b0`, `a{2n-2}`, `b{2n-2}`) are left out, as no two queens can share them (Knuth's
//!   layout: 13 queens in 1,046,319 nodes, 17,463,157 updates);
//! - options: one per square, row-major: **option `r·n + c` is the queen on square (r, c)**
//!   ([`Board::option`], [`Board::square`]); it covers `r{r} c{c} a{r+c} b{n-1-r+c}`, less the
//!   dropped corner diagonals.

use crate::engine::{Entry, ItemId, OptionId, Problem, ProblemBuilder};

/// Ranks/files in organ-pipe order: `n/2, n/2-1, n/2+1, n/2-2, ...` (middle first).
pub fn organ_pipe(n: usize) -> Vec<usize> {
    let m = n / 2;
    let mut out = Vec::with_capacity(n);
    out.push(m);
    for d in 1..=n {
        if d <= m {
            out.push(m - d);
        }
        if m + d < n {
            out.push(m + d);
        }
    }
    out.truncate(n);
    debug_assert_eq!(out.len(), n);
    out
}

/// A square of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based rank (row).
    pub rank: usize,
    /// 0-based file (column).
    pub file: usize,
}

/// The size of the board and the square ↔ option numbering.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Board {
    n: usize,
}

impl Board {
    /// An n×n board.
    pub fn new(n: usize) -> Board {
        Board { n }
    }

    /// The board size.
    pub fn n(self) -> usize {
        self.n
    }

    /// The option placing a queen on `(rank, file)`: `rank·n + file`.
    #[inline]
    pub fn option(self, rank: usize, file: usize) -> OptionId {
        debug_assert!(rank < self.n && file < self.n);
        OptionId((rank * self.n + file) as u32)
    }

    /// The square of an option.
    #[inline]
    pub fn square(self, option: OptionId) -> Square {
        let k = option.0 as usize;
        debug_assert!(k < self.n * self.n);
        Square {
            rank: k / self.n,
            file: k % self.n,
        }
    }

    /// The index of an option's square in a row-major array of n² entries (a weight board):
    /// the option number itself, by the contract above.
    #[inline]
    pub fn index(self, option: OptionId) -> usize {
        option.0 as usize
    }

    /// The columns `q[rank] = file` of a solution given as options (any order).
    #[inline]
    pub fn columns_into(self, options: &[OptionId], q: &mut [u8]) {
        debug_assert_eq!(options.len(), self.n);
        for &o in options {
            let s = self.square(o);
            q[s.rank] = s.file as u8;
        }
    }
}

/// What an item of the model stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A rank (row).
    Rank(u32),
    /// A file (column).
    File(u32),
    /// Squares with `rank + file = d`.
    Diagonal(u32),
    /// Squares with `n - 1 - rank + file = d`.
    AntiDiagonal(u32),
}

/// Whether the single-square corner diagonals are items.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Corners {
    /// Keep them (every square's option has four items).
    Keep,
    /// Leave them out (Knuth's layout; fewer updates).
    Drop,
}

/// The exact-cover problem of an n×n board.
#[derive(Clone, Debug)]
pub struct ExactCover {
    /// The board.
    pub board: Board,
    /// The problem: one option per square, option `r·n + c` for square (r, c).
    pub problem: Problem,
    /// What each item stands for, indexed by item id.
    pub lines: Vec<Line>,
}

/// Builds the exact-cover model of an n×n board (`n >= 1`), with the layout of the module
/// documentation.
pub fn exact_cover(n: usize, corners: Corners) -> ExactCover {
    assert!(n >= 1, "a board has at least one square");
    let mut b = ProblemBuilder::new();
    let mut lines = Vec::with_capacity(6 * n);
    let mut rank = vec![ItemId(0); n];
    let mut file = vec![ItemId(0); n];
    for i in organ_pipe(n) {
        rank[i] = b.primary(&format!("r{i}")).expect("fresh name");
        lines.push(Line::Rank(i as u32));
        file[i] = b.primary(&format!("c{i}")).expect("fresh name");
        lines.push(Line::File(i as u32));
    }
    let last = 2 * n - 2;
    let keep = |d: usize| corners == Corners::Keep || (d != 0 && d != last);
    let mut diag = vec![None; last + 1];
    let mut anti = vec![None; last + 1];
    for d in (0..=last).filter(|&d| keep(d)) {
        diag[d] = Some(b.secondary(&format!("a{d}")).expect("fresh name"));
        lines.push(Line::Diagonal(d as u32));
        anti[d] = Some(b.secondary(&format!("b{d}")).expect("fresh name"));
        lines.push(Line::AntiDiagonal(d as u32));
    }
    let board = Board::new(n);
    for r in 0..n {
        for c in 0..n {
            let mut entries = vec![Entry::plain(rank[r]), Entry::plain(file[c])];
            entries.extend(diag[r + c].map(Entry::plain));
            entries.extend(anti[n - 1 - r + c].map(Entry::plain));
            let id = b.add_option(entries, 0).expect("valid option");
            debug_assert_eq!(id, board.option(r, c));
        }
    }
    ExactCover {
        board,
        problem: b.build().expect("items declared"),
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn middle_first_order_is_a_permutation() {
        assert_eq!(organ_pipe(8), [4, 3, 5, 2, 6, 1, 7, 0]);
        assert_eq!(organ_pipe(7), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(organ_pipe(1), [0]);
        assert_eq!(organ_pipe(2), [1, 0]);
        for n in 1..40 {
            let mut v = organ_pipe(n);
            v.sort();
            assert_eq!(v, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn layouts_with_and_without_corners() {
        let m = exact_cover(8, Corners::Drop);
        let p = &m.problem;
        let names: Vec<&str> = p.items().map(|i| p.item_name(i)).collect();
        assert_eq!(
            names[..16].join(" "),
            "r4 c4 r3 c3 r5 c5 r2 c2 r6 c6 r1 c1 r7 c7 r0 c0"
        );
        assert_eq!(names[16..20].join(" "), "a1 b1 a2 b2");
        assert_eq!(names.len(), 16 + 2 * 13);
        assert_eq!(m.lines.len(), names.len());
        assert_eq!(m.lines[16], Line::Diagonal(1));
        assert_eq!(p.format_option(OptionId(0)), "r0 c0 b7");
        assert_eq!(p.format_option(m.board.option(2, 5)), "r2 c5 a7 b10");
        let s = m.board.square(m.board.option(2, 5));
        assert_eq!((s.rank, s.file), (2, 5));

        let k = exact_cover(8, Corners::Keep);
        let names: Vec<&str> = k.problem.items().map(|i| k.problem.item_name(i)).collect();
        assert_eq!(names[16..18].join(" "), "a0 b0");
        assert_eq!(names.len(), 16 + 2 * 15);
        assert_eq!(k.problem.format_option(OptionId(0)), "r0 c0 a0 b7");
        assert_eq!(k.problem.format_option(OptionId(7)), "r0 c7 a7 b14");
    }
}
