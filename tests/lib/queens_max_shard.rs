//! Tests: weighted proofs split over shards (`queens max --shard I/M`, `--floor F`) and their
//! merge (issue 14 §2): the merged shards give the unsharded optimum and layout (checked
//! against brute force where it is cheap), a floor above the optimum leaves every shard
//! without a layout, shards cut short are never optimal, and tampered, mixed, missing or
//! duplicate records are refused.

use std::time::Duration;

use crate::common::{located, placements, score};

use dancelinks::engine::Budget;
use dancelinks::engine::optimize::Sense;
use dancelinks::engine::optimize::Status;
use dancelinks::queens;
use dancelinks::queens::weighted::{
    BoundKind, Method, PartRequest, Request, SplitMix64, WeightedQueens, check_record, fingerprint,
    layout_text, parse_layout, random_boards,
};
use dancelinks::records::{self as shard, Kind, Problem, Shard, ShardRecord};

/// The maximum and the lexicographically smallest optimal layout, by brute force.
fn brute_best(n: usize, board: &[i64]) -> (i128, Vec<u32>) {
    let all = placements(n);
    let best = all.iter().map(|q| score(n, board, q)).max().unwrap();
    let first = all
        .into_iter()
        .filter(|q| score(n, board, q) == best)
        .min()
        .unwrap();
    (best, first)
}

/// The records of the m shards of a board.
fn shards(
    model: &mut WeightedQueens,
    board: &[i64],
    m: u64,
    floor: Option<i128>,
    req: &Request,
) -> Vec<ShardRecord> {
    (1..=m)
        .map(|i| {
            let shard = Shard::new(i, m).unwrap();
            let part = PartRequest {
                shard: Some(shard.as_pair()),
                floor,
            };
            let p = model.solve_part(board, req, &part);
            let r = p.record(board, shard, 0.01);
            check_record(&r).unwrap_or_else(|e| panic!("shard {i}/{m}: {e}: {r:?}"));
            r
        })
        .collect()
}

fn merged(records: &[ShardRecord]) -> ShardRecord {
    shard::merge(&located(records, "w.jsonl"), &queens::record_rules())
        .unwrap_or_else(|e| panic!("{e}"))
        .total
}

/// Boards with many ties (numbers 1..3) and without (1..99), n = 9..13: for M = 1, 4, 16 and
/// with no floor, a floor below the optimum and at it, the merged shards give the maximum and
/// the layout of the unsharded search (the smallest optimal one, by brute force for n <= 11);
/// on 1 and 2 threads.
#[test]
fn merged_shards_give_the_unsharded_optimum_and_layout() {
    let mut cases = Vec::new();
    for (n, seed, hi) in [(9, 1, 3), (10, 2, 99), (11, 3, 3), (11, 4, 99), (12, 5, 99)] {
        cases.push((n, random_boards(n, 1, seed, 1, hi).remove(0)));
    }
    cases.push((13, random_boards(13, 1, 6, 1, 99).remove(0)));
    for (n, board) in cases {
        let mut model = WeightedQueens::new(n);
        let whole = model.solve(
            &board,
            &Request {
                method: Method::BranchBound(BoundKind::Lagrangian(15)),
                ..Request::default()
            },
        );
        assert_eq!(whole.status, Status::Optimal);
        let best = whole.maximum().unwrap();
        let layout = whole.layouts[0].queens.clone();
        if n <= 11 {
            assert_eq!((best, layout.clone()), brute_best(n, &board), "n={n}");
        }
        for m in [1, 4, 16] {
            for floor in [None, Some(best - 25), Some(best)] {
                if floor.is_none() && m == 16 && n >= 12 {
                    // Without a floor every shard proves the best of its part: slow in debug.
                    continue;
                }
                let threads = if m == 4 { 2 } else { 1 };
                let req = Request {
                    threads,
                    ..Request::default()
                };
                let records = shards(&mut model, &board, m, floor, &req);
                let t = merged(&records);
                let what = format!("n={n} M={m} floor={floor:?}");
                assert_eq!(t.status, shard::Status::Optimal, "{what}");
                assert_eq!((t.value, t.bound), (Some(best), Some(best)), "{what}");
                assert_eq!(
                    t.layout.as_deref(),
                    Some(&layout_text(&layout)[..]),
                    "{what}"
                );
                assert_eq!(t.floor, floor, "{what}");
                assert_eq!((t.shard, t.shards), (1, 1), "{what}");
                // Every shard's value is a real layout's, within its bound.
                for r in &records {
                    if let (Some(v), Some(l)) = (r.value, &r.layout) {
                        let q = parse_layout(l, n).unwrap();
                        assert_eq!(score(n, &board, &q), v, "{what}");
                        assert!(v <= best);
                    }
                }
            }
        }
    }
}

/// With the floor one above the optimum, every shard proves that nothing in its part reaches
/// it: no layout, bound = the optimum; merged, `below-floor` with that bound. The same without
/// shards (`--floor` alone).
#[test]
fn a_floor_above_the_optimum_leaves_every_shard_without_a_layout() {
    for (n, seed) in [(10, 11), (12, 12), (14, 13)] {
        let board = random_boards(n, 1, seed, 1, 99).remove(0);
        let mut model = WeightedQueens::new(n);
        let best = model.solve(&board, &Request::default()).maximum().unwrap();
        let req = Request::default();
        for m in [1, 4, 16] {
            let records = shards(&mut model, &board, m, Some(best + 1), &req);
            for r in &records {
                assert_eq!(r.status, shard::Status::BelowFloor, "n={n} M={m}: {r:?}");
                assert_eq!((r.value, r.bound), (None, Some(best)));
                assert!(r.layout.is_none());
            }
            let t = merged(&records);
            assert_eq!(t.status, shard::Status::BelowFloor);
            assert_eq!(
                (t.value, t.bound, t.floor),
                (None, Some(best), Some(best + 1))
            );
        }
        for method in [
            Method::Auto,
            Method::Enumerate,
            Method::BranchBound(BoundKind::Assignment),
        ] {
            let req = Request {
                method,
                ..Request::default()
            };
            let part = PartRequest {
                shard: None,
                floor: Some(best + 1),
            };
            let p = model.solve_part(&board, &req, &part);
            assert!(p.below_floor, "n={n} {method:?}");
            assert_eq!(p.result.status, Status::Infeasible);
            assert_eq!((p.result.maximum(), p.result.bound), (None, Some(best)));
            let part = PartRequest {
                shard: None,
                floor: Some(best),
            };
            let p = model.solve_part(&board, &req, &part);
            assert!(!p.below_floor);
            assert_eq!(p.result.status, Status::Optimal);
            assert_eq!(
                (p.result.maximum(), p.result.bound),
                (Some(best), Some(best))
            );
        }
    }
}

/// Boards without any layout (n = 2, 3) are infeasible, floor or not; n = 1 has its one.
#[test]
fn the_smallest_boards() {
    for n in 1..=5 {
        let board = random_boards(n, 1, 61, 1, 99).remove(0);
        let mut model = WeightedQueens::new(n);
        for floor in [None, Some(1)] {
            let t = merged(&shards(&mut model, &board, 3, floor, &Request::default()));
            if n == 2 || n == 3 {
                assert_eq!(t.status, shard::Status::Infeasible, "n={n}");
                assert_eq!((t.value, t.bound), (None, None));
            } else {
                let (best, layout) = brute_best(n, &board);
                assert_eq!(t.status, shard::Status::Optimal, "n={n}");
                assert_eq!(t.value, Some(best));
                assert_eq!(t.layout, Some(layout_text(&layout)));
            }
        }
    }
}

/// The other bounds split too (each its own split: the method is in the record).
#[test]
fn every_bound_splits() {
    let n = 11;
    let board = random_boards(n, 1, 21, -20, 99).remove(0);
    let (best, layout) = brute_best(n, &board);
    let mut model = WeightedQueens::new(n);
    for kind in [
        BoundKind::Assignment,
        BoundKind::Lagrangian(4),
        BoundKind::RankFileMax,
        BoundKind::Generic,
    ] {
        let req = Request {
            method: Method::BranchBound(kind),
            ..Request::default()
        };
        for m in [1, 5] {
            let t = merged(&shards(&mut model, &board, m, Some(best - 10), &req));
            assert_eq!(t.status, shard::Status::Optimal, "{kind:?}");
            assert_eq!(t.value, Some(best), "{kind:?}");
            assert_eq!(t.layout, Some(layout_text(&layout)), "{kind:?}");
        }
    }
}

/// Shards out of time are never optimal: each reports the best layout it has (a real one)
/// and, when it proved one, a bound at least the optimum; merged, the status is not optimal
/// unless every shard finished.
#[test]
fn shards_cut_short_are_not_optimal() {
    let n = 14;
    let board = random_boards(n, 1, 31, 1, 99).remove(0);
    let mut model = WeightedQueens::new(n);
    let best = model.solve(&board, &Request::default()).maximum().unwrap();
    for floor in [None, Some(best - 40)] {
        let req = Request {
            budget: Budget::unlimited().with_time(Duration::ZERO),
            ..Request::default()
        };
        let records = shards(&mut model, &board, 4, floor, &req);
        for r in &records {
            assert!(
                matches!(r.status, shard::Status::Feasible | shard::Status::Time),
                "{r:?}"
            );
            if let Some(v) = r.value {
                let q = parse_layout(r.layout.as_deref().unwrap(), n).unwrap();
                assert_eq!(score(n, &board, &q), v);
            }
            assert!(r.bound.is_none_or(|b| b >= best), "{r:?}");
        }
        let t = merged(&records);
        assert_ne!(t.status, shard::Status::Optimal);
        assert!(t.bound.is_none_or(|b| b >= best), "{t:?}");
        assert!(t.value.is_none_or(|v| v <= best));
        // One shard finished, the others not: still not optimal.
        let mut mixed = shards(&mut model, &board, 4, floor, &Request::default());
        mixed[2] = records[2].clone();
        assert_ne!(merged(&mixed).status, shard::Status::Optimal);
    }
}

/// Equal values: the merge keeps the smallest layout, compared as numbers (9 before 10).
#[test]
fn ties_go_to_the_smallest_layout() {
    let n = 11;
    let board = vec![1i64; n * n];
    let mut model = WeightedQueens::new(n);
    let records = shards(&mut model, &board, 4, None, &Request::default());
    let t = merged(&records);
    let smallest = placements(n).into_iter().min().unwrap();
    assert_eq!(t.layout, Some(layout_text(&smallest)));
    assert_eq!(t.value, Some(n as i128));
    // Two records with layouts that differ in the order of "9" and "10" as text.
    let a = "9,0,2,4,6,8,10,1,3,5,7";
    let b = "10,1,3,5,7,9,0,2,4,6,8";
    let mut pair = Vec::new();
    for (i, l) in [(1, b), (2, a)] {
        let q = parse_layout(l, n).unwrap_or_else(|| panic!("{l} is a placement"));
        let mut r = ShardRecord::new(
            Kind::QueensMax,
            fingerprint(n, &board),
            Shard::new(i, 2).unwrap(),
        );
        r.n = Some(n as u32);
        r.engine = Some("lagrangian-15".into());
        r.sense = Some(Sense::Maximize);
        r.status = shard::Status::Optimal;
        r.value = Some(score(n, &board, &q));
        r.bound = r.value;
        r.layout = Some(l.into());
        pair.push(r.seal());
    }
    assert_eq!(merged(&pair).layout.as_deref(), Some(a));
}

/// Refused: an edited field (check), records of another board (fingerprint), another floor or
/// method, a count record among them (kind), a missing and a duplicate shard, and records
/// that break the kind's rules (resealed, so that the check passes).
#[test]
fn tampered_mixed_missing_and_duplicate_records_are_refused() {
    let n = 12;
    let boards = random_boards(n, 2, 41, 1, 99);
    let mut model = WeightedQueens::new(n);
    let req = Request::default();
    let best = model.solve(&boards[0], &req).maximum().unwrap();
    let good = shards(&mut model, &boards[0], 4, Some(best - 30), &req);
    merged(&good);
    let refuse = |records: Vec<ShardRecord>, want: &dyn Fn(&Problem) -> bool| {
        let e = shard::merge(&located(&records, "w.jsonl"), &queens::record_rules())
            .expect_err("refused");
        assert!(e.problems.iter().any(want), "{e}");
        e.to_string()
    };
    // An edited value.
    let mut r = good.clone();
    r[1].value = r[1].value.map(|v| v + 1);
    refuse(r, &|p| matches!(p, Problem::BadCheck { .. }));
    // A shard of the other board.
    let other = shards(&mut model, &boards[1], 4, Some(best - 30), &req);
    let mut r = good.clone();
    r[3] = other[3].clone();
    let msg = refuse(
        r,
        &|p| matches!(p, Problem::Mixed { field, .. } if *field == "fingerprint"),
    );
    assert!(msg.contains("w.jsonl:4"), "{msg}");
    // Another floor, another method.
    let mut r = good.clone();
    r[0] = shards(&mut model, &boards[0], 4, Some(best - 31), &req).remove(0);
    refuse(
        r,
        &|p| matches!(p, Problem::Mixed { field, .. } if *field == "floor"),
    );
    let mut r = good.clone();
    let assignment = Request {
        method: Method::BranchBound(BoundKind::Assignment),
        ..Request::default()
    };
    r[2] = shards(&mut model, &boards[0], 4, Some(best - 30), &assignment).remove(2);
    refuse(
        r,
        &|p| matches!(p, Problem::Mixed { field, .. } if *field == "engine"),
    );
    // A queens count record.
    let count = dancelinks::queens::count::Request {
        shard: Shard::new(2, 4).unwrap(),
        ..dancelinks::queens::count::Request::new(6)
    };
    let c = dancelinks::queens::count::count(&count, &|_, _, _| {})
        .unwrap()
        .record(&count, 0.1);
    let mut r = good.clone();
    r[1] = c;
    refuse(
        r,
        &|p| matches!(p, Problem::Mixed { field, .. } if *field == "kind"),
    );
    // Missing and duplicate shards.
    let mut r = good.clone();
    r.remove(2);
    let msg = refuse(r, &|p| matches!(p, Problem::Missing { .. }));
    assert!(msg.contains("missing shards of 4: 3"), "{msg}");
    let mut r = good.clone();
    r.push(good[1].clone());
    let msg = refuse(r, &|p| matches!(p, Problem::Duplicate { .. }));
    assert!(
        msg.contains("duplicate shard 2/4: 2 records, at w.jsonl:2, w.jsonl:5"),
        "{msg}"
    );
    // Resealed records that break the rules.
    type Edit = fn(&mut ShardRecord);
    let broken: Vec<(&str, Edit)> = vec![
        ("an attacking layout", |r| {
            r.layout = Some(layout_text(&(0..r.n.unwrap()).collect::<Vec<_>>()))
        }),
        ("optimal with a bound above the value", |r| {
            r.status = shard::Status::Optimal;
            r.bound = r.value.map(|v| v + 1)
        }),
        ("a value below the floor", |r| {
            r.value = r.floor.map(|f| f - 1);
            r.bound = r.value
        }),
        ("below the floor with a value", |r| {
            r.status = shard::Status::BelowFloor
        }),
        ("an unknown method", |r| {
            r.engine = Some("lagrangian".into())
        }),
        ("a count's status", |r| r.status = shard::Status::Complete),
    ];
    let with_value = good.iter().position(|r| r.value.is_some()).unwrap();
    for (what, edit) in broken {
        let mut r = good.clone();
        edit(&mut r[with_value]);
        r[with_value] = r[with_value].clone().seal();
        assert!(check_record(&r[with_value]).is_err(), "{what}");
        refuse(r, &|p| matches!(p, Problem::Invalid { .. }));
    }
}

/// The split does not depend on the threads or on the seed layout: the shards' parts are the
/// same on 1 and 3 threads, and the merged layout too.
#[test]
fn the_split_is_the_same_on_any_number_of_threads() {
    let n = 13;
    let board = random_boards(n, 1, 51, 1, 99).remove(0);
    let mut model = WeightedQueens::new(n);
    let mut g = SplitMix64::new(5);
    let best = model.solve(&board, &Request::default()).maximum().unwrap();
    let floor = Some(best - g.range(0, 30) as i128);
    let mut totals = Vec::new();
    for threads in [1, 3] {
        let req = Request {
            threads,
            ..Request::default()
        };
        let records = shards(&mut model, &board, 6, floor, &req);
        let tasks: Vec<u64> = records.iter().map(|r| r.tasks).collect();
        let t = merged(&records);
        totals.push((tasks, t.value, t.layout));
    }
    assert_eq!(totals[0], totals[1]);
}
