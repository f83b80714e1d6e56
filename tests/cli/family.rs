//! Tests: the family of solutions from the shell: `solve --marginals` (text, CSV, JSON Lines)
//! against counts with options forced, `model NAME --marginals` (the queens heat map,
//! byte for byte `queens heatmap`'s), `model NAME --sample K --seed S` (each draw a solution,
//! drawn as `--solve` draws one), and the refusals.

use std::collections::BTreeSet;

use predicates::prelude::*;

use crate::common::xcover;

fn stdout(args: &[&str], stdin: &str) -> String {
    let out = xcover().args(args).write_stdin(stdin).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn model(args: &[&str]) -> String {
    stdout(&[&["model"], args].concat(), "")
}

#[test]
fn marginals_of_langford_pairs_count_the_solutions_taking_each_option() {
    let dlx = model(&["langford", "7"]);
    let csv = stdout(&["solve", "--marginals", "--format", "csv"], &dlx);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("option,line,text,solutions,share"));
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.splitn(5, ',').map(str::to_string).collect())
        .collect();
    let options: Vec<&str> = dlx.lines().skip(2).collect();
    assert_eq!(rows.len(), options.len());
    let mut total = 0u64;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[1], (i + 3).to_string(), "the option's line");
        assert_eq!(row[2], options[i]);
        total += row[3].parse::<u64>().unwrap();
    }
    // 52 solutions of 7 options each.
    assert_eq!(total, 52 * 7);
    // Each marginal is the count of the problem with that option's items taken by it alone:
    // a few checked by a count of the problem with the option forced (the others' items
    // dropped: every option that meets it removed).
    for i in [0usize, 5, 17, 40] {
        let chosen: BTreeSet<&str> = options[i].split(' ').collect();
        let mut forced = dlx
            .lines()
            .take(2)
            .map(|l| l.to_string() + "\n")
            .collect::<String>();
        forced.push_str(options[i]);
        forced.push('\n');
        for (j, o) in options.iter().enumerate() {
            if j != i && o.split(' ').all(|t| !chosen.contains(t)) {
                forced.push_str(o);
                forced.push('\n');
            }
        }
        // The option itself must be taken: it is the only one with its number's item...
        // count the solutions of the reduced problem that take it.
        let count = stdout(&["solve", "--format", "csv"], &forced)
            .lines()
            .skip(1)
            .filter(|l| l.ends_with(&format!(",{}", options[i])))
            .count();
        assert_eq!(rows[i][3], count.to_string(), "option {i}: {}", options[i]);
    }
    // Text and JSON Lines carry the same counts.
    let text = stdout(&["solve", "--marginals"], &dlx);
    assert_eq!(text.lines().next(), Some("52 solutions"));
    for (line, row) in text.lines().skip(1).zip(&rows) {
        assert_eq!(line.split_whitespace().next(), Some(row[3].as_str()));
        assert!(line.ends_with(&format!("{}: {}", row[1], row[2])), "{line}");
    }
    let json = stdout(&["solve", "--marginals", "--format", "json"], &dlx);
    for (line, row) in json.lines().zip(&rows) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["solutions"].to_string(), row[3]);
        assert_eq!(v["text"], row[2].as_str());
    }
}

#[test]
fn the_queens_heat_map_is_one_case_of_the_marginals() {
    for format in ["text", "svg"] {
        let heat = stdout(&["queens", "heatmap", "8", "--format", format], "");
        let marg = model(&["queens", "8", "--marginals", "--format", format]);
        assert_eq!(heat, marg, "{format}");
    }
    let heat = stdout(&["queens", "heatmap", "6", "--format", "csv"], "");
    let marg = model(&["queens", "6", "--marginals", "--format", "csv"]);
    // rank,file,solutions,share against option,line,text,solutions,share: the same counts.
    let a: Vec<&str> = heat
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    let b: Vec<&str> = marg
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(a, b);
    assert_eq!(
        a.iter().map(|c| c.parse::<u32>().unwrap()).sum::<u32>(),
        4 * 6
    );
}

/// A tiling's heat map: a panel per piece, each cell's count the solutions with that piece
/// on it (the 8 tilings of 3x20: every cell covered by some piece in each).
#[test]
fn a_tiling_has_a_heat_map_per_piece() {
    let svg = model(&["pentominoes", "3x20", "--marginals", "--format", "svg"]);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<g class=\"panel\"").count(), 12);
    // Per cell, the counts of the 12 panels add up to the 8 solutions.
    let mut per_cell = std::collections::BTreeMap::new();
    for t in svg.split("<title>").skip(1) {
        let t = &t[..t.find("</title>").unwrap()];
        let (cell, count) = t.rsplit_once(": ").unwrap();
        *per_cell.entry(cell.to_string()).or_insert(0u32) += count.parse::<u32>().unwrap();
    }
    assert_eq!(per_cell.len(), 60);
    assert!(per_cell.values().all(|&c| c == 8), "{per_cell:?}");
}

#[test]
fn samples_are_solutions_drawn_as_the_model_draws_them() {
    // The 8 tilings of 3x20 by the pentominoes, drawn by --solve.
    let all = model(&["pentominoes", "3x20", "--solve", "--limit", "100"]);
    let tilings: BTreeSet<&str> = all.split("\n\n").filter(|t| !t.is_empty()).collect();
    assert_eq!(tilings.len(), 8);
    let drawn = model(&["pentominoes", "3x20", "--sample", "40", "--seed", "3"]);
    let draws: Vec<&str> = drawn.split("\n\n").filter(|t| !t.is_empty()).collect();
    assert_eq!(draws.len(), 40);
    assert!(draws.iter().all(|d| tilings.contains(d)), "{drawn}");
    // 40 draws of 8: more than one tiling comes up.
    assert!(draws.iter().collect::<BTreeSet<_>>().len() > 1);
    assert_eq!(
        model(&["pentominoes", "3x20", "--sample", "40", "--seed", "3"]),
        drawn
    );
    assert_ne!(
        model(&["pentominoes", "3x20", "--sample", "40", "--seed", "4"]),
        drawn
    );
    // SVG: one picture, 12 pieces of each of 3 draws.
    let svg = model(&["pentominoes", "3x20", "--sample", "3", "--format", "svg"]);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("3 uniform samples (seed 0)"));
    assert_eq!(svg.matches("<rect").count(), 3 * 60);
}

#[test]
fn what_has_no_answer_is_refused() {
    xcover()
        .args(["model", "dominoes", "4", "4", "--sample", "2"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("multiplicities"));
    xcover()
        .args(["model", "matchings", "6", "--marginals", "--format", "svg"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no heat map"));
    xcover()
        .args(["model", "langford", "7", "--sample", "2", "--format", "csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("xcover solve --sample"));
    xcover()
        .args(["model", "langford", "7", "--marginals", "--solve"])
        .assert()
        .code(2);
    xcover()
        .args([
            "model",
            "langford",
            "12",
            "--marginals",
            "--memo-mem",
            "64K",
        ])
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::contains("memory budget"));
    xcover()
        .args([
            "solve",
            "--marginals",
            "--sample",
            "3",
            "examples/data/langford3.dlx",
        ])
        .assert()
        .code(2);
    // No solution: every count is 0.
    let none = stdout(&["solve", "--marginals", "--format", "csv"], "a b\na\n");
    assert_eq!(none, "option,line,text,solutions,share\n0,2,a,0,\n");
}

/// edge-matching's --seed makes the puzzle: its draws take --sample-seed.
#[test]
fn edge_matching_samples_take_their_own_seed() {
    let args = [
        "edge-matching",
        "3x3",
        "--colours",
        "2",
        "--seed",
        "1",
        "--sample",
        "5",
    ];
    let a = model(&[&args[..], &["--sample-seed", "4"]].concat());
    let b = model(&[&args[..], &["--sample-seed", "4"]].concat());
    assert_eq!(a, b);
    assert_eq!(a.matches("\n\n").count(), 5);
    let solved = model(&[
        "edge-matching",
        "3x3",
        "--colours",
        "2",
        "--seed",
        "1",
        "--solve",
        "--limit",
        "1000",
    ]);
    for draw in a.split("\n\n").filter(|d| !d.is_empty()) {
        assert!(solved.contains(draw), "{draw}");
    }
}
