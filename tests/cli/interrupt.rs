//! Long runs. The first SIGINT or SIGTERM of `queens count`, `solve` and `queens max` stops
//! the search, writes the records with status `interrupted` (a count as a lower bound, the
//! best layout with its proven bound) and exits 128 + the signal; `merge` refuses such a
//! shard. A heat map that takes long says so first.

use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::time::Duration;

use crate::common::{score, xcover};
use crate::instances;

/// Starts `xcover ARGS` with `stdin`, sends `signal` after `after`, and returns the exit code,
/// stdout and stderr.
pub(crate) fn interrupt_after(
    args: &[&str],
    stdin: &[u8],
    after: Duration,
    signal: i32,
) -> (i32, String, String) {
    let (code, out, err, _) = interrupt_timed(args, stdin, after, signal);
    (code, out, err)
}

/// [`interrupt_after`], with the time from the signal to the end of the process.
fn interrupt_timed(
    args: &[&str],
    stdin: &[u8],
    after: Duration,
    signal: i32,
) -> (i32, String, String, Duration) {
    let mut child: Child = std::process::Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before the signal"
    );
    // SAFETY: kill with our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let signalled = std::time::Instant::now();
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let code = child.wait().unwrap().code().expect("an exit, not a signal");
    (code, out, err, signalled.elapsed())
}

/// The `key=value` fields of a one-line text record.
fn field<'a>(record: &'a str, key: &str) -> &'a str {
    record
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key} in {record}"))
}

#[test]
fn an_interrupted_queens_count_writes_a_partial_count_that_merge_refuses() {
    let (code, out, err) = interrupt_after(
        &["queens", "count", "17", "--engine", "dlx", "--shard", "1/1"],
        b"",
        Duration::from_millis(1500),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{err}");
    assert_eq!(field(&out, "status"), "interrupted", "{out}");
    let solutions: u128 = field(&out, "solutions").parse().unwrap();
    // A lower bound of A000170(17) = 95,815,104, and real progress was made.
    assert!(0 < solutions && solutions < 95_815_104, "{out}");
    assert!(err.contains("interrupted after"), "{err}");
    // The record is sealed, but an interrupted shard is not merged.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.txt");
    std::fs::write(&file, &out).unwrap();
    xcover()
        .arg("merge")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("was interrupted"));
}

#[test]
fn an_interrupted_count_to_a_file_is_a_complete_file() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c.csv");
    std::fs::write(&csv, "old\n").unwrap();
    let path = csv.to_str().unwrap();
    let (code, _, err) = interrupt_after(
        &[
            "queens", "count", "17", "--engine", "dlx", "--format", "csv", "-o", path,
        ],
        b"",
        Duration::from_millis(1500),
        libc::SIGTERM,
    );
    assert_eq!(code, 143, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(
        lines[0],
        "n,solutions,unique,status,engine,symmetry,nodes,seconds"
    );
    assert!(
        lines[1].starts_with("17,") && lines[1].contains(",interrupted,dlx,"),
        "{text}"
    );
}

#[test]
fn an_interrupted_solve_count_says_interrupted() {
    let dlx = instances::queens(16, true);
    let (code, out, err) = interrupt_after(
        &["solve", "--count", "--format", "json", "-"],
        dlx.as_bytes(),
        Duration::from_millis(1500),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["status"], "interrupted", "{out}");
    // A lower bound of A000170(16) = 14,772,512.
    let solutions = v["solutions"].as_u64().unwrap();
    assert!(solutions < 14_772_512, "{out}");
    assert!(err.contains("stopped by an interrupt after"), "{err}");
}

#[test]
fn an_interrupted_queens_max_gives_a_layout_and_a_proven_bound() {
    let boards = xcover()
        .args(["queens", "random", "40", "--seed", "11"])
        .output()
        .unwrap()
        .stdout;
    let (code, out, err) = interrupt_after(
        &["queens", "max", "--format", "csv"],
        &boards,
        Duration::from_secs(3),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{err}");
    let mut rdr = csv::Reader::from_reader(out.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{out}");
    let get = |name: &str| {
        let k = header.iter().position(|h| h == name).unwrap();
        rows[0][k].to_string()
    };
    assert_eq!(get("board_status"), "interrupted", "{out}");
    let queens: Vec<u32> = (0..40)
        .map(|k| get(&format!("q{k}")).parse().unwrap())
        .collect();
    let text = String::from_utf8(boards).unwrap();
    let board: Vec<i64> = text
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let value = score(40, &board, &queens);
    assert_eq!(get("score"), value.to_string());
    let bound: i128 = get("board_bound").parse().unwrap();
    assert!(bound >= value, "{out}");
}

#[test]
fn a_long_heatmap_says_first_how_long_it_takes() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(["queens", "heatmap", "32"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("estimate: queens heatmap 32"), "{line}");
    assert!(line.contains("years"), "{line}");
}

/// Every phase of `queens count` sees the first SIGINT or SIGTERM: the quadrants' tables
/// (n = 21), the tasks of the search at n = 24 and 32 (hours long each), meeting in the middle
/// (n = 18). The count is a lower bound with status `interrupted`, and the process ends
/// soon after the signal (1 s on a quiet release build; a loaded debug build gets more).
#[test]
fn every_phase_of_queens_count_stops_at_the_first_signal() {
    // A000170; n = 32 is unknown, but far beyond what a second finds.
    let totals: [(&str, u128); 4] = [
        ("18", 666_090_624),
        ("21", 314_666_222_712),
        ("24", 227_514_171_973_736),
        ("32", u128::MAX),
    ];
    for (k, (n, total)) in totals.into_iter().enumerate() {
        let (signal, name) = if k % 2 == 0 {
            (libc::SIGINT, "INT")
        } else {
            (libc::SIGTERM, "TERM")
        };
        let (code, out, err, took) = interrupt_timed(
            &["queens", "count", n, "-t", "1"],
            b"",
            Duration::from_millis(700),
            signal,
        );
        assert_eq!(code, 128 + signal, "n={n} SIG{name}: {err}");
        assert_eq!(field(&out, "status"), "interrupted", "n={n}: {out}");
        let solutions: u128 = field(&out, "solutions").parse().unwrap();
        assert!(solutions < total, "n={n}: {out}");
        assert!(
            took < Duration::from_secs(5),
            "n={n} SIG{name}: {took:?} from the signal to the end"
        );
    }
}

/// A memoised `solve --count` stops at SIGTERM too, with a partial count that says so.
#[test]
fn an_interrupted_memoised_count_says_interrupted() {
    let dlx = instances::queens(18, true);
    let (code, out, err, took) = interrupt_timed(
        &["solve", "--count", "--memo", "on", "--format", "csv", "-"],
        dlx.as_bytes(),
        Duration::from_millis(1000),
        libc::SIGTERM,
    );
    assert_eq!(code, 143, "{err}");
    assert_eq!(
        out.lines().nth(1).map(|l| l.ends_with(",interrupted")),
        Some(true),
        "{out}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// An interrupted `solve --count` is never a bare number, in text on stdout or in `-o FILE`:
/// the count with its status, and exit 130 (the rule `queens count` follows too).
#[test]
fn an_interrupted_solve_count_in_text_is_not_a_bare_number() {
    let dlx = instances::queens(16, true);
    let (code, out, err) = interrupt_after(
        &["solve", "--count", "-t", "1", "-"],
        dlx.as_bytes(),
        Duration::from_millis(1000),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{err}");
    assert_eq!(field(&out, "status"), "interrupted", "{out}");
    let solutions: u64 = field(&out, "solutions").parse().unwrap();
    assert!(solutions < 14_772_512, "{out}");
    assert!(out.trim().parse::<u128>().is_err(), "a bare number: {out}");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("count.txt");
    let path = file.to_str().unwrap();
    let (code, out, err) = interrupt_after(
        &["solve", "--count", "-t", "1", "-o", path, "-"],
        dlx.as_bytes(),
        Duration::from_millis(1000),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{err}");
    assert_eq!(out, "");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(field(&text, "status"), "interrupted", "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}
