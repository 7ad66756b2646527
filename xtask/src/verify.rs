//! `cargo xtask verify`: builds the `cover` binary, runs it on every fixture
//! and checks each answer without trusting the solver.
//!
//! The checkers here use neither `dlx-core` nor `cover-models`: the fixture
//! files are read by the little readers of this module, and a solution is
//! accepted only when it is made of different options of the problem, each
//! with a primary item, that cover every primary item exactly once (or
//! within its bounds, DLX3's `min:max|item`) and every secondary item at
//! most once (or several times, by options that all give it the same
//! colour, DLX2's `item:colour`). Counts, nodes and updates are compared
//! with the manifest of each directory.
//!
//! An answer names a Knuth-format option by its items and their colours, in
//! any order; an option is known by those, not by its place, so a problem
//! with two equal options cannot be checked (no fixture has any).
//!
//! ## Families
//! Fixtures come in families, one per directory of `fixtures/` and command
//! of `cover`. A family is a [`Family`] function that runs the binary
//! through [`Env::cover`] and returns one [`Check`] per thing it verified;
//! [`FAMILIES`] lists them. To add one (sudoku, queens, radar, ...): write
//! `fn sudoku_checks(env: &Env) -> Result<Vec<Check>>` (its own manifest,
//! its own checker, which must be able to fail: give it a test that feeds
//! it a wrong answer) and add `("sudoku", sudoku_checks)` to [`FAMILIES`].
//!
//! ## Output
//! One line per failed check, `FAIL <fixture> [<check>]: <reason>`, then
//! exactly one summary line `verify: N passed, M failed`; the exit status
//! is 1 when any check failed.
//!
//! Usage: `cargo xtask verify [--bin PATH] [FAMILY ...]`. `--bin` skips the
//! build and runs the given binary; families default to all.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

use crate::fixtures::fixtures_dir;

// ---------------------------------------------------------------------------
// The framework: families, checks, running the binary.
// ---------------------------------------------------------------------------

/// A family of fixtures: runs the binary on them and returns its checks.
/// An `Err` means the family could not even start (say, its manifest is
/// unreadable) and counts as one failed check.
pub type Family = fn(&Env) -> Result<Vec<Check>>;

/// Every family, by name, in the order they run.
pub const FAMILIES: &[(&str, Family)] = &[
    ("exact", exact_checks),
    ("generate", crate::verify_generate::generate_checks),
    ("queens", crate::verify_queens::queens_checks),
    ("radar", crate::verify_radar::radar_checks),
    ("sudoku", crate::verify_sudoku::sudoku_checks),
    ("target", crate::verify_target::target_checks),
    ("threads", crate::verify_threads::threads_checks),
];

/// At most this many solutions are asked for with `--all`.
const ALL_LIMIT: u64 = 1000;

/// A run of the binary that takes longer than this has failed.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What the families get: where the binary and the fixtures are.
pub struct Env {
    /// The `cover` binary.
    pub cover: PathBuf,
    /// The workspace root, the binary's working directory.
    pub root: PathBuf,
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

/// The result of one run of the binary.
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
    /// Runs `cover ARGS` in the workspace root, with a time limit. `Err`
    /// when it could not run, was not UTF-8 or ran out of time.
    pub fn cover(&self, args: &[&str]) -> Result<Run, String> {
        let command = format!("cover {}", args.join(" "));
        let mut child = Command::new(&self.cover)
            .args(args)
            .current_dir(&self.root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run `{command}`: {e}"))?;
        // Read both pipes while waiting, so a large output cannot block.
        let readers = [
            spawn_reader(child.stdout.take()),
            spawn_reader(child.stderr.take()),
        ];
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if start.elapsed() > TIMEOUT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(format!(
                        "`{command}` gave no answer within {} s",
                        TIMEOUT.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(e) => break Err(format!("waiting for `{command}`: {e}")),
            }
        };
        let [stdout, stderr] = readers.map(|r| r.join().unwrap_or_default());
        let status = status?;
        let text = |bytes: Vec<u8>, name: &str| {
            String::from_utf8(bytes)
                .map_err(|_| format!("`{command}` wrote {name} that is not UTF-8"))
        };
        Ok(Run {
            code: status.code(),
            stdout: text(stdout, "standard output")?,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            command,
        })
    }
}

fn spawn_reader<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
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

/// The line numbers that `cover: FILE:LINE: message` errors name.
pub(crate) fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("cover: "))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect()
}

/// The workspace root.
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo build --release -p cover-cli` (with `$CARGO` when set); returns
/// the path of the `cover` executable that cargo reports.
pub(crate) fn build_cover(root: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "-p",
            "cover-cli",
            "--message-format=json-render-diagnostics",
        ])
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running {}", Path::new(&cargo).display()))?;
    if !output.status.success() {
        bail!("`cargo build --release -p cover-cli` failed");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact" && message["target"]["name"] == "cover" {
            if let Some(path) = message["executable"].as_str() {
                return Ok(PathBuf::from(path));
            }
        }
    }
    bail!("cargo built no `cover` executable")
}

/// `cargo xtask verify [--bin PATH] [FAMILY ...]`.
pub fn run(args: &[String]) -> Result<()> {
    let mut binary = None;
    let mut names = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bin" => binary = Some(PathBuf::from(args.next().context("--bin needs a path")?)),
            name if FAMILIES.iter().any(|(n, _)| *n == name) => names.push(name.to_owned()),
            other => {
                let known: Vec<&str> = FAMILIES.iter().map(|(n, _)| *n).collect();
                bail!(
                    "unknown argument {other:?}; usage: cargo xtask verify [--bin PATH] [{}]",
                    known.join("|")
                )
            }
        }
    }
    let root = workspace_root();
    let cover = match binary {
        // The binary runs in the workspace root: make a relative path absolute.
        Some(path) => {
            std::fs::canonicalize(&path).with_context(|| format!("{}", path.display()))?
        }
        None => build_cover(&root)?,
    };
    let env = Env {
        cover,
        root,
        fixtures: fixtures_dir(),
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

// ---------------------------------------------------------------------------
// Manifests: `expected.tsv`.
// ---------------------------------------------------------------------------

/// One row of a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// The file name, relative to the manifest's directory.
    pub file: String,
    /// The number of solutions of each instance in the file.
    pub solutions: Vec<u64>,
    /// Search nodes of each instance, when checked.
    pub nodes: Option<Vec<u64>>,
    /// Updates of each instance, when checked.
    pub updates: Option<Vec<u64>>,
}

/// The header line every manifest has after its comments.
pub const MANIFEST_HEADER: &str = "file\tsolutions\tnodes\tupdates";

/// Reads a manifest: `#` comment lines, the header [`MANIFEST_HEADER`],
/// then one tab-separated row per file. Each number column is `-` (not
/// checked) or one number per instance, separated by commas.
pub fn read_manifest(path: &Path) -> Result<Vec<Expected>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    parse_manifest(&text).with_context(|| format!("{}", path.display()))
}

fn parse_manifest(text: &str) -> Result<Vec<Expected>> {
    let mut rows: Vec<Expected> = Vec::new();
    let mut header = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if !header {
            if line != MANIFEST_HEADER {
                bail!("line {number}: expected the header {MANIFEST_HEADER:?}, found {line:?}");
            }
            header = true;
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let [file, solutions, nodes, updates] = cells[..] else {
            bail!(
                "line {number}: expected 4 tab-separated columns, found {}",
                cells.len()
            );
        };
        let numbers = |cell: &str| -> Result<Option<Vec<u64>>> {
            if cell == "-" {
                return Ok(None);
            }
            let list = cell
                .split(',')
                .map(|n| n.trim().parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| anyhow!("line {number}: {cell:?} is not `-` nor numbers"))?;
            Ok(Some(list))
        };
        let solutions = numbers(solutions)?
            .ok_or_else(|| anyhow!("line {number}: the solution count cannot be `-`"))?;
        let (nodes, updates) = (numbers(nodes)?, numbers(updates)?);
        for list in [&nodes, &updates].into_iter().flatten() {
            if list.len() != solutions.len() {
                bail!("line {number}: the columns give different numbers of instances");
            }
        }
        if rows.iter().any(|r| r.file == file) {
            bail!("line {number}: {file} is listed twice");
        }
        rows.push(Expected {
            file: file.to_owned(),
            solutions,
            nodes,
            updates,
        });
    }
    if !header {
        bail!("no header line {MANIFEST_HEADER:?}");
    }
    Ok(rows)
}

// ---------------------------------------------------------------------------
// The checker's own readers: Knuth's format and 0/1 matrices.
// ---------------------------------------------------------------------------
//
// These are deliberately separate from `cover-models`: a parser bug shared
// by the solver and the checker would otherwise pass unnoticed.

/// How a problem was written, and so how its answers name options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Knuth's format: an option is named by its items.
    Knuth,
    /// A 0/1 matrix: an option is its 1-based row number.
    Matrix,
}

/// How often a primary item must be covered: at least `min`, at most
/// `max` times. Knuth's DLX3 writes `min:max|name`, or `max|name` when
/// the two are equal; an item without bounds is covered exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The fewest times the item may be covered.
    pub min: u32,
    /// The most times the item may be covered (at least 1).
    pub max: u32,
}

impl Bounds {
    /// Exactly once: every primary item of DLX1 and DLX2, every matrix column.
    pub const ONCE: Bounds = Bounds { min: 1, max: 1 };

    fn contains(self, count: u32) -> bool {
        (self.min..=self.max).contains(&count)
    }
}

impl std::fmt::Display for Bounds {
    /// As messages say it: `2`, or `0 to 2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.max)
        } else {
            write!(f, "{} to {}", self.min, self.max)
        }
    }
}

/// An exact-cover problem as the checkers see it: exact cover (DLX1),
/// with colours on secondary items (XCC, DLX2) and with bounds on primary
/// items (MCC, DLX3).
#[derive(Debug, Clone)]
pub struct Cover {
    /// How the problem was written.
    pub kind: Kind,
    /// The line where the problem starts (item line or matrix header).
    pub line: usize,
    /// Item names; for matrices, the column numbers from 1.
    pub items: Vec<String>,
    /// `items[..primary]` are primary, the rest secondary.
    pub primary: usize,
    /// The bounds of each primary item, `bounds[i]` for `items[i]`.
    pub bounds: Vec<Bounds>,
    /// Each option's items, by index into `items`, in the order the input
    /// gives them. Matrix rows of zeros are kept (as empty options) so
    /// that row numbers stay indices.
    pub options: Vec<Vec<usize>>,
    /// Each option's colours, entry for entry with `options`: `Some(c)`
    /// when the option gives that (secondary) item the colour
    /// `colour_names[c]`, `None` when it gives none.
    pub colours: Vec<Vec<Option<usize>>>,
    /// The colours' names, in the order they first appear.
    pub colour_names: Vec<String>,
    /// Knuth's format: an option's sorted (item, colour) pairs to its
    /// first index. An option is known by its items and their colours,
    /// not by its place, so two equal options cannot be told apart (the
    /// fixtures have none; a test holds them to it).
    by_items: HashMap<Vec<(usize, Option<usize>)>, usize>,
}

impl Cover {
    fn new(kind: Kind, line: usize, items: Vec<String>, bounds: Vec<Bounds>) -> Cover {
        Cover {
            kind,
            line,
            items,
            primary: bounds.len(),
            bounds,
            options: Vec::new(),
            colours: Vec::new(),
            colour_names: Vec::new(),
            by_items: HashMap::new(),
        }
    }

    fn push_option(&mut self, items: Vec<usize>, colours: Vec<Option<usize>>) {
        let mut key: Vec<(usize, Option<usize>)> =
            items.iter().copied().zip(colours.iter().copied()).collect();
        key.sort_unstable();
        self.by_items.entry(key).or_insert(self.options.len());
        self.options.push(items);
        self.colours.push(colours);
    }

    /// Whether some primary item has bounds other than "exactly once".
    pub fn has_bounds(&self) -> bool {
        self.bounds.iter().any(|&b| b != Bounds::ONCE)
    }

    /// Whether some option gives some item a colour.
    pub fn has_colours(&self) -> bool {
        !self.colour_names.is_empty()
    }

    /// Whether `option` names a primary item. Options that do not are
    /// ignored, as Knuth's programs ignore them: never part of a solution.
    pub fn has_primary(&self, option: usize) -> bool {
        self.options[option].iter().any(|&i| i < self.primary)
    }

    /// Whether no single option can be a whole solution (each leaves some
    /// primary item short of its lower bound), so that every search must
    /// go at least two levels deep to find one.
    pub fn needs_two_options(&self) -> bool {
        (0..self.options.len()).all(|option| {
            (0..self.primary).any(|item| {
                let covered = u32::from(self.options[option].contains(&item));
                self.bounds[item].min > covered
            })
        })
    }

    /// The option a Knuth-format answer names by its items, each `name`
    /// or `name:colour`, in any order.
    pub fn option_named(&self, text: &str) -> Result<usize, String> {
        let mut key = Vec::new();
        for token in text.split_whitespace() {
            let (name, colour) = match token.split_once(':') {
                Some((name, colour)) => (name, Some(colour)),
                None => (token, None),
            };
            let Some(item) = self.items.iter().position(|item| item == name) else {
                return Err(format!("`{text}` names the unknown item {name:?}"));
            };
            let colour = match colour {
                None => None,
                Some(colour) => match self.colour_names.iter().position(|c| c == colour) {
                    Some(c) => Some(c),
                    None => return Err(format!("`{text}` names the unknown colour {colour:?}")),
                },
            };
            key.push((item, colour));
        }
        key.sort_unstable();
        self.by_items
            .get(&key)
            .copied()
            .ok_or_else(|| format!("`{text}` is not an option of the problem"))
    }

    /// The option a matrix answer names by its 1-based row number.
    pub fn option_at_row(&self, row: u64) -> Result<usize, String> {
        match usize::try_from(row) {
            Ok(row) if (1..=self.options.len()).contains(&row) => Ok(row - 1),
            _ => Err(format!(
                "row {row} is not a row of the matrix (1..={})",
                self.options.len()
            )),
        }
    }

    /// An item as messages name it.
    fn describe_item(&self, item: usize) -> String {
        match (self.kind, item < self.primary) {
            (Kind::Matrix, _) => format!("column {}", self.items[item]),
            (Kind::Knuth, true) => format!("primary item {}", self.items[item]),
            (Kind::Knuth, false) => format!("secondary item {}", self.items[item]),
        }
    }

    /// The `"format"` a JSON answer gives for this problem.
    fn format_name(&self) -> &'static str {
        match self.kind {
            Kind::Knuth => "knuth",
            Kind::Matrix => "matrix",
        }
    }

    /// A Knuth-format option as the input writes it: its items in input
    /// order, separated by one space, a coloured one as `name:colour`.
    pub fn option_text(&self, option: usize) -> String {
        let mut text = String::new();
        for (k, (&item, colour)) in self.options[option]
            .iter()
            .zip(&self.colours[option])
            .enumerate()
        {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(&self.items[item]);
            if let Some(c) = colour {
                text.push(':');
                text.push_str(&self.colour_names[*c]);
            }
        }
        text
    }

    /// An option as an answer names it, for messages.
    fn describe(&self, option: usize) -> String {
        match self.kind {
            Kind::Matrix => format!("row {}", option + 1),
            Kind::Knuth => format!("option `{}`", self.option_text(option)),
        }
    }

    /// The options of one answer as JSON gives them: option strings for
    /// Knuth's format, row numbers for matrices.
    fn options_from_json(&self, solution: &Value) -> Result<Vec<usize>, String> {
        let Some(list) = solution.as_array() else {
            return Err(format!("a solution is not a list: {solution}"));
        };
        list.iter()
            .map(|entry| match (self.kind, entry) {
                (Kind::Knuth, Value::String(text)) => self.option_named(text),
                (Kind::Matrix, Value::Number(n)) => match n.as_u64() {
                    Some(row) => self.option_at_row(row),
                    None => Err(format!("{n} is not a row number")),
                },
                (Kind::Knuth, _) => Err(format!("expected an option as a string, found {entry}")),
                (Kind::Matrix, _) => Err(format!("expected a row number, found {entry}")),
            })
            .collect()
    }
}

/// Lines of `text` numbered from 1, without a byte-order mark or `\r`.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .map(|(i, line)| (i + 1, line))
}

/// Reads Knuth's format (DLX1, with DLX2's colours and DLX3's bounds):
/// the item line (primary items, optionally a token `|` and secondary
/// ones; a primary item may be written `min:max|name` or `max|name`),
/// then one option per line, its items `name` or, for secondary ones,
/// `name:colour`. Blank lines and lines that start with `|` are skipped.
pub fn read_knuth(text: &str) -> Result<Cover, String> {
    let mut lines = numbered_lines(text).filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('|')
    });
    let (line, item_line) = lines.next().ok_or("no item line")?;
    let mut names: Vec<String> = Vec::new();
    let mut bounds: Vec<Bounds> = Vec::new();
    let mut in_secondary = false;
    for token in item_line.split_whitespace() {
        if token == "|" {
            if in_secondary {
                return Err(format!("line {line}: more than one `|`"));
            }
            in_secondary = true;
            continue;
        }
        let (bound, name) = match token.split_once('|') {
            Some((bound, name)) => (Some(bound), name),
            None => (None, token),
        };
        if name.is_empty() || name.contains([':', '|']) {
            return Err(format!("line {line}: {token:?} is not an item name"));
        }
        match (bound, in_secondary) {
            (Some(_), true) => {
                return Err(format!(
                    "line {line}: the secondary item {name:?} has bounds"
                ))
            }
            (Some(bound), false) => {
                let bound = parse_bounds(bound)
                    .ok_or_else(|| format!("line {line}: bad bounds in {token:?}"))?;
                bounds.push(bound);
            }
            (None, false) => bounds.push(Bounds::ONCE),
            (None, true) => {}
        }
        names.push(name.to_owned());
    }
    let mut index = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        if index.insert(name.as_str(), i).is_some() {
            return Err(format!("line {line}: item {name:?} named twice"));
        }
    }
    let mut cover = Cover::new(Kind::Knuth, line, names.clone(), bounds);
    let mut colour_index: HashMap<String, usize> = HashMap::new();
    for (number, text) in lines {
        let mut option = Vec::new();
        let mut colours = Vec::new();
        for token in text.split_whitespace() {
            let (name, colour) = match token.split_once(':') {
                Some((name, colour)) => (name, Some(colour)),
                None => (token, None),
            };
            let &item = index
                .get(name)
                .ok_or_else(|| format!("line {number}: unknown item {name:?}"))?;
            if option.contains(&item) {
                return Err(format!("line {number}: item {name:?} twice in an option"));
            }
            let colour = match colour {
                None => None,
                Some("") => return Err(format!("line {number}: {token:?} has an empty colour")),
                Some(_) if item < cover.primary => {
                    return Err(format!(
                        "line {number}: the primary item {name:?} has a colour"
                    ))
                }
                Some(colour) => {
                    let next = colour_index.len();
                    let c = *colour_index.entry(colour.to_owned()).or_insert(next);
                    if c == next {
                        cover.colour_names.push(colour.to_owned());
                    }
                    Some(c)
                }
            };
            option.push(item);
            colours.push(colour);
        }
        cover.push_option(option, colours);
    }
    Ok(cover)
}

/// DLX3's bounds before a primary item's `|`: `max` or `min:max`, with
/// `min <= max` and `max >= 1`.
fn parse_bounds(text: &str) -> Option<Bounds> {
    let (min, max) = match text.split_once(':') {
        Some((min, max)) => (min.parse().ok()?, max.parse().ok()?),
        None => {
            let max = text.parse().ok()?;
            (max, max)
        }
    };
    (min <= max && max >= 1).then_some(Bounds { min, max })
}

/// Reads 0/1 matrices: each a line `N M`, then N lines of M values 0 or 1;
/// blank lines and lines that start with `#` are skipped.
pub fn read_matrices(text: &str) -> Result<Vec<Cover>, String> {
    let mut lines = numbered_lines(text).filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    });
    let mut covers = Vec::new();
    while let Some((line, header)) = lines.next() {
        let numbers: Vec<usize> = header
            .split_whitespace()
            .map(|f| {
                f.parse()
                    .map_err(|_| format!("line {line}: bad header {header:?}"))
            })
            .collect::<Result<_, _>>()?;
        let [rows, columns] = numbers[..] else {
            return Err(format!(
                "line {line}: a header is two numbers, found {header:?}"
            ));
        };
        let items = (1..=columns).map(|c| c.to_string()).collect();
        let mut cover = Cover::new(Kind::Matrix, line, items, vec![Bounds::ONCE; columns]);
        for _ in 0..rows {
            let (number, row) = lines
                .next()
                .ok_or_else(|| format!("line {line}: fewer than {rows} rows follow"))?;
            let values: Vec<&str> = row.split_whitespace().collect();
            if values.len() != columns {
                return Err(format!(
                    "line {number}: {} values, not {columns}",
                    values.len()
                ));
            }
            let mut option = Vec::new();
            for (column, value) in values.iter().enumerate() {
                match *value {
                    "0" => {}
                    "1" => option.push(column),
                    _ => return Err(format!("line {number}: {value:?} is not 0 or 1")),
                }
            }
            let colours = vec![None; option.len()];
            cover.push_option(option, colours);
        }
        covers.push(cover);
    }
    Ok(covers)
}

/// Reads a fixture by its extension: `.dlx` is Knuth's format (one
/// problem), `.txt` holds matrices.
pub fn read_fixture(path: &Path) -> Result<Vec<Cover>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("dlx") => read_knuth(&text).map(|c| vec![c]),
        Some("txt") => read_matrices(&text),
        _ => Err(format!(
            "{}: unknown extension (.dlx or .txt)",
            path.display()
        )),
    }
}

// ---------------------------------------------------------------------------
// The checkers.
// ---------------------------------------------------------------------------

/// Checks that `chosen` options form a solution: no option twice, none
/// without a primary item (those are ignored, never chosen), every
/// primary item covered within its bounds (exactly once unless the item
/// line says otherwise), and every secondary item consistently: either by
/// at most one option, with or without a colour, or by several that all
/// give it the same colour.
pub fn check_cover(cover: &Cover, chosen: &[usize]) -> Result<(), String> {
    let mut uses = vec![0u32; cover.items.len()];
    // The colours given to each secondary item, one entry per option that
    // names it.
    let mut given: Vec<Vec<Option<usize>>> = vec![Vec::new(); cover.items.len()];
    let mut seen = HashSet::new();
    for &option in chosen {
        let Some(items) = cover.options.get(option) else {
            return Err(format!("option {option} does not exist"));
        };
        if !seen.insert(option) {
            return Err(format!("{} is chosen twice", cover.describe(option)));
        }
        if items.is_empty() {
            return Err(format!("{} covers no item", cover.describe(option)));
        }
        if !cover.has_primary(option) {
            return Err(format!(
                "{} has no primary item (such options are ignored)",
                cover.describe(option)
            ));
        }
        for (&item, &colour) in items.iter().zip(&cover.colours[option]) {
            uses[item] += 1;
            if item >= cover.primary {
                given[item].push(colour);
            }
        }
    }
    for (item, &count) in uses.iter().enumerate() {
        if item < cover.primary {
            let bounds = cover.bounds[item];
            if bounds.contains(count) {
                continue;
            }
            let item = cover.describe_item(item);
            return Err(match bounds {
                Bounds::ONCE if count == 0 => format!("{item} is not covered"),
                Bounds::ONCE => format!("{item} is covered {count} times"),
                _ => format!("{item} is covered {count} times, not {bounds}"),
            });
        }
        let colours = &given[item];
        if colours.len() <= 1 {
            continue;
        }
        let name = cover.describe_item(item);
        if colours.iter().all(Option::is_none) {
            return Err(format!("{name} is covered {count} times"));
        }
        if colours.contains(&None) {
            return Err(format!(
                "{name} is covered {count} times, not all with a colour"
            ));
        }
        if let Some(other) = colours.iter().find(|&&c| c != colours[0]) {
            let [a, b] = [colours[0], *other].map(|c| &cover.colour_names[c.unwrap()]);
            return Err(format!("{name} is given two colours, {a} and {b}"));
        }
    }
    Ok(())
}

/// Checks that no two solutions choose the same set of options.
pub fn check_distinct(solutions: &[Vec<usize>]) -> Result<(), String> {
    let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
    for (k, solution) in solutions.iter().enumerate() {
        let mut key = solution.clone();
        key.sort_unstable();
        if let Some(first) = seen.insert(key, k) {
            return Err(format!(
                "solutions {} and {} are the same",
                first + 1,
                k + 1
            ));
        }
    }
    Ok(())
}

/// The JSON objects a run printed, one per line; there must be `expected`.
fn json_records(run: &Run, expected: usize) -> Result<Vec<serde_json::Map<String, Value>>, String> {
    let mut records = Vec::new();
    for line in run.stdout.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(map)) => records.push(map),
            _ => {
                return Err(format!(
                    "`{}` printed a line that is not a JSON object: {line}",
                    run.command
                ))
            }
        }
    }
    if records.len() != expected {
        return Err(format!(
            "`{}` printed {} JSON lines for {expected} instances{}",
            run.command,
            records.len(),
            run.stderr_hint()
        ));
    }
    Ok(records)
}

/// The status an instance with `count` solutions must report.
fn status_for(count: u64) -> &'static str {
    if count > 0 {
        "solved"
    } else {
        "no_solution"
    }
}

/// The common fields of one JSON record: the start line and the status.
fn check_record(
    record: &serde_json::Map<String, Value>,
    cover: &Cover,
    count: u64,
) -> Result<(), String> {
    if let Some(line) = record.get("line") {
        if line.as_u64() != Some(cover.line as u64) {
            return Err(format!(
                "\"line\" is {line}, the instance starts on line {}",
                cover.line
            ));
        }
    }
    if let Some(format) = record.get("format") {
        if format.as_str() != Some(cover.format_name()) {
            return Err(format!(
                "\"format\" is {format}, expected {:?}",
                cover.format_name()
            ));
        }
    }
    let status = record.get("status").and_then(Value::as_str);
    if status != Some(status_for(count)) {
        let found = record
            .get("status")
            .map_or("missing".to_owned(), Value::to_string);
        let mut message = format!("\"status\" is {found}, expected {:?}", status_for(count));
        if let Some(error) = record.get("error").and_then(Value::as_str) {
            message += &format!(" (error: {error})");
        }
        return Err(message);
    }
    Ok(())
}

/// `text` quoted for a message, cut short when long.
fn snippet(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// Prefixes a message with the instance it is about, in files of many.
fn at_instance(instances: usize, k: usize, message: String) -> String {
    if instances > 1 {
        format!("instance {}: {message}", k + 1)
    } else {
        message
    }
}

// ---------------------------------------------------------------------------
// The `exact` family: fixtures/exact/ through `cover exact`.
// ---------------------------------------------------------------------------

/// Checks every file of `fixtures/exact/expected.tsv`.
fn exact_checks(env: &Env) -> Result<Vec<Check>> {
    let dir = env.fixtures.join("exact");
    let manifest = read_manifest(&dir.join("expected.tsv"))?;
    // The fixtures are independent: check them on a few threads at once.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, Vec<Check>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(expected) = manifest.get(k) else {
                            break done;
                        };
                        done.push((k, exact_file_checks(env, &dir, expected)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    results.sort_by_key(|(k, _)| *k);
    Ok(results.into_iter().flat_map(|(_, checks)| checks).collect())
}

/// The checks of one file: (a) counts and stats with `--count --json`,
/// (b) solutions with `--all --limit 1000 --json`, (c) the default text
/// answer, (d) the exit status of each run; and for Knuth's format the
/// text checks of [`knuth_text_checks`].
fn exact_file_checks(env: &Env, dir: &Path, expected: &Expected) -> Vec<Check> {
    let fixture = format!("exact/{}", expected.file);
    let instances = match read_fixture(&dir.join(&expected.file)) {
        Ok(instances) if instances.len() == expected.solutions.len() => instances,
        Ok(instances) => {
            let reason = format!(
                "the manifest gives {} counts, the file holds {} instances",
                expected.solutions.len(),
                instances.len()
            );
            return vec![Check::new(&fixture, "fixture", Err(reason))];
        }
        Err(reason) => return vec![Check::new(&fixture, "fixture", Err(reason))],
    };
    let path = format!("fixtures/exact/{}", expected.file);
    let exit = if expected.solutions.contains(&0) {
        1
    } else {
        0
    };
    let n = instances.len();
    let mut checks = Vec::new();

    // (a) Counts, and nodes and updates where the manifest has them.
    let counts = |run: &Run| {
        let records = json_records(run, n)?;
        for (k, (record, cover)) in records.iter().zip(&instances).enumerate() {
            let want = expected.solutions[k];
            let check = || {
                check_record(record, cover, want)?;
                let count = record.get("count").and_then(Value::as_u64);
                if count != Some(want) {
                    return Err(format!("\"count\" is {count:?}, expected {want}"));
                }
                if record
                    .get("complete")
                    .is_some_and(|c| c != &Value::Bool(true))
                {
                    return Err("\"complete\" is not true for a full count".to_owned());
                }
                Ok(())
            };
            check().map_err(|m| at_instance(n, k, m))?;
        }
        Ok(())
    };
    let stats = |run: &Run| {
        let records = json_records(run, n)?;
        for (k, record) in records.iter().enumerate() {
            for (field, list) in [("nodes", &expected.nodes), ("updates", &expected.updates)] {
                let Some(list) = list else { continue };
                let got = record.get(field).and_then(Value::as_u64);
                if got != Some(list[k]) {
                    let message = format!("\"{field}\" is {got:?}, expected {}", list[k]);
                    return Err(at_instance(n, k, message));
                }
            }
        }
        Ok(())
    };
    let mut inspections: Vec<Inspection> = vec![("count", &counts)];
    if expected.nodes.is_some() || expected.updates.is_some() {
        inspections.push(("nodes and updates", &stats));
    }
    checks.extend(run_checks(
        env,
        &fixture,
        &["exact", "--count", "--json", &path],
        exit,
        &inspections,
    ));

    // (b) Up to ALL_LIMIT solutions, each valid, all different.
    let all = |run: &Run| {
        let records = json_records(run, n)?;
        for (k, (record, cover)) in records.iter().zip(&instances).enumerate() {
            let want = expected.solutions[k];
            let check = || {
                check_record(record, cover, want)?;
                let list = match record.get("solutions") {
                    Some(Value::Array(list)) => list.as_slice(),
                    None if want == 0 => &[],
                    _ => return Err("no \"solutions\" list".to_owned()),
                };
                if list.len() as u64 != want.min(ALL_LIMIT) {
                    return Err(format!(
                        "{} solutions printed, expected {}",
                        list.len(),
                        want.min(ALL_LIMIT)
                    ));
                }
                let mut solutions = Vec::new();
                for (j, solution) in list.iter().enumerate() {
                    let options = cover.options_from_json(solution);
                    let options = options
                        .and_then(|o| check_cover(cover, &o).map(|()| o))
                        .map_err(|m| format!("solution {}: {m}", j + 1))?;
                    solutions.push(options);
                }
                check_distinct(&solutions)
            };
            check().map_err(|m| at_instance(n, k, m))?;
        }
        Ok(())
    };
    let limit = ALL_LIMIT.to_string();
    checks.extend(run_checks(
        env,
        &fixture,
        &["exact", "--all", "--limit", &limit, "--json", &path],
        exit,
        &[("all solutions", &all)],
    ));

    // (c) The default text answer: one valid solution or the marker.
    let first = |run: &Run| match instances[0].kind {
        Kind::Knuth => check_knuth_text(&instances[0], expected.solutions[0], &run.stdout),
        Kind::Matrix => check_matrix_text(&instances, &expected.solutions, &run.stdout),
    };
    checks.extend(run_checks(
        env,
        &fixture,
        &["exact", &path],
        exit,
        &[("first solution (text)", &first)],
    ));
    if let [cover] = &instances[..] {
        if cover.kind == Kind::Knuth {
            checks.extend(knuth_text_checks(
                env,
                &fixture,
                &path,
                cover,
                expected.solutions[0],
            ));
        }
    }
    checks
}

/// The text checks of a Knuth-format file (one problem, `count`
/// solutions): (e) every solution of `--all --limit 1000`, each valid,
/// all different, as many as there are up to the limit; (f) `--count`
/// on one thread and on three; (g) `--max-nodes 1` gives up, with exit
/// status 1, where no search can end that soon (see [`gives_up_at_once`]).
fn knuth_text_checks(
    env: &Env,
    fixture: &str,
    path: &str,
    cover: &Cover,
    count: u64,
) -> Vec<Check> {
    let exit = i32::from(count == 0);
    let mut checks = Vec::new();
    let limit = ALL_LIMIT.to_string();
    let all = |run: &Run| check_knuth_all_text(cover, count.min(ALL_LIMIT), &run.stdout);
    checks.extend(run_checks(
        env,
        fixture,
        &["exact", "--all", "--limit", &limit, path],
        exit,
        &[("all solutions (text)", &all)],
    ));
    let counted = |run: &Run| match run.stdout.trim().parse::<u64>() {
        Ok(n) if n == count => Ok(()),
        _ => Err(format!(
            "`{}` printed {}, expected {count}",
            run.command,
            snippet(&run.stdout)
        )),
    };
    for jobs in ["1", "3"] {
        let what = format!("count (text, --jobs {jobs})");
        checks.extend(run_checks(
            env,
            fixture,
            &["exact", "--count", "--jobs", jobs, path],
            exit,
            &[(&what, &counted)],
        ));
    }
    if gives_up_at_once(cover, count) {
        let gave_up = |run: &Run| {
            let lines: Vec<&str> = run.stdout.lines().filter(|l| !l.is_empty()).collect();
            match lines[..] {
                ["gave up"] => Ok(()),
                _ => Err(format!(
                    "`{}` printed {}, expected `gave up`",
                    run.command,
                    snippet(&run.stdout)
                )),
            }
        };
        checks.extend(run_checks(
            env,
            fixture,
            &["exact", "--max-nodes", "1", "--count", path],
            1,
            &[("gave up (--max-nodes 1)", &gave_up)],
        ));
    }
    checks
}

/// Whether a search of `cover` (which has `count` solutions) must give up
/// at `--max-nodes 1`. The budget is tested on entering a level, and the
/// root is the first node: a search gives up unless it ends at the root,
/// which it can only do when there is no solution, or when one option is a
/// whole solution (queens1: it is found on the first level, whose entry is
/// not tested). So: some solution, and none of one option.
fn gives_up_at_once(cover: &Cover, count: u64) -> bool {
    count > 0 && cover.needs_two_options()
}

/// The text of `cover exact --all` for one Knuth-format problem: `want`
/// solutions, each its option lines and then a blank line, each valid and
/// all different; `no solution` and a blank line when `want` is 0.
pub fn check_knuth_all_text(cover: &Cover, want: u64, stdout: &str) -> Result<(), String> {
    if want == 0 {
        return match stdout {
            "no solution\n\n" => Ok(()),
            _ => Err(format!("expected `no solution`, found {}", snippet(stdout))),
        };
    }
    if stdout.is_empty() {
        return Err(format!("nothing printed, expected {want} solutions"));
    }
    let mut solutions: Vec<Vec<usize>> = Vec::new();
    let mut block: Vec<usize> = Vec::new();
    for line in stdout.lines() {
        let number = solutions.len() + 1;
        if !line.is_empty() {
            let option = cover
                .option_named(line)
                .map_err(|m| format!("solution {number}: {m}"))?;
            block.push(option);
            continue;
        }
        if block.is_empty() {
            return Err(format!("a blank line where solution {number} should start"));
        }
        check_cover(cover, &block).map_err(|m| format!("solution {number}: {m}"))?;
        solutions.push(std::mem::take(&mut block));
    }
    if !block.is_empty() || !stdout.ends_with('\n') {
        return Err(format!(
            "solution {} is not ended by a blank line",
            solutions.len() + 1
        ));
    }
    check_distinct(&solutions)?;
    if solutions.len() as u64 != want {
        return Err(format!(
            "{} solutions printed, expected {want}",
            solutions.len()
        ));
    }
    Ok(())
}

/// Text answer for one Knuth-format problem: each option's items on a
/// line and a blank line after the solution, or `no solution`.
pub fn check_knuth_text(cover: &Cover, count: u64, stdout: &str) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().map(str::trim_end).collect();
    let end = lines
        .iter()
        .position(|l| l.is_empty())
        .unwrap_or(lines.len());
    let (block, rest) = lines.split_at(end);
    if rest.iter().any(|l| !l.is_empty()) {
        return Err("more than one answer printed".to_owned());
    }
    if count == 0 {
        return match block {
            ["no solution"] => Ok(()),
            _ => Err(format!("expected `no solution`, found {}", snippet(stdout))),
        };
    }
    if block.is_empty() || rest.is_empty() {
        let found = snippet(stdout);
        return Err(format!(
            "expected option lines and a blank line, found {found}"
        ));
    }
    let options = block
        .iter()
        .map(|line| cover.option_named(line))
        .collect::<Result<Vec<_>, _>>()?;
    check_cover(cover, &options)
}

/// Text answer for matrices: one line per matrix, its chosen rows in
/// ascending order, or `No Solution!`.
pub fn check_matrix_text(covers: &[Cover], counts: &[u64], stdout: &str) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    if lines.len() != covers.len() {
        return Err(format!(
            "{} lines printed for {} matrices",
            lines.len(),
            covers.len()
        ));
    }
    for (k, ((line, cover), &count)) in lines.iter().zip(covers).zip(counts).enumerate() {
        let check = || {
            if count == 0 {
                return match *line {
                    "No Solution!" => Ok(()),
                    _ => Err(format!("expected `No Solution!`, found {}", snippet(line))),
                };
            }
            let rows = line
                .split_whitespace()
                .map(|f| {
                    f.parse::<u64>()
                        .map_err(|_| format!("{f:?} is not a row number"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if rows.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("rows {line:?} are not in ascending order"));
            }
            let options = rows
                .iter()
                .map(|&r| cover.option_at_row(r))
                .collect::<Result<Vec<_>, _>>()?;
            check_cover(cover, &options)
        };
        check().map_err(|m| at_instance(covers.len(), k, m))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items a, b, c primary, x secondary.
    const SMALL: &str = "a b c | x\n\
                         a b x\n\
                         c\n\
                         a x\n\
                         b c x\n\
                         a\n\
                         b\n";

    fn small() -> Cover {
        read_knuth(SMALL).unwrap()
    }

    fn named(cover: &Cover, options: &[&str]) -> Vec<usize> {
        options
            .iter()
            .map(|o| cover.option_named(o).unwrap())
            .collect()
    }

    #[test]
    fn a_valid_cover_passes() {
        let cover = small();
        assert_eq!(check_cover(&cover, &named(&cover, &["a b x", "c"])), Ok(()));
        assert_eq!(
            check_cover(&cover, &named(&cover, &["a", "b", "c"])),
            Ok(())
        );
        // Items in another order name the same option.
        assert_eq!(check_cover(&cover, &named(&cover, &["x b a", "c"])), Ok(()));
    }

    #[test]
    fn a_missing_primary_item_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a b x"]));
        assert_eq!(result, Err("primary item c is not covered".to_owned()));
        let matrix = &read_matrices("2 2\n1 0\n0 1\n").unwrap()[0];
        let result = check_cover(matrix, &[0]);
        assert_eq!(result, Err("column 2 is not covered".to_owned()));
        assert!(check_cover(&cover, &[]).is_err());
    }

    #[test]
    fn a_primary_item_twice_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a b x", "c", "a"]));
        assert_eq!(result, Err("primary item a is covered 2 times".to_owned()));
    }

    #[test]
    fn a_secondary_item_twice_fails() {
        let cover = small();
        let result = check_cover(&cover, &named(&cover, &["a x", "b c x"]));
        assert_eq!(
            result,
            Err("secondary item x is covered 2 times".to_owned())
        );
    }

    #[test]
    fn an_option_twice_or_unknown_fails() {
        let cover = small();
        let c = cover.option_named("c").unwrap();
        assert!(check_cover(&cover, &[c, c]).is_err());
        assert!(check_cover(&cover, &[99]).is_err());
        assert!(cover.option_named("a c").is_err(), "not an option");
        assert!(cover.option_named("a z").is_err(), "unknown item");
    }

    #[test]
    fn repeated_solutions_fail() {
        assert_eq!(check_distinct(&[vec![0, 1], vec![2, 3]]), Ok(()));
        assert!(check_distinct(&[vec![0, 1], vec![2], vec![1, 0]]).is_err());
    }

    #[test]
    fn matrices_and_their_text_answers() {
        let text = "# two matrices\n2 2\n1 0\n0 1\n\n3 2\n1 1\n0 0\n1 0\n";
        let covers = read_matrices(text).unwrap();
        assert_eq!(covers.len(), 2);
        assert_eq!((covers[0].line, covers[1].line), (2, 6));
        assert_eq!(covers[1].options, [vec![0, 1], vec![], vec![0]]);
        let counts = [1, 1];
        assert_eq!(check_matrix_text(&covers, &counts, "1 2\n1\n"), Ok(()));
        assert!(
            check_matrix_text(&covers, &counts, "2 1\n1\n").is_err(),
            "order"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1\n1\n").is_err(),
            "column 2"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1 2\n1 2\n").is_err(),
            "empty row"
        );
        assert!(
            check_matrix_text(&covers, &counts, "1 2\n").is_err(),
            "a line short"
        );
        assert!(
            check_matrix_text(&covers, &[1, 0], "1 2\n1\n").is_err(),
            "marker"
        );
        assert_eq!(
            check_matrix_text(&covers, &[1, 0], "1 2\nNo Solution!\n"),
            Ok(())
        );
        assert!(read_matrices("2 2\n1 0\n").is_err(), "rows missing");
        assert!(read_matrices("1 2\n1 2\n").is_err(), "not 0 or 1");
    }

    #[test]
    fn knuth_text_answers() {
        let cover = small();
        assert_eq!(check_knuth_text(&cover, 4, "a b x\nc\n\n"), Ok(()));
        assert!(
            check_knuth_text(&cover, 4, "a b x\n\n").is_err(),
            "c uncovered"
        );
        assert!(
            check_knuth_text(&cover, 4, "a b x\nc\n").is_err(),
            "no blank line"
        );
        assert!(
            check_knuth_text(&cover, 4, "a b x\nc\n\na\nb\nc\n\n").is_err(),
            "two"
        );
        assert!(check_knuth_text(&cover, 4, "no solution\n").is_err());
        assert_eq!(check_knuth_text(&cover, 0, "no solution\n"), Ok(()));
    }

    #[test]
    fn json_answers() {
        let cover = small();
        let good: Value = serde_json::json!(["a b x", "c"]);
        let options = cover.options_from_json(&good).unwrap();
        assert_eq!(check_cover(&cover, &options), Ok(()));
        assert!(cover.options_from_json(&serde_json::json!([1, 2])).is_err());
        let matrix = &read_matrices("2 2\n1 0\n0 1\n").unwrap()[0];
        assert_eq!(
            matrix.options_from_json(&serde_json::json!([1, 2])),
            Ok(vec![0, 1])
        );
        assert!(matrix
            .options_from_json(&serde_json::json!([0, 2]))
            .is_err());
        assert!(matrix.options_from_json(&serde_json::json!([3])).is_err());
    }

    #[test]
    fn manifest_format() {
        let text =
            "# comment\nfile\tsolutions\tnodes\tupdates\na.dlx\t2\t13\t197\nm.txt\t1,0\t-\t-\n";
        let rows = parse_manifest(text).unwrap();
        assert_eq!(rows[0].nodes, Some(vec![13]));
        assert_eq!(rows[1].solutions, [1, 0]);
        assert_eq!(rows[1].updates, None);
        assert!(parse_manifest("a.dlx\t1\t-\t-\n").is_err(), "no header");
        assert!(parse_manifest(&format!("{MANIFEST_HEADER}\na.dlx\t1,2\t3\t-\n")).is_err());
        assert!(parse_manifest(&format!("{MANIFEST_HEADER}\na.dlx\t-\t3\t4\n")).is_err());
    }

    fn exact_dir() -> PathBuf {
        fixtures_dir().join("exact")
    }

    /// Every file of `fixtures/exact/` is in the manifest and the other way
    /// round, and each reads with as many instances as the manifest says.
    #[test]
    fn manifest_lists_every_exact_fixture() {
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut files: Vec<String> = std::fs::read_dir(exact_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name != "expected.tsv")
            .collect();
        files.sort();
        let mut listed: Vec<String> = manifest.iter().map(|r| r.file.clone()).collect();
        listed.sort();
        assert_eq!(files, listed, "fixtures/exact/ and expected.tsv disagree");
        for row in &manifest {
            let covers = read_fixture(&exact_dir().join(&row.file)).unwrap();
            assert_eq!(covers.len(), row.solutions.len(), "{}", row.file);
        }
    }

    /// The manifest repeats REFERENCE.md's numbers for the problems both
    /// have.
    #[test]
    fn manifest_agrees_with_reference() {
        let path = crate::paths::shared().join("xc/REFERENCE.md");
        if !path.exists() {
            println!(
                "note: {} is not here; manifest not compared",
                path.display()
            );
            return;
        }
        let reference = crate::bench::harness::read_reference(&path).unwrap();
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut compared = 0;
        for row in &manifest {
            let Some(name) = row.file.strip_suffix(".dlx") else {
                continue;
            };
            let Some(r) = reference.iter().find(|r| r.name == name) else {
                continue;
            };
            assert_eq!(row.solutions, [r.solutions], "{name} solutions");
            assert_eq!(row.nodes, Some(vec![r.nodes]), "{name} nodes");
            assert_eq!(row.updates, Some(vec![r.updates]), "{name} updates");
            compared += 1;
        }
        assert_eq!(
            compared, 16,
            "queens 1-8, 10, 12, langford 3, 4, 7, 8, 11, latin5"
        );
    }

    /// Counts exact covers by plain backtracking (first uncovered primary
    /// item, options in order), with nothing shared with the engine.
    fn naive_count(cover: &Cover) -> u64 {
        fn go(cover: &Cover, used: &mut [bool], count: &mut u64) {
            let Some(item) = (0..cover.primary).find(|&i| !used[i]) else {
                *count += 1;
                return;
            };
            for option in &cover.options {
                if !option.contains(&item) || option.iter().any(|&i| used[i]) {
                    continue;
                }
                option.iter().for_each(|&i| used[i] = true);
                go(cover, used, count);
                option.iter().for_each(|&i| used[i] = false);
            }
        }
        let mut used = vec![false; cover.items.len()];
        let mut count = 0;
        go(cover, &mut used, &mut count);
        count
    }

    /// The manifest's solution counts hold for the small fixtures, by a
    /// search that owes nothing to the engine (this covers the counts that
    /// are not in REFERENCE.md: queens9, queens11, langford5-6, matrices).
    #[test]
    fn manifest_counts_by_naive_search() {
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut checked = 0;
        for row in &manifest {
            if row.file == "latin5.dlx"
                || row.file == "langford11.dlx"
                || row.file == "queens12.dlx"
            {
                continue; // Too slow for a debug-build test; REFERENCE.md has them.
            }
            let covers = read_fixture(&exact_dir().join(&row.file)).unwrap();
            if covers.iter().any(|c| c.has_colours() || c.has_bounds()) {
                continue; // `verify_xcc` counts these, by brute force.
            }
            let counts: Vec<u64> = covers.iter().map(naive_count).collect();
            assert_eq!(counts, row.solutions, "{}", row.file);
            checked += 1;
        }
        assert!(checked >= 20);
    }

    /// The brute force of `verify_xcc` (options in or out, in order) and
    /// the naive search above (items in order) agree on plain problems.
    #[test]
    fn naive_search_and_brute_force_agree() {
        for name in [
            "queens4",
            "queens5",
            "queens6",
            "langford3",
            "langford4",
            "langford5",
        ] {
            let cover = &read_fixture(&exact_dir().join(format!("{name}.dlx"))).unwrap()[0];
            let brute = crate::verify_xcc::brute_force_count(cover);
            assert_eq!(naive_count(cover), brute, "{name}");
        }
        let matrices = read_fixture(&exact_dir().join("matrix_several.txt")).unwrap();
        for matrix in &matrices {
            assert_eq!(
                naive_count(matrix),
                crate::verify_xcc::brute_force_count(matrix)
            );
        }
    }

    /// Items p q primary, p at most twice and q from 1 to 3 times; x y
    /// secondary, with colours.
    const COLOURED: &str = "0:2|p 1:3|q | x y\n\
                            p x:A\n\
                            q x:A y\n\
                            p q x:B\n\
                            q y:C\n\
                            p\n\
                            q\n\
                            x:A y:C\n";

    fn coloured() -> Cover {
        read_knuth(COLOURED).unwrap()
    }

    #[test]
    fn colours_and_bounds_are_read() {
        let cover = coloured();
        assert_eq!(cover.items, ["p", "q", "x", "y"]);
        assert_eq!(cover.primary, 2);
        assert_eq!(
            cover.bounds,
            [Bounds { min: 0, max: 2 }, Bounds { min: 1, max: 3 }]
        );
        assert_eq!(cover.colour_names, ["A", "B", "C"]);
        assert_eq!(cover.options[1], [1, 2, 3]);
        assert_eq!(cover.colours[1], [None, Some(0), None]);
        assert_eq!(cover.option_text(2), "p q x:B");
        assert!(!cover.has_primary(6), "`x:A y:C` names no primary item");
        assert!(cover.has_colours() && cover.has_bounds());
        // `2|a` is exactly twice; `1:1|a` is plain `a`.
        let cover = read_knuth("2|a 1:1|b c | d\na b c\n").unwrap();
        let [two, once] = [Bounds { min: 2, max: 2 }, Bounds::ONCE];
        assert_eq!(cover.bounds, [two, once, once]);
        assert!(!read_knuth("a b\na b\n").unwrap().has_bounds());
        for bad in [
            "a | x\na:A\n",       // a colour on a primary item
            "a | 2|x\na x\n",     // bounds on a secondary item
            "3:2|a\na\n",         // min above max
            "0|a\na\n",           // max 0
            "0:x|a\na\n",         // not a number
            ":2|a\na\n",          // bounds without a min
            "a | x | y\na\n",     // two `|`
            "a:b\na\n",           // a colon in an item name
            "a | x\na x:\n",      // an empty colour
            "a | x\na x:A x:B\n", // an item twice
        ] {
            assert!(read_knuth(bad).is_err(), "{bad:?} is read");
        }
    }

    #[test]
    fn coloured_options_are_named_with_their_colours() {
        let cover = coloured();
        assert_eq!(cover.option_named("p x:A"), Ok(0));
        assert_eq!(cover.option_named("x:A p"), Ok(0), "any order");
        assert!(cover.option_named("p x").is_err(), "colour missing");
        assert!(cover.option_named("p x:B").is_err(), "another colour");
        assert!(cover.option_named("p x:D").is_err(), "unknown colour");
        assert!(cover.option_named("q x:A y:C").is_err(), "colour added");
        assert!(cover.option_named("p:A").is_err(), "not an option");
    }

    #[test]
    fn coloured_covers_pass() {
        let cover = coloured();
        for solution in [
            &["q"][..],
            &["p x:A", "q x:A y"],
            &["p", "q y:C", "q"],
            &["p q x:B", "q"],
        ] {
            let options = named(&cover, solution);
            let check = check_cover(&cover, &options);
            assert_eq!(check.as_ref().err(), None.as_ref(), "{solution:?}");
        }
    }

    /// Each way a solution with colours and bounds can be wrong is caught.
    #[test]
    fn coloured_covers_fail() {
        let cover = coloured();
        let check = |solution: &[&str]| check_cover(&cover, &named(&cover, solution));
        let fails = |solution: &[&str], reason: &str| {
            assert_eq!(check(solution), Err(reason.to_owned()), "{solution:?}")
        };
        fails(
            &["p x:A", "p q x:B"],
            "secondary item x is given two colours, A and B",
        );
        fails(
            &["p x:A", "q x:A y", "q y:C"],
            "secondary item y is covered 2 times, not all with a colour",
        );
        fails(
            &["p x:A", "p q x:B", "p"],
            "primary item p is covered 3 times, not 0 to 2",
        );
        fails(&["p x:A"], "primary item q is covered 0 times, not 1 to 3");
        assert!(check(&["q", "q"]).unwrap_err().contains("chosen twice"));
        let ignored = cover.option_named("x:A y:C").unwrap();
        let q = cover.option_named("q").unwrap();
        assert_eq!(
            check_cover(&cover, &[q, ignored]),
            Err("option `x:A y:C` has no primary item (such options are ignored)".to_owned())
        );
        assert!(check_cover(&cover, &[q, 99]).is_err(), "unknown option");
        assert!(
            check_knuth_text(&cover, 1, "q\nq x:D\n\n").is_err(),
            "unknown colour"
        );
        // Exactly twice, as DLX3's `2|r`.
        let two = read_knuth("2|r c\nr\nr c\nc\n").unwrap();
        assert_eq!(
            check_cover(&two, &named(&two, &["r c"])),
            Err("primary item r is covered 1 times, not 2".to_owned())
        );
        assert_eq!(check_cover(&two, &named(&two, &["r c", "r"])), Ok(()));
    }

    #[test]
    fn all_text_answers() {
        let cover = coloured();
        let good = "q\n\np x:A\nq x:A y\n\n";
        assert_eq!(check_knuth_all_text(&cover, 2, good), Ok(()));
        assert!(check_knuth_all_text(&cover, 3, good).is_err(), "too few");
        assert!(check_knuth_all_text(&cover, 1, good).is_err(), "too many");
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\nq\n\n").is_err(),
            "repeated"
        );
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\n\nq y:C\n\n").is_err(),
            "blank"
        );
        assert!(
            check_knuth_all_text(&cover, 2, "q\n\nq y:C\n").is_err(),
            "unended"
        );
        assert!(
            check_knuth_all_text(&cover, 1, "p x:A\n\n").is_err(),
            "q uncovered"
        );
        let clash = "p x:A\np q x:B\n\n";
        assert!(
            check_knuth_all_text(&cover, 1, clash).is_err(),
            "colour clash"
        );
        assert_eq!(check_knuth_all_text(&cover, 0, "no solution\n\n"), Ok(()));
        assert!(check_knuth_all_text(&cover, 0, "q\n\n").is_err());
    }

    #[test]
    fn giving_up_is_expected_where_no_search_ends_at_the_root() {
        let plain = |name: &str| read_fixture(&exact_dir().join(name)).unwrap().remove(0);
        assert!(gives_up_at_once(&plain("queens4.dlx"), 2));
        assert!(
            !gives_up_at_once(&plain("queens1.dlx"), 1),
            "one option solves it"
        );
        assert!(!gives_up_at_once(&plain("queens3.dlx"), 0), "no solution");
        assert!(!gives_up_at_once(&coloured(), 5), "`q` alone is a solution");
        assert!(gives_up_at_once(&plain("twoqueens4.dlx"), 11));
    }
}
