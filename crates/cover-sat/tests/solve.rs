//! `cover_sat::search` (CaDiCaL) against brute force: on random small
//! problems with colours, bounds and givens, it finds each solution once
//! and all of them (counting by blocking clauses), every one checked by
//! `cover_check::brute`; and it stops at each limit with the outcome
//! dlx-core's engines give.
#![cfg(feature = "cadical")]

mod common;

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use common::any_spec;
use cover_check::brute;
use cover_sat::{search, Amo};
use dlx_core::{Control, Limits, Outcome, Problem};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn blocking_finds_every_solution_once(
        spec in any_spec(),
        picks in prop::collection::vec(0usize..12, 0..=1),
    ) {
        let problem = spec.build();
        let given = spec.given(&picks);
        let expected = spec.solutions(&given);
        let oracle = spec.oracle();
        let mut found = BTreeSet::new();
        let report = search(&problem, &given, &Limits::none(), Amo::Auto, |s: &[usize]| {
            assert!(s.starts_with(&given), "the givens first");
            assert_eq!(brute::check(&oracle, s), Ok(()));
            let mut s = s.to_vec();
            s.sort_unstable();
            assert!(found.insert(s), "a solution found twice");
            Control::Continue
        })
        .unwrap();
        prop_assert_eq!(&found, &expected);
        prop_assert_eq!(report.outcome, Outcome::Exhausted);
        prop_assert_eq!(report.stats.solutions, expected.len() as u64);
        // A limit of one solution: one, when there is any.
        let first = search(&problem, &given, &Limits::solutions(1), Amo::Auto, |_: &[usize]| Control::Continue).unwrap();
        prop_assert_eq!(first.stats.solutions, expected.len().min(1) as u64);
    }
}

/// `n` items `0..n` and one option per item: one solution of `n`
/// options, which needs no conflict.
fn identity(n: usize) -> Problem {
    let mut builder = Problem::builder(n, 0);
    for item in 0..n {
        builder.add_option([item]).unwrap();
    }
    builder.build()
}

/// The pigeonhole problem: 7 pigeons into 6 holes, as exact cover of the
/// pigeons with the holes secondary. No solution, and CDCL needs many
/// conflicts to prove it.
fn pigeons() -> Problem {
    let (pigeons, holes) = (7, 6);
    let mut builder = Problem::builder(pigeons, holes);
    for p in 0..pigeons {
        for h in 0..holes {
            builder.add_option([p, pigeons + h]).unwrap();
        }
    }
    builder.build()
}

#[test]
fn limits_stop_the_search_as_the_engines_do() {
    let problem = pigeons();
    let none = |_: &[usize]| Control::Continue;
    let all = search(&problem, &[], &Limits::none(), Amo::Auto, none).unwrap();
    assert_eq!((all.outcome, all.stats.solutions), (Outcome::Exhausted, 0));
    assert!(all.stats.learnt > 10, "{:?}", all.stats);
    let budget = Limits::none().with_node_budget(Some(5));
    let cut = search(&problem, &[], &budget, Amo::Auto, none).unwrap();
    assert_eq!(cut.outcome, Outcome::NodeBudget);
    let past = Limits::none().with_deadline(Some(Instant::now()));
    assert_eq!(
        search(&problem, &[], &past, Amo::Auto, none)
            .unwrap()
            .outcome,
        Outcome::TimeLimit
    );
    let cancelled = Limits::none().with_cancel(Some(Arc::new(AtomicBool::new(true))));
    assert_eq!(
        search(&problem, &[], &cancelled, Amo::Auto, none)
            .unwrap()
            .outcome,
        Outcome::Cancelled
    );
    // The visitor stops it; no solution is asked: nothing is solved.
    let one = identity(4);
    let stopped = search(&one, &[], &Limits::none(), Amo::Auto, |_: &[usize]| {
        Control::Stop
    })
    .unwrap();
    assert_eq!(
        (stopped.outcome, stopped.stats.solutions),
        (Outcome::Stopped, 1)
    );
    let zero = search(&one, &[], &Limits::solutions(0), Amo::Auto, none).unwrap();
    assert_eq!(
        (zero.outcome, zero.stats.solves),
        (Outcome::SolutionLimit, 0)
    );
    // Every option given: the one solution, found without blocking.
    let given = search(&one, &[0, 1, 2, 3], &Limits::none(), Amo::Auto, none).unwrap();
    assert_eq!(
        (given.outcome, given.stats.solutions),
        (Outcome::Exhausted, 1)
    );
    assert!(search(&one, &[9], &Limits::none(), Amo::Auto, none).is_err());
}
