//! `cargo xtask verify --datasets [--quick] [--bin PATH] [--set NAME ...]`:
//! every public set of `../shared/datasets/` (`COVER_SHARED=DIR` points
//! elsewhere; absent, it says so and succeeds) and the problems of
//! `../shared/xc/` through the release binary, where scale shows: 49,158
//! 17-clue puzzles, puzzles with up to 1,555 solutions, 16×16 and 25×25
//! grids, Knuth's counts.
//!
//! It trusts neither the engines nor the parsers and uses neither: inputs
//! and answers are read and judged by `cover-check` ([`sudoku::check_grid`],
//! [`radar::check_json_output`], [`target::check_shown_output`],
//! [`exact::check_knuth_all_text`]); counts are compared with what the
//! sources state or, for small sets, with [`sudoku::count_within`].
//!
//! Each set runs through every engine that `cover CMD --help` lists (read
//! at run time, so a new engine is soaked unedited), on one thread and on
//! all cores, in each mode (sudoku: first solution and `--count --limit
//! 2`; radar and target: the answer, and the checked `--json` or
//! `--show`); all-cores output must be the one-thread bytes. Per sudoku
//! set, `engines agree`: equal counts everywhere, and `no solution` exactly
//! where a count is 0. The xc problems must give Knuth's solutions, nodes
//! and updates on any thread count, and `--all --limit 1000` covers that
//! pass the checker. Only the 25×25 set runs with `--max-nodes` (its
//! `gave up` lines are counted, not failed): a bounded search stays on one
//! thread, which would keep the sharing the `--jobs` comparison tests from
//! running; a time limit per run guards against hangs instead.
//!
//! `--quick` takes the first [`QUICK_PUZZLES`] puzzles of each set; `--set`
//! names sets (file names without extension, or a folder such as
//! `sudoku9`, `samples`, `xc`). One line per run, then `verify --datasets:
//! N passed, M failed`; the exit status is 1 when anything failed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use cover_check::exact::{self, check_knuth_all_text};
use cover_check::manifest::Layout;
use cover_check::process::{self, Run};
use cover_check::{radar, sudoku, target};

use super::runner::{first_difference, one_per};
use crate::bench::harness::{parse_xcc_reference, read_reference, Program};
use crate::paths;

/// `--count --limit LIMIT`: enough to tell one solution from several.
const LIMIT: u64 = 2;

/// `--quick` soaks this many puzzles of each set.
pub const QUICK_PUZZLES: usize = 2000;

/// The node budget of the 25×25 set, whose puzzles plain DLX cannot solve
/// in reasonable time (the datasets' README: none of 18 in 2e7 nodes).
const GECODE_25_MAX_NODES: u64 = 200_000;

/// The recount gives up (the count stays unknown) after this many nodes.
const RECOUNT_BUDGET: u64 = 2_000_000;

/// A FAIL line shows at most this many reasons.
const REASONS_SHOWN: usize = 3;

// ---------------------------------------------------------------------------
// The sets.

/// What is known of a sudoku set's solution counts, and from where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counts {
    /// The datasets' README: every puzzle has exactly one solution.
    Unique,
    /// The README: every puzzle has two or more, so `--limit 2` counts 2.
    Multiple,
    /// The file states each count: `puzzle:count[:solution]` (tdoku).
    Stated,
    /// No source states them; they are recounted here (small sets).
    Recount,
    /// Not known, and too hard to recount: the engines must agree.
    Unknown,
}

/// How a sudoku set is read and run.
#[derive(Debug, Clone, Copy)]
struct SudokuSet {
    layout: Layout,
    counts: Counts,
    /// `--max-nodes`; when set, `gave up` answers are allowed (and counted).
    max_nodes: Option<u64>,
    /// The field of a line (from 0, split at white space) that holds the
    /// puzzle, when other fields come before it (`hash puzzle rating`).
    column: Option<usize>,
}

/// The command a set is for.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Sudoku(SudokuSet),
    Radar,
    Target,
}

/// One dataset file and how to soak it.
struct Set {
    /// The file, relative to the datasets folder.
    file: &'static str,
    kind: Kind,
}

const fn set(file: &'static str, kind: Kind) -> Set {
    Set { file, kind }
}

/// A set of one puzzle a line, run without `--max-nodes` (every set runs
/// without `--symbols`: `cover` reads each puzzle's symbols itself).
const LINES: SudokuSet = SudokuSet {
    layout: Layout::Line,
    counts: Counts::Unique,
    max_nodes: None,
    column: None,
};

const fn lines(counts: Counts) -> Kind {
    Kind::Sudoku(SudokuSet { counts, ..LINES })
}

const fn grids(counts: Counts) -> Kind {
    Kind::Sudoku(SudokuSet {
        layout: Layout::Grid,
        counts,
        ..LINES
    })
}

/// Every file of the datasets (but the README and the `.out` files, which
/// go with their `.in`); a file missing here fails the soak, so that a new
/// dataset is not left out unseen.
const SETS: &[Set] = &[
    set("sudoku9/17_clue.txt", lines(Counts::Unique)),
    set("sudoku9/magictour_top1465.txt", lines(Counts::Unique)),
    set(
        "sudoku9/forum_hardest_1905_11plus.txt",
        lines(Counts::Unique),
    ),
    set("sudoku9/forum_hardest_1106.txt", lines(Counts::Unique)),
    set("sudoku9/serg_benchmark_multi.txt", lines(Counts::Multiple)),
    set(
        "sudoku9/tdoku_test_puzzles_with_counts.txt",
        lines(Counts::Stated),
    ),
    // `hash puzzle rating` lines, Sukaku Explainer's ratings (issue 34).
    set(
        "sudoku9/se_rated.txt",
        Kind::Sudoku(SudokuSet {
            column: Some(1),
            ..LINES
        }),
    ),
    set("sudoku9/top95.txt", lines(Counts::Unique)),
    set("sudoku9/hardest.txt", lines(Counts::Unique)),
    set("sudoku9/gecode_9x9.txt", lines(Counts::Recount)),
    set("sudoku16/gecode_16x16.txt", lines(Counts::Unique)),
    set("sudoku16/satsolvers_16x16.txt", lines(Counts::Unique)),
    set(
        "sudoku25/gecode_25x25.txt",
        Kind::Sudoku(SudokuSet {
            counts: Counts::Unknown,
            max_nodes: Some(GECODE_25_MAX_NODES),
            ..LINES
        }),
    ),
    set("samples/poj3074_sample.in", lines(Counts::Recount)),
    // POJ 3076: 16×16 grids of letters A-P, the default 16×16 symbols.
    set("samples/poj3076_sample.in", grids(Counts::Recount)),
    // Luogu P1784: one 9×9 grid of numbers separated by spaces, 0 empty.
    set("samples/p1784_sample.in", grids(Counts::Recount)),
    set("samples/hdu2295_sample.in", Kind::Radar),
    set("samples/p1074_sample1.in", Kind::Target),
    set("samples/p1074_sample2.in", Kind::Target),
];

impl Set {
    /// What `--set` calls it: the file name without its extension.
    fn name(&self) -> &'static str {
        let base = self.file.rsplit('/').next().unwrap_or(self.file);
        base.split_once('.').map_or(base, |(stem, _)| stem)
    }

    /// Whether `--set NAME` selects this set: its name or its folder.
    fn is_named(&self, name: &str) -> bool {
        self.name() == name || self.file.split('/').next() == Some(name)
    }
}

// ---------------------------------------------------------------------------
// Reading help texts and datasets.

/// The values of `--engine` in a `cover CMD --help` text: clap's long form
/// (`Possible values:` then one `- NAME: what` line each, maybe wrapped
/// onto deeper-indented lines) or its short form (`[possible values: a,
/// b]`). Empty when the command has no `--engine`.
pub fn engines_from_help(help: &str) -> Vec<String> {
    let is_option = |line: &str| {
        let t = line.trim_start();
        t.starts_with("--")
            || (t.starts_with('-') && t[1..].starts_with(|c: char| c.is_ascii_alphanumeric()))
    };
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--engine"));
    let Some(first) = lines.next() else {
        return Vec::new();
    };
    // The option's own lines: up to the next option.
    let section: Vec<&str> = std::iter::once(first)
        .chain(lines.take_while(|l| !is_option(l)))
        .collect();
    if let Some(list) = section.iter().find_map(|l| {
        let (_, rest) = l.split_once("[possible values: ")?;
        Some(rest.split(']').next().unwrap_or(""))
    }) {
        return list.split(',').map(|v| v.trim().to_owned()).collect();
    }
    let mut values = Vec::new();
    let mut item_indent = None;
    let after = section
        .iter()
        .skip_while(|l| l.trim() != "Possible values:")
        .skip(1);
    for line in after {
        if line.trim().is_empty() {
            break;
        }
        let indent = line.len() - line.trim_start().len();
        let item = match (line.trim().strip_prefix("- "), item_indent) {
            (Some(item), None) => {
                item_indent = Some(indent);
                item
            }
            (Some(item), Some(at)) if indent == at => item,
            (_, Some(at)) if indent > at => continue, // A wrapped description.
            _ => break,
        };
        let name = item.split(':').next().unwrap_or(item).trim();
        values.push(name.to_owned());
    }
    values
}

/// A `puzzle:count[:solution]` line of tdoku's file: the count and, when
/// given, the solution.
pub fn stated_count(line: &str) -> Option<(u64, Option<&str>)> {
    let mut fields = line.trim().split(':');
    let _puzzle = fields.next()?;
    let count = fields.next()?.trim().parse().ok()?;
    let solution = fields.next().map(str::trim).filter(|s| !s.is_empty());
    Some((count, solution))
}

/// What the soak knows of one puzzle beforehand.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Known {
    /// Its count, at most [`LIMIT`]; `None` when not known.
    count: Option<u64>,
    /// Its solution, when a source states it and it is the only one.
    solution: Option<String>,
}

/// The puzzles of a sudoku set, kept as their text: a line each for line
/// sets (the cells are read again when needed, so that 49,158 puzzles
/// cost their 4 MB of text, not 81 strings each), cells for grid sets
/// (the samples, a few puzzles).
enum Puzzles {
    Lines(Vec<String>),
    Grids(Vec<Vec<String>>),
}

impl Puzzles {
    fn len(&self) -> usize {
        match self {
            Puzzles::Lines(lines) => lines.len(),
            Puzzles::Grids(grids) => grids.len(),
        }
    }

    /// The cells of puzzle `k`, as written, read by `cover-check`.
    fn cells(&self, k: usize) -> Vec<String> {
        match self {
            Puzzles::Lines(lines) => sudoku::read_puzzles(&lines[k], Layout::Line)
                .pop()
                .unwrap_or_default(),
            Puzzles::Grids(grids) => grids[k].clone(),
        }
    }

    /// The text of puzzle `k`'s line (line sets).
    fn line(&self, k: usize) -> Option<&str> {
        match self {
            Puzzles::Lines(lines) => lines.get(k).map(String::as_str),
            Puzzles::Grids(_) => None,
        }
    }
}

/// A line set cut to its first `first` puzzles: the input to give `cover`
/// (a prefix of `text`, bytes unchanged, CRLF and all) and the puzzle
/// lines. Lines that `cover-check`'s reader skips (comments, blank) are
/// no puzzles; a line `end` ends the input, as for it and for `cover`.
fn cut_lines(text: &str, first: Option<usize>) -> (&str, Vec<String>) {
    let mut puzzles = Vec::new();
    let mut end = 0;
    let mut cut = false;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        if line.trim().eq_ignore_ascii_case("end") {
            break;
        }
        // Passed alone, the first line still has its byte-order mark,
        // which the reader strips.
        if !sudoku::read_puzzles(line, Layout::Line).is_empty() {
            if first.is_some_and(|n| puzzles.len() >= n) {
                cut = true;
                break;
            }
            puzzles.push(line.to_owned());
        }
        end += raw.len();
    }
    // A whole file goes to `cover` unchanged, `end` and what follows too.
    if !cut {
        end = text.len();
    }
    (&text[..end], puzzles)
}

/// `text` with each line that is not a comment cut to its field `column`
/// (split at white space); a line without that field stays as it is.
fn puzzle_column(text: &str, column: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let field = line.split_whitespace().nth(column);
        match field {
            Some(field) if !line.starts_with('#') => out.push_str(field),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A sudoku set, read: the input for `cover`, the puzzles and what is
/// known of each.
struct SudokuInput<'a> {
    input: &'a str,
    puzzles: Puzzles,
    known: Vec<Known>,
}

fn read_sudoku<'a>(
    text: &'a str,
    set: &SudokuSet,
    first: Option<usize>,
) -> Result<SudokuInput<'a>, String> {
    let (input, puzzles) = match set.layout {
        Layout::Line => {
            let (input, lines) = cut_lines(text, first);
            (input, Puzzles::Lines(lines))
        }
        // Grid sets are the samples, of a few puzzles: never cut.
        Layout::Grid => (
            text,
            Puzzles::Grids(sudoku::read_puzzles(text, Layout::Grid)),
        ),
    };
    let mut known = Vec::with_capacity(puzzles.len());
    for k in 0..puzzles.len() {
        let just = |count| Known {
            count,
            solution: None,
        };
        known.push(match set.counts {
            Counts::Unique => just(Some(1)),
            Counts::Multiple => just(Some(LIMIT)),
            Counts::Unknown => just(None),
            Counts::Stated => {
                let line = puzzles.line(k).unwrap_or("");
                let (count, solution) = stated_count(line)
                    .ok_or_else(|| format!("puzzle {}: no `puzzle:count` line", k + 1))?;
                Known {
                    count: Some(count.min(LIMIT)),
                    solution: solution.filter(|_| count == 1).map(str::to_owned),
                }
            }
            Counts::Recount => {
                let cells = puzzles.cells(k);
                let side = cells.len().isqrt();
                let digits =
                    sudoku::digits(&cells, None).map_err(|e| format!("puzzle {}: {e}", k + 1))?;
                just(sudoku::count_within(&digits, side, LIMIT, RECOUNT_BUDGET))
            }
        });
    }
    Ok(SudokuInput {
        input,
        puzzles,
        known,
    })
}

// ---------------------------------------------------------------------------
// Judging outputs.

/// What an output said of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Solved,
    NoSolution,
    GaveUp,
    Invalid,
    Count(u64),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Answer::Solved => write!(f, "a grid"),
            Answer::NoSolution => write!(f, "no solution"),
            Answer::GaveUp => write!(f, "gave up"),
            Answer::Invalid => write!(f, "invalid"),
            Answer::Count(n) => write!(f, "{n}"),
        }
    }
}

/// The reasons a run failed: the first few, and how many in all.
#[derive(Debug, Clone, Default)]
struct Problems {
    shown: Vec<String>,
    total: usize,
}

impl Problems {
    /// The problems of a check: none, or its reason.
    fn of(outcome: Result<(), String>) -> Problems {
        let mut problems = Problems::default();
        if let Err(reason) = outcome {
            problems.push(reason);
        }
        problems
    }

    /// The problems of a check that lists them all.
    fn all(reasons: Vec<String>) -> Problems {
        let mut problems = Problems::default();
        reasons.into_iter().for_each(|r| problems.push(r));
        problems
    }

    fn push(&mut self, reason: String) {
        if self.shown.len() < REASONS_SHOWN {
            self.shown.push(reason);
        }
        self.total += 1;
    }

    fn is_empty(&self) -> bool {
        self.total == 0
    }

    fn extend(&mut self, other: &Problems) {
        let room = REASONS_SHOWN.saturating_sub(self.shown.len());
        self.shown.extend(other.shown.iter().take(room).cloned());
        self.total += other.total;
    }
}

/// The judgement of one output: what it answered per puzzle, what was
/// wrong with it, and the exit status its answers call for.
#[derive(Debug, Clone, Default)]
struct Verdict {
    answers: Vec<Answer>,
    problems: Problems,
    exit: i32,
}

impl Verdict {
    fn gave_up(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| **a == Answer::GaveUp)
            .count()
    }
}

/// The exit status `cover` documents for these answers: 2 for an invalid
/// puzzle, else 1 when one has no solution (or count 0) or gave up, else 0.
fn exit_for(answers: &[Answer]) -> i32 {
    if answers.contains(&Answer::Invalid) {
        2
    } else if answers
        .iter()
        .any(|a| matches!(a, Answer::NoSolution | Answer::GaveUp | Answer::Count(0)))
    {
        1
    } else {
        0
    }
}

/// The answers either mode may give instead of one: `gave up` (right only
/// with `--max-nodes`) and `invalid` (never right: every puzzle is valid).
fn refusal(text: &str, gave_up_ok: bool, fail: &mut dyn FnMut(String)) -> Answer {
    if text == "invalid" {
        fail("marked `invalid`".to_owned());
        return Answer::Invalid;
    }
    if !gave_up_ok {
        fail("`gave up` without --max-nodes".to_owned());
    }
    Answer::GaveUp
}

/// Judges a first-solution output (`cover sudoku`): one answer per puzzle
/// in the input's layout; each grid checked by `sudoku::check_grid`
/// and, where a source states the only solution, equal to it; `no
/// solution` only where the count is 0 or unknown; `gave up` only when
/// `gave_up_ok`.
fn judge_first(
    stdout: &str,
    layout: Layout,
    puzzles: &Puzzles,
    known: &[Known],
    gave_up_ok: bool,
) -> Verdict {
    let units = sudoku::answer_units(stdout, layout == Layout::Grid);
    let (answers, count) = ((units.len(), "answers"), (puzzles.len(), "puzzles"));
    let mut verdict = Verdict {
        problems: Problems::of(one_per(answers, count)),
        ..Verdict::default()
    };
    for (k, (unit, known)) in units.iter().zip(known).enumerate() {
        let mut fail = |m: String| verdict.problems.push(format!("puzzle {}: {m}", k + 1));
        let answer = match unit[..] {
            ["no solution"] => {
                if let Some(n) = known.count.filter(|&n| n > 0) {
                    fail(format!("`no solution`, but it has {n}"));
                }
                Answer::NoSolution
            }
            [refused @ ("gave up" | "invalid")] => refusal(refused, gave_up_ok, &mut fail),
            _ => {
                // Read as the sudoku family reads answers.
                let cells = sudoku::answer_cells(unit, layout == Layout::Grid);
                if let Err(m) = sudoku::check_grid(&puzzles.cells(k), &cells, None) {
                    fail(m);
                } else if known.count == Some(0) {
                    fail("a grid for a puzzle without solution".to_owned());
                } else if let Some(want) = &known.solution {
                    if cells.concat() != *want {
                        fail(format!("not the only solution {want}"));
                    }
                }
                Answer::Solved
            }
        };
        verdict.answers.push(answer);
    }
    verdict.exit = exit_for(&verdict.answers);
    verdict
}

/// Judges a `--count --limit 2` output: one count per puzzle (or `gave up
/// after N solutions`, N no more than the count, when `gave_up_ok`), each
/// the known count where it is known.
fn judge_counts(stdout: &str, known: &[Known], gave_up_ok: bool) -> Verdict {
    let lines: Vec<&str> = stdout.lines().collect();
    let (counts, puzzles) = ((lines.len(), "counts"), (known.len(), "puzzles"));
    let mut verdict = Verdict {
        problems: Problems::of(one_per(counts, puzzles)),
        ..Verdict::default()
    };
    for (k, (line, known)) in lines.iter().zip(known).enumerate() {
        let mut fail = |m: String| verdict.problems.push(format!("puzzle {}: {m}", k + 1));
        let answer = match (*line, line.parse::<u64>()) {
            ("invalid", _) => refusal(line, gave_up_ok, &mut fail),
            // A count that gave up says how many it had found by then.
            _ if cover_check::gave_up_count(line).is_some() => {
                let found = cover_check::gave_up_count(line).unwrap_or(0);
                match known.count {
                    Some(want) if found > want => fail(format!("gave up after {found}, of {want}")),
                    _ if found > LIMIT => {
                        fail(format!("gave up after {found}, past --limit {LIMIT}"))
                    }
                    _ => {}
                }
                refusal("gave up", gave_up_ok, &mut fail)
            }
            (_, Ok(n)) => {
                match known.count {
                    Some(want) if want != n => fail(format!("counts {n}, expected {want}")),
                    _ if n > LIMIT => fail(format!("counts {n} past --limit {LIMIT}")),
                    _ => {}
                }
                Answer::Count(n)
            }
            (_, Err(_)) => {
                fail(format!("{line:?} is not a count"));
                Answer::Invalid
            }
        };
        verdict.answers.push(answer);
    }
    verdict.exit = exit_for(&verdict.answers);
    verdict
}

/// Whether two outputs are the same as online judges compare them: line
/// by line, ignoring white space at line ends and blank lines at the end
/// (Luogu's P1784 sample output has no blank line after its grid, which
/// `cover` prints after every grid).
pub fn judge_equal(a: &str, b: &str) -> bool {
    fn lines(text: &str) -> Vec<&str> {
        let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        while lines.last() == Some(&"") {
            lines.pop();
        }
        lines
    }
    lines(a) == lines(b)
}

/// Checks `--engine E --count` against first-solution answers and across
/// engines: `engines[e]` holds engine e's name, its first answers and its
/// counts (one-thread runs). Puzzles an engine gave up on are skipped.
fn judge_agreement(engines: &[(String, Vec<Answer>, Vec<Answer>)]) -> Problems {
    let mut problems = Problems::default();
    for (name, first, counts) in engines {
        for (k, (f, c)) in first.iter().zip(counts).enumerate() {
            let consistent = match (f, c) {
                (Answer::GaveUp, _) | (_, Answer::GaveUp) => true,
                (Answer::NoSolution, Answer::Count(n)) => *n == 0,
                (Answer::Solved, Answer::Count(n)) => *n > 0,
                _ => false,
            };
            if !consistent {
                problems.push(format!(
                    "puzzle {}: {name} answers {f} but counts {c}",
                    k + 1
                ));
            }
        }
    }
    // Every engine against the first.
    if let Some(((base, _, reference), others)) = engines.split_first() {
        for (name, _, counts) in others {
            for (k, (a, b)) in reference.iter().zip(counts).enumerate() {
                if a != b && !matches!((a, b), (Answer::GaveUp, _) | (_, Answer::GaveUp)) {
                    problems.push(format!("puzzle {}: {base} counts {a}, {name} {b}", k + 1));
                }
            }
            if reference.len() != counts.len() {
                let (r, c) = (reference.len(), counts.len());
                problems.push(format!("{base} counts {r} puzzles, {name} {c}"));
            }
        }
    }
    problems
}

// ---------------------------------------------------------------------------
// Running the binary.

/// Runs `cover ARGS` with `input` on its standard input (see
/// [`process::run`]).
fn run_cover(cover: &Path, args: &[String], input: &str, timeout: Duration) -> Result<Run, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    process::run(cover, &args, input.as_bytes(), timeout)
}

/// How long a run may take: far more than any engine needs (the slowest,
/// the linked engine counting forum_hardest_1905_11plus on one thread,
/// takes about 1 ms a puzzle here), so only a hang reaches it.
fn timeout_for(puzzles: usize) -> Duration {
    Duration::from_secs(120) + Duration::from_millis(20) * puzzles as u32
}

// ---------------------------------------------------------------------------
// The soak.

/// What every set's runs share.
struct Soak {
    cover: PathBuf,
    datasets: PathBuf,
    /// `--jobs` values: one thread, and all cores.
    jobs: [usize; 2],
    /// `--quick`: soak only this many puzzles of each set.
    first: Option<usize>,
    passed: usize,
    failed: usize,
}

/// One line of the table.
#[derive(Default)]
struct Row<'a> {
    set: &'a str,
    engine: &'a str,
    jobs: String,
    mode: &'a str,
    puzzles: usize,
    seconds: Option<f64>,
    problems: Problems,
    /// Said after OK or FAIL (`, 18 gave up`).
    note: String,
    /// How to run it again, shown under a FAIL.
    rerun: Option<String>,
}

/// What one set gives `cover`.
struct Input<'a> {
    set: &'a Set,
    /// The `cover` subcommand.
    command: &'a str,
    /// Standard input.
    text: &'a str,
    /// Puzzles or cases in `text`.
    units: usize,
    /// Whether `text` is only the first part of the file (`--quick`).
    cut: bool,
}

impl Soak {
    fn report(&mut self, row: Row) {
        let (seconds, rate) = match row.seconds {
            Some(s) => (
                format!("{s:.2}"),
                format!("{:.0}", row.puzzles as f64 / s.max(1e-9)),
            ),
            None => ("-".to_owned(), "-".to_owned()),
        };
        let result = if row.problems.is_empty() {
            self.passed += 1;
            format!("OK{}", row.note)
        } else {
            self.failed += 1;
            let total = row.problems.total;
            let plural = if total == 1 { "" } else { "s" };
            format!(
                "FAIL{} ({total} problem{plural}): {}",
                row.note,
                row.problems.shown.join("; ")
            )
        };
        println!(
            "{:<30} {:<8} {:>4} {:<6} {:>7} {:>8} {:>10}  {result}",
            row.set, row.engine, row.jobs, row.mode, row.puzzles, seconds, rate
        );
        if let (false, Some(rerun)) = (row.problems.is_empty(), row.rerun) {
            println!("{:<30} rerun: {rerun}", "");
        }
    }

    /// A set that could not be soaked (or a file with no set).
    fn fail_set(&mut self, set: &str, reason: String) {
        self.report(Row {
            set,
            engine: "-",
            jobs: "-".to_owned(),
            mode: "-",
            problems: Problems::of(Err(reason)),
            ..Row::default()
        });
    }

    /// The engines `cover COMMAND --help` lists; `[None]` (run without
    /// `--engine`) when it lists none.
    fn engines(&self, command: &str) -> Result<Vec<Option<String>>, String> {
        let args = [command.to_owned(), "--help".to_owned()];
        let run = run_cover(&self.cover, &args, "", Duration::from_secs(30))?;
        if run.code != Some(0) {
            return Err(format!(
                "`cover {command} --help` exited with {:?}",
                run.code
            ));
        }
        let engines = engines_from_help(&run.stdout);
        if engines.is_empty() {
            return Ok(vec![None]);
        }
        Ok(engines.into_iter().map(Some).collect())
    }

    /// Runs one engine in one mode (its name and arguments) on one thread
    /// and on all cores, and reports a line for each. The one-thread output
    /// is judged by `judge`; the all-cores output must be the same bytes,
    /// and then has the same verdict (judged again only when it differs).
    /// Returns the one-thread verdict.
    fn run_both(
        &mut self,
        input: &Input,
        engine: &Option<String>,
        mode: (&str, &[&str]),
        judge: &dyn Fn(&str) -> Verdict,
    ) -> Verdict {
        let mut one_thread: Option<(String, Verdict)> = None;
        for jobs in self.jobs {
            let mut args = vec![input.command.to_owned()];
            if let Some(engine) = engine {
                args.extend(["--engine".to_owned(), engine.clone()]);
            }
            args.extend(["--jobs".to_owned(), jobs.to_string()]);
            args.extend(mode.1.iter().map(|a| a.to_string()));
            let rerun = format!(
                "cover {} < {}{}",
                args.join(" "),
                self.datasets.join(input.set.file).display(),
                if input.cut {
                    format!(" (its first {} puzzles)", input.units)
                } else {
                    String::new()
                }
            );
            let row = Row {
                set: input.set.name(),
                engine: engine.as_deref().unwrap_or("-"),
                jobs: jobs.to_string(),
                mode: mode.0,
                puzzles: input.units,
                rerun: Some(rerun),
                ..Row::default()
            };
            let mut verdict = Verdict::default();
            let timeout = timeout_for(input.units);
            let run = self.run_row(row, &args, input.text, timeout, true, &mut |run, row| {
                verdict = match &one_thread {
                    Some((stdout, verdict)) if *stdout == run.stdout => verdict.clone(),
                    Some((stdout, _)) => {
                        row.problems.push(format!(
                            "differs from --jobs 1 at line {}",
                            first_difference(stdout, &run.stdout)
                        ));
                        judge(&run.stdout)
                    }
                    None => judge(&run.stdout),
                };
                row.problems.extend(&verdict.problems);
                let gave_up = verdict.gave_up();
                if gave_up > 0 {
                    row.note = format!(", {gave_up} gave up");
                }
                verdict.exit
            });
            if let (None, Some(run)) = (&one_thread, run) {
                one_thread = Some((run.stdout, verdict));
            }
        }
        one_thread.map(|(_, v)| v).unwrap_or_default()
    }

    /// A sudoku set: per engine, first solutions and `--count --limit 2`,
    /// then the engines' agreement.
    fn soak_sudoku(&mut self, set: &Set, sudoku: &SudokuSet, engines: &[Option<String>]) {
        let path = self.datasets.join(set.file);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => return self.fail_set(set.name(), format!("{}: {e}", path.display())),
        };
        let text = match sudoku.column {
            Some(column) => puzzle_column(&text, column),
            None => text,
        };
        let read = match read_sudoku(&text, sudoku, self.first) {
            Ok(read) => read,
            Err(e) => return self.fail_set(set.name(), e),
        };
        let unknown = read.known.iter().filter(|k| k.count.is_none()).count();
        if sudoku.counts == Counts::Recount && unknown > 0 {
            let reason = format!("{unknown} puzzles not recounted within {RECOUNT_BUDGET} nodes");
            self.fail_set(set.name(), reason);
        }
        let input = Input {
            set,
            command: "sudoku",
            text: read.input,
            units: read.puzzles.len(),
            cut: read.input.len() < text.len(),
        };
        let out_path = path.with_extension("out");
        let expected_out = std::fs::read_to_string(&out_path).ok();
        let mut extra: Vec<String> = Vec::new();
        if let Some(nodes) = sudoku.max_nodes {
            extra.extend(["--max-nodes".to_owned(), nodes.to_string()]);
        }
        let gave_up_ok = sudoku.max_nodes.is_some();
        let first_args: Vec<&str> = extra.iter().map(String::as_str).collect();
        let count_args: Vec<&str> = ["--count", "--limit", "2"]
            .into_iter()
            .chain(first_args.iter().copied())
            .collect();
        let first = |stdout: &str| {
            let mut verdict = judge_first(
                stdout,
                sudoku.layout,
                &read.puzzles,
                &read.known,
                gave_up_ok,
            );
            if let Some(want) = expected_out.as_deref().filter(|_| !input.cut) {
                if !judge_equal(stdout, want) {
                    verdict.problems.push(format!(
                        "differs from {} at line {}",
                        out_path.display(),
                        first_difference(stdout, want)
                    ));
                }
            }
            verdict
        };
        let counts = |stdout: &str| judge_counts(stdout, &read.known, gave_up_ok);
        let mut answers = Vec::new();
        for engine in engines {
            let f = self.run_both(&input, engine, ("first", &first_args), &first);
            let c = self.run_both(&input, engine, ("count", &count_args), &counts);
            let name = engine.clone().unwrap_or_else(|| "-".to_owned());
            answers.push((name, f.answers, c.answers));
        }
        self.report(Row {
            set: set.name(),
            engine: "engines",
            jobs: "-".to_owned(),
            mode: "agree",
            puzzles: input.units,
            problems: judge_agreement(&answers),
            ..Row::default()
        });
    }

    /// Radar and target samples: the answer must be the `.out` file's, and
    /// the `--json` (radar) or `--show` (target) answers pass the checkers.
    fn soak_sample(&mut self, set: &Set, engines: &[Option<String>]) {
        let path = self.datasets.join(set.file);
        let out_path = path.with_extension("out");
        let read = std::fs::read_to_string(&path)
            .and_then(|input| Ok((input, std::fs::read_to_string(&out_path)?)));
        let (text, expected) = match read {
            Ok(read) => read,
            Err(e) => return self.fail_set(set.name(), format!("{}: {e}", path.display())),
        };
        let (command, mode, args) = match set.kind {
            Kind::Radar => ("radar", "json", ["--json"]),
            _ => ("target", "show", ["--show"]),
        };
        let input = Input {
            set,
            command,
            text: &text,
            units: expected.lines().filter(|l| !l.trim().is_empty()).count(),
            cut: false,
        };
        // 1 when some case has no answer (radar `no answer`, target -1).
        let exit = i32::from(
            expected
                .lines()
                .any(|l| matches!(l.trim(), "no answer" | "-1")),
        );
        let verdict = |problems: Problems| Verdict {
            answers: Vec::new(),
            problems,
            exit,
        };
        let answer = |stdout: &str| {
            let mut problems = Problems::default();
            if !judge_equal(stdout, &expected) {
                problems.push(format!(
                    "differs from {} at line {}",
                    out_path.display(),
                    first_difference(stdout, &expected)
                ));
            }
            verdict(problems)
        };
        let checked = |stdout: &str| {
            verdict(match set.kind {
                Kind::Radar => Problems::all(radar::check_json_output(&text, stdout, &expected)),
                _ => Problems::all(target::check_shown_output(&text, stdout, &expected)),
            })
        };
        for engine in engines {
            self.run_both(&input, engine, ("answer", &[]), &answer);
            self.run_both(&input, engine, (mode, &args), &checked);
        }
    }
}

/// `--quick` skips the exact-cover problems that take DLX1 longer than
/// this (queens15, the 5×12 and 6×10 pentominoes).
const XC_QUICK_SECONDS: f64 = 0.5;

/// At most this many solutions of an exact-cover problem are printed and
/// checked one by one.
const XC_ALL_LIMIT: u64 = 1000;

impl Soak {
    /// Every problem of `xc/REFERENCE.md` through `cover exact`, on one
    /// thread and on all cores: `--count --stats` must give Knuth's
    /// solutions, nodes and updates (the parallel split keeps the serial
    /// search's counters exactly), and `--all --limit 1000` solutions that
    /// each cover every primary item once and every secondary item at most
    /// once (verify's checker, which knows no engine), as many as there
    /// are up to the limit, the same with any thread count.
    fn soak_xc(&mut self, xc: &Path, quick: bool) {
        let mut rows = match read_reference(&xc.join("REFERENCE.md")) {
            Ok(rows) => rows,
            Err(e) => return self.fail_set("xc/REFERENCE.md", format!("{e:#}")),
        };
        match std::fs::read_to_string(xc.join("REFERENCE-XCC.md"))
            .map_err(anyhow::Error::from)
            .and_then(|text| parse_xcc_reference(&text))
        {
            Ok(more) => rows.extend(more),
            Err(e) => self.fail_set("xc/REFERENCE-XCC.md", format!("{e:#}")),
        }
        for row in rows {
            if quick && row.seconds > XC_QUICK_SECONDS {
                continue;
            }
            let set = format!("xc/{}", row.name);
            let path = xc.join(format!("{}.dlx", row.name));
            let cover = match std::fs::read_to_string(&path)
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|text| exact::read_knuth(&text))
            {
                Ok(cover) => cover,
                Err(e) => {
                    self.fail_set(&set, e);
                    continue;
                }
            };
            let exit = i32::from(row.solutions == 0);
            let file = path.display().to_string();
            let mut first_all: Option<String> = None;
            for jobs in self.jobs {
                let jobs_text = jobs.to_string();
                let count_args = ["exact", "--count", "--stats", "--jobs", &jobs_text, &file];
                let judge_count = |run: &Run| {
                    let mut problems = Problems::default();
                    let number = |label: &str| {
                        run.stderr.lines().find_map(|l| {
                            l.strip_prefix(label)
                                .and_then(|v| v.trim().parse::<u64>().ok())
                        })
                    };
                    let count = run.stdout.trim().parse::<u64>().ok();
                    // No `cleansings:` line means none.
                    let cleansings = number("cleansings:").or(Some(0));
                    // Colours and multiplicities: DLX2's counters are the
                    // engine's; DLX3 branches otherwise, so only its
                    // solutions are. DLX1 reports no cleansings.
                    let counters = row.program != Program::Dlx3;
                    let (nodes, updates) = (row.nodes, row.updates);
                    let cleansed = (row.program == Program::Dlx2).then_some(row.cleansings);
                    for (what, found, want) in [
                        ("solutions", count, Some(row.solutions)),
                        (
                            "search nodes",
                            number("search nodes:"),
                            counters.then_some(nodes),
                        ),
                        ("updates", number("updates:"), counters.then_some(updates)),
                        ("cleansings", cleansings, cleansed),
                    ] {
                        if want.is_some() && found != want {
                            problems.push(format!("{what} {found:?}, Knuth's {want:?}"));
                        }
                    }
                    problems
                };
                self.run_xc(&set, &jobs_text, "count", &count_args, exit, &judge_count);
                let limit = XC_ALL_LIMIT.to_string();
                let all_args = [
                    "exact", "--all", "--limit", &limit, "--jobs", &jobs_text, &file,
                ];
                let want = row.solutions.min(XC_ALL_LIMIT);
                let judge_all = |run: &Run| {
                    let mut problems =
                        Problems::of(check_knuth_all_text(&cover, want, &run.stdout));
                    match &first_all {
                        Some(one) if *one != run.stdout => problems.push(format!(
                            "differs from --jobs 1 at line {}",
                            first_difference(one, &run.stdout)
                        )),
                        _ => {}
                    }
                    problems
                };
                if let Some(stdout) =
                    self.run_xc(&set, &jobs_text, "all", &all_args, exit, &judge_all)
                {
                    first_all.get_or_insert(stdout);
                }
            }
        }
    }

    /// Runs `cover ARGS`, judges its output and exit status, and reports
    /// the row; returns standard output when it ran.
    fn run_xc(
        &mut self,
        set: &str,
        jobs: &str,
        mode: &str,
        args: &[&str],
        exit: i32,
        judge: &dyn Fn(&Run) -> Problems,
    ) -> Option<String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let row = Row {
            set,
            engine: "-",
            jobs: jobs.to_owned(),
            mode,
            puzzles: 1,
            rerun: Some(format!("cover {}", args.join(" "))),
            ..Row::default()
        };
        // `--stats` speaks on standard error.
        let timeout = Duration::from_secs(600);
        let run = self.run_row(row, &args, "", timeout, false, &mut |run, row| {
            row.problems.extend(&judge(run));
            exit
        });
        run.map(|run| run.stdout)
    }

    /// Runs `cover ARGS` on `input` and reports `row` with the run's
    /// problems: those `judge` finds (it returns the exit status the output
    /// calls for), another exit status, and, when `quiet`, a line on
    /// standard error. Returns the run, when there was one.
    fn run_row(
        &mut self,
        mut row: Row,
        args: &[String],
        input: &str,
        timeout: Duration,
        quiet: bool,
        judge: &mut dyn FnMut(&Run, &mut Row) -> i32,
    ) -> Option<Run> {
        let run = match run_cover(&self.cover, args, input, timeout) {
            Err(e) => {
                row.problems.push(e);
                None
            }
            Ok(run) => {
                row.seconds = Some(run.elapsed.as_secs_f64());
                let exit = judge(&run, &mut row);
                if run.code != Some(exit) {
                    let code = run.code;
                    row.problems
                        .push(format!("exit status {code:?}, expected {exit}"));
                }
                // Valid input, no terminal: nothing is to be said there.
                if let Some(line) = run.stderr.lines().find(|l| quiet && !l.trim().is_empty()) {
                    row.problems
                        .push(format!("standard error: {}", line.trim()));
                }
                Some(run)
            }
        };
        self.report(row);
        run
    }
}

/// The files of the datasets folder that no set names (but README and
/// `.out` files).
fn unlisted(datasets: &Path) -> Result<Vec<String>> {
    let mut found = Vec::new();
    for dir in std::fs::read_dir(datasets)? {
        let dir = dir?;
        if !dir.file_type()?.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(dir.path())? {
            let name = format!(
                "{}/{}",
                dir.file_name().to_string_lossy(),
                file?.file_name().to_string_lossy()
            );
            if !name.ends_with(".out")
                && !name.ends_with("README.md")
                && !SETS.iter().any(|s| s.file == name)
            {
                found.push(name);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `cargo xtask verify --datasets [--quick] [--set NAME ...]` with the
/// binary `cover`.
pub fn run(cover: &Path, quick: bool, names: &[&str]) -> Result<()> {
    for name in names {
        if *name != "xc" && !SETS.iter().any(|s| s.is_named(name)) {
            let known: Vec<&str> = SETS.iter().map(|s| s.name()).collect();
            bail!("no set {name:?}; sets: {}", known.join(", "));
        }
    }
    let datasets = paths::datasets();
    // `xtask/../../shared` said plainly, when it is there.
    let datasets = std::fs::canonicalize(&datasets).unwrap_or(datasets);
    if !datasets.is_dir() {
        println!(
            "verify --datasets: {} is not here (COVER_SHARED=DIR points elsewhere); nothing to run",
            datasets.display()
        );
        return Ok(());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = Instant::now();
    let mut soak = Soak {
        cover: cover.to_owned(),
        datasets,
        // At least two threads even on one core, so that sharing runs.
        jobs: [1, cores.max(2)],
        first: quick.then_some(QUICK_PUZZLES),
        passed: 0,
        failed: 0,
    };
    println!(
        "verify --datasets: {} on {}; --jobs 1 and {}{}",
        soak.cover.display(),
        soak.datasets.display(),
        soak.jobs[1],
        if quick {
            format!("; --quick: the first {QUICK_PUZZLES} puzzles of each set")
        } else {
            String::new()
        }
    );
    println!(
        "{:<30} {:<8} {:>4} {:<6} {:>7} {:>8} {:>10}  result",
        "set", "engine", "jobs", "mode", "puzzles", "seconds", "puzzles/s"
    );
    if names.is_empty() {
        for file in unlisted(&soak.datasets)? {
            soak.fail_set(
                &file,
                "no entry in SETS of verify/datasets.rs: not run".to_owned(),
            );
        }
    }
    let mut engines = std::collections::HashMap::new();
    for set in SETS {
        if !names.is_empty() && !names.iter().any(|n| set.is_named(n)) {
            continue;
        }
        let command = match set.kind {
            Kind::Sudoku(_) => "sudoku",
            Kind::Radar => "radar",
            Kind::Target => "target",
        };
        let listed = engines
            .entry(command)
            .or_insert_with(|| soak.engines(command))
            .clone();
        let listed = match listed {
            Ok(listed) => listed,
            Err(e) => {
                soak.fail_set(set.name(), e);
                continue;
            }
        };
        match &set.kind {
            Kind::Sudoku(sudoku) => soak.soak_sudoku(set, sudoku, &listed),
            Kind::Radar | Kind::Target => soak.soak_sample(set, &listed),
        }
    }
    let xc = soak.datasets.with_file_name("xc");
    if names.is_empty() || names.contains(&"xc") {
        if xc.is_dir() {
            soak.soak_xc(&xc, quick);
        } else {
            println!(
                "verify --datasets: {} is not here; the exact-cover problems are not run",
                xc.display()
            );
        }
    }
    println!(
        "verify --datasets: {:.1} s in all",
        start.elapsed().as_secs_f64()
    );
    println!(
        "verify --datasets: {} passed, {} failed",
        soak.passed, soak.failed
    );
    if soak.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_solutions_are_judged_by_the_checker() {
        let cover = exact::read_knuth("a b | c\na c\nb\na b\n").unwrap();
        // {a c} {b} and {a b}: two solutions.
        let both = "a c\nb\n\na b\n\n";
        assert!(check_knuth_all_text(&cover, 2, both).is_ok());
        // One missing, one doubled, one not a cover, a `no solution` lie.
        assert!(check_knuth_all_text(&cover, 2, "a b\n\n").is_err());
        assert!(check_knuth_all_text(&cover, 2, "a b\n\na b\n\n").is_err());
        assert!(check_knuth_all_text(&cover, 1, "a c\n\n").is_err());
        assert!(check_knuth_all_text(&cover, 0, both).is_err());
        assert!(check_knuth_all_text(&cover, 0, "no solution\n\n").is_ok());
    }

    /// `cover sudoku --help` as clap writes it (the part around --engine).
    const LONG_HELP: &str = "Options:
      --symbols <STR>
          The symbols of the digits

      --engine <ENGINE>
          The search engine

          Possible values:
          - compact: Bit masks and saved states: the fast one
          - linked:  Classic dancing links, the reference (node counts as Knuth's DLX1)
          
          [default: compact]

      --json
          Write one JSON object per instance per line instead of text

  -j, --jobs <N>
          Use N threads [default: one per core]
";

    #[test]
    fn engines_are_read_from_the_long_help() {
        assert_eq!(engines_from_help(LONG_HELP), ["compact", "linked"]);
    }

    #[test]
    fn engines_are_read_from_other_help_forms() {
        let short = "Options:\n      --engine <ENGINE>  The search engine [default: compact] \
                     [possible values: compact, linked, bits]\n      --json  JSON\n";
        assert_eq!(engines_from_help(short), ["compact", "linked", "bits"]);
        // A third engine whose description wraps, and one without any.
        let wrapped = LONG_HELP.replace(
            "          - linked:",
            "          - bits: Bit-parallel candidates, one word per unit, a long text\n            \
             that wraps onto a second line\n          - plain\n          - linked:",
        );
        assert_eq!(
            engines_from_help(&wrapped),
            ["compact", "bits", "plain", "linked"]
        );
        // No --engine (radar, target): none, and the jobs' text is no engine.
        let radar = "Options:\n      --json\n          JSON\n  -j, --jobs <N>\n          \
                     Use N threads\n\n          Possible values:\n          - x: no\n";
        assert!(engines_from_help(radar).is_empty());
    }

    #[test]
    fn tdoku_lines_give_counts_and_solutions() {
        let solved = "..3:1:123";
        assert_eq!(stated_count(solved), Some((1, Some("123"))));
        assert_eq!(stated_count("4.....8.5:125\r"), Some((125, None)));
        assert_eq!(stated_count("4.....8.5:0:"), Some((0, None)));
        assert_eq!(stated_count("4.....8.5"), None);
        assert_eq!(stated_count("4.....8.5:many"), None);
        // The set's reading caps counts at the limit and keeps only the
        // solution of a unique puzzle.
        let set = SudokuSet {
            layout: Layout::Line,
            counts: Counts::Stated,
            max_nodes: None,
            column: None,
        };
        let text = format!(
            "# c\n{P}:1:{S}\n{P}:125:{S}\n",
            P = PUZZLE_9,
            S = SOLUTION_9
        );
        let read = read_sudoku(&text, &set, None).unwrap();
        assert_eq!(read.known[0].count, Some(1));
        assert_eq!(read.known[0].solution.as_deref(), Some(SOLUTION_9));
        assert_eq!(
            read.known[1],
            Known {
                count: Some(2),
                solution: None
            }
        );
        assert!(read_sudoku(&format!("{PUZZLE_9}\n"), &set, None).is_err());
    }

    #[test]
    fn a_puzzle_column_is_cut_out_of_its_line() {
        let text = "# hash puzzle rating\nab12 ..3.4 2.5\n\nlonely\n";
        assert_eq!(
            puzzle_column(text, 1),
            "# hash puzzle rating\n..3.4\n\nlonely\n"
        );
    }

    /// Luogu P1784's sample, as a line, and its solution.
    const PUZZLE_9: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const SOLUTION_9: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    fn line_set(counts: Counts) -> SudokuSet {
        SudokuSet {
            layout: Layout::Line,
            counts,
            max_nodes: None,
            column: None,
        }
    }

    #[test]
    fn first_answers_are_judged() {
        let text = format!("{PUZZLE_9}\n{PUZZLE_9}\n");
        let read = read_sudoku(&text, &line_set(Counts::Unique), None).unwrap();
        let judge = |stdout: &str, gave_up_ok| {
            judge_first(stdout, Layout::Line, &read.puzzles, &read.known, gave_up_ok)
        };
        let good = judge(&format!("{SOLUTION_9}\n{SOLUTION_9}\n"), false);
        assert!(good.problems.is_empty(), "{:?}", good.problems);
        assert_eq!(good.exit, 0);
        let mut wrong = SOLUTION_9.to_owned().into_bytes();
        wrong.swap(1, 2);
        let wrong = String::from_utf8(wrong).unwrap();
        let bad = judge(&format!("{SOLUTION_9}\n{wrong}\n"), false);
        assert_eq!(bad.problems.total, 1);
        assert!(bad.problems.shown[0].starts_with("puzzle 2:"));
        // `no solution` for a unique puzzle, a missing answer, `gave up`.
        assert!(!judge(&format!("{SOLUTION_9}\nno solution\n"), false)
            .problems
            .is_empty());
        assert!(!judge(&format!("{SOLUTION_9}\n"), false).problems.is_empty());
        let gave_up = judge(&format!("{SOLUTION_9}\ngave up\n"), false);
        assert!(!gave_up.problems.is_empty());
        let allowed = judge(&format!("{SOLUTION_9}\ngave up\n"), true);
        assert!(allowed.problems.is_empty());
        assert_eq!((allowed.gave_up(), allowed.exit), (1, 1));
        // A stated solution must be the printed one.
        let stated = Known {
            count: Some(1),
            solution: Some(SOLUTION_9.replace("812", "821")),
        };
        let known = [stated];
        let other = judge_first(SOLUTION_9, Layout::Line, &read.puzzles, &known, false);
        assert!(!other.problems.is_empty());
    }

    #[test]
    fn grid_answers_are_judged() {
        let grid: String = PUZZLE_9
            .as_bytes()
            .chunks(9)
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&c| {
                        if c == b'.' {
                            "0".into()
                        } else {
                            (c as char).to_string()
                        }
                    })
                    .collect();
                cells.join(" ") + "\n"
            })
            .collect();
        let answer: String = SOLUTION_9
            .as_bytes()
            .chunks(9)
            .map(|row| {
                let cells: Vec<String> = row.iter().map(|&c| (c as char).to_string()).collect();
                cells.join(" ") + "\n"
            })
            .collect();
        let set = SudokuSet {
            layout: Layout::Grid,
            counts: Counts::Recount,
            max_nodes: None,
            column: None,
        };
        let read = read_sudoku(&grid, &set, None).unwrap();
        assert_eq!(read.known[0].count, Some(1), "recounted");
        let judge =
            |stdout: &str| judge_first(stdout, Layout::Grid, &read.puzzles, &read.known, false);
        assert!(judge(&format!("{answer}\n")).problems.is_empty());
        let broken = answer.replacen("8 1 2", "8 2 1", 1);
        assert!(!judge(&format!("{broken}\n")).problems.is_empty());
        // The judge's comparison with a `.out` file lacking the final blank.
        assert!(judge_equal(&format!("{answer}\n"), answer.trim_end()));
        assert!(!judge_equal(&format!("{broken}\n"), &answer));
    }

    #[test]
    fn counts_are_judged() {
        let known = [
            Known {
                count: Some(1),
                solution: None,
            },
            Known {
                count: Some(0),
                solution: None,
            },
            Known {
                count: None,
                solution: None,
            },
        ];
        let good = judge_counts("1\n0\n2\n", &known, false);
        assert!(good.problems.is_empty());
        assert_eq!(good.exit, 1);
        assert!(!judge_counts("2\n0\n2\n", &known, false).problems.is_empty());
        assert!(!judge_counts("1\n0\n3\n", &known, false).problems.is_empty());
        assert!(!judge_counts("1\n0\n", &known, false).problems.is_empty());
        assert!(
            !judge_counts("1\n0\ngave up after 1 solution\n", &known, false)
                .problems
                .is_empty()
        );
        assert!(
            judge_counts("1\n0\ngave up after 1 solution\n", &known, true)
                .problems
                .is_empty()
        );
        // Only the line a count gives up with, and never past the count.
        assert!(!judge_counts("1\n0\ngave up\n", &known, true)
            .problems
            .is_empty());
        assert!(
            !judge_counts("gave up after 2 solutions\n0\n2\n", &known, true)
                .problems
                .is_empty()
        );
    }

    #[test]
    fn engines_must_agree() {
        let a = |v: &[Answer]| v.to_vec();
        use Answer::*;
        let compact = (
            "compact".to_owned(),
            a(&[Solved, NoSolution]),
            a(&[Count(1), Count(0)]),
        );
        let linked = (
            "linked".to_owned(),
            a(&[Solved, NoSolution]),
            a(&[Count(1), Count(0)]),
        );
        assert!(judge_agreement(&[compact.clone(), linked.clone()]).is_empty());
        let counts_two = (
            "bits".to_owned(),
            a(&[Solved, NoSolution]),
            a(&[Count(2), Count(0)]),
        );
        assert_eq!(judge_agreement(&[compact.clone(), counts_two]).total, 1);
        let inconsistent = (
            "bits".to_owned(),
            a(&[Solved, Solved]),
            a(&[Count(1), Count(0)]),
        );
        assert_eq!(judge_agreement(&[compact.clone(), inconsistent]).total, 1);
        let gave_up = (
            "bits".to_owned(),
            a(&[GaveUp, NoSolution]),
            a(&[GaveUp, Count(0)]),
        );
        assert!(judge_agreement(&[compact, gave_up]).is_empty());
    }

    #[test]
    fn lines_are_cut_keeping_bytes_and_ending_at_end() {
        let text = "\u{feff}# comment\r\n1...\r\n\r\n.2..\r\n..3.\r\nend\r\n...4\r\n";
        let (input, puzzles) = cut_lines(text, None);
        assert_eq!(input, text, "a whole file goes unchanged");
        assert_eq!(puzzles, ["1...", ".2..", "..3."]);
        let (input, puzzles) = cut_lines(text, Some(2));
        assert_eq!(input, "\u{feff}# comment\r\n1...\r\n\r\n.2..\r\n");
        assert_eq!(puzzles.len(), 2);
        let (input, puzzles) = cut_lines(text, Some(3));
        assert_eq!((input, puzzles.len()), (text, 3), "not cut: all there");
    }

    #[test]
    fn every_set_has_a_distinct_name_and_its_folder() {
        for (k, set) in SETS.iter().enumerate() {
            assert!(
                SETS[..k].iter().all(|s| s.name() != set.name()),
                "{}",
                set.name()
            );
            assert!(
                set.file.contains(&format!("/{}.", set.name())),
                "{}",
                set.name()
            );
            assert!(set.is_named(set.file.split('/').next().unwrap()));
        }
    }

    /// The table lists every file of the shared datasets, when they are
    /// here.
    #[test]
    fn the_sets_cover_the_datasets() {
        let datasets = paths::datasets();
        if !datasets.is_dir() {
            println!("note: {} is not here", datasets.display());
            return;
        }
        assert_eq!(unlisted(&datasets).unwrap(), Vec::<String>::new());
        for set in SETS {
            assert!(datasets.join(set.file).is_file(), "{}", set.file);
        }
    }
}
