//! `cargo xtask bench variants`: time per puzzle of our variant solver
//! ([`VariantSolver`], one thread) beside the `sudoku-variants` crate and
//! sigh's Interactive Sudoku Solver (ISS, under Node.js through
//! `xtask/peers/iss.sh`), on the same puzzles: sets of jigsaw, X, killer,
//! anti-knight and thermo puzzles made by our generator, `--count` each
//! (default 200) from `--seed`. Each solver counts solutions up to 2 (so
//! it proves the puzzle unique); every answer is checked against the
//! generator's solution with `cover_check::variant`, and a solver that
//! disagrees fails the run. `sudoku-variants` gets `--peer-seconds` per
//! set (default 60) and is timed on the puzzles it finished in that time;
//! ISS is skipped with a message when `iss.sh fetch` has not been run.
//! Issue 36's bar: faster than both peers on every set; its goal: at most
//! half the faster peer's time. Figures: `docs/measurements.md`.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_check::variant::{check_variant_solution, VariantRules};
use cover_models::sudoku::variant::{Rules, VariantSolver};
use cover_models::sudoku::variant_generate::{self, VariantKind, VariantRequest};
use dlx_core::Limits;

use super::harness::{best_of, fixed, write_scratch, Table};
use super::variant_peers::{iss_constraints, SudokuVariantsPuzzle};
use crate::flags::Flags;
use crate::paths;

/// The sets, in the order of the table.
const KINDS: &[&str] = &["jigsaw", "x", "killer", "anti-knight", "thermo"];

/// One puzzle of a set, with the generator's solution.
struct Case {
    rules: Rules,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
}

/// The shared checker's view of `rules`.
fn checker_rules(rules: &Rules) -> VariantRules {
    VariantRules {
        side: rules.side(),
        regions: rules.regions().to_vec(),
        cages: rules
            .cages()
            .iter()
            .map(|c| (c.cells.clone(), c.sum))
            .collect(),
        anti_knight: rules.anti_knight(),
        anti_king: rules.anti_king(),
        non_consecutive: rules.non_consecutive(),
        thermos: rules.thermos().to_vec(),
        holes: (0..rules.cells()).filter(|&c| !rules.is_cell(c)).collect(),
        digits: Some(rules.digits()),
    }
}

/// Whether `answer` is the generator's solution and passes the checker.
fn agrees(case: &Case, answer: &[u8]) -> Result<()> {
    check_variant_solution(&checker_rules(&case.rules), &case.puzzle, answer)
        .map_err(anyhow::Error::msg)?;
    if answer != case.solution {
        bail!("a solution other than the generator's");
    }
    Ok(())
}

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &["--count", "--seed", "--runs", "--peer-seconds"],
        &[],
    )?;
    let count: u64 = flags.parsed("--count", 200)?;
    let seed: u64 = flags.parsed("--seed", 1)?;
    let runs: usize = flags.parsed("--runs", 3)?;
    let peer_budget = Duration::from_secs_f64(flags.parsed("--peer-seconds", 60.0)?);
    let kinds = super::harness::pick(flags.positional(), KINDS)?;
    let iss = paths::workspace_root().join("xtask/peers/iss.sh");
    let iss_ready = super::harness::run(&iss, &["dir"], b"", &[0])
        .ok()
        .map(|run| std::path::PathBuf::from(run.stdout.trim()).join("js/sudoku_parser.js"))
        .is_some_and(|path| path.exists());
    if !iss_ready {
        println!("ISS: not fetched, its column is skipped (xtask/peers/iss.sh fetch)");
    }

    let table = Table::new(
        "set -12|puzzles 7|clues 6|ours µs 10|sudoku-variants µs 19|done 5|ISS µs 10|ours / faster peer 19",
    );
    let mut failures = Vec::new();
    for kind in kinds {
        let variant: VariantKind = kind.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        let request = VariantRequest::new(variant);
        let cases: Vec<Case> = variant_generate::generate_set(&request, seed, count)?
            .into_iter()
            .map(|generated| Case {
                rules: generated.rules,
                puzzle: generated.puzzle,
                solution: generated.solution,
            })
            .collect();
        let clues = cases
            .iter()
            .map(|c| c.puzzle.iter().filter(|&&d| d != 0).count())
            .sum::<usize>() as f64
            / cases.len() as f64;

        // Ours: build the problem and count to 2, best of `runs`.
        let (ours, answers) = best_of(runs, || {
            cases
                .iter()
                .map(|case| {
                    let mut solver =
                        VariantSolver::new(&case.rules, &case.puzzle).expect("generated rules");
                    let mut first = None;
                    let report = solver.search(&Limits::solutions(2), |grid| {
                        first.get_or_insert_with(|| grid.to_vec());
                        dlx_core::Control::Continue
                    });
                    (report.stats.solutions, first)
                })
                .collect::<Vec<_>>()
        });
        for (case, (solutions, first)) in cases.iter().zip(&answers) {
            let checked = match (solutions, first) {
                (1, Some(grid)) => agrees(case, grid),
                _ => Err(anyhow::anyhow!("{solutions} solutions")),
            };
            if let Err(e) = checked {
                failures.push(format!("{kind}: ours: {e}"));
            }
        }
        let ours_micros = ours.as_secs_f64() * 1e6 / cases.len() as f64;

        // sudoku-variants, within the budget, once (it is the slow one).
        let start = Instant::now();
        let mut peer_time = Duration::ZERO;
        let mut done = 0;
        for case in &cases {
            if start.elapsed() > peer_budget {
                break;
            }
            let puzzle = match SudokuVariantsPuzzle::new(&case.rules, &case.puzzle) {
                Ok(puzzle) => puzzle,
                Err(e) => {
                    failures.push(format!("{kind}: sudoku-variants refused a puzzle: {e}"));
                    break;
                }
            };
            let one = Instant::now();
            let (solutions, grid) = puzzle.solve();
            peer_time += one.elapsed();
            done += 1;
            let checked = match (solutions, grid) {
                (1, Some(grid)) => agrees(case, &grid),
                _ => Err(anyhow::anyhow!("{solutions} solutions")),
            };
            if let Err(e) = checked {
                failures.push(format!("{kind}: sudoku-variants: {e}"));
            }
        }
        let peer_micros = (done > 0).then(|| peer_time.as_secs_f64() * 1e6 / done as f64);
        // Ours on the same puzzles, for the ratio when the peer stopped early.
        let ours_on_done = if done == cases.len() || done == 0 {
            ours_micros
        } else {
            let (time, _) = best_of(runs, || {
                for case in &cases[..done] {
                    VariantSolver::new(&case.rules, &case.puzzle)
                        .expect("generated rules")
                        .count(&Limits::solutions(2));
                }
            });
            time.as_secs_f64() * 1e6 / done as f64
        };

        // ISS, whole set, best of `runs` passes inside one Node process.
        let iss_micros = if iss_ready {
            let text: String = cases
                .iter()
                .map(|c| iss_constraints(&c.rules, &c.puzzle) + "\n")
                .collect();
            let file = write_scratch("variants", &format!("{kind}.iss"), &text)?;
            let file = file.to_string_lossy().into_owned();
            let run = super::harness::run(&iss, &["run", &file, &runs.to_string()], b"", &[0])?;
            let mut total = 0u128;
            let lines: Vec<&str> = run.stdout.lines().collect();
            if lines.len() != cases.len() {
                bail!("ISS answered {} of {} puzzles", lines.len(), cases.len());
            }
            for (case, line) in cases.iter().zip(lines) {
                let mut fields = line.split(' ');
                let solutions = fields.next().unwrap_or("");
                let nanos: u128 = fields
                    .next()
                    .and_then(|n| n.parse().ok())
                    .context("an ISS time")?;
                total += nanos;
                let digits: Vec<u8> = fields
                    .next()
                    .unwrap_or("")
                    .bytes()
                    .filter(u8::is_ascii_digit)
                    .map(|b| b - b'0')
                    .collect();
                let checked = match solutions {
                    "1" => agrees(case, &digits),
                    other => Err(anyhow::anyhow!("{other} solutions")),
                };
                if let Err(e) = checked {
                    failures.push(format!("{kind}: ISS: {e}"));
                }
            }
            Some(total as f64 / 1e3 / cases.len() as f64)
        } else {
            None
        };

        // The ratio against the faster peer, each on the puzzles it did.
        let ratios = [
            peer_micros.map(|p| ours_on_done / p),
            iss_micros.map(|p| ours_micros / p),
        ];
        let ratio = ratios.into_iter().flatten().reduce(f64::max);
        let show = |v: Option<f64>| v.map_or("-".to_string(), |v| fixed(v, 1));
        table.row(&[
            &kind,
            &cases.len(),
            &fixed(clues, 1),
            &fixed(ours_micros, 1),
            &show(peer_micros),
            &format!("{done}"),
            &show(iss_micros),
            &ratio.map_or("-".to_string(), |r| fixed(r, 3)),
        ]);
        if ratio.is_some_and(|r| r >= 1.0) {
            failures.push(format!("{kind}: slower than a peer (ratio {ratio:?})"));
        }
    }
    super::harness::fail_on(&failures)
}
