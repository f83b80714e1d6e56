//! Edge-matching puzzles, an exact cover with colours (XCC): square tiles whose four edges are
//! coloured are placed on a rectangle of cells, each tile once and each cell once, so that two
//! tiles side by side show the same colour on their common edge. Two families:
//!
//! - **MacMahon's coloured squares** ([`EdgeMatching::macmahon`]): the squares whose edges are
//!   coloured from C colours, one of each colouring up to rotation (C = 3: the 24 squares of
//!   MacMahon's *New Mathematical Pastimes*, 1921), rotated freely, on a board with as many
//!   cells, with (as is classic) the whole border of one colour;
//! - **random puzzles** ([`EdgeMatching::random`]): a solved R×C grid whose inner edges are
//!   coloured at random from K colours, its border edges of a frame colour `0`, cut into its
//!   tiles and shuffled (and, optionally, each tile turned) from a seed, so that the puzzle has
//!   at least one solution.
//!
//! The problem:
//! - primary items: the tiles (MacMahon's by their colours, `p0012`; a random puzzle's `t1`,
//!   `t2`, ...), then the cells `r{row}c{col}` (0-based) row by row;
//! - secondary items: the inner edges, `h{row}c{col}` the horizontal edge above cell (row,
//!   col) for 1 ≤ row < R, then `v{row}c{col}` the vertical edge left of cell (row, col) for
//!   1 ≤ col < C, row by row;
//! - options: a tile in one of its distinct orientations on one cell, with the colours it
//!   gives the cell's inner edges: `p0012 r1c2 h1c2:0 v1c3:0 h2c2:1 v1c2:2` (top, right,
//!   bottom, left). A tile goes only where its edges on the border have the border colour (and,
//!   for a random puzzle, where its frame edges are all on the border).
//!
//! A tile's colours are listed clockwise from the top: `[top, right, bottom, left]`.

use crate::engine::{Entry, OptionId, Problem, ProblemBuilder};
use crate::random::SplitMix64;

use super::{Model, ModelError};

/// The longest side of a random puzzle, in cells.
pub const MAX_SIDE: usize = 16;

/// The number of tilings of 4×6 with MacMahon's 24 squares of 3 colours, the border of colour
/// 0: 8 × 13,328 (every turn and mirror image of the rectangle and both namings of the other two
/// colours counted).
pub const MACMAHON_4X6: u64 = 106_624;

/// The most colours of a random puzzle (named `1`..`9`, `a`..`z`).
pub const MAX_COLOURS: usize = 35;

/// The names of colours: `0` (MacMahon's first colour, or a random puzzle's frame), then
/// `1`..`9` and `a`..`z`.
const COLOUR_NAMES: &str = "0123456789abcdefghijklmnopqrstuvwxyz";

/// A tile: its edge colours clockwise from the top, `[top, right, bottom, left]`, as indices
/// into the colour names.
pub type Tile = [u8; 4];

/// The tile turned a quarter clockwise: its left edge comes on top.
pub fn turn(t: Tile) -> Tile {
    [t[3], t[0], t[1], t[2]]
}

/// The distinct orientations of a tile: itself and its quarter turns, without repeats.
pub fn orientations(t: Tile) -> Vec<Tile> {
    let mut out = vec![t];
    let mut u = t;
    for _ in 0..3 {
        u = turn(u);
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// MacMahon's squares of `colours` colours: every colouring of the four edges, one per class
/// under rotation (the least of its rotations), in increasing order. 2 colours give 6 squares,
/// 3 give 24, 4 give 70.
pub fn macmahon_squares(colours: usize) -> Vec<Tile> {
    let c = colours as u8;
    let mut out = Vec::new();
    for a in 0..c {
        for b in 0..c {
            for d in 0..c {
                for e in 0..c {
                    let t = [a, b, d, e];
                    if orientations(t).iter().all(|&u| t <= u) {
                        out.push(t);
                    }
                }
            }
        }
    }
    out
}

/// Where the border colour must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Border {
    /// Nowhere in particular.
    Free,
    /// Every edge on the border has this colour (other edges may have it too).
    Colour(u8),
    /// Every edge on the border has this colour, and no other edge has it (a frame).
    Frame(u8),
}

/// An edge-matching puzzle.
#[derive(Debug, Clone)]
pub struct EdgeMatching {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
    colours: usize,
    title: String,
    problem: Problem,
    /// For each option: the tile (index), its colours as placed, and its cell.
    placements: Vec<(usize, Tile, usize, usize)>,
}

impl EdgeMatching {
    /// The puzzle of placing `tiles` (named `names`) on a `rows × cols` board, each tile once
    /// in any of its orientations (or as given, without `rotations`), so that neighbours
    /// match and the border follows `border`. `colours` is how many colour names the tiles
    /// use (`0`..); the number of tiles must be the number of cells.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tiles: Vec<Tile>,
        names: &[String],
        colours: usize,
        rows: usize,
        cols: usize,
        rotations: bool,
        border: Border,
        title: String,
    ) -> Result<EdgeMatching, ModelError> {
        if rows == 0 || cols == 0 {
            return Err(ModelError::Invalid(format!(
                "a board has at least one row and one column, not {rows}x{cols}"
            )));
        }
        if rows.checked_mul(cols) != Some(tiles.len()) {
            return Err(ModelError::Invalid(format!(
                "a {rows}x{cols} board does not have one cell for each of the {} tiles",
                tiles.len()
            )));
        }
        if names.len() != tiles.len() {
            return Err(ModelError::Invalid(format!(
                "{} names for {} tiles",
                names.len(),
                tiles.len()
            )));
        }
        if colours > COLOUR_NAMES.len() || tiles.iter().flatten().any(|&c| c as usize >= colours) {
            return Err(ModelError::Invalid(format!(
                "tiles use at most {} colours",
                COLOUR_NAMES.len()
            )));
        }
        let mut b = ProblemBuilder::new();
        let tile_items: Vec<_> = names
            .iter()
            .map(|n| b.primary(n))
            .collect::<Result<_, _>>()?;
        let mut cells = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(b.primary(&format!("r{r}c{c}"))?);
            }
        }
        // h[r * cols + c]: the edge above (r, c), r >= 1; v[r * cols + c]: left of (r, c), c >= 1.
        let mut h = vec![None; rows * cols];
        for r in 1..rows {
            for c in 0..cols {
                h[r * cols + c] = Some(b.secondary(&format!("h{r}c{c}"))?);
            }
        }
        let mut v = vec![None; rows * cols];
        for r in 0..rows {
            for c in 1..cols {
                v[r * cols + c] = Some(b.secondary(&format!("v{r}c{c}"))?);
            }
        }
        let colour_ids: Vec<_> = COLOUR_NAMES[..colours]
            .chars()
            .map(|ch| b.colour(&ch.to_string()))
            .collect::<Result<_, _>>()?;
        let mut placements = Vec::new();
        for (k, &tile) in tiles.iter().enumerate() {
            let shapes = if rotations {
                orientations(tile)
            } else {
                vec![tile]
            };
            for shape in shapes {
                for r in 0..rows {
                    for c in 0..cols {
                        // The edges top, right, bottom, left: an inner edge's item, or None
                        // on the border.
                        let edges = [
                            h[r * cols + c],
                            if c + 1 < cols {
                                v[r * cols + c + 1]
                            } else {
                                None
                            },
                            if r + 1 < rows {
                                h[(r + 1) * cols + c]
                            } else {
                                None
                            },
                            v[r * cols + c],
                        ];
                        let fits = edges.iter().zip(shape).all(|(e, colour)| match border {
                            Border::Free => true,
                            Border::Colour(x) => e.is_some() || colour == x,
                            Border::Frame(x) => e.is_some() == (colour != x),
                        });
                        if !fits {
                            continue;
                        }
                        let mut entries = vec![
                            Entry::plain(tile_items[k]),
                            Entry::plain(cells[r * cols + c]),
                        ];
                        for (e, colour) in edges.iter().zip(shape) {
                            if let Some(item) = e {
                                entries.push(Entry::coloured(*item, colour_ids[colour as usize]));
                            }
                        }
                        b.add_option(entries, 0)?;
                        placements.push((k, shape, r, c));
                    }
                }
            }
        }
        Ok(EdgeMatching {
            rows,
            cols,
            tiles,
            colours,
            title,
            problem: b.build()?,
            placements,
        })
    }

    /// MacMahon's squares of `colours` colours (2 to 4) on a `rows × cols` board with as many
    /// cells as there are squares (3 colours: 24, e.g. 4×6; 2 colours: 6; 4 colours: 70), turned
    /// freely; `border` is the colour of every edge on the border (`0` classically), or `None`.
    pub fn macmahon(
        colours: usize,
        rows: usize,
        cols: usize,
        border: Option<u8>,
    ) -> Result<EdgeMatching, ModelError> {
        if !(2..=4).contains(&colours) {
            return Err(ModelError::Invalid(format!(
                "MacMahon's squares have 2 to 4 colours, not {colours}"
            )));
        }
        if let Some(x) = border.filter(|&x| x as usize >= colours) {
            return Err(ModelError::Invalid(format!(
                "the border colour is one of 0 to {}, not {x}",
                colours - 1
            )));
        }
        let tiles = macmahon_squares(colours);
        if rows.checked_mul(cols) != Some(tiles.len()) {
            return Err(ModelError::Invalid(format!(
                "MacMahon's squares of {colours} colours are {} and need a board of {} cells \
                 (such as {}), not {rows}x{cols}",
                tiles.len(),
                tiles.len(),
                match colours {
                    2 => "2x3",
                    3 => "4x6",
                    _ => "7x10",
                }
            )));
        }
        let names: Vec<String> = tiles.iter().map(|t| format!("p{}", word(t))).collect();
        let title = format!(
            "MacMahon's {} squares of {colours} colours on a {rows}x{cols} board, {}",
            tiles.len(),
            match border {
                Some(x) => format!("border colour {x}"),
                None => "any border".to_string(),
            }
        );
        let border = border.map_or(Border::Free, Border::Colour);
        EdgeMatching::new(tiles, &names, colours, rows, cols, true, border, title)
    }

    /// A random `rows × cols` puzzle with `colours` inner colours (named `1`..; the border is
    /// the frame colour `0`) made from `seed`: SplitMix64 colours the inner edges (horizontal
    /// ones row by row, then vertical ones row by row) with `1 + below(colours)` each, the
    /// tiles are shuffled (Fisher–Yates, from the last) and, with `rotations`, each is turned
    /// `below(4)` quarters clockwise, tile after tile. The same arguments give the same puzzle
    /// on every platform and version.
    pub fn random(
        rows: usize,
        cols: usize,
        colours: usize,
        seed: u64,
        rotations: bool,
    ) -> Result<EdgeMatching, ModelError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(ModelError::Invalid(format!(
                "a puzzle's sides are 1 to {MAX_SIDE} cells, not {rows}x{cols}"
            )));
        }
        if !(1..=MAX_COLOURS).contains(&colours) {
            return Err(ModelError::Invalid(format!(
                "a puzzle has 1 to {MAX_COLOURS} colours, not {colours}"
            )));
        }
        let mut g = SplitMix64::new(seed);
        let mut draw = || 1 + g.below(colours as u64) as u8;
        let mut hc = vec![0u8; rows * cols];
        for r in 1..rows {
            for c in 0..cols {
                hc[r * cols + c] = draw();
            }
        }
        let mut vc = vec![0u8; rows * cols];
        for r in 0..rows {
            for c in 1..cols {
                vc[r * cols + c] = draw();
            }
        }
        let mut tiles = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                tiles.push([
                    hc[r * cols + c],
                    if c + 1 < cols {
                        vc[r * cols + c + 1]
                    } else {
                        0
                    },
                    if r + 1 < rows {
                        hc[(r + 1) * cols + c]
                    } else {
                        0
                    },
                    vc[r * cols + c],
                ]);
            }
        }
        for i in (1..tiles.len()).rev() {
            let j = g.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        if rotations {
            for t in &mut tiles {
                for _ in 0..g.below(4) {
                    *t = turn(*t);
                }
            }
        }
        let names: Vec<String> = (1..=tiles.len()).map(|i| format!("t{i}")).collect();
        let title = format!(
            "edge-matching puzzle {rows}x{cols}, {colours} colours, seed {seed}, {}",
            if rotations {
                "tiles turned"
            } else {
                "no rotations"
            }
        );
        EdgeMatching::new(
            tiles,
            &names,
            colours + 1,
            rows,
            cols,
            rotations,
            Border::Frame(0),
            title,
        )
    }

    /// The tiles, as given (before any turn a solution makes).
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The number of rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The number of colour names the tiles use (`0`..).
    pub fn colours(&self) -> usize {
        self.colours
    }

    /// For each cell (row-major): the tile placed there and its colours as placed.
    pub fn layout(&self, solution: &[OptionId]) -> Vec<Option<(usize, Tile)>> {
        let mut grid = vec![None; self.rows * self.cols];
        for &o in solution {
            let (k, shape, r, c) = self.placements[o.0 as usize];
            grid[r * self.cols + c] = Some((k, shape));
        }
        grid
    }
}

/// A tile's colours as a word, `0012`.
fn word(t: &Tile) -> String {
    t.iter().map(|&c| colour_name(c)).collect()
}

fn colour_name(c: u8) -> char {
    COLOUR_NAMES.as_bytes()[c as usize] as char
}

impl Model for EdgeMatching {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        self.title.clone()
    }
    /// The board, each tile a box of three lines showing its colours where its edges are:
    /// ```text
    /// +---+---+
    /// | 0 | 0 |
    /// |0 1|1 0|
    /// | 2 | 2 |
    /// +---+---+
    /// ```
    fn decode(&self, solution: &[OptionId]) -> String {
        let grid = self.layout(solution);
        let rule: String = "+---".repeat(self.cols) + "+\n";
        let mut out = rule.clone();
        for r in 0..self.rows {
            let mut lines = [String::new(), String::new(), String::new()];
            for c in 0..self.cols {
                let [t, rt, bt, lt] = match grid[r * self.cols + c] {
                    Some((_, shape)) => shape.map(colour_name),
                    None => ['.'; 4],
                };
                lines[0] += &format!("| {t} ");
                lines[1] += &format!("|{lt} {rt}");
                lines[2] += &format!("| {bt} ");
            }
            for line in lines {
                out += &line;
                out += "|\n";
            }
            out += &rule;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::engine::run::Dance;
    use crate::models::{for_each_solution, solve_count};
    use std::ops::ControlFlow;

    /// Solutions counted without exact cover: fill the cells row by row with an unused tile in
    /// one of its orientations that matches the tiles above and to the left and the border.
    fn brute_force(
        tiles: &[Tile],
        rows: usize,
        cols: usize,
        rotations: bool,
        border: Border,
    ) -> u64 {
        fn go(
            at: usize,
            shapes: &[Vec<Tile>],
            used: &mut [bool],
            board: &mut Vec<Tile>,
            rows: usize,
            cols: usize,
            border: Border,
        ) -> u64 {
            if at == rows * cols {
                return 1;
            }
            let (r, c) = (at / cols, at % cols);
            let mut total = 0;
            for k in 0..shapes.len() {
                if used[k] {
                    continue;
                }
                for &t in &shapes[k] {
                    let outside = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
                    let ok_border = (0..4).all(|s| match border {
                        Border::Free => true,
                        Border::Colour(x) => !outside[s] || t[s] == x,
                        Border::Frame(x) => outside[s] == (t[s] == x),
                    });
                    let ok_up = r == 0 || board[at - cols][2] == t[0];
                    let ok_left = c == 0 || board[at - 1][1] == t[3];
                    if ok_border && ok_up && ok_left {
                        used[k] = true;
                        board.push(t);
                        total += go(at + 1, shapes, used, board, rows, cols, border);
                        board.pop();
                        used[k] = false;
                    }
                }
            }
            total
        }
        let shapes: Vec<Vec<Tile>> = tiles
            .iter()
            .map(|&t| if rotations { orientations(t) } else { vec![t] })
            .collect();
        go(
            0,
            &shapes,
            &mut vec![false; tiles.len()],
            &mut Vec::new(),
            rows,
            cols,
            border,
        )
    }

    /// Every solution covers each tile and cell once and its neighbours match.
    fn check_solutions(m: &EdgeMatching, border: Border) -> u64 {
        let (rows, cols) = m.size();
        let mut n = 0;
        for_each_solution(m.problem(), &Budget::unlimited(), |s| {
            let grid = m.layout(s);
            let mut used = vec![false; m.tiles().len()];
            for (i, cell) in grid.iter().enumerate() {
                let (k, t) = cell.expect("every cell covered");
                assert!(!used[k], "a tile used twice");
                used[k] = true;
                assert!(orientations(m.tiles()[k]).contains(&t));
                let (r, c) = (i / cols, i % cols);
                if r > 0 {
                    assert_eq!(grid[i - cols].unwrap().1[2], t[0]);
                }
                if c > 0 {
                    assert_eq!(grid[i - 1].unwrap().1[1], t[3]);
                }
                let outside = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
                for s in 0..4 {
                    match border {
                        Border::Free => {}
                        Border::Colour(x) => assert!(!outside[s] || t[s] == x),
                        Border::Frame(x) => assert_eq!(outside[s], t[s] == x),
                    }
                }
            }
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    #[test]
    fn macmahon_square_sets() {
        assert_eq!(macmahon_squares(2).len(), 6);
        assert_eq!(macmahon_squares(3).len(), 24);
        assert_eq!(macmahon_squares(4).len(), 70);
        // Classes under rotation: no two squares are turns of each other.
        let all = macmahon_squares(3);
        for (i, &t) in all.iter().enumerate() {
            for &u in &all[i + 1..] {
                assert!(!orientations(t).contains(&u));
            }
        }
        assert_eq!(orientations([0, 0, 0, 0]).len(), 1);
        assert_eq!(orientations([0, 1, 0, 1]).len(), 2);
        assert_eq!(orientations([0, 0, 1, 2]).len(), 4);
    }

    #[test]
    fn macmahon_counts_agree_with_a_brute_force() {
        for (colours, rows, cols, border) in [
            (2, 2, 3, None),
            (2, 3, 2, None),
            (2, 1, 6, None),
            (2, 2, 3, Some(0)),
            (2, 2, 3, Some(1)),
        ] {
            let m = EdgeMatching::macmahon(colours, rows, cols, border).unwrap();
            let b = border.map_or(Border::Free, Border::Colour);
            let expected = brute_force(&macmahon_squares(colours), rows, cols, true, b);
            assert_eq!(check_solutions(&m, b), expected, "{colours} {rows}x{cols}");
        }
    }

    /// The classic problem, 24 squares on 4×6 with the border of colour 0, counted both ways
    /// (the brute force is slow: unfinished after 35 CPU-minutes): `cargo test --lib --
    /// --ignored macmahon_4x6`.
    #[test]
    #[ignore]
    fn macmahon_4x6_agrees_with_a_brute_force() {
        let m = EdgeMatching::macmahon(3, 4, 6, Some(0)).unwrap();
        let expected = brute_force(&macmahon_squares(3), 4, 6, true, Border::Colour(0));
        assert_eq!(solve_count(m.problem(), &Budget::unlimited()), expected);
        assert_eq!(expected, MACMAHON_4X6);
    }

    #[test]
    fn random_puzzles_agree_with_a_brute_force() {
        let mut several = 0;
        for seed in 0..8 {
            for (rows, cols, colours, rotations) in [
                (2, 3, 2, true),
                (3, 3, 2, true),
                (3, 3, 2, false),
                (2, 4, 1, true),
                (3, 4, 3, false),
            ] {
                let m = EdgeMatching::random(rows, cols, colours, seed, rotations).unwrap();
                let expected = brute_force(m.tiles(), rows, cols, rotations, Border::Frame(0));
                assert!(expected >= 1, "the cut grid is a solution");
                assert_eq!(check_solutions(&m, Border::Frame(0)), expected);
                assert_eq!(solve_count(m.problem(), &Budget::unlimited()), expected);
                several += u64::from(expected > 1);
            }
        }
        assert!(several > 0, "some puzzles should have several solutions");
    }

    #[test]
    fn a_seed_makes_one_puzzle() {
        let a = EdgeMatching::random(5, 4, 3, 9, true).unwrap();
        let b = EdgeMatching::random(5, 4, 3, 9, true).unwrap();
        let c = EdgeMatching::random(5, 4, 3, 10, true).unwrap();
        assert_eq!(a.tiles(), b.tiles());
        assert_ne!(a.tiles(), c.tiles());
        let s = Dance::new(a.problem()).first().unwrap();
        let picture = a.decode(&s);
        assert_eq!(picture.lines().count(), 5 * 4 + 1);
        assert!(picture.lines().all(|l| l.len() == 4 * 4 + 1));
    }

    #[test]
    fn bad_sizes() {
        assert!(EdgeMatching::macmahon(3, 4, 5, Some(0)).is_err());
        assert!(EdgeMatching::macmahon(3, 4, 6, Some(3)).is_err());
        assert!(EdgeMatching::macmahon(5, 4, 6, Some(0)).is_err());
        assert!(EdgeMatching::random(0, 4, 3, 1, false).is_err());
        assert!(EdgeMatching::random(4, 17, 3, 1, false).is_err());
        assert!(EdgeMatching::random(4, 4, 36, 1, false).is_err());
    }
}
