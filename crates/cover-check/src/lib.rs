//! Checkers that trust neither the engine nor the parsers of `cover`.
//!
//! This crate owns everything that judges an answer: readers of the input
//! formats written again from the formats' descriptions, checkers of each
//! kind of answer, brute forces used as oracles on small inputs, the
//! readers of the fixtures' manifests, and the runner of the `cover`
//! binary. `xtask verify` and the tests of every crate use it.
//!
//! It must not know the solver: it depends on no crate of the workspace,
//! so a bug shared by a checker and the code it checks cannot come from
//! shared code.
#![forbid(unsafe_code)]
pub mod brute;
