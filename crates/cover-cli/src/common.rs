//! What every command shares: the input files, the `--json`, `--jobs` and
//! `--stats` flags (and the threads `--jobs` starts, capped), the
//! `--time-limit` of the commands that search, the exit status and the
//! stats summary.
//!
//! A command flattens [`Inputs`] (when it reads files), [`TimeLimit`]
//! (when it searches) and [`Common`] into its own arguments, records each
//! instance in a [`Session`], and `main` turns the session into the exit
//! status and the summary.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use clap::Args;
use dlx_core::{Limits, Stats};

use crate::output;

/// The input files of a command.
#[derive(Args, Debug, Clone, Default)]
pub struct Inputs {
    /// Files to read, in order. With none, or for `-`, standard input is
    /// read.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl Inputs {
    /// The inputs in order: standard input alone when no file was named.
    pub fn iter(&self) -> impl Iterator<Item = Input> + '_ {
        let stdin_only = self.files.is_empty().then(|| Input::new(Path::new("-")));
        stdin_only
            .into_iter()
            .chain(self.files.iter().map(|path| Input::new(path)))
    }
}

/// One input: a file, standard input, or the text of an argument.
#[derive(Debug, Clone)]
pub struct Input {
    /// `None` for standard input and for an argument's text.
    path: Option<PathBuf>,
    name: String,
    /// The text of an argument read as input (a puzzle given inline).
    text: Option<String>,
}

impl Input {
    /// Whether this is standard input and standard input is a terminal:
    /// someone is to type (or paste) it.
    pub fn reads_terminal(&self) -> bool {
        use std::io::IsTerminal as _;
        self.path.is_none() && self.text.is_none() && io::stdin().is_terminal()
    }

    /// The input named `path`; `-` is standard input.
    pub fn new(path: &Path) -> Input {
        if path == Path::new("-") {
            Input {
                path: None,
                name: "<stdin>".to_owned(),
                text: None,
            }
        } else {
            Input {
                path: Some(path.to_owned()),
                name: path.display().to_string(),
                text: None,
            }
        }
    }

    /// This input read as text of its own (one line) rather than a file's
    /// name, named `<argument>`, when `is_text` says its name is such text
    /// and no file has that name: `cover sudoku 53..7....` solves that
    /// puzzle.
    pub fn or_text(self, is_text: impl Fn(&str) -> bool) -> Input {
        let Some(path) = &self.path else {
            return self;
        };
        let Some(text) = path.to_str() else {
            return self;
        };
        if path.exists() || !is_text(text) {
            return self;
        }
        Input {
            path: None,
            name: "<argument>".to_owned(),
            text: Some(format!("{text}\n")),
        }
    }

    /// The name used in messages and JSON: the path as given, or `<stdin>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The input's size in bytes, when it is a file whose size is known.
    pub fn size(&self) -> Option<u64> {
        if let Some(text) = &self.text {
            return Some(text.len() as u64);
        }
        let path = self.path.as_ref()?;
        std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len())
    }

    /// Opens the input for buffered reading (on any thread: a batch reads
    /// on a thread of its own).
    pub fn open(&self) -> io::Result<Box<dyn BufRead + Send>> {
        if let Some(text) = &self.text {
            return Ok(Box::new(io::Cursor::new(text.clone().into_bytes())));
        }
        Ok(match &self.path {
            // Not `stdin().lock()`, whose guard must stay on its thread.
            None => Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            Some(path) => Box::new(BufReader::with_capacity(1 << 16, File::open(path)?)),
        })
    }

    /// Opens the input, or reports in `session` why it cannot be opened.
    pub fn open_or_report(&self, session: &mut Session) -> Option<Box<dyn BufRead + Send>> {
        self.open()
            .map_err(|e| session.io_error(self.name(), &e))
            .ok()
    }
}

/// The flags of the commands that search for solutions: the first, every
/// one, or their number.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct Solutions {
    /// Print the number of solutions instead of a solution.
    #[arg(long, short = 'c', conflicts_with = "all")]
    pub count: bool,

    /// Print every solution, not only the first.
    #[arg(long, short = 'a')]
    pub all: bool,

    /// Stop after N solutions.
    ///
    /// With --all, print at most N solutions; with --count, stop counting
    /// at N (and print N). Alone, the same as --all --limit N.
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub limit: Option<u64>,
}

/// What to look for in each instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first solution in search order.
    First,
    /// Every solution, or the first `limit`.
    All {
        /// Stop after this many.
        limit: Option<u64>,
    },
    /// The number of solutions, counting no further than `limit`.
    Count {
        /// Stop counting here.
        limit: Option<u64>,
    },
}

impl Solutions {
    /// The mode the flags ask for (`--limit` alone lists solutions).
    pub fn mode(&self) -> Mode {
        if self.count {
            Mode::Count { limit: self.limit }
        } else if self.all || self.limit.is_some() {
            Mode::All { limit: self.limit }
        } else {
            Mode::First
        }
    }
}

/// `--time-limit`, beside `--max-nodes` in every command that searches.
#[derive(Args, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeLimit {
    /// Give up on an instance once its search has run SECONDS (fractions
    /// allowed: 0.5).
    ///
    /// Its answer is then `gave up`, as at --max-nodes (JSON status
    /// "gave_up"; with --all, after the solutions found by then; with
    /// --count, `gave up after N solutions`), and the
    /// exit status is 1; the other instances are still answered. The
    /// clock of an instance starts when its search does, and is read as
    /// the search goes down a level (every node where nodes are slow), so
    /// a search ends within a node's work of the limit. Unlike
    /// --max-nodes, where it ends depends on the machine and the threads.
    #[arg(id = "time_limit", long = "time-limit", value_name = "SECONDS", value_parser = parse_seconds)]
    pub limit: Option<Duration>,
}

impl TimeLimit {
    /// The limits of a search that starts now: `max_nodes` nodes and this
    /// time limit.
    pub fn limits(&self, max_nodes: Option<u64>) -> Limits {
        Limits::none()
            .with_node_budget(max_nodes)
            .with_time_limit(self.limit)
    }
}

/// Reads a count of 1 or more, at most `max` (`what` names the most, for
/// the message): the messages say what is wanted in words, not in the
/// parser's types.
pub fn parse_count(text: &str, max: u64, what: &str) -> Result<u64, String> {
    let digits = text.trim_start_matches('+');
    match digits.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(format!("is more than {max}, {what}")),
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("is more than {max}, {what}"))
        }
        Err(_) if text.starts_with('-') => Err("must be at least 1, not negative".to_owned()),
        Err(_) => Err("expected a whole number, 1 or more".to_owned()),
    }
}

/// [`parse_count`] up to `u64::MAX`.
pub fn parse_positive(text: &str) -> Result<u64, String> {
    parse_count(text, u64::MAX, "the most there is")
}

/// [`parse_positive`] as a `NonZeroUsize` (threads, workers, probes).
pub fn parse_nonzero(text: &str) -> Result<NonZeroUsize, String> {
    let n = parse_count(text, usize::MAX as u64, "the most there is")?;
    Ok(NonZeroUsize::new(n as usize).expect("at least 1"))
}

/// Reads `--time-limit`: a number of seconds above 0, finite.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds (such as 10 or 0.5), found {text:?}"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!(
            "expected a number of seconds above 0 (such as 10 or 0.5), found {text:?}"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("{text} seconds is too long"))
}

/// The most threads `--jobs` starts, per core: more only queue for the
/// cores (and thousands of threads take seconds, and memory, to start).
pub const JOBS_PER_CORE: usize = 4;

/// The threads `jobs` asks for (all cores when `None`), at most
/// [`JOBS_PER_CORE`] per core.
pub fn threads(jobs: Option<NonZeroUsize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    jobs.map_or(cores, NonZeroUsize::get)
        .min(JOBS_PER_CORE * cores)
}

/// A pool of `threads(jobs)` threads, or one error that says so when the
/// system will not start them.
pub fn thread_pool(jobs: Option<NonZeroUsize>) -> anyhow::Result<rayon::ThreadPool> {
    let threads = threads(jobs);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| cannot_start(threads, &e))
}

/// The error of threads that could not be started (rayon's error repeats
/// its cause, so only its text is kept).
fn cannot_start(threads: usize, error: &rayon::ThreadPoolBuildError) -> anyhow::Error {
    anyhow!("cannot start {threads} threads: {error} (try fewer with --jobs)")
}

/// The most nodes a search split across threads may copy in all (a copy
/// of its links per thread, 16 bytes a node): 256 MiB.
pub const MAX_SPLIT_NODES: usize = 1 << 24;

/// How many threads may each hold a copy of `problem`'s links, all
/// together within [`MAX_SPLIT_NODES`] (at least one).
pub fn copies_fit(problem: &dlx_core::Problem) -> usize {
    (MAX_SPLIT_NODES / problem.node_count().max(1)).max(1)
}

/// Whether `problem`'s search may be split across rayon's threads: its
/// links copied once per thread stay within [`MAX_SPLIT_NODES`]. Larger
/// problems search on one thread, so that threads do not multiply memory.
pub fn split_fits(problem: &dlx_core::Problem) -> bool {
    rayon::current_num_threads() <= copies_fit(problem)
}

/// Flags every command takes.
#[derive(Args, Debug, Clone, Default)]
pub struct Common {
    /// Write one JSON object per instance per line instead of text.
    ///
    /// JSON Lines, not one JSON document: read it with `jq` (`cover ...
    /// --json | jq .status`), or `python3 -m json.tool --json-lines`.
    #[arg(long)]
    pub json: bool,

    /// Use N threads [default: one per core; at most 4 per core].
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_nonzero)]
    pub jobs: Option<NonZeroUsize>,

    /// Print a summary to standard error at the end.
    ///
    /// The summary gives the number of instances (answered, solved, without
    /// solution, invalid), the time, instances per second, and the search
    /// nodes, updates and solutions of all searches together.
    #[arg(long)]
    pub stats: bool,
}

impl Common {
    /// Sets up rayon's global thread pool with `--jobs` threads (at most
    /// [`JOBS_PER_CORE`] per core).
    pub fn init_threads(&self) -> anyhow::Result<()> {
        let threads = threads(self.jobs);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| cannot_start(threads, &e))
    }
}

/// The exit status, from best to worst; a run ends with the worst it met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Every input valid and every instance has a solution (exit 0).
    #[default]
    Solved,
    /// Every input valid, but some instance has no solution, or its
    /// search gave up (exit 1).
    NoSolution,
    /// Bad input, bad usage or an I/O error (exit 2).
    Failed,
}

impl Status {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Solved => 0,
            Status::NoSolution => 1,
            Status::Failed => 2,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// What a run has met so far: the exit status and the counters of the
/// `--stats` summary. Commands record every instance here.
#[derive(Debug)]
pub struct Session {
    /// The worst status so far.
    pub status: Status,
    start: Instant,
    solved: u64,
    unsolved: u64,
    given_up: u64,
    invalid: u64,
    stats: Stats,
    /// Instances that conflict learning answered, and the clauses it
    /// learnt from their conflicts.
    learning: u64,
    learnt: u64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// Starts the clock.
    pub fn new() -> Session {
        Session {
            status: Status::Solved,
            start: Instant::now(),
            solved: 0,
            unsolved: 0,
            given_up: 0,
            invalid: 0,
            stats: Stats::default(),
            learning: 0,
            learnt: 0,
        }
    }

    /// Records that conflict learning answered an instance, learning
    /// `learnt` clauses.
    pub fn learnt(&mut self, learnt: u64) {
        self.learning += 1;
        self.learnt += learnt;
    }

    /// Records an instance that was answered: it has a solution or not,
    /// and its search had these counters.
    pub fn answered(&mut self, has_solution: bool, stats: Stats) {
        self.stats += stats;
        if has_solution {
            self.solved += 1;
        } else {
            self.unsolved += 1;
            self.fail(Status::NoSolution);
        }
    }

    /// Records an instance whose search gave up at its node bound before
    /// it was done: it has no answer, so the exit status is 1.
    pub fn gave_up(&mut self, stats: Stats) {
        self.stats += stats;
        self.given_up += 1;
        self.fail(Status::NoSolution);
    }

    /// Records and reports an instance that could not be read: `line` is
    /// where the problem is.
    pub fn invalid(&mut self, file: &str, line: usize, message: impl std::fmt::Display) {
        self.invalid += 1;
        output::error(format_args!("{file}:{line}: {message}"));
        self.fail(Status::Failed);
    }

    /// Reports an input that could not be opened or read to the end.
    pub fn io_error(&mut self, file: &str, error: &io::Error) {
        output::error(format_args!("{file}: {error}"));
        self.fail(Status::Failed);
    }

    /// Lowers the status to `status` if that is worse.
    pub fn fail(&mut self, status: Status) {
        self.status = self.status.max(status);
    }

    /// Writes the `--stats` summary.
    pub fn write_summary(&self, mut w: impl Write) -> io::Result<()> {
        let seconds = self.start.elapsed().as_secs_f64();
        let answered = self.solved + self.unsolved;
        let instances = answered + self.given_up + self.invalid;
        let rate = if seconds > 0.0 {
            instances as f64 / seconds
        } else {
            0.0
        };
        // Given-up searches only exist with a node bound: named when met.
        let given_up = match self.given_up {
            0 => String::new(),
            n => format!("; {n} given up"),
        };
        writeln!(
            w,
            "instances:     {instances} ({answered} answered: {} solved, {} without solution{given_up}; \
             {} invalid)",
            self.solved, self.unsolved, self.invalid
        )?;
        writeln!(w, "time:          {seconds:.6} s ({rate:.1} instances/s)")?;
        writeln!(w, "search nodes:  {}", self.stats.nodes)?;
        writeln!(w, "updates:       {}", self.stats.updates)?;
        writeln!(w, "solutions:     {}", self.stats.solutions)?;
        // Only colour problems purify; said when they did.
        if self.stats.cleansings > 0 {
            writeln!(w, "cleansings:    {}", self.stats.cleansings)?;
        }
        // Only searches with a propagator (`--propagate`) remove options
        // by reasoning; said when they did.
        if self.stats.propagated > 0 {
            writeln!(w, "propagated:    {}", self.stats.propagated)?;
        }
        // Only SAT answers learn; said when one did.
        if self.learning > 0 {
            writeln!(
                w,
                "learnt:        {} clauses from conflicts, on {} of the instances",
                self.learnt, self.learning
            )?;
        }
        Ok(())
    }

    /// Reports something worth knowing about the input that is not wrong
    /// with it: `cover: FILE:LINE: warning: message`. The exit status does
    /// not change.
    pub fn warning(&mut self, file: &str, line: usize, message: impl std::fmt::Display) {
        output::error(format_args!("{file}:{line}: warning: {message}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argument_is_text_only_where_no_file_has_its_name() {
        let dir = std::env::temp_dir().join(format!("cover-or-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let named = dir.join("1234");
        let text = |input: &Input| {
            let mut read = String::new();
            input.open().unwrap().read_to_string(&mut read).unwrap();
            read
        };
        let as_text = Input::new(&named).or_text(|_| true);
        assert_eq!(as_text.name(), "<argument>");
        assert_eq!(text(&as_text), format!("{}\n", named.display()));
        std::fs::write(&named, "from the file\n").unwrap();
        let as_file = Input::new(&named).or_text(|_| true);
        assert_eq!(as_file.name(), named.display().to_string());
        assert_eq!(text(&as_file), "from the file\n");
        // Not text by the command's rule, or standard input: unchanged.
        std::fs::remove_file(&named).unwrap();
        assert_eq!(
            Input::new(&named).or_text(|_| false).name(),
            named.display().to_string()
        );
        assert_eq!(
            Input::new(Path::new("-")).or_text(|_| true).name(),
            "<stdin>"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn counts_are_read_with_messages_in_words() {
        assert_eq!(parse_positive("7"), Ok(7));
        assert_eq!(parse_positive("+7"), Ok(7));
        assert_eq!(parse_positive("0"), Err("must be at least 1".to_owned()));
        assert_eq!(
            parse_positive("-2"),
            Err("must be at least 1, not negative".to_owned())
        );
        for bad in ["", "x", "1.5", "1e3", " 3"] {
            assert_eq!(
                parse_positive(bad),
                Err("expected a whole number, 1 or more".to_owned()),
                "{bad:?}"
            );
        }
        assert_eq!(
            parse_count("1801", 1800, "the largest board"),
            Err("is more than 1800, the largest board".to_owned())
        );
        assert!(parse_positive("18446744073709551616")
            .unwrap_err()
            .starts_with("is more than 18446744073709551615"));
        assert_eq!(parse_nonzero("3").map(NonZeroUsize::get), Ok(3));
    }

    #[test]
    fn the_worst_status_wins() {
        let mut session = Session::new();
        assert_eq!(session.status.code(), 0);
        session.answered(false, Stats::default());
        assert_eq!(session.status.code(), 1);
        session.fail(Status::Failed);
        session.answered(true, Stats::default());
        assert_eq!(session.status.code(), 2);
    }

    #[test]
    fn summary_names_every_counter() {
        let mut session = Session::new();
        let stats = {
            let mut stats = Stats::default();
            stats.nodes = 7;
            stats.updates = 49;
            stats.solutions = 2;
            stats.cleansings = 0;
            stats.propagated = 0;
            stats
        };
        session.answered(true, stats);
        session.answered(false, stats);
        let mut text = Vec::new();
        session.write_summary(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("instances:     2 (2 answered: 1 solved, 1 without solution"));
        assert!(text.contains("search nodes:  14"));
        assert!(text.contains("updates:       98"));
        assert!(text.contains("instances/s"));
        // Given-up searches are named once there are some, and make the
        // exit status 1.
        assert!(!text.contains("given up"));
        assert_eq!(session.status, Status::NoSolution);
        session.gave_up(stats);
        let mut text = Vec::new();
        session.write_summary(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains(
                "instances:     3 (2 answered: 1 solved, 1 without solution; 1 given up;"
            ),
            "{text}"
        );
        assert!(text.contains("search nodes:  21"));
    }

    #[test]
    fn seconds_are_positive_and_finite() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_seconds("1e-3"), Ok(Duration::from_millis(1)));
        for bad in ["0", "-1", "-0", "NaN", "inf", "", "1s", "1e300"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn jobs_are_capped_by_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        assert_eq!(threads(None), cores);
        assert_eq!(threads(NonZeroUsize::new(1)), 1);
        assert_eq!(threads(NonZeroUsize::new(1_000_000)), JOBS_PER_CORE * cores);
    }

    #[test]
    fn no_files_means_standard_input() {
        let inputs = Inputs::default();
        let names: Vec<String> = inputs.iter().map(|i| i.name().to_owned()).collect();
        assert_eq!(names, ["<stdin>"]);
        let inputs = Inputs {
            files: vec!["a.txt".into(), "-".into()],
        };
        let names: Vec<String> = inputs.iter().map(|i| i.name().to_owned()).collect();
        assert_eq!(names, ["a.txt", "<stdin>"]);
    }
}
