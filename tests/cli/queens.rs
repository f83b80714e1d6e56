//! Tests: `xcover queens count`, `list` and `merge`, and the n-queens model behind them.

use std::collections::HashSet;

use predicates::prelude::*;
use serde_json::Value;

use crate::common::xcover;

use dancelinks::io::export::Format;
use dancelinks::io::shard::write_records;
use dancelinks::queens::count::Request;
use dancelinks::queens::model::task_count;
use dancelinks::records::{Kind, Shard, ShardRecord};

/// A000170 for n = 1..=14 (OEIS; also /work/shared/reference/queens-counts.csv).
const A000170: [u128; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];
/// A002562 for n = 1..=14: fundamental solutions.
const A002562: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

fn stdout_of(args: &[&str]) -> String {
    let out = xcover().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "xcover {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "nothing on stderr without --stats");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn json_record(args: &[&str]) -> Value {
    serde_json::from_str(stdout_of(args).trim()).expect("one JSON record")
}

fn as_u128(v: &Value) -> u128 {
    v.as_u64().expect("a number") as u128
}

/// Independent check: no two queens share a rank, file or diagonal.
fn is_solution(q: &[usize]) -> bool {
    let n = q.len();
    (0..n).all(|i| q[i] < n && (i + 1..n).all(|j| q[i] != q[j] && j - i != q[i].abs_diff(q[j])))
}

/// The 8 images of a solution under the symmetries of the square, computed from the boards
/// (rotating the set of squares), independently of the crate's symmetry module.
fn images(q: &[usize]) -> Vec<Vec<usize>> {
    let n = q.len();
    let mut squares: Vec<(usize, usize)> = q.iter().enumerate().map(|(r, &c)| (r, c)).collect();
    let mut out = Vec::new();
    for _ in 0..4 {
        for flip in [false, true] {
            let mut cols = vec![0; n];
            for &(r, c) in &squares {
                let c = if flip { n - 1 - c } else { c };
                cols[r] = c;
            }
            out.push(cols);
        }
        // Rotate a quarter turn: (r, c) -> (c, n-1-r).
        squares = squares.iter().map(|&(r, c)| (c, n - 1 - r)).collect();
    }
    out
}

#[test]
fn count_prints_a000170_and_unique_prints_a002562() {
    assert_eq!(stdout_of(&["queens", "count", "8"]), "92\n");
    assert_eq!(stdout_of(&["queens", "count", "8", "--unique"]), "12\n");
    for n in 1..=13usize {
        let r = json_record(&[
            "queens",
            "count",
            &n.to_string(),
            "--unique",
            "--engine",
            "dlx",
            "--format",
            "json",
        ]);
        assert_eq!(as_u128(&r["solutions"]), A000170[n - 1], "n = {n}");
        assert_eq!(as_u128(&r["unique"]), A002562[n - 1], "unique, n = {n}");
        assert_eq!(r["n"], n);
        assert_eq!(r["engine"], "dlx");
        assert!(r["nodes"].as_u64().unwrap() > 0);
        assert!(r["seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(r["status"], "complete");
        assert_eq!(r["symmetry"], "full");
        // The plain record: no shard fields without --shard.
        assert!(r.get("check").is_none() && r.get("record").is_none(), "{r}");
    }
    // With --shard, the sealed shard record merge takes.
    let r = json_record(&["queens", "count", "8", "--shard", "1/1", "--format", "json"]);
    assert_eq!(
        (r["record"].as_str(), r["kind"].as_str()),
        (Some("shard"), Some("queens-count"))
    );
    assert_eq!(
        (r["shard"].as_u64(), r["shards"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(r["check"].as_str().unwrap().len(), 16);
    assert_eq!(as_u128(&r["solutions"]), 92);
    assert_eq!(stdout_of(&["queens", "count", "14"]), "365596\n");
    // The default engine is the word-parallel counter, with the same answers.
    for n in 1..=13usize {
        let r = json_record(&["queens", "count", &n.to_string(), "--format", "json"]);
        assert_eq!(as_u128(&r["solutions"]), A000170[n - 1], "n = {n}");
        assert_eq!(r["engine"], "bits", "n = {n}");
    }
    // A symmetry only dancing links uses makes dlx the default.
    let r = json_record(&[
        "queens",
        "count",
        "9",
        "--symmetry",
        "none",
        "--format",
        "json",
    ]);
    assert_eq!(
        (as_u128(&r["solutions"]), &r["engine"]),
        (352, &"dlx".into())
    );
}

#[test]
fn count_csv_record_has_a_header_and_the_fields() {
    let out = stdout_of(&["queens", "count", "6", "--format", "csv"]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("n,solutions,unique,status,engine,symmetry,nodes,seconds")
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..6], ["6", "4", "", "complete", "bits", "full"]);
    assert_eq!(lines.next(), None);
    // With --unique, the classes; with --shard, the shard record.
    let out = stdout_of(&["queens", "count", "8", "--unique", "--format", "csv"]);
    assert!(
        out.lines().nth(1).unwrap().starts_with("8,92,12,complete,"),
        "{out}"
    );
    let out = stdout_of(&["queens", "count", "6", "--format", "csv", "--shard", "1/1"]);
    assert!(out.starts_with("record,kind,fingerprint,n,"), "{out}");
}

#[test]
fn same_answer_and_work_with_one_and_two_threads() {
    for n in ["10", "11"] {
        let a = json_record(&[
            "queens", "count", n, "--unique", "--format", "json", "-t", "1", "--shard", "1/1",
        ]);
        let b = json_record(&[
            "queens", "count", n, "--unique", "--format", "json", "-t", "2", "--shard", "1/1",
        ]);
        for key in [
            "solutions",
            "unique",
            "nodes",
            "updates",
            "tasks",
            "fingerprint",
        ] {
            assert_eq!(a[key], b[key], "{key}, n = {n}");
        }
    }
}

#[test]
fn engine_bits_gives_the_same_counts() {
    for n in [1usize, 6, 8, 10] {
        let r = json_record(&[
            "queens",
            "count",
            &n.to_string(),
            "--engine",
            "bits",
            "--unique",
            "--format",
            "json",
        ]);
        assert_eq!(r["engine"], "bits");
        assert_eq!(as_u128(&r["solutions"]), A000170[n - 1]);
        assert_eq!(as_u128(&r["unique"]), A002562[n - 1]);
    }
}

/// Parses `list --format csv` output into (number, columns, class size).
fn parse_list_csv(out: &str, n: usize, unique: bool) -> Vec<(u64, Vec<usize>, Option<u8>)> {
    let mut lines = out.lines();
    let mut header = String::from("solution,n");
    for r in 0..n {
        header += &format!(",q{r}");
    }
    if unique {
        header += ",class_size";
    }
    assert_eq!(lines.next(), Some(header.as_str()));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 2 + n + unique as usize, "line {l}");
            assert_eq!(f[1], n.to_string(), "line {l}");
            let q = f[2..n + 2].iter().map(|x| x.parse().unwrap()).collect();
            let size = unique.then(|| f[n + 2].parse().unwrap());
            (f[0].parse().unwrap(), q, size)
        })
        .collect()
}

#[test]
fn list_gives_every_solution_once_in_lexicographic_order() {
    for n in [1usize, 4, 6, 8, 10] {
        let out = stdout_of(&["queens", "list", &n.to_string(), "--format", "csv"]);
        let rows = parse_list_csv(&out, n, false);
        assert_eq!(rows.len() as u128, A000170[n - 1], "n = {n}");
        let mut seen = HashSet::new();
        for (i, (num, q, _)) in rows.iter().enumerate() {
            assert_eq!(*num, i as u64 + 1, "numbered from 1");
            assert!(is_solution(q), "{q:?} is not a solution");
            assert!(seen.insert(q.clone()), "duplicate {q:?}");
            if i > 0 {
                assert!(rows[i - 1].1 < *q, "strictly increasing order");
            }
        }
    }
    let out = stdout_of(&["queens", "list", "8", "--format", "csv", "--limit", "1"]);
    assert_eq!(
        out,
        "solution,n,q0,q1,q2,q3,q4,q5,q6,q7\n1,8,0,4,7,5,2,6,1,3\n"
    );
}

#[test]
fn list_is_the_same_with_one_and_two_threads() {
    let a = stdout_of(&["queens", "list", "11", "--format", "csv", "-t", "1"]);
    let b = stdout_of(&["queens", "list", "11", "--format", "csv", "-t", "2"]);
    assert_eq!(a, b);
    assert_eq!(a.lines().count() as u128, A000170[10] + 1);
}

#[test]
fn unique_list_gives_class_representatives_whose_sizes_add_up() {
    for n in [1usize, 5, 6, 8, 10] {
        let out = stdout_of(&[
            "queens",
            "list",
            &n.to_string(),
            "--format",
            "csv",
            "--unique",
        ]);
        let rows = parse_list_csv(&out, n, true);
        assert_eq!(rows.len() as u128, A002562[n - 1], "n = {n}");
        let mut total = 0u128;
        let mut classes = HashSet::new();
        for (i, (_, q, size)) in rows.iter().enumerate() {
            assert!(is_solution(q));
            let mut imgs = images(q);
            assert_eq!(
                imgs.iter().min().unwrap(),
                q,
                "representative is the smallest image"
            );
            imgs.sort();
            imgs.dedup();
            assert_eq!(imgs.len() as u8, size.unwrap(), "class size of {q:?}");
            assert!(classes.insert(imgs), "two representatives of one class");
            if i > 0 {
                assert!(rows[i - 1].1 < *q);
            }
            total += size.unwrap() as u128;
        }
        assert_eq!(total, A000170[n - 1], "class sizes add up, n = {n}");
    }
}

#[test]
fn list_formats_board_json_svg_and_output_file() {
    let board = stdout_of(&["queens", "list", "6"]);
    let blocks: Vec<&str> = board.split("\n\n").collect();
    assert_eq!(blocks.len(), 4);
    for (i, b) in blocks.iter().enumerate() {
        let lines: Vec<&str> = b.trim_end().lines().collect();
        assert_eq!(lines.len(), 7);
        assert!(lines[0].starts_with(&format!("Solution {}:", i + 1)));
        let q: Vec<usize> = lines[1..]
            .iter()
            .map(|l| {
                let cells: Vec<&str> = l.split(' ').collect();
                assert_eq!(cells.len(), 6);
                assert_eq!(cells.iter().filter(|&&c| c == "X").count(), 1);
                assert!(cells.iter().all(|&c| c == "X" || c == "."));
                cells.iter().position(|&c| c == "X").unwrap()
            })
            .collect();
        assert!(is_solution(&q));
    }

    let json = stdout_of(&[
        "queens", "list", "8", "--format", "json", "--unique", "--limit", "3",
    ]);
    let recs: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["solution"], 1);
    assert_eq!(recs[0]["n"], 8);
    let q: Vec<u64> = (0..8)
        .map(|r| recs[0][format!("q{r}")].as_u64().unwrap())
        .collect();
    assert_eq!(q, [0, 4, 7, 5, 2, 6, 1, 3]);
    assert_eq!(recs[0]["class_size"], 8);
    let plain = stdout_of(&["queens", "list", "8", "--format", "json", "--limit", "1"]);
    assert_eq!(
        plain,
        "{\"solution\":1,\"n\":8,\"q0\":0,\"q1\":4,\"q2\":7,\"q3\":5,\"q4\":2,\"q5\":6,\
         \"q6\":1,\"q7\":3}\n"
    );

    let svg = stdout_of(&["queens", "list", "8", "--format", "svg", "--unique"]);
    assert!(svg.starts_with("<svg "));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<g ").count(), 12);
    assert_eq!(svg.matches("<circle ").count(), 12 * 8);
    assert!(svg.contains(" viewBox=\"0 0 "));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    xcover()
        .args(["queens", "list", "7", "--format", "csv", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        stdout_of(&["queens", "list", "7", "--format", "csv"])
    );
}

/// Runs every shard of M for board n in the given format, writing files into `dir`.
fn shard_files(dir: &std::path::Path, n: usize, m: usize, format: &str) -> Vec<std::path::PathBuf> {
    (1..=m)
        .map(|i| {
            let path = dir.join(format!("s{n}-{i}-of-{m}.{format}"));
            let out = stdout_of(&[
                "queens",
                "count",
                &n.to_string(),
                "--unique",
                "--shard",
                &format!("{i}/{m}"),
                "--format",
                format,
            ]);
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

fn merge_json(files: &[std::path::PathBuf]) -> Value {
    let out = xcover()
        .args(["queens", "merge", "--format", "json"])
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn merged_shards_equal_the_single_count() {
    let n = 10;
    let single = json_record(&[
        "queens", "count", "10", "--unique", "--format", "json", "--shard", "1/1",
    ]);
    let tasks = task_count(n).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (m, format) in [
        (1, "json"),
        (2, "csv"),
        (3, "text"),
        (7, "json"),
        (tasks + 5, "csv"),
    ] {
        let files = shard_files(dir.path(), n, m, format);
        let total = merge_json(&files);
        for key in [
            "n",
            "fingerprint",
            "solutions",
            "unique",
            "nodes",
            "updates",
            "tasks",
        ] {
            assert_eq!(total[key], single[key], "{key}, M = {m}, {format}");
        }
        // The total is the record of the whole: shard 1/1, mergeable again.
        assert_eq!(
            (total["shard"].as_u64(), total["shards"].as_u64()),
            (Some(1), Some(1))
        );
    }
    // Text output of merge is the bare count, as count prints it.
    let files = shard_files(dir.path(), n, 2, "json");
    xcover()
        .args(["queens", "merge"])
        .args(&files)
        .assert()
        .success()
        .stdout("92\n");
}

#[test]
fn merge_rejects_missing_duplicate_mixed_and_corrupted_shards() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 8, 4, "json");
    // Missing shards 2 and 4.
    xcover()
        .args(["queens", "merge"])
        .args([&files[0], &files[2]])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("missing shards of 4: 2, 4"));
    // Shard 3 twice.
    xcover()
        .args(["queens", "merge"])
        .args(&files)
        .arg(&files[2])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("duplicate shard 3/4"));
    // Mixed n.
    let other = shard_files(dir.path(), 9, 4, "json");
    xcover()
        .args(["queens", "merge"])
        .args(&files[..3])
        .arg(&other[3])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("records of different runs"));
    // A corrupted solutions field is caught by the check.
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut rec: Value = serde_json::from_str(&text).unwrap();
    rec["solutions"] = Value::from(rec["solutions"].as_u64().unwrap() + 1);
    std::fs::write(&files[1], rec.to_string()).unwrap();
    xcover()
        .args(["queens", "merge"])
        .args(&files)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("edited or corrupted"));
    // Not a record at all.
    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "hello\nworld\n").unwrap();
    xcover()
        .args(["queens", "merge"])
        .arg(&junk)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("junk.txt"));
}

#[test]
fn bad_board_sizes_and_shards_are_rejected_with_exit_2() {
    for cmd in ["count", "list"] {
        for bad in [&[][..], &["0"], &["-1"], &["eight"], &["33"], &["1.5"]] {
            xcover()
                .args(["queens", cmd])
                .args(bad)
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains("<N>"));
        }
    }
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        xcover()
            .args(["queens", "count", "8", "--shard", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--shard"));
    }
}

#[test]
fn merge_adds_counts_beyond_u64_exactly_in_json_and_csv() {
    // Two fabricated shard records whose sum exceeds u64::MAX (as n = 29 and up would).
    let a: u128 = u64::MAX as u128 - 5;
    let b: u128 = 1_000_000_000_000_000_000;
    let mut request = Request::new(30);
    let mut record = |i: u64, solutions: u128, nodes: u64| {
        request.shard = Shard::new(i, 2).unwrap();
        let mut r = ShardRecord::new(Kind::QueensCount, request.fingerprint(), request.shard);
        r.n = Some(30);
        r.engine = Some("dlx".into());
        r.symmetry = Some("full".into());
        r.solutions = solutions;
        r.nodes = nodes;
        r.tasks = 1;
        r.seconds = 1.5;
        r.seal()
    };
    let dir = tempfile::tempdir().unwrap();
    let f1 = dir.path().join("a.json");
    let f2 = dir.path().join("b.csv");
    let mut buf = Vec::new();
    write_records(&mut buf, [&record(1, a, 7)], Format::Json).unwrap();
    std::fs::write(&f1, &buf).unwrap();
    buf.clear();
    write_records(&mut buf, [&record(2, b, 8)], Format::Csv).unwrap();
    std::fs::write(&f2, &buf).unwrap();
    let total = a + b;
    assert!(total > u64::MAX as u128);
    xcover()
        .args(["queens", "merge"])
        .args([&f1, &f2])
        .assert()
        .success()
        .stdout(format!("{total}\n"));
    let out = xcover()
        .args(["merge", "--format", "csv"])
        .args([&f1, &f2])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().nth(1).unwrap();
    assert!(
        row.contains(&format!(",30,dlx,full,1,1,{total},,15,,2,complete,")),
        "{row}"
    );
}

#[test]
fn list_svg_streams_the_first_boards_and_refuses_a_huge_picture() {
    // n = 20 has 39 billion solutions: the first two come out at once, as with CSV.
    let start = std::time::Instant::now();
    let svg = stdout_of(&["queens", "list", "20", "--format", "svg", "--limit", "2"]);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(svg.matches("<g ").count(), 2);
    assert_eq!(svg.matches("<circle ").count(), 2 * 20);
    // The same boards as the CSV.
    let csv = stdout_of(&["queens", "list", "20", "--format", "csv", "--limit", "2"]);
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').skip(2).collect();
    let cx: Vec<String> = first
        .iter()
        .map(|f| format!("cx=\"{}\"", f.parse::<usize>().unwrap() * 12 + 6))
        .collect();
    let g1 = svg.split("<g ").nth(1).unwrap();
    let circles: Vec<&str> = g1.lines().filter(|l| l.starts_with("<circle")).collect();
    for (c, want) in circles.iter().zip(&cx) {
        assert!(c.contains(want.as_str()), "{c} {want}");
    }
    // 1,000 boards fit; more do not, and nothing is written.
    let svg = stdout_of(&["queens", "list", "12", "--format", "svg", "--limit", "1000"]);
    assert_eq!(svg.matches("<g ").count(), 1000);
    for args in [
        vec!["queens", "list", "12", "--format", "svg"],
        vec!["queens", "list", "12", "--format", "svg", "--limit", "1001"],
    ] {
        xcover()
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("--limit").and(predicate::str::contains("csv")));
    }
    // Fewer solutions than the limit: all of them.
    let svg = stdout_of(&["queens", "list", "8", "--format", "svg", "--limit", "5000"]);
    assert_eq!(svg.matches("<g ").count(), 92);
}

#[test]
fn list_limit_zero_is_refused() {
    for format in ["board", "csv", "json", "svg"] {
        xcover()
            .args(["queens", "list", "8", "--limit", "0", "--format", format])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("--limit"));
    }
}
