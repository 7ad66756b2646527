//! `cargo xtask bench target`: `cover target`'s branch and bound on
//! seeded random puzzles of 20–23 givens (also written to
//! `target/bench-target/`), one at a time on one thread, best of `--runs`;
//! fails when one takes 0.5 s or more (the bar). Unless `--quick`,
//! the bounds are then compared on the first 12. Details:
//! `docs/measurements.md`.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::target::{format_grid, random_grid, Bound, TargetModel, TargetPuzzle, CELLS};
use dlx_core::{Limits, Solver};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::harness::{best_of, fixed, write_scratch, Table};
use crate::flags::Flags;

/// The default seed.
const SEED: u64 = 1074;
/// The default number of puzzles.
const COUNT: usize = 30;
/// The bounds are compared on this many puzzles.
const COMPARED: usize = 12;
/// The bar of the issue, per puzzle.
const BAR: Duration = Duration::from_millis(500);
/// Searches with the weaker bounds stop after this many nodes.
const NODE_BUDGET: u64 = 10_000_000;

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &["--count", "--seed", "--givens", "--runs"],
        &["--quick"],
    )?;
    let count = flags.parsed("--count", COUNT)?;
    let seed = flags.parsed("--seed", SEED)?;
    let runs = flags.parsed("--runs", 3usize)?.max(1);
    let quick = flags.switch("--quick");
    let mut givens = 20..=23;
    if let Some(range) = flags.value("--givens") {
        let (low, high) = range.split_once('-').context("--givens needs A-B")?;
        givens = low.parse()?..=high.parse()?;
        if givens.is_empty() || *givens.end() > CELLS {
            bail!("--givens {range}: expected A-B with A <= B <= {CELLS}");
        }
    }
    let puzzles = random_puzzles(seed, count, givens.clone());
    let text: Vec<String> = puzzles.iter().map(|p| format_grid(&p.cells)).collect();
    let path = write_scratch("target", "puzzles.txt", &text.join("\n"))?;
    println!(
        "bench target: {count} puzzles from random full grids, {}-{} givens, seed {seed}; \
         one thread, best of {runs} runs; written to {}",
        givens.start(),
        givens.end(),
        path.display()
    );
    let model = TargetModel::new();
    let mut solver = Solver::new(model.problem());
    let table = Table::new("puzzle 6|givens 6|score 6|nodes 12|reached 10|seconds 10");
    let mut slowest = (0, Duration::ZERO);
    let mut total = Duration::ZERO;
    let mut scores = Vec::new();
    for (index, puzzle) in puzzles.iter().enumerate() {
        let (time, answer) = best_of(runs, || {
            model.best_with(&mut solver, puzzle, Bound::Rings, &Limits::none())
        });
        total += time;
        if time > slowest.1 {
            slowest = (index + 1, time);
        }
        let score = answer.best.as_ref().map_or(-1, |b| i64::from(b.score));
        scores.push(score);
        table.row(&[
            &(index + 1),
            &given_count(puzzle),
            &score,
            &answer.stats.nodes,
            &answer.stats.solutions,
            &fixed(time.as_secs_f64(), 4),
        ]);
    }
    let met = slowest.1 < BAR;
    println!(
        "total {:.3} s, mean {:.4} s; slowest: puzzle {} in {:.4} s (bar {:.1} s: {})",
        total.as_secs_f64(),
        total.as_secs_f64() / count.max(1) as f64,
        slowest.0,
        slowest.1.as_secs_f64(),
        BAR.as_secs_f64(),
        if met { "met" } else { "MISSED" }
    );
    if !quick {
        compare_bounds(&model, &mut solver, &puzzles, &scores);
    }
    if !met {
        bail!("puzzle {} missed the bar", slowest.0);
    }
    Ok(())
}

/// Prints the nodes and time of each bound on the first [`COMPARED`]
/// puzzles, and whether each found the same score as the default.
fn compare_bounds(
    model: &TargetModel,
    solver: &mut Solver,
    puzzles: &[TargetPuzzle],
    scores: &[i64],
) {
    let compared = puzzles.len().min(COMPARED);
    println!();
    println!(
        "bounds compared on the first {compared} puzzles (a search stops after {NODE_BUDGET} nodes):"
    );
    let table = Table::new("bound -8|nodes 14|seconds 10|stopped 9|other score 12");
    let limits = Limits::none().with_node_budget(Some(NODE_BUDGET));
    for bound in Bound::ALL {
        let (mut nodes, mut stopped, mut other) = (0, 0, 0);
        let start = Instant::now();
        for (puzzle, &expected) in puzzles.iter().zip(scores).take(compared) {
            let answer = model.best_with(solver, puzzle, bound, &limits);
            nodes += answer.stats.nodes;
            if !answer.complete {
                stopped += 1;
            } else if answer.best.map_or(-1, |b| i64::from(b.score)) != expected {
                other += 1;
            }
        }
        let seconds = fixed(start.elapsed().as_secs_f64(), 3);
        table.row(&[&bound, &nodes, &seconds, &stopped, &other]);
    }
}

fn given_count(puzzle: &TargetPuzzle) -> usize {
    puzzle.cells.iter().filter(|&&d| d != 0).count()
}

/// `count` puzzles, each a random full grid keeping a random number of
/// givens from `givens` at random cells.
fn random_puzzles(
    seed: u64,
    count: usize,
    givens: std::ops::RangeInclusive<usize>,
) -> Vec<TargetPuzzle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let grid = random_grid(&mut rng);
            let keep = rng.random_range(givens.clone());
            TargetPuzzle::keeping(&grid, keep, &mut rng)
        })
        .collect()
}
