//! Tests: the rooms of the crate import one way. The engine knows no model, no format and no
//! command; the records and the codecs know no model. A `use crate::...` (or a `crate::` path)
//! that climbs fails here, with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// The rooms each room may not name: (room, forbidden rooms).
const RULES: [(&str, &[&str]); 5] = [
    ("engine", &["queens", "io", "records", "cmd", "models"]),
    (
        "quote",
        &["engine", "queens", "io", "records", "cmd", "models"],
    ),
    (
        "random",
        &["engine", "queens", "io", "records", "cmd", "models"],
    ),
    ("records", &["queens", "io", "cmd", "models"]),
    ("io", &["queens", "cmd", "models"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The room of a file under src/: its first path component (`engine` for
/// src/engine/optimize/shards.rs, `quote` for src/quote.rs).
fn room(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The rooms a line names through `crate::room` (in a `use`, a path or a doc link).
fn named_rooms(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find("crate::") {
        let after = &rest[k + "crate::".len()..];
        // `dancelinks::crate::` cannot occur; `$crate::` in macros is the crate too.
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let braced = after.starts_with('{');
        if braced {
            // `use crate::{engine, queens};`
            let inner = after[1..].split('}').next().unwrap_or("");
            for part in inner.split(',') {
                let part = part.trim();
                let head: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !head.is_empty() {
                    out.push(head);
                }
            }
        } else if !name.is_empty() {
            out.push(name);
        }
        rest = after;
    }
    out
}

#[test]
fn rooms_import_downward_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in &files {
        let here = room(&src, file);
        let Some((_, forbidden)) = RULES.iter().find(|(r, _)| *r == here) else {
            continue;
        };
        let text = fs::read_to_string(file).unwrap();
        for (k, line) in text.lines().enumerate() {
            // Unit tests may build a model to test the engine on (a queens board is a good
            // exact-cover problem): the rule is for the code, which stops at its tests.
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            for r in named_rooms(line) {
                if forbidden.contains(&r.as_str()) {
                    bad.push(format!(
                        "{}:{}: {here} names crate::{r}: {}",
                        file.strip_prefix(&src).unwrap().display(),
                        k + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "upward imports (engine < records < io < models < cmd):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_sees_paths_braces_and_doc_links() {
    assert_eq!(named_rooms("use crate::queens::count;"), ["queens"]);
    assert_eq!(
        named_rooms("use crate::{engine, io::shard};"),
        ["engine", "io"]
    );
    assert_eq!(
        named_rooms("/// see [`crate::records::merge`] and crate::io::x"),
        ["records", "io"]
    );
    assert!(named_rooms("let x = 1;").is_empty());
}

/// The sibling modules of src/queens a line names: `super::NAME` (in a file directly under
/// src/queens) or `crate::queens::NAME`, in a `use`, a path or a doc link.
fn named_queens_modules(line: &str, top_level: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut prefixes = vec!["crate::queens::"];
    if top_level {
        prefixes.push("super::");
    }
    for prefix in prefixes {
        let mut rest = line;
        while let Some(k) = rest.find(prefix) {
            let after = &rest[k + prefix.len()..];
            let heads: Vec<&str> = match after.strip_prefix('{') {
                Some(inner) => inner.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![after],
            };
            for head in heads {
                let name: String = head
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // `super::*` and `super::Item` (a capital: an item of the parent) are no module.
                if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                    out.push(name);
                }
            }
            rest = after;
        }
    }
    out
}

/// Within src/queens the modules import one way: no module names (in its code, before its
/// unit tests) a sibling that names it back, directly or round a cycle, and `common` names
/// none.
#[test]
fn queens_modules_import_without_cycles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/queens");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    // module -> (sibling, where)
    let mut edges: std::collections::BTreeMap<String, Vec<(String, String)>> = Default::default();
    for file in &files {
        let rel = file.strip_prefix(&dir).unwrap();
        let module = room(&dir, file);
        if module == "mod" {
            continue;
        }
        let top_level = rel.components().count() == 1;
        let text = fs::read_to_string(file).unwrap();
        for (k, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            for m in named_queens_modules(line, top_level) {
                if m != module {
                    let at = format!("src/queens/{}:{}", rel.display(), k + 1);
                    edges.entry(module.clone()).or_default().push((m, at));
                }
            }
        }
    }
    if let Some(named) = edges.get("common") {
        panic!("common names its siblings: {named:?}");
    }
    // A depth-first search for a cycle.
    fn visit(
        m: &str,
        edges: &std::collections::BTreeMap<String, Vec<(String, String)>>,
        path: &mut Vec<(String, String)>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<(String, String)>> {
        if done.contains(m) {
            return None;
        }
        for (next, at) in edges.get(m).into_iter().flatten() {
            if let Some(i) = path.iter().position(|(p, _)| p == next) {
                let mut cycle = path[i..].to_vec();
                cycle.push((next.clone(), at.clone()));
                return Some(cycle);
            }
            path.push((next.clone(), at.clone()));
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
            path.pop();
        }
        done.insert(m.to_string());
        None
    }
    let mut done = Default::default();
    for m in edges.keys() {
        let mut path = vec![(m.clone(), String::new())];
        if let Some(cycle) = visit(m, &edges, &mut path, &mut done) {
            panic!("an import cycle in src/queens: {cycle:?}");
        }
    }
    assert!(edges.contains_key("count") && edges.contains_key("listing"));
    assert_eq!(
        named_queens_modules("use super::{bits, common::MAX_N}; super::Item", true),
        ["bits", "common"]
    );
    assert_eq!(
        named_queens_modules("use crate::queens::model::Queens; use super::*;", false),
        ["model"]
    );
}
