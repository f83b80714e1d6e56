//! Polyomino tilings: cover every cell of a board with a set of pieces, each piece used exactly
//! once, in any of its rotations and reflections (Knuth's pentomino problems, TAOCP 7.2.2.1).
//!
//! - primary items: the pieces, by name (`F I L N P T U V W X Y Z` for the pentominoes), then
//!   the board's cells `r{row}c{col}` (0-based), row by row;
//! - options: a piece and the cells of one placement, `F r0c1 r0c2 r1c0 r1c1 r2c1`, for each
//!   piece, each distinct orientation (up to 8) and each position where it fits the board.
//!
//! A board is a picture: `.` a cell to cover, `#` a hole (no cell); rows are lines, a shorter
//! line has holes after its end. Solutions that differ by a symmetry of the board are all
//! counted: the 6×10 rectangle has 2,339 tilings up to symmetry and 9,356 solutions.

use std::collections::BTreeSet;

use crate::engine::{OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// The longest side of a board, in cells.
pub const MAX_SIDE: usize = 256;

/// A board: which cells of a `rows × cols` grid are to be covered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<bool>,
}

impl Board {
    /// A full `rows × cols` rectangle.
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, ModelError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(ModelError::Invalid(format!(
                "a board's sides are 1 to {MAX_SIDE} cells, not {rows}x{cols}"
            )));
        }
        Ok(Board {
            rows,
            cols,
            cells: vec![true; rows * cols],
        })
    }

    /// A built-in board: `RxC` (a rectangle, e.g. `6x10`, `5x12`, `4x15`, `3x20`) or
    /// `8x8-minus-centre` (the chessboard without its central 2×2 square).
    pub fn named(name: &str) -> Result<Board, ModelError> {
        if name == "8x8-minus-centre" || name == "8x8-minus-center" {
            let mut b = Board::rectangle(8, 8)?;
            for (r, c) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
                b.cells[r * 8 + c] = false;
            }
            return Ok(b);
        }
        let parsed = name
            .split_once('x')
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
        match parsed {
            Some((r, c)) => Board::rectangle(r, c),
            None => Err(ModelError::Invalid(format!(
                "unknown board '{name}' (the built-in boards are RxC rectangles such as 6x10, \
                 5x12, 4x15, 3x20, and 8x8-minus-centre)"
            ))),
        }
    }

    /// A board drawn as a picture: `.` a cell, `#` a hole, one line per row (a shorter line
    /// ends in holes); blank lines at the end are ignored. Errors give the line and column.
    pub fn parse(text: &str) -> Result<Board, ModelError> {
        let lines: Vec<&str> = text.lines().collect();
        let used = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |k| k + 1);
        let lines = &lines[..used];
        let mut rows = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let mut row = Vec::new();
            for (j, ch) in line.trim_end().chars().enumerate() {
                match ch {
                    '.' => row.push(true),
                    '#' => row.push(false),
                    other => {
                        return Err(ModelError::At {
                            line: i + 1,
                            column: j + 1,
                            message: format!(
                                "'{}' in a board picture (use '.' for a cell, '#' for a hole)",
                                other.escape_default()
                            ),
                        });
                    }
                }
                if row.len() > MAX_SIDE {
                    return Err(ModelError::At {
                        line: i + 1,
                        column: j + 1,
                        message: format!("a board row has at most {MAX_SIDE} cells"),
                    });
                }
            }
            rows.push(row);
            if rows.len() > MAX_SIDE {
                return Err(ModelError::At {
                    line: i + 1,
                    column: 1,
                    message: format!("a board has at most {MAX_SIDE} rows"),
                });
            }
        }
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        if !rows.iter().flatten().any(|&c| c) {
            return Err(ModelError::At {
                line: lines.len().max(1),
                column: 1,
                message: "the board has no cell ('.')".into(),
            });
        }
        let mut cells = Vec::with_capacity(rows.len() * cols);
        for row in &rows {
            cells.extend(row.iter().copied());
            cells.extend(std::iter::repeat_n(false, cols - row.len()));
        }
        Ok(Board {
            rows: rows.len(),
            cols,
            cells,
        })
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Whether (row, col) is a cell to cover (false outside the grid).
    pub fn is_cell(&self, row: i64, col: i64) -> bool {
        row >= 0
            && col >= 0
            && (row as usize) < self.rows
            && (col as usize) < self.cols
            && self.cells[row as usize * self.cols + col as usize]
    }
    /// The number of cells to cover.
    pub fn cell_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }
}

/// A piece: a name and its cells `(row, col)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The piece's name (its item); its first character marks it in pictures.
    pub name: String,
    /// Its cells, in any position.
    pub cells: Vec<(i64, i64)>,
}

impl Piece {
    /// A piece drawn with `#` for its cells and `.` for none, rows separated by `/`:
    /// `Piece::drawn("L", "####/#...")`.
    pub fn drawn(name: &str, picture: &str) -> Piece {
        let mut cells = Vec::new();
        for (r, row) in picture.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    cells.push((r as i64, c as i64));
                }
            }
        }
        Piece {
            name: name.to_string(),
            cells,
        }
    }

    /// A piece given by a user: [`Piece::drawn`] once the name is checked to be a word and
    /// the picture to hold only `#`, `.` and `/` and at least one cell.
    pub fn parse(name: &str, picture: &str) -> Result<Piece, ModelError> {
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(ModelError::Invalid(format!(
                "a piece's name is a word, not '{name}'"
            )));
        }
        if let Some(ch) = picture.chars().find(|c| !matches!(c, '#' | '.' | '/')) {
            return Err(ModelError::Invalid(format!(
                "piece {name}: '{ch}' in its picture (`#` a cell, `.` none, `/` between rows)"
            )));
        }
        let piece = Piece::drawn(name, picture);
        if piece.cells.is_empty() {
            return Err(ModelError::Invalid(format!("piece {name} has no cell")));
        }
        Ok(piece)
    }

    /// The distinct orientations (rotations and reflections), each shifted to the origin and
    /// sorted, in a fixed order.
    pub fn orientations(&self) -> Vec<Vec<(i64, i64)>> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for t in 0..8 {
            let mut v: Vec<(i64, i64)> = self
                .cells
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
                p.0 -= r0;
                p.1 -= c0;
            }
            v.sort_unstable();
            if seen.insert(v.clone()) {
                out.push(v);
            }
        }
        out
    }
}

/// The twelve pentominoes, with Conway's letters.
pub fn pentominoes() -> Vec<Piece> {
    [
        ("F", ".##/##./.#."),
        ("I", "#####"),
        ("L", "####/#..."),
        ("N", "##../.###"),
        ("P", "##/##/#."),
        ("T", "###/.#./.#."),
        ("U", "#.#/###"),
        ("V", "#../#../###"),
        ("W", "#../##./.##"),
        ("X", ".#./###/.#."),
        ("Y", "####/.#.."),
        ("Z", "##./.#./.##"),
    ]
    .iter()
    .map(|(n, p)| Piece::drawn(n, p))
    .collect()
}

/// A tiling problem: pieces on a board.
#[derive(Debug, Clone)]
pub struct Tiling {
    board: Board,
    pieces: Vec<Piece>,
    problem: Problem,
    /// For each option: the piece (index) and its cells.
    placements: Vec<(usize, Vec<(usize, usize)>)>,
}

fn cell_name(r: usize, c: usize) -> String {
    format!("r{r}c{c}")
}

impl Tiling {
    /// The problem of covering `board` with `pieces`, each once. The pieces must cover as many
    /// cells as the board has, and their names must be distinct.
    pub fn new(pieces: Vec<Piece>, board: Board) -> Result<Tiling, ModelError> {
        let area: usize = pieces.iter().map(|p| p.cells.len()).sum();
        if area != board.cell_count() {
            return Err(ModelError::Invalid(format!(
                "the board has {} cells, but the pieces cover {area}",
                board.cell_count()
            )));
        }
        let mut b = ProblemBuilder::new();
        let piece_items: Vec<_> = pieces
            .iter()
            .map(|p| b.primary(&p.name))
            .collect::<Result<_, _>>()?;
        let mut cell_item = vec![None; board.rows * board.cols];
        for r in 0..board.rows {
            for c in 0..board.cols {
                if board.is_cell(r as i64, c as i64) {
                    cell_item[r * board.cols + c] = Some(b.primary(&cell_name(r, c))?);
                }
            }
        }
        let mut placements = Vec::new();
        for (k, piece) in pieces.iter().enumerate() {
            for shape in piece.orientations() {
                for r in 0..board.rows as i64 {
                    for c in 0..board.cols as i64 {
                        if !shape.iter().all(|&(dr, dc)| board.is_cell(r + dr, c + dc)) {
                            continue;
                        }
                        let cells: Vec<(usize, usize)> = shape
                            .iter()
                            .map(|&(dr, dc)| ((r + dr) as usize, (c + dc) as usize))
                            .collect();
                        let entries = std::iter::once(piece_items[k])
                            .chain(cells.iter().map(|&(r, c)| {
                                cell_item[r * board.cols + c].expect("a cell of the board")
                            }))
                            .map(crate::engine::Entry::plain);
                        b.add_option(entries, 0)?;
                        placements.push((k, cells));
                    }
                }
            }
        }
        Ok(Tiling {
            board,
            pieces,
            problem: b.build()?,
            placements,
        })
    }

    /// The twelve pentominoes on `board`.
    pub fn pentominoes(board: Board) -> Result<Tiling, ModelError> {
        Tiling::new(pentominoes(), board)
    }

    /// For each cell of the grid (row-major), the index of the piece covering it, if any.
    pub fn cover(&self, solution: &[OptionId]) -> Vec<Option<usize>> {
        let mut grid = vec![None; self.board.rows * self.board.cols];
        for &o in solution {
            let (k, cells) = &self.placements[o.0 as usize];
            for &(r, c) in cells {
                grid[r * self.board.cols + c] = Some(*k);
            }
        }
        grid
    }
}

impl Model for Tiling {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        let names: Vec<&str> = self.pieces.iter().map(|p| p.name.as_str()).collect();
        format!(
            "pieces {} on a {}x{} board of {} cells",
            names.join(" "),
            self.board.rows,
            self.board.cols,
            self.board.cell_count()
        )
    }
    /// The board with each cell marked by its piece's first character, holes as `#`.
    fn decode(&self, solution: &[OptionId]) -> String {
        let grid = self.cover(solution);
        let mut out = String::new();
        for r in 0..self.board.rows {
            for c in 0..self.board.cols {
                out.push(match grid[r * self.board.cols + c] {
                    Some(k) => self.pieces[k].name.chars().next().unwrap_or('?'),
                    None if self.board.is_cell(r as i64, c as i64) => '.',
                    None => '#',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::models::solve_count;

    /// Tilings counted without exact cover: fill the first empty cell (row-major) with some
    /// unused piece in some orientation, anchored at the orientation's first cell.
    fn brute_force(pieces: &[Piece], board: &Board) -> u64 {
        fn go(
            shapes: &[Vec<Vec<(i64, i64)>>],
            used: &mut [bool],
            filled: &mut [bool],
            board: &Board,
        ) -> u64 {
            let Some(at) = (0..filled.len()).find(|&i| !filled[i]) else {
                return 1;
            };
            let (r, c) = ((at / board.cols) as i64, (at % board.cols) as i64);
            let mut total = 0;
            for k in 0..shapes.len() {
                if used[k] {
                    continue;
                }
                for shape in &shapes[k] {
                    let (ar, ac) = shape[0];
                    let cells: Vec<(i64, i64)> = shape
                        .iter()
                        .map(|&(dr, dc)| (r + dr - ar, c + dc - ac))
                        .collect();
                    let fits = cells.iter().all(|&(y, x)| {
                        board.is_cell(y, x) && !filled[y as usize * board.cols + x as usize]
                    });
                    if !fits {
                        continue;
                    }
                    for &(y, x) in &cells {
                        filled[y as usize * board.cols + x as usize] = true;
                    }
                    used[k] = true;
                    total += go(shapes, used, filled, board);
                    used[k] = false;
                    for &(y, x) in &cells {
                        filled[y as usize * board.cols + x as usize] = false;
                    }
                }
            }
            total
        }
        let shapes: Vec<_> = pieces.iter().map(Piece::orientations).collect();
        let mut filled: Vec<bool> = (0..board.rows * board.cols)
            .map(|i| !board.is_cell((i / board.cols) as i64, (i % board.cols) as i64))
            .collect();
        go(&shapes, &mut vec![false; pieces.len()], &mut filled, board)
    }

    #[test]
    fn orientation_counts() {
        let n: Vec<usize> = pentominoes()
            .iter()
            .map(|p| p.orientations().len())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(n, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert!(pentominoes().iter().all(|p| p.cells.len() == 5));
    }

    #[test]
    fn pentominoes_on_3x20() {
        let t = Tiling::pentominoes(Board::named("3x20").unwrap()).unwrap();
        assert_eq!(solve_count(t.problem(), &Budget::unlimited()), 8);
        let s = crate::engine::run::Dance::new(t.problem()).first().unwrap();
        let picture = t.decode(&s);
        for p in pentominoes() {
            assert_eq!(picture.matches(&p.name).count(), 5, "{picture}");
        }
    }

    #[test]
    fn small_piece_sets_agree_with_a_brute_force() {
        let trominoes = || {
            vec![
                Piece::drawn("I", "###"),
                Piece::drawn("L", "##/#."),
                Piece::drawn("J", "##/.#"),
                Piece::drawn("O", "##/##"),
            ]
        };
        let boards = [
            Board::parse("....\n....\n.....\n").unwrap(),
            Board::parse(".....\n.....\n...\n").unwrap(),
            Board::parse("...#\n....\n....\n#..\n").unwrap(),
            Board::parse(".....\n.#...\n....\n").unwrap(),
        ];
        let mut nonzero = 0;
        for board in boards {
            let pieces = trominoes();
            let expected = brute_force(&pieces, &board);
            let t = Tiling::new(pieces, board).unwrap();
            assert_eq!(solve_count(t.problem(), &Budget::unlimited()), expected);
            nonzero += u64::from(expected > 0);
        }
        assert!(nonzero >= 2, "the boards should have tilings");
        assert!(Tiling::new(trominoes(), Board::rectangle(3, 4).unwrap()).is_err());
    }

    #[test]
    fn board_pictures() {
        let b = Board::parse("..#\n.\n\n").unwrap();
        assert_eq!((b.rows(), b.cols(), b.cell_count()), (2, 3, 3));
        let e = Board::parse("..\n.x.\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "2:2: 'x' in a board picture (use '.' for a cell, '#' for a hole)"
        );
        assert!(Board::parse("##\n").is_err());
        assert!(Board::named("6x").is_err());
        assert_eq!(Board::named("8x8-minus-centre").unwrap().cell_count(), 60);
        assert!(Tiling::pentominoes(Board::named("6x6").unwrap()).is_err());
    }
}
