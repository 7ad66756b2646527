//! `--pretty` for variant puzzles: the grid drawn for people, with the
//! borders of its boxes or jigsaw pieces, killer cages labelled, and the
//! other rules in words under it.
//!
//! Cells are three characters wide; a `|` or a run of `-` stands between
//! two cells of different pieces (thick), a space between cells of the
//! same piece (thin), as the classic `--pretty` draws boxes. A cell of a
//! cage carries the cage's letter after its digit (`5a`); the sums are
//! listed under the grid. This module owns only the drawing; which
//! regions are boxes or pieces, and the rules' fields, come from
//! [`variant_line`].

use std::fmt::Write as _;

use cover_models::sudoku::variant::Rules;
use cover_models::sudoku::variant_line;

/// The letters of cages, in order (past them, they repeat).
const CAGE_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The widest line of words under the grid before it wraps.
const LEGEND_WIDTH: usize = 72;

/// Appends `grid` (digits, 0 for an empty cell, drawn `.`) under `rules`,
/// then the rules the drawing does not show, a line each.
pub fn draw(out: &mut String, rules: &Rules, grid: &[u8]) {
    let side = rules.side();
    let pieces = variant_line::pieces(rules);
    let piece = |r: usize, c: usize| pieces.as_ref().map_or(0, |p| p[r * side + c]);
    let mut label: Vec<Option<u8>> = vec![None; rules.cells()];
    for (k, cage) in rules.cages().iter().enumerate() {
        for &cell in &cage.cells {
            label[cell].get_or_insert(CAGE_LETTERS[k % CAGE_LETTERS.len()]);
        }
    }
    // A thick border left of cell (r, c) (c may be `side`: the right edge).
    let wall = |r: usize, c: usize| c == 0 || c == side || piece(r, c - 1) != piece(r, c);
    // A thick border above cell (r, c) (r may be `side`: the bottom edge).
    let floor = |r: usize, c: usize| r == 0 || r == side || piece(r - 1, c) != piece(r, c);
    for r in 0..=side {
        if (0..side).any(|c| floor(r, c)) {
            for c in 0..=side {
                let up = r > 0 && wall(r - 1, c);
                let down = r < side && wall(r, c);
                let left = c > 0 && floor(r, c - 1);
                let right = c < side && floor(r, c);
                out.push(match (up || down, left || right) {
                    (true, true) => '+',
                    (true, false) => '|',
                    (false, true) => '-',
                    (false, false) => ' ',
                });
                if c < side {
                    out.push_str(if floor(r, c) { "---" } else { "   " });
                }
            }
            out.push('\n');
        }
        if r == side {
            break;
        }
        for c in 0..side {
            out.push(if wall(r, c) { '|' } else { ' ' });
            let cell = r * side + c;
            if rules.is_cell(cell) {
                out.push(' ');
                out.push(variant_line::symbol(grid[cell]));
                out.push(label[cell].map_or(' ', char::from));
            } else {
                // Outside the grids of overlapping grids: nothing to draw.
                out.push_str("   ");
            }
        }
        out.push_str("|\n");
    }
    for line in legend(rules) {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The rules the borders do not show, in words, a line or a few each.
fn legend(rules: &Rules) -> Vec<String> {
    let side = rules.side();
    let mut lines = Vec::new();
    let mut cages = Vec::new();
    for field in variant_line::fields(rules) {
        let (name, value) = field.split_once('=').unwrap_or((field.as_str(), ""));
        let cells = || value.split(',').collect::<Vec<_>>().join(" ");
        match name {
            "latin" => lines.push("latin: no boxes, rows and columns only".to_owned()),
            "x" => lines.push("x: both main diagonals hold no digit twice".to_owned()),
            "windoku" => lines.push(
                "windoku: the windows r2-4c2-4, r2-4c6-8, r6-8c2-4 and r6-8c6-8 hold no digit twice"
                    .to_owned(),
            ),
            "region" => {
                let mut named: Vec<&str> = value.split(',').collect();
                named.sort_unstable();
                let line = if named == diagonal(side, false) {
                    "diagonal: r1c1 to the bottom right holds no digit twice".to_owned()
                } else if named == diagonal(side, true) {
                    format!("diagonal: r1c{side} to the bottom left holds no digit twice")
                } else {
                    format!("region: {} hold no digit twice", cells())
                };
                lines.push(line);
            }
            "thermo" => lines.push(format!(
                "thermometer: {}",
                value.split(',').collect::<Vec<_>>().join(" < ")
            )),
            "anti-knight" => {
                lines.push("anti-knight: cells a knight's move apart differ".to_owned())
            }
            "anti-king" => lines.push("anti-king: cells a king's move apart differ".to_owned()),
            "non-consecutive" => lines.push(
                "non-consecutive: side-by-side neighbours hold no consecutive digits".to_owned(),
            ),
            "cage" => {
                let letter = CAGE_LETTERS[cages.len() % CAGE_LETTERS.len()] as char;
                let sum = value.split_once(':').map_or("", |(sum, _)| sum);
                cages.push(if sum.is_empty() {
                    format!("{letter} (no sum)")
                } else {
                    format!("{letter}={sum}")
                });
            }
            // Boxes and jigsaw pieces are drawn.
            _ => {}
        }
    }
    if !cages.is_empty() {
        let mut line = String::from("cages (digits differ, sum as given):");
        for cage in cages {
            if line.len() + cage.len() + 1 > LEGEND_WIDTH {
                lines.push(std::mem::take(&mut line));
                line.push(' ');
            }
            let _ = write!(line, " {cage}");
        }
        lines.push(line);
    }
    lines
}

/// The names of a main diagonal's cells (`anti`: top right to bottom
/// left), sorted as strings, to compare with a region's.
fn diagonal(side: usize, anti: bool) -> Vec<String> {
    let mut names: Vec<String> = (0..side)
        .map(|r| {
            let c = if anti { side - 1 - r } else { r };
            format!("r{}c{}", r + 1, c + 1)
        })
        .collect();
    names.sort_unstable();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_draw_as_the_classic_pretty_form() {
        let rules = Rules::classic(4);
        let grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut out = String::new();
        draw(&mut out, &rules, &grid);
        assert_eq!(
            out,
            "+-------+-------+\n\
             | 1   2 | 3   4 |\n\
             | 3   4 | 1   2 |\n\
             +-------+-------+\n\
             | 2   1 | 4   3 |\n\
             | 4   3 | 2   1 |\n\
             +-------+-------+\n"
        );
    }

    #[test]
    fn jigsaw_borders_cages_and_rules_in_words() {
        let layout = [0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3];
        let rules = Rules::jigsaw(4, &layout)
            .unwrap()
            .with_cage(&[0, 1], Some(3))
            .unwrap()
            .with_cage(&[15], None)
            .unwrap()
            .with_anti_king();
        let mut out = String::new();
        draw(&mut out, &rules, &[0; 16]);
        assert_eq!(
            out,
            "+-------+-------+\n\
             | .a  .a| .   . |\n\
             |   +---+       |\n\
             | . | . | .   . |\n\
             |   |   +-------+\n\
             | . | . | .   . |\n\
             +---+   |       |\n\
             | .   . | .   .b|\n\
             +-------+-------+\n\
             anti-king: cells a king's move apart differ\n\
             cages (digits differ, sum as given): a=3 b (no sum)\n"
        );
    }
}
