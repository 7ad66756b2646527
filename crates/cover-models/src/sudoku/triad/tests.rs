//! The triad engine's tests: counts against the exact-cover engine and
//! tdoku's test puzzles, every solution checked by a checker that trusts no
//! engine, and every vector implementation this machine has run side by
//! side.

use super::*;
use crate::sudoku::testing::{is_solution_of, random_puzzle};
use crate::sudoku::{Engine, Puzzles, Solver};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

fn cells(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

fn text(puzzle: &[u8]) -> String {
    puzzle
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// Every implementation of the vectors this machine can run.
fn solvers() -> Vec<TriadSolver> {
    [Vectors::Portable, Vectors::Avx2, Vectors::Avx512]
        .into_iter()
        .filter(|v| v.available())
        .map(TriadSolver::with_vectors)
        .collect()
}

#[test]
fn the_solver_runs_what_it_was_asked_if_it_can() {
    for vectors in [Vectors::Portable, Vectors::Avx2, Vectors::Avx512] {
        let expected = if vectors.available() {
            vectors
        } else {
            Vectors::Portable
        };
        assert_eq!(TriadSolver::with_vectors(vectors).vectors(), expected);
    }
    assert_eq!(TriadSolver::new().vectors(), Vectors::detect());
}

/// The solutions (in order) and the outcome and statistics of a search.
fn run(
    solver: &mut TriadSolver,
    puzzle: &[u8],
    limits: &Limits,
) -> (Vec<Vec<u8>>, Outcome, BitStats) {
    let mut found = Vec::new();
    let (outcome, stats) = solver.search(puzzle, limits, |grid| {
        found.push(grid.to_vec());
        Control::Continue
    });
    (found, outcome, stats)
}

/// Counts at several limits equal the compact exact-cover engine's on
/// random puzzles with many solutions, one, none or clashing givens;
/// every solution is a valid grid keeping the givens, none comes twice,
/// and each implementation of the vectors finds the same solutions in the
/// same order with the same statistics.
#[test]
fn counts_equal_the_exact_cover_engines_on_every_vector_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(181);
    let mut exact = Solver::new(Engine::Compact);
    let mut solvers = solvers();
    let mut kinds = [0usize; 3];
    for round in 0..700 {
        let keep = [8, 14, 20, 26, 32, 45, 60][round % 7];
        let puzzle = random_puzzle(&mut rng, 3, keep);
        let line = text(&puzzle);
        let parsed = Puzzles::new(line.as_bytes(), None).next().unwrap().unwrap();
        for limit in [1u64, 2, 17, 200] {
            let expected = exact.count(&parsed, Some(limit)).stats.solutions;
            let limits = Limits::solutions(limit);
            let first = run(&mut solvers[0], &puzzle, &limits);
            let (found, _, stats) = &first;
            assert_eq!(stats.solutions, expected, "{line} at limit {limit}");
            assert_eq!(found.len() as u64, expected);
            let mut seen = std::collections::HashSet::new();
            for grid in found {
                assert!(is_solution_of(3, &puzzle, grid), "{line}: {grid:?}");
                assert!(seen.insert(grid), "{line}: a solution twice");
            }
            for other in &mut solvers[1..] {
                assert!(
                    run(other, &puzzle, &limits) == first,
                    "{line}: the vector paths differ"
                );
            }
            if limit == 2 {
                kinds[expected.min(2) as usize] += 1;
            }
        }
    }
    // The draw covers every case.
    assert!(kinds.iter().all(|&k| k > 20), "none/one/several: {kinds:?}");
}

/// tdoku's test puzzles: each count as the file gives it (to 2), and the
/// solution it gives when it gives one.
#[test]
fn tdoku_test_puzzles_have_their_counts() {
    let file = include_str!("../../../../../fixtures/sudoku/tdoku_test_puzzles_with_counts.txt");
    let mut checked = 0;
    for line in file
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut fields = line.split(':');
        let puzzle = cells(fields.next().unwrap());
        let count: u64 = fields.next().unwrap().parse().unwrap();
        let solution = fields.next().map(cells);
        for solver in &mut solvers() {
            let (found, _, stats) = run(solver, &puzzle, &Limits::solutions(2));
            assert_eq!(stats.solutions, count.min(2), "{line}");
            if let Some(solution) = &solution {
                assert_eq!(&found[0], solution, "{line}");
            }
            assert!(found.iter().all(|g| is_solution_of(3, &puzzle, g)));
        }
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

/// A search with a digit struck from a cell finds exactly the solutions
/// of the full search that have another digit there.
#[test]
fn a_struck_digit_leaves_the_other_solutions() {
    let mut rng = ChaCha8Rng::seed_from_u64(182);
    let mut solvers = solvers();
    let (mut empty_struck, mut given_struck) = (0, 0);
    for round in 0..1000 {
        let puzzle = random_puzzle(&mut rng, 3, [14, 20, 26, 32][round % 4]);
        let (all, outcome, _) = run(&mut solvers[0], &puzzle, &Limits::solutions(300));
        if outcome != Outcome::Exhausted {
            continue;
        }
        let cell = rng.random_range(0..CELLS);
        let digit = rng.random_range(1..=9);
        let mut expected: Vec<_> = all.into_iter().filter(|g| g[cell] != digit).collect();
        expected.sort();
        for solver in &mut solvers {
            let mut struck = Vec::new();
            solver.search_without(&puzzle, cell, digit, &Limits::none(), |grid| {
                assert!(is_solution_of(3, &puzzle, grid));
                struck.push(grid.to_vec());
                Control::Continue
            });
            struck.sort();
            assert_eq!(struck, expected, "{puzzle:?} without {digit} at {cell}");
        }
        if puzzle[cell] == 0 {
            empty_struck += usize::from(!expected.is_empty());
        } else {
            given_struck += 1;
        }
    }
    assert!(
        empty_struck > 50 && given_struck > 50,
        "{empty_struck} {given_struck}"
    );
}

#[test]
fn the_classic_needs_no_guess() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let expected =
        cells("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    for solver in &mut solvers() {
        let (found, outcome, stats) = run(solver, &cells(puzzle), &Limits::none());
        assert_eq!((outcome, stats.solutions), (Outcome::Exhausted, 1));
        assert_eq!(found, vec![expected.clone()]);
        assert_eq!(stats.guesses, 0);
    }
}

#[test]
fn clashes_limits_budget_stop_and_cancel() {
    for mut solver in solvers() {
        clashes_limits_budget_stop_and_cancel_with(&mut solver);
    }
}

fn clashes_limits_budget_stop_and_cancel_with(solver: &mut TriadSolver) {
    // Two fives in a row, in a column, in a box.
    for (a, b) in [(0, 5), (0, 45), (0, 10)] {
        let mut clash = vec![0u8; 81];
        (clash[a], clash[b]) = (5, 5);
        let (found, outcome, _) = run(solver, &clash, &Limits::none());
        assert_eq!((found.len(), outcome), (0, Outcome::Exhausted), "{a} {b}");
    }
    let empty = vec![0u8; 81];
    let (found, outcome, stats) = run(solver, &empty, &Limits::solutions(1000));
    assert_eq!((outcome, stats.solutions), (Outcome::SolutionLimit, 1000));
    assert!(found.iter().all(|g| is_solution_of(3, &empty, g)));
    assert_eq!(
        run(solver, &empty, &Limits::solutions(0)).1,
        Outcome::SolutionLimit
    );
    let budget = Limits {
        node_budget: Some(3),
        ..Limits::none()
    };
    let (_, outcome, stats) = run(solver, &empty, &budget);
    assert_eq!((outcome, stats.guesses), (Outcome::NodeBudget, 3));
    let (outcome, stats) = solver.search(&empty, &Limits::solutions(5), |_| Control::Stop);
    assert_eq!((outcome, stats.solutions), (Outcome::Stopped, 1));
    let cancelled = Limits {
        cancel: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            true,
        ))),
        ..Limits::none()
    };
    assert_eq!(run(solver, &empty, &cancelled).1, Outcome::Cancelled);
}
