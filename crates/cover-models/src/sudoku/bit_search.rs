//! The search loop of the bit-parallel 9×9 engines (triad and band), the
//! part they share so that their counts and limits mean the same: what a
//! search counts ([`BitStats`]) and the checks that end it (a solution,
//! a guess past the budget, a cancel, the deadline). It knows nothing of
//! either board.

use std::sync::atomic::Ordering;

use dlx_core::{Control, Deadline, Limits, Outcome};

/// The cells of a 9×9 grid.
const CELLS: usize = 81;

/// What a search of a bit-parallel 9×9 engine did, in its own terms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BitStats {
    /// Guesses made (each opens two branches; `--max-nodes` bounds these).
    pub guesses: u64,
    /// Rounds of reasoning: for the band engine a pass of the rules
    /// over the board, for the triad engine an update of a box or a band.
    pub rounds: u64,
    /// Solutions found.
    pub solutions: u64,
}

/// Counts a solution and hands `grid` to `visit`: the outcome that ends
/// the search, if this one does (the caller stops or the limit is reached).
/// Shared by the bit-parallel engines, so their limits mean the same.
#[inline]
pub(super) fn solution_found<F>(
    stats: &mut BitStats,
    limits: &Limits,
    visit: &mut F,
    grid: &[u8],
) -> Option<Outcome>
where
    F: FnMut(&[u8]) -> Control,
{
    stats.solutions += 1;
    if visit(grid) == Control::Stop {
        return Some(Outcome::Stopped);
    }
    limits
        .max_solutions
        .is_some_and(|max| stats.solutions >= max)
        .then_some(Outcome::SolutionLimit)
}

/// The check of a 9×9 engine's `search_without`: `cell` is a cell and
/// `digit` a digit.
///
/// # Panics
/// If either is out of range.
pub(super) fn assert_cell_and_digit(cell: usize, digit: u8) {
    assert!(
        cell < CELLS && (1..=9).contains(&digit),
        "a cell and a digit"
    );
}

/// The public `search` and `search_without` of a 9×9 engine, written once
/// over its private `$run(cells, struck, limits, visit)`, where `struck`
/// is the `(cell, digit)` to strike; each engine keeps its own docs.
macro_rules! search_entry_points {
    (
        via $run:ident;
        $(#[$search_doc:meta])*
        fn search;
        $(#[$without_doc:meta])*
        fn search_without;
    ) => {
        $(#[$search_doc])*
        pub fn search<F>(
            &mut self,
            cells: &[u8],
            limits: &::dlx_core::Limits,
            visit: F,
        ) -> (::dlx_core::Outcome, $crate::sudoku::bit_search::BitStats)
        where
            F: FnMut(&[u8]) -> ::dlx_core::Control,
        {
            self.$run(cells, None, limits, visit)
        }

        $(#[$without_doc])*
        pub fn search_without<F>(
            &mut self,
            cells: &[u8],
            cell: usize,
            digit: u8,
            limits: &::dlx_core::Limits,
            visit: F,
        ) -> (::dlx_core::Outcome, $crate::sudoku::bit_search::BitStats)
        where
            F: FnMut(&[u8]) -> ::dlx_core::Control,
        {
            $crate::sudoku::bit_search::assert_cell_and_digit(cell, digit);
            self.$run(cells, Some((cell, digit)), limits, visit)
        }
    };
}
pub(super) use search_entry_points;

/// Counts a guess about to be made: the outcome that ends the search
/// instead, if the guess budget is spent, the search was cancelled or its
/// deadline passed.
#[inline]
pub(super) fn guess_allowed(
    stats: &mut BitStats,
    budget: u64,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    deadline: &mut Deadline,
) -> Option<Outcome> {
    if stats.guesses >= budget {
        return Some(Outcome::NodeBudget);
    }
    if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
        return Some(Outcome::Cancelled);
    }
    if deadline.passed() {
        return Some(Outcome::TimeLimit);
    }
    stats.guesses += 1;
    None
}
