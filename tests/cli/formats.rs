//! Tests: the table of records in docs/formats.md is what the commands print. The table is
//! parsed out of the document; each row is run as a real command and its CSV header or JSON
//! fields (in order) compared with the row.

use std::path::Path;

use assert_cmd::Command;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");
const DOC: &str = include_str!("../../docs/formats.md");

/// One row of the table.
#[derive(Debug)]
struct Row {
    /// The command and its options, e.g. `solve --count`.
    command: String,
    record: String,
    formats: Vec<String>,
    fields: Vec<String>,
}

fn table() -> Vec<Row> {
    let start = DOC
        .find("<!-- formats-table:start -->")
        .expect("table start");
    let end = DOC.find("<!-- formats-table:end -->").expect("table end");
    let mut rows = Vec::new();
    for line in DOC[start..end].lines().skip(3) {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        assert_eq!(cells.len(), 4, "a row of four cells: {line}");
        let unquote = |s: &str| s.trim().trim_matches('`').to_string();
        rows.push(Row {
            command: unquote(cells[0]),
            record: cells[1].to_string(),
            formats: cells[2].split(',').map(|f| f.trim().to_string()).collect(),
            fields: cells[3].split(',').map(unquote).collect(),
        });
    }
    rows
}

/// The fields of a row for boards of side n (`q0..q{n-1}` expanded).
fn expand(fields: &[String], n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for f in fields {
        if f == "q0..q{n-1}" {
            out.extend((0..n).map(|r| format!("q{r}")));
        } else {
            out.push(f.clone());
        }
    }
    out
}

/// The keys of a JSON object, in the order written.
fn keys_in_order(line: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(k) = m.next_key::<String>()? {
                m.next_value::<IgnoredAny>()?;
                keys.push(k);
            }
            Ok(keys)
        }
    }
    let mut de = serde_json::Deserializer::from_str(line);
    de.deserialize_map(Keys).expect("a JSON object")
}

/// Runs `xcover` with the row's command, base arguments and the format; returns stdout.
fn run(dir: &Path, command: &str, format: &str) -> (String, usize) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut cmd = Command::new(BIN);
    cmd.args(&words).args(["--format", format]);
    let second = words.get(1).copied().unwrap_or("");
    let n = match (words[0], second) {
        ("solve", _) => {
            let file = dir.join("costs.dlx");
            std::fs::write(&file, "a b c\na b |3\nc |1\na |1\nb c |2\nb |4\n").unwrap();
            cmd.arg(&file);
            0
        }
        ("queens", "list") => {
            cmd.arg("6");
            6
        }
        ("queens", "heatmap") => {
            cmd.arg("6");
            6
        }
        ("queens", "count") => {
            cmd.arg("6");
            6
        }
        ("queens", "max") => {
            // A shard is of one board's search.
            let k = if command.contains("--shard") {
                "1"
            } else {
                "2"
            };
            let boards = Command::new(BIN)
                .args(["queens", "random", "6", "--boards", k, "--seed", "5"])
                .output()
                .unwrap()
                .stdout;
            cmd.write_stdin(boards);
            6
        }
        ("queens", "merge") | ("merge", _) => {
            let mut files = Vec::new();
            for i in 1..=2 {
                let f = dir.join(format!("shard{i}.json"));
                Command::new(BIN)
                    .args(["queens", "count", "6", "--format", "json", "--shard"])
                    .arg(format!("{i}/2"))
                    .arg("-o")
                    .arg(&f)
                    .assert()
                    .success();
                files.push(f);
            }
            cmd.args(&files);
            6
        }
        _ => panic!("a command the test does not know: {command}"),
    };
    let out = cmd.assert().success().get_output().stdout.clone();
    (String::from_utf8(out).unwrap(), n)
}

#[test]
fn the_table_matches_every_command() {
    let rows = table();
    let dir = tempfile::tempdir().unwrap();
    let mut commands = std::collections::BTreeSet::new();
    for row in &rows {
        let words: Vec<&str> = row.command.split_whitespace().collect();
        let top_level = matches!(words[0], "solve" | "merge");
        commands.insert(words[..if top_level { 1 } else { 2 }].join(" "));
        for format in &row.formats {
            let (out, n) = run(dir.path(), &row.command, format);
            let want = expand(&row.fields, n);
            match format.as_str() {
                "csv" => {
                    let header = out.lines().next().expect("a header");
                    let got: Vec<&str> = header.split(',').collect();
                    assert_eq!(got, want, "{row:?}");
                    assert!(out.lines().count() > 1, "{row:?}: records below the header");
                }
                "json" => {
                    let mut seen = 0;
                    for line in out.lines() {
                        let keys = keys_in_order(line);
                        let v: serde_json::Value = serde_json::from_str(line).unwrap();
                        let kind = v.get("record").and_then(|r| r.as_str());
                        if kind.is_some_and(|k| k != row.record) {
                            continue;
                        }
                        assert_eq!(keys, want, "{row:?}: {line}");
                        // Flat: no value is an object.
                        assert!(v.as_object().unwrap().values().all(|x| !x.is_object()));
                        seen += 1;
                    }
                    assert!(seen > 0, "{row:?}: no {} record in {out}", row.record);
                }
                other => panic!("unknown format {other} in the table"),
            }
        }
    }
    let want: std::collections::BTreeSet<String> = [
        "solve",
        "queens list",
        "queens heatmap",
        "queens max",
        "queens count",
        "queens merge",
        "merge",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(
        commands, want,
        "every command with CSV/JSON output is in the table"
    );
}

#[test]
fn no_command_writes_svg_json_or_csv_by_hand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cmd");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for bad in ["<svg", "json!", "\",q{", "push(',')", "join(\",\")"] {
            assert!(!text.contains(bad), "{} contains {bad}", path.display());
        }
    }
}
