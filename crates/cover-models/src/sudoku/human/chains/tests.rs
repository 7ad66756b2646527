//! Each chaining technique on a puzzle of `se_rated.txt` where Sudoku
//! Explainer rates it (same value, same technique for the hardest step),
//! the "+" and nested levels on the hardest puzzles, and every step of
//! every path checked against the solution found by search.

use std::collections::BTreeSet;

use crate::sudoku::human::step::Technique::{self, *};
use crate::sudoku::human::testing::{
    assert_rated, assert_sound, board_before, nine, solution, walk,
};
use crate::sudoku::human::Catalogue;

use super::{cycles, length_increment};

/// Puzzles of `se_rated.txt`: the line, SE's rating in tenths, and the
/// technique of the hardest step.
const RATED: &[(&str, u16, Technique)] = &[
    (
        "000509000000070000020403050000010000318000246007806500050701060900000001001602900",
        67,
        Cycle,
    ),
    (
        "030067100050301827170000000820000030700090002090000081000000078419706050007250010",
        72,
        Aic,
    ),
    (
        "900304002002567100000000000070608050500000001030090070700801009100040005006050700",
        77,
        Nishio,
    ),
    (
        "300047050510090006406000900000859000000000000000276000001000807700030019030720004",
        82,
        RegionForcingChain,
    ),
    (
        "000108000020060050600425003050906010060010040007000900902050608000609000300000001",
        84,
        CellForcingChain,
    ),
    (
        "000000000090070010007309800480000025000564000070803090050701060006030500001000900",
        88,
        DynamicRegionForcingChain,
    ),
    (
        "920070050000200409000008027000009500090803040008700000130600000509007000080020036",
        88,
        DynamicDoubleForcingChain,
    ),
    (
        "100000008080327060070010020400702003200050004001406200600000007020000090004000100",
        89,
        DynamicCellForcingChain,
    ),
    (
        "007000300500000002043000760070000050080502040005090100000201000030609070900070008",
        90,
        DynamicContradictionForcingChain,
    ),
];

fn is_chain(t: Technique) -> bool {
    matches!(
        t,
        XCycle
            | XChain
            | Cycle
            | Aic
            | Nishio
            | CellForcingChain
            | RegionForcingChain
            | DynamicContradictionForcingChain
            | DynamicDoubleForcingChain
            | DynamicCellForcingChain
            | DynamicRegionForcingChain
            | DynamicPlusForcingChain
            | NestedForcingChain
    )
}

#[test]
fn length_increments_follow_se() {
    // One tenth more each time the length (complexity − 2) passes 4, 6,
    // 8, 12, 16, 24, …
    let expected = [
        (6, 0),
        (7, 1),
        (8, 1),
        (9, 2),
        (10, 2),
        (11, 3),
        (14, 3),
        (15, 4),
        (18, 4),
        (19, 5),
        (26, 5),
        (27, 6),
    ];
    for (complexity, tenths) in expected {
        assert_eq!(
            length_increment(complexity),
            tenths,
            "complexity {complexity}"
        );
    }
}

#[test]
fn each_chaining_technique_rates_its_puzzle_as_se() {
    for &(line, rating, technique) in RATED {
        let rated = assert_rated(line, rating);
        assert!(
            rated
                .steps
                .iter()
                .any(|s| s.rating == rated.rating && s.technique == technique),
            "{line}: no {technique:?} at {}",
            rated.rating
        );
        for step in rated.steps.iter().filter(|s| is_chain(s.technique)) {
            let p = &step.pattern;
            assert!(
                !p.chains.is_empty() && p.chains.iter().all(|c| c.len() >= 2),
                "{step:?}"
            );
            assert!(!p.cells.is_empty() && p.digits != 0, "{step:?}");
        }
    }
}

#[test]
fn every_cycle_and_forcing_chain_on_a_board_is_sound() {
    // The boards before the first chain step of a cycle puzzle and of a
    // forcing-chain puzzle: every finding there, not only the easiest.
    let geometry = nine();
    let mut kinds = BTreeSet::new();
    for &(line, _, _) in &RATED[..2] {
        let truth = solution(line);
        let (board, _) = board_before(&geometry, line, Catalogue::Rating, |s| {
            is_chain(s.technique)
        })
        .expect("a chain step");
        let mut hints = Vec::new();
        cycles::find(&board, &mut hints);
        for hint in hints {
            kinds.insert(hint.technique);
            assert!(hint.rating() >= 65);
            assert_sound(&hint.into_step(), &truth);
        }
    }
    assert!(kinds.contains(&Cycle) && kinds.contains(&Aic), "{kinds:?}");
}

#[test]
fn dynamic_plus_chains_fire_and_stay_sound() {
    // magictour top1465: needs the "+" rules (locking, pairs, X-Wing on
    // the hypothetical grids).
    let line = "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........";
    let rated = walk(line, Catalogue::Rating);
    assert!(rated.solved);
    let plus = rated
        .steps
        .iter()
        .find(|s| s.technique == DynamicPlusForcingChain)
        .expect("a dynamic (+) step");
    assert!(plus.rating.0 >= 90 && !plus.pattern.chains.is_empty());
}

#[test]
fn nested_chains_solve_a_hardest_puzzle_soundly() {
    // forum_hardest_1106, its first puzzle: stuck after dynamic (+).
    let line = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    let rated = walk(line, Catalogue::Rating);
    assert!(rated.solved);
    assert!(rated
        .steps
        .iter()
        .any(|s| s.technique == NestedForcingChain));
    assert!(rated.rating.0 >= 95);
}

#[test]
fn chains_work_on_a_sixteen_by_sixteen_board() {
    use crate::sudoku::human::board::Board;
    use crate::sudoku::human::rate;
    use crate::sudoku::logic::Geometry;
    use crate::sudoku::Size;

    // Gecode's first 16×16 instance: singles solve it, so the chains run on
    // its opening board (full of candidates) and must agree with that end.
    let line = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
    let cells: Vec<u8> = line
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => b - b'0',
            b'A'..=b'G' => b - b'A' + 10,
            _ => 0,
        })
        .collect();
    let geometry = Geometry::new(Size::new(4).unwrap());
    let rated = rate(&geometry, &cells, Catalogue::Rating);
    assert!(rated.solved);
    let board = Board::new(&geometry, &cells);
    let mut steps = Vec::new();
    super::cycles_and_forcing_chains(&board, &mut steps);
    super::nishio_forcing_chains(&board, &mut steps);
    super::dynamic_forcing_chains(&board, &mut steps);
    assert_eq!(steps.len(), 3);
    for step in &steps {
        assert_sound(step, &rated.grid);
    }
}
