//! Running one `cover` process for the fuzzer: standard input fed from memory, both outputs
//! captured up to a cap, a wall-clock limit, a ceiling on the address space, and the peak resident
//! set measured by `wait4(2)`. A forked child's peak includes the fuzzer's size at the fork, so
//! [`keep_own_memory_small`] keeps that small (details in `docs/measurements.md`).

use std::ffi::OsString;
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// What to run a child under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Killed (and a hang) after this long.
    pub timeout: Duration,
    /// `RLIMIT_AS`: an allocation past it fails (and `cover` aborts).
    pub address_space: u64,
    /// At most this many bytes of each output are kept; the rest is read and dropped.
    pub capture: usize,
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it (SIGABRT for `panic = "abort"` and failed allocations, SIGSEGV, ...).
    Signaled(i32),
    /// It ran past the time limit and was killed.
    TimedOut,
}

/// One run of the binary.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub end: End,
    /// Standard output, up to [`Limits::capture`] bytes.
    pub stdout: Vec<u8>,
    /// Whether standard output was longer than what was kept.
    pub stdout_cut: bool,
    /// Standard error, up to [`Limits::capture`] bytes.
    pub stderr: Vec<u8>,
    /// Whether standard error was longer than what was kept.
    pub stderr_cut: bool,
    /// The child's peak resident set size, KiB (`ru_maxrss` on Linux).
    pub peak_rss_kib: u64,
    /// Wall-clock time from spawn to reaping.
    pub elapsed: Duration,
}

/// Runs `bin ARGS` in `dir` with `stdin` as its standard input.
pub fn run(
    bin: &Path,
    args: &[OsString],
    dir: &Path,
    stdin: &[u8],
    limits: Limits,
) -> Result<Outcome> {
    let mut command = Command::new(bin);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A panic's backtrace would only slow the run down; its message is what the classifier
        // looks for.
        .env("RUST_BACKTRACE", "0")
        // Its own process group, so that a time-out kills whatever it started too, and the
        // threads reading its pipes reach their end.
        .process_group(0);
    let ceiling = limits.address_space;
    // SAFETY: the hook runs in the forked child before `exec` and only calls `setrlimit`, which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: ceiling as libc::rlim_t,
                rlim_max: ceiling as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let deadline = start + limits.timeout;
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot run {}", bin.display()))?;
    let pid = child.id() as libc::pid_t;
    // An empty input is closed at once: that is the end of the input for the child.
    let input = child.stdin.take().filter(|_| !stdin.is_empty());
    let pipes = [
        child.stdout.take().map(OwnedFd::from),
        child.stderr.take().map(OwnedFd::from),
    ];

    // A thread per pipe, so that no pipe fills up and blocks the child, whatever order it writes
    // in; the readers say when their pipe reached its end.
    let (status, usage, timed_out, [stdout, stderr]) = std::thread::scope(|scope| {
        if let Some(mut pipe) = input {
            // EPIPE and the like: the child closed its input, which it may (an `end` line, an
            // error).
            scope.spawn(move || pipe.write_all(stdin));
        }
        let (closed, closes) = mpsc::channel();
        let readers = pipes.map(|pipe| {
            let closed = closed.clone();
            scope.spawn(move || {
                let captured = pipe.map(|p| capture(File::from(p), limits.capture));
                let _ = closed.send(());
                captured.unwrap_or_default()
            })
        });
        let mut timed_out = (0..2).any(|_| {
            let left = deadline.saturating_duration_since(Instant::now());
            closes.recv_timeout(left).is_err()
        });
        // Both outputs are closed: the child has (almost always) exited. A child that closed them
        // and went on running is still given until the deadline.
        let mut reaped = None;
        while !timed_out && reaped.is_none() {
            reaped = reap(pid, libc::WNOHANG);
            if reaped.is_none() && Instant::now() >= deadline {
                timed_out = true;
            } else if reaped.is_none() {
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        let (status, usage) = match reaped {
            Some(done) => done,
            None => {
                // Not reaped yet, so the pid is still this child's group: killing it cannot hit
                // another process.
                // SAFETY: plain syscall on our own unreaped child's group.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                reap(pid, 0).context("wait4")?
            }
        };
        let outputs = readers.map(|r| r.join().unwrap_or_default());
        anyhow::Ok((status, usage, timed_out, outputs))
    })?;
    let elapsed = start.elapsed();
    // The child is reaped: `Child` must not wait for it again, and its drop does not.
    drop(child);

    let end = if timed_out {
        End::TimedOut
    } else if libc::WIFSIGNALED(status) {
        End::Signaled(libc::WTERMSIG(status))
    } else {
        End::Exited(libc::WEXITSTATUS(status))
    };
    Ok(Outcome {
        end,
        stdout: stdout.0,
        stdout_cut: stdout.1,
        stderr: stderr.0,
        stderr_cut: stderr.1,
        peak_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        elapsed,
    })
}

/// Makes this process give freed megabyte buffers (the long inputs) back to the system at once, so
/// that its size, which every child's peak includes (see above), stays that of the inputs in hand.
/// glibc would otherwise raise its threshold for `mmap` after the first such buffer is freed and
/// keep the later ones in its heap.
pub fn keep_own_memory_small() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
    }
}

/// This process's own peak resident set size, KiB.
pub fn own_peak_rss_kib() -> u64 {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a local.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    u64::try_from(usage.ru_maxrss).unwrap_or(0)
}

/// One output of the child, read to its end: at most `cap` bytes of it, and whether more came.
fn capture(mut pipe: File, cap: usize) -> (Vec<u8>, bool) {
    let mut bytes = Vec::new();
    // A read error ends the output, as its end would.
    let _ = (&mut pipe).take(cap as u64).read_to_end(&mut bytes);
    let cut = std::io::copy(&mut pipe, &mut std::io::sink()).is_ok_and(|rest| rest > 0);
    (bytes, cut)
}

/// `wait4(pid, flags)`: `Some((status, usage))` once the child is reaped, `None` while it runs
/// (with `WNOHANG`) or when waiting failed.
fn reap(pid: libc::pid_t, flags: libc::c_int) -> Option<(libc::c_int, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals; `pid` is our own child.
        let done = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if done == pid {
            return Some((status, usage));
        }
        if done < 0 && std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
            continue;
        }
        return None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            timeout: Duration::from_secs(5),
            address_space: 2 << 30,
            capture: 1 << 20,
        }
    }

    fn sh(script: &str, stdin: &[u8], limits: Limits) -> Outcome {
        let args = vec![OsString::from("-c"), OsString::from(script)];
        run(Path::new("/bin/sh"), &args, Path::new("/"), stdin, limits).unwrap()
    }

    #[test]
    fn feeds_input_and_captures_both_outputs() {
        let input: Vec<u8> = (0..300_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let out = sh("cat; echo oops >&2; exit 3", &input, limits());
        assert_eq!(out.end, End::Exited(3));
        assert_eq!(out.stdout, input);
        assert_eq!(out.stderr, b"oops\n");
        assert!(out.peak_rss_kib > 0);
    }

    #[test]
    fn caps_what_it_keeps() {
        let mut small = limits();
        small.capture = 10;
        let out = sh("yes | head -c 100000", b"", small);
        assert_eq!(out.end, End::Exited(0));
        assert_eq!(out.stdout.len(), 10);
        assert!(out.stdout_cut);
    }

    #[test]
    fn kills_on_timeout_and_reports_signals() {
        let mut short = limits();
        short.timeout = Duration::from_millis(200);
        let out = sh("sleep 10", b"", short);
        assert_eq!(out.end, End::TimedOut);
        assert!(out.elapsed < Duration::from_secs(5));
        let out = sh("kill -SEGV $$", b"", limits());
        assert_eq!(out.end, End::Signaled(libc::SIGSEGV));
    }

    #[test]
    fn a_child_that_ignores_its_input_does_not_block() {
        let input = vec![b'x'; 4 << 20];
        let out = sh("exit 0", &input, limits());
        assert_eq!(out.end, End::Exited(0));
    }
}
