//! The exact-cover model of one sudoku size ([`Model`]) and the per-thread
//! [`Solver`] that answers puzzles with it.
//!
//! Items, for a grid of side `s` (`s = n²`) and `s²` cells: cell `(r, c)`
//! is item `r·s + c`; "row `r` has digit `d`" is `s² + r·s + d`; "column
//! `c` has `d`" is `2s² + c·s + d`; "box `b` has `d`" is `3s² + b·s + d`
//! (digits from 0 here). Option `(r·s + c)·s + d` puts `d` in cell
//! `(r, c)` and covers those four items. Every item has exactly `s`
//! options, so the compact engine applies to every size up to 64×64.
//!
//! The problem is built once per size and per [`Solver`]; a puzzle is the
//! search with its givens' options forced, so nothing is rebuilt between
//! puzzles, and contradicting givens simply give no solution.
//!
//! The [`Solver`] also holds the 9×9 engines that are not exact cover: the
//! triad engine ([`TriadSolver`](super::TriadSolver)) and the band engine
//! ([`BandSolver`](super::BandSolver)). [`Engine::Auto`] (the default)
//! uses one of them for 9×9 puzzles searched without a propagator, where
//! they are the fastest.

use dlx_core::{
    count_compact_resumed, first_compact_resumed, CompactSolver, Control, Limits, Outcome, Problem,
    Report, ShareConfig, Solver as Linked, Stats,
};

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::band::BandSolver;
use super::logic::box_of;
use super::nine::NineSolver;
use super::propagate::{Level, SudokuPropagator};
use super::symbols::Size;
use super::triad::{TriadSolver, Vectors};
use super::Puzzle;

/// The node budget of the first search of a propagated
/// [`Solver::first_with`] (see `Solver::first_restarted`).
pub const FIRST_RESTART: u64 = 2_000;

/// The exact-cover problem of one size.
#[derive(Debug, Clone)]
pub struct Model {
    size: Size,
    problem: Problem,
    /// The cell and digit (`1..=n²`) of each option (a table, because a
    /// division per option costs more than the search of an easy puzzle
    /// spends on it).
    cell_digit: Vec<(u16, u8)>,
}

impl Model {
    /// Builds the problem of `size`.
    pub fn new(size: Size) -> Model {
        let n = size.box_side();
        let side = size.side();
        let cells = size.cells();
        let mut builder = Problem::builder(4 * cells, 0);
        for r in 0..side {
            for c in 0..side {
                let b = box_of(n, r, c);
                for d in 0..side {
                    builder
                        .add_option([
                            r * side + c,
                            cells + r * side + d,
                            2 * cells + c * side + d,
                            3 * cells + b * side + d,
                        ])
                        .expect("the four items are distinct and exist");
                }
            }
        }
        let cell_digit = (0..side * cells)
            .map(|option| ((option / side) as u16, (option % side) as u8 + 1))
            .collect();
        Model {
            size,
            problem: builder.build(),
            cell_digit,
        }
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The option that puts `digit` (`1..=n²`) in `cell` (row-major).
    pub fn option(&self, cell: usize, digit: u8) -> usize {
        cell * self.size.side() + (digit as usize - 1)
    }

    /// The cell and digit (`1..=n²`) of `option`.
    pub fn cell_and_digit(&self, option: usize) -> (usize, u8) {
        let (cell, digit) = self.cell_digit[option];
        (cell as usize, digit)
    }

    /// The options of the given cells of `cells` (0 is empty), appended to
    /// `out`. Cells past the grid and digits out of range are ignored (the
    /// reader never makes them).
    pub fn givens(&self, cells: &[u8], out: &mut Vec<usize>) {
        let side = self.size.side();
        for (cell, &digit) in cells.iter().enumerate().take(self.size.cells()) {
            if (1..=side).contains(&(digit as usize)) {
                out.push(self.option(cell, digit));
            }
        }
    }

    /// Writes the digits of a solution (its options) into `grid`.
    pub fn fill(&self, options: &[usize], grid: &mut [u8]) {
        for &option in options {
            let (cell, digit) = self.cell_and_digit(option);
            grid[cell] = digit;
        }
    }
}

/// Which engine searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Engine {
    /// The fastest for the puzzle on this machine: for 9×9 without a
    /// propagator (its reasoning is its own) [`Engine::Triad`], or
    /// [`Engine::Band`] where the triad engine lacks AVX2; else
    /// [`Engine::Compact`].
    #[default]
    Auto,
    /// The triad engine ([`TriadSolver`](super::TriadSolver)) for 9×9, the
    /// fastest where it has AVX2, with the same answers on every machine;
    /// other sizes search with the compact engine. Its nodes are one per
    /// guess plus the root, and no propagator applies.
    Triad,
    /// [`Engine::Triad`] with the band engine
    /// ([`BandSolver`](super::BandSolver)) for 9×9: faster than the triad
    /// engine on machines without AVX2, where that runs its portable
    /// vectors.
    Band,
    /// [`CompactSolver`]: bit masks and saved states, several times faster
    /// than the linked engine (falls back to it where it does not apply).
    Compact,
    /// The classic dancing links of [`dlx_core::Solver`], the reference:
    /// its node counts are Knuth's.
    Linked,
}

#[allow(non_upper_case_globals)]
impl Engine {
    /// The former name of [`Engine::Triad`].
    pub const Bits: Engine = Engine::Triad;
    /// The former name of [`Engine::Band`].
    pub const Bands: Engine = Engine::Band;
}

impl NineSolver {
    /// The engine `engine` asks for on 9×9: the band engine for
    /// [`Engine::Band`], and for [`Engine::Auto`] on a machine where the
    /// triad engine would run its portable vectors (the band engine is
    /// faster there); the triad engine otherwise.
    pub fn for_engine(engine: Engine) -> NineSolver {
        let bands = match engine {
            Engine::Band => true,
            Engine::Auto => Vectors::detect() == Vectors::Portable,
            Engine::Triad | Engine::Compact | Engine::Linked => false,
        };
        if bands {
            NineSolver::Bands(BandSolver::new())
        } else {
            NineSolver::Triad(TriadSolver::new())
        }
    }
}

/// The model and engine of one size.
#[derive(Debug)]
struct Searcher {
    model: Model,
    compact: Option<CompactSolver>,
    linked: Option<Linked>,
    /// The restart counter of the attached propagator, if any.
    restarts: Option<Arc<AtomicU32>>,
}

impl Searcher {
    /// Attaches the propagator of `level` for this size to the engine (or
    /// none).
    fn attach(&mut self, level: Level) {
        let size = self.model.size();
        let propagator = level
            .rules_for(size)
            .map(|rules| SudokuPropagator::for_model(size, rules));
        self.restarts = propagator.as_ref().map(SudokuPropagator::restarts);
        let propagator = propagator.map(|p| Box::new(p) as _);
        if let Some(compact) = &mut self.compact {
            compact.set_propagator(propagator);
        } else if let Some(linked) = &mut self.linked {
            linked
                .set_propagator(propagator)
                .expect("the sudoku model is plain exact cover");
        }
    }
}

/// Solves puzzles of any size, one after another; make one per thread.
/// Models and engines are built the first time a size is met and kept.
#[derive(Debug)]
pub struct Solver {
    engine: Engine,
    /// By box side.
    searchers: Vec<Option<Searcher>>,
    givens: Vec<usize>,
    grid: Vec<u8>,
    /// Searches of the compact engine that pass this many nodes are split
    /// across rayon's threads ([`Solver::split_after`]).
    split_after: Option<u64>,
    /// No search goes past this many nodes ([`Solver::max_nodes`]).
    max_nodes: Option<u64>,
    /// No search runs longer than this ([`Solver::time_limit`]).
    time_limit: Option<Duration>,
    /// How much reasoning between choices ([`Solver::propagate`]).
    level: Level,
    /// The 9×9 engine, of the kind [`Engine`] asks for, made when first
    /// used.
    nine: Option<NineSolver>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(Engine::default())
    }
}

impl Solver {
    /// A solver that searches with `engine`.
    pub fn new(engine: Engine) -> Solver {
        Solver {
            engine,
            searchers: (0..=Size::MAX_BOX).map(|_| None).collect(),
            givens: Vec::new(),
            grid: Vec::new(),
            split_after: None,
            max_nodes: None,
            time_limit: None,
            level: Level::None,
            nine: None,
        }
    }

    /// Reasons between choices at `level` from now on (the default of a
    /// new solver is [`Level::None`]: the plain search). With a propagator
    /// the node counts are those of the propagated search, and the
    /// report's `propagated` counts the options reasoning removed.
    pub fn propagate(&mut self, level: Level) {
        self.level = level;
        for searcher in self.searchers.iter_mut().flatten() {
            searcher.attach(level);
        }
    }

    /// The propagation level it was asked to use.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Shares a search of [`Solver::first`] or [`Solver::count`] with
    /// rayon's other threads once it has taken `nodes` search nodes alone
    /// (`None`, the default: never), as [`first_compact_resumed`] does.
    /// Only the compact engine shares. The answers are the serial search's
    /// (the same first solution, the same count); the node counts of shared
    /// searches are the work of every thread, and vary from run to run.
    /// Searches with a propagator ([`Solver::propagate`]) are not shared.
    ///
    /// The solver must not be borrowed from a place that another task on
    /// the same thread may borrow it from too: while it waits for the
    /// threads, rayon may run other tasks on this thread.
    pub fn split_after(&mut self, nodes: Option<u64>) {
        self.split_after = nodes;
    }

    /// Gives up every search at `nodes` search nodes (`None`, the default:
    /// never): its report's outcome is then [`Outcome::NodeBudget`], with
    /// the solutions found until then. It is a [`Limits::node_budget`], so
    /// it bounds the levels entered: a solution found on the last one still
    /// counts a node, and a search that needs only that one more finishes. A search so bounded is never shared
    /// between threads ([`Solver::split_after`]), so whether it gives up
    /// does not depend on the threads.
    pub fn max_nodes(&mut self, nodes: Option<u64>) {
        self.max_nodes = nodes;
    }

    /// Gives up every search once it has run for `limit` (`None`, the
    /// default: never): its report's outcome is then
    /// [`Outcome::TimeLimit`]. The clock starts when [`Solver::first`],
    /// [`Solver::count`] or [`Solver::solve`] is called, and covers every
    /// part of the search (its restarts, the threads it is shared with).
    /// Unlike [`Solver::max_nodes`], it does not keep a search from being
    /// shared: where it ends depends on the machine anyway.
    pub fn time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    /// The deadline of a search that starts now.
    fn deadline(&self) -> Option<Instant> {
        Limits::none().with_time_limit(self.time_limit).deadline
    }

    /// The engine it was asked to use.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    fn searcher(&mut self, size: Size) -> &mut Searcher {
        let engine = self.engine;
        let level = self.level;
        self.searchers[size.box_side()].get_or_insert_with(|| {
            let model = Model::new(size);
            let compact = match engine {
                Engine::Auto | Engine::Triad | Engine::Band | Engine::Compact => {
                    CompactSolver::new(model.problem()).ok()
                }
                Engine::Linked => None,
            };
            let linked = compact.is_none().then(|| Linked::new(model.problem()));
            let mut searcher = Searcher {
                model,
                compact,
                linked,
                restarts: None,
            };
            searcher.attach(level);
            searcher
        })
    }

    /// Whether puzzles of `size` go to a bit-parallel 9×9 engine.
    pub fn uses_bits(&self, size: Size) -> bool {
        let nine = size.box_side() == 3;
        match self.engine {
            Engine::Triad | Engine::Band => nine,
            // Faster than the compact engine on 9×9 unless a propagator
            // is asked for (see docs/measurements.md).
            Engine::Auto => nine && self.level.rules_for(size).is_none(),
            Engine::Compact | Engine::Linked => false,
        }
    }

    /// Searches `puzzle` within `limits` (and [`Solver::max_nodes`] and
    /// [`Solver::time_limit`]) and hands each solution to `visit` as a
    /// grid of digits `1..=n²`, row by row (givens included). Returning
    /// [`Control::Stop`] ends the search.
    pub fn solve<F>(&mut self, puzzle: &Puzzle, limits: &Limits, mut visit: F) -> Report
    where
        F: FnMut(&[u8]) -> Control,
    {
        let timed;
        let limits = match self.time_limit {
            Some(_) => {
                timed = limits.clone().with_time_limit(self.time_limit);
                &timed
            }
            None => limits,
        };
        if self.uses_bits(puzzle.size) {
            return self.solve_bits(puzzle, limits, visit);
        }
        let capped;
        let limits = match self.max_nodes {
            Some(most) if limits.node_budget.is_none_or(|budget| budget > most) => {
                capped = limits.clone().with_node_budget(Some(most));
                &capped
            }
            _ => limits,
        };
        let mut givens = std::mem::take(&mut self.givens);
        let mut grid = std::mem::take(&mut self.grid);
        givens.clear();
        grid.clear();
        grid.resize(puzzle.size.cells(), 0);
        let searcher = self.searcher(puzzle.size);
        let model = &searcher.model;
        model.givens(&puzzle.cells, &mut givens);
        let mut on_solution = |options: &[usize]| {
            model.fill(options, &mut grid);
            visit(&grid)
        };
        let report = match (&mut searcher.compact, &mut searcher.linked) {
            (Some(compact), _) => compact.search(&givens, limits, &mut on_solution),
            (None, Some(linked)) => linked.search(&givens, limits, &mut on_solution),
            (None, None) => unreachable!("one engine is always built"),
        }
        .unwrap_or(Report::new(Outcome::Exhausted, Stats::default()));
        self.givens = givens;
        self.grid = grid;
        report
    }

    /// [`Solver::solve`] by the bit-parallel engine. Its nodes are the
    /// root plus one per guess, so a node budget of `n` allows `n - 1`
    /// guesses.
    fn solve_bits<F>(&mut self, puzzle: &Puzzle, limits: &Limits, visit: F) -> Report
    where
        F: FnMut(&[u8]) -> Control,
    {
        let budget = match (limits.node_budget, self.max_nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let limits = limits
            .clone()
            .with_node_budget(budget.map(|nodes| nodes.saturating_sub(1)));
        let engine = self.engine;
        let (outcome, stats) = self
            .nine
            .get_or_insert_with(|| NineSolver::for_engine(engine))
            .search(&puzzle.cells, &limits, visit);
        Report::new(outcome, {
            let mut counted = Stats::default();
            counted.nodes = stats.guesses + 1;
            counted.solutions = stats.solutions;
            counted
        })
    }

    /// The compact engine of `puzzle`'s size, when it searches (to share
    /// a long search), and the model.
    fn compact_of(&mut self, puzzle: &Puzzle) -> Option<(&Model, &mut CompactSolver)> {
        let searcher = self.searcher(puzzle.size);
        Some((&searcher.model, searcher.compact.as_mut()?))
    }

    /// The node budget of a search alone before it is shared:
    /// [`Solver::split_after`] with the compact engine, unless searches are
    /// bounded ([`Solver::max_nodes`]), which are never shared.
    fn solo_budget(&mut self, puzzle: &Puzzle) -> Option<u64> {
        // Nor are propagated searches: their branching learns from the
        // dead ends it meets (see `SudokuPropagator::choose`), so a part
        // searched on another thread would branch otherwise, and the first
        // solution could depend on the threads.
        if self.max_nodes.is_some()
            || self.level.rules_for(puzzle.size).is_some()
            || self.uses_bits(puzzle.size)
        {
            return None;
        }
        let nodes = self.split_after?;
        self.compact_of(puzzle).map(|_| nodes)
    }

    /// How a search that must end by `deadline` is shared between threads.
    fn share_config(&self, deadline: Option<Instant>) -> ShareConfig {
        ShareConfig::default()
            .with_solo_nodes(self.split_after.unwrap_or(u64::MAX))
            .with_deadline(deadline)
    }

    /// The first solution of `puzzle`, with the search's report.
    pub fn first(&mut self, puzzle: &Puzzle) -> (Option<Vec<u8>>, Report) {
        let mut found = None;
        let report = self.first_with(puzzle, |grid| found = Some(grid.to_vec()));
        (found, report)
    }

    /// Hands the first solution of `puzzle` to `visit`, if there is one (as
    /// [`Solver::solve`] does), and returns the search's report.
    pub fn first_with<F: FnOnce(&[u8])>(&mut self, puzzle: &Puzzle, visit: F) -> Report {
        let restarts = if self.uses_bits(puzzle.size) {
            None
        } else {
            self.searcher(puzzle.size).restarts.clone()
        };
        if let Some(restarts) = restarts {
            return self.first_restarted(puzzle, &restarts, visit);
        }
        let mut visit = Some(visit);
        let limits = Limits::none()
            .with_max_solutions(Some(1))
            .with_node_budget(self.solo_budget(puzzle))
            .with_deadline(self.deadline());
        let report = self.solve(puzzle, &limits, |grid| {
            if let Some(visit) = visit.take() {
                visit(grid);
            }
            // The limit of one stops the search, reported as such.
            Control::Continue
        });
        if report.outcome != Outcome::NodeBudget || self.max_nodes.is_some() {
            return report;
        }
        // A long search: go on with every thread.
        let config = self.share_config(limits.deadline);
        let (model, compact) = self.compact_of(puzzle).expect("only it has a budget");
        let (first, report) = first_compact_resumed(compact, &report, &config);
        if let (Some(options), Some(visit)) = (first, visit) {
            let mut grid = vec![0; puzzle.size.cells()];
            model.fill(&options, &mut grid);
            visit(&grid);
        }
        report
    }

    /// [`Solver::first_with`] for a propagated search: searches of growing
    /// node budgets ([`FIRST_RESTART`] nodes, then half as many again each
    /// time), each keeping what the earlier ones learnt about where dead
    /// ends are (see [`SudokuPropagator::restarts`]), until one ends by
    /// itself (with the solution, or none) or [`Solver::max_nodes`] is
    /// spent. The report counts the nodes of all of them.
    fn first_restarted<F: FnOnce(&[u8])>(
        &mut self,
        puzzle: &Puzzle,
        restarts: &AtomicU32,
        visit: F,
    ) -> Report {
        let mut visit = Some(visit);
        let mut stats = Stats::default();
        let mut budget = FIRST_RESTART;
        let deadline = self.deadline();
        let most = self.max_nodes.unwrap_or(u64::MAX);
        let max_nodes = self.max_nodes.take();
        let mut restart = 0u32;
        let report = loop {
            restarts.store(restart, Ordering::Relaxed);
            let left = most.saturating_sub(stats.nodes);
            let limits = Limits::none()
                .with_max_solutions(Some(1))
                .with_node_budget(Some(budget.min(left)))
                .with_deadline(deadline);
            let report = self.solve(puzzle, &limits, |grid| {
                if let Some(visit) = visit.take() {
                    visit(grid);
                }
                Control::Continue
            });
            let solutions = report.stats.solutions;
            stats += report.stats;
            stats.solutions = solutions;
            if report.outcome != Outcome::NodeBudget || stats.nodes >= most {
                break Report::new(report.outcome, stats);
            }
            restart += 1;
            budget = budget.saturating_add(budget / 2);
        };
        restarts.store(0, Ordering::Relaxed);
        self.max_nodes = max_nodes;
        report
    }

    /// Counts the solutions of `puzzle`, stopping at `limit` when given.
    pub fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report {
        let limits = Limits::none()
            .with_max_solutions(limit)
            .with_node_budget(self.solo_budget(puzzle))
            .with_deadline(self.deadline());
        let report = self.solve(puzzle, &limits, |_| Control::Continue);
        if report.outcome != Outcome::NodeBudget || self.max_nodes.is_some() {
            return report;
        }
        let config = self.share_config(limits.deadline);
        let (_, compact) = self.compact_of(puzzle).expect("only it has a budget");
        count_compact_resumed(compact, &report, limit, &config)
    }

    /// Whether every linked engine's links equal a fresh one's (a test that
    /// searches restored them).
    pub fn links_restored(&self) -> bool {
        self.searchers.iter().flatten().all(|s| match &s.linked {
            Some(linked) => linked.links_equal(&Linked::new(s.model.problem())),
            None => true,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::sudoku::logic::Rules;
    use crate::sudoku::Puzzles;

    /// Checks that `grid` is a solution of `puzzle`: every row, column and
    /// box holds each digit once, and the givens are kept.
    fn check(puzzle: &Puzzle, grid: &[u8]) {
        let n = puzzle.size.box_side();
        let s = n * n;
        assert_eq!(grid.len(), s * s);
        for (given, got) in puzzle.cells.iter().zip(grid) {
            assert!(*given == 0 || given == got, "a given changed");
        }
        let units = (0..s).flat_map(|k| {
            let row: Vec<usize> = (0..s).map(|c| k * s + c).collect();
            let col: Vec<usize> = (0..s).map(|r| r * s + k).collect();
            let (br, bc) = (k / n * n, k % n * n);
            let bx: Vec<usize> = (0..s).map(|j| (br + j / n) * s + bc + j % n).collect();
            [row, col, bx]
        });
        for unit in units {
            let digits: HashSet<u8> = unit.iter().map(|&c| grid[c]).collect();
            assert_eq!(digits, (1..=s as u8).collect::<HashSet<u8>>());
        }
    }

    fn puzzle(text: &str) -> Puzzle {
        Puzzles::new(text.as_bytes(), None).next().unwrap().unwrap()
    }

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn the_model_has_four_items_per_option() {
        let model = Model::new(Size::new(3).unwrap());
        let p = model.problem();
        assert_eq!((p.item_count(), p.option_count()), (324, 729));
        assert_eq!(
            p.option(model.option(10, 5)),
            &[10, 81 + 9 + 4, 162 + 9 + 4, 243 + 4]
        );
        assert_eq!(model.cell_and_digit(model.option(80, 9)), (80, 9));
    }

    /// Every engine of `Engine`.
    const ENGINES: [Engine; 5] = [
        Engine::Auto,
        Engine::Triad,
        Engine::Band,
        Engine::Compact,
        Engine::Linked,
    ];

    #[test]
    fn a_first_solution_found_is_reported_as_the_limit_reached() {
        let solvable = [
            "1...........2..3",
            HARD,
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ];
        // Two 1s in the first row: no solution.
        let stuck = "11..............";
        for engine in ENGINES {
            for level in [Level::None, Level::Full] {
                let mut solver = Solver::new(engine);
                solver.propagate(level);
                for text in solvable {
                    let (grid, report) = solver.first(&puzzle(text));
                    let at = format!("{engine:?} {level:?} {text}");
                    assert!(grid.is_some(), "{at}");
                    assert_eq!(report.outcome, Outcome::SolutionLimit, "{at}");
                    assert_eq!(report.stats.solutions, 1, "{at}");
                }
                let (grid, report) = solver.first(&puzzle(stuck));
                assert_eq!((grid, report.outcome), (None, Outcome::Exhausted));
            }
        }
    }

    #[test]
    fn every_engine_solves_and_agrees() {
        for engine in ENGINES {
            let mut solver = Solver::new(engine);
            let p = puzzle(HARD);
            let (grid, report) = solver.first(&p);
            check(&p, &grid.unwrap());
            assert!(report.stats.nodes > 0);
            assert_eq!(solver.count(&p, None).stats.solutions, 1);
            // The empty 4×4 grid has 288 solutions.
            let empty = puzzle(&".".repeat(16));
            let mut seen = HashSet::new();
            let report = solver.solve(&empty, &Limits::none(), |grid| {
                check(&empty, grid);
                seen.insert(grid.to_vec());
                Control::Continue
            });
            assert_eq!((report.stats.solutions, seen.len()), (288, 288));
            assert_eq!(solver.count(&empty, Some(7)).stats.solutions, 7);
        }
    }

    #[test]
    fn contradicting_givens_have_no_solution() {
        let bad = format!("11{}", &HARD[2..]);
        for engine in ENGINES {
            let mut solver = Solver::new(engine);
            let (grid, report) = solver.first(&puzzle(&bad));
            assert_eq!((grid, report.stats.solutions), (None, 0));
            // And the solver still works afterwards.
            assert!(solver.first(&puzzle(HARD)).0.is_some());
        }
    }

    #[test]
    fn the_linked_engine_restores_its_links_between_puzzles() {
        let mut solver = Solver::new(Engine::Linked);
        let p = puzzle(HARD);
        solver.first(&p);
        assert!(solver.links_restored());
        solver.count(&puzzle(&".".repeat(81)), Some(3));
        assert!(solver.links_restored());
        let bad = format!("11{}", &HARD[2..]);
        solver.first(&puzzle(&bad));
        assert!(solver.links_restored());
        solver.solve(&puzzle(&".".repeat(16)), &Limits::none(), |_| Control::Stop);
        assert!(solver.links_restored());
    }

    /// The puzzles of fixture files (`fixtures/sudoku/`, with their
    /// `--symbols`), each with its file's name.
    fn fixture_puzzles(files: &[(&str, Option<&str>)]) -> Vec<(String, Puzzle)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sudoku");
        let mut puzzles = Vec::new();
        for &(file, symbols) in files {
            let text = std::fs::read(dir.join(file)).unwrap();
            let symbols = symbols.map(|s| crate::sudoku::Symbols::new(s).unwrap());
            for puzzle in Puzzles::new(&text[..], symbols) {
                puzzles.push((file.to_owned(), puzzle.unwrap()));
            }
        }
        puzzles
    }

    /// Both engines on the fixtures: the same counts, and first solutions
    /// that pass the checker.
    #[test]
    fn the_engines_agree_on_the_fixtures() {
        let puzzles = fixture_puzzles(&[
            ("tdoku_test_puzzles_with_counts.txt", None),
            ("line_4x4.txt", None),
            ("grid_9x9_spaced.txt", None),
            ("line_16x16_digits.txt", Some("123456789ABCDEFG")),
            ("grid_16x16_letters.txt", None),
            ("line_25x25.txt", None),
            ("grid_25x25_numbers.txt", None),
        ]);
        assert!(puzzles.len() > 50);
        let mut compact = Solver::new(Engine::Compact);
        let mut linked = Solver::new(Engine::Linked);
        let mut bits = Solver::new(Engine::Triad);
        let mut bands = Solver::new(Engine::Band);
        for (file, puzzle) in &puzzles {
            let a = compact.count(puzzle, Some(1000)).stats.solutions;
            let b = linked.count(puzzle, Some(1000)).stats.solutions;
            assert_eq!(a, b, "{file} line {}", puzzle.line);
            let c = bits.count(puzzle, Some(1000)).stats.solutions;
            assert_eq!(a, c, "{file} line {}", puzzle.line);
            let d = bands.count(puzzle, Some(1000)).stats.solutions;
            assert_eq!(a, d, "{file} line {}", puzzle.line);
            for solver in [&mut compact, &mut linked, &mut bits, &mut bands] {
                let (grid, _) = solver.first(puzzle);
                assert_eq!(grid.is_some(), a > 0);
                if let Some(grid) = grid {
                    check(puzzle, &grid);
                }
            }
        }
        assert!(linked.links_restored());
    }

    /// Every propagation level, and each rule alone, in both engines: the
    /// counts of the plain search, first solutions that pass the checker,
    /// and the same solution where there is only one.
    #[test]
    fn propagation_levels_agree_with_the_plain_search() {
        let puzzles = fixture_puzzles(&[
            ("tdoku_test_puzzles_with_counts.txt", None),
            ("line_4x4.txt", None),
            ("line_9x9.txt", None),
            ("grid_9x9_spaced.txt", None),
            ("line_16x16_hard.txt", Some("123456789ABCDEFG")),
            ("grid_16x16_letters.txt", None),
        ]);
        let none = Rules::NONE;
        let levels = [
            Level::Basic,
            Level::Full,
            Level::Auto,
            Level::Rules(Rules {
                singles: true,
                ..none
            }),
            Level::Rules(Rules {
                box_line: true,
                ..none
            }),
            Level::Rules(Rules { subsets: 3, ..none }),
            Level::Rules(Rules {
                matching: true,
                ..none
            }),
            Level::Rules(Rules {
                layers: true,
                ..none
            }),
        ];
        let mut plain = Solver::new(Engine::Compact);
        for engine in [Engine::Compact, Engine::Linked] {
            for level in levels {
                let mut solver = Solver::new(engine);
                solver.propagate(level);
                assert_eq!(solver.level(), level);
                for (file, puzzle) in &puzzles {
                    let at = format!("{file} line {} {engine:?} {level:?}", puzzle.line);
                    let want = plain.count(puzzle, Some(100)).stats.solutions;
                    let got = solver.count(puzzle, Some(100));
                    assert_eq!(got.stats.solutions, want, "{at}");
                    let (grid, _) = solver.first(puzzle);
                    assert_eq!(grid.is_some(), want > 0, "{at}");
                    if let Some(grid) = &grid {
                        check(puzzle, grid);
                        if want == 1 {
                            assert_eq!(Some(grid.clone()), plain.first(puzzle).0, "{at}");
                        }
                    }
                }
                assert!(solver.links_restored());
            }
        }
    }

    /// What reasoning is for: the two hard 16×16 puzzles take the plain
    /// search 691,180 nodes and the full propagation a few hundred, and
    /// the options it removes are counted apart from the updates.
    #[test]
    fn full_propagation_cuts_the_hard_16x16_search() {
        let puzzles = fixture_puzzles(&[("line_16x16_hard.txt", Some("123456789ABCDEFG"))]);
        let nodes = |level: Level| {
            let mut solver = Solver::new(Engine::Compact);
            solver.propagate(level);
            let (mut nodes, mut propagated) = (0, 0);
            for (_, puzzle) in &puzzles {
                let (grid, report) = solver.first(puzzle);
                check(puzzle, &grid.unwrap());
                nodes += report.stats.nodes;
                propagated += report.stats.propagated;
            }
            (nodes, propagated)
        };
        let (plain, none_propagated) = nodes(Level::None);
        let (full, full_propagated) = nodes(Level::Full);
        assert_eq!(none_propagated, 0);
        assert!(full_propagated > 0);
        assert!(plain > 100 * full, "plain {plain} nodes, full {full}");
    }

    /// A propagated first-solution search restarts with growing budgets
    /// ([`FIRST_RESTART`] nodes first): on a minimal 25×25 puzzle it needs
    /// more than one, finds the unique solution, counts the nodes of all
    /// its searches, and within `max_nodes` gives up at the bound; and a
    /// puzzle without solution is still proved to have none.
    #[test]
    fn propagated_first_solutions_restart_within_the_bound() {
        let symbols = Some("123456789ABCDEFGHIJKLMNOP");
        let puzzles = fixture_puzzles(&[("line_25x25_gecode.txt", symbols)]);
        let puzzle = &puzzles[0].1;
        let mut solver = Solver::new(Engine::Compact);
        solver.propagate(Level::Full);
        let (grid, report) = solver.first(puzzle);
        check(puzzle, &grid.unwrap());
        assert!(report.stats.nodes > FIRST_RESTART, "{report:?}");
        assert_eq!(report.stats.solutions, 1);
        assert_eq!(solver.count(puzzle, Some(2)).stats.solutions, 1);
        solver.max_nodes(Some(1_500));
        let (grid, report) = solver.first(puzzle);
        assert_eq!((grid, report.outcome), (None, Outcome::NodeBudget));
        assert!(report.stats.nodes <= 1_500 + 1, "{report:?}");
        solver.max_nodes(None);
        let mut clash = puzzle.clone();
        // The first empty cell takes a digit given in its row.
        let empty = clash.cells.iter().position(|&d| d == 0).unwrap();
        let row = empty / 25 * 25;
        let given = (row..row + 25).find(|&c| clash.cells[c] != 0).unwrap();
        clash.cells[empty] = clash.cells[given];
        let (grid, report) = solver.first(&clash);
        assert_eq!((grid, report.outcome), (None, Outcome::Exhausted));
    }

    /// Searches shared between threads from their first node on give the
    /// serial answers: the same first solution, the same counts.
    #[test]
    fn shared_searches_give_the_serial_answers() {
        let puzzles = fixture_puzzles(&[
            ("tdoku_test_puzzles_with_counts.txt", None),
            ("line_4x4.txt", None),
            ("grid_16x16_letters.txt", None),
            ("line_16x16_digits.txt", Some("123456789ABCDEFG")),
        ]);
        assert!(puzzles.len() > 40);
        let mut serial = Solver::new(Engine::Compact);
        let mut shared = Solver::new(Engine::Compact);
        shared.split_after(Some(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (file, puzzle) in &puzzles {
            let (want, _) = serial.first(puzzle);
            let (got, report) = pool.install(|| shared.first(puzzle));
            assert_eq!(got, want, "{file} line {}", puzzle.line);
            assert_eq!(report.stats.solutions, u64::from(want.is_some()));
            for limit in [Some(1), Some(2), Some(30)] {
                let want = serial.count(puzzle, limit).stats.solutions;
                let got = pool.install(|| shared.count(puzzle, limit));
                assert_eq!(got.stats.solutions, want, "{file} line {}", puzzle.line);
            }
        }
    }

    /// A bounded search gives up at its bound, on one thread however many
    /// there are, and a bound it does not reach changes nothing.
    #[test]
    fn bounded_searches_give_up_at_their_bound() {
        let p = puzzle(HARD);
        let empty = puzzle(&".".repeat(16));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for engine in [Engine::Compact, Engine::Linked] {
            let mut free = Solver::new(engine);
            let (want, report) = free.first(&p);
            let needed = report.stats.nodes;
            assert!(needed > 10, "{engine:?}: {needed} nodes");
            let mut bounded = Solver::new(engine);
            bounded.split_after(Some(1));
            bounded.max_nodes(Some(needed - 5));
            let (got, report) = pool.install(|| bounded.first(&p));
            assert_eq!(got, None, "{engine:?}");
            assert_eq!(report.outcome, Outcome::NodeBudget, "{engine:?}");
            assert_eq!(report.stats.nodes, needed - 5, "{engine:?}: not shared");
            let report = pool.install(|| bounded.count(&p, Some(2)));
            assert_eq!(report.outcome, Outcome::NodeBudget, "{engine:?}");
            // Some solutions of the empty 4×4 grid, then the bound.
            let report = bounded.solve(&empty, &Limits::none(), |_| Control::Continue);
            assert_eq!(report.outcome, Outcome::NodeBudget, "{engine:?}");
            assert!((1..288).contains(&report.stats.solutions), "{engine:?}");
            // A tighter budget of the caller's own stands.
            let limits = Limits::none().with_node_budget(Some(3));
            let report = bounded.solve(&empty, &limits, |_| Control::Continue);
            assert_eq!(report.stats.nodes, 3, "{engine:?}");
            // The last node is the solution's: one fewer levels suffice.
            bounded.max_nodes(Some(needed - 1));
            let (got, report) = pool.install(|| bounded.first(&p));
            assert_eq!(got, want, "{engine:?}");
            assert_ne!(report.outcome, Outcome::NodeBudget, "{engine:?}");
            assert_eq!(report.stats.nodes, needed, "{engine:?}");
            bounded.max_nodes(Some(needed - 2));
            let (got, report) = pool.install(|| bounded.first(&p));
            assert_eq!((got, report.outcome), (None, Outcome::NodeBudget));
        }
    }

    /// A time limit ends searches that would run for ages (counting every
    /// 9×9 grid) in every engine, alone or shared between threads, and
    /// with propagation; a search it does not reach is unchanged.
    #[test]
    fn timed_searches_give_up_at_their_limit() {
        use std::time::{Duration, Instant};
        let empty = puzzle(&".".repeat(81));
        let p = puzzle(HARD);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let engines = [
            Engine::Auto,
            Engine::Triad,
            Engine::Band,
            Engine::Compact,
            Engine::Linked,
        ];
        for (engine, level, shared) in engines
            .iter()
            .flat_map(|&e| [(e, Level::None, false), (e, Level::None, true)])
            .chain([(Engine::Compact, Level::Full, false)])
        {
            let what = format!("{engine:?} {level:?} shared {shared}");
            let mut solver = Solver::new(engine);
            solver.propagate(level);
            if shared {
                solver.split_after(Some(1));
            }
            let (want, _) = solver.first(&p);
            solver.time_limit(Some(Duration::from_millis(50)));
            let start = Instant::now();
            let report = pool.install(|| solver.count(&empty, None));
            assert_eq!(report.outcome, Outcome::TimeLimit, "{what}");
            assert!(start.elapsed() < Duration::from_secs(10), "{what}");
            let report = solver.solve(&empty, &Limits::none(), |_| Control::Continue);
            assert_eq!(report.outcome, Outcome::TimeLimit, "{what}");
            // Far from the limit: the same answer as without one.
            let (got, report) = pool.install(|| solver.first(&p));
            assert_eq!(got, want, "{what}");
            assert!(!report.outcome.gave_up(), "{what}");
            solver.time_limit(None);
        }
    }

    /// The triad engine's nodes are its guesses plus the root; a bound of
    /// `n` nodes allows `n - 1` guesses, on one thread.
    #[test]
    fn triad_searches_give_up_at_their_bound() {
        let p = puzzle(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        );
        let mut free = Solver::new(Engine::Triad);
        assert!(free.uses_bits(p.size));
        let (want, report) = free.first(&p);
        let needed = report.stats.nodes;
        assert!(needed > 10, "{needed} nodes");
        check(&p, want.as_deref().unwrap());
        let mut bounded = Solver::new(Engine::Triad);
        bounded.split_after(Some(1));
        bounded.max_nodes(Some(needed));
        let (got, report) = bounded.first(&p);
        assert_eq!((got, report.stats.nodes), (want, needed));
        assert_ne!(report.outcome, Outcome::NodeBudget);
        bounded.max_nodes(Some(needed - 1));
        let (got, report) = bounded.first(&p);
        assert_eq!((got, report.outcome), (None, Outcome::NodeBudget));
        assert_eq!(report.stats.nodes, needed - 1);
        // A tighter budget of the caller's own stands.
        let limits = Limits::none().with_node_budget(Some(3));
        let report = bounded.solve(&p, &limits, |_| Control::Continue);
        assert_eq!(
            (report.outcome, report.stats.nodes),
            (Outcome::NodeBudget, 3)
        );
        // Auto uses it for 9×9 without a propagator only; the triad and
        // band engines are 9×9 only, other sizes search by exact cover.
        let mut auto = Solver::new(Engine::Auto);
        assert!(auto.uses_bits(p.size));
        assert!(!auto.uses_bits(Size::new(2).unwrap()));
        assert!(!auto.uses_bits(Size::new(4).unwrap()));
        let sizes = |solver: &Solver| -> Vec<usize> {
            Size::all()
                .filter(|&size| solver.uses_bits(size))
                .map(Size::box_side)
                .collect()
        };
        assert_eq!(sizes(&Solver::new(Engine::Triad)), [3]);
        assert_eq!(sizes(&Solver::new(Engine::Band)), [3]);
        assert_eq!(Engine::Bits, Engine::Triad, "the former names stay");
        assert_eq!(Engine::Bands, Engine::Band);
        auto.propagate(Level::None);
        assert_eq!(sizes(&auto), [3]);
        auto.propagate(Level::Basic);
        assert!(!auto.uses_bits(p.size));
        auto.propagate(Level::Auto);
        assert!(auto.uses_bits(p.size));
    }

    #[test]
    fn every_size_from_4_to_25() {
        let mut solver = Solver::default();
        for n in 2..=5 {
            let size = Size::new(n).unwrap();
            let empty = Puzzle {
                size,
                cells: vec![0; size.cells()],
                line: 1,
                layout: crate::sudoku::Layout::Line,
                notation: crate::sudoku::Notation::Numbers(crate::sudoku::Separator::Space),
            };
            let (grid, _) = solver.first(&empty);
            check(&empty, &grid.unwrap());
        }
    }
}
