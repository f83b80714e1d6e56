//! Tests: no argument makes the binary crash. Every numeric option of every subcommand (found
//! by walking clap's command tree) is run at 0, 1, its maximum, maximum + 1 and u64::MAX: the
//! exit code is 0 or 2, never a signal (a panic aborts in release builds).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser};

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

/// How long one run may take before it is stopped and fails (generous: 1024 threads on a
/// loaded machine take seconds).
const TIMEOUT: Duration = Duration::from_secs(30);

/// How long a run listed in [`LONG_RUNNING`] goes before it is stopped (without a crash).
const LONG_TIMEOUT: Duration = Duration::from_secs(2);

/// Runs that legitimately take long at a huge value (stopped after [`LONG_TIMEOUT`], not
/// failed): (subcommand, argument id, value).
const LONG_RUNNING: &[(&str, &str, &str)] = &[
    ("queens count", "n", "32"),
    ("queens list", "n", "32"),
    ("queens heatmap", "n", "32"),
    ("queens random", "boards", "1000000"),
    ("queens random", "n", "1000"),
];

/// The small arguments each subcommand runs with: positionals first, then options as
/// (argument id, words); the option under test replaces its own entry.
struct Base {
    positional: Vec<(&'static str, String)>,
    options: Vec<(&'static str, Vec<String>)>,
    stdin: Option<Vec<u8>>,
}

fn base(path: &str, dir: &std::path::Path) -> Base {
    let s = |x: &str| x.to_string();
    match path {
        "solve" => {
            let f = dir.join("p.dlx");
            std::fs::write(&f, "a b c\na b |3\nc |1\na |1\nb c |2\nb |4\n").unwrap();
            Base {
                positional: vec![("input", f.display().to_string())],
                options: vec![],
                stdin: None,
            }
        }
        "queens count" => Base {
            positional: vec![("n", s("6"))],
            options: vec![],
            stdin: None,
        },
        "queens list" => Base {
            positional: vec![("n", s("6"))],
            options: vec![("format", vec![s("--format"), s("csv")])],
            stdin: None,
        },
        "queens heatmap" => Base {
            positional: vec![("n", s("6"))],
            options: vec![("format", vec![s("--format"), s("csv")])],
            stdin: None,
        },
        "queens max" => {
            let boards = Command::new(BIN)
                .args(["queens", "random", "6", "--boards", "2"])
                .output()
                .unwrap()
                .stdout;
            Base {
                positional: vec![],
                options: vec![],
                stdin: Some(boards),
            }
        }
        "queens random" => Base {
            positional: vec![("n", s("3"))],
            options: vec![],
            stdin: None,
        },
        "queens merge" | "merge" => {
            let f = dir.join("s.json");
            let out = Command::new(BIN)
                .args(["queens", "count", "5", "--shard", "1/1", "--format", "json"])
                .output()
                .unwrap()
                .stdout;
            std::fs::write(&f, out).unwrap();
            Base {
                positional: vec![("files", f.display().to_string())],
                options: vec![],
                stdin: None,
            }
        }
        "model langford" | "model matchings" | "model queens" => Base {
            positional: vec![("n", s("4"))],
            options: vec![],
            stdin: None,
        },
        "model pentominoes" => Base {
            positional: vec![("name", s("3x20"))],
            options: vec![],
            stdin: None,
        },
        "model sudoku" => Base {
            positional: vec![(
                "puzzle",
                s(
                    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
                ),
            )],
            options: vec![("solve", vec![s("--solve")])],
            stdin: None,
        },
        "model word-squares" => {
            let f = dir.join("words.txt");
            std::fs::write(&f, "cat\nore\nwed\ncow\nare\nted\n").unwrap();
            Base {
                positional: vec![("words", f.display().to_string())],
                options: vec![],
                stdin: None,
            }
        }
        "model dominoes" => Base {
            positional: vec![("rows", s("2")), ("cols", s("3"))],
            options: vec![],
            stdin: None,
        },
        "model macmahon" => Base {
            positional: vec![("board", s("2x3"))],
            options: vec![
                ("colours", vec![s("--colours"), s("2")]),
                ("border", vec![s("--border"), s("none")]),
            ],
            stdin: None,
        },
        "model edge-matching" => Base {
            positional: vec![("size", s("3x3"))],
            options: vec![("colours", vec![s("--colours"), s("3")])],
            stdin: None,
        },
        "completions" => Base {
            positional: vec![("shell", s("bash"))],
            options: vec![],
            stdin: None,
        },
        "man" => Base {
            positional: vec![],
            options: vec![],
            stdin: None,
        },
        other => panic!("no base arguments for `{other}`: add them to the test"),
    }
}

/// Options that need another option to mean anything: (subcommand, argument id, words).
const NEEDS: &[(&str, &str, &[&str])] = &[
    ("queens max", "limit", &["--all-optimal"]),
    ("solve", "top", &["--minimize"]),
];

/// The argv for `path` with argument `id` set to `value`.
fn argv(path: &str, b: &Base, arg: &clap::Arg, value: &str) -> Vec<String> {
    let id = arg.get_id().as_str();
    let mut v: Vec<String> = path.split(' ').map(String::from).collect();
    for (pid, p) in &b.positional {
        v.push(if *pid == id {
            value.to_string()
        } else {
            p.clone()
        });
    }
    for (oid, words) in &b.options {
        if *oid != id {
            v.extend(words.iter().cloned());
        }
    }
    if !arg.is_positional() {
        let flag = match arg.get_long() {
            Some(l) => format!("--{l}"),
            None => format!("-{}", arg.get_short().unwrap()),
        };
        v.push(flag);
        v.push(value.to_string());
    }
    for (p, nid, words) in NEEDS {
        if *p == path && *nid == id {
            v.extend(words.iter().map(|w| w.to_string()));
        }
    }
    v
}

fn parses(args: &[String]) -> bool {
    dancelinks::cmd::Cli::try_parse_from(
        std::iter::once("xcover".to_string()).chain(args.iter().cloned()),
    )
    .is_ok()
}

/// The largest value clap accepts for the argument (its accepted values being an interval
/// that holds 1).
fn maximum(path: &str, b: &Base, arg: &clap::Arg) -> u64 {
    let ok = |v: u64| parses(&argv(path, b, arg, &v.to_string()));
    if ok(u64::MAX) {
        return u64::MAX;
    }
    assert!(ok(1), "{path} {}: 1 is refused", arg.get_id());
    let (mut lo, mut hi) = (1u64, u64::MAX); // ok(lo), !ok(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Leaves of the command tree, as their paths (`queens max`), with their commands.
fn leaves(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
    for sub in cmd.get_subcommands() {
        let path = if prefix.is_empty() {
            sub.get_name().to_string()
        } else {
            format!("{prefix} {}", sub.get_name())
        };
        if sub.has_subcommands() {
            leaves(sub, &path, out);
        } else {
            out.push((path, sub.clone()));
        }
    }
}

/// Runs the binary; `None` when it was stopped after the timeout.
fn run(
    args: &[String],
    stdin: Option<&[u8]>,
    timeout: Duration,
) -> Option<std::process::ExitStatus> {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let Some(data) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(data);
    }
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn every_numeric_argument_at_its_edges_exits_0_or_2() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    leaves(&dancelinks::cmd::Cli::command(), "", &mut all);
    let mut tried = 0;
    let mut failures = Vec::new();
    for (path, cmd) in &all {
        let b = base(path, dir.path());
        for arg in cmd.get_arguments() {
            if !arg.get_action().takes_values() {
                continue;
            }
            // Numeric: takes 1, refuses a word.
            if !parses(&argv(path, &b, arg, "1")) || parses(&argv(path, &b, arg, "x")) {
                continue;
            }
            let id = arg.get_id().as_str();
            let max = maximum(path, &b, arg);
            let mut values = vec![0, 1, max];
            if max < u64::MAX {
                values.push(max + 1);
            }
            values.push(u64::MAX);
            values.dedup();
            for v in values {
                let v = v.to_string();
                let args = argv(path, &b, arg, &v);
                tried += 1;
                let long = LONG_RUNNING.contains(&(path.as_str(), id, v.as_str()));
                let timeout = if long { LONG_TIMEOUT } else { TIMEOUT };
                match run(&args, b.stdin.as_deref(), timeout) {
                    Some(status) => {
                        if !matches!(status.code(), Some(0 | 2)) {
                            failures.push(format!("xcover {}: {status}", args.join(" ")));
                        }
                    }
                    None => {
                        if !long {
                            failures.push(format!(
                                "xcover {}: still running after {TIMEOUT:?}",
                                args.join(" ")
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // solve: limit, nodes, mems, time-limit, top; count: n, threads; list: n, limit, threads;
    // max: n, width, limit, top, time-limit, lagrange-steps, threads; random: n, boards,
    // seed, min, max.
    assert!(
        tried >= 20 * 4,
        "only {tried} runs: the walk missed arguments"
    );
}
