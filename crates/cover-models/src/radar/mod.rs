//! The radar problem (HDU 2295): the smallest radius R with which at most K
//! of M stations cover all N cities, exactly.
//!
//! - `parse`: the input ([`Cases`], [`ParseError`]) and the radius as
//!   printed ([`format_radius`]: the square root correctly rounded to 6
//!   decimals, by integer arithmetic);
//! - `model`: one probe's question as a repeat cover ([`decide`]: do at
//!   most K stations cover every city within R?);
//! - `search`: the search over the candidate radii, exact squared
//!   distances, in rounds of [`Probe`]s ([`solve`]).
//!
//! This module knows no file, thread or output: `cover radar` reads the
//! files, runs each round's probes on its threads and prints the answers.

mod model;
mod parse;
mod search;

pub use model::{decide, squared_radius_of, Verdict};
pub use parse::{
    format_radius, Cases, InputError, ParseError, ParseErrorKind, Point, RadarCase, MAX_COORDINATE,
    MAX_PAIRS,
};
pub use search::{solve, solve_serial, solve_within, NoAnswer, Probe, ProbeResult, RadarAnswer};
