//! The line format for sudoku variants: a line puzzle's cells, then the
//! variant's fields on the same line, so batch files hold variants one per
//! line (mixed freely with classic line puzzles).
//!
//! ```text
//! 1..............4 x cage=5:r1c2,r1c3   # a 4×4 X-sudoku with a killer cage
//! ```
//!
//! This module owns reading and writing that line ([`parse`], [`write()`],
//! [`write_fields`]) to and from a [`Rules`] and its cells. It knows
//! nothing of solving, of the classic reader's layouts and symbol sets (a
//! line without fields is left to it: [`parse`] answers `Ok(None)`), nor
//! of f-puzzles.
//!
//! # The line
//! The cells come first, one symbol each, `side²` of them (the side is the
//! square root of their number): `1`–`9` then `A`–`Z` then `a`–`z` are the
//! digits 1, 2, … (lower-case letters read as upper-case up to side 35);
//! `.`, `0`, `-` and `_` are empty cells. Then white space and fields
//! separated by white space; a `#` starts a comment. If the first token
//! after the cells is not a field, the line is no variant line (classic
//! readers ignore such trailing text).
//!
//! | field | meaning |
//! |---|---|
//! | `boxes=RxC` | boxes of R rows by C columns (default: [`classic_box`]) |
//! | `latin` | no boxes: rows and columns only |
//! | `jigsaw=<side² symbols>` | the piece of each cell (`1-9A-Za-z`, equal symbol = same piece) |
//! | `x` | both main diagonals |
//! | `windoku` | the four extra 3×3 windows (9×9) |
//! | `region=r1c1,r1c2,…` | one extra region (distinct digits) |
//! | `cage=SUM:r1c1,…` | killer cage (`cage=:cells`: no sum) |
//! | `thermo=r1c1,r1c2,…` | thermometer, bulb first |
//! | `anti-knight`, `anti-king`, `non-consecutive` | the pair rules |
//! | `samurai` | five overlapping 9×9 grids in a 21×21 frame ([`Rules::samurai`]) |
//!
//! With `samurai` the cells are the 21×21 frame row by row (441 symbols,
//! digits 1–9), the cells outside the five grids written `.`; the other
//! fields apply to every grid (`x`: each grid's diagonals). Cells are
//! `rRcC`, 1-based. Extra regions (`x`, `windoku`, `region=`)
//! are added in the order written, after the boxes or pieces, so a written
//! line reads back to equal [`Rules`].

use thiserror::Error;

use super::variant::{classic_box, Rules, RulesError};
use super::Size;

/// The symbols of digits `1, 2, …` in cells and of pieces in `jigsaw=`.
const ALPHABET: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The largest side a line writes (one symbol per digit).
pub const MAX_LINE_SIDE: usize = ALPHABET.len();

/// The fields a line may carry, by name.
const FIELD_NAMES: [&str; 12] = [
    "boxes",
    "latin",
    "jigsaw",
    "x",
    "windoku",
    "region",
    "cage",
    "thermo",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "samurai",
];

/// A puzzle read from a variant line: its rules and its cells
/// (`side²` digits, 0 empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantLine {
    /// The rules the fields state.
    pub rules: Rules,
    /// The cells, row-major, 0 for empty.
    pub cells: Vec<u8>,
}

/// Why a line with variant fields was refused. The messages are for a
/// person and name the bad part.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantLineError {
    /// The cells before the fields are wrong.
    #[error("the cells: {0}")]
    Cells(String),
    /// A token after the first field that is no field.
    #[error("`{0}` is not a variant field (fields: boxes=RxC, latin, jigsaw=…, x, windoku, region=…, cage=SUM:…, thermo=…, anti-knight, anti-king, non-consecutive, samurai)")]
    UnknownField(String),
    /// A field that is written wrong or states impossible rules.
    #[error("field `{field}`: {reason}")]
    Field {
        /// The field as written.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
}

fn field_error(field: &str, reason: impl Into<String>) -> VariantLineError {
    VariantLineError::Field {
        field: field.to_owned(),
        reason: reason.into(),
    }
}

/// The name of a field token (`cage` of `cage=10:r1c1,r1c2`).
fn field_name(token: &str) -> &str {
    token.split_once('=').map_or(token, |(name, _)| name)
}

/// Whether `token` names a variant field.
pub fn is_field(token: &str) -> bool {
    FIELD_NAMES.contains(&field_name(token))
}

/// The digit a cell symbol writes for `side` (0 empty), if any.
fn digit_of(symbol: char, side: usize) -> Option<u8> {
    if matches!(symbol, '.' | '0' | '-' | '_') {
        return Some(0);
    }
    let symbol = if side <= 35 {
        symbol.to_ascii_uppercase()
    } else {
        symbol
    };
    let at = ALPHABET.iter().position(|&b| b as char == symbol)?;
    (at < side).then_some(at as u8 + 1)
}

/// Reads a line. `Ok(None)`: the line has no variant fields (a classic
/// line puzzle, or no puzzle at all); otherwise the puzzle, or what is
/// wrong with it.
///
/// ```
/// use cover_models::sudoku::variant_line::{parse, write};
/// let line = "1234341221434321 latin x";
/// let read = parse(line).unwrap().unwrap();
/// assert_eq!(read.rules.regions().len(), 10);
/// assert_eq!(write(&read.rules, &read.cells), line);
/// assert_eq!(parse("53..7.... a comment").unwrap(), None);
/// ```
pub fn parse(line: &str) -> Result<Option<VariantLine>, VariantLineError> {
    let mut tokens = line.split_whitespace();
    let Some(cells_text) = tokens.next() else {
        return Ok(None);
    };
    let fields: Vec<&str> = tokens.take_while(|t| !t.starts_with('#')).collect();
    if fields.first().is_none_or(|first| !is_field(first)) {
        return Ok(None);
    }
    if let Some(unknown) = fields.iter().find(|f| !is_field(f)) {
        return Err(VariantLineError::UnknownField((*unknown).to_owned()));
    }
    let samurai = fields.iter().any(|f| field_name(f) == "samurai");
    let count = cells_text.chars().count();
    if samurai && count != 21 * 21 {
        return Err(VariantLineError::Cells(format!(
            "{count} symbols; samurai is the 21×21 frame, 441 symbols (`.` outside the five grids)"
        )));
    }
    let side = (1..=MAX_LINE_SIDE).find(|s| s * s >= count).unwrap_or(0);
    if side * side != count {
        return Err(VariantLineError::Cells(format!(
            "{count} symbols is not a square grid (a side of 1 to {MAX_LINE_SIDE}: 1, 4, 9, 16, …, {} symbols)",
            MAX_LINE_SIDE * MAX_LINE_SIDE
        )));
    }
    let digits = if samurai { 9 } else { side };
    let mut cells = Vec::with_capacity(count);
    for (at, symbol) in cells_text.chars().enumerate() {
        let digit = digit_of(symbol, digits).ok_or_else(|| {
            VariantLineError::Cells(format!(
                "{symbol:?} at r{}c{} is not a digit of a {side}×{side} grid ({}, and `.` or `0` for empty)",
                at / side + 1,
                at % side + 1,
                digit_range(digits)
            ))
        })?;
        cells.push(digit);
    }
    let rules = rules_of(side, &fields)?;
    if let Some(at) = (0..count).find(|&at| cells[at] != 0 && !rules.is_cell(at)) {
        return Err(VariantLineError::Cells(format!(
            "r{}c{} is outside the grids but holds a digit (write `.` there)",
            at / side + 1,
            at % side + 1
        )));
    }
    Ok(Some(VariantLine { rules, cells }))
}

/// The symbols of digits `1..=side`, in words.
fn digit_range(side: usize) -> String {
    let last = ALPHABET[side - 1] as char;
    match side {
        1 => "digit 1".to_owned(),
        2..=9 => format!("digits 1 to {last}"),
        _ => format!("digits 1 to 9 and A to {last}"),
    }
}

/// The rules the fields state: boxes, latin or jigsaw first, then the
/// rest in the order written.
fn rules_of(side: usize, fields: &[&str]) -> Result<Rules, VariantLineError> {
    let mut base: Option<(&str, Rules)> = None;
    for &field in fields {
        let (name, value) = field
            .split_once('=')
            .map_or((field, None), |(n, v)| (n, Some(v)));
        let rules = match name {
            "boxes" => {
                let value = value.ok_or_else(|| field_error(field, "write boxes=RxC"))?;
                let (rows, cols) = value
                    .split_once(['x', 'X'])
                    .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
                    .ok_or_else(|| {
                        field_error(field, "write boxes=RxC, R rows by C columns (boxes=2x3)")
                    })?;
                Rules::boxes(side, rows, cols).map_err(|e| field_error(field, e.to_string()))?
            }
            "latin" => {
                no_value(field, value)?;
                Rules::latin(side).map_err(|e| field_error(field, e.to_string()))?
            }
            "samurai" => {
                no_value(field, value)?;
                Rules::samurai()
            }
            "jigsaw" => {
                let value =
                    value.ok_or_else(|| field_error(field, "write jigsaw=<piece of each cell>"))?;
                let pieces = jigsaw_layout(side, value).map_err(|e| field_error(field, e))?;
                // Pieces are named by their symbols, not the model's numbers.
                let symbol = |piece: usize| ALPHABET[piece] as char;
                Rules::jigsaw(side, &pieces).map_err(|e| {
                    field_error(
                        field,
                        match e {
                            RulesError::PieceSize { piece, cells, side } => format!(
                                "piece `{}` has {cells} cells; every piece needs {side}",
                                symbol(piece)
                            ),
                            RulesError::PieceNotConnected(piece) => format!(
                                "piece `{}` is not connected (its cells must touch side by side)",
                                symbol(piece)
                            ),
                            other => other.to_string(),
                        },
                    )
                })?
            }
            _ => continue,
        };
        if let Some((earlier, _)) = base {
            return Err(field_error(
                field,
                format!("the grid's regions are already given by `{earlier}`"),
            ));
        }
        base = Some((field, rules));
    }
    let mut rules = match base {
        Some((_, rules)) => rules,
        None => {
            let (rows, cols) = classic_box(side).ok_or_else(|| {
                field_error(
                    fields[0],
                    format!("a {side}×{side} grid has no default boxes: add boxes=RxC, jigsaw=… or latin"),
                )
            })?;
            Rules::boxes(side, rows, cols).expect("the classic shapes tile their grids")
        }
    };
    // The base decides which cells are in the grids; extras keep it.
    let in_grids: Vec<bool> = (0..rules.cells()).map(|c| rules.is_cell(c)).collect();
    let mut flags_seen: Vec<&str> = Vec::new();
    for &field in fields {
        let (name, value) = field
            .split_once('=')
            .map_or((field, None), |(n, v)| (n, Some(v)));
        let cells_of = |text: Option<&str>| -> Result<Vec<usize>, VariantLineError> {
            let text = text.ok_or_else(|| field_error(field, "no cells (write r1c1,r1c2,…)"))?;
            let cells = cell_list(text, side).map_err(|e| field_error(field, e))?;
            match cells.iter().find(|&&cell| !in_grids[cell]) {
                Some(&cell) => Err(field_error(
                    field,
                    format!("{} is outside the grids", cell_name(cell, side)),
                )),
                None => Ok(cells),
            }
        };
        let rules_error = |e: RulesError| field_error(field, e.to_string());
        match name {
            "boxes" | "latin" | "jigsaw" | "samurai" => continue,
            "x" | "windoku" | "anti-knight" | "anti-king" | "non-consecutive" => {
                no_value(field, value)?;
                if flags_seen.contains(&name) {
                    return Err(field_error(field, "given twice"));
                }
                flags_seen.push(name);
                rules = match name {
                    "x" => rules.with_diagonals(),
                    "windoku" => rules.with_windows().map_err(rules_error)?,
                    "anti-knight" => rules.with_anti_knight(),
                    "anti-king" => rules.with_anti_king(),
                    _ => rules.with_non_consecutive(),
                };
            }
            "region" => rules = rules.with_region(&cells_of(value)?).map_err(rules_error)?,
            "thermo" => rules = rules.with_thermo(&cells_of(value)?).map_err(rules_error)?,
            "cage" => {
                let (sum, list) = value.and_then(|v| v.split_once(':')).ok_or_else(|| {
                    field_error(
                        field,
                        "write cage=SUM:r1c1,r1c2,… (or cage=:cells without a sum)",
                    )
                })?;
                let sum = match sum {
                    "" => None,
                    sum => Some(sum.parse::<u32>().map_err(|_| {
                        field_error(field, format!("the sum {sum:?} is not a number"))
                    })?),
                };
                rules = rules
                    .with_cage(&cells_of(Some(list))?, sum)
                    .map_err(rules_error)?;
            }
            _ => unreachable!("unknown and unsupported fields are refused before"),
        }
    }
    Ok(rules)
}

fn no_value(field: &str, value: Option<&str>) -> Result<(), VariantLineError> {
    match value {
        Some(_) => Err(field_error(field, "takes no value")),
        None => Ok(()),
    }
}

/// The piece number of each cell from `jigsaw=`'s symbols.
fn jigsaw_layout(side: usize, text: &str) -> Result<Vec<usize>, String> {
    let count = text.chars().count();
    if count != side * side {
        return Err(format!(
            "{count} symbols; a {side}×{side} grid needs one per cell ({})",
            side * side
        ));
    }
    text.chars()
        .enumerate()
        .map(|(at, symbol)| {
            ALPHABET
                .iter()
                .position(|&b| b as char == symbol)
                .ok_or_else(|| {
                    format!(
                        "{symbol:?} at r{}c{} is not a piece symbol (1-9, A-Z, a-z)",
                        at / side + 1,
                        at % side + 1
                    )
                })
        })
        .collect()
}

/// Cells `r1c1,r1c2,…` as numbers from 0, row-major; a cell twice is an
/// error.
fn cell_list(text: &str, side: usize) -> Result<Vec<usize>, String> {
    let mut cells = Vec::new();
    for name in text.split(',') {
        let cell = parse_cell(name, side).ok_or_else(|| {
            if name.is_empty() {
                "an empty cell name (write r1c1,r1c2,…)".to_owned()
            } else {
                format!("{name:?} is not a cell of a {side}×{side} grid (r1c1 to r{side}c{side})")
            }
        })?;
        if cells.contains(&cell) {
            return Err(format!("{name} twice"));
        }
        cells.push(cell);
    }
    Ok(cells)
}

fn parse_cell(name: &str, side: usize) -> Option<usize> {
    let lower = name.to_ascii_lowercase();
    let (row, col) = lower.strip_prefix('r')?.split_once('c')?;
    if !row.bytes().chain(col.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    ((1..=side).contains(&row) && (1..=side).contains(&col)).then(|| (row - 1) * side + col - 1)
}

fn cell_name(cell: usize, side: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

fn cell_names(cells: &[usize], side: usize) -> String {
    cells
        .iter()
        .map(|&c| cell_name(c, side))
        .collect::<Vec<_>>()
        .join(",")
}

/// The symbol of `digit` (1, 2, …) in a line: `1`–`9`, `A`–`Z`, `a`–`z`;
/// `.` for 0 (empty).
///
/// # Panics
/// For a digit above [`MAX_LINE_SIDE`].
pub fn symbol(digit: u8) -> char {
    match digit {
        0 => '.',
        d => ALPHABET[d as usize - 1] as char,
    }
}

/// The cells as a line writes them, without fields.
///
/// # Panics
/// For a digit above [`MAX_LINE_SIDE`].
pub fn write_cells(cells: &[u8]) -> String {
    cells.iter().map(|&d| symbol(d)).collect()
}

/// The line of `cells` (`side²` digits, 0 empty, written `.`) under
/// `rules`: the cells, then [`write_fields`]. For the classic rules of a
/// classic size there are no fields, and [`parse`] leaves the line to the
/// classic reader; for every other rules `parse(write(r, c))` gives back
/// `r` and `c`.
///
/// # Panics
/// When the side is above [`MAX_LINE_SIDE`] or `cells` is not `side²`
/// digits of the grid (a caller's mistake, not input).
pub fn write(rules: &Rules, cells: &[u8]) -> String {
    let side = rules.side();
    assert!(
        side <= MAX_LINE_SIDE,
        "a line writes sides up to {MAX_LINE_SIDE}"
    );
    assert_eq!(cells.len(), rules.cells(), "one digit per cell");
    let mut line = write_cells(cells);
    let fields = write_fields(rules);
    if !fields.is_empty() {
        line.push(' ');
        line.push_str(&fields);
    }
    line
}

/// The fields of `rules`, separated by a space; `""` for the classic rules
/// of a classic size (square boxes of a side 4, 9, 16, …, no extras).
///
/// # Panics
/// When the side is above [`MAX_LINE_SIDE`].
pub fn write_fields(rules: &Rules) -> String {
    fields(rules).join(" ")
}

/// The piece of each cell when the rules have boxes or jigsaw pieces (the
/// `side` regions after the rows and columns, as `boxes=` or `jigsaw=`
/// writes them), numbered from 0 in the order of the regions; `None` for
/// rows and columns only (`latin`).
pub fn pieces(rules: &Rules) -> Option<Vec<usize>> {
    let side = rules.side();
    if is_samurai(rules) {
        // Its boxes lie on the frame's 3×3 lattice; cells outside the
        // grids get a piece of their own.
        return Some(
            (0..rules.cells())
                .map(|cell| match rules.is_cell(cell) {
                    true => (cell / side / 3) * (side / 3) + cell % side / 3,
                    false => usize::MAX,
                })
                .collect(),
        );
    }
    base_of(rules)?;
    let mut piece = vec![0; rules.cells()];
    for (k, region) in rules.regions()[2 * side..3 * side].iter().enumerate() {
        for &cell in region {
            piece[cell] = k;
        }
    }
    Some(piece)
}

/// Whether `rules` are Samurai's grids (with or without extras).
fn is_samurai(rules: &Rules) -> bool {
    let samurai = Rules::samurai();
    rules.side() == samurai.side()
        && rules.grids() == samurai.grids()
        && rules.digits() == samurai.digits()
        && rules.regions().starts_with(samurai.regions())
}

/// The field that writes the boxes or pieces of `rules` (`""` for square
/// boxes of a classic size), or `None` when it has neither.
fn base_of(rules: &Rules) -> Option<String> {
    let side = rules.side();
    if !rules.grids().is_empty() {
        return None;
    }
    let block = rules.regions().get(2 * side..3 * side)?;
    let box_shape = (1..=side)
        .filter(|rows| side.is_multiple_of(*rows))
        .map(|rows| (rows, side / rows))
        .find(|&(rows, cols)| {
            Rules::boxes(side, rows, cols).is_ok_and(|b| &b.regions()[2 * side..] == block)
        });
    if let Some((rows, cols)) = box_shape {
        let square = Size::from_side(side).is_some_and(|s| s.box_side() == rows && rows == cols);
        return Some(if square {
            String::new()
        } else {
            format!("boxes={rows}x{cols}")
        });
    }
    jigsaw_of(side, block).map(|layout| format!("jigsaw={layout}"))
}

/// The fields of `rules`, one string each, in the order [`write_fields`]
/// writes them.
///
/// # Panics
/// When the side is above [`MAX_LINE_SIDE`].
pub fn fields(rules: &Rules) -> Vec<String> {
    let side = rules.side();
    assert!(
        side <= MAX_LINE_SIDE,
        "a line writes sides up to {MAX_LINE_SIDE}"
    );
    let regions = rules.regions();
    let mut fields: Vec<String> = Vec::new();
    // The extras' shapes depend on the grids only: a plain grid's are
    // those of its Latin square, Samurai's its own.
    let (template, mut next) = if is_samurai(rules) {
        fields.push("samurai".to_owned());
        let samurai = Rules::samurai();
        let count = samurai.regions().len();
        (Ok(samurai), count)
    } else {
        // Rows and columns are always the first 2·side regions.
        let mut next = 2 * side;
        match base_of(rules) {
            Some(base) => {
                if !base.is_empty() {
                    fields.push(base);
                }
                next += side;
            }
            None => fields.push("latin".to_owned()),
        }
        (Rules::latin(side), next)
    };
    let base_count = template.as_ref().map_or(0, |t| t.regions().len());
    let extra = |add: fn(Rules) -> Result<Rules, RulesError>| -> Option<Vec<Vec<usize>>> {
        let template = template.clone().ok()?;
        Some(add(template).ok()?.regions()[base_count..].to_vec())
    };
    let diagonals = extra(|r| Ok(r.with_diagonals())).filter(|d| !d.is_empty());
    let windows = extra(|r| r.with_windows()).filter(|w| !w.is_empty());
    while next < regions.len() {
        let rest = &regions[next..];
        if let Some(d) = &diagonals {
            if rest.starts_with(d) {
                fields.push("x".to_owned());
                next += d.len();
                continue;
            }
        }
        if let Some(w) = &windows {
            if rest.starts_with(w) {
                fields.push("windoku".to_owned());
                next += w.len();
                continue;
            }
        }
        fields.push(format!("region={}", cell_names(&rest[0], side)));
        next += 1;
    }
    for cage in rules.cages() {
        let sum = cage.sum.map_or(String::new(), |s| s.to_string());
        fields.push(format!("cage={sum}:{}", cell_names(&cage.cells, side)));
    }
    for thermo in rules.thermos() {
        fields.push(format!("thermo={}", cell_names(thermo, side)));
    }
    for (on, name) in [
        (rules.anti_knight(), "anti-knight"),
        (rules.anti_king(), "anti-king"),
        (rules.non_consecutive(), "non-consecutive"),
    ] {
        if on {
            fields.push(name.to_owned());
        }
    }
    fields
}

/// The `jigsaw=` symbols of `block` when it is exactly the pieces
/// [`Rules::jigsaw`] builds from them (so it reads back equal).
fn jigsaw_of(side: usize, block: &[Vec<usize>]) -> Option<String> {
    let mut layout = vec![usize::MAX; side * side];
    for (piece, cells) in block.iter().enumerate() {
        for &cell in cells {
            if layout.get(cell) != Some(&usize::MAX) {
                return None;
            }
            layout[cell] = piece;
        }
    }
    if layout.contains(&usize::MAX) {
        return None;
    }
    let rebuilt = Rules::jigsaw(side, &layout).ok()?;
    (&rebuilt.regions()[2 * side..] == block)
        .then(|| layout.iter().map(|&p| ALPHABET[p] as char).collect())
}

#[cfg(test)]
mod tests;
