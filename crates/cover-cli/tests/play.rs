//! End-to-end tests of `cover play` as a process: it prints its URL,
//! serves the page and the API there, stops cleanly on Ctrl-C (SIGINT),
//! and says what is wrong when it cannot listen; and the bounds that
//! hold against hostile clients, measured on the process (its threads,
//! CPU time and memory from `/proc`, and how soon it answers and stops).
//! (The page, the API and each refusal are tested in
//! `crates/cover-play/tests`.)

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cover_play::client::{exchange, request};
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
fn interrupt(child: Child) -> (i32, String) {
    let (code, stderr, _) = interrupt_timed(child);
    (code, stderr)
}

/// [`interrupt`], and the time from the signal to the exit.
fn interrupt_timed(mut child: Child) -> (i32, String, Duration) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let sent = Instant::now();
    let deadline = sent + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let took = sent.elapsed();
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            return (status.code().expect("an exit, not a signal"), stderr, took);
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
    // Other sites are refused: by name (DNS rebinding), and their pages'
    // plain-text POSTs.
    let foreign = "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
    let refused = exchange(addr, foreign.as_bytes(), TIMEOUT).unwrap();
    assert_eq!(refused.status, 421);
    let plain = post_message(addr, "/api/new", "text/plain", body);
    assert_eq!(exchange(addr, &plain, TIMEOUT).unwrap().status, 415);
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

/// The tests below load the machine: one at a time, so that each
/// measures its own server.
static LOAD: Mutex<()> = Mutex::new(());

fn load() -> std::sync::MutexGuard<'static, ()> {
    LOAD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A whole request: `POST path`, `body` sent as `content_type`.
fn post_message(addr: SocketAddr, path: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut message = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    message.extend_from_slice(body);
    message
}

/// A solve of a 25×25 puzzle whose search takes seconds and ends at the
/// server's node budget: Gecode's puzzle of `fixtures/`, its first row
/// emptied.
fn hard_solve(addr: SocketAddr) -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/sudoku/line_25x25_gecode.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    let mut cells: Vec<usize> = line
        .chars()
        .map(|c| symbols.find(c).map_or(0, |d| d + 1))
        .collect();
    cells[..25].fill(0);
    let body = serde_json::json!({ "puzzle": cells }).to_string();
    post_message(addr, "/api/solve", "application/json", body.as_bytes())
}

/// A 9×9 solve (POJ 3074's sample), on a connection of its own.
fn easy_solve(addr: SocketAddr) -> Vec<u8> {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let cells: Vec<u32> = puzzle
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0))
        .collect();
    let body = serde_json::json!({ "puzzle": cells }).to_string();
    let mut message = post_message(addr, "/api/solve", "application/json", body.as_bytes());
    // Ask the server to close after the answer, so the read ends there.
    let at = message.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    message.splice(at + 2..at + 2, b"Connection: close\r\n".iter().copied());
    message
}

/// `count` connections that each sent `message` and wait.
fn hold(addr: SocketAddr, message: &[u8], count: usize) -> Vec<TcpStream> {
    (0..count)
        .filter_map(|_| {
            let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT).ok()?;
            stream.set_write_timeout(Some(TIMEOUT)).ok()?;
            // A connection the server closed to make room fails here.
            let _ = stream.write_all(message);
            Some(stream)
        })
        .collect()
}

/// What `/proc` says of a process (Linux).
#[cfg(target_os = "linux")]
mod proc {
    use std::time::Duration;

    /// A number of `/proc/PID/status` (`Threads`, or `VmRSS` and `VmHWM`
    /// in KiB).
    pub fn status(pid: u32, field: &str) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        text.lines()
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|value| value.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
    }

    /// The CPU time the process has used, user and system.
    pub fn cpu(pid: u32) -> Duration {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // The fields after the command's name (in parentheses, maybe
        // with spaces) begin with the 3rd; utime is the 14th, stime the
        // 15th.
        let after = &text[text.rfind(')').unwrap() + 1..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: u64 =
            fields[14 - 3].parse::<u64>().unwrap() + fields[15 - 3].parse::<u64>().unwrap();
        // Clock ticks of USER_HZ, which Linux fixes at 100 for user space.
        Duration::from_millis(ticks * 10)
    }
}

/// Waits (at most `TIMEOUT`) until the server has used `more` CPU time
/// than `since`: its searches run.
#[cfg(target_os = "linux")]
fn wait_for_cpu(pid: u32, since: Duration, more: Duration) {
    let deadline = Instant::now() + TIMEOUT;
    while proc::cpu(pid) < since + more {
        assert!(Instant::now() < deadline, "the searches never ran");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
#[cfg(target_os = "linux")]
fn searches_whose_clients_left_stop_and_leave_no_thread_behind() {
    let _load = load();
    let (child, addr) = serve(&["--port", "0", "--no-open"]);
    let pid = child.id();
    assert_eq!(
        exchange(addr, &easy_solve(addr), TIMEOUT).unwrap().status,
        200
    );
    let threads = proc::status(pid, "Threads");
    // Forty clients ask for a search of seconds each, and leave after
    // 50 ms (the searches have begun).
    let before = proc::cpu(pid);
    let clients = hold(addr, &hard_solve(addr), 40);
    assert_eq!(clients.len(), 40);
    wait_for_cpu(pid, before, Duration::from_millis(50));
    std::thread::sleep(Duration::from_millis(50));
    drop(clients);
    let left = Instant::now();
    // Within 2 s the server is as it was: no thread more, and no search
    // running (under a quarter of a core over the second after that;
    // two searches left running would take two cores).
    std::thread::sleep(Duration::from_secs(2).saturating_sub(left.elapsed()));
    let threads_after = proc::status(pid, "Threads");
    assert!(
        threads_after <= threads,
        "{threads} threads, then {threads_after}"
    );
    let idle_from = proc::cpu(pid);
    std::thread::sleep(Duration::from_secs(1));
    let busy = proc::cpu(pid) - idle_from;
    eprintln!(
        "40 searches left: {threads} threads before, {threads_after} 2 s after; \
         {busy:?} of CPU time in the second after that"
    );
    assert!(
        busy <= Duration::from_millis(250),
        "{busy:?} of CPU time in a second after the clients left"
    );
    assert_eq!(
        exchange(addr, &easy_solve(addr), TIMEOUT).unwrap().status,
        200
    );
    assert_eq!(interrupt(child).0, 0);
}

#[test]
#[cfg(target_os = "linux")]
fn a_9x9_solve_is_answered_within_a_second_while_200_heavy_ones_queue() {
    let _load = load();
    let (child, addr) = serve(&["--port", "0", "--no-open"]);
    let pid = child.id();
    let before = proc::cpu(pid);
    let heavy = hold(addr, &hard_solve(addr), 200);
    assert_eq!(heavy.len(), 200);
    wait_for_cpu(pid, before, Duration::from_millis(50));
    let mut latencies: Vec<Duration> = (0..100)
        .map(|_| {
            let sent = Instant::now();
            let answer = exchange(addr, &easy_solve(addr), TIMEOUT).unwrap();
            assert_eq!(answer.status, 200);
            sent.elapsed()
        })
        .collect();
    latencies.sort();
    let p99 = latencies[98];
    eprintln!(
        "9×9 solves beside 200 heavy ones: p50 {:?}, p99 {p99:?}, max {:?}",
        latencies[49], latencies[99]
    );
    assert!(p99 < Duration::from_secs(1), "p99 {p99:?}: {latencies:?}");
    // The heavy requests past the lane's threads and queue were turned
    // away at once, 503 with Retry-After; none was answered otherwise.
    let mut refused = 0;
    for mut stream in &heavy {
        stream.set_nonblocking(true).unwrap();
        let mut answer = [0u8; 512];
        if let Ok(n) = stream.read(&mut answer) {
            let text = String::from_utf8_lossy(&answer[..n]).to_ascii_lowercase();
            assert!(text.starts_with("http/1.1 503"), "{text}");
            assert!(text.contains("retry-after: 5"), "{text}");
            refused += 1;
        }
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    eprintln!("{refused} of 200 heavy requests refused at once ({cores} cores)");
    // Threads and queue take 5 per core (one thread, four waiting).
    assert!(
        refused >= 200usize.saturating_sub(5 * cores),
        "{refused} refused"
    );
    drop(heavy);
    assert_eq!(interrupt(child).0, 0);
}

#[test]
#[cfg(target_os = "linux")]
fn ctrl_c_stops_the_server_within_2_s_with_requests_half_sent() {
    let _load = load();
    let (child, addr) = serve(&["--port", "0", "--no-open"]);
    let pid = child.id();
    let before = proc::cpu(pid);
    let half_head = format!("POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Ty");
    let half_body = format!(
        "POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{\"puzzle\": [0, 0"
    );
    let mut clients = hold(addr, half_head.as_bytes(), 3);
    clients.extend(hold(addr, half_body.as_bytes(), 3));
    clients.extend(hold(addr, &hard_solve(addr), 3));
    wait_for_cpu(pid, before, Duration::from_millis(50));
    let (code, stderr, took) = interrupt_timed(child);
    eprintln!("Ctrl-C with 9 requests half sent or running: stopped after {took:?}");
    assert_eq!(code, 0, "{stderr}");
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    drop(clients);
}

#[test]
#[cfg(target_os = "linux")]
fn a_thousand_held_heads_take_under_50_mb_and_lock_nobody_out() {
    let _load = load();
    let (child, addr) = serve(&["--port", "0", "--no-open"]);
    let pid = child.id();
    assert_eq!(
        request(addr, "GET", "/", None, TIMEOUT).unwrap().status,
        200
    );
    let rss = proc::status(pid, "VmRSS");
    // Each connection sends 30 KiB of a head and never ends it. As many
    // as this process may open, up to 1,000.
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let files: usize = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .and_then(|line| line.split_whitespace().nth(3)?.parse().ok())
        .unwrap_or(1024);
    let count = 1000.min(files.saturating_sub(100));
    let head = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Fill: {}",
        "a".repeat(30 * 1024)
    );
    let held = hold(addr, head.as_bytes(), count);
    assert_eq!(held.len(), count);
    // A new client is answered: the oldest held were closed for it.
    assert_eq!(
        request(addr, "GET", "/", None, TIMEOUT).unwrap().status,
        200
    );
    // The most memory the server held at any time.
    let peak = proc::status(pid, "VmHWM");
    eprintln!("{count} held heads of 30 KiB: {rss} KiB before, {peak} KiB at most");
    assert!(
        peak <= rss + 50 * 1024,
        "{count} held heads: {rss} KiB before, {peak} KiB at most"
    );
    drop(held);
    assert_eq!(interrupt(child).0, 0);
}
