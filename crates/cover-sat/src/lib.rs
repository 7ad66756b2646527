//! Exact cover as CNF: a dlx-core [`Problem`](dlx_core::Problem) (primary and secondary
//! items, colours, multiplicities) and its given options, encoded as
//! clauses that a CDCL SAT solver can learn from ([`encode`]), written in
//! DIMACS for anyone's solver ([`Encoding::write_dimacs`]), and a model
//! mapped back to options ([`Encoding::solution`]).
//!
//! With the feature `cadical`, `search` (or `solve`, for an encoding
//! built apart, such as one of [`encode_pruned`]) solves it with CaDiCaL
//! (1.9.5, MIT, built from source by the `cadical` crate: a C++ compiler
//! is needed), chosen by measurement against Kissat and CaDiCaL's other
//! configurations.
//!
//! This crate owns the encoding and the solver's use. It must not know any
//! puzzle.
//!
//! # Encoding
//! - One variable per option left once the givens are applied (numbered
//!   from 1 in option order). The givens themselves get none: they are in
//!   every model's solution, their items are covered (or, for a secondary
//!   item, coloured), and every option that clashes with them is left out
//!   before encoding, so the solver's simplification sees the residual
//!   problem (far faster than the givens as assumptions, which hide them
//!   from it).
//! - A primary item covered exactly once: at least one of its options (a
//!   clause) and at most one ([`Amo`]). With bounds `lower..=upper` (what
//!   the givens leave of them): a totalizer counts its options in unary,
//!   its `lower`-th output is set and its `upper + 1`-th cleared.
//! - A secondary item: at most one of its options; with colours, a
//!   variable per colour that its options of that colour imply, and at
//!   most one of those colours and of its options without a colour.
//! - Auxiliary variables (counters, colours) follow the options'.
//!
//! # Example
//! ```
//! use cover_sat::{encode, Amo};
//! use dlx_core::Problem;
//!
//! // Items a, b; options {a}, {b}, {a, b}.
//! let mut builder = Problem::builder(2, 0);
//! builder.add_option([0]).unwrap();
//! builder.add_option([1]).unwrap();
//! builder.add_option([0, 1]).unwrap();
//! let problem = builder.build();
//! let encoding = encode(&problem, &[], Amo::Auto).unwrap();
//! assert_eq!(encoding.variables(), 3);
//! // A model with options 0 and 1 true is the solution {0, 1}.
//! assert_eq!(encoding.solution(|v| v <= 2), vec![0, 1]);
//! let mut dimacs = Vec::new();
//! encoding.write_dimacs(&problem, &mut dimacs).unwrap();
//! assert!(String::from_utf8(dimacs).unwrap().contains("p cnf 3 "));
//! ```

mod encode;
#[cfg(feature = "cadical")]
mod solve;

pub use encode::{encode, encode_pruned, Amo, Encoding, GivenError};
#[cfg(feature = "cadical")]
pub use solve::{search, solve, SatReport, SatStats};
