//! Tests: `solve --threads` and `--shard` (issue 16). The library's split and plan (counts,
//! statistics and the order of solutions do not depend on the threads; shards add up; the
//! optimum does not depend on threads or shards), the problem fingerprint, and the real binary.

use assert_cmd::Command;

use crate::instances;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

fn xcover() -> Command {
    Command::new(BIN)
}

#[test]
fn cli_threads_give_the_same_output_and_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q9.dlx");
    std::fs::write(&file, instances::queens(9, true)).unwrap();
    let run = |args: &[&str]| {
        let out = xcover()
            .arg("solve")
            .args(args)
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        (out.stdout, String::from_utf8(out.stderr).unwrap())
    };
    for format in ["text", "csv", "json"] {
        let (one, _) = run(&["--format", format, "-t", "1"]);
        let (three, _) = run(&["--format", format, "-t", "3"]);
        assert_eq!(one, three, "{format}");
    }
    // Knuth's tree (no memo) has the same statistics on any number of threads.
    let (count1, stats1) = run(&["--count", "--knuth", "--stats", "-t", "1"]);
    let (count2, stats2) = run(&["--count", "--knuth", "--stats", "--threads", "2"]);
    assert_eq!(count1, b"352\n");
    assert_eq!(count2, count1);
    let knuth = |s: &str| s.lines().next().unwrap().to_string();
    assert_eq!(knuth(&stats1), knuth(&stats2));
    assert!(stats2.contains("sub-problems="), "{stats2}");
    // The default (all cores, the memo where it pays) gives the same answer.
    assert_eq!(run(&["--count"]).0, count1);
    assert_eq!(run(&["--count", "-t", "1"]).0, count1);
}

#[test]
fn cli_shard_refuses_per_part_budgets() {
    xcover()
        .args(["solve", "--count", "--shard", "1/2", "--nodes", "10", "-"])
        .write_stdin("a\na\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--shard cannot be combined"));
    xcover()
        .args(["solve", "--count", "--shard", "3/2", "-"])
        .write_stdin("a\na\n")
        .assert()
        .code(2);
}

/// `solve --shard I/M --count` for M = 1, 2, 7, 50 writes records that `xcover merge` adds up
/// to the whole count; records of another problem (the same options in another order) are
/// refused, as is a missing shard; optimising shards merge to the optimum.
#[test]
fn cli_shard_records_merge_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let q9 = dir.path().join("q9.dlx");
    std::fs::write(&q9, instances::queens(9, true)).unwrap();
    let shard = |file: &std::path::Path, i: usize, m: usize, extra: &[&str]| -> String {
        let out = xcover()
            .arg("solve")
            .arg(file)
            .args(extra)
            .args(["--shard", &format!("{i}/{m}"), "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let merge = |records: &str| {
        let path = dir.path().join("records.jsonl");
        std::fs::write(&path, records).unwrap();
        xcover().arg("merge").arg(&path).output().unwrap()
    };
    for m in [1, 2, 7, 50] {
        let records: String = (1..=m).map(|i| shard(&q9, i, m, &["--count"])).collect();
        let out = merge(&records);
        assert!(out.status.success(), "M = {m}: {out:?}");
        assert_eq!(out.stdout, b"352\n", "M = {m}");
        if m == 1 {
            continue;
        }
        // One shard missing.
        let first: String = records.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let out = merge(&first);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&format!("missing shards of {m}: 1"))
        );
    }
    // The same problem with its options in another order is another problem.
    let text = instances::queens(9, true);
    let mut lines: Vec<&str> = text.lines().collect();
    let (head, options) = lines.split_at_mut(2);
    options.reverse();
    let reversed = dir.path().join("q9r.dlx");
    std::fs::write(
        &reversed,
        format!("{}\n{}\n", head.join("\n"), options.join("\n")),
    )
    .unwrap();
    let mixed = shard(&q9, 1, 2, &["--count"]) + &shard(&reversed, 2, 2, &["--count"]);
    let out = merge(&mixed);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("fingerprint"),
        "{out:?}"
    );
    // Optimising shards: the best wins.
    let costed: String = text
        .lines()
        .enumerate()
        .map(|(k, l)| {
            if k < 2 {
                format!("{l}\n")
            } else {
                format!("{l} |{}\n", (k * 7) % 11)
            }
        })
        .collect();
    let w = dir.path().join("w9.dlx");
    std::fs::write(&w, &costed).unwrap();
    let whole = xcover()
        .args(["solve", "--minimize"])
        .arg(&w)
        .output()
        .unwrap();
    let heading = String::from_utf8(whole.stdout).unwrap();
    let best = heading
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("1: cost ")
        .to_string();
    let records: String = (1..=3).map(|i| shard(&w, i, 3, &["--minimize"])).collect();
    let out = merge(&records);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), best);
}

/// A shard cut short before it proved anything reports no bound (`null`), never a sentinel
/// or the incumbent: every reported bound is a proven one.
#[test]
fn a_shard_cut_short_reports_no_bound_it_did_not_prove() {
    for format in ["json", "text"] {
        let out = xcover()
            .args([
                "solve",
                "examples/data/queens13.dlx",
                "--minimize",
                "--shard",
                "1/2",
            ])
            .args(["--time-limit", "0", "--format", format])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let out = String::from_utf8(out).unwrap();
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["status"], "time", "{out}");
            assert!(v["bound"].is_null(), "{out}");
        } else {
            assert!(!out.contains("bound=-"), "{out}");
        }
    }
}
