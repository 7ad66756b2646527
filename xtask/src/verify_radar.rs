//! The `radar` family of `cargo xtask verify`: every input of
//! `fixtures/radar/` through `cover radar`, its standard output, exit
//! status and error lines against `fixtures/radar/expected.tsv`, and every
//! `--json` answer checked here without trusting the solver: the input is
//! read by the little reader below, the chosen stations (at most K) must
//! reach every city within the squared radius, the printed radius must be
//! its correctly rounded square root, and when a case has at most
//! [`BRUTE_FORCE_STATIONS`] stations a brute force over every set of at
//! most K stations must find the same squared radius (so no smaller
//! candidate works).

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::verify::{error_lines, run_checks, Check, Env, Run};

/// Cases with at most this many stations are solved again by brute force.
pub const BRUTE_FORCE_STATIONS: usize = 12;

/// One row of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RadarExpected {
    /// The input file, relative to `fixtures/radar/`.
    pub file: String,
    /// The exit status.
    pub exit: i32,
    /// The lines the error messages name.
    pub error_lines: Vec<usize>,
}

/// Reads `expected.tsv`: `#` comments, a header, then `file exit lines`.
pub fn read_radar_manifest(text: &str) -> Result<Vec<RadarExpected>> {
    let mut rows = Vec::new();
    let mut header = false;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !header {
            if line != "file\texit\terror_lines" {
                bail!(
                    "line {}: expected the header `file exit error_lines`",
                    number + 1
                );
            }
            header = true;
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let [file, exit, lines] = cells[..] else {
            bail!("line {}: expected 3 tab-separated columns", number + 1);
        };
        let error_lines = if lines == "-" {
            Vec::new()
        } else {
            lines
                .split(',')
                .map(|n| n.parse().with_context(|| format!("line {}", number + 1)))
                .collect::<Result<_>>()?
        };
        rows.push(RadarExpected {
            file: file.to_owned(),
            exit: exit
                .parse()
                .with_context(|| format!("line {}", number + 1))?,
            error_lines,
        });
    }
    Ok(rows)
}

/// A case as the checker reads it.
#[derive(Debug, Clone)]
pub struct RadarCase {
    /// City coordinates.
    pub cities: Vec<(i64, i64)>,
    /// Station coordinates.
    pub stations: Vec<(i64, i64)>,
    /// At most this many stations.
    pub k: usize,
}

/// Reads well-formed HDU 2295 input (the valid fixtures).
pub fn read_radar_cases(text: &str) -> Result<Vec<RadarCase>, String> {
    let mut words = text.split_whitespace();
    let mut number = || -> Result<i64, String> {
        let word = words.next().ok_or("the input ends early")?;
        word.parse()
            .map_err(|_| format!("{word:?} is not a number"))
    };
    let t = number()?;
    let mut cases = Vec::new();
    for _ in 0..t {
        let (n, m, k) = (number()?, number()?, number()?);
        let mut cities = Vec::new();
        for _ in 0..n {
            cities.push((number()?, number()?));
        }
        let mut stations = Vec::new();
        for _ in 0..m {
            stations.push((number()?, number()?));
        }
        cases.push(RadarCase {
            cities,
            stations,
            k: k as usize,
        });
    }
    Ok(cases)
}

fn squared(a: (i64, i64), b: (i64, i64)) -> u64 {
    let (dx, dy) = ((a.0 - b.0) as i128, (a.1 - b.1) as i128);
    (dx * dx + dy * dy) as u64
}

/// The squared radius that the stations `chosen` (0-based) need.
fn needed(case: &RadarCase, chosen: &[usize]) -> Option<u64> {
    case.cities
        .iter()
        .map(|&c| chosen.iter().map(|&s| squared(c, case.stations[s])).min())
        .try_fold(0, |worst, d| d.map(|d| worst.max(d)))
}

/// The smallest squared radius over every set of at most K stations.
pub fn brute_force(case: &RadarCase) -> Option<u64> {
    if case.cities.is_empty() {
        return Some(0);
    }
    let m = case.stations.len();
    (1u32..1 << m)
        .filter(|set| set.count_ones() as usize <= case.k)
        .filter_map(|set| {
            let chosen: Vec<usize> = (0..m).filter(|s| set >> s & 1 == 1).collect();
            needed(case, &chosen)
        })
        .min()
}

/// Whether `text` is sqrt(`squared`) rounded to 6 decimals: with `text`
/// = m / 10⁶, (2m - 1)² < 4 · squared · 10¹² < (2m + 1)².
pub fn is_rounded_root(text: &str, squared: u64) -> bool {
    let Some((whole, fraction)) = text.split_once('.') else {
        return false;
    };
    if fraction.len() != 6 {
        return false;
    }
    let Ok(micros) = format!("{whole}{fraction}").parse::<u128>() else {
        return false;
    };
    let target = 4 * u128::from(squared) * 1_000_000_000_000;
    let below = (2 * micros).saturating_sub(1).pow(2);
    let above = (2 * micros + 1).pow(2);
    (micros == 0 || below < target) && target < above
}

/// Checks one `--json` record of a valid case.
pub fn check_radar_record(case: &RadarCase, record: &Value) -> Result<(), String> {
    if case.stations.is_empty() && !case.cities.is_empty() {
        return match record["status"].as_str() {
            Some("no_solution") => Ok(()),
            other => Err(format!("cities and no station, but status {other:?}")),
        };
    }
    if record["status"] != "solved" {
        return Err(format!("status {}, expected \"solved\"", record["status"]));
    }
    let r2 = record["squared_radius"]
        .as_u64()
        .ok_or("no squared_radius")?;
    let text = record["radius_text"].as_str().ok_or("no radius_text")?;
    if !is_rounded_root(text, r2) {
        return Err(format!("{text} is not sqrt({r2}) rounded to 6 decimals"));
    }
    let stations: Vec<usize> = record["stations"]
        .as_array()
        .ok_or("no stations")?
        .iter()
        .map(|s| {
            s.as_u64()
                .map(|s| s as usize)
                .ok_or("a station is not a number")
        })
        .collect::<Result<_, _>>()?;
    if stations.len() > case.k {
        return Err(format!("{} stations, K = {}", stations.len(), case.k));
    }
    if stations.iter().any(|&s| s == 0 || s > case.stations.len()) {
        return Err(format!(
            "stations {stations:?} out of 1..={}",
            case.stations.len()
        ));
    }
    let chosen: Vec<usize> = stations.iter().map(|s| s - 1).collect();
    match needed(case, &chosen) {
        Some(need) if need <= r2 => {}
        _ => {
            return Err(format!(
                "stations {stations:?} leave a city beyond R² = {r2}"
            ))
        }
    }
    if case.stations.len() <= BRUTE_FORCE_STATIONS {
        let best = brute_force(case).ok_or("no set of stations works")?;
        if best != r2 {
            return Err(format!("R² = {r2}, but the smallest is {best}"));
        }
    }
    Ok(())
}

/// The `radar` family.
pub fn radar_checks(env: &Env) -> Result<Vec<Check>> {
    let dir = env.fixtures.join("radar");
    let manifest_path = dir.join("expected.tsv");
    let manifest = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("{}", manifest_path.display()))?;
    let rows = read_radar_manifest(&manifest)?;
    let mut checks = Vec::new();
    for row in rows {
        checks.extend(file_checks(env, &dir, &row));
    }
    Ok(checks)
}

fn file_checks(env: &Env, dir: &Path, row: &RadarExpected) -> Vec<Check> {
    let fixture = format!("radar/{}", row.file);
    let input = dir.join(&row.file);
    let path = input.to_string_lossy().into_owned();
    let expected = std::fs::read_to_string(input.with_extension("out"))
        .map_err(|e| format!("reading the expected output: {e}"));
    let same_output = |run: &Run| {
        let expected = expected.as_ref().map_err(String::clone)?;
        if run.stdout == *expected {
            Ok(())
        } else {
            Err(format!(
                "standard output differs: got {:?}, expected {:?}",
                snippet(&run.stdout),
                snippet(expected)
            ))
        }
    };
    let errors = |run: &Run| {
        let lines = error_lines(&run.stderr);
        if lines == row.error_lines {
            Ok(())
        } else {
            Err(format!(
                "errors name lines {lines:?}, expected {:?}",
                row.error_lines
            ))
        }
    };
    let mut checks = run_checks(
        env,
        &fixture,
        &["radar", &path],
        row.exit,
        &[("output", &same_output), ("error lines", &errors)],
    );
    if row.exit == 2 {
        return checks;
    }
    // Valid input: every JSON answer checked on its own.
    let cases = std::fs::read_to_string(&input)
        .map_err(|e| e.to_string())
        .and_then(|text| read_radar_cases(&text));
    let answers = |run: &Run| {
        let cases = cases.as_ref().map_err(String::clone)?;
        let expected = expected.as_ref().map_err(String::clone)?;
        let lines: Vec<&str> = run.stdout.lines().collect();
        if lines.len() != cases.len() {
            return Err(format!(
                "{} JSON lines for {} cases",
                lines.len(),
                cases.len()
            ));
        }
        for (k, ((case, line), text)) in cases.iter().zip(lines).zip(expected.lines()).enumerate() {
            let record: Value =
                serde_json::from_str(line).map_err(|e| format!("case {}: {e}", k + 1))?;
            check_radar_record(case, &record).map_err(|e| format!("case {}: {e}", k + 1))?;
            if record["status"] == "solved" && record["radius_text"] != text {
                return Err(format!(
                    "case {}: radius {}, expected {text}",
                    k + 1,
                    record["radius_text"]
                ));
            }
        }
        Ok(())
    };
    checks.extend(run_checks(
        env,
        &fixture,
        &["radar", "--json", &path],
        row.exit,
        &[("answers checked", &answers)],
    ));
    checks
}

fn snippet(text: &str) -> String {
    let mut short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RadarCase {
        RadarCase {
            cities: vec![(3, 4), (3, 1), (5, 4)],
            stations: vec![(1, 1), (2, 2), (3, 3)],
            k: 2,
        }
    }

    #[test]
    fn the_checker_accepts_the_sample_answer_and_rejects_wrong_ones() {
        let good = serde_json::json!({
            "status": "solved", "squared_radius": 5,
            "radius_text": "2.236068", "stations": [2, 3]
        });
        assert_eq!(check_radar_record(&sample(), &good), Ok(()));
        let wrong = [
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236067", "stations": [2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [1, 2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [1]}),
            serde_json::json!({"status": "solved", "squared_radius": 8,
                "radius_text": "2.828427", "stations": [2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [0, 4]}),
            serde_json::json!({"status": "no_solution"}),
        ];
        for record in wrong {
            assert!(
                check_radar_record(&sample(), &record).is_err(),
                "accepted {record}"
            );
        }
    }

    #[test]
    fn rounding_and_brute_force() {
        assert!(is_rounded_root("0.000000", 0));
        assert!(is_rounded_root("1.414214", 2));
        assert!(!is_rounded_root("1.414213", 2));
        assert!(!is_rounded_root("1.41421", 2));
        assert!(is_rounded_root(
            "2000000000.000000",
            4_000_000_000_000_000_000
        ));
        assert_eq!(brute_force(&sample()), Some(5));
    }

    #[test]
    fn the_manifest_lists_every_radar_fixture() {
        let dir = crate::fixtures::fixtures_dir().join("radar");
        let rows = read_radar_manifest(&std::fs::read_to_string(dir.join("expected.tsv")).unwrap())
            .unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".in") {
                assert!(rows.iter().any(|r| r.file == name), "{name} not listed");
                assert!(dir.join(name.replace(".in", ".out")).exists());
            }
        }
        // The valid fixtures' expected outputs agree with the brute force
        // wherever it is cheap.
        for row in rows.iter().filter(|r| r.exit == 0) {
            let text = std::fs::read_to_string(dir.join(&row.file)).unwrap();
            let expected =
                std::fs::read_to_string(dir.join(row.file.replace(".in", ".out"))).unwrap();
            for (case, line) in read_radar_cases(&text)
                .unwrap()
                .iter()
                .zip(expected.lines())
            {
                if case.stations.len() <= BRUTE_FORCE_STATIONS {
                    let best = brute_force(case).unwrap();
                    assert!(is_rounded_root(line, best), "{}: {line}", row.file);
                }
            }
        }
    }
}
