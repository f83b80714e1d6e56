//! Tests: solve. The real `xcover solve` binary: bad input, stdin, counts, limits, the output
//! formats parsed back, statistics, budgets, atomic `-o` and a closed pipe.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

use crate::instances;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

fn xcover() -> Command {
    Command::new(BIN)
}

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Files in `dir` other than `keep`: what a failed run must not leave behind.
fn leftovers(dir: &Path, keep: &[&Path]) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !keep.iter().any(|k| k == p))
        .collect()
}

/// Every bad input: (contents, expected `LINE:COL: message` after the file name).
fn bad_inputs() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut long = b"a b\n".to_vec();
    long.extend(std::iter::repeat_n(b'a', (16 << 20) + 5));
    long.push(b'\n');
    vec![
        (
            "unknown item",
            b"a b\na c\n".to_vec(),
            "2:3: unknown item 'c'",
        ),
        (
            "duplicate item",
            b"a b a\n".to_vec(),
            "1:5: duplicate item name 'a'",
        ),
        (
            "duplicate across |",
            b"a | a\n".to_vec(),
            "1:5: duplicate item name 'a'",
        ),
        (
            "item twice",
            b"a b\nb a b\n".to_vec(),
            "2:5: item 'b' appears twice in one option",
        ),
        (
            "colour on primary",
            b"a | x\nx a:red\n".to_vec(),
            "2:3: primary item 'a' cannot have a colour",
        ),
        (
            "no items",
            b"| only a comment\n\n".to_vec(),
            "2:1: no items",
        ),
        ("empty file", Vec::new(), "1:1: no items"),
        (
            "bar twice",
            b"a | b | c\n".to_vec(),
            "1:7: '|' appears twice in the item line",
        ),
        (
            "empty colour",
            b"a | x\na x:\n".to_vec(),
            "2:5: empty colour after 'x:'",
        ),
        (
            "empty item name",
            b"a | x\na :A\n".to_vec(),
            "2:3: empty item name",
        ),
        (
            "bad colour",
            b"a | x\na x:A:B\n".to_vec(),
            "2:5: invalid colour 'A:B'",
        ),
        (
            "bad item name",
            b"a:b c\n".to_vec(),
            "1:1: invalid item name 'a:b'",
        ),
        ("bad cost", b"a\na |x\n".to_vec(), "2:3: invalid cost '|x'"),
        (
            "negative cost",
            b"a\na |-3\n".to_vec(),
            "2:3: invalid cost '|-3'",
        ),
        (
            "cost overflow",
            b"a\na |9223372036854775807 |1\n".to_vec(),
            "2:24: the costs of this option add up",
        ),
        (
            "item after cost",
            b"a b\na |1 b\n".to_vec(),
            "2:6: item 'b' after a cost",
        ),
        (
            "invalid UTF-8",
            b"a b\n\xc3\xa9a \xff b\n".to_vec(),
            "2:4: invalid UTF-8",
        ),
        (
            "invalid UTF-8 in comment",
            b"| \xfe\na\n".to_vec(),
            "1:3: invalid UTF-8",
        ),
        (
            "long line",
            long,
            "2:16777217: line too long (more than 16777216 bytes)",
        ),
    ]
}

#[test]
fn bad_input_gives_one_clear_error_exit_2_and_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    for (what, contents, expected) in bad_inputs() {
        let input = write(dir.path(), "bad.dlx", &contents);
        let out_path = dir.path().join("out.txt");
        let assert = xcover()
            .args([
                "solve",
                input.to_str().unwrap(),
                "-o",
                out_path.to_str().unwrap(),
            ])
            .assert()
            .code(2)
            .stdout("");
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        let want = format!("error: {}:{expected}", input.display());
        assert!(
            stderr.starts_with(&want),
            "{what}: got {stderr:?}, want {want:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "{what}: one line: {stderr:?}");
        assert!(!stderr.contains("panicked"), "{what}");
        assert!(!out_path.exists(), "{what}: no output file");
        assert_eq!(
            leftovers(dir.path(), &[&input]),
            Vec::<PathBuf>::new(),
            "{what}"
        );
    }
}

#[test]
fn bad_input_on_stdin_names_stdin() {
    xcover()
        .args(["solve", "-"])
        .write_stdin("a b\na c\n")
        .assert()
        .code(2)
        .stderr("error: <stdin>:2:3: unknown item 'c'\n");
    xcover()
        .arg("solve")
        .write_stdin(&b"\xff"[..])
        .assert()
        .code(2)
        .stderr("error: <stdin>:1:1: invalid UTF-8\n");
}

#[test]
fn a_failed_run_leaves_an_existing_output_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "bad.dlx", "a\nb\n");
    let out = write(dir.path(), "out.txt", "old contents\n");
    xcover()
        .args([
            "solve",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old contents\n");
    assert_eq!(
        leftovers(dir.path(), &[&input, &out]),
        Vec::<PathBuf>::new()
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "q.dlx", instances::queens(4, true));
    let f = input.to_str().unwrap();
    for args in [
        vec!["solve", f, "--limit", "0"],
        vec!["solve", f, "--limit", "x"],
        vec!["solve", f, "--format", "xml"],
        vec!["solve", f, "--time-limit", "-1"],
        vec!["solve", f, "--time-limit", "soon"],
        vec!["solve", f, "--nodes", "-5"],
        vec!["solve", f, "--bogus"],
        vec!["solve", f, f],
    ] {
        xcover().args(&args).assert().code(2).stdout("");
    }
    xcover()
        .args(["solve", dir.path().join("missing.dlx").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn colour_example_text_output_as_dlx1() {
    xcover()
        .arg("solve")
        .write_stdin("| TAOCP\np q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n")
        .assert()
        .success()
        .stdout("1:\n q x:A\n p r x:A y\n")
        .stderr("");
}

#[test]
fn option_without_primary_item_warns_and_is_ignored() {
    xcover()
        .args(["solve", "-", "--count"])
        .write_stdin("a | x\nx\na x\n  x:red\n")
        .assert()
        .success()
        .stdout("1\n")
        .stderr(
            "warning: <stdin>:2: option ignored (no primary items): x\n\
             warning: <stdin>:4: option ignored (no primary items): x:red\n",
        );
}

/// An unsatisfiable problem is no error: nothing on stdout, `no solution` on stderr (a
/// listing that printed nothing at all would leave the user guessing), exit 0.
#[test]
fn zero_solutions_is_success() {
    xcover()
        .args(["solve", "--stats"])
        .write_stdin(instances::queens(3, false))
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::starts_with(
            "no solution\nAltogether 0 solutions, ",
        ));
    xcover()
        .args(["solve"])
        .write_stdin(instances::queens(3, false))
        .assert()
        .success()
        .stdout("")
        .stderr("no solution\n");
    // A count says 0 itself; a shard's listing speaks of its shard.
    xcover()
        .args(["solve", "--count"])
        .write_stdin(instances::queens(3, false))
        .assert()
        .success()
        .stdout("0\n")
        .stderr("");
    xcover()
        .args(["solve", "--shard", "1/2"])
        .write_stdin(instances::queens(3, false))
        .assert()
        .success()
        .stdout("")
        .stderr("no solution in this shard\n");
}

/// `--memo` and `--memo-mem` belong to `--count`; `--memo on` cannot apply to a shard, and a
/// memo smaller than its smallest table is refused rather than silently enlarged.
#[test]
fn memo_options_are_refused_where_they_cannot_apply() {
    let q = instances::queens(6, true);
    for (args, says) in [
        (&["--memo", "on"][..], "--count"),
        (&["--memo-mem", "1M"], "--count"),
        (&["--count", "--memo", "on", "--shard", "1/2"], "--shard"),
        (&["--count", "--memo-mem", "0"], "4K"),
        (&["--count", "--memo-mem", "100"], "4K"),
    ] {
        xcover()
            .arg("solve")
            .args(args)
            .write_stdin(q.clone())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
    xcover()
        .args([
            "solve",
            "--count",
            "--memo",
            "off",
            "--shard",
            "1/2",
            "--memo-mem",
            "4K",
        ])
        .write_stdin(q)
        .assert()
        .success();
}

#[test]
fn count_and_limit() {
    let dir = tempfile::tempdir().unwrap();
    let q8 = write(dir.path(), "q8.dlx", instances::queens(8, true));
    let f = q8.to_str().unwrap();
    xcover()
        .args(["solve", "--count", f])
        .assert()
        .success()
        .stdout("92\n");
    let out = xcover().args(["solve", f]).assert().success();
    let full = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let headings: Vec<&str> = full.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(headings.len(), 92);
    assert_eq!(headings[91], "92:");
    assert_eq!(full.lines().count(), 92 * 9);
    // --limit 3 prints the first three solutions of the full run.
    let first3: String = full.lines().take(27).map(|l| format!("{l}\n")).collect();
    xcover()
        .args(["solve", f, "--limit", "3"])
        .assert()
        .success()
        .stdout(first3);
    xcover()
        .args(["solve", f, "--limit", "5", "--count"])
        .assert()
        .success()
        .stdout("solutions=5 status=limit\n")
        .stderr("stopped by the solution limit after 5 solutions (partial count)\n");
    xcover()
        .args(["solve", f, "--limit", "5", "--count", "--format", "json"])
        .assert()
        .success()
        .stdout("{\"record\":\"count\",\"solutions\":5,\"status\":\"limit\"}\n");
    xcover()
        .args(["solve", f, "--limit", "500", "--count"])
        .assert()
        .success()
        .stdout("92\n");
    xcover()
        .args(["solve", f, "--count", "--format", "csv"])
        .assert()
        .success()
        .stdout("solutions,status\n92,complete\n");
    let out = xcover()
        .args(["solve", f, "--count", "--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["record"], "count");
    assert_eq!(v["solutions"], 92);
    assert_eq!(v["status"], "complete");
}

/// Checks that the options of one 8-queens solution, as written, place 8 non-attacking
/// queens, and that each `line` is the option's line in the input.
fn check_queens_solution(options: &[(usize, String)], input_lines: &[&str]) {
    assert_eq!(options.len(), 8);
    let mut rows = BTreeSet::new();
    let mut cols = BTreeSet::new();
    let mut diag = BTreeSet::new();
    let mut anti = BTreeSet::new();
    for (line, text) in options {
        assert_eq!(input_lines[line - 1], text);
        let mut it = text.split(' ');
        let r: i32 = it.next().unwrap()[1..].parse().unwrap();
        let c: i32 = it.next().unwrap()[1..].parse().unwrap();
        assert!(rows.insert(r) && cols.insert(c) && diag.insert(r + c) && anti.insert(r - c));
    }
}

#[test]
fn csv_output_parses_back() {
    let text = instances::queens(8, true);
    let input_lines: Vec<&str> = text.lines().collect();
    let out = xcover()
        .args(["solve", "--format", "csv"])
        .write_stdin(text.clone())
        .assert()
        .success();
    let mut reader = csv::Reader::from_reader(&out.get_output().stdout[..]);
    assert_eq!(
        reader.headers().unwrap(),
        vec!["solution", "position", "line", "option"]
    );
    let mut solutions: Vec<Vec<(usize, String)>> = Vec::new();
    for record in reader.records() {
        let record = record.unwrap();
        let sol: usize = record[0].parse().unwrap();
        let pos: usize = record[1].parse().unwrap();
        if sol > solutions.len() {
            assert_eq!(sol, solutions.len() + 1);
            solutions.push(Vec::new());
        }
        assert_eq!(pos, solutions[sol - 1].len() + 1);
        solutions[sol - 1].push((record[2].parse().unwrap(), record[3].to_string()));
    }
    assert_eq!(solutions.len(), 92);
    for s in &solutions {
        check_queens_solution(s, &input_lines);
    }
}

#[test]
fn json_output_parses_back_with_summary_matching_stats_line() {
    let text = instances::queens(8, true);
    let input_lines: Vec<&str> = text.lines().collect();
    let out = xcover()
        // One thread: on more, --stats adds a line about the split.
        .args(["solve", "--format", "json", "--stats", "-t", "1"])
        .write_stdin(text.clone())
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 93);
    for (k, r) in records[..92].iter().enumerate() {
        assert_eq!(r["record"], "solution");
        assert_eq!(r["solution"], k as u64 + 1);
        assert_eq!(r["cost"], serde_json::Value::Null);
        let options: Vec<(usize, String)> = r["lines"]
            .as_array()
            .unwrap()
            .iter()
            .zip(r["options"].as_array().unwrap())
            .map(|(l, o)| {
                (
                    l.as_u64().unwrap() as usize,
                    o.as_str().unwrap().to_string(),
                )
            })
            .collect();
        check_queens_solution(&options, &input_lines);
    }
    let summary = &records[92];
    assert_eq!(summary["record"], "summary");
    assert_eq!(summary["solutions"], 92);
    assert_eq!(summary["status"], "complete");
    let s = summary;
    let line = format!(
        "Altogether {} solutions, {}+{} mems, {} updates, {} bytes, {} nodes.\n",
        s["solutions"], s["input_mems"], s["mems"], s["updates"], s["bytes"], s["nodes"]
    );
    assert_eq!(stderr, line);
    assert!(s["nodes"].as_u64().unwrap() > 92);
}

#[test]
fn stats_line_reproduces_knuth_13_queens() {
    xcover()
        .args(["solve", "--count", "--stats", "-t", "1", "--knuth"])
        .write_stdin(instances::queens(13, true))
        .assert()
        .success()
        .stdout("73712\n")
        .stderr(
            "Altogether 73712 solutions, 0+252453315 mems, 17463157 updates, 15876 bytes, \
             1046319 nodes.\n",
        );
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "l7.dlx", instances::langford(7));
    let out = dir.path().join("sols.csv");
    let stdout = xcover()
        .args(["solve", "--format", "csv", input.to_str().unwrap()])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    xcover()
        .args(["solve", "--format", "csv", input.to_str().unwrap(), "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read(&out).unwrap(), stdout);
    // 52 solutions of 7 options each, and a header.
    assert_eq!(stdout.iter().filter(|&&b| b == b'\n').count(), 52 * 7 + 1);
    assert_eq!(
        leftovers(dir.path(), &[&input, &out]),
        Vec::<PathBuf>::new()
    );
    // Into a directory that does not exist: a clean error.
    xcover()
        .args(["solve", input.to_str().unwrap(), "-o"])
        .arg(dir.path().join("no/such/dir/out.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error: cannot create a file"));
}

#[test]
fn budgets_stop_the_search_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let q = write(dir.path(), "q10.dlx", instances::queens(10, true));
    let f = q.to_str().unwrap();
    // A count cut short is never the bare number: `solutions=N status=WORD` in text (on
    // stdout and in -o FILE), the same status in CSV and JSON.
    for (args, why, word) in [
        (vec!["--nodes", "100"], "node budget", "nodes"),
        (vec!["--mems", "10000"], "mem budget", "mems"),
        (vec!["--time-limit", "0"], "time limit", "time"),
    ] {
        let out = xcover()
            .args(["solve", "--count", "--stats", f])
            .args(&args)
            .assert()
            .success()
            .stderr(predicate::str::contains(why));
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let (count, status) = text.trim().split_once(' ').expect("two words");
        let count: u64 = count.strip_prefix("solutions=").unwrap().parse().unwrap();
        assert!(count < 724, "{why}");
        assert_eq!(status, format!("status={word}"), "{text}");
        let file = dir.path().join("count.txt");
        xcover()
            .args(["solve", "--count", f, "-o", file.to_str().unwrap()])
            .args(&args)
            .assert()
            .success()
            .stdout("");
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(written.ends_with(&format!(" status={word}\n")), "{written}");
        for (format, want) in [
            ("csv", format!(",{word}\n")),
            ("json", format!("\"status\":\"{word}\"")),
        ] {
            let out = xcover()
                .args(["solve", "--count", "--format", format, f])
                .args(&args)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.contains(&want), "{format} {word}: {text}");
        }
    }
    let out = xcover()
        .args(["solve", "--format", "json", "--stats", "--nodes", "100", f])
        .assert()
        .success();
    let last: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&out.get_output().stdout)
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(last["record"], "summary");
    assert_eq!(last["status"], "nodes");
    assert!(last["nodes"].as_u64().unwrap() <= 100);
    // A generous budget changes nothing.
    xcover()
        .args([
            "solve",
            "--count",
            f,
            "--nodes",
            "100000000",
            "--time-limit",
            "3600",
        ])
        .assert()
        .success()
        .stdout("724\n")
        .stderr("");
    // A time limit too far away for the clock is no limit (and no panic).
    xcover()
        .args(["solve", "--count", f, "--time-limit", "1e18"])
        .args(["--mems", "18446744073709551615"])
        .assert()
        .success()
        .stdout("724\n")
        .stderr("");
}

#[test]
fn closed_pipe_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // 14200 solutions of 12 options: megabytes of text, far more than a pipe holds.
    let q = write(dir.path(), "q12.dlx", instances::queens(12, true));
    for format in ["text", "csv", "json"] {
        let mut child = StdCommand::new(BIN)
            .args(["solve", "--format", format, q.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut head = [0u8; 100];
        stdout.read_exact(&mut head).unwrap();
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{format}: {stderr}");
        assert_eq!(stderr, "", "{format}");
    }
}

/// All exact covers of a small costed problem by brute force over subsets of options,
/// with their total costs, sorted ascending.
fn brute_force_costs(items: &[&str], options: &[(&str, i64)]) -> Vec<i64> {
    let mut totals = Vec::new();
    for mask in 0u32..1 << options.len() {
        let mut covered: Vec<&str> = Vec::new();
        let mut cost = 0;
        for (k, (opt, c)) in options.iter().enumerate() {
            if mask >> k & 1 == 1 {
                covered.extend(opt.split_whitespace());
                cost += c;
            }
        }
        covered.sort_unstable();
        let mut want: Vec<&str> = items.to_vec();
        want.sort_unstable();
        if covered == want {
            totals.push(cost);
        }
    }
    totals.sort_unstable();
    totals
}

#[test]
fn minimize_and_maximize_with_costs_match_brute_force() {
    let items = ["a", "b", "c", "d"];
    let options = [
        ("a b", 5),
        ("c", 1),
        ("a", 2),
        ("b c", 3),
        ("a b c", 7),
        ("d", 4),
        ("c d", 2),
        ("b", 6),
    ];
    let mut text = String::from("a b c d\n");
    for (opt, cost) in &options {
        text.push_str(&format!("{opt} |{cost}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "costs.dlx", &text);
    let totals = brute_force_costs(&items, &options);
    let csv_costs = |args: &[&str]| -> Vec<i64> {
        let out = xcover()
            .arg("solve")
            .arg(&file)
            .args(args)
            .args(["--format", "csv"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let mut r = csv::Reader::from_reader(&out[..]);
        let mut by_solution = std::collections::BTreeMap::new();
        for rec in r.records() {
            let rec = rec.unwrap();
            by_solution.insert(
                rec[0].parse::<u32>().unwrap(),
                rec[1].parse::<i64>().unwrap(),
            );
        }
        by_solution.into_values().collect()
    };
    assert_eq!(csv_costs(&["--minimize"]), vec![totals[0]]);
    assert_eq!(
        csv_costs(&["--minimize", "--top", "3"]),
        totals[..3].to_vec()
    );
    let mut desc = totals.clone();
    desc.reverse();
    assert_eq!(csv_costs(&["--maximize"]), vec![desc[0]]);
    assert_eq!(
        csv_costs(&["--maximize", "--top", "100"]),
        desc,
        "--top larger than the number of solutions lists them all"
    );
    xcover()
        .arg("solve")
        .arg(&file)
        .arg("--minimize")
        .assert()
        .success()
        .stderr(predicate::str::contains("optimal: cost"));
}

#[test]
fn optimising_without_a_solution_says_infeasible_and_top_needs_a_sense() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "none.dlx", "a b\na |1\n");
    xcover()
        .args(["solve", "--maximize"])
        .arg(&file)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("infeasible"));
    xcover()
        .args(["solve", "--top", "2"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--top needs --minimize or --maximize",
        ));
}

#[test]
fn partial_counts_say_so_in_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let q = write(dir.path(), "q10.dlx", instances::queens(10, true));
    let f = q.to_str().unwrap();
    for (args, status, why) in [
        (vec!["--time-limit", "0"], "time", "the time limit"),
        (vec!["--nodes", "100"], "nodes", "the node budget"),
        (vec!["--mems", "10000"], "mems", "the mem budget"),
        (vec!["--limit", "3"], "limit", "the solution limit"),
    ] {
        let out = xcover()
            .args(["solve", "--count", "--format", "json", f])
            .args(&args)
            .assert()
            .success();
        let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(v["record"], "count");
        assert_eq!(v["status"], status, "{args:?}");
        let n = v["solutions"].as_u64().unwrap();
        assert!(n < 724);
        let out = xcover()
            .args(["solve", "--count", "--format", "csv", f])
            .args(&args)
            .assert()
            .success();
        let csv = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert_eq!(csv, format!("solutions,status\n{n},{status}\n"), "{args:?}");
        // Text: the bare number, and one line on stderr.
        let out = xcover()
            .args(["solve", "--count", f])
            .args(&args)
            .assert()
            .success();
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let s = if n == 1 { "" } else { "s" };
        assert_eq!(
            stderr,
            format!("stopped by {why} after {n} solution{s} (partial count)\n")
        );
    }
    // A complete count says so too, and nothing on stderr.
    xcover()
        .args(["solve", "--count", "--format", "json", f])
        .assert()
        .success()
        .stdout("{\"record\":\"count\",\"solutions\":724,\"status\":\"complete\"}\n")
        .stderr("");
    // A listing stopped by its own --limit is what was asked for: no notice.
    xcover()
        .args(["solve", "--limit", "2", f])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn optimum_records_are_flat_with_a_status() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "c.dlx", "a b\na |1\nb |2\na b |5\n");
    let out = xcover()
        .args(["solve", "--minimize", "--top", "2", "--format", "json"])
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["record"], "solution");
    assert_eq!(lines[0]["cost"], 3);
    assert_eq!(lines[1]["cost"], 5);
    let opt = &lines[2];
    assert_eq!(opt["record"], "optimum");
    assert_eq!(opt["status"], "optimal");
    assert_eq!(opt["cost"], 3);
    assert_eq!(opt["bound"], 3);
    assert_eq!(opt["solutions"], 2);
    for l in &lines {
        assert!(l.as_object().unwrap().values().all(|v| !v.is_object()));
    }
    let none = write(dir.path(), "none.dlx", "a b\na |1\n");
    let out = xcover()
        .args(["solve", "--maximize", "--format", "json"])
        .arg(&none)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["status"], "infeasible");
    assert_eq!(v["cost"], serde_json::Value::Null);
}

/// `--memo`: the same count with and without the memo, exact past 2^32 and with a table too
/// small to keep much; `--knuth` gives DLX2's figures; a bad `--memo-mem` is a usage error.
#[test]
fn memoised_counts_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = String::new();
    let n = 22;
    k.extend((0..n).map(|i| format!("v{i} ")));
    k.push('\n');
    for i in 0..n {
        for j in i + 1..n {
            k.push_str(&format!("v{i} v{j}\n"));
        }
    }
    let k22 = write(dir.path(), "k22.dlx", k);
    let f = k22.to_str().unwrap();
    // 21!! perfect matchings of K22 (past 2^32); a 1 MiB table keeps replacing its entries.
    let want = (1..=21u128).step_by(2).product::<u128>().to_string() + "\n";
    for memo in [
        &["--memo", "auto"][..],
        &["--memo", "on", "--memo-mem", "1M"],
    ] {
        xcover()
            .args(["solve", "--count", f])
            .args(memo)
            .assert()
            .success()
            .stdout(want.clone());
    }
    let out = xcover()
        .args(["solve", "--count", "--stats", "--format", "json", f])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    for (r, kind) in records.iter().zip(["count", "summary"]) {
        assert_eq!(r["record"], kind);
        assert_eq!(r["solutions"].to_string() + "\n", want);
    }
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("memo: ") && stderr.contains(&format!("Altogether {}", want.trim())));
    // 13 queens: --knuth gives DLX2's figures exactly.
    let q13 = write(dir.path(), "q13.dlx", instances::queens(13, true));
    let plain = xcover()
        .args(["solve", "--count", "--stats", "-t", "1", "--knuth"])
        .arg(&q13)
        .assert()
        .success();
    let off = xcover()
        .args(["solve", "--count", "--stats", "-t", "1", "--memo", "off"])
        .arg(&q13)
        .assert()
        .success();
    let knuth = "Altogether 73712 solutions, 0+252453315 mems, 17463157 updates, 15876 bytes, \
                 1046319 nodes.";
    assert!(String::from_utf8_lossy(&plain.get_output().stderr).contains(knuth));
    assert_eq!(plain.get_output().stdout, b"73712\n");
    // Without the memo the default tree abandons dead ends early: fewer nodes, same count.
    assert_eq!(off.get_output().stdout, b"73712\n");
    let off_err = String::from_utf8_lossy(&off.get_output().stderr).into_owned();
    assert!(!off_err.contains(knuth) && off_err.contains("Altogether 73712 solutions"));
    for bad in ["12X", "-1", "K", "99999999999T"] {
        xcover()
            .args(["solve", "--count", "--memo-mem", bad, f])
            .assert()
            .code(2);
    }
}

/// An optimisation shard counts the solutions its search reached, those the split found above
/// its cut included: a shard that reports a layout reports at least one solution.
#[test]
fn optimisation_shards_count_the_solutions_they_found() {
    let mut found = 0u64;
    for shard in ["1/1", "1/2", "2/2"] {
        let out = xcover()
            .args([
                "solve",
                "--minimize",
                "--shard",
                shard,
                "examples/data/costs.dlx",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let line = String::from_utf8(out.stdout).unwrap();
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
                .map(str::to_string)
        };
        let solutions: u64 = field("solutions").unwrap().parse().unwrap();
        if field("layout").is_some_and(|l| !l.is_empty()) {
            assert!(solutions >= 1, "{shard}: {line}");
        }
        if shard != "1/1" {
            found += solutions;
        }
    }
    assert!(found >= 1);
}

/// The default count searches with the bitset search first, SSXCC's forced moves and
/// wipe-outs: fewer nodes than DLX2's tree (`--knuth`) on Langford pairs, far fewer on
/// pentominoes; `--memo off` keeps the dance's tree on Langford pairs (options of three
/// primary items), the same as `--knuth`'s apart from the dead ends it aborts.
#[test]
fn the_default_count_searches_fewer_nodes_than_dlx2s_tree() {
    let dir = tempfile::tempdir().unwrap();
    let stats = |file: &Path, extra: &[&str]| {
        let out = xcover()
            .args(["solve", "--count", "--stats", "-t", "1"])
            .args(extra)
            .arg(file)
            .assert()
            .success();
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let line = err
            .lines()
            .find(|l| l.starts_with("Altogether"))
            .expect("the statistics line")
            .to_string();
        let nodes: u64 = line
            .trim_end_matches(" nodes.")
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        (line, nodes)
    };
    let l11 = write(dir.path(), "l11.dlx", instances::langford(11));
    let (default, knuth) = (stats(&l11, &[]).1, stats(&l11, &["--knuth"]).1);
    assert!(default < knuth, "{default} against {knuth}");
    assert!(stats(&l11, &["--memo", "off"]).1 <= knuth);
    let p = write(dir.path(), "p.dlx", instances::pentominoes(5, 12, true));
    let (default, knuth) = (stats(&p, &["--memo", "off"]).1, stats(&p, &["--knuth"]).1);
    assert!(stats(&p, &[]).1 < knuth);
    assert!(default * 2 < knuth, "{default} against {knuth}");
}

/// A count of a problem with colours runs the bitset search (its node count is the `Dense`
/// engine's, at most SSXCC's, which the `Cells` engine follows exactly), the same tree on one
/// thread and on two; `--knuth` the dance on DLX2's tree. The count is the same every way.
#[test]
fn a_coloured_count_runs_the_bitset_search_the_same_on_threads() {
    use dancelinks::engine::{Budget, Cells, Dense};
    let dir = tempfile::tempdir().unwrap();
    let out = xcover()
        .args(["model", "word-squares", "examples/data/words3.txt"])
        .assert()
        .success();
    let text = out.get_output().stdout.clone();
    let file = write(dir.path(), "words.dlx", &text);
    let problem = dancelinks::io::dlx_format::parse(&text, "words.dlx")
        .unwrap()
        .problem;
    assert!(problem.has_colours());
    let cells = Cells::new(&problem)
        .unwrap()
        .count(&Budget::unlimited())
        .stats;
    let run = |extra: &[&str]| {
        let out = xcover()
            .args(["solve", "--count", "--stats"])
            .args(extra)
            .arg(&file)
            .assert()
            .success();
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        (
            String::from_utf8_lossy(&out.get_output().stdout).into_owned(),
            err.lines()
                .find(|l| l.starts_with("Altogether"))
                .unwrap()
                .to_string(),
        )
    };
    let dense = Dense::new(&problem)
        .unwrap()
        .count(&Budget::unlimited())
        .stats;
    assert!(dense.nodes() <= cells.nodes());
    let (count, line) = run(&["-t", "1", "--memo", "off"]);
    assert_eq!(count, format!("{}\n", cells.solutions()));
    assert!(
        line.ends_with(&format!(" {} nodes.", dense.nodes())),
        "{line} against {} nodes",
        dense.nodes()
    );
    assert_eq!(run(&["-t", "1"]), (count.clone(), line.clone()));
    let (knuth_count, knuth_line) = run(&["-t", "1", "--knuth"]);
    assert_eq!(knuth_count, count);
    assert_ne!(knuth_line, line);
    assert_eq!(run(&["-t", "2", "--memo", "off"]), (count, line));
}

/// `--estimate`: Knuth's estimate of the tree the count searches (the default tree, or DLX2's
/// with --knuth) is within 3× of the count's own nodes; multiplicities are refused.
#[test]
fn the_estimate_is_near_the_count_nodes() {
    let f = "examples/data/queens13.dlx";
    let nodes_of = |line: &str| -> f64 {
        line.split_whitespace()
            .rev()
            .nth(1)
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{line}"))
    };
    for knuth in [false, true] {
        let flag: &[&str] = if knuth { &["--knuth"] } else { &[] };
        let out = xcover()
            .args(["solve", "--estimate", f])
            .args(flag)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let line = String::from_utf8(out.stdout).unwrap();
        let tree: f64 = line
            .split_once("tree~")
            .and_then(|(_, r)| r.split_whitespace().next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        // The count's tree without the memo (--knuth has none).
        let memo: &[&str] = if knuth { &[] } else { &["--memo", "off"] };
        let count = xcover()
            .args(["solve", "--count", "--stats", "-t", "1", f])
            .args(flag)
            .args(memo)
            .output()
            .unwrap();
        let stats = String::from_utf8(count.stderr).unwrap();
        let real = nodes_of(stats.lines().find(|l| l.starts_with("Altogether")).unwrap());
        assert!(
            tree < 3.0 * real && real < 3.0 * tree,
            "knuth={knuth}: {tree} against {real}: {line}"
        );
        assert!(line.contains("on this machine") || line.contains("within the sample"));
    }
    xcover()
        .args(["solve", "--estimate", "examples/data/multiplicity.dlx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("multiplicities"));
}
