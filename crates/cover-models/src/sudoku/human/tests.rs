//! Tests of the solver as a whole: each technique fires, soundly, on a
//! puzzle of Sudoku Explainer's sample (se_rated.txt) where SE needs it,
//! every step of those paths agrees with the solution found by search, and
//! puzzles our techniques solve get SE's rating.

use super::solver::subsets;
use super::testing::{assert_sound, board_before, nine, solution, walk};
use super::{Catalogue, Rating, Technique};

/// Puzzles of se_rated.txt with SE's rating, each solved by this module's
/// techniques alone with that rating.
const RATED: &[(&str, u16)] = &[
    (
        "910700020004020000300090010000019704095070830807530000080050006000080500050003098",
        25,
    ),
    (
        "400300006080007930030090000040902007006050400900704080000030070069100050700005003",
        25,
    ),
    (
        "000040000001209700340000058700000006000020000500803007050607030003000600900000002",
        25,
    ),
    (
        "020000070910807056600040008000472000000163000300000002050090080800020007003000600",
        25,
    ),
    (
        "507203904000607000300000005050020010090000040000708000026809750040000020000000000",
        26,
    ),
    (
        "981500007000030408050086002004000009095000870800000600100460080508090000300001596",
        26,
    ),
    (
        "006040000005100020007008000040080001080309060700010090000900300010002800000050100",
        28,
    ),
    (
        "060090000001430060007001050050300008009000100300006040010200900020049700000050030",
        28,
    ),
    (
        "600020008000639000040000060004000700057000810300507006030148070000000000406000905",
        30,
    ),
    (
        "970100002000800005000047030401090007300060004500080206030920000200008000700004023",
        30,
    ),
    (
        "003904800010000030006080700000000000080495060007802900400607008030000070670309045",
        32,
    ),
    (
        "050368020000090000061000980300602008000010000070000040900080004040000070006457800",
        32,
    ),
    (
        "005203900307090108000010000400908005080524090500000002200361009950000063000000000",
        34,
    ),
    (
        "570000090000904002000005060000780150000000000053041000060400000800609000010000073",
        34,
    ),
    (
        "009280006000700910005030070000000085107000409850000000020040700043006000500023600",
        36,
    ),
    (
        "900070001001000600025090730090040050000206000000010000780000042500000003060803010",
        36,
    ),
    (
        "010305706002000050000020001000100008820060035500009000200090000030000500705603090",
        38,
    ),
    (
        "010800600008004001500020070080090006007201900100040020050030004800400700003008050",
        38,
    ),
    (
        "000060000750208063200010008000090000905102706002000400010000030009000200600903001",
        45,
    ),
    (
        "000921000000070000057000230360000017000060000010000090005702400000354000400806009",
        45,
    ),
    (
        "700012060000900010500000400000108200057000630006307000008000009040009000070580004",
        46,
    ),
    (
        "708009005090560700060002900400000000509806403000000001006200050007045020200600307",
        46,
    ),
    (
        "002090503000400000875020900300004000090000060000300001001030259000001000906070100",
        47,
    ),
    (
        "000403870000010009004002000000000430067000210081000000000900100200060000036805000",
        47,
    ),
    (
        "700694005004000600300000009000080000030952010010000070053070820000000000908030701",
        48,
    ),
    (
        "000007406600500080000160200204000000007050100000000503001049000060003005409800000",
        48,
    ),
    (
        "008705003400030000310000000740900081000406000290007064000000078000080009500309100",
        50,
    ),
    (
        "600050008059608710000090000000514000000000000031000620046000870010000030008901400",
        50,
    ),
    (
        "000000000008409500350107042063010450007030600200000001030206090070305060000040000",
        52,
    ),
    (
        "070000430900000002406503800002607500000020000007405300003106207200000003068000040",
        52,
    ),
    (
        "100500406050004010409200500040000809000070000601000040006008704070300080504001002",
        56,
    ),
    (
        "200000009730000058009040600040000090803050204600000003000607000008090700005801900",
        57,
    ),
    (
        "007309200400000005000204000560000097000706000100000008000090000096000410002030800",
        58,
    ),
    (
        "000673090000040030234000000005004000009060500000300700000000968050080000090732000",
        59,
    ),
    (
        "170000049000400000300900605600000520001504300035000004902003008000001000780000016",
        60,
    ),
    (
        "207508601080000050600040009400701002006000500000000000502907106003050700009000400",
        61,
    ),
    (
        "420900060000078012000000004000100090501207406030004000900000000240680000010009048",
        62,
    ),
];

/// For each technique, a puzzle of se_rated.txt whose path (with the
/// catalogue given) takes it.
const FIRES: &[(Technique, Catalogue, &str)] = &[
    (
        Technique::FullHouse,
        Catalogue::Rating,
        "910700020004020000300090010000019704095070830807530000080050006000080500050003098",
    ),
    (
        Technique::HiddenSingle,
        Catalogue::Rating,
        "910700020004020000300090010000019704095070830807530000080050006000080500050003098",
    ),
    (
        Technique::DirectPointing,
        Catalogue::Rating,
        "000040000001209700340000058700000006000020000500803007050607030003000600900000002",
    ),
    (
        Technique::DirectHiddenPair,
        Catalogue::Rating,
        "910700020004020000300090010000019704095070830807530000080050006000080500050003098",
    ),
    (
        Technique::NakedSingle,
        Catalogue::Rating,
        "020000070910807056600040008000472000000163000300000002050090080800020007003000600",
    ),
    (
        Technique::DirectHiddenTriple,
        Catalogue::Rating,
        "400300006080007930030090000040902007006050400900704080000030070069100050700005003",
    ),
    (
        Technique::Pointing,
        Catalogue::Rating,
        "981500007000030408050086002004000009095000870800000600100460080508090000300001596",
    ),
    (
        Technique::Claiming,
        Catalogue::Rating,
        "060090000001430060007001050050300008009000100300006040010200900020049700000050030",
    ),
    (
        Technique::NakedPair,
        Catalogue::Rating,
        "970100002000800005000047030401090007300060004500080206030920000200008000700004023",
    ),
    (
        Technique::XWing,
        Catalogue::Rating,
        "003904800010000030006080700000000000080495060007802900400607008030000070670309045",
    ),
    (
        Technique::HiddenPair,
        Catalogue::Rating,
        "005203900307090108000010000400908005080524090500000002200361009950000063000000000",
    ),
    (
        Technique::NakedTriple,
        Catalogue::Rating,
        "009280006000700910005030070000000085107000409850000000020040700043006000500023600",
    ),
    (
        Technique::Swordfish,
        Catalogue::Rating,
        "010305706002000050000020001000100008820060035500009000200090000030000500705603090",
    ),
    (
        Technique::HiddenTriple,
        Catalogue::Rating,
        "500000002070060040080902030008000500050010060900506001460000089890000014000000000",
    ),
    (
        Technique::UniqueRectangle,
        Catalogue::Rating,
        "000060000750208063200010008000090000905102706002000400010000030009000200600903001",
    ),
    (
        Technique::UniqueLoop,
        Catalogue::Rating,
        "600050008059608710000090000000514000000000000031000620046000870010000030008901400",
    ),
    (
        Technique::NakedQuad,
        Catalogue::Rating,
        "008705003400030000310000000740900081000406000290007064000000078000080009500309100",
    ),
    (
        Technique::Jellyfish,
        Catalogue::Rating,
        "006100035009060000023049000300004190100000004045600003000450720000030800250006300",
    ),
    (
        Technique::Bug,
        Catalogue::Rating,
        "000673090000040030234000000005004000009060500000300700000000968050080000090732000",
    ),
    (
        Technique::AlignedPairExclusion,
        Catalogue::Rating,
        "420900060000078012000000004000100090501207406030004000900000000240680000010009048",
    ),
    (
        Technique::AlignedTripleExclusion,
        Catalogue::Rating,
        "000905000907000308002030600090020010030000070006090400005000800080060030300108002",
    ),
    (
        Technique::FinnedXWing,
        Catalogue::Teaching,
        "009280006000700910005030070000000085107000409850000000020040700043006000500023600",
    ),
    (
        Technique::SashimiXWing,
        Catalogue::Teaching,
        "068902003009100000200008000003800507072000390906003100000300004000007900700506830",
    ),
    (
        Technique::FinnedSwordfish,
        Catalogue::Teaching,
        "040790300073048009000500000860000001005000800100000052000009000400360520006027010",
    ),
    (
        Technique::SashimiSwordfish,
        Catalogue::Teaching,
        "400070005007403100100000009000030000023706840000508000095040230200357008000000000",
    ),
    (
        Technique::FinnedJellyfish,
        Catalogue::Teaching,
        "000000000102000603800107004901000802020806040000509000009000300078000410400060007",
    ),
    (
        Technique::SashimiJellyfish,
        Catalogue::Teaching,
        "008097050000000006000100480002009360380000095049300800094006000500000000030450600",
    ),
];

#[test]
fn each_technique_fires_soundly_on_a_puzzle_that_needs_it() {
    let geometry = nine();
    for &(technique, catalogue, line) in FIRES {
        let truth = solution(line);
        let (_, step) = board_before(&geometry, line, catalogue, |s| s.technique == technique)
            .unwrap_or_else(|| panic!("{technique:?} does not fire on {line}"));
        assert_sound(&step, &truth);
        assert!(
            !step.pattern.cells.is_empty(),
            "{technique:?} highlights nothing"
        );
        walk(line, catalogue);
    }
}

#[test]
fn puzzles_our_techniques_solve_get_se_ratings() {
    for &(line, se) in RATED {
        let rated = walk(line, Catalogue::Rating);
        assert!(rated.solved, "{line} left unsolved");
        assert_eq!(rated.rating, Rating(se), "{line}");
    }
}

#[test]
fn the_teaching_catalogue_is_sound_on_the_same_puzzles() {
    for &(line, _) in RATED {
        assert!(walk(line, Catalogue::Teaching).solved, "{line}");
    }
}

#[test]
fn direct_hints_place_only_their_single() {
    let geometry = nine();
    for &(technique, _, line) in &FIRES[2..6] {
        let (_, step) = board_before(&geometry, line, Catalogue::Rating, |s| {
            s.technique == technique
        })
        .expect("it fires");
        assert_eq!(step.placements.len(), 1, "{technique:?}");
        assert!(step.eliminations.is_empty(), "{technique:?}");
    }
}

#[test]
fn subsets_come_in_increasing_order_of_their_masks() {
    let all: Vec<u64> = subsets(0b1011_0101, 3).collect();
    assert_eq!(all.len(), 10);
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert!(all
        .iter()
        .all(|m| m.count_ones() == 3 && m & !0b1011_0101 == 0));
    assert_eq!(subsets(0b110, 0).collect::<Vec<_>>(), vec![0]);
    assert_eq!(subsets(0b110, 3).count(), 0);
}

#[test]
fn a_hard_puzzle_walks_soundly_as_far_as_the_techniques_go() {
    // A 17-clue puzzle: every step taken agrees with the solution.
    walk(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        Catalogue::Teaching,
    );
}

#[test]
fn a_four_by_four_puzzle_is_solved_to_a_valid_grid() {
    use crate::sudoku::logic::Geometry;
    use crate::sudoku::Size;
    let geometry = Geometry::new(Size::new(2).unwrap());
    // One solution: 1234/3412/2143/4321.
    let puzzle = [1, 0, 0, 0, 3, 0, 0, 2, 0, 0, 0, 3, 0, 0, 2, 0];
    let rated = super::rate(&geometry, &puzzle, Catalogue::Teaching);
    assert!(rated.solved);
    assert_eq!(
        rated.grid,
        vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    );
}

#[test]
fn a_sixteen_by_sixteen_puzzle_is_solved_to_a_valid_grid() {
    use crate::sudoku::logic::Geometry;
    use crate::sudoku::Size;
    let geometry = Geometry::new(Size::new(4).unwrap());
    // Gecode's sudoku example 1 (MIT); A = 10 … G = 16.
    let line = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
    let puzzle: Vec<u8> = line
        .bytes()
        .map(|b| match b {
            b'.' => 0,
            b'1'..=b'9' => b - b'0',
            _ => b - b'A' + 10,
        })
        .collect();
    let rated = super::rate(&geometry, &puzzle, Catalogue::Teaching);
    assert!(rated.solved);
    for (given, got) in puzzle.iter().zip(&rated.grid) {
        assert!(*given == 0 || given == got);
    }
    for unit in 0..geometry.units() {
        let seen = geometry
            .unit_cells(unit)
            .iter()
            .fold(0u64, |m, &c| m | 1 << rated.grid[usize::from(c)]);
        assert_eq!(seen, 0x1_fffe, "unit {unit}");
    }
}
