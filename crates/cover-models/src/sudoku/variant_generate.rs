//! Variant sudoku generation: puzzles of the [`Rules`] model with exactly
//! one solution, reproducible from a seed.
//!
//! This module owns the random structures of each [`VariantKind`] (jigsaw
//! layouts, killer cage partitions, thermometer paths), the random full
//! grids, the clue removal and the search-effort grade. It counts
//! solutions through [`VariantSolver`] only and must not know the engines'
//! encodings, nor any file format (the line format is
//! `sudoku::variant_line`'s) or the command line.
//!
//! ## How a puzzle is made
//! 1. **Rules and a full grid.** A jigsaw layout starts from the boxes
//!    (or, for a side without boxes, the rows) and is mixed by random
//!    moves that keep every piece `side` cells and connected: a border
//!    cell of one piece goes to its neighbour, a border cell of the
//!    neighbour comes back, and the move is undone when either piece falls
//!    apart. The full grid is the first one a randomized backtracking
//!    search finds (fewest candidates first, digits in random order, over
//!    the rules' regions and pair rules; its own, because [`VariantSolver`]
//!    tries options in the order it builds them, so its first grid is not
//!    random); a search past its node budget is dropped and started again,
//!    and a jigsaw layout that has no grid within a few searches is
//!    replaced.
//! 2. **Killer:** the grid is cut into connected cages of 2 to 5 cells
//!    with distinct digits (grown from random cells in random order; a
//!    cell left alone joins a neighbouring cage with room, else the cut is
//!    made again), each summing to its digits. No givens at first; while
//!    the cages allow two solutions, the grid's digit is given in a cell
//!    where another solution differs. **Thermo:** a few thermometers are
//!    walked on the grid, each step to a king-adjacent cell with a larger
//!    digit.
//! 3. **Clue removal.** The givens (all cells, or killer's added ones) are
//!    visited once in random order (with `symmetric`, in pairs that a 180°
//!    rotation swaps); each is emptied and put back unless the puzzle still
//!    has exactly one solution: an emptied cell that the other givens force
//!    back by a naked or hidden single over the regions and pair rules
//!    needs no search, else [`VariantSolver`] counts to 2. One pass leaves
//!    a minimal puzzle. With a rating range, a clue also stays when logic
//!    no longer solves the puzzle within the range without it (the puzzle
//!    is then not minimal), and killer gets givens in random cells until
//!    logic does.
//!
//! Attempt `a` at puzzle `i` of seed `s` draws from a ChaCha8 stream
//! keyed by `(s, i, a)`, as the classic generator does, so a puzzle
//! depends on nothing else.
//!
//! ## Difficulty
//! - **By logic** ([`GeneratedVariant::logic`], [`VariantRequest::rating`]):
//!   the kinds whose rules human logic reads
//!   ([`VariantKind::rated_by_logic`]: so far all) are rated on Sudoku Explainer's scale by [`human::rate_within`] over
//!   [`Geometry::from_rules`], as the classic generator rates by
//!   [`Geometry::new`]: a rating range is met by making puzzles until one
//!   is in it, each rating given up at the first step above the range.
//! - **By search effort** ([`SearchEffort`], [`VariantRequest::grade`]):
//!   the search nodes [`VariantSolver`] (the linked engine) visits to solve
//!   the puzzle and prove it unique, and their [`Grade`] with the classic
//!   generator's cuts per cell (1.25, 4 and 12 nodes per cell). The cuts
//!   were calibrated on classic 9×9 puzzles only; for variants they
//!   measure search effort, not human difficulty. Every kind has it.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use dlx_core::{Control, Limits, Outcome};
use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::RngExt;
use thiserror::Error;

use crate::generate::{puzzle_rng, Grade, LogicRating};
use crate::sudoku::human::{self, Catalogue, GaveUp, RateLimits, RatingRange};
use crate::sudoku::logic::Geometry;
use crate::sudoku::variant::{classic_box, Rules, VariantSolver};

/// The kinds of variant the generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VariantKind {
    /// Irregular connected pieces instead of boxes.
    Jigsaw,
    /// Both main diagonals are regions too.
    X,
    /// Four extra 3×3 windows (9×9).
    Windoku,
    /// Killer cages with sums cover the grid; few or no givens.
    Killer,
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours are not consecutive.
    NonConsecutive,
    /// Thermometers: digits increase from the bulb.
    Thermo,
}

impl VariantKind {
    /// Every kind, in the order of the command line's list.
    pub const ALL: [VariantKind; 8] = [
        VariantKind::Jigsaw,
        VariantKind::X,
        VariantKind::Windoku,
        VariantKind::Killer,
        VariantKind::AntiKnight,
        VariantKind::AntiKing,
        VariantKind::NonConsecutive,
        VariantKind::Thermo,
    ];

    /// The kind's name on the command line: `jigsaw`, `x`, `windoku`,
    /// `killer`, `anti-knight`, `anti-king`, `non-consecutive`, `thermo`.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Jigsaw => "jigsaw",
            VariantKind::X => "x",
            VariantKind::Windoku => "windoku",
            VariantKind::Killer => "killer",
            VariantKind::AntiKnight => "anti-knight",
            VariantKind::AntiKing => "anti-king",
            VariantKind::NonConsecutive => "non-consecutive",
            VariantKind::Thermo => "thermo",
        }
    }

    /// Whether human logic reads the kind's rules ([`Geometry::from_rules`]
    /// and the techniques: regions, pair rules, killer cages,
    /// non-consecutive and thermometers), so its puzzles get a rating by
    /// logic and a rating range can be asked for: every kind so far.
    pub fn rated_by_logic(self) -> bool {
        match self {
            VariantKind::Jigsaw
            | VariantKind::X
            | VariantKind::Windoku
            | VariantKind::Killer
            | VariantKind::AntiKnight
            | VariantKind::AntiKing
            | VariantKind::NonConsecutive
            | VariantKind::Thermo => true,
        }
    }

    /// The sides the kind is generated on. Pair rules need room: no 4×4
    /// grid is anti-king or non-consecutive, and the sides left out here
    /// were not measured to finish in seconds.
    pub fn sides(self) -> &'static [usize] {
        match self {
            VariantKind::Jigsaw => &[4, 5, 6, 7, 8, 9],
            VariantKind::X | VariantKind::Killer | VariantKind::Thermo => &[4, 6, 8, 9],
            VariantKind::Windoku | VariantKind::AntiKing | VariantKind::NonConsecutive => &[9],
            VariantKind::AntiKnight => &[6, 8, 9],
        }
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`VariantKind`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant {0:?} (expected jigsaw, x, windoku, killer, anti-knight, anti-king, non-consecutive or thermo)")]
pub struct UnknownVariant(pub String);

impl FromStr for VariantKind {
    type Err = UnknownVariant;

    fn from_str(text: &str) -> Result<VariantKind, UnknownVariant> {
        VariantKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownVariant(text.to_owned()))
    }
}

/// Why a request cannot be met.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantGenerateError {
    /// The kind is not made on that side.
    #[error("{kind} sudoku is generated on sides {}, not {side}", list(.kind.sides()))]
    Side {
        /// The kind asked for.
        kind: VariantKind,
        /// The side asked for.
        side: usize,
    },
    /// No attempt is made.
    #[error("at least one attempt is needed")]
    NoAttempts,
}

fn list(sides: &[usize]) -> String {
    let names: Vec<String> = sides.iter().map(usize::to_string).collect();
    names.join(", ")
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantRequest {
    /// The variant.
    pub kind: VariantKind,
    /// The side of the grid (one of [`VariantKind::sides`]).
    pub side: usize,
    /// Remove (or, for killer, add) givens in pairs that a 180° rotation
    /// swaps.
    pub symmetric: bool,
    /// Make puzzles until one's rating by logic on Sudoku Explainer's
    /// scale is in this range.
    pub rating: Option<RatingRange>,
    /// Make puzzles until one's search-effort grade is this one.
    pub grade: Option<Grade>,
    /// Rate every puzzle by logic (where the kind is rated by logic; by
    /// logic always when `rating` is set).
    pub rate: bool,
    /// Give up on the grade after this many puzzles (at least 1); the
    /// closest is returned with `target_met` false.
    pub max_attempts: u32,
    /// Stop making attempts once this instant has passed.
    pub deadline: Option<Instant>,
}

impl VariantRequest {
    /// A 9×9 puzzle of `kind`, no target, rated, 1000 attempts.
    pub fn new(kind: VariantKind) -> VariantRequest {
        VariantRequest {
            kind,
            side: 9,
            symmetric: false,
            rating: None,
            grade: None,
            rate: true,
            max_attempts: 1000,
            deadline: None,
        }
    }

    /// Refuses a side the kind is not made on, or no attempts.
    pub fn validate(&self) -> Result<(), VariantGenerateError> {
        if !self.kind.sides().contains(&self.side) {
            return Err(VariantGenerateError::Side {
                kind: self.kind,
                side: self.side,
            });
        }
        if self.max_attempts == 0 {
            return Err(VariantGenerateError::NoAttempts);
        }
        Ok(())
    }
}

/// How hard a puzzle is to search (see the module's docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchEffort {
    /// Search nodes to solve the puzzle and prove it unique.
    pub nodes: u64,
    /// Those nodes per cell, cut as the classic generator cuts them.
    pub grade: Grade,
}

impl SearchEffort {
    /// The grade of `nodes` on a grid of `cells` cells: at most 1.25, 4,
    /// 12 nodes per cell, or more ([`Grade::of`]'s cuts, for any side).
    pub fn of(nodes: u64, cells: usize) -> SearchEffort {
        let quarters = nodes.saturating_mul(4);
        let cells = cells as u64;
        let grade = if quarters <= 5 * cells {
            Grade::Easy
        } else if quarters <= 16 * cells {
            Grade::Medium
        } else if quarters <= 48 * cells {
            Grade::Hard
        } else {
            Grade::Extreme
        };
        SearchEffort { nodes, grade }
    }
}

/// One generated variant puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedVariant {
    /// Its kind.
    pub kind: VariantKind,
    /// Its rules (the jigsaw layout, cages, thermometers are in them).
    pub rules: Rules,
    /// The givens, row by row, 0 empty.
    pub puzzle: Vec<u8>,
    /// Its one solution.
    pub solution: Vec<u8>,
    /// The number of givens.
    pub clues: usize,
    /// No given (with `symmetric`, no pair) can be removed without losing
    /// uniqueness.
    pub minimal: bool,
    /// Its search effort and grade.
    pub effort: SearchEffort,
    /// Its rating by logic, when it was rated ([`VariantRequest::rate`] or
    /// a rating range, and a kind [`VariantKind::rated_by_logic`]); not
    /// `complete` when logic did not finish (then [`RatingRange::TOP`]) or
    /// stopped above the range asked for (then a lower bound).
    pub logic: Option<LogicRating>,
    /// How many puzzles were made for this one.
    pub attempts: u32,
    /// Whether the requested rating and grade were met (true without).
    pub target_met: bool,
}

/// Puzzle `index` of `seed` for `request`.
///
/// ```
/// use cover_models::sudoku::variant_generate::{generate, VariantKind, VariantRequest};
/// let request = VariantRequest { side: 6, ..VariantRequest::new(VariantKind::Jigsaw) };
/// let made = generate(&request, 7, 0).unwrap();
/// assert!(made.rules.check(&made.solution).is_ok());
/// assert_eq!(made, generate(&request, 7, 0).unwrap());
/// ```
pub fn generate(
    request: &VariantRequest,
    seed: u64,
    index: u64,
) -> Result<GeneratedVariant, VariantGenerateError> {
    request.validate()?;
    let mut best: Option<(u64, GeneratedVariant)> = None;
    let mut made = 0;
    for attempt in 1..=request.max_attempts {
        if attempt > 1 && request.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        made = attempt;
        let mut rng = puzzle_rng(seed, index, attempt - 1);
        let mut puzzle = make(request, &mut rng);
        let grade_miss = request
            .grade
            .map_or(0, |g| rank(g).abs_diff(rank(puzzle.effort.grade)));
        let rating_miss = match (request.rating, puzzle.logic) {
            (Some(range), Some(logic)) => u64::from(range.distance(logic.rating)),
            _ => 0,
        };
        // Misses in rating weigh more than any miss in grade.
        let miss = rating_miss << 32 | u64::from(grade_miss);
        puzzle.attempts = attempt;
        puzzle.target_met = miss == 0;
        if miss == 0 {
            return Ok(puzzle);
        }
        if best.as_ref().is_none_or(|(m, _)| miss < *m) {
            best = Some((miss, puzzle));
        }
    }
    let (_, mut best) = best.expect("at least one attempt is made");
    best.attempts = made;
    if best.logic.is_some_and(|l| !l.complete) {
        // Its rating stopped at the first step past the range: the
        // puzzle returned gets its whole rating, in the time left.
        best.logic = logic_rating(&best.rules, &best.puzzle, None, request.deadline);
    }
    Ok(best)
}

/// The rating of `cells` under `rules` by logic; with `range`, given up
/// (incomplete) at the first step above it, or at `deadline`. `None` when
/// human logic cannot read the rules.
pub fn logic_rating(
    rules: &Rules,
    cells: &[u8],
    range: Option<RatingRange>,
    deadline: Option<Instant>,
) -> Option<LogicRating> {
    let geometry = Geometry::from_rules(rules).ok()?;
    let limits = RateLimits {
        above: range.map(|r| r.hi),
        deadline,
    };
    Some(
        match human::rate_within(&geometry, cells, Catalogue::Rating, limits) {
            Ok(rated) => LogicRating {
                rating: if rated.solved {
                    rated.rating
                } else {
                    RatingRange::TOP
                },
                hardest: rated.hardest().map(|s| s.technique),
                complete: rated.solved,
            },
            Err(GaveUp::Above(rating)) => LogicRating {
                rating,
                hardest: None,
                complete: false,
            },
            Err(GaveUp::Deadline) => LogicRating {
                rating: RatingRange::TOP,
                hardest: None,
                complete: false,
            },
        },
    )
}

/// Puzzles `0..count` of `seed` for `request`, in order (for a game's or
/// a benchmark's reproducible set: the same arguments give the same set).
pub fn generate_set(
    request: &VariantRequest,
    seed: u64,
    count: u64,
) -> Result<Vec<GeneratedVariant>, VariantGenerateError> {
    (0..count)
        .map(|index| generate(request, seed, index))
        .collect()
}

fn rank(grade: Grade) -> u32 {
    Grade::ALL.iter().position(|&g| g == grade).unwrap_or(0) as u32
}

/// One attempt: rules, grid, givens, effort.
fn make(request: &VariantRequest, rng: &mut ChaCha8Rng) -> GeneratedVariant {
    let side = request.side;
    let (rules, solution, givens) = match request.kind {
        VariantKind::Jigsaw => {
            let (rules, solution) = jigsaw(side, rng);
            let givens = remove_all(&rules, &solution, request, rng);
            (rules, solution, givens)
        }
        VariantKind::Killer => {
            let classic = Rules::classic(side);
            let solution = full_grid(&classic, rng);
            let rules = with_killer_cages(classic, &solution, rng);
            let givens = killer_givens(&rules, &solution, request, rng);
            (rules, solution, givens)
        }
        VariantKind::Thermo => {
            let classic = Rules::classic(side);
            let solution = full_grid(&classic, rng);
            let rules = with_thermos(classic, &solution, rng);
            let givens = remove_all(&rules, &solution, request, rng);
            (rules, solution, givens)
        }
        kind => {
            let classic = Rules::classic(side);
            let rules = match kind {
                VariantKind::X => classic.with_diagonals(),
                VariantKind::Windoku => {
                    classic.with_windows().expect("windoku is validated to 9×9")
                }
                VariantKind::AntiKnight => classic.with_anti_knight(),
                VariantKind::AntiKing => classic.with_anti_king(),
                VariantKind::NonConsecutive => classic.with_non_consecutive(),
                _ => unreachable!("the kinds with their own structures are matched above"),
            };
            let solution = full_grid(&rules, rng);
            let givens = remove_all(&rules, &solution, request, rng);
            (rules, solution, givens)
        }
    };
    let Givens {
        puzzle,
        minimal,
        nodes,
    } = givens;
    let nodes = nodes.unwrap_or_else(|| count(&rules, &puzzle).nodes);
    let logic = (request.kind.rated_by_logic() && (request.rate || request.rating.is_some()))
        .then(|| logic_rating(&rules, &puzzle, request.rating, request.deadline))
        .flatten();
    GeneratedVariant {
        logic,
        kind: request.kind,
        clues: puzzle.iter().filter(|&&d| d != 0).count(),
        effort: SearchEffort::of(nodes, rules.cells()),
        rules,
        puzzle,
        solution,
        minimal,
        attempts: 1,
        target_met: true,
    }
}

/// The givens of a puzzle made unique.
struct Givens {
    /// The cells, 0 empty.
    puzzle: Vec<u8>,
    /// Whether every given is needed for uniqueness.
    minimal: bool,
    /// The nodes of a count to 2 of exactly this puzzle, when one was made
    /// (the search effort, without counting it again).
    nodes: Option<u64>,
}

/// What a count to 2 found.
struct Counted {
    solutions: u64,
    nodes: u64,
    /// A solution other than the one asked about, when one was seen.
    other: Option<Vec<u8>>,
}

/// Counts the solutions of `puzzle` to 2; `other` is a solution that
/// differs from `known` (when given) if one was met.
fn count_against(rules: &Rules, puzzle: &[u8], known: Option<&[u8]>) -> Counted {
    let mut solver = VariantSolver::new(rules, puzzle).expect("generated rules and givens fit");
    let mut other = None;
    let report = solver.search(&Limits::solutions(2), |grid| {
        if other.is_none() && known.is_none_or(|k| k != grid) {
            other = Some(grid.to_vec());
        }
        Control::Continue
    });
    debug_assert!(matches!(
        report.outcome,
        Outcome::Exhausted | Outcome::SolutionLimit
    ));
    Counted {
        solutions: report.stats.solutions,
        nodes: report.stats.nodes,
        other,
    }
}

fn count(rules: &Rules, puzzle: &[u8]) -> Counted {
    count_against(rules, puzzle, None)
}

/// The distinct-digit and neighbour constraints of some rules as peer
/// lists: enough to fill grids at random and to spot singles. Cage sums
/// and thermometers are left out: every deduction from fewer rules holds
/// under all of them.
struct Peers {
    side: usize,
    /// Cells that must hold another digit than each cell.
    differ: Vec<Vec<usize>>,
    /// Orthogonal neighbours that must not be consecutive (non-consecutive).
    apart: Vec<Vec<usize>>,
    /// Regions of `side` cells (each holds every digit).
    full: Vec<Vec<usize>>,
    /// Per cell, the indices in `full` of its regions.
    full_of: Vec<Vec<usize>>,
}

impl Peers {
    fn new(rules: &Rules) -> Peers {
        let side = rules.side();
        let cells = rules.cells();
        let mut differ: Vec<Vec<usize>> = vec![Vec::new(); cells];
        let mut tie = |a: usize, b: usize| {
            if a != b && !differ[a].contains(&b) {
                differ[a].push(b);
                differ[b].push(a);
            }
        };
        let groups = rules
            .regions()
            .iter()
            .map(Vec::as_slice)
            .chain(rules.cages().iter().map(|c| c.cells.as_slice()));
        for group in groups {
            for (i, &a) in group.iter().enumerate() {
                for &b in &group[i + 1..] {
                    tie(a, b);
                }
            }
        }
        for (a, b) in rules.pair_rules() {
            tie(a, b);
        }
        let mut apart: Vec<Vec<usize>> = vec![Vec::new(); cells];
        if rules.non_consecutive() {
            for (a, b) in rules.neighbours() {
                apart[a].push(b);
                apart[b].push(a);
            }
        }
        let full: Vec<Vec<usize>> = rules
            .regions()
            .iter()
            .filter(|r| r.len() == side)
            .cloned()
            .collect();
        let mut full_of: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (i, region) in full.iter().enumerate() {
            for &cell in region {
                full_of[cell].push(i);
            }
        }
        Peers {
            side,
            differ,
            apart,
            full,
            full_of,
        }
    }

    /// The digits `cell` may hold beside the filled cells of `grid`, as
    /// bits (`1 << (digit − 1)`).
    fn candidates(&self, grid: &[u8], cell: usize) -> u64 {
        let mut mask = if self.side == 64 {
            u64::MAX
        } else {
            (1u64 << self.side) - 1
        };
        for &peer in &self.differ[cell] {
            let d = grid[peer];
            if d != 0 {
                mask &= !(1 << (d - 1));
            }
        }
        for &next in &self.apart[cell] {
            let d = grid[next] as u32;
            if d != 0 {
                // d − 1 and d + 1 are bits d − 2 and d.
                if d >= 2 {
                    mask &= !(1 << (d - 2));
                }
                mask &= !(1u64.checked_shl(d).unwrap_or(0));
            }
        }
        mask
    }

    /// Whether the givens of `puzzle` force the empty `cell` to `digit`: a
    /// naked single, or a hidden single in one of its full regions.
    fn forced(&self, puzzle: &[u8], cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        let own = self.candidates(puzzle, cell);
        if own == bit {
            return true;
        }
        if own & bit == 0 {
            // Unreachable for a cell emptied from a solution; no claim.
            return false;
        }
        // A filled cell of the region holds another digit (the region's
        // cells differ in the solution the puzzle was emptied from).
        self.full_of[cell].iter().any(|&r| {
            self.full[r].iter().all(|&other| {
                other == cell || puzzle[other] != 0 || self.candidates(puzzle, other) & bit == 0
            })
        })
    }

    /// A random full grid, or `None` past `budget` search nodes.
    fn fill(&self, rng: &mut ChaCha8Rng, budget: u64) -> Option<Vec<u8>> {
        let mut grid = vec![0u8; self.differ.len()];
        let mut nodes = 0;
        match self.extend(&mut grid, rng, &mut nodes, budget) {
            Some(true) => Some(grid),
            _ => None,
        }
    }

    /// Fills the empty cells of `grid`: `Some(true)` done, `Some(false)` no
    /// way, `None` out of budget (`grid` then as it came).
    fn extend(
        &self,
        grid: &mut [u8],
        rng: &mut ChaCha8Rng,
        nodes: &mut u64,
        budget: u64,
    ) -> Option<bool> {
        *nodes += 1;
        if *nodes > budget {
            return None;
        }
        let mut best: Option<(usize, u64)> = None;
        for cell in 0..grid.len() {
            if grid[cell] != 0 {
                continue;
            }
            let mask = self.candidates(grid, cell);
            let n = mask.count_ones();
            if n == 0 {
                return Some(false);
            }
            if best.is_none_or(|(_, m)| n < m.count_ones()) {
                best = Some((cell, mask));
                if n == 1 {
                    break;
                }
            }
        }
        let Some((cell, mask)) = best else {
            return Some(true);
        };
        let mut digits: Vec<u8> = (1..=self.side as u8)
            .filter(|d| mask & 1 << (d - 1) != 0)
            .collect();
        digits.shuffle(rng);
        for digit in digits {
            grid[cell] = digit;
            match self.extend(grid, rng, nodes, budget) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => {
                    grid[cell] = 0;
                    return None;
                }
            }
        }
        grid[cell] = 0;
        Some(false)
    }
}

/// The node budget of one random fill: far above what a fill with a few
/// backtracks takes, so that only a thrashing order is dropped.
fn fill_budget(rules: &Rules) -> u64 {
    200 * rules.cells() as u64
}

/// A random full grid of `rules` (which must have one: every kind's
/// classic rules do).
fn full_grid(rules: &Rules, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let peers = Peers::new(rules);
    loop {
        if let Some(grid) = peers.fill(rng, fill_budget(rules)) {
            return grid;
        }
    }
}

/// Random jigsaw rules of `side` and a full grid of them.
fn jigsaw(side: usize, rng: &mut ChaCha8Rng) -> (Rules, Vec<u8>) {
    loop {
        let layout = jigsaw_layout(side, rng);
        let rules = Rules::jigsaw(side, &layout).expect("moves keep pieces whole and connected");
        let peers = Peers::new(&rules);
        // A layout may have no grid at all: a few fills, then another one.
        for _ in 0..4 {
            if let Some(grid) = peers.fill(rng, fill_budget(&rules)) {
                return (rules, grid);
            }
        }
    }
}

/// The orthogonal neighbours of `cell`.
fn orthogonal(side: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / side, cell % side);
    let up = (r > 0).then(|| cell - side);
    let down = (r + 1 < side).then(|| cell + side);
    let left = (c > 0).then(|| cell - 1);
    let right = (c + 1 < side).then(|| cell + 1);
    [up, down, left, right].into_iter().flatten()
}

/// Whether piece `piece` of `layout` is orthogonally connected.
fn connected(side: usize, layout: &[usize], piece: usize) -> bool {
    let Some(start) = layout.iter().position(|&p| p == piece) else {
        return true;
    };
    let mut seen = vec![false; layout.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for next in orthogonal(side, cell) {
            if !seen[next] && layout[next] == piece {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached == layout.iter().filter(|&&p| p == piece).count()
}

/// A random layout of `side` pieces of `side` connected cells each.
fn jigsaw_layout(side: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let cells = side * side;
    let mut layout: Vec<usize> = match classic_box(side) {
        Some((rows, cols)) => (0..cells)
            .map(|cell| (cell / side / rows) * (side / cols) + (cell % side) / cols)
            .collect(),
        None => (0..cells).map(|cell| cell / side).collect(),
    };
    // Enough moves that no trace of the start is left on these sides.
    let wanted = 6 * cells;
    let mut done = 0;
    while done < wanted || straight_piece(side, &layout) {
        let a = rng.random_range(0..cells);
        let across: Vec<usize> = orthogonal(side, a)
            .filter(|&n| layout[n] != layout[a])
            .collect();
        let Some(&b) = across.choose(rng) else {
            continue;
        };
        let (from, to) = (layout[a], layout[b]);
        // A cell of the other piece that touches this one comes back.
        let back: Vec<usize> = (0..cells)
            .filter(|&c| layout[c] == to && orthogonal(side, c).any(|n| layout[n] == from))
            .collect();
        let &c = back.choose(rng).expect("b's piece touches a's piece at b");
        layout[a] = to;
        layout[c] = from;
        if connected(side, &layout, from) && connected(side, &layout, to) {
            done += 1;
        } else {
            layout[a] = from;
            layout[c] = to;
        }
    }
    layout
}

/// Whether some piece lies in one row or one column (a row twice over).
fn straight_piece(side: usize, layout: &[usize]) -> bool {
    (0..side).any(|piece| {
        let cells: Vec<usize> = (0..layout.len()).filter(|&c| layout[c] == piece).collect();
        cells.iter().all(|&c| c / side == cells[0] / side)
            || cells.iter().all(|&c| c % side == cells[0] % side)
    })
}

/// `rules` with killer cages that cut `solution` into connected pieces of
/// 2 to 5 cells (at most `side`) with distinct digits and their sums.
fn with_killer_cages(rules: Rules, solution: &[u8], rng: &mut ChaCha8Rng) -> Rules {
    let side = rules.side();
    let largest = side.min(5);
    let cages = loop {
        if let Some(cages) = killer_partition(side, solution, largest, rng) {
            break cages;
        }
    };
    cages.iter().fold(rules, |rules, cage| {
        let sum = cage.iter().map(|&c| solution[c] as u32).sum();
        rules
            .with_cage(cage, Some(sum))
            .expect("a cage of distinct digits has a reachable sum")
    })
}

/// One random cut of the grid into cages, or `None` when a lone cell has
/// no neighbouring cage to join.
fn killer_partition(
    side: usize,
    solution: &[u8],
    largest: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Vec<usize>>> {
    let cells = side * side;
    let mut cage_of = vec![usize::MAX; cells];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..cells).collect();
    order.shuffle(rng);
    for &start in &order {
        if cage_of[start] != usize::MAX {
            continue;
        }
        let size = rng.random_range(2..=largest);
        let id = cages.len();
        let mut cage = vec![start];
        cage_of[start] = id;
        while cage.len() < size {
            let mut frontier: Vec<usize> = cage
                .iter()
                .flat_map(|&c| orthogonal(side, c))
                .filter(|&n| {
                    cage_of[n] == usize::MAX && cage.iter().all(|&c| solution[c] != solution[n])
                })
                .collect();
            frontier.sort_unstable();
            frontier.dedup();
            let Some(&next) = frontier.choose(rng) else {
                break;
            };
            cage_of[next] = id;
            cage.push(next);
        }
        cages.push(cage);
    }
    // Lone cells join a neighbouring cage with room and without their digit.
    for id in 0..cages.len() {
        if cages[id].len() != 1 {
            continue;
        }
        let cell = cages[id][0];
        let mut hosts: Vec<usize> = orthogonal(side, cell)
            .map(|n| cage_of[n])
            .filter(|&h| {
                h != id
                    && cages[h].len() >= 2
                    && cages[h].len() < largest
                    && cages[h].iter().all(|&c| solution[c] != solution[cell])
            })
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        let &host = hosts.choose(rng)?;
        cages[host].push(cell);
        cage_of[cell] = host;
        cages[id].clear();
    }
    cages.retain(|cage| !cage.is_empty());
    Some(cages)
}

/// `rules` with thermometers walked on `solution`: a few paths of
/// king-adjacent cells, each digit larger than the last, none sharing a
/// cell.
fn with_thermos(rules: Rules, solution: &[u8], rng: &mut ChaCha8Rng) -> Rules {
    let side = rules.side();
    let cells = side * side;
    let wanted = rng.random_range(side / 2..=side * 3 / 4);
    let shortest = if side >= 6 { 3 } else { 2 };
    let longest = side.min(6);
    let mut used = vec![false; cells];
    let mut thermos: Vec<Vec<usize>> = Vec::new();
    for _ in 0..wanted * 20 {
        if thermos.len() == wanted {
            break;
        }
        let bulb = rng.random_range(0..cells);
        if used[bulb] || solution[bulb] as usize > side + 1 - shortest {
            continue;
        }
        let length = rng.random_range(shortest..=longest);
        let mut path = vec![bulb];
        while path.len() < length {
            let last = *path.last().expect("the bulb");
            let steps: Vec<usize> = king(side, last)
                .filter(|&n| !used[n] && !path.contains(&n) && solution[n] > solution[last])
                .collect();
            let Some(&next) = steps.choose(rng) else {
                break;
            };
            path.push(next);
        }
        if path.len() >= shortest {
            for &c in &path {
                used[c] = true;
            }
            thermos.push(path);
        }
    }
    thermos.iter().fold(rules, |rules, thermo| {
        rules
            .with_thermo(thermo)
            .expect("a walk of king moves is a thermometer")
    })
}

/// The king-adjacent cells of `cell`.
fn king(side: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((cell / side) as isize, (cell % side) as isize);
    let s = side as isize;
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
        .filter(move |&(r2, c2)| (r2, c2) != (r, c) && (0..s).contains(&r2) && (0..s).contains(&c2))
        .map(move |(r2, c2)| (r2 * s + c2) as usize)
}

/// The cells that go together when `cell` is emptied or given.
fn group_of(cell: usize, cells: usize, symmetric: bool) -> Vec<usize> {
    let partner = cells - 1 - cell;
    if symmetric && partner != cell {
        vec![cell, partner]
    } else {
        vec![cell]
    }
}

/// Empties every cell of `solution` it can (one pass, random order).
fn remove_all(
    rules: &Rules,
    solution: &[u8],
    request: &VariantRequest,
    rng: &mut ChaCha8Rng,
) -> Givens {
    let within = Within::new(rules, request);
    let symmetric = request.symmetric;
    remove_clues(
        rules,
        solution,
        solution.to_vec(),
        symmetric,
        within.as_ref(),
        rng,
    )
}

/// Removes the givens of `puzzle` (unique, with `solution`) in random
/// order while it stays unique; the puzzle and whether it is minimal
/// (always: every given is tried once).
fn remove_clues(
    rules: &Rules,
    solution: &[u8],
    mut puzzle: Vec<u8>,
    symmetric: bool,
    within: Option<&Within>,
    rng: &mut ChaCha8Rng,
) -> Givens {
    let cells = puzzle.len();
    let peers = Peers::new(rules);
    let mut order: Vec<usize> = (0..cells)
        .filter(|&c| puzzle[c] != 0 && (!symmetric || c <= cells - 1 - c))
        .collect();
    order.shuffle(rng);
    let mut minimal = true;
    let mut nodes = None;
    for cell in order {
        let group = group_of(cell, cells, symmetric);
        for &c in &group {
            puzzle[c] = 0;
        }
        let forced = group.iter().all(|&c| peers.forced(&puzzle, c, solution[c]));
        let counted = (!forced).then(|| count(rules, &puzzle));
        let unique = forced || counted.as_ref().is_some_and(|c| c.solutions == 1);
        let easy_enough = unique && within.is_none_or(|w| w.holds(&puzzle));
        if easy_enough {
            nodes = counted.map(|c| c.nodes);
        } else {
            // A clue kept for the rating alone leaves the puzzle not minimal.
            minimal &= !unique;
            for &c in &group {
                puzzle[c] = solution[c];
            }
        }
    }
    Givens {
        puzzle,
        minimal,
        nodes,
    }
}

/// The rating ceiling of a request with a rating range: clues stay while
/// removing them would take the puzzle above it.
struct Within {
    geometry: Geometry,
    range: RatingRange,
    deadline: Option<Instant>,
}

impl Within {
    fn new(rules: &Rules, request: &VariantRequest) -> Option<Within> {
        Some(Within {
            geometry: Geometry::from_rules(rules).ok()?,
            range: request.rating?,
            deadline: request.deadline,
        })
    }

    /// Whether logic solves `cells` with no step above the range.
    fn holds(&self, cells: &[u8]) -> bool {
        let limits = RateLimits {
            above: Some(self.range.hi),
            deadline: self.deadline,
        };
        human::rate_within(&self.geometry, cells, Catalogue::Rating, limits)
            .is_ok_and(|rated| rated.solved)
    }
}

/// Givens that make killer `rules` unique with `solution`: none when the
/// cages suffice; else the grid's digit in a cell where another solution
/// differs, until unique. With a rating range, givens in random cells
/// until logic solves it within the range. Then the pass of
/// [`remove_clues`] over the givens added.
fn killer_givens(
    rules: &Rules,
    solution: &[u8],
    request: &VariantRequest,
    rng: &mut ChaCha8Rng,
) -> Givens {
    let cells = solution.len();
    let symmetric = request.symmetric;
    let mut puzzle = vec![0u8; cells];
    let mut added = false;
    let unique_nodes = loop {
        let counted = count_against(rules, &puzzle, Some(solution));
        let Some(other) = counted.other else {
            break counted.nodes;
        };
        let differ: Vec<usize> = (0..cells).filter(|&c| other[c] != solution[c]).collect();
        let &cell = differ
            .choose(rng)
            .expect("another solution differs somewhere");
        for c in group_of(cell, cells, symmetric) {
            puzzle[c] = solution[c];
        }
        added = true;
    };
    let within = Within::new(rules, request);
    if let Some(within) = &within {
        while !within.holds(&puzzle) {
            let empty: Vec<usize> = (0..cells).filter(|&c| puzzle[c] == 0).collect();
            let Some(&cell) = empty.choose(rng) else {
                break;
            };
            for c in group_of(cell, cells, symmetric) {
                puzzle[c] = solution[c];
            }
            added = true;
        }
    }
    if added {
        remove_clues(rules, solution, puzzle, symmetric, within.as_ref(), rng)
    } else {
        Givens {
            puzzle,
            minimal: true,
            nodes: Some(unique_nodes),
        }
    }
}

#[cfg(test)]
mod tests;
