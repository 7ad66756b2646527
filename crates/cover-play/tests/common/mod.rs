//! What the API and browser tests share: a server on a free loopback
//! port, JSON requests to it, and `cover-check`'s sudoku checker and
//! counter, which trust nothing of the server's.

#![allow(dead_code)] // each test file uses its own part

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
