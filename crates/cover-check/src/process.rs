//! Runs the `cover` binary (or any program) as a user does: arguments,
//! bytes on standard input, both output streams captured, the exit code,
//! the time from start to exit, and a time limit past which it is killed.
//!
//! It knows no command of `cover` and judges no output.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// What one run printed and how it ended.
#[derive(Debug, Clone)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// From the start to the end of the process.
    pub elapsed: Duration,
}

/// Runs `bin` with `args`, writes `stdin`, captures both streams, kills it
/// past `timeout` (Err then).
pub fn run(bin: &Path, args: &[&str], stdin: &[u8], timeout: Duration) -> Result<Run, String> {
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running {}: {e}", bin.display()))?;
    // Each stream on its own thread, so that a program that prints as it
    // reads cannot block on a full pipe; a closed stdin is no error (the
    // program may not read it all).
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let stdin = stdin.to_vec();
    let writer = thread::spawn(move || drop(input.write_all(&stdin)));
    let (sender, ends) = mpsc::channel();
    let readers = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .map(|stream| {
        let (sender, mut stream) = (sender.clone(), stream.expect("piped"));
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stream.read_to_end(&mut bytes);
            let _ = sender.send(());
            bytes
        })
    });
    // Both streams close when the process ends (or closes them): wait for
    // that without polling, then for the exit itself.
    let deadline = start + timeout;
    let mut status = None;
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        if ends.recv_timeout(left).is_err() {
            break;
        }
    }
    while Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(done)) => {
                status = Some(done);
                break;
            }
            Ok(None) => thread::sleep(Duration::from_micros(100)),
            Err(e) => return Err(format!("waiting for {}: {e}", bin.display())),
        }
    }
    let elapsed = start.elapsed();
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("{} ran past {timeout:?}", bin.display()));
    };
    let _ = writer.join();
    let [stdout, stderr] = readers.map(|r| r.join().unwrap_or_default());
    Ok(Run {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        code: status.code(),
        elapsed,
    })
}

/// `cargo build --release -p cover-cli` in `workspace_root` (with `$CARGO`
/// when set); the path of the `cover` binary.
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
        return Err("`cargo build --release -p cover-cli` failed".into());
    }
    // Cargo's messages, one JSON object a line; the artifact of the target
    // `cover` names its executable.
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| {
            line.contains(r#""reason":"compiler-artifact""#) && line.contains(r#""name":"cover""#)
        })
        .find_map(|line| json_string_field(line, "executable"))
        .map(PathBuf::from)
        .ok_or_else(|| "cargo built no `cover` executable".into())
}

/// The string value of `"key":"…"` in one line of JSON, unescaped.
fn json_string_field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut value = String::new();
    let mut chars = line[start..].chars();
    loop {
        match chars.next()? {
            '"' => return Some(value),
            '\\' => match chars.next()? {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    value.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => value.push(other),
            },
            c => value.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_string_field_of_cargos_messages() {
        let line =
            r#"{"reason":"compiler-artifact","executable":"/t/re\"l\\cover\u00e9","fresh":true}"#;
        assert_eq!(
            json_string_field(line, "executable").as_deref(),
            Some("/t/re\"l\\cover\u{e9}")
        );
        assert_eq!(json_string_field(line, "missing"), None);
        assert_eq!(
            json_string_field(r#"{"executable":"cut"#, "executable"),
            None
        );
    }

    #[test]
    fn captures_streams_and_the_exit_code_and_kills_past_the_limit() {
        let sh = Path::new("/bin/sh");
        if !sh.exists() {
            return;
        }
        let script = "cat; echo oops >&2; exit 3";
        let run = run(sh, &["-c", script], b"hello\n", Duration::from_secs(10)).unwrap();
        assert_eq!(
            (run.stdout.as_str(), run.stderr.as_str()),
            ("hello\n", "oops\n")
        );
        assert_eq!(run.code, Some(3));
        let error = super::run(sh, &["-c", "sleep 5"], b"", Duration::from_millis(100));
        assert!(error.unwrap_err().contains("ran past"));
    }
}
