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
    let budget = Limits::none().with_node_budget(Some(5));
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
    // A 9-cell cage summing to 45 tied to a thermometer: 9! / 2 assignments
    // for the group, past the cap.
    let cage: Vec<usize> = (0..9).collect();
    let rules = Rules::classic(9)
        .with_cage(&cage, Some(45))
        .unwrap()
        .with_thermo(&[0, 1])
        .unwrap();
    let mut solver = VariantSolver::with_group_cap(&rules, &[0; 81], GROUP_CAP).unwrap();
    assert!(solver.has_fallback());
    let grid = solver.first().unwrap();
    assert_eq!(rules.check(&grid), Ok(()));
    // The cage alone has one set of digits: its combinations, no fallback.
    let lone = Rules::classic(9).with_cage(&cage, Some(45)).unwrap();
    let mut solver = VariantSolver::with_group_cap(&lone, &[0; 81], GROUP_CAP).unwrap();
    assert!(!solver.has_fallback());
    assert_eq!(lone.check(&solver.first().unwrap()), Ok(()));
    // A small cage with a thermometer stays a whole group.
    let small = Rules::classic(9)
        .with_cage(&[0, 1], Some(17))
        .unwrap()
        .with_thermo(&[0, 1])
        .unwrap();
    let mut solver = VariantSolver::with_group_cap(&small, &[0; 81], GROUP_CAP).unwrap();
    assert!(!solver.has_fallback());
    let grid = solver.first().unwrap();
    assert_eq!((grid[0], grid[1]), (8, 9));
    // Propagated (the default with a sum), nothing falls back.
    for rules in [&rules, &lone, &small] {
        let mut solver = VariantSolver::new(rules, &[0; 81]).unwrap();
        assert!(!solver.has_fallback());
        assert_eq!(rules.check(&solver.first().unwrap()), Ok(()));
    }
}

#[test]
fn a_lone_cage_takes_exactly_its_combinations() {
    // 4×4: a cage of cells 0, 1 summing to 3 is {1, 2} in either order,
    // 48 grids (see above); with a given 1 in cell 0, cell 1 must be 2.
    // A cap of 1 is below its 2 assignments and at its 1 set of digits,
    // so the cage is encoded by its combinations.
    let rules = Rules::classic(4).with_cage(&[0, 1], Some(3)).unwrap();
    let solve = |given: &[u8]| {
        let mut solver = VariantSolver::with_group_cap(&rules, given, 1).unwrap();
        assert!(!solver.has_fallback());
        solver.count(&Limits::none()).stats.solutions
    };
    assert_eq!(solve(&[0; 16]), 48);
    let mut given = [0u8; 16];
    given[0] = 1;
    assert_eq!(solve(&given), 24);
    // A given outside every set of the sum leaves no solution.
    given[0] = 3;
    assert_eq!(solve(&given), 0);
    // No set of two distinct digits of 1..=4 sums to 8.
    assert_eq!(digit_sets(4, 2, 8, 10), Some(vec![]));
    assert_eq!(digit_sets(4, 2, 5, 10), Some(vec![0b1001, 0b0110]));
    assert_eq!(digit_sets(4, 2, 5, 1), None);
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

#[test]
fn samurai_shape() {
    let samurai = Rules::samurai();
    assert_eq!(
        (samurai.side(), samurai.digits(), samurai.cells()),
        (21, 9, 441)
    );
    assert_eq!(samurai.grids(), &SAMURAI_GRIDS);
    // Five grids of 27 regions; the centre shares one box with each corner.
    assert_eq!(samurai.regions().len(), 5 * 27 - 4);
    let holes: Vec<usize> = (0..441).filter(|&c| !samurai.is_cell(c)).collect();
    assert_eq!(holes.len(), 441 - (5 * 81 - 4 * 9));
    // r1c10 (between the top grids) and r10c1 (left of the centre) are holes,
    // r7c10 (the centre's top row) and r1c13 (the top-right grid) are not.
    for (cell, inside) in [(9, false), (9 * 21, false), (6 * 21 + 9, true), (12, true)] {
        assert_eq!(samurai.is_cell(cell), inside, "cell {cell}");
    }
    assert!(!samurai.is_cell(441));
    // Every region has nine cells, none a hole.
    assert!(samurai
        .regions()
        .iter()
        .all(|r| r.len() == 9 && r.iter().all(|&c| samurai.is_cell(c))));
    // One grid filling its frame is the classic sudoku.
    assert_eq!(
        Rules::overlapping(9, 3, 3, &[(0, 0)]).unwrap().regions(),
        Rules::classic(9).regions()
    );
    let classic = Rules::classic(9);
    assert!((0..81).all(|c| classic.is_cell(c)) && !classic.is_cell(81));
    assert_eq!(classic.digits(), 9);
    assert!(classic.grids().is_empty());
}

#[test]
fn samurai_builders_and_errors() {
    let samurai = Rules::samurai();
    // Diagonals and windows go in each grid.
    let x = samurai.clone().with_diagonals();
    assert_eq!(x.regions().len(), samurai.regions().len() + 10);
    assert!(x.regions()[131..]
        .iter()
        .all(|d| d.len() == 9 && d.iter().all(|&c| samurai.is_cell(c))));
    assert_eq!(x.regions()[131][8], 8 * 21 + 8);
    let windows = samurai.clone().with_windows().unwrap();
    assert_eq!(windows.regions().len(), samurai.regions().len() + 20);
    assert!(matches!(
        Rules::overlapping(6, 2, 2, &[(0, 0), (2, 2)])
            .unwrap()
            .with_windows(),
        Err(RulesError::WindowsSize(4))
    ));
    // Cages, regions and thermometers only on cells of the puzzle.
    let hole = 9;
    assert!(matches!(
        samurai.clone().with_cage(&[8, hole], Some(10)),
        Err(RulesError::NotACell { cell: 9, .. })
    ));
    assert!(matches!(
        samurai.clone().with_thermo(&[hole, 10]),
        Err(RulesError::NotACell { .. })
    ));
    assert!(matches!(
        samurai.clone().with_region(&[hole]),
        Err(RulesError::NotACell { .. })
    ));
    // Sums and sizes by the nine digits, not the frame's side.
    assert!(matches!(
        samurai.clone().with_cage(&[0, 1], Some(18)),
        Err(RulesError::ImpossibleSum { max: 17, .. })
    ));
    // Column 1 of the top-left grid and its bottom-left neighbour's top.
    let ten: Vec<usize> = (0..9).chain([12]).map(|r| r * 21).collect();
    assert!(matches!(
        samurai.clone().with_region(&ten),
        Err(RulesError::TooManyCells { side: 9, .. })
    ));
    assert!(matches!(
        Rules::overlapping(21, 3, 3, &[(0, 0), (13, 0)]),
        Err(RulesError::GridOutside { row: 13, .. })
    ));
    assert!(matches!(
        Rules::overlapping(21, 3, 3, &[]),
        Err(RulesError::NoGrids)
    ));
    assert!(matches!(
        Rules::overlapping(8, 3, 3, &[(0, 0)]),
        Err(RulesError::BadBoxes { .. })
    ));
    assert!(matches!(
        Rules::overlapping(65, 3, 3, &[(0, 0)]),
        Err(RulesError::BadSide(65))
    ));
    // A puzzle's digit outside the grids, or past 9, is refused.
    let mut puzzle = vec![0u8; 441];
    puzzle[hole] = 1;
    let error = VariantSolver::new(&samurai, &puzzle).unwrap_err();
    assert!(matches!(
        error,
        RulesError::DigitOutsideGrids { cell: 9, digit: 1 }
    ));
    assert!(error.to_string().contains("outside the grids"), "{error}");
    puzzle[hole] = 0;
    puzzle[0] = 10;
    assert!(matches!(
        VariantSolver::new(&samurai, &puzzle),
        Err(RulesError::DigitOutOfRange { side: 9, .. })
    ));
    // The pair rules never name a hole.
    let knight = samurai.with_anti_knight().with_non_consecutive();
    assert!(knight
        .pair_rules()
        .iter()
        .chain(&knight.neighbours())
        .all(|&(a, b)| knight.is_cell(a) && knight.is_cell(b)));
}

#[test]
fn samurai_solutions_keep_the_holes_empty() {
    let samurai = Rules::samurai();
    let grid = solve_first(&samurai, &[0; 441]).unwrap().unwrap();
    assert_eq!(samurai.check(&grid), Ok(()));
    assert!((0..441).all(|c| (grid[c] == 0) != samurai.is_cell(c)));
    // A digit in a hole, or a cell left empty, breaks the grid.
    let mut filled = grid.clone();
    filled[9] = 1;
    assert_eq!(samurai.check(&filled), Err(Violation::Cell(9)));
    let mut emptied = grid.clone();
    emptied[0] = 0;
    assert_eq!(samurai.check(&emptied), Err(Violation::Cell(0)));
    // The centre grid's top-left box is the top-left grid's bottom-right
    // one: a swap inside it breaks a row of both.
    let mut swapped = grid;
    swapped.swap(6 * 21 + 6, 6 * 21 + 7);
    assert!(matches!(samurai.check(&swapped), Err(Violation::Region(_))));
}

/// A rule of one's own that removes the given options at every node.
#[derive(Clone)]
struct Removes(Vec<usize>);

impl dlx_core::Propagator for Removes {
    fn propagate(&mut self, domain: &mut dyn dlx_core::Domain) -> dlx_core::Verdict {
        self.0.iter().for_each(|&o| domain.remove(o));
        dlx_core::Verdict::Live
    }

    fn box_clone(&self) -> Box<dyn dlx_core::Propagator> {
        Box::new(self.clone())
    }
}

#[test]
fn rules_of_ones_own_narrow_and_check() {
    // Checked only: a quarter of the 288 grids of 4×4 have 1 in cell 0.
    let rules = Rules::classic(4);
    let mut solver = VariantSolver::new(&rules, &[0; 16]).unwrap();
    solver.add_rule(Box::new(Removes(Vec::new())), |grid| grid[0] == 1);
    assert_eq!(solver.count(&Limits::none()).stats.solutions, 72);
    // After the solver's own propagator (a cage of cells 0 and 1 summing
    // to 3: 48 grids), a rule that keeps only 1 in cell 0: half of them.
    let caged = Rules::classic(4).with_cage(&[0, 1], Some(3)).unwrap();
    let mut solver = VariantSolver::new(&caged, &[0; 16]).unwrap();
    let not_one: Vec<usize> = (0..solver.problem().option_count())
        .filter(|&o| solver.placements(o).iter().any(|&(c, d)| c == 0 && d != 1))
        .collect();
    assert!(!not_one.is_empty());
    solver.add_rule(Box::new(Removes(not_one)), |grid| grid[0] == 1);
    let mut grids = Vec::new();
    let report = solver.search(&Limits::none(), |grid| {
        grids.push(grid.to_vec());
        Control::Continue
    });
    assert_eq!(report.stats.solutions, 24);
    assert!(report.stats.propagated > 0);
    assert!(grids.iter().all(|g| (g[0], g[1]) == (1, 2)));
    // No restarts with a rule of one's own: the first grid still keeps it.
    let knight = Rules::classic(4).with_anti_knight();
    let mut solver = VariantSolver::new(&knight, &[0; 16]).unwrap();
    solver.add_rule(Box::new(Removes(Vec::new())), |grid| grid[5] == 4);
    if let Some(grid) = solver.first() {
        assert_eq!(grid[5], 4);
        assert_eq!(knight.check(&grid), Ok(()));
    }
}

#[test]
fn a_cell_the_givens_leave_no_digit_under_a_cage_has_no_solution() {
    // Row 1 holds 1 to 8, and 9 is below its empty cell: nothing fits
    // there; a cage on that cell puts the sum propagator to work on it.
    let rules = Rules::classic(9).with_cage(&[8, 16], Some(10)).unwrap();
    let mut puzzle = [0u8; 81];
    for (cell, digit) in (1..=8).enumerate() {
        puzzle[cell] = digit;
    }
    puzzle[17] = 9;
    for encoding in [
        SumEncoding::Propagated,
        SumEncoding::Enumerated {
            group_cap: GROUP_CAP,
        },
    ] {
        let mut solver = VariantSolver::with_encoding(&rules, &puzzle, encoding).unwrap();
        assert_eq!(
            solver.count(&Limits::none()).stats.solutions,
            0,
            "{encoding:?}"
        );
        assert_eq!(solver.first(), None);
    }
}
