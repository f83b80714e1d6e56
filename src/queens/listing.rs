//! Listing n-queens solutions at the speed of the output: a word-parallel (bitboard) enumerator
//! in lexicographic order, split into ordered tasks, fast row formatting, and an ordered
//! parallel driver with bounded memory.
//!
//! # Order
//!
//! A solution is its columns `q[0..n]` (`q[r]` is the file of the queen on rank `r`). The
//! enumerator places ranks 0, 1, ..., n-1 in turn and tries the open files of a rank in
//! increasing order (lowest set bit first), so solutions come out in lexicographic order of
//! `q` — the order of [`crate::queens::model::for_each_solution`], solution for solution.
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
//! therefore formats each row without its number ([`RowFormat::tail`]) into [`Rows`], and the
//! ordered writer puts the number in front ([`RowFormat::head`], [`Rows::write_numbered`]):
//! a copy of the rows plus one `itoa` per row, done on the writing thread.
//!
//! # Parallel order
//!
//! [`ordered_window`] runs tasks on a rayon pool with at most `window` tasks in flight (started
//! or finished but not yet written) and hands their results to a sink in task order. Memory is
//! bounded by `window` task results. [`list`] puts it all together, and halves the search with
//! the left-right mirror (see [`list`] and docs/listing.md).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use crate::queens::symmetry;

/// The largest board (masks are `u32`).
pub const MAX_N: usize = 32;

fn full_mask(n: usize) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

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

/// Row formats, byte for byte those of `xcover queens list` (dancing-links path).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// `K,q0,...,q{n-1}` (plus `,S` with the class size), one line per solution. The header
    /// is the caller's.
    Csv,
    /// `{"solution":K,"columns":[q0,...]}` (plus `,"class_size":S`), one line per solution.
    Json,
    /// `Solution K: q0 ... q{n-1}` (plus ` (class of S)`), then the board, `X` and `.`
    /// separated by spaces; a blank line before every solution but the first.
    Board,
}

impl RowFormat {
    /// Appends the numbered start of row `index` (1-based).
    #[inline]
    pub fn head(self, out: &mut Vec<u8>, index: u64) {
        let mut b = itoa::Buffer::new();
        match self {
            RowFormat::Csv => out.extend_from_slice(b.format(index).as_bytes()),
            RowFormat::Json => {
                out.extend_from_slice(b"{\"solution\":");
                out.extend_from_slice(b.format(index).as_bytes());
            }
            RowFormat::Board => {
                if index > 1 {
                    out.push(b'\n');
                }
                out.extend_from_slice(b"Solution ");
                out.extend_from_slice(b.format(index).as_bytes());
                out.push(b':');
            }
        }
    }

    /// Appends the rest of the row of `q` (after [`RowFormat::head`]), newline included.
    #[inline]
    pub fn tail(self, out: &mut Vec<u8>, q: &[u8], class_size: Option<u8>) {
        match self {
            RowFormat::Csv => csv_tail(out, q, class_size),
            RowFormat::Json => {
                out.extend_from_slice(b",\"columns\":[");
                let mut sep = b"" as &[u8];
                for &c in q {
                    out.extend_from_slice(sep);
                    push_small(out, c);
                    sep = b",";
                }
                out.push(b']');
                if let Some(s) = class_size {
                    out.extend_from_slice(b",\"class_size\":");
                    push_small(out, s);
                }
                out.extend_from_slice(b"}\n");
            }
            RowFormat::Board => {
                for &c in q {
                    out.push(b' ');
                    push_small(out, c);
                }
                if let Some(s) = class_size {
                    out.extend_from_slice(b" (class of ");
                    push_small(out, s);
                    out.push(b')');
                }
                out.push(b'\n');
                let n = q.len();
                for &c in q {
                    for f in 0..n {
                        if f > 0 {
                            out.push(b' ');
                        }
                        out.push(if f == usize::from(c) { b'X' } else { b'.' });
                    }
                    out.push(b'\n');
                }
            }
        }
    }
}

/// Appends a number below 256 in decimal.
#[inline]
fn push_small(out: &mut Vec<u8>, v: u8) {
    if v >= 100 {
        out.push(b'0' + v / 100);
    }
    if v >= 10 {
        out.push(b'0' + v / 10 % 10);
    }
    out.push(b'0' + v % 10);
}

/// Appends one CSV row: `prefix` (the first field, e.g. the solution number, or nothing when
/// the writer adds it), then `,q0,...,q{n-1}`, then `,class_size` when given, then `\n`.
/// Files are below 32, so each takes one or two digits.
#[inline]
pub fn csv_row(out: &mut Vec<u8>, prefix: &[u8], q: &[u8], class_size: Option<u8>) {
    out.extend_from_slice(prefix);
    csv_tail(out, q, class_size);
}

/// `,c` for each file `c < 32`, padded to 3 bytes, and its length: one copy and no branch per
/// file.
const CSV_FILE: [([u8; 3], usize); MAX_N] = {
    let mut t = [([0u8; 3], 0usize); MAX_N];
    let mut c = 0;
    while c < MAX_N {
        t[c] = if c < 10 {
            ([b',', b'0' + c as u8, 0], 2)
        } else {
            ([b',', b'0' + (c / 10) as u8, b'0' + (c % 10) as u8], 3)
        };
        c += 1;
    }
    t
};

#[inline]
fn csv_tail(out: &mut Vec<u8>, q: &[u8], class_size: Option<u8>) {
    // One copy per row from a stack buffer: 3 bytes per file, 4 for the class, 1 newline.
    let mut buf = [0u8; 3 * MAX_N + 5];
    let mut i = 0;
    for &c in q {
        let (bytes, len) = CSV_FILE[usize::from(c) % MAX_N];
        buf[i..i + 3].copy_from_slice(&bytes);
        i += len;
    }
    if let Some(s) = class_size {
        buf[i] = b',';
        buf[i + 1] = b'0' + s % 10;
        i += 2;
    }
    buf[i] = b'\n';
    out.extend_from_slice(&buf[..=i]);
}

/// Rows formatted without their number (the tails of [`RowFormat`]), one task's worth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    bytes: Vec<u8>,
    /// End offset of each row in `bytes`.
    ends: Vec<u32>,
}

impl Rows {
    /// The rows of `n`-queens solutions extending `prefix` (see [`for_each_solution_in`]) in
    /// `format`, at most `limit` of them.
    pub fn of_task(n: usize, prefix: &[u8], unique: bool, format: RowFormat, limit: u64) -> Rows {
        let mut rows = Rows::default();
        if limit == 0 {
            return rows;
        }
        let _ = for_each_solution_in(n, prefix, unique, |q, class_size| {
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
        format: RowFormat,
        first: u64,
        take: u64,
        out: &mut Vec<u8>,
    ) -> u64 {
        let k = (self.len() as u64).min(take) as usize;
        let end = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        out.reserve(end + 12 * k);
        for (i, row) in self.iter().take(k).enumerate() {
            format.head(out, first + i as u64);
            out.extend_from_slice(row);
        }
        k as u64
    }
}

/// The number of tasks [`list`] splits `n` into, at least: many small tasks keep both the
/// buffers (memory) and the imbalance at the end small.
const LIST_MIN_TASKS: usize = 4096;

/// Writes the rows (no header) of every `n`-queens solution — with `unique`, every class
/// representative with its class size — in lexicographic order, numbered from 1, at most
/// `limit`, in `format`, to `out`. Tasks run on `pool` (or the current rayon pool) with at most
/// `4 × threads` tasks in flight; the output does not depend on the number of threads. Each
/// task's rows are written with one `write_all`. Returns the number of rows written.
///
/// Half the search is saved by the left-right mirror: the tasks with `q0 >= n/2` are the
/// mirror images of those with `q0 < (n-1)/2` in reverse order (the mirror reverses the
/// lexicographic order), so a left task keeps its solutions, front-coded ([`Mirror`]), and its
/// mirror task writes them mirrored and reversed instead of searching. A right task whose
/// partner's solutions are not there (not finished yet) searches itself, so no task ever waits.
///
/// Call it from outside the pool (see [`ordered_window`]).
pub fn list(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    format: RowFormat,
    pool: Option<&rayon::ThreadPool>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok(0);
    }
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let all = tasks(n, LIST_MIN_TASKS);
    let index: Vec<usize> = (0..all.len()).collect();
    // With `unique` rank 0 is already restricted to the left half.
    let mirror = (!unique).then(|| Mirror::new(all.len()));
    let mut written = 0u64;
    let mut buf = Vec::new();
    ordered_window(
        pool,
        &index,
        4 * threads.max(1),
        |&i| match &mirror {
            Some(m) => m.rows(n, &all, i, format, limit),
            None => Rows::of_task(n, &all[i], unique, format, limit),
        },
        |rows: Rows| {
            buf.clear();
            written += rows.write_numbered(format, written + 1, limit - written, &mut buf);
            out.write_all(&buf)?;
            Ok::<_, io::Error>(if written >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        },
    )?;
    Ok(written)
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

    /// The rows of task `i` (of `all`).
    fn rows(&self, n: usize, all: &[Vec<u8>], i: usize, format: RowFormat, limit: u64) -> Rows {
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
                return Self::mirrored(n, &all[partner], &code, format, limit);
            }
            return Rows::of_task(n, prefix, false, format, limit);
        }
        if twice == n - 1 || self.budget.load(Ordering::Relaxed) == 0 {
            return Rows::of_task(n, prefix, false, format, limit);
        }
        let mut rows = Rows::default();
        let d = prefix.len();
        let mut code = Code {
            bytes: Vec::new(),
            narrow: n <= 16,
            half: false,
        };
        let mut prev = [u8::MAX; MAX_N];
        let full = for_each_solution_in(n, prefix, false, |q, _| {
            format.tail(&mut rows.bytes, q, None);
            rows.end_row();
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
            if rows.len() as u64 >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
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
        rows
    }

    /// The rows of the mirror task of the left task `prefix` with solutions `code`.
    fn mirrored(n: usize, prefix: &[u8], code: &[u8], format: RowFormat, limit: u64) -> Rows {
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
        let mut rows = Rows::default();
        let mut m = [0u8; MAX_N];
        for s in sols.chunks_exact(n).rev() {
            if rows.len() as u64 >= limit {
                break;
            }
            for (a, &b) in m.iter_mut().zip(s) {
                *a = (n - 1) as u8 - b;
            }
            format.tail(&mut rows.bytes, &m[..n], None);
            rows.end_row();
        }
        rows
    }
}

/// Runs `work` on every task on `pool` (or the current rayon pool), at most `window` tasks in
/// flight (running, or finished and waiting for the sink), and calls `sink` on the results in
/// task order on the calling thread. Stops at the first `Break` or error of the sink (tasks in
/// flight finish and are dropped) and returns the error. A panic in `work` is resumed on the
/// calling thread.
///
/// The calling thread only waits and runs the sink; call it from outside the pool (from a
/// thread of the pool it would occupy that thread, and deadlock a pool of one thread — so it
/// then falls back to solving windows with `par_iter` and sinking them in order).
pub fn ordered_window<Task, T, E>(
    pool: Option<&rayon::ThreadPool>,
    tasks: &[Task],
    window: usize,
    work: impl Fn(&Task) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E>
where
    Task: Sync,
    T: Send,
{
    let window = window.max(1);
    let inside = match pool {
        Some(p) => p.current_thread_index().is_some(),
        None => rayon::current_thread_index().is_some(),
    };
    if inside {
        return windows_in_turn(tasks, window, &work, &mut sink);
    }
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let work = &work;
    let cancel = &cancel;
    let result = match pool {
        Some(p) => p.in_place_scope_fifo(|s| drive(s, tasks, window, work, cancel, tx, &rx, sink)),
        None => {
            rayon::in_place_scope_fifo(|s| drive(s, tasks, window, work, cancel, tx, &rx, sink))
        }
    };
    match result {
        Ok(r) => r,
        Err(panic) => resume_unwind(panic),
    }
}

/// A task's index and its result (or its panic).
type Done<T> = (usize, std::thread::Result<T>);

/// The calling thread's loop of [`ordered_window`]: starts tasks while the window has room,
/// sinks results in order, waits for the next one. `Err` is a task's panic, resumed by the
/// caller once the scope has ended.
#[allow(clippy::too_many_arguments)]
fn drive<'scope, Task, T, E, W>(
    s: &rayon::ScopeFifo<'scope>,
    tasks: &'scope [Task],
    window: usize,
    work: &'scope W,
    cancel: &'scope AtomicBool,
    tx: mpsc::Sender<Done<T>>,
    rx: &mpsc::Receiver<Done<T>>,
    mut sink: impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> std::thread::Result<Result<(), E>>
where
    Task: Sync,
    T: Send + 'scope,
    W: Fn(&Task) -> T + Sync,
{
    // Results of tasks next..started, `None` while running.
    let mut ready: VecDeque<Option<T>> = VecDeque::with_capacity(window);
    let (mut next, mut started) = (0usize, 0usize);
    let result = loop {
        while started < tasks.len() && started < next + window {
            let (tx, task, i) = (tx.clone(), &tasks[started], started);
            s.spawn_fifo(move |_| {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let r = catch_unwind(AssertUnwindSafe(|| work(task)));
                let _ = tx.send((i, r));
            });
            ready.push_back(None);
            started += 1;
        }
        if next == tasks.len() {
            break Ok(Ok(()));
        }
        if let Some(t) = ready.front_mut().and_then(Option::take) {
            ready.pop_front();
            next += 1;
            match sink(t) {
                Ok(ControlFlow::Continue(())) => continue,
                Ok(ControlFlow::Break(())) => break Ok(Ok(())),
                Err(e) => break Ok(Err(e)),
            }
        }
        let (i, r) = rx.recv().expect("a sender is alive");
        match r {
            Ok(t) => ready[i - next] = Some(t),
            Err(panic) => break Err(panic),
        }
    };
    // Tasks not started yet return at once; those running finish and are dropped.
    cancel.store(true, Ordering::Relaxed);
    result
}

/// [`ordered_window`] from inside the pool: windows solved in parallel, then sunk in order.
fn windows_in_turn<Task: Sync, T: Send, E>(
    tasks: &[Task],
    window: usize,
    work: &(impl Fn(&Task) -> T + Sync),
    sink: &mut impl FnMut(T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    for chunk in tasks.chunks(window) {
        let results: Vec<T> = chunk.par_iter().map(work).collect();
        for t in results {
            if sink(t)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::queens::model::{self, Queens};

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
        let m = Queens::new(n).unwrap();
        let mut out = Vec::new();
        model::for_each_solution(&m, unique, None, |q, s| {
            out.push((q.to_vec(), s));
            Ok::<_, ()>(ControlFlow::Continue(()))
        })
        .unwrap();
        out
    }

    #[test]
    fn same_solutions_in_the_same_order_as_the_dancing_links_listing() {
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

    /// The rows the `queens list` command prints today, formatted the slow way.
    fn reference(n: usize, unique: bool, format: RowFormat) -> String {
        let mut s = String::new();
        for (i, (q, class)) in dlx(n, unique).into_iter().enumerate() {
            let index = i + 1;
            match format {
                RowFormat::Csv => {
                    s += &index.to_string();
                    for c in &q {
                        s += &format!(",{c}");
                    }
                    if let Some(c) = class {
                        s += &format!(",{c}");
                    }
                    s.push('\n');
                }
                RowFormat::Json => {
                    let cols: Vec<String> = q.iter().map(|c| c.to_string()).collect();
                    s += &format!("{{\"solution\":{index},\"columns\":[{}]", cols.join(","));
                    if let Some(c) = class {
                        s += &format!(",\"class_size\":{c}");
                    }
                    s += "}\n";
                }
                RowFormat::Board => {
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
                for format in [RowFormat::Csv, RowFormat::Json, RowFormat::Board] {
                    let want = reference(n, unique, format);
                    let rows = dlx(n, unique).len() as u64;
                    for pool in [&pool1, &pool3] {
                        let mut out = Vec::new();
                        let k = list(n, unique, None, format, Some(pool), &mut out).unwrap();
                        assert_eq!(String::from_utf8(out).unwrap(), want, "n = {n} {format:?}");
                        assert_eq!(k, rows);
                    }
                }
            }
        }
    }

    #[test]
    fn mirror_tasks_are_the_same_with_or_without_their_partner() {
        for n in [1, 4, 5, 6, 8, 9, 10, 11] {
            let all = tasks(n, 20);
            let kept = Mirror::new(all.len());
            let none = Mirror::new(all.len());
            for (i, p) in all.iter().enumerate() {
                let want = Rows::of_task(n, p, false, RowFormat::Csv, u64::MAX);
                assert_eq!(kept.rows(n, &all, i, RowFormat::Csv, u64::MAX), want);
                if 2 * usize::from(p[0]) > n - 1 {
                    assert_eq!(none.rows(n, &all, i, RowFormat::Csv, u64::MAX), want);
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
            let left = kept.rows(n, &all, i, RowFormat::Json, u64::MAX);
            assert_eq!(
                left,
                Rows::of_task(n, &all[i], false, RowFormat::Json, u64::MAX)
            );
            let j = all.len() - 1 - i;
            let want = Rows::of_task(n, &all[j], false, RowFormat::Json, u64::MAX);
            assert_eq!(kept.rows(n, &all, j, RowFormat::Json, u64::MAX), want);
            assert_eq!(want.len(), left.len());
            tried += usize::from(!want.is_empty());
        }
        assert!(tried > 0);
    }

    #[test]
    fn csv_rows_are_written_as_before() {
        let mut out = Vec::new();
        csv_row(&mut out, b"1", &[0, 4, 7, 5, 2, 6, 1, 3], None);
        csv_row(&mut out, b"n", &[10, 31, 9], Some(8));
        csv_row(&mut out, b"", &[], None);
        assert_eq!(out, b"1,0,4,7,5,2,6,1,3\nn,10,31,9,8\n\n");
    }

    #[test]
    fn limit_stops_the_listing_in_order() {
        let want = reference(10, false, RowFormat::Csv);
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
                RowFormat::Csv,
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

    #[test]
    fn ordered_window_keeps_the_order_stops_and_propagates_errors() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let tasks: Vec<u64> = (0..1000).collect();
        // Uneven work: later tasks finish first.
        let work = |&t: &u64| {
            let spin = (1000 - t) * 50;
            (0..spin)
                .fold(t, |a, b| a.wrapping_add(b % 3))
                .wrapping_sub((0..spin).fold(0u64, |a, b| a.wrapping_add(b % 3)))
        };
        for window in [1, 2, 8, 64] {
            let mut seen = Vec::new();
            ordered_window(Some(&pool), &tasks, window, work, |t| {
                seen.push(t);
                Ok::<_, ()>(ControlFlow::Continue(()))
            })
            .unwrap();
            assert_eq!(seen, tasks);
            // From inside the pool too.
            let mut seen = Vec::new();
            pool.install(|| {
                ordered_window(None, &tasks, window, work, |t| {
                    seen.push(t);
                    Ok::<_, ()>(ControlFlow::Continue(()))
                })
            })
            .unwrap();
            assert_eq!(seen, tasks);
        }
        let mut seen = 0;
        let r = ordered_window(Some(&pool), &tasks, 8, work, |t| {
            seen += 1;
            if t == 10 {
                Err("stop")
            } else {
                Ok(ControlFlow::Continue(()))
            }
        });
        assert_eq!((r, seen), (Err("stop"), 11));
        let mut seen = 0;
        let r = ordered_window(Some(&pool), &tasks, 8, work, |t| {
            seen += 1;
            Ok::<_, ()>(if t == 20 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        });
        assert_eq!((r, seen), (Ok(()), 21));
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panic_in_a_task_reaches_the_caller() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let tasks: Vec<u32> = (0..100).collect();
        let _ = ordered_window(
            Some(&pool),
            &tasks,
            4,
            |&t| {
                assert!(t != 37, "boom");
                t
            },
            |_| Ok::<_, ()>(ControlFlow::Continue(())),
        );
    }

    /// This process's user + system CPU time in seconds (Linux; 0 elsewhere), for timing on a
    /// shared machine.
    pub(crate) fn cpu_seconds() -> f64 {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the command name (which is in parentheses): utime and stime are the
        // 12th and 13th.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<f64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        f.iter().sum::<f64>() / 100.0
    }

    /// Release speed: `cargo test --release --lib queens::listing::tests::speed -- --ignored
    /// --nocapture` (n and threads from `LIST_N`, `LIST_THREADS`).
    #[test]
    #[ignore]
    fn speed() {
        let n: usize = std::env::var("LIST_N").map_or(16, |v| v.parse().unwrap());
        let threads: usize = std::env::var("LIST_THREADS").map_or(1, |v| v.parse().unwrap());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        struct Sink(u64);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0 += b.len() as u64;
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        if std::env::var("LIST_MODE").is_ok_and(|m| m == "count") {
            let (t, cpu) = (std::time::Instant::now(), cpu_seconds());
            let mut k = 0u64;
            for p in tasks(n, LIST_MIN_TASKS) {
                let _ = for_each_solution_in::<()>(n, &p, false, |_, _| {
                    k += 1;
                    ControlFlow::Continue(())
                });
            }
            let (s, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
            eprintln!("n = {n}: enumerated {k} in {s:.2} s wall, {cpu:.2} CPU-s");
            return;
        }
        let mut sink = Sink(0);
        let (t, cpu) = (std::time::Instant::now(), cpu_seconds());
        let rows = list(n, false, None, RowFormat::Csv, Some(&pool), &mut sink).unwrap();
        let (s, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        eprintln!(
            "n = {n}, {threads} thread(s): {rows} rows, {} bytes in {s:.2} s wall = {:.0} MB/s, \
             {cpu:.2} CPU-s = {:.0} MB per CPU-s",
            sink.0,
            sink.0 as f64 / s / 1e6,
            sink.0 as f64 / cpu / 1e6
        );
    }
}
