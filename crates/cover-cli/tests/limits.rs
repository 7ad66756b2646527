//! Bounded in time and memory (issue 33): `--time-limit` ends searches
//! that would run for minutes or years, in every command that searches,
//! with `gave up` in their place as `--max-nodes` does; `--jobs` far past
//! the cores still answers at once; inputs past the memory caps are clear
//! errors, and the instances after them are still answered.
//!
//! The searches here would take far longer than any test; the bounds on
//! wall time are generous (seconds where the limit is a fraction of one),
//! so that a busy machine does not fail them.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use support::{assert_usage_errors, cover, json_lines};

/// How long a command stopped by a time limit of a fraction of a second
/// may take in all, on the busiest machine, in a debug build.
const GENEROUS: Duration = Duration::from_secs(20);

/// Runs `cover` with `args` and `stdin`: its output, error, exit code and
/// the wall time it took.
fn timed(args: &[&str], stdin: &[u8]) -> (String, String, i32, Duration) {
    let start = Instant::now();
    let (out, err, code) = cover(args, stdin);
    (out, err, code, start.elapsed())
}

/// N queens in Knuth's format (counting 32 of them takes years).
fn queens_knuth(n: usize) -> String {
    let mut text = String::new();
    let names: Vec<String> = (0..n)
        .map(|i| format!("r{i}"))
        .chain((0..n).map(|i| format!("c{i}")))
        .collect();
    text.push_str(&names.join(" "));
    text.push_str(" |");
    for d in 0..2 * n - 1 {
        text.push_str(&format!(" a{d} b{d}"));
    }
    text.push('\n');
    for r in 0..n {
        for c in 0..n {
            text.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, n - 1 - r + c));
        }
    }
    text
}

/// `items` items with one option each: every node scans every item still
/// to cover, so the search is quadratic (minutes for 50,000 items).
fn one_option_per_item(items: usize) -> String {
    let names: Vec<String> = (0..items).map(|i| format!("i{i}")).collect();
    let mut text = names.join(" ");
    text.push('\n');
    for name in &names {
        text.push_str(name);
        text.push('\n');
    }
    text
}

fn fixture(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    std::fs::read_to_string(root.join(path)).unwrap()
}

/// Asserts that `args` on `stdin` gave up within [`GENEROUS`]: `gave up`
/// as the last line of standard output (with --count, `gave up after N
/// solutions`), exit status 1.
fn gives_up(args: &[&str], stdin: &[u8]) -> String {
    let (out, err, code, took) = timed(args, stdin);
    assert_eq!(code, 1, "{args:?}: {err}");
    let last = out.trim_end().lines().last().unwrap_or("");
    if args.contains(&"--count") {
        let found = last.strip_prefix("gave up after ").and_then(|rest| {
            rest.strip_suffix(" solutions")
                .or(rest.strip_suffix(" solution"))
        });
        assert!(
            found.is_some_and(|n| n.parse::<u64>().is_ok()),
            "{args:?}: {out}"
        );
    } else {
        assert_eq!(last, "gave up", "{args:?}: {out}");
    }
    assert!(took < GENEROUS, "{args:?} took {took:?}");
    out
}

/// Asserts that `args` on `stdin` gave up within [`GENEROUS`] with JSON
/// status `gave_up`; returns the record.
fn gives_up_json(args: &[&str], stdin: &[u8]) -> serde_json::Value {
    let (out, err, code, took) = timed(args, stdin);
    assert_eq!(code, 1, "{args:?}: {err}");
    assert!(took < GENEROUS, "{args:?} took {took:?}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 1, "{out}");
    assert_eq!(records[0]["status"], "gave_up", "{args:?}: {out}");
    records[0].clone()
}

#[test]
fn exact_gives_up_at_its_time_limit() {
    let queens = queens_knuth(32);
    for jobs in ["1", "3"] {
        gives_up(
            &["exact", "--count", "--time-limit", "0.3", "-j", jobs],
            queens.as_bytes(),
        );
        let record = gives_up_json(
            &[
                "exact",
                "--count",
                "--json",
                "--time-limit",
                "0.3",
                "-j",
                jobs,
            ],
            queens.as_bytes(),
        );
        assert_eq!(record["complete"], false);
    }
    // Every solution until the limit, then `gave up`.
    let out = gives_up(
        &["exact", "--all", "--time-limit", "0.3"],
        queens.as_bytes(),
    );
    assert!(out.lines().count() > 32, "solutions came before: {out}");
    // Each node of this one scans every item: the limit is checked at
    // every node, so it still stops on time.
    let chain = one_option_per_item(50_000);
    gives_up(&["exact", "--time-limit", "0.3"], chain.as_bytes());
    // A limit the search stays within changes nothing.
    let small = fixture("exact/queens8.dlx");
    let (out, _, code) = cover(
        &["exact", "--count", "--time-limit", "60"],
        small.as_bytes(),
    );
    assert_eq!((out.as_str(), code), ("92\n", 0));
}

#[test]
fn sudoku_gives_up_at_its_time_limit() {
    let empty = format!("{}\n", ".".repeat(81));
    for engine in ["auto", "triad", "band", "compact", "linked"] {
        for jobs in ["1", "3"] {
            let args = [
                "sudoku",
                "--count",
                "--time-limit",
                "0.3",
                "--engine",
                engine,
                "-j",
                jobs,
            ];
            gives_up(&args, empty.as_bytes());
        }
    }
    let record = gives_up_json(
        &["sudoku", "--count", "--json", "--time-limit", "0.3"],
        empty.as_bytes(),
    );
    assert_eq!(record["complete"], false);
    // A hard 25×25 puzzle: its first solution, with propagation, and its
    // rating (the classic engine's count to 2) are each minutes.
    let hard = fixture("sudoku/line_25x25_gecode.txt");
    let hard = hard.lines().find(|l| !l.starts_with('#')).unwrap();
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    for mode in [
        &["--rate"][..],
        &["--engine", "linked", "--propagate", "none"],
    ] {
        let mut args = vec!["sudoku", "--symbols", symbols, "--time-limit", "0.3"];
        args.extend(mode);
        gives_up(&args, hard.as_bytes());
    }
    // The other puzzles of a file are still answered, in order.
    let input = format!(
        "{}\n{}",
        fixture("sudoku/line_9x9.txt").lines().nth(1).unwrap(),
        empty
    );
    let (out, _, code) = cover(
        &["sudoku", "--count", "--time-limit", "0.3"],
        input.as_bytes(),
    );
    let mut lines = out.lines();
    assert_eq!((lines.next(), code), (Some("1"), 1), "{input}");
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("gave up after ")),
        "{out}"
    );
}

#[test]
fn queens_target_and_radar_give_up_at_their_time_limit() {
    gives_up(&["queens", "--count", "--time-limit", "0.3", "40"], b"");
    gives_up(
        &[
            "queens",
            "--count",
            "--symmetry",
            "--time-limit",
            "0.3",
            "-j",
            "1",
            "40",
        ],
        b"",
    );
    let out = gives_up(&["queens", "--all", "--time-limit", "0.3", "24"], b"");
    assert!(out.starts_with(['Q', '.']), "boards came before: {out}");
    let record = gives_up_json(
        &["queens", "--count", "--json", "--time-limit", "0.3", "40"],
        b"",
    );
    assert_eq!(record["complete"], false);

    // The empty target grid without reasoning: minutes.
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    gives_up(
        &["target", "--propagate", "none", "--time-limit", "0.3"],
        empty.as_bytes(),
    );
    gives_up_json(
        &[
            "target",
            "--propagate",
            "none",
            "--json",
            "--time-limit",
            "0.3",
        ],
        empty.as_bytes(),
    );

    // 600 cities, 600 stations, K = 50 at random: minutes of probes.
    let mut seed: u64 = 7;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % 10_001
    };
    let mut case = String::from("1\n600 600 50\n");
    for _ in 0..1200 {
        case.push_str(&format!("{} {}\n", next(), next()));
    }
    for jobs in ["1", "3"] {
        gives_up(
            &["radar", "--time-limit", "0.3", "-j", jobs],
            case.as_bytes(),
        );
    }
    gives_up_json(&["radar", "--json", "--time-limit", "0.3"], case.as_bytes());
}

#[test]
fn shards_that_give_up_get_no_result_and_are_run_again() {
    let (shards, _, code) = cover(&["shard", "split", "--queens", "12", "--shards", "8"], b"");
    assert_eq!(code, 0);
    let (out, err, code) = cover(
        &["shard", "run", "--queens", "12", "--max-nodes", "1"],
        shards.as_bytes(),
    );
    assert_eq!(code, 1, "{err}");
    // The top (shard 0) is not bounded; every other shard gave up.
    assert_eq!(json_lines(&out).len(), 1, "{out}");
    let gave_up = err.lines().filter(|l| l.contains("gave up")).count();
    assert_eq!(gave_up, shards.lines().count() - 1, "{err}");
    assert!(
        err.starts_with("cover: <stdin>:2: shard 1 gave up"),
        "{err}"
    );
    // merge --remaining gives them back.
    let results = support::file("limits_results.jsonl", out.as_bytes());
    let shard_file = support::file("limits_shards.jsonl", shards.as_bytes());
    let (todo, _, _) = cover(
        &["shard", "merge", &results, "--remaining", &shard_file],
        b"",
    );
    assert_eq!(todo.lines().count(), shards.lines().count() - 1);
    // A time limit no shard reaches changes nothing.
    let (out, _, code) = cover(
        &["shard", "run", "--queens", "12", "--time-limit", "60"],
        shards.as_bytes(),
    );
    assert_eq!((json_lines(&out).len(), code), (shards.lines().count(), 0));
}

#[test]
fn time_limits_are_positive_numbers_of_seconds() {
    for command in [
        "exact",
        "sudoku",
        "radar",
        "target",
        "queens 8",
        "shard run --queens 8",
    ] {
        for bad in ["0", "-1", "nan", "inf", "soon", "1e400"] {
            assert_usage_errors(&[&format!("{command} --time-limit {bad}")]);
        }
    }
    // Fractions are fine.
    let (out, _, code) = cover(&["queens", "--count", "--time-limit", "2.5", "8"], b"");
    assert_eq!((out.as_str(), code), ("92\n", 0));
}

#[test]
fn thousands_of_jobs_answer_at_once() {
    let puzzle = fixture("sudoku/line_9x9.txt");
    let one = puzzle.lines().nth(1).unwrap();
    let start = Instant::now();
    let (out, err, code) = cover(&["sudoku", "-j", "5000"], one.as_bytes());
    assert_eq!((code, out.lines().count()), (0, 1), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    let (out, _, code) = cover(&["queens", "--count", "-j", "100000", "8"], b"");
    assert_eq!((out.as_str(), code), ("92\n", 0));
    let small = fixture("exact/queens8.dlx");
    let (out, _, code) = cover(&["exact", "--count", "-j", "5000"], small.as_bytes());
    assert_eq!((out.as_str(), code), ("92\n", 0));
}

#[test]
fn inputs_past_the_memory_caps_are_errors() {
    // Queens: N is at most 1800.
    assert_usage_errors(&["queens 1801", "shard split --queens 1801"]);
    // A matrix past 2^24 nodes: 7 rows of 2^21 ones (with a node per
    // column and row, 16,777,226 nodes) is refused at the row that passes
    // it (`invalid` in its place), and the matrix after it is still
    // answered.
    let columns = 1 << 21;
    let mut ones = "1 ".repeat(columns);
    ones.pop();
    ones.push('\n');
    let mut input = format!("7 {columns}\n");
    for _ in 0..7 {
        input.push_str(&ones);
    }
    input.push_str("\n1 1\n1\n");
    let (out, err, code) = cover(&["exact"], input.as_bytes());
    assert_eq!((out.as_str(), code), ("invalid\n1\n", 2), "{err}");
    assert!(
        err.starts_with("cover: <stdin>:8: the problem is too large: more than 16777216 nodes"),
        "{err}"
    );
}
