//! Candidate masks: digit `d` of a cell is bit `d - 1` of a `u64`, so one
//! word holds a cell of any size; the candidates a puzzle's givens leave.

use super::geometry::Geometry;

/// The bits of the digits `1..=side`.
pub(super) fn full_mask(side: usize) -> u64 {
    if side >= 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

/// The bit of `digit` (`1..=64`).
pub(super) fn bit(digit: u8) -> u64 {
    1u64 << (digit - 1)
}

/// The indices of the set bits of a mask, lowest first.
#[derive(Clone, Copy)]
pub(super) struct Bits(pub(super) u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

/// The digits (`1..=64`) of a mask, lowest first.
#[cfg(test)]
pub(super) fn digits_of(mask: u64) -> Vec<u8> {
    Bits(mask).map(|b| b as u8 + 1).collect()
}

/// Whether a mask has exactly one bit.
#[inline]
pub(super) fn is_single(mask: u64) -> bool {
    mask != 0 && mask & (mask - 1) == 0
}

/// The candidates of a puzzle: for each empty cell the digits that no
/// given among its peers holds; 0 for given cells. A digit outside `1..=s`
/// makes its cell a given that rules nothing out.
///
/// # Panics
/// If `cells` does not have one entry per cell.
pub fn candidates(geometry: &Geometry, cells: &[u8]) -> Vec<u64> {
    let s = geometry.side;
    assert_eq!(cells.len(), s * s, "one entry per cell");
    let full = full_mask(s);
    if !geometry.is_classic() {
        let mut cands: Vec<u64> = cells
            .iter()
            .map(|&d| if d == 0 { full } else { 0 })
            .collect();
        for (cell, &d) in cells.iter().enumerate() {
            if d != 0 && usize::from(d) <= s {
                for &peer in geometry.peers(cell) {
                    cands[usize::from(peer)] &= !bit(d);
                }
            }
        }
        return cands;
    }
    let mut seen = vec![0u64; geometry.units()];
    for (cell, &d) in cells.iter().enumerate() {
        if d != 0 && usize::from(d) <= s {
            for u in geometry.cell_units(cell) {
                seen[u] |= bit(d);
            }
        }
    }
    cells
        .iter()
        .enumerate()
        .map(|(cell, &d)| {
            if d != 0 {
                0
            } else {
                let [r, c, b] = geometry.cell_units(cell);
                full & !(seen[r] | seen[c] | seen[b])
            }
        })
        .collect()
}
