//! Tests: weighted proofs split over shards (`queens max --shard I/M`, `--floor F`) and their
//! merge (issue 14 §2): the merged shards give the unsharded optimum and layout (checked
//! against brute force where it is cheap), a floor above the optimum leaves every shard
//! without a layout, shards cut short are never optimal, and tampered, mixed, missing or
//! duplicate records are refused.

use predicates::prelude::*;

use crate::common::xcover;

/// The command line: shards written to files, merged by `xcover merge` (text: the line
/// `queens max` prints), and the errors of `--shard`.
#[test]
fn the_command_line_splits_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    xcover()
        .args(["queens", "random", "12", "--seed", "3", "-o"])
        .arg(&board)
        .assert()
        .success();
    let whole = xcover()
        .args(["queens", "max", "--format", "csv"])
        .arg(&board)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let whole = String::from_utf8(whole).unwrap();
    let row: Vec<&str> = whole.lines().nth(1).unwrap().split(',').collect();
    let best: i128 = row[2].parse().unwrap();
    let layout = row[8..].join(",");
    for (floor, want) in [
        (None, format!("{best}\n")),
        (Some(best - 20), format!("{best}\n")),
        (Some(best + 1), format!("none below-floor bound={best}\n")),
    ] {
        let mut files = Vec::new();
        for i in 1..=3 {
            let f = dir.path().join(format!("s{i}.json"));
            let mut cmd = xcover();
            cmd.args(["queens", "max", "--format", "json", "--shard"])
                .arg(format!("{i}/3"))
                .arg(&board)
                .arg("-o")
                .arg(&f);
            if let Some(fl) = floor {
                cmd.arg(format!("--floor={fl}"));
            }
            cmd.assert().success();
            files.push(f);
        }
        xcover()
            .arg("merge")
            .args(&files)
            .assert()
            .success()
            .stdout(want);
        let json = xcover()
            .args(["merge", "--format", "json"])
            .args(&files)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let t: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(t["kind"], "queens-max");
        if floor.is_none_or(|f| f <= best) {
            assert_eq!(t["layout"], layout.as_str());
        }
    }
    // Without shards, a floor above the optimum says so.
    xcover()
        .args(["queens", "max"])
        .arg(&board)
        .arg(format!("--floor={}", best + 1))
        .assert()
        .success()
        .stdout(format!("none below-floor bound={best}\n"));
    // Errors: several boards, enumeration, SVG, --top.
    let two = dir.path().join("two.txt");
    xcover()
        .args(["queens", "random", "8", "--boards", "2", "-o"])
        .arg(&two)
        .assert()
        .success();
    xcover()
        .args(["queens", "max", "--shard", "1/2"])
        .arg(&two)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 boards"));
    for extra in [
        &["--method", "enumerate"][..],
        &["--format", "svg"],
        &["--top", "2"],
    ] {
        xcover()
            .args(["queens", "max", "--shard", "1/2"])
            .args(extra)
            .arg(&board)
            .assert()
            .code(2);
    }
}
