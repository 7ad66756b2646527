//! End-to-end tests of `cover radar`: the fixtures of `fixtures/radar/`
//! (exact output, exit status, the lines errors name), and every JSON
//! answer checked by `cover-check`, which does not trust the solver: its
//! own reading of the input, the chosen stations really cover every city
//! within the radius, the printed radius is the correctly rounded square
//! root, and for small cases a brute force finds the same radius.

mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use cover_check::error_lines;
use cover_check::manifest::{read_exit_manifest, ExitExpected};
use cover_check::radar::{check_record, read_cases, Case};
use support::{assert_contains_all, cover, file, json_lines};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/radar")
}

// ---------------------------------------------------------------------------
// The checks of the answers, beyond `cover-check`'s.

/// Checks one solved JSON record against its case with `cover-check`'s
/// checker, and that `radius` is `radius_text` and the stations ascend.
fn check_solved(case: &Case, record: &serde_json::Value) {
    assert_eq!(check_record(case, record), Ok(()), "{record}");
    assert_eq!(record["status"], "solved", "{record}");
    let text = record["radius_text"].as_str().expect("radius_text");
    let radius = record["radius"].as_f64().expect("radius");
    assert!((radius - text.parse::<f64>().unwrap()).abs() < 1e-9);
    let stations = record["stations"].as_array().expect("stations");
    let numbers: Vec<u64> = stations.iter().filter_map(|s| s.as_u64()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "ascending");
}

/// The rows of `fixtures/radar/expected.tsv`.
fn manifest() -> Vec<ExitExpected> {
    read_exit_manifest(&fixtures().join("expected.tsv")).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------
// The fixtures.

#[test]
fn every_fixture_gives_its_output_exit_status_and_errors() {
    let rows = manifest();
    assert!(rows.len() >= 10);
    let listed: BTreeSet<String> = rows.iter().map(|r| r.file.clone()).collect();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".in") {
            assert!(listed.contains(&name), "{name} is not in expected.tsv");
        }
    }
    for ExitExpected {
        file: name,
        exit,
        error_lines: lines,
    } in rows
    {
        let path = fixtures().join(&name);
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let (stdout, stderr, code) = cover(&["radar", path.to_str().unwrap()], b"");
        assert_eq!(stdout, expected, "{name}: standard output");
        assert_eq!(code, exit, "{name}: exit status; stderr: {stderr}");
        assert_eq!(error_lines(&stderr), lines, "{name}: {stderr}");
        for message in stderr.lines() {
            assert!(
                message.contains(&name),
                "{name}: the file is named: {message}"
            );
        }
    }
}

#[test]
fn every_json_answer_is_checked_independently() {
    for name in [
        "hdu2295_sample.in",
        "random_small.in",
        "edge_cases.in",
        "random_20x50.in",
    ] {
        let path = fixtures().join(name);
        let cases = read_cases(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let (stdout, stderr, code) = cover(&["radar", "--json", path.to_str().unwrap()], b"");
        assert_eq!(code, 0, "{name}: {stderr}");
        let records = json_lines(&stdout);
        assert_eq!(records.len(), cases.len(), "{name}");
        for ((k, (case, record)), line) in
            cases.iter().zip(&records).enumerate().zip(expected.lines())
        {
            assert_eq!(record["index"], k + 1);
            check_solved(case, record);
            assert_eq!(record["radius_text"], line, "{name} case {}", k + 1);
            assert!(record["probes"].as_u64().is_some());
            assert!(record["nodes"].as_u64().is_some());
        }
    }
}

#[test]
fn the_hdu_sample_from_standard_input() {
    let input = std::fs::read(fixtures().join("hdu2295_sample.in")).unwrap();
    let (stdout, _, code) = cover(&["radar"], &input);
    assert_eq!((stdout.as_str(), code), ("2.236068\n", 0));
    let (stdout, _, code) = cover(&["radar", "-"], &input);
    assert_eq!((stdout.as_str(), code), ("2.236068\n", 0));
}

#[test]
fn threads_and_probes_per_round_do_not_change_answers() {
    let path = fixtures().join("random_20x50.in");
    let path = path.to_str().unwrap();
    let (serial, _, _) = cover(&["radar", "-j", "1", "--probes", "1", path], b"");
    for probes in ["2", "3", "8"] {
        let (wide, _, code) = cover(&["radar", "-j", "2", "--probes", probes, path], b"");
        assert_eq!(
            (wide.as_str(), code),
            (serial.as_str(), 0),
            "--probes {probes}"
        );
    }
    assert!(cover(&["radar", "--probes", "0", path], b"").2 == 2);
}

#[test]
fn unanswerable_and_invalid_cases_in_json() {
    let input = b"3\n1 0 1\n0 0\n1 1 0\n0 0\n1 1\n1 1 1\n0 0\n3 4\n";
    let (stdout, stderr, code) = cover(&["radar", "--json"], input);
    assert_eq!(code, 2, "{stderr}");
    let records = json_lines(&stdout);
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["status"], "no_solution");
    assert!(records[0]["error"].as_str().unwrap().contains("no station"));
    assert_eq!(records[1]["status"], "invalid");
    assert_eq!(records[1]["line"], 4);
    assert_eq!(records[2]["status"], "solved");
    assert_eq!(records[2]["squared_radius"], 25);
    assert_eq!(records[2]["stations"], serde_json::json!([1]));
}

#[test]
fn huge_promises_fail_cleanly() {
    // The case stands as `invalid`.
    let (stdout, stderr, code) = cover(&["radar"], b"1\n1000000000 1000000000 5\n0 0\n");
    assert_eq!((stdout.as_str(), code), ("invalid\n", 2));
    assert!(stderr.contains("<stdin>:2:"), "{stderr}");
    let (stdout, stderr, code) = cover(&["radar"], b"99999999999999999999999\n");
    assert_eq!((stdout.as_str(), code), ("", 2));
    assert!(stderr.contains("<stdin>:1:"), "{stderr}");
    // No input at all: T, the header, is missing (`0` is no cases).
    let (stdout, stderr, code) = cover(&["radar"], b"");
    assert_eq!((stdout.as_str(), code), ("", 2));
    assert!(
        stderr.starts_with("cover: <stdin>:1: the input has no T"),
        "{stderr}"
    );
    assert_eq!(cover(&["radar"], b"0\n"), (String::new(), String::new(), 0));
}

#[test]
fn a_missing_file_is_an_io_error_and_the_next_file_is_read() {
    let sample = fixtures().join("hdu2295_sample.in");
    let (stdout, stderr, code) = cover(
        &["radar", "/nonexistent/radar.in", sample.to_str().unwrap()],
        b"",
    );
    assert_eq!((stdout.as_str(), code), ("2.236068\n", 2));
    assert!(stderr.contains("/nonexistent/radar.in"), "{stderr}");
}

#[test]
fn stats_summarise_the_run() {
    let path = fixtures().join("random_small.in");
    let (_, stderr, code) = cover(&["radar", "--stats", path.to_str().unwrap()], b"");
    assert_eq!(code, 0);
    assert_contains_all(
        &stderr,
        &["instances:     60 (60 answered", "search nodes:"],
    );
}

#[test]
fn svg_drawings_to_a_file_and_to_a_directory() {
    let sample = fixtures().join("hdu2295_sample.in");
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("radar-svg");
    let _ = std::fs::remove_dir_all(&target);
    let one = target.join("sample.svg");
    let (_, stderr, code) = cover(
        &[
            "radar",
            "--svg",
            one.to_str().unwrap(),
            sample.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(&one).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("R = 2.236068"));
    // Three cities, three stations, two circles (K = 2 stations operated).
    assert_eq!(svg.matches("r=\"3.5\"").count(), 3);
    assert_eq!(svg.matches("fill-opacity").count(), 2);
    // Many cases: one drawing each in a directory.
    let dir = target.join("all/");
    let cases = file(
        "radar-two.in",
        b"2\n1 1 1\n0 0\n3 4\n2 2 1\n0 0\n10 0\n5 0\n50 50\n",
    );
    let (stdout, stderr, code) = cover(&["radar", "--svg", dir.to_str().unwrap(), &cases], b"");
    assert_eq!(
        (stdout.as_str(), code),
        ("5.000000\n5.000000\n", 0),
        "{stderr}"
    );
    for k in 1..=2 {
        let path = dir.join(format!("radar-two-{k}.svg"));
        assert!(std::fs::read_to_string(&path).unwrap().contains("</svg>"));
    }
}
