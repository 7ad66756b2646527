//! `cover sudoku --engine sat`: a classic puzzle's exact cover (the
//! sudoku model's problem and its givens) solved by conflict learning
//! through `cover_sat` (CaDiCaL), behind the same [`GridSearch`] as the
//! search engines, so that every mode and output is theirs (a
//! `cover-cli` built without the `sat` feature has no such engine).
//!
//! This module owns the glue: grids from models, `--max-nodes` as a bound
//! on conflicts, `--time-limit` as a deadline. It knows no output format.

use std::time::{Duration, Instant};

use cover_models::sudoku::{Model, Puzzle, Size};

use super::GridSearch;
use dlx_core::{Control, Limits, Report, Stats};

/// The SAT engine of one thread: the model of the last size asked for,
/// the node budget (conflicts) and the time limit.
#[derive(Default)]
pub struct SatEngine {
    model: Option<Model>,
    max_nodes: Option<u64>,
    time_limit: Option<Duration>,
}

impl SatEngine {
    /// Bounds the conflicts of each puzzle (`--max-nodes`) and its time.
    pub fn limit(&mut self, max_nodes: Option<u64>, time_limit: Option<Duration>) {
        self.max_nodes = max_nodes;
        self.time_limit = time_limit;
    }

    fn model(&mut self, size: Size) -> &Model {
        if self.model.as_ref().is_none_or(|m| m.size() != size) {
            self.model = Some(Model::new(size));
        }
        self.model.as_ref().expect("just made")
    }
}

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
        let limits = Limits {
            node_budget: self.max_nodes.or(limits.node_budget),
            deadline: self
                .time_limit
                .map(|t| Instant::now() + t)
                .or(limits.deadline),
            ..limits.clone()
        };
        let model = self.model(puzzle.size);
        let mut given = Vec::new();
        model.givens(&puzzle.cells, &mut given);
        let mut grid = vec![0u8; puzzle.cells.len()];
        let report = cover_sat::search(
            model.problem(),
            &given,
            &limits,
            cover_sat::Amo::Auto,
            |options: &[usize]| {
                model.fill(options, &mut grid);
                visit(&grid)
            },
        )
        .expect("the model's givens are its options");
        Report {
            outcome: report.outcome,
            stats: Stats {
                // A conflict is what a search node is to the search engines.
                nodes: report.stats.learnt,
                solutions: report.stats.solutions,
                ..Stats::default()
            },
        }
    }

    fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Report {
        let limits = Limits {
            max_solutions: limit,
            ..Limits::none()
        };
        self.solve(puzzle, &limits, &mut |_| Control::Continue)
    }
}
