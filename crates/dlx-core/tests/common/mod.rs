//! The random problems of dlx-core's property tests, and their oracle.
//!
//! One problem as plain data ([`Spec`]) becomes both the engine's
//! [`Problem`] and the brute force's ([`cover_check::brute`], which shares
//! no code with the engine); the suites differ only in the sizes they ask
//! for. Each suite uses part of this module.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use cover_check::brute;
use dlx_core::{Bounds, Colour, Problem};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// A problem as plain data: items `0..primary` are primary, the next
/// `secondary` are secondary.
#[derive(Debug, Clone)]
pub struct Spec {
    pub primary: usize,
    pub secondary: usize,
    /// Each primary item's bounds `(lower, upper)`; `(1, 1)` for exact
    /// cover.
    pub bounds: Vec<(u32, u32)>,
    /// Each option: its items, each with a colour (0 for none; only
    /// secondary items have one). Every option has a primary item.
    pub options: Vec<Vec<(usize, u32)>>,
}

/// The colours a [`Spec`] may give: colour `c` is `COLOURS[c - 1]`.
const COLOURS: [&str; 3] = ["red", "green", "blue"];

impl Spec {
    /// An exact-cover problem of `options`, less those without a primary
    /// item, which a problem may not have (no search could ever choose
    /// them).
    pub fn exact(primary: usize, secondary: usize, mut options: Vec<Vec<usize>>) -> Spec {
        options.retain(|o| o.iter().any(|&i| i < primary));
        Spec {
            primary,
            secondary,
            bounds: vec![(1, 1); primary],
            options: options
                .into_iter()
                .map(|o| o.into_iter().map(|item| (item, 0)).collect())
                .collect(),
        }
    }

    /// The engine's problem.
    pub fn build(&self) -> Problem {
        let mut builder = Problem::builder(self.primary, self.secondary);
        let colours: Vec<Colour> = COLOURS
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
            builder
                .add_coloured_option(items)
                .expect("the strategies make valid options");
        }
        builder.build()
    }

    /// The brute force's problem.
    pub fn oracle(&self) -> brute::Problem {
        let primary = self.bounds.iter().map(|&bounds| brute::Item {
            primary: true,
            bounds,
        });
        let secondary = (0..self.secondary).map(|_| brute::Item {
            primary: false,
            bounds: (0, 1),
        });
        brute::Problem {
            items: primary.chain(secondary).collect(),
            options: self
                .options
                .iter()
                .map(|o| o.iter().map(|&(i, c)| (i, (c > 0).then_some(c))).collect())
                .collect(),
        }
    }

    /// Every solution containing the `given` options, each sorted, by
    /// brute force; none when an option is given twice (it conflicts with
    /// itself, as the engines say).
    pub fn solutions(&self, given: &[usize]) -> BTreeSet<Vec<usize>> {
        if given.iter().collect::<BTreeSet<_>>().len() < given.len() {
            return BTreeSet::new();
        }
        brute::solutions(&self.oracle(), usize::MAX)
            .into_iter()
            .filter(|s| given.iter().all(|g| s.contains(g)))
            .collect()
    }

    /// The brute force's checker of one solution (`Err` says why it is
    /// none), for this problem.
    pub fn checker(&self) -> impl Fn(&[usize]) -> Result<(), String> {
        let oracle = self.oracle();
        move |solution| brute::check(&oracle, solution)
    }

    /// The items of option `o`, without their colours.
    pub fn items(&self, o: usize) -> Vec<usize> {
        self.options[o].iter().map(|&(item, _)| item).collect()
    }
}

/// `solution`, sorted.
pub fn sorted(solution: &[usize]) -> Vec<usize> {
    let mut s = solution.to_vec();
    s.sort_unstable();
    s
}

/// Random exact-cover problems: `items` items in all, `secondary` of them
/// secondary (at most all but one), `options` options (before those
/// without a primary item are left out) of `option_items` distinct items
/// each (at most all), in item order.
pub fn exact_specs(
    items: RangeInclusive<usize>,
    secondary: RangeInclusive<usize>,
    option_items: RangeInclusive<usize>,
    options: RangeInclusive<usize>,
) -> impl Strategy<Value = Spec> {
    (items, secondary).prop_flat_map(move |(items, secondary)| {
        let secondary = secondary.min(items - 1);
        let lengths = (*option_items.start()).min(items)..=(*option_items.end()).min(items);
        let option = subsequence((0..items).collect::<Vec<_>>(), lengths);
        prop::collection::vec(option, options.clone())
            .prop_map(move |options| Spec::exact(items - secondary, secondary, options))
    })
}

/// `spec` with `fillers` primary items more, one option each, numbered
/// after its primary items (its secondary items after them); options that
/// would give an item more than 16 are left out. With 1000 fillers, the
/// compact engine's 16-bit keys fill all their 15 bits (5 for counts, 10
/// for item numbers).
pub fn with_fillers(spec: Spec, fillers: usize) -> Spec {
    let primary = spec.primary;
    let renumber = |i: usize| if i < primary { i } else { i + fillers };
    let mut options: Vec<Vec<usize>> = (0..spec.options.len())
        .map(|o| spec.items(o).into_iter().map(renumber).collect())
        .collect();
    let mut counts = vec![0; primary + spec.secondary + fillers];
    options.retain(|o| {
        let fits = o.iter().all(|&i| counts[i] < 16);
        if fits {
            o.iter().for_each(|&i| counts[i] += 1);
        }
        fits
    });
    options.extend((primary..primary + fillers).map(|f| vec![f]));
    Spec::exact(primary + fillers, spec.secondary, options)
}

/// One option: a non-empty set of distinct items in random order, usually
/// small (so that problems have solutions), sometimes of any size.
fn shuffled_option(items: usize) -> impl Strategy<Value = Vec<usize>> {
    let all: Vec<usize> = (0..items).collect();
    prop_oneof![
        4 => subsequence(all.clone(), 1..=items.min(3)),
        1 => subsequence(all, 1..=items),
    ]
    .prop_shuffle()
}

/// Random exact-cover problems of 1..=12 items, of which the last 0..=4
/// are secondary (all of them, sometimes), and 0..=`max_options` options
/// of items in random order.
pub fn shuffled_specs(max_options: usize) -> impl Strategy<Value = Spec> {
    (1usize..=12)
        .prop_flat_map(|items| (Just(items), 0..=items.min(4)))
        .prop_flat_map(move |(items, secondary)| {
            prop::collection::vec(shuffled_option(items), 0..=max_options)
                .prop_map(move |options| Spec::exact(items - secondary, secondary, options))
        })
}

/// Random problems with colours or bounds: 1..=5 primary items, 0..=3
/// secondary, up to 12 options of 1..=4 items; with `bounded`, bounds
/// like 0:2, 2, 1:3 on the primary items; with `coloured`, colours on some
/// secondary uses.
pub fn bounded_coloured_specs(bounded: bool, coloured: bool) -> impl Strategy<Value = Spec> {
    (1usize..=5, 0usize..=3).prop_flat_map(move |(primary, secondary)| {
        let items = primary + secondary;
        let bound = if bounded {
            prop_oneof![
                Just((1u32, 1u32)),
                Just((0, 1)),
                Just((0, 2)),
                Just((2, 2)),
                Just((1, 3)),
                (0u32..=2, 1u32..=3).prop_map(|(a, b)| (a.min(b), b)),
            ]
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
