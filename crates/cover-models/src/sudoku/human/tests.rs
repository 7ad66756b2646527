//! Tests of the solver as a whole: each technique fires, soundly, on a
//! puzzle of Sudoku Explainer's sample (se_rated.txt) where SE needs it,
//! every step of those paths agrees with the solution found by search, and
//! puzzles our techniques solve get SE's rating.

use super::solver::{next_step, subsets};
use super::testing::{assert_rated, assert_sound, board_before, nine, solution, walk};
use super::{Board, Catalogue, Rating, Technique};

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
        "000170030570300064100049007800000700020000040004000001300890005480003019050061000",
    ),
    (
        Technique::SashimiSwordfish,
        Catalogue::Teaching,
        "070020010500000002008030600230000061060000040000109000040000080390804025005000300",
    ),
    (
        Technique::FinnedJellyfish,
        Catalogue::Teaching,
        "001408500060070080800000002040000070000080000087605190000204000150030046700050008",
    ),
    (
        Technique::SashimiJellyfish,
        Catalogue::Teaching,
        "000070000200806001070902080030608010810000062020010070060507030780103029000000000",
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
        assert_rated(line, se);
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

/// A position Sudoku Explainer reached on an se_rated puzzle (values, and
/// candidate masks with digit `d` in bit `d - 1`) and the step it took
/// there, printed from SukakuExplainer's own rating loop.
struct SeState {
    values: &'static str,
    candidates: &'static str,
    rating: u16,
    eliminations: &'static str,
    placement: &'static str,
}

const SE_STATES: &[SeState] = &[
    // SE: UniqueLoopType3NakedHint
    SeState {
        values: "640000072320060008007020360294080710000201000100040205002050400400032050536000920",
        candidates: "0,0,401,405,257,404,17,0,0,0,0,273,89,0,344,17,264,0,384,145,0,153,0,152,0,0,264,0,0,0,52,0,52,0,0,36,192,240,148,0,320,0,160,396,264,0,224,132,356,0,356,0,388,0,448,193,0,289,0,288,0,132,101,0,193,385,352,0,0,160,0,97,0,0,0,136,65,136,0,0,65",
        rating: 46,
        eliminations: "r3c2-8",
        placement: "",
    },
    // SE: UniqueLoopType3HiddenHint
    SeState {
        values: "300504006401000700026010040602095470035470060704000501068040920243000607000206004",
        candidates: "0,448,320,0,130,0,131,385,0,0,144,0,420,166,390,0,404,390,400,0,0,452,0,452,132,0,404,0,129,0,133,0,0,0,0,132,385,0,0,0,0,129,130,0,386,0,384,0,164,166,134,0,388,0,17,0,0,69,0,69,0,0,20,0,0,0,385,144,384,0,145,0,257,337,320,0,148,0,133,149,0",
        rating: 45,
        eliminations: "r6c2-8",
        placement: "",
    },
    // SE: Bug3Hint
    SeState {
        values: "862705901190600500750192086040309805905800004381500090430200059008957003509463208",
        candidates: "0,0,0,0,12,0,0,12,0,0,0,12,0,140,136,0,66,66,0,0,12,0,0,0,12,0,0,34,0,96,0,67,0,0,3,0,0,66,0,0,66,33,5,36,0,0,0,0,0,10,40,96,0,66,0,0,96,0,129,129,96,0,0,34,3,0,0,0,0,9,40,0,0,65,0,0,0,0,0,65,0",
        rating: 58,
        eliminations: "r1c5-4,r5c5-2",
        placement: "",
    },
    // SE: Bug1Hint
    SeState {
        values: "062470150001065204504002036047000002603204005258796341430821007820607410006049020",
        candidates: "260,0,0,0,0,132,0,0,384,68,384,0,260,0,0,0,192,0,0,192,0,257,129,0,320,0,0,257,0,0,21,20,132,160,288,0,0,257,0,0,129,0,320,192,0,0,0,0,0,0,0,0,0,0,0,0,272,0,0,0,48,288,0,0,0,272,0,20,0,0,0,260,65,65,0,20,0,0,144,0,132",
        rating: 56,
        eliminations: "r4c4-1,r4c4-5",
        placement: "",
    },
    // SE: UniqueLoopType4Hint
    SeState {
        values: "080010030070030040000609000700462000001050600060000070245000068039000420017000953",
        candidates: "280,0,42,82,0,88,18,0,288,273,0,34,146,0,144,19,0,288,29,18,14,0,10,0,211,129,83,0,272,132,0,0,0,133,385,17,12,258,0,196,0,196,0,384,10,28,0,142,389,384,133,150,0,26,0,0,0,261,320,5,65,0,0,160,0,0,145,192,177,0,0,65,160,0,0,130,10,168,0,0,0",
        rating: 45,
        eliminations: "r8c6-8,r9c6-8",
        placement: "",
    },
    // SE: UniqueLoopType2Hint
    SeState {
        values: "400030008351849672000050030090513060504786003003924000135298746742365189986471325",
        candidates: "0,98,320,33,0,66,272,273,0,0,0,0,0,0,0,0,0,0,162,98,448,33,0,66,264,0,9,130,0,192,0,0,0,138,0,72,0,3,0,0,0,0,258,257,0,160,97,0,0,0,0,144,17,65,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
        rating: 45,
        eliminations: "r3c1-6,r6c2-6",
        placement: "",
    },
    // SE: AlignedExclusionHint
    SeState {
        values: "006320190029500030000496000083009250910200063602703908090875000208000509000902000",
        candidates: "152,88,0,0,0,192,0,0,88,200,0,0,0,129,193,104,0,104,85,84,81,0,0,0,192,194,82,72,0,0,33,41,0,0,0,73,0,0,88,0,152,136,72,0,0,0,24,0,0,25,0,0,9,0,13,0,9,0,0,0,36,11,35,0,100,0,33,45,9,0,72,0,93,124,89,0,44,0,140,136,73",
        rating: 75,
        eliminations: "r9c7-4",
        placement: "",
    },
    // SE: AlignedExclusionHint
    SeState {
        values: "420910060300478012100062004874156293591237486632894000900740020240680009710029048",
        candidates: "0,0,208,0,0,20,212,0,80,0,48,304,0,0,0,272,0,0,0,144,464,20,0,0,452,84,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,81,80,81,0,176,180,0,0,21,53,0,17,0,0,20,0,0,17,85,84,0,0,0,52,20,0,0,48,0,0",
        rating: 62,
        eliminations: "r3c8-5",
        placement: "",
    },
    // SE: DirectHiddenSetHint
    SeState {
        values: "693004085481053062725086340069300000008695200000001600030010006050460800806530020",
        candidates: "0,0,0,67,66,0,65,0,0,0,0,0,320,0,0,320,0,0,0,0,0,257,0,0,0,0,257,19,0,0,0,74,194,25,81,201,5,73,0,0,0,0,0,69,77,22,72,74,194,74,0,0,340,460,258,0,74,194,0,450,280,336,0,259,0,66,0,0,322,0,325,325,0,73,0,0,0,320,265,0,329",
        rating: 25,
        eliminations: "",
        placement: "r6c4=8",
    },
    // SE: DirectLockingHint
    SeState {
        values: "010203470004000902600040003040000090000094000007608240701080004008407109403050687",
        candidates: "400,0,272,0,32,0,0,0,176,148,212,0,209,97,49,0,49,0,0,466,274,465,0,273,144,17,0,151,0,50,85,71,19,212,0,177,151,182,50,85,0,0,212,53,177,277,276,0,0,5,0,0,0,17,0,306,0,260,0,290,20,22,0,18,50,0,0,38,0,0,22,0,0,258,0,257,0,259,0,0,0",
        rating: 17,
        eliminations: "",
        placement: "r6c1=9",
    },
];

#[test]
fn on_positions_sudoku_explainer_reached_the_next_step_is_its_step() {
    let geometry = nine();
    for state in SE_STATES {
        let values: Vec<u8> = state.values.bytes().map(|b| b - b'0').collect();
        let candidates: Vec<u64> = state
            .candidates
            .split(',')
            .map(|m| m.parse().unwrap())
            .collect();
        let board = Board::with_candidates(&geometry, &values, &candidates);
        let step = next_step(&board, Catalogue::Rating).expect("a step");
        let name = |c: &super::Candidate, sign: char| {
            format!(
                "{}{sign}{}",
                geometry.cell_name(usize::from(c.cell)),
                c.digit
            )
        };
        let mut eliminations: Vec<String> =
            step.eliminations.iter().map(|c| name(c, '-')).collect();
        eliminations.sort();
        let placements: Vec<String> = step.placements.iter().map(|c| name(c, '=')).collect();
        assert_eq!(step.rating, Rating(state.rating), "{}", state.values);
        assert_eq!(
            eliminations.join(","),
            state.eliminations,
            "{}",
            state.values
        );
        assert_eq!(placements.join(","), state.placement, "{}", state.values);
    }
}
