//! The encoding against brute force: on random small problems with
//! colours and bounds, and random givens, the sets of options that some
//! model of the CNF makes true are exactly the problem's solutions (by
//! `cover_check::brute`, which shares no code with the encoding), in every
//! at-most-one encoding. Models are enumerated by a small DPLL written
//! here: for each set of option variables, whether the auxiliary variables
//! can complete it.

mod common;

use std::collections::BTreeSet;

use common::any_spec;
use cover_sat::{encode, encode_pruned, Amo, Encoding};
use dlx_core::Problem;
use proptest::prelude::*;

/// Whether `clauses` have a model extending `assignment` (indexed by
/// variable, 0 unused: `Some(value)` or free), by DPLL with unit
/// propagation.
fn satisfiable(clauses: &[Vec<i32>], assignment: &mut Vec<Option<bool>>) -> bool {
    let value = |a: &Vec<Option<bool>>, l: i32| a[l.unsigned_abs() as usize].map(|v| v == (l > 0));
    // Unit propagation to a fixpoint.
    let mut trail = Vec::new();
    loop {
        let mut changed = false;
        for clause in clauses {
            let mut free = None;
            let mut frees = 0;
            let mut satisfied = false;
            for &l in clause {
                match value(assignment, l) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        frees += 1;
                        free = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (frees, free) {
                (0, _) => {
                    for v in trail {
                        assignment[v] = None;
                    }
                    return false;
                }
                (1, Some(l)) => {
                    assignment[l.unsigned_abs() as usize] = Some(l > 0);
                    trail.push(l.unsigned_abs() as usize);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    let result = match (1..assignment.len()).find(|&v| assignment[v].is_none()) {
        None => true,
        Some(v) => [true, false].into_iter().any(|b| {
            assignment[v] = Some(b);
            let ok = satisfiable(clauses, assignment);
            assignment[v] = None;
            ok
        }),
    };
    for v in trail {
        assignment[v] = None;
    }
    result
}

/// Every solution the CNF's models make: for each set of option
/// variables, whether the rest can complete it.
fn models(encoding: &Encoding) -> BTreeSet<Vec<usize>> {
    let clauses: Vec<Vec<i32>> = encoding.clauses().map(|c| c.to_vec()).collect();
    let n = encoding.option_variables();
    let mut found = BTreeSet::new();
    for set in 0u32..1 << n {
        let mut assignment = vec![None; encoding.variables() as usize + 1];
        for v in 1..=n {
            assignment[v as usize] = Some(set >> (v - 1) & 1 == 1);
        }
        if satisfiable(&clauses, &mut assignment) {
            let mut solution = encoding.solution(|v| set >> (v - 1) & 1 == 1);
            solution.sort_unstable();
            found.insert(solution);
        }
    }
    found
}

const AMOS: [Amo; 4] = [Amo::Auto, Amo::Pairwise, Amo::Sequential, Amo::Product];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn models_are_the_solutions(
        spec in any_spec(),
        picks in prop::collection::vec(0usize..12, 0..=2),
    ) {
        let problem = spec.build();
        let given = spec.given(&picks);
        let expected = spec.solutions(&given);
        for amo in AMOS {
            let encoding = encode(&problem, &given, amo).unwrap();
            prop_assert_eq!(&models(&encoding), &expected, "{:?}", amo);
        }
    }

    /// Excluding options leaves exactly the solutions without them: none
    /// lost by excluding options of no solution, and those with an
    /// excluded option gone.
    #[test]
    fn excluded_options_leave_the_solutions_without_them(
        spec in any_spec(),
        picks in prop::collection::vec(0usize..12, 0..=1),
        excluded in prop::collection::vec(0usize..12, 0..=3),
    ) {
        let problem = spec.build();
        let given = spec.given(&picks);
        let excluded: Vec<usize> = spec
            .given(&excluded)
            .into_iter()
            .filter(|o| !given.contains(o))
            .collect();
        let expected: BTreeSet<Vec<usize>> = spec
            .solutions(&given)
            .into_iter()
            .filter(|s| !s.iter().any(|o| excluded.contains(o)))
            .collect();
        let encoding = encode_pruned(&problem, &given, &excluded, Amo::Auto).unwrap();
        prop_assert_eq!(&models(&encoding), &expected);
        for &o in &excluded {
            prop_assert_eq!(encoding.variable_of(o), None);
        }
    }
}

#[test]
fn one_item_of_many_options_takes_exactly_one() {
    // Past the pairwise threshold and the product's small case: an item
    // in n options has n solutions, whatever the encoding.
    for n in [1usize, 2, 7, 12] {
        let mut builder = Problem::builder(1, 1);
        for _ in 0..n {
            builder.add_option([0]).unwrap();
        }
        let problem = builder.build();
        for amo in AMOS {
            let encoding = encode(&problem, &[], amo).unwrap();
            let found = models(&encoding);
            assert_eq!(found.len(), n, "{amo:?}");
            assert!(found.iter().all(|s| s.len() == 1));
        }
    }
}

#[test]
fn large_at_most_one_encodings_are_small() {
    // 40 options of one item: pairwise would write 780 clauses.
    let mut builder = Problem::builder(1, 0);
    for _ in 0..40 {
        builder.add_option([0]).unwrap();
    }
    let problem = builder.build();
    let pairwise = encode(&problem, &[], Amo::Pairwise).unwrap();
    assert_eq!(pairwise.clause_count(), 1 + 40 * 39 / 2);
    let auto = encode(&problem, &[], Amo::Auto).unwrap();
    assert!(auto.clause_count() < 130, "{}", auto.clause_count());
    assert_eq!(auto.variables(), 40 + 38);
    let product = encode(&problem, &[], Amo::Product).unwrap();
    assert!(product.clause_count() < 130, "{}", product.clause_count());
}

#[test]
fn givens_clash_or_leave_the_rest() {
    // Items a, b; options {a}, {a, b}, {b}.
    let mut builder = Problem::builder(2, 0);
    builder.add_option([0]).unwrap();
    builder.add_option([0, 1]).unwrap();
    builder.add_option([1]).unwrap();
    let problem = builder.build();
    // Given {a}: only {b} is left, with a variable; {a, b} has none.
    let encoding = encode(&problem, &[0], Amo::Auto).unwrap();
    assert_eq!(encoding.variable_of(0), None);
    assert_eq!(encoding.variable_of(1), None);
    assert_eq!(encoding.variable_of(2), Some(1));
    assert_eq!(models(&encoding), BTreeSet::from([vec![0, 2]]));
    assert_eq!(encoding.blocking_clause(&[0, 2]), vec![-1]);
    // Clashing givens: no model.
    let clash = encode(&problem, &[0, 1], Amo::Auto).unwrap();
    assert!(models(&clash).is_empty());
    assert!(encode(&problem, &[3], Amo::Auto).is_err());
}

#[test]
fn dimacs_names_every_option_and_counts_its_clauses() {
    let mut builder = Problem::named(["a", "b"], ["x"]).unwrap();
    builder.add_named_option(["a", "x"]).unwrap();
    builder.add_named_option(["b", "x"]).unwrap();
    builder.add_named_option(["a", "b"]).unwrap();
    let problem = builder.build();
    let encoding = encode(&problem, &[], Amo::Auto).unwrap();
    let mut out = Vec::new();
    encoding.write_dimacs(&problem, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("c option 1 0: a x\n"), "{text}");
    assert!(text.contains("c option 3 2: a b\n"), "{text}");
    let header = format!(
        "p cnf {} {}\n",
        encoding.variables(),
        encoding.clause_count()
    );
    assert!(text.contains(&header), "{text}");
    let clause_lines = text.lines().filter(|l| !l.starts_with(['c', 'p'])).count();
    assert_eq!(clause_lines, encoding.clause_count());
    assert!(text
        .lines()
        .filter(|l| !l.starts_with(['c', 'p']))
        .all(|l| l.ends_with(" 0") || l == "0"));
}
