//! What the API and browser tests share: a server on a free loopback
//! port, JSON requests to it, and a sudoku checker and counter that trust
//! nothing of the server's (plain backtracking over bit masks).

#![allow(dead_code)] // each test file uses its own part

pub mod webdriver;

use std::net::SocketAddr;
use std::time::Duration;

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

/// The row, column and box of each cell, by unit.
fn units(side: usize) -> Vec<Vec<usize>> {
    let b = (side as f64).sqrt().round() as usize;
    let mut units = Vec::new();
    for r in 0..side {
        units.push((0..side).map(|c| r * side + c).collect());
    }
    for c in 0..side {
        units.push((0..side).map(|r| r * side + c).collect());
    }
    for k in 0..side {
        let (r0, c0) = (k / b * b, k % b * b);
        units.push(
            (0..side)
                .map(|i| (r0 + i / b) * side + c0 + i % b)
                .collect(),
        );
    }
    units
}

/// Whether `solution` is a full valid grid that keeps `puzzle`'s givens.
pub fn is_solution_of(puzzle: &[u8], solution: &[u8]) -> bool {
    let side = side_of(puzzle.len());
    solution.len() == puzzle.len()
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && units(side).iter().all(|unit| {
            let mut seen = vec![false; side + 1];
            unit.iter().all(|&c| {
                let d = solution[c] as usize;
                (1..=side).contains(&d) && !std::mem::replace(&mut seen[d], true)
            })
        })
}

/// The number of solutions of `puzzle`, counting up to `limit`.
pub fn count_solutions(puzzle: &[u8], limit: usize) -> usize {
    search(puzzle, limit).0
}

/// The first solution of `puzzle` in the counter's order, if any.
pub fn first_solution(puzzle: &[u8]) -> Option<Vec<u8>> {
    search(puzzle, 1).1
}

/// Counts up to `limit` solutions and keeps the first.
fn search(puzzle: &[u8], limit: usize) -> (usize, Option<Vec<u8>>) {
    let side = side_of(puzzle.len());
    let units = units(side);
    let mut peers = vec![Vec::new(); puzzle.len()];
    for unit in &units {
        for &a in unit {
            peers[a].extend(unit.iter().copied().filter(|&b| b != a));
        }
    }
    let clash = units.iter().any(|unit| {
        let mut seen = vec![false; side + 1];
        unit.iter()
            .any(|&c| puzzle[c] != 0 && std::mem::replace(&mut seen[puzzle[c] as usize], true))
    });
    if clash {
        return (0, None);
    }
    let (mut grid, mut found, mut first) = (puzzle.to_vec(), 0, None);
    count(&mut grid, &peers, side, limit, &mut found, &mut first);
    (found, first)
}

fn count(
    grid: &mut [u8],
    peers: &[Vec<usize>],
    side: usize,
    limit: usize,
    found: &mut usize,
    first: &mut Option<Vec<u8>>,
) {
    // The empty cell with fewest candidates.
    let mut best: Option<(usize, u64)> = None;
    for cell in 0..grid.len() {
        if grid[cell] != 0 {
            continue;
        }
        let mut free = (1u64 << side) - 1;
        for &p in &peers[cell] {
            if grid[p] != 0 {
                free &= !(1 << (grid[p] - 1));
            }
        }
        if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
            best = Some((cell, free));
        }
    }
    let Some((cell, mut free)) = best else {
        *found += 1;
        first.get_or_insert_with(|| grid.to_vec());
        return;
    };
    while free != 0 && *found < limit {
        let d = free.trailing_zeros() as u8 + 1;
        free &= free - 1;
        grid[cell] = d;
        count(grid, peers, side, limit, found, first);
    }
    grid[cell] = 0;
}
