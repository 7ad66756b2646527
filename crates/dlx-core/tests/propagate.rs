//! Property tests of the propagation hook, in both engines and under both
//! ways of sharing a search between threads.
//!
//! Two propagators that know nothing of any puzzle are attached to random
//! problems:
//! - `LookAhead`, a sound rule of any exact cover: an option that conflicts
//!   with every live option of some item that still has live options can be
//!   in no solution (that item could not be covered), so it is removed, to
//!   a fixpoint; when a removal leaves such an item with no option, the
//!   node is dead.
//! - `Oracle`, which knows the problem's solutions (by brute force) and
//!   removes a pseudo-random half of the live options that are in none,
//!   the half chosen by a hash of the live options (a function of the
//!   state, as the contract asks); and which chooses the branching item by
//!   that hash too. It tests that removals are undone at every kind of
//!   backtrack and that a chosen item is honoured.
//! - `Ledger`, which reads the options chosen so far (`Domain::chosen`) and
//!   asserts they are the node's whole state: they do not overlap, none is
//!   live, and an option is live exactly when it overlaps none of them and
//!   is in some solution or not yet removed (it removes every live option
//!   in no solution, so below the root the two agree).
//!
//! Every search must find exactly the solutions of the plain search (each
//! checked as an exact cover by `cover_check::brute`, see `common`), restore the linked engine's
//! links, count its removals, and, shared between threads, give the same
//! count, and a solution when there is one.

mod common;

use std::collections::BTreeSet;

use common::{exact_specs, Spec};
use dlx_core::{
    count_compact_parallel, count_parallel_with, first_compact_parallel, CompactSolver, Control,
    Domain, Limits, Outcome, Problem, Propagator, Search, ShareConfig, Solver, SplitConfig, Undo,
    Verdict,
};
use proptest::prelude::*;

/// Random problems of up to 9 items and 16 options.
fn small() -> impl Strategy<Value = Spec> {
    exact_specs(1..=9, 0..=2, 1..=4, 0..=16)
}

fn conflict(a: &[usize], b: &[usize]) -> bool {
    a.iter().any(|i| b.contains(i))
}

/// The look-ahead rule (see the module docs).
#[derive(Clone)]
struct LookAhead {
    /// The items of each option.
    options: Vec<Vec<usize>>,
    /// The options of each primary item.
    by_item: Vec<Vec<usize>>,
}

impl LookAhead {
    fn new(spec: &Spec) -> LookAhead {
        let options: Vec<Vec<usize>> = (0..spec.options.len()).map(|o| spec.items(o)).collect();
        let by_item = (0..spec.primary)
            .map(|i| {
                (0..options.len())
                    .filter(|&o| options[o].contains(&i))
                    .collect()
            })
            .collect();
        LookAhead { options, by_item }
    }
}

impl Propagator for LookAhead {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        loop {
            let mut changed = false;
            for o in 0..self.options.len() {
                if !domain.is_live(o) {
                    continue;
                }
                let option = &self.options[o];
                let blocks = self.by_item.iter().enumerate().any(|(item, options)| {
                    if option.contains(&item) {
                        // The option covers it itself.
                        return false;
                    }
                    let live: Vec<usize> = options
                        .iter()
                        .copied()
                        .filter(|&p| domain.is_live(p))
                        .collect();
                    !live.is_empty()
                        && live
                            .iter()
                            .all(|&p| conflict(&self.options[o], &self.options[p]))
                });
                if blocks {
                    let orphans_before: Vec<bool> = self
                        .by_item
                        .iter()
                        .map(|os| os.iter().any(|&p| domain.is_live(p)))
                        .collect();
                    domain.remove(o);
                    assert!(!domain.is_live(o), "a removed option is not live");
                    changed = true;
                    let orphaned = self
                        .by_item
                        .iter()
                        .zip(&orphans_before)
                        .any(|(os, &had)| had && !os.iter().any(|&p| domain.is_live(p)));
                    if orphaned {
                        return Verdict::Dead;
                    }
                }
            }
            if !changed {
                return Verdict::Live;
            }
        }
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

/// The oracle (see the module docs).
#[derive(Clone)]
struct Oracle {
    primary: usize,
    useless: Vec<bool>,
    by_item: Vec<Vec<usize>>,
}

impl Oracle {
    fn new(spec: &Spec) -> Oracle {
        let solutions = spec.solutions(&[]);
        let useless = (0..spec.options.len())
            .map(|o| !solutions.iter().any(|s| s.contains(&o)))
            .collect();
        Oracle {
            primary: spec.primary,
            useless,
            by_item: LookAhead::new(spec).by_item,
        }
    }

    fn hash(domain: &dyn Domain) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for o in 0..domain.option_count() {
            h = (h ^ u64::from(domain.is_live(o))).wrapping_mul(0x100_0000_01b3);
        }
        h
    }
}

impl Propagator for Oracle {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        let h = Oracle::hash(domain);
        for o in 0..domain.option_count() {
            if self.useless[o] && domain.is_live(o) && (h >> (o % 64)) & 1 == 1 {
                domain.remove(o);
            }
        }
        // Removing options can reveal more useless live ones: run again
        // until nothing changes, so that the removals depend only on the
        // live options (the fixpoint).
        if Oracle::hash(domain) != h {
            return self.propagate(domain);
        }
        Verdict::Live
    }

    fn choose(&mut self, domain: &dyn Domain) -> Option<usize> {
        // An item with live options, picked by the hash; sometimes a
        // covered one or one out of range, which the engines must ignore.
        let h = Oracle::hash(domain);
        let pick = (h % (self.primary as u64 + 2)) as usize;
        if pick >= self.primary || h & 4 == 0 {
            return Some(pick);
        }
        let with_options = |i: usize| self.by_item[i].iter().any(|&o| domain.is_live(o));
        (0..self.primary)
            .map(|k| (pick + k) % self.primary)
            .find(|&i| with_options(i))
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

/// The ledger (see the module docs).
#[derive(Clone)]
struct Ledger {
    options: Vec<Vec<usize>>,
    useless: Vec<bool>,
    chosen: Vec<usize>,
}

impl Ledger {
    fn new(spec: &Spec) -> Ledger {
        Ledger {
            options: LookAhead::new(spec).options,
            useless: Oracle::new(spec).useless,
            chosen: Vec::new(),
        }
    }
}

impl Propagator for Ledger {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        assert!(domain.chosen(&mut self.chosen), "both engines say");
        let mut covered = BTreeSet::new();
        for &o in &self.chosen {
            assert!(!domain.is_live(o), "a chosen option is not live");
            for &item in &self.options[o] {
                assert!(covered.insert(item), "chosen options overlap");
            }
        }
        for (o, items) in self.options.iter().enumerate() {
            let clear = items.iter().all(|i| !covered.contains(i));
            if domain.is_live(o) {
                assert!(clear, "a live option overlaps a chosen one");
                if self.useless[o] {
                    domain.remove(o);
                }
            } else {
                assert!(!clear || self.useless[o], "an option lost without cause");
            }
        }
        Verdict::Live
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

/// Every solution `solver` finds with the `given` options, each sorted,
/// none twice; either engine.
fn all<S: Search>(solver: &mut S, given: &[usize]) -> (BTreeSet<Vec<usize>>, dlx_core::Report) {
    let mut found = BTreeSet::new();
    let report = solver
        .search(given, &Limits::none(), &mut |s: &[usize]| {
            let mut s = s.to_vec();
            s.sort_unstable();
            assert!(found.insert(s), "a solution found twice");
            Control::Continue
        })
        .unwrap();
    (found, report)
}

fn propagators(spec: &Spec) -> Vec<Box<dyn Propagator>> {
    vec![
        Box::new(LookAhead::new(spec)),
        Box::new(Oracle::new(spec)),
        Box::new(Ledger::new(spec)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn propagated_searches_find_exactly_the_solutions(spec in small()) {
        let problem = spec.build();
        let expected = spec.solutions(&[]);
        let mut plain = Solver::new(&problem);
        let (plain_found, plain_report) = all(&mut plain, &[]);
        prop_assert_eq!(&plain_found, &expected);
        prop_assert_eq!(plain_report.stats.propagated, 0);
        for propagator in propagators(&spec) {
            let mut linked = Solver::new(&problem);
            linked.set_propagator(Some(propagator.box_clone())).unwrap();
            let (found, report) = all(&mut linked, &[]);
            prop_assert_eq!(&found, &expected);
            prop_assert!(report.stats.nodes <= plain_report.stats.nodes.max(1) * 4);
            prop_assert!(linked.links_equal(&Solver::new(&problem)), "links restored");
            for undo in [Undo::Copy, Undo::Trail] {
                let mut compact = CompactSolver::with_undo(&problem, undo).unwrap();
                compact.set_propagator(Some(propagator.box_clone()));
                let (found, _) = all(&mut compact, &[]);
                prop_assert_eq!(&found, &expected);
                // Again: the state is restored between searches.
                let (again, _) = all(&mut compact, &[]);
                prop_assert_eq!(&again, &expected);
            }
        }
    }

    #[test]
    fn stopped_searches_leave_the_links_restored(spec in small(), stop_at in 1u64..4) {
        let problem = spec.build();
        let check = spec.checker();
        for propagator in propagators(&spec) {
            let mut linked = Solver::new(&problem);
            linked.set_propagator(Some(propagator)).unwrap();
            for limits in [
                Limits::solutions(stop_at),
                Limits::none().with_node_budget(Some(stop_at * 2)),
            ] {
                let mut seen = 0;
                let _ = linked.search(&[], &limits, &mut |s: &[usize]| {
                    assert_eq!(check(s), Ok(()));
                    seen += 1;
                    Control::Continue
                }).unwrap();
                prop_assert!(linked.links_equal(&Solver::new(&problem)));
                // The iterator, dropped early.
                let mut solutions = linked.solutions(&[], &Limits::none()).unwrap();
                let _ = solutions.next();
                drop(solutions);
                prop_assert!(linked.links_equal(&Solver::new(&problem)));
            }
        }
    }

    #[test]
    fn givens_restrict_propagated_searches(spec in small(), pick in 0usize..16) {
        let problem = spec.build();
        if spec.options.is_empty() {
            return Ok(());
        }
        let given = [pick % spec.options.len()];
        let mut plain = Solver::new(&problem);
        let (expected, _) = all(&mut plain, &given);
        for propagator in propagators(&spec) {
            let mut linked = Solver::new(&problem);
            linked.set_propagator(Some(propagator.box_clone())).unwrap();
            prop_assert_eq!(&all(&mut linked, &given).0, &expected);
            let mut compact = CompactSolver::new(&problem).unwrap();
            compact.set_propagator(Some(propagator));
            prop_assert_eq!(&all(&mut compact, &given).0, &expected);
        }
    }

    #[test]
    fn shared_propagated_searches_give_the_serial_answers(spec in small()) {
        let problem = spec.build();
        let expected = spec.solutions(&[]).len() as u64;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        for propagator in propagators(&spec) {
            let mut linked = Solver::new(&problem);
            linked.set_propagator(Some(propagator.box_clone())).unwrap();
            let config = SplitConfig::default().with_min_prefixes(4);
            let report = pool.install(|| count_parallel_with(&linked, &[], &config)).unwrap();
            prop_assert_eq!(report.stats.solutions, expected);

            let mut compact = CompactSolver::new(&problem).unwrap();
            compact.set_propagator(Some(propagator));
            let share = ShareConfig::default().with_solo_nodes(1).with_slice_nodes(1);
            let (first, _) = pool.install(|| first_compact_parallel(&mut compact, &[], &share)).unwrap();
            // A solution, when there is one; not necessarily the serial
            // search's first (see the propagate module).
            prop_assert_eq!(first.is_some(), expected > 0);
            if let Some(first) = first {
                prop_assert_eq!((spec.checker())(&first), Ok(()));
            }
            let report = pool.install(|| count_compact_parallel(&mut compact, &[], None, &share)).unwrap();
            prop_assert_eq!(report.stats.solutions, expected);
        }
    }
}

/// Items a, b, c; options {a b}, {a c}, {b c}, {a}, {b}: every option of
/// c meets {a b}, so looking ahead removes {a b} at the root.
#[test]
fn removals_are_counted_apart_from_updates() {
    let spec = Spec::exact(
        3,
        0,
        vec![vec![0, 1], vec![0, 2], vec![1, 2], vec![0], vec![1]],
    );
    let problem = spec.build();
    let mut plain = Solver::new(&problem);
    let (expected, plain_report) = all(&mut plain, &[]);
    let mut linked = Solver::new(&problem);
    linked
        .set_propagator(Some(Box::new(LookAhead::new(&spec))))
        .unwrap();
    assert!(linked.has_propagator());
    let (found, report) = all(&mut linked, &[]);
    assert_eq!(found, expected);
    assert_eq!(plain_report.stats.propagated, 0);
    assert_eq!(found.len(), 2);
    assert!(report.stats.propagated >= 1, "{report:?}");
    assert!(report.stats.nodes <= plain_report.stats.nodes, "{report:?}");
    assert_eq!(report.outcome, Outcome::Exhausted);
    linked.set_propagator(None).unwrap();
    let (_, again) = all(&mut linked, &[]);
    assert_eq!(
        again.stats, plain_report.stats,
        "detached: the plain search"
    );
}

#[test]
fn colours_and_bounds_refuse_a_propagator() {
    let mut builder = Problem::named(["a"], ["x"]).unwrap();
    builder
        .add_named_coloured_option([("a", None), ("x", Some("red"))])
        .unwrap();
    let problem = builder.build();
    let spec = Spec::exact(1, 1, vec![vec![0, 1]]);
    let mut solver = Solver::new(&problem);
    assert!(solver
        .set_propagator(Some(Box::new(LookAhead::new(&spec))))
        .is_err());
    assert!(!solver.has_propagator());
}
