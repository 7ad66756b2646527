//! The random problems of cover-sat's tests, as both dlx-core's problem
//! and the brute force's (`cover_check::brute`, which shares no code with
//! the encoding).
#![allow(dead_code)]

use std::collections::BTreeSet;

use cover_check::brute;
use dlx_core::{Bounds, Colour, Problem};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// A problem as plain data: items `0..primary` are primary (with bounds),
/// the rest secondary; options are `(item, colour)` lists (colour 0: none).
#[derive(Debug, Clone)]
pub struct Spec {
    pub primary: usize,
    pub secondary: usize,
    pub bounds: Vec<(u32, u32)>,
    pub options: Vec<Vec<(usize, u32)>>,
}

impl Spec {
    pub fn build(&self) -> Problem {
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

    pub fn solutions(&self, given: &[usize]) -> BTreeSet<Vec<usize>> {
        if given.iter().collect::<BTreeSet<_>>().len() < given.len() {
            return BTreeSet::new();
        }
        brute::solutions(&self.oracle(), usize::MAX)
            .into_iter()
            .filter(|s| given.iter().all(|g| s.contains(g)))
            .collect()
    }

    /// The brute force's problem.
    pub fn oracle(&self) -> brute::Problem {
        let primary = self.bounds.iter().map(|&bounds| brute::Item {
            primary: true,
            bounds,
        });
        let secondary = (0..self.secondary).map(|_| brute::Item::SECONDARY);
        brute::Problem {
            items: primary.chain(secondary).collect(),
            options: self
                .options
                .iter()
                .map(|o| o.iter().map(|&(i, c)| (i, (c > 0).then_some(c))).collect())
                .collect(),
        }
    }
}

/// Random problems: 1..=5 primary items, 0..=3 secondary, up to 12 options
/// of 1..=4 items, with bounds and colours when asked.
pub fn specs(bounded: bool, coloured: bool) -> impl Strategy<Value = Spec> {
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

/// Every kind of problem: plain, coloured, bounded, both.
pub fn any_spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        specs(false, false),
        specs(false, true),
        specs(true, false),
        specs(true, true)
    ]
}

impl Spec {
    /// Given options picked by `picks` (none when there is no option;
    /// an option may be picked twice, which no solution can contain).
    pub fn given(&self, picks: &[usize]) -> Vec<usize> {
        if self.options.is_empty() {
            return Vec::new();
        }
        picks.iter().map(|p| p % self.options.len()).collect()
    }
}
