//! The bit-parallel 9×9 engines behind one type: what `cover sudoku`,
//! `cover generate` and the game search 9×9 puzzles with.

use dlx_core::{Control, Limits, Outcome};

use super::bits::{BitSolver, BitStats};
use super::model::Engine;
use super::triad::{TriadSolver, Vectors};

/// A 9×9 engine: the triad engine ([`TriadSolver`], the fastest with
/// AVX2 or AVX-512 and the same answers on every machine), or the band
/// engine ([`BitSolver`], faster where the triad engine runs its portable
/// vectors). Make one per thread and reuse it.
#[derive(Debug, Clone)]
pub enum NineSolver {
    /// Boxes and bands of triads.
    Triad(TriadSolver),
    /// Bands of three rows per digit.
    Bands(BitSolver),
}

impl NineSolver {
    /// The engine `engine` asks for on 9×9: the band engine for
    /// [`Engine::Bands`], and for [`Engine::Auto`] on a machine where the
    /// triad engine would run its portable vectors (there the band engine
    /// takes a fifth to a third of its time); the triad engine otherwise.
    pub fn for_engine(engine: Engine) -> NineSolver {
        let bands = match engine {
            Engine::Bands => true,
            Engine::Auto => Vectors::detect() == Vectors::Portable,
            Engine::Bits | Engine::Compact | Engine::Linked => false,
        };
        if bands {
            NineSolver::Bands(BitSolver::new())
        } else {
            NineSolver::Triad(TriadSolver::new())
        }
    }

    /// [`TriadSolver::search`] or [`BitSolver::search`]: each solution of
    /// the 9×9 puzzle `cells` to `visit`, within `limits` (the node budget
    /// counts guesses).
    ///
    /// # Panics
    /// If `cells` is not 81 digits `0..=9`.
    pub fn search<F>(&mut self, cells: &[u8], limits: &Limits, visit: F) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        match self {
            NineSolver::Triad(triad) => triad.search(cells, limits, visit),
            NineSolver::Bands(bands) => bands.search(cells, limits, visit),
        }
    }

    /// The search with `digit` struck from cell `cell`: the solutions
    /// where that cell holds another digit.
    ///
    /// # Panics
    /// If `cells` is not 81 digits `0..=9`, or `cell` or `digit` is out of
    /// range.
    pub fn search_without<F>(
        &mut self,
        cells: &[u8],
        cell: usize,
        digit: u8,
        limits: &Limits,
        visit: F,
    ) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        match self {
            NineSolver::Triad(triad) => triad.search_without(cells, cell, digit, limits, visit),
            NineSolver::Bands(bands) => bands.search_without(cells, cell, digit, limits, visit),
        }
    }
}
