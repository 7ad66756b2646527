//! A bit-parallel 9×9 sudoku engine: candidates as bit boards, reasoning
//! a board at a time, guesses on an explicit stack.
//!
//! The exact-cover engines see a sudoku as 324 items and 729 options and
//! pay for that generality at every step. This engine knows the puzzle:
//! for each digit one 81-bit board (a `u128`) of the cells that may still
//! hold it, and one board of the cells still empty. Between guesses it
//! runs, to a fixpoint:
//! - naked singles: a cell with one candidate left takes it (all cells at
//!   once, by bit-sliced counting of the nine boards);
//! - hidden singles: a digit with one place left in a row, column or box
//!   takes it;
//! - box-line (locked candidates): a digit confined to one line within a
//!   box leaves the rest of that line, and one confined to one box within
//!   a line leaves the rest of that box.
//!
//! A cell with no candidate, or a unit where a digit has no place, is a
//! dead end. Otherwise it guesses on an empty cell with the fewest
//! candidates (bivalue first), its smallest digit: the board with that
//! digit placed is searched now, and the board with that digit struck
//! out is pushed on a stack of copies (binary branching, no recursion;
//! the stack is reserved once, 81 boards deep). Every solution is found
//! exactly once, so counts are exact.
//!
//! It knows nothing of exact cover, files or output: grids in (digits
//! `1..=9`, 0 for empty, row by row), solutions handed to a callback.
//!
//! Status (issue 18): correct (its counts equal the exact-cover engines'
//! at every limit on random puzzles, see the tests) but not yet fast: on
//! `forum_hardest_1106` it takes 2.2 times the compact engine's time and
//! 7 times the `sudoku` crate's (`cargo xtask bench bits`), so `cover
//! sudoku` does not use it yet. A whole-board `u128` per digit makes the
//! box-line rule a loop over units; the fast solvers keep each digit as
//! three 27-bit bands and do it by table lookups.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;

use dlx_core::{Control, Limits, Outcome};

const CELLS: usize = 81;
const ALL: u128 = (1u128 << CELLS) - 1;

/// What a search did, in this engine's terms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BitStats {
    /// Guesses made (each opens two branches; `--max-nodes` bounds these).
    pub guesses: u64,
    /// Rounds of reasoning (one pass of the rules over the board).
    pub rounds: u64,
    /// Solutions found.
    pub solutions: u64,
}

/// The peers and units of every cell, built once.
struct Tables {
    /// The 27 units: rows, then columns, then boxes.
    units: [u128; 27],
    /// The cells that share a unit with each cell (not itself).
    peers: [u128; CELLS],
    /// The units of each cell, as bits of [`Tables::units`]' indices.
    cell_units: [u32; CELLS],
    /// The row, column and box of each cell.
    row_of: [u128; CELLS],
    col_of: [u128; CELLS],
    box_of: [u128; CELLS],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut units = [0u128; 27];
        for cell in 0..CELLS {
            let (r, c) = (cell / 9, cell % 9);
            let b = r / 3 * 3 + c / 3;
            units[r] |= 1 << cell;
            units[9 + c] |= 1 << cell;
            units[18 + b] |= 1 << cell;
        }
        let mut peers = [0u128; CELLS];
        let mut cell_units = [0u32; CELLS];
        let (mut row_of, mut col_of, mut box_of) = ([0; CELLS], [0; CELLS], [0; CELLS]);
        for cell in 0..CELLS {
            let (r, c) = (cell / 9, cell % 9);
            let b = r / 3 * 3 + c / 3;
            (row_of[cell], col_of[cell], box_of[cell]) = (units[r], units[9 + c], units[18 + b]);
            peers[cell] = (units[r] | units[9 + c] | units[18 + b]) & !(1 << cell);
            cell_units[cell] = 1 << r | 1 << (9 + c) | 1 << (18 + b);
        }
        Tables {
            units,
            peers,
            cell_units,
            row_of,
            col_of,
            box_of,
        }
    })
}

/// A position: per digit, where it may still go and where it is placed.
#[derive(Debug, Clone, Copy)]
struct Board {
    /// `candidates[d]`: the empty cells that may still take digit `d + 1`.
    candidates: [u128; 9],
    /// `placed[d]`: the cells holding digit `d + 1`.
    placed: [u128; 9],
    /// The cells still empty.
    empty: u128,
    /// `open[d]`: the units (bits of [`Tables::units`]' indices) that do
    /// not hold digit `d + 1` yet, where hidden singles may be.
    open: [u32; 9],
}

impl Board {
    fn new() -> Board {
        Board {
            candidates: [ALL; 9],
            placed: [0; 9],
            empty: ALL,
            open: [(1 << 27) - 1; 9],
        }
    }

    /// Puts digit `d + 1` in `cell` (which must be empty and allow it).
    #[inline]
    fn place(&mut self, t: &Tables, cell: usize, d: usize) {
        let bit = 1u128 << cell;
        self.placed[d] |= bit;
        self.open[d] &= !t.cell_units[cell];
        self.empty &= !bit;
        for candidates in &mut self.candidates {
            *candidates &= !bit;
        }
        self.candidates[d] &= !t.peers[cell];
    }

    /// The empty cells with at least one, at least two and at least three
    /// candidates (bit-sliced counting, saturating at three).
    #[inline]
    fn counts(&self) -> (u128, u128, u128) {
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &c in &self.candidates {
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        (one, two, three)
    }

    /// The rules to a fixpoint; `false` at a dead end.
    fn propagate(&mut self, t: &Tables, rounds: &mut u64) -> bool {
        loop {
            *rounds += 1;
            let (one, two, _) = self.counts();
            if self.empty & !one != 0 {
                return false;
            }
            let mut singles = one & !two & self.empty;
            if singles != 0 {
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let bit = 1u128 << cell;
                    // An earlier single of this round may have taken this
                    // cell's last candidate.
                    let Some(d) = (0..9).find(|&d| self.candidates[d] & bit != 0) else {
                        return false;
                    };
                    self.place(t, cell, d);
                }
                continue;
            }
            match self.hidden_singles(t) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if !self.box_line(t) {
                return true;
            }
        }
    }

    /// Places every digit that has one place left in some unit; `None`
    /// when a digit has no place in a unit that lacks it, else whether
    /// anything was placed.
    fn hidden_singles(&mut self, t: &Tables) -> Option<bool> {
        let mut progress = false;
        for d in 0..9 {
            let mut open = self.open[d];
            while open != 0 {
                let unit = t.units[open.trailing_zeros() as usize];
                open &= open - 1;
                if self.placed[d] & unit != 0 {
                    // Placed by a hidden single of this pass.
                    continue;
                }
                let places = self.candidates[d] & unit;
                if places == 0 {
                    return None;
                }
                if places & (places - 1) == 0 {
                    self.place(t, places.trailing_zeros() as usize, d);
                    progress = true;
                }
            }
        }
        Some(progress)
    }

    /// Locked candidates, both ways, for every digit; whether any
    /// candidate was struck out.
    fn box_line(&mut self, t: &Tables) -> bool {
        let mut progress = false;
        for d in 0..9 {
            let mut c = self.candidates[d];
            // Only units that lack the digit can have it confined.
            let mut boxes = self.open[d] >> 18;
            while boxes != 0 {
                let b = boxes.trailing_zeros() as usize;
                boxes &= boxes - 1;
                let boxed = c & t.units[18 + b];
                if boxed == 0 {
                    continue;
                }
                let cell = boxed.trailing_zeros() as usize;
                for line in [t.row_of[cell], t.col_of[cell]] {
                    if boxed & !line == 0 {
                        // Pointing: the digit's places in the box are on
                        // one line, so the rest of the line loses it.
                        c &= !(line & !t.units[18 + b]);
                    }
                }
            }
            let mut lines = self.open[d] & ((1 << 18) - 1);
            while lines != 0 {
                let l = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                let lined = c & t.units[l];
                if lined == 0 {
                    continue;
                }
                let boxed = t.box_of[lined.trailing_zeros() as usize];
                if lined & !boxed == 0 {
                    // Claiming: the line's places are in one box, so the
                    // rest of the box loses it.
                    c &= !(boxed & !t.units[l]);
                }
            }
            if c != self.candidates[d] {
                self.candidates[d] = c;
                progress = true;
            }
        }
        progress
    }

    /// The empty cell to guess on: the first with the fewest candidates.
    fn guess_cell(&self) -> usize {
        let (_, two, three) = self.counts();
        let bivalue = two & !three & self.empty;
        if bivalue != 0 {
            return bivalue.trailing_zeros() as usize;
        }
        let mut best = (u32::MAX, 0);
        let mut rest = self.empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let bit = 1u128 << cell;
            let n = self.candidates.iter().filter(|&&c| c & bit != 0).count() as u32;
            if n < best.0 {
                best = (n, cell);
            }
        }
        best.1
    }

    fn write(&self, grid: &mut [u8; CELLS]) {
        for (d, &placed) in self.placed.iter().enumerate() {
            let mut rest = placed;
            while rest != 0 {
                grid[rest.trailing_zeros() as usize] = d as u8 + 1;
                rest &= rest - 1;
            }
        }
    }
}

/// The bit-parallel 9×9 engine; make one per thread and reuse it (its
/// stack is reserved once).
#[derive(Debug, Clone)]
pub struct BitSolver {
    stack: Vec<Board>,
    grid: [u8; CELLS],
}

impl Default for BitSolver {
    fn default() -> Self {
        BitSolver::new()
    }
}

impl BitSolver {
    /// A solver with its stack reserved.
    pub fn new() -> BitSolver {
        BitSolver {
            stack: Vec::with_capacity(CELLS + 1),
            grid: [0; CELLS],
        }
    }

    /// Searches the 9×9 puzzle `cells` (81 digits `0..=9`, 0 for empty),
    /// handing each solution to `visit` until it says stop or `limits`
    /// end the search (`node_budget` counts guesses). Givens that clash
    /// make a puzzle without solutions.
    ///
    /// # Panics
    /// If `cells` is not 81 digits `0..=9`.
    pub fn search<F>(&mut self, cells: &[u8], limits: &Limits, mut visit: F) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        assert_eq!(cells.len(), CELLS, "a 9×9 grid");
        let t = tables();
        let mut stats = BitStats::default();
        if limits.max_solutions == Some(0) {
            return (Outcome::SolutionLimit, stats);
        }
        let mut board = Board::new();
        for (cell, &digit) in cells.iter().enumerate() {
            assert!(digit <= 9, "digits are 0..=9");
            if digit == 0 {
                continue;
            }
            let d = usize::from(digit - 1);
            if board.candidates[d] & (1 << cell) == 0 {
                // A peer already holds this digit.
                return (Outcome::Exhausted, stats);
            }
            board.place(t, cell, d);
        }
        let budget = limits.node_budget.unwrap_or(u64::MAX);
        let cancel = limits.cancel.as_deref();
        self.stack.clear();
        loop {
            if board.propagate(t, &mut stats.rounds) {
                if board.empty == 0 {
                    stats.solutions += 1;
                    board.write(&mut self.grid);
                    if visit(&self.grid) == Control::Stop {
                        return (Outcome::Stopped, stats);
                    }
                    if limits
                        .max_solutions
                        .is_some_and(|max| stats.solutions >= max)
                    {
                        return (Outcome::SolutionLimit, stats);
                    }
                } else {
                    if stats.guesses >= budget {
                        return (Outcome::NodeBudget, stats);
                    }
                    if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                        return (Outcome::Cancelled, stats);
                    }
                    stats.guesses += 1;
                    let cell = board.guess_cell();
                    let bit = 1u128 << cell;
                    let d = (0..9)
                        .find(|&d| board.candidates[d] & bit != 0)
                        .expect("propagation leaves every empty cell a candidate");
                    let mut other = board;
                    other.candidates[d] &= !bit;
                    self.stack.push(other);
                    board.place(t, cell, d);
                    continue;
                }
            }
            match self.stack.pop() {
                Some(other) => board = other,
                None => return (Outcome::Exhausted, stats),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;

    fn cells(line: &str) -> Vec<u8> {
        line.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    fn count(line: &str, limit: Option<u64>) -> (Outcome, BitStats) {
        let limits = Limits {
            max_solutions: limit,
            ..Limits::none()
        };
        BitSolver::new().search(&cells(line), &limits, |_| Control::Continue)
    }

    /// Whether `grid` is a full valid 9×9 grid keeping `puzzle`'s givens
    /// (checked here, trusting neither engine).
    fn is_solution_of(puzzle: &[u8], grid: &[u8]) -> bool {
        let t = tables();
        puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
            && t.units.iter().all(|&unit| {
                let mut seen = 0u16;
                (0..CELLS).filter(|&c| unit >> c & 1 == 1).all(|c| {
                    (1..=9).contains(&grid[c]) && seen & 1 << grid[c] == 0 && {
                        seen |= 1 << grid[c];
                        true
                    }
                })
            })
    }

    /// A random 9×9 puzzle: a valid grid (the classic's solution with its
    /// digits, rows within bands, bands, columns within stacks and stacks
    /// shuffled), some cells kept, and sometimes a random digit written
    /// over a cell (which may leave it with no solution or clashing givens).
    fn random_puzzle(rng: &mut ChaCha8Rng, keep: u32) -> Vec<u8> {
        use rand::seq::SliceRandom;
        use rand::RngExt;
        let solved = cells(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        );
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        let order = |rng: &mut ChaCha8Rng| {
            let mut bands = [0usize, 1, 2];
            bands.shuffle(rng);
            let mut out = Vec::new();
            for b in bands {
                let mut within = [0usize, 1, 2];
                within.shuffle(rng);
                out.extend(within.iter().map(|&i| b * 3 + i));
            }
            out
        };
        let (rows, cols) = (order(rng), order(rng));
        let mut puzzle = vec![0u8; CELLS];
        for r in 0..9 {
            for c in 0..9 {
                if rng.random_range(0..81) < keep {
                    puzzle[r * 9 + c] = digits[usize::from(solved[rows[r] * 9 + cols[c]] - 1)];
                }
            }
        }
        if rng.random_range(0..4) == 0 {
            puzzle[rng.random_range(0..CELLS)] = rng.random_range(1..=9);
        }
        puzzle
    }

    /// Counts, at several limits, equal the exact-cover engine's on
    /// random puzzles with many solutions, one, none or clashing givens;
    /// every solution is a valid grid keeping the givens, and none comes
    /// twice.
    #[test]
    fn counts_equal_the_exact_cover_engines() {
        use rand::SeedableRng;
        let mut rng = ChaCha8Rng::seed_from_u64(18);
        let mut exact = crate::sudoku::Solver::default();
        let mut bits = BitSolver::new();
        let mut kinds = [0usize; 3];
        for round in 0..600 {
            let keep = [8, 14, 20, 26, 32, 45][round % 6];
            let puzzle = random_puzzle(&mut rng, keep);
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
                let limits = Limits {
                    max_solutions: Some(limit),
                    ..Limits::none()
                };
                let (_, stats) = bits.search(&puzzle, &limits, |grid| {
                    assert!(is_solution_of(&puzzle, grid), "{text}: {grid:?}");
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

    #[test]
    fn the_classic_has_one_solution() {
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let mut found = Vec::new();
        let (outcome, stats) = BitSolver::new().search(&cells(puzzle), &Limits::none(), |g| {
            found.push(g.to_vec());
            Control::Continue
        });
        assert_eq!((outcome, stats.solutions), (Outcome::Exhausted, 1));
        let expected = cells(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        );
        assert_eq!(found, vec![expected]);
        assert_eq!(stats.guesses, 0, "singles solve it");
    }

    #[test]
    fn clashing_givens_and_limits() {
        let clash = format!("55{}", ".".repeat(79));
        assert_eq!(
            count(&clash, None),
            (Outcome::Exhausted, BitStats::default())
        );
        let empty = ".".repeat(81);
        let (outcome, stats) = count(&empty, Some(1000));
        assert_eq!((outcome, stats.solutions), (Outcome::SolutionLimit, 1000));
        let (outcome, _) = count(&empty, Some(0));
        assert_eq!(outcome, Outcome::SolutionLimit);
        let limits = Limits {
            node_budget: Some(3),
            ..Limits::none()
        };
        let (outcome, stats) =
            BitSolver::new().search(&cells(&empty), &limits, |_| Control::Continue);
        assert_eq!((outcome, stats.guesses), (Outcome::NodeBudget, 3));
    }
}
