//! `cargo xtask verify`: builds the `cover` binary, runs it on every fixture
//! (or, with `--datasets`, on the public sets of `../shared/`) and checks
//! each answer without trusting the solver.
//!
//! The checkers are `cover-check`'s, which uses neither `dlx-core` nor
//! `cover-models`; this module owns only the driver: which runs to make,
//! what each must print, and the tally. Counts, nodes and updates are
//! compared with the manifest of each directory of `fixtures/`.
//!
//! ## Families
//! Fixtures come in families, one per directory of `fixtures/` and command
//! of `cover`, one file each in this folder. A family is a [`Family`]
//! function that runs the binary through [`Env::cover`] and returns one
//! [`Check`] per thing it verified; [`FAMILIES`] lists them. To add one:
//! write `fn checks(env: &Env) -> Result<Vec<Check>>` in a new file (its
//! own manifest, its checker in `cover-check`, which must be able to fail:
//! give it a test that feeds it a wrong answer) and add it to [`FAMILIES`].
//!
//! ## Output
//! One line per failed check, `FAIL <fixture> [<check>]: <reason>`, then
//! exactly one summary line `verify: N passed, M failed`; the exit status
//! is 1 when any check failed.
//!
//! Usage: `cargo xtask verify [--bin PATH] [FAMILY ...]`, or
//! `cargo xtask verify --datasets [--quick] [--bin PATH] [--set NAME ...]`
//! (see [`datasets`]). `--bin` skips the build and runs the given binary;
//! families default to all.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use cover_check::{error_lines, process, snippet};

use crate::flags::Flags;
use crate::paths;

mod datasets;
mod exact;
mod generate;
mod queens;
mod radar;
mod sudoku;
mod target;
mod threads;
#[cfg(test)]
mod xcc;

/// A family of fixtures: runs the binary on them and returns its checks.
/// An `Err` means the family could not even start (say, its manifest is
/// unreadable) and counts as one failed check.
pub type Family = fn(&Env) -> Result<Vec<Check>>;

/// Every family, by name, in the order they run.
pub const FAMILIES: &[(&str, Family)] = &[
    ("exact", exact::checks),
    ("generate", generate::checks),
    ("queens", queens::checks),
    ("radar", radar::checks),
    ("sudoku", sudoku::checks),
    ("target", target::checks),
    ("threads", threads::checks),
];

/// At most this many solutions are asked for with `--all`.
const ALL_LIMIT: u64 = 1000;

/// A run of the binary that takes longer than this has failed.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What the families get: where the binary and the fixtures are.
pub struct Env {
    /// The `cover` binary.
    pub cover: PathBuf,
    /// `fixtures/`.
    pub fixtures: PathBuf,
}

/// One verified fact about one fixture.
pub struct Check {
    /// The fixture, relative to `fixtures/` (`exact/queens8.dlx`).
    pub fixture: String,
    /// What was checked (`count`, `all solutions`, ...).
    pub what: String,
    /// `Err(reason)` when the check failed.
    pub outcome: Result<(), String>,
}

impl Check {
    pub(crate) fn new(fixture: &str, what: &str, outcome: Result<(), String>) -> Check {
        Check {
            fixture: fixture.to_owned(),
            what: what.to_owned(),
            outcome,
        }
    }
}

/// The result of one run of the binary, with its command line.
pub struct Run {
    /// The command line, for messages (`cover exact --count FILE`).
    pub command: String,
    /// The exit status; `None` when a signal ended the process.
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// The first line of standard error, to explain a failure.
    fn stderr_hint(&self) -> String {
        match self.stderr.lines().find(|l| !l.trim().is_empty()) {
            Some(line) => format!(" (stderr: {})", line.trim()),
            None => String::new(),
        }
    }

    /// Checks the exit status.
    fn exit_is(&self, expected: i32) -> Result<(), String> {
        match self.code {
            Some(code) if code == expected => Ok(()),
            Some(code) => Err(format!(
                "`{}` exited with {code}, expected {expected}{}",
                self.command,
                self.stderr_hint()
            )),
            None => Err(format!("`{}` was killed by a signal", self.command)),
        }
    }
}

impl Env {
    /// Runs `cover ARGS` in the workspace root, with no input and a time
    /// limit. `Err` when it could not run, was not UTF-8 or ran out of time.
    pub fn cover(&self, args: &[&str]) -> Result<Run, String> {
        let run = process::run(&self.cover, args, b"", TIMEOUT)?;
        Ok(Run {
            command: format!("cover {}", args.join(" ")),
            code: run.code,
            stdout: run.stdout,
            stderr: run.stderr,
        })
    }
}

/// A named look at one run's output: `Err(reason)` when it is wrong.
pub(crate) type Inspection<'a> = (&'a str, &'a dyn Fn(&Run) -> Result<(), String>);

/// Runs `cover ARGS` and turns it into checks: one per inspection of the
/// output, then one for the exit status. When the binary cannot be run,
/// every one of them fails with that reason, so the number of checks does
/// not depend on what went wrong.
pub(crate) fn run_checks(
    env: &Env,
    fixture: &str,
    args: &[&str],
    exit_code: i32,
    inspections: &[Inspection],
) -> Vec<Check> {
    let run = env.cover(args);
    let mut checks = Vec::new();
    for (what, inspect) in inspections {
        let outcome = run.as_ref().map_err(String::clone).and_then(inspect);
        checks.push(Check::new(fixture, what, outcome));
    }
    let mode = args.get(1).filter(|a| a.starts_with("--")).copied();
    let what = format!("exit status ({})", mode.unwrap_or("default"));
    let outcome = run
        .as_ref()
        .map_err(String::clone)
        .and_then(|r| r.exit_is(exit_code));
    checks.push(Check::new(fixture, &what, outcome));
    checks
}

/// Ok when `run` printed `expected` (a fixture's `.out` file, or why it
/// could not be read).
pub(crate) fn prints(run: &Run, expected: &Result<String, String>) -> Result<(), String> {
    let expected = expected.as_ref().map_err(String::clone)?;
    if run.stdout == *expected {
        return Ok(());
    }
    let (got, want) = (snippet(&run.stdout), snippet(expected));
    Err(format!(
        "standard output differs: got {got}, expected {want}"
    ))
}

/// Ok when the error messages of `run` name exactly the lines `expected`.
pub(crate) fn names_lines(run: &Run, expected: &[usize]) -> Result<(), String> {
    let lines = error_lines(&run.stderr);
    if lines == expected {
        return Ok(());
    }
    Err(format!(
        "errors name lines {lines:?}, expected {expected:?}"
    ))
}

/// The `cover` binary: `--bin PATH` made absolute (the binary runs in the
/// workspace root), else the release build.
fn cover_binary(flags: &Flags) -> Result<PathBuf> {
    match flags.value("bin") {
        Some(path) => std::fs::canonicalize(path).with_context(|| path.to_owned()),
        None => process::build_release(&paths::workspace_root()).map_err(anyhow::Error::msg),
    }
}

/// `cargo xtask verify [--bin PATH] [FAMILY ...]`, or with `--datasets`
/// the public sets (see [`datasets`]).
pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["bin", "set"], &["datasets", "quick"])?;
    if flags.switch("datasets") {
        let cover = cover_binary(&flags)?;
        return datasets::run(&cover, flags.switch("quick"), &flags.values("set"));
    }
    if flags.switch("quick") || !flags.values("set").is_empty() {
        bail!("--quick and --set go with --datasets");
    }
    let names = flags.positional();
    let known: Vec<&str> = FAMILIES.iter().map(|(n, _)| *n).collect();
    if let Some(other) = names.iter().find(|n| !known.contains(&n.as_str())) {
        bail!(
            "unknown argument {other:?}; usage: cargo xtask verify [--bin PATH] [{}]",
            known.join("|")
        )
    }
    let cover = cover_binary(&flags)?;
    // Fixtures are named relative to the workspace root.
    std::env::set_current_dir(paths::workspace_root()).context("entering the workspace root")?;
    let env = Env {
        cover,
        fixtures: paths::fixtures(),
    };
    let (mut passed, mut failed) = (0, 0);
    for (name, family) in FAMILIES {
        if !names.is_empty() && !names.iter().any(|n| n == name) {
            continue;
        }
        match family(&env) {
            Ok(checks) => {
                for check in checks {
                    match check.outcome {
                        Ok(()) => passed += 1,
                        Err(reason) => {
                            failed += 1;
                            println!("FAIL {} [{}]: {reason}", check.fixture, check.what);
                        }
                    }
                }
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {name}: {e:#}");
            }
        }
    }
    println!("verify: {passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}
