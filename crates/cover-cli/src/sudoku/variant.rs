//! `cover sudoku` for variant puzzles: each is searched by
//! [`VariantSolver`] on one thread, within the same limits as a classic
//! puzzle (`--limit`, `--max-nodes`, `--time-limit`), and answered in its
//! own form ([`VariantPuzzle::write_answer`]) or drawn ([`super::pretty`]).
//! `--rate` and `--explain` count its solutions here, then reason on the
//! geometry of its rules ([`Geometry::from_rules`]) through the classic
//! path's own judging and writing ([`super::answer_by_logic`]).
//!
//! This module owns only the answering; reading is the models' reader
//! ([`cover_models::sudoku::Puzzles::entries`]), and the marks, JSON
//! records, verdicts and logic are the classic puzzles' own.

use std::io;
use std::time::Instant;

use cover_models::sudoku::logic::Geometry;
use cover_models::sudoku::variant::VariantSolver;
use cover_models::sudoku::variant_line;
use cover_models::sudoku::VariantPuzzle;
use dlx_core::{Limits, Report, Stats};

use super::{
    answer_by_logic, end_every_solution_json, pretty, write_judgement_end, Answered, Counted, Mode,
    Record, Search, Shown, Style, GAVE_UP, NO_SOLUTION,
};
use crate::batch::{gave_up_after, At, Flush, Verdict};
use crate::output::{push_json, JsonObject};

/// Why human logic cannot rate or explain `puzzle` (its rules are not
/// one grid of rows, columns and regions, as Samurai's overlapping grids
/// are not), `None` when it can.
pub fn not_for_logic(puzzle: &VariantPuzzle) -> Option<String> {
    Geometry::from_rules(&puzzle.rules)
        .err()
        .map(|why| format!("--rate and --explain cannot read this variant: {why}"))
}

/// One solution as text: the answer in the puzzle's form on a line, or
/// the drawing and a blank line.
fn write_unit(text: &mut String, puzzle: &VariantPuzzle, grid: &[u8], style: Style) {
    if style.pretty {
        pretty::draw(text, &puzzle.rules, grid);
        text.push('\n');
    } else {
        text.push_str(&puzzle.write_answer(grid));
        text.push('\n');
    }
}

/// What stands in place of a solution.
fn write_marker(text: &mut String, marker: &str, style: Style) {
    text.push_str(marker);
    text.push('\n');
    if style.pretty {
        text.push('\n');
    }
}

/// Solves `puzzle` as `style` says and appends its answer to `text`, as
/// [`super::answer`] does for a classic puzzle.
pub fn answer(
    puzzle: &VariantPuzzle,
    origin: At<'_>,
    style: Style,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    if matches!(style.mode, Mode::Rate | Mode::Explain) {
        return Ok(answer_by_logic_variant(puzzle, origin, style, text));
    }
    // The reader gives every variant one digit of its grid per cell.
    let mut solver = VariantSolver::new(&puzzle.rules, &puzzle.cells)
        .expect("the reader checks a variant's cells against its rules");
    // The clock starts with the search, as for classic puzzles.
    let limits = |max_solutions: Option<u64>| {
        Limits::none()
            .with_max_solutions(max_solutions)
            .with_node_budget(style.max_nodes)
            .with_deadline(style.time_limit.limit.map(|limit| Instant::now() + limit))
    };
    let mut first: Option<String> = None;
    let report: Report = match style.mode {
        Mode::Search(Search::First) => {
            let report = solver.search(&limits(Some(1)), |grid| {
                if style.json {
                    first = Some(variant_line::write_cells(grid));
                } else {
                    write_unit(text, puzzle, grid, style);
                }
                dlx_core::Control::Continue
            });
            if report.stats.solutions == 0 && !style.json {
                let marker = if report.outcome.gave_up() {
                    GAVE_UP
                } else {
                    NO_SOLUTION
                };
                write_marker(text, marker, style);
            }
            report
        }
        Mode::Search(Search::All { limit }) if style.json => {
            return every_solution_json(&mut solver, puzzle, origin, limits(limit), text, flush);
        }
        Mode::Search(Search::All { limit }) => {
            let mut flush = Flush::new(flush);
            let report = solver.search(&limits(limit), |grid| {
                write_unit(text, puzzle, grid, style);
                flush.after_solution(text)
            });
            flush.finish()?;
            if report.outcome.gave_up() {
                write_marker(text, GAVE_UP, style);
            } else if report.stats.solutions == 0 {
                write_marker(text, NO_SOLUTION, style);
            }
            text.push('\n');
            report
        }
        Mode::Search(Search::Count { limit }) => {
            let report = solver.count(&limits(limit));
            if !style.json {
                if report.outcome.gave_up() {
                    text.push_str(&gave_up_after(report.stats.solutions));
                } else {
                    text.push_str(&report.stats.solutions.to_string());
                }
                text.push('\n');
            }
            report
        }
        Mode::Rate | Mode::Explain => unreachable!("answered by logic above"),
    };
    let found = report.stats.solutions > 0;
    let gave_up = report.outcome.gave_up();
    if style.json {
        let counting = matches!(style.mode, Mode::Search(Search::Count { .. }));
        let record = Record {
            index: origin.index,
            file: origin.file,
            line: puzzle.line,
            size: Some(puzzle.rules.side()),
            variant: Some(puzzle.form_name()),
            status: Verdict::of(gave_up, found, report.stats).status(),
            solution: first,
            count: counting.then_some(report.stats.solutions),
            complete: counting.then_some(report.outcome.is_complete()),
            nodes: Some(report.stats.nodes),
            ..Record::default()
        };
        push_json(text, &record);
    }
    Ok(Answered {
        solved: found,
        gave_up,
        stats: report.stats,
        learnt: None,
    })
}

/// `--rate` or `--explain` on a variant, as on a classic puzzle
/// ([`answer_by_logic`]): a search counts its solutions up to two, then
/// logic reasons on the geometry of its rules. Rules logic cannot read
/// (Samurai) give `gave up` in place of the answer, the reason in the JSON
/// record's `error` ([`not_for_logic`] says it on standard error).
fn answer_by_logic_variant(
    puzzle: &VariantPuzzle,
    origin: At<'_>,
    style: Style,
    text: &mut String,
) -> Answered {
    let geometry = match Geometry::from_rules(&puzzle.rules) {
        Ok(geometry) => geometry,
        Err(why) => {
            if style.json {
                let record = Record {
                    index: origin.index,
                    file: origin.file,
                    line: puzzle.line,
                    size: Some(puzzle.rules.side()),
                    variant: Some(puzzle.form_name()),
                    status: Verdict::of(true, false, Stats::default()).status(),
                    error: Some(why.to_string()),
                    ..Record::default()
                };
                push_json(text, &record);
            } else {
                write_judgement_end(text, style.mode, GAVE_UP);
            }
            return Answered {
                solved: false,
                gave_up: true,
                stats: Stats::default(),
                learnt: None,
            };
        }
    };
    let started = Instant::now();
    let mut solver = VariantSolver::new(&puzzle.rules, &puzzle.cells)
        .expect("the reader checks a variant's cells against its rules");
    let report = solver.count(
        &Limits::none()
            .with_max_solutions(Some(2))
            .with_node_budget(style.max_nodes)
            .with_deadline(style.time_limit.limit.map(|limit| started + limit)),
    );
    let counted: Counted = if report.outcome.gave_up() {
        Err(report.stats)
    } else {
        Ok((report.stats.solutions, report.stats))
    };
    let digit = |digit| variant_line::symbol(digit).to_string();
    let answer = |grid: &[u8]| puzzle.write_answer(grid);
    let solution = |grid: &[u8]| variant_line::write_cells(grid);
    let shown = Shown {
        at: origin,
        line: puzzle.line,
        variant: Some(puzzle.form_name()),
        geometry: &geometry,
        digit: &digit,
        answer: &answer,
        solution: &solution,
    };
    answer_by_logic(counted, &puzzle.cells, started, &shown, style, text)
}

/// The JSON record of every solution (written as they are found), as
/// for a classic puzzle.
fn every_solution_json(
    solver: &mut VariantSolver,
    puzzle: &VariantPuzzle,
    origin: At<'_>,
    limits: Limits,
    text: &mut String,
    flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
) -> io::Result<Answered> {
    let mut record = JsonObject::begin(text);
    record.field(text, "index", &origin.index);
    record.field(text, "file", origin.file);
    record.field(text, "line", &puzzle.line);
    record.field(text, "size", &puzzle.rules.side());
    record.field(text, "variant", puzzle.form_name());
    let mut solutions = record.list(text, "solutions");
    let mut flush = Flush::new(flush);
    let report = solver.search(&limits, |grid| {
        solutions.item(text, &variant_line::write_cells(grid));
        flush.after_solution(text)
    });
    flush.finish()?;
    solutions.end(text);
    Ok(end_every_solution_json(record, &report, None, text))
}
