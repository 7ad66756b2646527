//! The variants' rules between neighbouring cells: non-consecutive and
//! thermometers, as basic steps. Sudoku Explainer has neither, so their
//! values are our own:
//!
//! - **Non-Consecutive, 1.0** when a neighbour is filled (its digit's
//!   neighbours leave the cells beside it, as a filled cell's digit leaves
//!   its peers), **2.5** when a neighbour's candidates decide it (a digit
//!   whose two neighbours hold every candidate of an adjacent cell).
//! - **Thermometer, 2.5**: along a thermometer each cell is above the one
//!   before, so the smallest digit the bulb side allows bounds each cell
//!   from below, the largest the tip side allows from above.
//!
//! This module must not know how the rules came (formats, generator).

use super::board::Board;
use super::step::{Candidate, Step, Technique};

/// A cell's digits: its own when filled, else its candidates.
fn options(board: &Board, cell: usize) -> u64 {
    match board.value(cell) {
        0 => board.candidates(cell),
        d => 1u64 << (d - 1),
    }
}

/// The digits that a neighbour holding one of `digits` rules out: those
/// with every digit of `digits` next to them (`d` goes when each option of
/// the neighbour is `d - 1` or `d + 1`).
fn ruled_out(digits: u64, side: usize) -> u64 {
    let mut out = 0;
    for d in 1..=side {
        let bit = 1u64 << (d - 1);
        let next = bit << 1 | bit >> 1;
        if digits != 0 && digits & !next == 0 {
            out |= bit;
        }
    }
    out
}

fn non_consecutive(board: &Board, filled: bool, out: &mut Vec<Step>) {
    let Some(rules) = board.geometry().rules() else {
        return;
    };
    if !rules.non_consecutive() {
        return;
    }
    let side = board.side();
    for (a, b) in rules.neighbours() {
        for (from, to) in [(a, b), (b, a)] {
            if board.value(to) != 0 || (board.value(from) != 0) != filled {
                continue;
            }
            let gone = board.candidates(to) & ruled_out(options(board, from), side);
            if gone == 0 {
                continue;
            }
            let mut step = if filled {
                Step::new(Technique::NonConsecutive, 10)
            } else {
                Step::new(Technique::NonConsecutive, 25)
            };
            step.eliminations = (0..side as u8)
                .filter(|d| gone >> d & 1 == 1)
                .map(|d| Candidate::new(to, d + 1))
                .collect();
            step.pattern.cells = vec![from as u16];
            step.pattern.digits = options(board, from);
            out.push(step);
            return;
        }
    }
}

/// Non-Consecutive beside a filled cell (1.0): the first pair of
/// neighbours, in the rules' order, where it removes something.
pub(super) fn non_consecutive_filled(board: &Board, out: &mut Vec<Step>) {
    non_consecutive(board, true, out);
}

/// Non-Consecutive beside an empty cell (2.5), its candidates deciding.
pub(super) fn non_consecutive_candidates(board: &Board, out: &mut Vec<Step>) {
    non_consecutive(board, false, out);
}

/// Thermometer (2.5): the first thermometer, in the rules' order, whose
/// bounds remove something.
pub(super) fn thermometers(board: &Board, out: &mut Vec<Step>) {
    let Some(rules) = board.geometry().rules() else {
        return;
    };
    for thermo in rules.thermos() {
        let opts: Vec<u64> = thermo.iter().map(|&c| options(board, c)).collect();
        if opts.contains(&0) {
            continue;
        }
        // Each cell keeps the digits above the least the cell before can
        // hold, then below the greatest the cell after can.
        let mut allowed = opts.clone();
        let mut floor = 0u32;
        for a in allowed.iter_mut() {
            // Digits above `floor`: bits `floor..`.
            let above = if floor >= 64 { 0 } else { u64::MAX << floor };
            *a &= above;
            floor = if *a == 0 { 64 } else { a.trailing_zeros() + 1 };
        }
        let mut ceiling = 65u32;
        for a in allowed.iter_mut().rev() {
            // Digits below `ceiling`: bits `..ceiling - 1`.
            let below = if ceiling >= 65 {
                u64::MAX
            } else {
                (1u64 << (ceiling - 1)) - 1
            };
            *a &= below;
            ceiling = if *a == 0 { 1 } else { 64 - a.leading_zeros() };
        }
        let mut step = Step::new(Technique::Thermometer, 25);
        for (&cell, &keep) in thermo.iter().zip(&allowed) {
            if board.value(cell) != 0 {
                continue;
            }
            let gone = board.candidates(cell) & !keep;
            step.eliminations.extend(
                (0..64u8)
                    .filter(|d| gone >> d & 1 == 1)
                    .map(|d| Candidate::new(cell, d + 1)),
            );
        }
        if !step.eliminations.is_empty() {
            step.pattern.cells = thermo.iter().map(|&c| c as u16).collect();
            out.push(step);
            return;
        }
    }
}
