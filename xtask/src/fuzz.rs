//! `cargo xtask fuzz`: structure-aware fuzzing of the whole `cover` binary, on the stable toolchain.
//!
//! It draws inputs from each command's grammar ([`grammar`]), mutates a few ([`mutate`]) and runs
//! the release binary on them, each command with flags drawn from its own family ([`commands`]),
//! several processes at once; answers to valid inputs are checked ([`answers`]). The first
//! failure ([`mod@classify`]) of each (command, kind) is saved under `DIR/failures/` as
//! `<n>.input` and `<n>.cmd` (a shell line that replays it), then minimised ([`minimise`]) as
//! `<n>.min.*`. Case i depends only on the seed and i, so `--seed S` replays a run; the exit status
//! is 1 when anything failed. Why whole processes, and the figures: `docs/measurements.md`.
//!
//! Usage: `cargo xtask fuzz [--seconds N] [--seed S] [--workers W] [--bin PATH] [--mem-mib M]
//! [--timeout-ms T] [--out DIR] [--command NAME ...]`.

mod answers;
mod classify;
mod commands;
mod exec;
mod grammar;
mod minimise;
mod mutate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};

use crate::flags::Flags;
use crate::paths;
use classify::{classify, clip, Expect, Failure, Kind};
use commands::{case_rng, make_case, Case, Spec, COMMANDS};
use exec::{End, Limits, Outcome};

/// The flags, for the help.
pub const USAGE: &str = "[--seconds N] [--seed S] [--workers W] [--bin PATH] [--mem-mib M] \
[--timeout-ms T] [--out DIR] [--command NAME[,NAME...]] [NAME ...]";

/// The address-space ceiling of every child: far above the memory cap (threads and allocator arenas
/// reserve much they never touch), low enough that a runaway allocation fails in a moment instead
/// of taking the machine's memory.
const ADDRESS_SPACE: u64 = 2 << 30;

/// At most this much of each output is kept (and judged).
const CAPTURE: usize = 4 << 20;

/// Time given to minimising one failure.
const MINIMISE_BUDGET: Duration = Duration::from_secs(20);

/// A progress line this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The command line, parsed.
struct Options {
    seconds: u64,
    seed: u64,
    workers: usize,
    bin: Option<PathBuf>,
    mem_mib: u64,
    timeout_ms: u64,
    out: PathBuf,
    commands: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options> {
    #[rustfmt::skip]
    let valued = [
        "--seconds", "--seed", "--workers", "--bin", "--mem-mib", "--timeout-ms", "--out", "--command",
    ];
    let flags = Flags::parse(args, &valued, &[])?;
    // A bare command name restricts too, as `verify`'s families.
    let mut commands = Vec::new();
    let listed = flags
        .values("--command")
        .into_iter()
        .flat_map(|l| l.split(','));
    for name in listed.chain(flags.positional().iter().map(String::as_str)) {
        if !COMMANDS.iter().any(|s| s.name == name) {
            let known: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
            bail!("unknown command {name:?}; known: {}", known.join(", "));
        }
        commands.push(name.to_owned());
    }
    // The clock's nanoseconds: a new seed each run, printed so that the run can be repeated.
    let clock = SystemTime::now().duration_since(UNIX_EPOCH);
    let clock_seed = clock.map_or(0, |d| d.as_nanos() as u64);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = flags.value("--out").map(PathBuf::from);
    Ok(Options {
        seconds: flags.parsed("--seconds", 60)?,
        seed: flags.parsed("--seed", clock_seed)?,
        workers: flags.parsed("--workers", cores)?.max(1),
        bin: flags.value("--bin").map(PathBuf::from),
        mem_mib: flags.parsed("--mem-mib", 100)?,
        timeout_ms: flags.parsed("--timeout-ms", 5000u64)?.max(1),
        out: out.unwrap_or_else(|| paths::workspace_root().join("target/fuzz")),
        commands,
    })
}

/// `cargo xtask fuzz ...`.
pub fn run(args: &[String]) -> Result<()> {
    let options = parse_options(args)?;
    let bin = match &options.bin {
        Some(path) => std::fs::canonicalize(path).with_context(|| format!("{}", path.display()))?,
        None => cover_check::process::build_release(&paths::workspace_root())
            .map_err(anyhow::Error::msg)?,
    };
    let specs: Vec<&'static Spec> = COMMANDS
        .iter()
        .filter(|s| options.commands.is_empty() || options.commands.iter().any(|c| c == s.name))
        .collect();

    // Our own output directories only: failures of an earlier run would mix with this one's
    // numbers.
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("creating {}", options.out.display()))?;
    let out = std::fs::canonicalize(&options.out)?;
    for sub in ["failures", "work"] {
        let dir = out.join(sub);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("clearing {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir)?;
    }

    exec::keep_own_memory_small();
    let limits = Limits {
        timeout: Duration::from_millis(options.timeout_ms),
        address_space: ADDRESS_SPACE,
        capture: CAPTURE,
    };
    // What every measure of memory starts from: `cover` doing nothing, plus what it shares with
    // this process at the fork.
    let floor = exec::run(&bin, &["--version".into()], &out, b"", limits)?;

    let fuzzer = Fuzzer {
        bin,
        seed: options.seed,
        limits,
        mem_cap_kib: options.mem_mib * 1024,
        specs,
        out,
        next_case: AtomicU64::new(0),
        tally: Mutex::new(Tally::default()),
        failures: Mutex::new(BTreeMap::new()),
    };
    fuzzer.print_header(&options, &floor);

    let start = Instant::now();
    let stop_at = start + Duration::from_secs(options.seconds);
    let broken_workers = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.workers)
            .map(|id| {
                let fuzzer = &fuzzer;
                scope.spawn(move || fuzzer.work(id, stop_at))
            })
            .collect();
        let mut next_progress = start + PROGRESS_EVERY;
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if Instant::now() >= next_progress {
                next_progress += PROGRESS_EVERY;
                fuzzer.print_progress(start);
            }
        }
        let stopped = workers.into_iter().map(|w| match w.join() {
            Ok(Ok(())) => false,
            Ok(Err(e)) => {
                eprintln!("fuzz: a worker stopped: {e:#}");
                true
            }
            Err(_) => {
                eprintln!("fuzz: a worker panicked");
                true
            }
        });
        stopped.filter(|&s| s).count()
    });
    let elapsed = start.elapsed();
    let failed = fuzzer.print_summary(elapsed);
    // The inputs of the last cases, some of them megabytes, are of no use now; the failures are
    // kept.
    let _ = std::fs::remove_dir_all(fuzzer.out.join("work"));
    if broken_workers > 0 {
        bail!("{broken_workers} workers stopped early (see above)");
    }
    if failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// What the workers share.
struct Fuzzer {
    bin: PathBuf,
    seed: u64,
    limits: Limits,
    mem_cap_kib: u64,
    specs: Vec<&'static Spec>,
    /// The output directory (absolute).
    out: PathBuf,
    /// The index of the next case to draw.
    next_case: AtomicU64,
    /// What the workers ran, added up.
    tally: Mutex<Tally>,
    /// Failures by signature.
    failures: Mutex<BTreeMap<(&'static str, Kind), Signature>>,
}

/// The failures of one (command, kind).
struct Signature {
    /// How many cases failed so.
    count: u64,
    /// The number of its files in `failures/`.
    id: usize,
    /// The first failing case: its index, its failure, its command line.
    case_index: u64,
    first: Failure,
    command_line: String,
    /// What the minimiser made of it, once done: the summary's lines about it.
    minimised: Option<String>,
}

/// Counts per command (minimisation runs apart).
#[derive(Default)]
struct Tally {
    by_command: BTreeMap<&'static str, CommandTally>,
    minimise_runs: u64,
}

impl Tally {
    /// Cases run, answered (exit 0 or 1: they reached a search), checked, and failed.
    fn totals(&self) -> [u64; 4] {
        let counts = self.by_command.values();
        let each = counts.map(|t| [t.runs, t.exits[0] + t.exits[1], t.checked, t.failures]);
        each.fold([0; 4], |sum, t| std::array::from_fn(|i| sum[i] + t[i]))
    }
}

#[derive(Default, Clone)]
struct CommandTally {
    runs: u64,
    /// Exit statuses 0, 1, 2, and anything else (other statuses, signals, time-outs).
    exits: [u64; 4],
    /// Answers checked (see [`answers`]).
    checked: u64,
    failures: u64,
    time: Duration,
    slowest: Duration,
    peak_rss_kib: u64,
    input_bytes: u64,
}

impl Fuzzer {
    /// A worker: draws cases and runs them until `stop_at`.
    fn work(&self, id: usize, stop_at: Instant) -> Result<()> {
        let dir = self.out.join("work").join(format!("w{id}"));
        std::fs::create_dir_all(&dir)?;
        while Instant::now() < stop_at {
            let index = self.next_case.fetch_add(1, Ordering::Relaxed);
            let case = make_case(&mut case_rng(self.seed, index), &self.specs);
            let outcome = self.run_case(&case, &dir)?;
            let (failure, checked) = self.judge(&case, &outcome);
            self.count_run(&case, &outcome, failure.is_some(), checked);
            if let Some(failure) = failure {
                if let Some(id) = self.count_failure(&case, index, &failure) {
                    let runs = self.record(id, &case, index, &failure, &dir)?;
                    lock(&self.tally).minimise_runs += runs;
                }
            }
        }
        Ok(())
    }

    /// Adds a run of `case` to the tally of its command.
    fn count_run(&self, case: &Case, outcome: &Outcome, failed: bool, checked: bool) {
        let mut tally = lock(&self.tally);
        let entry = tally.by_command.entry(case.command).or_default();
        entry.runs += 1;
        entry.exits[match outcome.end {
            End::Exited(s @ 0..=2) => s as usize,
            _ => 3,
        }] += 1;
        entry.failures += u64::from(failed);
        entry.checked += u64::from(checked);
        entry.time += outcome.elapsed;
        entry.slowest = entry.slowest.max(outcome.elapsed);
        entry.peak_rss_kib = entry.peak_rss_kib.max(outcome.peak_rss_kib);
        entry.input_bytes += case.inputs.iter().map(|i| i.len() as u64).sum::<u64>();
    }

    /// The failure of a run, if any (a broken promise of the interface, else a wrong answer), and
    /// whether its answer was checked.
    fn judge(&self, case: &Case, outcome: &Outcome) -> (Option<Failure>, bool) {
        if let Some(failure) = classify(outcome, self.expect(case)) {
            return (Some(failure), false);
        }
        // An output cut by the capture cap cannot be judged whole.
        if !matches!(outcome.end, End::Exited(0 | 1)) || outcome.stdout_cut {
            return (None, false);
        }
        match answers::check(case, &String::from_utf8_lossy(&outcome.stdout)) {
            Ok(checked) => (None, checked),
            Err(detail) => (
                Some(Failure {
                    kind: Kind::WrongAnswer,
                    detail,
                }),
                true,
            ),
        }
    }

    /// What the classifier must know of `case`.
    fn expect(&self, case: &Case) -> Expect {
        Expect {
            json: case.has_flag("--json"),
            stats: case.has_flag("--stats"),
            mem_cap_kib: self.mem_cap_kib,
            answers: matches!(case.command, "exact" | "queens" | "generate"),
        }
    }

    /// Writes the file inputs of `case` into `dir` and runs it there.
    fn run_case(&self, case: &Case, dir: &Path) -> Result<Outcome> {
        let names = input_names(case.inputs.len());
        for (i, (input, name)) in case.inputs.iter().zip(&names).enumerate() {
            if case.stdin_slot != Some(i) {
                std::fs::write(dir.join(name), input)?;
            }
        }
        let args = case.args(&names);
        exec::run(&self.bin, &args, dir, case.stdin(), self.limits)
    }

    /// Counts a failure; `Some(id)` when it is the first of its signature, to be saved as
    /// `failures/<id>.*`.
    fn count_failure(&self, case: &Case, index: u64, failure: &Failure) -> Option<usize> {
        let mut failures = lock(&self.failures);
        let next_id = failures.len() + 1;
        let signature = failures
            .entry((case.command, failure.kind))
            .or_insert_with(|| Signature {
                count: 0,
                id: next_id,
                case_index: index,
                first: failure.clone(),
                command_line: self.command_line(case, &saved_names(next_id, case.inputs.len(), "")),
                minimised: None,
            });
        signature.count += 1;
        (signature.count == 1).then_some(signature.id)
    }

    /// Saves the first failure of a signature, minimises it and saves that too. Returns the runs
    /// minimising took.
    fn record(
        &self,
        id: usize,
        case: &Case,
        index: u64,
        failure: &Failure,
        dir: &Path,
    ) -> Result<u64> {
        let failures_dir = self.out.join("failures");
        let kind = failure.kind;
        let (command, label, detail) = (case.command, kind.label(), &failure.detail);
        eprintln!("fuzz: failure {id}: {command} {label}: {detail} (case {index})");
        self.save(case, &failures_dir, (id, ""), failure, index)?;

        // The minimiser keeps a removal when the same kind of failure happens again; a first run
        // that does not fail again is flaky.
        let started = Instant::now();
        let reproduces = |c: &Case| {
            let outcome = self.run_case(c, dir).ok();
            outcome
                .and_then(|o| self.judge(c, &o).0)
                .is_some_and(|f| f.kind == kind)
        };
        let flaky = !reproduces(case);
        let (small, runs) = if flaky {
            (case.clone(), 1)
        } else {
            let (small, runs) = minimise::minimise(case, MINIMISE_BUDGET, reproduces);
            (small, runs + 1)
        };
        let seconds = started.elapsed().as_secs_f64();
        let command_line = self.save(&small, &failures_dir, (id, ".min"), failure, index)?;
        let size: usize = small.inputs.iter().map(Vec::len).sum();
        eprintln!(
            "fuzz: failure {id} {}: {size} bytes of input in {runs} runs, {seconds:.1} s: {command_line}",
            if flaky { "did not happen again" } else { "minimised" }
        );
        let inputs: Vec<String> = small.inputs.iter().map(|i| describe(i)).collect();
        let minimised = format!(
            "  {}: {command_line} ({runs} runs, {seconds:.1} s)\n  input:     {}",
            if flaky { "not again" } else { "minimised" },
            inputs.join(" + ")
        );
        if let Some(signature) = lock(&self.failures).get_mut(&(case.command, kind)) {
            signature.minimised = Some(minimised);
        }
        Ok(runs as u64)
    }

    /// Writes `case`'s inputs into `dir` as `<id><suffix>.input` (or `<id>-<k><suffix>.input`, for
    /// several) and the shell line that replays it as `<id><suffix>.cmd`. Returns that line.
    fn save(
        &self,
        case: &Case,
        dir: &Path,
        (id, suffix): (usize, &str),
        failure: &Failure,
        index: u64,
    ) -> Result<String> {
        let names = saved_names(id, case.inputs.len(), suffix);
        for (input, name) in case.inputs.iter().zip(&names) {
            std::fs::write(dir.join(name), input)?;
        }
        let command_line = self.command_line(case, &names);
        let text = format!(
            "# cover {}: {}: {}\n# case {index} of `cargo xtask fuzz --seed {}`{}\ncd {} && {command_line}\n",
            case.command,
            failure.kind.label(),
            failure.detail.replace('\n', " "),
            self.seed,
            if suffix.is_empty() { "" } else { ", minimised" },
            shell_quote(&dir.to_string_lossy()),
        );
        std::fs::write(dir.join(format!("{id}{suffix}.cmd")), text)?;
        Ok(command_line)
    }

    /// `cover ARGS < STDIN` as a shell line, inputs named `names`.
    fn command_line(&self, case: &Case, names: &[String]) -> String {
        let mut line = shell_quote(&self.bin.to_string_lossy());
        for arg in case.args(names) {
            line.push(' ');
            line.push_str(&shell_quote(&arg.to_string_lossy()));
        }
        if let Some(slot) = case.stdin_slot {
            if let Some(name) = names.get(slot) {
                line.push_str(" < ");
                line.push_str(&shell_quote(name));
            }
        }
        line
    }

    fn print_header(&self, options: &Options, floor: &Outcome) {
        let (seconds, workers) = (options.seconds, options.workers);
        let (mem_mib, timeout_ms) = (options.mem_mib, options.timeout_ms);
        let (seed, bin) = (self.seed, self.bin.display());
        let names: Vec<&str> = self.specs.iter().map(|s| s.name).collect();
        let commands = names.join(" ");
        let address_space_gib = ADDRESS_SPACE >> 30;
        eprintln!(
            "fuzz: seed {seed} (repeat with --seed {seed}), {seconds} s, {workers} workers, commands {commands}"
        );
        eprintln!(
            "fuzz: binary {bin}; memory cap {mem_mib} MiB (address space {address_space_gib} GiB), time limit {timeout_ms} ms"
        );
        let floor_kib = floor.peak_rss_kib;
        eprintln!(
            "fuzz: `cover --version` peaks at {floor_kib} KiB: the floor of every measure of memory"
        );
        eprintln!(
            "fuzz: failures go to {}",
            self.out.join("failures").display()
        );
    }

    fn print_progress(&self, start: Instant) {
        let seconds = start.elapsed().as_secs_f64();
        let [tried, answered, _, failed] = lock(&self.tally).totals();
        let kinds = lock(&self.failures).len();
        eprintln!(
            "fuzz: {seconds:.0} s, {tried} inputs ({:.0}/s), {:.0}% reached a search, {failed} failures ({kinds} kinds)",
            tried as f64 / seconds.max(1e-9),
            percent(answered, tried),
        );
    }

    /// The summary on standard output; returns the number of failures.
    fn print_summary(&self, elapsed: Duration) -> u64 {
        let total = lock(&self.tally);
        let [tried, answered, checked, failed] = total.totals();
        let seconds = elapsed.as_secs_f64();
        println!(
            "fuzz: seed {}, {seconds:.1} s, {} runs minimising",
            self.seed, total.minimise_runs
        );
        let own = exec::own_peak_rss_kib();
        println!(
            "fuzz: this process peaked at {:.1} MiB: a child's peak is at least this process's \
             size at its fork, so peaks up to that may not be the child's; the cap check is \
             exact while this stays below the cap{}",
            own as f64 / 1024.0,
            if own >= self.mem_cap_kib {
                " (IT DID NOT: use fewer workers)"
            } else {
                ""
            }
        );
        // The columns of the rows below.
        println!("command       runs   exit 0   exit 1   exit 2  other  checked   failed  mean ms   slowest  peak MiB  input MB");
        for (name, t) in &total.by_command {
            println!(
                "{:<9} {:>8} {:>8} {:>8} {:>8} {:>6} {:>8} {:>8} {:>8.2} {:>8.2}s {:>9.1} {:>9.1}",
                name,
                t.runs,
                t.exits[0],
                t.exits[1],
                t.exits[2],
                t.exits[3],
                t.checked,
                t.failures,
                t.time.as_secs_f64() * 1e3 / t.runs.max(1) as f64,
                t.slowest.as_secs_f64(),
                t.peak_rss_kib as f64 / 1024.0,
                t.input_bytes as f64 / 1e6
            );
        }
        let failures = lock(&self.failures);
        for ((command, kind), s) in failures.iter() {
            let (label, count, first) = (kind.label(), s.count, s.case_index);
            println!(
                "FAIL {command} [{label}]: {count} case(s); first: case {first}: {}",
                s.first.detail
            );
            println!("  run:       {}", s.command_line);
            let minimised = s.minimised.as_deref();
            println!(
                "{}",
                minimised.unwrap_or("  (not minimised: its worker stopped)")
            );
            let dir = self.out.join("failures");
            println!(
                "  replay:    sh {}, sh {}",
                dir.join(format!("{}.cmd", s.id)).display(),
                dir.join(format!("{}.min.cmd", s.id)).display()
            );
        }
        let kinds = failures.len();
        println!(
            "fuzz: {tried} inputs, {:.1}% reached a search ({:.1}% checked), {:.1} inputs/s, {failed} failures of {kinds} kinds",
            percent(answered, tried),
            percent(checked, tried),
            tried as f64 / seconds.max(1e-9),
        );
        failed
    }
}

/// `mutex`'s guard; a worker that panicked holding it left counts, still worth reporting.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// `part` of `whole`, in percent.
fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The names of a case's inputs in a worker's directory.
fn input_names(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("in{i}")).collect()
}

/// The names of a saved case's inputs: `7.input` for one, `7-0.input`, `7-1.input` for several;
/// `suffix` `.min` for the minimised one.
fn saved_names(id: usize, count: usize, suffix: &str) -> Vec<String> {
    if count <= 1 {
        vec![format!("{id}{suffix}.input")]
    } else {
        (0..count)
            .map(|i| format!("{id}-{i}{suffix}.input"))
            .collect()
    }
}

/// An input for a person: its size and its start, escaped.
fn describe(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(&input[..input.len().min(120)]);
    let mut shown = format!("{} bytes {:?}", input.len(), clip(&text, 100));
    if input.len() > 120 {
        shown.push('…');
    }
    shown
}

/// `text` quoted for a POSIX shell when it needs it.
fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=:,+@".contains(&b));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_have_defaults_and_take_values() {
        let o = parse_options(&[]).unwrap();
        assert_eq!((o.seconds, o.mem_mib, o.timeout_ms), (60, 100, 5000));
        let args: Vec<String> = [
            "--seconds",
            "5",
            "--seed",
            "42",
            "--command",
            "sudoku,exact",
            "--command",
            "radar",
        ]
        .map(String::from)
        .to_vec();
        let o = parse_options(&args).unwrap();
        assert_eq!((o.seconds, o.seed), (5, 42));
        assert_eq!(o.commands, ["sudoku", "exact", "radar"]);
        assert!(parse_options(&["--command".into(), "nope".into()]).is_err());
        assert!(parse_options(&["--seconds".into()]).is_err());
    }

    #[test]
    fn shell_lines_quote_what_needs_it() {
        assert_eq!(shell_quote("--limit"), "--limit");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn saved_names_pair_with_their_cmd_files() {
        assert_eq!(saved_names(3, 1, ""), ["3.input"]);
        assert_eq!(
            saved_names(3, 2, ".min"),
            ["3-0.min.input", "3-1.min.input"]
        );
    }
}
