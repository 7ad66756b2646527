//! Reading sudoku puzzles: [`Puzzles`], a streaming reader over any
//! [`BufRead`], in the layouts described in the [module](super) docs.
//!
//! The reader holds at most one puzzle and a few lines read ahead; a bad
//! puzzle is a [`ParseError`] with its line and reason, and reading goes on
//! with the next puzzle (for a grid, after the rest of the bad grid).
//!
//! It also owns the choice of a puzzle's symbol set where its size is
//! commonly written in several (the [Symbols](super#symbols) section of
//! the module docs), and the input's settled set that breaks ties.
//!
//! Read through [`Puzzles::entries`], an input may also hold variants
//! ([`Entry::Variant`]): variant lines ([`variant_line`](super::variant_line))
//! among line puzzles, f-puzzles JSON documents (one object, on one line
//! or many) and f-puzzles link strings (with or without the link around
//! them) on lines of their own. Deciding which form a line is belongs
//! here; the forms themselves belong to their modules.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use thiserror::Error;

use serde_json::Value;

use super::fpuzzles::{self, FPuzzle, FPuzzlesError};
use super::symbols::{is_empty_marker, Size, Symbols, NOT_A_CELL};
use super::variant::{Rules, RulesError};
use super::variant_line::{self, VariantLineError};
use super::{Layout, Notation, Puzzle, Separator};
use crate::text::{self, excerpt, Line, LineError, LineFault, LineReader};

/// What is wrong with a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The line cannot be read as text (not UTF-8, too long, binary).
    #[error("{0}")]
    Line(LineFault),
    /// A line whose cell count is no sudoku's.
    #[error(
        "{cells} cells is not a sudoku size (a puzzle line has 16, 81, 256, 625, 1296, 2401 \
         or 4096 cells; a grid row 4, 9, 16, 25, 36, 49 or 64)"
    )]
    NotASize {
        /// Cells found on the line.
        cells: usize,
    },
    /// A line with another cell count than the symbols given call for.
    #[error("{found} cells, expected {expected} (a {size} sudoku, as the symbols given say)")]
    WrongCellCount {
        /// The cells a line or row of this size has.
        expected: usize,
        /// The cells found.
        found: usize,
        /// The size the symbols are for.
        size: Size,
    },
    /// A grid row with another cell count than the grid's first row.
    #[error("row {row} has {found} cells, expected {expected}")]
    RowLength {
        /// The row, from 1.
        row: usize,
        /// The side of the grid.
        expected: usize,
        /// The cells found.
        found: usize,
    },
    /// A grid that ends before all its rows.
    #[error("the grid ends after {found} rows, expected {expected}")]
    ShortGrid {
        /// The side of the grid.
        expected: usize,
        /// The rows found.
        found: usize,
    },
    /// A cell that is neither a symbol nor an empty cell.
    #[error(
        "unknown symbol {symbol:?} in cell {cell} (the {size} symbols are {symbols}; \
         empty cells are {empty}){hint}"
    )]
    UnknownSymbol {
        /// The cell as written.
        symbol: String,
        /// Its place: in the line for a line puzzle, in the row for a grid.
        cell: usize,
        /// The size of the puzzle.
        size: Size,
        /// The symbols in use.
        symbols: String,
        /// The empty-cell markers with those symbols (`. - _ or 0`).
        empty: &'static str,
        /// Empty, or, for a size written in several common sets none of
        /// which reads every cell, a note naming them.
        hint: String,
    },
    /// A 16×16 puzzle whose `0`s may be a digit or empty cells, which
    /// gives two different puzzles: only `--symbols` can tell.
    #[error(
        "the {size} puzzle reads two ways that are different puzzles: with `0` a digit \
         ({digit}) or with `0` an empty cell ({empty}); give --symbols {digit} (`.` marks \
         empty cells) or --symbols {empty} (`0` and `.` do)"
    )]
    ZeroTwoWays {
        /// The size of the puzzle.
        size: Size,
        /// The symbols in which `0` is a digit.
        digit: String,
        /// The symbols in which `0` marks an empty cell.
        empty: String,
    },
    /// A number that is not a digit of this size.
    #[error("number {value} in cell {cell} is larger than {side}")]
    NumberTooLarge {
        /// The number as written.
        value: String,
        /// Its place in the line or row.
        cell: usize,
        /// The largest digit of the size.
        side: usize,
    },
    /// A size without default symbols written one character per cell.
    #[error(
        "{size} has no default symbols: separate its cells by spaces and write numbers, or \
         give --symbols"
    )]
    NoSymbols {
        /// The size.
        size: Size,
    },
    /// A variant line whose cells or fields are wrong.
    #[error("variant line: {0}")]
    VariantLine(VariantLineError),
    /// f-puzzles data that cannot be read.
    #[error("{0}")]
    FPuzzles(FPuzzlesError),
    /// f-puzzles data whose rules cannot be (a cage sum no digits reach, a
    /// piece in two parts).
    #[error("f-puzzles data: {0}")]
    FPuzzlesRules(RulesError),
    /// An f-puzzles JSON document longer than [`MAX_JSON_BYTES`].
    #[error("the JSON document is longer than {MAX_JSON_BYTES} bytes")]
    JsonTooLong,
    /// Text read as one puzzle ([`Puzzle`]'s `FromStr`) that has none.
    #[error("no puzzle in the text")]
    NoPuzzle,
    /// Text read as one puzzle that holds another, which starts here.
    #[error("a second puzzle starts here, where one was expected")]
    NotAlone,
}

/// The longest f-puzzles JSON document read (a 16×16 with every rule is
/// a few hundred kilobytes).
pub const MAX_JSON_BYTES: usize = 16 << 20;

/// One puzzle of an input read with variants ([`Puzzles::entries`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A classic puzzle, as [`Puzzles`] reads it.
    Classic(Puzzle),
    /// A variant puzzle (boxed: a classic entry stays small).
    Variant(Box<VariantPuzzle>),
}

impl Entry {
    /// The line where it starts, from 1.
    pub fn line(&self) -> usize {
        match self {
            Entry::Classic(puzzle) => puzzle.line,
            Entry::Variant(puzzle) => puzzle.line,
        }
    }
}

/// A variant puzzle as read: its rules, cells, and the form it was
/// written in (which its answers take too).
#[derive(Debug, Clone, PartialEq)]
pub struct VariantPuzzle {
    /// Its rules.
    pub rules: Rules,
    /// Its cells, row-major, 0 for empty.
    pub cells: Vec<u8>,
    /// The line where it starts, from 1.
    pub line: usize,
    /// How it was written.
    pub form: VariantForm,
}

/// The forms a variant puzzle is read from.
#[derive(Debug, Clone, PartialEq)]
pub enum VariantForm {
    /// A variant line.
    Line,
    /// An f-puzzles JSON document, kept as read.
    FPuzzlesJson(Value),
    /// An f-puzzles link string.
    FPuzzlesLink {
        /// The puzzle it holds.
        puzzle: FPuzzle,
        /// What stood before the string (`https://f-puzzles.com/?load=`),
        /// `""` for the string alone.
        prefix: String,
        /// Whether the string's `+`, `/` and `=` were escaped (`%2B` …).
        escaped: bool,
    },
}

impl VariantPuzzle {
    /// `grid` (a solution) in the puzzle's own form, on one line: a
    /// variant line with the same fields; the JSON document with the
    /// solution's digits as the values of the cells that were not given;
    /// a link string (the same link around it) of that JSON.
    pub fn write_answer(&self, grid: &[u8]) -> String {
        match &self.form {
            VariantForm::Line => variant_line::write(&self.rules, grid),
            VariantForm::FPuzzlesJson(value) => {
                let mut value = value.clone();
                fill_values(&mut value, self.rules.side(), grid);
                value.to_string()
            }
            VariantForm::FPuzzlesLink {
                puzzle,
                prefix,
                escaped,
            } => {
                let mut value = fpuzzles::to_json(puzzle);
                fill_values(&mut value, self.rules.side(), grid);
                let mut packed = lz_str::compress_to_base64(&value.to_string());
                if *escaped {
                    packed = packed
                        .replace('+', "%2B")
                        .replace('/', "%2F")
                        .replace('=', "%3D");
                }
                format!("{prefix}{packed}")
            }
        }
    }

    /// The name of its form: `line`, `f-puzzles` or `f-puzzles link`.
    pub fn form_name(&self) -> &'static str {
        match self.form {
            VariantForm::Line => "line",
            VariantForm::FPuzzlesJson(_) => "f-puzzles",
            VariantForm::FPuzzlesLink { .. } => "f-puzzles link",
        }
    }
}

/// Sets the `value` of every cell of an f-puzzles document that is not a
/// given to its digit in `grid`.
fn fill_values(value: &mut Value, side: usize, grid: &[u8]) {
    let Some(rows) = value.get_mut("grid").and_then(Value::as_array_mut) else {
        return;
    };
    for (r, row) in rows.iter_mut().enumerate().take(side) {
        let Some(row) = row.as_array_mut() else {
            continue;
        };
        for (c, cell) in row.iter_mut().enumerate().take(side) {
            let Some(cell) = cell.as_object_mut() else {
                continue;
            };
            if cell.get("given").and_then(Value::as_bool) != Some(true) {
                cell.insert("value".into(), Value::from(grid[r * side + c]));
            }
        }
    }
}

/// Whether `token` may be an f-puzzles link string without a link around
/// it: long, base64's characters only, and no classic puzzle's length (a
/// classic line of digits is base64 too).
fn may_be_link_string(token: &str) -> bool {
    token.len() >= 24
        && Size::from_cells(token.len()).is_none()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

/// Whether `token` is written as a link (`https://…?load=…`).
fn is_link(token: &str) -> bool {
    token.contains("load=") || token.starts_with("http://") || token.starts_with("https://")
}

/// The depth of braces of a JSON text, outside strings, as it is read.
#[derive(Debug, Default)]
struct JsonDepth {
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// A brace opened and every brace closed: the object is whole.
    closed: bool,
}

impl JsonDepth {
    fn feed(&mut self, text: &str) {
        for b in text.bytes() {
            if self.in_string {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.closed = true;
                    }
                }
                _ => {}
            }
        }
    }
}

/// A bad puzzle: the line of the problem and what is wrong.
pub type ParseError = LineError<ParseErrorKind>;

/// Why a puzzle could not be read.
pub type InputError = text::InputError<ParseError>;

/// What a line is, for the reader.
enum Kind<'a> {
    Blank,
    Comment,
    /// A box rule of the pretty form (`+-----+-----+`).
    Rule,
    End,
    Content(&'a str),
}

/// Whether a line ends an input of puzzles: `end`, in any case, alone
/// on its line. Nothing after it is read.
pub fn is_end_line(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("end")
}

/// Whether a line may begin an entry that goes on over the lines after
/// it: an f-puzzles JSON document (its first character `{`). The one
/// thing that keeps an input of line puzzles from being cut at any line
/// end (see [`ResumePoint`]).
pub fn begins_document(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

fn classify(text: &str) -> Kind<'_> {
    let t = text.trim();
    if t.is_empty() {
        Kind::Blank
    } else if t.starts_with('#') {
        Kind::Comment
    } else if is_end_line(t) {
        Kind::End
    } else if t.contains('+') && t.chars().all(|c| "-+|= \t".contains(c)) {
        Kind::Rule
    } else {
        Kind::Content(t)
    }
}

/// The place of the first byte of `bytes` that `hit` holds for. A block
/// of 16 bytes is tested whole, without an early exit, which compilers
/// turn into vector compares: every line is scanned so, on the one
/// thread that reads, the serial stage of a parallel run.
#[inline]
fn first_match(bytes: &[u8], hit: impl Fn(u8) -> bool) -> Option<usize> {
    const BLOCK: usize = 16;
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut start = 0;
    for block in &mut blocks {
        if block.iter().fold(false, |any, &b| any | hit(b)) {
            break;
        }
        start += BLOCK;
    }
    bytes[start..]
        .iter()
        .position(|&b| hit(b))
        .map(|k| start + k)
}

/// Lines read ahead, up to a blank line or the like (see
/// `Puzzles::block_ahead`).
#[derive(Debug, Clone, Copy)]
struct Block {
    /// Its content rows (comments and rules not counted).
    rows: usize,
    /// The place, among the lines read ahead, of the line that ended it.
    end: usize,
    /// The number of its last content row (0 for none).
    last_line: usize,
    /// What ended it.
    after: BlockEnd,
}

/// What ends a [`Block`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockEnd {
    Blank,
    End,
    Eof,
    /// A line that cannot be read (too long, not UTF-8).
    Fault,
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == '|'
}

/// The most cells of a line or row that are kept: one more than the
/// largest sudoku has (64×64, 4,096 cells), so that a line of millions of
/// cells (it may hold 4 MiB) is counted, not stored, on its way to an
/// error.
const MOST_KEPT: usize = 4096 + 1;

/// Some of the items of `items` (the first [`MOST_KEPT`]), and how many
/// there are in all.
#[derive(Debug, Clone)]
struct Kept<'a> {
    items: Vec<&'a str>,
    count: usize,
}

impl<'a> Kept<'a> {
    fn of(items: impl Iterator<Item = &'a str>) -> Kept<'a> {
        let mut kept = Kept {
            items: Vec::new(),
            count: 0,
        };
        for item in items {
            if kept.items.len() < MOST_KEPT {
                kept.items.push(item);
            }
            kept.count += 1;
        }
        kept
    }

    /// All the items, when they were all kept.
    fn all(self) -> Option<Vec<&'a str>> {
        (self.items.len() == self.count).then_some(self.items)
    }
}

/// The separated fields of `text`.
fn fields(text: &str) -> Kept<'_> {
    Kept::of(text.split(is_separator).filter(|f| !f.is_empty()))
}

/// The separator between the first two fields of `text`.
fn separator_of(text: &str) -> Separator {
    let text = text.trim_start_matches(is_separator);
    let after_first = text.trim_start_matches(|c| !is_separator(c));
    let gap: String = after_first
        .chars()
        .take_while(|&c| is_separator(c))
        .collect();
    match gap.find(',') {
        Some(at) if gap[at + 1..].starts_with(' ') => Separator::CommaSpace,
        Some(_) => Separator::Comma,
        None => Separator::Space,
    }
}

/// The characters of `fields`, each as its own cell.
fn chars_of<'a>(fields: &[&'a str]) -> Kept<'a> {
    Kept::of(fields.iter().flat_map(|field| {
        field
            .char_indices()
            .map(|(at, c)| &field[at..at + c.len_utf8()])
    }))
}

/// How a line puzzle's text splits into cells.
struct LineCells<'a> {
    /// The text up to the first white space or `:`.
    first: &'a str,
    /// Its length in characters.
    first_len: usize,
    /// The separated fields before any `:`.
    fields: Kept<'a>,
}

impl<'a> LineCells<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.trim();
        let first = text
            .split(|c: char| c.is_whitespace() || c == ':')
            .next()
            .unwrap_or("");
        let before_colon = text.split(':').next().unwrap_or("");
        LineCells {
            first,
            first_len: first.chars().count(),
            fields: fields(before_colon),
        }
    }

    /// The cells, when there are `cells` of them (written compactly or
    /// separated); `Err(found)` otherwise.
    fn take(&self, fits: impl Fn(usize) -> bool) -> Result<(Vec<&'a str>, bool), usize> {
        let fields = self.fields.count;
        let fitting = |cells: Kept<'a>| cells.all().filter(|cells| fits(cells.len()));
        if fits(self.first_len) {
            fitting(chars_of(&[self.first]))
                .map(|cells| (cells, false))
                .ok_or(self.first_len)
        } else if fields >= 2 && fits(fields) {
            fitting(self.fields.clone())
                .map(|cells| (cells, true))
                .ok_or(fields)
        } else if fields >= 2 && self.first_len <= 2 {
            Err(fields)
        } else {
            Err(self.first_len)
        }
    }
}

/// The cells of a grid row with `side` cells: separated fields, or the
/// characters of the fields (`53. .7. ...`); `Err(found)` otherwise.
fn row_cells(text: &str, side: Option<usize>) -> Result<(Vec<&str>, bool), usize> {
    let fields = fields(text);
    let fits = |n: usize| match side {
        Some(side) => n == side,
        None => Size::from_side(n).is_some(),
    };
    let field_count = fields.count;
    // A row has at most 64 cells, so fields past those kept cannot fit.
    let Some(fields) = fields.all() else {
        return Err(field_count);
    };
    if field_count >= 2 && fits(field_count) {
        return Ok((fields, true));
    }
    let chars = chars_of(&fields);
    let char_count = chars.count;
    if let Some(chars) = chars.all().filter(|chars| fits(chars.len())) {
        return Ok((chars, field_count >= 2));
    }
    Err(if field_count >= 2 {
        field_count
    } else {
        char_count
    })
}

/// The characters of one puzzle's cells, for choosing its symbol set.
#[derive(Debug, Default)]
struct Seen {
    /// The ASCII characters present, as bits.
    ascii: u128,
    /// Some cell is not one ASCII character.
    other: bool,
}

impl Seen {
    fn of_bytes(bytes: &[u8]) -> Seen {
        let mut seen = Seen::default();
        for &b in bytes {
            match b {
                0..=127 => seen.ascii |= 1 << b,
                _ => seen.other = true,
            }
        }
        seen
    }

    fn of_cells(cells: &[&str]) -> Seen {
        let mut seen = Seen::default();
        for cell in cells {
            match cell.as_bytes() {
                &[b] if b.is_ascii() => seen.ascii |= 1 << b,
                _ => seen.other = true,
            }
        }
        seen
    }

    fn has(&self, b: u8) -> bool {
        b < 128 && self.ascii >> b & 1 == 1
    }

    /// The ASCII characters present.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        (0..128u8).filter(|&b| self.has(b))
    }

    /// Whether `symbols` read every cell (as a symbol or an empty cell).
    fn fit(&self, symbols: &Symbols) -> bool {
        !self.other && self.bytes().all(|b| symbols.cell_of_byte(b) != NOT_A_CELL)
    }

    /// How many of the characters present `symbols` read as digits.
    fn read_by(&self, symbols: &Symbols) -> usize {
        self.bytes()
            .filter(|&b| !matches!(symbols.cell_of_byte(b), 0 | NOT_A_CELL))
            .count()
    }
}

/// The symbol set a puzzle's characters choose, when its size is written
/// in several ([`Symbols::common_for`]).
enum Choice {
    /// Read with these.
    Read(Arc<Symbols>),
    /// `0` is a digit in one fitting set and empty in another, and nothing
    /// tells which: two different puzzles.
    ZeroTwoWays {
        digit: Arc<Symbols>,
        empty: Arc<Symbols>,
    },
    /// No set reads every cell; the one that reads most of them.
    Unread(Arc<Symbols>),
}

/// Reads puzzles one at a time; see the [module](super) docs.
#[derive(Debug)]
pub struct Puzzles<R> {
    lines: LineReader<R>,
    /// Lines read ahead and not yet used.
    ahead: VecDeque<Line>,
    /// The symbols given by the user, which also fix the size.
    custom: Option<Arc<Symbols>>,
    /// The default symbols of each box side.
    defaults: Vec<Option<Arc<Symbols>>>,
    /// The symbol sets of each box side read without `--symbols`, in the
    /// order of preference ([`Symbols::common_for`]).
    readings: Vec<Vec<Arc<Symbols>>>,
    /// Per box side, the set of the last puzzle that fitted only it (or
    /// whose `0` the `.` beside it showed to be a digit): the input's own
    /// set, which settles later puzzles that fit several.
    settled: Vec<Option<usize>>,
    layout: Option<Layout>,
    /// The side of the last grid begun, to skip the rows of a grid whose
    /// first row could not be read.
    grid_side: Option<usize>,
    /// The last line of the run of gapped grids last counted whole (see
    /// `band_gap`): gaps before it need no counting again.
    gapped_run_until: usize,
    /// A line that could not be read came before the layout was known,
    /// with no blank line since: if grids follow, it was a grid's first row.
    lost_first_row: bool,
    done: bool,
    /// Reading stopped before the end of the input: an `end` line, or an
    /// error of the input itself.
    stopped: bool,
    /// Whether variants are read too ([`Puzzles::entries`]).
    variants: bool,
}

impl<R: BufRead> Puzzles<R> {
    /// Reads `reader`, with `symbols` for every puzzle when given (which
    /// also fixes the size), else each size's default symbols.
    pub fn new(reader: R, symbols: Option<Symbols>) -> Self {
        Puzzles::from_lines(LineReader::new(reader), symbols)
    }

    /// Reads the lines of `lines` (a [`LineReader`] with limits of its
    /// own, say) as [`Puzzles::new`] does.
    pub fn from_lines(lines: LineReader<R>, symbols: Option<Symbols>) -> Self {
        Puzzles::with_symbols(lines, symbols.map(Arc::new))
    }

    fn with_symbols(lines: LineReader<R>, custom: Option<Arc<Symbols>>) -> Self {
        let defaults = (0..=Size::MAX_BOX)
            .map(|n| Size::new(n).and_then(Symbols::default_for).map(Arc::new))
            .collect();
        let readings = (0..=Size::MAX_BOX)
            .map(|n| {
                Size::new(n)
                    .map(Symbols::common_for)
                    .unwrap_or_default()
                    .into_iter()
                    .map(Arc::new)
                    .collect()
            })
            .collect();
        Puzzles {
            lines,
            ahead: VecDeque::new(),
            custom,
            defaults,
            readings,
            settled: vec![None; Size::MAX_BOX + 1],
            layout: None,
            grid_side: None,
            gapped_run_until: 0,
            lost_first_row: false,
            done: false,
            stopped: false,
            variants: false,
        }
    }

    /// Reads `reader` as the rest of an input whose first part another
    /// reader read up to `point` (see [`ResumePoint`]): line numbers go on
    /// from there, and the input's layout and settled symbol sets are
    /// those of the first part.
    pub fn resume(reader: R, point: &ResumePoint) -> Self {
        let (max_line, max_skipped) = point.line_limits;
        let mut lines = LineReader::with_limits(reader, max_line, max_skipped);
        lines.continue_after(point.line);
        // A copy of the symbols of its own, as of the defaults: readers on
        // several threads then share no reference count, which every
        // puzzle read takes and every puzzle dropped gives back.
        let custom = point.custom.as_deref().cloned().map(Arc::new);
        let mut puzzles = Puzzles::with_symbols(lines, custom);
        puzzles.layout = Some(Layout::Line);
        puzzles.settled.clone_from(&point.settled);
        puzzles
    }

    /// Where this reader stands, when another could read the rest of the
    /// input from here ([`Puzzles::resume`]): the input has one puzzle per
    /// line (known from its first), no line was read ahead, and reading
    /// did not stop before the end (at an `end` line, a fault that ends
    /// the input, an I/O error). `None` otherwise.
    pub fn resume_point(&self) -> Option<ResumePoint> {
        let between_lines = self.layout == Some(Layout::Line) && self.ahead.is_empty();
        (between_lines && !self.stopped && !self.lines.ended_by_fault()).then(|| ResumePoint {
            line: self.lines.line_number(),
            line_limits: self.lines.limits(),
            custom: self.custom.clone(),
            settled: self.settled.clone(),
        })
    }

    /// The input, at the start of the line after the last one read (and
    /// those read ahead: see [`Puzzles::resume_point`]).
    pub fn into_inner(self) -> R {
        self.lines.into_inner()
    }

    /// Reads variants too: the input's puzzles as [`Entry`]s, classic ones
    /// as before and variants (variant lines among line puzzles, f-puzzles
    /// JSON documents and link strings) as [`Entry::Variant`]. A bad
    /// variant is a [`ParseError`] like a bad classic puzzle, and reading
    /// goes on.
    pub fn entries(mut self) -> Entries<R> {
        self.variants = true;
        Entries { puzzles: self }
    }

    /// The layout of the input, once the first puzzle was seen.
    pub fn layout(&self) -> Option<Layout> {
        self.layout
    }

    fn next_line(&mut self) -> io::Result<Option<Line>> {
        match self.ahead.pop_front() {
            Some(line) => Ok(Some(line)),
            None => self.lines.next_line(),
        }
    }

    /// The `k`-th line after the current one, read ahead.
    fn peek(&mut self, k: usize) -> io::Result<Option<&Line>> {
        while self.ahead.len() <= k {
            match self.lines.next_line()? {
                Some(line) => self.ahead.push_back(line),
                None => return Ok(None),
            }
        }
        Ok(self.ahead.get(k))
    }

    fn symbols_for(&self, size: Size) -> Option<Arc<Symbols>> {
        match &self.custom {
            Some(symbols) => Some(symbols.clone()),
            None => self.defaults[size.box_side()].clone(),
        }
    }

    /// The set among `size`'s common ones that a puzzle with the characters
    /// `seen` is written in: the only one that reads every cell; of several
    /// that give the same puzzle up to relabelling (they agree on `0`), the
    /// input's settled set, else the first in order of preference; when
    /// `0` is a digit in one and empty in another, the one where it is a
    /// digit if the puzzle marks empty cells otherwise (`.`, `-`, `_`),
    /// else the input's settled set, else neither.
    fn choose(&mut self, size: Size, seen: &Seen) -> Choice {
        let n = size.box_side();
        let readings = &self.readings[n];
        let fitting: Vec<usize> = (0..readings.len())
            .filter(|&k| seen.fit(&readings[k]))
            .collect();
        let Some(&first) = fitting.first() else {
            let closest = (0..readings.len())
                .rev()
                .max_by_key(|&k| seen.read_by(&readings[k]))
                .expect("a size with common sets has at least one");
            return Choice::Unread(readings[closest].clone());
        };
        let settled = self.settled[n].filter(|k| fitting.contains(k));
        let digit = fitting
            .iter()
            .copied()
            .find(|&k| readings[k].zero_is_symbol());
        let empty = fitting
            .iter()
            .copied()
            .find(|&k| !readings[k].zero_is_symbol());
        let pick = match (digit, empty) {
            _ if fitting.len() == 1 => {
                self.settled[n] = Some(first);
                first
            }
            (Some(digit), Some(empty)) if seen.has(b'0') => {
                if seen.has(b'.') || seen.has(b'-') || seen.has(b'_') {
                    self.settled[n] = Some(digit);
                    digit
                } else if let Some(settled) = settled {
                    settled
                } else {
                    return Choice::ZeroTwoWays {
                        digit: readings[digit].clone(),
                        empty: readings[empty].clone(),
                    };
                }
            }
            _ => settled.unwrap_or(first),
        };
        Choice::Read(self.readings[n][pick].clone())
    }

    /// Decides the layout from the first content line (the outer error:
    /// the input failed in the lines looked at ahead).
    fn detect(&mut self, text: &str) -> io::Result<Result<Layout, ParseErrorKind>> {
        let line = LineCells::new(text);
        if let Some(symbols) = &self.custom {
            let size = symbols.size();
            return Ok(
                match (
                    line.take(|n| n == size.cells()),
                    row_cells(text, Some(size.side())),
                ) {
                    (Ok(_), _) => Ok(Layout::Line),
                    (_, Ok(_)) => Ok(Layout::Grid),
                    (Err(found), _) => Err(ParseErrorKind::WrongCellCount {
                        expected: size.cells(),
                        found,
                        size,
                    }),
                },
            );
        }
        let as_line = line.take(|n| Size::from_cells(n).is_some());
        let as_row = row_cells(text, None);
        Ok(match (as_line, as_row) {
            // 16 cells: a 4×4 puzzle, or the first row of a 16×16 grid.
            (Ok((cells, _)), Ok(_)) if self.block_fits_four(&cells)? => Ok(Layout::Line),
            (Ok(_), Ok(_)) => Ok(Layout::Grid),
            (Ok(_), Err(_)) => Ok(Layout::Line),
            (Err(_), Ok(_)) => Ok(Layout::Grid),
            (Err(found), Err(_)) => Err(ParseErrorKind::NotASize { cells: found }),
        })
    }

    /// Whether `cells` and the lines after them up to a blank line (at most
    /// 15) are all written with 4×4 symbols or empty cells.
    fn block_fits_four(&mut self, cells: &[&str]) -> io::Result<bool> {
        let four = self.defaults[2].clone().expect("4×4 has default symbols");
        let fits = |cells: &[&str]| {
            cells.iter().all(|cell| {
                let mut chars = cell.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => four.digit(c).is_some() || is_empty_marker(c, &four),
                    _ => false,
                }
            })
        };
        if !fits(cells) {
            return Ok(false);
        }
        // The lines looked at are held until read; so that 15 of them do
        // not hold 15 times the line limit, stop once they hold one.
        let mut held = 0;
        for k in 0..15 {
            let Some(line) = self.peek(k)? else {
                break;
            };
            let Ok(text) = &line.text else {
                break;
            };
            held += text.len();
            if held > text::MAX_LINE_BYTES {
                break;
            }
            match classify(text) {
                Kind::Content(t) => {
                    if let Ok((cells, _)) = row_cells(t, Some(16)) {
                        if !fits(&cells) {
                            return Ok(false);
                        }
                    }
                }
                Kind::Comment | Kind::Rule => {}
                Kind::Blank | Kind::End => break,
            }
        }
        Ok(true)
    }

    /// Reads the puzzle on line `number`.
    fn line_puzzle(&mut self, number: usize, text: &str) -> Result<Puzzle, ParseError> {
        if let Some(puzzle) = self.compact_line(number, text) {
            return Ok(puzzle);
        }
        let at = |kind| ParseError { line: number, kind };
        let line = LineCells::new(text);
        let custom = self.custom.as_ref().map(|s| s.size());
        let taken = line.take(|n| match custom {
            Some(size) => n == size.cells(),
            None => Size::from_cells(n).is_some(),
        });
        let (cells, separated) = taken.map_err(|found| {
            at(match custom {
                Some(size) => ParseErrorKind::WrongCellCount {
                    expected: size.cells(),
                    found,
                    size,
                },
                None => ParseErrorKind::NotASize { cells: found },
            })
        })?;
        let size = Size::from_cells(cells.len()).expect("checked by take");
        let separator = separator_of(text);
        let places: Vec<(usize, usize)> = (0..cells.len()).map(|k| (number, k + 1)).collect();
        let (digits, notation) = self.decode(size, &cells, &places, separated, separator)?;
        Ok(Puzzle {
            size,
            cells: digits,
            line: number,
            layout: Layout::Line,
            notation,
        })
    }

    /// The fast path of [`Puzzles::line_puzzle`], for the usual line: one
    /// ASCII character per cell, every one a symbol or empty. `None` for
    /// anything else (which the general path then reads or reports).
    fn compact_line(&mut self, number: usize, text: &str) -> Option<Puzzle> {
        // By bytes: a compact line is all ASCII (else it is not one).
        let bytes = text.as_bytes();
        let end =
            first_match(bytes, |b| b.is_ascii_whitespace() || b == b':').unwrap_or(bytes.len());
        let bytes = &bytes[..end];
        let size = match &self.custom {
            Some(symbols) => Some(symbols.size()).filter(|s| s.cells() == bytes.len())?,
            None => Size::from_cells(bytes.len())?,
        };
        let symbols = if self.custom.is_none() && self.readings[size.box_side()].len() > 1 {
            match self.choose(size, &Seen::of_bytes(bytes)) {
                Choice::Read(symbols) => symbols,
                // The general path reports it.
                Choice::ZeroTwoWays { .. } | Choice::Unread(_) => return None,
            }
        } else {
            self.symbols_for(size)?
        };
        let digits: Vec<u8> = bytes.iter().map(|&b| symbols.cell_of_byte(b)).collect();
        if digits.contains(&NOT_A_CELL) {
            return None;
        }
        Some(Puzzle {
            size,
            cells: digits,
            line: number,
            layout: Layout::Line,
            notation: Notation::Compact(symbols),
        })
    }

    /// Reads the grid whose first row is on line `number`.
    fn grid_puzzle(&mut self, number: usize, text: &str) -> Result<Puzzle, InputError> {
        let custom = self.custom.as_ref().map(|s| s.size());
        let (first, first_separated) = match row_cells(text, custom.map(Size::side)) {
            Ok(row) => row,
            Err(found) => {
                self.skip_grid(None)?;
                let kind = match custom {
                    Some(size) => ParseErrorKind::WrongCellCount {
                        expected: size.side(),
                        found,
                        size,
                    },
                    None => ParseErrorKind::NotASize { cells: found },
                };
                return Err(ParseError { line: number, kind }.into());
            }
        };
        let size = Size::from_side(first.len()).expect("checked by row_cells");
        let side = size.side();
        self.grid_side = Some(side);
        // Blank lines between bands seen so far (see `band_gap`).
        let mut gaps = 0;
        let mut cells: Vec<String> = Vec::with_capacity(size.cells());
        let mut places = Vec::with_capacity(size.cells());
        let mut separated = first_separated;
        let mut separator = first_separated.then(|| separator_of(text));
        for (k, cell) in first.iter().enumerate() {
            cells.push(excerpt(cell));
            places.push((number, k + 1));
        }
        let mut rows = 1;
        while rows < side {
            let Some(line) = self.next_line()? else {
                return Err(short(number, side, rows));
            };
            let text = match line.text {
                Ok(text) => text,
                Err(fault) => {
                    self.skip_grid_rows(side, rows + 1, gaps)?;
                    return Err(ParseError {
                        line: line.number,
                        kind: ParseErrorKind::Line(fault),
                    }
                    .into());
                }
            };
            match classify(&text) {
                Kind::Comment | Kind::Rule => continue,
                Kind::Blank if self.band_gap(side, rows, gaps)? => gaps += 1,
                Kind::Blank => return Err(short(number, side, rows)),
                Kind::End => {
                    self.ahead.push_front(Line {
                        number: line.number,
                        text: Ok(text),
                    });
                    return Err(short(number, side, rows));
                }
                Kind::Content(t) => match row_cells(t, Some(side)) {
                    Ok((row, row_separated)) => {
                        if row_separated && separator.is_none() {
                            separator = Some(separator_of(t));
                        }
                        separated |= row_separated;
                        for (k, cell) in row.iter().enumerate() {
                            // Cut, so that a grid of long junk cells is not
                            // held whole; no symbol or number is that long.
                            cells.push(excerpt(cell));
                            places.push((line.number, k + 1));
                        }
                        rows += 1;
                    }
                    Err(found) => {
                        self.skip_grid_rows(side, rows + 1, gaps)?;
                        return Err(ParseError {
                            line: line.number,
                            kind: ParseErrorKind::RowLength {
                                row: rows + 1,
                                expected: side,
                                found,
                            },
                        }
                        .into());
                    }
                },
            }
        }
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        let separator = separator.unwrap_or(Separator::Space);
        let (digits, notation) = self.decode(size, &cells, &places, separated, separator)?;
        Ok(Puzzle {
            size,
            cells: digits,
            line: number,
            layout: Layout::Grid,
            notation,
        })
    }

    /// Whether a blank line after `rows` rows of a grid of `side` is a gap
    /// between its bands (grids pasted from forums have them) rather than
    /// the end of a short grid. It is one only when it comes after a whole
    /// number of bands, fewer than the grid's, every band before it was
    /// followed by one too (`gaps`), and the lines after it are one band's
    /// rows followed by a blank line, `end` or the end of the input.
    ///
    /// So that no grid takes rows of the next, the first gap of a grid
    /// also counts the bands of the whole run it starts (bands separated
    /// by single blank lines, up to a double blank, `end`, the end of the
    /// input or a block that is no band): unless they make whole grids, a
    /// short grid stands before a gapped one, and the blank ends it. A run
    /// is counted once; past [`text::MAX_LINE_BYTES`] of lines held, the
    /// first rule alone decides.
    fn band_gap(&mut self, side: usize, rows: usize, gaps: usize) -> io::Result<bool> {
        let band = Size::from_side(side).map_or(side, Size::box_side);
        if rows == 0 || rows >= side || !rows.is_multiple_of(band) || gaps + 1 != rows / band {
            return Ok(false);
        }
        let mut held = 0;
        let Some(next) = self.block_ahead(0, &mut held)? else {
            return Ok(false);
        };
        if next.rows != band || next.after == BlockEnd::Fault {
            return Ok(false);
        }
        let first_ahead = self.peek(0)?.map_or(usize::MAX, |line| line.number);
        if gaps > 0 || first_ahead <= self.gapped_run_until {
            return Ok(true);
        }
        // The first gap of a grid outside a run already counted.
        let (mut bands, mut block, mut last) = (rows / band + 1, next, 0);
        loop {
            last = block.last_line.max(last);
            if block.after != BlockEnd::Blank {
                break;
            }
            let Some(following) = self.block_ahead(block.end + 1, &mut held)? else {
                // Too much held to count: the first rule decides, and the
                // bands seen are not looked at again.
                self.gapped_run_until = last;
                return Ok(true);
            };
            // A double blank, or a block that is no band, ends the run.
            if following.rows != band || following.after == BlockEnd::Fault {
                break;
            }
            bands += 1;
            block = following;
        }
        let grid_bands = side / band;
        if !bands.is_multiple_of(grid_bands) {
            return Ok(false);
        }
        self.gapped_run_until = last;
        Ok(true)
    }

    /// The block of lines read ahead from the `from`-th on: its content
    /// rows up to a blank line, `end`, the end of the input or a line that
    /// cannot be read. `None` once the lines held (counted in `held`) pass
    /// [`text::MAX_LINE_BYTES`].
    fn block_ahead(&mut self, from: usize, held: &mut usize) -> io::Result<Option<Block>> {
        let mut block = Block {
            rows: 0,
            end: from,
            last_line: 0,
            after: BlockEnd::Eof,
        };
        for k in from.. {
            block.end = k;
            let Some(line) = self.peek(k)? else {
                block.after = BlockEnd::Eof;
                return Ok(Some(block));
            };
            let number = line.number;
            let Ok(text) = &line.text else {
                block.after = BlockEnd::Fault;
                return Ok(Some(block));
            };
            *held += text.len();
            if *held > text::MAX_LINE_BYTES {
                return Ok(None);
            }
            match classify(text) {
                Kind::Comment | Kind::Rule => {}
                Kind::Blank => {
                    block.after = BlockEnd::Blank;
                    return Ok(Some(block));
                }
                Kind::End => {
                    block.after = BlockEnd::End;
                    return Ok(Some(block));
                }
                Kind::Content(_) => {
                    block.rows += 1;
                    block.last_line = number;
                }
            }
        }
        unreachable!("the loop returns")
    }

    /// Skips the rest of a bad grid of `side` whose first `rows` rows were
    /// read (the last of them bad), `gaps` of them followed by a blank line
    /// between bands: its other rows, across gaps like those.
    fn skip_grid_rows(&mut self, side: usize, mut rows: usize, mut gaps: usize) -> io::Result<()> {
        while rows < side {
            let Some(line) = self.next_line()? else {
                break;
            };
            let Ok(text) = &line.text else {
                rows += 1;
                continue;
            };
            match classify(text) {
                Kind::Blank if self.band_gap(side, rows, gaps)? => gaps += 1,
                Kind::Blank => break,
                Kind::End => {
                    self.ahead.push_front(line);
                    break;
                }
                Kind::Comment | Kind::Rule => {}
                Kind::Content(_) => rows += 1,
            }
        }
        Ok(())
    }

    /// Skips the rest of a bad grid: `rows` more rows when known, and never
    /// past a blank line, `end` or the end of the input.
    fn skip_grid(&mut self, rows: Option<usize>) -> io::Result<()> {
        let mut left = rows.unwrap_or(usize::MAX);
        while left > 0 {
            let Some(line) = self.next_line()? else {
                break;
            };
            let Ok(text) = &line.text else {
                left -= 1;
                continue;
            };
            match classify(text) {
                Kind::Blank => break,
                Kind::End => {
                    self.ahead.push_front(line);
                    break;
                }
                Kind::Comment | Kind::Rule => {}
                Kind::Content(_) => left -= 1,
            }
        }
        Ok(())
    }

    /// Turns the cells of one puzzle into digits. Cells that are all one
    /// character and all symbols (or empty) are symbols; otherwise, when
    /// separated, they are numbers.
    fn decode(
        &mut self,
        size: Size,
        cells: &[&str],
        places: &[(usize, usize)],
        separated: bool,
        separator: Separator,
    ) -> Result<(Vec<u8>, Notation), ParseError> {
        let single = |cell: &str| {
            let mut chars = cell.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        };
        let mut hint = String::new();
        // Separated numbers (`0` empty) stay numbers; single characters of
        // a size written in several sets choose theirs.
        let numbers = separated
            && cells.iter().all(|cell| {
                matches!(*cell, "." | "-" | "_") || cell.bytes().all(|b| b.is_ascii_digit())
            });
        let symbols =
            if self.custom.is_some() || numbers || self.readings[size.box_side()].len() < 2 {
                self.symbols_for(size)
            } else {
                match self.choose(size, &Seen::of_cells(cells)) {
                    Choice::Read(symbols) => Some(symbols),
                    Choice::ZeroTwoWays { digit, empty } => {
                        return Err(ParseError {
                            line: places.first().map_or(0, |p| p.0),
                            kind: ParseErrorKind::ZeroTwoWays {
                                size,
                                digit: digit.as_string(),
                                empty: empty.as_string(),
                            },
                        })
                    }
                    Choice::Unread(closest) => {
                        let sets: Vec<String> = self.readings[size.box_side()]
                            .iter()
                            .map(|s| s.as_string())
                            .collect();
                        hint = format!(
                        "; none of the common {size} sets ({}) reads every cell: give --symbols",
                        sets.join(", ")
                    );
                        Some(closest)
                    }
                }
            };
        if let Some(symbols) = &symbols {
            let symbol_cells = cells.iter().all(|cell| {
                single(cell)
                    .is_some_and(|c| symbols.digit(c).is_some() || is_empty_marker(c, symbols))
            });
            // (A hint means no set reads the cells: report the closest.)
            if symbol_cells || !separated || !hint.is_empty() {
                let mut digits = Vec::with_capacity(cells.len());
                for (cell, &(line, place)) in cells.iter().zip(places) {
                    let c = single(cell).unwrap_or('\0');
                    match symbols.digit(c) {
                        Some(d) => digits.push(d),
                        None if is_empty_marker(c, symbols) => digits.push(0),
                        None => {
                            let written = (symbols.as_string(), symbols.empty_markers());
                            return Err(unknown(line, cell, place, size, written, hint));
                        }
                    }
                }
                let notation = if separated {
                    Notation::Spaced(symbols.clone(), separator)
                } else {
                    Notation::Compact(symbols.clone())
                };
                return Ok((digits, notation));
            }
        } else if !separated {
            return Err(ParseError {
                line: places.first().map_or(0, |p| p.0),
                kind: ParseErrorKind::NoSymbols { size },
            });
        }
        // Numbers.
        let side = size.side();
        let mut digits = Vec::with_capacity(cells.len());
        for (cell, &(line, place)) in cells.iter().zip(places) {
            if matches!(*cell, "." | "-" | "_") {
                digits.push(0);
                continue;
            }
            if !cell.bytes().all(|b| b.is_ascii_digit()) {
                let numbers = (format!("the numbers 1 to {side}"), ". - _ or 0");
                return Err(unknown(line, cell, place, size, numbers, String::new()));
            }
            let value = cell.trim_start_matches('0');
            match value.parse::<usize>() {
                _ if value.is_empty() => digits.push(0),
                Ok(v) if v <= side => digits.push(v as u8),
                _ => {
                    return Err(ParseError {
                        line,
                        kind: ParseErrorKind::NumberTooLarge {
                            value: excerpt(cell),
                            cell: place,
                            side,
                        },
                    })
                }
            }
        }
        Ok((digits, Notation::Numbers(separator)))
    }
}

/// The error of `cell` (cell `place` of its puzzle, on `line`), which is
/// none of `symbols`.
fn unknown(
    line: usize,
    cell: &str,
    place: usize,
    size: Size,
    (symbols, empty): (String, &'static str),
    hint: String,
) -> ParseError {
    ParseError {
        line,
        kind: ParseErrorKind::UnknownSymbol {
            symbol: excerpt(cell),
            cell: place,
            size,
            symbols,
            empty,
            hint,
        },
    }
}

fn short(line: usize, expected: usize, found: usize) -> InputError {
    ParseError {
        line,
        kind: ParseErrorKind::ShortGrid { expected, found },
    }
    .into()
}

/// The puzzles of an input, variants included; see [`Puzzles::entries`].
#[derive(Debug)]
pub struct Entries<R> {
    puzzles: Puzzles<R>,
}

impl<R> Entries<R> {
    /// The layout of the input's classic puzzles, once the first was seen.
    pub fn layout(&self) -> Option<Layout> {
        self.puzzles.layout
    }
}

impl<R: BufRead> Entries<R> {
    /// Reads `reader` as the rest of an input, variants included, as
    /// [`Puzzles::resume`] does.
    pub fn resume(reader: R, point: &ResumePoint) -> Self {
        Puzzles::resume(reader, point).entries()
    }

    /// See [`Puzzles::resume_point`].
    pub fn resume_point(&self) -> Option<ResumePoint> {
        self.puzzles.resume_point()
    }

    /// See [`Puzzles::into_inner`].
    pub fn into_inner(self) -> R {
        self.puzzles.into_inner()
    }
}

/// Where a reader of puzzles one per line stands between two lines: what
/// another reader needs to read the rest of the input as this one would
/// have ([`Puzzles::resume`], [`Entries::resume`]: resume as the first
/// part was read, classic puzzles only or variants too).
///
/// An input so cut at line ends can be read in pieces on several threads:
/// each piece from the point its predecessor ends at
/// ([`Puzzles::resume_point`] once that piece is read), or, to read them
/// at once, from a guess ([`ResumePoint::at_line`] of an earlier point)
/// that is then compared with the point the predecessor ended at; a piece
/// read from a wrong guess is read again. What changes between points is
/// rare: the symbol set an input of 16×16 or 25×25 puzzles settles on.
///
/// The one thing that spans lines in such an input is an f-puzzles JSON
/// document over several lines: a cut must not fall inside one (a piece
/// with no line that [`begins_document`] has none to cut). A piece
/// after an [`end`](is_end_line) line is not read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumePoint {
    /// The last line read.
    line: usize,
    /// The line reader's limits ([`LineReader::with_limits`]).
    line_limits: (usize, u64),
    custom: Option<Arc<Symbols>>,
    settled: Vec<Option<usize>>,
}

impl ResumePoint {
    /// The number of the last line read before this point.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The same point after line `line`: where a reader would stand if the
    /// lines up to `line` changed nothing it keeps.
    pub fn at_line(&self, line: usize) -> ResumePoint {
        ResumePoint {
            line,
            ..self.clone()
        }
    }
}

impl<R: BufRead> Iterator for Entries<R> {
    type Item = Result<Entry, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.puzzles.next_entry()
    }
}

impl<R: BufRead> Iterator for Puzzles<R> {
    type Item = Result<Puzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.next_entry()? {
            Ok(Entry::Classic(puzzle)) => Ok(puzzle),
            Ok(Entry::Variant(_)) => unreachable!("variants are read only by entries()"),
            Err(e) => Err(e),
        })
    }
}

impl<R: BufRead> Puzzles<R> {
    /// A variant starting on line `number` (whose content is `text`), what
    /// is wrong with it, or `None` when the line is no variant.
    fn variant_entry(&mut self, number: usize, text: &str) -> Option<Result<Entry, InputError>> {
        let at =
            |kind| -> Result<Entry, InputError> { Err(ParseError { line: number, kind }.into()) };
        if begins_document(text) {
            return Some(match self.json_document(number, text) {
                Ok(json) => self.fpuzzles_json(number, json),
                Err(e) => Err(e),
            });
        }
        if self.layout == Some(Layout::Grid) {
            return None;
        }
        // Only a line with white space can carry fields, and a link string
        // has no classic puzzle's length: the usual classic line pays one
        // scan and is left to the classic reader.
        let spaced = first_match(text.as_bytes(), |b| b == b' ' || b == b'\t').is_some();
        if !spaced && Size::from_cells(text.len()).is_some() && !is_link(text) {
            return None;
        }
        if spaced {
            match variant_line::parse(text) {
                Ok(Some(read)) => {
                    self.layout.get_or_insert(Layout::Line);
                    return Some(Ok(Entry::Variant(Box::new(VariantPuzzle {
                        rules: read.rules,
                        cells: read.cells,
                        line: number,
                        form: VariantForm::Line,
                    }))));
                }
                Err(e) => return Some(at(ParseErrorKind::VariantLine(e))),
                Ok(None) => {}
            }
        }
        let token = text.split_whitespace().next().unwrap_or("");
        let link = is_link(token);
        if !link && !may_be_link_string(token) {
            return None;
        }
        let puzzle = match fpuzzles::read(token) {
            Ok(puzzle) => puzzle,
            Err(e) if link => return Some(at(ParseErrorKind::FPuzzles(e))),
            // Not a link string after all: the classic reader says why.
            Err(_) => return None,
        };
        let rules = match puzzle.rules() {
            Ok(rules) => rules,
            Err(e) => return Some(at(ParseErrorKind::FPuzzlesRules(e))),
        };
        let prefix = token
            .rfind("load=")
            .map_or(String::new(), |at| token[..at + "load=".len()].to_owned());
        let escaped = ["%2B", "%2F", "%3D"].iter().any(|e| token.contains(e));
        Some(Ok(Entry::Variant(Box::new(VariantPuzzle {
            rules,
            cells: puzzle.givens.clone(),
            line: number,
            form: VariantForm::FPuzzlesLink {
                puzzle,
                prefix,
                escaped,
            },
        }))))
    }

    /// The JSON document that starts on line `number` with `first`: its
    /// lines up to the one that closes its first brace.
    fn json_document(&mut self, number: usize, first: &str) -> Result<String, InputError> {
        let mut json = first.to_owned();
        let mut depth = JsonDepth::default();
        depth.feed(first);
        while !depth.closed {
            let Some(line) = self.next_line()? else {
                break;
            };
            let text = line.text.map_err(|fault| ParseError {
                line: line.number,
                kind: ParseErrorKind::Line(fault),
            })?;
            if json.len() + text.len() > MAX_JSON_BYTES {
                return Err(ParseError {
                    line: number,
                    kind: ParseErrorKind::JsonTooLong,
                }
                .into());
            }
            json.push('\n');
            json.push_str(&text);
            depth.feed(&text);
        }
        Ok(json)
    }

    /// The f-puzzles puzzle of a JSON document that starts on line `number`.
    fn fpuzzles_json(&mut self, number: usize, json: String) -> Result<Entry, InputError> {
        let at = |kind| -> InputError { ParseError { line: number, kind }.into() };
        let value: Value = serde_json::from_str(&json).map_err(|e| {
            at(ParseErrorKind::FPuzzles(FPuzzlesError::NotFPuzzles(
                format!("not JSON: {e}"),
            )))
        })?;
        let puzzle = fpuzzles::from_json(&value).map_err(|e| at(ParseErrorKind::FPuzzles(e)))?;
        let rules = puzzle
            .rules()
            .map_err(|e| at(ParseErrorKind::FPuzzlesRules(e)))?;
        Ok(Entry::Variant(Box::new(VariantPuzzle {
            rules,
            cells: puzzle.givens,
            line: number,
            form: VariantForm::FPuzzlesJson(value),
        })))
    }

    /// The next puzzle, classic or (when reading [`Puzzles::entries`])
    /// variant. An error of the input itself ends reading, wherever it
    /// comes (a JSON document's lines included).
    fn next_entry(&mut self) -> Option<Result<Entry, InputError>> {
        let entry = self.next_entry_or_io_error();
        if let Some(Err(InputError::Io(_))) = entry {
            self.done = true;
            self.stopped = true;
        }
        entry
    }

    fn next_entry_or_io_error(&mut self) -> Option<Result<Entry, InputError>> {
        while !self.done {
            let line = match self.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return Some(Err(e.into())),
            };
            let text = match line.text {
                Ok(text) => text,
                Err(fault) => {
                    // A grid's first row: the error stands for the grid,
                    // whose other rows (as many as the last grid's, when
                    // grids follow one another without blank lines) are
                    // skipped, so no rows of two grids make one.
                    match self.layout {
                        Some(Layout::Grid) => {
                            if let Err(e) = self.skip_grid(self.grid_side.map(|s| s - 1)) {
                                self.done = true;
                                return Some(Err(e.into()));
                            }
                        }
                        Some(Layout::Line) => {}
                        None => self.lost_first_row = true,
                    }
                    return Some(Err(ParseError {
                        line: line.number,
                        kind: ParseErrorKind::Line(fault),
                    }
                    .into()));
                }
            };
            let content = match classify(&text) {
                Kind::Blank => {
                    self.lost_first_row = false;
                    continue;
                }
                Kind::Comment | Kind::Rule => continue,
                Kind::End => {
                    self.stopped = true;
                    break;
                }
                Kind::Content(t) => t,
            };
            if self.variants {
                if let Some(entry) = self.variant_entry(line.number, content) {
                    return Some(entry);
                }
            }
            let layout = match self.layout {
                Some(layout) => layout,
                None => match self.detect(content) {
                    Err(e) => return Some(Err(e.into())),
                    Ok(Ok(Layout::Grid)) if self.lost_first_row => {
                        // The unread line was this grid's first row (and
                        // reported): skip the rest of the grid.
                        self.layout = Some(Layout::Grid);
                        self.lost_first_row = false;
                        let custom = self.custom.as_ref().map(|s| s.size().side());
                        let side = row_cells(content, custom)
                            .ok()
                            .map(|(cells, _)| cells.len());
                        self.grid_side = side;
                        if let Err(e) = self.skip_grid(side.map(|s| s.saturating_sub(2))) {
                            self.done = true;
                            return Some(Err(e.into()));
                        }
                        continue;
                    }
                    Ok(Ok(layout)) => {
                        self.layout = Some(layout);
                        layout
                    }
                    Ok(Err(kind)) => {
                        return Some(Err(ParseError {
                            line: line.number,
                            kind,
                        }
                        .into()))
                    }
                },
            };
            let puzzle = match layout {
                Layout::Line => self.line_puzzle(line.number, content).map_err(Into::into),
                Layout::Grid => self.grid_puzzle(line.number, content),
            };
            self.lines.recycle(text);
            return Some(puzzle.map(Entry::Classic));
        }
        self.done = true;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, symbols: Option<&str>) -> Vec<Result<Puzzle, ParseError>> {
        let symbols = symbols.map(|s| Symbols::new(s).unwrap());
        Puzzles::new(text.as_bytes(), symbols)
            .map(|r| match r {
                Ok(p) => Ok(p),
                Err(InputError::Parse(e)) => Err(e),
                Err(InputError::Io(e)) => panic!("{e}"),
            })
            .collect()
    }

    const LINE9: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    proptest::proptest! {
        #[test]
        fn first_match_is_the_first_position(
            bytes in proptest::collection::vec(proptest::sample::select(b" \t:.1x\r".to_vec()), 0..70),
            target in proptest::sample::select(b" \t:.1x\r".to_vec()),
        ) {
            let want = bytes.iter().position(|&b| b == target);
            proptest::prop_assert_eq!(first_match(&bytes, |b| b == target), want);
        }
    }

    #[test]
    fn a_line_puzzle() {
        let got = read(LINE9, None);
        let p = got[0].as_ref().unwrap();
        assert_eq!((p.size.side(), p.line, p.layout), (9, 1, Layout::Line));
        assert_eq!(p.cells[0], 4);
        assert_eq!(p.cells[6], 8);
        assert_eq!(p.givens(), 17);
        assert!(matches!(p.notation, Notation::Compact(_)));
    }

    #[test]
    fn trailing_text_comments_end_and_crlf() {
        let text = format!(
            "\u{feff}# comment\r\n\r\n{LINE9}:1:whatever\r\n{LINE9} 17 clues\n  {LINE9}\nend\n{LINE9}\n"
        );
        let got = read(&text, None);
        assert_eq!(got.len(), 3);
        let lines: Vec<usize> = got.iter().map(|p| p.as_ref().unwrap().line).collect();
        assert_eq!(lines, [3, 4, 5]);
    }

    #[test]
    fn zero_is_empty_unless_a_symbol() {
        let zeros = LINE9.replace('.', "0");
        let p = read(&zeros, None).remove(0).unwrap();
        assert_eq!(p.givens(), 17);
        let thirty_six = "0".repeat(1296);
        let p = read(&thirty_six, None).remove(0).unwrap();
        assert_eq!(p.size.side(), 36);
        assert!(
            p.cells.iter().all(|&d| d == 1),
            "0 is the first 36×36 symbol"
        );
    }

    #[test]
    fn bad_lines_are_reported_and_skipped() {
        let text = format!("{LINE9}\n{}\n{}x\n{LINE9}\n", &LINE9[1..], &LINE9[1..]);
        let got = read(&text, None);
        assert_eq!(got.len(), 4);
        assert_eq!(
            got[1],
            Err(ParseError {
                line: 2,
                kind: ParseErrorKind::NotASize { cells: 80 }
            })
        );
        match &got[2] {
            Err(ParseError {
                line: 3,
                kind:
                    ParseErrorKind::UnknownSymbol {
                        symbol, cell: 81, ..
                    },
            }) => assert_eq!(symbol, "x"),
            other => panic!("{other:?}"),
        }
        assert!(got[3].is_ok());
    }

    /// A 16×16 puzzle fits none of the common sets: an error naming the
    /// closest and every set; a 9×9 typo gets no such note, nor does a
    /// puzzle read with --symbols.
    #[test]
    fn unknown_symbols_name_the_common_sets() {
        let line: String = "123456789ABCDEFH".repeat(16);
        let message =
            |symbols: Option<Symbols>, text: &str| match Puzzles::new(text.as_bytes(), symbols)
                .next()
            {
                Some(Err(InputError::Parse(e))) => e.kind.to_string(),
                other => panic!("{other:?}"),
            };
        let got = message(None, &line);
        assert!(
            got.starts_with(
                "unknown symbol \"H\" in cell 16 (the 16×16 symbols are 123456789ABCDEFG;"
            ),
            "{got}"
        );
        assert!(got.ends_with("(ABCDEFGHIJKLMNOP, 123456789ABCDEFG, 0123456789ABCDEF) reads every cell: give --symbols"), "{got}");
        let typo = format!("x{}", ".".repeat(80));
        assert!(message(None, &typo).ends_with("or 0)"));
        let custom = Symbols::new("ABCDEFGHIJKLMNOP").unwrap();
        assert!(message(Some(custom), &line).ends_with("or 0)"));
        let zero = Symbols::new("0123456789ABCDEF").unwrap();
        assert!(message(Some(zero), &line).ends_with("empty cells are . - _)"));
    }

    /// One 16×16 puzzle (Gecode's first) written in 1-9A-G, `.` empty.
    const G16: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4.......\
                       .....29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

    /// `line` with each character of `from` replaced by the same place's
    /// character of `to`.
    fn relabel(line: &str, from: &str, to: &str) -> String {
        line.chars()
            .map(|c| from.find(c).map_or(c, |k| to.as_bytes()[k] as char))
            .collect()
    }

    fn symbols_of(p: &Puzzle) -> String {
        match &p.notation {
            Notation::Compact(s) | Notation::Spaced(s, _) => s.as_string(),
            Notation::Numbers(_) => "numbers".into(),
        }
    }

    const P: &str = "ABCDEFGHIJKLMNOP";
    const G: &str = "123456789ABCDEFG";
    const F: &str = "0123456789ABCDEF";

    /// 16×16 puzzles choose their set from their characters: the same
    /// puzzle (the same digits) whether written in 1-9A-G, 0-9A-F or A-P,
    /// each answered in its own set; one that fits several the same way
    /// reads as the first (or the input's settled set).
    #[test]
    fn sixteen_by_sixteen_sets_are_told_apart() {
        assert_eq!(G16.len(), 256);
        let base = read(G16, None).remove(0).unwrap();
        assert_eq!(symbols_of(&base), G);
        assert_eq!((base.cells[0], base.cells[8]), (13, 16));
        for set in [P, F] {
            let text = relabel(G16, G, set);
            let p = read(&text, None).remove(0).unwrap();
            assert_eq!(symbols_of(&p), set, "{text}");
            assert_eq!(p.cells, base.cells, "{set}");
        }
        // Separated single characters, and a grid of rows.
        let spaced: Vec<String> = G16.chars().map(String::from).collect();
        let p = read(&spaced.join(" "), None).remove(0).unwrap();
        assert_eq!((symbols_of(&p), &p.cells), (G.to_owned(), &base.cells));
        let f = relabel(G16, G, F);
        let grid: String = f
            .as_bytes()
            .chunks(16)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        let p = read(&grid, None).remove(0).unwrap();
        assert_eq!(
            (symbols_of(&p), p.layout, &p.cells),
            (F.to_owned(), Layout::Grid, &base.cells)
        );
        // Only digits 1-9 and letters A-F, no 0: 1-9A-G and 0-9A-F give
        // the same puzzle relabelled; 1-9A-G it is, unless the input
        // settled 0-9A-F before.
        let no_g = G16.replace('G', ".");
        let p = read(&no_g, None).remove(0).unwrap();
        assert_eq!(symbols_of(&p), G);
        let got = read(&format!("{f}\n{}", relabel(&no_g, G, F)), None);
        assert_eq!(symbols_of(got[1].as_ref().unwrap()), F);
        // Only letters up to G: A-P.
        let letters = ".".repeat(250) + "ABCDEG";
        assert_eq!(symbols_of(&read(&letters, None).remove(0).unwrap()), P);
        // `0` beside `G`: an empty cell of 1-9A-G.
        let zeros = G16.replace('.', "0");
        let p = read(&zeros, None).remove(0).unwrap();
        assert_eq!((symbols_of(&p), &p.cells), (G.to_owned(), &base.cells));
    }

    /// A `0` that is a digit in one fitting set and empty in another: a
    /// digit when the puzzle marks empty cells with `.`, else what the
    /// input settled, else an error asking for --symbols; --symbols says
    /// what `0` is.
    #[test]
    fn a_zero_that_reads_two_ways() {
        let f = relabel(G16, G, F);
        assert!(f.contains('0') && f.contains('.'));
        // Without `.`, 0-9A-F would make it a full grid and 1-9A-G a
        // puzzle whose `0`s are empty: two puzzles.
        let no_dots = f.replace('.', "0");
        match &read(&no_dots, None)[0] {
            Err(ParseError {
                line: 1,
                kind: kind @ ParseErrorKind::ZeroTwoWays { .. },
            }) => assert_eq!(
                kind.to_string(),
                "the 16×16 puzzle reads two ways that are different puzzles: with `0` a digit \
                 (0123456789ABCDEF) or with `0` an empty cell (123456789ABCDEFG); give --symbols \
                 0123456789ABCDEF (`.` marks empty cells) or --symbols 123456789ABCDEFG (`0` and \
                 `.` do)"
            ),
            other => panic!("{other:?}"),
        }
        // Settled by an earlier puzzle that fits one set only.
        let got = read(&format!("{f}\n{no_dots}"), None);
        assert_eq!(symbols_of(got[1].as_ref().unwrap()), F);
        assert_eq!(got[1].as_ref().unwrap().givens(), 256);
        let got = read(&format!("{G16}\n{no_dots}"), None);
        let p = got[1].as_ref().unwrap();
        assert_eq!(
            (symbols_of(p), p.givens()),
            (G.to_owned(), base_givens() - count(G16, 'G'))
        );
        // --symbols decides: `0` a digit or an empty cell.
        let p = read(&f, Some(F)).remove(0).unwrap();
        assert_eq!(p.givens(), base_givens());
        let p = read(&f, Some(G)).remove(0).unwrap();
        assert_eq!(p.givens(), base_givens() - count(&f, '0'));
    }

    fn count(text: &str, c: char) -> usize {
        text.chars().filter(|&x| x == c).count()
    }

    fn base_givens() -> usize {
        256 - count(G16, '.')
    }

    /// Separated single digits of a 16×16 grid are numbers, as before:
    /// `0` empty, written back as numbers.
    #[test]
    fn separated_digits_stay_numbers() {
        let row = |r: usize| {
            (0..16)
                .map(|c| {
                    if c == r % 9 {
                        (r % 9 + 1).to_string()
                    } else {
                        "0".into()
                    }
                })
                .collect::<Vec<String>>()
                .join(" ")
        };
        let text: String = (0..16).map(|r| row(r) + "\n").collect();
        let p = read(&text, None).remove(0).unwrap();
        assert_eq!(p.notation, Notation::Numbers(Separator::Space));
        assert_eq!(p.givens(), 16);
    }

    const POJ3076: &str =
        "--A----C-----O-I\n-J--A-B-P-CGF-H-\n--D--F-I-E----P-\n-G-EL-H----M-J--\n\
        ----E----C--G---\n-I--K-GA-B---E-J\nD-GP--J-F----A--\n-E---C-B--DP--O-\n\
        E--F-M--D--L-K-A\n-C--------O-I-L-\nH-P-C--F-A--B---\n---G-OD---J----H\n\
        K---J----H-A-P-L\n--B--P--E--K--A-\n-H--B--K--FI-C--\n--F---C--D--H-N-\n";

    #[test]
    fn a_poj3076_grid() {
        let text = format!("{POJ3076}\n{POJ3076}");
        let got = read(&text, None);
        assert_eq!(got.len(), 2);
        let p = got[1].as_ref().unwrap();
        assert_eq!((p.size.side(), p.line, p.layout), (16, 18, Layout::Grid));
        assert_eq!(p.cells[2], 1, "A is 1");
        // Without a blank line between, grids still split after 16 rows.
        let got = read(&format!("{POJ3076}{POJ3076}"), None);
        assert_eq!(got.iter().filter(|p| p.is_ok()).count(), 2);
    }

    #[test]
    fn sixteen_cells_are_a_4x4_line_or_a_16x16_row() {
        let got = read("1...\n..2.\n....\n...4\n", None);
        assert_eq!(got[0].as_ref().unwrap().layout, Layout::Grid);
        let got = read("1.3...2.........\n4...............\n", None);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_ref().unwrap().size.side(), 4);
        // An empty first row, but letters below: a 16×16 grid.
        let text = format!("----------------\n{}", &POJ3076[17..]);
        let got = read(&text, None);
        assert_eq!(got[0].as_ref().unwrap().size.side(), 16);
        // Custom symbols decide.
        let got = read("1.3...2.........\n", Some("123456789ABCDEFG"));
        assert!(matches!(
            got[0],
            Err(ParseError {
                kind: ParseErrorKind::ShortGrid { .. },
                ..
            })
        ));
    }

    #[test]
    fn separated_cells_symbols_and_numbers() {
        let grid = "5 3 0 0 7 0 0 0 0\n6 0 0 1 9 5 0 0 0\n0 9 8 0 0 0 0 6 0\n\
                    8 0 0 0 6 0 0 0 3\n4 0 0 8 0 3 0 0 1\n7 0 0 0 2 0 0 0 6\n\
                    0 6 0 0 0 0 2 8 0\n0 0 0 4 1 9 0 0 5\n0 0 0 0 8 0 0 7 9\n";
        let p = read(grid, None).remove(0).unwrap();
        assert_eq!(p.givens(), 30);
        assert_eq!(p.layout, Layout::Grid);
        assert!(matches!(p.notation, Notation::Spaced(_, Separator::Space)));
        // Numbers for a 16×16 grid, commas between.
        let mut rows = String::new();
        for r in 0..16 {
            let row: Vec<String> = (0..16)
                .map(|c| {
                    if r == c {
                        format!("{}", c + 1)
                    } else {
                        "0".into()
                    }
                })
                .collect();
            rows.push_str(&row.join(", "));
            rows.push('\n');
        }
        let p = read(&rows, None).remove(0).unwrap();
        assert_eq!(p.notation, Notation::Numbers(Separator::CommaSpace));
        assert_eq!((p.cells[0], p.cells[17], p.cells[255]), (1, 2, 16));
        let bad = rows.replacen("1, 0", "17, 0", 1);
        assert!(matches!(
            read(&bad, None)[0],
            Err(ParseError {
                line: 1,
                kind: ParseErrorKind::NumberTooLarge { .. }
            })
        ));
        // 81 numbers on a line.
        let line: Vec<&str> = LINE9
            .chars()
            .map(|c| if c == '.' { "0" } else { &LINE9[..1] })
            .collect();
        let p = read(&line.join(","), None).remove(0).unwrap();
        assert_eq!((p.layout, p.givens()), (Layout::Line, 17));
    }

    #[test]
    fn short_rows_and_short_grids() {
        let grid = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n\
                    .6....28.\n...419..5\n....8..79\n";
        let short_row = grid.replace("4..8.3..1", "4..8.3..");
        let text = format!("{short_row}\n{grid}");
        let got = read(&text, None);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0],
            Err(ParseError {
                line: 5,
                kind: ParseErrorKind::RowLength {
                    row: 5,
                    expected: 9,
                    found: 8
                }
            })
        );
        assert_eq!(got[1].as_ref().unwrap().line, 11);
        let cut: String = grid.lines().take(7).map(|l| format!("{l}\n")).collect();
        let got = read(&format!("{cut}\n{grid}"), None);
        assert_eq!(
            got[0],
            Err(ParseError {
                line: 1,
                kind: ParseErrorKind::ShortGrid {
                    expected: 9,
                    found: 7
                }
            })
        );
        assert!(got[1].is_ok());
    }

    /// `grid` (rows of `band` lines) with a blank line between its bands.
    fn gapped(grid: &str, band: usize) -> String {
        let rows: Vec<&str> = grid.lines().collect();
        let bands: Vec<String> = rows.chunks(band).map(|b| b.join("\n") + "\n").collect();
        bands.join("\n")
    }

    #[test]
    fn blank_lines_between_bands_are_gaps_not_ends() {
        let grid = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n\
                    .6....28.\n...419..5\n....8..79\n";
        let expected = read(grid, None).remove(0).unwrap().cells;
        let nine = gapped(grid, 3);
        assert_eq!(nine.lines().count(), 11);
        let got = read(&nine, None);
        assert_eq!(got.len(), 1, "{got:?}");
        let p = got[0].as_ref().unwrap();
        assert_eq!((&p.cells, p.line, p.layout), (&expected, 1, Layout::Grid));
        // Two such grids one after the other, a blank line between them.
        let got = read(&format!("{nine}\n{nine}"), None);
        let lines: Vec<usize> = got.iter().map(|p| p.as_ref().unwrap().line).collect();
        assert_eq!(lines, [1, 13]);
        assert!(got.iter().all(|p| p.as_ref().unwrap().cells == expected));
        // 16×16: bands of 4 rows.
        let sixteen = gapped(POJ3076, 4);
        let want = read(POJ3076, None).remove(0).unwrap().cells;
        let got = read(&format!("{sixteen}\n{sixteen}"), None);
        assert_eq!(got.len(), 2, "{got:?}");
        for (p, line) in got.iter().zip([1, 21]) {
            let p = p.as_ref().unwrap();
            assert_eq!((&p.cells, p.size.side(), p.line), (&want, 16, line));
        }
        // A gapped grid beside an ungapped one, either way round.
        let got = read(&format!("{grid}\n{nine}\n{grid}"), None);
        assert_eq!(got.iter().filter(|p| p.is_ok()).count(), 3, "{got:?}");
    }

    /// A blank line ends a grid unless it is a gap between bands in a grid
    /// written with them all along, and the next band follows it whole: a
    /// short grid never takes rows of the next one.
    #[test]
    fn short_grids_do_not_take_rows_of_the_next() {
        let grid = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n\
                    .6....28.\n...419..5\n....8..79\n";
        let rows =
            |k: usize| -> String { grid.lines().take(k).map(|l| format!("{l}\n")).collect() };
        let short = |found| ParseErrorKind::ShortGrid { expected: 9, found };
        // Three or six rows (a whole number of bands, no gap before), then
        // a blank line and a whole grid without gaps.
        for k in [3, 6] {
            let got = read(&format!("{}\n{grid}", rows(k)), None);
            assert_eq!(got.len(), 2, "{k}: {got:?}");
            assert_eq!(got[0].as_ref().unwrap_err().kind, short(k));
            assert_eq!(got[1].as_ref().unwrap().line, k + 2);
        }
        // Six rows without a gap after the first band, then a gapped grid.
        let got = read(&format!("{}\n{}", rows(6), gapped(grid, 3)), None);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].as_ref().unwrap_err().kind, short(6));
        assert_eq!(got[1].as_ref().unwrap().line, 8);
        // A short grid of one band, or of two with a gap, then a gapped
        // grid: the bands of the run make no whole grids, so the first
        // blank line ends the short grid (the second band of a gapped
        // short grid is then short too), and the gapped grid is read
        // whole.
        for (before, errors) in [(rows(3), vec![3]), (gapped(&rows(6), 3), vec![3, 3])] {
            let input = format!("{before}\n{}", gapped(grid, 3));
            let got = read(&input, None);
            let (bad, good): (Vec<_>, Vec<_>) = got.iter().partition(|p| p.is_err());
            let found: Vec<ParseErrorKind> = bad
                .iter()
                .map(|e| e.as_ref().unwrap_err().kind.clone())
                .collect();
            assert_eq!(
                found,
                errors.into_iter().map(short).collect::<Vec<_>>(),
                "{input}"
            );
            assert_eq!(good.len(), 1, "{got:?}");
            assert_eq!(
                good[0].as_ref().unwrap().cells,
                read(grid, None)[0].as_ref().unwrap().cells
            );
        }
        // 4×4: two rows, then a gapped 4×4.
        let four = "12..\n..34\n....\n.2..\n";
        let got = read(&format!("12..\n..34\n\n{}", gapped(four, 2)), None);
        assert_eq!(got.iter().filter(|p| p.is_ok()).count(), 1, "{got:?}");
        assert_eq!(
            got[0].as_ref().unwrap_err().kind,
            ParseErrorKind::ShortGrid {
                expected: 4,
                found: 2
            }
        );
        // Many gapped grids in one run are each read whole.
        let run = vec![gapped(grid, 3); 5].join("\n");
        let got = read(&run, None);
        assert_eq!(got.len(), 5, "{got:?}");
        assert!(got.iter().all(|p| p.is_ok()), "{got:?}");
        // Two blank lines are no gap.
        let two = gapped(grid, 3).replacen("\n\n", "\n\n\n", 1);
        assert_eq!(read(&two, None)[0].as_ref().unwrap_err().kind, short(3));
        // Nor is one inside a band.
        let inside = grid.replacen("6..195...\n", "6..195...\n\n", 1);
        assert_eq!(read(&inside, None)[0].as_ref().unwrap_err().kind, short(2));
        // A bad row in a gapped grid is one error: its other bands are
        // skipped, and the next grid read.
        let bad = gapped(&grid.replace("4..8.3..1", "4..8.3.."), 3);
        let got = read(&format!("{bad}\n{}", gapped(grid, 3)), None);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].as_ref().unwrap_err().line, 6);
        assert_eq!(got[1].as_ref().unwrap().line, 13);
    }

    /// A grid whose first row cannot be read (over-long here) is one
    /// error, its other rows skipped, even when grids follow one another
    /// without blank lines: no puzzle is made of two grids' rows.
    #[test]
    fn a_grid_with_an_unread_first_row_is_skipped_whole() {
        let grid = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n\
                    .6....28.\n...419..5\n....8..79\n";
        let long = "5".repeat(200);
        let bad = grid.replacen("53..7....", &long, 1);
        let read_short = |text: &str| -> Vec<Result<usize, ParseError>> {
            let lines = LineReader::with_limits(text.as_bytes(), 100, 1 << 20);
            Puzzles::from_lines(lines, None)
                .map(|r| match r {
                    Ok(p) => Ok(p.line),
                    Err(InputError::Parse(e)) => Err(e),
                    Err(InputError::Io(e)) => panic!("{e}"),
                })
                .collect()
        };
        let too_long = |line| {
            Err(ParseError {
                line,
                kind: ParseErrorKind::Line(LineFault::TooLong { limit: 100 }),
            })
        };
        // The first grid's first row, before the layout is known.
        let got = read_short(&format!("{bad}{grid}{grid}"));
        assert_eq!(got, [too_long(1), Ok(10), Ok(19)]);
        // A later grid's, the layout known.
        let got = read_short(&format!("{grid}{bad}{grid}"));
        assert_eq!(got, [Ok(1), too_long(10), Ok(19)]);
        // A bad line before a blank line is no grid's row.
        let got = read_short(&format!("{long}\n\n{grid}"));
        assert_eq!(got, [too_long(1), Ok(3)]);
    }

    #[test]
    fn pretty_grids_read_back() {
        let text = "+-------+-------+-------+\n\
                    | 5 3 . | . 7 . | . . . |\n| 6 . . | 1 9 5 | . . . |\n| . 9 8 | . . . | . 6 . |\n\
                    +-------+-------+-------+\n\
                    | 8 . . | . 6 . | . . 3 |\n| 4 . . | 8 . 3 | . . 1 |\n| 7 . . | . 2 . | . . 6 |\n\
                    +-------+-------+-------+\n\
                    | . 6 . | . . . | 2 8 . |\n| . . . | 4 1 9 | . . 5 |\n| . . . | . 8 . | . 7 9 |\n\
                    +-------+-------+-------+\n";
        let p = read(text, None).remove(0).unwrap();
        assert_eq!((p.givens(), p.line), (30, 2));
    }

    #[test]
    fn junk_never_panics() {
        for text in [
            "",
            "\n\n\n",
            "end",
            "x",
            "#only a comment",
            "\u{0}\u{1}\u{2}",
            "1,2,3",
            "::::",
            "+",
            "| |",
            "0 0 0 0\n0 0\n",
            "{",
            "{\"size\": 4, \"grid\": 7}",
            "[1, 2]",
            "1... x",
            "................ x region=r9c9",
            "https://f-puzzles.com/?load=",
            "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKiBdZQ",
        ] {
            let _ = read(text, None);
            let _ = entries(text);
            let _ = read(text, Some("1234"));
        }
        let bytes: Vec<u8> = (0..4000u32).map(|k| (k * 7919 % 251) as u8).collect();
        let count = Puzzles::new(&bytes[..], None).count();
        assert!(count > 0);
        let long = "1".repeat(100_000);
        assert!(matches!(
            read(&long, None)[0],
            Err(ParseError {
                kind: ParseErrorKind::NotASize { cells: 100_000 },
                ..
            })
        ));
    }

    #[test]
    fn sizes_without_default_symbols() {
        let empty49 = ".".repeat(2401);
        assert!(matches!(
            read(&empty49, None)[0],
            Err(ParseError {
                kind: ParseErrorKind::NoSymbols { .. },
                ..
            })
        ));
        let numbers = vec!["0"; 4096].join(" ");
        let p = read(&numbers, None).remove(0).unwrap();
        assert_eq!(p.size.side(), 64);
    }

    fn entries(text: &str) -> Vec<Result<Entry, ParseError>> {
        Puzzles::new(text.as_bytes(), None)
            .entries()
            .map(|r| match r {
                Ok(e) => Ok(e),
                Err(InputError::Parse(e)) => Err(e),
                Err(InputError::Io(e)) => panic!("{e}"),
            })
            .collect()
    }

    fn variant(entry: &Result<Entry, ParseError>) -> &VariantPuzzle {
        match entry {
            Ok(Entry::Variant(v)) => v,
            other => panic!("not a variant: {other:?}"),
        }
    }

    /// A 4×4 f-puzzles document with a given and a diagonal, written as
    /// f-puzzles does.
    const FOUR_JSON: &str = r#"{"size":4,"title":"t","grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"diagonal-":true}"#;

    #[test]
    fn entries_mix_classic_and_variant_lines_and_go_on_after_errors() {
        let text = format!(
            "{LINE9}\n1............... x\n1............... bogus-trailing-text\n\
             1............... x nonsense\n{LINE9} 17 clues\n"
        );
        let got = entries(&text);
        assert_eq!(got.len(), 5);
        assert!(matches!(&got[0], Ok(Entry::Classic(p)) if p.line == 1));
        let x = variant(&got[1]);
        assert_eq!((x.line, x.rules.regions().len()), (2, 14));
        assert_eq!(x.form, VariantForm::Line);
        assert!(
            matches!(&got[2], Ok(Entry::Classic(p)) if p.size.side() == 4),
            "trailing text that is no field"
        );
        let error = got[3].as_ref().unwrap_err();
        assert_eq!(error.line, 4);
        assert!(error.kind.to_string().contains("`nonsense`"), "{error:?}");
        assert!(matches!(&got[4], Ok(Entry::Classic(p)) if p.line == 5));
        // Without entries(), the classic reader ignores trailing text.
        assert_eq!(read(&text, None).len(), 5);
    }

    #[test]
    fn json_documents_on_one_line_or_many() {
        let pretty =
            serde_json::to_string_pretty(&serde_json::from_str::<Value>(FOUR_JSON).unwrap())
                .unwrap();
        let text = format!("{FOUR_JSON}\n\n{pretty}\n1............... x\n{{\"size\": 4\n");
        let got = entries(&text);
        assert_eq!(got.len(), 4, "{got:?}");
        let one = variant(&got[0]);
        let many = variant(&got[1]);
        assert_eq!(one.rules, many.rules);
        assert_eq!((one.line, many.line), (1, 3));
        assert_eq!(one.cells[0], 1);
        assert_eq!(
            one.rules.regions().len(),
            13,
            "rows, columns, boxes, a diagonal"
        );
        assert_eq!(variant(&got[2]).form, VariantForm::Line);
        assert!(got[3]
            .as_ref()
            .unwrap_err()
            .kind
            .to_string()
            .contains("not JSON"));
    }

    #[test]
    fn link_strings_with_or_without_the_link() {
        let puzzle = fpuzzles::read(FOUR_JSON).unwrap();
        let packed = fpuzzles::to_link_string(&puzzle);
        let url = format!("https://f-puzzles.com/?load={packed}");
        let escaped = format!(
            "https://f-puzzles.com/?load={}",
            packed
                .replace('+', "%2B")
                .replace('/', "%2F")
                .replace('=', "%3D")
        );
        let text = format!("{packed}\n{url}\n{escaped}\nhttps://f-puzzles.com/?load=AAAA\n");
        let got = entries(&text);
        assert_eq!(got.len(), 4);
        for (k, prefix) in [
            "",
            "https://f-puzzles.com/?load=",
            "https://f-puzzles.com/?load=",
        ]
        .iter()
        .enumerate()
        {
            let v = variant(&got[k]);
            assert_eq!(v.rules, puzzle.rules().unwrap());
            match &v.form {
                VariantForm::FPuzzlesLink {
                    prefix: p, escaped, ..
                } => {
                    assert_eq!((p.as_str(), *escaped), (*prefix, k == 2));
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(got[3].is_err(), "a link that does not unpack");
    }

    #[test]
    fn answers_take_the_puzzle_s_own_form() {
        use super::super::variant::solve_first;
        let text = format!("{FOUR_JSON}\n1............... x\n");
        let got = entries(&text);
        for entry in &got {
            let v = variant(entry);
            let grid = solve_first(&v.rules, &v.cells).unwrap().unwrap();
            let answer = v.write_answer(&grid);
            let back = variant(&entries(&answer)[0]).clone();
            assert_eq!(back.rules, v.rules, "{answer}");
            // Read back, every cell is filled: given in a line, a value in
            // f-puzzles data (read as a given only where it was one).
            match &v.form {
                VariantForm::Line => assert_eq!(back.cells, grid),
                VariantForm::FPuzzlesJson(_) => {
                    let value: Value = serde_json::from_str(&answer).unwrap();
                    assert_eq!(value["title"], "t", "the document as it was");
                    let values: Vec<u8> = value["grid"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .flat_map(|row| row.as_array().unwrap().iter())
                        .map(|cell| cell["value"].as_u64().unwrap() as u8)
                        .collect();
                    assert_eq!(values, grid);
                    assert_eq!(back.cells, v.cells, "givens stay givens");
                }
                VariantForm::FPuzzlesLink { .. } => unreachable!(),
            }
        }
        let puzzle = fpuzzles::read(FOUR_JSON).unwrap();
        let url = format!("https://x/?load={}", fpuzzles::to_link_string(&puzzle));
        let v = variant(&entries(&url)[0]).clone();
        let grid = solve_first(&v.rules, &v.cells).unwrap().unwrap();
        let answer = v.write_answer(&grid);
        assert!(answer.starts_with("https://x/?load="));
        assert_eq!(variant(&entries(&answer)[0]).rules, v.rules);
    }

    /// Cut after any line where the reader stands between puzzles, the
    /// rest read by a resumed reader gives what the one reader gives; from
    /// a point taken before the input's 16×16 set settled otherwise, it
    /// does not, and the points differ.
    #[test]
    fn a_resumed_reader_reads_the_rest_as_the_one_would() {
        let nine =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let sixteen_g = G16.to_owned();
        let sixteen_f = relabel(G16, G, F);
        // Fits both 1-9A-G and 0-9A-F: read as the input's settled set.
        let either: String = G16
            .chars()
            .map(|c| if c.is_ascii_digit() { c } else { '.' })
            .collect();
        let mut input = Vec::new();
        for line in [
            "# a comment",
            nine,
            &sixteen_g,
            &either,
            "",
            "not a puzzle",
            &sixteen_f,
            &either,
        ] {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        input.extend_from_slice(b"\xFF\xFE\r\n");
        input.extend_from_slice(FOUR_JSON.as_bytes());
        input.extend_from_slice(format!("\n{nine}\r\nend\n{nine}\n").as_bytes());
        let simple = |r: Result<Entry, InputError>| match r {
            Ok(e) => Ok(e),
            Err(InputError::Parse(e)) => Err(e),
            Err(InputError::Io(e)) => panic!("{e}"),
        };
        let whole: Vec<_> = Puzzles::new(&input[..], None)
            .entries()
            .map(simple)
            .collect();
        assert_eq!(whole.len(), 9, "{whole:#?}");
        // Where line `line` + 1 starts.
        let after = |line: usize| -> usize {
            let mut ends = input.iter().enumerate().filter(|(_, &b)| b == b'\n');
            line.checked_sub(1)
                .map_or(0, |k| ends.nth(k).unwrap().0 + 1)
        };
        let mut one = Puzzles::new(&input[..], None).entries();
        let mut points = Vec::new();
        for read in 1..=whole.len() {
            assert_eq!(simple(one.next().unwrap()), whole[read - 1]);
            let Some(point) = one.resume_point() else {
                continue;
            };
            let rest: Vec<_> = Entries::resume(&input[after(point.line())..], &point)
                .map(simple)
                .collect();
            assert_eq!(rest, whole[read..], "resumed after line {}", point.line());
            points.push(point);
        }
        // After every entry (a JSON document's lines read as one); none
        // once `end` is read, which ends reading for good.
        assert_eq!(points.len(), 9);
        assert!(one.next().is_none());
        assert_eq!(one.resume_point(), None);
        // A guess from before the set settled, moved to just after the
        // 0-9A-F puzzle: the point differs, and so does the next puzzle.
        let (early, late) = (&points[0], &points[4]);
        assert_eq!(late.line(), 7);
        let guess = early.at_line(late.line());
        assert_ne!(guess, *late);
        let from_guess = Entries::resume(&input[after(late.line())..], &guess)
            .next()
            .map(|r| simple(r).unwrap());
        assert_ne!(from_guess.as_ref(), whole[5].as_ref().ok());
        // After the 1-9A-G puzzle settled the set, the next one (which
        // fits both) leaves it: a guess from there holds.
        assert_eq!(points[1].at_line(points[2].line()), points[2]);
    }

    /// A resumed reader keeps the first one's line limits; `Puzzles`
    /// resumes as `Entries` does, for classic puzzles.
    #[test]
    fn a_resumed_reader_keeps_the_line_limits() {
        let nine =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let lines = LineReader::with_limits(nine.as_bytes(), 100, 1000);
        let mut first = Puzzles::from_lines(lines, None);
        assert!(first.next().unwrap().is_ok());
        let point = first.resume_point().unwrap();
        let rest = format!("{nine}\n{}\n", "1".repeat(101));
        let read: Vec<_> = Puzzles::resume(rest.as_bytes(), &point).collect();
        assert_eq!(read[0].as_ref().unwrap().line, 2);
        match &read[1] {
            Err(InputError::Parse(e)) => assert_eq!(
                (e.line, &e.kind),
                (3, &ParseErrorKind::Line(LineFault::TooLong { limit: 100 }))
            ),
            other => panic!("{other:?}"),
        }
    }

    /// An error of the input inside a JSON document ends reading, as one
    /// between lines does: nothing more is read, and there is no point to
    /// resume from.
    #[test]
    fn an_input_error_in_a_document_ends_reading() {
        /// A line puzzle and a document's first lines, then a failure.
        struct Fails(bool);
        impl io::Read for Fails {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if std::mem::replace(&mut self.0, true) {
                    return Err(io::Error::other("the disk failed"));
                }
                let text = format!("{}\n{{\n\"", ".".repeat(81));
                buf[..text.len()].copy_from_slice(text.as_bytes());
                Ok(text.len())
            }
        }
        let mut entries = Puzzles::new(io::BufReader::new(Fails(false)), None).entries();
        assert!(matches!(entries.next(), Some(Ok(Entry::Classic(_)))));
        assert!(entries.resume_point().is_some());
        assert!(matches!(entries.next(), Some(Err(InputError::Io(_)))));
        assert_eq!(entries.resume_point(), None);
        assert!(entries.next().is_none());
    }

    proptest::proptest! {
        /// Any text read with variants: puzzles or errors, never a panic;
        /// every variant's cells fit its rules (the solver relies on it).
        #[test]
        fn entries_of_any_text_never_panic(
            text in r#"(1{0,3}[.1-4 x=:,{}"\[\]rc\n]{0,40}|https://f/\?load=[A-Za-z0-9+/]{0,30})"#,
        ) {
            for entry in Puzzles::new(text.as_bytes(), None).entries().flatten() {
                if let Entry::Variant(v) = entry {
                    proptest::prop_assert_eq!(v.cells.len(), v.rules.cells());
                    proptest::prop_assert!(super::super::variant::VariantSolver::new(
                        &v.rules, &v.cells
                    )
                    .is_ok());
                }
            }
        }
    }
}
