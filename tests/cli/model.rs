//! Tests: `xcover model`. The generated DLX files, solved by `xcover solve --count`, give the
//! known counts; sudoku solutions are valid grids that keep the clues; `-o` writes what stdout
//! gets; bad arguments and inputs exit 2 with the place of the mistake and leave no file.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

fn xcover() -> Command {
    Command::new(BIN)
}

/// The DLX text of `xcover model ARGS`.
fn model(args: &[&str]) -> Vec<u8> {
    let out = xcover().arg("model").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "model {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.starts_with(b"| "), "a title comment first");
    out.stdout
}

/// `xcover solve --count` of a DLX text.
fn count(dlx: &[u8]) -> u64 {
    let out = xcover()
        .args(["solve", "--count", "-t", "1"])
        .write_stdin(dlx.to_vec())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn generated_files_have_the_known_counts() {
    let cases: &[(&[&str], u64)] = &[
        (&["langford", "3"], 2),
        (&["langford", "4"], 2),
        (&["langford", "5"], 0),
        (&["langford", "7"], 52),
        (&["langford", "8"], 300),
        (&["matchings", "7"], 0),
        (&["matchings", "8"], 105),
        (&["matchings", "10"], 945),
        (&["queens", "8"], 92),
        (&["pentominoes", "3x20"], 8),
        (&["pentominoes", "20x3"], 8),
        (&["dominoes", "4", "4"], 36),
        (&["dominoes", "4", "4", "--horizontal", "8"], 1),
        (&["dominoes", "4", "4", "--vertical", "8"], 1),
        (&["dominoes", "3", "4", "--horizontal", "2:4"], 10),
        (&["dominoes", "3", "3"], 0),
    ];
    for (args, expected) in cases {
        assert_eq!(count(&model(args)), *expected, "model {args:?}");
    }
}

#[test]
fn a_board_drawn_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    // The 3×20 rectangle drawn upright, with blank lines at the end.
    let board = dir.path().join("tall.txt");
    std::fs::write(&board, "...\n".repeat(20) + "\n\n").unwrap();
    let dlx = model(&["pentominoes", "--board", board.to_str().unwrap()]);
    assert_eq!(count(&dlx), 8);
    // Holes: a 61-cell shape less one cell is the 3×20 plus a hole in a 21st row.
    std::fs::write(&board, "...\n".repeat(20) + "#\n").unwrap();
    let dlx = model(&["pentominoes", "--board", board.to_str().unwrap()]);
    assert_eq!(count(&dlx), 8);
}

#[test]
fn word_squares_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let words = dir.path().join("words.txt");
    std::fs::write(&words, "cat\nore\nwed\ncow\nare\nted\n").unwrap();
    let dlx = model(&["word-squares", words.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&dlx).contains("a1 w.cat 1.1:c 1.2:a 1.3:t\n"));
    assert_eq!(count(&dlx), 2);
}

/// Whether `grid` (81 digits) is a solved sudoku keeping the clues of `puzzle`, checked here
/// without the library.
fn valid(puzzle: &str, grid: &str) -> bool {
    let g: Vec<u32> = grid.chars().map(|c| c.to_digit(10).unwrap_or(0)).collect();
    if g.len() != 81 || g.contains(&0) {
        return false;
    }
    let kept = puzzle
        .chars()
        .zip(grid.chars())
        .all(|(p, s)| p == '.' || p == '0' || p == s);
    let unit_ok = |cells: Vec<usize>| {
        let set: BTreeSet<u32> = cells.iter().map(|&k| g[k]).collect();
        set.len() == 9
    };
    kept && (0..9).all(|u| {
        unit_ok((0..9).map(|j| 9 * u + j).collect())
            && unit_ok((0..9).map(|j| 9 * j + u).collect())
            && unit_ok(
                (0..9)
                    .map(|j| 9 * (3 * (u / 3) + j / 3) + 3 * (u % 3) + j % 3)
                    .collect(),
            )
    })
}

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn sudoku_model_solved_by_solve_is_the_known_grid() {
    let dlx = model(&["sudoku", PUZZLE]);
    assert_eq!(count(&dlx), 1);
    // Decode `xcover solve`'s listing: each option starts `p{r}{c} r{r}{d}`.
    let out = xcover().arg("solve").write_stdin(dlx).output().unwrap();
    let mut grid: Vec<char> = PUZZLE.chars().collect();
    for line in String::from_utf8(out.stdout).unwrap().lines().skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let cell = words[0].as_bytes();
        let (r, c) = ((cell[1] - b'0') as usize, (cell[2] - b'0') as usize);
        grid[9 * r + c] = words[1].as_bytes()[2] as char;
    }
    let grid: String = grid.into_iter().collect();
    assert_eq!(grid, SOLVED);
    assert!(valid(PUZZLE, &grid));
}

#[test]
fn sudoku_batch_solutions_are_valid_and_keep_the_clues() {
    let dir = tempfile::tempdir().unwrap();
    // The known puzzle, then versions with fewer clues (several solutions), then a blank grid.
    let mut puzzles = vec![PUZZLE.to_string()];
    for k in [3usize, 9, 20] {
        let mut p: Vec<char> = PUZZLE.chars().collect();
        let mut removed = 0;
        for c in p.iter_mut() {
            if *c != '.' && removed < k {
                *c = '0';
                removed += 1;
            }
        }
        puzzles.push(p.into_iter().collect());
    }
    puzzles.push(".".repeat(81));
    let file = dir.path().join("puzzles.txt");
    std::fs::write(&file, format!("# puzzles\n{}\n\n", puzzles.join("\n"))).unwrap();
    let out = xcover()
        .args([
            "model", "sudoku", "--solve", "--line", "--limit", "4", "--file",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines[0], SOLVED, "the unique puzzle comes first, once");
    assert_ne!(lines[1], SOLVED);
    // Each solution keeps the clues of some puzzle, in order: walk them.
    let mut at = 0;
    let mut per_puzzle = vec![0; puzzles.len()];
    for l in &lines {
        while !valid(&puzzles[at], l) {
            at += 1;
            assert!(at < puzzles.len(), "{l} solves no later puzzle");
        }
        per_puzzle[at] += 1;
    }
    assert_eq!(per_puzzle[0], 1);
    assert_eq!(per_puzzle[4], 4, "the blank grid gives --limit solutions");
    assert!(
        per_puzzle.iter().all(|&n| (1..=4).contains(&n)),
        "{per_puzzle:?}"
    );

    // The library's batch, directly: one grid per puzzle, in order.
    use dancelinks::models::sudoku::{Puzzle, line, solve_batch};
    let parsed: Vec<Puzzle> = puzzles.iter().map(|p| Puzzle::parse(p).unwrap()).collect();
    let answers = solve_batch(&parsed, 1);
    assert_eq!(answers.len(), puzzles.len());
    for (p, a) in puzzles.iter().zip(&answers) {
        assert_eq!(a.len(), 1);
        assert!(valid(p, &line(&a[0])));
    }
}

#[test]
fn output_file_gets_what_stdout_gets() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("l.dlx");
    xcover()
        .args(["model", "langford", "7", "-o"])
        .arg(&f)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read(&f).unwrap(), model(&["langford", "7"]));
}

fn leftovers(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".txt"))
        .collect()
}

#[test]
fn bad_arguments_exit_2_with_the_place_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.txt");
    std::fs::write(&board, "...\n.x.\n").unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    std::fs::write(&puzzles, format!("{PUZZLE}\n\n{}\n", &PUZZLE[..80])).unwrap();
    let bad_char = dir.path().join("bad.txt");
    std::fs::write(&bad_char, format!("{}?{}\n", &PUZZLE[..40], &PUZZLE[41..])).unwrap();
    let words = dir.path().join("words.txt");
    std::fs::write(&words, "cat\nore\ncows\n").unwrap();
    let out = dir.path().join("out.dlx");
    let path = |p: &Path| p.display().to_string();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["langford".into(), "0".into()],
            "0 is not in 1..=200".into(),
        ),
        (
            vec!["langford".into(), "201".into()],
            "201 is not in 1..=200".into(),
        ),
        (vec!["matchings".into(), "x".into()], "invalid digit".into()),
        (
            vec!["pentominoes".into(), "7x7".into()],
            "the board has 49 cells, but the pieces cover 60".into(),
        ),
        (
            vec!["pentominoes".into(), "hexagon".into()],
            "unknown board 'hexagon'".into(),
        ),
        (
            vec!["pentominoes".into(), "--board".into(), path(&board)],
            format!("{}:2:2: 'x' in a board picture", path(&board)),
        ),
        (
            vec!["sudoku".into(), "123".into()],
            "argument:1:4: a puzzle has 81 cells; this line has 3 characters".into(),
        ),
        (
            vec![
                "sudoku".into(),
                "--solve".into(),
                "--file".into(),
                path(&puzzles),
            ],
            format!(
                "{}:3:81: a puzzle has 81 cells; this line has 80 characters",
                path(&puzzles)
            ),
        ),
        (
            vec!["sudoku".into(), "--file".into(), path(&bad_char)],
            format!("{}:1:41: '?' in a puzzle", path(&bad_char)),
        ),
        (
            vec!["sudoku".into(), "--file".into(), path(&puzzles)],
            format!("{}:3:1: a second puzzle", path(&puzzles)),
        ),
        (
            vec!["word-squares".into(), path(&words)],
            format!(
                "{}:3:1: 'cows' has 4 letters, but the word on line 1 has 3",
                path(&words)
            ),
        ),
        (
            vec![
                "dominoes".into(),
                "2".into(),
                "2".into(),
                "--horizontal".into(),
                "3:2".into(),
            ],
            "need U <= V and V >= 1".into(),
        ),
    ];
    for (args, message) in cases {
        xcover()
            .arg("model")
            .args(&args)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message.as_str()));
        assert!(
            leftovers(dir.path()).is_empty(),
            "model {args:?} left a file"
        );
    }
}

/// The pentomino model has the options of the test suite's own generator
/// (`instances::pentominoes`), written independently: the same items, the same set of options.
#[test]
fn pentominoes_match_the_independent_generator() {
    let lines = |text: &str| -> (String, BTreeSet<String>) {
        let mut rest = text.lines().filter(|l| !l.starts_with('|'));
        let items = rest.next().unwrap().trim().to_string();
        (items, rest.map(|l| l.trim().to_string()).collect())
    };
    for (rows, cols) in [(6, 10), (5, 12), (4, 15), (3, 20)] {
        let ours = String::from_utf8(model(&["pentominoes", &format!("{rows}x{cols}")])).unwrap();
        let theirs = crate::instances::pentominoes(rows, cols, false);
        let (a, b) = (lines(&ours), lines(&theirs));
        assert_eq!(a.0, b.0, "{rows}x{cols} items");
        assert_eq!(a.1.len(), b.1.len(), "{rows}x{cols} options");
        assert!(a.1 == b.1, "{rows}x{cols}: the options differ");
    }
}

/// `--solve` draws the solutions: the eight 3×20 tilings, each piece's letter on five cells.
#[test]
fn solve_draws_every_tiling() {
    let out = xcover()
        .args(["model", "pentominoes", "3x20", "--solve", "--limit", "100"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let pictures: BTreeSet<&str> = text.split("\n\n").filter(|p| !p.is_empty()).collect();
    assert_eq!(pictures.len(), 8);
    for p in &pictures {
        assert_eq!(p.lines().count(), 3);
        assert!(p.lines().all(|l| l.chars().count() == 20));
        for letter in "FILNPTUVWXYZ".chars() {
            assert_eq!(p.matches(letter).count(), 5, "{p}");
        }
    }
    // Domino tilings with exactly two horizontal dominoes (Algorithm M), and none at all.
    xcover()
        .args([
            "model",
            "dominoes",
            "2",
            "3",
            "--horizontal",
            "2",
            "--solve",
            "--limit",
            "9",
        ])
        .assert()
        .success()
        .stdout("<>^\n<>v\n\n^<>\nv<>\n\n");
    xcover()
        .args(["model", "queens", "3", "--solve"])
        .assert()
        .success()
        .stdout("")
        .stderr("no solution\n");
}

/// A pentomino board from a file that the pieces cannot cover: the message names the file.
#[test]
fn a_bad_pentomino_board_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.txt");
    std::fs::write(&file, "....\n....\n").unwrap();
    let out = xcover()
        .args(["model", "pentominoes", "--board"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("{}: ", file.display())), "{err}");
    assert!(err.contains("8 cells"), "{err}");
}

/// MacMahon's squares of `colours` colours, made here without the crate: each colouring of the
/// edges `[top, right, bottom, left]`, once per class under quarter turns.
fn macmahon_squares(colours: u8) -> Vec<[u8; 4]> {
    let mut classes = BTreeSet::new();
    for code in 0..u32::from(colours).pow(4) {
        let mut t = [0u8; 4];
        for (s, e) in t.iter_mut().enumerate() {
            *e = (code / u32::from(colours).pow(s as u32) % u32::from(colours)) as u8;
        }
        let turns = (0..4).map(|k| [t[k % 4], t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]]);
        classes.insert(turns.min().unwrap());
    }
    classes.into_iter().collect()
}

/// Edge-matching tilings counted by backtracking (no exact cover): the cells row by row, each
/// given an unused square in one of its distinct turns that matches the squares above and to
/// the left, with `border` (if any) on every edge of the rim.
fn tilings(squares: &[[u8; 4]], rows: usize, cols: usize, border: Option<u8>) -> u64 {
    fn go(
        at: usize,
        turns: &[BTreeSet<[u8; 4]>],
        used: &mut [bool],
        placed: &mut Vec<[u8; 4]>,
        size: (usize, usize),
        border: Option<u8>,
    ) -> u64 {
        let (rows, cols) = size;
        if at == rows * cols {
            return 1;
        }
        let (r, c) = (at / cols, at % cols);
        let rim = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
        let mut total = 0;
        for k in 0..turns.len() {
            if used[k] {
                continue;
            }
            for t in &turns[k] {
                let fits = (r == 0 || placed[at - cols][2] == t[0])
                    && (c == 0 || placed[at - 1][1] == t[3])
                    && (0..4).all(|s| !rim[s] || border.is_none_or(|b| t[s] == b));
                if fits {
                    used[k] = true;
                    placed.push(*t);
                    total += go(at + 1, turns, used, placed, size, border);
                    placed.pop();
                    used[k] = false;
                }
            }
        }
        total
    }
    let turns: Vec<BTreeSet<[u8; 4]>> = squares
        .iter()
        .map(|t| {
            (0..4)
                .map(|k| [t[k % 4], t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]])
                .collect()
        })
        .collect();
    let mut used = vec![false; squares.len()];
    go(0, &turns, &mut used, &mut Vec::new(), (rows, cols), border)
}

/// Checks that every solution `xcover solve` prints for `dlx` is made of the file's options,
/// covers each primary item once and gives each secondary item one colour (or is the only
/// option that has it, uncoloured). Returns the number of solutions.
fn check_covers(dlx: &[u8]) -> u64 {
    let text = String::from_utf8(dlx.to_vec()).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim_start().starts_with('|'));
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let bar = header
        .iter()
        .position(|&w| w == "|")
        .unwrap_or(header.len());
    let primary: BTreeSet<&str> = header[..bar].iter().copied().collect();
    let options: BTreeSet<String> = lines
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    let out = xcover()
        .args(["solve", "-t", "1"])
        .write_stdin(dlx.to_vec())
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let mut solutions: Vec<Vec<String>> = Vec::new();
    for line in printed.lines() {
        if line.ends_with(':') && !line.starts_with(' ') {
            solutions.push(Vec::new());
        } else if !line.trim().is_empty() {
            solutions.last_mut().unwrap().push(line.trim().to_string());
        }
    }
    for s in &solutions {
        let mut covered = Vec::new();
        let mut colours: std::collections::BTreeMap<&str, Vec<Option<&str>>> = Default::default();
        for option in s {
            assert!(
                options.contains(option),
                "not an option of the file: {option}"
            );
            for token in option.split_whitespace() {
                let (item, colour) = match token.split_once(':') {
                    Some((i, c)) => (i, Some(c)),
                    None => (token, None),
                };
                if primary.contains(item) {
                    covered.push(item);
                } else {
                    colours.entry(item).or_default().push(colour);
                }
            }
        }
        covered.sort_unstable();
        assert_eq!(
            covered,
            primary.iter().copied().collect::<Vec<_>>(),
            "{s:?}"
        );
        for (item, cs) in colours {
            let alone = cs == [None];
            let one_colour = cs.iter().all(|c| c.is_some() && *c == cs[0]);
            assert!(alone || one_colour, "{item}: {cs:?}");
        }
    }
    solutions.len() as u64
}

/// A MacMahon case: the model's arguments, then colours, rows, columns and border colour.
type MacMahonCase<'a> = (&'a [&'a str], u8, usize, usize, Option<u8>);

#[test]
fn macmahon_counts_agree_with_a_backtracking_count() {
    let cases: &[MacMahonCase] = &[
        (
            &["2x3", "--colours", "2", "--border", "none"],
            2,
            2,
            3,
            None,
        ),
        (
            &["3x2", "--colours", "2", "--border", "none"],
            2,
            3,
            2,
            None,
        ),
        (
            &["1x6", "--colours", "2", "--border", "none"],
            2,
            1,
            6,
            None,
        ),
        (&["2x3", "--colours", "2"], 2, 2, 3, Some(0)),
        (
            &["2x3", "--colours", "2", "--border", "1"],
            2,
            2,
            3,
            Some(1),
        ),
    ];
    assert_eq!(macmahon_squares(2).len(), 6);
    assert_eq!(macmahon_squares(3).len(), 24);
    assert_eq!(macmahon_squares(4).len(), 70);
    let mut some = 0;
    for (args, colours, rows, cols, border) in cases {
        let mut a = vec!["macmahon"];
        a.extend_from_slice(args);
        let dlx = model(&a);
        let expected = tilings(&macmahon_squares(*colours), *rows, *cols, *border);
        assert_eq!(count(&dlx), expected, "{a:?}");
        assert_eq!(check_covers(&dlx), expected, "{a:?}");
        some += u64::from(expected > 0);
    }
    assert!(some >= 2);
    // Each of the 24 squares once on 4×6, the border all of colour 0, the count in docs/models.md.
    let dlx = model(&["macmahon", "4x6"]);
    let text = String::from_utf8_lossy(&dlx);
    assert!(
        text.starts_with("| MacMahon's 24 squares of 3 colours on a 4x6 board, border colour 0\n")
    );
    let items = text.lines().nth(1).unwrap();
    assert_eq!(
        items
            .split_whitespace()
            .filter(|w| w.starts_with('p'))
            .count(),
        24
    );
    // The 4×6 count (106,624) takes seconds: the library's ignored test checks it against a
    // brute force (`cargo test --lib -- --ignored macmahon_4x6`).
}

#[test]
fn edge_matching_puzzles_are_exact_covers_and_a_seed_makes_one_file() {
    let a = model(&["edge-matching", "4x4", "--colours", "3", "--seed", "5"]);
    let b = model(&["edge-matching", "4x4", "--colours", "3", "--seed", "5"]);
    assert_eq!(a, b, "the same seed, the same file");
    let c = model(&["edge-matching", "4x4", "--colours", "3", "--seed", "6"]);
    assert_ne!(a, c);
    let d = model(&[
        "edge-matching",
        "4x4",
        "--colours",
        "3",
        "--seed",
        "5",
        "--no-rotations",
    ]);
    assert_ne!(a, d);
    let mut total = 0;
    for dlx in [&a, &c, &d] {
        let n = check_covers(dlx);
        assert!(n >= 1, "a cut grid has a solution");
        assert_eq!(count(dlx), n);
        total += n;
    }
    assert!(
        total > 3,
        "turned square puzzles have their turned solutions too"
    );
    // The seeded file of the benchmark starts as docs/models.md shows.
    let text = String::from_utf8(model(&[
        "edge-matching",
        "7x7",
        "--colours",
        "7",
        "--seed",
        "1",
    ]))
    .unwrap();
    assert!(
        text.starts_with("| edge-matching puzzle 7x7, 7 colours, seed 1, tiles turned\nt1 t2 ")
    );
}

/// `--solve` draws each tiling with its colours where the edges are; neighbours match.
#[test]
fn edge_matching_solve_draws_matching_tiles() {
    let out = xcover()
        .args([
            "model",
            "macmahon",
            "2x3",
            "--colours",
            "2",
            "--border",
            "none",
            "--solve",
            "--limit",
            "1000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let pictures: BTreeSet<&str> = text.split("\n\n").filter(|p| !p.is_empty()).collect();
    let expected = tilings(&macmahon_squares(2), 2, 3, None);
    assert_eq!(pictures.len() as u64, expected);
    for p in &pictures {
        let rows: Vec<Vec<char>> = p.lines().map(|l| l.chars().collect()).collect();
        assert_eq!(rows.len(), 2 * 4 + 1, "{p}");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), 3 * 4 + 1, "{p}");
            if i % 4 == 0 {
                assert!(row.iter().all(|&ch| ch == '+' || ch == '-'), "{p}");
            }
        }
        // The bottom colour of a tile is the top colour of the tile below; the right of one
        // the left of the next.
        for r in 0..2 {
            for c in 0..3 {
                let (y, x) = (4 * r + 2, 4 * c + 2);
                if r + 1 < 2 {
                    assert_eq!(rows[y + 1][x], rows[y + 3][x], "{p}");
                }
                if c + 1 < 3 {
                    assert_eq!(rows[y][x + 1], rows[y][x + 3], "{p}");
                }
            }
        }
    }
}
