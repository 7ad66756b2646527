//! Variant sudoku (issue 36), checked from rules spelled out in full:
//! regions of any shape (rows, columns, boxes of any size, jigsaw pieces,
//! diagonals, windows), killer cages, anti-knight, anti-king,
//! non-consecutive and thermometers, and overlapping grids (Samurai: cells
//! of the frame outside every grid hold no digit); a grid checker, a
//! partial-grid checker and a plain backtracking counter used as an oracle
//! on small grids (4×4, 6×6, small overlapping shapes).
//!
//! It must not know the solver: nothing here comes from `cover-models`.
//! The checkers and the brute force are written separately (the checkers
//! go over each rule on the whole grid, the brute force checks a placed
//! cell against the rules that name it), so that the tests can hold each
//! to the other.
//!
//! ```
//! use cover_check::variant::{check_variant_grid, count_variant_brute, VariantRules};
//!
//! // 4×4 X-sudoku: rows, columns, 2×2 boxes and both diagonals.
//! let mut x = VariantRules::classic(4, 2, 2);
//! x.regions.push(vec![0, 5, 10, 15]);
//! x.regions.push(vec![3, 6, 9, 12]);
//! let grid = [1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3];
//! assert_eq!(check_variant_grid(&x, &grid), Ok(()));
//! assert_eq!(count_variant_brute(&x, &[0; 16], u64::MAX), 48);
//! ```

/// A variant sudoku's rules, spelled out: nothing is implied but that
/// cells hold digits 1..=side (or 1..=`digits`), and the `holes` none
/// (rows, columns and boxes are regions like any other).
///
/// Cells are numbered row by row from 0: cell `r * side + c` is row `r`,
/// column `c`. Messages name them `r1c1` … (from 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VariantRules {
    /// The grid is `side`×`side`, its cells row-major; digits are 1..=side.
    pub side: usize,
    /// Each region holds no digit twice (rows, columns, boxes, jigsaw
    /// pieces, diagonals, windows, …).
    pub regions: Vec<Vec<usize>>,
    /// Killer cages: no digit twice in a cage; its digits sum to the total
    /// when there is one.
    pub cages: Vec<(Vec<usize>, Option<u32>)>,
    /// Cells a chess knight's move apart hold different digits.
    pub anti_knight: bool,
    /// Cells a king's move apart (diagonal neighbours included) hold
    /// different digits.
    pub anti_king: bool,
    /// Orthogonal neighbours do not hold consecutive digits.
    pub non_consecutive: bool,
    /// Thermometers: digits strictly increase from the first cell (the
    /// bulb) along the list.
    pub thermos: Vec<Vec<usize>>,
    /// Cells of the frame that are no cells of the puzzle (Samurai's
    /// corners between the grids): they hold 0 in puzzles and solutions,
    /// and no rule may name them.
    pub holes: Vec<usize>,
    /// The digits are 1..=`digits`; `None`: 1..=side.
    pub digits: Option<usize>,
}

impl VariantRules {
    /// Classic sudoku of side `side`: its rows, columns and
    /// `box_rows`×`box_cols` boxes as regions (rows first, then columns,
    /// then boxes row by row), nothing else. `box_rows * box_cols` should
    /// be `side`; boxes are laid from the top left, as many whole ones as
    /// fit. `box_rows` or `box_cols` 0 gives no boxes: a Latin square.
    pub fn classic(side: usize, box_rows: usize, box_cols: usize) -> VariantRules {
        let mut regions = Vec::new();
        for r in 0..side {
            regions.push((0..side).map(|c| r * side + c).collect());
        }
        for c in 0..side {
            regions.push((0..side).map(|r| r * side + c).collect());
        }
        if box_rows > 0 && box_cols > 0 {
            for top in (0..side / box_rows).map(|b| b * box_rows) {
                for left in (0..side / box_cols).map(|b| b * box_cols) {
                    let mut cells = Vec::new();
                    for r in top..top + box_rows {
                        for c in left..left + box_cols {
                            cells.push(r * side + c);
                        }
                    }
                    regions.push(cells);
                }
            }
        }
        VariantRules {
            side,
            regions,
            ..VariantRules::default()
        }
    }

    /// Classic grids of side `box_rows * box_cols` (rows, columns, boxes)
    /// laid in a frame of side `side` with their top-left cells at
    /// `origins` (row, column); the frame's cells in no grid are holes.
    /// A region two grids share is listed twice (harmless to a checker).
    /// A grid's cell past the frame is named `usize::MAX`, which the
    /// checks then report as a cell off the grid.
    pub fn overlapping(
        side: usize,
        box_rows: usize,
        box_cols: usize,
        origins: &[(usize, usize)],
    ) -> VariantRules {
        let digits = box_rows * box_cols;
        let one = VariantRules::classic(digits, box_rows, box_cols);
        let mut regions = Vec::new();
        let mut covered = vec![false; side * side];
        for &(top, left) in origins {
            // The grid's cell (r, c) is the frame's (top + r, left + c).
            let place = |cell: usize| {
                let (r, c) = (top + cell / digits, left + cell % digits);
                if r < side && c < side {
                    r * side + c
                } else {
                    usize::MAX
                }
            };
            for region in &one.regions {
                let cells: Vec<usize> = region.iter().map(|&c| place(c)).collect();
                for &cell in &cells {
                    if let Some(seen) = covered.get_mut(cell) {
                        *seen = true;
                    }
                }
                regions.push(cells);
            }
        }
        VariantRules {
            side,
            regions,
            holes: (0..side * side).filter(|&c| !covered[c]).collect(),
            digits: Some(digits),
            ..VariantRules::default()
        }
    }

    /// Samurai: five 9×9 sudoku in a 21×21 frame, at the top left, top
    /// right, centre (rows and columns 6–14), bottom left and bottom right.
    pub fn samurai() -> VariantRules {
        VariantRules::overlapping(21, 3, 3, &[(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)])
    }

    /// The largest digit.
    fn top_digit(&self) -> usize {
        self.digits.unwrap_or(self.side)
    }

    /// Per cell of a grid of `cells` cells: whether it is a hole.
    fn hole_mask(&self, cells: usize) -> Vec<bool> {
        let mut mask = vec![false; cells];
        for &h in &self.holes {
            if let Some(m) = mask.get_mut(h) {
                *m = true;
            }
        }
        mask
    }
}

/// The offsets (rows, columns) of a knight's move.
const KNIGHT: [(isize, isize); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The offsets of a king's move.
const KING: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The offsets of the orthogonal neighbours.
const ORTHOGONAL: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// `cell` named for a message: `r2c3` (from 1).
fn name(cell: usize, side: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

/// The cell `(dr, dc)` away from `cell`, if it is on the grid.
fn step(cell: usize, (dr, dc): (isize, isize), side: usize) -> Option<usize> {
    let r = (cell / side).checked_add_signed(dr)?;
    let c = (cell % side).checked_add_signed(dc)?;
    (r < side && c < side).then_some(r * side + c)
}

/// Ok when the rules are well formed for a grid of `cells` cells: side
/// 1..=255 (digits are bytes), digits 1..=side, `cells` = side², and
/// every cell a rule names on the grid and no hole, none named twice by
/// one rule.
fn check_shape(rules: &VariantRules, cells: usize) -> Result<(), String> {
    let side = rules.side;
    if side == 0 || side > 255 {
        return Err(format!("side {side} is not within 1..=255"));
    }
    let digits = rules.top_digit();
    if digits == 0 || digits > side {
        return Err(format!("{digits} digits on a grid of side {side}"));
    }
    if let Some(&hole) = rules.holes.iter().find(|&&h| h >= cells) {
        return Err(format!("hole {hole} is off a grid of {cells} cells"));
    }
    let holes = rules.hole_mask(cells);
    if cells != side * side {
        return Err(format!(
            "{cells} cells, expected {} for side {side}",
            side * side
        ));
    }
    let lists = rules
        .regions
        .iter()
        .enumerate()
        .map(|(k, r)| (format!("regions[{k}]"), r))
        .chain(
            rules
                .cages
                .iter()
                .enumerate()
                .map(|(k, (c, _))| (format!("cages[{k}]"), c)),
        )
        .chain(
            rules
                .thermos
                .iter()
                .enumerate()
                .map(|(k, t)| (format!("thermos[{k}]"), t)),
        );
    for (what, list) in lists {
        let mut seen = vec![false; cells];
        for &cell in list {
            if cell >= cells {
                return Err(format!(
                    "{what} names cell {cell}, off a grid of {cells} cells"
                ));
            }
            if std::mem::replace(&mut seen[cell], true) {
                return Err(format!("{what} names {} twice", name(cell, side)));
            }
            if holes[cell] {
                return Err(format!(
                    "{what} names {}, a hole (outside the grids)",
                    name(cell, side)
                ));
            }
        }
    }
    Ok(())
}

/// Ok when every hole of `grid` is 0 and every other cell is 0 (empty,
/// only when `empty_ok`) or a digit 1..=digits. The grid is of the rules'
/// shape.
fn check_digits(rules: &VariantRules, grid: &[u8], empty_ok: bool) -> Result<(), String> {
    let (side, top) = (rules.side, rules.top_digit());
    let holes = rules.hole_mask(grid.len());
    for (cell, &digit) in grid.iter().enumerate() {
        if holes[cell] {
            if digit != 0 {
                return Err(format!(
                    "{}: {digit} in a hole (outside the grids), where no digit goes",
                    name(cell, side)
                ));
            }
        } else if (digit == 0 && !empty_ok) || usize::from(digit) > top {
            return Err(format!(
                "{}: {digit} is not a digit 1..={top}",
                name(cell, side)
            ));
        }
    }
    Ok(())
}

/// The rules, each over the whole grid, among the filled cells (0 is
/// empty and breaks nothing). The grid is of the rules' shape, its digits
/// 0..=side.
fn check_rules(rules: &VariantRules, grid: &[u8]) -> Result<(), String> {
    let side = rules.side;
    // A list of cells where no digit is twice.
    let no_repeat = |what: &str, cells: &[usize]| -> Result<(), String> {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if grid[a] != 0 && grid[a] == grid[b] {
                    return Err(format!(
                        "{what} holds {} twice, at {} and {}",
                        grid[a],
                        name(a, side),
                        name(b, side)
                    ));
                }
            }
        }
        Ok(())
    };
    for (k, region) in rules.regions.iter().enumerate() {
        no_repeat(&format!("regions[{k}]"), region)?;
    }
    for (k, (cage, total)) in rules.cages.iter().enumerate() {
        no_repeat(&format!("cage cages[{k}]"), cage)?;
        let Some(total) = *total else { continue };
        let sum: u32 = cage.iter().map(|&c| u32::from(grid[c])).sum();
        let full = cage.iter().all(|&c| grid[c] != 0);
        if sum > total || (full && sum != total) {
            let digits: Vec<u8> = cage.iter().map(|&c| grid[c]).collect();
            return Err(format!(
                "cage cages[{k}] at {}: digits {digits:?} sum to {sum}, its total is {total}",
                cage.iter()
                    .map(|&c| name(c, side))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }
    // A rule between two cells `offsets` apart: `clash` says when their
    // digits break it.
    let pairs = |rule: &str, offsets: &[(isize, isize)], clash: &dyn Fn(u8, u8) -> bool| {
        for a in 0..grid.len() {
            for &offset in offsets {
                let Some(b) = step(a, offset, side) else {
                    continue;
                };
                if grid[a] != 0 && grid[b] != 0 && clash(grid[a], grid[b]) {
                    return Err(format!(
                        "{rule}: {} holds {} and {} holds {}",
                        name(a, side),
                        grid[a],
                        name(b, side),
                        grid[b]
                    ));
                }
            }
        }
        Ok(())
    };
    if rules.anti_knight {
        pairs("anti-knight", &KNIGHT, &|a, b| a == b)?;
    }
    if rules.anti_king {
        pairs("anti-king", &KING, &|a, b| a == b)?;
    }
    if rules.non_consecutive {
        pairs("non-consecutive", &ORTHOGONAL, &|a, b| a.abs_diff(b) == 1)?;
    }
    for (k, thermo) in rules.thermos.iter().enumerate() {
        for (i, &a) in thermo.iter().enumerate() {
            for &b in &thermo[i + 1..] {
                if grid[a] != 0 && grid[b] != 0 && grid[a] >= grid[b] {
                    return Err(format!(
                        "thermos[{k}] does not increase: {} holds {}, then {} holds {}",
                        name(a, side),
                        grid[a],
                        name(b, side),
                        grid[b]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Ok when `grid` is a full grid of `rules`: every cell a digit 1..=side
/// and every rule holds. `Err` says what is wrong (which rule, which
/// cells, which digits), also for a grid of the wrong length or rules
/// that name cells off the grid.
pub fn check_variant_grid(rules: &VariantRules, grid: &[u8]) -> Result<(), String> {
    check_shape(rules, grid.len())?;
    check_digits(rules, grid, false)?;
    check_rules(rules, grid)
}

/// Ok when `solution` is a full grid of `rules` (as
/// [`check_variant_grid`]) that keeps every given of `puzzle` (0 is an
/// empty cell of the puzzle).
pub fn check_variant_solution(
    rules: &VariantRules,
    puzzle: &[u8],
    solution: &[u8],
) -> Result<(), String> {
    check_shape(rules, solution.len())?;
    if puzzle.len() != solution.len() {
        return Err(format!(
            "a puzzle of {} cells, a solution of {}",
            puzzle.len(),
            solution.len()
        ));
    }
    check_digits(rules, puzzle, true).map_err(|e| format!("puzzle: {e}"))?;
    check_variant_grid(rules, solution)?;
    for (cell, (&given, &digit)) in puzzle.iter().zip(solution).enumerate() {
        if given != 0 && given != digit {
            return Err(format!(
                "{}: the given {given} became {digit}",
                name(cell, rules.side)
            ));
        }
    }
    Ok(())
}

/// Ok when the partial grid `grid` (0 empty) breaks no rule among its
/// filled cells: no digit twice in a region or cage, no two filled cells
/// a knight's or king's move apart with one digit (when those rules are
/// on), no consecutive filled orthogonal neighbours (when on), and along
/// each thermometer the filled cells increase. A cage's sum is checked
/// when the cage is full, and a cage whose filled digits already sum past
/// its total is wrong too. Nothing is deduced: a grid that no solution
/// extends may pass.
pub fn check_variant_partial(rules: &VariantRules, grid: &[u8]) -> Result<(), String> {
    check_shape(rules, grid.len())?;
    check_digits(rules, grid, true)?;
    check_rules(rules, grid)
}

/// Solutions of `puzzle` (0 empty) under `rules`, counted up to `limit`,
/// by plain backtracking: cell by cell in row-major order (holes
/// skipped), each digit 1..=digits in turn, each placement checked against
/// every rule on the placed cell. A puzzle that is not of the rules' shape, or whose givens
/// already break a rule, counts 0. For small grids (4×4, 6×6) only.
pub fn count_variant_brute(rules: &VariantRules, puzzle: &[u8], limit: u64) -> u64 {
    Brute::run(rules, puzzle, limit).map_or(0, |b| b.found)
}

/// The first solution of `puzzle` in [`count_variant_brute`]'s order
/// (the smallest, read row by row), if any.
pub fn first_variant_brute(rules: &VariantRules, puzzle: &[u8]) -> Option<Vec<u8>> {
    Brute::run(rules, puzzle, 1)?.first
}

/// The backtracking search.
struct Brute<'r> {
    rules: &'r VariantRules,
    grid: Vec<u8>,
    /// Per cell: the regions that hold it.
    regions_of: Vec<Vec<usize>>,
    /// Per cell: the cages that hold it.
    cages_of: Vec<Vec<usize>>,
    /// Per cell: (thermometer, place along it) for each that holds it.
    thermos_of: Vec<Vec<(usize, usize)>>,
    /// Per cell: whether it is a hole (never filled).
    holes: Vec<bool>,
    found: u64,
    first: Option<Vec<u8>>,
    limit: u64,
}

impl<'r> Brute<'r> {
    /// The search of `puzzle`, run; `None` when the puzzle is not one of
    /// the rules' or its givens break a rule.
    fn run(rules: &'r VariantRules, puzzle: &[u8], limit: u64) -> Option<Brute<'r>> {
        check_variant_partial(rules, puzzle).ok()?;
        let cells = puzzle.len();
        let mut brute = Brute {
            rules,
            grid: puzzle.to_vec(),
            regions_of: vec![Vec::new(); cells],
            cages_of: vec![Vec::new(); cells],
            thermos_of: vec![Vec::new(); cells],
            holes: rules.hole_mask(cells),
            found: 0,
            first: None,
            limit,
        };
        for (k, region) in rules.regions.iter().enumerate() {
            for &cell in region {
                brute.regions_of[cell].push(k);
            }
        }
        for (k, (cage, _)) in rules.cages.iter().enumerate() {
            for &cell in cage {
                brute.cages_of[cell].push(k);
            }
        }
        for (k, thermo) in rules.thermos.iter().enumerate() {
            for (place, &cell) in thermo.iter().enumerate() {
                brute.thermos_of[cell].push((k, place));
            }
        }
        if limit > 0 {
            brute.go(0);
        }
        Some(brute)
    }

    /// Whether `digit` in the empty cell `cell` keeps every rule with the
    /// cells filled so far.
    fn fits(&self, cell: usize, digit: u8) -> bool {
        let (rules, grid, side) = (self.rules, &self.grid, self.rules.side);
        let others_differ = |cells: &[usize]| cells.iter().all(|&c| c == cell || grid[c] != digit);
        for &k in &self.regions_of[cell] {
            if !others_differ(&rules.regions[k]) {
                return false;
            }
        }
        for &k in &self.cages_of[cell] {
            let (cage, total) = &rules.cages[k];
            if !others_differ(cage) {
                return false;
            }
            if let Some(total) = *total {
                let others: u32 = cage
                    .iter()
                    .filter(|&&c| c != cell)
                    .map(|&c| u32::from(grid[c]))
                    .sum();
                let sum = others + u32::from(digit);
                let full = cage.iter().all(|&c| c == cell || grid[c] != 0);
                if sum > total || (full && sum != total) {
                    return false;
                }
            }
        }
        let neighbours = |offsets: &[(isize, isize)], clash: &dyn Fn(u8) -> bool| {
            offsets
                .iter()
                .filter_map(|&o| step(cell, o, side))
                .any(|c| grid[c] != 0 && clash(grid[c]))
        };
        if rules.anti_knight && neighbours(&KNIGHT, &|d| d == digit) {
            return false;
        }
        if rules.anti_king && neighbours(&KING, &|d| d == digit) {
            return false;
        }
        if rules.non_consecutive && neighbours(&ORTHOGONAL, &|d| d.abs_diff(digit) == 1) {
            return false;
        }
        for &(k, place) in &self.thermos_of[cell] {
            for (other, &c) in rules.thermos[k].iter().enumerate() {
                let d = grid[c];
                if d != 0 && ((other < place && d >= digit) || (other > place && d <= digit)) {
                    return false;
                }
            }
        }
        true
    }

    /// Fills the empty cells from `cell` on, in order.
    fn go(&mut self, cell: usize) {
        let Some(cell) = (cell..self.grid.len()).find(|&c| self.grid[c] == 0 && !self.holes[c])
        else {
            self.found += 1;
            self.first.get_or_insert_with(|| self.grid.clone());
            return;
        };
        for digit in 1..=self.rules.top_digit() as u8 {
            if self.found >= self.limit {
                return;
            }
            if self.fits(cell, digit) {
                self.grid[cell] = digit;
                self.go(cell + 1);
                self.grid[cell] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 sudoku whose two diagonals also hold 1..=4.
    const X_GRID: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3];
    /// A 4×4 sudoku whose main diagonal repeats 1 and 4.
    const PLAIN_GRID: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    /// `rules` with both diagonals added as regions.
    fn with_diagonals(mut rules: VariantRules) -> VariantRules {
        let s = rules.side;
        rules.regions.push((0..s).map(|i| i * s + i).collect());
        rules
            .regions
            .push((0..s).map(|i| i * s + s - 1 - i).collect());
        rules
    }

    /// The 24 permutations of 1..=4.
    fn permutations4() -> Vec<[u8; 4]> {
        let mut all = Vec::new();
        for a in 1..=4u8 {
            for b in (1..=4).filter(|&b| b != a) {
                for c in (1..=4).filter(|&c| c != a && c != b) {
                    all.push([a, b, c, 10 - a - b - c]);
                }
            }
        }
        all
    }

    /// Every 4×4 grid of `rules` whose rows are permutations, found by
    /// trying all 24⁴ choices of rows with [`check_variant_grid`]: a count
    /// that does not use the brute force.
    fn every_grid4(rules: &VariantRules) -> Vec<Vec<u8>> {
        let rows = permutations4();
        let mut found = Vec::new();
        for a in &rows {
            for b in &rows {
                for c in &rows {
                    for d in &rows {
                        let grid: Vec<u8> = [&a[..], b, c, d].concat();
                        if check_variant_grid(rules, &grid).is_ok() {
                            found.push(grid);
                        }
                    }
                }
            }
        }
        found
    }

    /// The brute force and the enumeration of rows agree on `rules`, and
    /// the brute force's first grid is the enumeration's first.
    fn agree4(rules: &VariantRules) -> u64 {
        let every = every_grid4(rules);
        let count = count_variant_brute(rules, &[0; 16], u64::MAX);
        assert_eq!(count, every.len() as u64, "{rules:?}");
        assert_eq!(first_variant_brute(rules, &[0; 16]), every.first().cloned());
        count
    }

    #[test]
    fn classic_boxes_are_regions() {
        let four = VariantRules::classic(4, 2, 2);
        assert_eq!(four.regions.len(), 12);
        assert_eq!(four.regions[8], vec![0, 1, 4, 5]);
        assert_eq!(four.regions[11], vec![10, 11, 14, 15]);
        let six = VariantRules::classic(6, 2, 3);
        assert_eq!(six.regions.len(), 18);
        assert_eq!(six.regions[12], vec![0, 1, 2, 6, 7, 8]);
        assert_eq!(six.regions[13], vec![3, 4, 5, 9, 10, 11]);
        assert_eq!(six.regions[14], vec![12, 13, 14, 18, 19, 20]);
    }

    #[test]
    fn regions_and_diagonals() {
        let classic = VariantRules::classic(4, 2, 2);
        let x = with_diagonals(classic.clone());
        assert_eq!(check_variant_grid(&classic, &X_GRID), Ok(()));
        assert_eq!(check_variant_grid(&x, &X_GRID), Ok(()));
        // A sudoku that breaks the main diagonal only.
        assert_eq!(check_variant_grid(&classic, &PLAIN_GRID), Ok(()));
        let e = check_variant_grid(&x, &PLAIN_GRID).unwrap_err();
        assert!(e.contains("regions[12]") && e.contains("r1c1"), "{e}");
        // Rows only: every column repeats.
        let rows = [1, 2, 3, 4].repeat(4);
        assert!(check_variant_grid(&classic, &rows)
            .unwrap_err()
            .contains("regions[4]"));
        // A jigsaw 4×4: rows, columns and four pieces of 3 cells in a row
        // and one below the first of them (or above the last).
        let mut jigsaw = VariantRules::classic(4, 0, 0);
        jigsaw.regions.extend([
            vec![0, 1, 2, 4],
            vec![3, 5, 6, 7],
            vec![8, 9, 10, 12],
            vec![11, 13, 14, 15],
        ]);
        let latin = [1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1];
        assert_eq!(
            check_variant_grid(&VariantRules::classic(4, 0, 0), &latin),
            Ok(())
        );
        let e = check_variant_grid(&jigsaw, &latin).unwrap_err();
        assert!(e.contains("regions[8] holds 2 twice"), "{e}");
        let grid = [1, 2, 3, 4, 4, 3, 1, 2, 2, 1, 4, 3, 3, 4, 2, 1];
        assert_eq!(check_variant_grid(&jigsaw, &grid), Ok(()));
        let first = first_variant_brute(&jigsaw, &[0; 16]).unwrap();
        assert_eq!(check_variant_grid(&jigsaw, &first), Ok(()));
    }

    #[test]
    fn windoku_windows_are_regions() {
        let mut windoku = VariantRules::classic(9, 3, 3);
        for top in [1, 5] {
            for left in [1, 5] {
                let window = (top..top + 3).flat_map(|r| (left..left + 3).map(move |c| r * 9 + c));
                windoku.regions.push(window.collect());
            }
        }
        assert_eq!(
            windoku.regions[27],
            vec![10, 11, 12, 19, 20, 21, 28, 29, 30]
        );
        let grid = first_variant_brute(&windoku, &[0; 81]).unwrap();
        assert_eq!(check_variant_grid(&windoku, &grid), Ok(()));
        // The first classic grid (rows 123456789, 456789123, 789123456,
        // …) breaks only the windows.
        let classic = VariantRules::classic(9, 3, 3);
        let plain = first_variant_brute(&classic, &[0; 81]).unwrap();
        assert_eq!(plain[..12], [1, 2, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6]);
        assert_eq!(check_variant_grid(&classic, &plain), Ok(()));
        let e = check_variant_grid(&windoku, &plain).unwrap_err();
        assert!(e.contains("regions[27]"), "{e}");
    }

    #[test]
    fn six_by_six_with_two_by_three_boxes() {
        let six = VariantRules::classic(6, 2, 3);
        #[rustfmt::skip]
        let grid = [
            1, 2, 3, 4, 5, 6,
            4, 5, 6, 1, 2, 3,
            2, 3, 1, 5, 6, 4,
            5, 6, 4, 2, 3, 1,
            3, 1, 2, 6, 4, 5,
            6, 4, 5, 3, 1, 2,
        ];
        assert_eq!(check_variant_grid(&six, &grid), Ok(()));
        // The same grid with boxes of 3 rows by 2 columns: the first box
        // holds 2 twice.
        let tall = VariantRules::classic(6, 3, 2);
        assert!(check_variant_grid(&tall, &grid)
            .unwrap_err()
            .contains("holds 2 twice"));
        // One cell short of the grid: one solution, the grid.
        let mut puzzle = grid;
        puzzle[20] = 0;
        assert_eq!(count_variant_brute(&six, &puzzle, 10), 1);
        assert_eq!(first_variant_brute(&six, &puzzle), Some(grid.to_vec()));
        assert_eq!(check_variant_solution(&six, &puzzle, &grid), Ok(()));
        // 28,200,960 grids in all: relabelling the digits is a bijection
        // that keeps every rule, and exactly one relabelling of each grid
        // has 1 2 3 4 5 6 for its first row, so 28,200,960 / 720 = 39,168
        // grids have that first row.
        let mut first_row = [0; 36];
        first_row[..6].copy_from_slice(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(28_200_960 / 720, 39_168);
        assert_eq!(count_variant_brute(&six, &first_row, u64::MAX), 39_168);
        // The limit stops the count.
        assert_eq!(count_variant_brute(&six, &[0; 36], 1000), 1000);
        assert_eq!(count_variant_brute(&six, &[0; 36], 0), 0);
    }

    #[test]
    fn counts_of_4x4_grids() {
        let classic = VariantRules::classic(4, 2, 2);
        assert_eq!(agree4(&classic), 288);
        // X-sudoku: 48 = 24 relabellings × the 2 grids with first row
        // 1 2 3 4 (worked by hand in the report, and here).
        assert_eq!(agree4(&with_diagonals(classic.clone())), 48);
        let mut first_row = [0; 16];
        first_row[..4].copy_from_slice(&[1, 2, 3, 4]);
        let x = with_diagonals(classic.clone());
        assert_eq!(count_variant_brute(&x, &first_row, u64::MAX), 2);
        assert_eq!(first_variant_brute(&x, &first_row), Some(X_GRID.to_vec()));
        // Latin squares of order 4 (rows and columns only): 576.
        assert_eq!(agree4(&VariantRules::classic(4, 0, 0)), 576);
    }

    #[test]
    fn killer_cages() {
        let classic = VariantRules::classic(4, 2, 2);
        let cage = |cells: &[usize], total: Option<u32>| (cells.to_vec(), total);
        let mut killer = classic.clone();
        killer.cages = vec![
            cage(&[0, 4], Some(4)),
            cage(&[1, 2], Some(5)),
            cage(&[3, 7], Some(6)),
            cage(&[5, 6], Some(5)),
            cage(&[8, 12], Some(6)),
            cage(&[9, 13], Some(4)),
            cage(&[10, 11], Some(3)),
            cage(&[14, 15], Some(7)),
        ];
        assert_eq!(check_variant_grid(&killer, &X_GRID), Ok(()));
        // Two grids: X_GRID, and X_GRID with its first two rows swapped
        // (every cage keeps its sum); the given 1 at r1c1 picks the first.
        assert_eq!(agree4(&killer), 2);
        let mut swapped = X_GRID;
        swapped[..8].rotate_left(4);
        assert_eq!(check_variant_grid(&killer, &swapped), Ok(()));
        let mut puzzle = [0u8; 16];
        puzzle[0] = 1;
        assert_eq!(count_variant_brute(&killer, &puzzle, u64::MAX), 1);
        assert_eq!(first_variant_brute(&killer, &puzzle), Some(X_GRID.to_vec()));
        assert_eq!(check_variant_solution(&killer, &puzzle, &X_GRID), Ok(()));
        assert!(check_variant_solution(&killer, &puzzle, &swapped).is_err());
        // A wrong total breaks only the cage.
        let mut wrong = killer.clone();
        wrong.cages[0].1 = Some(5);
        let e = check_variant_grid(&wrong, &X_GRID).unwrap_err();
        assert!(e.contains("cages[0]") && e.contains("sum to 4"), "{e}");
        // A cage without a total still holds no digit twice: r1c1 and r2c3
        // both hold 1, in different rows, columns and boxes.
        let mut twice = classic.clone();
        twice.cages = vec![cage(&[0, 6], None)];
        assert!(check_variant_grid(&twice, &X_GRID)
            .unwrap_err()
            .contains("holds 1 twice"));
        twice.cages = vec![cage(&[0, 1, 6], None)];
        assert!(check_variant_grid(&twice, &X_GRID).is_err());
        twice.cages = vec![cage(&[0, 1, 2, 3, 4], None)];
        assert!(check_variant_grid(&twice, &X_GRID).is_err());
        twice.cages = vec![cage(&[0, 1, 8], None)];
        assert_eq!(check_variant_grid(&twice, &X_GRID), Ok(()));
        let mut sum = classic.clone();
        sum.cages = vec![cage(&[0, 1, 2], Some(6))];
        // The first row is a permutation with 4 last: 6 of 24, so a quarter
        // of the 288 grids.
        assert_eq!(agree4(&sum), 72);
    }

    #[test]
    fn partial_grids_and_cage_sums() {
        let mut rules = VariantRules::classic(4, 2, 2);
        rules.cages = vec![(vec![0, 1, 2], Some(6))];
        let mut grid = [0u8; 16];
        assert_eq!(check_variant_partial(&rules, &grid), Ok(()));
        grid[0] = 4;
        assert_eq!(check_variant_partial(&rules, &grid), Ok(()));
        grid[1] = 2;
        assert_eq!(
            check_variant_partial(&rules, &grid),
            Ok(()),
            "4 + 2 = 6 with a cell left: not summed past"
        );
        grid[1] = 3;
        assert!(check_variant_partial(&rules, &grid)
            .unwrap_err()
            .contains("sum to 7"));
        grid[1] = 1;
        grid[2] = 2;
        assert!(check_variant_partial(&rules, &grid)
            .unwrap_err()
            .contains("sum to 7"));
        grid[0] = 3;
        assert_eq!(check_variant_partial(&rules, &grid), Ok(()));
        // A full cage that falls short.
        grid[0] = 0;
        grid[1] = 1;
        grid[2] = 0;
        rules.cages = vec![(vec![0, 1, 2], Some(9))];
        assert_eq!(check_variant_partial(&rules, &grid), Ok(()));
        grid[0] = 2;
        grid[2] = 3;
        assert!(check_variant_partial(&rules, &grid)
            .unwrap_err()
            .contains("sum to 6"));
        // Repeats among filled cells of a region.
        let mut grid = [0u8; 16];
        grid[0] = 2;
        grid[15] = 2;
        assert_eq!(check_variant_partial(&rules, &grid), Ok(()));
        grid[8] = 2;
        assert!(check_variant_partial(&rules, &grid)
            .unwrap_err()
            .contains("regions[4]"));
        // Givens that break a rule: no solution.
        assert_eq!(count_variant_brute(&rules, &grid, 10), 0);
        assert_eq!(first_variant_brute(&rules, &grid), None);
    }

    #[test]
    fn thermometers() {
        let classic = VariantRules::classic(4, 2, 2);
        let mut thermo = classic.clone();
        thermo.thermos = vec![vec![0, 1, 2, 3]];
        assert_eq!(check_variant_grid(&thermo, &X_GRID), Ok(()));
        // A thermometer 1 → 4 along r1 forces the first row: 288 / 24.
        assert_eq!(agree4(&thermo), 12);
        // Down from r4c1 to r1c1: the first column is 4 3 2 1.
        thermo.thermos = vec![vec![12, 8, 4, 0]];
        assert_eq!(agree4(&thermo), 12);
        // Along the first row backwards: only the thermometer is broken.
        thermo.thermos = vec![vec![3, 2]];
        let e = check_variant_grid(&thermo, &X_GRID).unwrap_err();
        assert!(e.contains("thermos[0]") && e.contains("r1c4"), "{e}");
        // A bent thermometer r2c1 (3) → r1c1 (1): broken; r1c1 → r2c1 → r2c2: 1 3 4.
        thermo.thermos = vec![vec![4, 0]];
        assert!(check_variant_grid(&thermo, &X_GRID).is_err());
        thermo.thermos = vec![vec![0, 4, 5]];
        assert_eq!(check_variant_grid(&thermo, &X_GRID), Ok(()));
        // Partial: filled cells only, in order, even with a gap.
        let mut grid = [0u8; 16];
        grid[0] = 2;
        grid[5] = 3;
        assert_eq!(check_variant_partial(&thermo, &grid), Ok(()));
        grid[5] = 2;
        assert!(check_variant_partial(&thermo, &grid).is_err());
        grid[5] = 1;
        assert!(check_variant_partial(&thermo, &grid).is_err());
    }

    #[test]
    fn anti_knight() {
        let classic = VariantRules::classic(4, 2, 2);
        let mut knight = classic.clone();
        knight.anti_knight = true;
        // X_GRID has 1 at r1c1 and at r2c3, a knight's move apart.
        let e = check_variant_grid(&knight, &X_GRID).unwrap_err();
        assert!(
            e.contains("anti-knight") && e.contains("r1c1") && e.contains("r2c3"),
            "{e}"
        );
        let grid = [1, 2, 3, 4, 4, 3, 2, 1, 3, 4, 1, 2, 2, 1, 4, 3];
        assert_eq!(check_variant_grid(&knight, &grid), Ok(()));
        assert_eq!(agree4(&knight), 24);
    }

    #[test]
    fn anti_king() {
        // With rows, columns and boxes no 4×4 grid is anti-king (the
        // enumeration of rows agrees); even Latin squares of 4 are not.
        let mut king = VariantRules::classic(4, 2, 2);
        king.anti_king = true;
        assert_eq!(agree4(&king), 0);
        assert!(check_variant_grid(&king, &X_GRID)
            .unwrap_err()
            .contains("anti-king"));
        king.regions = VariantRules::classic(4, 0, 0).regions;
        assert_eq!(agree4(&king), 0);
        // Anti-king alone: 2×2 tiles of 1 2 / 3 4 keep it…
        let alone = VariantRules {
            side: 4,
            anti_king: true,
            ..VariantRules::default()
        };
        let tiles = [1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4];
        assert_eq!(check_variant_grid(&alone, &tiles), Ok(()));
        // …and a diagonal neighbour is a king's move.
        let mut diagonal = tiles;
        diagonal[5] = 1;
        let e = check_variant_grid(&alone, &diagonal).unwrap_err();
        assert!(e.contains("anti-king"), "{e}");
        assert_eq!(count_variant_brute(&alone, &tiles, 5), 1);
        // A 5×5 Latin square that is anti-king: r(i) c(j) holds 2i + j mod 5.
        let five: Vec<u8> = (0..25)
            .map(|k| ((2 * (k / 5) + k % 5) % 5 + 1) as u8)
            .collect();
        let mut latin = VariantRules::classic(5, 0, 0);
        latin.anti_king = true;
        assert_eq!(check_variant_grid(&latin, &five), Ok(()));
        let cyclic: Vec<u8> = (0..25).map(|k| ((k / 5 + k % 5) % 5 + 1) as u8).collect();
        assert_eq!(
            check_variant_grid(&VariantRules::classic(5, 0, 0), &cyclic),
            Ok(())
        );
        assert!(check_variant_grid(&latin, &cyclic)
            .unwrap_err()
            .contains("anti-king"));
    }

    #[test]
    fn non_consecutive() {
        // 4×4 sudoku: none (in a box, 2's two orthogonal neighbours would
        // both have to be 4).
        let mut rules = VariantRules::classic(4, 2, 2);
        rules.non_consecutive = true;
        assert_eq!(agree4(&rules), 0);
        // 5×5 Latin squares: r(i) c(j) holds 2(i + j) mod 5 + 1 keeps it;
        // the cyclic square (i + j) breaks only it.
        let mut latin = VariantRules::classic(5, 0, 0);
        latin.non_consecutive = true;
        let good: Vec<u8> = (0..25)
            .map(|k| ((2 * (k / 5 + k % 5)) % 5 + 1) as u8)
            .collect();
        assert_eq!(check_variant_grid(&latin, &good), Ok(()));
        let cyclic: Vec<u8> = (0..25).map(|k| ((k / 5 + k % 5) % 5 + 1) as u8).collect();
        let e = check_variant_grid(&latin, &cyclic).unwrap_err();
        assert!(e.contains("non-consecutive"), "{e}");
        // The rule alone: diagonal neighbours may be consecutive (1 and 2
        // here), orthogonal ones not.
        let alone = VariantRules {
            side: 4,
            non_consecutive: true,
            ..VariantRules::default()
        };
        let grid = [1, 4, 1, 4, 4, 2, 4, 2, 1, 4, 1, 4, 4, 2, 4, 2];
        assert_eq!(check_variant_grid(&alone, &grid), Ok(()));
        let mut next = grid;
        next[1] = 2;
        let e = check_variant_grid(&alone, &next).unwrap_err();
        assert!(
            e.contains("non-consecutive") && e.contains("r1c2 holds 2"),
            "{e}"
        );
        let mut below = grid;
        below[4] = 2;
        assert!(check_variant_grid(&alone, &below).is_err());
    }

    #[test]
    fn latin_squares_of_five_and_the_filter() {
        // 161,280 Latin squares of order 5 (a known count); those that are
        // non-consecutive, found by filtering them with the checker, are
        // what the brute force counts with the rule.
        let latin = VariantRules::classic(5, 0, 0);
        assert_eq!(count_variant_brute(&latin, &[0; 25], u64::MAX), 161_280);
        let mut rules = latin.clone();
        rules.non_consecutive = true;
        let mut filtered = 0;
        let mut squares = Vec::new();
        collect_latin5(&mut [0; 25], 0, &mut squares);
        assert_eq!(squares.len(), 161_280);
        for square in &squares {
            assert_eq!(check_variant_grid(&latin, square), Ok(()));
            if check_variant_grid(&rules, square).is_ok() {
                filtered += 1;
            }
        }
        assert_eq!(count_variant_brute(&rules, &[0; 25], u64::MAX), filtered);
    }

    /// Every 5×5 Latin square, by a plain search of its own.
    fn collect_latin5(grid: &mut [u8; 25], cell: usize, out: &mut Vec<[u8; 25]>) {
        if cell == 25 {
            out.push(*grid);
            return;
        }
        let (r, c) = (cell / 5, cell % 5);
        for d in 1..=5 {
            if (0..c).all(|j| grid[r * 5 + j] != d) && (0..r).all(|i| grid[i * 5 + c] != d) {
                grid[cell] = d;
                collect_latin5(grid, cell + 1, out);
                grid[cell] = 0;
            }
        }
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let classic = VariantRules::classic(4, 2, 2);
        assert!(check_variant_grid(&classic, &X_GRID[1..])
            .unwrap_err()
            .contains("15 cells"));
        assert!(check_variant_partial(&classic, &[0; 17]).is_err());
        assert!(check_variant_solution(&classic, &[0; 15], &X_GRID).is_err());
        assert!(check_variant_solution(&classic, &X_GRID, &X_GRID[1..]).is_err());
        // Digits out of range.
        let mut five = X_GRID;
        five[3] = 5;
        assert!(check_variant_grid(&classic, &five)
            .unwrap_err()
            .contains("r1c4: 5"));
        assert!(check_variant_partial(&classic, &five).is_err());
        assert!(check_variant_solution(&classic, &five, &X_GRID)
            .unwrap_err()
            .contains("puzzle"));
        let mut empty = X_GRID;
        empty[3] = 0;
        assert!(check_variant_grid(&classic, &empty).is_err());
        assert!(check_variant_solution(&classic, &empty, &empty).is_err());
        assert_eq!(check_variant_partial(&classic, &empty), Ok(()));
        // Givens kept.
        assert_eq!(check_variant_solution(&classic, &empty, &X_GRID), Ok(()));
        let mut given = [0u8; 16];
        given[0] = 2;
        assert!(check_variant_solution(&classic, &given, &X_GRID)
            .unwrap_err()
            .contains("given 2"));
        // Cells off the grid, or twice in one rule.
        for broken in [
            VariantRules {
                regions: vec![vec![0, 16]],
                ..classic.clone()
            },
            VariantRules {
                cages: vec![(vec![99], Some(3))],
                ..classic.clone()
            },
            VariantRules {
                thermos: vec![vec![usize::MAX]],
                ..classic.clone()
            },
            VariantRules {
                regions: vec![vec![1, 2, 1]],
                ..classic.clone()
            },
            VariantRules {
                thermos: vec![vec![3, 3]],
                ..classic.clone()
            },
        ] {
            assert!(check_variant_grid(&broken, &X_GRID).is_err(), "{broken:?}");
            assert!(check_variant_partial(&broken, &[0; 16]).is_err());
            assert!(check_variant_solution(&broken, &[0; 16], &X_GRID).is_err());
            assert_eq!(count_variant_brute(&broken, &[0; 16], 10), 0);
            assert_eq!(first_variant_brute(&broken, &[0; 16]), None);
        }
        // Sides that are no grid.
        let nothing = VariantRules::default();
        assert!(check_variant_grid(&nothing, &[]).is_err());
        assert_eq!(count_variant_brute(&nothing, &[], 10), 0);
        let huge = VariantRules {
            side: 256,
            ..VariantRules::default()
        };
        assert!(check_variant_grid(&huge, &[]).is_err());
        let mut wide = X_GRID.to_vec();
        wide.push(1);
        assert_eq!(count_variant_brute(&classic, &wide, 10), 0);
    }

    /// A Samurai solution by formula: the frame's cell (r, c) holds
    /// (3·(r mod 3) + ⌊r/3⌋ + c) mod 9 + 1, which makes every 9×9 window
    /// whose top-left row and column are multiples of 3 a sudoku; holes 0.
    fn samurai_grid(rules: &VariantRules) -> Vec<u8> {
        (0..441)
            .map(|cell| {
                let (r, c) = (cell / 21, cell % 21);
                if rules.holes.contains(&cell) {
                    0
                } else {
                    ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
                }
            })
            .collect()
    }

    #[test]
    fn samurai_and_holes() {
        let samurai = VariantRules::samurai();
        assert_eq!(samurai.regions.len(), 5 * 27);
        assert_eq!(samurai.holes.len(), 441 - (5 * 81 - 4 * 9));
        // The gaps between the corner grids: r1c10 and r10c1 are holes.
        assert!(samurai.holes.contains(&9) && samurai.holes.contains(&(9 * 21)));
        let grid = samurai_grid(&samurai);
        assert_eq!(check_variant_grid(&samurai, &grid), Ok(()));
        // A digit in a hole, a hole named by a rule, an empty cell.
        let mut filled = grid.clone();
        filled[9] = 3;
        let e = check_variant_grid(&samurai, &filled).unwrap_err();
        assert!(e.contains("r1c10") && e.contains("hole"), "{e}");
        let mut named = samurai.clone();
        named.cages.push((vec![8, 9], None));
        assert!(check_variant_grid(&named, &grid)
            .unwrap_err()
            .contains("hole"));
        let mut emptied = grid.clone();
        emptied[0] = 0;
        assert!(check_variant_grid(&samurai, &emptied).is_err());
        assert_eq!(check_variant_partial(&samurai, &emptied), Ok(()));
        // Ten is no digit of a Samurai, though the frame's side is 21.
        let mut ten = grid.clone();
        ten[0] = 10;
        assert!(check_variant_grid(&samurai, &ten)
            .unwrap_err()
            .contains("1..=9"));
        // Swapping two cells of a row of the centre grid's top-left box
        // (shared with the top-left grid) breaks columns.
        let mut swapped = grid.clone();
        swapped.swap(6 * 21 + 6, 6 * 21 + 7);
        assert!(check_variant_grid(&samurai, &swapped).is_err());
        // The puzzle with every cell given has this one solution.
        assert_eq!(check_variant_solution(&samurai, &grid, &grid), Ok(()));
        let mut one_short = grid.clone();
        one_short[200] = 0;
        assert_eq!(count_variant_brute(&samurai, &one_short, 5), 1);
        // A grid past its frame is reported, not a panic.
        let outside = VariantRules::overlapping(6, 2, 2, &[(0, 0), (3, 3)]);
        assert!(check_variant_grid(&outside, &[0; 36]).is_err());
        assert_eq!(count_variant_brute(&outside, &[0; 36], 5), 0);
    }

    #[test]
    fn overlapping_four_by_fours() {
        // Two 4×4 sudoku sharing a 2×2 box: each of the 288 grids of the
        // first leaves the second its grids with that box given, which are
        // as many for every box (relabelling): the 4×4 grids with
        // 1 2 / 3 4 in the top-left box.
        let classic = VariantRules::classic(4, 2, 2);
        let mut boxed = [0u8; 16];
        boxed[..2].copy_from_slice(&[1, 2]);
        boxed[4..6].copy_from_slice(&[3, 4]);
        let per_box = count_variant_brute(&classic, &boxed, u64::MAX);
        assert_eq!(per_box, 288 / 24);
        let two = VariantRules::overlapping(6, 2, 2, &[(0, 0), (2, 2)]);
        assert_eq!(two.holes, vec![4, 5, 10, 11, 24, 25, 30, 31]);
        assert_eq!(count_variant_brute(&two, &[0; 36], u64::MAX), 288 * per_box);
        // A chain of three: the middle grid shares a box with each.
        let three = VariantRules::overlapping(8, 2, 2, &[(0, 0), (2, 2), (4, 4)]);
        assert_eq!(
            count_variant_brute(&three, &[0; 64], u64::MAX),
            288 * per_box * per_box
        );
        // The brute force leaves holes empty.
        let first = first_variant_brute(&two, &[0; 36]).unwrap();
        assert!(two.holes.iter().all(|&h| first[h] == 0));
        assert_eq!(check_variant_grid(&two, &first), Ok(()));
    }
}
