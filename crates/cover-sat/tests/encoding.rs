//! The encoding against brute force: on random small problems with
//! colours and bounds, and random givens, the sets of options that some
//! model of the CNF makes true are exactly the problem's solutions (by
//! `cover_check::brute`, which shares no code with the encoding), in every
//! at-most-one encoding. Models are enumerated by a small DPLL written
//! here: for each set of option variables, whether the auxiliary variables
//! can complete it.

use std::collections::BTreeSet;

use cover_check::brute;
use cover_sat::{encode, Amo, Encoding};
use dlx_core::{Bounds, Colour, Problem};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// A problem as plain data: items `0..primary` are primary (with bounds),
/// the rest secondary; options are `(item, colour)` lists (colour 0: none).
#[derive(Debug, Clone)]
struct Spec {
    primary: usize,
    secondary: usize,
    bounds: Vec<(u32, u32)>,
    options: Vec<Vec<(usize, u32)>>,
}

impl Spec {
    fn build(&self) -> Problem {
        let mut builder = Problem::builder(self.primary, self.secondary);
        let colours: Vec<Colour> = ["red", "green", "blue"]
            .iter()
            .map(|name| builder.colour(name).unwrap())
            .collect();
        for (item, &(lower, upper)) in self.bounds.iter().enumerate() {
            builder.set_bounds(item, Bounds { lower, upper }).unwrap();
        }
        for option in &self.options {
            let items = option
                .iter()
                .map(|&(item, colour)| (item, (colour > 0).then(|| colours[colour as usize - 1])));
            builder.add_coloured_option(items).unwrap();
        }
        builder.build()
    }

    fn solutions(&self, given: &[usize]) -> BTreeSet<Vec<usize>> {
        if given.iter().collect::<BTreeSet<_>>().len() < given.len() {
            return BTreeSet::new();
        }
        let primary = self.bounds.iter().map(|&bounds| brute::Item {
            primary: true,
            bounds,
        });
        let secondary = (0..self.secondary).map(|_| brute::Item::SECONDARY);
        let oracle = brute::Problem {
            items: primary.chain(secondary).collect(),
            options: self
                .options
                .iter()
                .map(|o| o.iter().map(|&(i, c)| (i, (c > 0).then_some(c))).collect())
                .collect(),
        };
        brute::solutions(&oracle, usize::MAX)
            .into_iter()
            .filter(|s| given.iter().all(|g| s.contains(g)))
            .collect()
    }
}

/// Random problems: 1..=5 primary items, 0..=3 secondary, up to 12 options
/// of 1..=4 items, with bounds and colours when asked.
fn specs(bounded: bool, coloured: bool) -> impl Strategy<Value = Spec> {
    (1usize..=5, 0usize..=3).prop_flat_map(move |(primary, secondary)| {
        let items = primary + secondary;
        let bound = if bounded {
            (0u32..=2, 1u32..=3)
                .prop_map(|(a, b)| (a.min(b), b))
                .boxed()
        } else {
            Just((1u32, 1u32)).boxed()
        };
        let colour = if coloured { 0u32..=3 } else { 0u32..=0 };
        let option = subsequence((0..items).collect::<Vec<_>>(), 1..=items.min(4))
            .prop_flat_map(move |option_items| {
                let len = option_items.len();
                (
                    Just(option_items),
                    prop::collection::vec(colour.clone(), len),
                )
            })
            .prop_map(move |(option_items, colours)| {
                option_items
                    .into_iter()
                    .zip(colours)
                    .map(|(item, colour)| (item, if item < primary { 0 } else { colour }))
                    .collect::<Vec<_>>()
            });
        (
            prop::collection::vec(bound, primary),
            prop::collection::vec(option, 0..=12),
        )
            .prop_map(move |(bounds, mut options)| {
                options.retain(|o| o.iter().any(|&(item, _)| item < primary));
                Spec {
                    primary,
                    secondary,
                    bounds,
                    options,
                }
            })
    })
}

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
        spec in prop_oneof![specs(false, false), specs(false, true), specs(true, false), specs(true, true)],
        picks in prop::collection::vec(0usize..12, 0..=2),
    ) {
        let problem = spec.build();
        let given: Vec<usize> = if spec.options.is_empty() {
            Vec::new()
        } else {
            picks.iter().map(|p| p % spec.options.len()).collect()
        };
        let expected = spec.solutions(&given);
        for amo in AMOS {
            let encoding = encode(&problem, &given, amo).unwrap();
            prop_assert_eq!(&models(&encoding), &expected, "{:?}", amo);
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
