//! Colouring, for hints that teach (Sudoku Explainer lacks it, so it
//! stays off the rating path): one digit's conjugate pairs (units where it
//! has two places) joined into clusters, each cluster's cells given two
//! colours that alternate along the pairs, so one colour holds the digit
//! and the other does not.
//!
//! - Simple Colouring: a colour seeing itself is false (wrap); a cell
//!   seeing both colours of a cluster loses the digit (trap).
//! - Multi-Colouring: two clusters. A colour seeing both colours of the
//!   other cluster is false; when colour `a` sees colour `c`, one of their
//!   partners `b` or `d` holds the digit, so a cell seeing both loses it.
//!
//! Values on SE's scale, where HoDoKu's order puts them (after the basic
//! wings and fish, before chains; SE rates the X-cycles they are cases of
//! from 6.5): Simple Colouring 6.3, Multi-Colouring 6.4.

use super::board::Board;
use super::step::{Candidate, Node, Step, Technique};

/// Simple Colouring's value in tenths.
const SIMPLE: u16 = 63;
/// Multi-Colouring's value in tenths.
const MULTI: u16 = 64;

/// One digit's clusters: each a list of cells per colour.
struct Clusters {
    /// Each cluster's two colours.
    colours: Vec<[Vec<usize>; 2]>,
    /// Each cell's cluster and colour, if it is in one.
    of_cell: Vec<Option<(usize, usize)>>,
}

/// The clusters of `digit`'s conjugate pairs (those with two cells or more).
fn clusters(board: &Board, digit: u8) -> Clusters {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    // Each cell's conjugate partners.
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for unit in 0..geometry.units() {
        let positions = board.positions(unit, digit);
        if positions.count_ones() == 2 {
            let unit_cells = geometry.unit_cells(unit);
            let a = usize::from(unit_cells[positions.trailing_zeros() as usize]);
            let b = usize::from(unit_cells[63 - positions.leading_zeros() as usize]);
            if !partners[a].contains(&b) {
                partners[a].push(b);
                partners[b].push(a);
            }
        }
    }
    let mut found = Clusters {
        colours: Vec::new(),
        of_cell: vec![None; cells],
    };
    for start in 0..cells {
        if partners[start].is_empty() || found.of_cell[start].is_some() {
            continue;
        }
        let id = found.colours.len();
        let mut colours = [vec![start], Vec::new()];
        found.of_cell[start] = Some((id, 0));
        let mut queue = vec![start];
        while let Some(cell) = queue.pop() {
            let colour = found.of_cell[cell].map_or(0, |(_, c)| c);
            for &next in &partners[cell] {
                if found.of_cell[next].is_none() {
                    found.of_cell[next] = Some((id, 1 - colour));
                    colours[1 - colour].push(next);
                    queue.push(next);
                }
            }
        }
        found.colours.push(colours);
    }
    found
}

/// Whether some cell of `a` sees some cell of `b`.
fn sees_any(board: &Board, a: &[usize], b: &[usize]) -> bool {
    let geometry = board.geometry();
    a.iter().any(|&x| b.iter().any(|&y| geometry.sees(x, y)))
}

/// The uncoloured cells holding `digit` that see a cell of `a` and a cell
/// of `b`.
fn trapped(board: &Board, digit: u8, found: &Clusters, a: &[usize], b: &[usize]) -> Vec<Candidate> {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    (0..cells)
        .filter(|&c| board.has(c, digit) && found.of_cell[c].is_none())
        .filter(|&c| {
            a.iter().any(|&x| geometry.sees(c, x)) && b.iter().any(|&y| geometry.sees(c, y))
        })
        .map(|c| Candidate::new(c, digit))
        .collect()
}

/// A step showing `coloured` cells, one colour after the other: the first
/// and third colours taken as true (`on`), the second and fourth as false.
fn colour_step(
    technique: Technique,
    rating: u16,
    digit: u8,
    coloured: &[&[usize]],
    eliminations: Vec<Candidate>,
) -> Step {
    let mut step = Step::new(technique, rating);
    step.pattern.digits = 1 << (digit - 1);
    let mut colours = Vec::new();
    for (i, cells) in coloured.iter().enumerate() {
        for &c in cells.iter() {
            let candidate = Candidate::new(c, digit);
            step.pattern.cells.push(c as u16);
            step.pattern.candidates.push(candidate);
            colours.push(Node {
                candidate,
                on: i % 2 == 0,
            });
        }
    }
    step.pattern.chains.push(colours);
    step.eliminations = eliminations;
    step
}

/// Simple Colouring: wraps and traps in one cluster (teaching only).
pub(super) fn simple_colouring(board: &Board, found: &mut Vec<Step>) {
    for digit in 1..=board.side() as u8 {
        let clusters = clusters(board, digit);
        for [a, b] in &clusters.colours {
            if b.is_empty() {
                continue;
            }
            for (own, other) in [(a, b), (b, a)] {
                let wrapped = own
                    .iter()
                    .enumerate()
                    .any(|(i, &x)| own[i + 1..].iter().any(|&y| board.geometry().sees(x, y)));
                if wrapped {
                    let eliminations = own.iter().map(|&c| Candidate::new(c, digit)).collect();
                    found.push(colour_step(
                        Technique::SimpleColouring,
                        SIMPLE,
                        digit,
                        &[other, own],
                        eliminations,
                    ));
                }
            }
            let eliminations = trapped(board, digit, &clusters, a, b);
            if !eliminations.is_empty() {
                found.push(colour_step(
                    Technique::SimpleColouring,
                    SIMPLE,
                    digit,
                    &[a, b],
                    eliminations,
                ));
            }
        }
    }
}

/// Multi-Colouring: two clusters of one digit (teaching only).
pub(super) fn multi_colouring(board: &Board, found: &mut Vec<Step>) {
    for digit in 1..=board.side() as u8 {
        let clusters = clusters(board, digit);
        let all = &clusters.colours;
        for (i, first) in all.iter().enumerate() {
            for second in &all[i + 1..] {
                for (side, own) in first.iter().enumerate() {
                    let partner = &first[1 - side];
                    let sees = [
                        sees_any(board, own, &second[0]),
                        sees_any(board, own, &second[1]),
                    ];
                    if sees[0] && sees[1] {
                        // `own` would leave the second cluster no colour.
                        let eliminations = own.iter().map(|&c| Candidate::new(c, digit)).collect();
                        let coloured: [&[usize]; 4] = [partner, own, &second[0], &second[1]];
                        found.push(colour_step(
                            Technique::MultiColouring,
                            MULTI,
                            digit,
                            &coloured,
                            eliminations,
                        ));
                        continue;
                    }
                    for other in 0..2 {
                        if !sees[other] {
                            continue;
                        }
                        let far = &second[1 - other];
                        let eliminations = trapped(board, digit, &clusters, partner, far);
                        if !eliminations.is_empty() {
                            let coloured: [&[usize]; 4] = [partner, own, far, &second[other]];
                            found.push(colour_step(
                                Technique::MultiColouring,
                                MULTI,
                                digit,
                                &coloured,
                                eliminations,
                            ));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::findings_along_path;
    use super::super::{Catalogue, Rating, Technique};

    /// The fresh boards of an easy puzzle (SE 2.5) have clusters aplenty.
    const LINE: &str =
        "000030904083500000041090080004000057000000000390000800010060430000002510605040000";

    #[test]
    fn simple_colouring_wraps_and_traps_soundly() {
        let found = findings_along_path(LINE, Catalogue::Rating, super::simple_colouring);
        assert!(found
            .iter()
            .all(|s| s.technique == Technique::SimpleColouring && s.rating == Rating(63)));
        // A wrap removes the candidates it colours, a trap others.
        let wraps = |s: &&super::Step| {
            s.eliminations
                .iter()
                .all(|e| s.pattern.candidates.contains(e))
        };
        assert!(found.iter().any(|s| wraps(&s)));
        assert!(found.iter().any(|s| !wraps(&s)));
        assert!(found.iter().all(|s| s.pattern.chains.len() == 1));
    }

    #[test]
    fn multi_colouring_is_sound() {
        let found = findings_along_path(LINE, Catalogue::Rating, super::multi_colouring);
        assert!(!found.is_empty());
        assert!(found
            .iter()
            .all(|s| s.technique == Technique::MultiColouring && s.rating == Rating(64)));
    }
}
