//! Target sudoku (NOIP 2009, Luogu P1074): of all the solutions of a 9×9
//! sudoku, the one with the highest score, found by branch and bound on the
//! exact-cover engine.
//!
//! - `grid`: the grid, its cell weights (rings around the centre) and
//!   [`score`];
//! - `parse`: the input format ([`Puzzles`], [`ParseError`]) and
//!   [`format_grid`];
//! - `model`: the exact-cover model ([`TargetModel`]) and the
//!   [`TargetPropagator`] that branches on the cells that set the score;
//! - `search`: the branch and bound and its bounds ([`Bound`]; the default
//!   rests on the ring identity: every full grid scores [`RING_BASE`] +
//!   its centre + its corners + its 16 ring-2 cells).
//!
//! This module knows no file, thread or output: `cover target` reads the
//! files and prints the answers.

mod grid;
mod model;
mod parse;
mod search;

pub use grid::{box_of, random_grid, score, weight, Grid, CELLS, SIDE};
pub use model::{TargetAnswer, TargetModel, TargetPropagator, DEFAULT_RULES};
pub use parse::{format_grid, InputError, ParseError, ParseErrorKind, Puzzles, TargetPuzzle};
pub use search::{Best, Bound, RING_BASE};
