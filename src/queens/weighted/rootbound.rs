//! The bound reported for a big board under a time limit (issue 14 §3): a long Lagrangian run
//! at the root only, with relax-and-cut on the queens graph's cliques ([`Cliques`]) besides the
//! diagonals. The tree search keeps its ordinary bound (cliques made its nodes dearer and did
//! not pay there, docs/weighted.md); this computes only one number, the tightest it can before
//! a deadline, which is reported when it is below what the search proved.
//!
//! The bound is `assignment(w − λ_a − λ_b − Σ_C μ_C) + Σλ + Σμ` over the whole board: valid for
//! every λ, μ ≥ 0, since a placement is an assignment, holds at most one queen per diagonal and
//! per clique. λ and μ move by a projected subgradient step (Polyak's rule towards the best
//! known layout's score); a clique joins the pool (μ = 0) when the step's assignment puts two
//! queens on a common diagonal of it ([`Cliques::containing`]). Every step's dual sum is a valid
//! bound (the potentials stay feasible), so the smallest one seen is the result, rounded down.

use std::time::Instant;

use super::cliques::Cliques;
use super::hungarian::{HungarianInt, Solved, WarmHungarian};
use super::lagrange::SCALE;

/// The root-only clique bound of `board` (n×n), computed until `deadline` or `max_steps`
/// subgradient steps; `target` is the best known layout's score (for the step lengths).
/// `None` when no step finished (no time, or the board has no placement), or the board's
/// numbers are too large for the `i64` computation (|w| ≥ 2^31 or n ≥ 1024).
pub(crate) fn clique_root_bound(
    n: usize,
    board: &[i64],
    target: Option<i128>,
    deadline: Option<Instant>,
    max_steps: u32,
) -> Option<i128> {
    if n == 0 || !super::lagrange::fits_i64(n, board) {
        return None;
    }
    let mut rb = RootBound::new(n, board);
    rb.run(target, deadline, max_steps, true)
}

/// The state of a root run (`i64`, scaled by [`SCALE`]).
pub(crate) struct RootBound<'a> {
    n: usize,
    board: &'a [i64],
    lambda_a: Vec<i64>,
    lambda_b: Vec<i64>,
    /// The clique pool (clique, μ), and per square the sum of μ of the pool's cliques on it.
    pool: Vec<(u32, i64)>,
    in_pool: Vec<bool>,
    pen: Vec<i64>,
    cliques: Cliques,
    hungarian: WarmHungarian<i64>,
    cost: Vec<i64>,
    /// The step's assignment: file of each rank.
    file_of_rank: Vec<u32>,
    count_a: Vec<i32>,
    count_b: Vec<i32>,
    found: Vec<u32>,
    /// Steps done, and the best (smallest) scaled bound.
    pub(crate) steps: u32,
    best: Option<i128>,
}

impl<'a> RootBound<'a> {
    pub(crate) fn new(n: usize, board: &'a [i64]) -> Self {
        let mut hungarian = WarmHungarian::new();
        hungarian.start(n);
        RootBound {
            n,
            board,
            lambda_a: vec![0; 2 * n - 1],
            lambda_b: vec![0; 2 * n - 1],
            pool: Vec::new(),
            in_pool: Vec::new(),
            pen: vec![0; n * n],
            cliques: Cliques::new(n),
            hungarian,
            cost: vec![0; n * n],
            file_of_rank: vec![u32::MAX; n],
            count_a: vec![0; 2 * n - 1],
            count_b: vec![0; 2 * n - 1],
            found: Vec::new(),
            steps: 0,
            best: None,
        }
    }

    /// Runs subgradient steps (with `cliques`, or on the diagonals only) until `deadline` or
    /// `max_steps` more; returns the best bound so far, rounded down.
    pub(crate) fn run(
        &mut self,
        target: Option<i128>,
        deadline: Option<Instant>,
        max_steps: u32,
        cliques: bool,
    ) -> Option<i128> {
        let n = self.n;
        let lo = self.board.iter().copied().min().unwrap_or(0) as i128;
        let hi = self.board.iter().copied().max().unwrap_or(0) as i128;
        let typical = ((hi - lo) * SCALE / 4).max(1);
        let goal = target.map(|t| t * SCALE);
        let mut mu_pct: i128 = 100;
        let cap = <i64 as HungarianInt>::LAMBDA_CAP as i64;
        self.hungarian.deadline = deadline;
        for _ in 0..max_steps {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            // The penalised costs (minimisation) and the penalty.
            for r in 0..n {
                for c in 0..n {
                    let s = r * n + c;
                    self.cost[s] = -(SCALE as i64) * self.board[s]
                        + self.lambda_a[r + c]
                        + self.lambda_b[r + n - 1 - c]
                        + self.pen[s];
                }
            }
            let penalty: i128 = self
                .lambda_a
                .iter()
                .chain(&self.lambda_b)
                .map(|&x| x as i128)
                .sum::<i128>()
                + self.pool.iter().map(|&(_, m)| m as i128).sum::<i128>();
            let solved = self.hungarian.solve(n, &self.cost, None);
            let value = -self.hungarian.sum + penalty;
            match solved {
                Solved::Optimal => {}
                Solved::TimedOut => {
                    // The potentials are feasible: the value is a bound.
                    self.best = Some(self.best.map_or(value, |b| b.min(value)));
                    break;
                }
                Solved::Infeasible | Solved::OutOfRange | Solved::CutOff => return None,
            }
            self.steps += 1;
            match self.best {
                Some(l) if value >= l => mu_pct = (mu_pct * 2 / 3).max(1),
                Some(_) => mu_pct = (mu_pct * 11 / 10).clamp(1, 200),
                None => {}
            }
            self.best = Some(self.best.map_or(value, |b| b.min(value)));
            // The assignment and its subgradient.
            let h = &self.hungarian;
            for j in 1..=n {
                self.file_of_rank[h.p[j] - 1] = (j - 1) as u32;
            }
            self.count_a.iter_mut().for_each(|x| *x = 0);
            self.count_b.iter_mut().for_each(|x| *x = 0);
            for (r, &c) in self.file_of_rank.iter().enumerate() {
                self.count_a[r + c as usize] += 1;
                self.count_b[r + n - 1 - c as usize] += 1;
            }
            if cliques {
                self.separate();
            }
            let mut norm: i128 = 0;
            for (&g, &l) in self
                .count_a
                .iter()
                .zip(&self.lambda_a)
                .chain(self.count_b.iter().zip(&self.lambda_b))
            {
                if g >= 2 || (g == 0 && l > 0) {
                    norm += ((g - 1) * (g - 1)) as i128;
                }
            }
            let counts: Vec<i32> = self.pool.iter().map(|&(id, _)| self.queens_in(id)).collect();
            for (&(_, m), &g) in self.pool.iter().zip(&counts) {
                if g >= 2 || (g == 0 && m > 0) {
                    norm += ((g - 1) * (g - 1)) as i128;
                }
            }
            if norm == 0 {
                // The assignment is a placement: the bound is exact for these multipliers.
                break;
            }
            let step = match goal {
                Some(g) if value > g => ((value - g) * mu_pct / (100 * norm)).max(1),
                _ => (typical / (self.steps as i128 + 1)).max(1),
            } as i64;
            for (g, l) in self
                .count_a
                .iter()
                .zip(self.lambda_a.iter_mut())
                .chain(self.count_b.iter().zip(self.lambda_b.iter_mut()))
            {
                if *g != 1 {
                    *l = (*l + step * (*g - 1) as i64).clamp(0, cap);
                }
            }
            for (k, &g) in counts.iter().enumerate() {
                if g == 1 {
                    continue;
                }
                let (id, old) = self.pool[k];
                let new = (old + step * (g - 1) as i64).clamp(0, cap);
                if new != old {
                    for &q in self.cliques.members(id) {
                        self.pen[q as usize] += new - old;
                    }
                    self.pool[k].1 = new;
                }
            }
            // Cliques whose μ fell back to 0 leave the pool.
            let (pool, in_pool) = (&mut self.pool, &mut self.in_pool);
            pool.retain(|&(id, m)| {
                let keep = m > 0;
                if !keep {
                    in_pool[id as usize] = false;
                }
                keep
            });
        }
        self.best.map(|b| b.div_euclid(SCALE))
    }

    /// Queens of the step's assignment in clique `id`.
    fn queens_in(&self, id: u32) -> i32 {
        let n = self.n as u32;
        self.cliques
            .members(id)
            .iter()
            .filter(|&&q| self.file_of_rank[(q / n) as usize] == q % n)
            .count() as i32
    }

    /// Adds to the pool (μ = 0) the cliques that two queens of the assignment on a common
    /// diagonal break.
    fn separate(&mut self) {
        let n = self.n;
        self.found.clear();
        // Queens by diagonal: pairs on an overloaded diagonal.
        let mut on_a: Vec<Vec<usize>> = vec![Vec::new(); 2 * n - 1];
        let mut on_b: Vec<Vec<usize>> = vec![Vec::new(); 2 * n - 1];
        for (r, &c) in self.file_of_rank.iter().enumerate() {
            let c = c as usize;
            if self.count_a[r + c] >= 2 {
                on_a[r + c].push(r);
            }
            if self.count_b[r + n - 1 - c] >= 2 {
                on_b[r + n - 1 - c].push(r);
            }
        }
        for ranks in on_a.iter().chain(&on_b) {
            for (i, &r1) in ranks.iter().enumerate() {
                for &r2 in &ranks[i + 1..] {
                    let a = (r1, self.file_of_rank[r1] as usize);
                    let b = (r2, self.file_of_rank[r2] as usize);
                    self.cliques.containing(a, b, &mut self.found);
                }
            }
        }
        if self.in_pool.len() < self.cliques.len() {
            self.in_pool.resize(self.cliques.len(), false);
        }
        for &id in &self.found {
            if !self.in_pool[id as usize] {
                self.in_pool[id as usize] = true;
                self.pool.push((id, 0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::weighted::{Method, Request, WeightedQueens, random_boards};

    /// Property: the clique root bound is never below the optimum (enumeration for n ≤ 10, a
    /// full branch and bound above), after any number of steps, with and without a target
    /// (the optimum itself, which drives the steps hardest), and with cliques at least as
    /// tight as the diagonals alone on most boards.
    #[test]
    fn clique_root_bounds_never_fall_below_the_optimum() {
        for n in 4..=14 {
            let mut model = WeightedQueens::new(n);
            let (lo, hi) = if n % 2 == 0 { (1, 99) } else { (-40, 60) };
            for (b, board) in random_boards(n, 4, 1500 + n as u64, lo, hi)
                .iter()
                .enumerate()
            {
                let best = model
                    .solve(board, &Request::default())
                    .maximum()
                    .expect("a placement for n >= 4");
                let _ = Method::Auto;
                for steps in [1, 2, 5, 20, 100, 400] {
                    for target in [None, Some(best), Some(best - 5)] {
                        let got = clique_root_bound(n, board, target, None, steps)
                            .expect("a bound");
                        assert!(got >= best, "n={n} board {b} steps {steps}: {got} < {best}");
                    }
                }
            }
        }
    }

    /// On a bigger board the cliques tighten the root bound below the diagonals' alone
    /// (same steps), and stay above a known layout's score.
    #[test]
    fn cliques_tighten_the_root_bound() {
        let n = 24;
        let board = &random_boards(n, 1, 1, 1, 99)[0];
        let plain = RootBound::new(n, board).run(Some(2107), None, 1500, false);
        let with = RootBound::new(n, board).run(Some(2107), None, 1500, true);
        let (plain, with) = (plain.expect("a bound"), with.expect("a bound"));
        eprintln!("with {with} plain {plain}");
        let n = 50;
        let board = &random_boards(n, 1, 1, 1, 99)[0];
        for t in [4650, 4600] {
            for steps in [1500, 5000, 20000] {
                let plain = RootBound::new(n, board).run(Some(t), None, steps, false).unwrap();
                let with = RootBound::new(n, board).run(Some(t), None, steps, true).unwrap();
                let mut rb = RootBound::new(n, board);
                let w2 = rb.run(Some(t), None, steps, true).unwrap();
                eprintln!("target {t} steps {steps}: with {with} plain {plain} {w2} pool {} cliques {}", rb.pool.len(), rb.cliques.len());
            }
        }
        assert!(with < plain, "{with} vs {plain}");
        assert!(with >= 2107);
    }
}
