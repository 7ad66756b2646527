//! End-to-end tests of `cover sudoku`: the POJ samples byte for byte,
//! tdoku's counts, every solution of `--all` checked by `cover-check`'s
//! checker, which does not trust the solver, both engines against each
//! other, bad input (reported, marked, the rest answered, exit 2), and the
//! flags. Fixtures
//! come from `fixtures/sudoku/`, so the tests need nothing outside the
//! repository.

mod support;

use std::collections::HashSet;
use std::path::PathBuf;

use cover_check::sudoku::{check_grid, line_cells};
use support::{assert_usage_errors, cover, file, help_mentions, json_lines};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/sudoku")
        .join(name);
    path.to_str().unwrap().to_owned()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

/// Checks that `solution` (a line of n⁴ symbols from `symbols`) solves
/// `puzzle` (the same, with `.`, `-`, `_` or `0` for empty cells), by
/// `cover-check`'s checker: rows, columns and boxes are permutations of the
/// symbols, givens are kept.
fn check(puzzle: &str, solution: &str, symbols: &str) {
    let (puzzle, solved) = (line_cells(puzzle), line_cells(solution));
    assert_eq!(
        check_grid(&puzzle, &solved, Some(symbols)),
        Ok(()),
        "{solution}"
    );
}

const NINE: &str = "123456789";

/// tdoku's puzzles and their stated counts.
fn tdoku() -> Vec<(String, u64)> {
    read("tdoku_test_puzzles_with_counts.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split(':');
            let puzzle = fields.next().unwrap().to_owned();
            (puzzle, fields.next().unwrap().parse().unwrap())
        })
        .collect()
}

#[test]
fn poj_samples_byte_for_byte() {
    for name in ["poj3074_sample", "poj3076_sample"] {
        let (out, err, code) = cover(&["sudoku", &fixture(&format!("{name}.in"))], b"");
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, read(&format!("{name}.out")), "{name}");
    }
    // And from standard input, with one thread.
    let input = read("poj3076_sample.in");
    let (out, _, _) = cover(&["sudoku", "--jobs", "1"], input.as_bytes());
    assert_eq!(out, read("poj3076_sample.out"));
}

#[test]
fn tdoku_counts_with_every_engine() {
    let expected: Vec<String> = tdoku().iter().map(|(_, c)| c.to_string()).collect();
    let path = fixture("tdoku_test_puzzles_with_counts.txt");
    // `dlx` is another name of `linked`.
    // `sat` counts by blocking each solution found.
    for engine in ["auto", "bits", "bands", "compact", "linked", "dlx", "sat"] {
        let (out, _, code) = cover(&["sudoku", "--count", "--engine", engine, &path], b"");
        assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{engine}");
        assert_eq!(code, 1, "some puzzles have no solution");
    }
    // `--limit 2` stops counting at 2.
    let (out, _, _) = cover(&["sudoku", "--count", "--limit", "2", &path], b"");
    let capped: Vec<String> = tdoku()
        .iter()
        .map(|(_, c)| (*c).min(2).to_string())
        .collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), capped);
}

#[test]
fn every_solution_of_all_is_valid_and_distinct() {
    let path = fixture("tdoku_test_puzzles_with_counts.txt");
    for engine in ["bits", "bands", "compact", "linked", "sat"] {
        let (out, _, _) = cover(
            &["sudoku", "--all", "--json", "--engine", engine, &path],
            b"",
        );
        let records = json_lines(&out);
        let puzzles = tdoku();
        assert_eq!(records.len(), puzzles.len());
        for (record, (puzzle, count)) in records.iter().zip(&puzzles) {
            let solutions = record["solutions"].as_array().unwrap();
            assert_eq!(solutions.len() as u64, *count, "{puzzle}");
            let mut seen = HashSet::new();
            for solution in solutions {
                let solution = solution.as_str().unwrap();
                check(puzzle, solution, NINE);
                assert!(seen.insert(solution.to_owned()), "repeated: {solution}");
            }
            let status = if *count > 0 { "solved" } else { "no_solution" };
            assert_eq!(record["status"], status);
        }
    }
}

#[test]
fn first_solutions_are_valid() {
    let path = fixture("tdoku_test_puzzles_with_counts.txt");
    for engine in ["auto", "compact", "linked", "sat"] {
        let (out, _, _) = cover(&["sudoku", "--engine", engine, &path], b"");
        assert_eq!(out.lines().count(), tdoku().len(), "{engine}");
        for (line, (puzzle, count)) in out.lines().zip(tdoku()) {
            if count == 0 {
                assert_eq!(line, "no solution", "{engine}");
            } else {
                check(&puzzle, line, NINE);
            }
        }
    }
}

#[test]
fn every_size_from_4_to_36() {
    let cases = [
        ("line_4x4.txt", "1234"),
        ("line_25x25.txt", "ABCDEFGHIJKLMNOPQRSTUVWXY"),
        ("line_36x36.txt", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ];
    for (name, symbols) in cases {
        let (out, _, _) = cover(&["sudoku", &fixture(name)], b"");
        let puzzles: Vec<String> = read(name)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_owned)
            .collect();
        for (line, puzzle) in out.lines().zip(&puzzles) {
            if line != "no solution" {
                check(puzzle, line, symbols);
            }
        }
    }
    // 16×16 in digits and letters, by --symbols.
    let name = fixture("line_16x16_digits.txt");
    let (out, _, code) = cover(&["sudoku", "--symbols", "123456789ABCDEFG", &name], b"");
    assert_eq!(code, 0);
    for (line, puzzle) in out.lines().zip(read("line_16x16_digits.txt").lines()) {
        check(puzzle, line, "123456789ABCDEFG");
    }
    // Without it, the same: the puzzles' characters choose 1-9A-G.
    let (plain, err, code) = cover(&["sudoku", &name], b"");
    assert_eq!((plain, err.as_str(), code), (out, "", 0));
}

const G16: &str = "123456789ABCDEFG";
const F16: &str = "0123456789ABCDEF";

/// The puzzle lines of a fixture.
fn puzzle_lines(name: &str) -> Vec<String> {
    read(name)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// 16×16 puzzles in 1-9A-G, 0-9A-F (`0` a digit) and A-P read without
/// --symbols, each answered in its own set with its givens kept; a `0`
/// that may be a digit or an empty cell is an error naming both
/// --symbols, and --symbols says which.
#[test]
fn sixteen_by_sixteen_symbols_without_the_flag() {
    // 0-9A-F: the third puzzle has no 0 and is answered in the input's set.
    let (out, err, code) = cover(&["sudoku", &fixture("line_16x16_hex.txt")], b"");
    assert_eq!((err.as_str(), code), ("", 0));
    let puzzles = puzzle_lines("line_16x16_hex.txt");
    assert_eq!(out.lines().count(), puzzles.len());
    for (puzzle, line) in puzzles.iter().zip(out.lines()) {
        check(puzzle, line, F16);
        assert!(line.contains('0') && !line.contains('G'), "{line}");
    }
    let (flagged, _, _) = cover(
        &["sudoku", "--symbols", F16, &fixture("line_16x16_hex.txt")],
        b"",
    );
    assert_eq!(flagged, out);
    // The same puzzles, counted: each unique, as the 1-9A-G originals.
    let (counts, _, _) = cover(
        &[
            "sudoku",
            "--count",
            "--limit",
            "2",
            &fixture("line_16x16_hex.txt"),
        ],
        b"",
    );
    assert_eq!(counts, "1\n1\n1\n");
    // Grids in 1-9A-G with `0` empty, as JSON: each solution in 1-9A-G.
    let (out, err, code) = cover(
        &["sudoku", "--json", &fixture("grid_16x16_digits.txt")],
        b"",
    );
    assert_eq!((err.as_str(), code), ("", 0));
    let records = json_lines(&out);
    for (record, puzzle) in records.iter().zip(puzzle_lines("line_16x16_digits.txt")) {
        check(&puzzle, record["solution"].as_str().unwrap(), G16);
    }
    // What no flag can read: a full 0-9A-F grid without `.`, an `H`
    // beside digits; each reported at its line, the good puzzle answered.
    let bad = fixture("bad_16x16_symbols.txt");
    let (out, err, code) = cover(&["sudoku", &bad], b"");
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["invalid", "invalid"]);
    let puzzles = puzzle_lines("bad_16x16_symbols.txt");
    check(&puzzles[2], lines[2], G16);
    let errors: Vec<&str> = err.lines().collect();
    assert_eq!(errors.len(), 2, "{err}");
    assert!(errors[0].contains("bad_16x16_symbols.txt:4: the 16×16 puzzle reads two ways"));
    assert!(errors[0].contains("give --symbols 0123456789ABCDEF (`.` marks empty cells) or --symbols 123456789ABCDEFG (`0` and `.` do)"), "{}", errors[0]);
    assert!(
        errors[1].contains("bad_16x16_symbols.txt:5: unknown symbol \"H\" in cell 256"),
        "{}",
        errors[1]
    );
    // Following the error's advice: with `0` a digit, the full grid is
    // its own solution.
    let full = format!("{}\n", puzzles[0]);
    let (out, err, code) = cover(&["sudoku", "--symbols", F16], full.as_bytes());
    assert_eq!((out.as_str(), err.as_str(), code), (full.as_str(), "", 0));
    // Of one input, a puzzle that fits only one set settles the ambiguous
    // `0` of the next.
    let two = format!("{}\n{}", puzzle_lines("line_16x16_hex.txt")[0], full);
    let (out, err, code) = cover(&["sudoku"], two.as_bytes());
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out.lines().nth(1), Some(puzzles[0].as_str()));
}

#[test]
fn grids_come_back_as_grids() {
    let (out, _, code) = cover(&["sudoku", &fixture("grid_16x16_numbers.txt")], b"");
    assert_eq!(code, 0);
    let first: Vec<&str> = out.split("\n\n").next().unwrap().lines().collect();
    assert_eq!(first.len(), 16);
    assert!(
        first.iter().all(|row| row.split(", ").count() == 16),
        "{first:?}"
    );
    let (out, _, _) = cover(&["sudoku", &fixture("grid_9x9_spaced.txt")], b"");
    let first = out.lines().next().unwrap();
    assert_eq!(first.split(' ').count(), 9, "{first}");
}

/// `text` with a blank line after every `band` rows of each grid but its
/// last band (grids as pasted from forums); other lines kept.
fn with_band_gaps(text: &str, band: usize, side: usize) -> String {
    let mut out = String::new();
    let mut rows: usize = 0;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        let is_row = !line.trim().is_empty() && !line.starts_with('#');
        if is_row {
            rows += 1;
            if rows.is_multiple_of(band) && rows < side {
                out.push('\n');
            }
            rows %= side;
        }
    }
    out
}

#[test]
fn grids_with_blank_lines_between_bands_read_as_without() {
    for (name, band, side) in [
        ("grid_9x9_spaced.txt", 3, 9),
        ("poj3076_sample.in", 4, 16),
        ("grid_16x16_letters.txt", 4, 16),
    ] {
        let plain = read(name);
        let gapped = with_band_gaps(&plain, band, side);
        let rows = plain
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        let grids = rows.count() / side;
        let gaps = grids * (side / band - 1);
        assert_eq!(
            gapped.lines().count(),
            plain.lines().count() + gaps,
            "{name}"
        );
        // (The last grid of the letters file has no solution: exit 1.)
        let (want, _, status) = cover(&["sudoku"], plain.as_bytes());
        assert!(
            want.lines().filter(|l| !l.is_empty()).count() >= side,
            "{name}"
        );
        let (out, err, code) = cover(&["sudoku"], gapped.as_bytes());
        assert_eq!(
            (out.as_str(), err.as_str(), code),
            (want.as_str(), "", status),
            "{name}"
        );
        // Two such grids one after the other, a blank line between.
        let (out, err, code) = cover(&["sudoku"], format!("{gapped}\n{gapped}").as_bytes());
        assert_eq!(out, format!("{want}{want}"), "{name}: {err}");
        assert_eq!(code, status, "{name}");
    }
}

#[test]
fn pretty_grids_read_back() {
    let puzzles = read("tdoku_test_puzzles_with_counts.txt");
    let first_three: String = puzzles
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .map(|l| format!("{}\n", &l[..81]))
        .collect();
    let (pretty, _, _) = cover(&["sudoku", "--pretty"], first_three.as_bytes());
    assert!(
        pretty.starts_with("+-------+-------+-------+\n| "),
        "{pretty}"
    );
    // Solving the drawn solutions again gives the same grids, as grids of
    // space-separated cells (the notation they were read in).
    let (again, _, code) = cover(&["sudoku"], pretty.as_bytes());
    assert_eq!(code, 0);
    let (plain, _, _) = cover(&["sudoku"], first_three.as_bytes());
    let grids: Vec<String> = again
        .split("\n\n")
        .filter(|g| !g.is_empty())
        .map(|g| g.lines().collect::<String>().replace(' ', ""))
        .collect();
    assert_eq!(grids, plain.lines().collect::<Vec<_>>());
}

#[test]
fn bad_lines_are_reported_marked_and_skipped() {
    let path = fixture("bad_lines.txt");
    let (out, err, code) = cover(&["sudoku", &path], b"");
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "one answer per puzzle line:\n{out}");
    assert_eq!(
        lines.iter().map(|l| l.len() == 81).collect::<Vec<_>>(),
        [true, false, false, true, false, false, true]
    );
    assert_eq!(
        [lines[1], lines[2], lines[4], lines[5]],
        ["invalid", "invalid", "no solution", "invalid"]
    );
    let messages: Vec<&str> = err.lines().collect();
    assert_eq!(messages.len(), 3, "{err}");
    assert!(
        messages[0].starts_with(&format!("cover: {path}:3: 80 cells")),
        "{err}"
    );
    assert!(
        messages[1].contains(":4: unknown symbol \"x\" in cell 41"),
        "{err}"
    );
    assert!(messages[2].contains(":7: 85 cells"), "{err}");
    // JSON marks them too, with the error.
    let (out, _, _) = cover(&["sudoku", "--json", &path], b"");
    let records = json_lines(&out);
    assert_eq!(records.len(), 7);
    assert_eq!(records[1]["status"], "invalid");
    assert_eq!(records[1]["line"], 3);
    assert!(records[1]["error"].as_str().unwrap().contains("80 cells"));
    assert_eq!(records[3]["index"], 4);
    assert_eq!(records[4]["status"], "no_solution");
}

#[test]
fn bad_grids_are_reported_and_skipped() {
    let (out, err, code) = cover(&["sudoku", "--count", &fixture("bad_grids.txt")], b"");
    assert_eq!(code, 2);
    assert_eq!(out, "1\ninvalid\n1\ninvalid\n");
    assert!(
        err.contains(":22: row 4 has 15 cells, expected 16"),
        "{err}"
    );
    assert!(
        err.contains(":53: the grid ends after 5 rows, expected 16"),
        "{err}"
    );
}

#[test]
fn contradicting_givens_have_no_solution() {
    let (out, err, code) = cover(&["sudoku"], format!("11{}\n", ".".repeat(79)).as_bytes());
    assert_eq!((out.as_str(), err.as_str(), code), ("no solution\n", "", 1));
}

#[test]
fn crlf_bom_empty_and_junk() {
    let (out, _, code) = cover(&["sudoku", "--count", &fixture("crlf_bom_9x9.txt")], b"");
    assert_eq!((out.as_str(), code), ("1\n1\n", 0));
    let (out, err, code) = cover(&["sudoku"], b"");
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    let (out, err, code) = cover(&["sudoku"], b"# nothing but a comment\n\nend\n...\n");
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    let junk: Vec<u8> = (0..20_000u32)
        .map(|k| (k.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let (_, err, code) = cover(&["sudoku"], &junk);
    assert_eq!(code, 2, "{err}");
    let huge = format!("{}\n", "1".repeat(1_000_000));
    let (out, err, code) = cover(&["sudoku"], huge.as_bytes());
    assert_eq!((out.as_str(), code), ("invalid\n", 2));
    assert!(err.contains("1000000 cells is not a sudoku size"), "{err}");
    let path = file(
        "sudoku_missing_then_good.txt",
        read("poj3074_sample.in").as_bytes(),
    );
    let (out, err, code) = cover(&["sudoku", "/no/such/file", &path], b"");
    assert_eq!((out, code), (read("poj3074_sample.out"), 2));
    assert!(err.contains("/no/such/file"), "{err}");
}

#[test]
fn all_without_limit_streams_every_solution() {
    let (out, _, code) = cover(
        &["sudoku", "--all"],
        format!("{}\n", ".".repeat(16)).as_bytes(),
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 289, "288 solutions and a blank line");
    let distinct: HashSet<&str> = lines[..288].iter().copied().collect();
    assert_eq!(distinct.len(), 288);
    for line in &lines[..288] {
        check(&".".repeat(16), line, "1234");
    }
    // --limit alone lists that many.
    let (out, _, _) = cover(
        &["sudoku", "--limit", "5"],
        format!("{}\n", ".".repeat(16)).as_bytes(),
    );
    assert_eq!(out.lines().count(), 6);
}

#[test]
fn many_puzzles_in_chunks_keep_their_order() {
    // More than two chunks of 4×4 puzzles: unique, several solutions, none.
    let puzzles = [
        ("32.1.1322.13.324", 1),
        ("...1...........4", 2),
        ("11..............", 0),
    ];
    let mut input = String::new();
    let mut expected = String::new();
    for k in 0..9000 {
        let (puzzle, count) = puzzles[k * 7 % 3];
        input.push_str(puzzle);
        input.push('\n');
        expected.push_str(&format!("{count}\n"));
    }
    for jobs in ["1", "2"] {
        let (out, _, _) = cover(
            &["sudoku", "--count", "--limit", "2", "--jobs", jobs],
            input.as_bytes(),
        );
        assert_eq!(out, expected, "--jobs {jobs}");
    }
}

#[test]
fn json_records_and_stats() {
    let input = read("poj3074_sample.in");
    let (out, err, code) = cover(&["sudoku", "--json", "--stats"], input.as_bytes());
    assert_eq!(code, 0);
    let records = json_lines(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["index"], 1);
    assert_eq!(records[1]["line"], 2);
    assert_eq!(records[0]["size"], 9);
    assert_eq!(records[0]["status"], "solved");
    assert!(records[0]["nodes"].as_u64().unwrap() > 0);
    let expected = read("poj3074_sample.out");
    assert_eq!(records[0]["solution"], expected.lines().next().unwrap());
    assert!(records[0].get("count").is_none());
    assert!(err.contains("instances:     2"), "{err}");
    let (out, _, _) = cover(&["sudoku", "--json", "--count"], input.as_bytes());
    let records = json_lines(&out);
    assert_eq!(records[0]["count"], 1);
    assert_eq!(records[0]["complete"], true);
}

#[test]
fn max_nodes_gives_up_in_place_and_exits_1() {
    // For each engine a puzzle that needs more than 20 of its nodes (the
    // bits engine solves the first by reasoning alone).
    for (engine, hard) in [
        (
            "compact",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ),
        (
            "bits",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ),
    ] {
        let (out, _, _) = cover(&["sudoku", "--engine", engine, "--json"], hard.as_bytes());
        let record = &json_lines(&out)[0];
        let needed = record["nodes"].as_u64().unwrap();
        let solution = record["solution"].as_str().unwrap().to_owned();
        assert!(needed > 20, "{engine}: {needed} nodes");
        // One empty cell: a search of two nodes (compact), or one (bits:
        // no guess).
        let easy = format!(".{}", &solution[1..]);
        let clash = format!("11{}", &hard[2..]);
        let input = format!("{hard}\n{easy}\n{clash}\n");
        for jobs in ["1", "3"] {
            let (out, err, code) = cover(
                &[
                    "sudoku",
                    "--engine",
                    engine,
                    "--max-nodes",
                    "20",
                    "--stats",
                    "--jobs",
                    jobs,
                ],
                input.as_bytes(),
            );
            assert_eq!(
                out,
                format!("gave up\n{solution}\nno solution\n"),
                "{engine} --jobs {jobs}"
            );
            assert_eq!(code, 1, "{engine} --jobs {jobs}");
            assert!(
                err.contains("(2 answered: 1 solved, 1 without solution; 1 given up; 0 invalid)"),
                "{err}"
            );
            let (out, _, _) = cover(
                &[
                    "sudoku",
                    "--engine",
                    engine,
                    "--max-nodes",
                    "20",
                    "--count",
                    "--jobs",
                    jobs,
                ],
                input.as_bytes(),
            );
            // The count so far, as the JSON record's count says.
            let (json, _, _) = cover(
                &[
                    "sudoku",
                    "--engine",
                    engine,
                    "--max-nodes",
                    "20",
                    "--count",
                    "--json",
                    "--jobs",
                    jobs,
                ],
                input.as_bytes(),
            );
            let found = &json_lines(&json)[0]["count"];
            let s = if found == 1 { "" } else { "s" };
            let want = format!("gave up after {found} solution{s}\n1\n0\n");
            assert_eq!(out, want, "{engine} --jobs {jobs}");
        }
        let (out, _, _) = cover(
            &["sudoku", "--engine", engine, "--max-nodes", "20", "--json"],
            input.as_bytes(),
        );
        let records = json_lines(&out);
        let statuses: Vec<&str> = records
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["gave_up", "solved", "no_solution"]);
        assert_eq!(records[0]["nodes"], 20);
        assert!(records[0].get("solution").is_none());
        // A bound the search does not reach changes nothing.
        let bound = needed.to_string();
        let (out, _, code) = cover(
            &["sudoku", "--engine", engine, "--max-nodes", &bound],
            hard.as_bytes(),
        );
        assert_eq!((out, code), (format!("{solution}\n"), 0));
    }
    // --all: the solutions found by then, then `gave up`, then the blank
    // line that ends the puzzle's answer; each solution checked.
    let empty = ".".repeat(16);
    let (out, _, code) = cover(&["sudoku", "--all", "--max-nodes", "40"], empty.as_bytes());
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 3, "{out}");
    assert_eq!(&lines[lines.len() - 2..], ["gave up", ""]);
    let found = &lines[..lines.len() - 2];
    assert_eq!(found.iter().collect::<HashSet<_>>().len(), found.len());
    for solution in found {
        check(&empty, solution, "1234");
    }
}

#[test]
fn usage_errors() {
    assert_usage_errors(&[
        "sudoku --symbols 12345678",
        "sudoku --symbols 1123",
        "sudoku --count --all",
        "sudoku --pretty --count",
        "sudoku --limit 0",
        "sudoku --max-nodes 0",
        "sudoku --engine quantum",
        "sudoku --engine bits --propagate full",
        "sudoku --engine bands --propagate basic",
    ]);
    help_mentions(
        &["sudoku", "--help"],
        &[
            "invalid",
            "no solution",
            "--symbols",
            "POJ 3076",
            "--engine",
            "--max-nodes",
            "gave up",
        ],
    );
}

#[test]
fn rate_grades_unique_puzzles_and_says_when_not() {
    // A proper puzzle (checked here with --count), an empty grid (many
    // solutions) and clashing givens (none).
    let proper =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let (out, _, _) = cover(&["sudoku", "--count", "--limit", "2"], proper.as_bytes());
    assert_eq!(out.trim(), "1");
    let empty = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    let input = format!("{proper}\n{empty}\n{clash}\n");
    let (out, _, code) = cover(&["sudoku", "--rate"], input.as_bytes());
    assert_eq!(code, 1, "a puzzle without solution makes exit status 1");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // `RATING TECHNIQUE` on Sudoku Explainer's scale.
    let (rating, technique) = lines[0].split_once(' ').unwrap();
    let rating: f64 = rating.parse().unwrap();
    assert!((1.0..=12.0).contains(&rating), "{out}");
    assert!(!technique.is_empty());
    assert_eq!(lines[1], "not unique", "{out}");
    assert_eq!(lines[2], "no solution");

    let (out, _, _) = cover(&["sudoku", "--rate", "--json"], input.as_bytes());
    let records = json_lines(&out);
    assert_eq!(records[0]["rating"].as_f64(), Some(rating));
    assert_eq!(records[0]["hardest"], technique);
    assert_eq!(records[0]["unique"], true);
    let counts = records[0]["techniques"].as_object().unwrap();
    assert!(counts.contains_key(technique), "{counts:?}");
    assert!(counts.values().all(|n| n.as_u64().unwrap() > 0));
    assert!(records[0]["difficulty"].is_string());
    assert_eq!(records[1]["unique"], false);
    assert!(records[1].get("rating").is_none());
    assert_eq!(records[2]["status"], "no_solution");

    let (_, _, code) = cover(&["sudoku", "--rate", "--count"], b"");
    assert_eq!(code, 2, "--rate and --count are exclusive");
}

/// Every `--propagate` level prints the same solutions as the plain
/// search on puzzles with one solution, and the same counts on the rest;
/// `--stats` says how many options reasoning removed.
#[test]
fn every_propagation_level_gives_the_same_answers() {
    let input = fixture("tdoku_test_puzzles_with_counts.txt");
    let (plain, _, plain_code) = cover(&["sudoku", "--propagate", "none", &input], b"");
    let (plain_counts, _, _) = cover(&["sudoku", "--propagate", "none", "--count", &input], b"");
    for level in ["basic", "full", "auto"] {
        let (out, _, code) = cover(&["sudoku", "--propagate", level, &input], b"");
        assert_eq!(code, plain_code, "{level}");
        let (counts, _, _) = cover(&["sudoku", "--propagate", level, "--count", &input], b"");
        assert_eq!(counts, plain_counts, "{level}");
        for ((line, count), (got, want)) in tdoku().iter().zip(out.lines().zip(plain.lines())) {
            match count {
                0 => assert_eq!(got, "no solution"),
                1 => assert_eq!(got, want, "{level}: {line}"),
                _ => check(&line[..81], got, NINE),
            }
        }
    }
    let hard = fixture("line_16x16_hard.txt");
    let symbols = "123456789ABCDEFG";
    let (out, err, code) = cover(
        &[
            "sudoku",
            "--symbols",
            symbols,
            "--propagate",
            "full",
            "--stats",
            &hard,
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("propagated:"), "{err}");
    let puzzles: Vec<String> = read("line_16x16_hard.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    for (puzzle, solution) in puzzles.iter().zip(out.lines()) {
        check(puzzle, solution, symbols);
    }
    let (_, err, _) = cover(
        &[
            "sudoku",
            "--propagate",
            "none",
            "--stats",
            &hard,
            "--symbols",
            symbols,
        ],
        b"",
    );
    assert!(!err.contains("propagated:"), "{err}");
}

/// The placements (`rRcC = D`) and eliminations (`rRcC ≠ D`) a step line
/// of `--explain` ends with, after its last `: `.
fn step_results(line: &str) -> Vec<(usize, char, bool)> {
    let (_, results) = line.rsplit_once(": ").expect(line);
    results
        .split(", ")
        .map(|result| {
            let (cell, placed, digit) = match result.split_once(" = ") {
                Some((cell, digit)) => (cell, true, digit),
                None => {
                    let (cell, digit) = result.split_once(" ≠ ").expect(line);
                    (cell, false, digit)
                }
            };
            let (r, c) = cell[1..].split_once('c').expect(line);
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            (9 * (r - 1) + c - 1, digit.chars().next().unwrap(), placed)
        })
        .collect()
}

/// `--explain`: each step of a logical solution on a line, its rating
/// first, ending in the solution the solver finds; every placement and
/// elimination agrees with it. A puzzle with several solutions or none
/// says so.
#[test]
fn explain_prints_the_logical_steps() {
    // A classic, and one of the forum's hardest (forcing chains).
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    for puzzle in [easy, hard] {
        let (out, err, code) = cover(&["sudoku", "--explain"], format!("{puzzle}\n").as_bytes());
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let last = lines.iter().rposition(|l| !l.is_empty()).unwrap();
        let solution = lines[last].strip_prefix("solved: ").expect(lines[last]);
        check(puzzle, solution, NINE);
        let solution: Vec<char> = solution.chars().collect();
        let mut placed = 0;
        for line in &lines[..last] {
            let (rating, _) = line.split_once(' ').unwrap();
            assert!(rating.parse::<f64>().unwrap() >= 1.0, "{line}");
            for (cell, digit, is_placement) in step_results(line) {
                assert_eq!(solution[cell] == digit, is_placement, "{line}");
                placed += usize::from(is_placement);
            }
        }
        assert_eq!(
            placed,
            puzzle.matches('.').count(),
            "one placement per empty cell"
        );
        // JSON: the same steps, the solution, the rating of the hardest.
        let (out, _, _) = cover(&["sudoku", "--explain", "--json"], puzzle.as_bytes());
        let records = json_lines(&out);
        assert_eq!(records[0]["status"], "solved");
        assert_eq!(records[0]["steps"].as_array().unwrap().len(), last);
        assert!(records[0]["rating"].as_f64().unwrap() >= 1.0);
    }

    // The empty grid has many solutions; clashing givens none (exit 1).
    let (out, _, code) = cover(&["sudoku", "--explain"], ".".repeat(81).as_bytes());
    assert_eq!((out.as_str(), code), ("not unique\n\n", 0));
    let clash = format!("11{}\n", ".".repeat(79));
    let (out, _, code) = cover(&["sudoku", "--explain"], clash.as_bytes());
    assert_eq!((out.as_str(), code), ("no solution\n\n", 1));
}

/// Every --explain answer is a block ending in a blank line, an unreadable
/// puzzle's `invalid` too, so that answers split at blank lines stay
/// aligned with puzzles; the help says the format.
#[test]
fn explain_answers_are_blocks_as_the_help_says() {
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let input = format!("{easy}\n12\n{}\n", ".".repeat(81));
    let (out, _, code) = cover(&["sudoku", "--explain"], input.as_bytes());
    assert_eq!(code, 2);
    let blocks: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(blocks.len(), 3, "{out}");
    assert!(blocks[0].lines().last().unwrap().starts_with("solved: "));
    assert_eq!(&blocks[1..], ["invalid", "not unique"]);
    assert!(out.ends_with("\n\n"));
    help_mentions(
        &["sudoku", "--help"],
        &[
            "RATING TECHNIQUE on DIGITS in UNITS (CELLS): RESULTS",
            "`rRcC = D` (placed) or `rRcC ≠ D`",
            "stuck: no technique applies",
            "docs/explain.md",
        ],
    );
}

/// The example of docs/explain.md is what the binary prints: each of its
/// output lines is a line of the answer, in order.
#[test]
fn the_explain_doc_example_is_what_the_binary_prints() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/explain.md"
    ))
    .unwrap();
    let puzzle =
        "250000907008079002300002040029030000030265090000090320070800009100920600902000084";
    let example = doc
        .split("```text")
        .nth(2)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert!(example.contains(puzzle), "{example}");
    let (explained, _, _) = cover(&["sudoku", "--explain"], format!("{puzzle}\n").as_bytes());
    let (rated, _, _) = cover(&["sudoku", "--rate"], format!("{puzzle}\n").as_bytes());
    let printed = format!("{explained}{rated}");
    let mut lines = printed.lines();
    for shown in example.lines().map(str::trim_end) {
        if shown.is_empty() || shown == "…" || shown.starts_with("$ ") || shown.starts_with("    |")
        {
            continue;
        }
        assert!(
            lines.any(|line| line == shown),
            "{shown:?} is not printed: {printed}"
        );
    }
}

/// A 25×25 puzzle of Gecode's examples (a minimal one with more givens): by default (full
/// propagation from 16×16 on) it is solved, and the solution checks; the
/// plain search (`compact`: `auto` would turn to conflict learning) gives
/// up on it within a budget many times larger than the propagated search
/// needs.
#[test]
fn propagation_solves_a_minimal_25x25_puzzle() {
    let input = fixture("line_25x25_gecode.txt");
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    let puzzle = read("line_25x25_gecode.txt")
        .lines()
        .nth(1)
        .unwrap()
        .to_owned();
    let (out, err, code) = cover(&["sudoku", "--symbols", symbols, "--json", &input], b"");
    assert_eq!(code, 0, "{err}");
    let record = &json_lines(&out)[0];
    check(&puzzle, record["solution"].as_str().unwrap(), symbols);
    let nodes = record["nodes"].as_u64().unwrap();
    let budget = (4 * nodes).to_string();
    let (out, _, code) = cover(
        &[
            "sudoku",
            "--symbols",
            symbols,
            "--engine",
            "compact",
            "--propagate",
            "none",
            "--max-nodes",
            &budget,
            &input,
        ],
        b"",
    );
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
}

#[test]
fn conflict_learning_solves_hard_large_puzzles_and_keeps_its_limits() {
    // A Gecode 25×25 and the hard 16×16 puzzles, by CaDiCaL.
    for (name, symbols) in [
        ("line_25x25_gecode.txt", "123456789ABCDEFGHIJKLMNOP"),
        ("line_16x16_hard.txt", "123456789ABCDEFG"),
    ] {
        let (out, err, code) = cover(&["sudoku", "--engine", "sat", &fixture(name)], b"");
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        let puzzles: Vec<String> = read(name)
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_owned)
            .collect();
        assert_eq!(out.lines().count(), puzzles.len(), "{name}");
        for (line, puzzle) in out.lines().zip(&puzzles) {
            check(puzzle, line, symbols);
        }
    }
    // One conflict is too few for the 25×25: it gives up (exit 1, as the
    // search engines past --max-nodes), and --stats counts the clauses
    // learnt (no search node).
    let name = fixture("line_25x25_gecode.txt");
    let (out, err, code) = cover(
        &[
            "sudoku",
            "--engine",
            "sat",
            "--max-nodes",
            "1",
            "--stats",
            &name,
        ],
        b"",
    );
    assert_eq!(out.trim(), "gave up", "{err}");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("search nodes:  0\n"), "{err}");
    assert!(
        err.contains("clauses from conflicts, on 1 of the instances"),
        "{err}"
    );
}

/// `--engine auto` (the default) answers a puzzle its search finds nothing
/// of within 10,000 nodes by conflict learning (the JSON record and
/// `--stats` say so), in every mode, and one the search answers soon by
/// search alone.
#[cfg(feature = "sat")]
#[test]
fn auto_turns_to_conflict_learning_when_search_finds_nothing_soon() {
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    let hard = fixture("line_25x25_gecode_hard.txt");
    let puzzle = read("line_25x25_gecode_hard.txt")
        .lines()
        .nth(1)
        .unwrap()
        .to_owned();
    let (out, err, code) = cover(
        &["sudoku", "--symbols", symbols, "--json", "--stats", &hard],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let record = &json_lines(&out)[0];
    check(&puzzle, record["solution"].as_str().unwrap(), symbols);
    assert_eq!(record["nodes"].as_u64(), Some(10_000), "{record}");
    assert!(record["learnt"].as_u64().is_some(), "{record}");
    assert!(
        err.contains("learnt: ") && err.contains("on 1 of the instances"),
        "{err}"
    );
    // Counting by blocking: one solution, proved the only one.
    let (out, err, code) = cover(&["sudoku", "--symbols", symbols, "--count", &hard], b"");
    assert_eq!((out.as_str(), code), ("1\n", 0), "{err}");
    let (out, _, code) = cover(
        &["sudoku", "--symbols", symbols, "--all", "--json", &hard],
        b"",
    );
    assert_eq!(code, 0);
    let record = &json_lines(&out)[0];
    assert_eq!(
        record["solutions"].as_array().map(Vec::len),
        Some(1),
        "{record}"
    );
    assert_eq!(record["complete"], true, "{record}");
    assert!(record["learnt"].as_u64().is_some(), "{record}");
    // A puzzle the search solves in a few thousand nodes: no learning.
    let searched = fixture("line_25x25_gecode.txt");
    let (out, err, code) = cover(
        &[
            "sudoku",
            "--symbols",
            symbols,
            "--json",
            "--stats",
            &searched,
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(json_lines(&out)[0].get("learnt").is_none(), "{out}");
    assert!(!err.contains("learnt"), "{err}");
    // A named search engine never learns: it gives up at --max-nodes.
    let (out, _, code) = cover(
        &[
            "sudoku",
            "--symbols",
            symbols,
            "--engine",
            "compact",
            "--max-nodes",
            "20000",
            &hard,
        ],
        b"",
    );
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
}

/// `--cnf` writes each puzzle's CNF: solved by CaDiCaL here (read from
/// the text, not through the engine), its one model maps through the
/// comments to the puzzle's solution, and blocking that model leaves
/// none. A variant gets a comment in place of a CNF, a warning, exit 1.
#[cfg(feature = "sat")]
#[test]
fn cnf_is_the_puzzle_for_any_solver() {
    let puzzles = [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    ];
    let input = format!("{}\n{}\n", puzzles[0], puzzles[1]);
    let (out, err, code) = cover(&["sudoku", "--cnf", "-"], input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    let cnfs: Vec<&str> = out.split("c puzzle ").filter(|c| !c.is_empty()).collect();
    assert_eq!(cnfs.len(), 2, "{out}");
    for (k, (cnf, puzzle)) in cnfs.iter().zip(puzzles).enumerate() {
        assert!(
            cnf.starts_with(&format!("{} <stdin>:{}\n", k + 1, k + 1)),
            "{cnf}"
        );
        let mut labels = std::collections::HashMap::new();
        let mut grid: Vec<char> = puzzle.chars().collect();
        let (mut header, mut clauses) = (None, Vec::new());
        for line in cnf.lines().skip(1) {
            if let Some(option) = line.strip_prefix("c option ") {
                let (variable, label) = option.split_once(' ').unwrap();
                labels.insert(variable.parse::<i32>().unwrap(), label.to_owned());
            } else if let Some(given) = line.strip_prefix("c given ") {
                let cell = label_cell(given);
                assert_eq!(grid[cell.0], cell.1, "{given}: a given of the puzzle");
            } else if let Some(p) = line.strip_prefix("p cnf ") {
                let numbers: Vec<usize> = p.split(' ').map(|n| n.parse().unwrap()).collect();
                header = Some((numbers[0], numbers[1]));
            } else if !line.starts_with('c') {
                let literals: Vec<i32> = line.split(' ').map(|l| l.parse().unwrap()).collect();
                assert_eq!(literals.last(), Some(&0), "{line}");
                clauses.push(literals[..literals.len() - 1].to_vec());
            }
        }
        let (variables, count) = header.expect("a p cnf line");
        assert_eq!(count, clauses.len());
        assert!(clauses
            .iter()
            .flatten()
            .all(|l| l.unsigned_abs() as usize <= variables));
        let mut solver: cadical::Solver = cadical::Solver::new();
        for clause in &clauses {
            solver.add_clause(clause.iter().copied());
        }
        assert_eq!(solver.solve(), Some(true));
        let mut model = Vec::new();
        for (&variable, label) in &labels {
            if solver.value(variable) == Some(true) {
                let (cell, digit) = label_cell(label);
                assert_eq!(grid[cell], '.', "{label}: one digit a cell");
                grid[cell] = digit;
                model.push(-variable);
            }
        }
        let solution: String = grid.iter().collect();
        check(puzzle, &solution, NINE);
        solver.add_clause(model);
        assert_eq!(solver.solve(), Some(false), "the puzzle has one solution");
    }
    let (out, err, code) = cover(&["sudoku", "--cnf", "-"], b"1............... latin\n");
    assert_eq!(out, "c puzzle 1 <stdin>:1\nc no CNF: --cnf writes classic puzzles only: a variant's cages and lines are not exact cover\n");
    assert!(
        err.contains("<stdin>:1: warning: --cnf writes classic puzzles only"),
        "{err}"
    );
    assert_eq!(code, 1);
}

/// The cell (row-major) and digit of a `--cnf` label `rRcC=D`.
#[cfg(feature = "sat")]
fn label_cell(label: &str) -> (usize, char) {
    let (cell, digit) = label.split_once('=').unwrap();
    let (r, c) = cell[1..].split_once('c').unwrap();
    let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
    ((r - 1) * 9 + c - 1, digit.chars().next().unwrap())
}

/// A puzzle given as an argument, where no file has that name, is solved
/// as if it were a line of input (`<argument>` in messages and JSON);
/// other names stay files (a file of that name wins: a unit test of
/// `Input::or_text`).
#[test]
fn a_puzzle_as_an_argument() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let (out, err, code) = cover(&["sudoku", puzzle], b"");
    assert_eq!((code, err.as_str()), (0, ""));
    check(puzzle, out.trim_end(), NINE);
    let (out, _, _) = cover(&["sudoku", "--json", puzzle, puzzle], b"");
    let records = json_lines(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["file"], "<argument>");
    // A bad one is an error at its place, as in a file.
    let bad = format!("{}x", &puzzle[..80]);
    let (out, err, code) = cover(&["sudoku", &bad, puzzle], b"");
    assert_eq!(code, 2);
    assert_eq!(out.lines().next(), Some("invalid"), "{out}");
    assert!(err.starts_with("cover: <argument>:1: "), "{err}");
    // Not a puzzle's length: a missing file, as before.
    let (out, err, code) = cover(&["sudoku", "12345"], b"");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("12345"), "{err}");
}

/// A long input of line puzzles is cut into blocks and parsed on threads
/// of their own from 8 threads on: what it prints, puzzles and errors in
/// place, is what one thread prints. The input mixes what the reader must
/// carry across blocks (the 16×16 symbol set that settles, line numbers)
/// and what only one reader may read (a JSON document over three lines).
#[test]
fn many_threads_read_in_blocks_as_one_thread_does() {
    // Easy puzzles (a third of each tdoku solution blanked), so that the
    // reading is a large part of the work.
    let tdoku = read("tdoku_test_puzzles_with_counts.txt");
    let nine: Vec<String> = tdoku
        .lines()
        .filter_map(|line| line.split(':').nth(2))
        .filter(|solution| solution.len() == 81)
        .map(|solution| {
            let blank = |(k, c)| if k % 3 == 0 { '.' } else { c };
            solution.chars().enumerate().map(blank).collect()
        })
        .collect();
    let first_of = |name| {
        let text = read(name);
        text.lines().find(|l| l.len() >= 256).unwrap()[..256].to_owned()
    };
    let (sixteen, hex) = (
        first_of("line_16x16_digits.txt"),
        first_of("line_16x16_hex.txt"),
    );
    let json =
        "{\"size\":4,\n\"grid\":[[{},{},{},{}],[{},{},{},{}],\n[{},{},{},{}],[{},{},{},{}]]}";
    let mut input = String::new();
    for k in 0..2500 {
        match k % 500 {
            7 => input.push_str("not a puzzle\n"),
            123 => input.push_str("# a comment\n\n"),
            250 => input.push_str(&format!("{sixteen}\n")),
            300 => input.push_str(&format!("{hex}\n")),
            499 if k == 1499 => input.push_str(&format!("{json}\n")),
            _ => input.push_str(&format!("{}\n", nine[k % nine.len()])),
        }
    }
    let path = file("many_threads.txt", input.as_bytes());
    let one = cover(&["sudoku", "--jobs", "1", &path], b"");
    let many = cover(&["sudoku", "--jobs", "8", &path], b"");
    // One answer per line but the comments.
    assert_eq!(one.0.lines().count(), 2495);
    assert_eq!(one.2, 2, "the bad lines make it exit 2");
    assert!(one.1.contains(":8: "), "{}", one.1);
    assert_eq!(one, many);
}
