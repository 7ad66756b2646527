//! Sudoku generation: puzzles with exactly one solution, reproducible from a
//! seed, and a difficulty measure for any puzzle.
//!
//! ## How a puzzle is made
//! 1. **A full grid.** The options of the sudoku [`Model`] are shuffled and
//!    the exact-cover engine ([`CompactSolver`]) finds the first solution of
//!    the empty grid in that order; since the engine tries options in input
//!    order, the grid is random. A search that runs past a node budget
//!    (large sizes can thrash) is dropped and the options reshuffled. For
//!    9×9 the three diagonal boxes (no row or column in common) get random
//!    permutations instead and the triad engine completes them:
//!    9!³ starts, for a tenth of the cost.
//! 2. **Clue removal.** The cells (or, with `symmetric`, the pairs of cells
//!    that a 180° rotation swaps) are visited once in random order; each is
//!    emptied, and put back unless the puzzle still has exactly one solution
//!    (counting with a limit of 2: for 9×9 by the triad engine,
//!    [`TriadSolver`](crate::sudoku::TriadSolver), several times faster
//!    there, else by the compact engine). Fewer clues never
//!    mean fewer solutions, so one pass leaves a **minimal** puzzle: putting
//!    any clue back is needed (with `symmetric`, any *pair*). With a target
//!    number of clues the pass stops as soon as it is reached.
//! 3. **Attempts.** When the target clue count or rating is not met, the
//!    puzzle is made again from the next random stream, up to
//!    [`Request::max_attempts`]; then the closest puzzle is returned with
//!    [`Generated::target_met`] false.
//!
//! Puzzle `i` of seed `s`, attempt `a`, uses its own ChaCha8 stream keyed
//! by `(s, i, a)`, so it depends on nothing else: any
//! number of threads give the same puzzles, on every machine.
//!
//! ## Difficulty
//! A rating target ([`Request::rating`]: a [`RatingRange`] of Sudoku
//! Explainer's scale, or a named [`Difficulty`](crate::sudoku::human::Difficulty)'s)
//! is met by logic: [`human::rate_within`] solves each attempt as a person
//! would and stops at the first step above the range, so a puzzle too hard
//! costs no more than its easy part. The puzzle returned carries its
//! whole rating ([`Generated::logic`]).
//!
//! The search measure remains for any size and for `--json`:
//! [`Rating::nodes`] is the number of search nodes the classic linked engine
//! ([`dlx_core::Solver`], default branching: first item with the fewest
//! options) visits to solve the puzzle **and prove its solution unique**
//! (counting with a limit of 2). A puzzle solved by forced moves alone
//! costs one node per empty cell plus one; every guess adds more. The
//! [`Grade`] cuts the nodes per cell of the grid at 1.25, 4 and 12:
//!
//! | grade   | nodes (any size)  | nodes (9×9) |
//! |---------|-------------------|-------------|
//! | easy    | ≤ 1.25 × cells    | ≤ 101       |
//! | medium  | ≤ 4 × cells       | ≤ 324       |
//! | hard    | ≤ 12 × cells      | ≤ 972       |
//! | extreme | more              | > 972       |
//!
//! The cuts come from the public 9×9 sets (the easy cut just above
//! "forced moves only", the extreme cut just below the easiest of the
//! hardest set). Other sizes use the same nodes per cell, uncalibrated.
//!
//! A [`Rater`] grades existing puzzles the same way (for `cover sudoku`).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use dlx_core::{CompactSolver, Control, Limits, Problem, Solver as Linked, Stats};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use thiserror::Error;

use crate::sudoku::human::{
    self, Catalogue, GaveUp, RateLimits, Rating as HumanRating, RatingRange, Technique,
};
use crate::sudoku::logic::Geometry;
use crate::sudoku::{Engine, Layout, Model, NineSolver, Notation, Puzzle, Size, Solver, Symbols};

/// The sizes (box sides) the generator makes: 4×4, 9×9, 16×16. A minimal
/// 25×25 puzzle had not come out after four minutes (proving uniqueness
/// after each removal thrashes), far from a few seconds per puzzle.
pub const GENERATED_BOX_SIDES: std::ops::RangeInclusive<usize> = 2..=4;

/// A difficulty grade, from the search nodes (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Forced moves, or nearly: at most 1.25 nodes per cell.
    Easy,
    /// At most 4 nodes per cell.
    Medium,
    /// At most 12 nodes per cell.
    Hard,
    /// More than 12 nodes per cell (the forum's hardest puzzles).
    Extreme,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Extreme];

    /// The grade of a puzzle of `size` whose rating search took `nodes`.
    pub fn of(nodes: u64, size: Size) -> Grade {
        // Thresholds in quarters of a node per cell: 1.25, 4 and 12.
        let quarters = nodes.saturating_mul(4);
        let cells = size.cells() as u64;
        if quarters <= 5 * cells {
            Grade::Easy
        } else if quarters <= 16 * cells {
            Grade::Medium
        } else if quarters <= 48 * cells {
            Grade::Hard
        } else {
            Grade::Extreme
        }
    }

    /// The grade's name: `easy`, `medium`, `hard` or `extreme`.
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a grade.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown grade {0:?} (expected easy, medium, hard or extreme)")]
pub struct UnknownGrade(pub String);

impl FromStr for Grade {
    type Err = UnknownGrade;

    fn from_str(text: &str) -> Result<Grade, UnknownGrade> {
        Grade::ALL
            .into_iter()
            .find(|g| g.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownGrade(text.to_owned()))
    }
}

/// The difficulty of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating {
    /// Search nodes of the linked engine to find the solutions, stopping
    /// at the second.
    pub nodes: u64,
    /// Solutions found: 0, 1, or 2 meaning "two or more". The grade means
    /// something only when this is 1.
    pub solutions: u64,
    /// The grade of `nodes`.
    pub grade: Grade,
    /// The rating search's counters.
    pub stats: Stats,
}

impl Rating {
    fn from_stats(stats: Stats, size: Size) -> Rating {
        Rating {
            nodes: stats.nodes,
            solutions: stats.solutions,
            grade: Grade::of(stats.nodes, size),
            stats,
        }
    }
}

/// Rates puzzles of any size; one per thread (it keeps a linked engine
/// per size met).
#[derive(Debug)]
pub struct Rater {
    solver: Solver,
}

impl Default for Rater {
    fn default() -> Self {
        Rater::new()
    }
}

impl Rater {
    /// A rater with no engine built yet.
    pub fn new() -> Rater {
        Rater {
            solver: Solver::new(Engine::Linked),
        }
    }

    /// The difficulty of `puzzle`: the linked engine counts its solutions
    /// with a limit of 2 (for `cover sudoku --rate`).
    pub fn rate(&mut self, puzzle: &Puzzle) -> Rating {
        match self.rate_within(puzzle, None) {
            Ok(rating) => rating,
            Err(_) => unreachable!("a search without a bound ends"),
        }
    }

    /// [`Rater::rate`], giving up when the count needs more than
    /// `max_nodes` search nodes, or more time than [`Rater::time_limit`]
    /// allows: then the counters of the search made.
    pub fn rate_within(
        &mut self,
        puzzle: &Puzzle,
        max_nodes: Option<u64>,
    ) -> Result<Rating, Stats> {
        self.solver.max_nodes(max_nodes);
        let report = self.solver.count(puzzle, Some(2));
        if report.outcome.gave_up() {
            return Err(report.stats);
        }
        Ok(Rating::from_stats(report.stats, puzzle.size))
    }

    /// Gives up each rating once its count has run for `limit` (`None`,
    /// the default: never), as [`Rater::rate_within`] gives up at its
    /// node bound.
    pub fn time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.solver.time_limit(limit);
    }
}

/// The difficulty of one puzzle, with a fresh [`Rater`] (builds the model:
/// rate many puzzles with one `Rater` instead).
pub fn rate(puzzle: &Puzzle) -> Rating {
    Rater::new().rate(puzzle)
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The size.
    pub size: Size,
    /// Stop removing clues at this many (else: until minimal).
    pub clues: Option<usize>,
    /// Remove clues in pairs swapped by a 180° rotation.
    pub symmetric: bool,
    /// Make puzzles until one's rating on Sudoku Explainer's scale (by
    /// [`human::rate`]) is in this range.
    pub rating: Option<RatingRange>,
    /// Stop making attempts once this instant has passed (the closest
    /// puzzle made so far is returned, `target_met` false).
    pub deadline: Option<Instant>,
    /// Give up on a puzzle's targets after this many attempts (at least 1).
    pub max_attempts: u32,
    /// Rate every puzzle by search nodes and, up to 9×9, by logic (by logic
    /// always when `rating` is set). The node rating runs the linked
    /// engine, which costs more than making a 16×16 puzzle.
    pub rate: bool,
}

impl Request {
    /// Minimal, rated puzzles of `size`, no targets, 1000 attempts.
    pub fn new(size: Size) -> Request {
        Request {
            size,
            clues: None,
            symmetric: false,
            rating: None,
            deadline: None,
            max_attempts: 1000,
            rate: true,
        }
    }
}

/// One generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// Its size.
    pub size: Size,
    /// The cells, row by row: 0 empty, else the digit `1..=side`.
    pub cells: Vec<u8>,
    /// Its one solution.
    pub solution: Vec<u8>,
    /// The number of clues (given cells).
    pub clues: usize,
    /// No clue (with `symmetric`: no pair of clues) can be removed without
    /// losing uniqueness.
    pub minimal: bool,
    /// Its difficulty by search nodes, when it was rated ([`Request::rate`]).
    pub rating: Option<Rating>,
    /// Its rating by logic on Sudoku Explainer's scale, when it was rated
    /// or a rating range was asked for.
    pub logic: Option<LogicRating>,
    /// How many puzzles were made for this one (1 when the first fit).
    pub attempts: u32,
    /// Whether the requested clue count and grade were met.
    pub target_met: bool,
}

impl Generated {
    /// The puzzle as a [`Puzzle`] in line layout with the default symbols.
    pub fn puzzle(&self) -> Puzzle {
        line_puzzle(self.size, self.cells.clone())
    }

    /// The puzzle on one line, `.` for empty cells, default symbols.
    pub fn puzzle_line(&self) -> String {
        write_line(self.size, &self.cells)
    }

    /// The solution on one line, default symbols.
    pub fn solution_line(&self) -> String {
        write_line(self.size, &self.solution)
    }
}

/// The default symbols of a generated size.
fn symbols(size: Size) -> Symbols {
    Symbols::default_for(size).expect("every generated size has default symbols")
}

/// `cells` on one line: `.` for 0, else the default symbol.
fn write_line(size: Size, cells: &[u8]) -> String {
    let symbols = symbols(size);
    cells
        .iter()
        .map(|&d| if d == 0 { '.' } else { symbols.symbol(d) })
        .collect()
}

fn line_puzzle(size: Size, cells: Vec<u8>) -> Puzzle {
    Puzzle {
        size,
        cells,
        line: 1,
        layout: Layout::Line,
        notation: Notation::Compact(Arc::new(symbols(size))),
    }
}

/// A puzzle's rating by logic ([`human::rate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogicRating {
    /// Its hardest step on Sudoku Explainer's scale; when not `complete`,
    /// a lower bound (the step that went past the range asked for), or
    /// [`RatingRange::TOP`] when logic could not finish in time.
    pub rating: HumanRating,
    /// The technique of that step.
    pub hardest: Option<Technique>,
    /// Whether logic solved the puzzle to the end.
    pub complete: bool,
}

/// Why a [`Generator`] cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// Only 4×4, 9×9 and 16×16 are generated.
    #[error("cannot generate {0} sudoku (sizes: 4, 9, 16)")]
    UnsupportedSize(Size),
}

/// The random stream of attempt `attempt` at puzzle `index` of `seed`:
/// ChaCha8 keyed by the three numbers (little-endian), so that it depends
/// on nothing else.
pub(crate) fn puzzle_rng(seed: u64, index: u64, attempt: u32) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    key[16..20].copy_from_slice(&attempt.to_le_bytes());
    key[24..].copy_from_slice(b"cover-gn");
    ChaCha8Rng::from_seed(key)
}

/// Makes puzzles of one size; one per thread. Its engines start every
/// search afresh, so what it made before never changes what it makes.
#[derive(Debug)]
pub struct Generator {
    size: Size,
    model: Model,
    /// Counts solutions (limit 2) while clues are removed; built when
    /// first needed (never for 9×9 with the bit-parallel engine).
    checker: Option<CompactSolver>,
    /// Counts them instead for 9×9 (unless [`Generator::with_checker`]
    /// said otherwise).
    bits: Option<NineSolver>,
    /// Whether an emptied cell that its row, column and box still force
    /// (a naked or hidden single among the givens) is taken as keeping
    /// the puzzle unique without a search (not under the benchmark's
    /// baseline, [`Generator::with_checker`] with an exact-cover engine).
    singles_first: bool,
    units: Units,
    /// Rates puzzles: the classic engine, whose nodes are the measure;
    /// built when first needed.
    rater: Option<Linked>,
    /// The units human logic rates puzzles on; built when first needed.
    geometry: Option<Geometry>,
    /// Option numbers, shuffled for each full grid.
    order: Vec<usize>,
    givens: Vec<usize>,
}

impl Generator {
    /// A generator of `size` puzzles.
    pub fn new(size: Size) -> Result<Generator, GenerateError> {
        Generator::with_checker(size, Engine::Auto)
    }

    /// A generator of `size` puzzles whose full grids and uniqueness
    /// checks use `engine`: with [`Engine::Triad`] or [`Engine::Auto`] the
    /// triad engine for 9×9 (what [`Generator::new`] does), with
    /// [`Engine::Band`] the band engine, with [`Engine::Compact`] or
    /// [`Engine::Linked`] the compact exact-cover engine (the generator as
    /// it was before the bit-parallel engines, for benchmarks). The 9×9
    /// puzzles differ between the three, because the full grids are made
    /// differently (a first solution is each engine's own).
    pub fn with_checker(size: Size, engine: Engine) -> Result<Generator, GenerateError> {
        if !GENERATED_BOX_SIDES.contains(&size.box_side()) {
            return Err(GenerateError::UnsupportedSize(size));
        }
        let model = Model::new(size);
        let order = (0..model.problem().option_count()).collect();
        let bit_engine = matches!(engine, Engine::Auto | Engine::Triad | Engine::Band);
        // Never the machine's choice of `Auto`: the puzzles of a seed are
        // the same on every machine.
        let nine = if engine == Engine::Band {
            Engine::Band
        } else {
            Engine::Triad
        };
        let bits = (size.box_side() == 3 && bit_engine).then(|| NineSolver::for_engine(nine));
        Ok(Generator {
            size,
            model,
            checker: None,
            bits,
            singles_first: bit_engine,
            units: Units::new(size),
            rater: None,
            geometry: None,
            order,
            givens: Vec::new(),
        })
    }

    /// The size it makes.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Puzzle `index` of `seed` for `request` (whose size must be this
    /// generator's; it is ignored otherwise).
    pub fn generate(&mut self, request: &Request, seed: u64, index: u64) -> Generated {
        let mut best: Option<(u64, Generated)> = None;
        let mut made = 0;
        for attempt in 1..=request.max_attempts.max(1) {
            if attempt > 1 && request.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            made = attempt;
            let mut rng = puzzle_rng(seed, index, attempt - 1);
            let solution = self.full_grid_from(&mut rng);
            let (cells, minimal) = self.remove_clues(&mut rng, &solution, request);
            let clues = cells.iter().filter(|&&d| d != 0).count();
            // The search measure is taken once, of the puzzle returned.
            let rating = None;
            // Logic on a 16×16 grid can take seconds: only on request.
            let logic = (request.rating.is_some() || request.rate && self.size.side() <= 9)
                .then(|| self.logic_rating(&cells, request.rating, request.deadline));
            let clue_miss = request.clues.map_or(0, |t| clues.saturating_sub(t)) as u64;
            let rating_miss = match (request.rating, logic) {
                (Some(range), Some(logic)) => u64::from(range.distance(logic.rating)),
                _ => 0,
            };
            // Misses in rating weigh more than any number of clues.
            let miss = rating_miss << 32 | clue_miss;
            let generated = Generated {
                size: self.size,
                cells,
                solution,
                clues,
                minimal,
                rating,
                logic,
                attempts: attempt,
                target_met: miss == 0,
            };
            if miss == 0 {
                return self.with_search_rating(generated, request);
            }
            if best.as_ref().is_none_or(|(m, _)| miss < *m) {
                best = Some((miss, generated));
            }
        }
        let (_, mut best) = best.expect("at least one attempt is made");
        best.attempts = made;
        if best.logic.is_some_and(|l| !l.complete) {
            // Its rating stopped at the first step past the range: the
            // puzzle returned gets its whole rating, in the time left.
            best.logic = Some(self.logic_rating(&best.cells, None, request.deadline));
        }
        self.with_search_rating(best, request)
    }

    /// `generated` with its search measure when `request` asks to rate.
    fn with_search_rating(&mut self, mut generated: Generated, request: &Request) -> Generated {
        if request.rate {
            generated.rating = Some(self.rate_cells(&generated.cells));
        }
        generated
    }

    /// The rating of `cells` by logic; with `range`, given up (incomplete)
    /// at the first step above it, or at `deadline`.
    pub fn logic_rating(
        &mut self,
        cells: &[u8],
        range: Option<RatingRange>,
        deadline: Option<Instant>,
    ) -> LogicRating {
        let geometry = self
            .geometry
            .get_or_insert_with(|| Geometry::new(self.size));
        let limits = RateLimits {
            above: range.map(|r| r.hi),
            deadline,
        };
        match human::rate_within(geometry, cells, Catalogue::Rating, limits) {
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
        }
    }

    /// A random full grid, the same for the same `seed`: the first
    /// solution of the empty grid with the options in a random order.
    pub fn full_grid(&mut self, seed: u64) -> Vec<u8> {
        self.full_grid_from(&mut puzzle_rng(seed, 0, 0))
    }

    /// [`Generator::full_grid`] drawn from `rng`.
    pub(crate) fn full_grid_from(&mut self, rng: &mut ChaCha8Rng) -> Vec<u8> {
        if let Some(grid) = self
            .bits
            .as_mut()
            .and_then(|bits| bits_full_grid(bits, rng))
        {
            return grid;
        }
        let cells = self.size.cells();
        // The empty grid is solved with few backtracks in almost every
        // order; the budget drops the rare order that thrashes.
        let limits = Limits::none()
            .with_max_solutions(Some(1))
            .with_node_budget(Some(64 * cells as u64));
        loop {
            // From the identity every time, so that the grid depends on
            // `rng` alone, not on the grids made before.
            for (k, option) in self.order.iter_mut().enumerate() {
                *option = k;
            }
            self.order.shuffle(rng);
            let problem = self.shuffled_problem();
            let mut solver =
                CompactSolver::new(&problem).expect("sudoku items have at most 64 options");
            let mut found = None;
            let _ = solver.search(&[], &limits, &mut |options: &[usize]| {
                found = Some(options.to_vec());
                Control::Stop
            });
            if let Some(options) = found {
                let mut grid = vec![0; cells];
                for option in options {
                    let (cell, digit) = self.model.cell_and_digit(self.order[option]);
                    grid[cell] = digit;
                }
                return grid;
            }
        }
    }

    /// The model's problem with its options in `self.order`.
    fn shuffled_problem(&self) -> Problem {
        let original = self.model.problem();
        let mut builder = Problem::builder(original.item_count(), 0);
        for &option in &self.order {
            builder
                .add_option(original.option(option).iter().map(|&i| i as usize))
                .expect("the options of a valid problem");
        }
        builder.build()
    }

    /// Removes clues from `solution` in random order while the puzzle
    /// stays unique; returns the cells and whether every cell (or pair) was
    /// tried, which makes the puzzle minimal.
    fn remove_clues(
        &mut self,
        rng: &mut ChaCha8Rng,
        solution: &[u8],
        request: &Request,
    ) -> (Vec<u8>, bool) {
        let cells = solution.len();
        let mut puzzle = solution.to_vec();
        let mut groups: Vec<usize> = if request.symmetric {
            (0..cells).filter(|&c| c <= cells - 1 - c).collect()
        } else {
            (0..cells).collect()
        };
        groups.shuffle(rng);
        let mut holds = self.units.holds(&puzzle);
        let mut clues = cells;
        let mut tried_all = true;
        for cell in groups {
            let partner = cells - 1 - cell;
            let group: &[usize] = if request.symmetric && partner != cell {
                &[cell, partner]
            } else {
                &[cell]
            };
            if let Some(target) = request.clues {
                if clues <= target {
                    tried_all = false;
                    break;
                }
                if clues - group.len() < target {
                    tried_all = false;
                    continue;
                }
            }
            for &c in group {
                puzzle[c] = 0;
                self.units.set(&mut holds, c, solution[c], false);
            }
            if self.stays_unique(&mut puzzle, &mut holds, solution, group) {
                clues -= group.len();
            } else {
                for &c in group {
                    puzzle[c] = solution[c];
                    self.units.set(&mut holds, c, solution[c], true);
                }
            }
        }
        (puzzle, tried_all)
    }

    /// Whether `puzzle`, unique with `solution` before the cells of
    /// `emptied` were emptied, still is. Another solution must differ
    /// from `solution` in an emptied cell; with the bit-parallel engine
    /// that is one search per emptied cell for a solution where it holds
    /// another digit (the earlier ones put back), which never enters the
    /// known solution's subtree. Otherwise a count to two. `puzzle` is
    /// left as it came.
    ///
    /// An emptied cell that the givens alone force back to its digit (a
    /// naked or hidden single) needs no search: every solution then has
    /// that digit there. Most removals of a generation are such.
    fn stays_unique(
        &mut self,
        puzzle: &mut [u8],
        holds: &mut Holds,
        solution: &[u8],
        emptied: &[usize],
    ) -> bool {
        let units = &self.units;
        let forced = |puzzle: &[u8], holds: &Holds, cell: usize| {
            self.singles_first && units.forces(puzzle, holds, cell, solution[cell])
        };
        let Some(bits) = self.bits.as_mut() else {
            return emptied.iter().all(|&cell| forced(puzzle, holds, cell))
                || self.is_unique(puzzle);
        };
        let mut unique = true;
        for &cell in emptied {
            // The cells emptied before `cell` are back, the later ones
            // still empty.
            if !forced(puzzle, holds, cell) {
                let (_, stats) = bits.search_without(
                    puzzle,
                    cell,
                    solution[cell],
                    &Limits::solutions(1),
                    |_| Control::Stop,
                );
                if stats.solutions > 0 {
                    unique = false;
                    break;
                }
            }
            puzzle[cell] = solution[cell];
            units.set(holds, cell, solution[cell], true);
        }
        for &cell in emptied {
            if puzzle[cell] != 0 {
                puzzle[cell] = 0;
                units.set(holds, cell, solution[cell], false);
            }
        }
        unique
    }

    /// Whether `cells` (0 empty) has exactly one solution (counting to 2).
    pub fn is_unique(&mut self, cells: &[u8]) -> bool {
        self.solutions(cells, Some(2)) == 1
    }

    /// The number of solutions of `cells` (0 empty), stopping at `limit`.
    pub fn solutions(&mut self, cells: &[u8], limit: Option<u64>) -> u64 {
        if let Some(bits) = &mut self.bits {
            let limits = Limits::none().with_max_solutions(limit);
            return bits
                .search(cells, &limits, |_| Control::Continue)
                .1
                .solutions;
        }
        self.givens.clear();
        self.model.givens(cells, &mut self.givens);
        let limits = Limits::none().with_max_solutions(limit);
        let model = &self.model;
        self.checker
            .get_or_insert_with(|| {
                CompactSolver::new(model.problem()).expect("sudoku items have at most 64 options")
            })
            .count_with(&self.givens, &limits)
            .map_or(0, |report| report.stats.solutions)
    }

    /// The rating of `cells` by the linked engine (the same search as
    /// [`Rater::rate`]).
    pub fn rate_cells(&mut self, cells: &[u8]) -> Rating {
        self.givens.clear();
        self.model.givens(cells, &mut self.givens);
        let model = &self.model;
        let stats = self
            .rater
            .get_or_insert_with(|| Linked::new(model.problem()))
            .count_with(&self.givens, &Limits::solutions(2))
            .map(|report| report.stats)
            .unwrap_or_default();
        Rating::from_stats(stats, self.size)
    }
}

/// The singles check of [`Generator::stays_unique`], over a size's
/// [`Geometry`] (its unit tables).
#[derive(Debug)]
struct Units {
    geometry: Geometry,
}

impl Units {
    fn new(size: Size) -> Units {
        Units {
            geometry: Geometry::new(size),
        }
    }

    /// Per unit, the digits `puzzle` (0 empty) holds there, as bits: the
    /// state [`Units::forces`] reads, kept by [`Units::set`].
    fn holds(&self, puzzle: &[u8]) -> Holds {
        let mut holds = [0; 48];
        for (cell, &digit) in puzzle.iter().enumerate() {
            if digit != 0 {
                self.set(&mut holds, cell, digit, true);
            }
        }
        holds
    }

    /// Records that `cell` now holds `digit` (`true`) or no longer does.
    fn set(&self, holds: &mut Holds, cell: usize, digit: u8, present: bool) {
        for u in self.geometry.cell_units(cell) {
            let unit = &mut holds[u];
            if present {
                *unit |= 1 << (digit - 1);
            } else {
                *unit &= !(1 << (digit - 1));
            }
        }
    }

    /// Whether the givens of `puzzle` (0 empty; `holds` its digits per
    /// unit) force `digit` into the empty `cell`: its row, column and box
    /// hold every other digit (a naked single), or in one of them every
    /// other empty cell already sees `digit` in its own row, column or
    /// box (a hidden single).
    fn forces(&self, puzzle: &[u8], holds: &Holds, cell: usize, digit: u8) -> bool {
        let seen = |c: usize| {
            let [r, k, b] = self.geometry.cell_units(c);
            holds[r] | holds[k] | holds[b]
        };
        let bit = 1u32 << (digit - 1);
        let all = (1u32 << self.geometry.side()) - 1;
        if seen(cell) | bit == all {
            return true;
        }
        self.geometry.cell_units(cell).into_iter().any(|u| {
            self.geometry.unit_cells(u).iter().all(|&c| {
                let c = usize::from(c);
                c == cell || puzzle[c] != 0 || seen(c) & bit != 0
            })
        })
    }
}

/// Per unit (rows, columns, boxes of up to 16×16), its digits as bits.
type Holds = [u32; 48];

/// A random full 9×9 grid: the three boxes of the diagonal, which share
/// no row or column, filled with random permutations (any such filling
/// completes; `None` would say otherwise), then the first solution of the
/// bit-parallel engine. Much cheaper than building a shuffled exact-cover
/// problem per grid.
fn bits_full_grid(bits: &mut NineSolver, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
    let mut cells = [0u8; 81];
    for corner in [0, 30, 60] {
        let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(rng);
        for (k, digit) in digits.into_iter().enumerate() {
            cells[corner + k / 3 * 9 + k % 3] = digit;
        }
    }
    let mut grid = None;
    bits.search(&cells, &Limits::solutions(1), |solution| {
        grid = Some(solution.to_vec());
        Control::Stop
    });
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::human::Difficulty;

    /// Checks `grid` without the engine: every row, column and box holds
    /// each digit once, and it keeps the clues of `cells`.
    fn check_solution(size: Size, cells: &[u8], grid: &[u8]) {
        let (n, s) = (size.box_side(), size.side());
        assert_eq!(grid.len(), s * s);
        for (clue, digit) in cells.iter().zip(grid) {
            assert!(*clue == 0 || clue == digit, "a clue changed");
        }
        for k in 0..s {
            let (br, bc) = (k / n * n, k % n * n);
            for unit in [
                (0..s).map(|c| k * s + c).collect::<Vec<_>>(),
                (0..s).map(|r| r * s + k).collect(),
                (0..s).map(|j| (br + j / n) * s + bc + j % n).collect(),
            ] {
                let mut seen = vec![false; s + 1];
                for cell in unit {
                    let d = grid[cell] as usize;
                    assert!((1..=s).contains(&d) && !seen[d], "unit {k} repeats {d}");
                    seen[d] = true;
                }
            }
        }
    }

    /// The full grids of a seed are the same whichever vectors the triad
    /// engine runs (the puzzles of a seed are the same on every machine).
    #[test]
    fn full_grids_do_not_depend_on_the_vectors() {
        use crate::sudoku::{TriadSolver, Vectors};
        let mut flavours: Vec<NineSolver> = [Vectors::Portable, Vectors::Avx2, Vectors::Avx512]
            .into_iter()
            .filter(|v| v.available())
            .map(|v| NineSolver::Triad(TriadSolver::with_vectors(v)))
            .collect();
        for i in 0..300 {
            let grids: Vec<_> = flavours
                .iter_mut()
                .map(|bits| bits_full_grid(bits, &mut puzzle_rng(8, i, 0)))
                .collect();
            assert!(grids.iter().all(|g| g == &grids[0]), "grid {i}");
        }
    }

    /// Every random filling of the three diagonal boxes completes, to a
    /// valid grid that keeps it; the grids differ.
    #[test]
    fn diagonal_fillings_complete_to_distinct_grids() {
        let size = Size::new(3).unwrap();
        let mut bits = NineSolver::for_engine(Engine::Triad);
        let mut grids = std::collections::HashSet::new();
        for i in 0..3000 {
            let mut rng = puzzle_rng(7, i, 0);
            let grid = bits_full_grid(&mut bits, &mut rng).expect("it completes");
            let mut diagonal = grid.clone();
            for (cell, digit) in diagonal.iter_mut().enumerate() {
                let (r, c) = (cell / 9, cell % 9);
                if r / 3 != c / 3 {
                    *digit = 0;
                }
            }
            check_solution(size, &diagonal, &grid);
            grids.insert(grid);
        }
        assert_eq!(grids.len(), 3000);
    }

    /// Where `Units::forces` says a single forces a cell's digit, no
    /// solution has another digit there (each tried as a given, counted
    /// by the exact-cover engine); and it does say so, often but not
    /// always, on every size as clues are emptied at random.
    #[test]
    fn a_forced_cell_has_no_other_digit() {
        use rand::RngExt;
        for n in 2..=4 {
            let size = Size::new(n).unwrap();
            let units = Units::new(size);
            let mut checker = Generator::with_checker(size, Engine::Compact).unwrap();
            let (mut forced, mut free) = (0, 0);
            for i in 0..[0, 0, 40, 30, 6][n] {
                let mut rng = puzzle_rng(11, i, 0);
                let solution = checker.full_grid_from(&mut rng);
                let mut puzzle = solution.clone();
                let mut order: Vec<usize> = (0..puzzle.len()).collect();
                order.shuffle(&mut rng);
                let keep = rng.random_range(puzzle.len() / 3..puzzle.len());
                for &cell in &order[keep..] {
                    puzzle[cell] = 0;
                }
                let holds = units.holds(&puzzle);
                for &cell in order[keep..].iter().step_by([1, 1, 1, 2, 6][n]) {
                    let digit = solution[cell];
                    if units.forces(&puzzle, &holds, cell, digit) {
                        forced += 1;
                        for other in (1..=size.side() as u8).filter(|&d| d != digit) {
                            let mut tried = puzzle.clone();
                            tried[cell] = other;
                            assert_eq!(checker.solutions(&tried, Some(1)), 0, "{tried:?}");
                        }
                    } else {
                        free += 1;
                    }
                }
                // Kept up to date, the state equals one built afresh.
                let mut kept = holds;
                for &cell in &order[keep..] {
                    units.set(&mut kept, cell, solution[cell], true);
                }
                assert_eq!(kept, units.holds(&solution));
            }
            assert!(forced > 10 && free > 10, "{n}: {forced} forced, {free} not");
        }
    }

    #[test]
    fn generated_puzzles_are_unique_and_minimal() {
        for n in 2..=3 {
            let size = Size::new(n).unwrap();
            let mut generator = Generator::new(size).unwrap();
            let mut linked = Solver::new(Engine::Linked);
            for symmetric in [false, true] {
                let request = Request {
                    symmetric,
                    ..Request::new(size)
                };
                for index in 0..10 {
                    let g = generator.generate(&request, 7, index);
                    check_solution(size, &g.cells, &g.solution);
                    assert!(g.minimal && g.target_met && g.attempts == 1);
                    let count = linked.count(&g.puzzle(), Some(2)).stats.solutions;
                    assert_eq!(count, 1);
                    assert_eq!(g.rating.unwrap().solutions, 1);
                    // Removing any clue (pair) gives more solutions.
                    for c in (0..g.cells.len()).filter(|&c| g.cells[c] != 0) {
                        let mut fewer = g.cells.clone();
                        fewer[c] = 0;
                        if symmetric {
                            fewer[g.cells.len() - 1 - c] = 0;
                        }
                        assert!(!generator.is_unique(&fewer), "clue {c} is not needed");
                    }
                    if symmetric {
                        for c in 0..g.cells.len() {
                            let partner = g.cells.len() - 1 - c;
                            assert_eq!(g.cells[c] == 0, g.cells[partner] == 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_same_seed_and_index_give_the_same_puzzle() {
        let size = Size::new(3).unwrap();
        let request = Request::new(size);
        let mut a = Generator::new(size).unwrap();
        let mut b = Generator::new(size).unwrap();
        let first = a.generate(&request, 42, 3);
        // Another puzzle in between changes nothing.
        a.generate(&request, 42, 4);
        assert_eq!(a.generate(&request, 42, 3), first);
        assert_eq!(b.generate(&request, 42, 3), first);
        assert_ne!(b.generate(&request, 43, 3).cells, first.cells);
    }

    #[test]
    fn a_clue_target_stops_removal() {
        let size = Size::new(3).unwrap();
        let mut generator = Generator::new(size).unwrap();
        let request = Request {
            clues: Some(40),
            ..Request::new(size)
        };
        let g = generator.generate(&request, 1, 0);
        assert_eq!((g.clues, g.target_met, g.minimal), (40, true, false));
        assert!(generator.is_unique(&g.cells));
        // Too few clues: it gives up after the attempts, closest first.
        let request = Request {
            clues: Some(10),
            max_attempts: 3,
            ..Request::new(size)
        };
        let g = generator.generate(&request, 1, 0);
        assert!(!g.target_met && g.clues > 10 && g.attempts == 3);
        assert!(generator.is_unique(&g.cells));
    }

    #[test]
    fn a_rating_target_is_met() {
        let size = Size::new(3).unwrap();
        let mut generator = Generator::new(size).unwrap();
        let geometry = Geometry::new(size);
        for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            let range = difficulty.range();
            let request = Request {
                rating: Some(range),
                ..Request::new(size)
            };
            let g = generator.generate(&request, 5, 0);
            assert!(g.target_met, "{difficulty}: {:?}", g.logic);
            let logic = g.logic.unwrap();
            assert!(
                logic.complete && range.contains(logic.rating),
                "{difficulty}: {logic:?}"
            );
            // The rating printed is the puzzle's whole rating, not where a
            // capped rating stopped.
            let whole = human::rate(&geometry, &g.cells, Catalogue::Rating);
            assert_eq!((whole.rating, whole.solved), (logic.rating, true));
        }
    }

    #[test]
    fn sixteen_by_sixteen_is_unique() {
        let size = Size::new(4).unwrap();
        let mut generator = Generator::new(size).unwrap();
        let g = generator.generate(&Request::new(size), 0, 0);
        check_solution(size, &g.cells, &g.solution);
        assert!(g.minimal && g.rating.unwrap().solutions == 1);
        assert_eq!(g.puzzle_line().len(), 256);
        assert!(g.solution_line().chars().all(|c| ('A'..='P').contains(&c)));
    }

    #[test]
    fn grades_and_rater() {
        let nine = Size::new(3).unwrap();
        assert_eq!(Grade::of(65, nine), Grade::Easy);
        assert_eq!(Grade::of(101, nine), Grade::Easy);
        assert_eq!(Grade::of(102, nine), Grade::Medium);
        assert_eq!(Grade::of(324, nine), Grade::Medium);
        assert_eq!(Grade::of(972, nine), Grade::Hard);
        assert_eq!(Grade::of(973, nine), Grade::Extreme);
        assert_eq!(Grade::of(u64::MAX, nine), Grade::Extreme);
        assert_eq!("Hard".parse::<Grade>(), Ok(Grade::Hard));
        assert!("harder".parse::<Grade>().is_err());
        // The hardest of Norvig's: a puzzle the rater finds hard or worse.
        let hard =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let puzzle = crate::sudoku::Puzzles::new(hard.as_bytes(), None)
            .next()
            .unwrap()
            .unwrap();
        let rating = rate(&puzzle);
        assert_eq!(rating.solutions, 1);
        assert!(rating.nodes > 65);
        // The rater and a generator's own rating agree.
        let mut generator = Generator::new(nine).unwrap();
        assert_eq!(generator.rate_cells(&puzzle.cells), rating);
    }

    #[test]
    fn unsupported_sizes_are_refused() {
        assert!(Generator::new(Size::new(5).unwrap()).is_err());
    }
}
