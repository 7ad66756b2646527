//! The runner of the `cover` binary: build it, run it with arguments and
//! standard input, capture both streams and the exit status, and stop it
//! past a time limit.
//!
//! It must not judge what the binary printed: that is the checkers' job.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of a binary gave.
#[derive(Debug, Clone)]
pub struct Run {
    /// Standard output (UTF-8, or the run is an `Err`).
    pub stdout: String,
    /// Standard error, with bytes that are not UTF-8 replaced.
    pub stderr: String,
    /// The exit status; `None` when a signal ended the process.
    pub code: Option<i32>,
    /// How long the process ran.
    pub elapsed: Duration,
}

/// Runs `bin` with `args` in the current directory, writes `stdin`,
/// captures both streams, kills it past `timeout` (Err then). Also `Err`
/// when it cannot start or its standard output is not UTF-8.
pub fn run(bin: &Path, args: &[&str], stdin: &[u8], timeout: Duration) -> Result<Run, String> {
    let command = describe(bin, args);
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{command}`: {e}"))?;
    let start = Instant::now();
    // Write and read from other threads, so that a large output cannot
    // block the input nor the other way round.
    let input = stdin.to_vec();
    let mut pipe = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(pipe) = pipe.as_mut() {
            // The binary may not read its input at all (e.g. `--help`).
            let _ = pipe.write_all(&input);
        }
    });
    let readers = [
        spawn_reader(child.stdout.take()),
        spawn_reader(child.stderr.take()),
    ];
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "`{command}` gave no answer within {} s",
                    timeout.as_secs_f64()
                ));
            }
            // Fine-grained, because the benchmarks time short runs with it.
            Ok(None) => std::thread::sleep(Duration::from_micros(100)),
            Err(e) => break Err(format!("waiting for `{command}`: {e}")),
        }
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    let [stdout, stderr] = readers.map(|r| r.join().unwrap_or_default());
    let status = status?;
    let stdout = String::from_utf8(stdout)
        .map_err(|_| format!("`{command}` wrote standard output that is not UTF-8"))?;
    Ok(Run {
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        code: status.code(),
        elapsed,
    })
}

/// The command line as messages name it: `cover exact --count FILE`.
pub fn describe(bin: &Path, args: &[&str]) -> String {
    let name = bin.file_name().map_or_else(
        || bin.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    std::iter::once(name.as_str())
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

fn spawn_reader<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// `cargo build --release -p cover-cli` in `workspace_root` (with `$CARGO`
/// when set); the path of the `cover` binary that cargo reports.
pub fn build_release(workspace_root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "-p",
            "cover-cli",
            "--message-format=json-render-diagnostics",
        ])
        .current_dir(workspace_root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("running {}: {e}", Path::new(&cargo).display()))?;
    if !output.status.success() {
        return Err("`cargo build --release -p cover-cli` failed".to_owned());
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact" && message["target"]["name"] == "cover" {
            if let Some(path) = message["executable"].as_str() {
                return Ok(PathBuf::from(path));
            }
        }
    }
    Err("cargo built no `cover` executable".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_captures_streams_status_and_input() {
        let sh = Path::new("/bin/sh");
        let script = "cat; echo err >&2; exit 3";
        let run = run(sh, &["-c", script], b"hello\n", Duration::from_secs(10)).unwrap();
        assert_eq!(run.stdout, "hello\n");
        assert_eq!(run.stderr, "err\n");
        assert_eq!(run.code, Some(3));
    }

    #[test]
    fn a_run_past_its_time_is_an_error() {
        let sh = Path::new("/bin/sh");
        let result = run(sh, &["-c", "exec sleep 5"], b"", Duration::from_millis(100));
        assert!(result.unwrap_err().contains("no answer within"));
        let missing = run(
            Path::new("/no/such/binary"),
            &[],
            b"",
            Duration::from_secs(1),
        );
        assert!(missing.unwrap_err().contains("cannot run"));
    }
}
