//! Running one `cover` process for the fuzzer: standard input fed from memory, both outputs
//! captured up to a cap, a wall-clock limit, a ceiling on the address space, and the peak resident
//! set measured by `wait4(2)`. One thread does it all with `poll(2)`, so that no pipe fills and
//! blocks the child. A forked child's peak includes the fuzzer's size at the fork, so
//! [`keep_own_memory_small`] keeps that small (details in `docs/notes/fuzz.md`).

use std::ffi::OsString;
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
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
        .env("RUST_BACKTRACE", "0");
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

    let mut input = child.stdin.take();
    // Both as plain files, so that one type reads either.
    let capture = |pipe: Option<OwnedFd>| Capture {
        pipe: pipe.map(File::from),
        bytes: Vec::new(),
        cap: limits.capture,
        cut: false,
    };
    let mut outputs = [
        capture(child.stdout.take().map(OwnedFd::from)),
        capture(child.stderr.take().map(OwnedFd::from)),
    ];
    if stdin.is_empty() {
        input = None;
    }
    for fd in input.iter().map(AsRawFd::as_raw_fd).chain(
        outputs
            .iter()
            .filter_map(|o| o.pipe.as_ref().map(AsRawFd::as_raw_fd)),
    ) {
        set_nonblocking(fd);
    }

    let mut written = 0;
    let mut timed_out = false;
    loop {
        let now = Instant::now();
        if now >= deadline {
            timed_out = true;
            break;
        }
        // Standard input first, then the outputs still open.
        let mut fds: Vec<libc::pollfd> = Vec::with_capacity(3);
        if let Some(pipe) = &input {
            fds.push(pollfd(pipe.as_raw_fd(), libc::POLLOUT));
        }
        for output in &outputs {
            if let Some(pipe) = &output.pipe {
                fds.push(pollfd(pipe.as_raw_fd(), libc::POLLIN));
            }
        }
        if fds.is_empty() {
            break;
        }
        let wait_ms = (deadline - now).as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd structs.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, wait_ms) };
        if ready < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == ErrorKind::Interrupted {
                continue;
            }
            // Do not leave the child behind.
            kill_and_reap(pid);
            return Err(error).context("poll");
        }
        let mut slot = 0;
        if let Some(pipe) = &mut input {
            if fds[slot].revents != 0 {
                match pipe.write(&stdin[written..]) {
                    Ok(n) => written += n,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    // EPIPE and the like: the child closed its input, which it may (an `end` line,
                    // an error).
                    Err(_) => written = stdin.len(),
                }
                if written == stdin.len() {
                    // Closing it is the end of the input for the child.
                    input = None;
                }
            }
            slot += 1;
        }
        for output in &mut outputs {
            if output.pipe.is_some() {
                if fds[slot].revents != 0 {
                    output.read_some();
                }
                slot += 1;
            }
        }
    }
    drop(input);

    // Both outputs are closed: the child has (almost always) exited. A child that closed them and
    // went on running is still given until the deadline.
    let mut reaped = None;
    if !timed_out {
        loop {
            if let Some(done) = reap(pid, libc::WNOHANG) {
                reaped = Some(done);
                break;
            }
            if Instant::now() >= deadline {
                timed_out = true;
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }
    let (status, usage) = match reaped {
        Some(done) => done,
        None => {
            // Not reaped yet, so the pid is still this child's: killing
            // it cannot hit another process.
            // SAFETY: plain syscall on our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            reap(pid, 0).context("wait4")?
        }
    };
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
    let [stdout, stderr] = outputs;
    Ok(Outcome {
        end,
        stdout_cut: stdout.cut,
        stdout: stdout.bytes,
        stderr_cut: stderr.cut,
        stderr: stderr.bytes,
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

/// One output of the child, read as it comes.
struct Capture {
    /// `None` once it reached its end.
    pipe: Option<File>,
    bytes: Vec<u8>,
    cap: usize,
    /// Bytes were dropped past the cap.
    cut: bool,
}

impl Capture {
    /// Reads what is there; closes the pipe at its end.
    fn read_some(&mut self) {
        let Some(pipe) = &mut self.pipe else {
            return;
        };
        let mut buffer = [0u8; 64 << 10];
        loop {
            match pipe.read(&mut buffer) {
                Ok(0) => {
                    self.pipe = None;
                    return;
                }
                Ok(n) => {
                    let room = self.cap.saturating_sub(self.bytes.len());
                    if n > room {
                        self.cut = true;
                    }
                    self.bytes.extend_from_slice(&buffer[..n.min(room)]);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.pipe = None;
                    return;
                }
            }
        }
    }
}

fn pollfd(fd: libc::c_int, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

fn set_nonblocking(fd: libc::c_int) {
    // SAFETY: fcntl on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
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

/// Kills and reaps a child after an error of our own.
fn kill_and_reap(pid: libc::pid_t) {
    // SAFETY: our own child, not yet reaped.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let _ = reap(pid, 0);
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
