//! The seeds' sudoku programs themselves (`shared/seeds/000_*.txt`, 9×9;
//! `002_*.txt`, 16×16), cut out of the seed documents at bench time and
//! compiled with the machine's C++ compiler, so that `bench sudoku` can
//! run them, whole process, by turns with `cover`: the bar's own measure.
//! Nothing of the seeds is kept in the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::harness;

/// A seed program for one sudoku size, built and ready to run.
pub struct ContestProgram {
    /// The seed it was built from, to name in reports.
    pub seed: String,
    exe: PathBuf,
    side: usize,
}

/// The seed file of the program for `side`×`side` sudoku, by its number.
fn seed_prefix(side: usize) -> Option<&'static str> {
    match side {
        9 => Some("000_"),
        16 => Some("002_"),
        _ => None,
    }
}

/// The C++ program in a seed document: from the first `#include` line to
/// the blog's "View Code" marker or the end; line numbers the blog put in
/// front of each line are dropped, and closing braces the copy lost at its
/// end are put back.
fn cut_program(document: &str) -> Option<String> {
    let numbered = |line: &str| -> Option<String> {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let rest = &line[digits..];
        (rest.is_empty() || rest.starts_with(' ')).then(|| rest.get(1..).unwrap_or("").to_owned())
    };
    let mut lines = document.lines().skip_while(|line| {
        let code = numbered(line).unwrap_or_else(|| line.to_string());
        !code.trim_start().starts_with("#include")
    });
    let first = lines.next()?;
    let with_numbers = numbered(first).is_some();
    let mut program = String::new();
    for line in std::iter::once(first).chain(lines) {
        if line.trim() == "View Code" {
            break;
        }
        let code = if with_numbers {
            numbered(line).unwrap_or_default()
        } else {
            line.to_owned()
        };
        program.push_str(&code);
        program.push('\n');
    }
    // A copy that lost its last closing braces gets them back (the
    // programs have no braces in strings or character literals).
    let open = program.matches('{').count();
    let close = program.matches('}').count();
    for _ in close..open {
        program.push_str("}\n");
    }
    Some(program)
}

impl ContestProgram {
    /// The side of the sudoku it solves.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Builds the seed program for `side`×`side` sudoku into `out_dir`.
    /// `Ok(None)` when there is none for that size, or no seed, or no C++
    /// compiler (`$CXX`, else `c++`); an error when the compiler fails.
    pub fn build(seeds: &Path, out_dir: &Path, side: usize) -> Result<Option<ContestProgram>> {
        let Some(prefix) = seed_prefix(side) else {
            return Ok(None);
        };
        let Ok(entries) = std::fs::read_dir(seeds) else {
            return Ok(None);
        };
        let Some(path) = entries.filter_map(|e| e.ok().map(|e| e.path())).find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        }) else {
            return Ok(None);
        };
        let document =
            std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        let program = cut_program(&document)
            .with_context(|| format!("{}: no C++ program in it", path.display()))?;
        // `$CXX` may hold arguments too (`ccache g++`).
        let compiler = std::env::var("CXX").unwrap_or_else(|_| "c++".to_owned());
        let mut words = compiler.split_whitespace();
        let Some(cxx) = words.next() else {
            return Ok(None);
        };
        let arguments: Vec<&str> = words.collect();
        if Command::new(cxx)
            .args(&arguments)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_err()
        {
            return Ok(None);
        }
        std::fs::create_dir_all(out_dir)?;
        let source = out_dir.join(format!("contest_{side}.cpp"));
        let exe = out_dir.join(format!("contest_{side}{}", std::env::consts::EXE_SUFFIX));
        std::fs::write(&source, program)?;
        let output = Command::new(cxx)
            .args(&arguments)
            .arg("-O2")
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .output()
            .with_context(|| format!("running {compiler}"))?;
        if !output.status.success() {
            bail!(
                "{compiler} -O2 {}: {}",
                source.display(),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let seed = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        Ok(Some(ContestProgram {
            seed: format!("{seed}, {compiler} -O2"),
            exe,
            side,
        }))
    }

    /// The puzzles in the program's own input format: 9×9 one line each,
    /// `.` for empty; 16×16 sixteen lines of `A`..`P`, `-` for empty.
    /// `cells` holds each puzzle's digits (0 empty, else `1..=side`).
    pub fn input<'a>(&self, cells: impl Iterator<Item = &'a [u8]>) -> String {
        let (empty, first) = if self.side == 9 {
            (b'.', b'1')
        } else {
            (b'-', b'A')
        };
        let mut text = String::new();
        for puzzle in cells {
            for (i, &d) in puzzle.iter().enumerate() {
                text.push(char::from(if d == 0 { empty } else { first + d - 1 }));
                if self.side != 9 && i % self.side == self.side - 1 {
                    text.push('\n');
                }
            }
            if self.side == 9 {
                text.push('\n');
            }
        }
        text
    }

    /// The solutions the program printed, as digits `1..=side` a cell.
    pub fn solutions(&self, output: &str) -> Vec<Vec<u8>> {
        let first = if self.side == 9 { b'1' } else { b'A' };
        let digits: Vec<u8> = output
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| b.wrapping_sub(first).wrapping_add(1))
            .collect();
        digits
            .chunks(self.side * self.side)
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// Runs the program on `input`: its standard output and time.
    pub fn run(&self, input: &str) -> Result<(String, Duration)> {
        let done = harness::run(&self.exe, &[] as &[&str], input.as_bytes(), &[0])?;
        Ok((done.stdout, done.elapsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_numbered_and_plain_programs() {
        let numbered =
            "intro\n1 #include <cstdio>\n2\n3 int main(){\n4 return 0;\n5 }\nView Code\ntail {";
        assert_eq!(
            cut_program(numbered).unwrap(),
            "#include <cstdio>\n\nint main(){\nreturn 0;\n}\n"
        );
        let plain = "text\n#include <cstdio>\nint main()\n{\n    return 0;";
        assert_eq!(
            cut_program(plain).unwrap(),
            "#include <cstdio>\nint main()\n{\n    return 0;\n}\n"
        );
        assert_eq!(cut_program("no code here"), None);
    }

    #[test]
    fn formats_and_reads_back_both_sizes() {
        for side in [9usize, 16] {
            let program = ContestProgram {
                seed: String::new(),
                exe: PathBuf::new(),
                side,
            };
            let puzzle: Vec<u8> = (0..side * side).map(|i| (i % (side + 1)) as u8).collect();
            let text = program.input(std::iter::once(puzzle.as_slice()));
            let lines = if side == 9 { 1 } else { side };
            assert_eq!(text.lines().count(), lines);
            // A solved grid reads back as its digits.
            let solved: Vec<u8> = (0..side * side).map(|i| (i % side) as u8 + 1).collect();
            let printed = program.input(std::iter::once(solved.as_slice()));
            assert_eq!(program.solutions(&printed), vec![solved]);
        }
    }
}
