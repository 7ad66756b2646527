//! The peers of `bench variants`, fed the same [`Rules`] and puzzles as our
//! solver: the `sudoku-variants` crate (its rules for rows, columns, boxes,
//! diagonals, knight's and king's moves and consecutive neighbours, and our
//! glue, on its `Constraint` trait, for the regions, cages and thermometers
//! it lacks) and sigh's Interactive Sudoku Solver (constraint strings in its
//! own text format, run by `xtask/peers/iss.sh` under Node.js).

use std::collections::HashSet;

use cover_models::sudoku::variant::Rules;
use sudoku_variants::constraint::{
    AdjacentConsecutiveConstraint, ColumnConstraint, Constraint, DynamicConstraint, Group,
    KingsMoveConstraint, KnightsMoveConstraint, RowConstraint,
};
use sudoku_variants::solver::strategy::{
    CompositeStrategy, NakedSingleStrategy, OnlyCellStrategy, StrategicBacktrackingSolver,
};
use sudoku_variants::solver::{Solution, Solver};
use sudoku_variants::{Sudoku, SudokuGrid};

/// The cells of the main diagonal and the anti-diagonal of a grid of `side`.
fn diagonals(side: usize) -> [Vec<usize>; 2] {
    [
        (0..side).map(|i| i * side + i).collect(),
        (0..side).map(|i| i * side + side - 1 - i).collect(),
    ]
}

/// Windoku's four windows (9×9).
fn windows() -> Vec<Vec<usize>> {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .map(|&(r0, c0)| {
            (0..9)
                .map(|i| (r0 + i / 3) * 9 + c0 + i % 3)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A cell set in a canonical order, to compare regions.
fn sorted(cells: &[usize]) -> Vec<usize> {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    cells
}

/// Whether `a` and `b` are the same regions, in any order.
fn same_regions(a: &[Vec<usize>], b: &[Vec<usize>]) -> bool {
    let set = |regions: &[Vec<usize>]| -> HashSet<Vec<usize>> {
        regions.iter().map(|r| sorted(r)).collect()
    };
    a.len() == b.len() && set(a) == set(b)
}

/// Removes every region of `wanted` from `regions` when all are there;
/// whether they were.
fn take(regions: &mut Vec<Vec<usize>>, wanted: &[Vec<usize>]) -> bool {
    let wanted: HashSet<Vec<usize>> = wanted.iter().map(|w| sorted(w)).collect();
    let present = regions
        .iter()
        .filter(|r| wanted.contains(&sorted(r)))
        .count();
    if present < wanted.len() {
        return false;
    }
    regions.retain(|r| !wanted.contains(&sorted(r)));
    true
}

/// The pieces tiling the grid after the rows and columns (boxes or jigsaw
/// pieces; none for a latin square) and the extra regions after them.
fn split_regions(rules: &Rules) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let side = rules.side();
    let rest = &rules.regions()[2 * side..];
    let pieces = rest.get(..side).unwrap_or(&[]);
    let covered: HashSet<usize> = pieces.iter().flatten().copied().collect();
    let tiles = pieces.len() == side
        && pieces.iter().all(|p| p.len() == side)
        && covered.len() == side * side;
    if tiles {
        (pieces.to_vec(), rest[side..].to_vec())
    } else {
        (Vec::new(), rest.to_vec())
    }
}

/// The square boxes of a grid of `side`, when it is a square.
fn square_boxes(side: usize) -> Option<Vec<Vec<usize>>> {
    let n = (1..=side)
        .find(|n| n * n >= side)
        .filter(|n| n * n == side)?;
    let boxes = Rules::boxes(side, n, n).ok()?;
    Some(boxes.regions()[2 * side..].to_vec())
}

/// `R{row}C{column}`, 1-based, as ISS names cells.
fn iss_cell(side: usize, cell: usize) -> String {
    format!("R{}C{}", cell / side + 1, cell % side + 1)
}

fn iss_cells(side: usize, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| format!("~{}", iss_cell(side, c)))
        .collect()
}

/// The puzzle as one line of ISS's constraint text.
pub fn iss_constraints(rules: &Rules, puzzle: &[u8]) -> String {
    let side = rules.side();
    let mut text = String::new();
    if side != 9 {
        text.push_str(&format!(".Shape~{side}x{side}"));
    }
    let (pieces, mut extras) = split_regions(rules);
    let square_boxes = square_boxes(side).is_some_and(|boxes| same_regions(&boxes, &pieces));
    if pieces.is_empty() {
        text.push_str(".NoBoxes");
    } else if !square_boxes {
        let mut layout = vec!['0'; side * side];
        for (index, piece) in pieces.iter().enumerate() {
            let symbol = char::from_digit(index as u32, 36).expect("at most 36 pieces");
            for &cell in piece {
                layout[cell] = symbol;
            }
        }
        text.push_str(".NoBoxes.Jigsaw~");
        text.extend(layout);
    }
    if take(&mut extras, &diagonals(side)) {
        text.push_str(".Diagonal~1.Diagonal~-1");
    }
    if side == 9 && take(&mut extras, &windows()) {
        text.push_str(".Windoku");
    }
    for region in &extras {
        text.push_str(".AllDifferent");
        text.push_str(&iss_cells(side, region));
    }
    for cage in rules.cages() {
        match cage.sum {
            Some(sum) => text.push_str(&format!(".Cage~{sum}")),
            None => text.push_str(".AllDifferent"),
        }
        text.push_str(&iss_cells(side, &cage.cells));
    }
    for thermo in rules.thermos() {
        text.push_str(".Thermo");
        text.push_str(&iss_cells(side, thermo));
    }
    if rules.anti_knight() {
        text.push_str(".AntiKnight");
    }
    if rules.anti_king() {
        text.push_str(".AntiKing");
    }
    if rules.non_consecutive() {
        text.push_str(".AntiConsecutive");
    }
    let givens: Vec<String> = puzzle
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != 0)
        .map(|(cell, &d)| format!("{}_{d}", iss_cell(side, cell)))
        .collect();
    if !givens.is_empty() {
        text.push_str(".~");
        text.push_str(&givens.join("~"));
    }
    text
}

/// Digits that differ in each region (here: the pieces and extra regions
/// `sudoku-variants` has no rule for).
#[derive(Clone)]
struct Regions {
    side: usize,
    regions: Vec<Vec<usize>>,
    of_cell: Vec<Vec<usize>>,
}

impl Regions {
    fn new(side: usize, regions: Vec<Vec<usize>>) -> Regions {
        let mut of_cell = vec![Vec::new(); side * side];
        for (index, region) in regions.iter().enumerate() {
            for &cell in region {
                of_cell[cell].push(index);
            }
        }
        Regions {
            side,
            regions,
            of_cell,
        }
    }
}

fn value(grid: &SudokuGrid, side: usize, cell: usize) -> Option<usize> {
    grid.get_cell(cell % side, cell / side)
        .expect("a cell of the grid")
}

impl Constraint for Regions {
    fn check_number(&self, grid: &SudokuGrid, column: usize, row: usize, number: usize) -> bool {
        let cell = row * self.side + column;
        self.of_cell[cell].iter().all(|&r| {
            self.regions[r]
                .iter()
                .all(|&other| other == cell || value(grid, self.side, other) != Some(number))
        })
    }

    fn get_groups(&self, _grid: &SudokuGrid) -> Vec<Group> {
        self.regions
            .iter()
            .map(|cells| {
                cells
                    .iter()
                    .map(|&c| (c % self.side, c / self.side))
                    .collect()
            })
            .collect()
    }
}

/// Killer cages: distinct digits, and a sum the empty cells can still make.
#[derive(Clone)]
struct Cages {
    side: usize,
    cages: Vec<(Vec<usize>, Option<usize>)>,
    of_cell: Vec<Vec<usize>>,
}

impl Constraint for Cages {
    fn check_number(&self, grid: &SudokuGrid, column: usize, row: usize, number: usize) -> bool {
        let cell = row * self.side + column;
        self.of_cell[cell].iter().all(|&index| {
            let (cells, sum) = &self.cages[index];
            let mut total = number;
            let mut empty = 0;
            for &other in cells.iter().filter(|&&o| o != cell) {
                match value(grid, self.side, other) {
                    Some(v) if v == number => return false,
                    Some(v) => total += v,
                    None => empty += 1,
                }
            }
            // The smallest and largest sums of `empty` distinct digits.
            let least = empty * (empty + 1) / 2;
            let most = empty * self.side - empty * empty.saturating_sub(1) / 2;
            sum.is_none_or(|sum| total + least <= sum && total + most >= sum)
        })
    }

    fn get_groups(&self, _grid: &SudokuGrid) -> Vec<Group> {
        Vec::new()
    }
}

/// Thermometers: strictly increasing from the bulb.
#[derive(Clone)]
struct Thermos {
    side: usize,
    thermos: Vec<Vec<usize>>,
    /// (thermometer, position) of each cell.
    of_cell: Vec<Vec<(usize, usize)>>,
}

impl Constraint for Thermos {
    fn check_number(&self, grid: &SudokuGrid, column: usize, row: usize, number: usize) -> bool {
        let cell = row * self.side + column;
        self.of_cell[cell].iter().all(|&(index, at)| {
            let thermo = &self.thermos[index];
            if number < at + 1 || number + (thermo.len() - 1 - at) > self.side {
                return false;
            }
            thermo.iter().enumerate().all(|(other_at, &other)| {
                match value(grid, self.side, other) {
                    Some(v) if other_at < at => number >= v + (at - other_at),
                    Some(v) if other_at > at => number + (other_at - at) <= v,
                    _ => true,
                }
            })
        })
    }

    fn get_groups(&self, _grid: &SudokuGrid) -> Vec<Group> {
        Vec::new()
    }
}

/// The puzzle under `sudoku-variants`' rules and our glue for the rest.
pub struct SudokuVariantsPuzzle {
    sudoku: Sudoku<DynamicConstraint>,
}

impl SudokuVariantsPuzzle {
    /// The puzzle, or why `sudoku-variants` cannot hold it.
    pub fn new(rules: &Rules, puzzle: &[u8]) -> Result<SudokuVariantsPuzzle, String> {
        let side = rules.side();
        let (pieces, mut extras) = split_regions(rules);
        let n = (1..=side).find(|n| n * n >= side).filter(|n| n * n == side);
        let (width, height) = match n {
            Some(n) => (n, n),
            None => (side, 1),
        };
        let mut grid = SudokuGrid::new(width, height).map_err(|e| format!("{e:?}"))?;
        for (cell, &digit) in puzzle.iter().enumerate() {
            if digit != 0 {
                grid.set_cell(cell % side, cell / side, digit as usize)
                    .map_err(|e| format!("{e:?}"))?;
            }
        }
        let mut constraint = DynamicConstraint::new();
        constraint.add(RowConstraint);
        constraint.add(ColumnConstraint);
        let mut own = Vec::new();
        match square_boxes(side) {
            Some(boxes) if same_regions(&boxes, &pieces) => {
                constraint.add(sudoku_variants::constraint::BlockConstraint)
            }
            _ => own.extend(pieces),
        }
        if take(&mut extras, &diagonals(side)) {
            constraint.add(sudoku_variants::constraint::DiagonalsConstraint);
        }
        own.extend(extras);
        own.extend(
            rules
                .cages()
                .iter()
                .filter(|c| c.sum.is_none())
                .map(|c| c.cells.clone()),
        );
        if !own.is_empty() {
            constraint.add(Regions::new(side, own));
        }
        let cages: Vec<(Vec<usize>, Option<usize>)> = rules
            .cages()
            .iter()
            .filter(|c| c.sum.is_some())
            .map(|c| (c.cells.clone(), c.sum.map(|s| s as usize)))
            .collect();
        if !cages.is_empty() {
            let mut of_cell = vec![Vec::new(); side * side];
            for (index, (cells, _)) in cages.iter().enumerate() {
                for &cell in cells {
                    of_cell[cell].push(index);
                }
            }
            constraint.add(Cages {
                side,
                cages,
                of_cell,
            });
        }
        if !rules.thermos().is_empty() {
            let thermos = rules.thermos().to_vec();
            let mut of_cell = vec![Vec::new(); side * side];
            for (index, thermo) in thermos.iter().enumerate() {
                for (at, &cell) in thermo.iter().enumerate() {
                    of_cell[cell].push((index, at));
                }
            }
            constraint.add(Thermos {
                side,
                thermos,
                of_cell,
            });
        }
        if rules.anti_knight() {
            constraint.add(KnightsMoveConstraint);
        }
        if rules.anti_king() {
            constraint.add(KingsMoveConstraint);
        }
        if rules.non_consecutive() {
            constraint.add(AdjacentConsecutiveConstraint);
        }
        Ok(SudokuVariantsPuzzle {
            sudoku: Sudoku::new_with_grid(grid, constraint),
        })
    }

    /// Solves with the crate's strongest complete solver (backtracking on
    /// the cell of fewest options, naked and hidden singles between): the
    /// number of solutions up to 2 and the first one's digits.
    pub fn solve(&self) -> (usize, Option<Vec<u8>>) {
        let solver = StrategicBacktrackingSolver::new(CompositeStrategy::new(
            NakedSingleStrategy,
            OnlyCellStrategy,
        ));
        match solver.solve(&self.sudoku) {
            Solution::Impossible => (0, None),
            Solution::Ambiguous => (2, None),
            Solution::Unique(grid) => (
                1,
                Some(
                    grid.cells()
                        .iter()
                        .map(|cell| cell.map_or(0, |d| d as u8))
                        .collect(),
                ),
            ),
        }
    }
}
