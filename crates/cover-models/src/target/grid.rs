//! The 9×9 grid of target sudoku and its score: cell weights form rings
//! around the centre, 6 on the outer ring, then 7, 8, 9, and 10 for the
//! centre cell ([`weight`]); a grid scores the sum over its cells of
//! weight × digit ([`score`]). It also draws random full grids
//! ([`random_grid`]), for tests and benchmarks. It knows no input format
//! and no search.

use rand::seq::SliceRandom;
use rand::Rng;

/// Rows, columns, boxes and digits of the grid.
pub const SIDE: usize = 9;
/// Cells of the grid.
pub const CELLS: usize = SIDE * SIDE;
/// Rows, columns and boxes: the lines whose digits are all different.
pub(super) const LINES: usize = 3 * SIDE;

/// A grid, row by row: `grid[9 * row + column]`, 0 for an empty cell.
pub type Grid = [u8; CELLS];

/// The weight of `cell` (`9 * row + column`): 10 in the centre, one less
/// for each ring outwards, 6 on the border.
pub const fn weight(cell: usize) -> u32 {
    let (row, column) = (cell / SIDE, cell % SIDE);
    let ring = if row.abs_diff(4) > column.abs_diff(4) {
        row.abs_diff(4)
    } else {
        column.abs_diff(4)
    };
    10 - ring as u32
}

/// The score of `grid`: the sum of weight × digit over its cells (empty
/// cells add nothing).
pub fn score(grid: &Grid) -> u32 {
    grid.iter()
        .enumerate()
        .map(|(cell, &digit)| weight(cell) * u32::from(digit))
        .sum()
}

/// The box (0..9, row by row) of `cell`.
pub const fn box_of(cell: usize) -> usize {
    crate::sudoku::logic::box_of(3, cell / SIDE, cell % SIDE)
}

/// A random full grid: cells in order, each trying the digits in a
/// random order, backtracking on a dead end.
pub fn random_grid<R: Rng + ?Sized>(rng: &mut R) -> Grid {
    let mut grid = [0u8; CELLS];
    // used[line]: the digits placed in each row, column and box, as bits.
    let mut used = [0u16; LINES];
    let lines = |cell: usize| [cell / SIDE, SIDE + cell % SIDE, 2 * SIDE + box_of(cell)];
    // tries[cell]: the cell's digits in the order tried, and how many were.
    let mut tries = [([0u8; SIDE], 0usize); CELLS];
    let mut cell = 0;
    tries[0].0 = shuffled_digits(rng);
    while cell < CELLS {
        let (order, next) = &mut tries[cell];
        if grid[cell] != 0 {
            for line in lines(cell) {
                used[line] &= !(1 << grid[cell]);
            }
            grid[cell] = 0;
        }
        let fitting = order[*next..]
            .iter()
            .position(|&d| lines(cell).iter().all(|&line| used[line] & 1 << d == 0));
        match fitting {
            Some(k) => {
                let digit = order[*next + k];
                *next += k + 1;
                grid[cell] = digit;
                for line in lines(cell) {
                    used[line] |= 1 << digit;
                }
                cell += 1;
                if cell < CELLS {
                    tries[cell] = (shuffled_digits(rng), 0);
                }
            }
            None => cell -= 1,
        }
    }
    grid
}

fn shuffled_digits<R: Rng + ?Sized>(rng: &mut R) -> [u8; SIDE] {
    let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    digits.shuffle(rng);
    digits
}

/// The centre cell.
pub(super) const CENTRE: usize = 40;

/// Whether `cell` is one of the four corners of the grid.
pub(super) const fn is_corner(cell: usize) -> bool {
    (cell / SIDE).is_multiple_of(8) && (cell % SIDE).is_multiple_of(8)
}

/// The 21 cells whose digits make the score of a full grid beyond 2745:
/// the centre, the four corners and the 16 cells of ring 2 (weight 8).
pub(super) const SCORING_CELLS: [usize; 21] = scoring_cells();

const fn scoring_cells() -> [usize; 21] {
    let mut cells = [0; 21];
    let mut k = 0;
    let mut cell = 0;
    while cell < CELLS {
        if cell == CENTRE || is_corner(cell) || weight(cell) == 8 {
            cells[k] = cell;
            k += 1;
        }
        cell += 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_form_rings() {
        let rings: Vec<usize> = (6..=10)
            .map(|w| (0..CELLS).filter(|&c| weight(c) == w).count())
            .collect();
        assert_eq!(rings, [32, 24, 16, 8, 1]);
        assert_eq!(weight(0), 6);
        assert_eq!(weight(CENTRE), 10);
        assert_eq!(weight(SIDE + 1), 7);
        assert_eq!(weight(3 * SIDE + 5), 9);
        assert!((0..CELLS).filter(|&c| is_corner(c)).eq([0, 8, 72, 80]));
    }
}
