//! The n-queens solutions in lexicographic order (the order of `xcover queens list`) as plain
//! bytes, for a program that keeps them rather than writes them (the Python package's
//! `solutions` and `iter_solutions`): [`Layouts`] holds `n` bytes a solution (the file of the
//! queen of each rank, 0-based) and, with `unique`, one byte a solution (its class size).
//! Both entries stop at the handle's request and then keep a prefix of the listing.

use std::ops::ControlFlow;

use super::listing::{self, MAX_N};
use crate::engine::Stop;
use crate::engine::run;

/// Solutions of an n-queens listing, in its order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layouts {
    /// `n` bytes a solution: the file of the queen of each rank.
    pub files: Vec<u8>,
    /// With `unique`, each solution's class size; empty otherwise.
    pub class_sizes: Vec<u8>,
}

/// Tasks (prefixes of the first ranks) per thread of [`collect`]: enough that a thread with
/// dense tasks does not hold up the others.
const TASKS_PER_THREAD: usize = 16;

/// Whether `n` is a board of the listing (1 to [`MAX_N`]), or why not.
pub fn check_size(n: usize) -> Result<(), String> {
    if !(1..=MAX_N).contains(&n) {
        return Err(format!("n must be 1 to {MAX_N}, not {n}"));
    }
    Ok(())
}

/// The solutions of the prefix `prefix` (at most `limit`) until `stop` is requested, and
/// whether they are all of them.
fn task(n: usize, prefix: &[u8], unique: bool, limit: u64, stop: &Stop) -> (Layouts, bool) {
    let mut out = Layouts::default();
    let mut k = 0u64;
    let flow = listing::for_each_solution_in(n, prefix, unique, |q, size| {
        if k >= limit || stop.requested() {
            return ControlFlow::Break(());
        }
        out.files.extend_from_slice(q);
        if let Some(s) = size {
            out.class_sizes.push(s);
        }
        k += 1;
        ControlFlow::Continue(())
    });
    (out, flow.is_continue())
}

/// Every n-queens solution in lexicographic order (with `unique` one representative per
/// symmetry class, with its class size), at most `limit`: with a limit, or on one thread, in
/// one pass on the calling thread; otherwise the tasks of the listing ([`listing::tasks`]) on
/// a pool of `threads` (0: all cores), concatenated in order up to the first one that `stop`
/// cut short, so that the result is always a prefix of the listing. Panics unless
/// `1 <= n <= MAX_N`.
pub fn collect(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    threads: usize,
    stop: &Stop,
) -> Result<Layouts, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    if limit.is_some() || pool.current_num_threads() == 1 {
        return Ok(task(n, &[], unique, limit.unwrap_or(u64::MAX), stop).0);
    }
    let tasks = listing::tasks(n, TASKS_PER_THREAD * pool.current_num_threads());
    let parts: Vec<(Layouts, bool)> =
        pool.install(|| run::deal_each(&tasks, |p| task(n, p, unique, u64::MAX, stop)));
    let mut all = Layouts {
        files: Vec::with_capacity(parts.iter().map(|p| p.0.files.len()).sum()),
        class_sizes: Vec::new(),
    };
    for (part, whole) in parts {
        all.files.extend_from_slice(&part.files);
        all.class_sizes.extend_from_slice(&part.class_sizes);
        if !whole {
            break;
        }
    }
    Ok(all)
}

/// Hands the n-queens solutions in lexicographic order (at most `limit`) to `send` in chunks
/// of `chunk` solutions (the last one shorter), on the calling thread, until `send` returns
/// false or `stop` is requested; a chunk cut short by `stop` is not sent. Panics unless
/// `1 <= n <= MAX_N`.
pub fn in_chunks(
    n: usize,
    unique: bool,
    limit: Option<u64>,
    chunk: usize,
    stop: &Stop,
    mut send: impl FnMut(Layouts) -> bool,
) {
    let limit = limit.unwrap_or(u64::MAX);
    let mut out = Layouts::default();
    let mut k = 0u64;
    let flow = listing::for_each_solution_in(n, &[], unique, |q, size| {
        if k >= limit || stop.requested() {
            return ControlFlow::Break(());
        }
        k += 1;
        out.files.extend_from_slice(q);
        if let Some(s) = size {
            out.class_sizes.push(s);
        }
        if out.files.len() >= chunk * n && !send(std::mem::take(&mut out)) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if (flow.is_continue() || k >= limit) && !out.files.is_empty() {
        send(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threads_and_the_chunks_give_the_listing() {
        let stop = Stop::new();
        let one = collect(8, false, None, 1, &stop).unwrap();
        assert_eq!(one.files.len(), 92 * 8);
        assert_eq!(collect(8, false, None, 3, &stop).unwrap(), one);
        let mut chunks = Vec::new();
        in_chunks(8, false, None, 10, &stop, |c| {
            chunks.push(c);
            true
        });
        assert_eq!(chunks.len(), 10);
        let files: Vec<u8> = chunks.iter().flat_map(|c| c.files.clone()).collect();
        assert_eq!(files, one.files);
        let unique = collect(8, true, Some(5), 2, &stop).unwrap();
        assert_eq!((unique.files.len(), unique.class_sizes.len()), (5 * 8, 5));
        assert_eq!(check_size(0).unwrap_err(), "n must be 1 to 32, not 0");
    }
}
