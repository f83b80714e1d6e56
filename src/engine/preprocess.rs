//! Preprocessing: removing options that can be in no solution, before the search.
//!
//! # The rule
//!
//! Two options are *compatible* when they can stand in one solution: they share no primary
//! item, and every secondary item they share is given the same colour (not "no colour") by
//! both. An option `o` is *blocked* when some primary item `i` that `o` does not contain has
//! no option compatible with `o`: a solution containing `o` must cover `i` with an option
//! compatible with `o`, and there is none, so `o` is in no solution and can be removed. (This
//! is what choosing `o` and then covering and purifying would show: `i` left with no options.)
//!
//! Removing a blocked option keeps the set of solutions, so the rule is applied again to the
//! smaller problem, in rounds over all remaining options, until a round removes nothing (a
//! fixpoint) or the work limit is reached; every option removed before the limit is removed
//! soundly, so stopping early only removes fewer.
//!
//! The rule includes the "implied item" reduction: when every option of a primary item `a`
//! contains an item `b` (uncoloured, or all with one colour), an option with `b` but without
//! `a` that is incompatible with all of `a`'s options is blocked, with `a` as the item left
//! without options. A primary item with no options at all makes every option blocked: the
//! problem then has no solution and loses all its options.
//!
//! Items are never removed and options never changed, only left out: each remaining option is
//! written as before, and [`Reduced::original`] gives its number in the given problem.
//!
//! # Work
//!
//! Testing `o` walks the item lists of `o`'s items and, for each option met that is
//! incompatible with `o`, its primary items; each step counts one unit of work. A round
//! costs about `sum over options of sum over their items of (list length × option size)`.
//! Preprocessing stops at [`Limits::work`] units (by default [`DEFAULT_WORK`], about half
//! a second on one core: a round over 200-queens' 40,000 options is 1.3·10^8 units), so that
//! it never costs more than a small fraction of a long search; [`PreStats::complete`] says whether the fixpoint was reached.
//!
//! Items with multiplicities (`u:v|name`) are not handled: [`preprocess`] returns
//! [`PreError::Multiplicities`] for them.

use super::problem::{Colour, OptionId, Problem};

/// The default work limit: 2·10^8 units (each a few nanoseconds).
pub const DEFAULT_WORK: u64 = 200_000_000;

/// How much work preprocessing may do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Units of work (see the module documentation) after which preprocessing stops.
    pub work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { work: DEFAULT_WORK }
    }
}

/// What preprocessing did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PreStats {
    /// Options in the given problem.
    pub options_before: usize,
    /// Options removed.
    pub options_removed: usize,
    /// Rounds over the remaining options (the last one, at a fixpoint, removes nothing).
    pub rounds: u32,
    /// Units of work done.
    pub work: u64,
    /// Whether a fixpoint was reached (false: the work limit stopped it).
    pub complete: bool,
}

/// Why a problem cannot be preprocessed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PreError {
    /// Some primary item has a multiplicity other than `1:1`.
    #[error("preprocessing does not handle items with multiplicities (u:v|name)")]
    Multiplicities,
}

/// A preprocessed problem: the remaining options, in their order, and where they came from.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The problem with the remaining options only (all items kept).
    pub problem: Problem,
    /// `original[k]`: the option of the given problem that option `k` of `problem` is.
    pub original: Vec<OptionId>,
    /// What was done.
    pub stats: PreStats,
}

impl Reduced {
    /// The option of the given problem that `option` of the reduced problem is.
    pub fn original(&self, option: OptionId) -> OptionId {
        self.original[option.0 as usize]
    }
}

/// Removes options that can be in no solution (see the module documentation), within `limits`.
/// The reduced problem has exactly the solutions of `problem`, as sets of (original) options.
pub fn preprocess(problem: &Problem, limits: &Limits) -> Result<Reduced, PreError> {
    if problem.has_multiplicities() {
        return Err(PreError::Multiplicities);
    }
    let alive = blocked_options(problem, limits.work);
    let kept: Vec<OptionId> = problem
        .options()
        .filter(|o| alive.alive[o.0 as usize])
        .collect();
    let stats = PreStats {
        options_before: problem.option_count(),
        options_removed: problem.option_count() - kept.len(),
        rounds: alive.rounds,
        work: alive.work,
        complete: alive.complete,
    };
    Ok(Reduced {
        problem: problem.with_options_only(&kept),
        original: kept,
        stats,
    })
}

struct Outcome {
    alive: Vec<bool>,
    rounds: u32,
    work: u64,
    complete: bool,
}

/// Whether options `a` (giving colour `ca`) and `b` (colour `cb`) conflict on a shared item.
#[inline]
fn clash(primary: bool, ca: Colour, cb: Colour) -> bool {
    primary || ca.is_none() || cb.is_none() || ca != cb
}

fn blocked_options(problem: &Problem, work_limit: u64) -> Outcome {
    let n_items = problem.item_count();
    let n_options = problem.option_count();
    let primary: Vec<bool> = problem.items().map(|i| problem.is_primary(i)).collect();
    // The item lists: (option, colour) of each option containing the item.
    let mut lists: Vec<Vec<(u32, Colour)>> = vec![Vec::new(); n_items];
    for o in problem.options() {
        for e in problem.option_entries(o) {
            lists[e.item.0 as usize].push((o.0, e.colour));
        }
    }
    // Live options of each primary item.
    let mut len: Vec<usize> = lists.iter().map(Vec::len).collect();
    let mut alive = vec![true; n_options];
    let mut out = Outcome {
        alive: Vec::new(),
        rounds: 0,
        work: 0,
        complete: false,
    };
    // A primary item without options: no solution at all.
    if problem
        .items()
        .any(|i| primary[i.0 as usize] && len[i.0 as usize] == 0)
    {
        out.alive = vec![false; n_options];
        out.rounds = 1;
        out.complete = true;
        return out;
    }
    // Scratch, by stamp: items of the option tested; options met; conflicts per item.
    let mut in_option = vec![0u32; n_items];
    let mut met = vec![0u32; n_options];
    let mut killed = vec![0usize; n_items];
    let mut touched: Vec<usize> = Vec::new();
    let mut stamp = 0u32;
    'rounds: loop {
        out.rounds += 1;
        let mut removed = false;
        for list in lists.iter_mut() {
            list.retain(|&(q, _)| alive[q as usize]);
        }
        for o in 0..n_options {
            if !alive[o] {
                continue;
            }
            stamp = stamp.wrapping_add(1);
            if stamp == 0 {
                in_option.fill(0);
                met.fill(0);
                stamp = 1;
            }
            let entries = problem.option_entries(OptionId(o as u32));
            for e in entries {
                in_option[e.item.0 as usize] = stamp;
            }
            met[o] = stamp;
            let mut blocked = false;
            'entries: for e in entries {
                let j = e.item.0 as usize;
                for &(q, cq) in &lists[j] {
                    out.work += 1;
                    let q = q as usize;
                    if met[q] == stamp || !alive[q] || !clash(primary[j], e.colour, cq) {
                        continue;
                    }
                    met[q] = stamp;
                    for f in problem.option_entries(OptionId(q as u32)) {
                        out.work += 1;
                        let i = f.item.0 as usize;
                        if !primary[i] || in_option[i] == stamp {
                            continue;
                        }
                        if killed[i] == 0 {
                            touched.push(i);
                        }
                        killed[i] += 1;
                        if killed[i] == len[i] {
                            blocked = true;
                            break 'entries;
                        }
                    }
                }
                if out.work >= work_limit {
                    break;
                }
            }
            for &i in &touched {
                killed[i] = 0;
            }
            touched.clear();
            if blocked {
                alive[o] = false;
                removed = true;
                for e in entries {
                    let i = e.item.0 as usize;
                    len[i] -= 1;
                    if primary[i] && len[i] == 0 {
                        // An item left without options: no solution at all.
                        alive.fill(false);
                        out.complete = true;
                        break 'rounds;
                    }
                }
            }
            if out.work >= work_limit {
                break 'rounds;
            }
        }
        if !removed {
            out.complete = true;
            break;
        }
    }
    out.alive = alive;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Budget, ProblemBuilder, Solver};
    use std::collections::BTreeSet;
    use std::ops::ControlFlow;

    fn problem(primary: &[&str], secondary: &[&str], options: &[&str]) -> Problem {
        let mut b = ProblemBuilder::new();
        for p in primary {
            b.primary(p).unwrap();
        }
        for s in secondary {
            b.secondary(s).unwrap();
        }
        for (k, o) in options.iter().enumerate() {
            b.add_option_named(o, k as i64).unwrap();
        }
        b.build().unwrap()
    }

    fn removed(p: &Problem) -> Vec<String> {
        let r = preprocess(p, &Limits::default()).unwrap();
        let kept: BTreeSet<OptionId> = r.original.iter().copied().collect();
        p.options()
            .filter(|o| !kept.contains(o))
            .map(|o| p.format_option(o))
            .collect()
    }

    fn solutions(p: &Problem) -> BTreeSet<Vec<OptionId>> {
        let mut all = BTreeSet::new();
        Solver::new(p).run(&Budget::unlimited(), &mut |s: &[OptionId]| {
            let mut s = s.to_vec();
            s.sort();
            all.insert(s);
            ControlFlow::Continue(())
        });
        all
    }

    #[test]
    fn an_option_leaving_an_item_without_options_is_removed() {
        // Choosing `a b` leaves `c` only `b c` and `a c`, which clash on `b` and `a`.
        let p = problem(&["a", "b", "c"], &[], &["a b", "b c", "a c", "a", "b"]);
        assert_eq!(removed(&p), ["a b"]);
    }

    #[test]
    fn an_implied_item_removes_the_other_options_with_it() {
        // Every option of `a` contains `b`, so `b c` (without `a`) can never be chosen.
        let p = problem(&["a", "b", "c"], &[], &["a b", "a b c", "b c", "c"]);
        assert_eq!(removed(&p), ["b c"]);
    }

    #[test]
    fn an_implied_secondary_item_with_one_colour() {
        // Every option of `a` gives `x` colour R: `c x:G` and `c x` clash with all of them;
        // `c x:R` does not.
        let p = problem(
            &["a", "c"],
            &["x", "y"],
            &["a x:R", "a y:B x:R", "c x:G", "c x", "c x:R"],
        );
        assert_eq!(removed(&p), ["c x:G", "c x"]);
    }

    #[test]
    fn same_colours_are_compatible() {
        // `a x:R` and `b x:R` can stand together: nothing is removed.
        let p = problem(&["a", "b"], &["x"], &["a x:R", "b x:R"]);
        assert!(removed(&p).is_empty());
        // Without colours they cannot: `a x` goes, which leaves `a` without options, so
        // there is no solution and `b x` goes too.
        let p = problem(&["a", "b"], &["x"], &["a x", "b x"]);
        assert_eq!(removed(&p), ["a x", "b x"]);
        let p = problem(&["a", "b"], &["x"], &["a x:R", "b x:G"]);
        assert_eq!(removed(&p), ["a x:R", "b x:G"]);
    }

    #[test]
    fn removals_cascade_over_rounds() {
        // Round 1 keeps `d x y` (`a b` is compatible with it), then removes `a b` (it leaves
        // `c` only `b c` and `a c y`). Round 2 removes `d x y`: `a` has only `a c y` and
        // `a x` left, which clash on `y` and `x`. Round 3 removes nothing.
        let p = problem(
            &["a", "b", "c", "d"],
            &["x", "y"],
            &["d x y", "a b", "b c", "a c y", "a x", "b", "d"],
        );
        assert_eq!(removed(&p), ["d x y", "a b"]);
        let r = preprocess(&p, &Limits::default()).unwrap();
        assert_eq!(r.stats.rounds, 3);
        assert!(r.stats.complete);
        assert_eq!(solutions(&p), map_back(&r));
        assert_eq!(solutions(&p).len(), 2);
    }

    #[test]
    fn an_item_without_options_removes_everything() {
        let p = problem(&["a", "b"], &[], &["a"]);
        let r = preprocess(&p, &Limits::default()).unwrap();
        assert_eq!(r.problem.option_count(), 0);
        assert_eq!(r.stats.options_removed, 1);
        assert_eq!(r.problem.item_count(), 2);
        assert_eq!(
            Solver::new(&r.problem)
                .count(&Budget::unlimited())
                .stats
                .solutions(),
            0
        );
    }

    #[test]
    fn kept_options_keep_their_text_and_cost() {
        let p = problem(
            &["a", "b", "c"],
            &["x"],
            &["a b x:R", "b c", "a c x:R", "a", "b"],
        );
        let r = preprocess(&p, &Limits::default()).unwrap();
        assert_eq!(r.stats.options_removed, 1);
        assert_eq!(
            r.original,
            [OptionId(1), OptionId(2), OptionId(3), OptionId(4)]
        );
        for o in r.problem.options() {
            let orig = r.original(o);
            assert_eq!(r.problem.format_option(o), p.format_option(orig));
            assert_eq!(r.problem.cost(o), p.cost(orig));
        }
        assert_eq!(r.problem.item_count(), p.item_count());
        assert_eq!(r.problem.has_colours(), p.has_colours());
        assert_eq!(solutions(&p), map_back(&r));
    }

    #[test]
    fn the_work_limit_stops_early_and_soundly() {
        let p = problem(&["a", "b", "c"], &[], &["a b", "b c", "a c", "a", "b"]);
        let r = preprocess(&p, &Limits { work: 1 }).unwrap();
        assert!(!r.stats.complete);
        assert!(r.stats.work >= 1);
        assert_eq!(solutions(&p), map_back(&r));
    }

    #[test]
    fn multiplicities_are_refused() {
        let mut b = ProblemBuilder::new();
        b.primary_with_bounds("a", 1, 2).unwrap();
        b.add_option_named("a", 0).unwrap();
        let p = b.build().unwrap();
        assert_eq!(
            preprocess(&p, &Limits::default()).unwrap_err(),
            PreError::Multiplicities
        );
    }

    fn map_back(r: &Reduced) -> BTreeSet<Vec<OptionId>> {
        solutions(&r.problem)
            .into_iter()
            .map(|s| {
                let mut s: Vec<OptionId> = s.into_iter().map(|o| r.original(o)).collect();
                s.sort();
                s
            })
            .collect()
    }
}
