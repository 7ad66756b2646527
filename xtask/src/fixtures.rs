//! `cargo xtask fixtures`: writes the generated files of `fixtures/` from
//! the generators below, byte for byte the same on every run.
//!
//! Generated (Knuth's DLX text format, as in `../shared/xc/`):
//! - `exact/queensN.dlx`, N in 1..=12: N queens as Knuth states it.
//! - `exact/langfordN.dlx`, N in 3..=8 and 11: Langford pairs.
//! - `exact/latin5.dlx`: Latin squares of order 5.
//! - the colour and multiplicity problems of `fixtures_xcc`:
//!   `exact/twoqueensN.dlx`, `exact/wordsquareN_aK_wW.dlx`,
//!   `exact/xcc_randomS.dlx`, `exact/mcc_randomS.dlx`.
//!
//! Written by hand and left alone here: the small matrices
//! `exact/matrix_*.txt`, `exact/xcc_small.dlx` (a copy of Knuth's example
//! in `../shared/xc/`) and the manifest `exact/expected.tsv`. After writing,
//! the manifest's rows of the generated colour and multiplicity problems
//! are compared with `verify_xcc` (brute-force solutions; DLX2's nodes and
//! updates where there are no bounds), and the run fails, printing the
//! rows to write, when they disagree.
//!
//! A test checks that the generators reproduce the `../shared/xc/` files
//! exactly, and another that the committed `fixtures/` are not stale.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// `fixtures/` at the workspace root.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// One generated file: its path under `fixtures/` and its contents.
pub struct Generated {
    /// The path relative to `fixtures/`, with `/` separators.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// Every generated fixture, in a fixed order.
pub fn generated() -> Vec<Generated> {
    let mut files = Vec::new();
    for n in 1..=12 {
        files.push(Generated {
            path: format!("exact/queens{n}.dlx"),
            text: queens(n),
        });
    }
    for n in [3, 4, 5, 6, 7, 8, 11] {
        files.push(Generated {
            path: format!("exact/langford{n}.dlx"),
            text: langford(n),
        });
    }
    files.push(Generated {
        path: "exact/latin5.dlx".to_owned(),
        text: latin(5),
    });
    files.extend(crate::fixtures_xcc::generated());
    files
}

/// Writes every generated fixture; files already up to date are left
/// untouched.
pub fn run(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask fixtures (no arguments)");
    }
    let root = fixtures_dir();
    let files = generated();
    let mut changed = 0;
    for file in &files {
        let path = root.join(&file.path);
        if std::fs::read(&path).ok().as_deref() == Some(file.text.as_bytes()) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
        }
        std::fs::write(&path, &file.text).with_context(|| format!("{}", path.display()))?;
        println!("fixtures: wrote {}", file.path);
        changed += 1;
    }
    println!(
        "fixtures: {} generated files, {changed} rewritten",
        files.len()
    );
    // The manifest's numbers of the colour and multiplicity problems are
    // verify_xcc's: say so now if a generator changed them.
    let wrong = crate::verify_xcc::compare_with_manifest(&files)?;
    if wrong > 0 {
        bail!("{wrong} counts of fixtures/exact/expected.tsv to update (see above)");
    }
    Ok(())
}

/// N queens in Knuth's formulation, as the model writes it (the tests
/// below hold it byte for byte to `shared/xc/queensN.dlx`).
pub fn queens(n: usize) -> String {
    cover_models::queens::Queens::new(n)
        .expect("fixture sizes are valid boards")
        .knuth_text()
}

/// Langford pairs of 1..=N in 2N slots: primary items the values `v1..vN`
/// and slots `s0..s(2N-1)`; value `v` goes in slots `s` and `s + v + 1`,
/// options ordered by value, then by first slot. Both orientations of each
/// arrangement are solutions.
pub fn langford(n: usize) -> String {
    let slots = 2 * n;
    let mut items: Vec<String> = (1..=n).map(|v| format!("v{v}")).collect();
    items.extend((0..slots).map(|s| format!("s{s}")));
    let mut text = items.join(" ");
    text.push('\n');
    for v in 1..=n {
        for s in 0..slots.saturating_sub(v + 1) {
            writeln!(text, "v{v} s{s} s{}", s + v + 1).unwrap();
        }
    }
    text
}

/// Latin squares of order N: primary items `pI_J` (cell I, J is filled),
/// `rI_K` (row I holds symbol K) and `cJ_K` (column J holds symbol K); one
/// option `pI_J rI_K cJ_K` per cell and symbol, in that nesting order.
pub fn latin(n: usize) -> String {
    let mut items: Vec<String> = Vec::new();
    for prefix in ["p", "r", "c"] {
        for i in 0..n {
            for k in 0..n {
                items.push(format!("{prefix}{i}_{k}"));
            }
        }
    }
    let mut text = items.join(" ");
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                writeln!(text, "p{i}_{j} r{i}_{k} c{j}_{k}").unwrap();
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_queens_by_hand() {
        assert_eq!(queens(1), "r0 c0 | a0 b0\nr0 c0 a0 b0\n");
        assert_eq!(
            queens(2),
            "r1 r0 c1 c0 | a0 a1 a2 b0 b1 b2\n\
             r0 c0 a0 b1\nr0 c1 a1 b2\nr1 c0 a1 b0\nr1 c1 a2 b1\n"
        );
    }

    /// The generators write exactly the files of `../shared/xc/`: every
    /// `queensN`, `langfordN` and `latinN` there, not only those in
    /// `fixtures/`.
    #[test]
    fn generators_match_shared_xc() {
        let dir = crate::paths::shared().join("xc");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!(
                "note: {} is not here; generators not compared with it",
                dir.display()
            );
            return;
        };
        let mut compared = Vec::new();
        for entry in entries {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().and_then(|e| e.to_str()) != Some("dlx") {
                continue;
            }
            let generator: fn(usize) -> String;
            let size = if let Some(n) = stem.strip_prefix("queens") {
                generator = queens;
                n
            } else if let Some(n) = stem.strip_prefix("langford") {
                generator = langford;
                n
            } else if let Some(n) = stem.strip_prefix("latin") {
                generator = latin;
                n
            } else {
                continue;
            };
            let n: usize = size.parse().unwrap();
            let expected = std::fs::read_to_string(&path).unwrap();
            assert!(
                generator(n) == expected,
                "generated {stem}.dlx differs from {}",
                path.display()
            );
            compared.push(stem.to_owned());
        }
        // The fixtures that have a reference twin must all have been seen.
        for name in ["queens4", "queens12", "langford3", "langford11", "latin5"] {
            assert!(
                compared.iter().any(|c| c == name),
                "{name}.dlx missing from {}",
                dir.display()
            );
        }
    }

    /// The generated fixtures whose file is missing or differs from what the
    /// generators write now.
    pub fn stale() -> Vec<String> {
        let root = fixtures_dir();
        generated()
            .into_iter()
            .filter(|file| {
                std::fs::read(root.join(&file.path)).ok().as_deref() != Some(file.text.as_bytes())
            })
            .map(|file| file.path)
            .collect()
    }

    /// The committed `fixtures/` are what the generators write now.
    #[test]
    fn fixtures_are_fresh() {
        let stale = stale();
        assert!(
            stale.is_empty(),
            "fixtures/ is stale ({}): run `cargo xtask fixtures` and commit the result",
            stale.join(", ")
        );
    }
}
