//! The vocabulary of every chain: candidates numbered `cell·side + digit −
//! 1`, sets of them as bitsets, and the direct links between candidates on
//! a grid of candidate masks (a cell's other digits, a digit's other places
//! in a unit) that the propagations follow.

use crate::sudoku::logic::Geometry;

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

/// The units of `cell` in the order Sudoku Explainer follows links: box,
/// row, column (the order decides which parent a node keeps).
#[inline]
pub(super) fn link_units(geometry: &Geometry, cell: usize) -> [usize; 3] {
    let [row, column, bx] = geometry.cell_units(cell);
    [bx, row, column]
}

/// Why a candidate turns on: the last digit of its cell, or the last place
/// of its digit in a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reason {
    Cell,
    Unit(usize),
}

/// The candidates that `cand` being true turns off on `masks`: with
/// `cell_links`, the cell's other digits; then its digit's other places in
/// its box, row and column (each cell once).
pub(super) fn on_to_off(
    geometry: &Geometry,
    masks: &[u64],
    cand: u32,
    cell_links: bool,
    out: &mut Vec<u32>,
) {
    let side = geometry.side();
    let cell = cell_of(cand, side);
    let digit = digit_of(cand, side);
    if cell_links {
        let mut others = masks[cell] & !(1 << (digit - 1));
        while others != 0 {
            let d = others.trailing_zeros() as u8 + 1;
            others &= others - 1;
            out.push(cand_of(cell, d, side));
        }
    }
    let bit = 1u64 << (digit - 1);
    let units = link_units(geometry, cell);
    let bx = units[0];
    for (k, &unit) in units.iter().enumerate() {
        for &other in geometry.unit_cells(unit) {
            let other = usize::from(other);
            // The row and the column skip the cells the box gave already.
            if other == cell || masks[other] & bit == 0 {
                continue;
            }
            if k > 0 && geometry.cell_units(other)[2] == bx {
                continue;
            }
            out.push(cand_of(other, digit, side));
        }
    }
}

/// The candidates that `cand` being false turns on on `masks` (where it is
/// still present): with `cell_links`, the other digit of a cell left with
/// two; with `unit_links`, the other place of its digit in a unit left
/// with two.
pub(super) fn off_to_on(
    geometry: &Geometry,
    masks: &[u64],
    cand: u32,
    cell_links: bool,
    unit_links: bool,
    out: &mut Vec<(u32, Reason)>,
) {
    let side = geometry.side();
    let cell = cell_of(cand, side);
    let digit = digit_of(cand, side);
    if cell_links && masks[cell].count_ones() == 2 {
        let other = masks[cell] & !(1 << (digit - 1));
        if other != 0 {
            let d = other.trailing_zeros() as u8 + 1;
            out.push((cand_of(cell, d, side), Reason::Cell));
        }
    }
    if unit_links {
        let bit = 1u64 << (digit - 1);
        for unit in link_units(geometry, cell) {
            let mut only = None;
            let mut count = 0;
            for &other in geometry.unit_cells(unit) {
                let other = usize::from(other);
                if other != cell && masks[other] & bit != 0 {
                    count += 1;
                    only = Some(other);
                }
            }
            if let (1, Some(other)) = (count, only) {
                out.push((cand_of(other, digit, side), Reason::Unit(unit)));
            }
        }
    }
}

/// The candidates already taken off (in `source`, not in `masks`) that a
/// dynamic "on" by `reason` also rests on: the cell's removed digits, or
/// the digit's removed places in the unit; `except` (the link's own
/// parent) left out.
pub(super) fn hidden_parents(
    geometry: &Geometry,
    source: &[u64],
    masks: &[u64],
    on: u32,
    reason: Reason,
    except: u32,
    out: &mut Vec<u32>,
) {
    let side = geometry.side();
    let cell = cell_of(on, side);
    let digit = digit_of(on, side);
    match reason {
        Reason::Cell => {
            let mut gone = source[cell] & !masks[cell];
            while gone != 0 {
                let d = gone.trailing_zeros() as u8 + 1;
                gone &= gone - 1;
                let c = cand_of(cell, d, side);
                if c != except {
                    out.push(c);
                }
            }
        }
        Reason::Unit(unit) => {
            let bit = 1u64 << (digit - 1);
            for &other in geometry.unit_cells(unit) {
                let other = usize::from(other);
                if source[other] & bit != 0 && masks[other] & bit == 0 {
                    let c = cand_of(other, digit, side);
                    if c != except {
                        out.push(c);
                    }
                }
            }
        }
    }
}
