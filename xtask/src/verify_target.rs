//! The `target` family of `cargo xtask verify`: every input of
//! `fixtures/target/` through `cover target`, its standard output, exit
//! status and error lines against `fixtures/target/expected.tsv` (the
//! scores there come from the problem statement and the seed's program,
//! not from this project), and every grid that `--show` and `--json` print
//! checked here without trusting the solver: the input is read by the
//! little reader below, the grid must be a sudoku solution keeping every
//! given, and the score recomputed from it must be the one printed. A
//! puzzle answered -1 is searched again by the backtracking below, which
//! must find no solution either.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use crate::verify::{error_lines, run_checks, Check, Env, Run};
use crate::verify_radar::read_radar_manifest;

/// A puzzle or a grid, row by row, 0 for an empty cell.
pub type Cells = [u8; 81];

/// Reads well-formed target-sudoku input: puzzles of 9 rows of 9 numbers,
/// separated by blank lines or not; `#` lines and a byte-order mark are
/// skipped.
pub fn read_puzzles(text: &str) -> Result<Vec<Cells>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut puzzles = Vec::new();
    let mut rows: Vec<Vec<u8>> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !rows.is_empty() {
                return Err(format!(
                    "line {}: a puzzle of {} rows",
                    index + 1,
                    rows.len()
                ));
            }
            continue;
        }
        let row: Vec<u8> = line
            .split_whitespace()
            .map(|word| word.parse::<u8>().ok().filter(|&d| d <= 9))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("line {}: not digits", index + 1))?;
        if row.len() != 9 {
            return Err(format!("line {}: {} numbers", index + 1, row.len()));
        }
        rows.push(row);
        if rows.len() == 9 {
            let mut cells = [0; 81];
            for (k, digit) in rows.drain(..).flatten().enumerate() {
                cells[k] = digit;
            }
            puzzles.push(cells);
        }
    }
    if !rows.is_empty() {
        return Err("the input ends inside a puzzle".to_owned());
    }
    Ok(puzzles)
}

/// The weight of the cell in row `r` and column `c`: 6 on the border, one
/// more for each step inwards.
fn weight(r: usize, c: usize) -> u32 {
    6 + r.min(c).min(8 - r).min(8 - c) as u32
}

/// Checks that `grid` solves `puzzle` (every row, column and box holds
/// 1..=9 once, every given kept) and returns its score.
pub fn check_grid(puzzle: &Cells, grid: &Cells) -> Result<u32, String> {
    for (k, (&given, &digit)) in puzzle.iter().zip(grid).enumerate() {
        if given != 0 && given != digit {
            return Err(format!(
                "row {} column {}: the given {given} became {digit}",
                k / 9 + 1,
                k % 9 + 1
            ));
        }
    }
    for unit in 0..9 {
        let lines: [(&str, Vec<usize>); 3] = [
            ("row", (0..9).map(|c| unit * 9 + c).collect()),
            ("column", (0..9).map(|r| r * 9 + unit).collect()),
            (
                "box",
                (0..9)
                    .map(|k| (unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3)
                    .collect(),
            ),
        ];
        for (name, cells) in lines {
            let mut digits: Vec<u8> = cells.iter().map(|&k| grid[k]).collect();
            digits.sort_unstable();
            if digits != [1, 2, 3, 4, 5, 6, 7, 8, 9] {
                return Err(format!("{name} {} holds {digits:?}", unit + 1));
            }
        }
    }
    Ok((0..81)
        .map(|k| weight(k / 9, k % 9) * u32::from(grid[k]))
        .sum())
}

/// Whether `puzzle` has a solution, by plain backtracking (the cell with
/// the fewest candidates first); givens that clash have none.
pub fn has_solution(puzzle: &Cells) -> bool {
    fn candidates(grid: &Cells, k: usize) -> u16 {
        let (r, c) = (k / 9, k % 9);
        let mut used = 0u16;
        for i in 0..9 {
            used |= 1 << grid[r * 9 + i];
            used |= 1 << grid[i * 9 + c];
            used |= 1 << grid[(r / 3 * 3 + i / 3) * 9 + c / 3 * 3 + i % 3];
        }
        !used & 0b11_1111_1110
    }
    fn search(grid: &mut Cells) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for k in 0..81 {
            if grid[k] == 0 {
                let options = candidates(grid, k);
                if !matches!(best, Some((_, b)) if b.count_ones() <= options.count_ones()) {
                    best = Some((k, options));
                }
            }
        }
        let Some((k, options)) = best else {
            return true;
        };
        for digit in 1..=9u8 {
            if options & (1 << digit) != 0 {
                grid[k] = digit;
                if search(grid) {
                    return true;
                }
            }
        }
        grid[k] = 0;
        false
    }
    let mut grid = *puzzle;
    for k in 0..81 {
        let digit = grid[k];
        if digit != 0 {
            grid[k] = 0;
            let fits = candidates(&grid, k) & (1 << digit) != 0;
            grid[k] = digit;
            if !fits {
                return false;
            }
        }
    }
    search(&mut grid)
}

/// Checks one answer: `score` (-1 for none) against the expected text and,
/// when there is a grid, the grid against the puzzle.
pub(crate) fn check_answer(
    puzzle: &Cells,
    expected: &str,
    score: i64,
    grid: Option<&Cells>,
) -> Result<(), String> {
    if score.to_string() != expected {
        return Err(format!("score {score}, expected {expected}"));
    }
    match grid {
        None if score == -1 => {
            if has_solution(puzzle) {
                Err("answered -1, but the puzzle has a solution".to_owned())
            } else {
                Ok(())
            }
        }
        None => Err(format!("score {score} without a grid")),
        Some(_) if score == -1 => Err("a grid for a puzzle without solution".to_owned()),
        Some(grid) => {
            let recomputed = check_grid(puzzle, grid)?;
            if i64::from(recomputed) != score {
                return Err(format!("the grid scores {recomputed}, printed {score}"));
            }
            Ok(())
        }
    }
}

/// Reads `--show` output: per puzzle a score line, the grid's 9 lines
/// unless the score is -1, and a blank line.
pub fn read_shown(stdout: &str) -> Result<Vec<(i64, Option<Cells>)>, String> {
    let mut answers = Vec::new();
    let mut lines = stdout.lines();
    while let Some(line) = lines.next() {
        let score: i64 = line
            .parse()
            .map_err(|_| format!("{line:?} is not a score"))?;
        let grid = if score == -1 {
            None
        } else {
            let rows: Vec<&str> = lines.by_ref().take(9).collect();
            let text = rows.join("\n");
            match read_puzzles(&text)?[..] {
                [grid] => Some(grid),
                _ => return Err(format!("no grid after the score {score}")),
            }
        };
        if lines.next() != Some("") {
            return Err(format!("no blank line after the answer {score}"));
        }
        answers.push((score, grid));
    }
    Ok(answers)
}

/// The `target` family.
pub fn target_checks(env: &Env) -> Result<Vec<Check>> {
    let dir = env.fixtures.join("target");
    let manifest_path = dir.join("expected.tsv");
    let manifest = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("{}", manifest_path.display()))?;
    let mut checks = Vec::new();
    for row in read_radar_manifest(&manifest)? {
        checks.extend(file_checks(
            env,
            &dir,
            &row.file,
            row.exit,
            &row.error_lines,
        ));
    }
    Ok(checks)
}

fn file_checks(
    env: &Env,
    dir: &Path,
    file: &str,
    exit: i32,
    error_lines_expected: &[usize],
) -> Vec<Check> {
    let fixture = format!("target/{file}");
    let input = dir.join(file);
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
                run.stdout, expected
            ))
        }
    };
    let errors = |run: &Run| {
        let lines = error_lines(&run.stderr);
        if lines == error_lines_expected {
            Ok(())
        } else {
            Err(format!(
                "errors name lines {lines:?}, expected {error_lines_expected:?}"
            ))
        }
    };
    let mut checks = run_checks(
        env,
        &fixture,
        &["target", &path],
        exit,
        &[("output", &same_output), ("error lines", &errors)],
    );
    if exit == 2 {
        return checks;
    }
    // Valid input: every grid checked on its own.
    let puzzles = std::fs::read_to_string(&input)
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
    let shown = |run: &Run| {
        let answers = read_shown(&run.stdout)?;
        let (puzzles, expected) = with_expected(answers.len())?;
        for (k, ((puzzle, text), (score, grid))) in
            puzzles.iter().zip(expected).zip(&answers).enumerate()
        {
            check_answer(puzzle, text, *score, grid.as_ref())
                .map_err(|e| format!("puzzle {}: {e}", k + 1))?;
        }
        Ok(())
    };
    checks.extend(run_checks(
        env,
        &fixture,
        &["target", "--show", &path],
        exit,
        &[("grids shown", &shown)],
    ));
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
    checks.extend(run_checks(
        env,
        &fixture,
        &["target", "--json", "--jobs", "2", &path],
        exit,
        &[("JSON grids", &json)],
    ));
    checks
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
        0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n\
        0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";
    const BEST: &str = "7 5 4 9 3 8 2 6 1\n1 2 8 6 4 5 9 3 7\n6 3 9 2 1 7 4 8 5\n\
        8 6 5 4 2 9 1 7 3\n9 7 2 3 5 1 6 4 8\n4 1 3 8 7 6 5 2 9\n\
        5 4 7 1 8 2 3 9 6\n2 9 1 7 6 3 8 5 4\n3 8 6 5 9 4 7 1 2\n";

    #[test]
    fn the_checker_accepts_the_best_grid_and_rejects_wrong_ones() {
        let puzzle = read_puzzles(SAMPLE).unwrap()[0];
        let best = read_puzzles(BEST).unwrap()[0];
        assert_eq!(check_grid(&puzzle, &best), Ok(2829));
        assert_eq!(check_answer(&puzzle, "2829", 2829, Some(&best)), Ok(()));
        assert!(
            check_answer(&puzzle, "2829", 2830, Some(&best)).is_err(),
            "score"
        );
        assert!(
            check_answer(&puzzle, "2830", 2830, Some(&best)).is_err(),
            "recomputed"
        );
        assert!(
            check_answer(&puzzle, "-1", -1, None).is_err(),
            "has a solution"
        );
        assert!(
            check_answer(&puzzle, "2829", 2829, None).is_err(),
            "no grid"
        );
        // A given changed: swap two digits of the first row in every row
        // (still a sudoku, but the 7 given at the corner is gone).
        let mut swapped = best;
        for r in 0..9 {
            let row = &mut swapped[r * 9..r * 9 + 9];
            for d in row.iter_mut() {
                *d = match *d {
                    7 => 5,
                    5 => 7,
                    d => d,
                };
            }
        }
        assert!(check_grid(&puzzle, &swapped).unwrap_err().contains("given"));
        // Two cells swapped within a row: columns break.
        let mut broken = best;
        broken.swap(1, 2);
        assert!(check_grid(&[0; 81], &broken)
            .unwrap_err()
            .contains("column"));
    }

    #[test]
    fn the_backtracking_finds_solutions_and_their_absence() {
        let puzzle = read_puzzles(SAMPLE).unwrap()[0];
        assert!(has_solution(&puzzle));
        let mut clash = [0; 81];
        clash[0] = 5;
        clash[8] = 5;
        assert!(!has_solution(&clash));
        let mut pigeons = [0; 81];
        pigeons[2..9].copy_from_slice(&[3, 4, 5, 6, 7, 8, 9]);
        pigeons[27] = 1;
        pigeons[55] = 1;
        assert!(!has_solution(&pigeons));
    }

    #[test]
    fn shown_answers_are_read_strictly() {
        let text = format!("2829\n{BEST}\n-1\n\n");
        let answers = read_shown(&text).unwrap();
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[1], (-1, None));
        assert!(
            read_shown(&format!("2829\n{BEST}")).is_err(),
            "no blank line"
        );
        assert!(read_shown("2829\n\n").is_err(), "no grid");
        assert!(read_shown("x\n").is_err());
    }

    #[test]
    fn the_manifest_lists_every_target_fixture() {
        let dir = crate::fixtures::fixtures_dir().join("target");
        let rows = read_radar_manifest(&std::fs::read_to_string(dir.join("expected.tsv")).unwrap())
            .unwrap();
        let mut inputs = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".in") {
                inputs += 1;
                assert!(rows.iter().any(|r| r.file == name), "{name} not listed");
                assert!(dir.join(name.replace(".in", ".out")).exists());
            }
        }
        assert_eq!(inputs, rows.len());
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
