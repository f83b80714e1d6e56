//! The two plain searches over one tree's parts: the bitset search ([`Dense`]) and the
//! sparse-set search ([`Cells`]) walk the same tree (SSXCC's rules), at a cost per node that
//! depends on the problem and on the depth (the bitset search pays `m/64` words a try, the
//! sparse-set search the options a try removes). Which is faster is found on the count
//! itself: the tree is cut into parts (the bitset search's cut, as for threads), and each
//! part is counted whole by one of the two, the *leader* — the one whose measured time per
//! node over the parts it counted is less — except that the other, the *trailer*, takes the
//! next part whenever its time so far is below [`TRAILER_SHARE`] of the two's time together.
//!
//! # The guarantee
//!
//! Parts are whole sub-trees, so a part counted by either search is never counted again, and
//! both measure their pace on the same kind of work: the nodes below the cut, where nearly
//! all of a count's nodes are. The trailer's time is kept below [`TRAILER_SHARE`] of the
//! total, give or take one part: a part it starts is cut off once it has run that share of
//! the total so far (at least [`TRAILER_LEAST_TURN`]) at a slower pace than the leader's, and
//! then counted by the leader from its start. So whichever of the two is faster on the parts,
//! the count costs at most about `1 + TRAILER_SHARE · (r − 1)` times the faster one's, `r`
//! being the ratio of their paces (a part cut off is wasted: at most that share again).
//! Before either has counted a part, the bitset search takes the first and the sparse-set
//! search the second.
//!
//! The pace is time per node. The two trees are the same without colours; with colours the
//! bitset search may cut a branch the sparse-set search enters a node further (its tree is
//! smaller), which only favours the sparse-set search's pace by those nodes.
//!
//! This is a search like the others for `threads.rs` ([`Search`], [`Resumable`]): every
//! thread's copy shares one board of paces ([`Board`]), read and written once per part.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::OptionId;
use crate::engine::search::{Cut, Resumable, Search};
use crate::engine::stats::Stats;

use super::choose::{TRAILER_LEAST_TURN, TRAILER_SHARE};

/// The two searches of a pair, as the board names them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    /// The first search (the bitset search): it leads on ties and takes the first part.
    First,
    /// The second (the sparse-set search).
    Second,
}

impl Side {
    fn index(self) -> usize {
        self as usize
    }

    fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// What the two searches did on the parts they counted, shared by every thread's pair.
#[derive(Debug, Default)]
struct Board {
    /// Per side: the time spent on parts (those cut off included), the nodes they visited,
    /// and the parts started.
    time: [Duration; 2],
    nodes: [u64; 2],
    started: [u64; 2],
}

impl Board {
    /// Seconds per node of `side`, infinite before it has counted a node.
    fn pace(&self, side: Side) -> f64 {
        let i = side.index();
        if self.nodes[i] == 0 {
            f64::INFINITY
        } else {
            self.time[i].as_secs_f64() / self.nodes[i] as f64
        }
    }

    /// The search of the lesser pace (the first on ties).
    fn leader(&self) -> Side {
        if self.pace(Side::Second) < self.pace(Side::First) {
            Side::Second
        } else {
            Side::First
        }
    }

    /// Who takes the next part: each one its first part, then the trailer while its time is
    /// below [`TRAILER_SHARE`] of the total, else the leader.
    fn pick(&mut self) -> Side {
        let side = if self.started[0] == 0 {
            Side::First
        } else if self.started[1] == 0 {
            Side::Second
        } else {
            let leader = self.leader();
            let trailer = leader.other();
            let total = self.time[0] + self.time[1];
            if self.time[trailer.index()] < total.mul_f64(TRAILER_SHARE) {
                trailer
            } else {
                leader
            }
        };
        self.started[side.index()] += 1;
        side
    }

    fn record(&mut self, side: Side, time: Duration, nodes: u64) {
        self.time[side.index()] += time;
        self.nodes[side.index()] += nodes;
    }
}

/// The pair of plain searches over one tree's parts (see the module documentation). `A`
/// cuts the tree; both count parts by the same prefixes.
pub(crate) struct Paired<A, B> {
    first: A,
    /// `None` when the second search does not take the problem: the first counts every part.
    second: Option<B>,
    board: Arc<Mutex<Board>>,
    /// The search counting the current part (the one a deadline stopped, to resume).
    on: Side,
}

impl<A, B> Paired<A, B>
where
    A: Resumable<Prefix = Vec<u32>>,
    B: Resumable<Prefix = Vec<u32>>,
{
    /// The pair of `first` (which cuts the tree and leads on ties) and `second`.
    pub(crate) fn new(first: A, second: Option<B>) -> Paired<A, B> {
        Paired {
            first,
            second,
            board: Arc::new(Mutex::new(Board::default())),
            on: Side::First,
        }
    }

    /// The first search (the one that cut the tree).
    pub(crate) fn first(&self) -> &A {
        &self.first
    }

    /// The time per node each search measured so far on its parts (`None` before it counted
    /// one).
    #[cfg(test)]
    pub(crate) fn paces(&self) -> [Option<f64>; 2] {
        let board = self.board.lock().expect("the board of paces");
        [Side::First, Side::Second].map(|s| {
            let p = board.pace(s);
            p.is_finite().then_some(p)
        })
    }

    fn board(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().expect("the board of paces")
    }

    /// Counts (or, `resume`, goes on counting) the current part with `side`, and records its
    /// time and nodes on the board.
    fn run(&mut self, side: Side, prefix: Option<&[u32]>, budget: &Budget) -> Outcome {
        let before = self.nodes_of(side);
        let started = Instant::now();
        let out = match (side, &mut self.second) {
            (Side::Second, Some(b)) => match prefix {
                Some(p) => b.count_below(&p.to_vec(), budget),
                None => b.resume(budget).expect("a resumable search resumes"),
            },
            _ => match prefix {
                Some(p) => self.first.count_below(&p.to_vec(), budget),
                None => self
                    .first
                    .resume(budget)
                    .expect("a resumable search resumes"),
            },
        };
        let nodes = self.nodes_of(side).saturating_sub(before);
        self.board().record(side, started.elapsed(), nodes);
        out
    }

    /// The nodes of `side`'s current count.
    fn nodes_of(&self, side: Side) -> u64 {
        match (side, &self.second) {
            (Side::Second, Some(b)) => b.nodes(),
            _ => self.first.nodes(),
        }
    }
}

impl<A, B> Search for Paired<A, B>
where
    A: Resumable<Prefix = Vec<u32>>,
    B: Resumable<Prefix = Vec<u32>>,
{
    type Prefix = Vec<u32>;

    /// The whole tree, by the first search.
    fn count(&mut self, budget: &Budget) -> Outcome {
        self.on = Side::First;
        self.first.count(budget)
    }

    fn resume(&mut self, budget: &Budget) -> Option<Outcome> {
        Some(self.run(self.on, None, budget))
    }

    fn list(
        &mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[OptionId]) -> std::ops::ControlFlow<()>,
    ) -> Outcome {
        self.first.list(budget, sink)
    }

    fn cut(&mut self, want: usize) -> Cut<Vec<u32>> {
        self.first.cut(want)
    }

    fn count_below(&mut self, part: &Vec<u32>, budget: &Budget) -> Outcome {
        let side = if self.second.is_some() {
            self.board().pick()
        } else {
            Side::First
        };
        self.on = side;
        let leader = self.board().leader();
        if side == leader || self.board().started[side.other().index()] == 0 {
            return self.run(side, Some(part), budget);
        }
        // The trailer's part: cut off once it has run its share of the total so far at a
        // slower pace than the leader's, then counted by the leader from its start.
        let turn = {
            let board = self.board();
            (board.time[0] + board.time[1])
                .mul_f64(TRAILER_SHARE)
                .max(TRAILER_LEAST_TURN)
        };
        let own = Instant::now() + turn;
        let capped = Budget {
            deadline: Some(budget.deadline.map_or(own, |d| d.min(own))),
            ..budget.clone()
        };
        let out = self.run(side, Some(part), &capped);
        if out.end != End::TimeLimit || budget.out_of_time().is_some() {
            return out;
        }
        if self.board().leader() == side {
            // Its pace now leads: it goes on.
            return self.run(side, None, budget);
        }
        self.on = side.other();
        self.run(side.other(), Some(part), budget)
    }

    fn stats(&self) -> Stats {
        let mut s = self.first.stats();
        if let Some(b) = &self.second {
            s += b.stats();
        }
        s
    }
}

impl<A, B> Resumable for Paired<A, B>
where
    A: Resumable<Prefix = Vec<u32>>,
    B: Resumable<Prefix = Vec<u32>>,
{
    fn fork(&self) -> Self {
        Paired {
            first: self.first.fork(),
            second: self.second.as_ref().map(Resumable::fork),
            board: Arc::clone(&self.board),
            on: Side::First,
        }
    }

    fn progress(&self) -> f64 {
        match (self.on, &self.second) {
            (Side::Second, Some(b)) => b.progress(),
            _ => self.first.progress(),
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes_of(self.on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::dense::Dense;
    use crate::models::Model;
    use crate::models::queens::Queens;

    #[test]
    fn the_board_deals_each_a_first_part_then_keeps_the_trailer_to_its_share() {
        let mut board = Board::default();
        assert_eq!(board.pick(), Side::First);
        assert_eq!(board.pick(), Side::Second);
        // The second is twice as slow per node: it leads not, and gets parts only while its
        // time is below its share.
        board.record(Side::First, Duration::from_millis(10), 1000);
        board.record(Side::Second, Duration::from_millis(20), 1000);
        assert_eq!(board.leader(), Side::First);
        let mut second = 0;
        for _ in 0..1000 {
            let side = board.pick();
            let time = Duration::from_millis(1);
            board.record(side, time, if side == Side::First { 100 } else { 50 });
            second += u64::from(side == Side::Second);
        }
        let share = board.time[1].as_secs_f64() / (board.time[0] + board.time[1]).as_secs_f64();
        assert!(share <= TRAILER_SHARE + 0.01, "share {share}");
        assert!(second > 0);
        // Faster per node: it leads.
        board.record(Side::Second, Duration::from_millis(1), 1_000_000);
        assert_eq!(board.leader(), Side::Second);
    }

    #[test]
    fn a_pair_counts_the_parts_once_each() {
        // Two bitset searches of 10-queens as the pair, on the parts of its cut: the parts'
        // counts add up to the whole (724), whichever search counts each.
        let queens = Queens::new(10).unwrap();
        let problem = queens.problem();
        for want in [1, 4, 64] {
            let mut pair = Paired::new(Dense::new(problem).unwrap(), Dense::new(problem).ok());
            let cut = pair.cut(want);
            let mut count = cut.above.solutions();
            for part in &cut.parts {
                // In slices of a few nodes: every resumption goes on with the same search.
                let slice = |nodes| Budget {
                    nodes: Some(nodes),
                    ..Budget::unlimited()
                };
                let mut out = pair.count_below(part, &slice(3));
                while out.end == End::NodeLimit {
                    out = pair.resume(&slice(pair.nodes() + 3)).unwrap();
                }
                assert_eq!(out.end, End::Exhausted);
                count += out.stats.solutions();
            }
            assert_eq!(count, 724, "want {want}");
            let [a, b] = pair.paces();
            assert!(a.is_some() && (b.is_some() || cut.parts.len() < 2));
        }
    }
}
