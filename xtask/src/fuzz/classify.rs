//! Deciding whether one run of `cover` failed, and how: a crash or hang, memory past the cap, or a
//! broken promise of the interface that holds for every input (see [`Kind`]).

use super::exec::{End, Outcome};

/// What kind of failure; with the command, the signature under which failures are reported once and
/// counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Ran past the time limit.
    Timeout,
    /// Ended by a signal (the number).
    Signal(i32),
    /// An allocation failed at the address-space ceiling (and `cover` aborted): memory without
    /// bound.
    AllocationFailed,
    /// A panic's message on standard error.
    Panic,
    /// Exited with a status other than 0, 1 or 2.
    Status(i32),
    /// The peak resident set size passed the cap.
    Memory,
    /// Exit status 2 with nothing on standard error.
    SilentError,
    /// A line of standard error that is no diagnostic.
    StderrFormat,
    /// A line of standard output that is not JSON, with `--json`.
    BadJson,
    /// Exit status 0 with nothing on standard output, from a command that always has an instance to
    /// answer.
    NoAnswer,
    /// An answer that cover-check's oracle refutes (see `answers.rs`).
    WrongAnswer,
}

impl Kind {
    /// A short name, for the report and the files.
    pub fn label(self) -> String {
        match self {
            Kind::Timeout => "timeout".into(),
            Kind::Signal(n) => format!("signal {n} ({})", signal_name(n)),
            Kind::AllocationFailed => "allocation failed (address-space ceiling)".into(),
            Kind::Panic => "panic".into(),
            Kind::Status(n) => format!("exit status {n}"),
            Kind::Memory => "memory over the cap".into(),
            Kind::SilentError => "exit 2 without a message".into(),
            Kind::StderrFormat => "stderr line not a diagnostic".into(),
            Kind::BadJson => "stdout line not JSON".into(),
            Kind::NoAnswer => "exit 0 without an answer".into(),
            Kind::WrongAnswer => "wrong answer".into(),
        }
    }
}

/// A failed run: its kind and what shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: Kind,
    /// One line: the status, the offending line, the peak memory.
    pub detail: String,
}

/// What the classifier must know of the invocation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expect {
    /// `--json` was given: standard output is JSON lines.
    pub json: bool,
    /// `--stats` was given: its summary lines are on standard error.
    pub stats: bool,
    /// The memory cap, KiB.
    pub mem_cap_kib: u64,
    /// The command always has an instance: exit 0 needs an answer.
    pub answers: bool,
}

/// `Some(failure)` when the run failed; the first finding of the order below (the crashes first, as
/// they explain the rest).
pub fn classify(out: &Outcome, expect: Expect) -> Option<Failure> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", clip(l, 200)))
        .unwrap_or_default();
    let rss = format!("peak RSS {} MiB", out.peak_rss_kib / 1024);
    let fail = |kind, detail: String| Some(Failure { kind, detail });
    let status = match out.end {
        End::TimedOut => {
            let seconds = out.elapsed.as_secs_f64();
            return fail(Kind::Timeout, format!("killed after {seconds:.1} s, {rss}"));
        }
        End::Signaled(n) => {
            // Rust's allocation failure message, then abort.
            let kind = if stderr.contains("memory allocation of") {
                Kind::AllocationFailed
            } else {
                Kind::Signal(n)
            };
            return fail(kind, format!("signal {n}, {rss}{first}"));
        }
        End::Exited(status) => status,
    };
    let panic = |l: &&str| l.contains("panicked") || l.contains("RUST_BACKTRACE");
    if let Some(line) = stderr.lines().find(panic) {
        return fail(Kind::Panic, format!("exit {status}: {}", clip(line, 300)));
    }
    if !(0..=2).contains(&status) {
        return fail(Kind::Status(status), format!("exit {status}{first}"));
    }
    if out.peak_rss_kib > expect.mem_cap_kib {
        let cap = expect.mem_cap_kib / 1024;
        return fail(
            Kind::Memory,
            format!("{rss} > cap {cap} MiB, exit {status}{first}"),
        );
    }
    if status == 2 && stderr.trim().is_empty() {
        return fail(Kind::SilentError, "exit 2, empty stderr".into());
    }
    if status == 0 && expect.answers && out.stdout.is_empty() {
        return fail(Kind::NoAnswer, format!("exit 0, empty stdout{first}"));
    }
    // clap's usage errors start with `error:` and span several lines.
    let usage_error = status == 2 && stderr.starts_with("error:");
    if !usage_error {
        let lines: Vec<&str> = stderr.lines().collect();
        // A line cut by the capture cap is not judged.
        let judged = lines.len().saturating_sub(usize::from(out.stderr_cut));
        if let Some(line) = lines[..judged]
            .iter()
            .find(|l| !is_diagnostic(l, expect.stats))
        {
            let line = clip(line, 200);
            return fail(
                Kind::StderrFormat,
                format!("exit {status}, stderr line {line:?}"),
            );
        }
    }
    if expect.json {
        let lines: Vec<&[u8]> = out.stdout.split(|&b| b == b'\n').collect();
        // The piece after the last newline is empty, or cut by the cap.
        let tail_is_cut = out.stdout_cut || lines.last().is_some_and(|l| l.is_empty());
        let judged = lines.len().saturating_sub(usize::from(tail_is_cut));
        let is_json = |l: &[u8]| serde_json::from_slice::<serde_json::Value>(l).is_ok();
        if let Some(line) = lines[..judged].iter().find(|l| !is_json(l)) {
            let line = clip(&String::from_utf8_lossy(line), 200);
            return fail(
                Kind::BadJson,
                format!("exit {status}, stdout line {line:?}"),
            );
        }
    }
    None
}

/// A line `cover` may write to standard error: a diagnostic, or with `--stats` a line of the
/// summary (`search nodes:  37`).
fn is_diagnostic(line: &str, stats: bool) -> bool {
    if line.starts_with("cover: ") {
        return true;
    }
    stats
        && line.split_once(':').is_some_and(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b' ')
        })
}

/// `text` cut to `max` characters.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

fn signal_name(n: i32) -> &'static str {
    match n {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn outcome(end: End, stdout: &str, stderr: &str) -> Outcome {
        Outcome {
            end,
            stdout: stdout.as_bytes().to_vec(),
            stdout_cut: false,
            stderr: stderr.as_bytes().to_vec(),
            stderr_cut: false,
            peak_rss_kib: 4096,
            elapsed: Duration::from_millis(3),
        }
    }

    fn expect() -> Expect {
        Expect {
            json: false,
            stats: false,
            mem_cap_kib: 100 << 10,
            answers: false,
        }
    }

    fn kind(out: &Outcome, expect: Expect) -> Option<Kind> {
        classify(out, expect).map(|f| f.kind)
    }

    #[test]
    fn crashes_and_hangs_are_failures() {
        let e = expect();
        assert_eq!(
            kind(&outcome(End::Signaled(6), "", ""), e),
            Some(Kind::Signal(6))
        );
        assert_eq!(
            kind(
                &outcome(
                    End::Signaled(6),
                    "",
                    "memory allocation of 8 bytes failed\n"
                ),
                e
            ),
            Some(Kind::AllocationFailed)
        );
        assert_eq!(
            kind(&outcome(End::Exited(101), "", ""), e),
            Some(Kind::Status(101))
        );
        let panic = "thread 'main' panicked at src/main.rs:1:1:\nboom\n";
        assert_eq!(
            kind(&outcome(End::Exited(0), "", panic), e),
            Some(Kind::Panic)
        );
        assert_eq!(
            kind(&outcome(End::Exited(101), "", panic), e),
            Some(Kind::Panic)
        );
        assert_eq!(
            kind(&outcome(End::TimedOut, "", ""), e),
            Some(Kind::Timeout)
        );
        let mut big = outcome(End::Exited(0), "", "");
        big.peak_rss_kib = 200 << 10;
        assert_eq!(kind(&big, e), Some(Kind::Memory));
    }

    #[test]
    fn clean_runs_are_not_failures() {
        let e = expect();
        for status in 0..=2 {
            let out = outcome(End::Exited(status), "1 2 3\n", "cover: <stdin>:3: bad\n");
            assert_eq!(kind(&out, e), None, "status {status}");
        }
        assert_eq!(kind(&outcome(End::Exited(0), "x\n", ""), e), None);
        assert_eq!(kind(&outcome(End::Exited(1), "", ""), e), None);
        let usage = "error: unexpected argument '--x' found\n\nUsage: cover sudoku\n\nFor more information, try '--help'.\n";
        assert_eq!(kind(&outcome(End::Exited(2), "", usage), e), None);
        let json = Expect { json: true, ..e };
        let lines = "{\"a\":1}\n{\"b\":[2]}\n";
        assert_eq!(kind(&outcome(End::Exited(0), lines, ""), json), None);
        let stats = Expect { stats: true, ..e };
        let summary = "instances:     4 (4 answered)\nsearch nodes:  37\n";
        assert_eq!(kind(&outcome(End::Exited(0), "", summary), stats), None);
    }

    #[test]
    fn broken_promises_are_failures() {
        let e = expect();
        assert_eq!(
            kind(&outcome(End::Exited(2), "", ""), e),
            Some(Kind::SilentError)
        );
        assert_eq!(
            kind(&outcome(End::Exited(1), "", "warning: odd\n"), e),
            Some(Kind::StderrFormat)
        );
        // The summary is allowed only with --stats.
        assert_eq!(
            kind(&outcome(End::Exited(0), "", "search nodes:  37\n"), e),
            Some(Kind::StderrFormat)
        );
        let answers = Expect { answers: true, ..e };
        assert_eq!(
            kind(&outcome(End::Exited(0), "", ""), answers),
            Some(Kind::NoAnswer)
        );
        assert_eq!(kind(&outcome(End::Exited(0), "\n", ""), answers), None);
        assert_eq!(kind(&outcome(End::Exited(1), "", ""), answers), None);
        let json = Expect { json: true, ..e };
        assert_eq!(
            kind(
                &outcome(End::Exited(0), "{\"a\":1}\nno solution\n", ""),
                json
            ),
            Some(Kind::BadJson)
        );
        assert_eq!(
            kind(&outcome(End::Exited(0), "{\"a\":1}\n{\"b\"", ""), json),
            Some(Kind::BadJson)
        );
        // But a line cut by the capture cap is not judged.
        let mut cut = outcome(End::Exited(0), "{\"a\":1}\n{\"b\"", "");
        cut.stdout_cut = true;
        assert_eq!(kind(&cut, json), None);
    }
}
