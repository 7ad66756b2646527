//! The variant line's own cases: every field round-trips through
//! `write` and `parse`, lines without fields stay classic, and bad lines
//! are errors naming the field; a read line solves to a grid the shared
//! checker (`cover_check::variant`) accepts.

use super::*;

fn round_trip(rules: &Rules, cells: &[u8]) -> String {
    let line = write(rules, cells);
    let read = parse(&line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .unwrap_or_else(|| panic!("{line}: read as a classic line"));
    assert_eq!(&read.rules, rules, "{line}");
    assert_eq!(read.cells, cells, "{line}");
    line
}

/// A jigsaw layout of 9×9 whose pieces are not boxes: the boxes with two
/// cells swapped between boxes 0 and 1 (r1c3 ↔ r1c4) still connected.
fn jigsaw_nine() -> Vec<usize> {
    let mut layout: Vec<usize> = (0..81).map(|c| (c / 27) * 3 + (c % 9) / 3).collect();
    layout[3] = 0; // r1c4 joins piece 0
    layout[2 * 9 + 2] = 1; // r3c3 joins piece 1
    layout
}

#[test]
fn every_field_round_trips() {
    let cage = |r: Rules, cells: &[usize], sum| r.with_cage(cells, sum).unwrap();
    let mut cells = vec![0u8; 81];
    cells[0] = 1;
    cells[80] = 9;
    cells[40] = 5;
    let nine = [
        Rules::classic(9).with_diagonals(),
        Rules::classic(9).with_windows().unwrap(),
        Rules::classic(9).with_region(&[0, 10, 20]).unwrap(),
        cage(Rules::classic(9), &[0, 1, 9], Some(12)),
        cage(Rules::classic(9), &[3, 4], None),
        Rules::classic(9).with_thermo(&[30, 31, 41, 40]).unwrap(),
        Rules::classic(9).with_anti_knight(),
        Rules::classic(9).with_anti_king(),
        Rules::classic(9).with_non_consecutive(),
        Rules::latin(9).unwrap(),
        Rules::boxes(9, 1, 9).unwrap(),
        Rules::jigsaw(9, &jigsaw_nine()).unwrap().with_diagonals(),
        // Everything at once, extras interleaved.
        cage(
            cage(
                Rules::jigsaw(9, &jigsaw_nine())
                    .unwrap()
                    .with_region(&[80, 70])
                    .unwrap()
                    .with_windows()
                    .unwrap()
                    .with_diagonals(),
                &[8, 17],
                Some(10),
            ),
            &[72],
            None,
        )
        .with_thermo(&[60, 61, 62])
        .unwrap()
        .with_thermo(&[45, 54])
        .unwrap()
        .with_anti_knight()
        .with_anti_king()
        .with_non_consecutive(),
    ];
    for rules in &nine {
        round_trip(rules, &cells);
    }
    let line = round_trip(&nine[0], &cells);
    assert!(line.ends_with(" x"), "{line}");
    let line = round_trip(&nine[12], &cells);
    assert!(line.contains(" windoku x "), "{line}");
    assert!(line.contains("cage=10:r1c9,r2c9 cage=:r9c1"), "{line}");

    // Rectangular and non-classic sides, and the diagonals of a 6×6.
    let six = Rules::classic(6).with_diagonals();
    let line = round_trip(&six, &[0; 36]);
    assert!(line.ends_with(" boxes=2x3 x"), "{line}");
    round_trip(&Rules::boxes(6, 3, 2).unwrap(), &[0; 36]);
    round_trip(&Rules::classic(12).with_anti_king(), &[0; 144]);
    let mut big = vec![0u8; 144];
    big[143] = 12;
    big[0] = 10;
    let line = round_trip(&Rules::boxes(12, 4, 3).unwrap(), &big);
    assert!(
        line.starts_with('A') && line.contains("C boxes=4x3"),
        "{line}"
    );
    round_trip(&Rules::latin(5).unwrap().with_diagonals(), &[0; 25]);
    // Extra regions that tile the grid as boxes would are still extras.
    let mut rules = Rules::latin(4).unwrap();
    for piece in [[0, 1, 4, 5], [2, 3, 6, 7], [10, 11, 14, 15], [8, 9, 12, 13]] {
        rules = rules.with_region(&piece).unwrap();
    }
    let line = round_trip(&rules, &[0; 16]);
    assert!(line.contains("latin region="), "{line}");
}

#[test]
fn classic_rules_of_a_classic_size_write_no_fields() {
    assert_eq!(write_fields(&Rules::classic(9)), "");
    assert_eq!(write_fields(&Rules::classic(16)), "");
    let line = write(
        &Rules::classic(4),
        &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4],
    );
    assert_eq!(line, "1..............4");
    assert_eq!(parse(&line).unwrap(), None, "left to the classic reader");
    assert_eq!(write_fields(&Rules::classic(6)), "boxes=2x3");
}

#[test]
fn lines_without_fields_are_left_to_the_classic_reader() {
    for line in [
        "",
        "   ",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 rated 3.4 x",
        "1234341221434321 # x",
        "1234341221434321:1:1234341221434321",
    ] {
        assert_eq!(parse(line).unwrap(), None, "{line:?}");
    }
}

#[test]
fn fields_read_as_documented() {
    let read = parse("1...............  x   cage=3:R1C1,r1c2 # a comment")
        .unwrap()
        .unwrap();
    assert_eq!(read.rules.side(), 4);
    assert_eq!(read.cells[0], 1);
    assert_eq!(
        read.rules.regions().len(),
        14,
        "rows, columns, boxes, diagonals"
    );
    assert_eq!(read.rules.cages()[0].cells, vec![0, 1]);
    assert_eq!(read.rules.cages()[0].sum, Some(3));
    // Empty markers and lower-case digits of a 16×16.
    let mut cells = String::from("g0-_");
    cells.push_str(&".".repeat(252));
    let read = parse(&format!("{cells} latin")).unwrap().unwrap();
    assert_eq!(&read.cells[..5], &[16, 0, 0, 0, 0]);
    // The base regions come first whatever their place on the line.
    let a = parse("................ x latin").unwrap().unwrap();
    let b = parse("................ latin x").unwrap().unwrap();
    assert_eq!(a, b);
}

#[test]
fn bad_lines_are_errors_naming_the_field() {
    let four = "................";
    for (line, says) in [
        ("123 x", "3 symbols"),
        ("1..............5 x", "'5' at r4c4"),
        (&format!("{four} x bogus"), "`bogus` is not a variant field"),
        (&format!("{four} boxes=3x3"), "field `boxes=3x3`"),
        (&format!("{four} boxes=2by2"), "boxes=RxC"),
        (&format!("{four} boxes"), "boxes=RxC"),
        (
            &format!("{four} latin boxes=2x2"),
            "already given by `latin`",
        ),
        (&format!("{four} x x"), "given twice"),
        (&format!("{four} x=1"), "takes no value"),
        (&format!("{four} windoku"), "9×9"),
        (
            &format!("{four} region=r1c1,r5c1"),
            "\"r5c1\" is not a cell",
        ),
        (&format!("{four} region=r1c1,r1c1"), "r1c1 twice"),
        (&format!("{four} region="), "empty cell name"),
        (&format!("{four} region"), "no cells"),
        (&format!("{four} cage=r1c1,r1c2"), "cage=SUM:"),
        (
            &format!("{four} cage=ten:r1c1,r1c2"),
            "\"ten\" is not a number",
        ),
        (&format!("{four} cage=20:r1c1,r1c2"), "cannot sum to 20"),
        (&format!("{four} thermo=r1c1,r3c3"), "do not touch"),
        (&format!("{four} jigsaw=1122"), "4 symbols"),
        (&format!("{four} jigsaw=111122223333444!"), "'!' at r4c4"),
        (
            &format!("{four} jigsaw=1212121234343434"),
            "piece `1` is not connected",
        ),
        (
            &format!("{four} jigsaw=1111122223333444"),
            "piece `1` has 5 cells",
        ),
        (&format!("{} x", ".".repeat(49)), "no default boxes"),
    ] {
        let error = parse(line).expect_err(line).to_string();
        assert!(error.contains(says), "{line}: {error}");
    }
}

#[test]
fn samurai_round_trips_with_its_extras() {
    let mut cells = vec![0u8; 441];
    cells[0] = 1;
    cells[440] = 9;
    cells[10 * 21 + 10] = 5;
    let samurai = Rules::samurai();
    let line = round_trip(&samurai, &cells);
    assert!(line.ends_with(" samurai"), "{line}");
    assert_eq!(&line[9..12], "...", "outside the grids");
    let extras = Rules::samurai()
        .with_diagonals()
        .with_cage(&[0, 1], Some(3))
        .unwrap()
        .with_anti_knight();
    let line = round_trip(&extras, &cells);
    assert!(
        line.ends_with(" samurai x cage=3:r1c1,r1c2 anti-knight"),
        "{line}"
    );
    let pieces = pieces(&samurai).unwrap();
    assert_eq!((pieces[0], pieces[3], pieces[9]), (0, 1, usize::MAX));
    assert_eq!(pieces[21 * 3], 7, "the frame's boxes, 7 a band");
}

#[test]
fn samurai_errors_name_the_cell() {
    let empty = ".".repeat(441);
    let mut in_hole = empty.clone();
    in_hole.replace_range(9..10, "4");
    let mut ten = empty.clone();
    ten.replace_range(0..1, "A");
    for (line, says) in [
        (
            format!("{} samurai", ".".repeat(440)),
            "440 symbols; samurai is the 21×21 frame",
        ),
        (format!("{in_hole} samurai"), "r1c10 is outside the grids"),
        (format!("{ten} samurai"), "'A' at r1c1"),
        (
            format!("{empty} samurai cage=5:r1c1,r1c10"),
            "r1c10 is outside the grids",
        ),
        (
            format!("{empty} samurai latin"),
            "already given by `samurai`",
        ),
    ] {
        let error = parse(&line).expect_err(&line).to_string();
        assert!(error.contains(says), "{says}: {error}");
    }
}

#[test]
fn written_lines_solve_to_grids_the_checker_accepts() {
    use super::super::variant::VariantSolver;
    let read = parse("1........ latin region=r1c1,r2c2,r3c3 thermo=r2c3,r1c3")
        .unwrap()
        .unwrap();
    let grid = VariantSolver::new(&read.rules, &read.cells)
        .unwrap()
        .first()
        .expect("a 3×3 latin square with these rules exists");
    let check = cover_check::variant::VariantRules {
        side: 3,
        regions: vec![
            vec![0, 1, 2],
            vec![3, 4, 5],
            vec![6, 7, 8],
            vec![0, 3, 6],
            vec![1, 4, 7],
            vec![2, 5, 8],
            vec![0, 4, 8],
        ],
        cages: Vec::new(),
        anti_knight: false,
        anti_king: false,
        non_consecutive: false,
        thermos: vec![vec![5, 2]],
        ..Default::default()
    };
    cover_check::variant::check_variant_solution(&check, &read.cells, &grid).unwrap();
    let answer = write(&read.rules, &grid);
    assert_eq!(parse(&answer).unwrap().unwrap().rules, read.rules);
}

#[test]
fn pieces_are_the_boxes_or_jigsaw_pieces() {
    let boxes = pieces(&Rules::classic(4)).unwrap();
    assert_eq!(boxes, vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
    assert_eq!(pieces(&Rules::latin(4).unwrap()), None);
    let layout = jigsaw_nine();
    assert_eq!(pieces(&Rules::jigsaw(9, &layout).unwrap()).unwrap(), layout);
    assert_eq!(
        fields(&Rules::classic(9).with_diagonals().with_anti_king()),
        vec!["x", "anti-king"]
    );
}
