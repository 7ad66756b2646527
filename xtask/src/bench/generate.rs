//! `cargo xtask bench generate`: minimal puzzles per second made by
//! [`Generator`] (what `cover generate` runs), 9×9 and 16×16, on one and
//! two threads, best of `--runs`, beside the 9×9 generator on the
//! exact-cover engines alone (the baseline of issue 18); fails below 200
//! minimal 9×9 puzzles a second on one thread (issue 7's bar). With
//! `--difficulty`, instead: 9×9 puzzles per second for each named
//! difficulty (SE rating ranges), one thread, and the attempts each took;
//! `--write FILE` keeps them (`DIFFICULTY PUZZLE RATING` lines) for Sudoku
//! Explainer to rate (`xtask/peers/serate.sh`), whose share in range is
//! issue 34's bar (95%). Details: `docs/measurements.md`.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use cover_models::generate::{Generator, Request};
use cover_models::sudoku::human::{Difficulty, Rating as HumanRating};
use cover_models::sudoku::{Engine, Size};
use rayon::prelude::*;

use super::harness::{fixed, Table};
use crate::flags::Flags;

/// The bar: minimal 9×9 puzzles per second on one thread.
const BAR_9X9_ONE_THREAD: f64 = 200.0;

/// Issue 18's bar: the 9×9 rate against the exact-cover generator's.
const RATIO_BAR: f64 = 5.0;

/// Makes puzzles `0..count` of `size` on `threads` threads; returns
/// puzzles per second.
fn rate(size: Size, checker: Engine, count: u64, threads: usize) -> Result<f64> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let request = Request {
        rate: false,
        ..Request::new(size)
    };
    let start = Instant::now();
    let minimal = pool.install(|| {
        // One generator per thread, as `cover generate` keeps, each
        // making every `threads`-th puzzle.
        (0..threads as u64)
            .into_par_iter()
            .map(|first| {
                let mut generator =
                    Generator::with_checker(size, checker).expect("a generated size");
                (first..count)
                    .step_by(threads)
                    .filter(|&index| generator.generate(&request, 1, index).minimal)
                    .count()
            })
            .sum::<usize>()
    });
    let seconds = start.elapsed().as_secs_f64();
    if minimal as u64 != count {
        bail!(
            "{} of {count} puzzles are not minimal",
            count - minimal as u64
        );
    }
    Ok(count as f64 / seconds)
}

/// Makes `count` 9×9 puzzles of each difficulty on one thread, prints
/// their rate and attempts, and returns them (difficulty, puzzle line,
/// our rating).
fn by_difficulty(count: u64) -> Result<Vec<(Difficulty, String, HumanRating)>> {
    let size = Size::new(3).context("a size")?;
    let mut generator = Generator::new(size)?;
    let table = Table::new("difficulty -10|SE range -10|puzzles 8|per second 11|attempts 9|met 5");
    let mut made = Vec::new();
    for difficulty in Difficulty::ALL {
        let request = Request {
            rating: Some(difficulty.range()),
            rate: false,
            max_attempts: 100_000,
            ..Request::new(size)
        };
        let start = Instant::now();
        let (mut attempts, mut met) = (0u64, 0u64);
        for index in 0..count {
            let generated = generator.generate(&request, 34, index);
            attempts += u64::from(generated.attempts);
            met += u64::from(generated.target_met);
            let logic = generated.logic.context("rated by logic")?;
            made.push((difficulty, generated.puzzle_line(), logic.rating));
        }
        let seconds = start.elapsed().as_secs_f64();
        table.row(&[
            &difficulty,
            &difficulty.range(),
            &count,
            &fixed(count as f64 / seconds, 1),
            &fixed(attempts as f64 / count as f64, 1),
            &met,
        ]);
    }
    Ok(made)
}

/// `cargo xtask bench generate [--runs N] [--quick] [--difficulty [--per N]]`.
pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &["--runs", "--per", "--write"],
        &["--quick", "--difficulty"],
    )?;
    if flags.switch("--difficulty") {
        let per: u64 = flags.parsed("--per", 20)?;
        println!("9×9 puzzles by difficulty, one thread (seed 34)");
        let made = by_difficulty(per)?;
        if let Some(path) = flags.value("--write") {
            // `DIFFICULTY PUZZLE RATING` lines, for Sudoku Explainer to rate
            // (`xtask/peers/serate.sh`) and compare.
            let lines: String = made
                .iter()
                .map(|(difficulty, puzzle, rating)| format!("{difficulty} {puzzle} {rating}\n"))
                .collect();
            std::fs::write(path, lines).with_context(|| format!("writing {path}"))?;
            println!("wrote {} puzzles to {path}", made.len());
        }
        return Ok(());
    }
    let runs: usize = flags.parsed("--runs", 3)?;
    let scale = if flags.switch("--quick") { 10 } else { 1 };
    let rows = [
        ("9×9", 3, Engine::Auto, 2000 / scale),
        ("9×9 exact cover", 3, Engine::Compact, 2000 / scale),
        ("16×16", 4, Engine::Auto, 40 / scale),
    ];
    println!("minimal puzzles per second (best of {runs} runs)");
    let table = Table::new("size -20|puzzles 8|1 thread 12|2 threads 12");
    // Every run measures each row by turns, so that the machine's drift
    // falls on all of them alike.
    let mut best = [[0.0f64; 2]; 3];
    for _ in 0..runs.max(1) {
        for (row, &(_, box_side, checker, count)) in rows.iter().enumerate() {
            let size = Size::new(box_side).context("a size")?;
            for (slot, threads) in [1, 2].into_iter().enumerate() {
                best[row][slot] = best[row][slot].max(rate(size, checker, count, threads)?);
            }
        }
    }
    for ((label, _, _, count), rate) in rows.iter().zip(&best) {
        table.row(&[label, count, &fixed(rate[0], 1), &fixed(rate[1], 1)]);
    }
    let ratio = [best[0][0] / best[1][0], best[0][1] / best[1][1]];
    let times = |r: f64| format!("{r:.2}×");
    table.row(&[
        &"  bits / exact cover",
        &"",
        &times(ratio[0]),
        &times(ratio[1]),
    ]);
    println!(
        "issue 18's bar: 9×9 at least {RATIO_BAR}× the exact-cover generator's rate on one thread: {}",
        if ratio[0] >= RATIO_BAR { "met" } else { "not met" }
    );
    let below_bar = best[0][0] < BAR_9X9_ONE_THREAD;
    if below_bar {
        bail!("below the bar: {BAR_9X9_ONE_THREAD} minimal 9×9 puzzles per second on one thread");
    }
    println!("bar: ≥ {BAR_9X9_ONE_THREAD} minimal 9×9 per second on one thread: met");
    Ok(())
}
