//! The answers of a run, checked with `cover-check`'s readers and oracles (never the solver's
//! code) where that is cheap: for a [`Valid`] input (read again by cover-check), sudoku grids
//! valid and keeping their givens, counts and `no solution` against a plain backtracking count,
//! exact covers and counts against brute force, and `--cnf`'s models counted against them, radar
//! radii against brute force, target grids, their scores and a floor under the best; for `queens`, boards and counts; for `generate`, one
//! solution per puzzle; for merged shard results, their count. Other outputs (JSON but radar's,
//! `--all` of sudoku and matrices, `--rate`, `--explain`) and `gave up` are not checked.

use std::fmt::Display;

use cover_check::manifest::Layout;
use cover_check::sudoku::{self as grid, answer_cells, answer_units, count_within};
use cover_check::{brute, exact, queens, radar, target};

use super::commands::Case;
use super::grammar::Valid;

/// At most this many nodes of the backtracking count per puzzle: beyond, it is not checked.
const COUNT_BUDGET: u64 = 2_000;

/// `Ok(true)` when the answer of a run that exited 0 or 1 was checked and right, `Ok(false)` when
/// no check applies (or cover-check cannot read the input), `Err(why)` when it is wrong.
pub fn check(case: &Case, stdout: &str) -> Result<bool, String> {
    let input = String::from_utf8_lossy(case.inputs.first().map_or(&[][..], Vec::as_slice));
    let input = input.trim_start_matches('\u{feff}');
    let json = case.has_flag("--json");
    if stdout.contains("gave up") || json && case.command != "radar" {
        return Ok(false);
    }
    let count = case.has_flag("--count");
    let limit = case.value("--limit").and_then(|l| l.parse::<u64>().ok());
    // Printed solutions: with --count or --limit as many as there are up to the limit, else one.
    let every = count || limit.is_some() || case.has_flag("--all");
    let cap = |c: u64| c.min(limit.unwrap_or(if every { u64::MAX } else { 1 }));
    let lines: Vec<&str> = stdout.lines().collect();
    match (case.command, case.valid) {
        ("queens", _) => {
            let n = case.flags.iter().find_map(|g| g[0].parse::<usize>().ok());
            let Some(&all) = n.and_then(|n| queens::A000170.get(n.wrapping_sub(1))) else {
                return Ok(false);
            };
            if count || all == 0 {
                let text = if count {
                    cap(all).to_string()
                } else {
                    "no solution".into()
                };
                same(stdout.trim_end(), text)?;
                return Ok(true);
            }
            let boards = answer_units(stdout, true);
            same(boards.len(), cap(all))?;
            for board in boards {
                queens::check_board(&queens::read_board(&board, n.unwrap_or(0))?)?;
            }
        }
        ("generate", _) => {
            same(lines.len(), case.value("--count").unwrap_or("1"))?;
            for line in lines {
                let digits = grid::digits(&grid::line_cells(line), None)?;
                let solutions = grid::count_solutions(&digits, digits.len().isqrt(), 2);
                same(solutions, 1).map_err(|e| format!("{line}: {e} solutions"))?;
            }
        }
        ("sudoku", Some(valid)) if !every || count => {
            if case.has_flag("--rate") || case.has_flag("--explain") {
                return Ok(false);
            }
            let layout = [Layout::Line, Layout::Grid][usize::from(valid == Valid::Grids)];
            let symbols = case.value("--symbols");
            let block = !count && (layout == Layout::Grid || case.has_flag("--pretty"));
            let puzzles = grid::read_puzzles(input, layout);
            let answers = answer_units(stdout, block);
            same(answers.len(), puzzles.len())?;
            // Counts past the oracle's budget leave the run unchecked (but not its other answers).
            let mut whole = true;
            for (k, (puzzle, answer)) in puzzles.iter().zip(&answers).enumerate() {
                let at = |e: String| format!("puzzle {}: {e}", k + 1);
                let digits = grid::digits(puzzle, symbols).map_err(at)?;
                let mut known = |limit| {
                    let known = count_within(&digits, digits.len().isqrt(), limit, COUNT_BUDGET);
                    whole &= known.is_some();
                    known
                };
                match (&answer[..], count) {
                    ([line], true) => known(cap(u64::MAX)).map_or(Ok(()), |c| same(line, c)),
                    // Printed no solution, expected as many as the oracle finds.
                    (["no solution"], _) => known(1).map_or(Ok(()), |c| same(0, c)),
                    _ => grid::check_grid(puzzle, &answer_cells(answer, block), symbols),
                }
                .map_err(at)?;
            }
            return Ok(whole);
        }
        ("exact", Some(valid)) => {
            let covers = match valid {
                Valid::Knuth => exact::read_knuth(input).map(|c| vec![c]),
                _ => exact::read_matrices(input),
            };
            let Ok(covers) = covers else { return Ok(false) };
            let counts: Vec<u64> = covers
                .iter()
                .map(|c| brute::count(&c.to_problem()))
                .collect();
            if case.has_flag("--cnf") {
                return check_cnf(&counts, stdout);
            }
            match (count, every, valid) {
                (true, ..) => {
                    let want: Vec<String> = counts.iter().map(|&c| cap(c).to_string()).collect();
                    same(lines.join(" "), want.join(" "))?;
                }
                (_, true, Valid::Knuth) => {
                    exact::check_knuth_all_text(&covers[0], cap(counts[0]), stdout)?;
                }
                (_, true, _) => return Ok(false),
                (_, _, Valid::Knuth) => exact::check_knuth_text(&covers[0], counts[0], stdout)?,
                _ => exact::check_matrix_text(&covers, &counts, stdout)?,
            }
        }
        ("radar", Some(_)) => {
            let Ok(cases) = radar::read_cases(input) else {
                return Ok(false);
            };
            same(lines.len(), cases.len())?;
            for (k, (c, line)) in cases.iter().zip(lines).enumerate() {
                let at = |e: String| format!("case {}: {e}", k + 1);
                if json {
                    let record = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
                    radar::check_record(c, &record).map_err(at)?;
                } else if let Some(r2) = radar::brute_force(c) {
                    if !radar::is_rounded_root(line, r2) {
                        return Err(at(format!("{line}, but the radius is √{r2}")));
                    }
                }
            }
        }
        ("target", Some(_)) => {
            let Ok(puzzles) = target::read_puzzles(input) else {
                return Ok(false);
            };
            let answers = if case.has_flag("--show") {
                target::read_shown(stdout)?
            } else {
                let score = |l: &&str| l.parse().map(|s| (s, None)).map_err(|_| l.to_string());
                lines.iter().map(score).collect::<Result<_, _>>()?
            };
            same(answers.len(), puzzles.len())?;
            for (k, (puzzle, (score, shown))) in puzzles.iter().zip(&answers).enumerate() {
                let at = |e: String| format!("puzzle {}: {e}", k + 1);
                if shown.is_some() || *score == -1 {
                    let grid = shown.as_ref();
                    target::check_answer(puzzle, &score.to_string(), *score, grid).map_err(at)?;
                }
                // The best score is at least that of any solution.
                let solution = grid::first_solution(puzzle, 9).and_then(|s| s.try_into().ok());
                if let Some(floor) = solution.and_then(|s| target::check_grid(puzzle, &s).ok()) {
                    if *score < i64::from(floor) {
                        return Err(at(format!("{score}, but a solution scores {floor}")));
                    }
                }
            }
        }
        ("shard", Some(Valid::Results)) if case.has_flag("merge") => {
            if case.has_flag("--remaining") {
                return Ok(false);
            }
            same(stdout.trim_end(), queens::A000170[5])?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Most option variables whose every assignment [`check_cnf`] tries.
const CNF_VARIABLES: u32 = 16;

/// `cover exact --cnf`: a CNF per instance (`c instance` first), its `p cnf V C` line true to its
/// clauses; and where it has no variable but the options' and few of them, exactly as many models
/// as the instance has solutions (every assignment tried). `Ok(false)` when some had too many.
fn check_cnf(counts: &[u64], stdout: &str) -> Result<bool, String> {
    let sections: Vec<&str> = stdout
        .split("c instance ")
        .filter(|s| !s.is_empty())
        .collect();
    same(sections.len(), counts.len())?;
    let mut whole = true;
    for (k, (section, &want)) in sections.iter().zip(counts).enumerate() {
        let at = |e: String| format!("instance {}: {e}", k + 1);
        let options = section
            .lines()
            .filter(|l| l.starts_with("c option "))
            .count() as u32;
        let header = section.lines().find_map(|l| l.strip_prefix("p cnf "));
        let numbers: Vec<u64> = header
            .ok_or_else(|| at("no `p cnf` line".into()))?
            .split(' ')
            .map(|n| n.parse().map_err(|_| at(format!("`p cnf {n}`"))))
            .collect::<Result<_, _>>()?;
        let [variables, count] = numbers[..] else {
            return Err(at("`p cnf` needs two numbers".into()));
        };
        let mut clauses = Vec::new();
        for line in section
            .lines()
            .skip_while(|l| !l.starts_with("p cnf "))
            .skip(1)
        {
            let literals: Vec<i64> = line
                .split(' ')
                .map(|l| l.parse().map_err(|_| at(format!("clause `{line}`"))))
                .collect::<Result<_, _>>()?;
            if literals.last() != Some(&0)
                || literals[..literals.len() - 1]
                    .iter()
                    .any(|l| *l == 0 || l.unsigned_abs() > variables)
            {
                return Err(at(format!("clause `{line}`")));
            }
            clauses.push(literals[..literals.len() - 1].to_vec());
        }
        same(clauses.len() as u64, count).map_err(|e| at(format!("{e} clauses")))?;
        if variables != u64::from(options) || options > CNF_VARIABLES {
            whole = false;
            continue;
        }
        let models = (0u32..1 << options)
            .filter(|set| {
                clauses.iter().all(|clause| {
                    clause
                        .iter()
                        .any(|&l| (set >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
                })
            })
            .count();
        same(models as u64, want).map_err(|e| at(format!("{e} models")))?;
    }
    Ok(whole)
}

/// `Ok` when what was printed is what was expected.
fn same(printed: impl Display, expected: impl Display) -> Result<(), String> {
    let (printed, expected) = (printed.to_string(), expected.to_string());
    if printed == expected {
        return Ok(());
    }
    let printed = cover_check::snippet(&printed);
    Err(format!("printed {printed}, expected {expected:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &'static str, flags: &[&str], input: &str, valid: Option<Valid>) -> Case {
        Case {
            command,
            flags: flags
                .iter()
                .map(|f| f.split(' ').map(String::from).collect())
                .collect(),
            inputs: vec![input.as_bytes().to_vec()],
            stdin_slot: Some(0),
            valid,
        }
    }

    /// `check` of `case` accepts `right`, refutes every `wrong`.
    fn judges(case: &Case, right: &str, wrong: &[&str]) {
        assert_eq!(check(case, right), Ok(true), "{right:?}");
        for answer in wrong {
            assert!(check(case, answer).is_err(), "{answer:?} passed");
        }
    }

    #[test]
    fn sudoku_grids_counts_and_no_solution() {
        let line = Some(Valid::Lines);
        let solved = "1234341221434321\n";
        let case = run("sudoku", &[], "1234341221434...\n", line);
        let swapped = "2134341221434321\n";
        judges(&case, solved, &["no solution\n", swapped, "1234\n", ""]);
        let case = run("sudoku", &["--count"], "1234341221434...\n", line);
        judges(&case, "1\n", &["2\n", "0\n"]);
        // An empty grid's count is past the oracle's budget: not checked, not refuted.
        let empty = run("sudoku", &["--count"], &(".".repeat(81) + "\n"), line);
        assert_eq!(check(&empty, "5\n"), Ok(false));
        let grid = "12..\n34..\n....\n...1\n\n";
        let answer = "1243\n3412\n2134\n4321\n\n";
        let case = run("sudoku", &["--pretty"], grid, Some(Valid::Grids));
        judges(&case, answer, &["1243\n3412\n2134\n4312\n\n"]);
        // A clash: no solution is right.
        let case = run("sudoku", &[], "11..............\n", line);
        judges(&case, "no solution\n", &[solved]);
    }

    #[test]
    fn exact_cnf_models_are_the_covers() {
        let case = run(
            "exact",
            &["--cnf"],
            "3 2\n1 0\n0 1\n1 1\n",
            Some(Valid::Matrix),
        );
        let head = "c instance 1 <stdin>:1\nc option 1 row 1\nc option 2 row 2\nc option 3 row 3\n";
        let right = format!("{head}p cnf 3 4\n1 3 0\n-1 -3 0\n2 3 0\n-2 -3 0\n");
        // Without an at-most-one clause, {1, 2, 3} is a model too; a clause count that lies; a
        // variable past the header's.
        let loose = format!("{head}p cnf 3 3\n1 3 0\n2 3 0\n-2 -3 0\n");
        let miscounted = format!("{head}p cnf 3 5\n1 3 0\n-1 -3 0\n2 3 0\n-2 -3 0\n");
        let past = format!("{head}p cnf 3 4\n1 3 0\n-1 -4 0\n2 3 0\n-2 -3 0\n");
        judges(&case, &right, &[&loose, &miscounted, &past, ""]);
    }

    #[test]
    fn exact_covers_and_counts() {
        let knuth = "a b | x\na x:red\nb x:red\na b\n";
        let case = run("exact", &[], knuth, Some(Valid::Knuth));
        judges(&case, "a b\n\n", &["a x:red\n\n", "no solution\n", "a\n\n"]);
        let case = run("exact", &["--count"], knuth, Some(Valid::Knuth));
        judges(&case, "2\n", &["1\n"]);
        let case = run("exact", &["--limit 5"], knuth, Some(Valid::Knuth));
        judges(&case, "a x:red\nb x:red\n\na b\n\n", &["a b\n\n"]);
        let matrices = "2 2\n1 0\n0 1\n1 2\n1 0\n";
        let case = run("exact", &[], matrices, Some(Valid::Matrix));
        judges(
            &case,
            "1 2\nNo Solution!\n",
            &["1 2\n1\n", "1\nNo Solution!\n"],
        );
    }

    #[test]
    fn radar_target_queens_generate_and_merge() {
        let case = run(
            "radar",
            &[],
            "1\n1 2 1\n0 0\n3 4\n6 8\n",
            Some(Valid::Radar),
        );
        judges(&case, "5.000000\n", &["4.999999\n", "10.000000\n"]);
        let json = run(
            "radar",
            &["--json"],
            "1\n1 1 1\n0 0\n3 4\n",
            Some(Valid::Radar),
        );
        let record =
            r#"{"status":"solved","squared_radius":25,"radius_text":"5.000000","stations":[1]}"#;
        judges(&json, record, &[&record.replace("25", "24")]);
        let rows: String = (0..9).map(|_| "0 0 0 0 0 0 0 0 0\n").collect();
        let case = run("target", &[], &rows, Some(Valid::Grids));
        // The best of all grids (`cover target` says 2906) is at least what the oracle's first
        // solution scores, 2850.
        judges(&case, "2906\n", &["-1\n", "2849\n"]);
        let case = run("queens", &["4", "--count"], "", None);
        judges(&case, "2\n", &["3\n"]);
        let case = run("queens", &["4", "--limit 3"], "", None);
        let boards = ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n";
        judges(
            &case,
            boards,
            &[&boards.replace(".Q..\n...Q", "Q...\n...Q")],
        );
        let case = run("generate", &["--size 4"], "", None);
        judges(&case, "1234341221434...\n", &["..34............\n"]);
        let case = run("shard", &["merge"], "", Some(Valid::Results));
        judges(&case, "4\n", &["5\n"]);
    }
}
