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
//! [`Check`] per thing it verified (the runner and the checks' shape are
//! [`runner`]'s, which knows no family); [`FAMILIES`] lists them. To add one:
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

use anyhow::{bail, Context, Result};
use cover_check::process;

use crate::flags::Flags;
use crate::paths;
use runner::{Check, Env};

mod datasets;
mod exact;
mod generate;
mod queens;
mod radar;
mod runner;
mod sudoku;
mod target;
mod threads;
#[cfg(test)]
mod xcc;

/// A family of fixtures: runs the binary on them and returns its checks.
/// An `Err` means the family could not even start (say, its manifest is
/// unreadable) and counts as one failed check.
type Family = fn(&Env) -> Result<Vec<Check>>;

/// Every family, by name, in the order they run.
const FAMILIES: &[(&str, Family)] = &[
    ("exact", exact::checks),
    ("generate", generate::checks),
    ("queens", queens::checks),
    ("radar", radar::checks),
    ("sudoku", sudoku::checks),
    ("target", target::checks),
    ("threads", threads::checks),
];

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
