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
use cover_check::radar::check_json_output;

use super::runner::{exit_family, first_fault, Check, Env, Fixture, Run};

/// The `radar` family.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    exit_family(env, "radar", &valid_checks)
}

/// A valid input's checks: every JSON answer checked on its own.
fn valid_checks(fx: &mut Fixture, input: &Path, expected: &Result<String, String>) {
    let path = input.to_string_lossy().into_owned();
    let input = std::fs::read_to_string(input).map_err(|e| e.to_string());
    let answers = |run: &Run| {
        let (input, expected) = (input.as_ref()?, expected.as_ref()?);
        first_fault(check_json_output(input, &run.stdout, expected))
    };
    fx.run(
        &["radar", "--json", &path],
        &[("answers checked", &answers)],
    );
}

#[cfg(test)]
mod tests {
    use cover_check::radar::{brute_force, is_rounded_root, read_cases, BRUTE_FORCE_STATIONS};

    use crate::verify::runner::listed_fixtures;

    #[test]
    fn the_manifest_lists_every_radar_fixture() {
        let (dir, rows) = listed_fixtures("radar");
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
