//! What every test binary of the `cover` binary shares: running it, and
//! small files and JSON helpers. Each test file includes it with
//! `mod support;`.
#![allow(dead_code)] // Not every test binary uses every helper.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs `cover` with `args` and `stdin`; returns (stdout, stderr, exit code).
pub fn cover(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cover"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cover runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Write from another thread so a large output cannot block the input.
    let writer = std::thread::spawn(move || {
        // The binary may not read its input at all (e.g. `--help`).
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "cover panicked: {stderr}");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr,
        output.status.code().expect("cover exits, not killed"),
    )
}

/// Writes `contents` to a file of the tests' own temporary directory.
pub fn file(name: &str, contents: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The JSON objects of `stdout`, one per line.
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}
