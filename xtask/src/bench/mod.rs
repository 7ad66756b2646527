//! `cargo xtask bench`: the workloads that time the engines, each in its
//! own file, all on the one [`harness`] (timing by turns, best of N,
//! tables, the runner of other programs, the catalogue of datasets).
//! `cargo xtask bench` alone, or with names of problems, runs [`xc`];
//! `cargo xtask bench help` lists them all.
//!
//! A new workload is a file here with `pub fn run(args: &[String])` and
//! one entry in [`WORKLOADS`]; a new dataset, one entry in the harness's
//! catalogue. Workloads share only baselines: `xc`'s contest DLX and the
//! contest program for `sudoku`, `target`'s random grids for `propagate`.

use anyhow::Result;

use crate::flags::{self, Command};

mod bits;
mod contest_program;
mod generate;
pub mod harness;
mod play;
mod propagate;
mod radar;
mod rate;
mod sat;
mod shard;
mod sudoku;
mod target;
mod variant_peers;
mod variants;
mod xc;
mod xcc;

/// Every workload, in the order of the help.
pub const WORKLOADS: &[Command] = &[
    Command {
        name: "xc",
        usage: "[PROBLEM ...]",
        summary: "counts ../shared/xc problems beside DLX1's counts and the contest DLX",
        run: xc::run,
    },
    Command {
        name: "bits",
        usage: "[--runs N] [SET ...]",
        summary: "the bit-parallel 9×9 engines beside the compact engine and the sudoku crate",
        run: bits::run,
    },
    Command {
        name: "sudoku",
        usage: "[--runs N] [--bin PATH] [SET ...]",
        summary: "`cover sudoku` on the dataset sets, whole process, beside the contest program",
        run: sudoku::run,
    },
    Command {
        name: "propagate",
        usage: "[--runs N] [--quick] [--gecode PATH [--gecode-seconds S]] [sudoku|target]",
        summary: "each propagation level and rule, on sudoku sets and target sudoku",
        run: propagate::run,
    },
    Command {
        name: "radar",
        usage: "[--quick]",
        summary: "`cover radar`'s solver against the contest program's on random cases",
        run: radar::run,
    },
    Command {
        name: "target",
        usage: "[--count N] [--seed S] [--givens A-B] [--runs N] [--quick]",
        summary: "`cover target`'s branch and bound on random puzzles with few givens",
        run: target::run,
    },
    Command {
        name: "generate",
        usage: "[--runs N] [--quick]",
        summary: "minimal puzzles per second made by `cover generate`'s generator",
        run: generate::run,
    },
    Command {
        name: "play",
        usage: "[--new-games N] [--requests N] [--concurrency C]",
        summary: "a bounded load on `cover play`'s server over loopback",
        run: play::run,
    },
    Command {
        name: "shard",
        usage: "[FILE ...] [--queens N ...] [--shards N] [--runs N] [--forecast N] [--sample K] \
                [--bin PATH]",
        summary: "`cover shard` split, run and merged, against one process and GNU parallel",
        run: shard::run,
    },
    Command {
        name: "xcc",
        usage: "[--runs N] [--quick] [--bin PATH] [--dlx2 PATH] [--dlx3 PATH] [FILE ...]",
        summary: "`cover exact` on the colour and multiplicity files beside Knuth's DLX2, DLX3",
        run: xcc::run,
    },
    Command {
        name: "variants",
        usage: "[--count N] [--seed S] [--runs N] [--peer-seconds S] [SET ...]",
        summary: "the variant solver on generated jigsaw, X, killer, anti-knight and thermo sets, \
                  beside sudoku-variants and sigh's Interactive Sudoku Solver",
        run: variants::run,
    },
    Command {
        name: "sat",
        usage: "[--engine E] [--cadical PATH] [--kissat PATH] [--peer-seconds S] [--bin PATH] [SET ...]",
        summary: "`cover sudoku` one puzzle at a time on the 25×25 that defeat search, beside \
                  CaDiCaL and Kissat on its CNF",
        run: sat::run,
    },
    Command {
        name: "rate",
        usage: "[--quick] [--sample N] [--serate JAR] | --complete [--quick]",
        summary: "the human-logic rating against SE's on se_rated.txt, beside SE's serate; \
                  --complete: every path checked against the solution",
        run: rate::run,
    },
];

/// `cargo xtask bench [WORKLOAD] ...`: the workload named, else `xc` on
/// the problems named.
pub fn run(args: &[String]) -> Result<()> {
    let named =
        |word: &String| flags::is_help(word) || WORKLOADS.iter().any(|w| w.name == word.as_str());
    match args.first() {
        Some(word) if named(word) => flags::dispatch("cargo xtask bench", WORKLOADS, args),
        _ => xc::run(args),
    }
}
