//! What the API and browser tests share: a server on a free loopback
//! port, JSON requests to it, and `cover-check`'s sudoku checker and
//! counter, which trust nothing of the server's.

#![allow(dead_code)] // each test file uses its own part

pub mod variants;
pub mod webdriver;

use std::net::SocketAddr;
use std::time::Duration;

use cover_check::sudoku;
use cover_play::client::{request, Answer};
use cover_play::{Background, Config};
use serde_json::Value;

pub const TIMEOUT: Duration = Duration::from_secs(60);

pub fn start() -> Background {
    start_with(Config::default())
}

pub fn start_with(config: Config) -> Background {
    Background::start(SocketAddr::from(([127, 0, 0, 1], 0)), config).expect("the server starts")
}

/// POSTs `body` to `path` and returns the status and the JSON answer.
pub fn post(server: &Background, path: &str, body: &Value) -> (u16, Value) {
    let answer = post_raw(server, path, body.to_string().as_bytes());
    let json = answer.json().expect("every answer is JSON");
    (answer.status, json)
}

pub fn post_raw(server: &Background, path: &str, body: &[u8]) -> Answer {
    request(server.addr(), "POST", path, Some(body), TIMEOUT).expect("the server answers")
}

pub fn grid(value: &Value) -> Vec<u8> {
    value
        .as_array()
        .expect("a grid is an array")
        .iter()
        .map(|d| d.as_u64().expect("a cell is a number") as u8)
        .collect()
}

pub fn side_of(cells: usize) -> usize {
    let side = (cells as f64).sqrt().round() as usize;
    assert_eq!(side * side, cells, "a square grid");
    side
}

/// Whether `solution` is a full valid grid that keeps `puzzle`'s givens,
/// by `cover-check`'s checker.
pub fn is_solution_of(puzzle: &[u8], solution: &[u8]) -> bool {
    sudoku::check_solution(puzzle, solution, side_of(puzzle.len())).is_ok()
}

/// The number of solutions of `puzzle`, counting up to `limit`, by
/// `cover-check`'s backtracking counter.
pub fn count_solutions(puzzle: &[u8], limit: usize) -> usize {
    sudoku::count_solutions(puzzle, side_of(puzzle.len()), limit)
}

/// The first solution of `puzzle` in the counter's order, if any.
pub fn first_solution(puzzle: &[u8]) -> Option<Vec<u8>> {
    sudoku::first_solution(puzzle, side_of(puzzle.len()))
}

/// A 25×25 puzzle whose search runs seconds and ends at the node budget
/// (300,000 nodes): Gecode's puzzle of `fixtures/`, its first row
/// emptied.
pub fn hard_25x25() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/sudoku/line_25x25_gecode.txt"
    );
    let text = std::fs::read_to_string(path).expect("the fixture is there");
    let line = text
        .lines()
        .find(|line| !line.starts_with('#'))
        .expect("a puzzle line");
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    let mut cells: Vec<u8> = line
        .chars()
        .map(|c| symbols.find(c).map_or(0, |d| d as u8 + 1))
        .collect();
    assert_eq!(cells.len(), 625);
    cells[..25].fill(0);
    cells
}

/// A whole request: `POST path` with `body` sent as `content_type`, and
/// `extra` header lines (each ending in CRLF).
pub fn post_message(
    addr: SocketAddr,
    path: &str,
    content_type: &str,
    extra: &str,
    body: &[u8],
) -> Vec<u8> {
    let mut message = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n{extra}\r\n",
        body.len()
    )
    .into_bytes();
    message.extend_from_slice(body);
    message
}

/// The `index`th puzzle line (lines starting `#` skipped) of
/// `fixtures/sudoku/{file}`.
pub fn fixture_line(file: &str, index: usize) -> String {
    let path = format!(
        "{}/../../fixtures/sudoku/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the fixture is there");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .nth(index)
        .unwrap_or_else(|| panic!("{file} has a puzzle line {index}"))
        .trim()
        .to_owned()
}

/// The cells of a puzzle `line` written in `symbols` (digit `d` is the
/// `d`th symbol; anything else is empty), as our own reading.
pub fn cells_in(line: &str, symbols: &str) -> Vec<u8> {
    let symbols: Vec<char> = symbols.chars().collect();
    line.chars()
        .map(|c| {
            symbols
                .iter()
                .position(|&s| s == c)
                .map_or(0, |d| d as u8 + 1)
        })
        .collect()
}

/// A 25×25 puzzle that the server imports at once (unlike
/// [`hard_25x25`]: it answers 503 after its search budget):
/// `line_25x25.txt`'s first puzzle, unique, 400 givens in A–Y.
pub fn easy_25x25() -> String {
    let line = fixture_line("line_25x25.txt", 0);
    assert_eq!(line.chars().count(), 625);
    line
}
