//! Sudoku logic on candidate masks: constraint propagation for a search.
//! (Step-by-step logic for people, rated, is [`human`](super::human).)
//!
//! Every size from 4×4 to 64×64 is handled the same way. Cells are
//! row-major (`r·s + c` for side `s`), digits are `1..=s`, and a candidate
//! mask holds digit `d` in bit `d - 1`, so one `u64` covers a cell of any
//! size.
//!
//! - [`Geometry`] (`geometry`): the units of a grid (rows, columns, boxes
//!   of one classic size, or any variant's regions of `side` cells), each
//!   cell's units and peers, their names; the box formula ([`box_of`]).
//! - [`Propagation::propagate`]: runs a chosen set of [`Rules`] to a
//!   fixpoint on the masks of a search state, reporting each removal; a
//!   solved cell has mask 0 there, and a digit already placed in a unit
//!   has no candidate left in it.
//! - `rules`: what each rule finds in a unit.
//!
//! Every rule is sound (it never removes a candidate some solution uses)
//! and monotone (whatever it concludes from some masks it still concludes
//! from fewer), so the fixpoint does not depend on the order rules fire in.

mod geometry;
mod masks;
mod propagation;
mod rules;
#[cfg(test)]
mod tests;

pub use geometry::{box_of, Geometry, GeometryError, UnitKind};
pub use masks::candidates;
pub use propagation::{Propagation, Rules};
pub use rules::Dead;
