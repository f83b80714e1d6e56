//! The Hungarian method for the assignment bound: a minimum-cost perfect matching on an m×m
//! matrix by shortest augmenting paths with potentials, started warm from given potentials and
//! a partial matching (the parent node's, or the previous subgradient step's), and the integer
//! types it computes in ([`HungarianInt`]).
//!
//! Every intermediate dual sum is a lower bound on the minimum cost (the potentials stay
//! feasible), so a solve can stop as soon as it passes a cutoff, or when a deadline passes.

use std::time::Instant;

/// Below this size a whole solve takes well under a millisecond (at most m³ steps), so it
/// does not look at the clock.
pub(super) const CLOCK_MIN_SIZE: usize = 128;

/// The integer type the Hungarian method computes in: `i32` for the common boards (see
/// `lagrange::fits_i32`; about a fifth faster), `i64` when the board's numbers are small
/// enough for every sum to fit (checked by `lagrange::fits_i64`), else `i128`. The checks
/// live with their user, the Lagrangian bound, which builds on this file.
pub trait HungarianInt:
    Copy
    + Ord
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Neg<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::Div<Output = Self>
    + std::iter::Sum
{
    const ZERO: Self;
    const INF: Self;
    /// The cost of a missing square in the warm-started Hungarian method (its multipliers
    /// are added to it as to any square, at most 2 · `LAMBDA_CAP`): far above any sum of real
    /// costs and potentials, far below `INF`.
    const FORBIDDEN: Self;
    /// Multipliers are capped here (in scaled units; any λ ≥ 0 gives a valid bound).
    const LAMBDA_CAP: i128;
    /// For a narrow type: the largest potential the method may hold. A solve that would go
    /// beyond it stops with `Solved::OutOfRange` (see `lagrange::fits_i32`).
    const POTENTIAL_LIMIT: Option<i128>;
    /// Exact for the values the bound passes (see the range check).
    fn from_i128(x: i128) -> Self;
    fn to_i128(self) -> i128;
}

impl HungarianInt for i64 {
    const ZERO: Self = 0;
    const INF: Self = i64::MAX / 4;
    const FORBIDDEN: Self = 1 << 60;
    const LAMBDA_CAP: i128 = 1 << 40;
    const POTENTIAL_LIMIT: Option<i128> = None;
    fn from_i128(x: i128) -> Self {
        debug_assert!(x.unsigned_abs() < 1 << 60);
        x as i64
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
}

/// The fast type, for boards that pass `lagrange::fits_i32`: real costs
/// below 2^17.2 in absolute value, potentials kept at most 2^25 (checked), so that every real augmenting path is
/// shorter than half of `FORBIDDEN` (at most 2^24.2 of costs plus twice the potentials) and
/// every sum stays below 2^31.
impl HungarianInt for i32 {
    const ZERO: Self = 0;
    const INF: Self = 1 << 30;
    const FORBIDDEN: Self = 1 << 29;
    const LAMBDA_CAP: i128 = 1 << 16;
    const POTENTIAL_LIMIT: Option<i128> = Some(1 << 25);
    fn from_i128(x: i128) -> Self {
        debug_assert!(x.unsigned_abs() < 1 << 30);
        x as i32
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
}

impl HungarianInt for i128 {
    const ZERO: Self = 0;
    const INF: Self = i128::MAX / 4;
    const FORBIDDEN: Self = 1 << 110;
    const LAMBDA_CAP: i128 = 1 << 40;
    const POTENTIAL_LIMIT: Option<i128> = None;
    fn from_i128(x: i128) -> Self {
        x
    }
    fn to_i128(self) -> i128 {
        self
    }
}

/// How a warm-started Hungarian solve ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Solved {
    Optimal,
    /// The dual sum passed the cutoff: the optimum is at least that.
    CutOff,
    /// No perfect matching.
    Infeasible,
    /// A potential would have passed [`HungarianInt::POTENTIAL_LIMIT`]: nothing is known.
    OutOfRange,
    /// The deadline passed: the potentials are feasible, so the dual sum is a lower bound on
    /// the optimum, but the matching is partial.
    TimedOut,
}

/// The Hungarian method (shortest augmenting paths with potentials) for a minimum-cost perfect
/// matching on an m×m matrix, started from given potentials and a partial matching. Rows and
/// columns are 1-based (index 0 is unused, and 0 means "none").
#[derive(Default)]
pub(super) struct WarmHungarian<T> {
    pub(super) u: Vec<T>,
    pub(super) v: Vec<T>,
    /// `p[j]`: row matched to column j (0: none).
    pub(super) p: Vec<usize>,
    /// Scratch for the column minima.
    minv: Vec<T>,
    row_matched: Vec<bool>,
    /// For `augment`: column of each row (0: none), distances and predecessor rows of the
    /// columns, columns not reached yet, and columns reached (matched ones).
    col_of_row: Vec<usize>,
    dist: Vec<T>,
    pred: Vec<usize>,
    todo: Vec<usize>,
    todo_dist: Vec<T>,
    todo_v: Vec<T>,
    todo_pred: Vec<usize>,
    scanned: Vec<usize>,
    /// `T::POTENTIAL_LIMIT` (lowered by a test).
    limit: Option<i128>,
    /// Σu + Σv, kept up to date by `solve` (valid when it ends `Optimal`, `CutOff` or
    /// `TimedOut`).
    pub(super) sum: i128,
    /// A solve checks the clock between augmentations (on large matrices only, see
    /// [`CLOCK_MIN_SIZE`]) and stops with [`Solved::TimedOut`] past this instant.
    pub(super) deadline: Option<Instant>,
}

#[cfg(test)]
thread_local! {
    /// Lowers the potential limit of the narrow type in tests, so that the out-of-range path
    /// (and the caller's second solve) runs.
    pub(crate) static TEST_POTENTIAL_LIMIT: std::cell::Cell<Option<i128>> =
        const { std::cell::Cell::new(None) };
}

impl<T: HungarianInt> WarmHungarian<T> {
    pub(super) fn new() -> Self {
        let limit = T::POTENTIAL_LIMIT;
        #[cfg(test)]
        let limit = limit.map(|l| TEST_POTENTIAL_LIMIT.with(|t| t.get()).unwrap_or(l));
        WarmHungarian {
            limit,
            ..WarmHungarian::default()
        }
    }

    /// Clears the state for an m×m problem (potentials 0, nothing matched).
    pub(super) fn start(&mut self, m: usize) {
        // Distances and predecessors are written before they are read.
        for x in [&mut self.u, &mut self.v] {
            x.clear();
            x.resize(m + 1, T::ZERO);
        }
        for x in [&mut self.minv, &mut self.dist] {
            x.resize(m + 1, T::ZERO);
        }
        self.p.clear();
        self.p.resize(m + 1, 0);
        self.pred.resize(m + 1, 0);
    }

    /// Σu + Σv over the real rows and columns: a lower bound on the minimum cost whenever
    /// the potentials are feasible (`u_i + v_j ≤ cost_ij`).
    pub(super) fn dual_sum(&self, m: usize) -> i128 {
        self.u[1..=m]
            .iter()
            .chain(&self.v[1..=m])
            .map(|x| x.to_i128())
            .sum()
    }

    /// The largest potential in absolute value.
    fn largest_potential(&self, m: usize) -> i128 {
        let u = self.u[1..=m].iter();
        u.chain(&self.v[1..=m])
            .map(|x| x.to_i128().abs())
            .max()
            .unwrap_or(0)
    }

    /// Completes the matching from the current potentials and partial matching. Potentials
    /// are first made feasible (each row's as large as feasible, then each column's), matched
    /// pairs that are not tight are dropped, and every unmatched row is augmented. With a
    /// cutoff, stops as soon as the dual sum exceeds it.
    pub(super) fn solve(&mut self, m: usize, cost: &[T], cutoff: Option<i128>) -> Solved {
        // A missing square costs FORBIDDEN, which no sum of real costs and potentials comes
        // near: a minimum at or above `half` means there was no real square to take.
        let half = T::FORBIDDEN / T::from_i128(2);
        let inf = T::INF;
        // Feasible potentials: u_i = min_j (c_ij − v_j), then v_j = min_i (c_ij − u_i).
        for (i, row) in cost.chunks_exact(m).enumerate() {
            let mut best = inf;
            for (&c, &v) in row.iter().zip(&self.v[1..]) {
                best = best.min(c - v);
            }
            if best >= half {
                return Solved::Infeasible;
            }
            self.u[i + 1] = best;
        }
        let colmin = &mut self.minv[1..];
        colmin.iter_mut().for_each(|x| *x = inf);
        for (row, &u) in cost.chunks_exact(m).zip(&self.u[1..]) {
            for (x, &c) in colmin.iter_mut().zip(row) {
                *x = (*x).min(c - u);
            }
        }
        for (v, &x) in self.v[1..].iter_mut().zip(colmin.iter()) {
            if x >= half {
                return Solved::Infeasible;
            }
            *v = x;
        }
        // Keep only tight matched pairs.
        self.row_matched.clear();
        self.row_matched.resize(m + 1, false);
        for j in 1..=m {
            let i = self.p[j];
            if i != 0 {
                let c = cost[(i - 1) * m + j - 1];
                if c >= half || self.u[i] + self.v[j] != c {
                    self.p[j] = 0;
                } else {
                    self.row_matched[i] = true;
                }
            }
        }
        // With a narrow type, how large the potentials may have grown (each augmentation moves
        // them by at most its path length).
        let mut largest = match self.limit {
            Some(limit) => {
                let p = self.largest_potential(m);
                if p > limit {
                    return Solved::OutOfRange;
                }
                p
            }
            None => 0,
        };
        // The dual sum, kept up to date: an augmentation raises it by exactly its path's
        // length (each scanned column's potential falls by what its matched row's rises).
        self.sum = self.dual_sum(m);
        if cutoff.is_some_and(|k| self.sum > k) {
            return Solved::CutOff;
        }
        self.col_of_row.clear();
        self.col_of_row.resize(m + 1, 0);
        for j in 1..=m {
            self.col_of_row[self.p[j]] = j;
        }
        for i in 1..=m {
            if self.row_matched[i] {
                continue;
            }
            if m >= CLOCK_MIN_SIZE && self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Solved::TimedOut;
            }
            let Some(reach) = self.augment(m, cost, i, half) else {
                return Solved::Infeasible;
            };
            if let Some(limit) = self.limit {
                largest += reach.to_i128();
                if largest > limit {
                    return Solved::OutOfRange;
                }
            }
            self.sum += reach.to_i128();
            debug_assert_eq!(self.sum, self.dual_sum(m));
            if cutoff.is_some_and(|k| self.sum > k) {
                return Solved::CutOff;
            }
        }
        Solved::Optimal
    }

    /// One shortest augmenting path from the unmatched row `start` (Dijkstra over the reduced
    /// costs, columns not yet reached kept in a list, potentials updated once at the end as
    /// in Jonker and Volgenant's method). The path's length in reduced costs (by which no
    /// potential moves further), or None if no unmatched column can be reached.
    fn augment(&mut self, m: usize, cost: &[T], start: usize, half: T) -> Option<T> {
        let inf = T::INF;
        // The columns not reached yet, with their distance, potential and predecessor row
        // side by side (swap-removed together), so the inner loop reads them in order.
        let (todo, dist, v, pred) = (
            &mut self.todo,
            &mut self.todo_dist,
            &mut self.todo_v,
            &mut self.todo_pred,
        );
        todo.clear();
        todo.extend(1..=m);
        let row = &cost[(start - 1) * m..start * m];
        let us = self.u[start];
        dist.clear();
        dist.extend(row.iter().zip(&self.v[1..=m]).map(|(&c, &v)| c - us - v));
        v.clear();
        v.extend_from_slice(&self.v[1..=m]);
        pred.clear();
        pred.resize(m, start);
        self.scanned.clear();
        let (mut best, mut at) = (inf, 0);
        for (k, &d) in dist.iter().enumerate() {
            if d < best {
                best = d;
                at = k;
            }
        }
        let (end, reach) = loop {
            if best >= half || todo.is_empty() {
                return None;
            }
            let j = todo.swap_remove(at);
            let d = dist.swap_remove(at);
            v.swap_remove(at);
            self.pred[j] = pred.swap_remove(at);
            self.dist[j] = d;
            if self.p[j] == 0 {
                break (j, d);
            }
            self.scanned.push(j);
            let i = self.p[j];
            let row = &cost[(i - 1) * m..i * m];
            let base = d - self.u[i];
            best = inf;
            let columns = todo.iter().zip(v.iter());
            for (k, ((&jj, &vj), (dj, pj))) in columns
                .zip(dist.iter_mut().zip(pred.iter_mut()))
                .enumerate()
            {
                debug_assert!(jj >= 1 && jj <= row.len());
                // SAFETY: `todo` holds columns 1..=m and the row is m long. Unchecked, the
                // solve runs fewer instructions (callgrind).
                let nd = base + unsafe { *row.get_unchecked(jj - 1) } - vj;
                if nd < *dj {
                    *dj = nd;
                    *pj = i;
                }
                if *dj < best {
                    best = *dj;
                    at = k;
                }
            }
        };
        for &j in &self.scanned {
            let delta = reach - self.dist[j];
            self.v[j] -= delta;
            self.u[self.p[j]] += delta;
        }
        self.u[start] += reach;
        let mut j = end;
        loop {
            let i = self.pred[j];
            let previous = self.col_of_row[i];
            self.p[j] = i;
            self.col_of_row[i] = j;
            if i == start {
                return Some(reach);
            }
            j = previous;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// Costs in another integer type, missing squares as its `FORBIDDEN`.
    fn converted<T: HungarianInt>(dense: &[i64]) -> Vec<T> {
        dense
            .iter()
            .map(|&c| {
                if c == i64::FORBIDDEN {
                    T::FORBIDDEN
                } else {
                    T::from_i128(c as i128)
                }
            })
            .collect()
    }

    fn permute(v: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            permute(v, k + 1, f);
            v.swap(k, i);
        }
    }

    /// Cold and warm starts (random potentials, random partial matchings) against all
    /// permutations, in i32, i64 and i128, with cutoffs that must be honoured.
    #[test]
    fn warm_hungarian_matches_brute_force() {
        let mut g = SplitMix64::new(7);
        let mut h = WarmHungarian::<i64>::new();
        let mut h128 = WarmHungarian::<i128>::new();
        let mut h32 = WarmHungarian::<i32>::new();
        for m in 1..=6 {
            for _ in 0..60 {
                let cost: Vec<Option<i64>> = (0..m * m)
                    .map(|_| (g.below(4) != 0).then(|| g.range(-50, 20)))
                    .collect();
                let mut best: Option<i64> = None;
                let mut perm: Vec<usize> = (0..m).collect();
                permute(&mut perm, 0, &mut |p| {
                    let s: Option<i64> = (0..m).map(|i| cost[i * m + p[i]]).sum();
                    if let Some(s) = s {
                        best = Some(best.map_or(s, |b| b.min(s)));
                    }
                });
                let dense: Vec<i64> = cost.iter().map(|c| c.unwrap_or(i64::FORBIDDEN)).collect();
                let dense128: Vec<i128> = converted(&dense);
                let dense32: Vec<i32> = converted(&dense);
                for warm in [false, true] {
                    h.start(m);
                    h128.start(m);
                    h32.start(m);
                    if warm {
                        for k in 1..=m {
                            h.v[k] = g.range(-30, 30);
                            h128.v[k] = h.v[k] as i128;
                            h32.v[k] = h.v[k] as i32;
                        }
                        for j in 1..=m {
                            if g.below(2) == 0 {
                                let i = 1 + g.below(m as u64) as usize;
                                if !h.p.contains(&i) {
                                    h.p[j] = i;
                                    h128.p[j] = i;
                                    h32.p[j] = i;
                                }
                            }
                        }
                    }
                    let got = h.solve(m, &dense, None);
                    let got128 = h128.solve(m, &dense128, None);
                    let got32 = h32.solve(m, &dense32, None);
                    assert_eq!(got32, got128);
                    match best {
                        None => {
                            assert_eq!(got, Solved::Infeasible, "{cost:?}");
                            assert_eq!(got128, Solved::Infeasible);
                        }
                        Some(b) => {
                            assert_eq!(got, Solved::Optimal, "{cost:?}");
                            assert_eq!(got128, Solved::Optimal);
                            assert_eq!(h.dual_sum(m), b as i128, "{cost:?} warm={warm}");
                            assert_eq!(h128.dual_sum(m), b as i128);
                            assert_eq!(h32.dual_sum(m), b as i128);
                            let matched: i64 =
                                (1..=m).map(|j| dense[(h.p[j] - 1) * m + j - 1]).sum();
                            assert_eq!(matched, b);
                            // A cutoff below the optimum stops the solve with a dual sum
                            // above it, which is still a valid lower bound.
                            h.start(m);
                            if h.solve(m, &dense, Some(b as i128 - 1)) == Solved::CutOff {
                                let d = h.dual_sum(m);
                                assert!(d > b as i128 - 1 && d <= b as i128);
                            }
                        }
                    }
                }
            }
        }
    }

    /// A solve whose potentials would pass the limit says so instead of answering.
    #[test]
    fn narrow_potentials_out_of_range_are_reported() {
        let cost: Vec<i32> = vec![5, 9, 2, 7, 1, 8, 6, 3, 4];
        let mut h = WarmHungarian::<i32>::new();
        h.start(3);
        assert_eq!(h.solve(3, &cost, None), Solved::Optimal);
        assert_eq!(h.dual_sum(3), 9); // 2 + 1 + 6, the least of the six permutations
        let mut h = WarmHungarian::<i32>::new();
        h.limit = Some(1);
        h.start(3);
        assert_eq!(h.solve(3, &cost, None), Solved::OutOfRange);
    }
}
