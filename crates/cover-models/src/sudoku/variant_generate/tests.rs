//! Tests of the variant generator: every kind on every side it is made on,
//! each puzzle unique (counted, and by brute force up to 6×6) and its
//! solution passing `cover_check::variant`; reproducibility, symmetry,
//! targets and refusals.

use super::*;
use cover_check::variant::{check_variant_solution, count_variant_brute, VariantRules};
use rand::SeedableRng;

/// The rules spelled out for the independent checker.
fn to_check(rules: &Rules) -> VariantRules {
    VariantRules {
        side: rules.side(),
        regions: rules.regions().to_vec(),
        cages: rules
            .cages()
            .iter()
            .map(|c| (c.cells.clone(), c.sum))
            .collect(),
        anti_knight: rules.anti_knight(),
        anti_king: rules.anti_king(),
        non_consecutive: rules.non_consecutive(),
        thermos: rules.thermos().to_vec(),
        holes: (0..rules.cells()).filter(|&c| !rules.is_cell(c)).collect(),
        digits: Some(rules.digits()),
    }
}

/// Checks one generated puzzle: the solution by the independent checker,
/// uniqueness by the solver counting to the end (and, up to 6×6, by the
/// checker's brute force), minimality by putting each given back.
fn check(made: &GeneratedVariant, minimal: bool) {
    let rules = to_check(&made.rules);
    assert_eq!(
        check_variant_solution(&rules, &made.puzzle, &made.solution),
        Ok(()),
        "{} {:?}",
        made.kind,
        made.puzzle
    );
    let mut solver = VariantSolver::new(&made.rules, &made.puzzle).unwrap();
    let report = solver.count(&Limits::none());
    assert_eq!(report.outcome, Outcome::Exhausted);
    assert_eq!(report.stats.solutions, 1, "{} {:?}", made.kind, made.puzzle);
    if made.rules.side() <= 6 {
        assert_eq!(count_variant_brute(&rules, &made.puzzle, 2), 1);
    }
    let givens = made.puzzle.iter().filter(|&&d| d != 0).count();
    assert_eq!(made.clues, givens);
    if minimal {
        assert!(made.minimal);
        for cell in (0..made.puzzle.len()).filter(|&c| made.puzzle[c] != 0) {
            let mut fewer = made.puzzle.clone();
            fewer[cell] = 0;
            let report = count(&made.rules, &fewer);
            assert_eq!(report.solutions, 2, "{} given {cell}", made.kind);
        }
    }
}

#[test]
fn names_read_back_and_unknown_names_are_refused() {
    for kind in VariantKind::ALL {
        assert_eq!(kind.to_string().parse::<VariantKind>(), Ok(kind));
        assert_eq!(kind.name().to_uppercase().parse::<VariantKind>(), Ok(kind));
    }
    let error = "sandwich".parse::<VariantKind>().unwrap_err();
    assert!(error.to_string().contains("anti-knight"), "{error}");
}

#[test]
fn every_kind_makes_unique_minimal_puzzles_on_nine() {
    for kind in VariantKind::ALL {
        let request = VariantRequest::new(kind);
        for index in 0..2 {
            let made = generate(&request, 11, index).unwrap();
            assert_eq!(made.kind, kind);
            assert_eq!(made.rules.side(), 9);
            check(&made, true);
            assert_eq!(made.logic.is_some(), kind.rated_by_logic(), "{kind}");
        }
    }
}

#[test]
fn every_kind_on_its_other_sides() {
    for kind in VariantKind::ALL {
        for &side in kind.sides().iter().filter(|&&s| s != 9) {
            let request = VariantRequest {
                side,
                ..VariantRequest::new(kind)
            };
            let made = generate(&request, 5, 0).unwrap();
            assert_eq!(made.rules.side(), side, "{kind}");
            check(&made, side <= 6);
            assert!(made.minimal);
        }
    }
}

#[test]
fn each_kind_carries_its_structure() {
    let made = |kind| generate(&VariantRequest::new(kind), 3, 0).unwrap();
    let jigsaw = made(VariantKind::Jigsaw);
    // Rows, columns and nine pieces, none of them a box.
    assert_eq!(jigsaw.rules.regions().len(), 27);
    let boxes = Rules::classic(9);
    let mut sorted: Vec<Vec<usize>> = jigsaw.rules.regions()[18..].to_vec();
    for piece in &mut sorted {
        piece.sort_unstable();
    }
    assert!(boxes.regions()[18..].iter().any(|b| !sorted.contains(b)));
    let killer = made(VariantKind::Killer);
    let mut covered = vec![0; 81];
    for cage in killer.rules.cages() {
        assert!((2..=5).contains(&cage.cells.len()), "{cage:?}");
        assert!(cage.sum.is_some());
        for &c in &cage.cells {
            covered[c] += 1;
        }
    }
    assert!(covered.iter().all(|&n| n == 1), "the cages cut the grid");
    let thermo = made(VariantKind::Thermo);
    assert!(!thermo.rules.thermos().is_empty());
    assert!(thermo.rules.thermos().iter().all(|t| t.len() >= 3));
    assert!(made(VariantKind::AntiKnight).rules.anti_knight());
    assert!(made(VariantKind::AntiKing).rules.anti_king());
    assert!(made(VariantKind::NonConsecutive).rules.non_consecutive());
    assert_eq!(made(VariantKind::X).rules.regions().len(), 29);
    assert_eq!(made(VariantKind::Windoku).rules.regions().len(), 31);
}

#[test]
fn jigsaw_layouts_are_whole_connected_pieces() {
    for side in 4..=9 {
        let mut rng = ChaCha8Rng::seed_from_u64(side as u64);
        for _ in 0..5 {
            let layout = jigsaw_layout(side, &mut rng);
            // Rules::jigsaw refuses pieces of the wrong size or in parts.
            let rules = Rules::jigsaw(side, &layout).unwrap();
            assert_eq!(rules.regions().len(), 3 * side);
            assert!(!straight_piece(side, &layout));
        }
    }
}

#[test]
fn the_same_seed_and_index_give_the_same_puzzle() {
    let request = VariantRequest::new(VariantKind::Killer);
    let a = generate(&request, 42, 3).unwrap();
    assert_eq!(a, generate(&request, 42, 3).unwrap());
    assert_ne!(a.solution, generate(&request, 42, 4).unwrap().solution);
    let set = generate_set(&request, 42, 4).unwrap();
    assert_eq!(set.len(), 4);
    assert_eq!(set[3], a);
}

#[test]
fn symmetric_puzzles_are_symmetric() {
    for kind in [VariantKind::X, VariantKind::Thermo, VariantKind::Killer] {
        let request = VariantRequest {
            symmetric: true,
            ..VariantRequest::new(kind)
        };
        for index in 0..2 {
            let made = generate(&request, 8, index).unwrap();
            check(&made, false);
            assert!(made.minimal, "minimal among symmetric puzzles");
            for k in 0..81 {
                assert_eq!(made.puzzle[k] == 0, made.puzzle[80 - k] == 0, "{kind}");
            }
        }
    }
}

#[test]
fn a_grade_target_is_met_or_the_closest_returned() {
    let request = VariantRequest {
        grade: Some(Grade::Easy),
        max_attempts: 50,
        ..VariantRequest::new(VariantKind::X)
    };
    let made = generate(&request, 1, 0).unwrap();
    check(&made, false);
    assert!(made.target_met);
    assert_eq!(made.effort.grade, Grade::Easy);
    assert!(made.attempts >= 1);
    let request = VariantRequest {
        grade: Some(Grade::Extreme),
        max_attempts: 2,
        ..VariantRequest::new(VariantKind::Windoku)
    };
    let made = generate(&request, 1, 0).unwrap();
    assert_eq!(made.attempts, 2);
    assert_eq!(made.target_met, made.effort.grade == Grade::Extreme);
}

#[test]
fn search_effort_cuts() {
    assert_eq!(SearchEffort::of(101, 81).grade, Grade::Easy);
    assert_eq!(SearchEffort::of(102, 81).grade, Grade::Medium);
    assert_eq!(SearchEffort::of(324, 81).grade, Grade::Medium);
    assert_eq!(SearchEffort::of(972, 81).grade, Grade::Hard);
    assert_eq!(SearchEffort::of(973, 81).grade, Grade::Extreme);
    assert_eq!(SearchEffort::of(45, 36).grade, Grade::Easy);
}

#[test]
fn sides_a_kind_is_not_made_on_are_refused() {
    let windoku = VariantRequest {
        side: 6,
        ..VariantRequest::new(VariantKind::Windoku)
    };
    let error = generate(&windoku, 1, 0).unwrap_err();
    assert_eq!(
        error,
        VariantGenerateError::Side {
            kind: VariantKind::Windoku,
            side: 6
        }
    );
    assert_eq!(
        error.to_string(),
        "windoku sudoku is generated on sides 9, not 6"
    );
    let none = VariantRequest {
        max_attempts: 0,
        ..VariantRequest::new(VariantKind::X)
    };
    assert_eq!(
        generate(&none, 1, 0).unwrap_err(),
        VariantGenerateError::NoAttempts
    );
}

#[test]
fn forced_cells_are_forced() {
    // A classic grid with one cell emptied: a naked single.
    let rules = Rules::classic(4);
    let grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let peers = Peers::new(&rules);
    let mut puzzle = grid.to_vec();
    puzzle[5] = 0;
    assert!(peers.forced(&puzzle, 5, 4));
    // Everything empty: nothing is forced.
    assert!(!peers.forced(&[0; 16], 0, 1));
    // Non-consecutive: beside a 3 in its row, neither 2, 3 nor 4.
    let rules = Rules::latin(5).unwrap().with_non_consecutive();
    let peers = Peers::new(&rules);
    let mut puzzle = vec![0u8; 25];
    puzzle[1] = 3;
    let mask = peers.candidates(&puzzle, 0);
    assert_eq!(mask, 0b10001, "1 and 5 left beside a 3");
}

#[test]
fn a_rating_range_is_met_by_logic() {
    // Singles only: logic solves every puzzle made, within the range.
    let easy = RatingRange {
        lo: human::Rating(10),
        hi: human::Rating(23),
    };
    let kinds = [
        VariantKind::Jigsaw,
        VariantKind::Killer,
        VariantKind::AntiKing,
        VariantKind::NonConsecutive,
        VariantKind::Thermo,
    ];
    for kind in kinds {
        let request = VariantRequest {
            rating: Some(easy),
            ..VariantRequest::new(kind)
        };
        let made = generate(&request, 2, 0).unwrap();
        check(&made, false);
        let logic = made.logic.expect("rated");
        assert!(made.target_met, "{kind}: {logic:?}");
        assert!(
            logic.complete && easy.contains(logic.rating),
            "{kind}: {logic:?}"
        );
        // Rated again from scratch, the same.
        let again = logic_rating(&made.rules, &made.puzzle, None, None).unwrap();
        assert_eq!(again, logic);
    }
}

#[test]
fn kinds_rated_by_logic_carry_a_rating() {
    for kind in [VariantKind::Jigsaw, VariantKind::Thermo] {
        let made = generate(&VariantRequest::new(kind), 6, 0).unwrap();
        assert!(made.logic.is_some(), "{kind}");
        let unrated = VariantRequest {
            rate: false,
            ..VariantRequest::new(kind)
        };
        let plain = generate(&unrated, 6, 0).unwrap();
        assert_eq!(plain.logic, None);
        assert_eq!(plain.puzzle, made.puzzle, "rating changes no puzzle");
    }
}
