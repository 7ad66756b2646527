//! `cargo xtask bench shard`: `cover shard` measured, as issue 14 asks.
//!
//! For each problem (by default `queens15.dlx` and `pentomino_6x10.dlx` of
//! `../shared/xc/`, or the files and `--queens N` given):
//!
//! 1. splits it into at least `--shards` shards and times the split;
//! 2. runs every shard (`cover shard run -j 2`) and prints the spread of
//!    the shards' times and nodes (largest over median, and the largest
//!    shard's share of the whole);
//! 3. times, by turns over `--runs` rounds, the search on two threads in
//!    one process (`cover exact --count -j 2`, or `cover queens --count -j
//!    2 N`: the baseline), the shards through GNU parallel (`parallel
//!    --pipe --round-robin -j 2 cover shard run -j 1`, two processes fed
//!    blocks of lines in turn; skipped without `parallel`), and `cover
//!    shard run -j 2`; prints each one's median and its ratio to the
//!    baseline's (the bar: within 10%);
//! 4. checks that every merge of the shards' results gives the baseline's
//!    count, nodes and updates.
//!
//! With `--forecast N`, it also splits N queens, runs a random sample of
//! `--sample` shards (seeded, two threads) and prints `cover shard
//! forecast` for 100 workers: what all the shards would take.
//!
//! Usage: `cargo xtask bench shard [FILE | --queens N]... [--shards N]
//! [--runs N] [--forecast N] [--sample K]` (defaults: 1000 shards, 5
//! runs, a sample of 40).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::Value;

use crate::bench::shared_dir;
use crate::paths::workspace_root;
use cover_check::process::build_release;

/// A problem to cut: a file, or N queens.
enum Problem {
    File(PathBuf),
    Queens(u32),
}

impl Problem {
    fn name(&self) -> String {
        match self {
            Problem::File(path) => path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            Problem::Queens(n) => format!("--queens {n}"),
        }
    }

    /// How `cover shard split` and `run` name it.
    fn args(&self) -> Vec<String> {
        match self {
            Problem::File(path) => vec![path.display().to_string()],
            Problem::Queens(n) => vec!["--queens".into(), n.to_string()],
        }
    }

    /// The baseline: the whole count in one process on two threads.
    fn baseline(&self) -> Vec<String> {
        match self {
            Problem::File(path) => vec![
                "exact".into(),
                "--count".into(),
                "--json".into(),
                "-j".into(),
                "2".into(),
                path.display().to_string(),
            ],
            Problem::Queens(n) => vec![
                "queens".into(),
                "--count".into(),
                "--json".into(),
                "-j".into(),
                "2".into(),
                n.to_string(),
            ],
        }
    }
}

pub fn run(args: &[String]) -> Result<()> {
    let mut problems = Vec::new();
    let mut shards = 1000u64;
    let mut runs = 5usize;
    let mut forecast = None;
    let mut sample = 40usize;
    let mut args = args.iter();
    let usage = "usage: cargo xtask bench shard [FILE | --queens N]... [--shards N] \
                 [--runs N] [--forecast N] [--sample K]";
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> Result<u64> {
            Ok(args
                .next()
                .with_context(|| format!("{arg} needs {what}"))?
                .parse()?)
        };
        match arg.as_str() {
            "--queens" => problems.push(Problem::Queens(number("N")? as u32)),
            "--shards" => shards = number("N")?,
            "--runs" => runs = number("N")?.max(1) as usize,
            "--forecast" => forecast = Some(number("N")? as u32),
            "--sample" => sample = number("K")?.max(2) as usize,
            other if other.starts_with('-') => bail!("unknown argument {other:?}; {usage}"),
            file => problems.push(Problem::File(PathBuf::from(file))),
        }
    }
    if problems.is_empty() {
        let xc = shared_dir().join("xc");
        for name in ["queens15.dlx", "pentomino_6x10.dlx"] {
            let path = xc.join(name);
            if path.is_file() {
                problems.push(Problem::File(path));
            }
        }
        if problems.is_empty() {
            println!(
                "bench shard: no problems ({} is missing); name files or --queens N",
                xc.display()
            );
        }
    }
    let root = workspace_root();
    let cover = build_release(&root).map_err(anyhow::Error::msg)?;
    let scratch = root.join("target/bench-shard");
    std::fs::create_dir_all(&scratch)?;
    let parallel = has_parallel();
    if !parallel {
        println!("bench shard: GNU parallel is not installed; its column is skipped");
    }
    for problem in &problems {
        measure(&cover, &scratch, problem, shards, runs, parallel)?;
    }
    if let Some(n) = forecast {
        forecast_queens(&cover, &scratch, n, shards, sample)?;
    }
    Ok(())
}

fn has_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `cover args...`, standard input from `stdin` and standard output
/// to `stdout` (files) when given; returns the wall seconds and the
/// output when not redirected.
fn timed(
    program: &Path,
    args: &[String],
    stdin: Option<&Path>,
    stdout: Option<&Path>,
) -> Result<(f64, String)> {
    let mut command = Command::new(program);
    command.args(args).stderr(Stdio::inherit());
    command.stdin(match stdin {
        Some(path) => Stdio::from(std::fs::File::open(path)?),
        None => Stdio::null(),
    });
    if let Some(path) = stdout {
        command.stdout(Stdio::from(std::fs::File::create(path)?));
    } else {
        command.stdout(Stdio::piped());
    }
    let start = Instant::now();
    let output = command
        .output()
        .with_context(|| format!("running {}", program.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    // `merge` and the counts exit 1 for a problem without solutions.
    if output.status.code().is_none_or(|code| code > 1) {
        bail!(
            "{} {} failed: {}",
            program.display(),
            args.join(" "),
            output.status
        );
    }
    Ok((
        seconds,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    ))
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// `count`, `nodes`, `updates` of a JSON record.
fn counters(record: &Value) -> Result<(u64, u64, u64)> {
    let field = |name: &str| {
        record[name]
            .as_u64()
            .with_context(|| format!("no {name} in {record}"))
    };
    Ok((field("count")?, field("nodes")?, field("updates")?))
}

fn merged(cover: &Path, results: &Path) -> Result<(u64, u64, u64)> {
    let args = vec![
        "shard".into(),
        "merge".into(),
        "--json".into(),
        results.display().to_string(),
    ];
    let (_, out) = timed(cover, &args, None, None)?;
    counters(&serde_json::from_str(out.trim()).context("merge --json")?)
}

fn measure(
    cover: &Path,
    scratch: &Path,
    problem: &Problem,
    shards: u64,
    runs: usize,
    parallel: bool,
) -> Result<()> {
    let name = problem.name();
    let stem = name.replace([' ', '-'], "");
    let shard_file = scratch.join(format!("{stem}.shards.jsonl"));
    let mut split = strings(&["shard", "split", "--shards"]);
    split.push(shards.to_string());
    split.extend(problem.args());
    let (split_seconds, _) = timed(cover, &split, None, Some(&shard_file))?;
    let lines = std::fs::read_to_string(&shard_file)?;
    let of = lines.lines().count();
    println!("== {name}: {of} shard lines (asked for {shards}), split in {split_seconds:.3} s");

    // Every shard once, for the spread.
    let results = scratch.join(format!("{stem}.results.jsonl"));
    let mut run_args = strings(&["shard", "run", "-j", "2"]);
    run_args.extend(problem.args());
    run_args.push(shard_file.display().to_string());
    timed(cover, &run_args, None, Some(&results))?;
    let mut seconds = Vec::new();
    let mut nodes = Vec::new();
    for line in std::fs::read_to_string(&results)?.lines() {
        let record: Value = serde_json::from_str(line)?;
        if record["shard"] != 0 {
            seconds.push(record["seconds"].as_f64().unwrap_or(0.0));
            nodes.push(record["nodes"].as_u64().unwrap_or(0) as f64);
        }
    }
    let total: f64 = seconds.iter().sum();
    let largest = seconds.iter().copied().fold(0.0, f64::max);
    let largest_nodes = nodes.iter().copied().fold(0.0, f64::max);
    let (time_median, nodes_median) = (median(&mut seconds), median(&mut nodes));
    println!(
        "shard times:  largest {largest:.4} s = {:.1} × median {time_median:.5} s; \
         largest is {:.2}% of the {total:.3} s of all shards",
        largest / time_median,
        100.0 * largest / total
    );
    println!(
        "shard nodes:  largest = {:.1} × median",
        largest_nodes / nodes_median
    );

    // By turns: the baseline, GNU parallel, `cover shard run -j 2`.
    let baseline_args = problem.baseline();
    // Blocks of about a 32nd of the file, so that each of the two jobs
    // gets sixteen in turn (fewer, larger blocks leave one job the last
    // of them alone), and no smaller than the longest line (the top).
    let longest = lines.lines().map(str::len).max().unwrap_or(0);
    let block = (lines.len() / 32).max(longest + 1).max(4096);
    let mut parallel_args = strings(&["--will-cite", "--pipe", "--round-robin", "--block"]);
    parallel_args.push(block.to_string());
    parallel_args.extend(strings(&["-j", "2"]));
    parallel_args.push(cover.display().to_string());
    parallel_args.extend(strings(&["shard", "run", "-j", "1"]));
    parallel_args.extend(problem.args());
    let parallel_results = scratch.join(format!("{stem}.parallel.jsonl"));
    let (mut base, mut piped, mut local) = (Vec::new(), Vec::new(), Vec::new());
    let mut expected = None;
    for _ in 0..runs {
        let (seconds, out) = timed(cover, &baseline_args, None, None)?;
        base.push(seconds);
        expected = Some(counters(&serde_json::from_str(
            out.lines().next().context("no count")?,
        )?)?);
        if parallel {
            let (seconds, _) = timed(
                Path::new("parallel"),
                &parallel_args,
                Some(&shard_file),
                Some(&parallel_results),
            )?;
            piped.push(seconds);
        }
        let (seconds, _) = timed(cover, &run_args, None, Some(&results))?;
        local.push(seconds);
    }
    let expected = expected.context("no runs")?;
    let base = median(&mut base);
    println!("wall, median of {runs} runs by turns:");
    let label = match problem {
        Problem::File(_) => format!("cover exact --count -j 2 {name}"),
        Problem::Queens(n) => format!("cover queens --count -j 2 {n}"),
    };
    println!("  {label:<44} {base:8.3} s");
    if parallel {
        let piped = median(&mut piped);
        println!(
            "  {:<44} {piped:8.3} s  {:.3}× the baseline",
            "parallel --pipe --round-robin -j 2 shard run",
            piped / base
        );
        let merged = merged(cover, &parallel_results)?;
        if merged != expected {
            bail!("{name}: merged through parallel {merged:?}, the baseline {expected:?}");
        }
    }
    let local = median(&mut local);
    println!(
        "  {:<44} {local:8.3} s  {:.3}× the baseline",
        "cover shard run -j 2",
        local / base
    );
    let merged = merged(cover, &results)?;
    if merged != expected {
        bail!("{name}: merged {merged:?}, the baseline {expected:?}");
    }
    println!(
        "merged:       count {}, nodes {}, updates {}: the baseline's",
        expected.0, expected.1, expected.2
    );
    Ok(())
}

/// Splits `n` queens, runs a seeded random sample of `sample` shards and
/// prints the forecast for 100 workers.
fn forecast_queens(cover: &Path, scratch: &Path, n: u32, shards: u64, sample: usize) -> Result<()> {
    let shard_file = scratch.join(format!("queens{n}.shards.jsonl"));
    let split = vec![
        "shard".into(),
        "split".into(),
        "--shards".into(),
        shards.to_string(),
        "--queens".into(),
        n.to_string(),
    ];
    let (split_seconds, _) = timed(cover, &split, None, Some(&shard_file))?;
    let text = std::fs::read_to_string(&shard_file)?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.contains("\"top\"")).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n));
    let picked: Vec<&str> = lines.sample(&mut rng, sample).copied().collect();
    let sample_file = scratch.join(format!("queens{n}.sample.jsonl"));
    std::fs::write(&sample_file, picked.join("\n") + "\n")?;
    let results = scratch.join(format!("queens{n}.sample.results.jsonl"));
    let run = vec![
        "shard".into(),
        "run".into(),
        "-j".into(),
        "2".into(),
        "--queens".into(),
        n.to_string(),
        sample_file.display().to_string(),
    ];
    let (run_seconds, _) = timed(cover, &run, None, Some(&results))?;
    println!(
        "== forecast, {n} queens: {} shards (split in {split_seconds:.3} s), a sample of {} run in {run_seconds:.1} s",
        lines.len(),
        picked.len()
    );
    let forecast = vec![
        "shard".into(),
        "forecast".into(),
        "--workers".into(),
        "100".into(),
        shard_file.display().to_string(),
        results.display().to_string(),
    ];
    let (_, out) = timed(cover, &forecast, None, None)?;
    print!("{out}");
    Ok(())
}
