//! Checkers that trust neither the engine nor the parsers of `cover`.
//!
//! This crate owns everything that judges an answer: readers of the input
//! formats written again from the formats' descriptions, checkers of each
//! kind of answer (and of logical paths through a sudoku), brute forces
//! used as oracles on small inputs, the readers of the fixtures'
//! manifests, and the runner of the `cover` binary. `xtask verify` and
//! the tests of every crate use it.
//!
//! It must not know the solver: it depends on no crate of the workspace,
//! so a bug shared by a checker and the code it checks cannot come from
//! shared code.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod brute;
pub mod exact;
pub mod manifest;
pub mod path;
pub mod process;
pub mod queens;
pub mod radar;
pub mod sudoku;
pub mod target;
pub mod variant;

/// `text` quoted for a message, cut short when long.
pub fn snippet(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// The JSON array `value` as numbers, or what is wrong with it (`what`
/// names its elements in the message).
pub fn json_numbers(value: &serde_json::Value, what: &str) -> Result<Vec<usize>, String> {
    value
        .as_array()
        .ok_or(format!("no list of {what}s"))?
        .iter()
        .map(|v| v.as_u64().map(|v| v as usize))
        .collect::<Option<_>>()
        .ok_or(format!("a {what} is not a number"))
}

/// The solutions found by a count that gave up, read from its line
/// `gave up after N solutions` (`solution` for one); `None` for any other
/// line.
pub fn gave_up_count(line: &str) -> Option<u64> {
    let rest = line.strip_prefix("gave up after ")?;
    let (n, word) = rest.split_once(' ')?;
    let n: u64 = n.parse().ok()?;
    let want = if n == 1 { "solution" } else { "solutions" };
    (word == want).then_some(n)
}

/// The line numbers that `cover: FILE:LINE: message` errors name.
pub fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("cover: "))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gave_up_counts_are_read_only_from_their_line() {
        assert_eq!(gave_up_count("gave up after 3 solutions"), Some(3));
        assert_eq!(gave_up_count("gave up after 1 solution"), Some(1));
        assert_eq!(gave_up_count("gave up after 0 solutions"), Some(0));
        for line in [
            "gave up",
            "gave up after 1 solutions",
            "gave up after 2 solution",
            "gave up after x solutions",
            "gave up after 3 solutions!",
            "3",
        ] {
            assert_eq!(gave_up_count(line), None, "{line}");
        }
    }
}
