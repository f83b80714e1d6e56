//! Issue 39 (trust), items 3, 4 and 6: `queens max` does the same work and reports the same
//! layout, bound and status in every format (the records' `optimal_count` is counted apart,
//! never by listing the optimal layouts); a search cut short (SIGINT, `--time-limit`) reports
//! in every format the best layout it found and the best bound it proved, never `optimal`;
//! boards beyond the range are refused at once, and under a memory limit the command answers
//! or refuses cleanly.

use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{placements, score, xcover};
use crate::interrupt::interrupt_after;

/// One board in the classic format.
fn classic(n: usize, board: &[i64]) -> String {
    let mut s = String::from("1\n");
    for row in board.chunks(n) {
        let line: Vec<String> = row.iter().map(|w| w.to_string()).collect();
        s += &line.join(" ");
        s.push('\n');
    }
    s
}

/// What one format says of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    status: String,
    value: Option<i128>,
    bound: Option<i128>,
    layout: Option<Vec<u32>>,
    optimal_count: Option<u64>,
}

/// Reads the first board of `out` written in `format` (`text` with `--board`).
fn said(format: &str, n: usize, out: &str) -> Said {
    match format {
        "text" => {
            let mut lines = out.lines();
            let first: Vec<&str> = lines.next().expect("a line").split_whitespace().collect();
            let value = first[0].parse().ok();
            let (status, bound) = match first.get(1) {
                Some(word) => {
                    let b = first[2].strip_prefix("bound=").expect("bound=B");
                    (word.to_string(), b.parse().ok())
                }
                None => ("optimal".to_string(), value),
            };
            let layout: Vec<u32> = lines
                .take(n)
                .map(|l| {
                    l.split_whitespace()
                        .position(|c| c == "X")
                        .expect("a queen per rank") as u32
                })
                .collect();
            Said {
                status,
                value,
                bound,
                layout: (layout.len() == n).then_some(layout),
                optimal_count: None,
            }
        }
        "csv" => {
            let mut rdr = csv::Reader::from_reader(out.as_bytes());
            let header = rdr.headers().unwrap().clone();
            let row = rdr.records().next().expect("a record").unwrap();
            let get = |name: &str| row[header.iter().position(|h| h == name).unwrap()].to_string();
            let layout: Option<Vec<u32>> =
                (0..n).map(|k| get(&format!("q{k}")).parse().ok()).collect();
            Said {
                status: get("board_status"),
                value: get("score").parse().ok(),
                bound: get("board_bound").parse().ok(),
                layout,
                optimal_count: get("optimal_count").parse().ok(),
            }
        }
        "json" => {
            let v: serde_json::Value =
                serde_json::from_str(out.lines().next().expect("a record")).unwrap();
            let int = |k: &str| v[k].as_i64().map(i128::from);
            let layout: Option<Vec<u32>> = (0..n)
                .map(|k| v[format!("q{k}")].as_u64().map(|q| q as u32))
                .collect();
            Said {
                status: v["board_status"].as_str().unwrap().to_string(),
                value: int("score"),
                bound: int("board_bound"),
                layout,
                optimal_count: v["optimal_count"].as_u64(),
            }
        }
        _ => unreachable!(),
    }
}

/// `queens max ARGS --format FORMAT` (text with `--board`) on `input`.
fn run(format: &str, args: &[&str], input: &str) -> Output {
    let mut cmd = xcover();
    cmd.args(["queens", "max", "--format", format]).args(args);
    if format == "text" {
        cmd.arg("--board");
    }
    cmd.write_stdin(input.to_string()).output().unwrap()
}

const FORMATS: [&str; 3] = ["text", "csv", "json"];

/// Boards with many optimal layouts: every format reports the lexicographically smallest
/// optimal layout and the same value, and the records the brute-force number of optimal
/// layouts — by the enumeration (n = 8), by the count of n-queens solutions where every
/// layout ties (all zeros, r·n + c + 1, a(r) + b(c)), by the count-only search (a board of
/// 0s, 1s and 2s).
#[test]
fn every_format_reports_the_smallest_optimal_layout_and_the_records_the_true_count() {
    let mut g = dancelinks::queens::weighted::SplitMix64::new(39);
    let mut cases: Vec<(usize, Vec<i64>)> = vec![(8, vec![0; 64]), (12, vec![0; 144])];
    cases.push((11, (0..121).map(|i| i + 1).collect()));
    cases.push((12, (0..144).map(|i| 5 * (i / 12) - 3 * (i % 12)).collect()));
    cases.push((12, (0..144).map(|_| g.range(0, 2)).collect()));
    cases.push((11, (0..121).map(|_| g.range(0, 1)).collect()));
    for (n, board) in cases {
        let all = placements(n);
        let scores: Vec<i128> = all.iter().map(|q| score(n, &board, q)).collect();
        let best = *scores.iter().max().unwrap();
        let optimal: Vec<&Vec<u32>> = all
            .iter()
            .zip(&scores)
            .filter(|&(_, &s)| s == best)
            .map(|(q, _)| q)
            .collect();
        let input = classic(n, &board);
        for format in FORMATS {
            let out = run(format, &[], &input);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let s = said(format, n, &String::from_utf8(out.stdout).unwrap());
            assert_eq!(s.status, "optimal", "n = {n} {format}");
            assert_eq!(
                (s.value, s.bound),
                (Some(best), Some(best)),
                "n = {n} {format}"
            );
            assert_eq!(s.layout.as_ref(), Some(optimal[0]), "n = {n} {format}");
            if format != "text" {
                let count = optimal.len() as u64;
                assert_eq!(s.optimal_count, Some(count), "n = {n} {format}");
            }
        }
    }
}

/// The all-zero 16×16 board in CSV and JSON: its 14,772,512 optimal layouts are counted, not
/// listed (listing them took over a minute), so every format answers in a few seconds with
/// the smallest 16-queens placement.
#[test]
fn an_all_zero_16_board_is_counted_in_seconds_in_every_format() {
    let n = 16;
    let input = classic(n, &[0; 256]);
    let smallest = first_placement(n);
    for format in FORMATS {
        let started = Instant::now();
        let out = run(format, &["--threads", "1"], &input);
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(took < Duration::from_secs(5), "{format}: {took:?}");
        let s = said(format, n, &String::from_utf8(out.stdout).unwrap());
        assert_eq!(s.status, "optimal", "{format}");
        assert_eq!((s.value, s.bound), (Some(0), Some(0)), "{format}");
        assert_eq!(s.layout.as_ref(), Some(&smallest), "{format}");
        if format != "text" {
            assert_eq!(s.optimal_count, Some(14_772_512), "{format}");
        }
    }
}

/// The lexicographically smallest placement of n queens, by plain backtracking.
fn first_placement(n: usize) -> Vec<u32> {
    fn rec(n: usize, q: &mut Vec<u32>) -> bool {
        let r = q.len();
        if r == n {
            return true;
        }
        for c in 0..n as u32 {
            let safe = q
                .iter()
                .enumerate()
                .all(|(r2, &c2)| c2 != c && r2.abs_diff(r) as u32 != c2.abs_diff(c));
            if safe {
                q.push(c);
                if rec(n, q) {
                    return true;
                }
                q.pop();
            }
        }
        false
    }
    let mut q = Vec::new();
    assert!(rec(n, &mut q));
    q
}

/// `queens random 40 --seed S` and its numbers.
fn random40(seed: u64) -> (String, Vec<i64>) {
    let out = xcover()
        .args(["queens", "random", "40", "--seed", &seed.to_string()])
        .output()
        .unwrap()
        .stdout;
    let text = String::from_utf8(out).unwrap();
    let board = text
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    (text, board)
}

/// A result cut short: a real layout with its real score, a proven bound above it, status
/// `word`, never optimal.
fn check_cut_short(s: &Said, n: usize, board: &[i64], word: &str, what: &str) {
    assert_eq!(s.status, word, "{what}: {s:?}");
    let layout = s.layout.as_ref().expect("a layout");
    assert_eq!(s.value, Some(score(n, board, layout)), "{what}");
    let (value, bound) = (s.value.unwrap(), s.bound.expect("a bound"));
    assert!(value < bound, "{what}: {s:?}");
}

/// `--time-limit 0` is deterministic (the heuristic's layout, the bound proven before the
/// search): text, CSV and JSON say the same value, bound, status and layout.
#[test]
fn a_time_limit_gives_the_same_answer_in_every_format() {
    let (input, board) = random40(11);
    let mut answers = Vec::new();
    for format in FORMATS {
        let out = run(format, &["--time-limit", "0"], &input);
        assert!(out.status.success());
        let s = said(format, 40, &String::from_utf8(out.stdout).unwrap());
        check_cut_short(&s, 40, &board, "feasible", format);
        answers.push((s.status, s.value, s.bound, s.layout));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);
}

/// A time limit on a board whose optimum is known by construction (a placement of 100s on
/// numbers 1..=99: it scores 100·n, every other layout less): in every format the value is at
/// most the optimum and the bound at least, and `optimal` only with the optimum itself.
#[test]
fn a_time_limited_value_and_bound_bracket_the_optimum_in_every_format() {
    let n = 40;
    let mut g = dancelinks::queens::weighted::SplitMix64::new(7);
    let planted = dancelinks::queens::weighted::explicit_layout(n).unwrap();
    let mut board: Vec<i64> = (0..n * n).map(|_| g.range(1, 99)).collect();
    for (r, &c) in planted.iter().enumerate() {
        board[r * n + c as usize] = 100;
    }
    let optimum = 100 * n as i128;
    let input = classic(n, &board);
    for limit in ["0", "0.2"] {
        for format in FORMATS {
            let out = run(format, &["--time-limit", limit], &input);
            assert!(out.status.success());
            let s = said(format, n, &String::from_utf8(out.stdout).unwrap());
            let (value, bound) = (s.value.unwrap(), s.bound.unwrap());
            assert_eq!(value, score(n, &board, s.layout.as_ref().unwrap()));
            assert!(
                value <= optimum && optimum <= bound,
                "{format} {limit}: {s:?}"
            );
            assert_eq!(
                s.status == "optimal",
                value == optimum,
                "{format} {limit}: {s:?}"
            );
        }
    }
}

/// SIGINT in the middle of a search (n = 40: the proof takes minutes): every format reports
/// status `interrupted`, a real layout with its score, a proven bound above it, and exits 130;
/// every bound any format proved is at least every value any format found.
#[test]
fn an_interrupt_gives_the_best_layout_and_bound_in_every_format() {
    let (input, board) = random40(5);
    let mut values = Vec::new();
    let mut bounds = Vec::new();
    for after in [300, 1500] {
        for format in FORMATS {
            let mut args = vec!["queens", "max", "--format", format];
            if format == "text" {
                args.push("--board");
            }
            let (code, out, err) = interrupt_after(
                &args,
                input.as_bytes(),
                Duration::from_millis(after),
                libc::SIGINT,
            );
            assert_eq!(code, 130, "{err}");
            let s = said(format, 40, &out);
            check_cut_short(&s, 40, &board, "interrupted", format);
            values.push(s.value.unwrap());
            bounds.push(s.bound.unwrap());
        }
    }
    let (best, tightest) = (values.iter().max(), bounds.iter().min());
    assert!(best < tightest, "values {values:?}, bounds {bounds:?}");
}

/// A board beyond the range is refused at once, before its numbers are kept: with `-n`, and
/// with n inferred (the reader stops at the first number beyond one board of the largest
/// size).
#[test]
fn boards_beyond_the_range_are_refused_at_once() {
    let max = dancelinks::queens::weighted::MAX_N;
    let started = Instant::now();
    xcover()
        .args(["queens", "max", "-n", "4000", "--time-limit", "1"])
        .write_stdin("1\n1 2 3\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(max.to_string()));
    let n = max + 1;
    let mut input = String::from("1\n");
    for _ in 0..n {
        input += &"7 ".repeat(n);
        input.push('\n');
    }
    let out = xcover()
        .args(["queens", "max", "--time-limit", "1"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{max}×{max}")), "{err}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// Under an address-space limit (`ulimit -v`) a board of the largest size is answered within
/// its time limit when the limit leaves room, and refused at once with exit code 2 and one
/// line saying how much it needs when it does not — never aborted by the allocator.
#[test]
fn under_a_memory_limit_the_largest_board_is_answered_or_refused_cleanly() {
    let n = dancelinks::queens::weighted::MAX_N;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let board = xcover()
        .args(["queens", "random", &n.to_string(), "--seed", "1"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(&path, board).unwrap();
    let bin = env!("CARGO_BIN_EXE_xcover");
    let under = |kb: u64| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {kb} && exec \"$0\" queens max --time-limit 1 --threads 2 \"$1\""
            ))
            .arg(bin)
            .arg(&path)
            .output()
            .unwrap()
    };
    let refused = under(300_000);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(refused.stdout.is_empty());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("needs about") && err.contains("ulimit -v"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let started = Instant::now();
    let answered = under(2_000_000);
    let err = String::from_utf8_lossy(&answered.stderr);
    assert_eq!(answered.status.code(), Some(0), "{err}");
    let line = String::from_utf8(answered.stdout).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 3, "{line}");
    assert!(words[1] == "feasible" || words[1] == "optimal", "{line}");
    let value: i128 = words[0].parse().unwrap();
    let bound: i128 = words[2].strip_prefix("bound=").unwrap().parse().unwrap();
    assert!(value <= bound);
    // The debug build on a busy machine: well within ten times the limit.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}
