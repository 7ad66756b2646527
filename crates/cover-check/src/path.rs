//! Logical paths through a sudoku, checked against its solution: each
//! step's placements must be the solution's digits and still candidates,
//! no elimination may remove a true digit, and a path said to be complete
//! must end on the solution.
//!
//! It takes plain data (cells, digits, steps as lists of (cell, digit)),
//! not the human-logic solver's types, and keeps its own candidates, so a
//! solver that loses track of its candidates cannot hide it from here.

use std::fmt;

use crate::sudoku::{check_solution, unit_cells};

/// One step of a path: the digits it places and the candidates it
/// removes, each a (cell, digit) with cells row-major from 0 and digits
/// `1..=side`. Placements are applied before eliminations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathStep {
    /// (cell, digit) placed.
    pub placements: Vec<(usize, u8)>,
    /// (cell, digit) removed from the candidates.
    pub eliminations: Vec<(usize, u8)>,
}

/// Whether a path claims to solve the puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// It must end on the solution: every cell filled.
    Complete,
    /// It may stop anywhere; only its steps are checked.
    Partial,
}

/// What is wrong with a path. Cells are row-major from 0; `digit` is the
/// step's, `truth` the solution's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the fields are named for what they hold
pub enum Fault {
    /// The puzzle or the solution does not fit (sizes, digits, a solution
    /// that breaks the rules or the givens).
    Input(String),
    /// A (cell, digit) outside the grid or the digits.
    OutOfRange { cell: usize, digit: u8 },
    /// A step that neither places nor eliminates anything.
    Empty,
    /// A placement of a digit that is not the solution's.
    WrongPlacement { cell: usize, digit: u8, truth: u8 },
    /// A placement in a cell already filled.
    Filled { cell: usize, digit: u8 },
    /// An elimination of the cell's true digit.
    TrueDigitEliminated { cell: usize, digit: u8 },
    /// A path claimed complete that leaves `empty` cells empty.
    Incomplete { empty: usize },
}

/// The first fault of a path: at which step (from 1; `None` before the
/// first step or after the last) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    /// The step, counted from 1, or `None` for the input and the end.
    pub step: Option<usize>,
    /// The grid's side, to name cells as r1c1.
    pub side: usize,
    /// What is wrong.
    pub fault: Fault,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side.max(1);
        let at = |cell: usize| format!("r{}c{}", cell / side + 1, cell % side + 1);
        if let Some(step) = self.step {
            write!(f, "step {step}: ")?;
        }
        match &self.fault {
            Fault::Input(problem) => write!(f, "{problem}"),
            Fault::OutOfRange { cell, digit } => {
                write!(f, "cell {cell}, digit {digit} is outside the grid")
            }
            Fault::Empty => write!(f, "places and eliminates nothing"),
            Fault::WrongPlacement { cell, digit, truth } => {
                write!(f, "places {digit} in {}, whose digit is {truth}", at(*cell))
            }
            Fault::Filled { cell, digit } => {
                write!(f, "places {digit} in {}, already filled", at(*cell))
            }
            Fault::TrueDigitEliminated { cell, digit } => {
                write!(f, "eliminates {digit} from {}: its true digit", at(*cell))
            }
            Fault::Incomplete { empty } => {
                write!(
                    f,
                    "the path claims to be complete but leaves {empty} cells empty"
                )
            }
        }
    }
}

impl std::error::Error for PathError {}

/// The grid as the path leaves it: digits placed and candidates left.
struct Grid {
    side: usize,
    values: Vec<u8>,
    /// A bit per digit (bit `d - 1`), per cell; empty for filled cells.
    candidates: Vec<u64>,
    /// The cells of each cell's row, column and box, the cell included.
    peers: Vec<Vec<usize>>,
}

impl Grid {
    /// The givens placed; every other digit a candidate where no given of
    /// its row, column or box has it.
    fn new(puzzle: &[u8], side: usize) -> Grid {
        let mut peers = vec![Vec::new(); side * side];
        for kind in 0..3 {
            for unit in 0..side {
                let cells: Vec<usize> = unit_cells(kind, unit, side).collect();
                for &cell in &cells {
                    peers[cell].extend(&cells);
                }
            }
        }
        let all = if side == 64 {
            u64::MAX
        } else {
            (1u64 << side) - 1
        };
        let mut grid = Grid {
            side,
            values: vec![0; side * side],
            candidates: vec![all; side * side],
            peers,
        };
        for (cell, &digit) in puzzle.iter().enumerate() {
            if digit != 0 {
                grid.place(cell, digit);
            }
        }
        grid
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        let bit = 1u64 << (digit - 1);
        for &peer in &self.peers[cell] {
            self.candidates[peer] &= !bit;
        }
        self.candidates[cell] = 0;
    }

    fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] & (1u64 << (digit - 1)) != 0
    }

    fn in_range(&self, (cell, digit): (usize, u8)) -> bool {
        cell < self.side * self.side && digit >= 1 && usize::from(digit) <= self.side
    }
}

/// Checks `steps` on `puzzle` (cells row-major, 0 empty, `side` = n²)
/// against `solution`: every placement is the solution's digit in an empty
/// cell (so still a candidate there), no elimination removes the true
/// digit, no step is empty, and with [`Claim::Complete`] the path ends on
/// the solution. An elimination of a candidate already gone is no fault.
/// The first fault found is the error.
pub fn check_path(
    puzzle: &[u8],
    solution: &[u8],
    side: usize,
    steps: &[PathStep],
    claim: Claim,
) -> Result<(), PathError> {
    let error = |step, fault| PathError { step, side, fault };
    if side > 64 {
        return Err(error(None, Fault::Input(format!("side {side} is over 64"))));
    }
    check_solution(puzzle, solution, side).map_err(|e| error(None, Fault::Input(e)))?;
    let mut grid = Grid::new(puzzle, side);
    for (number, step) in steps.iter().enumerate() {
        let at = Some(number + 1);
        if step.placements.is_empty() && step.eliminations.is_empty() {
            return Err(error(at, Fault::Empty));
        }
        let mut moves = step.placements.iter().chain(&step.eliminations);
        if let Some(&(cell, digit)) = moves.find(|&&m| !grid.in_range(m)) {
            return Err(error(at, Fault::OutOfRange { cell, digit }));
        }
        for &(cell, digit) in &step.placements {
            let truth = solution[cell];
            let fault = if digit != truth {
                Fault::WrongPlacement { cell, digit, truth }
            } else if grid.values[cell] != 0 {
                Fault::Filled { cell, digit }
            } else {
                // The true digit of an empty cell is still a candidate:
                // only a wrong placement or the elimination of a true
                // digit could have removed it, both faults found earlier.
                debug_assert!(grid.has(cell, digit));
                grid.place(cell, digit);
                continue;
            };
            return Err(error(at, fault));
        }
        for &(cell, digit) in &step.eliminations {
            // A filled cell keeps no candidates: removing its digit there
            // (as some techniques list it) takes nothing away.
            if digit == solution[cell] && grid.values[cell] == 0 {
                return Err(error(at, Fault::TrueDigitEliminated { cell, digit }));
            }
            grid.candidates[cell] &= !(1u64 << (digit - 1));
        }
    }
    let empty = grid.values.iter().filter(|&&v| v == 0).count();
    if claim == Claim::Complete && empty > 0 {
        return Err(error(None, Fault::Incomplete { empty }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 puzzle with one solution, and that solution.
    const PUZZLE: [u8; 16] = [1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2];
    const SOLUTION: [u8; 16] = [1, 3, 2, 4, 4, 2, 3, 1, 2, 4, 1, 3, 3, 1, 4, 2];

    fn place(cell: usize) -> PathStep {
        PathStep {
            placements: vec![(cell, SOLUTION[cell])],
            eliminations: vec![],
        }
    }

    /// Every empty cell placed with its digit, one step each, in order.
    fn right_path() -> Vec<PathStep> {
        (0..16).filter(|&c| PUZZLE[c] == 0).map(place).collect()
    }

    fn first_fault(steps: &[PathStep], claim: Claim) -> (Option<usize>, Fault) {
        let error = check_path(&PUZZLE, &SOLUTION, 4, steps, claim).unwrap_err();
        (error.step, error.fault)
    }

    #[test]
    fn the_fixture_has_one_solution() {
        assert_eq!(crate::sudoku::count_solutions(&PUZZLE, 4, 2), 1);
        assert_eq!(crate::sudoku::first_solution(&PUZZLE, 4).unwrap(), SOLUTION);
    }

    #[test]
    fn a_right_path_passes_complete_and_partial() {
        let mut path = right_path();
        // A true elimination (r1c2 is 3, not 2) and an elimination of a
        // candidate already gone (r1c2 sees the given 1) are both fine.
        path.insert(
            0,
            PathStep {
                placements: vec![],
                eliminations: vec![(1, 2), (1, 1)],
            },
        );
        assert_eq!(
            check_path(&PUZZLE, &SOLUTION, 4, &path, Claim::Complete),
            Ok(())
        );
        assert_eq!(
            check_path(&PUZZLE, &SOLUTION, 4, &path[..3], Claim::Partial),
            Ok(())
        );
        assert_eq!(
            check_path(&PUZZLE, &SOLUTION, 4, &[], Claim::Partial),
            Ok(())
        );
    }

    #[test]
    fn a_wrong_placement_is_named_with_its_step() {
        let mut path = right_path();
        // The third step places r1c4, whose digit is 4.
        path[2].placements[0] = (3, 1);
        let (step, fault) = first_fault(&path, Claim::Complete);
        assert_eq!(step, Some(3));
        assert_eq!(
            fault,
            Fault::WrongPlacement {
                cell: 3,
                digit: 1,
                truth: 4
            }
        );
        let error = check_path(&PUZZLE, &SOLUTION, 4, &path, Claim::Complete).unwrap_err();
        assert_eq!(
            error.to_string(),
            "step 3: places 1 in r1c4, whose digit is 4"
        );
    }

    #[test]
    fn eliminating_the_true_digit_is_a_fault() {
        let mut path = right_path();
        path.insert(
            1,
            PathStep {
                placements: vec![],
                eliminations: vec![(5, 1), (5, 2)],
            },
        );
        let (step, fault) = first_fault(&path, Claim::Partial);
        assert_eq!(step, Some(2));
        assert_eq!(fault, Fault::TrueDigitEliminated { cell: 5, digit: 2 });
    }

    #[test]
    fn an_incomplete_path_claimed_complete_fails_at_the_end() {
        let path = right_path();
        let (step, fault) = first_fault(&path[..path.len() - 2], Claim::Complete);
        assert_eq!((step, fault), (None, Fault::Incomplete { empty: 2 }));
        assert!(check_path(
            &PUZZLE,
            &SOLUTION,
            4,
            &path[..path.len() - 2],
            Claim::Partial
        )
        .is_ok());
    }

    #[test]
    fn a_placement_must_be_in_an_empty_cell() {
        let mut path = right_path();
        // r1c2 placed twice.
        path.insert(1, place(1));
        let (step, fault) = first_fault(&path, Claim::Complete);
        assert_eq!(
            (step, fault),
            (Some(2), Fault::Filled { cell: 1, digit: 3 })
        );
        // A given's cell is filled from the start.
        let (step, fault) = first_fault(&[place(0)], Claim::Partial);
        assert_eq!(
            (step, fault),
            (Some(1), Fault::Filled { cell: 0, digit: 1 })
        );
    }

    #[test]
    fn empty_and_out_of_range_steps_and_bad_inputs_are_faults() {
        assert_eq!(
            first_fault(&[PathStep::default()], Claim::Partial),
            (Some(1), Fault::Empty)
        );
        let outside = PathStep {
            placements: vec![],
            eliminations: vec![(16, 1)],
        };
        assert_eq!(
            first_fault(&[outside], Claim::Partial),
            (Some(1), Fault::OutOfRange { cell: 16, digit: 1 })
        );
        let zero = PathStep {
            placements: vec![(1, 0)],
            eliminations: vec![],
        };
        assert_eq!(
            first_fault(&[zero], Claim::Partial),
            (Some(1), Fault::OutOfRange { cell: 1, digit: 0 })
        );
        let mut broken = SOLUTION;
        broken.swap(1, 2);
        let error = check_path(&PUZZLE, &broken, 4, &[], Claim::Partial).unwrap_err();
        assert!(matches!(error.fault, Fault::Input(_)) && error.step.is_none());
    }
}
