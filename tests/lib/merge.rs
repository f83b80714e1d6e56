//! Tests: shard records (`dancelinks::records`) and `xcover merge`: every single edit of a field
//! is caught, the queens rules (n in range, unique <= solutions <= 8·unique, fingerprint),
//! duplicates named by file and line, long lines, and the optimisation rules.

use std::io::Cursor;

use crate::common::{located, queens_shards, text};

use dancelinks::engine::fnv1a64;
use dancelinks::engine::optimize::Sense;
use dancelinks::io::export::Format;
use dancelinks::io::shard::{MAX_LINE, read_records};
use dancelinks::queens;
use dancelinks::records::{
    Hex64, Kind, Located, MergeError, Merged, Problem, Shard, ShardRecord, Status,
};

/// The merge with the queens rules, as `xcover merge` runs it.
fn merge(records: &[Located]) -> Result<Merged, MergeError> {
    dancelinks::records::merge(records, &queens::record_rules())
}
use dancelinks::queens::count::Engine;

#[test]
fn fnv1a64_matches_the_published_test_vectors() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
}

#[test]
fn records_round_trip_through_every_format_with_their_check() {
    let records = queens_shards(9, 3, Engine::Dlx, true);
    for format in [Format::Json, Format::Csv, Format::Text] {
        let t = text(&records, format);
        let back = read_records(&mut Cursor::new(t.as_bytes()), "f").unwrap();
        let back: Vec<ShardRecord> = back.into_iter().map(|l| l.record).collect();
        assert_eq!(back, records, "{format:?}");
        let total = merge(&located(&back, "r.jsonl")).unwrap().total;
        assert_eq!((total.solutions, total.unique), (352, Some(46)));
        assert_eq!(total.status, Status::Complete);
    }
    // The check is FNV-1a 64 of the text line without its check.
    let r = &records[0];
    let line = r.text_line();
    let (canonical, check) = line.rsplit_once(" check=").unwrap();
    assert_eq!(check, format!("{:016x}", fnv1a64(canonical.as_bytes())));
}

type Edit = Box<dyn Fn(&mut ShardRecord)>;

/// Every field that enters the total, changed alone (as an accident would), is caught.
#[test]
fn any_single_edit_of_a_field_is_caught() {
    let records = queens_shards(9, 2, Engine::Dlx, true);
    let good = &records[0];
    let edits: Vec<(&str, Edit)> = vec![
        ("record", Box::new(|r| r.record = "shards".into())),
        ("kind", Box::new(|r| r.kind = Kind::SolveCount)),
        ("fingerprint", Box::new(|r| r.fingerprint.0 ^= 1)),
        ("n", Box::new(|r| r.n = Some(10))),
        ("engine", Box::new(|r| r.engine = Some("bits".into()))),
        ("symmetry", Box::new(|r| r.symmetry = Some("mirror".into()))),
        ("shard", Box::new(|r| r.shard = 2)),
        ("shards", Box::new(|r| r.shards = 3)),
        ("solutions +P", Box::new(|r| r.solutions += 1_000_000_007)),
        ("solutions", Box::new(|r| r.solutions += 1)),
        ("unique", Box::new(|r| r.unique = Some(1_000_000))),
        ("unique flag", Box::new(|r| r.unique = None)),
        ("nodes", Box::new(|r| r.nodes += 1)),
        (
            "updates",
            Box::new(|r| r.updates = r.updates.map(|u| u + 1)),
        ),
        ("tasks", Box::new(|r| r.tasks += 1)),
        ("status", Box::new(|r| r.status = Status::Time)),
        ("value", Box::new(|r| r.value = Some(5))),
        ("seconds", Box::new(|r| r.seconds += 1.0)),
        ("check", Box::new(|r| r.check.0 ^= 1 << 40)),
    ];
    for (what, edit) in edits {
        let mut bad = records.clone();
        edit(&mut bad[0]);
        assert_ne!(&bad[0], good, "{what}");
        let err = merge(&located(&bad, "r.jsonl")).unwrap_err();
        assert!(
            matches!(err.problems[0], Problem::BadCheck { .. }),
            "{what}: {err}"
        );
        // Also through the file formats.
        for format in [Format::Json, Format::Csv, Format::Text] {
            let t = text(&bad, format);
            let back = read_records(&mut Cursor::new(t.as_bytes()), "f").unwrap();
            assert!(merge(&back).is_err(), "{what}, {format:?}");
        }
    }
    // A truncated line is caught too (a parse error or a bad check).
    let t = text(&records, Format::Text);
    let cut = &t[..t.len() - 10];
    let merged = read_records(&mut Cursor::new(cut.as_bytes()), "f").map(|r| merge(&r));
    assert!(!matches!(merged, Ok(Ok(_))));
}

/// A record forged consistently (check recomputed) is still held to the queens rules.
#[test]
fn resealed_records_are_held_to_the_queens_rules() {
    let whole = queens_shards(8, 1, Engine::Dlx, true);
    assert_eq!(
        merge(&located(&whole, "r.jsonl")).unwrap().total.unique,
        Some(12)
    );
    let forged = |edit: &dyn Fn(&mut ShardRecord)| {
        let mut r = whole[0].clone();
        edit(&mut r);
        merge(&located(&[r.seal()], "r.jsonl"))
            .unwrap_err()
            .to_string()
    };
    let e = forged(&|r| r.unique = Some(1_000_000));
    assert!(e.contains("unique <= solutions <= 8·unique"), "{e}");
    let e = forged(&|r| r.solutions = 97);
    assert!(e.contains("unique <= solutions <= 8·unique"), "{e}");
    for n in [0, 40] {
        let e = forged(&|r| r.n = Some(n));
        assert!(e.contains(&format!("not {n}")), "{e}");
    }
    // A dlx shard relabelled bits: the fingerprint no longer fits.
    let e = forged(&|r| r.engine = Some("bits".into()));
    assert!(e.contains("fingerprint"), "{e}");
    let e = forged(&|r| r.engine = Some("gpu".into()));
    assert!(e.contains("unknown engine"), "{e}");
    // dlx and bits shards do not mix (340 instead of 352 before).
    let mut mixed = queens_shards(9, 2, Engine::Dlx, false);
    mixed[1] = queens_shards(9, 2, Engine::Bits, false)[1].clone();
    let e = merge(&located(&mixed, "r.jsonl")).unwrap_err().to_string();
    assert!(e.contains("records of different runs"), "{e}");
}

#[test]
fn bits_and_dlx_shards_each_merge_to_the_oeis_counts() {
    for engine in [Engine::Dlx, Engine::Bits] {
        for m in [1, 2, 5, 200] {
            let t = merge(&located(&queens_shards(11, m, engine, true), "r.jsonl"))
                .unwrap()
                .total;
            assert_eq!((t.solutions, t.unique), (2680, Some(341)), "{engine:?} {m}");
        }
    }
}

#[test]
fn a_line_longer_than_the_limit_is_an_error_at_once() {
    let mut t = text(&queens_shards(6, 1, Engine::Dlx, false), Format::Json);
    t.push_str(&"x".repeat(MAX_LINE + 1));
    let err = read_records(&mut Cursor::new(t.as_bytes()), "big").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("big:2:") && msg.contains("line too long"),
        "{err}"
    );
}

#[test]
fn an_old_record_without_a_check_is_refused_with_a_reason() {
    let old = "{\"n\":8,\"engine\":\"dlx\",\"shard\":1,\"shards\":1,\"solutions\":92,\
               \"unique\":null,\"nodes\":7,\"seconds\":1.5,\"residue\":92}\n";
    let err = read_records(&mut Cursor::new(old.as_bytes()), "old").unwrap_err();
    assert!(err.to_string().contains("older xcover"), "{err}");
}

/// Optimisation records: the best value wins, optimal only if every shard was proved.
#[test]
fn optimisation_shards_merge_to_the_best_value() {
    let fp = Hex64::of(b"some problem");
    let rec = |i: u64, status: Status, value: Option<i128>, bound: Option<i128>| {
        let mut r = ShardRecord::new(Kind::SolveOptimize, fp, Shard::new(i, 3).unwrap());
        r.sense = Some(Sense::Maximize);
        r.status = status;
        r.value = value;
        r.bound = bound;
        r.layout = value.map(|v| format!("best-{v}"));
        r.solutions = u128::from(value.is_some());
        r.seal()
    };
    let all = [
        rec(1, Status::Optimal, Some(10), Some(10)),
        rec(2, Status::Optimal, Some(17), Some(17)),
        rec(3, Status::Infeasible, None, None),
    ];
    let t = merge(&located(&all, "r.jsonl")).unwrap().total;
    assert_eq!(
        (t.status, t.value, t.bound),
        (Status::Optimal, Some(17), Some(17))
    );
    assert_eq!(t.layout.as_deref(), Some("best-17"));
    let some = [
        rec(1, Status::Optimal, Some(10), Some(10)),
        rec(2, Status::Feasible, Some(12), Some(30)),
        rec(3, Status::Infeasible, None, None),
    ];
    let t = merge(&located(&some, "r.jsonl")).unwrap().total;
    assert_eq!(
        (t.status, t.value, t.bound),
        (Status::Feasible, Some(12), Some(30))
    );
    let none = [
        rec(1, Status::Infeasible, None, None),
        rec(2, Status::Infeasible, None, None),
        rec(3, Status::Infeasible, None, None),
    ];
    let t = merge(&located(&none, "r.jsonl")).unwrap().total;
    assert_eq!((t.status, t.value), (Status::Infeasible, None));
}

#[test]
fn shard_strings_are_validated() {
    assert_eq!("3/10".parse::<Shard>().unwrap().as_pair(), (3, 10));
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

#[test]
fn missing_shards_are_named_as_ranges_whatever_the_split() {
    // One record of a split of 2^64 - 1 shards: the message says so at once, in ranges,
    // without a list of every missing shard.
    let mut r = queens_shards(6, 1, Engine::Dlx, false).remove(0);
    r.shards = u64::MAX;
    let e = merge(&located(&[r.seal()], "q.jsonl")).expect_err("refused");
    let msg = e.to_string();
    assert_eq!(
        msg,
        "missing shards of 18446744073709551615: 2..18446744073709551615 \
         (18,446,744,073,709,551,614 of 18,446,744,073,709,551,615)"
    );
    // Many gaps: the first few ranges, then how many in all.
    let records: Vec<ShardRecord> = queens_shards(6, 40, Engine::Dlx, false)
        .into_iter()
        .filter(|r| r.shard % 3 != 0 && r.shard != 10 && r.shard != 11)
        .collect();
    let msg = merge(&located(&records, "q.jsonl"))
        .expect_err("refused")
        .to_string();
    assert_eq!(
        msg,
        "missing shards of 40: 3, 6, 9..12, 15, 18, 21, 24, 27 (15 of 40)"
    );
    // A few: each named, no count.
    let mut records = queens_shards(6, 5, Engine::Dlx, false);
    records.retain(|r| r.shard != 2 && r.shard != 4);
    let msg = merge(&located(&records, "q.jsonl"))
        .expect_err("refused")
        .to_string();
    assert_eq!(msg, "missing shards of 5: 2, 4");
}

#[test]
fn values_quoted_in_messages_are_escaped_and_short() {
    let records = queens_shards(6, 2, Engine::Dlx, false);
    // An ESC (a terminal's escape sequence) in a field of one record.
    let mut bad = records.clone();
    bad[1].engine = Some("dlx\u{1b}[2J\u{202e}".into());
    bad[1] = bad[1].clone().seal();
    let msg = merge(&located(&bad, "q.jsonl"))
        .expect_err("refused")
        .to_string();
    assert!(
        !msg.contains('\u{1b}') && !msg.contains('\u{202e}'),
        "{msg:?}"
    );
    assert!(msg.contains("dlx\\u{1b}[2J\\u{202e}"), "{msg}");
    // The same value in every record reaches the queens rule, which quotes it too.
    let mut bad = records.clone();
    for r in &mut bad {
        r.engine = Some(format!("\u{feff}{}\u{85}", "x".repeat(10_000)));
        *r = r.clone().seal();
    }
    let msg = merge(&located(&bad, "q.jsonl"))
        .expect_err("refused")
        .to_string();
    assert!(msg.contains("unknown engine '\\u{feff}xxx"), "{msg}");
    assert!(
        !msg.contains('\u{feff}') && !msg.contains('\u{85}'),
        "{msg:?}"
    );
    assert!(msg.len() < 1_000, "{} bytes", msg.len());
}

#[test]
fn an_interrupted_shard_is_refused_unless_it_was_run_again() {
    let mut shards = queens_shards(10, 3, Engine::Dlx, false);
    // Shard 2 as an interrupt leaves it: a lower bound, status interrupted.
    let mut cut = shards[1].clone();
    cut.solutions /= 2;
    cut.status = Status::Interrupted;
    let cut = cut.seal();
    let alone = vec![shards[0].clone(), cut.clone(), shards[2].clone()];
    let e = merge(&located(&alone, "r.jsonl")).expect_err("refused");
    assert!(e.to_string().contains("shard 2 was interrupted"), "{e}");
    // Run again (`parallel --resume-failed` appends the new record): the new one counts.
    shards.insert(1, cut);
    let t = merge(&located(&shards, "r.jsonl")).unwrap().total;
    assert_eq!((t.solutions, t.status), (724, Status::Complete));
}
