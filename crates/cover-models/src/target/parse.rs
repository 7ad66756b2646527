//! The input of target sudoku: [`Puzzles`] reads puzzles one at a time
//! from a [`BufRead`]: 9 rows of 9 whole numbers 0..=9 separated by white
//! space, 0 for an empty cell. Several puzzles may follow one another,
//! separated by blank lines (a puzzle also ends after its ninth row, so
//! the blank lines are optional). Lines starting with `#` are comments. A
//! bad row (not 9 numbers, a value that is not a digit) or a puzzle cut
//! short (fewer than 9 rows before a blank line or the end) is a
//! [`ParseError`] with its line; the reader then goes on with the next
//! puzzle. Givens that clash (two 5s in a row) are not an input error:
//! that puzzle has no solution. [`format_grid`] writes a grid back in the
//! same layout. It knows nothing of the model or the search.

use std::io::BufRead;

use rand::seq::SliceRandom;
use rand::Rng;
use thiserror::Error;

use super::grid::{box_of, Grid, CELLS, LINES, SIDE};
use crate::text::{self, excerpt, LineError, LineFault, LineReader};

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

    /// The puzzle of `grid` that keeps `keep` of its cells, chosen at
    /// random (all of them when `keep` is 81 or more).
    pub fn keeping<R: Rng + ?Sized>(grid: &Grid, keep: usize, rng: &mut R) -> TargetPuzzle {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        cells.shuffle(rng);
        let mut puzzle = [0; CELLS];
        for &cell in cells.iter().take(keep) {
            puzzle[cell] = grid[cell];
        }
        TargetPuzzle {
            cells: puzzle,
            line: 1,
        }
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

/// What the other tests of target sudoku share: the samples, reading, and
/// random puzzles cut from random full grids.
#[cfg(test)]
pub(super) use tests::{random_puzzle, read_one, SAMPLE_1, SAMPLE_2};

#[cfg(test)]
mod tests {
    use rand::rngs::ChaCha8Rng;

    use super::*;
    use crate::target::grid::random_grid;

    pub(in crate::target) const SAMPLE_1: &str =
        include_str!("../../../../fixtures/target/p1074_sample1.in");
    pub(in crate::target) const SAMPLE_2: &str =
        include_str!("../../../../fixtures/target/p1074_sample2.in");

    pub(in crate::target) fn read_all(text: &str) -> Vec<Result<TargetPuzzle, InputError>> {
        Puzzles::new(text.as_bytes()).collect()
    }

    pub(in crate::target) fn read_one(text: &str) -> TargetPuzzle {
        let mut puzzles = read_all(text);
        assert_eq!(puzzles.len(), 1);
        puzzles.remove(0).unwrap()
    }

    /// A puzzle cut from a random full grid, keeping `keep` cells.
    pub(in crate::target) fn random_puzzle(rng: &mut ChaCha8Rng, keep: usize) -> TargetPuzzle {
        TargetPuzzle::keeping(&random_grid(rng), keep, rng)
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
