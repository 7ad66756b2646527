//! `cover queens N`: N queens on an N×N board, none attacking another.
//!
//! The model is [`cover_models::queens::Queens`] (Knuth's formulation).
//! Counting splits the search across all threads
//! ([`dlx_core::count_parallel`]) while a copy of the links per thread
//! fits ([`common::split_fits`]); `--jobs 1` runs the serial search, with
//! the same counters. `--symmetry` counts only boards whose first-rank
//! queen is in the left half (and the middle file of an odd board) and
//! weighs them, which halves the work.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use clap::Args;
use cover_models::queens::{draw, Queens};
use dlx_core::{
    count_parallel, Control, Limits, Report, Solver, SplitConfig, SplitProgress, Stats,
};
use serde::Serialize;

use crate::batch::{gave_up_after, Verdict, GAVE_UP};
use crate::common::{self, Common, Session, Solutions, TimeLimit};
use crate::output::{self, Out};
use crate::progress::Ticker;

const AFTER_LONG_HELP: &str = "\
Output (text): the board, one line per rank, `Q` for a queen and `.` for an
empty square; with --all every board, a blank line after each; with --count
the number of solutions. N = 2 and N = 3 have no solution: `no solution`,
exit status 1.

With --max-nodes N or --time-limit SECONDS, `gave up` stands in place of the
answer (after the boards found, with --all; with --count, `gave up after N
solutions`, N those found by then) when the search reached N nodes, or ran
SECONDS, first; exit status 1.

N is at most 1800: the problem of an N×N board has 5N² nodes, and the
largest takes about 400 MB.

When standard error is a terminal, a search that runs over a second shows
a progress line there (the solutions found so far, or the parts of a search
split across threads done), and an unbounded --count of 18 queens or more
first says, on one line, that it may take very long and how to bound it.
Into a pipe or a file, nothing of this is written.

JSON (--json), one object: n, status (\"solved\", \"no_solution\" or
\"gave_up\"),
solutions (each a list giving the file of the queen in each rank, from 0),
count (with --count), complete (false when --limit, --max-nodes or
--time-limit stopped the search),
nodes, updates.

Examples:
  cover queens 8                   one solution of 8 queens
  cover queens --count 12          14200
  cover queens --count --symmetry 14 --stats
  cover queens --all --limit 3 6   three boards";

/// Solve the N-queens problem: place N queens on an N×N board so that none
/// attacks another.
/// Reads N: 1 up to the largest board.
fn parse_board(text: &str) -> Result<u64, String> {
    common::parse_count(
        text,
        cover_models::queens::MAX_N as u64,
        "the largest board `cover queens` takes",
    )
}

#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct QueensArgs {
    /// The size of the board.
    #[arg(value_name = "N", value_parser = parse_board)]
    pub n: u64,

    #[command(flatten)]
    pub solutions: Solutions,

    /// With --count: count boards with the first queen in the left half
    /// only and double them (mirror images), with care for the middle
    /// file of odd boards.
    #[arg(long, requires = "count")]
    pub symmetry: bool,

    /// Give up after N search nodes: the answer is then `gave up` (JSON
    /// status "gave_up"; with --all, after the boards found by then; with
    /// --count, `gave up after N solutions`) and
    /// the exit status 1. A bounded count stays on one thread, so whether
    /// it gives up does not depend on --jobs.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Serialize)]
struct Record {
    n: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<Vec<usize>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    nodes: u64,
    updates: u64,
}

/// Counts the solutions that contain `given` within `bounds` (a node
/// budget, a deadline): split across threads unless there is only one (or
/// the count is bounded by nodes or a limit, or the board too large to
/// copy per thread), with a progress bar for long counts.
fn count(queens: &Queens, given: &[usize], limit: Option<u64>, bounds: &Limits) -> Report {
    let problem = queens.problem();
    if rayon::current_num_threads() == 1
        || limit.is_some()
        || bounds.node_budget.is_some()
        || !common::split_fits(problem)
    {
        let limits = bounds.clone().with_max_solutions(limit);
        // The solutions found so far, for the progress line on a terminal.
        let found = Arc::new(AtomicU64::new(0));
        let shown = Arc::clone(&found);
        let ticker = Ticker::start_open("counting", "solutions found", move || {
            shown.load(Ordering::Relaxed)
        });
        let report = Solver::new(problem)
            .search(given, &limits, &mut |_: &[usize]| {
                found.fetch_add(1, Ordering::Relaxed);
                Control::Continue
            })
            .expect("given options come from the model");
        ticker.finish();
        return report;
    }
    let progress = Arc::new(SplitProgress::default());
    let config = SplitConfig::default()
        .with_progress(Some(Arc::clone(&progress)))
        .with_deadline(bounds.deadline);
    let ticker = Ticker::start("counting", move || {
        (
            progress.parts_done.load(Ordering::Relaxed),
            progress.parts_total.load(Ordering::Relaxed),
        )
    });
    let report =
        count_parallel(problem, given, &config).expect("given options come from the model");
    ticker.finish();
    report
}

/// From this board on, an unbounded count takes minutes (18: 666,090,624
/// boards), and each size several times the one before (the boards grow
/// about 7.5-fold a size).
const LONG_COUNT: u64 = 18;

/// The hint said before an unbounded count of a large board: how to bound
/// it. `None` for a bounded count (nodes, time or a limit), a small board,
/// or no count.
fn long_count_hint(args: &QueensArgs) -> Option<String> {
    let bounded = args.max_nodes.is_some()
        || args.time_limit.limit.is_some()
        || args.solutions.limit.is_some();
    (args.solutions.count && !bounded && args.n >= LONG_COUNT).then(|| {
        format!(
            "counting every board of {n} queens may take very long (from {LONG_COUNT} on, \
             minutes, then several times longer for each size): --time-limit SECONDS or \
             --max-nodes N stops it with the boards found by then, and `cover shard split \
             --queens {n}` spreads it over machines",
            n = args.n
        )
    })
}

/// Runs `cover queens`.
pub fn run(args: &QueensArgs, session: &mut Session) -> anyhow::Result<()> {
    let queens = Queens::new(args.n as usize)?;
    // Said to a person only: a pipe or a test gets the answer alone.
    if let Some(hint) = long_count_hint(args).filter(|_| std::io::stderr().is_terminal()) {
        output::error(hint);
    }
    // The clock starts once the board is built: every search counts.
    let deadline = args.time_limit.limits(None).deadline;
    let mut out = Out::stdout();
    let mut gave_up = false;
    let (found, complete, stats, solutions) = if args.solutions.count {
        let mut stats = Stats::default();
        let mut complete = true;
        if args.symmetry {
            let mut total = 0;
            for (option, weight) in queens.symmetric_starts() {
                // The bound is on all the searches together.
                let left = args
                    .max_nodes
                    .map(|most| most.saturating_sub(stats.nodes).max(1));
                let bounds = Limits::none()
                    .with_node_budget(left)
                    .with_deadline(deadline);
                let report = count(&queens, &[option], None, &bounds);
                total += weight * report.stats.solutions;
                stats += report.stats;
                if report.outcome.gave_up() {
                    gave_up = true;
                    complete = false;
                    break;
                }
            }
            // The counters are those of the searches made; the count is
            // the weighted total.
            stats.solutions = total;
        } else {
            let bounds = Limits::none()
                .with_node_budget(args.max_nodes)
                .with_deadline(deadline);
            let report = count(&queens, &[], args.solutions.limit, &bounds);
            complete = report.outcome.is_complete();
            gave_up = report.outcome.gave_up();
            stats = report.stats;
        }
        (stats.solutions, complete, stats, None)
    } else {
        let limit = if args.solutions.all || args.solutions.limit.is_some() {
            args.solutions.limit
        } else {
            Some(1)
        };
        let limits = Limits::none()
            .with_max_solutions(limit)
            .with_node_budget(args.max_nodes)
            .with_deadline(deadline);
        let mut boards = Vec::new();
        let mut failed = None;
        // One board is written once the search (and its progress line on a
        // terminal) is done; every board (--all) is its own progress.
        let every = args.solutions.all || args.solutions.limit.is_some();
        let mut first = String::new();
        let ticker = if every {
            None
        } else {
            Some(Ticker::start_open("searching", "", || 0))
        };
        let report = Solver::new(queens.problem())
            .search(&[], &limits, &mut |solution: &[usize]| {
                let board = queens.board(solution);
                if args.common.json {
                    // The one JSON object holds them all.
                    boards.push(board);
                    return Control::Continue;
                }
                if !every {
                    first = draw(&board);
                    return Control::Continue;
                }
                // Text is written as it is found, and not kept.
                if let Err(e) = out.write_all(draw(&board).as_bytes()) {
                    failed = Some(e);
                    return Control::Stop;
                }
                if let Err(e) = writeln!(out) {
                    failed = Some(e);
                    return Control::Stop;
                }
                Control::Continue
            })
            .expect("no options are given");
        if let Some(ticker) = ticker {
            ticker.finish();
        }
        out.write_all(first.as_bytes())?;
        if let Some(e) = failed {
            return Err(e.into());
        }
        let complete = report.outcome.is_complete();
        gave_up = report.outcome.gave_up();
        (report.stats.solutions, complete, report.stats, Some(boards))
    };
    Verdict::of(gave_up, found > 0, stats).record(session);
    if args.common.json {
        let record = Record {
            n: queens.n(),
            status: Verdict::of(gave_up, found > 0, stats).status(),
            count: args.solutions.count.then_some(found),
            complete: (args.solutions.count
                || args.solutions.all
                || args.solutions.limit.is_some()
                || gave_up)
                .then_some(complete),
            solutions,
            nodes: stats.nodes,
            updates: stats.updates,
        };
        output::write_json_line(&mut out, &record)?;
    } else if gave_up && args.solutions.count {
        writeln!(out, "{}", gave_up_after(found))?;
    } else if gave_up {
        writeln!(out, "{GAVE_UP}")?;
    } else if args.solutions.count {
        writeln!(out, "{found}")?;
    } else if found == 0 {
        writeln!(out, "no solution")?;
    }
    out.flush()?;
    Ok(())
}
