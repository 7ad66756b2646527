//! Property tests for the dlx-core search engine, against an independent
//! brute force.
//!
//! Random small problems (1..=12 items, the last 0..=4 of them secondary,
//! 0..=20 options of distinct items) are solved both by the engine and by
//! `cover_check::brute`, which shares no code with it (see `common`). The
//! tests check that:
//! - `count` and the solutions streamed by `search` (and by the `solutions`
//!   iterator) are exactly the brute-force solutions, each valid per an
//!   independent checker, with no repeats;
//! - `first` is the first solution of the stream;
//! - `Limits::solutions(k)`, the node budget and the cancel flag stop the
//!   search where they should, with a prefix of the unlimited stream and the
//!   right `Outcome`;
//! - given options restrict the search to the solutions containing them, and
//!   are reported first;
//! - every kind of search, however it ended, leaves the links equal to a
//!   fresh solver's and consistent, and repeating a search repeats its report;
//! - edge cases (empty problem, only secondary items, an uncoverable item, a
//!   100 000-level deep search) behave.

mod common;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{shuffled_specs, sorted, Spec};
use dlx_core::{
    count_parallel, search_parallel, Control, Guide, Limits, Outcome, Problem, Report, Solver,
    SplitConfig, UnknownOption, Visitor,
};
use proptest::prelude::*;
use proptest::sample::Index;

fn specs() -> impl Strategy<Value = Spec> {
    shuffled_specs(20)
}

// ---------------------------------------------------------------------------
// Engine helpers
// ---------------------------------------------------------------------------

/// Streams a search to a visitor that keeps every solution.
fn stream(
    solver: &mut Solver,
    given: &[usize],
    limits: &Limits,
) -> Result<(Report, Vec<Vec<usize>>), UnknownOption> {
    let mut found = Vec::new();
    let report = solver.search(given, limits, &mut |options: &[usize]| {
        found.push(options.to_vec());
        Control::Continue
    })?;
    Ok((report, found))
}

/// Runs the `solutions` iterator to its end and reports as `finish` does.
fn iterate(solver: &mut Solver, given: &[usize], limits: Limits) -> (Report, Vec<Vec<usize>>) {
    let mut it = solver.solutions(given, &limits).expect("valid givens");
    let found: Vec<Vec<usize>> = it.by_ref().collect();
    (it.finish(), found)
}

/// The links equal a fresh solver's and pass the internal check.
fn assert_restored(solver: &Solver, problem: &Problem, after: &str) -> Result<(), TestCaseError> {
    let fresh = Solver::new(problem);
    prop_assert!(
        solver.links_equal(&fresh),
        "links differ from a fresh solver's after {}",
        after
    );
    if let Err(e) = solver.sanity_check() {
        return Err(TestCaseError::fail(format!(
            "sanity check after {after}: {e}"
        )));
    }
    Ok(())
}

fn unlimited(solver: &mut Solver) -> (Report, Vec<Vec<usize>>) {
    stream(solver, &[], &Limits::none()).expect("no givens")
}

/// `cases` cases per property, unless `PROPTEST_CASES` says otherwise (for
/// longer runs: `PROPTEST_CASES=20000 cargo test --release -p dlx-core`).
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_some() {
        default
    } else {
        ProptestConfig { cases, ..default }
    }
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1024))]

    /// 1. `count` is the brute-force number of solutions.
    #[test]
    fn count_matches_brute_force(spec in specs()) {
        let problem = spec.build();
        let expected = spec.solutions(&[]).len() as u64;
        let mut solver = Solver::new(&problem);
        prop_assert_eq!(solver.count(), expected);
        let report = solver.count_with(&[], &Limits::none()).unwrap();
        prop_assert_eq!(report.outcome, Outcome::Exhausted);
        prop_assert_eq!(report.stats.solutions, expected);
    }

    /// 2. The streamed solutions are valid, distinct, and exactly the
    /// brute-force set; the iterator streams the same ones in the same order.
    #[test]
    fn split_search_adds_up_to_the_serial_one(spec in specs(), min_prefixes in 1usize..40) {
        let problem = spec.build();
        let serial = Solver::new(&problem).count_with(&[], &Limits::none()).unwrap();
        let config = SplitConfig::default().with_min_prefixes(min_prefixes);
        let parallel = count_parallel(&problem, &[], &config).unwrap();
        prop_assert_eq!(parallel, serial);
        let found = std::sync::Mutex::new(BTreeSet::new());
        search_parallel(&problem, &[], &config, |s: &[usize]| {
            found.lock().unwrap().insert(sorted(s));
            Control::Continue
        })
        .unwrap();
        prop_assert_eq!(found.into_inner().unwrap(), spec.solutions(&[]));
    }

    #[test]
    fn streamed_solutions_are_the_brute_force_set(spec in specs()) {
        let problem = spec.build();
        let expected = spec.solutions(&[]);
        let mut solver = Solver::new(&problem);
        let (report, found) = unlimited(&mut solver);
        prop_assert_eq!(report.outcome, Outcome::Exhausted);
        prop_assert_eq!(report.stats.solutions, found.len() as u64);
        // Every search node is a level or a solution, and there is a root.
        prop_assert!(report.stats.nodes > report.stats.solutions || spec.primary == 0);
        let check = spec.checker();
        let mut seen = BTreeSet::new();
        for solution in &found {
            if let Err(e) = check(solution) {
                return Err(TestCaseError::fail(format!("{solution:?}: {e}")));
            }
            prop_assert!(seen.insert(sorted(solution)), "{:?} reported twice", solution);
        }
        prop_assert_eq!(found.len(), expected.len());
        prop_assert_eq!(&seen, &expected);

        let (it_report, it_found) = iterate(&mut solver, &[], Limits::none());
        prop_assert_eq!(it_report, report);
        prop_assert_eq!(it_found, found);
    }

    /// 3. `first` is the first solution streamed by `search` and by the
    /// iterator.
    #[test]
    fn first_is_the_first_streamed(spec in specs()) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let first = solver.first();
        let (_, found) = unlimited(&mut solver);
        prop_assert_eq!(&first, &found.first().cloned());
        prop_assert_eq!(&first, &solver.first_with(&[]).unwrap());
        let from_iter = solver.solutions(&[], &Limits::none()).unwrap().next();
        prop_assert_eq!(&first, &from_iter);
        prop_assert_eq!(first.is_some(), !spec.solutions(&[]).is_empty());
    }

    /// 4. `Limits::solutions(k)` gives the first min(k, total) solutions of
    /// the unlimited stream. The limit is checked before looking for another
    /// solution, so the outcome is `SolutionLimit` exactly when total >= k
    /// (total == k included: the search stops without proving there is no
    /// more) and `Exhausted` otherwise.
    #[test]
    fn solution_limit(spec in specs(), k in any::<Index>()) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let (_, all) = unlimited(&mut solver);
        let total = all.len();
        let k = k.index(total + 3);
        let limits = Limits::solutions(k as u64);
        let want = if total >= k { Outcome::SolutionLimit } else { Outcome::Exhausted };

        let (report, found) = stream(&mut solver, &[], &limits).unwrap();
        prop_assert_eq!(found.len(), k.min(total));
        prop_assert_eq!(&found[..], &all[..k.min(total)]);
        prop_assert_eq!(report.stats.solutions, k.min(total) as u64);
        prop_assert_eq!(report.outcome, want);

        let counted = solver.count_with(&[], &limits).unwrap();
        prop_assert_eq!(counted, report);

        let (it_report, it_found) = iterate(&mut solver, &[], limits);
        prop_assert_eq!(it_report, report);
        prop_assert_eq!(it_found, found);
        assert_restored(&solver, &problem, "limited searches")?;
    }

    /// 5. Repeating a search repeats its report and solutions, and every kind
    /// of search, however it ends, restores the links.
    #[test]
    fn searches_restore_the_links(
        spec in specs(),
        cut in any::<Index>(),
        budget in any::<Index>(),
        given in prop::collection::vec(any::<Index>(), 0..=3),
    ) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let (report, all) = unlimited(&mut solver);
        assert_restored(&solver, &problem, "an unlimited search")?;
        let (again, all_again) = unlimited(&mut solver);
        prop_assert_eq!(again, report);
        prop_assert_eq!(&all_again, &all);
        let fresh_report = Solver::new(&problem).count_with(&[], &Limits::none()).unwrap();
        prop_assert_eq!(fresh_report, report);

        let total = all.len();
        let cut = cut.index(total + 1);

        solver.count();
        assert_restored(&solver, &problem, "count")?;
        solver.first();
        assert_restored(&solver, &problem, "first")?;
        solver.count_with(&[], &Limits::solutions(cut as u64)).unwrap();
        assert_restored(&solver, &problem, "a solution limit")?;

        let budget = budget.index(report.stats.nodes as usize + 1) as u64;
        let limits = Limits::none().with_node_budget(Some(budget));
        let budgeted = solver.count_with(&[], &limits).unwrap();
        assert_restored(&solver, &problem, "a node budget")?;
        prop_assert_eq!(solver.count_with(&[], &limits).unwrap(), budgeted);

        // A visitor that stops after `cut + 1` solutions.
        let mut seen = 0;
        let stopped = solver
            .search(&[], &Limits::none(), &mut |_: &[usize]| {
                seen += 1;
                if seen > cut { Control::Stop } else { Control::Continue }
            })
            .unwrap();
        if cut < total {
            prop_assert_eq!(stopped.outcome, Outcome::Stopped);
            prop_assert_eq!(stopped.stats.solutions, cut as u64 + 1);
        } else {
            prop_assert_eq!(stopped, report);
        }
        assert_restored(&solver, &problem, "a visitor stop")?;

        // The iterator dropped after `cut` solutions, or finished early.
        let taken: Vec<Vec<usize>> = solver
            .solutions(&[], &Limits::none())
            .unwrap()
            .take(cut)
            .collect();
        prop_assert_eq!(&taken[..], &all[..cut]);
        assert_restored(&solver, &problem, "dropping the iterator")?;
        let mut it = solver.solutions(&[], &Limits::none()).unwrap();
        let taken = it.by_ref().take(cut).count();
        let finished = it.finish();
        prop_assert_eq!(finished.stats.solutions, taken as u64);
        if cut < total {
            prop_assert_eq!(finished.outcome, Outcome::Stopped);
        }
        assert_restored(&solver, &problem, "finishing the iterator")?;

        // Cancelled before the start.
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = Limits::none().with_cancel(Some(flag));
        solver.count_with(&[], &cancelled).unwrap();
        assert_restored(&solver, &problem, "a cancelled search")?;

        // Given options (possibly conflicting, possibly repeated).
        if !spec.options.is_empty() {
            let given: Vec<usize> = given.iter().map(|i| i.index(spec.options.len())).collect();
            stream(&mut solver, &given, &Limits::none()).unwrap();
            assert_restored(&solver, &problem, "a search with givens")?;
            solver.solutions(&given, &Limits::none()).unwrap().next();
            assert_restored(&solver, &problem, "an iterator with givens")?;
            solver.count_with(&given, &limits).unwrap();
            assert_restored(&solver, &problem, "givens and a node budget")?;
        }
        // An unknown given is refused and changes nothing.
        let bad = [spec.options.len()];
        prop_assert_eq!(
            solver.count_with(&bad, &Limits::none()),
            Err(UnknownOption { option: spec.options.len(), options: spec.options.len() })
        );
        assert_restored(&solver, &problem, "an unknown given")?;

        // After all that, the solver still searches as a fresh one.
        let (last, last_all) = unlimited(&mut solver);
        prop_assert_eq!(last, report);
        prop_assert_eq!(last_all, all);
    }

    /// 6. With given options, the search finds exactly the solutions that
    /// contain them (none if they conflict), each listing the givens first,
    /// in the order given.
    #[test]
    fn givens_restrict_the_search(
        spec in specs(),
        picks in prop::collection::vec(any::<Index>(), 0..=4),
    ) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let mut given: Vec<usize> = Vec::new();
        if !spec.options.is_empty() {
            for pick in &picks {
                let option = pick.index(spec.options.len());
                if !given.contains(&option) {
                    given.push(option);
                }
            }
        }
        let expected = spec.solutions(&given);

        let report = solver.count_with(&given, &Limits::none()).unwrap();
        prop_assert_eq!(report.outcome, Outcome::Exhausted);
        prop_assert_eq!(report.stats.solutions, expected.len() as u64);

        let (streamed, found) = stream(&mut solver, &given, &Limits::none()).unwrap();
        prop_assert_eq!(streamed, report);
        let check = spec.checker();
        let mut seen = BTreeSet::new();
        for solution in &found {
            prop_assert!(solution.starts_with(&given), "{:?} does not start with {:?}", solution, given);
            if let Err(e) = check(solution) {
                return Err(TestCaseError::fail(format!("{solution:?}: {e}")));
            }
            prop_assert!(seen.insert(sorted(solution)), "{:?} reported twice", solution);
        }
        prop_assert_eq!(&seen, &expected);

        let first = solver.first_with(&given).unwrap();
        prop_assert_eq!(first, found.first().cloned());
        let (it_report, it_found) = iterate(&mut solver, &given, Limits::none());
        prop_assert_eq!(it_report, report);
        prop_assert_eq!(it_found, found);
        assert_restored(&solver, &problem, "searches with givens")?;
    }

    /// 7. A node budget b: the search enters at most b levels, finds a prefix
    /// of the unlimited stream, says `NodeBudget` whenever it stopped short
    /// (in particular whenever the unlimited search enters more than b
    /// levels), and is the unlimited search when that needs at most b nodes.
    ///
    /// Solutions are search nodes too, but the budget is only checked before
    /// entering a level (as documented on `Limits::node_budget`), so
    /// `stats.nodes` may pass b by the solutions found after the budget was
    /// spent, and a search whose remaining solutions need no new level ends
    /// `Exhausted` even though the unlimited search needs more than b nodes
    /// (see `budget_bounds_all_nodes`).
    #[test]
    fn node_budget(spec in specs(), budget in any::<Index>()) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let (full, all) = unlimited(&mut solver);
        let b = budget.index(full.stats.nodes as usize + 2) as u64;
        let limits = Limits::none().with_node_budget(Some(b));
        let (report, found) = stream(&mut solver, &[], &limits).unwrap();
        let levels = report.stats.nodes - report.stats.solutions;
        prop_assert!(levels <= b, "{} levels entered with budget {}", levels, b);
        let full_levels = full.stats.nodes - full.stats.solutions;
        if full_levels > b {
            prop_assert_eq!(report.outcome, Outcome::NodeBudget);
        }
        prop_assert_eq!(&found[..], &all[..found.len()]);
        match report.outcome {
            Outcome::NodeBudget => {
                prop_assert!(report.stats.nodes >= b);
                prop_assert!(full.stats.nodes > b);
                prop_assert!(report.stats.nodes < full.stats.nodes);
            }
            Outcome::Exhausted => {
                prop_assert_eq!(report, full);
                prop_assert_eq!(found.len(), all.len());
            }
            other => prop_assert!(false, "unexpected outcome {:?}", other),
        }
        if full.stats.nodes <= b {
            prop_assert_eq!(report, full);
        }
        assert_restored(&solver, &problem, "a node budget")?;
    }

    /// 8a. A cancel flag raised before the search: no level is entered and
    /// nothing is found. (Problems without primary items are left to
    /// `cancelled_before_start_without_primary_items`.)
    #[test]
    fn cancelled_before_start(
        spec in specs().prop_filter("a primary item", |s| s.primary > 0),
    ) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let flag = Arc::new(AtomicBool::new(true));
        let limits = Limits::none().with_cancel(Some(flag));
        let (report, found) = stream(&mut solver, &[], &limits).unwrap();
        prop_assert_eq!(report.outcome, Outcome::Cancelled);
        prop_assert_eq!(report.stats.solutions, 0);
        prop_assert_eq!(report.stats.nodes, 0);
        prop_assert!(found.is_empty());
        assert_restored(&solver, &problem, "a cancelled search")?;
    }

    /// 8b. A visitor raises the cancel flag at the first solution: the search
    /// enters no further level. It says `Cancelled`, unless the solutions
    /// that needed no new level were all there were (then `Exhausted`).
    #[test]
    fn cancelled_by_the_visitor(spec in specs()) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let (full, all) = unlimited(&mut solver);
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(Some(flag.clone()));
        let mut found: Vec<Vec<usize>> = Vec::new();
        let report = solver
            .search(&[], &limits, &mut |options: &[usize]| {
                found.push(options.to_vec());
                flag.store(true, Ordering::Relaxed);
                Control::Continue
            })
            .unwrap();
        prop_assert_eq!(&found[..], &all[..found.len()]);
        prop_assert_eq!(report.stats.solutions, found.len() as u64);
        if all.is_empty() {
            prop_assert_eq!(report, full);
        } else {
            // No level is entered after the first solution: the levels are
            // those a search limited to one solution enters.
            let one = solver.count_with(&[], &Limits::solutions(1)).unwrap();
            let levels = report.stats.nodes - report.stats.solutions;
            prop_assert_eq!(levels, one.stats.nodes - one.stats.solutions);
            match report.outcome {
                Outcome::Cancelled => prop_assert!(report.stats.nodes <= full.stats.nodes),
                Outcome::Exhausted => prop_assert_eq!(report, full),
                other => prop_assert!(false, "unexpected outcome {:?}", other),
            }
        }
        assert_restored(&solver, &problem, "a search cancelled by its visitor")?;
    }
}

// ---------------------------------------------------------------------------
// Plain tests
// ---------------------------------------------------------------------------

fn problem(primary: usize, secondary: usize, options: &[&[usize]]) -> Problem {
    Spec::exact(
        primary,
        secondary,
        options.iter().map(|o| o.to_vec()).collect(),
    )
    .build()
}

#[test]
fn empty_problem_has_the_empty_solution() {
    let p = problem(0, 0, &[]);
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count(), 1);
    assert_eq!(solver.first(), Some(vec![]));
    let (report, found) = unlimited(&mut solver);
    assert_eq!(report.outcome, Outcome::Exhausted);
    assert_eq!(found, vec![Vec::<usize>::new()]);
}

#[test]
fn only_secondary_items_have_the_empty_solution() {
    // No option may lack a primary item, so without primary items there
    // are no options, and the empty set is the one solution.
    let mut builder = Problem::builder(0, 3);
    assert_eq!(
        builder.add_option([0, 2]),
        Err(dlx_core::ProblemError::NoPrimaryItem { option: 0 })
    );
    let p = builder.build();
    assert_eq!(p.option_count(), 0);
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count(), 1);
    assert_eq!(solver.first(), Some(vec![]));
}

#[test]
fn an_item_without_options_has_no_solution() {
    let p = problem(2, 0, &[&[0]]);
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count(), 0);
    assert_eq!(solver.first(), None);
    assert_eq!(
        solver.count_with(&[], &Limits::none()).unwrap().outcome,
        Outcome::Exhausted
    );
}

#[test]
fn a_repeated_given_conflicts_with_itself() {
    let p = problem(2, 1, &[&[0, 2], &[1], &[1, 2]]);
    let mut solver = Solver::new(&p);
    assert_eq!(
        solver
            .count_with(&[0], &Limits::none())
            .unwrap()
            .stats
            .solutions,
        1
    );
    assert_eq!(
        solver
            .count_with(&[0, 0], &Limits::none())
            .unwrap()
            .stats
            .solutions,
        0
    );
    assert!(solver.links_equal(&Solver::new(&p)));
}

/// The visitor cancels at the first solution; the next one needs a new level,
/// which the flag forbids.
#[test]
fn cancel_from_the_visitor_stops_the_search() {
    // Item 0: {0,1} and {0}; item 1: {0,1} and {1}. Two solutions.
    let p = problem(2, 0, &[&[0, 1], &[0], &[1]]);
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count(), 2);
    let flag = Arc::new(AtomicBool::new(false));
    let limits = Limits::none().with_cancel(Some(flag.clone()));
    let mut found = 0;
    let report = solver
        .search(&[], &limits, &mut |_: &[usize]| {
            found += 1;
            flag.store(true, Ordering::Relaxed);
            Control::Continue
        })
        .unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert_eq!(found, 1);
    assert_eq!(report.stats.solutions, 1);
    assert!(solver.links_equal(&Solver::new(&p)));
}

/// A chain of `depth` primary items, option {i} for item i: the search goes
/// one level per item to its one solution. It runs on a thread with a 64 KiB
/// stack, far less than a recursive search of this depth would need (a few
/// bytes per level already exceed it), so passing shows the search is
/// iterative.
fn deep_chain(depth: usize) {
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut builder = Problem::builder(depth, 0);
            for i in 0..depth {
                builder.add_option([i]).unwrap();
            }
            let p = builder.build();
            let mut solver = Solver::new(&p);
            let report = solver.count_with(&[], &Limits::none()).unwrap();
            assert_eq!(report.outcome, Outcome::Exhausted);
            assert_eq!(report.stats.solutions, 1);
            assert_eq!(report.stats.nodes, depth as u64 + 1);
            assert_eq!(solver.first().map(|s| s.len()), Some(depth));
            assert!(solver.links_equal(&Solver::new(&p)));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_search_is_iterative() {
    deep_chain(10_000);
}

// ---------------------------------------------------------------------------
// Limits at the edges
// ---------------------------------------------------------------------------

/// The node budget is tested on entering a level, so it bounds the levels
/// entered, not the solutions found on the last level: with budget 1 this
/// search enters one level and still finds its three solutions there.
#[test]
fn budget_bounds_levels_entered() {
    let p = problem(1, 0, &[&[0], &[0], &[0]]);
    let mut solver = Solver::new(&p);
    let limits = Limits::none().with_node_budget(Some(1));
    let report = solver.count_with(&[], &limits).unwrap();
    assert_eq!(report.stats.nodes, 4, "{report:?}");
    assert_eq!(report.outcome, Outcome::Exhausted);
}

/// A search cancelled before it starts reports `Cancelled` (or
/// `NodeBudget`) with no solution, also when no primary item needs covering
/// and the one solution would need no level at all.
#[test]
fn cancelled_before_start_without_primary_items() {
    let p = problem(0, 1, &[]);
    let mut solver = Solver::new(&p);
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::none().with_cancel(Some(flag));
    let report = solver.count_with(&[], &limits).unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled, "{report:?}");
    assert_eq!(report.stats.solutions, 0);

    let limits = Limits::none().with_node_budget(Some(0));
    let report = solver.count_with(&[], &limits).unwrap();
    assert_eq!(report.outcome, Outcome::NodeBudget, "{report:?}");
    assert_eq!(report.stats.nodes, 0);
}

// ---------------------------------------------------------------------------
// Guided search (branch and bound hooks)
// ---------------------------------------------------------------------------

/// A guide that keeps its own stack of pushed options, checks it against
/// each solution, and prunes every partial solution of `cut_at` options or
/// more.
struct StackGuide {
    given: usize,
    stack: Vec<usize>,
    cut_at: usize,
    solutions: Vec<Vec<usize>>,
    mismatch: Option<String>,
}

impl Visitor for StackGuide {
    fn solution(&mut self, options: &[usize]) -> Control {
        if options[self.given..] != self.stack[..] {
            self.mismatch = Some(format!("solution {options:?}, stack {:?}", self.stack));
        }
        self.solutions.push(options.to_vec());
        Control::Continue
    }
}

impl Guide for StackGuide {
    fn push(&mut self, option: usize) {
        self.stack.push(option);
    }
    fn pop(&mut self, option: usize) {
        if self.stack.pop() != Some(option) {
            self.mismatch = Some(format!("popped {option} out of order"));
        }
    }
    fn prune(&mut self) -> bool {
        self.stack.len() >= self.cut_at
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn a_guide_follows_the_search_and_cuts_where_told(spec in specs(), cut_at in 0usize..6) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let (plain_report, plain) = unlimited(&mut solver);
        let mut guide = StackGuide { given: 0, stack: Vec::new(), cut_at: usize::MAX, solutions: Vec::new(), mismatch: None };
        let report = solver.search_guided(&[], &Limits::none(), &mut guide).unwrap();
        prop_assert_eq!(guide.mismatch.take(), None);
        prop_assert_eq!(report, plain_report);
        prop_assert_eq!(&guide.solutions, &plain);
        prop_assert!(guide.stack.is_empty());

        // Cutting every partial solution of `cut_at` options keeps exactly
        // the solutions whose options before the last number fewer.
        let mut guide = StackGuide { given: 0, stack: Vec::new(), cut_at, solutions: Vec::new(), mismatch: None };
        solver.search_guided(&[], &Limits::none(), &mut guide).unwrap();
        prop_assert_eq!(guide.mismatch.take(), None);
        let kept: Vec<Vec<usize>> = plain.iter().filter(|s| s.len() <= cut_at).cloned().collect();
        prop_assert_eq!(guide.solutions, kept);
        assert_restored(&solver, &problem, "a guided search")?;
    }
}
