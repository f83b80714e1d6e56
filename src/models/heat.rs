//! Where each mark of a model's picture stands: a heat map of any model whose text picture
//! is a fixed grid of characters (a tiling, a board of queens, a sudoku, Langford pairs up to
//! 9), from the number of solutions taking each option (the marginals of
//! [`crate::engine::family`]).
//!
//! An option's mark is what it adds to the picture: the cells where the picture of the option
//! alone ([`Model::decode`] of `[option]`) differs from the picture of no option, each with
//! the character written there. A solution's picture is its options' marks laid together, so
//! the number of solutions with character `c` in cell (r, k) is the sum of the marginals of
//! the options whose mark writes `c` there: one panel per character, a count per cell. A
//! model whose single-option pictures change the picture's shape (a matching's list of edges)
//! has no such map.

use crate::engine::OptionId;

use super::Model;

/// The heat maps of one model: a panel per character, each `rows × cols` counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextHeat {
    /// Rows of the picture.
    pub rows: usize,
    /// Columns of the picture (its longest line).
    pub cols: usize,
    /// For each character the options write (in the order of the characters), the number of
    /// solutions with that character in each cell, row-major; `None` where no option writes
    /// it.
    pub panels: Vec<(char, Vec<Option<u128>>)>,
}

fn grid(picture: &str) -> Vec<Vec<char>> {
    picture.lines().map(|l| l.chars().collect()).collect()
}

/// The heat maps of `model` from `marginals` (one count per option), or `None` when its
/// pictures are not a fixed grid.
pub fn text_heat(model: &dyn Model, marginals: &[u128]) -> Option<TextHeat> {
    let blank = grid(&model.decode(&[]));
    let rows = blank.len();
    let cols = blank.iter().map(Vec::len).max().unwrap_or(0);
    if rows == 0 || cols == 0 {
        return None;
    }
    let mut chars: Vec<char> = Vec::new();
    let mut panels: Vec<Vec<Option<u128>>> = Vec::new();
    for (o, &count) in marginals.iter().enumerate() {
        let mark = grid(&model.decode(&[OptionId(o as u32)]));
        if mark.len() != rows || mark.iter().zip(&blank).any(|(a, b)| a.len() != b.len()) {
            return None;
        }
        for (r, (line, base)) in mark.iter().zip(&blank).enumerate() {
            for (k, (&c, &b)) in line.iter().zip(base).enumerate() {
                if c == b {
                    continue;
                }
                let p = match chars.iter().position(|&x| x == c) {
                    Some(p) => p,
                    None => {
                        chars.push(c);
                        panels.push(vec![None; rows * cols]);
                        chars.len() - 1
                    }
                };
                let cell = &mut panels[p][r * cols + k];
                *cell = Some(cell.unwrap_or(0).saturating_add(count));
            }
        }
    }
    let mut panels: Vec<(char, Vec<Option<u128>>)> = chars.into_iter().zip(panels).collect();
    panels.sort_by_key(|p| p.0);
    Some(TextHeat { rows, cols, panels })
}

/// Writes the heat maps of `model` as one SVG picture (a panel per character, on one scale
/// from 0 to `total`, the number of solutions; `crate::io::svg::heat_panels`), or returns
/// false, writing nothing, when its pictures are not a fixed grid.
pub fn write_svg(
    out: &mut impl std::io::Write,
    model: &dyn Model,
    total: u128,
    marginals: &[u128],
) -> std::io::Result<bool> {
    let Some(heat) = text_heat(model, marginals) else {
        return Ok(false);
    };
    let panels: Vec<(String, Vec<Option<u128>>)> = heat
        .panels
        .into_iter()
        .map(|(c, cells)| (c.to_string(), cells))
        .collect();
    let title = format!(
        "{}: where each mark stands ({total} solutions)",
        model.title()
    );
    crate::io::svg::heat_panels(
        out,
        heat.rows,
        heat.cols,
        &panels,
        total,
        &title,
        "solutions with the mark on the cell",
    )?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::family::Family;
    use crate::models::{polyomino, queens::Queens};
    use std::ops::ControlFlow;

    fn marginals(model: &dyn Model) -> (u128, Vec<u128>) {
        let f = Family::build(model.problem(), 1 << 28, &mut || false).unwrap();
        (f.count().unwrap(), f.marginals().unwrap())
    }

    /// Each panel counts, cell by cell, the solutions whose picture has its character there.
    fn check_against_the_pictures(model: &dyn Model) {
        let (total, m) = marginals(model);
        let heat = text_heat(model, &m).expect("a grid picture");
        let mut seen = 0u128;
        let mut counted: Vec<Vec<u128>> = vec![vec![0; heat.rows * heat.cols]; heat.panels.len()];
        crate::models::for_each_solution(
            model.problem(),
            &crate::engine::Budget::unlimited(),
            |s| {
                seen += 1;
                for (r, line) in grid(&model.decode(s)).iter().enumerate() {
                    for (k, &c) in line.iter().enumerate() {
                        if let Some(p) = heat.panels.iter().position(|p| p.0 == c) {
                            counted[p][r * heat.cols + k] += 1;
                        }
                    }
                }
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, total);
        for ((c, panel), want) in heat.panels.iter().zip(&counted) {
            let got: Vec<u128> = panel.iter().map(|x| x.unwrap_or(0)).collect();
            assert_eq!(&got, want, "panel {c:?}");
        }
    }

    #[test]
    fn the_panels_count_the_pictures() {
        check_against_the_pictures(&Queens::new(6).unwrap());
        let board = polyomino::Board::rectangle(3, 20).unwrap();
        check_against_the_pictures(&polyomino::Tiling::pentominoes(board).unwrap());
        check_against_the_pictures(&crate::models::langford::Langford::new(4).unwrap());
    }

    #[test]
    fn queens_have_one_panel_the_heat_map() {
        let q = Queens::new(8).unwrap();
        let (_, m) = marginals(&q);
        let heat = text_heat(&q, &m).unwrap();
        assert_eq!(heat.panels.len(), 1);
        assert_eq!(heat.panels[0].0, 'Q');
        let cells: Vec<u128> = heat.panels[0].1.iter().map(|c| c.unwrap()).collect();
        assert_eq!(cells, crate::queens::heatmap::heatmap(8, false).counts);
    }

    #[test]
    fn a_matching_has_no_grid() {
        let m = crate::models::matchings::Matchings::new(4).unwrap();
        let (_, counts) = marginals(&m);
        assert_eq!(text_heat(&m, &counts), None);
    }
}
