//! Sudoku Explainer's chaining techniques, its "Chaining" engine: cycles
//! and forcing X/XY chains (6.5–7.x), Nishio (7.5+), cell and region
//! forcing chains (8.0+), dynamic forcing chains (8.5+), dynamic forcing
//! chains (+) (9.0+) and, as a rescue, nested forcing chains (9.5+).
//!
//! - `links`: candidates as numbers, bitsets, the direct links.
//! - `dynamic`: one assumption propagated (static, dynamic, "+"), its
//!   nodes kept with their parents.
//! - `plus`: the set-based rules "+" runs on the hypothetical grid.
//! - `cycles`: cycles and forcing X/XY chains.
//! - `forcing`: Nishio, cell, region, contradiction and double chains.
//!
//! Each finder keeps the easiest of its findings as SE picks it: the
//! lowest value (base plus the increment for the chain's complexity, the
//! number of nodes it rests on), then the lowest complexity, then SE's
//! order of kinds.
//!
//! Everything reads the board through [`Board`] and the geometry, so any
//! size works (sides up to 64: a unit's places fit a `u64`); the values
//! are SE's 9×9 ones. Nested chains go as far as SE's rescue levels 2
//! (cycles and forcing chains inside dynamic ones, 9.5+), 3 (cell and
//! region forcing chains inside, 10.0+) and its first experimental one
//! (dynamic forcing chains inside, 10.5+), not the deeper ones.

mod cycles;
mod dynamic;
mod forcing;
mod links;
mod plus;

use super::board::Board;
use super::step::{Candidate, Node, Pattern, Rating, Step, Technique};

use forcing::Producer;

/// One finding before the easiest is picked.
#[derive(Debug, Clone)]
pub(super) struct Hint {
    technique: Technique,
    /// SE's base value in tenths.
    base: u16,
    /// The nodes the conclusion rests on (SE's complexity).
    complexity: usize,
    /// SE's order among findings of the same value and complexity.
    sort_key: u8,
    eliminations: Vec<Candidate>,
    chains: Vec<Vec<Node>>,
    cells: Vec<u16>,
    units: Vec<u16>,
    digits: u64,
    /// In a nested search: the removed candidates the finding needs gone.
    rule_parents: Vec<u32>,
}

impl Hint {
    fn new(
        technique: Technique,
        base: u16,
        complexity: usize,
        sort_key: u8,
        eliminations: Vec<Candidate>,
        chains: Vec<Vec<Node>>,
    ) -> Hint {
        Hint {
            technique,
            base,
            complexity,
            sort_key,
            eliminations,
            chains,
            cells: Vec::new(),
            units: Vec::new(),
            digits: 0,
            rule_parents: Vec::new(),
        }
    }

    fn rating(&self) -> u16 {
        self.base + length_increment(self.complexity)
    }

    /// The value as SE compares it: a double, the base plus 0.1 added once
    /// per step of length, so 6.6 + 0.6 sorts after 7.0 + 0.2 as in SE.
    fn se_value(&self) -> f64 {
        let mut added = 0.0;
        for _ in 0..length_increment(self.complexity) {
            added += 0.1;
        }
        f64::from(self.base) / 10.0 + added
    }

    /// SE's order of findings: value, then complexity, then kind.
    fn se_order(a: &Hint, b: &Hint) -> std::cmp::Ordering {
        a.se_value()
            .total_cmp(&b.se_value())
            .then((a.complexity, a.sort_key).cmp(&(b.complexity, b.sort_key)))
    }

    fn into_step(self) -> Step {
        let rating = self.rating();
        let mut cells = self.cells;
        let mut digits = self.digits;
        if cells.is_empty() {
            // A cycle or a single chain: its own cells and digits.
            for node in self.chains.iter().flatten() {
                if !cells.contains(&node.candidate.cell) {
                    cells.push(node.candidate.cell);
                }
                digits |= 1 << (node.candidate.digit - 1);
            }
        }
        let candidates = self
            .chains
            .iter()
            .filter_map(|c| c.first().map(|n| n.candidate))
            .fold(Vec::new(), |mut v, c| {
                if !v.contains(&c) {
                    v.push(c);
                }
                v
            });
        Step {
            technique: self.technique,
            rating: Rating(rating),
            placements: Vec::new(),
            eliminations: self.eliminations,
            pattern: Pattern {
                cells,
                units: self.units,
                digits,
                candidates,
                chains: self.chains,
            },
        }
    }
}

/// SE's increment for a chain of `complexity` nodes, in tenths: one more
/// each time the length passes 4, 6, 8, 12, 16, 24, 32, … (alternately
/// ×3/2 and ×4/3).
fn length_increment(complexity: usize) -> u16 {
    let length = complexity as i64 - 2;
    let mut ceiling = 4i64;
    let mut added = 0;
    let mut odd = false;
    while length > ceiling {
        added += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    added
}

/// The largest complexity a chain of value `base` may have and still be
/// worth at most `bound` tenths; `None` when even the shortest is worth
/// more. Searches stop there: a longer chain could not be the easiest.
fn max_complexity(base: u16, bound: u16) -> Option<usize> {
    let budget = bound.checked_sub(base)?;
    if budget > 40 {
        return Some(usize::MAX);
    }
    let mut ceiling = 4usize;
    let mut odd = false;
    for _ in 0..budget {
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    Some(ceiling + 2)
}

/// Pushes the easiest of `hints` as a step.
fn push_easiest(hints: Vec<Hint>, steps: &mut Vec<Step>) {
    // The first of the easiest, as SE's stable sort keeps it.
    let best = hints
        .into_iter()
        .enumerate()
        .min_by(|(i, a), (j, b)| Hint::se_order(a, b).then(i.cmp(j)));
    if let Some((_, hint)) = best {
        steps.push(hint.into_step());
    }
}

/// X-cycles (6.5), Y- and XY-cycles (6.5/7.0), forcing X-chains (6.6) and
/// forcing XY-chains (7.0), plus their length increments.
pub(super) fn cycles_and_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    if !links::chains_apply(board.geometry()) {
        return;
    }
    let mut hints = Vec::new();
    cycles::find(board, &mut hints);
    push_easiest(hints, steps);
}

fn run(board: &Board, producer: Producer, steps: &mut Vec<Step>) {
    if !links::chains_apply(board.geometry()) {
        return;
    }
    let mut hints = Vec::new();
    forcing::find(board, producer, &mut hints);
    push_easiest(hints, steps);
}

/// Nishio forcing chains (7.5+).
pub(super) fn nishio_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::NISHIO, steps);
}

/// Static cell and region forcing chains (8.0+).
pub(super) fn multiple_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::MULTIPLE, steps);
}

/// Dynamic contradiction, double, cell and region forcing chains (8.5+).
pub(super) fn dynamic_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::dynamic(0), steps);
}

/// Dynamic forcing chains (+) (9.0+): locking, pairs and X-Wings on the
/// hypothetical grids too.
pub(super) fn dynamic_plus_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::dynamic(1), steps);
}

/// Nested forcing chains (9.5+): cycles and forcing chains on the
/// hypothetical grids too. Slow: a rescue for the hardest puzzles.
pub(super) fn nested_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::dynamic(2), steps);
}

/// Nested forcing chains, second level (10.0+): static cell and region
/// forcing chains on the hypothetical grids too. Slower still.
pub(super) fn nested_multiple_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::dynamic(3), steps);
}

/// Nested forcing chains, SE's experimental level (10.5+): dynamic
/// forcing chains on the hypothetical grids. The slowest rescue.
pub(super) fn nested_dynamic_forcing_chains(board: &Board, steps: &mut Vec<Step>) {
    run(board, Producer::dynamic(4), steps);
}

#[cfg(test)]
mod tests;
