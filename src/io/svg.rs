//! The SVG pictures: boards in a grid, each with a label above it, squares either chequered or
//! shaded by weight (with the weight written in), and the queens as circles ([`SvgBoards`]);
//! heat maps ([`heatmap`]); and what the models decode to (a room above this one): a grid of
//! labelled cells with its regions outlined ([`cell_grid`]: a sudoku, a tiling) and a perfect
//! matching ([`matching`]). Every picture has a `viewBox`, so it scales.
//!
//! The size of the picture comes first, so the caller says how many boards there are before
//! drawing them: [`MAX_BOARDS`] is the most one picture may hold.

use std::io::{self, Write};

/// The most boards one picture holds (1,000 8×8 boards are already about 1 MB of SVG).
pub const MAX_BOARDS: u64 = 1000;

/// How boards are drawn.
#[derive(Copy, Clone, Debug)]
pub struct Style {
    /// The side of a square, in pixels.
    pub cell: usize,
    /// Boards per row of the grid.
    pub per_row: usize,
}

/// Small chequered boards, 8 to a row (`queens list`).
pub const LIST_STYLE: Style = Style {
    cell: 12,
    per_row: 8,
};

/// Big boards with their weights, one to a row (`queens max`).
pub const WEIGHTS_STYLE: Style = Style {
    cell: 40,
    per_row: 1,
};

const GAP: usize = 16;
const LABEL: usize = 18;

/// A picture of `count` boards of side `n`, being written.
pub struct SvgBoards {
    n: usize,
    style: Style,
}

impl SvgBoards {
    /// Writes the picture's opening tag, sized for `count` boards.
    pub fn start(out: &mut impl Write, n: usize, count: usize, style: Style) -> io::Result<Self> {
        let board = n * style.cell;
        let cols = count.clamp(1, style.per_row);
        let rows = count.div_ceil(style.per_row).max(1);
        let w = GAP + cols * (board + GAP);
        let h = GAP + rows * (board + LABEL + GAP);
        let font = if style.cell >= 24 { 12 } else { 11 };
        open_svg(out, w, h, font)?;
        Ok(SvgBoards { n, style })
    }

    /// Draws board `index` (0-based place in the grid) with its label; `weights` (n×n, row by
    /// row) shade the squares and are written in them, otherwise the squares are chequered;
    /// `queens` are the files of the queens, rank 0 first.
    pub fn board(
        &self,
        out: &mut impl Write,
        index: usize,
        label: &str,
        weights: Option<&[i64]>,
        queens: Option<&[u32]>,
    ) -> io::Result<()> {
        let n = self.n;
        let cell = self.style.cell;
        let board = n * cell;
        let x0 = GAP + (index % self.style.per_row) * (board + GAP);
        let y0 = GAP + (index / self.style.per_row) * (board + LABEL + GAP);
        writeln!(out, "<g transform=\"translate({x0},{y0})\">")?;
        writeln!(out, "<text x=\"0\" y=\"12\">{}</text>", escape(label))?;
        let (lo, hi) = match weights {
            Some(w) => (
                w.iter().copied().min().unwrap_or(0) as i128,
                w.iter().copied().max().unwrap_or(0) as i128,
            ),
            None => (0, 0),
        };
        for r in 0..n {
            for c in 0..n {
                let (x, y) = (c * cell, LABEL + r * cell);
                match weights {
                    Some(ws) => {
                        let w = ws[r * n + c] as i128;
                        let t = if hi > lo {
                            (w - lo) * 200 / (hi - lo)
                        } else {
                            0
                        };
                        let g = 245 - t as i64;
                        let fg = if g < 120 { "white" } else { "black" };
                        write!(
                            out,
                            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" \
                             fill=\"rgb({g},{g},{g})\" stroke=\"#888\"/>\
                             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{fg}\">{w}</text>",
                            x + cell / 2,
                            y + cell / 2 + 4
                        )?;
                    }
                    None => {
                        let fill = if (r + c) % 2 == 0 {
                            "#f0d9b5"
                        } else {
                            "#b58863"
                        };
                        write!(
                            out,
                            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" \
                             fill=\"{fill}\"/>"
                        )?;
                    }
                }
            }
            writeln!(out)?;
        }
        for (r, &c) in queens.unwrap_or(&[]).iter().enumerate() {
            let (cx, cy) = (c as usize * cell + cell / 2, LABEL + r * cell + cell / 2);
            if weights.is_some() {
                writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"red\" \
                     stroke-width=\"3\"/>",
                    cell / 2 - 3
                )?;
            } else {
                writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"black\"/>",
                    cell / 3
                )?;
            }
        }
        writeln!(out, "</g>")
    }

    /// Closes the picture.
    pub fn finish(self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "</svg>")
    }
}

/// The colour of the heat-map scale at `t` in `[0, 1]`: from a pale cream (0) to a dark red
/// (1), through orange.
fn heat_colour(t: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 3] = [
        (255.0, 247.0, 236.0),
        (253.0, 141.0, 60.0),
        (127.0, 0.0, 0.0),
    ];
    let t = t.clamp(0.0, 1.0) * 2.0;
    let k = (t as usize).min(1);
    let u = t - k as f64;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The title of a weighted board's picture (`queens max --format svg`, and the Python
/// package's pictures of its results): the board's number, the best score and the status
/// word, and, when the score is not proven, the bound proven (a picture of a result cut short
/// says how far off it may be): `board 1: 25438 (feasible, bound 26471)`, `board 2: 607
/// (optimal)`, `board 3: none (below-floor)`.
pub fn weighted_title(
    board: usize,
    value: Option<i128>,
    status: &str,
    bound: Option<i128>,
) -> String {
    let open = bound.filter(|&b| Some(b) != value && status != "below-floor");
    match (value, open) {
        (Some(v), Some(b)) => format!("board {board}: {v} ({status}, bound {b})"),
        (Some(v), None) => format!("board {board}: {v} ({status})"),
        (None, Some(b)) => format!("board {board}: none ({status}, bound {b})"),
        (None, None) if status == "below-floor" => format!("board {board}: none ({status})"),
        (None, None) => format!("board {board}: none"),
    }
}

/// One heat map: the n×n board with each square coloured by its count (`counts`, rank-major)
/// on a scale from the smallest count to the largest, the count written in the square when it
/// fits, the ranks and files numbered, and a legend (the colour scale with its minimum and
/// maximum) below. `title` is written above the board.
pub fn heatmap(out: &mut impl Write, n: usize, counts: &[u128], title: &str) -> io::Result<()> {
    let cell = if n <= 12 {
        44
    } else if n <= 20 {
        32
    } else {
        22
    };
    let board = n * cell;
    let margin = 28;
    let legend_h = 56;
    let w = (margin + board + GAP).max(360);
    let h = GAP + LABEL + margin + board + GAP + legend_h;
    let lo = counts.iter().copied().min().unwrap_or(0);
    let hi = counts.iter().copied().max().unwrap_or(0);
    let scale = |c: u128| {
        if hi > lo {
            (c - lo) as f64 / (hi - lo) as f64
        } else {
            0.0
        }
    };
    let mut digits = itoa::Buffer::new();
    let widest = digits.format(hi).len();
    // Counts are written in when about 7 px per digit fit.
    let font = ((cell as f64 * 0.9 / widest as f64 / 0.62).floor() as usize).min(12);
    open_svg(out, w, h, 11)?;
    writeln!(
        out,
        "<text x=\"{GAP}\" y=\"{}\">{}</text>",
        GAP + 12,
        escape(title)
    )?;
    let (x0, y0) = (GAP + margin, GAP + LABEL + margin);
    writeln!(
        out,
        "<g class=\"board\" transform=\"translate({x0},{y0})\">"
    )?;
    for i in 0..n {
        let mid = i * cell + cell / 2;
        write!(
            out,
            "<text x=\"{mid}\" y=\"-6\" text-anchor=\"middle\">{i}</text>\
             <text x=\"-6\" y=\"{}\" text-anchor=\"end\">{i}</text>",
            mid + 4
        )?;
    }
    writeln!(out)?;
    for r in 0..n {
        for f in 0..n {
            let c = counts[r * n + f];
            let t = scale(c);
            let (red, green, blue) = heat_colour(t);
            let (x, y) = (f * cell, r * cell);
            write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" \
                 fill=\"rgb({red},{green},{blue})\" stroke=\"#999\" stroke-width=\"0.5\">\
                 <title>rank {r}, file {f}: {c}</title></rect>"
            )?;
            if font >= 7 {
                let fg = if t > 0.6 { "white" } else { "black" };
                write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{font}\" \
                     fill=\"{fg}\">{c}</text>",
                    x + cell / 2,
                    y + cell / 2 + font / 3
                )?;
            }
        }
        writeln!(out)?;
    }
    writeln!(out, "</g>")?;
    // The legend: the colour scale from the minimum to the maximum.
    let (lx, ly, lw) = (GAP, y0 + board + GAP, w - 2 * GAP);
    writeln!(
        out,
        "<g class=\"legend\" transform=\"translate({lx},{ly})\">"
    )?;
    writeln!(
        out,
        "<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">"
    )?;
    for k in 0..=10 {
        let (red, green, blue) = heat_colour(k as f64 / 10.0);
        writeln!(
            out,
            "<stop offset=\"{}%\" stop-color=\"rgb({red},{green},{blue})\"/>",
            k * 10
        )?;
    }
    writeln!(out, "</linearGradient></defs>")?;
    writeln!(
        out,
        "<text x=\"0\" y=\"10\">solutions with a queen on the square</text>\
         <rect x=\"0\" y=\"16\" width=\"{lw}\" height=\"14\" fill=\"url(#heat)\" \
         stroke=\"#999\"/>\
         <text x=\"0\" y=\"44\">min {lo}</text>\
         <text x=\"{lw}\" y=\"44\" text-anchor=\"end\">max {hi}</text>"
    )?;
    writeln!(out, "</g>")?;
    writeln!(out, "</svg>")
}

/// The heat map of `xcover queens heatmap --format svg`: [`heatmap`] titled with the board and
/// the number of solutions (or, with `unique`, of fundamental solutions) the counts are of.
pub fn queens_heatmap(
    out: &mut impl Write,
    n: usize,
    counts: &[u128],
    total: u128,
    unique: bool,
) -> io::Result<()> {
    let what = if unique {
        "fundamental solutions"
    } else {
        "solutions"
    };
    let title = format!("{n}-queens: where the queens stand ({total} {what})");
    heatmap(out, n, counts, &title)
}

/// Heat maps side by side, one panel per label, each `rows × cols` counts (row-major; `None`:
/// no cell there) coloured on one scale from 0 to `total` (a count's share of the
/// solutions), with the count in the square when it fits and in its tooltip, the label above
/// each panel, `title` above all and the scale below (`legend` says what a count is).
pub fn heat_panels(
    out: &mut impl Write,
    rows: usize,
    cols: usize,
    panels: &[(String, Vec<Option<u128>>)],
    total: u128,
    title: &str,
    legend: &str,
) -> io::Result<()> {
    let side = rows.max(cols);
    let cell = if side <= 8 {
        36
    } else if side <= 20 {
        22
    } else {
        12
    };
    let per_row = (960 / (cols * cell + GAP)).clamp(1, panels.len().max(1));
    let (pw, ph) = (cols * cell + GAP, LABEL + rows * cell + GAP);
    let lines = panels.len().div_ceil(per_row).max(1);
    let legend_h = 56;
    let w = (GAP + per_row * pw).max(360);
    let h = GAP + LABEL + lines * ph + legend_h;
    let mut digits = itoa::Buffer::new();
    let widest = digits.format(total).len();
    let font = ((cell as f64 * 0.9 / widest as f64 / 0.62).floor() as usize).min(12);
    open_svg(out, w, h, 11)?;
    writeln!(
        out,
        "<text x=\"{GAP}\" y=\"{}\">{}</text>",
        GAP + 12,
        escape(title)
    )?;
    for (i, (label, counts)) in panels.iter().enumerate() {
        let x0 = GAP + (i % per_row) * pw;
        let y0 = GAP + LABEL + (i / per_row) * ph;
        writeln!(
            out,
            "<g class=\"panel\" transform=\"translate({x0},{y0})\">\
             <text x=\"0\" y=\"12\">{}</text>",
            escape(label)
        )?;
        for (k, c) in counts.iter().enumerate() {
            let Some(c) = *c else { continue };
            let t = if total > 0 {
                c as f64 / total as f64
            } else {
                0.0
            };
            let (red, green, blue) = heat_colour(t);
            let (x, y) = ((k % cols) * cell, LABEL + (k / cols) * cell);
            write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" \
                 fill=\"rgb({red},{green},{blue})\" stroke=\"#999\" stroke-width=\"0.5\">\
                 <title>row {}, column {}: {c}</title></rect>",
                k / cols,
                k % cols
            )?;
            if font >= 7 {
                let fg = if t > 0.6 { "white" } else { "black" };
                write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{font}\" \
                     fill=\"{fg}\">{c}</text>",
                    x + cell / 2,
                    y + cell / 2 + font / 3
                )?;
            }
        }
        writeln!(out, "</g>")?;
    }
    let (lx, ly, lw) = (GAP, GAP + LABEL + lines * ph, w - 2 * GAP);
    writeln!(
        out,
        "<g class=\"legend\" transform=\"translate({lx},{ly})\">"
    )?;
    writeln!(
        out,
        "<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">"
    )?;
    for k in 0..=10 {
        let (red, green, blue) = heat_colour(k as f64 / 10.0);
        writeln!(
            out,
            "<stop offset=\"{}%\" stop-color=\"rgb({red},{green},{blue})\"/>",
            k * 10
        )?;
    }
    writeln!(out, "</linearGradient></defs>")?;
    writeln!(
        out,
        "<text x=\"0\" y=\"10\">{}</text>\
         <rect x=\"0\" y=\"16\" width=\"{lw}\" height=\"14\" fill=\"url(#heat)\" \
         stroke=\"#999\"/>\
         <text x=\"0\" y=\"44\">0</text>\
         <text x=\"{lw}\" y=\"44\" text-anchor=\"end\">{total}</text>",
        escape(legend)
    )?;
    writeln!(out, "</g>")?;
    writeln!(out, "</svg>")
}

/// One cell of a [`CellGrid`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// What is written in the cell (empty: nothing).
    pub text: String,
    /// The region the cell belongs to (a piece of a tiling, a box of a sudoku): thick lines
    /// run between cells of different regions, and a coloured grid fills each region with the
    /// colour of its number.
    pub region: usize,
    /// Written in bold black (a sudoku's clues); otherwise in blue on a white grid.
    pub strong: bool,
}

/// A grid of cells, row by row: a model's solution as [`cell_grid`] draws it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellGrid {
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub cols: usize,
    /// `rows × cols` cells, row-major; `None` is a hole (nothing drawn).
    pub cells: Vec<Option<Cell>>,
    /// Whether regions are filled with colours (tilings) or left white (sudoku).
    pub coloured: bool,
}

/// The fill colours of the regions of a coloured [`CellGrid`] (ColorBrewer's Set3): region k
/// has colour `k % 12`.
const REGION_COLOURS: [&str; 12] = [
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
];

/// A grid of cells (see [`CellGrid`]) with `title` above it: each cell a square with its text,
/// thick lines around each region and along the edge of the board (holes included), thin ones
/// within a region.
pub fn cell_grid(out: &mut impl Write, grid: &CellGrid, title: &str) -> io::Result<()> {
    let (rows, cols) = (grid.rows, grid.cols);
    assert_eq!(
        grid.cells.len(),
        rows * cols,
        "a CellGrid has rows × cols cells"
    );
    let side = rows.max(cols);
    let cell = if side <= 12 {
        36
    } else if side <= 30 {
        24
    } else {
        12
    };
    let font = cell * 11 / 20;
    // Wide enough for the title too (about 7 px a character at 12 px).
    let w = (GAP + cols * cell + GAP).max(2 * GAP + 7 * title.chars().count());
    let h = GAP + LABEL + rows * cell + GAP;
    open_svg(out, w, h, font)?;
    writeln!(
        out,
        "<text x=\"{GAP}\" y=\"{}\" font-size=\"12\">{}</text>",
        GAP + 12,
        escape(title)
    )?;
    writeln!(out, "<g transform=\"translate({GAP},{})\">", GAP + LABEL)?;
    let at = |r: usize, c: usize| grid.cells[r * cols + c].as_ref();
    for r in 0..rows {
        for c in 0..cols {
            let Some(x) = at(r, c) else { continue };
            let fill = if grid.coloured {
                REGION_COLOURS[x.region % REGION_COLOURS.len()]
            } else {
                "white"
            };
            write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" \
                 stroke=\"#bbb\"/>",
                c * cell,
                r * cell
            )?;
            if !x.text.is_empty() {
                let style = if x.strong {
                    " font-weight=\"bold\" fill=\"black\""
                } else if grid.coloured {
                    " fill=\"black\""
                } else {
                    " fill=\"#2458b3\""
                };
                write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\"{style}>{}</text>",
                    c * cell + cell / 2,
                    r * cell + cell / 2 + font * 7 / 20,
                    escape(&x.text)
                )?;
            }
        }
        writeln!(out)?;
    }
    // The outlines: a cell draws its top and left sides where the neighbour there is of
    // another region, a hole or off the board, and its bottom and right sides where the
    // neighbour is a hole or off the board (another region's cell draws those itself).
    let mut path = String::new();
    let region = |r: usize, c: usize| at(r, c).map(|x| x.region);
    for r in 0..rows {
        for c in 0..cols {
            let Some(me) = region(r, c) else { continue };
            let (x, y) = (c * cell, r * cell);
            if r == 0 || region(r - 1, c) != Some(me) {
                path.push_str(&format!("M{x} {y}h{cell}"));
            }
            if c == 0 || region(r, c - 1) != Some(me) {
                path.push_str(&format!("M{x} {y}v{cell}"));
            }
            if r + 1 == rows || region(r + 1, c).is_none() {
                path.push_str(&format!("M{x} {}h{cell}", y + cell));
            }
            if c + 1 == cols || region(r, c + 1).is_none() {
                path.push_str(&format!("M{} {y}v{cell}", x + cell));
            }
        }
    }
    writeln!(
        out,
        "<path d=\"{path}\" fill=\"none\" stroke=\"black\" stroke-width=\"2.5\" \
         stroke-linecap=\"square\"/>"
    )?;
    writeln!(out, "</g>")?;
    writeln!(out, "</svg>")
}

/// A perfect matching of the complete graph on the vertices `1..=n`: the vertices on a circle,
/// numbered, and the `edges` (pairs of vertices) as lines, with `title` above.
pub fn matching(
    out: &mut impl Write,
    n: usize,
    edges: &[(usize, usize)],
    title: &str,
) -> io::Result<()> {
    let radius = (12.0 * n as f64).clamp(60.0, 300.0);
    let size = (2.0 * radius) as usize + 2 * 30;
    let (w, h) = (
        size.max(2 * GAP + 7 * title.chars().count()),
        GAP + LABEL + size,
    );
    let centre = (w as f64 / 2.0, (GAP + LABEL) as f64 + size as f64 / 2.0);
    let point = |v: usize| {
        let a = std::f64::consts::TAU * (v as f64 - 1.0) / n.max(1) as f64
            - std::f64::consts::FRAC_PI_2;
        (centre.0 + radius * a.cos(), centre.1 + radius * a.sin())
    };
    open_svg(out, w, h, 11)?;
    writeln!(
        out,
        "<text x=\"{GAP}\" y=\"{}\" font-size=\"12\">{}</text>",
        GAP + 12,
        escape(title)
    )?;
    for &(i, j) in edges {
        let ((x1, y1), (x2, y2)) = (point(i), point(j));
        writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" \
             stroke=\"#c0392b\" stroke-width=\"2\"/>"
        )?;
    }
    for v in 1..=n {
        let (x, y) = point(v);
        writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"9\" fill=\"white\" stroke=\"black\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"9\">{v}</text>",
            y + 3.0
        )?;
    }
    writeln!(out, "</svg>")
}

/// Escapes text for an SVG text node.
/// The opening tag of every picture: its size, a `viewBox` so that it scales, the font and a
/// white background.
fn open_svg(out: &mut impl Write, w: usize, h: usize, font: usize) -> io::Result<()> {
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"{font}\" \
         style=\"background:white\">"
    )
}

fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['<', '>', '&']) {
        return s.into();
    }
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_has_a_viewbox_and_the_boards() {
        let mut v = Vec::new();
        let svg = SvgBoards::start(&mut v, 4, 2, LIST_STYLE).unwrap();
        svg.board(&mut v, 0, "#1", None, Some(&[1, 3, 0, 2]))
            .unwrap();
        svg.board(&mut v, 1, "#2", Some(&[1; 16]), Some(&[2, 0, 3, 1]))
            .unwrap();
        svg.finish(&mut v).unwrap();
        let s = String::from_utf8(v).unwrap();
        assert!(s.starts_with("<svg ") && s.contains("viewBox=\"0 0 "));
        assert_eq!(s.matches("<circle ").count(), 8);
        assert_eq!(s.matches("<rect ").count(), 32);
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn heatmap_has_every_square_and_a_legend() {
        let mut v = Vec::new();
        let counts: Vec<u128> = (0..25).collect();
        heatmap(&mut v, 5, &counts, "5 <queens>").unwrap();
        let s = String::from_utf8(v).unwrap();
        assert!(s.starts_with("<svg ") && s.contains("viewBox=\"0 0 "));
        assert_eq!(s.matches("<rect ").count(), 25 + 1);
        assert!(s.contains("class=\"legend\"") && s.contains("min 0") && s.contains("max 24"));
        assert!(s.contains("5 &lt;queens&gt;"));
        assert_eq!(heat_colour(0.0), (255, 247, 236));
        assert_eq!(heat_colour(1.0), (127, 0, 0));
    }

    #[test]
    fn cell_grid_outlines_regions_and_skips_holes() {
        // Two regions side by side on a 2×3 board with a hole: "AAB" over "A#B".
        let cell = |t: &str, region| {
            Some(Cell {
                text: t.into(),
                region,
                strong: t == "A",
            })
        };
        let grid = CellGrid {
            rows: 2,
            cols: 3,
            cells: vec![
                cell("A", 0),
                cell("A", 0),
                cell("B", 1),
                cell("A", 0),
                None,
                cell("B", 1),
            ],
            coloured: true,
        };
        let mut v = Vec::new();
        cell_grid(&mut v, &grid, "a <tiling>").unwrap();
        let s = String::from_utf8(v).unwrap();
        assert!(s.starts_with("<svg ") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<rect ").count(), 5);
        assert_eq!(s.matches("font-weight=\"bold\"").count(), 3);
        assert!(s.contains("a &lt;tiling&gt;") && s.contains(REGION_COLOURS[1]));
    }

    #[test]
    fn matching_draws_every_vertex_and_edge() {
        let mut v = Vec::new();
        matching(&mut v, 4, &[(1, 3), (2, 4)], "K4").unwrap();
        let s = String::from_utf8(v).unwrap();
        assert_eq!(s.matches("<circle ").count(), 4);
        assert_eq!(s.matches("<line ").count(), 2);
    }
}
