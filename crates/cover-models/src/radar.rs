//! The radar problem (HDU 2295): the smallest radius R with which at most K
//! of M stations cover all N cities, exactly.
//!
//! ## Input
//! The number of cases T, then for each case `N M K`, N city coordinates
//! and M station coordinates: integers, any white space between them
//! (the line breaks of the contest format are not required). Coordinates
//! must lie within ±[`MAX_COORDINATE`]; N and M have no limit but what
//! follows in the input, and N × M at most [`MAX_PAIRS`]. [`Cases`] reads
//! one case at a time and never allocates from a count the input promises.
//!
//! ## Why the answer is exact
//! A city is covered when its squared distance to an operated station is
//! at most R². Coverage changes only at the squared distances of
//! city–station pairs, so the smallest R is the square root of one of
//! them, and whether K stations suffice is monotone in R. [`solve`]
//! therefore searches over those integers (no floating point), asking a
//! repeat-cover question per candidate ("do at most K stations cover every
//! city?", [`dlx_core::RepeatSolver::at_most`]): a *probe*.
//!
//! ## The search over candidates
//! - Lower end: every city needs its nearest station, so R² is at least
//!   the largest of the cities' nearest squared distances; when K stations
//!   reach all those nearest stations, that is the answer.
//! - Upper end: farthest-first (pick the station that best serves all
//!   cities, then repeatedly the station nearest to the worst-served city)
//!   gives K stations and their radius.
//! - Rounds: the distinct candidates strictly between the ends are split
//!   evenly by `width` probes. The caller runs a round's [`Probe`]s, in
//!   parallel if it likes (the model itself never starts threads); a probe
//!   that finishes cancels the others it makes useless (a covered probe
//!   those above it, an uncovered one those below). A cover found at a
//!   probe also lowers the upper end to the radius that cover really
//!   needs, which is often below the probe.
//!
//! The answer's radius is printed with [`format_radius`]: the square root
//! correctly rounded to 6 decimals, by integer arithmetic.

use std::fmt;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dlx_core::{Limits, Outcome, Problem, RepeatSolver, Stats};
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

/// Above this many city–station pairs between the ends of the search, the
/// candidates of a round are a sample of them rather than all of them (so
/// memory stays bounded however large the case).
const MAX_LISTED_CANDIDATES: u64 = 1 << 22;

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
                Err(e) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
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
            Err(ParseErrorKind::Line(fault)) if fault != LineFault::NotUtf8 => {
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
                Err(e) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
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
                // Words were lost with the line: where the next case
                // starts is unknown.
                Err(ParseErrorKind::Line(fault)) if fault != LineFault::NotUtf8 => {
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
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e.into()));
                    }
                    Ok(None) => {
                        self.done = true;
                        return None;
                    }
                    Ok(Some(token)) => token,
                };
                self.header_line = token.line;
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

// ---------------------------------------------------------------------------
// Solving.

/// Why a case has no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NoAnswer {
    /// Cities but no station: no radius covers them.
    #[error("{0} cities and no station: no radius covers them")]
    NoStations(usize),
    /// Every probe of a round was cancelled from outside (see
    /// [`Probe::cancel`]), so the search stopped unfinished.
    #[error("the search was stopped before the answer was proven")]
    Stopped,
    /// The probes spent the node budget before the answer was decided.
    #[error("the probes reached the node budget of {budget} before the answer was decided")]
    GaveUp {
        /// The budget of each probe, in search nodes.
        budget: u64,
        /// The search counters of the probes made.
        stats: Stats,
    },
}

/// The answer to one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RadarAnswer {
    /// R², the smallest squared radius with which at most K stations cover
    /// every city.
    pub squared_radius: u64,
    /// Stations (0-based, ascending) that cover every city within R: at
    /// most K of them.
    pub stations: Vec<usize>,
    /// The candidate radii probed (repeat-cover questions asked), the
    /// cancelled ones included.
    pub probes: u64,
    /// The probes cancelled because another probe of their round made them
    /// useless.
    pub cancelled: u64,
    /// The rounds of probes.
    pub rounds: u64,
    /// The search counters of all probes together.
    pub stats: Stats,
}

/// What one probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// These stations (0-based, ascending, at most K) cover every city.
    Covered(Vec<usize>),
    /// No K stations cover every city.
    NotCovered,
    /// Another probe of the round made this one useless first.
    Cancelled,
    /// The probe spent its node budget undecided.
    GaveUp,
}

/// A probe's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeResult {
    /// The squared radius probed.
    pub squared_radius: u64,
    /// What it found.
    pub verdict: Verdict,
    /// Its search counters.
    pub stats: Stats,
}

/// One candidate squared radius to decide; [`Probe::run`] decides it. The
/// probes of a round may run on any threads, in any order.
pub struct Probe<'a> {
    case: &'a RadarCase,
    /// The squared radius probed.
    pub squared_radius: u64,
    /// This probe's place in the round (the round is in ascending order).
    index: usize,
    /// Every probe's cancel flag, in round order.
    flags: &'a [Arc<AtomicBool>],
    /// The most search nodes the probe may take.
    node_budget: Option<u64>,
}

impl Probe<'_> {
    /// Asks this probe to stop (or not to start). A caller that wants to
    /// give up on a case cancels every probe of the round; [`solve`] then
    /// ends with [`NoAnswer::Stopped`].
    pub fn cancel(&self) {
        self.flags[self.index].store(true, Ordering::Relaxed);
    }

    /// Decides whether at most K stations cover every city within the
    /// probe's squared radius; on finishing, cancels the probes of the
    /// round that the answer makes useless.
    pub fn run(&self) -> ProbeResult {
        let cancel = Arc::clone(&self.flags[self.index]);
        if cancel.load(Ordering::Relaxed) {
            return ProbeResult {
                squared_radius: self.squared_radius,
                verdict: Verdict::Cancelled,
                stats: Stats::default(),
            };
        }
        let limits = Limits {
            cancel: Some(cancel),
            node_budget: self.node_budget,
            ..Limits::none()
        };
        let (verdict, stats) = decide(self.case, self.squared_radius, &limits);
        match verdict {
            // Covered here: every probe above is covered too.
            Verdict::Covered(_) => {
                for flag in &self.flags[self.index + 1..] {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            // Not covered here: every probe below is not covered either.
            Verdict::NotCovered => {
                for flag in &self.flags[..self.index] {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            Verdict::Cancelled | Verdict::GaveUp => {}
        }
        ProbeResult {
            squared_radius: self.squared_radius,
            verdict,
            stats,
        }
    }
}

/// Decides whether at most K stations cover every city within
/// `squared_radius`, as a repeat cover: cities are items, each station an
/// option covering the cities within reach.
pub fn decide(case: &RadarCase, squared_radius: u64, limits: &Limits) -> (Verdict, Stats) {
    let mut builder = Problem::builder(case.cities.len(), 0);
    let mut station_of_option = Vec::new();
    let mut reach = Vec::new();
    for (s, &station) in case.stations.iter().enumerate() {
        reach.clear();
        for (c, &city) in case.cities.iter().enumerate() {
            if city.squared_distance(station) <= squared_radius {
                reach.push(c);
            }
        }
        if !reach.is_empty() {
            builder
                .add_option(reach.iter().copied())
                .expect("cities are distinct items in range");
            station_of_option.push(s);
        }
    }
    let solver = RepeatSolver::new(&builder.build());
    let k = usize::try_from(case.operators).unwrap_or(usize::MAX);
    let report = solver.at_most(k, limits);
    let verdict = match (report.cover, report.outcome) {
        (Some(cover), _) => {
            let mut stations: Vec<usize> = cover.iter().map(|&o| station_of_option[o]).collect();
            stations.sort_unstable();
            Verdict::Covered(stations)
        }
        (None, Outcome::Exhausted) => Verdict::NotCovered,
        (None, Outcome::NodeBudget) => Verdict::GaveUp,
        (None, _) => Verdict::Cancelled,
    };
    (verdict, report.stats)
}

/// The squared radius `stations` need to cover every city: the largest,
/// over cities, of the squared distance to the nearest of them.
pub fn squared_radius_of(case: &RadarCase, stations: &[usize]) -> u64 {
    case.cities
        .iter()
        .map(|&city| {
            stations
                .iter()
                .map(|&s| city.squared_distance(case.stations[s]))
                .min()
                .unwrap_or(u64::MAX)
        })
        .max()
        .unwrap_or(0)
}

/// Solves `case`. Each round's probes (at most `width` of them, at least
/// one) are handed to `run_round`, which must return their results in the
/// same order; it may run them in parallel.
pub fn solve<F>(case: &RadarCase, width: usize, run_round: F) -> Result<RadarAnswer, NoAnswer>
where
    F: FnMut(&[Probe<'_>]) -> Vec<ProbeResult>,
{
    solve_within(case, width, None, run_round)
}

/// [`solve`], giving up once the probes have taken `node_budget` search
/// nodes in all: each probe of a round may take what the rounds before
/// left, and one that spends it undecided ends the search with
/// [`NoAnswer::GaveUp`], unless the other probes of its round made it
/// useless. (So a case takes at most `width` times the budget; which
/// candidates are probed depends on `width`, so whether a case gives up
/// may too.)
pub fn solve_within<F>(
    case: &RadarCase,
    width: usize,
    node_budget: Option<u64>,
    mut run_round: F,
) -> Result<RadarAnswer, NoAnswer>
where
    F: FnMut(&[Probe<'_>]) -> Vec<ProbeResult>,
{
    let mut answer = RadarAnswer {
        squared_radius: 0,
        stations: Vec::new(),
        probes: 0,
        cancelled: 0,
        rounds: 0,
        stats: Stats::default(),
    };
    if case.cities.is_empty() {
        return Ok(answer);
    }
    if case.stations.is_empty() {
        return Err(NoAnswer::NoStations(case.cities.len()));
    }
    let k = usize::try_from(case.operators)
        .unwrap_or(usize::MAX)
        .clamp(1, case.stations.len());
    // The lower end: every city's nearest station.
    let mut nearest: Vec<usize> = case
        .cities
        .iter()
        .map(|&city| {
            (0..case.stations.len())
                .min_by_key(|&s| (city.squared_distance(case.stations[s]), s))
                .expect("there are stations")
        })
        .collect();
    let mut low = squared_radius_of(case, &nearest);
    nearest.sort_unstable();
    nearest.dedup();
    if nearest.len() <= k {
        answer.squared_radius = low;
        answer.stations = nearest;
        return Ok(answer);
    }
    // The upper end: farthest-first.
    let mut best = farthest_first(case, k);
    let mut high = squared_radius_of(case, &best);
    // Invariant: the answer lies in [low, high], and `best` reaches high.
    let width = width.max(1);
    // The distinct squared distances in [low, high], ascending, once there
    // are few enough of them to list.
    let mut listed: Option<Vec<u64>> = None;
    while low < high {
        if listed.is_none() {
            listed = list_candidates(case, low, high);
        }
        let sampled;
        let candidates: &[u64] = match &listed {
            Some(all) => {
                let from = all.partition_point(|&d| d < low);
                let to = all.partition_point(|&d| d < high);
                &all[from..to]
            }
            None => {
                sampled = sample_candidates(case, low, high);
                &sampled
            }
        };
        if candidates.is_empty() {
            break;
        }
        let left = node_budget.map(|budget| budget.saturating_sub(answer.stats.nodes));
        if left == Some(0) {
            return Err(NoAnswer::GaveUp {
                budget: node_budget.unwrap_or(u64::MAX),
                stats: answer.stats,
            });
        }
        let values = spread(candidates, width);
        let flags: Vec<Arc<AtomicBool>> = values
            .iter()
            .map(|_| Arc::new(AtomicBool::new(false)))
            .collect();
        let probes: Vec<Probe<'_>> = values
            .iter()
            .enumerate()
            .map(|(index, &squared_radius)| Probe {
                case,
                squared_radius,
                index,
                flags: &flags,
                node_budget: left,
            })
            .collect();
        let results = run_round(&probes);
        assert_eq!(results.len(), probes.len(), "one result per probe");
        answer.rounds += 1;
        if results.iter().all(|r| r.verdict == Verdict::Cancelled) {
            // Probes only cancel others when they finish: all cancelled
            // means the caller stopped the round.
            return Err(NoAnswer::Stopped);
        }
        // The probes that spent their budget: they matter only if the
        // answer may still lie at or above them and below `high`.
        let mut undecided = Vec::new();
        for result in results {
            answer.stats += result.stats;
            answer.probes += 1;
            match result.verdict {
                Verdict::Covered(stations) => {
                    let needed = squared_radius_of(case, &stations);
                    debug_assert!(needed <= result.squared_radius);
                    if needed < high {
                        high = needed;
                        best = stations;
                    }
                }
                Verdict::NotCovered => low = low.max(result.squared_radius + 1),
                Verdict::Cancelled => answer.cancelled += 1,
                Verdict::GaveUp => undecided.push(result.squared_radius),
            }
        }
        if undecided.iter().any(|&r| low <= r && r < high) {
            return Err(NoAnswer::GaveUp {
                budget: node_budget.unwrap_or(u64::MAX),
                stats: answer.stats,
            });
        }
    }
    answer.squared_radius = high;
    answer.stations = best;
    Ok(answer)
}

/// Solves `case` probing one candidate at a time, on this thread.
pub fn solve_serial(case: &RadarCase) -> Result<RadarAnswer, NoAnswer> {
    solve(case, 1, |probes| probes.iter().map(Probe::run).collect())
}

/// K stations by farthest-first: the station whose farthest city is
/// nearest, then repeatedly the station nearest to the city worst served
/// so far.
fn farthest_first(case: &RadarCase, k: usize) -> Vec<usize> {
    let first = (0..case.stations.len())
        .min_by_key(|&s| {
            let farthest = case
                .cities
                .iter()
                .map(|&c| c.squared_distance(case.stations[s]))
                .max()
                .unwrap_or(0);
            (farthest, s)
        })
        .expect("there are stations");
    let mut chosen = vec![first];
    let mut served: Vec<u64> = case
        .cities
        .iter()
        .map(|&c| c.squared_distance(case.stations[first]))
        .collect();
    while chosen.len() < k {
        let (worst, _) = served
            .iter()
            .enumerate()
            .max_by_key(|&(c, &d)| (d, std::cmp::Reverse(c)))
            .expect("there are cities");
        let city = case.cities[worst];
        let station = (0..case.stations.len())
            .min_by_key(|&s| (city.squared_distance(case.stations[s]), s))
            .expect("there are stations");
        if chosen.contains(&station) {
            // The worst-served city already has its nearest station: the
            // radius cannot get smaller by adding stations.
            break;
        }
        chosen.push(station);
        for (d, &c) in served.iter_mut().zip(&case.cities) {
            *d = (*d).min(c.squared_distance(case.stations[station]));
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The city–station pairs whose squared distance `d` has `low <= d < high`.
fn pairs_between(case: &RadarCase, low: u64, high: u64) -> impl Iterator<Item = u64> + '_ {
    case.cities.iter().flat_map(move |&c| {
        case.stations
            .iter()
            .map(move |&s| c.squared_distance(s))
            .filter(move |&d| low <= d && d < high)
    })
}

/// The distinct squared distances `d` of city–station pairs with
/// `low <= d < high`, ascending; `None` when there are more than
/// [`MAX_LISTED_CANDIDATES`] such pairs.
fn list_candidates(case: &RadarCase, low: u64, high: u64) -> Option<Vec<u64>> {
    let count = pairs_between(case, low, high).count() as u64;
    if count > MAX_LISTED_CANDIDATES {
        return None;
    }
    let mut values: Vec<u64> = pairs_between(case, low, high).collect();
    values.sort_unstable();
    values.dedup();
    Some(values)
}

/// An evenly spread sample of about [`MAX_LISTED_CANDIDATES`] of the
/// squared distances in `low..high`, ascending and distinct.
fn sample_candidates(case: &RadarCase, low: u64, high: u64) -> Vec<u64> {
    let count = pairs_between(case, low, high).count() as u64;
    let step = count.div_ceil(MAX_LISTED_CANDIDATES).max(1);
    let mut values: Vec<u64> = pairs_between(case, low, high)
        .step_by(step as usize)
        .collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// Up to `width` values of `sorted` that split it into equal parts.
fn spread(sorted: &[u64], width: usize) -> Vec<u64> {
    let n = sorted.len();
    let parts = width.min(n);
    let mut values: Vec<u64> = (1..=parts).map(|j| sorted[j * n / (parts + 1)]).collect();
    values.dedup();
    values
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

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn read(input: &str) -> Vec<Result<RadarCase, InputError>> {
        Cases::new(input.as_bytes()).collect()
    }

    fn parse_error(result: &Result<RadarCase, InputError>) -> &ParseError {
        match result {
            Err(InputError::Parse(e)) => e,
            Err(InputError::Io(e)) => panic!("expected a parse error, got I/O error {e}"),
            Ok(case) => panic!("expected a parse error, got a case at line {}", case.line),
        }
    }

    fn case(cities: &[(i64, i64)], stations: &[(i64, i64)], k: u64) -> RadarCase {
        let points = |list: &[(i64, i64)]| list.iter().map(|&(x, y)| Point { x, y }).collect();
        RadarCase {
            cities: points(cities),
            stations: points(stations),
            operators: k,
            line: 1,
        }
    }

    /// The smallest squared radius by trying every set of at most K
    /// stations at every candidate, with nothing shared with the solver
    /// but the input.
    fn brute_force(case: &RadarCase) -> Option<u64> {
        let m = case.stations.len();
        let mut best: Option<u64> = None;
        if case.cities.is_empty() {
            return Some(0);
        }
        for set in 1u32..1 << m {
            if set.count_ones() as u64 > case.operators {
                continue;
            }
            let need = case
                .cities
                .iter()
                .map(|c| {
                    (0..m)
                        .filter(|s| set >> s & 1 == 1)
                        .map(|s| {
                            let (dx, dy) = (c.x - case.stations[s].x, c.y - case.stations[s].y);
                            (dx * dx + dy * dy) as u64
                        })
                        .min()
                        .unwrap()
                })
                .max()
                .unwrap();
            best = Some(best.map_or(need, |b| b.min(need)));
        }
        best
    }

    #[test]
    fn the_hdu_sample() {
        let cases = read("1\n3 3 2\n3 4\n3 1\n5 4\n1 1\n2 2\n3 3\n");
        assert_eq!(cases.len(), 1);
        let case = cases[0].as_ref().unwrap();
        assert_eq!(case.line, 2);
        let answer = solve_serial(case).unwrap();
        assert_eq!(answer.squared_radius, 5);
        assert_eq!(format_radius(answer.squared_radius), "2.236068");
        assert!(answer.stations.len() <= 2);
        assert_eq!(squared_radius_of(case, &answer.stations), 5);
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
    fn points_may_be_spread_over_lines_in_any_way() {
        let cases = read("2 1 1 1\n0 0 3 4\n\n1 1\n1\n0 0\n0 0\n");
        assert_eq!(cases.len(), 2);
        let a = cases[0].as_ref().unwrap();
        assert_eq!(a.cities, [Point { x: 0, y: 0 }]);
        assert_eq!(a.stations, [Point { x: 3, y: 4 }]);
        assert_eq!(solve_serial(a).unwrap().squared_radius, 25);
        assert_eq!(cases[1].as_ref().unwrap().line, 4);
    }

    #[test]
    fn too_many_pairs_is_an_error_and_the_next_case_is_read() {
        // 2049 × 2048 pairs: one too many. The points are read, not kept.
        let mut input = String::from("2\n2049 2048 3\n");
        for k in 0..(2049 + 2048) {
            input.push_str(&format!("{k} {k}\n"));
        }
        input.push_str("1 1 1\n0 0\n3 4\n");
        let cases = read(&input);
        assert_eq!(cases.len(), 2);
        let e = parse_error(&cases[0]);
        assert_eq!(e.line, 2);
        assert_eq!(
            e.kind,
            ParseErrorKind::TooManyPairs {
                cities: 2049,
                stations: 2048
            }
        );
        assert!(!e.fatal);
        assert_eq!(
            solve_serial(cases[1].as_ref().unwrap())
                .unwrap()
                .squared_radius,
            25
        );
        // 2048 × 2048 is allowed.
        assert!(read("1\n2048 2048 1\n").iter().all(|c| !matches!(
            c,
            Err(InputError::Parse(ParseError {
                kind: ParseErrorKind::TooManyPairs { .. },
                ..
            }))
        )));
    }

    #[test]
    fn empty_input_has_no_cases() {
        assert!(read("").is_empty());
        assert!(read("\n  \n").is_empty());
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
        let e = parse_error(&cases[1]);
        assert_eq!(e.line, 1);
        assert_eq!(
            e.kind,
            ParseErrorKind::MissingCases {
                expected: 3,
                found: 1
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
        // A non-UTF-8 line.
        let cases: Vec<_> = Cases::new(&b"1\n1 1 1\n\xFF\n0 0 0\n"[..]).collect();
        assert_eq!(
            parse_error(&cases[0]).kind,
            ParseErrorKind::Line(LineFault::NotUtf8)
        );
    }

    #[test]
    fn no_cities_and_no_stations() {
        let answer = solve_serial(&case(&[], &[(1, 1)], 1)).unwrap();
        assert_eq!((answer.squared_radius, answer.stations.len()), (0, 0));
        let answer = solve_serial(&case(&[], &[], 1)).unwrap();
        assert_eq!(answer.squared_radius, 0);
        assert_eq!(
            solve_serial(&case(&[(0, 0)], &[], 3)),
            Err(NoAnswer::NoStations(1))
        );
    }

    #[test]
    fn edge_cases_by_hand() {
        // All points identical.
        let c = case(&[(7, 7), (7, 7)], &[(7, 7), (7, 7)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 0);
        // K at least M: every city to its nearest station.
        let c = case(&[(0, 0), (10, 0)], &[(1, 0), (8, 0)], 5);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 4);
        // Collinear: one station in the middle beats two at the ends.
        let c = case(&[(0, 0), (10, 0), (20, 0)], &[(0, 0), (10, 0), (20, 0)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 100);
        // Corners of the square.
        let corners = [(0, 0), (0, 1000), (1000, 0), (1000, 1000)];
        let c = case(&corners, &[(500, 500), (0, 0)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 500_000);
    }

    #[test]
    fn wide_rounds_find_the_same_answer() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 1001) as i64
        };
        let cities: Vec<(i64, i64)> = (0..30).map(|_| (next(), next())).collect();
        let stations: Vec<(i64, i64)> = (0..30).map(|_| (next(), next())).collect();
        let c = case(&cities, &stations, 5);
        let serial = solve_serial(&c).unwrap();
        for width in [2, 3, 7] {
            let wide = solve(&c, width, |probes| probes.iter().map(Probe::run).collect()).unwrap();
            assert_eq!(wide.squared_radius, serial.squared_radius);
            assert!(wide.stations.len() <= 5);
            assert_eq!(squared_radius_of(&c, &wide.stations), wide.squared_radius);
        }
    }

    fn random_case() -> impl Strategy<Value = RadarCase> {
        let point = (0i64..=12, 0i64..=12);
        (
            proptest::collection::vec(point.clone(), 0..=8),
            proptest::collection::vec(point, 1..=8),
            1u64..=9,
        )
            .prop_map(|(cities, stations, k)| case(&cities, &stations, k))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The answer equals the brute force's; the chosen stations (at
        /// most K) reach every city within it; and no K stations reach
        /// every city within the next smaller candidate.
        #[test]
        fn answers_agree_with_brute_force(c in random_case(), width in 1usize..=4) {
            let answer = solve(&c, width, |probes| probes.iter().map(Probe::run).collect()).unwrap();
            prop_assert_eq!(Some(answer.squared_radius), brute_force(&c));
            prop_assert!(answer.stations.len() as u64 <= c.operators);
            prop_assert!(answer.stations.windows(2).all(|w| w[0] < w[1]));
            let reach = c.cities.iter().all(|city| answer.stations.iter().any(|&s| {
                let (dx, dy) = (city.x - c.stations[s].x, city.y - c.stations[s].y);
                (dx * dx + dy * dy) as u64 <= answer.squared_radius
            }));
            prop_assert!(reach);
            let smaller = c.cities.iter().flat_map(|city| c.stations.iter().map(move |s| {
                let (dx, dy) = (city.x - s.x, city.y - s.y);
                (dx * dx + dy * dy) as u64
            })).filter(|&d| d < answer.squared_radius).max();
            if let Some(smaller) = smaller {
                let (verdict, _) = decide(&c, smaller, &Limits::none());
                prop_assert_eq!(verdict, Verdict::NotCovered);
                // Independently: no K stations reach every city within it.
                prop_assert!(brute_force(&c).unwrap() > smaller);
            }
        }
    }
}
