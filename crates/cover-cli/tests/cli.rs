//! End-to-end tests of the `cover` binary: each runs it with arguments and
//! standard input, and checks standard output, standard error and the exit
//! status. Printed solutions are checked by `cover-check`'s checkers, which
//! do not trust the solver, not only compared as strings.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;

use cover_check::exact::{check_cover, check_matrix_text, read_knuth, read_matrices};
use support::{
    assert_contains_all, assert_usage_errors, cover, exit_2, file, help_mentions, json_lines,
};

// ---------------------------------------------------------------------------
// Independent checkers.

/// Asserts that `answer` (1-based row numbers, ascending, spaces between)
/// is an exact cover of the matrix `text`, by `cover-check`'s checker.
fn check_matrix_answer(text: &str, answer: &str) {
    let covers = read_matrices(text).expect("a well-formed matrix");
    assert_eq!(
        check_matrix_text(&covers[..1], &[1], answer),
        Ok(()),
        "{answer}"
    );
}

/// Asserts that `solution` (one option per line, item names) is an exact
/// cover of the Knuth-format problem `text`, by `cover-check`'s checker.
fn check_knuth_solution(text: &str, solution: &[&str]) {
    let cover = read_knuth(text).expect("a well-formed problem");
    let options: Vec<usize> = solution
        .iter()
        .map(|line| cover.option_named(line).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(check_cover(&cover, &options), Ok(()), "{solution:?}");
}

/// The solutions of Knuth-format text output: blocks ended by blank lines.
fn knuth_blocks(stdout: &str) -> Vec<Vec<&str>> {
    let mut blocks = vec![Vec::new()];
    for line in stdout.lines() {
        if line.is_empty() {
            blocks.push(Vec::new());
        } else {
            blocks.last_mut().unwrap().push(line);
        }
    }
    assert!(
        blocks.pop().unwrap().is_empty(),
        "output ends in a blank line"
    );
    blocks
}

// ---------------------------------------------------------------------------
// Inputs.

const IDENTITY: &str = "3 3\n1 0 0\n0 1 0\n0 0 1\n";

/// Knuth's example (TAOCP 7.2.2.1): the unique answer is rows 1, 4, 5.
const KNUTH_MATRIX: &str = "6 7
0 0 1 0 1 1 0
1 0 0 1 0 0 1
0 1 1 0 0 1 0
1 0 0 1 0 0 0
0 1 0 0 0 0 1
0 0 0 1 1 0 1
";

/// The same problem in Knuth's format.
const KNUTH_TEXT: &str = "| Knuth's example
a b c d e f g
c e f
a d g
b c f
a d
b g
d e g
";

/// Two solutions: rows 1 and 2, or row 3.
const TWO_WAYS: &str = "3 2\n1 0\n0 1\n1 1\n";

/// Any two rows overlap and no row alone covers every column.
const NO_SOLUTION: &str = "3 3\n1 1 0\n0 1 1\n1 0 1\n";

/// Langford pairs for n = 3 (two solutions), with a secondary item.
const LANGFORD3: &str = "v1 v2 v3 s0 s1 s2 s3 s4 | s5
v1 s0 s2
v1 s1 s3
v1 s2 s4
v1 s3 s5
v2 s0 s3
v2 s1 s4
v2 s2 s5
v3 s0 s4
v3 s1 s5
";

// ---------------------------------------------------------------------------
// Matrices.

#[test]
fn identity_matrix() {
    let (out, err, code) = cover(&["exact"], IDENTITY.as_bytes());
    assert_eq!((out.as_str(), err.as_str(), code), ("1 2 3\n", "", 0));
}

#[test]
fn knuths_matrix_has_rows_1_4_5() {
    let (out, _, code) = cover(&["exact"], KNUTH_MATRIX.as_bytes());
    assert_eq!(code, 0);
    check_matrix_answer(KNUTH_MATRIX, out.trim_end());
    assert_eq!(out, "1 4 5\n");
}

#[test]
fn matrix_without_solution() {
    let (out, err, code) = cover(&["exact"], NO_SOLUTION.as_bytes());
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        ("No Solution!\n", "", 1)
    );
    // Solved and unsolved together: still 1.
    let both = format!("{IDENTITY}{NO_SOLUTION}{TWO_WAYS}");
    let (out, _, code) = cover(&["exact"], both.as_bytes());
    assert_eq!((out.as_str(), code), ("1 2 3\nNo Solution!\n1 2\n", 1));
}

#[test]
fn several_files_and_stdin_in_order() {
    let a = file("order_a.txt", IDENTITY.as_bytes());
    let b = file("order_b.txt", KNUTH_MATRIX.as_bytes());
    let (out, _, code) = cover(&["exact", &a, "-", &b], TWO_WAYS.as_bytes());
    assert_eq!((out.as_str(), code), ("1 2 3\n1 2\n1 4 5\n", 0));
}

#[test]
fn count() {
    for (input, answer) in [
        (TWO_WAYS, ("2\n", 0)),
        (NO_SOLUTION, ("0\n", 1)),
        (LANGFORD3, ("2\n", 0)),
    ] {
        let (out, _, code) = cover(&["exact", "--count"], input.as_bytes());
        assert_eq!((out.as_str(), code), answer, "{input}");
    }
}

#[test]
fn all_matrix_solutions() {
    let (out, _, code) = cover(&["exact", "--all"], TWO_WAYS.as_bytes());
    assert_eq!(code, 0);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers, ["1 2", "3"]);
    for answer in answers {
        check_matrix_answer(TWO_WAYS, answer);
    }
    let (out, _, code) = cover(&["exact", "--all"], NO_SOLUTION.as_bytes());
    assert_eq!((out.as_str(), code), ("No Solution!\n", 1));
}

#[test]
fn all_knuth_solutions() {
    let (out, _, code) = cover(&["exact", "--all"], LANGFORD3.as_bytes());
    assert_eq!(code, 0);
    let blocks = knuth_blocks(&out);
    assert_eq!(blocks.len(), 2);
    for block in &blocks {
        check_knuth_solution(LANGFORD3, block);
    }
    assert_ne!(blocks[0], blocks[1]);
}

#[test]
fn limit() {
    for args in [
        &["exact", "--all", "--limit", "1"][..],
        &["exact", "--limit", "1"],
    ] {
        let (out, _, code) = cover(args, TWO_WAYS.as_bytes());
        assert_eq!((out.as_str(), code), ("1 2\n", 0), "{args:?}");
    }
    let (out, _, _) = cover(&["exact", "--limit", "5"], TWO_WAYS.as_bytes());
    assert_eq!(out, "1 2\n3\n");
    let (out, _, code) = cover(&["exact", "--count", "--limit", "1"], TWO_WAYS.as_bytes());
    assert_eq!((out.as_str(), code), ("1\n", 0));
    let (out, _, _) = cover(&["exact", "--count", "--limit", "9"], TWO_WAYS.as_bytes());
    assert_eq!(out, "2\n");
    let (out, _, _) = cover(&["exact", "--limit", "1"], LANGFORD3.as_bytes());
    assert_eq!(knuth_blocks(&out).len(), 1);
}

#[test]
fn empty_columns_and_rows() {
    // A column no row covers: no solution. No columns: the empty answer.
    let (out, _, code) = cover(&["exact"], b"2 3\n1 1 0\n0 0 0\n");
    assert_eq!((out.as_str(), code), ("No Solution!\n", 1));
    let (out, _, code) = cover(&["exact"], b"0 0\n");
    assert_eq!((out.as_str(), code), ("\n", 0));
}

// ---------------------------------------------------------------------------
// Knuth's format.

#[test]
fn knuth_from_stdin() {
    let (out, err, code) = cover(&["exact"], KNUTH_TEXT.as_bytes());
    assert_eq!((err.as_str(), code), ("", 0));
    let blocks = knuth_blocks(&out);
    assert_eq!(blocks.len(), 1);
    check_knuth_solution(KNUTH_TEXT, &blocks[0]);
    // In the order the search chose them: a (2 options) first, then e.
    assert_eq!(out, "a d\nc e f\nb g\n\n");
}

#[test]
fn knuth_without_solution() {
    let (out, _, code) = cover(&["exact"], b"a b c\na b\nb c\n");
    assert_eq!((out.as_str(), code), ("no solution\n\n", 1));
}

#[test]
fn forced_format() {
    // `1 2` looks like a matrix header; forced, it names two items.
    let (out, _, code) = cover(&["exact", "--format", "knuth"], b"1 2\n1\n2\n");
    assert_eq!((out.as_str(), code), ("1\n2\n\n", 0));
    let err = exit_2(&["exact", "--format", "matrix"], KNUTH_TEXT.as_bytes());
    assert!(err.contains("<stdin>:1: expected a header"), "{err}");
}

// ---------------------------------------------------------------------------
// JSON.

#[test]
fn json_records() {
    let input = format!("{KNUTH_MATRIX}\n{NO_SOLUTION}\n2 2\n1 2\n0 1\n\n{TWO_WAYS}");
    let path = file("json.txt", input.as_bytes());
    let (out, err, code) = cover(&["exact", "--json", &path], b"");
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{path}:15:")), "{err}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 4);
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record["index"], k + 1);
        assert_eq!(record["file"], path.as_str());
    }
    let solved = &records[0];
    assert_eq!(solved["status"], "solved");
    assert_eq!(solved["format"], "matrix");
    assert_eq!(solved["line"], 1);
    assert_eq!(solved["solutions"], serde_json::json!([[1, 4, 5]]));
    assert!(solved["nodes"].as_u64().unwrap() > 0);
    assert!(solved["updates"].as_u64().unwrap() > 0);
    let none = &records[1];
    assert_eq!(none["status"], "no_solution");
    assert_eq!(none["line"], 9);
    assert_eq!(none["solutions"], serde_json::json!([]));
    let invalid = &records[2];
    assert_eq!(invalid["status"], "invalid");
    assert_eq!(invalid["line"], 15);
    assert!(invalid["error"].as_str().unwrap().contains("\"2\""));
    assert!(invalid.get("solutions").is_none());
    assert_eq!(records[3]["line"], 18);
}

#[test]
fn json_count_all_and_knuth() {
    let (out, _, _) = cover(
        &["exact", "--json", "--count", "--limit", "1"],
        TWO_WAYS.as_bytes(),
    );
    let record = &json_lines(&out)[0];
    assert_eq!(record["count"], 1);
    assert_eq!(record["complete"], false);
    assert!(record.get("solutions").is_none());
    let (out, _, _) = cover(&["exact", "--json", "--count"], TWO_WAYS.as_bytes());
    let record = &json_lines(&out)[0];
    assert_eq!(
        (&record["count"], &record["complete"]),
        (&2.into(), &true.into())
    );
    let (out, _, _) = cover(&["exact", "--json", "--all"], TWO_WAYS.as_bytes());
    let record = &json_lines(&out)[0];
    assert_eq!(record["solutions"], serde_json::json!([[1, 2], [3]]));
    let (out, _, code) = cover(&["exact", "--json", "--all"], LANGFORD3.as_bytes());
    assert_eq!(code, 0);
    let record = &json_lines(&out)[0];
    assert_eq!(record["format"], "knuth");
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 2);
    for solution in solutions {
        let lines: Vec<&str> = solution
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        check_knuth_solution(LANGFORD3, &lines);
    }
}

// ---------------------------------------------------------------------------
// Bad input: reported with file and line, the rest still answered.

#[test]
fn a_bad_matrix_among_good_ones() {
    let input = format!("{IDENTITY}\n3 3\n1 0 0\n0 1\n0 0 1\n\n{KNUTH_MATRIX}");
    let path = file("bad_middle.txt", input.as_bytes());
    let (out, err, code) = cover(&["exact", &path], b"");
    assert_eq!(code, 2);
    // `invalid` in its place: answers stay aligned with matrices.
    assert_eq!(out, "1 2 3\ninvalid\n1 4 5\n");
    assert_eq!(
        err,
        format!("cover: {path}:8: row has 2 values, the header says 3\n")
    );
}

#[test]
fn bad_values_and_lengths() {
    let cases: &[(&str, &str)] = &[
        ("2 2\n1 0\n0 2\n", "<stdin>:3: expected 0 or 1, found \"2\""),
        (
            "2 2\n1 0 1\n0 1\n",
            "<stdin>:2: row has 3 values, the header says 2",
        ),
        (
            "2 2\n1 0\n0 1 x\n",
            "<stdin>:3: expected 0 or 1, found \"x\"",
        ),
        (
            "4 2\n1 0\n0 1\n",
            "<stdin>:1: the header promises 4 rows but only 2 follow",
        ),
        ("2 two\n1 0\n", "<stdin>:1:"),
    ];
    for (input, message) in cases {
        let (out, err, code) = cover(&["exact", "--format", "matrix"], input.as_bytes());
        assert_eq!((out.as_str(), code), ("invalid\n", 2), "{input:?}");
        assert!(
            err.starts_with(&format!("cover: {message}")),
            "{input:?}: {err}"
        );
    }
}

#[test]
fn a_header_claiming_a_billion_rows_fails_fast() {
    let start = Instant::now();
    let (out, err, code) = cover(&["exact"], b"1000000000 3\n1 0 0\n0 1 1\n");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!((out.as_str(), code), ("invalid\n", 2));
    assert_eq!(
        err,
        "cover: <stdin>:1: the header promises 1000000000 rows but only 2 follow\n"
    );
    // Claimed columns are not allocated before a row shows them either.
    let start = Instant::now();
    let (_, err, code) = cover(&["exact"], b"1 2000000\n1 0\n");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(code, 2);
    assert!(err.contains("<stdin>:2: row has 2 values"), "{err}");
    // More columns than a line can hold values for are refused at the
    // header; with no rows, none are allocated.
    let err = exit_2(&["exact"], b"1 16000000\n1 0\n\n0 2000000\n");
    assert!(
        err.contains("<stdin>:1: 16000000 columns is more than"),
        "{err}"
    );
}

#[test]
fn unknown_item_in_knuth() {
    let (out, err, code) = cover(&["exact"], b"a b\na\n| comment\nb z\n");
    assert_eq!((out.as_str(), code), ("invalid\n\n", 2));
    assert!(err.starts_with("cover: <stdin>:4: "), "{err}");
    assert!(err.contains("\"z\""), "{err}");
}

#[test]
fn knuth_colours_and_multiplicities() {
    // Knuth's small colour example: three solutions, each option printed
    // with its colours.
    let xcc = b"p q r | x y\np q x:A y:A\np r x:B y:A\np x:A\nq x:B\nr y:A\nq r y:B\n";
    let (out, err, code) = cover(&["exact", "--count", "--stats"], xcc);
    assert_eq!((out.as_str(), code), ("3\n", 0));
    assert!(
        err.contains("search nodes:  7\n") && err.contains("updates:       24\n"),
        "{err}"
    );
    assert!(err.contains("cleansings:    8\n"), "{err}");
    let (out, _, _) = cover(&["exact"], xcc);
    assert_eq!(out, "p q x:A y:A\nr y:A\n\n");
    // Two of each rank and file of a 2×2 board, no bound on diagonals:
    // one way, all four squares.
    let two = b"2|r0 2|r1 2|c0 2|c1\nr0 c0\nr0 c1\nr1 c0\nr1 c1\n";
    let (out, _, code) = cover(&["exact", "--all"], two);
    assert_eq!((out.as_str(), code), ("r0 c0\nr0 c1\nr1 c0\nr1 c1\n\n", 0));
    // Errors name their line.
    let err = exit_2(&["exact"], b"a b | c\na:red c\nb\n");
    assert!(
        err.contains("<stdin>:2:") && err.contains("primary"),
        "{err}"
    );
    let err = exit_2(&["exact"], b"3:2|a b\na b\n");
    assert!(err.contains("<stdin>:1:") && err.contains("3:2"), "{err}");
}

#[test]
fn an_input_without_a_problem_is_an_error() {
    // As Knuth's programs refuse an input without an items line.
    let (out, err, code) = cover(&["exact"], b"");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.starts_with("cover: <stdin>:1: no problem in the input"),
        "{err}"
    );
    let path = file("empty.txt", b"");
    let err = exit_2(&["exact", "--format", "knuth", &path], b"");
    assert!(
        err.contains("empty.txt:1: ") && err.contains("item line"),
        "{err}"
    );
    let err = exit_2(&["exact"], b"\n# nothing\n\n");
    assert!(err.starts_with("cover: <stdin>:3: "), "{err}");
    // The other inputs are still answered.
    let (out, _, code) = cover(&["exact", &path, "-"], b"1 1\n1\n");
    assert_eq!((out.as_str(), code), ("1\n", 2));
}

/// An empty input is no instance where the format has no header (nothing
/// printed, exit 0, as Unix filters) and a missing header where it has one
/// (an error at line 1, exit 2); the same from a file as from standard input.
#[test]
fn empty_input_is_no_instances_unless_the_format_starts_with_a_header() {
    let empty = file("nothing.txt", b"");
    for args in [
        &["sudoku"][..],
        &["sudoku", "--count"],
        &["sudoku", "--json"],
        &["target"],
        &["target", "--json"],
        &["shard", "run", "--queens", "4"],
    ] {
        for input in ["-", empty.as_str()] {
            let args = [args, &[input]].concat();
            let (out, err, code) = cover(&args, b"");
            assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0), "{args:?}");
            // Blank lines and comments are no instance either.
            if input == "-" && args[0] != "shard" {
                let (out, err, code) = cover(&args, b"\n# nothing\n\n");
                assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0), "{args:?}");
            }
        }
    }
    for (args, header) in [
        (&["exact"][..], "item line"),
        (&["exact", "--format", "matrix"], "header `N M`"),
        (&["radar"], "the number of cases"),
    ] {
        for input in ["-", empty.as_str()] {
            let args = [args, &[input]].concat();
            let (out, err, code) = cover(&args, b"");
            assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
            let name = if input == "-" { "<stdin>" } else { input };
            assert!(
                err.starts_with(&format!("cover: {name}:1: ")) && err.contains(header),
                "{args:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
    // T = 0 is the radar input of no cases.
    let (out, err, code) = cover(&["radar"], b"0\n");
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn crlf_and_bom() {
    let crlf = KNUTH_MATRIX.replace('\n', "\r\n");
    let (out, _, code) = cover(&["exact"], crlf.as_bytes());
    assert_eq!((out.as_str(), code), ("1 4 5\n", 0));
    let bom_crlf = format!("\u{FEFF}{}", KNUTH_TEXT.replace('\n', "\r\n"));
    let (out, _, code) = cover(&["exact"], bom_crlf.as_bytes());
    assert_eq!((out.as_str(), code), ("a d\nc e f\nb g\n\n", 0));
}

#[test]
fn binary_junk() {
    let junk: Vec<u8> = (0..=255u8).cycle().take(5000).map(|b| b ^ 0x5A).collect();
    let (out, err, code) = cover(&["exact"], &junk);
    assert_eq!((out.as_str(), code), ("invalid\n\n", 2));
    assert!(err.starts_with("cover: <stdin>:"), "{err}");
    // Junk inside a matrix file: `invalid` in its place, and the matrices
    // after it are still answered.
    let mut input = IDENTITY.as_bytes().to_vec();
    input.extend_from_slice(b"\n\xFF\xFE\x00junk\n1 0\n\n");
    input.extend_from_slice(TWO_WAYS.as_bytes());
    let (out, err, code) = cover(&["exact"], &input);
    assert_eq!((out.as_str(), code), ("1 2 3\ninvalid\n1 2\n", 2));
    assert_eq!(err, "cover: <stdin>:6: the line is not valid UTF-8 text\n");
}

#[test]
fn missing_file() {
    let good = file("missing_good.txt", IDENTITY.as_bytes());
    let (out, err, code) = cover(&["exact", "no/such/file.txt", &good], b"");
    assert_eq!((out.as_str(), code), ("1 2 3\n", 2));
    assert!(err.starts_with("cover: no/such/file.txt: "), "{err}");
    let dir = env!("CARGO_TARGET_TMPDIR");
    let err = exit_2(&["exact", dir], b"");
    assert!(err.starts_with(&format!("cover: {dir}: ")), "{err}");
}

// ---------------------------------------------------------------------------
// The command line.

#[test]
fn help() {
    let (out, _, code) = cover(&["--help"], b"");
    assert_eq!(code, 0);
    assert!(
        out.contains("Examples:") && out.contains("cover exact"),
        "{out}"
    );
    assert!(out.contains("Exit status"), "{out}");
    help_mentions(
        &["exact", "--help"],
        &[
            "--count",
            "--all",
            "--limit",
            "--json",
            "--jobs",
            "--stats",
            "No Solution!",
        ],
    );
    let (_, _, code) = cover(&["help", "exact"], b"");
    assert_eq!(code, 0);
}

#[test]
fn usage_errors_exit_2() {
    assert_usage_errors(&[
        "",
        "nonsense",
        "exact --bogus",
        "exact --count --all",
        "exact --limit 0",
        "exact --jobs 0",
        "exact --format csv",
    ]);
}

#[test]
fn jobs_and_stats() {
    let (out, err, code) = cover(&["exact", "--jobs", "2", "--stats"], TWO_WAYS.as_bytes());
    assert_eq!((out.as_str(), code), ("1 2\n", 0));
    assert_contains_all(
        &err,
        &[
            "instances:",
            "instances/s",
            "time:",
            "search nodes:",
            "updates:",
        ],
    );
    assert!(err.contains("instances:     1 (1 answered"), "{err}");
}

#[test]
fn a_closed_pipe_is_a_quiet_end() {
    // A million solutions, far more than a pipe holds.
    let mut input = String::from("2000 2\n");
    input.push_str(&"1 0\n".repeat(1000));
    input.push_str(&"0 1\n".repeat(1000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_cover"))
        .args(["exact", "--all"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "1 1001\n");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr, "", "no panic, no message");
    assert_eq!(output.status.code(), Some(0));
}

// ---------------------------------------------------------------------------
// Conflict learning and CNF.

/// `--engine sat` answers as search does, each solution checked; counts
/// and `--all` block each solution found; --stats says what was learnt.
#[cfg(feature = "sat")]
#[test]
fn exact_by_conflict_learning() {
    let (out, err, code) = cover(
        &["exact", "--engine", "sat", "--stats"],
        KNUTH_TEXT.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    check_knuth_solution(KNUTH_TEXT, &knuth_blocks(&out)[0]);
    assert!(
        err.contains("clauses from conflicts, on 1 of the instances"),
        "{err}"
    );
    for engine in ["sat", "auto"] {
        let (out, _, code) = cover(
            &["exact", "--engine", engine, "--all"],
            LANGFORD3.as_bytes(),
        );
        assert_eq!(code, 0);
        let blocks = knuth_blocks(&out);
        assert_eq!(blocks.len(), 2, "{engine}");
        for block in &blocks {
            check_knuth_solution(LANGFORD3, block);
        }
        assert_ne!(blocks[0], blocks[1]);
        let (out, _, code) = cover(
            &["exact", "--engine", engine, "--count"],
            TWO_WAYS.as_bytes(),
        );
        assert_eq!((out.as_str(), code), ("2\n", 0), "{engine}");
        let (out, _, code) = cover(&["exact", "--engine", engine], NO_SOLUTION.as_bytes());
        assert_eq!((out.as_str(), code), ("No Solution!\n", 1), "{engine}");
    }
    let (out, _, code) = cover(
        &["exact", "--engine", "sat", "--json", "--count"],
        TWO_WAYS.as_bytes(),
    );
    assert_eq!(code, 0);
    let record = &json_lines(&out)[0];
    assert_eq!(record["count"], 2);
    assert!(record["learnt"].as_u64().is_some(), "{record}");
    // The search alone: no learnt field.
    let (out, _, _) = cover(&["exact", "--json"], TWO_WAYS.as_bytes());
    assert!(json_lines(&out)[0].get("learnt").is_none(), "{out}");
}

/// `--cnf` writes a CNF per instance, its options named by row (matrix)
/// or items (Knuth's format); its models are the covers: the matrix of
/// two solutions has exactly two, by CaDiCaL reading the text.
#[cfg(feature = "sat")]
#[test]
fn exact_cnf() {
    let (out, err, code) = cover(&["exact", "--cnf"], TWO_WAYS.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("c instance 1 <stdin>:1\n"), "{out}");
    assert!(out.contains("c option 3 row 3\n"), "{out}");
    let mut solver: cadical::Solver = cadical::Solver::new();
    for line in out
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
    {
        let literals: Vec<i32> = line.split(' ').map(|l| l.parse().unwrap()).collect();
        solver.add_clause(literals[..literals.len() - 1].iter().copied());
    }
    let mut models = Vec::new();
    while solver.solve() == Some(true) {
        let model: Vec<i32> = (1..=3).filter(|&v| solver.value(v) == Some(true)).collect();
        solver.add_clause(model.iter().map(|v| -v));
        models.push(model);
    }
    assert_eq!(models, [vec![1, 2], vec![3]]);
    let (out, _, code) = cover(&["exact", "--cnf"], LANGFORD3.as_bytes());
    assert_eq!(code, 0);
    let first_option = LANGFORD3.lines().nth(1).unwrap();
    assert!(
        out.contains(&format!("c option 1 {first_option}\n")),
        "{out}"
    );
    assert_usage_errors(&["exact --cnf --count", "exact --cnf --json"]);
}

// ---------------------------------------------------------------------------
// Version, completions, man pages.

/// `--version` names the commit the binary was built from.
#[test]
fn version_names_the_commit() {
    let (out, _, code) = cover(&["--version"], b"");
    assert_eq!(code, 0);
    assert!(out.starts_with("cover 0."), "{out}");
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    match head {
        // Built from this checkout (perhaps with changes since).
        Some(hash) => assert!(out.contains(&format!("(commit {hash}")), "{out} vs {hash}"),
        None => assert!(out.contains("(commit unknown)"), "{out}"),
    }
}

/// Completions for each shell know the commands and their flags; man
/// pages are roff, one for `cover` and one per command.
#[test]
fn completions_and_man_pages_come_from_the_definition() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (out, err, code) = cover(&["completions", shell], b"");
        assert_eq!((code, err.as_str()), (0, ""), "{shell}");
        for word in ["sudoku", "exact", "--max-nodes", "--engine"] {
            assert!(out.contains(word), "{shell}: {word}");
        }
    }
    let (out, _, code) = cover(&["man"], b"");
    assert_eq!(code, 0);
    assert!(out.contains(".TH cover 1"), "{out}");
    assert!(out.contains("sudoku"), "{out}");
    let (out, _, code) = cover(&["man", "sudoku"], b"");
    assert_eq!(code, 0);
    assert!(out.contains(".TH cover-sudoku 1"), "{out}");
    assert!(out.contains("\\-\\-engine"), "{out}");
    let (out, err, code) = cover(&["man", "nope"], b"");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("no command \"nope\"; the commands: completions, exact"),
        "{err}"
    );
    assert_usage_errors(&["completions", "completions tcsh"]);
}

#[test]
fn short_flags_are_the_long_ones() {
    let problem = "a b c\na b\nc\na\nb\n";
    let pairs: [(&[&str], &[&str]); 3] = [
        (&["exact", "-c"], &["exact", "--count"]),
        (&["exact", "-a"], &["exact", "--all"]),
        (
            &["exact", "-c", "-j", "1"],
            &["exact", "--count", "--jobs", "1"],
        ),
    ];
    for (short, long) in pairs {
        let (short_out, short_err, short_code) = cover(short, problem.as_bytes());
        let (long_out, _, long_code) = cover(long, problem.as_bytes());
        assert_eq!((short_code, short_err.as_str()), (0, ""), "{short:?}");
        assert_eq!(
            (&short_out, short_code),
            (&long_out, long_code),
            "{short:?}"
        );
    }
    // Two solutions: {a b, c} and {a, b, c}.
    let (count, _, _) = cover(&["exact", "-c"], problem.as_bytes());
    assert_eq!(count.trim(), "2");
    let (all, _, _) = cover(&["sudoku", "-a"], b"1...........2..3\n");
    assert!(all.lines().count() > 1, "{all}");
    // Queens' N stays positional.
    let (queens, _, _) = cover(&["queens", "-c", "8"], b"");
    assert_eq!(queens.trim(), "92");
    help_mentions(
        &["sudoku", "--help"],
        &["-c, --count", "-a, --all", "-j, --jobs <N>"],
    );
}

#[test]
fn reading_a_terminal_says_so_and_draws_no_bar() {
    // Nothing is typed (script passes on the end of its own empty input):
    // the hint, and neither a bar nor anything else.
    let Some(seen) = support::at_a_terminal("sudoku", 2) else {
        return;
    };
    assert_eq!(
        seen.trim(),
        "cover: reading standard input: type or paste, then Ctrl-D to end (or name the files to read)"
    );
    // A file, or a pipe, is read without a word.
    let (out, err, code) = cover(&["sudoku"], b"1...........2..3\n");
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
}
