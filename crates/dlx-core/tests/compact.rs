//! Property tests of the compact engine (`CompactSolver`) against the
//! linked one (`Solver`), the reference, and against a checker that trusts
//! neither.
//!
//! Random small problems are solved by both engines: the same number of
//! solutions and the same set of solutions, every one an exact cover; the
//! first solution is one of them; given options restrict both alike
//! (conflicting givens give nothing); solution limits, node budgets and
//! visitors that stop behave as documented; and one solver answers many
//! searches in a row. Both ways of undoing branch points (copying the
//! state, a trail) are tested. The strategies also make problems whose options all
//! have four items (the compact engine's unrolled loop), problems whose
//! items have more than 16 and more than 32 options (its wider state
//! words), and problems whose 16-bit keys use all their bits.

use std::collections::BTreeSet;

use dlx_core::{CompactSolver, Control, Limits, Outcome, Problem, Solver, Undo};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// A problem as plain data: items `0..primary` are primary, the next
/// `secondary` are secondary.
#[derive(Debug, Clone)]
struct Spec {
    primary: usize,
    secondary: usize,
    options: Vec<Vec<usize>>,
}

impl Spec {
    fn build(&self) -> Problem {
        let mut builder = Problem::builder(self.primary, self.secondary);
        for option in &self.options {
            builder.add_option(option.iter().copied()).unwrap();
        }
        builder.build()
    }
}

/// Random problems of up to 10 items and 24 options of distinct items.
fn small() -> impl Strategy<Value = Spec> {
    (1usize..=10, 0usize..=3).prop_flat_map(|(items, secondary)| {
        let secondary = secondary.min(items - 1);
        let option = subsequence((0..items).collect::<Vec<_>>(), 1..=items.min(4));
        prop::collection::vec(option, 0..=24).prop_map(move |options| Spec {
            primary: items - secondary,
            secondary,
            options,
        })
    })
}

/// Random problems whose options all have exactly four items.
fn four_item_options() -> impl Strategy<Value = Spec> {
    (4usize..=10).prop_flat_map(|items| {
        let option = subsequence((0..items).collect::<Vec<_>>(), 4);
        prop::collection::vec(option, 1..=24).prop_map(move |options| Spec {
            primary: items,
            secondary: 0,
            options,
        })
    })
}

/// Random problems with few items and many options each (up to 64), so
/// that the wider state words are used.
fn wide() -> impl Strategy<Value = Spec> {
    (2usize..=4).prop_flat_map(|items| {
        let option = subsequence((0..items).collect::<Vec<_>>(), 1..=2);
        prop::collection::vec(option, 40..=64).prop_map(move |options| Spec {
            primary: items,
            secondary: 0,
            options,
        })
    })
}

/// Random problems of a few items with 9 to 16 options each (secondary
/// ones included), plus 1000 primary items with one option each: the keys
/// then fill all their 15 bits (5 for counts, 10 for item numbers), the
/// tightest case of the 16-bit state.
fn tight_keys() -> impl Strategy<Value = Spec> {
    (3usize..=6, 1usize..=2).prop_flat_map(|(items, secondary)| {
        let option = subsequence((0..items).collect::<Vec<_>>(), 1..=2);
        prop::collection::vec(option, 20..=40).prop_map(move |options| {
            let primary = items - secondary;
            let fillers = 1000;
            // Renumber: the spec's primary items, the fillers, then its
            // secondary items.
            let renumber = |i: usize| if i < primary { i } else { i + fillers };
            let mut options: Vec<Vec<usize>> = options
                .into_iter()
                .map(|o| o.into_iter().map(renumber).collect())
                .collect();
            // Drop options that would give an item more than 16.
            let mut counts = vec![0; items + fillers];
            options.retain(|o| {
                let fits = o.iter().all(|&i| counts[i] < 16);
                if fits {
                    o.iter().for_each(|&i| counts[i] += 1);
                }
                fits
            });
            options.extend((primary..primary + fillers).map(|f| vec![f]));
            Spec {
                primary: primary + fillers,
                secondary,
                options,
            }
        })
    })
}

/// Whether `solution` is an exact cover of `spec`.
fn is_cover(spec: &Spec, solution: &[usize]) -> bool {
    let mut covered = vec![0; spec.primary + spec.secondary];
    let distinct: BTreeSet<usize> = solution.iter().copied().collect();
    if distinct.len() != solution.len() {
        return false;
    }
    for &option in solution {
        let Some(items) = spec.options.get(option) else {
            return false;
        };
        for &item in items {
            covered[item] += 1;
        }
    }
    covered[..spec.primary].iter().all(|&c| c == 1)
        && covered[spec.primary..].iter().all(|&c| c <= 1)
}

/// Every solution, sorted, with the search's report.
fn solutions_of<F>(mut search: F) -> (Vec<Vec<usize>>, dlx_core::Report)
where
    F: FnMut(&mut dyn FnMut(&[usize]) -> Control) -> dlx_core::Report,
{
    let mut found = Vec::new();
    let report = search(&mut |s: &[usize]| {
        let mut s = s.to_vec();
        s.sort_unstable();
        found.push(s);
        Control::Continue
    });
    found.sort();
    (found, report)
}

/// Both ways of undoing branch points.
const UNDOS: [Undo; 2] = [Undo::Copy, Undo::Trail];

fn compare(spec: &Spec, given: &[usize]) -> Result<(), TestCaseError> {
    for undo in UNDOS {
        compare_with(spec, given, undo)?;
    }
    Ok(())
}

fn compare_with(spec: &Spec, given: &[usize], undo: Undo) -> Result<(), TestCaseError> {
    let problem = spec.build();
    let mut linked = Solver::new(&problem);
    let mut compact = match CompactSolver::with_undo(&problem, undo) {
        Ok(solver) => solver,
        Err(e) => return Err(TestCaseError::fail(format!("compact refused: {e}"))),
    };
    prop_assert_eq!(compact.undo(), undo);
    let (want, _) = solutions_of(|v| linked.search(given, &Limits::none(), &mut &mut *v).unwrap());
    let (got, report) = solutions_of(|v| {
        compact
            .search(given, &Limits::none(), &mut &mut *v)
            .unwrap()
    });
    prop_assert_eq!(&got, &want);
    prop_assert_eq!(report.stats.solutions, want.len() as u64);
    prop_assert_eq!(report.outcome, Outcome::Exhausted);
    for solution in &got {
        prop_assert!(is_cover(spec, solution), "not a cover: {:?}", solution);
        for g in given {
            prop_assert!(solution.contains(g));
        }
    }
    let first = compact.first_with(given).unwrap();
    match first {
        None => prop_assert!(want.is_empty()),
        Some(mut first) => {
            first.sort_unstable();
            prop_assert!(want.contains(&first));
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn same_solutions_as_the_linked_engine(spec in small()) {
        compare(&spec, &[])?;
    }

    #[test]
    fn same_solutions_with_four_item_options(spec in four_item_options()) {
        compare(&spec, &[])?;
    }

    #[test]
    fn same_solutions_with_wide_items(spec in wide()) {
        compare(&spec, &[])?;
    }


    #[test]
    fn givens_restrict_both_alike(
        spec in small(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..=3),
    ) {
        let given: Vec<usize> = if spec.options.is_empty() {
            Vec::new()
        } else {
            picks.iter().map(|i| i.index(spec.options.len())).collect()
        };
        compare(&spec, &given)?;
    }

    #[test]
    fn limits_and_budgets(spec in small(), k in 0u64..4, budget in 0u64..12, trail: bool) {
        let problem = spec.build();
        let total = Solver::new(&problem).count();
        let undo = if trail { Undo::Trail } else { Undo::Copy };
        let mut compact = CompactSolver::with_undo(&problem, undo).unwrap();
        let report = compact.count_with(&[], &Limits::solutions(k)).unwrap();
        prop_assert_eq!(report.stats.solutions, total.min(k));
        if total >= k {
            prop_assert_eq!(report.outcome, Outcome::SolutionLimit);
        }
        let limits = Limits { node_budget: Some(budget), ..Limits::none() };
        let report = compact.count_with(&[], &limits).unwrap();
        // The budget is checked on entering a level; solutions found on
        // the last one still count as nodes.
        prop_assert!(report.stats.nodes <= budget + report.stats.solutions);
        if report.outcome == Outcome::Exhausted {
            prop_assert_eq!(report.stats.solutions, total);
        } else {
            prop_assert_eq!(report.outcome, Outcome::NodeBudget);
        }
        // A visitor that stops after the first solution.
        let mut seen = 0;
        let report = compact
            .search(&[], &Limits::none(), &mut |_: &[usize]| {
                seen += 1;
                Control::Stop
            })
            .unwrap();
        prop_assert_eq!(seen, total.min(1));
        if total > 0 {
            prop_assert_eq!(report.outcome, Outcome::Stopped);
        }
        // And the solver still answers a whole search afterwards.
        prop_assert_eq!(compact.count(), total);
    }
}

proptest! {
    // Problems of a thousand items: fewer cases.
    #![proptest_config(ProptestConfig { cases: 12, ..config() })]

    #[test]
    fn same_solutions_with_tight_keys(spec in tight_keys()) {
        compare(&spec, &[])?;
    }
}

/// One compact solver answers many searches in a row, each from scratch.
#[test]
fn one_solver_many_searches() {
    // Exact cover of 6 items by pairs: the 15 perfect matchings of K6.
    let mut builder = Problem::builder(6, 0);
    for a in 0..6 {
        for b in a + 1..6 {
            builder.add_option([a, b]).unwrap();
        }
    }
    let problem = builder.build();
    for undo in UNDOS {
        one_solver_many_searches_with(&problem, undo);
    }
}

fn one_solver_many_searches_with(problem: &Problem, undo: Undo) {
    let mut compact = CompactSolver::with_undo(problem, undo).unwrap();
    let mut linked = Solver::new(problem);
    for round in 0..50 {
        let given = [round % 15];
        let a = compact.count_with(&given, &Limits::none()).unwrap();
        let b = linked.count_with(&given, &Limits::none()).unwrap();
        assert_eq!(a.stats.solutions, b.stats.solutions);
        assert_eq!(a.stats.solutions, 3);
        assert_eq!(compact.count(), 15);
    }
}
