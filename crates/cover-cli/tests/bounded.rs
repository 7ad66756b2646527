//! Bounded input and bounded searches, for every command that reads files:
//! binary data, over-long lines and endless searches are each a clear
//! answer (an error at its line, or `gave up`), never a crash or a hang,
//! and the other instances are still answered, in order.

mod support;

use support::{cover, json_lines};

/// More than the 4 MiB a line may hold.
const OVER: usize = (4 << 20) + 10;

/// A 9×9 puzzle with one solution, and that solution.
const SUDOKU: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A target sudoku puzzle (9 rows) with a known best score.
const TARGET: &str = "\
7 0 0 9 0 0 0 0 1
1 0 0 0 0 5 9 0 0
0 0 0 2 0 0 0 8 0
0 0 5 0 2 0 0 0 3
0 0 0 0 0 0 6 4 8
4 1 3 0 0 0 0 0 0
0 0 7 0 0 2 0 9 0
2 0 1 0 6 0 8 0 4
0 8 0 5 0 4 0 1 2
";

#[test]
fn binary_data_is_one_error_for_every_command() {
    let zeros = vec![0u8; OVER];
    for command in ["sudoku", "exact", "radar", "target"] {
        let (_, err, code) = cover(&[command], &zeros);
        assert_eq!(code, 2, "{command}");
        assert_eq!(err.lines().count(), 1, "{command}: {err}");
        assert!(
            err.starts_with("cover: <stdin>:1: the input is binary data"),
            "{command}: {err}"
        );
    }
}

/// `prefix`, then a line of `OVER` bytes of `1 1 1 …`, then `suffix`.
fn with_long_line(prefix: &str, suffix: &str) -> Vec<u8> {
    let mut input = prefix.as_bytes().to_vec();
    input.extend(b"1 ".iter().cycle().take(OVER));
    input.push(b'\n');
    input.extend_from_slice(suffix.as_bytes());
    input
}

#[test]
fn an_over_long_line_is_reported_and_skipped() {
    // Sudoku: the line stands as `invalid`, the next puzzle is solved.
    let input = with_long_line("", &format!("{SUDOKU}\n"));
    let (out, err, code) = cover(&["sudoku", "--jobs", "2"], &input);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "cover: <stdin>:1: the line is longer than 4 MiB, the most a line may hold"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "invalid");
    assert_eq!(lines[1].len(), 81);
    // Exact: it stands as `invalid`; matrices before and after it are
    // answered.
    let input = with_long_line("1 1\n1\n\n", "\n2 2\n1 0\n0 1\n");
    let (out, err, code) = cover(&["exact"], &input);
    assert_eq!((out.as_str(), code), ("1\ninvalid\n1 2\n", 2));
    assert!(
        err.starts_with("cover: <stdin>:4: the line is longer"),
        "{err}"
    );
    // Target: the puzzle holding it is invalid, the next one is answered.
    let input = with_long_line(&TARGET[..TARGET.len() - 18], &format!("\n{TARGET}"));
    let (out, err, code) = cover(&["target"], &input);
    assert_eq!((out.as_str(), code), ("invalid\n2829\n", 2));
    assert!(
        err.starts_with("cover: <stdin>:9: the line is longer"),
        "{err}"
    );
    // Radar: the numbers on it are lost, so where cases start is unknown.
    let input = with_long_line("2\n1 1 1\n", "0 0\n");
    let (out, err, code) = cover(&["radar"], &input);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("<stdin>:3: the line is longer"), "{err}");
    assert!(
        err.contains("the rest of the input cannot be read"),
        "{err}"
    );
}

/// Knuth's item line over the limit: the problem is an error at that
/// line, and no option line after it is taken for the item line, so
/// the problem stands as `invalid` (a block, as Knuth-format answers
/// are); an option line over it is the problem's error.
#[test]
fn an_over_long_knuth_line_answers_nothing() {
    let items = "x ".repeat(OVER / 2 + 1);
    let input = format!("{items}\na b\na\nb\n");
    for args in [&["exact"][..], &["exact", "--format", "knuth"]] {
        let (out, err, code) = cover(args, input.as_bytes());
        assert_eq!((out.as_str(), code), ("invalid\n\n", 2), "{args:?}");
        assert!(
            err.starts_with("cover: <stdin>:1: the line is longer than 4 MiB"),
            "{err}"
        );
        assert!(err.contains("it is the item line"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let input = with_long_line("| items\na b\na\n", "b\n");
    let (out, err, code) = cover(&["exact"], &input);
    assert_eq!((out.as_str(), code), ("invalid\n\n", 2));
    assert!(
        err.starts_with("cover: <stdin>:4: the line is longer"),
        "{err}"
    );
}

#[test]
fn quoted_junk_is_cut_short() {
    let junk = "x".repeat(100_000);
    let input = format!("2 {junk}\n");
    let (_, err, code) = cover(&["exact", "--format", "matrix"], input.as_bytes());
    assert_eq!(code, 2);
    assert!(err.len() < 200, "{err}");
    let (_, err, _) = cover(&["target"], format!("{junk}\n").as_bytes());
    assert!(err.len() < 200, "{err}");
}

#[test]
fn exact_gives_up_at_max_nodes_the_same_on_any_number_of_threads() {
    // 8 queens in Knuth's format: 92 solutions, far more than 50 nodes.
    let queens = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/exact/queens8.dlx"
    ))
    .unwrap();
    for jobs in ["1", "3"] {
        let (out, _, code) = cover(
            &["exact", "--count", "--max-nodes", "50", "--jobs", jobs],
            &queens,
        );
        // The solutions found by then, as the JSON record's count says.
        assert_eq!(
            (out.as_str(), code),
            ("gave up after 5 solutions\n", 1),
            "--jobs {jobs}"
        );
        let (json, _, _) = cover(
            &[
                "exact",
                "--count",
                "--max-nodes",
                "50",
                "--json",
                "--jobs",
                jobs,
            ],
            &queens,
        );
        assert_eq!(json_lines(&json)[0]["count"], 5, "--jobs {jobs}");
        let (out, _, code) = cover(&["exact", "--max-nodes", "3", "--jobs", jobs], &queens);
        assert_eq!((out.as_str(), code), ("gave up\n\n", 1), "--jobs {jobs}");
    }
    // Enough nodes: the full count.
    let (out, _, code) = cover(&["exact", "--count", "--max-nodes", "100000"], &queens);
    assert_eq!((out.as_str(), code), ("92\n", 0));
    let (out, _, _) = cover(&["exact", "--json", "--all", "--max-nodes", "50"], &queens);
    let record = &json_lines(&out)[0];
    assert_eq!(record["status"], "gave_up");
    assert_eq!(record["complete"], false);
    assert!(record["nodes"].as_u64().unwrap() <= 51);
    // A matrix file: the bounded instance gives up, the others answer.
    let (out, _, code) = cover(
        &["exact", "--max-nodes", "1"],
        b"1 1\n1\n\n3 2\n1 0\n0 1\n1 1\n",
    );
    assert_eq!((out.as_str(), code), ("1\ngave up\n", 1));
}

#[test]
fn target_gives_up_at_max_nodes() {
    // An empty grid: a long branch and bound, cut short.
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let input = format!("{empty}\n{TARGET}");
    let (out, _, code) = cover(
        &["target", "--max-nodes", "1000", "--show"],
        input.as_bytes(),
    );
    assert_eq!(code, 1);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("gave up"));
    assert_eq!(lines.next(), Some(""));
    assert_eq!(lines.next(), Some("2829"));
    let (out, _, _) = cover(
        &["target", "--json", "--max-nodes", "1000"],
        input.as_bytes(),
    );
    let records = json_lines(&out);
    assert_eq!(records[0]["status"], "gave_up");
    assert!(records[0].get("score").is_none());
    assert_eq!(records[1]["score"], 2829);
}

#[test]
fn radar_gives_up_at_max_nodes() {
    // The first case of the random fixture (50 cities, 50 stations, K = 9),
    // whose probes search a few nodes each.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/radar/random_20x50.in"
    ))
    .unwrap();
    let lines: Vec<&str> = fixture.lines().collect();
    let case = format!("1\n{}\n", lines[1..102].join("\n"));
    let (out, _, code) = cover(
        &["radar", "--max-nodes", "1", "--probes", "1"],
        case.as_bytes(),
    );
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
    let (out, _, _) = cover(
        &["radar", "--json", "--max-nodes", "1", "--probes", "1"],
        case.as_bytes(),
    );
    assert_eq!(json_lines(&out)[0]["status"], "gave_up");
    // A bound the probes stay within changes nothing.
    let (bounded, _, code) = cover(&["radar", "--max-nodes", "100000"], case.as_bytes());
    assert_eq!(code, 0);
    let (unbounded, _, _) = cover(&["radar"], case.as_bytes());
    assert_eq!(
        (bounded.as_str(), unbounded.as_str()),
        ("220.513038\n", "220.513038\n")
    );
}

#[test]
fn queens_gives_up_at_max_nodes() {
    // A count says how many boards it had found, as JSON's count does
    // (with --symmetry weighted, mirror images counted).
    for (args, said) in [
        (
            &["queens", "--count", "--max-nodes", "100", "10"][..],
            "gave up after 4 solutions",
        ),
        (
            &[
                "queens",
                "--count",
                "--symmetry",
                "--max-nodes",
                "100",
                "10",
            ],
            "gave up after 10 solutions",
        ),
        (
            &["queens", "--count", "--max-nodes", "3", "4"],
            "gave up after 0 solutions",
        ),
        (&["queens", "--max-nodes", "3", "8"], "gave up"),
    ] {
        let (out, _, code) = cover(args, b"");
        assert_eq!(
            (out.as_str(), code),
            (format!("{said}\n").as_str(), 1),
            "{args:?}"
        );
        if let Some(count) = said.strip_prefix("gave up after ") {
            let (json, _, _) = cover(&[args, &["--json"]].concat(), b"");
            let count: u64 = count.split(' ').next().unwrap().parse().unwrap();
            assert_eq!(json_lines(&json)[0]["count"], count, "{args:?}");
        }
    }
    let (out, _, code) = cover(&["queens", "--count", "--max-nodes", "1000000", "8"], b"");
    assert_eq!((out.as_str(), code), ("92\n", 0));
}

#[test]
fn sudoku_rates_within_max_nodes() {
    let input = format!("{SUDOKU}\n");
    let (out, _, code) = cover(&["sudoku", "--rate", "--max-nodes", "5"], input.as_bytes());
    assert_eq!((out.as_str(), code), ("gave up\n", 1));
    let (out, _, _) = cover(
        &["sudoku", "--rate", "--json", "--max-nodes", "5"],
        input.as_bytes(),
    );
    let record = &json_lines(&out)[0];
    assert_eq!(record["status"], "gave_up");
    assert!(record.get("rating").is_none());
    let (bounded, _, code) = cover(
        &["sudoku", "--rate", "--max-nodes", "1000000"],
        input.as_bytes(),
    );
    assert_eq!(code, 0);
    let (unbounded, _, _) = cover(&["sudoku", "--rate"], input.as_bytes());
    assert_eq!(bounded, unbounded);
    // Hard for a search (hundreds of nodes), easy by logic: SukakuExplainer
    // rates it 2.6 too.
    assert_eq!(bounded, "2.6 Pointing\n");
}
