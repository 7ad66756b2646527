//! `cargo xtask bench shard`: `cover shard` measured (issue 14). For each
//! problem: split it, run every shard for the spread of their times, then
//! by turns the search on two threads in one process (the baseline), the
//! shards through GNU parallel (when installed) and `cover shard run -j
//! 2`, medians and ratios to the baseline; every merge must give the
//! baseline's counts. `--forecast N` samples the shards of N queens and
//! prints `cover shard forecast`. Details: `docs/measurements.md`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::Value;

use super::harness::{self, cover_binary, median, scratch_dir, xc_dir};
use crate::flags::Flags;

/// A problem to cut: a file, or N queens.
enum Problem {
    File(PathBuf),
    Queens(u32),
}

impl Problem {
    /// The command of `cover` that counts it, and its argument there.
    fn command(&self) -> (&'static str, String) {
        match self {
            Problem::File(path) => ("exact", path.display().to_string()),
            Problem::Queens(n) => ("queens", n.to_string()),
        }
    }

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
}

pub fn run(args: &[String]) -> Result<()> {
    let valued = [
        "--queens",
        "--shards",
        "--runs",
        "--forecast",
        "--sample",
        "--bin",
    ];
    let flags = Flags::parse(args, &valued, &[])?;
    let shards: u64 = flags.parsed("--shards", 1000)?;
    let runs = flags.parsed("--runs", 5usize)?.max(1);
    let forecast: Option<u32> = flags.value("--forecast").map(str::parse).transpose()?;
    let sample = flags.parsed("--sample", 40usize)?.max(2);
    let files = flags
        .positional()
        .iter()
        .map(|f| Ok(Problem::File(f.into())));
    let queens = flags
        .values("--queens")
        .into_iter()
        .map(|n| Ok(Problem::Queens(n.parse()?)));
    let mut problems: Vec<Problem> = files.chain(queens).collect::<Result<_>>()?;
    if problems.is_empty() {
        let defaults = ["queens15.dlx", "pentomino_6x10.dlx"].map(|name| xc_dir().join(name));
        problems.extend(
            defaults
                .into_iter()
                .filter(|p| p.is_file())
                .map(Problem::File),
        );
        if problems.is_empty() {
            println!(
                "bench shard: no problems ({} is missing); name files or --queens N",
                xc_dir().display()
            );
        }
    }
    let cover = cover_binary(&flags)?;
    let scratch = scratch_dir("shard")?;
    let parallel = Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
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

/// Runs `program args...`, standard input from `stdin` and standard output
/// to `stdout` (files) when given; returns the wall seconds and the
/// output. Exit 1 is an answer: `merge` and the counts exit 1 for a
/// problem without solutions.
fn timed<S: AsRef<str>>(
    program: &Path,
    args: &[S],
    stdin: Option<&Path>,
    stdout: Option<&Path>,
) -> Result<(f64, String)> {
    let input = match stdin {
        Some(path) => std::fs::read(path).with_context(|| format!("{}", path.display()))?,
        None => Vec::new(),
    };
    let done = harness::run(program, args, &input, &[0, 1])?;
    if let Some(path) = stdout {
        std::fs::write(path, &done.stdout)?;
    }
    Ok((done.elapsed.as_secs_f64(), done.stdout))
}

/// `count`, `nodes`, `updates` of a JSON record.
fn counters(record: &str) -> Result<(u64, u64, u64)> {
    let record: Value = serde_json::from_str(record.trim())?;
    let field = |name: &str| {
        record[name]
            .as_u64()
            .with_context(|| format!("no {name} in {record}"))
    };
    Ok((field("count")?, field("nodes")?, field("updates")?))
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
    let file = |suffix: &str| scratch.join(format!("{stem}.{suffix}.jsonl"));
    let shard_file = file("shards");
    let mut split = vec![
        "shard".into(),
        "split".into(),
        "--shards".into(),
        shards.to_string(),
    ];
    split.extend(problem.args());
    let (split_seconds, lines) = timed(cover, &split, None, Some(&shard_file))?;
    let of = lines.lines().count();
    println!("== {name}: {of} shard lines (asked for {shards}), split in {split_seconds:.3} s");

    // Every shard once, for the spread.
    let results = file("results");
    let mut run_args = vec!["shard".into(), "run".into(), "-j".into(), "2".into()];
    run_args.extend(problem.args());
    run_args.push(shard_file.display().to_string());
    let (_, records) = timed(cover, &run_args, None, Some(&results))?;
    let (mut seconds, mut nodes) = (Vec::new(), Vec::new());
    for line in records.lines() {
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
    let (command, target) = problem.command();
    let baseline_args = [command, "--count", "--json", "-j", "2", &target];
    // Blocks of about a 32nd of the file, so that each of the two jobs
    // gets sixteen in turn (fewer, larger blocks leave one job the last
    // of them alone), and no smaller than the longest line (the top).
    let longest = lines.lines().map(str::len).max().unwrap_or(0);
    let block = (lines.len() / 32).max(longest + 1).max(4096).to_string();
    let cover_path = cover.display().to_string();
    let mut parallel_args = [
        "--will-cite",
        "--pipe",
        "--round-robin",
        "--block",
        &block,
        "-j",
        "2",
    ]
    .map(String::from)
    .to_vec();
    parallel_args.extend([&cover_path, "shard", "run", "-j", "1"].map(String::from));
    parallel_args.extend(problem.args());
    let parallel_results = file("parallel");
    let (mut base, mut piped, mut local) = (Vec::new(), Vec::new(), Vec::new());
    let mut expected = None;
    for _ in 0..runs {
        let (seconds, out) = timed(cover, &baseline_args, None, None)?;
        base.push(seconds);
        expected = Some(counters(out.lines().next().context("no count")?)?);
        if parallel {
            let parallel_program = Path::new("parallel");
            let (seconds, _) = timed(
                parallel_program,
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
    let mut ways = vec![("cover shard run -j 2", local, &results)];
    if parallel {
        let label = "parallel --pipe --round-robin -j 2 shard run";
        ways.insert(0, (label, piped, &parallel_results));
    }
    for (label, mut times, results) in ways {
        let time = median(&mut times);
        println!(
            "  {label:<44} {time:8.3} s  {:.3}× the baseline",
            time / base
        );
        let merge = ["shard", "merge", "--json", &results.display().to_string()].map(String::from);
        let merged = counters(&timed(cover, &merge, None, None)?.1).context("merge --json")?;
        if merged != expected {
            bail!("{name}: merged after {label} {merged:?}, the baseline {expected:?}");
        }
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
    let file = |suffix: &str| scratch.join(format!("queens{n}.{suffix}.jsonl"));
    let (shard_file, sample_file, results) =
        (file("shards"), file("sample"), file("sample.results"));
    let path = |file: &PathBuf| file.display().to_string();
    let (shards, n_text) = (shards.to_string(), n.to_string());
    let split = ["shard", "split", "--shards", &shards, "--queens", &n_text];
    let (split_seconds, text) = timed(cover, &split, None, Some(&shard_file))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.contains("\"top\"")).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n));
    let picked: Vec<&str> = lines.sample(&mut rng, sample).copied().collect();
    std::fs::write(&sample_file, picked.join("\n") + "\n")?;
    let run = [
        "shard",
        "run",
        "-j",
        "2",
        "--queens",
        &n_text,
        &path(&sample_file),
    ];
    let (run_seconds, _) = timed(cover, &run, None, Some(&results))?;
    println!(
        "== forecast, {n} queens: {} shards (split in {split_seconds:.3} s), a sample of {} run in \
         {run_seconds:.1} s",
        lines.len(),
        picked.len()
    );
    let forecast = [
        "shard",
        "forecast",
        "--workers",
        "100",
        &path(&shard_file),
        &path(&results),
    ];
    print!("{}", timed(cover, &forecast, None, None)?.1);
    Ok(())
}
