//! `cover exact`: generic exact cover, from 0/1 matrices or Knuth's format.
//!
//! Reading is [`cover_models::exact::Instances`]; searching is [`solve`],
//! which knows nothing of output and hands each solution to a callback;
//! [`answer`] formats what `solve` pushes, text or JSON. The instances of
//! a file are answered by the [`batch`] runner: several at once on the
//! pool for first solutions and counts, one at a time with `--all` (whose
//! output is written as it is found).

#[cfg(feature = "sat")]
use std::collections::HashSet;
use std::io::{self, BufRead};

use clap::{Args, ValueEnum};
use cover_models::exact::{Format, Instance, Instances, ParseError, ParseErrorKind};
use dlx_core::{count_parallel, Control, Problem, Report, Solver, SplitConfig, Stats};
use serde::Serialize;

use crate::batch::{
    self, gave_up_after, At, Batch, Flush, Invalid, ReadInstances, Verdict, WithContext, GAVE_UP,
    INVALID,
};
pub use crate::common::Mode;
use crate::common::{self, Common, Inputs, Session, Solutions, TimeLimit};
use crate::output::{push_json, JsonObject, Out};
use crate::pipeline::ChunkSizes;

const LONG_ABOUT: &str = "\
Solve exact-cover problems: choose options (rows) that cover every primary
item (column) exactly once, and every secondary item at most once.

Two input formats, detected from the first line that is not blank or a
comment (force one with --format):

  matrix  A line `N M`, then N rows of M values 0 or 1 separated by spaces
          (as Luogu P4929). Every column is a primary item. A file may hold
          several matrices one after another; blank lines and lines starting
          with `#` are ignored.
  knuth   Knuth's DLX format: the first line names the items, primary ones
          first, then `|` and the secondary ones; every later line is one
          option, the names of its items. Lines starting with `|` are
          comments. One problem per file. As in DLX2 and DLX3:
          - colours (XCC): an option may give a secondary item a colour,
            `x:red`; options giving it the same colour may all be chosen,
            one naming it without a colour excludes every other;
          - multiplicities (MCC): `u:v|a` before a primary item's name on
            the first line lets it be covered u to v times, `v|a` exactly
            v times (without, exactly once).
          An option without a primary item is ignored, with a warning.

A first line of exactly two whole numbers is read as a matrix header; a
Knuth file whose items are two numbers needs --format knuth.";

const AFTER_LONG_HELP: &str = "\
Output (text):
  matrix  The 1-based numbers of the chosen rows, ascending, on one line;
          `No Solution!` when there is none. With --all, one line per
          solution.
  knuth   Each chosen option on its own line as its item names, in the order
          the search chose them, then a blank line; `no solution` and a blank
          line when there is none.
  --count prints one number per instance instead.
With --max-nodes N or --time-limit SECONDS, `gave up` stands in place of the
answer (the solution or `No Solution!`; with --all, after the solutions
found; with --count, `gave up after N solutions`, N those found by then) of
an instance whose search reached N nodes, or ran SECONDS, first.

An instance that cannot be read prints `invalid` in place of its answer (in
Knuth's format, and a blank line), so answers stay aligned with instances: the
error goes to standard error as `cover: FILE:LINE: message`, and the instances
after it are still answered. (With --json it gets a line with
\"status\":\"invalid\".)

JSON (--json), one object per instance per line:
  index      the instance's number in its file, from 1
  file       the file name, or <stdin>
  format     \"matrix\" or \"knuth\" (absent for invalid instances)
  line       the line where the instance starts (for invalid instances: the
             line of the error)
  status     \"solved\", \"no_solution\", \"invalid\", or \"gave_up\" (--max-nodes,
             --time-limit)
  solutions  without --count: a list of solutions, each a list of row numbers
             (matrix) or option strings (knuth)
  count      with --count: the number of solutions
  complete   with --count or --all: false when --limit, --max-nodes or
             --time-limit stopped the search (more solutions may exist)
  nodes, updates  the search's counters
  learnt     when conflict learning answered (--engine sat, or auto past its
             search): the clauses it learnt, one per conflict
  error      for invalid instances: what is wrong

An input with no problem in it (empty, or only blank lines and comments) is
an error, as in Knuth's programs. A line longer than 4 MiB is an error at its
line: in a file of matrices it is skipped and reading goes on with the next
matrix; in Knuth's format (one problem per file) the problem is invalid.

Exit status: 0 every instance has a solution; 1 all input was valid but some
instance has no solution (or gave up, with --max-nodes or --time-limit); 2 bad
input, bad usage or an I/O error.

Examples:
  cover exact matrix.txt                 first solution of each matrix
  cover exact --count queens8.dlx        count the solutions
  cover exact --all --limit 5 -          up to 5 solutions of standard input
  cover exact --json --stats a.txt b.dlx JSON lines, with a summary
  cover exact --max-nodes 1000000 *.txt  never stuck on one instance
  cover exact --time-limit 10 *.dlx      at most about 10 s per instance
  cover exact --engine sat hard.dlx      conflict learning (CaDiCaL)
  cover exact --cnf hard.dlx > hard.cnf  the CNF, for a SAT solver of one's own";

/// Solve exact-cover problems: 0/1 matrices or Knuth's DLX format.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct ExactArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    /// The input format [default: detected from the first line].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<FormatArg>,

    #[command(flatten)]
    pub solutions: Solutions,

    /// Give up on an instance after N search nodes.
    ///
    /// Its answer is then `gave up` (JSON status "gave_up"; with --all,
    /// after the solutions found by then; with --count, `gave up after N
    /// solutions`), and the exit status is 1; the
    /// other instances are still answered, so a file of many is answered
    /// in bounded time whatever is in it. A bounded count stays on one
    /// thread, so whether it gives up does not depend on --jobs.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    /// The engine.
    ///
    /// `search` (the default): dancing links, Knuth's Algorithm X with
    /// colours and multiplicities (its nodes and updates are DLX1's,
    /// DLX2's and DLX3's). `sat`: conflict learning, the problem as CNF
    /// (`--cnf`) solved by CaDiCaL, for instances whose search is
    /// hopeless (a hard packing, a large puzzle); counts and --all block
    /// each solution and solve again, slow for many; --max-nodes bounds
    /// its conflicts. `auto`: search, and if it has found no solution in
    /// 100,000 nodes, `sat` (search again, from the start, if it found
    /// some). Not the default: learning can take far longer than search
    /// to prove that there is no solution (Langford pairs of an order
    /// without any are a parity argument, hard for learning).
    #[cfg(feature = "sat")]
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineArg::Search)]
    pub engine: EngineArg,

    /// Write each instance's CNF in DIMACS instead of solving it, for a
    /// SAT solver of one's own.
    ///
    /// One variable per option; each primary item covered exactly once
    /// (at most once pairwise up to 32 options, by a sequential counter
    /// beyond), or between its bounds (a totalizer); each secondary item
    /// at most once, or in one colour (a variable per colour). Auxiliary
    /// variables follow the options'. Comments first name each variable's
    /// option (`c option 3 row 3`, or its items in Knuth's format). Each
    /// instance's CNF starts with `c instance INDEX FILE:LINE`.
    #[arg(long, conflicts_with_all = ["count", "all", "limit", "json"])]
    pub cnf: bool,

    #[command(flatten)]
    pub common: Common,
}

/// The engines of `cover exact`.
#[cfg(feature = "sat")]
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineArg {
    /// Dancing links (Algorithm X, C, M).
    Search,
    /// Conflict learning (CaDiCaL) on the problem's CNF.
    Sat,
    /// Search, then learning for an instance whose search has found no
    /// solution in 100,000 nodes.
    Auto,
}

/// How many search nodes `--engine auto` spends on an instance before it
/// turns to conflict learning, if the search has found nothing by then: a
/// few milliseconds of search.
#[cfg(feature = "sat")]
pub const SEARCH_FIRST: u64 = 100_000;

/// The input formats of `cover exact`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    /// `N M`, then N rows of M zeros and ones.
    Matrix,
    /// Knuth's DLX format: item names, then one option per line.
    Knuth,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Matrix => Format::Matrix,
            FormatArg::Knuth => Format::Knuth,
        }
    }
}

impl ExactArgs {
    /// The mode the flags ask for.
    pub fn mode(&self) -> Mode {
        self.solutions.mode()
    }
}

/// How the search of one instance ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Searched {
    /// Solutions found (in count mode, counted).
    pub count: u64,
    /// Whether the search explored everything (false when a limit or the
    /// node budget stopped it).
    pub complete: bool,
    /// Whether the node budget or the time limit stopped it.
    pub gave_up: bool,
    /// Its counters.
    pub stats: Stats,
    /// The clauses learnt from conflicts, when learning answered.
    pub learnt: Option<u64>,
}

/// Solves `problem` with the engine `style` names, as [`search`] does
/// (same arguments, same answers): by search, by conflict learning
/// (solutions in option order, nodes 0), or by search first then
/// learning ([`SEARCH_FIRST`]).
pub fn solve<V>(problem: &Problem, style: Style, parallel: bool, visit: V) -> Searched
where
    V: FnMut(&[usize]) -> Control,
{
    #[cfg(feature = "sat")]
    let mut visit = visit;
    #[cfg(feature = "sat")]
    match style.engine {
        EngineArg::Search => {}
        EngineArg::Sat => return learn(problem, style, Stats::default(), &mut visit),
        EngineArg::Auto => {
            return search_then_learn(problem, style, parallel, SEARCH_FIRST, &mut visit)
        }
    }
    search(problem, style, parallel, visit)
}

/// `--engine sat`: `problem` solved by CaDiCaL within `style`'s bounds
/// (the node bound on conflicts), after a search that took `searched`.
#[cfg(feature = "sat")]
fn learn(
    problem: &Problem,
    style: Style,
    searched: Stats,
    visit: &mut dyn FnMut(&[usize]) -> Control,
) -> Searched {
    let bounds = style.time_limit.limits(style.max_nodes);
    let limits = bounds.with_max_solutions(match style.mode {
        Mode::First => Some(1),
        Mode::All { limit } | Mode::Count { limit } => limit,
    });
    let counting = matches!(style.mode, Mode::Count { .. });
    let report = cover_sat::search(problem, &[], &limits, cover_sat::Amo::Auto, |options| {
        if counting {
            Control::Continue
        } else {
            visit(options)
        }
    })
    .expect("no options are given, so none is unknown");
    Searched {
        count: report.stats.solutions,
        complete: report.outcome.is_complete(),
        gave_up: report.outcome.gave_up(),
        stats: {
            let mut stats = searched;
            stats.solutions = report.stats.solutions;
            stats
        },
        learnt: Some(report.stats.learnt),
    }
}

/// `--engine auto`: search within `budget` nodes ([`SEARCH_FIRST`]; or
/// `--max-nodes`, if fewer); then, if it found nothing, learning; if it
/// found solutions but is not done, search again from the start within
/// `--max-nodes`, each solution handed on once.
#[cfg(feature = "sat")]
fn search_then_learn(
    problem: &Problem,
    style: Style,
    parallel: bool,
    budget: u64,
    visit: &mut dyn FnMut(&[usize]) -> Control,
) -> Searched {
    let deadline = style.time_limit.limits(None).deadline;
    let left = || TimeLimit {
        limit: deadline.map(|d| d.saturating_duration_since(std::time::Instant::now())),
    };
    let first_budget = style.max_nodes.map_or(budget, |n| n.min(budget));
    let first_style = Style {
        max_nodes: Some(first_budget),
        ..style
    };
    // The solutions handed on (at most `budget`), each sorted.
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    let mut stopped = false;
    let first = search(problem, first_style, false, |options| {
        let mut sorted = options.to_vec();
        sorted.sort_unstable();
        seen.insert(sorted);
        let control = visit(options);
        stopped = control == Control::Stop;
        control
    });
    let user_bound = style.max_nodes.is_some_and(|n| n <= budget);
    if stopped || !first.gave_up || (user_bound && first.count > 0) {
        return first;
    }
    // The time left goes to what follows.
    let rest = Style {
        time_limit: left(),
        ..style
    };
    if first.count == 0 {
        return learn(problem, rest, first.stats, visit);
    }
    let wanted = match style.mode {
        Mode::First => 1,
        Mode::All { limit } | Mode::Count { limit } => limit.unwrap_or(u64::MAX),
    };
    let again = match style.mode {
        Mode::Count { .. } => search(problem, rest, parallel, |_| Control::Continue),
        _ => {
            let mut handed = first.count;
            let mut again = search(
                problem,
                Style {
                    mode: Mode::All { limit: None },
                    ..rest
                },
                parallel,
                |options| {
                    let mut sorted = options.to_vec();
                    sorted.sort_unstable();
                    if seen.contains(&sorted) {
                        return Control::Continue;
                    }
                    handed += 1;
                    match visit(options) {
                        Control::Continue if handed < wanted => Control::Continue,
                        _ => Control::Stop,
                    }
                },
            );
            if handed >= wanted {
                again.complete = false;
            }
            again.count = handed;
            again
        }
    };
    let mut stats = first.stats;
    stats += again.stats;
    stats.solutions = again.count;
    Searched { stats, ..again }
}

/// Searches `problem` as `style.mode` says, handing each solution (the
/// chosen options, in the order the search chose them) to `visit`; in count
/// mode `visit` is never called. Returning [`Control::Stop`] ends the
/// search. `style.max_nodes` bounds the search ([`Limits::node_budget`](dlx_core::Limits::node_budget)),
/// and `style.time_limit` its time from now ([`Limits::deadline`](dlx_core::Limits::deadline)).
///
/// A count without a node bound or solution limit, with `parallel` set, is
/// split across rayon's threads ([`dlx_core::count_parallel`]) when a copy
/// of its links per thread fits ([`common::split_fits`]); its counters
/// equal the serial search's. One bounded by nodes stays on this thread,
/// so that whether it gives up does not depend on the threads.
pub fn search<V>(problem: &Problem, style: Style, parallel: bool, mut visit: V) -> Searched
where
    V: FnMut(&[usize]) -> Control,
{
    let Style {
        mode,
        max_nodes,
        time_limit,
        ..
    } = style;
    let bounds = time_limit.limits(max_nodes);
    if parallel
        && max_nodes.is_none()
        && mode == (Mode::Count { limit: None })
        && common::split_fits(problem)
    {
        let config = SplitConfig::default().with_deadline(bounds.deadline);
        let report = count_parallel(problem, &[], &config)
            .expect("no options are given, so none is unknown");
        return searched(report);
    }
    let mut solver = Solver::new(problem);
    let limits = |limit: Option<u64>| bounds.clone().with_max_solutions(limit);
    let report = match mode {
        Mode::First => solver.search(&[], &limits(Some(1)), &mut visit),
        Mode::All { limit } => solver.search(&[], &limits(limit), &mut visit),
        Mode::Count { limit } => solver.count_with(&[], &limits(limit)),
    }
    .expect("no options are given, so none is unknown");
    searched(report)
}

fn searched(report: Report) -> Searched {
    Searched {
        count: report.stats.solutions,
        complete: report.outcome.is_complete(),
        gave_up: report.outcome.gave_up(),
        stats: report.stats,
        learnt: None,
    }
}

/// One solution in JSON: row numbers for matrices, option strings for
/// Knuth's format.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Labels {
    Rows(Vec<usize>),
    Options(Vec<String>),
}

/// One line of `--json` output.
#[derive(Debug, Serialize)]
struct Record<'a> {
    index: usize,
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    line: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updates: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    learnt: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The 1-based row numbers of a matrix solution, ascending.
fn rows(instance: &Instance, options: &[usize]) -> Vec<usize> {
    let mut rows: Vec<usize> = options.iter().map(|&o| instance.row_number(o)).collect();
    rows.sort_unstable();
    rows
}

/// One solution in JSON form.
fn labels(instance: &Instance, options: &[usize]) -> Labels {
    match instance.format {
        Format::Matrix => Labels::Rows(rows(instance, options)),
        Format::Knuth => {
            Labels::Options(options.iter().map(|&o| instance.option_label(o)).collect())
        }
    }
}

/// Appends one solution as text.
fn write_solution(text: &mut String, instance: &Instance, options: &[usize]) {
    match instance.format {
        Format::Matrix => {
            for (k, row) in rows(instance, options).into_iter().enumerate() {
                if k > 0 {
                    text.push(' ');
                }
                text.push_str(&row.to_string());
            }
            text.push('\n');
        }
        Format::Knuth => {
            for &option in options {
                text.push_str(&instance.option_label(option));
                text.push('\n');
            }
            text.push('\n');
        }
    }
}

/// Appends what stands in place of a solution: `marker` on its own line
/// (and, for Knuth's format, the blank line that ends a solution).
fn write_marker(text: &mut String, format: Format, marker: &str) {
    text.push_str(marker);
    text.push('\n');
    if format == Format::Knuth {
        text.push('\n');
    }
}

/// What to search for and how answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// What to search for.
    pub mode: Mode,
    /// Give up a search at this many nodes.
    pub max_nodes: Option<u64>,
    /// Or once it has run this long.
    pub time_limit: TimeLimit,
    /// JSON lines instead of text.
    pub json: bool,
    /// The engine.
    #[cfg(feature = "sat")]
    pub engine: EngineArg,
}

/// Solves `instance` as `style` says and appends its answer to `text`: in
/// text, solutions as they are found (calling `flush` after each one,
/// which may write the text out; an error from it stops the search and is
/// returned); in JSON, one record at the end.
pub fn answer(
    at: At<'_>,
    instance: &Instance,
    style: Style,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Searched> {
    // One big count is worth splitting across the threads `--jobs`
    // allows; `--jobs 1` stays exactly the serial search.
    let parallel = rayon::current_num_threads() > 1;
    let problem = &instance.problem;
    if !style.json {
        let mut flush = Flush::new(flush);
        let searched = solve(problem, style, parallel, |options| {
            write_solution(text, instance, options);
            flush.after_solution(text)
        });
        flush.finish()?;
        match style.mode {
            _ if searched.gave_up && matches!(style.mode, Mode::Count { .. }) => {
                text.push_str(&gave_up_after(searched.count));
                text.push('\n');
            }
            _ if searched.gave_up => write_marker(text, instance.format, GAVE_UP),
            Mode::Count { .. } => {
                text.push_str(&searched.count.to_string());
                text.push('\n');
            }
            _ if searched.count == 0 => {
                let marker = match instance.format {
                    Format::Matrix => "No Solution!",
                    Format::Knuth => "no solution",
                };
                write_marker(text, instance.format, marker);
            }
            _ => {}
        }
        return Ok(searched);
    }
    let verdict = |searched: &Searched| {
        Verdict::of(searched.gave_up, searched.count > 0, searched.stats).status()
    };
    if let Mode::Count { .. } = style.mode {
        let searched = solve(problem, style, parallel, |_| Control::Continue);
        let record = Record {
            index: at.index,
            file: at.file,
            format: Some(instance.format.to_string()),
            line: instance.line,
            status: verdict(&searched),
            count: Some(searched.count),
            complete: Some(searched.complete),
            nodes: Some(searched.stats.nodes),
            updates: Some(searched.stats.updates),
            learnt: searched.learnt,
            error: None,
        };
        push_json(text, &record);
        return Ok(searched);
    }
    // The solutions are written as they are found (and flushed, when
    // streaming), so the record's other fields follow them.
    let mut record = JsonObject::begin(text);
    record.field(text, "index", &at.index);
    record.field(text, "file", at.file);
    record.field(text, "format", &instance.format.to_string());
    record.field(text, "line", &instance.line);
    let mut solutions = record.list(text, "solutions");
    let mut flush = Flush::new(flush);
    let searched = solve(problem, style, parallel, |options| {
        solutions.item(text, &labels(instance, options));
        flush.after_solution(text)
    });
    flush.finish()?;
    solutions.end(text);
    record.field(text, "status", verdict(&searched));
    if style.mode != Mode::First || searched.gave_up {
        record.field(text, "complete", &searched.complete);
    }
    record.field(text, "nodes", &searched.stats.nodes);
    record.field(text, "updates", &searched.stats.updates);
    if let Some(learnt) = searched.learnt {
        record.field(text, "learnt", &learnt);
    }
    record.end(text);
    Ok(searched)
}

/// `cover exact` as a [`Batch`].
struct ExactBatch {
    format: Option<Format>,
    style: Style,
    /// `--cnf`: write CNF instead of solving.
    cnf: bool,
}

impl Batch for ExactBatch {
    type Instance = Instance;
    type Error = Unreadable;
    type Worker = ();
    type Answer = Searched;

    fn label(&self) -> &'static str {
        "exact"
    }

    fn chunk_sizes(&self) -> ChunkSizes {
        // Matrices of a file of many may be small (grow to 256 at a time)
        // or large (a chunk is also bounded by their weight).
        ChunkSizes {
            first: 8,
            most: 256,
        }
    }

    fn weight(&self, instance: &Instance) -> usize {
        instance.problem.node_count()
    }

    fn streaming(&self) -> bool {
        // Every solution of one problem may be more than memory holds.
        matches!(self.style.mode, Mode::All { .. })
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self> {
        // Each bad instance with the input's format (a matrix's until the
        // first line says otherwise).
        let context = |instances: &Instances<_>, error: ParseError| {
            // An item line that could not be read leaves the format
            // undetected, but it was Knuth's.
            let format = match error.kind {
                ParseErrorKind::ItemLineUnread(_) => Format::Knuth,
                _ => instances.format().unwrap_or(Format::Matrix),
            };
            Unreadable { error, format }
        };
        Box::new(WithContext::new(
            Instances::new(reader, self.format),
            context,
        ))
    }

    fn worker(&self) {}

    fn answer(
        &self,
        _: &mut (),
        at: At<'_>,
        instance: &Instance,
        text: &mut String,
        flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Searched> {
        if self.cnf {
            write_cnf(at, instance, text);
            return Ok(Searched {
                count: 1,
                complete: true,
                gave_up: false,
                stats: Stats::default(),
                learnt: None,
            });
        }
        answer(at, instance, self.style, text, flush)
    }

    fn verdict(&self, searched: &Searched) -> Verdict {
        Verdict::of(searched.gave_up, searched.count > 0, searched.stats)
    }

    fn learnt(&self, searched: &Searched) -> Option<u64> {
        searched.learnt
    }

    fn warnings(&self, instance: &Instance) -> Vec<(usize, String)> {
        let message = "option ignored: it has no primary item, so no solution can hold it";
        instance
            .ignored
            .iter()
            .map(|&line| (line, message.to_owned()))
            .collect()
    }

    /// `invalid` in text (a line; in Knuth's format, a block), in place
    /// of the answer, so that answers stay aligned with instances (the
    /// error goes to standard error); a record in JSON.
    fn invalid(&self, at: At<'_>, unreadable: &Unreadable, text: &mut String) {
        let error = &unreadable.error;
        if !self.style.json {
            // An input without a problem has no instance to stand for.
            if !matches!(error.kind, ParseErrorKind::Empty { .. }) {
                write_marker(text, unreadable.format, INVALID);
            }
            return;
        }
        let record = Record {
            index: at.index,
            file: at.file,
            format: None,
            line: error.line,
            status: "invalid",
            count: None,
            complete: None,
            nodes: None,
            updates: None,
            learnt: None,
            error: Some(error.kind.to_string()),
        };
        push_json(text, &record);
    }
}

/// An instance that could not be read, and the format of its input
/// (which says whether a line or a block stands in its place).
#[derive(Debug)]
pub struct Unreadable {
    error: ParseError,
    format: Format,
}

impl Invalid for Unreadable {
    fn line(&self) -> usize {
        self.error.line
    }

    fn message(&self) -> String {
        self.error.kind.to_string()
    }
}

/// `--cnf`: appends the CNF of `instance` after a line naming it.
fn write_cnf(at: At<'_>, instance: &Instance, text: &mut String) {
    let encoding = cover_sat::encode(&instance.problem, &[], cover_sat::Amo::Auto)
        .expect("no options are given, so none is unknown");
    text.push_str(&format!(
        "c instance {} {}:{}\n",
        at.index, at.file, instance.line
    ));
    let mut cnf = Vec::new();
    encoding
        .write_dimacs_labelled(&mut cnf, &|option| match instance.format {
            Format::Matrix => format!("row {}", instance.row_number(option)),
            Format::Knuth => instance.option_label(option),
        })
        .expect("writing to memory does not fail");
    text.push_str(&String::from_utf8_lossy(&cnf));
}

/// Runs `cover exact`.
pub fn run(args: &ExactArgs, session: &mut Session) -> anyhow::Result<()> {
    let batch = ExactBatch {
        format: args.format.map(Format::from),
        style: Style {
            mode: args.mode(),
            max_nodes: args.max_nodes,
            time_limit: args.time_limit,
            json: args.common.json,
            #[cfg(feature = "sat")]
            engine: args.engine,
        },
        cnf: args.cnf,
    };
    batch::run(&batch, &args.inputs, &mut Out::stdout(), session)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(text: &str) -> Instance {
        Instances::new(text.as_bytes(), None)
            .next()
            .unwrap()
            .unwrap()
    }

    /// The text or JSON answer of the instance `text` in `mode`.
    fn answer_of(json: bool, text: &str, mode: Mode) -> (String, Searched) {
        let style = Style {
            mode,
            max_nodes: None,
            time_limit: TimeLimit::default(),
            json,
            #[cfg(feature = "sat")]
            engine: EngineArg::Search,
        };
        let at = At {
            file: "t",
            index: 1,
        };
        let mut out = String::new();
        let searched = answer(at, &instance(text), style, &mut out, &mut |_| Ok(())).unwrap();
        (out, searched)
    }

    const TWO_WAYS: &str = "3 2\n1 0\n0 1\n1 1\n";

    /// `--engine auto` with search budgets from one node (learning from
    /// the start) to more than any search here needs, in every mode:
    /// each solution handed on once, all of them, and the same count as
    /// the search alone.
    #[cfg(feature = "sat")]
    #[test]
    fn search_then_learn_hands_on_every_solution_once() {
        use std::collections::BTreeSet;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/exact/");
        for file in [
            "queens6.dlx",
            "langford7.dlx",
            "xcc_small.dlx",
            "queens3.dlx",
        ] {
            let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let problem = instance(&text).problem;
            let style = |mode| Style {
                mode,
                max_nodes: None,
                time_limit: TimeLimit::default(),
                json: false,
                engine: EngineArg::Search,
            };
            let mut want = BTreeSet::new();
            search(
                &problem,
                style(Mode::All { limit: None }),
                false,
                |options| {
                    let mut sorted = options.to_vec();
                    sorted.sort_unstable();
                    assert!(want.insert(sorted));
                    Control::Continue
                },
            );
            let total = want.len() as u64;
            for budget in [1, 3, 10, 40, 100, 1_000_000] {
                for limit in [None, Some(1), Some(5), Some(total), Some(total + 1)] {
                    let case = format!("{file}, budget {budget}, limit {limit:?}");
                    let expected = limit.map_or(total, |l| l.min(total));
                    let mut handed = Vec::new();
                    let all = search_then_learn(
                        &problem,
                        style(Mode::All { limit }),
                        false,
                        budget,
                        &mut |options| {
                            let mut sorted = options.to_vec();
                            sorted.sort_unstable();
                            handed.push(sorted);
                            Control::Continue
                        },
                    );
                    let unique: BTreeSet<Vec<usize>> = handed.iter().cloned().collect();
                    assert_eq!(unique.len(), handed.len(), "{case}: each once");
                    assert!(unique.is_subset(&want), "{case}");
                    assert_eq!(
                        (handed.len() as u64, all.count),
                        (expected, expected),
                        "{case}"
                    );
                    let complete = limit.is_none_or(|l| l > total);
                    assert_eq!(all.complete, complete, "{case}");
                    let count = search_then_learn(
                        &problem,
                        style(Mode::Count { limit }),
                        false,
                        budget,
                        &mut |_| Control::Continue,
                    );
                    assert_eq!(count.count, expected, "{case}");
                    assert_eq!(count.complete, complete, "{case}");
                    assert!(!all.gave_up && !count.gave_up, "{case}");
                }
            }
        }
    }

    #[test]
    fn modes_from_flags() {
        let args = |count, all, limit| ExactArgs {
            inputs: Inputs::default(),
            format: None,
            solutions: Solutions { count, all, limit },
            max_nodes: None,
            time_limit: TimeLimit::default(),
            #[cfg(feature = "sat")]
            engine: EngineArg::Search,
            cnf: false,
            common: Common::default(),
        };
        assert_eq!(args(false, false, None).mode(), Mode::First);
        assert_eq!(args(false, true, None).mode(), Mode::All { limit: None });
        assert_eq!(
            args(false, false, Some(3)).mode(),
            Mode::All { limit: Some(3) }
        );
        assert_eq!(
            args(true, false, Some(3)).mode(),
            Mode::Count { limit: Some(3) }
        );
    }

    #[test]
    fn solve_counts_and_limits() {
        let problem = instance(TWO_WAYS).problem;
        let mut seen = Vec::new();
        let searched = solve(
            &problem,
            Style {
                mode: Mode::All { limit: None },
                max_nodes: None,
                time_limit: TimeLimit::default(),
                json: false,
                #[cfg(feature = "sat")]
                engine: EngineArg::Search,
            },
            false,
            |o| {
                seen.push(o.to_vec());
                Control::Continue
            },
        );
        assert_eq!(seen, [vec![0, 1], vec![2]]);
        assert_eq!((searched.count, searched.complete), (2, true));
        let searched = solve(
            &problem,
            Style {
                mode: Mode::Count { limit: Some(1) },
                max_nodes: None,
                time_limit: TimeLimit::default(),
                json: false,
                #[cfg(feature = "sat")]
                engine: EngineArg::Search,
            },
            false,
            |_| unreachable!(),
        );
        assert_eq!((searched.count, searched.complete), (1, false));
        let searched = solve(
            &problem,
            Style {
                mode: Mode::First,
                max_nodes: None,
                time_limit: TimeLimit::default(),
                json: false,
                #[cfg(feature = "sat")]
                engine: EngineArg::Search,
            },
            false,
            |_| Control::Continue,
        );
        assert_eq!(searched.count, 1);
    }

    #[test]
    fn text_answers() {
        let (text, _) = answer_of(false, TWO_WAYS, Mode::All { limit: None });
        assert_eq!(text, "1 2\n3\n");
        let (text, _) = answer_of(false, TWO_WAYS, Mode::Count { limit: None });
        assert_eq!(text, "2\n");
        let (text, _) = answer_of(false, "1 2\n1 0\n", Mode::First);
        assert_eq!(text, "No Solution!\n");
        let (text, _) = answer_of(false, "a b | c\nb c\na\n", Mode::First);
        assert_eq!(text, "a\nb c\n\n");
        let (text, _) = answer_of(false, "a b\na\n", Mode::First);
        assert_eq!(text, "no solution\n\n");
        // No columns: the empty set of rows is a solution, an empty line.
        let (text, searched) = answer_of(false, "0 0\n", Mode::First);
        assert_eq!((text.as_str(), searched.count), ("\n", 1));
    }

    #[test]
    fn json_answers() {
        let (text, _) = answer_of(true, TWO_WAYS, Mode::All { limit: Some(1) });
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["status"], "solved");
        assert_eq!(value["solutions"], serde_json::json!([[1, 2]]));
        assert_eq!(value["complete"], false);
        let (text, _) = answer_of(true, "a b\na b\n", Mode::First);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["solutions"], serde_json::json!([["a b"]]));
        assert_eq!(value["format"], "knuth");
        assert!(value.get("complete").is_none());
        assert!(value.get("count").is_none());
    }
}
