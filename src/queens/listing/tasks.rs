//! The task prefixes and the word-parallel (bitboard) enumerator below a prefix, in
//! lexicographic order.

use std::ops::ControlFlow;

use crate::queens::common::full_mask;
use crate::queens::symmetry;

use super::MAX_N;

/// Files that may stand on rank 0: all, or with `unique` only `0..=(n-1)/2`.
fn rank0_mask(n: usize, unique: bool) -> u32 {
    if unique {
        full_mask(n.div_ceil(2))
    } else {
        full_mask(n)
    }
}

/// The task prefixes for `n` (`1..=32`): every placement of the first `d` ranks with no two
/// queens attacking each other, in lexicographic order, for the smallest depth `d` giving at
/// least `min_tasks` prefixes (or `d = n`). Concatenated in this order, the tasks' solutions
/// are all solutions in lexicographic order. Some prefixes have no solution.
pub fn tasks(n: usize, min_tasks: usize) -> Vec<Vec<u8>> {
    assert!(
        (1..=MAX_N).contains(&n),
        "n must be in 1..={MAX_N}, got {n}"
    );
    let mut level: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &level {
            let (cols, ld, rd) = match place(n, p) {
                Some(s) => s,
                None => continue,
            };
            let mut a = full_mask(n) & !(cols | ld | rd);
            while a != 0 {
                let bit = a & a.wrapping_neg();
                a ^= bit;
                let mut q = Vec::with_capacity(p.len() + 1);
                q.extend_from_slice(p);
                q.push(bit.trailing_zeros() as u8);
                next.push(q);
            }
        }
        level = next;
        if level.len() >= min_tasks {
            break;
        }
    }
    level
}

/// The masks after placing `prefix` (files taken, left and right diagonals as seen from the
/// next rank), or `None` when two of its queens attack each other or a file is off the board.
pub(super) fn place(n: usize, prefix: &[u8]) -> Option<(u32, u32, u32)> {
    let (mut cols, mut ld, mut rd) = (0u32, 0u32, 0u32);
    for &c in prefix {
        if usize::from(c) >= n {
            return None;
        }
        let bit = 1u32 << c;
        if (cols | ld | rd) & bit != 0 {
            return None;
        }
        cols |= bit;
        ld = (ld | bit) << 1;
        rd = (rd | bit) >> 1;
    }
    Some((cols, ld, rd))
}

/// Calls `emit(q, class_size)` for every solution extending `prefix`, in lexicographic order
/// of `q`; with `unique` only for class representatives, with `class_size = Some(size)`
/// (`None` without `unique`). Stops at the first `Break` of `emit` and returns it. A prefix
/// with attacking queens (or as long as the board and not a solution) has no solutions.
/// Panics unless `1 <= n <= 32` and `prefix.len() <= n`.
pub fn for_each_solution_in<B>(
    n: usize,
    prefix: &[u8],
    unique: bool,
    mut emit: impl FnMut(&[u8], Option<u8>) -> ControlFlow<B>,
) -> ControlFlow<B> {
    assert!(
        (1..=MAX_N).contains(&n),
        "n must be in 1..={MAX_N}, got {n}"
    );
    assert!(prefix.len() <= n, "prefix longer than the board");
    if unique
        && prefix
            .first()
            .is_some_and(|&c| rank0_mask(n, true) & (1 << c) == 0)
    {
        return ControlFlow::Continue(());
    }
    let Some((cols, ld, rd)) = place(n, prefix) else {
        return ControlFlow::Continue(());
    };
    let mut q = [0u8; MAX_N];
    q[..prefix.len()].copy_from_slice(prefix);
    let mut leaf = |q: &[u8]| {
        if unique {
            match symmetry::representative_class(q) {
                Some(size) => emit(q, Some(size)),
                None => ControlFlow::Continue(()),
            }
        } else {
            emit(q, None)
        }
    };
    let r = prefix.len();
    if r == n {
        return leaf(&q[..n]);
    }
    let first = if r == 0 {
        rank0_mask(n, unique)
    } else {
        full_mask(n)
    };
    let mut walk = Walk {
        n,
        mask: full_mask(n),
        q,
    };
    walk.descend(r, first & !(cols | ld | rd), cols, ld, rd, &mut leaf)
}

/// The state of one enumeration: the board size, the mask of its files, the files placed.
struct Walk {
    n: usize,
    mask: u32,
    q: [u8; MAX_N],
}

impl Walk {
    /// Tries the open files `open` of rank `r` in increasing order, below the masks
    /// `(cols, ld, rd)` of the ranks above.
    #[inline]
    fn descend<B>(
        &mut self,
        r: usize,
        mut open: u32,
        cols: u32,
        ld: u32,
        rd: u32,
        leaf: &mut impl FnMut(&[u8]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if r + 1 == self.n {
            // The last rank has one file left, if any.
            if open != 0 {
                self.q[r] = open.trailing_zeros() as u8;
                return leaf(&self.q[..self.n]);
            }
            return ControlFlow::Continue(());
        }
        if r + 2 == self.n {
            // The last two ranks without a call: rank n-1 has one file left, if any.
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                let last = self.mask & !(cols | bit | (ld | bit) << 1 | (rd | bit) >> 1);
                if last != 0 {
                    self.q[r] = bit.trailing_zeros() as u8;
                    self.q[r + 1] = last.trailing_zeros() as u8;
                    leaf(&self.q[..self.n])?;
                }
            }
            return ControlFlow::Continue(());
        }
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            self.q[r] = bit.trailing_zeros() as u8;
            let (c, l, d) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
            let next = self.mask & !(c | l | d);
            if next != 0 {
                self.descend(r + 1, next, c, l, d, leaf)?;
            }
        }
        ControlFlow::Continue(())
    }
}
