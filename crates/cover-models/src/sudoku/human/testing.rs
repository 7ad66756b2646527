//! Helpers of the technique tests: a puzzle's solution found by search
//! (which trusts no technique), and checks that a step, or a whole logical
//! path, never contradicts it.

use dlx_core::Limits;

use crate::sudoku::logic::Geometry;
use crate::sudoku::testing::{cells, run};
use crate::sudoku::{BandSolver, NineSolver, Size};

use super::board::Board;
use super::solver::{rate, Catalogue, Rated};
use super::step::{Rating, Step, Technique};

/// The 9×9 geometry.
pub(crate) fn nine() -> Geometry {
    Geometry::new(Size::new(3).unwrap())
}

/// The one solution of a 9×9 puzzle line (digits, `.` or `0` empty).
///
/// # Panics
/// If the puzzle has no solution or more than one.
pub(crate) fn solution(line: &str) -> Vec<u8> {
    let puzzle = cells(&line.replace('0', "."));
    let (found, _, _) = run(
        &mut NineSolver::Bands(BandSolver::new()),
        &puzzle,
        &Limits::solutions(2),
    );
    assert_eq!(found.len(), 1, "{line}: not one solution");
    found.into_iter().next().unwrap()
}

/// Panics unless `step` changes something and agrees with `solution`: every
/// placement is the solution's digit, no elimination removes it.
pub(crate) fn assert_sound(step: &Step, solution: &[u8]) {
    assert!(
        !step.placements.is_empty() || !step.eliminations.is_empty(),
        "{:?} changes nothing",
        step.technique
    );
    for p in &step.placements {
        assert_eq!(
            solution[usize::from(p.cell)],
            p.digit,
            "{step:?} places a wrong digit"
        );
    }
    for e in &step.eliminations {
        assert_ne!(
            solution[usize::from(e.cell)],
            e.digit,
            "{step:?} removes the true digit"
        );
    }
}

/// Rates a 9×9 puzzle line with `catalogue`, checking every step against
/// its solution and, when solved, the grid it ends on.
pub(crate) fn walk(line: &str, catalogue: Catalogue) -> Rated {
    let truth = solution(line);
    let geometry = nine();
    let rated = rate(&geometry, &cells(&line.replace('0', ".")), catalogue);
    for step in &rated.steps {
        assert_sound(step, &truth);
    }
    if rated.solved {
        assert_eq!(rated.grid, truth);
    }
    rated
}

/// The board of a 9×9 puzzle line after `catalogue`'s steps until the first
/// step that `stop` accepts (not applied), and that step.
pub(crate) fn board_before<'g>(
    geometry: &'g Geometry,
    line: &str,
    catalogue: Catalogue,
    stop: impl Fn(&Step) -> bool,
) -> Option<(Board<'g>, Step)> {
    let mut board = Board::new(geometry, &cells(&line.replace('0', ".")));
    while let Some(step) = super::solver::next_step(&board, catalogue) {
        if stop(&step) {
            return Some((board, step));
        }
        board.apply(&step);
    }
    None
}

/// Every finding of `find` on each board of `catalogue`'s path through a
/// 9×9 puzzle line, each checked against the solution: for techniques that
/// the path itself may not reach.
pub(crate) fn findings_along_path(
    line: &str,
    catalogue: Catalogue,
    find: fn(&Board, &mut Vec<Step>),
) -> Vec<Step> {
    let truth = solution(line);
    let geometry = nine();
    let mut board = Board::new(&geometry, &cells(&line.replace('0', ".")));
    let mut found = Vec::new();
    loop {
        let before = found.len();
        find(&board, &mut found);
        for step in &found[before..] {
            assert_sound(step, &truth);
        }
        let Some(step) = super::solver::next_step(&board, catalogue) else {
            return found;
        };
        board.apply(&step);
    }
}

/// Walks a 9×9 puzzle line with SE's set ([`walk`]) and checks that logic
/// solves it, rated `value` tenths as SE rates it.
pub(crate) fn assert_rated(line: &str, value: u16) -> Rated {
    let rated = walk(line, Catalogue::Rating);
    assert!(rated.solved, "{line} left unsolved");
    assert_eq!(rated.rating, Rating(value), "{line}");
    rated
}

/// The first step of `technique` worth `value` on SE's path through
/// `line`, checked against the solution, after [`assert_rated`] checked
/// the whole path rates `value`.
pub(crate) fn fires_and_rates(technique: Technique, value: u16, line: &str) -> Step {
    let geometry = nine();
    let (_, step) = board_before(&geometry, line, Catalogue::Rating, |s| {
        s.technique == technique && s.rating == Rating(value)
    })
    .unwrap_or_else(|| panic!("no {technique:?} worth {value} on {line}"));
    assert_sound(&step, &solution(line));
    assert_rated(line, value);
    step
}
