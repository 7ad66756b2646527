//! Fish on one digit: `n` base lines whose places for it lie in `n` cover
//! lines remove it from the rest of the cover lines (X-Wing, Swordfish,
//! Jellyfish); and their finned and sashimi forms (not in Sudoku
//! Explainer, for teaching), where a few extra base places (the fin) sit
//! in one box and the removals are limited to cells that see the fin.

use super::board::Board;
use super::solver::{bits, subsets};
use super::step::{Candidate, Step, Technique};

/// X-Wing (3.2).
pub(super) fn x_wings(board: &Board, out: &mut Vec<Step>) {
    basic_fish(board, 2, out);
}

/// Swordfish (3.8).
pub(super) fn swordfish(board: &Board, out: &mut Vec<Step>) {
    basic_fish(board, 3, out);
}

/// Jellyfish (5.2).
pub(super) fn jellyfish(board: &Board, out: &mut Vec<Step>) {
    basic_fish(board, 4, out);
}

/// Finned and sashimi X-Wings (teaching only).
pub(super) fn finned_x_wings(board: &Board, out: &mut Vec<Step>) {
    finned_fish(board, 2, out);
}

/// Finned and sashimi Swordfish (teaching only).
pub(super) fn finned_swordfish(board: &Board, out: &mut Vec<Step>) {
    finned_fish(board, 3, out);
}

/// Finned and sashimi Jellyfish (teaching only).
pub(super) fn finned_jellyfish(board: &Board, out: &mut Vec<Step>) {
    finned_fish(board, 4, out);
}

/// Where each digit can go in each line: `[line kind][line][digit - 1]`,
/// bit `i` for the line's `i`th cell, kind 0 rows and 1 columns.
struct LinePlaces {
    side: usize,
    places: Vec<u64>,
}

impl LinePlaces {
    fn new(board: &Board) -> LinePlaces {
        let side = board.side();
        let mut places = vec![0u64; 2 * side * side];
        for cell in 0..side * side {
            let (row, column) = (cell / side, cell % side);
            for b in bits(board.candidates(cell)) {
                let b = b as usize;
                places[row * side + b] |= 1 << column;
                places[(side + column) * side + b] |= 1 << row;
            }
        }
        LinePlaces { side, places }
    }

    fn get(&self, kind: usize, line: usize, digit: u8) -> u64 {
        self.places[(kind * self.side + line) * self.side + usize::from(digit - 1)]
    }
}

/// The cell where line `line` of `kind` (0 rows, 1 columns) crosses the
/// other kind's line `across`.
fn cell_at(side: usize, kind: usize, line: usize, across: usize) -> usize {
    if kind == 0 {
        line * side + across
    } else {
        across * side + line
    }
}

/// The digits placed fewer than `side - 2 · degree + 1` times: SE looks
/// for fish of `degree` only on those.
fn open_digits(board: &Board, degree: usize) -> u64 {
    let side = board.side();
    let mut placed = vec![0usize; side];
    for &v in board.values() {
        if v != 0 {
            placed[usize::from(v - 1)] += 1;
        }
    }
    (0..side)
        .filter(|&b| placed[b] + 2 * degree <= side)
        .fold(0, |mask, b| mask | 1 << b)
}

/// The first fish of `degree` that removes something, in SE's order:
/// columns as base lines first, then rows; base sets in increasing masks,
/// digits in order inside each; each base line has two or more places.
fn basic_fish(board: &Board, degree: usize, out: &mut Vec<Step>) {
    let side = board.side();
    let places = LinePlaces::new(board);
    let digits = open_digits(board, degree);
    let all_lines = if side == 64 {
        u64::MAX
    } else {
        (1 << side) - 1
    };
    for kind in [1, 0] {
        for base in subsets(all_lines, degree) {
            for b in bits(digits) {
                let digit = b as u8 + 1;
                let mut cover = 0u64;
                let ok = bits(base).all(|line| {
                    let p = places.get(kind, line as usize, digit);
                    cover |= p;
                    p.count_ones() >= 2
                });
                if !ok || cover.count_ones() as usize != degree {
                    continue;
                }
                let mut eliminations = Vec::new();
                for across in bits(cover) {
                    let outside = places.get(1 - kind, across as usize, digit) & !base;
                    for line in bits(outside) {
                        let cell = cell_at(side, 1 - kind, across as usize, line as usize);
                        eliminations.push(Candidate::new(cell, digit));
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                let (technique, rating) = match degree {
                    2 => (Technique::XWing, 32),
                    3 => (Technique::Swordfish, 38),
                    _ => (Technique::Jellyfish, 52),
                };
                let mut step = Step::new(technique, rating);
                step.eliminations = eliminations;
                fill_pattern(&mut step, &places, kind, base, cover, 0, digit);
                out.push(step);
                return;
            }
        }
    }
}

/// Values of the finned fish, which SE lacks, on its scale: HoDoKu scores
/// a finned X-Wing below a Swordfish and a sashimi one level with it, and
/// finned Swordfish and Jellyfish above XY-Wing; SE's steps of those values
/// are Hidden Pair (3.4), Naked Triple (3.6) and XYZ-Wing (4.4).
const FINNED_RATINGS: [(Technique, u16, Technique, u16); 3] = [
    (Technique::FinnedXWing, 34, Technique::SashimiXWing, 35),
    (
        Technique::FinnedSwordfish,
        44,
        Technique::SashimiSwordfish,
        45,
    ),
    (
        Technique::FinnedJellyfish,
        54,
        Technique::SashimiJellyfish,
        55,
    ),
];

/// The first finned or sashimi fish of `degree` that removes something:
/// base lines (columns first, then rows) whose places, but for a fin in
/// one box, lie in `degree` cover lines; removals are the cover lines'
/// places outside the base that share the fin's box. Sashimi when a base
/// line keeps one place or none outside its fin.
fn finned_fish(board: &Board, degree: usize, out: &mut Vec<Step>) {
    let side = board.side();
    let box_side = board.geometry().box_side();
    let places = LinePlaces::new(board);
    let all_lines = if side == 64 {
        u64::MAX
    } else {
        (1 << side) - 1
    };
    for kind in [1, 0] {
        for base in subsets(all_lines, degree) {
            for digit in 1..=side as u8 {
                if bits(base).any(|line| places.get(kind, line as usize, digit) == 0) {
                    continue;
                }
                let union = bits(base)
                    .map(|line| places.get(kind, line as usize, digit))
                    .fold(0, |a, b| a | b);
                if union.count_ones() as usize <= degree {
                    continue; // a basic fish, or none
                }
                // The fin lies in one box: across one band of cover indices.
                for band in 0..side / box_side {
                    let band_mask = ((1u64 << box_side) - 1) << (band * box_side);
                    let outside_band = union & !band_mask;
                    // Covers: the places outside the band plus those in
                    // the band that complete `degree` lines.
                    let in_band = union & band_mask;
                    for extra in subsets(
                        in_band,
                        degree.saturating_sub(outside_band.count_ones() as usize),
                    ) {
                        let cover = outside_band | extra;
                        if cover.count_ones() as usize != degree {
                            continue;
                        }
                        let fin = union & !cover;
                        // Each base line needs a place in the cover, else
                        // it is no fish.
                        if fin == 0
                            || bits(base)
                                .any(|line| places.get(kind, line as usize, digit) & cover == 0)
                        {
                            continue;
                        }
                        if let Some(step) =
                            finned_step(board, &places, kind, base, cover, fin, digit, degree)
                        {
                            out.push(step);
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The step of a finned fish, if its fin cells share one box and some
/// cover place outside the base sees the whole fin.
#[allow(clippy::too_many_arguments)]
fn finned_step(
    board: &Board,
    places: &LinePlaces,
    kind: usize,
    base: u64,
    cover: u64,
    fin: u64,
    digit: u8,
    degree: usize,
) -> Option<Step> {
    let side = board.side();
    let geometry = board.geometry();
    let mut fin_cells = Vec::new();
    for line in bits(base) {
        for across in bits(places.get(kind, line as usize, digit) & fin) {
            fin_cells.push(cell_at(side, kind, line as usize, across as usize));
        }
    }
    let fin_box = geometry.cell_units(fin_cells[0])[2];
    if fin_cells
        .iter()
        .any(|&c| geometry.cell_units(c)[2] != fin_box)
    {
        return None;
    }
    let mut eliminations = Vec::new();
    for across in bits(cover) {
        let outside = places.get(1 - kind, across as usize, digit) & !base;
        for line in bits(outside) {
            let cell = cell_at(side, 1 - kind, across as usize, line as usize);
            if geometry.cell_units(cell)[2] == fin_box {
                eliminations.push(Candidate::new(cell, digit));
            }
        }
    }
    if eliminations.is_empty() {
        return None;
    }
    let sashimi =
        bits(base).any(|line| (places.get(kind, line as usize, digit) & cover).count_ones() <= 1);
    let (finned, finned_rating, sashimi_t, sashimi_rating) = FINNED_RATINGS[degree - 2];
    let mut step = if sashimi {
        Step::new(sashimi_t, sashimi_rating)
    } else {
        Step::new(finned, finned_rating)
    };
    step.eliminations = eliminations;
    fill_pattern(&mut step, places, kind, base, cover, fin, digit);
    Some(step)
}

/// The base and cover lines, the fish's places (the fin's among them) and
/// its digit.
fn fill_pattern(
    step: &mut Step,
    places: &LinePlaces,
    kind: usize,
    base: u64,
    cover: u64,
    fin: u64,
    digit: u8,
) {
    let side = places.side;
    step.pattern.digits = 1 << (digit - 1);
    for line in bits(base) {
        step.pattern
            .units
            .push((kind * side + line as usize) as u16);
        for across in bits(places.get(kind, line as usize, digit) & (cover | fin)) {
            let cell = cell_at(side, kind, line as usize, across as usize);
            step.pattern.cells.push(cell as u16);
            step.pattern.candidates.push(Candidate::new(cell, digit));
        }
    }
    for across in bits(cover) {
        step.pattern
            .units
            .push(((1 - kind) * side + across as usize) as u16);
    }
}
