//! Tests: `queens list` with both engines (byte-identical output for every n and format, any
//! thread count, with a limit) and `queens heatmap` (row and column sums, the 8-queens table
//! against brute force, the SVG picture).

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// A000170 for n = 1..=14.
const A000170: [u128; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];
/// A002562 for n = 1..=14.
const A002562: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

fn xcover() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
}

fn stdout_of(args: &[&str]) -> Vec<u8> {
    let out = xcover().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn both_engines_write_the_same_bytes_for_every_n_and_format() {
    for n in 1..=12usize {
        let ns = n.to_string();
        for format in ["board", "csv", "json", "svg"] {
            for unique in [false, true] {
                let mut args = vec!["queens", "list", &ns, "--format", format];
                if unique {
                    args.push("--unique");
                }
                if format == "svg" {
                    args.extend(["--limit", "1000"]);
                }
                let bits = stdout_of(&[&args[..], &["--engine", "bits", "-t", "2"]].concat());
                let dlx = stdout_of(&[&args[..], &["--engine", "dlx", "-t", "1"]].concat());
                assert!(bits == dlx, "n = {n} {format} unique = {unique}");
                if format == "csv" {
                    let want = if unique { A002562 } else { A000170 };
                    let rows = bits.iter().filter(|&&b| b == b'\n').count() as u128;
                    assert_eq!(rows, want[n - 1] + 1, "n = {n} unique = {unique}");
                }
            }
        }
    }
}

#[test]
fn both_engines_write_the_same_csv_for_13_and_14() {
    for n in ["13", "14"] {
        let bits = stdout_of(&["queens", "list", n, "--format", "csv", "--engine", "bits"]);
        let dlx = stdout_of(&["queens", "list", n, "--format", "csv", "--engine", "dlx"]);
        assert!(bits == dlx, "n = {n}");
    }
}

/// The boards of a `queens list --format svg` picture, in order: (label, columns), read from
/// each board's group (its label, then its queens' centres, rank by rank).
fn svg_boards(svg: &str) -> Vec<(String, Vec<usize>)> {
    let attr = |tag: &str, name: &str| -> usize {
        let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    let mut boards = Vec::new();
    for group in svg.split("<g transform=").skip(1) {
        let group = group.split("</g>").next().unwrap();
        let label = group.split("<text").nth(1).unwrap();
        let label = label[label.find('>').unwrap() + 1..label.find("</text>").unwrap()].to_string();
        let cell = attr(group.split("<rect").nth(1).unwrap(), "width");
        let mut q = Vec::new();
        for circle in group.split("<circle").skip(1) {
            q.push(attr(circle, "cx") / cell);
        }
        boards.push((label, q));
    }
    boards
}

#[test]
fn svg_draws_the_solutions_the_csv_lists_in_its_order() {
    let cases = [
        (6, false, "1000"),
        (8, false, "1000"),
        (8, true, "1000"),
        (10, false, "200"),
        (13, true, "37"),
        (15, false, "50"),
    ];
    for (n, unique, limit) in cases {
        let ns = n.to_string();
        let mut args = vec!["queens", "list", &ns, "--limit", limit];
        if unique {
            args.push("--unique");
        }
        let csv =
            String::from_utf8(stdout_of(&[&args[..], &["--format", "csv"]].concat())).unwrap();
        let want: Vec<(String, Vec<usize>)> = csv
            .lines()
            .skip(1)
            .map(|row| {
                let f: Vec<usize> = row.split(',').map(|x| x.parse().unwrap()).collect();
                let label = match unique {
                    true => format!("#{} (class of {})", f[0], f[n + 2]),
                    false => format!("#{}", f[0]),
                };
                (label, f[2..n + 2].to_vec())
            })
            .collect();
        assert!(!want.is_empty());
        for engine in ["bits", "dlx"] {
            let svg = stdout_of(&[&args[..], &["--format", "svg", "--engine", engine]].concat());
            let got = svg_boards(&String::from_utf8(svg).unwrap());
            assert_eq!(
                got, want,
                "n = {n} unique = {unique} --limit {limit} {engine}"
            );
        }
    }
}

#[test]
fn threads_and_limits_keep_the_order() {
    let all = stdout_of(&["queens", "list", "11", "--format", "json", "-t", "1"]);
    for engine in ["bits", "dlx"] {
        for t in ["0", "1", "3"] {
            let out = stdout_of(&[
                "queens", "list", "11", "--format", "json", "--engine", engine, "-t", t,
            ]);
            assert!(out == all, "{engine} -t {t}");
            for limit in [1usize, 7, 1000, 2680, 5000] {
                let out = stdout_of(&[
                    "queens",
                    "list",
                    "11",
                    "--format",
                    "json",
                    "--engine",
                    engine,
                    "-t",
                    t,
                    "--limit",
                    &limit.to_string(),
                ]);
                let want: Vec<u8> = all
                    .split_inclusive(|&b| b == b'\n')
                    .take(limit)
                    .flatten()
                    .copied()
                    .collect();
                assert!(out == want, "{engine} -t {t} --limit {limit}");
            }
        }
    }
    xcover()
        .args(["queens", "list", "8", "-t", "1025"])
        .assert()
        .code(2);
    xcover()
        .args(["queens", "list", "8", "--engine", "knuth"])
        .assert()
        .code(2);
}

/// The columns of each CSV row of `queens list` (after the header), checked to be a solution.
fn csv_solutions(csv: &[u8], n: usize) -> Vec<Vec<usize>> {
    let text = String::from_utf8(csv.to_vec()).unwrap();
    text.lines()
        .skip(1)
        .enumerate()
        .map(|(i, row)| {
            let f: Vec<usize> = row.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!((f[0], f[1]), (i + 1, n), "{row}");
            let q = f[2..n + 2].to_vec();
            let mut files = q.clone();
            files.sort_unstable();
            assert!(
                files.iter().copied().eq(0..n),
                "{row}: not one queen per file"
            );
            for a in 0..n {
                for b in a + 1..n {
                    assert_ne!(q[a].abs_diff(q[b]), b - a, "{row}: a diagonal");
                }
            }
            q
        })
        .collect()
}

#[test]
fn search_order_lists_every_solution_once() {
    for n in 1..=11usize {
        let ns = n.to_string();
        for unique in [false, true] {
            let mut args = vec![
                "queens", "list", &ns, "--order", "search", "--format", "csv",
            ];
            if unique {
                args.push("--unique");
            }
            let out = stdout_of(&args);
            let mut got = csv_solutions(&out, n);
            let want = if unique { A002562 } else { A000170 };
            assert_eq!(got.len() as u128, want[n - 1], "n = {n} unique = {unique}");
            // The same solutions as the lexicographic listing, each once.
            let lex_args: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| *a != "--order" && *a != "search")
                .collect();
            let lex = csv_solutions(&stdout_of(&lex_args), n);
            got.sort();
            assert_eq!(got, lex, "n = {n} unique = {unique}");
            // Any thread count, and --engine dlx, list in the same order.
            let again = stdout_of(&[&args[..], &["-t", "3", "--engine", "dlx"]].concat());
            assert!(again == out, "n = {n} unique = {unique}");
        }
    }
}

#[test]
fn search_order_gives_first_solutions_of_large_boards_at_once() {
    for n in ["24", "30", "31", "32"] {
        let size: usize = n.parse().unwrap();
        let t = std::time::Instant::now();
        let out = stdout_of(&[
            "queens", "list", n, "--order", "search", "--limit", "50", "--format", "csv",
        ]);
        let elapsed = t.elapsed();
        let mut q = csv_solutions(&out, size);
        assert_eq!(q.len(), 50);
        q.sort();
        q.dedup();
        assert_eq!(q.len(), 50, "n = {n}: distinct");
        // Lexicographic order takes seconds to minutes here; allow a loaded machine.
        assert!(elapsed.as_secs() < 10, "n = {n}: {elapsed:?}");
        let svg = stdout_of(&[
            "queens", "list", n, "--order", "search", "--limit", "5", "--format", "svg",
        ]);
        let boards = svg_boards(&String::from_utf8(svg).unwrap());
        let first: Vec<Vec<usize>> = csv_solutions(&out, size).into_iter().take(5).collect();
        assert_eq!(
            boards.into_iter().map(|(_, q)| q).collect::<Vec<_>>(),
            first
        );
    }
    xcover()
        .args([
            "queens", "list", "8", "--order", "search", "--engine", "bits",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--order search"));
}

#[test]
fn help_shows_examples() {
    for cmd in ["list", "heatmap"] {
        xcover()
            .args(["queens", cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"));
    }
}

/// The heat map of `n` from `queens heatmap --format csv`, rank-major, checking the header.
fn heat_csv(n: usize, unique: bool) -> Vec<u128> {
    let ns = n.to_string();
    let mut args = vec!["queens", "heatmap", &ns, "--format", "csv"];
    if unique {
        args.push("--unique");
    }
    let out = String::from_utf8(stdout_of(&args)).unwrap();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("rank,file,solutions,share"));
    let mut counts = vec![0u128; n * n];
    let mut rows = 0;
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 4, "{l}");
        assert_eq!(f[0].parse::<usize>().unwrap(), i / n);
        assert_eq!(f[1].parse::<usize>().unwrap(), i % n);
        counts[i] = f[2].parse().unwrap();
        rows += 1;
    }
    assert_eq!(rows, n * n);
    counts
}

#[test]
fn heatmap_ranks_and_files_sum_to_the_number_of_solutions() {
    for n in 1..=10usize {
        for unique in [false, true] {
            let c = heat_csv(n, unique);
            let want = if unique { A002562 } else { A000170 }[n - 1];
            for i in 0..n {
                let rank: u128 = (0..n).map(|f| c[i * n + f]).sum();
                let file: u128 = (0..n).map(|r| c[r * n + i]).sum();
                assert_eq!(rank, want, "n = {n} rank {i} unique = {unique}");
                if !unique {
                    assert_eq!(file, want, "n = {n} file {i}");
                }
            }
        }
    }
}

#[test]
fn heatmap_of_8_is_the_brute_force_table_and_has_the_8_symmetries() {
    let n = 8usize;
    let mut want = vec![0u128; n * n];
    let mut q = [0usize; 8];
    // Every placement of one queen per rank (8^8), kept when no two share a file or diagonal.
    for code in 0..8u32.pow(8) {
        let mut x = code;
        for slot in q.iter_mut() {
            *slot = (x % 8) as usize;
            x /= 8;
        }
        let ok = (0..n).all(|a| (a + 1..n).all(|b| q[a] != q[b] && q[a].abs_diff(q[b]) != b - a));
        if ok {
            for (r, &f) in q.iter().enumerate() {
                want[r * n + f] += 1;
            }
        }
    }
    let got = heat_csv(8, false);
    assert_eq!(got, want);
    for r in 0..n {
        for f in 0..n {
            let c = got[r * n + f];
            for (r2, f2) in [
                (r, n - 1 - f),
                (n - 1 - r, f),
                (n - 1 - r, n - 1 - f),
                (f, r),
                (n - 1 - f, r),
                (f, n - 1 - r),
                (n - 1 - f, n - 1 - r),
            ] {
                assert_eq!(got[r2 * n + f2], c);
            }
        }
    }
    // JSON: the same records, flat; text: the same table.
    let json =
        String::from_utf8(stdout_of(&["queens", "heatmap", "8", "--format", "json"])).unwrap();
    let recs: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 64);
    for (i, v) in recs.iter().enumerate() {
        assert_eq!(v["solutions"].as_u64().unwrap() as u128, want[i]);
        let share = v["share"].as_f64().unwrap();
        assert!((share - want[i] as f64 / 92.0).abs() < 1e-12);
    }
    let text = String::from_utf8(stdout_of(&["queens", "heatmap", "8"])).unwrap();
    let table: Vec<u128> = text
        .lines()
        .skip(1)
        .flat_map(|l| l.split_whitespace().map(|x| x.parse::<u128>().unwrap()))
        .collect();
    assert_eq!(table, want);
    // No solutions: an empty share.
    let csv = String::from_utf8(stdout_of(&["queens", "heatmap", "3", "--format", "csv"])).unwrap();
    assert!(csv.lines().skip(1).all(|l| l.ends_with(",0,")), "{csv}");
}

#[test]
fn heatmap_svg_is_a_picture_with_a_viewbox_and_a_legend() {
    for n in ["1", "3", "8", "12"] {
        let svg =
            String::from_utf8(stdout_of(&["queens", "heatmap", n, "--format", "svg"])).unwrap();
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("viewBox=\"0 0 "));
        assert!(svg.contains("class=\"legend\"") && svg.contains("min ") && svg.contains("max "));
        let k: usize = n.parse().unwrap();
        assert_eq!(svg.matches("<rect ").count(), k * k + 1);
        // Well-formed enough: every opened element is closed.
        for tag in [
            "svg",
            "g",
            "text",
            "rect",
            "title",
            "linearGradient",
            "defs",
        ] {
            let open =
                svg.matches(&format!("<{tag} ")).count() + svg.matches(&format!("<{tag}>")).count();
            let closed = svg.matches(&format!("</{tag}>")).count();
            let selfclosed = svg
                .split(&format!("<{tag} "))
                .skip(1)
                .filter(|s| s.split('>').next().unwrap().ends_with('/'))
                .count();
            assert_eq!(open, closed + selfclosed, "n = {n} <{tag}>");
        }
    }
}
