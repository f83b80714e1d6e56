//! Tests: the examples in README.md and docs/*.md are true.
//!
//! Every ```` ```console ```` block is run by [trycmd]: each `$ xcover ...` line is one command
//! (split as a shell would split it, but run without a shell: no pipes, redirections or `$?`),
//! run from the repository root as the reader would run it, and the lines after it are its
//! expected output, stdout and stderr together as they were written; a `? 2` line right after
//! the command is the expected exit status (0 otherwise). An output ends with one blank line
//! (trycmd drops the last line end of each output; the blank line stands for it). `...` on a
//! line of its own matches any number of lines, `[..]` any text within a line (timings,
//! checksums, message prefixes).
//! Blocks fenced as `sh`, `bash`, `text` or `rust` are not run by trycmd: docs/cluster.md's
//! recipes are run by `tests/cluster/*.sh`; the library example docs/engine.md points to is
//! `examples/dominoes.rs` (built by `cargo test`, run by `cargo run --example dominoes`).
//!
//! The inputs of the examples are in `examples/data/`; [`example_files_are_what_their_recipes_give`]
//! checks that the generated ones are still what their generators give.

use std::path::Path;

use assert_cmd::Command;

use crate::instances;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

/// The documents whose `console` blocks are run.
const DOCS: &[&str] = &["README.md", "docs/*.md"];

/// Blocks that show a command (`$ ...`) but are not run, as (file, first command): each is
/// long-running or needs files the repository does not hold. Keep this list short.
const UNCHECKED: &[(&str, &str)] = &[];

#[test]
fn console_examples_in_readme_and_docs() {
    let cases = trycmd::TestCases::new();
    cases.register_bin("xcover", trycmd::cargo::cargo_bin("xcover"));
    for doc in DOCS {
        cases.case(doc);
    }
}

/// The markdown files of [`DOCS`].
fn documents() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// An example command in a block that trycmd does not run is a mistake (it would drift
/// unseen), unless it is one of [`UNCHECKED`]. A fence without a language would be run as a
/// `console` block by trycmd, so every opening fence must name one.
#[test]
fn every_example_command_is_in_a_console_block() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for path in documents() {
        let name = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut block: Option<String> = None;
        for (i, line) in text.lines().enumerate() {
            let at = format!("{name}:{}", i + 1);
            if let Some(info) = line.strip_prefix("```") {
                if block.is_some() {
                    block = None;
                } else if info.trim().is_empty() {
                    problems.push(format!("{at}: a fence without a language"));
                    block = Some(String::new());
                } else {
                    block = Some(info.trim().to_string());
                }
                continue;
            }
            if let Some(lang) = &block
                && lang != "console"
                && line.starts_with("$ ")
                && !UNCHECKED.contains(&(name.as_str(), line))
            {
                problems.push(format!(
                    "{at}: `{line}` in a `{lang}` block: make it a `console` block (checked) \
                     or list it in UNCHECKED with the reason"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The example inputs that a generator made are still what it gives.
#[test]
fn example_files_are_what_their_recipes_give() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    assert_eq!(
        read("examples/data/queens13.dlx"),
        instances::queens(13, true),
        "examples/data/queens13.dlx is instances::queens(13, true)"
    );
    // Files that are a command's output.
    for (file, args) in [
        (
            "examples/data/boards-8.txt",
            &["queens", "random", "8", "--boards", "3", "--seed", "1"][..],
        ),
        ("examples/data/langford3.dlx", &["model", "langford", "3"]),
    ] {
        let out = Command::new(BIN)
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(
            read(file),
            String::from_utf8(out).unwrap(),
            "{file} is `xcover {}`",
            args.join(" ")
        );
    }
}
