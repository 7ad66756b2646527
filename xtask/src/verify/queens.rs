//! The `queens` family of `cargo xtask verify`: `cover queens N` for
//! N = 1..=12 against OEIS A000170, every printed board checked by
//! `cover-check`'s checker (one queen per rank and file, no shared
//! diagonal), the parallel count against the serial one (`--jobs 1`), and
//! the symmetry-reduced count against the plain one.

use anyhow::Result;
use cover_check::json_numbers;
use cover_check::queens::{check_board, read_board, A000170};
use serde_json::Value;

use super::runner::{Check, Env, Fixture, Run, ALL_LIMIT};

/// Boards are checked for every N up to this.
const LARGEST: usize = 12;

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
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    for n in 1..=LARGEST {
        let expected = A000170[n - 1];
        let fixture = format!("queens {n}");
        let arg = n.to_string();
        let exit = if expected > 0 { 0 } else { 1 };
        let mut fx = Fixture::new(env, &fixture, exit);

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
        fx.run(
            &["queens", "--count", "--json", "--jobs", "2", &arg],
            &[
                ("count", &check_count),
                ("parallel equals serial", &same_as_serial),
            ],
        );
        fx.run(
            &["queens", "--count", "--symmetry", "--json", &arg],
            &[("symmetry-reduced count", &check_count)],
        );

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
                let files = json_numbers(board, "file")?;
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
        fx.run(
            &["queens", "--all", "--limit", &limit, "--json", &arg],
            &[("all boards", &check_all)],
        );

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
        fx.run(&["queens", &arg], &[("text board", &check_text)]);
        checks.extend(fx.checks);
    }
    Ok(checks)
}
