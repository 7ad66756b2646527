//! # cover-models: puzzles and formats as exact-cover problems
//!
//! This crate turns inputs into [`dlx_core::Problem`]s and solutions back into
//! answers. It owns parsers and puzzle models; it never prints, never picks an
//! exit code and never touches the links (that is `dlx-core`'s job).
//!
//! # Example
//! ```
//! use cover_models::sudoku::{self, Engine, Puzzle, Solver};
//!
//! // One puzzle in one call (any n²×n² size; `.` or `0` for an empty cell).
//! let text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let solved = sudoku::solve(text).unwrap().expect("the puzzle has a solution");
//! assert!(solved.starts_with("534678912"));
//!
//! // Many puzzles: one solver, kept (`Puzzles` reads them from a reader).
//! let puzzle: Puzzle = text.parse().unwrap();
//! let mut solver = Solver::new(Engine::Auto);
//! let (solution, _report) = solver.first(&puzzle);
//! let grid = solution.expect("the puzzle has a solution");
//! assert_eq!(&grid[..9], &[5, 3, 4, 6, 7, 8, 9, 1, 2]);
//! // Unique: counting up to two finds one.
//! assert_eq!(solver.count(&puzzle, Some(2)).stats.solutions, 1);
//! ```
#![deny(missing_docs)]

pub mod exact;
pub mod generate;
pub mod queens;
pub mod radar;
pub mod sudoku;
pub mod target;
pub mod text;
