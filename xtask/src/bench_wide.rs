//! `cargo xtask bench wide`: the bit-parallel engine of the larger sizes
//! (`cover_models::sudoku::WideSolver`, 16×16 on `u64` bands and 25×25 on
//! `u128`) side by side with the compact exact-cover engine, with the
//! propagation `cover sudoku` gives these sizes by default (`full`) and
//! without any, in this process, on one thread, on the 16×16 and 25×25
//! sets of `../shared/datasets/`. It is the measurement behind `--engine
//! auto`'s choice per size.
//!
//! Two modes per set: the first solution and solve-and-prove-unique
//! (count up to 2). Every search is bounded (`--budget`, default one
//! million guesses or nodes, so that the hard 25×25 puzzles end); a row
//! says how many puzzles each engine settled within it and the time of
//! the whole pass, best of `--runs` (default 3), the engines taking turns
//! within each run. Each solution is checked after the clock stops by a
//! checker that trusts no engine, and the engines must agree on every
//! puzzle both settle.
//!
//! The last column is the bits engine's time over the compact engine's at
//! the propagation level `cover sudoku` uses for the size by default.
//! Random 4×4 puzzles are made here (no dataset has them).
//!
//! Usage: `cargo xtask bench wide [--runs N] [--budget NODES] [16x16|25x25 ...]`.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use cover_models::sudoku::{
    Bits16, Bits25, Bits4, Engine, Level, Puzzle, Puzzles, Solver, Symbols,
};
use dlx_core::{Control, Limits, Outcome};

use crate::bench::shared_dir;
use crate::bench_bits::by_turns;

struct Set {
    name: &'static str,
    /// Files under `../shared/datasets/`; none for puzzles made here.
    files: &'static [&'static str],
    symbols: &'static str,
}

const SETS: &[Set] = &[
    Set {
        name: "4x4",
        files: &[],
        symbols: "1234",
    },
    Set {
        name: "16x16",
        files: &["sudoku16/gecode_16x16.txt", "sudoku16/satsolvers_16x16.txt"],
        symbols: "123456789ABCDEFG",
    },
    Set {
        name: "25x25",
        files: &["sudoku25/gecode_25x25.txt"],
        symbols: "123456789ABCDEFGHIJKLMNOP",
    },
];

/// What one engine did with one puzzle.
#[derive(Debug, Clone, Default)]
struct Answer {
    /// Solutions found (at most the mode's limit).
    solutions: u64,
    /// Whether the search ended by itself or at the limit (not the budget).
    settled: bool,
    /// Guesses (bits) or nodes (compact).
    work: u64,
    /// The first solution.
    first: Option<Vec<u8>>,
}

pub fn run(args: &[String]) -> Result<()> {
    let usage = "usage: cargo xtask bench wide [--runs N] [--budget NODES] [16x16|25x25 ...]";
    let (mut runs, mut budget) = (3usize, 1_000_000u64);
    let mut names = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().context(usage)?.parse().context(usage)?,
            "--budget" => budget = args.next().context(usage)?.parse().context(usage)?,
            name if SETS.iter().any(|s| s.name == name) => names.push(name.to_owned()),
            _ => bail!("{usage}"),
        }
    }
    let dir = shared_dir().join("datasets");
    println!(
        "bench wide: one thread, best of {runs}, at most {budget} guesses or nodes a search; \
         ms per pass over the set"
    );
    println!(
        "{:<8} {:>4} {:<7} {:>22} {:>22} {:>22} {:>10}",
        "set", "n", "mode", "bits (settled, ms)", "compact full", "compact none", "bits/default"
    );
    'sets: for set in SETS {
        if !names.is_empty() && !names.iter().any(|n| n == set.name) {
            continue;
        }
        let mut text = Vec::new();
        if set.files.is_empty() {
            text = random_4x4(20_000);
        }
        for file in set.files {
            let path = dir.join(file);
            match std::fs::read(&path) {
                Ok(bytes) => text.extend(bytes),
                Err(_) => {
                    println!("{:<8} (not here: {})", set.name, path.display());
                    continue 'sets;
                }
            }
        }
        let symbols = Symbols::new(set.symbols).map_err(|e| anyhow::anyhow!("{e}"))?;
        let puzzles: Vec<Puzzle> = Puzzles::new(&text[..], Some(symbols))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("{}: {e}", set.name))?;
        if puzzles.is_empty() {
            continue;
        }
        let side = puzzles[0].size.side();
        // The column of the level `cover sudoku` uses by default for the
        // size (`--propagate auto`).
        let default = if Level::Auto.rules_for(puzzles[0].size).is_some() {
            1
        } else {
            2
        };
        for (mode, limit) in [("first", 1u64), ("unique", 2)] {
            let limits = Limits {
                max_solutions: Some(limit),
                node_budget: Some(budget),
                ..Limits::none()
            };
            let mut bits_answers = vec![Answer::default(); puzzles.len()];
            let (mut b4, mut b16, mut b25) = (Bits4::new(), Bits16::new(), Bits25::new());
            let mut bits_pass = || {
                for (puzzle, answer) in puzzles.iter().zip(&mut bits_answers) {
                    let mut first = None;
                    let visit = |grid: &[u8]| {
                        first.get_or_insert_with(|| grid.to_vec());
                        Control::Continue
                    };
                    let (outcome, stats) = match side {
                        4 => b4.search(&puzzle.cells, &limits, visit),
                        16 => b16.search(&puzzle.cells, &limits, visit),
                        _ => b25.search(&puzzle.cells, &limits, visit),
                    };
                    *answer = Answer {
                        solutions: stats.solutions,
                        settled: outcome != Outcome::NodeBudget,
                        work: stats.guesses,
                        first,
                    };
                }
            };
            let compact = |level: Level| {
                let mut solver = Solver::new(Engine::Compact);
                solver.propagate(level);
                solver.max_nodes(Some(budget));
                solver
            };
            let (mut full, mut none) = (compact(Level::Full), compact(Level::None));
            let mut full_answers = vec![Answer::default(); puzzles.len()];
            let mut none_answers = full_answers.clone();
            let mut passes: [Box<dyn FnMut()>; 3] = [
                Box::new(&mut bits_pass),
                Box::new(|| compact_pass(&mut full, &puzzles, limit, &mut full_answers)),
                Box::new(|| compact_pass(&mut none, &puzzles, limit, &mut none_answers)),
            ];
            let times = by_turns(runs, 1, &mut passes);
            drop(passes);
            for (i, puzzle) in puzzles.iter().enumerate() {
                let answers = [&bits_answers[i], &full_answers[i], &none_answers[i]];
                for answer in answers {
                    if let Some(grid) = &answer.first {
                        if !is_solution_of(puzzle.size.box_side(), &puzzle.cells, grid) {
                            bail!("{}: puzzle {}: a bad grid", set.name, i + 1);
                        }
                    }
                }
                let settled: Vec<_> = answers.iter().filter(|a| a.settled).collect();
                if settled.windows(2).any(|w| w[0].solutions != w[1].solutions) {
                    bail!(
                        "{}: puzzle {}: the engines count otherwise",
                        set.name,
                        i + 1
                    );
                }
            }
            let column = |answers: &[Answer], time: Duration| {
                let settled = answers.iter().filter(|a| a.settled).count();
                let work: u64 = answers.iter().map(|a| a.work).sum();
                format!(
                    "{settled:>3} {:>9.2} {:>7}",
                    time.as_secs_f64() * 1e3,
                    short(work)
                )
            };
            println!(
                "{:<8} {:>4} {mode:<7} {:>22} {:>22} {:>22} {:>10.3}",
                set.name,
                puzzles.len(),
                column(&bits_answers, times[0]),
                column(&full_answers, times[1]),
                column(&none_answers, times[2]),
                times[0].as_secs_f64() / times[default].as_secs_f64(),
            );
        }
        println!(
            "{:<8} columns: puzzles settled within the budget, ms for the pass, guesses (bits) \
             or nodes (compact) in all",
            ""
        );
    }
    Ok(())
}

/// The compact engine on every puzzle, up to `limit` solutions each.
fn compact_pass(solver: &mut Solver, puzzles: &[Puzzle], limit: u64, answers: &mut [Answer]) {
    for (puzzle, answer) in puzzles.iter().zip(answers) {
        let mut first = None;
        let report = solver.solve(puzzle, &Limits::solutions(limit), |grid| {
            first.get_or_insert_with(|| grid.to_vec());
            Control::Continue
        });
        *answer = Answer {
            solutions: report.stats.solutions,
            settled: report.outcome != Outcome::NodeBudget,
            work: report.stats.nodes,
            first,
        };
    }
}

/// `count` 4×4 puzzles, one per line: a valid grid (a pattern with its
/// digits, rows and columns shuffled within their bands and stacks, and
/// the bands and stacks swapped at random), each cell kept with
/// probability 3/8. Some have one solution, most several; the same each
/// run (a fixed-seed generator).
fn random_4x4(count: usize) -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = Vec::new();
    for _ in 0..count {
        let r = next();
        let flip = |bit: u32, i: usize| if r >> bit & 1 == 1 { i ^ 1 } else { i };
        let order =
            |base: u32, i: usize| flip(base, i / 2) * 2 + flip(base + 1 + (i / 2) as u32, i % 2);
        let mut digits = [b'1', b'2', b'3', b'4'];
        for i in (1..4).rev() {
            digits.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let keep = next();
        for cell in 0..16 {
            let (row, column) = (order(0, cell / 4), order(3, cell % 4));
            let digit = digits[(2 * (row % 2) + row / 2 + column) % 4];
            text.push(if keep >> (3 * cell) & 7 < 3 {
                digit
            } else {
                b'.'
            });
        }
        text.push(b'\n');
    }
    text
}

/// A count in few characters.
fn short(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..10_000_000 => format!("{}k", n / 1000),
        _ => format!("{}M", n / 1_000_000),
    }
}

/// A full valid grid of box side `n` that keeps the givens: every row,
/// column and box holds `1..=n²` once (trusting no engine).
pub fn is_solution_of(n: usize, puzzle: &[u8], grid: &[u8]) -> bool {
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
