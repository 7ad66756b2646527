//! The grid a technique looks at: each cell's value (0 when empty) and its
//! candidate mask (digit `d` in bit `d - 1`, 0 once the cell is filled),
//! and the queries every technique asks of units and peers.

use std::time::Instant;

use crate::sudoku::logic::{candidates, Geometry};

use super::step::Step;

/// Values and candidates of one grid of any size.
#[derive(Debug, Clone)]
pub struct Board<'g> {
    geometry: &'g Geometry,
    values: Vec<u8>,
    candidates: Vec<u64>,
    deadline: Option<Instant>,
}

impl<'g> Board<'g> {
    /// The board of a puzzle: `cells` row-major, 0 empty, digits `1..=side`;
    /// each empty cell's candidates are the digits its peers' givens leave.
    ///
    /// # Panics
    /// If `cells` does not have one entry per cell of `geometry`.
    pub fn new(geometry: &'g Geometry, cells: &[u8]) -> Board<'g> {
        let candidates = candidates(geometry, cells);
        Board {
            geometry,
            values: cells.to_vec(),
            candidates,
            deadline: None,
        }
    }

    /// A board with its candidates as given (pencil marks): `values` 0 for
    /// empty, `candidates` the marks of each empty cell (ignored on filled
    /// ones).
    ///
    /// # Panics
    /// If either slice does not have one entry per cell.
    pub fn with_candidates(geometry: &'g Geometry, values: &[u8], candidates: &[u64]) -> Board<'g> {
        let n = geometry.side() * geometry.side();
        assert!(
            values.len() == n && candidates.len() == n,
            "one entry per cell"
        );
        let candidates = values
            .iter()
            .zip(candidates)
            .map(|(&v, &c)| if v == 0 { c } else { 0 })
            .collect();
        Board {
            geometry,
            values: values.to_vec(),
            candidates,
            deadline: None,
        }
    }

    /// Makes the costly techniques (chains) stop searching once `deadline`
    /// has passed: they then find less, never anything unsound, and the
    /// caller should not trust that a step found after it is the easiest.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The deadline [`Board::set_deadline`] set.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The geometry (units, names) of the grid.
    pub fn geometry(&self) -> &'g Geometry {
        self.geometry
    }

    /// Cells per unit, and digits.
    pub fn side(&self) -> usize {
        self.geometry.side()
    }

    /// The value of `cell`, 0 when empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// Every cell's value, row-major, 0 when empty.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The candidate mask of `cell` (0 when filled).
    #[inline]
    pub fn candidates(&self, cell: usize) -> u64 {
        self.candidates[cell]
    }

    /// Every cell's candidate mask.
    pub fn all_candidates(&self) -> &[u64] {
        &self.candidates
    }

    /// Whether `digit` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] >> (digit - 1) & 1 == 1
    }

    /// Where `digit` can go in `unit`: bit `i` for the unit's `i`th cell
    /// ([`Geometry::unit_cells`]).
    #[inline]
    pub fn positions(&self, unit: usize, digit: u8) -> u64 {
        let bit = 1u64 << (digit - 1);
        let mut mask = 0;
        for (i, &cell) in self.geometry.unit_cells(unit).iter().enumerate() {
            if self.candidates[usize::from(cell)] & bit != 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The digits placed in `unit`.
    pub fn placed_in(&self, unit: usize) -> u64 {
        self.geometry
            .unit_cells(unit)
            .iter()
            .map(|&c| match self.values[usize::from(c)] {
                0 => 0,
                d => 1u64 << (d - 1),
            })
            .fold(0, |a, b| a | b)
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// Whether the board is broken: an empty cell without candidates, or a
    /// digit neither placed nor possible in some unit.
    pub fn is_broken(&self) -> bool {
        let s = self.side();
        if (0..s * s).any(|c| self.values[c] == 0 && self.candidates[c] == 0) {
            return true;
        }
        let full = if s >= 64 { u64::MAX } else { (1u64 << s) - 1 };
        (0..self.geometry.units()).any(|u| {
            let seen = self
                .geometry
                .unit_cells(u)
                .iter()
                .map(|&c| {
                    let c = usize::from(c);
                    self.candidates[c]
                        | if self.values[c] == 0 {
                            0
                        } else {
                            1 << (self.values[c] - 1)
                        }
                })
                .fold(0, |a, b| a | b);
            seen != full
        })
    }

    /// Places `digit` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        let bit = 1u64 << (digit - 1);
        for &peer in self.geometry.peers(cell) {
            self.candidates[usize::from(peer)] &= !bit;
        }
    }

    /// Removes `digit` from the candidates of `cell`; whether it was there.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        let had = self.candidates[cell] & bit != 0;
        self.candidates[cell] &= !bit;
        had
    }

    /// Applies a step: its placements, then its eliminations.
    pub fn apply(&mut self, step: &Step) {
        for p in &step.placements {
            self.place(usize::from(p.cell), p.digit);
        }
        for e in &step.eliminations {
            self.eliminate(usize::from(e.cell), e.digit);
        }
    }
}
