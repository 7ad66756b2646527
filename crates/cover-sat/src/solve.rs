//! Solving an exact-cover problem by CDCL: its [`Encoding`] handed to
//! CaDiCaL (through the `cadical` crate, feature `cadical`), each model
//! mapped back to options and blocked so that the next solve finds
//! another (counting that way is slow for many solutions: each one is a
//! solve of its own).
//!
//! This module owns the solver's use: limits (a node budget bounds
//! conflicts; the deadline and the cancel flag are polled by CaDiCaL's
//! terminate callback), the outcome and the statistics. It must not know
//! any puzzle.

use std::sync::atomic::Ordering;

use dlx_core::{Control, Limits, Outcome, Problem};

#[cfg(doc)]
use crate::encode::encode_pruned;
use crate::encode::{encode, Amo, Encoding, GivenError};

/// What a SAT search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SatStats {
    /// Solutions handed to the visitor.
    pub solutions: u64,
    /// Calls of the solver (one per solution found, and the last).
    pub solves: u64,
    /// Clauses the solver learnt from conflicts (one per conflict, but
    /// for those it learnt nothing new from).
    pub learnt: u64,
    /// The CNF's variables and clauses (before blocking clauses).
    pub variables: u64,
    /// See `variables`.
    pub clauses: u64,
}

/// The end of a SAT search and what it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SatReport {
    /// Why it ended, as for dlx-core's engines: `Exhausted` when every
    /// solution was found (the last solve was unsatisfiable), `NodeBudget`
    /// when the conflicts ran past the node budget.
    pub outcome: Outcome,
    /// What it did.
    pub stats: SatStats,
}

/// The callbacks of one solve: the deadline, the cancel flag and the
/// count of learnt clauses.
struct Watch {
    limits: Limits,
    learnt: u64,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        self.limits
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
            || self
                .limits
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn max_length(&self) -> i32 {
        // Every learnt clause is reported (only its count is read).
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learnt += 1;
    }
}

/// Streams the solutions of `problem` that contain the `given` options
/// to `visitor` (the given options first, then the others in option
/// order), within `limits`, found by CaDiCaL on the CNF of [`encode`]
/// (`amo` as there). The node budget bounds the conflicts of all solves
/// together.
///
/// ```
/// use cover_sat::{search, Amo};
/// use dlx_core::{Control, Limits, Outcome, Problem};
///
/// // Items a, b; options {a}, {b}, {a, b}: two solutions.
/// let mut builder = Problem::builder(2, 0);
/// builder.add_option([0]).unwrap();
/// builder.add_option([1]).unwrap();
/// builder.add_option([0, 1]).unwrap();
/// let problem = builder.build();
/// let mut found = Vec::new();
/// let report = search(&problem, &[], &Limits::none(), Amo::Auto, |s: &[usize]| {
///     found.push(s.to_vec());
///     Control::Continue
/// })
/// .unwrap();
/// found.sort();
/// assert_eq!(found, vec![vec![0, 1], vec![2]]);
/// assert_eq!(report.outcome, Outcome::Exhausted);
/// ```
pub fn search(
    problem: &Problem,
    given: &[usize],
    limits: &Limits,
    amo: Amo,
    visitor: impl FnMut(&[usize]) -> Control,
) -> Result<SatReport, GivenError> {
    Ok(solve(&encode(problem, given, amo)?, limits, visitor))
}

/// Streams the solutions of an [`Encoding`] (of [`encode`] or
/// [`encode_pruned`]) to `visitor`, as [`search`] does: for a CNF built
/// once and solved as it is, or one pruned by the caller's own reasoning.
pub fn solve(
    encoding: &Encoding,
    limits: &Limits,
    mut visitor: impl FnMut(&[usize]) -> Control,
) -> SatReport {
    let mut stats = SatStats {
        variables: u64::from(encoding.variables()),
        clauses: encoding.clause_count() as u64,
        ..SatStats::default()
    };
    if limits.max_solutions == Some(0) {
        return SatReport {
            outcome: Outcome::SolutionLimit,
            stats,
        };
    }
    // CaDiCaL's configuration for satisfiable instances: the faster on
    // hard puzzles (docs/measurements.md, "### sat").
    let mut solver: cadical::Solver<Watch> =
        cadical::Solver::with_config("sat").expect("CaDiCaL has a configuration `sat`");
    solver.set_callbacks(Some(Watch {
        limits: limits.clone(),
        learnt: 0,
    }));
    add_all(&mut solver, encoding);
    let outcome = loop {
        if let Some(budget) = limits.node_budget {
            let learnt = solver.get_callbacks().map_or(0, |w| w.learnt);
            let left = budget.saturating_sub(learnt);
            if left == 0 {
                break Outcome::NodeBudget;
            }
            let left = i32::try_from(left).unwrap_or(i32::MAX);
            solver
                .set_limit("conflicts", left)
                .expect("CaDiCaL has a conflicts limit");
        }
        stats.solves += 1;
        match solver.solve() {
            Some(true) => {}
            Some(false) => break Outcome::Exhausted,
            None => break stopped(limits),
        }
        let solution = encoding.solution(|v| solver.value(v as i32) == Some(true));
        stats.solutions += 1;
        if visitor(&solution) == Control::Stop {
            break Outcome::Stopped;
        }
        if limits
            .max_solutions
            .is_some_and(|max| stats.solutions >= max)
        {
            break Outcome::SolutionLimit;
        }
        let blocking = encoding.blocking_clause(&solution);
        if blocking.is_empty() {
            // No option variable: no other solution can differ from it.
            break Outcome::Exhausted;
        }
        solver.add_clause(blocking);
    };
    stats.learnt = solver.get_callbacks().map_or(0, |w| w.learnt);
    SatReport { outcome, stats }
}

/// Why a solve ended without an answer: the deadline, the cancel flag,
/// or else the conflicts' limit.
fn stopped(limits: &Limits) -> Outcome {
    if limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
    {
        Outcome::Cancelled
    } else if limits
        .deadline
        .is_some_and(|d| std::time::Instant::now() >= d)
    {
        Outcome::TimeLimit
    } else {
        Outcome::NodeBudget
    }
}

fn add_all(solver: &mut cadical::Solver<Watch>, encoding: &Encoding) {
    for clause in encoding.clauses() {
        solver.add_clause(clause.iter().copied());
    }
}
