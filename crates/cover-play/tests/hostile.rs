//! What a hostile client (or another site's page) can send the server,
//! over loopback: foreign names and origins, bodies that are not JSON,
//! heads and bodies sent slowly or never, heads too large, more
//! connections than the cap, and more heavy work than the lanes take.
//! Each case checks the refusal, and that everyone else is still
//! answered. (The process-wide bounds, threads, memory and Ctrl-C, are
//! tested on the binary in `crates/cover-cli/tests/play.rs`.)

mod common;

use std::io::{BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use common::*;
use cover_play::client::{exchange, read_answer, request, Answer};
use cover_play::{Config, MAX_HEAD};
use serde_json::json;

/// POJ 3074's sample (one solution).
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn solve_body(puzzle: &[u8]) -> Vec<u8> {
    json!({ "puzzle": puzzle }).to_string().into_bytes()
}

fn classic_body() -> Vec<u8> {
    let cells: Vec<u8> = CLASSIC
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    solve_body(&cells)
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, TIMEOUT).expect("the server accepts");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(TIMEOUT)).unwrap();
    stream
}

/// Whether the server closed `stream` (rather than letting it wait).
fn closed(mut stream: &TcpStream) -> bool {
    let mut rest = Vec::new();
    match stream.read_to_end(&mut rest) {
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

fn error_text(answer: &Answer) -> String {
    answer.json().unwrap()["error"]
        .as_str()
        .expect("an error message")
        .to_owned()
}

#[test]
fn only_this_servers_names_and_pages_are_answered() {
    let server = start();
    let addr = server.addr();
    let port = addr.port();
    let body = classic_body();
    let cases = [
        (format!("127.0.0.1:{port}"), String::new(), 200),
        (format!("localhost:{port}"), String::new(), 200),
        (
            format!("localhost:{port}"),
            format!("Origin: http://localhost:{port}\r\n"),
            200,
        ),
        // DNS rebinding: a site's own name, resolved to 127.0.0.1.
        ("evil.example".to_owned(), String::new(), 421),
        (format!("evil.example:{port}"), String::new(), 421),
        (format!("127.0.0.1:{}", port ^ 1), String::new(), 421),
        // Another site's page, sending to this server.
        (
            format!("127.0.0.1:{port}"),
            "Origin: http://evil.example\r\n".to_owned(),
            403,
        ),
        (
            format!("127.0.0.1:{port}"),
            "Origin: null\r\n".to_owned(),
            403,
        ),
        (
            format!("127.0.0.1:{port}"),
            format!("Origin: https://127.0.0.1:{port}\r\n"),
            403,
        ),
    ];
    for (host, extra, status) in cases {
        let mut message = format!(
            "POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n{extra}Connection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        message.extend_from_slice(&body);
        let answer = exchange(addr, &message, TIMEOUT).unwrap();
        assert_eq!(answer.status, status, "{host} {extra:?}: {answer:?}");
        if status != 200 {
            assert!(!error_text(&answer).is_empty());
        }
    }
    // The page and unknown paths are refused to a foreign name too.
    for path in ["/", "/app.js", "/api/levels", "/api/nothing"] {
        let message =
            format!("GET {path} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
        let answer = exchange(addr, message.as_bytes(), TIMEOUT).unwrap();
        assert_eq!(answer.status, 421, "{path}");
        assert!(error_text(&answer).contains(&format!("localhost:{port}")));
    }
    // No Host at all (HTTP/1.0 may leave it out): 400.
    let answer = exchange(addr, b"GET / HTTP/1.0\r\n\r\n", TIMEOUT).unwrap();
    assert_eq!(answer.status, 400);
}

#[test]
fn the_api_takes_json_only_and_answers_no_preflight() {
    let server = start();
    let addr = server.addr();
    let body = classic_body();
    // What another site's page may send without asking first.
    for content_type in [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
    ] {
        let message = post_message(addr, "/api/solve", content_type, "", &body);
        let answer = exchange(addr, &message, TIMEOUT).unwrap();
        assert_eq!(answer.status, 415, "{content_type}");
        assert!(error_text(&answer).contains("application/json"));
    }
    let bare = format!("POST /api/new HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 2\r\n\r\n{{}}");
    assert_eq!(
        exchange(addr, bare.as_bytes(), TIMEOUT).unwrap().status,
        415
    );
    for content_type in ["application/json; charset=utf-8", "Application/JSON"] {
        let message = post_message(addr, "/api/solve", content_type, "", &body);
        let answer = exchange(addr, &message, TIMEOUT).unwrap();
        assert_eq!(answer.status, 200, "{content_type}");
    }
    // The preflight a page of another site must send before a JSON POST
    // gets no CORS header, so its browser never sends the POST.
    for origin in ["Origin: http://evil.example\r\n", ""] {
        let preflight = format!(
            "OPTIONS /api/solve HTTP/1.1\r\nHost: {addr}\r\n{origin}\
             Access-Control-Request-Method: POST\r\n\
             Access-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n"
        );
        let answer = exchange(addr, preflight.as_bytes(), TIMEOUT).unwrap();
        assert!(answer.status >= 400, "{origin:?}: {answer:?}");
        assert!(
            !answer
                .headers
                .iter()
                .any(|(name, _)| name.starts_with("access-control-")),
            "{answer:?}"
        );
    }
}

#[test]
fn bodies_announced_but_not_sent_are_refused_in_time() {
    let server = start_with(Config {
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let addr = server.addr();
    let head = |length: u64| {
        format!(
            "POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n\r\n"
        )
    };
    // 2⁴⁰ bytes announced: refused before any is read (not 408 after
    // the body timeout).
    let answer = exchange(addr, head(1 << 40).as_bytes(), TIMEOUT).unwrap();
    assert_eq!(answer.status, 413);
    assert!(error_text(&answer).contains("larger than 65536 bytes"));
    // 100 announced, 12 sent: 408 once the body timeout passed, and the
    // connection closed.
    let partial = format!("{}{{\"puzzle\": [", head(100));
    let answer = exchange(addr, partial.as_bytes(), TIMEOUT).unwrap();
    assert_eq!(answer.status, 408, "{answer:?}");
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(error_text(&answer).contains("did not arrive within 1 s"));
}

#[test]
fn slow_idle_and_huge_heads_are_cut_off() {
    let server = start_with(Config {
        header_timeout: Duration::from_secs(1),
        ..Config::default()
    });
    let addr = server.addr();
    // Half a head, never finished: the connection is closed.
    let mut slow = connect(addr);
    slow.write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes())
        .unwrap();
    assert!(closed(&slow), "a head that does not end is cut off");
    // A connection that says nothing, or nothing more after an answer.
    let silent = connect(addr);
    assert!(closed(&silent), "a silent connection is closed");
    let mut kept = connect(addr);
    kept.write_all(format!("GET /style.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .unwrap();
    let mut reader = BufReader::new(&kept);
    assert_eq!(read_answer(&mut reader).unwrap().status, 200);
    assert!(closed(&kept), "an idle kept-alive connection is closed");
    // A head over MAX_HEAD bytes: 431.
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Big: {}\r\n\r\n",
        "a".repeat(MAX_HEAD)
    );
    assert_eq!(
        exchange(addr, huge.as_bytes(), TIMEOUT).unwrap().status,
        431
    );
    // Everyone else is answered all along.
    assert_eq!(
        request(addr, "GET", "/", None, TIMEOUT).unwrap().status,
        200
    );
}

#[test]
fn idle_connections_make_room_for_new_ones() {
    let server = start_with(Config {
        max_connections: 8,
        ..Config::default()
    });
    let addr = server.addr();
    // Forty connections that hold still: half idle, half in a head.
    let held: Vec<TcpStream> = (0..40)
        .map(|i| {
            let mut stream = connect(addr);
            if i % 2 == 1 {
                stream.write_all(b"GET / HTTP/1.1\r\nHost: loc").unwrap();
            }
            stream
        })
        .collect();
    for _ in 0..5 {
        let page = request(addr, "GET", "/", None, TIMEOUT).unwrap();
        assert_eq!(page.status, 200);
    }
    // The oldest were closed to make room.
    assert!(closed(&held[0]) && closed(&held[1]));
}

#[test]
fn connections_all_busy_at_the_cap_turn_new_ones_away_with_503() {
    let server = start_with(Config {
        max_connections: 2,
        body_timeout: Duration::from_secs(600),
        ..Config::default()
    });
    let addr = server.addr();
    // Two requests in progress: the server asked for their bodies
    // (100 Continue), which never come.
    let busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = connect(addr);
            let head = format!(
                "POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: 100\r\nExpect: 100-continue\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).unwrap();
            let mut line = [0u8; 25];
            stream.read_exact(&mut line).unwrap();
            assert_eq!(&line, b"HTTP/1.1 100 Continue\r\n\r\n");
            stream
        })
        .collect();
    // A third is answered 503 and closed (read before it writes: a
    // request left unread could turn the close into a reset).
    let third = connect(addr);
    let answer = read_answer(BufReader::new(&third)).unwrap();
    assert_eq!(answer.status, 503);
    assert_eq!(answer.header("retry-after"), Some("1"));
    assert!(error_text(&answer).contains("too many connections"));
    // Once one of them ends, there is room again.
    busy[0].shutdown(Shutdown::Both).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match request(addr, "GET", "/", None, TIMEOUT) {
            Ok(page) if page.status == 200 => break,
            other => assert!(Instant::now() < deadline, "no room again: {other:?}"),
        }
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn light_work_never_waits_behind_heavy_work() {
    let server = start_with(Config {
        workers: 1,
        heavy_queue: 1,
        deadline: Duration::from_millis(300),
        ..Config::default()
    });
    let addr = server.addr();
    let hard = post_message(
        addr,
        "/api/solve",
        "application/json",
        "",
        &solve_body(&hard_25x25()),
    );
    // Three heavy searches: one runs (seconds), one waits for it past the
    // deadline, one finds the queue full.
    let (answers, answered) = mpsc::channel();
    let held: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut stream = connect(addr);
            stream.write_all(&hard).unwrap();
            let reader = stream.try_clone().unwrap();
            let answers = answers.clone();
            thread::spawn(move || {
                let _ = answers.send(read_answer(BufReader::new(reader)));
            });
            stream
        })
        .collect();
    let mut refusals: Vec<String> = (0..2)
        .map(|_| {
            let answer = answered.recv_timeout(TIMEOUT).unwrap().unwrap();
            assert_eq!(answer.status, 503, "{answer:?}");
            assert_eq!(answer.header("retry-after"), Some("5"));
            error_text(&answer)
        })
        .collect();
    refusals.sort();
    assert!(
        refusals[0].contains("queue for this size is full"),
        "{refusals:?}"
    );
    assert!(
        refusals[1].contains("too busy to answer this request within 0.3 s"),
        "{refusals:?}"
    );
    // A 9×9 solve meanwhile is answered at once, by the light lane.
    let answer = exchange(
        addr,
        &post_message(
            addr,
            "/api/solve",
            "application/json",
            "Connection: close\r\n",
            &classic_body(),
        ),
        TIMEOUT,
    )
    .unwrap();
    assert_eq!(answer.status, 200);
    // The clients go: the search is cancelled, and the heavy lane takes
    // work again.
    for stream in &held {
        let _ = stream.shutdown(Shutdown::Both);
    }
    let deadline = Instant::now() + TIMEOUT;
    let empty_16 = solve_body(&[0u8; 256]);
    loop {
        let message = post_message(
            addr,
            "/api/solve",
            "application/json",
            "Connection: close\r\n",
            &empty_16,
        );
        let answer = exchange(addr, &message, TIMEOUT).unwrap();
        // The empty grid has many solutions: 422 says it was searched.
        if answer.status == 422 {
            break;
        }
        assert_eq!(answer.status, 503, "{answer:?}");
        assert!(Instant::now() < deadline, "the heavy lane stays busy");
        thread::sleep(Duration::from_millis(50));
    }
}
