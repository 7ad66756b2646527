//! The deadline of a search ([`Limits::deadline`]) in every engine: a
//! deadline already past stops each search at its root with
//! [`Outcome::TimeLimit`], leaving the links as they were; a near one
//! stops searches that would run for hours, whatever the engine or the
//! threads; and [`Deadline`], the check they share, passes exactly when
//! the clock says so.
//!
//! Timings are asserted with generous bounds only (seconds where the
//! deadline is a tenth of one), so a busy machine does not fail them.

use std::time::{Duration, Instant};

use dlx_core::{
    count_compact_parallel, count_parallel, first_compact_parallel, search_parallel, CompactSolver,
    Control, Deadline, Limits, Outcome, Problem, ShareConfig, Solver, SplitConfig,
};

/// N queens as exact cover: ranks and files primary, diagonals secondary
/// (its count for N = 32 takes far longer than any test).
fn queens(n: usize) -> Problem {
    let mut b = Problem::builder(2 * n, 2 * (2 * n - 1));
    for r in 0..n {
        for c in 0..n {
            b.add_option([
                r,
                n + c,
                2 * n + r + c,
                2 * n + (2 * n - 1) + (n - 1 - r + c),
            ])
            .unwrap();
        }
    }
    b.build()
}

/// Pairs of items each covered by two options and, with bounds, a
/// multiplicity; with `colours`, a secondary item every option colours.
fn kinds() -> Vec<(&'static str, Problem)> {
    let mut coloured = Problem::builder(2, 1);
    let red = coloured.colour("red").unwrap();
    coloured
        .add_coloured_option([(0, None), (2, Some(red))])
        .unwrap();
    coloured
        .add_coloured_option([(1, None), (2, Some(red))])
        .unwrap();
    let mut bounded = Problem::builder(2, 0);
    bounded
        .set_bounds(0, dlx_core::Bounds { lower: 1, upper: 2 })
        .unwrap();
    bounded.add_option([0]).unwrap();
    bounded.add_option([0, 1]).unwrap();
    bounded.add_option([1]).unwrap();
    vec![
        ("exact", queens(6)),
        ("colours", coloured.build()),
        ("bounds", bounded.build()),
    ]
}

fn past() -> Limits {
    Limits::none().with_deadline(Some(Instant::now()))
}

fn soon() -> Limits {
    Limits::none().with_time_limit(Some(Duration::from_millis(100)))
}

/// How long a search stopped by `soon` may take, on the busiest machine.
const GENEROUS: Duration = Duration::from_secs(10);

#[test]
fn a_past_deadline_stops_the_linked_engine_at_its_root() {
    for (kind, problem) in kinds() {
        let mut solver = Solver::new(&problem);
        let mut found = 0;
        let report = solver
            .search(&[], &past(), &mut |_: &[usize]| {
                found += 1;
                Control::Continue
            })
            .unwrap();
        assert_eq!(report.outcome, Outcome::TimeLimit, "{kind}");
        assert!(report.outcome.gave_up() && !report.outcome.is_complete());
        assert_eq!((report.stats.nodes, found), (0, 0), "{kind}");
        assert!(solver.links_equal(&Solver::new(&problem)), "{kind}");
        // The iterator, and a search below a prefix, stop the same way.
        assert_eq!(solver.solutions(&[], &past()).unwrap().count(), 0, "{kind}");
        let report = solver
            .search_below(&[0], 1, &past(), &mut |_: &[usize]| Control::Continue)
            .unwrap();
        assert_eq!(report.outcome, Outcome::TimeLimit, "{kind}");
        assert!(solver.links_equal(&Solver::new(&problem)), "{kind}");
        // Without the deadline the same solver searches the whole tree.
        assert!(solver
            .count_with(&[], &Limits::none())
            .unwrap()
            .outcome
            .is_complete());
    }
}

#[test]
fn a_past_deadline_stops_the_compact_engine_and_the_parallel_searches() {
    let problem = queens(8);
    let mut compact = CompactSolver::new(&problem).unwrap();
    let report = compact.count_with(&[], &past()).unwrap();
    assert_eq!(
        (report.outcome, report.stats.nodes),
        (Outcome::TimeLimit, 0)
    );
    assert_eq!(compact.count(), 92);

    let config = SplitConfig::default().with_deadline(Some(Instant::now()));
    let report = count_parallel(&problem, &[], &config).unwrap();
    assert_eq!(report.outcome, Outcome::TimeLimit);
    let report = search_parallel(&problem, &[], &config, |_: &[usize]| Control::Continue).unwrap();
    assert_eq!(report.outcome, Outcome::TimeLimit);

    let share = ShareConfig::default()
        .with_solo_nodes(1)
        .with_slice_nodes(1)
        .with_deadline(Some(Instant::now()));
    let (first, report) = first_compact_parallel(&mut compact, &[], &share).unwrap();
    assert_eq!((first, report.outcome), (None, Outcome::TimeLimit));
    let report = count_compact_parallel(&mut compact, &[], None, &share).unwrap();
    assert_eq!(report.outcome, Outcome::TimeLimit);
    assert_eq!(compact.count(), 92);
}

#[test]
fn a_near_deadline_ends_long_searches_in_every_engine() {
    // Counting 32 queens takes years; each search must end soon after
    // its tenth of a second, on one thread and on four.
    let problem = queens(32);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let timed = |what: &str, search: &mut dyn FnMut() -> Outcome| {
        let start = Instant::now();
        let outcome = search();
        let took = start.elapsed();
        assert_eq!(outcome, Outcome::TimeLimit, "{what}");
        assert!(took >= Duration::from_millis(100), "{what}: {took:?}");
        assert!(took < GENEROUS, "{what}: {took:?}");
    };
    let mut linked = Solver::new(&problem);
    timed("linked", &mut || {
        linked.count_with(&[], &soon()).unwrap().outcome
    });
    assert!(linked.links_equal(&Solver::new(&problem)));
    let mut compact = CompactSolver::new(&problem).unwrap();
    timed("compact", &mut || {
        compact.count_with(&[], &soon()).unwrap().outcome
    });
    timed("split", &mut || {
        let config = SplitConfig::default().with_deadline(soon().deadline);
        pool.install(|| count_parallel(&problem, &[], &config))
            .unwrap()
            .outcome
    });
    timed("shared", &mut || {
        let share = ShareConfig::default()
            .with_solo_nodes(1_000)
            .with_deadline(soon().deadline);
        pool.install(|| count_compact_parallel(&mut compact, &[], None, &share))
            .unwrap()
            .outcome
    });
}

#[test]
fn the_check_passes_exactly_when_the_clock_says() {
    let mut never = Deadline::new(None);
    assert!((0..1_000_000).all(|_| !never.passed()));
    let mut gone = Deadline::new(Some(Instant::now()));
    assert!(gone.passed() && gone.passed(), "once passed, always passed");
    let at = Instant::now() + Duration::from_millis(50);
    let mut near = Deadline::new(Some(at));
    let mut checks = 0u64;
    while !near.passed() {
        checks += 1;
    }
    // It never passes early, and (reading the clock every few checks at
    // most) it notices soon after.
    let now = Instant::now();
    assert!(now >= at);
    assert!(now - at < Duration::from_secs(2), "{:?} late", now - at);
    assert!(checks > 0);
    // A limit too far away to be an instant is no limit.
    assert_eq!(
        Limits::none().with_time_limit(Some(Duration::MAX)).deadline,
        None
    );
    // The sooner of two deadlines stands.
    let sooner = Instant::now();
    let limits = Limits::none()
        .with_deadline(Some(sooner))
        .with_time_limit(Some(Duration::from_secs(60)));
    assert_eq!(limits.deadline, Some(sooner));
}
