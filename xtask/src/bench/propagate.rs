//! `cargo xtask bench propagate`: what each propagation level, and each
//! rule alone, does to `cover sudoku`'s search (the 25×25, 16×16 and hard
//! 9×9 sets; every solution checked with [`check_solution`]) and to
//! `cover target`'s branch and bound (random puzzles of 6 to 12 givens,
//! the plain search's score must match), in this process on one thread,
//! the levels of a set by turns. With `--gecode PATH`, Gecode's own sudoku
//! example ([`Gecode`]) runs the 25×25 puzzles too. Details:
//! `docs/measurements.md`.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_check::sudoku::check_solution;
use cover_models::sudoku::logic::Rules;
use cover_models::sudoku::{Engine, Level, Puzzle, Solver};
use cover_models::target::{
    random_grid, score, Bound, TargetModel, TargetPuzzle, CELLS, DEFAULT_RULES,
};
use dlx_core::Limits;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::harness::{self, best_of, fixed, micros_per, pick, sudoku_set, Table};
use crate::flags::Flags;
use crate::paths;

/// One way to propagate: a name and the rules (`None`: no propagator).
struct Variant {
    name: &'static str,
    rules: Option<Rules>,
}

/// The levels, then (unless `quick`) each rule alone.
fn variants(quick: bool) -> Vec<Variant> {
    let none = Rules::NONE;
    let all = [
        ("none", None),
        ("basic", Some(Rules::BASIC)),
        ("full", Some(Rules::FULL)),
        (
            "singles",
            Some(Rules {
                singles: true,
                ..none
            }),
        ),
        (
            "box-line",
            Some(Rules {
                box_line: true,
                ..none
            }),
        ),
        ("subsets", Some(Rules { subsets: 3, ..none })),
        (
            "matching",
            Some(Rules {
                matching: true,
                ..none
            }),
        ),
        (
            "layers",
            Some(Rules {
                layers: true,
                ..none
            }),
        ),
    ];
    let count = if quick { 3 } else { all.len() };
    all.into_iter()
        .take(count)
        .map(|(name, rules)| Variant { name, rules })
        .collect()
}

/// A sudoku set of the catalogue, as this workload runs it.
struct Set {
    name: &'static str,
    of: &'static str,
    /// Time and list each puzzle alone.
    each: bool,
    /// The node budget of every level (the plain search would take hours
    /// on 25×25, and the propagated ones too long on some).
    budget: Option<u64>,
}

/// The 25×25 puzzles each alone within a budget, then the others whole.
const SETS: [Set; 4] = [
    Set {
        name: "gecode_25x25",
        of: "gecode_25x25",
        each: true,
        budget: Some(200_000),
    },
    Set::whole("16x16 (155)", "16x16"),
    Set::whole("forum_hardest_1106", "forum_hardest_1106"),
    Set::whole("magictour_top1465", "magictour_top1465"),
];

impl Set {
    /// A set timed as a whole, without a budget.
    const fn whole(name: &'static str, of: &'static str) -> Set {
        Set {
            name,
            of,
            each: false,
            budget: None,
        }
    }
}

/// What one variant did on one puzzle.
#[derive(Clone, Copy, Default)]
struct Run {
    time: Duration,
    nodes: u64,
    propagated: u64,
    solved: bool,
    gave_up: bool,
}

fn solve(solver: &mut Solver, puzzle: &Puzzle, budget: Option<u64>) -> Result<Run> {
    solver.max_nodes(budget);
    let start = Instant::now();
    let (grid, report) = solver.first(puzzle);
    let time = start.elapsed();
    let gave_up = report.outcome == dlx_core::Outcome::NodeBudget;
    if let Some(grid) = &grid {
        if let Err(e) = check_solution(&puzzle.cells, grid, puzzle.size.side()) {
            bail!(
                "a wrong solution for the puzzle of line {}: {e}",
                puzzle.line
            );
        }
    } else if !gave_up {
        bail!("no solution found for the puzzle of line {}", puzzle.line);
    }
    Ok(Run {
        time,
        nodes: report.stats.nodes,
        propagated: report.stats.propagated,
        solved: grid.is_some(),
        gave_up,
    })
}

fn solver_for(variant: &Variant) -> Solver {
    let mut solver = Solver::new(Engine::Compact);
    solver.propagate(variant.rules.map_or(Level::None, Level::Rules));
    solver
}

fn bench_sudoku(runs: usize, quick: bool, gecode: &Gecode) -> Result<()> {
    let variants = variants(quick);
    for set in SETS {
        let first = match (quick, set.each) {
            (true, false) => Some(200),
            (true, true) => Some(3),
            _ => None,
        };
        let Some(loaded) = sudoku_set(set.of).load(first)? else {
            continue;
        };
        let puzzles = loaded.puzzles;
        println!(
            "\n{}: {} puzzles, one thread, best of {runs} runs by turns",
            set.name,
            puzzles.len()
        );
        let mut solvers: Vec<Solver> = variants.iter().map(solver_for).collect();
        // results[variant][puzzle]
        let mut results = vec![vec![Run::default(); puzzles.len()]; variants.len()];
        for round in 0..runs {
            for (v, solver) in solvers.iter_mut().enumerate() {
                for (p, puzzle) in puzzles.iter().enumerate() {
                    let run = solve(solver, puzzle, set.budget)?;
                    let best = &mut results[v][p];
                    if round == 0 || run.time < best.time {
                        *best = run;
                    }
                }
            }
        }
        if set.each {
            let mut columns = "puzzle 6".to_owned();
            for variant in &variants {
                columns += &format!("|{} s / nodes 22", variant.name);
            }
            let table = Table::new(&columns);
            for p in 0..puzzles.len() {
                let cells: Vec<String> = results
                    .iter()
                    .map(|runs| match runs[p] {
                        r if r.gave_up => format!("gave up at {}", r.nodes),
                        r => format!("{:.4} / {}", r.time.as_secs_f64(), r.nodes),
                    })
                    .collect();
                let number = p + 1;
                let mut row: Vec<&dyn std::fmt::Display> = vec![&number];
                row.extend(cells.iter().map(|c| c as &dyn std::fmt::Display));
                table.row(&row);
            }
        }
        let base: Duration = results[0].iter().map(|r| r.time).sum();
        let base_gave_up = results[0].iter().any(|r| r.gave_up);
        let table = Table::new(
            "level 10|total s 10|µs/puzzle 12|nodes 12|propagated 14|\
            solved 8|vs none 10",
        );
        for (variant, results) in variants.iter().zip(&results) {
            let total: Duration = results.iter().map(|r| r.time).sum();
            let nodes: u64 = results.iter().map(|r| r.nodes).sum();
            let propagated: u64 = results.iter().map(|r| r.propagated).sum();
            let solved = results.iter().filter(|r| r.solved).count();
            let ratio = if base_gave_up || results.iter().any(|r| r.gave_up) {
                "-".to_string()
            } else {
                fixed(total.as_secs_f64() / base.as_secs_f64().max(1e-9), 3)
            };
            table.row(&[
                &variant.name,
                &fixed(total.as_secs_f64(), 4),
                &fixed(micros_per(total, puzzles.len()), 1),
                &nodes,
                &propagated,
                &format!("{solved}/{}", puzzles.len()),
                &ratio,
            ]);
        }
        if set.each {
            gecode.run(puzzles.len())?;
        }
    }
    Ok(())
}

/// The peer for the 25×25 set: a program built from Gecode's
/// `examples/sudoku.cpp` (its own model: domain-consistent `distinct` per
/// row, column and box, AFC/size branching), whose puzzles are compiled in
/// and chosen by index. Built by hand, e.g. with Debian's `libgecode-dev`:
/// `g++ -O2 -I. examples/sudoku.cpp -o gecode-sudoku -lgecodedriver
/// -lgecodegist -lgecodesearch -lgecodeminimodel -lgecodeint -lgecodeset
/// -lgecodefloat -lgecodekernel -lgecodesupport -lpthread` in a Gecode
/// checkout.
struct Gecode {
    program: Option<std::path::PathBuf>,
    /// Its time limit per puzzle.
    seconds: u64,
}

/// The Gecode example index of each puzzle of `gecode_25x25.txt`, in file
/// order (Alain Frisch's 16 minimal puzzles, then the two of examples 89
/// and 90; matched by their text).
const GECODE_25X25: [u32; 18] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 89, 90,
];

impl Gecode {
    /// Runs the example, when given, on the first `count` puzzles of the
    /// set, one at a time, and prints its time and nodes for each.
    fn run(&self, count: usize) -> Result<()> {
        let Some(program) = &self.program else {
            return Ok(());
        };
        println!(
            "gecode ({}, -time {} s): puzzle, s / nodes",
            program.display(),
            self.seconds
        );
        let (mut solved, mut total) = (0, 0.0);
        for (p, index) in GECODE_25X25.iter().take(count).enumerate() {
            let time = (self.seconds * 1000).to_string();
            let args = ["-mode", "stat", "-time", &time, &index.to_string()];
            let text = harness::run(program, &args, b"", &[])?.stdout;
            // Lines such as "runtime:      4.934 (4934.136 ms)", "solutions:    1".
            let field = |name: &str| {
                text.lines()
                    .find_map(|l| l.trim().strip_prefix(name))
                    .map(|rest| rest.trim().to_string())
            };
            let ms: f64 = field("runtime:")
                .and_then(|r| r.split('(').nth(1)?.split_whitespace().next()?.parse().ok())
                .with_context(|| format!("no runtime in {}'s output", program.display()))?;
            let nodes = field("nodes:").unwrap_or_default();
            let found = field("solutions:").is_some_and(|n| n != "0");
            total += ms / 1000.0;
            solved += usize::from(found);
            let cell = if found {
                format!("{:.4} / {nodes}", ms / 1000.0)
            } else {
                format!("gave up at {} s / {nodes}", self.seconds)
            };
            println!("{:>6} {cell:>28}", p + 1);
        }
        println!("gecode: {solved}/{count} solved, {total:.1} s in all");
        Ok(())
    }
}

/// Random target puzzles: `count` of each number of givens in `givens`,
/// the givens taken from a random full grid.
fn target_puzzles(
    seed: u64,
    givens: std::ops::RangeInclusive<usize>,
    count: usize,
) -> Vec<TargetPuzzle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut puzzles = vec![TargetPuzzle {
        cells: [0; CELLS],
        line: 1,
    }];
    for k in givens {
        for _ in 0..count {
            let grid = random_grid(&mut rng);
            let puzzle = TargetPuzzle::keeping(&grid, k, &mut rng);
            let _ = rng.random::<u8>();
            puzzles.push(TargetPuzzle { line: 1, ..puzzle });
        }
    }
    puzzles
}

fn bench_target(runs: usize, quick: bool) -> Result<()> {
    let model = TargetModel::new();
    let puzzles = target_puzzles(2009, 6..=12, if quick { 1 } else { 3 });
    let plain_budget = 2_000_000;
    println!(
        "\ntarget: the empty grid and {} puzzles of 6-12 givens (seed 2009), one thread, best of {runs}; \
         plain branch and bound within {plain_budget} nodes",
        puzzles.len() - 1
    );
    let mut propagated_solver = model.solver(Some(DEFAULT_RULES));
    let mut plain_solver = model.solver(None);
    let table =
        Table::new("puzzle 6|givens 6|score 6|seconds 10|nodes 10|plain nodes 14|plain s 10");
    let plain_limits = Limits::none().with_node_budget(Some(plain_budget));
    let mut slowest = Duration::ZERO;
    for (p, puzzle) in puzzles.iter().enumerate() {
        let (mut best_time, mut plain_time) = (Duration::MAX, Duration::MAX);
        let (mut answer, mut plain) = (None, None);
        for _ in 0..runs {
            let (time, found) = best_of(1, || {
                model.best_with(
                    &mut propagated_solver,
                    puzzle,
                    Bound::Rings,
                    &Limits::none(),
                )
            });
            (best_time, answer) = (best_time.min(time), Some(found));
            let (time, found) = best_of(1, || {
                model.best_with(&mut plain_solver, puzzle, Bound::Rings, &plain_limits)
            });
            (plain_time, plain) = (plain_time.min(time), Some(found));
        }
        let (answer, plain) = (answer.expect("ran"), plain.expect("ran"));
        let best = answer
            .best
            .as_ref()
            .context("every puzzle here has a solution")?;
        if score(&best.grid) != best.score {
            bail!(
                "target puzzle {}: the grid does not score {}",
                p + 1,
                best.score
            );
        }
        if plain.complete && plain.best.as_ref().map(|b| b.score) != Some(best.score) {
            bail!("target puzzle {}: plain search scores differently", p + 1);
        }
        slowest = slowest.max(best_time);
        let givens = puzzle.cells.iter().filter(|&&c| c != 0).count();
        let plain_nodes = if plain.complete {
            plain.stats.nodes.to_string()
        } else {
            format!(">{plain_budget}")
        };
        table.row(&[
            &(p + 1),
            &givens,
            &best.score,
            &fixed(best_time.as_secs_f64(), 4),
            &answer.stats.nodes,
            &plain_nodes,
            &fixed(plain_time.as_secs_f64(), 3),
        ]);
    }
    println!(
        "slowest {:.4} s (bar 1 s: {})",
        slowest.as_secs_f64(),
        if slowest < Duration::from_secs(1) {
            "met"
        } else {
            "MISSED"
        }
    );
    Ok(())
}

/// Runs the benchmark.
pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &["--runs", "--gecode", "--gecode-seconds"],
        &["--quick"],
    )?;
    let runs = flags.parsed("--runs", 3)?;
    let quick = flags.switch("--quick");
    let gecode = Gecode {
        program: flags.value("--gecode").map(Into::into),
        seconds: flags.parsed("--gecode-seconds", 20)?,
    };
    let parts = pick(flags.positional(), &["sudoku", "target"])?;
    if parts.contains(&"sudoku") {
        if paths::datasets().is_dir() {
            bench_sudoku(runs, quick, &gecode)?;
        } else {
            println!(
                "bench propagate: no {} here; the sudoku sets are skipped",
                paths::datasets().display()
            );
        }
    }
    if parts.contains(&"target") {
        bench_target(runs, quick)?;
    }
    Ok(())
}
