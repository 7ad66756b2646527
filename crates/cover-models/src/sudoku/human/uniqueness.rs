//! Uniqueness: patterns that would give a puzzle two solutions, so on a
//! puzzle with one solution some candidate must keep them from forming.
//! Unique Rectangles and Loops (a loop of cells on two digits, types 1 to
//! 4) and the Bivalue Universal Grave (BUG, types 1 to 4), found and valued
//! as Sudoku Explainer does.

use crate::sudoku::logic::Geometry;

use super::board::Board;
use super::solver::{bits, subsets};
use super::step::{Candidate, Step, Technique};

/// Unit kinds in the order SE walks a cell's units for loops and BUGs:
/// box, row, column (indices into [`Geometry::cell_units`](crate::sudoku::logic::Geometry::cell_units)).
const BOX_ROW_COLUMN: [usize; 3] = [2, 0, 1];

/// Unique Rectangles and Loops, types 1 to 4: 4.5 for a rectangle, 4.6
/// for a loop of 6 cells, 4.7 of 8, 5.0 of 10 or more; type 3 adds 0.1
/// for each cell past the first of its naked or hidden set.
///
/// As in SE: from each cell with exactly two candidates, every loop of
/// cells holding both, turning at each cell to a unit of another kind,
/// with at most two cells holding more (or any number holding the same
/// one more digit); a loop is kept when the units of its even cells and of
/// its odd cells are the same, each met once. All findings are pushed,
/// the easiest first (SE sorts them by value, then type).
pub(super) fn unique_loops(board: &Board, out: &mut Vec<Step>) {
    let mut found: Vec<(Step, u8, Vec<usize>)> = Vec::new();
    let cells = board.side() * board.side();
    let mut search = LoopSearch {
        board,
        pair: 0,
        path: Vec::new(),
        parities: vec![0; board.geometry().units()],
        loops: Vec::new(),
    };
    for start in 0..cells {
        let pair = board.candidates(start);
        if pair.count_ones() != 2 {
            continue;
        }
        search.pair = pair;
        search.extend(start, 2, 0, None);
        for ring in std::mem::take(&mut search.loops) {
            if !is_valid_loop(board, &ring) {
                continue;
            }
            for (step, kind) in loop_steps(board, &ring, pair) {
                // SE keeps one finding of each kind per loop.
                let same = |(s, k, r): &(Step, u8, Vec<usize>)| {
                    *k == kind && s.technique == step.technique && same_cells(r, &ring)
                };
                if !found.iter().any(same) {
                    found.push((step, kind, ring.clone()));
                }
            }
        }
    }
    found.retain(|(s, _, _)| !s.eliminations.is_empty());
    // Stable: the first found stays first among equals.
    found.sort_by_key(|(s, kind, _)| (s.rating, type_number(*kind)));
    out.extend(found.into_iter().map(|(s, _, _)| s));
}

/// Finding kinds: types 1, 2, 3 naked, 3 hidden and 4.
const TYPE_1: u8 = 1;
const TYPE_2: u8 = 2;
const TYPE_3_NAKED: u8 = 3;
const TYPE_3_HIDDEN: u8 = 5;
const TYPE_4: u8 = 4;

fn type_number(kind: u8) -> u8 {
    if kind == TYPE_3_HIDDEN {
        TYPE_3_NAKED
    } else {
        kind
    }
}

fn same_cells(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && a.iter().all(|c| b.contains(c))
}

/// The depth-first walk for loops through one start cell.
struct LoopSearch<'b, 'g> {
    board: &'b Board<'g>,
    pair: u64,
    path: Vec<usize>,
    /// For each unit, whether a cell at an even (bit 0) or odd (bit 1)
    /// place of the path lies in it: a valid loop meets each unit once
    /// at each parity, so a path meeting one twice at a parity leads to
    /// no valid loop and SE's search may skip it without changing what
    /// it keeps.
    parities: Vec<u8>,
    loops: Vec<Vec<usize>>,
}

impl LoopSearch<'_, '_> {
    /// Adds `cell` to the path and walks on through its units of another
    /// kind than the last step's; `spare` cells with extra digits are
    /// still allowed (it may go below zero while the extras are one digit).
    fn extend(&mut self, cell: usize, spare: i32, extra: u64, last_kind: Option<usize>) {
        let geometry = self.board.geometry();
        let parity = 1u8 << (self.path.len() % 2);
        for unit in geometry.cell_units(cell) {
            self.parities[unit] |= parity;
        }
        self.path.push(cell);
        // The parity bit of the next place.
        let next_parity = 1u8 << (self.path.len() % 2);
        for kind in BOX_ROW_COLUMN {
            if Some(kind) == last_kind {
                continue;
            }
            let unit = geometry.cell_units(cell)[kind];
            for &next in geometry.unit_cells(unit) {
                let next = usize::from(next);
                if next == self.path[0] && self.path.len() >= 4 {
                    self.loops.push(self.path.clone());
                } else if !self.path.contains(&next) {
                    let candidates = self.board.candidates(next);
                    if candidates & self.pair != self.pair
                        || geometry
                            .cell_units(next)
                            .iter()
                            .any(|&u| self.parities[u] & next_parity != 0)
                    {
                        continue;
                    }
                    let extra = (extra | candidates) & !self.pair;
                    let more = candidates.count_ones() > 2;
                    if !more || extra.count_ones() == 1 || spare > 0 {
                        self.extend(next, spare - i32::from(more), extra, Some(kind));
                    }
                }
            }
        }
        self.path.pop();
        for unit in geometry.cell_units(cell) {
            self.parities[unit] &= !parity;
        }
    }
}

/// Whether the units of the loop's even cells are those of its odd cells,
/// each met once on either side.
fn is_valid_loop(board: &Board, ring: &[usize]) -> bool {
    let geometry = board.geometry();
    let mut sides: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for (i, &cell) in ring.iter().enumerate() {
        for unit in geometry.cell_units(cell) {
            if sides[i % 2].contains(&unit) {
                return false;
            }
            sides[i % 2].push(unit);
        }
    }
    let [mut even, mut odd] = sides;
    even.sort_unstable();
    odd.sort_unstable();
    even == odd
}

/// The findings on one valid loop, in SE's order, each with its kind.
fn loop_steps(board: &Board, ring: &[usize], pair: u64) -> Vec<(Step, u8)> {
    let extra_cells: Vec<usize> = ring
        .iter()
        .copied()
        .filter(|&c| board.candidates(c).count_ones() > 2)
        .collect();
    let mut steps = Vec::new();
    match extra_cells.len() {
        1 => {
            let cell = extra_cells[0];
            let mut step = loop_step(board, ring, pair, 0);
            step.eliminations = bits(pair)
                .map(|b| Candidate::new(cell, b as u8 + 1))
                .collect();
            steps.push((step, TYPE_1));
        }
        2 => {
            let (c1, c2) = (extra_cells[0], extra_cells[1]);
            let extra = (board.candidates(c1) | board.candidates(c2)) & !pair;
            if extra.count_ones() == 1 {
                steps.push((type_2(board, ring, pair, &extra_cells), TYPE_2));
            } else if extra.count_ones() >= 2 {
                steps.extend(type_3(board, ring, pair, c1, c2, extra));
            }
            if let Some(step) = type_4(board, ring, pair, c1, c2) {
                steps.push((step, TYPE_4));
            }
        }
        0 => {}
        _ => steps.push((type_2(board, ring, pair, &extra_cells), TYPE_2)),
    }
    steps
}

/// A loop's step without its removals: technique, value and pattern.
fn loop_step(board: &Board, ring: &[usize], pair: u64, added: u16) -> Step {
    let technique = if ring.len() == 4 {
        Technique::UniqueRectangle
    } else {
        Technique::UniqueLoop
    };
    let length_bonus = match ring.len() {
        4 => 0,
        6 => 1,
        8 => 2,
        _ => 5,
    };
    let mut step = Step::new(technique, 45 + length_bonus + added);
    step.pattern.cells = ring.iter().map(|&c| c as u16).collect();
    step.pattern.digits = pair;
    for &cell in ring {
        for b in bits(board.candidates(cell) & pair) {
            step.pattern
                .candidates
                .push(Candidate::new(cell, b as u8 + 1));
        }
    }
    step
}

/// Type 2: the loop's cells with more than its two digits share one extra
/// digit, so one of them holds it: it goes from every cell seeing them all.
fn type_2(board: &Board, ring: &[usize], pair: u64, extra_cells: &[usize]) -> Step {
    let extra = board.candidates(extra_cells[0]) & !pair;
    let digit = extra.trailing_zeros() as u8 + 1;
    let mut step = loop_step(board, ring, pair, 0);
    step.pattern.digits |= extra;
    step.eliminations = seen_by_all(board, extra_cells, digit)
        .map(|c| Candidate::new(c, digit))
        .collect();
    step
}

/// The cells holding `digit` that see every one of `cells` (none of them).
fn seen_by_all<'a>(
    board: &'a Board,
    cells: &'a [usize],
    digit: u8,
) -> impl Iterator<Item = usize> + 'a {
    let geometry = board.geometry();
    geometry
        .peers(cells[0])
        .iter()
        .map(|&c| usize::from(c))
        .filter(move |&c| {
            board.has(c, digit) && cells.iter().all(|&o| o != c && geometry.sees(o, c))
        })
}

/// Type 3: the two extra cells act as one cell holding their extra digits,
/// which with other cells of a unit they share forms a naked set (its
/// digits go from the unit's other cells), or with their loop digits a
/// hidden set (its cells lose their other digits); per loop SE keeps the
/// first of each, smallest first.
fn type_3(
    board: &Board,
    ring: &[usize],
    pair: u64,
    c1: usize,
    c2: usize,
    extra: u64,
) -> Vec<(Step, u8)> {
    let geometry = board.geometry();
    let side = board.side();
    let mut found = Vec::new();
    let (mut naked_found, mut hidden_found) = (false, false);
    for degree in 2..=7usize.min(side - 2) {
        for kind in BOX_ROW_COLUMN {
            let unit = geometry.cell_units(c1)[kind];
            if geometry.cell_units(c2)[kind] != unit {
                continue;
            }
            let cells = geometry.unit_cells(unit);
            let index_of =
                |cell: usize| cells.iter().position(|&c| usize::from(c) == cell).unwrap();
            let (i1, i2) = (index_of(c1), index_of(c2));
            let empty = cells
                .iter()
                .filter(|&&c| board.value(usize::from(c)) == 0)
                .count();
            let all = if side == 64 {
                u64::MAX
            } else {
                (1u64 << side) - 1
            };
            if !naked_found && degree * 2 <= empty && degree >= extra.count_ones() as usize {
                for set in subsets(all, degree) {
                    if set >> i1 & 1 == 0 || set >> i2 & 1 == 1 {
                        continue;
                    }
                    // SE counts the extras both cells share, plus the others' digits.
                    let mut counted = extra & board.candidates(c1) & board.candidates(c2);
                    let mut union = extra;
                    let mut others = Vec::new();
                    let mut each_two = true;
                    for i in bits(set & !(1 << i1)) {
                        let cell = usize::from(cells[i as usize]);
                        let candidates = board.candidates(cell);
                        each_two &= candidates.count_ones() >= 2;
                        counted |= candidates;
                        union |= candidates;
                        others.push(cell);
                    }
                    if counted.count_ones() as usize != degree
                        || !each_two
                        || union.count_ones() as usize != degree
                    {
                        continue;
                    }
                    // SE's plain-sudoku rule: the set's digits go from the
                    // unit's other cells (not from cells elsewhere that see them).
                    let mut step = loop_step(board, ring, pair, degree as u16 - 1);
                    for (i, &cell) in cells.iter().enumerate() {
                        let cell = usize::from(cell);
                        if set >> i & 1 == 1 || cell == c2 {
                            continue;
                        }
                        for b in bits(board.candidates(cell) & union) {
                            step.eliminations.push(Candidate::new(cell, b as u8 + 1));
                        }
                    }
                    if step.eliminations.is_empty() {
                        continue;
                    }
                    step.pattern.units.push(unit as u16);
                    step.pattern.digits |= union;
                    step.pattern.cells.extend(others.iter().map(|&c| c as u16));
                    found.push((step, TYPE_3_NAKED));
                    naked_found = true;
                    break;
                }
            }
            if !hidden_found && degree * 2 < empty {
                let rest = all & !pair & !extra;
                for chosen in subsets(rest, degree - 2) {
                    let digits = chosen | pair;
                    let mut union = 0u64;
                    let ok = bits(digits).all(|b| {
                        let p = board.positions(unit, b as u8 + 1) & !(1 << i2);
                        union |= p;
                        p != 0
                    });
                    if !ok || union.count_ones() as usize != degree {
                        continue;
                    }
                    let hidden = union & !(1 << i1) & !(1 << i2);
                    let mut step = loop_step(board, ring, pair, hidden.count_ones() as u16 - 1);
                    for i in bits(hidden) {
                        let cell = usize::from(cells[i as usize]);
                        for b in bits(board.candidates(cell) & !digits) {
                            step.eliminations.push(Candidate::new(cell, b as u8 + 1));
                        }
                        step.pattern.cells.push(cell as u16);
                    }
                    if step.eliminations.is_empty() {
                        continue;
                    }
                    step.pattern.units.push(unit as u16);
                    step.pattern.digits |= digits;
                    found.push((step, TYPE_3_HIDDEN));
                    hidden_found = true;
                    break;
                }
            }
        }
    }
    found
}

/// Type 4: the two extra cells share a unit where one loop digit has no
/// other place, so one of them holds it and the other loop digit goes from
/// both. SE takes the last unit kind (box, row, column) that qualifies, the
/// first digit before the second.
fn type_4(board: &Board, ring: &[usize], pair: u64, c1: usize, c2: usize) -> Option<Step> {
    let geometry = board.geometry();
    let mut locked = [None, None];
    for kind in BOX_ROW_COLUMN {
        let unit = geometry.cell_units(c1)[kind];
        if geometry.cell_units(c2)[kind] != unit {
            continue;
        }
        for (slot, b) in bits(pair).enumerate() {
            let digit = b as u8 + 1;
            let elsewhere = geometry
                .unit_cells(unit)
                .iter()
                .map(|&c| usize::from(c))
                .any(|c| c != c1 && c != c2 && board.has(c, digit));
            if !elsewhere {
                locked[slot] = Some(unit);
            }
        }
    }
    let (slot, unit) = locked
        .iter()
        .enumerate()
        .find_map(|(i, u)| u.map(|u| (i, u)))?;
    let lock = bits(pair).nth(slot)?;
    let removed = bits(pair).find(|&b| b != lock)? as u8 + 1;
    let mut step = loop_step(board, ring, pair, 0);
    step.eliminations = vec![Candidate::new(c1, removed), Candidate::new(c2, removed)];
    step.pattern.units.push(unit as u16);
    Some(step)
}

/// BUG, types 1 to 4 (5.6; 5.7; 5.7 plus 0.1 per cell past the first of
/// the naked set; 5.7). As in SE: every unit and digit with other than 0 or
/// 2 places must have exactly one such place in a cell of three or more
/// candidates (that cell's extra digit), unless all such places are of one
/// digit; once the extras are gone every cell must hold two candidates and
/// every digit two places in each unit. Then one of the extras is true.
pub(super) fn bug(board: &Board, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let side = board.side();
    let cells = side * side;
    let mut extras = BugExtras {
        cells: Vec::new(),
        values: Vec::new(),
        all: 0,
        common: None,
        rest: board.all_candidates().to_vec(),
    };
    let mut extra_cells: Option<Vec<bool>> = None;
    let mut only_digit = 0u8;
    let mut one_digit = true;

    for kind in BOX_ROW_COLUMN {
        for unit in kind * side..(kind + 1) * side {
            let unit_cells = geometry.unit_cells(unit);
            for digit in 1..=side as u8 {
                let positions = board.positions(unit, digit);
                if matches!(positions.count_ones(), 0 | 2) {
                    continue;
                }
                let crowded: Vec<usize> = bits(positions)
                    .map(|i| usize::from(unit_cells[i as usize]))
                    .filter(|&c| board.candidates(c).count_ones() >= 3)
                    .collect();
                match &mut extra_cells {
                    None => {
                        let mut set = vec![false; cells];
                        for &c in &crowded {
                            set[c] = true;
                        }
                        extra_cells = Some(set);
                        only_digit = digit;
                    }
                    Some(set) if one_digit => {
                        if only_digit == digit {
                            for &c in &crowded {
                                set[c] = true;
                            }
                        } else {
                            one_digit = false;
                        }
                    }
                    Some(_) => {}
                }
                if let [cell] = crowded[..] {
                    let fine = extras.add(geometry, cell, digit, true);
                    if !fine {
                        return;
                    }
                }
                if crowded.is_empty() {
                    return;
                }
            }
        }
    }
    if one_digit {
        if let Some(set) = &extra_cells {
            let more: Vec<usize> = (0..cells)
                .filter(|&c| set[c] && !extras.cells.contains(&c))
                .collect();
            if set.iter().filter(|&&s| s).count() > extras.cells.len() {
                for cell in more {
                    // SE does not count this digit among the extras here.
                    let fine = extras.add(geometry, cell, only_digit, false);
                    if !fine {
                        return;
                    }
                }
            }
        }
    }
    if (0..cells).any(|c| board.value(c) == 0 && extras.rest[c].count_ones() != 2) {
        return;
    }
    for unit in 0..geometry.units() {
        for digit in 1..=side as u8 {
            let bit = 1u64 << (digit - 1);
            let count = geometry
                .unit_cells(unit)
                .iter()
                .filter(|&&c| extras.rest[usize::from(c)] & bit != 0)
                .count();
            if count != 0 && count != 2 {
                return;
            }
        }
    }
    let common: Vec<usize> = match &extras.common {
        Some(set) => (0..cells).filter(|&c| set[c]).collect(),
        None => Vec::new(),
    };
    // SE counts no extra for cells added as the one digit's (see above);
    // alone, such a cell would lose every candidate: not a BUG type 1.
    let BugExtras {
        cells: bug_cells,
        values: bug_values,
        all: all_bug_values,
        ..
    } = extras;
    let step = if bug_cells.len() == 1 && all_bug_values != 0 {
        let cell = bug_cells[0];
        let mut step = bug_step(Technique::Bug, 56, &bug_cells, all_bug_values);
        step.eliminations = bits(board.candidates(cell) & !all_bug_values)
            .map(|b| Candidate::new(cell, b as u8 + 1))
            .collect();
        Some(step)
    } else if all_bug_values.count_ones() == 1 {
        let digit = all_bug_values.trailing_zeros() as u8 + 1;
        let eliminations: Vec<Candidate> = common
            .iter()
            .filter(|&&c| board.has(c, digit))
            .map(|&c| Candidate::new(c, digit))
            .collect();
        if eliminations.is_empty() {
            bug_type_4(board, &bug_cells, &bug_values, all_bug_values)
        } else {
            let mut step = bug_step(Technique::Bug, 57, &bug_cells, all_bug_values);
            step.eliminations = eliminations;
            Some(step)
        }
    } else if !common.is_empty() {
        bug_type_4(board, &bug_cells, &bug_values, all_bug_values)
            .or_else(|| bug_type_3(board, &bug_cells, all_bug_values, &common))
    } else {
        None
    };
    out.extend(step);
}

/// The extra candidates a BUG rests on, as [`bug`] collects them.
struct BugExtras {
    /// The cells holding extras, in the order met.
    cells: Vec<usize>,
    /// Each such cell's extra digits.
    values: Vec<u64>,
    /// Every extra digit counted.
    all: u64,
    /// The cells that see every extra cell, once there is one.
    common: Option<Vec<bool>>,
    /// The candidates with the extras gone.
    rest: Vec<u64>,
}

impl BugExtras {
    /// Adds `digit` as an extra of `cell` (`count_value`: among the extra
    /// digits too); false when no cell sees them all any more.
    fn add(&mut self, geometry: &Geometry, cell: usize, digit: u8, count_value: bool) -> bool {
        let at = match self.cells.iter().position(|&c| c == cell) {
            Some(at) => at,
            None => {
                self.cells.push(cell);
                self.values.push(0);
                self.cells.len() - 1
            }
        };
        self.values[at] |= 1 << (digit - 1);
        if count_value {
            self.all |= 1 << (digit - 1);
        }
        self.rest[cell] &= !(1 << (digit - 1));
        let mut seen = vec![false; self.rest.len()];
        for &p in geometry.peers(cell) {
            seen[usize::from(p)] = true;
        }
        let set = self.common.get_or_insert_with(|| seen.clone());
        for (s, v) in set.iter_mut().zip(&seen) {
            *s &= v;
        }
        for &c in &self.cells {
            set[c] = false;
        }
        !(self.cells.len() > 1 && self.all.count_ones() > 1 && !set.iter().any(|&s| s))
    }
}

fn bug_step(technique: Technique, rating: u16, bug_cells: &[usize], extras: u64) -> Step {
    let mut step = Step::new(technique, rating);
    step.pattern.cells = bug_cells.iter().map(|&c| c as u16).collect();
    step.pattern.digits = extras;
    step
}

/// Type 4: two BUG cells in one unit share one loop digit, which then has
/// no other place there; each cell is that digit or its extra.
fn bug_type_4(board: &Board, bug_cells: &[usize], bug_values: &[u64], all: u64) -> Option<Step> {
    let [c1, c2] = bug_cells[..] else {
        return None;
    };
    let geometry = board.geometry();
    let shared = board.candidates(c1) & board.candidates(c2) & !all;
    if shared.count_ones() != 1 {
        return None;
    }
    let unit = BOX_ROW_COLUMN
        .iter()
        .map(|&k| geometry.cell_units(c1)[k])
        .find(|&u| geometry.cell_units(c2).contains(&u))?;
    let mut step = bug_step(Technique::Bug, 57, bug_cells, all);
    for (i, &cell) in [c1, c2].iter().enumerate() {
        for b in bits(board.candidates(cell) & !bug_values[i] & !shared) {
            step.eliminations.push(Candidate::new(cell, b as u8 + 1));
        }
    }
    step.pattern.units.push(unit as u16);
    step.pattern.digits |= shared;
    Some(step)
}

/// Type 3: the BUG cells, all in one unit, act as one cell holding their
/// extras, which with other cells of the unit seeing them all forms a
/// naked set; its digits go from the unit's other cells that see them all.
fn bug_type_3(board: &Board, bug_cells: &[usize], all: u64, common: &[usize]) -> Option<Step> {
    let geometry = board.geometry();
    for degree in 2..=6usize {
        for kind in BOX_ROW_COLUMN {
            let unit = geometry.cell_units(bug_cells[0])[kind];
            if bug_cells
                .iter()
                .any(|&c| geometry.cell_units(c)[kind] != unit)
            {
                continue;
            }
            let region: Vec<usize> = common
                .iter()
                .copied()
                .filter(|&c| geometry.cell_units(c)[kind] == unit)
                .collect();
            if region.len() < degree || all.count_ones() < 2 {
                continue;
            }
            let everyone = if region.len() == 64 {
                u64::MAX
            } else {
                (1u64 << region.len()) - 1
            };
            for chosen in subsets(everyone, degree - 1) {
                let naked: Vec<usize> = bits(chosen).map(|i| region[i as usize]).collect();
                let others = naked.iter().fold(0, |m, &c| m | board.candidates(c));
                if others.count_ones() as usize != degree
                    || naked.iter().any(|&c| board.candidates(c).count_ones() < 2)
                    || (others | all).count_ones() as usize != degree
                {
                    continue;
                }
                let set = others | all;
                // SE's plain-sudoku rule: the set's digits go from the other
                // cells of the unit that see every BUG cell.
                let mut step = bug_step(Technique::Bug, 57 + degree as u16 - 1, bug_cells, all);
                for &cell in &region {
                    if naked.contains(&cell) {
                        continue;
                    }
                    for b in bits(board.candidates(cell) & set) {
                        step.eliminations.push(Candidate::new(cell, b as u8 + 1));
                    }
                }
                if step.eliminations.is_empty() {
                    continue;
                }
                step.pattern.cells.extend(naked.iter().map(|&c| c as u16));
                step.pattern.units.push(unit as u16);
                step.pattern.digits |= set;
                return Some(step);
            }
        }
    }
    None
}
