//! One task's search, by either engine: every solution extending a prefix, in
//! lexicographic order.

use std::ops::ControlFlow;

use crate::engine::Budget;
use crate::engine::OptionId;
use crate::engine::run::Dance;
use crate::queens::common::full_mask;
use crate::queens::model::Queens;
use crate::queens::symmetry;

use super::MAX_N;
use super::tasks::{for_each_solution_in, place};

// Which search enumerates the solutions of [`list`] is the queens' one engine word,
// [`Engine`]: `Bits`, the word-parallel enumerator of this module, or `Dlx`, the dancing-links
// solver on the exact-cover model ([`Queens`]), each task's prefix forced and the sub-problem's
// solutions sorted into lexicographic order. Both give the same rows, byte for byte.

/// Where a search reports a solution: `emit(q, class_size)`, `Break` to stop.
pub(super) type Emit<'a> = dyn FnMut(&[u8], Option<u8>) -> ControlFlow<()> + 'a;

/// A task's solutions by its index: `search(i, engine, emit)`.
pub(super) type TaskFn<'a> =
    dyn Fn(usize, &mut dyn TaskSearch, &mut Emit<'_>) -> ControlFlow<()> + Sync + 'a;

/// One task's search: every solution extending a prefix, in lexicographic order.
pub(super) trait TaskSearch {
    /// Calls `emit(q, class_size)` for every solution (with `unique` every class
    /// representative) extending `prefix`, in lexicographic order; stops at a `Break`.
    fn each(&mut self, prefix: &[u8], emit: &mut Emit<'_>) -> ControlFlow<()>;
}

/// The bitboard enumerator, [`for_each_solution_in`].
pub(super) struct BitsSearch {
    pub(super) n: usize,
    pub(super) unique: bool,
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
pub(super) struct DlxSearch<'a> {
    model: &'a Queens,
    solver: Dance<'a>,
    pub(super) unique: bool,
    found: Vec<([u8; MAX_N], Option<u8>)>,
    forced: Vec<OptionId>,
    /// [`DLX_FREE_RANKS`] (smaller in tests).
    pub(super) free_ranks: usize,
}

impl<'a> DlxSearch<'a> {
    pub(super) fn new(model: &'a Queens, unique: bool) -> Self {
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
