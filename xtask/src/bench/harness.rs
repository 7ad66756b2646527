//! What every workload of `cargo xtask bench` shares: timing by turns and
//! best of N, the median, tables, the runner of other programs and the
//! `cover` binary, and the one catalogue of the datasets with their paths
//! (the sudoku sets, the exact-cover problems and their reference tables).
//!
//! It knows no engine and no workload: the workloads hand it closures,
//! programs and names.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::sudoku::{Puzzle, Puzzles, Symbols};

use crate::flags::Flags;
use crate::paths;

/// The best time of each pass over `runs` runs, the passes taking turns
/// within each run (so that the machine's drift falls on all alike); a
/// pass's time is that of `repeats` calls, divided by `repeats`.
pub fn by_turns(runs: usize, repeats: u32, passes: &mut [Box<dyn FnMut() + '_>]) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; passes.len()];
    for _ in 0..runs.max(1) {
        for (pass, best) in passes.iter_mut().zip(&mut best) {
            let start = Instant::now();
            for _ in 0..repeats {
                pass();
            }
            *best = (*best).min(start.elapsed() / repeats);
        }
    }
    best
}

/// Runs `work` `runs` times (at least once): the fastest time and the
/// last result.
pub fn best_of<T>(runs: usize, mut work: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let value = work();
        best = best.min(start.elapsed());
        result = Some(value);
    }
    (best, result.expect("ran at least once"))
}

/// The middle value (the upper one of an even count); sorts `values`.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Microseconds per item.
pub fn micros_per(time: Duration, items: usize) -> f64 {
    time.as_secs_f64() * 1e6 / items.max(1) as f64
}

/// A table printed as it goes: the header first, then a row at a time.
pub struct Table {
    /// Column widths; a negative one aligns left.
    widths: Vec<isize>,
}

impl Table {
    /// Prints the header of `columns`, `|`-separated, each a title and a
    /// width (negative: the column aligns left): `"problem -16|nodes 11"`.
    pub fn new(columns: &str) -> Table {
        let columns: Vec<(&str, isize)> = columns
            .split('|')
            .map(|column| {
                let (title, width) = column.rsplit_once(' ').unwrap_or(("", column));
                (title, width.parse().expect("a column's width"))
            })
            .collect();
        let table = Table {
            widths: columns.iter().map(|&(_, width)| width).collect(),
        };
        let titles: Vec<&dyn Display> = columns.iter().map(|(title, _)| title as _).collect();
        table.row(&titles);
        table
    }

    /// Prints one row, a cell a column (a cell past the last column is
    /// printed as it is).
    pub fn row(&self, cells: &[&dyn Display]) {
        let mut line = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let (cell, width) = (cell.to_string(), self.widths.get(i).copied().unwrap_or(0));
            let pad = " ".repeat(width.unsigned_abs().saturating_sub(cell.chars().count()));
            if i > 0 {
                line.push(' ');
            }
            line += &if width < 0 { cell + &pad } else { pad + &cell };
        }
        println!("{}", line.trim_end());
    }
}

/// A number with a fixed count of decimals, as a table cell.
pub fn fixed(value: f64, decimals: usize) -> String {
    format!("{value:.decimals$}")
}

/// How long a benchmarked program may run before it is killed.
const PROGRAM_LIMIT: Duration = Duration::from_secs(24 * 3600);

/// Runs `program` with `args` and `stdin`, timed from start to exit; an
/// error unless it exits with one of `exits` (any exit when empty).
pub fn run<S: AsRef<str>>(
    program: &Path,
    args: &[S],
    stdin: &[u8],
    exits: &[i32],
) -> Result<cover_check::process::Run> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let run = cover_check::process::run(program, &args, stdin, PROGRAM_LIMIT)
        .map_err(anyhow::Error::msg)?;
    if !exits.is_empty() && !run.code.is_some_and(|code| exits.contains(&code)) {
        bail!(
            "{} {} failed ({:?}): {}",
            program.display(),
            args.join(" "),
            run.code,
            run.stderr.lines().next().unwrap_or("").trim()
        );
    }
    Ok(run)
}

/// Prints each failed check and fails when there is one.
pub fn fail_on(failures: &[String]) -> Result<()> {
    for failure in failures {
        println!("FAIL {failure}");
    }
    match failures.len() {
        0 => Ok(()),
        n => bail!("{n} checks failed"),
    }
}

/// Writes `text` to `target/bench-<workload>/<file>` (the folder of the
/// workload's files, made when missing), for timing other programs on the
/// same input; its path.
pub fn write_scratch(workload: &str, file: &str, text: &str) -> Result<PathBuf> {
    let dir = scratch_dir(workload)?;
    std::fs::write(dir.join(file), text)?;
    Ok(dir.join(file))
}

/// `target/bench-<workload>`, made when missing.
pub fn scratch_dir(workload: &str) -> Result<PathBuf> {
    let dir = paths::workspace_root().join(format!("target/bench-{workload}"));
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    Ok(dir)
}

/// The `cover` binary: `--bin PATH` when given, else the release build.
pub fn cover_binary(flags: &Flags) -> Result<PathBuf> {
    match flags.value("--bin") {
        Some(path) => Ok(PathBuf::from(path)),
        None => cover_check::process::build_release(&paths::workspace_root())
            .map_err(anyhow::Error::msg),
    }
}

/// The names of `known` that `named` lists, in `known`'s order; all of
/// them when `named` is empty; an error naming them for any other name.
pub fn pick<'a>(named: &[String], known: &[&'a str]) -> Result<Vec<&'a str>> {
    if let Some(other) = named.iter().find(|n| !known.contains(&n.as_str())) {
        bail!("unknown name {other:?}; known: {}", known.join(", "));
    }
    Ok(known
        .iter()
        .copied()
        .filter(|k| named.is_empty() || named.iter().any(|n| n == k))
        .collect())
}

/// A sudoku set of the datasets: its files and, when not the size's
/// default, the digits' symbols.
pub struct SudokuSet {
    pub name: &'static str,
    /// Files under `paths::datasets()`, read one after another.
    pub files: &'static [&'static str],
    pub symbols: Option<&'static str>,
}

const SYMBOLS_16: Option<&str> = Some("123456789ABCDEFG");
const SYMBOLS_25: Option<&str> = Some("123456789ABCDEFGHIJKLMNOP");

const fn set(name: &'static str, files: &'static [&'static str]) -> SudokuSet {
    SudokuSet {
        name,
        files,
        symbols: None,
    }
}

/// Every sudoku set the workloads time.
pub const SUDOKU_SETS: &[SudokuSet] = &[
    set("17_clue", &["sudoku9/17_clue.txt"]),
    set("forum_hardest_1106", &["sudoku9/forum_hardest_1106.txt"]),
    set(
        "forum_hardest_1905_11plus",
        &["sudoku9/forum_hardest_1905_11plus.txt"],
    ),
    set("magictour_top1465", &["sudoku9/magictour_top1465.txt"]),
    SudokuSet {
        symbols: SYMBOLS_16,
        ..set(
            "16x16",
            &["sudoku16/gecode_16x16.txt", "sudoku16/satsolvers_16x16.txt"],
        )
    },
    SudokuSet {
        symbols: SYMBOLS_25,
        ..set("gecode_25x25", &["sudoku25/gecode_25x25.txt"])
    },
];

/// The set of the catalogue named `name`.
pub fn sudoku_set(name: &str) -> &'static SudokuSet {
    SUDOKU_SETS
        .iter()
        .find(|set| set.name == name)
        .expect("a set of the catalogue")
}

/// A set's puzzles, read.
pub struct Loaded {
    /// Their lines, one puzzle a line (comments and blank lines left out).
    pub text: String,
    pub puzzles: Vec<Puzzle>,
}

impl SudokuSet {
    /// The set's puzzles, only the first `first` when given; `None` (and a
    /// line saying so) when a file is not here.
    pub fn load(&self, first: Option<usize>) -> Result<Option<Loaded>> {
        let mut text = String::new();
        let mut count = 0;
        for file in self.files {
            let path = paths::datasets().join(file);
            let Ok(contents) = std::fs::read_to_string(&path) else {
                println!("{}: not here ({})", self.name, path.display());
                return Ok(None);
            };
            for line in contents.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                if first.is_some_and(|first| count >= first) {
                    break;
                }
                text += line;
                text.push('\n');
                count += 1;
            }
        }
        let puzzles = self.parse(&text)?;
        Ok(Some(Loaded { text, puzzles }))
    }

    /// The puzzles of `text`, in the set's symbols.
    pub fn parse(&self, text: &str) -> Result<Vec<Puzzle>> {
        let symbols = self.symbols.map(Symbols::new).transpose()?;
        Puzzles::new(text.as_bytes(), symbols)
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.name))
    }
}

/// The exact-cover problems, `shared()/xc`, with their reference tables.
pub fn xc_dir() -> PathBuf {
    paths::shared().join("xc")
}

/// The cells of a row of a Markdown table, when it is the row of a `.dlx`
/// file with `columns` cells.
fn dlx_row(line: &str, columns: usize) -> Option<Vec<&str>> {
    let cells: Vec<&str> = line
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    (cells.len() == columns && cells[0].ends_with(".dlx")).then_some(cells)
}

/// Reads the table of `REFERENCE.md`, DLX1's counts and time a problem:
/// `| file | solutions | nodes | updates | seconds |`.
pub fn read_reference(path: &Path) -> Result<Vec<XccRow>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let mut rows = Vec::new();
    for cells in text.lines().filter_map(|line| dlx_row(line, 5)) {
        rows.push(XccRow {
            name: cells[0].trim_end_matches(".dlx").to_owned(),
            program: Program::Dlx1,
            solutions: cells[1].parse()?,
            nodes: cells[2].parse()?,
            updates: cells[3].parse()?,
            cleansings: 0,
            seconds: cells[4].parse()?,
        });
    }
    Ok(rows)
}

/// Which of Knuth's programs a reference row is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// No colours (`REFERENCE.md`): it reports no cleansings.
    Dlx1,
    /// Colours: its rule of branching is DLX1's, which `cover` follows.
    Dlx2,
    /// Colours and multiplicities: another rule of branching.
    Dlx3,
}

impl Program {
    pub fn name(self) -> &'static str {
        match self {
            Program::Dlx1 => "DLX1",
            Program::Dlx2 => "DLX2",
            Program::Dlx3 => "DLX3",
        }
    }
}

/// One row of `REFERENCE-XCC.md` or `REFERENCE.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct XccRow {
    /// The file name without `.dlx`.
    pub name: String,
    pub program: Program,
    pub solutions: u64,
    pub nodes: u64,
    pub updates: u64,
    pub cleansings: u64,
    pub seconds: f64,
}

/// The table of `REFERENCE-XCC.md`:
/// `| file | program | solutions | nodes | updates | cleansings | seconds |`.
/// Lines that are not rows of a `.dlx` file (the header, the rule, the
/// text) are skipped; a row that does not parse is an error.
pub fn parse_xcc_reference(text: &str) -> Result<Vec<XccRow>> {
    let mut rows = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(cells) = dlx_row(line, 7) else {
            continue;
        };
        let row = (|| -> Result<XccRow> {
            let program = match cells[1].to_ascii_uppercase().as_str() {
                "DLX2" => Program::Dlx2,
                "DLX3" => Program::Dlx3,
                other => bail!("unknown program {other:?}"),
            };
            Ok(XccRow {
                name: cells[0].trim_end_matches(".dlx").to_owned(),
                program,
                solutions: cells[2].parse()?,
                nodes: cells[3].parse()?,
                updates: cells[4].parse()?,
                cleansings: cells[5].parse()?,
                seconds: cells[6].parse()?,
            })
        })()
        .with_context(|| format!("line {}: {line:?}", number + 1))?;
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_turns_keeps_each_passes_best_and_runs_each_as_often() {
        let calls = std::cell::Cell::new([0u32; 2]);
        let count = |i: usize| {
            let mut c = calls.get();
            c[i] += 1;
            calls.set(c);
        };
        let mut passes: Vec<Box<dyn FnMut()>> = vec![
            Box::new(|| count(0)),
            Box::new(|| {
                count(1);
                std::thread::sleep(Duration::from_millis(2));
            }),
        ];
        let times = by_turns(3, 2, &mut passes);
        drop(passes);
        assert_eq!(calls.get(), [6, 6]);
        assert!(times[0] < times[1] && times[1] >= Duration::from_millis(2));
    }

    #[test]
    fn best_of_runs_at_least_once_and_median_takes_the_middle() {
        let mut runs = 0;
        let (_, last) = best_of(0, || {
            runs += 1;
            runs
        });
        assert_eq!((runs, last), (1, 1));
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn pick_keeps_the_known_order_and_names_the_known() {
        let named = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let known = ["a", "b", "c"];
        assert_eq!(pick(&named(&[]), &known).unwrap(), known);
        assert_eq!(pick(&named(&["c", "a"]), &known).unwrap(), ["a", "c"]);
        let error = pick(&named(&["d"]), &known).unwrap_err().to_string();
        assert_eq!(error, "unknown name \"d\"; known: a, b, c");
    }

    #[test]
    fn tables_read_their_columns() {
        let table = Table::new("name -6|count 5| -2|µs 3");
        assert_eq!(table.widths, [-6, 5, -2, 3]);
    }

    #[test]
    fn the_catalogue_names_each_set_once() {
        for set in SUDOKU_SETS {
            assert_eq!(SUDOKU_SETS.iter().filter(|s| s.name == set.name).count(), 1);
            assert_eq!(sudoku_set(set.name).files, set.files);
            assert!(set.files.iter().all(|f| f.ends_with(".txt")));
        }
    }

    #[test]
    fn reads_the_xcc_table_with_its_cleansings_column() {
        let text = "# Colour\n\ntext | with bars | but no file\n\
            | file | program | solutions | nodes | updates | cleansings | seconds |\n\
            |---|---|---|---|---|---|---|\n\
            | xcc_small.dlx | DLX2 | 3 | 7 | 24 | 8 | 0.01 |\n\
            | twoqueens8.dlx | DLX3 | 477136 | 12128277 | 101798656 | 0 | 3.24 |\n\
            | queens8.dlx | 92 | 975 | 16126 | 0.00 |\n";
        let rows = parse_xcc_reference(text).unwrap();
        assert_eq!(
            rows,
            [
                XccRow {
                    name: "xcc_small".into(),
                    program: Program::Dlx2,
                    solutions: 3,
                    nodes: 7,
                    updates: 24,
                    cleansings: 8,
                    seconds: 0.01,
                },
                XccRow {
                    name: "twoqueens8".into(),
                    program: Program::Dlx3,
                    solutions: 477136,
                    nodes: 12128277,
                    updates: 101798656,
                    cleansings: 0,
                    seconds: 3.24,
                },
            ]
        );
        let bad = "| x.dlx | DLX9 | 1 | 2 | 3 | 4 | 0.1 |\n";
        assert!(parse_xcc_reference(bad).is_err());
        let bad = "| x.dlx | DLX2 | 1 | two | 3 | 4 | 0.1 |\n";
        assert!(parse_xcc_reference(bad).is_err());
    }

    #[test]
    fn reads_the_shared_tables_when_they_are_here() {
        if let Ok(text) = std::fs::read_to_string(xc_dir().join("REFERENCE-XCC.md")) {
            let rows = parse_xcc_reference(&text).unwrap();
            assert!(rows.iter().any(|r| r.name == "xcc_small"));
        }
        if xc_dir().join("REFERENCE.md").is_file() {
            let rows = read_reference(&xc_dir().join("REFERENCE.md")).unwrap();
            assert!(rows.iter().any(|r| r.name == "queens14"));
        }
    }
}
