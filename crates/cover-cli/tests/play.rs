//! End-to-end tests of `cover play` as a process: it prints its URL,
//! serves the page and the API there, stops cleanly on Ctrl-C (SIGINT),
//! and says what is wrong when it cannot listen. (The page and the API
//! themselves are tested in `crates/cover-play/tests`.)

mod support;

use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cover_play::client::request;
use support::cover;

const TIMEOUT: Duration = Duration::from_secs(30);

/// Starts `cover play` with `args` and reads the address it prints.
fn serve(args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cover"))
        .arg("play")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cover runs");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    (child, addr)
}

/// Sends SIGINT (what Ctrl-C sends) and waits for the exit status.
fn interrupt(mut child: Child) -> (i32, String) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            return (status.code().expect("an exit, not a signal"), stderr);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("cover play did not stop on SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn serves_on_loopback_and_stops_cleanly_on_ctrl_c() {
    let (child, addr) = serve(&["--port", "0", "--no-open"]);
    assert!(addr.ip().is_loopback(), "binds loopback by default: {addr}");
    let page = request(addr, "GET", "/", None, TIMEOUT).unwrap();
    assert_eq!(page.status, 200);
    assert!(String::from_utf8_lossy(&page.body).contains("<div id=\"board\""));
    let body = br#"{"size": 4, "difficulty": "easy", "seed": 1}"#;
    let game = request(addr, "POST", "/api/new", Some(body), TIMEOUT).unwrap();
    assert_eq!(game.status, 200);
    assert_eq!(game.json().unwrap()["puzzle"].as_array().unwrap().len(), 16);
    let (code, stderr) = interrupt(child);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        request(addr, "GET", "/", None, Duration::from_secs(2)).is_err(),
        "the port is closed after Ctrl-C"
    );
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (stdout, stderr, code) = cover(&["play", "--port", &port, "--no-open"], b"");
    assert_eq!(code, 2, "stdout: {stdout} stderr: {stderr}");
    assert!(
        stderr.contains(&format!("cannot serve on 127.0.0.1:{port}")),
        "{stderr}"
    );
}

#[test]
fn another_address_is_warned_about() {
    // 192.0.2.1 is TEST-NET-1: never this machine's, so nothing listens,
    // and the warning still comes first.
    let (_, stderr, code) = cover(
        &["play", "--bind", "192.0.2.1", "--port", "0", "--no-open"],
        b"",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("warning: listening on 192.0.2.1: other machines can reach the game"),
        "{stderr}"
    );
    assert!(stderr.contains("cannot serve on 192.0.2.1:0"), "{stderr}");
}
