//! The default count: the plain search and the memoised ones in turns of growing length, each
//! resuming where it stopped, until one of them ends the count.
//!
//! # The guarantee
//!
//! The searches are the plain count (no memo: the bitset search and the sparse-set search
//! over the parts of the tree, [`PlainPair`], each part by the one faster per node so far;
//! its guarantee is `paired.rs`'s), the memoised dance ([`Solver::count_memo_resumable`]:
//! the item of fewest options first, stopped and resumed in place; it leads only on an
//! estimate within [`CREDIBLE_HORIZON`] times the time spent, see [`Entrant::may_lead`]) and
//! the memoised dance in frontier order ([`Solver::in_frontier_order`]: the same dance with
//! only its choice of item changed, leading on its least estimate; made for grids, whose
//! memoised estimates are orders of magnitude off early: Knuth's 8×8 mixed tilings 0.2 s,
//! domino tilings of 16×16 0.4). On threads the plain searches' parts go to the pool's
//! threads, and the dances take their turns on the calling thread.
//! After the plain searches' first slice (a count that ends within it pays
//! nothing more) comes the
//! *opening round* ([`OPENING_ROUND`], or the plain search's estimate of its time left if
//! less), shared equally, the memoised searches first (the dance in frontier order, then the
//! other) and the plain search last, its first slice counted as its share: a count a memoised
//! search ends in its share costs at most its time, the other's share and the first slice,
//! whatever the estimates say. Then the
//! searches take *rounds*; each round is twice as long as the one before (the first is as
//! long as the first slice took), and in each round every search gets at least
//! [`LEAST_SHARE`] / (k − 1) of it; the rest goes to the *leader*, the search whose estimate of the time
//! it still needs is least: the fraction of its tree left, `1 − f`, at the pace its estimate
//! `f` of the fraction done (the plain search's `Shared::progress`, a dance's at its stop) moved since the
//! end of its first turn (the plain search's: its first slice), or since its start before it
//! has had a second turn, or at its pace over the latest half of its time if that is slower
//! (a fraction that stalls, its last branch the largest). Measured from the first turn on, a jump of the estimate at the start
//! does not count as pace: a memoised search on an open sudoku that ends a small first
//! branch at the root in a few hundred nodes estimates half the tree done, and then nothing
//! more for milliseconds. Before its second turn that jump would still make it
//! lead the first round, so a memoised search leads only while its table has spared it at
//! least as many nodes as it visited (`Entrant::table_pays`). The dance of fewest options
//! first, whose tree is the plain search's, also estimates by the plain tree's nodes it has not
//! covered at the rate it covers them, and takes the lesser (`Entrant::tree_left`: a memoised
//! tree's fraction lags, its later branches ending in hits). And an estimate is evidence
//! only within [`CREDIBLE_HORIZON`] times the time spent: while no search's estimate is, the
//! memoised search's table pays and the plain search would lead, the round is shared evenly;
//! so is a round whose leader led the last one and has since had [`BROKEN_PROMISE`] times
//! the time it then estimated, while another search has no estimate ([`broke_its_promise`]).
//!
//! Whatever the estimates say, a search that would count alone in time `T` has had `T` after
//! at most `2·(k − 1)·T / LEAST_SHARE` of the default's time (its shares of the rounds add up
//! to `LEAST_SHARE / (k − 1)` of the time spent, and a round is at most the sum of all before it plus the
//! first slice). The searches resume exactly (the bitset search, and the dances, in place), so
//! the shares add up. So the default
//! costs at most `2 (k − 1) / LEAST_SHARE` (128) times the best of the three, plus the first
//! slice — and when the estimates point at the best search, about `1 + LEAST_SHARE` times it
//! (`k` = 3 searches).
//!
//! Slices are given in nodes, from each search's measured time per node (so only the slices'
//! lengths depend on the clock, not the count), and a search's turn is its shares so far less
//! the time it took ([`Entrant::grant`]): a turn that ran over is paid back by the next ones,
//! so the shares hold in time, as the guarantee counts them. A memoised dance is built when
//! its first turn comes, its build counted in its time ([`Runner::Unbuilt`]): a part of its
//! share, not a cost outside the shares (the turn after the build is as long as granted,
//! and what runs over is paid back). The memo's memory follows the time as the shares do
//! ([`share_memory`]): a memoised search that leads may take for its table what the other's
//! share of the round cannot fill, within `--memo-mem` together.

use std::time::{Duration, Instant};

use super::choose::{
    BROKEN_PROMISE, CREDIBLE_HORIZON, DANCE_MEMO_PART, FIRST_NODES, LEAST_NODES, LEAST_SHARE,
    OPENER_SLICES, OPENING_ROUND, THREADS_FIRST_LOOK,
};
use super::threads::Shared;
use super::{Count, PlainPair};
use crate::engine::budget::{Budget, End};
use crate::engine::problem::Problem;
use crate::engine::search::dlx::Solver;
use crate::engine::search::memo::{Memo, MemoStats};
use crate::engine::stats::Stats;

/// One search of the portfolio.
enum Runner<'p> {
    /// The two plain searches over the tree's parts ([`PlainPair`]), on one thread or on the
    /// pool's threads, stopped at deadlines.
    Parts(Box<Shared<PlainPair<'p>>>),
    /// A memoised dance (DLX6's key of open items), its turns on the calling thread, stopped
    /// and resumed in place ([`Solver::count_memo_resumable`]): the item of fewest options
    /// first, or in frontier order ([`Solver::in_frontier_order`]).
    Dance {
        solver: Box<Solver<'p>>,
        memo: Box<Memo>,
    },
    /// A memoised dance before its first turn, built when that turn comes and in its
    /// time: its build is a part of its share, as the guarantee counts the shares (the two
    /// dances' builds take 6 ms of a 0.3 s count of word squares 5×475), and a count that
    /// ends before its turn never builds it.
    Unbuilt {
        problem: &'p Problem,
        memo_bytes: u64,
        frontier: bool,
    },
}

struct Entrant<'p> {
    search: Runner<'p>,
    /// Time spent in it, nodes visited, and its estimate of the fraction of its tree done.
    time: Duration,
    nodes: u64,
    progress: f64,
    /// Its time and estimate at the end of its first turn (the plain search's: its first
    /// slice), from which its pace is measured ([`Entrant::remaining`]).
    first: Option<(Duration, f64)>,
    /// Its time and estimate at the end of each turn since its first, oldest first: the
    /// marks its pace over the latest half of its time is measured from
    /// ([`Entrant::pace_left`]).
    marks: Vec<(Duration, f64)>,
    /// For a memoised search, the nodes its table's hits spared it (`None` for the plain
    /// search).
    saved: Option<u64>,
    /// Its latest turn's time and nodes (`None` before its first).
    last_turn: Option<(Duration, u64)>,
    /// For the memoised dance of fewest options first, the plain search's estimate of its
    /// tree's nodes (its nodes over the fraction of its tree done), which is the dance's own
    /// plain tree (the same rule of choice): see [`Entrant::remaining`]. `None` before the
    /// plain search has an estimate, and for the other searches.
    plain_tree: Option<f64>,
    /// What its shares of the rounds so far add up to (the plain search's first slice
    /// included): its next turn is this less `time`, so that a turn that ran over its share
    /// is paid back by the next ones, and the shares hold in time, not only in turns.
    granted: Duration,
    /// For a memoised search, its part of the memo's memory (`memo_bytes / DANCE_MEMO_PART`
    /// for the dance of fewest options first, the rest for the other): its table's bound
    /// while the plain search leads ([`share_memory`]). 0 for the plain search.
    part: u64,
}

impl<'p> Entrant<'p> {
    /// A memoised search, before its first turn, its table's part of the memo's memory
    /// `part`.
    fn memoised(search: Runner<'p>, part: u64) -> Entrant<'p> {
        Entrant {
            part,
            search,
            time: Duration::ZERO,
            nodes: 0,
            progress: 0.0,
            first: None,
            marks: Vec::new(),
            saved: Some(0),
            last_turn: None,
            plain_tree: None,
            granted: Duration::ZERO,
        }
    }

    /// The bytes its table holds: 0 for the plain search, and for a memoised search before
    /// its first turn.
    fn table_bytes(&self) -> u64 {
        match &self.search {
            Runner::Dance { memo, .. } => memo.bytes(),
            Runner::Parts(_) | Runner::Unbuilt { .. } => 0,
        }
    }

    /// Bounds its table to `bytes`, shrinking it if it holds more (before its first turn:
    /// what it will be built within).
    fn bound_table(&mut self, bytes: u64) {
        match &mut self.search {
            Runner::Parts(_) => {}
            Runner::Dance { memo, .. } => memo.bound_to(bytes),
            Runner::Unbuilt { memo_bytes, .. } => *memo_bytes = bytes,
        }
    }

    /// The estimated time it still needs: [`Entrant::pace_left`], infinite for a memoised
    /// search whose table has spared it fewer nodes than it visited
    /// ([`Entrant::table_pays`]).
    ///
    /// For the dance of fewest options first, whose tree is the plain search's, the lesser of
    /// that and the plain tree's nodes it has not yet covered at the rate it covers them
    /// ([`Entrant::tree_left`]).
    fn remaining(&self) -> f64 {
        if !self.table_pays() {
            return f64::INFINITY;
        }
        self.pace_left().min(self.tree_left())
    }

    /// The time the dance of fewest options first still needs by the plain tree's nodes:
    /// those of the plain search's estimate of its tree ([`Entrant::plain_tree`]) it has not
    /// covered (the nodes it visited and those its table's hits spared it), at the rate it
    /// has covered them so far. Infinite for the other searches, and while the estimate of
    /// the tree is below the nodes covered (an estimate proved wrong).
    ///
    /// Knuth's fraction of a memoised tree lags: the later branches of the tree end in hits,
    /// so the pace over its first branches is the slowest, and the fraction's estimate of the
    /// time left is too long. On `bigsud16a` the dance led a round on it, and with a fifth of
    /// its count left, estimated 0.47 s left against the plain search's 0.28 and lost the
    /// lead (0.56 s against 0.25 for `--memo on`); it had covered 1.87 M nodes of the plain
    /// tree's estimated 3.6 M at 10.3 M a second against the plain search's 7.9 M.
    fn tree_left(&self) -> f64 {
        let (Some(tree), Some(saved)) = (self.plain_tree, self.saved) else {
            return f64::INFINITY;
        };
        let covered = (self.nodes + saved) as f64;
        let time = self.time.as_secs_f64();
        if covered >= tree || time <= 0.0 {
            return f64::INFINITY;
        }
        (tree - covered) * time / covered
    }

    /// The estimate of the nodes of its tree: the nodes visited over the fraction of the tree
    /// done (`None` before it moves).
    fn tree_estimate(&self) -> Option<f64> {
        (self.progress > 0.0).then(|| self.nodes as f64 / self.progress)
    }

    /// The time its tree still needs at its pace: the fraction of its tree left at the pace
    /// of its estimate since the end of its first turn (at the pace since its start before it
    /// has had a second), or at its pace over the latest half of its time (from its latest
    /// mark at or before half its time, after its first turn), whichever is longer; infinite
    /// when its estimate has not moved.
    ///
    /// Knuth's fraction gives every branch of a node an equal part, so a last branch far
    /// larger than the others leaves it stalled near its end; the pace over a part of the tree
    /// long behind the search then says nothing of the part it is in. On `bigsud16b` the
    /// plain search's fraction went from 0.03 to 0.94 between 0.08 and 0.33 s of a 4.1 s
    /// count: since its first slice it estimated 0.02 to 0.09 s left for a second, over its
    /// latest half 25 to 30 s.
    fn pace_left(&self) -> f64 {
        let left_since = |(time, progress): (Duration, f64)| {
            let done = self.progress - progress;
            if done <= 0.0 {
                f64::INFINITY
            } else {
                (self.time - time).as_secs_f64() * (1.0 - self.progress) / done
            }
        };
        let overall = match self.first {
            Some(first) if self.time > first.0 => left_since(first),
            _ => left_since((Duration::ZERO, 0.0)),
        };
        // The latest mark at or before half its time, after its first turn.
        let latest_half = self
            .marks
            .iter()
            .rev()
            .find(|&&(time, _)| time <= self.time / 2)
            .filter(|&&(time, _)| self.first.is_some_and(|(first, _)| time >= first));
        match latest_half {
            Some(&mark) => overall.max(left_since(mark)),
            None => overall,
        }
    }

    /// Whether it may lead a round, `spent` seconds into the count: the dance of fewest
    /// options first only on an estimate that is evidence ([`CREDIBLE_HORIZON`]). Its
    /// estimate at a stop is Knuth's over the levels then covered, which on a grid whose first
    /// branches end in hits is orders of magnitude off in either direction; the dance in
    /// frontier order, made for such problems, leads on the least estimate. Led on any
    /// estimate, the dance of fewest options first took the lead on Knuth's 7×7 mixed tilings
    /// and the count took 2.9 s against 0.05.
    fn may_lead(&self, spent: f64) -> bool {
        match &self.search {
            Runner::Dance { solver, .. } if !solver.is_in_frontier_order() => {
                is_evidence(self.remaining(), spent)
            }
            Runner::Unbuilt {
                frontier: false, ..
            } => false,
            _ => true,
        }
    }

    /// Whether the search's table (if it has one) has spared it at least as many nodes as
    /// it visited, that is, at least halved its work so far. Below that a memoised search has
    /// searched about as the plain search does, only slower, and its estimate is no evidence
    /// that the table will pay: a memoised search on an open sudoku that ends a small branch
    /// of the root within its first few hundred nodes estimates half its tree done and then
    /// nothing more (after the opening round the tables had spared 0.2 to 0.3 nodes per node
    /// visited on open sudokus, 0.3 to 0.9 later on; domino tilings, matchings, mixed tilings
    /// 6 to 13 and more). The nodes spared are the plain tree's ([`Memo`]'s costs): on
    /// `bigsud16a` the memoised dance's table has spared it 2.9 M nodes of the plain tree's
    /// 3.4 M when it ends, and counted in its own nodes only (a hit below hits spared a
    /// fraction) 0.5 M against its 0.55 M visited, so that the search that ended the count
    /// 1.7 times faster than the plain one looked as if its table had not paid.
    fn table_pays(&self) -> bool {
        self.saved.is_none_or(|saved| saved >= self.nodes)
    }

    /// Grants it `share` of a round: its turn, the shares so far less the time it took, or
    /// none while that is not positive. A turn that ran over its share (a memoised node of a
    /// 25×25 sudoku takes microseconds, and a turn ends at a node) skips turns
    /// until its shares have caught up with it, so that the shares hold in time, as the
    /// guarantee counts them, and not only in turns.
    fn grant(&mut self, share: Duration) -> Option<Duration> {
        self.granted += share;
        Some(self.granted.saturating_sub(self.time)).filter(|turn| !turn.is_zero())
    }

    /// Whether the memoised dance opening a count alone ([`open_with_dance`]) goes on for
    /// another slice rather than have the portfolio `buy` what it builds: its estimate of the
    /// time its tree still needs at its pace ([`Entrant::pace_left`]) is evidence
    /// ([`is_evidence`]) and within the buy. Its table need not pay: a memoised node that
    /// does not branch costs what a plain one does (the memo passes it by), and a short count
    /// of a sudoku ends in the dance at about the plain dance's pace.
    fn rents_on(&self, buy: Duration) -> bool {
        let left = self.pace_left();
        is_evidence(left, self.time.as_secs_f64()) && left <= buy.as_secs_f64()
    }

    /// Whether the memoised dance that opened a count without ending it goes on in the
    /// portfolio where it stopped: its table pays and its estimate of the time it still needs
    /// is evidence, so that it may lead the portfolio's rounds from there. A 25×25 sudoku of
    /// 318 clues (540,000 solutions): the dance's table had spared it 20,929 nodes in its
    /// first 7,232 and it estimated 0.12 s left, the buy 39 ms; dropped, the portfolio's own
    /// dance got its least share and the count took 0.84 s, kept it took 0.11 (`--memo on`
    /// 0.07).
    fn goes_on(&self) -> bool {
        self.table_pays() && is_evidence(self.remaining(), self.time.as_secs_f64())
    }

    /// A turn of the memoised dance of at most `nodes` nodes and `turn` long: how it ended
    /// and its count; its nodes, estimate and the nodes its table spared are updated (its
    /// time is the caller's to add).
    fn dance_turn(&mut self, nodes: u64, turn: Duration, budget: &Budget) -> (End, u128) {
        // Built first, its turn then as long as granted: the build is in the turn's time (the
        // caller's clock), paid back by the next turns, so that a count the dance ends within
        // its first turn is not cut short by the build (domino tilings 8×8, whose dance in
        // frontier order ends them within its third of the opening round).
        if let Runner::Unbuilt {
            problem,
            memo_bytes,
            frontier,
        } = self.search
        {
            self.search = new_dance(problem, memo_bytes, frontier);
        }
        let deadline = turn_deadline(budget, turn);
        let Runner::Dance { solver, memo } = &mut self.search else {
            unreachable!("a turn of the dance is the dance's");
        };
        let out = solver.count_memo_resumable(
            &Budget {
                nodes: Some(nodes),
                solutions: None,
                mems: None,
                deadline: Some(deadline),
                ..budget.clone()
            },
            memo,
        );
        self.nodes += out.nodes;
        self.progress = out.progress;
        self.saved = Some(memo.stats().nodes_saved);
        (turn_end(out.end, budget), out.count)
    }

    /// Seconds per node, measured (a guess before its first slice): the lesser of its pace
    /// over all its turns and over its latest. A turn the system took the core from (a few
    /// milliseconds for a few hundred nodes, seen with other jobs on both cores) would
    /// otherwise slow the pace over all turns for good; sized by it, every later turn of a
    /// search on its least share would be a few nodes, and the search that should win would
    /// stay starved. With the lesser, one turn at the true pace restores it. A turn sized too
    /// long by it is still ended by its deadline.
    fn seconds_per_node(&self, guess: f64) -> f64 {
        if self.nodes == 0 {
            return guess;
        }
        let overall = self.time.as_secs_f64() / self.nodes as f64;
        match self.last_turn {
            Some((time, nodes)) if nodes > 0 => overall.min(time.as_secs_f64() / nodes as f64),
            _ => overall,
        }
    }
}

/// The parts of the memo's memory `memo_bytes`: the dance of fewest options first's
/// ([`DANCE_MEMO_PART`]), and the rest, the dance in frontier order's.
fn memo_parts(memo_bytes: u64) -> (u64, u64) {
    let fewest = memo_bytes / DANCE_MEMO_PART;
    (fewest, memo_bytes - fewest)
}

/// A memoised dance of the portfolio with a table of `memo_bytes`: in frontier order if
/// `frontier`, else the item of fewest options first.
fn new_dance(problem: &Problem, memo_bytes: u64, frontier: bool) -> Runner<'_> {
    let solver = Solver::new(problem);
    let solver = if frontier {
        solver.in_frontier_order()
    } else {
        solver
    };
    let memo = Memo::new(solver.memo_words(), memo_bytes);
    Runner::Dance {
        solver: Box::new(solver),
        memo: Box::new(memo),
    }
}

/// The memoised dance after it opened a count alone ([`open_with_dance`]), to go on as the
/// portfolio's dance where it stopped.
pub(crate) struct OpenedDance<'p>(Box<Entrant<'p>>);

/// Opens the count of `problem` with the memoised dance alone on the calling thread, a ski rental
/// against `buy`, what the portfolio builds before its plain searches count
/// ([`Opener::Dance`](super::choose::Opener::Dance)): its count if it ended within its
/// slices (or the caller's budget ended it). Else the dance, to go on in the portfolio
/// ([`count`]) where it stopped, its slices its share of the time so far, if its table pays
/// and its estimate is evidence ([`Entrant::goes_on`]); if not, nothing: the portfolio
/// starts a dance of its own, as without the opener, so that the rent is all the opener
/// costs a count that goes on.
pub(crate) fn open_with_dance<'p>(
    problem: &'p Problem,
    memo_bytes: u64,
    budget: &Budget,
    buy: Duration,
) -> Result<Count, Option<OpenedDance<'p>>> {
    let started = Instant::now();
    let slice = buy / OPENER_SLICES;
    let (part, _) = memo_parts(memo_bytes);
    let mut dance = Entrant::memoised(new_dance(problem, part, false), part);
    // Its build is a part of its rent.
    let first = slice.saturating_sub(started.elapsed());
    let (mut end, mut count) = dance.dance_turn(u64::MAX, first, budget);
    dance.time = started.elapsed();
    dance.first = Some((dance.time, dance.progress));
    dance.marks.push((dance.time, dance.progress));
    // Another slice only while the dance expects to end within the buy, on evidence, and the
    // rent so far is less than the buy.
    while end == End::NodeLimit && dance.time < buy && dance.rents_on(buy) {
        (end, count) = dance.dance_turn(u64::MAX, slice, budget);
        dance.time = started.elapsed();
        dance.marks.push((dance.time, dance.progress));
    }
    if end != End::NodeLimit {
        return Ok(finish(&[dance], 0, end, count));
    }
    if !dance.goes_on() {
        return Err(None);
    }
    dance.granted = dance.time;
    dance.last_turn = Some((dance.time, dance.nodes));
    Err(Some(OpenedDance(Box::new(dance))))
}

/// The plain searches' first slice in the portfolio, alone.
pub(crate) enum First {
    /// Had already, in this time (on one thread: the bitset search's first nodes, whose rest
    /// the parts are).
    Done(Duration),
    /// To run, this long, at the start of the count.
    Run(Duration),
}

/// Counts with the plain searches over the parts of `shared` (on its threads, after their
/// first slice `first`) and the memoised searches (their tables within `memo_bytes`; the
/// dance `opened`, if it opened the count) within `budget` (its deadline and stop apply; its
/// node and mem limits are the caller's to refuse).
pub(crate) fn count<'p>(
    mut shared: Shared<PlainPair<'p>>,
    first: First,
    problem: &'p Problem,
    memo_bytes: u64,
    budget: &Budget,
    opened: Option<OpenedDance<'p>>,
) -> Count {
    let time = match first {
        First::Done(time) => time,
        First::Run(slice) => {
            let started = Instant::now();
            // The slice's first part; the rest only when the plain searches' estimate of the
            // time they still need is evidence ([`CREDIBLE_HORIZON`]; see
            // [`THREADS_FIRST_LOOK`]).
            let look = THREADS_FIRST_LOOK.min(slice);
            let mut end = shared.resume(&Budget {
                deadline: Some(turn_deadline(budget, look)),
                ..budget.clone()
            });
            if end == End::TimeLimit
                && budget.out_of_time().is_none()
                && waits_for_the_rest(started.elapsed(), shared.progress())
            {
                end = shared.resume(&Budget {
                    deadline: Some(turn_deadline(
                        budget,
                        slice.saturating_sub(started.elapsed()),
                    )),
                    ..budget.clone()
                });
            }
            if end != End::TimeLimit || budget.out_of_time().is_some() {
                let stats = shared.stats();
                return Count {
                    end,
                    count: u128::from(stats.solutions()),
                    stats,
                    memo: None,
                    split: Some(shared.info()),
                };
            }
            started.elapsed()
        }
    };
    let (nodes, progress) = (shared.stats().nodes(), shared.progress());
    // The first round is as long as the plain searches' first slice.
    let mut round = time.max(Duration::from_millis(1));
    let plain_rate = time.as_secs_f64() / nodes.max(1) as f64;
    let (fewest_part, frontier_part) = memo_parts(memo_bytes);
    let frontier = Runner::Unbuilt {
        problem,
        memo_bytes: frontier_part,
        frontier: true,
    };
    let mut entrants = vec![Entrant {
        search: Runner::Parts(Box::new(shared)),
        time,
        nodes,
        progress,
        first: Some((time, progress)),
        marks: vec![(time, progress)],
        saved: None,
        last_turn: None,
        plain_tree: None,
        // Its first slice is its share of the opening round, spent: the memoised searches'
        // turns come before any more of it (a count of domino tilings 8×8 that the dance in
        // frontier order ends within its share waited on the plain search's turn too).
        granted: Duration::ZERO,
        part: 0,
    }];
    entrants.push(Entrant::memoised(frontier, frontier_part));
    // On threads the dance's turns run on one of them: where it leads, a count on threads is
    // about as fast as on one (hexagon 5,5,5 lozenge tilings: 12 ms on two threads with it,
    // 26 ms without, 10 ms on one).
    entrants.push(match opened {
        Some(OpenedDance(dance)) => *dance,
        None => Entrant::memoised(
            Runner::Unbuilt {
                problem,
                memo_bytes: fewest_part,
                frontier: false,
            },
            fewest_part,
        ),
    });
    let k = entrants.len();
    // The opening round: every search an equal share of [`OPENING_ROUND`] (or of the time
    // the plain search estimates it still needs, if less), the memoised ones first (the plain
    // search has had its first slice: its share), each turn ended by the clock (a memoised
    // search's time per node is not known yet).
    let mut opening = k > 1;
    // The leader of the last round, its estimate of the time it still needed then and its
    // time then ([`broke_its_promise`]).
    let mut promise: Option<(usize, f64, Duration)> = None;
    loop {
        // The leader: the search of least estimate of the time it still needs ([`leader`]);
        // the dance of fewest options first estimates by the plain search's tree too.
        let spent: f64 = entrants.iter().map(|e| e.time.as_secs_f64()).sum();
        let plain_tree = entrants[0].tree_estimate();
        for e in &mut entrants[1..] {
            if matches!(&e.search, Runner::Dance { solver, .. } if !solver.is_in_frontier_order()) {
                e.plain_tree = plain_tree;
            }
        }
        let leader = if opening { 1 } else { leader(&entrants, spent) };
        // The searches that do not lead share LEAST_SHARE of the round.
        let others = LEAST_SHARE;
        let even = !opening && {
            let evidence: Vec<(f64, bool)> = entrants
                .iter()
                .map(|e| (e.remaining(), e.table_pays()))
                .collect();
            is_even_round(leader, &evidence, spent)
                || promise.is_some_and(|p| broke_its_promise(&entrants, leader, p))
        };
        promise = (!opening).then(|| {
            let e = &entrants[leader];
            (leader, e.remaining(), e.time)
        });
        let this_round = if opening {
            // No longer than the plain search estimates it still needs: a count about to end
            // does not wait on the memoised search's share.
            let left = entrants[0].remaining().min(OPENING_ROUND.as_secs_f64());
            Duration::from_secs_f64(left)
        } else {
            round
        };
        if !opening {
            let least = this_round.mul_f64(LEAST_SHARE / (k - 1) as f64);
            share_memory(&mut entrants, leader, memo_bytes, least);
        }
        // The leader first: when it ends the count, the others' shares of the round are not
        // spent. In the opening round, the memoised searches in their order and the plain
        // search last.
        let turns: Vec<usize> = if opening {
            (1..k).chain([0]).collect()
        } else {
            [leader]
                .into_iter()
                .chain((0..k).filter(|&i| i != leader))
                .collect()
        };
        for i in turns {
            let share = if opening || even {
                1.0 / k as f64
            } else if i == leader {
                1.0 - others
            } else {
                LEAST_SHARE / (k - 1) as f64
            };
            let e = &mut entrants[i];
            let Some(turn) = e.grant(this_round.mul_f64(share)) else {
                continue;
            };
            let rate = e.seconds_per_node(plain_rate);
            let nodes = if opening && !matches!(e.search, Runner::Parts(_)) {
                u64::MAX
            } else if e.nodes == 0 {
                FIRST_NODES
            } else {
                ((turn.as_secs_f64() / rate) as u64).max(LEAST_NODES)
            };
            let (started, nodes_before) = (Instant::now(), e.nodes);
            let (end, count) = match &mut e.search {
                Runner::Parts(t) => {
                    let end = turn_end(
                        t.resume(&Budget {
                            deadline: Some(turn_deadline(budget, turn)),
                            ..budget.clone()
                        }),
                        budget,
                    );
                    e.nodes = t.stats().nodes();
                    e.progress = t.progress();
                    (end, u128::from(t.stats().solutions()))
                }
                Runner::Dance { .. } | Runner::Unbuilt { .. } => e.dance_turn(nodes, turn, budget),
            };
            let took = started.elapsed();
            e.time += took;
            e.last_turn = Some((took, e.nodes.saturating_sub(nodes_before)));
            if e.first.is_none() {
                e.first = Some((e.time, e.progress));
            }
            e.marks.push((e.time, e.progress));
            if end != End::NodeLimit {
                return finish(&entrants, i, end, count);
            }
        }
        if opening {
            opening = false;
        } else {
            round *= 2;
        }
    }
}

/// The leader of a round, `spent` seconds into the count: the search of least estimate of the
/// time it still needs ([`Entrant::remaining`]: infinite for a memoised search whose table
/// has not spared it as many nodes as it visited), a memoised search only if it may lead
/// ([`Entrant::may_lead`]); the plain search (entrant 0) on a tie.
fn leader(entrants: &[Entrant<'_>], spent: f64) -> usize {
    let left = |i: usize| entrants[i].remaining();
    (1..entrants.len())
        .filter(|&i| entrants[i].may_lead(spent))
        .min_by(|&a, &b| left(a).total_cmp(&left(b)))
        .filter(|&best| left(best) < left(0))
        .unwrap_or(0)
}

/// Bounds the memoised searches' tables for a round led by `leader`, within `memo_bytes`
/// together: a table follows its search's time. A table that does not lead is bounded by its
/// part ([`Entrant::part`]), and shrunk to it if it grew past it while its search led. While
/// a memoised search leads, a table that does not lead, on its `least` share of the round,
/// may also double (a table grows by doubling) only if that share is at least the time its
/// search has had so far, since its stores can at most grow as its time does; else it keeps
/// what it holds (a search not built yet keeps its part, to be built within it). A table
/// that does not lead stays within what the others hold, and the leader's table may grow
/// into the rest: at least its part, and never less than it holds.
///
/// Why: a table that does not lead held its part of the memory in reserve while the
/// leader's table, full, forgot counts. Reduced latin squares of order 7, the dance of fewest
/// options first leading: `--memo on` counts them in 6.7 s with a table of 64 MB (that
/// dance's part) and in 5.0 s with 256 MB. Tables shrink back to their parts when their
/// search no longer leads, so that a search that led first and lost the lead does not keep
/// the memory from the next leader: with `--memo-mem 64M` the dance in frontier order led
/// `latin7` first and took 56 MB, and kept, it left the next leader 7 MB of its 16.
fn share_memory(entrants: &mut [Entrant<'_>], leader: usize, memo_bytes: u64, least: Duration) {
    let held: Vec<u64> = entrants.iter().map(Entrant::table_bytes).collect();
    let all: u64 = held.iter().sum();
    let memoised_leads = entrants[leader].part > 0;
    let mut reserved = 0;
    for (i, e) in entrants.iter_mut().enumerate() {
        if i == leader || e.part == 0 {
            continue;
        }
        let wants = if !memoised_leads || matches!(e.search, Runner::Unbuilt { .. }) {
            e.part
        } else if least >= e.time {
            held[i].saturating_mul(2)
        } else {
            held[i]
        };
        // Within what the others hold, so that the leader's table never shrinks.
        let room = memo_bytes.saturating_sub(all - held[i]);
        let bound = e.part.min(wants).min(room);
        e.bound_table(bound);
        reserved += bound;
    }
    if memoised_leads {
        entrants[leader].bound_table(memo_bytes.saturating_sub(reserved));
    }
}

/// Whether the leader of a round, `leader`, led the last one too, `promise` (that round's
/// leader, its estimate then of the seconds it still needed and its time then), has since
/// had at least [`BROKEN_PROMISE`] times what it estimated without ending the count, and
/// another search has no estimate to set against it (an infinite one: its table has not
/// shown it pays, or its fraction has not moved). The leader's estimate was wrong by more
/// than that factor, and is no evidence that it leads again, nor is the other's silence
/// evidence against it: the round is shared evenly, to buy the other's evidence. Where every
/// other search has an estimate, the least leads as always. A leader whose estimate is
/// right ends the count within its turn, so the rule costs nothing where the estimates
/// are right.
///
/// An open 16×16 sudoku (`bigsud16b`): the plain search's estimate moved from 0.034 to
/// 0.94 of its tree in 0.17 s, and it estimated 0.02 to 0.09 s left while it led for 1.4 s
/// of a 4.1 s count (`--memo on` 1.1 s); the memoised dance, on its least share, had by then
/// had 22 ms, and its table had not yet shown it pays. Aztec diamonds of order 9: the
/// memoised dance, leading, estimates milliseconds left with 0.99 of its tree done for
/// 60 ms; the plain search's estimate, 1 s, is finite, so the dance leads on (shared evenly,
/// the count took 1.16 times as long).
fn broke_its_promise(
    entrants: &[Entrant<'_>],
    leader: usize,
    (last, left, at): (usize, f64, Duration),
) -> bool {
    last == leader
        && (entrants[leader].time.saturating_sub(at)).as_secs_f64() >= BROKEN_PROMISE * left
        && (entrants.iter().enumerate()).any(|(i, e)| i != leader && e.remaining().is_infinite())
}

/// Whether a round is shared evenly: the plain search (entrant 0) would lead it, a memoised
/// search's table pays, and no estimate of the time left is evidence yet, being more than
/// [`CREDIBLE_HORIZON`] times the `spent` seconds. `evidence` holds each entrant's estimate
/// of the seconds it still needs and whether its table pays (the plain search's: true).
fn is_even_round(leader: usize, evidence: &[(f64, bool)], spent: f64) -> bool {
    leader == 0
        && evidence[1..].iter().any(|&(_, pays)| pays)
        && evidence.iter().all(|&(left, _)| !is_evidence(left, spent))
}

/// The result when entrant `i` ended with `end` (the plain search's count so far stands for
/// a count cut short: a lower bound).
fn finish(entrants: &[Entrant<'_>], i: usize, end: End, count: u128) -> Count {
    let mut stats = Stats::default();
    let mut memo: Option<MemoStats> = None;
    let mut plain_count = 0u128;
    for (k, e) in entrants.iter().enumerate() {
        match &e.search {
            Runner::Parts(t) => {
                let s = t.stats();
                plain_count = u128::from(s.solutions());
                stats += s;
            }
            Runner::Dance {
                solver,
                memo: table,
            } => {
                let s = solver.stats();
                stats.nodes += s.nodes();
                stats.max_level = stats.max_level.max(s.max_level());
                if k == i {
                    memo = Some(table.stats());
                }
            }
            // Never built: the count ended before its turn.
            Runner::Unbuilt { .. } => {}
        }
    }
    let by_memo = !matches!(entrants[i].search, Runner::Parts(_));
    let split = entrants.iter().find_map(|e| match &e.search {
        Runner::Parts(t) => Some(t.info()),
        _ => None,
    });
    let count = if end == End::Exhausted {
        count
    } else {
        plain_count
    };
    // The plain search's solutions are the count (or its lower bound); a memoised count is
    // in the statistics as far as a u64 holds it.
    stats.solutions = u64::try_from(count).unwrap_or(u64::MAX);
    Count {
        end,
        count,
        stats,
        memo: if by_memo { memo } else { None },
        split,
    }
}

/// Whether an estimate of `left` seconds still needed is evidence `spent` seconds into the
/// count: within [`CREDIBLE_HORIZON`] times the time spent (an infinite one never is).
fn is_evidence(left: f64, spent: f64) -> bool {
    left <= CREDIBLE_HORIZON * spent
}

/// On threads, after the plain searches' first `spent` of their first slice
/// ([`THREADS_FIRST_LOOK`]), with `done` their estimate of the fraction of the tree counted:
/// whether the memoised searches wait for the rest of the slice, that is, whether the plain
/// searches' estimate of the time they still need, the fraction left at their pace so far,
/// is evidence ([`is_evidence`]). No progress is no evidence.
fn waits_for_the_rest(spent: Duration, done: f64) -> bool {
    let spent = spent.as_secs_f64();
    let left = if done > 0.0 {
        spent * (1.0 - done) / done
    } else {
        f64::INFINITY
    };
    is_evidence(left, spent)
}

/// The end of a turn of length `turn` begun now: its own deadline, or the caller's if sooner.
fn turn_deadline(budget: &Budget, turn: Duration) -> Instant {
    let own = Instant::now() + turn;
    budget.deadline.map_or(own, |d| d.min(own))
}

/// How a turn ended, for the portfolio: a turn stopped by its own deadline (not the caller's)
/// ended as a turn does, [`End::NodeLimit`], and the count goes on.
fn turn_end(end: End, budget: &Budget) -> End {
    if end == End::TimeLimit && budget.out_of_time().is_none() {
        End::NodeLimit
    } else {
        end
    }
}

#[cfg(test)]
mod tests;
