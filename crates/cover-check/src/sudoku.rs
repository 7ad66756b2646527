//! Sudoku of any size n²×n² (4, 9, 16, 25, … up to 64), checked from the
//! rules alone: the grid checker, a plain backtracking counter (the oracle
//! for counts that no source states), and the readers of the puzzles and
//! answers as `cover` writes them (symbols, numbers, lines and grids).
//!
//! It must not know the engines: no exact cover, no links, no propagation
//! of `cover-models`; the box formula is written here once, for every
//! checker of this crate that needs one.

use std::collections::HashMap;

use crate::manifest::Layout;

/// The side of a grid of `cells` cells and of its boxes, (n², n), when
/// `cells` is n⁴ for some n ≥ 1.
pub fn sides(cells: usize) -> Option<(usize, usize)> {
    let side = cells.isqrt();
    let n = side.isqrt();
    (n > 0 && n * n == side && side * side == cells).then_some((side, n))
}

/// The cells of unit `unit` of kind `kind` (0 row, 1 column, 2 box) of a
/// grid of side `side` = n², row by row.
pub fn unit_cells(kind: usize, unit: usize, side: usize) -> impl Iterator<Item = usize> {
    let n = side.isqrt();
    (0..side).map(move |j| match kind {
        0 => unit * side + j,
        1 => j * side + unit,
        _ => (unit / n * n + j / n) * side + unit % n * n + j % n,
    })
}

/// The names of the three kinds of unit, as messages say them.
const KINDS: [&str; 3] = ["row", "column", "box"];

/// Cells: 0 empty, 1..=side a digit; `side` = n² (4, 9, 16, 25, …). Ok when
/// `solution` is a full grid, every row, column and box a permutation, and
/// it keeps every given of `puzzle`.
pub fn check_solution(puzzle: &[u8], solution: &[u8], side: usize) -> Result<(), String> {
    if side.checked_mul(side).and_then(sides).is_none() {
        return Err(format!("side {side} is not a square"));
    }
    if puzzle.len() != side * side || solution.len() != side * side {
        return Err(format!(
            "{} cells for a puzzle of {}, expected {}",
            solution.len(),
            puzzle.len(),
            side * side
        ));
    }
    for (k, (&given, &digit)) in puzzle.iter().zip(solution).enumerate() {
        if digit == 0 || usize::from(digit) > side {
            return Err(format!("cell {}: {digit} is not a digit 1..={side}", k + 1));
        }
        if given != 0 && given != digit {
            return Err(format!("cell {}: the given {given} became {digit}", k + 1));
        }
    }
    for (kind, name) in KINDS.iter().enumerate() {
        for unit in 0..side {
            let mut seen = vec![false; side + 1];
            for cell in unit_cells(kind, unit, side) {
                let digit = usize::from(solution[cell]);
                if std::mem::replace(&mut seen[digit], true) {
                    return Err(format!("{name} {} repeats {digit}", unit + 1));
                }
            }
        }
    }
    Ok(())
}

/// Solutions of `puzzle`, counted up to `limit`, by a plain backtracking
/// search (an oracle). A puzzle that is not n⁴ cells of 0..=n² counts 0.
pub fn count_solutions(puzzle: &[u8], side: usize, limit: usize) -> usize {
    let limit = limit as u64;
    Search::run(puzzle, side, limit, u64::MAX).map_or(0, |s| s.found as usize)
}

/// The first solution of `puzzle` in the counter's order, if any.
pub fn first_solution(puzzle: &[u8], side: usize) -> Option<Vec<u8>> {
    Search::run(puzzle, side, 1, u64::MAX)?.first
}

/// Counts the solutions of `puzzle` up to `limit`, or `None` when that
/// takes more than `budget` nodes (or the puzzle is not a grid of side
/// `side` with digits 0..=side).
pub fn count_within(puzzle: &[u8], side: usize, limit: u64, budget: u64) -> Option<u64> {
    Search::run(puzzle, side, limit, budget).map(|s| s.found)
}

/// What a node branches on.
enum Choice {
    /// Each candidate (a bit set) of this cell.
    Cell(usize, u64),
    /// Each place for this digit (a bit) in unit (kind, index).
    Digit(usize, usize, u64),
}

/// The backtracking count. Each node branches on the fewest alternatives:
/// the candidates of an empty cell, or the places left in a row, column or
/// box for a digit it misses (without the latter, POJ 3076's 16×16 sample
/// takes millions of nodes).
struct Search {
    side: usize,
    n: usize,
    cells: Vec<u8>,
    /// The digits used in each row, column and box, as bit sets.
    used: [Vec<u64>; 3],
    found: u64,
    first: Option<Vec<u8>>,
    limit: u64,
    nodes: u64,
    budget: u64,
}

impl Search {
    /// The search of `puzzle`, run; `None` when the budget ran out or the
    /// puzzle is not a grid.
    fn run(puzzle: &[u8], side: usize, limit: u64, budget: u64) -> Option<Search> {
        let (s, n) = sides(puzzle.len())?;
        if s != side || side > 64 {
            return None;
        }
        let mut search = Search {
            side,
            n,
            cells: vec![0; puzzle.len()],
            used: [vec![0; side], vec![0; side], vec![0; side]],
            found: 0,
            first: None,
            limit,
            nodes: 0,
            budget,
        };
        for (cell, &digit) in puzzle.iter().enumerate() {
            let digit = usize::from(digit);
            if digit == 0 {
                continue;
            }
            if digit > side {
                return None;
            }
            if search.free(cell) >> (digit - 1) & 1 == 0 {
                return Some(search); // Givens that clash: no solution.
            }
            search.flip(cell, 1 << (digit - 1));
        }
        search.go().then_some(search)
    }

    fn full(&self) -> u64 {
        u64::MAX >> (64 - self.side)
    }

    fn units(&self, cell: usize) -> [usize; 3] {
        let (r, c) = (cell / self.side, cell % self.side);
        [r, c, r / self.n * self.n + c / self.n]
    }

    fn free(&self, cell: usize) -> u64 {
        let [r, c, b] = self.units(cell);
        self.full() & !(self.used[0][r] | self.used[1][c] | self.used[2][b])
    }

    fn flip(&mut self, cell: usize, bit: u64) {
        for (kind, unit) in self.units(cell).into_iter().enumerate() {
            self.used[kind][unit] ^= bit;
        }
        self.cells[cell] = if self.cells[cell] == 0 {
            bit.trailing_zeros() as u8 + 1
        } else {
            0
        };
    }

    /// The empty cells of unit (kind, unit) where the digit `bit` fits.
    fn places(&self, kind: usize, unit: usize, bit: u64) -> impl Iterator<Item = usize> + '_ {
        unit_cells(kind, unit, self.side)
            .filter(move |&c| self.cells[c] == 0 && self.free(c) & bit != 0)
    }

    /// The choice with the fewest alternatives, and their number; `None`
    /// when the grid is full.
    fn choose(&self) -> Option<(Choice, u32)> {
        let mut best: Option<(Choice, u32)> = None;
        for cell in (0..self.cells.len()).filter(|&c| self.cells[c] == 0) {
            let free = self.free(cell);
            if best.as_ref().is_none_or(|b| free.count_ones() < b.1) {
                best = Some((Choice::Cell(cell, free), free.count_ones()));
            }
        }
        if best.as_ref().is_none_or(|b| b.1 <= 1) {
            return best;
        }
        for kind in 0..3 {
            for unit in 0..self.side {
                let mut missing = self.full() & !self.used[kind][unit];
                while missing != 0 {
                    let bit = missing & missing.wrapping_neg();
                    missing ^= bit;
                    let places = self.places(kind, unit, bit).count() as u32;
                    if best.as_ref().is_some_and(|b| places < b.1) {
                        best = Some((Choice::Digit(kind, unit, bit), places));
                    }
                }
            }
        }
        best
    }

    /// `false` when the budget ran out.
    fn go(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let Some((choice, _)) = self.choose() else {
            self.found += 1;
            self.first.get_or_insert_with(|| self.cells.clone());
            return true;
        };
        let moves: Vec<(usize, u64)> = match choice {
            Choice::Cell(cell, mut free) => {
                let mut moves = Vec::new();
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    moves.push((cell, bit));
                }
                moves
            }
            Choice::Digit(kind, unit, bit) => {
                self.places(kind, unit, bit).map(|c| (c, bit)).collect()
            }
        };
        for (cell, bit) in moves {
            if self.found >= self.limit {
                break;
            }
            self.flip(cell, bit);
            let within = self.go();
            self.flip(cell, bit);
            if !within {
                return false;
            }
        }
        true
    }
}

// ---------------------------------------------------------------------------
// Reading puzzles and answers as written.

/// The default symbols of a grid of side `side`, as `cover` documents them.
pub fn default_symbols(side: usize) -> Option<&'static str> {
    match side {
        4 => Some("1234"),
        9 => Some("123456789"),
        16 => Some("ABCDEFGHIJKLMNOP"),
        25 => Some("ABCDEFGHIJKLMNOPQRSTUVWXY"),
        36 => Some("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        _ => None,
    }
}

/// The other sets `cover` reads a puzzle of `side` in without `--symbols`,
/// as its README says: 16×16 in 1-9A-G or 0-9A-F, 25×25 in 1-9A-P.
fn other_sets(side: usize) -> &'static [&'static str] {
    match side {
        16 => &["123456789ABCDEFG", "0123456789ABCDEF"],
        25 => &["123456789ABCDEFGHIJKLMNOP"],
        _ => &[],
    }
}

/// The sets a puzzle written without `--symbols` may be read in, from the
/// README's rules: every set of its size (the default first) that reads
/// each cell as a symbol or an empty cell, and, when `0` is a digit in
/// some of those and empty in others, only those where it is a digit if
/// the puzzle also has `.`, `-` or `_` (an error if not: `cover` must
/// refuse the puzzle). They are the same puzzle relabelled. A puzzle
/// without letters (numbers), or that no set reads, gets the default set
/// alone; a size without one, none.
fn sets_of(puzzle: &[String], side: usize) -> Result<Vec<&'static str>, String> {
    let default = default_symbols(side).into_iter();
    let all: Vec<&str> = default.chain(other_sets(side).iter().copied()).collect();
    let has_letter = puzzle
        .iter()
        .any(|c| c.chars().any(|ch| ch.is_ascii_alphabetic()));
    let reads = |set: &str| {
        puzzle.iter().all(|c| {
            matches!(c.as_str(), "." | "-" | "_")
                || (c == "0" && !set.contains('0'))
                || (c.chars().count() == 1 && set.contains(c.as_str()))
        })
    };
    let fitting: Vec<&str> = all.iter().copied().filter(|set| reads(set)).collect();
    if all.len() < 2 || !has_letter || fitting.is_empty() {
        return Ok(all.into_iter().take(1).collect());
    }
    let zero = puzzle.iter().any(|c| c == "0");
    let (digit, empty): (Vec<&str>, Vec<&str>) = fitting.iter().partition(|set| set.contains('0'));
    if !zero || digit.is_empty() || empty.is_empty() {
        return Ok(fitting);
    }
    if puzzle.iter().any(|c| matches!(c.as_str(), "." | "-" | "_")) {
        Ok(digit)
    } else {
        Err(format!(
            "`0` may be a digit ({}) or empty ({}): cover must ask for --symbols",
            digit[0], empty[0]
        ))
    }
}

/// Reads a line of cells in the default symbols of `side` (`.` empty) as
/// digits, 0 for an empty cell.
pub fn read_cells(line: &str, side: usize) -> Result<Vec<u8>, String> {
    let symbols = default_symbols(side).ok_or_else(|| format!("no symbols for side {side}"))?;
    let cells: Vec<u8> = line
        .chars()
        .map(|c| match c {
            '.' => Ok(0),
            c => symbols
                .find(c)
                .map(|k| k as u8 + 1)
                .ok_or_else(|| format!("{c:?} is not a symbol of {side}×{side}")),
        })
        .collect::<Result<_, _>>()?;
    if cells.len() != side * side {
        return Err(format!("{} cells, expected {}", cells.len(), side * side));
    }
    Ok(cells)
}

/// Lines that are content: without comments and rule lines; `None` marks a
/// blank line. Stops at a line `end`.
fn content_lines(text: &str) -> Vec<Option<String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.eq_ignore_ascii_case("end") {
            break;
        }
        if t.starts_with('#') || is_rule(t) {
            continue;
        }
        lines.push((!t.is_empty()).then(|| t.to_owned()));
    }
    lines
}

/// Whether `line` is a rule between boxes of a drawn grid (`---+---`).
fn is_rule(line: &str) -> bool {
    line.contains('+') && line.chars().all(|c| "-+|= ".contains(c))
}

/// The cells of a row or line: fields separated by spaces, commas or `|`,
/// or, for a single field, its characters.
pub fn cells_of(text: &str) -> Vec<String> {
    let fields: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|f| !f.is_empty())
        .collect();
    if fields.len() == 1 {
        fields[0].chars().map(String::from).collect()
    } else {
        fields.into_iter().map(str::to_owned).collect()
    }
}

/// The cells of a line puzzle: the text before white space or `:` when it
/// is a whole puzzle, else the separated fields.
pub fn line_cells(text: &str) -> Vec<String> {
    let first = text
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .unwrap_or("");
    let n = first.chars().count();
    if [16, 81, 256, 625, 1296, 2401, 4096].contains(&n) {
        first.chars().map(String::from).collect()
    } else {
        cells_of(text.split(':').next().unwrap_or(""))
    }
}

/// The puzzles of a text, each as its cells (as written), in order.
pub fn read_puzzles(text: &str, layout: Layout) -> Vec<Vec<String>> {
    let lines = content_lines(text);
    match layout {
        Layout::Line => lines.iter().flatten().map(|l| line_cells(l)).collect(),
        Layout::Grid => {
            let mut puzzles = Vec::new();
            let mut current: Vec<String> = Vec::new();
            for line in lines.iter().chain([&None]) {
                match line {
                    Some(row) => current.extend(cells_of(row)),
                    None if !current.is_empty() => puzzles.push(std::mem::take(&mut current)),
                    None => {}
                }
            }
            puzzles
        }
    }
}

/// The answers of a text output, one per puzzle: a line for line puzzles,
/// a block of lines up to a blank line for grids (and pretty grids).
pub fn answer_units(stdout: &str, block: bool) -> Vec<Vec<&str>> {
    let mut units = Vec::new();
    if !block {
        return stdout.lines().map(|l| vec![l]).collect();
    }
    let mut current = Vec::new();
    for line in stdout.lines() {
        if line.is_empty() {
            units.push(std::mem::take(&mut current));
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        units.push(current);
    }
    units
}

/// The cells of one answer: a line, or a block of rows (rules skipped).
pub fn answer_cells(unit: &[&str], block: bool) -> Vec<String> {
    if block {
        unit.iter()
            .filter(|l| !is_rule(l))
            .flat_map(|l| cells_of(l))
            .collect()
    } else {
        unit.first().map(|l| line_cells(l)).unwrap_or_default()
    }
}

/// Whether `cell` is an empty cell when the symbols are `symbols` (or,
/// with `numbers`, when the cells are numbers).
fn is_empty(cell: &str, symbols: &str, numbers: bool) -> bool {
    matches!(cell, "." | "-" | "_") || (cell == "0" && (numbers || !symbols.contains('0')))
}

/// Whether a puzzle is written in numbers: some cell is longer than a
/// character, or is a digit that is not a symbol (as `cover` documents).
fn in_numbers(puzzle: &[String], symbols: &str) -> bool {
    puzzle.iter().any(|c| {
        c.chars().count() > 1 || (!is_empty(c, symbols, false) && !symbols.contains(c.as_str()))
    })
}

/// The digit of each written value: a symbol's place plus one, or, for
/// puzzles written in numbers, the number 1..=side.
fn digit_map(side: usize, symbols: &str, numbers: bool) -> Result<HashMap<String, u8>, String> {
    let digits: HashMap<String, u8> = if numbers {
        (1..=side).map(|v| (v.to_string(), v as u8)).collect()
    } else {
        let symbol = |(k, c): (usize, char)| (String::from(c), k as u8 + 1);
        symbols.chars().enumerate().map(symbol).collect()
    };
    if digits.len() != side {
        return Err(format!("no symbols known for side {side}"));
    }
    Ok(digits)
}

/// A puzzle written as cells (symbols, or numbers; `.`, `-`, `_` or `0`
/// empty) as digits, 0 for an empty cell. `symbols` defaults to
/// [`default_symbols`]; a puzzle is in numbers when some cell is longer
/// than a character or a digit that is not a symbol (as `cover` documents).
pub fn digits(puzzle: &[String], symbols: Option<&str>) -> Result<Vec<u8>, String> {
    let (side, _) = sides(puzzle.len()).ok_or("the puzzle is not n⁴ cells")?;
    let symbols = match symbols {
        Some(symbols) => symbols,
        None => sets_of(puzzle, side)?.first().copied().unwrap_or(""),
    };
    let numbers = in_numbers(puzzle, symbols);
    let map = digit_map(side, symbols, numbers)?;
    let digit = |(k, cell): (usize, &String)| match map.get(cell) {
        _ if is_empty(cell, symbols, numbers) => Ok(0),
        Some(&d) => Ok(d),
        None => Err(format!("cell {}: {cell:?} is not a symbol", k + 1)),
    };
    puzzle.iter().enumerate().map(digit).collect()
}

/// Checks that `solution` solves `puzzle` (cells as written): n⁴ cells
/// each, every solution cell a symbol (or, for puzzles written in numbers,
/// a number 1..=n²), every given kept, and, through [`check_solution`],
/// every row, column and box a permutation. `symbols` defaults to
/// [`default_symbols`], or, for a 16×16 or 25×25 puzzle with letters, to
/// the set of those `cover` may read it in (`sets_of`) that the solution
/// is written in.
pub fn check_grid(
    puzzle: &[String],
    solution: &[String],
    symbols: Option<&str>,
) -> Result<(), String> {
    if symbols.is_none() {
        let sets = sets_of(puzzle, puzzle.len().isqrt())?;
        let written = |set: &&&str| {
            solution
                .iter()
                .all(|c| c.chars().count() == 1 && set.contains(c.as_str()))
        };
        if let Some(&set) = sets.iter().find(written).or(sets.first()) {
            return check_grid(puzzle, solution, Some(set));
        }
    }
    let given = digits(puzzle, symbols)?;
    let side = puzzle.len().isqrt();
    if solution.len() != puzzle.len() {
        return Err(format!(
            "{} cells printed for a puzzle of {}",
            solution.len(),
            puzzle.len()
        ));
    }
    let symbols = symbols.or(default_symbols(side)).unwrap_or("");
    let map = digit_map(side, symbols, in_numbers(puzzle, symbols))?;
    let digit = |(k, cell): (usize, &String)| {
        map.get(cell)
            .copied()
            .ok_or_else(|| format!("cell {} is {cell:?}, not a symbol", k + 1))
    };
    let solved = solution
        .iter()
        .enumerate()
        .map(digit)
        .collect::<Result<Vec<u8>, _>>()?;
    check_solution(&given, &solved, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    fn nine(line: &str) -> Vec<u8> {
        read_cells(line, 9).unwrap()
    }

    #[test]
    fn a_solution_passes_and_each_kind_of_error_fails() {
        let (p, s) = (nine(PUZZLE), nine(SOLUTION));
        assert_eq!(check_solution(&p, &s, 9), Ok(()));
        let mut swapped = s.clone();
        swapped.swap(0, 1); // 8 4 3: the row stays a permutation.
        assert!(check_solution(&p, &swapped, 9)
            .unwrap_err()
            .contains("column"));
        let mut given = s.clone();
        given[2] = 4;
        assert!(check_solution(&p, &given, 9).unwrap_err().contains("given"));
        let mut empty = s.clone();
        empty[5] = 0;
        assert!(check_solution(&p, &empty, 9).is_err());
        assert!(check_solution(&p, &s[1..], 9).is_err(), "a cell short");
        assert!(check_solution(&[0; 9], &[1; 9], 3).is_err(), "side 3");
        assert!(
            check_solution(&[], &[], usize::MAX).is_err(),
            "a side too large"
        );
    }

    #[test]
    fn the_counter_counts_known_cases() {
        assert_eq!(count_solutions(&nine(PUZZLE), 9, 2), 1);
        assert_eq!(count_solutions(&[0; 16], 4, 1000), 288, "4×4 grids");
        let mut clash = nine(PUZZLE);
        clash[0] = 3; // Row 1 already holds a 3.
        assert_eq!(count_solutions(&clash, 9, 2), 0);
        assert_eq!(count_solutions(&[0; 15], 4, 2), 0, "not a grid");
        assert_eq!(first_solution(&nine(PUZZLE), 9), Some(nine(SOLUTION)));
        assert_eq!(count_within(&[0; 81], 9, 1000, 50), None, "past the budget");
    }

    #[test]
    fn grids_as_written_are_checked() {
        let cells = |s: &str| line_cells(s);
        assert_eq!(check_grid(&cells(PUZZLE), &cells(SOLUTION), None), Ok(()));
        let wrong = SOLUTION.replacen('4', "5", 1);
        assert!(check_grid(&cells(PUZZLE), &cells(&wrong), None).is_err());
        assert!(check_grid(&cells(PUZZLE), &cells("1234"), None).is_err());
        let numbers = "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
        let solved = "1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1";
        assert_eq!(
            check_grid(&cells_of(numbers), &cells_of(solved), None),
            Ok(())
        );
        let moved = "2 1 3 4 3 4 1 2 1 2 4 3 4 3 2 1";
        assert!(check_grid(&cells_of(numbers), &cells_of(moved), None).is_err());
    }

    #[test]
    fn readers_of_each_layout() {
        let text = "# c\n1.3.\n\n12 | 34\n---+---\n34 | 12\nend\n1234\n";
        assert_eq!(read_puzzles(text, Layout::Line).len(), 3);
        let grids = read_puzzles("12\n34\n\n43\n21\n", Layout::Grid);
        assert_eq!(grids, [["1", "2", "3", "4"], ["4", "3", "2", "1"]]);
        assert_eq!(
            answer_units("a\nb\n\nc\n", true),
            [vec!["a", "b"], vec!["c"]]
        );
        assert_eq!(
            answer_cells(&["1 2 | 3 4", "----+----"], true),
            ["1", "2", "3", "4"]
        );
        let marks = ["1", ".", "0", "-"].map(String::from);
        let marks: Vec<String> = marks.iter().cycle().take(16).cloned().collect();
        assert_eq!(digits(&marks, None).unwrap()[..4], [1, 0, 0, 0]);
        let mut bad = marks.clone();
        bad[3] = "G".into();
        assert!(digits(&bad, None).is_err());
        assert!(read_cells("12x4", 4).is_err());
    }

    /// 16×16 puzzles in 1-9A-G or 0-9A-F read without symbols as the
    /// README says; a `0` with nothing to tell what it is reads neither way.
    #[test]
    fn sixteen_by_sixteen_sets() {
        let grid: Vec<u8> = (0..256)
            .map(|k| ((k / 16 % 4 * 4 + k / 64 + k % 16) % 16) as u8)
            .collect();
        let write = |set: &str, empty: Option<char>| -> Vec<String> {
            let chars: Vec<char> = set.chars().collect();
            (0..256)
                .map(|k| match empty {
                    Some(e) if k % 3 == 2 => e.to_string(),
                    _ => chars[grid[k] as usize].to_string(),
                })
                .collect()
        };
        for set in ["123456789ABCDEFG", "0123456789ABCDEF", "ABCDEFGHIJKLMNOP"] {
            let (puzzle, solution) = (write(set, Some('.')), write(set, None));
            assert_eq!(check_grid(&puzzle, &solution, None), Ok(()), "{set}");
            let digits = digits(&puzzle, None).unwrap();
            assert_eq!(digits.iter().filter(|&&d| d == 0).count(), 85, "{set}");
        }
        // The `0`s of 1-9A-G are empty cells beside a `G`.
        let puzzle = write("123456789ABCDEFG", Some('0'));
        let solution = write("123456789ABCDEFG", None);
        assert_eq!(check_grid(&puzzle, &solution, None), Ok(()));
        // A full 0-9A-F grid without `.`: `0` a digit or empty?
        let full = write("0123456789ABCDEF", None);
        assert!(digits(&full, None).unwrap_err().contains("--symbols"));
        // A solution in another set than the puzzle's is refused.
        let puzzle = write("0123456789ABCDEF", Some('.'));
        assert!(check_grid(&puzzle, &write("123456789ABCDEFG", None), None).is_err());
    }

    fn cells4(text: &str) -> Vec<String> {
        line_cells(text)
    }

    const PUZZLE4: &str = "12..3..........1";
    const SOLVED4: &str = "1243341221344321";

    #[test]
    fn a_written_solution_passes() {
        assert_eq!(check_grid(&cells4(PUZZLE4), &cells4(SOLVED4), None), Ok(()));
    }

    #[test]
    fn wrong_written_grids_fail() {
        let p = cells4(PUZZLE4);
        // A given changed (cell 1 from 1 to 2, and the rest adjusted).
        let changed = "2143341212344321";
        assert!(check_grid(&p, &cells4(changed), None).is_err());
        // Two cells swapped in a row: the columns repeat.
        assert!(check_grid(&p, &cells4("1243341221344312"), None).is_err());
        // A symbol that is not one.
        assert!(check_grid(&p, &cells4("1243341221344325"), None).is_err());
        // Too short.
        assert!(check_grid(&p, &cells4(&SOLVED4[1..]), None).is_err());
        // Rows fine, boxes wrong: a Latin square that is no sudoku.
        assert!(check_grid(&cells4(&".".repeat(16)), &cells4("1234234134124123"), None).is_err());
    }

    #[test]
    fn line_and_grid_readers() {
        let p = read_puzzles(
            "\u{feff}# c\n1...3.....4..3..:1:x\n1...3.....4..3.. 17\nend\n1\n",
            Layout::Line,
        );
        assert_eq!(p.len(), 2);
        assert_eq!(p[0], p[1]);
        assert_eq!(line_cells("1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1").len(), 16);
        let p = read_puzzles("1, 0, 0, 0\n3,0,0,0\n0 0 4 0\n0 3 0 0\n", Layout::Grid);
        assert_eq!(p[0].len(), 16);
        assert!(is_empty(&p[0][1], "1234", false));
        assert!(!is_empty(
            "0",
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            false
        ));
        assert!(is_empty("0", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", true));
    }

    #[test]
    fn the_budgeted_count_counts_known_cases() {
        const BUDGET: u64 = 2_000_000;
        assert_eq!(count_within(&[0; 16], 4, 1000, BUDGET), Some(288));
        assert_eq!(count_within(&[0; 16], 4, 2, BUDGET), Some(2));
        let mut clash = vec![0; 81];
        clash[0] = 5;
        clash[80] = 5;
        clash[8] = 5;
        assert_eq!(count_within(&clash, 9, 2, BUDGET), Some(0));
        assert_eq!(count_within(&nine(PUZZLE), 9, 2, BUDGET), Some(1));
        // One given fewer than 17 clues' worth: many solutions.
        assert_eq!(count_within(&[0; 81], 9, 2, BUDGET), Some(2));
        assert_eq!(count_within(&[0; 81], 9, 2, 10), None, "over budget");
        assert_eq!(count_within(&[0; 10], 4, 2, 10), None, "not a square");
        assert_eq!(count_within(&[17; 16], 4, 2, 10), None, "not a digit");
        // The grid 1234 3412 2143 4321 without cells 1, 3, 5 and 7 (rows
        // 1-2, columns 1 and 3): 1 and 3 may swap there, two solutions.
        let mut puzzle = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        for cell in [0, 2, 4, 6] {
            puzzle[cell] = 0;
        }
        assert_eq!(count_within(&puzzle, 4, 1000, BUDGET), Some(2));
        puzzle[0] = 1;
        assert_eq!(count_within(&puzzle, 4, 1000, BUDGET), Some(1));
    }
}
