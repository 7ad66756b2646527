//! `cover target`: target sudoku (NOIP 2009), the highest score over all
//! solutions of each puzzle.
//!
//! Reading and solving are [`cover_models::target`] (branch and bound on
//! the exact-cover engine); this module adds the parallelism (the puzzles
//! of a file are read a chunk at a time and solved on rayon's threads, one
//! solver per thread), printing in input order (text or JSON) and the
//! session's bookkeeping.

use std::io::{self, BufRead};

use clap::Args;
use cover_models::sudoku::logic::Rules;
use cover_models::target::{
    format_grid, Bound, ParseError, Puzzles, TargetAnswer, TargetModel, TargetPuzzle,
    DEFAULT_RULES, SIDE,
};
use dlx_core::Solver;

use crate::sudoku::PropagateArg;
use serde::Serialize;

use crate::batch::{self, At, Batch, Head, ReadInstances, Verdict, GAVE_UP, INVALID};
use crate::common::{self, Common, Inputs, Session, TimeLimit};
use crate::output::{push_json, Out};
use crate::pipeline::ChunkSizes;

const LONG_ABOUT: &str = "\
Solve target sudoku (NOIP 2009, Luogu P1074): of all the solutions of each
9×9 sudoku, find the one with the highest score. A cell's weight is 6 on
the outer ring, then 7, 8, 9 and 10 for the centre cell; a grid scores the
sum over its cells of weight × digit.

Input: 9 lines of 9 numbers separated by spaces, 0 for an empty cell.
Several puzzles may follow one another, separated by blank lines (or not:
a puzzle ends after its ninth row). Lines starting with `#` are comments.

The search is branch and bound on the exact-cover engine: it prunes a
partial grid when an upper bound on every completion's score cannot beat
the best grid found so far. The bound rests on an identity: every full grid
scores 2745 + its centre + its four corners + its 16 cells at distance 2
from the centre (or the four corner 2×2 blocks), so only those cells are
bounded, a line at a time.";

const AFTER_LONG_HELP: &str = "\
Output (text): one line per puzzle, the highest score, or -1 when the puzzle
has no solution (givens that clash are not an input error: the puzzle has
no solution). With --show, the best grid follows its score in the input's
layout, and a blank line ends each puzzle's answer.

With --max-nodes N or --time-limit SECONDS, `gave up` stands in place of the
score of a puzzle whose search reached N nodes, or ran SECONDS, first (with
--show, no grid follows).

A puzzle that cannot be read (a row without 9 numbers, a value that is not
a digit 0..9, fewer than 9 rows) prints `invalid` in its place, so answers
stay aligned with puzzles; the error goes to standard error as `cover:
FILE:LINE: message`, and the puzzles after it are still answered.

JSON (--json), one object per puzzle per line:
  index              the puzzle's number in its file, from 1
  file               the file name, or <stdin>
  line               the line of the puzzle's first row (for invalid
                     puzzles: the line of the error)
  status             \"solved\", \"no_solution\", \"invalid\", or
                     \"gave_up\" (--max-nodes, --time-limit; then no
                     score nor grid)
  score              the highest score (-1 when there is no solution)
  grid               the best grid: 9 rows of 9 digits
  solutions_visited  complete grids the search reached (the others were
                     cut off by the bound before they were complete)
  nodes, updates     the search's counters
  error              for invalid puzzles: what is wrong

Exit status: 0 every puzzle has a solution; 1 all input was valid but some
puzzle has no solution (or gave up); 2 bad input, bad usage or an I/O
error.

Examples:
  cover target p1074.in              the highest score of each puzzle
  cover target --show p1074.in       and the best grid
  cover target --json --stats *.in   JSON lines, and a summary
  cover target --max-nodes 100000 -  never stuck on one puzzle
  cover target --time-limit 2 -      at most about 2 s a puzzle";

/// Solve target sudoku (NOIP 2009): the highest score over all solutions.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct TargetArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    /// Print the best grid after each score.
    #[arg(long)]
    pub show: bool,

    /// Give up on a puzzle after N search nodes.
    ///
    /// Its answer is then `gave up` (JSON status "gave_up"), and the exit
    /// status is 1; the other puzzles are still answered, so a file of
    /// many puzzles is answered in bounded time whatever is in it.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    /// How much sudoku reasoning between the branch and bound's choices:
    /// `auto` (the default) and `full`: singles, box-line and
    /// all-different by matching; `basic`: singles, box-line, naked and
    /// hidden pairs and triples; `none`: the plain exact-cover search.
    ///
    /// (`cover sudoku`'s `auto` is none on 9×9; here it is `full`, see
    /// `cargo xtask bench propagate target`.) With reasoning the search branches first on
    /// the 21 cells that set the score (centre, corners, ring 2), the one
    /// with the fewest candidates, then on any cell with the fewest;
    /// without, on the engine's item with the fewest options. The score is
    /// the same either way.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = PropagateArg::Auto,
          hide_possible_values = true)]
    pub propagate: PropagateArg,

    #[command(flatten)]
    pub common: Common,
}

/// At most this many puzzles are read ahead and solved together: a puzzle
/// takes milliseconds.
const CHUNK_PUZZLES: usize = 64;

/// One line of `--json` output.
#[derive(Debug, Default, Serialize)]
struct Record<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<Vec<Vec<u8>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions_visited: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updates: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// `cover target` as a [`Batch`].
struct TargetBatch<'a> {
    args: &'a TargetArgs,
    model: TargetModel,
}

impl Batch for TargetBatch<'_> {
    type Instance = TargetPuzzle;
    type Error = ParseError;
    type Worker = Solver;
    type Answer = TargetAnswer;

    fn label(&self) -> &'static str {
        "target"
    }

    fn chunk_sizes(&self) -> ChunkSizes {
        ChunkSizes::fixed(CHUNK_PUZZLES)
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self> {
        Box::new(Puzzles::new(reader))
    }

    fn worker(&self) -> Solver {
        let rules = match self.args.propagate {
            PropagateArg::Auto | PropagateArg::Full => Some(DEFAULT_RULES),
            PropagateArg::Basic => Some(Rules::BASIC),
            PropagateArg::None => None,
        };
        self.model.solver(rules)
    }

    fn answer(
        &self,
        solver: &mut Solver,
        at: At<'_>,
        puzzle: &TargetPuzzle,
        text: &mut String,
        _flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<TargetAnswer> {
        let limits = self.args.time_limit.limits(self.args.max_nodes);
        let answer = self
            .model
            .best_with(solver, puzzle, Bound::default(), &limits);
        write_answer(text, self.args, at, puzzle, &answer);
        Ok(answer)
    }

    fn verdict(&self, answer: &TargetAnswer) -> Verdict {
        verdict(answer)
    }

    fn invalid(&self, at: At<'_>, error: &ParseError, text: &mut String) {
        if self.args.common.json {
            let record = Record {
                head: Head::new(at, error.line, "invalid"),
                error: Some(error.kind.to_string()),
                ..Record::default()
            };
            push_json(text, &record);
        } else {
            // In its place, so that answers stay aligned with cases.
            text.push_str(INVALID);
            text.push('\n');
            // With --show, each answer is a block ended by a blank line.
            if self.args.show {
                text.push('\n');
            }
        }
    }
}

/// Runs `cover target`.
pub fn run(args: &TargetArgs, session: &mut Session) -> anyhow::Result<()> {
    let batch = TargetBatch {
        args,
        model: TargetModel::new(),
    };
    batch::run(&batch, &args.inputs, &mut Out::stdout(), session)?;
    Ok(())
}

/// What `answer` means: the search ends incomplete only at `--max-nodes`
/// or `--time-limit`.
fn verdict(answer: &TargetAnswer) -> Verdict {
    Verdict::of(!answer.complete, answer.best.is_some(), answer.stats)
}

/// Appends one puzzle's answer, text or JSON.
fn write_answer(
    text: &mut String,
    args: &TargetArgs,
    at: At<'_>,
    puzzle: &TargetPuzzle,
    answer: &TargetAnswer,
) {
    if args.common.json {
        let mut record = Record {
            head: Head::new(at, puzzle.line, verdict(answer).status()),
            ..Record::default()
        };
        if answer.complete {
            record.score = Some(answer.best.as_ref().map_or(-1, |b| i64::from(b.score)));
            record.grid = answer
                .best
                .as_ref()
                .map(|b| b.grid.chunks(SIDE).map(<[u8]>::to_vec).collect());
        }
        record.solutions_visited = Some(answer.stats.solutions);
        record.nodes = Some(answer.stats.nodes);
        record.updates = Some(answer.stats.updates);
        push_json(text, &record);
        return;
    }
    match &answer.best {
        _ if !answer.complete => text.push_str(GAVE_UP),
        Some(best) => text.push_str(&best.score.to_string()),
        None => text.push_str("-1"),
    }
    text.push('\n');
    if args.show {
        if let (true, Some(best)) = (answer.complete, &answer.best) {
            text.push_str(&format_grid(&best.grid));
        }
        text.push('\n');
    }
}
