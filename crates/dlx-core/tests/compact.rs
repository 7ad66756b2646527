//! Property tests of the compact engine (`CompactSolver`) against the
//! linked one (`Solver`), the reference, and against `cover_check::brute`,
//! which trusts neither (see `common`).
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

mod common;

use common::{exact_specs, sorted, with_fillers, Spec};
use dlx_core::{
    count_compact_parallel, count_compact_resumed, first_compact_parallel, first_compact_resumed,
    CompactSolver, Control, Limits, Outcome, Problem, ShareConfig, Solver, Undo,
};
use proptest::prelude::*;

/// Random problems of up to 10 items and 24 options of distinct items.
fn small() -> impl Strategy<Value = Spec> {
    exact_specs(1..=10, 0..=3, 1..=4, 0..=24)
}

/// Random problems whose options all have exactly four items.
fn four_item_options() -> impl Strategy<Value = Spec> {
    exact_specs(4..=10, 0..=0, 4..=4, 1..=24)
}

/// Random problems with few items and many options each (up to 64), so
/// that the wider state words are used.
fn wide() -> impl Strategy<Value = Spec> {
    exact_specs(2..=4, 0..=0, 1..=2, 40..=64)
}

/// Random problems of a few items with 9 to 16 options each (secondary
/// ones included), plus 1000 primary items with one option each: the keys
/// then fill all their 15 bits, the tightest case of the 16-bit state.
fn tight_keys() -> impl Strategy<Value = Spec> {
    exact_specs(3..=6, 1..=2, 1..=2, 20..=40).prop_map(|spec| with_fillers(spec, 1000))
}

/// Every solution, sorted, with the search's report.
fn solutions_of<F>(mut search: F) -> (Vec<Vec<usize>>, dlx_core::Report)
where
    F: FnMut(&mut dyn FnMut(&[usize]) -> Control) -> dlx_core::Report,
{
    let mut found = Vec::new();
    let report = search(&mut |s: &[usize]| {
        found.push(sorted(s));
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
    // The brute force's solutions, so each one found is an exact cover.
    let oracle: Vec<Vec<usize>> = spec.solutions(given).into_iter().collect();
    prop_assert_eq!(&want, &oracle);
    for solution in &got {
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
        let limits = Limits::none().with_node_budget(Some(budget));
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

/// Random problems with many solutions: up to 8 items, covered by options
/// of one to three items.
fn many_solutions() -> impl Strategy<Value = Spec> {
    exact_specs(2..=8, 0..=2, 1..=3, 4..=30)
}

/// Every solution containing `given`, in the order the search finds them.
fn in_order(solver: &mut CompactSolver, given: &[usize]) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    solver
        .search(given, &Limits::none(), &mut |s: &[usize]| {
            found.push(s.to_vec());
            Control::Continue
        })
        .unwrap();
    found
}

/// A search stopped by node budgets every `slice` nodes, giving work away
/// at every `every`-th stop, then the parts given away searched one after
/// another (each the same way, recursively), in the documented order: the
/// resumed search's solutions, then the donations' from the last to the
/// first, each donation's prefixes in order.
fn sliced(
    solver: &mut CompactSolver,
    given: &[usize],
    slice: u64,
    every: usize,
    found: &mut Vec<Vec<usize>>,
) {
    let mut donations: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut record = |s: &[usize]| {
        found.push(s.to_vec());
        Control::Continue
    };
    let mut limits = Limits::none().with_node_budget(Some(slice));
    let mut report = solver.search(given, &limits, &mut record).unwrap();
    let mut stops = 0;
    while report.outcome == Outcome::NodeBudget {
        stops += 1;
        if stops % every == 0 {
            donations.push(solver.donate());
        }
        limits.node_budget = Some(report.stats.nodes + slice);
        report = solver.resume(&limits, &mut record).unwrap();
    }
    assert_eq!(report.outcome, Outcome::Exhausted);
    assert!(solver.resume(&limits, &mut record).is_none());
    assert!(solver.donate().is_empty());
    for prefixes in donations.iter().rev() {
        for prefix in prefixes {
            assert!(prefix.starts_with(given));
            sliced(solver, prefix, slice, every, found);
        }
    }
}

/// A search cut into parts given away and searched one after another
/// finds the whole search's solutions in its order (each solution with
/// the same options, though a part lists the forced options of its prefix
/// in another order); the parallel first solution is the serial one, and
/// parallel counts are serial counts.
fn check_split(spec: &Spec, given: &[usize], undo: Undo) -> Result<(), TestCaseError> {
    let problem = spec.build();
    let mut compact = CompactSolver::with_undo(&problem, undo).unwrap();
    let whole: Vec<Vec<usize>> = in_order(&mut compact, given)
        .iter()
        .map(|s| sorted(s))
        .collect();
    for (slice, every) in [(1, 1), (1, 2), (2, 1), (3, 3), (7, 1)] {
        let mut found = Vec::new();
        sliced(&mut compact, given, slice, every, &mut found);
        let found: Vec<Vec<usize>> = found.iter().map(|s| sorted(s)).collect();
        prop_assert_eq!(&found, &whole, "slice {}, every {}", slice, every);
    }
    let serial_first = compact.first_with(given).unwrap().map(|s| sorted(&s));
    // Four threads, however many cores: the sharing must not depend on
    // them running at once.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    pool.install(|| check_shared(&mut compact, given, &whole, &serial_first))
}

/// The parallel first solution is `serial_first`, and parallel counts
/// count `whole`, with several ways of sharing.
fn check_shared(
    compact: &mut CompactSolver,
    given: &[usize],
    whole: &[Vec<usize>],
    serial_first: &Option<Vec<usize>>,
) -> Result<(), TestCaseError> {
    // A search begun alone, stopped by its budget, then shared.
    let config = ShareConfig::default().with_slice_nodes(1);
    for budget in [0, 1, 3] {
        let mut alone = None;
        let limits = Limits::none()
            .with_max_solutions(Some(1))
            .with_node_budget(Some(budget));
        let stopped = compact
            .search(given, &limits, &mut |s: &[usize]| {
                alone = Some(s.to_vec());
                Control::Stop
            })
            .unwrap();
        let (shared, _) = first_compact_resumed(compact, &stopped, &config);
        let first = alone.or(shared).map(|s| sorted(&s));
        prop_assert_eq!(&first, serial_first, "budget {}", budget);
        for limit in [None, Some(2)] {
            let limits = Limits::none()
                .with_max_solutions(limit)
                .with_node_budget(Some(budget));
            let stopped = compact
                .search(given, &limits, &mut |_: &[usize]| Control::Continue)
                .unwrap();
            let report = count_compact_resumed(compact, &stopped, limit, &config);
            let want = limit.map_or(whole.len() as u64, |l| l.min(whole.len() as u64));
            prop_assert_eq!(report.stats.solutions, want);
        }
    }
    for (solo_nodes, slice_nodes) in [(0, 1), (1, 1), (2, 5), (1000, 1000)] {
        let config = ShareConfig::default()
            .with_solo_nodes(solo_nodes)
            .with_slice_nodes(slice_nodes);
        let (first, report) = first_compact_parallel(compact, given, &config).unwrap();
        prop_assert_eq!(first.map(|s| sorted(&s)), serial_first.clone());
        prop_assert_eq!(report.stats.solutions, u64::from(serial_first.is_some()));
        for limit in [None, Some(1), Some(2), Some(5)] {
            let report = count_compact_parallel(compact, given, limit, &config).unwrap();
            let want = limit.map_or(whole.len() as u64, |l| l.min(whole.len() as u64));
            prop_assert_eq!(report.stats.solutions, want);
            let limited = limit.is_some_and(|l| whole.len() as u64 >= l);
            prop_assert_eq!(report.outcome == Outcome::SolutionLimit, limited);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn split_searches_keep_the_serial_order(
        spec in many_solutions(),
        pick in any::<prop::sample::Index>(),
        with_given: bool,
        trail: bool,
    ) {
        let given: Vec<usize> = if with_given {
            vec![pick.index(spec.options.len())]
        } else {
            Vec::new()
        };
        let undo = if trail { Undo::Trail } else { Undo::Copy };
        check_split(&spec, &given, undo)?;
    }
}

/// The same on 6 queens and on 4×4 Latin squares (576 solutions), whose
/// searches are deep and branch a lot.
#[test]
fn split_searches_keep_the_serial_order_on_larger_problems() {
    let queens = |n: usize| {
        let mut options = Vec::new();
        for r in 0..n {
            for c in 0..n {
                options.push(vec![r, n + c, 2 * n + r + c, 4 * n - 1 + (n - 1 - r + c)]);
            }
        }
        Spec::exact(2 * n, 2 * (2 * n - 1), options)
    };
    let latin = |n: usize| {
        let mut options = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for d in 0..n {
                    options.push(vec![r * n + c, n * n + r * n + d, 2 * n * n + c * n + d]);
                }
            }
        }
        Spec::exact(3 * n * n, 0, options)
    };
    for spec in [queens(6), queens(7), latin(4)] {
        for undo in UNDOS {
            check_split(&spec, &[], undo).unwrap();
            check_split(&spec, &[1], undo).unwrap();
        }
    }
}

/// Edge cases of resuming and sharing: a cancel flag raised before the
/// search is obeyed on one thread as on several; a failed search leaves
/// nothing to resume; a resumed search at its solution limit reports no
/// more solutions.
#[test]
fn cancels_limits_and_errors_around_shared_searches() {
    // 4×4 Latin squares: 576 solutions.
    let n = 4;
    let mut builder = Problem::builder(3 * n * n, 0);
    for r in 0..n {
        for c in 0..n {
            for d in 0..n {
                builder
                    .add_option([r * n + c, n * n + r * n + d, 2 * n * n + c * n + d])
                    .unwrap();
            }
        }
    }
    let problem = builder.build();
    let mut compact = CompactSolver::new(&problem).unwrap();
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let config = ShareConfig::default().with_cancel(Some(cancel));
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let report = count_compact_parallel(&mut compact, &[], None, &config).unwrap();
            assert_eq!(report.outcome, Outcome::Cancelled, "{threads} threads");
            assert!(report.stats.solutions < 576);
            let (first, report) = first_compact_parallel(&mut compact, &[], &config).unwrap();
            assert_eq!((first, report.outcome), (None, Outcome::Cancelled));
        });
    }

    let budget = Limits::none().with_node_budget(Some(5));
    let mut count = |_: &[usize]| Control::Continue;
    let stopped = compact.search(&[], &budget, &mut count).unwrap();
    assert_eq!(stopped.outcome, Outcome::NodeBudget);
    assert!(compact.count_with(&[1 << 20], &Limits::none()).is_err());
    assert!(compact.resume(&Limits::none(), &mut count).is_none());
    assert!(compact.donate().is_empty());

    let stopped = compact.search(&[], &budget, &mut count).unwrap();
    assert_eq!(stopped.outcome, Outcome::NodeBudget);
    let mut seen = 0;
    let report = compact
        .resume(&Limits::solutions(0), &mut |_: &[usize]| {
            seen += 1;
            Control::Continue
        })
        .unwrap();
    assert_eq!((seen, report.outcome), (0, Outcome::SolutionLimit));
}
