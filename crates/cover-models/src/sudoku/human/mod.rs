//! Human logic: a puzzle solved as a person would, one technique at a
//! time, simplest first, each [`Step`] rated on Sudoku Explainer's scale.
//!
//! This module owns the techniques (each written once, used by the
//! rater, the hints and `--explain` alike), their order and values, and
//! the words for a step. It must not know about search engines, the CLI
//! or the game: they call [`next_step`], [`rate`] and [`Step::text`].
//!
//! - [`Board`] (`board`): values and candidate masks of one grid, and the
//!   unit/peer queries every technique asks.
//! - [`Step`], [`Technique`], [`Rating`] (`step`): what a technique found,
//!   as data (pattern to highlight, placements, eliminations, chains) and
//!   as text at three [`HintLevel`]s.
//! - `solver`: the techniques in order ([`Catalogue`]), [`next_step`] and
//!   [`rate`].
//! - One file per family of techniques: `singles`, `intersections`,
//!   `subsets`, `fish`, `wings`, `single_digit`, `uniqueness`,
//!   `exclusion`, `colouring`, `als`, `chains`; on variants `killer`
//!   (cage sums and the rule of 45) and `lines` (non-consecutive,
//!   thermometers), valued by us: SE has no variants.
//!
//! Variants: a [`Geometry`](crate::sudoku::logic::Geometry) built by
//! `Geometry::from_rules` carries any regions and the pair rules in its
//! units and peers, and every technique that only asks for units and peers
//! runs on it unchanged (singles, locked candidates between any two
//! crossing units, subsets, fish on rows and columns, wings, colouring,
//! ALS, aligned exclusion). Those that rely on the classic shape (direct
//! intersections, the strong-link fish with their box links, finned fish,
//! uniqueness, BUG, and the nested forcing chains, a slow rescue) are
//! skipped there; the other chains run where boxes or jigsaw pieces tile
//! the grid, linking along rows, columns and those (weak links through
//! every peer; the (+) rules over every unit).
//! [`rate_variant`] rates a puzzle from its rules.
//!
//! Ratings follow Sudoku Explainer (Juillerat; SukakuExplainer's default
//! technique set): a step's value is its technique's, a puzzle's rating
//! the hardest step of the simplest-first path. Techniques SE lacks (W-Wing,
//! finned fish, colouring, ALS) teach in hints but stay off the rating
//! path ([`Catalogue::Rating`]).

mod als;
mod board;
mod chains;
mod colouring;
mod difficulty;
mod exclusion;
mod fish;
mod intersections;
mod killer;
mod lines;
mod single_digit;
mod singles;
mod solver;
mod step;
mod subsets;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
mod uniqueness;
mod wings;

pub use board::Board;
pub use difficulty::{
    rate_within, BadRatingRange, Difficulty, GaveUp, RateLimits, RatingRange, UnknownDifficulty,
};
pub use solver::{next_step, rate, rate_variant, Catalogue, Rated};
pub use step::{Candidate, HintLevel, Node, Pattern, Rating, Step, Technique};
