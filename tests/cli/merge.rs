//! Tests: shard records (`dancelinks::records`) and `xcover merge`: every single edit of a field
//! is caught, the queens rules (n in range, unique <= solutions <= 8·unique, fingerprint),
//! duplicates named by file and line, long lines, and the optimisation rules.

use predicates::prelude::*;

use crate::common::{queens_shards, text, xcover};

use dancelinks::io::export::Format;
use dancelinks::queens::count::{Engine, Request};
use dancelinks::queens::model::Reduction;

#[test]
fn symmetry_that_does_not_apply_is_rejected() {
    let mut request = Request::new(8);
    request.engine = Engine::Bits;
    request.symmetry = Some(Reduction::None);
    assert!(request.validate().is_err());
    request.symmetry = Some(Reduction::Full);
    assert!(request.validate().is_ok());
    xcover()
        .args([
            "queens",
            "count",
            "8",
            "--engine",
            "bits",
            "--symmetry",
            "mirror",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--symmetry mirror does not apply"));
}

#[test]
fn duplicates_in_a_json_lines_file_are_named_by_line() {
    let records = queens_shards(8, 3, Engine::Dlx, false);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.jsonl");
    let with_dup = [
        records[0].clone(),
        records[1].clone(),
        records[2].clone(),
        records[1].clone(),
    ];
    std::fs::write(&path, text(&with_dup, Format::Json)).unwrap();
    xcover()
        .arg("merge")
        .arg(&path)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("duplicate shard 2/3"))
        .stderr(predicate::str::contains("all.jsonl:2, "))
        .stderr(predicate::str::contains("all.jsonl:4"));
    // Without the duplicate: the total.
    std::fs::write(&path, text(&records, Format::Json)).unwrap();
    xcover()
        .arg("merge")
        .arg(&path)
        .assert()
        .success()
        .stdout("92\n");
}

#[test]
fn estimate_prints_alone_and_suggests_shards_for_long_counts() {
    let out = xcover()
        .args([
            "queens",
            "count",
            "24",
            "--estimate",
            "--engine",
            "dlx",
            "-t",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("estimate: n=24 engine=dlx"), "{text}");
    assert!(text.contains("--shard I/"), "{text}");
    let out = xcover()
        .args(["queens", "count", "8", "--estimate"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("seconds") && !text.contains("--shard"),
        "{text}"
    );
    // The bits engine's totals do not walk the tree: their estimate is their measured time
    // (n = 21 takes about half an hour on two threads, not the tree's 11 hours), and --unique
    // (the symmetric search) is still estimated from the tree.
    for (n, extra, must, must_not) in [
        ("21", "2", ["measured", "minutes"], "--shard"),
        ("23", "1", ["measured", "--shard I/"], "tree~"),
    ] {
        let out = xcover()
            .args([
                "queens",
                "count",
                n,
                "--engine",
                "bits",
                "--estimate",
                "-t",
                extra,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(must.iter().all(|m| text.contains(m)), "{text}");
        assert!(!text.contains(must_not), "{text}");
    }
    let out = xcover()
        .args([
            "queens",
            "count",
            "21",
            "--engine",
            "bits",
            "--unique",
            "--estimate",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("tree~"));
    // Knuth's estimator is unbiased: close to the exact tree size (n = 8: 2,057 nodes with
    // the root).
    let t = dancelinks::queens::count::tree_size(8, 20_000, 1);
    assert!((t - 2057.0).abs() < 100.0, "{t}");
}

/// A record file whose kind holds an ESC: in text, CSV and JSON Lines alike the message
/// shows it escaped (the readers' own messages quote the input verbatim).
#[test]
fn unreadable_records_are_quoted_safely_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "csv", "json"] {
        let out = xcover()
            .args(["queens", "count", "8", "--shard", "1/2", "--format", format])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let poisoned = text.replace("queens-count", "qu\u{1b}[2Jeens");
        let poisoned = if format == "json" {
            poisoned.replace('\u{1b}', "\\u001b")
        } else {
            poisoned
        };
        let file = dir.path().join(format!("bad.{format}"));
        std::fs::write(&file, poisoned).unwrap();
        let out = xcover().arg("merge").arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{format}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("not a shard record"), "{format}: {err}");
        assert!(!err.contains('\u{1b}'), "{format}: {err:?}");
        assert!(err.contains("qu\\u{1b}[2Jeens"), "{format}: {err}");
        // An empty record file: named with its line too.
        std::fs::write(&file, "").unwrap();
        let out = xcover().arg("merge").arg(&file).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("bad.{format}:1: no shard record")),
            "{err}"
        );
    }
}
