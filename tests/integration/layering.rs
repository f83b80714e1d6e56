//! Tests: the rooms of the crate import one way. The engine knows no model, no format and no
//! command; the records and the codecs know no model. A `use crate::...` (or a `crate::` path)
//! that climbs fails here, with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// The rooms each room may not name: (room, forbidden rooms).
const RULES: [(&str, &[&str]); 4] = [
    ("engine", &["queens", "io", "records", "cmd", "models"]),
    (
        "quote",
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
