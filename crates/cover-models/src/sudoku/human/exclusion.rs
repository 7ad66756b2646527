//! Aligned exclusion: for two (pair) or three (triple) cells, every way of
//! filling them is tried against the cells that see them all with few
//! candidates (the excluders); a combination that would empty an excluder,
//! or repeat a digit in cells that see each other, is impossible, and a
//! candidate of a base cell used by no possible combination goes. Found as
//! Sudoku Explainer does (its base cells, excluders and order).

use super::board::Board;
use super::solver::bits;
use super::step::{Candidate, Step, Technique};

/// Aligned Pair Exclusion (6.2): excluders with exactly two candidates.
pub(super) fn aligned_pair_exclusion(board: &Board, out: &mut Vec<Step>) {
    aligned_exclusion(board, 2, out);
}

/// Aligned Triple Exclusion (7.5): excluders with two or three candidates.
pub(super) fn aligned_triple_exclusion(board: &Board, out: &mut Vec<Step>) {
    aligned_exclusion(board, 3, out);
}

/// A set of cells, one bit each.
#[derive(Clone, PartialEq, Eq)]
struct CellSet(Vec<u64>);

impl CellSet {
    fn new(cells: usize) -> CellSet {
        CellSet(vec![0; cells.div_ceil(64)])
    }
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }
    fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 == 1
    }
    fn intersect(&mut self, other: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }
    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| bits(w).map(move |b| i * 64 + b as usize))
    }
}

/// A base cell: two or more candidates, no peer down to one candidate, and
/// some excluders (peers with 2 to `degree` candidates), listed row-major.
struct Base {
    cell: usize,
    excluders: Vec<usize>,
    excluder_set: CellSet,
}

fn aligned_exclusion(board: &Board, degree: usize, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    let mut bases = Vec::new();
    let mut is_base = CellSet::new(cells);
    for cell in 0..cells {
        if board.candidates(cell).count_ones() < 2 {
            continue;
        }
        let mut excluders = Vec::new();
        let mut single_peer = false;
        for &peer in geometry.peers(cell) {
            let peer = usize::from(peer);
            match board.candidates(peer).count_ones() as usize {
                1 => single_peer = true,
                n if (2..=degree).contains(&n) => excluders.push(peer),
                _ => {}
            }
        }
        if single_peer || excluders.is_empty() {
            continue;
        }
        let mut excluder_set = CellSet::new(cells);
        for &e in &excluders {
            excluder_set.insert(e);
        }
        is_base.insert(cell);
        bases.push(Base {
            cell,
            excluders,
            excluder_set,
        });
    }
    // Pairs of bases as SE takes them: (0,1), (0,2), (1,2), (0,3)…
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, b) = (&bases[first], &bases[second]);
            let mut common = a.excluder_set.clone();
            common.intersect(&b.excluder_set);
            if degree == 2 {
                if let Some(step) = exclusion_step(board, &[a.cell, b.cell], &common) {
                    out.push(step);
                    return;
                }
                continue;
            }
            // The third cell: a base among the excluders of the first two,
            // the first's excluders before the second's.
            let mut seen = CellSet::new(cells);
            let tails = a
                .excluders
                .iter()
                .chain(&b.excluders)
                .copied()
                .filter(|&c| {
                    let fresh = !seen.contains(c);
                    seen.insert(c);
                    fresh && is_base.contains(c) && c != a.cell && c != b.cell
                });
            for tail in tails.collect::<Vec<_>>() {
                let base = bases.iter().find(|x| x.cell == tail).expect("a base");
                let mut common = common.clone();
                common.intersect(&base.excluder_set);
                if let Some(step) = exclusion_step(board, &[a.cell, b.cell, tail], &common) {
                    out.push(step);
                    return;
                }
            }
        }
    }
}

/// The step of `cells` against the `excluders` they share (two or more):
/// the candidates no possible combination uses.
fn exclusion_step(board: &Board, cells: &[usize], excluders: &CellSet) -> Option<Step> {
    if excluders.len() < 2 {
        return None;
    }
    let geometry = board.geometry();
    let excluder_masks: Vec<u64> = excluders.iter().map(|e| board.candidates(e)).collect();
    let masks: Vec<u64> = cells.iter().map(|&c| board.candidates(c)).collect();
    let mut used = vec![0u64; cells.len()];
    let mut digits = vec![0u8; cells.len()];
    let mut visit = |digits: &[u8]| {
        for i in 0..digits.len() {
            for j in i + 1..digits.len() {
                if digits[i] == digits[j] && geometry.sees(cells[i], cells[j]) {
                    return;
                }
            }
        }
        let combination = digits.iter().fold(0u64, |m, &d| m | 1 << (d - 1));
        if excluder_masks.iter().any(|&e| e & !combination == 0) {
            return;
        }
        for (u, &d) in used.iter_mut().zip(digits) {
            *u |= 1 << (d - 1);
        }
    };
    combinations(&masks, 0, &mut digits, &mut visit);
    let mut step = Step::new(
        if cells.len() == 2 {
            Technique::AlignedPairExclusion
        } else {
            Technique::AlignedTripleExclusion
        },
        if cells.len() == 2 { 62 } else { 75 },
    );
    for (i, &cell) in cells.iter().enumerate() {
        for b in bits(masks[i] & !used[i]) {
            step.eliminations.push(Candidate::new(cell, b as u8 + 1));
        }
        step.pattern.cells.push(cell as u16);
        step.pattern.digits |= masks[i];
    }
    if step.eliminations.is_empty() {
        return None;
    }
    for e in excluders.iter() {
        step.pattern.cells.push(e as u16);
        for b in bits(board.candidates(e)) {
            step.pattern.candidates.push(Candidate::new(e, b as u8 + 1));
        }
    }
    Some(step)
}

/// Calls `visit` with every choice of one candidate per mask.
fn combinations(masks: &[u64], at: usize, digits: &mut [u8], visit: &mut impl FnMut(&[u8])) {
    if at == masks.len() {
        visit(digits);
        return;
    }
    for b in bits(masks[at]) {
        digits[at] = b as u8 + 1;
        combinations(masks, at + 1, digits, visit);
    }
}
