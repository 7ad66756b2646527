//! Colours (XCC) and multiplicities (MCC) against `cover_check::brute`, on
//! random small problems (see `common`): the count, the set of streamed solutions, the first
//! solution, the same with given options, the links restored after every
//! kind of stop, and the parallel count equal to the serial one, counters
//! included.

mod common;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{bounded_coloured_specs, sorted, Spec};
use dlx_core::{
    count_parallel, run_shard, run_top, search_parallel, Bounds, Control, Limits, Outcome, Problem,
    ShardConfig, Solver, SplitConfig,
};
use proptest::prelude::*;

/// Colours, bounds, or both.
fn specs() -> impl Strategy<Value = Spec> {
    prop_oneof![
        bounded_coloured_specs(false, true),
        bounded_coloured_specs(true, false),
        bounded_coloured_specs(true, true),
    ]
}

/// Every solution the solver streams, sorted each; and the first one.
fn streamed(solver: &mut Solver, given: &[usize]) -> (Vec<Vec<usize>>, Outcome) {
    let mut found = Vec::new();
    let report = solver
        .search(given, &Limits::none(), &mut |options: &[usize]| {
            found.push(options.to_vec());
            Control::Continue
        })
        .unwrap();
    (found, report.outcome)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn solutions_are_the_brute_forces(spec in specs()) {
        let problem = spec.build();
        let fresh = Solver::new(&problem);
        let mut solver = Solver::new(&problem);
        let expected = spec.solutions(&[]);
        let (found, outcome) = streamed(&mut solver, &[]);
        prop_assert_eq!(outcome, Outcome::Exhausted);
        let set: BTreeSet<Vec<usize>> = found.iter().map(|s| sorted(s)).collect();
        prop_assert_eq!(set.len(), found.len(), "a solution came twice");
        prop_assert_eq!(&set, &expected);
        prop_assert!(solver.links_equal(&fresh));
        // The count, and the first solution: the first streamed.
        prop_assert_eq!(solver.count(), expected.len() as u64);
        prop_assert_eq!(solver.first(), found.first().cloned());
        prop_assert!(solver.links_equal(&fresh));
    }

    #[test]
    fn given_options_restrict_the_solutions(spec in specs(), pick in any::<u16>()) {
        prop_assume!(!spec.options.is_empty());
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let given: Vec<usize> = (0..spec.options.len()).filter(|&o| pick & (1 << o) != 0).take(2).collect();
        let (found, _) = streamed(&mut solver, &given);
        let set: BTreeSet<Vec<usize>> = found.iter().map(|s| sorted(s)).collect();
        prop_assert_eq!(set, spec.solutions(&given));
        for solution in &found {
            prop_assert_eq!(&solution[..given.len()], &given[..]);
        }
        prop_assert!(solver.links_equal(&Solver::new(&problem)));
    }

    #[test]
    fn every_stop_restores_the_links(spec in specs(), after in 1u64..6) {
        let problem = spec.build();
        let fresh = Solver::new(&problem);
        let mut solver = Solver::new(&problem);
        let total = spec.solutions(&[]).len() as u64;
        // A solution limit.
        let report = solver.count_with(&[], &Limits::solutions(after)).unwrap();
        prop_assert_eq!(report.stats.solutions, total.min(after));
        prop_assert!(solver.links_equal(&fresh));
        // A node budget.
        let limits = Limits::none().with_node_budget(Some(after));
        let report = solver.count_with(&[], &limits).unwrap();
        prop_assert!(report.stats.solutions <= total);
        prop_assert!(solver.links_equal(&fresh));
        // The visitor stops.
        let mut seen = 0;
        solver.search(&[], &Limits::none(), &mut |_: &[usize]| {
            seen += 1;
            if seen >= after { Control::Stop } else { Control::Continue }
        }).unwrap();
        prop_assert!(solver.links_equal(&fresh));
        // A cancel flag raised from the first solution on.
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(Some(Arc::clone(&flag)));
        solver.search(&[], &limits, &mut |_: &[usize]| {
            flag.store(true, Ordering::Relaxed);
            Control::Continue
        }).unwrap();
        prop_assert!(solver.links_equal(&fresh));
        // The iterator dropped half way.
        let mut solutions = solver.solutions(&[], &Limits::none()).unwrap();
        for _ in 0..after {
            if solutions.next().is_none() {
                break;
            }
        }
        drop(solutions);
        prop_assert!(solver.links_equal(&fresh));
    }

    #[test]
    fn parallel_counts_equal_the_serial_search(spec in specs(), prefixes in 1usize..40) {
        let problem = spec.build();
        let serial = Solver::new(&problem).count_with(&[], &Limits::none()).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let config = SplitConfig::default().with_min_prefixes(prefixes);
        let parallel = pool.install(|| count_parallel(&problem, &[], &config)).unwrap();
        prop_assert_eq!(parallel.stats, serial.stats);
        // The parallel stream holds the same solutions.
        let found = std::sync::Mutex::new(BTreeSet::new());
        pool.install(|| search_parallel(&problem, &[], &config, |s: &[usize]| {
            found.lock().unwrap().insert(sorted(s));
            Control::Continue
        })).unwrap();
        prop_assert_eq!(found.into_inner().unwrap(), spec.solutions(&[]));
        // With a given option in front of every prefix.
        if !spec.options.is_empty() {
            let given = [spec.options.len() / 2];
            let serial = Solver::new(&problem).count_with(&given, &Limits::none()).unwrap();
            let parallel = pool.install(|| count_parallel(&problem, &given, &config)).unwrap();
            prop_assert_eq!(parallel.stats, serial.stats);
            prop_assert_eq!(serial.stats.solutions, spec.solutions(&given).len() as u64);
        }
    }

    #[test]
    fn shards_partition_the_serial_search(spec in specs(), shards in 1usize..30, seed in any::<u64>()) {
        let problem = spec.build();
        let fresh = Solver::new(&problem);
        let serial = Solver::new(&problem).count_with(&[], &Limits::none()).unwrap();
        let config = ShardConfig::default().with_shards(shards).with_probes(3).with_seed(seed);
        let plan = dlx_core::plan(&problem, &config).unwrap();
        let mut solver = Solver::new(&problem);
        let mut total = run_top(&mut solver, &plan.top).unwrap();
        prop_assert_eq!(total, plan.top_stats);
        for shard in &plan.shards {
            // Each subtree is at least its own node.
            prop_assert!(shard.estimate >= shard.prefixes.len() as f64, "{:?}", shard);
            total += run_shard(&mut solver, &shard.prefixes).unwrap();
        }
        prop_assert_eq!(total, serial.stats);
        // The shards leave the links as they were; and so do the probes,
        // from the root and from every prefix of the plan.
        prop_assert!(solver.links_equal(&fresh));
        let mut prober = Solver::new(&problem);
        let mut state = seed | 1;
        let mut random = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let prefixes = plan.top.iter().chain(plan.shards.iter().flat_map(|s| s.prefixes.iter()));
        for prefix in prefixes {
            let estimate = prober.estimate_below(prefix, 0, 3, &mut random).unwrap();
            prop_assert!(estimate >= 1.0, "{:?}: {}", prefix, estimate);
            prop_assert!(prober.links_equal(&fresh), "{:?}", prefix);
        }
    }
}

/// A guide that keeps the stack of options the engine pushes, checks each
/// solution against it, and cuts every partial solution of `cut_at`
/// options.
struct Stack {
    stack: Vec<usize>,
    cut_at: usize,
    solutions: Vec<Vec<usize>>,
    balanced: bool,
}

impl dlx_core::Visitor for Stack {
    fn solution(&mut self, options: &[usize]) -> Control {
        self.balanced &= options == self.stack.as_slice();
        self.solutions.push(sorted(options));
        Control::Continue
    }
}

impl dlx_core::Guide for Stack {
    fn push(&mut self, option: usize) {
        self.stack.push(option);
    }
    fn pop(&mut self, option: usize) {
        self.balanced &= self.stack.pop() == Some(option);
    }
    fn prune(&mut self) -> bool {
        self.stack.len() >= self.cut_at
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_guide_follows_and_cuts(spec in specs(), cut_at in 0usize..5) {
        let problem = spec.build();
        let mut solver = Solver::new(&problem);
        let mut guide = Stack { stack: Vec::new(), cut_at, solutions: Vec::new(), balanced: true };
        solver.search_guided(&[], &Limits::none(), &mut guide).unwrap();
        prop_assert!(guide.balanced);
        prop_assert!(guide.stack.is_empty());
        // A cut at `cut_at` options leaves the solutions of at most that
        // many; with bounds, one of exactly that many may need levels that
        // close items, which the cut takes too.
        let all = spec.solutions(&[]);
        let found: BTreeSet<Vec<usize>> = guide.solutions.into_iter().collect();
        let at_most = |n: usize| -> BTreeSet<Vec<usize>> {
            all.iter().filter(|s| s.len() <= n).cloned().collect()
        };
        if problem.has_bounds() {
            prop_assert!(found.is_subset(&at_most(cut_at)));
            if cut_at > 0 {
                prop_assert!(at_most(cut_at - 1).is_subset(&found));
            }
        } else {
            prop_assert_eq!(found, at_most(cut_at));
        }
        prop_assert!(solver.links_equal(&Solver::new(&problem)));
    }
}

#[test]
fn knuths_small_colour_example() {
    let mut b = Problem::named(["p", "q", "r"], ["x", "y"]).unwrap();
    for option in [
        &[("p", None), ("q", None), ("x", Some("A")), ("y", Some("A"))][..],
        &[("p", None), ("r", None), ("x", Some("B")), ("y", Some("A"))],
        &[("p", None), ("x", Some("A"))],
        &[("q", None), ("x", Some("B"))],
        &[("r", None), ("y", Some("A"))],
        &[("q", None), ("r", None), ("y", Some("B"))],
    ] {
        b.add_named_coloured_option(option.iter().copied()).unwrap();
    }
    let problem = b.build();
    let report = Solver::new(&problem)
        .count_with(&[], &Limits::none())
        .unwrap();
    // DLX2's figures (shared/xc/REFERENCE-XCC.md).
    assert_eq!(
        (
            report.stats.solutions,
            report.stats.nodes,
            report.stats.updates,
            report.stats.cleansings
        ),
        (3, 7, 24, 8)
    );
}

#[test]
fn the_compact_engine_refuses_colours_and_bounds() {
    let mut b = Problem::builder(1, 0);
    b.set_bounds(0, Bounds { lower: 0, upper: 2 }).unwrap();
    b.add_option([0]).unwrap();
    assert!(dlx_core::CompactSolver::new(&b.build()).is_err());
}
