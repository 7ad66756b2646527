//! `cover target`: target sudoku (NOIP 2009), the highest score over all
//! solutions of each puzzle.
//!
//! Reading and solving are [`cover_models::target`] (branch and bound on
//! the exact-cover engine); this module adds the parallelism (the puzzles
//! of a file are read a chunk at a time and solved on rayon's threads, one
//! solver per thread), printing in input order (text or JSON) and the
//! session's bookkeeping.

use std::io::{self, Write};

use clap::Args;
use cover_models::target::{
    format_grid, Bound, InputError, Puzzles, TargetAnswer, TargetModel, TargetPuzzle, SIDE,
};
use dlx_core::{Limits, Solver};
use rayon::prelude::*;
use serde::Serialize;

use crate::common::{Common, Inputs, Session};
use crate::output::{self, Out};
use crate::pipeline::{self, ChunkSizes};
use crate::progress::Tally;

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

A puzzle that cannot be read (a row without 9 numbers, a value that is not
a digit 0..9, fewer than 9 rows) prints nothing on standard output; the
error goes to standard error as `cover: FILE:LINE: message`, and the
puzzles after it are still answered.

JSON (--json), one object per puzzle per line:
  index              the puzzle's number in its file, from 1
  file               the file name, or <stdin>
  line               the line of the puzzle's first row (for invalid
                     puzzles: the line of the error)
  status             \"solved\", \"no_solution\" or \"invalid\"
  score              the highest score (-1 when there is no solution)
  grid               the best grid: 9 rows of 9 digits
  solutions_visited  complete grids the search reached (the others were
                     cut off by the bound before they were complete)
  nodes, updates     the search's counters
  error              for invalid puzzles: what is wrong

Exit status: 0 every puzzle has a solution; 1 all input was valid but some
puzzle has no solution; 2 bad input, bad usage or an I/O error.

Examples:
  cover target p1074.in              the highest score of each puzzle
  cover target --show p1074.in       and the best grid
  cover target --json --stats *.in   JSON lines, and a summary";

/// Solve target sudoku (NOIP 2009): the highest score over all solutions.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct TargetArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    /// Print the best grid after each score.
    #[arg(long)]
    pub show: bool,

    #[command(flatten)]
    pub common: Common,
}

/// At most this many puzzles are read ahead and solved together.
const CHUNK_PUZZLES: usize = 64;

/// One line of `--json` output.
#[derive(Debug, Serialize)]
struct Record<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    status: &'static str,
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

/// A read puzzle or why it could not be read, with its number in the file.
type ReadPuzzle = (usize, Result<TargetPuzzle, InputError>);

/// Runs `cover target`.
pub fn run(args: &TargetArgs, session: &mut Session) -> anyhow::Result<()> {
    let model = TargetModel::new();
    let mut out = Out::stdout();
    let tally = Tally::default();
    let ticker = tally.ticker("target");
    for input in args.inputs.iter() {
        let reader = match input.open() {
            Ok(reader) => reader,
            Err(e) => {
                session.io_error(input.name(), &e);
                continue;
            }
        };
        let mut puzzles = Puzzles::new(reader).enumerate();
        // Chunks of a fixed size: a puzzle takes milliseconds.
        let read_next = |_: usize| {
            let (chunk, more) = pipeline::take_chunk(&mut puzzles, CHUNK_PUZZLES, |_| false);
            tally.read(chunk.len());
            (chunk, more)
        };
        let answer_chunk = |chunk: &Vec<ReadPuzzle>| -> Vec<Option<TargetAnswer>> {
            chunk
                .par_iter()
                .map_init(
                    || Solver::new(model.problem()),
                    |solver, (_, result)| {
                        let answer = result.as_ref().ok().map(|puzzle| {
                            model.best_with(solver, puzzle, Bound::default(), &Limits::none())
                        });
                        tally.answered();
                        answer
                    },
                )
                .collect()
        };
        let print_chunk = |chunk: Vec<ReadPuzzle>,
                           answers: Vec<Option<TargetAnswer>>|
         -> io::Result<()> {
            for ((index, result), answer) in chunk.iter().zip(answers) {
                match (result, answer) {
                    (Ok(puzzle), Some(answer)) => {
                        write_answer(&mut out, args, input.name(), *index, puzzle, &answer)?;
                        session.answered(answer.best.is_some(), answer.stats);
                    }
                    (Err(InputError::Parse(e)), _) => {
                        // Flush the answers before it first, so that
                        // stdout and stderr interleave in order.
                        out.end_instance()?;
                        let message = e.kind.to_string();
                        session.invalid(input.name(), e.line, &message);
                        if args.common.json {
                            let mut record = Record::new(input.name(), *index, e.line, "invalid");
                            record.error = Some(message);
                            output::write_json_line(&mut out, &record)?;
                        }
                    }
                    (Err(InputError::Io(e)), _) => session.io_error(input.name(), e),
                    (Ok(_), None) => unreachable!("every valid puzzle is solved"),
                }
                out.end_instance()?;
            }
            Ok(())
        };
        pipeline::run(
            ChunkSizes::fixed(CHUNK_PUZZLES),
            read_next,
            answer_chunk,
            print_chunk,
        )?;
    }
    ticker.finish();
    out.flush()?;
    Ok(())
}

impl<'a> Record<'a> {
    fn new(file: &'a str, index: usize, line: usize, status: &'static str) -> Record<'a> {
        Record {
            index,
            file,
            line,
            status,
            score: None,
            grid: None,
            solutions_visited: None,
            nodes: None,
            updates: None,
            error: None,
        }
    }
}

/// Writes one puzzle's answer, text or JSON.
fn write_answer<W: Write + ?Sized>(
    w: &mut W,
    args: &TargetArgs,
    file: &str,
    index: usize,
    puzzle: &TargetPuzzle,
    answer: &TargetAnswer,
) -> io::Result<()> {
    if args.common.json {
        let status = if answer.best.is_some() {
            "solved"
        } else {
            "no_solution"
        };
        let mut record = Record::new(file, index, puzzle.line, status);
        record.score = Some(answer.best.as_ref().map_or(-1, |b| i64::from(b.score)));
        record.grid = answer
            .best
            .as_ref()
            .map(|b| b.grid.chunks(SIDE).map(<[u8]>::to_vec).collect());
        record.solutions_visited = Some(answer.stats.solutions);
        record.nodes = Some(answer.stats.nodes);
        record.updates = Some(answer.stats.updates);
        return output::write_json_line(w, &record);
    }
    match &answer.best {
        Some(best) => writeln!(w, "{}", best.score)?,
        None => writeln!(w, "-1")?,
    }
    if args.show {
        if let Some(best) = &answer.best {
            w.write_all(format_grid(&best.grid).as_bytes())?;
        }
        writeln!(w)?;
    }
    Ok(())
}
