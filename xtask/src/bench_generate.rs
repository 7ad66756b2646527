//! `cargo xtask bench generate`: minimal puzzles per second made by
//! [`cover_models::generate::Generator`] (what `cover generate` runs, text
//! output: no rating), for 9×9 and 16×16, on one and on two threads.
//!
//! Puzzle `i` is made from seed 1 and `i`, so every run makes the same
//! puzzles; each figure is the best of `--runs` runs (default 3). The bar
//! of issue 7: at least 200 minimal 9×9 puzzles per second on one thread.
//!
//! 9×9 is made twice: by the generator as it is (full grids and
//! uniqueness checks by the bit-parallel engine) and, as the baseline in
//! the same run, by the exact-cover engines alone
//! (`Generator::with_checker(size, Engine::Compact)`, the generator before
//! issue 18). Issue 18's bar: at least 5 times the baseline's rate.
//!
//! Usage: `cargo xtask bench generate [--runs N] [--quick]` (`--quick`
//! makes a tenth of the puzzles).

use std::time::Instant;

use anyhow::{bail, Context, Result};
use cover_models::generate::{Generator, Request};
use cover_models::sudoku::{Engine, Size};
use rayon::prelude::*;

/// The bar: minimal 9×9 puzzles per second on one thread.
const BAR_9X9_ONE_THREAD: f64 = 200.0;

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
        (0..count)
            .into_par_iter()
            .map_init(
                || Generator::with_checker(size, checker).expect("a generated size"),
                |generator, index| generator.generate(&request, 1, index).minimal,
            )
            .filter(|&m| m)
            .count()
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

/// `cargo xtask bench generate [--runs N] [--quick]`.
pub fn run(args: &[String]) -> Result<()> {
    let mut runs = 3;
    let mut scale = 1;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().context("--runs needs N")?.parse()?,
            "--quick" => scale = 10,
            other => {
                bail!("unknown argument {other:?}; usage: bench generate [--runs N] [--quick]")
            }
        }
    }
    let rows = [
        ("9×9", 3, Engine::Auto, 2000 / scale),
        ("9×9 exact cover", 3, Engine::Compact, 2000 / scale),
        ("16×16", 4, Engine::Auto, 40 / scale),
    ];
    println!("minimal puzzles per second (best of {runs} runs)");
    println!(
        "{:<20} {:>8} {:>12} {:>12}",
        "size", "puzzles", "1 thread", "2 threads"
    );
    let mut below_bar = false;
    let mut nine = [0.0f64; 2];
    for (label, box_side, checker, count) in rows {
        let size = Size::new(box_side).context("a size")?;
        let mut best = [0.0f64; 2];
        for _ in 0..runs.max(1) {
            for (slot, threads) in [1, 2].into_iter().enumerate() {
                best[slot] = best[slot].max(rate(size, checker, count, threads)?);
            }
        }
        println!(
            "{:<20} {:>8} {:>12.1} {:>12.1}",
            label, count, best[0], best[1]
        );
        match (box_side, checker) {
            (3, Engine::Auto) => {
                nine = best;
                below_bar |= best[0] < BAR_9X9_ONE_THREAD;
            }
            (3, _) => println!(
                "{:<20} {:>8} {:>11.2}× {:>11.2}×",
                "  bits / exact cover",
                "",
                nine[0] / best[0],
                nine[1] / best[1]
            ),
            _ => {}
        }
    }
    if below_bar {
        bail!("below the bar: {BAR_9X9_ONE_THREAD} minimal 9×9 puzzles per second on one thread");
    }
    println!("bar: ≥ {BAR_9X9_ONE_THREAD} minimal 9×9 per second on one thread: met");
    Ok(())
}
