//! Intersections: a digit locked in the crossing of a box and a line.
//! Pointing (the box's places lie on one line) and Claiming (the line's
//! places lie in one box) remove it from the rest of the other unit; their
//! direct forms place the hidden single such a removal would leave.
//!
//! On a variant's geometry any two units that cross count: a digit whose
//! places in one unit all lie in another is removed from the rest of that
//! other unit. It is Claiming (2.8) when the first unit is a row or a
//! column, Pointing (2.6) otherwise (a box, jigsaw piece, diagonal or
//! window pointing along whatever it crosses); the direct forms are the
//! classic grid's only.

use super::board::Board;
use super::solver::{bits, units_boxes_columns_rows};
use super::step::{Candidate, Step, Technique};
use crate::sudoku::logic::UnitKind;

/// The passes in Sudoku Explainer's order: (first unit's kind, the crossing
/// unit's kind), kinds as in [`Geometry::cell_units`](crate::sudoku::logic::Geometry::cell_units)
/// (0 row, 1 column, 2 box): box on column, box on row, column on box, row
/// on box.
const PASSES: [(usize, usize); 4] = [(2, 1), (2, 0), (1, 2), (0, 2)];

/// Direct Pointing (1.7) and Direct Claiming (1.9): a locked digit whose
/// removal would leave a hidden single in another unit of the first kind.
/// As in SE, the step only places that single; the removals stay undone.
///
/// On a consistent board a Direct Claiming never comes first: the stack
/// (or band) of its line holds a third box whose digit is then confined
/// to one line, a Direct Pointing (or hidden single) on the same cell,
/// which SE tries before.
pub(super) fn direct_intersections(board: &Board, out: &mut Vec<Step>) {
    scan(board, true, out);
}

/// Pointing (2.6) and Claiming (2.8): the first that removes something.
pub(super) fn pointing_claiming(board: &Board, out: &mut Vec<Step>) {
    if board.geometry().is_classic() {
        scan(board, false, out);
    } else {
        scan_any_units(board, out);
    }
}

/// Pointing and Claiming between any two crossing units of a variant:
/// units in [`units_boxes_columns_rows`] order, digits in order; the first
/// that removes something.
fn scan_any_units(board: &Board, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    for first in units_boxes_columns_rows(geometry) {
        let cells = geometry.unit_cells(first);
        for digit in 1..=board.side() as u8 {
            let positions = board.positions(first, digit);
            if positions.count_ones() < 2 {
                continue;
            }
            let places: Vec<usize> = bits(positions)
                .map(|i| usize::from(cells[i as usize]))
                .collect();
            for &cross in geometry.units_of(places[0]) {
                let cross = usize::from(cross);
                if cross == first || !places.iter().all(|&c| geometry.in_unit(c, cross)) {
                    continue;
                }
                let outside: Vec<usize> = geometry
                    .unit_cells(cross)
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| !geometry.in_unit(c, first) && board.has(c, digit))
                    .collect();
                if outside.is_empty() {
                    continue;
                }
                let line = matches!(geometry.unit_kind(first), UnitKind::Row | UnitKind::Column);
                let mut step = if line {
                    Step::new(Technique::Claiming, 28)
                } else {
                    Step::new(Technique::Pointing, 26)
                };
                step.eliminations = outside.iter().map(|&c| Candidate::new(c, digit)).collect();
                step.pattern.units.extend([first as u16, cross as u16]);
                step.pattern.digits = 1 << (digit - 1);
                for &c in &places {
                    step.pattern.cells.push(c as u16);
                    step.pattern.candidates.push(Candidate::new(c, digit));
                }
                out.push(step);
                return;
            }
        }
    }
}

fn scan(board: &Board, direct: bool, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let side = board.side();
    let kind_of = |cell: usize, kind: usize| geometry.cell_units(cell)[kind];
    for (kind, cross_kind) in PASSES {
        for digit in 1..=side as u8 {
            for first in kind * side..(kind + 1) * side {
                let positions = board.positions(first, digit);
                if positions.count_ones() < 2 {
                    continue;
                }
                let cells = geometry.unit_cells(first);
                let cell_at = |i: u32| usize::from(cells[i as usize]);
                let cross = kind_of(cell_at(positions.trailing_zeros()), cross_kind);
                if !bits(positions).all(|i| kind_of(cell_at(i), cross_kind) == cross) {
                    continue;
                }
                let outside: Vec<usize> = geometry
                    .unit_cells(cross)
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| kind_of(c, kind) != first && board.has(c, digit))
                    .collect();
                if outside.is_empty() {
                    continue;
                }
                let pointing = kind == 2;
                let mut step = if direct {
                    let Some((third, single)) =
                        following_single(board, first, cross, kind, cross_kind, digit)
                    else {
                        continue;
                    };
                    let technique = if pointing {
                        Technique::DirectPointing
                    } else {
                        Technique::DirectClaiming
                    };
                    let mut step = Step::new(technique, if pointing { 17 } else { 19 });
                    step.placements.push(Candidate::new(single, digit));
                    step.pattern
                        .units
                        .extend([first as u16, cross as u16, third as u16]);
                    step
                } else {
                    let technique = if pointing {
                        Technique::Pointing
                    } else {
                        Technique::Claiming
                    };
                    let mut step = Step::new(technique, if pointing { 26 } else { 28 });
                    step.eliminations = outside.iter().map(|&c| Candidate::new(c, digit)).collect();
                    step.pattern.units.extend([first as u16, cross as u16]);
                    step
                };
                step.pattern.digits = 1 << (digit - 1);
                for i in bits(positions) {
                    step.pattern.cells.push(cells[i as usize]);
                    step.pattern
                        .candidates
                        .push(Candidate::new(cell_at(i), digit));
                }
                out.push(step);
                return;
            }
        }
    }
}

/// The first unit of `kind` other than `first` that crosses `cross` and
/// keeps, outside `cross`, exactly one of its two or more places for
/// `digit`: that unit and the single's cell.
fn following_single(
    board: &Board,
    first: usize,
    cross: usize,
    kind: usize,
    cross_kind: usize,
    digit: u8,
) -> Option<(usize, usize)> {
    let geometry = board.geometry();
    let side = board.side();
    // The units of `kind` that `cross` passes through, by their index.
    let mut crossed = 0u64;
    for &cell in geometry.unit_cells(cross) {
        crossed |= 1 << (geometry.cell_units(usize::from(cell))[kind] - kind * side);
    }
    crossed &= !(1 << (first - kind * side));
    bits(crossed).find_map(|i| {
        let third = kind * side + i as usize;
        let positions = board.positions(third, digit);
        if positions.count_ones() < 2 {
            return None;
        }
        let cells = geometry.unit_cells(third);
        let mut left = bits(positions)
            .map(|j| usize::from(cells[j as usize]))
            .filter(|&c| geometry.cell_units(c)[cross_kind] != cross);
        match (left.next(), left.next()) {
            (Some(single), None) => Some((third, single)),
            _ => None,
        }
    })
}
