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

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use cover_models::sudoku::{Puzzle, Puzzles, Symbols};

use crate::baseline::Classic;
use crate::bench::shared_dir;
use crate::contest_program::{run_piped, ContestProgram};

/// One benchmark set: puzzles from one or more files of the datasets.
struct Set {
    name: &'static str,
    /// Files under `../shared/datasets/`.
    files: &'static [&'static str],
    /// Use only the first this many puzzles of the files together.
    first: Option<usize>,
    /// `--symbols`, when the set does not use the default ones.
    symbols: Option<&'static str>,
    /// The contest program's µs per puzzle measured in issue 3.
    contest_us: f64,
    /// The bar: at most this fraction of the contest program's time.
    bar_fraction: f64,
}

const SETS: &[Set] = &[
    Set {
        name: "magictour_top1465",
        files: &["sudoku9/magictour_top1465.txt"],
        first: None,
        symbols: None,
        contest_us: 131.7,
        bar_fraction: 0.5,
    },
    Set {
        name: "forum_hardest_1106",
        files: &["sudoku9/forum_hardest_1106.txt"],
        first: None,
        symbols: None,
        contest_us: 825.0,
        bar_fraction: 0.5,
    },
    Set {
        name: "17_clue_5000",
        files: &["sudoku9/17_clue.txt"],
        first: Some(5000),
        symbols: None,
        contest_us: 45.5,
        bar_fraction: 0.2,
    },
    Set {
        name: "forum_hardest_1905_5000",
        files: &["sudoku9/forum_hardest_1905_11plus.txt"],
        first: Some(5000),
        symbols: None,
        contest_us: 452.0,
        bar_fraction: 0.5,
    },
    Set {
        name: "16x16",
        files: &["sudoku16/gecode_16x16.txt", "sudoku16/satsolvers_16x16.txt"],
        first: None,
        symbols: Some("123456789ABCDEFG"),
        contest_us: 1229.0,
        bar_fraction: 0.5,
    },
];

/// The puzzle lines of a set, and how many there are.
fn load(dir: &Path, set: &Set) -> Result<(String, usize)> {
    let mut text = String::new();
    let mut count = 0;
    'files: for file in set.files {
        let path = dir.join(file);
        let contents =
            std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        for line in contents.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if set.first.is_some_and(|first| count >= first) {
                break 'files;
            }
            text.push_str(line);
            text.push('\n');
            count += 1;
        }
    }
    Ok((text, count))
}

/// One way of running the binary.
#[derive(Clone, Copy)]
struct Run<'a> {
    engine: &'a str,
    count: bool,
    jobs: usize,
}

/// Runs `cover sudoku` on `input`; returns its standard output and time.
fn time_once(cover: &Path, set: &Set, run: Run<'_>, input: &str) -> Result<(String, Duration)> {
    let mut args = vec![
        "sudoku".to_owned(),
        "--engine".to_owned(),
        run.engine.to_owned(),
    ];
    args.push(format!("--jobs={}", run.jobs));
    if run.count {
        args.extend(["--count", "--limit", "2"].map(String::from));
    }
    if let Some(symbols) = set.symbols {
        args.push(format!("--symbols={symbols}"));
    }
    let (output, elapsed) = run_piped(Command::new(cover).args(&args), input)?;
    if !output.status.success() {
        bail!(
            "cover {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok((String::from_utf8(output.stdout)?, elapsed))
}

/// The time for `copies` one-thread runs started at once, best of `runs`:
/// what the machine gives to independent processes, the most any
/// multi-threaded run can hope for (on a machine whose cores share
/// caches, or are hyperthreads, two at once are less than twice one).
fn time_copies(
    cover: &Path,
    set: &Set,
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
    set: &Set,
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
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        for puzzle in puzzles {
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
                    classic.add_row(
                        [
                            cell,
                            cells + r * side + d,
                            2 * cells + c * side + d,
                            3 * cells + b * side + d,
                        ]
                        .into_iter(),
                    );
                }
            }
            if classic.count_to(1) != 1 {
                bail!("{}: the contest search found no solution", set.name);
            }
        }
        best = best.min(start.elapsed());
    }
    Ok(best.as_secs_f64() * 1e6 / puzzles.len() as f64)
}

/// The puzzles of `text`, in the set's symbols.
fn parse(set: &Set, text: &str) -> Result<Vec<Puzzle>> {
    let symbols = match set.symbols {
        Some(s) => Some(Symbols::new(s).map_err(|e| anyhow::anyhow!("{e}"))?),
        None => None,
    };
    Puzzles::new(text.as_bytes(), symbols)
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!("{}: {e}", set.name))
}

/// The seed's contest program against `cover`, one thread, first
/// solution, run by turns so that both see the same machine: the best
/// time of each in µs per puzzle, and whether the program's solutions are
/// `ours`.
fn contest_program_vs_cover(
    program: &ContestProgram,
    cover: &Path,
    set: &Set,
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
    let us = |d: Duration| d.as_secs_f64() * 1e6 / puzzles.len() as f64;
    Ok((us(contest), us(compact), same))
}

pub fn run(args: &[String]) -> Result<()> {
    let mut runs = 3;
    let mut binary = None;
    let mut names = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().context("--runs needs a number")?.parse()?,
            "--bin" => binary = Some(PathBuf::from(args.next().context("--bin needs a path")?)),
            name if SETS.iter().any(|s| s.name == name) => names.push(name.to_owned()),
            other => {
                let known: Vec<&str> = SETS.iter().map(|s| s.name).collect();
                bail!(
                    "unknown argument {other:?}; usage: cargo xtask bench sudoku [--runs N] \
                     [--bin PATH] [{}]",
                    known.join("|")
                )
            }
        }
    }
    let dir = shared_dir().join("datasets");
    if !dir.is_dir() {
        println!(
            "bench sudoku: {} is not here; nothing to time",
            dir.display()
        );
        return Ok(());
    }
    let cover = match binary {
        Some(path) => path,
        None => cover_check::process::build_release(&crate::paths::workspace_root())
            .map_err(anyhow::Error::msg)?,
    };
    // The seeds' own programs, when the seeds and a C++ compiler are here.
    let build_dir = std::env::current_exe()?
        .parent()
        .context("xtask has a directory")?
        .join("contest");
    let mut programs = Vec::new();
    for side in [9, 16] {
        match ContestProgram::build(&shared_dir().join("seeds"), &build_dir, side)? {
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
    println!(
        "{:<24} {:>6} {:<8} {:<7} {:>9} {:>7} {:>9} {:>7} {:>13}",
        "set", "puzzles", "engine", "mode", "1 thread", "cpu", "all", "speedup", "bar"
    );
    let mut failures = Vec::new();
    for set in SETS {
        if !names.is_empty() && !names.iter().any(|n| n == set.name) {
            continue;
        }
        let (input, puzzles) = load(&dir, set)?;
        let parsed = parse(set, &input)?;
        let contest = contest_here(set, &parsed, runs)?;
        let mut first_outputs = Vec::new();
        let mut bars = Vec::new();
        let mut single = [[0.0f64; 2]; 2];
        for (e, engine) in ["compact", "linked"].into_iter().enumerate() {
            for (m, count) in [false, true].into_iter().enumerate() {
                let mode = if count { "count≤2" } else { "first" };
                let one = Run {
                    engine,
                    count,
                    jobs: 1,
                };
                let (output, one_time, one_cpu) = time_best(&cover, set, one, &input, runs)?;
                let all = Run {
                    jobs: threads,
                    ..one
                };
                let (all_output, all_time, _) = time_best(&cover, set, all, &input, runs)?;
                if all_output != output {
                    failures.push(format!(
                        "{}: {engine} {mode}: threads change output",
                        set.name
                    ));
                }
                let lines = output.lines().count();
                if lines != puzzles {
                    failures.push(format!(
                        "{}: {engine} {mode}: {lines} lines for {puzzles} puzzles",
                        set.name
                    ));
                }
                if count {
                    if let Some(bad) = output.lines().position(|l| l != "1") {
                        failures.push(format!(
                            "{}: {engine}: puzzle {} does not count 1",
                            set.name,
                            bad + 1
                        ));
                    }
                } else {
                    first_outputs.push(output);
                }
                let us = |d: Duration| d.as_secs_f64() * 1e6 / puzzles as f64;
                single[e][m] = us(one_time);
                let bar = if engine == "compact" && !count {
                    let limit = set.contest_us * set.bar_fraction;
                    let mark = if us(one_time) <= limit { "ok" } else { "OVER" };
                    format!("≤{limit:.1} {mark}")
                } else {
                    String::new()
                };
                if engine == "compact" && !count && threads > 1 {
                    let copies = time_copies(&cover, set, one, &input, threads, runs)?;
                    let capacity = threads as f64 * one_time.as_secs_f64() / copies.as_secs_f64();
                    let speedup = one_time.as_secs_f64() / all_time.as_secs_f64();
                    bars.push(format!(
                        "{threads} one-thread processes at once: {capacity:.2}× one's throughput \
                         (the machine's limit for `all`, whose speedup is {speedup:.2}×: {:.0}% of it)",
                        100.0 * speedup / capacity
                    ));
                }
                if engine == "compact" && !count {
                    let ratio = us(one_time) / contest;
                    let mark = if ratio <= set.bar_fraction {
                        "ok"
                    } else {
                        "OVER"
                    };
                    bars.push(format!(
                        "contest program here (in process): {contest:.1} µs; compact, one \
                         thread, whole process: {ratio:.3} of it (bar {}) {mark}",
                        set.bar_fraction
                    ));
                }
                let cpu = one_cpu.map_or("-".to_owned(), |c| {
                    format!("{:.1}", c * 1e6 / puzzles as f64)
                });
                println!(
                    "{:<24} {:>6} {:<8} {:<7} {:>9.1} {:>7} {:>9.1} {:>6.2}× {:>13}",
                    set.name,
                    puzzles,
                    engine,
                    mode,
                    us(one_time),
                    cpu,
                    us(all_time),
                    one_time.as_secs_f64() / all_time.as_secs_f64(),
                    bar
                );
            }
        }
        let side = parsed.first().map_or(0, |p| p.size.side());
        if let (Some(program), Some(ours)) = (
            programs.iter().find(|p| p.side() == side),
            first_outputs.first(),
        ) {
            let ours = parse(set, ours)?;
            let (contest, compact, same) =
                contest_program_vs_cover(program, &cover, set, (&input, &parsed), &ours, runs)?;
            let ratio = compact / contest;
            let mark = if ratio <= set.bar_fraction {
                "ok"
            } else {
                "OVER"
            };
            bars.push(format!(
                "contest program itself ({}), whole process: {contest:.1} µs; compact, one \
                 thread, run by turns with it: {compact:.1} µs, {ratio:.3} of it (bar {}) {mark}",
                program.seed, set.bar_fraction
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
