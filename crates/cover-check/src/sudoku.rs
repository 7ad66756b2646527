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
    if sides(side * side).is_none() {
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

/// Checks that `solution` solves `puzzle` (cells as written): n⁴ cells
/// each, every solution cell a symbol (or, for puzzles written in numbers,
/// a number 1..=n²), every given kept, and, through [`check_solution`],
/// every row, column and box a permutation. `symbols` defaults to
/// [`default_symbols`].
pub fn check_grid(
    puzzle: &[String],
    solution: &[String],
    symbols: Option<&str>,
) -> Result<(), String> {
    let (side, _) = sides(puzzle.len()).ok_or("the puzzle is not n⁴ cells")?;
    if solution.len() != puzzle.len() {
        return Err(format!(
            "{} cells printed for a puzzle of {}",
            solution.len(),
            puzzle.len()
        ));
    }
    let symbols = symbols.or(default_symbols(side)).unwrap_or("");
    let numbers = in_numbers(puzzle, symbols);
    let digits: HashMap<String, u8> = if numbers {
        (1..=side).map(|v| (v.to_string(), v as u8)).collect()
    } else {
        let symbol = |(k, c): (usize, char)| (String::from(c), k as u8 + 1);
        symbols.chars().enumerate().map(symbol).collect()
    };
    if digits.len() != side {
        return Err(format!("no symbols known for side {side}"));
    }
    let mut given = Vec::with_capacity(puzzle.len());
    let mut digit = Vec::with_capacity(puzzle.len());
    for (k, (p, s)) in puzzle.iter().zip(solution).enumerate() {
        let d = *digits
            .get(s)
            .ok_or_else(|| format!("cell {} is {s:?}, not a symbol", k + 1))?;
        let g = if is_empty(p, symbols, numbers) {
            0
        } else {
            *digits
                .get(p)
                .ok_or_else(|| format!("cell {}: the given {p:?} is not a symbol", k + 1))?
        };
        given.push(g);
        digit.push(d);
    }
    check_solution(&given, &digit, side)
}

/// A puzzle's digits (1..=side, 0 for empty): a cell is its place among
/// `symbols` plus one, else a number 1..=side, else one of the empty marks
/// `. - _ 0`. `None` when a cell is none of these.
pub fn digits_of(cells: &[String], symbols: &str) -> Option<Vec<u8>> {
    let side = cells.len().isqrt();
    cells
        .iter()
        .map(|cell| {
            let mut chars = cell.chars();
            let symbol = match (chars.next(), chars.next()) {
                (Some(c), None) => symbols.chars().position(|s| s == c),
                _ => None,
            };
            let digit = match (symbol, cell.parse::<usize>()) {
                (Some(at), _) => Some(at + 1),
                (None, Ok(0)) => Some(0),
                (None, Ok(n)) if n <= side => Some(n),
                _ if matches!(cell.as_str(), "." | "-" | "_") => Some(0),
                _ => None,
            };
            digit.and_then(|d| u8::try_from(d).ok())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    fn digits(line: &str) -> Vec<u8> {
        read_cells(line, 9).unwrap()
    }

    #[test]
    fn a_solution_passes_and_each_kind_of_error_fails() {
        let (p, s) = (digits(PUZZLE), digits(SOLUTION));
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
    }

    #[test]
    fn the_counter_counts_known_cases() {
        assert_eq!(count_solutions(&digits(PUZZLE), 9, 2), 1);
        assert_eq!(count_solutions(&[0; 16], 4, 1000), 288, "4×4 grids");
        let mut clash = digits(PUZZLE);
        clash[0] = 3; // Row 1 already holds a 3.
        assert_eq!(count_solutions(&clash, 9, 2), 0);
        assert_eq!(count_solutions(&[0; 15], 4, 2), 0, "not a grid");
        assert_eq!(first_solution(&digits(PUZZLE), 9), Some(digits(SOLUTION)));
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
        let marks = ["1", ".", "0", "-", "G"].map(String::from);
        assert_eq!(digits_of(&marks[..4], "1234"), Some(vec![1, 0, 0, 0]));
        assert_eq!(digits_of(&marks, "1234"), None);
        assert!(read_cells("12x4", 4).is_err());
    }
}
