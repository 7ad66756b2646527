//! The `threads` family of `cargo xtask verify`: every input fixture of
//! `exact`, `target` and `radar` answered with `--jobs 1` and `--jobs 3`,
//! in several modes, must give the same standard output, standard error
//! and exit status, byte for byte. (Sudoku has the same check in its own
//! family, `sudoku`.) The batch runner answers instances on several
//! threads at once and prints them in input order; this is where a lost,
//! doubled or reordered answer, or an error message out of its place,
//! would show.
//!
//! Radar's JSON runs with `--probes 1`: radii probed at once cancel each
//! other as they finish, so which probes ran, and the `probes` and `nodes`
//! that `--json` reports, depend on timing (by design; the radius does
//! not). Its text runs with the default, one probe per thread.

use std::path::Path;

use anyhow::Result;

use super::runner::{first_difference, Check, Env, Run};

/// A command and how it is compared.
struct Compared {
    command: &'static str,
    /// The extensions of its input fixtures.
    extensions: &'static [&'static str],
    /// The flags of each mode compared.
    modes: &'static [&'static [&'static str]],
}

const COMMANDS: &[Compared] = &[
    Compared {
        command: "exact",
        extensions: &["dlx", "txt"],
        modes: &[
            &[],
            &["--count"],
            &["--json"],
            &["--all", "--limit", "3"],
            &["--count", "--max-nodes", "50"],
        ],
    },
    Compared {
        command: "target",
        extensions: &["in"],
        modes: &[&[], &["--show"], &["--json"]],
    },
    Compared {
        command: "radar",
        extensions: &["in"],
        modes: &[&[], &["--probes", "1", "--json"]],
    },
];

/// The whole answer of a run: what must not depend on the threads.
fn answer(run: &Run) -> (Option<i32>, &str, &str) {
    (run.code, &run.stdout, &run.stderr)
}

/// Compares one fixture's runs with one and three threads.
fn compare(env: &Env, command: &str, fixture: &str, flags: &[&str]) -> Result<(), String> {
    let run = |jobs: &str| {
        let mut args = vec![command, "--jobs", jobs];
        args.extend_from_slice(flags);
        args.push(fixture);
        env.cover(&args)
    };
    let one = run("1")?;
    let three = run("3")?;
    if answer(&one) == answer(&three) {
        return Ok(());
    }
    let what = if one.code != three.code {
        format!("exit {:?} against {:?}", one.code, three.code)
    } else if one.stdout != three.stdout {
        format!(
            "standard output, first difference at line {}",
            first_difference(&one.stdout, &three.stdout)
        )
    } else {
        format!(
            "standard error, first difference at line {}",
            first_difference(&one.stderr, &three.stderr)
        )
    };
    Err(format!(
        "`{}` and `{}` differ: {what}",
        one.command, three.command
    ))
}

/// The input fixtures of `dir` with one of `extensions`, sorted, as paths
/// relative to the workspace root.
fn inputs(dir: &Path, extensions: &[&str]) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if extensions.contains(&extension) {
            names.push(path);
        }
    }
    names.sort();
    Ok(names
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

/// Every fixture of every command, in every mode, with one and three
/// threads.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    for compared in COMMANDS {
        let command = compared.command;
        let dir = env.fixtures.join(command);
        for path in inputs(&dir, compared.extensions)? {
            let name = Path::new(&path)
                .strip_prefix(&env.fixtures)
                .map_or_else(|_| path.clone(), |p| p.display().to_string());
            for flags in compared.modes {
                let what = format!("--jobs 1 = --jobs 3 {}", flags.join(" "));
                checks.push(Check::new(
                    &name,
                    what.trim_end(),
                    compare(env, command, &path, flags),
                ));
            }
        }
    }
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_located() {
        assert_eq!(first_difference("a\nb\nc", "a\nx\nc"), 2);
        assert_eq!(first_difference("a\nb", "a\nb\nc"), 3);
        assert_eq!(first_difference("a\nb", "a\nb\n"), 3);
    }

    #[test]
    fn every_command_has_fixtures() {
        let fixtures = crate::paths::fixtures();
        for compared in COMMANDS {
            let found = inputs(&fixtures.join(compared.command), compared.extensions).unwrap();
            assert!(found.len() >= 3, "{}: {found:?}", compared.command);
        }
    }
}
