//! End-to-end tests of `cover radar`: the fixtures of `fixtures/radar/`
//! (exact output, exit status, the lines errors name), and every JSON
//! answer checked by a checker here that does not trust the solver: its
//! own reading of the input, the chosen stations really cover every city
//! within the radius, the printed radius is the correctly rounded square
//! root, and for small cases a brute force finds the same radius.

mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use support::{cover, file, json_lines};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/radar")
}

// ---------------------------------------------------------------------------
// An independent reading of the input and checks of the answers.

/// One case as the checker reads it: cities, stations, K.
#[derive(Debug, Clone)]
struct Case {
    cities: Vec<(i64, i64)>,
    stations: Vec<(i64, i64)>,
    k: usize,
}

/// Reads well-formed HDU 2295 input: T, then `N M K` and the points.
fn read_cases(text: &str) -> Vec<Case> {
    let mut numbers = text.split_whitespace().map(|w| w.parse::<i64>().unwrap());
    let t = numbers.next().unwrap_or(0);
    (0..t)
        .map(|_| {
            let (n, m, k) = (
                numbers.next().unwrap(),
                numbers.next().unwrap(),
                numbers.next().unwrap(),
            );
            let mut point = || (numbers.next().unwrap(), numbers.next().unwrap());
            let cities = (0..n).map(|_| point()).collect();
            let stations = (0..m).map(|_| point()).collect();
            Case {
                cities,
                stations,
                k: k as usize,
            }
        })
        .collect()
}

fn squared(a: (i64, i64), b: (i64, i64)) -> u64 {
    let (dx, dy) = ((a.0 - b.0) as i128, (a.1 - b.1) as i128);
    (dx * dx + dy * dy) as u64
}

/// The squared radius the stations `chosen` (0-based) need.
fn needed(case: &Case, chosen: &[usize]) -> u64 {
    case.cities
        .iter()
        .map(|&c| {
            chosen
                .iter()
                .map(|&s| squared(c, case.stations[s]))
                .min()
                .unwrap()
        })
        .max()
        .unwrap_or(0)
}

/// The smallest squared radius, over every set of at most K stations.
fn brute_force(case: &Case) -> u64 {
    if case.cities.is_empty() {
        return 0;
    }
    let m = case.stations.len();
    (1u32..1 << m)
        .filter(|set| set.count_ones() as usize <= case.k)
        .map(|set| {
            let chosen: Vec<usize> = (0..m).filter(|s| set >> s & 1 == 1).collect();
            needed(case, &chosen)
        })
        .min()
        .unwrap()
}

/// Whether `text` is sqrt(`squared`) correctly rounded to 6 decimals:
/// with `text` = m / 10⁶, |sqrt(squared) · 10⁶ - m| < ½, that is
/// (2m - 1)² < 4 · squared · 10¹² < (2m + 1)².
fn is_rounded_root(text: &str, squared: u64) -> bool {
    let (whole, fraction) = text.split_once('.').expect("a decimal point");
    assert_eq!(fraction.len(), 6, "6 decimals: {text}");
    let micros: u128 = format!("{whole}{fraction}").parse().unwrap();
    let target = 4 * u128::from(squared) * 1_000_000_000_000;
    let below = (2 * micros).saturating_sub(1).pow(2);
    let above = (2 * micros + 1).pow(2);
    (micros == 0 || below < target) && target < above
}

/// Checks one solved JSON record against its case; returns R².
fn check_record(case: &Case, record: &serde_json::Value) -> u64 {
    assert_eq!(record["status"], "solved", "{record}");
    let r2 = record["squared_radius"].as_u64().expect("squared_radius");
    let text = record["radius_text"].as_str().expect("radius_text");
    assert!(
        is_rounded_root(text, r2),
        "{text} is not sqrt({r2}) rounded"
    );
    let radius = record["radius"].as_f64().expect("radius");
    assert!((radius - text.parse::<f64>().unwrap()).abs() < 1e-9);
    let stations: Vec<usize> = record["stations"]
        .as_array()
        .expect("stations")
        .iter()
        .map(|s| s.as_u64().unwrap() as usize)
        .collect();
    assert!(stations.len() <= case.k, "more than K stations: {record}");
    assert!(stations.windows(2).all(|w| w[0] < w[1]), "ascending");
    assert!(stations
        .iter()
        .all(|&s| (1..=case.stations.len()).contains(&s)));
    let chosen: Vec<usize> = stations.iter().map(|s| s - 1).collect();
    if !case.cities.is_empty() {
        assert!(
            needed(case, &chosen) <= r2,
            "a city is out of reach: {record}"
        );
    }
    if case.stations.len() <= 12 {
        assert_eq!(brute_force(case), r2, "not the smallest radius: {record}");
    }
    r2
}

/// The rows of `fixtures/radar/expected.tsv`: (file, exit, error lines).
fn manifest() -> Vec<(String, i32, Vec<usize>)> {
    let text = std::fs::read_to_string(fixtures().join("expected.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 3, "{line:?}");
            let lines = if cells[2] == "-" {
                Vec::new()
            } else {
                cells[2].split(',').map(|n| n.parse().unwrap()).collect()
            };
            (cells[0].to_owned(), cells[1].parse().unwrap(), lines)
        })
        .collect()
}

/// The line numbers named by `cover: FILE:LINE:` messages.
fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("cover: "))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect()
}

// ---------------------------------------------------------------------------
// The fixtures.

#[test]
fn every_fixture_gives_its_output_exit_status_and_errors() {
    let rows = manifest();
    assert!(rows.len() >= 10);
    let listed: BTreeSet<String> = rows.iter().map(|r| r.0.clone()).collect();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".in") {
            assert!(listed.contains(&name), "{name} is not in expected.tsv");
        }
    }
    for (name, exit, lines) in rows {
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
        let cases = read_cases(&std::fs::read_to_string(&path).unwrap());
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let (stdout, stderr, code) = cover(&["radar", "--json", path.to_str().unwrap()], b"");
        assert_eq!(code, 0, "{name}: {stderr}");
        let records = json_lines(&stdout);
        assert_eq!(records.len(), cases.len(), "{name}");
        for ((k, (case, record)), line) in
            cases.iter().zip(&records).enumerate().zip(expected.lines())
        {
            assert_eq!(record["index"], k + 1);
            check_record(case, record);
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
    let (stdout, stderr, code) = cover(&["radar"], b"1\n1000000000 1000000000 5\n0 0\n");
    assert_eq!((stdout.as_str(), code), ("", 2));
    assert!(stderr.contains("<stdin>:2:"), "{stderr}");
    let (stdout, stderr, code) = cover(&["radar"], b"99999999999999999999999\n");
    assert_eq!((stdout.as_str(), code), ("", 2));
    assert!(stderr.contains("<stdin>:1:"), "{stderr}");
    // No input at all: nothing to answer.
    assert_eq!(cover(&["radar"], b""), (String::new(), String::new(), 0));
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
    assert!(
        stderr.contains("instances:     60 (60 answered"),
        "{stderr}"
    );
    assert!(stderr.contains("search nodes:"), "{stderr}");
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

#[test]
fn the_checker_rejects_wrong_answers() {
    let case = Case {
        cities: vec![(3, 4), (3, 1), (5, 4)],
        stations: vec![(1, 1), (2, 2), (3, 3)],
        k: 2,
    };
    let good = serde_json::json!({
        "status": "solved", "squared_radius": 5, "radius": 2.236068,
        "radius_text": "2.236068", "stations": [2, 3]
    });
    assert_eq!(check_record(&case, &good), 5);
    let mut bad_rounding = good.clone();
    bad_rounding["radius_text"] = "2.236067".into();
    bad_rounding["radius"] = 2.236067.into();
    let mut too_many = good.clone();
    too_many["stations"] = serde_json::json!([1, 2, 3]);
    let mut out_of_reach = good.clone();
    out_of_reach["stations"] = serde_json::json!([1]);
    let mut not_smallest = good.clone();
    not_smallest["squared_radius"] = 8.into();
    not_smallest["radius_text"] = "2.828427".into();
    not_smallest["radius"] = 2.828427.into();
    for bad in [bad_rounding, too_many, out_of_reach, not_smallest] {
        let result = std::panic::catch_unwind(|| check_record(&case, &bad));
        assert!(result.is_err(), "accepted {bad}");
    }
    assert!(is_rounded_root("0.000000", 0));
    assert!(is_rounded_root("1.414214", 2));
    assert!(!is_rounded_root("1.414213", 2));
}
