//! # cover-models: puzzles and formats as exact-cover problems
//!
//! This crate turns inputs into [`dlx_core::Problem`]s and solutions back into
//! answers. It owns parsers and puzzle models; it never prints, never picks an
//! exit code and never touches the links (that is `dlx-core`'s job).
#![deny(missing_docs)]

pub mod exact;
pub mod generate;
pub mod queens;
pub mod radar;
pub mod sudoku;
pub mod target;
pub mod text;
