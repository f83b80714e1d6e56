//! Tests: the rooms of the crate import one way. The engine knows no model, no format and no
//! command; the records and the codecs know no model; the models know no command. A `use crate::...` (or a `crate::` path)
//! that climbs fails here, with the file and line. Inside each room (src/engine, src/records,
//! src/io, src/queens, src/models, src/cmd) the files import one way too: an import cycle
//! fails with the files round it.

use std::fs;
use std::path::{Path, PathBuf};

/// The rooms each room may not name: (room, forbidden rooms).
const RULES: [(&str, &[&str]); 7] = [
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
    // The models know nothing of the command line; the classic models may build on the
    // n-queens ones (models/queens.rs), never the other way.
    ("queens", &["cmd", "models"]),
    ("models", &["cmd"]),
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
    if let Some(cycle) = find_cycle(&edges) {
        panic!("an import cycle in src/queens: {cycle:?}");
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

/// The module path of a file under src/ (`engine::optimize::shards` for
/// src/engine/optimize/shards.rs, `engine` for src/engine/mod.rs).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut path: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// The paths after a `crate::` or `super::` prefix, braces expanded: `a::{b, c::d}` gives
/// `a::b` and `a::c::d`. Stops at the first character that continues no path; returns the
/// paths and the bytes read.
fn expand_paths(s: &str) -> (Vec<Vec<String>>, usize) {
    fn parse(s: &[u8], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let mut segs = prefix.to_vec();
        loop {
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < s.len() && s[i] == b'{' {
                i += 1;
                loop {
                    i = parse(s, i, &segs, out);
                    while i < s.len() && s[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    match s.get(i) {
                        Some(b',') => i += 1,
                        Some(b'}') => return i + 1,
                        _ => return i,
                    }
                    while i < s.len() && s[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if s.get(i) == Some(&b'}') {
                        return i + 1;
                    }
                }
            }
            let start = i;
            while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
                i += 1;
            }
            if i == start {
                out.push(segs);
                return i;
            }
            segs.push(String::from_utf8_lossy(&s[start..i]).into_owned());
            if s[i..].starts_with(b"::") {
                i += 2;
            } else {
                out.push(segs);
                return i;
            }
        }
    }
    let mut out = Vec::new();
    let read = parse(s.as_bytes(), 0, &[], &mut out);
    (out, read)
}

/// The modules `code` (the text of module `here`) names through `crate::` and `super::`
/// paths — in a `use`, a path or a doc link — each resolved to the longest module of
/// `modules` it starts with, with the line it is named on.
fn named_modules(
    code: &str,
    here: &[String],
    modules: &std::collections::BTreeSet<Vec<String>>,
) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..]
        .match_indices("crate::")
        .chain(code[from..].match_indices("super::"))
        .map(|(k, _)| k)
        .min()
    {
        let at = from + k;
        let before = code[..at].chars().next_back();
        let mut rest = &code[at..];
        // A `super::` inside a longer path (`super::super::`, `x::super::`) is read with it.
        let inside = before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_');
        let mut base: Vec<String> = Vec::new();
        if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
        } else {
            base = here.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
        }
        from = at + (code[at..].len() - rest.len());
        if inside && before != Some('$') {
            continue;
        }
        let line = code[..at].lines().count().max(1);
        let (paths, read) = expand_paths(rest);
        // A `super::` in braces (`use super::{a, super::b}`) is read with its group.
        from += read;
        for segs in paths {
            let mut full = base.clone();
            for seg in segs {
                match seg.as_str() {
                    "super" => {
                        full.pop();
                    }
                    "self" => {}
                    _ => full.push(seg),
                }
            }
            while !full.is_empty() && !modules.contains(&full) {
                full.pop();
            }
            if !full.is_empty() && full != here {
                out.push((full, line));
            }
        }
    }
    out
}

/// The rooms of src/ with files of their own: in each, the files import one way.
const ROOMS_WITHOUT_CYCLES: [&str; 6] = ["engine", "records", "io", "queens", "models", "cmd"];

/// Within each room of [`ROOMS_WITHOUT_CYCLES`] no file names (in its code and docs, before
/// its unit tests) a module of its room that names it back, directly or round a cycle: the
/// files of a room import one way.
#[test]
fn files_import_without_cycles() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut cycles = Vec::new();
    for room in ROOMS_WITHOUT_CYCLES {
        // module -> (module it names, file:line)
        let mut edges: BTreeMap<Vec<String>, Vec<(Vec<String>, String)>> = BTreeMap::new();
        for file in &files {
            let here = module_of(&src, file);
            if here.first().is_none_or(|r| r != room) {
                continue;
            }
            let text = fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let rel = file.strip_prefix(&src).unwrap().display().to_string();
            for (m, line) in named_modules(code, &here, &modules) {
                if m.first().is_some_and(|r| r == room) && m.len() > 1 {
                    edges
                        .entry(here.clone())
                        .or_default()
                        .push((m, format!("src/{rel}:{line}")));
                }
            }
        }
        if let Some(cycle) = find_cycle(&edges) {
            let named: Vec<String> = cycle
                .iter()
                .map(|(m, at)| match at.as_str() {
                    "" => m.join("::"),
                    at => format!("{} (named at {at})", m.join("::")),
                })
                .collect();
            cycles.push(format!(
                "an import cycle among the files of src/{room}: {}",
                named.join(" -> ")
            ));
        }
    }
    assert!(cycles.is_empty(), "{}", cycles.join("\n"));
}

/// A cycle of `edges`, as the modules round it with where each names the next.
fn find_cycle<N: Ord + Clone>(
    edges: &std::collections::BTreeMap<N, Vec<(N, String)>>,
) -> Option<Vec<(N, String)>> {
    fn visit<N: Ord + Clone>(
        m: &N,
        edges: &std::collections::BTreeMap<N, Vec<(N, String)>>,
        path: &mut Vec<(N, String)>,
        done: &mut std::collections::BTreeSet<N>,
    ) -> Option<Vec<(N, String)>> {
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
        done.insert(m.clone());
        None
    }
    let mut done = Default::default();
    for m in edges.keys() {
        let mut path = vec![(m.clone(), String::new())];
        if let Some(cycle) = visit(m, edges, &mut path, &mut done) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn the_file_scan_resolves_super_crate_and_braces() {
    let modules: std::collections::BTreeSet<Vec<String>> = [
        "engine",
        "engine::dlx",
        "engine::memo",
        "engine::optimize",
        "engine::optimize::shards",
    ]
    .iter()
    .map(|m| m.split("::").map(String::from).collect())
    .collect();
    let m = |s: &str| -> Vec<String> { s.split("::").map(String::from).collect() };
    let here = m("engine::optimize::shards");
    let named = |code: &str| -> Vec<String> {
        named_modules(code, &here, &modules)
            .into_iter()
            .map(|(p, _)| p.join("::"))
            .collect()
    };
    assert_eq!(
        named("use super::{Bound, super::dlx::Solver};"),
        ["engine::optimize", "engine::dlx"]
    );
    assert_eq!(named("use super::super::memo::Memo;"), ["engine::memo"]);
    assert_eq!(
        named("use crate::engine::{Budget, memo::{Memo, MemoStats}};\n/// [`crate::engine::dlx`]"),
        ["engine", "engine::memo", "engine::memo", "engine::dlx"]
    );
    assert!(named("let x = a::super_thing::b;").is_empty());
    assert_eq!(
        expand_paths("a::{b, c::{d, e}};").0,
        [m("a::b"), m("a::c::d"), m("a::c::e")]
    );
}
