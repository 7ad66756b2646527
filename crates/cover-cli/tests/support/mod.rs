//! What every test binary of the `cover` binary shares: running it (by
//! `cover-check`'s runner), and small files and JSON helpers. Each test
//! file includes it with `mod support;`.
#![allow(dead_code)] // Not every test binary uses every helper.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `cover` with `args` and `stdin`; returns (stdout, stderr, exit code).
pub fn cover(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let bin = Path::new(env!("CARGO_BIN_EXE_cover"));
    let run = cover_check::process::run(bin, args, stdin, Duration::from_secs(600))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !run.stderr.contains("panicked"),
        "cover panicked: {}",
        run.stderr
    );
    let code = run.code.expect("cover exits, not killed");
    (run.stdout, run.stderr, code)
}

/// Runs `cover`, which must exit with 2 (bad input); returns its stderr.
pub fn exit_2(args: &[&str], stdin: &[u8]) -> String {
    let (_, err, code) = cover(args, stdin);
    assert_eq!(code, 2, "{args:?}: {err}");
    err
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

/// Asserts that `text` contains every one of `parts`.
pub fn assert_contains_all(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} in {text}");
    }
}

/// Runs `cover` with the help `args`: exit 0 and every one of `words` in it.
pub fn help_mentions(args: &[&str], words: &[&str]) {
    let (out, _, code) = cover(args, b"");
    assert_eq!(code, 0, "{args:?}");
    assert_contains_all(&out, words);
}

/// Each of `cases` (arguments split at spaces) is a usage error: exit 2,
/// nothing on stdout, a message on stderr.
pub fn assert_usage_errors(cases: &[&str]) {
    for case in cases {
        let args: Vec<&str> = case.split_whitespace().collect();
        let (out, err, code) = cover(&args, b"");
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

/// What `cover ARGS` writes to a terminal (standard output and error
/// together), run under util-linux `script` and stopped by `timeout` after
/// `seconds`; `None` (the test skipped, said on standard error) where
/// `script` is missing, unless COVER_REQUIRE_SCRIPT is set.
pub fn at_a_terminal(args: &str, seconds: u32) -> Option<String> {
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("COVER_REQUIRE_SCRIPT").is_none(),
            "COVER_REQUIRE_SCRIPT is set but `script` (util-linux) is not installed"
        );
        eprintln!("skipped: `script` (util-linux) is not installed");
        return None;
    }
    let command = format!("timeout {seconds} {} {args}", env!("CARGO_BIN_EXE_cover"));
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', "\n"))
}
