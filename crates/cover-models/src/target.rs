//! Target sudoku (NOIP 2009, Luogu P1074): of all the solutions of a 9×9
//! sudoku, the one with the highest score, found by branch and bound on the
//! exact-cover engine.
//!
//! ## Score
//! Cell weights form rings around the centre: 6 on the outer ring, then 7,
//! 8, 9, and 10 for the centre cell ([`weight`]). A grid scores the sum
//! over its cells of weight × digit ([`score`]).
//!
//! ## Input
//! [`Puzzles`] reads puzzles one at a time from a [`BufRead`]: 9 rows of 9
//! whole numbers 0..=9 separated by white space, 0 for an empty cell.
//! Several puzzles may follow one another, separated by blank lines (a
//! puzzle also ends after its ninth row, so the blank lines are optional).
//! Lines starting with `#` are comments. A bad row (not 9 numbers, a value
//! that is not a digit) or a puzzle cut short (fewer than 9 rows before a
//! blank line or the end) is a [`ParseError`] with its line; the reader
//! then goes on with the next puzzle. Givens that clash (two 5s in a row)
//! are not an input error: that puzzle has no solution.
//!
//! ## The model and the search
//! [`TargetModel`] is the plain 9×9 sudoku as exact cover: 324 primary
//! items (each cell filled; each digit once per row, column and box) and
//! 729 options (digit d in cell c), the givens forced. Branch and bound
//! runs through [`dlx_core::Guide`]: the guide follows every option the
//! engine pushes and pops, keeps the partial grid, and prunes it when an
//! upper bound on the score of every completion cannot beat the best
//! complete grid found so far.
//!
//! ## The bound: the ring identity ([`Bound::Rings`], the default)
//! A cell's weight is 6 plus the number of the centred squares of side 7,
//! 5, 3 and 1 that hold it, so a full grid scores 6 × 405 + S₇ + S₅ + S₃ +
//! S₁, S_k the sum of the centred k × k square. Since every row, column
//! and box of a full grid sums to 45:
//! - S₃ is the centre box: 45;
//! - S₇ is everything but rows 1 and 9 (90) and columns 1 and 9 without
//!   their ends (90 − the corners): 225 + the four corners;
//! - S₅ is rows 3..7 (225) less columns 1, 2, 8, 9 within them (180 − the
//!   four corner 2×2 blocks): 45 + the corner blocks. It is also 45 + the
//!   16 cells of ring 2 (weight 8), the rest of S₅.
//!
//! So every full grid scores **2745 + centre + corners + ring 2** (form B),
//! which is also 2745 + centre + corners + corner blocks (form A, where
//! the corners count twice). Only 33 cells matter, each with coefficient 1
//! or 2, and the others only through what they allow. The bound takes
//! the key cells of a form in groups that share a line (a row, a column or
//! a box, so they hold different digits) and gives each group the best
//! its line's missing digits can do, every cell capped by the largest
//! digit its own row, column and box still allow: digits largest first,
//! each to the free cell of largest coefficient that allows it (an
//! exchange argument shows this is the best assignment under caps, so at
//! least what any completion puts there). Each form is grouped by rows,
//! by columns and by boxes; the least of the six totals is the bound (the
//! search stops at the first that prunes, trying first the one that
//! pruned last).
//!
//! This bound uses the rows and the columns at once, where the per-line
//! bounds ([`Bound::Lines`], [`Bound::Global`], [`Bound::Nine`]: score so
//! far plus a pairing of the empty cells' weights with the digits still
//! missing, by the rearrangement inequality) use one family of lines at a
//! time; on the 20–23-given puzzles of `cargo xtask bench target` it visits
//! over 20 times fewer nodes than the best of those.
//!
//! Good grids come early because the options are given to the engine in
//! descending weight × digit order (the engine tries an item's options in
//! input order), and the cells' items in descending weight order (so ties
//! of the fewest-options rule go to the heavier cell).

use dlx_core::Search;
use std::fmt;
use std::io::BufRead;

use std::sync::Arc;

use dlx_core::{
    Control, Domain, Guide, Limits, Problem, Propagator, Solver, Stats, Verdict, Visitor,
};

use crate::sudoku::logic::{Geometry, Rules};
use crate::sudoku::{Size, SudokuPropagator};
use thiserror::Error;

use crate::text::{self, excerpt, LineError, LineFault, LineReader};

/// Rows, columns, boxes and digits of the grid.
pub const SIDE: usize = 9;
/// Cells of the grid.
pub const CELLS: usize = SIDE * SIDE;
/// Rows, columns and boxes: the lines whose digits are all different.
const LINES: usize = 3 * SIDE;

/// A grid, row by row: `grid[9 * row + column]`, 0 for an empty cell.
pub type Grid = [u8; CELLS];

/// The weight of `cell` (`9 * row + column`): 10 in the centre, one less
/// for each ring outwards, 6 on the border.
pub const fn weight(cell: usize) -> u32 {
    let (row, column) = (cell / SIDE, cell % SIDE);
    let ring = if row.abs_diff(4) > column.abs_diff(4) {
        row.abs_diff(4)
    } else {
        column.abs_diff(4)
    };
    10 - ring as u32
}

/// The score of `grid`: the sum of weight × digit over its cells (empty
/// cells add nothing).
pub fn score(grid: &Grid) -> u32 {
    grid.iter()
        .enumerate()
        .map(|(cell, &digit)| weight(cell) * u32::from(digit))
        .sum()
}

/// The box (0..9, row by row) of `cell`.
pub const fn box_of(cell: usize) -> usize {
    (cell / SIDE / 3) * 3 + cell % SIDE / 3
}

/// One puzzle of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetPuzzle {
    /// The givens, 0 for an empty cell.
    pub cells: Grid,
    /// The line of the puzzle's first row.
    pub line: usize,
}

impl TargetPuzzle {
    /// Whether two givens share a digit in a row, column or box, or a
    /// cell holds a number above 9 (the puzzle then has no solution;
    /// [`Puzzles`] never makes such a cell, but the fields are public).
    pub fn givens_clash(&self) -> bool {
        let mut used = [0u16; LINES];
        for (cell, &digit) in self.cells.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            if usize::from(digit) > SIDE {
                return true;
            }
            let bit = 1 << digit;
            let (row, column) = (cell / SIDE, cell % SIDE);
            for line in [row, SIDE + column, 2 * SIDE + box_of(cell)] {
                if used[line] & bit != 0 {
                    return true;
                }
                used[line] |= bit;
            }
        }
        false
    }
}

/// Writes a grid in the input's layout: 9 lines of 9 digits separated by
/// spaces, each line ending in a newline.
pub fn format_grid(grid: &Grid) -> String {
    let mut text = String::with_capacity(CELLS * 2);
    for row in grid.chunks(SIDE) {
        for (column, digit) in row.iter().enumerate() {
            if column > 0 {
                text.push(' ');
            }
            text.push(char::from(b'0' + digit));
        }
        text.push('\n');
    }
    text
}

// ---------------------------------------------------------------------------
// Reading puzzles.

/// What is wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The line cannot be read as text (not UTF-8, too long, binary).
    #[error("{0}")]
    Line(LineFault),
    /// A word that is not a whole number.
    #[error("{0:?} is not a number (a cell is a digit 0..9, 0 for empty)")]
    NotANumber(String),
    /// A number above 9.
    #[error("{0} is not a digit 0..9 (0 for an empty cell)")]
    NotADigit(String),
    /// A row without exactly 9 numbers.
    #[error("a row has 9 numbers, this one has {0}")]
    RowLength(usize),
    /// A puzzle that ends before its ninth row.
    #[error(
        "the puzzle starting on line {start} ends after {rows} row{s}; a puzzle has 9 rows",
        s = if *rows == 1 { "" } else { "s" }
    )]
    TooFewRows {
        /// The line of its first row.
        start: usize,
        /// Its rows.
        rows: usize,
    },
}

/// A bad puzzle, with the line where the trouble is.
pub type ParseError = LineError<ParseErrorKind>;

/// Why a puzzle could not be read.
pub type InputError = text::InputError<ParseError>;

impl From<ParseError> for InputError {
    fn from(error: ParseError) -> InputError {
        InputError::Parse(error)
    }
}

/// Reads puzzles one at a time; see the module documentation.
#[derive(Debug)]
pub struct Puzzles<R> {
    lines: LineReader<R>,
    done: bool,
}

impl<R: BufRead> Puzzles<R> {
    /// Reads puzzles from `reader`.
    pub fn new(reader: R) -> Self {
        Puzzles::from_lines(LineReader::new(reader))
    }

    /// Reads the lines of `lines` (a [`LineReader`] with limits of its
    /// own, say) as [`Puzzles::new`] does.
    pub fn from_lines(lines: LineReader<R>) -> Self {
        Puzzles { lines, done: false }
    }

    /// Reads one row into `cells`.
    fn read_row(text: &str, cells: &mut [u8]) -> Result<(), ParseErrorKind> {
        let mut found = 0;
        for word in text.split_whitespace() {
            if !word.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseErrorKind::NotANumber(excerpt(word)));
            }
            let digits = word.trim_start_matches('0');
            if digits.len() > 1 || digits.parse::<u8>().is_ok_and(|d| d > 9) {
                return Err(ParseErrorKind::NotADigit(excerpt(word)));
            }
            if let Some(cell) = cells.get_mut(found) {
                *cell = digits.parse().unwrap_or(0);
            }
            found += 1;
        }
        if found != SIDE {
            return Err(ParseErrorKind::RowLength(found));
        }
        Ok(())
    }

    fn read_puzzle(&mut self) -> Option<Result<TargetPuzzle, InputError>> {
        let mut cells = [0; CELLS];
        let mut rows = 0;
        let mut start = 0;
        let mut last = 0;
        let mut first_error: Option<ParseError> = None;
        loop {
            let line = match self.lines.next_line() {
                Err(e) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
                Ok(Some(line)) => line,
                Ok(None) => {
                    self.done = true;
                    if rows == 0 {
                        return None;
                    }
                    break;
                }
            };
            let row_error = match &line.text {
                Err(fault) => Some(ParseErrorKind::Line(*fault)),
                Ok(text) if text.trim().is_empty() => {
                    if rows == 0 {
                        continue;
                    }
                    break;
                }
                Ok(text) if text.trim_start().starts_with('#') => continue,
                Ok(text) => {
                    let row = &mut cells[rows * SIDE..(rows + 1) * SIDE];
                    Self::read_row(text, row).err()
                }
            };
            if rows == 0 {
                start = line.number;
            }
            last = line.number;
            rows += 1;
            if let Some(kind) = row_error {
                first_error.get_or_insert(ParseError {
                    line: line.number,
                    kind,
                });
            }
            if rows == SIDE {
                break;
            }
        }
        if let Some(error) = first_error {
            return Some(Err(error.into()));
        }
        if rows < SIDE {
            return Some(Err(ParseError {
                line: last,
                kind: ParseErrorKind::TooFewRows { start, rows },
            }
            .into()));
        }
        Some(Ok(TargetPuzzle { cells, line: start }))
    }
}

impl<R: BufRead> Iterator for Puzzles<R> {
    type Item = Result<TargetPuzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.read_puzzle()
    }
}

// ---------------------------------------------------------------------------
// The model.

/// Which upper bound the branch and bound prunes with. The default is the
/// one to use; the others exist to measure what a bound is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    /// No pruning: every solution is visited (the best is still kept).
    None,
    /// The score so far plus 9 × the weight of every empty cell.
    Nine,
    /// The score so far plus all empty cells' weights, largest first,
    /// paired with all missing digits (digit d is missing 9 − placed
    /// times), largest first.
    Global,
    /// The score so far plus the least of the row, column and box sums of
    /// each line's pairing of its empty cells' weights with the digits it
    /// misses.
    Lines,
    /// The ring identity (see the module documentation): 2745 plus the
    /// centre plus the best the key cells can hold, in groups that share
    /// a line, each capped by the digits its lines still allow.
    #[default]
    Rings,
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::None => "none",
            Bound::Nine => "nine",
            Bound::Global => "global",
            Bound::Lines => "lines",
            Bound::Rings => "rings",
        })
    }
}

/// The best grid of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    /// Its score.
    pub score: u32,
    /// The grid.
    pub grid: Grid,
}

/// What a search for the best grid found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetAnswer {
    /// The best grid, or `None` when the puzzle has no solution (or the
    /// search stopped before it found one).
    pub best: Option<Best>,
    /// The engine's counters: search nodes, updates, and the complete
    /// grids the search reached (the others were cut off before).
    pub stats: Stats,
    /// Whether the search ran to its end (the best is then the maximum).
    pub complete: bool,
}

/// Every full grid scores this plus its centre, its corners and its 16
/// ring-2 cells (see the module documentation).
pub const RING_BASE: u32 = 2745;
/// The centre cell.
const CENTRE: usize = 40;
/// Bits 1..=9: every digit.
const ALL_DIGITS: u16 = 0b11_1111_1110;

/// Whether `cell` is one of the four corners of the grid.
const fn is_corner(cell: usize) -> bool {
    (cell / SIDE).is_multiple_of(8) && (cell % SIDE).is_multiple_of(8)
}

/// Key cells that share a line (so they hold different digits) with their
/// coefficients in one form of the ring identity, largest first.
#[derive(Debug, Clone, Copy, Default)]
struct Group {
    /// The line they share: their digits are among the ones it misses.
    line: u8,
    /// How many cells.
    len: u8,
    cells: [u8; 5],
    coefficients: [u8; 5],
}

/// What the bounds need to know of the grid's geometry, computed once.
#[derive(Debug, Clone)]
struct Layout {
    /// `line_weights[line][k]`: the weight of the line's k-th heaviest
    /// cell. Lines 0..9 are the rows, 9..18 the columns, 18..27 the boxes.
    line_weights: [[u32; SIDE]; LINES],
    /// For each cell, its row, column and box, and its position in each
    /// (the k of `line_weights`).
    cell_lines: [[(u8, u8); 3]; CELLS],
    /// Partitions of the key cells into groups: one per form of the ring
    /// identity and kind of line.
    groupings: Vec<Vec<Group>>,
    /// The key cells of either form and the centre.
    key_cells: Vec<u8>,
}

impl Layout {
    fn new() -> Layout {
        let mut line_weights = [[0; SIDE]; LINES];
        let mut cell_lines = [[(0, 0); 3]; CELLS];
        for line in 0..LINES {
            let mut cells: Vec<usize> = (0..CELLS)
                .filter(|&cell| match line / SIDE {
                    0 => cell / SIDE == line,
                    1 => cell % SIDE == line - SIDE,
                    _ => box_of(cell) == line - 2 * SIDE,
                })
                .collect();
            cells.sort_by_key(|&cell| std::cmp::Reverse(weight(cell)));
            for (k, &cell) in cells.iter().enumerate() {
                line_weights[line][k] = weight(cell);
                cell_lines[cell][line / SIDE] = (line as u8, k as u8);
            }
        }
        // Form A: the four corner 2×2 blocks, the corners counted twice.
        let outer = |i: usize| matches!(i, 0 | 1 | 7 | 8);
        let blocks: Vec<(usize, u8)> = (0..CELLS)
            .filter(|&cell| outer(cell / SIDE) && outer(cell % SIDE))
            .map(|cell| (cell, if is_corner(cell) { 2 } else { 1 }))
            .collect();
        // Form B: the corners and ring 2 (weight 8).
        let ring_two: Vec<(usize, u8)> = (0..CELLS)
            .filter(|&cell| is_corner(cell) || weight(cell) == 8)
            .map(|cell| (cell, 1))
            .collect();
        let mut groupings = Vec::new();
        for form in [&blocks, &ring_two] {
            for family in 0..3 {
                groupings.push(Self::group(form, family, &cell_lines));
            }
        }
        let mut key_cells: Vec<u8> = blocks
            .iter()
            .chain(&ring_two)
            .map(|&(cell, _)| cell as u8)
            .chain([CENTRE as u8])
            .collect();
        key_cells.sort_unstable();
        key_cells.dedup();
        Layout {
            line_weights,
            cell_lines,
            groupings,
            key_cells,
        }
    }

    /// Splits `cells` (with coefficients) by their line of `family` (0
    /// rows, 1 columns, 2 boxes).
    fn group(
        cells: &[(usize, u8)],
        family: usize,
        cell_lines: &[[(u8, u8); 3]; CELLS],
    ) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        let mut sorted = cells.to_vec();
        sorted.sort_by_key(|&(cell, coefficient)| (std::cmp::Reverse(coefficient), cell));
        for (cell, coefficient) in sorted {
            let line = cell_lines[cell][family].0;
            let index = match groups.iter().position(|g| g.line == line) {
                Some(index) => index,
                None => {
                    groups.push(Group {
                        line,
                        ..Group::default()
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[index];
            let at = usize::from(group.len);
            group.cells[at] = cell as u8;
            group.coefficients[at] = coefficient;
            group.len += 1;
        }
        groups
    }

    /// The most the empty positions `empty` of `line` (bits in
    /// heaviest-first order) can add with the digits `missing` (bit d for
    /// digit d): heaviest cells with the largest digits.
    #[inline]
    fn line_bound(&self, line: usize, mut empty: u16, mut missing: u16) -> u32 {
        let weights = &self.line_weights[line];
        let mut total = 0;
        while empty != 0 && missing != 0 {
            let k = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let digit = 15 - missing.leading_zeros();
            missing &= !(1 << digit);
            total += weights[k] * digit;
        }
        total
    }
}

/// The 9×9 sudoku as exact cover, built once and shared by every search.
#[derive(Debug, Clone)]
pub struct TargetModel {
    problem: Problem,
    /// `choices[option]`: the cell and digit of an option.
    choices: Vec<(u8, u8)>,
    /// `option_of[cell][digit]`.
    option_of: [[u16; SIDE + 1]; CELLS],
    /// `cell_item[cell]`: the item of the cell (heaviest first).
    cell_item: [u8; CELLS],
    layout: Layout,
    geometry: Arc<Geometry>,
}

impl Default for TargetModel {
    fn default() -> Self {
        TargetModel::new()
    }
}

impl TargetModel {
    /// Builds the problem: items 0..81 are the cells, heaviest first, then
    /// come digit-in-row, digit-in-column and digit-in-box items; options
    /// are (cell, digit) pairs in descending weight × digit order.
    pub fn new() -> TargetModel {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        cells.sort_by_key(|&cell| std::cmp::Reverse(weight(cell)));
        let mut cell_item = [0; CELLS];
        for (item, &cell) in cells.iter().enumerate() {
            cell_item[cell] = item;
        }
        let mut choices: Vec<(u8, u8)> = (0..CELLS)
            .flat_map(|cell| (1..=SIDE as u8).map(move |digit| (cell as u8, digit)))
            .collect();
        choices.sort_by_key(|&(cell, digit)| {
            let cell = usize::from(cell);
            let value = weight(cell) * u32::from(digit);
            (
                std::cmp::Reverse(value),
                std::cmp::Reverse(digit),
                cell_item[cell],
            )
        });
        let mut builder = Problem::builder(4 * CELLS, 0);
        let mut option_of = [[0; SIDE + 1]; CELLS];
        for (option, &(cell, digit)) in choices.iter().enumerate() {
            let (cell, d) = (usize::from(cell), usize::from(digit) - 1);
            let (row, column) = (cell / SIDE, cell % SIDE);
            let items = [
                cell_item[cell],
                CELLS + row * SIDE + d,
                2 * CELLS + column * SIDE + d,
                3 * CELLS + box_of(cell) * SIDE + d,
            ];
            builder
                .add_option(items)
                .expect("the items are among the 324 of the problem");
            option_of[cell][usize::from(digit)] = option as u16;
        }
        TargetModel {
            problem: builder.build(),
            choices,
            option_of,
            cell_item: cell_item.map(|item| item as u8),
            layout: Layout::new(),
            geometry: Arc::new(Geometry::new(Size::new(3).expect("9×9 is a size"))),
        }
    }

    /// A solver for [`TargetModel::best_with`] that reasons with `rules`
    /// between choices (see [`TargetPropagator`]), or the plain one
    /// (`None`).
    pub fn solver(&self, rules: Option<Rules>) -> Solver {
        let mut solver = Solver::new(&self.problem);
        if let Some(rules) = rules {
            let propagator = TargetPropagator::new(self, rules);
            solver
                .set_propagator(Some(Box::new(propagator)))
                .expect("the model is plain exact cover");
        }
        solver
    }

    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The cell and digit of `option`.
    pub fn choice(&self, option: usize) -> (usize, u8) {
        let (cell, digit) = self.choices[option];
        (usize::from(cell), digit)
    }

    /// The options of the givens of `puzzle` (cells above 9 left out).
    pub fn givens(&self, puzzle: &TargetPuzzle) -> Vec<usize> {
        puzzle
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &digit)| digit != 0 && usize::from(digit) <= SIDE)
            .map(|(cell, &digit)| usize::from(self.option_of[cell][usize::from(digit)]))
            .collect()
    }

    /// The grid of a solution (givens included).
    pub fn grid(&self, options: &[usize]) -> Grid {
        let mut grid = [0; CELLS];
        for &option in options {
            let (cell, digit) = self.choice(option);
            grid[cell] = digit;
        }
        grid
    }

    /// The best grid of `puzzle`, by branch and bound with the default
    /// bound.
    pub fn best(&self, puzzle: &TargetPuzzle) -> TargetAnswer {
        let mut solver = self.solver(Some(DEFAULT_RULES));
        self.best_with(&mut solver, puzzle, Bound::default(), &Limits::none())
    }

    /// The best grid of `puzzle` by branch and bound with `bound`, on
    /// `solver` (made from [`TargetModel::problem`]), within `limits`.
    pub fn best_with(
        &self,
        solver: &mut Solver,
        puzzle: &TargetPuzzle,
        bound: Bound,
        limits: &Limits,
    ) -> TargetAnswer {
        if puzzle.givens_clash() {
            return TargetAnswer {
                best: None,
                stats: Stats::default(),
                complete: true,
            };
        }
        let mut guide =
            BranchAndBound::new(&self.layout, &self.choices, &self.option_of, puzzle, bound);
        let report = solver
            .search_guided(&self.givens(puzzle), limits, &mut guide)
            .expect("the givens are options of the model");
        TargetAnswer {
            best: guide.best,
            stats: report.stats,
            complete: report.outcome.is_complete(),
        }
    }

    /// The best grid of `puzzle` found by visiting every solution with the
    /// plain streaming search (no guide, no pruning), within `limits`: the
    /// slow reference the branch and bound is tested against.
    pub fn best_by_enumeration(&self, puzzle: &TargetPuzzle, limits: &Limits) -> TargetAnswer {
        let mut best: Option<Best> = None;
        if puzzle.givens_clash() {
            return TargetAnswer {
                best,
                stats: Stats::default(),
                complete: true,
            };
        }
        let mut solver = Solver::new(&self.problem);
        let report = solver
            .search(&self.givens(puzzle), limits, &mut |options: &[usize]| {
                let grid = self.grid(options);
                let score = score(&grid);
                if !matches!(&best, Some(b) if b.score >= score) {
                    best = Some(Best { score, grid });
                }
                Control::Continue
            })
            .expect("the givens are options of the model");
        TargetAnswer {
            best,
            stats: report.stats,
            complete: report.outcome.is_complete(),
        }
    }
}

// ---------------------------------------------------------------------------
// Branch and bound.

/// The guide of the search: the partial grid, its score, what the bounds
/// keep up to date, and the best grid so far.
struct BranchAndBound<'m> {
    layout: &'m Layout,
    choices: &'m [(u8, u8)],
    option_of: &'m [[u16; SIDE + 1]; CELLS],
    bound: Bound,
    grid: Grid,
    score: u32,
    /// Empty positions of each line (bits in heaviest-first order).
    line_empty: [u16; LINES],
    /// Digits missing from each line (bit d for digit d).
    line_missing: [u16; LINES],
    /// The pairing bound of each line (kept for [`Bound::Lines`] only).
    line_bound: [u32; LINES],
    /// The sums of `line_bound` over the rows, the columns and the boxes.
    family_bound: [u32; 3],
    /// How many more times each digit must be placed.
    digit_missing: [u8; SIDE + 1],
    /// Empty cells per weight.
    weight_empty: [u8; 11],
    best: Option<Best>,
    /// The grouping that pruned last, tried first.
    first_grouping: usize,
}

impl<'m> BranchAndBound<'m> {
    fn new(
        layout: &'m Layout,
        choices: &'m [(u8, u8)],
        option_of: &'m [[u16; SIDE + 1]; CELLS],
        puzzle: &TargetPuzzle,
        bound: Bound,
    ) -> Self {
        let mut guide = BranchAndBound {
            layout,
            choices,
            option_of,
            bound,
            grid: [0; CELLS],
            score: 0,
            line_empty: [(1 << SIDE) - 1; LINES],
            line_missing: [ALL_DIGITS; LINES],
            line_bound: [0; LINES],
            family_bound: [0; 3],
            digit_missing: [SIDE as u8; SIDE + 1],
            weight_empty: [0; 11],
            best: None,
            first_grouping: 0,
        };
        guide.digit_missing[0] = 0;
        for cell in 0..CELLS {
            guide.weight_empty[weight(cell) as usize] += 1;
        }
        for (cell, &digit) in puzzle.cells.iter().enumerate() {
            if digit != 0 {
                guide.place(cell, digit);
            }
        }
        for line in 0..LINES {
            let bound = layout.line_bound(line, guide.line_empty[line], guide.line_missing[line]);
            guide.line_bound[line] = bound;
            guide.family_bound[line / SIDE] += bound;
        }
        guide
    }

    /// Puts `digit` in the empty `cell` (the line bounds aside).
    #[inline]
    fn place(&mut self, cell: usize, digit: u8) {
        self.grid[cell] = digit;
        self.score += weight(cell) * u32::from(digit);
        for (line, k) in self.layout.cell_lines[cell] {
            self.line_empty[usize::from(line)] &= !(1 << k);
            self.line_missing[usize::from(line)] &= !(1 << digit);
        }
        self.digit_missing[usize::from(digit)] -= 1;
        self.weight_empty[weight(cell) as usize] -= 1;
    }

    /// Empties `cell`, which holds `digit` (the line bounds aside).
    #[inline]
    fn clear(&mut self, cell: usize, digit: u8) {
        self.grid[cell] = 0;
        self.score -= weight(cell) * u32::from(digit);
        for (line, k) in self.layout.cell_lines[cell] {
            self.line_empty[usize::from(line)] |= 1 << k;
            self.line_missing[usize::from(line)] |= 1 << digit;
        }
        self.digit_missing[usize::from(digit)] += 1;
        self.weight_empty[weight(cell) as usize] += 1;
    }

    /// Recomputes the pairing bounds of the three lines through `cell`
    /// (for [`Bound::Lines`]).
    #[inline]
    fn update_lines(&mut self, cell: usize) {
        if self.bound != Bound::Lines {
            return;
        }
        for (family, (line, _)) in self.layout.cell_lines[cell].into_iter().enumerate() {
            let line = usize::from(line);
            let bound =
                self.layout
                    .line_bound(line, self.line_empty[line], self.line_missing[line]);
            self.family_bound[family] = self.family_bound[family] - self.line_bound[line] + bound;
            self.line_bound[line] = bound;
        }
    }

    /// Whether no completion of the partial grid scores more than `best`.
    #[inline]
    fn cannot_beat(&mut self, best: u32) -> bool {
        match self.bound {
            Bound::None => false,
            Bound::Nine => {
                let weights: u32 = (6..=10)
                    .map(|w| w * u32::from(self.weight_empty[w as usize]))
                    .sum();
                self.score + 9 * weights <= best
            }
            Bound::Global => self.score + self.global_bound() <= best,
            Bound::Lines => {
                let least = self.family_bound.into_iter().min().unwrap_or(0);
                self.score + least <= best
            }
            Bound::Rings => self.rings_cannot_beat(best),
        }
    }

    /// All empty cells' weights, largest first, paired with all missing
    /// digits, largest first.
    fn global_bound(&self) -> u32 {
        let mut total = 0;
        let mut digit = SIDE;
        let mut digits_left = self.digit_missing[digit];
        for weight in (6..=10u32).rev() {
            let mut cells = self.weight_empty[weight as usize];
            while cells > 0 {
                while digits_left == 0 {
                    if digit == 1 {
                        return total;
                    }
                    digit -= 1;
                    digits_left = self.digit_missing[digit];
                }
                let taken = cells.min(digits_left);
                total += weight * digit as u32 * u32::from(taken);
                cells -= taken;
                digits_left -= taken;
            }
        }
        total
    }

    /// The largest digit `cell`'s row, column and box still allow, or 0
    /// when they allow none.
    #[inline]
    fn cap(&self, cell: usize) -> u8 {
        let [(row, _), (column, _), (square, _)] = self.layout.cell_lines[cell];
        let allowed = self.line_missing[usize::from(row)]
            & self.line_missing[usize::from(column)]
            & self.line_missing[usize::from(square)];
        if allowed == 0 {
            return 0;
        }
        (15 - allowed.leading_zeros()) as u8
    }

    /// The ring identity bound: whether 2745 + the centre + the best of
    /// the key cells, for any grouping, is at most `best`. Each group is
    /// paired greedily: the largest digits its line misses first, each to
    /// the heaviest free cell whose cap allows it (the best pairing under
    /// caps, by an exchange argument, so at least what any completion
    /// puts there).
    fn rings_cannot_beat(&mut self, best: u32) -> bool {
        let mut caps = [0u8; CELLS];
        for &cell in &self.layout.key_cells {
            let cell = usize::from(cell);
            if self.grid[cell] == 0 {
                let cap = self.cap(cell);
                if cap == 0 {
                    // A key cell with no digit left: no completion at all.
                    return true;
                }
                caps[cell] = cap;
            }
        }
        self.rings_cannot_beat_under(best, &caps)
    }

    /// [`BranchAndBound::rings_cannot_beat`] with each empty key cell's
    /// largest live digit (what propagation left it) as its cap: tighter
    /// than what its lines allow.
    fn rings_cannot_beat_live(&mut self, best: u32, domain: &dyn Domain) -> bool {
        let mut caps = [0u8; CELLS];
        for &cell in &self.layout.key_cells {
            let cell = usize::from(cell);
            if self.grid[cell] == 0 {
                let options = &self.option_of[cell];
                let cap = (1..=SIDE as u8)
                    .rev()
                    .find(|&d| domain.is_live(usize::from(options[usize::from(d)])));
                match cap {
                    Some(cap) => caps[cell] = cap,
                    None => return true,
                }
            }
        }
        self.rings_cannot_beat_under(best, &caps)
    }

    /// The ring bound with the empty key cells capped by `caps`.
    fn rings_cannot_beat_under(&mut self, best: u32, caps: &[u8; CELLS]) -> bool {
        let centre = match self.grid[CENTRE] {
            0 => caps[CENTRE],
            digit => digit,
        };
        let base = RING_BASE + u32::from(centre);
        let count = self.layout.groupings.len();
        for turn in 0..count {
            let index = (self.first_grouping + turn) % count;
            let groups = &self.layout.groupings[index];
            let mut total = base;
            for group in groups {
                let mut free = 0u8;
                let mut by_cap = [0u8; SIDE + 1];
                for k in 0..usize::from(group.len) {
                    let cell = usize::from(group.cells[k]);
                    match self.grid[cell] {
                        0 => {
                            free |= 1 << k;
                            by_cap[usize::from(caps[cell])] |= 1 << k;
                        }
                        digit => total += u32::from(group.coefficients[k]) * u32::from(digit),
                    }
                }
                let missing = self.line_missing[usize::from(group.line)];
                let mut eligible = 0u8;
                let mut digit = SIDE;
                while free != 0 && digit > 0 {
                    eligible |= by_cap[digit];
                    let open = eligible & free;
                    if missing & (1 << digit) != 0 && open != 0 {
                        let k = open.trailing_zeros() as usize;
                        free &= !(1 << k);
                        total += u32::from(group.coefficients[k]) * digit as u32;
                    }
                    digit -= 1;
                }
            }
            if total <= best {
                self.first_grouping = index;
                return true;
            }
        }
        false
    }
}

impl Visitor for BranchAndBound<'_> {
    fn solution(&mut self, _options: &[usize]) -> Control {
        if !matches!(&self.best, Some(b) if b.score >= self.score) {
            self.best = Some(Best {
                score: self.score,
                grid: self.grid,
            });
        }
        Control::Continue
    }
}

impl Guide for BranchAndBound<'_> {
    #[inline]
    fn push(&mut self, option: usize) {
        let (cell, digit) = self.choices[option];
        self.place(usize::from(cell), digit);
        self.update_lines(usize::from(cell));
    }

    #[inline]
    fn pop(&mut self, option: usize) {
        let (cell, digit) = self.choices[option];
        self.clear(usize::from(cell), digit);
        self.update_lines(usize::from(cell));
    }

    #[inline]
    fn prune(&mut self) -> bool {
        match &self.best {
            None => false,
            Some(best) => {
                let best = best.score;
                self.cannot_beat(best)
            }
        }
    }

    fn prune_live(&mut self, domain: &dyn Domain) -> bool {
        match &self.best {
            Some(best) if self.bound == Bound::Rings => {
                let best = best.score;
                self.rings_cannot_beat_live(best, domain)
            }
            _ => false,
        }
    }
}

/// The 21 cells whose digits make the score of a full grid beyond 2745:
/// the centre, the four corners and the 16 cells of ring 2 (weight 8).
const SCORING_CELLS: [usize; 21] = scoring_cells();

const fn scoring_cells() -> [usize; 21] {
    let mut cells = [0; 21];
    let mut k = 0;
    let mut cell = 0;
    while cell < CELLS {
        if cell == CENTRE || is_corner(cell) || weight(cell) == 8 {
            cells[k] = cell;
            k += 1;
        }
        cell += 1;
    }
    cells
}

/// The rules [`TargetModel::best`] reasons with.
pub const DEFAULT_RULES: Rules = Rules::FULL;

/// The sudoku rules on the target model's options, and the branching that
/// goes for the score: at each node the propagator of `cover sudoku`
/// ([`SudokuPropagator`]) removes what the rules eliminate, then the
/// search branches on a cell that sets the score (the centre, the corners and ring 2), the
/// one with the fewest candidates (its options come largest digit first),
/// rather than on whatever item has the fewest options. High scores come
/// first, and once those cells are filled the bound is exact, so the rest
/// of the grid is only checked to have a completion.
#[derive(Clone)]
pub struct TargetPropagator {
    sudoku: SudokuPropagator,
    /// The item of each cell.
    cell_item: [u8; CELLS],
}

impl TargetPropagator {
    /// The propagator of `model`, running `rules`.
    pub fn new(model: &TargetModel, rules: Rules) -> TargetPropagator {
        let option_of: Arc<[u32]> = (0..CELLS)
            .flat_map(|cell| (1..=SIDE).map(move |digit| u32::from(model.option_of[cell][digit])))
            .collect();
        TargetPropagator {
            sudoku: SudokuPropagator::new(Arc::clone(&model.geometry), rules, option_of),
            cell_item: model.cell_item,
        }
    }
}

impl Propagator for TargetPropagator {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        self.sudoku.propagate(domain)
    }

    fn choose(&mut self, _domain: &dyn Domain) -> Option<usize> {
        // The candidates as the propagation just left them. The cells that
        // set the score (centre, corners, ring 2: see the module docs)
        // first, the one with the fewest candidates; once they are all
        // filled the bound is the score itself, and any completion will
        // do. Then the cell with the fewest candidates.
        let candidates = self.sudoku.candidates();
        let open = |cell: &usize| candidates[*cell].count_ones() >= 2;
        let fewest = |cell: &usize| (candidates[*cell].count_ones(), *cell);
        SCORING_CELLS
            .iter()
            .copied()
            .filter(open)
            .min_by_key(fewest)
            .or_else(|| (0..CELLS).filter(open).min_by_key(fewest))
            .map(|cell| usize::from(self.cell_item[cell]))
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::ChaCha8Rng;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    use super::*;

    const SAMPLE_1: &str = include_str!("../../../fixtures/target/p1074_sample1.in");
    const SAMPLE_2: &str = include_str!("../../../fixtures/target/p1074_sample2.in");

    fn read_all(text: &str) -> Vec<Result<TargetPuzzle, InputError>> {
        Puzzles::new(text.as_bytes()).collect()
    }

    fn read_one(text: &str) -> TargetPuzzle {
        let mut puzzles = read_all(text);
        assert_eq!(puzzles.len(), 1);
        puzzles.remove(0).unwrap()
    }

    /// The parse error of each puzzle: `None` for a good one.
    fn errors(text: &str) -> Vec<Option<(usize, ParseErrorKind)>> {
        read_all(text)
            .into_iter()
            .map(|r| match r {
                Ok(_) => None,
                Err(InputError::Parse(e)) => Some((e.line, e.kind)),
                Err(InputError::Io(e)) => panic!("{e}"),
            })
            .collect()
    }

    /// A random full grid: cells in order, digits in a random order,
    /// backtracking on a dead end.
    fn random_full_grid(rng: &mut ChaCha8Rng) -> Grid {
        fn fill(grid: &mut Grid, cell: usize, rng: &mut ChaCha8Rng) -> bool {
            if cell == CELLS {
                return true;
            }
            let mut digits: Vec<u8> = (1..=9).collect();
            digits.shuffle(rng);
            for digit in digits {
                grid[cell] = digit;
                let clash = TargetPuzzle {
                    cells: *grid,
                    line: 0,
                }
                .givens_clash();
                if !clash && fill(grid, cell + 1, rng) {
                    return true;
                }
            }
            grid[cell] = 0;
            false
        }
        let mut grid = [0; CELLS];
        assert!(fill(&mut grid, 0, rng));
        grid
    }

    /// `grid` with only `keep` of its cells, chosen at random.
    fn random_puzzle(rng: &mut ChaCha8Rng, keep: usize) -> TargetPuzzle {
        let grid = random_full_grid(rng);
        let mut cells: Vec<usize> = (0..CELLS).collect();
        cells.shuffle(rng);
        let mut puzzle = [0; CELLS];
        for &cell in &cells[..keep] {
            puzzle[cell] = grid[cell];
        }
        TargetPuzzle {
            cells: puzzle,
            line: 1,
        }
    }

    /// Checks a grid without the model: every line holds 1..=9 once and the
    /// givens are kept.
    fn assert_solves(puzzle: &TargetPuzzle, grid: &Grid) {
        for (cell, &given) in puzzle.cells.iter().enumerate() {
            assert!(given == 0 || grid[cell] == given, "given at {cell} changed");
        }
        for k in 0..SIDE {
            let mut row: Vec<u8> = (0..SIDE).map(|c| grid[k * SIDE + c]).collect();
            let mut column: Vec<u8> = (0..SIDE).map(|r| grid[r * SIDE + k]).collect();
            let mut square: Vec<u8> = (0..CELLS)
                .filter(|&c| box_of(c) == k)
                .map(|c| grid[c])
                .collect();
            for line in [&mut row, &mut column, &mut square] {
                line.sort_unstable();
                assert_eq!(*line, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
            }
        }
    }

    #[test]
    fn weights_form_rings() {
        let rings: Vec<usize> = (6..=10)
            .map(|w| (0..CELLS).filter(|&c| weight(c) == w).count())
            .collect();
        assert_eq!(rings, [32, 24, 16, 8, 1]);
        assert_eq!(weight(0), 6);
        assert_eq!(weight(CENTRE), 10);
        assert_eq!(weight(SIDE + 1), 7);
        assert_eq!(weight(3 * SIDE + 5), 9);
        assert!((0..CELLS).filter(|&c| is_corner(c)).eq([0, 8, 72, 80]));
    }

    /// The identity the default bound rests on, on random full grids.
    #[test]
    fn every_full_grid_obeys_the_ring_identity() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let grid = random_full_grid(&mut rng);
            let sum = |keep: &dyn Fn(usize) -> bool| -> u32 {
                (0..CELLS)
                    .filter(|&c| keep(c))
                    .map(|c| u32::from(grid[c]))
                    .sum()
            };
            let corners = sum(&|c| is_corner(c));
            let ring_two = sum(&|c| weight(c) == 8);
            let outer = |i: usize| matches!(i, 0 | 1 | 7 | 8);
            let blocks = sum(&|c| outer(c / SIDE) && outer(c % SIDE));
            let centre = u32::from(grid[CENTRE]);
            assert_eq!(score(&grid), RING_BASE + centre + corners + ring_two);
            assert_eq!(ring_two, blocks);
        }
    }

    #[test]
    fn the_samples() {
        let model = TargetModel::new();
        for (text, expected) in [(SAMPLE_1, 2829), (SAMPLE_2, 2852)] {
            let puzzle = read_one(text);
            let answer = model.best(&puzzle);
            assert!(answer.complete);
            let best = answer.best.unwrap();
            assert_eq!(best.score, expected);
            assert_eq!(score(&best.grid), expected);
            assert_solves(&puzzle, &best.grid);
        }
    }

    /// On random puzzles with 35 or more givens (and 20 with 27 givens,
    /// which have hundreds of solutions each), every bound finds the maximum over all
    /// solutions, which the plain streaming search computes by visiting
    /// each one.
    #[test]
    fn branch_and_bound_equals_full_enumeration() {
        let model = TargetModel::new();
        let mut solver = Solver::new(model.problem());
        let mut rng = ChaCha8Rng::seed_from_u64(2009);
        let mut solutions = 0;
        for round in 0..120 {
            let keep = if round < 100 {
                rng.random_range(35..=40)
            } else {
                27
            };
            let puzzle = random_puzzle(&mut rng, keep);
            let all = model.best_by_enumeration(&puzzle, &Limits::none());
            assert!(all.complete);
            solutions += all.stats.solutions;
            let expected = all.best.expect("a puzzle cut from a grid has a solution");
            for bound in [
                Bound::Rings,
                Bound::Lines,
                Bound::Global,
                Bound::Nine,
                Bound::None,
            ] {
                let answer = model.best_with(&mut solver, &puzzle, bound, &Limits::none());
                let best = answer.best.expect("found");
                assert_eq!(
                    best.score, expected.score,
                    "bound {bound}, puzzle {puzzle:?}"
                );
                assert_eq!(score(&best.grid), best.score);
                assert_solves(&puzzle, &best.grid);
                assert!(answer.stats.solutions <= all.stats.solutions);
            }
        }
        // The puzzles are not all trivial.
        assert!(solutions > 5000, "{solutions}");
    }

    #[test]
    fn puzzles_without_solution() {
        let model = TargetModel::new();
        let grid = |rows: &[&str]| {
            let mut text = rows.join("\n");
            for _ in rows.len()..SIDE {
                text.push_str("\n0 0 0 0 0 0 0 0 0");
            }
            read_one(&text)
        };
        // Two 5s in a row: the givens clash.
        let clash = grid(&["5 0 0 0 0 0 0 0 5"]);
        assert!(clash.givens_clash());
        // Not a digit (only a hand-made puzzle can hold one).
        let mut not_a_digit = grid(&[]);
        not_a_digit.cells[40] = 12;
        assert!(not_a_digit.givens_clash());
        // No clash, but (0,0) and (0,1) both need the 2 (column 0 and
        // column 1 already hold a 1).
        let indirect = grid(&[
            "0 0 3 4 5 6 7 8 9",
            "0 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "1 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "0 1 0 0 0 0 0 0 0",
        ]);
        assert!(!indirect.givens_clash());
        for puzzle in [clash, not_a_digit, indirect] {
            for bound in [Bound::Rings, Bound::None] {
                let answer = model.best_with(
                    &mut Solver::new(model.problem()),
                    &puzzle,
                    bound,
                    &Limits::none(),
                );
                assert_eq!(answer.best, None);
                assert!(answer.complete);
            }
            assert_eq!(
                model.best_by_enumeration(&puzzle, &Limits::none()).best,
                None
            );
        }
    }

    #[test]
    fn a_full_grid_scores_itself() {
        let model = TargetModel::new();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let puzzle = random_puzzle(&mut rng, CELLS);
        let answer = model.best(&puzzle);
        let best = answer.best.unwrap();
        assert_eq!(best.grid, puzzle.cells);
        assert_eq!(best.score, score(&puzzle.cells));
        assert_eq!(answer.stats.solutions, 1);
    }

    #[test]
    fn several_puzzles_blank_lines_comments_and_crlf() {
        let text = format!(
            "# two puzzles\n\n{SAMPLE_1}\n\n\n{}",
            SAMPLE_2.replace('\n', "\r\n")
        );
        let puzzles: Vec<TargetPuzzle> = read_all(&text).into_iter().map(Result::unwrap).collect();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0].line, 3);
        assert_eq!(puzzles[1].line, 15);
        assert_eq!(puzzles[0].cells[..3], [7, 0, 0]);
        assert_eq!(puzzles[1].cells[80], 6);
        // Without blank lines, a puzzle ends after its ninth row.
        let joined = format!("{}\n{}", SAMPLE_1.trim_end(), SAMPLE_2);
        assert_eq!(
            read_all(&joined).into_iter().filter(Result::is_ok).count(),
            2
        );
        assert!(read_all("").is_empty());
        assert!(read_all("\n\n# nothing\n").is_empty());
    }

    #[test]
    fn bad_rows_are_reported_and_the_next_puzzle_is_read() {
        let good = SAMPLE_1.trim_end();
        let rows: Vec<&str> = good.lines().collect();
        let with_row = |k: usize, row: &str| {
            let mut rows = rows.clone();
            rows[k] = row;
            rows.join("\n")
        };
        let text = [
            rows[..8].join("\n"),              // lines 1-8: fewer than 9 rows
            with_row(2, "0 0 0 2 0 0 0 8"),    // lines 10-18: 8 numbers on line 12
            with_row(0, "7 0 0 9 0 0 0 0 10"), // lines 20-28: 10 on line 20
            with_row(8, "0 8 0 5 0 x 0 1 2"),  // lines 30-38: a letter on line 38
            good.to_owned(),                   // lines 40-48
        ]
        .join("\n\n");
        let found = errors(&text);
        assert_eq!(
            found,
            [
                Some((8, ParseErrorKind::TooFewRows { start: 1, rows: 8 })),
                Some((12, ParseErrorKind::RowLength(8))),
                Some((20, ParseErrorKind::NotADigit("10".into()))),
                Some((38, ParseErrorKind::NotANumber("x".into()))),
                None,
            ]
        );
        // The last puzzle is read whole.
        assert_eq!(read_all(&text).pop().unwrap().unwrap().line, 40);
        // A cut-off puzzle at the end of the input.
        assert_eq!(
            errors(&rows[..3].join("\n")),
            [Some((3, ParseErrorKind::TooFewRows { start: 1, rows: 3 }))]
        );
        // Other bad values.
        for (row, kind) in [
            (
                "1 2 3 4 5 6 7 8 -1",
                ParseErrorKind::NotANumber("-1".into()),
            ),
            ("1 2 3 4 5 6 7 8 9 0", ParseErrorKind::RowLength(10)),
            (
                "1 2 3 4 5 6 7 8 99999999999999999999",
                ParseErrorKind::NotADigit("99999999999999999999".into()),
            ),
            (
                "1,2,3,4,5,6,7,8,9",
                ParseErrorKind::NotANumber("1,2,3,4,5,6,7,8,9".into()),
            ),
        ] {
            assert_eq!(errors(&with_row(4, row)), [Some((5, kind))], "{row}");
        }
        let bytes: &[u8] = b"0 0 0 0 0 0 0 0 \xFF\n";
        let result: Vec<_> = Puzzles::new(bytes).collect();
        assert!(matches!(
            &result[..],
            [Err(InputError::Parse(ParseError {
                line: 1,
                kind: ParseErrorKind::Line(LineFault::NotUtf8)
            }))]
        ));
    }

    #[test]
    fn grids_print_as_they_read() {
        let puzzle = read_one(SAMPLE_2);
        assert_eq!(read_one(&format_grid(&puzzle.cells)).cells, puzzle.cells);
        assert!(format_grid(&puzzle.cells).starts_with("0 0 0 7 0 2 4 5 3\n"));
    }
}
