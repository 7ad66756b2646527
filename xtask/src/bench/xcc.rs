//! `cargo xtask bench xcc`: `cover exact --count` on the colour and
//! multiplicity files of `REFERENCE-XCC.md`, by turns with Knuth's DLX2
//! or DLX3 when given (`--dlx2`, `--dlx3`, or `$COVER_DLX2`,
//! `$COVER_DLX3`; nothing of Knuth's is in this repository), whole
//! process, best of `--runs`. Counts must agree with the program run here
//! or else with the table (nodes and updates too where DLX2 branches as
//! `cover` does); the bar (no slower than DLX2) is marked on
//! `wordsquare4_a5` and `wordsquare5_a4`. Details: `docs/measurements.md`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::harness::{self, parse_xcc_reference, xc_dir, Program, Table, XccRow};
use crate::flags::Flags;

/// The files the speed bar is about: `cover` at most as slow as
/// DLX2 on one thread.
const BAR_FILES: &[&str] = &["wordsquare4_a5", "wordsquare5_a4"];

/// `--quick` leaves out files the table gives more than this many seconds.
const QUICK_SECONDS: f64 = 1.0;

/// The counters of one run; `None` for what the program did not print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub solutions: Option<u64>,
    pub nodes: Option<u64>,
    pub updates: Option<u64>,
    pub cleansings: Option<u64>,
}

/// The counters in the last line of Knuth's statistics (DLX1, DLX2, DLX3,
/// on standard error at the end of a run with the default verbosity):
/// `Altogether 3 solutions, 423+470-44 mems, 24 updates, 8 cleansings,
/// 568 bytes, 7 nodes, ccost 4%.` (DLX1 prints no cleansings). `None`
/// when there is no such line.
pub fn parse_knuth_stats(stderr: &str) -> Option<Counts> {
    let line = stderr
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("Altogether "))?;
    let mut counts = Counts::default();
    for part in line.split(',') {
        let mut words = part.split_whitespace();
        let (Some(value), Some(label)) = (words.next(), words.next()) else {
            continue;
        };
        // `423+470-44 mems` and `ccost 4%` are not counters.
        let Ok(value) = value.parse::<u64>() else {
            continue;
        };
        let slot = match label.trim_end_matches('.') {
            "solution" | "solutions" => &mut counts.solutions,
            "node" | "nodes" => &mut counts.nodes,
            "update" | "updates" => &mut counts.updates,
            "cleansing" | "cleansings" => &mut counts.cleansings,
            _ => continue,
        };
        *slot = Some(value);
    }
    counts.solutions.is_some().then_some(counts)
}

/// The counters of `cover exact --count --stats`: the count on standard
/// output, `search nodes:`, `updates:`, `solutions:` (and `cleansings:`,
/// should it print one) on standard error. The `solutions:` line wins over
/// the count when both are there.
pub fn parse_cover_stats(stdout: &str, stderr: &str) -> Counts {
    let number = |label: &str| {
        stderr.lines().find_map(|l| {
            l.trim()
                .strip_prefix(label)?
                .split_whitespace()
                .next()?
                .parse::<u64>()
                .ok()
        })
    };
    Counts {
        solutions: number("solutions:").or_else(|| stdout.trim().parse().ok()),
        nodes: number("search nodes:"),
        updates: number("updates:"),
        cleansings: number("cleansings:"),
    }
}

/// One run of `cover exact --count --stats --jobs 1 FILE`: its counters
/// and time, or why it failed (exit status 0 or 1, no solution, are
/// answers; 2 and up are not).
fn run_cover(cover: &Path, file: &Path) -> Result<(Counts, Duration)> {
    let file = file.display().to_string();
    let args = ["exact", "--count", "--stats", "--jobs", "1", &file];
    let done = harness::run(cover, &args, b"", &[0, 1])?;
    Ok((parse_cover_stats(&done.stdout, &done.stderr), done.elapsed))
}

/// One run of a Knuth program on `file`: its counters and time.
fn run_knuth(program: &Path, file: &Path) -> Result<(Counts, Duration)> {
    let input = std::fs::read(file).with_context(|| format!("{}", file.display()))?;
    // Knuth's programs exit with 0 after a full run; their counters are
    // what matters.
    let done = harness::run(program, &[] as &[&str], &input, &[])?;
    let counts = parse_knuth_stats(&done.stderr).with_context(|| {
        format!(
            "{} printed no `Altogether ...` line ({:?}): {}",
            program.display(),
            done.code,
            done.stderr.lines().last().unwrap_or("")
        )
    })?;
    Ok((counts, done.elapsed))
}

/// A counter for the table: the number, or `-`.
fn show(value: Option<u64>) -> String {
    value.map_or("-".to_owned(), |v| v.to_string())
}

/// The counters in words: `3 solutions, 7 nodes, 24 updates, 8 cleansings`.
fn describe(counts: &Counts) -> String {
    format!(
        "{} solutions, {} nodes, {} updates, {} cleansings",
        show(counts.solutions),
        show(counts.nodes),
        show(counts.updates),
        show(counts.cleansings)
    )
}

/// `ok`, `DIFF` or (when either is unknown) `-`.
fn agree(a: Option<u64>, b: Option<u64>) -> &'static str {
    match (a, b) {
        (Some(a), Some(b)) if a == b => "ok",
        (Some(_), Some(_)) => "DIFF",
        _ => "-",
    }
}

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--runs", "--bin", "--dlx2", "--dlx3"], &["--quick"])?;
    let runs: usize = flags.parsed("--runs", 5)?;
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    // A Knuth program: its flag, else its variable.
    let knuth = |name: &str| {
        let path = match flags.value(name) {
            Some(path) => Some(PathBuf::from(path)),
            None => std::env::var_os(format!("COVER_{}", name[2..].to_ascii_uppercase()))
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        };
        match path {
            Some(path) if !path.is_file() => bail!("{}: no such program", path.display()),
            path => Ok(path),
        }
    };
    let (dlx2, dlx3) = (knuth("--dlx2")?, knuth("--dlx3")?);
    let names: Vec<String> = flags
        .positional()
        .iter()
        .map(|name| name.trim_end_matches(".dlx").to_owned())
        .collect();
    let dir = xc_dir();
    let table = dir.join("REFERENCE-XCC.md");
    if !table.is_file() {
        println!(
            "bench xcc: {} is not here; nothing to time",
            table.display()
        );
        return Ok(());
    }
    let text = std::fs::read_to_string(&table).with_context(|| format!("{}", table.display()))?;
    let rows = parse_xcc_reference(&text).with_context(|| format!("{}", table.display()))?;
    for name in &names {
        if !rows.iter().any(|r| &r.name == name) {
            let known: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
            bail!("{name}: not in REFERENCE-XCC.md ({})", known.join(", "));
        }
    }
    let rows: Vec<&XccRow> = rows
        .iter()
        .filter(|r| names.is_empty() || names.contains(&r.name))
        .filter(|r| !flags.switch("--quick") || r.seconds <= QUICK_SECONDS)
        .collect();
    let cover = harness::cover_binary(&flags)?;
    let program_for = |program: Program| match program {
        // REFERENCE-XCC.md has no DLX1 rows.
        Program::Dlx1 => None,
        Program::Dlx2 => dlx2.as_deref(),
        Program::Dlx3 => dlx3.as_deref(),
    };
    println!(
        "bench xcc: `cover exact --count --stats --jobs 1 FILE` and Knuth's program `< FILE`, \
         by turns,\nwhole process, wall clock, best of {runs}; `ref s`: REFERENCE-XCC.md's \
         seconds (another machine);\n`DLX` columns: the Knuth program run here (DLX2 or DLX3, \
         column `vs`), else the table's counts"
    );
    for program in [Program::Dlx2, Program::Dlx3] {
        match program_for(program) {
            Some(path) => println!("  {}: {}", program.name(), path.display()),
            None => println!("  {}: not given", program.name()),
        }
    }
    let table = Table::new(
        "file -15|vs -4|solutions 9|DLX sol 9|nodes 10|DLX nodes 10| -4|updates 11|DLX upd 11| -4|\
        cover s 7|DLX s 7|ratio 6|ref s 6",
    );
    let mut failures = Vec::new();
    let mut bars = Vec::new();
    let mut missing = Vec::new();
    for row in rows {
        let file = dir.join(format!("{}.dlx", row.name));
        let knuth = program_for(row.program);
        if knuth.is_none() && !missing.contains(&row.program) {
            missing.push(row.program);
        }
        // By turns, the first of each pair alternating, so that neither
        // always runs on a machine the other just warmed or disturbed; a
        // side that failed runs no more.
        let (mut best, mut counts, mut errors) = ([Duration::MAX; 2], [None; 2], [None, None]);
        for turn in 0..runs {
            for side in [turn % 2, 1 - turn % 2] {
                let result = match (side, knuth) {
                    _ if errors[side].is_some() => continue,
                    (0, _) => run_cover(&cover, &file),
                    (_, Some(program)) => run_knuth(program, &file),
                    (_, None) => continue,
                };
                match result {
                    Ok((found, elapsed)) => {
                        counts[side] = Some(found);
                        best[side] = best[side].min(elapsed);
                    }
                    Err(e) => errors[side] = Some(format!("{e:#}")),
                }
            }
        }
        let ([ours, theirs], [cover_best, knuth_best]) = (counts, best);
        let (name, what) = (&row.name, row.program.name());
        for error in errors.iter().flatten() {
            failures.push(format!("{name}: {error}"));
        }
        // Knuth's program must count what the table says: that checks
        // the build the user pointed to.
        let reference = Counts {
            solutions: Some(row.solutions),
            nodes: Some(row.nodes),
            updates: Some(row.updates),
            cleansings: Some(row.cleansings),
        };
        if let Some(theirs) = theirs {
            if theirs != reference {
                failures.push(format!(
                    "{name}: {what} counts {}; REFERENCE-XCC.md {} (is it built from Knuth's \
                     {}.w?)",
                    describe(&theirs),
                    describe(&reference),
                    what.to_ascii_lowercase()
                ));
            }
        }
        // What cover is held to: the program run here, else the table.
        let knuth_counts = theirs.unwrap_or(reference);
        // Cover ran: every counter but the cleansings must be there.
        let ran = ours.is_some();
        let ours = ours.unwrap_or_default();
        if ran && ours.solutions != knuth_counts.solutions {
            failures.push(format!(
                "{name}: cover counts {} solutions, {what} {}",
                show(ours.solutions),
                show(knuth_counts.solutions)
            ));
        }
        // Where DLX2 branches as cover does, the counters must agree, and
        // cover must print them all but the cleansings.
        let strict = row.program == Program::Dlx2;
        let mark = |counter: &str, a: Option<u64>, b: Option<u64>| match agree(a, b) {
            _ if !strict => "info",
            _ if ran && a.is_none() && counter != "cleansings" => "DIFF",
            mark => mark,
        };
        let counters = [
            ("search nodes", ours.nodes, knuth_counts.nodes),
            ("updates", ours.updates, knuth_counts.updates),
            ("cleansings", ours.cleansings, knuth_counts.cleansings),
        ];
        let marks = counters.map(|(counter, a, b)| mark(counter, a, b));
        for ((counter, a, b), mark) in counters.into_iter().zip(marks) {
            if mark == "DIFF" {
                failures.push(format!(
                    "{name}: cover's {counter} {}, {what}'s {}",
                    show(a),
                    show(b)
                ));
            }
        }
        let [nodes_mark, updates_mark, _] = marks;
        let seconds = |d: Duration| (d != Duration::MAX).then_some(d.as_secs_f64());
        let (cover_s, knuth_s) = (seconds(cover_best), seconds(knuth_best));
        // Against the program run here; without it, against the table's
        // seconds (another machine: a hint only).
        let ratio = match (cover_s, knuth_s) {
            (Some(c), Some(k)) => format!("{:.2}", c / k),
            (Some(c), None) => format!("({:.2})", c / row.seconds),
            _ => "-".to_owned(),
        };
        let secs = |s: Option<f64>| s.map_or("-".to_owned(), |s| format!("{s:.3}"));
        table.row(&[
            name,
            &what,
            &show(ours.solutions),
            &show(knuth_counts.solutions),
            &show(ours.nodes),
            &show(knuth_counts.nodes),
            &nodes_mark,
            &show(ours.updates),
            &show(knuth_counts.updates),
            &updates_mark,
            &secs(cover_s),
            &secs(knuth_s),
            &ratio,
            &row.seconds,
        ]);
        if BAR_FILES.contains(&name.as_str()) {
            let bar = match (cover_s, knuth_s) {
                (Some(c), Some(k)) => format!(
                    "{name}: cover {c:.3} s, {what} {k:.3} s run by turns: {:.2}× (bar ≤ 1) {}",
                    c / k,
                    if c <= k { "ok" } else { "OVER" }
                ),
                (Some(c), None) => format!(
                    "{name}: cover {c:.3} s; {what} not run here (table: {} s, another \
                     machine): no verdict",
                    row.seconds
                ),
                _ => format!("{name}: cover did not run: no verdict"),
            };
            bars.push(bar);
        }
    }
    if !bars.is_empty() {
        println!("the bar (one thread, at most as slow as DLX2):");
        for bar in &bars {
            println!("  {bar}");
        }
    }
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|p| p.name()).collect();
        println!(
            "bench xcc: {} not given, so cover was checked against REFERENCE-XCC.md's counts \
             and its seconds come from another machine; for a side-by-side run build Knuth's \
             programs by hand (outside the repository) and pass --dlx2 PATH --dlx3 PATH \
             (or set COVER_DLX2, COVER_DLX3)",
            names.join(" and ")
        );
    }
    harness::fail_on(&failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_files_are_in_the_shared_table_when_it_is_here() {
        let Ok(text) = std::fs::read_to_string(xc_dir().join("REFERENCE-XCC.md")) else {
            return;
        };
        let rows = parse_xcc_reference(&text).unwrap();
        assert!(BAR_FILES
            .iter()
            .all(|name| rows.iter().any(|r| r.name == *name)));
    }

    #[test]
    fn reads_knuths_statistics() {
        // DLX2, after the line of the input phase.
        let dlx2 = "(6 options, 3+2 items, 23 entries successfully read)\n\
            Altogether 3 solutions, 423+470-44 mems, 24 updates, 8 cleansings, 568 bytes, \
            7 nodes, ccost 4%.\n";
        assert_eq!(
            parse_knuth_stats(dlx2),
            Some(Counts {
                solutions: Some(3),
                nodes: Some(7),
                updates: Some(24),
                cleansings: Some(8),
            })
        );
        // DLX3: no lmems.
        let dlx3 = "(36 options, 34+0 items, 180 entries successfully read)\n\
            Altogether 1097 solutions, 5940+3717195 mems, 188428 updates, 0 cleansings, \
            4392 bytes, 24838 nodes, ccost 18%.\n";
        let counts = parse_knuth_stats(dlx3).unwrap();
        assert_eq!(
            (
                counts.solutions,
                counts.nodes,
                counts.updates,
                counts.cleansings
            ),
            (Some(1097), Some(24838), Some(188428), Some(0))
        );
        // DLX1: no cleansings; one solution is singular.
        let dlx1 = "Altogether 1 solution, 10+20 mems, 5 updates, 100 bytes, 3 nodes, ccost 5%.";
        assert_eq!(
            parse_knuth_stats(dlx1),
            Some(Counts {
                solutions: Some(1),
                nodes: Some(3),
                updates: Some(5),
                cleansings: None,
            })
        );
        assert_eq!(parse_knuth_stats("Usage: dlx2 [v<n>] ...\n"), None);
        assert_eq!(parse_knuth_stats(""), None);
    }

    #[test]
    fn reads_covers_statistics() {
        let stderr = "instances:     1 (1 answered: 1 solved, 0 without solution; 0 invalid)\n\
            time:          0.001146 s (872.9 instances/s)\n\
            search nodes:  975\n\
            updates:       16126\n\
            solutions:     92\n";
        assert_eq!(
            parse_cover_stats("92\n", stderr),
            Counts {
                solutions: Some(92),
                nodes: Some(975),
                updates: Some(16126),
                cleansings: None,
            }
        );
        // A cleansings line, should cover print one, is read too.
        let with = format!("{stderr}cleansings:    8\n");
        assert_eq!(parse_cover_stats("92\n", &with).cleansings, Some(8));
        // Without the stats, the count on standard output.
        assert_eq!(parse_cover_stats("3\n", "").solutions, Some(3));
        assert_eq!(parse_cover_stats("", ""), Counts::default());
    }

    #[test]
    fn marks_agreement() {
        assert_eq!(agree(Some(1), Some(1)), "ok");
        assert_eq!(agree(Some(1), Some(2)), "DIFF");
        assert_eq!(agree(None, Some(2)), "-");
    }
}
