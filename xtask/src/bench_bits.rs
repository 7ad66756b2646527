//! `cargo xtask bench bits`: the bit-parallel 9×9 engines side by side
//! with the `sudoku` crate (JCZSolve; the peer of issue 18, a dependency
//! of this benchmark only), in this process, on one thread, on the hard
//! 9×9 sets of `../shared/datasets/`: the triad engine
//! (`cover_models::sudoku::TriadSolver`, `cover sudoku`'s default for
//! 9×9) in each flavour of vectors this machine has (AVX-512, AVX2,
//! portable), the band engine (`BitSolver`, `--engine bands`) and the
//! compact exact-cover engine.
//!
//! Two modes per set: the first solution, and solve-and-prove-unique
//! (count up to 2). Each time is the best of `--runs` passes over the
//! whole set (default 3; a set under 5,000 puzzles is run several times
//! per pass), the engines taking turns within each run, parsing
//! excluded; each is also given as a ratio to the peer's. Answers are
//! checked on the way: every puzzle of these sets has one solution, so
//! each engine must count exactly one; each first solution of the triad
//! engine must be a valid grid that keeps the givens (an independent
//! check here, after the clock stops), and every flavour must give the
//! same ones.
//!
//! Usage: `cargo xtask bench bits [--runs N] [SET ...]`.

use std::cell::Cell;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::sudoku::{BitSolver, Engine, Puzzles, Solver, TriadSolver, Vectors};
use dlx_core::{Control, Limits};

use crate::bench::shared_dir;

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
    println!("bench bits: one thread, best of {runs}, the engines by turns; µs per puzzle");
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
            let n = grids.len();
            let flavours: Vec<Vectors> = [Vectors::Avx512, Vectors::Avx2, Vectors::Portable]
                .into_iter()
                .filter(|v| v.available())
                .collect();
            let mut names: Vec<String> = flavours
                .iter()
                .map(|v| format!("triad {v:?}").to_lowercase())
                .collect();
            names.extend(["bands", "compact", "sudoku crate"].map(String::from));
            // The guesses of each bit engine's last pass, and the first
            // solution of each puzzle by each flavour of the triad engine,
            // checked after the clock stops.
            let guesses: Vec<Cell<u64>> = names.iter().map(|_| Cell::new(0)).collect();
            let mut firsts = vec![vec![[0u8; 81]; n]; flavours.len()];
            let mut solvers: Vec<TriadSolver> = flavours
                .iter()
                .map(|&v| TriadSolver::with_vectors(v))
                .collect();
            let mut bands = BitSolver::new();
            let mut compact = Solver::new(Engine::Compact);
            let mut passes: Vec<Box<dyn FnMut() + '_>> = Vec::new();
            for ((triad, firsts), guessed) in solvers.iter_mut().zip(&mut firsts).zip(&guesses) {
                let (grids, limits) = (&grids, &limits);
                passes.push(Box::new(move || {
                    let mut total = 0;
                    for (grid, first) in grids.iter().zip(firsts.iter_mut()) {
                        let mut count = 0;
                        let (_, stats) = triad.search(grid, limits, |solution| {
                            if count == 0 {
                                first.copy_from_slice(solution);
                            }
                            count += 1;
                            Control::Continue
                        });
                        assert_eq!(count, 1, "{name}: one solution");
                        total += stats.guesses;
                    }
                    guessed.set(total);
                }));
            }
            let guessed = &guesses[flavours.len()];
            passes.push(Box::new(|| {
                let mut total = 0;
                for grid in &grids {
                    let (_, stats) = bands.search(grid, &limits, |_| Control::Continue);
                    assert_eq!(stats.solutions, 1, "{name}: one solution");
                    total += stats.guesses;
                }
                guessed.set(total);
            }));
            passes.push(Box::new(|| {
                for puzzle in &puzzles {
                    let report = if limit == 1 {
                        compact.first(puzzle).1
                    } else {
                        compact.count(puzzle, Some(limit))
                    };
                    assert_eq!(report.stats.solutions, 1, "{name}: one solution");
                }
            }));
            passes.push(Box::new(|| {
                for peer in &peers {
                    let solved = if limit == 1 {
                        peer.some_solution()
                    } else {
                        peer.solution()
                    };
                    assert!(solved.is_some(), "{name}: the peer solves it");
                }
            }));
            let times = by_turns(runs, repeats, &mut passes);
            drop(passes);
            for (grid, first) in grids.iter().zip(&firsts[0]) {
                assert!(is_solution_of(3, grid, first), "{name}: a bad grid");
            }
            assert!(
                firsts.iter().all(|f| f == &firsts[0]),
                "{name}: the flavours differ"
            );
            let per = |t: Duration| t.as_secs_f64() * 1e6 / n as f64;
            let peer = *times.last().expect("the peer runs");
            println!("{name} ({n} puzzles), {mode}:");
            println!(
                "  {:<16} {:>10} {:>9} {:>9}",
                "engine", "µs/puzzle", "/ sudoku", "guesses"
            );
            for ((engine, time), guesses) in names.iter().zip(&times).zip(&guesses) {
                let guesses = match guesses.get() {
                    0 => String::new(),
                    total => format!("{:.1}", total as f64 / n as f64),
                };
                println!(
                    "  {engine:<16} {:>10.2} {:>9.3} {guesses:>9}",
                    per(*time),
                    time.as_secs_f64() / peer.as_secs_f64(),
                );
            }
        }
    }
    Ok(())
}

/// The best time of each pass over `runs` runs, the passes taking turns
/// within each run (so that the machine's drift falls on all alike); a
/// pass's time is that of `repeats` calls, divided by `repeats`.
pub fn by_turns<P: FnMut() + ?Sized>(
    runs: usize,
    repeats: u32,
    passes: &mut [Box<P>],
) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; passes.len()];
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

/// A full valid grid of box side `n` that keeps the givens: every row,
/// column and box holds `1..=n²` once (trusting no engine).
fn is_solution_of(n: usize, puzzle: &[u8], grid: &[u8]) -> bool {
    let s = n * n;
    let unit_ok = |cell_at: &dyn Fn(usize) -> usize| {
        let mut seen = vec![false; s + 1];
        (0..s).all(|j| {
            let digit = usize::from(grid[cell_at(j)]);
            (1..=s).contains(&digit) && !std::mem::replace(&mut seen[digit], true)
        })
    };
    grid.len() == s * s
        && puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
        && (0..s).all(|i| {
            unit_ok(&|j| i * s + j)
                && unit_ok(&|j| j * s + i)
                && unit_ok(&|j| (i / n * n + j / n) * s + i % n * n + j % n)
        })
}
