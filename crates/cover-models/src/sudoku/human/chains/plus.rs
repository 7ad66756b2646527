//! The set-based rules Dynamic Forcing Chains (+) run on a hypothetical
//! grid when the direct links are spent, in Sudoku Explainer's order:
//! locked candidates, hidden pairs, naked pairs, X-Wings. Each elimination
//! comes with its rule parents: the candidates the assumption took out
//! that the pattern needs gone (a pattern the real grid already had needs
//! none, and is skipped: the simpler technique would have taken it).

use crate::sudoku::logic::Geometry;

use super::links::cand_of;

/// An elimination, the removed candidates it rests on, and the complexity
/// of the nested chain that found it (0 for a set-based rule).
pub(super) type Deduction = (u32, Vec<u32>, usize);

/// A rule: pushes its eliminations on `masks` against `source`.
type Rule = fn(&Geometry, &[u64], &[u64], &mut Vec<Deduction>);

/// The eliminations of the first rule that finds any on `masks` (the
/// hypothetical grid), `source` being the grid before the assumption.
pub(super) fn deductions(
    geometry: &Geometry,
    source: &[u64],
    masks: &[u64],
    out: &mut Vec<Deduction>,
) {
    let rules: [Rule; 4] = [locking, hidden_pairs, naked_pairs, x_wings];
    for rule in rules {
        rule(geometry, source, masks, out);
        if !out.is_empty() {
            return;
        }
    }
}

/// Where `digit` is in `unit` on `masks`: bit `i` for its `i`th cell.
fn places(geometry: &Geometry, masks: &[u64], unit: usize, digit: u8) -> u64 {
    let bit = 1u64 << (digit - 1);
    geometry
        .unit_cells(unit)
        .iter()
        .enumerate()
        .filter(|(_, &c)| masks[usize::from(c)] & bit != 0)
        .fold(0, |m, (i, _)| m | 1 << i)
}

fn in_unit(geometry: &Geometry, cell: usize, unit: usize) -> bool {
    if geometry.is_classic() {
        geometry.cell_units(cell).contains(&unit)
    } else {
        geometry.in_unit(cell, unit)
    }
}

/// The units in the order Sudoku Explainer scans them: boxes (and a
/// variant's other regions), rows, columns.
fn scan_order(geometry: &Geometry) -> impl Iterator<Item = usize> {
    let s = geometry.side();
    (2 * s..geometry.units()).chain(0..2 * s)
}

/// Pointing and claiming: a digit confined to the intersection of `base`
/// and another unit leaves the rest of that unit.
fn locking(geometry: &Geometry, source: &[u64], masks: &[u64], out: &mut Vec<Deduction>) {
    let side = geometry.side();
    for digit in 1..=side as u8 {
        let bit = 1u64 << (digit - 1);
        for base in scan_order(geometry) {
            let cells = geometry.unit_cells(base);
            let present: Vec<usize> = cells
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| masks[c] & bit != 0)
                .collect();
            if present.len() < 2 {
                continue;
            }
            // A classic cell's box, row and column (SE's order); a variant
            // cell's every unit.
            let classic_units;
            let variant_units: Vec<usize>;
            let covers: &[usize] = if geometry.is_classic() {
                let [r, c, b] = geometry.cell_units(present[0]);
                classic_units = [b, r, c];
                &classic_units
            } else {
                variant_units = geometry
                    .units_of(present[0])
                    .iter()
                    .map(|&u| usize::from(u))
                    .collect();
                &variant_units
            };
            for &cover in covers {
                if cover == base || !present.iter().all(|&p| in_unit(geometry, p, cover)) {
                    continue;
                }
                let parents: Vec<u32> = cells
                    .iter()
                    .map(|&x| usize::from(x))
                    .filter(|&x| source[x] & bit != 0 && masks[x] & bit == 0)
                    .filter(|&x| !in_unit(geometry, x, cover))
                    .map(|x| cand_of(x, digit, side))
                    .collect();
                if parents.is_empty() {
                    continue;
                }
                for &x in geometry.unit_cells(cover) {
                    let x = usize::from(x);
                    if masks[x] & bit != 0 && !in_unit(geometry, x, base) {
                        out.push((cand_of(x, digit, side), parents.clone(), 0));
                    }
                }
            }
        }
    }
}

/// Two digits with the same two places in a unit take the other digits of
/// those cells.
fn hidden_pairs(geometry: &Geometry, source: &[u64], masks: &[u64], out: &mut Vec<Deduction>) {
    let side = geometry.side();
    for unit in scan_order(geometry) {
        let cells = geometry.unit_cells(unit);
        let pos: Vec<u64> = (1..=side as u8)
            .map(|d| places(geometry, masks, unit, d))
            .collect();
        for a in 0..side {
            for b in a + 1..side {
                let both = pos[a] | pos[b];
                if pos[a] == 0 || pos[b] == 0 || both.count_ones() != 2 {
                    continue;
                }
                let pair = (1u64 << a) | (1u64 << b);
                let mut parents = Vec::new();
                for (i, &x) in cells.iter().enumerate() {
                    let x = usize::from(x);
                    if both >> i & 1 == 0 {
                        for d in [a, b] {
                            if source[x] >> d & 1 == 1 {
                                parents.push(cand_of(x, d as u8 + 1, side));
                            }
                        }
                    }
                }
                if parents.is_empty() {
                    continue;
                }
                for (i, &x) in cells.iter().enumerate() {
                    let x = usize::from(x);
                    if both >> i & 1 == 1 {
                        push_digits(out, x, masks[x] & !pair, side, &parents);
                    }
                }
            }
        }
    }
}

/// Two cells of a unit left with the same two digits take them from the
/// unit's other cells.
fn naked_pairs(geometry: &Geometry, source: &[u64], masks: &[u64], out: &mut Vec<Deduction>) {
    let side = geometry.side();
    for unit in scan_order(geometry) {
        let cells = geometry.unit_cells(unit);
        for (i, &x) in cells.iter().enumerate() {
            let x = usize::from(x);
            if masks[x] == 0 || masks[x].count_ones() > 2 {
                continue;
            }
            for &y in &cells[i + 1..] {
                let y = usize::from(y);
                let pair = masks[x] | masks[y];
                if masks[y] == 0 || pair.count_ones() != 2 {
                    continue;
                }
                let mut parents = Vec::new();
                for z in [x, y] {
                    push_digits_into(&mut parents, z, source[z] & !pair, side);
                }
                if parents.is_empty() {
                    continue;
                }
                for &z in cells {
                    let z = usize::from(z);
                    if z != x && z != y {
                        push_digits(out, z, masks[z] & pair, side, &parents);
                    }
                }
            }
        }
    }
}

/// A digit with its places in two rows (columns) on the same two columns
/// (rows) leaves those columns (rows) elsewhere.
fn x_wings(geometry: &Geometry, source: &[u64], masks: &[u64], out: &mut Vec<Deduction>) {
    let side = geometry.side();
    for digit in 1..=side as u8 {
        let bit = 1u64 << (digit - 1);
        for (bases, covers) in [(0, side), (side, 0)] {
            let pos: Vec<u64> = (0..side)
                .map(|i| places(geometry, masks, bases + i, digit))
                .collect();
            for a in 0..side {
                for b in a + 1..side {
                    let both = pos[a] | pos[b];
                    if pos[a].count_ones() != 2
                        || pos[b].count_ones() != 2
                        || both.count_ones() != 2
                    {
                        continue;
                    }
                    let mut parents = Vec::new();
                    for base in [bases + a, bases + b] {
                        for (i, &x) in geometry.unit_cells(base).iter().enumerate() {
                            let x = usize::from(x);
                            if both >> i & 1 == 0 && source[x] & bit != 0 {
                                parents.push(cand_of(x, digit, side));
                            }
                        }
                    }
                    if parents.is_empty() {
                        continue;
                    }
                    for i in 0..side {
                        if both >> i & 1 == 0 {
                            continue;
                        }
                        for (j, &x) in geometry.unit_cells(covers + i).iter().enumerate() {
                            let x = usize::from(x);
                            if j != a && j != b && masks[x] & bit != 0 {
                                out.push((cand_of(x, digit, side), parents.clone(), 0));
                            }
                        }
                    }
                }
            }
        }
    }
}

fn push_digits_into(into: &mut Vec<u32>, cell: usize, mut digits: u64, side: usize) {
    while digits != 0 {
        let d = digits.trailing_zeros() as u8 + 1;
        digits &= digits - 1;
        into.push(cand_of(cell, d, side));
    }
}

fn push_digits(
    out: &mut Vec<Deduction>,
    cell: usize,
    mut digits: u64,
    side: usize,
    parents: &[u32],
) {
    while digits != 0 {
        let d = digits.trailing_zeros() as u8 + 1;
        digits &= digits - 1;
        out.push((cand_of(cell, d, side), parents.to_vec(), 0));
    }
}
