//! The readers of the fixtures' manifests (`expected.tsv` in each directory
//! of `fixtures/`): what each fixture must come to. Every manifest has `#`
//! comment lines, a header, then one tab-separated row per file; a reader
//! names the line of anything it cannot read.
//!
//! It must not know how the answers are checked: it reads what is
//! expected, nothing more.

use std::path::Path;

/// The rows of a manifest after its header, as (line number, cells), with
/// exactly `columns` cells each. `Err` when the header is not `header`.
fn rows<'a>(text: &'a str, header: &str) -> Result<Vec<(usize, Vec<&'a str>)>, String> {
    let mut rows = Vec::new();
    let mut seen_header = false;
    let columns = header.split('\t').count();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if !seen_header {
            if line != header {
                return Err(format!(
                    "line {number}: expected the header {header:?}, found {line:?}"
                ));
            }
            seen_header = true;
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != columns {
            return Err(format!(
                "line {number}: expected {columns} tab-separated columns, found {}",
                cells.len()
            ));
        }
        rows.push((number, cells));
    }
    if !seen_header {
        return Err(format!("no header line {header:?}"));
    }
    Ok(rows)
}

/// Reads the file at `path`, naming it in the error.
fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// `fixtures/exact/expected.tsv`.

/// One row of the exact-cover manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// The file name, relative to the manifest's directory.
    pub file: String,
    /// The number of solutions of each instance in the file (a matrix file
    /// holds several).
    pub solutions: Vec<u64>,
    /// Search nodes of each instance, when checked.
    pub nodes: Option<Vec<u64>>,
    /// Updates of each instance, when checked.
    pub updates: Option<Vec<u64>>,
}

/// The header of the exact-cover manifest.
pub const MANIFEST_HEADER: &str = "file\tsolutions\tnodes\tupdates";

/// Reads the exact-cover manifest at `path`: after the header
/// [`MANIFEST_HEADER`], one row per file, each number column `-` (not
/// checked) or one number per instance, separated by commas.
pub fn read_manifest(path: &Path) -> Result<Vec<Expected>, String> {
    parse_manifest(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the text of an exact-cover manifest (see [`read_manifest`]).
pub fn parse_manifest(text: &str) -> Result<Vec<Expected>, String> {
    let mut expected: Vec<Expected> = Vec::new();
    for (number, cells) in rows(text, MANIFEST_HEADER)? {
        let [file, solutions, nodes, updates] = cells[..] else {
            unreachable!("rows() gives four cells");
        };
        let numbers = |cell: &str| -> Result<Option<Vec<u64>>, String> {
            if cell == "-" {
                return Ok(None);
            }
            let list = cell
                .split(',')
                .map(|n| n.trim().parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| format!("line {number}: {cell:?} is not `-` nor numbers"))?;
            Ok(Some(list))
        };
        let solutions = numbers(solutions)?
            .ok_or_else(|| format!("line {number}: the solution count cannot be `-`"))?;
        let (nodes, updates) = (numbers(nodes)?, numbers(updates)?);
        for list in [&nodes, &updates].into_iter().flatten() {
            if list.len() != solutions.len() {
                return Err(format!(
                    "line {number}: the columns give different numbers of instances"
                ));
            }
        }
        if expected.iter().any(|r| r.file == file) {
            return Err(format!("line {number}: {file} is listed twice"));
        }
        expected.push(Expected {
            file: file.to_owned(),
            solutions,
            nodes,
            updates,
        });
    }
    Ok(expected)
}

// ---------------------------------------------------------------------------
// `fixtures/sudoku/expected.tsv`.

/// How a sudoku fixture lays out its puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line.
    Line,
    /// One row per line, puzzles separated by blank lines.
    Grid,
}

/// What one puzzle of a sudoku fixture must come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// This many solutions.
    Count(u64),
    /// The puzzle is malformed: reported and marked `invalid`.
    Invalid,
}

/// One row of the sudoku manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuFixture {
    /// The file, relative to `fixtures/sudoku/`.
    pub file: String,
    /// Its layout.
    pub layout: Layout,
    /// Extra arguments (`--symbols ...`).
    pub args: Vec<String>,
    /// One per puzzle, in order.
    pub expect: Vec<Expect>,
}

impl SudokuFixture {
    /// The exit status `cover sudoku` must end with.
    pub fn exit_code(&self) -> i32 {
        if self.expect.contains(&Expect::Invalid) {
            2
        } else if self.expect.contains(&Expect::Count(0)) {
            1
        } else {
            0
        }
    }

    /// The symbols given with `--symbols`, if any.
    pub fn symbols(&self) -> Option<&str> {
        let at = self.args.iter().position(|a| a == "--symbols")?;
        self.args.get(at + 1).map(String::as_str)
    }
}

/// The header of the sudoku manifest.
pub const SUDOKU_HEADER: &str = "file\tlayout\targs\tcounts";

/// Reads the sudoku manifest: after the header [`SUDOKU_HEADER`], `file`,
/// `line` or `grid`, the extra arguments (`-` for none) and the counts (`x`
/// for an invalid puzzle), tab-separated.
pub fn parse_sudoku_manifest(text: &str) -> Result<Vec<SudokuFixture>, String> {
    let mut fixtures = Vec::new();
    for (number, cells) in rows(text, SUDOKU_HEADER)? {
        let [file, layout, args, counts] = cells[..] else {
            unreachable!("rows() gives four cells");
        };
        let layout = match layout {
            "line" => Layout::Line,
            "grid" => Layout::Grid,
            other => {
                return Err(format!(
                    "line {number}: layout {other:?} is not `line` or `grid`"
                ))
            }
        };
        let args = match args {
            "-" => Vec::new(),
            args => args.split_whitespace().map(str::to_owned).collect(),
        };
        let expect = counts
            .split(',')
            .map(|c| match c.trim() {
                "x" => Ok(Expect::Invalid),
                n => n.parse().map(Expect::Count),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("line {number}: bad counts {counts:?}: {e}"))?;
        fixtures.push(SudokuFixture {
            file: file.to_owned(),
            layout,
            args,
            expect,
        });
    }
    Ok(fixtures)
}

// ---------------------------------------------------------------------------
// `fixtures/radar/expected.tsv` and `fixtures/target/expected.tsv`.

/// One row of a manifest of exit statuses and error lines (radar, target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitExpected {
    /// The input file, relative to the manifest's directory.
    pub file: String,
    /// The exit status.
    pub exit: i32,
    /// The lines the error messages name.
    pub error_lines: Vec<usize>,
}

/// The header of a manifest of exit statuses and error lines.
pub const EXIT_HEADER: &str = "file\texit\terror_lines";

/// Reads a manifest of exit statuses and error lines: after the header
/// [`EXIT_HEADER`], `file`, the exit status and the error lines (`-` for
/// none, else numbers separated by commas).
pub fn parse_exit_manifest(text: &str) -> Result<Vec<ExitExpected>, String> {
    let mut expected = Vec::new();
    for (number, cells) in rows(text, EXIT_HEADER)? {
        let [file, exit, lines] = cells[..] else {
            unreachable!("rows() gives three cells");
        };
        let bad = |cell: &str| format!("line {number}: {cell:?} is not a number");
        let error_lines = if lines == "-" {
            Vec::new()
        } else {
            lines
                .split(',')
                .map(|n| n.parse().map_err(|_| bad(n)))
                .collect::<Result<_, _>>()?
        };
        expected.push(ExitExpected {
            file: file.to_owned(),
            exit: exit.parse().map_err(|_| bad(exit))?,
            error_lines,
        });
    }
    Ok(expected)
}

/// Reads the manifest of exit statuses and error lines at `path`.
pub fn read_exit_manifest(path: &Path) -> Result<Vec<ExitExpected>, String> {
    parse_exit_manifest(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the sudoku manifest at `path`.
pub fn read_sudoku_manifest(path: &Path) -> Result<Vec<SudokuFixture>, String> {
    parse_sudoku_manifest(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_manifest_format() {
        let text =
            "# comment\nfile\tsolutions\tnodes\tupdates\na.dlx\t2\t13\t197\nm.txt\t1,0\t-\t-\n";
        let rows = parse_manifest(text).unwrap();
        assert_eq!(rows[0].nodes, Some(vec![13]));
        assert_eq!(rows[1].solutions, [1, 0]);
        assert_eq!(rows[1].updates, None);
        assert!(parse_manifest("a.dlx\t1\t-\t-\n").is_err(), "no header");
        assert!(parse_manifest(&format!("{MANIFEST_HEADER}\na.dlx\t1,2\t3\t-\n")).is_err());
        assert!(parse_manifest(&format!("{MANIFEST_HEADER}\na.dlx\t-\t3\t4\n")).is_err());
        assert!(parse_manifest(&format!("{MANIFEST_HEADER}\na.dlx\t1\n")).is_err());
    }

    #[test]
    fn sudoku_manifest_format() {
        let text = format!("# c\n{SUDOKU_HEADER}\na.txt\tline\t--symbols 1234\t1,x,0\n");
        let fixtures = parse_sudoku_manifest(&text).unwrap();
        assert_eq!(fixtures[0].layout, Layout::Line);
        assert_eq!(fixtures[0].symbols(), Some("1234"));
        let expect = [Expect::Count(1), Expect::Invalid, Expect::Count(0)];
        assert_eq!(fixtures[0].expect, expect);
        assert_eq!(fixtures[0].exit_code(), 2);
        assert!(parse_sudoku_manifest(&format!("{SUDOKU_HEADER}\na\trow\t-\t1\n")).is_err());
        assert!(parse_sudoku_manifest(&format!("{SUDOKU_HEADER}\na\tline\t-\ty\n")).is_err());
    }

    #[test]
    fn exit_manifest_format() {
        let text = format!("{EXIT_HEADER}\na.in\t0\t-\nb.in\t2\t3,5\n");
        let rows = parse_exit_manifest(&text).unwrap();
        assert_eq!(rows[1].error_lines, [3, 5]);
        assert_eq!(rows[1].exit, 2);
        assert!(parse_exit_manifest(&format!("{EXIT_HEADER}\na\tx\t-\n")).is_err());
        assert!(parse_exit_manifest("a\t0\t-\n").is_err(), "no header");
    }
}
