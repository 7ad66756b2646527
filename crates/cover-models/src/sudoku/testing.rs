//! Helpers of the sudoku engines' tests: random puzzles of any box side,
//! a checker of solutions that trusts no engine, and a 9×9 search's
//! solutions collected.

use dlx_core::{Control, Limits, Outcome};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::RngExt;

use super::{BitStats, NineSolver};

/// A 9×9 line of digits and `.` as cells (0 for empty).
pub(crate) fn cells(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

/// The solutions (in order) and the outcome and statistics of a search.
pub(crate) fn run(
    solver: &mut NineSolver,
    puzzle: &[u8],
    limits: &Limits,
) -> (Vec<Vec<u8>>, Outcome, BitStats) {
    let mut found = Vec::new();
    let (outcome, stats) = solver.search(puzzle, limits, |grid| {
        found.push(grid.to_vec());
        Control::Continue
    });
    (found, outcome, stats)
}

/// `0..n²` in a random order that keeps bands (or stacks) together: the
/// bands shuffled, and the rows (or columns) within each.
pub(crate) fn band_order(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..n).collect();
    bands.shuffle(rng);
    let mut out = Vec::new();
    for b in bands {
        let mut within: Vec<usize> = (0..n).collect();
        within.shuffle(rng);
        out.extend(within.iter().map(|&i| b * n + i));
    }
    out
}

/// Whether `grid` is a full valid grid of box side `n` that keeps
/// `puzzle`'s givens (checked here, trusting no engine).
pub(crate) fn is_solution_of(n: usize, puzzle: &[u8], grid: &[u8]) -> bool {
    let s = n * n;
    let units = (0..s).flat_map(|u| {
        [
            (0..s).map(|i| u * s + i).collect::<Vec<_>>(),
            (0..s).map(|i| i * s + u).collect(),
            (0..s)
                .map(|i| (u / n * n + i / n) * s + u % n * n + i % n)
                .collect(),
        ]
    });
    grid.len() == s * s
        && puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
        && units.into_iter().all(|unit| {
            let mut seen = vec![false; s + 1];
            unit.iter().all(|&c| {
                let g = usize::from(grid[c]);
                (1..=s).contains(&g) && !std::mem::replace(&mut seen[g], true)
            })
        })
}

/// A random puzzle of box side `n`: a valid grid (the pattern
/// `(n·(r mod n) + r div n + c) mod s`, with its digits, rows within
/// bands, bands, columns within stacks and stacks shuffled), each cell
/// kept with probability `keep`/100, and sometimes a random digit
/// written over a cell (which may leave no solution, or clash).
pub(crate) fn random_puzzle(rng: &mut ChaCha8Rng, n: usize, keep: u32) -> Vec<u8> {
    let s = n * n;
    let mut digits: Vec<u8> = (1..=s as u8).collect();
    digits.shuffle(rng);
    let (rows, cols) = (band_order(rng, n), band_order(rng, n));
    let mut puzzle = Vec::with_capacity(s * s);
    for &r in &rows {
        for &c in &cols {
            let digit = digits[(n * (r % n) + r / n + c) % s];
            puzzle.push(if rng.random_range(0..100) < keep {
                digit
            } else {
                0
            });
        }
    }
    if rng.random_range(0..4) == 0 {
        puzzle[rng.random_range(0..s * s)] = rng.random_range(1..=s as u8);
    }
    puzzle
}
