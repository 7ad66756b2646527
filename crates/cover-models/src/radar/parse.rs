//! The input of the radar problem and the radius as printed.
//!
//! The number of cases T, alone on its line, then for each case `N M K`,
//! N city coordinates and M station coordinates: integers, any white space
//! between them (the line breaks of the contest format are not required
//! there). T alone: an input without it would read its first case's
//! numbers as T and cases, and answer cases it does not hold; an input
//! without T (empty, or blank lines) is an error, as its header is missing.
//! Coordinates
//! must lie within ±[`MAX_COORDINATE`]; N and M have no limit but what
//! follows in the input, and N × M at most [`MAX_PAIRS`]. [`Cases`] reads
//! one case at a time and never allocates from a count the input promises.
//! A bad number is its case's error and the next case is read; a line that
//! cannot be read (too long, not UTF-8) loses its words, so where the next
//! case starts is unknown: it ends the input with one fatal error.
//! [`format_radius`] writes a squared radius's root correctly rounded to 6
//! decimals, by integer arithmetic. It knows nothing of the search.

use std::fmt;
use std::io::{self, BufRead};

use thiserror::Error;

use crate::text::{self, excerpt, LineFault, LineReader};

/// The largest absolute value of a coordinate. Squared distances then stay
/// below 8·10¹⁸ and fit in a `u64`.
pub const MAX_COORDINATE: i64 = 1_000_000_000;

/// The most city–station pairs (N × M) a case may have: 2²², as 2048
/// cities and 2048 stations. Each probe builds the coverage of every pair,
/// so memory and time grow with it (about 12 bytes a pair per probe at
/// once); the contest's cases have at most 2,500.
pub const MAX_PAIRS: u64 = 1 << 22;

/// A point with integer coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point {
    /// The x coordinate.
    pub x: i64,
    /// The y coordinate.
    pub y: i64,
}

impl Point {
    /// The squared distance to `other`. Exact for coordinates within
    /// ±[`MAX_COORDINATE`].
    pub fn squared_distance(self, other: Point) -> u64 {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        dx * dx + dy * dy
    }
}

/// One case: cities, stations, and how many stations may be operated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RadarCase {
    /// The cities, in input order.
    pub cities: Vec<Point>,
    /// The stations, in input order.
    pub stations: Vec<Point>,
    /// K, the most stations that may be operated (at least 1).
    pub operators: u64,
    /// The line of the case's header `N M K`.
    pub line: usize,
}

/// What is wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The line cannot be read as text (not UTF-8, too long, binary).
    #[error("{0}")]
    Line(LineFault),
    /// A count (T, N, M or K) that is not a whole number.
    #[error("{what} must be a whole number, found {found:?}")]
    BadCount {
        /// Which count.
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// A negative count.
    #[error("{what} must not be negative, found {found}")]
    NegativeCount {
        /// Which count.
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// K = 0.
    #[error("K (stations that may be operated) must be at least 1, found 0")]
    NoOperators,
    /// N × M above [`MAX_PAIRS`].
    #[error(
        "{cities} cities and {stations} stations make more than {max} city–station pairs, \
         the most a case may have",
        max = MAX_PAIRS
    )]
    TooManyPairs {
        /// N.
        cities: u64,
        /// M.
        stations: u64,
    },
    /// A coordinate that is not an integer.
    #[error("a coordinate must be an integer, found {0:?}")]
    BadCoordinate(String),
    /// A coordinate beyond ±10⁹.
    #[error("coordinate {0} is out of range (at most {max} in absolute value)", max = MAX_COORDINATE)]
    CoordinateRange(String),
    /// The input ended inside a case.
    #[error(
        "the case promises {cities} cities and {stations} stations ({expected} numbers) \
         but the input ends after {found} of them"
    )]
    Truncated {
        /// N.
        cities: u64,
        /// M.
        stations: u64,
        /// The numbers the case needs.
        expected: u64,
        /// The numbers found.
        found: u64,
    },
    /// The input ended before the cases T promised.
    #[error("the input promises {expected} cases but only {found} follow")]
    MissingCases {
        /// T.
        expected: u64,
        /// Cases found.
        found: u64,
    },
    /// More than T on the first line: the case count is likely missing.
    #[error(
        "the first line must hold T, the number of cases, alone; found {0:?}, \
         which looks like a case's `N M K`: is the line with T missing?"
    )]
    CountNotAlone(String),
    /// An input without T: empty, or only blank lines.
    #[error(
        "the input has no T: it must start with T, the number of cases, alone on its \
         line (0 for none)"
    )]
    NoCount,
    /// Text after the last case T promised.
    #[error("unexpected {0:?} after the last case (the input promises {1})")]
    TrailingText(String, u64),
}

/// A bad input, with the line where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// Whether the reader gave up on the rest of the input (after an error
    /// that leaves it unable to tell where the next case starts).
    pub fatal: bool,
}

/// Why a case could not be read. Unless a parse error is fatal, the
/// reader goes on with the next case.
pub type InputError = text::InputError<ParseError>;

impl From<ParseError> for InputError {
    fn from(error: ParseError) -> InputError {
        InputError::Parse(error)
    }
}

/// One white-space separated word of the input and its line.
struct Token {
    line: usize,
    /// The word, or why its line cannot be read.
    text: Result<String, LineFault>,
}

/// Splits lines into words, keeping line numbers.
struct Tokens<R> {
    lines: LineReader<R>,
    /// The current line, and how far its words were taken: a word is
    /// copied out only when it is taken, so a line of a million numbers
    /// is held once.
    current: String,
    taken: usize,
    line: usize,
}

impl<R: BufRead> Tokens<R> {
    fn next(&mut self) -> io::Result<Option<Token>> {
        loop {
            let rest = &self.current[self.taken..];
            let start = rest.len() - rest.trim_start().len();
            if start < rest.len() {
                let word = rest[start..].split_whitespace().next().unwrap_or("");
                self.taken += start + word.len();
                return Ok(Some(Token {
                    line: self.line,
                    text: Ok(word.to_owned()),
                }));
            }
            let Some(line) = self.lines.next_line()? else {
                return Ok(None);
            };
            self.line = line.number;
            self.taken = 0;
            match line.text {
                Err(fault) => {
                    self.current.clear();
                    return Ok(Some(Token {
                        line: line.number,
                        text: Err(fault),
                    }));
                }
                Ok(text) => self.current = text,
            }
        }
    }
}

/// Reads radar cases one at a time; see the module documentation.
pub struct Cases<R> {
    tokens: Tokens<R>,
    /// T, once read.
    expected: Option<u64>,
    /// The line of T.
    header_line: usize,
    /// Cases read so far.
    read: u64,
    done: bool,
}

impl<R: BufRead> Cases<R> {
    /// Reads cases from `reader`.
    pub fn new(reader: R) -> Self {
        Cases::from_lines(LineReader::new(reader))
    }

    /// Reads the lines of `lines` (a [`LineReader`] with limits of its
    /// own, say) as [`Cases::new`] does.
    pub fn from_lines(lines: LineReader<R>) -> Self {
        Cases {
            tokens: Tokens {
                lines,
                current: String::new(),
                taken: 0,
                line: 0,
            },
            expected: None,
            header_line: 0,
            read: 0,
            done: false,
        }
    }

    /// Reads one count, a non-negative integer.
    fn count(token: &Token, what: &'static str) -> Result<u64, ParseErrorKind> {
        let text = match &token.text {
            Ok(text) => text,
            Err(fault) => return Err(ParseErrorKind::Line(*fault)),
        };
        match text.parse::<u64>() {
            Ok(value) => Ok(value),
            Err(_) if text.starts_with('-') && text[1..].parse::<u64>().is_ok() => {
                Err(ParseErrorKind::NegativeCount {
                    what,
                    found: excerpt(text),
                })
            }
            Err(_) => Err(ParseErrorKind::BadCount {
                what,
                found: excerpt(text),
            }),
        }
    }

    fn coordinate(token: &Token) -> Result<i64, ParseErrorKind> {
        let text = match &token.text {
            Ok(text) => text,
            Err(fault) => return Err(ParseErrorKind::Line(*fault)),
        };
        match text.parse::<i64>() {
            Ok(value) if value.unsigned_abs() <= MAX_COORDINATE.unsigned_abs() => Ok(value),
            Ok(_) => Err(ParseErrorKind::CoordinateRange(excerpt(text))),
            // A long run of digits is a number, just too large.
            Err(_)
                if text
                    .trim_start_matches(['-', '+'])
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    && text.len() > 1 =>
            {
                Err(ParseErrorKind::CoordinateRange(excerpt(text)))
            }
            Err(_) => Err(ParseErrorKind::BadCoordinate(excerpt(text))),
        }
    }

    /// Ends the input on an I/O error.
    fn stop(&mut self, error: io::Error) -> Option<Result<RadarCase, InputError>> {
        self.done = true;
        Some(Err(error.into()))
    }

    /// Ends the input with a fatal error.
    fn fatal(
        &mut self,
        line: usize,
        kind: ParseErrorKind,
    ) -> Option<Result<RadarCase, InputError>> {
        self.done = true;
        Some(Err(ParseError {
            line,
            kind,
            fatal: true,
        }
        .into()))
    }

    fn read_case(&mut self) -> Option<Result<RadarCase, InputError>> {
        let expected = self.expected.expect("T was read");
        // The header N M K.
        let mut header = Vec::with_capacity(3);
        while header.len() < 3 {
            match self.tokens.next() {
                Err(e) => return self.stop(e),
                Ok(Some(token)) => header.push(token),
                Ok(None) if header.is_empty() => {
                    let line = self.header_line;
                    let found = self.read;
                    return self.fatal(line, ParseErrorKind::MissingCases { expected, found });
                }
                Ok(None) => {
                    let line = header[0].line;
                    return self.fatal(
                        line,
                        ParseErrorKind::Truncated {
                            cities: 0,
                            stations: 0,
                            expected: 3,
                            found: header.len() as u64,
                        },
                    );
                }
            }
        }
        self.read += 1;
        let line = header[0].line;
        // Without N and M, where the case ends is unknown.
        let cities = match Self::count(&header[0], "N (cities)") {
            Ok(n) => n,
            Err(kind) => return self.fatal(header[0].line, kind),
        };
        let stations = match Self::count(&header[1], "M (stations)") {
            Ok(m) => m,
            Err(kind) => return self.fatal(header[1].line, kind),
        };
        let mut first_error: Option<ParseError> = None;
        let operators = match Self::count(&header[2], "K (stations that may be operated)") {
            // Its other words (if any) were lost with the line.
            Err(ParseErrorKind::Line(fault)) => {
                return self.fatal(header[2].line, ParseErrorKind::Line(fault));
            }
            Ok(0) => {
                first_error = Some(ParseError {
                    line: header[2].line,
                    kind: ParseErrorKind::NoOperators,
                    fatal: false,
                });
                0
            }
            Ok(k) => k,
            Err(kind) => {
                first_error = Some(ParseError {
                    line: header[2].line,
                    kind,
                    fatal: false,
                });
                0
            }
        };
        // Every probe weighs each city–station pair: beyond a bound, the
        // case would take more memory and time than any input so small
        // should. Its points are still read (without keeping them), so
        // that the next case is found.
        if first_error.is_none() && cities.saturating_mul(stations) > MAX_PAIRS {
            first_error = Some(ParseError {
                line,
                kind: ParseErrorKind::TooManyPairs { cities, stations },
                fatal: false,
            });
        }
        // The points, read one by one: the counts are never used to
        // allocate, only to know where the case ends.
        let numbers = cities.saturating_add(stations).saturating_mul(2);
        let mut points: Vec<Point> = Vec::new();
        let mut x = 0;
        let mut found = 0u64;
        while found < numbers {
            let token = match self.tokens.next() {
                Err(e) => return self.stop(e),
                Ok(Some(token)) => token,
                Ok(None) => {
                    // An error earlier in the case comes first.
                    if let Some(error) = first_error {
                        self.done = true;
                        return Some(Err(error.into()));
                    }
                    return self.fatal(
                        line,
                        ParseErrorKind::Truncated {
                            cities,
                            stations,
                            expected: numbers,
                            found,
                        },
                    );
                }
            };
            match Self::coordinate(&token) {
                // Words were lost with the line (one not UTF-8 may have
                // held several): where the next case starts is unknown.
                Err(ParseErrorKind::Line(fault)) => {
                    return self.fatal(token.line, ParseErrorKind::Line(fault));
                }
                Ok(value) if found.is_multiple_of(2) => x = value,
                Ok(y) => {
                    if first_error.is_none() {
                        points.push(Point { x, y });
                    }
                }
                Err(kind) => {
                    if first_error.is_none() {
                        first_error = Some(ParseError {
                            line: token.line,
                            kind,
                            fatal: false,
                        });
                        // The points are no longer needed.
                        points = Vec::new();
                    }
                }
            }
            found += 1;
        }
        if let Some(error) = first_error {
            return Some(Err(error.into()));
        }
        let stations_at = cities as usize;
        let station_points = points.split_off(stations_at);
        Some(Ok(RadarCase {
            cities: points,
            stations: station_points,
            operators,
            line,
        }))
    }
}

impl<R: BufRead> Iterator for Cases<R> {
    type Item = Result<RadarCase, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let expected = match self.expected {
            Some(t) => t,
            None => {
                let token = match self.tokens.next() {
                    Err(e) => return self.stop(e),
                    // T is the format's header: without it there is no
                    // input, which is an error as in any header format.
                    Ok(None) => {
                        let line = self.tokens.line.max(1);
                        return self.fatal(line, ParseErrorKind::NoCount);
                    }
                    Ok(Some(token)) => token,
                };
                self.header_line = token.line;
                let rest = self.tokens.current[self.tokens.taken..].trim();
                if token.text.is_ok() && !rest.is_empty() {
                    let line = format!("{} {rest}", token.text.as_deref().unwrap_or(""));
                    return self.fatal(token.line, ParseErrorKind::CountNotAlone(excerpt(&line)));
                }
                match Self::count(&token, "T (the number of cases)") {
                    Ok(t) => {
                        self.expected = Some(t);
                        t
                    }
                    Err(kind) => return self.fatal(token.line, kind),
                }
            }
        };
        if self.read < expected {
            return self.read_case();
        }
        // All promised cases read: anything more is an error.
        self.done = true;
        match self.tokens.next() {
            Err(e) => Some(Err(e.into())),
            Ok(None) => None,
            Ok(Some(token)) => Some(Err(ParseError {
                line: token.line,
                kind: ParseErrorKind::TrailingText(
                    token.text.map_or_else(
                        |fault| match fault {
                            LineFault::NotUtf8 => "bytes that are not UTF-8".into(),
                            _ => "a line that cannot be read".into(),
                        },
                        |text| excerpt(&text),
                    ),
                    expected,
                ),
                fatal: true,
            }
            .into())),
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Formats the square root of `squared` rounded to 6 decimals, exactly
/// (integer arithmetic; a half-way case cannot occur).
pub fn format_radius(squared: u64) -> String {
    // sqrt(squared) · 10⁶ = sqrt(squared · 10¹²), which fits in a u128.
    let scaled = u128::from(squared) * 1_000_000_000_000;
    let root = isqrt(scaled);
    // Round to nearest: up when scaled > (root + ½)², i.e. scaled - root²
    // > root (both sides integers, so never equal to root + ¼).
    let micros = if scaled - root * root > root {
        root + 1
    } else {
        root
    };
    format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000)
}

/// The integer square root: the largest `r` with `r² <= n`.
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // A floating-point estimate, then exact correction.
    let mut r = (n as f64).sqrt() as u128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// The readers the other tests of the radar problem share.
#[cfg(test)]
pub(super) use tests::{parse_error, read};

#[cfg(test)]
mod tests {
    use super::*;

    pub(in crate::radar) fn read(input: &str) -> Vec<Result<RadarCase, InputError>> {
        Cases::new(input.as_bytes()).collect()
    }

    pub(in crate::radar) fn parse_error(result: &Result<RadarCase, InputError>) -> &ParseError {
        match result {
            Err(InputError::Parse(e)) => e,
            Err(InputError::Io(e)) => panic!("expected a parse error, got I/O error {e}"),
            Ok(case) => panic!("expected a parse error, got a case at line {}", case.line),
        }
    }

    #[test]
    fn radii_are_rounded_exactly() {
        assert_eq!(format_radius(0), "0.000000");
        assert_eq!(format_radius(1), "1.000000");
        assert_eq!(format_radius(2), "1.414214");
        assert_eq!(format_radius(5), "2.236068");
        assert_eq!(format_radius(1_000_000), "1000.000000");
        assert_eq!(format_radius(2_000_000), "1414.213562");
        // The largest squared distance: (2·10⁹)² · 2.
        assert_eq!(
            format_radius(8_000_000_000_000_000_000),
            "2828427124.746190"
        );
        // sqrt(3) = 1.7320508075..., sqrt(10) = 3.16227766016...
        assert_eq!(format_radius(3), "1.732051");
        assert_eq!(format_radius(10), "3.162278");
        for n in [
            0u128,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            1 << 100,
            u128::from(u64::MAX) * 1_000_000,
        ] {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "isqrt({n})");
        }
    }

    #[test]
    fn a_missing_case_count_is_an_error_not_an_answer() {
        // HDU 2295's sample without its first line: `3 3 2` would be T = 3
        // and a case `3 2 3` of the next lines' numbers.
        let cases = read("3 3 2\n3 4\n3 1\n5 4\n1 1\n2 2\n3 3\n");
        assert_eq!(cases.len(), 1);
        let error = parse_error(&cases[0]);
        assert_eq!(error.line, 1);
        assert!(error.fatal);
        assert!(matches!(&error.kind, ParseErrorKind::CountNotAlone(line) if line == "3 3 2"));
        // T alone, the rest free of line breaks, as before.
        let cases = read("1\n1 1 1 0 0 3 4\n");
        assert_eq!(cases.len(), 1);
        assert_eq!(
            format_radius(
                cases[0].as_ref().unwrap().cities[0].squared_distance(Point { x: 3, y: 4 })
            ),
            "5.000000"
        );
    }

    #[test]
    fn an_input_without_t_is_an_error_and_t_0_has_no_cases() {
        for (text, line) in [("", 1), ("\n  \n", 2)] {
            let cases = read(text);
            assert_eq!(cases.len(), 1, "{text:?}");
            let error = parse_error(&cases[0]);
            assert_eq!((error.line, &error.kind), (line, &ParseErrorKind::NoCount));
            assert!(error.fatal);
        }
        assert!(read("0\n").is_empty());
    }

    #[test]
    fn the_most_negative_number_is_out_of_range_not_a_panic() {
        let cases = read("1\n1 1 1\n-9223372036854775808 0\n0 0\n");
        assert!(matches!(
            parse_error(&cases[0]).kind,
            ParseErrorKind::CoordinateRange(_)
        ));
    }

    #[test]
    fn bad_points_are_reported_and_the_next_case_is_read() {
        let input = "3\n1 1 1\n0 x\n5 5\n1 1 1\n0 0\n2000000000 0\n1 1 1\n0 0\n3 4\n";
        let cases = read(input);
        assert_eq!(cases.len(), 3);
        let e = parse_error(&cases[0]);
        assert_eq!((e.line, e.fatal), (3, false));
        assert_eq!(e.kind, ParseErrorKind::BadCoordinate("x".into()));
        let e = parse_error(&cases[1]);
        assert_eq!(e.line, 7);
        assert_eq!(e.kind, ParseErrorKind::CoordinateRange("2000000000".into()));
        assert_eq!(cases[2].as_ref().unwrap().line, 8);
    }

    #[test]
    fn bad_counts() {
        // K = 0 and a negative K: the case is skipped, the next one read.
        let cases = read("3\n1 1 0\n0 0\n1 1\n1 1 -2\n0 0 1 1\n1 1 1\n0 0 1 1\n");
        assert_eq!(cases.len(), 3);
        assert_eq!(parse_error(&cases[0]).kind, ParseErrorKind::NoOperators);
        assert_eq!(parse_error(&cases[0]).line, 2);
        assert!(matches!(
            parse_error(&cases[1]).kind,
            ParseErrorKind::NegativeCount { .. }
        ));
        assert!(cases[2].is_ok());
        // A negative or non-numeric N or M: the rest cannot be found.
        for input in ["2\n-1 1 1\n0 0\n1 1 1\n0 0 1 1\n", "2\n1 z 1\n0 0\n"] {
            let cases = read(input);
            assert_eq!(cases.len(), 1, "{input:?}");
            let e = parse_error(&cases[0]);
            assert_eq!((e.line, e.fatal), (2, true));
        }
        let cases = read("many\n1 1 1\n0 0 0 0\n");
        assert_eq!(cases.len(), 1);
        assert!(matches!(
            parse_error(&cases[0]).kind,
            ParseErrorKind::BadCount { .. }
        ));
    }

    #[test]
    fn promises_the_input_does_not_keep() {
        // More cases promised than follow.
        let cases = read("3\n1 1 1\n0 0\n0 0\n");
        assert_eq!(cases.len(), 2);
        assert!(cases[0].is_ok());
        let missing = ParseErrorKind::MissingCases {
            expected: 3,
            found: 1,
        };
        assert_eq!(
            *parse_error(&cases[1]),
            ParseError {
                line: 1,
                kind: missing,
                fatal: true
            }
        );
        // More points promised than follow: a billion cities allocate
        // nothing for them. (With a station, the pairs would be too many:
        // that error would come first.)
        let cases = read("1\n1000000000 0 1\n0 0\n1 1\n");
        assert_eq!(cases.len(), 1);
        let e = parse_error(&cases[0]);
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            ParseErrorKind::Truncated {
                cities: 1_000_000_000,
                found: 4,
                ..
            }
        ));
        // Text after the last case.
        let cases = read("1\n1 1 1\n0 0\n0 0\n7\n");
        assert_eq!(cases.len(), 2);
        assert_eq!(parse_error(&cases[1]).line, 5);
        // A non-UTF-8 line: its words are lost, so where the next case
        // starts is unknown (here it held two numbers, not one), and
        // nothing after it is read.
        let input = b"2\n1 1 1\n0 0\n\xFF3 4\n1 1 1\n0 0\n3 4\n";
        let cases: Vec<_> = Cases::new(&input[..]).collect();
        assert_eq!(cases.len(), 1);
        let e = parse_error(&cases[0]);
        assert_eq!((e.line, e.fatal), (4, true));
        assert_eq!(e.kind, ParseErrorKind::Line(LineFault::NotUtf8));
    }
}
