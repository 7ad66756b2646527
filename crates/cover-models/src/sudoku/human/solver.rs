//! The techniques in order ([`FINDERS`]), the next step ([`next_step`]) and
//! a puzzle's rating ([`rate`]) as Sudoku Explainer computes it: at each
//! step the first technique (simplest first) that finds anything, its
//! easiest finding applied, the puzzle rated by its hardest step.

use std::collections::BTreeMap;

use crate::sudoku::logic::Geometry;

use super::board::Board;
use super::step::{Rating, Step, Technique};
use super::{als, colouring, single_digit, wings};

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
    /// Pushes the steps found on a board. A family whose steps are all
    /// worth the same may stop at its first.
    pub(super) find: fn(&Board, &mut Vec<Step>),
    /// Whether Sudoku Explainer's default set has it.
    pub(super) in_rating: bool,
}

/// Every family, in the order they are tried.
pub(super) const FINDERS: &[Finder] = &[
    // Sudoku Explainer's order: ... Swordfish, Hidden Triple, then:
    Finder {
        find: single_digit::two_strong_links,
        in_rating: true,
    },
    Finder {
        find: wings::xy_wing,
        in_rating: true,
    },
    Finder {
        find: wings::xyz_wing,
        in_rating: true,
    },
    Finder {
        find: wings::w_wing,
        in_rating: false,
    },
    // ... Unique Loop, Naked Quad, Jellyfish, Hidden Quad, then:
    Finder {
        find: single_digit::three_strong_links,
        in_rating: true,
    },
    Finder {
        find: wings::wxyz_wing,
        in_rating: true,
    },
    // ... BUG, then:
    Finder {
        find: single_digit::four_strong_links,
        in_rating: true,
    },
    Finder {
        find: wings::vwxyz_wing,
        in_rating: true,
    },
    // ... Aligned Pair Exclusion, then:
    Finder {
        find: colouring::simple_colouring,
        in_rating: false,
    },
    Finder {
        find: colouring::multi_colouring,
        in_rating: false,
    },
    Finder {
        find: als::als_xz,
        in_rating: false,
    },
    Finder {
        find: als::als_xy_wing,
        in_rating: false,
    },
    Finder {
        find: wings::uvwxyz_wing,
        in_rating: true,
    },
    // ... the chaining producers: cycles, then:
    Finder {
        find: wings::tuvwxyz_wing,
        in_rating: true,
    },
    // ... Aligned Triple Exclusion, forcing chains.
];

fn finders(catalogue: Catalogue) -> impl Iterator<Item = &'static Finder> {
    FINDERS
        .iter()
        .filter(move |f| f.in_rating || catalogue == Catalogue::Teaching)
}

/// The next step on `board`: the easiest finding of the first family of
/// `catalogue` that finds anything; `None` when none does.
pub fn next_step(board: &Board, catalogue: Catalogue) -> Option<Step> {
    let mut found = Vec::new();
    for finder in finders(catalogue) {
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
    let mut board = Board::new(geometry, cells);
    let mut steps = Vec::new();
    let mut rating = Rating(0);
    while !board.is_solved() && !board.is_broken() {
        let Some(step) = next_step(&board, catalogue) else {
            break;
        };
        rating = rating.max(step.rating);
        board.apply(&step);
        steps.push(step);
    }
    Rated {
        rating,
        steps,
        solved: board.is_solved(),
        grid: board.values().to_vec(),
    }
}
