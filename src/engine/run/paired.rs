//! The two plain searches over one tree's parts: the bitset search ([`Dense`]) and the
//! sparse-set search ([`Cells`]) walk the same tree (SSXCC's rules), at a cost per node that
//! depends on the problem and on the depth (the bitset search pays `m/64` words a try, the
//! sparse-set search the options a try removes). Which is faster is found on the count
//! itself. Its tree is in parts — sub-trees named by the options on the way to their roots:
//! on one thread the rest of the bitset search's first nodes ([`Dense::rest`]), on threads
//! a cut from the root ([`Search::cut`]) — and each part is counted whole by one of the two,
//! the *leader*, the faster of the two (see below), except that the other, the *trailer*,
//! takes the next part whenever its time so far and the sample the part begins with (below)
//! stay within [`TRAILER_SHARE`] of the two's time together. The bitset search takes the
//! first part, the sparse-set search the second.
//!
//! # The pace
//!
//! A search's time per node varies with the depth and with the part, and nearly all of a
//! count's nodes are deep. So the two are compared on the same nodes: a trailer's part runs
//! its first [`TRAILER_SAMPLE_NODES`] nodes (its *sample*), then the leader runs the same
//! first nodes of the part, each timed over the second half of its sample only (the first
//! half brings its tables back into the cache after the other search ran on the thread).
//! The leader is the one of less time on these samples, summed over every part sampled so
//! far; the one that leads after a part's samples goes on with that part where it stopped,
//! and the other's sample is wasted. Before the first pair of samples, the leader is the one
//! of less time per node below the parts' roots over all its parts (the way down to a part,
//! taking its prefix's options, left out: it is the same work for either search, and on a
//! 25×25 sudoku a prefix of 600 options took 0.4–0.7 ms, more than many parts), once both
//! have counted a node there, and the bitset search until then: a search without a pace is
//! not a slow one (on word squares the bitset search's first part was wiped out on the way
//! down, and the sparse-set search, four times slower a node, led on its few). Paces over
//! unlike parts mislead: on a 16×16 sudoku on two threads the sparse-set search's first
//! parts were small and cost 230 ns a node, the bitset search's 140, while deep in the tree
//! the sparse-set search took 60 and the bitset search 136; on its own samples of 16,384
//! nodes the sparse-set search took 100–140 ns a node, so it kept losing against the bitset
//! search's pace over all its parts, which then counted most of the tree (1.2 to 1.7 s on
//! two threads instead of 0.9). On the same nodes, the sparse-set search wins every pair of samples
//! (0.66–0.94 ms against 0.93–1.06 for 8,192 nodes).
//!
//! A part stopped by a deadline and resumed goes to the other search, from its start, when
//! that one would count the whole part in less than half the time the current one needs for
//! the rest (by the part's estimate of its fraction done, and the ratio of the two's times
//! on the samples): a part the leader of the time took may be most of the tree.
//!
//! # The guarantee
//!
//! Parts are whole sub-trees: none is counted twice but those sampled, cut off or handed
//! over. The trailer's time stays within [`TRAILER_SHARE`] of the total, its samples
//! included: a part goes to it only when its time and its sample's cost fit its share (its
//! first part aside), so a count too short to afford a sample pays for none (12-queens:
//! 2.6 ms of a 15 ms count went to a sample when only the time spent was counted). The
//! sample is costed at the lesser of the two paces ([`Board::sample_cost`]), so a trailer
//! `r` times slower may overrun its share by one sample at its pace. Each pair of samples it
//! loses halves its share (to at most 64 times less), the next change of lead restores it,
//! so that a search slower throughout costs a few samples, spaced ever wider. So whichever
//! search is faster on the samples, the count costs at most about
//! `1 + TRAILER_SHARE · (r − 1)` times the faster one's (`r` the ratio of their paces), the
//! trailer's samples included, plus one sample of it, the first part's samples and, of each
//! pair the trailer wins, the leader's [`TRAILER_SAMPLE_NODES`] nodes, plus what a hand-over
//! wastes (at most the time on that part so far, and only when the other search is at least
//! twice as fast on the rest).
//!
//! The two trees are the same without colours; with colours the bitset search may cut a
//! branch the sparse-set search enters a node further (its tree is smaller), which only
//! favours the sparse-set search's pace by those nodes.
//!
//! This is a search like the others for `threads.rs` ([`Search`], [`Resumable`]): every
//! thread's copy shares one board of paces ([`Board`]), read and written a few times per
//! part.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engine::budget::{Budget, End, Outcome};
use crate::engine::problem::OptionId;
use crate::engine::search::{Cut, Resumable, Search};

use super::choose::{TRAILER_SAMPLE_NODES, TRAILER_SHARE};

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
#[derive(Debug)]
struct Board {
    /// Per side: the time spent on parts (those cut off included), the part of it spent
    /// searching below the parts' roots (not on the way down to them), the nodes visited
    /// there, and the parts started.
    time: [Duration; 2],
    searching: [Duration; 2],
    nodes: [u64; 2],
    started: [u64; 2],
    /// Per side: the time it took on the samples both searches ran on the same nodes (a
    /// trailer's sample, then the leader on the same first nodes of that part), where the
    /// two paces are measured on one set of nodes at the same depths.
    sampled: [Duration; 2],
    /// The trailer's share of the time now: [`TRAILER_SHARE`], halved each time a sample of
    /// its part loses (down to [`TRAILER_SHARE`]` / 64`), back to it when the lead changes.
    share: f64,
}

impl Default for Board {
    fn default() -> Board {
        Board {
            time: [Duration::ZERO; 2],
            searching: [Duration::ZERO; 2],
            nodes: [0; 2],
            started: [0; 2],
            sampled: [Duration::ZERO; 2],
            share: TRAILER_SHARE,
        }
    }
}

impl Board {
    /// Seconds per node of `side` below the parts' roots, infinite before it has counted a
    /// node. The way down to a part (taking its prefix's options, the same work for either
    /// search, as long as the prefix) is left out: on a 25×25 sudoku a prefix of 600
    /// options took 0.4–0.7 ms, more than a small part's search.
    fn pace(&self, side: Side) -> f64 {
        let i = side.index();
        if self.nodes[i] == 0 {
            f64::INFINITY
        } else {
            self.searching[i].as_secs_f64() / self.nodes[i] as f64
        }
    }

    /// How many times `side`'s time per node is the other's: on the samples both ran on the
    /// same nodes once there are any, else from the paces over all their parts (which
    /// may have been unlike parts: a search whose first parts were small and shallow looks
    /// slower than it is deep in the tree).
    fn ratio(&self, side: Side) -> f64 {
        let (mine, theirs) = (side.index(), side.other().index());
        if self.compared() {
            self.sampled[mine].as_secs_f64() / self.sampled[theirs].as_secs_f64()
        } else {
            self.pace(side) / self.pace(side.other())
        }
    }

    /// Whether both searches have run samples on the same nodes (a pair, see
    /// [`Board::record_samples`]).
    fn compared(&self) -> bool {
        self.sampled.iter().all(|t| !t.is_zero())
    }

    /// The faster search by [`Board::ratio`] (the first on ties), once both have a pace; the
    /// first until then. A search that has not counted a node below a part's root is not a
    /// slow one: on word squares the bitset search's first part was wiped out on the way down,
    /// and the sparse-set search, four times slower a node, led on it.
    fn leader(&self) -> Side {
        let measured = self.compared() || self.nodes.iter().all(|&n| n > 0);
        if measured && self.ratio(Side::Second) < 1.0 {
            Side::Second
        } else {
            Side::First
        }
    }

    /// Who takes the next part: each one its first part, then the trailer while its time
    /// with the sample its part begins with ([`Board::sample_cost`]) stays within its share of
    /// the total (`share`), else the leader.
    fn pick(&mut self) -> Side {
        let side = if self.started[0] == 0 {
            Side::First
        } else if self.started[1] == 0 {
            Side::Second
        } else {
            let leader = self.leader();
            let trailer = leader.other();
            let total = self.time[0] + self.time[1];
            let with_sample = self.time[trailer.index()].as_secs_f64() + self.sample_cost(trailer);
            if with_sample <= total.as_secs_f64() * self.share {
                trailer
            } else {
                leader
            }
        };
        self.started[side.index()] += 1;
        side
    }

    /// What `side`'s sample of [`TRAILER_SAMPLE_NODES`] nodes will cost it at least, in
    /// seconds: at the lesser of the two paces over their parts (none before either has one).
    /// Counted against the trailer's share before the sample is taken, so that the samples
    /// stay within it (a sample of 16,384 nodes took 2.6 ms of a 15 ms count of 12-queens
    /// when only the time already spent was counted). The lesser pace, not the trailer's:
    /// a pace over a few nodes is mostly the search's tables coming back into the cache, and
    /// costed at it a trailer that is in fact the faster would wait for its sample for good
    /// (Steiner triple systems of order 13: the bitset search's pace over its first part of
    /// two nodes made it the trailer, and the sparse-set search, 1.3 times slower, counted the
    /// whole tree).
    fn sample_cost(&self, side: Side) -> f64 {
        let pace = self.pace(side).min(self.pace(side.other()));
        TRAILER_SAMPLE_NODES as f64 * if pace.is_finite() { pace } else { 0.0 }
    }

    /// The trailer took `trailer`, and the leader then `leader`, on the same first nodes of
    /// a part.
    fn record_samples(&mut self, trailer: (Side, Duration), leader: (Side, Duration)) {
        self.sampled[trailer.0.index()] += trailer.1;
        self.sampled[leader.0.index()] += leader.1;
    }

    /// `side` spent `time`, `searching` of it below a part's root, where it visited `nodes`.
    fn record(&mut self, side: Side, time: Duration, searching: Duration, nodes: u64) {
        let i = side.index();
        self.time[i] += time;
        self.searching[i] += searching;
        self.nodes[i] += nodes;
    }
}

/// The pair of plain searches over one tree's parts (see the module documentation). `A`
/// cuts the tree; both count parts by the same prefixes.
pub(crate) struct Paired<A, B> {
    first: A,
    /// `None` when the second search does not take the problem: the first counts every part.
    second: Option<B>,
    board: Arc<Mutex<Board>>,
    /// The search counting the current part (the one a deadline stopped, to resume), and
    /// that part.
    on: Side,
    part: Vec<u32>,
    /// The time the last [`Paired::run`] spent below the part's root.
    searched: Duration,
    /// The trailer's sample of the current part was cut short by the caller's budget (a turn
    /// of the portfolio ended), the trailer having a pace: the part goes to the leader, from
    /// its start, when the count resumes. Resumed as it stood, the sample became the
    /// trailer's whole part, never compared: on a 16×16 sudoku the bitset search, half as
    /// fast a node there, counted 2.5 million of 3.4 million nodes so in one run of six
    /// (0.41 s against 0.30).
    cut_sample: bool,
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
            part: Vec::new(),
            searched: Duration::ZERO,
            cut_sample: false,
        }
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

    /// Counts the part `prefix` (or, `None`, goes on counting the current part) with `side`,
    /// and records its time and nodes on the board: the way down to the part's root first,
    /// alone (a budget of no node), so that its time is left out of the pace. The time
    /// below the root is left in `searched`.
    fn run(&mut self, side: Side, prefix: Option<&[u32]>, budget: &Budget) -> Outcome {
        self.searched = Duration::ZERO;
        if let Some(p) = prefix {
            let started = Instant::now();
            let down = Budget {
                nodes: Some(0),
                ..budget.clone()
            };
            let out = self.call(side, Some(p), &down);
            let time = started.elapsed();
            self.board().record(side, time, Duration::ZERO, 0);
            if out.end != End::NodeLimit {
                // A wipe-out on the way down (no solution, no node), or the caller's budget.
                return out;
            }
        }
        let before = self.nodes_of(side);
        let started = Instant::now();
        let out = self.call(side, None, budget);
        let time = started.elapsed();
        let nodes = self.nodes_of(side).saturating_sub(before);
        self.searched = time;
        self.board().record(side, time, time, nodes);
        if side == Side::Second {
            // The bitset search posts its nodes to the progress board as it goes; the
            // sparse-set search's are posted here, so that a display's share of the tree done
            // moves while it counts (the trees are the same).
            budget.stop.progress().add_nodes(nodes);
        }
        out
    }

    /// `side`'s sample of the part `prefix`: its first [`TRAILER_SAMPLE_NODES`] nodes, timed
    /// over the second half of them only (the first half brings the search's tables into the
    /// cache after the other search ran on this thread: on a 16×16 sudoku the sparse-set
    /// search took 120 ns a node over a whole sample, 58 over the count). The time of that
    /// half, or the outcome when the part or the caller's budget ended first.
    fn sample(&mut self, side: Side, prefix: &[u32], budget: &Budget) -> Result<Duration, Outcome> {
        let upto = |nodes| Budget {
            nodes: Some(nodes),
            ..budget.clone()
        };
        let out = self.run(side, Some(prefix), &upto(TRAILER_SAMPLE_NODES / 2));
        if out.end != End::NodeLimit {
            return Err(out);
        }
        let out = self.run(side, None, &upto(TRAILER_SAMPLE_NODES));
        if out.end != End::NodeLimit {
            return Err(out);
        }
        Ok(self.searched)
    }

    /// `side`'s count below `prefix`, or (`None`) its count resumed.
    fn call(&mut self, side: Side, prefix: Option<&[u32]>, budget: &Budget) -> Outcome {
        match (side, &mut self.second) {
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
        }
    }

    /// The current part, counted again from its start by the other search, which goes on
    /// with it.
    fn hand_over(&mut self, budget: &Budget) -> Outcome {
        self.on = self.on.other();
        let part = std::mem::take(&mut self.part);
        let out = self.run(self.on, Some(&part), budget);
        self.part = part;
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

    /// Goes on with the current part; or counts it again from its start by the other search
    /// when that one now leads by so much that it would count the whole part in less than
    /// half the time the current one needs for the rest of it (the rest estimated from the
    /// part's estimate of its fraction done; half, against the estimate's error): a part
    /// begun by the leader of the time may be most of the tree. Not while the current search
    /// has no pace yet (no node counted below a part's root).
    fn resume(&mut self, budget: &Budget) -> Option<Outcome> {
        let side = self.on;
        if std::mem::take(&mut self.cut_sample) {
            // The trailer's sample, cut short: the part is the leader's, from its start (the
            // sample's nodes wasted, at most a sample's).
            return Some(self.hand_over(budget));
        }
        if self.second.is_some() {
            let (leader, paced, slower) = {
                let board = self.board();
                (
                    board.leader(),
                    board.pace(side).is_finite(),
                    board.ratio(side),
                )
            };
            let left = 1.0 - self.progress();
            // A search that has not yet counted a node below a part's root has no pace: not
            // a slow one. Its first part stopped on the way down (a prefix of 600 options on
            // a 25×25 sudoku takes longer than a short turn of the portfolio) is its own to
            // go on with; handed over, the other search, five times slower a node there,
            // counted most of the tree (the count took 80 ms instead of 60).
            if leader != side && paced && 2.0 < left * slower {
                return Some(self.hand_over(budget));
            }
        }
        Some(self.run(side, None, budget))
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
        self.part.clone_from(part);
        self.cut_sample = false;
        let leader = self.board().leader();
        if side == leader || self.board().started[side.other().index()] == 0 {
            return self.run(side, Some(part), budget);
        }
        // The trailer's part: its first [`TRAILER_SAMPLE_NODES`] nodes, then the leader's on
        // the same nodes (the same first nodes of the part: the trees are the same), so that
        // the two paces are compared at the same depths; the one now leading on such samples
        // goes on with the part where it stopped.
        let paced = self.board().pace(side).is_finite();
        let trailer = match self.sample(side, part, budget) {
            Ok(time) => time,
            Err(out) => {
                // Ended within the sample (the part is counted), or cut short by the caller's
                // budget: then the leader takes the part when the count resumes, if the
                // trailer had a pace (without one it is not the slower: its part stays its
                // own, see [`Paired::resume`]).
                self.cut_sample = paced && out.end != End::Exhausted;
                return out;
            }
        };
        let leader = side.other();
        self.on = leader;
        let leading = match self.sample(leader, part, budget) {
            Ok(time) => time,
            // The part ended within the sample (with colours the leader's tree may be the
            // smaller), or the caller's budget ended: nothing to compare.
            Err(out) => return out,
        };
        let goes_on = {
            let mut board = self.board();
            board.record_samples((side, trailer), (leader, leading));
            if board.leader() == side {
                // It now leads: it goes on, and the other is the trailer at its full share.
                board.share = TRAILER_SHARE;
                side
            } else {
                // Lost again: its next sample waits twice as long (the samples of a search
                // that keeps losing cost a vanishing share, yet a late change of lead is
                // still seen).
                board.share = (board.share / 2.0).max(TRAILER_SHARE / 64.0);
                leader
            }
        };
        self.on = goes_on;
        self.run(goes_on, None, budget)
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
            part: Vec::new(),
            searched: Duration::ZERO,
            cut_sample: false,
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
        let ms = Duration::from_millis;
        let mut board = Board::default();
        assert_eq!(board.pick(), Side::First);
        assert_eq!(board.pick(), Side::Second);
        // The second is twice as slow per node: it leads not, and gets parts only while its
        // time is below its share.
        board.record(Side::First, ms(10), ms(10), 1_000_000);
        board.record(Side::Second, ms(20), ms(20), 1_000_000);
        assert_eq!(board.leader(), Side::First);
        let mut second = 0;
        for _ in 0..1000 {
            let side = board.pick();
            board.record(
                side,
                ms(1),
                ms(1),
                if side == Side::First { 100_000 } else { 50_000 },
            );
            second += u64::from(side == Side::Second);
        }
        let share = board.time[1].as_secs_f64() / (board.time[0] + board.time[1]).as_secs_f64();
        assert!(share <= TRAILER_SHARE + 0.01, "share {share}");
        assert!(second > 0);
        // Faster per node: it leads.
        board.record(Side::Second, ms(1), ms(1), 100_000_000);
        assert_eq!(board.leader(), Side::Second);
    }

    #[test]
    fn the_trailer_gets_a_part_only_when_its_sample_fits_its_share() {
        let ms = Duration::from_millis;
        let mut board = Board::default();
        board.pick();
        board.pick();
        // 100 ns a node for the first, 200 for the second: a sample of the second costs at
        // least 16,384 × 100 ns = 1.6 ms, so it waits until the total is 32 times its time
        // with it.
        board.record(Side::First, ms(10), ms(10), 100_000);
        board.record(Side::Second, ms(1), ms(1), 5_000);
        let sample = board.sample_cost(Side::Second);
        assert!((sample - TRAILER_SAMPLE_NODES as f64 * 100e-9).abs() < 1e-12);
        let mut total = 11.0e-3;
        while (1e-3 + sample) > total * TRAILER_SHARE {
            assert_eq!(board.pick(), Side::First, "at {total} s");
            board.record(Side::First, ms(10), ms(10), 100_000);
            total += 10e-3;
        }
        assert_eq!(board.pick(), Side::Second);
        // Before a search has a pace, or while the other's is less, its sample is costed at
        // the other's.
        let fresh = Board {
            nodes: [1000, 0],
            searching: [ms(1), Duration::ZERO],
            ..Board::default()
        };
        assert!(
            (fresh.sample_cost(Side::Second) - TRAILER_SAMPLE_NODES as f64 * 1e-6).abs() < 1e-12
        );
        assert!((board.sample_cost(Side::First) - sample).abs() < 1e-12);
    }

    #[test]
    fn a_search_without_a_pace_is_not_the_slower() {
        let ms = Duration::from_millis;
        let mut board = Board::default();
        board.pick();
        board.pick();
        // The first search's first part was wiped out on the way down (no node), the second
        // counted a few nodes: the first still leads (on word squares the second is four
        // times slower a node).
        board.record(Side::First, ms(1), Duration::ZERO, 0);
        board.record(Side::Second, ms(1), ms(1), 1000);
        assert_eq!(board.leader(), Side::First);
        // Once both have a pace, the faster leads.
        board.record(Side::First, ms(10), ms(10), 1000);
        assert_eq!(board.leader(), Side::Second);
    }

    #[test]
    fn samples_on_the_same_nodes_decide_the_lead_over_paces_on_unlike_parts() {
        let ms = Duration::from_millis;
        let mut board = Board::default();
        // Over all their parts the second search looks slower (its parts were small and
        // shallow): the first leads.
        board.record(Side::First, ms(140), ms(140), 1_000_000);
        board.record(Side::Second, ms(23), ms(23), 100_000);
        assert_eq!(board.leader(), Side::First);
        assert!((board.ratio(Side::Second) - 230.0 / 140.0).abs() < 1e-9);
        // On the same nodes it is the faster: it leads, by the samples' ratio.
        board.record_samples((Side::Second, ms(7)), (Side::First, ms(10)));
        assert_eq!(board.leader(), Side::Second);
        assert!((board.ratio(Side::First) - 10.0 / 7.0).abs() < 1e-9);
        // The samples add up over parts.
        board.record_samples((Side::First, ms(1)), (Side::Second, ms(5)));
        assert_eq!(board.leader(), Side::First);
    }

    #[test]
    fn a_part_sampled_by_both_is_counted_once_by_the_one_that_goes_on() {
        // 13-queens in a few parts of over TRAILER_SAMPLE_NODES nodes each: the second
        // search's first part is a pair of samples, and whichever goes on counts the part
        // from where it stopped, once (73,712 in all, A000170).
        let queens = Queens::new(13).unwrap();
        let problem = queens.problem();
        let mut pair = Paired::new(Dense::new(problem).unwrap(), Dense::new(problem).ok());
        let cut = pair.cut(2);
        let mut count = cut.above.solutions();
        for part in &cut.parts {
            let out = pair.count_below(part, &Budget::unlimited());
            assert_eq!(out.end, End::Exhausted);
            count += out.stats.solutions();
        }
        assert_eq!(count, 73_712);
        let board = pair.board();
        assert!(board.compared(), "{board:?}");
    }

    #[test]
    fn a_search_stopped_before_its_first_node_goes_on_with_its_part() {
        // The second search's first part is stopped by the clock before a node below its
        // root: without a pace it is not the slower one, and goes on with its part when
        // resumed, rather than handing it to the first.
        let queens = Queens::new(10).unwrap();
        let problem = queens.problem();
        let mut pair = Paired::new(Dense::new(problem).unwrap(), Dense::new(problem).ok());
        let cut = pair.cut(4);
        assert!(cut.parts.len() >= 2);
        let whole = Budget::unlimited();
        let first = pair.count_below(&cut.parts[0], &whole);
        assert_eq!(first.end, End::Exhausted);
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::unlimited()
        };
        let stopped = pair.count_below(&cut.parts[1], &past);
        assert_eq!(stopped.end, End::TimeLimit);
        assert_eq!(pair.paces()[1], None);
        let out = pair.resume(&whole).unwrap();
        assert_eq!(out.end, End::Exhausted);
        assert!(
            pair.paces()[1].is_some(),
            "the second search counted its part"
        );
    }

    #[test]
    fn a_trailer_sample_cut_short_goes_to_the_leader() {
        // The second search trails with a pace (1.5 times as slow a node: too close for the
        // hand-over of a part begun) and gets a part within its share: its sample is cut by
        // the clock at once. Resumed, the part is the leader's, from its start, and counted
        // whole by it: the second search counts no node more.
        let queens = Queens::new(10).unwrap();
        let problem = queens.problem();
        let mut pair = Paired::new(Dense::new(problem).unwrap(), Dense::new(problem).ok());
        let cut = pair.cut(4);
        assert!(cut.parts.len() >= 2);
        {
            let mut board = pair.board();
            board.started = [1, 1];
            let ms = Duration::from_millis;
            board.record(Side::First, ms(1000), ms(1000), 100_000_000);
            board.record(Side::Second, ms(3), ms(3), 200_000);
        }
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::unlimited()
        };
        let stopped = pair.count_below(&cut.parts[1], &past);
        assert_eq!(stopped.end, End::TimeLimit);
        assert_eq!(pair.on, Side::Second, "the trailer's sample was cut");
        let before = pair.board().nodes;
        let out = pair.resume(&Budget::unlimited()).unwrap();
        assert_eq!(out.end, End::Exhausted);
        let after = pair.board().nodes;
        assert_eq!(after[1], before[1], "the trailer counted nothing more");
        assert!(after[0] > before[0], "the leader counted the part");
        // The part's count is the whole part's, as the first search alone counts it.
        let mut alone = Dense::new(problem).unwrap();
        let whole = alone.count_below(&cut.parts[1], &Budget::unlimited());
        assert_eq!(out.stats.solutions(), whole.stats.solutions());
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
