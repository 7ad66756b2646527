//! Conflict learning for classic puzzles: a puzzle's exact cover, pruned
//! by the sudoku rules at the root, as CNF (`--cnf`, [`SatEngine::encode`]),
//! solved by `cover_sat`'s CaDiCaL (`--engine sat`), and `--engine auto`
//! beyond what search answers soon ([`Fallback`]: search first, within
//! [`SEARCH_FIRST`] nodes, then learning). The solving engines sit behind
//! the same [`GridSearch`] as the search engines, so that every mode and
//! output is theirs. A `cover-cli` built without the `sat` feature has
//! only the CNF.
//!
//! This module owns the glue: grids from models, `--max-nodes` as a bound
//! on conflicts, `--time-limit` as a deadline, the switch from search to
//! learning. It knows no output format but DIMACS.

#[cfg(feature = "sat")]
use std::collections::HashSet;
use std::io::{self, Write};
#[cfg(feature = "sat")]
use std::time::{Duration, Instant};

use cover_models::sudoku::logic::{candidates, Geometry, Propagation, Rules};
use cover_models::sudoku::{Model, Puzzle, Size};
use cover_sat::{Amo, Encoding};

#[cfg(feature = "sat")]
use super::GridSearch;
#[cfg(feature = "sat")]
use cover_models::sudoku::Solver;
#[cfg(feature = "sat")]
use dlx_core::{Control, Limits, Outcome, Report, Stats};

/// How many search nodes `--engine auto` spends on a puzzle before it
/// turns to conflict learning, if the search has found no solution by
/// then: more than the public 9×9 and 16×16 puzzles need, far less than
/// the hard 25×25 cost by learning (`docs/measurements.md`, "### sat").
#[cfg(feature = "sat")]
pub const SEARCH_FIRST: u64 = 10_000;

/// The SAT engine of one thread: the model and geometry of the last size
/// asked for, the node budget (conflicts) and the time limit.
#[derive(Default)]
pub struct SatEngine {
    model: Option<(Model, Geometry)>,
    propagation: Option<Propagation>,
    #[cfg(feature = "sat")]
    max_nodes: Option<u64>,
    #[cfg(feature = "sat")]
    time_limit: Option<Duration>,
    /// The clauses learnt by the last search.
    #[cfg(feature = "sat")]
    learnt: u64,
}

impl SatEngine {
    /// Bounds the conflicts of each puzzle (`--max-nodes`) and its time.
    #[cfg(feature = "sat")]
    pub fn limit(&mut self, max_nodes: Option<u64>, time_limit: Option<Duration>) {
        self.max_nodes = max_nodes;
        self.time_limit = time_limit;
    }

    /// The model of `size`.
    fn model(&mut self, size: Size) -> &Model {
        if self.model.as_ref().is_none_or(|(m, _)| m.size() != size) {
            let geometry = Geometry::new(size);
            self.propagation = Some(Propagation::new(&geometry));
            self.model = Some((Model::new(size), geometry));
        }
        &self.model.as_ref().expect("just made").0
    }

    /// The CNF of `puzzle` (what `--engine sat` solves): its exact cover,
    /// the givens applied and the options the sudoku rules rule out at the
    /// root left out, with the model it is of.
    pub fn encode(&mut self, puzzle: &Puzzle) -> (&Model, Encoding) {
        self.model(puzzle.size);
        let (model, geometry) = self.model.as_ref().expect("just made");
        let propagation = self.propagation.as_mut().expect("made with the model");
        let mut given = Vec::new();
        model.givens(&puzzle.cells, &mut given);
        let excluded = ruled_out(model, geometry, propagation, puzzle);
        let encoding = cover_sat::encode_pruned(model.problem(), &given, &excluded, Amo::Auto)
            .expect("the model's givens are its options");
        (model, encoding)
    }

    /// Writes the CNF of `puzzle` in DIMACS, each option named by its
    /// cell and digit (`c option 7 r1c7=3`).
    pub fn write_cnf(&mut self, puzzle: &Puzzle, out: &mut dyn Write) -> io::Result<()> {
        let (model, encoding) = self.encode(puzzle);
        let side = model.size().side();
        writeln!(
            out,
            "c sudoku {side}x{side} by cover: a variable per candidate left once the givens \
             and the rules at the root have ruled out others"
        )?;
        encoding.write_dimacs_labelled(out, &|option| {
            let (cell, digit) = model.cell_and_digit(option);
            format!(
                "r{}c{}={}",
                cell / side + 1,
                cell % side + 1,
                puzzle.digit_text(digit)
            )
        })
    }
}

/// The options of `puzzle` that the sudoku rules (singles, box-line,
/// all-different by matching) rule out at the root, before encoding: a
/// smaller CNF is solved sooner (`docs/measurements.md`, "### sat").
/// Every option when the rules find no solution.
fn ruled_out(
    model: &Model,
    geometry: &Geometry,
    propagation: &mut Propagation,
    puzzle: &Puzzle,
) -> Vec<usize> {
    let mut cands = candidates(geometry, &puzzle.cells);
    let mut excluded = Vec::new();
    let dead = propagation
        .propagate(geometry, Rules::FULL, &mut cands, &mut |cell, digit| {
            excluded.push(model.option(cell, digit));
        })
        .is_err();
    if dead {
        // Excluding every option leaves an item without one: no model.
        excluded = (0..model.problem().option_count()).collect();
    }
    excluded
}

#[cfg(feature = "sat")]
impl GridSearch for SatEngine {
    fn first_with(&mut self, puzzle: &Puzzle, visit: &mut dyn FnMut(&[u8])) -> Report {
        let mut visit = Some(visit);
        self.solve(puzzle, &Limits::solutions(1), &mut |grid| {
            if let Some(visit) = visit.take() {
                visit(grid);
            }
            Control::Stop
        })
    }

    fn solve(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        visit: &mut dyn FnMut(&[u8]) -> Control,
    ) -> Report {
        let limits = limits
            .clone()
            .with_node_budget(self.max_nodes.or(limits.node_budget))
            .with_deadline(
                self.time_limit
                    .map(|t| Instant::now() + t)
                    .or(limits.deadline),
            );
        let (model, encoding) = self.encode(puzzle);
        let mut grid = vec![0u8; puzzle.cells.len()];
        let report = cover_sat::solve(&encoding, &limits, |options: &[usize]| {
            model.fill(options, &mut grid);
            visit(&grid)
        });
        self.learnt = report.stats.learnt;
        Report::new(report.outcome, {
            let mut stats = Stats::default();
            stats.solutions = report.stats.solutions;
            stats
        })
    }

    fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report {
        let limits = Limits::none().with_max_solutions(limit);
        self.solve(puzzle, &limits, &mut |_| Control::Continue)
    }

    fn learnt(&self) -> Option<u64> {
        Some(self.learnt)
    }
}

/// `--engine auto` with learning: the search engines first, within
/// `budget` nodes (or `--max-nodes`, if fewer); a puzzle they have
/// found no solution of by then goes to the [`SatEngine`], with the
/// conflicts bounded by `--max-nodes` and the time left. A search that has
/// found solutions goes on searching instead (counting by blocking is
/// slow for many): again from the start within `--max-nodes`, each
/// solution handed on once.
#[cfg(feature = "sat")]
pub struct Fallback<'w> {
    /// The search engines, set up for the batch.
    pub solver: &'w mut Solver,
    /// The learning engine.
    pub sat: &'w mut SatEngine,
    /// The search's nodes before it turns to learning ([`SEARCH_FIRST`]).
    pub budget: u64,
    /// `--max-nodes`: for the search and for the conflicts, each.
    pub max_nodes: Option<u64>,
    /// `--time-limit`: for both together.
    pub time_limit: Option<Duration>,
    /// What the last call learnt, if it did (`None`: search answered).
    pub learnt: Option<u64>,
}

#[cfg(feature = "sat")]
impl Fallback<'_> {
    /// The search's first budget.
    fn first_budget(&self) -> u64 {
        self.max_nodes.map_or(self.budget, |n| n.min(self.budget))
    }

    /// Whether a first search that ended so is over: it ended by itself,
    /// or found solutions within `--max-nodes` (the user's bound).
    fn settled(&self, report: &Report) -> bool {
        report.outcome != Outcome::NodeBudget
            || self.max_nodes.is_some_and(|n| n <= self.budget) && report.stats.solutions > 0
    }

    /// Sets the search's bounds: `nodes`, and the time left until
    /// `deadline`.
    fn bound_search(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.solver.max_nodes(nodes);
        self.solver
            .time_limit(deadline.map(|d| d.saturating_duration_since(Instant::now())));
    }

    /// Hands the puzzle to learning, within the time left.
    fn learn(
        &mut self,
        searched: Stats,
        deadline: Option<Instant>,
        run: impl FnOnce(&mut SatEngine) -> Report,
    ) -> Report {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        self.sat.limit(self.max_nodes, left);
        let report = run(self.sat);
        self.learnt = self.sat.learnt();
        Report::new(report.outcome, {
            let mut stats = searched;
            stats.solutions = report.stats.solutions;
            stats
        })
    }

    fn deadline(&self) -> Option<Instant> {
        self.time_limit.map(|t| Instant::now() + t)
    }
}

#[cfg(feature = "sat")]
impl GridSearch for Fallback<'_> {
    fn first_with(&mut self, puzzle: &Puzzle, visit: &mut dyn FnMut(&[u8])) -> Report {
        self.learnt = None;
        let deadline = self.deadline();
        self.bound_search(Some(self.first_budget()), deadline);
        let mut visit = Some(visit);
        let report = self.solver.first_with(puzzle, |grid| {
            if let Some(visit) = visit.take() {
                visit(grid);
            }
        });
        if self.settled(&report) || report.stats.solutions > 0 {
            return report;
        }
        let visit = visit.expect("no solution yet");
        self.learn(report.stats, deadline, |sat| sat.first_with(puzzle, visit))
    }

    fn solve(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        visit: &mut dyn FnMut(&[u8]) -> Control,
    ) -> Report {
        self.learnt = None;
        let deadline = self.deadline();
        self.bound_search(Some(self.first_budget()), deadline);
        // The solutions handed on, to hand none on twice if the search
        // starts again (at most `budget` of them).
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut stopped = false;
        let first = self.solver.solve(puzzle, limits, |grid| {
            seen.insert(grid.to_vec());
            let control = visit(grid);
            stopped = control == Control::Stop;
            control
        });
        if stopped || self.settled(&first) {
            return first;
        }
        if first.stats.solutions == 0 {
            return self.learn(first.stats, deadline, |sat| {
                sat.solve(puzzle, limits, visit)
            });
        }
        // Search again, from the start, within the user's bounds only.
        self.bound_search(self.max_nodes, deadline);
        let wanted = limits.max_solutions.unwrap_or(u64::MAX);
        let mut handed = first.stats.solutions;
        let again_limits = limits.clone().with_max_solutions(None);
        let mut full = Report::new(Outcome::Exhausted, Stats::default());
        if handed < wanted {
            full = self.solver.solve(puzzle, &again_limits, |grid| {
                if seen.contains(grid) {
                    return Control::Continue;
                }
                handed += 1;
                match visit(grid) {
                    Control::Continue if handed < wanted => Control::Continue,
                    _ => Control::Stop,
                }
            });
        }
        let outcome = match full.outcome {
            Outcome::Stopped if handed >= wanted => Outcome::SolutionLimit,
            outcome => outcome,
        };
        let mut stats = first.stats;
        stats += full.stats;
        stats.solutions = handed;
        Report::new(outcome, stats)
    }

    fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report {
        self.learnt = None;
        let deadline = self.deadline();
        self.bound_search(Some(self.first_budget()), deadline);
        let first = self.solver.count(puzzle, limit);
        if self.settled(&first) {
            return first;
        }
        if first.stats.solutions == 0 {
            return self.learn(first.stats, deadline, |sat| sat.count(puzzle, limit));
        }
        self.bound_search(self.max_nodes, deadline);
        let full = self.solver.count(puzzle, limit);
        let mut stats = first.stats;
        stats += full.stats;
        stats.solutions = full.stats.solutions;
        Report::new(full.outcome, stats)
    }

    fn learnt(&self) -> Option<u64> {
        self.learnt
    }
}

#[cfg(all(test, feature = "sat"))]
mod tests {
    use std::collections::BTreeSet;

    use cover_check::sudoku::check_solution;
    use cover_models::sudoku::{Engine, Level, Puzzles};

    use super::*;

    /// A 9×9 puzzle of 51 solutions (a classic one with givens taken out).
    const OPEN: &str =
        "53..7....6..195....9.....6.8...6...34..8.3..17...2...6.6.....8....419..5....8..79";

    fn puzzle(line: &str) -> Puzzle {
        Puzzles::new(line.as_bytes(), None).next().unwrap().unwrap()
    }

    /// Every solution by plain search, for reference.
    fn reference(puzzle: &Puzzle) -> BTreeSet<Vec<u8>> {
        let mut solver = Solver::new(Engine::Compact);
        solver.propagate(Level::None);
        let mut all = BTreeSet::new();
        solver.solve(puzzle, &Limits::none(), |grid| {
            assert!(all.insert(grid.to_vec()), "the search repeats no solution");
            Control::Continue
        });
        all
    }

    /// What `Fallback` made of a puzzle in every mode.
    struct Through {
        /// The solutions `solve` handed on, and its report.
        handed: Vec<Vec<u8>>,
        all: Report,
        /// The report of `count`.
        count: Report,
        /// The solution `first_with` handed on, and what it learnt.
        first: Option<Vec<u8>>,
        learnt: Option<u64>,
    }

    /// What `Fallback` hands on with search budget `budget`.
    fn through_fallback(
        puzzle: &Puzzle,
        budget: u64,
        max_nodes: Option<u64>,
        limit: Option<u64>,
    ) -> Through {
        let mut solver = Solver::new(Engine::Compact);
        solver.propagate(Level::None);
        let mut sat = SatEngine::default();
        let mut fallback = Fallback {
            solver: &mut solver,
            sat: &mut sat,
            budget,
            max_nodes,
            time_limit: None,
            learnt: None,
        };
        let mut handed = Vec::new();
        let limits = Limits::none().with_max_solutions(limit);
        let all = fallback.solve(puzzle, &limits, &mut |grid| {
            handed.push(grid.to_vec());
            Control::Continue
        });
        let count = fallback.count(puzzle, limit);
        let mut first = None;
        fallback.first_with(puzzle, &mut |grid| first = Some(grid.to_vec()));
        Through {
            handed,
            all,
            count,
            first,
            learnt: fallback.learnt(),
        }
    }

    #[test]
    fn every_budget_hands_on_each_solution_once_and_counts_them_all() {
        let open = puzzle(OPEN);
        let want = reference(&open);
        assert_eq!(want.len(), 51, "the puzzle's solutions");
        // Under 60 nodes the search finds none (it is 50 levels deep):
        // learning; up to a few hundred it finds some, then starts again
        // and skips them; with many, search alone.
        for budget in [1, 5, 40, 70, 100, 300, 100_000] {
            for limit in [None, Some(1), Some(7), Some(51), Some(100)] {
                let Through {
                    handed,
                    all,
                    count,
                    first,
                    ..
                } = through_fallback(&open, budget, None, limit);
                let expected = limit.map_or(51, |l| l.min(51));
                let unique: BTreeSet<Vec<u8>> = handed.iter().cloned().collect();
                let case = format!("budget {budget}, limit {limit:?}");
                assert_eq!(unique.len(), handed.len(), "{case}: each once");
                assert_eq!(handed.len() as u64, expected, "{case}");
                assert!(unique.is_subset(&want), "{case}: every one a solution");
                assert_eq!(all.stats.solutions, expected, "{case}");
                assert_eq!(count.stats.solutions, expected, "{case}");
                assert_eq!(
                    all.outcome.is_complete(),
                    limit.is_none_or(|l| l > 51),
                    "{case}"
                );
                assert_eq!(
                    count.outcome.is_complete(),
                    all.outcome.is_complete(),
                    "{case}"
                );
                assert!(!all.outcome.gave_up() && !count.outcome.gave_up(), "{case}");
                let first = first.expect("a first solution");
                check_solution(&open.cells, &first, 9).unwrap();
            }
        }
    }

    #[test]
    fn learning_answers_only_what_search_found_nothing_of() {
        let open = puzzle(OPEN);
        // The first solution's search takes more than one node: learning.
        let Through { first, learnt, .. } = through_fallback(&open, 1, None, None);
        check_solution(&open.cells, &first.unwrap(), 9).unwrap();
        assert!(learnt.is_some());
        // Enough nodes: search alone.
        let Through { learnt, .. } = through_fallback(&open, 100_000, None, None);
        assert_eq!(learnt, None);
        // A puzzle without a solution, by either.
        let clash = format!("55{}", &OPEN[2..]);
        for budget in [1, 100_000] {
            let Through {
                handed,
                all,
                count,
                first,
                ..
            } = through_fallback(&puzzle(&clash), budget, None, None);
            assert!(handed.is_empty() && first.is_none());
            assert_eq!((all.stats.solutions, count.stats.solutions), (0, 0));
            assert!(all.outcome.is_complete() && count.outcome.is_complete());
        }
    }

    #[test]
    fn max_nodes_bounds_the_search_and_the_conflicts_each() {
        let open = puzzle(OPEN);
        // Fewer nodes than the budget, solutions found (4 in 100 nodes):
        // the user's bound ends it, with those found.
        let Through {
            handed,
            all,
            count,
            learnt,
            ..
        } = through_fallback(&open, 1_000, Some(100), None);
        assert!(all.outcome.gave_up() && count.outcome.gave_up(), "{all:?}");
        assert_eq!(handed.len() as u64, all.stats.solutions);
        assert!((1..51).contains(&all.stats.solutions), "{all:?}");
        assert_eq!(learnt, None, "{all:?} {count:?}");
        // Nothing found in one node, one conflict too few: gave up.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/sudoku/line_25x25_gecode_hard.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let symbols = cover_models::sudoku::Symbols::new("123456789ABCDEFGHIJKLMNOP").unwrap();
        let hard = Puzzles::new(text.as_bytes(), Some(symbols))
            .next()
            .unwrap()
            .unwrap();
        let Through {
            handed,
            all,
            count,
            first,
            learnt,
        } = through_fallback(&hard, 1, Some(1), None);
        assert!(all.outcome.gave_up() && count.outcome.gave_up(), "{all:?}");
        assert!(handed.is_empty() && first.is_none());
        assert!(learnt.is_some());
    }
}
