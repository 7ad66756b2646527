//! Singles: a unit's last empty cell (Full House), a digit with one place
//! left in a unit (Hidden Single) and a cell with one candidate left
//! (Naked Single), scanned in Sudoku Explainer's order.

use super::board::Board;
use super::solver::units_boxes_columns_rows;
use super::step::{Candidate, Step, Technique};

/// Full House (1.0) first, then Hidden Single (1.2 in a box, 1.5 in a row
/// or column): SE's one producer for both, each scanning boxes, columns,
/// then rows, digits in order. Pushes the first found.
pub(super) fn hidden_singles(board: &Board, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let side = board.side();
    for last_only in [true, false] {
        for unit in units_boxes_columns_rows(geometry) {
            let cells = geometry.unit_cells(unit);
            let empty = cells
                .iter()
                .filter(|&&c| board.value(usize::from(c)) == 0)
                .count();
            // A unit with one empty cell is a full house, never a hidden single.
            if empty == 0 || (empty == 1) != last_only {
                continue;
            }
            for digit in 1..=side as u8 {
                let positions = board.positions(unit, digit);
                if positions.count_ones() != 1 {
                    continue;
                }
                let cell = usize::from(cells[positions.trailing_zeros() as usize]);
                let (technique, rating) = match (last_only, unit >= 2 * side) {
                    (true, _) => (Technique::FullHouse, 10),
                    (false, true) => (Technique::HiddenSingle, 12),
                    (false, false) => (Technique::HiddenSingle, 15),
                };
                let mut step = Step::new(technique, rating);
                step.placements.push(Candidate::new(cell, digit));
                step.pattern.cells.push(cell as u16);
                step.pattern.units.push(unit as u16);
                step.pattern.digits = 1 << (digit - 1);
                out.push(step);
                return;
            }
        }
    }
}

/// Naked Single (2.3): the first cell, row-major, with one candidate.
pub(super) fn naked_singles(board: &Board, out: &mut Vec<Step>) {
    let found = board
        .all_candidates()
        .iter()
        .position(|&mask| mask.count_ones() == 1);
    if let Some(cell) = found {
        let mask = board.candidates(cell);
        let digit = mask.trailing_zeros() as u8 + 1;
        let mut step = Step::new(Technique::NakedSingle, 23);
        step.placements.push(Candidate::new(cell, digit));
        step.pattern.cells.push(cell as u16);
        step.pattern.digits = mask;
        out.push(step);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::nine;
    use super::super::Technique;
    use super::*;

    #[test]
    fn a_full_house_fills_the_last_cell_of_a_unit() {
        let geometry = nine();
        let line =
            "53467891267219534819834256785976142342685379171392485696153728428741963534528617.";
        let board = Board::new(&geometry, &crate::sudoku::testing::cells(line));
        let mut found = Vec::new();
        hidden_singles(&board, &mut found);
        assert_eq!(found[0].technique, Technique::FullHouse);
        assert_eq!(found[0].placements, vec![Candidate::new(80, 9)]);
        assert_eq!(found[0].rating.0, 10);
    }
}
