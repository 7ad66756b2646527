//! Sudoku variants: a grid of any side with any regions and extra rules
//! ([`Rules`]), encoded as exact cover and solved by dlx-core's engines
//! ([`VariantSolver`], [`solve_first`], [`count`], [`search`]).
//!
//! This module owns the rules model (regions, killer cages, thermometers,
//! anti-knight, anti-king, non-consecutive, overlapping grids such as
//! Samurai), its validation
//! ([`RulesError`]) and its exact-cover encoding. It must not know the
//! classic engines (the triad, band and compact 9×9 paths stay as they are
//! in [`Solver`](super::Solver)), nor any file format, generator or
//! human-logic technique: those read a [`Rules`] through its accessors.
//!
//! # Encoding
//! Cells are numbered row-major from 0, digits are `1..=digits` (the side,
//! or a grid's side for overlapping grids), and a puzzle is `side²` cells
//! with 0 for empty (and 0 outside the grids of overlapping grids: those
//! cells have no item and no option).
//! - **Primary items**: each cell of the puzzle; `(region, digit)` for
//!   every region of exactly `digits` cells (rows, columns, boxes, jigsaw
//!   pieces, diagonals, windows, full extra regions).
//! - **Secondary items** (at most once): `(region, digit)` for regions of
//!   fewer cells and for every cage; `(pair, digit)` for each pair of
//!   cells that anti-knight or anti-king forbids to be equal and that
//!   share no region or cage; for non-consecutive, for orthogonal
//!   neighbours `a`, `b` and digits `d`, `d+1`, one item in options
//!   `(a, d)` and `(b, d+1)`, another in `(a, d+1)` and `(b, d)`.
//! - **Options**: one per cell and digit, covering the items of that
//!   placement.
//! - **Sums and thermometers** ([`SumEncoding`]): by default a propagator
//!   on dlx-core's hook (`variant/sums.rs`) narrows, at every branching
//!   node, the cells of each cage to the digits of the sets that make its
//!   sum, and each thermometer's cells to its order; it also reasons on
//!   the sums the rules imply (innies and outies of rows, columns, boxes
//!   and runs of them), on digits a cage needs that can only lie in one
//!   region, and it branches on the cells whose rules failed most. Each
//!   solution is checked too, as forced moves are taken without it. The
//!   alternative, measured slower on generated killers and thermometers,
//!   enumerates: the cells tied by cages with a
//!   sum and by thermometers (overlapping ones merged into one group) get
//!   one option per assignment of digits to the whole group that keeps
//!   every rule inside it (sums, increasing thermometers, and no item
//!   twice, so distinct digits within regions and cages and the pair
//!   rules), enumerated by backtracking.
//! - **Past the cap** (enumerated only): a group with more than [`GROUP_CAP`] assignments (a
//!   cap [`VariantSolver::with_group_cap`] changes) gets single-cell
//!   options instead. If it is one cage, with at most the cap's sets of
//!   digits making its sum, it also gets one primary item with an option
//!   per set, covering the cage's `(cage, digit)` items of the digits
//!   outside the set: the cells then take exactly the set's digits, so
//!   the sum holds. (As the only encoding of every cage it was measured
//!   20× slower on generated killers: the sum bites only once a set is
//!   chosen.) Otherwise its sums and thermometers are checked on each
//!   solution the engine finds, which is dropped when they fail (counted
//!   in no report); such searches are slower but give the same answers.
//! - **Givens**: the problem is built for one puzzle: a given cell gets only
//!   its digit's options, and options that cover an item of another cell's
//!   given are dropped, so the search needs nothing special.
//! - **Engines**: the compact engine when every item has at most 64
//!   options (always, unless a cage or thermometer group is enumerated
//!   past that), else the linked one. A search for one grid under anti-knight or anti-king
//!   restarts with the options reordered ([`RESTART_NODES`]); counts are
//!   always one exhaustive search.
//!
//! # Example
//! ```
//! use cover_models::sudoku::variant::{solve_first, Rules};
//! let rules = Rules::classic(4).with_diagonals();
//! let solution = solve_first(&rules, &[0; 16]).unwrap().unwrap();
//! assert!(rules.check(&solution).is_ok());
//! ```

use std::collections::HashSet;

use dlx_core::{
    CompactSolver, Control, Limits, Outcome, Problem, Propagator, Report, Solver, Stats,
};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The most assignments of one group of cages and thermometers enumerated
/// as whole-group options before the group falls back to single-cell
/// options (see the module's docs).
pub const GROUP_CAP: usize = 50_000;

/// The top-left cells (row, column) of the five grids of
/// [`Rules::samurai`] in its 21×21 frame.
pub const SAMURAI_GRIDS: [(usize, usize); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

/// The largest side a [`Rules`] accepts.
pub const MAX_SIDE: usize = 64;

/// Why rules or a puzzle were refused. The messages are for a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The side is 0 or too large.
    #[error("a grid of side {0} is not supported (1 to {MAX_SIDE})")]
    BadSide(usize),
    /// The boxes do not tile the grid.
    #[error("boxes of {rows}×{cols} do not tile a grid of side {side} (rows × columns must be the side)")]
    BadBoxes {
        /// The grid's side.
        side: usize,
        /// Rows per box.
        rows: usize,
        /// Columns per box.
        cols: usize,
    },
    /// A jigsaw layout of the wrong length.
    #[error("a jigsaw layout needs one region number per cell ({expected}), got {got}")]
    LayoutLength {
        /// Cells of the grid.
        expected: usize,
        /// Numbers given.
        got: usize,
    },
    /// A jigsaw piece of the wrong size.
    #[error("jigsaw piece {piece} has {cells} cells; every piece must have {side}")]
    PieceSize {
        /// The piece's number.
        piece: usize,
        /// Its cells.
        cells: usize,
        /// The grid's side.
        side: usize,
    },
    /// A jigsaw piece in several parts.
    #[error("jigsaw piece {0} is not connected (its cells must touch side by side)")]
    PieceNotConnected(usize),
    /// A cell number past the grid.
    #[error("{what} names cell {cell}, but the grid has only {cells} cells (0 to {})", cells - 1)]
    CellOutOfRange {
        /// The rule being added.
        what: &'static str,
        /// The cell.
        cell: usize,
        /// Cells of the grid.
        cells: usize,
    },
    /// A cell listed twice.
    #[error("{what} lists cell {cell} twice")]
    RepeatedCell {
        /// The rule being added.
        what: &'static str,
        /// The cell.
        cell: usize,
    },
    /// No cells.
    #[error("{0} has no cells")]
    Empty(&'static str),
    /// More cells than digits in a rule whose digits must differ.
    #[error(
        "{what} has {cells} cells, but its digits must all differ and there are only {side} digits"
    )]
    TooManyCells {
        /// The rule being added.
        what: &'static str,
        /// Its cells.
        cells: usize,
        /// The digits (the grid's side; 9 in Samurai).
        side: usize,
    },
    /// A cage sum no distinct digits reach.
    #[error("a cage of {cells} cells cannot sum to {sum}: distinct digits 1 to {side} give {min} to {max}")]
    ImpossibleSum {
        /// The cage's cells.
        cells: usize,
        /// Its sum.
        sum: u32,
        /// The digits (the grid's side; 9 in Samurai).
        side: usize,
        /// The smallest sum.
        min: u32,
        /// The largest sum.
        max: u32,
    },
    /// Two thermometer cells in a row that do not touch.
    #[error("thermometer cells {0} and {1} follow each other but do not touch")]
    ThermoGap(usize, usize),
    /// Windoku on another size than 9×9 (for overlapping grids: grids
    /// of other than 9 digits).
    #[error("windows (windoku) are defined for 9×9 grids only, not side {0}")]
    WindowsSize(usize),
    /// Overlapping grids with none, or one past the frame.
    #[error("a grid of side {digits} at row {row}, column {col} (from 0) does not fit in a frame of side {side}")]
    GridOutside {
        /// The grid's top row.
        row: usize,
        /// The grid's left column.
        col: usize,
        /// The grid's side (its digits).
        digits: usize,
        /// The frame's side.
        side: usize,
    },
    /// Overlapping grids without any grid.
    #[error("overlapping grids need at least one grid")]
    NoGrids,
    /// A rule that names a cell outside the grids of overlapping grids
    /// (Samurai), where no digit goes.
    #[error("{what} names cell {cell}, which is outside the grids (no digit goes there)")]
    NotACell {
        /// The rule being added.
        what: &'static str,
        /// The cell.
        cell: usize,
    },
    /// A puzzle that gives a digit to a cell outside the grids.
    #[error(
        "cell {cell} is outside the grids (no digit goes there) but the puzzle gives it {digit}"
    )]
    DigitOutsideGrids {
        /// The cell.
        cell: usize,
        /// Its digit.
        digit: u8,
    },
    /// A puzzle of the wrong length.
    #[error("the puzzle has {got} cells; the rules' grid has {expected}")]
    PuzzleLength {
        /// Cells of the grid.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A given past the digits.
    #[error("cell {cell} holds {digit}, but digits go from 1 to {side} (0 is empty)")]
    DigitOutOfRange {
        /// The cell.
        cell: usize,
        /// Its digit.
        digit: u8,
        /// The digits (the grid's side; 9 in Samurai).
        side: usize,
    },
}

/// A killer cage: its digits differ, and sum to `sum` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    /// The cells, in the order given.
    pub cells: Vec<usize>,
    /// The sum, if any.
    pub sum: Option<u32>,
}

/// Which rule a grid breaks ([`Rules::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The grid has the wrong length, or an empty or out-of-range cell, or
    /// a digit outside the grids of overlapping grids.
    #[error("cell {0} is not a digit of the grid (or the grid has the wrong length, or it holds a digit outside the grids)")]
    Cell(usize),
    /// A digit twice in region number `region` of [`Rules::regions`].
    #[error("region {0} repeats a digit")]
    Region(usize),
    /// Cage number `cage` repeats a digit or misses its sum.
    #[error("cage {0} repeats a digit or misses its sum")]
    Cage(usize),
    /// Thermometer number `thermo` does not increase.
    #[error("thermometer {0} does not increase")]
    Thermo(usize),
    /// Two cells a knight's or king's move apart are equal.
    #[error("cells {0} and {1} are equal a knight's or king's move apart")]
    Pair(usize, usize),
    /// Two orthogonal neighbours hold consecutive digits.
    #[error("neighbours {0} and {1} hold consecutive digits")]
    Consecutive(usize, usize),
}

/// The rules of a sudoku variant: a grid of side `side` (`side²` cells,
/// row-major, digits `1..=side`), its regions (every row and column
/// always, then boxes or jigsaw pieces, then extras in the order added),
/// killer cages, thermometers and the pair rules.
///
/// Overlapping grids ([`Rules::samurai`], [`Rules::overlapping`]) are a
/// square frame of side `side` holding several grids of side
/// [`Rules::digits`]; the frame's cells outside every grid are no cells of
/// the puzzle ([`Rules::is_cell`] is false): they take no digit (0 in
/// puzzles and solutions) and no rule names them.
///
/// ```
/// use cover_models::sudoku::variant::Rules;
/// let x = Rules::classic(9).with_diagonals();
/// assert_eq!(x.regions().len(), 29);
/// let killer = Rules::classic(4).with_cage(&[0, 1], Some(3)).unwrap();
/// assert_eq!(killer.cages()[0].sum, Some(3));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    side: usize,
    /// Digits are `1..=digits`: `side`, but a grid's side in overlapping
    /// grids.
    digits: usize,
    /// Overlapping grids: the top-left cell (row, column) of each grid of
    /// side `digits`; empty for one grid filling the frame.
    grids: Vec<(usize, usize)>,
    /// Per cell of the frame, whether it is a cell of the puzzle; empty
    /// when every cell is.
    is_cell: Vec<bool>,
    regions: Vec<Vec<usize>>,
    cages: Vec<Cage>,
    thermos: Vec<Vec<usize>>,
    anti_knight: bool,
    anti_king: bool,
    non_consecutive: bool,
}

/// The box shape (rows, columns) of [`Rules::classic`] for `side`.
pub fn classic_box(side: usize) -> Option<(usize, usize)> {
    match side {
        1 => Some((1, 1)),
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        8 => Some((2, 4)),
        9 => Some((3, 3)),
        10 => Some((2, 5)),
        12 => Some((3, 4)),
        16 => Some((4, 4)),
        25 => Some((5, 5)),
        36 => Some((6, 6)),
        49 => Some((7, 7)),
        64 => Some((8, 8)),
        _ => None,
    }
}

impl Rules {
    /// Rows and columns only (a Latin square).
    pub fn latin(side: usize) -> Result<Rules, RulesError> {
        if side == 0 || side > MAX_SIDE {
            return Err(RulesError::BadSide(side));
        }
        let mut regions = Vec::with_capacity(2 * side);
        for r in 0..side {
            regions.push((0..side).map(|c| r * side + c).collect());
        }
        for c in 0..side {
            regions.push((0..side).map(|r| r * side + c).collect());
        }
        Ok(Rules {
            side,
            digits: side,
            grids: Vec::new(),
            is_cell: Vec::new(),
            regions,
            cages: Vec::new(),
            thermos: Vec::new(),
            anti_knight: false,
            anti_king: false,
            non_consecutive: false,
        })
    }

    /// The classic sudoku of `side`: square boxes for 4, 9, 16, 25 (and
    /// 36, 49, 64), rectangular boxes of 2×3 (2 rows, 3 columns) for 6,
    /// 2×4 for 8, 2×5 for 10 and 3×4 for 12 (see [`classic_box`]).
    ///
    /// # Panics
    /// For a side without a classic box shape; [`Rules::boxes`] is the
    /// fallible form.
    pub fn classic(side: usize) -> Rules {
        let (rows, cols) = classic_box(side)
            .unwrap_or_else(|| panic!("no classic box shape for side {side}; use Rules::boxes"));
        Rules::boxes(side, rows, cols).expect("the classic shapes tile their grids")
    }

    /// Rows, columns and boxes of `rows` rows by `cols` columns
    /// (`rows · cols == side`).
    pub fn boxes(side: usize, rows: usize, cols: usize) -> Result<Rules, RulesError> {
        let mut rules = Rules::latin(side)?;
        if rows == 0 || cols == 0 || rows * cols != side {
            return Err(RulesError::BadBoxes { side, rows, cols });
        }
        for band in 0..side / rows {
            for stack in 0..side / cols {
                let mut cells = Vec::with_capacity(side);
                for r in band * rows..(band + 1) * rows {
                    for c in stack * cols..(stack + 1) * cols {
                        cells.push(r * side + c);
                    }
                }
                rules.regions.push(cells);
            }
        }
        Ok(rules)
    }

    /// Rows, columns and irregular pieces: `region_of_each_cell[cell]` is
    /// the piece of each cell (any numbers; each piece must have `side`
    /// cells and be orthogonally connected). Pieces are added in the order
    /// of their first cell.
    pub fn jigsaw(side: usize, region_of_each_cell: &[usize]) -> Result<Rules, RulesError> {
        let mut rules = Rules::latin(side)?;
        let cells = side * side;
        if region_of_each_cell.len() != cells {
            return Err(RulesError::LayoutLength {
                expected: cells,
                got: region_of_each_cell.len(),
            });
        }
        let mut order: Vec<usize> = Vec::new();
        let mut pieces: std::collections::HashMap<usize, Vec<usize>> = Default::default();
        for (cell, &piece) in region_of_each_cell.iter().enumerate() {
            pieces
                .entry(piece)
                .or_insert_with(|| {
                    order.push(piece);
                    Vec::new()
                })
                .push(cell);
        }
        for &piece in &order {
            let members = &pieces[&piece];
            if members.len() != side {
                return Err(RulesError::PieceSize {
                    piece,
                    cells: members.len(),
                    side,
                });
            }
            // Flood fill from the first cell within the piece.
            let mut seen = vec![false; cells];
            let mut stack = vec![members[0]];
            seen[members[0]] = true;
            let mut reached = 0;
            while let Some(cell) = stack.pop() {
                reached += 1;
                for next in rules.orthogonal(cell) {
                    if !seen[next] && region_of_each_cell[next] == piece {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            if reached != side {
                return Err(RulesError::PieceNotConnected(piece));
            }
            rules.regions.push(members.clone());
        }
        Ok(rules)
    }

    /// Samurai: five 9×9 sudoku (rows, columns, 3×3 boxes) in a 21×21
    /// frame, at the top left (row 0, column 0), top right (0, 12), centre
    /// (6, 6), bottom left (12, 0) and bottom right (12, 12); the centre
    /// grid shares a corner box with each of the others. The frame's other
    /// 72 cells are no cells of the puzzle. Regions: each grid's rows,
    /// columns and boxes in that order, grid by grid, a shared box once.
    pub fn samurai() -> Rules {
        Rules::overlapping(21, 3, 3, &SAMURAI_GRIDS).expect("the Samurai grids fit their frame")
    }

    /// Overlapping grids (Samurai and its kin): a frame of side `side`
    /// holding a classic grid of side `box_rows · box_cols` (rows, columns,
    /// boxes of `box_rows` by `box_cols`) with its top-left cell at each
    /// `(row, column)` of `grids`. Cells of the frame in no grid are no
    /// cells of the puzzle; regions are each grid's rows, columns and
    /// boxes, grid by grid, a region two grids share once.
    pub fn overlapping(
        side: usize,
        box_rows: usize,
        box_cols: usize,
        grids: &[(usize, usize)],
    ) -> Result<Rules, RulesError> {
        if side == 0 || side > MAX_SIDE {
            return Err(RulesError::BadSide(side));
        }
        let digits = box_rows * box_cols;
        if box_rows == 0 || box_cols == 0 || digits > side {
            return Err(RulesError::BadBoxes {
                side,
                rows: box_rows,
                cols: box_cols,
            });
        }
        if grids.is_empty() {
            return Err(RulesError::NoGrids);
        }
        let mut is_cell = vec![false; side * side];
        let mut regions: Vec<Vec<usize>> = Vec::new();
        let mut seen: HashSet<Vec<usize>> = HashSet::new();
        for &(row, col) in grids {
            if row + digits > side || col + digits > side {
                return Err(RulesError::GridOutside {
                    row,
                    col,
                    digits,
                    side,
                });
            }
            let at = |r: usize, c: usize| (row + r) * side + col + c;
            let mut grid_regions: Vec<Vec<usize>> = Vec::with_capacity(3 * digits);
            for r in 0..digits {
                grid_regions.push((0..digits).map(|c| at(r, c)).collect());
            }
            for c in 0..digits {
                grid_regions.push((0..digits).map(|r| at(r, c)).collect());
            }
            for band in 0..box_cols {
                for stack in 0..box_rows {
                    let cells = (0..box_rows)
                        .flat_map(|r| {
                            (0..box_cols)
                                .map(move |c| at(band * box_rows + r, stack * box_cols + c))
                        })
                        .collect();
                    grid_regions.push(cells);
                }
            }
            for region in grid_regions {
                for &cell in &region {
                    is_cell[cell] = true;
                }
                // A region of two grids (a shared box) is one region.
                let mut key = region.clone();
                key.sort_unstable();
                if seen.insert(key) {
                    regions.push(region);
                }
            }
        }
        Ok(Rules {
            side,
            digits,
            grids: grids.to_vec(),
            is_cell,
            regions,
            cages: Vec::new(),
            thermos: Vec::new(),
            anti_knight: false,
            anti_king: false,
            non_consecutive: false,
        })
    }

    /// Adds both main diagonals as regions (X-sudoku); with overlapping
    /// grids, both diagonals of each grid.
    pub fn with_diagonals(mut self) -> Rules {
        let (s, d) = (self.side, self.digits);
        for (row, col) in self.grid_origins() {
            let at = |r: usize, c: usize| (row + r) * s + col + c;
            self.regions.push((0..d).map(|i| at(i, i)).collect());
            self.regions
                .push((0..d).map(|i| at(i, d - 1 - i)).collect());
        }
        self
    }

    /// Adds the four windows of windoku (hyper sudoku): the 3×3 squares at
    /// rows and columns 1–3 and 5–7 (from 0). 9×9 only; with overlapping
    /// grids of 9 digits, the four windows of each grid.
    pub fn with_windows(mut self) -> Result<Rules, RulesError> {
        if self.digits != 9 {
            return Err(RulesError::WindowsSize(self.digits));
        }
        let s = self.side;
        for (row, col) in self.grid_origins() {
            for top in [1, 5] {
                for left in [1, 5] {
                    let cells = (top..top + 3)
                        .flat_map(|r| (left..left + 3).map(move |c| (row + r) * s + col + c))
                        .collect();
                    self.regions.push(cells);
                }
            }
        }
        Ok(self)
    }

    /// The top-left cell of each grid: `(0, 0)` alone for one grid.
    fn grid_origins(&self) -> Vec<(usize, usize)> {
        if self.grids.is_empty() {
            vec![(0, 0)]
        } else {
            self.grids.clone()
        }
    }

    /// Adds a region of at most `side` cells whose digits differ (a full
    /// one must then hold every digit).
    pub fn with_region(mut self, cells: &[usize]) -> Result<Rules, RulesError> {
        self.check_cells("a region", cells, true)?;
        self.regions.push(cells.to_vec());
        Ok(self)
    }

    /// Adds a killer cage: distinct digits, summing to `sum` when given.
    pub fn with_cage(mut self, cells: &[usize], sum: Option<u32>) -> Result<Rules, RulesError> {
        self.check_cells("a cage", cells, true)?;
        if let Some(sum) = sum {
            let k = cells.len() as u32;
            let s = self.digits as u32;
            let min = k * (k + 1) / 2;
            let max = k * s - k * (k - 1) / 2;
            if sum < min || sum > max {
                return Err(RulesError::ImpossibleSum {
                    cells: cells.len(),
                    sum,
                    side: self.digits,
                    min,
                    max,
                });
            }
        }
        self.cages.push(Cage {
            cells: cells.to_vec(),
            sum,
        });
        Ok(self)
    }

    /// Adds a thermometer: digits strictly increase from the bulb
    /// (`cells[0]`) along the cells, each touching the next (orthogonally
    /// or diagonally).
    pub fn with_thermo(mut self, cells: &[usize]) -> Result<Rules, RulesError> {
        self.check_cells("a thermometer", cells, true)?;
        for pair in cells.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ra, ca) = (a / self.side, a % self.side);
            let (rb, cb) = (b / self.side, b % self.side);
            if ra.abs_diff(rb) > 1 || ca.abs_diff(cb) > 1 {
                return Err(RulesError::ThermoGap(a, b));
            }
        }
        self.thermos.push(cells.to_vec());
        Ok(self)
    }

    /// Cells a knight's move apart differ.
    pub fn with_anti_knight(mut self) -> Rules {
        self.anti_knight = true;
        self
    }

    /// Cells a king's move apart (diagonal neighbours included) differ.
    pub fn with_anti_king(mut self) -> Rules {
        self.anti_king = true;
        self
    }

    /// Orthogonal neighbours do not hold consecutive digits.
    pub fn with_non_consecutive(mut self) -> Rules {
        self.non_consecutive = true;
        self
    }

    /// The side (digits `1..=side`, `side²` cells); for overlapping grids,
    /// the frame's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The digits are `1..=digits()`: the side, or a grid's side for
    /// overlapping grids (9 for Samurai).
    pub fn digits(&self) -> usize {
        self.digits
    }

    /// The cells of the frame, `side²` (a puzzle's and a solution's
    /// length), holes of overlapping grids included.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Whether `cell` (below [`Rules::cells`]) is a cell of the puzzle:
    /// false only for the frame's cells outside every grid of overlapping
    /// grids, which take no digit.
    pub fn is_cell(&self, cell: usize) -> bool {
        self.is_cell
            .get(cell)
            .copied()
            .unwrap_or(self.is_cell.is_empty() && cell < self.cells())
    }

    /// For overlapping grids, the top-left cell (row, column) of each grid
    /// of side [`Rules::digits`]; empty for one grid filling the frame.
    pub fn grids(&self) -> &[(usize, usize)] {
        &self.grids
    }

    /// Every region, rows and columns first, then boxes or pieces, then
    /// the extras in the order added.
    pub fn regions(&self) -> &[Vec<usize>] {
        &self.regions
    }

    /// The killer cages in the order added.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The thermometers, bulb first.
    pub fn thermos(&self) -> &[Vec<usize>] {
        &self.thermos
    }

    /// Whether anti-knight applies.
    pub fn anti_knight(&self) -> bool {
        self.anti_knight
    }

    /// Whether anti-king applies.
    pub fn anti_king(&self) -> bool {
        self.anti_king
    }

    /// Whether non-consecutive applies.
    pub fn non_consecutive(&self) -> bool {
        self.non_consecutive
    }

    /// The pairs `(a, b)`, `a < b`, that anti-knight and anti-king forbid
    /// to be equal (all of them, sharing a region or not; both cells of
    /// the puzzle).
    pub fn pair_rules(&self) -> Vec<(usize, usize)> {
        let mut moves: Vec<(isize, isize)> = Vec::new();
        if self.anti_knight {
            moves.extend([(1, 2), (2, 1), (1, -2), (2, -1)]);
        }
        if self.anti_king {
            moves.extend([(0, 1), (1, 0), (1, 1), (1, -1)]);
        }
        let s = self.side as isize;
        let mut pairs = Vec::new();
        for r in 0..s {
            for c in 0..s {
                for &(dr, dc) in &moves {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..s).contains(&r2) && (0..s).contains(&c2) {
                        let (a, b) = ((r * s + c) as usize, (r2 * s + c2) as usize);
                        if self.is_cell(a) && self.is_cell(b) {
                            pairs.push((a.min(b), a.max(b)));
                        }
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The orthogonal neighbour pairs `(a, b)`, `a < b` (both cells of
    /// the puzzle).
    pub fn neighbours(&self) -> Vec<(usize, usize)> {
        let s = self.side;
        let mut pairs = Vec::new();
        for r in 0..s {
            for c in 0..s {
                let a = r * s + c;
                if c + 1 < s && self.is_cell(a) && self.is_cell(a + 1) {
                    pairs.push((a, a + 1));
                }
                if r + 1 < s && self.is_cell(a) && self.is_cell(a + s) {
                    pairs.push((a, a + s));
                }
            }
        }
        pairs
    }

    /// Checks a full grid (`side²` digits; 0 exactly outside the grids of
    /// overlapping grids) against every rule.
    pub fn check(&self, grid: &[u8]) -> Result<(), Violation> {
        let d = self.digits;
        if grid.len() != self.cells() {
            return Err(Violation::Cell(grid.len().min(self.cells())));
        }
        let wrong = |(cell, &digit): (usize, &u8)| {
            if self.is_cell(cell) {
                digit == 0 || digit as usize > d
            } else {
                digit != 0
            }
        };
        if let Some(cell) = grid.iter().enumerate().position(wrong) {
            return Err(Violation::Cell(cell));
        }
        let distinct = |cells: &[usize]| {
            let mut seen = 0u128;
            cells.iter().all(|&c| {
                let bit = 1u128 << grid[c];
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        };
        for (i, region) in self.regions.iter().enumerate() {
            if !distinct(region) {
                return Err(Violation::Region(i));
            }
        }
        for (i, cage) in self.cages.iter().enumerate() {
            let total: u32 = cage.cells.iter().map(|&c| grid[c] as u32).sum();
            if !distinct(&cage.cells) || cage.sum.is_some_and(|sum| sum != total) {
                return Err(Violation::Cage(i));
            }
        }
        for (i, thermo) in self.thermos.iter().enumerate() {
            if thermo.windows(2).any(|w| grid[w[0]] >= grid[w[1]]) {
                return Err(Violation::Thermo(i));
            }
        }
        for (a, b) in self.pair_rules() {
            if grid[a] == grid[b] {
                return Err(Violation::Pair(a, b));
            }
        }
        if self.non_consecutive {
            for (a, b) in self.neighbours() {
                if grid[a].abs_diff(grid[b]) == 1 {
                    return Err(Violation::Consecutive(a, b));
                }
            }
        }
        Ok(())
    }

    fn orthogonal(&self, cell: usize) -> impl Iterator<Item = usize> {
        let s = self.side;
        let (r, c) = (cell / s, cell % s);
        let up = (r > 0).then(|| cell - s);
        let down = (r + 1 < s).then(|| cell + s);
        let left = (c > 0).then(|| cell - 1);
        let right = (c + 1 < s).then(|| cell + 1);
        [up, down, left, right].into_iter().flatten()
    }

    fn check_cells(
        &self,
        what: &'static str,
        cells: &[usize],
        at_most_side: bool,
    ) -> Result<(), RulesError> {
        if cells.is_empty() {
            return Err(RulesError::Empty(what));
        }
        let total = self.cells();
        let mut seen = HashSet::new();
        for &cell in cells {
            if cell >= total {
                return Err(RulesError::CellOutOfRange {
                    what,
                    cell,
                    cells: total,
                });
            }
            if !self.is_cell(cell) {
                return Err(RulesError::NotACell { what, cell });
            }
            if !seen.insert(cell) {
                return Err(RulesError::RepeatedCell { what, cell });
            }
        }
        if at_most_side && cells.len() > self.digits {
            return Err(RulesError::TooManyCells {
                what,
                cells: cells.len(),
                side: self.digits,
            });
        }
        Ok(())
    }
}

/// A group of cells tied by cages with sums and thermometers.
#[derive(Debug, Clone)]
struct Group {
    cells: Vec<usize>,
    /// Indices into `Rules::cages` (with a sum).
    cages: Vec<usize>,
    /// Indices into `Rules::thermos`.
    thermos: Vec<usize>,
}

/// The exact-cover problem of one puzzle under some rules, and its engine.
///
/// ```
/// use cover_models::sudoku::variant::{Rules, VariantSolver};
/// use dlx_core::Limits;
/// let rules = Rules::classic(4);
/// let mut solver = VariantSolver::new(&rules, &[0; 16]).unwrap();
/// let report = solver.count(&Limits::none());
/// assert_eq!(report.stats.solutions, 288);
/// ```
#[derive(Debug)]
pub struct VariantSolver {
    rules: Rules,
    problem: Problem,
    engine: Engine,
    /// Option `o`'s placements are `placements[starts[o]..starts[o + 1]]`.
    starts: Vec<usize>,
    placements: Vec<(u16, u8)>,
    /// Groups that fell back to single-cell options: their cages (with
    /// sums) and thermometers are checked on each solution.
    checked_cages: Vec<usize>,
    checked_thermos: Vec<usize>,
    /// Whether the givens alone already break a rule no option carries.
    dead: bool,
    /// The propagator of sums and thermometers ([`SumEncoding::Propagated`]),
    /// kept to be rebuilt for the reordered problems of restarts.
    sums: Option<SumPropagator>,
    /// Rules of the caller's own ([`VariantSolver::add_rule`]).
    own: Vec<OwnRule>,
}

/// The check of a grid by a rule of the caller's own.
type GridCheck = Box<dyn Fn(&[u8]) -> bool + Send + Sync>;

/// A rule added by [`VariantSolver::add_rule`].
struct OwnRule {
    propagator: Box<dyn Propagator>,
    check: GridCheck,
}

impl std::fmt::Debug for OwnRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OwnRule(..)")
    }
}

/// Propagators run one after the other at each node; the first that
/// names an item to branch on decides.
struct Chain(Vec<Box<dyn Propagator>>);

impl Propagator for Chain {
    fn begin(&mut self) {
        self.0.iter_mut().for_each(|p| p.begin());
    }

    fn propagate(&mut self, domain: &mut dyn dlx_core::Domain) -> dlx_core::Verdict {
        for p in &mut self.0 {
            if p.propagate(domain) == dlx_core::Verdict::Dead {
                return dlx_core::Verdict::Dead;
            }
        }
        dlx_core::Verdict::Live
    }

    fn choose(&mut self, domain: &dyn dlx_core::Domain) -> Option<usize> {
        self.0.iter_mut().find_map(|p| p.choose(domain))
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(Chain(self.0.iter().map(|p| p.box_clone()).collect()))
    }
}

/// How a [`VariantSolver`] encodes killer cages' sums and thermometers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SumEncoding {
    /// Single-cell options, with a propagator on dlx-core's hook that
    /// narrows the cells of each cage to the digits its sum allows, and
    /// those of each thermometer to its order (see the module's docs);
    /// each solution is checked too. The default when there are any.
    Propagated,
    /// One option per assignment of digits to a whole group of cages and
    /// thermometers, up to `group_cap` per group (see the module's docs).
    Enumerated {
        /// The most assignments of one group.
        group_cap: usize,
    },
}

impl VariantSolver {
    /// Builds the problem of `puzzle` (`side²` cells, 0 empty) under
    /// `rules`, with the default [`GROUP_CAP`].
    pub fn new(rules: &Rules, puzzle: &[u8]) -> Result<VariantSolver, RulesError> {
        let summed = rules.cages.iter().any(|c| c.sum.is_some());
        let encoding = if summed || !rules.thermos.is_empty() {
            SumEncoding::Propagated
        } else {
            SumEncoding::Enumerated {
                group_cap: GROUP_CAP,
            }
        };
        VariantSolver::with_encoding(rules, puzzle, encoding)
    }

    /// [`VariantSolver::new`] with at most `cap` whole-group options per
    /// group of cages and thermometers; a group with more falls back to
    /// single-cell options checked on each solution (0: every group does).
    pub fn with_group_cap(
        rules: &Rules,
        puzzle: &[u8],
        cap: usize,
    ) -> Result<VariantSolver, RulesError> {
        VariantSolver::with_encoding(rules, puzzle, SumEncoding::Enumerated { group_cap: cap })
    }

    /// The problem of `puzzle` under `rules` with sums and thermometers
    /// encoded as `encoding` says (the answers are the same either way).
    pub fn with_encoding(
        rules: &Rules,
        puzzle: &[u8],
        encoding: SumEncoding,
    ) -> Result<VariantSolver, RulesError> {
        let (propagated, cap) = match encoding {
            SumEncoding::Propagated => (true, 0),
            SumEncoding::Enumerated { group_cap } => (false, group_cap),
        };
        let side = rules.digits;
        let cells = rules.cells();
        if puzzle.len() != cells {
            return Err(RulesError::PuzzleLength {
                expected: cells,
                got: puzzle.len(),
            });
        }
        for (cell, &digit) in puzzle.iter().enumerate() {
            if digit != 0 && !rules.is_cell(cell) {
                return Err(RulesError::DigitOutsideGrids { cell, digit });
            }
            if digit as usize > side {
                return Err(RulesError::DigitOutOfRange { cell, digit, side });
            }
        }
        let Encoding {
            primary,
            secondary,
            items,
            cage_items,
        } = encode(rules);
        let item_count = primary + secondary;
        let items_of = |cell: usize, digit: u8| &items[cell * side + digit as usize - 1];

        // Items taken by each given, and by which cell.
        let mut taken_by: Vec<Option<usize>> = vec![None; item_count];
        for (cell, &digit) in puzzle.iter().enumerate() {
            if digit != 0 {
                for &item in items_of(cell, digit) {
                    taken_by[item as usize] = Some(cell);
                }
            }
        }
        let allowed = |cell: usize, digit: u8| -> bool {
            let given = puzzle[cell];
            if given != 0 {
                return given == digit;
            }
            items_of(cell, digit)
                .iter()
                .all(|&item| taken_by[item as usize].is_none_or(|owner| owner == cell))
        };

        // Propagated: every cell gets single-cell options, the rules of
        // sums and thermometers are the propagator's and each solution's.
        let groups = if propagated {
            Vec::new()
        } else {
            groups(rules)
        };
        let assignments: Vec<Option<Vec<Vec<u8>>>> = groups
            .iter()
            .map(|group| enumerate_group(rules, group, &items, side, &allowed, cap))
            .collect();
        // A lone cage with a sum past the cap gets its combinations (see the
        // module's docs) when they are few enough, rather than checks.
        let combinations: Vec<(usize, Vec<u64>)> = groups
            .iter()
            .zip(&assignments)
            .filter(|(group, enumerated)| enumerated.is_none() && group.thermos.is_empty())
            .filter_map(|(group, _)| {
                let [cage] = group.cages[..] else { return None };
                let c = &rules.cages[cage];
                let sum = c.sum.expect("a group's cage has a sum");
                digit_sets(side, c.cells.len(), sum, cap).map(|sets| (cage, sets))
            })
            .collect();
        let combined: HashSet<usize> = combinations.iter().map(|&(cage, _)| cage).collect();
        // The combination items go after the other primary items.
        let extra = combinations.len();
        let shift = |item: usize| if item < primary { item } else { item + extra };
        let mut in_group = vec![false; cells];
        let mut builder = Problem::builder(primary + extra, secondary);
        let mut starts = vec![0];
        let mut placements: Vec<(u16, u8)> = Vec::new();
        let mut checked_cages = Vec::new();
        let mut checked_thermos = Vec::new();
        let mut dead = false;
        let mut option_items: Vec<usize> = Vec::new();

        for (j, (cage, sets)) in combinations.iter().enumerate() {
            let first = cage_items[*cage];
            for &set in sets {
                // The digits outside the set, which no cell of the cage may take.
                let outside = (1..=side).filter(|d| set & (1 << (d - 1)) == 0);
                let covered: Vec<usize> = outside.map(|d| first + d - 1).collect();
                if covered.iter().any(|&item| taken_by[item].is_some()) {
                    continue;
                }
                builder
                    .add_option(
                        std::iter::once(primary + j).chain(covered.iter().map(|&i| shift(i))),
                    )
                    .expect("a combination's items are distinct");
                starts.push(placements.len());
            }
        }
        for (group, assignments) in groups.iter().zip(assignments) {
            match assignments {
                Some(assignments) => {
                    for cell in &group.cells {
                        in_group[*cell] = true;
                    }
                    if assignments.is_empty() {
                        dead = true;
                    }
                    for digits in assignments {
                        option_items.clear();
                        for (&cell, &digit) in group.cells.iter().zip(&digits) {
                            option_items
                                .extend(items_of(cell, digit).iter().map(|&i| shift(i as usize)));
                            placements.push((cell as u16, digit));
                        }
                        builder
                            .add_option(option_items.iter().copied())
                            .expect("the enumeration keeps items distinct");
                        starts.push(placements.len());
                    }
                }
                None if group.cages.iter().all(|cage| combined.contains(cage))
                    && group.thermos.is_empty() => {}
                None => {
                    checked_cages.extend(&group.cages);
                    checked_thermos.extend(&group.thermos);
                }
            }
        }
        for (cell, &grouped) in in_group.iter().enumerate() {
            if grouped || !rules.is_cell(cell) {
                continue;
            }
            for digit in 1..=side as u8 {
                if allowed(cell, digit) {
                    builder
                        .add_option(items_of(cell, digit).iter().map(|&i| shift(i as usize)))
                        .expect("a placement's items are distinct");
                    placements.push((cell as u16, digit));
                    starts.push(placements.len());
                }
            }
        }
        let problem = builder.build();
        let sums = propagated.then(|| {
            checked_cages.extend((0..rules.cages.len()).filter(|&i| rules.cages[i].sum.is_some()));
            checked_thermos.extend(0..rules.thermos.len());
            SumPropagator::new(
                &problem,
                placements.clone(),
                side,
                propagated_sums(rules),
                rules.thermos.clone(),
                rules.regions.clone(),
            )
        });
        let engine = Engine::new(
            &problem,
            sums.clone().map(|s| Box::new(s) as Box<dyn Propagator>),
        );
        Ok(VariantSolver {
            rules: rules.clone(),
            problem,
            engine,
            starts,
            placements,
            checked_cages,
            checked_thermos,
            dead,
            sums,
            own: Vec::new(),
        })
    }

    /// The exact-cover problem built.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The cells and digits `option` of [`VariantSolver::problem`] places:
    /// one for a single-cell option, a group's for a whole-group one.
    pub fn placements(&self, option: usize) -> &[(u16, u8)] {
        &self.placements[self.starts[option]..self.starts[option + 1]]
    }

    /// Adds a rule of the caller's own: `propagator` runs at every
    /// branching node after the solver's own reasoning, on the options of
    /// [`VariantSolver::problem`] ([`VariantSolver::placements`] says what
    /// each places; dlx-core's `Domain::chosen` which were chosen), and
    /// `check` must accept every solution grid, as forced moves are taken
    /// without the propagator. A search with rules of one's own does not
    /// restart.
    ///
    /// ```
    /// use cover_models::sudoku::variant::{Rules, VariantSolver};
    /// use dlx_core::{Domain, Propagator, Verdict};
    ///
    /// /// Cells 0 and 1 hold even digits.
    /// #[derive(Clone)]
    /// struct Even(Vec<usize>);
    /// impl Propagator for Even {
    ///     fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
    ///         self.0.iter().for_each(|&o| domain.remove(o));
    ///         Verdict::Live
    ///     }
    ///     fn box_clone(&self) -> Box<dyn Propagator> {
    ///         Box::new(self.clone())
    ///     }
    /// }
    ///
    /// let rules = Rules::classic(4);
    /// let mut solver = VariantSolver::new(&rules, &[0; 16]).unwrap();
    /// let odd: Vec<usize> = (0..solver.problem().option_count())
    ///     .filter(|&o| solver.placements(o).iter().any(|&(c, d)| c < 2 && d % 2 == 1))
    ///     .collect();
    /// solver.add_rule(Box::new(Even(odd)), |grid| grid[0] % 2 == 0 && grid[1] % 2 == 0);
    /// let grid = solver.first().unwrap();
    /// assert_eq!((grid[0] % 2, grid[1] % 2), (0, 0));
    /// // {2, 4} in either order: a sixth of the 288 grids.
    /// assert_eq!(solver.count(&dlx_core::Limits::none()).stats.solutions, 48);
    /// ```
    pub fn add_rule(
        &mut self,
        propagator: Box<dyn Propagator>,
        check: impl Fn(&[u8]) -> bool + Send + Sync + 'static,
    ) {
        self.own.push(OwnRule {
            propagator,
            check: Box::new(check),
        });
        self.engine = Engine::new(&self.problem, self.chain(None));
    }

    /// The solver's propagator, with the caller's rules after it:
    /// `sums` in place of the solver's own sums when given (for a
    /// reordered problem).
    fn chain(&self, sums: Option<SumPropagator>) -> Option<Box<dyn Propagator>> {
        let sums = sums.or_else(|| self.sums.clone());
        let mut all: Vec<Box<dyn Propagator>> = Vec::new();
        all.extend(sums.map(|s| Box::new(s) as Box<dyn Propagator>));
        all.extend(self.own.iter().map(|rule| rule.propagator.box_clone()));
        match all.len() {
            0 => None,
            1 => all.pop(),
            _ => Some(Box::new(Chain(all))),
        }
    }

    /// Whether some group fell back to single-cell options (its sums and
    /// thermometers checked on each solution only); never so when they
    /// are propagated.
    pub fn has_fallback(&self) -> bool {
        self.sums.is_none() && (!self.checked_cages.is_empty() || !self.checked_thermos.is_empty())
    }

    /// Streams every solution grid to `visitor` within `limits`. The
    /// report's `stats.solutions` counts the grids handed over (solutions
    /// dropped by a fallback group's check are not counted, and
    /// `max_solutions` counts grids too).
    ///
    /// When one grid is asked for (`max_solutions` 1) under anti-knight or
    /// anti-king, the search restarts (see [`RESTART_NODES`]): the first
    /// run is the plain search, each
    /// later one tries the options in another (seeded, so repeatable)
    /// order; the grid found is a solution, not always the plain search's
    /// first. Nodes of all runs count toward the node budget.
    pub fn search<F: FnMut(&[u8]) -> Control>(
        &mut self,
        limits: &Limits,
        mut visitor: F,
    ) -> Report {
        let max = limits.max_solutions;
        if self.dead || max == Some(0) {
            return Report::new(
                if self.dead {
                    Outcome::Exhausted
                } else {
                    Outcome::SolutionLimit
                },
                Stats::default(),
            );
        }
        // Restarts where they were measured to pay (see RESTART_NODES).
        let restarts = max == Some(1)
            && (self.rules.anti_knight || self.rules.anti_king)
            && self.own.is_empty();
        let mut grid = vec![0u8; self.rules.cells()];
        let mut found = 0u64;
        let mut hit_limit = false;
        let mut user_stop = false;
        let mut stats = Stats::default();
        let Self {
            rules,
            problem,
            engine,
            starts,
            placements,
            checked_cages,
            checked_thermos,
            sums,
            own,
            ..
        } = self;
        let mut shuffled: Option<(Engine, Vec<usize>)> = None;
        let mut rng = ChaCha8Rng::seed_from_u64(36);
        let mut run = 1u64;
        let outcome = loop {
            let user_left = limits.node_budget.map(|b| b.saturating_sub(stats.nodes));
            let restart_at = restarts.then(|| RESTART_NODES * luby(run));
            let budget = match (user_left, restart_at) {
                (Some(user), Some(restart)) => Some(user.min(restart)),
                (user, restart) => user.or(restart),
            };
            let run_limits = limits
                .clone()
                .with_max_solutions(None)
                .with_node_budget(budget);
            let (engine, order) = match &mut shuffled {
                None => (&mut *engine, None),
                Some((engine, order)) => (engine, Some(order.as_slice())),
            };
            let mut visit = |options: &[usize]| {
                for &option in options {
                    let option = order.map_or(option, |order| order[option]);
                    for &(cell, digit) in &placements[starts[option]..starts[option + 1]] {
                        grid[cell as usize] = digit;
                    }
                }
                let cages_ok = checked_cages.iter().all(|&i| {
                    let cage = &rules.cages[i];
                    let total: u32 = cage.cells.iter().map(|&c| grid[c] as u32).sum();
                    cage.sum.is_none_or(|sum| sum == total)
                });
                let thermos_ok = checked_thermos
                    .iter()
                    .all(|&i| rules.thermos[i].windows(2).all(|w| grid[w[0]] < grid[w[1]]));
                let own_ok = own.iter().all(|rule| (rule.check)(&grid));
                if !(cages_ok && thermos_ok && own_ok) {
                    return Control::Continue;
                }
                found += 1;
                if visitor(&grid) == Control::Stop {
                    user_stop = true;
                    return Control::Stop;
                }
                if max.is_some_and(|max| found >= max) {
                    hit_limit = true;
                    return Control::Stop;
                }
                Control::Continue
            };
            let report = engine.search(&run_limits, &mut visit);
            stats += report.stats;
            if hit_limit {
                break Outcome::SolutionLimit;
            }
            if user_stop {
                break Outcome::Stopped;
            }
            let restart = report.outcome == Outcome::NodeBudget
                && restart_at.is_some_and(|restart| user_left.is_none_or(|user| user > restart));
            if !restart {
                break report.outcome;
            }
            // Another run, the options in another order.
            let mut order: Vec<usize> = (0..problem.option_count()).collect();
            order.shuffle(&mut rng);
            let primary = problem.primary_count();
            let mut builder = Problem::builder(primary, problem.item_count() - primary);
            for &option in &order {
                builder
                    .add_option(problem.option(option).iter().map(|&i| i as usize))
                    .expect("the options of a built problem");
            }
            let reordered = builder.build();
            let propagator = sums
                .as_ref()
                .map(|sums| Box::new(sums.reordered(&reordered, &order)) as Box<dyn Propagator>);
            shuffled = Some((Engine::new(&reordered, propagator), order));
            run += 1;
        };
        Report::new(outcome, {
            let mut stats = stats;
            stats.solutions = found;
            stats
        })
    }

    /// Counts the solutions within `limits`.
    pub fn count(&mut self, limits: &Limits) -> Report {
        self.search(limits, |_| Control::Continue)
    }

    /// The first solution, if any (no limits).
    pub fn first(&mut self) -> Option<Vec<u8>> {
        let mut found = None;
        self.search(&Limits::solutions(1), |grid| {
            found = Some(grid.to_vec());
            Control::Stop
        });
        found
    }
}

/// Nodes of the first run of a search for one grid; later runs get this
/// times the Luby sequence (1, 1, 2, 1, 1, 2, 4, …), each with the options
/// in a new order. Restarts are the cure for the heavy tails of a
/// backtracking search: on an empty anti-knight 9×9 the plain search
/// spends millions of nodes under a bad early choice. Only the pair rules
/// anti-knight and anti-king restart: under non-consecutive, options in
/// another order than the digits' searched longer than the plain run.
pub const RESTART_NODES: u64 = 500;

/// The `i`-th term of the Luby sequence (from 1): 1, 1, 2, 1, 1, 2, 4, ….
fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The engine of a [`VariantSolver`]: the compact one where every item has
/// at most 64 options (single-cell options), else the linked one (groups
/// of cages and thermometers have more).
#[derive(Debug)]
enum Engine {
    Compact(Box<CompactSolver>),
    Linked(Box<Solver>),
}

impl Engine {
    fn new(problem: &Problem, propagator: Option<Box<dyn Propagator>>) -> Engine {
        match CompactSolver::new(problem) {
            Ok(mut compact) => {
                compact.set_propagator(propagator);
                Engine::Compact(Box::new(compact))
            }
            Err(_) => {
                let mut linked = Solver::new(problem);
                linked
                    .set_propagator(propagator)
                    .expect("exact cover without colours or bounds");
                Engine::Linked(Box::new(linked))
            }
        }
    }

    fn search(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[usize]) -> Control) -> Report {
        let mut visit = |options: &[usize]| visit(options);
        match self {
            Engine::Compact(compact) => compact.search(&[], limits, &mut visit),
            Engine::Linked(linked) => linked.search(&[], limits, &mut visit),
        }
        .expect("no given options")
    }
}

/// The first solution of `puzzle` under `rules` (`Ok(None)`: none).
pub fn solve_first(rules: &Rules, puzzle: &[u8]) -> Result<Option<Vec<u8>>, RulesError> {
    Ok(VariantSolver::new(rules, puzzle)?.first())
}

/// Counts the solutions of `puzzle` under `rules` within `limits`: the
/// count is `report.stats.solutions`, exact when the outcome is
/// [`Outcome::Exhausted`].
pub fn count(rules: &Rules, puzzle: &[u8], limits: &Limits) -> Result<Report, RulesError> {
    Ok(VariantSolver::new(rules, puzzle)?.count(limits))
}

/// Streams the solutions of `puzzle` under `rules` to `visitor` within
/// `limits` (see [`VariantSolver::search`]).
pub fn search<F: FnMut(&[u8]) -> Control>(
    rules: &Rules,
    puzzle: &[u8],
    limits: &Limits,
    visitor: F,
) -> Result<Report, RulesError> {
    Ok(VariantSolver::new(rules, puzzle)?.search(limits, visitor))
}

/// The cages with sums, then the sums they imply, as the propagator takes
/// them.
fn propagated_sums(rules: &Rules) -> Vec<Sum> {
    let mut sums: Vec<Sum> = rules
        .cages
        .iter()
        .filter_map(|c| {
            c.sum.map(|total| Sum {
                cells: c.cells.clone(),
                total,
                distinct: true,
            })
        })
        .collect();
    let derived = sums::derived_sums(&rules.regions, &sums, rules.digits);
    sums.extend(derived);
    sums
}

/// The sets of `count` distinct digits of `1..=digits` summing to `sum`, as
/// bit masks (digit `d` in bit `d − 1`); `None` past `cap` sets.
fn digit_sets(digits: usize, count: usize, sum: u32, cap: usize) -> Option<Vec<u64>> {
    fn walk(
        next: usize,
        digits: usize,
        left: usize,
        sum: u32,
        set: u64,
        cap: usize,
        out: &mut Vec<u64>,
    ) -> bool {
        if left == 0 {
            if sum == 0 {
                if out.len() == cap {
                    return false;
                }
                out.push(set);
            }
            return true;
        }
        for d in next..=digits {
            // The smallest digits from `d` on are already past the sum.
            let least = (d as u32) * left as u32 + (left as u32 * (left as u32 - 1)) / 2;
            if least > sum {
                break;
            }
            if !walk(
                d + 1,
                digits,
                left - 1,
                sum - d as u32,
                set | 1 << (d - 1),
                cap,
                out,
            ) {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    walk(1, digits, count, sum, 0, cap, &mut out).then_some(out)
}

struct Encoding {
    primary: usize,
    secondary: usize,
    /// `items[cell · digits + digit − 1]`: the items placement covers
    /// (none for a cell outside the grids).
    items: Vec<Vec<u32>>,
    /// The item `(cage, 1)` of each cage; `(cage, d)` follows at `+ d − 1`.
    cage_items: Vec<usize>,
}

fn encode(rules: &Rules) -> Encoding {
    let side = rules.digits;
    let frame = rules.cells();
    // The item of each cell of the puzzle, numbered from 0 over those.
    let mut cells = 0;
    let mut items: Vec<Vec<u32>> = vec![Vec::new(); frame * side];
    for cell in (0..frame).filter(|&c| rules.is_cell(c)) {
        for d in 0..side {
            items[cell * side + d].push(cells as u32);
        }
        cells += 1;
    }
    let full: Vec<&Vec<usize>> = rules.regions.iter().filter(|r| r.len() == side).collect();
    let partial: Vec<&Vec<usize>> = rules.regions.iter().filter(|r| r.len() < side).collect();
    let primary = cells + full.len() * side;
    let at = |cell: usize, digit: usize| cell * side + digit - 1;
    for (i, region) in full.iter().enumerate() {
        for &cell in region.iter() {
            for d in 1..=side {
                items[at(cell, d)].push((cells + i * side + d - 1) as u32);
            }
        }
    }
    let mut next = primary;
    let cage_items = (0..rules.cages.len())
        .map(|c| primary + (partial.len() + c) * side)
        .collect();
    // Cells sharing a region or cage, for skipping redundant pair items.
    let mut shares: HashSet<(usize, usize)> = HashSet::new();
    let groups_of_cells = partial
        .iter()
        .map(|r| r.as_slice())
        .chain(rules.cages.iter().map(|c| c.cells.as_slice()));
    for region in groups_of_cells {
        for &cell in region {
            for d in 1..=side {
                items[at(cell, d)].push((next + d - 1) as u32);
            }
        }
        next += side;
    }
    let pairs = rules.pair_rules();
    if !pairs.is_empty() {
        for region in rules
            .regions
            .iter()
            .map(|r| r.as_slice())
            .chain(rules.cages.iter().map(|c| c.cells.as_slice()))
        {
            for (i, &a) in region.iter().enumerate() {
                for &b in &region[i + 1..] {
                    shares.insert((a.min(b), a.max(b)));
                }
            }
        }
    }
    for (a, b) in pairs {
        if shares.contains(&(a, b)) {
            continue;
        }
        for d in 1..=side {
            items[at(a, d)].push(next as u32);
            items[at(b, d)].push(next as u32);
            next += 1;
        }
    }
    if rules.non_consecutive {
        for (a, b) in rules.neighbours() {
            for d in 1..side {
                items[at(a, d)].push(next as u32);
                items[at(b, d + 1)].push(next as u32);
                items[at(a, d + 1)].push(next as u32 + 1);
                items[at(b, d)].push(next as u32 + 1);
                next += 2;
            }
        }
    }
    Encoding {
        primary,
        secondary: next - primary,
        items,
        cage_items,
    }
}

/// The groups of cells tied by cages with sums and thermometers (union-find).
fn groups(rules: &Rules) -> Vec<Group> {
    let cells = rules.cells();
    let mut parent: Vec<usize> = (0..cells).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut tied = vec![false; cells];
    let tying = rules
        .cages
        .iter()
        .filter(|c| c.sum.is_some())
        .map(|c| &c.cells)
        .chain(rules.thermos.iter());
    for cells_of in tying {
        for &c in cells_of {
            tied[c] = true;
            let (a, b) = (find(&mut parent, cells_of[0]), find(&mut parent, c));
            parent[a] = b;
        }
    }
    let mut index: Vec<Option<usize>> = vec![None; cells];
    let mut groups: Vec<Group> = Vec::new();
    for (cell, &is_tied) in tied.iter().enumerate() {
        if is_tied {
            let root = find(&mut parent, cell);
            let g = *index[root].get_or_insert_with(|| {
                groups.push(Group {
                    cells: Vec::new(),
                    cages: Vec::new(),
                    thermos: Vec::new(),
                });
                groups.len() - 1
            });
            groups[g].cells.push(cell);
        }
    }
    for (i, cage) in rules.cages.iter().enumerate() {
        if cage.sum.is_some() {
            let root = find(&mut parent, cage.cells[0]);
            groups[index[root].expect("tied")].cages.push(i);
        }
    }
    for (i, thermo) in rules.thermos.iter().enumerate() {
        let root = find(&mut parent, thermo[0]);
        groups[index[root].expect("tied")].thermos.push(i);
    }
    groups
}

/// Every assignment of digits to `group.cells` (in that order) that keeps
/// the rules inside the group and uses only `allowed` placements; `None`
/// past `cap` assignments.
fn enumerate_group(
    rules: &Rules,
    group: &Group,
    items: &[Vec<u32>],
    side: usize,
    allowed: &dyn Fn(usize, u8) -> bool,
    cap: usize,
) -> Option<Vec<Vec<u8>>> {
    let n = group.cells.len();
    let pos_of = |cell: usize| {
        group
            .cells
            .iter()
            .position(|&c| c == cell)
            .expect("in group")
    };
    // Per cell: its digit bounds from thermometers.
    let mut low = vec![1u8; n];
    let mut high = vec![side as u8; n];
    // Per position: checks to run once it is placed.
    let mut cage_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut cage_cells: Vec<Vec<usize>> = Vec::new();
    let mut sums: Vec<u32> = Vec::new();
    for &i in &group.cages {
        let cage = &rules.cages[i];
        let k = cage_cells.len();
        let positions: Vec<usize> = cage.cells.iter().map(|&c| pos_of(c)).collect();
        for &p in &positions {
            cage_of[p].push(k);
        }
        cage_cells.push(positions);
        sums.push(cage.sum.expect("cages in groups have sums"));
    }
    for &i in &group.thermos {
        let thermo = &rules.thermos[i];
        let len = thermo.len();
        for (k, &cell) in thermo.iter().enumerate() {
            let p = pos_of(cell);
            low[p] = low[p].max(k as u8 + 1);
            high[p] = high[p].min((side - (len - 1 - k)) as u8);
        }
    }
    let mut state = Enum {
        rules_side: side,
        cells: &group.cells,
        items,
        allowed,
        low,
        high,
        cage_of,
        cage_cells,
        sums,
        thermo_links: group
            .thermos
            .iter()
            .flat_map(|&i| {
                rules.thermos[i]
                    .windows(2)
                    .map(|w| (pos_of(w[0]), pos_of(w[1])))
                    .collect::<Vec<_>>()
            })
            .collect(),
        digits: vec![0; n],
        used: HashSet::new(),
        out: Vec::new(),
        cap,
        over: false,
    };
    state.place(0);
    if state.over {
        None
    } else {
        Some(state.out)
    }
}

struct Enum<'a> {
    rules_side: usize,
    cells: &'a [usize],
    items: &'a [Vec<u32>],
    allowed: &'a dyn Fn(usize, u8) -> bool,
    low: Vec<u8>,
    high: Vec<u8>,
    cage_of: Vec<Vec<usize>>,
    cage_cells: Vec<Vec<usize>>,
    sums: Vec<u32>,
    /// Thermometer steps (lower position, higher position).
    thermo_links: Vec<(usize, usize)>,
    digits: Vec<u8>,
    used: HashSet<u32>,
    out: Vec<Vec<u8>>,
    cap: usize,
    over: bool,
}

impl Enum<'_> {
    fn place(&mut self, p: usize) {
        if self.over {
            return;
        }
        if p == self.cells.len() {
            if self.out.len() >= self.cap {
                self.over = true;
                return;
            }
            self.out.push(self.digits.clone());
            return;
        }
        let cell = self.cells[p];
        let side = self.rules_side;
        for d in self.low[p]..=self.high[p] {
            if !(self.allowed)(cell, d) {
                continue;
            }
            let its = &self.items[cell * side + d as usize - 1];
            if its.iter().any(|i| self.used.contains(i)) {
                continue;
            }
            self.digits[p] = d;
            if !self.consistent(p) {
                continue;
            }
            for &i in its {
                self.used.insert(i);
            }
            self.place(p + 1);
            for &i in its {
                self.used.remove(&i);
            }
            self.digits[p] = 0;
            if self.over {
                return;
            }
        }
        self.digits[p] = 0;
    }

    /// Whether the digits placed so far (positions `0..=p`) can still meet
    /// the sums and thermometers.
    fn consistent(&self, p: usize) -> bool {
        for &(a, b) in &self.thermo_links {
            let (da, db) = (self.digits[a], self.digits[b]);
            if (a <= p && b <= p) && da >= db {
                return false;
            }
        }
        let side = self.rules_side as u32;
        for &k in &self.cage_of[p] {
            let mut total = 0u32;
            let mut left = 0u32;
            for &q in &self.cage_cells[k] {
                if q <= p {
                    total += self.digits[q] as u32;
                } else {
                    left += 1;
                }
            }
            // The remaining distinct digits add at least 1+…+left and at
            // most side+…+(side−left+1).
            let min = left * (left + 1) / 2;
            let max = left * side - left * left.saturating_sub(1) / 2;
            let sum = self.sums[k];
            if total + min > sum || total + max < sum {
                return false;
            }
        }
        true
    }
}

mod sums;
#[cfg(test)]
mod tests;

use sums::{Sum, SumPropagator};
