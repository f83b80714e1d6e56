//! The portfolio's tests (`portfolio.rs`): its rules, each on entrants made by hand.

use super::*;

/// On threads the memo waits for the rest of the first slice only on an estimate that is
/// evidence: a count whose plain searches have done a fifth of the tree after 0.5 ms
/// (2 ms left) waits; one that has done a millionth (8 minutes left) or nothing does not.
#[test]
fn the_memo_waits_for_the_first_slice_only_on_evidence() {
    let look = Duration::from_micros(500);
    assert!(waits_for_the_rest(look, 0.2));
    assert!(waits_for_the_rest(look, 0.01));
    assert!(!waits_for_the_rest(look, 1e-6));
    assert!(!waits_for_the_rest(look, 0.0));
    // Just within the horizon: 100 times the time spent left.
    assert!(waits_for_the_rest(look, 1.0 / 101.0 + 1e-9));
    assert!(!waits_for_the_rest(look, 1.0 / 102.0));
}

/// The count of `problem` by the portfolio on one thread after the memoised dance
/// opened it for `opener` nodes and the bitset search counted its first `slice` nodes:
/// `None` when one of them ended the count alone.
fn count_after_an_opener(problem: &Problem, opener: u64, slice: u64) -> Option<Count> {
    let mut dance = Entrant::memoised(new_dance(problem, 1 << 22, false), 1 << 22);
    let (end, _) = dance.dance_turn(opener, Duration::from_secs(60), &Budget::default());
    dance.time = Duration::from_micros(opener);
    dance.granted = dance.time;
    dance.first = Some((dance.time, dance.progress));
    if end != End::NodeLimit {
        return None;
    }
    let mut dense = crate::engine::Dense::new(problem).ok()?;
    let out = dense.count(&Budget {
        nodes: Some(slice),
        ..Budget::default()
    });
    if out.end != End::NodeLimit {
        return None;
    }
    let shared = super::super::rest_of(dense, problem);
    let first = First::Done(Duration::from_micros(slice));
    let opened = Some(OpenedDance(Box::new(dance)));
    Some(count(
        shared,
        first,
        problem,
        1 << 24,
        &Budget::default(),
        opened,
    ))
}

/// A dance that opened the count, stopped after any number of nodes, goes on in the
/// portfolio where it stopped, and the count is the whole count, whichever search ends
/// it: 8-queens, Langford pairs of 8, the perfect matchings of K12, and random problems
/// against the bitset search alone.
#[test]
fn a_dance_that_opened_the_count_goes_on_in_the_portfolio() {
    use crate::models::Model;
    let known: [(Problem, u128); 3] = [
        (
            crate::models::queens::Queens::new(8)
                .unwrap()
                .problem()
                .clone(),
            92,
        ),
        (
            crate::models::langford::Langford::new(8)
                .unwrap()
                .problem()
                .clone(),
            300,
        ),
        (
            crate::models::matchings::Matchings::new(12)
                .unwrap()
                .problem()
                .clone(),
            10395,
        ),
    ];
    for (problem, want) in &known {
        for opener in [1, 7, 40, 300] {
            for slice in [1, 30] {
                let Some(out) = count_after_an_opener(problem, opener, slice) else {
                    continue;
                };
                assert_eq!(out.end, End::Exhausted);
                assert_eq!(out.count, *want, "opener {opener}, slice {slice}");
            }
        }
    }
    let mut rng = crate::random::SplitMix64::new(5);
    let mut counted = 0;
    for _ in 0..300 {
        let problem = crate::engine::search::cells::tests::random_problem(&mut rng);
        let Ok(mut dense) = crate::engine::Dense::new(&problem) else {
            continue;
        };
        let want = u128::from(dense.count(&Budget::unlimited()).stats.solutions());
        let opener = 1 + rng.below(20);
        if let Some(out) = count_after_an_opener(&problem, opener, 1 + rng.below(5)) {
            assert_eq!((out.end, out.count), (End::Exhausted, want));
            counted += 1;
        }
    }
    assert!(
        counted > 20,
        "only {counted} random problems went on past the opener"
    );
}

/// The dance leads only on an estimate within the horizon; the other searches on any.
#[test]
fn the_dance_leads_only_on_evidence() {
    let problem = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&problem);
    let solver = Solver::new(problem);
    let memo = Memo::new(solver.memo_words(), 1 << 20);
    let mut dance = Entrant {
        search: Runner::Dance {
            solver: Box::new(solver),
            memo: Box::new(memo),
        },
        time: Duration::from_millis(10),
        nodes: 100,
        progress: 0.5,
        first: Some((Duration::from_millis(5), 0.25)),
        marks: Vec::new(),
        saved: Some(1000),
        last_turn: None,
        plain_tree: None,
        granted: Duration::from_millis(10),
        part: 1 << 20,
    };
    // Half the tree left at a quarter per 5 ms: 10 ms, within 100 × 10 ms.
    assert!((dance.remaining() - 0.01).abs() < 1e-9);
    assert!(dance.may_lead(0.01));
    // The same estimate, 10 µs into the count: no evidence.
    assert!(!dance.may_lead(1e-5));
    // A table that has not halved the work: an infinite estimate, never evidence.
    dance.saved = Some(10);
    assert!(!dance.may_lead(1e9));
    // The dance in frontier order leads on any estimate, as the plain search does.
    let mut frontier = Entrant::memoised(new_dance(problem, 1 << 20, true), 1 << 20);
    frontier.time = Duration::from_millis(10);
    frontier.progress = 1e-9;
    assert!(frontier.may_lead(1e-5));
}

/// The dance of fewest options first estimates its time left in the plain tree's nodes
/// too, and takes the lesser: the nodes it has not covered at the rate it covered them.
#[test]
fn the_dance_estimates_by_the_plain_tree_it_covers() {
    let problem = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&problem);
    let solver = Solver::new(problem);
    let memo = Memo::new(solver.memo_words(), 1 << 20);
    let mut dance = Entrant::memoised(
        Runner::Dance {
            solver: Box::new(solver),
            memo: Box::new(memo),
        },
        1 << 20,
    );
    dance.time = Duration::from_millis(10);
    dance.nodes = 100;
    dance.progress = 0.5;
    dance.first = Some((Duration::from_millis(5), 0.25));
    dance.saved = Some(900);
    // By Knuth's fraction: 10 ms left. Without an estimate of the plain tree, that.
    assert!((dance.remaining() - 0.01).abs() < 1e-9);
    // 1,000 nodes of a plain tree of 1,500 covered in 10 ms: 5 ms left.
    dance.plain_tree = Some(1500.0);
    assert!((dance.remaining() - 0.005).abs() < 1e-9);
    // A plain tree of 5,000: 40 ms by it, 10 by the fraction.
    dance.plain_tree = Some(5000.0);
    assert!((dance.remaining() - 0.01).abs() < 1e-9);
    // An estimate of the plain tree below the nodes covered is proved wrong: ignored.
    dance.plain_tree = Some(800.0);
    assert!((dance.remaining() - 0.01).abs() < 1e-9);
    // A table that has not halved the work: infinite, whatever the plain tree.
    dance.plain_tree = Some(1500.0);
    dance.saved = Some(50);
    assert!(dance.remaining().is_infinite());
}

/// A turn that ran over its share is paid back: the search skips turns until its shares
/// add up to the time it took, then gets what they exceed it by.
#[test]
fn a_turn_that_ran_over_is_paid_back() {
    let problem = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&problem);
    let mut frontier = Entrant::memoised(new_dance(problem, 1 << 20, true), 1 << 20);
    let ms = Duration::from_millis;
    assert_eq!(frontier.grant(ms(1)), Some(ms(1)));
    // Granted 1 ms, it took 5.
    frontier.time = ms(5);
    assert_eq!(frontier.grant(ms(1)), None);
    assert_eq!(frontier.grant(ms(2)), None);
    assert_eq!(frontier.grant(ms(1)), None);
    // 6 ms granted in all against 5 taken: a turn of 1 ms.
    assert_eq!(frontier.grant(ms(1)), Some(ms(1)));
    // A turn that ended early leaves its rest to the next.
    frontier.time = ms(5) + Duration::from_micros(200);
    assert_eq!(
        frontier.grant(ms(1)),
        Some(ms(1) + Duration::from_micros(800))
    );
}

/// An entrant of `frontier` order that estimates `left` seconds left after 10 ms (half
/// its tree done by then, from a first turn of 5 ms at a quarter), its table having spared
/// it `saved` nodes of 100 visited (`None`: the plain search).
fn entrant(problem: &Problem, frontier: bool, left: f64, saved: Option<u64>) -> Entrant<'_> {
    // Half the tree left at a quarter per (time − 5 ms): `left` seconds.
    let time = 0.005 + 2.0 * left * 0.25;
    Entrant {
        search: Runner::Unbuilt {
            problem,
            memo_bytes: 1 << 20,
            frontier,
        },
        part: if saved.is_some() { 1 << 20 } else { 0 },
        time: Duration::from_secs_f64(time),
        nodes: 100,
        progress: 0.5,
        first: Some((Duration::from_millis(5), 0.25)),
        marks: Vec::new(),
        saved,
        last_turn: None,
        plain_tree: None,
        granted: Duration::ZERO,
    }
}

/// The leader is the search of least estimate among those that may lead; a memoised
/// search whose table has not halved its work never leads.
#[test]
fn the_leader_is_the_least_estimate() {
    let queens = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&queens);
    // The plain search 0.47 s, the frontier order 0.37, the other dance 0.39.
    let mut entrants = vec![
        entrant(problem, true, 0.47, None),
        entrant(problem, true, 0.37, Some(150)),
        entrant(problem, true, 0.39, Some(300)),
    ];
    assert_eq!(leader(&entrants, 1.0), 1);
    // A table that has not halved the work: the next.
    entrants[1].saved = Some(99);
    assert_eq!(leader(&entrants, 1.0), 2);
    // The plain search of least estimate, or on a tie: the plain search.
    entrants[0] = entrant(problem, true, 0.3, None);
    assert_eq!(leader(&entrants, 1.0), 0);
    entrants[0] = entrant(problem, true, 0.39, None);
    assert_eq!(leader(&entrants, 1.0), 0);
    // No table pays: the plain search, whatever the estimates.
    entrants[0] = entrant(problem, true, 10.0, None);
    entrants[2].saved = Some(50);
    assert_eq!(leader(&entrants, 1.0), 0);
}

/// The tables follow the time: within the memo's memory together, the leader's table
/// may take what a table that does not lead holds beyond its needs this round.
#[test]
fn the_tables_follow_the_leader_within_the_memory() {
    let queens = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&queens);
    let all = 64u64 << 20;
    let bound = |e: &Entrant<'_>| match &e.search {
        Runner::Unbuilt { memo_bytes, .. } => *memo_bytes,
        _ => unreachable!("the bound of a table not built is its size when built"),
    };
    // The plain search, the dance in frontier order (built, its table small, 10 ms of
    // time), the other dance (not built: its bound is what it will be built within).
    let mut entrants = vec![
        entrant(problem, true, 0.47, None),
        Entrant::memoised(new_dance(problem, all / 4 * 3, true), all / 4 * 3),
        Entrant::memoised(
            Runner::Unbuilt {
                problem,
                memo_bytes: all / 4,
                frontier: false,
            },
            all / 4,
        ),
    ];
    entrants[1].time = Duration::from_millis(10);
    let held = entrants[1].table_bytes();
    assert!(held > 0 && held < all / 64);
    // The plain search leads: each table its part.
    share_memory(&mut entrants, 0, all, Duration::from_millis(1));
    assert_eq!(bound(&entrants[2]), all / 4);
    // The dance of fewest options first leads; the other's share of the round (1 ms) is
    // less than its time so far (10 ms): its table keeps what it holds, the leader's may
    // take the rest.
    share_memory(&mut entrants, 2, all, Duration::from_millis(1));
    assert_eq!(bound(&entrants[2]), all - held);
    assert_eq!(entrants[1].table_bytes(), held);
    // A share as long as its time so far: its table may double.
    share_memory(&mut entrants, 2, all, Duration::from_millis(10));
    assert_eq!(bound(&entrants[2]), all - 2 * held);
    // The dance in frontier order leads: the other, not built, keeps its part.
    share_memory(&mut entrants, 1, all, Duration::from_millis(1));
    assert_eq!(bound(&entrants[2]), all / 4);
    // The plain search leads again: the tables back to their parts.
    share_memory(&mut entrants, 0, all, Duration::from_millis(1));
    assert_eq!(bound(&entrants[2]), all / 4);
    // A table past its part (it grew while its search led) shrinks back to it when its
    // search does not lead, keeping what fits.
    let mut memo = Memo::new(2, 1 << 20);
    for k in 0..4000u64 {
        memo.store(Memo::hash(&[k, 0]), &[k, 0], u128::from(k), 1);
    }
    let grown = memo.bytes();
    assert!(grown > 64 << 10);
    memo.bound_to(64 << 10);
    assert!(memo.bytes() <= 64 << 10 && memo.bytes() > 0);
    assert_eq!(memo.stats().bytes, grown);
    // What it kept is exact; what it forgot is not found.
    let kept = (0..4000u64)
        .filter(|&k| {
            let found = memo.get(Memo::hash(&[k, 0]), &[k, 0]);
            assert!(found.is_none_or(|c| c == u128::from(k)));
            found.is_some()
        })
        .count();
    assert!(kept > 0 && kept < 4000);
}

#[test]
fn a_round_is_even_only_while_no_estimate_is_evidence_and_the_table_pays() {
    // 10 ms spent; the plain search leads on estimates of years: even.
    let spent = 0.01;
    assert!(is_even_round(0, &[(2e9, true), (1e12, true)], spent));
    // An estimate within the horizon (a second here) is evidence: the leader leads.
    assert!(!is_even_round(0, &[(0.5, true), (1e12, true)], spent));
    assert!(!is_even_round(0, &[(2e9, true), (0.9, true)], spent));
    // A memoised search whose table does not pay, or that leads already: no even round.
    assert!(!is_even_round(0, &[(2e9, true), (1e12, false)], spent));
    assert!(!is_even_round(1, &[(2e9, true), (1e3, true)], spent));
    // Infinite estimates (no progress yet) are no evidence either.
    assert!(is_even_round(
        0,
        &[(f64::INFINITY, true), (f64::INFINITY, true)],
        spent
    ));
}

/// A search's estimate is the longer of its pace since its first turn and its pace over the
/// latest half of its time: a fraction that jumped, then stalled, estimates by the stall.
#[test]
fn a_stalled_estimate_counts_by_its_latest_half() {
    let queens = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&queens);
    let mut plain = entrant(problem, true, 0.0, None);
    // Its first turn ended at 10 ms at 0.1; `marks` (ms, fraction) since, `time` ms now at
    // `progress`.
    plain.first = Some((Duration::from_millis(10), 0.1));
    let mut left = |marks: &[(u64, f64)], time: u64, progress: f64| {
        plain.marks = (marks.iter())
            .map(|&(ms, f)| (Duration::from_millis(ms), f))
            .collect();
        plain.time = Duration::from_millis(time);
        plain.progress = progress;
        plain.pace_left()
    };
    // The fraction jumped to 0.9 at 20 ms, and is 0.91 at 60. Since the first turn: 50 ms
    // for 0.81, 0.09 left: 5.6 ms. Since the latest mark at or before 30 ms (20 ms, 0.9):
    // 40 ms for 0.01, 0.09 left: 360 ms.
    let marks = [(10, 0.1), (20, 0.9), (40, 0.905)];
    assert!((left(&marks, 60, 0.91) - 0.36).abs() < 1e-9);
    // A steady pace: both windows agree.
    assert!((left(&[(10, 0.1), (30, 0.3)], 60, 0.6) - 0.04).abs() < 1e-9);
    // No mark in the first half after the first turn: the pace since the first turn.
    assert!((left(&[(10, 0.1)], 15, 0.2) - 0.04).abs() < 1e-9);
    // A stall over the latest half: no pace, an infinite estimate.
    assert!(left(&[(10, 0.1), (20, 0.9)], 60, 0.9).is_infinite());
}

/// A leader that has had twice the time it estimated since its round began, and has not
/// ended the count, broke its promise: if it would lead again while another search has no
/// estimate, the round is shared evenly.
#[test]
fn a_leader_that_broke_its_promise_shares_the_next_round() {
    let queens = crate::models::queens::Queens::new(6).unwrap();
    let problem = crate::models::Model::problem(&queens);
    // The other's table has not paid: no estimate.
    let mut entrants = vec![
        entrant(problem, true, 0.1, None),
        entrant(problem, true, 0.2, Some(50)),
    ];
    let now = entrants[0].time;
    let at = |since: f64| now - Duration::from_secs_f64(since);
    // It estimated 0.02 s: 0.05 s since is more than twice that.
    assert!(broke_its_promise(&entrants, 0, (0, 0.02, at(0.05))));
    // 0.03 s since is less than twice: it may still be right.
    assert!(!broke_its_promise(&entrants, 0, (0, 0.02, at(0.03))));
    // Another search leads this round: nothing to judge.
    assert!(!broke_its_promise(&entrants, 1, (0, 0.02, at(0.05))));
    // An infinite estimate promised nothing.
    assert!(!broke_its_promise(
        &entrants,
        0,
        (0, f64::INFINITY, at(0.05))
    ));
    // Every other search has an estimate: the least leads, whatever the promise.
    entrants[1].saved = Some(150);
    assert!(!broke_its_promise(&entrants, 0, (0, 0.02, at(0.05))));
}
