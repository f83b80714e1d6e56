//! Tests: the engine's two floors hold. The models (src/queens, src/models) call the front
//! door (`engine::run`) and the data types it speaks in, never a search or the door's
//! internals; threads are started in at most two files of the engine; the Python binding
//! composes no picture; no source file outgrows 1,000 lines. Each failure names the file and
//! the line.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            // A module's unit tests kept apart (`tests.rs`) may start threads and reach
            // anything, as the tests inside a file may.
            out.push(path);
        }
    }
}

fn files_under(rel: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel), &mut out);
    out.sort();
    out
}

/// The file's lines with `//` comments (and doc comments) cut off, numbered from 1.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let code = match line.find("//") {
                Some(k) => &line[..k],
                None => line,
            };
            (i + 1, code.to_string())
        })
        .collect()
}

/// The file's code before its unit tests (`#[cfg(test)]` followed by a `mod`): the tests may
/// start threads and reach anything.
fn non_test_code(text: &str) -> Vec<(usize, String)> {
    let lines = code_lines(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let here = lines[i].1.trim();
        if here == "#[cfg(test)]" {
            let next = lines.get(i + 1).map_or("", |l| l.1.trim());
            if next.starts_with("mod ") || next.starts_with("pub mod ") {
                break;
            }
        }
        out.push(lines[i].clone());
        i += 1;
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `word` occurs in `line` as a whole identifier.
fn has_word(line: &str, word: &str) -> bool {
    let mut start = 0;
    while let Some(k) = line[start..].find(word) {
        let at = start + k;
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        if !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char) {
            return true;
        }
        start = at + word.len();
    }
    false
}

/// What a model may not name: the searches, their modules and the door's internals.
/// Names that only the engine's searches and thread drivers have are matched anywhere; module
/// names only as a path segment after `engine::` (the queens have modules of their own).
const PAST_THE_DOOR_WORDS: [&str; 13] = [
    "Solver",
    "with_options",
    "in_shard",
    "ordered_window",
    "MultiplicitySolver",
    "Dense",
    "Cells",
    "CountOnly",
    "MemoOutcome",
    "WINDOW_PER_THREAD",
    "count_split",
    "run_split_ordered",
    "branch_bound",
];

const PAST_THE_DOOR_PATHS: [&str; 20] = [
    "engine::dlx",
    "engine::search",
    "engine::dense",
    "engine::cells",
    "engine::multiplicity",
    "engine::memo",
    "engine::memo_split",
    "engine::split",
    "engine::window",
    "engine::parallel",
    "engine::portfolio",
    "engine::parts",
    "engine::Split",
    "engine::Part",
    "engine::Memo",
    "optimize::optimize",
    "optimize::strategy",
    "optimize::shards",
    "optimize::branch_bound",
    "run::threads",
];

/// A file's `use crate::engine::{...}` statements (the engine's own names, not the door's
/// `engine::run::{...}`), each flattened to one string though it spans lines.
fn engine_use_statements(text: &str) -> Vec<(usize, String)> {
    let lines = code_lines(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (number, line) = &lines[i];
        if line.trim_start().starts_with("use ") && line.contains("engine::{") {
            let mut statement = line.clone();
            while !statement.contains(';') && i + 1 < lines.len() {
                i += 1;
                statement.push(' ');
                statement.push_str(&lines[i].1);
            }
            out.push((*number, statement));
        }
        i += 1;
    }
    out
}

#[test]
fn no_model_reaches_past_the_door() {
    let mut reaches = Vec::new();
    for room in ["src/queens", "src/models"] {
        for file in files_under(room) {
            let text = fs::read_to_string(&file).unwrap();
            let rel = file
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap()
                .display()
                .to_string();
            for (number, line) in code_lines(&text) {
                for word in PAST_THE_DOOR_WORDS {
                    if has_word(&line, word) {
                        reaches.push(format!("{rel}:{number}: `{word}`: {}", line.trim()));
                    }
                }
                for path in PAST_THE_DOOR_PATHS {
                    if line.contains(path)
                        && !line[line.find(path).unwrap() + path.len()..]
                            .starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                    {
                        reaches.push(format!("{rel}:{number}: `{path}`: {}", line.trim()));
                    }
                }
            }
            // `use crate::engine::{Split, memo::Memo}` names the modules inside braces.
            for (number, statement) in engine_use_statements(&text) {
                let inner = statement.split_once('{').map_or("", |(_, rest)| rest);
                for item in inner.split([',', '{', '}', ';']) {
                    let head = item.trim().split("::").next().unwrap_or("").trim();
                    if [
                        "dlx",
                        "search",
                        "dense",
                        "cells",
                        "multiplicity",
                        "memo",
                        "memo_split",
                        "split",
                        "window",
                        "parallel",
                        "portfolio",
                        "parts",
                        "Split",
                        "Part",
                        "Memo",
                    ]
                    .contains(&head)
                    {
                        reaches.push(format!("{rel}:{number}: `{head}`: {}", statement.trim()));
                    }
                }
            }
        }
    }
    assert!(
        reaches.is_empty(),
        "{} code lines of the models reach past the engine's door:\n{}",
        reaches.len(),
        reaches.join("\n")
    );
}

/// What starts a thread: std's spawns and scopes, rayon's pools, scopes and parallel iterators.
const THREAD_STARTS: [&str; 11] = [
    "spawn_fifo",
    "in_place_scope",
    "scope_fifo",
    "thread::spawn",
    "thread::scope",
    "thread::Builder",
    "rayon::scope",
    "rayon::join",
    "ThreadPoolBuilder",
    "par_iter",
    "into_par_iter",
];

#[test]
fn threads_start_in_at_most_two_files_of_the_engine() {
    let mut starters = Vec::new();
    for file in files_under("src/engine") {
        let text = fs::read_to_string(&file).unwrap();
        let hits: Vec<String> = non_test_code(&text)
            .into_iter()
            .filter(|(_, line)| THREAD_STARTS.iter().any(|s| line.contains(s)))
            .map(|(number, line)| format!("{number}: {}", line.trim()))
            .collect();
        if !hits.is_empty() {
            starters.push(format!("{}:\n  {}", file.display(), hits.join("\n  ")));
        }
    }
    assert!(
        starters.len() <= 2,
        "threads are started in {} files of src/engine (at most 2):\n{}",
        starters.len(),
        starters.join("\n")
    );
}

#[test]
fn the_binding_composes_no_picture() {
    let mut hits = Vec::new();
    for file in files_under("python/src") {
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in code_lines(&text) {
            if line.contains("io::svg") || has_word(&line, "svg") && line.contains("svg::") {
                hits.push(format!("{}:{number}: {}", file.display(), line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "the binding names the crate's picture code (the pictures are the models'):\n{}",
        hits.join("\n")
    );
}

#[test]
fn no_source_file_is_over_1000_lines() {
    let long: Vec<String> = files_under("src")
        .into_iter()
        .filter_map(|file| {
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            (lines > 1000).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over 1,000 lines:\n{}",
        long.join("\n")
    );
}
