//! The bit-parallel 9×9 engines behind one type: what `cover sudoku`,
//! `cover generate` and the game search 9×9 puzzles with. Which one an
//! [`Engine`](super::Engine) asks for is decided with it, in `model.rs`.

use dlx_core::{Control, Limits, Outcome};

use super::band::BandSolver;
use super::bit_search::{search_entry_points, BitStats};
use super::triad::TriadSolver;

/// A 9×9 engine: the triad engine ([`TriadSolver`], the fastest with
/// AVX2 or AVX-512 and the same answers on every machine), or the band
/// engine ([`BandSolver`], faster where the triad engine runs its portable
/// vectors). Make one per thread and reuse it.
#[derive(Debug, Clone)]
pub enum NineSolver {
    /// Boxes and bands of triads.
    Triad(TriadSolver),
    /// Bands of three rows per digit (the name is [`Engine::Band`](super::Engine::Band)'s former
    /// one, kept for callers).
    Bands(BandSolver),
}

impl NineSolver {
    search_entry_points! {
        via run;
        /// [`TriadSolver::search`] or [`BandSolver::search`]: each solution of
        /// the 9×9 puzzle `cells` to `visit`, within `limits` (the node budget
        /// counts guesses).
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`.
        fn search;
        /// The search with `digit` struck from cell `cell`: the solutions
        /// where that cell holds another digit.
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`, or `cell` or `digit` is out of
        /// range.
        fn search_without;
    }

    fn run<F>(
        &mut self,
        cells: &[u8],
        struck: Option<(usize, u8)>,
        limits: &Limits,
        visit: F,
    ) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        match self {
            NineSolver::Triad(triad) => triad.run(cells, struck, limits, visit),
            NineSolver::Bands(bands) => bands.search_struck(cells, struck, limits, visit),
        }
    }
}

#[cfg(test)]
mod tests {
    //! What both 9×9 engines must do alike, run on the band engine and on
    //! every vector path of the triad engine this machine has.

    use super::*;
    use crate::sudoku::testing::{cells, is_solution_of, random_puzzle, run};
    use crate::sudoku::Vectors;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    const CELLS: usize = 81;

    /// The band engine and every triad vector path available here.
    fn engines() -> Vec<NineSolver> {
        let triads = [Vectors::Portable, Vectors::Avx2, Vectors::Avx512]
            .into_iter()
            .filter(|v| v.available())
            .map(|v| NineSolver::Triad(TriadSolver::with_vectors(v)));
        std::iter::once(NineSolver::Bands(BandSolver::new()))
            .chain(triads)
            .collect()
    }

    /// A search with a digit struck from a cell finds exactly the solutions
    /// of the full search that have another digit there.
    #[test]
    fn a_struck_digit_leaves_the_other_solutions() {
        let mut rng = ChaCha8Rng::seed_from_u64(182);
        let mut solvers = engines();
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
        let expected = cells(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        );
        for solver in &mut engines() {
            let (found, outcome, stats) = run(solver, &cells(puzzle), &Limits::none());
            assert_eq!((outcome, stats.solutions), (Outcome::Exhausted, 1));
            assert_eq!(found, vec![expected.clone()]);
            assert_eq!(stats.guesses, 0);
        }
    }

    #[test]
    fn clashes_limits_budget_stop_and_cancel() {
        for mut solver in engines() {
            clashes_limits_budget_stop_and_cancel_with(&mut solver);
        }
    }

    fn clashes_limits_budget_stop_and_cancel_with(solver: &mut NineSolver) {
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
        let budget = Limits::none().with_node_budget(Some(3));
        let (_, outcome, stats) = run(solver, &empty, &budget);
        assert_eq!((outcome, stats.guesses), (Outcome::NodeBudget, 3));
        let (outcome, stats) = solver.search(&empty, &Limits::solutions(5), |_| Control::Stop);
        assert_eq!((outcome, stats.solutions), (Outcome::Stopped, 1));
        let cancelled = Limits::none().with_cancel(Some(std::sync::Arc::new(
            std::sync::atomic::AtomicBool::new(true),
        )));
        assert_eq!(run(solver, &empty, &cancelled).1, Outcome::Cancelled);
    }
}
