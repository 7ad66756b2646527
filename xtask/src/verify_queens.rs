//! The `queens` family of `cargo xtask verify`: `cover queens N` for
//! N = 1..=12 against OEIS A000170, every printed board checked by a
//! checker written here (one queen per rank and file, no shared diagonal),
//! the parallel count against the serial one (`--jobs 1`), and the
//! symmetry-reduced count against the plain one.

use anyhow::Result;
use serde_json::Value;

use crate::verify::{run_checks, Check, Env, Run};

/// OEIS A000170: the number of N-queens solutions, N = 1, 2, ...
pub const A000170: [u64; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// Boards are checked for every N up to this.
const LARGEST: usize = 12;

/// At most this many boards are listed with `--all`.
const ALL_LIMIT: u64 = 1000;

/// Whether `files` (the file of the queen in each rank) places N queens
/// with none attacking another.
pub fn check_board(files: &[usize]) -> Result<(), String> {
    let n = files.len();
    for (rank, &file) in files.iter().enumerate() {
        if file >= n {
            return Err(format!("rank {rank}: file {file} is off the board"));
        }
        for (later, &other) in files.iter().enumerate().skip(rank + 1) {
            if other == file {
                return Err(format!("ranks {rank} and {later} share file {file}"));
            }
            if other.abs_diff(file) == later - rank {
                return Err(format!("ranks {rank} and {later} share a diagonal"));
            }
        }
    }
    Ok(())
}

/// Reads a text board (`Q` and `.`, one line per rank) into files.
pub fn read_board(lines: &[&str], n: usize) -> Result<Vec<usize>, String> {
    if lines.len() != n {
        return Err(format!("a board of {} lines, expected {n}", lines.len()));
    }
    lines
        .iter()
        .map(|line| {
            let queens: Vec<usize> = line.match_indices('Q').map(|(i, _)| i).collect();
            if line.len() != n || line.chars().any(|c| c != 'Q' && c != '.') {
                return Err(format!("line {line:?} is not {n} of `Q` and `.`"));
            }
            match queens[..] {
                [file] => Ok(file),
                _ => Err(format!("line {line:?} has {} queens", queens.len())),
            }
        })
        .collect()
}

fn json(run: &Run) -> Result<serde_json::Map<String, Value>, String> {
    match serde_json::from_str::<Value>(run.stdout.trim()) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(format!("`{}` did not print one JSON object", run.command)),
    }
}

fn number(map: &serde_json::Map<String, Value>, key: &str) -> Result<u64, String> {
    map.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("no number `{key}` in the JSON"))
}

/// The checks of `cover queens` for every N up to [`LARGEST`].
pub fn queens_checks(env: &Env) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    for n in 1..=LARGEST {
        let expected = A000170[n - 1];
        let fixture = format!("queens {n}");
        let arg = n.to_string();
        let exit = if expected > 0 { 0 } else { 1 };

        // The count, split across threads, and the same search serially:
        // the counts and both counters must agree.
        let serial = env.cover(&["queens", "--count", "--json", "--jobs", "1", &arg]);
        let check_count = |run: &Run| {
            let record = json(run)?;
            let count = number(&record, "count")?;
            if count != expected {
                return Err(format!("count {count}, OEIS A000170 says {expected}"));
            }
            Ok(())
        };
        let same_as_serial = |run: &Run| {
            let serial = serial.as_ref().map_err(String::clone)?;
            let (parallel, serial) = (json(run)?, json(serial)?);
            for key in ["count", "nodes", "updates"] {
                let (p, s) = (number(&parallel, key)?, number(&serial, key)?);
                if p != s {
                    return Err(format!(
                        "{key}: {p} split across threads, {s} with --jobs 1"
                    ));
                }
            }
            Ok(())
        };
        checks.extend(run_checks(
            env,
            &fixture,
            &["queens", "--count", "--json", "--jobs", "2", &arg],
            exit,
            &[
                ("count", &check_count),
                ("parallel equals serial", &same_as_serial),
            ],
        ));
        checks.extend(run_checks(
            env,
            &fixture,
            &["queens", "--count", "--symmetry", "--json", &arg],
            exit,
            &[("symmetry-reduced count", &check_count)],
        ));

        // Every board listed (up to the limit): valid and distinct.
        let limit = ALL_LIMIT.to_string();
        let check_all = |run: &Run| {
            let record = json(run)?;
            let boards = record
                .get("solutions")
                .and_then(Value::as_array)
                .ok_or("no `solutions` list in the JSON")?;
            let mut seen = std::collections::HashSet::new();
            for board in boards {
                let files: Vec<usize> = board
                    .as_array()
                    .ok_or("a solution is not a list")?
                    .iter()
                    .map(|f| {
                        f.as_u64()
                            .map(|f| f as usize)
                            .ok_or("a file is not a number")
                    })
                    .collect::<Result<_, _>>()?;
                if files.len() != n {
                    return Err(format!("a board with {} ranks", files.len()));
                }
                check_board(&files)?;
                if !seen.insert(files.clone()) {
                    return Err(format!("board {files:?} is listed twice"));
                }
            }
            let want = expected.min(ALL_LIMIT) as usize;
            if boards.len() != want {
                return Err(format!("{} boards, expected {want}", boards.len()));
            }
            Ok(())
        };
        checks.extend(run_checks(
            env,
            &fixture,
            &["queens", "--all", "--limit", &limit, "--json", &arg],
            exit,
            &[("all boards", &check_all)],
        ));

        // The default text answer: one valid board, or `no solution`.
        let check_text = |run: &Run| {
            let lines: Vec<&str> = run.stdout.lines().collect();
            if expected == 0 {
                return match lines[..] {
                    ["no solution"] => Ok(()),
                    _ => Err(format!("expected `no solution`, got {:?}", run.stdout)),
                };
            }
            check_board(&read_board(&lines, n)?)
        };
        checks.extend(run_checks(
            env,
            &fixture,
            &["queens", &arg],
            exit,
            &[("text board", &check_text)],
        ));
    }
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_can_fail() {
        assert!(check_board(&[1, 3, 0, 2]).is_ok());
        assert!(check_board(&[0, 2, 4, 1, 3]).is_ok());
        assert!(check_board(&[0, 1, 2, 3]).is_err(), "diagonal");
        assert!(check_board(&[1, 1, 0, 2]).is_err(), "same file");
        assert!(check_board(&[1, 3, 0, 9]).is_err(), "off the board");
    }

    #[test]
    fn boards_are_read_strictly() {
        assert_eq!(
            read_board(&[".Q..", "...Q", "Q...", "..Q."], 4),
            Ok(vec![1, 3, 0, 2])
        );
        assert!(read_board(&[".Q..", "...Q", "Q..."], 4).is_err());
        assert!(read_board(&[".QQ.", "...Q", "Q...", "..Q."], 4).is_err());
        assert!(read_board(&[".Q.", "...Q", "Q...", "..Q."], 4).is_err());
        assert!(read_board(&[".X..", "...Q", "Q...", "..Q."], 4).is_err());
    }
}
