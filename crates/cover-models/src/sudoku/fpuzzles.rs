//! The f-puzzles format, which setters publish variant sudoku in and
//! SudokuPad and most variant tools read: a JSON document, or the same
//! JSON compressed as in an f-puzzles link (`https://f-puzzles.com/?load=…`:
//! lz-string's base64 form).
//!
//! This module owns reading and writing that format into an [`FPuzzle`]:
//! the grid's size, givens, regions, and the rules it states. It knows
//! nothing of solving. A rule it cannot honour (arrows, sandwiches, …) is
//! an error naming it, never dropped: a puzzle read without one of its
//! rules would be solved wrong.

use serde_json::{json, Map, Value};
use thiserror::Error;

use super::variant::{Rules, RulesError};

/// The largest grid the format describes (f-puzzles draws 3×3 to 16×16).
pub const MAX_SIZE: usize = 16;

/// Why a text is not an f-puzzles puzzle this module can read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FPuzzlesError {
    /// Neither JSON nor the compressed string of a link.
    #[error("not f-puzzles data: {0}")]
    NotFPuzzles(String),
    /// JSON, but not as f-puzzles writes it.
    #[error("f-puzzles data: {0}")]
    Malformed(String),
    /// A rule this model has no way to honour.
    #[error("f-puzzles data: the {0} rule is not supported")]
    Unsupported(String),
}

/// A puzzle as f-puzzles states it. Cells are numbered row by row from 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FPuzzle {
    /// The grid's side.
    pub size: usize,
    /// The givens, 0 for empty.
    pub givens: Vec<u8>,
    /// The region of each cell: f-puzzles' default boxes unless the file
    /// moves cells (a jigsaw).
    pub regions: Vec<usize>,
    /// The diagonal from the bottom-left corner to the top-right holds no
    /// digit twice (f-puzzles' `diagonal+`).
    pub diagonal_up: bool,
    /// The diagonal from the top-left corner to the bottom-right
    /// (`diagonal-`).
    pub diagonal_down: bool,
    /// Cells a knight's move apart differ.
    pub anti_knight: bool,
    /// Cells a king's move apart differ.
    pub anti_king: bool,
    /// Orthogonal neighbours hold no consecutive digits.
    pub non_consecutive: bool,
    /// Killer cages: cells, and their sum when stated.
    pub cages: Vec<(Vec<usize>, Option<u32>)>,
    /// Extra regions: no digit twice.
    pub extra_regions: Vec<Vec<usize>>,
    /// Thermometers, bulb first: digits strictly increase along each.
    pub thermos: Vec<Vec<usize>>,
    /// The title, when there is one.
    pub title: Option<String>,
    /// The author, when there is one.
    pub author: Option<String>,
}

impl FPuzzle {
    /// The puzzle's rules as a [`Rules`] to solve with
    /// [`VariantSolver`](super::variant::VariantSolver): rows, columns and
    /// its regions (boxes when they are f-puzzles' default ones, jigsaw
    /// pieces otherwise), then each rule it states.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        let size = self.size;
        let mut rules = match default_box(size) {
            Some((rows, cols)) if default_regions(size).as_ref() == Some(&self.regions) => {
                Rules::boxes(size, rows, cols)?
            }
            _ => Rules::jigsaw(size, &self.regions)?,
        };
        if self.diagonal_down {
            let cells: Vec<usize> = (0..size).map(|i| i * size + i).collect();
            rules = rules.with_region(&cells)?;
        }
        if self.diagonal_up {
            let cells: Vec<usize> = (0..size).map(|i| (size - 1 - i) * size + i).collect();
            rules = rules.with_region(&cells)?;
        }
        for cells in &self.extra_regions {
            rules = rules.with_region(cells)?;
        }
        for (cells, sum) in &self.cages {
            rules = rules.with_cage(cells, *sum)?;
        }
        for cells in &self.thermos {
            rules = rules.with_thermo(cells)?;
        }
        if self.anti_knight {
            rules = rules.with_anti_knight();
        }
        if self.anti_king {
            rules = rules.with_anti_king();
        }
        if self.non_consecutive {
            rules = rules.with_non_consecutive();
        }
        Ok(rules)
    }
}

/// Keys that draw or describe and state no rule: read past.
const COSMETIC: [&str; 14] = [
    "title",
    "author",
    "ruleset",
    "solution",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "fogofwar",
    "version",
];

/// The rules read here; every other key with content is refused.
const RULES: [&str; 10] = [
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "killercage",
    "extraregion",
    "thermometer",
];

/// The box of f-puzzles' default regions for `size`: rows × columns,
/// the rows the largest divisor of `size` not above its square root (6:
/// 2×3, 8: 2×4, 12: 3×4). Prime sizes have none (their regions must be
/// given).
pub fn default_box(size: usize) -> Option<(usize, usize)> {
    let rows = (1..=size)
        .filter(|r| r * r <= size && size.is_multiple_of(*r))
        .max()?;
    (rows > 1).then_some((rows, size / rows))
}

/// The region of each cell under f-puzzles' default boxes (none for
/// prime sizes).
fn default_regions(size: usize) -> Option<Vec<usize>> {
    let (rows, cols) = default_box(size)?;
    Some(
        (0..size * size)
            .map(|cell| (cell / size / rows) * rows + (cell % size) / cols)
            .collect(),
    )
}

/// Reads f-puzzles data: JSON, or the compressed string of a link (with
/// or without the link around it).
pub fn read(text: &str) -> Result<FPuzzle, FPuzzlesError> {
    let text = text.trim();
    let json = if text.starts_with(['{', '[']) {
        text.to_owned()
    } else {
        let packed = text.rsplit_once("load=").map_or(text, |(_, p)| p);
        let packed = packed.split(['&', '#']).next().unwrap_or(packed);
        // Links escape the base64 alphabet's `+`, `/` and `=`.
        let packed = packed
            .replace("%2B", "+")
            .replace("%2F", "/")
            .replace("%3D", "=")
            .replace(' ', "+");
        let utf16 = lz_str::decompress_from_base64(&packed)
            .filter(|unpacked| !unpacked.is_empty())
            .ok_or_else(|| {
                FPuzzlesError::NotFPuzzles("neither JSON nor a compressed link string".into())
            })?;
        String::from_utf16(&utf16)
            .map_err(|_| FPuzzlesError::NotFPuzzles("the link string does not unpack".into()))?
    };
    let value: Value = serde_json::from_str(&json)
        .map_err(|e| FPuzzlesError::NotFPuzzles(format!("not JSON: {e}")))?;
    from_json(&value)
}

fn malformed(what: impl Into<String>) -> FPuzzlesError {
    FPuzzlesError::Malformed(what.into())
}

/// Reads a puzzle from f-puzzles' JSON document.
pub fn from_json(value: &Value) -> Result<FPuzzle, FPuzzlesError> {
    let object = value
        .as_object()
        .ok_or_else(|| malformed("the document is not a JSON object"))?;
    for (key, content) in object {
        let empty = match content {
            Value::Null | Value::Bool(false) => true,
            Value::Array(items) => items.is_empty(),
            _ => false,
        };
        if !empty && !RULES.contains(&key.as_str()) && !COSMETIC.contains(&key.as_str()) {
            return Err(FPuzzlesError::Unsupported(key.clone()));
        }
    }
    let size = object
        .get("size")
        .and_then(Value::as_u64)
        .ok_or_else(|| malformed("no size"))? as usize;
    if !(1..=MAX_SIZE).contains(&size) {
        return Err(malformed(format!(
            "size {size} (f-puzzles grids are 1 to {MAX_SIZE})"
        )));
    }
    let cells = size * size;
    let mut puzzle = FPuzzle {
        size,
        givens: vec![0; cells],
        regions: default_regions(size).unwrap_or_else(|| vec![usize::MAX; cells]),
        ..FPuzzle::default()
    };
    let grid = object
        .get("grid")
        .and_then(Value::as_array)
        .filter(|rows| rows.len() == size)
        .ok_or_else(|| malformed(format!("the grid is not {size} rows")))?;
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|row| row.len() == size)
            .ok_or_else(|| malformed(format!("row {} is not {size} cells", r + 1)))?;
        for (c, cell) in row.iter().enumerate() {
            let at = r * size + c;
            let Some(cell) = cell.as_object() else {
                return Err(malformed(format!(
                    "cell R{}C{} is not an object",
                    r + 1,
                    c + 1
                )));
            };
            if let Some(region) = cell.get("region").filter(|v| !v.is_null()) {
                let region = region
                    .as_u64()
                    .filter(|&n| (n as usize) < size)
                    .ok_or_else(|| malformed(format!("R{}C{}: region {region}", r + 1, c + 1)))?;
                puzzle.regions[at] = region as usize;
            }
            let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
            if let (true, Some(value)) = (given, cell.get("value").filter(|v| !v.is_null())) {
                let digit = value
                    .as_u64()
                    .filter(|&d| (1..=size as u64).contains(&d))
                    .ok_or_else(|| malformed(format!("R{}C{}: value {value}", r + 1, c + 1)))?;
                puzzle.givens[at] = digit as u8;
            }
        }
    }
    if puzzle.regions.contains(&usize::MAX) {
        return Err(malformed(format!(
            "a {size}×{size} grid has no default regions: every cell needs one"
        )));
    }
    let flag = |key: &str| object.get(key).and_then(Value::as_bool).unwrap_or(false);
    puzzle.diagonal_up = flag("diagonal+");
    puzzle.diagonal_down = flag("diagonal-");
    puzzle.anti_knight = flag("antiknight");
    puzzle.anti_king = flag("antiking");
    puzzle.non_consecutive = flag("nonconsecutive");
    for cage in entries(object, "killercage")? {
        let cells = cell_list(cage.get("cells"), size, "killercage")?;
        let sum = match cage.get("value") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(Value::String(s)) => Some(
                s.trim()
                    .parse::<u32>()
                    .map_err(|_| malformed(format!("killercage: sum {s:?}")))?,
            ),
            Some(Value::Number(n)) => Some(
                n.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| malformed(format!("killercage: sum {n}")))?,
            ),
            Some(other) => return Err(malformed(format!("killercage: sum {other}"))),
        };
        puzzle.cages.push((cells, sum));
    }
    for region in entries(object, "extraregion")? {
        puzzle
            .extra_regions
            .push(cell_list(region.get("cells"), size, "extraregion")?);
    }
    for thermo in entries(object, "thermometer")? {
        let lines = thermo
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed("thermometer: no lines"))?;
        for line in lines {
            puzzle
                .thermos
                .push(cell_list(Some(line), size, "thermometer")?);
        }
    }
    let text = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    puzzle.title = text("title");
    puzzle.author = text("author");
    Ok(puzzle)
}

/// The entries of a rule's list (none when absent).
fn entries<'a>(
    object: &'a Map<String, Value>,
    key: &str,
) -> Result<Vec<&'a Map<String, Value>>, FPuzzlesError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_object()
                    .ok_or_else(|| malformed(format!("{key}: an entry is not an object")))
            })
            .collect(),
        Some(_) => Err(malformed(format!("{key} is not a list"))),
    }
}

/// Cells named `R1C1` … as numbers from 0, row by row.
fn cell_list(value: Option<&Value>, size: usize, rule: &str) -> Result<Vec<usize>, FPuzzlesError> {
    let names = value
        .and_then(Value::as_array)
        .filter(|names| !names.is_empty())
        .ok_or_else(|| malformed(format!("{rule}: no cells")))?;
    let mut cells = Vec::with_capacity(names.len());
    for name in names {
        let text = name.as_str().unwrap_or("");
        let cell = parse_cell(text, size)
            .ok_or_else(|| malformed(format!("{rule}: {name} is not a cell of the grid")))?;
        if cells.contains(&cell) {
            return Err(malformed(format!("{rule}: {text} twice")));
        }
        cells.push(cell);
    }
    Ok(cells)
}

fn parse_cell(name: &str, size: usize) -> Option<usize> {
    let upper = name.trim().to_ascii_uppercase();
    let (row, col) = upper.strip_prefix('R')?.split_once('C')?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    ((1..=size).contains(&row) && (1..=size).contains(&col)).then(|| (row - 1) * size + col - 1)
}

fn cell_name(cell: usize, size: usize) -> String {
    format!("R{}C{}", cell / size + 1, cell % size + 1)
}

/// The puzzle as f-puzzles' JSON.
pub fn to_json(puzzle: &FPuzzle) -> Value {
    let size = puzzle.size;
    let defaults = default_regions(size);
    let grid: Vec<Value> = (0..size)
        .map(|r| {
            Value::Array(
                (0..size)
                    .map(|c| {
                        let at = r * size + c;
                        let mut cell = Map::new();
                        if puzzle.givens[at] != 0 {
                            cell.insert("value".into(), json!(puzzle.givens[at]));
                            cell.insert("given".into(), json!(true));
                        }
                        let default = defaults.as_ref().map(|regions| regions[at]);
                        if default != Some(puzzle.regions[at]) {
                            cell.insert("region".into(), json!(puzzle.regions[at]));
                        }
                        Value::Object(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    let names =
        |cells: &[usize]| -> Vec<String> { cells.iter().map(|&c| cell_name(c, size)).collect() };
    let mut object = Map::new();
    object.insert("size".into(), json!(size));
    if let Some(title) = &puzzle.title {
        object.insert("title".into(), json!(title));
    }
    if let Some(author) = &puzzle.author {
        object.insert("author".into(), json!(author));
    }
    object.insert("grid".into(), Value::Array(grid));
    for (key, on) in [
        ("diagonal+", puzzle.diagonal_up),
        ("diagonal-", puzzle.diagonal_down),
        ("antiknight", puzzle.anti_knight),
        ("antiking", puzzle.anti_king),
        ("nonconsecutive", puzzle.non_consecutive),
    ] {
        if on {
            object.insert(key.into(), json!(true));
        }
    }
    if !puzzle.cages.is_empty() {
        let cages: Vec<Value> = puzzle
            .cages
            .iter()
            .map(|(cells, sum)| match sum {
                Some(sum) => json!({ "cells": names(cells), "value": sum.to_string() }),
                None => json!({ "cells": names(cells) }),
            })
            .collect();
        object.insert("killercage".into(), Value::Array(cages));
    }
    if !puzzle.extra_regions.is_empty() {
        let regions: Vec<Value> = puzzle
            .extra_regions
            .iter()
            .map(|cells| json!({ "cells": names(cells) }))
            .collect();
        object.insert("extraregion".into(), Value::Array(regions));
    }
    if !puzzle.thermos.is_empty() {
        let thermos: Vec<Value> = puzzle
            .thermos
            .iter()
            .map(|cells| json!({ "lines": [names(cells)] }))
            .collect();
        object.insert("thermometer".into(), Value::Array(thermos));
    }
    Value::Object(object)
}

/// The puzzle as the compressed string of an f-puzzles link (what
/// follows `?load=`).
pub fn to_link_string(puzzle: &FPuzzle) -> String {
    lz_str::compress_to_base64(&to_json(puzzle).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn classic_json() -> Value {
        let rows: Vec<Value> = CLASSIC
            .as_bytes()
            .chunks(9)
            .map(|row| {
                Value::Array(
                    row.iter()
                        .map(|&b| match b {
                            b'.' => json!({}),
                            d => json!({ "value": d - b'0', "given": true }),
                        })
                        .collect(),
                )
            })
            .collect();
        json!({ "size": 9, "title": "Classic", "author": "Wikipedia", "grid": rows,
                "highlightConflicts": true })
    }

    #[test]
    fn a_classic_puzzle_reads_with_its_givens_and_boxes() {
        let puzzle = from_json(&classic_json()).unwrap();
        assert_eq!(puzzle.size, 9);
        let givens: String = puzzle
            .givens
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect();
        assert_eq!(givens, CLASSIC);
        assert_eq!(puzzle.regions[0], 0);
        assert_eq!(puzzle.regions[80], 8);
        assert_eq!(puzzle.regions[4 * 9 + 5], 4);
        assert_eq!(puzzle.title.as_deref(), Some("Classic"));
        assert!(!puzzle.diagonal_up && puzzle.cages.is_empty());
    }

    #[test]
    fn rules_read_and_round_trip_through_json_and_the_link_string() {
        let mut value = classic_json();
        let object = value.as_object_mut().unwrap();
        object.insert("diagonal+".into(), json!(true));
        object.insert("antiknight".into(), json!(true));
        object.insert("nonconsecutive".into(), json!(false));
        object.insert(
            "killercage".into(),
            json!([{ "cells": ["R1C3", "R1C4"], "value": "10" }, { "cells": ["r9c9"] }]),
        );
        object.insert(
            "extraregion".into(),
            json!([{ "cells": ["R2C2", "R2C3", "R3C2"] }]),
        );
        object.insert(
            "thermometer".into(),
            json!([{ "lines": [["R4C4", "R4C5", "R4C6"], ["R6C1", "R7C1"]] }]),
        );
        object["grid"][0][0]["region"] = json!(1);
        let puzzle = from_json(&value).unwrap();
        assert!(puzzle.diagonal_up && puzzle.anti_knight && !puzzle.non_consecutive);
        assert_eq!(puzzle.cages, vec![(vec![2, 3], Some(10)), (vec![80], None)]);
        assert_eq!(puzzle.extra_regions, vec![vec![10, 11, 19]]);
        assert_eq!(puzzle.thermos, vec![vec![30, 31, 32], vec![45, 54]]);
        assert_eq!(puzzle.regions[0], 1, "a cell moved to another region");
        let again = from_json(&to_json(&puzzle)).unwrap();
        assert_eq!(again, puzzle);
        let link = to_link_string(&puzzle);
        assert_eq!(read(&link).unwrap(), puzzle);
        let url = format!(
            "https://f-puzzles.com/?load={}",
            link.replace('+', "%2B")
                .replace('/', "%2F")
                .replace('=', "%3D")
        );
        assert_eq!(read(&url).unwrap(), puzzle, "a whole link, escaped");
        assert_eq!(read(&to_json(&puzzle).to_string()).unwrap(), puzzle);
    }

    #[test]
    fn default_regions_are_rectangles_and_prime_sizes_need_regions() {
        assert_eq!(default_box(6), Some((2, 3)));
        assert_eq!(default_box(8), Some((2, 4)));
        assert_eq!(default_box(12), Some((3, 4)));
        assert_eq!(default_box(16), Some((4, 4)));
        assert_eq!(default_box(7), None);
        let six = json!({ "size": 6, "grid": vec![vec![json!({}); 6]; 6] });
        let puzzle = from_json(&six).unwrap();
        assert_eq!(&puzzle.regions[..12], &[0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
        assert_eq!(puzzle.regions[35], 5);
        let five = json!({ "size": 5, "grid": vec![vec![json!({}); 5]; 5] });
        assert!(matches!(from_json(&five), Err(FPuzzlesError::Malformed(_))));
    }

    #[test]
    fn rules_it_cannot_honour_are_refused_by_name_and_cosmetics_pass() {
        let mut value = classic_json();
        value["arrow"] = json!([{ "cells": ["R1C1"], "lines": [["R1C1", "R1C2"]] }]);
        assert_eq!(
            from_json(&value),
            Err(FPuzzlesError::Unsupported("arrow".into()))
        );
        let mut value = classic_json();
        value["arrow"] = json!([]);
        value["text"] = json!([{ "cells": ["R1C1"], "value": "hi" }]);
        value["cage"] = json!([{ "cells": ["R1C1"], "value": "cosmetic" }]);
        assert!(from_json(&value).is_ok(), "an empty rule and cosmetics");
    }

    #[test]
    fn broken_data_is_an_error_in_words() {
        for (text, says) in [
            ("", "neither JSON"),
            ("{not json", "not JSON"),
            ("[1, 2]", "not a JSON object"),
            (r#"{"size": 9}"#, "not 9 rows"),
            (r#"{"size": 40, "grid": []}"#, "size 40"),
        ] {
            let error = read(text).unwrap_err().to_string();
            assert!(error.contains(says), "{text:?}: {error}");
        }
        let mut value = classic_json();
        value["grid"][0][2] = json!({ "value": 10, "given": true });
        assert!(from_json(&value).unwrap_err().to_string().contains("R1C3"));
        let mut value = classic_json();
        value["killercage"] = json!([{ "cells": ["R1C1", "R10C1"], "value": "3" }]);
        assert!(from_json(&value).unwrap_err().to_string().contains("R10C1"));
        let mut value = classic_json();
        value["killercage"] = json!([{ "cells": ["R1C1", "R1C1"] }]);
        assert!(from_json(&value).unwrap_err().to_string().contains("twice"));
        let mut value = classic_json();
        value["killercage"] = json!([{ "cells": ["R1C1"], "value": "ten" }]);
        assert!(from_json(&value).unwrap_err().to_string().contains("sum"));
    }

    /// The checker's rules read straight off the f-puzzles data (not
    /// through [`FPuzzle::rules`]), so a wrong conversion shows.
    fn checker_rules(puzzle: &FPuzzle) -> cover_check::variant::VariantRules {
        let size = puzzle.size;
        let mut regions: Vec<Vec<usize>> = (0..size)
            .map(|r| (0..size).map(|c| r * size + c).collect())
            .chain((0..size).map(|c| (0..size).map(|r| r * size + c).collect()))
            .collect();
        for region in 0..size {
            regions.push(
                (0..size * size)
                    .filter(|&c| puzzle.regions[c] == region)
                    .collect(),
            );
        }
        if puzzle.diagonal_down {
            regions.push((0..size).map(|i| i * size + i).collect());
        }
        if puzzle.diagonal_up {
            regions.push((0..size).map(|i| (size - 1 - i) * size + i).collect());
        }
        regions.extend(puzzle.extra_regions.iter().cloned());
        cover_check::variant::VariantRules {
            side: size,
            regions,
            cages: puzzle.cages.clone(),
            anti_knight: puzzle.anti_knight,
            anti_king: puzzle.anti_king,
            non_consecutive: puzzle.non_consecutive,
            thermos: puzzle.thermos.clone(),
            ..Default::default()
        }
    }

    #[test]
    fn read_puzzles_solve_under_every_rule_they_state() {
        use super::super::variant::VariantSolver;
        use dlx_core::Limits;
        // A 6×6 (2×3 boxes) with two cells swapped between regions (a
        // jigsaw) and non-consecutive, written as f-puzzles does; then a
        // cage and a thermometer true to one of its solutions, and a given.
        // (This layout with a diagonal or anti-knight as well has none.)
        let grid: Vec<Vec<Value>> = vec![vec![json!({}); 6]; 6];
        let mut value = json!({ "size": 6, "grid": grid, "nonconsecutive": true });
        for (r, c, region) in [(1, 2, 2), (2, 0, 0)] {
            value["grid"][r][c]["region"] = json!(region);
        }
        let base = from_json(&value).unwrap();
        let some = VariantSolver::new(&base.rules().unwrap(), &base.givens)
            .unwrap()
            .first()
            .expect("the base rules have solutions");
        let sum: u32 = [0, 1, 6].iter().map(|&c| u32::from(some[c])).sum();
        value["killercage"] =
            json!([{ "cells": ["R1C1", "R1C2", "R2C1"], "value": sum.to_string() }]);
        let thermo = if some[30] < some[31] {
            ["R6C1", "R6C2"]
        } else {
            ["R6C2", "R6C1"]
        };
        value["thermometer"] = json!([{ "lines": [thermo] }]);
        value["grid"][2][2] = json!({ "value": some[14], "given": true });
        let puzzle = from_json(&value).unwrap();
        let rules = puzzle.rules().unwrap();
        let check = checker_rules(&puzzle);
        let mut solver = VariantSolver::new(&rules, &puzzle.givens).unwrap();
        let mut seen = 0;
        solver.search(&Limits::solutions(50), |grid| {
            seen += 1;
            if let Err(why) =
                cover_check::variant::check_variant_solution(&check, &puzzle.givens, grid)
            {
                panic!("{grid:?}: {why}");
            }
            dlx_core::Control::Continue
        });
        let brute = cover_check::variant::count_variant_brute(&check, &puzzle.givens, 50);
        assert!(seen > 0, "the puzzle has solutions");
        assert_eq!(seen, brute, "the solver and the brute force agree");
        // Broken data for the rules: a cage whose sum cannot be.
        value["killercage"][0]["value"] = json!("40");
        assert!(from_json(&value).unwrap().rules().is_err());
    }

    #[test]
    fn a_value_that_is_not_given_is_not_a_given() {
        let mut value = classic_json();
        value["grid"][0][2] = json!({ "value": 4 });
        assert_eq!(from_json(&value).unwrap().givens[2], 0);
    }
}
