//! The choices a search of a stack of boards makes the same way wherever it is asked for
//! (`xcover queens max`, the Python `maximise`): which layouts each board keeps, on how many
//! threads it is solved, and each board's clock.

use std::time::{Duration, Instant};

use super::PARALLEL_MIN_N;
use crate::engine::Budget;
use crate::engine::optimize::Keep;

/// Which layouts each board keeps: from a `floor`, the best layout reaching it; the `top`
/// best; every optimal layout (`all_optimal`, at most `limit` of them); else the best one,
/// whose optimal layouts [`super::WeightedQueens::solve_counted`] counts after the search
/// without changing its layout, bound or status (so that every format searches alike).
/// Refuses `top` = 0, a floor with `top` or `all_optimal`, and `top` with `all_optimal`
/// (combinations the command line's parser refuses before).
pub fn keep(
    top: Option<usize>,
    all_optimal: bool,
    limit: Option<usize>,
    floor: Option<i128>,
) -> Result<Keep, KeepError> {
    match (floor, top) {
        (_, Some(0)) => Err(KeepError::NoTop),
        (Some(_), Some(_)) => Err(KeepError::Floor),
        (Some(_), None) if all_optimal => Err(KeepError::Floor),
        (None, Some(_)) if all_optimal => Err(KeepError::TopAndAll),
        // A search from a floor keeps the best layout (no count of the optimal ones).
        (Some(_), None) => Ok(Keep::Best),
        (None, Some(k)) => Ok(Keep::Top(k)),
        (None, None) if all_optimal => Ok(Keep::AllOptimal {
            limit: limit.unwrap_or(usize::MAX),
        }),
        (None, None) => Ok(Keep::Best),
    }
}

/// A choice of layouts that [`keep`] refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeepError {
    /// `top` = 0.
    #[error("top must be at least 1")]
    NoTop,
    /// A floor with `top` or `all_optimal`.
    #[error("floor cannot be combined with top or all_optimal")]
    Floor,
    /// `top` with `all_optimal`.
    #[error("top and all_optimal cannot be combined")]
    TopAndAll,
}

/// The threads of one board's search: `threads` when given (0: all cores); when not, all
/// cores, but one thread for boards below [`PARALLEL_MIN_N`], too small for the split to pay
/// (the layouts reported are the same on any number of threads).
pub fn threads(n: usize, threads: Option<usize>) -> usize {
    let all = || std::thread::available_parallelism().map_or(1, |t| t.get());
    match threads {
        None if n < PARALLEL_MIN_N => 1,
        None | Some(0) => all(),
        Some(t) => t,
    }
}

/// The time limit of each board of a stack: the first board's counts from when the clock was
/// made, so that it covers building the model; each later board's from its own start.
#[derive(Clone, Debug)]
pub struct BoardClock {
    limit: Option<Duration>,
    started: Option<Instant>,
}

impl BoardClock {
    /// A clock of `limit` a board (`None`: no limit), started now.
    pub fn start(limit: Option<Duration>) -> BoardClock {
        BoardClock {
            limit,
            started: Some(Instant::now()),
        }
    }

    /// The budget of the next board: its deadline (a limit beyond what the clock holds is no
    /// limit).
    pub fn next_budget(&mut self) -> Budget {
        let mut budget = Budget::unlimited();
        if let Some(t) = self.limit {
            let start = self.started.take().unwrap_or_else(Instant::now);
            budget.deadline = start.checked_add(t);
        }
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_floor_keeps_the_best() {
        assert_eq!(keep(None, false, None, Some(5)), Ok(Keep::Best));
        assert_eq!(keep(Some(3), false, None, None), Ok(Keep::Top(3)));
        assert_eq!(
            keep(None, true, Some(7), None),
            Ok(Keep::AllOptimal { limit: 7 })
        );
        assert_eq!(keep(None, false, None, None), Ok(Keep::Best));
    }

    #[test]
    fn conflicting_choices_are_refused() {
        assert_eq!(keep(Some(0), false, None, None), Err(KeepError::NoTop));
        assert_eq!(keep(Some(2), false, None, Some(1)), Err(KeepError::Floor));
        assert_eq!(keep(None, true, None, Some(1)), Err(KeepError::Floor));
        assert_eq!(keep(Some(2), true, None, None), Err(KeepError::TopAndAll));
    }

    #[test]
    fn small_boards_run_on_one_thread_unless_told() {
        assert_eq!(threads(PARALLEL_MIN_N - 1, None), 1);
        assert_eq!(threads(8, Some(3)), 3);
        assert!(threads(8, Some(0)) >= 1);
    }

    #[test]
    fn the_first_board_counts_from_the_start() {
        let mut clock = BoardClock::start(Some(Duration::from_secs(60)));
        let first = clock.next_budget().deadline.unwrap();
        let second = clock.next_budget().deadline.unwrap();
        assert!(first <= second);
        assert!(BoardClock::start(None).next_budget().deadline.is_none());
        assert!(
            BoardClock::start(Some(Duration::MAX))
                .next_budget()
                .deadline
                .is_none()
        );
    }
}
