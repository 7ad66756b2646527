//! `cargo xtask bench sudoku`: `cover sudoku` as a user runs it (whole
//! process) on sets of the catalogue: both engines, first solution and
//! `--count --limit 2`, one thread and all, best of `--runs`, µs per
//! puzzle, with the processor time of the one-thread runs (steadier on a
//! busy machine). The compact engine's one-thread time is set against the
//! bar of issue 3 (a fraction of the contest program's time), against the
//! seed's program compiled here ([`ContestProgram`], by turns with
//! `cover`) and against its search ported to Rust ([`Classic`], in this
//! process). Answers are checked: one solution each, the same from both
//! engines and the contest program. Details: `docs/measurements.md`.

use std::fmt::Display;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_models::sudoku::Puzzle;

use super::contest_program::ContestProgram;
use super::harness::{
    self, best_of, cover_binary, fixed, micros_per, pick, sudoku_set, Loaded, SudokuSet, Table,
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

const SETS: [Set; 5] = [
    Set::new("magictour_top1465", "magictour_top1465", None, 131.7, 0.5),
    Set::new("forum_hardest_1106", "forum_hardest_1106", None, 825.0, 0.5),
    Set::new("17_clue_5000", "17_clue", Some(5000), 45.5, 0.2),
    Set::new(
        "forum_hardest_1905_5000",
        "forum_hardest_1905_11plus",
        Some(5000),
        452.0,
        0.5,
    ),
    Set::new("16x16", "16x16", None, 1229.0, 0.5),
];

impl Set {
    const fn new(
        name: &'static str,
        of: &'static str,
        first: Option<usize>,
        contest_us: f64,
        bar_fraction: f64,
    ) -> Set {
        Set {
            name,
            of,
            first,
            contest_us,
            bar_fraction,
        }
    }
}

/// `cover sudoku` on the puzzles of one set.
struct Cover<'a> {
    bin: &'a Path,
    set: &'a SudokuSet,
    input: &'a str,
}

impl Cover<'_> {
    /// One run with `engine`, counting up to 2 or not, on `jobs` threads:
    /// its standard output and time.
    fn once(&self, engine: &str, count: bool, jobs: usize) -> Result<(String, Duration)> {
        let mut args = vec![
            "sudoku".into(),
            format!("--engine={engine}"),
            format!("--jobs={jobs}"),
        ];
        if count {
            args.extend(["--count", "--limit", "2"].map(String::from));
        }
        args.extend(
            self.set
                .symbols
                .map(|symbols| format!("--symbols={symbols}")),
        );
        let done = harness::run(self.bin, &args, self.input.as_bytes(), &[0])?;
        Ok((done.stdout, done.elapsed))
    }

    /// The best time of `runs` runs, the mean processor time of a run
    /// (when known), and the output of the last.
    fn best(&self, engine: &str, count: bool, jobs: usize, runs: usize) -> Result<Timed> {
        let mut best = Duration::MAX;
        let mut output = String::new();
        let cpu_before = children_cpu_seconds();
        for _ in 0..runs {
            let (out, elapsed) = self.once(engine, count, jobs)?;
            best = best.min(elapsed);
            output = out;
        }
        let cpu = match (cpu_before, children_cpu_seconds()) {
            (Some(before), Some(after)) => Some((after - before) / runs as f64),
            _ => None,
        };
        Ok((output, best, cpu))
    }

    /// The time for `copies` one-thread runs of the compact engine started
    /// at once, best of `runs`: what the machine gives to independent
    /// processes, the most any multi-threaded run can hope for (cores that
    /// share caches, or hyperthreads, make two at once less than twice one).
    fn copies(&self, copies: usize, runs: usize) -> Result<Duration> {
        let mut best = Duration::MAX;
        for _ in 0..runs {
            let start = Instant::now();
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..copies)
                    .map(|_| scope.spawn(|| self.once("compact", false, 1)))
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
}

/// An output, its best time and the mean processor time of a run.
type Timed = (String, Duration, Option<f64>);

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
    cover: &Cover,
    puzzles: &[Puzzle],
    ours: &[Puzzle],
    runs: usize,
) -> Result<(f64, f64, bool)> {
    let contest_input = program.input(puzzles.iter().map(|p| p.cells.as_slice()));
    let (mut contest, mut compact) = (Duration::MAX, Duration::MAX);
    let mut printed = String::new();
    for _ in 0..runs {
        let (output, elapsed) = program.run(&contest_input)?;
        contest = contest.min(elapsed);
        printed = output;
        compact = compact.min(cover.once("compact", false, 1)?.1);
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
    let names = pick(flags.positional(), &SETS.map(|set| set.name))?;
    if !paths::datasets().is_dir() {
        println!(
            "bench sudoku: {} is not here; nothing to time",
            paths::datasets().display()
        );
        return Ok(());
    }
    let bin = cover_binary(&flags)?;
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
    let table =
        Table::new("set -24|puzzles 6|engine -8|mode -7|1 thread 9|cpu 7|all 9|speedup 7|bar 13");
    let mut failures = Vec::new();
    for set in SETS.iter().filter(|set| names.contains(&set.name)) {
        let of = sudoku_set(set.of);
        let Some(Loaded { text, puzzles }) = of.load(set.first)? else {
            continue;
        };
        let cover = Cover {
            bin: &bin,
            set: of,
            input: &text,
        };
        let n = puzzles.len();
        let contest = contest_here(set, &puzzles, runs)?;
        let verdict = |ratio: f64| {
            if ratio <= set.bar_fraction {
                "ok"
            } else {
                "OVER"
            }
        };
        let mut fail = |what: String| failures.push(format!("{}: {what}", set.name));
        let mut firsts = Vec::new();
        let mut bars = Vec::new();
        let mut single = [[0.0f64; 2]; 2];
        for (e, engine) in ["compact", "linked"].into_iter().enumerate() {
            for (m, count) in [false, true].into_iter().enumerate() {
                let mode = if count { "count≤2" } else { "first" };
                let (output, one_time, one_cpu) = cover.best(engine, count, 1, runs)?;
                let (all_output, all_time, _) = cover.best(engine, count, threads, runs)?;
                if all_output != output {
                    fail(format!("{engine} {mode}: threads change output"));
                }
                let lines = output.lines().count();
                if lines != n {
                    fail(format!("{engine} {mode}: {lines} lines for {n} puzzles"));
                }
                if let Some(bad) = output.lines().position(|l| count && l != "1") {
                    fail(format!("{engine}: puzzle {} does not count 1", bad + 1));
                }
                let us = micros_per(one_time, n);
                single[e][m] = us;
                let headline = engine == "compact" && !count;
                let limit = set.contest_us * set.bar_fraction;
                let bar = match (headline, us <= limit) {
                    (true, true) => format!("≤{limit:.1} ok"),
                    (true, false) => format!("≤{limit:.1} OVER"),
                    (false, _) => String::new(),
                };
                let speedup = one_time.as_secs_f64() / all_time.as_secs_f64();
                if headline && threads > 1 {
                    let copies = cover.copies(threads, runs)?;
                    let capacity = threads as f64 * one_time.as_secs_f64() / copies.as_secs_f64();
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
                if !count {
                    firsts.push(output);
                }
                let cpu = one_cpu.map_or("-".to_owned(), |c| fixed(c * 1e6 / n as f64, 1));
                let all = fixed(micros_per(all_time, n), 1);
                let speedup = format!("{speedup:.2}×");
                let cells: [&dyn Display; 9] = [
                    &set.name,
                    &n,
                    &engine,
                    &mode,
                    &fixed(us, 1),
                    &cpu,
                    &all,
                    &speedup,
                    &bar,
                ];
                table.row(&cells);
            }
        }
        let side = puzzles.first().map_or(0, |p| p.size.side());
        if let Some(program) = programs.iter().find(|p| p.side() == side) {
            let ours = of.parse(&firsts[0])?;
            let (contest, compact, same) =
                contest_program_vs_cover(program, &cover, &puzzles, &ours, runs)?;
            let ratio = compact / contest;
            bars.push(format!(
                "contest program itself ({}), whole process: {contest:.1} µs; compact, one \
                 thread, run by turns with it: {compact:.1} µs, {ratio:.3} of it (bar {}) {}",
                program.seed,
                set.bar_fraction,
                verdict(ratio)
            ));
            if !same {
                fail("the contest program prints other solutions than cover".into());
            }
        }
        if firsts[0] != firsts[1] {
            fail("the engines print different solutions".into());
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
    harness::fail_on(&failures)
}
