//! The `target` family of `cargo xtask verify`: every input of
//! `fixtures/target/` through `cover target`, its standard output, exit
//! status and error lines against `fixtures/target/expected.tsv` (the
//! scores there come from the problem statement and the seed's program,
//! not from this project), and every grid that `--show` and `--json` print
//! checked by `cover-check` without trusting the solver: the input is read
//! by its reader, the grid must be a sudoku solution keeping every given,
//! and the score recomputed from it must be the one printed. A puzzle
//! answered -1 is searched again by its backtracking, which must find no
//! solution either.

use std::path::Path;

use anyhow::Result;
use cover_check::target::{check_answer, check_shown_output, read_puzzles, Cells};
use serde_json::Value;

use super::runner::{exit_family, first_fault, Check, Env, Fixture, Run};

/// The `target` family.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    exit_family(env, "target", &valid_checks)
}

/// A valid input's checks: every grid checked on its own.
fn valid_checks(fx: &mut Fixture, input: &Path, expected: &Result<String, String>) {
    let path = input.to_string_lossy().into_owned();
    let puzzles = std::fs::read_to_string(input)
        .map_err(|e| e.to_string())
        .and_then(|text| read_puzzles(&text));
    let with_expected = |count: usize| -> Result<(&Vec<Cells>, Vec<&str>), String> {
        let puzzles = puzzles.as_ref().map_err(String::clone)?;
        let expected: Vec<&str> = expected.as_ref().map_err(String::clone)?.lines().collect();
        if count != puzzles.len() || expected.len() != puzzles.len() {
            return Err(format!(
                "{count} answers, {} puzzles, {} expected scores",
                puzzles.len(),
                expected.len()
            ));
        }
        Ok((puzzles, expected))
    };
    let text = std::fs::read_to_string(input).map_err(|e| e.to_string());
    let shown = |run: &Run| {
        let (text, expected) = (text.as_ref()?, expected.as_ref()?);
        first_fault(check_shown_output(text, &run.stdout, expected))
    };
    fx.run(&["target", "--show", &path], &[("grids shown", &shown)]);
    let json = |run: &Run| {
        let lines: Vec<&str> = run.stdout.lines().collect();
        let (puzzles, expected) = with_expected(lines.len())?;
        for (k, ((puzzle, text), line)) in puzzles.iter().zip(expected).zip(lines).enumerate() {
            let check = || -> Result<(), String> {
                let record: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
                let score = record["score"].as_i64().ok_or("no score")?;
                let status = if score == -1 { "no_solution" } else { "solved" };
                if record["status"] != status {
                    return Err(format!("status {}, score {score}", record["status"]));
                }
                let grid = match record.get("grid") {
                    None => None,
                    Some(rows) => {
                        let digits: Vec<u8> = rows
                            .as_array()
                            .filter(|rows| rows.len() == 9)
                            .ok_or("a grid is 9 rows")?
                            .iter()
                            .flat_map(|row| row.as_array().cloned().unwrap_or_default())
                            .map(|d| d.as_u64().filter(|&d| d <= 9).map(|d| d as u8))
                            .collect::<Option<_>>()
                            .ok_or("a grid holds digits")?;
                        Some(<Cells>::try_from(digits).map_err(|_| "a grid is 81 digits")?)
                    }
                };
                for key in ["solutions_visited", "nodes", "updates"] {
                    record[key].as_u64().ok_or(format!("no number {key}"))?;
                }
                check_answer(puzzle, text, score, grid.as_ref())
            };
            check().map_err(|e| format!("puzzle {}: {e}", k + 1))?;
        }
        Ok(())
    };
    fx.run(
        &["target", "--json", "--jobs", "2", &path],
        &[("JSON grids", &json)],
    );
}

#[cfg(test)]
mod tests {
    use cover_check::target::has_solution;

    use super::*;
    use crate::verify::runner::listed_fixtures;

    #[test]
    fn the_manifest_lists_every_target_fixture() {
        let (dir, rows) = listed_fixtures("target");
        // Every valid fixture reads here with one expected line a puzzle,
        // and every -1 there is confirmed by the backtracking.
        for row in rows.iter().filter(|r| r.exit != 2) {
            let puzzles =
                read_puzzles(&std::fs::read_to_string(dir.join(&row.file)).unwrap()).unwrap();
            let expected =
                std::fs::read_to_string(dir.join(row.file.replace(".in", ".out"))).unwrap();
            let expected: Vec<&str> = expected.lines().collect();
            assert_eq!(puzzles.len(), expected.len(), "{}", row.file);
            for (puzzle, score) in puzzles.iter().zip(expected) {
                assert_eq!(has_solution(puzzle), score != "-1", "{}", row.file);
            }
        }
    }
}
