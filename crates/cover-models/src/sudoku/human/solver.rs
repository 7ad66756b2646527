//! The techniques in order ([`FINDERS`]), the next step ([`next_step`]) and
//! a puzzle's rating ([`rate`]) as Sudoku Explainer computes it: at each
//! step the first technique (simplest first) that finds anything, its
//! easiest finding applied, the puzzle rated by its hardest step.
//!
//! SE's rating loop (`Solver.getDifficulty`) asks its producers in a fixed
//! order (direct ones, then indirect, then chaining) through an
//! accumulator that stops at the first hint; the hint is applied and the
//! rating is the largest difficulty met. [`FINDERS`] is that order for
//! SE's default settings (`revisedRating` 0, every technique but the
//! five/six strong-link fish, VLocking and the generalised naked sets) as
//! of SukakuExplainer 1.15.10, the version that rated the public puzzle
//! bank we measure against: 1.17 turned on the 4 Strong-Linked Fishes and
//! added the UVWXYZ- and TUVWXYZ-Wing, which here teach but do not rate.
//! Each finder scans in SE's order and pushes its first finding; families
//! whose findings differ in value (unique loops, chains) push them all,
//! or their easiest, and [`next_step`] takes the easiest, the first found
//! among equals: SE sorts those families by difficulty before handing
//! them on. A direct hint (Direct Pointing, Direct Hidden Pair…) applies
//! only its placement, as in SE: the removals it reasons with stay.
//!
//! Deliberate differences from SE:
//! - Teaching-only families (finned fish, W-Wing, colouring, ALS, and
//!   SE 1.17's additions above) are skipped by [`Catalogue::Rating`], so
//!   ratings never see them.
//! - Steps are the same on every size, scanned in the same order; SE only
//!   knows 9×9.
//! - A BUG whose only extra cell was added as "the one digit's" (SE counts
//!   no extra digit for it) is no type 1: SE would remove every candidate
//!   of that cell.
//! - Variants (SE knows none): on a geometry from `Geometry::from_rules`
//!   the families that assume the classic grid are skipped (see
//!   [`Finder::classic_only`]) and the variants' own steps (non-consecutive,
//!   cage combinations, thermometers, innies and outies) take the places
//!   their values (ours, documented in `killer` and `lines`) give them.
//! - SE stops a puzzle no technique solves at 20.0 ("beyond solver");
//!   [`rate`] returns the hardest step taken and `solved: false`.

use std::collections::BTreeMap;

use crate::sudoku::logic::{Geometry, GeometryError};
use crate::sudoku::variant::Rules;

use super::board::Board;
use super::chains;
use super::difficulty::{rate_within, RateLimits};
use super::step::{Rating, Step, Technique};
use super::{
    als, colouring, exclusion, fish, intersections, killer, lines, single_digit, singles, subsets,
    uniqueness, wings,
};

/// Which techniques a solver may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Catalogue {
    /// Sudoku Explainer's default set, as its ratings assume.
    #[default]
    Rating,
    /// Every technique, those SE lacks (W-Wing, finned fish, colouring,
    /// ALS) where their value puts them: for hints that teach.
    Teaching,
}

/// A family of techniques and the function that finds its steps.
pub(super) struct Finder {
    /// Pushes the steps found on a board, in Sudoku Explainer's scanning
    /// order; [`next_step`] takes the easiest, the first among equals. A
    /// family whose steps are all worth the same stops at its first, as
    /// SE's rating loop does.
    pub(super) find: fn(&Board, &mut Vec<Step>),
    /// Whether Sudoku Explainer's default set has it.
    pub(super) in_rating: bool,
    /// Whether it holds only on the classic grid (rows, columns and square
    /// boxes, no other rule): skipped on a variant's geometry.
    pub(super) classic_only: bool,
}

const fn rated(find: fn(&Board, &mut Vec<Step>)) -> Finder {
    Finder {
        find,
        in_rating: true,
        classic_only: false,
    }
}

const fn teaching(find: fn(&Board, &mut Vec<Step>)) -> Finder {
    Finder {
        find,
        in_rating: false,
        classic_only: false,
    }
}

/// `finder` on classic grids only.
const fn classic(finder: Finder) -> Finder {
    Finder {
        classic_only: true,
        ..finder
    }
}

/// Every family, in the order they are tried: Sudoku Explainer's default
/// order (`Solver`'s producer lists), SE's values in comments; the
/// teaching-only families where their value puts them.
pub(super) const FINDERS: &[Finder] = &[
    // A variant's rule between neighbours, beside a filled cell (ours).
    rated(lines::non_consecutive_filled), // 1.0
    // Direct producers: they place a digit.
    rated(singles::hidden_singles), // Full House 1.0, Hidden Single 1.2/1.5
    classic(rated(intersections::direct_intersections)), // Direct Pointing 1.7, Claiming 1.9
    rated(subsets::direct_hidden_pairs), // 2.0
    rated(singles::naked_singles),  // 2.3
    rated(subsets::direct_hidden_triples), // 2.5
    // Killer cages (ours, SE has none: values in `killer`'s docs).
    rated(killer::cage_combinations), // 2.5
    // Neighbour rules by candidates (ours: values in `lines`' docs).
    rated(lines::thermometers),               // 2.5
    rated(lines::non_consecutive_candidates), // 2.5
    // Indirect producers: they remove candidates.
    rated(intersections::pointing_claiming), // Pointing 2.6, Claiming 2.8
    rated(killer::innies_outies),            // ours: 2.8-3.4
    rated(subsets::naked_pairs),             // 3.0
    rated(fish::x_wings),                    // 3.2
    rated(subsets::hidden_pairs),            // 3.4
    classic(teaching(fish::finned_x_wings)), // 3.4, sashimi 3.5
    rated(subsets::naked_triples),           // 3.6
    rated(fish::swordfish),                  // 3.8
    rated(subsets::hidden_triples),          // 4.0
    classic(rated(single_digit::two_strong_links)), // Turbot Fish family 4.0-4.3
    rated(wings::xy_wing),                   // 4.2
    rated(wings::xyz_wing),                  // 4.4
    classic(teaching(fish::finned_swordfish)), // 4.4, sashimi 4.5
    teaching(wings::w_wing),                 // 4.4
    classic(rated(uniqueness::unique_loops)), // 4.5 up: length, type 3's set
    rated(subsets::naked_quads),             // 5.0
    rated(fish::jellyfish),                  // 5.2
    rated(subsets::hidden_quads),            // 5.4
    classic(teaching(fish::finned_jellyfish)), // 5.4, sashimi 5.5
    classic(rated(single_digit::three_strong_links)), // 5.4-5.7
    rated(wings::wxyz_wing),                 // 5.5-5.6
    classic(rated(uniqueness::bug)),         // 5.6-6.2
    // SE turns these two on from 1.17; the public ratings (v1.15.10's
    // defaults) are without them, so they teach but do not rate.
    classic(teaching(single_digit::four_strong_links)), // 5.8-6.1
    rated(wings::vwxyz_wing),                           // 6.2-6.4
    rated(exclusion::aligned_pair_exclusion),           // 6.2
    teaching(colouring::simple_colouring),              // 6.3
    teaching(colouring::multi_colouring),               // 6.4
    teaching(als::als_xz),                              // 6.5
    teaching(als::als_xy_wing),                         // 6.6
    teaching(wings::uvwxyz_wing),                       // 6.6, SE from 1.17
    // Chaining producers (SE sorts each one's findings by difficulty).
    rated(chains::cycles_and_forcing_chains), // X/Y/XY-Cycles 6.5/7.0, forcing X/XY chains 6.6/7.0, up by length
    teaching(wings::tuvwxyz_wing),            // 7.5, SE from 1.17
    rated(exclusion::aligned_triple_exclusion), // 7.5
    rated(chains::nishio_forcing_chains),     // 7.5 up
    rated(chains::multiple_forcing_chains),   // cell, region: 8.0 up
    rated(chains::dynamic_forcing_chains),    // 8.5 up
    rated(chains::dynamic_plus_forcing_chains), // 9.0 up
    classic(rated(chains::nested_forcing_chains)), // 9.5 up, a rescue
    classic(rated(chains::nested_multiple_forcing_chains)), // 10.0 up, a rescue
    classic(rated(chains::nested_dynamic_forcing_chains)), // 10.5 up, SE's experimental rescue
];

fn finders(catalogue: Catalogue, classic_grid: bool) -> impl Iterator<Item = &'static Finder> {
    FINDERS.iter().filter(move |f| {
        (f.in_rating || catalogue == Catalogue::Teaching) && (classic_grid || !f.classic_only)
    })
}

/// The next step on `board`: the easiest finding of the first family of
/// `catalogue` that finds anything; `None` when none does.
pub fn next_step(board: &Board, catalogue: Catalogue) -> Option<Step> {
    let mut found = Vec::new();
    for finder in finders(catalogue, board.geometry().is_classic()) {
        (finder.find)(board, &mut found);
        found.retain(|s| !s.placements.is_empty() || !s.eliminations.is_empty());
        if let Some(best) = found.iter().map(|s| s.rating).min() {
            let i = found.iter().position(|s| s.rating == best)?;
            return Some(found.swap_remove(i));
        }
    }
    None
}

/// A puzzle solved by logic and rated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    /// The hardest step (Sudoku Explainer's ER); 0.0 for a full grid.
    pub rating: Rating,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The grid the steps lead to: solved when [`Rated::solved`].
    pub grid: Vec<u8>,
    /// Whether the steps fill the grid (else no technique applies).
    pub solved: bool,
}

impl Rated {
    /// The step that gave the rating (the last of the hardest).
    pub fn hardest(&self) -> Option<&Step> {
        self.steps.iter().max_by_key(|s| s.rating)
    }

    /// How many steps each technique took, in technique order.
    pub fn counts(&self) -> BTreeMap<Technique, usize> {
        let mut counts = BTreeMap::new();
        for step in &self.steps {
            *counts.entry(step.technique).or_insert(0) += 1;
        }
        counts
    }
}

/// Solves `cells` (row-major, 0 empty) by logic with `catalogue`, step
/// after step, and rates it by its hardest step. Uniqueness techniques
/// assume the puzzle has one solution; check that first.
///
/// # Panics
/// If `cells` does not have one entry per cell of `geometry`.
pub fn rate(geometry: &Geometry, cells: &[u8], catalogue: Catalogue) -> Rated {
    match rate_within(geometry, cells, catalogue, RateLimits::default()) {
        Ok(rated) => rated,
        Err(_) => unreachable!("a rating without limits never gives up"),
    }
}

/// [`rate`] on a variant: the geometry of `rules`
/// ([`Geometry::from_rules`]) and SE's set, with the variant techniques
/// (killer cages) where the rules call for them. `Err` when the rules are
/// not ones human logic reads (rows and columns must be regions), or
/// `cells` is not one entry per cell.
pub fn rate_variant(rules: &Rules, cells: &[u8]) -> Result<Rated, GeometryError> {
    let geometry = Geometry::from_rules(rules)?;
    if cells.len() != geometry.cells() {
        return Err(GeometryError::CellCount {
            expected: geometry.cells(),
            got: cells.len(),
        });
    }
    Ok(rate(&geometry, cells, Catalogue::Rating))
}

/// The units in the order SE scans them for singles and subsets: boxes
/// (and a variant's other regions), then columns, then rows.
pub(super) fn units_boxes_columns_rows(geometry: &Geometry) -> impl Iterator<Item = usize> {
    let side = geometry.side();
    (2 * side..geometry.units())
        .chain(side..2 * side)
        .chain(0..side)
}

/// The set bits of `mask` (their indices), lowest first.
pub(super) fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            bit
        })
    })
}

/// The subsets of `size` bits of `set`, as masks in increasing order (SE's
/// order of combinations); one empty subset for `size` 0.
pub(super) fn subsets(set: u64, size: usize) -> impl Iterator<Item = u64> {
    let n = set.count_ones() as usize;
    // Gosper's hack over the `n` bits of `set` packed low, spread back on
    // `set` by [`deposit`]: packing keeps the order.
    let mut next = (size <= n).then(|| {
        if size == 0 {
            0
        } else {
            u64::MAX >> (64 - size)
        }
    });
    std::iter::from_fn(move || {
        let packed = next?;
        next = if packed == 0 {
            None
        } else {
            let low = packed & packed.wrapping_neg();
            let ripple = packed.wrapping_add(low);
            let grown = ripple | (((packed ^ ripple) >> 2) / low);
            (ripple != 0 && grown.checked_shr(n as u32).unwrap_or(0) == 0).then_some(grown)
        };
        Some(deposit(packed, set))
    })
}

/// Spreads the low bits of `packed` onto the set bits of `set`, in order.
fn deposit(packed: u64, set: u64) -> u64 {
    let mut out = 0;
    for (i, bit) in bits(set).enumerate() {
        if packed >> i & 1 == 1 {
            out |= 1 << bit;
        }
    }
    out
}
