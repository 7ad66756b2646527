//! End-to-end tests of `cover target`: the fixtures of `fixtures/target/`
//! (exact output, exit status, the lines errors name), and every grid that
//! `--show` and `--json` print checked by `cover-check`, which does not
//! trust the solver: its own reading of the input, a valid sudoku that
//! keeps every given, and the score recomputed from the grid.

mod support;

use std::path::PathBuf;

use cover_check::error_lines;
use cover_check::manifest::read_exit_manifest;
use cover_check::target::{self, check_grid, Cells};
use support::{cover, json_lines};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/target")
}

fn fixture(name: &str) -> String {
    fixtures().join(name).to_str().unwrap().to_owned()
}

fn read_fixture(name: &str) -> String {
    std::fs::read_to_string(fixtures().join(name)).unwrap()
}

// ---------------------------------------------------------------------------
// `cover-check`'s reading of the input and its checker of grids.

fn read_puzzles(text: &str) -> Vec<Cells> {
    target::read_puzzles(text).unwrap_or_else(|e| panic!("{e}"))
}

fn read_shown(stdout: &str) -> Vec<(i64, Option<Cells>)> {
    target::read_shown(stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// Checks every answer of `--show` output for `input` against `expected`
/// scores: each grid valid, keeping the givens, scoring what is printed;
/// each -1 a puzzle without solution.
fn check_shown(input: &str, stdout: &str, expected: &[i64]) {
    let puzzles = read_puzzles(input);
    let answers = read_shown(stdout);
    assert_eq!(answers.len(), puzzles.len());
    for ((puzzle, (score, grid)), want) in puzzles.iter().zip(&answers).zip(expected) {
        let checked = target::check_answer(puzzle, &want.to_string(), *score, grid.as_ref());
        assert_eq!(checked, Ok(()));
    }
}

fn scores(text: &str) -> Vec<i64> {
    text.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn the_checker_rejects_wrong_grids() {
    let puzzle = read_puzzles(&read_fixture("p1074_sample1.in"))[0];
    let stdout = cover(&["target", "--show", &fixture("p1074_sample1.in")], b"").0;
    let (_, grid) = read_shown(&stdout)[0];
    let grid = grid.unwrap();
    assert_eq!(check_grid(&puzzle, &grid), Ok(2829));
    let mut swapped = grid;
    swapped.swap(0, 1);
    assert!(check_grid(&puzzle, &swapped).is_err());
    let mut other = [0; 81];
    other[0] = grid[1];
    assert!(check_grid(&other, &grid).is_err());
}

// ---------------------------------------------------------------------------
// The samples and the fixtures.

#[test]
fn the_samples() {
    for (name, expected) in [("p1074_sample1", "2829\n"), ("p1074_sample2", "2852\n")] {
        let (stdout, stderr, code) = cover(&["target", &fixture(&format!("{name}.in"))], b"");
        assert_eq!((stdout.as_str(), stderr.as_str(), code), (expected, "", 0));
        assert_eq!(read_fixture(&format!("{name}.out")), expected);
    }
}

#[test]
fn every_fixture_gives_its_expected_output() {
    let rows = read_exit_manifest(&fixtures().join("expected.tsv")).unwrap();
    assert!(rows.len() >= 7);
    for row in rows {
        let name = &row.file;
        let (stdout, stderr, code) = cover(&["target", &fixture(name)], b"");
        assert_eq!(stdout, read_fixture(&name.replace(".in", ".out")), "{name}");
        assert_eq!(code, row.exit, "{name}: {stderr}");
        assert_eq!(error_lines(&stderr), row.error_lines, "{name}: {stderr}");
    }
}

#[test]
fn shown_grids_are_valid_keep_the_givens_and_score_what_is_printed() {
    for name in [
        "p1074_sample1",
        "p1074_sample2",
        "random_small",
        "random_hard",
        "layout",
        "no_solution",
    ] {
        let input = read_fixture(&format!("{name}.in"));
        let expected = scores(&read_fixture(&format!("{name}.out")));
        let (stdout, _, code) = cover(&["target", "--show", &fixture(&format!("{name}.in"))], b"");
        assert_eq!(code, if expected.contains(&-1) { 1 } else { 0 });
        check_shown(&input, &stdout, &expected);
    }
}

#[test]
fn json_records_and_the_same_answers_on_any_number_of_threads() {
    let path = fixture("random_small.in");
    let input = read_fixture("random_small.in");
    let puzzles = read_puzzles(&input);
    let expected = scores(&read_fixture("random_small.out"));
    let one = cover(&["target", "--json", "--jobs", "1", &path], b"");
    let two = cover(&["target", "--json", "--jobs", "2", &path], b"");
    assert_eq!(one.0, two.0, "the same records, in the same order");
    let records = json_lines(&one.0);
    assert_eq!(records.len(), puzzles.len());
    for (k, ((record, puzzle), want)) in records.iter().zip(&puzzles).zip(&expected).enumerate() {
        assert_eq!(record["index"], k + 1);
        assert_eq!(record["file"], path.as_str());
        assert_eq!(record["status"], "solved");
        assert_eq!(record["score"], *want);
        assert_eq!(record["line"], 10 * k + 1);
        let grid: Vec<u8> = record["grid"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap().clone())
            .map(|d| d.as_u64().unwrap() as u8)
            .collect();
        let grid: Cells = grid.try_into().unwrap();
        assert_eq!(i64::from(check_grid(puzzle, &grid).unwrap()), *want);
        assert!(record["nodes"].as_u64().unwrap() > 0);
        assert!(record["solutions_visited"].as_u64().unwrap() >= 1);
        assert!(record["updates"].is_u64());
    }
}

// ---------------------------------------------------------------------------
// Puzzles without solution, bad input, input from anywhere.

#[test]
fn puzzles_without_solution_print_minus_one() {
    let (stdout, stderr, code) = cover(&["target", &fixture("no_solution.in")], b"");
    assert_eq!(stdout, "-1\n-1\n-1\n2829\n-1\n-1\n-1\n");
    assert_eq!((stderr.as_str(), code), ("", 1));
    let records = json_lines(&cover(&["target", "--json", &fixture("no_solution.in")], b"").0);
    assert_eq!(records[0]["status"], "no_solution");
    assert_eq!(records[0]["score"], -1);
    assert!(records[0].get("grid").is_none());
    assert_eq!(records[3]["status"], "solved");
    // --show: nothing but the -1 and the blank line.
    let shown = cover(&["target", "--show", &fixture("no_solution.in")], b"").0;
    assert!(shown.starts_with("-1\n\n-1\n\n-1\n\n2829\n7 5 4 9"));
}

#[test]
fn bad_puzzles_are_reported_and_the_others_answered() {
    let path = fixture("bad_input.in");
    let (stdout, stderr, code) = cover(&["target", &path], b"");
    // `invalid` in place of each bad puzzle (a block of its own with
    // --show), so answers stay aligned with puzzles.
    let invalid = "invalid\n".repeat(4);
    assert_eq!(
        (stdout.as_str(), code),
        (format!("2829\n{invalid}2852\ninvalid\n").as_str(), 2)
    );
    let (shown, _, _) = cover(&["target", "--show", &path], b"");
    assert!(shown.contains("\n\ninvalid\n\ninvalid\n\n"), "{shown}");
    let messages: Vec<&str> = stderr.lines().collect();
    assert_eq!(messages.len(), 5, "{stderr}");
    assert!(messages[0].starts_with(&format!("cover: {path}:18: ")));
    assert!(messages[0].contains("ends after 8 rows"));
    assert!(messages[1].contains(":22: a row has 9 numbers, this one has 8"));
    assert!(messages[2].contains(":34: 10 is not a digit"));
    assert!(messages[3].contains(":48: \"x\" is not a number"));
    assert!(messages[4].contains(":62: ") && messages[4].contains("after 3 rows"));
    // JSON keeps one line per puzzle, in order.
    let records = json_lines(&cover(&["target", "--json", &path], b"").0);
    let statuses: Vec<&str> = records
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["solved", "invalid", "invalid", "invalid", "invalid", "solved", "invalid"]
    );
    assert_eq!(records[2]["line"], 22);
    assert!(records[2]["error"].as_str().unwrap().contains("8"));
}

#[test]
fn standard_input_missing_files_and_stats() {
    let sample = read_fixture("p1074_sample2.in");
    let (stdout, _, code) = cover(&["target"], sample.as_bytes());
    assert_eq!((stdout.as_str(), code), ("2852\n", 0));
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no/such/file.in");
    let missing = missing.to_str().unwrap();
    let one = fixture("p1074_sample1.in");
    let (stdout, stderr, code) = cover(
        &["target", "--stats", missing, "-", &one],
        sample.as_bytes(),
    );
    assert_eq!((stdout.as_str(), code), ("2852\n2829\n", 2));
    assert!(stderr.contains("no/such/file.in"), "{stderr}");
    assert!(
        stderr.contains("instances:     2 (2 answered: 2 solved, 0 without solution; 0 invalid)")
    );
    assert!(stderr.contains("search nodes:"));
    // Empty input: nothing to answer.
    assert_eq!(cover(&["target"], b"").0, "");
    assert_eq!(cover(&["target"], b"\n# nothing\n\n").2, 0);
}

#[test]
fn help_describes_the_score_and_the_output() {
    let (stdout, _, code) = cover(&["target", "--help"], b"");
    assert_eq!(code, 0);
    for words in ["weight", "--show", "-1", "Exit status", "solutions_visited"] {
        assert!(stdout.contains(words), "{words}");
    }
}

/// Every `--propagate` level gives the same best scores (and grids that
/// score them); the empty grid, the hardest case for the plain branch and
/// bound, is answered with reasoning and branching on the scoring cells.
#[test]
fn every_propagation_level_gives_the_same_scores() {
    for name in [
        "p1074_sample1.in",
        "p1074_sample2.in",
        "random_small.in",
        "no_solution.in",
    ] {
        let input = fixture(name);
        let text = read_fixture(name);
        let (plain, _, plain_code) =
            cover(&["target", "--propagate", "none", "--show", &input], b"");
        let expected: Vec<i64> = read_shown(&plain).into_iter().map(|(s, _)| s).collect();
        for level in ["basic", "full", "auto"] {
            let (out, err, code) = cover(&["target", "--propagate", level, "--show", &input], b"");
            assert_eq!(code, plain_code, "{name} {level}: {err}");
            check_shown(&text, &out, &expected);
        }
    }
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let (out, err, code) = cover(&["target", "--show", "--stats"], empty.as_bytes());
    assert_eq!(code, 0, "{err}");
    check_shown(&empty, &out, &[2906]);
    assert!(err.contains("propagated:"), "{err}");
    // The same best score by another way of reasoning (the plain branch
    // and bound takes minutes here).
    let (basic, _, _) = cover(
        &["target", "--propagate", "basic", "--show"],
        empty.as_bytes(),
    );
    check_shown(&empty, &basic, &[2906]);
}
