//! The start of a branch and bound: a quick heavy layout (the first in heaviest-first order,
//! improved by swaps), or the explicit construction when that search has no time.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::engine::run::Dance;
use crate::engine::{Budget, OptionId, View, Visitor};

use super::{HEURISTIC_GRACE, layout_of};

/// A quick starting layout: the first solution in heaviest-first order (within a small node
/// budget), then improved by swapping the files of two ranks while that keeps the queens
/// apart and raises the score. The swaps stop at the `deadline`; the first layout may take
/// [`HEURISTIC_GRACE`] beyond it, so that a search given no time still reports a heavy layout
/// when one is quick to find. The grace counts from the deadline, not from the start of the
/// search (which at n = 1000 may come after the deadline); a search that runs out of it stops
/// at once, and [`explicit_layout`] is the start instead (None for n = 2 and 3).
pub fn heuristic(
    n: usize,
    board: &[i64],
    solver: &mut Dance<'_>,
    deadline: Option<Instant>,
) -> Option<Vec<u32>> {
    let budget = Budget {
        nodes: Some(2_000 + 200 * n as u64),
        deadline: deadline.map(|d| d.checked_add(HEURISTIC_GRACE).unwrap_or(d)),
        ..Budget::solutions(1)
    };
    let mut first = FirstLayout {
        n,
        deadline: budget.deadline,
        entered: 0,
        late: false,
        layout: None,
    };
    solver.run(&budget, &mut first);
    let mut q = first.layout.or_else(|| explicit_layout(n))?;
    improve_by_swaps(n, board, &mut q, deadline);
    Some(q)
}

/// A layout for every n except 2 and 3, in O(n), from the classic explicit construction
/// (Hoffman, Loessi and Moore 1969): with 1-based files, rank i takes the i-th of the even
/// files 2, 4, … followed by the odd files 1, 3, …; when n mod 6 = 2 the odd files are
/// 3, 1, 7, 9, …, 5 instead, when n mod 6 = 3 the even files are 4, 6, …, 2 and the odd ones
/// 5, 7, …, 1, 3. The heuristic's start when the search for a heavy first layout ran out of
/// time (at n = 1000 that search alone takes about a second).
pub fn explicit_layout(n: usize) -> Option<Vec<u32>> {
    if n == 2 || n == 3 {
        return None;
    }
    let n32 = n as u32;
    let mut evens: Vec<u32> = (1..=n32).filter(|c| c % 2 == 0).collect();
    let mut odds: Vec<u32> = (1..=n32).filter(|c| c % 2 == 1).collect();
    match n % 6 {
        2 => {
            odds.swap(0, 1);
            let five = odds.remove(2);
            odds.push(five);
        }
        3 => {
            evens.rotate_left(1);
            odds.rotate_left(2);
        }
        _ => {}
    }
    Some(evens.into_iter().chain(odds).map(|c| c - 1).collect())
}

/// The visitor of [`heuristic`]: keeps the first layout, and reads the clock every 16 nodes
/// (the engine does every 1024, which is most of a second at n = 1000), stopping the search
/// once the deadline has passed ([`Visitor::stop`]).
struct FirstLayout {
    n: usize,
    deadline: Option<Instant>,
    entered: u32,
    late: bool,
    layout: Option<Vec<u32>>,
}

impl Visitor for FirstLayout {
    const PRUNES: bool = true;

    fn enter(&mut self, _view: &View<'_>) -> bool {
        if let Some(d) = self.deadline
            && !self.late
        {
            self.entered = self.entered.wrapping_add(1);
            self.late = self.entered.is_multiple_of(16) && Instant::now() >= d;
        }
        !self.late
    }

    fn stop(&self) -> bool {
        self.late
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        self.layout = Some(layout_of(self.n, options));
        ControlFlow::Break(())
    }
}

/// Local repair: swap the files of ranks i and j when both diagonals stay free and the score
/// rises; repeat until no swap helps, or until the `deadline` (checked once per rank).
pub(crate) fn improve_by_swaps(n: usize, board: &[i64], q: &mut [u32], deadline: Option<Instant>) {
    let mut da = vec![0u32; 2 * n];
    let mut db = vec![0u32; 2 * n];
    for (r, &c) in q.iter().enumerate() {
        da[r + c as usize] += 1;
        db[r + n - 1 - c as usize] += 1;
    }
    let w = |r: usize, c: u32| board[r * n + c as usize] as i128;
    let mut improved = true;
    while improved {
        improved = false;
        for i in 0..n {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
            for j in i + 1..n {
                let (ci, cj) = (q[i], q[j]);
                let delta = w(i, cj) + w(j, ci) - w(i, ci) - w(j, cj);
                if delta <= 0 {
                    continue;
                }
                da[i + ci as usize] -= 1;
                db[i + n - 1 - ci as usize] -= 1;
                da[j + cj as usize] -= 1;
                db[j + n - 1 - cj as usize] -= 1;
                let (ai, bi) = (i + cj as usize, i + n - 1 - cj as usize);
                let (aj, bj) = (j + ci as usize, j + n - 1 - ci as usize);
                let ok = da[ai] == 0
                    && db[bi] == 0
                    && da[aj] == 0
                    && db[bj] == 0
                    && ai != aj
                    && bi != bj;
                if ok {
                    q.swap(i, j);
                    da[ai] += 1;
                    db[bi] += 1;
                    da[aj] += 1;
                    db[bj] += 1;
                    improved = true;
                } else {
                    da[i + ci as usize] += 1;
                    db[i + n - 1 - ci as usize] += 1;
                    da[j + cj as usize] += 1;
                    db[j + n - 1 - cj as usize] += 1;
                }
            }
        }
    }
}
