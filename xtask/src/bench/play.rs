//! `cargo xtask bench play`: `cover play`'s server (in this process, over
//! loopback), in two tables. New games: for each size and level,
//! `--new-games` requests one after another as the page sends them (no
//! seed), on a server of its own per size; latency percentiles, the first
//! request of each level, and the share that met the level. Load:
//! `--concurrency` clients send `--requests` requests per workload (the
//! page, new games, hints and checks on games in progress); requests per
//! second and latency percentiles, beside the same calls made directly on
//! every core. Any answer but 200 fails the run. Details:
//! `docs/measurements.md`.
//!
//! `--levels N` first prints which levels the generator reaches per size
//! (what `/api/levels` answers): N puzzles per size and clue target, made
//! without a level asked for and rated by logic to the end.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::generate::{Generator, Request};
use cover_models::sudoku::human::{self, Catalogue, Difficulty, RateLimits, Rating};
use cover_models::sudoku::logic::Geometry;
use cover_models::sudoku::Size;
use cover_play::client::request;
use cover_play::game::{self, NewRequest, PlayRequest, SolveRequest};
use cover_play::{Background, Config};
use rayon::prelude::*;
use serde_json::{json, Value};

use super::harness::{fixed, Table};
use crate::flags::Flags;

const GRADES: [&str; 4] = ["easy", "medium", "hard", "extreme"];
const LEVELS: [&str; 5] = ["easy", "medium", "hard", "expert", "extreme"];
const TIMEOUT: Duration = Duration::from_secs(60);

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &["--requests", "--concurrency", "--new-games", "--levels"],
        &[],
    )?;
    let requests: usize = flags.parsed("--requests", 5000)?;
    let concurrency: usize = flags.parsed("--concurrency", 50)?;
    let new_games: usize = flags.parsed("--new-games", 200)?;
    let levels: usize = flags.parsed("--levels", 0)?;
    if concurrency == 0 {
        bail!("--concurrency is at least 1");
    }
    if levels > 0 {
        reachable_levels(levels);
    }
    if new_games > 0 {
        new_game_latency(new_games)?;
    }
    if requests > 0 {
        load_workloads(requests, concurrency)?;
    }
    Ok(())
}

/// The sizes and clue targets of the levels table (none: minimal), each
/// with how many times `--levels` puzzles it takes: many of the small
/// sizes (microseconds each), a quarter of minimal 16×16 puzzles
/// (seconds each to rate).
const LEVEL_CASES: [(usize, Option<usize>, f64); 8] = [
    (4, None, 100.0),
    (9, None, 10.0),
    (16, Some(140), 1.0),
    (16, Some(115), 1.0),
    (16, Some(112), 1.0),
    (16, Some(110), 1.0),
    (16, Some(105), 1.0),
    (16, None, 0.25),
];

/// How long rating one puzzle of the levels table may take; past it the
/// puzzle is counted unrated.
const RATE_LIMIT: Duration = Duration::from_secs(30);

/// The levels table: per size and clue target, `count` puzzles (puzzle
/// `i` of seed 1) made with no level asked for, each rated by logic to
/// the end, on every core; how many fall in each level, the highest
/// rating, and the mean time to make and to rate one.
fn reachable_levels(count: usize) {
    println!(
        "bench play: levels reached, {count} puzzles per 16×16 clue target (4×4: {}, 9×9: {}, \
         minimal 16×16: {}), rated to the end (at most {} s each)",
        count * 100,
        count * 10,
        count.div_ceil(4),
        RATE_LIMIT.as_secs()
    );
    let names: Vec<String> = Difficulty::ALL.iter().map(|d| format!("{d} 8")).collect();
    let table = Table::new(&format!(
        "size -5|clues -7|{}|unrated 8|max SE 7|make ms 8|rate ms 8",
        names.join("|")
    ));
    for (side, clues, scale) in LEVEL_CASES {
        let size = Size::from_side(side).expect("a size");
        let request = Request {
            clues,
            rate: false,
            max_attempts: 1,
            ..Request::new(size)
        };
        let geometry = Geometry::new(size);
        let rated: Vec<(Option<Rating>, Duration, Duration)> = (0..(count as f64 * scale).ceil()
            as u64)
            .into_par_iter()
            .map_init(
                || Generator::new(size).expect("a generated size"),
                |generator, i| {
                    let start = Instant::now();
                    let made = generator.generate(&request, 1, i);
                    let made_in = start.elapsed();
                    let limits = RateLimits {
                        above: None,
                        deadline: Some(Instant::now() + RATE_LIMIT),
                    };
                    let rating =
                        human::rate_within(&geometry, &made.cells, Catalogue::Rating, limits)
                            .ok()
                            .filter(|rated| rated.solved)
                            .map(|rated| rated.rating);
                    (rating, made_in, start.elapsed() - made_in)
                },
            )
            .collect();
        let n = rated.len();
        let mut counts = vec![0usize; Difficulty::ALL.len() + 1];
        for (rating, _, _) in &rated {
            let at = rating.map_or(Difficulty::ALL.len(), |r| {
                let level = Difficulty::of(r);
                Difficulty::ALL
                    .iter()
                    .position(|&d| d == level)
                    .expect("a level")
            });
            counts[at] += 1;
        }
        let max = rated.iter().filter_map(|r| r.0).max();
        let mean_ms = |pick: fn(&(Option<Rating>, Duration, Duration)) -> Duration| {
            rated.iter().map(|r| pick(r).as_secs_f64()).sum::<f64>() * 1e3 / n.max(1) as f64
        };
        let clues = clues.map_or("minimal".to_owned(), |c| c.to_string());
        let mut cells: Vec<Box<dyn std::fmt::Display>> =
            vec![Box::new(format!("{side}×{side}")), Box::new(clues)];
        cells.extend(
            counts
                .iter()
                .map(|&c| Box::new(c) as Box<dyn std::fmt::Display>),
        );
        cells.push(Box::new(
            max.map_or("-".to_owned(), |r| fixed(r.value(), 1)),
        ));
        cells.push(Box::new(fixed(mean_ms(|r| r.1), 1)));
        cells.push(Box::new(fixed(mean_ms(|r| r.2), 1)));
        let row: Vec<&dyn std::fmt::Display> = cells.iter().map(|c| c.as_ref()).collect();
        table.row(&row);
    }
}

/// The sizes of the new-game table, each with the share of
/// `--new-games` it takes (16×16 games take seconds to make).
const NEW_GAME_SIZES: [(usize, usize); 3] = [(4, 1), (9, 1), (16, 4)];

/// The new-game table: per size a fresh server, and per level `count`
/// requests without a seed (16×16: a quarter), one after another.
fn new_game_latency(count: usize) -> Result<()> {
    println!(
        "bench play: new games, {count} per level one after another (16×16: {}), \
         no seed, a fresh server per size",
        count.div_ceil(4)
    );
    let table = Table::new("size -5|level -8|first ms 9|p50 ms 8|p99 ms 8|max ms 8|met 6|n 4");
    let mut failures = Vec::new();
    for (side, share) in NEW_GAME_SIZES {
        let server = Background::start(SocketAddr::from(([127, 0, 0, 1], 0)), Config::default())?;
        for level in LEVELS {
            let body = json!({"size": side, "difficulty": level}).to_string();
            let mut latencies = Vec::new();
            let mut met = 0;
            let mut first = None;
            for i in 0..=count.div_ceil(share) {
                let sent = Instant::now();
                let answer = request(
                    server.addr(),
                    "POST",
                    "/api/new",
                    Some(body.as_bytes()),
                    TIMEOUT,
                );
                let took = sent.elapsed();
                match answer {
                    Ok(answer) if answer.status == 200 => {
                        let game = answer.json()?;
                        if i == 0 {
                            first = Some(took);
                            continue;
                        }
                        latencies.push(took);
                        met += usize::from(game["target_met"] == true);
                    }
                    Ok(answer) => failures.push(format!(
                        "{side}×{side} {level}: status {} {}",
                        answer.status,
                        String::from_utf8_lossy(&answer.body)
                    )),
                    Err(e) => failures.push(format!("{side}×{side} {level}: {e}")),
                }
            }
            latencies.sort();
            let n = latencies.len();
            let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1e3);
            table.row(&[
                &format!("{side}×{side}"),
                &level,
                &fixed(ms(first.as_ref()), 1),
                &fixed(ms(percentile(&latencies, 0.5)), 1),
                &fixed(ms(percentile(&latencies, 0.99)), 1),
                &fixed(ms(latencies.last()), 1),
                &format!("{:.0}%", 100.0 * met as f64 / n.max(1) as f64),
                &n,
            ]);
        }
    }
    for failure in failures.iter().take(5) {
        println!("  error: {failure}");
    }
    if !failures.is_empty() {
        bail!("{} new-game requests failed", failures.len());
    }
    Ok(())
}

/// The `q` quantile of sorted `values` (nearest rank).
fn percentile<T>(values: &[T], q: f64) -> Option<&T> {
    let n = values.len();
    values.get(((n as f64 * q).ceil() as usize).clamp(1, n.max(1)) - 1)
}

/// The load table.
fn load_workloads(requests: usize, concurrency: usize) -> Result<()> {
    let config = Config::default();
    let server = Background::start(SocketAddr::from(([127, 0, 0, 1], 0)), config)?;
    println!(
        "bench play: {requests} requests per workload, {concurrency} at a time, \
         server on {} with {} workers, {} cores in all",
        server.addr(),
        config.workers,
        rayon::current_num_threads()
    );

    let games = games_in_progress(100)?;
    let new_bodies: Vec<Value> = (0..requests)
        .map(|i| json!({"size": 9, "difficulty": GRADES[i % 4], "seed": i}))
        .collect();
    let play_bodies: Vec<Value> = games
        .iter()
        .map(|g| json!({"puzzle": g.puzzle, "cells": g.cells}))
        .collect();

    let table = Table::new(
        "workload -9|http/s 9|direct/s 9|ratio 8|p50 ms 8|p99 ms 8|max ms 8|\
        errors 7|n 6",
    );
    let send = |method, path, bodies: &[Value]| {
        load(server.addr(), method, path, bodies, requests, concurrency)
    };
    let mut errors = send("GET", "/", &[Value::Null]).report(&table, "page", None);

    let direct_new = direct(&new_bodies, |body| {
        let request: NewRequest = serde_json::from_value(body.clone()).expect("a new request");
        game::new_game(&request, 0).is_ok()
    });
    let new = send("POST", "/api/new", &new_bodies);
    errors += new.report(&table, "new 9×9", Some(direct_new));

    // The games in progress, once as a hint and once as a check.
    let plays: [(&str, &str, PlayCall); 2] = [
        ("hint", "/api/hint", |r, nodes| game::hint(r, nodes).is_ok()),
        ("check", "/api/check", |r, nodes| {
            game::check(r, nodes).is_ok()
        }),
    ];
    for (name, path, call) in plays {
        let direct_rate = direct_cycle(&play_bodies, requests, |body| {
            let request: PlayRequest =
                serde_json::from_value(body.clone()).expect("a play request");
            call(&request, config.search_nodes)
        });
        let measured = send("POST", path, &play_bodies);
        errors += measured.report(&table, name, Some(direct_rate));
    }

    if errors > 0 {
        bail!("{errors} requests failed");
    }
    Ok(())
}

/// One of the API's calls on a game in progress, made in process: whether
/// it answered.
type PlayCall = fn(&PlayRequest, u64) -> bool;

/// A 9×9 medium game with half its empty cells filled in.
struct InProgress {
    puzzle: Vec<u8>,
    cells: Vec<u8>,
}

fn games_in_progress(count: u64) -> Result<Vec<InProgress>> {
    (0..count)
        .into_par_iter()
        .map(|seed| {
            let new = NewRequest {
                size: 9,
                difficulty: "medium".to_owned(),
                seed: Some(10_000 + seed),
                variant: None,
            };
            let puzzle = game::new_game(&new, 0)?.puzzle;
            let solution = game::solve(
                &SolveRequest {
                    puzzle: puzzle.clone(),
                    variant: None,
                },
                u64::MAX,
            )?;
            let mut cells = puzzle.clone();
            let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0).collect();
            for &c in &empty[..empty.len() / 2] {
                cells[c] = solution.solution[c];
            }
            Ok(InProgress { puzzle, cells })
        })
        .collect::<Result<_, game::GameError>>()
        .context("preparing games in progress")
}

/// Requests per second of `call` over `inputs` on every core, in process.
fn direct(inputs: &[Value], call: impl Fn(&Value) -> bool + Sync) -> f64 {
    let start = Instant::now();
    let ok = inputs.par_iter().filter(|input| call(input)).count();
    assert_eq!(ok, inputs.len(), "every direct call succeeds");
    inputs.len() as f64 / start.elapsed().as_secs_f64()
}

/// [`direct`] over `count` inputs taken from `inputs` in turn.
fn direct_cycle(inputs: &[Value], count: usize, call: impl Fn(&Value) -> bool + Sync) -> f64 {
    let cycled: Vec<Value> = inputs.iter().cycle().take(count).cloned().collect();
    direct(&cycled, call)
}

/// What one workload measured.
struct Load {
    latencies: Vec<Duration>,
    errors: Vec<String>,
    elapsed: Duration,
}

/// Sends `count` requests (bodies taken from `bodies` in turn; `Null` for
/// none), `concurrency` at a time.
fn load(
    addr: SocketAddr,
    method: &str,
    path: &str,
    bodies: &[Value],
    count: usize,
    concurrency: usize,
) -> Load {
    let bodies: Vec<Option<Vec<u8>>> = bodies
        .iter()
        .map(|b| (!b.is_null()).then(|| b.to_string().into_bytes()))
        .collect();
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(count));
    let errors = Mutex::new(Vec::new());
    let start = Instant::now();
    thread::scope(|scope| {
        for _ in 0..concurrency.min(count) {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let body = bodies[i % bodies.len()].as_deref();
                    let sent = Instant::now();
                    match request(addr, method, path, body, TIMEOUT) {
                        Ok(answer) if answer.status == 200 => mine.push(sent.elapsed()),
                        Ok(answer) => errors.lock().unwrap().push(format!(
                            "{path} #{i}: status {} {}",
                            answer.status,
                            String::from_utf8_lossy(&answer.body)
                        )),
                        Err(e) => errors.lock().unwrap().push(format!("{path} #{i}: {e}")),
                    }
                }
                latencies.lock().unwrap().extend(mine);
            });
        }
    });
    Load {
        latencies: latencies.into_inner().unwrap(),
        errors: errors.into_inner().unwrap(),
        elapsed: start.elapsed(),
    }
}

impl Load {
    /// Prints the row and the first errors; returns the number of errors.
    fn report(mut self, table: &Table, name: &str, direct: Option<f64>) -> usize {
        self.latencies.sort();
        let n = self.latencies.len();
        let at =
            |q: f64| percentile(&self.latencies, q).map_or(f64::NAN, |d| d.as_secs_f64() * 1e3);
        let rate = (n + self.errors.len()) as f64 / self.elapsed.as_secs_f64();
        let (direct_text, ratio) = match direct {
            Some(d) => (fixed(d, 0), fixed(rate / d, 2)),
            None => ("-".to_owned(), "-".to_owned()),
        };
        table.row(&[
            &name,
            &fixed(rate, 0),
            &direct_text,
            &ratio,
            &fixed(at(0.5), 2),
            &fixed(at(0.99), 2),
            &fixed(at(1.0), 2),
            &self.errors.len(),
            &n,
        ]);
        for error in self.errors.iter().take(5) {
            println!("  error: {error}");
        }
        self.errors.len()
    }
}
