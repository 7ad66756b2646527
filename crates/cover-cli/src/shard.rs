//! `cover shard`: one search cut into shards that any batch engine runs,
//! on one machine or many, and the results added up.
//!
//! - `split` reads one problem (a Knuth or matrix file, or `--queens N`),
//!   asks [`dlx_core::plan`] for a plan and writes it as shard lines.
//! - `run` reads the problem again and answers shard lines with result
//!   lines, through the [`batch`] runner (in input order, flushed as they
//!   are printed: with one thread each as its shard finishes, so a killed
//!   job loses only the shard it was on).
//! - `merge` checks that the results are those of one plan, each shard
//!   exactly once, and adds them up; `--remaining` prints the shard lines
//!   still to run instead.
//! - `forecast` says how long all the shards would take, from the results
//!   of a random sample of them.
//!
//! The lines are JSON, one object each, described in `AFTER_LONG_HELP`
//! below and in the README. This module knows the formats and the checks;
//! how a plan is cut and how a shard is searched is dlx-core's.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, BufRead, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use anyhow::bail;
use clap::{Args, Subcommand};
use cover_models::exact::Instances;
use cover_models::queens::Queens;
use cover_models::text::{InputError, LineReader};
use dlx_core::{Problem, ShardConfig, Solver, Stats, CLOSED};
use serde::{Deserialize, Serialize};

use crate::batch::{self, At, Batch, Invalid, ReadInstances, Verdict};
use crate::common::{self, Common, Input, Inputs, Session, Status, TimeLimit};
use crate::exact::FormatArg;
use crate::output::{self, push_json, write_json_line, Out};
use crate::pipeline::ChunkSizes;

const AFTER_LONG_HELP: &str = "\
A shard is a few neighbouring subtrees of the search, each named by the
choices that lead to it (its prefix). `split` cuts the search tree into
pieces (it keeps cutting the piece whose size, estimated by random probes,
is largest, until none is larger than a shard's share), packs neighbours
into at least --shards shards of about even size, and writes one JSON line
per shard:

  {\"shard\":0,\"of\":1001,\"digest\":D,\"plan\":P,\"top\":[[],[7],...],...}
  {\"shard\":1,\"of\":1001,\"digest\":D,\"plan\":P,\"prefixes\":[[7,52],[7,60]],\"estimate\":8113}

  shard     its number, 0 to of-1; the first (shard 0, and more for a very
            large split) hold the top of the tree: the nodes that were cut,
            each counted alone; tiny, and run like any other
  digest    SHA-256 of the problem: `run` refuses the shards of another
            problem (said once: pass the problem the plan was made from)
  plan      names this split: results of two splits are never mixed
  prefixes  each a list of option numbers (from 0, in input order; null: an
            item closed with fewer covers than it may take)
  estimate  the estimated search nodes of the shard
  check     a hash of the line's plan, number and prefixes: `run` refuses a
            line that was altered

`run` answers each shard line with a result line, in input order, flushed as
it is written: with -j 1 as soon as its shard is done, so a killed job loses
only the shard it was on (with N threads, shards are run N at a time and
written when all N are done, so it may lose up to 2N):

  {\"shard\":1,\"of\":1001,\"digest\":D,\"plan\":P,\"count\":123,\"nodes\":4567,
   \"updates\":89012,\"seconds\":0.05,\"check\":C}

  seconds   the shard's time, to the microsecond
  check     a hash of every other field of the line (digest, plan, shard,
            of, count, nodes, updates, cleansings, seconds): `merge` refuses
            a result whose check does not match (a count edited by hand, a
            damaged line) or that has none (a line of an older `cover`), so
            run its shard again; it catches accidents and edits, not a
            forger who recomputes it

With --max-nodes N or --time-limit SECONDS, a shard whose search reaches N
nodes, or runs SECONDS, gives up: it gets no result line (a count cut short
would make the total wrong), standard error says `shard K gave up`, and the
exit status is 1; `merge --remaining` lists it to run again.

`merge` adds the results and prints the count (with --json: one object with
count, nodes, updates, shards, seconds); it exits with 2, naming them, when
a shard is missing, doubled, or from another problem or split, or a result
line fails its check (each bad line named with its file and line; no total
is printed then). The counts,
nodes and updates equal those of `cover exact --count --stats` on the same
problem. With --remaining SHARDS it prints instead the lines of SHARDS that
have no result yet: feed them back to `run`.

`forecast SHARDS RESULTS` reads the results of a random sample of the shards
(`shuf -n 50 shards.jsonl | cover shard run ...`) and says what all of them
would take, on one core and on --workers.

Exit status: 0 done; 1 merge: the problem has no solution, or --remaining:
shards remain; 2 bad input (each bad line is named, the others still used).

Examples:
  cover shard split --shards 1000 queens15.dlx > shards.jsonl
  cover shard run queens15.dlx shards.jsonl > results.jsonl
  cover shard merge results.jsonl
  parallel --pipe -N 20 --sshlogin 8/alpha,8/beta --basefile queens15.dlx \\
      cover shard run -j 1 queens15.dlx < shards.jsonl > results.jsonl
  cover shard merge results.jsonl --remaining shards.jsonl > todo.jsonl
  cover shard split --queens 18 --shards 2000 > q18.jsonl
  shuf -n 40 q18.jsonl | cover shard run --queens 18 > sample.jsonl
  cover shard forecast q18.jsonl sample.jsonl --workers 100";

/// Cut one search into shards that a batch engine runs anywhere, and add
/// up their results.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct ShardArgs {
    #[command(subcommand)]
    pub command: ShardCommand,
}

/// The steps of a sharded search.
#[derive(Subcommand, Debug, Clone)]
pub enum ShardCommand {
    Split(SplitArgs),
    Run(RunArgs),
    Merge(MergeArgs),
    Forecast(ForecastArgs),
}

impl ShardArgs {
    /// The flags every command shares.
    pub fn common(&self) -> &Common {
        match &self.command {
            ShardCommand::Split(args) => &args.common,
            ShardCommand::Run(args) => &args.common,
            ShardCommand::Merge(args) => &args.common,
            ShardCommand::Forecast(args) => &args.common,
        }
    }
}

/// Where the problem comes from: a file, or the N-queens model.
#[derive(Args, Debug, Clone)]
pub struct Source {
    /// The N-queens problem of `cover queens N` instead of a file.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=cover_models::queens::MAX_N as u64))]
    pub queens: Option<u64>,

    /// The file's format [default: detected, as by `cover exact`].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<FormatArg>,
}

/// Cut a problem into shards: one JSON line each, on standard output.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct SplitArgs {
    /// The problem: a Knuth or matrix file holding one problem (`-` for
    /// standard input). Not with --queens.
    #[arg(
        value_name = "FILE",
        required_unless_present = "queens",
        conflicts_with = "queens"
    )]
    pub file: Option<PathBuf>,

    #[command(flatten)]
    pub source: Source,

    /// At least this many shards (fewer only when the search tree has
    /// fewer nodes to cut at).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_SHARDS))]
    pub shards: u64,

    /// Random probes per size estimate: more cut more evenly, and take
    /// longer.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub probes: u64,

    /// The seed of the probes: the same seed, the same shards.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,

    /// Print the number of shards, the spread of their estimates and the
    /// time the split took to standard error.
    #[arg(long)]
    pub stats: bool,

    /// Estimate on N threads [default: one per core; at most 4 per core].
    #[arg(long, short = 'j', value_name = "N", value_parser = common::parse_nonzero)]
    pub jobs: Option<NonZeroUsize>,

    /// The split always writes JSON, and sets up its own threads.
    #[arg(skip)]
    pub common: Common,
}

/// The most shards a split may be asked for: a plan is held in memory, a
/// few hundred bytes a shard.
const MAX_SHARDS: u64 = 1_000_000;

/// The most lines a split may have: shards are packed under an even share
/// of the estimates, so a split makes more than it was asked for (up to
/// about twice as many, and a few lines of top), never this many.
const MAX_LINES: u64 = 8 * MAX_SHARDS;

/// Answer shard lines with result lines, one each, in input order.
#[derive(Args, Debug, Clone)]
#[command(
    after_long_help = AFTER_LONG_HELP,
    override_usage = "cover shard run [OPTIONS] <FILE | --queens N> [SHARDS]...",
    // Result lines are JSON whatever the flag says.
    mut_arg("json", |arg| arg.hide(true))
)]
pub struct RunArgs {
    /// The problem file (unless --queens), then files of shard lines
    /// (standard input when none, or for `-`).
    #[arg(value_name = "FILE", required_unless_present = "queens")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub source: Source,

    /// Give up on a shard after N search nodes: it gets no result line
    /// (see below), and the exit status is 1.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    #[command(flatten)]
    pub common: Common,
}

/// Add up the results of a split, checking every shard is there once.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct MergeArgs {
    /// Result files (standard input when none, or for `-`).
    #[command(flatten)]
    pub inputs: Inputs,

    /// Print the lines of this shard file that have no result yet (to
    /// run them again) instead of the total.
    #[arg(long, value_name = "SHARDS")]
    pub remaining: Option<PathBuf>,

    #[command(flatten)]
    pub common: Common,
}

/// Forecast the time of a whole split from the results of a sample.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct ForecastArgs {
    /// The split's shard lines.
    #[arg(value_name = "SHARDS")]
    pub shards: PathBuf,

    /// The results of a random sample of them (standard input when none).
    #[command(flatten)]
    pub results: Inputs,

    /// How many shards run at once (machines times the jobs of each).
    #[arg(long, value_name = "N", default_value = "1", value_parser = common::parse_nonzero)]
    pub workers: NonZeroUsize,

    /// Write the forecast as one JSON object.
    #[arg(long)]
    pub json: bool,

    /// Nothing of the session to summarise: no --stats or --jobs.
    #[arg(skip)]
    pub common: Common,
}

/// Runs `cover shard`.
pub fn run(args: &ShardArgs, session: &mut Session) -> anyhow::Result<()> {
    match &args.command {
        ShardCommand::Split(args) => split(args, session),
        ShardCommand::Run(args) => run_shards(args, session),
        ShardCommand::Merge(args) => merge(args, session),
        ShardCommand::Forecast(args) => forecast(args, session),
    }
}

/// One shard line, as written and read.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ShardLine {
    shard: u64,
    of: u64,
    digest: String,
    plan: String,
    /// The top's lines (shard 0, and more for a very large split): the
    /// prefixes the split cut at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    top: Option<Vec<Vec<Option<u64>>>>,
    /// The other shards: the choices that lead to each of its subtrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prefixes: Option<Vec<Vec<Option<u64>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    estimate: Option<u64>,
    /// [`dlx_core::shard_check`] of the line.
    #[serde(default)]
    check: String,
    /// The first line: how the split was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    probes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

/// One result line, as written and read.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ResultLine {
    shard: u64,
    of: u64,
    digest: String,
    plan: String,
    count: u64,
    nodes: u64,
    updates: u64,
    /// Colour problems only.
    #[serde(default, skip_serializing_if = "is_zero")]
    cleansings: u64,
    /// To the microsecond, as the check has it.
    seconds: f64,
    /// [`dlx_core::result_check`] of the line.
    #[serde(default)]
    check: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `seconds` in whole microseconds (what a result line's check covers:
/// its JSON text need not read back to the same bits).
fn micros(seconds: f64) -> u64 {
    // `as` saturates, and takes NaN to 0.
    (seconds * 1e6).round() as u64
}

impl ResultLine {
    /// The result of `shard` of `of` in `digest` and `plan`, with its
    /// check: `stats` as the shard's search counted them, in `seconds`.
    fn new(key: (u64, u64, &str, &str), stats: &Stats, seconds: f64) -> ResultLine {
        let (shard, of, digest, plan) = key;
        let micros = micros(seconds);
        ResultLine {
            shard,
            of,
            digest: digest.to_owned(),
            plan: plan.to_owned(),
            count: stats.solutions,
            nodes: stats.nodes,
            updates: stats.updates,
            cleansings: stats.cleansings,
            seconds: micros as f64 / 1e6,
            check: dlx_core::result_check(digest, plan, shard, of, stats, micros),
        }
    }

    /// Why the line cannot be trusted, if it cannot: no check, or one that
    /// its other fields do not give.
    fn check_fault(&self) -> Option<String> {
        let expected = dlx_core::result_check(
            &self.digest,
            &self.plan,
            self.shard,
            self.of,
            &self.stats(),
            micros(self.seconds),
        );
        if self.check.is_empty() {
            Some(format!(
                "shard {}: the result has no \"check\" (a line of an older `cover`, or \
                 not written by `cover shard run`): run the shard again",
                self.shard
            ))
        } else if self.check != expected {
            Some(format!(
                "shard {}: the result's check does not match its other fields (the line was \
                 altered or damaged): run the shard again",
                self.shard
            ))
        } else {
            None
        }
    }

    fn stats(&self) -> Stats {
        // A result line carries these counters, no others.
        let mut stats = Stats::default();
        stats.nodes = self.nodes;
        stats.updates = self.updates;
        stats.solutions = self.count;
        stats.cleansings = self.cleansings;
        stats
    }
}

/// A prefix for JSON: [`CLOSED`] as null.
fn to_json(prefix: &[usize]) -> Vec<Option<u64>> {
    prefix
        .iter()
        .map(|&option| (option != CLOSED).then_some(option as u64))
        .collect()
}

/// The problem of `file` or `--queens`, read whole: warnings and errors
/// are reported as `cover exact` reports them; an error ends the command.
fn load(file: Option<&PathBuf>, source: &Source, session: &mut Session) -> anyhow::Result<Problem> {
    if let Some(n) = source.queens {
        return Ok(Queens::new(n as usize)?.problem().clone());
    }
    let path = file.expect("clap requires a file without --queens");
    let input = Input::new(path);
    let reader = match input.open() {
        Ok(reader) => reader,
        Err(e) => bail!("{}: {e}", input.name()),
    };
    let mut instances = Instances::new(reader, source.format.map(Into::into));
    let instance = match instances.next() {
        Some(Ok(instance)) => instance,
        Some(Err(InputError::Parse(_))) if holds_split_lines(path) => bail!(
            "{}:1: this is a file of shard (or result) lines, not a problem: give the \
             problem file (a Knuth or matrix file) first, as in `cover shard run PROBLEM \
             SHARDS` (for `run`, the problem the plan was made from), or --queens N",
            input.name()
        ),
        Some(Err(InputError::Parse(e))) => bail!("{}:{}: {}", input.name(), e.line(), e.message()),
        Some(Err(InputError::Io(e))) => bail!("{}: {e}", input.name()),
        None => bail!("{}: no problem in the input", input.name()),
    };
    for &line in &instance.ignored {
        session.warning(
            input.name(),
            line,
            "option ignored: it has no primary item, so no solution can hold it",
        );
    }
    match instances.next() {
        None => Ok(instance.problem),
        Some(Ok(second)) => bail!(
            "{}:{}: a second problem: `cover shard` works on one problem at a time",
            input.name(),
            second.line
        ),
        Some(Err(InputError::Parse(e))) => bail!("{}:{}: {}", input.name(), e.line(), e.message()),
        Some(Err(InputError::Io(e))) => bail!("{}: {e}", input.name()),
    }
}

/// Whether the file at `path` (not standard input, which cannot be read
/// again) starts with a line of a split, shard or result: a JSON object
/// with a digest and a plan, given where the problem belongs.
fn holds_split_lines(path: &Path) -> bool {
    if path == Path::new("-") {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    // A line of a split holds at most one line's limit; its start says.
    let mut lines = LineReader::new(io::BufReader::new(file));
    while let Ok(Some(line)) = lines.next_line() {
        let Ok(text) = line.text else {
            return false;
        };
        if text.trim().is_empty() {
            continue;
        }
        let value: Result<serde_json::Value, _> = serde_json::from_str(&text);
        return value.is_ok_and(|v| v.get("digest").is_some() && v.get("plan").is_some());
    }
    false
}

/// The most option numbers in the prefixes of one line of the top: a
/// plan of a million shards cuts hundreds of thousands of nodes, more than
/// one line may hold (4 MiB), so the top takes as many lines as it needs.
const MAX_OPTIONS_PER_LINE: usize = 100_000;

/// The top cut into lines of at most `most` option numbers (and at least
/// one prefix each).
fn top_lines(top: &[Vec<usize>], most: usize) -> Vec<&[Vec<usize>]> {
    let mut lines = Vec::new();
    let (mut start, mut options) = (0, 0);
    for (k, prefix) in top.iter().enumerate() {
        if k > start && options + prefix.len() > most {
            lines.push(&top[start..k]);
            (start, options) = (k, 0);
        }
        options += prefix.len();
    }
    lines.push(&top[start..]);
    lines
}

fn split(args: &SplitArgs, session: &mut Session) -> anyhow::Result<()> {
    let problem = load(args.file.as_ref(), &args.source, session)?;
    let start = Instant::now();
    let digest = dlx_core::digest(&problem);
    let config = ShardConfig::default()
        .with_shards(args.shards as usize)
        .with_probes(args.probes as usize)
        .with_seed(args.seed);
    // Each thread estimates with a copy of the links: no more than fit.
    let jobs = common::threads(args.jobs).min(common::copies_fit(&problem));
    let threads = common::thread_pool(NonZeroUsize::new(jobs))?;
    let plan = threads.install(|| dlx_core::plan(&problem, &config))?;
    let id = plan.id(&digest);
    let tops = top_lines(&plan.top, MAX_OPTIONS_PER_LINE);
    let of = (tops.len() + plan.shards.len()) as u64;
    if of > MAX_LINES {
        bail!("the split would have {of} lines, more than the {MAX_LINES} a split may have");
    }
    let mut out = Out::stdout();
    for (k, top) in tops.iter().enumerate() {
        let line = ShardLine {
            shard: k as u64,
            of,
            digest: digest.clone(),
            plan: id.clone(),
            top: Some(top.iter().map(|prefix| to_json(prefix)).collect()),
            check: dlx_core::shard_check(&id, k as u64, true, top),
            prefixes: None,
            estimate: None,
            probes: (k == 0).then_some(args.probes),
            seed: (k == 0).then_some(args.seed),
        };
        write_json_line(&mut out, &line)?;
    }
    for (k, shard) in plan.shards.iter().enumerate() {
        let number = (tops.len() + k) as u64;
        let line = ShardLine {
            shard: number,
            of,
            digest: digest.clone(),
            plan: id.clone(),
            top: None,
            prefixes: Some(shard.prefixes.iter().map(|p| to_json(p)).collect()),
            check: dlx_core::shard_check(&id, number, false, &shard.prefixes),
            estimate: Some(shard.estimate.round() as u64),
            probes: None,
            seed: None,
        };
        write_json_line(&mut out, &line)?;
    }
    out.flush()?;
    if args.stats {
        let mut estimates: Vec<f64> = plan.shards.iter().map(|s| s.estimate).collect();
        estimates.sort_by(f64::total_cmp);
        let total: f64 = estimates.iter().sum();
        let median = estimates.get(estimates.len() / 2).copied().unwrap_or(0.0);
        let largest = estimates.last().copied().unwrap_or(0.0);
        eprintln!(
            "shards:        {} and the top ({} nodes cut)",
            plan.shards.len(),
            plan.top.len()
        );
        eprintln!(
            "estimate:      {total:.3e} nodes; largest shard {largest:.3e}, {:.1} times the median",
            if median > 0.0 { largest / median } else { 0.0 }
        );
        eprintln!("split time:    {:.6} s", start.elapsed().as_secs_f64());
    }
    Ok(())
}

fn run_shards(args: &RunArgs, session: &mut Session) -> anyhow::Result<()> {
    let (file, shard_files) = match args.source.queens {
        Some(_) => (None, &args.paths[..]),
        None => (args.paths.first(), &args.paths[1.min(args.paths.len())..]),
    };
    let problem = load(file, &args.source, session)?;
    let problem_name = match (file, args.source.queens) {
        (Some(path), _) => path.display().to_string(),
        (None, n) => format!("--queens {}", n.unwrap_or(0)),
    };
    // Each thread's worker is a copy of the links: no more threads than
    // fit (a smaller pool for a large problem).
    let fit = common::copies_fit(&problem);
    let runner = Runner {
        digest: dlx_core::digest(&problem),
        problem,
        problem_name,
        foreign: Mutex::new(HashSet::new()),
        max_nodes: args.max_nodes,
        time_limit: args.time_limit,
    };
    let inputs = Inputs {
        files: shard_files.to_vec(),
    };
    let run = |session: &mut Session| {
        let mut out = Out::stdout().flushing_each_instance();
        batch::run(&runner, &inputs, &mut out, session)
    };
    if rayon::current_num_threads() > fit {
        let pool = common::thread_pool(NonZeroUsize::new(fit))?;
        pool.install(|| run(session))?;
    } else {
        run(session)?;
    }
    Ok(())
}

/// What `run` works with.
struct Runner {
    problem: Problem,
    digest: String,
    /// The problem's file, or `--queens N`, for messages.
    problem_name: String,
    /// The digests of other problems whose shard lines were met: each is
    /// said once, its other lines skipped (a whole file of them is one
    /// mistake, the problem file).
    foreign: Mutex<HashSet<String>>,
    /// `--max-nodes` and `--time-limit`, per shard.
    max_nodes: Option<u64>,
    time_limit: TimeLimit,
}

/// What running a shard came to.
#[derive(Debug, Clone, Copy)]
enum Ran {
    /// Its whole count.
    Counted(Stats),
    /// `--max-nodes` or `--time-limit` stopped it: the counters of the
    /// search made, and no result.
    GaveUp(Stats),
}

/// A shard line ready to run.
struct Work {
    /// Where it was read.
    number: usize,
    line: ShardLine,
    /// The top's prefixes, or the shard's.
    prefixes: Vec<Vec<usize>>,
    top: bool,
}

/// A line that is not a shard of this problem.
#[derive(Debug)]
struct BadLine {
    line: usize,
    message: String,
}

impl Invalid for BadLine {
    fn line(&self) -> usize {
        self.line
    }

    fn message(&self) -> String {
        self.message.clone()
    }
}

/// The first characters of a digest, enough to tell two apart in a
/// message.
fn short(digest: &str) -> &str {
    digest.get(..12).unwrap_or(digest)
}

/// Why a shard line is not run.
enum Refused {
    /// What is wrong, to be said at its line.
    Said(String),
    /// Of another problem already said: skipped without a word.
    Again,
}

impl From<String> for Refused {
    fn from(message: String) -> Refused {
        Refused::Said(message)
    }
}

impl Runner {
    /// Reads one shard line and checks it belongs to this problem.
    fn work(&self, text: &str) -> Result<Work, Refused> {
        let line: ShardLine =
            serde_json::from_str(text).map_err(|e| format!("not a shard line: {e}"))?;
        if let Some(message) = bad_numbers(line.shard, line.of) {
            return Err(message.into());
        }
        if line.digest != self.digest {
            let mut foreign = self.foreign.lock().unwrap_or_else(PoisonError::into_inner);
            if !foreign.insert(line.digest.clone()) {
                return Err(Refused::Again);
            }
            return Err(format!(
                "shard {} is from another problem: the plan was made from a problem of digest \
                 {}…, but the problem given ({}) has digest {}…; pass the problem file the plan \
                 was made from (the other shard lines of digest {}… are skipped, not named)",
                line.shard,
                short(&line.digest),
                self.problem_name,
                short(&self.digest),
                short(&line.digest),
            )
            .into());
        }
        let (top, prefixes) = match (&line.top, &line.prefixes) {
            (Some(top), None) => (true, top.clone()),
            (None, Some(prefixes)) => (false, prefixes.clone()),
            _ => {
                return Err(
                    format!("shard {} needs either \"prefixes\" or \"top\"", line.shard).into(),
                )
            }
        };
        let options = self.problem.option_count() as u64;
        let bounded = self.problem.has_bounds();
        let prefixes = prefixes
            .iter()
            .map(|prefix| {
                prefix
                    .iter()
                    .map(|&option| match option {
                        // Only Algorithm M closes an item.
                        None if bounded => Ok(CLOSED),
                        None => Err(format!(
                            "shard {}: null (an item closed) in a problem without multiplicities",
                            line.shard
                        )),
                        Some(option) if option < options => Ok(option as usize),
                        Some(option) => Err(format!(
                            "shard {}: option {option} does not exist (the problem has {options})",
                            line.shard
                        )),
                    })
                    .collect::<Result<Vec<usize>, String>>()
            })
            .collect::<Result<Vec<_>, String>>()?;
        if line.check != dlx_core::shard_check(&line.plan, line.shard, top, &prefixes) {
            return Err(format!(
                "shard {}: its check does not match its other fields (the line was altered)",
                line.shard
            )
            .into());
        }
        Ok(Work {
            number: 0,
            line,
            prefixes,
            top,
        })
    }
}

/// The shard lines of one input, each read and checked.
struct WorkLines<'r> {
    runner: &'r Runner,
    lines: LineReader<Box<dyn BufRead + Send + 'r>>,
}

impl Iterator for WorkLines<'_> {
    type Item = batch::Item<Runner>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = match self.lines.next_line() {
                Err(e) => return Some(Err(InputError::Io(e))),
                Ok(None) => return None,
                Ok(Some(line)) => line,
            };
            let text = match line.text {
                Err(fault) => {
                    return Some(Err(InputError::Parse(BadLine {
                        line: line.number,
                        message: fault.to_string(),
                    })))
                }
                Ok(text) => text,
            };
            if text.trim().is_empty() {
                continue;
            }
            return Some(match self.runner.work(&text) {
                Ok(work) => Ok(Work {
                    number: line.number,
                    ..work
                }),
                Err(Refused::Said(message)) => Err(InputError::Parse(BadLine {
                    line: line.number,
                    message,
                })),
                Err(Refused::Again) => continue,
            });
        }
    }
}

impl Batch for Runner {
    type Instance = Work;
    type Error = BadLine;
    type Worker = Solver;
    /// What the shard counted, or (the line and) why it cannot be run.
    type Answer = Result<Ran, (usize, String)>;

    fn label(&self) -> &'static str {
        "shards"
    }

    fn chunk_sizes(&self) -> ChunkSizes {
        // A chunk is printed when all of it is done: as many shards as
        // threads, so that none idles and little is held back.
        ChunkSizes::fixed(rayon::current_num_threads())
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self> {
        Box::new(WorkLines {
            runner: self,
            lines: LineReader::new(reader),
        })
    }

    fn worker(&self) -> Solver {
        Solver::new(&self.problem)
    }

    fn answer(
        &self,
        solver: &mut Solver,
        _: At<'_>,
        work: &Work,
        text: &mut String,
        _: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Self::Answer> {
        let start = Instant::now();
        let counted = if work.top {
            // The top is its cut nodes alone, one level each: not bounded.
            dlx_core::run_top(solver, &work.prefixes)
        } else {
            let limits = self.time_limit.limits(self.max_nodes);
            match dlx_core::run_shard_within(solver, &work.prefixes, &limits) {
                Ok(report) if !report.outcome.is_complete() => {
                    return Ok(Ok(Ran::GaveUp(report.stats)));
                }
                counted => counted.map(|report| report.stats),
            }
        };
        let stats = match counted {
            Ok(stats) => stats,
            // The options were checked when the line was read; a prefix
            // that leads nowhere is of another plan (a line made by another
            // version, say): no result, and the line named.
            Err(error) => {
                let message = format!("shard {}: {error}", work.line.shard);
                return Ok(Err((work.number, message)));
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        push_json(text, &ResultLine::new(work.line.key(), &stats, seconds));
        Ok(Ok(Ran::Counted(stats)))
    }

    fn verdict(&self, answer: &Self::Answer) -> Verdict {
        // A shard without solutions is an answer like any other: the exit
        // status says whether every shard ran.
        match answer {
            Ok(Ran::Counted(stats)) => Verdict::Solved(*stats),
            Ok(Ran::GaveUp(stats)) => Verdict::GaveUp(*stats),
            Err(_) => Verdict::Solved(Stats::default()),
        }
    }

    fn printed(&self, at: At<'_>, work: &Work, answer: &Self::Answer, _: &mut Session) {
        if let Ok(Ran::GaveUp(_)) = answer {
            output::error(format_args!(
                "{}:{}: shard {} gave up (--max-nodes or --time-limit): no result line; \
                 `cover shard merge --remaining` lists it to run again",
                at.file, work.number, work.line.shard
            ));
        }
    }

    fn failure(&self, answer: &Self::Answer) -> Option<(usize, String)> {
        answer.as_ref().err().cloned()
    }

    fn invalid(&self, _: At<'_>, _: &BadLine, _: &mut String) {}
}

/// Where a line was read: its file and number.
#[derive(Debug, Clone)]
struct Place {
    file: String,
    line: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A line of a split: a shard line or a result line.
trait SplitLine {
    /// Its shard's number, and the split's lines, digest and plan.
    fn key(&self) -> (u64, u64, &str, &str);

    /// Why the line cannot be used as read, if it cannot.
    fn fault(&self) -> Option<String> {
        let (shard, of, _, _) = self.key();
        bad_numbers(shard, of)
    }

    /// The split it says it is of.
    fn split_id(&self) -> SplitId {
        let (_, of, digest, plan) = self.key();
        SplitId {
            digest: digest.to_owned(),
            plan: plan.to_owned(),
            of,
        }
    }
}

impl SplitLine for ShardLine {
    fn key(&self) -> (u64, u64, &str, &str) {
        (self.shard, self.of, &self.digest, &self.plan)
    }
}

impl SplitLine for ResultLine {
    fn key(&self) -> (u64, u64, &str, &str) {
        (self.shard, self.of, &self.digest, &self.plan)
    }

    fn fault(&self) -> Option<String> {
        bad_numbers(self.shard, self.of).or_else(|| self.check_fault())
    }
}

/// The lines of `lines` that are of split `id`; each other one is
/// reported in `session` (see [`foreign`]).
fn of_split<T: SplitLine>(
    id: &SplitId,
    lines: Vec<ReadLine<T>>,
    session: &mut Session,
) -> Vec<ReadLine<T>> {
    lines
        .into_iter()
        .filter(|read| {
            let (shard, of, digest, plan) = read.value.key();
            match foreign(id, digest, plan, shard, of) {
                Some(problem) => {
                    session.invalid(&read.place.file, read.place.line, problem);
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// Why shard `shard` of `of` cannot be one, if it cannot.
fn bad_numbers(shard: u64, of: u64) -> Option<String> {
    if of > MAX_LINES {
        Some(format!(
            "shard {shard} of {of}: a split has at most {MAX_LINES} lines"
        ))
    } else if shard >= of {
        Some(format!(
            "shard {shard} of {of} does not exist (shards are numbered from 0)"
        ))
    } else {
        None
    }
}

/// A line read: where, what it says, and (when asked for) its text.
#[derive(Debug, Clone)]
struct ReadLine<T> {
    place: Place,
    value: T,
    text: String,
}

/// A split file: the split it is of, and its lines by shard number.
struct SplitFile {
    id: SplitId,
    shards: BTreeMap<u64, ReadLine<ShardLine>>,
}

/// Reads every non-blank line of `inputs` as a `T`, reporting the lines
/// that are not one (and the inputs that cannot be read) in `session`.
/// `keep_text` keeps each line's text too.
fn read_lines<T: for<'de> Deserialize<'de> + SplitLine>(
    inputs: &Inputs,
    what: &str,
    keep_text: bool,
    session: &mut Session,
) -> Vec<ReadLine<T>> {
    let mut read = Vec::new();
    for input in inputs.iter() {
        let Some(reader) = input.open_or_report(session) else {
            continue;
        };
        let mut lines = LineReader::new(reader);
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    session.io_error(input.name(), &e);
                    break;
                }
            };
            let text = match line.text {
                Ok(text) => text,
                Err(fault) => {
                    session.invalid(input.name(), line.number, fault);
                    continue;
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            let value = serde_json::from_str::<T>(&text)
                .map_err(|e| format!("not a {what} line: {e}"))
                .and_then(|value| value.fault().map_or(Ok(value), Err));
            match value {
                Ok(value) => {
                    let place = Place {
                        file: input.name().to_owned(),
                        line: line.number,
                    };
                    let text = if keep_text { text } else { String::new() };
                    read.push(ReadLine { place, value, text });
                }
                Err(message) => session.invalid(input.name(), line.number, message),
            }
        }
    }
    read
}

/// The split the results are checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SplitId {
    digest: String,
    plan: String,
    of: u64,
}

/// The shard lines of a split file, by shard number; the split they are
/// of (the one of most lines, when they disagree: the others are
/// reported).
fn read_split(path: &Path, session: &mut Session) -> Option<SplitFile> {
    let inputs = Inputs {
        files: vec![path.to_owned()],
    };
    let lines = read_lines::<ShardLine>(&inputs, "shard", true, session);
    let id = most_common(lines.iter().map(|read| read.value.split_id()))?;
    // By shard number: as big as the lines read, whatever `of` claims.
    let mut shards: BTreeMap<u64, ReadLine<ShardLine>> = BTreeMap::new();
    for read in of_split(&id, lines, session) {
        let (place, k) = (&read.place, read.value.shard);
        match shards.get(&k) {
            Some(first) => session.invalid(
                &place.file,
                place.line,
                format_args!("shard {k} doubled: it is also at {}", first.place),
            ),
            None => {
                shards.insert(k, read);
            }
        }
    }
    Some(SplitFile { id, shards })
}

/// The value seen most often (the first of those, on a tie).
fn most_common(values: impl Iterator<Item = SplitId>) -> Option<SplitId> {
    let mut seen: Vec<(SplitId, usize)> = Vec::new();
    let mut index: HashMap<(String, String, u64), usize> = HashMap::new();
    for value in values {
        let key = (value.digest.clone(), value.plan.clone(), value.of);
        match index.get(&key) {
            Some(&k) => seen[k].1 += 1,
            None => {
                index.insert(key, seen.len());
                seen.push((value, 1));
            }
        }
    }
    let most = seen.iter().map(|(_, n)| *n).max()?;
    seen.into_iter().find(|(_, n)| *n == most).map(|(id, _)| id)
}

/// Why a line of `shard` of `of` in `digest` and `plan` is not one of
/// split `id`'s, if it is not.
fn foreign(id: &SplitId, digest: &str, plan: &str, shard: u64, of: u64) -> Option<String> {
    if digest != id.digest {
        Some(format!(
            "shard {shard} is from another problem: its digest is {}…, the others' {}…",
            short(digest),
            short(&id.digest)
        ))
    } else if plan != id.plan {
        Some(format!(
            "shard {shard} is from another split of the problem: plan {plan}, the others' {}",
            id.plan
        ))
    } else if of != id.of || shard >= of {
        Some(format!(
            "shard {shard} of {of} is not one of the {} shards of plan {plan}",
            id.of
        ))
    } else {
        None
    }
}

/// `numbers` (ascending) as `1, 3-7, 9`, the first `most` runs of them;
/// and how many numbers there were.
fn ranges(numbers: impl Iterator<Item = u64>, most: usize) -> (String, u64) {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut count = 0;
    let mut more = false;
    for n in numbers {
        count += 1;
        let full = runs.len() == most;
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            // Only the runs shown are kept, however many numbers follow.
            _ if full => more = true,
            _ => runs.push((n, n)),
        }
    }
    let mut text: Vec<String> = runs
        .iter()
        .take(most)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if more {
        text.push("…".to_owned());
    }
    (text.join(", "), count)
}

/// The merged total, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Total {
    digest: String,
    plan: String,
    shards: u64,
    count: u64,
    nodes: u64,
    updates: u64,
    #[serde(skip_serializing_if = "is_zero")]
    cleansings: u64,
    /// The shards' times added: CPU time on one core.
    seconds: f64,
}

fn merge(args: &MergeArgs, session: &mut Session) -> anyhow::Result<()> {
    let split = match &args.remaining {
        Some(path) => match read_split(path, session) {
            Some(split) => Some(split),
            None => {
                session.invalid(&path.display().to_string(), 1, "no shard lines in the file");
                return Ok(());
            }
        },
        None => None,
    };
    let results = read_lines::<ResultLine>(&args.inputs, "result", false, session);
    let id = match (
        &split,
        most_common(results.iter().map(|read| read.value.split_id())),
    ) {
        (Some(split), _) => split.id.clone(),
        (None, Some(id)) => id,
        (None, None) => {
            output::error("no results in the input");
            session.fail(Status::Failed);
            return Ok(());
        }
    };
    // For each shard, where its result was read and what it says.
    let mut found: HashMap<u64, (Place, Stats)> = HashMap::new();
    let mut total = Stats::default();
    let mut seconds = 0.0;
    for ReadLine {
        place,
        value: result,
        ..
    } in &of_split(&id, results, session)
    {
        if let Some((first, stats)) = found.get(&result.shard) {
            // Two runs of one shard agree unless something is wrong (a
            // machine, a build): worth saying.
            let agree = if *stats == result.stats() {
                ""
            } else {
                ", and the two differ"
            };
            session.invalid(
                &place.file,
                place.line,
                format_args!(
                    "shard {} doubled: its result is also at {first}{agree}",
                    result.shard
                ),
            );
            continue;
        }
        let Some(sum) = total.checked_add(result.stats()) else {
            session.invalid(
                &place.file,
                place.line,
                format_args!("shard {}: the counts overflow the total", result.shard),
            );
            continue;
        };
        total = sum;
        seconds += result.seconds;
        found.insert(result.shard, (place.clone(), result.stats()));
    }
    let missing = || (0..id.of).filter(|k| !found.contains_key(k));
    let mut out = Out::stdout();
    if let Some(SplitFile { shards, .. }) = &split {
        // The lines still to run, as they were.
        for (k, shard) in shards {
            if !found.contains_key(k) {
                out.write_all(shard.text.as_bytes())?;
                out.write_all(b"\n")?;
            }
        }
        out.flush()?;
        let (absent, count) = ranges(missing().filter(|k| !shards.contains_key(k)), 20);
        if count > 0 {
            output::error(format_args!(
                "{}: shards {absent} are missing from the split file too",
                args.remaining
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string()),
            ));
            session.fail(Status::Failed);
        }
        let (_, count) = ranges(missing(), 0);
        if count > 0 {
            output::error(format_args!("{count} of {} shards still to run", id.of));
            session.fail(Status::NoSolution);
        }
        return Ok(());
    }
    let (list, count) = ranges(missing(), 20);
    if count > 0 {
        output::error(format_args!(
            "{count} of {} shards have no result: {list}",
            id.of
        ));
        session.fail(Status::Failed);
    }
    if session.status == Status::Failed {
        // A total of a partial or mixed set of results would be wrong.
        return Ok(());
    }
    if args.common.json {
        write_json_line(
            &mut out,
            &Total {
                digest: id.digest,
                plan: id.plan,
                shards: id.of,
                count: total.solutions,
                nodes: total.nodes,
                updates: total.updates,
                cleansings: total.cleansings,
                seconds,
            },
        )?;
    } else {
        writeln!(out, "{}", total.solutions)?;
    }
    out.flush()?;
    session.answered(total.solutions > 0, total);
    Ok(())
}

/// What a forecast says, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Forecast {
    shards: u64,
    sampled: u64,
    sample_seconds: f64,
    mean_seconds: f64,
    median_seconds: f64,
    largest_seconds: f64,
    /// CPU seconds of all the shards, and one standard error.
    total_seconds: f64,
    total_seconds_error: f64,
    solutions: f64,
    solutions_error: f64,
    workers: usize,
    /// Wall time on the workers: the total shared out, but no less than
    /// the largest shard sampled.
    wall_seconds: f64,
}

/// The mean of a sample of `values` of a population of `population`, the
/// total it forecasts and one standard error of that total.
fn forecast_total(values: &[f64], population: f64) -> (f64, f64, f64) {
    let k = values.len() as f64;
    let mean = values.iter().sum::<f64>() / k;
    let variance = if values.len() > 1 {
        values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (k - 1.0)
    } else {
        0.0
    };
    // Sampled without replacement: the finite-population correction.
    let correction = (1.0 - k / population).max(0.0);
    (
        mean,
        population * mean,
        population * (variance / k * correction).sqrt(),
    )
}

fn forecast(args: &ForecastArgs, session: &mut Session) -> anyhow::Result<()> {
    let Some(SplitFile { id, shards }) = read_split(&args.shards, session) else {
        bail!("{}: no shard lines in the file", args.shards.display());
    };
    // The top is not searched like the shards (and takes next to no
    // time): only the shards proper are sampled and forecast, and the
    // solutions the top found, when its results are there, are added.
    let is_top = |k: u64| shards.get(&k).is_some_and(|read| read.value.top.is_some());
    let population = (0..id.of).filter(|&k| !is_top(k)).count() as f64;
    let results = read_lines::<ResultLine>(&args.results, "result", false, session);
    let mut seen = HashSet::new();
    let mut seconds = Vec::new();
    let mut counts = Vec::new();
    let mut top_solutions = 0.0;
    for ReadLine { value: result, .. } in &of_split(&id, results, session) {
        if !seen.insert(result.shard) {
            continue;
        }
        if is_top(result.shard) {
            top_solutions += result.count as f64;
            continue;
        }
        seconds.push(result.seconds);
        counts.push(result.count as f64);
    }
    if seconds.len() < 2 {
        bail!(
            "a forecast needs the results of at least 2 shards of the split (other than the top), found {}",
            seconds.len()
        );
    }
    let (mean, total, total_error) = forecast_total(&seconds, population);
    let (_, solutions, solutions_error) = forecast_total(&counts, population);
    let solutions = solutions + top_solutions;
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let largest = sorted[sorted.len() - 1];
    let workers = args.workers.get();
    let wall = (total / workers as f64).max(largest);
    let forecast = Forecast {
        shards: population as u64,
        sampled: seconds.len() as u64,
        sample_seconds: seconds.iter().sum(),
        mean_seconds: mean,
        median_seconds: median,
        largest_seconds: largest,
        total_seconds: total,
        total_seconds_error: total_error,
        solutions,
        solutions_error,
        workers,
        wall_seconds: wall,
    };
    let mut out = Out::stdout();
    if args.json {
        write_json_line(&mut out, &forecast)?;
    } else {
        writeln!(
            out,
            "sample:        {} of {} shards ({:.1}%), {:.3} s in all",
            forecast.sampled,
            forecast.shards,
            100.0 * forecast.sampled as f64 / population,
            forecast.sample_seconds
        )?;
        writeln!(
            out,
            "shard time:    mean {mean:.3} s, median {median:.3} s, largest {largest:.3} s"
        )?;
        writeln!(
            out,
            "total time:    {} ± {} on one core",
            human(total),
            human(total_error)
        )?;
        writeln!(
            out,
            "solutions:     {solutions:.4e} ± {solutions_error:.1e}"
        )?;
        writeln!(
            out,
            "on {workers} workers: about {}, each running one shard at a time",
            human(wall)
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `seconds` in the largest unit that keeps it above 1.
fn human(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (86_400.0 * 365.25, "years"),
        (86_400.0, "days"),
        (3_600.0, "hours"),
        (60.0, "minutes"),
    ];
    for (size, name) in UNITS {
        if seconds >= size {
            return format!("{:.1} {name}", seconds / size);
        }
    }
    if seconds < 1.0 {
        format!("{seconds:.3} seconds")
    } else {
        format!("{seconds:.1} seconds")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_short() {
        let numbers = [1, 3, 4, 5, 7];
        assert_eq!(ranges(numbers.into_iter(), 10), ("1, 3-5, 7".into(), 5));
        assert_eq!(ranges(numbers.into_iter(), 2), ("1, 3-5, …".into(), 5));
        assert_eq!(ranges(std::iter::empty(), 2), (String::new(), 0));
        // A million numbers in runs, held as two runs.
        let (text, count) = ranges((0..2_000_000).filter(|n| n % 2 == 0), 2);
        assert_eq!((text.as_str(), count), ("0, 2, …", 1_000_000));
    }

    #[test]
    fn forecasts_of_a_whole_population_are_exact() {
        let (mean, total, error) = forecast_total(&[1.0, 2.0, 3.0], 3.0);
        assert_eq!((mean, total, error), (2.0, 6.0, 0.0));
        let (_, total, error) = forecast_total(&[1.0, 3.0], 100.0);
        assert_eq!(total, 200.0);
        assert!(error > 0.0);
    }

    #[test]
    fn the_most_common_split_wins() {
        let id = |plan: &str| SplitId {
            digest: "d".into(),
            plan: plan.into(),
            of: 3,
        };
        let most = most_common([id("a"), id("b"), id("b")].into_iter()).unwrap();
        assert_eq!(most.plan, "b");
        let tie = most_common([id("a"), id("b")].into_iter()).unwrap();
        assert_eq!(tie.plan, "a");
        assert!(most_common(std::iter::empty()).is_none());
    }

    #[test]
    fn the_top_takes_as_many_lines_as_it_needs() {
        let top = vec![vec![], vec![1], vec![1, 2], vec![1, 3], vec![4, 5, 6]];
        let lines = top_lines(&top, 3);
        assert_eq!(lines.concat(), top, "every prefix once, in order");
        assert!(lines.iter().all(|l| !l.is_empty()));
        assert!(lines
            .iter()
            .all(|l| l.len() == 1 || l.iter().map(Vec::len).sum::<usize>() <= 3));
        assert_eq!(lines.len(), 3);
        assert_eq!(top_lines(&top, 100).len(), 1);
        assert_eq!(top_lines(&[vec![]], 0).len(), 1);
    }

    #[test]
    fn human_times() {
        assert_eq!(human(30.0), "30.0 seconds");
        assert_eq!(human(0.25), "0.250 seconds");
        assert_eq!(human(7200.0), "2.0 hours");
        assert_eq!(human(86_400.0 * 3.0), "3.0 days");
    }
}
