//! The variant solver against a brute force written here from the rules'
//! accessors alone (the shared checker's `cover_check::variant` takes its
//! place in `tests/variant_brute.rs` once both branches are merged).

use super::*;
use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

/// Whether `grid` (0 empty) breaks no rule among its placed cells; a cage's
/// sum is checked once it is full.
fn partial_ok(rules: &Rules, grid: &[u8]) -> bool {
    let s = rules.side();
    let distinct = |cells: &[usize]| {
        let mut seen = vec![false; s + 1];
        cells.iter().all(|&c| {
            let d = grid[c] as usize;
            if d == 0 {
                return true;
            }
            !std::mem::replace(&mut seen[d], true)
        })
    };
    if !rules.regions().iter().all(|r| distinct(r)) {
        return false;
    }
    for cage in rules.cages() {
        if !distinct(&cage.cells) {
            return false;
        }
        if let Some(sum) = cage.sum {
            if cage.cells.iter().all(|&c| grid[c] != 0) {
                let total: u32 = cage.cells.iter().map(|&c| grid[c] as u32).sum();
                if total != sum {
                    return false;
                }
            }
        }
    }
    for thermo in rules.thermos() {
        for w in thermo.windows(2) {
            if grid[w[0]] != 0 && grid[w[1]] != 0 && grid[w[0]] >= grid[w[1]] {
                return false;
            }
        }
    }
    let (si, cells) = (s as isize, s * s);
    for cell in 0..cells {
        let (r, c) = ((cell / s) as isize, (cell % s) as isize);
        let d = grid[cell];
        if d == 0 {
            continue;
        }
        let mut moves: Vec<(isize, isize, bool)> = Vec::new();
        if rules.anti_knight() {
            for (a, b) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                moves.push((a, b, false));
            }
        }
        if rules.anti_king() {
            for a in -1..=1 {
                for b in -1..=1 {
                    if (a, b) != (0, 0) {
                        moves.push((a, b, false));
                    }
                }
            }
        }
        if rules.non_consecutive() {
            for (a, b) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                moves.push((a, b, true));
            }
        }
        for (dr, dc, consecutive) in moves {
            let (r2, c2) = (r + dr, c + dc);
            if !(0..si).contains(&r2) || !(0..si).contains(&c2) {
                continue;
            }
            let other = grid[(r2 * si + c2) as usize];
            if other == 0 {
                continue;
            }
            if (!consecutive && other == d) || (consecutive && other.abs_diff(d) == 1) {
                return false;
            }
        }
    }
    true
}

/// Counts solutions by trying every digit in every empty cell, up to
/// `limit`; with `rng`, digits in random order and the first solution kept.
fn brute(
    rules: &Rules,
    grid: &mut Vec<u8>,
    cell: usize,
    limit: u64,
    found: &mut Vec<Vec<u8>>,
    rng: &mut Option<&mut ChaCha8Rng>,
) -> u64 {
    if cell == grid.len() {
        found.push(grid.clone());
        return 1;
    }
    if grid[cell] != 0 {
        return brute(rules, grid, cell + 1, limit, found, rng);
    }
    let mut digits: Vec<u8> = (1..=rules.side() as u8).collect();
    if let Some(rng) = rng.as_deref_mut() {
        digits.shuffle(rng);
    }
    let mut total = 0;
    for d in digits {
        grid[cell] = d;
        if partial_ok(rules, grid) {
            total += brute(rules, grid, cell + 1, limit - total, found, rng);
            if total >= limit {
                break;
            }
        }
    }
    grid[cell] = 0;
    total
}

fn brute_count(rules: &Rules, puzzle: &[u8], limit: u64) -> u64 {
    if !partial_ok(rules, puzzle) {
        return 0;
    }
    brute(
        rules,
        &mut puzzle.to_vec(),
        0,
        limit,
        &mut Vec::new(),
        &mut None,
    )
}

fn random_solution(rules: &Rules, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
    let mut found = Vec::new();
    let mut grid = vec![0; rules.cells()];
    brute(rules, &mut grid, 0, 1, &mut found, &mut Some(rng));
    found.pop()
}

/// Counts with the solver (group cap `cap`), checking every solution with
/// [`Rules::check`] and with the brute force's rules.
fn solver_count(rules: &Rules, puzzle: &[u8], limit: u64, cap: usize) -> u64 {
    let mut solver = VariantSolver::with_group_cap(rules, puzzle, cap).unwrap();
    let report = solver.search(&Limits::solutions(limit), |grid| {
        assert_eq!(rules.check(grid), Ok(()), "{grid:?}");
        assert!(partial_ok(rules, grid));
        for (g, p) in grid.iter().zip(puzzle) {
            assert!(*p == 0 || p == g);
        }
        Control::Continue
    });
    assert!(report.outcome == Outcome::Exhausted || report.outcome == Outcome::SolutionLimit);
    report.stats.solutions
}

const JIGSAW6: [usize; 36] = [
    0, 0, 0, 1, 1, 1, //
    0, 0, 2, 2, 1, 1, //
    0, 3, 2, 2, 2, 1, //
    3, 3, 3, 2, 4, 4, //
    3, 5, 5, 5, 4, 4, //
    3, 5, 5, 5, 4, 4, //
];

#[test]
fn classic_four_by_four_has_288() {
    let rules = Rules::classic(4);
    assert_eq!(brute_count(&rules, &[0; 16], u64::MAX), 288);
    assert_eq!(
        count(&rules, &[0; 16], &Limits::none())
            .unwrap()
            .stats
            .solutions,
        288
    );
}

#[test]
fn four_by_four_diagonals_match_brute_force() {
    let rules = Rules::classic(4).with_diagonals();
    let expected = brute_count(&rules, &[0; 16], u64::MAX);
    assert!(expected > 0 && expected < 288);
    assert_eq!(
        solver_count(&rules, &[0; 16], u64::MAX, GROUP_CAP),
        expected
    );
}

#[test]
fn empty_grids_of_every_pair_rule_match_brute_force() {
    for base in [Rules::classic(4), Rules::latin(4).unwrap()] {
        for flags in 0..8 {
            let mut rules = base.clone();
            if flags & 1 != 0 {
                rules = rules.with_anti_knight();
            }
            if flags & 2 != 0 {
                rules = rules.with_anti_king();
            }
            if flags & 4 != 0 {
                rules = rules.with_non_consecutive();
            }
            let expected = brute_count(&rules, &[0; 16], u64::MAX);
            assert_eq!(
                solver_count(&rules, &[0; 16], u64::MAX, GROUP_CAP),
                expected,
                "flags {flags}"
            );
        }
    }
}

#[test]
fn rectangular_boxes_and_jigsaw() {
    let six = Rules::classic(6);
    assert_eq!(six.regions().len(), 18);
    assert_eq!(six.regions()[12], vec![0, 1, 2, 6, 7, 8]);
    for (side, r, c) in [(8, 2, 4), (10, 2, 5), (12, 3, 4), (16, 4, 4), (25, 5, 5)] {
        assert_eq!(Rules::classic(side), Rules::boxes(side, r, c).unwrap());
    }
    let jig = Rules::jigsaw(6, &JIGSAW6).unwrap();
    assert_eq!(jig.regions().len(), 18);
    let grid = solve_first(&jig, &[0; 36]).unwrap().unwrap();
    assert_eq!(jig.check(&grid), Ok(()));
    for side in [8, 10] {
        let rules = Rules::classic(side);
        let grid = solve_first(&rules, &vec![0; side * side]).unwrap().unwrap();
        assert_eq!(rules.check(&grid), Ok(()));
    }
    let twelve = Rules::classic(12).with_anti_king();
    let grid = solve_first(&twelve, &[0; 144]).unwrap().unwrap();
    assert_eq!(twelve.check(&grid), Ok(()));
}

#[test]
fn validation_errors() {
    let mut bad = JIGSAW6;
    bad.swap(0, 35); // piece 0 gets a far cell, piece 4 a far one
    assert!(matches!(
        Rules::jigsaw(6, &bad),
        Err(RulesError::PieceNotConnected(_))
    ));
    let mut uneven = JIGSAW6;
    uneven[0] = 1;
    assert!(matches!(
        Rules::jigsaw(6, &uneven),
        Err(RulesError::PieceSize { .. })
    ));
    assert!(matches!(
        Rules::jigsaw(6, &JIGSAW6[1..]),
        Err(RulesError::LayoutLength { .. })
    ));
    assert!(matches!(
        Rules::boxes(6, 3, 3),
        Err(RulesError::BadBoxes { .. })
    ));
    assert!(matches!(Rules::latin(0), Err(RulesError::BadSide(0))));
    let r = Rules::classic(4);
    assert!(matches!(
        r.clone().with_windows(),
        Err(RulesError::WindowsSize(4))
    ));
    assert!(Rules::classic(9).with_windows().unwrap().regions().len() == 31);
    assert!(matches!(
        r.clone().with_region(&[0, 16]),
        Err(RulesError::CellOutOfRange { cell: 16, .. })
    ));
    assert!(matches!(
        r.clone().with_region(&[0, 1, 0]),
        Err(RulesError::RepeatedCell { cell: 0, .. })
    ));
    assert!(matches!(
        r.clone().with_region(&[0, 1, 2, 3, 4]),
        Err(RulesError::TooManyCells { .. })
    ));
    assert!(matches!(
        r.clone().with_cage(&[], None),
        Err(RulesError::Empty(_))
    ));
    assert!(matches!(
        r.clone().with_cage(&[0, 1], Some(8)),
        Err(RulesError::ImpossibleSum { min: 3, max: 7, .. })
    ));
    assert!(matches!(
        r.clone().with_cage(&[0, 1], Some(2)),
        Err(RulesError::ImpossibleSum { .. })
    ));
    assert!(r.clone().with_cage(&[0, 1], Some(7)).is_ok());
    assert!(matches!(
        r.clone().with_thermo(&[0, 2]),
        Err(RulesError::ThermoGap(0, 2))
    ));
    assert!(r.clone().with_thermo(&[0, 5, 10]).is_ok());
    assert!(matches!(
        VariantSolver::new(&r, &[0; 15]),
        Err(RulesError::PuzzleLength { .. })
    ));
    let mut p = [0u8; 16];
    p[3] = 5;
    assert!(matches!(
        VariantSolver::new(&r, &p),
        Err(RulesError::DigitOutOfRange { cell: 3, .. })
    ));
    // Messages are sentences for a person.
    let message = r.with_cage(&[0, 1], Some(8)).unwrap_err().to_string();
    assert!(message.contains("cannot sum to 8"), "{message}");
}

/// Adds random cages (true sums, or none) and thermometers that `solution`
/// satisfies.
fn decorate(rules: Rules, solution: &[u8], rng: &mut ChaCha8Rng) -> Rules {
    let s = rules.side();
    let mut rules = rules;
    let neighbours = |cell: usize, diagonal: bool| -> Vec<usize> {
        let (r, c) = ((cell / s) as isize, (cell % s) as isize);
        let mut out = Vec::new();
        for dr in -1..=1isize {
            for dc in -1..=1isize {
                if (dr, dc) == (0, 0) || (!diagonal && dr != 0 && dc != 0) {
                    continue;
                }
                let (r2, c2) = (r + dr, c + dc);
                if (0..s as isize).contains(&r2) && (0..s as isize).contains(&c2) {
                    out.push((r2 * s as isize + c2) as usize);
                }
            }
        }
        out
    };
    for _ in 0..rng.random_range(0..4) {
        let mut cells = vec![rng.random_range(0..s * s)];
        let size = rng.random_range(1..=4);
        while cells.len() < size {
            let from = cells[rng.random_range(0..cells.len())];
            let options: Vec<usize> = neighbours(from, false)
                .into_iter()
                .filter(|&n| {
                    !cells.contains(&n) && cells.iter().all(|&c| solution[c] != solution[n])
                })
                .collect();
            match options.as_slice().choose(rng) {
                Some(&n) => cells.push(n),
                None => break,
            }
        }
        let sum = cells.iter().map(|&c| solution[c] as u32).sum();
        let sum = (rng.random_range(0..4) != 0).then_some(sum);
        rules = rules.with_cage(&cells, sum).unwrap();
    }
    for _ in 0..rng.random_range(0..3) {
        let mut cells = vec![rng.random_range(0..s * s)];
        let size = rng.random_range(2..=4);
        while cells.len() < size {
            let last = *cells.last().unwrap();
            let options: Vec<usize> = neighbours(last, true)
                .into_iter()
                .filter(|&n| !cells.contains(&n) && solution[n] > solution[last])
                .collect();
            match options.as_slice().choose(rng) {
                Some(&n) => cells.push(n),
                None => break,
            }
        }
        if cells.len() > 1 {
            rules = rules.with_thermo(&cells).unwrap();
        }
    }
    if rng.random_range(0..4) == 0 {
        // An extra region of a few cells with distinct digits.
        let mut cells: Vec<usize> = (0..s * s).collect();
        cells.shuffle(rng);
        let mut region: Vec<usize> = Vec::new();
        for c in cells {
            if region.len() < s - 1 && region.iter().all(|&o| solution[o] != solution[c]) {
                region.push(c);
            }
        }
        rules = rules.with_region(&region).unwrap();
    }
    rules
}

fn random_rules(side: usize, rng: &mut ChaCha8Rng) -> Rules {
    let mut rules = match (side, rng.random_range(0..3)) {
        (6, 0) => Rules::jigsaw(6, &JIGSAW6).unwrap(),
        (_, 1) if side == 4 => Rules::latin(4).unwrap(),
        _ => Rules::classic(side),
    };
    if rng.random_range(0..3) == 0 {
        rules = rules.with_diagonals();
    }
    if rng.random_range(0..3) == 0 {
        rules = rules.with_anti_knight();
    }
    if rng.random_range(0..4) == 0 {
        rules = rules.with_anti_king();
    }
    if rng.random_range(0..4) == 0 {
        rules = rules.with_non_consecutive();
    }
    rules
}

/// Random instances: rules, a random solution of them, cages and
/// thermometers it satisfies, givens from it; counts up to a limit equal
/// the brute force's, with whole-group options and with every group
/// fallen back.
fn random_instances(side: usize, seed: u64, rounds: usize, givens: std::ops::Range<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut compared = 0;
    let mut grouped = 0;
    let mut unsolvable = 0;
    for round in 0..rounds {
        let rules = random_rules(side, &mut rng);
        let Some(solution) = random_solution(&rules, &mut rng) else {
            // The brute force found no grid at all.
            assert_eq!(solver_count(&rules, &vec![0; side * side], 1, GROUP_CAP), 0);
            unsolvable += 1;
            continue;
        };
        let rules = decorate(rules, &solution, &mut rng);
        assert_eq!(rules.check(&solution), Ok(()));
        let mut puzzle = vec![0u8; side * side];
        let mut order: Vec<usize> = (0..side * side).collect();
        order.shuffle(&mut rng);
        for &c in order.iter().take(rng.random_range(givens.clone())) {
            puzzle[c] = solution[c];
        }
        // Now and then a given that contradicts.
        if rng.random_range(0..10) == 0 {
            let c = order[side * side - 1];
            puzzle[c] = (solution[c] % side as u8) + 1;
        }
        let limit = 40;
        let expected = brute_count(&rules, &puzzle, limit);
        let got = solver_count(&rules, &puzzle, limit, GROUP_CAP);
        assert_eq!(got, expected, "round {round}: {rules:?} {puzzle:?}");
        let fallen = solver_count(&rules, &puzzle, limit, 0);
        assert_eq!(
            fallen, expected,
            "fallback, round {round}: {rules:?} {puzzle:?}"
        );
        let tied = rules.cages().iter().any(|c| c.sum.is_some()) || !rules.thermos().is_empty();
        if tied && expected > 0 {
            grouped += 1;
            assert!(VariantSolver::with_group_cap(&rules, &puzzle, 0)
                .unwrap()
                .has_fallback());
        }
        compared += 1;
    }
    assert!(
        compared > rounds / 3,
        "{compared} ({unsolvable} unsolvable) of {rounds}"
    );
    assert!(grouped > rounds / 5, "{grouped} of {rounds}");
}

#[test]
fn random_four_by_four_match_brute_force() {
    random_instances(4, 36, 300, 0..8);
}

#[test]
fn random_six_by_six_match_brute_force() {
    random_instances(6, 3606, 60, 10..22);
}

#[test]
fn contradicting_givens_have_no_solution() {
    let rules = Rules::classic(4).with_cage(&[5, 6], Some(3)).unwrap();
    let mut puzzle = [0u8; 16];
    puzzle[0] = 2;
    puzzle[3] = 2; // the same row
    assert_eq!(solve_first(&rules, &puzzle).unwrap(), None);
    let mut puzzle = [0u8; 16];
    puzzle[5] = 3; // the cage of sum 3 needs 1 and 2
    assert_eq!(solve_first(&rules, &puzzle).unwrap(), None);
    puzzle[5] = 2;
    let grid = solve_first(&rules, &puzzle).unwrap().unwrap();
    assert_eq!((grid[5], grid[6]), (2, 1));
}

#[test]
fn limits_and_stopping() {
    let rules = Rules::classic(4);
    let mut solver = VariantSolver::new(&rules, &[0; 16]).unwrap();
    let report = solver.count(&Limits::solutions(10));
    assert_eq!(
        (report.outcome, report.stats.solutions),
        (Outcome::SolutionLimit, 10)
    );
    let report = solver.search(&Limits::none(), |_| Control::Stop);
    assert_eq!(
        (report.outcome, report.stats.solutions),
        (Outcome::Stopped, 1)
    );
    let budget = Limits {
        node_budget: Some(5),
        ..Limits::none()
    };
    assert_eq!(solver.count(&budget).outcome, Outcome::NodeBudget);
    // A fallback group's rejected solutions are not counted toward a limit.
    let caged = Rules::classic(4).with_cage(&[0, 1], Some(3)).unwrap();
    let mut fallen = VariantSolver::with_group_cap(&caged, &[0; 16], 0).unwrap();
    let all = fallen.count(&Limits::none()).stats.solutions;
    assert_eq!(all, brute_count(&caged, &[0; 16], u64::MAX));
    let mut grids = Vec::new();
    let report = fallen.search(&Limits::solutions(all), |g| {
        grids.push(g.to_vec());
        Control::Continue
    });
    assert_eq!(report.stats.solutions, all);
    assert!(grids.iter().all(|g| g[0] + g[1] == 3));
}

#[test]
fn over_the_cap_a_group_falls_back() {
    // A 9-cell cage summing to 45 has 9! assignments, past the cap.
    let cage: Vec<usize> = (0..9).collect();
    let rules = Rules::classic(9).with_cage(&cage, Some(45)).unwrap();
    let mut solver = VariantSolver::new(&rules, &[0; 81]).unwrap();
    assert!(solver.has_fallback());
    let grid = solver.first().unwrap();
    assert_eq!(rules.check(&grid), Ok(()));
    // A small cage stays whole-group.
    let small = Rules::classic(9).with_cage(&[0, 1], Some(17)).unwrap();
    let mut solver = VariantSolver::new(&small, &[0; 81]).unwrap();
    assert!(!solver.has_fallback());
    let grid = solver.first().unwrap();
    assert_eq!(grid[0] + grid[1], 17);
}

/// A 9×9 jigsaw + X + killer puzzle built from one of its solutions: the
/// solver finds a solution that keeps every rule.
#[test]
fn a_nine_by_nine_jigsaw_x_killer_is_solved() {
    // Classic boxes with cells swapped between neighbouring boxes.
    let mut layout: Vec<usize> = (0..81).map(|c| (c / 27) * 3 + (c % 9) / 3).collect();
    for (a, b) in [
        (2 * 9 + 2, 3),
        (4 * 9 + 5, 3 * 9 + 6),
        (8 * 9 + 2, 6 * 9 + 3),
        (5 * 9, 6 * 9 + 1),
    ] {
        layout.swap(a, b);
    }
    let rules = Rules::jigsaw(9, &layout).unwrap().with_diagonals();
    let solution = solve_first(&rules, &[0; 81]).unwrap().unwrap();
    assert_eq!(rules.check(&solution), Ok(()));
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut killer = rules.clone();
    // Cages of two or three cells tiling most of the grid.
    let mut used = [false; 81];
    for cell in 0..81 {
        if used[cell] || rng.random_range(0..3) == 0 {
            continue;
        }
        let mut cells = vec![cell];
        for next in [cell + 1, cell + 9] {
            if next < 81
                && !used[next]
                && (next != cell + 1 || cell % 9 != 8)
                && cells.iter().all(|&c| solution[c] != solution[next])
            {
                cells.push(next);
            }
        }
        for &c in &cells {
            used[c] = true;
        }
        let sum = cells.iter().map(|&c| solution[c] as u32).sum();
        killer = killer.with_cage(&cells, Some(sum)).unwrap();
    }
    let mut puzzle = vec![0u8; 81];
    for c in (0..81).step_by(7) {
        puzzle[c] = solution[c];
    }
    let mut found = 0;
    search(&killer, &puzzle, &Limits::solutions(2), |grid| {
        assert_eq!(killer.check(grid), Ok(()));
        assert!(puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g));
        found += 1;
        Control::Continue
    })
    .unwrap();
    assert!(found >= 1, "the grid it was made from is a solution");
}
