//! What every family of `verify` shares, and nothing family-specific: the
//! environment (binary, fixtures), one run of the binary, the checks a run
//! turns into, and the checks of output and error lines that several
//! families make.
//!
//! It must not know any family, nor the driver that runs them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cover_check::manifest::read_exit_manifest;
use cover_check::{error_lines, process, snippet};

/// At most this many solutions are asked for with `--all`.
pub const ALL_LIMIT: u64 = 1000;

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
    pub fn new(fixture: &str, what: &str, outcome: Result<(), String>) -> Check {
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
    pub fn stderr_hint(&self) -> String {
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
pub type Inspection<'a> = (&'a str, &'a dyn Fn(&Run) -> Result<(), String>);

/// Runs `cover ARGS` and turns it into checks: one per inspection of the
/// output, then one for the exit status. When the binary cannot be run,
/// every one of them fails with that reason, so the number of checks does
/// not depend on what went wrong.
pub fn run_checks(
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

/// The checks of one fixture, gathered run by run: every run must end with
/// the fixture's exit status.
pub struct Fixture<'a> {
    pub env: &'a Env,
    pub name: &'a str,
    pub exit: i32,
    pub checks: Vec<Check>,
}

impl<'a> Fixture<'a> {
    pub fn new(env: &'a Env, name: &'a str, exit: i32) -> Fixture<'a> {
        let checks = Vec::new();
        Fixture {
            env,
            name,
            exit,
            checks,
        }
    }

    /// Runs `cover ARGS` and adds its checks (see [`run_checks`]).
    pub fn run(&mut self, args: &[&str], inspections: &[Inspection]) {
        let checks = run_checks(self.env, self.name, args, self.exit, inspections);
        self.checks.extend(checks);
    }
}

/// The checks of a family of one-input fixtures listed in an exit manifest
/// (radar, target): `cover COMMAND FILE` must print the file's `.out` and
/// name exactly the manifest's error lines; on valid input (exit status
/// not 2), `valid` adds the family's own checks, given the input and `.out`.
pub fn exit_family(env: &Env, command: &str, valid: &ValidChecks) -> anyhow::Result<Vec<Check>> {
    let dir = env.fixtures.join(command);
    let rows = read_exit_manifest(&dir.join("expected.tsv")).map_err(anyhow::Error::msg)?;
    let mut checks = Vec::new();
    for row in rows {
        let fixture = format!("{command}/{}", row.file);
        let input = dir.join(&row.file);
        let path = input.to_string_lossy().into_owned();
        let expected = std::fs::read_to_string(input.with_extension("out"))
            .map_err(|e| format!("reading the expected output: {e}"));
        let same_output = |run: &Run| prints(run, &expected);
        let errors = |run: &Run| names_lines(run, &row.error_lines);
        let mut fx = Fixture::new(env, &fixture, row.exit);
        fx.run(
            &[command, &path],
            &[("output", &same_output), ("error lines", &errors)],
        );
        if row.exit != 2 {
            valid(&mut fx, &input, &expected);
        }
        checks.extend(fx.checks);
    }
    Ok(checks)
}

/// A family's checks of a valid input: the fixture, the input's path and
/// its `.out` text (or why it could not be read).
pub type ValidChecks = dyn Fn(&mut Fixture, &Path, &Result<String, String>);

/// The first line (from 1) where two texts differ, line ends included.
pub fn first_difference(a: &str, b: &str) -> usize {
    let (mut a, mut b) = (a.split('\n'), b.split('\n'));
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (None, None) => return line,
            (x, y) if x != y => return line,
            _ => line += 1,
        }
    }
}

/// The first of a checker's faults, if any.
pub fn first_fault(faults: Vec<String>) -> Result<(), String> {
    faults.into_iter().next().map_or(Ok(()), Err)
}

/// Ok when an output has one `what` per `of`: `3 answers for 4 puzzles`
/// otherwise.
pub fn one_per((got, what): (usize, &str), (want, of): (usize, &str)) -> Result<(), String> {
    match got == want {
        true => Ok(()),
        false => Err(format!("{got} {what} for {want} {of}")),
    }
}

/// Ok when `run` printed `expected` (a fixture's `.out` file, or why it
/// could not be read).
pub fn prints(run: &Run, expected: &Result<String, String>) -> Result<(), String> {
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
pub fn names_lines(run: &Run, expected: &[usize]) -> Result<(), String> {
    let lines = error_lines(&run.stderr);
    if lines == expected {
        return Ok(());
    }
    Err(format!(
        "errors name lines {lines:?}, expected {expected:?}"
    ))
}

/// For the families' tests: the rows of `fixtures/COMMAND/expected.tsv`,
/// after asserting that they list every `.in` file there, once, each with
/// its `.out` file.
#[cfg(test)]
pub fn listed_fixtures(command: &str) -> (PathBuf, Vec<cover_check::manifest::ExitExpected>) {
    let dir = crate::paths::fixtures().join(command);
    let rows = read_exit_manifest(&dir.join("expected.tsv")).unwrap();
    let mut inputs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".in") {
            inputs += 1;
            assert!(rows.iter().any(|r| r.file == name), "{name} not listed");
            assert!(dir.join(name.replace(".in", ".out")).exists());
        }
    }
    assert_eq!(inputs, rows.len(), "rows for files that are not there");
    (dir, rows)
}
