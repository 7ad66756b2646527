//! `sudoku::variant` against the shared checker's independent brute force
//! (`cover_check::variant`): counts up to a limit on random 4×4 and 6×6
//! instances of every rule and on small overlapping grids (Samurai's kin
//! made of 4×4 grids), and every solution checked rule by rule; Samurai
//! solutions and a Samurai puzzle checked by the checker's own Samurai.

use cover_check::variant::{
    check_variant_solution, count_variant_brute, first_variant_brute, VariantRules,
};
use cover_models::sudoku::variant::{Rules, SumEncoding, VariantSolver, GROUP_CAP};
use dlx_core::{Control, Limits, Outcome};
use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

mod common;
use common::to_check;

const JIGSAW6: [usize; 36] = [
    0, 0, 0, 1, 1, 1, //
    0, 0, 2, 2, 1, 1, //
    0, 3, 2, 2, 2, 1, //
    3, 3, 3, 2, 4, 4, //
    3, 5, 5, 5, 4, 4, //
    3, 5, 5, 5, 4, 4, //
];

/// The encodings of sums and thermometers: whole groups, every group
/// fallen back to checks, propagated.
const ENCODINGS: [SumEncoding; 3] = [
    SumEncoding::Enumerated {
        group_cap: GROUP_CAP,
    },
    SumEncoding::Enumerated { group_cap: 0 },
    SumEncoding::Propagated,
];

fn solver_count(
    rules: &Rules,
    check: &VariantRules,
    puzzle: &[u8],
    limit: u64,
    encoding: SumEncoding,
) -> u64 {
    let mut solver = VariantSolver::with_encoding(rules, puzzle, encoding).unwrap();
    let report = solver.search(&Limits::solutions(limit), |grid| {
        assert_eq!(rules.check(grid), Ok(()), "{grid:?}");
        if let Err(why) = check_variant_solution(check, puzzle, grid) {
            panic!("{grid:?}: {why}");
        }
        for (g, p) in grid.iter().zip(puzzle) {
            assert!(*p == 0 || p == g);
        }
        Control::Continue
    });
    assert!(matches!(
        report.outcome,
        Outcome::Exhausted | Outcome::SolutionLimit
    ));
    report.stats.solutions
}

/// Small overlapping grids of 4×4 sudoku (frame side, grids' top-left
/// cells), with holes at the corners.
const OVERLAPPING: [(usize, &[(usize, usize)]); 3] = [
    (6, &[(0, 0), (2, 2)]),
    (6, &[(0, 2), (2, 0)]),
    (8, &[(0, 0), (2, 2), (4, 4)]),
];

/// Random base rules for `side`; side 0 picks one of [`OVERLAPPING`].
fn random_rules(side: usize, rng: &mut ChaCha8Rng) -> Rules {
    let mut rules = match (side, rng.random_range(0..3)) {
        (0, shape) => {
            let (frame, grids) = OVERLAPPING[shape];
            Rules::overlapping(frame, 2, 2, grids).unwrap()
        }
        (6, 0) => Rules::jigsaw(6, &JIGSAW6).unwrap(),
        (4, 1) => Rules::latin(4).unwrap(),
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

/// Cages (true sums or none; sometimes tiling the grid, as in a killer)
/// and thermometers along valid paths that `solution` satisfies.
fn decorate(mut rules: Rules, solution: &[u8], rng: &mut ChaCha8Rng) -> Rules {
    let s = rules.side();
    let is_cell: Vec<bool> = (0..s * s).map(|c| rules.is_cell(c)).collect();
    let near = |cell: usize, diagonal: bool| -> Vec<usize> {
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
                out.retain(|&cell| is_cell[cell]);
            }
        }
        out
    };
    let inside: Vec<usize> = (0..s * s).filter(|&c| is_cell[c]).collect();
    // A third of the time, a killer: cages tiling the grid.
    if rng.random_range(0..3) == 0 {
        let mut caged = vec![false; s * s];
        let mut order = inside.clone();
        order.shuffle(rng);
        for &start in &order {
            if caged[start] {
                continue;
            }
            caged[start] = true;
            let mut cells = vec![start];
            let size = rng.random_range(1..=4);
            while cells.len() < size {
                let from = cells[rng.random_range(0..cells.len())];
                let options: Vec<usize> = near(from, false)
                    .into_iter()
                    .filter(|&n| !caged[n] && cells.iter().all(|&c| solution[c] != solution[n]))
                    .collect();
                match options.as_slice().choose(rng) {
                    Some(&n) => {
                        caged[n] = true;
                        cells.push(n);
                    }
                    None => break,
                }
            }
            let sum = cells.iter().map(|&c| solution[c] as u32).sum();
            let sum = (rng.random_range(0..8) != 0).then_some(sum);
            rules = rules.with_cage(&cells, sum).unwrap();
        }
    }
    for _ in 0..rng.random_range(0..4) {
        let mut cells = vec![*inside.choose(rng).unwrap()];
        let size = rng.random_range(1..=4);
        while cells.len() < size {
            let from = cells[rng.random_range(0..cells.len())];
            let options: Vec<usize> = near(from, false)
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
        let mut cells = vec![*inside.choose(rng).unwrap()];
        let size = rng.random_range(2..=4);
        while cells.len() < size {
            let last = *cells.last().unwrap();
            let options: Vec<usize> = near(last, true)
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
    rules
}

/// Random rules of `side` (0: small overlapping grids), decorated from a
/// solution, some of its digits given: the solver's counts equal the
/// brute force's, in every encoding of sums.
fn random_instances(side: usize, seed: u64, rounds: usize, givens: std::ops::Range<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for round in 0..rounds {
        let rules = random_rules(side, &mut rng);
        let empty = vec![0u8; rules.cells()];
        let check = to_check(&rules);
        // A solution from the brute force, relabelled at random would break
        // non-consecutive; so take the solver's first and the brute force's
        // first, which must agree on existence.
        let mine = VariantSolver::new(&rules, &empty).unwrap().first();
        let theirs = first_variant_brute(&check, &empty);
        assert_eq!(mine.is_some(), theirs.is_some(), "round {round}: {rules:?}");
        let Some(mut solution) = theirs else { continue };
        if rng.random_range(0..2) == 0 {
            solution = mine.unwrap();
        }
        let rules = decorate(rules, &solution, &mut rng);
        let check = to_check(&rules);
        if let Err(why) = check_variant_solution(&check, &empty, &solution) {
            panic!("{solution:?}: {why}");
        }
        let mut puzzle = empty.clone();
        let mut order: Vec<usize> = (0..rules.cells()).filter(|&c| rules.is_cell(c)).collect();
        order.shuffle(&mut rng);
        for &c in order.iter().take(rng.random_range(givens.clone())) {
            puzzle[c] = solution[c];
        }
        let limit = 40;
        let expected = count_variant_brute(&check, &puzzle, limit);
        for encoding in ENCODINGS {
            assert_eq!(
                solver_count(&rules, &check, &puzzle, limit, encoding),
                expected,
                "{encoding:?}, round {round}: {rules:?} {puzzle:?}"
            );
        }
    }
}

#[test]
fn classic_and_diagonal_four_by_four_counts() {
    for rules in [Rules::classic(4), Rules::classic(4).with_diagonals()] {
        let check = to_check(&rules);
        let expected = count_variant_brute(&check, &[0; 16], u64::MAX);
        assert_eq!(
            solver_count(&rules, &check, &[0; 16], u64::MAX, ENCODINGS[0]),
            expected
        );
    }
    assert_eq!(
        count_variant_brute(&to_check(&Rules::classic(4)), &[0; 16], u64::MAX),
        288
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
            let check = to_check(&rules);
            let expected = count_variant_brute(&check, &[0; 16], u64::MAX);
            assert_eq!(
                solver_count(&rules, &check, &[0; 16], u64::MAX, ENCODINGS[0]),
                expected,
                "flags {flags}"
            );
        }
    }
}

#[test]
fn random_four_by_four() {
    random_instances(4, 4036, 300, 0..8);
}

#[test]
fn random_six_by_six() {
    random_instances(6, 6036, 60, 10..22);
}

#[test]
fn random_small_overlapping_grids() {
    random_instances(0, 3636, 120, 0..14);
}

#[test]
fn overlapping_grids_count_as_the_brute_force() {
    for (frame, grids) in OVERLAPPING {
        let rules = Rules::overlapping(frame, 2, 2, grids).unwrap();
        let check = to_check(&rules);
        // The checker's own layout of the same grids holes the same cells.
        let own = VariantRules::overlapping(frame, 2, 2, grids);
        assert_eq!(own.holes, check.holes);
        let empty = vec![0u8; rules.cells()];
        let expected = count_variant_brute(&own, &empty, u64::MAX);
        assert_eq!(
            solver_count(&rules, &check, &empty, u64::MAX, ENCODINGS[0]),
            expected,
            "{grids:?}"
        );
    }
}

/// Samurai solutions of the solver keep the checker's Samurai (built on
/// its own), with and without extra rules.
#[test]
fn samurai_solutions_pass_the_checker() {
    let own = VariantRules::samurai();
    for rules in [Rules::samurai(), Rules::samurai().with_diagonals()] {
        let empty = vec![0u8; 441];
        let check = to_check(&rules);
        assert_eq!(check.holes, own.holes);
        let grid = VariantSolver::new(&rules, &empty).unwrap().first().unwrap();
        assert_eq!(rules.check(&grid), Ok(()));
        check_variant_solution(&own, &empty, &grid).unwrap();
        check_variant_solution(&check, &empty, &grid).unwrap();
    }
}

/// A Samurai puzzle made from a solution: digits taken away in a random
/// order while the solution stays unique; the puzzle then has exactly one
/// solution, which the checker accepts and which is the grid it came from.
#[test]
fn a_samurai_puzzle_has_one_solution() {
    let samurai = Rules::samurai();
    let own = VariantRules::samurai();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    // A solution other than the solver's first: digits of the centre box
    // shuffled and given, the rest found.
    let mut seed = vec![0u8; 441];
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(&mut rng);
    for (i, &d) in digits.iter().enumerate() {
        seed[(9 + i / 3) * 21 + 9 + i % 3] = d;
    }
    let solution = VariantSolver::new(&samurai, &seed)
        .unwrap()
        .first()
        .unwrap();
    check_variant_solution(&own, &seed, &solution).unwrap();
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..441).filter(|&c| samurai.is_cell(c)).collect();
    order.shuffle(&mut rng);
    for &cell in order.iter().take(220) {
        let digit = std::mem::replace(&mut puzzle[cell], 0);
        let report = VariantSolver::new(&samurai, &puzzle)
            .unwrap()
            .count(&Limits::solutions(2));
        if report.stats.solutions > 1 {
            puzzle[cell] = digit;
        }
    }
    let givens = puzzle.iter().filter(|&&d| d != 0).count();
    assert!(givens < 250, "{givens} givens");
    let mut found = Vec::new();
    let report = VariantSolver::new(&samurai, &puzzle)
        .unwrap()
        .search(&Limits::none(), |grid| {
            found.push(grid.to_vec());
            Control::Continue
        });
    assert_eq!(report.outcome, Outcome::Exhausted);
    assert_eq!(found, vec![solution.clone()]);
    check_variant_solution(&own, &puzzle, &found[0]).unwrap();
    // The checker sees a hole given a digit as a wrong puzzle.
    let mut wrong = puzzle;
    wrong[9] = 5;
    assert!(check_variant_solution(&own, &wrong, &solution).is_err());
}

/// One grid asked for under anti-knight or anti-king: the search restarts
/// (options reordered); what it gives is still a solution, and a node
/// budget holds over all its runs.
#[test]
fn restarted_searches_give_checked_grids_within_the_budget() {
    for rules in [
        Rules::classic(9).with_anti_knight(),
        Rules::classic(9).with_anti_king(),
        Rules::classic(9).with_anti_knight().with_diagonals(),
    ] {
        let check = to_check(&rules);
        let empty = [0u8; 81];
        let mut solver = VariantSolver::new(&rules, &empty).unwrap();
        let grid = solver.first().unwrap();
        check_variant_solution(&check, &empty, &grid).unwrap();
    }
    let rules = Rules::classic(9).with_anti_knight();
    let mut solver = VariantSolver::new(&rules, &[0; 81]).unwrap();
    let budget = Limits::none()
        .with_max_solutions(Some(1))
        .with_node_budget(Some(700));
    // The plain run alone takes millions of nodes; 700 are spent over two
    // runs and the search stops, however many runs it took.
    let report = solver.count(&budget);
    assert_eq!(report.outcome, Outcome::NodeBudget);
    assert!(report.stats.nodes <= 710, "{:?}", report.stats);
}
