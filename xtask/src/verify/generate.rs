//! The `generate` family of `cargo xtask verify`: `cover generate --json`
//! for 4×4, 9×9 (plain, symmetric, with a clue target) and 16×16, every
//! puzzle checked without trusting the solver.
//!
//! For each puzzle: the printed solution is a full valid grid that keeps
//! the clues (`cover-check`'s checker); the puzzle has exactly one solution,
//! counted both by `cover-check`'s backtracking counter (4×4, 9×9) and
//! by `cover sudoku --engine linked --count --limit 2`; a puzzle that says
//! it is minimal loses uniqueness when any clue is removed (the same two
//! counters on every puzzle with one clue fewer). And the same seed prints
//! the same bytes with `--jobs 1` and `--jobs 2`.

use anyhow::Result;
use cover_check::sudoku::{check_solution, count_solutions, read_cells};
use serde_json::Value;

use super::runner::{one_per, run_checks, Check, Env, Run};

/// One run of `cover generate`: its arguments, side and what to expect.
struct Case {
    args: &'static [&'static str],
    side: usize,
    minimal: bool,
    symmetric: bool,
}

const CASES: &[Case] = &[
    Case {
        args: &["--size", "4", "--count", "20", "--seed", "1"],
        side: 4,
        minimal: true,
        symmetric: false,
    },
    Case {
        args: &["--count", "20", "--seed", "2"],
        side: 9,
        minimal: true,
        symmetric: false,
    },
    Case {
        args: &["--count", "10", "--seed", "3", "--symmetric"],
        side: 9,
        minimal: false,
        symmetric: true,
    },
    Case {
        args: &["--count", "10", "--seed", "4", "--clues", "30"],
        side: 9,
        minimal: false,
        symmetric: false,
    },
    Case {
        args: &["--size", "16", "--count", "2", "--seed", "5"],
        side: 16,
        minimal: false,
        symmetric: false,
    },
];

/// The records of a `--json` run.
fn records(run: &Run) -> Result<Vec<Value>, String> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).map_err(|e| format!("a line is not JSON: {e}")))
        .collect()
}

/// The puzzle and solution lines of every record.
fn lines_of(run: &Run) -> Result<Vec<(String, String)>, String> {
    records(run)?
        .iter()
        .map(|r| match (r["puzzle"].as_str(), r["solution"].as_str()) {
            (Some(p), Some(s)) => Ok((p.to_owned(), s.to_owned())),
            _ => Err("a record without puzzle or solution".to_owned()),
        })
        .collect()
}

/// `cover sudoku --engine linked --count --limit 2` on `puzzles` (lines):
/// the counts, in order.
fn linked_counts(env: &Env, name: &str, puzzles: &[String]) -> Result<Vec<u64>, String> {
    let path = std::env::temp_dir().join(format!(
        "cover-verify-generate-{}-{name}.txt",
        std::process::id()
    ));
    std::fs::write(&path, puzzles.join("\n") + "\n").map_err(|e| e.to_string())?;
    let file = path.to_string_lossy().into_owned();
    let run = env.cover(&[
        "sudoku", "--engine", "linked", "--count", "--limit", "2", "--jobs", "2", &file,
    ]);
    let _ = std::fs::remove_file(&path);
    let run = run?;
    let counts: Vec<u64> = run
        .stdout
        .lines()
        .map(|l| l.trim().parse().map_err(|_| format!("count {l:?}")))
        .collect::<Result<_, _>>()?;
    one_per((counts.len(), "counts"), (puzzles.len(), "puzzles"))?;
    Ok(counts)
}

/// Ok when each of `puzzles` counts `want` (at most 2) by backtracking
/// (grids up to 9×9) and by the linked engine; else `fail(puzzle, by, count)`.
fn count_each(
    env: &Env,
    name: &str,
    (puzzles, side): (&[String], usize),
    want: u64,
    fail: &dyn Fn(&str, &str, u64) -> String,
) -> Result<(), String> {
    if side <= 9 {
        for puzzle in puzzles {
            let count = count_solutions(&read_cells(puzzle, side)?, side, 2) as u64;
            if count != want {
                return Err(fail(puzzle, "backtracking", count));
            }
        }
    }
    let counts = linked_counts(env, name, puzzles)?;
    match puzzles.iter().zip(&counts).find(|(_, &c)| c != want) {
        Some((puzzle, &count)) => Err(fail(puzzle, "linked", count)),
        None => Ok(()),
    }
}

/// Every puzzle of `puzzle` with one clue (with `symmetric`, one pair)
/// fewer.
fn with_a_clue_fewer(puzzle: &str, symmetric: bool) -> Vec<String> {
    let chars: Vec<char> = puzzle.chars().collect();
    (0..chars.len())
        .filter(|&k| chars[k] != '.' && (!symmetric || k <= chars.len() - 1 - k))
        .map(|k| {
            let mut fewer = chars.clone();
            fewer[k] = '.';
            if symmetric {
                fewer[chars.len() - 1 - k] = '.';
            }
            fewer.into_iter().collect()
        })
        .collect()
}

/// The checks of `cover generate`.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    for (k, case) in CASES.iter().enumerate() {
        let fixture = format!("generate {}", case.args.join(" "));
        let mut args = vec!["generate", "--json", "--jobs", "1"];
        args.extend_from_slice(case.args);
        let serial = env.cover(&args);
        let check_solutions = |run: &Run| {
            for (puzzle, solution) in lines_of(run)? {
                let cells = read_cells(&puzzle, case.side)?;
                check_solution(&cells, &read_cells(&solution, case.side)?, case.side)?;
                if case.symmetric {
                    let n = cells.len();
                    if (0..n).any(|c| (cells[c] == 0) != (cells[n - 1 - c] == 0)) {
                        return Err(format!("{puzzle} is not symmetric"));
                    }
                }
            }
            Ok(())
        };
        let check_unique = |run: &Run| {
            let puzzles: Vec<String> = lines_of(run)?.into_iter().map(|(p, _)| p).collect();
            let fail = |puzzle: &str, by: &str, count| format!("{puzzle}: {by} count {count}");
            count_each(env, &format!("{k}-unique"), (&puzzles, case.side), 1, &fail)
        };
        let check_minimal = |run: &Run| {
            let mut fewer = Vec::new();
            for record in records(run)? {
                let minimal = record["minimal"] == true;
                if case.minimal && !minimal {
                    return Err("a puzzle is not minimal".to_owned());
                }
                if minimal {
                    let puzzle = record["puzzle"].as_str().unwrap_or_default();
                    fewer.extend(with_a_clue_fewer(puzzle, case.symmetric));
                }
            }
            let fail = |puzzle: &str, _: &str, _| format!("{puzzle}: unique with a clue fewer");
            count_each(env, &format!("{k}-minimal"), (&fewer, case.side), 2, &fail)
        };
        let same_as_serial = |run: &Run| {
            let serial = serial.as_ref().map_err(String::clone)?;
            if run.stdout != serial.stdout {
                return Err("--jobs 2 printed other bytes than --jobs 1".to_owned());
            }
            if run.stdout.is_empty() {
                return Err("no output".to_owned());
            }
            Ok(())
        };
        let mut parallel = vec!["generate", "--json", "--jobs", "2"];
        parallel.extend_from_slice(case.args);
        checks.extend(run_checks(
            env,
            &fixture,
            &parallel,
            0,
            &[
                ("solutions", &check_solutions),
                ("unique", &check_unique),
                ("minimal", &check_minimal),
                ("--jobs 2 equals --jobs 1", &same_as_serial),
            ],
        ));
    }
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "8.62...4......16......5....6..1......7.8.9..1.1..76.3.......8..295.3.....6.....7.";

    #[test]
    fn a_clue_fewer_loses_uniqueness() {
        assert_eq!(count_solutions(&read_cells(PUZZLE, 9).unwrap(), 9, 2), 1);
        let fewer = with_a_clue_fewer(PUZZLE, false);
        assert_eq!(fewer.len(), PUZZLE.chars().filter(|&c| c != '.').count());
        assert_eq!(count_solutions(&read_cells(&fewer[0], 9).unwrap(), 9, 2), 2);
        let pairs = with_a_clue_fewer(PUZZLE, true);
        let dots = PUZZLE.matches('.').count();
        assert!(pairs.iter().all(|p| p.matches('.').count() > dots));
    }
}
