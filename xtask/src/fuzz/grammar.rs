//! The inputs of `cargo xtask fuzz`, drawn from the grammar of each command's format so that most
//! reach a search: sudoku of 4×4 to 25×25 (lines, grids, grids of numbers) and target sudoku,
//! each a solved grid with givens taken away; radar cases; exact-cover problems in Knuth's format
//! (colours, bounds) and as 0/1 matrices, each with a planted solution; the shard and result
//! lines of `fixtures/shard/`. One input in [`FAULT_ODDS`] gets a fault: a clash of givens (still
//! valid: no solution), or one that the command must report (a stray token, a missing cell,
//! number or line). An input without such a fault is [`Valid`], and its answers are checked.

use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::RngExt;

use super::commands::pick;

/// One input in this many gets a fault.
const FAULT_ODDS: u32 = 10;

/// What a fault puts in place of a token: not a symbol, not a digit 0..9, not 0 or 1, not a
/// number, past every integer type.
#[rustfmt::skip]
const BAD: &[&str] = &[
    "?", "x", "10", "2", "-1", "1.5", "1000000001", "4294967296", "99999999999999999999", "",
];

/// The shard lines of 6 queens and their results, to run, merge and forecast.
const SHARDS: &str = include_str!("../../../fixtures/shard/queens6.shards.jsonl");
const RESULTS: &str = include_str!("../../../fixtures/shard/queens6.results.jsonl");

/// How a valid input is written, as the answers' checker reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valid {
    /// Sudoku, one puzzle per line.
    Lines,
    /// Sudoku (or target sudoku), one row per line, a blank line after each grid.
    Grids,
    Radar,
    Knuth,
    Matrix,
    /// Every result of the 6 queens' shards.
    Results,
}

/// Lines of tokens, written joined by `sep`.
type Lines = Vec<Vec<String>>;

/// An input for `command` with `flags` (`--format` and `shard`'s subcommand shape it), and what it
/// is when valid.
pub fn input(
    rng: &mut ChaCha8Rng,
    command: &str,
    flags: &[Vec<String>],
) -> (String, Option<Valid>) {
    let value = |flag: &str| flags.iter().find(|g| g[0] == flag).and_then(|g| g.get(1));
    let (mut lines, sep, valid) = match command {
        "sudoku" => sudoku(rng),
        "target" => (
            puzzles(rng, 3, &numbers(9), "0", false),
            " ",
            Some(Valid::Grids),
        ),
        "radar" => (radar(rng), " ", Some(Valid::Radar)),
        "exact" => exact(rng, value("--format").map(String::as_str), true),
        "shard" => match flags.first().map(|g| g[0].as_str()) {
            Some("split") => exact(rng, value("--format").map(String::as_str), false),
            Some("run") => (sample(rng, SHARDS, false), "", None),
            _ if rng.random_bool(0.3) => (sample(rng, RESULTS, false), "", None),
            _ => (sample(rng, RESULTS, true), "", Some(Valid::Results)),
        },
        _ => return (String::new(), None),
    };
    let valid = if rng.random_ratio(1, FAULT_ODDS) && !lines.is_empty() {
        let line = rng.random_range(0..lines.len());
        let tokens = &mut lines[line];
        match rng.random_range(0..3) {
            _ if tokens.is_empty() => {}
            0 => drop(tokens.remove(rng.random_range(0..tokens.len()))),
            1 => drop(lines.remove(line)),
            _ => {
                let at = rng.random_range(0..tokens.len());
                tokens[at] = pick(rng, BAD).to_owned();
            }
        }
        None
    } else {
        valid
    };
    let mut text: String = lines.iter().map(|l| l.join(sep) + "\n").collect();
    // Every reader takes a byte-order mark and CRLF line ends.
    if rng.random_ratio(1, 10) {
        text = text.replace('\n', "\r\n");
    }
    if rng.random_ratio(1, 10) {
        text.insert(0, '\u{feff}');
    }
    (text, valid)
}

/// `1` to `side`, as text.
fn numbers(side: usize) -> Vec<String> {
    (1..=side).map(|d| d.to_string()).collect()
}

/// Sudoku: one per line, grids of symbols or grids of numbers (for every size); now and then a
/// comment first and `end` last.
fn sudoku(rng: &mut ChaCha8Rng) -> (Lines, &'static str, Option<Valid>) {
    let n = *[2, 3, 3, 3, 4, 5].choose(rng).unwrap_or(&3);
    #[rustfmt::skip]
    let symbols = ["", "", "1234", "123456789", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQRSTUVWXY"];
    let symbols: Vec<String> = symbols[n].chars().map(String::from).collect();
    let empty = pick(rng, &[".", ".", "0", "-", "_"]);
    let layout = rng.random_range(0..3);
    let (mut lines, sep) = match layout {
        0 | 1 => (puzzles(rng, n, &symbols, empty, layout == 0), ""),
        _ => {
            let sep = pick(rng, &[" ", ","]);
            (puzzles(rng, n, &numbers(n * n), "0", false), sep)
        }
    };
    if rng.random_ratio(1, 10) {
        lines.insert(0, vec!["# a comment".into()]);
    }
    if layout == 0 && rng.random_ratio(1, 10) {
        lines.push(vec!["end".into()]);
    }
    let valid = if layout == 0 {
        Valid::Lines
    } else {
        Valid::Grids
    };
    (lines, sep, Some(valid))
}

/// One to three puzzles of box side `n`: each on a line, or as a grid of rows and a blank line.
fn puzzles(rng: &mut ChaCha8Rng, n: usize, symbols: &[String], empty: &str, line: bool) -> Lines {
    let mut lines = Lines::new();
    for _ in 0..rng.random_range(1..=3) {
        let cells = puzzle(rng, n, symbols, empty);
        lines.extend(
            cells
                .chunks(if line { n.pow(4) } else { n * n })
                .map(<[String]>::to_vec),
        );
        if !line {
            lines.push(Vec::new());
        }
    }
    lines
}

/// A puzzle of box side `n` as its cells: a solved grid with givens taken away (fewer the larger
/// the grid, as its search is longer); one in [`FAULT_ODDS`] with a clash (a given also in
/// another cell of its row), which leaves no solution.
fn puzzle(rng: &mut ChaCha8Rng, n: usize, symbols: &[String], empty: &str) -> Vec<String> {
    let side = n * n;
    let grid = solved(rng, n);
    let keep = rng.random_range(if n <= 3 { 0.2 } else { 0.5 }..0.8);
    let mut cells: Vec<String> = vec![empty.to_owned(); side * side];
    for (cell, &digit) in cells.iter_mut().zip(&grid) {
        if rng.random_bool(keep) {
            *cell = symbols[digit].clone();
        }
    }
    if rng.random_ratio(1, FAULT_ODDS) {
        let k = rng.random_range(0..side * side);
        let other = k - k % side + (k + rng.random_range(1..side)) % side;
        cells[k] = symbols[grid[k]].clone();
        cells[other] = symbols[grid[k]].clone();
    }
    cells
}

/// A solved grid of box side `n`, as digits from 0: the pattern (n·(r mod n) + r/n + c) mod n²
/// with its bands, the rows in each band, its stacks, the columns in each stack and its digits
/// shuffled.
fn solved(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let side = n * n;
    let order = |rng: &mut ChaCha8Rng| {
        let mut bands: Vec<usize> = (0..n).collect();
        bands.shuffle(rng);
        let mut lines = Vec::new();
        for band in bands {
            let mut inside: Vec<usize> = (band * n..band * n + n).collect();
            inside.shuffle(rng);
            lines.extend(inside);
        }
        lines
    };
    let (rows, columns) = (order(rng), order(rng));
    let mut digits: Vec<usize> = (0..side).collect();
    digits.shuffle(rng);
    (0..side * side)
        .map(|k| {
            let (r, c) = (rows[k / side], columns[k % side]);
            digits[(n * (r % n) + r / n + c) % side]
        })
        .collect()
}

/// One to three radar cases: up to 6 cities and 7 stations (few enough for a brute force), on a
/// small board, now and then one far out.
fn radar(rng: &mut ChaCha8Rng) -> Lines {
    let count = rng.random_range(1..=3);
    let mut lines = vec![vec![count.to_string()]];
    for _ in 0..count {
        let (n, m) = (rng.random_range(0..=6), rng.random_range(1..=7));
        let k = rng.random_range(1..=m);
        lines.push(vec![n.to_string(), m.to_string(), k.to_string()]);
        for _ in 0..n + m {
            let far = rng.random_ratio(1, 30);
            let range = if far {
                -1_000_000_000..=1_000_000_000
            } else {
                -20..=20i64
            };
            let (x, y) = (rng.random_range(range.clone()), rng.random_range(range));
            lines.push(vec![x.to_string(), y.to_string()]);
        }
    }
    lines
}

/// An exact-cover problem in the format `--format` names, or either: Knuth's (items, colours,
/// bounds) or 0/1 matrices (one to three when `many`). Each has a planted solution (the items cut
/// into options) and a few other options.
fn exact(
    rng: &mut ChaCha8Rng,
    format: Option<&str>,
    many: bool,
) -> (Lines, &'static str, Option<Valid>) {
    let knuth = format.map_or(rng.random_bool(0.6), |f| f == "knuth");
    let instances = if knuth || !many {
        1
    } else {
        rng.random_range(1..=3)
    };
    let mut lines = Lines::new();
    for _ in 0..instances {
        let primary = rng.random_range(1..=6);
        let secondary = if knuth { rng.random_range(0..=3) } else { 0 };
        let mut planted: Vec<usize> = (0..primary).collect();
        planted.shuffle(rng);
        let mut options: Vec<Vec<usize>> = vec![Vec::new()];
        for item in planted {
            if rng.random_bool(0.5) {
                options.push(Vec::new());
            }
            options.last_mut().unwrap_or(&mut Vec::new()).push(item);
        }
        for _ in 0..rng.random_range(1..=6) {
            options.push((0..primary).filter(|_| rng.random_bool(0.4)).collect());
        }
        options.retain(|o| !o.is_empty());
        // None twice: an answer names a Knuth option by its items.
        options.iter_mut().for_each(|o| o.sort());
        options.sort();
        options.dedup();
        options.shuffle(rng);
        if !knuth {
            lines.push(vec![options.len().to_string(), primary.to_string()]);
            let row = |o: &Vec<usize>| {
                (0..primary)
                    .map(|i| u8::from(o.contains(&i)).to_string())
                    .collect()
            };
            lines.extend(options.iter().map(row));
            continue;
        }
        // Bounds on any item: with every minimum 0 the empty set is a solution (a blank line).
        let bounds = ["", "", "", "0:2|", "2|", "1:3|"];
        let mut items: Vec<String> = (0..primary)
            .map(|i| format!("{}p{i}", pick(rng, &bounds)))
            .collect();
        if secondary > 0 {
            items.push("|".into());
            items.extend((0..secondary).map(|i| format!("s{i}")));
        }
        lines.push(items);
        for option in options {
            let mut tokens: Vec<String> = option.iter().map(|i| format!("p{i}")).collect();
            for s in 0..secondary {
                if rng.random_bool(0.3) {
                    tokens.push(format!("s{s}") + pick(rng, &["", ":red", ":blue"]));
                }
            }
            tokens.shuffle(rng);
            lines.push(tokens);
        }
    }
    let valid = if knuth { Valid::Knuth } else { Valid::Matrix };
    (lines, " ", Some(valid))
}

/// `text`'s lines in a new order: all of them, or some, now and then one twice.
fn sample(rng: &mut ChaCha8Rng, text: &str, all: bool) -> Lines {
    let mut lines: Lines = text.lines().map(|l| vec![l.to_owned()]).collect();
    lines.shuffle(rng);
    if !all {
        lines.truncate(rng.random_range(1..=lines.len()));
        lines.extend(lines.first().cloned().filter(|_| rng.random_ratio(1, 10)));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use cover_check::manifest::Layout;
    use cover_check::{exact, radar, sudoku, target};
    use rand::SeedableRng;

    #[test]
    fn solved_grids_are_solved() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for n in 2..=5 {
            let grid: Vec<u8> = solved(&mut rng, n).iter().map(|&d| d as u8 + 1).collect();
            assert_eq!(
                sudoku::check_solution(&vec![0; grid.len()], &grid, n * n),
                Ok(())
            );
        }
    }

    #[test]
    fn valid_inputs_read_back_and_most_are_valid() {
        let formats: [&[Vec<String>]; 2] = [&[], &[vec!["--format".into(), "matrix".into()]]];
        let mut valid = 0;
        for seed in 0..400 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for command in ["sudoku", "target", "radar", "exact"] {
                let (text, kind) = input(&mut rng, command, formats[seed as usize % 2]);
                let text = text.trim_start_matches('\u{feff}');
                valid += usize::from(kind.is_some());
                let read = match kind {
                    None => continue,
                    Some(Valid::Lines | Valid::Grids) if command == "sudoku" => {
                        let layout =
                            [Layout::Line, Layout::Grid][usize::from(kind == Some(Valid::Grids))];
                        let puzzles = sudoku::read_puzzles(text, layout);
                        let digits = puzzles.iter().map(|p| sudoku::digits(p, None));
                        digits.collect::<Result<Vec<_>, _>>().map(|p| p.len())
                    }
                    Some(Valid::Grids) => target::read_puzzles(text).map(|p| p.len()),
                    Some(Valid::Radar) => radar::read_cases(text).map(|c| c.len()),
                    Some(Valid::Knuth) => exact::read_knuth(text).map(|_| 1),
                    Some(_) => exact::read_matrices(text).map(|m| m.len()),
                };
                assert!(
                    read.as_ref().is_ok_and(|&n| n > 0),
                    "{command}: {read:?}\n{text}"
                );
            }
        }
        // A fault in one input of ten, a mistake in none.
        assert!(valid > 1400, "{valid} valid of 1600");
    }

    #[test]
    fn results_are_all_there_when_valid() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let all = sample(&mut rng, RESULTS, true);
        assert_eq!(all.len(), RESULTS.lines().count());
        assert!(RESULTS.lines().all(|l| all.contains(&vec![l.to_owned()])));
    }
}
