//! The Lagrangian assignment bound with warm starts: the default bound of the weighted
//! n-queens branch and bound (and, with no multipliers, the plain assignment bound).
//!
//! The bound at a node is `assignment(w − λ_a − λ_b) + Σλ`: a maximum-weight assignment of the
//! free ranks to the free files over the still-safe squares, with the diagonals' multipliers
//! λ ≥ 0 subtracted, plus the multipliers of the diagonals that still hold a safe square. It is
//! valid for any λ ≥ 0: a placement of the remaining queens is an assignment, and it uses each
//! such diagonal at most once, so it scores at most its penalised weight plus Σλ. Four things
//! make it cheap and strong enough per node for n = 40:
//!
//! 1. **Dual inheritance.** The dual solution (U per rank, V per file, with
//!    `U_r + V_c + λ_a + λ_b ≥ w_rc` on every safe square) of a node stays feasible in its
//!    children, which only lose squares. So the best total through square (r, c) is at most
//!    the node's bound minus the square's reduced cost `U_r + V_c + λ_a + λ_b − w_rc`, in O(1).
//! 2. **Reduced-cost fixing.** The squares for which that is below the target are excluded
//!    from the node's subtree ([`Bound::exclude`]), so the engine branches on shorter lists; a
//!    child that still fails the test is pruned without a Hungarian solve.
//! 3. **Warm starts.** A child starts its Hungarian method from the parent's duals and
//!    matching (of the step with the tightest bound): potentials are made feasible again and
//!    only the ranks whose matched square was lost are augmented. The subgradient steps that
//!    follow start from the previous step's duals in the same way.
//! 4. **Fixed-point multipliers.** Weights are scaled by [`SCALE`], so the multipliers move in
//!    steps of 1/SCALE of a weight unit and converge close to the LP bound; the bound is
//!    rounded down to an integer at the end (the weights are integers).
//!
//! Every dual value along the way is a valid bound, so the Hungarian method stops as soon as
//! the node is proven useless (its dual sum drops below the target).

use super::FreeSquares;
use crate::engine::optimize::Bound;
use crate::engine::{OptionId, View};

/// Weights are multiplied by this before the multipliers are subtracted.
pub const SCALE: i128 = 16;

/// A root that starts from another root's state (the next aim, or the next part of a
/// parallel search) gets this many times the steps of an ordinary node.
const WARM_ROOT_FACTOR: u32 = 4;

/// The state a node leaves for its children.
#[derive(Clone, Default)]
struct Level<T> {
    /// Duals in the maximisation form, by rank and by file (scaled units).
    u_rank: Vec<T>,
    v_file: Vec<T>,
    /// The assignment: file of each free rank (`u32::MAX` if none).
    file_of_rank: Vec<u32>,
    /// The multipliers the duals belong to (scaled units).
    lambda_a: Vec<T>,
    lambda_b: Vec<T>,
    /// What the free ranks can still add, in scaled units: Σ U + Σ V + Σλ (of this state).
    value: i128,
    /// False when the node was pruned by the O(1) test (it left no state).
    valid: bool,
}

impl<T: HungarianInt> Level<T> {
    /// `U_r + V_c + λ_a + λ_b` of square (r, c) (scaled): what placing a queen there takes
    /// from this node's bound, before its weight is counted. The square's reduced cost is
    /// this minus its scaled weight.
    fn dual_cover(&self, n: usize, r: usize, c: usize) -> i128 {
        (self.u_rank[r] + self.v_file[c] + self.lambda_a[r + c] + self.lambda_b[r + n - 1 - c])
            .to_i128()
    }

    /// The reduced cost of the square of option `o` (scaled): its `dual_cover` minus its
    /// scaled weight. The best total through the square is the node's value minus this.
    fn reduced_cost(&self, n: usize, board: &[i64], o: OptionId) -> i128 {
        let (r, c) = (o.0 as usize / n, o.0 as usize % n);
        self.dual_cover(n, r, c) - SCALE * board[o.0 as usize] as i128
    }
}

impl<T: Copy> Level<T> {
    /// `clone_from` field by field, reusing the allocations.
    fn copy_from(&mut self, o: &Level<T>) {
        self.u_rank.clone_from(&o.u_rank);
        self.v_file.clone_from(&o.v_file);
        self.file_of_rank.clone_from(&o.file_of_rank);
        self.lambda_a.clone_from(&o.lambda_a);
        self.lambda_b.clone_from(&o.lambda_b);
        self.value = o.value;
        self.valid = o.valid;
    }
}

/// Counters of what the bound did, for tuning and the benchmark.
#[derive(Copy, Clone, Debug, Default)]
pub struct BoundStats {
    /// Nodes pruned by the parent's duals alone.
    pub quick_prunes: u64,
    /// Nodes that ran the Hungarian method.
    pub full: u64,
    /// Hungarian solves (one per subgradient step).
    pub solves: u64,
    /// Shortest-path augmentations in all.
    pub augmentations: u64,
    /// Squares left out of subtrees by reduced-cost fixing.
    pub excluded: u64,
}

/// The Lagrangian assignment bound with dual inheritance and warm starts (see the module).
pub struct LagrangeBound<'a, T> {
    n: usize,
    lines: &'a [Option<(bool, u32)>],
    board: &'a [i64],
    free: FreeSquares,
    /// Subgradient steps per node, and at the root.
    steps: u32,
    root_steps: u32,
    /// `levels[d]`: the state of the last node bounded at depth `d` (its parent's for depth
    /// d + 1 in a depth-first search).
    levels: Vec<Level<T>>,
    /// Depth of the current search's root (forced options count as depth).
    root_depth: Option<usize>,
    hungarian: WarmHungarian<T>,
    /// Scratch: the node's scaled weights (minimisation form, `FORBIDDEN` for unsafe
    /// squares) and the penalised cost matrix of a step.
    base: Vec<T>,
    cost: Vec<T>,
    has_a: Vec<i32>,
    has_b: Vec<i32>,
    count_a: Vec<i32>,
    count_b: Vec<i32>,
    /// Polyak step scale in percent, adapted across nodes.
    mu: i128,
    /// A typical weight (scaled), for the first steps without a target.
    typical: i128,
    pub stats: BoundStats,
    /// The last node's goal (scaled), for `exclude`.
    goal: Option<i128>,
    /// Scratch: the state of the step with the tightest bound so far at this node.
    best_state: Level<T>,
    /// Scratch: the node's free files c, each with n − 1 − c.
    files: Vec<(u32, u32)>,
    /// Set when a solve went out of the range of `T` (see [`LagrangeBound::out_of_range`]).
    out_of_range: bool,
}

impl<'a, T: HungarianInt> LagrangeBound<'a, T> {
    /// `steps` subgradient steps per node, `root_steps` at the root.
    pub fn new(
        n: usize,
        lines: &'a [Option<(bool, u32)>],
        board: &'a [i64],
        steps: u32,
        root_steps: u32,
    ) -> Self {
        let lo = board.iter().copied().min().unwrap_or(0) as i128;
        let hi = board.iter().copied().max().unwrap_or(0) as i128;
        LagrangeBound {
            n,
            lines,
            board,
            free: FreeSquares::new(n),
            steps,
            root_steps,
            levels: Vec::new(),
            root_depth: None,
            hungarian: WarmHungarian::new(),
            base: Vec::new(),
            cost: Vec::new(),
            has_a: vec![-1; 2 * n],
            has_b: vec![-1; 2 * n],
            count_a: vec![0; 2 * n],
            count_b: vec![0; 2 * n],
            mu: 100,
            typical: ((hi - lo) * SCALE / 4).max(1),
            stats: BoundStats::default(),
            goal: None,
            best_state: Level::default(),
            files: Vec::new(),
            out_of_range: false,
        }
    }

    /// Whether the Hungarian method went out of the range of `T` (only the `i32` version can):
    /// the search's result is then void, and the board must be solved again with `i64`.
    pub fn out_of_range(&self) -> bool {
        self.out_of_range
    }

    fn level_mut(&mut self, d: usize) -> &mut Level<T> {
        let n = self.n;
        while self.levels.len() <= d {
            self.levels.push(Level {
                u_rank: vec![T::ZERO; n],
                v_file: vec![T::ZERO; n],
                file_of_rank: vec![u32::MAX; n],
                lambda_a: vec![T::ZERO; 2 * n],
                lambda_b: vec![T::ZERO; 2 * n],
                value: 0,
                valid: false,
            });
        }
        &mut self.levels[d]
    }
}

/// Rounds a scaled bound down to whole weight units.
fn unscale(x: i128) -> i128 {
    x.div_euclid(SCALE)
}

impl<T: HungarianInt> Bound for LagrangeBound<'_, T> {
    const ORDERS: bool = true;

    /// Best total through the square first (the node's bound minus the square's reduced
    /// cost), which finds good layouts early in the last search; ties keep the list order.
    fn order(&mut self, view: &View<'_>, options: &mut [OptionId]) {
        let n = self.n;
        let Some(lv) = self.levels.get(view.depth()).filter(|lv| lv.valid) else {
            return;
        };
        options.sort_by_key(|&o| lv.reduced_cost(n, self.board, o));
    }

    fn exclude(&mut self, view: &View<'_>, out: &mut Vec<OptionId>) {
        let before = out.len();
        self.fixable(view, out);
        self.stats.excluded += (out.len() - before) as u64;
    }

    fn bound(&mut self, view: &View<'_>, target: Option<i128>) -> Option<i128> {
        if self.out_of_range {
            return None;
        }
        let n = self.n;
        let depth = view.depth();
        // A new search (the first node, or one not below the last root). Another search from
        // a root at the same depth (the next aim of `optimize_aiming`) starts from the last
        // root's multipliers and duals with the steps of an ordinary node: any start is valid
        // (the Hungarian method repairs it) and this one is already good. Otherwise the root
        // starts from zero and gets the root's many steps.
        let mut warm_root = false;
        if self.root_depth.is_none_or(|r| depth <= r) {
            warm_root =
                self.root_depth == Some(depth) && self.levels.get(depth).is_some_and(|lv| lv.valid);
            self.root_depth = Some(depth);
            self.levels.truncate(if warm_root { depth + 1 } else { 0 });
            if !warm_root {
                self.mu = 100;
            }
        }
        let root = self.root_depth == Some(depth);
        // In scaled units the node is useless when its value is below `goal`.
        let goal = target.map(|t| t.saturating_mul(SCALE));
        self.goal = goal;
        // 1. The O(1) test from the parent's duals.
        if !root {
            let last = view.chosen().last().expect("below the root");
            let (r, c) = (last.0 as usize / n, last.0 as usize % n);
            let parent = &self.levels[depth - 1];
            debug_assert!(parent.valid);
            let quick = parent.value - parent.dual_cover(n, r, c);
            if goal.is_some_and(|g| quick < g) {
                self.stats.quick_prunes += 1;
                self.level_mut(depth).valid = false;
                return Some(unscale(quick));
            }
        }
        if !self.free.read(view, self.lines, self.board) {
            self.level_mut(depth).valid = false;
            return None;
        }
        let m = self.free.ranks.len();
        // 2. Start from the parent's state (or from zero at the root).
        self.level_mut(depth);
        if root && !warm_root {
            let lv = &mut self.levels[depth];
            lv.u_rank.iter_mut().for_each(|x| *x = T::ZERO);
            lv.v_file.iter_mut().for_each(|x| *x = T::ZERO);
            lv.file_of_rank.iter_mut().for_each(|x| *x = u32::MAX);
            lv.lambda_a.iter_mut().for_each(|x| *x = T::ZERO);
            lv.lambda_b.iter_mut().for_each(|x| *x = T::ZERO);
        } else if !root {
            let (above, below) = self.levels.split_at_mut(depth);
            let (parent, lv) = (&above[depth - 1], &mut below[0]);
            lv.u_rank.clone_from(&parent.u_rank);
            lv.v_file.clone_from(&parent.v_file);
            lv.file_of_rank.clone_from(&parent.file_of_rank);
            lv.lambda_a.clone_from(&parent.lambda_a);
            lv.lambda_b.clone_from(&parent.lambda_b);
        }
        self.levels[depth].valid = true;
        if m == 0 {
            self.levels[depth].value = 0;
            return Some(0);
        }
        self.stats.full += 1;
        let steps = if root && !warm_root {
            self.root_steps
        } else if root {
            self.steps.saturating_mul(WARM_ROOT_FACTOR)
        } else {
            self.steps
        };
        let mut best: Option<i128> = None;
        // The node's scaled weights (minimisation form) and the diagonals that still hold a
        // safe square (count 0; −1 for none), once per node.
        self.has_a.iter_mut().for_each(|x| *x = -1);
        self.has_b.iter_mut().for_each(|x| *x = -1);
        self.base.clear();
        for i in 0..m {
            let r = self.free.ranks[i] as usize;
            for j in 0..m {
                let c = self.free.file_list[j] as usize;
                self.base.push(match self.free.cell[i * m + j] {
                    Some(w) => {
                        self.has_a[r + c] = 0;
                        self.has_b[r + n - 1 - c] = 0;
                        T::from_i128(-SCALE * w as i128)
                    }
                    None => T::FORBIDDEN,
                });
            }
        }
        self.cost.resize(m * m, T::ZERO);
        self.files.clear();
        let files = self.free.file_list.iter().map(|&c| (c, (n - 1) as u32 - c));
        self.files.extend(files);
        let mut best_step = 0;
        let mut last_step = 0;
        for step in 0..=steps {
            last_step = step;
            let lv = &mut self.levels[depth];
            // Penalised costs, and the penalty Σλ over diagonals with a safe square.
            for i in 0..m {
                let r = self.free.ranks[i] as usize;
                let row = &mut self.cost[i * m..(i + 1) * m];
                let base = &self.base[i * m..(i + 1) * m];
                // The rank's diagonals: square (r, c) is on a-diagonal r + c and b-diagonal
                // r + n − 1 − c, i.e. `la[c]` and `lb[n − 1 − c]`.
                let (la, lb) = (&lv.lambda_a[r..r + n], &lv.lambda_b[r..r + n]);
                // A missing square stays above half of FORBIDDEN, which is all that marks it
                // (the multipliers are capped far below: see `HungarianInt::LAMBDA_CAP`).
                for ((x, &b), &(c, rc)) in row.iter_mut().zip(base).zip(&self.files) {
                    *x = b + la[c as usize] + lb[rc as usize];
                }
            }
            self.count_a.copy_from_slice(&self.has_a);
            self.count_b.copy_from_slice(&self.has_b);
            let mut penalty = T::ZERO;
            for d in 0..2 * n - 1 {
                if self.count_a[d] == 0 {
                    penalty += lv.lambda_a[d];
                }
                if self.count_b[d] == 0 {
                    penalty += lv.lambda_b[d];
                }
            }
            let penalty = penalty.to_i128();
            // Warm start: the duals and the assignment in compact positions.
            let h = &mut self.hungarian;
            h.start(m);
            for i in 0..m {
                let r = self.free.ranks[i] as usize;
                h.u[i + 1] = -lv.u_rank[r];
                let c = lv.file_of_rank[r];
                if c != u32::MAX {
                    let j = self.free.file_pos[c as usize];
                    if j != u32::MAX {
                        h.p[j as usize + 1] = i + 1;
                    }
                }
            }
            for j in 0..m {
                h.v[j + 1] = -lv.v_file[self.free.file_list[j] as usize];
            }
            // Stop when the dual sum proves the node useless: −(Σu + Σv) + penalty < goal.
            let cutoff = goal.map(|g| penalty - g);
            self.stats.solves += 1;
            let solved = h.solve(m, &self.cost, cutoff);
            self.stats.augmentations += h.augmentations;
            // Keep the duals (valid in either case) for the children and the next step.
            for i in 0..m {
                lv.u_rank[self.free.ranks[i] as usize] = -h.u[i + 1];
            }
            for j in 0..m {
                let c = self.free.file_list[j] as usize;
                lv.v_file[c] = -h.v[j + 1];
            }
            lv.file_of_rank.iter_mut().for_each(|x| *x = u32::MAX);
            for j in 1..=m {
                if h.p[j] != 0 {
                    lv.file_of_rank[self.free.ranks[h.p[j] - 1] as usize] =
                        self.free.file_list[j - 1];
                }
            }
            let dual = -h.sum + penalty;
            lv.value = dual;
            match solved {
                Solved::Infeasible => {
                    lv.valid = false;
                    return None;
                }
                Solved::OutOfRange => {
                    // The narrow type will not do for this board: every node is pruned from
                    // here on, and the caller solves the board again in a wider type.
                    self.out_of_range = true;
                    lv.valid = false;
                    return None;
                }
                Solved::CutOff => {
                    // The node is useless; its state is not needed by any child.
                    return Some(unscale(dual));
                }
                Solved::Optimal => {}
            }
            match best {
                Some(b) if dual >= b => self.mu = (self.mu * 2 / 3).max(1),
                Some(_) => self.mu = (self.mu * 11 / 10).clamp(1, 200),
                None => {}
            }
            if best.is_none_or(|b| dual < b) {
                best = Some(dual);
                // The tightest state is the one the children inherit and fixing uses.
                if step < steps {
                    self.best_state.copy_from(lv);
                }
                best_step = step;
            }
            if step == steps || goal.is_some_and(|g| dual < g) {
                break;
            }
            // Subgradient: queens of the assignment per diagonal.
            for j in 1..=m {
                let r = self.free.ranks[h.p[j] - 1] as usize;
                let c = self.free.file_list[j - 1] as usize;
                self.count_a[r + c] += 1;
                self.count_b[r + n - 1 - c] += 1;
            }
            let overloaded = self.count_a.iter().chain(&self.count_b).any(|&g| g >= 2);
            if !overloaded {
                // The assignment is a placement: the bound is exact for this λ.
                break;
            }
            // The subgradient's squared length: queens − 1 per diagonal, over the multipliers
            // that can move (a diagonal with one queen adds 0, an empty one adds 1 only while
            // its multiplier is above 0; −1 marks a diagonal without a safe square).
            let mut norm = 0i64;
            for d in 0..2 * n - 1 {
                for (g, l) in [
                    (self.count_a[d], lv.lambda_a[d]),
                    (self.count_b[d], lv.lambda_b[d]),
                ] {
                    if g >= 2 || (g == 0 && l > T::ZERO) {
                        let g = (g - 1) as i64;
                        norm += g * g;
                    }
                }
            }
            let norm = norm as i128;
            // Below the root, steps of less than one weight unit were measured to pay less
            // than they cost (n = 16..24: 1.2-1.3x the nodes with 1/16-unit steps).
            let min_step = if root { 1 } else { SCALE };
            let step_len = match goal {
                Some(g) if dual > g => ((dual - g) * self.mu / (100 * norm.max(1))).max(min_step),
                _ => (self.typical / (step as i128 + 1)).max(min_step),
            };
            // λ += step · (queens − 1), kept in [0, LAMBDA_CAP]; diagonals with one queen
            // (and those without a square) keep theirs.
            let moves = |count: &[i32], lambda: &mut [T]| {
                for (&g, l) in count.iter().zip(lambda.iter_mut()) {
                    if g >= 0 && g != 1 {
                        let x = l.to_i128() + step_len * (g - 1) as i128;
                        *l = T::from_i128(x.clamp(0, T::LAMBDA_CAP));
                    }
                }
            };
            moves(&self.count_a[..2 * n - 1], &mut lv.lambda_a[..2 * n - 1]);
            moves(&self.count_b[..2 * n - 1], &mut lv.lambda_b[..2 * n - 1]);
        }
        if best_step != last_step {
            std::mem::swap(&mut self.levels[depth], &mut self.best_state);
        }
        best.map(unscale)
    }
}

/// Whether a board's numbers allow the `i64` computation: |w| < 2^31, so scaled and penalised
/// costs stay below 2^41, potentials (path lengths over fewer than 2^10 ranks) below 2^51,
/// far under [`HungarianInt::FORBIDDEN`], and their sums below 2^62.
pub fn fits_i64(n: usize, board: &[i64]) -> bool {
    n < 1 << 10 && board.iter().all(|w| w.unsigned_abs() < 1 << 31)
}

/// Whether a board allows the `i32` computation: n ≤ 64 and |w| ≤ 1024, so scaled weights
/// are at most 2^14 and penalised costs (multipliers capped at 2^16) below 2^17.2.
pub fn fits_i32(n: usize, board: &[i64]) -> bool {
    n <= 64 && board.iter().all(|w| w.unsigned_abs() <= 1 << 10)
}

/// The integer type the Hungarian method computes in: `i32` for the common boards (see
/// [`fits_i32`]; about a fifth faster), `i64` when the board's numbers are small enough for
/// every sum to fit (checked by [`fits_i64`]), else `i128`.
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
    /// beyond it stops with [`Solved::OutOfRange`] (see [`fits_i32`]).
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

/// The fast type, for boards that pass [`fits_i32`]: real costs below 2^17.2 in absolute
/// value, potentials kept at most 2^25 (checked), so that every real augmenting path is
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

/// Reduced-cost fixing at the node: a square whose reduced cost exceeds the node's slack
/// cannot be in a completion that reaches the goal, so it leaves the subtree.
impl<T: HungarianInt> LagrangeBound<'_, T> {
    fn fixable(&self, view: &View<'_>, out: &mut Vec<OptionId>) {
        let Some(goal) = self.goal else { return };
        let n = self.n;
        let Some(lv) = self.levels.get(view.depth()).filter(|lv| lv.valid) else {
            return;
        };
        for item in view.active_primary() {
            if !matches!(self.lines[item.0 as usize], Some((true, _))) {
                continue;
            }
            for o in view.options(item) {
                // The best total through the square, relative to what is chosen so far.
                let through = lv.value - lv.reduced_cost(n, self.board, o);
                if through < goal {
                    out.push(o);
                }
            }
        }
    }
}

/// How a warm-started Hungarian solve ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Solved {
    Optimal,
    /// The dual sum passed the cutoff: the optimum is at least that.
    CutOff,
    /// No perfect matching.
    Infeasible,
    /// A potential would have passed [`HungarianInt::POTENTIAL_LIMIT`]: nothing is known.
    OutOfRange,
}

/// The Hungarian method (shortest augmenting paths with potentials) for a minimum-cost perfect
/// matching on an m×m matrix, started from given potentials and a partial matching. Rows and
/// columns are 1-based (index 0 is unused, and 0 means "none").
#[derive(Default)]
struct WarmHungarian<T> {
    u: Vec<T>,
    v: Vec<T>,
    /// `p[j]`: row matched to column j (0: none).
    p: Vec<usize>,
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
    augmentations: u64,
    /// `T::POTENTIAL_LIMIT` (lowered by a test).
    limit: Option<i128>,
    /// Σu + Σv, kept up to date by `solve` (valid when it ends `Optimal` or `CutOff`).
    sum: i128,
}

#[cfg(test)]
thread_local! {
    /// Lowers the potential limit of the narrow type in tests, so that the out-of-range path
    /// (and the caller's second solve) runs.
    pub(crate) static TEST_POTENTIAL_LIMIT: std::cell::Cell<Option<i128>> =
        const { std::cell::Cell::new(None) };
}

impl<T: HungarianInt> WarmHungarian<T> {
    fn new() -> Self {
        let limit = T::POTENTIAL_LIMIT;
        #[cfg(test)]
        let limit = limit.map(|l| TEST_POTENTIAL_LIMIT.with(|t| t.get()).unwrap_or(l));
        WarmHungarian {
            limit,
            ..WarmHungarian::default()
        }
    }

    /// Clears the state for an m×m problem (potentials 0, nothing matched).
    fn start(&mut self, m: usize) {
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
    fn dual_sum(&self, m: usize) -> i128 {
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
    fn solve(&mut self, m: usize, cost: &[T], cutoff: Option<i128>) -> Solved {
        self.augmentations = 0;
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
            self.augmentations += 1;
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
                let nd = base + row[jj - 1] - vj;
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
    use crate::queens::weighted::SplitMix64;

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
