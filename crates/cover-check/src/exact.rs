//! Exact cover with colours and bounds, read and checked from the formats'
//! descriptions: Knuth's format (DLX1, DLX2's `item:colour`, DLX3's
//! `min:max|item`) and 0/1 matrices, the checker of a set of chosen
//! options, and the checkers of `cover exact`'s text answers.
//!
//! An answer names a Knuth-format option by its items and their colours, in
//! any order; an option is known by those, not by its place, so a problem
//! with two equal options cannot be checked (no fixture has any).
//!
//! It must not know `cover-models`' parsers: a parser bug shared by the
//! solver and the checker would pass unnoticed.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::brute;
use crate::snippet;

/// How a problem was written, and so how its answers name options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Knuth's format: an option is named by its items.
    Knuth,
    /// A 0/1 matrix: an option is its 1-based row number.
    Matrix,
}

/// How often a primary item must be covered: at least `min`, at most
/// `max` times. Knuth's DLX3 writes `min:max|name`, or `max|name` when
/// the two are equal; an item without bounds is covered exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The fewest times the item may be covered.
    pub min: u32,
    /// The most times the item may be covered (at least 1).
    pub max: u32,
}

impl Bounds {
    /// Exactly once: every primary item of DLX1 and DLX2, every matrix column.
    pub const ONCE: Bounds = Bounds { min: 1, max: 1 };

    fn contains(self, count: u32) -> bool {
        (self.min..=self.max).contains(&count)
    }
}

impl std::fmt::Display for Bounds {
    /// As messages say it: `2`, or `0 to 2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.max)
        } else {
            write!(f, "{} to {}", self.min, self.max)
        }
    }
}

/// An exact-cover problem as the checkers see it: exact cover (DLX1),
/// with colours on secondary items (XCC, DLX2) and with bounds on primary
/// items (MCC, DLX3).
#[derive(Debug, Clone)]
pub struct Cover {
    /// How the problem was written.
    pub kind: Kind,
    /// The line where the problem starts (item line or matrix header).
    pub line: usize,
    /// Item names; for matrices, the column numbers from 1.
    pub items: Vec<String>,
    /// `items[..primary]` are primary, the rest secondary.
    pub primary: usize,
    /// The bounds of each primary item, `bounds[i]` for `items[i]`.
    pub bounds: Vec<Bounds>,
    /// Each option's items, by index into `items`, in the order the input
    /// gives them. Matrix rows of zeros are kept (as empty options) so
    /// that row numbers stay indices.
    pub options: Vec<Vec<usize>>,
    /// Each option's colours, entry for entry with `options`: `Some(c)`
    /// when the option gives that (secondary) item the colour
    /// `colour_names[c]`, `None` when it gives none.
    pub colours: Vec<Vec<Option<usize>>>,
    /// The colours' names, in the order they first appear.
    pub colour_names: Vec<String>,
    /// Knuth's format: an option's sorted (item, colour) pairs to its
    /// first index. An option is known by its items and their colours,
    /// not by its place, so two equal options cannot be told apart (the
    /// fixtures have none; a test holds them to it).
    by_items: HashMap<Vec<(usize, Option<usize>)>, usize>,
}

impl Cover {
    fn new(kind: Kind, line: usize, items: Vec<String>, bounds: Vec<Bounds>) -> Cover {
        Cover {
            kind,
            line,
            items,
            primary: bounds.len(),
            bounds,
            options: Vec::new(),
            colours: Vec::new(),
            colour_names: Vec::new(),
            by_items: HashMap::new(),
        }
    }

    fn push_option(&mut self, items: Vec<usize>, colours: Vec<Option<usize>>) {
        let mut key: Vec<(usize, Option<usize>)> =
            items.iter().copied().zip(colours.iter().copied()).collect();
        key.sort_unstable();
        self.by_items.entry(key).or_insert(self.options.len());
        self.options.push(items);
        self.colours.push(colours);
    }

    /// Whether some primary item has bounds other than "exactly once".
    pub fn has_bounds(&self) -> bool {
        self.bounds.iter().any(|&b| b != Bounds::ONCE)
    }

    /// Whether some option gives some item a colour.
    pub fn has_colours(&self) -> bool {
        !self.colour_names.is_empty()
    }

    /// Whether `option` names a primary item. Options that do not are
    /// ignored, as Knuth's programs ignore them: never part of a solution.
    pub fn has_primary(&self, option: usize) -> bool {
        self.options[option].iter().any(|&i| i < self.primary)
    }

    /// Whether no single option can be a whole solution (each leaves some
    /// primary item short of its lower bound), so that every search must
    /// go at least two levels deep to find one.
    pub fn needs_two_options(&self) -> bool {
        (0..self.options.len()).all(|option| {
            (0..self.primary).any(|item| {
                let covered = u32::from(self.options[option].contains(&item));
                self.bounds[item].min > covered
            })
        })
    }

    /// The option a Knuth-format answer names by its items, each `name`
    /// or `name:colour`, in any order.
    pub fn option_named(&self, text: &str) -> Result<usize, String> {
        let mut key = Vec::new();
        for token in text.split_whitespace() {
            let (name, colour) = match token.split_once(':') {
                Some((name, colour)) => (name, Some(colour)),
                None => (token, None),
            };
            let Some(item) = self.items.iter().position(|item| item == name) else {
                return Err(format!("`{text}` names the unknown item {name:?}"));
            };
            let colour = match colour {
                None => None,
                Some(colour) => match self.colour_names.iter().position(|c| c == colour) {
                    Some(c) => Some(c),
                    None => return Err(format!("`{text}` names the unknown colour {colour:?}")),
                },
            };
            key.push((item, colour));
        }
        key.sort_unstable();
        self.by_items
            .get(&key)
            .copied()
            .ok_or_else(|| format!("`{text}` is not an option of the problem"))
    }

    /// The option a matrix answer names by its 1-based row number.
    pub fn option_at_row(&self, row: u64) -> Result<usize, String> {
        match usize::try_from(row) {
            Ok(row) if (1..=self.options.len()).contains(&row) => Ok(row - 1),
            _ => Err(format!(
                "row {row} is not a row of the matrix (1..={})",
                self.options.len()
            )),
        }
    }

    /// An item as messages name it.
    pub fn describe_item(&self, item: usize) -> String {
        match (self.kind, item < self.primary) {
            (Kind::Matrix, _) => format!("column {}", self.items[item]),
            (Kind::Knuth, true) => format!("primary item {}", self.items[item]),
            (Kind::Knuth, false) => format!("secondary item {}", self.items[item]),
        }
    }

    /// The `"format"` a JSON answer gives for this problem.
    pub fn format_name(&self) -> &'static str {
        match self.kind {
            Kind::Knuth => "knuth",
            Kind::Matrix => "matrix",
        }
    }

    /// A Knuth-format option as the input writes it: its items in input
    /// order, separated by one space, a coloured one as `name:colour`.
    pub fn option_text(&self, option: usize) -> String {
        let mut text = String::new();
        for (k, (&item, colour)) in self.options[option]
            .iter()
            .zip(&self.colours[option])
            .enumerate()
        {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(&self.items[item]);
            if let Some(c) = colour {
                text.push(':');
                text.push_str(&self.colour_names[*c]);
            }
        }
        text
    }

    /// An option as an answer names it, for messages.
    pub fn describe(&self, option: usize) -> String {
        match self.kind {
            Kind::Matrix => format!("row {}", option + 1),
            Kind::Knuth => format!("option `{}`", self.option_text(option)),
        }
    }

    /// The options of one answer as JSON gives them: option strings for
    /// Knuth's format, row numbers for matrices.
    pub fn options_from_json(&self, solution: &Value) -> Result<Vec<usize>, String> {
        let Some(list) = solution.as_array() else {
            return Err(format!("a solution is not a list: {solution}"));
        };
        list.iter()
            .map(|entry| match (self.kind, entry) {
                (Kind::Knuth, Value::String(text)) => self.option_named(text),
                (Kind::Matrix, Value::Number(n)) => match n.as_u64() {
                    Some(row) => self.option_at_row(row),
                    None => Err(format!("{n} is not a row number")),
                },
                (Kind::Knuth, _) => Err(format!("expected an option as a string, found {entry}")),
                (Kind::Matrix, _) => Err(format!("expected a row number, found {entry}")),
            })
            .collect()
    }
}

/// Lines of `text` numbered from 1, without a byte-order mark or `\r`.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .map(|(i, line)| (i + 1, line))
}

/// Reads Knuth's format (DLX1, with DLX2's colours and DLX3's bounds):
/// the item line (primary items, optionally a token `|` and secondary
/// ones; a primary item may be written `min:max|name` or `max|name`),
/// then one option per line, its items `name` or, for secondary ones,
/// `name:colour`. Blank lines and lines that start with `|` are skipped.
pub fn read_knuth(text: &str) -> Result<Cover, String> {
    let mut lines = numbered_lines(text).filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('|')
    });
    let (line, item_line) = lines.next().ok_or("no item line")?;
    let mut names: Vec<String> = Vec::new();
    let mut bounds: Vec<Bounds> = Vec::new();
    let mut in_secondary = false;
    for token in item_line.split_whitespace() {
        if token == "|" {
            if in_secondary {
                return Err(format!("line {line}: more than one `|`"));
            }
            in_secondary = true;
            continue;
        }
        let (bound, name) = match token.split_once('|') {
            Some((bound, name)) => (Some(bound), name),
            None => (None, token),
        };
        if name.is_empty() || name.contains([':', '|']) {
            return Err(format!("line {line}: {token:?} is not an item name"));
        }
        match (bound, in_secondary) {
            (Some(_), true) => {
                return Err(format!(
                    "line {line}: the secondary item {name:?} has bounds"
                ))
            }
            (Some(bound), false) => {
                let bound = parse_bounds(bound)
                    .ok_or_else(|| format!("line {line}: bad bounds in {token:?}"))?;
                bounds.push(bound);
            }
            (None, false) => bounds.push(Bounds::ONCE),
            (None, true) => {}
        }
        names.push(name.to_owned());
    }
    let mut index = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        if index.insert(name.as_str(), i).is_some() {
            return Err(format!("line {line}: item {name:?} named twice"));
        }
    }
    let mut cover = Cover::new(Kind::Knuth, line, names.clone(), bounds);
    let mut colour_index: HashMap<String, usize> = HashMap::new();
    for (number, text) in lines {
        let mut option = Vec::new();
        let mut colours = Vec::new();
        for token in text.split_whitespace() {
            let (name, colour) = match token.split_once(':') {
                Some((name, colour)) => (name, Some(colour)),
                None => (token, None),
            };
            let &item = index
                .get(name)
                .ok_or_else(|| format!("line {number}: unknown item {name:?}"))?;
            if option.contains(&item) {
                return Err(format!("line {number}: item {name:?} twice in an option"));
            }
            let colour = match colour {
                None => None,
                Some("") => return Err(format!("line {number}: {token:?} has an empty colour")),
                Some(_) if item < cover.primary => {
                    return Err(format!(
                        "line {number}: the primary item {name:?} has a colour"
                    ))
                }
                Some(colour) => {
                    let next = colour_index.len();
                    let c = *colour_index.entry(colour.to_owned()).or_insert(next);
                    if c == next {
                        cover.colour_names.push(colour.to_owned());
                    }
                    Some(c)
                }
            };
            option.push(item);
            colours.push(colour);
        }
        cover.push_option(option, colours);
    }
    Ok(cover)
}

/// DLX3's bounds before a primary item's `|`: `max` or `min:max`, with
/// `min <= max` and `max >= 1`.
fn parse_bounds(text: &str) -> Option<Bounds> {
    let (min, max) = match text.split_once(':') {
        Some((min, max)) => (min.parse().ok()?, max.parse().ok()?),
        None => {
            let max = text.parse().ok()?;
            (max, max)
        }
    };
    (min <= max && max >= 1).then_some(Bounds { min, max })
}

/// Reads 0/1 matrices: each a line `N M`, then N lines of M values 0 or 1;
/// blank lines and lines that start with `#` are skipped.
pub fn read_matrices(text: &str) -> Result<Vec<Cover>, String> {
    let mut lines = numbered_lines(text).filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    });
    let mut covers = Vec::new();
    while let Some((line, header)) = lines.next() {
        let numbers: Vec<usize> = header
            .split_whitespace()
            .map(|f| {
                f.parse()
                    .map_err(|_| format!("line {line}: bad header {header:?}"))
            })
            .collect::<Result<_, _>>()?;
        let [rows, columns] = numbers[..] else {
            return Err(format!(
                "line {line}: a header is two numbers, found {header:?}"
            ));
        };
        // Each column takes a value in every row: a header that promises
        // more columns than the text has bytes is a lie, not a matrix.
        if columns > text.len() {
            return Err(format!(
                "line {line}: {columns} columns, more than the input holds"
            ));
        }
        let items = (1..=columns).map(|c| c.to_string()).collect();
        let mut cover = Cover::new(Kind::Matrix, line, items, vec![Bounds::ONCE; columns]);
        for _ in 0..rows {
            let (number, row) = lines
                .next()
                .ok_or_else(|| format!("line {line}: fewer than {rows} rows follow"))?;
            let values: Vec<&str> = row.split_whitespace().collect();
            if values.len() != columns {
                return Err(format!(
                    "line {number}: {} values, not {columns}",
                    values.len()
                ));
            }
            let mut option = Vec::new();
            for (column, value) in values.iter().enumerate() {
                match *value {
                    "0" => {}
                    "1" => option.push(column),
                    _ => return Err(format!("line {number}: {value:?} is not 0 or 1")),
                }
            }
            let colours = vec![None; option.len()];
            cover.push_option(option, colours);
        }
        covers.push(cover);
    }
    Ok(covers)
}

/// Reads a fixture by its extension: `.dlx` is Knuth's format (one
/// problem), `.txt` holds matrices.
pub fn read_fixture(path: &Path) -> Result<Vec<Cover>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("dlx") => read_knuth(&text).map(|c| vec![c]),
        Some("txt") => read_matrices(&text),
        _ => Err(format!(
            "{}: unknown extension (.dlx or .txt)",
            path.display()
        )),
    }
}

// ---------------------------------------------------------------------------
// The checkers.
// ---------------------------------------------------------------------------

/// Checks that `chosen` options form a solution: no option twice, none
/// without a primary item (those are ignored, never chosen), every
/// primary item covered within its bounds (exactly once unless the item
/// line says otherwise), and every secondary item consistently: either by
/// at most one option, with or without a colour, or by several that all
/// give it the same colour.
pub fn check_cover(cover: &Cover, chosen: &[usize]) -> Result<(), String> {
    let mut uses = vec![0u32; cover.items.len()];
    // The colours given to each secondary item, one entry per option that
    // names it.
    let mut given: Vec<Vec<Option<usize>>> = vec![Vec::new(); cover.items.len()];
    let mut seen = HashSet::new();
    for &option in chosen {
        let Some(items) = cover.options.get(option) else {
            return Err(format!("option {option} does not exist"));
        };
        if !seen.insert(option) {
            return Err(format!("{} is chosen twice", cover.describe(option)));
        }
        if items.is_empty() {
            return Err(format!("{} covers no item", cover.describe(option)));
        }
        if !cover.has_primary(option) {
            return Err(format!(
                "{} has no primary item (such options are ignored)",
                cover.describe(option)
            ));
        }
        for (&item, &colour) in items.iter().zip(&cover.colours[option]) {
            uses[item] += 1;
            if item >= cover.primary {
                given[item].push(colour);
            }
        }
    }
    for (item, &count) in uses.iter().enumerate() {
        if item < cover.primary {
            let bounds = cover.bounds[item];
            if bounds.contains(count) {
                continue;
            }
            let item = cover.describe_item(item);
            return Err(match bounds {
                Bounds::ONCE if count == 0 => format!("{item} is not covered"),
                Bounds::ONCE => format!("{item} is covered {count} times"),
                _ => format!("{item} is covered {count} times, not {bounds}"),
            });
        }
        let colours = &given[item];
        if colours.len() <= 1 {
            continue;
        }
        let name = cover.describe_item(item);
        if colours.iter().all(Option::is_none) {
            return Err(format!("{name} is covered {count} times"));
        }
        if colours.contains(&None) {
            return Err(format!(
                "{name} is covered {count} times, not all with a colour"
            ));
        }
        if let Some(other) = colours.iter().find(|&&c| c != colours[0]) {
            let [a, b] = [colours[0], *other].map(|c| &cover.colour_names[c.unwrap()]);
            return Err(format!("{name} is given two colours, {a} and {b}"));
        }
    }
    Ok(())
}

/// Checks that no two solutions choose the same set of options.
pub fn check_distinct(solutions: &[Vec<usize>]) -> Result<(), String> {
    let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
    for (k, solution) in solutions.iter().enumerate() {
        let mut key = solution.clone();
        key.sort_unstable();
        if let Some(first) = seen.insert(key, k) {
            return Err(format!(
                "solutions {} and {} are the same",
                first + 1,
                k + 1
            ));
        }
    }
    Ok(())
}

impl Cover {
    /// The problem as plain data for the brute force of [`brute`], options
    /// without a primary item left out of every solution.
    pub fn to_problem(&self) -> brute::Problem {
        let items = (0..self.items.len())
            .map(|i| match self.bounds.get(i) {
                Some(b) => brute::Item {
                    primary: true,
                    bounds: (b.min, b.max),
                },
                None => brute::Item {
                    primary: false,
                    bounds: (0, 1),
                },
            })
            .collect();
        let options = self
            .options
            .iter()
            .zip(&self.colours)
            .enumerate()
            .map(|(option, (items, colours))| {
                // Knuth's programs never choose such an option; one naming an
                // item out of range is in no solution, and keeps the indices.
                if !self.has_primary(option) {
                    return vec![(self.items.len(), None)];
                }
                let colour = |c: &Option<usize>| c.map(|c| c as u32);
                items
                    .iter()
                    .zip(colours)
                    .map(|(&i, c)| (i, colour(c)))
                    .collect()
            })
            .collect();
        brute::Problem { items, options }
    }
}

/// Prefixes a message with the instance it is about, in files of many.
pub fn at_instance(instances: usize, k: usize, message: String) -> String {
    if instances > 1 {
        format!("instance {}: {message}", k + 1)
    } else {
        message
    }
}

/// The text of `cover exact --all` for one Knuth-format problem: `want`
/// solutions, each its option lines and then a blank line, each valid and
/// all different; `no solution` and a blank line when `want` is 0.
pub fn check_knuth_all_text(cover: &Cover, want: u64, stdout: &str) -> Result<(), String> {
    if want == 0 {
        return match stdout {
            "no solution\n\n" => Ok(()),
            _ => Err(format!("expected `no solution`, found {}", snippet(stdout))),
        };
    }
    if stdout.is_empty() {
        return Err(format!("nothing printed, expected {want} solutions"));
    }
    let mut solutions: Vec<Vec<usize>> = Vec::new();
    let mut block: Vec<usize> = Vec::new();
    for line in stdout.lines() {
        let number = solutions.len() + 1;
        if !line.is_empty() {
            let option = cover
                .option_named(line)
                .map_err(|m| format!("solution {number}: {m}"))?;
            block.push(option);
            continue;
        }
        // A blank line alone is the empty solution (every primary item
        // may be left uncovered): check_cover says whether it is one.
        check_cover(cover, &block).map_err(|m| format!("solution {number}: {m}"))?;
        solutions.push(std::mem::take(&mut block));
    }
    if !block.is_empty() || !stdout.ends_with('\n') {
        return Err(format!(
            "solution {} is not ended by a blank line",
            solutions.len() + 1
        ));
    }
    check_distinct(&solutions)?;
    if solutions.len() as u64 != want {
        return Err(format!(
            "{} solutions printed, expected {want}",
            solutions.len()
        ));
    }
    Ok(())
}

/// Text answer for one Knuth-format problem: each option's items on a
/// line and a blank line after the solution, or `no solution`.
pub fn check_knuth_text(cover: &Cover, count: u64, stdout: &str) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().map(str::trim_end).collect();
    let end = lines
        .iter()
        .position(|l| l.is_empty())
        .unwrap_or(lines.len());
    let (block, rest) = lines.split_at(end);
    if rest.iter().any(|l| !l.is_empty()) {
        return Err("more than one answer printed".to_owned());
    }
    if count == 0 {
        return match block {
            ["no solution"] => Ok(()),
            _ => Err(format!("expected `no solution`, found {}", snippet(stdout))),
        };
    }
    // An empty block before the blank line is the empty solution.
    if rest.is_empty() {
        let found = snippet(stdout);
        return Err(format!(
            "expected option lines and a blank line, found {found}"
        ));
    }
    let options = block
        .iter()
        .map(|line| cover.option_named(line))
        .collect::<Result<Vec<_>, _>>()?;
    check_cover(cover, &options)
}

/// Text answer for matrices: one line per matrix, its chosen rows in
/// ascending order, or `No Solution!`.
pub fn check_matrix_text(covers: &[Cover], counts: &[u64], stdout: &str) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    if lines.len() != covers.len() {
        return Err(format!(
            "{} lines printed for {} matrices",
            lines.len(),
            covers.len()
        ));
    }
    for (k, ((line, cover), &count)) in lines.iter().zip(covers).zip(counts).enumerate() {
        let check = || {
            if count == 0 {
                return match *line {
                    "No Solution!" => Ok(()),
                    _ => Err(format!("expected `No Solution!`, found {}", snippet(line))),
                };
            }
            let rows = line
                .split_whitespace()
                .map(|f| {
                    f.parse::<u64>()
                        .map_err(|_| format!("{f:?} is not a row number"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if rows.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("rows {line:?} are not in ascending order"));
            }
            let options = rows
                .iter()
                .map(|&r| cover.option_at_row(r))
                .collect::<Result<Vec<_>, _>>()?;
            check_cover(cover, &options)
        };
        check().map_err(|m| at_instance(covers.len(), k, m))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items a, b, c primary, x secondary.
    const SMALL: &str = "a b c | x\n\
                         a b x\n\
                         c\n\
                         a x\n\
                         b c x\n\
                         a\n\
                         b\n";

    fn small() -> Cover {
        read_knuth(SMALL).unwrap()
    }

    fn named(cover: &Cover, options: &[&str]) -> Vec<usize> {
        options
            .iter()
            .map(|o| cover.option_named(o).unwrap())
            .collect()
    }

    #[test]
    fn a_valid_cover_passes() {
        let cover = small();
        assert_eq!(check_cover(&cover, &named(&cover, &["a b x", "c"])), Ok(()));
        assert_eq!(
            check_cover(&cover, &named(&cover, &["a", "b", "c"])),
            Ok(())
        );
        // Items in another order name the same option.
        assert_eq!(check_cover(&cover, &named(&cover, &["x b a", "c"])), Ok(()));
    }

    #[test]
    fn a_missing_primary_item_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a b x"]));
        assert_eq!(result, Err("primary item c is not covered".to_owned()));
        let matrix = &read_matrices("2 2\n1 0\n0 1\n").unwrap()[0];
        let result = check_cover(matrix, &[0]);
        assert_eq!(result, Err("column 2 is not covered".to_owned()));
        assert!(check_cover(&cover, &[]).is_err());
    }

    #[test]
    fn a_primary_item_twice_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a b x", "c", "a"]));
        assert_eq!(result, Err("primary item a is covered 2 times".to_owned()));
    }

    #[test]
    fn a_secondary_item_twice_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a x", "b c x"]));
        assert_eq!(
            result,
            Err("secondary item x is covered 2 times".to_owned())
        );
    }

    #[test]
    fn an_option_twice_or_unknown_fails() {
        let cover = small();
        let c = cover.option_named("c").unwrap();
        assert!(check_cover(&cover, &[c, c]).is_err());
        assert!(check_cover(&cover, &[99]).is_err());
        assert!(cover.option_named("a c").is_err(), "not an option");
        assert!(cover.option_named("a z").is_err(), "unknown item");
    }

    #[test]
    fn repeated_solutions_fail() {
        assert_eq!(check_distinct(&[vec![0, 1], vec![2, 3]]), Ok(()));
        assert!(check_distinct(&[vec![0, 1], vec![2], vec![1, 0]]).is_err());
    }

    #[test]
    fn matrices_and_their_text_answers() {
        let text = "# two matrices\n2 2\n1 0\n0 1\n\n3 2\n1 1\n0 0\n1 0\n";
        let covers = read_matrices(text).unwrap();
        assert_eq!(covers.len(), 2);
        assert_eq!((covers[0].line, covers[1].line), (2, 6));
        assert_eq!(covers[1].options, [vec![0, 1], vec![], vec![0]]);
        let counts = [1, 1];
        assert_eq!(check_matrix_text(&covers, &counts, "1 2\n1\n"), Ok(()));
        assert!(
            check_matrix_text(&covers, &counts, "2 1\n1\n").is_err(),
            "order"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1\n1\n").is_err(),
            "column 2"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1 2\n1 2\n").is_err(),
            "empty row"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1 2\n").is_err(),
            "a line short"
        );
        assert!(
            check_matrix_text(&covers, &[1, 0], "1 2\n1\n").is_err(),
            "marker"
        );
        assert_eq!(
            check_matrix_text(&covers, &[1, 0], "1 2\nNo Solution!\n"),
            Ok(())
        );
        assert!(read_matrices("2 2\n1 0\n").is_err(), "rows missing");
        assert!(read_matrices("1 2\n1 2\n").is_err(), "not 0 or 1");
        assert!(read_matrices("0 99999999999\n").is_err(), "a lying header");
    }

    #[test]
    fn knuth_text_answers() {
        let cover = small();
        assert_eq!(check_knuth_text(&cover, 4, "a b x\nc\n\n"), Ok(()));
        assert!(
            check_knuth_text(&cover, 4, "a b x\n\n").is_err(),
            "c uncovered"
        );
        assert!(
            check_knuth_text(&cover, 4, "a b x\nc\n").is_err(),
            "no blank line"
        );
        assert!(
            check_knuth_text(&cover, 4, "a b x\nc\n\na\nb\nc\n\n").is_err(),
            "two"
        );
        assert!(check_knuth_text(&cover, 4, "no solution\n").is_err());
        assert_eq!(check_knuth_text(&cover, 0, "no solution\n"), Ok(()));
    }

    #[test]
    fn json_answers() {
        let cover = small();
        let good: Value = serde_json::json!(["a b x", "c"]);
        let options = cover.options_from_json(&good).unwrap();
        assert_eq!(check_cover(&cover, &options), Ok(()));
        assert!(cover.options_from_json(&serde_json::json!([1, 2])).is_err());
        let matrix = &read_matrices("2 2\n1 0\n0 1\n").unwrap()[0];
        assert_eq!(
            matrix.options_from_json(&serde_json::json!([1, 2])),
            Ok(vec![0, 1])
        );
        assert!(matrix
            .options_from_json(&serde_json::json!([0, 2]))
            .is_err());
        assert!(matrix.options_from_json(&serde_json::json!([3])).is_err());
    }

    /// Items p q primary, p at most twice and q from 1 to 3 times; x y
    /// secondary, with colours.
    const COLOURED: &str = "0:2|p 1:3|q | x y\n\
                            p x:A\n\
                            q x:A y\n\
                            p q x:B\n\
                            q y:C\n\
                            p\n\
                            q\n\
                            x:A y:C\n";

    fn coloured() -> Cover {
        read_knuth(COLOURED).unwrap()
    }

    #[test]
    fn colours_and_bounds_are_read() {
        let cover = coloured();
        assert_eq!(cover.items, ["p", "q", "x", "y"]);
        assert_eq!(cover.primary, 2);
        assert_eq!(
            cover.bounds,
            [Bounds { min: 0, max: 2 }, Bounds { min: 1, max: 3 }]
        );
        assert_eq!(cover.colour_names, ["A", "B", "C"]);
        assert_eq!(cover.options[1], [1, 2, 3]);
        assert_eq!(cover.colours[1], [None, Some(0), None]);
        assert_eq!(cover.option_text(2), "p q x:B");
        assert!(!cover.has_primary(6), "`x:A y:C` names no primary item");
        assert!(cover.has_colours() && cover.has_bounds());
        // `2|a` is exactly twice; `1:1|a` is plain `a`.
        let cover = read_knuth("2|a 1:1|b c | d\na b c\n").unwrap();
        let [two, once] = [Bounds { min: 2, max: 2 }, Bounds::ONCE];
        assert_eq!(cover.bounds, [two, once, once]);
        assert!(!read_knuth("a b\na b\n").unwrap().has_bounds());
        for bad in [
            "a | x\na:A\n",       // a colour on a primary item
            "a | 2|x\na x\n",     // bounds on a secondary item
            "3:2|a\na\n",         // min above max
            "0|a\na\n",           // max 0
            "0:x|a\na\n",         // not a number
            ":2|a\na\n",          // bounds without a min
            "a | x | y\na\n",     // two `|`
            "a:b\na\n",           // a colon in an item name
            "a | x\na x:\n",      // an empty colour
            "a | x\na x:A x:B\n", // an item twice
        ] {
            assert!(read_knuth(bad).is_err(), "{bad:?} is read");
        }
    }

    #[test]
    fn coloured_options_are_named_with_their_colours() {
        let cover = coloured();
        assert_eq!(cover.option_named("p x:A"), Ok(0));
        assert_eq!(cover.option_named("x:A p"), Ok(0), "any order");
        assert!(cover.option_named("p x").is_err(), "colour missing");
        assert!(cover.option_named("p x:B").is_err(), "another colour");
        assert!(cover.option_named("p x:D").is_err(), "unknown colour");
        assert!(cover.option_named("q x:A y:C").is_err(), "colour added");
        assert!(cover.option_named("p:A").is_err(), "not an option");
    }

    #[test]
    fn coloured_covers_pass() {
        let cover = coloured();
        for solution in [
            &["q"][..],
            &["p x:A", "q x:A y"],
            &["p", "q y:C", "q"],
            &["p q x:B", "q"],
        ] {
            let options = named(&cover, solution);
            let check = check_cover(&cover, &options);
            assert_eq!(check.as_ref().err(), None.as_ref(), "{solution:?}");
        }
    }

    /// Each way a solution with colours and bounds can be wrong is caught.
    #[test]
    fn coloured_covers_fail() {
        let cover = coloured();
        let check = |solution: &[&str]| check_cover(&cover, &named(&cover, solution));
        let fails = |solution: &[&str], reason: &str| {
            assert_eq!(check(solution), Err(reason.to_owned()), "{solution:?}")
        };
        fails(
            &["p x:A", "p q x:B"],
            "secondary item x is given two colours, A and B",
        );
        fails(
            &["p x:A", "q x:A y", "q y:C"],
            "secondary item y is covered 2 times, not all with a colour",
        );
        fails(
            &["p x:A", "p q x:B", "p"],
            "primary item p is covered 3 times, not 0 to 2",
        );
        fails(&["p x:A"], "primary item q is covered 0 times, not 1 to 3");
        assert!(check(&["q", "q"]).unwrap_err().contains("chosen twice"));
        let ignored = cover.option_named("x:A y:C").unwrap();
        let q = cover.option_named("q").unwrap();
        assert_eq!(
            check_cover(&cover, &[q, ignored]),
            Err("option `x:A y:C` has no primary item (such options are ignored)".to_owned())
        );
        assert!(check_cover(&cover, &[q, 99]).is_err(), "unknown option");
        assert!(
            check_knuth_text(&cover, 1, "q\nq x:D\n\n").is_err(),
            "unknown colour"
        );
        // Exactly twice, as DLX3's `2|r`.
        let two = read_knuth("2|r c\nr\nr c\nc\n").unwrap();
        assert_eq!(
            check_cover(&two, &named(&two, &["r c"])),
            Err("primary item r is covered 1 times, not 2".to_owned())
        );
        assert_eq!(check_cover(&two, &named(&two, &["r c", "r"])), Ok(()));
    }

    #[test]
    fn all_text_answers() {
        let cover = coloured();
        let good = "q\n\np x:A\nq x:A y\n\n";
        assert_eq!(check_knuth_all_text(&cover, 2, good), Ok(()));
        assert!(check_knuth_all_text(&cover, 3, good).is_err(), "too few");
        assert!(check_knuth_all_text(&cover, 1, good).is_err(), "too many");
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\nq\n\n").is_err(),
            "repeated"
        );
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\n\nq y:C\n\n").is_err(),
            "blank"
        );
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\nq y:C\n").is_err(),
            "unended"
        );
        assert!(
            check_knuth_all_text(&cover, 1, "p x:A\n\n").is_err(),
            "q uncovered"
        );
        let clash = "p x:A\np q x:B\n\n";
        assert!(
            check_knuth_all_text(&cover, 1, clash).is_err(),
            "colour clash"
        );
        assert_eq!(check_knuth_all_text(&cover, 0, "no solution\n\n"), Ok(()));
        assert!(check_knuth_all_text(&cover, 0, "q\n\n").is_err());
    }

    #[test]
    fn the_empty_solution_is_a_blank_line() {
        // Every primary item may stay uncovered: {} and {a} are solutions.
        let optional = read_knuth("0:1|a\na\n").unwrap();
        assert_eq!(check_knuth_text(&optional, 2, "\n"), Ok(()));
        assert_eq!(check_knuth_all_text(&optional, 2, "\na\n\n"), Ok(()));
        assert_eq!(check_knuth_all_text(&optional, 2, "a\n\n\n"), Ok(()));
        assert!(check_knuth_all_text(&optional, 2, "\n\n").is_err(), "twice");
        // Where an item must be covered, a blank line is no solution.
        let needed = read_knuth("a\na\n").unwrap();
        assert!(check_knuth_text(&needed, 1, "\n").is_err());
        assert!(check_knuth_all_text(&needed, 1, "\n").is_err());
    }
}
