//! Generators of exact-cover instances in Knuth's DLX format, shared by the tests and by the
//! benchmark (`benches/engine.rs` includes this file with `#[path]`). Standard library only.
#![allow(dead_code)]

use std::fmt::Write;

/// The n-queens problem as exact cover with colourless secondary items.
///
/// Primary items: ranks `r{i}` and files `c{j}`; secondary items: the diagonals `a{i+j}` and
/// the anti-diagonals `b{n-1-i+j}`. Options in row-major order: `r{i} c{j} a{i+j} b{n-1-i+j}`.
///
/// - `organ_pipe`: Knuth's order. Items `r{m} c{m} r{m-1} c{m-1} r{m+1} c{m+1} ...` with
///   `m = n/2`, ranks and files from the middle outward; secondary items
///   `a1 b1 ... a{2n-3} b{2n-3}`, the single-cell diagonals at the corners left out (and left
///   out of the options too).
/// - plain: `r0..r{n-1} c0..c{n-1} | a0..a{2n-2} b0..b{2n-2}`.
///
/// This layout reproduces Knuth's node and update counts for 13-queens.
pub fn queens(n: usize, organ_pipe: bool) -> String {
    assert!(n >= 1);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| {n}-queens, {} order",
        if organ_pipe { "organ-pipe" } else { "plain" }
    );
    if organ_pipe {
        for k in organ_pipe_order(n) {
            let _ = write!(s, "r{k} c{k} ");
        }
        s.push('|');
        for d in 1..(2 * n).saturating_sub(2) {
            let _ = write!(s, " a{d} b{d}");
        }
    } else {
        for i in 0..n {
            let _ = write!(s, "r{i} ");
        }
        for j in 0..n {
            let _ = write!(s, "c{j} ");
        }
        s.push('|');
        for d in 0..2 * n - 1 {
            let _ = write!(s, " a{d}");
        }
        for d in 0..2 * n - 1 {
            let _ = write!(s, " b{d}");
        }
    }
    s.push('\n');
    let used = |d: usize| !organ_pipe || (d != 0 && d != 2 * n - 2);
    for i in 0..n {
        for j in 0..n {
            let _ = write!(s, "r{i} c{j}");
            let (a, b) = (i + j, n - 1 - i + j);
            if used(a) {
                let _ = write!(s, " a{a}");
            }
            if used(b) {
                let _ = write!(s, " b{b}");
            }
            s.push('\n');
        }
    }
    s
}

/// `m, m-1, m+1, m-2, m+2, ...` with `m = n/2`: 0..n from the middle outward (the library's
/// one definition).
pub fn organ_pipe_order(n: usize) -> Vec<usize> {
    dancelinks::queens::board::organ_pipe(n)
}

/// Langford pairs: place two copies of each of 1..=n in 2n slots so that the copies of k
/// have k numbers between them. Items `1..n` (the numbers) and `s0..s{2n-1}` (the slots);
/// option `k s{i} s{i+k+1}`. Both mirror images of each arrangement are counted.
pub fn langford(n: usize) -> String {
    let mut s = format!("| Langford pairs, n={n}\n");
    for k in 1..=n {
        let _ = write!(s, "{k} ");
    }
    for i in 0..2 * n {
        let _ = write!(s, "s{i} ");
    }
    s.push('\n');
    for k in 1..=n {
        for i in 0..(2 * n).saturating_sub(k + 1) {
            let _ = writeln!(s, "{k} s{i} s{}", i + k + 1);
        }
    }
    s
}

/// The twelve pentominoes, as cells (row, column) of one orientation.
pub const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each normalised to
/// nonnegative coordinates touching both axes and sorted.
pub fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut all: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut v: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                let r = if t & 1 != 0 { -r } else { r };
                let c = if t & 2 != 0 { -c } else { c };
                (r, c)
            })
            .collect();
        let r0 = v.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = v.iter().map(|p| p.1).min().unwrap_or(0);
        for p in &mut v {
            *p = (p.0 - r0, p.1 - c0);
        }
        v.sort_unstable();
        if !all.contains(&v) {
            all.push(v);
        }
    }
    all
}

/// The twelve pentominoes on a `rows` x `cols` board (60 cells for a full cover). Items: the
/// pieces `F I L N P T U V W X Y Z`, then the cells `r{i}c{j}`; one option per placement of a
/// distinct orientation: the piece and its five cells.
///
/// `x_centre_in_quarter` keeps the centre (r, c) of the X piece in the top-left quarter,
/// `2r <= rows-1` and `2c <= cols-1`, which removes the board's symmetries when both sides are
/// even (6x10: 9356 solutions, 2339 with the restriction).
pub fn pentominoes(rows: usize, cols: usize, x_centre_in_quarter: bool) -> String {
    let mut s = format!("| pentominoes on a {rows}x{cols} board\n");
    for (name, _) in PENTOMINOES {
        let _ = write!(s, "{name} ");
    }
    for i in 0..rows {
        for j in 0..cols {
            let _ = write!(s, "r{i}c{j} ");
        }
    }
    s.push('\n');
    for (name, cells) in PENTOMINOES {
        for shape in orientations(&cells) {
            let h = shape.iter().map(|p| p.0).max().unwrap_or(0) as usize + 1;
            let w = shape.iter().map(|p| p.1).max().unwrap_or(0) as usize + 1;
            if h > rows || w > cols {
                continue;
            }
            for dr in 0..=rows - h {
                for dc in 0..=cols - w {
                    if name == 'X' && x_centre_in_quarter {
                        let (r, c) = (dr + 1, dc + 1);
                        if 2 * r > rows - 1 || 2 * c > cols - 1 {
                            continue;
                        }
                    }
                    s.push(name);
                    for &(r, c) in &shape {
                        let _ = write!(s, " r{}c{}", dr + r as usize, dc + c as usize);
                    }
                    s.push('\n');
                }
            }
        }
    }
    s
}

/// A 9x9 Sudoku: `grid` lists the 81 cells row by row, a digit `1..=9` for a given and `.`
/// or `0` for an empty cell; whitespace is ignored. Items `p{r}{c}` (cell filled),
/// `r{r}{d}`, `c{c}{d}`, `b{b}{d}` (digit d in row, column, box); option
/// `p{r}{c} r{r}{d} c{c}{d} b{b}{d}` for each digit allowed in each cell (only the given one
/// in a given cell).
pub fn sudoku(grid: &str) -> String {
    let cells: Vec<char> = grid.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(cells.len(), 81, "a Sudoku grid has 81 cells");
    let mut s = String::from("| Sudoku\n");
    for r in 0..9 {
        for c in 0..9 {
            let _ = write!(s, "p{r}{c} ");
        }
    }
    for kind in ['r', 'c', 'b'] {
        for k in 0..9 {
            for d in 1..=9 {
                let _ = write!(s, "{kind}{k}{d} ");
            }
        }
    }
    s.push('\n');
    for r in 0..9 {
        for c in 0..9 {
            let given = cells[9 * r + c].to_digit(10).filter(|&d| d != 0);
            let b = 3 * (r / 3) + c / 3;
            for d in 1..=9 {
                if given.is_none_or(|g| g == d) {
                    let _ = writeln!(s, "p{r}{c} r{r}{d} c{c}{d} b{b}{d}");
                }
            }
        }
    }
    s
}
