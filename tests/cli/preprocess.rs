//! Tests: preprocessing. Random XCC problems keep their solutions (as sets of original
//! options); `xcover solve --preprocess` gives the same counts, the same solutions written
//! with the same lines, says what it removed with `--stats`, and refuses what it cannot do.

use crate::common::xcover;
use crate::instances;

/// `xcover solve FILE ARGS`: (stdout, stderr), after checking that it succeeded.
fn solve(file: &std::path::Path, args: &[&str]) -> (String, String) {
    let out = xcover().arg("solve").arg(file).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The `removed R of N options` figures of `--stats`: (R, N).
fn removed_of(stderr: &str) -> (usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("preprocess: removed "))
        .unwrap_or_else(|| panic!("no preprocess line in {stderr:?}"));
    let words: Vec<&str> = line.split(' ').collect();
    (words[2].parse().unwrap(), words[4].parse().unwrap())
}

fn removed(stderr: &str) -> usize {
    removed_of(stderr).0
}

const SUDOKU: &str =
    "53..7.... 6..195... .98....6. 8...6...3 4..8.3..1 7...2...6 .6....28. ...419..5 ....8..79";

#[test]
fn solve_preprocess_counts_and_lists_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let sudoku = dir.path().join("sudoku.dlx");
    std::fs::write(&sudoku, instances::sudoku(SUDOKU)).unwrap();
    let pento = std::path::Path::new("tests/data/pentominoes-6x10-x-quarter.dlx");
    for (file, count, removes) in [(&*sudoku, "1", true), (pento, "2339", true)] {
        let (plain, _) = solve(file, &["--count", "-t", "1"]);
        assert_eq!(plain.trim(), count);
        for threads in ["1", "2"] {
            let (pre, err) = solve(file, &["--count", "--preprocess", "--stats", "-t", threads]);
            assert_eq!(pre, plain, "{}", file.display());
            let r = removed(&err);
            assert_eq!(r > 0, removes, "{err}");
        }
    }
    // This Sudoku is solved by preprocessing alone: the 81 options of its solution are left.
    let (_, err) = solve(&sudoku, &["--count", "--preprocess", "--stats"]);
    let (r, n) = removed_of(&err);
    assert_eq!(n - r, 81, "{err}");

    // Listings: the same solutions, each option written as in the input with its line. The
    // solutions (and the options in each) may come in another order: compare them sorted.
    for (file, threads) in [(&*sudoku, "1"), (pento, "1"), (pento, "2")] {
        let (plain, _) = solve(file, &["--format", "json", "-t", threads]);
        let (pre, _) = solve(file, &["--format", "json", "--preprocess", "-t", threads]);
        assert_eq!(plain.lines().count(), if file == pento { 2339 } else { 1 });
        assert_eq!(unnumbered(&pre), unnumbered(&plain));
    }
    let (plain, _) = solve(&sudoku, &["--format", "csv"]);
    let (pre, _) = solve(&sudoku, &["--format", "csv", "--preprocess"]);
    let rows = |s: &str| -> Vec<String> {
        let mut v: Vec<String> = s
            .lines()
            .map(|l| {
                // solution,position,line,option: all but the position.
                let f: Vec<&str> = l.splitn(4, ',').collect();
                format!("{},{},{}", f[0], f[2], f[3])
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(rows(&pre), rows(&plain));
    assert_eq!(plain.lines().count(), 82);
}

/// JSON solution records as sorted (line, option) lists, sorted, without their numbers.
fn unnumbered(s: &str) -> Vec<Vec<(u64, String)>> {
    let mut all: Vec<Vec<(u64, String)>> = s
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let lines = v["lines"].as_array().unwrap();
            let options = v["options"].as_array().unwrap();
            assert_eq!(lines.len(), options.len());
            let mut s: Vec<(u64, String)> = lines
                .iter()
                .zip(options)
                .map(|(l, o)| (l.as_u64().unwrap(), o.as_str().unwrap().to_string()))
                .collect();
            s.sort();
            s
        })
        .collect();
    all.sort();
    all
}

#[test]
fn solve_preprocess_optimises_the_same() {
    let costs = std::path::Path::new("examples/data/costs.dlx");
    for sense in ["--minimize", "--maximize"] {
        let (plain, _) = solve(costs, &[sense, "--top", "3", "--format", "csv"]);
        let (pre, _) = solve(
            costs,
            &[sense, "--top", "3", "--format", "csv", "--preprocess"],
        );
        assert_eq!(pre, plain, "{sense}");
    }
}

#[test]
fn solve_preprocess_refuses_shards_and_multiplicities() {
    let out = xcover()
        .args([
            "solve",
            "tests/data/pentominoes-6x10.dlx",
            "--count",
            "--preprocess",
            "--shard",
            "1/2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--preprocess cannot be combined with --shard"),
        "{err}"
    );

    let out = xcover()
        .args([
            "solve",
            "examples/data/multiplicity.dlx",
            "--count",
            "--preprocess",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("multiplicities"), "{err}");
}
