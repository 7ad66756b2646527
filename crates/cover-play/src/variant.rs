//! Variants in the game: the rules of a variant puzzle as the page gets
//! them ([`Variant`], part of a game's JSON and sent back with every
//! request about that game), their translation to and from the rules
//! model ([`Rules`]), the repeated digits the server reports, and the
//! singles a hint falls back on where logic finds no step.
//!
//! It owns no solving (`cover_models::sudoku::variant` does) and no HTTP
//! (`routes`); [`crate::game`] calls it for games that carry a
//! variant.

use cover_models::sudoku::variant::{classic_box, Rules};
use serde::{Deserialize, Serialize};

use crate::game::GameError;

/// The largest side of a variant game: f-puzzles draws up to 16×16, and
/// the page writes 10 to 16 with the letters after 9.
pub const MAX_SIDE: usize = 16;

/// The smallest side of a variant game.
pub const MIN_SIDE: usize = 4;

/// The rules of a variant game beyond rows and columns: what the page
/// draws, judges conflicts by, and sends back with each request.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// A short name for people: `jigsaw`, `X`, `killer`, `jigsaw killer`,
    /// `classic` (a classic grid of a size the classic game has not,
    /// 6×6). Read back, it is ignored: the rules below are the variant.
    #[serde(default)]
    pub name: String,
    /// The piece of each cell (boxes or jigsaw pieces, numbered from 0 in
    /// the order of their first cell), `side²` numbers; absent for rows
    /// and columns only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<Vec<usize>>,
    /// Whether the pieces are the size's regular boxes (a jigsaw's are not).
    #[serde(default)]
    pub boxes: bool,
    /// The regions beyond rows, columns and pieces: no digit twice.
    #[serde(default)]
    pub extras: Vec<Extra>,
    /// Killer cages.
    #[serde(default)]
    pub cages: Vec<Cage>,
    /// Thermometers: cells from the bulb, digits strictly increasing.
    #[serde(default)]
    pub thermos: Vec<Vec<usize>>,
    /// Cells a knight's move apart differ.
    #[serde(default)]
    pub anti_knight: bool,
    /// Cells a king's move apart differ.
    #[serde(default)]
    pub anti_king: bool,
    /// Orthogonal neighbours are not consecutive.
    #[serde(default)]
    pub non_consecutive: bool,
}

/// An extra region and what it is, for drawing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extra {
    /// `diagonal` (a main diagonal), `window` (a windoku window) or
    /// `region` (any other).
    pub kind: String,
    /// Its cells.
    pub cells: Vec<usize>,
}

/// A killer cage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cage {
    /// Its cells.
    pub cells: Vec<usize>,
    /// Its sum, when stated.
    #[serde(default)]
    pub sum: Option<u32>,
}

impl Variant {
    /// The variant of `rules`, or None when they are the classic rules of
    /// a size the classic game plays (4×4, 9×9, 16×16, 25×25).
    pub fn of(rules: &Rules) -> Option<Variant> {
        let side = rules.side();
        if [4, 9, 16, 25].contains(&side) && *rules == Rules::classic(side) {
            return None;
        }
        let regions = rules.regions();
        let mut rest = &regions[(2 * side).min(regions.len())..];
        let pieces = partition(side, rest);
        if pieces.is_some() {
            rest = &rest[side..];
        }
        let boxes = pieces.is_some()
            && classic_box(side)
                .and_then(|(r, c)| Rules::boxes(side, r, c).ok())
                .is_some_and(|classic| {
                    classic.regions()[2 * side..3 * side] == regions[2 * side..3 * side]
                });
        let extras = rest
            .iter()
            .map(|cells| Extra {
                kind: extra_kind(side, cells).into(),
                cells: cells.clone(),
            })
            .collect();
        let mut variant = Variant {
            name: String::new(),
            pieces,
            boxes,
            extras,
            cages: rules
                .cages()
                .iter()
                .map(|c| Cage {
                    cells: c.cells.clone(),
                    sum: c.sum,
                })
                .collect(),
            thermos: rules.thermos().to_vec(),
            anti_knight: rules.anti_knight(),
            anti_king: rules.anti_king(),
            non_consecutive: rules.non_consecutive(),
        };
        variant.name = variant.describe();
        Some(variant)
    }

    /// The rules model of this variant on a `side`×`side` grid: rows,
    /// columns, pieces, extras (in this order: the hint's unit numbers
    /// follow it), cages, thermometers, pair rules.
    pub fn rules(&self, side: usize) -> Result<Rules, GameError> {
        let bad = |e: cover_models::sudoku::variant::RulesError| {
            GameError::BadRequest(format!("variant: {e}"))
        };
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(GameError::BadRequest(format!(
                "a variant game is {MIN_SIDE}×{MIN_SIDE} to {MAX_SIDE}×{MAX_SIDE}, not {side}×{side}"
            )));
        }
        // A grid has no use for more rules than cells; more would only
        // make the request's solver costly to build.
        let cells = side * side;
        if self.extras.len() + self.cages.len() + self.thermos.len() > cells {
            return Err(GameError::BadRequest(format!(
                "variant: more regions, cages and thermometers than the {cells} cells of the grid"
            )));
        }
        let mut rules = match &self.pieces {
            Some(pieces) => Rules::jigsaw(side, pieces).map_err(bad)?,
            None => Rules::latin(side).map_err(bad)?,
        };
        for extra in &self.extras {
            rules = rules.with_region(&extra.cells).map_err(bad)?;
        }
        for cage in &self.cages {
            rules = rules.with_cage(&cage.cells, cage.sum).map_err(bad)?;
        }
        for thermo in &self.thermos {
            rules = rules.with_thermo(thermo).map_err(bad)?;
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

    /// The variant's name: its kinds of rules, in words.
    fn describe(&self) -> String {
        let mut words = Vec::new();
        if self.pieces.is_some() && !self.boxes {
            words.push("jigsaw");
        }
        if self.pieces.is_none() {
            words.push("latin");
        }
        let has = |kind: &str| self.extras.iter().any(|e| e.kind == kind);
        if has("diagonal") {
            words.push("X");
        }
        if has("window") {
            words.push("windoku");
        }
        if has("region") {
            words.push("extra regions");
        }
        if !self.cages.is_empty() {
            words.push("killer");
        }
        if !self.thermos.is_empty() {
            words.push("thermo");
        }
        if self.anti_knight {
            words.push("anti-knight");
        }
        if self.anti_king {
            words.push("anti-king");
        }
        if self.non_consecutive {
            words.push("non-consecutive");
        }
        if words.is_empty() {
            "classic".into()
        } else {
            words.join(" ")
        }
    }
}

/// The piece numbers of `regions[..side]` when they are `side` regions of
/// `side` cells that cover the grid (boxes or jigsaw pieces).
fn partition(side: usize, regions: &[Vec<usize>]) -> Option<Vec<usize>> {
    let pieces = regions.get(..side)?;
    let mut piece_of = vec![usize::MAX; side * side];
    for (piece, cells) in pieces.iter().enumerate() {
        if cells.len() != side {
            return None;
        }
        for &cell in cells {
            if piece_of[cell] != usize::MAX {
                return None;
            }
            piece_of[cell] = piece;
        }
    }
    Some(piece_of)
}

/// What an extra region is, for drawing: a main diagonal, a windoku
/// window, or another region.
fn extra_kind(side: usize, cells: &[usize]) -> &'static str {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    let down: Vec<usize> = (0..side).map(|i| i * side + i).collect();
    let mut up: Vec<usize> = (0..side).map(|i| i * side + side - 1 - i).collect();
    up.sort_unstable();
    if sorted == down || sorted == up {
        return "diagonal";
    }
    if side == 9 {
        for top in [1, 5] {
            for left in [1, 5] {
                let window: Vec<usize> = (top..top + 3)
                    .flat_map(|r| (left..left + 3).map(move |c| r * 9 + c))
                    .collect();
                if sorted == window {
                    return "window";
                }
            }
        }
    }
    "region"
}

/// The symbols a variant game of `side` is shown in: 1–9, then letters.
pub fn symbols(side: usize) -> String {
    "123456789ABCDEFG".chars().take(side).collect()
}

/// The cells whose digit breaks a rule with another filled cell: repeated
/// in a region or cage, equal a knight's or king's move apart under those
/// rules, consecutive beside each other under non-consecutive; and the
/// cells of a full cage that misses its sum, and of a thermometer that
/// does not increase.
pub fn conflicts(rules: &Rules, cells: &[u8]) -> Vec<usize> {
    let mut clash = vec![false; cells.len()];
    let mut pair = |a: usize, b: usize, bad: bool| {
        if bad {
            clash[a] = true;
            clash[b] = true;
        }
    };
    let groups = rules
        .regions()
        .iter()
        .chain(rules.cages().iter().map(|c| &c.cells));
    for members in groups {
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                pair(a, b, cells[a] != 0 && cells[a] == cells[b]);
            }
        }
    }
    for (a, b) in rules.pair_rules() {
        pair(a, b, cells[a] != 0 && cells[a] == cells[b]);
    }
    if rules.non_consecutive() {
        for (a, b) in rules.neighbours() {
            pair(
                a,
                b,
                cells[a] != 0 && cells[b] != 0 && cells[a].abs_diff(cells[b]) == 1,
            );
        }
    }
    for thermo in rules.thermos() {
        for (i, &a) in thermo.iter().enumerate() {
            for &b in &thermo[i + 1..] {
                pair(a, b, cells[a] != 0 && cells[b] != 0 && cells[a] >= cells[b]);
            }
        }
    }
    for cage in rules.cages() {
        let full = cage.cells.iter().all(|&c| cells[c] != 0);
        let total: u32 = cage.cells.iter().map(|&c| u32::from(cells[c])).sum();
        if full && cage.sum.is_some_and(|sum| sum != total) {
            for &c in &cage.cells {
                clash[c] = true;
            }
        }
    }
    (0..cells.len()).filter(|&c| clash[c]).collect()
}

/// A step the variant hint found: a digit for a cell, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Single {
    /// The technique: `Naked single`, `Hidden single` or `Cage total`.
    pub technique: &'static str,
    /// The cell and its digit.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// The unit it is found in (the number of [`Rules::regions`], then
    /// the cages after them), if any.
    pub unit: Option<usize>,
    /// The cells of its pattern.
    pub cells: Vec<usize>,
}

/// The digits each cell may still take given the filled cells: those no
/// region, cage or pair rule forbids, within each thermometer's bounds
/// (as a mask, bit `d-1` for digit `d`; 0 for filled cells).
pub fn candidates(rules: &Rules, cells: &[u8]) -> Vec<u32> {
    let side = rules.side();
    let all: u32 = (1u32 << side) - 1;
    let mut mask: Vec<u32> = cells
        .iter()
        .map(|&d| if d == 0 { all } else { 0 })
        .collect();
    let bit = |d: u8| 1u32 << (d - 1);
    let groups = rules
        .regions()
        .iter()
        .chain(rules.cages().iter().map(|c| &c.cells));
    for members in groups {
        let used = members
            .iter()
            .filter(|&&c| cells[c] != 0)
            .fold(0, |m, &c| m | bit(cells[c]));
        for &c in members {
            mask[c] &= !used;
        }
    }
    for (a, b) in rules.pair_rules() {
        if cells[a] != 0 {
            mask[b] &= !bit(cells[a]);
        }
        if cells[b] != 0 {
            mask[a] &= !bit(cells[b]);
        }
    }
    if rules.non_consecutive() {
        for (a, b) in rules.neighbours() {
            for (from, to) in [(a, b), (b, a)] {
                let d = cells[from];
                if d != 0 {
                    if d > 1 {
                        mask[to] &= !bit(d - 1);
                    }
                    if (d as usize) < side {
                        mask[to] &= !bit(d + 1);
                    }
                }
            }
        }
    }
    for thermo in rules.thermos() {
        for (i, &c) in thermo.iter().enumerate() {
            // Digit bounds from the bulb's side and the tip's.
            let low = thermo[..i]
                .iter()
                .enumerate()
                .filter(|&(_, &p)| cells[p] != 0)
                .map(|(j, &p)| cells[p] as usize + (i - j))
                .max()
                .unwrap_or(i + 1);
            let high = thermo[i + 1..]
                .iter()
                .enumerate()
                .filter(|&(_, &p)| cells[p] != 0)
                .map(|(j, &p)| (cells[p] as usize).saturating_sub(j + 1))
                .min()
                .unwrap_or(side - (thermo.len() - 1 - i));
            for d in 1..=side {
                if d < low || d > high {
                    mask[c] &= !(1 << (d - 1));
                }
            }
        }
    }
    mask
}

/// The first single the filled cells give: a cage with one cell left and
/// a sum, a cell with one candidate, or a digit with one place in a full
/// region.
pub fn single(rules: &Rules, cells: &[u8]) -> Option<Single> {
    let side = rules.side();
    let mask = candidates(rules, cells);
    let regions = rules.regions().len();
    for (k, cage) in rules.cages().iter().enumerate() {
        let empty: Vec<usize> = cage
            .cells
            .iter()
            .copied()
            .filter(|&c| cells[c] == 0)
            .collect();
        let (Some(sum), [cell]) = (cage.sum, empty.as_slice()) else {
            continue;
        };
        let placed: u32 = cage.cells.iter().map(|&c| u32::from(cells[c])).sum();
        let Some(digit) = sum
            .checked_sub(placed)
            .filter(|&d| d >= 1 && d as usize <= side)
        else {
            continue;
        };
        return Some(Single {
            technique: "Cage total",
            cell: *cell,
            digit: digit as u8,
            unit: Some(regions + k),
            cells: cage.cells.clone(),
        });
    }
    for (cell, &m) in mask.iter().enumerate() {
        if cells[cell] == 0 && m.count_ones() == 1 {
            return Some(Single {
                technique: "Naked single",
                cell,
                digit: m.trailing_zeros() as u8 + 1,
                unit: None,
                cells: vec![cell],
            });
        }
    }
    for (u, members) in rules.regions().iter().enumerate() {
        if members.len() != side {
            continue;
        }
        for d in 1..=side as u8 {
            if members.iter().any(|&c| cells[c] == d) {
                continue;
            }
            let places: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&c| mask[c] & (1 << (d - 1)) != 0)
                .collect();
            if let [cell] = places.as_slice() {
                return Some(Single {
                    technique: "Hidden single",
                    cell: *cell,
                    digit: d,
                    unit: Some(u),
                    cells: members.clone(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_goes_to_rules_and_back() {
        let pieces: Vec<usize> = (0..16).map(|c| [0, 0, 1, 1][c % 4] + 2 * (c / 8)).collect();
        let rules = Rules::jigsaw(4, &pieces)
            .unwrap()
            .with_diagonals()
            .with_cage(&[0, 1], Some(3))
            .unwrap()
            .with_anti_king();
        let variant = Variant::of(&rules).unwrap();
        assert_eq!(variant.rules(4).unwrap(), rules);
        assert!(variant.boxes, "these pieces are the 2×2 boxes");
        assert_eq!(variant.extras[0].kind, "diagonal");
        assert_eq!(variant.name, "X killer anti-king");
        assert_eq!(Variant::of(&Rules::classic(9)), None);
        let jigsaw: Vec<usize> = (0..16).map(|c| c / 4).collect();
        assert_eq!(
            Variant::of(&Rules::jigsaw(4, &jigsaw).unwrap())
                .unwrap()
                .name,
            "jigsaw"
        );
    }

    #[test]
    fn conflicts_cover_cages_pairs_and_sums() {
        let rules = Rules::classic(4)
            .with_cage(&[0, 5], Some(3))
            .unwrap()
            .with_anti_knight();
        let mut cells = vec![0u8; 16];
        cells[0] = 2;
        cells[5] = 2;
        assert_eq!(conflicts(&rules, &cells), vec![0, 5], "repeat in a cage");
        cells[5] = 3;
        assert_eq!(conflicts(&rules, &cells), vec![0, 5], "the sum missed");
        cells[5] = 1;
        assert!(conflicts(&rules, &cells).is_empty());
        cells[6] = 2;
        // r1c1 and r2c3 are a knight's move apart.
        assert_eq!(conflicts(&rules, &cells), vec![0, 6]);
    }

    #[test]
    fn a_cage_with_one_cell_left_gives_its_digit() {
        let rules = Rules::classic(4).with_cage(&[0, 1], Some(7)).unwrap();
        let mut cells = vec![0u8; 16];
        cells[0] = 3;
        let step = single(&rules, &cells).unwrap();
        assert_eq!(
            (step.technique, step.cell, step.digit),
            ("Cage total", 1, 4)
        );
    }
}
