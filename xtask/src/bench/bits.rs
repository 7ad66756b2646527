//! `cargo xtask bench bits`: the bit-parallel 9×9 engines (triad in each
//! flavour of vectors here, bands) beside the compact exact-cover engine
//! and the `sudoku` crate (the peer), by turns on one thread, first
//! solution and solve-and-prove-unique, on the hard 9×9 sets; µs per
//! puzzle and guesses, each against the peer. Every engine must count one
//! solution, and the triad flavours' first solutions must agree and pass
//! [`check_solution`]. Details: `docs/measurements.md`.

use std::cell::Cell;

use anyhow::{bail, Result};
use cover_check::sudoku::check_solution;
use cover_models::sudoku::{BandSolver, Engine, Solver, TriadSolver, Vectors};
use dlx_core::{Control, Limits};

use super::harness::{by_turns, fixed, micros_per, pick, sudoku_set, Table};
use crate::flags::Flags;

const SETS: &[&str] = &[
    "forum_hardest_1905_11plus",
    "magictour_top1465",
    "forum_hardest_1106",
    "17_clue",
];

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--runs"], &[])?;
    let runs: usize = flags.parsed("--runs", 3)?;
    let sets = pick(flags.positional(), SETS)?;
    println!("bench bits: one thread, best of {runs}, the engines by turns; µs per puzzle");
    for name in sets {
        let Some(loaded) = sudoku_set(name).load(None)? else {
            continue;
        };
        let puzzles: Vec<_> = loaded
            .puzzles
            .into_iter()
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
            let mut bands = BandSolver::new();
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
                if let Err(e) = check_solution(grid, first, 9) {
                    bail!("{name}: a bad grid: {e}");
                }
            }
            assert!(
                firsts.iter().all(|f| f == &firsts[0]),
                "{name}: the flavours differ"
            );
            let peer = *times.last().expect("the peer runs");
            println!("{name} ({n} puzzles), {mode}:");
            let table = Table::new("engine -16|µs/puzzle 10|/ sudoku 9|guesses 9");
            for ((engine, time), guesses) in names.iter().zip(&times).zip(&guesses) {
                let guesses = match guesses.get() {
                    0 => String::new(),
                    total => fixed(total as f64 / n as f64, 1),
                };
                table.row(&[
                    engine,
                    &fixed(micros_per(*time, n), 2),
                    &fixed(time.as_secs_f64() / peer.as_secs_f64(), 3),
                    &guesses,
                ]);
            }
        }
    }
    Ok(())
}
