//! The exact-cover model of target sudoku: [`TargetModel`] is the plain
//! 9×9 sudoku as exact cover, 324 primary items (each cell filled; each
//! digit once per row, column and box) and 729 options (digit d in cell
//! c), the givens forced, searched by branch and bound
//! ([`TargetModel::best_with`]); [`TargetPropagator`] adds the sudoku
//! rules and branches on the cells that set the score. Good grids come
//! early because the options are given to the engine in descending
//! weight × digit order (the engine tries an item's options in input
//! order), and the cells' items in descending weight order (so ties of
//! the fewest-options rule go to the heavier cell). It knows no input
//! format and prints nothing.

use std::sync::Arc;

use dlx_core::{Control, Domain, Limits, Problem, Propagator, Solver, Stats, Verdict};

use super::grid::{box_of, score, weight, Grid, CELLS, SCORING_CELLS, SIDE};
use super::parse::TargetPuzzle;
use super::search::{Best, Bound, BranchAndBound, Layout};
use crate::sudoku::logic::{Geometry, Rules};
use crate::sudoku::{Size, SudokuPropagator};

/// What a search for the best grid found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetAnswer {
    /// The best grid, or `None` when the puzzle has no solution (or the
    /// search stopped before it found one).
    pub best: Option<Best>,
    /// The engine's counters: search nodes, updates, and the complete
    /// grids the search reached (the others were cut off before).
    pub stats: Stats,
    /// Whether the search ran to its end (the best is then the maximum).
    pub complete: bool,
}

/// The 9×9 sudoku as exact cover, built once and shared by every search.
#[derive(Debug, Clone)]
pub struct TargetModel {
    problem: Problem,
    /// `choices[option]`: the cell and digit of an option.
    choices: Vec<(u8, u8)>,
    /// `option_of[cell][digit]`.
    option_of: [[u16; SIDE + 1]; CELLS],
    /// `cell_item[cell]`: the item of the cell (heaviest first).
    cell_item: [u8; CELLS],
    layout: Layout,
    geometry: Arc<Geometry>,
}

impl Default for TargetModel {
    fn default() -> Self {
        TargetModel::new()
    }
}

impl TargetModel {
    /// Builds the problem: items 0..81 are the cells, heaviest first, then
    /// come digit-in-row, digit-in-column and digit-in-box items; options
    /// are (cell, digit) pairs in descending weight × digit order.
    pub fn new() -> TargetModel {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        cells.sort_by_key(|&cell| std::cmp::Reverse(weight(cell)));
        let mut cell_item = [0; CELLS];
        for (item, &cell) in cells.iter().enumerate() {
            cell_item[cell] = item;
        }
        let mut choices: Vec<(u8, u8)> = (0..CELLS)
            .flat_map(|cell| (1..=SIDE as u8).map(move |digit| (cell as u8, digit)))
            .collect();
        choices.sort_by_key(|&(cell, digit)| {
            let cell = usize::from(cell);
            let value = weight(cell) * u32::from(digit);
            (
                std::cmp::Reverse(value),
                std::cmp::Reverse(digit),
                cell_item[cell],
            )
        });
        let mut builder = Problem::builder(4 * CELLS, 0);
        let mut option_of = [[0; SIDE + 1]; CELLS];
        for (option, &(cell, digit)) in choices.iter().enumerate() {
            let (cell, d) = (usize::from(cell), usize::from(digit) - 1);
            let (row, column) = (cell / SIDE, cell % SIDE);
            let items = [
                cell_item[cell],
                CELLS + row * SIDE + d,
                2 * CELLS + column * SIDE + d,
                3 * CELLS + box_of(cell) * SIDE + d,
            ];
            builder
                .add_option(items)
                .expect("the items are among the 324 of the problem");
            option_of[cell][usize::from(digit)] = option as u16;
        }
        TargetModel {
            problem: builder.build(),
            choices,
            option_of,
            cell_item: cell_item.map(|item| item as u8),
            layout: Layout::new(),
            geometry: Arc::new(Geometry::new(Size::new(3).expect("9×9 is a size"))),
        }
    }

    /// A solver for [`TargetModel::best_with`] that reasons with `rules`
    /// between choices (see [`TargetPropagator`]), or the plain one
    /// (`None`).
    pub fn solver(&self, rules: Option<Rules>) -> Solver {
        let mut solver = Solver::new(&self.problem);
        if let Some(rules) = rules {
            let propagator = TargetPropagator::new(self, rules);
            solver
                .set_propagator(Some(Box::new(propagator)))
                .expect("the model is plain exact cover");
        }
        solver
    }

    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The cell and digit of `option`.
    pub fn choice(&self, option: usize) -> (usize, u8) {
        let (cell, digit) = self.choices[option];
        (usize::from(cell), digit)
    }

    /// The options of the givens of `puzzle` (cells above 9 left out).
    pub fn givens(&self, puzzle: &TargetPuzzle) -> Vec<usize> {
        puzzle
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &digit)| digit != 0 && usize::from(digit) <= SIDE)
            .map(|(cell, &digit)| usize::from(self.option_of[cell][usize::from(digit)]))
            .collect()
    }

    /// The grid of a solution (givens included).
    pub fn grid(&self, options: &[usize]) -> Grid {
        let mut grid = [0; CELLS];
        for &option in options {
            let (cell, digit) = self.choice(option);
            grid[cell] = digit;
        }
        grid
    }

    /// The best grid of `puzzle`, by branch and bound with the default
    /// bound.
    pub fn best(&self, puzzle: &TargetPuzzle) -> TargetAnswer {
        let mut solver = self.solver(Some(DEFAULT_RULES));
        self.best_with(&mut solver, puzzle, Bound::default(), &Limits::none())
    }

    /// The best grid of `puzzle` by branch and bound with `bound`, on
    /// `solver` (made from [`TargetModel::problem`]), within `limits`.
    pub fn best_with(
        &self,
        solver: &mut Solver,
        puzzle: &TargetPuzzle,
        bound: Bound,
        limits: &Limits,
    ) -> TargetAnswer {
        if puzzle.givens_clash() {
            return TargetAnswer {
                best: None,
                stats: Stats::default(),
                complete: true,
            };
        }
        let mut guide =
            BranchAndBound::new(&self.layout, &self.choices, &self.option_of, puzzle, bound);
        let report = solver
            .search_guided(&self.givens(puzzle), limits, &mut guide)
            .expect("the givens are options of the model");
        TargetAnswer {
            best: guide.best,
            stats: report.stats,
            complete: report.outcome.is_complete(),
        }
    }

    /// The best grid of `puzzle` found by visiting every solution with the
    /// plain streaming search (no guide, no pruning), within `limits`: the
    /// slow reference the branch and bound is tested against.
    pub fn best_by_enumeration(&self, puzzle: &TargetPuzzle, limits: &Limits) -> TargetAnswer {
        let mut best: Option<Best> = None;
        if puzzle.givens_clash() {
            return TargetAnswer {
                best,
                stats: Stats::default(),
                complete: true,
            };
        }
        let mut solver = Solver::new(&self.problem);
        let report = solver
            .search(&self.givens(puzzle), limits, &mut |options: &[usize]| {
                let grid = self.grid(options);
                let score = score(&grid);
                if !matches!(&best, Some(b) if b.score >= score) {
                    best = Some(Best { score, grid });
                }
                Control::Continue
            })
            .expect("the givens are options of the model");
        TargetAnswer {
            best,
            stats: report.stats,
            complete: report.outcome.is_complete(),
        }
    }
}

/// The rules [`TargetModel::best`] reasons with.
pub const DEFAULT_RULES: Rules = Rules::FULL;

/// The sudoku rules on the target model's options, and the branching that
/// goes for the score: at each node the propagator of `cover sudoku`
/// ([`SudokuPropagator`]) removes what the rules eliminate, then the
/// search branches on a cell that sets the score (the centre, the corners and ring 2), the
/// one with the fewest candidates (its options come largest digit first),
/// rather than on whatever item has the fewest options. High scores come
/// first, and once those cells are filled the bound is exact, so the rest
/// of the grid is only checked to have a completion.
#[derive(Clone)]
pub struct TargetPropagator {
    sudoku: SudokuPropagator,
    /// The item of each cell.
    cell_item: [u8; CELLS],
}

impl TargetPropagator {
    /// The propagator of `model`, running `rules`.
    pub fn new(model: &TargetModel, rules: Rules) -> TargetPropagator {
        let option_of: Arc<[u32]> = (0..CELLS)
            .flat_map(|cell| (1..=SIDE).map(move |digit| u32::from(model.option_of[cell][digit])))
            .collect();
        TargetPropagator {
            sudoku: SudokuPropagator::new(Arc::clone(&model.geometry), rules, option_of),
            cell_item: model.cell_item,
        }
    }
}

impl Propagator for TargetPropagator {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        self.sudoku.propagate(domain)
    }

    fn choose(&mut self, _domain: &dyn Domain) -> Option<usize> {
        // The candidates as the propagation just left them. The cells that
        // set the score (centre, corners, ring 2: see the module docs)
        // first, the one with the fewest candidates; once they are all
        // filled the bound is the score itself, and any completion will
        // do. Then the cell with the fewest candidates.
        let candidates = self.sudoku.candidates();
        let open = |cell: &usize| candidates[*cell].count_ones() >= 2;
        let fewest = |cell: &usize| (candidates[*cell].count_ones(), *cell);
        SCORING_CELLS
            .iter()
            .copied()
            .filter(open)
            .min_by_key(fewest)
            .or_else(|| (0..CELLS).filter(open).min_by_key(fewest))
            .map(|cell| usize::from(self.cell_item[cell]))
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::target::parse::{random_puzzle, read_one, SAMPLE_1, SAMPLE_2};

    /// Checks a grid without the model: every line holds 1..=9 once and the
    /// givens are kept.
    fn assert_solves(puzzle: &TargetPuzzle, grid: &Grid) {
        for (cell, &given) in puzzle.cells.iter().enumerate() {
            assert!(given == 0 || grid[cell] == given, "given at {cell} changed");
        }
        for k in 0..SIDE {
            let mut row: Vec<u8> = (0..SIDE).map(|c| grid[k * SIDE + c]).collect();
            let mut column: Vec<u8> = (0..SIDE).map(|r| grid[r * SIDE + k]).collect();
            let mut square: Vec<u8> = (0..CELLS)
                .filter(|&c| box_of(c) == k)
                .map(|c| grid[c])
                .collect();
            for line in [&mut row, &mut column, &mut square] {
                line.sort_unstable();
                assert_eq!(*line, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
            }
        }
    }

    #[test]
    fn the_samples() {
        let model = TargetModel::new();
        for (text, expected) in [(SAMPLE_1, 2829), (SAMPLE_2, 2852)] {
            let puzzle = read_one(text);
            let answer = model.best(&puzzle);
            assert!(answer.complete);
            let best = answer.best.unwrap();
            assert_eq!(best.score, expected);
            assert_eq!(score(&best.grid), expected);
            assert_solves(&puzzle, &best.grid);
        }
    }

    /// On random puzzles with 35 or more givens (and 20 with 27 givens,
    /// which have hundreds of solutions each), every bound finds the maximum over all
    /// solutions, which the plain streaming search computes by visiting
    /// each one.
    #[test]
    fn branch_and_bound_equals_full_enumeration() {
        let model = TargetModel::new();
        let mut solver = Solver::new(model.problem());
        let mut rng = ChaCha8Rng::seed_from_u64(2009);
        let mut solutions = 0;
        for round in 0..120 {
            let keep = if round < 100 {
                rng.random_range(35..=40)
            } else {
                27
            };
            let puzzle = random_puzzle(&mut rng, keep);
            let all = model.best_by_enumeration(&puzzle, &Limits::none());
            assert!(all.complete);
            solutions += all.stats.solutions;
            let expected = all.best.expect("a puzzle cut from a grid has a solution");
            for bound in Bound::ALL {
                let answer = model.best_with(&mut solver, &puzzle, bound, &Limits::none());
                let best = answer.best.expect("found");
                assert_eq!(
                    best.score, expected.score,
                    "bound {bound}, puzzle {puzzle:?}"
                );
                assert_eq!(score(&best.grid), best.score);
                assert_solves(&puzzle, &best.grid);
                assert!(answer.stats.solutions <= all.stats.solutions);
            }
        }
        // The puzzles are not all trivial.
        assert!(solutions > 5000, "{solutions}");
    }

    #[test]
    fn puzzles_without_solution() {
        let model = TargetModel::new();
        let grid = |rows: &[&str]| {
            let mut text = rows.join("\n");
            for _ in rows.len()..SIDE {
                text.push_str("\n0 0 0 0 0 0 0 0 0");
            }
            read_one(&text)
        };
        // Two 5s in a row: the givens clash.
        let clash = grid(&["5 0 0 0 0 0 0 0 5"]);
        assert!(clash.givens_clash());
        // Not a digit (only a hand-made puzzle can hold one).
        let mut not_a_digit = grid(&[]);
        not_a_digit.cells[40] = 12;
        assert!(not_a_digit.givens_clash());
        // No clash, but (0,0) and (0,1) both need the 2 (column 0 and
        // column 1 already hold a 1).
        let indirect = grid(&[
            "0 0 3 4 5 6 7 8 9",
            "0 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "1 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 0 0",
            "0 1 0 0 0 0 0 0 0",
        ]);
        assert!(!indirect.givens_clash());
        for puzzle in [clash, not_a_digit, indirect] {
            for bound in [Bound::Rings, Bound::None] {
                let answer = model.best_with(
                    &mut Solver::new(model.problem()),
                    &puzzle,
                    bound,
                    &Limits::none(),
                );
                assert_eq!(answer.best, None);
                assert!(answer.complete);
            }
            assert_eq!(
                model.best_by_enumeration(&puzzle, &Limits::none()).best,
                None
            );
        }
    }

    #[test]
    fn a_full_grid_scores_itself() {
        let model = TargetModel::new();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let puzzle = random_puzzle(&mut rng, CELLS);
        let answer = model.best(&puzzle);
        let best = answer.best.unwrap();
        assert_eq!(best.grid, puzzle.cells);
        assert_eq!(best.score, score(&puzzle.cells));
        assert_eq!(answer.stats.solutions, 1);
    }
}
