//! Uniqueness: patterns that would give a puzzle two solutions (unique
//! rectangles and loops, the bivalue universal grave), so on a puzzle with
//! one solution some candidate keeps them from forming.

use super::board::Board;
use super::step::Step;

/// Unique Rectangles and Loops, types 1 to 4 (4.5 up).
pub(super) fn unique_loops(_board: &Board, _out: &mut Vec<Step>) {}

/// BUG, types 1 to 4 (5.6 up).
pub(super) fn bug(_board: &Board, _out: &mut Vec<Step>) {}
