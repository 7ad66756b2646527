//! The logic's tests: soundness against brute force on every size, the
//! fixpoint's order independence, and explanations replayed.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::masks::{bit, digits_of, full_mask, Bits};
use super::rules::regin;
use super::*;
use crate::sudoku::symbols::Size;
use crate::sudoku::testing::band_order;

fn geo(n: usize) -> Geometry {
    Geometry::new(Size::new(n).unwrap())
}

/// The row, column and box of a cell, by arithmetic (independent of
/// `Geometry`).
fn rcb(n: usize, cell: usize) -> (usize, usize, usize) {
    let s = n * n;
    let (r, c) = (cell / s, cell % s);
    (r, c, (r / n) * n + c / n)
}

fn sees(n: usize, a: usize, b: usize) -> bool {
    let (ra, ca, ba) = rcb(n, a);
    let (rb, cb, bb) = rcb(n, b);
    a != b && (ra == rb || ca == cb || ba == bb)
}

/// Whether `digit` can go in `cell` of `grid` without a clash.
fn fits(n: usize, grid: &[u8], cell: usize, digit: u8) -> bool {
    (0..grid.len()).all(|o| !(sees(n, cell, o) && grid[o] == digit))
}

/// A full valid grid by arithmetic: every row, column and box holds
/// each digit once.
fn valid(n: usize, grid: &[u8]) -> bool {
    let s = n * n;
    let mut seen = vec![0u64; 3 * s];
    for (cell, &d) in grid.iter().enumerate() {
        if d == 0 || usize::from(d) > s {
            return false;
        }
        let (r, c, b) = rcb(n, cell);
        for u in [r, s + c, 2 * s + b] {
            if seen[u] & bit(d) != 0 {
                return false;
            }
            seen[u] |= bit(d);
        }
    }
    true
}

/// A random full grid: cells in order, digits in a random order,
/// backtracking on dead ends.
fn random_grid(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    fn fill(n: usize, grid: &mut [u8], cell: usize, rng: &mut ChaCha8Rng) -> bool {
        if cell == grid.len() {
            return true;
        }
        let mut digits: Vec<u8> = (1..=(n * n) as u8).collect();
        digits.shuffle(rng);
        for d in digits {
            if fits(n, grid, cell, d) {
                grid[cell] = d;
                if fill(n, grid, cell + 1, rng) {
                    return true;
                }
                grid[cell] = 0;
            }
        }
        false
    }
    let mut grid = vec![0; n.pow(4)];
    assert!(fill(n, &mut grid, 0, rng));
    grid
}

/// A full grid of any size: the usual pattern with digits relabelled
/// and rows and columns shuffled inside bands and stacks.
fn pattern_grid(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let s = n * n;
    let mut label: Vec<u8> = (1..=s as u8).collect();
    label.shuffle(rng);
    let rows = band_order(rng, n);
    let cols = band_order(rng, n);
    let mut grid = vec![0; s * s];
    for r in 0..s {
        for c in 0..s {
            let (pr, pc) = (rows[r], cols[c]);
            grid[r * s + c] = label[(n * (pr % n) + pr / n + pc) % s];
        }
    }
    assert!(valid(n, &grid));
    grid
}

/// `grid` with each cell kept with probability `keep`.
fn blank(grid: &[u8], keep: f64, rng: &mut ChaCha8Rng) -> Vec<u8> {
    grid.iter()
        .map(|&d| if rng.random_bool(keep) { d } else { 0 })
        .collect()
}

/// Up to `limit` solutions of `grid` whose empty cells take digits of
/// `masks` only, by plain backtracking (fewest options first).
fn solutions(n: usize, grid: &[u8], masks: &[u64], limit: usize) -> Vec<Vec<u8>> {
    fn go(n: usize, grid: &mut [u8], masks: &[u64], limit: usize, out: &mut Vec<Vec<u8>>) {
        if out.len() >= limit {
            return;
        }
        let mut best: Option<(usize, Vec<u8>)> = None;
        for cell in 0..grid.len() {
            if grid[cell] != 0 {
                continue;
            }
            let options: Vec<u8> = digits_of(masks[cell])
                .into_iter()
                .filter(|&d| fits(n, grid, cell, d))
                .collect();
            if best.as_ref().is_none_or(|b| options.len() < b.1.len()) {
                let stop = options.is_empty();
                best = Some((cell, options));
                if stop {
                    break;
                }
            }
        }
        let Some((cell, options)) = best else {
            out.push(grid.to_vec());
            return;
        };
        for d in options {
            grid[cell] = d;
            go(n, grid, masks, limit, out);
            grid[cell] = 0;
        }
    }
    // Givens must not clash among themselves either.
    for a in 0..grid.len() {
        if grid[a] != 0 && !fits(n, grid, a, grid[a]) {
            return Vec::new();
        }
    }
    let mut out = Vec::new();
    go(n, &mut grid.to_vec(), masks, limit, &mut out);
    out
}

/// Candidates by arithmetic, to check `candidates` against.
fn plain_candidates(n: usize, grid: &[u8]) -> Vec<u64> {
    (0..grid.len())
        .map(|cell| {
            if grid[cell] != 0 {
                return 0;
            }
            (1..=(n * n) as u8)
                .filter(|&d| fits(n, grid, cell, d))
                .fold(0, |m, d| m | bit(d))
        })
        .collect()
}

/// Runs `propagate`, checking that what it reports is exactly what it
/// removed, each once; returns the outcome and the removals.
fn run(g: &Geometry, rules: Rules, cands: &mut [u64]) -> (Result<(), Dead>, Vec<(usize, u8)>) {
    let before = cands.to_vec();
    let mut removed = Vec::new();
    let result = Propagation::new(g).propagate(g, rules, cands, &mut |c, d| removed.push((c, d)));
    let mut expect = before.clone();
    for &(c, d) in &removed {
        assert!(usize::from(d) >= 1 && usize::from(d) <= g.side());
        assert!(expect[c] & bit(d) != 0, "{c} {d} reported twice or absent");
        expect[c] &= !bit(d);
    }
    assert_eq!(expect, cands, "reports match the masks");
    (result, removed)
}

/// Singles, box-line, subsets up to `subsets` and matching, each alone.
fn rules_alone(subsets: u8) -> Vec<Rules> {
    let none = Rules::NONE;
    let mut alone = vec![
        Rules {
            singles: true,
            ..none
        },
        Rules {
            box_line: true,
            ..none
        },
    ];
    alone.extend((2..=subsets).map(|subsets| Rules { subsets, ..none }));
    alone.push(Rules {
        matching: true,
        ..none
    });
    alone
}

/// Every preset and every rule alone.
fn rule_sets() -> Vec<Rules> {
    let none = Rules::NONE;
    let mut sets = vec![none, Rules::BASIC, Rules::FULL];
    sets.extend(rules_alone(4));
    sets.extend([
        Rules {
            layers: true,
            ..none
        },
        Rules {
            singles: true,
            subsets: 4,
            matching: true,
            box_line: true,
            layers: true,
        },
    ]);
    sets
}

#[test]
fn geometry_matches_arithmetic() {
    for n in 2..=8 {
        let g = geo(n);
        let s = n * n;
        assert_eq!(g.units(), 3 * s);
        for unit in 0..g.units() {
            let cells = g.unit_cells(unit);
            assert_eq!(cells.len(), s);
            for &c in cells {
                let (r, col, b) = rcb(n, usize::from(c));
                let here = [r, s + col, 2 * s + b];
                assert!(here.contains(&unit));
                assert_eq!(g.cell_units(usize::from(c)), here);
            }
            let mut sorted = cells.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), s);
        }
    }
    let g = geo(3);
    assert_eq!(g.unit_name(2), "row 3");
    assert_eq!(g.unit_name(9 + 4), "column 5");
    assert_eq!(g.unit_name(18 + 1), "box 2");
    assert_eq!(g.cell_name(2 * 9 + 4), "r3c5");
    assert_eq!(g.unit_cells(18 + 1)[..4], [3, 4, 5, 12]);
}

#[test]
fn candidates_match_arithmetic() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for n in [2, 3, 4] {
        let g = geo(n);
        for _ in 0..5 {
            let puzzle = blank(&pattern_grid(n, &mut rng), 0.4, &mut rng);
            assert_eq!(candidates(&g, &puzzle), plain_candidates(n, &puzzle));
        }
    }
}

/// Rules never remove the digit of a known solution, nor call a
/// solvable state dead, on random 4×4 and 9×9 puzzles.
#[test]
fn sound_on_random_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for n in [2, 3] {
        let g = geo(n);
        for round in 0..60 {
            let solution = random_grid(n, &mut rng);
            let keep = [0.0, 0.15, 0.3, 0.45, 0.6][round % 5];
            let puzzle = blank(&solution, keep, &mut rng);
            for rules in rule_sets() {
                let mut cands = candidates(&g, &puzzle);
                let (result, removed) = run(&g, rules, &mut cands);
                assert_eq!(result, Ok(()), "{rules:?} on {puzzle:?}");
                for &(c, d) in &removed {
                    assert_ne!(solution[c], d, "{rules:?} removed the solution");
                }
                for (c, &m) in cands.iter().enumerate() {
                    assert!(puzzle[c] != 0 || m & bit(solution[c]) != 0);
                }
            }
        }
    }
}

/// Larger sizes, up to 64×64 (all 64 bits in use).
#[test]
fn sound_on_every_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for n in 2..=8 {
        let g = geo(n);
        let mut empty = vec![full_mask(n * n); n.pow(4)];
        let (result, removed) = run(&g, Rules::FULL, &mut empty);
        assert_eq!(result, Ok(()));
        assert!(removed.is_empty());
        let solution = pattern_grid(n, &mut rng);
        for keep in [0.3, 0.6] {
            let puzzle = blank(&solution, keep, &mut rng);
            for rules in [Rules::FULL, Rules::BASIC] {
                let mut cands = candidates(&g, &puzzle);
                let (result, _) = run(&g, rules, &mut cands);
                assert_eq!(result, Ok(()), "{n} {rules:?}");
                for (c, &m) in cands.iter().enumerate() {
                    assert!(puzzle[c] != 0 || m & bit(solution[c]) != 0);
                }
                let (again, removed) = run(&g, rules, &mut cands);
                assert_eq!(again, Ok(()));
                assert!(removed.is_empty(), "{n} {rules:?} not a fixpoint");
            }
        }
    }
}

/// The perfect matchings of one unit by brute force: for each cell the
/// digits it takes in some perfect matching, or `None` without any.
fn matchable(masks: &[u64]) -> Option<Vec<u64>> {
    fn go(masks: &[u64], i: usize, used: u64, pick: &mut Vec<usize>, out: &mut [u64]) {
        if i == masks.len() {
            for (o, &v) in out.iter_mut().zip(pick.iter()) {
                *o |= 1 << v;
            }
            return;
        }
        for v in Bits(masks[i] & !used) {
            pick.push(v);
            go(masks, i + 1, used | 1 << v, pick, out);
            pick.pop();
        }
    }
    let union = masks.iter().fold(0, |u, &m| u | m);
    if union.count_ones() as usize != masks.len() {
        return None;
    }
    let mut out = vec![0; masks.len()];
    go(masks, 0, 0, &mut Vec::new(), &mut out);
    (out.iter().all(|&m| m != 0) || masks.is_empty()).then_some(out)
}

/// `regin` keeps exactly the pairs of perfect matchings, and fails
/// exactly when there is none, on random small graphs whose digits are
/// spread over all 64 bits.
#[test]
fn regin_is_exactly_domain_consistent() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for round in 0..20_000 {
        let k = rng.random_range(1..=7usize);
        let mut bits: Vec<usize> = (0..64).collect();
        bits.shuffle(&mut rng);
        let digits = &bits[..k];
        let density = [0.2, 0.35, 0.5, 0.8][round % 4];
        let masks: Vec<u64> = (0..k)
            .map(|_| {
                let m = digits
                    .iter()
                    .filter(|_| rng.random_bool(density))
                    .fold(0u64, |m, &b| m | 1 << b);
                if m == 0 {
                    1 << digits[rng.random_range(0..k)]
                } else {
                    m
                }
            })
            .collect();
        let mut got = masks.clone();
        match (matchable(&masks), regin(&mut got)) {
            (None, Err(Dead)) => {}
            (Some(want), Ok(changed)) => {
                assert_eq!(got, want, "{masks:x?}");
                assert_eq!(changed, want != masks);
            }
            (want, result) => panic!("{masks:x?}: {want:x?} vs {result:?}"),
        }
    }
    // A full 64-cell unit: a chain that forces everything.
    let masks: Vec<u64> = (0..64)
        .map(|i| (1u64 << i) | (1u64 << ((i + 1) % 64)))
        .collect();
    let mut got = masks.clone();
    assert_eq!(regin(&mut got), Ok(false));
    assert_eq!(got, masks, "a single cycle keeps every edge");
    let mut masks = masks;
    masks[63] = 1 << 63;
    let mut got = masks.clone();
    assert_eq!(regin(&mut got), Ok(true));
    assert!(got.iter().enumerate().all(|(i, &m)| m == 1 << i));
}

/// Random 4×4 states, some with many solutions and some with extra
/// candidates struck out at random, against every solution by brute
/// force.
#[test]
fn sound_and_complete_against_brute_force_on_4x4() {
    let n = 2;
    let g = geo(n);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut dead_seen = 0;
    for round in 0..1500 {
        let solution = random_grid(n, &mut rng);
        let keep = [0.0, 0.1, 0.2, 0.3, 0.5][round % 5];
        let puzzle = blank(&solution, keep, &mut rng);
        let mut state = candidates(&g, &puzzle);
        let strike = [0.0, 0.2, 0.4][round % 3];
        for m in state.iter_mut() {
            for b in Bits(*m) {
                if m.count_ones() > 1 && rng.random_bool(strike) {
                    *m &= !(1 << b);
                }
            }
        }
        let all = solutions(n, &puzzle, &state, usize::MAX);
        let mut used = [0u64; 16];
        for sol in &all {
            for c in 0..16 {
                if puzzle[c] == 0 {
                    used[c] |= bit(sol[c]);
                }
            }
        }
        for rules in rule_sets() {
            let mut cands = state.clone();
            let (result, _) = run(&g, rules, &mut cands);
            if result.is_err() {
                assert!(all.is_empty(), "{rules:?} killed a live state {state:?}");
                dead_seen += 1;
                continue;
            }
            for c in 0..16 {
                assert_eq!(used[c] & !cands[c], 0, "{rules:?} on {state:?}");
            }
            let (again, removed) = run(&g, rules, &mut cands);
            assert!(again.is_ok() && removed.is_empty(), "{rules:?} fixpoint");
            if rules.matching {
                for unit in 0..g.units() {
                    let masks: Vec<u64> = g
                        .unit_cells(unit)
                        .iter()
                        .map(|&c| cands[usize::from(c)])
                        .filter(|&m| m != 0)
                        .collect();
                    assert_eq!(matchable(&masks), Some(masks.clone()), "{rules:?}");
                }
            }
        }
    }
    assert!(dead_seen > 0, "some states should be dead");
}

/// The fixpoint does not depend on the order rules run in.
#[test]
fn fixpoint_is_order_independent() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    // Each rule alone, subsets only as triples.
    let parts: Vec<Rules> = rules_alone(3)
        .into_iter()
        .filter(|r| r.subsets != 2)
        .collect();
    for n in [2, 3, 4] {
        let g = geo(n);
        for round in 0..40 {
            let solution = if n == 4 {
                pattern_grid(n, &mut rng)
            } else {
                random_grid(n, &mut rng)
            };
            let puzzle = blank(&solution, [0.2, 0.3, 0.4][round % 3], &mut rng);
            for target in [Rules::BASIC, Rules::FULL] {
                let mut direct = candidates(&g, &puzzle);
                run(&g, target, &mut direct).0.unwrap();
                // Only rules the target includes (matching implies
                // subsets) can go first without going beyond it.
                for &first in parts.iter().filter(|p| target.matching || !p.matching) {
                    let mut staged = candidates(&g, &puzzle);
                    run(&g, first, &mut staged).0.unwrap();
                    run(&g, target, &mut staged).0.unwrap();
                    assert_eq!(staged, direct, "{first:?} then {target:?}");
                }
            }
            // Everything, in any order, reaches the same masks.
            let all = Rules {
                subsets: 4,
                ..Rules::FULL
            };
            let mut direct = candidates(&g, &puzzle);
            run(&g, all, &mut direct).0.unwrap();
            let mut order = parts.to_vec();
            order.shuffle(&mut rng);
            let mut staged = candidates(&g, &puzzle);
            for _ in 0..4 {
                for &rules in &order {
                    run(&g, rules, &mut staged).0.unwrap();
                }
            }
            run(&g, all, &mut staged).0.unwrap();
            assert_eq!(staged, direct);
        }
    }
}

#[test]
fn clashes_are_dead() {
    let g = geo(3);
    let mut states: Vec<Vec<u64>> = Vec::new();
    // Two 5s in row 1.
    let mut grid = vec![0u8; 81];
    grid[0] = 5;
    grid[8] = 5;
    states.push(candidates(&g, &grid));
    // r1c1 sees 1..=8 in its row and 9 in its column: no candidate, so
    // it looks solved while row 1 still misses a digit.
    let mut grid = vec![0u8; 81];
    grid[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    grid[9 * 4] = 9;
    states.push(candidates(&g, &grid));
    // Two cells of column 1 with the same single candidate.
    let mut cands = vec![full_mask(9); 81];
    cands[0] = bit(4);
    cands[9 * 5] = bit(4);
    states.push(cands);
    // Three cells of box 1 sharing two digits.
    let mut cands = vec![full_mask(9); 81];
    for c in [0, 1, 10] {
        cands[c] = bit(1) | bit(2);
    }
    states.push(cands);
    // Digit 9 with no place in row 3 although no cell is solved.
    let mut cands = vec![full_mask(9); 81];
    for m in &mut cands[18..27] {
        *m &= !bit(9);
    }
    states.push(cands);
    for state in states {
        let mut cands = state.clone();
        assert_eq!(run(&g, Rules::FULL, &mut cands).0, Err(Dead), "{state:?}");
    }
    let mut cands = vec![full_mask(9); 81];
    cands[0] = bit(4);
    cands[9 * 5] = bit(4);
    assert_eq!(run(&g, Rules::BASIC, &mut cands).0, Err(Dead));
}
