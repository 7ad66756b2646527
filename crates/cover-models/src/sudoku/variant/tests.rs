//! The variant solver's own cases: shapes, validation, limits, the
//! fallback. Its counts against the shared checker's brute force
//! (`cover_check::variant`) are in `tests/variant_brute.rs`.

use super::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const JIGSAW6: [usize; 36] = [
    0, 0, 0, 1, 1, 1, //
    0, 0, 2, 2, 1, 1, //
    0, 3, 2, 2, 2, 1, //
    3, 3, 3, 2, 4, 4, //
    3, 5, 5, 5, 4, 4, //
    3, 5, 5, 5, 4, 4, //
];

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
    // Relabelling digits keeps every 4×4 grid, so each of the six pairs
    // of digits fills cells 0 and 1 in 288 / 6 grids; {1, 2} sums to 3.
    assert_eq!(all, 48);
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
