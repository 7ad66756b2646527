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
    fn clear(&mut self) {
        self.0.fill(0);
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
    // Each cell's place in `bases`, if it is one.
    let mut base_at = vec![usize::MAX; cells];
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
        base_at[cell] = bases.len();
        bases.push(Base {
            cell,
            excluders,
            excluder_set,
        });
    }
    let mut common = CellSet::new(cells);
    let mut common3 = CellSet::new(cells);
    let mut seen = CellSet::new(cells);
    let mut scratch = Vec::new();
    // Pairs of bases as SE takes them: (0,1), (0,2), (1,2), (0,3)…
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, b) = (&bases[first], &bases[second]);
            common.clone_from(&a.excluder_set);
            common.intersect(&b.excluder_set);
            if degree == 2 {
                if let Some(step) = exclusion_step(board, &[a.cell, b.cell], &common, &mut scratch)
                {
                    out.push(step);
                    return;
                }
                continue;
            }
            // The third cell: a base among the excluders of the first two,
            // the first's excluders before the second's.
            seen.clear();
            for &tail in a.excluders.iter().chain(&b.excluders) {
                if seen.contains(tail) {
                    continue;
                }
                seen.insert(tail);
                let at = base_at[tail];
                if at == usize::MAX || tail == a.cell || tail == b.cell {
                    continue;
                }
                common3.clone_from(&common);
                common3.intersect(&bases[at].excluder_set);
                let triple = [a.cell, b.cell, tail];
                if let Some(step) = exclusion_step(board, &triple, &common3, &mut scratch) {
                    out.push(step);
                    return;
                }
            }
        }
    }
}

/// The step of `cells` against the `excluders` they share (two or more):
/// the candidates no possible combination uses. `scratch` holds the
/// excluders' candidates.
fn exclusion_step(
    board: &Board,
    cells: &[usize],
    excluders: &CellSet,
    scratch: &mut Vec<u64>,
) -> Option<Step> {
    if excluders.len() < 2 {
        return None;
    }
    let geometry = board.geometry();
    let mut masks = [0u64; 3];
    for (m, &c) in masks.iter_mut().zip(cells) {
        *m = board.candidates(c);
    }
    // An excluder with a digit no base cell holds never empties.
    let reach = masks.iter().fold(0, |a, &m| a | m);
    scratch.clear();
    scratch.extend(
        excluders
            .iter()
            .map(|e| board.candidates(e))
            .filter(|&e| e & !reach == 0),
    );
    let n = cells.len();
    // Whether cells i and j see each other: then they cannot share a digit.
    let sees = |i: usize, j: usize| geometry.sees(cells[i], cells[j]);
    let see = [sees(0, 1), n == 3 && sees(0, 2), n == 3 && sees(1, 2)];
    let blocked = |combination: u64| scratch.iter().any(|&e| e & !combination == 0);
    let mut used = [0u64; 3];
    for d0 in bits(masks[0]) {
        let m0 = 1u64 << d0;
        for d1 in bits(masks[1]) {
            let m1 = 1u64 << d1;
            if see[0] && m0 == m1 {
                continue;
            }
            if n == 2 {
                if !blocked(m0 | m1) {
                    used[0] |= m0;
                    used[1] |= m1;
                }
                continue;
            }
            for d2 in bits(masks[2]) {
                let m2 = 1u64 << d2;
                if (see[1] && m0 == m2) || (see[2] && m1 == m2) || blocked(m0 | m1 | m2) {
                    continue;
                }
                used[0] |= m0;
                used[1] |= m1;
                used[2] |= m2;
            }
        }
    }
    if (0..n).all(|i| masks[i] & !used[i] == 0) {
        return None;
    }
    let (technique, rating) = if n == 2 {
        (Technique::AlignedPairExclusion, 62)
    } else {
        (Technique::AlignedTripleExclusion, 75)
    };
    let mut step = Step::new(technique, rating);
    for (i, &cell) in cells.iter().enumerate() {
        for b in bits(masks[i] & !used[i]) {
            step.eliminations.push(Candidate::new(cell, b as u8 + 1));
        }
        step.pattern.cells.push(cell as u16);
        step.pattern.digits |= masks[i];
    }
    for e in excluders.iter() {
        step.pattern.cells.push(e as u16);
        for b in bits(board.candidates(e)) {
            step.pattern.candidates.push(Candidate::new(e, b as u8 + 1));
        }
    }
    Some(step)
}
