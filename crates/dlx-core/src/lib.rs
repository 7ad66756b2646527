//! # dlx-core: exact cover with Dancing Links
//!
//! This crate owns the search engine and nothing else: it knows items,
//! options and links, and no puzzle, file format or output. Models (sudoku,
//! queens, ...) live in `cover-models`; reading files and printing live in
//! `cover-cli`.
//!
//! ## Main types
//! - [`Problem`] (built with [`ProblemBuilder`]): primary items, covered
//!   exactly once (or within their [`Bounds`]: multiplicities, MCC);
//!   secondary items, covered at most once (or by options that all give
//!   them the same [`Colour`]: XCC); options, lists of items, each with a
//!   primary item. Immutable and shareable between threads.
//! - [`Solver`]: the dancing links for one problem, owned by one thread. It
//!   finds the first solution, counts, streams solutions to a [`Visitor`] or
//!   through an iterator, with [`Limits`] (solutions, node budget, a cancel
//!   flag, a deadline), and reports [`Stats`] with Knuth's meaning of nodes and updates.
//!   Every search leaves the links as it found them, so one solver serves
//!   many searches, each with its own given options. Exact cover runs
//!   Knuth's DLX1, colours DLX2 (with DLX2's nodes and updates), bounds
//!   Knuth's Algorithm M (DLX3).
//! - [`count_parallel`] and [`search_parallel`]: one search split into
//!   independent subproblems by the choices of its first levels, run on all
//!   of rayon's threads; counters add up to the serial search's.
//! - [`plan`], [`run_shard`], [`run_top`]: one search cut into shards as
//!   data (prefixes of choices, sized by Knuth's random-probe estimates),
//!   to be run on other machines; the shards and the plan's top add up to
//!   the serial search's counters. [`digest`] names the problem a plan
//!   belongs to. (The shard file formats are the binary's.)
//! - [`Propagator`]: a model's reasoning, attached to either engine
//!   ([`Solver::set_propagator`], [`CompactSolver::set_propagator`]) and
//!   run where the search would branch: it reads the live options through
//!   a [`Domain`], removes those no solution below can use or declares the
//!   node [`Verdict::Dead`], and may choose the item to branch on; the
//!   engine undoes its removals on backtrack and counts them apart
//!   ([`Stats::propagated`]). Without one, the search is exactly the plain
//!   one.
//! - [`CompactSolver`]: a second engine over bit masks, several times
//!   faster for problems whose items have at most 64 options (sudoku);
//!   [`first_compact_parallel`] and [`count_compact_parallel`] split one of
//!   its searches across cores, with the serial search's answer.
//!
//! ## Example
//! ```
//! use dlx_core::{Problem, Solver};
//!
//! // Items 0..4 are primary; item 4 is secondary.
//! let mut builder = Problem::builder(4, 1);
//! builder.add_option([0, 1]).unwrap(); // option 0
//! builder.add_option([2, 3, 4]).unwrap(); // option 1
//! builder.add_option([0, 2]).unwrap(); // option 2
//! builder.add_option([1, 3]).unwrap(); // option 3
//! let problem = builder.build();
//!
//! let mut solver = Solver::new(&problem);
//! assert_eq!(solver.count(), 2);
//! assert_eq!(solver.first(), Some(vec![0, 1]));
//! // Force option 2 first, then search the rest.
//! assert_eq!(solver.first_with(&[2]).unwrap(), Some(vec![2, 3]));
//! ```
//!
//! ## Colours and multiplicities
//! ```
//! use dlx_core::{Bounds, Problem, ProblemError, Solver};
//!
//! // Two primary items and a secondary cell that options may share when
//! // they give it the same colour (Knuth's DLX2).
//! let mut builder = Problem::named(["a", "b"], ["cell"]).unwrap();
//! builder.add_named_coloured_option([("a", None), ("cell", Some("red"))]).unwrap();
//! builder.add_named_coloured_option([("b", None), ("cell", Some("red"))]).unwrap();
//! builder.add_named_coloured_option([("b", None), ("cell", Some("blue"))]).unwrap();
//! let problem = builder.build();
//! // {a cell:red, b cell:red}: red agrees with red; blue would not.
//! assert_eq!(Solver::new(&problem).count(), 1);
//!
//! // Item `pair` must be covered exactly twice, `spare` at most once
//! // (Knuth's `2|pair 0:1|spare`).
//! let mut builder = Problem::named(["pair", "spare"], Vec::<String>::new()).unwrap();
//! builder.set_named_bounds("pair", Bounds { lower: 2, upper: 2 }).unwrap();
//! builder.set_named_bounds("spare", Bounds { lower: 0, upper: 1 }).unwrap();
//! builder.add_named_option(["pair"]).unwrap();
//! builder.add_named_option(["pair", "spare"]).unwrap();
//! builder.add_named_option(["pair"]).unwrap();
//! let problem = builder.build();
//! // Any two of the three options.
//! assert_eq!(Solver::new(&problem).count(), 3);
//!
//! // What the builder refuses, each with its own error.
//! let mut builder = Problem::named(["a"], ["x"]).unwrap();
//! assert!(matches!(
//!     builder.add_named_coloured_option([("a", Some("red"))]),
//!     Err(ProblemError::ColourOnPrimary { .. })
//! ));
//! assert!(matches!(
//!     builder.set_named_bounds("a", Bounds { lower: 3, upper: 2 }),
//!     Err(ProblemError::BadBounds { lower: 3, upper: 2, .. })
//! ));
//! assert!(matches!(
//!     builder.set_named_bounds("x", Bounds { lower: 0, upper: 2 }),
//!     Err(ProblemError::BoundsOnSecondary { .. })
//! ));
//! assert_eq!(
//!     builder.add_named_option(["x"]),
//!     Err(ProblemError::NoPrimaryItem { option: 0 })
//! );
//! ```
//!
//! A built [`Problem`] takes more options, colours and bounds through
//! [`Problem::into_builder`]. [`Limits`] and the configurations of the
//! split and shard searches are made from their defaults by `with_`
//! methods; the structs and enums that may grow in later versions are
//! `#[non_exhaustive]`. [`prelude`] holds the names most searches use.
//!
//! ## Features
//! - `parallel` (default): the split searches ([`count_parallel`] and the
//!   rest), on rayon's threads.
//! - `shard` (default, implies `parallel`): [`plan`], [`run_shard`] and
//!   the rest, with SHA-256 digests and seeded random probes.
//!
//! Without them (`default-features = false`) the crate depends on
//! `thiserror` and `hashbrown` only.
//!
//! ## Build it optimised
//! The search is over an order of magnitude slower unoptimised. In a
//! debug build, optimise this crate alone with
//! `[profile.dev.package.dlx-core] opt-level = 3` in your `Cargo.toml`.
//!
//! ## Architecture invariants
//! - The engine never prints and never reads files.
//! - Links are restored after every search, however it ended (a
//!   propagator's removals included).
//! - The search is iterative: depth is limited by memory, not the stack.
#![deny(missing_docs)]
// The crate docs name the split and shard searches, absent without their
// features.
#![cfg_attr(
    not(all(feature = "parallel", feature = "shard")),
    allow(rustdoc::broken_intra_doc_links)
)]
// Unsafe code in two modules only, each block with its SAFETY comment: the
// measured hot loops of the links and of the compact engine.
#![deny(unsafe_code)]

#[allow(unsafe_code)]
mod compact;
mod engine;
#[allow(unsafe_code)]
mod links;
mod names;
mod problem;
mod propagate;
mod repeat;
mod search;
#[cfg(feature = "shard")]
mod shard;
#[cfg(feature = "parallel")]
mod split;

/// The names most searches use, for a glob import:
/// `use dlx_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Control, Limits, Outcome, Problem, ProblemBuilder, Report, Search, Solver, Stats, Visitor,
    };
}

pub use compact::{CompactSolver, TooWide, Undo, MAX_COMPACT_ITEMS, MAX_ITEM_OPTIONS};
pub use engine::{
    Control, Deadline, Guide, Limits, Outcome, Report, Search, Stats, UnknownOption, Visitor,
};
pub use problem::{Bounds, Colour, Problem, ProblemBuilder, ProblemError, MAX_NODES};
pub use propagate::{Domain, Propagator, Verdict};
pub use repeat::{RepeatReport, RepeatSolver};
pub use search::{PropagationUnsupported, Solutions, Solver, CLOSED};
#[cfg(feature = "shard")]
pub use shard::{
    digest, plan, result_check, run_shard, run_shard_within, run_top, shard_check, Shard,
    ShardConfig, ShardError, ShardPlan,
};
#[cfg(feature = "parallel")]
pub use split::{
    count_compact_parallel, count_compact_resumed, count_parallel, count_parallel_with,
    first_compact_parallel, first_compact_resumed, search_parallel, search_parallel_with, split,
    split_with, ShareConfig, Split, SplitConfig, SplitProgress,
};
