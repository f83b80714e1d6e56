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

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use super::hungarian::{HungarianInt, Solved, WarmHungarian};
use super::{FreeSquares, Line, TieBreak};
use crate::engine::optimize::Bound;
use crate::engine::{ItemId, OptionId, Stop, View};
use crate::random::SplitMix64;

/// Weights are multiplied by this before the multipliers are subtracted.
pub const SCALE: i128 = 16;

/// A root that starts from another root's state (the next aim, or the next part of a
/// parallel search) gets this many times the steps of an ordinary node.
const WARM_ROOT_FACTOR: u32 = 4;

/// A node that starts from the state it ended with in an earlier search ([`Memo`]) gets this
/// many subgradient steps (one solve to make the state feasible for the node again, one
/// step more). Nine proofs at n = 28..40 on one thread: 65–74 s with 1, 67 s with 3, 71 s
/// with 5, 74 s with 8, 78 s with none; 83 s without a memo.
const MEMO_STEPS: u32 = 1;

/// The memory a [`Memo`] may take (about 175,000 states at n = 40; 290 MB peak at n = 40).
pub const MEMO_BYTES: usize = 256 << 20;

/// The bound looks at the clock (when the search has a deadline) once its steps have done
/// about this much work since the last look, counted as m² per step on an m×m matrix: a few
/// microseconds of steps at n = 20, every step at n = 1000.
const CLOCK_WORK: u64 = 1 << 16;

/// How one step's solve ended, with the node's value (scaled) where it is a bound.
enum StepEnd {
    Optimal(i128),
    /// The value is below the cutoff: the node is useless.
    CutOff(i128),
    /// The deadline passed during the solve: the value is a bound, the matching partial.
    TimedOut(i128),
    Infeasible,
    OutOfRange,
}

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

/// The states that nodes of earlier searches of the same board ended with, to start the same
/// nodes from in a later search (the next aim, or the next floor of a descent).
///
/// A series of floor searches visits the nodes of each search again in the next, lower one:
/// its tree contains the last one's when each node branches on the item it branched on then
/// ([`Bound::choose`]). A node starts from its parent's state and needs its full subgradient
/// steps to tighten it; starting from the state it ended with last time, it needs only
/// [`MEMO_STEPS`]. Any start is valid (the Hungarian method makes the potentials feasible
/// again) and so is any branching item, so the memo changes the speed, never the answer: a
/// key that collides only gives a poorer start. Shared by the threads of a search (a part of
/// a parallel search may go to another thread in the next one).
pub struct Memo<T> {
    /// One random key per option (square): a node's key is the XOR of its chosen options'.
    keys: Vec<u64>,
    states: Mutex<HashMap<u64, Remembered<T>>>,
    /// At most this many states are kept (the first ones: the earliest searches' nodes,
    /// which every later search visits again).
    capacity: usize,
}

/// What a [`Memo`] keeps of a node: the state it ended with, and the item it branched on.
type Remembered<T> = (Level<T>, Option<ItemId>);

#[cfg(test)]
thread_local! {
    /// Gives every node of the memos made on this thread the same key in tests, so that each
    /// node starts from (and branches on the item of) whichever node was kept last.
    pub(crate) static TEST_MEMO_COLLIDES: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
}

impl<T: HungarianInt> Memo<T> {
    /// A memo for boards of n×n squares holding states in at most about `bytes` of memory.
    pub fn new(n: usize, bytes: usize) -> Memo<T> {
        let mut g = SplitMix64::new(0x6d65_6d6f);
        // Five vectors of n or 2n values, their headers and allocations, the map's slot.
        let per_state = 7 * n * std::mem::size_of::<T>() + 400;
        #[cfg(test)]
        let collide = TEST_MEMO_COLLIDES.with(|t| t.get());
        #[cfg(not(test))]
        let collide = false;
        Memo {
            keys: (0..n * n)
                .map(|_| if collide { 0 } else { g.next_u64() })
                .collect(),
            states: Mutex::new(HashMap::new()),
            capacity: bytes / per_state,
        }
    }

    /// The node's key: the XOR of its chosen options' keys, whatever their order.
    fn key(&self, view: &View<'_>) -> u64 {
        let key = |o: OptionId| self.keys.get(o.0 as usize).copied().unwrap_or(0);
        view.chosen().fold(0, |k, o| k ^ key(o))
    }

    /// The state a node with `key` ended with, copied into `into`, and the item it branched
    /// on; None if none is kept.
    fn recall(&self, key: u64, into: &mut Level<T>) -> Option<Option<ItemId>> {
        let states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        states.get(&key).map(|(lv, item)| {
            into.copy_from(lv);
            *item
        })
    }

    /// Keeps the item a node (already kept) branches on.
    fn keep_item(&self, key: u64, item: ItemId) {
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = states.get_mut(&key) {
            e.1 = Some(item);
        }
    }

    /// Keeps the state a node ended with (while there is room).
    fn keep(&self, key: u64, lv: &Level<T>) {
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        let full = states.len() >= self.capacity;
        match states.get_mut(&key) {
            Some(old) => old.0.copy_from(lv),
            None if !full => {
                states.insert(key, (lv.clone(), None));
            }
            None => {}
        }
    }
}

/// The step with the tightest bound so far at a node, as the Hungarian method holds it (its
/// 1-based potentials and matching over the node's free ranks and files) with its
/// multipliers: copied whole, it is converted to a [`Level`] once, at the end of the node.
#[derive(Default)]
struct Snapshot<T> {
    u: Vec<T>,
    v: Vec<T>,
    p: Vec<usize>,
    lambda_a: Vec<T>,
    lambda_b: Vec<T>,
}

/// The Lagrangian assignment bound with dual inheritance and warm starts (see the module).
pub struct LagrangeBound<'a, T> {
    n: usize,
    lines: &'a [Line],
    board: &'a [i64],
    free: FreeSquares,
    ties: TieBreak,
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
    /// The last node's goal (scaled), for `exclude`.
    goal: Option<i128>,
    /// Scratch: the step with the tightest bound so far at this node.
    best_state: Snapshot<T>,
    /// Scratch: the diagonals a subgradient step moves (a-diagonals d, b-diagonals 2n + d),
    /// each with its subgradient (queens − 1).
    moving: Vec<(u32, i32)>,
    /// Scratch: the node's free files c, each with n − 1 − c.
    files: Vec<(u32, u32)>,
    /// Set when a solve went out of the range of `T` (see [`LagrangeBound::out_of_range`]).
    out_of_range: bool,
    /// The current search's deadline ([`Bound::deadline`]), whether it has passed (then
    /// every node below the root takes its parent's duals as they are, without a solve),
    /// and the work done since the clock was last read.
    deadline: Option<Instant>,
    timed_out: bool,
    work: u64,
    /// The current search's stop handle: a request ends the solves as the deadline does.
    stop: Stop,
    /// States of earlier searches' nodes (see [`Memo`]).
    memo: Option<&'a Memo<T>>,
    /// The key of the node last bounded, and the item it branched on last time.
    node_key: Option<u64>,
    recalled_item: Option<ItemId>,
}

impl<'a, T: HungarianInt> LagrangeBound<'a, T> {
    /// `steps` subgradient steps per node, `root_steps` at the root.
    pub fn new(n: usize, lines: &'a [Line], board: &'a [i64], steps: u32, root_steps: u32) -> Self {
        let lo = board.iter().copied().min().unwrap_or(0) as i128;
        let hi = board.iter().copied().max().unwrap_or(0) as i128;
        LagrangeBound {
            n,
            lines,
            board,
            free: FreeSquares::new(n),
            ties: TieBreak::new(n, lines),
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
            goal: None,
            best_state: Snapshot::default(),
            moving: Vec::new(),
            files: Vec::new(),
            out_of_range: false,
            deadline: None,
            timed_out: false,
            work: 0,
            stop: Stop::default(),
            memo: None,
            node_key: None,
            recalled_item: None,
        }
    }

    /// Starts nodes seen in an earlier search from the state they ended with, and branches
    /// on the item they branched on (see [`Memo`]).
    pub fn with_memo(mut self, memo: &'a Memo<T>) -> Self {
        self.memo = Some(memo);
        self
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
    const TIE_BREAK: bool = true;

    fn precedes(&mut self, view: &View<'_>, best: &[OptionId]) -> bool {
        self.ties.precedes(view, best)
    }

    fn deadline(&mut self, at: Option<Instant>, stop: &Stop) {
        self.deadline = at;
        self.stop = stop.clone();
        self.hungarian.deadline = at;
        self.timed_out = false;
        self.work = 0;
    }

    /// Best total through the square first (the node's bound minus the square's reduced
    /// cost), which finds good layouts early in the last search; ties keep the list order.
    fn order(&mut self, view: &View<'_>, options: &mut [OptionId]) {
        if self.timed_out {
            return;
        }
        let n = self.n;
        let Some(lv) = self.levels.get(view.depth()).filter(|lv| lv.valid) else {
            return;
        };
        options.sort_by_key(|&o| lv.reduced_cost(n, self.board, o));
    }

    const CHOOSES: bool = true;

    /// With a memo: the item the node branched on in an earlier search if it is still to be
    /// covered, so that its children are that search's nodes again and start from their
    /// states too (see [`Memo`]); otherwise the item of minimum length, leftmost on ties (the
    /// engine's own choice). Following the old item even where another is now shorter was
    /// measured better than breaking the chain (nine proofs at n = 28..40, one thread: 86 s
    /// with the old item only when at most one option longer, 65–74 s always).
    fn choose(&mut self, view: &View<'_>) -> Option<ItemId> {
        let (Some(memo), Some(key)) = (self.memo, self.node_key) else {
            return None;
        };
        let item = match self.recalled_item {
            Some(old) if view.active_primary().any(|i| i == old) => old,
            _ => view.shortest_item()?,
        };
        memo.keep_item(key, item);
        Some(item)
    }

    fn exclude(&mut self, view: &View<'_>, out: &mut Vec<OptionId>) {
        if !self.timed_out {
            self.fixable(view, out);
        }
    }

    fn bound(&mut self, view: &View<'_>, target: Option<i128>) -> Option<i128> {
        if self.out_of_range {
            return None;
        }
        let depth = view.depth();
        let (root, warm_root) = self.locate_root(depth);
        // In scaled units the node is useless when its value is below `goal`.
        let goal = target.map(|t| t.saturating_mul(SCALE));
        self.goal = goal;
        // 1. The O(1) test from the parent's duals; past the deadline it is the node's bound.
        if !root {
            let quick = self.quick(view, depth);
            if goal.is_some_and(|g| quick < g) {
                self.level_mut(depth).valid = false;
                return Some(unscale(quick));
            }
            if self.timed_out {
                // The parent's duals stay feasible here: the children inherit them as they
                // are, with this bound as the value (no solve, no O(n²) reading).
                let (above, below) = self.levels_split(depth);
                below.copy_from(&above[depth - 1]);
                below.value = quick;
                return Some(unscale(quick));
            }
        }
        if !self.free.read(view, self.lines, self.board) {
            self.level_mut(depth).valid = false;
            return None;
        }
        let m = self.free.ranks.len();
        // 2. Start from the parent's state (or from zero at the root).
        self.inherit(depth, root, warm_root);
        if m == 0 {
            self.levels[depth].value = 0;
            return Some(0);
        }
        let key = self.memo.map(|memo| memo.key(view));
        let recalled = match (self.memo, key) {
            (Some(memo), Some(key)) => memo.recall(key, &mut self.levels[depth]),
            _ => None,
        };
        self.node_key = key;
        self.recalled_item = recalled.flatten();
        let steps = if recalled.is_some() {
            MEMO_STEPS
        } else if root && !warm_root {
            self.root_steps
        } else if root {
            self.steps.saturating_mul(WARM_ROOT_FACTOR)
        } else {
            self.steps
        };
        self.node_matrix(m);
        // 3. The subgradient steps, each a Hungarian solve warm from the previous one (the
        //    first from the state inherited), which the Hungarian method holds between steps.
        self.load(depth, m);
        let mut best: Option<i128> = None;
        let mut best_step = 0;
        let mut last_step = 0;
        // Set when the multipliers moved after the last solve (the clock stopped the steps).
        let mut moved_after = false;
        for step in 0..=steps {
            last_step = step;
            let penalty = self.penalised_costs(depth, m);
            let dual = match self.warm_solve(m, penalty, goal) {
                StepEnd::Infeasible => {
                    self.levels[depth].valid = false;
                    return None;
                }
                StepEnd::OutOfRange => {
                    // The narrow type will not do for this board: every node is pruned from
                    // here on, and the caller solves the board again in a wider type.
                    self.out_of_range = true;
                    self.levels[depth].valid = false;
                    return None;
                }
                // The node is useless; its state is not needed by any child.
                StepEnd::CutOff(dual) => return Some(unscale(dual)),
                StepEnd::TimedOut(dual) => {
                    // The duals are feasible, so `dual` is a bound; the search stops soon.
                    self.timed_out = true;
                    dual
                }
                StepEnd::Optimal(dual) => {
                    match best {
                        Some(b) if dual >= b => self.mu = (self.mu * 2 / 3).max(1),
                        Some(_) => self.mu = (self.mu * 11 / 10).clamp(1, 200),
                        None => {}
                    }
                    dual
                }
            };
            if best.is_none_or(|b| dual < b) {
                best = Some(dual);
                // The tightest state is the one the children inherit and fixing uses.
                if step < steps {
                    self.snapshot(depth, m);
                }
                best_step = step;
            }
            if self.timed_out || step == steps || goal.is_some_and(|g| dual < g) {
                break;
            }
            if !self.subgradient_step(depth, m, step, goal, dual, root) {
                break;
            }
            if self.clock(m) {
                moved_after = true;
                break;
            }
        }
        if best_step != last_step || moved_after {
            self.restore(depth, m);
        }
        let best = best.expect("at least one step");
        self.store(depth, m, best);
        if let (Some(memo), Some(key)) = (self.memo, key) {
            memo.keep(key, &self.levels[depth]);
        }
        Some(unscale(best))
    }
}

/// The parts of [`LagrangeBound::bound`].
impl<T: HungarianInt> LagrangeBound<'_, T> {
    /// Whether the node at `depth` is the root of a search, and whether that root starts
    /// warm.
    ///
    /// A new search begins at the first node, or at one not below the last root. Another
    /// search from a root at the same depth (the next aim, `Tactics::aiming`) starts from the
    /// last root's multipliers and duals with the steps of an ordinary node: any start is
    /// valid (the Hungarian method repairs it) and this one is already good. Otherwise the root
    /// starts from zero and gets the root's many steps.
    fn locate_root(&mut self, depth: usize) -> (bool, bool) {
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
        (self.root_depth == Some(depth), warm_root)
    }

    /// The O(1) bound of a node below the root from its parent's duals: the parent's value
    /// minus what the last queen's square takes from it.
    fn quick(&self, view: &View<'_>, depth: usize) -> i128 {
        let n = self.n;
        let last = view.chosen().last().expect("below the root");
        let (r, c) = (last.0 as usize / n, last.0 as usize % n);
        let parent = &self.levels[depth - 1];
        debug_assert!(parent.valid);
        parent.value - parent.dual_cover(n, r, c)
    }

    /// The levels above `depth`, and the one at `depth` (created if need be).
    fn levels_split(&mut self, depth: usize) -> (&[Level<T>], &mut Level<T>) {
        self.level_mut(depth).valid = true;
        let (above, below) = self.levels.split_at_mut(depth);
        (above, &mut below[0])
    }

    /// The node's starting state: its parent's, the last root's (a warm root), or zero.
    fn inherit(&mut self, depth: usize, root: bool, warm_root: bool) {
        let (above, lv) = self.levels_split(depth);
        if root && !warm_root {
            lv.u_rank.iter_mut().for_each(|x| *x = T::ZERO);
            lv.v_file.iter_mut().for_each(|x| *x = T::ZERO);
            lv.file_of_rank.iter_mut().for_each(|x| *x = u32::MAX);
            lv.lambda_a.iter_mut().for_each(|x| *x = T::ZERO);
            lv.lambda_b.iter_mut().for_each(|x| *x = T::ZERO);
        } else if !root {
            let parent = &above[depth - 1];
            lv.u_rank.clone_from(&parent.u_rank);
            lv.v_file.clone_from(&parent.v_file);
            lv.file_of_rank.clone_from(&parent.file_of_rank);
            lv.lambda_a.clone_from(&parent.lambda_a);
            lv.lambda_b.clone_from(&parent.lambda_b);
        }
    }

    /// The node's scaled weights (minimisation form) and the diagonals that still hold a
    /// safe square (count 0; −1 for none), once per node.
    fn node_matrix(&mut self, m: usize) {
        let n = self.n;
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
    }

    /// The penalised costs of a step from the multipliers of the state at `depth`, and the
    /// penalty Σλ over the diagonals with a safe square.
    fn penalised_costs(&mut self, depth: usize, m: usize) -> i128 {
        let n = self.n;
        let lv = &self.levels[depth];
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
                debug_assert!((c as usize) < n && (rc as usize) < n);
                // SAFETY: `files` holds files c < n with n − 1 − c < n, and `la`, `lb` are
                // n long. Unchecked, the loop runs a third fewer instructions (callgrind).
                *x = b + unsafe { *la.get_unchecked(c as usize) + *lb.get_unchecked(rc as usize) };
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
        penalty.to_i128()
    }

    /// Starts the Hungarian method from the state at `depth` (its potentials and the matched
    /// pairs among the node's free ranks and files), once per node.
    fn load(&mut self, depth: usize, m: usize) {
        let lv = &self.levels[depth];
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
    }

    /// Keeps the Hungarian method's state and the multipliers of the state at `depth` as the
    /// node's tightest step.
    fn snapshot(&mut self, depth: usize, m: usize) {
        let (h, lv, b) = (&self.hungarian, &self.levels[depth], &mut self.best_state);
        b.u.clear();
        b.u.extend_from_slice(&h.u[..=m]);
        b.v.clear();
        b.v.extend_from_slice(&h.v[..=m]);
        b.p.clear();
        b.p.extend_from_slice(&h.p[..=m]);
        b.lambda_a.clone_from(&lv.lambda_a);
        b.lambda_b.clone_from(&lv.lambda_b);
    }

    /// Back to the step kept by [`snapshot`](Self::snapshot).
    fn restore(&mut self, depth: usize, m: usize) {
        let (h, lv, b) = (
            &mut self.hungarian,
            &mut self.levels[depth],
            &self.best_state,
        );
        h.u[..=m].copy_from_slice(&b.u);
        h.v[..=m].copy_from_slice(&b.v);
        h.p[..=m].copy_from_slice(&b.p);
        lv.lambda_a.copy_from_slice(&b.lambda_a);
        lv.lambda_b.copy_from_slice(&b.lambda_b);
    }

    /// Writes the Hungarian method's duals and matching into the state at `depth` (for the
    /// children, the fixing and the child order), with `value` (scaled).
    fn store(&mut self, depth: usize, m: usize, value: i128) {
        let (h, lv) = (&self.hungarian, &mut self.levels[depth]);
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
                lv.file_of_rank[self.free.ranks[h.p[j] - 1] as usize] = self.free.file_list[j - 1];
            }
        }
        lv.value = value;
    }

    /// One Hungarian solve of the penalised costs, warm from the method's current state (the
    /// previous step's, or the one [`load`](Self::load) set); the outcome carries the value
    /// (scaled), a bound however the solve ended.
    fn warm_solve(&mut self, m: usize, penalty: i128, goal: Option<i128>) -> StepEnd {
        let h = &mut self.hungarian;
        // Stop when the dual sum proves the node useless: −(Σu + Σv) + penalty < goal.
        let cutoff = goal.map(|g| penalty - g);
        let solved = h.solve(m, &self.cost, cutoff);
        let dual = -h.sum + penalty;
        match solved {
            Solved::Optimal => StepEnd::Optimal(dual),
            Solved::CutOff => StepEnd::CutOff(dual),
            Solved::TimedOut => StepEnd::TimedOut(dual),
            Solved::Infeasible => StepEnd::Infeasible,
            Solved::OutOfRange => StepEnd::OutOfRange,
        }
    }

    /// Moves the multipliers of the state at `depth` along the subgradient of the step's
    /// assignment; false when there is nothing to move (the assignment is a placement).
    fn subgradient_step(
        &mut self,
        depth: usize,
        m: usize,
        step: u32,
        goal: Option<i128>,
        dual: i128,
        root: bool,
    ) -> bool {
        let n = self.n;
        let h = &self.hungarian;
        // Queens of the assignment per diagonal.
        for j in 1..=m {
            let r = self.free.ranks[h.p[j] - 1] as usize;
            let c = self.free.file_list[j - 1] as usize;
            self.count_a[r + c] += 1;
            self.count_b[r + n - 1 - c] += 1;
        }
        let overloaded = self.count_a.iter().chain(&self.count_b).any(|&g| g >= 2);
        if !overloaded {
            // The assignment is a placement: the bound is exact for this λ.
            return false;
        }
        let lv = &mut self.levels[depth];
        // The subgradient's squared length: queens − 1 per diagonal, over the multipliers
        // that can move (a diagonal with one queen adds 0, an empty one adds 1 only while
        // its multiplier is above 0; −1 marks a diagonal without a safe square). These are
        // the diagonals the step moves.
        let mut norm = 0i64;
        self.moving.clear();
        for (base, count, lambda) in [
            (0, &self.count_a, &lv.lambda_a),
            (2 * n, &self.count_b, &lv.lambda_b),
        ] {
            for (d, (&g, &l)) in count[..2 * n - 1].iter().zip(lambda).enumerate() {
                if g >= 2 || (g == 0 && l > T::ZERO) {
                    norm += ((g - 1) * (g - 1)) as i64;
                    self.moving.push(((base + d) as u32, g - 1));
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
        for &(d, g) in &self.moving {
            let d = d as usize;
            let l = if d < 2 * n {
                &mut lv.lambda_a[d]
            } else {
                &mut lv.lambda_b[d - 2 * n]
            };
            let x = l.to_i128() + step_len * g as i128;
            *l = T::from_i128(x.clamp(0, T::LAMBDA_CAP));
        }
        true
    }

    /// Counts a step's work (m² for an m×m step) and looks at the clock once the work since
    /// the last look passes [`CLOCK_WORK`]; true (and from then on `timed_out`) once the
    /// deadline has passed.
    fn clock(&mut self, m: usize) -> bool {
        self.work += (m * m) as u64;
        if self.work >= CLOCK_WORK {
            self.work = 0;
            self.timed_out = self.stop.out_of_time(self.deadline).is_some();
        }
        self.timed_out
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

/// The narrowest integer type the Lagrangian computation of a board can run in
/// ([`fits_i32`], [`fits_i64`]); [`with_width!`] runs code in it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Width {
    /// Small boards with small numbers: about a fifth faster.
    I32,
    /// Every board below n = 1024 with numbers below 2^31.
    I64,
    /// The rest.
    I128,
}

impl Width {
    /// The narrowest type for this board.
    pub fn of(n: usize, board: &[i64]) -> Width {
        if fits_i32(n, board) {
            Width::I32
        } else if fits_i64(n, board) {
            Width::I64
        } else {
            Width::I128
        }
    }

    /// At least `i64` (for a computation that cannot afford to run again in a wider type
    /// when `i32` turns out too narrow).
    pub fn at_least_i64(self) -> Width {
        self.max(Width::I64)
    }
}

/// `with_width!(width, T => expr)`: `expr` with the type `T` the [`Width`] names, the one place
/// where the width of a board is dispatched.
macro_rules! with_width {
    ($width:expr, $t:ident => $body:expr) => {
        match $width {
            $crate::queens::weighted::lagrange::Width::I32 => {
                type $t = i32;
                $body
            }
            $crate::queens::weighted::lagrange::Width::I64 => {
                type $t = i64;
                $body
            }
            $crate::queens::weighted::lagrange::Width::I128 => {
                type $t = i128;
                $body
            }
        }
    };
}
pub(crate) use with_width;

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
            if !matches!(self.lines[item.0 as usize], Line::Rank(_)) {
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
