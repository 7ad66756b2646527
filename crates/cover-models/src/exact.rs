//! Generic exact-cover input: 0/1 matrices and Knuth's DLX text format.
//!
//! - `matrix` (Luogu P4929): a line `N M`, then N rows of M values 0 or 1
//!   separated by white space. Every column is a primary item; every row is
//!   an option. A file may hold several matrices one after another; blank
//!   lines and lines starting with `#` are ignored.
//! - `knuth` (as in DLX1 and `shared/xc/`): the first line names the items,
//!   primary ones first, then optionally `|` and the secondary ones; every
//!   later line is one option, the names of the items it covers. Lines
//!   starting with `|` are comments. One problem per file: when its item
//!   line cannot be read (too long, not UTF-8), the problem is an error
//!   and nothing after it is read, so no option line is taken for it.
//!
//! [`Instances`] reads either format from a [`BufRead`], one problem at a
//! time, so a file of many matrices is never loaded whole. An instance with
//! bad input is reported as a [`ParseError`] with its line number; for
//! matrices, the reader then moves on to the next matrix (a bad row still
//! counts as one of its matrix's rows; after a bad header, the next blank
//! line). A first line that cannot be read decides no format: the next
//! line does if it is a matrix header, else the lost line was an item
//! line.

use std::fmt;
use std::io::{self, BufRead};

use dlx_core::{Bounds, Problem, ProblemBuilder, ProblemError};
use thiserror::Error;

use crate::text::{self, excerpt, Line, LineError, LineFault, LineReader};

/// The largest number of columns a matrix header may declare: as many
/// values as a row of the longest line allowed holds ("0 0 … 0", two
/// bytes a value). Larger headers are refused before anything is
/// allocated for them.
pub const MAX_COLUMNS: usize = text::MAX_LINE_BYTES / 2 + 1;

/// The most nodes a problem read may have (a node per item, per option and
/// per item of an option: a matrix's ones, rows and columns), for memory:
/// the problem takes about 8 bytes a node and a search's links 16, so the
/// largest takes some 400 MB to search. A problem that passes it is an
/// error at the line of the option that does.
pub const MAX_PROBLEM_NODES: usize = 1 << 24;

/// An input format of `cover exact`. Exhaustive on purpose: a new format
/// changes what every consumer prints, so each must say what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `N M` and N rows of M zeros and ones.
    Matrix,
    /// Knuth's item names and options.
    Knuth,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Matrix => "matrix",
            Format::Knuth => "knuth",
        })
    }
}

/// One problem read from the input.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The problem. Matrix rows are options `0..N`, columns items `0..M`;
    /// Knuth options are numbered in input order.
    pub problem: Problem,
    /// The line where the instance starts (its header or item line).
    pub line: usize,
    /// The format it was read in.
    pub format: Format,
    /// For matrices, the 1-based row number of each option (rows of zeros
    /// cover nothing and are not options).
    rows: Vec<u32>,
    /// Knuth's format: the lines of options left out because they have no
    /// primary item (no search could choose them; Knuth's programs ignore
    /// them with a warning, as the binary does).
    pub ignored: Vec<usize>,
}

impl Instance {
    /// The 1-based input row of `option` (matrices), or its 1-based option
    /// number (Knuth's format).
    pub fn row_number(&self, option: usize) -> usize {
        match self.format {
            Format::Matrix => self.rows[option] as usize,
            Format::Knuth => option + 1,
        }
    }

    /// Writes option `option` the way the input wrote it: item names for
    /// Knuth's format, the 1-based row number for matrices.
    pub fn option_label(&self, option: usize) -> String {
        match self.format {
            Format::Matrix => self.rows[option].to_string(),
            Format::Knuth => {
                let problem = &self.problem;
                let names: Vec<String> = problem
                    .option(option)
                    .iter()
                    .zip(problem.option_colours(option))
                    .map(|(&item, colour)| {
                        let name = problem.item_label(item as usize);
                        match colour.and_then(|c| problem.colour_name(c)) {
                            Some(colour) => format!("{name}:{colour}"),
                            None => name,
                        }
                    })
                    .collect();
                names.join(" ")
            }
        }
    }
}

/// What is wrong with a line of input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The line cannot be read as text (not UTF-8, too long, binary).
    #[error("{0}")]
    Line(LineFault),
    /// A matrix header that is not two numbers.
    #[error("expected a header `N M` (rows and columns), found {0:?}")]
    BadHeader(String),
    /// A matrix header with too many columns.
    #[error("{0} columns is more than the {max} supported", max = MAX_COLUMNS)]
    TooManyColumns(usize),
    /// A matrix entry other than 0 or 1.
    #[error("expected 0 or 1, found {0:?}")]
    BadValue(String),
    /// A matrix row with the wrong number of entries.
    #[error("row has {found} values, the header says {expected}")]
    WrongRowLength {
        /// Columns the header declared.
        expected: usize,
        /// Values on the row.
        found: usize,
    },
    /// The input ended before the rows the header promised.
    #[error("the header promises {expected} rows but only {found} follow")]
    MissingRows {
        /// Rows the header declared.
        expected: usize,
        /// Rows read before the end.
        found: usize,
    },
    /// A Knuth file with no item line.
    #[error("no item names: the first line must list the items")]
    NoItems,
    /// Knuth's item line could not be read, so neither could the problem
    /// (one per input): nothing of it is answered.
    #[error(
        "{0}; it is the item line (Knuth's format), so the problem is not read and nothing \
         after it is"
    )]
    ItemLineUnread(LineFault),
    /// An input without any problem in it.
    #[error(
        "no problem in the input: it is empty or holds only blank lines and comments ({expected})"
    )]
    Empty {
        /// What the input should start with, for the format in use.
        expected: &'static str,
    },
    /// A second `|` on the item line.
    #[error("the item line has more than one `|`")]
    TwoBars,
    /// A colour on the item line, where items are declared: colours go
    /// on options (`x:red`).
    #[error("item {0:?} has a colour on the item line; colours belong on options, as `x:red`")]
    ColourOnItemLine(String),
    /// A `name:colour` with a part missing.
    #[error("expected `item:colour`, found {0:?}")]
    BadColour(String),
    /// Bounds that are not `u:v|item` or `v|item` in whole numbers.
    #[error("expected bounds as `u:v|item` or `v|item` with whole numbers, found {0:?}")]
    BadBounds(String),
    /// The problem itself is wrong (unknown item, repeated item, ...).
    #[error("{0}")]
    Problem(ProblemError),
}

/// A bad line of input.
pub type ParseError = LineError<ParseErrorKind>;

/// Why an instance could not be read.
pub type InputError = text::InputError<ParseError>;

/// Guesses the format from the first line that is not blank or a comment:
/// two whole numbers make a matrix header, anything else is an item line.
pub fn detect(first_line: &str) -> Format {
    let mut fields = first_line.split_whitespace();
    let numbers = fields
        .by_ref()
        .take(2)
        .filter(|f| f.parse::<u64>().is_ok())
        .count();
    if numbers == 2 && fields.next().is_none() {
        Format::Matrix
    } else {
        Format::Knuth
    }
}

/// Reads exact-cover instances one at a time; see the module documentation.
#[derive(Debug)]
pub struct Instances<R> {
    lines: LineReader<R>,
    format: Option<Format>,
    /// A line read ahead (to detect the format) and not yet used.
    pending: Option<Line>,
    done: bool,
    /// Whether anything (an instance or an error) was returned yet.
    any: bool,
}

impl<R: BufRead> Instances<R> {
    /// Reads `reader` in `format`, or in the format [`detect`]ed from the
    /// first line when `None`.
    pub fn new(reader: R, format: Option<Format>) -> Self {
        Instances::from_lines(LineReader::new(reader), format)
    }

    /// Reads the lines of `lines` (a [`LineReader`] with limits of its
    /// own, say) as [`Instances::new`] does.
    pub fn from_lines(lines: LineReader<R>, format: Option<Format>) -> Self {
        Instances {
            lines,
            format,
            pending: None,
            done: false,
            any: false,
        }
    }

    /// The format in use (known once the first instance was read).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    fn next_line(&mut self) -> io::Result<Option<Line>> {
        match self.pending.take() {
            Some(line) => Ok(Some(line)),
            None => self.lines.next_line(),
        }
    }

    /// The text of the next line that is not blank or a comment of either
    /// format (kept pending, as the next line to read); `None` when it
    /// cannot be read or there is none.
    fn peek_content_line(&mut self) -> io::Result<Option<&str>> {
        while let Some(line) = self.next_line()? {
            let skip = line.text.as_deref().is_ok_and(|t| {
                let t = t.trim();
                t.is_empty() || t.starts_with('#') || t.starts_with('|')
            });
            if !skip {
                self.pending = Some(line);
                break;
            }
        }
        Ok(self
            .pending
            .as_ref()
            .and_then(|line| line.text.as_deref().ok()))
    }

    /// The next line that is not blank and not a comment (a comment starts
    /// with `comment`), with its text.
    fn next_content_line(
        &mut self,
        comment: char,
    ) -> io::Result<Option<(usize, Result<String, ParseError>)>> {
        while let Some(line) = self.next_line()? {
            match line.text {
                Err(fault) => {
                    return Ok(Some((
                        line.number,
                        Err(ParseError {
                            line: line.number,
                            kind: ParseErrorKind::Line(fault),
                        }),
                    )))
                }
                Ok(text) => {
                    let trimmed = text.trim();
                    if trimmed.is_empty() || trimmed.starts_with(comment) {
                        continue;
                    }
                    return Ok(Some((line.number, Ok(text))));
                }
            }
        }
        Ok(None)
    }

    fn read_matrix(&mut self) -> Result<Option<Instance>, InputError> {
        let Some((header_line, text)) = self.next_content_line('#')? else {
            return Ok(None);
        };
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                // Like a bad header: what follows cannot be read as rows.
                self.skip_block()?;
                return Err(e.into());
            }
        };
        let Some((rows, columns)) = parse_header(&text) else {
            self.skip_block()?;
            return Err(ParseError {
                line: header_line,
                kind: ParseErrorKind::BadHeader(excerpt(text.trim())),
            }
            .into());
        };
        if columns > MAX_COLUMNS {
            self.skip_rows(rows)?;
            return Err(ParseError {
                line: header_line,
                kind: ParseErrorKind::TooManyColumns(columns),
            }
            .into());
        }
        // The builder (one entry per column) is made only once a row has
        // shown that the columns are really there, so a header that merely
        // claims millions of columns allocates nothing for them. (With no
        // rows at all, `0 M`, the problem of M uncovered columns is still
        // built at the end.)
        let mut builder: Option<ProblemBuilder> = None;
        let mut first_error: Option<ParseError> = None;
        let mut ones = Vec::new();
        let mut option_rows = Vec::new();
        // Rows are read one by one: the header's row count is never used to
        // allocate, only to know when the matrix ends.
        for found in 0..rows {
            let Some((line, text)) = self.next_content_line('#')? else {
                return Err(first_error
                    .unwrap_or(ParseError {
                        line: header_line,
                        kind: ParseErrorKind::MissingRows {
                            expected: rows,
                            found,
                        },
                    })
                    .into());
            };
            if first_error.is_some() {
                continue;
            }
            match text.and_then(|text| parse_row(&text, columns, line, &mut ones)) {
                // A row of zeros covers nothing, so no search would ever
                // choose it: it is not made an option at all.
                Ok(()) if ones.is_empty() => {}
                Ok(()) => match builder
                    .get_or_insert_with(|| limited(ProblemBuilder::new(columns, 0)))
                    .add_option(ones.iter().copied())
                {
                    Ok(_) => option_rows.push(found as u32 + 1),
                    Err(e) => {
                        first_error = Some(ParseError {
                            line,
                            kind: ParseErrorKind::Problem(shorten(e)),
                        })
                    }
                },
                Err(e) => first_error = Some(e),
            }
        }
        // Without rows, nothing shows that the header's columns are there:
        // one uncovered column answers the same (no solution, one search
        // node, no update) without allocating for millions of them.
        let proven = if rows == 0 { columns.min(1) } else { columns };
        match first_error {
            Some(e) => Err(e.into()),
            None => Ok(Some(Instance {
                problem: builder
                    .unwrap_or_else(|| ProblemBuilder::new(proven, 0))
                    .build(),
                line: header_line,
                format: Format::Matrix,
                rows: option_rows,
                ignored: Vec::new(),
            })),
        }
    }

    /// After a bad header, skips to the next blank line: the rows that
    /// follow cannot be told from a header.
    fn skip_block(&mut self) -> io::Result<()> {
        while let Some(line) = self.next_line()? {
            if line.text.as_deref().is_ok_and(|t| t.trim().is_empty()) {
                break;
            }
        }
        Ok(())
    }

    fn skip_rows(&mut self, rows: usize) -> io::Result<()> {
        for _ in 0..rows {
            if self.next_content_line('#')?.is_none() {
                break;
            }
        }
        Ok(())
    }

    fn read_knuth(&mut self) -> Result<Option<Instance>, InputError> {
        let Some((item_line, text)) = self.next_content_line('|')? else {
            return Ok(None);
        };
        let text = text.map_err(|e| match e.kind {
            ParseErrorKind::Line(fault) => ParseError {
                line: e.line,
                kind: ParseErrorKind::ItemLineUnread(fault),
            },
            _ => e,
        })?;
        let at = |kind| ParseError {
            line: item_line,
            kind,
        };
        // Check the line's shape first; then its names go straight from
        // the line into the builder, so a line of a million names is held
        // once, not twice more.
        let mut bars = 0;
        let mut names = 0;
        for token in item_tokens(&text) {
            match token {
                ItemToken::Bar => bars += 1,
                ItemToken::Item { name, bounds } => {
                    names += 1;
                    if name.is_empty() {
                        return Err(
                            at(ParseErrorKind::BadBounds(excerpt(bounds.unwrap_or("")))).into()
                        );
                    }
                    if name.contains(':') {
                        return Err(at(ParseErrorKind::ColourOnItemLine(excerpt(name))).into());
                    }
                    if let Some(bounds) = bounds {
                        if parse_bounds(bounds).is_none() {
                            return Err(at(ParseErrorKind::BadBounds(excerpt(bounds))).into());
                        }
                    }
                }
            }
        }
        if bars > 1 {
            return Err(at(ParseErrorKind::TwoBars).into());
        }
        if names == 0 {
            return Err(at(ParseErrorKind::NoItems).into());
        }
        let side = |secondary: bool| {
            let mut seen_bar = false;
            item_tokens(&text).filter_map(move |token| match token {
                ItemToken::Bar => {
                    seen_bar = true;
                    None
                }
                ItemToken::Item { name, .. } => (seen_bar == secondary).then_some(name),
            })
        };
        let problem_error = |e| at(ParseErrorKind::Problem(shorten(e)));
        let mut builder = limited(Problem::named(side(false), side(true)).map_err(problem_error)?);
        for token in item_tokens(&text) {
            if let ItemToken::Item {
                name,
                bounds: Some(bounds),
            } = token
            {
                let bounds = parse_bounds(bounds).expect("checked above");
                builder
                    .set_named_bounds(name, bounds)
                    .map_err(problem_error)?;
            }
        }
        let mut ignored = Vec::new();
        while let Some((line, text)) = self.next_content_line('|')? {
            let text = text?;
            let at = |kind| ParseError { line, kind };
            if let Some(bad) = text.split_whitespace().find(|token| {
                token
                    .split_once(':')
                    .is_some_and(|(name, colour)| name.is_empty() || colour.is_empty())
            }) {
                return Err(at(ParseErrorKind::BadColour(excerpt(bad))).into());
            }
            let items = text
                .split_whitespace()
                .map(|token| match token.split_once(':') {
                    Some((name, colour)) => (name, Some(colour)),
                    None => (token, None),
                });
            match builder.add_named_coloured_option(items) {
                Ok(_) => {}
                Err(ProblemError::NoPrimaryItem { .. }) => ignored.push(line),
                Err(e) => return Err(at(ParseErrorKind::Problem(shorten(e))).into()),
            }
        }
        Ok(Some(Instance {
            problem: builder.build(),
            line: item_line,
            format: Format::Knuth,
            rows: Vec::new(),
            ignored,
        }))
    }
}

/// `builder`, refusing problems of more than [`MAX_PROBLEM_NODES`] nodes.
fn limited(mut builder: ProblemBuilder) -> ProblemBuilder {
    builder.limit_nodes(MAX_PROBLEM_NODES);
    builder
}

/// One token of Knuth's item line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemToken<'a> {
    /// The `|` between primary and secondary items.
    Bar,
    /// An item, with its bounds as written (`2` or `0:2` of `0:2|a0`).
    Item {
        name: &'a str,
        bounds: Option<&'a str>,
    },
}

/// The tokens of an item line: a `|` starting a word is the bar (and the
/// rest of the word an item's name); one inside a word ends the bounds of
/// a primary item (`2|r0`, `0:2|a0`).
fn item_tokens(text: &str) -> impl Iterator<Item = ItemToken<'_>> {
    text.split_whitespace().flat_map(|word| {
        let (bar, word) = match word.strip_prefix('|') {
            Some(rest) => (Some(ItemToken::Bar), rest),
            None => (None, word),
        };
        let item = (!word.is_empty()).then(|| match word.split_once('|') {
            Some((bounds, name)) => ItemToken::Item {
                name,
                bounds: Some(bounds),
            },
            None => ItemToken::Item {
                name: word,
                bounds: None,
            },
        });
        bar.into_iter().chain(item)
    })
}

/// Bounds as Knuth's DLX3 writes them: `v` (exactly v) or `u:v`.
fn parse_bounds(text: &str) -> Option<Bounds> {
    let number = |t: &str| -> Option<u32> {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    match text.split_once(':') {
        Some((lower, upper)) => Some(Bounds {
            lower: number(lower)?,
            upper: number(upper)?,
        }),
        None => {
            let exactly = number(text)?;
            Some(Bounds {
                lower: exactly,
                upper: exactly,
            })
        }
    }
}

impl<R: BufRead> Iterator for Instances<R> {
    type Item = Result<Instance, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.next_instance();
        if next.is_none() && !self.any {
            // As Knuth's programs do, an input without a problem is refused
            // rather than taken for a problem without items.
            self.any = true;
            let expected = match self.format {
                Some(Format::Knuth) => "expected the item line",
                Some(Format::Matrix) => "expected a header `N M`",
                None => "expected a Knuth item line or a matrix header `N M`",
            };
            return Some(Err(ParseError {
                line: self.lines.line_number().max(1),
                kind: ParseErrorKind::Empty { expected },
            }
            .into()));
        }
        self.any = true;
        next
    }
}

impl<R: BufRead> Instances<R> {
    /// The next instance, or why it could not be read; `None` at the end.
    fn next_instance(&mut self) -> Option<Result<Instance, InputError>> {
        if self.done {
            return None;
        }
        let format = match self.format {
            Some(format) => format,
            None => {
                // Look at the first content line, then hand it back.
                let first = loop {
                    match self.next_line() {
                        Err(e) => {
                            self.done = true;
                            return Some(Err(e.into()));
                        }
                        Ok(None) => {
                            self.done = true;
                            return None;
                        }
                        Ok(Some(line)) => {
                            let blank = line.text.as_deref().is_ok_and(|t| {
                                let t = t.trim();
                                t.is_empty() || t.starts_with('#') || t.starts_with('|')
                            });
                            if !blank {
                                break line;
                            }
                        }
                    }
                };
                let text = match first.text {
                    Ok(text) => text,
                    // A line that cannot be read tells nothing of the
                    // format: report it, and detect from the next one if
                    // that is a matrix header (or unreadable too); else the
                    // lost line was Knuth's item line, without which the
                    // options after it must not be read as a problem.
                    Err(fault) => {
                        let knuth = match self.peek_content_line() {
                            Ok(next) => next.is_some_and(|t| detect(t) == Format::Knuth),
                            Err(e) => {
                                self.done = true;
                                return Some(Err(e.into()));
                            }
                        };
                        let kind = if knuth {
                            self.done = true;
                            ParseErrorKind::ItemLineUnread(fault)
                        } else {
                            ParseErrorKind::Line(fault)
                        };
                        return Some(Err(ParseError {
                            line: first.number,
                            kind,
                        }
                        .into()));
                    }
                };
                let format = detect(&text);
                self.pending = Some(Line {
                    number: first.number,
                    text: Ok(text),
                });
                self.format = Some(format);
                format
            }
        };
        let result = match format {
            Format::Matrix => self.read_matrix(),
            Format::Knuth => {
                // One problem per file: whatever happens, this is the last.
                self.done = true;
                self.read_knuth()
            }
        };
        match result {
            Ok(Some(instance)) => Some(Ok(instance)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(InputError::Io(e)) => {
                self.done = true;
                Some(Err(InputError::Io(e)))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// `error` with the names it quotes cut to an [`excerpt`].
fn shorten(error: ProblemError) -> ProblemError {
    match error {
        ProblemError::UnknownName { option, name } => ProblemError::UnknownName {
            option,
            name: excerpt(&name),
        },
        ProblemError::DuplicateItem { option, item } => ProblemError::DuplicateItem {
            option,
            item: excerpt(&item),
        },
        ProblemError::DuplicateName { name } => ProblemError::DuplicateName {
            name: excerpt(&name),
        },
        other => other,
    }
}

fn parse_header(text: &str) -> Option<(usize, usize)> {
    let mut fields = text.split_whitespace();
    let rows = fields.next()?.parse().ok()?;
    let columns = fields.next()?.parse().ok()?;
    fields.next().is_none().then_some((rows, columns))
}

/// Parses one matrix row into the columns of its ones.
fn parse_row(
    text: &str,
    columns: usize,
    line: usize,
    ones: &mut Vec<usize>,
) -> Result<(), ParseError> {
    ones.clear();
    let mut found = 0;
    for field in text.split_whitespace() {
        match field {
            "0" => {}
            "1" => ones.push(found),
            other => {
                return Err(ParseError {
                    line,
                    kind: ParseErrorKind::BadValue(excerpt(other)),
                })
            }
        }
        found += 1;
    }
    if found != columns {
        return Err(ParseError {
            line,
            kind: ParseErrorKind::WrongRowLength {
                expected: columns,
                found,
            },
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use dlx_core::Solver;

    use super::*;

    /// Reads every instance of `input` in `format` (detected when `None`).
    fn read(input: &[u8], format: Option<Format>) -> Vec<Result<Instance, InputError>> {
        Instances::new(input, format).collect()
    }

    /// The only instance of `input`, which must be valid.
    fn one(input: &[u8]) -> Instance {
        let mut all = read(input, None);
        assert_eq!(all.len(), 1, "expected one instance");
        all.pop().unwrap().expect("a valid instance")
    }

    /// The parse error of a result that must be one.
    fn parse_error(result: &Result<Instance, InputError>) -> &ParseError {
        match result {
            Err(InputError::Parse(e)) => e,
            Err(InputError::Io(e)) => panic!("expected a parse error, got I/O error {e}"),
            Ok(i) => panic!("expected a parse error, got an instance at line {}", i.line),
        }
    }

    /// Each instance of `input`: the line it starts on, or its error's line
    /// and kind.
    fn outline(
        input: &[u8],
        format: Option<Format>,
    ) -> Vec<Result<usize, (usize, ParseErrorKind)>> {
        read(input, format)
            .into_iter()
            .map(|result| match result {
                Ok(instance) => Ok(instance.line),
                Err(InputError::Parse(e)) => Err((e.line, e.kind)),
                Err(InputError::Io(e)) => panic!("expected a parse error, got I/O error {e}"),
            })
            .collect()
    }

    /// The items of each option, as item numbers.
    fn options(instance: &Instance) -> Vec<Vec<u32>> {
        instance
            .problem
            .options()
            .map(|items| items.to_vec())
            .collect()
    }

    #[test]
    fn detect_two_numbers_is_a_matrix() {
        assert_eq!(detect("3 3"), Format::Matrix);
        assert_eq!(detect("  6\t7  "), Format::Matrix);
        assert_eq!(detect("0 0"), Format::Matrix);
        assert_eq!(detect("a b c"), Format::Knuth);
        assert_eq!(detect("1 2 3"), Format::Knuth);
        assert_eq!(detect("3"), Format::Knuth);
        assert_eq!(detect("3 x"), Format::Knuth);
        assert_eq!(detect("-1 2"), Format::Knuth);
        assert_eq!(detect("a b | c"), Format::Knuth);
        assert_eq!(detect(""), Format::Knuth);
    }

    #[test]
    fn detection_skips_blank_and_comment_lines() {
        let mut instances = Instances::new(&b"\n# a comment\n\n2 1\n1\n1\n"[..], None);
        let instance = instances.next().unwrap().unwrap();
        assert_eq!(instances.format(), Some(Format::Matrix));
        assert_eq!(instance.line, 4);
        assert_eq!(instance.problem.option_count(), 2);
        assert!(instances.next().is_none());
    }

    #[test]
    fn an_input_without_a_problem_is_refused() {
        for (input, format, line, expected) in [
            (&b""[..], None, 1, "a Knuth item line or a matrix header"),
            (
                b"\n\n# only comments\n",
                None,
                3,
                "a Knuth item line or a matrix header",
            ),
            (b"", Some(Format::Knuth), 1, "the item line"),
            (
                b"| only a comment\n|\n",
                Some(Format::Knuth),
                2,
                "the item line",
            ),
            (b"\n", Some(Format::Matrix), 1, "a header `N M`"),
        ] {
            let all = read(input, format);
            assert_eq!(all.len(), 1, "{input:?}");
            let e = parse_error(&all[0]);
            assert_eq!(e.line, line, "{input:?}");
            assert!(matches!(e.kind, ParseErrorKind::Empty { .. }), "{input:?}");
            assert!(e.kind.to_string().contains(expected), "{}", e.kind);
        }
        // A file of several matrices may end anywhere after the first.
        assert_eq!(read(b"1 1\n1\n\n# end\n", None).len(), 1);
    }

    #[test]
    fn over_long_lines_are_errors_and_quoted_text_is_cut() {
        let mut input = b"1 2\n1 0\n\n".to_vec();
        input.extend_from_slice(&b"1 ".repeat(3 << 20));
        input.extend_from_slice(b"\n\n1 1\n1\n");
        let too_long = LineFault::TooLong {
            limit: text::MAX_LINE_BYTES,
        };
        assert_eq!(
            outline(&input, None),
            [Ok(1), Err((4, ParseErrorKind::Line(too_long))), Ok(6)]
        );
        // A bad header of a thousand characters is quoted in forty.
        let header = format!("2 {}\n", "x".repeat(1000));
        let e = parse_error(&read(header.as_bytes(), Some(Format::Matrix))[0]).clone();
        assert!(e.kind.to_string().len() < 120, "{}", e.kind);
    }

    /// Each instance of `input` read with lines of at most 40 bytes, as
    /// [`outline`] gives them.
    fn outline_short(
        input: &str,
        format: Option<Format>,
    ) -> Vec<Result<usize, (usize, ParseErrorKind)>> {
        let lines = LineReader::with_limits(input.as_bytes(), 40, 1 << 20);
        Instances::from_lines(lines, format)
            .map(|result| match result {
                Ok(instance) => Ok(instance.line),
                Err(InputError::Parse(e)) => Err((e.line, e.kind)),
                Err(InputError::Io(e)) => panic!("{e}"),
            })
            .collect()
    }

    /// An item line too long to read is an error for its problem, and no
    /// option after it is taken for the item line (nothing is answered);
    /// an option line or a matrix row too long is its instance's error,
    /// and a matrix's other rows are still counted as its rows.
    #[test]
    fn over_long_item_and_option_lines_answer_nothing_unread() {
        use ParseErrorKind::*;
        let fault = LineFault::TooLong { limit: 40 };
        let items: String = (0..20).map(|k| format!("i{k} ")).collect();
        let knuth = format!("{items}\ni0 i1\ni1\n");
        for format in [None, Some(Format::Knuth)] {
            assert_eq!(
                outline_short(&knuth, format),
                [Err((1, ItemLineUnread(fault)))]
            );
            let commented = format!("| a comment\n\n{knuth}");
            assert_eq!(
                outline_short(&commented, format),
                [Err((3, ItemLineUnread(fault)))]
            );
        }
        let message = ItemLineUnread(fault).to_string();
        assert!(message.ends_with("it is the item line (Knuth's format), so the problem is not read and nothing after it is"), "{message}");
        // An option line: the problem is an error at that line.
        let option = format!("i0 i1\ni0\n{}\ni1\n", "i0 ".repeat(20));
        assert_eq!(outline_short(&option, None), [Err((3, Line(fault)))]);
        // A matrix row: that matrix is an error, the next is read.
        let matrix = format!("2 2\n{}\n0 1\n1 1\n1\n", "1 ".repeat(30));
        assert_eq!(outline_short(&matrix, None), [Err((2, Line(fault))), Ok(4)]);
        // A matrix header: its block is skipped, the next is read.
        let header = format!("1 1\n1\n\n{}\n1 0\n\n1 1\n1\n", "2 ".repeat(30));
        assert_eq!(
            outline_short(&header, Some(Format::Matrix)),
            [Ok(1), Err((4, Line(fault))), Ok(7)]
        );
    }

    #[test]
    fn matrix_rows_become_options() {
        let instance = one(b"3 3\n1 0 0\n0 1 0\n0 0 1\n");
        assert_eq!(instance.format, Format::Matrix);
        assert_eq!(instance.line, 1);
        assert_eq!(instance.problem.primary_count(), 3);
        assert_eq!(instance.problem.secondary_count(), 0);
        assert_eq!(options(&instance), [vec![0], vec![1], vec![2]]);
        assert_eq!(instance.row_number(2), 3);
        assert_eq!(instance.option_label(2), "3");
    }

    #[test]
    fn matrix_rows_of_zeros_are_not_options_but_keep_their_numbers() {
        let instance = one(b"4 2\n0 0\n1 0\n0 0\n0 1\n");
        assert_eq!(options(&instance), [vec![0], vec![1]]);
        assert_eq!(instance.row_number(0), 2);
        assert_eq!(instance.row_number(1), 4);
        let mut solver = Solver::new(&instance.problem);
        assert_eq!(solver.first(), Some(vec![0, 1]));
    }

    #[test]
    fn matrix_with_zero_rows() {
        // Columns no row covers: a valid problem without solutions, which
        // one column stands for (a header's columns are not allocated until
        // a row shows them).
        let stats_of = |problem: &Problem| {
            let report = Solver::new(problem).count_with(&[], &dlx_core::Limits::none());
            report.unwrap().stats
        };
        let three = stats_of(&ProblemBuilder::new(3, 0).build());
        assert_eq!(three.solutions, 0);
        for header in [&b"0 3\n"[..], b"0 2097153\n"] {
            let instance = one(header);
            assert_eq!(instance.problem.primary_count(), 1);
            assert_eq!(instance.problem.option_count(), 0);
            assert_eq!(stats_of(&instance.problem), three);
        }
        // Rows of zeros show the columns.
        assert_eq!(one(b"1 3\n0 0 0\n").problem.primary_count(), 3);
        // No columns at all: the empty set of rows is the one solution.
        let instance = one(b"0 0\n");
        assert_eq!(instance.problem.item_count(), 0);
        assert_eq!(Solver::new(&instance.problem).first(), Some(vec![]));
    }

    #[test]
    fn several_matrices_with_comments_and_blank_lines() {
        let input = b"# two problems\n2 2\n1 0\n\n# between rows\n0 1\n\n1 1\n1\n";
        let all = read(input, None);
        assert_eq!(all.len(), 2);
        let first = all[0].as_ref().unwrap();
        assert_eq!(first.line, 2);
        assert_eq!(options(first), [vec![0], vec![1]]);
        let second = all[1].as_ref().unwrap();
        assert_eq!(second.line, 8);
        assert_eq!(options(second), [vec![0]]);
    }

    #[test]
    fn bom_and_crlf_are_accepted() {
        let instance = one(b"\xEF\xBB\xBF2 2\r\n1 0\r\n0 1\r\n");
        assert_eq!(instance.format, Format::Matrix);
        assert_eq!(options(&instance), [vec![0], vec![1]]);
        let instance = one(b"\xEF\xBB\xBFa b\r\n| comment\r\na\r\nb\r\n");
        assert_eq!(instance.format, Format::Knuth);
        assert_eq!(instance.problem.item_name(1), Some("b"));
        assert_eq!(instance.option_label(1), "b");
    }

    #[test]
    fn matrix_errors_name_their_line_and_the_next_matrix_is_read() {
        use ParseErrorKind::*;
        let not_utf8 = Line(LineFault::NotUtf8);
        for (input, format, expected) in [
            (
                &b"1 1\n1\n\n2 3\n1 0 0\n0 2 1\n\n2 2\n1 0\n1\n\n1 1\n1\n"[..],
                None,
                vec![
                    Ok(1),
                    Err((6, BadValue("2".into()))),
                    Err((
                        10,
                        WrongRowLength {
                            expected: 2,
                            found: 1,
                        },
                    )),
                    Ok(12),
                ],
            ),
            // The bad row is reported once; its matrix's other rows are
            // consumed, so the next header is read as a header.
            (
                b"3 2\n1 1 1\n1 0\n0 1\n1 2\n1 1\n",
                None,
                vec![
                    Err((
                        2,
                        WrongRowLength {
                            expected: 2,
                            found: 3,
                        },
                    )),
                    Ok(5),
                ],
            ),
            // Missing rows are reported at the header.
            (
                b"# c\n3 2\n1 0\n0 1\n",
                None,
                vec![Err((
                    2,
                    MissingRows {
                        expected: 3,
                        found: 2,
                    },
                ))],
            ),
            // A header claiming a billion rows allocates nothing for them.
            (
                b"1000000000 3\n1 0 0\n0 1 1\n",
                None,
                vec![Err((
                    1,
                    MissingRows {
                        expected: 1_000_000_000,
                        found: 2,
                    },
                ))],
            ),
            // A header claiming many columns fails on its first row, or
            // at once above the most a line can hold.
            (
                b"1 2097153\n1 0\n",
                None,
                vec![Err((
                    2,
                    WrongRowLength {
                        expected: 2_097_153,
                        found: 2,
                    },
                ))],
            ),
            (
                b"1 2097154\n1 0\n\n1 1\n1\n",
                None,
                vec![Err((1, TooManyColumns(2_097_154))), Ok(4)],
            ),
            // A bad header skips to the next blank line.
            (
                b"2 2\n1 0\n0 1\n\n2 x\n1 0\n0 1\n\n1 1\n1\n",
                None,
                vec![Ok(1), Err((5, BadHeader("2 x".into()))), Ok(9)],
            ),
            // A first line that cannot be read does not decide the format.
            (
                b"\xFF\xFE\n\n1 1\n1\n\n2 1\n1\n0\n",
                None,
                vec![Err((1, not_utf8.clone())), Ok(3), Ok(6)],
            ),
            // Bytes that are not UTF-8 in a row.
            (
                b"2 2\n1 0\n\xFF\xFE\n\n1 1\n1\n",
                None,
                vec![Err((3, not_utf8.clone())), Ok(5)],
            ),
            // In a header: the block after it is skipped, as after a bad
            // header.
            (
                b"1 1\n1\n\n\xC3\x28 2\n1 0\n0 1\n\n1 1\n1\n",
                Some(Format::Matrix),
                vec![Ok(1), Err((4, not_utf8.clone())), Ok(8)],
            ),
            // Junk from the start: each line that cannot be read is
            // reported, none decides the format.
            (
                b"\x00\x9F\x92\x96junk\n\x80\n",
                None,
                vec![Err((1, not_utf8.clone())), Err((2, not_utf8.clone()))],
            ),
        ] {
            assert_eq!(outline(input, format), expected, "{input:?}");
        }
        let all = read(b"\xFF\xFE\n\n1 1\n1\n\n2 1\n1\n0\n", None);
        assert_eq!(all[1].as_ref().unwrap().format, Format::Matrix);
    }

    #[test]
    fn knuth_primary_and_secondary_items() {
        let input = b"| a comment\na b c | x y\n| another\na x\nb c y\nc\nb\n";
        let instance = one(input);
        assert_eq!(instance.format, Format::Knuth);
        assert_eq!(instance.line, 2);
        assert_eq!(instance.problem.primary_count(), 3);
        assert_eq!(instance.problem.secondary_count(), 2);
        assert_eq!(instance.problem.item_name(3), Some("x"));
        assert_eq!(
            options(&instance),
            [vec![0, 3], vec![1, 2, 4], vec![2], vec![1]]
        );
        assert_eq!(instance.option_label(1), "b c y");
        assert_eq!(instance.row_number(1), 2);
        // Secondary items need not be covered: {a x} {b c y} and {a x} {c} {b}.
        assert_eq!(Solver::new(&instance.problem).count(), 2);
    }

    #[test]
    fn knuth_without_secondary_items_and_forced_format() {
        // Two numbers look like a matrix header unless the format is forced.
        let all = read(b"1 2\n1\n2\n", Some(Format::Knuth));
        assert_eq!(all.len(), 1);
        let instance = all[0].as_ref().unwrap();
        assert_eq!(instance.problem.primary_count(), 2);
        assert_eq!(instance.option_label(0), "1");
        // Detected as a matrix, the row `1` is too short and `2` is no header.
        let all = read(b"1 2\n1\n2\n", None);
        assert_eq!(all.len(), 2);
        assert_eq!(parse_error(&all[0]).line, 2);
        assert_eq!(parse_error(&all[1]).line, 3);
    }

    #[test]
    fn knuth_colours_and_bounds() {
        // Knuth's xcc_small: colours on secondary items.
        let input = b"p q r | x y\np q x:A y:A\np r x:B y:A\np x:A\nq x:B\nr y:A\nq r y:B\n";
        let instance = one(input);
        assert!(instance.problem.has_colours());
        assert!(!instance.problem.has_bounds());
        assert_eq!(instance.option_label(0), "p q x:A y:A");
        assert_eq!(instance.option_label(5), "q r y:B");
        assert_eq!(Solver::new(&instance.problem).count(), 3);
        // Bounds before primary names; `|` alone still separates.
        let instance = one(b"2|a 0:2|b c | x\na b\na c x\na b\nb c\n");
        let problem = &instance.problem;
        assert!(problem.has_bounds());
        assert_eq!(problem.bounds(0), Some(Bounds { lower: 2, upper: 2 }));
        assert_eq!(problem.bounds(1), Some(Bounds { lower: 0, upper: 2 }));
        assert_eq!(problem.bounds(2), Some(Bounds::ONCE));
        assert_eq!(problem.bounds(3), None);
        assert_eq!(problem.item_name(0), Some("a"));
        // `a` twice and `c` once: options {0, 1} and {1, 2}; {0, 2} would
        // need `b c` for `c`, and `b` would be covered three times.
        assert_eq!(Solver::new(problem).count(), 2);
    }

    #[test]
    fn knuth_colour_and_bound_errors() {
        let error_of = |input: &[u8]| parse_error(&read(input, None)[0]).clone();
        let e = error_of(b"a b | c:red\n");
        assert_eq!(
            (e.line, e.kind),
            (1, ParseErrorKind::ColourOnItemLine("c:red".into()))
        );
        let e = error_of(b"a | c\na c:\n");
        assert_eq!(
            (e.line, e.kind),
            (2, ParseErrorKind::BadColour("c:".into()))
        );
        let e = error_of(b"a | c\na:red c\n");
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::ColourOnPrimary { .. })
        ));
        let e = error_of(b"x|a b\n");
        assert_eq!(e.kind, ParseErrorKind::BadBounds("x".into()));
        let e = error_of(b"3:2|a b\n");
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::BadBounds {
                lower: 3,
                upper: 2,
                ..
            })
        ));
        let e = error_of(b"a | 2|c\n");
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::BoundsOnSecondary { .. })
        ));
        let e = error_of(b"0|a b\n");
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::BadBounds { upper: 0, .. })
        ));
    }

    #[test]
    fn options_without_a_primary_item_are_ignored_and_noted() {
        let instance = one(b"a b | c\nc\na\n| comment\nc\nb c\n");
        assert_eq!(instance.ignored, [2, 5]);
        assert_eq!(instance.problem.option_count(), 2);
        assert_eq!(instance.option_label(1), "b c");
    }

    #[test]
    fn knuth_errors_name_their_line() {
        let all = read(b"a b\na\n| comment\na z\nb\n", None);
        assert_eq!(all.len(), 1, "one problem per file: nothing after an error");
        let e = parse_error(&all[0]);
        assert_eq!(e.line, 4);
        assert!(matches!(
            &e.kind,
            ParseErrorKind::Problem(ProblemError::UnknownName { name, .. }) if name == "z"
        ));
        let e = parse_error(&read(b"a b\na a\n", None)[0]).clone();
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::DuplicateItem { .. })
        ));
        let e = parse_error(&read(b"a b | c | d\n", None)[0]).clone();
        assert_eq!((e.line, e.kind), (1, ParseErrorKind::TwoBars));
        let e = parse_error(&read(b"a b a\na\n", None)[0]).clone();
        assert_eq!(e.line, 1);
        assert!(matches!(
            e.kind,
            ParseErrorKind::Problem(ProblemError::DuplicateName { .. })
        ));
    }

    #[test]
    fn read_errors_end_the_input() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let mut instances = Instances::new(io::BufReader::new(Failing), None);
        assert!(matches!(instances.next(), Some(Err(InputError::Io(_)))));
        assert!(instances.next().is_none());
    }
}
