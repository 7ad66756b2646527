//! End-to-end tests of `cover queens`: boards checked by a checker that
//! does not trust the solver, counts against OEIS A000170, the parallel
//! count against the serial one.

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use cover_check::queens::{check_board, read_board, A000170};
use support::{assert_usage_errors, at_a_terminal, cover};

/// The file of the queen in each rank of a text board, checked by
/// `cover-check`: one queen per rank and file, none on a shared diagonal.
fn checked_board(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let files = read_board(&lines, lines.len()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(check_board(&files), Ok(()), "{text}");
    files
}

#[test]
fn first_board_is_valid() {
    for n in [1, 4, 5, 8, 20, 64] {
        let (out, _, code) = cover(&["queens", &n.to_string()], b"");
        assert_eq!(code, 0);
        assert_eq!(checked_board(&out).len(), n);
    }
}

#[test]
fn no_solution_for_two_and_three() {
    for n in ["2", "3"] {
        let (out, _, code) = cover(&["queens", n], b"");
        assert_eq!((out.as_str(), code), ("no solution\n", 1));
    }
}

#[test]
fn counts_match_oeis_serial_and_parallel() {
    for (k, &expected) in A000170.iter().enumerate() {
        let n = (k + 1).to_string();
        let mut answers = Vec::new();
        for jobs in ["1", "2"] {
            let (out, _, code) = cover(&["queens", "--count", "--json", "--jobs", jobs, &n], b"");
            assert_eq!(code, if expected > 0 { 0 } else { 1 });
            let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(record["count"], expected, "N = {n}");
            answers.push((record["nodes"].clone(), record["updates"].clone()));
        }
        assert_eq!(answers[0], answers[1], "N = {n}: split counters differ");
        let (out, _, _) = cover(&["queens", "--count", "--symmetry", &n], b"");
        assert_eq!(out.trim(), expected.to_string(), "N = {n} with --symmetry");
    }
}

#[test]
fn all_boards_are_distinct_and_valid() {
    let (out, _, code) = cover(&["queens", "--all", "6"], b"");
    assert_eq!(code, 0);
    let boards: Vec<Vec<usize>> = out
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(checked_board)
        .collect();
    assert_eq!(boards.len(), 4);
    let mut distinct = boards.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4);

    let (out, _, _) = cover(&["queens", "--limit", "3", "8"], b"");
    assert_eq!(
        out.split("\n\n").filter(|b| !b.trim().is_empty()).count(),
        3
    );
}

#[test]
fn bad_sizes_are_usage_errors() {
    assert_usage_errors(&[
        "queens 0",
        "queens x",
        "queens 99999",
        "queens --symmetry 8",
    ]);
}

#[test]
fn a_long_count_at_a_terminal_shows_a_hint_and_its_progress() {
    // Unbounded: the hint first, then a progress line once it has run a
    // second (it is stopped after three), serial or split across threads.
    for jobs in ["1", "2"] {
        let Some(seen) = at_a_terminal(&format!("queens --count --jobs {jobs} 18"), 3) else {
            return;
        };
        let hint = seen.lines().next().unwrap_or("");
        assert!(
            hint.starts_with("cover: counting every board of 18 queens may take very long")
                && hint.contains("--time-limit SECONDS")
                && hint.contains("--max-nodes N")
                && hint.contains("cover shard split --queens 18"),
            "{seen}"
        );
        assert!(seen.contains("counting ["), "--jobs {jobs}: {seen}");
    }
    // Bounded: no hint, the progress line, and what it had found.
    let Some(seen) = at_a_terminal("queens --count --jobs 1 --time-limit 2 18", 10) else {
        return;
    };
    assert!(!seen.contains("may take very long"), "{seen}");
    assert!(seen.contains(" solutions found"), "{seen}");
    assert!(seen.contains("gave up after "), "{seen}");
    // A small board: no hint.
    let Some(seen) = at_a_terminal("queens --count 8", 10) else {
        return;
    };
    assert_eq!(seen.trim(), "92");
}

#[test]
fn a_long_count_into_a_pipe_says_nothing_more() {
    // The hint is said before the search starts: a second is plenty.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cover"))
        .args(["queens", "--count", "--jobs", "1", "18"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}
