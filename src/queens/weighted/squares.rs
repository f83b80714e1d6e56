//! The free squares of a node (what the queens bounds read from the search's view), the
//! rank/file maxima of a whole board, and the cheap bound made of them.

use crate::engine::optimize::Bound;
use crate::engine::{OptionId, View};

use super::Line;
use super::ties::TieBreak;

/// The still-safe squares of the free ranks, read from the search's view, as a matrix over the
/// free ranks × free files. Shared by the queens bounds.
pub(super) struct FreeSquares {
    pub(super) n: usize,
    pub(super) ranks: Vec<u32>,
    /// Position of each free file among the free files, `u32::MAX` if not free.
    pub(super) file_pos: Vec<u32>,
    pub(super) files: usize,
    /// The free files, in the order of their positions.
    pub(super) file_list: Vec<u32>,
    /// `cell[i·files + j]`: weight of the safe square (rank i, file j) or None.
    pub(super) cell: Vec<Option<i64>>,
}

impl FreeSquares {
    pub(super) fn new(n: usize) -> Self {
        FreeSquares {
            n,
            ranks: Vec::with_capacity(n),
            file_pos: vec![u32::MAX; n],
            files: 0,
            file_list: Vec::with_capacity(n),
            cell: Vec::with_capacity(n * n),
        }
    }

    /// Fills from the view; false if a free rank or file has no safe square left.
    pub(super) fn read(&mut self, view: &View<'_>, lines: &[Line], board: &[i64]) -> bool {
        let n = self.n;
        self.ranks.clear();
        self.file_pos.iter_mut().for_each(|p| *p = u32::MAX);
        self.files = 0;
        self.file_list.clear();
        let mut rank_items = Vec::with_capacity(n);
        for item in view.active_primary() {
            if view.len(item) == 0 {
                return false;
            }
            match lines[item.0 as usize] {
                Line::Rank(r) => {
                    self.ranks.push(r);
                    rank_items.push(item);
                }
                Line::File(c) => {
                    self.file_pos[c as usize] = self.files as u32;
                    self.file_list.push(c);
                    self.files += 1;
                }
                Line::Diagonal(_) | Line::AntiDiagonal(_) => {}
            }
        }
        let m = self.files;
        self.cell.clear();
        self.cell.resize(self.ranks.len() * m, None);
        for (i, &item) in rank_items.iter().enumerate() {
            for o in view.options(item) {
                let c = o.0 as usize % n;
                let j = self.file_pos[c] as usize;
                self.cell[i * m + j] = Some(board[o.0 as usize]);
            }
        }
        true
    }
}

/// The rank/file maxima of a whole board: min(Σ over ranks of the rank's largest number, Σ
/// over files of the same), an upper bound on every layout's score, in O(n²).
pub(crate) fn rank_file_maxima(n: usize, board: &[i64]) -> i128 {
    let mut by_rank = 0i128;
    let mut col = vec![i64::MIN; n];
    for row in board.chunks_exact(n) {
        by_rank += row.iter().copied().max().unwrap_or(0) as i128;
        for (c, &w) in col.iter_mut().zip(row) {
            *c = (*c).max(w);
        }
    }
    let by_file: i128 = col.iter().map(|&c| c as i128).sum();
    by_rank.min(by_file)
}

/// The rank/file maxima bound: min(Σ over free ranks of the best safe square, Σ over free
/// files of the same). Cheap and weak.
pub(crate) struct RankFileMaxBound<'a> {
    lines: &'a [Line],
    board: &'a [i64],
    free: FreeSquares,
    ties: TieBreak,
}

impl<'a> RankFileMaxBound<'a> {
    /// The bound for an n×n `board` with the model's rank and file `lines`.
    pub fn new(n: usize, lines: &'a [Line], board: &'a [i64]) -> Self {
        RankFileMaxBound {
            lines,
            board,
            free: FreeSquares::new(n),
            ties: TieBreak::new(n, lines),
        }
    }
}

impl Bound for RankFileMaxBound<'_> {
    const TIE_BREAK: bool = true;

    fn precedes(&mut self, view: &View<'_>, best: &[OptionId]) -> bool {
        self.ties.precedes(view, best)
    }

    fn bound(&mut self, view: &View<'_>, _: Option<i128>) -> Option<i128> {
        if !self.free.read(view, self.lines, self.board) {
            return None;
        }
        let m = self.free.files;
        let mut by_rank = 0i128;
        let mut col = vec![None::<i64>; m];
        for i in 0..self.free.ranks.len() {
            let mut best = None::<i64>;
            for (j, cm) in col.iter_mut().enumerate() {
                if let Some(w) = self.free.cell[i * m + j] {
                    best = Some(best.map_or(w, |b| b.max(w)));
                    *cm = Some(cm.map_or(w, |b| b.max(w)));
                }
            }
            by_rank += best? as i128;
        }
        let mut by_file = 0i128;
        for c in col {
            by_file += c? as i128;
        }
        Some(by_rank.min(by_file))
    }
}
