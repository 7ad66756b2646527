//! End-to-end tests of `cover sudoku` on variants: variant lines (mixed
//! with classic lines), f-puzzles JSON documents and link strings, each
//! answered in its own form; counts against `cover-check`'s brute force;
//! `--all`, `--json`, `--pretty`, the limits; bad input reported at its
//! place with the rest answered. Every solution is checked by
//! `cover-check`'s variant checker against rules spelled out here, never
//! read through the solver's own model.

mod support;

use cover_check::sudoku::{check_grid, line_cells};
use cover_check::variant::{check_variant_solution, count_variant_brute, VariantRules};
use cover_models::sudoku::fpuzzles;
use serde_json::{json, Value};
use support::{cover, file, json_lines};

const LINE9: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A cell `rRcC` (from 1) as a number from 0.
fn at(side: usize, r: usize, c: usize) -> usize {
    (r - 1) * side + c - 1
}

fn main_diagonal(side: usize) -> Vec<usize> {
    (0..side).map(|i| i * side + i).collect()
}

fn anti_diagonal(side: usize) -> Vec<usize> {
    (0..side).map(|i| i * side + side - 1 - i).collect()
}

/// Digits of a line's cells: `1`-`9`, `A`… for 10…, `.` empty.
fn digits(cells: &str) -> Vec<u8> {
    cells
        .chars()
        .map(|ch| match ch {
            '.' | '0' => 0,
            '1'..='9' => ch as u8 - b'0',
            _ => ch as u8 - b'A' + 10,
        })
        .collect()
}

/// The 9×9 jigsaw of the tests: boxes, with r1c4 moved to the first
/// piece and r3c3 to the second.
const JIGSAW: &str =
    "111122333111222333112222333444555666444555666444555666777888999777888999777888999";

fn jigsaw_rules() -> VariantRules {
    let mut rules = VariantRules::classic(9, 0, 0);
    for piece in b'1'..=b'9' {
        rules.regions.push(
            JIGSAW
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == piece)
                .map(|(cell, _)| cell)
                .collect(),
        );
    }
    rules
}

/// The variant lines of the tests, and their rules for the checker.
fn lines() -> Vec<(String, VariantRules)> {
    let mut x4 = VariantRules::classic(4, 2, 2);
    x4.regions.push(main_diagonal(4));
    x4.regions.push(anti_diagonal(4));
    let mut killer6 = VariantRules::classic(6, 2, 3);
    killer6
        .cages
        .push((vec![at(6, 1, 2), at(6, 1, 3)], Some(7)));
    killer6
        .thermos
        .push(vec![at(6, 6, 1), at(6, 6, 2), at(6, 6, 3)]);
    let mut knight6 = VariantRules::classic(6, 2, 3);
    knight6.anti_knight = true;
    let mut windoku = VariantRules::classic(9, 3, 3);
    for (top, left) in [(2, 2), (2, 6), (6, 2), (6, 6)] {
        windoku.regions.push(
            (top..top + 3)
                .flat_map(|r| (left..left + 3).map(move |c| at(9, r, c)))
                .collect(),
        );
    }
    windoku.cages.push((vec![at(9, 1, 1), at(9, 1, 2)], None));
    windoku
        .cages
        .push((vec![at(9, 9, 8), at(9, 9, 9)], Some(10)));
    let mut jigsaw = jigsaw_rules();
    jigsaw.regions.push(vec![at(9, 5, 5), at(9, 6, 6)]);
    let mut latin = VariantRules::classic(5, 0, 0);
    latin.non_consecutive = true;
    let empty = |n: usize| ".".repeat(n);
    vec![
        ("1............... x".to_owned(), x4),
        (
            format!(
                "1{} boxes=2x3 cage=7:r1c2,r1c3 thermo=r6c1,r6c2,r6c3",
                empty(35)
            ),
            killer6,
        ),
        (format!("1{} boxes=2x3 anti-knight", empty(35)), knight6),
        (
            format!(
                "{}9{} windoku cage=:r1c1,r1c2 cage=10:r9c8,r9c9",
                empty(73),
                empty(7)
            ),
            windoku,
        ),
        (
            format!("5{} jigsaw={JIGSAW} region=r5c5,r6c6", empty(80)),
            jigsaw,
        ),
        (format!("1{} latin non-consecutive", empty(24)), latin),
    ]
}

/// Checks an answer line to `puzzle`: the solution's cells, then the
/// puzzle's own fields.
fn check_line(puzzle: &str, answer: &str, rules: &VariantRules) {
    let (cells, fields) = puzzle.split_once(' ').unwrap();
    let (solved, answer_fields) = answer.split_once(' ').unwrap_or_else(|| panic!("{answer}"));
    assert_eq!(answer_fields, fields, "the answer keeps the fields");
    if let Err(why) = check_variant_solution(rules, &digits(cells), &digits(solved)) {
        panic!("{puzzle} -> {answer}: {why}");
    }
}

#[test]
fn variant_lines_mixed_with_classic_lines_answer_as_lines() {
    let cases = lines();
    let mut input = format!("{LINE9}\n");
    for (line, _) in &cases {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str(&format!("{LINE9} 17 clues, a comment\n"));
    let path = file("variant_lines.txt", input.as_bytes());
    let (out, err, code) = cover(&["sudoku", &path], b"");
    assert_eq!((code, err.as_str()), (0, ""));
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), cases.len() + 2);
    for classic in [answers[0], answers[cases.len() + 1]] {
        let (puzzle, solved) = (line_cells(LINE9), line_cells(classic));
        assert_eq!(check_grid(&puzzle, &solved, Some("123456789")), Ok(()));
    }
    for ((line, rules), answer) in cases.iter().zip(&answers[1..]) {
        check_line(line, answer, rules);
    }
    // An answer reads back as a puzzle: a full grid, its own solution.
    let again = file("variant_again.txt", out.as_bytes());
    let (twice, _, code) = cover(&["sudoku", &again], b"");
    assert_eq!((code, twice), (0, out));
}

#[test]
fn counts_and_every_solution_agree_with_the_brute_force() {
    let all = lines();
    let two_rows = "134256256134".to_owned() + &".".repeat(24);
    let with_cells = |k: usize, cells: &str| {
        let (line, rules): &(String, VariantRules) = &all[k];
        let (_, fields) = line.split_once(' ').unwrap();
        (format!("{cells} {fields}"), rules.clone())
    };
    let cases = vec![
        (
            "1..........2.... latin".to_owned(),
            VariantRules::classic(4, 0, 0),
        ),
        all[0].clone(),
        // Two given rows keep the brute force of a 6×6 short.
        with_cells(1, &two_rows),
        with_cells(2, &two_rows),
        all[5].clone(),
    ];
    for (line, rules) in &cases {
        let cells = digits(line.split(' ').next().unwrap());
        let brute = count_variant_brute(rules, &cells, 100_000);
        let (out, _, code) = cover(&["sudoku", "--count", "-"], line.as_bytes());
        assert_eq!(out.trim(), brute.to_string(), "{line}");
        assert_eq!(code, if brute > 0 { 0 } else { 1 });
        // Every solution up to a limit: each checked, none twice.
        let (out, _, _) = cover(&["sudoku", "--all", "--limit", "7", "-"], line.as_bytes());
        let answers: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(answers.len() as u64, brute.min(7), "{line}");
        let distinct: std::collections::HashSet<&&str> = answers.iter().collect();
        assert_eq!(distinct.len(), answers.len());
        for answer in answers {
            check_line(line, answer, rules);
        }
    }
}

/// A 6×6 f-puzzles document with a given, the anti-diagonal, an extra
/// region, a cage and a thermometer, pretty-printed as a file is.
fn six_document() -> (Value, VariantRules) {
    let mut grid = vec![vec![json!({}); 6]; 6];
    grid[0][0] = json!({ "value": 1, "given": true });
    let value = json!({
        "size": 6, "title": "Six", "author": "tests", "grid": grid,
        "diagonal+": true,
        "extraregion": [{ "cells": ["R3C3", "R4C4", "R5C5"] }],
        "killercage": [{ "cells": ["R1C2", "R1C3"], "value": "7" }],
        "thermometer": [{ "lines": [["R6C1", "R6C2", "R6C3"]] }],
    });
    let mut rules = VariantRules::classic(6, 2, 3);
    rules.regions.push(anti_diagonal(6));
    rules
        .regions
        .push(vec![at(6, 3, 3), at(6, 4, 4), at(6, 5, 5)]);
    rules.cages.push((vec![at(6, 1, 2), at(6, 1, 3)], Some(7)));
    rules
        .thermos
        .push(vec![at(6, 6, 1), at(6, 6, 2), at(6, 6, 3)]);
    (value, rules)
}

/// The values of every cell of an f-puzzles document (0 where none).
fn values(document: &Value) -> Vec<u8> {
    document["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|cell| cell["value"].as_u64().unwrap_or(0) as u8)
        .collect()
}

fn givens(document: &Value) -> Vec<u8> {
    document["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|cell| match cell["given"].as_bool() {
            Some(true) => cell["value"].as_u64().unwrap() as u8,
            _ => 0,
        })
        .collect()
}

#[test]
fn an_fpuzzles_file_is_answered_with_its_document_filled_in() {
    let (document, rules) = six_document();
    let pretty = serde_json::to_string_pretty(&document).unwrap();
    let path = file("six.json", pretty.as_bytes());
    let (out, err, code) = cover(&["sudoku", &path], b"");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.lines().count(), 1, "one document, one line");
    let answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["title"], "Six");
    assert_eq!(answer["thermometer"], document["thermometer"]);
    assert_eq!(givens(&answer), givens(&document), "givens stay givens");
    check_variant_solution(&rules, &givens(&document), &values(&answer)).unwrap();
    // Counted and drawn too.
    let brute = count_variant_brute(&rules, &givens(&document), 1_000_000);
    let (out, _, _) = cover(&["sudoku", "--count", &path], b"");
    assert_eq!(out.trim(), brute.to_string());
    let (out, _, _) = cover(&["sudoku", "--pretty", &path], b"");
    for words in [
        "diagonal: r1c6 to the bottom left",
        "region: r3c3 r4c4 r5c5",
        "thermometer: r6c1 < r6c2 < r6c3",
        "a=7",
    ] {
        assert!(out.contains(words), "{words} in {out}");
    }
}

/// The document of a link's string.
fn unpack(packed: &str) -> Value {
    let packed = packed
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=");
    let utf16 = lz_str::decompress_from_base64(&packed).expect("a link string");
    serde_json::from_str(&String::from_utf16(&utf16).unwrap()).unwrap()
}

#[test]
fn links_are_answered_with_links() {
    let (document, rules) = six_document();
    let packed = fpuzzles::to_link_string(&fpuzzles::from_json(&document).unwrap());
    let escaped = packed
        .replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D");
    let input = format!(
        "{packed}\nhttps://f-puzzles.com/?load={packed}\nhttps://f-puzzles.com/?load={escaped}\n"
    );
    let (out, err, code) = cover(&["sudoku", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 3);
    for (k, answer) in answers.iter().enumerate() {
        let packed = match k {
            0 => *answer,
            _ => answer
                .strip_prefix("https://f-puzzles.com/?load=")
                .unwrap_or_else(|| panic!("{answer}")),
        };
        assert_eq!(packed.contains('%'), k == 2, "escaped as the input was");
        let solved = unpack(packed);
        assert_eq!(givens(&solved), givens(&document));
        check_variant_solution(&rules, &givens(&document), &values(&solved)).unwrap();
    }
}

#[test]
fn bad_variants_are_reported_at_their_place_and_the_rest_answered() {
    let input = format!(
        "{LINE9}\n1............... x bogus\nhttps://f-puzzles.com/?load=AAAA\n\
         {{\"size\": 4, \"grid\": [], \"arrow\": [{{\"cells\": [\"R1C1\"]}}]}}\n\
         1............... cage=40:r1c1,r1c2\n1............... x\n"
    );
    let path = file("bad_variants.txt", input.as_bytes());
    let (out, err, code) = cover(&["sudoku", &path], b"");
    assert_eq!(code, 2);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(&answers[1..5], ["invalid"; 4]);
    let (x4, x4_rules) = &lines()[0];
    check_line(x4, answers[5], x4_rules);
    for (line, says) in [
        (2, "`bogus` is not a variant field"),
        (3, "not f-puzzles data"),
        (4, "the arrow rule is not supported"),
        (
            5,
            "field `cage=40:r1c1,r1c2`: a cage of 2 cells cannot sum to 40",
        ),
    ] {
        let expected = format!("{path}:{line}: ");
        let reported = err
            .lines()
            .find(|l| l.contains(&expected))
            .unwrap_or_else(|| panic!("line {line} in {err}"));
        assert!(reported.contains(says), "{reported}");
    }
    // The same in JSON: a record per puzzle, in order.
    let (out, _, code) = cover(&["sudoku", "--json", &path], b"");
    assert_eq!(code, 2);
    let records = json_lines(&out);
    let statuses: Vec<&str> = records
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["solved", "invalid", "invalid", "invalid", "invalid", "solved"]
    );
    assert_eq!(records[5]["variant"], "line");
    assert!(records[0].get("variant").is_none(), "a classic puzzle");
}

#[test]
fn limits_marks_and_json_records_as_for_classic_puzzles() {
    // No solution: two 1s in a row.
    let (out, _, code) = cover(&["sudoku", "-"], b"11.............. x\n");
    assert_eq!((out.as_str(), code), ("no solution\n", 1));
    // An empty anti-knight X 9×9 needs more than one node.
    let hard = format!("{} x anti-knight\n", ".".repeat(81));
    let (out, _, code) = cover(&["sudoku", "--max-nodes", "1", "-"], hard.as_bytes());
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
    let (out, _, code) = cover(
        &["sudoku", "--count", "--max-nodes", "1", "--json", "-"],
        hard.as_bytes(),
    );
    let record = &json_lines(&out)[0];
    assert_eq!(code, 1);
    assert_eq!(record["status"], "gave_up");
    assert_eq!(record["complete"], false);
    // A count that gave up says how many it had found, as JSON's count.
    let diagonal = format!("{} x\n", ".".repeat(81));
    let count = |json: &str| {
        let mut args = vec!["sudoku", "--count", "--max-nodes", "200", "-"];
        args.extend((!json.is_empty()).then_some(json));
        cover(&args, diagonal.as_bytes())
    };
    let (out, _, code) = count("");
    let found = &json_lines(&count("--json").0)[0]["count"];
    assert_eq!(
        (out, code),
        (format!("gave up after {found} solutions\n"), 1)
    );
    // Counting with a limit, in JSON.
    let (x4, rules) = &lines()[0];
    let brute = count_variant_brute(rules, &digits("1..............."), 100);
    assert!(brute > 3);
    for (limit, count, complete) in [("3", 3, false), ("100", brute, true)] {
        let (out, _, code) = cover(
            &["sudoku", "--count", "--limit", limit, "--json", "-"],
            x4.as_bytes(),
        );
        let record = &json_lines(&out)[0];
        assert_eq!(code, 0);
        assert_eq!(
            (record["count"].as_u64(), record["complete"].as_bool()),
            (Some(count), Some(complete))
        );
        assert_eq!(record["size"], 4);
    }
    // Every solution in JSON: each checked.
    let (out, _, _) = cover(&["sudoku", "--all", "--json", "-"], x4.as_bytes());
    let record = &json_lines(&out)[0];
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!(
        solutions.len() as u64,
        count_variant_brute(rules, &digits("1..............."), 100)
    );
    for solution in solutions {
        let cells = digits(solution.as_str().unwrap());
        check_variant_solution(rules, &digits("1..............."), &cells).unwrap();
    }
    // --stats counts variants with the rest.
    let (_, err, _) = cover(&["sudoku", "--stats", "-"], x4.as_bytes());
    assert!(err.contains("1 solved"), "{err}");
}

#[test]
fn pretty_draws_jigsaw_pieces_cages_and_rules() {
    let input = format!("5{} jigsaw={JIGSAW} cage=10:r9c8,r9c9 x\n", ".".repeat(80));
    let mut rules = jigsaw_rules();
    rules.regions.push(main_diagonal(9));
    rules.regions.push(anti_diagonal(9));
    rules.cages.push((vec![at(9, 9, 8), at(9, 9, 9)], Some(10)));
    let (out, err, code) = cover(&["sudoku", "--pretty", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('|') && l.chars().any(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 9, "{out}");
    // Cell c of a row is drawn at 4c+2; the wall left of it at 4c.
    let grid: Vec<u8> = rows
        .iter()
        .flat_map(|row| (0..9).map(move |c| row.as_bytes()[4 * c + 2] - b'0'))
        .collect();
    let mut puzzle = vec![0; 81];
    puzzle[0] = 5;
    check_variant_solution(&rules, &puzzle, &grid).unwrap();
    // r1c4 belongs with r1c1–r1c3: no wall between c3 and c4, one after c4.
    assert_eq!(&rows[0][12..13], " ", "{out}");
    assert_eq!(&rows[0][16..17], "|", "{out}");
    // The cage's cells carry its letter.
    assert_eq!(&rows[8][4 * 7 + 3..4 * 7 + 4], "a", "{out}");
    assert!(out.contains("x: both main diagonals hold no digit twice"));
    assert!(out.contains("cages (digits differ, sum as given): a=10"));
    assert!(out.ends_with("\n\n"), "a blank line ends the drawing");
}

#[test]
fn samurai_lines_are_solved_and_drawn_with_their_holes() {
    let mut cells = vec![b'.'; 441];
    cells[0] = b'1';
    cells[10 * 21 + 10] = b'5';
    let cells = String::from_utf8(cells).unwrap();
    let line = format!("{cells} samurai");
    let (out, err, code) = cover(&["sudoku", "-"], line.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    check_line(&line, out.trim_end(), &VariantRules::samurai());
    let (out, _, code) = cover(&["sudoku", "--pretty", "-"], line.as_bytes());
    assert_eq!(code, 0);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('|') && l.chars().any(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 21, "{out}");
    // Row 1 has no cells in columns 10–12: drawn blank.
    assert_eq!(rows[0][4 * 9 + 1..4 * 12].trim(), "", "{out}");
    // Row 11 has cells in columns 7–15 only.
    assert_eq!(rows[10][1..4 * 6].trim(), "", "{out}");
}

/// An X-sudoku that hidden singles solve, read as classic too (the same
/// cells have one solution without the diagonals).
const X_SINGLES: &str =
    "12.4....9.8.1.3.56........3.....8.4..18...26..4.6...3..6.9..5.8.713.....2........";

/// An X-sudoku that needs more than singles.
const X_HARDER: &str =
    "12.4....9.....34.6........3.....8.............4..9.8...6.9..5.8.........2.5......";

/// A jigsaw (the pieces of [`JIGSAW`]) that needs chains.
const JIGSAW_PUZZLE: &str =
    "....5.7.98......5..6....1....28..9....9.1.........7....3...4.......315....5.6.23.";

/// A killer: each row cut into cages of columns 1-2, 3-4, 5-6 and 7-9,
/// with these sums, row after row, and a few givens.
const KILLER_SUMS: [u32; 36] = [
    5, 10, 15, 15, 9, 3, 13, 20, 14, 15, 6, 10, 10, 9, 10, 16, 16, 6, 14, 9, 7, 15, 3, 20, 10, 15,
    7, 13, 12, 5, 10, 18, 7, 12, 12, 14,
];
const KILLER_GIVENS: &str =
    "...............9..........6.....7.6....................8....5..5........1........";

fn x_rules() -> VariantRules {
    let mut rules = VariantRules::classic(9, 3, 3);
    rules.regions.push(main_diagonal(9));
    rules.regions.push(anti_diagonal(9));
    rules
}

/// The killer's line and its rules for the checker.
fn killer() -> (String, VariantRules) {
    let mut rules = VariantRules::classic(9, 3, 3);
    let mut line = KILLER_GIVENS.to_owned();
    let mut sums = KILLER_SUMS.iter();
    for r in 1..=9 {
        for columns in [1..=2, 3..=4, 5..=6, 7..=9] {
            let sum = *sums.next().unwrap();
            let cells: Vec<usize> = columns.clone().map(|c| at(9, r, c)).collect();
            let names: Vec<String> = columns.map(|c| format!("r{r}c{c}")).collect();
            line.push_str(&format!(" cage={sum}:{}", names.join(",")));
            rules.cages.push((cells, Some(sum)));
        }
    }
    (line, rules)
}

/// The unique puzzles of the logic tests: X, jigsaw and killer lines, and
/// their rules for the checker.
fn logic_puzzles() -> Vec<(String, VariantRules)> {
    vec![
        (format!("{X_SINGLES} x"), x_rules()),
        (format!("{X_HARDER} x"), x_rules()),
        (format!("{JIGSAW_PUZZLE} jigsaw={JIGSAW}"), jigsaw_rules()),
        killer(),
    ]
}

/// `rating technique` of a `--rate` line, the rating as a number.
fn rating(answer: &str) -> (f64, &str) {
    let (value, technique) = answer
        .trim_end()
        .split_once(' ')
        .unwrap_or_else(|| panic!("{answer}"));
    let value: f64 = value.parse().unwrap_or_else(|_| panic!("{answer}"));
    (value, technique)
}

#[test]
fn rate_gives_variants_a_rating_as_for_classic_puzzles() {
    let puzzles = logic_puzzles();
    let input: String = puzzles
        .iter()
        .map(|(line, _)| format!("{line}\n"))
        .collect();
    let (out, err, code) = cover(&["sudoku", "--rate", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), puzzles.len(), "{out}");
    for ((line, rules), answer) in puzzles.iter().zip(&answers) {
        // Each is unique, by the checker's own brute force.
        let cells = digits(line.split_once(' ').unwrap().0);
        assert_eq!(count_variant_brute(rules, &cells, 2), 1, "{line}");
        let (value, technique) = rating(answer);
        // Sudoku Explainer's scale runs from 1.0 (a full house) to about 12.
        assert!((1.0..=12.0).contains(&value), "{line}: {answer}");
        assert!(!technique.is_empty(), "{line}: {answer}");
    }
    // Singles rate a variant as they rate the same cells read as classic.
    let (classic, _, code) = cover(&["sudoku", "--rate", "-"], X_SINGLES.as_bytes());
    assert_eq!(code, 0);
    let (value, technique) = rating(&classic);
    assert!(value <= 2.3, "singles only: {classic}");
    assert_eq!(rating(answers[0]), (value, technique));
    // More than singles for the others.
    assert!(rating(answers[1]).0 > 2.3, "{}", answers[1]);
    assert!(rating(answers[2]).0 > 2.3, "{}", answers[2]);
    // The killer's cages are read: its first steps are cage combinations.
    assert!(rating(answers[3]).0 >= 2.5, "{}", answers[3]);
    // JSON: the classic record's fields, and the form.
    let (out, _, code) = cover(&["sudoku", "--rate", "--json", "-"], input.as_bytes());
    assert_eq!(code, 0);
    for (record, answer) in json_lines(&out).iter().zip(&answers) {
        assert_eq!(record["status"], "solved");
        assert_eq!(record["unique"], true);
        assert_eq!(record["variant"], "line");
        assert_eq!(record["size"], 9);
        let (value, technique) = rating(answer);
        assert_eq!(record["rating"].as_f64(), Some(value), "{record}");
        assert_eq!(record["hardest"], technique);
        assert!(record["difficulty"].is_string(), "{record}");
    }
}

/// What a step of `--explain` does, after its last `: `: each
/// `rRcC = D` (placed: true) and `rRcC ≠ D` (removed), as (cell, placed,
/// digit).
fn effects(step: &str) -> Vec<(usize, bool, u8)> {
    let (_, effects) = step.rsplit_once(": ").unwrap_or_else(|| panic!("{step}"));
    effects
        .split(", ")
        .map(|effect| {
            let parsed = effect.split_once(" = ").map(|p| (p, true));
            let ((cell, digit), placed) = parsed
                .or_else(|| effect.split_once(" ≠ ").map(|p| (p, false)))
                .unwrap_or_else(|| panic!("{effect:?} in {step}"));
            let (r, c) = cell
                .strip_prefix('r')
                .and_then(|rc| rc.split_once('c'))
                .unwrap_or_else(|| panic!("{cell:?} in {step}"));
            let cell = at(9, r.parse().unwrap(), c.parse().unwrap());
            assert_eq!(digit.len(), 1, "{step}");
            (cell, placed, digits(digit)[0])
        })
        .collect()
}

#[test]
fn explain_steps_lead_to_the_solution() {
    for (line, rules) in logic_puzzles() {
        let (out, err, code) = cover(
            &["sudoku", "--explain", "-"],
            format!("{line}\n").as_bytes(),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        assert!(out.ends_with("\n\n"), "a blank line ends the steps");
        let lines: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
        let (last, steps) = lines.split_last().unwrap();
        // It ends solved, in the puzzle's own form, checked.
        let answer = last
            .strip_prefix("solved: ")
            .unwrap_or_else(|| panic!("{out}"));
        check_line(&line, answer, &rules);
        let solution = digits(answer.split_once(' ').unwrap().0);
        let givens = digits(line.split_once(' ').unwrap().0);
        let mut placed = givens.clone();
        for step in steps {
            let (value, _) = rating(step);
            assert!((1.0..=12.0).contains(&value), "{step}");
            // Every placement is the solution's digit; no elimination
            // removes it.
            for (cell, is_placed, digit) in effects(step) {
                if is_placed {
                    assert_eq!(solution[cell], digit, "{step}");
                    placed[cell] = digit;
                } else {
                    assert_ne!(solution[cell], digit, "{step}");
                }
            }
        }
        // The placements fill the grid.
        assert_eq!(placed, solution, "{line}");
        // JSON: the same steps, and the solution's cells.
        let (out, _, code) = cover(
            &["sudoku", "--explain", "--json", "-"],
            format!("{line}\n").as_bytes(),
        );
        assert_eq!(code, 0);
        let record = &json_lines(&out)[0];
        let listed: Vec<&str> = record["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(listed, steps);
        assert_eq!(digits(record["solution"].as_str().unwrap()), solution);
    }
}

#[test]
fn logic_refuses_samurai_by_name_and_answers_the_rest() {
    let mut cells = vec![b'.'; 441];
    cells[0] = b'1';
    let samurai = format!("{} samurai", String::from_utf8(cells).unwrap());
    let input = format!("{samurai}\n{X_SINGLES} x\n");
    for flag in ["--rate", "--explain"] {
        let (out, err, code) = cover(&["sudoku", flag, "-"], input.as_bytes());
        // Gave up on one puzzle: exit 1, not bad input.
        assert_eq!(code, 1, "{out}{err}");
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers[0], "gave up", "{out}");
        assert!(err.contains("<stdin>:1:"), "{err}");
        assert!(err.contains("Samurai"), "{err}");
        // The X-sudoku is answered after it.
        let rest = answers[1..].join("\n");
        let expected = match flag {
            "--rate" => "Hidden Single",
            _ => "solved: ",
        };
        assert!(rest.contains(expected), "{out}");
    }
    let (out, _, _) = cover(&["sudoku", "--rate", "--json", "-"], input.as_bytes());
    let records = json_lines(&out);
    assert_eq!(records[0]["status"], "gave_up");
    assert!(records[0]["error"].as_str().unwrap().contains("Samurai"));
    assert_eq!(records[1]["status"], "solved");
}

#[test]
fn rate_honours_the_search_limits_on_variants() {
    // An empty anti-knight X 9×9: proving it unique takes more than a node.
    let hard = format!("{} x anti-knight\n", ".".repeat(81));
    let (out, _, code) = cover(
        &["sudoku", "--rate", "--max-nodes", "1", "-"],
        hard.as_bytes(),
    );
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
    // Several solutions, no solution: as for classic puzzles.
    let (out, _, code) = cover(
        &["sudoku", "--rate", "-"],
        b"1............... x\n11.............. x\n",
    );
    assert_eq!((out.as_str(), code), ("not unique\nno solution\n", 1));
}

#[test]
fn an_fpuzzles_document_is_rated_and_explained_in_its_own_form() {
    let cells = digits(X_SINGLES);
    let grid: Vec<Vec<Value>> = cells
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&d| match d {
                    0 => json!({}),
                    d => json!({ "value": d, "given": true }),
                })
                .collect()
        })
        .collect();
    let document = json!({ "size": 9, "grid": grid, "diagonal+": true, "diagonal-": true });
    let input = format!("{document}\n");
    let (line_rating, _, _) = cover(
        &["sudoku", "--rate", "-"],
        format!("{X_SINGLES} x\n").as_bytes(),
    );
    let (out, err, code) = cover(&["sudoku", "--rate", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, line_rating, "the same rules read from JSON");
    let (out, err, code) = cover(&["sudoku", "--explain", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    let solved = out
        .lines()
        .find_map(|l| l.strip_prefix("solved: "))
        .unwrap_or_else(|| panic!("{out}"));
    let solved: Value = serde_json::from_str(solved).expect("the document, filled in");
    check_variant_solution(&x_rules(), &givens(&document), &values(&solved)).unwrap();
    // Without its diagonals the document is a classic puzzle, and its
    // steps are the classic path's, word for word.
    let mut plain = document.clone();
    let object = plain.as_object_mut().unwrap();
    object.remove("diagonal+");
    object.remove("diagonal-");
    let (classic, _, _) = cover(&["sudoku", "--explain", "-"], X_SINGLES.as_bytes());
    let (out, err, code) = cover(
        &["sudoku", "--explain", "-"],
        format!("{plain}\n").as_bytes(),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let steps = |text: &str| -> Vec<String> {
        text.lines()
            .take_while(|l| !l.starts_with("solved: "))
            .map(str::to_owned)
            .collect()
    };
    assert!(!steps(&classic).is_empty(), "{classic}");
    assert_eq!(steps(&out), steps(&classic));
}
