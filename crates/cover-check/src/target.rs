//! Target sudoku (NOIP 2009), checked from the problem statement: the
//! reader of the input and of `--show` answers, the checker of a grid and
//! its score, and a backtracking search that says whether a puzzle has a
//! solution at all.
//!
//! It must not know `cover target`'s parser, model or search.

use crate::sudoku;

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
/// 1..=9 once, every given kept: [`sudoku::check_solution`]) and returns
/// its score.
pub fn check_grid(puzzle: &Cells, grid: &Cells) -> Result<u32, String> {
    sudoku::check_solution(puzzle, grid, 9)?;
    Ok((0..81)
        .map(|k| weight(k / 9, k % 9) * u32::from(grid[k]))
        .sum())
}

/// Whether `puzzle` has a solution, by [`sudoku::count_solutions`]'s plain
/// backtracking; givens that clash have none.
pub fn has_solution(puzzle: &Cells) -> bool {
    sudoku::count_solutions(puzzle, 9, 1) > 0
}

/// Checks one answer: `score` (-1 for none) against the expected text and,
/// when there is a grid, the grid against the puzzle.
pub fn check_answer(
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

/// Checks the whole `--show` output of `cover target` on `input`: one
/// answer per puzzle, each passing [`check_answer`] against the score of
/// `scores` (one line per puzzle, as the `.out` files hold them). Returns
/// one message per fault, each naming its puzzle; none when all is well.
pub fn check_shown_output(input: &str, stdout: &str, scores: &str) -> Vec<String> {
    let read = read_puzzles(input)
        .map_err(|e| format!("reading the puzzles: {e}"))
        .and_then(|p| Ok((p, read_shown(stdout)?)));
    let (puzzles, shown) = match read {
        Ok(read) => read,
        Err(e) => return vec![e],
    };
    let scores: Vec<&str> = scores.lines().map(str::trim).collect();
    let mut faults = Vec::new();
    if shown.len() != puzzles.len() || scores.len() != puzzles.len() {
        faults.push(format!(
            "{} answers, {} puzzles, {} expected scores",
            shown.len(),
            puzzles.len(),
            scores.len()
        ));
    }
    for (k, ((puzzle, score), (printed, grid))) in
        puzzles.iter().zip(scores).zip(&shown).enumerate()
    {
        if let Err(m) = check_answer(puzzle, score, *printed, grid.as_ref()) {
            faults.push(format!("puzzle {}: {m}", k + 1));
        }
    }
    faults
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
    fn whole_outputs_are_checked_puzzle_by_puzzle() {
        let shown = format!("2829\n{BEST}\n");
        assert!(check_shown_output(SAMPLE, &shown, "2829\n").is_empty());
        let faults = check_shown_output(SAMPLE, &shown, "2830\n");
        assert_eq!(faults, ["puzzle 1: score 2829, expected 2830"]);
        let twice = format!("{SAMPLE}{SAMPLE}");
        let faults = check_shown_output(&twice, &shown, "2829\n2829\n");
        assert_eq!(faults, ["1 answers, 2 puzzles, 2 expected scores"]);
        assert_eq!(check_shown_output(SAMPLE, "x\n", "2829\n").len(), 1);
    }

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
}
