//! The triad engine's tests: counts against the exact-cover engine and
//! tdoku's test puzzles, every solution checked by a checker that trusts no
//! engine, and every vector implementation this machine has run side by
//! side.

use super::*;
use crate::sudoku::testing::{cells, is_solution_of, random_puzzle, run};
use crate::sudoku::NineSolver;
use crate::sudoku::{Engine, Puzzles, Solver};
use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;

fn text(puzzle: &[u8]) -> String {
    puzzle
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// Every implementation of the vectors this machine can run.
fn solvers() -> Vec<NineSolver> {
    [Vectors::Portable, Vectors::Avx2, Vectors::Avx512]
        .into_iter()
        .filter(|v| v.available())
        .map(|v| NineSolver::Triad(TriadSolver::with_vectors(v)))
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
