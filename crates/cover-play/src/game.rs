//! The game's puzzle work, without HTTP: each API call is one function
//! from a request to a reply or a [`GameError`]. Every search here is
//! bounded by a [`Budget`] (nodes, and a cancel flag the caller may
//! raise); the caller decides threads and transport.
//!
//! Grids are digits row by row, 0 for empty, `1..=side` otherwise; a
//! request's grid must be one of the [`PLAYABLE`] sizes.

use std::cell::RefCell;
use std::io::Cursor;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cover_models::generate::{Generator, Grade, Request};
use cover_models::sudoku::fpuzzles::{self, FPuzzlesError};
use cover_models::sudoku::human::{
    self, Catalogue, Difficulty, HintLevel, RateLimits, Rating, UnknownDifficulty,
};
use cover_models::sudoku::logic::Geometry;
use cover_models::sudoku::variant::{Rules, VariantSolver};
use cover_models::sudoku::variant_generate::{self, VariantKind, VariantRequest};
use cover_models::sudoku::variant_line;
use cover_models::sudoku::{
    Engine, InputError, Level, Notation, ParseError, ParseErrorKind, Puzzle, Puzzles, Size, Solver,
    Symbols,
};
use dlx_core::{Control, Limits, Outcome};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::variant::{self, Variant};

/// The sides a request's grid may have: the generator's sizes, and 25×25
/// for imported puzzles. Larger grids are refused: a page cannot show
/// them usefully, and one hint on 36×36 costs seconds.
pub const PLAYABLE: [usize; 4] = [4, 9, 16, 25];

/// The search nodes one request may spend finding or proving a solution,
/// by default; past it the request fails with [`GameError::TooHard`]. 9×9
/// puzzles take under a thousand, propagated 16×16 a few hundred; on the
/// hardest 25×25 puzzles (full propagation, each node dear) spending it
/// takes a thread a few seconds.
pub const SEARCH_NODES: u64 = 300_000;

/// What bounds one request's searches.
#[derive(Debug, Clone, Default)]
pub struct Budget {
    /// The search nodes it may spend.
    pub nodes: u64,
    /// Raised by the caller when the answer is no longer wanted (the
    /// client went away): the search stops within one level.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl From<u64> for Budget {
    fn from(nodes: u64) -> Budget {
        Budget {
            nodes,
            cancel: None,
        }
    }
}

/// Why a request cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The request is malformed (a grid of the wrong length, a digit out
    /// of range, an unknown size): HTTP 400.
    #[error("{0}")]
    BadRequest(String),
    /// Well formed, but the puzzle cannot be played (it does not parse,
    /// or has no solution or several): HTTP 422.
    #[error("{0}")]
    Unplayable(String),
    /// No technique finds a step on this grid (a gap in the techniques,
    /// never a guess from the solution): HTTP 422.
    #[error("no technique I know finds the next step here")]
    NoLogicalStep,
    /// Logic took longer than this to find a step: HTTP 503.
    #[error("no logical step found within {0:?}")]
    TooSlow(Duration),
    /// The search ran out of its node budget (the budget): HTTP 503.
    #[error("the puzzle is too hard to answer within {0} search nodes")]
    TooHard(u64),
    /// The caller raised the budget's cancel flag: HTTP 503 (nobody
    /// normally reads it: the flag is raised when the client is gone).
    #[error("the request was cancelled")]
    Cancelled,
}

/// A new game's request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// The side: 4, 9 or 16.
    pub size: usize,
    /// `easy`, `medium`, `hard`, `expert` or `extreme`: a range of Sudoku
    /// Explainer ratings ([`Difficulty`]).
    pub difficulty: String,
    /// The generator's seed (random when absent): the same seed, size and
    /// difficulty give the same puzzle.
    #[serde(default)]
    pub seed: Option<u64>,
    /// A variant to make (`jigsaw`, `x`, `windoku`, `killer`,
    /// `anti-knight`, `anti-king`, `non-consecutive`, `thermo`; see
    /// [`variant_sides`] for the sizes of each); absent: classic.
    #[serde(default)]
    pub variant: Option<String>,
}

impl NewRequest {
    /// The cells of the grid asked for (no check).
    pub fn cells(&self) -> usize {
        self.size.saturating_mul(self.size)
    }

    /// The variant, side and level asked for, checked: a kind the
    /// generator makes, on a side the game offers for it
    /// ([`variant_sides`]), at a level it offers. None for a classic
    /// game.
    pub fn variant_kind(&self) -> Result<Option<(VariantKind, usize, Difficulty)>, GameError> {
        let Some(name) = &self.variant else {
            return Ok(None);
        };
        let kind: VariantKind = name
            .parse()
            .map_err(|e: variant_generate::UnknownVariant| GameError::BadRequest(e.to_string()))?;
        let sides = variant_sides(kind);
        if sides.is_empty() {
            return Err(GameError::BadRequest(format!(
                "new {name} games are not made here (their puzzles take too long to check)"
            )));
        }
        if !sides.contains(&self.size) {
            return Err(GameError::BadRequest(format!(
                "cannot make a {0}×{0} {name} game (sizes: {1})",
                self.size,
                sides
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let difficulty: Difficulty = self
            .difficulty
            .parse()
            .map_err(|e: UnknownDifficulty| GameError::BadRequest(e.to_string()))?;
        Ok(Some((kind, self.size, difficulty)))
    }

    /// The size and difficulty asked for, checked: a size the generator
    /// makes (4, 9 or 16) and a known difficulty.
    pub fn kind(&self) -> Result<(Size, Difficulty), GameError> {
        let size = Size::from_side(self.size)
            .filter(|s| s.side() <= 16 && s.side() >= 4)
            .ok_or_else(|| {
                GameError::BadRequest(format!(
                    "cannot make a {0}×{0} game (sizes: 4, 9, 16)",
                    self.size
                ))
            })?;
        let difficulty: Difficulty = self
            .difficulty
            .parse()
            .map_err(|e: UnknownDifficulty| GameError::BadRequest(e.to_string()))?;
        Ok((size, difficulty))
    }
}

/// A puzzle to play: what `new` and `import` answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Game {
    /// The side of the grid.
    pub size: usize,
    /// The side of a box.
    #[serde(rename = "box")]
    pub box_side: usize,
    /// The symbol of each digit, in order (digit `d` is `symbols[d-1]`).
    pub symbols: String,
    /// The givens, 0 for empty.
    pub puzzle: Vec<u8>,
    /// The difficulty its rating falls in (`easy` … `extreme`); for a new
    /// game not rated in time, the one asked for; empty for an imported
    /// variant (logic does not rate variants here).
    pub grade: String,
    /// Its rating on Sudoku Explainer's scale, when logic rated it in time.
    pub rating: Option<f64>,
    /// Whether the difficulty asked for was met: logic rated the puzzle
    /// in time, in its range (always true for imports).
    pub target_met: bool,
    /// The seed that made it (`new` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The number of givens.
    pub clues: usize,
    /// The variant's rules; absent for a classic game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    /// The puzzle as text to share and import again, when the page
    /// cannot write it as a line of digits itself (a variant: the
    /// compressed string of an f-puzzles link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A grid in play: the givens and the player's grid (givens included).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The givens.
    pub puzzle: Vec<u8>,
    /// The current grid.
    pub cells: Vec<u8>,
    /// The symbols the page shows, for the hint's words (the size's
    /// default symbols when absent).
    #[serde(default)]
    pub symbols: Option<String>,
    /// The game's variant, as the game's JSON gave it (absent: classic).
    #[serde(default)]
    pub variant: Option<Variant>,
}

/// A puzzle alone.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The givens.
    pub puzzle: Vec<u8>,
    /// The game's variant, as the game's JSON gave it (absent: classic).
    #[serde(default)]
    pub variant: Option<Variant>,
}

/// Text to import.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// One puzzle in any layout `cover sudoku` reads.
    pub text: String,
}

/// What `check` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Filled cells, not givens, whose digit is not the solution's.
    pub wrong: Vec<usize>,
    /// Cells whose digit is repeated in their row, column or box.
    pub conflicts: Vec<usize>,
    /// Every cell filled.
    pub complete: bool,
    /// The grid is the solution.
    pub solved: bool,
}

/// What `hint` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Hint {
    /// The next logical step, in words at three levels and as data to
    /// highlight.
    Step(Box<StepHint>),
    /// A filled cell that is not the solution's.
    Wrong {
        /// The cell.
        cell: usize,
        /// What to do, in words.
        text: String,
    },
    /// On a variant where the hints find no single: one cell's digit,
    /// from the solution (the text says so).
    Reveal {
        /// The cell.
        cell: usize,
        /// Its digit in the solution.
        digit: u8,
        /// In words.
        text: String,
    },
    /// Nothing left to do.
    Solved {
        /// In words.
        text: String,
    },
}

/// One candidate of a hint: `digit` in `cell`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HintCandidate {
    /// The cell, row-major.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
}

/// The next step of a logical solution, as a hint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepHint {
    /// The technique's name: "X-Wing".
    pub technique: String,
    /// Its value on Sudoku Explainer's scale.
    pub rating: f64,
    /// Where to look, giving nothing else away.
    pub nudge: String,
    /// The technique and its pattern, not what it proves.
    pub pattern: String,
    /// The whole step.
    pub text: String,
    /// The pattern's cells, to highlight.
    pub cells: Vec<usize>,
    /// The pattern's units (rows `0..s`, columns `s..2s`, boxes `2s..3s`;
    /// on a variant, logic's numbering of its units).
    pub units: Vec<usize>,
    /// The cells of the pattern's first unit (none without units): what
    /// the first level of the hint highlights.
    pub unit_cells: Vec<usize>,
    /// The digits it is about.
    pub digits: Vec<u8>,
    /// Digits it places.
    pub placements: Vec<HintCandidate>,
    /// Candidates it removes.
    pub eliminations: Vec<HintCandidate>,
    /// The first cell it places a digit in, if any.
    pub cell: Option<usize>,
    /// When it places nothing: the first digit the steps after it place
    /// (the server sees digits, not pencil marks, so this is what moves
    /// the game on).
    pub then: Option<ThenPlace>,
}

/// The first placement further along a logical solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThenPlace {
    /// The cell.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// The step that places it, in words.
    pub text: String,
    /// Steps between the hint's and that one.
    pub steps_between: usize,
}

/// What `solve` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Solution {
    /// The solution grid.
    pub solution: Vec<u8>,
}

thread_local! {
    /// One solver per thread: it keeps a model and engine per size (the
    /// bit-parallel engine for 9×9, exact cover with propagation beyond).
    static SOLVER: RefCell<Solver> = RefCell::new({
        let mut solver = Solver::new(Engine::Auto);
        solver.propagate(Level::Auto);
        solver
    });
    /// One generator per thread and generated size (by box side).
    static GENERATORS: RefCell<Vec<Option<Generator>>> = const { RefCell::new(Vec::new()) };
}

/// How the game asks the generator for a level: a clue count to stop at
/// (none: minimal) and how many puzzles to try before giving the closest
/// (the time, [`NEW_GAME_TIME`] or less, bounds them too). Minimal 16×16
/// puzzles are nearly all extreme, and dear to rate, and 140 clues are
/// all easy: the levels between come from 112 to 115 clues, a level in 2
/// to 20 tries, 0.1 to 0.5 s (`docs/measurements.md`, "play: levels").
/// 4×4 puzzles never need more than singles, so a few tries show it.
fn recipe(side: usize, difficulty: Difficulty) -> (Option<usize>, u32) {
    match (side, difficulty) {
        (16, Difficulty::Easy) => (Some(140), 4),
        (16, Difficulty::Medium) => (Some(115), 1000),
        (16, _) => (Some(112), 1000),
        (4, _) => (None, 8),
        _ => (None, 5000),
    }
}

/// The levels a new game of each size can meet, as measured with the
/// generator and the rater (`docs/measurements.md`, "play: levels"): no
/// 4×4 puzzle of 20,000 needed more than a hidden single (SE 1.2); 9×9
/// and 16×16 meet every level. A new game of another level is still
/// made, the closest, with `target_met` false.
pub const LEVELS: [(usize, &[Difficulty]); 3] = [
    (4, &[Difficulty::Easy]),
    (9, &Difficulty::ALL),
    (16, &Difficulty::ALL),
];

/// What `levels` answers: per size a new game can have, the levels it
/// can meet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Levels {
    /// Sizes, smallest first.
    pub sizes: Vec<SizeLevels>,
    /// The variants, in the generator's order.
    pub variants: Vec<VariantLevels>,
}

/// The levels of one size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SizeLevels {
    /// The side.
    pub size: usize,
    /// Its levels, easiest first (`easy` … `extreme`).
    pub levels: Vec<String>,
}

/// The levels of one variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VariantLevels {
    /// Its name in a new game's request: `jigsaw`, `x`, …
    pub variant: String,
    /// Its sizes and their levels.
    pub sizes: Vec<SizeLevels>,
}

/// The sides a new variant game is made on: the generator's sides of
/// that kind that the page offers (4×4, 6×6, 9×9). None for
/// non-consecutive: its generated 9×9 puzzles take the solver past
/// [`SEARCH_NODES`] to prove unique, so checks, hints and Solve would
/// fail on them (imported ones are played when they fit the budget).
pub fn variant_sides(kind: VariantKind) -> Vec<usize> {
    if kind == VariantKind::NonConsecutive {
        return Vec::new();
    }
    kind.sides()
        .iter()
        .copied()
        .filter(|side| [4, 6, 9].contains(side))
        .collect()
}

/// The levels of a new variant game: for the kinds logic reads
/// ([`VariantKind::rated_by_logic`]), the classic levels (ranges of
/// ratings by logic); for any other (none so far), the generator's
/// search-effort grades ([`SearchEffort`](variant_generate::SearchEffort)),
/// named as the classic levels but for expert. 4×4 grids are all easy.
fn variant_levels(kind: VariantKind, side: usize) -> Vec<String> {
    let levels: &[Difficulty] = if side == 4 {
        &[Difficulty::Easy]
    } else if kind.rated_by_logic() {
        &Difficulty::ALL
    } else {
        &[
            Difficulty::Easy,
            Difficulty::Medium,
            Difficulty::Hard,
            Difficulty::Extreme,
        ]
    };
    levels.iter().map(ToString::to_string).collect()
}

/// The search-effort grade a variant game of `difficulty` is made at.
fn search_grade(difficulty: Difficulty) -> Grade {
    match difficulty {
        Difficulty::Easy => Grade::Easy,
        Difficulty::Medium => Grade::Medium,
        Difficulty::Hard => Grade::Hard,
        _ => Grade::Extreme,
    }
}

/// The [`LEVELS`] a new game of each size can meet, and the variants a
/// new game can be, with their sizes and levels.
pub fn levels() -> Levels {
    Levels {
        sizes: LEVELS
            .iter()
            .map(|&(size, levels)| SizeLevels {
                size,
                levels: levels.iter().map(ToString::to_string).collect(),
            })
            .collect(),
        variants: VariantKind::ALL
            .into_iter()
            .filter(|&kind| !variant_sides(kind).is_empty())
            .map(|kind| VariantLevels {
                variant: kind.name().into(),
                sizes: variant_sides(kind)
                    .into_iter()
                    .map(|size| SizeLevels {
                        size,
                        levels: variant_levels(kind, size),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// How long one new game may take to meet its level before the closest
/// puzzle made is taken (extreme 9×9 puzzles are about one random
/// minimal puzzle in a few dozen), when its request gives a seed or the
/// game is made ahead. A request without a seed that finds no game made
/// ahead takes `Config::game_wait`.
pub const NEW_GAME_TIME: Duration = Duration::from_secs(3);

/// How long rating an imported puzzle by logic, or finding a hint's step,
/// may take.
pub const RATE_TIME: Duration = Duration::from_secs(2);

/// A new puzzle of `request.size` and level, unique, made within
/// [`NEW_GAME_TIME`] (then the closest made, `target_met` false), from
/// `request.seed` or else `fallback_seed`. A seed makes the same game
/// whenever the level is met in time (puzzles are tried in the seed's
/// order, and the first that meets it is the game).
pub fn new_game(request: &NewRequest, fallback_seed: u64) -> Result<Game, GameError> {
    new_game_within(request, fallback_seed, NEW_GAME_TIME)
}

/// [`new_game`] within `time`: the closest puzzle made by then (after
/// the puzzle in progress, which cannot be stopped: for the sizes made,
/// milliseconds, or the rating's `time`).
pub fn new_game_within(
    request: &NewRequest,
    fallback_seed: u64,
    time: Duration,
) -> Result<Game, GameError> {
    if let Some((kind, side, difficulty)) = request.variant_kind()? {
        let seed = request.seed.unwrap_or(fallback_seed);
        return Ok(new_variant_game(kind, side, difficulty, seed, time));
    }
    let (size, difficulty) = request.kind()?;
    let seed = request.seed.unwrap_or(fallback_seed);
    let (clues, max_attempts) = recipe(size.side(), difficulty);
    let generated = GENERATORS.with_borrow_mut(|generators| {
        let slot = size.box_side();
        if generators.len() <= slot {
            generators.resize_with(slot + 1, || None);
        }
        let generator = generators[slot]
            .get_or_insert_with(|| Generator::new(size).expect("4, 9 and 16 are generated sizes"));
        let request = Request {
            clues,
            rating: Some(difficulty.range()),
            deadline: Some(Instant::now() + time),
            max_attempts,
            rate: false,
            ..Request::new(size)
        };
        generator.generate(&request, seed, 0)
    });
    let symbols = Symbols::default_for(size).expect("generated sizes have default symbols");
    let rated = generated.logic.filter(|l| l.complete);
    Ok(Game {
        size: size.side(),
        box_side: size.box_side(),
        symbols: symbols.as_string(),
        grade: rated
            .map_or(difficulty, |l| Difficulty::of(l.rating))
            .to_string(),
        rating: rated.map(|l| l.rating.value()),
        // The generator counts a rating cut short by the time as the top
        // of the scale, so as extreme: a level met is a rating made.
        target_met: generated.target_met && rated.is_some(),
        seed: Some(seed),
        clues: generated.clues,
        puzzle: generated.cells,
        variant: None,
        text: None,
    })
}

/// A new variant game: the generator's puzzle 0 of `seed`, made until
/// it meets `difficulty` or `time` has passed (then the closest made,
/// `target_met` false). Kinds logic reads are rated by logic, as classic
/// games are (a rating logic could not finish in time counts as
/// extreme); the others are graded by search effort, and have no rating.
fn new_variant_game(
    kind: VariantKind,
    side: usize,
    difficulty: Difficulty,
    seed: u64,
    time: Duration,
) -> Game {
    let by_logic = kind.rated_by_logic();
    let request = VariantRequest {
        side,
        rating: by_logic.then(|| difficulty.range()),
        grade: (!by_logic).then(|| search_grade(difficulty)),
        deadline: Some(Instant::now() + time),
        ..VariantRequest::new(kind)
    };
    let made = variant_generate::generate(&request, seed, 0)
        .expect("the game asks only for sides the kind is made on");
    let rated = made.logic.filter(|l| l.complete);
    let mut game = variant_game(&made.rules, made.puzzle);
    game.grade = match (by_logic, rated) {
        (true, Some(logic)) => Difficulty::of(logic.rating).to_string(),
        (true, None) => Difficulty::Extreme.to_string(),
        (false, _) => made.effort.grade.to_string(),
    };
    game.rating = rated.map(|l| l.rating.value());
    game.target_met = made.target_met && (rated.is_some() || !by_logic);
    game.seed = Some(seed);
    game
}

/// The size of a request's grid, checked: a playable side and digits in
/// range.
fn grid_size(grid: &[u8], what: &str) -> Result<Size, GameError> {
    let size = Size::from_cells(grid.len())
        .filter(|size| PLAYABLE.contains(&size.side()))
        .ok_or_else(|| {
            GameError::BadRequest(format!(
                "{what} has {} cells; a game grid has 16, 81, 256 or 625",
                grid.len()
            ))
        })?;
    let side = size.side();
    if let Some(cell) = grid.iter().position(|&d| d as usize > side) {
        return Err(GameError::BadRequest(format!(
            "{what}: cell {cell} holds {}, more than {side}",
            grid[cell]
        )));
    }
    Ok(size)
}

fn line_puzzle(size: Size, cells: &[u8]) -> Result<Puzzle, GameError> {
    Puzzle::from_cells(size, cells.to_vec())
        .ok_or_else(|| GameError::BadRequest(format!("the cells do not make a {size} sudoku")))
}

/// The cells whose digit appears again in their row, column or box.
fn conflicts(geometry: &Geometry, cells: &[u8]) -> Vec<usize> {
    let mut clash = vec![false; cells.len()];
    for unit in 0..geometry.units() {
        let members = geometry.unit_cells(unit);
        for (i, &a) in members.iter().enumerate() {
            let a = a as usize;
            if cells[a] == 0 {
                continue;
            }
            for &b in &members[i + 1..] {
                let b = b as usize;
                if cells[a] == cells[b] {
                    clash[a] = true;
                    clash[b] = true;
                }
            }
        }
    }
    (0..cells.len()).filter(|&c| clash[c]).collect()
}

/// The one solution of `givens`, or why there is none to play.
fn unique_solution(size: Size, givens: &[u8], budget: &Budget) -> Result<Vec<u8>, GameError> {
    let geometry = Geometry::new(size);
    if !conflicts(&geometry, givens).is_empty() {
        return Err(GameError::Unplayable(
            "the givens repeat a digit in a row, column or box".into(),
        ));
    }
    let puzzle = line_puzzle(size, givens)?;
    let mut first = None;
    let mut found = 0u64;
    let limits = Limits::solutions(2).with_cancel(budget.cancel.clone());
    let report = SOLVER.with_borrow_mut(|solver| {
        solver.max_nodes(Some(budget.nodes));
        solver.solve(&puzzle, &limits, |grid| {
            found += 1;
            if first.is_none() {
                first = Some(grid.to_vec());
            }
            Control::Continue
        })
    });
    match (report.outcome, found, first) {
        (_, 2.., _) => Err(GameError::Unplayable(
            "the puzzle has more than one solution".into(),
        )),
        (Outcome::NodeBudget, _, _) => Err(GameError::TooHard(budget.nodes)),
        (Outcome::Cancelled, _, _) => Err(GameError::Cancelled),
        (_, 1, Some(solution)) => Ok(solution),
        _ => Err(GameError::Unplayable("the puzzle has no solution".into())),
    }
}

/// The rules a request's grids are played by: a classic size's, or a
/// variant's.
enum Play {
    Classic(Size),
    Variant(Rules),
}

impl Play {
    /// The rules of `grid` (`what` names it in errors) under `variant`.
    fn of(grid: &[u8], variant: Option<&Variant>, what: &str) -> Result<Play, GameError> {
        let Some(variant) = variant else {
            return grid_size(grid, what).map(Play::Classic);
        };
        let side = (1..=variant::MAX_SIDE)
            .find(|s| s * s == grid.len())
            .ok_or_else(|| {
                GameError::BadRequest(format!(
                    "{what} has {} cells; a variant grid is 4×4 to 16×16",
                    grid.len()
                ))
            })?;
        if let Some(cell) = grid.iter().position(|&d| d as usize > side) {
            return Err(GameError::BadRequest(format!(
                "{what}: cell {cell} holds {}, more than {side}",
                grid[cell]
            )));
        }
        variant.rules(side).map(Play::Variant)
    }

    /// The one solution of `givens` under these rules.
    fn solution(&self, givens: &[u8], budget: &Budget) -> Result<Vec<u8>, GameError> {
        match self {
            Play::Classic(size) => unique_solution(*size, givens, budget),
            Play::Variant(rules) => unique_variant_solution(rules, givens, budget),
        }
    }

    /// The cells whose digit breaks a rule with another's.
    fn conflicts(&self, cells: &[u8]) -> Vec<usize> {
        match self {
            Play::Classic(size) => conflicts(&Geometry::new(*size), cells),
            Play::Variant(rules) => variant::conflicts(rules, cells),
        }
    }
}

/// The one solution of `givens` under a variant's `rules`, or why there
/// is none to play.
fn unique_variant_solution(
    rules: &Rules,
    givens: &[u8],
    budget: &Budget,
) -> Result<Vec<u8>, GameError> {
    if !variant::conflicts(rules, givens).is_empty() {
        return Err(GameError::Unplayable(
            "the givens break a rule of the puzzle (a digit repeated in a region or cage, \
             or two cells a rule keeps apart)"
                .into(),
        ));
    }
    let mut solver =
        VariantSolver::new(rules, givens).map_err(|e| GameError::BadRequest(e.to_string()))?;
    let limits = Limits::solutions(2)
        .with_node_budget(Some(budget.nodes))
        .with_cancel(budget.cancel.clone());
    let mut first = None;
    let mut found = 0u64;
    let report = solver.search(&limits, |grid| {
        found += 1;
        if first.is_none() {
            first = Some(grid.to_vec());
        }
        Control::Continue
    });
    match (report.outcome, found, first) {
        (_, 2.., _) => Err(GameError::Unplayable(
            "the puzzle has more than one solution".into(),
        )),
        (Outcome::NodeBudget, _, _) => Err(GameError::TooHard(budget.nodes)),
        (Outcome::Cancelled, _, _) => Err(GameError::Cancelled),
        (_, 1, Some(solution)) => Ok(solution),
        _ => Err(GameError::Unplayable("the puzzle has no solution".into())),
    }
}

/// Checks the request's two grids against each other: same size, the
/// givens kept; answers the rules they are played by.
fn play_rules(request: &PlayRequest) -> Result<Play, GameError> {
    let play = Play::of(&request.puzzle, request.variant.as_ref(), "puzzle")?;
    if request.cells.len() != request.puzzle.len() {
        return Err(GameError::BadRequest(format!(
            "puzzle has {} cells but cells has {}",
            request.puzzle.len(),
            request.cells.len()
        )));
    }
    Play::of(&request.cells, request.variant.as_ref(), "cells")?;
    if let Some(cell) = (0..request.puzzle.len())
        .find(|&c| request.puzzle[c] != 0 && request.cells[c] != request.puzzle[c])
    {
        return Err(GameError::BadRequest(format!(
            "cell {cell} is a given ({}) but cells holds {}",
            request.puzzle[cell], request.cells[cell]
        )));
    }
    Ok(play)
}

/// The player's grid against the solution.
pub fn check(request: &PlayRequest, budget: impl Into<Budget>) -> Result<Check, GameError> {
    let play = play_rules(request)?;
    let solution = play.solution(&request.puzzle, &budget.into())?;
    let wrong = (0..request.cells.len())
        .filter(|&c| request.puzzle[c] == 0 && request.cells[c] != 0)
        .filter(|&c| request.cells[c] != solution[c])
        .collect();
    Ok(Check {
        wrong,
        conflicts: play.conflicts(&request.cells),
        complete: request.cells.iter().all(|&d| d != 0),
        solved: request.cells == solution,
    })
}

/// The next step for the player (`budget`: nodes, or a [`Budget`], as
/// for every function here): a wrong entry first, then the next step of a
/// logical solution from the digits on the grid (the simplest technique
/// that applies, those that teach included), never a digit taken from
/// the solution.
pub fn hint(request: &PlayRequest, budget: impl Into<Budget>) -> Result<Hint, GameError> {
    let play = play_rules(request)?;
    let solution = play.solution(&request.puzzle, &budget.into())?;
    let (side, geometry, default_symbols) = match &play {
        Play::Classic(size) => (
            size.side(),
            Ok(Geometry::new(*size)),
            display_symbols(*size),
        ),
        Play::Variant(rules) => (
            rules.side(),
            Geometry::from_rules(rules),
            variant::symbols(rules.side()),
        ),
    };
    let shown: Vec<char> = match &request.symbols {
        Some(text) if text.chars().count() == side => text.chars().collect(),
        _ => default_symbols.chars().collect(),
    };
    let symbol = |d: u8| shown[d as usize - 1];
    if let Some(cell) =
        (0..request.cells.len()).find(|&c| request.cells[c] != 0 && request.cells[c] != solution[c])
    {
        return Ok(Hint::Wrong {
            cell,
            text: format!(
                "{} is not {}: clear it (the solution has another digit there)",
                cell_name(side, cell),
                symbol(request.cells[cell])
            ),
        });
    }
    if request.cells == solution {
        return Ok(Hint::Solved {
            text: "the puzzle is solved".into(),
        });
    }
    let geometry = match (geometry, &play) {
        (Ok(geometry), _) => geometry,
        // Rules logic does not read: singles over the rules.
        (Err(_), Play::Variant(rules)) => return Ok(variant_hint(rules, request, &solution)),
        (Err(_), Play::Classic(_)) => unreachable!("a classic geometry is always made"),
    };
    let mut board = human::Board::new(&geometry, &request.cells);
    let deadline = Instant::now() + RATE_TIME;
    board.set_deadline(Some(deadline));
    let step = human::next_step(&board, Catalogue::Teaching);
    if Instant::now() >= deadline {
        // Chains cut short may have missed the simplest step.
        return Err(GameError::TooSlow(RATE_TIME));
    }
    let step = match (step, &play) {
        (Some(step), _) => step,
        // Beyond the techniques: singles over the rules, else a digit
        // from the solution.
        (None, Play::Variant(rules)) => return Ok(variant_hint(rules, request, &solution)),
        (None, Play::Classic(_)) => return Err(GameError::NoLogicalStep),
    };
    let symbol = |d: u8| symbol(d).to_string();
    let mut then = None;
    if step.placements.is_empty() {
        board.apply(&step);
        // The way on to a digit gets a budget of its own; steps found
        // after it are still sound, if not always the simplest.
        board.set_deadline(Some(Instant::now() + RATE_TIME));
        let mut between = 0;
        while let Some(next) = human::next_step(&board, Catalogue::Teaching) {
            if let Some(place) = next.placements.first() {
                then = Some(ThenPlace {
                    cell: usize::from(place.cell),
                    digit: place.digit,
                    text: next.text(HintLevel::Full, &geometry, &symbol),
                    steps_between: between,
                });
                break;
            }
            board.apply(&next);
            between += 1;
        }
    }
    let candidates = |list: &[human::Candidate]| -> Vec<HintCandidate> {
        list.iter()
            .map(|c| HintCandidate {
                cell: usize::from(c.cell),
                digit: c.digit,
            })
            .collect()
    };
    Ok(Hint::Step(Box::new(StepHint {
        technique: step.technique.name().to_owned(),
        rating: step.rating.value(),
        nudge: step.text(HintLevel::Nudge, &geometry, &symbol),
        pattern: step.text(HintLevel::Technique, &geometry, &symbol),
        text: step.text(HintLevel::Full, &geometry, &symbol),
        cells: step.pattern.cells.iter().map(|&c| usize::from(c)).collect(),
        units: step.pattern.units.iter().map(|&u| usize::from(u)).collect(),
        unit_cells: step
            .pattern
            .units
            .first()
            .map(|&u| {
                geometry
                    .unit_cells(usize::from(u))
                    .iter()
                    .map(|&c| usize::from(c))
                    .collect()
            })
            .unwrap_or_default(),
        digits: (1..=side as u8)
            .filter(|d| step.pattern.digits >> (d - 1) & 1 == 1)
            .collect(),
        placements: candidates(&step.placements),
        eliminations: candidates(&step.eliminations),
        cell: step.placements.first().map(|c| usize::from(c.cell)),
        then,
    })))
}

/// The solution of a puzzle that has exactly one.
pub fn solve(request: &SolveRequest, budget: impl Into<Budget>) -> Result<Solution, GameError> {
    let play = Play::of(&request.puzzle, request.variant.as_ref(), "puzzle")?;
    Ok(Solution {
        solution: play.solution(&request.puzzle, &budget.into())?,
    })
}

/// A cell's name for a player: `r3c5`.
fn cell_name(side: usize, cell: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

/// [`hint`] on a variant when logic finds no step (or cannot read the
/// rules), on a grid without a wrong entry and not solved: a single over
/// the variant's rules ([`variant::single`]: a cage's last cell, a naked
/// or hidden single, knowing thermometers and non-consecutive); when none
/// is there, [`Hint::Reveal`]: the digit of one cell, taken from the
/// solution and said to be.
fn variant_hint(rules: &Rules, request: &PlayRequest, solution: &[u8]) -> Hint {
    let side = rules.side();
    let shown: Vec<char> = match &request.symbols {
        Some(text) if text.chars().count() == side => text.chars().collect(),
        _ => variant::symbols(side).chars().collect(),
    };
    let symbol = |d: u8| shown[d as usize - 1];
    let cells = &request.cells;
    let Some(step) = variant::single(rules, cells) else {
        let candidates = variant::candidates(rules, cells);
        let cell = (0..cells.len())
            .filter(|&c| cells[c] == 0)
            .min_by_key(|&c| candidates[c].count_ones())
            .expect("an unsolved grid without a wrong entry has an empty cell");
        return Hint::Reveal {
            cell,
            digit: solution[cell],
            text: format!(
                "no technique I know finds the next step here (this variant's rules are \
                 beyond them), so from the solution: {} in {}",
                symbol(solution[cell]),
                cell_name(side, cell)
            ),
        };
    };
    let regions = rules.regions().len();
    let unit_name = |unit: usize| -> String {
        if unit < side {
            format!("row {}", unit + 1)
        } else if unit < 2 * side {
            format!("column {}", unit - side + 1)
        } else if unit < regions {
            format!(
                "the region of {}",
                cell_name(side, rules.regions()[unit][0])
            )
        } else {
            format!(
                "the cage of {}",
                cell_name(side, rules.cages()[unit - regions].cells[0])
            )
        }
    };
    let (name, d) = (cell_name(side, step.cell), symbol(step.digit));
    let (rating, nudge, pattern, text) = match (step.technique, step.unit) {
        ("Cage total", Some(unit)) => (
            1.0,
            format!("Look at {}", unit_name(unit)),
            format!("Cage total: {} has one empty cell", unit_name(unit)),
            format!(
                "Cage total: {name} is the last empty cell of {}, so it takes what is left of \
                 its sum: {d}",
                unit_name(unit)
            ),
        ),
        ("Hidden single", Some(unit)) => (
            1.5,
            format!("Look at {}", unit_name(unit)),
            format!(
                "Hidden single: {} has one place for a digit",
                unit_name(unit)
            ),
            format!(
                "Hidden single: in {}, {d} can only go in {name}",
                unit_name(unit)
            ),
        ),
        _ => (
            2.3,
            format!("Look at {name}"),
            format!("Naked single: {name} has one candidate left"),
            format!("Naked single: every other digit is ruled out in {name}, so it is {d}"),
        ),
    };
    let place = HintCandidate {
        cell: step.cell,
        digit: step.digit,
    };
    Hint::Step(Box::new(StepHint {
        technique: step.technique.into(),
        rating,
        nudge,
        pattern,
        text,
        unit_cells: if step.unit.is_some() {
            step.cells.clone()
        } else {
            Vec::new()
        },
        cells: step.cells,
        // Logic's unit numbers are not these: the cells say it all.
        units: Vec::new(),
        digits: vec![step.digit],
        placements: vec![place],
        eliminations: Vec::new(),
        cell: Some(step.cell),
        then: None,
    }))
}

/// The first puzzle of `text`, read as `cover sudoku` reads a file (in
/// any of the symbol sets it knows, see [`read_import`]), playable: a
/// [`PLAYABLE`] size with exactly one solution.
pub fn import(request: &ImportRequest, budget: impl Into<Budget>) -> Result<Game, GameError> {
    import_readings(read_import(request)?, &budget.into())
}

/// The symbol sets an imported 16×16 or 25×25 puzzle is also tried in,
/// beside the reading `cover sudoku` gives it without `--symbols`: every
/// set it is commonly written in, each given as `--symbols` would give
/// it (so `0` is a digit where the set has one, else an empty cell).
pub const IMPORT_SETS: [&str; 6] = [
    "ABCDEFGHIJKLMNOP",
    "123456789ABCDEFG",
    "0123456789ABCDEF",
    "ABCDEFGHIJKLMNOPQRSTUVWXY",
    "123456789ABCDEFGHIJKLMNOP",
    "0123456789ABCDEFGHIJKLMNO",
];

/// The ways an import's text reads as a puzzle, most likely first: one
/// size, and no two the same puzzle with its digits renamed (those are
/// one puzzle to play). What [`read_import`] reads and
/// [`import_readings`] searches.
#[derive(Debug, Clone)]
pub struct Readings {
    puzzles: Vec<Puzzle>,
    /// A variant puzzle read (then `puzzles` is empty).
    variant: Option<VariantReading>,
}

/// A variant puzzle read from f-puzzles data: its rules and givens.
#[derive(Debug, Clone)]
struct VariantReading {
    rules: Rules,
    givens: Vec<u8>,
    /// Its variant line, to share it by.
    text: String,
}

impl Readings {
    /// The number of cells of the puzzle read.
    pub fn cells(&self) -> usize {
        match &self.variant {
            Some(reading) => reading.givens.len(),
            None => self.puzzles[0].size.cells(),
        }
    }
}

/// The readings of a variant read (from f-puzzles data or a variant
/// line): a variant, or a classic puzzle of a size the classic game plays.
fn read_variant(rules: Rules, givens: Vec<u8>) -> Result<Readings, GameError> {
    let side = rules.side();
    if !(variant::MIN_SIDE..=variant::MAX_SIDE).contains(&side) {
        return Err(GameError::Unplayable(format!(
            "a {side}×{side} variant is not played here (4×4 to 16×16)"
        )));
    }
    if Variant::of(&rules).is_none() {
        let size = Size::from_side(side).expect("a classic size");
        return Ok(Readings {
            puzzles: vec![line_puzzle(size, &givens)?],
            variant: None,
        });
    }
    Ok(Readings {
        puzzles: Vec::new(),
        variant: Some(VariantReading {
            text: variant_line::write(&rules, &givens),
            rules,
            givens,
        }),
    })
}

/// The first puzzle of an import's text, read but not yet searched (a
/// cheap step: the server reads it first to know the grid's size).
///
/// The text is read as `cover sudoku` reads it; then, since the page has
/// no `--symbols` to give, in each set of [`IMPORT_SETS`] as if given
/// (a 16×16 puzzle in 1–9A–G whose empty cells are `0`s, a 25×25 puzzle
/// in 0–9A–O), and, when it has lower-case letters, in capitals. Every
/// reading that differs from those before it is kept for
/// [`import_readings`], which plays the first that has exactly one
/// solution. When none reads, the error is the plain reading's, in
/// words for a player: the line, and what is wrong there.
pub fn read_import(request: &ImportRequest) -> Result<Readings, GameError> {
    match fpuzzles::read(&request.text) {
        Ok(puzzle) => {
            let rules = puzzle
                .rules()
                .map_err(|e| GameError::Unplayable(format!("f-puzzles data: {e}")))?;
            return read_variant(rules, puzzle.givens);
        }
        Err(FPuzzlesError::NotFPuzzles(_)) => {}
        Err(error) => return Err(GameError::Unplayable(error.to_string())),
    }
    // A variant line: the first line with text, cells then fields.
    let first = request
        .text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty());
    if let Some((at, line)) = first {
        match variant_line::parse(line) {
            Ok(Some(read)) => return read_variant(read.rules, read.cells),
            Ok(None) => {}
            Err(error) => {
                return Err(GameError::Unplayable(format!("line {}: {error}", at + 1)));
            }
        }
    }
    let mut texts = vec![request.text.as_str()];
    let capitals;
    if request.text.bytes().any(|b| b.is_ascii_lowercase()) {
        capitals = request.text.to_ascii_uppercase();
        texts.push(&capitals);
    }
    let mut first_error = None;
    let mut puzzles: Vec<Puzzle> = Vec::new();
    for text in texts {
        let sets = IMPORT_SETS
            .iter()
            .map(|set| Some(Symbols::new(set).expect("the import sets are valid")));
        for symbols in std::iter::once(None).chain(sets) {
            let given = symbols.is_some();
            let mut reader = Puzzles::new(Cursor::new(text.as_bytes()), symbols);
            match reader.next() {
                Some(Ok(puzzle)) => {
                    let renamed = canonical(&puzzle.cells);
                    let known = puzzles
                        .iter()
                        .any(|p| p.size != puzzle.size || canonical(&p.cells) == renamed);
                    if !known {
                        puzzles.push(puzzle);
                    }
                }
                // Only the plain reading's error is worth telling: a set
                // given for another size reads nothing of this text.
                Some(Err(error)) if !given => first_error = first_error.or(Some(error)),
                _ => {}
            }
        }
    }
    let Some(first) = puzzles.first() else {
        return Err(GameError::Unplayable(match first_error {
            Some(InputError::Parse(error)) => unreadable(&error),
            Some(InputError::Io(_)) | None => {
                "no puzzle in the text (paste 81 cells on a line, or a 9×9 grid)".into()
            }
        }));
    };
    let side = first.size.side();
    if !PLAYABLE.contains(&side) {
        return Err(GameError::Unplayable(format!(
            "line {}: a {side}×{side} puzzle is too large to play here (up to 25×25)",
            first.line
        )));
    }
    // The sets of one size read at most three different puzzles; the
    // bound on the searches to come is kept whatever the text.
    puzzles.truncate(3);
    Ok(Readings {
        puzzles,
        variant: None,
    })
}

/// `cells` with its digits renamed in the order they first appear, so
/// that two puzzles that differ only in their digits' names are equal.
fn canonical(cells: &[u8]) -> Vec<u8> {
    let mut names = [0u8; 256];
    let mut next = 0;
    cells
        .iter()
        .map(|&d| {
            if d == 0 {
                return 0;
            }
            let name = &mut names[usize::from(d)];
            if *name == 0 {
                next += 1;
                *name = next;
            }
            *name
        })
        .collect()
}

/// What is wrong with a puzzle that does not read, for a player: its line
/// and the problem, without the command line's words (`cover sudoku`'s
/// messages name its flags).
fn unreadable(error: &ParseError) -> String {
    let line = error.line;
    let what = match &error.kind {
        ParseErrorKind::Line(fault) => fault.to_string(),
        ParseErrorKind::NotASize { cells } => format!(
            "{cells} cells is not a sudoku: a puzzle has 16 cells (4×4), 81 (9×9), 256 (16×16) \
             or 625 (25×25), on one line or a row per line"
        ),
        ParseErrorKind::RowLength {
            row,
            expected,
            found,
        } => {
            format!("row {row} of the grid has {found} cells, but the rows before have {expected}")
        }
        ParseErrorKind::ShortGrid { expected, found } => {
            format!("the grid ends after {found} rows; a {expected}×{expected} grid has {expected}")
        }
        ParseErrorKind::UnknownSymbol {
            symbol, cell, size, ..
        } => format!(
            "unknown symbol {symbol:?} in cell {cell}: {}",
            written_with(*size)
        ),
        ParseErrorKind::NumberTooLarge { value, cell, side } => format!(
            "number {value} in cell {cell} is larger than {side}, the largest digit of a \
             {side}×{side} puzzle"
        ),
        ParseErrorKind::ZeroTwoWays { size, .. } => format!(
            "the {size} puzzle reads two ways, with 0 a digit or 0 an empty cell: mark its \
             empty cells with . to say which"
        ),
        ParseErrorKind::NoSymbols { size } => {
            format!("a {size} puzzle is too large to play here (up to 25×25)")
        }
        ParseErrorKind::WrongCellCount { found, .. } => {
            format!("{found} cells is not a sudoku size")
        }
        _ => "the puzzle cannot be read".into(),
    };
    format!("line {line}: {what}")
}

/// How puzzles of `size` are written, for a player.
fn written_with(size: Size) -> String {
    match size.side() {
        4 => "a 4×4 puzzle is written with 1–4, and . or 0 for empty cells".into(),
        9 => "a 9×9 puzzle is written with 1–9, and . or 0 for empty cells".into(),
        16 => "a 16×16 puzzle is written with A–P, 1–9 and A–G, or 0–9 and A–F, with . for \
               empty cells (or numbers 1 to 16 separated by spaces, 0 for empty)"
            .into(),
        25 => "a 25×25 puzzle is written with A–Y, 1–9 and A–P, or 0–9 and A–O, with . for \
               empty cells (or numbers 1 to 25 separated by spaces, 0 for empty)"
            .into(),
        side => format!("a {side}×{side} puzzle is too large to play here (up to 25×25)"),
    }
}

/// [`import`] of the readings [`read_import`] made: the first with
/// exactly one solution, a puzzle with empty cells before a full grid;
/// when none has one, the first reading's reason. Each reading's search
/// has `budget` (there are at most three).
pub fn import_readings(readings: Readings, budget: &Budget) -> Result<Game, GameError> {
    if let Some(reading) = readings.variant {
        unique_variant_solution(&reading.rules, &reading.givens, budget)?;
        let rating = rate_variant(&reading.rules, &reading.givens);
        let mut game = variant_game(&reading.rules, reading.givens);
        game.grade = rating.map_or(String::new(), |r| Difficulty::of(r).to_string());
        game.rating = rating.map(|r| r.value());
        game.text = Some(reading.text);
        return Ok(game);
    }
    let mut puzzles = readings.puzzles;
    // A stable sort: full grids last, the order kept otherwise.
    puzzles.sort_by_key(|p| p.cells.iter().all(|&d| d != 0));
    let mut first_error = None;
    for puzzle in puzzles {
        match unique_solution(puzzle.size, &puzzle.cells, budget) {
            Ok(_) => return Ok(imported(puzzle)),
            Err(GameError::Cancelled) => return Err(GameError::Cancelled),
            Err(GameError::Unplayable(what)) => {
                let error = GameError::Unplayable(format!("line {}: {what}", puzzle.line));
                first_error = first_error.or(Some(error));
            }
            Err(other) => first_error = first_error.or(Some(other)),
        }
    }
    Err(first_error.expect("a reading was made"))
}

/// The game of an imported puzzle that has one solution: its symbols, and
/// its rating by logic within [`RATE_TIME`].
fn imported(puzzle: Puzzle) -> Game {
    let side = puzzle.size.side();
    let symbols = match &puzzle.notation {
        Notation::Compact(symbols) | Notation::Spaced(symbols, _) => symbols.as_string(),
        Notation::Numbers(_) => display_symbols(puzzle.size),
    };
    // Logic that does not finish in time is beyond any extreme puzzle.
    let geometry = Geometry::new(puzzle.size);
    let limits = RateLimits {
        above: None,
        deadline: Some(Instant::now() + RATE_TIME),
    };
    let rating = human::rate_within(&geometry, &puzzle.cells, Catalogue::Rating, limits)
        .ok()
        .filter(|rated| rated.solved)
        .map(|rated| rated.rating);
    let grade = rating
        .map_or(Difficulty::Extreme, Difficulty::of)
        .to_string();
    Game {
        size: side,
        box_side: puzzle.size.box_side(),
        symbols,
        clues: puzzle.givens(),
        puzzle: puzzle.cells,
        grade,
        rating: rating.map(|r| r.value()),
        target_met: true,
        seed: None,
        variant: None,
        text: None,
    }
}

/// The game of a variant puzzle (not rated, graded ""): its variant,
/// symbols and line.
fn variant_game(rules: &Rules, puzzle: Vec<u8>) -> Game {
    let side = rules.side();
    Game {
        size: side,
        // The corner marks' grid: as near square as the side allows.
        box_side: (1..=side).find(|b| b * b >= side).unwrap_or(side),
        symbols: variant::symbols(side),
        clues: puzzle.iter().filter(|&&d| d != 0).count(),
        text: Some(variant_line::write(rules, &puzzle)),
        puzzle,
        grade: String::new(),
        rating: None,
        target_met: true,
        seed: None,
        variant: Variant::of(rules),
    }
}

/// A variant puzzle's rating by logic ([`Geometry::from_rules`], the
/// variant techniques included), when logic solves it within
/// [`RATE_TIME`]; None when it does not (a step beyond its techniques,
/// or a puzzle past the time).
fn rate_variant(rules: &Rules, givens: &[u8]) -> Option<Rating> {
    let geometry = Geometry::from_rules(rules).ok()?;
    let limits = RateLimits {
        above: None,
        deadline: Some(Instant::now() + RATE_TIME),
    };
    human::rate_within(&geometry, givens, Catalogue::Rating, limits)
        .ok()
        .filter(|rated| rated.solved)
        .map(|rated| rated.rating)
}

/// Symbols to show a puzzle written in numbers with: the size's default.
fn display_symbols(size: Size) -> String {
    match Symbols::default_for(size) {
        Some(symbols) => symbols.as_string(),
        None => (1..=size.side() as u32)
            .map(|d| char::from_digit(d, 36).unwrap_or('?'))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(cells: Vec<u8>) -> PlayRequest {
        PlayRequest {
            puzzle: vec![0; cells.len()],
            cells,
            symbols: None,
            variant: None,
        }
    }

    #[test]
    fn a_variant_hint_without_logic_finds_a_thermometers_single_or_says_it_reveals() {
        // Along a thermometer of four cells on a 4×4, the bulb is 1.
        let thermo = Rules::latin(4).unwrap().with_thermo(&[0, 1, 2, 3]).unwrap();
        let solution = [1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1];
        assert!(thermo.check(&solution).is_ok());
        let Hint::Step(step) = variant_hint(&thermo, &request(vec![0; 16]), &solution) else {
            panic!("a single");
        };
        assert_eq!((step.cell, step.placements[0].digit), (Some(0), 1));
        assert_eq!(step.technique, "Naked single");
        // Rows and columns alone force nothing on an empty grid.
        let latin = Rules::latin(4).unwrap();
        match variant_hint(&latin, &request(vec![0; 16]), &solution) {
            Hint::Reveal { cell, digit, text } => {
                assert_eq!((cell, digit), (0, 1));
                assert!(text.contains("from the solution: 1 in r1c1"), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
}
