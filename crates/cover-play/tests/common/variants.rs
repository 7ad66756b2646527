//! Variant puzzles for the tests, with their rules spelled out for
//! `cover-check`'s variant checker and brute force (which trust nothing of
//! the server's): a 6×6 killer given as f-puzzles JSON, and a 9×9 jigsaw.

use cover_check::variant::{check_variant_solution, count_variant_brute, VariantRules};
use serde_json::{json, Value};

/// A 6×6 killer (2×3 boxes) with two givens: one solution.
pub const KILLER6_GIVENS: &str = "3........................3..........";

/// Its cages: sum, cells.
pub const KILLER6_CAGES: [(u32, &[usize]); 18] = [
    (7, &[12, 13]),
    (12, &[14, 19, 20]),
    (7, &[1, 2]),
    (10, &[21, 27, 28]),
    (10, &[33, 34, 35]),
    (9, &[22, 23]),
    (10, &[11, 17]),
    (9, &[30, 31]),
    (10, &[9, 15, 16]),
    (7, &[7, 8]),
    (3, &[4, 10]),
    (7, &[0, 6]),
    (9, &[24, 25]),
    (5, &[5]),
    (4, &[3]),
    (3, &[26, 32]),
    (2, &[18]),
    (2, &[29]),
];

/// A 9×9 jigsaw: the givens, and the piece of each cell (1–9).
pub const JIGSAW9_GIVENS: &str =
    "8..5.623...134.9.5.....48..3..1..4.......5.814....87.39..8...67...4.932..367..5..";
pub const JIGSAW9_PIECES: &str =
    "411122333411552333411552333415552669414522669444522699877777699878877669888887699";

/// Digits of a line of `1-9` and `.`.
pub fn digits(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

fn name(cell: usize, side: usize) -> String {
    format!("R{}C{}", cell / side + 1, cell % side + 1)
}

/// f-puzzles' grid of `givens` (and the region of each cell, when given).
fn fpuzzles_grid(side: usize, givens: &[u8], pieces: Option<&[u8]>) -> Value {
    let rows: Vec<Value> = (0..side)
        .map(|r| {
            let cells: Vec<Value> = (0..side)
                .map(|c| {
                    let at = r * side + c;
                    let mut cell = serde_json::Map::new();
                    if givens[at] != 0 {
                        cell.insert("value".into(), json!(givens[at]));
                        cell.insert("given".into(), json!(true));
                    }
                    if let Some(pieces) = pieces {
                        cell.insert("region".into(), json!(pieces[at] - 1));
                    }
                    Value::Object(cell)
                })
                .collect();
            Value::Array(cells)
        })
        .collect();
    Value::Array(rows)
}

/// The killer as f-puzzles JSON.
pub fn killer6_json() -> String {
    let cages: Vec<Value> = KILLER6_CAGES
        .iter()
        .map(|(sum, cells)| {
            let names: Vec<String> = cells.iter().map(|&c| name(c, 6)).collect();
            json!({"cells": names, "value": sum.to_string()})
        })
        .collect();
    json!({
        "size": 6,
        "title": "a test killer",
        "grid": fpuzzles_grid(6, &digits(KILLER6_GIVENS), None),
        "killercage": cages,
    })
    .to_string()
}

/// The killer's rules for the checker.
pub fn killer6_rules() -> VariantRules {
    let mut rules = VariantRules::classic(6, 2, 3);
    rules.cages = KILLER6_CAGES
        .iter()
        .map(|(sum, cells)| (cells.to_vec(), Some(*sum)))
        .collect();
    rules
}

/// The jigsaw's pieces, numbered 1–9.
pub fn jigsaw9_pieces() -> Vec<u8> {
    digits(JIGSAW9_PIECES)
}

/// The jigsaw as f-puzzles JSON.
pub fn jigsaw9_json() -> String {
    json!({
        "size": 9,
        "grid": fpuzzles_grid(9, &digits(JIGSAW9_GIVENS), Some(&jigsaw9_pieces())),
    })
    .to_string()
}

/// The jigsaw's rules for the checker.
pub fn jigsaw9_rules() -> VariantRules {
    let mut rules = VariantRules::classic(9, 0, 0);
    let pieces = jigsaw9_pieces();
    for piece in 1..=9u8 {
        rules
            .regions
            .push((0..81).filter(|&c| pieces[c] == piece).collect());
    }
    rules
}

/// The one solution of `givens` under `rules`, by the checker's brute
/// force (which must find exactly one), checked.
pub fn brute_solution(rules: &VariantRules, givens: &[u8]) -> Vec<u8> {
    assert_eq!(count_variant_brute(rules, givens, 2), 1, "one solution");
    let solution = cover_check::variant::first_variant_brute(rules, givens).unwrap();
    check_variant_solution(rules, givens, &solution).unwrap();
    solution
}

/// A 9×9 X-windoku (both diagonals and the four windows) with a
/// thermometer up the first column: one solution.
pub const XW9_GIVENS: &str =
    "68.....2..71....69..39...7..4....2..75....1.3.98.32..58.4..3..29...4871.2671...34";
/// Its thermometer, bulb first: r4c1 up to r1c1.
pub const XW9_THERMO: [usize; 4] = [27, 18, 9, 0];

/// The four windows of windoku.
fn windows() -> Vec<Vec<usize>> {
    [1, 5]
        .iter()
        .flat_map(|&top| {
            [1, 5].map(|left| {
                (top..top + 3)
                    .flat_map(|r| (left..left + 3).map(move |c| r * 9 + c))
                    .collect()
            })
        })
        .collect()
}

/// The X-windoku as f-puzzles JSON.
pub fn xw9_json() -> String {
    let names = |cells: &[usize]| -> Vec<String> { cells.iter().map(|&c| name(c, 9)).collect() };
    let regions: Vec<Value> = windows()
        .iter()
        .map(|cells| json!({ "cells": names(cells) }))
        .collect();
    json!({
        "size": 9,
        "grid": fpuzzles_grid(9, &digits(XW9_GIVENS), None),
        "diagonal+": true,
        "diagonal-": true,
        "extraregion": regions,
        "thermometer": [{ "lines": [names(&XW9_THERMO)] }],
    })
    .to_string()
}

/// The X-windoku's rules for the checker.
pub fn xw9_rules() -> VariantRules {
    let mut rules = VariantRules::classic(9, 3, 3);
    rules.regions.push((0..9).map(|i| i * 9 + i).collect());
    rules.regions.push((0..9).map(|i| i * 9 + 8 - i).collect());
    rules.regions.extend(windows());
    rules.thermos.push(XW9_THERMO.to_vec());
    rules
}

/// The rules a game's `variant` JSON states, for the checker: rows and
/// columns, its pieces, extra regions, cages, thermometers and pair rules
/// (a grid of `side`).
pub fn rules_of_game(variant: &Value, side: usize) -> VariantRules {
    let cells = |value: &Value| -> Vec<usize> {
        value
            .as_array()
            .expect("a list of cells")
            .iter()
            .map(|c| c.as_u64().expect("a cell") as usize)
            .collect()
    };
    let mut rules = VariantRules::classic(side, 0, 0);
    if let Some(pieces) = variant["pieces"].as_array() {
        let piece: Vec<u64> = pieces.iter().map(|p| p.as_u64().unwrap()).collect();
        for p in 0..side as u64 {
            rules
                .regions
                .push((0..side * side).filter(|&c| piece[c] == p).collect());
        }
    }
    for extra in variant["extras"].as_array().unwrap() {
        rules.regions.push(cells(&extra["cells"]));
    }
    for cage in variant["cages"].as_array().unwrap() {
        let sum = cage["sum"].as_u64().map(|s| s as u32);
        rules.cages.push((cells(&cage["cells"]), sum));
    }
    for thermo in variant["thermos"].as_array().unwrap() {
        rules.thermos.push(cells(thermo));
    }
    rules.anti_knight = variant["anti_knight"] == true;
    rules.anti_king = variant["anti_king"] == true;
    rules.non_consecutive = variant["non_consecutive"] == true;
    rules
}
