//! The band engine: a bit-parallel 9×9 sudoku engine with candidates as
//! bit boards, reasoning a board at a time, guesses on an explicit stack.
//!
//! The exact-cover engines see a sudoku as 324 items and 729 options and
//! pay for that generality at every step. This engine knows the puzzle:
//! for each digit three 27-bit bands (three rows of nine cells, a `u32`
//! each) of the cells that may still hold it, and per band the cells
//! still empty. Between guesses it runs, to a fixpoint:
//! - band reasoning, per digit and band, wherever the candidates changed
//!   since it last looked: the row-to-box permutations (a table of the
//!   ways a digit can sit in a band's three rows and three boxes) strike
//!   out what no placement allows, which is box-line both ways and the
//!   row and box peers of a placed digit; a box whose places lie in one
//!   column takes that column from the other bands (pointing along
//!   columns, and a placed digit's column peers); a row with one place
//!   left is placed there;
//! - naked singles: a cell with one candidate left takes it (all cells of
//!   a band at once, by bit-sliced counting of the nine digits);
//! - hidden singles in columns (rows and boxes are the band reasoning's).
//!
//! A cell with no candidate, or a unit where a digit has no place, is a
//! dead end. Otherwise it guesses on a bivalue cell, else on the first
//! empty cell of a band with the fewest candidates, its smallest digit: the board with that
//! digit placed is searched now, and the board with that digit struck
//! out is pushed on a stack of copies (binary branching, no recursion;
//! the stack is reserved once, 81 boards deep). Every solution is found
//! exactly once, so counts are exact.
//!
//! It knows nothing of exact cover, files or output: grids in (digits
//! `1..=9`, 0 for empty, row by row), solutions handed to a callback.
//! `sudoku::Solver` runs it for 9×9 under `Engine::Band` (`cover sudoku
//! --engine band`), and under `Engine::Auto` on machines without AVX2,
//! where the triad engine ([`super::triad`], the default elsewhere) runs
//! its portable vectors and is slower than this one. What it shares with
//! the triad engine (its statistics, the checks that end the search loop)
//! is in `bit_search`.
//!
//! Where it stands and what was tried: `docs/measurements.md`.

use dlx_core::{Control, Limits, Outcome};

use super::bit_search::{guess_allowed, search_entry_points, solution_found, BitStats};

const CELLS: usize = 81;
/// A band: three rows of nine cells, bit `row * 9 + column`.
const BAND: u32 = (1 << 27) - 1;
/// The nine cells of a row, at the band's first row.
const ROW: u32 = 0x1ff;

/// The tables of band reasoning, computed at compile time.
struct Tables {
    /// For a row's nine cells: the boxes (three bits) it touches.
    boxes_of_row: [u8; 512],
    /// For a row's nine cells: 1 when exactly one is set.
    single: [u8; 512],
    /// For a band's 3×3 row-by-box occupancy (bit `row * 3 + box`): the
    /// band cells that lie in some row-to-box permutation inside it, 0
    /// when there is none. Each row of the band takes the digit once and
    /// each box once, so the digit's three places form a permutation;
    /// a segment in no permutation cannot hold it. This one lookup is
    /// box-line reasoning within the band, both ways, and more.
    permutations: [u32; 512],
    /// For the columns (nine bits) where a digit may go in a band: the
    /// cells the other bands keep for it. A box whose places lie in one
    /// column holds the digit in that column, so the other bands lose it.
    column_keep: [u32; 512],
    /// For a set of rows (three bits): their cells.
    rows: [u32; 8],
    /// For a band cell: its row's cells.
    row_of: [u32; 27],
}

const fn tables() -> Tables {
    let mut t = Tables {
        boxes_of_row: [0; 512],
        single: [0; 512],
        permutations: [0; 512],
        column_keep: [0; 512],
        rows: [0; 8],
        row_of: [0; 27],
    };
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x >> (3 * k) & 7 != 0 {
                t.boxes_of_row[x] |= 1 << k;
            }
            k += 1;
        }
        t.single[x] = (x.count_ones() == 1) as u8;
        let mut lost = 0u32;
        let mut k = 0;
        while k < 3 {
            let segment = (x >> (3 * k) & 7) as u32;
            if segment.count_ones() == 1 {
                lost |= segment << (3 * k);
            }
            k += 1;
        }
        t.column_keep[x] = BAND & !(lost | lost << 9 | lost << 18);
        x += 1;
    }
    const PERMUTATIONS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut occupancy = 0;
    while occupancy < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let mut inside = true;
            let mut cells = 0u32;
            let mut row = 0;
            while row < 3 {
                inside &= occupancy >> (row * 3 + boxes[row] as usize) & 1 == 1;
                cells |= 7 << (9 * row as u32 + 3 * boxes[row]);
                row += 1;
            }
            if inside {
                t.permutations[occupancy] |= cells;
            }
            p += 1;
        }
        occupancy += 1;
    }
    let mut place = 0;
    while place < 27 {
        t.row_of[place] = ROW << (place / 9 * 9);
        place += 1;
    }
    let mut set = 0;
    while set < 8 {
        let mut row = 0;
        while row < 3 {
            if set >> row & 1 == 1 {
                t.rows[set] |= ROW << (row * 9);
            }
            row += 1;
        }
        set += 1;
    }
    t
}

static T: Tables = tables();

/// Where digit `d + 1`'s cells of band `b` are kept in a board.
#[inline(always)]
const fn at(d: usize, b: usize) -> usize {
    b * 9 + d
}

/// The other two bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// A position: per digit and band, the cells that may still take it.
#[derive(Debug, Clone, Copy)]
struct Board {
    /// `candidates[at(d, b)]`: the cells of band `b` that may hold digit
    /// `d + 1` (its placed cells included). Band-major, so that the nine
    /// digits of a band are side by side for vector operations.
    candidates: [u32; 27],
    /// `candidates` as last reasoned about; a difference is work to do.
    seen: [u32; 27],
    /// The cells of each band still empty.
    open_cells: [u32; 3],
}

impl Board {
    fn new() -> Board {
        Board {
            candidates: [BAND; 27],
            seen: [0; 27],
            open_cells: [BAND; 3],
        }
    }

    /// Leaves band cell `bit` of band `b` only digit `d` (which it must
    /// allow): the rest of its row loses `d`, which makes it the row's
    /// one place, and the band's reasoning then places it.
    #[inline]
    fn assign(&mut self, b: usize, bit: u32, d: usize) {
        let row = T.row_of[bit.trailing_zeros() as usize];
        self.candidates[at(d, b)] &= !(row ^ bit);
    }

    /// The band reasoning for digit `d` in band `b`: the row-to-box
    /// permutations strike out segments (box-line both ways within the
    /// band; a placed digit's row and box peers go this way too); a box
    /// whose places for the digit lie in one column takes that column
    /// from the other bands (pointing along columns; a placed digit's
    /// column peers go this way); and a row with one place left is
    /// placed there (the other digits leave the cell). Repeating it
    /// changes nothing, so it runs again only when the candidates
    /// changed. `false` at a dead end.
    #[inline(always)]
    fn update(&mut self, d: usize, b: usize) -> bool {
        let i = at(d, b);
        let a = self.candidates[i];
        let occupancy = usize::from(T.boxes_of_row[(a & ROW) as usize])
            | usize::from(T.boxes_of_row[(a >> 9 & ROW) as usize]) << 3
            | usize::from(T.boxes_of_row[(a >> 18 & ROW) as usize]) << 6;
        let a = a & T.permutations[occupancy & 511];
        if a == 0 {
            return false;
        }
        let columns = (a | a >> 9 | a >> 18) & ROW;
        let keep = T.column_keep[columns as usize];
        let [b1, b2] = OTHER_BANDS[b];
        self.candidates[at(d, b1)] &= keep;
        self.candidates[at(d, b2)] &= keep;
        let placed_rows = T.single[(a & ROW) as usize]
            | T.single[(a >> 9 & ROW) as usize] << 1
            | T.single[(a >> 18 & ROW) as usize] << 2;
        let placed = a & T.rows[usize::from(placed_rows & 7)];
        self.open_cells[b] &= !placed;
        for other in &mut self.candidates[at(0, b)..at(0, b + 1)] {
            *other &= !placed;
        }
        self.candidates[i] = a;
        self.seen[i] = a;
        true
    }

    /// The rules to a fixpoint: band reasoning wherever something changed,
    /// then naked singles, until neither finds anything. `false` at a dead
    /// end.
    fn propagate(&mut self, rounds: &mut u64) -> bool {
        loop {
            loop {
                let mut changed = false;
                for d in 0..9 {
                    for b in 0..3 {
                        if self.candidates[at(d, b)] != self.seen[at(d, b)] {
                            changed = true;
                            if !self.update(d, b) {
                                return false;
                            }
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            *rounds += 1;
            let mut assigned = false;
            for b in 0..3 {
                let open = self.open_cells[b];
                if open == 0 {
                    continue;
                }
                let [one, two, ..] = self.counts(b);
                if open & !one != 0 {
                    return false;
                }
                let singles = open & one & !two;
                if singles != 0 {
                    assigned = true;
                    // Two singles of a row that need the same digit take it
                    // from each other, which empties both: the next pass
                    // finds the dead end.
                    for d in 0..9 {
                        let mut hits = singles & self.candidates[at(d, b)];
                        while hits != 0 {
                            let bit = hits & hits.wrapping_neg();
                            hits ^= bit;
                            self.assign(b, bit, d);
                        }
                    }
                }
            }
            if !assigned {
                match self.column_singles() {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                }
            }
        }
    }

    /// Hidden singles in columns (rows and boxes are the bands' work):
    /// a digit with one place left in a column where it is not placed
    /// takes it. `None` when a column has no place for a digit, else
    /// whether anything was assigned.
    fn column_singles(&mut self) -> Option<bool> {
        // Per digit, the columns with one place or more and with two or
        // more, and those where it is placed: band by band, the nine
        // digits side by side (they vectorise). A digit's assignments
        // below change no other digit's candidates, so all are counted
        // first.
        let (mut one, mut two, mut placed) = ([0u32; 9], [0u32; 9], [0u32; 9]);
        for b in 0..3 {
            let open = self.open_cells[b];
            let band = &self.candidates[at(0, b)..at(0, b + 1)];
            for d in 0..9 {
                let a = band[d];
                placed[d] |= a & !open;
                let (middle, bottom) = (a >> 9, a >> 18);
                let upper = a | middle;
                let band_one = (upper | bottom) & ROW;
                let band_two = ((a & middle) | (upper & bottom)) & ROW;
                two[d] |= band_two | (one[d] & band_one);
                one[d] |= band_one;
            }
        }
        if one.iter().any(|&columns| columns != ROW) {
            return None;
        }
        let mut assigned = false;
        for d in 0..9 {
            let placed = (placed[d] | placed[d] >> 9 | placed[d] >> 18) & ROW;
            let mut singles = !two[d] & !placed & ROW;
            while singles != 0 {
                let column = singles & singles.wrapping_neg();
                singles ^= column;
                let columns = column | column << 9 | column << 18;
                // An earlier single of this pass may have taken the
                // column's last place (by clearing the rest of its row).
                let b = (0..3).find(|&b| self.candidates[at(d, b)] & columns != 0)?;
                self.assign(b, self.candidates[at(d, b)] & columns, d);
                assigned = true;
            }
        }
        Some(assigned)
    }

    /// The cells of band `b` with at least one, two, three and four
    /// candidates (bit-sliced counting over the nine digits, saturating at
    /// four; inlined, the levels a caller ignores cost nothing).
    #[inline(always)]
    fn counts(&self, b: usize) -> [u32; 4] {
        let [mut one, mut two, mut three, mut four] = [0; 4];
        for d in 0..9 {
            let c = self.candidates[at(d, b)];
            four |= three & c;
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        [one, two, three, four]
    }

    /// Whether every cell is placed.
    fn solved(&self) -> bool {
        self.open_cells == [0; 3]
    }

    /// The empty cell to guess on, as (band, bit): the first bivalue
    /// cell, else of the first empty cell of each band the one with the
    /// fewest candidates (the `sudoku` crate's rule, which needs the
    /// fewest guesses of those tried).
    fn guess_cell(&self) -> (usize, u32) {
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let open = self.open_cells[b];
            if open == 0 {
                continue;
            }
            let [_, two, three, four] = self.counts(b);
            let pairs = open & two & !three;
            if pairs != 0 {
                return (b, pairs & pairs.wrapping_neg());
            }
            let cell = open & open.wrapping_neg();
            let more = u32::from(cell & three != 0) + u32::from(cell & four != 0);
            if more < best.0 {
                best = (more, b, cell);
            }
        }
        assert!(best.0 != u32::MAX, "an unsolved board has an empty cell");
        (best.1, best.2)
    }

    /// Writes the solved board as digits.
    fn write(&self, grid: &mut [u8; CELLS]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut rest = self.candidates[at(d, b)];
                while rest != 0 {
                    grid[b * 27 + rest.trailing_zeros() as usize] = d as u8 + 1;
                    rest &= rest - 1;
                }
            }
        }
    }
}

/// A branch left for later: a board at its fixpoint with one candidate
/// struck. At a fixpoint `seen` equals `candidates`, so it is not kept:
/// half the bytes to copy.
#[derive(Debug, Clone, Copy)]
struct Saved {
    candidates: [u32; 27],
    open_cells: [u32; 3],
    /// The entry of `candidates` that lost the guessed digit.
    struck: u32,
}

/// The band engine, bit-parallel for 9×9; make one per thread and reuse
/// it (its stack is reserved once).
#[derive(Debug, Clone)]
pub struct BandSolver {
    stack: Vec<Saved>,
    grid: [u8; CELLS],
}

impl Default for BandSolver {
    fn default() -> Self {
        BandSolver::new()
    }
}

impl BandSolver {
    /// A solver with its stack reserved.
    pub fn new() -> BandSolver {
        BandSolver {
            stack: Vec::with_capacity(CELLS + 1),
            grid: [0; CELLS],
        }
    }

    search_entry_points! {
        via search_struck;
        /// Searches the 9×9 puzzle `cells` (81 digits `0..=9`, 0 for empty),
        /// handing each solution to `visit` until it says stop or `limits`
        /// end the search (`node_budget` counts guesses). Givens that clash
        /// make a puzzle without solutions.
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`.
        fn search;
        /// [`BandSolver::search`] of `cells` with `digit` struck from the
        /// candidates of the empty cell `cell`: the solutions where that cell
        /// holds another digit. A generator that knows a puzzle's solution
        /// asks this after emptying a cell: the puzzle stays unique exactly
        /// when there is none, which a search proves faster than counting to
        /// two (the subtree of the known solution is never entered).
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`, or `cell` or `digit` is out of
        /// range.
        fn search_without;
    }

    pub(super) fn search_struck<F>(
        &mut self,
        cells: &[u8],
        struck: Option<(usize, u8)>,
        limits: &Limits,
        mut visit: F,
    ) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        assert_eq!(cells.len(), CELLS, "a 9×9 grid");
        let mut stats = BitStats::default();
        if limits.max_solutions == Some(0) {
            return (Outcome::SolutionLimit, stats);
        }
        // The givens, per digit and band, all at once: a given cell keeps
        // only its digit, and the rest of its row loses it.
        let mut given = [0u32; 27];
        let mut filled = [0u32; 3];
        for (cell, &digit) in cells.iter().enumerate() {
            assert!(digit <= 9, "digits are 0..=9");
            if digit != 0 {
                let (b, bit) = (cell / 27, 1u32 << (cell % 27));
                given[at(usize::from(digit - 1), b)] |= bit;
                filled[b] |= bit;
            }
        }
        let mut board = Board::new();
        for (i, &mine) in given.iter().enumerate() {
            let mut rows = 0;
            for row in 0..3 {
                // (No `count_ones`: without POPCNT in the baseline target
                // it is a dozen instructions.)
                let in_row = mine >> (9 * row) & ROW;
                if in_row & in_row.wrapping_sub(1) != 0 {
                    // Two givens of this digit in one row.
                    return (Outcome::Exhausted, stats);
                }
                if in_row != 0 {
                    rows |= ROW << (9 * row);
                }
            }
            board.candidates[i] = (BAND & !filled[i / 9] & !rows) | mine;
        }
        if let Some((cell, digit)) = struck {
            board.candidates[at(usize::from(digit - 1), cell / 27)] &= !(1 << (cell % 27));
        }
        let budget = limits.node_budget.unwrap_or(u64::MAX);
        let cancel = limits.cancel.as_deref();
        let mut deadline = dlx_core::Deadline::new(limits.deadline);
        self.stack.clear();
        loop {
            if board.propagate(&mut stats.rounds) {
                if board.solved() {
                    board.write(&mut self.grid);
                    if let Some(end) = solution_found(&mut stats, limits, &mut visit, &self.grid) {
                        return (end, stats);
                    }
                } else {
                    if let Some(end) = guess_allowed(&mut stats, budget, cancel, &mut deadline) {
                        return (end, stats);
                    }
                    let (b, bit) = board.guess_cell();
                    let d = (0..9)
                        .find(|&d| board.candidates[at(d, b)] & bit != 0)
                        .expect("propagation leaves every empty cell a candidate");
                    let mut other = Saved {
                        candidates: board.candidates,
                        open_cells: board.open_cells,
                        struck: at(d, b) as u32,
                    };
                    other.candidates[at(d, b)] &= !bit;
                    self.stack.push(other);
                    board.assign(b, bit, d);
                    continue;
                }
            }
            match self.stack.pop() {
                Some(other) => {
                    board.candidates = other.candidates;
                    board.open_cells = other.open_cells;
                    board.seen = other.candidates;
                    // Differs from any band: the struck entry is reasoned
                    // about again.
                    board.seen[other.struck as usize] = u32::MAX;
                }
                None => return (Outcome::Exhausted, stats),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testing::{is_solution_of, random_puzzle};
    use rand::rngs::ChaCha8Rng;

    /// Counts, at several limits, equal the exact-cover engine's on
    /// random puzzles with many solutions, one, none or clashing givens;
    /// every solution is a valid grid keeping the givens, and none comes
    /// twice. (What it shares with the triad engine is tested on both in
    /// `nine.rs`.)
    #[test]
    fn counts_equal_the_exact_cover_engines() {
        use rand::SeedableRng;
        let mut rng = ChaCha8Rng::seed_from_u64(18);
        let mut exact = crate::sudoku::Solver::new(crate::sudoku::Engine::Compact);
        let mut band = BandSolver::new();
        let mut kinds = [0usize; 3];
        for round in 0..600 {
            let keep = [10, 17, 25, 32, 40, 55][round % 6];
            let puzzle = random_puzzle(&mut rng, 3, keep);
            let text: String = puzzle
                .iter()
                .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
                .collect();
            let parsed = crate::sudoku::Puzzles::new(text.as_bytes(), None)
                .next()
                .unwrap()
                .unwrap();
            for limit in [1u64, 2, 17, 200] {
                let expected = exact.count(&parsed, Some(limit)).stats.solutions;
                let mut seen = std::collections::HashSet::new();
                let (_, stats) = band.search(&puzzle, &Limits::solutions(limit), |grid| {
                    assert!(is_solution_of(3, &puzzle, grid), "{text}: {grid:?}");
                    assert!(seen.insert(grid.to_vec()), "{text}: a solution twice");
                    Control::Continue
                });
                assert_eq!(stats.solutions, expected, "{text} at limit {limit}");
                if limit == 2 {
                    kinds[expected.min(2) as usize] += 1;
                }
            }
        }
        // The draw covers every case.
        assert!(kinds.iter().all(|&k| k > 20), "none/one/several: {kinds:?}");
    }
}
