//! End-to-end tests of `cover generate`: every puzzle checked by a checker
//! that does not trust the solver (the printed solution is a valid grid
//! that keeps the clues), uniqueness and minimality counted by the linked
//! engine, byte-identical output for `--jobs 1` and `--jobs 2`, targets,
//! and bad usage.

mod support;

use cover_check::sudoku::{check_solution, read_cells};
use cover_models::sudoku::{Engine, Puzzles, Solver};
use serde_json::Value;
use support::{assert_usage_errors, cover, json_lines};

/// Reads a line of cells (`.` is 0) in the default symbols of `side`.
fn digits(line: &str, side: usize) -> Vec<u8> {
    read_cells(line, side).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// The number of solutions of a line puzzle by the linked engine, to 2.
fn linked_count(solver: &mut Solver, line: &str) -> u64 {
    let puzzle = Puzzles::new(line.as_bytes(), None).next().unwrap().unwrap();
    solver.count(&puzzle, Some(2)).stats.solutions
}

/// Runs `cover generate ARGS --json` and checks every record: solution,
/// uniqueness and (when `minimal`) minimality.
fn generate_checked(args: &[&str], side: usize, minimal: bool) -> Vec<Value> {
    let mut all = vec!["generate", "--json"];
    all.extend_from_slice(args);
    let (out, err, code) = cover(&all, b"");
    assert_eq!(code, 0, "{err}");
    let records = json_lines(&out);
    let mut solver = Solver::new(Engine::Linked);
    for record in &records {
        let line = record["puzzle"].as_str().unwrap();
        let puzzle = digits(line, side);
        let solution = digits(record["solution"].as_str().unwrap(), side);
        assert_eq!(check_solution(&puzzle, &solution, side), Ok(()), "{line}");
        assert_eq!(linked_count(&mut solver, line), 1, "{line}");
        let clues = puzzle.iter().filter(|&&d| d != 0).count();
        assert_eq!(record["clues"], clues);
        assert!(record["nodes"].as_u64().unwrap() > 0);
        assert!(record["search_grade"].is_string());
        if side <= 9 {
            let rating = record["rating"].as_f64().unwrap();
            assert!((1.0..=12.0).contains(&rating), "{record}");
            assert!(record["hardest"].is_string() && record["difficulty"].is_string());
        }
        if minimal {
            assert_eq!(record["minimal"], true);
            for (k, _) in line.char_indices().filter(|&(_, c)| c != '.') {
                let mut fewer = line.to_owned();
                fewer.replace_range(k..k + 1, ".");
                assert_eq!(linked_count(&mut solver, &fewer), 2, "clue {k} of {line}");
            }
        }
    }
    records
}

#[test]
fn minimal_puzzles_of_every_small_size() {
    let records = generate_checked(&["--seed", "3", "--count", "5"], 9, true);
    assert_eq!(records.len(), 5);
    let indices: Vec<u64> = records
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indices, [1, 2, 3, 4, 5]);
    generate_checked(&["--seed", "3", "--count", "5", "--size", "4"], 4, true);
    generate_checked(&["--seed", "3", "--size", "16"], 16, false);
}

#[test]
fn symmetric_puzzles_are_symmetric() {
    for record in generate_checked(&["--seed", "9", "--count", "4", "--symmetric"], 9, false) {
        let cells: Vec<char> = record["puzzle"].as_str().unwrap().chars().collect();
        for k in 0..cells.len() {
            assert_eq!(cells[k] == '.', cells[80 - k] == '.');
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_with_any_jobs() {
    for extra in [&[][..], &["--json"], &["--symmetric", "--size", "4"]] {
        let mut outputs = Vec::new();
        for jobs in ["1", "2", "3"] {
            let mut args = vec!["generate", "--seed", "11", "--count", "40", "--jobs", jobs];
            args.extend_from_slice(extra);
            let (out, err, code) = cover(&args, b"");
            assert_eq!(code, 0, "{err}");
            outputs.push(out);
        }
        assert_eq!(outputs[0], outputs[1]);
        assert_eq!(outputs[0], outputs[2]);
        assert_eq!(outputs[0].lines().count(), 40);
    }
    let (other, _, _) = cover(&["generate", "--seed", "12", "--count", "40"], b"");
    let (same, _, _) = cover(&["generate", "--seed", "11", "--count", "40"], b"");
    assert_ne!(other, same);
    // Puzzle i does not depend on how many come before or after it.
    let (three, _, _) = cover(&["generate", "--seed", "11", "--count", "3"], b"");
    assert!(same.starts_with(&three));
}

#[test]
fn text_output_is_one_line_per_puzzle() {
    let (out, err, code) = cover(&["generate", "--seed", "1", "--count", "2"], b"");
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err}");
    for line in out.lines() {
        assert_eq!(line.len(), 81);
        assert!(line.chars().all(|c| c == '.' || ('1'..='9').contains(&c)));
    }
    // Without --seed, the seed used is written to standard error.
    let (_, err, code) = cover(&["generate"], b"");
    assert_eq!(code, 0);
    assert!(err.contains("--seed"), "{err}");
}

#[test]
fn a_clue_target_is_met_or_reported() {
    let records = generate_checked(&["--seed", "5", "--count", "3", "--clues", "35"], 9, false);
    for record in records {
        assert_eq!(
            (record["clues"].as_u64(), &record["target_met"]),
            (Some(35), &Value::Bool(true))
        );
    }
    let (out, err, code) = cover(
        &[
            "generate",
            "--seed",
            "5",
            "--clues",
            "12",
            "--attempts",
            "3",
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("gave up after 3 attempts"), "{err}");
    assert_eq!(out.lines().count(), 1, "the closest puzzle is printed");
}

/// Each named difficulty and a `--rating` range are met, and `cover sudoku
/// --rate` gives each puzzle the rating `generate` printed.
#[test]
fn a_difficulty_target_is_met() {
    let ranges = [
        ("easy", 1.0, 2.3),
        ("medium", 2.4, 3.4),
        ("hard", 3.5, 4.4),
        ("expert", 4.5, 6.4),
        ("extreme", 6.5, 20.0),
    ];
    let mut cases: Vec<(Vec<&str>, f64, f64)> = ranges
        .iter()
        .map(|&(name, lo, hi)| (vec!["--difficulty", name], lo, hi))
        .collect();
    cases.push((vec!["--rating", "3.0..3.4"], 3.0, 3.4));
    for (target, lo, hi) in cases {
        let mut args = vec!["--seed", "8", "--count", "2"];
        args.extend(&target);
        for record in generate_checked(&args, 9, true) {
            assert_eq!(record["target_met"], true, "{target:?}: {record}");
            let rating = record["rating"].as_f64().unwrap();
            assert!(lo <= rating && rating <= hi, "{target:?}: {record}");
            let (rated, _, _) = cover(
                &["sudoku", "--rate"],
                record["puzzle"].as_str().unwrap().as_bytes(),
            );
            let printed: f64 = rated.split_once(' ').unwrap().0.parse().unwrap();
            assert_eq!(printed, rating, "{rated}");
        }
    }
}

#[test]
fn bad_usage_exits_with_2() {
    assert_usage_errors(&[
        "generate --size 10",
        "generate --size 25",
        "generate --count 0",
        "generate --count -1",
        "generate --difficulty impossible",
        "generate --rating 7..6",
        "generate --rating 1.25",
        "generate --rating 3..4 --difficulty hard",
        "generate --attempts 0",
        "generate --clues 82",
        "generate --seed x",
    ]);
}
