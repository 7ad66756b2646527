//! The vocabulary of every chain: candidates numbered `cell·side + digit −
//! 1`, sets of them as bitsets, and the direct links between candidates on
//! a grid of candidate masks (a cell's other digits, a digit's other places
//! in a unit) that the propagations follow.

use std::time::Instant;

use crate::sudoku::logic::{Geometry, UnitKind};

/// A set of candidates (or of any small numbers) as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// The empty set of numbers below `len`.
    pub(super) fn new(len: usize) -> Bits {
        Bits {
            words: vec![0; len.div_ceil(64)],
        }
    }

    #[inline]
    pub(super) fn has(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub(super) fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub(super) fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Keeps only the members of `other`.
    pub(super) fn keep(&mut self, other: &Bits) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= o;
        }
    }

    /// How many numbers the set can hold (a multiple of 64).
    pub(super) fn len(&self) -> usize {
        self.words.len() * 64
    }

    pub(super) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// Candidate `cand` of a grid of side `side`: its cell.
#[inline]
pub(super) fn cell_of(cand: u32, side: usize) -> usize {
    cand as usize / side
}

/// Candidate `cand` of a grid of side `side`: its digit.
#[inline]
pub(super) fn digit_of(cand: u32, side: usize) -> u8 {
    (cand as usize % side) as u8 + 1
}

/// The number of `digit` in `cell`.
#[inline]
pub(super) fn cand_of(cell: usize, digit: u8, side: usize) -> u32 {
    (cell * side + usize::from(digit) - 1) as u32
}

/// What every propagation on one board shares: the board's masks and
/// digit places per unit, and each cell's units (box, row, column: the
/// order Sudoku Explainer follows links in, which decides the parent a
/// node keeps) with its slot in each.
#[derive(Debug, Clone)]
pub(super) struct Context<'g> {
    pub(super) geometry: &'g Geometry,
    pub(super) side: usize,
    /// The grid before any assumption.
    pub(super) source: Grid,
    units: Vec<[u16; 3]>,
    slots: Vec<[u8; 3]>,
    /// When the searches on this grid (and those nested in it) stop,
    /// finding nothing more: a rating's time limit.
    pub(super) deadline: Option<Instant>,
}

/// Whether the chains run on `geometry`: a classic grid, or a variant
/// whose boxes (or jigsaw pieces) tile the grid, so that every cell has a
/// row, a column and a box.
pub(super) fn chains_apply(geometry: &Geometry) -> bool {
    geometry.is_classic()
        || (0..geometry.units())
            .filter(|&u| geometry.unit_kind(u) == UnitKind::Box)
            .count()
            == geometry.side()
}

/// The row, column and box of `cell` that the chains link along. On a
/// variant ([`chains_apply`]) its other units (diagonals, windows) are left
/// out: fewer links, never a wrong one, and the weak links through peers
/// still see them.
fn chain_units(geometry: &Geometry, cell: usize) -> [usize; 3] {
    if geometry.is_classic() {
        return geometry.cell_units(cell);
    }
    let units = geometry.units_of(cell);
    let piece = units
        .iter()
        .map(|&u| usize::from(u))
        .find(|&u| geometry.unit_kind(u) == UnitKind::Box)
        .expect("chains_apply: every cell has a box");
    [usize::from(units[0]), usize::from(units[1]), piece]
}

/// A grid of candidates: masks per cell and, per unit and digit, the
/// slots where the digit still goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Grid {
    pub(super) masks: Vec<u64>,
    places: Vec<u64>,
}

impl Grid {
    /// Becomes a copy of `other` (of the same size), keeping the storage.
    pub(super) fn copy_from(&mut self, other: &Grid) {
        self.masks.copy_from_slice(&other.masks);
        self.places.copy_from_slice(&other.places);
    }
}

impl<'g> Context<'g> {
    pub(super) fn new(
        geometry: &'g Geometry,
        masks: &[u64],
        deadline: Option<Instant>,
    ) -> Context<'g> {
        let side = geometry.side();
        let mut units = vec![[0u16; 3]; masks.len()];
        let mut slots = vec![[0u8; 3]; masks.len()];
        let mut places = vec![0u64; geometry.units() * side];
        for cell in 0..masks.len() {
            let [row, column, bx] = chain_units(geometry, cell);
            for (k, unit) in [bx, row, column].into_iter().enumerate() {
                let slot = geometry
                    .unit_cells(unit)
                    .iter()
                    .position(|&c| usize::from(c) == cell)
                    .expect("a cell is in its units");
                units[cell][k] = unit as u16;
                slots[cell][k] = slot as u8;
                let mut digits = masks[cell];
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    places[unit * side + d] |= 1 << slot;
                }
            }
        }
        Context {
            geometry,
            side,
            source: Grid {
                masks: masks.to_vec(),
                places,
            },
            units,
            slots,
            deadline,
        }
    }

    /// Whether the deadline has passed: a search then stops (what it
    /// found so far is still sound, but may not be the easiest).
    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The units of `cell`: box, row, column.
    #[inline]
    pub(super) fn units_of(&self, cell: usize) -> [usize; 3] {
        self.units[cell].map(usize::from)
    }

    #[inline]
    fn unit_cell(&self, unit: usize, slot: u32) -> usize {
        usize::from(self.geometry.unit_cells(unit)[slot as usize])
    }

    /// Takes `cand` out of `grid`.
    pub(super) fn remove(&self, grid: &mut Grid, cand: u32) {
        let cell = cell_of(cand, self.side);
        let d = cand as usize % self.side;
        grid.masks[cell] &= !(1 << d);
        for k in 0..3 {
            let unit = usize::from(self.units[cell][k]);
            grid.places[unit * self.side + d] &= !(1 << self.slots[cell][k]);
        }
    }

    /// The candidates that `cand` being true turns off on `grid`: with
    /// `cell_links`, the cell's other digits; then its digit's other places
    /// in its box, row and column (each cell once).
    pub(super) fn on_to_off(&self, grid: &Grid, cand: u32, cell_links: bool, out: &mut Vec<u32>) {
        let side = self.side;
        let cell = cell_of(cand, side);
        let d = cand as usize % side;
        if cell_links {
            let mut others = grid.masks[cell] & !(1 << d);
            while others != 0 {
                let o = others.trailing_zeros() as usize;
                others &= others - 1;
                out.push((cell * side + o) as u32);
            }
        }
        let bx = self.units[cell][0];
        for k in 0..3 {
            let unit = usize::from(self.units[cell][k]);
            let mut places = grid.places[unit * side + d] & !(1 << self.slots[cell][k]);
            while places != 0 {
                let slot = places.trailing_zeros();
                places &= places - 1;
                let other = self.unit_cell(unit, slot);
                // The row and the column skip the cells the box gave already.
                if k > 0 && self.units[other][0] == bx {
                    continue;
                }
                out.push((other * side + d) as u32);
            }
        }
    }

    /// The candidates that `cand` being false turns on on `grid` (where it
    /// is still present): with `cell_links`, the other digit of a cell left
    /// with two; with `unit_links`, the other place of its digit in a unit
    /// left with two.
    pub(super) fn off_to_on(
        &self,
        grid: &Grid,
        cand: u32,
        cell_links: bool,
        unit_links: bool,
        out: &mut Vec<(u32, Reason)>,
    ) {
        let side = self.side;
        let cell = cell_of(cand, side);
        let d = cand as usize % side;
        let mask = grid.masks[cell];
        if cell_links && mask.count_ones() == 2 {
            let other = mask & !(1 << d);
            if other != 0 {
                out.push(((cell * side) as u32 + other.trailing_zeros(), Reason::Cell));
            }
        }
        if unit_links {
            for k in 0..3 {
                let unit = usize::from(self.units[cell][k]);
                let places = grid.places[unit * side + d] & !(1 << self.slots[cell][k]);
                if places.count_ones() == 1 {
                    let other = self.unit_cell(unit, places.trailing_zeros());
                    out.push(((other * side + d) as u32, Reason::Unit(unit)));
                }
            }
        }
    }

    /// The candidates already taken out of `grid` that a dynamic "on" by
    /// `reason` also rests on: the cell's removed digits, or the digit's
    /// removed places in the unit; `except` (the link's own parent) left
    /// out.
    pub(super) fn hidden_parents(
        &self,
        grid: &Grid,
        on: u32,
        reason: Reason,
        except: u32,
        out: &mut Vec<u32>,
    ) {
        let side = self.side;
        let cell = cell_of(on, side);
        let d = on as usize % side;
        match reason {
            Reason::Cell => {
                let mut gone = self.source.masks[cell] & !grid.masks[cell];
                while gone != 0 {
                    let o = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    let c = (cell * side + o) as u32;
                    if c != except {
                        out.push(c);
                    }
                }
            }
            Reason::Unit(unit) => {
                let at = unit * side + d;
                let mut gone = self.source.places[at] & !grid.places[at];
                while gone != 0 {
                    let slot = gone.trailing_zeros();
                    gone &= gone - 1;
                    let c = (self.unit_cell(unit, slot) * side + d) as u32;
                    if c != except {
                        out.push(c);
                    }
                }
            }
        }
    }
}

/// Why a candidate turns on: the last digit of its cell, or the last place
/// of its digit in a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reason {
    Cell,
    Unit(usize),
}
