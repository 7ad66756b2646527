//! `cover exact`: generic exact cover, from 0/1 matrices or Knuth's format.
//!
//! Reading is [`cover_models::exact::Instances`]; searching is [`solve`],
//! which knows nothing of output and hands each solution to a callback;
//! printing is the [`Printer`], text or JSON, which formats what `solve`
//! pushes. Instances are solved one after another, in input order; since
//! `solve` is pure, answering instances in parallel later only needs a
//! printer that collects.

use dlx_core::Search;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use cover_models::exact::{Format, InputError, Instance, Instances, ParseError};
use dlx_core::{count_parallel, Control, Limits, Problem, Solver, SplitConfig, Stats};
use serde::Serialize;

use crate::common::{Common, Inputs, Session};
use crate::output::{self, Out};

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
          comments. One problem per file. Colours are not supported.

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

An instance that cannot be read prints nothing on standard output: the error
goes to standard error as `cover: FILE:LINE: message`, and the instances after
it are still answered. (With --json it gets a line with \"status\":\"invalid\",
so lines stay aligned with instances.)

JSON (--json), one object per instance per line:
  index      the instance's number in its file, from 1
  file       the file name, or <stdin>
  format     \"matrix\" or \"knuth\" (absent for invalid instances)
  line       the line where the instance starts (for invalid instances: the
             line of the error)
  status     \"solved\", \"no_solution\" or \"invalid\"
  solutions  without --count: a list of solutions, each a list of row numbers
             (matrix) or option strings (knuth)
  count      with --count: the number of solutions
  complete   with --count or --all: false when --limit stopped the search
             (more solutions may exist)
  nodes, updates  the search's counters
  error      for invalid instances: what is wrong

Exit status: 0 every instance has a solution; 1 all input was valid but some
instance has no solution; 2 bad input, bad usage or an I/O error.

Examples:
  cover exact matrix.txt                 first solution of each matrix
  cover exact --count queens8.dlx        count the solutions
  cover exact --all --limit 5 -          up to 5 solutions of standard input
  cover exact --json --stats a.txt b.dlx JSON lines, with a summary";

/// Solve exact-cover problems: 0/1 matrices or Knuth's DLX format.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct ExactArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    /// The input format [default: detected from the first line].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<FormatArg>,

    /// Print the number of solutions of each instance instead of a
    /// solution.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,

    /// Print every solution, not only the first.
    #[arg(long)]
    pub all: bool,

    /// Stop after N solutions.
    ///
    /// With --all, print at most N solutions; with --count, stop counting
    /// at N (and print N). Alone, the same as --all --limit N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    #[command(flatten)]
    pub common: Common,
}

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

/// What to look for in each instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first solution in search order.
    First,
    /// Every solution, or the first `limit`.
    All {
        /// Stop after this many.
        limit: Option<u64>,
    },
    /// The number of solutions, counting no further than `limit`.
    Count {
        /// Stop counting here.
        limit: Option<u64>,
    },
}

impl ExactArgs {
    /// The mode the flags ask for.
    pub fn mode(&self) -> Mode {
        if self.count {
            Mode::Count { limit: self.limit }
        } else if self.all || self.limit.is_some() {
            Mode::All { limit: self.limit }
        } else {
            Mode::First
        }
    }
}

/// How the search of one instance ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Searched {
    /// Solutions found (in count mode, counted).
    pub count: u64,
    /// Whether the search explored everything (false when a limit stopped
    /// it).
    pub complete: bool,
    /// Its counters.
    pub stats: Stats,
}

/// Searches `problem` as `mode` says, handing each solution (the chosen
/// options, in the order the search chose them) to `visit`; in count mode
/// `visit` is never called. Returning [`Control::Stop`] ends the search.
///
/// An unlimited count with `parallel` set is split across rayon's threads
/// ([`dlx_core::count_parallel`]); its counters equal the serial search's.
pub fn solve<V>(problem: &Problem, mode: Mode, parallel: bool, mut visit: V) -> Searched
where
    V: FnMut(&[usize]) -> Control,
{
    if parallel && mode == (Mode::Count { limit: None }) {
        let report = count_parallel(problem, &[], &SplitConfig::default())
            .expect("no options are given, so none is unknown");
        return Searched {
            count: report.stats.solutions,
            complete: report.outcome.is_complete(),
            stats: report.stats,
        };
    }
    let mut solver = Solver::new(problem);
    let limits = |limit: Option<u64>| Limits {
        max_solutions: limit,
        ..Limits::none()
    };
    let report = match mode {
        Mode::First => solver.search(&[], &Limits::solutions(1), &mut visit),
        Mode::All { limit } => solver.search(&[], &limits(limit), &mut visit),
        Mode::Count { limit } => solver.count_with(&[], &limits(limit)),
    }
    .expect("no options are given, so none is unknown");
    Searched {
        count: report.stats.solutions,
        complete: report.outcome.is_complete(),
        stats: report.stats,
    }
}

/// Where an instance came from, for JSON and messages.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The file name (or `<stdin>`).
    pub file: &'a str,
    /// The instance's number in its file, from 1.
    pub index: usize,
}

/// Formats answers, text or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printer {
    /// Plain text, as the puzzle sites print it.
    Text,
    /// One JSON object per instance per line.
    Json,
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
    solutions: Option<Vec<Labels>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updates: Option<u64>,
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

/// Writes one solution as text.
fn write_solution<W: Write + ?Sized>(
    w: &mut W,
    instance: &Instance,
    options: &[usize],
) -> io::Result<()> {
    match instance.format {
        Format::Matrix => {
            let mut first = true;
            for row in rows(instance, options) {
                if !first {
                    w.write_all(b" ")?;
                }
                first = false;
                write!(w, "{row}")?;
            }
            writeln!(w)
        }
        Format::Knuth => {
            for &option in options {
                writeln!(w, "{}", instance.option_label(option))?;
            }
            writeln!(w)
        }
    }
}

/// Writes what stands in place of a solution when there is none.
fn write_no_solution<W: Write + ?Sized>(w: &mut W, format: Format) -> io::Result<()> {
    match format {
        Format::Matrix => writeln!(w, "No Solution!"),
        Format::Knuth => writeln!(w, "no solution\n"),
    }
}

impl Printer {
    /// Solves `instance` and writes its answer: in text, solutions as they
    /// are found; in JSON, one record at the end.
    pub fn answer<W: Write + ?Sized>(
        self,
        w: &mut W,
        origin: Origin<'_>,
        instance: &Instance,
        mode: Mode,
    ) -> io::Result<Searched> {
        // One big count is worth splitting across the threads `--jobs`
        // allows; `--jobs 1` stays exactly the serial search.
        let parallel = rayon::current_num_threads() > 1;
        match self {
            Printer::Text => {
                let mut failed = None;
                let searched =
                    solve(
                        &instance.problem,
                        mode,
                        parallel,
                        |options| match write_solution(w, instance, options) {
                            Ok(()) => Control::Continue,
                            Err(e) => {
                                failed = Some(e);
                                Control::Stop
                            }
                        },
                    );
                if let Some(e) = failed {
                    return Err(e);
                }
                match mode {
                    Mode::Count { .. } => writeln!(w, "{}", searched.count)?,
                    _ if searched.count == 0 => write_no_solution(w, instance.format)?,
                    _ => {}
                }
                Ok(searched)
            }
            Printer::Json => {
                let mut solutions = Vec::new();
                let searched = solve(&instance.problem, mode, parallel, |options| {
                    solutions.push(labels(instance, options));
                    Control::Continue
                });
                let counting = matches!(mode, Mode::Count { .. });
                let record = Record {
                    index: origin.index,
                    file: origin.file,
                    format: Some(instance.format.to_string()),
                    line: instance.line,
                    status: if searched.count > 0 {
                        "solved"
                    } else {
                        "no_solution"
                    },
                    solutions: (!counting).then_some(solutions),
                    count: counting.then_some(searched.count),
                    complete: (mode != Mode::First).then_some(searched.complete),
                    nodes: Some(searched.stats.nodes),
                    updates: Some(searched.stats.updates),
                    error: None,
                };
                output::write_json_line(w, &record)?;
                Ok(searched)
            }
        }
    }

    /// Writes what stands for an instance that could not be read: nothing
    /// in text (the error goes to standard error), a record in JSON.
    pub fn invalid<W: Write + ?Sized>(
        self,
        w: &mut W,
        origin: Origin<'_>,
        error: &ParseError,
    ) -> io::Result<()> {
        match self {
            Printer::Text => Ok(()),
            Printer::Json => output::write_json_line(
                w,
                &Record {
                    index: origin.index,
                    file: origin.file,
                    format: None,
                    line: error.line,
                    status: "invalid",
                    solutions: None,
                    count: None,
                    complete: None,
                    nodes: None,
                    updates: None,
                    error: Some(error.kind.to_string()),
                },
            ),
        }
    }
}

/// Runs `cover exact`.
pub fn run(args: &ExactArgs, session: &mut Session) -> anyhow::Result<()> {
    let mode = args.mode();
    let format = args.format.map(Format::from);
    let printer = if args.common.json {
        Printer::Json
    } else {
        Printer::Text
    };
    let mut out = Out::stdout();
    for input in args.inputs.iter() {
        let reader = match input.open() {
            Ok(reader) => reader,
            Err(e) => {
                session.io_error(input.name(), &e);
                continue;
            }
        };
        for (k, next) in Instances::new(reader, format).enumerate() {
            let origin = Origin {
                file: input.name(),
                index: k + 1,
            };
            match next {
                Ok(instance) => {
                    let searched = printer.answer(&mut out, origin, &instance, mode)?;
                    session.answered(searched.count > 0, searched.stats);
                }
                Err(InputError::Parse(e)) => {
                    // Flush the answers before it first, so that stdout
                    // and stderr interleave in order on a terminal.
                    out.end_instance()?;
                    session.invalid(input.name(), e.line, &e.kind);
                    printer.invalid(&mut out, origin, &e)?;
                }
                Err(InputError::Io(e)) => {
                    // The reader stops after an I/O error.
                    session.io_error(input.name(), &e);
                }
            }
            out.end_instance()?;
        }
    }
    out.flush()?;
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

    fn answer(printer: Printer, text: &str, mode: Mode) -> (String, Searched) {
        let mut out = Vec::new();
        let origin = Origin {
            file: "t",
            index: 1,
        };
        let searched = printer
            .answer(&mut out, origin, &instance(text), mode)
            .unwrap();
        (String::from_utf8(out).unwrap(), searched)
    }

    const TWO_WAYS: &str = "3 2\n1 0\n0 1\n1 1\n";

    #[test]
    fn modes_from_flags() {
        let args = |count, all, limit| ExactArgs {
            inputs: Inputs::default(),
            format: None,
            count,
            all,
            limit,
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
        let searched = solve(&problem, Mode::All { limit: None }, false, |o| {
            seen.push(o.to_vec());
            Control::Continue
        });
        assert_eq!(seen, [vec![0, 1], vec![2]]);
        assert_eq!((searched.count, searched.complete), (2, true));
        let searched = solve(
            &problem,
            Mode::Count { limit: Some(1) },
            false,
            |_| unreachable!(),
        );
        assert_eq!((searched.count, searched.complete), (1, false));
        let searched = solve(&problem, Mode::First, false, |_| Control::Continue);
        assert_eq!(searched.count, 1);
    }

    #[test]
    fn text_answers() {
        let (text, _) = answer(Printer::Text, TWO_WAYS, Mode::All { limit: None });
        assert_eq!(text, "1 2\n3\n");
        let (text, _) = answer(Printer::Text, TWO_WAYS, Mode::Count { limit: None });
        assert_eq!(text, "2\n");
        let (text, _) = answer(Printer::Text, "1 2\n1 0\n", Mode::First);
        assert_eq!(text, "No Solution!\n");
        let (text, _) = answer(Printer::Text, "a b | c\nb c\na\n", Mode::First);
        assert_eq!(text, "a\nb c\n\n");
        let (text, _) = answer(Printer::Text, "a b\na\n", Mode::First);
        assert_eq!(text, "no solution\n\n");
        // No columns: the empty set of rows is a solution, an empty line.
        let (text, searched) = answer(Printer::Text, "0 0\n", Mode::First);
        assert_eq!((text.as_str(), searched.count), ("\n", 1));
    }

    #[test]
    fn json_answers() {
        let (text, _) = answer(Printer::Json, TWO_WAYS, Mode::All { limit: Some(1) });
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["status"], "solved");
        assert_eq!(value["solutions"], serde_json::json!([[1, 2]]));
        assert_eq!(value["complete"], false);
        let (text, _) = answer(Printer::Json, "a b\na b\n", Mode::First);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["solutions"], serde_json::json!([["a b"]]));
        assert_eq!(value["format"], "knuth");
        assert!(value.get("complete").is_none());
        assert!(value.get("count").is_none());
    }
}
