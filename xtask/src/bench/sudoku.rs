//! `cargo xtask bench sudoku`: times `cover sudoku` on the puzzle sets of
//! `../shared/datasets/` (when present), whole process as a user runs it,
//! and prints µs per puzzle.
//!
//! For each set: both engines (`compact`, the default, and `linked`, the
//! reference), first-solution mode and `--count --limit 2` (uniqueness
//! checking), one thread and all threads. Each time is the best of
//! `--runs` runs (default 3); next to the one-thread time, the mean
//! processor time of those runs (Linux), which a busy machine disturbs
//! less than the clock. The compact engine's one-thread first-solution
//! times are set against the bar of issue 3 (half the contest program's
//! time on the hard sets and 16×16, a fifth on 17_clue, as measured there).
//! Because this machine's speed is not the issue's, they are also set
//! against the contest program run here:
//! - the seed's program itself ([`ContestProgram`]: compiled from
//!   `../shared/seeds/` when a C++ compiler is here), whole process, run by
//!   turns with `cover` on the same puzzles: the bar's own measure;
//! - the contest template's search ported to Rust and timed in this
//!   process ([`contest_here`]; without reading and printing), which needs
//!   nothing but this repository.
//!
//! Answers are checked on the way: every puzzle of these sets has exactly
//! one solution, so counting must print 1 for each, both engines must
//! print the same solutions, and so must the contest program.
//!
//! Usage: `cargo xtask bench sudoku [--runs N] [--bin PATH] [SET ...]`,
//! SET one of the names below (default: all).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::sudoku::Puzzle;

use super::contest_program::ContestProgram;
use super::harness::{
    self, best_of, cover_binary, fixed, micros_per, sudoku_set, SudokuSet, Table,
};
use super::xc::Classic;
use crate::flags::Flags;
use crate::paths;

/// One benchmark set: puzzles of a set of the catalogue.
struct Set {
    name: &'static str,
    /// The set of the catalogue.
    of: &'static str,
    /// Use only the first this many puzzles.
    first: Option<usize>,
    /// The contest program's µs per puzzle measured in issue 3.
    contest_us: f64,
    /// The bar: at most this fraction of the contest program's time.
    bar_fraction: f64,
}

const SETS: &[Set] = &[
    Set {
        name: "magictour_top1465",
        of: "magictour_top1465",
        first: None,
        contest_us: 131.7,
        bar_fraction: 0.5,
    },
    Set {
        name: "forum_hardest_1106",
        of: "forum_hardest_1106",
        first: None,
        contest_us: 825.0,
        bar_fraction: 0.5,
    },
    Set {
        name: "17_clue_5000",
        of: "17_clue",
        first: Some(5000),
        contest_us: 45.5,
        bar_fraction: 0.2,
    },
    Set {
        name: "forum_hardest_1905_5000",
        of: "forum_hardest_1905_11plus",
        first: Some(5000),
        contest_us: 452.0,
        bar_fraction: 0.5,
    },
    Set {
        name: "16x16",
        of: "16x16",
        first: None,
        contest_us: 1229.0,
        bar_fraction: 0.5,
    },
];

/// One way of running the binary.
#[derive(Clone, Copy)]
struct Run<'a> {
    engine: &'a str,
    count: bool,
    jobs: usize,
}

/// Runs `cover sudoku` on `input`; returns its standard output and time.
fn time_once(
    cover: &Path,
    set: &SudokuSet,
    run: Run<'_>,
    input: &str,
) -> Result<(String, Duration)> {
    let mut args = vec!["sudoku".to_owned(), format!("--engine={}", run.engine)];
    args.push(format!("--jobs={}", run.jobs));
    if run.count {
        args.extend(["--count", "--limit", "2"].map(String::from));
    }
    if let Some(symbols) = set.symbols {
        args.push(format!("--symbols={symbols}"));
    }
    let done = harness::run(cover, &args, input.as_bytes(), &[0])?;
    Ok((done.stdout, done.elapsed))
}

/// The time for `copies` one-thread runs started at once, best of `runs`:
/// what the machine gives to independent processes, the most any
/// multi-threaded run can hope for (on a machine whose cores share
/// caches, or are hyperthreads, two at once are less than twice one).
fn time_copies(
    cover: &Path,
    set: &SudokuSet,
    run: Run<'_>,
    input: &str,
    copies: usize,
    runs: usize,
) -> Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..copies)
                .map(|_| scope.spawn(|| time_once(cover, set, run, input)))
                .collect();
            for handle in handles {
                handle
                    .join()
                    .map_err(|_| anyhow::anyhow!("a timing thread panicked"))??;
            }
            anyhow::Ok(())
        })?;
        best = best.min(start.elapsed());
    }
    Ok(best)
}

/// The processor time (user and system) of this process's finished
/// children, in seconds, from `/proc/self/stat` (Linux; `None` elsewhere).
/// Its unit is the clock tick, 1/100 s.
fn children_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which ends with the last `)`:
    // state is field 3, cutime 16 and cstime 17.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k - 3)?.parse::<f64>().ok();
    Some((ticks(16)? + ticks(17)?) / 100.0)
}

/// The best time of `runs` runs, the mean processor time of a run (when
/// known), and the output of the last.
fn time_best(
    cover: &Path,
    set: &SudokuSet,
    run: Run<'_>,
    input: &str,
    runs: usize,
) -> Result<(String, Duration, Option<f64>)> {
    let mut best = Duration::MAX;
    let mut output = String::new();
    let cpu_before = children_cpu_seconds();
    for _ in 0..runs {
        let (out, elapsed) = time_once(cover, set, run, input)?;
        best = best.min(elapsed);
        output = out;
    }
    let cpu = match (cpu_before, children_cpu_seconds()) {
        (Some(before), Some(after)) => Some((after - before) / runs as f64),
        _ => None,
    };
    Ok((output, best, cpu))
}

/// The contest program's search, timed in this process (no reading or
/// printing): for each puzzle, the contest template's matrix (one row for
/// a given cell, one per digit for an empty one) built into reused arrays
/// ([`Classic::reset`]) and searched to the first solution. Returns µs per
/// puzzle, best of `runs`.
fn contest_here(set: &Set, puzzles: &[Puzzle], runs: usize) -> Result<f64> {
    let mut classic = Classic::new(&dlx_core::Problem::builder(0, 0).build());
    let (best, found) = best_of(runs, || {
        puzzles.iter().all(|puzzle| {
            let side = puzzle.size.side();
            let n = puzzle.size.box_side();
            let cells = side * side;
            classic.reset(4 * cells, 4 * cells);
            for (cell, &given) in puzzle.cells.iter().enumerate() {
                let (r, c) = (cell / side, cell % side);
                let b = r / n * n + c / n;
                let digits = match given {
                    0 => 0..side,
                    d => d as usize - 1..d as usize,
                };
                for d in digits {
                    let items = [cell, cells + r * side + d, 2 * cells + c * side + d];
                    classic.add_row(items.into_iter().chain([3 * cells + b * side + d]));
                }
            }
            classic.count_to(1) == 1
        })
    });
    if !found {
        bail!("{}: the contest search found no solution", set.name);
    }
    Ok(micros_per(best, puzzles.len()))
}

/// The seed's contest program against `cover`, one thread, first
/// solution, run by turns so that both see the same machine: the best
/// time of each in µs per puzzle, and whether the program's solutions are
/// `ours`.
fn contest_program_vs_cover(
    program: &ContestProgram,
    cover: &Path,
    set: &SudokuSet,
    (input, puzzles): (&str, &[Puzzle]),
    ours: &[Puzzle],
    runs: usize,
) -> Result<(f64, f64, bool)> {
    let contest_input = program.input(puzzles.iter().map(|p| p.cells.as_slice()));
    let one = Run {
        engine: "compact",
        count: false,
        jobs: 1,
    };
    let (mut contest, mut compact) = (Duration::MAX, Duration::MAX);
    let mut printed = String::new();
    for _ in 0..runs {
        let (output, elapsed) = program.run(&contest_input)?;
        contest = contest.min(elapsed);
        printed = output;
        compact = compact.min(time_once(cover, set, one, input)?.1);
    }
    let solutions = program.solutions(&printed);
    let same =
        solutions.len() == ours.len() && solutions.iter().zip(ours).all(|(s, o)| *s == o.cells);
    let us = |d: Duration| micros_per(d, puzzles.len());
    Ok((us(contest), us(compact), same))
}

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--runs", "--bin"], &[])?;
    let runs: usize = flags.parsed("--runs", 3)?;
    let names = flags.positional();
    if let Some(other) = names.iter().find(|n| !SETS.iter().any(|s| &s.name == n)) {
        let known: Vec<&str> = SETS.iter().map(|s| s.name).collect();
        bail!("unknown set {other:?}; sets: {}", known.join(", "));
    }
    if !paths::datasets().is_dir() {
        println!(
            "bench sudoku: {} is not here; nothing to time",
            paths::datasets().display()
        );
        return Ok(());
    }
    let cover = cover_binary(&flags)?;
    // The seeds' own programs, when the seeds and a C++ compiler are here.
    let build_dir = std::env::current_exe()?
        .parent()
        .context("xtask has a directory")?
        .join("contest");
    let mut programs = Vec::new();
    for side in [9, 16] {
        match ContestProgram::build(&paths::shared().join("seeds"), &build_dir, side)? {
            Some(program) => programs.push(program),
            None => println!(
                "bench sudoku: no contest program for {side}×{side} (no seed or no C++ \
                 compiler); only the in-process port is timed"
            ),
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "bench sudoku: µs per puzzle, whole process, best of {runs} (wall clock); {threads} \
         threads for `all`;\n`cpu`: processor time of the one-thread runs (mean, 10 ms \
         ticks), steadier than the clock on a busy machine"
    );
    let table = Table::new(&[
        ("set", -24),
        ("puzzles", 6),
        ("engine", -8),
        ("mode", -7),
        ("1 thread", 9),
        ("cpu", 7),
        ("all", 9),
        ("speedup", 7),
        ("bar", 13),
    ]);
    let mut failures = Vec::new();
    for set in SETS {
        if !names.is_empty() && !names.iter().any(|n| n == set.name) {
            continue;
        }
        let of = sudoku_set(set.of);
        let Some(loaded) = of.load(set.first)? else {
            continue;
        };
        let (input, parsed) = (loaded.text, loaded.puzzles);
        let puzzles = parsed.len();
        let contest = contest_here(set, &parsed, runs)?;
        let mut first_outputs = Vec::new();
        let mut bars = Vec::new();
        let mut single = [[0.0f64; 2]; 2];
        let verdict = |ratio: f64| {
            if ratio <= set.bar_fraction {
                "ok"
            } else {
                "OVER"
            }
        };
        for (e, engine) in ["compact", "linked"].into_iter().enumerate() {
            for (m, count) in [false, true].into_iter().enumerate() {
                let mode = if count { "count≤2" } else { "first" };
                let one = Run {
                    engine,
                    count,
                    jobs: 1,
                };
                let (output, one_time, one_cpu) = time_best(&cover, of, one, &input, runs)?;
                let all = Run {
                    jobs: threads,
                    ..one
                };
                let (all_output, all_time, _) = time_best(&cover, of, all, &input, runs)?;
                let what = format!("{}: {engine} {mode}", set.name);
                if all_output != output {
                    failures.push(format!("{what}: threads change output"));
                }
                let lines = output.lines().count();
                if lines != puzzles {
                    failures.push(format!("{what}: {lines} lines for {puzzles} puzzles"));
                }
                if count {
                    if let Some(bad) = output.lines().position(|l| l != "1") {
                        failures.push(format!("{what}: puzzle {} does not count 1", bad + 1));
                    }
                } else {
                    first_outputs.push(output);
                }
                let us = micros_per(one_time, puzzles);
                single[e][m] = us;
                let headline = engine == "compact" && !count;
                let limit = set.contest_us * set.bar_fraction;
                let bar = match headline {
                    true if us <= limit => format!("≤{limit:.1} ok"),
                    true => format!("≤{limit:.1} OVER"),
                    false => String::new(),
                };
                if headline && threads > 1 {
                    let copies = time_copies(&cover, of, one, &input, threads, runs)?;
                    let capacity = threads as f64 * one_time.as_secs_f64() / copies.as_secs_f64();
                    let speedup = one_time.as_secs_f64() / all_time.as_secs_f64();
                    bars.push(format!(
                        "{threads} one-thread processes at once: {capacity:.2}× one's throughput \
                         (the machine's limit for `all`, whose speedup is {speedup:.2}×: {:.0}% of it)",
                        100.0 * speedup / capacity
                    ));
                }
                if headline {
                    let ratio = us / contest;
                    bars.push(format!(
                        "contest program here (in process): {contest:.1} µs; compact, one \
                         thread, whole process: {ratio:.3} of it (bar {}) {}",
                        set.bar_fraction,
                        verdict(ratio)
                    ));
                }
                let cpu = one_cpu.map_or("-".to_owned(), |c| fixed(c * 1e6 / puzzles as f64, 1));
                table.row(&[
                    &set.name,
                    &puzzles,
                    &engine,
                    &mode,
                    &fixed(us, 1),
                    &cpu,
                    &fixed(micros_per(all_time, puzzles), 1),
                    &format!("{:.2}×", one_time.as_secs_f64() / all_time.as_secs_f64()),
                    &bar,
                ]);
            }
        }
        let side = parsed.first().map_or(0, |p| p.size.side());
        if let (Some(program), Some(ours)) = (
            programs.iter().find(|p| p.side() == side),
            first_outputs.first(),
        ) {
            let ours = of.parse(ours)?;
            let (contest, compact, same) =
                contest_program_vs_cover(program, &cover, of, (&input, &parsed), &ours, runs)?;
            let ratio = compact / contest;
            bars.push(format!(
                "contest program itself ({}), whole process: {contest:.1} µs; compact, one \
                 thread, run by turns with it: {compact:.1} µs, {ratio:.3} of it (bar {}) {}",
                program.seed,
                set.bar_fraction,
                verdict(ratio)
            ));
            if !same {
                failures.push(format!(
                    "{}: the contest program prints other solutions than cover",
                    set.name
                ));
            }
        }
        if first_outputs.windows(2).any(|w| w[0] != w[1]) {
            failures.push(format!(
                "{}: the engines print different solutions",
                set.name
            ));
        }
        for bar in &bars {
            println!("{:<24} {bar}", "");
        }
        println!(
            "{:<24} linked/compact: {:.2}× (first), {:.2}× (count≤2); compact count≤2/first: {:.2}",
            "",
            single[1][0] / single[0][0],
            single[1][1] / single[0][1],
            single[0][1] / single[0][0],
        );
    }
    if !failures.is_empty() {
        for failure in &failures {
            println!("FAIL {failure}");
        }
        bail!("{} checks failed", failures.len());
    }
    Ok(())
}
