//! Project chores, run as `cargo xtask <chore>`:
//! - `bench [problem ...]`: times the engine on `../shared/xc/` problems;
//!   `bench bits [--runs N] [SET ...]` times the bit-parallel 9×9 engine
//!   beside the compact engine and the `sudoku` crate (see `bench_bits`);
//!   `bench generate [--runs N] [--quick]` times `cover generate`'s
//!   generator (see `bench_generate`);
//!   `bench play [--requests N] [--concurrency C]` puts a bounded load on
//!   `cover play`'s server over loopback (see `bench_play`);
//!   `bench propagate [--runs N] [--quick] [--gecode PATH] [sudoku|target]`
//!   times each propagation level and rule on the hard sudoku sets and
//!   target sudoku, with Gecode's sudoku example beside them on 25×25 when
//!   given (see `bench_propagate`);
//!   `bench radar [--quick]` times `cover radar`'s solver (see `bench_radar`);
//!   `bench sudoku [--runs N] [SET ...]` times `cover sudoku` on the puzzle
//!   sets of `../shared/datasets/` (see `bench_sudoku`);
//!   `bench target [--quick]` times `cover target`'s branch and bound
//!   (see `bench_target`);
//!   `bench xcc [--runs N] [--quick] [--bin PATH] [--dlx2 PATH] [--dlx3 PATH]
//!   [FILE ...]` times `cover exact` on the colour and multiplicity files
//!   against Knuth's DLX2 and DLX3, when given (see `bench_xcc`).
//! - `fixtures`: regenerates the generated files of `fixtures/`.
//! - `fuzz [--seconds N] [--seed S] [--workers W] [--bin PATH] [--mem-mib M]
//!   [--timeout-ms T] [--out DIR] [--command NAME ...]`: feeds mutated
//!   fixtures and random bytes to every command of the `cover` binary and
//!   fails on crashes, hangs, memory past the cap (see `fuzz`).
//! - `soak [--quick] [--bin PATH] [--set NAME ...]`: runs every dataset of
//!   `../shared/datasets/` through every engine, one thread and all cores,
//!   and checks each answer without trusting the solver (see `soak`).
//! - `verify [--bin PATH] [family ...]`: builds the `cover` binary (or uses
//!   PATH), runs it on every fixture and checks its answers with checkers
//!   that trust neither the engine nor the parsers.
use anyhow::{bail, Result};

mod baseline;
mod bench;
mod bench_bits;
mod bench_generate;
mod bench_play;
mod bench_propagate;
mod bench_radar;
mod bench_shard;
mod bench_sudoku;
mod bench_target;
mod bench_xcc;
mod contest_program;
mod fixtures;
mod fixtures_xcc;
mod fuzz;
mod soak;
mod tidy;
mod verify;
mod verify_generate;
mod verify_queens;
mod verify_radar;
mod verify_sudoku;
mod verify_target;
mod verify_threads;
mod verify_xcc;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") if args.get(1).map(String::as_str) == Some("bits") => {
            bench_bits::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("generate") => {
            bench_generate::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("play") => {
            bench_play::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("propagate") => {
            bench_propagate::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("radar") => {
            bench_radar::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("shard") => {
            bench_shard::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("sudoku") => {
            bench_sudoku::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("target") => {
            bench_target::run(&args[2..])
        }
        Some("bench") if args.get(1).map(String::as_str) == Some("xcc") => {
            bench_xcc::run(&args[2..])
        }
        Some("bench") => bench::run(&args[1..]),
        Some("fixtures") => fixtures::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("soak") => soak::run(&args[1..]),
        Some("verify") => verify::run(&args[1..]),
        _ => bail!("usage: cargo xtask <bench|fixtures|fuzz|soak|verify>"),
    }
}
