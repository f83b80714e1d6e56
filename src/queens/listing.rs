//! Listing n-queens solutions at the speed of the output: a word-parallel (bitboard) enumerator
//! in lexicographic order, split into ordered tasks, fast row formatting, and an ordered
//! parallel driver with bounded memory.
//!
//! # Order
//!
//! A solution is its columns `q[0..n]` (`q[r]` is the file of the queen on rank `r`). The
//! enumerator places ranks 0, 1, ..., n-1 in turn and tries the open files of a rank in
//! increasing order (lowest set bit first), so solutions come out in lexicographic order of
//! `q`. The dancing-links search ([`Engine::Dlx`]) solves each prefix's sub-problem and
//! sorts its solutions into the same order, solution for solution.
//!
//! A *task* is a prefix: the files of the first `d` ranks. [`tasks`] lists every legal prefix
//! of one depth in lexicographic order, so the tasks' solutions, concatenated in task order,
//! are exactly all solutions in lexicographic order.
//!
//! With `unique`, a solution is kept only when it is the representative of its class under the
//! 8 symmetries of the square (its lexicographically smallest image), decided by
//! [`symmetry::representative_class`], which also gives the class size. A representative has
//! `q0 <= (n-1)/2` (the left-right mirror has `q0' = n-1-q0`), so files beyond are not tried
//! on rank 0.
//!
//! # Rows and numbering
//!
//! Rows are numbered (1, 2, ...) in the global order, which a worker does not know. A worker
//! therefore formats each row without its number ([`ListFormat::tail`]) into [`Rows`], and the
//! ordered writer puts the number in front ([`ListFormat::head`], [`Rows::write_numbered`]):
//! a copy of the rows plus one `itoa` per row, done on the writing thread.
//!
//! # Parallel order
//!
//! `ordered_window` runs tasks on a rayon pool with at most `window` tasks in flight (started
//! or finished but not yet written) and hands their results to a sink in task order. Memory is
//! bounded by `window` task results. [`list`] puts it all together, and halves the search with
//! the left-right mirror (see [`list`] and docs/queens.md).

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::ordered_window;
use crate::engine::{Budget, OptionId, Solver};
use crate::io::records::ListFormat;
pub use crate::queens::common::MAX_N;
use crate::queens::common::full_mask;
use crate::queens::count::Engine;
use crate::queens::model::{Queens, QueensError};
use crate::queens::symmetry;

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
fn place(n: usize, prefix: &[u8]) -> Option<(u32, u32, u32)> {
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

/// Rows formatted without their number (the tails of [`ListFormat`]), one task's worth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    bytes: Vec<u8>,
    /// End offset of each row in `bytes`.
    ends: Vec<u32>,
}

impl Rows {
    /// The rows of `n`-queens solutions extending `prefix` (see [`for_each_solution_in`]) in
    /// `format`, at most `limit` of them.
    pub fn of_task(n: usize, prefix: &[u8], unique: bool, format: ListFormat, limit: u64) -> Rows {
        Rows::gather(format, limit, |emit| {
            for_each_solution_in(n, prefix, unique, emit)
        })
    }

    /// The rows of the solutions `each` reports (in its order), at most `limit` of them.
    fn gather(
        format: ListFormat,
        limit: u64,
        each: impl FnOnce(&mut Emit<'_>) -> ControlFlow<()>,
    ) -> Rows {
        let mut rows = Rows::default();
        if limit == 0 {
            return rows;
        }
        let _ = each(&mut |q, class_size| {
            format.tail(&mut rows.bytes, q, class_size);
            rows.end_row();
            if rows.len() as u64 >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        rows
    }

    /// Ends the current row at the current end of the bytes.
    fn end_row(&mut self) {
        let end = u32::try_from(self.bytes.len()).expect("a task's rows exceed 4 GiB");
        self.ends.push(end);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all rows, unnumbered.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The rows, unnumbered.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(a, b)| &self.bytes[a as usize..b as usize])
    }

    /// Appends the first `take` rows (all if fewer) to `out`, each after
    /// `format.head(out, index)` with the indices `first, first + 1, ...`. Returns the number
    /// of rows written.
    pub fn write_numbered(
        &self,
        format: ListFormat,
        first: u64,
        take: u64,
        out: &mut Vec<u8>,
    ) -> u64 {
        let k = (self.len() as u64).min(take) as usize;
        let end = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        out.reserve(end + 12 * k);
        let mut start = 0usize;
        for (i, &e) in self.ends[..k].iter().enumerate() {
            format.head(out, first + i as u64);
            out.extend_from_slice(&self.bytes[start..e as usize]);
            start = e as usize;
        }
        k as u64
    }
}

/// The number of tasks [`list`] splits `n` into with [`Engine::Bits`], at least: many
/// small tasks keep both the buffers (memory) and the imbalance at the end small.
const LIST_MIN_TASKS: usize = 4096;

/// The same for [`Engine::Dlx`]: every task's sub-problem is solved whole and its first
/// ranks forced out of the search's own order, which costs more the deeper the tasks (for
/// n = 14, depth 1 visits 1.33 times the updates of the whole search, depth 2 1.50, depth 4
/// 1.71), so its tasks are as few as balance allows.
const DLX_MIN_TASKS: usize = 64;

/// Rows a task should hold at most, roughly: the window's memory is about
/// `window × ROWS_PER_TASK` rows, whatever n.
const ROWS_PER_TASK: u128 = 4096;

/// The fewest tasks [`list`] asks for at most (their prefixes are in memory; [`tasks`] may
/// give up to n times more at the depth that reaches it).
const LIST_MAX_TASKS: usize = 1 << 16;

/// The most tasks in flight in [`list`], whatever the thread count (memory).
const LIST_MAX_WINDOW: usize = 64;

/// The number of solutions of the n-queens problem where it is known (A000170, n = 1..=27;
/// a test checks the table against the counters for n <= 13): `None` above.
pub fn solutions_known(n: usize) -> Option<u128> {
    n.checked_sub(1).and_then(|i| SOLUTIONS.get(i)).copied()
}

/// A000170(n) for n = 1..=27, to size the tasks and for [`solutions_known`].
const SOLUTIONS: [u128; 27] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
];

/// The tasks of [`list`] for `n`: enough that each holds about [`ROWS_PER_TASK`] rows (at
/// least `min_tasks`, at most [`LIST_MAX_TASKS`]), so the memory of the window does not grow
/// with n. With a `limit`, no more tasks than `limit` rows need.
fn list_tasks(n: usize, limit: u64, min_tasks: usize) -> Vec<Vec<u8>> {
    let sols = SOLUTIONS.get(n - 1).copied().unwrap_or(u128::MAX);
    let rows = sols.min(u128::from(limit));
    let want = usize::try_from(rows / ROWS_PER_TASK).unwrap_or(usize::MAX);
    tasks(n, want.clamp(min_tasks, LIST_MAX_TASKS))
}

// Which search enumerates the solutions of [`list`] is the queens' one engine word,
// [`Engine`]: `Bits`, the word-parallel enumerator of this module, or `Dlx`, the dancing-links
// solver on the exact-cover model ([`Queens`]), each task's prefix forced and the sub-problem's
// solutions sorted into lexicographic order. Both give the same rows, byte for byte.

/// Where a search reports a solution: `emit(q, class_size)`, `Break` to stop.
type Emit<'a> = dyn FnMut(&[u8], Option<u8>) -> ControlFlow<()> + 'a;

/// A task's solutions by its index: `search(i, engine, emit)`.
type TaskFn<'a> = dyn Fn(usize, &mut dyn TaskSearch, &mut Emit<'_>) -> ControlFlow<()> + Sync + 'a;

/// One task's search: every solution extending a prefix, in lexicographic order.
trait TaskSearch {
    /// Calls `emit(q, class_size)` for every solution (with `unique` every class
    /// representative) extending `prefix`, in lexicographic order; stops at a `Break`.
    fn each(&mut self, prefix: &[u8], emit: &mut Emit<'_>) -> ControlFlow<()>;
}

/// The bitboard enumerator, [`for_each_solution_in`].
struct BitsSearch {
    n: usize,
    unique: bool,
}

impl TaskSearch for BitsSearch {
    fn each(&mut self, prefix: &[u8], emit: &mut Emit<'_>) -> ControlFlow<()> {
        for_each_solution_in(self.n, prefix, self.unique, emit)
    }
}

/// A sub-problem the dancing-links search solves whole has at most this many free ranks; a
/// longer one is cut into its one-rank-longer prefixes (in order), so that the solutions held
/// for sorting stay few whatever n.
const DLX_FREE_RANKS: usize = 13;

/// The dancing-links search of one worker: its solver and the buffer it sorts in.
struct DlxSearch<'a> {
    model: &'a Queens,
    solver: Solver<'a>,
    unique: bool,
    found: Vec<([u8; MAX_N], Option<u8>)>,
    forced: Vec<OptionId>,
    /// [`DLX_FREE_RANKS`] (smaller in tests).
    free_ranks: usize,
}

impl<'a> DlxSearch<'a> {
    fn new(model: &'a Queens, unique: bool) -> Self {
        DlxSearch {
            model,
            solver: model.solver(None),
            unique,
            found: Vec::new(),
            forced: Vec::new(),
            free_ranks: DLX_FREE_RANKS,
        }
    }
}

impl TaskSearch for DlxSearch<'_> {
    fn each(&mut self, prefix: &[u8], emit: &mut Emit<'_>) -> ControlFlow<()> {
        let n = self.model.n();
        if self.unique && prefix.first().is_some_and(|&c| 2 * usize::from(c) > n - 1) {
            return ControlFlow::Continue(());
        }
        let Some((cols, ld, rd)) = place(n, prefix) else {
            return ControlFlow::Continue(());
        };
        if n - prefix.len() > self.free_ranks {
            let mut longer = [0u8; MAX_N];
            longer[..prefix.len()].copy_from_slice(prefix);
            let mut open = full_mask(n) & !(cols | ld | rd);
            while open != 0 {
                longer[prefix.len()] = open.trailing_zeros() as u8;
                open &= open - 1;
                self.each(&longer[..=prefix.len()], emit)?;
            }
            return ControlFlow::Continue(());
        }
        self.forced.clear();
        self.forced.extend(
            prefix
                .iter()
                .enumerate()
                .map(|(r, &c)| self.model.option(r, usize::from(c))),
        );
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let (model, unique) = (self.model, self.unique);
        let mut q = [0u8; MAX_N];
        self.solver.run_subproblem(
            &self.forced,
            &Budget::unlimited(),
            &mut |s: &[OptionId]| {
                model.columns_into(s, &mut q[..n]);
                if unique {
                    if let Some(size) = symmetry::representative_class(&q[..n]) {
                        found.push((q, Some(size)));
                    }
                } else {
                    found.push((q, None));
                }
                ControlFlow::Continue(())
            },
        );
        found.sort_unstable();
        let mut flow = ControlFlow::Continue(());
        for (q, class_size) in &found {
            flow = emit(&q[..n], *class_size);
            if flow.is_break() {
                break;
            }
        }
        self.found = found;
        flow
    }
}

/// Calls `emit(q, class_size)` for every `n`-queens solution in lexicographic order of `q`,
/// found by `engine` on the calling thread; with `unique` for every class representative (its
/// lexicographically smallest image) with `class_size = Some(size)` (`None` without `unique`).
/// Stops at the first `Break` of `emit` and returns it. The solutions and their order are
/// those of [`list`], for either engine.
pub fn for_each_solution(
    n: usize,
    unique: bool,
    engine: Engine,
    mut emit: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, QueensError> {
    match engine {
        Engine::Bits if (1..=MAX_N).contains(&n) => Ok(for_each_solution_in(n, &[], unique, emit)),
        Engine::Bits => Err(QueensError::BadSize(n)),
        Engine::Dlx => {
            let model = Queens::new(n)?;
            Ok(DlxSearch::new(&model, unique).each(&[], &mut emit))
        }
    }
}

/// Calls `emit(q, class_size)` for every `n`-queens solution in the order the dancing-links
/// search finds them on the exact-cover model ([`Queens`]): it branches on the rank or file
/// with the fewest open squares (the middle of the board first on ties), so the first
/// solutions come after a few hundred nodes for every n, where lexicographic order puts them
/// behind a long search from n = 30 on. With `unique`, every class representative with
/// `class_size = Some(size)`: the search runs below each root of
/// [`Queens::representative_roots`] in turn (q0 = 0, 1, ...), where representatives are
/// common. Every solution exactly once, on the calling thread, in the same order on every run.
/// Stops at the first `Break` of `emit` and returns it.
pub fn for_each_solution_in_search_order(
    n: usize,
    unique: bool,
    mut emit: impl FnMut(&[u8], Option<u8>) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, QueensError> {
    let model = Queens::new(n)?;
    let mut q = [0u8; MAX_N];
    let flow = std::cell::Cell::new(ControlFlow::Continue(()));
    let mut visit = |s: &[OptionId]| {
        let q = &mut q[..n];
        model.columns_into(s, q);
        let f = match unique {
            false => emit(q, None),
            true => match symmetry::representative_class(q) {
                Some(size) => emit(q, Some(size)),
                None => ControlFlow::Continue(()),
            },
        };
        flow.set(f);
        f
    };
    if !unique {
        Solver::new(model.problem()).run(&Budget::unlimited(), &mut visit);
        return Ok(flow.get());
    }
    for (options, queen) in model.representative_roots() {
        let mut solver = Solver::with_options(model.problem(), options.iter().copied());
        solver.run_subproblem(&[queen], &Budget::unlimited(), &mut visit);
        if flow.get().is_break() {
            break;
        }
    }
    Ok(flow.get())
}

/// Writes the rows (no header) of every `n`-queens solution (with `unique` every class
/// representative with its class size) in the order of
/// [`for_each_solution_in_search_order`], numbered from 1, at most `limit`, in `format`, to
/// `out`. Returns the number of rows written.
pub fn list_in_search_order(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    format: ListFormat,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    let mut rows = NumberedRows::new(out, format, 0, limit);
    let _ = for_each_solution_in_search_order(n, unique, |q, class_size| rows.push(q, class_size))
        .map_err(io::Error::other)?;
    rows.finish()
}

/// Writes the rows (no header) of every `n`-queens solution — with `unique`, every class
/// representative with its class size — in lexicographic order, numbered from 1, at most
/// `limit`, in `format`, to `out`, found by `engine`. Returns the number of rows written.
/// The output does not depend on the number of threads nor on the engine.
///
/// Tasks are prefixes of the first ranks, in lexicographic order ([`tasks`]). On a pool of one
/// thread (or without threads) the calling thread enumerates them in turn and formats each row
/// whole into a large buffer. Otherwise they run on `pool` (or the current rayon pool) with at
/// most `4 × threads` (and at most 64) tasks in flight (`ordered_window`): a worker formats
/// its task's rows without their numbers ([`Rows`]), the calling thread numbers them and
/// writes each task's rows with one `write_all`.
///
/// Without `unique` half the search is saved by the left-right mirror (both engines): the
/// tasks with `q0 >= n/2` are the mirror images of those with `q0 < (n-1)/2` in reverse order
/// (the mirror reverses the lexicographic order), so a left task keeps its solutions,
/// front-coded (`Mirror`), and its mirror task writes them mirrored and reversed instead of
/// searching. A right task whose partner's solutions are not there (not finished yet) searches
/// itself, so no task ever waits.
///
/// Call it from outside the pool (see `ordered_window`).
pub fn list(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    format: ListFormat,
    engine: Engine,
    pool: Option<&rayon::ThreadPool>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let model = match engine {
        Engine::Bits => None,
        Engine::Dlx => Some(Queens::new(n).map_err(io::Error::other)?),
    };
    let all = match engine {
        Engine::Bits => list_tasks(n, limit, LIST_MIN_TASKS),
        Engine::Dlx => list_tasks(n, limit, DLX_MIN_TASKS),
    };
    // With `unique` rank 0 is already restricted to the left half.
    let mirror = (!unique).then(|| Mirror::new(all.len()));
    let search = |i: usize, s: &mut dyn TaskSearch, emit: &mut Emit<'_>| match &mirror {
        Some(m) => m.each(n, &all, i, s, emit),
        None => s.each(&all[i], emit),
    };
    let new_search = || -> Box<dyn TaskSearch + '_> {
        match &model {
            None => Box::new(BitsSearch { n, unique }),
            Some(m) => Box::new(DlxSearch::new(m, unique)),
        }
    };
    if threads <= 1 {
        return list_in_turn(all.len(), limit, format, &mut *new_search(), &search, out);
    }
    let index: Vec<usize> = (0..all.len()).collect();
    let window = (4 * threads).min(LIST_MAX_WINDOW);
    let mut written = 0u64;
    let mut buf = Vec::new();
    // A task holds at most `cap` rows, the window at most `WINDOW_ROWS`; the rest of a bigger
    // task is streamed by the writer itself, so memory stays bounded whatever n and threads.
    let cap = limit.min(WINDOW_ROWS / window as u64);
    let mut rest: Option<Box<dyn TaskSearch + '_>> = None;
    let searches: Mutex<Vec<Box<dyn TaskSearch + Send + '_>>> = Mutex::new(Vec::new());
    let sink = |(i, rows): (usize, Rows)| {
        buf.clear();
        written += rows.write_numbered(format, written + 1, limit - written, &mut buf);
        out.write_all(&buf)?;
        if rows.len() as u64 >= cap && written < limit {
            let s = rest.get_or_insert_with(new_search);
            written = stream_rest(&all[i], &mut **s, format, cap, written, limit, out)?;
        }
        Ok::<_, io::Error>(if written >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    };
    ordered_window(
        pool,
        &index,
        window,
        |&i| {
            let take = searches.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut s = take.unwrap_or_else(|| match &model {
                None => Box::new(BitsSearch { n, unique }),
                Some(m) => Box::new(DlxSearch::new(m, unique)),
            });
            let rows = Rows::gather(format, cap, |emit| search(i, &mut *s, emit));
            searches.lock().unwrap_or_else(|e| e.into_inner()).push(s);
            (i, rows)
        },
        sink,
    )?;
    Ok(written)
}

/// [`list`] on the calling thread alone: the tasks in turn, each row formatted whole (number
/// included) into a buffer written every [`WRITE_BUFFER`] bytes.
fn list_in_turn(
    tasks: usize,
    limit: u64,
    format: ListFormat,
    s: &mut dyn TaskSearch,
    search: &TaskFn<'_>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut rows = NumberedRows::new(out, format, 0, limit);
    for i in 0..tasks {
        let flow = search(i, s, &mut |q, class_size| rows.push(q, class_size));
        if flow.is_break() {
            break;
        }
    }
    rows.finish()
}

/// Rows numbered on from `written` and formatted whole into a buffer written to `out` every
/// [`WRITE_BUFFER`] bytes, until `limit` rows are written in all: the sink of
/// [`list_in_turn`] and [`stream_rest`].
struct NumberedRows<'o> {
    out: &'o mut dyn Write,
    format: ListFormat,
    buf: Vec<u8>,
    written: u64,
    limit: u64,
    err: Option<io::Error>,
}

impl<'o> NumberedRows<'o> {
    fn new(out: &'o mut dyn Write, format: ListFormat, written: u64, limit: u64) -> Self {
        NumberedRows {
            out,
            format,
            buf: Vec::with_capacity(WRITE_BUFFER + 4096),
            written,
            limit,
            err: None,
        }
    }

    /// Adds the row of `q`; `Break` once the limit is reached or a write failed.
    fn push(&mut self, q: &[u8], class_size: Option<u8>) -> ControlFlow<()> {
        self.written += 1;
        self.format.row(&mut self.buf, self.written, q, class_size);
        if self.buf.len() >= WRITE_BUFFER {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.err = Some(e);
                return ControlFlow::Break(());
            }
            self.buf.clear();
        }
        if self.written >= self.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Writes what is left; the number of rows written in all, or the first write error.
    fn finish(self) -> io::Result<u64> {
        if let Some(e) = self.err {
            return Err(e);
        }
        self.out.write_all(&self.buf)?;
        Ok(self.written)
    }
}

/// The bytes [`list_in_turn`] and [`stream_rest`] gather before a write.
const WRITE_BUFFER: usize = 1 << 20;

/// The most rows the tasks in flight in [`list`] hold together (about 16 MB of CSV for
/// n = 20): a task holds at most this over the window (4,096 to 32,768 rows); beyond, the
/// writer streams the task's rest.
const WINDOW_ROWS: u64 = 1 << 18;

/// Writes the rows of the solutions extending `prefix` after its first `skip` (already
/// written, numbered up to `written`) straight to `out`, numbered on, until `limit` rows are
/// written in all; returns the new number written. `s` searches the task again from its start
/// (the same solutions in the same order as the worker's).
fn stream_rest(
    prefix: &[u8],
    s: &mut dyn TaskSearch,
    format: ListFormat,
    skip: u64,
    written: u64,
    limit: u64,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut rows = NumberedRows::new(out, format, written, limit);
    let mut seen = 0u64;
    let _ = s.each(prefix, &mut |q, class_size| {
        seen += 1;
        if seen <= skip {
            ControlFlow::Continue(())
        } else {
            rows.push(q, class_size)
        }
    });
    rows.finish()
}

/// The solutions of the left tasks (`2 q0 < n-1`), kept for their mirror tasks (task `i`'s
/// mirror is task `len-1-i`: the mirror maps the prefixes of one depth onto themselves and
/// reverses their order). Each solution is front-coded within its task: the length `l` of the
/// prefix it shares with the previous one (as `1 + l - d`, never 0), then its files `l..n-1` (the last file is the one
/// left), in 4 bits each for n <= 16, else a byte each. At most [`MIRROR_BUDGET`] bytes are
/// kept in all (n = 16 needs about 30 MB); a left task over budget keeps nothing and its
/// mirror task searches. Taken (and freed) by the mirror task.
struct Mirror {
    slots: Vec<Mutex<Option<Vec<u8>>>>,
    budget: AtomicUsize,
}

/// Bytes of solutions [`Mirror`] keeps at most.
const MIRROR_BUDGET: usize = 36 << 20;

/// A stream of small numbers: 4 bits each (`narrow`), else 8.
struct Code {
    bytes: Vec<u8>,
    narrow: bool,
    half: bool,
}

impl Code {
    fn push(&mut self, v: u8) {
        if !self.narrow {
            self.bytes.push(v);
        } else if self.half {
            *self.bytes.last_mut().expect("half a byte written") |= v << 4;
            self.half = false;
        } else {
            self.bytes.push(v);
            self.half = true;
        }
    }
}

/// Reads a [`Code`].
struct Decode<'a> {
    bytes: &'a [u8],
    narrow: bool,
    pos: usize,
}

impl Decode<'_> {
    fn next(&mut self) -> Option<u8> {
        let at = if self.narrow { self.pos / 2 } else { self.pos };
        let b = *self.bytes.get(at)?;
        let v = if !self.narrow {
            b
        } else if self.pos.is_multiple_of(2) {
            b & 15
        } else {
            b >> 4
        };
        self.pos += 1;
        Some(v)
    }
}

impl Mirror {
    fn new(tasks: usize) -> Mirror {
        Mirror {
            slots: (0..tasks).map(|_| Mutex::new(None)).collect(),
            budget: AtomicUsize::new(MIRROR_BUDGET),
        }
    }

    /// Reports the solutions of task `i` (of `all`, without `unique`) to `emit` in order:
    /// searched by `s`, or the mirror images of the left partner's kept solutions.
    fn each(
        &self,
        n: usize,
        all: &[Vec<u8>],
        i: usize,
        s: &mut dyn TaskSearch,
        emit: &mut Emit<'_>,
    ) -> ControlFlow<()> {
        let prefix = &all[i];
        let twice = 2 * usize::from(prefix[0]);
        if twice > n - 1 {
            let partner = all.len() - 1 - i;
            let kept = self.slots[partner]
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            if let Some(code) = kept {
                self.budget.fetch_add(code.len(), Ordering::Relaxed);
                return Self::mirrored(n, &all[partner], &code, emit);
            }
            return s.each(prefix, emit);
        }
        if twice == n - 1 || self.budget.load(Ordering::Relaxed) == 0 {
            return s.each(prefix, emit);
        }
        let d = prefix.len();
        let mut code = Code {
            bytes: Vec::new(),
            narrow: n <= 16,
            half: false,
        };
        let mut prev = [u8::MAX; MAX_N];
        let full = s.each(prefix, &mut |q, class_size| {
            let base = d.min(n - 1);
            let mut l = base;
            while l < n - 1 && q[l] == prev[l] {
                l += 1;
            }
            // 1 + (l - base) <= n - d <= 15 for n <= 16: never 0, the padding nibble.
            code.push((1 + l - base) as u8);
            for &c in &q[l..n - 1] {
                code.push(c);
            }
            prev[..n].copy_from_slice(q);
            emit(q, class_size)
        });
        let mut code = code.bytes;
        code.shrink_to_fit();
        let fits = self
            .budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                b.checked_sub(code.len())
            })
            .is_ok();
        if full.is_continue() && fits {
            *self.slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(code);
        } else if fits {
            self.budget.fetch_add(code.len(), Ordering::Relaxed);
        }
        full
    }

    /// Reports the solutions of the mirror task of the left task `prefix` with solutions
    /// `code` to `emit`, in order (the left task's, mirrored, in reverse).
    fn mirrored(n: usize, prefix: &[u8], code: &[u8], emit: &mut Emit<'_>) -> ControlFlow<()> {
        let mut sols = Vec::new();
        let mut q = [0u8; MAX_N];
        q[..prefix.len()].copy_from_slice(prefix);
        let all = full_mask(n);
        let mut read = Decode {
            bytes: code,
            narrow: n <= 16,
            pos: 0,
        };
        let base = prefix.len().min(n - 1);
        while let Some(v) = read.next() {
            if v == 0 {
                break; // the padding nibble
            }
            let l = base + usize::from(v) - 1;
            let mut cols = 0u32;
            for (r, slot) in q.iter_mut().enumerate().take(n - 1) {
                if r >= l {
                    *slot = read.next().expect("a whole solution");
                }
                cols |= 1 << *slot;
            }
            q[n - 1] = (all & !cols).trailing_zeros() as u8;
            sols.extend_from_slice(&q[..n]);
        }
        let mut m = [0u8; MAX_N];
        for s in sols.chunks_exact(n).rev() {
            for (a, &b) in m.iter_mut().zip(s) {
                *a = (n - 1) as u8 - b;
            }
            emit(&m[..n], None)?;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::queens::model::Queens;

    /// The known counts ([`solutions_known`]) are the bits counter's for n <= 13.
    #[test]
    fn known_counts_are_counted_ones() {
        for n in 1..=13 {
            let c = crate::queens::bits::count(n, false, None, &|_, _, _| {});
            assert_eq!(solutions_known(n), Some(c.solutions), "n = {n}");
        }
        assert_eq!(solutions_known(0), None);
        assert_eq!(solutions_known(28), None);
    }

    /// A000170 for n = 1..=12.
    const SOLUTIONS: [usize; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

    fn all_in_order(n: usize, unique: bool, min_tasks: usize) -> Vec<(Vec<u8>, Option<u8>)> {
        let mut out = Vec::new();
        for t in tasks(n, min_tasks) {
            let _ = for_each_solution_in::<()>(n, &t, unique, |q, s| {
                out.push((q.to_vec(), s));
                ControlFlow::Continue(())
            });
        }
        out
    }

    fn dlx(n: usize, unique: bool) -> Vec<(Vec<u8>, Option<u8>)> {
        let mut out = Vec::new();
        let flow = for_each_solution(n, unique, Engine::Dlx, |q, s| {
            out.push((q.to_vec(), s));
            ControlFlow::Continue(())
        });
        assert!(flow.unwrap().is_continue());
        out
    }

    /// Every permutation `q` of `0..n` in lexicographic order with no two queens on a
    /// diagonal; with `unique` only the class representatives, with their class sizes.
    fn brute_force(n: usize, unique: bool) -> Vec<(Vec<u8>, Option<u8>)> {
        fn extend(n: usize, q: &mut Vec<u8>, unique: bool, out: &mut Vec<(Vec<u8>, Option<u8>)>) {
            if q.len() == n {
                let diagonal_free =
                    (0..n).all(|i| (i + 1..n).all(|j| usize::from(q[i].abs_diff(q[j])) != j - i));
                if diagonal_free {
                    if !unique {
                        out.push((q.clone(), None));
                    } else if let Some(size) = symmetry::representative_class(q) {
                        out.push((q.clone(), Some(size)));
                    }
                }
                return;
            }
            for c in 0..n as u8 {
                if !q.contains(&c) {
                    q.push(c);
                    extend(n, q, unique, out);
                    q.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), unique, &mut out);
        out
    }

    #[test]
    fn both_engines_list_the_brute_force_solutions_in_lexicographic_order() {
        for n in 1..=8 {
            for unique in [false, true] {
                let want = brute_force(n, unique);
                for engine in [Engine::Bits, Engine::Dlx] {
                    let mut got = Vec::new();
                    let flow = for_each_solution(n, unique, engine, |q, s| {
                        got.push((q.to_vec(), s));
                        ControlFlow::Continue(())
                    });
                    assert!(flow.unwrap().is_continue());
                    assert_eq!(got, want, "n = {n} unique = {unique} {engine:?}");
                }
            }
        }
        for engine in [Engine::Bits, Engine::Dlx] {
            assert_eq!(
                for_each_solution(33, false, engine, |_, _| ControlFlow::Continue(())),
                Err(QueensError::BadSize(33))
            );
        }
    }

    /// A002562 for n = 1..=12.
    const CLASSES: [usize; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

    /// Whether `q` is a permutation with no two queens on a diagonal.
    fn is_solution(q: &[u8]) -> bool {
        let n = q.len();
        let mut files = vec![false; n];
        q.iter()
            .all(|&c| usize::from(c) < n && !std::mem::replace(&mut files[usize::from(c)], true))
            && (0..n).all(|i| (i + 1..n).all(|j| usize::from(q[i].abs_diff(q[j])) != j - i))
    }

    #[test]
    fn the_search_order_lists_every_solution_once() {
        for n in 1..=11 {
            for unique in [false, true] {
                let mut got = Vec::new();
                let flow = for_each_solution_in_search_order(n, unique, |q, s| {
                    got.push((q.to_vec(), s));
                    ControlFlow::Continue(())
                });
                assert!(flow.unwrap().is_continue());
                assert!(got.iter().all(|(q, _)| is_solution(q)), "n = {n}");
                let want = if unique { CLASSES } else { SOLUTIONS };
                assert_eq!(got.len(), want[n - 1], "n = {n} unique = {unique}");
                // The same solutions (and class sizes) as the lexicographic listing, each once.
                let lex = all_in_order(n, unique, 1);
                let mut sorted = got.clone();
                sorted.sort();
                assert_eq!(sorted, lex, "n = {n} unique = {unique}");
                // The same order on every run.
                let mut again = Vec::new();
                let _ = for_each_solution_in_search_order(n, unique, |q, s| {
                    again.push((q.to_vec(), s));
                    ControlFlow::Continue(())
                });
                assert_eq!(again, got);
            }
        }
        assert_eq!(
            for_each_solution_in_search_order(0, false, |_, _| ControlFlow::Continue(())),
            Err(QueensError::BadSize(0))
        );
    }

    #[test]
    fn the_search_order_finds_first_solutions_of_large_boards() {
        for n in 20..=MAX_N {
            for unique in [false, true] {
                let mut got = Vec::new();
                let flow = for_each_solution_in_search_order(n, unique, |q, s| {
                    assert!(is_solution(q), "n = {n}: {q:?}");
                    assert_eq!(s.is_some(), unique);
                    if let Some(size) = s {
                        assert_eq!(symmetry::representative_class(q), Some(size));
                    }
                    got.push(q.to_vec());
                    if got.len() == 20 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                assert!(flow.unwrap().is_break());
                got.sort();
                got.dedup();
                assert_eq!(got.len(), 20, "n = {n}: distinct");
            }
        }
    }

    #[test]
    fn the_search_order_rows_are_numbered_and_limited() {
        let (n, unique) = (9, true);
        let mut want = Vec::new();
        let _ = for_each_solution_in_search_order(n, unique, |q, s| {
            let index = 1 + want.iter().filter(|&&b| b == b'\n').count() as u64;
            ListFormat::Csv.row(&mut want, index, q, s);
            ControlFlow::Continue(())
        });
        let lines: Vec<&[u8]> = want.split_inclusive(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), CLASSES[n - 1]);
        for limit in [None, Some(0), Some(1), Some(7), Some(1000)] {
            let mut out = Vec::new();
            let k = list_in_search_order(n, unique, limit, ListFormat::Csv, &mut out).unwrap();
            let take = limit.map_or(lines.len(), |l| (l as usize).min(lines.len()));
            assert_eq!(k, take as u64);
            assert_eq!(out, lines[..take].concat());
        }
    }

    #[test]
    fn the_bitboard_tasks_list_what_the_dancing_links_search_lists() {
        for n in 1..=10 {
            for unique in [false, true] {
                let want = dlx(n, unique);
                for min_tasks in [1, 7, 1000] {
                    assert_eq!(
                        all_in_order(n, unique, min_tasks),
                        want,
                        "n = {n}, unique = {unique}, min_tasks = {min_tasks}"
                    );
                }
            }
        }
    }

    #[test]
    fn counts_match_a000170_and_tasks_are_in_order() {
        for n in 1..=12 {
            let all = all_in_order(n, false, 50);
            assert_eq!(all.len(), SOLUTIONS[n - 1], "n = {n}");
            assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
            let t = tasks(n, 50);
            assert!(t.windows(2).all(|w| w[0] < w[1]));
            assert!(t.len() >= 50 || t.first().is_none_or(|p| p.len() == n));
        }
    }

    #[test]
    fn bad_prefixes_have_no_solutions() {
        let none = |p: &[u8]| {
            for_each_solution_in::<()>(8, p, false, |_, _| panic!("no solution expected"))
                .is_continue()
        };
        assert!(none(&[0, 1]));
        assert!(none(&[0, 0]));
        assert!(none(&[9]));
        assert!(none(&[0, 4, 7, 5, 2, 6, 1, 4]));
        let mut seen = 0;
        let _ = for_each_solution_in::<()>(8, &[0, 4, 7, 5, 2, 6, 1, 3], false, |q, _| {
            assert_eq!(q, [0, 4, 7, 5, 2, 6, 1, 3]);
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(seen, 1);
    }

    /// The rows the `queens list` command prints, formatted the slow way.
    fn reference(n: usize, unique: bool, format: ListFormat) -> String {
        let mut s = String::new();
        for (i, (q, class)) in dlx(n, unique).into_iter().enumerate() {
            let index = i + 1;
            match format {
                ListFormat::Csv => {
                    s += &format!("{index},{n}");
                    for c in &q {
                        s += &format!(",{c}");
                    }
                    if let Some(c) = class {
                        s += &format!(",{c}");
                    }
                    s.push('\n');
                }
                ListFormat::Json => {
                    s += &format!("{{\"solution\":{index},\"n\":{n}");
                    for (r, c) in q.iter().enumerate() {
                        s += &format!(",\"q{r}\":{c}");
                    }
                    if let Some(c) = class {
                        s += &format!(",\"class_size\":{c}");
                    }
                    s += "}\n";
                }
                ListFormat::Board => {
                    if index > 1 {
                        s.push('\n');
                    }
                    s += &format!("Solution {index}:");
                    for c in &q {
                        s += &format!(" {c}");
                    }
                    if let Some(c) = class {
                        s += &format!(" (class of {c})");
                    }
                    s.push('\n');
                    for &c in &q {
                        let line: Vec<&str> = (0..n)
                            .map(|f| if f == c as usize { "X" } else { "." })
                            .collect();
                        s += &line.join(" ");
                        s.push('\n');
                    }
                }
            }
        }
        s
    }

    #[test]
    fn list_is_byte_identical_to_the_reference_formats_for_any_thread_count() {
        let pool1 = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let pool3 = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for n in [1, 2, 3, 4, 5, 6, 8, 10, 11] {
            for unique in [false, true] {
                for format in [ListFormat::Csv, ListFormat::Json, ListFormat::Board] {
                    let want = reference(n, unique, format);
                    let rows = dlx(n, unique).len() as u64;
                    for pool in [&pool1, &pool3] {
                        for engine in [Engine::Bits, Engine::Dlx] {
                            let mut out = Vec::new();
                            let k = list(n, unique, None, format, engine, Some(pool), &mut out)
                                .unwrap();
                            assert_eq!(
                                String::from_utf8(out).unwrap(),
                                want,
                                "n = {n} {format:?} {engine:?}"
                            );
                            assert_eq!(k, rows);
                        }
                    }
                }
            }
        }
    }

    /// Task `i`'s rows through `mirror`, searched by the bitboard enumerator.
    fn mirror_rows(mirror: &Mirror, n: usize, all: &[Vec<u8>], i: usize, f: ListFormat) -> Rows {
        let mut s = BitsSearch { n, unique: false };
        Rows::gather(f, u64::MAX, |emit| mirror.each(n, all, i, &mut s, emit))
    }

    #[test]
    fn mirror_tasks_are_the_same_with_or_without_their_partner() {
        for n in [1, 4, 5, 6, 8, 9, 10, 11] {
            let all = tasks(n, 20);
            let kept = Mirror::new(all.len());
            let none = Mirror::new(all.len());
            for (i, p) in all.iter().enumerate() {
                let want = Rows::of_task(n, p, false, ListFormat::Csv, u64::MAX);
                assert_eq!(mirror_rows(&kept, n, &all, i, ListFormat::Csv), want);
                if 2 * usize::from(p[0]) > n - 1 {
                    assert_eq!(mirror_rows(&none, n, &all, i, ListFormat::Csv), want);
                }
            }
            assert!(kept.slots.iter().all(|s| s.lock().unwrap().is_none()));
        }
        // n > 16: a byte per number. A few tasks of n = 17 and their mirrors.
        let n = 17;
        let all = tasks(n, 20_000);
        let kept = Mirror::new(all.len());
        let mut tried = 0;
        for i in (0..all.len()).step_by(997) {
            if 2 * usize::from(all[i][0]) >= n - 1 {
                break;
            }
            let left = mirror_rows(&kept, n, &all, i, ListFormat::Json);
            assert_eq!(
                left,
                Rows::of_task(n, &all[i], false, ListFormat::Json, u64::MAX)
            );
            let j = all.len() - 1 - i;
            let want = Rows::of_task(n, &all[j], false, ListFormat::Json, u64::MAX);
            assert_eq!(mirror_rows(&kept, n, &all, j, ListFormat::Json), want);
            assert_eq!(want.len(), left.len());
            tried += usize::from(!want.is_empty());
        }
        assert!(tried > 0);
    }

    #[test]
    fn dancing_links_sub_problems_cut_deeper_give_the_same_solutions() {
        let model = Queens::new(9).unwrap();
        for unique in [false, true] {
            for free_ranks in [9, 6, 3, 0] {
                let mut s = DlxSearch::new(&model, unique);
                s.free_ranks = free_ranks;
                for prefix in [&[][..], &[1], &[4, 0]] {
                    let mut got = Vec::new();
                    let _ = s.each(prefix, &mut |q, c| {
                        got.push((q.to_vec(), c));
                        ControlFlow::Continue(())
                    });
                    let mut want = Vec::new();
                    let _ = for_each_solution_in::<()>(9, prefix, unique, |q, c| {
                        want.push((q.to_vec(), c));
                        ControlFlow::Continue(())
                    });
                    assert_eq!(
                        got, want,
                        "{prefix:?} unique = {unique} free = {free_ranks}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_writer_streams_the_rest_of_a_capped_task_numbered_on() {
        let n = 10;
        let model = Queens::new(n).unwrap();
        let prefix = [2u8];
        let mut whole = Vec::new();
        let _ = for_each_solution_in::<()>(n, &prefix, false, |q, c| {
            let k = 1 + whole.iter().filter(|&&b| b == b'\n').count() as u64;
            ListFormat::Csv.row(&mut whole, 100 + k, q, c);
            ControlFlow::Continue(())
        });
        let rows = whole.iter().filter(|&&b| b == b'\n').count() as u64;
        assert!(rows > 10);
        let mut bits = BitsSearch { n, unique: false };
        let mut dlx = DlxSearch::new(&model, false);
        for s in [&mut bits as &mut dyn TaskSearch, &mut dlx] {
            for (skip, limit) in [(3u64, u64::MAX), (3, 105), (0, 100 + rows)] {
                let mut out = Vec::new();
                let w = stream_rest(
                    &prefix,
                    s,
                    ListFormat::Csv,
                    skip,
                    100 + skip,
                    limit,
                    &mut out,
                )
                .unwrap();
                let want: Vec<u8> = whole
                    .split_inclusive(|&b| b == b'\n')
                    .skip(skip as usize)
                    .take((limit.min(100 + rows) - 100 - skip) as usize)
                    .flatten()
                    .copied()
                    .collect();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(want).unwrap()
                );
                assert_eq!(w, limit.min(100 + rows));
            }
        }
    }

    #[test]
    fn limit_stops_the_listing_in_order() {
        let want = reference(10, false, ListFormat::Csv);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for limit in [0u64, 1, 5, 500, 724, 10_000] {
            let mut out = Vec::new();
            let k = list(
                10,
                false,
                Some(limit),
                ListFormat::Csv,
                Engine::Bits,
                Some(&pool),
                &mut out,
            )
            .unwrap();
            assert_eq!(k, limit.min(724));
            let lines: Vec<&str> = want.lines().take(limit as usize).collect();
            let mut expect = lines.join("\n");
            if !lines.is_empty() {
                expect.push('\n');
            }
            assert_eq!(String::from_utf8(out).unwrap(), expect);
        }
    }
}
