//! `cargo xtask bench`: counts all solutions of the reference problems in
//! `../shared/xc/` (when present) and prints time, nodes, updates and
//! updates per second, next to the counts and DLX1 times of REFERENCE.md,
//! and the time of the contest template's DLX ([`Classic`]) on the same
//! problem in the same process, with the ratio of the two: on a busy
//! machine that ratio holds where absolute times drift.

use dlx_core::Search;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cover_models::exact::Instances;
use dlx_core::{Limits, Solver};

use crate::baseline::Classic;

/// The exact-cover problems timed by default.
const DEFAULT_PROBLEMS: &[&str] = &["queens14", "queens15", "langford12", "pentomino_6x10"];

pub fn run(args: &[String]) -> Result<()> {
    let dir = shared_dir().join("xc");
    if !dir.is_dir() {
        println!("bench: {} is not here; nothing to time", dir.display());
        return Ok(());
    }
    let reference = read_reference(&dir.join("REFERENCE.md"))?;
    let names: Vec<String> = if args.is_empty() {
        DEFAULT_PROBLEMS.iter().map(|s| s.to_string()).collect()
    } else {
        args.to_vec()
    };
    println!(
        "{:<16} {:>10} {:>11} {:>12} {:>8} {:>9} {:>7} {:>7} {:>7} {:>8}",
        "problem",
        "solutions",
        "nodes",
        "updates",
        "seconds",
        "classic s",
        "ratio",
        "dlx1 s",
        "ratio",
        "Mupd/s"
    );
    let mut all_match = true;
    for name in names {
        let path = dir.join(format!("{name}.dlx"));
        let file = std::fs::File::open(&path).with_context(|| format!("{}", path.display()))?;
        let instance = Instances::new(std::io::BufReader::new(file), None)
            .next()
            .context("no problem in file")??;
        let mut solver = Solver::new(&instance.problem);
        let start = Instant::now();
        let report = solver.count_with(&[], &Limits::none())?;
        let seconds = start.elapsed().as_secs_f64();
        let stats = report.stats;
        // The contest template on the same problem, in the same process:
        // the ratio to it holds when the machine is busy.
        let mut classic = Classic::new(&instance.problem);
        let start = Instant::now();
        let classic_count = classic.count();
        let classic_seconds = start.elapsed().as_secs_f64();
        let mut mark = String::new();
        if (classic_count, classic.nodes) != (stats.solutions, stats.nodes) {
            all_match = false;
            mark.push_str("  MISMATCH with the classic search");
        }
        let dlx1 = match reference.iter().find(|r| r.name == name) {
            Some(r) => {
                if (r.solutions, r.nodes, r.updates)
                    != (stats.solutions, stats.nodes, stats.updates)
                {
                    all_match = false;
                    mark.push_str("  MISMATCH with REFERENCE.md");
                }
                r.seconds
            }
            None => f64::NAN,
        };
        println!(
            "{:<16} {:>10} {:>11} {:>12} {:>8.3} {:>9.3} {:>7.2} {:>7.2} {:>7.2} {:>8.1}{}",
            name,
            stats.solutions,
            stats.nodes,
            stats.updates,
            seconds,
            classic_seconds,
            seconds / classic_seconds,
            dlx1,
            seconds / dlx1,
            stats.updates as f64 / seconds / 1e6,
            mark
        );
    }
    if !all_match {
        bail!("some counts differ from REFERENCE.md");
    }
    Ok(())
}

/// The shared data folder: `$COVER_SHARED` when set, else `../shared`
/// next to the workspace root.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("COVER_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

pub struct ReferenceRow {
    pub name: String,
    pub solutions: u64,
    pub nodes: u64,
    pub updates: u64,
    pub seconds: f64,
}

/// Reads the table of `REFERENCE.md`: `| file | solutions | nodes | updates | seconds |`.
pub fn read_reference(path: &Path) -> Result<Vec<ReferenceRow>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if cells.len() != 5 || !cells[0].ends_with(".dlx") {
            continue;
        }
        rows.push(ReferenceRow {
            name: cells[0].trim_end_matches(".dlx").to_owned(),
            solutions: cells[1].parse()?,
            nodes: cells[2].parse()?,
            updates: cells[3].parse()?,
            seconds: cells[4].parse()?,
        });
    }
    Ok(rows)
}
