//! Aligned exclusion: two or three cells that see each other's removals.

use super::board::Board;
use super::step::Step;

/// Aligned Pair Exclusion (6.2).
pub(super) fn aligned_pair_exclusion(_board: &Board, _out: &mut Vec<Step>) {}

/// Aligned Triple Exclusion (7.5).
pub(super) fn aligned_triple_exclusion(_board: &Board, _out: &mut Vec<Step>) {}
