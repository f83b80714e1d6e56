//! The left-right mirror of a listing: a left task's solutions kept, front-coded, for its
//! mirror task to write mirrored and reversed instead of searching.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::queens::common::full_mask;

use super::MAX_N;
use super::search::{Emit, TaskSearch};

/// The solutions of the left tasks (`2 q0 < n-1`), kept for their mirror tasks (task `i`'s
/// mirror is task `len-1-i`: the mirror maps the prefixes of one depth onto themselves and
/// reverses their order). Each solution is front-coded within its task: the length `l` of the
/// prefix it shares with the previous one (as `1 + l - d`, never 0), then its files `l..n-1` (the last file is the one
/// left), in 4 bits each for n <= 16, else a byte each. At most [`MIRROR_BUDGET`] bytes are
/// kept in all (n = 16 needs about 30 MB); a left task over budget keeps nothing and its
/// mirror task searches. Taken (and freed) by the mirror task.
pub(super) struct Mirror {
    pub(super) slots: Vec<Mutex<Option<Vec<u8>>>>,
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
    pub(super) fn new(tasks: usize) -> Mirror {
        Mirror {
            slots: (0..tasks).map(|_| Mutex::new(None)).collect(),
            budget: AtomicUsize::new(MIRROR_BUDGET),
        }
    }

    /// Reports the solutions of task `i` (of `all`, without `unique`) to `emit` in order:
    /// searched by `s`, or the mirror images of the left partner's kept solutions.
    pub(super) fn each(
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
