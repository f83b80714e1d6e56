//! Tests: `xcover solve --zdd FILE` and `--sample K --seed S`, on the real binary. The ZDD's
//! text is parsed as docs/engine.md describes it (as a reader in another language would) and
//! its paths counted against `solve --count`; samples are solutions of the full listing, in
//! its layouts; the refusals write nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::xcover;

fn model(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    xcover()
        .arg("model")
        .args(args)
        .arg("-o")
        .arg(&path)
        .assert()
        .success();
    path
}

/// The ZDD's text, read as docs/engine.md says: the options (`o INDEX LINE TEXT`), the nodes
/// (`n ID OPTION HI LO`), the root; every line checked, and the paths counted in one pass.
struct Parsed {
    options: BTreeMap<u32, (usize, String)>,
    nodes: Vec<(u32, u32, u32)>,
    root: u32,
}

impl Parsed {
    fn read(text: &str) -> Parsed {
        let mut options = BTreeMap::new();
        let mut nodes = Vec::new();
        let mut root = None;
        for line in text.lines() {
            assert!(root.is_none(), "a line after the root: {line}");
            if line.starts_with('#') {
                continue;
            }
            let (kind, rest) = line.split_once(' ').expect("a kind and fields");
            match kind {
                "o" => {
                    let mut f = rest.splitn(3, ' ');
                    let index: u32 = f.next().unwrap().parse().unwrap();
                    let line_no: usize = f.next().unwrap().parse().unwrap();
                    let text = f.next().unwrap().to_string();
                    assert!(nodes.is_empty(), "options come before the nodes");
                    assert!(options.insert(index, (line_no, text)).is_none());
                }
                "n" => {
                    let f: Vec<u32> = rest.split(' ').map(|x| x.parse().unwrap()).collect();
                    let [id, option, hi, lo] = f[..] else {
                        panic!("four fields: {line}")
                    };
                    assert_eq!(id as usize, nodes.len() + 2, "ids in order from 2");
                    assert!(hi < id && lo < id && hi != 0, "{line}");
                    assert!(options.contains_key(&option), "{line}: option listed");
                    nodes.push((option, hi, lo));
                }
                "root" => root = Some(rest.parse::<u32>().unwrap()),
                _ => panic!("unknown line {line}"),
            }
        }
        let root = root.expect("a root line");
        assert!((root as usize) < nodes.len() + 2);
        Parsed {
            options,
            nodes,
            root,
        }
    }

    fn count(&self) -> u128 {
        let mut c: Vec<u128> = vec![0, 1];
        for &(_, hi, lo) in &self.nodes {
            c.push(c[hi as usize].checked_add(c[lo as usize]).unwrap());
        }
        c[self.root as usize]
    }
}

fn count_of(f: &Path) -> u128 {
    let out = xcover()
        .args(["solve", "--count"])
        .arg(f)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout)
        .trim()
        .parse()
        .unwrap()
}

/// The path count of the written ZDD is `solve --count`'s, on plain, coloured and
/// no-solution problems; the options are written with their input lines and text.
#[test]
fn the_zdd_file_parses_and_counts_the_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        model(dir.path(), "l7.dlx", &["langford", "7"]),
        model(dir.path(), "l6.dlx", &["langford", "6"]),
        model(dir.path(), "p.dlx", &["pentominoes", "3x20"]),
        model(
            dir.path(),
            "em.dlx",
            &["edge-matching", "3x3", "--colours", "3"],
        ),
        model(dir.path(), "k10.dlx", &["matchings", "10"]),
        PathBuf::from("examples/data/taocp-colour.dlx"),
        model(dir.path(), "q8.dlx", &["queens", "8"]),
    ];
    for f in &files {
        let zdd = dir.path().join("out.zdd");
        xcover()
            .args(["solve", "--zdd"])
            .arg(&zdd)
            .arg(f)
            .assert()
            .success()
            .stdout("");
        let text = std::fs::read_to_string(&zdd).unwrap();
        let parsed = Parsed::read(&text);
        let count = count_of(f);
        assert_eq!(parsed.count(), count, "{}", f.display());
        assert!(text.starts_with("# xcover ZDD: "));
        assert!(
            text.lines().next().unwrap().ends_with(&format!(
                " {count} solution{}",
                if count == 1 { "" } else { "s" }
            )),
            "{}",
            f.display()
        );
        let input = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = input.lines().collect();
        for (line, text) in parsed.options.values() {
            assert_eq!(lines[line - 1].trim(), text, "{}", f.display());
        }
    }
    // Langford 6 has no solution: the root is ⊥ and there is no node.
    let zdd = dir.path().join("l6.zdd");
    xcover()
        .args(["solve", "--zdd"])
        .arg(&zdd)
        .arg(&files[1])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(&zdd).unwrap(),
        "# xcover ZDD: 0 options, 0 nodes, 0 solutions\nroot 0\n"
    );
}

/// The solutions of the full listing, as sets of option lines.
fn listing(f: &Path) -> BTreeSet<BTreeSet<String>> {
    let out = xcover().arg("solve").arg(f).assert().success();
    solutions_of(&String::from_utf8_lossy(&out.get_output().stdout))
        .into_iter()
        .collect()
}

/// DLX1's text, as (number, options) in order.
fn numbered(text: &str) -> Vec<(u64, BTreeSet<String>)> {
    let mut all: Vec<(u64, BTreeSet<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(o) = line.strip_prefix(' ') {
            all.last_mut()
                .expect("a heading first")
                .1
                .insert(o.to_string());
        } else {
            let n = line.strip_suffix(':').expect("a heading `N:`");
            all.push((n.parse().unwrap(), BTreeSet::new()));
        }
    }
    all
}

fn solutions_of(text: &str) -> Vec<BTreeSet<String>> {
    numbered(text).into_iter().map(|(_, s)| s).collect()
}

/// K draws numbered 1 to K, each a solution of the listing; the same seed the same draws,
/// another seed others; CSV and JSON as the listing writes them.
#[test]
fn samples_are_solutions_in_the_listing_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let f = model(dir.path(), "l7.dlx", &["langford", "7"]);
    let all = listing(&f);
    assert_eq!(all.len(), 52);
    let sample = |seed: &str, format: &str| {
        let out = xcover()
            .args([
                "solve", "--sample", "40", "--seed", seed, "--format", format,
            ])
            .arg(&f)
            .assert()
            .success()
            .stderr("");
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = sample("3", "text");
    let drawn = numbered(&text);
    assert_eq!(
        drawn.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        (1..=40).collect::<Vec<_>>()
    );
    assert!(drawn.iter().all(|(_, s)| all.contains(s)));
    let distinct: BTreeSet<_> = drawn.iter().map(|(_, s)| s).collect();
    assert!(distinct.len() > 20, "40 draws of 52: {}", distinct.len());
    assert_eq!(sample("3", "text"), text);
    assert_ne!(sample("4", "text"), text);
    // CSV: the listing's header and one row per option; JSON: one solution record per draw.
    let csv = sample("3", "csv");
    let mut rows = csv.lines();
    assert_eq!(rows.next(), Some("solution,position,line,option"));
    assert_eq!(rows.count(), 40 * 7);
    let json = sample("3", "json");
    assert_eq!(json.lines().count(), 40);
    for (k, line) in json.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["record"], "solution");
        assert_eq!(v["solution"], k as u64 + 1);
        let options: BTreeSet<String> = v["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap().to_string())
            .collect();
        assert_eq!(options, drawn[k].1, "the same draws in every format");
    }
    // With --zdd and -o: both files, the samples in -o.
    let zdd = dir.path().join("l7.zdd");
    let out = dir.path().join("samples.txt");
    xcover()
        .args(["solve", "--sample", "40", "--seed", "3", "--zdd"])
        .arg(&zdd)
        .arg("-o")
        .arg(&out)
        .arg(&f)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert_eq!(
        Parsed::read(&std::fs::read_to_string(&zdd).unwrap()).count(),
        52
    );
}

/// No solution: nothing drawn, said on stderr, exit 0 (as a listing with no solution).
#[test]
fn sampling_no_solution_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let f = model(dir.path(), "l6.dlx", &["langford", "6"]);
    xcover()
        .args(["solve", "--sample", "5"])
        .arg(&f)
        .assert()
        .success()
        .stdout("")
        .stderr("no solution to sample from\n");
}

/// The refusals: usage errors, multiplicities, and a diagram beyond --memo-mem, which
/// leaves no file behind (and an existing one as it was).
#[test]
fn zdd_refusals_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let f = model(dir.path(), "p.dlx", &["pentominoes", "3x20"]);
    for (args, says) in [
        (&["--zdd", "x.zdd", "--count"][..], "--count"),
        (&["--sample", "3", "--minimize"], "--minimize"),
        (&["--sample", "3", "--shard", "1/2"], "--shard"),
        (&["--sample", "3", "--limit", "2"], "--limit"),
        (&["--sample", "3", "--preprocess"], "--preprocess"),
        (&["--seed", "3"], "--sample"),
        (&["--sample", "x"], "invalid value"),
        (&["--sample", "3", "--zdd", "-"], "stdout"),
        (&["--zdd", "x.zdd", "-o", "y"], "--zdd takes its own FILE"),
    ] {
        xcover()
            .current_dir(dir.path())
            .arg("solve")
            .args(args)
            .arg(&f)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
    xcover()
        .args(["solve", "--sample", "3", "examples/data/multiplicity.dlx"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("multiplicities"));
    let zdd = dir.path().join("p.zdd");
    std::fs::write(&zdd, "old\n").unwrap();
    xcover()
        .args(["solve", "--memo-mem", "4K", "--zdd"])
        .arg(&zdd)
        .arg(&f)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("memory budget of 4096 bytes").and(
            predicate::str::contains("nothing written (a larger --memo-mem may do)"),
        ));
    assert_eq!(std::fs::read_to_string(&zdd).unwrap(), "old\n");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp") || n == "x.zdd")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The diagram's size is DLX6's: the node lines of Knuth's `dlx6 m1` on the same files
/// (measured with his program built from dlx6.w) less its dummy root, less the nodes this
/// diagram does not make twice (`shared`, from `--stats`).
#[test]
fn the_diagram_has_dlx6s_nodes() {
    let dir = tempfile::tempdir().unwrap();
    for (args, dlx6_lines) in [
        (&["pentominoes", "4x15"][..], 3871u64),
        (&["langford", "8"], 1328),
        (&["queens", "8"], 482),
        (&["edge-matching", "4x4", "--colours", "3"], 77),
    ] {
        let f = model(dir.path(), "m.dlx", args);
        let out = xcover()
            .args(["solve", "--stats", "--zdd", "-"])
            .arg(&f)
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let field = |name: &str| -> u64 {
            let (before, _) = stderr.split_once(&format!(" {name}")).expect(name);
            before.rsplit(' ').next().unwrap().parse().unwrap()
        };
        let nodes = field("nodes,");
        let shared = field("shared nodes");
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert_eq!(Parsed::read(&text).nodes.len() as u64, nodes);
        assert_eq!(nodes + shared, dlx6_lines - 1, "{args:?}: {stderr}");
    }
}
