//! `cargo xtask bench sat`: the puzzles that defeat search, one at a time
//! through `cover sudoku -j 1 --json` (whole process, `--engine auto`
//! unless `--engine` says otherwise), beside CaDiCaL and Kissat run on the
//! CNF that `cover sudoku --cnf` writes for the same puzzle (`--cadical
//! PATH`, `--kissat PATH`, or `$COVER_CADICAL`, `$COVER_KISSAT`; nothing
//! of theirs is in this repository: build them from their sources), each
//! killed past `--peer-seconds` (default 60). Every answer, ours and the
//! peers' (their models mapped back through the CNF's comments), is
//! checked by `cover_check::sudoku`; a wrong one fails the run. Default
//! set: the 18 Gecode 25×25. Issue 37's bar: all 18 within 60 s in all;
//! its goal: under 20 s in all, under 5 s each. Figures:
//! `docs/measurements.md`, "### sat".

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use cover_check::sudoku::check_solution;
use serde_json::Value;

use super::harness::{self, fixed, sudoku_set, Table};
use crate::flags::Flags;

/// The sets it may run, in the catalogue's names.
const SETS: &[&str] = &["gecode_25x25", "16x16"];

/// A peer: its name and program.
struct Peer {
    name: &'static str,
    program: PathBuf,
}

/// The peers given by flag or environment.
fn peers(flags: &Flags) -> Vec<Peer> {
    let mut peers = Vec::new();
    for (name, flag, variable) in [
        ("CaDiCaL", "--cadical", "COVER_CADICAL"),
        ("Kissat", "--kissat", "COVER_KISSAT"),
    ] {
        let program = flags
            .value(flag)
            .map(PathBuf::from)
            .or_else(|| std::env::var_os(variable).map(PathBuf::from));
        match program {
            Some(program) => peers.push(Peer { name, program }),
            None => println!("{name}: not given ({flag} PATH or ${variable})"),
        }
    }
    peers
}

/// What one program made of one puzzle.
struct Timed {
    seconds: f64,
    /// `None` when it did not finish in time.
    grid: Option<Vec<u8>>,
    /// How ours answered: `search` or `sat`.
    how: &'static str,
}

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(
        args,
        &[
            "--bin",
            "--cadical",
            "--kissat",
            "--peer-seconds",
            "--engine",
        ],
        &[],
    )?;
    let peer_limit = Duration::from_secs_f64(flags.parsed("--peer-seconds", 60.0)?);
    let engine = flags.value("--engine").unwrap_or("auto").to_owned();
    let names = match flags.positional() {
        [] => vec!["gecode_25x25"],
        named => harness::pick(named, SETS)?,
    };
    let cover = harness::cover_binary(&flags)?;
    let peers = peers(&flags);
    let mut failures = Vec::new();
    for name in names {
        let set = sudoku_set(name);
        let Some(loaded) = set.load(None)? else {
            continue;
        };
        let symbols = set.symbols.map(|s| format!("--symbols={s}"));
        println!(
            "\n{name}: {} puzzles, one at a time, whole process; `cover sudoku -j 1 --engine {engine}`",
            loaded.puzzles.len()
        );
        let mut header = String::from("puzzle 6|cover s 8|by -6|learnt 8");
        for peer in &peers {
            header += &format!("|{} s {}", peer.name, peer.name.len() + 3);
        }
        let table = Table::new(&header);
        let mut totals = vec![0.0; 1 + peers.len()];
        let mut slowest = vec![0.0f64; 1 + peers.len()];
        let mut unfinished = vec![0usize; 1 + peers.len()];
        for (index, (line, puzzle)) in loaded.text.lines().zip(&loaded.puzzles).enumerate() {
            let side = puzzle.size.side();
            let mut args = vec!["sudoku", "-j", "1", "--json", "--engine", &engine];
            args.extend(symbols.as_deref());
            let input = format!("{line}\n");
            let ours = harness::run(&cover, &args, input.as_bytes(), &[0])?;
            let record: Value = serde_json::from_str(ours.stdout.trim())
                .with_context(|| format!("puzzle {}: {}", index + 1, ours.stdout))?;
            let learnt = record.get("learnt").and_then(Value::as_u64);
            let grid = match record.get("solution").and_then(Value::as_str) {
                Some(solution) => Some(set.parse(solution)?.remove(0).cells),
                None => None,
            };
            let mut timed = vec![Timed {
                seconds: ours.elapsed.as_secs_f64(),
                grid,
                how: if learnt.is_some() { "sat" } else { "search" },
            }];
            if !peers.is_empty() {
                let mut cnf_args = vec!["sudoku", "--cnf"];
                cnf_args.extend(symbols.as_deref());
                let cnf = harness::run(&cover, &cnf_args, input.as_bytes(), &[0])?.stdout;
                let path =
                    harness::write_scratch("sat", &format!("{name}-{}.cnf", index + 1), &cnf)?;
                for peer in &peers {
                    timed.push(run_peer(peer, &path, &cnf, set, side, peer_limit)?);
                }
            }
            let mut cells: Vec<String> = vec![format!("{}", index + 1)];
            for (k, t) in timed.iter().enumerate() {
                match &t.grid {
                    Some(grid) => {
                        if let Err(why) = check_solution(&puzzle.cells, grid, side) {
                            let who = if k == 0 { "cover" } else { peers[k - 1].name };
                            failures.push(format!("{name} puzzle {}: {who}: {why}", index + 1));
                        }
                        totals[k] += t.seconds;
                        slowest[k] = slowest[k].max(t.seconds);
                    }
                    None => {
                        if k == 0 {
                            failures
                                .push(format!("{name} puzzle {}: cover: no solution", index + 1));
                        }
                        unfinished[k] += 1;
                        totals[k] += t.seconds;
                    }
                }
                let shown = if t.grid.is_some() {
                    fixed(t.seconds, 2)
                } else {
                    format!(">{}", fixed(t.seconds, 0))
                };
                cells.push(shown);
                if k == 0 {
                    cells.push(t.how.to_owned());
                    cells.push(learnt.map_or("-".to_owned(), |l| l.to_string()));
                }
            }
            let shown: Vec<&dyn std::fmt::Display> =
                cells.iter().map(|c| c as &dyn std::fmt::Display).collect();
            table.row(&shown);
        }
        let mut who = vec!["cover"];
        who.extend(peers.iter().map(|p| p.name));
        for (k, who) in who.iter().enumerate() {
            println!(
                "{who}: {} s in all, slowest {} s{}",
                fixed(totals[k], 2),
                fixed(slowest[k], 2),
                match unfinished[k] {
                    0 => String::new(),
                    n => format!(", {n} unfinished (counted at the limit)"),
                }
            );
        }
        if name == "gecode_25x25" {
            let bar = unfinished[0] == 0 && totals[0] <= 60.0;
            let goal = totals[0] < 20.0 && slowest[0] < 5.0;
            println!(
                "issue 37: bar (18/18 within 60 s) {}; goal (under 20 s, under 5 s each) {}",
                if bar { "met" } else { "NOT met" },
                if goal { "met" } else { "not met" }
            );
        }
    }
    harness::fail_on(&failures)
}

/// Runs `peer` on the CNF at `path` (whose comments `cnf` holds), within
/// `limit`; its model as a grid.
fn run_peer(
    peer: &Peer,
    path: &Path,
    cnf: &str,
    set: &harness::SudokuSet,
    side: usize,
    limit: Duration,
) -> Result<Timed> {
    let path = path.to_str().context("a scratch path in UTF-8")?;
    let run = match cover_check::process::run(&peer.program, &[path], b"", limit) {
        Ok(run) => run,
        // Killed at the limit.
        Err(why) if why.contains("gave no answer within") => {
            return Ok(Timed {
                seconds: limit.as_secs_f64(),
                grid: None,
                how: "",
            })
        }
        Err(why) => bail!("{}: {why}", peer.name),
    };
    // SAT solvers exit 10 for satisfiable, 20 for unsatisfiable.
    if run.code != Some(10) {
        bail!(
            "{}: exit {:?}: {}",
            peer.name,
            run.code,
            run.stdout
                .lines()
                .find(|l| l.starts_with("s "))
                .unwrap_or("")
        );
    }
    let grid = model_grid(cnf, &run.stdout, set, side)?;
    Ok(Timed {
        seconds: run.elapsed.as_secs_f64(),
        grid: Some(grid),
        how: "",
    })
}

/// The grid of a solver's model (`v` lines), through the CNF's comments
/// (`c given r1c4=G`, `c option 7 r1c7=3`).
fn model_grid(cnf: &str, output: &str, set: &harness::SudokuSet, side: usize) -> Result<Vec<u8>> {
    let mut placed: Vec<String> = Vec::new();
    let mut of_variable: HashMap<i64, &str> = HashMap::new();
    for line in cnf.lines() {
        if let Some(given) = line.strip_prefix("c given ") {
            placed.push(given.to_owned());
        } else if let Some(option) = line.strip_prefix("c option ") {
            let (variable, label) = option.split_once(' ').context("c option V LABEL")?;
            of_variable.insert(variable.parse()?, label);
        }
    }
    for line in output.lines().filter_map(|l| l.strip_prefix("v ")) {
        for literal in line.split_whitespace() {
            let literal: i64 = literal.parse()?;
            if let Some(label) = of_variable.get(&literal) {
                placed.push((*label).to_owned());
            }
        }
    }
    let mut row = vec![".".to_owned(); side * side];
    for label in placed {
        let (cell, symbol) = label.split_once('=').context("rRcC=D")?;
        let (r, c) = cell
            .strip_prefix('r')
            .and_then(|rc| rc.split_once('c'))
            .context("rRcC")?;
        let (r, c): (usize, usize) = (r.parse()?, c.parse()?);
        row[(r - 1) * side + c - 1] = symbol.to_owned();
    }
    Ok(set.parse(&row.concat())?.remove(0).cells)
}
