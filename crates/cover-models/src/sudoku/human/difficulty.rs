//! Difficulty by rating: the names players choose (easy … extreme) as
//! documented ranges of Sudoku Explainer's scale ([`Difficulty`],
//! [`RatingRange`]), and a rating that gives up early ([`rate_within`]) for
//! a generator that throws away what falls outside its range.
//!
//! | difficulty | SE rating | what it takes                                   |
//! |------------|-----------|-------------------------------------------------|
//! | easy       | 1.0–2.3   | singles (and SE's "direct" intersections/pairs) |
//! | medium     | 2.4–3.4   | locked candidates, pairs, X-Wing                |
//! | hard       | 3.5–4.4   | triples, Swordfish, Turbot fish, XY/XYZ-Wing    |
//! | expert     | 4.5–6.4   | uniqueness, quads, Jellyfish, BUG, big wings    |
//! | extreme    | 6.5 up    | chains and forcing chains                       |
//!
//! The cuts fall between SE's technique families, so a puzzle's name says
//! what a player needs to know to solve it.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use thiserror::Error;

use crate::sudoku::logic::Geometry;

use super::board::Board;
use super::solver::{next_step, Catalogue, Rated};
use super::step::{Rating, Step};

/// A difficulty a player picks; each is a [`RatingRange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// SE 1.0–2.3: singles.
    Easy,
    /// SE 2.4–3.4: locked candidates, pairs, X-Wing.
    Medium,
    /// SE 3.5–4.4: triples, Swordfish, Turbot fish, XY- and XYZ-Wing.
    Hard,
    /// SE 4.5–6.4: uniqueness, quads, Jellyfish, BUG, the larger wings.
    Expert,
    /// SE 6.5 and above: chains and forcing chains.
    Extreme,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// Its range of SE ratings.
    pub fn range(self) -> RatingRange {
        let (lo, hi) = match self {
            Difficulty::Easy => (10, 23),
            Difficulty::Medium => (24, 34),
            Difficulty::Hard => (35, 44),
            Difficulty::Expert => (45, 64),
            Difficulty::Extreme => (65, RatingRange::TOP.0),
        };
        RatingRange {
            lo: Rating(lo),
            hi: Rating(hi),
        }
    }

    /// The difficulty whose range holds `rating` (below 1.0: easy).
    pub fn of(rating: Rating) -> Difficulty {
        Difficulty::ALL
            .into_iter()
            .find(|d| rating <= d.range().hi)
            .unwrap_or(Difficulty::Extreme)
    }

    /// Its name: `easy`, `medium`, `hard`, `expert` or `extreme`.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a difficulty.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown difficulty {0:?} (expected easy, medium, hard, expert or extreme)")]
pub struct UnknownDifficulty(pub String);

impl FromStr for Difficulty {
    type Err = UnknownDifficulty;

    fn from_str(text: &str) -> Result<Difficulty, UnknownDifficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownDifficulty(text.to_owned()))
    }
}

/// SE ratings from `lo` to `hi`, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RatingRange {
    /// The lowest rating in the range.
    pub lo: Rating,
    /// The highest.
    pub hi: Rating,
}

impl RatingRange {
    /// Above every rating a puzzle gets (SE's hardest are about 12).
    pub const TOP: Rating = Rating(200);

    /// Whether `rating` is in the range.
    pub fn contains(self, rating: Rating) -> bool {
        self.lo <= rating && rating <= self.hi
    }

    /// How far `rating` is from the range, in tenths (0 inside).
    pub fn distance(self, rating: Rating) -> u16 {
        self.lo.0.saturating_sub(rating.0) + rating.0.saturating_sub(self.hi.0)
    }
}

impl fmt::Display for RatingRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

/// A range that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad rating range {0:?} (expected LO..HI with ratings like 6.6, LO ≤ HI, e.g. 6.6..7.2)")]
pub struct BadRatingRange(pub String);

/// `7.2` as `Rating(72)`: one decimal at most, 0.0 to 20.0.
fn parse_rating(text: &str) -> Option<Rating> {
    let (whole, tenth) = match text.split_once('.') {
        Some((w, t)) if t.len() == 1 => (w, t),
        Some(_) => return None,
        None => (text, "0"),
    };
    let whole: u16 = whole.parse().ok()?;
    let tenth: u16 = tenth.parse().ok()?;
    let rating = whole.checked_mul(10)?.checked_add(tenth)?;
    (rating <= RatingRange::TOP.0).then_some(Rating(rating))
}

impl FromStr for RatingRange {
    type Err = BadRatingRange;

    /// `LO..HI` (`6.6..7.2`), `LO..` (no upper end) or one rating (`7.2`).
    fn from_str(text: &str) -> Result<RatingRange, BadRatingRange> {
        let bad = || BadRatingRange(text.to_owned());
        let trimmed = text.trim();
        let (lo, hi) = match trimmed.split_once("..") {
            Some((lo, "")) => (parse_rating(lo.trim()), Some(RatingRange::TOP)),
            Some((lo, hi)) => (parse_rating(lo.trim()), parse_rating(hi.trim())),
            None => (parse_rating(trimmed), parse_rating(trimmed)),
        };
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo <= hi => Ok(RatingRange { lo, hi }),
            _ => Err(bad()),
        }
    }
}

/// When [`rate_within`] gives up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RateLimits {
    /// Give up at the first step rated above this.
    pub above: Option<Rating>,
    /// Give up once this instant has passed (between steps, and inside
    /// the chain searches).
    pub deadline: Option<Instant>,
}

/// Why [`rate_within`] gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum GaveUp {
    /// A step was rated above the limit: at least this.
    #[error("a step is rated {0}, above the limit")]
    Above(Rating),
    /// The deadline passed.
    #[error("the time limit passed")]
    Deadline,
}

/// [`rate`](super::rate), giving up as `limits` say.
pub fn rate_within(
    geometry: &Geometry,
    cells: &[u8],
    catalogue: Catalogue,
    limits: RateLimits,
) -> Result<Rated, GaveUp> {
    let mut board = Board::new(geometry, cells);
    board.set_deadline(limits.deadline);
    let out_of_time = || limits.deadline.is_some_and(|d| Instant::now() >= d);
    let mut steps: Vec<Step> = Vec::new();
    let mut rating = Rating(0);
    while !board.is_solved() && !board.is_broken() {
        if out_of_time() {
            return Err(GaveUp::Deadline);
        }
        let step = next_step(&board, catalogue);
        // A search cut short may have missed the easiest step, or any.
        if out_of_time() {
            return Err(GaveUp::Deadline);
        }
        let Some(step) = step else {
            break;
        };
        if limits.above.is_some_and(|cap| step.rating > cap) {
            return Err(GaveUp::Above(step.rating));
        }
        rating = rating.max(step.rating);
        board.apply(&step);
        steps.push(step);
    }
    Ok(Rated {
        rating,
        steps,
        solved: board.is_solved(),
        grid: board.values().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::human::testing::{board_before, nine};
    use crate::sudoku::human::Technique;

    /// One of the forum's hardest: nested forcing chains, seconds of work.
    const HARDEST: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    #[test]
    fn a_deadline_stops_the_chains_inside_a_step() {
        let geometry = nine();
        let (mut board, step) = board_before(&geometry, HARDEST, Catalogue::Rating, |s| {
            s.technique == Technique::CellForcingChain || s.rating >= Rating(75)
        })
        .expect("a chain step");
        assert!(step.rating >= Rating(65), "{step:?}");
        // Past the deadline the chain searches find nothing: the step that
        // only they find is not found.
        board.set_deadline(Some(Instant::now()));
        assert_eq!(next_step(&board, Catalogue::Rating), None);
        let limits = RateLimits {
            above: None,
            deadline: Some(Instant::now()),
        };
        let cells: Vec<u8> = HARDEST
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        assert_eq!(
            rate_within(&geometry, &cells, Catalogue::Rating, limits),
            Err(GaveUp::Deadline)
        );
        let capped = RateLimits {
            above: Some(Rating(30)),
            deadline: None,
        };
        assert!(matches!(
            rate_within(&geometry, &cells, Catalogue::Rating, capped),
            Err(GaveUp::Above(r)) if r > Rating(30)
        ));
    }

    #[test]
    fn ranges_read_and_cover_the_scale_without_gaps() {
        assert_eq!(
            "6.6..7.2".parse::<RatingRange>(),
            Ok(RatingRange {
                lo: Rating(66),
                hi: Rating(72)
            })
        );
        assert_eq!("7".parse::<RatingRange>().map(|r| r.hi), Ok(Rating(70)));
        assert_eq!(
            "8.0..".parse::<RatingRange>().map(|r| r.hi),
            Ok(RatingRange::TOP)
        );
        for bad in ["", "x", "7.2..6.6", "1.25", "..3", "300", "-1..2"] {
            assert!(bad.parse::<RatingRange>().is_err(), "{bad:?}");
        }
        let mut next = 10;
        for d in Difficulty::ALL {
            assert_eq!(d.range().lo.0, next, "{d} starts where the last ended");
            assert_eq!(Difficulty::of(d.range().lo), d);
            assert_eq!(Difficulty::of(d.range().hi), d);
            assert_eq!(d.as_str().parse::<Difficulty>(), Ok(d));
            next = d.range().hi.0 + 1;
        }
        assert!("impossible".parse::<Difficulty>().is_err());
        let hard = Difficulty::Hard.range();
        assert_eq!(
            (
                hard.distance(Rating(30)),
                hard.distance(Rating(40)),
                hard.distance(Rating(50))
            ),
            (5, 0, 6)
        );
    }
}
