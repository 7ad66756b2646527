//! `cover generate`: sudoku puzzles with exactly one solution, reproducible
//! from a seed, graded by difficulty; classic, or a variant with
//! `--variant`.
//!
//! Making and rating puzzles is [`cover_models::generate`] (variants:
//! [`cover_models::sudoku::variant_generate`], written in the line format
//! of [`cover_models::sudoku::variant_line`]); this module adds
//! the arguments, the parallelism (puzzles are made a chunk at a time on
//! rayon's threads, one generator per thread, and printed in order; puzzle
//! `i` depends only on the seed and `i`, so any `--jobs` prints the same
//! bytes), the progress bar, the output (text or JSON) and the session's
//! bookkeeping.

use std::cell::RefCell;
use std::io::Write;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use cover_models::generate::{
    Generated, Generator, Grade, Request, UnknownGrade, GENERATED_BOX_SIDES,
};
use cover_models::sudoku::human::{
    BadRatingRange, Difficulty, RatingRange, Technique, UnknownDifficulty,
};
use cover_models::sudoku::variant_generate::{
    self, GeneratedVariant, UnknownVariant, VariantKind, VariantRequest,
};
use cover_models::sudoku::{variant_line, Size};
use dlx_core::Stats;
use rayon::prelude::*;
use serde::Serialize;

use crate::common::{self, Common, Session};
use crate::output::{self, Out};
use crate::progress::Ticker;

const LONG_ABOUT: &str = "\
Generate sudoku puzzles with exactly one solution.

Each puzzle starts as a random full grid (the exact-cover engine with its
options in random order); then its cells are emptied one at a time, in
random order, and each is given back unless the puzzle still has exactly
one solution. After one pass no clue can be removed: the puzzle is minimal.
With --clues N the removal stops at N clues instead; with --symmetric cells
go in pairs that a 180° rotation swaps (the puzzle is then minimal among
symmetric puzzles).

Difficulty: puzzles are rated by logic on Sudoku Explainer's scale (the
hardest step of a solution that takes the simplest technique first, as
`cover sudoku --rate` prints). --difficulty names a range:
  easy     1.0-2.3  singles
  medium   2.4-3.4  locked candidates, pairs, X-Wing
  hard     3.5-4.4  triples, Swordfish, Turbot fish, XY- and XYZ-Wing
  expert   4.5-6.4  uniqueness, quads, Jellyfish, BUG, larger wings
  extreme  6.5 up   chains and forcing chains
and --rating LO..HI any range. Puzzles are made until one is in range.

Variants (--variant KIND): jigsaw (random connected pieces), x (both
diagonals), windoku (four extra windows), killer (cages with sums over the
whole grid, givens only where the cages leave two solutions), anti-knight,
anti-king, non-consecutive, thermo (thermometers walked on the grid, then
clues). Each is unique (counted by the variant solver) and minimal. Human
logic rates every kind (killer with cage combinations, innies and outies;
non-consecutive and thermometers as steps of their own): --difficulty and
--rating work as for classic puzzles, and then clues stay where removing
them would take the puzzle above the range (so it may not be minimal).
--search-grade grades by search effort instead: the nodes the variant
solver visits to solve the puzzle and prove it unique, per cell, cut as the
classic grades (uncalibrated for variants; not a human rating).
Sides: jigsaw 4 to 9; x, killer, thermo 4, 6, 8, 9; anti-knight 6, 8, 9;
windoku, anti-king, non-consecutive 9.

Puzzle i depends only on the seed and i: the same --seed prints the same
bytes with any --jobs, on any machine.";

const AFTER_LONG_HELP: &str = "\
Output (text): one puzzle per line, row by row, `.` for an empty cell, in
the default symbols of the size (1-4, 1-9, A-P).

Output of a variant: one puzzle per line in the variant line format (the
cells, then the rules as fields: `jigsaw=…`, `x`, `windoku`,
`cage=SUM:r1c1,…`, `thermo=…`, `anti-knight`, …), which `cover sudoku`
reads back.

JSON (--json), one object per puzzle per line:
  index        the puzzle's number, from 1
  seed         the seed
  size         the side (4, 9, 16)
  puzzle       the puzzle, as in the text output
  solution     its one solution
  clues        the number of given cells
  minimal      true when no clue (pair) can be removed
  rating       the SE rating (9×9 and 4×4; 16×16 with --difficulty or
               --rating)
  hardest      the technique of the hardest step
  difficulty   the named range the rating falls in
  nodes        search nodes the classic dancing-links engine needs to
               solve the puzzle and prove it unique
  search_grade those nodes per cell as a grade (cut at 1.25, 4 and 12)
  attempts     puzzles made to meet --clues, --difficulty and --rating
  target_met   false when they were not met (the closest is printed)
With --variant: index, seed, variant, size, puzzle and solution (variant
lines), clues, minimal, rating, hardest and difficulty (null when logic
does not finish), nodes, search_grade, attempts, target_met.

When a puzzle cannot meet --clues or --difficulty within --attempts tries
(or --time-limit), the closest one made is printed (nearest rating, then
fewest clues), the
reason goes to standard error, and the exit status is 1.

Without --seed, a seed is taken from the clock and written to standard
error, so that a run can be repeated.

Exit status: 0 every puzzle met its targets; 1 some puzzle did not; 2 bad
usage or an I/O error.

Examples:
  cover generate                           one minimal 9×9 puzzle
  cover generate --count 100 --seed 7      the same 100 puzzles every time
  cover generate --size 16 --symmetric     a symmetric 16×16 puzzle
  cover generate --clues 30 --json         30 clues, with solution and grade
  cover generate --difficulty hard --count 10 --stats
  cover generate --rating 7.0..8.0 --json  a forcing-chain puzzle, rated
  cover generate --variant killer          a 9×9 killer sudoku
  cover generate --variant jigsaw --size 6 --count 10 --seed 1
  cover generate --variant x --search-grade hard --json";

/// Generate sudoku puzzles with exactly one solution.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct GenerateArgs {
    /// The side of the grid: 4, 9 or 16 (variants: see below).
    #[arg(long, value_name = "SIDE", default_value = "9", value_parser = parse_side)]
    pub size: usize,

    /// Generate a variant: jigsaw, x, windoku, killer, anti-knight,
    /// anti-king, non-consecutive or thermo.
    #[arg(long, value_name = "KIND", value_parser = parse_variant)]
    pub variant: Option<VariantKind>,

    /// With --variant: make puzzles until one's search-effort grade is
    /// GRADE (easy, medium, hard, extreme: search nodes per cell, not a
    /// human rating).
    #[arg(long, value_name = "GRADE", value_parser = parse_grade, requires = "variant")]
    pub search_grade: Option<Grade>,

    /// How many puzzles to make.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = common::parse_positive)]
    pub count: u64,

    /// The seed of the random numbers [default: from the clock].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Stop removing clues at N (instead of at a minimal puzzle).
    #[arg(long, value_name = "N")]
    pub clues: Option<usize>,

    /// Remove clues in pairs swapped by a 180° rotation.
    #[arg(long)]
    pub symmetric: bool,

    /// Make puzzles until one's Sudoku Explainer rating is in this named
    /// range: easy, medium, hard, expert, extreme (see below).
    #[arg(long, value_name = "NAME", value_parser = parse_difficulty, conflicts_with = "rating")]
    pub difficulty: Option<Difficulty>,

    /// Make puzzles until one's Sudoku Explainer rating is in LO..HI (e.g.
    /// 6.6..7.2; LO.. has no upper end; one rating means exactly it).
    #[arg(long, value_name = "LO..HI", value_parser = parse_range)]
    pub rating: Option<RatingRange>,

    /// Give up on one puzzle's targets after SECONDS (the closest puzzle
    /// made by then is printed, exit 1).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,

    /// Give up on --clues, --difficulty and --rating after N puzzles made
    /// for one.
    #[arg(long, value_name = "N", default_value = "1000", value_parser = parse_attempts)]
    pub attempts: NonZeroU32,

    #[command(flatten)]
    pub common: Common,
}

/// The classic sizes generated, or `None` for another side.
fn classic_size(side: usize) -> Option<Size> {
    Size::from_side(side).filter(|size| GENERATED_BOX_SIDES.contains(&size.box_side()))
}

/// A side some generator makes (which one, `run` checks with --variant).
fn parse_side(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(side)
            if classic_size(side).is_some()
                || VariantKind::ALL.iter().any(|k| k.sides().contains(&side)) =>
        {
            Ok(side)
        }
        _ => Err(
            "expected 4, 9 or 16, or for a variant 4 to 9 (a minimal 25×25 puzzle \
                  takes minutes)"
                .to_owned(),
        ),
    }
}

fn parse_variant(text: &str) -> Result<VariantKind, String> {
    text.parse().map_err(|e: UnknownVariant| e.to_string())
}

fn parse_grade(text: &str) -> Result<Grade, String> {
    text.parse().map_err(|e: UnknownGrade| e.to_string())
}

fn parse_difficulty(text: &str) -> Result<Difficulty, String> {
    text.parse().map_err(|e: UnknownDifficulty| e.to_string())
}

fn parse_range(text: &str) -> Result<RatingRange, String> {
    text.parse().map_err(|e: BadRatingRange| e.to_string())
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err("expected a number of seconds above 0".to_owned()),
    }
}

impl GenerateArgs {
    /// The rating range asked for, named or not.
    fn range(&self) -> Option<RatingRange> {
        self.rating.or(self.difficulty.map(Difficulty::range))
    }
}

/// At most this many puzzles per thread are made before they are printed.
const CHUNK_PER_THREAD: u64 = 16;

/// One line of `--json` output.
#[derive(Debug, Serialize)]
struct Record<'a> {
    index: u64,
    seed: u64,
    size: usize,
    puzzle: &'a str,
    solution: &'a str,
    clues: usize,
    minimal: bool,
    rating: Option<f64>,
    hardest: Option<&'static str>,
    difficulty: Option<&'static str>,
    nodes: Option<u64>,
    search_grade: Option<&'static str>,
    attempts: u32,
    target_met: bool,
}

/// Why puzzle `index` (from 1) missed its targets, for standard error.
fn miss_message(args: &GenerateArgs, index: u64, generated: &Generated) -> String {
    let mut wanted = Vec::new();
    if let Some(clues) = args.clues {
        wanted.push(format!("{clues} clues"));
    }
    if let Some(range) = args.range() {
        wanted.push(format!("rating {range}"));
    }
    let grade = match generated.logic {
        Some(logic) if logic.complete => format!(", rating {}", logic.rating),
        Some(_) => ", not rated in time".to_owned(),
        None => String::new(),
    };
    format!(
        "puzzle {index}: gave up after {} attempts: wanted {}; printed the closest, \
         {} clues{grade}",
        generated.attempts,
        wanted.join(" and "),
        generated.clues,
    )
}

/// One line of `--json` output for a variant.
#[derive(Debug, Serialize)]
struct VariantRecord<'a> {
    index: u64,
    seed: u64,
    variant: &'static str,
    size: usize,
    puzzle: &'a str,
    solution: &'a str,
    clues: usize,
    minimal: bool,
    rating: Option<f64>,
    hardest: Option<&'static str>,
    difficulty: Option<&'static str>,
    nodes: u64,
    search_grade: &'static str,
    attempts: u32,
    target_met: bool,
}

/// The seed asked for, or one from the clock (written to standard error).
fn seed(args: &GenerateArgs) -> u64 {
    args.seed.unwrap_or_else(|| {
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        output::error(format_args!("seed {seed} (repeat with --seed {seed})"));
        seed
    })
}

/// Makes puzzles `0..count` by `make` a chunk at a time on rayon's
/// threads and hands each to `write` in order, with its number from 1.
fn in_order<T: Send>(
    count: u64,
    make: impl Fn(u64) -> T + Sync,
    mut write: impl FnMut(u64, &T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let done = Arc::new(AtomicU64::new(0));
    let ticker = {
        let done = Arc::clone(&done);
        Ticker::start("generating", move || (done.load(Ordering::Relaxed), count))
    };
    let chunk = CHUNK_PER_THREAD * rayon::current_num_threads() as u64;
    let mut start = 0;
    while start < count {
        let end = count.min(start.saturating_add(chunk));
        let puzzles: Vec<T> = (start..end)
            .into_par_iter()
            .map(|index| {
                let made = make(index);
                done.fetch_add(1, Ordering::Relaxed);
                made
            })
            .collect();
        for (index, made) in (start + 1..).zip(&puzzles) {
            write(index, made)?;
        }
        start = end;
    }
    ticker.finish();
    Ok(())
}

/// Reads `--attempts`: 1 or more, within a `u32`.
fn parse_attempts(text: &str) -> Result<NonZeroU32, String> {
    let n = common::parse_count(text, u64::from(u32::MAX), "the most attempts")?;
    Ok(NonZeroU32::new(n as u32).expect("at least 1"))
}

/// Runs `cover generate`.
pub fn run(args: &GenerateArgs, session: &mut Session) -> anyhow::Result<()> {
    if let Some(kind) = args.variant {
        return run_variant(args, kind, session);
    }
    let Some(size) = classic_size(args.size) else {
        anyhow::bail!(
            "--size {}: classic puzzles are generated on sides 4, 9 and 16 (other sides \
             with --variant)",
            args.size
        );
    };
    let seed = seed(args);
    let request = Request {
        size,
        clues: args.clues,
        symmetric: args.symmetric,
        rating: args.range(),
        deadline: None,
        max_attempts: args.attempts.get(),
        rate: args.common.json,
    };
    if let Some(clues) = args.clues {
        if clues > size.cells() {
            anyhow::bail!(
                "--clues {clues}: a {} grid has only {} cells",
                size,
                size.cells()
            );
        }
    }
    let mut out = Out::stdout();
    let make = |index| {
        let request = Request {
            deadline: args.time_limit.map(|limit| Instant::now() + limit),
            ..request.clone()
        };
        with_generator(request.size, |generator| {
            generator.generate(&request, seed, index)
        })
    };
    in_order(args.count, make, |index, generated: &Generated| {
        write_puzzle(&mut out, args, seed, index, generated)?;
        let stats = generated.rating.map(|r| r.stats).unwrap_or_default();
        session.answered(generated.target_met, stats);
        if !generated.target_met {
            out.end_instance()?;
            output::error(miss_message(args, index, generated));
        }
        out.end_instance()?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// Runs `cover generate --variant KIND`.
fn run_variant(
    args: &GenerateArgs,
    kind: VariantKind,
    session: &mut Session,
) -> anyhow::Result<()> {
    if args.clues.is_some() {
        anyhow::bail!("--clues is not offered with --variant (variant puzzles are minimal)");
    }
    let request = VariantRequest {
        kind,
        side: args.size,
        symmetric: args.symmetric,
        rating: args.range(),
        grade: args.search_grade,
        rate: args.common.json,
        max_attempts: args.attempts.get(),
        deadline: None,
    };
    request.validate()?;
    let seed = seed(args);
    let mut out = Out::stdout();
    let make = |index| {
        let request = VariantRequest {
            deadline: args.time_limit.map(|limit| Instant::now() + limit),
            ..request.clone()
        };
        variant_generate::generate(&request, seed, index)
    };
    in_order(args.count, make, |index, made| {
        let made = made.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
        write_variant(&mut out, args, seed, index, made)?;
        let stats = {
            let mut stats = Stats::default();
            stats.nodes = made.effort.nodes;
            stats.solutions = 1;
            stats
        };
        session.answered(made.target_met, stats);
        if !made.target_met {
            out.end_instance()?;
            output::error(variant_miss_message(args, index, made));
        }
        out.end_instance()?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// Why variant puzzle `index` (from 1) missed its targets.
fn variant_miss_message(args: &GenerateArgs, index: u64, made: &GeneratedVariant) -> String {
    let mut wanted = Vec::new();
    if let Some(range) = args.range() {
        wanted.push(format!("rating {range}"));
    }
    if let Some(grade) = args.search_grade {
        wanted.push(format!("search grade {grade}"));
    }
    let rating = match made.logic {
        Some(logic) if logic.complete => format!(", rating {}", logic.rating),
        Some(_) => ", not rated in time or beyond logic".to_owned(),
        None => String::new(),
    };
    format!(
        "puzzle {index}: gave up after {} attempts: wanted {}; printed the closest{rating}, \
         search grade {} ({} nodes)",
        made.attempts,
        wanted.join(" and "),
        made.effort.grade,
        made.effort.nodes
    )
}

/// Writes one variant puzzle: its line (cells and fields), or JSON.
fn write_variant(
    out: &mut Out,
    args: &GenerateArgs,
    seed: u64,
    index: u64,
    made: &GeneratedVariant,
) -> std::io::Result<()> {
    let puzzle = variant_line::write(&made.rules, &made.puzzle);
    if args.common.json {
        let solution = variant_line::write(&made.rules, &made.solution);
        let logic = made.logic.filter(|l| l.complete);
        let record = VariantRecord {
            index,
            seed,
            variant: made.kind.name(),
            size: made.rules.side(),
            puzzle: &puzzle,
            solution: &solution,
            clues: made.clues,
            minimal: made.minimal,
            rating: logic.map(|l| l.rating.value()),
            hardest: logic.and_then(|l| l.hardest).map(Technique::name),
            difficulty: logic.map(|l| Difficulty::of(l.rating).as_str()),
            nodes: made.effort.nodes,
            search_grade: made.effort.grade.as_str(),
            attempts: made.attempts,
            target_met: made.target_met,
        };
        output::write_json_line(out, &record)
    } else {
        writeln!(out, "{puzzle}")
    }
}

thread_local! {
    /// Each thread's generator, built once (a 9×9 model takes longer to
    /// build than a hundred puzzles take to make). A generator's output
    /// does not depend on what it made before.
    static GENERATOR: RefCell<Option<Generator>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's generator of `size`.
fn with_generator<T>(size: Size, f: impl FnOnce(&mut Generator) -> T) -> T {
    GENERATOR.with(|cell| {
        let mut generator = cell.borrow_mut();
        if generator.as_ref().is_none_or(|g| g.size() != size) {
            *generator = Some(Generator::new(size).expect("--size allows generated sizes only"));
        }
        f(generator.as_mut().expect("built above"))
    })
}

/// Writes one puzzle, text or JSON.
fn write_puzzle(
    out: &mut Out,
    args: &GenerateArgs,
    seed: u64,
    index: u64,
    generated: &Generated,
) -> std::io::Result<()> {
    let puzzle = generated.puzzle_line();
    if args.common.json {
        let solution = generated.solution_line();
        let logic = generated.logic.filter(|l| l.complete);
        let record = Record {
            index,
            seed,
            size: generated.size.side(),
            puzzle: &puzzle,
            solution: &solution,
            clues: generated.clues,
            minimal: generated.minimal,
            rating: logic.map(|l| l.rating.value()),
            hardest: logic.and_then(|l| l.hardest).map(Technique::name),
            difficulty: logic.map(|l| Difficulty::of(l.rating).as_str()),
            nodes: generated.rating.map(|r| r.nodes),
            search_grade: generated.rating.map(|r| r.grade.as_str()),
            attempts: generated.attempts,
            target_met: generated.target_met,
        };
        output::write_json_line(out, &record)
    } else {
        writeln!(out, "{puzzle}")
    }
}
