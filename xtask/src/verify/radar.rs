//! The `radar` family of `cargo xtask verify`: every input of
//! `fixtures/radar/` through `cover radar`, its standard output, exit
//! status and error lines against `fixtures/radar/expected.tsv`, and every
//! `--json` answer checked by `cover-check` without trusting the solver:
//! the input is read by its reader, the chosen stations (at most K) must
//! reach every city within the squared radius, the printed radius must be
//! its correctly rounded square root, and when a case has at most
//! [`cover_check::radar::BRUTE_FORCE_STATIONS`] stations a brute force over
//! every set of at most K stations must find the same squared radius (so
//! no smaller candidate works).

use std::path::Path;

use anyhow::Result;
use cover_check::radar::{check_record, read_cases};
use serde_json::Value;

use super::runner::{exit_family, Check, Env, Fixture, Run};

/// The `radar` family.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    exit_family(env, "radar", &valid_checks)
}

/// A valid input's checks: every JSON answer checked on its own.
fn valid_checks(fx: &mut Fixture, input: &Path, expected: &Result<String, String>) {
    let path = input.to_string_lossy().into_owned();
    let cases = std::fs::read_to_string(input)
        .map_err(|e| e.to_string())
        .and_then(|text| read_cases(&text));
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
            check_record(case, &record).map_err(|e| format!("case {}: {e}", k + 1))?;
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
    fx.run(
        &["radar", "--json", &path],
        &[("answers checked", &answers)],
    );
}

#[cfg(test)]
mod tests {
    use cover_check::manifest::read_exit_manifest;
    use cover_check::radar::{brute_force, is_rounded_root, BRUTE_FORCE_STATIONS};

    use super::*;

    #[test]
    fn the_manifest_lists_every_radar_fixture() {
        let dir = crate::paths::fixtures().join("radar");
        let rows = read_exit_manifest(&dir.join("expected.tsv")).unwrap();
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
            for (case, line) in read_cases(&text).unwrap().iter().zip(expected.lines()) {
                if case.stations.len() <= BRUTE_FORCE_STATIONS {
                    let best = brute_force(case).unwrap();
                    assert!(is_rounded_root(line, best), "{}: {line}", row.file);
                }
            }
        }
    }
}
