//! Naked and hidden subsets: `n` cells of a unit holding only `n` digits
//! (naked), or `n` digits of a unit confined to `n` cells (hidden), for
//! pairs, triples and quads; and the direct hidden pair and triple, which
//! place the hidden single a hidden set's removals would leave.

use super::board::Board;
use super::solver::{bits, subsets, units_boxes_columns_rows};
use super::step::{Candidate, Step, Technique};

/// Naked Pair (3.0).
pub(super) fn naked_pairs(board: &Board, out: &mut Vec<Step>) {
    naked_sets(board, 2, out);
}

/// Naked Triple (3.6).
pub(super) fn naked_triples(board: &Board, out: &mut Vec<Step>) {
    naked_sets(board, 3, out);
}

/// Naked Quad (5.0).
pub(super) fn naked_quads(board: &Board, out: &mut Vec<Step>) {
    naked_sets(board, 4, out);
}

/// Hidden Pair (3.4).
pub(super) fn hidden_pairs(board: &Board, out: &mut Vec<Step>) {
    hidden_sets(board, 2, false, out);
}

/// Hidden Triple (4.0).
pub(super) fn hidden_triples(board: &Board, out: &mut Vec<Step>) {
    hidden_sets(board, 3, false, out);
}

/// Hidden Quad (5.4).
pub(super) fn hidden_quads(board: &Board, out: &mut Vec<Step>) {
    hidden_sets(board, 4, false, out);
}

/// Direct Hidden Pair (2.0).
pub(super) fn direct_hidden_pairs(board: &Board, out: &mut Vec<Step>) {
    hidden_sets(board, 2, true, out);
}

/// Direct Hidden Triple (2.5).
pub(super) fn direct_hidden_triples(board: &Board, out: &mut Vec<Step>) {
    hidden_sets(board, 3, true, out);
}

/// The first naked set of `degree` cells that removes something, units
/// scanned boxes, columns, rows; cell sets in SE's order (increasing
/// masks). Each cell of the set holds two or more candidates, as in SE.
fn naked_sets(board: &Board, degree: usize, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    for unit in units_boxes_columns_rows(geometry) {
        let cells = geometry.unit_cells(unit);
        let mut empty = 0;
        let mut small = 0u64;
        for (i, &cell) in cells.iter().enumerate() {
            let cell = usize::from(cell);
            let count = board.candidates(cell).count_ones() as usize;
            empty += usize::from(board.value(cell) == 0);
            if (2..=degree).contains(&count) {
                small |= 1 << i;
            }
        }
        if empty < 2 * degree {
            continue;
        }
        for set in subsets(small, degree) {
            let digits = bits(set)
                .map(|i| board.candidates(usize::from(cells[i as usize])))
                .fold(0, |a, b| a | b);
            if digits.count_ones() as usize != degree {
                continue;
            }
            let eliminations: Vec<Candidate> = cells
                .iter()
                .enumerate()
                .filter(|&(i, _)| set >> i & 1 == 0)
                .flat_map(|(_, &c)| {
                    let c = usize::from(c);
                    bits(board.candidates(c) & digits).map(move |b| Candidate::new(c, b as u8 + 1))
                })
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let (technique, rating) = match degree {
                2 => (Technique::NakedPair, 30),
                3 => (Technique::NakedTriple, 36),
                _ => (Technique::NakedQuad, 50),
            };
            let mut step = Step::new(technique, rating);
            step.eliminations = eliminations;
            fill_pattern(&mut step, board, unit, set, digits);
            out.push(step);
            return;
        }
    }
}

/// The first hidden set of `degree` digits, units scanned boxes, columns,
/// rows, digit sets in increasing masks; each digit has two or more places,
/// as in SE. Plain: the set must remove something, and SE skips units
/// with `2 · degree` empty cells or fewer (the set would be naked on the
/// rest). Direct: the first other digit the removals would leave with one
/// place in the unit is placed there, nothing else applied.
fn hidden_sets(board: &Board, degree: usize, direct: bool, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let side = board.side();
    for unit in units_boxes_columns_rows(geometry) {
        let cells = geometry.unit_cells(unit);
        let empty = cells
            .iter()
            .filter(|&&c| board.value(usize::from(c)) == 0)
            .count();
        let enough = if direct {
            empty > degree
        } else {
            empty > 2 * degree
        };
        if !enough {
            continue;
        }
        let mut positions = [0u64; 64];
        let mut spread = 0u64;
        for digit in 1..=side as u8 {
            let p = board.positions(unit, digit);
            positions[usize::from(digit - 1)] = p;
            if (2..=degree as u32).contains(&p.count_ones()) {
                spread |= 1 << (digit - 1);
            }
        }
        for digits in subsets(spread, degree) {
            let set = bits(digits)
                .map(|b| positions[b as usize])
                .fold(0, |a, b| a | b);
            if set.count_ones() as usize != degree {
                continue;
            }
            let mut step = if direct {
                let single = (0..side).filter(|&b| digits >> b & 1 == 0).find(|&b| {
                    positions[b].count_ones() > 1 && (positions[b] & !set).count_ones() == 1
                });
                let Some(b) = single else {
                    continue;
                };
                let cell = usize::from(cells[(positions[b] & !set).trailing_zeros() as usize]);
                let (technique, rating) = if degree == 2 {
                    (Technique::DirectHiddenPair, 20)
                } else {
                    (Technique::DirectHiddenTriple, 25)
                };
                let mut step = Step::new(technique, rating);
                step.placements.push(Candidate::new(cell, b as u8 + 1));
                step
            } else {
                let eliminations: Vec<Candidate> = bits(set)
                    .flat_map(|i| {
                        let c = usize::from(cells[i as usize]);
                        bits(board.candidates(c) & !digits)
                            .map(move |b| Candidate::new(c, b as u8 + 1))
                    })
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (technique, rating) = match degree {
                    2 => (Technique::HiddenPair, 34),
                    3 => (Technique::HiddenTriple, 40),
                    _ => (Technique::HiddenQuad, 54),
                };
                let mut step = Step::new(technique, rating);
                step.eliminations = eliminations;
                step
            };
            fill_pattern(&mut step, board, unit, set, digits);
            out.push(step);
            return;
        }
    }
}

/// The set's cells and unit, its digits, and its candidates of those digits.
fn fill_pattern(step: &mut Step, board: &Board, unit: usize, set: u64, digits: u64) {
    let cells = board.geometry().unit_cells(unit);
    step.pattern.units.push(unit as u16);
    step.pattern.digits = digits;
    for i in bits(set) {
        let cell = usize::from(cells[i as usize]);
        step.pattern.cells.push(cell as u16);
        for b in bits(board.candidates(cell) & digits) {
            step.pattern
                .candidates
                .push(Candidate::new(cell, b as u8 + 1));
        }
    }
}
