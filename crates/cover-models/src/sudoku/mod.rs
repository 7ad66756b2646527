//! Sudoku of every n²×n² size (4×4 to 64×64) as exact cover.
//!
//! - [`symbols`](Symbols): sizes, default and custom symbols, empty cells.
//! - [`Puzzles`]: reads puzzles one at a time from a [`BufRead`](std::io::BufRead)
//!   in any of the layouts below, each with its line number, or a
//!   [`ParseError`] after which reading goes on with the next puzzle.
//! - [`Model`]: the exact-cover problem of one size, built once: items are
//!   the cells, row-digit, column-digit and box-digit pairs; option
//!   `(row, column, digit)` covers four of them. A puzzle is its givens'
//!   options, forced.
//! - [`Solver`]: one per thread; keeps a model and an engine per size and
//!   solves puzzle after puzzle, handing each solution grid to a callback.
//! - [`TriadSolver`]: the triad engine for 9×9 (boxes and bands of
//!   triads, the rules as cardinality constraints to a fixpoint, vector
//!   operations in AVX-512, AVX2 or portable code, the same answers on
//!   every machine), `cover sudoku`'s default for 9×9. [`BandSolver`]: the
//!   band engine (candidates as bit boards per digit and band, singles and
//!   box-line to a fixpoint), faster where the triad engine runs its
//!   portable vectors. [`NineSolver`] is either 9×9 engine. Both search
//!   without recursion, binary guesses on a stack of copies, with the
//!   loop's counts and end checks of `bit_search`. Other sizes search
//!   by exact cover.
//! - A [`Puzzle`] writes a solution back in its own layout and symbols
//!   ([`Puzzle::write_solution`], [`Puzzle::line_form`],
//!   [`Puzzle::write_pretty`]).
//!
//! ## Layouts
//! Detected once per input, from the first line that is not blank, a
//! comment (`#`) or a rule line of `-+|=`:
//! - **line**: one puzzle per line, n⁴ cells: `53..7....6..195...` (POJ
//!   3074). Anything after the puzzle and white space or `:` is ignored
//!   (tdoku's `puzzle:count:solution`). The cells may also be separated by
//!   spaces or commas. Each line has its own size (16, 81, 256, 625, 1296,
//!   2401 or 4096 cells).
//! - **grid**: n² rows of n² cells (POJ 3076), puzzles separated by blank
//!   lines (or not at all). A blank line between two bands of a grid (n
//!   rows each: after rows 3 and 6 of a 9×9) is a gap, not an end, when
//!   every band before it had one, the next band follows it whole, then
//!   a blank line, `end` or the end of the input, and the bands of the run
//!   it starts make whole grids: so no short grid takes rows of the next. Rows may separate their cells by spaces, commas
//!   or `|`, and lines of `-+|=` with a `+` are skipped, so the pretty form
//!   reads back.
//!
//! A 16-cell first line is a 4×4 puzzle when its cells are all 4×4 symbols
//! (or empty) in the first block of lines, and a 16×16 row otherwise; with
//! custom symbols their number decides. A line `end` ends the input.
//!
//! Cells are symbols (one character each), or, when separated, numbers
//! `1..=n²` with `0` for empty: a separated puzzle is read as numbers when
//! one of its cells is longer than a character or is a digit that is not a
//! symbol.
//!
//! ## Symbols
//! Each size has default symbols ([`Symbols::default_for`]); `--symbols`
//! (a [`Symbols`] given to [`Puzzles::new`]) replaces them for every
//! puzzle, and then `0` is a digit when it is one of them, else an empty
//! cell. Without it, 16×16 and 25×25 puzzles written one character per
//! cell choose among their common sets ([`Symbols::common_for`]: A-P,
//! 1-9A-G, 0-9A-F; A-Y, 1-9A-P) by the characters each puzzle holds, and
//! are answered in the set they chose:
//! - the one set that reads every cell (`G` with digits: 1-9A-G; letters
//!   past `G`: A-P; ...);
//! - of several that give the same puzzle up to relabelling (no `0`, or
//!   `0` empty in all), the input's *settled* set (that of the last puzzle
//!   only one set read), else the first: A-P for letters alone, 1-9A-G for
//!   1-9A-F without `0` or `G`;
//! - when `0` is a digit in one (0-9A-F) and empty in another (1-9A-G,
//!   A-P), those are two different puzzles: `0` is a digit when the puzzle
//!   marks empty cells with `.`, `-` or `_` too, else the input's settled
//!   set decides, else the puzzle is an error asking for `--symbols`
//!   ([`ParseErrorKind::ZeroTwoWays`]). So no reading ever changes which
//!   cells are given.

pub mod band;
mod bit_search;
pub mod fpuzzles;
pub mod human;
pub mod logic;
mod model;
mod nine;
mod parse;
mod propagate;
mod symbols;
#[cfg(test)]
pub(crate) mod testing;
pub mod triad;
pub mod variant;
pub mod variant_generate;
pub mod variant_line;

use std::fmt::Write as _;
use std::sync::Arc;

pub use band::BandSolver;
pub use bit_search::BitStats;
pub use model::{Engine, Model, Solver};
pub use nine::NineSolver;
pub use parse::{
    begins_document, is_end_line, Entries, Entry, InputError, ParseError, ParseErrorKind, Puzzles,
    ResumePoint, VariantForm, VariantPuzzle, MAX_JSON_BYTES,
};
pub use propagate::{Level, SudokuPropagator};
pub use symbols::{is_empty_marker, Size, Symbols, SymbolsError, NOT_A_CELL};
pub use triad::{TriadSolver, Vectors};

/// The band engine's former name.
pub type BitSolver = BandSolver;

/// The band engine's former module: `sudoku::bits::BitSolver` and
/// `sudoku::bits::BitStats` still name what they did.
pub mod bits {
    pub use super::band::BandSolver as BitSolver;
    pub use super::bit_search::BitStats;
}

/// How the puzzles of an input are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line.
    Line,
    /// One row per line, n² lines per puzzle.
    Grid,
}

/// What stands between separated cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// One space.
    Space,
    /// A comma.
    Comma,
    /// A comma and a space.
    CommaSpace,
}

impl Separator {
    /// The separator as text.
    pub fn as_str(self) -> &'static str {
        match self {
            Separator::Space => " ",
            Separator::Comma => ",",
            Separator::CommaSpace => ", ",
        }
    }
}

/// Reads the one puzzle of a text, in any layout [`Puzzles`] reads:
/// `"53..7....6..195..."`, a grid, numbers separated by spaces.
impl std::str::FromStr for Puzzle {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        let mut puzzles = Puzzles::new(text.as_bytes(), None);
        let first = match puzzles.next() {
            Some(Ok(puzzle)) => puzzle,
            Some(Err(InputError::Parse(error))) => return Err(error),
            // A byte slice cannot fail to read; nothing read is no puzzle.
            Some(Err(InputError::Io(_))) | None => {
                return Err(ParseError {
                    line: 1,
                    kind: ParseErrorKind::NoPuzzle,
                })
            }
        };
        match puzzles.next() {
            None => Ok(first),
            Some(Ok(next)) => Err(ParseError {
                line: next.line,
                kind: ParseErrorKind::NotAlone,
            }),
            Some(Err(InputError::Parse(error))) => Err(error),
            Some(Err(InputError::Io(_))) => Ok(first),
        }
    }
}

/// Solves the one puzzle of `text` (any layout [`Puzzles`] reads) and
/// writes its first solution on one line, in the puzzle's symbols;
/// `Ok(None)` when it has none. For many puzzles, keep one [`Solver`].
/// ```
/// let solved = cover_models::sudoku::solve(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// );
/// assert_eq!(
///     solved.unwrap().unwrap(),
///     "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
/// );
/// assert!(cover_models::sudoku::solve("53..7").is_err());
/// ```
pub fn solve(text: &str) -> Result<Option<String>, ParseError> {
    let puzzle: Puzzle = text.parse()?;
    let (grid, _) = Solver::new(Engine::Auto).first(&puzzle);
    Ok(grid.map(|grid| puzzle.line_form(&grid)))
}

/// How the cells of a puzzle are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notation {
    /// One symbol per cell, nothing between: `53..7....`.
    Compact(Arc<Symbols>),
    /// One symbol per cell, cells separated: `5 3 . . 7`.
    Spaced(Arc<Symbols>, Separator),
    /// Numbers `1..=n²`, `0` for empty, separated: `12, 0, 7`.
    Numbers(Separator),
}

/// One puzzle as read ([`Puzzles`], or `"53..7...".parse()`), or made
/// from its cells ([`Puzzle::from_cells`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Puzzle {
    /// Its size.
    pub size: Size,
    /// The cells, row by row: 0 for empty, else the digit `1..=n²`.
    pub cells: Vec<u8>,
    /// The line where it starts, from 1.
    pub line: usize,
    /// Its layout.
    pub layout: Layout,
    /// How its cells were written.
    pub notation: Notation,
}

impl Puzzle {
    /// The puzzle of `size` with these `cells`, row by row (0 for empty,
    /// else the digit `1..=n²`), written on one line in the size's
    /// default symbols (numbers separated by spaces where it has none);
    /// `None` when the cells do not fill that size or hold a larger digit.
    pub fn from_cells(size: Size, cells: Vec<u8>) -> Option<Puzzle> {
        if cells.len() != size.cells() || cells.iter().any(|&d| usize::from(d) > size.side()) {
            return None;
        }
        let notation = match Symbols::default_for(size) {
            Some(symbols) => Notation::Compact(Arc::new(symbols)),
            None => Notation::Numbers(Separator::Space),
        };
        Some(Puzzle {
            size,
            cells,
            line: 1,
            layout: Layout::Line,
            notation,
        })
    }

    /// The number of given (non-empty) cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    fn write_cell(&self, out: &mut String, digit: u8) {
        match &self.notation {
            Notation::Compact(_) | Notation::Spaced(..) if digit == 0 => out.push('.'),
            Notation::Compact(symbols) | Notation::Spaced(symbols, _) => {
                out.push(symbols.symbol(digit))
            }
            Notation::Numbers(_) => {
                let _ = write!(out, "{digit}");
            }
        }
    }

    fn separator(&self) -> &'static str {
        match &self.notation {
            Notation::Compact(_) => "",
            Notation::Spaced(_, separator) | Notation::Numbers(separator) => separator.as_str(),
        }
    }

    fn write_cells(&self, out: &mut String, cells: &[u8]) {
        if let Notation::Compact(symbols) = &self.notation {
            if let Some(ascii) = symbols.ascii_symbols() {
                // The usual case: one byte per cell, written as bytes (a
                // char at a time costs ten times more).
                out.reserve(cells.len() + 1);
                let mut buffer = [0u8; 64];
                for chunk in cells.chunks(buffer.len()) {
                    for (byte, &d) in buffer.iter_mut().zip(chunk) {
                        // An empty cell (0) wraps past the symbols: `.`.
                        *byte = ascii
                            .get(d.wrapping_sub(1) as usize)
                            .copied()
                            .unwrap_or(b'.');
                    }
                    match std::str::from_utf8(&buffer[..chunk.len()]) {
                        Ok(text) => out.push_str(text),
                        // Unreachable: `ascii_symbols` are ASCII.
                        Err(_) => chunk.iter().for_each(|&d| self.write_cell(out, d)),
                    }
                }
                return;
            }
        }
        let separator = self.separator();
        out.reserve(cells.len() * (separator.len() + 2) + 1);
        for (k, &digit) in cells.iter().enumerate() {
            if k > 0 {
                out.push_str(separator);
            }
            self.write_cell(out, digit);
        }
    }

    /// Appends `grid` (digits `1..=n²`, row by row) in the puzzle's layout
    /// and notation: one line for a line puzzle, n² lines for a grid; each
    /// line ends in `\n`.
    pub fn write_solution(&self, out: &mut String, grid: &[u8]) {
        match self.layout {
            Layout::Line => {
                self.write_cells(out, grid);
                out.push('\n');
            }
            Layout::Grid => {
                for row in grid.chunks(self.size.side()) {
                    self.write_cells(out, row);
                    out.push('\n');
                }
            }
        }
    }

    /// The symbol the puzzle writes `digit` (`1..=n²`) with, or `None` when
    /// its cells are numbers.
    pub fn symbol_of(&self, digit: u8) -> Option<char> {
        match &self.notation {
            Notation::Compact(symbols) | Notation::Spaced(symbols, _) => {
                Some(symbols.symbol(digit))
            }
            Notation::Numbers(_) => None,
        }
    }

    /// `digit` as the puzzle writes it: its symbol, or its number.
    pub fn digit_text(&self, digit: u8) -> String {
        match self.symbol_of(digit) {
            Some(symbol) => symbol.to_string(),
            None => digit.to_string(),
        }
    }

    /// `grid` on one line in the puzzle's notation, without a line end
    /// (an empty cell, 0, as `.`, or `0` in numbers).
    pub fn line_form(&self, grid: &[u8]) -> String {
        let mut out = String::with_capacity(grid.len() * 2);
        self.write_cells(&mut out, grid);
        out
    }

    /// Appends `grid` drawn for people: cells separated by spaces, boxes by
    /// `|` and rule lines of `-` and `+`. Reads back as a grid.
    pub fn write_pretty(&self, out: &mut String, grid: &[u8]) {
        let n = self.size.box_side();
        let side = self.size.side();
        let width = match self.notation {
            Notation::Numbers(_) => side.to_string().len(),
            _ => 1,
        };
        let mut rule = String::from("+");
        for _ in 0..n {
            rule.push_str(&"-".repeat(n * (width + 1) + 1));
            rule.push('+');
        }
        rule.push('\n');
        for (r, row) in grid.chunks(side).enumerate() {
            if r % n == 0 {
                out.push_str(&rule);
            }
            for (c, &digit) in row.iter().enumerate() {
                if c % n == 0 {
                    out.push_str(if c == 0 { "| " } else { " | " });
                } else {
                    out.push(' ');
                }
                let mut cell = String::new();
                self.write_cell(&mut cell, digit);
                let _ = write!(out, "{cell:>width$}");
            }
            out.push_str(" |\n");
        }
        out.push_str(&rule);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> Arc<Symbols> {
        Arc::new(Symbols::default_for(Size::new(3).unwrap()).unwrap())
    }

    fn puzzle(size: usize, layout: Layout, notation: Notation) -> Puzzle {
        let size = Size::new(size).unwrap();
        Puzzle {
            size,
            cells: vec![0; size.cells()],
            line: 1,
            layout,
            notation,
        }
    }

    /// A valid 4×4 grid.
    const FOUR: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn solutions_in_each_layout() {
        let four = Arc::new(Symbols::default_for(Size::new(2).unwrap()).unwrap());
        let p = puzzle(2, Layout::Line, Notation::Compact(four.clone()));
        let mut out = String::new();
        p.write_solution(&mut out, &FOUR);
        assert_eq!(out, "1234341221434321\n");
        let p = puzzle(
            2,
            Layout::Grid,
            Notation::Spaced(four, Separator::CommaSpace),
        );
        let mut out = String::new();
        p.write_solution(&mut out, &FOUR);
        assert_eq!(out, "1, 2, 3, 4\n3, 4, 1, 2\n2, 1, 4, 3\n4, 3, 2, 1\n");
        let p = puzzle(2, Layout::Grid, Notation::Numbers(Separator::Comma));
        assert_eq!(p.line_form(&FOUR), "1,2,3,4,3,4,1,2,2,1,4,3,4,3,2,1");
    }

    #[test]
    fn pretty_grids() {
        let p = puzzle(2, Layout::Line, Notation::Compact(nine()));
        let mut out = String::new();
        p.write_pretty(&mut out, &FOUR);
        assert_eq!(
            out,
            "+-----+-----+\n\
             | 1 2 | 3 4 |\n\
             | 3 4 | 1 2 |\n\
             +-----+-----+\n\
             | 2 1 | 4 3 |\n\
             | 4 3 | 2 1 |\n\
             +-----+-----+\n"
        );
        let mut p = puzzle(4, Layout::Grid, Notation::Numbers(Separator::Space));
        p.cells = (0..256).map(|k| (k % 16 + 1) as u8).collect();
        let mut out = String::new();
        p.write_pretty(&mut out, &p.cells.clone());
        let first = out.lines().nth(1).unwrap();
        assert!(first.starts_with("|  1  2  3  4 |  5"), "{first}");
    }

    #[test]
    fn one_puzzle_parses_from_a_string_and_only_one() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let puzzle: Puzzle = line.parse().unwrap();
        assert_eq!((puzzle.size.side(), puzzle.givens()), (9, 30));
        // The same puzzle as a grid, with a comment.
        let grid: String = line
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
            .collect();
        let from_grid: Puzzle = format!("# a grid\n{grid}").parse().unwrap();
        assert_eq!(from_grid.cells, puzzle.cells);
        let error = |text: &str| text.parse::<Puzzle>().unwrap_err();
        assert_eq!(error("").kind, ParseErrorKind::NoPuzzle);
        assert_eq!(error("# nothing\n\n").kind, ParseErrorKind::NoPuzzle);
        let two = error(&format!("{line}\n{line}\n"));
        assert_eq!((two.line, two.kind), (2, ParseErrorKind::NotAlone));
        assert!(matches!(
            error("12345").kind,
            ParseErrorKind::NotASize { .. }
        ));
        assert_eq!(
            solve(&format!("{line}\n{line}")).unwrap_err().kind,
            ParseErrorKind::NotAlone
        );
        assert_eq!(solve("11..............").unwrap(), None);
    }

    #[test]
    fn a_puzzle_made_from_cells_is_checked_and_written_in_default_symbols() {
        let four = Size::new(2).unwrap();
        let cells = vec![1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4];
        let puzzle = Puzzle::from_cells(four, cells.clone()).unwrap();
        assert_eq!(puzzle.line_form(&puzzle.cells), "1.....2........4");
        assert_eq!(Puzzle::from_cells(four, cells[1..].to_vec()), None);
        let mut five = cells;
        five[0] = 5;
        assert_eq!(Puzzle::from_cells(four, five), None);
    }
}
