//! The branch and bound of target sudoku: [`BranchAndBound`], the
//! [`Guide`] that follows every option the engine pushes and pops, keeps
//! the partial grid, and prunes it when an upper bound on the score of
//! every completion cannot beat the best complete grid found so far. It
//! knows the grid and the model's options, not how they are read or
//! printed.
//!
//! ## The bound: the ring identity ([`Bound::Rings`], the default)
//! A cell's weight is 6 plus the number of the centred squares of side 7,
//! 5, 3 and 1 that hold it, so a full grid scores 6 × 405 + S₇ + S₅ + S₃ +
//! S₁, S_k the sum of the centred k × k square. Since every row, column
//! and box of a full grid sums to 45:
//! - S₃ is the centre box: 45;
//! - S₇ is everything but rows 1 and 9 (90) and columns 1 and 9 without
//!   their ends (90 − the corners): 225 + the four corners;
//! - S₅ is rows 3..7 (225) less columns 1, 2, 8, 9 within them (180 − the
//!   four corner 2×2 blocks): 45 + the corner blocks. It is also 45 + the
//!   16 cells of ring 2 (weight 8), the rest of S₅.
//!
//! So every full grid scores **2745 + centre + corners + ring 2** (form B),
//! which is also 2745 + centre + corners + corner blocks (form A, where
//! the corners count twice). Only 33 cells matter, each with coefficient 1
//! or 2, and the others only through what they allow. The bound takes
//! the key cells of a form in groups that share a line (a row, a column or
//! a box, so they hold different digits) and gives each group the best
//! its line's missing digits can do, every cell capped by the largest
//! digit its own row, column and box still allow: digits largest first,
//! each to the free cell of largest coefficient that allows it (an
//! exchange argument shows this is the best assignment under caps, so at
//! least what any completion puts there). Each form is grouped by rows,
//! by columns and by boxes; the least of the six totals is the bound (the
//! search stops at the first that prunes, trying first the one that
//! pruned last).
//!
//! The per-line bounds ([`Bound::Lines`], [`Bound::Global`],
//! [`Bound::Nine`]: score so far plus a pairing of the empty cells'
//! weights with the digits still missing, by the rearrangement
//! inequality) use one family of lines at a time; they are kept to
//! measure what the ring bound is worth.

use std::fmt;

use dlx_core::{Control, Domain, Guide, Visitor};

use super::grid::{box_of, is_corner, weight, Grid, CELLS, CENTRE, LINES, SIDE};
use super::parse::TargetPuzzle;

/// Which upper bound the branch and bound prunes with. The default is the
/// one to use; the others exist to measure what a bound is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    /// No pruning: every solution is visited (the best is still kept).
    None,
    /// The score so far plus 9 × the weight of every empty cell.
    Nine,
    /// The score so far plus all empty cells' weights, largest first,
    /// paired with all missing digits (digit d is missing 9 − placed
    /// times), largest first.
    Global,
    /// The score so far plus the least of the row, column and box sums of
    /// each line's pairing of its empty cells' weights with the digits it
    /// misses.
    Lines,
    /// The ring identity (see the module documentation): 2745 plus the
    /// centre plus the best the key cells can hold, in groups that share
    /// a line, each capped by the digits its lines still allow.
    #[default]
    Rings,
}

impl Bound {
    /// Every bound, the default first.
    pub const ALL: [Bound; 5] = [
        Bound::Rings,
        Bound::Lines,
        Bound::Global,
        Bound::Nine,
        Bound::None,
    ];
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::None => "none",
            Bound::Nine => "nine",
            Bound::Global => "global",
            Bound::Lines => "lines",
            Bound::Rings => "rings",
        })
    }
}

/// The best grid of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    /// Its score.
    pub score: u32,
    /// The grid.
    pub grid: Grid,
}

/// Every full grid scores this plus its centre, its corners and its 16
/// ring-2 cells (see the module documentation).
pub const RING_BASE: u32 = 2745;
/// Bits 1..=9: every digit.
const ALL_DIGITS: u16 = 0b11_1111_1110;

/// Key cells that share a line (so they hold different digits) with their
/// coefficients in one form of the ring identity, largest first.
#[derive(Debug, Clone, Copy, Default)]
struct Group {
    /// The line they share: their digits are among the ones it misses.
    line: u8,
    /// How many cells.
    len: u8,
    cells: [u8; 5],
    coefficients: [u8; 5],
}

/// What the bounds need to know of the grid's geometry, computed once.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    /// `line_weights[line][k]`: the weight of the line's k-th heaviest
    /// cell. Lines 0..9 are the rows, 9..18 the columns, 18..27 the boxes.
    line_weights: [[u32; SIDE]; LINES],
    /// For each cell, its row, column and box, and its position in each
    /// (the k of `line_weights`).
    cell_lines: [[(u8, u8); 3]; CELLS],
    /// Partitions of the key cells into groups: one per form of the ring
    /// identity and kind of line.
    groupings: Vec<Vec<Group>>,
    /// The key cells of either form and the centre.
    key_cells: Vec<u8>,
}

impl Layout {
    pub(super) fn new() -> Layout {
        let mut line_weights = [[0; SIDE]; LINES];
        let mut cell_lines = [[(0, 0); 3]; CELLS];
        for line in 0..LINES {
            let mut cells: Vec<usize> = (0..CELLS)
                .filter(|&cell| match line / SIDE {
                    0 => cell / SIDE == line,
                    1 => cell % SIDE == line - SIDE,
                    _ => box_of(cell) == line - 2 * SIDE,
                })
                .collect();
            cells.sort_by_key(|&cell| std::cmp::Reverse(weight(cell)));
            for (k, &cell) in cells.iter().enumerate() {
                line_weights[line][k] = weight(cell);
                cell_lines[cell][line / SIDE] = (line as u8, k as u8);
            }
        }
        // Form A: the four corner 2×2 blocks, the corners counted twice.
        let outer = |i: usize| matches!(i, 0 | 1 | 7 | 8);
        let blocks: Vec<(usize, u8)> = (0..CELLS)
            .filter(|&cell| outer(cell / SIDE) && outer(cell % SIDE))
            .map(|cell| (cell, if is_corner(cell) { 2 } else { 1 }))
            .collect();
        // Form B: the corners and ring 2 (weight 8).
        let ring_two: Vec<(usize, u8)> = (0..CELLS)
            .filter(|&cell| is_corner(cell) || weight(cell) == 8)
            .map(|cell| (cell, 1))
            .collect();
        let mut groupings = Vec::new();
        for form in [&blocks, &ring_two] {
            for family in 0..3 {
                groupings.push(Self::group(form, family, &cell_lines));
            }
        }
        let mut key_cells: Vec<u8> = blocks
            .iter()
            .chain(&ring_two)
            .map(|&(cell, _)| cell as u8)
            .chain([CENTRE as u8])
            .collect();
        key_cells.sort_unstable();
        key_cells.dedup();
        Layout {
            line_weights,
            cell_lines,
            groupings,
            key_cells,
        }
    }

    /// Splits `cells` (with coefficients) by their line of `family` (0
    /// rows, 1 columns, 2 boxes).
    fn group(
        cells: &[(usize, u8)],
        family: usize,
        cell_lines: &[[(u8, u8); 3]; CELLS],
    ) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        let mut sorted = cells.to_vec();
        sorted.sort_by_key(|&(cell, coefficient)| (std::cmp::Reverse(coefficient), cell));
        for (cell, coefficient) in sorted {
            let line = cell_lines[cell][family].0;
            let index = match groups.iter().position(|g| g.line == line) {
                Some(index) => index,
                None => {
                    groups.push(Group {
                        line,
                        ..Group::default()
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[index];
            let at = usize::from(group.len);
            group.cells[at] = cell as u8;
            group.coefficients[at] = coefficient;
            group.len += 1;
        }
        groups
    }

    /// The most the empty positions `empty` of `line` (bits in
    /// heaviest-first order) can add with the digits `missing` (bit d for
    /// digit d): heaviest cells with the largest digits.
    #[inline]
    fn line_bound(&self, line: usize, mut empty: u16, mut missing: u16) -> u32 {
        let weights = &self.line_weights[line];
        let mut total = 0;
        while empty != 0 && missing != 0 {
            let k = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let digit = 15 - missing.leading_zeros();
            missing &= !(1 << digit);
            total += weights[k] * digit;
        }
        total
    }
}

/// The guide of the search: the partial grid, its score, what the bounds
/// keep up to date, and the best grid so far.
pub(super) struct BranchAndBound<'m> {
    layout: &'m Layout,
    choices: &'m [(u8, u8)],
    option_of: &'m [[u16; SIDE + 1]; CELLS],
    bound: Bound,
    grid: Grid,
    score: u32,
    /// Empty positions of each line (bits in heaviest-first order).
    line_empty: [u16; LINES],
    /// Digits missing from each line (bit d for digit d).
    line_missing: [u16; LINES],
    /// The pairing bound of each line (kept for [`Bound::Lines`] only).
    line_bound: [u32; LINES],
    /// The sums of `line_bound` over the rows, the columns and the boxes.
    family_bound: [u32; 3],
    /// How many more times each digit must be placed.
    digit_missing: [u8; SIDE + 1],
    /// Empty cells per weight.
    weight_empty: [u8; 11],
    /// The best grid so far.
    pub(super) best: Option<Best>,
    /// The grouping that pruned last, tried first.
    first_grouping: usize,
}

impl<'m> BranchAndBound<'m> {
    pub(super) fn new(
        layout: &'m Layout,
        choices: &'m [(u8, u8)],
        option_of: &'m [[u16; SIDE + 1]; CELLS],
        puzzle: &TargetPuzzle,
        bound: Bound,
    ) -> Self {
        let mut guide = BranchAndBound {
            layout,
            choices,
            option_of,
            bound,
            grid: [0; CELLS],
            score: 0,
            line_empty: [(1 << SIDE) - 1; LINES],
            line_missing: [ALL_DIGITS; LINES],
            line_bound: [0; LINES],
            family_bound: [0; 3],
            digit_missing: [SIDE as u8; SIDE + 1],
            weight_empty: [0; 11],
            best: None,
            first_grouping: 0,
        };
        guide.digit_missing[0] = 0;
        for cell in 0..CELLS {
            guide.weight_empty[weight(cell) as usize] += 1;
        }
        for (cell, &digit) in puzzle.cells.iter().enumerate() {
            if digit != 0 {
                guide.place(cell, digit);
            }
        }
        for line in 0..LINES {
            let bound = layout.line_bound(line, guide.line_empty[line], guide.line_missing[line]);
            guide.line_bound[line] = bound;
            guide.family_bound[line / SIDE] += bound;
        }
        guide
    }

    /// Puts `digit` in the empty `cell` (the line bounds aside).
    #[inline]
    fn place(&mut self, cell: usize, digit: u8) {
        self.grid[cell] = digit;
        self.score += weight(cell) * u32::from(digit);
        for (line, k) in self.layout.cell_lines[cell] {
            self.line_empty[usize::from(line)] &= !(1 << k);
            self.line_missing[usize::from(line)] &= !(1 << digit);
        }
        self.digit_missing[usize::from(digit)] -= 1;
        self.weight_empty[weight(cell) as usize] -= 1;
    }

    /// Empties `cell`, which holds `digit` (the line bounds aside).
    #[inline]
    fn clear(&mut self, cell: usize, digit: u8) {
        self.grid[cell] = 0;
        self.score -= weight(cell) * u32::from(digit);
        for (line, k) in self.layout.cell_lines[cell] {
            self.line_empty[usize::from(line)] |= 1 << k;
            self.line_missing[usize::from(line)] |= 1 << digit;
        }
        self.digit_missing[usize::from(digit)] += 1;
        self.weight_empty[weight(cell) as usize] += 1;
    }

    /// Recomputes the pairing bounds of the three lines through `cell`
    /// (for [`Bound::Lines`]).
    #[inline]
    fn update_lines(&mut self, cell: usize) {
        if self.bound != Bound::Lines {
            return;
        }
        for (family, (line, _)) in self.layout.cell_lines[cell].into_iter().enumerate() {
            let line = usize::from(line);
            let bound =
                self.layout
                    .line_bound(line, self.line_empty[line], self.line_missing[line]);
            self.family_bound[family] = self.family_bound[family] - self.line_bound[line] + bound;
            self.line_bound[line] = bound;
        }
    }

    /// Whether no completion of the partial grid scores more than `best`.
    #[inline]
    fn cannot_beat(&mut self, best: u32) -> bool {
        match self.bound {
            Bound::None => false,
            Bound::Nine => {
                let weights: u32 = (6..=10)
                    .map(|w| w * u32::from(self.weight_empty[w as usize]))
                    .sum();
                self.score + 9 * weights <= best
            }
            Bound::Global => self.score + self.global_bound() <= best,
            Bound::Lines => {
                let least = self.family_bound.into_iter().min().unwrap_or(0);
                self.score + least <= best
            }
            Bound::Rings => self.rings_cannot_beat(best),
        }
    }

    /// All empty cells' weights, largest first, paired with all missing
    /// digits, largest first.
    fn global_bound(&self) -> u32 {
        let mut total = 0;
        let mut digit = SIDE;
        let mut digits_left = self.digit_missing[digit];
        for weight in (6..=10u32).rev() {
            let mut cells = self.weight_empty[weight as usize];
            while cells > 0 {
                while digits_left == 0 {
                    if digit == 1 {
                        return total;
                    }
                    digit -= 1;
                    digits_left = self.digit_missing[digit];
                }
                let taken = cells.min(digits_left);
                total += weight * digit as u32 * u32::from(taken);
                cells -= taken;
                digits_left -= taken;
            }
        }
        total
    }

    /// The largest digit `cell`'s row, column and box still allow, or 0
    /// when they allow none.
    #[inline]
    fn cap(&self, cell: usize) -> u8 {
        let [(row, _), (column, _), (square, _)] = self.layout.cell_lines[cell];
        let allowed = self.line_missing[usize::from(row)]
            & self.line_missing[usize::from(column)]
            & self.line_missing[usize::from(square)];
        if allowed == 0 {
            return 0;
        }
        (15 - allowed.leading_zeros()) as u8
    }

    /// The ring identity bound: whether 2745 + the centre + the best of
    /// the key cells, for any grouping, is at most `best`. Each group is
    /// paired greedily: the largest digits its line misses first, each to
    /// the heaviest free cell whose cap allows it (the best pairing under
    /// caps, by an exchange argument, so at least what any completion
    /// puts there).
    fn rings_cannot_beat(&mut self, best: u32) -> bool {
        let mut caps = [0u8; CELLS];
        for &cell in &self.layout.key_cells {
            let cell = usize::from(cell);
            if self.grid[cell] == 0 {
                let cap = self.cap(cell);
                if cap == 0 {
                    // A key cell with no digit left: no completion at all.
                    return true;
                }
                caps[cell] = cap;
            }
        }
        self.rings_cannot_beat_under(best, &caps)
    }

    /// [`BranchAndBound::rings_cannot_beat`] with each empty key cell's
    /// largest live digit (what propagation left it) as its cap: tighter
    /// than what its lines allow.
    fn rings_cannot_beat_live(&mut self, best: u32, domain: &dyn Domain) -> bool {
        let mut caps = [0u8; CELLS];
        for &cell in &self.layout.key_cells {
            let cell = usize::from(cell);
            if self.grid[cell] == 0 {
                let options = &self.option_of[cell];
                let cap = (1..=SIDE as u8)
                    .rev()
                    .find(|&d| domain.is_live(usize::from(options[usize::from(d)])));
                match cap {
                    Some(cap) => caps[cell] = cap,
                    None => return true,
                }
            }
        }
        self.rings_cannot_beat_under(best, &caps)
    }

    /// The ring bound with the empty key cells capped by `caps`.
    fn rings_cannot_beat_under(&mut self, best: u32, caps: &[u8; CELLS]) -> bool {
        let centre = match self.grid[CENTRE] {
            0 => caps[CENTRE],
            digit => digit,
        };
        let base = RING_BASE + u32::from(centre);
        let count = self.layout.groupings.len();
        for turn in 0..count {
            let index = (self.first_grouping + turn) % count;
            let groups = &self.layout.groupings[index];
            let mut total = base;
            for group in groups {
                let mut free = 0u8;
                let mut by_cap = [0u8; SIDE + 1];
                for k in 0..usize::from(group.len) {
                    let cell = usize::from(group.cells[k]);
                    match self.grid[cell] {
                        0 => {
                            free |= 1 << k;
                            by_cap[usize::from(caps[cell])] |= 1 << k;
                        }
                        digit => total += u32::from(group.coefficients[k]) * u32::from(digit),
                    }
                }
                let missing = self.line_missing[usize::from(group.line)];
                let mut eligible = 0u8;
                let mut digit = SIDE;
                while free != 0 && digit > 0 {
                    eligible |= by_cap[digit];
                    let open = eligible & free;
                    if missing & (1 << digit) != 0 && open != 0 {
                        let k = open.trailing_zeros() as usize;
                        free &= !(1 << k);
                        total += u32::from(group.coefficients[k]) * digit as u32;
                    }
                    digit -= 1;
                }
            }
            if total <= best {
                self.first_grouping = index;
                return true;
            }
        }
        false
    }
}

impl Visitor for BranchAndBound<'_> {
    fn solution(&mut self, _options: &[usize]) -> Control {
        if !matches!(&self.best, Some(b) if b.score >= self.score) {
            self.best = Some(Best {
                score: self.score,
                grid: self.grid,
            });
        }
        Control::Continue
    }
}

impl Guide for BranchAndBound<'_> {
    #[inline]
    fn push(&mut self, option: usize) {
        let (cell, digit) = self.choices[option];
        self.place(usize::from(cell), digit);
        self.update_lines(usize::from(cell));
    }

    #[inline]
    fn pop(&mut self, option: usize) {
        let (cell, digit) = self.choices[option];
        self.clear(usize::from(cell), digit);
        self.update_lines(usize::from(cell));
    }

    #[inline]
    fn prune(&mut self) -> bool {
        match &self.best {
            None => false,
            Some(best) => {
                let best = best.score;
                self.cannot_beat(best)
            }
        }
    }

    fn prune_live(&mut self, domain: &dyn Domain) -> bool {
        match &self.best {
            Some(best) if self.bound == Bound::Rings => {
                let best = best.score;
                self.rings_cannot_beat_live(best, domain)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::ChaCha8Rng;
    use rand::SeedableRng;

    use super::*;
    use crate::target::grid::random_grid;
    use crate::target::grid::score;

    /// The identity the default bound rests on, on random full grids.
    #[test]
    fn every_full_grid_obeys_the_ring_identity() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let grid = random_grid(&mut rng);
            let sum = |keep: &dyn Fn(usize) -> bool| -> u32 {
                (0..CELLS)
                    .filter(|&c| keep(c))
                    .map(|c| u32::from(grid[c]))
                    .sum()
            };
            let corners = sum(&|c| is_corner(c));
            let ring_two = sum(&|c| weight(c) == 8);
            let outer = |i: usize| matches!(i, 0 | 1 | 7 | 8);
            let blocks = sum(&|c| outer(c / SIDE) && outer(c % SIDE));
            let centre = u32::from(grid[CENTRE]);
            assert_eq!(score(&grid), RING_BASE + centre + corners + ring_two);
            assert_eq!(ring_two, blocks);
        }
    }
}
