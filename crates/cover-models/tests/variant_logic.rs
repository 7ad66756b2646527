//! Human logic on variants (`Geometry::from_rules`, `human::rate`): on
//! jigsaw, X, windoku, 6×6 and killer puzzles made here from the variant
//! engine's solutions, every step agrees with the one solution (no
//! placement of another digit, no elimination of the solution's digit) and
//! the solved grid passes the shared checker (`cover_check::variant`).

use cover_check::variant::check_variant_solution;
use cover_models::sudoku::human::{self, Catalogue, Rated, Technique};
use cover_models::sudoku::logic::{Geometry, GeometryError, UnitKind};
use cover_models::sudoku::variant::{count, solve_first, Rules};
use dlx_core::Limits;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

mod common;
use common::to_check;

fn unique(rules: &Rules, puzzle: &[u8]) -> bool {
    count(rules, puzzle, &Limits::solutions(2))
        .unwrap()
        .stats
        .solutions
        == 1
}

/// A full grid of `rules`: the engine's first solution under a random
/// first row (another row when that one has none).
fn random_solution(rules: &Rules, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let s = rules.side();
    loop {
        let mut row: Vec<u8> = (1..=s as u8).collect();
        row.shuffle(rng);
        let mut puzzle = vec![0u8; s * s];
        puzzle[..s].copy_from_slice(&row);
        if let Some(grid) = solve_first(rules, &puzzle).unwrap() {
            return grid;
        }
    }
}

/// Checks a rating against the unique solution: every step sound, and the
/// grid, when solved, a solution of `puzzle` by the shared checker.
fn assert_sound(rules: &Rules, puzzle: &[u8], solution: &[u8], rated: &Rated) {
    for step in &rated.steps {
        for p in &step.placements {
            assert_eq!(
                solution[usize::from(p.cell)],
                p.digit,
                "{step:?} places a wrong digit"
            );
        }
        for e in &step.eliminations {
            assert_ne!(
                solution[usize::from(e.cell)],
                e.digit,
                "{step:?} removes the solution's digit"
            );
        }
    }
    if rated.solved {
        assert_eq!(
            check_variant_solution(&to_check(rules), puzzle, &rated.grid),
            Ok(())
        );
        assert_eq!(rated.grid, solution);
    }
}

/// A puzzle of `rules` from a random solution: givens taken away in a
/// random order while the solution stays unique and logic (through
/// `rate_variant`) still solves it, every rating on the way checked.
/// Returns the puzzle, its solution and its rating.
fn make_puzzle(rules: &Rules, seed: u64) -> (Vec<u8>, Vec<u8>, Rated) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let solution = random_solution(rules, &mut rng);
    thin(rules, solution, &mut rng)
}

/// [`make_puzzle`] from a given solution of `rules`.
fn thin(rules: &Rules, solution: Vec<u8>, rng: &mut ChaCha8Rng) -> (Vec<u8>, Vec<u8>, Rated) {
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..puzzle.len()).collect();
    order.shuffle(rng);
    let mut rated = human::rate_variant(rules, &puzzle).unwrap();
    for cell in order {
        let given = puzzle[cell];
        puzzle[cell] = 0;
        if !unique(rules, &puzzle) {
            puzzle[cell] = given;
            continue;
        }
        let attempt = human::rate_variant(rules, &puzzle).unwrap();
        assert_sound(rules, &puzzle, &solution, &attempt);
        if attempt.solved {
            rated = attempt;
        } else {
            puzzle[cell] = given;
        }
    }
    (puzzle, solution, rated)
}

fn used(rated: &Rated, techniques: &[Technique]) -> bool {
    rated
        .steps
        .iter()
        .any(|s| techniques.contains(&s.technique))
}

const CHAINS: &[Technique] = &[
    Technique::XCycle,
    Technique::XChain,
    Technique::XYChain,
    Technique::Cycle,
    Technique::Aic,
    Technique::Nishio,
    Technique::CellForcingChain,
    Technique::RegionForcingChain,
    Technique::ContradictionForcingChain,
    Technique::DoubleForcingChain,
    Technique::DynamicCellForcingChain,
    Technique::DynamicRegionForcingChain,
    Technique::DynamicContradictionForcingChain,
    Technique::DynamicDoubleForcingChain,
];

const LOCKED_OR_SUBSETS: &[Technique] = &[
    Technique::Pointing,
    Technique::Claiming,
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::NakedQuad,
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::HiddenQuad,
];

/// A 9×9 jigsaw layout: the classic boxes with adjacent cells of different
/// pieces swapped at random while every piece stays connected.
fn jigsaw_layout(rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut layout: Vec<usize> = (0..81).map(|c| (c / 27) * 3 + (c % 9) / 3).collect();
    let mut swaps = 0;
    while swaps < 40 {
        let a = rng.random_range(0..81usize);
        let b = if rng.random_bool(0.5) && a % 9 < 8 {
            a + 1
        } else if a < 72 {
            a + 9
        } else {
            continue;
        };
        if layout[a] == layout[b] {
            continue;
        }
        // Swapping a cell of piece P next to one of Q: move a to Q, then
        // another cell of Q next to P back to P, sizes kept.
        let (p, q) = (layout[a], layout[b]);
        let mut trial = layout.clone();
        trial[a] = q;
        let back: Vec<usize> = (0..81)
            .filter(|&c| trial[c] == q && c != a && c != b)
            .filter(|&c| {
                let (r, k) = (c / 9, c % 9);
                [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dr, dk)| {
                    let (r2, k2) = (r + dr, k + dk);
                    (1..=9).contains(&r2)
                        && (1..=9).contains(&k2)
                        && trial[(r2 - 1) * 9 + k2 - 1] == p
                })
            })
            .collect();
        let Some(&c) = back.get(rng.random_range(0..back.len().max(1))) else {
            continue;
        };
        trial[c] = p;
        if Rules::jigsaw(9, &trial).is_ok() {
            layout = trial;
            swaps += 1;
        }
    }
    layout
}

#[test]
fn from_rules_of_a_classic_grid_is_the_classic_geometry() {
    let geometry = Geometry::from_rules(&Rules::classic(9)).unwrap();
    assert!(geometry.is_classic());
    assert_eq!(geometry.units(), 27);
    assert_eq!(geometry.cell_units(40), [4, 13, 22]);
    let six = Geometry::from_rules(&Rules::classic(6)).unwrap();
    assert!(!six.is_classic());
    assert_eq!(six.units(), 18);
    // r1c1's box is r1-2 c1-3: row 5 + column 5 + 2 more box cells.
    assert_eq!(six.peers(0).len(), 12);
    assert_eq!(six.unit_name(12), "box 1");
    assert_eq!(six.unit_kind(12), UnitKind::Box);
}

#[test]
fn variant_units_and_peers_come_from_every_rule() {
    let x = Geometry::from_rules(&Rules::classic(9).with_diagonals()).unwrap();
    assert_eq!(x.units(), 29);
    // The centre is on both diagonals: 20 classic peers and each
    // diagonal's 6 cells outside its box.
    assert_eq!(x.units_of(40).len(), 5);
    assert_eq!(x.peers(40).len(), 20 + 12);
    assert!(x.sees(0, 80) && !x.sees(1, 80));
    assert_eq!(x.unit_name(27), "the main diagonal");
    assert_eq!(x.unit_name(28), "the anti-diagonal");

    let knight = Geometry::from_rules(&Rules::classic(9).with_anti_knight()).unwrap();
    assert!(knight.sees(0, 11) && knight.sees(0, 19) && !knight.sees(0, 21));
    assert_eq!(knight.units(), 27);

    let killer = Rules::classic(9)
        .with_cage(&[8, 9], Some(10))
        .unwrap()
        .with_region(&[0, 80])
        .unwrap();
    let geometry = Geometry::from_rules(&killer).unwrap();
    assert!(geometry.sees(8, 9) && geometry.sees(0, 80));
    assert_eq!(geometry.units(), 27);
    assert_eq!(geometry.units_of(8).len(), 3);

    let windoku = Geometry::from_rules(&Rules::classic(9).with_windows().unwrap()).unwrap();
    assert_eq!(windoku.units(), 31);
    assert_eq!(windoku.unit_name(27), "window 1");
    assert_eq!(windoku.units_of(10), &[1, 10, 18, 27]);
}

#[test]
fn from_rules_refuses_overlapping_grids() {
    assert_eq!(
        Geometry::from_rules(&Rules::samurai()).unwrap_err(),
        GeometryError::OverlappingGrids
    );
}

#[test]
fn rate_variant_refuses_a_puzzle_of_the_wrong_length() {
    let rules = Rules::classic(9);
    assert_eq!(
        human::rate_variant(&rules, &[0; 80]).unwrap_err(),
        GeometryError::CellCount {
            expected: 81,
            got: 80
        }
    );
}

#[test]
fn a_six_by_six_with_two_by_three_boxes_is_solved_soundly() {
    let rules = Rules::classic(6);
    for seed in 0..4 {
        let (puzzle, solution, rated) = make_puzzle(&rules, seed);
        assert!(rated.solved);
        assert_sound(&rules, &puzzle, &solution, &rated);
    }
}

#[test]
fn x_sudoku_needs_locked_candidates_or_subsets_and_is_solved_soundly() {
    let rules = Rules::classic(9).with_diagonals();
    let (mut harder, mut chained) = (0, 0);
    for seed in 0..3 {
        let (puzzle, solution, rated) = make_puzzle(&rules, seed);
        assert!(rated.solved);
        assert_sound(&rules, &puzzle, &solution, &rated);
        harder += usize::from(used(&rated, LOCKED_OR_SUBSETS));
        chained += usize::from(used(&rated, CHAINS));
    }
    assert!(harder > 0, "no X puzzle needed more than singles");
    assert!(chained > 0, "no X puzzle needed a chain");
}

#[test]
fn jigsaw_needs_locked_candidates_or_subsets_and_is_solved_soundly() {
    let (mut harder, mut chained) = (0, 0);
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let rules = Rules::jigsaw(9, &jigsaw_layout(&mut rng)).unwrap();
        let (puzzle, solution, rated) = make_puzzle(&rules, seed);
        assert!(rated.solved);
        assert_sound(&rules, &puzzle, &solution, &rated);
        harder += usize::from(used(&rated, LOCKED_OR_SUBSETS));
        chained += usize::from(used(&rated, CHAINS));
    }
    assert!(harder > 0, "no jigsaw needed more than singles");
    // Taken as far as logic goes, some need the chains, along the pieces.
    assert!(chained > 0, "no jigsaw needed a chain");
}

#[test]
fn windoku_is_solved_soundly() {
    let rules = Rules::classic(9).with_windows().unwrap();
    let (puzzle, solution, rated) = make_puzzle(&rules, 7);
    assert!(rated.solved);
    assert_sound(&rules, &puzzle, &solution, &rated);
}

#[test]
fn teaching_hints_on_a_variant_are_sound_too() {
    let rules = Rules::classic(9).with_diagonals().with_anti_king();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let solution = random_solution(&rules, &mut rng);
    // Givens taken away while the solution stays unique, whether logic
    // can solve the result or not: every step must still hold.
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..81).collect();
    order.shuffle(&mut rng);
    for cell in order {
        let given = std::mem::take(&mut puzzle[cell]);
        if !unique(&rules, &puzzle) {
            puzzle[cell] = given;
        }
    }
    let geometry = Geometry::from_rules(&rules).unwrap();
    let rated = human::rate(&geometry, &puzzle, Catalogue::Teaching);
    assert!(!rated.steps.is_empty());
    assert_sound(&rules, &puzzle, &solution, &rated);
}

/// Killer cages over `solution`: cells in a random order each start a
/// cage or join a random neighbouring cage that lacks its digit and has
/// fewer than `most` cells; each cage's sum is its digits'.
fn killer_rules(solution: &[u8], most: usize, rng: &mut ChaCha8Rng) -> Rules {
    let mut cage_of = vec![usize::MAX; 81];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..81).collect();
    order.shuffle(rng);
    for cell in order {
        let (r, c) = (cell / 9, cell % 9);
        let mut near: Vec<usize> = [(r > 0, cell.wrapping_sub(9)), (r < 8, cell + 9)]
            .into_iter()
            .chain([(c > 0, cell.wrapping_sub(1)), (c < 8, cell + 1)])
            .filter(|&(ok, n)| ok && cage_of[n] != usize::MAX)
            .map(|(_, n)| cage_of[n])
            .filter(|&k| {
                cages[k].len() < most && cages[k].iter().all(|&o| solution[o] != solution[cell])
            })
            .collect();
        near.dedup();
        if near.is_empty() || rng.random_range(0..8) == 0 {
            cage_of[cell] = cages.len();
            cages.push(vec![cell]);
        } else {
            let k = near[rng.random_range(0..near.len())];
            cage_of[cell] = k;
            cages[k].push(cell);
        }
    }
    let mut rules = Rules::classic(9);
    for cage in cages {
        let sum = cage.iter().map(|&c| u32::from(solution[c])).sum();
        rules = rules.with_cage(&cage, Some(sum)).unwrap();
    }
    rules
}

#[test]
fn killer_needs_cage_combinations_and_is_solved_soundly() {
    let mut innies_or_outies = 0;
    for seed in 0..4 {
        let mut rng = ChaCha8Rng::seed_from_u64(200 + seed);
        let solution = random_solution(&Rules::classic(9), &mut rng);
        let rules = killer_rules(&solution, 3 + seed as usize, &mut rng);
        let (puzzle, solution, rated) = thin(&rules, solution, &mut rng);
        assert!(rated.solved);
        assert_sound(&rules, &puzzle, &solution, &rated);
        assert!(used(&rated, &[Technique::CageCombination]), "seed {seed}");
        innies_or_outies += usize::from(used(&rated, &[Technique::Innies, Technique::Outies]));
        eprintln!(
            "killer seed {seed}: {} givens, rating {}, {:?}",
            puzzle.iter().filter(|&&d| d != 0).count(),
            rated.rating,
            rated.counts()
        );
    }
    assert!(innies_or_outies > 0, "no killer needed the rule of 45");
}

/// Thermometers over `solution`: `count` paths of king's moves with
/// increasing digits, three to six cells, no cell on two.
fn thermo_rules(solution: &[u8], count: usize, rng: &mut ChaCha8Rng) -> Rules {
    let mut used = [false; 81];
    let mut rules = Rules::classic(9);
    let mut made = 0;
    while made < count {
        let mut path = vec![rng.random_range(0..81usize)];
        if used[path[0]] {
            continue;
        }
        while path.len() < 6 {
            let last = *path.last().unwrap();
            let (r, c) = ((last / 9) as isize, (last % 9) as isize);
            let next: Vec<usize> = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
                .filter(|&(r2, c2)| (0..9).contains(&r2) && (0..9).contains(&c2))
                .map(|(r2, c2)| (r2 * 9 + c2) as usize)
                .filter(|&n| !used[n] && !path.contains(&n) && solution[n] > solution[last])
                .collect();
            if next.is_empty() {
                break;
            }
            path.push(next[rng.random_range(0..next.len())]);
        }
        if path.len() >= 3 {
            for &c in &path {
                used[c] = true;
            }
            rules = rules.with_thermo(&path).unwrap();
            made += 1;
        }
    }
    rules
}

#[test]
fn thermometers_bound_their_cells_soundly() {
    let mut bounded = 0;
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(300 + seed);
        let solution = random_solution(&Rules::classic(9), &mut rng);
        let rules = thermo_rules(&solution, 8, &mut rng);
        let (puzzle, solution, rated) = thin(&rules, solution, &mut rng);
        assert!(rated.solved);
        assert_sound(&rules, &puzzle, &solution, &rated);
        bounded += usize::from(used(&rated, &[Technique::Thermometer]));
    }
    assert!(bounded > 0, "no thermometer step was needed");
}

#[test]
fn non_consecutive_is_solved_soundly() {
    let rules = Rules::classic(9).with_non_consecutive();
    let solution = solve_first(&rules, &[0; 81]).unwrap().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(400);
    let (puzzle, solution, rated) = thin(&rules, solution, &mut rng);
    assert!(rated.solved);
    assert_sound(&rules, &puzzle, &solution, &rated);
    assert!(used(&rated, &[Technique::NonConsecutive]));
    assert!(puzzle.iter().filter(|&&d| d != 0).count() < 40);
}

#[test]
fn propagation_on_a_variant_geometry_keeps_the_solution() {
    use cover_models::sudoku::logic::{candidates, Propagation, Rules as Propagated};
    for (seed, rules) in [
        Rules::classic(9).with_diagonals(),
        Rules::classic(6),
        Rules::classic(9).with_windows().unwrap().with_anti_knight(),
    ]
    .into_iter()
    .enumerate()
    {
        let mut rng = ChaCha8Rng::seed_from_u64(500 + seed as u64);
        let solution = random_solution(&rules, &mut rng);
        let puzzle: Vec<u8> = solution
            .iter()
            .map(|&d| if rng.random_range(0..3) == 0 { d } else { 0 })
            .collect();
        let geometry = Geometry::from_rules(&rules).unwrap();
        let mut cands = candidates(&geometry, &puzzle);
        let mut removed = Vec::new();
        let result = Propagation::new(&geometry).propagate(
            &geometry,
            Propagated::FULL,
            &mut cands,
            &mut |cell, digit| removed.push((cell, digit)),
        );
        assert!(result.is_ok());
        for (cell, digit) in removed {
            assert_ne!(solution[cell], digit, "r{}c{}", cell / 9 + 1, cell % 9 + 1);
        }
        for (cell, &mask) in cands.iter().enumerate() {
            if puzzle[cell] == 0 {
                assert_ne!(mask & 1 << (solution[cell] - 1), 0);
            }
        }
    }
}

#[test]
fn peers_units_and_sees_agree_on_every_geometry() {
    let mut rng = ChaCha8Rng::seed_from_u64(600);
    let all = [
        Rules::classic(9),
        Rules::classic(4),
        Rules::classic(6),
        Rules::classic(9).with_diagonals().with_anti_knight(),
        Rules::classic(9).with_windows().unwrap().with_anti_king(),
        Rules::jigsaw(9, &jigsaw_layout(&mut rng)).unwrap(),
        Rules::classic(9)
            .with_cage(&[0, 1, 10], Some(12))
            .unwrap()
            .with_thermo(&[30, 40, 50])
            .unwrap(),
    ];
    for rules in all {
        let geometry = Geometry::from_rules(&rules).unwrap();
        let cells = rules.cells();
        // Peers by the rules, spelled out here.
        let mut peer = vec![vec![false; cells]; cells];
        let groups = rules
            .regions()
            .iter()
            .chain(rules.cages().iter().map(|c| &c.cells))
            .chain(rules.thermos());
        for group in groups {
            for &a in group {
                for &b in group {
                    peer[a][b] = a != b;
                }
            }
        }
        for (a, b) in rules.pair_rules() {
            peer[a][b] = true;
            peer[b][a] = true;
        }
        for (a, row) in peer.iter().enumerate() {
            let listed: Vec<usize> = geometry.peers(a).iter().map(|&p| usize::from(p)).collect();
            let expected: Vec<usize> = (0..cells).filter(|&b| row[b]).collect();
            assert_eq!(listed, expected, "peers of {a}");
            for (b, &is_peer) in row.iter().enumerate() {
                assert_eq!(geometry.sees(a, b), is_peer, "{a} {b}");
            }
            for &u in geometry.units_of(a) {
                assert!(geometry.unit_cells(usize::from(u)).contains(&(a as u16)));
            }
        }
        let full_regions = rules
            .regions()
            .iter()
            .filter(|r| r.len() == rules.side())
            .count();
        assert_eq!(geometry.units(), full_regions);
    }
}

#[test]
fn hints_on_a_variant_name_its_regions() {
    use cover_models::sudoku::human::{next_step, Board, HintLevel};
    let rules = Rules::classic(9).with_diagonals();
    let (puzzle, _, _) = make_puzzle(&rules, 0);
    let geometry = Geometry::from_rules(&rules).unwrap();
    let mut board = Board::new(&geometry, &puzzle);
    let mut texts = Vec::new();
    while let Some(step) = next_step(&board, Catalogue::Rating) {
        texts.push(step.text(HintLevel::Full, &geometry, &|d| d.to_string()));
        board.apply(&step);
    }
    assert!(board.is_solved());
    assert!(
        texts.iter().any(|t| t.contains("diagonal")),
        "no hint names a diagonal: {texts:?}"
    );
}
