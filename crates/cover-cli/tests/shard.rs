//! End-to-end tests of `cover shard`: split, run and merge add up to the
//! serial search (counts against the fixtures' known counts and OEIS
//! A000170, nodes and updates against Knuth's and the serial `--stats`);
//! a merge with a result missing, doubled, or from another problem or
//! split fails and names the shard; `--remaining` gives back exactly the
//! shards to rerun; results are flushed one by one; and the whole
//! pipeline runs through GNU parallel.

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cover_check::manifest::read_manifest;
use serde_json::Value;
use support::{assert_contains_all, cover, file, json_lines};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/exact")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

/// The known answers of `fixtures/exact/expected.tsv` for `name`, by
/// `cover-check`'s reader: solutions, and Knuth's nodes and updates where
/// the file gives them.
fn expected(name: &str) -> (u64, Option<u64>, Option<u64>) {
    let rows = read_manifest(Path::new(&fixture("expected.tsv"))).unwrap();
    let row = rows
        .into_iter()
        .find(|r| r.file == name)
        .unwrap_or_else(|| panic!("{name} is in expected.tsv"));
    let first = |list: Option<Vec<u64>>| list.map(|l| l[0]);
    (row.solutions[0], first(row.nodes), first(row.updates))
}

/// `cover shard split` of `problem` (arguments naming it) into at least
/// `shards`: its lines.
fn split(problem: &[&str], shards: usize) -> String {
    let shards = shards.to_string();
    let mut args = vec!["shard", "split", "--shards", &shards];
    args.extend_from_slice(problem);
    let (out, err, code) = cover(&args, b"");
    assert_eq!(code, 0, "{err}");
    out
}

/// `cover shard run` of `shards` for `problem`: the result lines.
fn run(problem: &[&str], shards: &str, jobs: &str) -> String {
    let mut args = vec!["shard", "run", "-j", jobs];
    args.extend_from_slice(problem);
    let (out, err, code) = cover(&args, shards.as_bytes());
    assert_eq!(code, 0, "{err}");
    out
}

/// `cover shard merge --json` of `results`: (exit code, the total, stderr).
fn merge(results: &str) -> (i32, Option<Value>, String) {
    let (out, err, code) = cover(&["shard", "merge", "--json"], results.as_bytes());
    let total = json_lines(&out).into_iter().next();
    (code, total, err)
}

/// The serial search's count, nodes and updates (`cover exact --count`
/// on one thread).
fn serial(problem: &str) -> (u64, u64, u64) {
    let (out, err, code) = cover(&["exact", "--count", "--json", "-j", "1", problem], b"");
    assert!(code <= 1, "{err}");
    let record = &json_lines(&out)[0];
    (
        record["count"].as_u64().unwrap(),
        record["nodes"].as_u64().unwrap(),
        record["updates"].as_u64().unwrap(),
    )
}

fn totals(total: &Value) -> (u64, u64, u64) {
    (
        total["count"].as_u64().unwrap(),
        total["nodes"].as_u64().unwrap(),
        total["updates"].as_u64().unwrap(),
    )
}

#[test]
fn merged_shards_equal_the_serial_search() {
    // Exact cover, a matrix, colours, multiplicities.
    for name in [
        "queens8.dlx",
        "langford8.dlx",
        "wordsquare3_a3_w12.dlx",
        "matrix_knuth.txt",
        "xcc_random1.dlx",
        "mcc_random1.dlx",
        "twoqueens5.dlx",
    ] {
        let path = fixture(name);
        let (count, knuth_nodes, knuth_updates) = expected(name);
        let (serial_count, nodes, updates) = serial(&path);
        assert_eq!(serial_count, count, "{name}");
        if let (Some(k_nodes), Some(k_updates)) = (knuth_nodes, knuth_updates) {
            assert_eq!((nodes, updates), (k_nodes, k_updates), "{name}");
        }
        for shards in [1, 7, 60] {
            let lines = split(&[&path], shards);
            let parsed = json_lines(&lines);
            // Shard 0 is the top; at least `shards` others unless the tree
            // is too small to cut that fine.
            assert_eq!(parsed[0]["shard"], 0);
            assert!(parsed[0]["top"].is_array());
            for (k, line) in parsed.iter().enumerate() {
                assert_eq!(line["shard"].as_u64(), Some(k as u64));
                assert_eq!(line["of"].as_u64(), Some(parsed.len() as u64));
            }
            let cut = parsed.len() - 1;
            assert!(
                cut >= shards || (nodes as usize) < 4 * shards,
                "{name}: {cut} shards"
            );
            for jobs in ["1", "2"] {
                let results = run(&[&path], &lines, jobs);
                let numbers: Vec<u64> = json_lines(&results)
                    .iter()
                    .map(|r| r["shard"].as_u64().unwrap())
                    .collect();
                assert_eq!(
                    numbers,
                    (0..parsed.len() as u64).collect::<Vec<_>>(),
                    "in order"
                );
                let (code, total, err) = merge(&results);
                let total = total.unwrap_or_else(|| panic!("{name}: {err}"));
                assert_eq!(code, i32::from(count == 0), "{err}");
                assert_eq!(
                    totals(&total),
                    (count, nodes, updates),
                    "{name}, {shards} shards"
                );
            }
        }
    }
}

#[test]
fn queens_shards_count_a000170() {
    let lines = split(&["--queens", "10"], 200);
    let results = run(&["--queens", "10"], &lines, "2");
    let (code, total, err) = merge(&results);
    assert_eq!(code, 0, "{err}");
    let (out, _, _) = cover(&["queens", "--count", "--json", "-j", "1", "10"], b"");
    let queens = &json_lines(&out)[0];
    let total = total.unwrap();
    assert_eq!(total["count"], 724);
    assert_eq!(total["nodes"], queens["nodes"]);
    assert_eq!(total["updates"], queens["updates"]);
    // The text output is the count alone.
    let (out, _, code) = cover(&["shard", "merge"], results.as_bytes());
    assert_eq!((out.as_str(), code), ("724\n", 0));
}

#[test]
fn the_same_seed_makes_the_same_split() {
    let a = split(&["--queens", "9"], 50);
    assert_eq!(a, split(&["--queens", "9"], 50));
    let (b, _, _) = cover(
        &[
            "shard", "split", "--shards", "50", "--seed", "7", "--queens", "9",
        ],
        b"",
    );
    let plan = |lines: &str| json_lines(lines)[0]["plan"].clone();
    assert_ne!(plan(&a), plan(&b), "another seed, another plan");
    // Both are of the same problem.
    assert_eq!(json_lines(&a)[0]["digest"], json_lines(&b)[0]["digest"]);
}

/// The result lines of queens 8 cut into 20 shards, and the shard lines.
/// Gives a result line the check of its fields as they now are, as `run`
/// would have written it: a genuine result, for the tests of what `merge`
/// does with results that pass their check.
fn recheck(line: &mut Value) {
    let number = |field: &str| line[field].as_u64().unwrap_or(0);
    let mut stats = dlx_core::Stats::default();
    stats.solutions = number("count");
    stats.nodes = number("nodes");
    stats.updates = number("updates");
    stats.cleansings = number("cleansings");
    let micros = (line["seconds"].as_f64().unwrap() * 1e6).round() as u64;
    let check = dlx_core::result_check(
        line["digest"].as_str().unwrap(),
        line["plan"].as_str().unwrap(),
        number("shard"),
        number("of"),
        &stats,
        micros,
    );
    line["check"] = Value::String(check);
}

fn queens8() -> (Vec<String>, String) {
    let shards = split(&["--queens", "8"], 20);
    let results = run(&["--queens", "8"], &shards, "2");
    (results.lines().map(str::to_owned).collect(), shards)
}

#[test]
fn a_missing_result_is_named() {
    let (results, _) = queens8();
    let mut kept = results.clone();
    kept.remove(5);
    kept.remove(11);
    let (code, total, err) = merge(&(kept.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none(), "no total of a partial merge");
    assert!(
        err.contains(&format!(
            "2 of {} shards have no result: 5, 12",
            results.len()
        )),
        "{err}"
    );
}

#[test]
fn a_doubled_result_is_named() {
    let (mut results, _) = queens8();
    results.push(results[3].clone());
    let at = results.len();
    let (code, total, err) = merge(&(results.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none());
    assert!(
        err.contains(&format!(
            "<stdin>:{at}: shard 3 doubled: its result is also at <stdin>:4\n"
        )),
        "{err}"
    );
    // A second run that disagrees is pointed out.
    let mut changed: Value = serde_json::from_str(&results[5]).unwrap();
    changed["count"] = serde_json::json!(changed["count"].as_u64().unwrap() + 1);
    recheck(&mut changed);
    results.push(changed.to_string());
    let at = results.len();
    let (code, _, err) = merge(&(results.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "<stdin>:{at}: shard 5 doubled: its result is also at <stdin>:6, and the two differ"
        )),
        "{err}"
    );
}

#[test]
fn results_of_another_problem_or_split_are_named() {
    let (mut results, _) = queens8();
    // Shard 2 of another problem.
    let other = run(&["--queens", "9"], &split(&["--queens", "9"], 20), "1");
    results[2] = other.lines().nth(2).unwrap().to_owned();
    // Shard 4 of another split of the same problem.
    let (reseeded, _, _) = cover(
        &[
            "shard", "split", "--shards", "20", "--seed", "9", "--queens", "8",
        ],
        b"",
    );
    let other_split = run(&["--queens", "8"], &reseeded, "1");
    results[4] = other_split.lines().nth(4).unwrap().to_owned();
    let (code, total, err) = merge(&(results.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none());
    assert_contains_all(
        &err,
        &[
            "<stdin>:3: shard 2 is from another problem",
            "<stdin>:5: shard 4 is from another split of the problem",
            // ... and so they are missing from this split.
            "have no result: 2, 4",
        ],
    );
}

/// A result whose count, nodes, updates, shard number or time was changed
/// after `run` wrote it, or that has no check, fails its check: named
/// with its file and line, and no total is printed; the genuine set
/// merges.
#[test]
fn doctored_results_are_refused() {
    let (results, _) = queens8();
    let (code, total, err) = merge(&(results.join("\n") + "\n"));
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(total.unwrap()["count"], 92);
    let doctor = |k: usize, field: &str, value: Value| {
        let mut line: Value = serde_json::from_str(&results[k]).unwrap();
        line[field] = value;
        line
    };
    let count = results[4].find("\"count\":").unwrap();
    let cases = [
        doctor(3, "count", serde_json::json!(1_000_082)),
        doctor(3, "nodes", serde_json::json!(1)),
        doctor(3, "updates", serde_json::json!(0)),
        doctor(3, "seconds", serde_json::json!(99.5)),
        // Shard 3's result given as shard 4's (whose own is dropped).
        doctor(3, "shard", serde_json::json!(4)),
        {
            let mut line = doctor(3, "check", Value::Null);
            line.as_object_mut().unwrap().remove("check");
            line
        },
    ];
    for (case, doctored) in cases.iter().enumerate() {
        let mut lines = results.clone();
        lines[3] = doctored.to_string();
        if case == 4 {
            lines.remove(4);
        }
        let (code, total, err) = merge(&(lines.join("\n") + "\n"));
        assert_eq!(code, 2, "{doctored}");
        assert!(total.is_none(), "{doctored}: no total");
        let shard = doctored["shard"].as_u64().unwrap();
        let want = if case == 5 {
            format!("<stdin>:4: shard {shard}: the result has no \"check\"")
        } else {
            format!("<stdin>:4: shard {shard}: the result's check does not match its other fields")
        };
        assert!(err.contains(&want), "{doctored}: {err}");
    }
    // A line cut short (here within its count) is no result line.
    let mut lines = results.clone();
    lines[4] = results[4][..count + 9].to_owned();
    let (code, total, err) = merge(&(lines.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none());
    assert!(err.contains("<stdin>:5: not a result line"), "{err}");
    // `forecast` refuses them too.
    let (_, shards) = queens8();
    let shard_file = file("doctored.shards.jsonl", shards.as_bytes());
    let mut lines = results.clone();
    lines[3] = cases[0].to_string();
    let (_, err, code) = cover(
        &["shard", "forecast", &shard_file],
        (lines.join("\n") + "\n").as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:4: shard 3: the result's check does not match"),
        "{err}"
    );
}

#[test]
fn broken_result_lines_are_named_and_the_rest_merged() {
    let (mut results, _) = queens8();
    results.insert(7, "{\"shard\":7,\"of\"".to_owned());
    results.insert(9, "\u{0}\u{1}binary".to_owned());
    let (code, total, err) = merge(&(results.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none());
    assert!(err.contains("<stdin>:8: not a result line"), "{err}");
    assert!(err.contains("<stdin>:10: not a result line"), "{err}");
    assert!(
        !err.contains("have no result"),
        "every shard is there: {err}"
    );
    let (_, err, code) = cover(&["shard", "merge"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("no results"), "{err}");
}

#[test]
fn remaining_gives_back_the_shards_to_rerun() {
    let (results, shards) = queens8();
    let shard_file = file("queens8.shards.jsonl", shards.as_bytes());
    let partial: Vec<String> = results
        .iter()
        .enumerate()
        .filter(|(k, _)| ![0, 6, results.len() - 1].contains(k))
        .map(|(_, r)| r.clone())
        .collect();
    let partial = partial.join("\n") + "\n";
    let (todo, err, code) = cover(
        &["shard", "merge", "--remaining", &shard_file],
        partial.as_bytes(),
    );
    assert_eq!(code, 1, "shards remain: {err}");
    assert!(
        err.contains(&format!("3 of {} shards still to run", results.len())),
        "{err}"
    );
    // Exactly those lines of the shard file, as they were.
    let lines: Vec<&str> = shards.lines().collect();
    assert_eq!(
        todo,
        format!("{}\n{}\n{}\n", lines[0], lines[6], lines[results.len() - 1])
    );
    // Run them, and the merge is whole.
    let rerun = run(&["--queens", "8"], &todo, "1");
    let (code, total, err) = merge(&(partial.clone() + &rerun));
    assert_eq!(code, 0, "{err}");
    assert_eq!(total.unwrap()["count"], 92);
    let (todo, _, code) = cover(
        &["shard", "merge", "--remaining", &shard_file],
        (partial + &rerun).as_bytes(),
    );
    assert_eq!((todo.as_str(), code), ("", 0));
}

#[test]
fn run_names_bad_shard_lines_and_answers_the_others() {
    let shards = split(&["--queens", "8"], 10);
    let mut lines: Vec<String> = shards.lines().map(str::to_owned).collect();
    let good = lines.len();
    let mut bad_option: Value = serde_json::from_str(&lines[2]).unwrap();
    bad_option["prefixes"] = serde_json::json!([[0, 99999]]);
    lines.insert(3, bad_option.to_string());
    // A line altered on its way: another option in a prefix.
    let mut altered: Value = serde_json::from_str(&lines[1]).unwrap();
    let first = altered["prefixes"][0][0].as_u64().unwrap();
    altered["prefixes"][0][0] = serde_json::json!(first + 1);
    // A closed item (null) in a problem without multiplicities.
    let mut closed: Value = serde_json::from_str(&lines[1]).unwrap();
    closed["prefixes"][0][0] = Value::Null;
    lines.insert(5, "not json".to_owned());
    lines.insert(6, String::new());
    let foreign = split(&["--queens", "9"], 3);
    lines.insert(8, foreign.lines().nth(1).unwrap().to_owned());
    lines.insert(9, altered.to_string());
    lines.insert(10, closed.to_string());
    let (out, err, code) = cover(
        &["shard", "run", "--queens", "8"],
        (lines.join("\n") + "\n").as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:4: shard 2: option 99999 does not exist"),
        "{err}"
    );
    assert!(err.contains("<stdin>:6: not a shard line"), "{err}");
    assert!(
        err.contains("<stdin>:9: shard 1 is from another problem"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:10: shard 1: its check does not match"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:11: shard 1: null (an item closed) in a problem without"),
        "{err}"
    );
    // Every good line answered, in order.
    let numbers: Vec<u64> = json_lines(&out)
        .iter()
        .map(|r| r["shard"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (0..good as u64).collect::<Vec<_>>());
    // The problem given as a file: its shards do not run on another one.
    let (_, err, code) = cover(
        &["shard", "run", &fixture("queens8.dlx")],
        shards.as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("is from another problem"), "{err}");
}

#[test]
fn run_without_the_problem_file_says_so() {
    let shards = split(&[&fixture("queens8.dlx")], 10);
    let shard_file = file("q8-shards-only.jsonl", shards.as_bytes());
    let results = run(&[&fixture("queens8.dlx")], &shards, "1");
    let result_file = file("q8-results-only.jsonl", results.as_bytes());
    // The shard file where the problem belongs: alone, before the problem,
    // or a result file in its place.
    for args in [
        vec!["shard", "run", &shard_file],
        vec!["shard", "run", &shard_file, &fixture("queens8.dlx")],
        vec!["shard", "run", &result_file, &shard_file],
        vec!["shard", "split", &shard_file],
    ] {
        let (out, err, code) = cover(&args, shards.as_bytes());
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let first = if args[2] == result_file {
            &result_file
        } else {
            &shard_file
        };
        assert_contains_all(
            &err,
            &[
                &format!("cover: {first}:1: "),
                "not a problem",
                "PROBLEM",
                "--queens N",
            ],
        );
        assert!(!err.contains("colour"), "{err}");
    }
}

#[test]
fn shards_of_another_problem_are_said_once() {
    let shards = split(&[&fixture("queens8.dlx")], 10);
    let count = shards.lines().count();
    assert!(count > 5);
    let shard_file = file("q8-shards-foreign.jsonl", shards.as_bytes());
    let other = fixture("langford7.dlx");
    // Every line of two files, from standard input and a file: one message.
    let (out, err, code) = cover(
        &["shard", "run", &other, "-", &shard_file],
        shards.as_bytes(),
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains_all(
        &err,
        &[
            "cover: <stdin>:1: shard 0 is from another problem",
            "langford7.dlx",
            "pass the problem file the plan was made from",
        ],
    );
    // Lines of the right problem among them are still answered.
    let mine = split(&[&other], 3);
    let mixed = format!("{shards}{mine}");
    let (out, err, code) = cover(&["shard", "run", &other], mixed.as_bytes());
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(json_lines(&out).len(), mine.lines().count(), "{out}");
}

#[test]
fn split_refuses_what_is_not_one_problem() {
    let two = file("two.txt", b"1 1\n1\n1 1\n1\n");
    let (out, err, code) = cover(&["shard", "split", &two], b"");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains(":3: a second problem"), "{err}");
    let (_, err, code) = cover(&["shard", "split", "-"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("no problem"), "{err}");
    let (_, err, code) = cover(&["shard", "split", "/nonexistent/x.dlx"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.dlx"), "{err}");
    let (_, err, code) = cover(&["shard", "split", "-"], b"a b\nc\n");
    assert_eq!(code, 2);
    assert!(err.contains("<stdin>:2:"), "{err}");
    let (_, _, code) = cover(&["shard", "split", "--shards", "0", "--queens", "4"], b"");
    assert_eq!(code, 2);
    // A problem without solutions splits and merges to 0 (exit 1).
    let lines = split(&["--queens", "3"], 5);
    let (code, total, _) = merge(&run(&["--queens", "3"], &lines, "1"));
    assert_eq!(code, 1);
    assert_eq!(total.unwrap()["count"], 0);
}

#[test]
fn results_are_written_as_each_shard_finishes() {
    // One shard line in, its result out, while the input is still open:
    // a job killed later keeps what it finished.
    let shards = split(&["--queens", "8"], 10);
    let mut child = Command::new(env!("CARGO_BIN_EXE_cover"))
        .args(["shard", "run", "-j", "1", "--queens", "8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    for line in shards.lines().take(3) {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut result = String::new();
        stdout.read_line(&mut result).unwrap();
        let result: Value = serde_json::from_str(&result).unwrap();
        seen.push(result["shard"].as_u64().unwrap());
    }
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(seen, [0, 1, 2]);
}

#[test]
fn a_forecast_from_every_shard_is_the_sum() {
    let (results, shards) = queens8();
    let shard_file = file("queens8.forecast.jsonl", shards.as_bytes());
    let (out, err, code) = cover(
        &["shard", "forecast", "--json", "--workers", "4", &shard_file],
        (results.join("\n") + "\n").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let forecast = &json_lines(&out)[0];
    // Every shard sampled: the forecast is what they took, with no error.
    assert_eq!(forecast["sampled"].as_u64(), Some(results.len() as u64 - 1));
    assert_eq!(forecast["solutions"].as_f64(), Some(92.0));
    assert_eq!(forecast["solutions_error"].as_f64(), Some(0.0));
    let seconds: f64 = results
        .iter()
        .skip(1)
        .map(|r| {
            serde_json::from_str::<Value>(r).unwrap()["seconds"]
                .as_f64()
                .unwrap()
        })
        .sum();
    let total = forecast["total_seconds"].as_f64().unwrap();
    assert!(
        (total - seconds).abs() <= 1e-9 * seconds.max(1.0),
        "{total} {seconds}"
    );
    // Too small a sample is refused.
    let (_, err, code) = cover(&["shard", "forecast", &shard_file], results[3].as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("at least 2 shards"), "{err}");
}

/// Whether GNU parallel is here (if not, says the test skips); CI (`.ci/run`) installs it and sets
/// `COVER_REQUIRE_PARALLEL`, so there the test cannot be skipped.
fn gnu_parallel() -> bool {
    let found = Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU parallel")
        });
    if !found && std::env::var_os("COVER_REQUIRE_PARALLEL").is_some() {
        panic!("COVER_REQUIRE_PARALLEL is set but GNU parallel is not installed");
    }
    if !found {
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
    }
    found
}

#[test]
fn gnu_parallel_runs_the_shards() {
    if !gnu_parallel() {
        return;
    }
    let cover_bin = env!("CARGO_BIN_EXE_cover");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shard-parallel");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let problem = fixture("langford8.dlx");
    let (count, nodes, updates) = expected("langford8.dlx");
    let shards = split(&[&problem], 40);
    let shard_file = dir.join("shards.jsonl");
    std::fs::write(&shard_file, &shards).unwrap();
    // As on a cluster: the shard lines piped to jobs of 3 shards each, 2
    // at a time, every job a process of its own.
    let results = Command::new("parallel")
        .args(["--will-cite", "--pipe", "-N", "3", "-j", "2"])
        .arg(cover_bin)
        .args(["shard", "run", "-j", "1", &problem])
        .stdin(std::fs::File::open(&shard_file).unwrap())
        .output()
        .unwrap();
    assert!(
        results.status.success(),
        "{}",
        String::from_utf8_lossy(&results.stderr)
    );
    let results = String::from_utf8(results.stdout).unwrap();
    let seen: BTreeSet<u64> = json_lines(&results)
        .iter()
        .map(|r| r["shard"].as_u64().unwrap())
        .collect();
    assert_eq!(seen.len(), shards.lines().count(), "every shard once");
    let (code, total, err) = merge(&results);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        totals(&total.unwrap()),
        (count, nodes.unwrap(), updates.unwrap())
    );
    // As a job array: one shard file per task, one result file per task.
    for (k, line) in shards.lines().enumerate() {
        std::fs::write(dir.join(format!("task{k:03}.jsonl")), format!("{line}\n")).unwrap();
    }
    let status = Command::new("parallel")
        .args(["--will-cite", "-j", "2"])
        .arg(format!(
            "{cover_bin} shard run -j 1 {problem} {{}} > {{.}}.result"
        ))
        .arg(":::")
        .args((0..shards.lines().count()).map(|k| dir.join(format!("task{k:03}.jsonl"))))
        .status()
        .unwrap();
    assert!(status.success());
    let mut merged = Command::new(cover_bin);
    merged.args(["shard", "merge"]);
    for k in 0..shards.lines().count() {
        merged.arg(dir.join(format!("task{k:03}.result")));
    }
    let merged = merged.output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        format!("{count}\n"),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
}

/// A folder of its own for a test, empty, with the problem in it as
/// `problem.dlx`, and a PATH on which `cover` is the binary under test.
fn workdir(name: &str, problem: &str) -> (PathBuf, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture(problem), dir.join("problem.dlx")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_cover")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (dir, path)
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/shard")
        .join(name)
}

#[test]
fn the_slurm_example_runs_as_its_comments_say() {
    // Each array task run by hand, as sbatch would, with its task id.
    let (dir, path) = workdir("shard-slurm", "langford8.dlx");
    let sh = |script: &str| {
        let status = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(&dir)
            .env("PATH", &path)
            .status()
            .unwrap();
        assert!(status.success(), "{script}");
    };
    sh("cover shard split --shards 30 problem.dlx > shards.jsonl \
        && mkdir -p tasks results logs \
        && split -n l/4 -d -a 3 shards.jsonl tasks/task.");
    for task in 0..4 {
        let status = Command::new("bash")
            .arg(example("slurm.sbatch"))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .status()
            .unwrap();
        assert!(status.success(), "task {task}");
    }
    let merged = Command::new("bash")
        .arg("-c")
        .arg("cover shard merge results/*.jsonl")
        .current_dir(&dir)
        .env("PATH", &path)
        .output()
        .unwrap();
    let (count, _, _) = expected("langford8.dlx");
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        format!("{count}\n")
    );
}

/// `examples/shard/hosts.sh problem.dlx 50` in `dir`, with `path` as PATH
/// and `hosts` as HOSTS.
fn run_hosts_example(dir: &Path, path: &str, hosts: &str) -> std::process::Output {
    Command::new("bash")
        .arg(example("hosts.sh"))
        .args(["problem.dlx", "50"])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOSTS", hosts)
        .output()
        .unwrap()
}

#[test]
fn the_hosts_example_runs_on_this_host() {
    if !gnu_parallel() {
        return;
    }
    // ":" is this machine for `parallel --sshlogin`: the script's loop,
    // its --remaining rerun check and its merge, without ssh.
    let (dir, path) = workdir("shard-hosts", "queens8.dlx");
    let output = run_hosts_example(&dir, &path, "2/:");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "92\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("search nodes:  975"), "{stderr}");
}

/// A `cover` in front of the real one on PATH whose `shard run` fails,
/// its input lost, the first `failures` times it is started (all of them
/// for `failures` = 1000), as a job killed on a host would.
fn failing_cover(dir: &Path, failures: u32) -> String {
    let bin = dir.join("flaky-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let real = env!("CARGO_BIN_EXE_cover");
    let script = format!(
        "#!/usr/bin/env bash\n\
         count=$(cat '{dir}/failed' 2>/dev/null || echo 0)\n\
         if [ \"$1 $2\" = 'shard run' ] && [ \"$count\" -lt {failures} ]; then\n\
           echo $((count + 1)) > '{dir}/failed'\n\
           cat > /dev/null\n\
           exit 1\n\
         fi\n\
         exec '{real}' \"$@\"\n",
        dir = dir.display()
    );
    let path = bin.join("cover");
    std::fs::write(&path, script).unwrap();
    let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    assert!(status.success());
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn the_hosts_example_reruns_what_failed_and_stops_when_nothing_moves() {
    if !gnu_parallel() {
        return;
    }
    // One job of the first round fails: its shards are rerun, and the
    // count is whole.
    let (dir, _) = workdir("shard-hosts-rerun", "queens8.dlx");
    let path = failing_cover(&dir, 1);
    let output = run_hosts_example(&dir, &path, "1/:");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("rerunning"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "92\n");
    // Every job fails: the loop ends, with exit 1, rather than spin.
    let (dir, _) = workdir("shard-hosts-stuck", "queens8.dlx");
    let path = failing_cover(&dir, 1000);
    let output = run_hosts_example(&dir, &path, "1/:");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("fail every time"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// A small seeded generator, for the mutations below.
struct Mutator(u64);

impl Mutator {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    /// `lines` with a few lines cut, doubled, swapped, or with bytes
    /// changed, numbers made huge or negative, fields dropped.
    fn mutate(&mut self, lines: &[String]) -> Vec<u8> {
        let mut lines: Vec<Vec<u8>> = lines.iter().map(|l| l.clone().into_bytes()).collect();
        for _ in 0..1 + self.below(4) {
            let k = self.below(lines.len());
            let line = &mut lines[k];
            match self.below(9) {
                0 => line.truncate(self.below(line.len() + 1)),
                1 => {
                    let at = self.below(line.len());
                    line[at] = self.below(256) as u8;
                }
                2 => {
                    let copy = line.clone();
                    lines.insert(self.below(lines.len() + 1), copy);
                }
                3 => {
                    let j = self.below(lines.len());
                    lines.swap(k, j);
                }
                4 | 5 => {
                    // A number replaced by an odd one.
                    let text = String::from_utf8_lossy(line).into_owned();
                    let odd = [
                        "18446744073709551616",
                        "-1",
                        "1e308",
                        "0",
                        "4294967295",
                        "null",
                        "\"7\"",
                    ];
                    let digits: Vec<usize> = text
                        .char_indices()
                        .filter(|(_, c)| c.is_ascii_digit())
                        .map(|(i, _)| i)
                        .collect();
                    if !digits.is_empty() {
                        let at = digits[self.below(digits.len())];
                        let end = text[at..]
                            .find(|c: char| !c.is_ascii_digit())
                            .map_or(text.len(), |e| at + e);
                        *line = format!(
                            "{}{}{}",
                            &text[..at],
                            odd[self.below(odd.len())],
                            &text[end..]
                        )
                        .into_bytes();
                    }
                }
                6 => {
                    let fields = [
                        "\"shard\":",
                        "\"of\":",
                        "\"digest\":",
                        "\"plan\":",
                        "\"prefixes\":",
                        "\"top\":",
                        "\"count\":",
                    ];
                    let text = String::from_utf8_lossy(line).into_owned();
                    let field = fields[self.below(fields.len())];
                    *line = text.replacen(field, "\"x\":", 1).into_bytes();
                }
                7 => line.extend_from_slice(b"\r"),
                _ => lines.remove(k).clear(),
            }
            if lines.is_empty() {
                break;
            }
        }
        let mut out = Vec::new();
        for line in lines {
            out.extend_from_slice(&line);
            out.push(b'\n');
        }
        out
    }
}

/// Every run ends cleanly: exit 0, 1 or 2, diagnostics as `cover: ...`,
/// standard output JSON lines (or the count), never a panic (`cover`
/// asserts that).
fn clean(args: &[&str], input: &[u8], json_out: bool) {
    let (out, err, code) = cover(args, input);
    assert!(code <= 2, "{args:?}: exit {code}");
    for line in err.lines() {
        assert!(line.starts_with("cover: "), "{args:?}: {line:?}");
    }
    if json_out {
        for line in out.lines() {
            serde_json::from_str::<Value>(line)
                .unwrap_or_else(|e| panic!("{args:?}: {line:?}: {e}"));
        }
    }
}

#[test]
fn mutated_shard_and_result_lines_end_cleanly() {
    let shards = split(&["--queens", "6"], 12);
    let shard_lines: Vec<String> = shards.lines().map(str::to_owned).collect();
    let results = run(&["--queens", "6"], &shards, "1");
    let result_lines: Vec<String> = results.lines().map(str::to_owned).collect();
    let shard_file = file("queens6.mutated.jsonl", shards.as_bytes());
    let mut mutator = Mutator(0x5eed_cafe);
    for _ in 0..150 {
        let input = mutator.mutate(&shard_lines);
        clean(&["shard", "run", "-j", "2", "--queens", "6"], &input, true);
        let input = mutator.mutate(&result_lines);
        clean(&["shard", "merge", "--json"], &input, true);
        clean(
            &["shard", "merge", "--remaining", &shard_file],
            &input,
            true,
        );
        clean(&["shard", "forecast", &shard_file], &input, false);
        // A mutated split file, with good results.
        let split_file = file("queens6.mutated-split.jsonl", &mutator.mutate(&shard_lines));
        clean(
            &["shard", "merge", "--remaining", &split_file],
            results.as_bytes(),
            true,
        );
    }
    // A problem with multiplicities, whose prefixes may close items (null).
    let mcc = fixture("mcc_random1.dlx");
    let mcc_lines: Vec<String> = split(&[&mcc], 12).lines().map(str::to_owned).collect();
    for _ in 0..50 {
        let input = mutator.mutate(&mcc_lines);
        clean(&["shard", "run", "-j", "2", &mcc], &input, true);
    }
}

#[test]
fn the_fuzzers_shard_fixtures_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/shard");
    let shards = std::fs::read_to_string(dir.join("queens6.shards.jsonl")).unwrap();
    assert_eq!(
        shards,
        split(&["--queens", "6"], 12),
        "regenerate fixtures/shard/ as its README says"
    );
    let results = std::fs::read_to_string(dir.join("queens6.results.jsonl")).unwrap();
    let (code, total, err) = merge(&results);
    assert_eq!(code, 0, "{err}");
    assert_eq!(total.unwrap()["count"], 4);
}

#[test]
fn a_prefix_that_leads_nowhere_is_named_not_counted() {
    // A line with a good check whose prefix is no node of the search (two
    // queens on one rank), as a plan of another version might hold: named,
    // no result, exit 2; the other lines still answered.
    let shards = split(&["--queens", "6"], 5);
    let mut line: Value = serde_json::from_str(shards.lines().nth(1).unwrap()).unwrap();
    let plan = line["plan"].as_str().unwrap().to_owned();
    line["prefixes"] = serde_json::json!([[0, 1]]);
    line["check"] = Value::String(dlx_core::shard_check(&plan, 1, false, &[vec![0, 1]]));
    let mut lines: Vec<String> = shards.lines().map(str::to_owned).collect();
    lines[1] = line.to_string();
    let (out, err, code) = cover(
        &["shard", "run", "--queens", "6", "--stats"],
        (lines.join("\n") + "\n").as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "<stdin>:2: shard 1: prefix 0 (from 0) is not a node of this problem's search"
        ),
        "{err}"
    );
    assert!(err.contains("1 invalid"), "{err}");
    let numbers: Vec<u64> = json_lines(&out)
        .iter()
        .map(|r| r["shard"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = (0..lines.len() as u64).filter(|&k| k != 1).collect();
    assert_eq!(numbers, expected);
}

#[test]
fn merge_is_bounded_by_what_it_reads() {
    let (results, _) = queens8();
    let mut big: Value = serde_json::from_str(&results[1]).unwrap();
    // Counts that overflow the total are named, not wrapped.
    big["count"] = serde_json::json!(u64::MAX);
    recheck(&mut big);
    let mut lines = results.clone();
    lines[1] = big.to_string();
    lines[2] = {
        let mut other: Value = serde_json::from_str(&results[2]).unwrap();
        other["count"] = serde_json::json!(u64::MAX);
        recheck(&mut other);
        other.to_string()
    };
    let (code, total, err) = merge(&(lines.join("\n") + "\n"));
    assert_eq!(code, 2);
    assert!(total.is_none());
    assert!(
        err.contains("<stdin>:3: shard 2: the counts overflow the total"),
        "{err}"
    );
    // One line claiming millions of shards: named as missing in a short
    // list, in a moment.
    let mut one: Value = serde_json::from_str(&results[0]).unwrap();
    one["of"] = serde_json::json!(8_000_000);
    recheck(&mut one);
    let (code, _, err) = merge(&format!("{one}\n"));
    assert_eq!(code, 2);
    assert!(
        err.contains("7999999 of 8000000 shards have no result: 1-7999999"),
        "{err}"
    );
    one["of"] = serde_json::json!(8_000_001);
    let (code, _, err) = merge(&format!("{one}\n"));
    assert_eq!(code, 2);
    assert!(err.contains("a split has at most 8000000 lines"), "{err}");
}
