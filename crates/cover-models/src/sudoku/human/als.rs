//! Almost locked sets, for hints that teach (Sudoku Explainer lacks the
//! general forms, so they stay off the rating path; its WXYZ- to
//! TUVWXYZ-Wings, in `wings`, are the case of a set and one bivalue cell).
//!
//! An almost locked set (ALS) is `n` cells of one unit holding `n + 1`
//! digits: take one digit out and the rest are locked in. Two sets are
//! joined by a restricted common digit `x` when every place of `x` in one
//! sees every place of `x` in the other: `x` cannot be true in both, so
//! one set is locked.
//!
//! - ALS-XZ: two sets joined by `x`; another common digit `z` goes from
//!   the cells seeing all its places in both. Joined by two digits (doubly
//!   linked), both sets are locked: each digit goes from the cells seeing
//!   all its places in them.
//! - ALS-XY-Wing: sets A and B each joined to a set C, by `x` and `y`; a
//!   digit `z` common to A and B goes from the cells seeing all its places
//!   in both.
//!
//! Values on SE's scale, where HoDoKu's order puts them (after colouring,
//! before the chains): ALS-XZ 6.5, ALS-XY-Wing 6.6. Sets have at most
//! [`MAX_CELLS`] cells, which keeps the search quick and finds the sets a
//! person would.

use super::board::Board;
use super::step::{Candidate, Step, Technique};

/// ALS-XZ's value in tenths.
const XZ: u16 = 65;
/// ALS-XY-Wing's value in tenths.
const XY_WING: u16 = 66;
/// The most cells in one set.
const MAX_CELLS: usize = 5;

/// An almost locked set: its cells (sorted), digits and unit.
struct Als {
    cells: Vec<usize>,
    digits: u64,
    unit: usize,
}

impl Als {
    fn holders<'a>(&'a self, board: &'a Board, digit: u8) -> impl Iterator<Item = usize> + 'a {
        self.cells
            .iter()
            .copied()
            .filter(move |&c| board.has(c, digit))
    }

    fn disjoint(&self, other: &Als) -> bool {
        !self.cells.iter().any(|c| other.cells.contains(c))
    }
}

/// Every almost locked set on `board` of at most [`MAX_CELLS`] cells, each
/// once (a set inside a row and a box is taken in its row).
fn all_sets(board: &Board) -> Vec<Als> {
    let geometry = board.geometry();
    let mut sets = Vec::new();
    for unit in 0..geometry.units() {
        let open: Vec<usize> = geometry
            .unit_cells(unit)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| board.candidates(c) != 0)
            .collect();
        let mut chosen = Vec::new();
        collect(board, unit, &open, 0, 0, &mut chosen, &mut sets);
    }
    sets
}

fn collect(
    board: &Board,
    unit: usize,
    open: &[usize],
    from: usize,
    digits: u64,
    chosen: &mut Vec<usize>,
    sets: &mut Vec<Als>,
) {
    if !chosen.is_empty() && digits.count_ones() as usize == chosen.len() + 1 {
        let geometry = board.geometry();
        let first_unit = geometry
            .units_of(chosen[0])
            .iter()
            .map(|&u| usize::from(u))
            .find(|&u| chosen.iter().all(|&c| geometry.in_unit(c, u)));
        if first_unit == Some(unit) {
            let mut cells = chosen.clone();
            cells.sort_unstable();
            sets.push(Als {
                cells,
                digits,
                unit,
            });
        }
    }
    if chosen.len() == MAX_CELLS {
        return;
    }
    for i in from..open.len() {
        let union = digits | board.candidates(open[i]);
        // More digits than cells plus one can never shrink back.
        if union.count_ones() as usize > MAX_CELLS + 1 {
            continue;
        }
        chosen.push(open[i]);
        collect(board, unit, open, i + 1, union, chosen, sets);
        chosen.pop();
    }
}

/// The restricted common digits of two disjoint sets, as a mask.
fn restricted(board: &Board, a: &Als, b: &Als) -> u64 {
    let geometry = board.geometry();
    let mut mask = 0;
    for digit in digits(a.digits & b.digits) {
        if a.holders(board, digit)
            .all(|x| b.holders(board, digit).all(|y| geometry.sees(x, y)))
        {
            mask |= 1 << (digit - 1);
        }
    }
    mask
}

fn digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

/// Cells outside `sets` holding `digit` that see all its places in them.
fn victims(board: &Board, digit: u8, sets: &[&Als], out: &mut Vec<Candidate>) {
    let geometry = board.geometry();
    let places: Vec<usize> = sets.iter().flat_map(|s| s.holders(board, digit)).collect();
    let Some(&first) = places.first() else {
        return;
    };
    for &peer in geometry.peers(first) {
        let c = usize::from(peer);
        if board.has(c, digit)
            && !sets.iter().any(|s| s.cells.contains(&c))
            && places.iter().all(|&p| p == c || geometry.sees(c, p))
            && !places.contains(&c)
            && !out
                .iter()
                .any(|v| usize::from(v.cell) == c && v.digit == digit)
        {
            out.push(Candidate::new(c, digit));
        }
    }
}

fn als_step(
    technique: Technique,
    rating: u16,
    sets: &[&Als],
    eliminations: Vec<Candidate>,
) -> Step {
    let mut step = Step::new(technique, rating);
    for set in sets {
        step.pattern
            .cells
            .extend(set.cells.iter().map(|&c| c as u16));
        step.pattern.units.push(set.unit as u16);
        step.pattern.digits |= set.digits;
    }
    step.eliminations = eliminations;
    step
}

/// ALS-XZ, singly and doubly linked (teaching only).
pub(super) fn als_xz(board: &Board, found: &mut Vec<Step>) {
    let sets = all_sets(board);
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            if a.digits & b.digits == 0 || !a.disjoint(b) {
                continue;
            }
            let links = restricted(board, a, b);
            if links == 0 {
                continue;
            }
            let mut eliminations = Vec::new();
            let common = a.digits & b.digits;
            let double = links.count_ones() >= 2;
            for z in digits(common) {
                if !double && links >> (z - 1) & 1 == 1 {
                    continue;
                }
                victims(board, z, &[a, b], &mut eliminations);
            }
            if double {
                // Both sets locked: their other digits stay in each.
                for set in [a, b] {
                    for w in digits(set.digits & !links) {
                        victims(board, w, &[set], &mut eliminations);
                    }
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let mut step = als_step(Technique::AlsXz, XZ, &[a, b], eliminations);
            step.pattern.candidates = digits(links)
                .flat_map(|x| {
                    a.holders(board, x)
                        .chain(b.holders(board, x))
                        .map(move |c| Candidate::new(c, x))
                        .collect::<Vec<_>>()
                })
                .collect();
            found.push(step);
        }
    }
}

/// ALS-XY-Wings (teaching only).
pub(super) fn als_xy_wing(board: &Board, found: &mut Vec<Step>) {
    let sets = all_sets(board);
    for (k, pivot) in sets.iter().enumerate() {
        // The sets joined to the pivot, with the digits joining them.
        let joined: Vec<(usize, u64)> = sets
            .iter()
            .enumerate()
            .filter(|&(i, s)| i != k && s.digits & pivot.digits != 0 && s.disjoint(pivot))
            .map(|(i, s)| (i, restricted(board, s, pivot)))
            .filter(|&(_, links)| links != 0)
            .collect();
        for (n, &(i, x_links)) in joined.iter().enumerate() {
            for &(j, y_links) in &joined[n + 1..] {
                let (a, b) = (&sets[i], &sets[j]);
                if !a.disjoint(b) {
                    continue;
                }
                // Some x for A and another y for B.
                let Some((x, y)) = digits(x_links)
                    .flat_map(|x| digits(y_links & !(1 << (x - 1))).map(move |y| (x, y)))
                    .next()
                else {
                    continue;
                };
                let mut eliminations = Vec::new();
                for z in digits(a.digits & b.digits & !(1 << (x - 1)) & !(1 << (y - 1))) {
                    victims(board, z, &[a, b], &mut eliminations);
                }
                eliminations.retain(|e| !pivot.cells.contains(&usize::from(e.cell)));
                if eliminations.is_empty() {
                    continue;
                }
                let mut step =
                    als_step(Technique::AlsXyWing, XY_WING, &[a, b, pivot], eliminations);
                step.pattern.candidates = [(a, x), (pivot, x), (pivot, y), (b, y)]
                    .into_iter()
                    .flat_map(|(s, d)| {
                        s.holders(board, d)
                            .map(move |c| Candidate::new(c, d))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                found.push(step);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_sound, board_before, nine, solution, walk};
    use super::super::{Catalogue, Technique};

    /// Puzzles of se_rated.txt (SE 6.6, 6.7) whose teaching path takes the
    /// technique where SE needs chains.
    const FIRES: &[(Technique, &str)] = &[
        (
            Technique::AlsXz,
            "090070206000000014000360008507200300040000020002009805800023000350000000709010050",
        ),
        (
            Technique::AlsXyWing,
            "200100970000900000004062003001000748000000000982000300400210500000005000053004006",
        ),
    ];

    #[test]
    fn each_technique_teaches_soundly() {
        let geometry = nine();
        for &(technique, line) in FIRES {
            let (_, step) = board_before(&geometry, line, Catalogue::Teaching, |s| {
                s.technique == technique
            })
            .unwrap_or_else(|| panic!("no {technique:?} on {line}"));
            assert_sound(&step, &solution(line));
            assert!(step.pattern.units.len() >= 2 && !step.pattern.candidates.is_empty());
            walk(line, Catalogue::Teaching);
        }
    }
}
