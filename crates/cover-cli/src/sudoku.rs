//! `cover sudoku`: sudoku of every n²×n² size, from files of many puzzles,
//! solved on all cores.
//!
//! Reading is [`cover_models::sudoku::Puzzles`]; the [`batch`] runner
//! reads it in chunks of up to [`CHUNK`] puzzles, so that memory stays
//! bounded however long the input, and answers each chunk in parallel,
//! [`GROUP`] puzzles per task, one [`Solver`] per thread (so models are
//! built once per size and thread), each group's answers formatted by the
//! worker into one string, printed in input order. A puzzle whose search
//! passes [`SPLIT_AFTER`] nodes is shared with the other threads, unless
//! `--max-nodes` bounds the searches (then one that reaches the bound
//! gives up, the same with any number of threads) or it propagates (by
//! default from 16×16: its branching learns as it goes, so it stays on
//! one thread and gives the same answer with any `--jobs`). With `--all`, a chunk
//! holds at most [`CHUNK`] solutions' worth of puzzles; without `--limit`
//! (or with one above [`CHUNK`]) one puzzle's output has no bound worth
//! holding, so puzzles are answered one at a time and solutions printed
//! as they are found.

use std::cell::RefCell;
use std::io::{self, BufRead};

use clap::{Args, ValueEnum};
use cover_models::generate::{Rater, Rating};
use cover_models::sudoku::logic::{self, End, Geometry};
use cover_models::sudoku::{
    Engine, InputError, Layout, Level, ParseError, Puzzle, Puzzles, Size, Solver, Symbols,
    SymbolsError,
};
use cover_models::text;
use dlx_core::{Limits, Outcome, Report, Stats};
use serde::Serialize;

use crate::batch::{self, At, Batch, Flush, Invalid, ReadInstances, Verdict, GAVE_UP};
use crate::common::{Common, Inputs, Mode as Search, Session, Solutions, TimeLimit};
use crate::output::{push_json, JsonObject, Out};
use crate::pipeline::ChunkSizes;

/// Puzzles read, solved and printed at a time, at most.
pub const CHUNK: usize = 4096;

/// The first chunk's size; each next one is twice the last, up to
/// [`CHUNK`]. Reading the first chunk is the only time the threads wait
/// for input: small, it lets them start at once.
const FIRST_CHUNK: usize = 64;

/// What stands on standard output in place of a puzzle that could not be
/// read.
pub const INVALID: &str = "invalid";

/// What stands in place of a solution when there is none.
pub const NO_SOLUTION: &str = "no solution";

const LONG_ABOUT: &str = "\
Solve sudoku of any size n²×n²: 4×4, 9×9, 16×16, 25×25, 36×36, 49×49, 64×64.

Layouts, detected from the first puzzle of each input:
  line   one puzzle per line, n⁴ cells row by row (81 for 9×9), as POJ 3074:
           4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
         Text after the puzzle and white space or `:` is ignored (so tdoku's
         `puzzle:count:solution` lines read). Cells may also be separated by
         spaces or commas.
  grid   n² lines of n² cells per puzzle, as POJ 3076; puzzles separated by
         blank lines. Cells may be separated by spaces, commas or `|` (then
         they may also be numbers 1..n², 0 for empty), and rule lines like
         `+-----+-----+` are skipped, so --pretty output reads back.
A line `end` ends the input; lines starting with `#` are comments; CRLF line
ends and a UTF-8 byte-order mark are accepted.

Symbols by default: 1-4 (4×4), 1-9 (9×9), A-P (16×16, as POJ 3076), A-Y (25×25),
0-9A-Z (36×36); 49×49 and 64×64 have none (write numbers, or give --symbols).
16×16 puzzles in 1-9A-G or 0-9A-F and 25×25 in 1-9A-P are told apart by their
characters and answered in their own set; of sets that give the same puzzle
relabelled (1-9A-F alone fits 1-9A-G and 0-9A-F), the set of the input's last
puzzle that fitted one set only, else A-P for letters alone and 1-9A-G for
digits. A `0` beside digits and letters up to F is a digit when the puzzle
also has `.` (or `-`, `_`) for empty cells; with nothing to tell whether it
is a digit or an empty cell (two different puzzles), the puzzle is an error
asking for --symbols. With --symbols, `0` is a digit when it is one of the
symbols, else an empty cell.
Separated cells are read as symbols when each is one symbol or empty marker,
else as numbers: a 36×36 grid of numbers whose givens are all below 10 reads
as symbols, where `0` is a digit, so mark its empty cells with `.` instead.
Empty cells: `.`, `-`, `_`, and `0` when 0 is not a symbol.

Givens that contradict each other are not an input error: that puzzle has no
solution.";

const AFTER_LONG_HELP: &str = "\
Output (text), in input order, in the layout and symbols of the input:
  default  the solution: a line for a line puzzle; for a grid, its rows and a
           blank line. `no solution` in its place when there is none.
  --count  the number of solutions, one line per puzzle (with --limit N:
           counting stops at N).
  --all    every solution (up to --limit), each as above, then a blank line
           ending the puzzle's solutions.
  --pretty grids with box lines, each followed by a blank line.
  --rate   the difficulty: `GRADE NODES` (easy, medium, hard or extreme, and
           the search nodes the classic engine needs to solve the puzzle and
           prove it unique; grades at 1.25, 4 and 12 nodes per cell, see
           `cover generate --help`); `not unique NODES` or `no solution`.
A puzzle that cannot be read is reported on standard error as
`cover: FILE:LINE: reason`, and `invalid` stands in its place on standard
output, so answers stay aligned with puzzles; the other puzzles are answered.
With --max-nodes N or --time-limit SECONDS, `gave up` stands in place of the
answer (the solution, `no solution` or the count; with --all, after the
solutions found) of a puzzle whose search reached N nodes, or ran SECONDS,
first. (--explain runs no search: neither bounds it.)

JSON (--json), one object per puzzle per line:
  index      the puzzle's number in its file, from 1
  file       the file name, or <stdin>
  line       the line where the puzzle starts (invalid: the line of the error)
  size       the side of the grid (9 for 9×9)
  status     \"solved\", \"no_solution\", \"invalid\", or \"gave_up\" (--max-nodes,
             --time-limit)
  solution   the first solution on one line, in the input's symbols
  solutions  with --all: every solution so written
  count      with --count: the number of solutions
  complete   with --count or --all: false when --limit, --max-nodes or
             --time-limit stopped the search (count and solutions are then
             those found so far)
  nodes      search nodes (with the triad engine, the default for 9×9: its
             guesses plus one; a long search is shared between the threads;
             then the nodes of all, which vary from run to run)
  grade      with --rate: the grade (only for puzzles with one solution)
  unique     with --rate: whether the puzzle has exactly one solution
  error      for invalid puzzles: what is wrong

Exit status: 0 every puzzle solved; 1 all input valid but some puzzle has no
solution (or gave up, with --max-nodes or --time-limit); 2 bad input, bad
usage or an I/O error.

Examples:
  cover sudoku puzzles.txt                   solve each puzzle
  cover sudoku --count --limit 2 puzzles.txt 1 for a proper puzzle, 2 if not
  cover sudoku --symbols 0123456789ABCDEF 16x16.txt
  cover sudoku --max-nodes 1000000 big.txt   never stuck on one puzzle
  cover sudoku --time-limit 0.5 big.txt      at most about half a second each
  cover sudoku --pretty --jobs 1 - < one.txt";

/// Solve sudoku puzzles of any n²×n² size, many per file, on all cores.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct SudokuArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    #[command(flatten)]
    pub solutions: Solutions,

    /// Rate each puzzle instead of printing its solution: its grade
    /// (easy, medium, hard, extreme) and the search nodes the classic
    /// engine needs to solve it and prove it unique.
    #[arg(long, conflicts_with_all = ["count", "all", "limit", "pretty"])]
    pub rate: bool,

    /// Give up on a puzzle after N search nodes.
    ///
    /// Its answer is then `gave up` (JSON status "gave_up"; with --all,
    /// after the solutions found by then; with --rate, when the rating's
    /// count needs more), and the exit status is 1. So a
    /// file of many puzzles is answered in bounded time whatever is in
    /// it. A bounded search stays on one thread, so whether it gives up
    /// does not depend on --jobs. The bound is checked as the search goes
    /// down a level; a solution it finds there adds a node, so a search
    /// may end (solved, or with more solutions) a few nodes past N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    /// Draw solutions as grids with box lines, for people.
    #[arg(long, conflicts_with_all = ["count", "json"])]
    pub pretty: bool,

    /// The symbols of the digits, in order, one character each (e.g.
    /// 123456789ABCDEFG); their number sets the size.
    ///
    /// `0` is a digit when it is one of them (0123456789ABCDEF: empty
    /// cells are `.`, `-` or `_`), else it marks an empty cell
    /// (123456789ABCDEFG).
    #[arg(long, value_name = "STR", value_parser = parse_symbols)]
    pub symbols: Option<Symbols>,

    /// The search engine.
    ///
    /// `auto` (the default): for 9×9 unless --propagate asks for basic or
    /// full reasoning `triad`, on AVX-512 or AVX2 where the processor has
    /// them (its answers are the same on every machine), or `band` on
    /// processors without AVX2, where it is faster; else `compact`. The
    /// fastest, measured by `cargo xtask bench bits`. `triad` and `band`
    /// are 9×9 engines; other sizes search with `compact`. `bits` is an old
    /// name of `triad`, `bands` of `band`, `dlx` of `linked`. Answers are
    /// the same with every engine (of a puzzle with several solutions the
    /// first found may differ); search nodes differ. So with `auto` those
    /// two may differ between processors with AVX2 and without; name an
    /// engine to have them the same everywhere.
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,

    /// How much reasoning between the search's choices.
    ///
    /// `--rate` always grades with the plain search, and `--explain`
    /// reasons on its own; neither depends on this.
    ///
    /// `basic`: naked and hidden singles, box-line interactions (pointing,
    /// claiming), naked and hidden pairs and triples. `full`: singles,
    /// box-line, domain-consistent all-different in every row, column and
    /// box (Régin's matching) and in each digit's rows and columns (every
    /// fish), which takes two hard 16×16 puzzles from 691,180 search nodes
    /// to 432. `auto` (the default): the fastest for the size, measured on
    /// the public sets:
    /// none for 4×4 and 9×9, full from 16×16. Counts are the same at every
    /// level, and so is the solution of a puzzle with one; of a puzzle
    /// with several, the first found may differ between levels (each is
    /// valid). Search nodes differ.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = PropagateArg::Auto)]
    pub propagate: PropagateArg,

    /// Print, for each puzzle, the logical steps a person can follow
    /// (simplest rule first: singles, box-line, subsets, all-different)
    /// until it is solved or a guess is needed, instead of the solution.
    #[arg(long, conflicts_with_all = ["count", "all", "limit", "rate", "pretty"])]
    pub explain: bool,

    #[command(flatten)]
    pub common: Common,
}

fn parse_symbols(text: &str) -> Result<Symbols, SymbolsError> {
    Symbols::new(text)
}

/// The engines of `cover sudoku`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineArg {
    /// The fastest for the size on this processor: triad for 9×9 (band
    /// without AVX2), else compact.
    Auto,
    /// The triad engine for 9×9 (AVX-512 or AVX2 where there, else
    /// portable code): candidates as bit masks, singles and box-line
    /// between guesses (nodes: one per guess plus the root); other sizes
    /// compact.
    #[value(alias = "bits")]
    Triad,
    /// The band engine for 9×9 (no SIMD needed); other sizes compact.
    #[value(alias = "bands")]
    Band,
    /// Exact cover on bit masks and saved states (its search nodes differ
    /// from Knuth's; its updates count options removed).
    Compact,
    /// Classic dancing links, the reference (node counts as Knuth's DLX1
    /// with `--propagate none`).
    #[value(alias = "dlx")]
    Linked,
}

/// The levels of `--propagate`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropagateArg {
    /// The fastest for each size (none for 4×4 and 9×9, full from 16×16).
    Auto,
    /// The plain exact-cover search.
    None,
    /// Singles, box-line interactions, naked and hidden pairs and triples.
    Basic,
    /// Singles, box-line, and all-different by matching (Régin) in every
    /// unit and in every digit's rows and columns.
    Full,
}

impl From<PropagateArg> for Level {
    fn from(level: PropagateArg) -> Level {
        match level {
            PropagateArg::Auto => Level::Auto,
            PropagateArg::None => Level::None,
            PropagateArg::Basic => Level::Basic,
            PropagateArg::Full => Level::Full,
        }
    }
}

impl From<EngineArg> for Engine {
    fn from(engine: EngineArg) -> Engine {
        match engine {
            EngineArg::Auto => Engine::Auto,
            EngineArg::Triad => Engine::Triad,
            EngineArg::Band => Engine::Band,
            EngineArg::Compact => Engine::Compact,
            EngineArg::Linked => Engine::Linked,
        }
    }
}

/// What to look for in each puzzle: solutions as every command searches
/// them, or the two answers only sudoku gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first solution, every one, or their number.
    Search(Search),
    /// The difficulty ([`cover_models::generate::Rater`]).
    Rate,
    /// The logical steps until solved or stuck
    /// ([`cover_models::sudoku::logic::explain`]).
    Explain,
}

impl SudokuArgs {
    /// The mode the flags ask for.
    pub fn mode(&self) -> Mode {
        if self.rate {
            Mode::Rate
        } else if self.explain {
            Mode::Explain
        } else {
            Mode::Search(self.solutions.mode())
        }
    }
}

/// What to search for and how answers are written.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// What to search for.
    pub mode: Mode,
    /// Give up a search at this many nodes.
    pub max_nodes: Option<u64>,
    /// Or once it has run this long.
    pub time_limit: TimeLimit,
    /// Grids with box lines.
    pub pretty: bool,
    /// JSON lines instead of text.
    pub json: bool,
}

/// One line of `--json` output.
#[derive(Debug, Serialize)]
struct Record<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grade: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// With --explain: each step, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<String>>,
    /// With --explain and a guess needed: the cell to guess at and its
    /// candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    guess: Option<String>,
}

/// What one puzzle came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// Whether it has a solution.
    pub solved: bool,
    /// Whether the search gave up at `--max-nodes`.
    pub gave_up: bool,
    /// The search's counters.
    pub stats: Stats,
}

/// Whether the answer of a puzzle in `layout` is a block of lines ending
/// in a blank line (grids, pretty grids) rather than one line.
fn is_block(layout: Layout, style: Style) -> bool {
    style.pretty || layout == Layout::Grid
}

/// Appends one solution as text.
fn write_unit(text: &mut String, puzzle: &Puzzle, grid: &[u8], style: Style) {
    if style.pretty {
        puzzle.write_pretty(text, grid);
    } else {
        puzzle.write_solution(text, grid);
    }
    if is_block(puzzle.layout, style) {
        text.push('\n');
    }
}

/// Appends what stands in place of a solution: [`NO_SOLUTION`] or
/// [`GAVE_UP`].
fn write_marker(text: &mut String, puzzle: &Puzzle, marker: &str, style: Style) {
    text.push_str(marker);
    text.push('\n');
    if is_block(puzzle.layout, style) {
        text.push('\n');
    }
}

/// Appends what stands for a puzzle that could not be read.
pub fn write_invalid(
    text: &mut String,
    origin: At<'_>,
    error: &ParseError,
    layout: Layout,
    style: Style,
) {
    if style.json {
        let record = Record {
            index: origin.index,
            file: origin.file,
            line: error.line,
            size: None,
            status: "invalid",
            solution: None,
            count: None,
            complete: None,
            nodes: None,
            grade: None,
            unique: None,
            error: Some(error.kind.to_string()),
            steps: None,
            guess: None,
        };
        push_json(text, &record);
        return;
    }
    text.push_str(INVALID);
    text.push('\n');
    if !matches!(style.mode, Mode::Search(Search::Count { .. })) {
        if is_block(layout, style) {
            text.push('\n');
        }
        if matches!(style.mode, Mode::Search(Search::All { .. })) {
            text.push('\n');
        }
    }
}

/// Solves `puzzle` as `style` says and appends its answer to `text`.
/// `flush` is called after each solution with `--all` (it may write out
/// and clear `text`); an error from it stops the search and is returned.
pub fn answer(
    solver: &mut Solver,
    puzzle: &Puzzle,
    origin: At<'_>,
    style: Style,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    let limits = |limit: Option<u64>| Limits {
        max_solutions: limit,
        ..Limits::none()
    };
    let mut solutions: Vec<String> = Vec::new();
    let mut rated: Option<Rating> = None;
    let mut explained: Option<(Vec<String>, Option<String>)> = None;
    let (found, report) = match style.mode {
        Mode::Explain => {
            let (steps, end) = explain(puzzle);
            let (found, guess) = match &end {
                End::Solved(grid) => {
                    solutions.push(puzzle.line_form(grid));
                    (true, None)
                }
                End::Guess { .. } => (true, Some(describe_end(puzzle, &end))),
                End::Contradiction { .. } => (false, None),
            };
            if !style.json {
                for step in &steps {
                    text.push_str(step);
                    text.push('\n');
                }
                text.push_str(&describe_end(puzzle, &end));
                text.push_str("\n\n");
            }
            explained = Some((steps, guess));
            // A puzzle that needs a guess is answered (exit 0) but has no
            // solution to show: `--stats` counts none for it.
            let solved = matches!(end, End::Solved(_));
            let report = Report {
                outcome: Outcome::Exhausted,
                stats: Stats {
                    solutions: u64::from(solved),
                    ..Stats::default()
                },
            };
            (found, report)
        }
        Mode::Search(Search::First) => {
            let report = solver.first_with(puzzle, |grid| {
                if style.json {
                    solutions.push(puzzle.line_form(grid));
                } else {
                    write_unit(text, puzzle, grid, style);
                }
            });
            let found = report.stats.solutions > 0;
            if !found && !style.json {
                let marker = if report.outcome.gave_up() {
                    GAVE_UP
                } else {
                    NO_SOLUTION
                };
                write_marker(text, puzzle, marker, style);
            }
            (found, report)
        }
        Mode::Search(Search::All { limit }) if style.json => {
            return every_solution_json(solver, puzzle, origin, limit, text, flush);
        }
        Mode::Search(Search::All { limit }) => {
            let mut flush = Flush::new(flush);
            let report = solver.solve(puzzle, &limits(limit), |grid| {
                write_unit(text, puzzle, grid, style);
                flush.after_solution(text)
            });
            flush.finish()?;
            let found = report.stats.solutions > 0;
            if report.outcome.gave_up() {
                write_marker(text, puzzle, GAVE_UP, style);
            } else if !found {
                write_marker(text, puzzle, NO_SOLUTION, style);
            }
            text.push('\n');
            (found, report)
        }
        Mode::Rate => {
            let rating = RATER.with(|rater| {
                let mut rater = rater.borrow_mut();
                rater.time_limit(style.time_limit.limit);
                rater.rate_within(puzzle, style.max_nodes)
            });
            let report = match rating {
                Ok(rating) => {
                    if !style.json {
                        match rating.solutions {
                            0 => text.push_str("no solution\n"),
                            1 => {
                                let line = format!("{} {}\n", rating.grade.as_str(), rating.nodes);
                                text.push_str(&line);
                            }
                            _ => text.push_str(&format!("not unique {}\n", rating.nodes)),
                        }
                    }
                    rated = Some(rating);
                    Report {
                        outcome: Outcome::SolutionLimit,
                        stats: rating.stats,
                    }
                }
                Err(stats) => {
                    if !style.json {
                        text.push_str(GAVE_UP);
                        text.push('\n');
                    }
                    Report {
                        outcome: Outcome::NodeBudget,
                        stats,
                    }
                }
            };
            (report.stats.solutions > 0, report)
        }
        Mode::Search(Search::Count { limit }) => {
            let report = solver.count(puzzle, limit);
            if !style.json {
                if report.outcome.gave_up() {
                    text.push_str(GAVE_UP);
                } else {
                    text.push_str(&report.stats.solutions.to_string());
                }
                text.push('\n');
            }
            (report.stats.solutions > 0, report)
        }
    };
    let gave_up = report.outcome.gave_up();
    if style.json {
        let counting = matches!(style.mode, Mode::Search(Search::Count { .. }));
        let record = Record {
            index: origin.index,
            file: origin.file,
            line: puzzle.line,
            size: Some(puzzle.size.side()),
            status: match &explained {
                Some((_, Some(_))) => "stuck",
                _ => Verdict::of(gave_up, found, report.stats).status(),
            },
            solution: match style.mode {
                Mode::Search(Search::First) | Mode::Explain => solutions.pop(),
                _ => None,
            },
            count: counting.then_some(report.stats.solutions),
            complete: counting.then_some(report.outcome.is_complete()),
            nodes: Some(report.stats.nodes),
            grade: rated
                .as_ref()
                .filter(|r| r.solutions == 1)
                .map(|r| r.grade.as_str()),
            unique: rated.as_ref().map(|r| r.solutions == 1),
            error: None,
            steps: explained.as_ref().map(|(steps, _)| steps.clone()),
            guess: explained.and_then(|(_, guess)| guess),
        };
        push_json(text, &record);
    }
    Ok(Answered {
        solved: found,
        gave_up,
        stats: report.stats,
    })
}

thread_local! {
    /// Each thread's geometries, by box side, for --explain.
    static GEOMETRIES: RefCell<Vec<Option<Geometry>>> = const { RefCell::new(Vec::new()) };
}

/// The geometry of `size`, built once per thread.
fn with_geometry<T>(size: Size, f: impl FnOnce(&Geometry) -> T) -> T {
    GEOMETRIES.with(|cell| {
        let mut geometries = cell.borrow_mut();
        let n = size.box_side();
        if geometries.len() <= n {
            geometries.resize_with(n + 1, || None);
        }
        f(geometries[n].get_or_insert_with(|| Geometry::new(size)))
    })
}

/// The steps of `puzzle`, each described in its own symbols, and how the
/// explanation ended.
fn explain(puzzle: &Puzzle) -> (Vec<String>, End) {
    with_geometry(puzzle.size, |geometry| {
        let explanation = logic::explain(geometry, &puzzle.cells);
        let symbol = |digit: u8| puzzle.symbol_of(digit).unwrap_or('?');
        let steps = explanation
            .steps
            .iter()
            .map(|step| match puzzle.symbol_of(1) {
                Some(_) => step.describe_with(geometry, &symbol),
                None => step.describe(geometry),
            })
            .collect();
        (steps, explanation.end)
    })
}

/// The last line of an explanation.
fn describe_end(puzzle: &Puzzle, end: &End) -> String {
    match end {
        End::Solved(grid) => format!("solved: {}", puzzle.line_form(grid)),
        End::Guess { cell, candidates } => {
            let digits: Vec<String> = candidates.iter().map(|&d| puzzle.digit_text(d)).collect();
            let name = with_geometry(puzzle.size, |g| g.cell_name(*cell));
            format!("a guess is needed: {name} is one of {}", digits.join(", "))
        }
        End::Contradiction { what } => format!("no solution: {what}"),
    }
}

/// Appends the JSON record of every solution of `puzzle` (up to `limit`)
/// to `text`, the solutions written (and flushed, when streaming) as they
/// are found, so the record's other fields follow them.
fn every_solution_json(
    solver: &mut Solver,
    puzzle: &Puzzle,
    origin: At<'_>,
    limit: Option<u64>,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    let limits = Limits {
        max_solutions: limit,
        ..Limits::none()
    };
    let mut record = JsonObject::begin(text);
    record.field(text, "index", &origin.index);
    record.field(text, "file", origin.file);
    record.field(text, "line", &puzzle.line);
    record.field(text, "size", &puzzle.size.side());
    let mut solutions = record.list(text, "solutions");
    let mut flush = Flush::new(flush);
    let report = solver.solve(puzzle, &limits, |grid| {
        solutions.item(text, &puzzle.line_form(grid));
        flush.after_solution(text)
    });
    flush.finish()?;
    solutions.end(text);
    let answered = Answered {
        solved: report.stats.solutions > 0,
        gave_up: report.outcome.gave_up(),
        stats: report.stats,
    };
    let verdict = Verdict::of(answered.gave_up, answered.solved, answered.stats);
    record.field(text, "status", verdict.status());
    record.field(text, "complete", &report.outcome.is_complete());
    record.field(text, "nodes", &report.stats.nodes);
    record.end(text);
    Ok(answered)
}

/// A puzzle whose search takes more nodes than this on one thread is
/// searched again split across all threads (when there are several), so
/// that one hard puzzle does not leave the other cores idle (a few
/// milliseconds: more than any puzzle of the 9×9 sets needs).
pub const SPLIT_AFTER: u64 = 20_000;

/// Searches of puzzles larger than this side are never shared: each part
/// given to another thread holds a copy of the engine, tens of megabytes
/// from 49×49.
pub const MAX_SHARED_SIDE: usize = 36;

thread_local! {
    /// Each thread's rater, for `--rate`.
    static RATER: RefCell<Rater> = RefCell::new(Rater::new());
}

/// Puzzles answered by one task of the pool, into one string: a string
/// per puzzle costs more than solving an easy one (memory allocated by a
/// worker and freed by the printer is slow to free).
const GROUP: usize = 32;

/// A puzzle that could not be read, and the layout of its input (which
/// says how many lines stand in its place).
#[derive(Debug)]
pub struct Unreadable {
    error: ParseError,
    layout: Layout,
}

impl Invalid for Unreadable {
    fn line(&self) -> usize {
        self.error.line
    }

    fn message(&self) -> String {
        self.error.kind.to_string()
    }
}

/// The puzzles of one input, each bad one with the layout at its place.
struct WithLayout<R> {
    puzzles: Puzzles<R>,
}

impl<R: BufRead> Iterator for WithLayout<R> {
    type Item = Result<Puzzle, text::InputError<Unreadable>>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.puzzles.next()? {
            Ok(puzzle) => Ok(puzzle),
            Err(InputError::Parse(error)) => Err(text::InputError::Parse(Unreadable {
                error,
                layout: self.puzzles.layout().unwrap_or(Layout::Line),
            })),
            Err(InputError::Io(e)) => Err(text::InputError::Io(e)),
        })
    }
}

/// `cover sudoku` as a [`Batch`].
struct SudokuBatch<'a> {
    args: &'a SudokuArgs,
    engine: Engine,
    level: Level,
    style: Style,
}

impl Batch for SudokuBatch<'_> {
    type Instance = Puzzle;
    type Error = Unreadable;
    type Worker = Solver;
    type Answer = Answered;

    fn label(&self) -> &'static str {
        "sudoku"
    }

    fn chunk_sizes(&self) -> ChunkSizes {
        // With --all, a chunk holds at most CHUNK solutions' worth of
        // text, however many puzzles that is.
        let most = match self.style.mode {
            Mode::Search(Search::All { limit: Some(limit) }) => {
                (CHUNK as u64 / limit).max(1) as usize
            }
            _ => CHUNK,
        };
        ChunkSizes {
            first: FIRST_CHUNK.min(most),
            most,
        }
    }

    fn group_size(&self) -> usize {
        GROUP
    }

    /// Its cells: a 64×64 puzzle and its answer hold 50 times a 9×9's.
    fn weight(&self, puzzle: &Puzzle) -> usize {
        puzzle.cells.len()
    }

    fn streaming(&self) -> bool {
        // One puzzle's output has no bound, or one larger than a chunk's.
        matches!(self.style.mode, Mode::Search(Search::All { limit }) if limit.is_none_or(|n| n > CHUNK as u64))
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + 'r>) -> ReadInstances<'r, Self> {
        Box::new(WithLayout {
            puzzles: Puzzles::new(reader, self.args.symbols.clone()),
        })
    }

    fn worker(&self) -> Solver {
        let mut solver = Solver::new(self.engine);
        solver.propagate(self.level);
        solver
    }

    fn answer(
        &self,
        solver: &mut Solver,
        at: At<'_>,
        puzzle: &Puzzle,
        text: &mut String,
        flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Answered> {
        let share = rayon::current_num_threads() > 1 && puzzle.size.side() <= MAX_SHARED_SIDE;
        solver.split_after(share.then_some(SPLIT_AFTER));
        solver.max_nodes(self.style.max_nodes);
        solver.time_limit(self.style.time_limit.limit);
        answer(solver, puzzle, at, self.style, text, flush)
    }

    fn verdict(&self, answered: &Answered) -> Verdict {
        Verdict::of(answered.gave_up, answered.solved, answered.stats)
    }

    fn invalid(&self, at: At<'_>, unreadable: &Unreadable, text: &mut String) {
        write_invalid(text, at, &unreadable.error, unreadable.layout, self.style);
    }
}

/// Runs `cover sudoku`.
pub fn run(args: &SudokuArgs, session: &mut Session) -> anyhow::Result<()> {
    if matches!(args.engine, EngineArg::Triad | EngineArg::Band)
        && matches!(args.propagate, PropagateArg::Basic | PropagateArg::Full)
    {
        anyhow::bail!(
            "--engine {} reasons on its own; --propagate basic and full are for the \
             exact-cover engines (compact, linked)",
            if args.engine == EngineArg::Triad {
                "triad"
            } else {
                "band"
            }
        );
    }
    let batch = SudokuBatch {
        args,
        engine: Engine::from(args.engine),
        level: Level::from(args.propagate),
        style: Style {
            mode: args.mode(),
            max_nodes: args.max_nodes,
            time_limit: args.time_limit,
            pretty: args.pretty,
            json: args.common.json,
        },
    };
    batch::run(&batch, &args.inputs, &mut Out::stdout(), session)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(text: &str) -> Puzzle {
        Puzzles::new(text.as_bytes(), None).next().unwrap().unwrap()
    }

    fn text_of(text: &str, mode: Mode, pretty: bool, json: bool) -> (String, Answered) {
        let style = Style {
            mode,
            max_nodes: None,
            time_limit: TimeLimit::default(),
            pretty,
            json,
        };
        let mut solver = Solver::default();
        let mut out = String::new();
        let origin = At {
            file: "t",
            index: 1,
        };
        let answered = answer(
            &mut solver,
            &puzzle(text),
            origin,
            style,
            &mut out,
            &mut |_| Ok(()),
        )
        .unwrap();
        (out, answered)
    }

    const FOUR: &str = "1...\n..2.\n....\n...4\n";

    #[test]
    fn text_answers_in_each_mode() {
        let (text, answered) = text_of(
            "1..........2....",
            Mode::Search(Search::First),
            false,
            false,
        );
        assert_eq!(text.lines().count(), 1);
        assert!(answered.solved);
        let (text, _) = text_of(FOUR, Mode::Search(Search::First), false, false);
        assert_eq!(text.lines().count(), 5, "four rows and a blank line");
        assert!(text.ends_with("\n\n"));
        let (text, _) = text_of(
            "11..............",
            Mode::Search(Search::First),
            false,
            false,
        );
        assert_eq!(text, "no solution\n");
        let (text, _) = text_of(
            "1...............",
            Mode::Search(Search::Count { limit: None }),
            false,
            false,
        );
        assert_eq!(text, "72\n");
        let (text, _) = text_of(
            "1...............",
            Mode::Search(Search::All { limit: Some(2) }),
            false,
            false,
        );
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with("\n\n"));
        let (text, _) = text_of("1...............", Mode::Search(Search::First), true, false);
        assert!(text.starts_with("+-----+-----+\n| 1 "));
    }

    #[test]
    fn json_answers() {
        let (text, _) = text_of(
            "1...............",
            Mode::Search(Search::Count { limit: Some(5) }),
            false,
            true,
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["count"], 5);
        assert_eq!(value["complete"], false);
        assert_eq!(value["status"], "solved");
        assert_eq!(value["size"], 4);
        let (text, _) = text_of("1...............", Mode::Search(Search::First), false, true);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["solution"].as_str().unwrap().len(), 16);
        assert!(value.get("count").is_none());
        let (text, _) = text_of(
            "11..............",
            Mode::Search(Search::All { limit: None }),
            false,
            true,
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["status"], "no_solution");
        assert_eq!(value["solutions"], serde_json::json!([]));
    }

    #[test]
    fn invalid_markers_keep_alignment() {
        let error = ParseError {
            line: 3,
            kind: cover_models::sudoku::ParseErrorKind::NotASize { cells: 5 },
        };
        let origin = At {
            file: "t",
            index: 2,
        };
        // A grid's marker takes a blank line after it, as a grid does;
        // a count is one line whatever the layout.
        for (layout, search, marker) in [
            (Layout::Line, Search::First, "invalid\n"),
            (Layout::Grid, Search::First, "invalid\n\n"),
            (Layout::Grid, Search::Count { limit: None }, "invalid\n"),
        ] {
            let style = Style {
                mode: Mode::Search(search),
                max_nodes: None,
                time_limit: TimeLimit::default(),
                pretty: false,
                json: false,
            };
            let mut text = String::new();
            write_invalid(&mut text, origin, &error, layout, style);
            assert_eq!(text, marker, "{layout:?} {search:?}");
        }
    }
}
