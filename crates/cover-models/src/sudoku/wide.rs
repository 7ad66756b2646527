//! The bit-parallel engine for the other sizes: 4×4, 16×16 and 25×25
//! (and 9×9, to check it against [`BitSolver`](super::BitSolver)), one
//! generic search over bands held in one machine word each.
//!
//! A grid of side `s = n²` is cut into `n` bands of `n` rows; a band has
//! `n·s = n³` cells, which fit one word: `u32` for 4×4 (8 bits) and 9×9
//! (27), `u64` for 16×16 (64, exactly), `u128` for 25×25 (125). Band cell
//! `row · s + column` is bit `row · s + column`. Per digit and band, the
//! board keeps the cells that may still hold the digit (its placed cell
//! included), and per band the cells still empty, as the 9×9 engine does.
//! Between guesses, to a fixpoint:
//! - band reasoning, per digit and band, wherever the candidates changed:
//!   the digit's places must match the band's rows to its boxes (each
//!   takes it once), so a row's part of a box in no such matching loses
//!   it (up to 16×16 in closed form, a few word operations per
//!   permutation of the other rows; at 25×25 as claiming and pointing
//!   repeated, which is cheaper there and nearly as strong); then a row
//!   with one place left is placed there (the other digits leave the
//!   cell), and a box whose places lie in one column takes that column
//!   from the other bands (a placed digit's column peers go this way).
//!   A digit with no matching left is a dead end.
//! - naked singles: a cell with one candidate takes it (a band at a time,
//!   by bit-sliced counting over the digits);
//! - hidden singles in columns.
//!
//! A cell with no candidate is a dead end. Otherwise it guesses on the
//! first empty cell with two candidates, else three, else the first, its
//! smallest digit: binary branching, the board with the digit struck out
//! pushed on a stack of copies reserved once, no recursion. Every solution
//! is found once, so counts are exact.
//!
//! The 9×9 engine is this search specialised: its tables settle a band in
//! one lookup where this one computes the matching a word at a time. Like
//! it, this module knows nothing of exact cover, files or output: digits `1..=s`
//! (0 for empty) in, row by row; solutions out to a callback.
//!
//! Status (issue 18), from `cargo xtask bench wide --runs 3` (one
//! thread, the engines by turns): on random 4×4 puzzles it takes 0.58 of
//! the compact engine's time, so `Engine::Auto` runs it there. On the 155
//! public 16×16 grids it needs as many guesses as the compact engine with
//! full propagation needs nodes (24,000 against 23,000) but takes 2.5–3.0
//! times as long (3.4–3.9 with claiming and pointing repeated instead of
//! the closed-form matching, which prunes no more there but costs less);
//! on the Gecode 25×25 puzzles it settles none within 100,000 guesses,
//! where full propagation settles 2. So from 16×16 `auto` keeps the
//! compact engine; `--engine bits` runs this one. Per guess it runs
//! about 43 band updates (a placement touches every digit of its band and
//! the column in the other bands). Tried and dropped: marking changed
//! entries in a 128-bit mask instead of sweeping for differences (9–10%
//! slower); the matching at 25×25 (1.4 times the time a guess); skipping
//! a band whose entries all stand as last reasoned about with one folded
//! test (4% at 16×16, within the noise).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

use dlx_core::{Control, Limits, Outcome};

use super::bits::{guess_allowed, solution_found, BitStats};

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

/// A machine word holding one band of one digit.
pub trait Lane:
    sealed::Sealed
    + Copy
    + Eq
    + Debug
    + From<u32>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// All bits clear.
    const ZERO: Self;
    /// The low 32 bits.
    fn low_u32(self) -> u32;
    /// The index of the lowest set bit.
    fn trailing_zeros(self) -> u32;
    /// The lowest set bit alone.
    fn lowest(self) -> Self;
    /// The low `bits` bits set.
    fn low_mask(bits: u32) -> Self;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn low_u32(self) -> u32 {
                self as u32
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn low_mask(bits: u32) -> Self {
                if bits >= <$t>::BITS {
                    <$t>::MAX
                } else {
                    (1 << bits) - 1
                }
            }
        }
    };
}
lane!(u32);
lane!(u64);
lane!(u128);

/// The 4×4 engine.
pub type Bits4 = WideSolver<u32, 2, 8>;
/// This search on 9×9 (for tests; [`BitSolver`](super::BitSolver) is faster).
pub type Bits9 = WideSolver<u32, 3, 27>;
/// The 16×16 engine.
pub type Bits16 = WideSolver<u64, 4, 64>;
/// The 25×25 engine.
pub type Bits25 = WideSolver<u128, 5, 125>;

/// The most bands (and rows in a band) of any instance.
const MAX_N: usize = 5;

/// A position: `candidates[b · s + d]`, the cells of band `b` that may hold
/// digit `d + 1`; `open[b]`, the cells of band `b` still empty.
#[derive(Debug, Clone, Copy)]
struct Board<L, const LANES: usize> {
    candidates: [L; LANES],
    open: [L; MAX_N],
}

/// A branch left for later: a board at its fixpoint with one candidate
/// struck from entry `struck`.
#[derive(Debug, Clone, Copy)]
struct Saved<L, const LANES: usize> {
    board: Board<L, LANES>,
    struck: u32,
}

/// The geometry of a band, as masks.
#[derive(Debug, Clone, Copy)]
struct Masks<L> {
    /// The band's cells.
    band: L,
    /// Row `r`'s cells.
    row: [L; MAX_N],
    /// Box `k`'s cells.
    boxes: [L; MAX_N],
    /// Box `k`'s columns, as `s` bits.
    segment: [u32; MAX_N],
    /// The first cell of each row's part of each box.
    group_starts: L,
    /// For `j` in `1..N`: the group starts of boxes `0..N-j` and of boxes
    /// `N-j..N`, where box `k` takes box `k + j`'s bit from above and
    /// from below (wrapping around) when the boxes of a row are rotated.
    box_turn: [(L, L); MAX_N],
}

/// The permutations of `1..n` for `n = N - 1` (padded to four entries):
/// the ways the rows after a segment's row can take the boxes after its
/// box (in turn order), for the row-to-box matching of band reasoning.
fn permutations_after(n: usize) -> &'static [[u8; 4]] {
    const ONE: [[u8; 4]; 1] = [[1, 0, 0, 0]];
    const TWO: [[u8; 4]; 2] = [[1, 2, 0, 0], [2, 1, 0, 0]];
    const THREE: [[u8; 4]; 6] = [
        [1, 2, 3, 0],
        [1, 3, 2, 0],
        [2, 1, 3, 0],
        [2, 3, 1, 0],
        [3, 1, 2, 0],
        [3, 2, 1, 0],
    ];
    const FOUR: [[u8; 4]; 24] = [
        [1, 2, 3, 4],
        [1, 2, 4, 3],
        [1, 3, 2, 4],
        [1, 3, 4, 2],
        [1, 4, 2, 3],
        [1, 4, 3, 2],
        [2, 1, 3, 4],
        [2, 1, 4, 3],
        [2, 3, 1, 4],
        [2, 3, 4, 1],
        [2, 4, 1, 3],
        [2, 4, 3, 1],
        [3, 1, 2, 4],
        [3, 1, 4, 2],
        [3, 2, 1, 4],
        [3, 2, 4, 1],
        [3, 4, 1, 2],
        [3, 4, 2, 1],
        [4, 1, 2, 3],
        [4, 1, 3, 2],
        [4, 2, 1, 3],
        [4, 2, 3, 1],
        [4, 3, 1, 2],
        [4, 3, 2, 1],
    ];
    match n {
        1 => &ONE,
        2 => &TWO,
        3 => &THREE,
        _ => &FOUR,
    }
}

/// The bit-parallel engine for grids of box side `N` (side `N²`), bands
/// held in words `L` of at least `N³` bits; `LANES` is `N³` (the number of
/// digit-band entries, spelled out because stable Rust cannot compute an
/// array length from `N`). Use the aliases ([`Bits16`], [`Bits25`],
/// [`Bits4`]); make one per thread and reuse it.
#[derive(Debug, Clone)]
pub struct WideSolver<L: Lane, const N: usize, const LANES: usize> {
    masks: Masks<L>,
    stack: Vec<Saved<L, LANES>>,
    grid: Vec<u8>,
}

impl<L: Lane, const N: usize, const LANES: usize> Default for WideSolver<L, N, LANES> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: Lane, const N: usize, const LANES: usize> WideSolver<L, N, LANES> {
    const SIDE: usize = N * N;
    const CELLS: usize = N * N * N * N;
    const BAND_CELLS: usize = N * N * N;

    /// A solver with its stack reserved.
    ///
    /// # Panics
    /// If the parameters do not fit (`LANES` is not `N³`, or `L` is too
    /// narrow for a band): a mistake in this module, caught by its tests.
    pub fn new() -> Self {
        assert!(
            (2..=MAX_N).contains(&N)
                && LANES == N * N * N
                && Self::BAND_CELLS as u32 <= u32::try_from(std::mem::size_of::<L>() * 8).unwrap()
        );
        let side = Self::SIDE as u32;
        let row_bits = L::low_mask(side);
        let mut masks = Masks {
            band: L::low_mask(Self::BAND_CELLS as u32),
            row: [L::ZERO; MAX_N],
            boxes: [L::ZERO; MAX_N],
            segment: [0; MAX_N],
            group_starts: L::ZERO,
            box_turn: [(L::ZERO, L::ZERO); MAX_N],
        };
        for k in 0..N {
            masks.row[k] = row_bits << (k as u32 * side);
            masks.segment[k] = ((1u32 << N) - 1) << (k * N);
        }
        for k in 0..N {
            for r in 0..N {
                masks.boxes[k] |= L::from(masks.segment[k]) << (r as u32 * side);
                masks.group_starts |= L::from(1u32 << (k * N)) << (r as u32 * side);
            }
        }
        for j in 1..N {
            for k in 0..N {
                let start = L::from(1u32 << (k * N));
                let mut column = L::ZERO;
                for r in 0..N {
                    column |= start << (r as u32 * side);
                }
                if k + j < N {
                    masks.box_turn[j].0 |= column;
                } else {
                    masks.box_turn[j].1 |= column;
                }
            }
        }
        WideSolver {
            masks,
            stack: Vec::with_capacity(Self::CELLS + 1),
            grid: vec![0; Self::CELLS],
        }
    }

    /// The side of the grids it solves.
    pub fn side(&self) -> usize {
        Self::SIDE
    }

    /// Searches the puzzle `cells` (`N⁴` digits `0..=N²`, 0 for empty,
    /// row by row), handing each solution to `visit` until it says stop or
    /// `limits` end the search (`node_budget` counts guesses). Givens that
    /// clash make a puzzle without solutions.
    ///
    /// # Panics
    /// If `cells` is not `N⁴` digits `0..=N²`.
    pub fn search<F>(&mut self, cells: &[u8], limits: &Limits, mut visit: F) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        assert_eq!(cells.len(), Self::CELLS, "a grid of this size");
        let mut stats = BitStats::default();
        if limits.max_solutions == Some(0) {
            return (Outcome::SolutionLimit, stats);
        }
        let Some(mut board) = self.start(cells) else {
            return (Outcome::Exhausted, stats);
        };
        // Every entry differs from what was last reasoned about.
        let mut seen = [!L::ZERO; LANES];
        let budget = limits.node_budget.unwrap_or(u64::MAX);
        let cancel = limits.cancel.as_deref();
        self.stack.clear();
        loop {
            if self.propagate(&mut board, &mut seen, &mut stats.rounds) {
                if board.open[..N].iter().all(|&open| open == L::ZERO) {
                    self.write(&board);
                    if let Some(end) = solution_found(&mut stats, limits, &mut visit, &self.grid) {
                        return (end, stats);
                    }
                } else {
                    if let Some(end) = guess_allowed(&mut stats, budget, cancel) {
                        return (end, stats);
                    }
                    let (b, bit) = Self::guess_cell(&board);
                    let d = (0..Self::SIDE)
                        .find(|&d| board.candidates[b * Self::SIDE + d] & bit != L::ZERO)
                        .expect("propagation leaves every empty cell a candidate");
                    let i = b * Self::SIDE + d;
                    let mut other = Saved {
                        board,
                        struck: i as u32,
                    };
                    other.board.candidates[i] &= !bit;
                    self.stack.push(other);
                    self.assign(&mut board, b, bit, d);
                    continue;
                }
            }
            match self.stack.pop() {
                Some(other) => {
                    board = other.board;
                    seen = board.candidates;
                    seen[other.struck as usize] = !L::ZERO;
                }
                None => return (Outcome::Exhausted, stats),
            }
        }
    }

    /// The board of the givens, all at once: a given cell keeps only its
    /// digit and the rest of its row loses it. `None` when two givens of
    /// one digit share a row (the other clashes show in the search).
    fn start(&self, cells: &[u8]) -> Option<Board<L, LANES>> {
        let side = Self::SIDE;
        let mut given = [L::ZERO; LANES];
        let mut filled = [L::ZERO; MAX_N];
        for (cell, &digit) in cells.iter().enumerate() {
            assert!(usize::from(digit) <= side, "digits are 0..=N²");
            if digit != 0 {
                let b = cell / Self::BAND_CELLS;
                let bit = L::from(1) << (cell % Self::BAND_CELLS) as u32;
                given[b * side + usize::from(digit - 1)] |= bit;
                filled[b] |= bit;
            }
        }
        let mut board = Board {
            candidates: [L::ZERO; LANES],
            open: [L::ZERO; MAX_N],
        };
        for b in 0..N {
            board.open[b] = self.masks.band & !filled[b];
            for d in 0..side {
                let mine = given[b * side + d];
                let mut rows = L::ZERO;
                for r in 0..N {
                    let in_row = mine & self.masks.row[r];
                    if in_row != L::ZERO {
                        if in_row != in_row.lowest() {
                            return None;
                        }
                        rows |= self.masks.row[r];
                    }
                }
                board.candidates[b * side + d] = (board.open[b] & !rows) | mine;
            }
        }
        Some(board)
    }

    /// Leaves band cell `bit` of band `b` only digit `d` (which it must
    /// allow): the rest of its row loses `d`, so it is the row's one place
    /// and the band reasoning places it.
    #[inline]
    fn assign(&self, board: &mut Board<L, LANES>, b: usize, bit: L, d: usize) {
        let row = self.masks.row[bit.trailing_zeros() as usize / Self::SIDE];
        board.candidates[b * Self::SIDE + d] &= !(row ^ bit);
    }

    /// Row `r` of a band entry, as `s` bits.
    #[inline(always)]
    fn row_of(a: L, r: usize) -> u32 {
        (a >> (r * Self::SIDE) as u32).low_u32() & ((1u32 << (Self::SIDE - 1)) * 2 - 1)
    }

    /// The segments (a row's part of a box) of band entry `a` that hold a
    /// place, each at its first cell. A segment is a group of `N` adjacent
    /// bits, so they are found for the whole band at once by folding each
    /// group's bits onto its first.
    #[inline(always)]
    fn occupied_groups(&self, a: L) -> L {
        let mut folded = a;
        for shift in 1..N as u32 {
            folded |= a >> shift;
        }
        folded & self.masks.group_starts
    }

    /// The cells of the segments (a row's part of a box) of band entry `a`
    /// that lie in some row-to-box matching of the occupied segments. The
    /// digit sits once in each row of the band and once in each box, so
    /// its places match the rows to the boxes; a segment in no matching
    /// cannot hold it. This is claiming and pointing within the band (box-
    /// line both ways), and more. With rows and boxes counted from the
    /// segment's own (`r + i`, `k + j`, wrapping around), segment (r, k)
    /// is in a matching when it is occupied and, for some permutation `p`
    /// of `1..N`, so is (r + i, k + p(i)) for every `i` in `1..N`: a few
    /// word operations per permutation, for all segments at once.
    #[inline(always)]
    fn matched(&self, a: L) -> L {
        let m = &self.masks;
        let side = Self::SIDE as u32;
        let n = N as u32;
        let occupied = self.occupied_groups(a);
        // turned[i][j]: the occupancy of segment (r + i, k + j) at (r, k).
        let mut turned = [[L::ZERO; MAX_N]; MAX_N];
        for j in 1..N {
            let (low, high) = m.box_turn[j];
            let j = j as u32;
            let boxes = ((occupied >> (j * n)) & low) | ((occupied << ((n - j) * n)) & high);
            for (i, row) in turned.iter_mut().enumerate().take(N).skip(1) {
                let i = i as u32;
                row[j as usize] = ((boxes >> (i * side)) | (boxes << ((n - i) * side))) & m.band;
            }
        }
        let mut matched = L::ZERO;
        for p in permutations_after(N - 1) {
            let mut all = m.band;
            for i in 1..N {
                all &= turned[i][usize::from(p[i - 1])];
            }
            matched |= all;
        }
        let alive = occupied & matched;
        let mut cells = alive;
        for shift in 1..n {
            cells |= alive << shift;
        }
        cells
    }

    /// Band entry `a` after claiming and pointing to a fixpoint: a row
    /// whose places lie in one box takes the rest of that box from the
    /// band's other rows, a box whose places lie in one row takes the rest
    /// of that row. A row or box with a single occupied segment is one
    /// test on a masked word. Zero when a row or box has no place left.
    #[inline]
    fn claimed_and_pointed(&self, mut a: L) -> L {
        let m = &self.masks;
        loop {
            let groups = self.occupied_groups(a);
            let mut strike = L::ZERO;
            for r in 0..N {
                let in_row = groups & m.row[r];
                if in_row == L::ZERO {
                    return L::ZERO;
                }
                if in_row == in_row.lowest() {
                    let k = in_row.trailing_zeros() as usize % Self::SIDE / N;
                    strike |= m.boxes[k] & !m.row[r];
                }
            }
            for k in 0..N {
                let in_box = groups & m.boxes[k];
                if in_box == L::ZERO {
                    return L::ZERO;
                }
                if in_box == in_box.lowest() {
                    let r = in_box.trailing_zeros() as usize / Self::SIDE;
                    strike |= m.row[r] & !m.boxes[k];
                }
            }
            if a & strike == L::ZERO {
                return a;
            }
            a &= !strike;
        }
    }

    /// The band reasoning for digit `d` of band `b` (the matching, rows
    /// with one place, pointing along columns); `false` at a dead end.
    #[inline]
    fn update(&self, board: &mut Board<L, LANES>, d: usize, b: usize) -> bool {
        let m = &self.masks;
        let i = b * Self::SIDE + d;
        let a = board.candidates[i];
        // The matching in closed form up to 16×16; at 25×25 its 24
        // permutations of 128-bit words cost more than claiming and
        // pointing repeated (1.4 times the time a guess, bench wide).
        let a = if N <= 4 {
            a & self.matched(a)
        } else {
            self.claimed_and_pointed(a)
        };
        if a == L::ZERO {
            return false;
        }
        // Rows with one place: placed there.
        let mut placed = L::ZERO;
        for r in 0..N {
            let in_row = a & m.row[r];
            if in_row == in_row.lowest() {
                placed |= in_row;
            }
        }
        if placed & board.open[b] != L::ZERO {
            board.open[b] &= !placed;
            for other in &mut board.candidates[b * Self::SIDE..(b + 1) * Self::SIDE] {
                *other &= !placed;
            }
        }
        board.candidates[i] = a;
        // Boxes whose places lie in one column take it from the other bands.
        let mut columns = 0u32;
        for r in 0..N {
            columns |= Self::row_of(a, r);
        }
        let mut lost = 0u32;
        for k in 0..N {
            let in_box = columns & m.segment[k];
            if in_box & (in_box - 1) == 0 {
                lost |= in_box;
            }
        }
        if lost != 0 {
            let mut keep = L::ZERO;
            for r in 0..N {
                keep |= L::from(lost) << (r * Self::SIDE) as u32;
            }
            let keep = !keep;
            for other in 0..N {
                if other != b {
                    board.candidates[other * Self::SIDE + d] &= keep;
                }
            }
        }
        true
    }

    /// The rules to a fixpoint; `false` at a dead end.
    fn propagate(
        &self,
        board: &mut Board<L, LANES>,
        seen: &mut [L; LANES],
        rounds: &mut u64,
    ) -> bool {
        loop {
            loop {
                let mut changed = false;
                for b in 0..N {
                    for d in 0..Self::SIDE {
                        let i = b * Self::SIDE + d;
                        if board.candidates[i] != seen[i] {
                            changed = true;
                            if !self.update(board, d, b) {
                                return false;
                            }
                            seen[i] = board.candidates[i];
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            *rounds += 1;
            let mut assigned = false;
            for b in 0..N {
                let open = board.open[b];
                if open == L::ZERO {
                    continue;
                }
                let [one, two, ..] = Self::counts(board, b);
                if open & !one != L::ZERO {
                    return false;
                }
                let singles = open & one & !two;
                if singles != L::ZERO {
                    assigned = true;
                    for d in 0..Self::SIDE {
                        let mut hits = singles & board.candidates[b * Self::SIDE + d];
                        while hits != L::ZERO {
                            let bit = hits.lowest();
                            hits = hits ^ bit;
                            self.assign(board, b, bit, d);
                        }
                    }
                }
            }
            if !assigned {
                match self.column_singles(board) {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                }
            }
        }
    }

    /// Hidden singles in columns: a digit with one place left in a column
    /// where it is not placed takes it. `None` when a column has no place
    /// for a digit, else whether anything was assigned.
    fn column_singles(&self, board: &mut Board<L, LANES>) -> Option<bool> {
        let all = (1u32 << (Self::SIDE - 1)) * 2 - 1;
        let mut assigned = false;
        for d in 0..Self::SIDE {
            let (mut one, mut two, mut placed) = (0u32, 0u32, 0u32);
            for b in 0..N {
                let a = board.candidates[b * Self::SIDE + d];
                let fixed = a & !board.open[b];
                for r in 0..N {
                    let cells = Self::row_of(a, r);
                    two |= one & cells;
                    one |= cells;
                    placed |= Self::row_of(fixed, r);
                }
            }
            if one != all {
                return None;
            }
            let mut singles = !two & !placed & all;
            while singles != 0 {
                let column = singles & singles.wrapping_neg();
                singles ^= column;
                let mut cells = L::ZERO;
                for r in 0..N {
                    cells |= L::from(column) << (r * Self::SIDE) as u32;
                }
                // An earlier single of this digit may have taken the
                // column's last place.
                let b =
                    (0..N).find(|&b| board.candidates[b * Self::SIDE + d] & cells != L::ZERO)?;
                let bit = board.candidates[b * Self::SIDE + d] & cells;
                self.assign(board, b, bit, d);
                assigned = true;
            }
        }
        Some(assigned)
    }

    /// The cells of band `b` with at least one, two, three and four
    /// candidates (bit-sliced counting, saturating at four).
    #[inline(always)]
    fn counts(board: &Board<L, LANES>, b: usize) -> [L; 4] {
        let [mut one, mut two, mut three, mut four] = [L::ZERO; 4];
        for &c in &board.candidates[b * Self::SIDE..(b + 1) * Self::SIDE] {
            four |= three & c;
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        [one, two, three, four]
    }

    /// The empty cell to guess on, as (band, bit): the first with two
    /// candidates, else three, else the first empty one.
    fn guess_cell(board: &Board<L, LANES>) -> (usize, L) {
        let mut triple = None;
        let mut first = None;
        for b in 0..N {
            let open = board.open[b];
            if open == L::ZERO {
                continue;
            }
            let [_, two, three, four] = Self::counts(board, b);
            let pairs = open & two & !three;
            if pairs != L::ZERO {
                return (b, pairs.lowest());
            }
            let triples = open & three & !four;
            if triple.is_none() && triples != L::ZERO {
                triple = Some((b, triples.lowest()));
            }
            first = first.or(Some((b, open.lowest())));
        }
        triple
            .or(first)
            .expect("an unsolved board has an empty cell")
    }

    /// Writes the solved board as digits.
    fn write(&mut self, board: &Board<L, LANES>) {
        for b in 0..N {
            for d in 0..Self::SIDE {
                let mut rest = board.candidates[b * Self::SIDE + d];
                while rest != L::ZERO {
                    let bit = rest.lowest();
                    self.grid[b * Self::BAND_CELLS + bit.trailing_zeros() as usize] = d as u8 + 1;
                    rest = rest ^ bit;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testing::{is_solution_of, random_puzzle};
    use crate::sudoku::{Engine, Layout, Notation, Puzzle, Separator, Size, Solver};
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// The matching in closed form keeps exactly the cells of the
    /// segments that some row-to-box permutation of occupied segments
    /// passes through (found here by trying every permutation), on random
    /// band entries of every size (25×25 runs the matching only here).
    #[test]
    fn the_matching_keeps_the_segments_of_some_permutation() {
        /// `tenths`: the share of cells drawn as candidates.
        fn check<L: Lane, const N: usize, const LANES: usize>(rng: &mut ChaCha8Rng, tenths: u32) {
            let solver = WideSolver::<L, N, LANES>::new();
            let side = N * N;
            // Every permutation: each map of rows to boxes that is one-to-one.
            let mut all = Vec::new();
            for code in 0..N.pow(N as u32) {
                let boxes: Vec<usize> = (0..N).map(|r| code / N.pow(r as u32) % N).collect();
                let mut seen = vec![false; N];
                if boxes
                    .iter()
                    .all(|&k| !std::mem::replace(&mut seen[k], true))
                {
                    all.push(boxes);
                }
            }
            let (mut emptied, mut pruned) = (0, 0);
            for _ in 0..2000 {
                // Dense enough that matchings often survive, sparse enough
                // that they often fail.
                let mut a = L::ZERO;
                for cell in 0..N * side {
                    if rng.random_range(0..10) < tenths {
                        a |= L::from(1) << cell as u32;
                    }
                }
                let occupied = |r: usize, k: usize| {
                    (0..N).any(|c| a >> (r * side + k * N + c) as u32 & L::from(1) != L::ZERO)
                };
                let mut expected = L::ZERO;
                for boxes in &all {
                    if (0..N).all(|r| occupied(r, boxes[r])) {
                        for (r, &k) in boxes.iter().enumerate() {
                            for c in 0..N {
                                expected |= L::from(1) << (r * side + k * N + c) as u32;
                            }
                        }
                    }
                }
                let got = a & solver.matched(a);
                assert_eq!(got, a & expected, "box side {N}: {a:?}");
                if got == L::ZERO {
                    emptied += 1;
                } else if got != a {
                    pruned += 1;
                }
            }
            assert!(
                emptied > 50 && pruned > 50,
                "box side {N}: {emptied} {pruned}"
            );
        }
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        check::<u32, 2, 8>(&mut rng, 3);
        check::<u32, 3, 27>(&mut rng, 3);
        check::<u64, 4, 64>(&mut rng, 3);
        check::<u128, 5, 125>(&mut rng, 1);
    }

    fn as_puzzle(n: usize, cells: &[u8]) -> Puzzle {
        Puzzle {
            size: Size::new(n).unwrap(),
            cells: cells.to_vec(),
            line: 1,
            layout: Layout::Line,
            notation: Notation::Numbers(Separator::Space),
        }
    }

    /// Counts at several limits equal the compact exact-cover engine's, on
    /// random puzzles of box side `N` with many solutions, one, none or
    /// clashing givens; every solution is valid, keeps the givens and comes
    /// once. Returns how many puzzles had none, one and several solutions.
    fn counts_equal_exact_cover<L: Lane, const N: usize, const LANES: usize>(
        seed: u64,
        puzzles: usize,
        keeps: &[u32],
        limits: &[u64],
    ) -> [usize; 3] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut exact = Solver::new(Engine::Compact);
        let mut wide = WideSolver::<L, N, LANES>::new();
        let mut kinds = [0usize; 3];
        for round in 0..puzzles {
            let cells = random_puzzle(&mut rng, N, keeps[round % keeps.len()]);
            let puzzle = as_puzzle(N, &cells);
            for &limit in limits {
                let expected = exact.count(&puzzle, Some(limit)).stats.solutions;
                let mut seen = std::collections::HashSet::new();
                let (_, stats) = wide.search(&cells, &Limits::solutions(limit), |grid| {
                    assert!(is_solution_of(N, &cells, grid), "{cells:?}: {grid:?}");
                    assert!(seen.insert(grid.to_vec()), "{cells:?}: a solution twice");
                    Control::Continue
                });
                assert_eq!(stats.solutions, expected, "{cells:?} at limit {limit}");
                if limit == 2 {
                    kinds[expected.min(2) as usize] += 1;
                }
            }
        }
        kinds
    }

    #[test]
    fn four_by_four_counts_equal_the_exact_cover_engines() {
        let kinds =
            counts_equal_exact_cover::<u32, 2, 8>(4, 400, &[0, 10, 25, 40, 60], &[1, 2, 300]);
        assert!(kinds.iter().all(|&k| k > 20), "none/one/several: {kinds:?}");
        // The empty 4×4 grid has 288 solutions.
        let (outcome, stats) =
            Bits4::new().search(&[0; 16], &Limits::none(), |_| Control::Continue);
        assert_eq!((outcome, stats.solutions), (Outcome::Exhausted, 288));
    }

    #[test]
    fn nine_by_nine_counts_equal_the_exact_cover_engines() {
        let kinds =
            counts_equal_exact_cover::<u32, 3, 27>(9, 300, &[10, 17, 25, 32, 40, 55], &[1, 2, 50]);
        assert!(kinds.iter().all(|&k| k > 20), "none/one/several: {kinds:?}");
    }

    #[test]
    fn sixteen_by_sixteen_counts_equal_the_exact_cover_engines() {
        let kinds =
            counts_equal_exact_cover::<u64, 4, 64>(16, 120, &[40, 50, 60, 70, 85], &[1, 2, 20]);
        assert!(kinds.iter().all(|&k| k > 5), "none/one/several: {kinds:?}");
    }

    #[test]
    fn twenty_five_counts_equal_the_exact_cover_engines() {
        let kinds = counts_equal_exact_cover::<u128, 5, 125>(25, 40, &[60, 70, 80, 90], &[1, 2, 5]);
        assert!(kinds.iter().all(|&k| k > 2), "none/one/several: {kinds:?}");
    }

    /// On 9×9, every solution it finds is one the specialised engine finds
    /// (both enumerate all of a puzzle's solutions, in their own order).
    #[test]
    fn nine_by_nine_solutions_equal_the_specialised_engines() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let (mut wide, mut bits) = (Bits9::new(), super::super::BitSolver::new());
        for round in 0..300 {
            let cells = random_puzzle(&mut rng, 3, [14, 20, 26, 32][round % 4]);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let (outcome, _) = wide.search(&cells, &Limits::solutions(500), |grid| {
                a.push(grid.to_vec());
                Control::Continue
            });
            bits.search(&cells, &Limits::solutions(500), |grid| {
                b.push(grid.to_vec());
                Control::Continue
            });
            if outcome == Outcome::Exhausted {
                a.sort();
                b.sort();
                assert_eq!(a, b, "{cells:?}");
            } else {
                assert_eq!(a.len(), b.len());
            }
        }
    }

    #[test]
    fn limits_clashes_and_the_empty_grid() {
        let mut wide = Bits16::new();
        let mut clash = vec![0u8; 256];
        clash[0] = 5;
        clash[17] = 5; // the same box
        assert_eq!(
            wide.search(&clash, &Limits::none(), |_| Control::Continue)
                .0,
            Outcome::Exhausted
        );
        let empty = vec![0u8; 256];
        let mut grids = Vec::new();
        let (outcome, stats) = wide.search(&empty, &Limits::solutions(50), |g| {
            grids.push(g.to_vec());
            Control::Continue
        });
        assert_eq!((outcome, stats.solutions), (Outcome::SolutionLimit, 50));
        assert!(grids.iter().all(|g| is_solution_of(4, &empty, g)));
        assert_eq!(
            wide.search(&empty, &Limits::solutions(0), |_| Control::Continue)
                .0,
            Outcome::SolutionLimit
        );
        let budget = Limits {
            node_budget: Some(3),
            ..Limits::none()
        };
        let (outcome, stats) = wide.search(&empty, &budget, |_| Control::Continue);
        // The empty grid needs guesses before its first solution.
        assert_eq!((outcome, stats.guesses), (Outcome::NodeBudget, 3));
        let (outcome, stats) = wide.search(&empty, &Limits::solutions(3), |_| Control::Stop);
        assert_eq!((outcome, stats.solutions), (Outcome::Stopped, 1));
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancelled = Limits {
            cancel: Some(flag),
            ..Limits::none()
        };
        assert_eq!(
            wide.search(&empty, &cancelled, |_| Control::Continue).0,
            Outcome::Cancelled
        );
        let empty25 = vec![0u8; 625];
        let mut found = None;
        Bits25::new().search(&empty25, &Limits::solutions(1), |g| {
            found = Some(g.to_vec());
            Control::Continue
        });
        assert!(is_solution_of(5, &empty25, &found.expect("a solution")));
    }
}
