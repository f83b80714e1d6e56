//! Tests of the command line as a whole (issue 13): clap's own checks, completions and the man
//! page, the examples at the end of every `--help`, one `-t/--threads` everywhere, one style
//! of diagnostics, no progress output when stderr is not a terminal, DLX3's multiplicities and
//! their errors.

use clap::CommandFactory;
use predicates::prelude::*;

use crate::common::xcover;

/// Every subcommand (leaves and groups), as its path (`queens max`) with its command.
fn subcommands(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let path = if prefix.is_empty() {
            sub.get_name().to_string()
        } else {
            format!("{prefix} {}", sub.get_name())
        };
        out.push((path.clone(), sub.clone()));
        subcommands(sub, &path, out);
    }
}

fn all_subcommands() -> Vec<(String, clap::Command)> {
    let mut all = Vec::new();
    subcommands(&dancelinks::cmd::Cli::command(), "", &mut all);
    all
}

#[test]
fn clap_definition_passes_debug_assert() {
    dancelinks::cmd::Cli::command().debug_assert();
}

#[test]
fn completions_generate_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = xcover().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains("xcover"), "{shell}");
        for word in ["solve", "queens", "merge", "threads"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    xcover()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error:"));
}

#[test]
fn completions_and_man_page_write_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("xcover.bash");
    xcover()
        .args(["completions", "bash", "-o"])
        .arg(&f)
        .assert()
        .success()
        .stdout("");
    assert!(std::fs::read_to_string(&f).unwrap().contains("_xcover"));
    let m = dir.path().join("xcover.1");
    xcover().arg("man").arg("-o").arg(&m).assert().success();
    assert!(std::fs::read_to_string(&m).unwrap().starts_with(".ie"));
}

#[test]
fn man_page_generates() {
    let out = xcover().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH xcover 1"), "{page}");
    for word in [
        "solve",
        "queens",
        "completions",
        "Exact cover by dancing links",
    ] {
        assert!(page.contains(word), "the man page lacks {word}");
    }
}

/// `xcover man` is the whole manual in one page: a section for every command, each with a
/// synopsis that names the options' values, and `man -l -` renders it (where man is
/// installed) with every command in it.
#[test]
fn the_one_man_page_holds_every_command_with_value_names() {
    let page = String::from_utf8(xcover().arg("man").output().unwrap().stdout).unwrap();
    assert_eq!(page.matches(".ie ").count(), 1, "one preamble");
    for (path, _) in all_subcommands() {
        if path == "help" || path.ends_with(" help") {
            continue;
        }
        let heading = format!(".SH \"XCOVER {}\"", path.to_uppercase().replace('-', "\\-"));
        assert!(page.contains(&heading), "no section {heading}");
    }
    let synopsis = page
        .lines()
        .skip_while(|l| *l != ".SH \"XCOVER QUEENS MAX\"")
        .nth(1)
        .unwrap();
    assert!(
        synopsis.contains(r"\fB\-\-time\-limit\fR \fISECONDS\fR"),
        "{synopsis}"
    );
    assert!(page.contains(".SH EXAMPLES"), "the top-level examples");
    let rendered = std::process::Command::new("man")
        .args(["-l", "-"])
        .env("MANWIDTH", "100")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut man) = rendered else {
        return; // no man here: the roff checks above stand
    };
    use std::io::Write;
    man.stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let out = man.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Words as a reader sees them: without overstrike, spaces of justified lines as one.
    let text = String::from_utf8_lossy(&out.stdout).replace('\u{8}', "");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in [
        "XCOVER SOLVE",
        "XCOVER QUEENS MAX",
        "XCOVER MODEL SUDOKU",
        "--time-limit SECONDS",
    ] {
        assert!(text.contains(words), "man shows no {words}");
    }
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    xcover()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout("");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for want in [
        "xcover.1",
        "xcover-solve.1",
        "xcover-queens-count.1",
        "xcover-queens-max.1",
    ] {
        assert!(names.iter().any(|n| n == want), "{names:?} lacks {want}");
    }
    // Every subcommand has its page, and each page names its command.
    let page = std::fs::read_to_string(dir.path().join("xcover-queens-max.1")).unwrap();
    assert!(page.contains(".TH xcover-queens-max 1"), "{page}");
    assert!(page.contains(r"\-\-time\-limit"), "{page}");
    xcover()
        .args(["man", "--dir", "/nonexistent/dir"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a directory"));
}

/// The examples at the end of a help text: the lines after `Examples:`, each a command.
fn examples(help: &str) -> Vec<String> {
    let Some((_, tail)) = help.split_once("\nExamples:\n") else {
        return Vec::new();
    };
    tail.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn every_subcommand_help_ends_with_examples() {
    let mut missing = Vec::new();
    for (path, _) in all_subcommands() {
        let mut argv: Vec<&str> = path.split(' ').collect();
        argv.push("--help");
        let out = xcover().args(&argv).output().unwrap();
        assert!(out.status.success(), "xcover {path} --help: {out:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        let ex = examples(&help);
        let ok = (2..=3).contains(&ex.len()) && ex.iter().all(|l| l.starts_with("xcover "));
        if !ok {
            missing.push(format!("{path}: {ex:?}"));
        }
    }
    assert!(
        missing.is_empty(),
        "help without 2 or 3 examples at the end:\n{}",
        missing.join("\n")
    );
    // The top-level help ends with examples too, one per main job, each a real command.
    let top = String::from_utf8(xcover().arg("--help").output().unwrap().stdout).unwrap();
    let ex = examples(&top);
    assert!(ex.len() >= 4, "{top}");
    for words in [
        "xcover queens count",
        "xcover solve",
        "xcover queens max",
        "xcover man",
    ] {
        assert!(
            ex.iter().any(|l| l.contains(words)),
            "no example of {words}: {ex:?}"
        );
    }
}

/// The subcommands that compute, each with the words to run it briefly (input on stdin).
fn computing() -> Vec<(&'static str, Vec<&'static str>, Vec<u8>)> {
    let boards = xcover()
        .args(["queens", "random", "11", "--boards", "2", "--seed", "3"])
        .output()
        .unwrap()
        .stdout;
    vec![
        (
            "solve",
            vec!["solve", "--count"],
            b"a b\na\nb\na b\n".to_vec(),
        ),
        ("queens count", vec!["queens", "count", "8"], Vec::new()),
        (
            "queens list",
            vec!["queens", "list", "6", "--format", "csv"],
            Vec::new(),
        ),
        (
            "queens max",
            vec!["queens", "max", "--method", "lagrangian"],
            boards,
        ),
        (
            "queens heatmap",
            vec!["queens", "heatmap", "7", "--format", "csv"],
            Vec::new(),
        ),
    ]
}

#[test]
fn threads_is_one_definition_on_every_computing_subcommand() {
    let all = all_subcommands();
    let reference = dancelinks::cmd::Cli::command()
        .find_subcommand("solve")
        .unwrap()
        .get_arguments()
        .find(|a| a.get_id() == "threads")
        .unwrap()
        .clone();
    for (path, _, _) in computing() {
        let cmd = &all.iter().find(|(p, _)| p == path).unwrap().1;
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_id() == "threads")
            .unwrap_or_else(|| panic!("{path} has no --threads"));
        assert_eq!(arg.get_short(), Some('t'), "{path}");
        assert_eq!(arg.get_long(), Some("threads"), "{path}");
        assert_eq!(
            arg.get_help().map(|h| h.to_string()),
            reference.get_help().map(|h| h.to_string()),
            "{path}"
        );
        let parses = |v: &str| {
            let mut argv: Vec<&str> = vec!["xcover"];
            argv.extend(path.split(' '));
            if path == "solve" {
                argv.push("-");
            } else if path != "queens max" {
                argv.push("8");
            }
            argv.extend(["--threads", v]);
            <dancelinks::cmd::Cli as clap::Parser>::try_parse_from(&argv).is_ok()
        };
        assert!(parses("0") && parses("1") && parses("1024"), "{path}");
        assert!(!parses("1025") && !parses("-1"), "{path}");
    }
}

#[test]
fn threads_0_means_all_cores_and_changes_no_answer() {
    for (path, words, stdin) in computing() {
        let run = |t: &str| {
            let out = xcover()
                .args(&words)
                .args(["-t", t])
                .write_stdin(stdin.clone())
                .output()
                .unwrap();
            assert!(out.status.success(), "{path} -t {t}: {out:?}");
            out.stdout
        };
        let all = run("0");
        assert!(!all.is_empty(), "{path}");
        assert_eq!(all, run("1"), "{path}");
    }
}

#[test]
fn dash_j_is_the_same_option_as_dash_t() {
    for (path, words, _) in computing() {
        let parse = |flag: &str| {
            let mut argv = vec!["xcover"];
            argv.extend(words.iter().copied());
            argv.extend(flag.split(' '));
            <dancelinks::cmd::Cli as clap::Parser>::try_parse_from(&argv)
                .map(|cli| format!("{cli:?}"))
                .unwrap_or_else(|e| panic!("{path} {flag}: {e}"))
        };
        assert_eq!(parse("-j 3"), parse("-t 3"), "{path}");
        assert_ne!(parse("-j 3"), parse("-t 2"), "{path}");
    }
}

#[test]
fn errors_start_with_error_in_clap_style_without_colour_off_a_terminal() {
    // Our error and clap's usage error look alike.
    let ours = xcover()
        .args(["solve", "-"])
        .write_stdin("a b\nc\n")
        .output()
        .unwrap();
    assert_eq!(ours.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(ours.stderr).unwrap(),
        "error: <stdin>:2:1: unknown item 'c'\n"
    );
    let clap = xcover().args(["solve", "--bogus"]).output().unwrap();
    assert_eq!(clap.status.code(), Some(2));
    let text = String::from_utf8(clap.stderr).unwrap();
    assert!(text.starts_with("error: "), "{text}");
    assert!(!text.contains('\x1b'), "{text}");
    // NO_COLOR changes nothing off a terminal either.
    xcover()
        .env("NO_COLOR", "1")
        .args(["queens", "random", "3", "--min", "5", "--max", "1"])
        .assert()
        .code(2)
        .stderr("error: --min 5 is above --max 1\n");
}

#[test]
fn warnings_and_notices_have_one_style() {
    xcover()
        .args(["solve", "--limit", "1", "--count"])
        .write_stdin("a\na\na\n")
        .assert()
        .success()
        .stdout("solutions=1 status=limit\n")
        .stderr("stopped by the solution limit after 1 solution (partial count)\n");
    xcover()
        .args(["solve", "--minimize"])
        .write_stdin("a\na |2\na |1\n")
        .assert()
        .success()
        .stderr("optimal: cost 1 (proven)\n");
}

#[test]
fn no_progress_output_off_a_terminal() {
    // Stderr is a pipe here: the long-work commands print nothing but their results.
    xcover()
        .args(["solve", "--count"])
        .write_stdin(crate::instances::queens(9, true))
        .assert()
        .success()
        .stdout("352\n")
        .stderr("");
    xcover()
        .args(["solve"])
        .write_stdin(crate::instances::queens(6, true))
        .assert()
        .success()
        .stderr("");
    let boards = xcover()
        .args(["queens", "random", "12", "--boards", "3"])
        .output()
        .unwrap()
        .stdout;
    xcover()
        .args(["queens", "max"])
        .write_stdin(boards)
        .assert()
        .success()
        .stderr("");
    xcover()
        .args(["queens", "count", "10"])
        .assert()
        .success()
        .stdout("724\n")
        .stderr("");
}

#[test]
fn dlx3_multiplicities_are_solved_and_checked() {
    // `2|a` is DLX3's short form of `2:2|a`: a twice, b once.
    xcover()
        .args(["solve", "--count"])
        .write_stdin("2|a b\na\na b\nb\n")
        .assert()
        .success()
        .stdout("1\n");
    // B exactly three times is impossible with two options that hold it.
    xcover()
        .args(["solve", "--count"])
        .write_stdin("A 3|B\nA B\nB\n")
        .assert()
        .success()
        .stdout("0\n");
    xcover()
        .args(["solve"])
        .write_stdin("A | 2|x\nA x\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<stdin>:1:5: item '2|x' has a multiplicity, but only primary items can have one",
        ));
    for bad in ["0|A", "3:2|A", "1:99999999999|A"] {
        xcover()
            .args(["solve"])
            .write_stdin(format!("{bad}\nA\n"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "bad multiplicity '{bad}'"
            )));
    }
    // A name that is merely invalid keeps its message.
    xcover()
        .args(["solve"])
        .write_stdin("a:b c\n")
        .assert()
        .code(2)
        .stderr("error: <stdin>:1:1: invalid item name 'a:b' (names cannot contain ':' or '|')\n");
}

#[test]
fn stats_line_is_knuths_dlx2_line_and_json_carries_its_fields() {
    let out = xcover()
        .args(["solve", "--stats", "--format", "json", "-t", "1"])
        .write_stdin(crate::instances::queens(8, true))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    // 8-queens in organ-pipe order: 42 items (16 primary, 26 diagonals) and 2 ring heads;
    // 360 nodes (node 0, 42 headers, 252 entries, 65 spacers); 8 levels.
    assert_eq!(summary["bytes"], 16 * 44 + 16 * 360 + 4 * 8);
    assert_eq!(summary["input_mems"], 0);
    let line = format!(
        "Altogether 92 solutions, 0+{} mems, {} updates, {} bytes, {} nodes.\n",
        summary["mems"], summary["updates"], summary["bytes"], summary["nodes"]
    );
    assert_eq!(String::from_utf8(out.stderr).unwrap(), line);
}

#[test]
fn stdin_on_a_terminal_gets_a_hint_and_a_pipe_does_not() {
    // A pipe: no hint on stderr.
    let out = xcover()
        .args(["solve", "--count"])
        .write_stdin("a b\na b\n")
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"1\n");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("from stdin"),
        "{out:?}"
    );
    // A terminal: util-linux `script` runs the command on a pseudo-terminal.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("`script` (util-linux) is not installed: the terminal half is not run");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_xcover");
    let out = std::process::Command::new("script")
        .args(["-qec", &format!("{bin} solve --count"), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reading a DLX problem from stdin (end it with Ctrl-D"),
        "{text}"
    );
}

#[test]
fn a_time_limit_beyond_the_clock_is_no_limit() {
    for limit in ["18446744073709551615", "1e20", "inf"] {
        let out = xcover()
            .args(["solve", "--count", "--time-limit", limit])
            .write_stdin("a b c\na\nb c\na b\nc\n")
            .output()
            .unwrap();
        assert!(out.status.success(), "{limit}: {out:?}");
        assert_eq!(out.stdout, b"2\n", "{limit}");
        let out = xcover()
            .args(["queens", "max", "--time-limit", limit])
            .write_stdin("1\n7\n")
            .output()
            .unwrap();
        assert!(out.status.success(), "{limit}: {out:?}");
        assert!(out.stdout.starts_with(b"7\n"), "{limit}: {out:?}");
    }
    for bad in ["-1", "nan", "soon"] {
        let out = xcover()
            .args(["solve", "--count", "--time-limit", bad])
            .write_stdin("a\na\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}
