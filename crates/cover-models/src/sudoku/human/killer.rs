//! Killer techniques: what a cage's sum allows (Cage Combination) and the
//! rule of 45 (Innies and Outies). Sudoku Explainer has no killer
//! techniques, so their values are our own, chosen to sit among SE's by
//! how hard people find them:
//!
//! - **Cage Combination, 2.5**: a digit of a cell that no filling of the
//!   cage uses (distinct digits from the cells' candidates, with the
//!   placed ones, summing to the cage's sum) is removed. As simple as a
//!   Direct Hidden Triple (2.5) and tried just after it, before Pointing
//!   (2.6): a killer solver looks at the sums first.
//! - **Innies and Outies, 2.8 to 3.4**: whole units hold every digit
//!   `units` times, so their cells sum to `units · side(side+1)/2`; take
//!   away the cages inside them and the rest (the innies) has a known sum;
//!   when cages cover the units, the cells those cages stick out by (the
//!   outies) have one too. Those cells are then a cage of their own (their
//!   digits distinct only where they are peers) and what it allows is kept:
//!   a lone innie or outie is placed. 2.8 for one unit's innies, 3.0 for
//!   its outies, 0.2 more for each further line (two or three adjacent
//!   rows or columns taken together).
//!
//! This module owns reading cages for those two; it must not know how the
//! rules came (formats, generator).

use super::board::Board;
use super::step::{Candidate, Step, Technique};
use crate::sudoku::logic::Geometry;

/// The most cells a virtual cage of innies or outies may have: past that
/// people do not count, and the enumeration grows.
const MOST_INNIES: usize = 5;

/// The most filled assignments a cage's enumeration visits before it gives
/// up on that cage (a sound but weaker answer: nothing removed there).
const MOST_VISITS: usize = 200_000;

/// For `cells` (with `values`, 0 when empty, and candidate `masks`), whose
/// values sum to `sum` and differ where `distinct(i, j)`: per cell, the
/// digits some such assignment gives it (a filled cell's own digit). `None`
/// when the enumeration was cut short.
fn allowed(
    cells: &[usize],
    board: &Board,
    sum: u32,
    distinct: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<u64>> {
    let k = cells.len();
    let options: Vec<u64> = cells
        .iter()
        .map(|&c| match board.value(c) {
            0 => board.candidates(c),
            d => 1u64 << (d - 1),
        })
        .collect();
    let mut out = vec![0u64; k];
    let mut chosen = vec![0u8; k];
    let mut visits = 0usize;
    // Smallest and largest digit each cell may still take, for bounds.
    let lowest: Vec<u32> = options.iter().map(|m| m.trailing_zeros() + 1).collect();
    let highest: Vec<u32> = options.iter().map(|m| 64 - m.leading_zeros()).collect();
    let mut min_rest = vec![0u32; k + 1];
    let mut max_rest = vec![0u32; k + 1];
    for i in (0..k).rev() {
        min_rest[i] = min_rest[i + 1] + lowest[i];
        max_rest[i] = max_rest[i + 1] + highest[i];
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        i: usize,
        total: u32,
        sum: u32,
        options: &[u64],
        min_rest: &[u32],
        max_rest: &[u32],
        distinct: &dyn Fn(usize, usize) -> bool,
        chosen: &mut [u8],
        out: &mut [u64],
        visits: &mut usize,
    ) -> bool {
        *visits += 1;
        if *visits > MOST_VISITS {
            return false;
        }
        if i == options.len() {
            if total == sum {
                for (o, &d) in out.iter_mut().zip(chosen.iter()) {
                    *o |= 1 << (d - 1);
                }
            }
            return true;
        }
        if total + min_rest[i] > sum || total + max_rest[i] < sum {
            return true;
        }
        let mut digits = options[i];
        while digits != 0 {
            let d = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            if (0..i).any(|j| chosen[j] == d && distinct(j, i)) {
                continue;
            }
            chosen[i] = d;
            if !go(
                i + 1,
                total + u32::from(d),
                sum,
                options,
                min_rest,
                max_rest,
                distinct,
                chosen,
                out,
                visits,
            ) {
                return false;
            }
        }
        true
    }
    go(
        0,
        0,
        sum,
        &options,
        &min_rest,
        &max_rest,
        distinct,
        &mut chosen,
        &mut out,
        &mut visits,
    )
    .then_some(out)
}

/// The removals `allowed` implies on the empty ones of `cells`.
fn removals(board: &Board, cells: &[usize], allowed: &[u64]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (&c, &keep) in cells.iter().zip(allowed) {
        if board.value(c) == 0 {
            let mut gone = board.candidates(c) & !keep;
            while gone != 0 {
                let d = gone.trailing_zeros() as u8 + 1;
                gone &= gone - 1;
                out.push(Candidate::new(c, d));
            }
        }
    }
    out
}

/// Cage Combination (2.5): the first cage with a sum, in the rules'
/// order, whose possible fillings rule out a candidate.
pub(super) fn cage_combinations(board: &Board, out: &mut Vec<Step>) {
    let Some(rules) = board.geometry().rules() else {
        return;
    };
    for cage in rules.cages() {
        let Some(sum) = cage.sum else { continue };
        if cage.cells.iter().all(|&c| board.value(c) != 0) {
            continue;
        }
        // A cage's digits all differ.
        let Some(keep) = allowed(&cage.cells, board, sum, &|_, _| true) else {
            continue;
        };
        let eliminations = removals(board, &cage.cells, &keep);
        if eliminations.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::CageCombination, 25);
        step.eliminations = eliminations;
        step.pattern.cells = cage.cells.iter().map(|&c| c as u16).collect();
        step.pattern.digits = keep.iter().fold(0, |a, &b| a | b);
        out.push(step);
        return;
    }
}

/// The groups of whole units the rule of 45 is tried on, each with the
/// number of lines beyond the first: every unit alone, then two and three
/// adjacent rows, two and three adjacent columns.
fn unit_groups(geometry: &Geometry) -> Vec<(Vec<usize>, u16)> {
    let s = geometry.side();
    let mut groups: Vec<(Vec<usize>, u16)> = (2 * s..geometry.units())
        .chain(0..2 * s)
        .map(|u| (vec![u], 0))
        .collect();
    for width in 2..=3usize {
        for first in [0, s] {
            for start in first..first + s + 1 - width {
                groups.push(((start..start + width).collect(), width as u16 - 1));
            }
        }
    }
    groups
}

/// Innies and Outies (2.8 to 3.4, see the module's docs): the first group
/// of units, in [`unit_groups`]' order, whose innies (then outies) rule
/// something out.
pub(super) fn innies_outies(board: &Board, out: &mut Vec<Step>) {
    let geometry = board.geometry();
    let Some(rules) = geometry.rules() else {
        return;
    };
    let summed: Vec<(usize, &[usize], u32)> = rules
        .cages()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.sum.map(|s| (i, c.cells.as_slice(), s)))
        .collect();
    if summed.is_empty() {
        return;
    }
    let s = geometry.side();
    let mut cage_of = vec![usize::MAX; s * s];
    for &(i, cells, _) in &summed {
        for &c in cells {
            if cage_of[c] != usize::MAX {
                // Overlapping cages (not a killer's layout): their sums
                // would count a cell twice.
                return;
            }
            cage_of[c] = i;
        }
    }
    let digit_total = (s * (s + 1) / 2) as u32;
    let mut in_group = vec![false; s * s];
    for (units, extra_lines) in unit_groups(geometry) {
        in_group.iter_mut().for_each(|x| *x = false);
        for &u in &units {
            for &c in geometry.unit_cells(u) {
                in_group[usize::from(c)] = true;
            }
        }
        let total = digit_total * units.len() as u32;
        let mut inside_sum = 0u32;
        let mut touching_sum = 0u32;
        let mut innies = Vec::new();
        let mut outies = Vec::new();
        let mut all_caged = true;
        for &(_, cells, sum) in &summed {
            if !cells.iter().any(|&c| in_group[c]) {
                continue;
            }
            touching_sum += sum;
            if cells.iter().all(|&c| in_group[c]) {
                inside_sum += sum;
            } else {
                innies.extend(cells.iter().copied().filter(|&c| in_group[c]));
                outies.extend(cells.iter().copied().filter(|&c| !in_group[c]));
            }
        }
        for (c, &inside) in in_group.iter().enumerate() {
            if inside && cage_of[c] == usize::MAX {
                innies.push(c);
                all_caged = false;
            }
        }
        innies.sort_unstable();
        let innie_sum = total.checked_sub(inside_sum);
        let outie_sum = touching_sum.checked_sub(total);
        let tries = [
            (innies, innie_sum, Technique::Innies, 28),
            (
                if all_caged { outies } else { Vec::new() },
                outie_sum,
                Technique::Outies,
                30,
            ),
        ];
        for (cells, target, technique, value) in tries {
            let Some(target) = target else { continue };
            if cells.is_empty()
                || cells.len() > MOST_INNIES
                || cells.iter().all(|&c| board.value(c) != 0)
            {
                continue;
            }
            let distinct = |a: usize, b: usize| geometry.sees(cells[a], cells[b]);
            let Some(keep) = allowed(&cells, board, target, &distinct) else {
                continue;
            };
            let eliminations = removals(board, &cells, &keep);
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(technique, value + 2 * extra_lines);
            let empty: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&c| board.value(c) == 0)
                .collect();
            if let [lone] = empty[..] {
                let i = cells.iter().position(|&c| c == lone).unwrap_or(0);
                if keep[i].count_ones() == 1 {
                    step.placements
                        .push(Candidate::new(lone, keep[i].trailing_zeros() as u8 + 1));
                }
            }
            if step.placements.is_empty() {
                step.eliminations = eliminations;
            }
            step.pattern.cells = cells.iter().map(|&c| c as u16).collect();
            step.pattern.units = units.iter().map(|&u| u as u16).collect();
            out.push(step);
            return;
        }
    }
}
