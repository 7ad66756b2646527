//! What the tests of target sudoku share: the samples, reading, and
//! random puzzles cut from random full grids.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::{Grid, InputError, Puzzles, TargetPuzzle, CELLS};

pub(super) const SAMPLE_1: &str = include_str!("../../../../fixtures/target/p1074_sample1.in");
pub(super) const SAMPLE_2: &str = include_str!("../../../../fixtures/target/p1074_sample2.in");

pub(super) fn read_all(text: &str) -> Vec<Result<TargetPuzzle, InputError>> {
    Puzzles::new(text.as_bytes()).collect()
}

pub(super) fn read_one(text: &str) -> TargetPuzzle {
    let mut puzzles = read_all(text);
    assert_eq!(puzzles.len(), 1);
    puzzles.remove(0).unwrap()
}

/// A random full grid: cells in order, digits in a random order,
/// backtracking on a dead end.
pub(super) fn random_full_grid(rng: &mut ChaCha8Rng) -> Grid {
    fn fill(grid: &mut Grid, cell: usize, rng: &mut ChaCha8Rng) -> bool {
        if cell == CELLS {
            return true;
        }
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        for digit in digits {
            grid[cell] = digit;
            let clash = TargetPuzzle {
                cells: *grid,
                line: 0,
            }
            .givens_clash();
            if !clash && fill(grid, cell + 1, rng) {
                return true;
            }
        }
        grid[cell] = 0;
        false
    }
    let mut grid = [0; CELLS];
    assert!(fill(&mut grid, 0, rng));
    grid
}

/// `grid` with only `keep` of its cells, chosen at random.
pub(super) fn random_puzzle(rng: &mut ChaCha8Rng, keep: usize) -> TargetPuzzle {
    let grid = random_full_grid(rng);
    let mut cells: Vec<usize> = (0..CELLS).collect();
    cells.shuffle(rng);
    let mut puzzle = [0; CELLS];
    for &cell in &cells[..keep] {
        puzzle[cell] = grid[cell];
    }
    TargetPuzzle {
        cells: puzzle,
        line: 1,
    }
}
