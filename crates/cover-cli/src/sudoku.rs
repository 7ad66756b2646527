//! `cover sudoku`: sudoku of every n²×n² size, from files of many puzzles,
//! solved on all cores.
//!
//! Reading is [`cover_models::sudoku::Puzzles`] (from 8 threads on,
//! parsing on threads of its own where the input allows: [`read`]); the
//! [`batch`] runner reads it in chunks of up to [`CHUNK`] puzzles, so that
//! memory stays bounded however long the input, and answers each chunk in
//! parallel,
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
//!
//! Variants (variant lines, f-puzzles JSON and links) are read among the
//! classic puzzles
//! ([`Puzzles::entries`](cover_models::sudoku::Puzzles::entries)) and
//! answered on the pool, each search on one thread, by [`variant`];
//! classic puzzles keep their engines and fast paths.
//! `--rate` and `--explain` judge both kinds with one function
//! (`answer_by_logic`), given the search's count and the puzzle's geometry.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::time::Instant;

use clap::{Args, ValueEnum};
use cover_models::generate::Rater;
use cover_models::sudoku::human::{
    self, Catalogue, Difficulty, HintLevel, RateLimits, Rated, Step,
};
use cover_models::sudoku::logic::Geometry;
use cover_models::sudoku::{
    Engine, Entry, Layout, Level, ParseError, Puzzle, Size, Solver, Symbols, SymbolsError,
};
use dlx_core::{Control, Limits, Outcome, Report, Stats};
use serde::Serialize;

use crate::batch::{
    self, gave_up_after, At, Batch, Flush, Invalid, ReadInstances, Verdict, WithContext, GAVE_UP,
    INVALID,
};
use crate::common::{self, Common, Inputs, Mode as Search, Session, Solutions, TimeLimit};
use crate::output::{push_json, JsonObject, Out};
use crate::pipeline::ChunkSizes;

mod pretty;
mod read;
mod sat;
mod variant;

use read::SudokuReader;

#[cfg(feature = "sat")]
use sat::Fallback;
use sat::SatEngine;

/// Puzzles read, solved and printed at a time, at most.
pub const CHUNK: usize = 4096;

/// The first chunk's size; each next one is twice the last, up to
/// [`CHUNK`]. Reading the first chunk is the only time the threads wait
/// for input: small, it lets them start at once.
const FIRST_CHUNK: usize = 64;

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
         blank lines. A blank line between bands (after rows 3 and 6 of a
         9×9) is read as a gap when every band before it had one, the next
         band follows whole, then a blank line or the end of the input, and
         the bands of the run make whole grids.
         Cells may be separated by spaces, commas or `|` (then
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
solution.

Variants (docs/variants.md), read among the puzzles of any input:
  variant line   a line puzzle, then fields: boxes=RxC, latin, jigsaw=<piece of
                 each cell>, x, windoku, region=r1c1,.., cage=SUM:r1c1,..,
                 thermo=r1c1,.., anti-knight, anti-king, non-consecutive,
                 samurai (the 21×21 frame, 441 cells, `.` outside the grids):
                   1............... x cage=5:r1c2,r1c3
  f-puzzles      a JSON document (one object, on one line or many), or the
                 compressed string of an f-puzzles link, with or without the
                 link around it (size up to 16; diagonals, extra regions,
                 killer cages, thermometers, anti-knight, anti-king,
                 non-consecutive; other rules are refused by name).
Each is answered in its own form: a variant line with the same fields, the
JSON document with every cell's value filled in (on one line), a link string
(the same link around it). --symbols, --engine and --propagate are for
classic puzzles. --rate and --explain take variants as classic puzzles (on
the variant's regions, killer cages, thermometers and pair rules), except
overlapping grids (Samurai): `gave up`, the reason on standard error.";

const AFTER_LONG_HELP: &str = "\
Output (text), in input order, in the layout and symbols of the input:
  default  the solution: a line for a line puzzle; for a grid, its rows and a
           blank line. `no solution` in its place when there is none.
  --count  the number of solutions, one line per puzzle (with --limit N:
           counting stops at N).
  --all    every solution (up to --limit), each as above, then a blank line
           ending the puzzle's solutions.
  --pretty grids with box lines, each followed by a blank line; a variant's
           grid with the borders of its boxes or jigsaw pieces, killer cage
           letters after the digits, and its other rules in words under it.
  --rate   the rating on Sudoku Explainer's scale and the hardest technique
           of a logical solution, simplest technique first, as SE finds it:
           `4.2 XY-Wing` (1.0-2.3 singles, 2.4-3.4 locked candidates, pairs,
           X-Wing, 3.5-4.4 triples, Swordfish, XY-Wing, 4.5-6.4 uniqueness,
           quads, BUG, 6.5 up chains and forcing chains; on variants also
           cage combinations 2.5, innies 2.8, outies 3.0); `not unique`, or
           `no solution` (a search proves the puzzle unique first).
  --explain  each step of that logical solution on a line (techniques SE
           lacks, such as W-Wing, colouring and ALS, included), then how it
           ended, then a blank line: a block per puzzle. A step is
             RATING TECHNIQUE on DIGITS in UNITS (CELLS): RESULTS
           e.g. `2.6 Pointing on 8 in box 5 and column 6 (r4c6 and r6c6):
           r1c6 ≠ 8`; cells are rRcC (row, column from 1), digits in the
           puzzle's symbols, results `rRcC = D` (placed) or `rRcC ≠ D`
           (removed), comma-separated; chains write their links after the
           pattern (`; r5c1=1 → r2c1≠1 → …`). The last line is `solved:
           GRID` (the solution as a line, or a variant in its own form),
           `stuck: no technique applies (hardest step so far RATING)`, `not
           unique`, `no solution`, `gave up` or `invalid`.
           Details and an example: docs/explain.md.
A puzzle that cannot be read is reported on standard error as
`cover: FILE:LINE: reason`, and `invalid` stands in its place on standard
output, so answers stay aligned with puzzles; the other puzzles are answered.
With --max-nodes N or --time-limit SECONDS, `gave up` stands in place of the
answer (the solution or `no solution`; with --all, after the solutions
found; with --count, `gave up after N solutions`, N those found by then) of
a puzzle whose search reached N nodes, or ran SECONDS, first. With --rate
and --explain, N bounds the search that proves the puzzle unique, and
SECONDS that search and the logic together.

JSON (--json), one object per puzzle per line:
  index      the puzzle's number in its file, from 1
  file       the file name, or <stdin>
  line       the line where the puzzle starts (invalid: the line of the error)
  size       the side of the grid (9 for 9×9)
  variant    for a variant: the form it was read in (line, f-puzzles,
             f-puzzles link); its solution is then written as a variant
             line's cells
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
  learnt     when conflict learning answered (--engine sat, or auto past
             10,000 search nodes): the clauses it learnt, one per conflict
  unique     with --rate or --explain: whether it has exactly one solution
  rating     with --rate: the SE rating (the hardest step); with --explain
             the hardest of the steps shown (a teaching path may differ)
  hardest    that step's technique
  difficulty with --rate: easy, medium, hard, expert or extreme (see
             `cover generate`)
  techniques how many steps each technique took
  steps      with --explain: each step, as in the text output
  error      for invalid puzzles: what is wrong; with --rate or --explain,
             why logic cannot read a variant (Samurai)

Exit status: 0 every puzzle solved; 1 all input valid but some puzzle has no
solution (or gave up, with --max-nodes or --time-limit); 2 bad input, bad
usage or an I/O error.

Examples:
  cover sudoku puzzles.txt                   solve each puzzle
  cover sudoku 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
                                             a puzzle as an argument (read as
                                             one when no file has its name)
  cover sudoku --count --limit 2 puzzles.txt 1 for a proper puzzle, 2 if not
  cover sudoku --symbols 0123456789ABCDEF 16x16.txt
  cover sudoku --max-nodes 1000000 big.txt   never stuck on one puzzle
  cover sudoku --time-limit 0.5 big.txt      at most about half a second each
  cover sudoku --cnf one.txt > one.cnf       the CNF, for a SAT solver of one's own
  cover sudoku --pretty --jobs 1 - < one.txt";

/// Solve sudoku puzzles of any n²×n² size, many per file, on all cores.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct SudokuArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    #[command(flatten)]
    pub solutions: Solutions,

    /// Rate each puzzle instead of printing its solution: its rating on
    /// Sudoku Explainer's scale and the hardest technique a logical
    /// solution needs.
    #[arg(long, conflicts_with_all = ["count", "all", "limit", "pretty"])]
    pub rate: bool,

    /// Give up on a puzzle after N search nodes.
    ///
    /// Its answer is then `gave up` (JSON status "gave_up"; with --all,
    /// after the solutions found by then; with --count, `gave up after N
    /// solutions`; with --rate, when the rating's
    /// count needs more), and the exit status is 1. So a
    /// file of many puzzles is answered in bounded time whatever is in
    /// it. A bounded search stays on one thread, so whether it gives up
    /// does not depend on --jobs. The bound is checked as the search goes
    /// down a level; a solution it finds there adds a node, so a search
    /// may end (solved, or with more solutions) a few nodes past N. With
    /// `--engine sat` N bounds the conflicts; with `auto`, the search, and
    /// then the conflicts if learning follows.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    /// Write each classic puzzle's CNF in DIMACS instead of solving it:
    /// what `--engine sat` gives CaDiCaL, for a SAT solver of one's own.
    ///
    /// One variable per candidate left once the givens and the rules at
    /// the root (singles, box-line, all-different by matching) have ruled
    /// out others; each cell, and each digit of each row, column and box,
    /// exactly once. Comments first name each given and each variable's
    /// candidate (`c option 7 r1c7=3`: variable 7 true puts 3 in row 1,
    /// column 7). Each puzzle's CNF starts with `c puzzle INDEX FILE:LINE`
    /// (split a file of many on that line). A variant gets that line and
    /// `c no CNF: ...` (its cages and lines are not exact cover), with a
    /// warning, and counts as given up.
    #[arg(long, conflicts_with_all = ["count", "all", "limit", "rate", "explain", "pretty", "json"])]
    pub cnf: bool,

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
    /// fastest, measured by `cargo xtask bench bits`. A classic puzzle
    /// whose search has found no solution in 10,000 nodes (none of the
    /// public 9×9 and 16×16 sets' puzzles; hard 25×25 ones) is then
    /// answered by `sat`, as its JSON record's `learnt` and --stats say.
    /// `triad` and `band` are 9×9 engines; other sizes search with
    /// `compact`. `bits` is an old
    /// name of `triad`, `bands` of `band`, `dlx` of `linked`. Answers are
    /// the same with every engine (of a puzzle with several solutions the
    /// first found may differ); search nodes differ. So with `auto` those
    /// two may differ between processors with AVX2 and without; name an
    /// engine to have them the same everywhere.
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,

    /// How much reasoning between the search's choices.
    ///
    /// `--rate` and `--explain` reason on their own; neither depends on
    /// this.
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
    /// (simplest technique first, singles to forcing chains), a line each
    /// (`RATING TECHNIQUE on DIGITS in UNITS (CELLS): RESULTS`), then
    /// `solved: GRID` (or why not) and a blank line, instead of the
    /// solution. The format is under Output below.
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
    /// without AVX2), else compact; `sat` for a puzzle whose search finds
    /// nothing in 10,000 nodes.
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
    /// Conflict learning: the puzzle's exact cover as CNF (givens applied
    /// first), solved by CaDiCaL. For the puzzles that defeat search
    /// (hard 25×25); counts and --all block each solution and solve
    /// again, slow for many. Its nodes are the conflicts it learnt from;
    /// --max-nodes bounds them. Variants keep their own engine.
    #[cfg(feature = "sat")]
    Sat,
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
            // Its batch answers classic puzzles by SAT, not by an engine.
            #[cfg(feature = "sat")]
            EngineArg::Sat => Engine::Auto,
        }
    }
}

/// What to look for in each puzzle: solutions as every command searches
/// them, or the two answers only sudoku gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first solution, every one, or their number.
    Search(Search),
    /// The rating by logic ([`cover_models::sudoku::human::rate`]).
    Rate,
    /// The logical steps, with the techniques that teach.
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
#[derive(Debug, Default, Serialize)]
struct Record<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
    /// For a variant: the form it was read in.
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'static str>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    /// The clauses learnt from conflicts, when learning answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    learnt: Option<u64>,
    /// With --rate or --explain: whether the puzzle has one solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<bool>,
    /// With --rate or --explain: the hardest step on Sudoku Explainer's
    /// scale (of the steps taken, when logic is stuck).
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    /// Its technique.
    #[serde(skip_serializing_if = "Option::is_none")]
    hardest: Option<&'static str>,
    /// The difficulty the rating falls in.
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<&'static str>,
    /// How many steps each technique took.
    #[serde(skip_serializing_if = "Option::is_none")]
    techniques: Option<BTreeMap<&'static str, usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// With --explain: each step, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<String>>,
}

impl Record<'_> {
    /// The fields of what logic made of a puzzle.
    fn logic(judged: &Judged, shown: &Shown<'_>, mode: Mode) -> Self {
        let Judged::Logic(rated) = judged else {
            return Record::default();
        };
        let hardest = rated.hardest();
        Record {
            rating: Some(rated.rating.value()),
            hardest: hardest.map(|s| s.technique.name()),
            difficulty: rated.solved.then(|| Difficulty::of(rated.rating).as_str()),
            techniques: Some(
                rated
                    .counts()
                    .into_iter()
                    .map(|(technique, n)| (technique.name(), n))
                    .collect(),
            ),
            steps: (mode == Mode::Explain).then(|| describe_steps(shown, &rated.steps)),
            ..Record::default()
        }
    }
}

/// What `--rate` and `--explain` made of a puzzle.
enum Judged {
    /// The search proving it unique, or logic, ran out of nodes or time.
    GaveUp,
    /// It has no solution.
    NoSolution,
    /// It has several.
    NotUnique,
    /// It has one, and logic went this far (to the end when `solved`).
    Logic(Rated),
}

impl Judged {
    fn unique(&self) -> Option<bool> {
        match self {
            Judged::GaveUp => None,
            Judged::NoSolution | Judged::NotUnique => Some(false),
            Judged::Logic(_) => Some(true),
        }
    }
}

/// What the search proving a puzzle unique found: its solutions (up to
/// two, as far as it looked) and counters; `Err` with the counters when it
/// reached `--max-nodes` or `--time-limit` first.
type Counted = Result<(u64, Stats), Stats>;

/// How the answers of `--rate` and `--explain` write one puzzle, classic
/// or variant: where it stands, the geometry that names its cells and
/// units, and its symbols.
struct Shown<'a> {
    at: At<'a>,
    /// The line where the puzzle starts.
    line: usize,
    /// For a variant: the form it was read in.
    variant: Option<&'static str>,
    geometry: &'a Geometry,
    /// A digit in the puzzle's symbols.
    digit: &'a dyn Fn(u8) -> String,
    /// A solved grid as the text answer ends with it.
    answer: &'a dyn Fn(&[u8]) -> String,
    /// A solved grid as a JSON record's `solution`.
    solution: &'a dyn Fn(&[u8]) -> String,
}

/// Counts the solutions of a classic `puzzle` up to two (bounded by
/// `--max-nodes` and `--time-limit`).
fn count_classic(puzzle: &Puzzle, style: Style) -> Counted {
    RATER.with(|rater| {
        let mut rater = rater.borrow_mut();
        rater.time_limit(style.time_limit.limit);
        rater
            .rate_within(puzzle, style.max_nodes)
            .map(|counted| (counted.solutions, counted.stats))
    })
}

/// Once `counted` proved the puzzle unique, solves `cells` by logic with
/// `catalogue` (bounded by `--time-limit` from `started`): uniqueness
/// techniques hold only for unique puzzles.
fn judge(
    counted: Counted,
    geometry: &Geometry,
    cells: &[u8],
    started: Instant,
    style: Style,
    catalogue: Catalogue,
) -> (Judged, Report) {
    let gave_up = |stats| Report::new(Outcome::NodeBudget, stats);
    let (solutions, stats) = match counted {
        Ok(counted) => counted,
        Err(stats) => return (Judged::GaveUp, gave_up(stats)),
    };
    let report = Report::new(Outcome::SolutionLimit, stats);
    match solutions {
        0 => return (Judged::NoSolution, report),
        1 => {}
        _ => return (Judged::NotUnique, report),
    }
    let limits = RateLimits {
        above: None,
        deadline: style.time_limit.limit.map(|limit| started + limit),
    };
    match human::rate_within(geometry, cells, catalogue, limits) {
        Ok(rated) => (Judged::Logic(rated), report),
        Err(_) => (Judged::GaveUp, gave_up(stats)),
    }
}

/// Answers `--rate` or `--explain` for a puzzle of `cells` whose
/// uniqueness search came to `counted` (started at `started`, which
/// `--time-limit` counts from): the text of [`write_judgement`] or a JSON
/// record, appended to `text`. Classic puzzles and variants alike.
fn answer_by_logic(
    counted: Counted,
    cells: &[u8],
    started: Instant,
    shown: &Shown<'_>,
    style: Style,
    text: &mut String,
) -> Answered {
    let catalogue = match style.mode {
        Mode::Explain => Catalogue::Teaching,
        _ => Catalogue::Rating,
    };
    let (judged, report) = judge(counted, shown.geometry, cells, started, style, catalogue);
    let answered = Answered {
        solved: report.stats.solutions > 0,
        gave_up: report.outcome.gave_up(),
        stats: report.stats,
        learnt: None,
    };
    if !style.json {
        write_judgement(text, shown, style.mode, &judged);
        return answered;
    }
    let record = Record {
        index: shown.at.index,
        file: shown.at.file,
        line: shown.line,
        size: Some(shown.geometry.side()),
        variant: shown.variant,
        status: match &judged {
            Judged::Logic(rated) if !rated.solved => "stuck",
            _ => Verdict::of(answered.gave_up, answered.solved, answered.stats).status(),
        },
        solution: match &judged {
            Judged::Logic(rated) if rated.solved && style.mode == Mode::Explain => {
                Some((shown.solution)(&rated.grid))
            }
            _ => None,
        },
        nodes: Some(report.stats.nodes),
        unique: judged.unique(),
        ..Record::logic(&judged, shown, style.mode)
    };
    push_json(text, &record);
    answered
}

/// The text answer of `--rate` (one line) or `--explain` (a line a step,
/// then how it ended, then a blank line).
fn write_judgement(text: &mut String, shown: &Shown<'_>, mode: Mode, judged: &Judged) {
    let end = match judged {
        Judged::GaveUp => GAVE_UP.to_owned(),
        Judged::NoSolution => NO_SOLUTION.to_owned(),
        Judged::NotUnique => "not unique".to_owned(),
        Judged::Logic(rated) => {
            let hardest = rated.hardest();
            let name = hardest.map_or("givens only", |s| s.technique.name());
            if mode == Mode::Explain {
                for line in describe_steps(shown, &rated.steps) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            match (mode, rated.solved) {
                (Mode::Explain, true) => format!("solved: {}", (shown.answer)(&rated.grid)),
                (_, true) => format!("{} {name}", rated.rating),
                (_, false) => format!(
                    "stuck: no technique applies (hardest step so far {})",
                    rated.rating
                ),
            }
        }
    };
    write_judgement_end(text, mode, &end);
}

/// Appends the last line of a `--rate` or `--explain` answer, and with
/// `--explain` the blank line that ends it.
fn write_judgement_end(text: &mut String, mode: Mode, end: &str) {
    text.push_str(end);
    text.push('\n');
    if mode == Mode::Explain {
        text.push('\n');
    }
}

/// Each step on one line, its rating first, in the puzzle's symbols.
fn describe_steps(shown: &Shown<'_>, steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|step| {
            format!(
                "{} {}",
                step.rating,
                step.text(HintLevel::Full, shown.geometry, shown.digit)
            )
        })
        .collect()
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
    /// The clauses learnt from conflicts, when learning answered it.
    pub learnt: Option<u64>,
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
            status: "invalid",
            error: Some(error.kind.to_string()),
            ..Record::default()
        };
        push_json(text, &record);
        return;
    }
    text.push_str(INVALID);
    text.push('\n');
    if !matches!(style.mode, Mode::Search(Search::Count { .. })) {
        // An --explain answer is a block ending in a blank line, whatever
        // the layout.
        if is_block(layout, style) || style.mode == Mode::Explain {
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
    solver: &mut dyn GridSearch,
    puzzle: &Puzzle,
    origin: At<'_>,
    style: Style,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    let limits = |limit: Option<u64>| Limits::none().with_max_solutions(limit);
    let mut first: Option<String> = None;
    let (found, report) = match style.mode {
        Mode::Rate | Mode::Explain => {
            let started = Instant::now();
            let counted = count_classic(puzzle, style);
            let digit = |digit| puzzle.digit_text(digit);
            let line_form = |grid: &[u8]| puzzle.line_form(grid);
            return Ok(with_geometry(puzzle.size, |geometry| {
                let shown = Shown {
                    at: origin,
                    line: puzzle.line,
                    variant: None,
                    geometry,
                    digit: &digit,
                    answer: &line_form,
                    solution: &line_form,
                };
                answer_by_logic(counted, &puzzle.cells, started, &shown, style, text)
            }));
        }
        Mode::Search(Search::First) => {
            let report = solver.first_with(puzzle, &mut |grid| {
                if style.json {
                    first = Some(puzzle.line_form(grid));
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
            let report = solver.solve(puzzle, &limits(limit), &mut |grid| {
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
        Mode::Search(Search::Count { limit }) => {
            let report = solver.count(puzzle, limit);
            if !style.json {
                if report.outcome.gave_up() {
                    text.push_str(&gave_up_after(report.stats.solutions));
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
            status: Verdict::of(gave_up, found, report.stats).status(),
            solution: first,
            count: counting.then_some(report.stats.solutions),
            complete: counting.then_some(report.outcome.is_complete()),
            nodes: Some(report.stats.nodes),
            learnt: solver.learnt(),
            ..Record::default()
        };
        push_json(text, &record);
    }
    Ok(Answered {
        solved: found,
        gave_up,
        stats: report.stats,
        learnt: solver.learnt(),
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

/// Appends the JSON record of every solution of `puzzle` (up to `limit`)
/// to `text`, the solutions written (and flushed, when streaming) as they
/// are found, so the record's other fields follow them.
fn every_solution_json(
    solver: &mut dyn GridSearch,
    puzzle: &Puzzle,
    origin: At<'_>,
    limit: Option<u64>,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    let limits = Limits::none().with_max_solutions(limit);
    let mut record = JsonObject::begin(text);
    record.field(text, "index", &origin.index);
    record.field(text, "file", origin.file);
    record.field(text, "line", &puzzle.line);
    record.field(text, "size", &puzzle.size.side());
    let mut solutions = record.list(text, "solutions");
    let mut flush = Flush::new(flush);
    let report = solver.solve(puzzle, &limits, &mut |grid| {
        solutions.item(text, &puzzle.line_form(grid));
        flush.after_solution(text)
    });
    flush.finish()?;
    solutions.end(text);
    Ok(end_every_solution_json(
        record,
        &report,
        solver.learnt(),
        text,
    ))
}

/// Ends the JSON record of every solution (classic or variant) after its
/// solutions: the verdict of `report`, whether the search was complete,
/// its nodes, and the clauses it learnt (if it did).
fn end_every_solution_json(
    mut record: JsonObject,
    report: &Report,
    learnt: Option<u64>,
    text: &mut String,
) -> Answered {
    let answered = Answered {
        solved: report.stats.solutions > 0,
        gave_up: report.outcome.gave_up(),
        stats: report.stats,
        learnt,
    };
    let verdict = Verdict::of(answered.gave_up, answered.solved, answered.stats);
    record.field(text, "status", verdict.status());
    record.field(text, "complete", &report.outcome.is_complete());
    record.field(text, "nodes", &report.stats.nodes);
    if let Some(learnt) = learnt {
        record.field(text, "learnt", &learnt);
    }
    record.end(text);
    answered
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

/// A puzzle that could not be read (or that the mode cannot answer), and
/// the layout of its input (which says how many lines stand in its
/// place).
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

/// What [`answer`] asks of an engine: the methods of the search engines'
/// [`Solver`] it calls, which the SAT engine has too.
pub trait GridSearch {
    /// The first solution, handed to `visit`.
    fn first_with(&mut self, puzzle: &Puzzle, visit: &mut dyn FnMut(&[u8])) -> Report;
    /// Every solution within `limits`, each handed to `visit`.
    fn solve(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        visit: &mut dyn FnMut(&[u8]) -> Control,
    ) -> Report;
    /// The number of solutions, up to `limit`.
    fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report;
    /// The clauses the last call learnt from conflicts, if it learnt
    /// (`None`: search alone answered).
    fn learnt(&self) -> Option<u64> {
        None
    }
}

impl GridSearch for Solver {
    fn first_with(&mut self, puzzle: &Puzzle, visit: &mut dyn FnMut(&[u8])) -> Report {
        Solver::first_with(self, puzzle, visit)
    }

    fn solve(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        visit: &mut dyn FnMut(&[u8]) -> Control,
    ) -> Report {
        Solver::solve(self, puzzle, limits, visit)
    }

    fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report {
        Solver::count(self, puzzle, limit)
    }
}

/// The engines of one thread: the search engines' solver, and the SAT
/// engine (`--engine sat`).
struct Worker {
    solver: Solver,
    /// Also the CNF writer of `--cnf`.
    sat: SatEngine,
}

/// `cover sudoku` as a [`Batch`].
struct SudokuBatch<'a> {
    args: &'a SudokuArgs,
    engine: Engine,
    /// Whether classic puzzles are answered by SAT (`--engine sat`).
    #[cfg(feature = "sat")]
    sat: bool,
    /// Whether a classic puzzle that search finds nothing of soon goes to
    /// SAT (`--engine auto`).
    #[cfg(feature = "sat")]
    fallback: bool,
    level: Level,
    style: Style,
}

impl Batch for SudokuBatch<'_> {
    type Instance = Entry;
    type Error = Unreadable;
    type Worker = Worker;
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
    fn weight(&self, entry: &Entry) -> usize {
        match entry {
            Entry::Classic(puzzle) => puzzle.cells.len(),
            // An f-puzzles document is held whole, with its answer.
            Entry::Variant(puzzle) => 4 * puzzle.cells.len(),
        }
    }

    fn streaming(&self) -> bool {
        // One puzzle's output has no bound, or one larger than a chunk's.
        matches!(self.style.mode, Mode::Search(Search::All { limit }) if limit.is_none_or(|n| n > CHUNK as u64))
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self> {
        // Each bad puzzle with the layout at its place.
        let context = |puzzles: &SudokuReader, error| Unreadable {
            error,
            layout: puzzles.layout().unwrap_or(Layout::Line),
        };
        let puzzles = SudokuReader::new(reader, self.args.symbols.clone());
        Box::new(WithContext::new(puzzles, context))
    }

    fn worker(&self) -> Worker {
        let mut solver = Solver::new(self.engine);
        solver.propagate(self.level);
        Worker {
            solver,
            sat: SatEngine::default(),
        }
    }

    fn answer(
        &self,
        worker: &mut Worker,
        at: At<'_>,
        entry: &Entry,
        text: &mut String,
        flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Answered> {
        if self.args.cnf {
            return Ok(write_cnf(&mut worker.sat, at, entry, text));
        }
        let puzzle = match entry {
            Entry::Classic(puzzle) => puzzle,
            Entry::Variant(puzzle) => {
                return variant::answer(puzzle, at, self.style, text, flush);
            }
        };
        #[cfg(feature = "sat")]
        if self.sat {
            let sat = &mut worker.sat;
            sat.limit(self.style.max_nodes, self.style.time_limit.limit);
            return answer(sat, puzzle, at, self.style, text, flush);
        }
        let solver = &mut worker.solver;
        let share = rayon::current_num_threads() > 1 && puzzle.size.side() <= MAX_SHARED_SIDE;
        solver.split_after(share.then_some(SPLIT_AFTER));
        #[cfg(feature = "sat")]
        if self.fallback {
            let mut fallback = Fallback {
                solver,
                sat: &mut worker.sat,
                budget: sat::SEARCH_FIRST,
                max_nodes: self.style.max_nodes,
                time_limit: self.style.time_limit.limit,
                learnt: None,
            };
            return answer(&mut fallback, puzzle, at, self.style, text, flush);
        }
        solver.max_nodes(self.style.max_nodes);
        solver.time_limit(self.style.time_limit.limit);
        answer(solver, puzzle, at, self.style, text, flush)
    }

    fn verdict(&self, answered: &Answered) -> Verdict {
        Verdict::of(answered.gave_up, answered.solved, answered.stats)
    }

    fn learnt(&self, answered: &Answered) -> Option<u64> {
        answered.learnt
    }

    /// A puzzle on one line (its first word n⁴ symbols long, n from 2:
    /// 16, 81, 256, ...), a variant line included, with no `/` in it.
    fn is_instance_text(&self, argument: &str) -> bool {
        let first = argument.split_whitespace().next().unwrap_or("");
        let cells = first.chars().count();
        !argument.contains('/')
            && (2..=8usize).any(|n| n.pow(4) == cells)
            && first.chars().all(|c| !c.is_control())
    }

    fn invalid(&self, at: At<'_>, unreadable: &Unreadable, text: &mut String) {
        write_invalid(text, at, &unreadable.error, unreadable.layout, self.style);
    }

    /// Why logic cannot rate or explain a variant, said before the
    /// `gave up` that stands in place of its answer.
    fn warnings(&self, entry: &Entry) -> Vec<(usize, String)> {
        match entry {
            Entry::Variant(puzzle) if self.args.cnf => {
                vec![(puzzle.line, NOT_EXACT_COVER.to_owned())]
            }
            Entry::Variant(puzzle) if matches!(self.style.mode, Mode::Rate | Mode::Explain) => {
                variant::not_for_logic(puzzle)
                    .map(|why| (puzzle.line, why))
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// Why a variant has no CNF.
const NOT_EXACT_COVER: &str =
    "--cnf writes classic puzzles only: a variant's cages and lines are not exact cover";

/// `--cnf`: appends the CNF of a classic puzzle after the line naming it;
/// of a variant, that line and why it has none.
fn write_cnf(sat: &mut SatEngine, at: At<'_>, entry: &Entry, text: &mut String) -> Answered {
    let (line, puzzle) = match entry {
        Entry::Classic(puzzle) => (puzzle.line, Some(puzzle)),
        Entry::Variant(puzzle) => (puzzle.line, None),
    };
    text.push_str(&format!("c puzzle {} {}:{line}\n", at.index, at.file));
    let Some(puzzle) = puzzle else {
        text.push_str(&format!("c no CNF: {NOT_EXACT_COVER}\n"));
        return Answered {
            solved: false,
            gave_up: true,
            stats: Stats::default(),
            learnt: None,
        };
    };
    let mut cnf = Vec::new();
    sat.write_cnf(puzzle, &mut cnf)
        .expect("writing to memory does not fail");
    text.push_str(&String::from_utf8(cnf).expect("the CNF is ASCII, its symbols UTF-8"));
    Answered {
        solved: true,
        gave_up: false,
        stats: Stats::default(),
        learnt: None,
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
    #[cfg(feature = "sat")]
    if args.engine == EngineArg::Sat
        && matches!(args.propagate, PropagateArg::Basic | PropagateArg::Full)
    {
        anyhow::bail!(
            "--engine sat learns from conflicts; --propagate basic and full are for the \
             exact-cover engines (compact, linked)"
        );
    }
    let batch = SudokuBatch {
        args,
        engine: Engine::from(args.engine),
        #[cfg(feature = "sat")]
        sat: args.engine == EngineArg::Sat,
        #[cfg(feature = "sat")]
        fallback: args.engine == EngineArg::Auto,
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
        cover_models::sudoku::Puzzles::new(text.as_bytes(), None)
            .next()
            .unwrap()
            .unwrap()
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
