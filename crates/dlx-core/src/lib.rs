//! # dlx-core: exact cover with Dancing Links
//!
//! This crate owns the search engine and nothing else: it knows items,
//! options and links, and no puzzle, file format or output. Models (sudoku,
//! queens, ...) live in `cover-models`; reading files and printing live in
//! `cover-cli`.
//!
//! ## Main types
//! - [`Problem`] (built with [`ProblemBuilder`]): primary items, covered
//!   exactly once; secondary items, covered at most once; options, lists of
//!   items. Immutable and shareable between threads.
//! - [`Solver`]: the dancing links for one problem, owned by one thread. It
//!   finds the first solution, counts, streams solutions to a [`Visitor`] or
//!   through an iterator, with [`Limits`] (solutions, node budget, a cancel
//!   flag), and reports [`Stats`] with Knuth's meaning of nodes and updates.
//!   Every search leaves the links as it found them, so one solver serves
//!   many searches, each with its own given options.
//! - [`count_parallel`] and [`search_parallel`]: one search split into
//!   independent subproblems by the choices of its first levels, run on all
//!   of rayon's threads; counters add up to the serial search's.
//! - [`CompactSolver`]: a second engine over bit masks, several times
//!   faster for problems whose items have at most 64 options (sudoku);
//!   [`first_compact_parallel`] and [`count_compact_parallel`] split one of
//!   its searches across cores, with the serial search's answer.
//!
//! ## Example
//! ```
//! use dlx_core::{Problem, Search, Solver};
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
//! ## Architecture invariants
//! - The engine never prints and never reads files.
//! - Links are restored after every search, however it ended.
//! - The search is iterative: depth is limited by memory, not the stack.
#![deny(missing_docs)]

mod compact;
mod links;
mod names;
mod problem;
mod repeat;
mod search;
mod split;

pub use compact::{CompactSolver, TooWide, Undo, MAX_COMPACT_ITEMS, MAX_ITEM_OPTIONS};
pub use problem::{Bounds, Colour, Problem, ProblemBuilder, ProblemError, MAX_NODES};
pub use repeat::{RepeatReport, RepeatSolver};
pub use search::{
    Control, Guide, Limits, Outcome, Report, Search, Solutions, Solver, Stats, UnknownOption,
    Visitor, CLOSED,
};
pub use split::{
    count_compact_parallel, count_compact_resumed, count_parallel, first_compact_parallel,
    first_compact_resumed, search_parallel, split, ShareConfig, Split, SplitConfig, SplitProgress,
};
