//! The n-queens exact-cover model, and counting its solutions with the engine.
//!
//! # The model
//!
//! The board's exact-cover problem from [`super::board`] without the single-square corner
//! diagonals ([`Corners::Drop`]): ranks and files in organ-pipe order, diagonals secondary,
//! option `r·n + c` for square (r, c). With exactly this layout the engine reproduces Knuth's
//! DLX2 figures (13 queens: 1,046,319 nodes, 17,463,157 updates).
//!
//! # Counting
//!
//! [`count()`] cuts the search into tasks (see [`Tasks`]). The left-right mirror maps solutions
//! to solutions, so the queen of the middle rank `m = n/2` (the first item the search branches
//! on) is forced into each file of the left half, each such sub-tree counted twice; for odd n
//! also the middle file, with the queen of rank `m-1` forced into the left half (again counted
//! twice: the mirror fixes the middle file and swaps the halves for rank m-1). Each of these
//! roots is then split a few levels deeper (`Dance::split`), in the engine's search order,
//! into the tasks. The tasks depend on n only, so the count is the same on any number of
//! threads, and shard `I/M` (tasks `k` with `k mod M = I-1`, `run::shard_takes`) picks a
//! deterministic part of it.
//!
//! Fundamental solutions are counted by visiting each solution `s` of the searched region
//! (the part of the board's solutions the mirrored roots cover) and counting it when no image
//! of `s` that also lies in the region is lexicographically smaller. Every class meets the
//! region (of a solution and its mirror image, one lies in it), and each solution of the region
//! is visited exactly once, so each class is counted exactly once, in exactly one task: the
//! per-task counts are whole numbers and add up across shards.
//!
//! The solutions are listed by the `listing` module (both engines, in lexicographic order).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::engine::run::Part;
use crate::engine::run::{Dance, shard_takes};
use crate::engine::{Budget, OptionId, Problem, Stop};

use super::board::{self, Board, Corners, ExactCover};
pub use super::common::MAX_N;
use super::common::{Counted, RESIDUE_MODULUS, Work};
use super::symmetry;

/// Why a model could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueensError {
    /// A board size outside 1..=[`MAX_N`].
    #[error("the board size must be between 1 and {MAX_N}, not {0}")]
    BadSize(usize),
    /// A shard `I/M` without `1 <= I <= M`.
    #[error("shard {0}/{1} is not valid (need 1 <= I <= M)")]
    BadShard(usize, usize),
}

/// The n-queens exact-cover problem with the map between options and squares.
#[derive(Debug, Clone)]
pub struct Queens {
    n: usize,
    board: Board,
    problem: Problem,
}

impl Queens {
    /// Builds the model for an n×n board, 1 ≤ n ≤ [`MAX_N`].
    pub fn new(n: usize) -> Result<Queens, QueensError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(QueensError::BadSize(n));
        }
        let ExactCover { board, problem, .. } = board::exact_cover(n, Corners::Drop);
        Ok(Queens { n, board, problem })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// A solver over all options, or only over `options` (a symmetry-restricted board), on
    /// Knuth's DLX2 tree: the dancing-links queens count reproduces his published node,
    /// update and mem figures (the word-parallel engine is the fast one).
    pub fn solver(&self, options: Option<&[OptionId]>) -> Dance<'_> {
        let mut solver = match options {
            None => Dance::new(&self.problem),
            Some(o) => Dance::in_order(&self.problem, o.iter().copied()),
        };
        solver.knuth_tree(true);
        solver
    }

    /// The roots of the search for class representatives: for each file c = 0..=(n-1)/2, the
    /// options of the board without the edge squares nearer a corner than c, and the queen
    /// (0, c) to force. Every class representative (the lexicographically smallest image of
    /// its class) lies below exactly one root, that of its q0; the other solutions below the
    /// roots are not representatives.
    pub fn representative_roots(&self) -> Vec<(Vec<OptionId>, OptionId)> {
        // The 8 symmetries map the four edges of the board onto each other, each edge with
        // either corner first; an image's rank-0 queen stands in file d, where d is the
        // distance of some edge queen from some corner along its edge. So the
        // lexicographically smallest image has its rank-0 queen in file c = the least such
        // distance, and every queen on another edge at distance >= c from both ends of that
        // edge.
        let n = self.n;
        (0..n.div_ceil(2))
            .map(|c| {
                let near = |k: usize| k < c || k > n - 1 - c;
                let options: Vec<OptionId> = (0..n * n)
                    .filter(|&k| {
                        let (r, f) = (k / n, k % n);
                        !((r == n - 1 && near(f)) || ((f == 0 || f == n - 1) && near(r)))
                    })
                    .map(|k| OptionId(k as u32))
                    .collect();
                (options, self.option(0, c))
            })
            .collect()
    }

    /// The exact-cover problem (option `r·n + c` is the queen on square (r, c)).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The board and its square ↔ option numbering.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The option placing a queen on `(rank, file)`.
    #[inline]
    pub fn option(&self, rank: usize, file: usize) -> OptionId {
        self.board.option(rank, file)
    }

    /// The columns `q[rank] = file` of a solution given as options (any order).
    #[inline]
    pub fn columns_into(&self, options: &[OptionId], q: &mut [u8]) {
        self.board.columns_into(options, q);
    }

    /// The columns `q[rank] = file` of a solution given as options (any order).
    pub fn columns(&self, options: &[OptionId]) -> Vec<u8> {
        let mut q = vec![0u8; self.n];
        self.columns_into(options, &mut q);
        q
    }
}

/// One piece of the count: a sub-problem below forced options, or a solution found above the
/// cut; `weight` is 2 for a piece standing for itself and its mirror image, else 1.
#[derive(Clone, Debug)]
pub struct Task {
    /// The sub-problem's forced options, or a solution found above the cut.
    pub part: Part,
    /// 2 for a piece standing for itself and its mirror image, else 1 (with
    /// [`Reduction::Full`], 1: each solution is weighted by its class instead).
    pub weight: u8,
    /// Index into [`Tasks::roots`]: the options the task's solver holds.
    pub root: usize,
}

/// How much of the symmetry of the square the count uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Reduction {
    /// No symmetry: one plain search (Knuth's node counts).
    None,
    /// The left-right mirror: the middle rank's queen in the left half, counted twice.
    Mirror,
    /// All 8 symmetries: only solutions whose rank-0 queen is nearest a corner among the
    /// queens of the four edges are searched, and each class representative counts its
    /// class size.
    #[default]
    Full,
}

/// The deterministic split of the count into tasks, and the work done above the cut.
#[derive(Clone, Debug)]
pub struct Tasks {
    /// The tasks, in the order of the sequential search.
    pub tasks: Vec<Task>,
    /// The option sets of the roots (`None`: all options).
    pub roots: Vec<Option<Vec<OptionId>>>,
    /// Search-tree nodes, updates and mems spent above the cut (counted in shard 1).
    pub above: Work,
}

impl From<crate::engine::Stats> for Work {
    fn from(s: crate::engine::Stats) -> Work {
        Work {
            nodes: s.nodes(),
            updates: Some(s.updates()),
            mems: Some(s.mems()),
        }
    }
}

/// How many options below the roots the split goes: deeper for larger boards, so that there
/// are enough tasks to balance threads and shards (hundreds for n = 12, thousands for n = 16,
/// tens of thousands from n = 18).
fn split_levels(n: usize) -> usize {
    match n {
        0..=9 => 1,
        10..=17 => 2,
        _ => 3,
    }
}

impl Tasks {
    /// The split for `model` under the given symmetry reduction; with `Reduction::None` the
    /// node counts are those of one sequential DLX2 run.
    pub fn new(model: &Queens, reduction: Reduction) -> Tasks {
        let n = model.n;
        // (options of the root's solver, forced options, weight)
        let mut roots: Vec<(Option<Vec<OptionId>>, Vec<OptionId>, u8)> = Vec::new();
        match reduction {
            _ if n == 1 => roots.push((None, Vec::new(), 1)),
            Reduction::None => roots.push((None, Vec::new(), 1)),
            Reduction::Mirror => {
                // The middle rank m = n/2 is the first item the search branches on
                // (organ-pipe order, all lengths equal): its queen goes into the left half,
                // each sub-tree standing for its mirror image too, so the tree is cut
                // exactly in half.
                let m = n / 2;
                for c in 0..n / 2 {
                    roots.push((None, vec![model.option(m, c)], 2));
                }
                if n % 2 == 1 {
                    // Odd n: the middle file of rank m is its own mirror image; then the
                    // queen of rank m-1 (two or more files away from the middle) goes into
                    // the left half.
                    for c in 0..m.saturating_sub(1) {
                        roots.push((None, vec![model.option(m, m), model.option(m - 1, c)], 2));
                    }
                }
            }
            Reduction::Full => {
                for (options, queen) in model.representative_roots() {
                    roots.push((Some(options), vec![queen], 1));
                }
            }
        }
        let mut tasks = Vec::new();
        let mut above = Work::COUNTED_ZERO;
        let mut root_options = Vec::new();
        for (root, (options, prefix, weight)) in roots.into_iter().enumerate() {
            let mut solver = model.solver(options.as_deref());
            for &o in &prefix {
                solver.force(o).expect("roots are consistent");
            }
            let split = solver.split(prefix.len() + split_levels(n));
            above += Work::from(split.stats);
            tasks.extend(
                split
                    .parts
                    .into_iter()
                    .map(|part| Task { part, weight, root }),
            );
            root_options.push(options);
        }
        Tasks {
            tasks,
            roots: root_options,
            above,
        }
    }
}

/// The number of tasks of the default count split for board size n: shards beyond it are
/// empty.
pub fn task_count(n: usize) -> Result<usize, QueensError> {
    Ok(Tasks::new(&Queens::new(n)?, Reduction::default())
        .tasks
        .len())
}

/// What to count.
#[derive(Copy, Clone, Debug, Default)]
pub struct CountConfig {
    /// Also count the fundamental solutions (classes under the 8 symmetries).
    pub unique: bool,
    /// How much symmetry to use (less only for comparisons).
    pub reduction: Reduction,
    /// Only shard `I` of `M` (1-based) of the tasks.
    pub shard: Option<(usize, usize)>,
}

/// Whether columns `q` lie in the region the mirrored count searches (see [`Tasks::new`]).
fn in_region(q: &[u8], mirror: bool) -> bool {
    let n = q.len();
    let m = n / 2;
    let (qm, left) = (q[m] as usize, m);
    !mirror || n == 1 || qm < left || (n % 2 == 1 && qm == m && (q[m - 1] as usize) < left)
}

/// 1 when `q` is the class member counted for its class: the lexicographically smallest of
/// its images in the searched region.
fn counted_rep(q: &[u8], mirror: bool) -> u64 {
    debug_assert!(in_region(q, mirror));
    symmetry::is_smallest_image_where(q, |p| in_region(p, mirror)) as u64
}

/// Counts the n-queens solutions (and fundamental solutions if asked) on the current rayon
/// pool. `progress(done, total, solutions_so_far)` is called after each task.
pub fn count(
    model: &Queens,
    config: &CountConfig,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> Result<Counted, QueensError> {
    count_until(model, config, &Stop::new(), progress)
}

/// [`count`] stopped through `stop`: a request ends each task's search within 1,024 nodes,
/// and the counts are then a lower bound.
pub fn count_until(
    model: &Queens,
    config: &CountConfig,
    stop: &Stop,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> Result<Counted, QueensError> {
    let budget = Budget::unlimited().with_stop(stop);
    let (shard, shards) = config.shard.unwrap_or((1, 1));
    if shard == 0 || shard > shards {
        return Err(QueensError::BadShard(shard, shards));
    }
    let Tasks {
        tasks,
        roots,
        above,
    } = Tasks::new(model, config.reduction);
    let mine: Vec<&Task> = tasks
        .iter()
        .enumerate()
        .filter(|(k, _)| shard_takes(*k, shard, shards))
        .map(|(_, t)| t)
        .collect();
    let total = mine.len();
    let done = AtomicUsize::new(0);
    let so_far = Mutex::new(0u128);
    let n = model.n;
    let unique = config.unique;
    let mirror = config.reduction == Reduction::Mirror;
    let full = config.reduction == Reduction::Full;

    // What one solution (columns `q`) of a task of weight `w` adds: (solutions, classes).
    // Under the full reduction a class representative stands for its whole class and other
    // solutions of the searched region for nothing; otherwise every solution stands for `w`.
    let score = |q: &[u8], w: u8| -> (u128, u64) {
        if full {
            match symmetry::representative_class(q) {
                Some(size) => (u128::from(size), 1),
                None => (0, 0),
            }
        } else {
            let reps = if unique { counted_rep(q, mirror) } else { 0 };
            (u128::from(w), reps)
        }
    };

    // Per task: (solutions it stands for, classes counted, work).
    let results: Vec<(u128, u64, Work)> = mine
        .par_iter()
        .map_init(
            || -> Vec<Option<Dance>> { (0..roots.len()).map(|_| None).collect() },
            |solvers, task| {
                let solver = solvers[task.root]
                    .get_or_insert_with(|| model.solver(roots[task.root].as_deref()));
                let r = match &task.part {
                    Part::Solution(options) => {
                        let (s, reps) = score(&model.columns(options), task.weight);
                        (s, reps, Work::default())
                    }
                    Part::Subproblem(prefix) if full || unique => {
                        let mut q = vec![0u8; n];
                        let (mut sols, mut reps) = (0u128, 0u64);
                        let outcome =
                            solver.run_subproblem(prefix, &budget, &mut |s: &[OptionId]| {
                                model.columns_into(s, &mut q);
                                let (a, b) = score(&q, task.weight);
                                sols += a;
                                reps += b;
                                ControlFlow::Continue(())
                            });
                        (sols, reps, Work::from(outcome.stats))
                    }
                    Part::Subproblem(prefix) => {
                        let outcome = solver.count_subproblem(prefix, &budget);
                        let sols = u128::from(outcome.stats.solutions()) * u128::from(task.weight);
                        (sols, 0, Work::from(outcome.stats))
                    }
                };
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                let s = {
                    let mut g = so_far.lock().unwrap_or_else(|e| e.into_inner());
                    *g += r.0;
                    *g
                };
                progress(d, total, s);
                r
            },
        )
        .collect();

    let mut work = if shard == 1 {
        above
    } else {
        Work::COUNTED_ZERO
    };
    let (mut solutions, mut residue) = (0u128, 0u64);
    let mut classes = unique.then_some(0u128);
    for (weighted, reps, w) in results {
        solutions = solutions
            .checked_add(weighted)
            .expect("u128 cannot overflow here");
        residue = (residue + (weighted % RESIDUE_MODULUS as u128) as u64) % RESIDUE_MODULUS;
        if let Some(u) = classes.as_mut() {
            *u += u128::from(reps);
        }
        work += w;
    }
    let out = Counted {
        solutions,
        unique: classes,
        work,
        tasks: total,
        tasks_total: tasks.len(),
        residue,
        interrupted: false,
    };
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_out_of_range_are_rejected() {
        assert_eq!(Queens::new(0).unwrap_err(), QueensError::BadSize(0));
        assert_eq!(Queens::new(33).unwrap_err(), QueensError::BadSize(33));
        assert!(Queens::new(32).is_ok());
    }

    #[test]
    fn every_reduction_agrees_with_the_plain_count_and_shards_add_up() {
        for n in 1..=9 {
            let m = Queens::new(n).unwrap();
            let plain = CountConfig {
                unique: true,
                reduction: Reduction::None,
                shard: None,
            };
            let b = count(&m, &plain, &|_, _, _| {}).unwrap();
            for reduction in [Reduction::Mirror, Reduction::Full] {
                let config = CountConfig {
                    unique: true,
                    reduction,
                    shard: None,
                };
                let a = count(&m, &config, &|_, _, _| {}).unwrap();
                // Shards add up to the whole, fundamental solutions included.
                let mut sum = (0u128, 0u128);
                for i in 1..=3 {
                    let shard = CountConfig {
                        shard: Some((i, 3)),
                        ..config
                    };
                    let c = count(&m, &shard, &|_, _, _| {}).unwrap();
                    sum.0 += c.solutions;
                    sum.1 += c.unique.unwrap();
                }
                assert_eq!(
                    sum,
                    (a.solutions, a.unique.unwrap()),
                    "n = {n} {reduction:?}"
                );
                assert_eq!(a.solutions, b.solutions, "n = {n} {reduction:?}");
                assert_eq!(a.unique, b.unique, "n = {n} {reduction:?}");
                assert_eq!(a.residue as u128, a.solutions % RESIDUE_MODULUS as u128);
            }
        }
    }
}
