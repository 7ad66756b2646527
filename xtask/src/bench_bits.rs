//! `cargo xtask bench bits`: the bit-parallel 9×9 engine
//! (`cover_models::sudoku::BitSolver`) side by side with the compact
//! exact-cover engine (`cover sudoku`'s default today) and the `sudoku`
//! crate (JCZSolve; the peer of issue 18, a dependency of this benchmark
//! only), in this process, on one thread, on the hard 9×9 sets of
//! `../shared/datasets/`.
//!
//! Two modes per set: the first solution, and solve-and-prove-unique
//! (count up to 2). Each time is the best of `--runs` passes over the
//! whole set (default 3; a set under 5,000 puzzles is run several times
//! per pass), the three engines taking turns within each run, parsing
//! excluded. Answers are checked on the
//! way: every puzzle of these sets has one solution, so each engine must
//! count exactly one, and each first solution must be a valid grid that
//! keeps the givens (an independent check here, after the clock stops).
//!
//! Usage: `cargo xtask bench bits [--runs N] [SET ...]`.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::sudoku::{BitSolver, Engine, Puzzles, Solver, TriadSolver, Vectors};
use dlx_core::{Control, Limits};

use crate::bench::shared_dir;
use crate::bench_wide::is_solution_of;

const SETS: &[&str] = &[
    "forum_hardest_1905_11plus",
    "magictour_top1465",
    "forum_hardest_1106",
    "17_clue",
];

pub fn run(args: &[String]) -> Result<()> {
    let usage = "usage: cargo xtask bench bits [--runs N] [SET ...]";
    let mut runs = 3usize;
    let mut sets = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().context(usage)?.parse().context(usage)?,
            name if SETS.contains(&name) => sets.push(name.to_owned()),
            _ => bail!("{usage} (sets: {})", SETS.join(", ")),
        }
    }
    if sets.is_empty() {
        sets = SETS.iter().map(|s| s.to_string()).collect();
    }
    let dir = shared_dir().join("datasets").join("sudoku9");
    println!("bench bits: one thread, best of {runs}; µs per puzzle");
    println!(
        "{:<26} {:>6} {:<7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9}",
        "set",
        "n",
        "mode",
        "triad",
        "portable",
        "bits",
        "compact",
        "sudoku",
        "t/sudoku",
        "bits/sud",
        "t/portab"
    );
    for name in &sets {
        let path = dir.join(format!("{name}.txt"));
        let Ok(text) = std::fs::read(&path) else {
            println!("{name:<26} (not here: {})", path.display());
            continue;
        };
        let puzzles: Vec<_> = Puzzles::new(&text[..], None)
            .filter_map(|p| p.ok())
            .filter(|p| p.cells.len() == 81)
            .collect();
        let grids: Vec<[u8; 81]> = puzzles
            .iter()
            .map(|p| p.cells.clone().try_into().expect("81 cells"))
            .collect();
        let peers: Vec<sudoku::Sudoku> = grids
            .iter()
            .map(|g| sudoku::Sudoku::from_bytes(*g).expect("valid digits"))
            .collect();
        // Small sets are run several times per pass, for steadier times.
        let repeats = (5000 / grids.len().max(1)).max(1) as u32;
        for (mode, limit) in [("first", 1u64), ("unique", 2)] {
            let limits = Limits::solutions(limit);
            let mut bits = BitSolver::new();
            let (mut guesses, mut rounds) = (0u64, 0u64);
            // The first solution of each puzzle is kept (as the peer's
            // answer is) and checked after the clock stops.
            let mut firsts = vec![[0u8; 81]; grids.len()];
            let mut compact = Solver::new(Engine::Compact);
            let mut bits_pass = || {
                for grid in &grids {
                    let (_, stats) = bits.search(grid, &limits, |_| Control::Continue);
                    assert_eq!(stats.solutions, 1, "{name}: one solution");
                }
            };
            let mut triad = TriadSolver::new();
            let mut triad_pass = || {
                (guesses, rounds) = (0, 0);
                for (grid, first) in grids.iter().zip(&mut firsts) {
                    let mut count = 0;
                    let (_, stats) = triad.search(grid, &limits, |solution| {
                        if count == 0 {
                            first.copy_from_slice(solution);
                        }
                        count += 1;
                        Control::Continue
                    });
                    assert_eq!(count, 1, "{name}: one solution");
                    guesses += stats.guesses;
                    rounds += stats.rounds;
                }
            };
            let mut portable = TriadSolver::with_vectors(Vectors::Portable);
            let mut portable_pass = || {
                for grid in &grids {
                    let (_, stats) = portable.search(grid, &limits, |_| Control::Continue);
                    assert_eq!(stats.solutions, 1, "{name}: one solution");
                }
            };
            let mut compact_pass = || {
                for puzzle in &puzzles {
                    let report = if limit == 1 {
                        compact.first(puzzle).1
                    } else {
                        compact.count(puzzle, Some(limit))
                    };
                    assert_eq!(report.stats.solutions, 1, "{name}: one solution");
                }
            };
            let mut peer_pass = || {
                for peer in &peers {
                    let solved = if limit == 1 {
                        peer.some_solution()
                    } else {
                        peer.solution()
                    };
                    assert!(solved.is_some(), "{name}: the peer solves it");
                }
            };
            let [triad_time, portable_time, bits_time, compact_time, peer_time] = by_turns(
                runs,
                repeats,
                [
                    &mut triad_pass,
                    &mut portable_pass,
                    &mut bits_pass,
                    &mut compact_pass,
                    &mut peer_pass,
                ],
            );
            for (grid, first) in grids.iter().zip(&firsts) {
                assert!(is_solution_of(3, grid, first), "{name}: a bad grid");
            }
            let per = |t: Duration| t.as_secs_f64() * 1e6 / grids.len() as f64;
            let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
            println!(
                "{name:<26} {:>6} {mode:<7} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>9.2} {:>9.2}",
                grids.len(),
                per(triad_time),
                per(portable_time),
                per(bits_time),
                per(compact_time),
                per(peer_time),
                ratio(triad_time, peer_time),
                ratio(bits_time, peer_time),
                ratio(triad_time, portable_time),
            );
            println!(
                "{:<26} triad per puzzle: {:.1} guesses, {:.1} updates of a box or band",
                "",
                guesses as f64 / grids.len() as f64,
                rounds as f64 / grids.len() as f64
            );
        }
    }
    Ok(())
}

/// The best time of each pass over `runs` runs, the passes taking turns
/// within each run (so that the machine's drift falls on all alike); a
/// pass's time is that of `repeats` calls, divided by `repeats`.
pub fn by_turns<const N: usize>(
    runs: usize,
    repeats: u32,
    mut passes: [&mut dyn FnMut(); N],
) -> [Duration; N] {
    let mut best = [Duration::MAX; N];
    for _ in 0..runs.max(1) {
        for (pass, best) in passes.iter_mut().zip(&mut best) {
            let start = Instant::now();
            for _ in 0..repeats {
                pass();
            }
            *best = (*best).min(start.elapsed() / repeats);
        }
    }
    best
}
