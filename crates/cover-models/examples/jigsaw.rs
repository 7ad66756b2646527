//! A jigsaw sudoku through the rules model: irregular pieces in place of
//! the boxes, given as the piece of each cell. The same [`Rules`] take
//! diagonals, extra regions, killer cages, thermometers, anti-knight and
//! the rest (`Rules::with_*`), and [`VariantSolver`] solves them all as
//! exact cover.
//!
//! Run with `cargo run --release -p cover-models --example jigsaw`.

use cover_models::sudoku::variant::{Rules, VariantSolver};
use dlx_core::Limits;

/// The piece of each cell, row by row: the boxes, with r1c4 moved to the
/// first piece and r3c3 to the second.
const PIECES: &str = "
    111122333
    111222333
    112222333
    444555666
    444555666
    444555666
    777888999
    777888999
    777888999";

/// The givens, row by row (`.` for empty).
const PUZZLE: &str =
    "....5.7.98......5..6....1....28..9....9.1.........7....3...4.......315....5.6.23.";

/// The piece numbers and the givens as digits.
fn read() -> (Vec<usize>, Vec<u8>) {
    let pieces = PIECES
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .collect();
    let givens = PUZZLE
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u8)
        .collect();
    (pieces, givens)
}

/// The solutions of the puzzle, up to two (enough to know it is unique).
fn solve() -> (Vec<u8>, u64) {
    let (pieces, givens) = read();
    let rules = Rules::jigsaw(9, &pieces).expect("nine connected pieces of nine cells");
    let mut solver = VariantSolver::new(&rules, &givens).expect("givens within the rules");
    let count = solver.count(&Limits::solutions(2)).stats.solutions;
    let grid = solver.first().expect("the puzzle has a solution");
    (grid, count)
}

fn main() {
    let (grid, count) = solve();
    for row in grid.chunks(9) {
        println!("{}", row.iter().map(|d| d.to_string()).collect::<String>());
    }
    println!("{}", if count == 1 { "unique" } else { "not unique" });
}

#[cfg(test)]
mod tests {
    use cover_check::variant::{check_variant_solution, VariantRules};

    use super::*;

    #[test]
    fn the_jigsaw_has_one_solution_that_keeps_every_rule() {
        let (grid, count) = solve();
        assert_eq!(count, 1);
        // Rows, columns and the pieces, spelled out for the checker.
        let (pieces, givens) = read();
        let mut rules = VariantRules::classic(9, 0, 0);
        for piece in 1..=9 {
            let cells = (0..81).filter(|&c| pieces[c] == piece).collect();
            rules.regions.push(cells);
        }
        assert_eq!(check_variant_solution(&rules, &givens, &grid), Ok(()));
    }
}
