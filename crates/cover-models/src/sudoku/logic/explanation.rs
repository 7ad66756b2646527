//! Explanations for people: a puzzle solved step by step, simplest rule
//! first ([`explain`], [`hint`]), each [`Step`] with its [`Reason`] and
//! put in words by [`Step::describe`].

use super::geometry::Geometry;
use super::masks::{bit, candidates, digits_of, full_mask, is_single, Bits};
use super::rules::{
    confined_in_box, confined_in_line, hidden_subsets, naked_subsets, segment_box, unit_matching,
};

/// One step of an [`Explanation`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A digit placed, and why.
    Place {
        /// The cell.
        cell: usize,
        /// The digit, `1..=s`.
        digit: u8,
        /// Why it goes there.
        reason: Reason,
    },
    /// Candidates removed, and why.
    Eliminate {
        /// The (cell, digit) pairs removed, by cell then digit.
        removed: Vec<(usize, u8)>,
        /// Why they cannot be.
        reason: Reason,
    },
}

/// Why a [`Step`] holds. Units are numbered as in [`Geometry::units`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The only digit left in the cell.
    NakedSingle,
    /// The only place for the digit in `unit`.
    HiddenSingle {
        /// The unit.
        unit: usize,
    },
    /// In `box_unit`, `digit` can only go in `line`, so not elsewhere in
    /// `line`.
    Pointing {
        /// The box.
        box_unit: usize,
        /// The row or column.
        line: usize,
        /// The digit.
        digit: u8,
    },
    /// In `line`, `digit` can only go in `box_unit`, so not elsewhere in
    /// the box.
    Claiming {
        /// The row or column.
        line: usize,
        /// The box.
        box_unit: usize,
        /// The digit.
        digit: u8,
    },
    /// `cells` of `unit` hold only `digits` between them, as many digits as
    /// cells, so those digits are nowhere else in the unit.
    NakedSubset {
        /// The unit.
        unit: usize,
        /// The cells.
        cells: Vec<usize>,
        /// The digits.
        digits: Vec<u8>,
    },
    /// `digits` can only go in `cells` of `unit`, as many cells as digits,
    /// so those cells hold nothing else.
    HiddenSubset {
        /// The unit.
        unit: usize,
        /// The cells.
        cells: Vec<usize>,
        /// The digits.
        digits: Vec<u8>,
    },
    /// All-different: `unit` cannot be filled in any other way.
    Matching {
        /// The unit.
        unit: usize,
    },
}

impl Reason {
    /// A naked subset or, with `hidden`, a hidden one.
    pub(super) fn subset(hidden: bool, unit: usize, cells: Vec<usize>, digits: Vec<u8>) -> Reason {
        if hidden {
            Reason::HiddenSubset {
                unit,
                cells,
                digits,
            }
        } else {
            Reason::NakedSubset {
                unit,
                cells,
                digits,
            }
        }
    }
}

/// How a puzzle explained by [`explain`] ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every cell filled: the grid.
    Solved(Vec<u8>),
    /// No rule applies: a guess is needed, best at `cell` (fewest
    /// candidates, first in row-major order among equals).
    Guess {
        /// The cell.
        cell: usize,
        /// Its candidates, smallest first.
        candidates: Vec<u8>,
    },
    /// The puzzle has no solution, as `what` says.
    Contradiction {
        /// What is wrong, in words.
        what: String,
    },
}

/// A puzzle solved step by step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Where they lead.
    pub end: End,
}

fn join(parts: &[String], last: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{}{last}{tail}", init.join(", ")),
    }
}

fn subset_name(size: usize) -> String {
    match size {
        1 => "single".into(),
        2 => "pair".into(),
        3 => "triple".into(),
        4 => "quad".into(),
        _ => format!("subset of {size}"),
    }
}

impl Step {
    /// The step in one English line, digits as numbers:
    /// `r3c5 = 7: the only place for 7 in box 2`.
    pub fn describe(&self, geometry: &Geometry) -> String {
        self.describe_in(geometry, &|d: u8| d.to_string())
    }

    /// [`describe`](Step::describe) with each digit written as
    /// `symbol(digit)`, e.g. the puzzle's own letters.
    pub fn describe_with(&self, geometry: &Geometry, symbol: &dyn Fn(u8) -> char) -> String {
        self.describe_in(geometry, &|d: u8| symbol(d).to_string())
    }

    fn describe_in(&self, geo: &Geometry, sym: &dyn Fn(u8) -> String) -> String {
        let digits = |ds: &[u8]| ds.iter().map(|&d| sym(d)).collect::<Vec<_>>().join(", ");
        let cells = |cs: &[usize], last: &str| {
            join(
                &cs.iter().map(|&c| geo.cell_name(c)).collect::<Vec<_>>(),
                last,
            )
        };
        let why = |reason: &Reason| match reason {
            Reason::NakedSingle => "a naked single".to_string(),
            Reason::HiddenSingle { unit } => format!("a hidden single in {}", geo.unit_name(*unit)),
            Reason::Pointing {
                box_unit,
                line,
                digit,
            } => format!(
                "in {}, {} can only go in {} (pointing)",
                geo.unit_name(*box_unit),
                sym(*digit),
                geo.unit_name(*line)
            ),
            Reason::Claiming {
                line,
                box_unit,
                digit,
            } => format!(
                "in {}, {} can only go in {} (claiming)",
                geo.unit_name(*line),
                sym(*digit),
                geo.unit_name(*box_unit)
            ),
            Reason::NakedSubset {
                unit,
                cells: cs,
                digits: ds,
            } => format!(
                "{} hold {} between them in {} (naked {})",
                cells(cs, ", "),
                digits(ds),
                geo.unit_name(*unit),
                subset_name(cs.len())
            ),
            Reason::HiddenSubset {
                unit,
                cells: cs,
                digits: ds,
            } => format!(
                "{} are the only places for {} in {} (hidden {})",
                cells(cs, " and "),
                digits(ds),
                geo.unit_name(*unit),
                subset_name(cs.len())
            ),
            Reason::Matching { unit } => format!(
                "{} cannot be completed otherwise (all-different)",
                geo.unit_name(*unit)
            ),
        };
        match self {
            Step::Place {
                cell,
                digit,
                reason,
            } => {
                let name = geo.cell_name(*cell);
                let because = match reason {
                    Reason::NakedSingle => format!("the only digit left in {name}"),
                    Reason::HiddenSingle { unit } => format!(
                        "the only place for {} in {}",
                        sym(*digit),
                        geo.unit_name(*unit)
                    ),
                    other => why(other),
                };
                format!("{name} = {}: {because}", sym(*digit))
            }
            Step::Eliminate { removed, reason } => {
                // Cells losing the same digits are named together.
                let mut per_cell: Vec<(usize, Vec<u8>)> = Vec::new();
                for &(c, d) in removed {
                    match per_cell.iter_mut().find(|e| e.0 == c) {
                        Some(e) => e.1.push(d),
                        None => per_cell.push((c, vec![d])),
                    }
                }
                let mut groups: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
                for (c, ds) in per_cell {
                    match groups.iter_mut().find(|g| g.0 == ds) {
                        Some(g) => g.1.push(c),
                        None => groups.push((ds, vec![c])),
                    }
                }
                let what = groups
                    .iter()
                    .map(|(ds, cs)| format!("{} in {}", digits(ds), cells(cs, ", ")))
                    .collect::<Vec<_>>()
                    .join("; ");
                format!("not {what}: {}", why(reason))
            }
        }
    }
}

/// What the solver for people does next.
enum Next {
    Step(Step),
    End(End),
}

/// A puzzle being solved for people: the filled grid and the candidates
/// of its empty cells.
struct Board<'g> {
    geo: &'g Geometry,
    grid: Vec<u8>,
    /// Non-zero exactly for the empty cells, unless stuck.
    cands: Vec<u64>,
}

impl<'g> Board<'g> {
    fn new(geo: &'g Geometry, cells: &[u8]) -> Result<Board<'g>, String> {
        let s = geo.side;
        assert_eq!(cells.len(), s * s, "one entry per cell");
        for (cell, &d) in cells.iter().enumerate() {
            if usize::from(d) > s {
                return Err(format!(
                    "{} holds {d}, but digits go up to {s}",
                    geo.cell_name(cell)
                ));
            }
        }
        for unit in 0..geo.units() {
            let mut seen = 0u64;
            for &c in geo.unit_cells(unit) {
                let d = cells[usize::from(c)];
                if d != 0 {
                    if seen & bit(d) != 0 {
                        return Err(format!("{d} appears twice in {}", geo.unit_name(unit)));
                    }
                    seen |= bit(d);
                }
            }
        }
        Ok(Board {
            geo,
            grid: cells.to_vec(),
            cands: candidates(geo, cells),
        })
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.grid[cell] = digit;
        self.cands[cell] = 0;
        for u in self.geo.cell_units(cell) {
            for &c in self.geo.unit_cells(u) {
                self.cands[usize::from(c)] &= !bit(digit);
            }
        }
    }

    fn apply(&mut self, step: &Step) {
        match step {
            Step::Place { cell, digit, .. } => self.place(*cell, *digit),
            Step::Eliminate { removed, .. } => {
                for &(c, d) in removed {
                    self.cands[c] &= !bit(d);
                }
            }
        }
    }

    /// The empty cells of `unit` and their candidates.
    fn open(&self, unit: usize) -> Vec<(usize, u64)> {
        self.geo
            .unit_cells(unit)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| self.grid[c] == 0)
            .map(|c| (c, self.cands[c]))
            .collect()
    }

    /// The pairs of `cells` that hold a digit of `digits`, as a list.
    fn hits(&self, cells: impl Iterator<Item = usize>, digits: u64) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for c in cells {
            if self.grid[c] == 0 {
                out.extend(
                    digits_of(self.cands[c] & digits)
                        .into_iter()
                        .map(|d| (c, d)),
                );
            }
        }
        out.sort_unstable();
        out
    }

    fn next(&self) -> Next {
        let geo = self.geo;
        let full = full_mask(geo.side);
        for (cell, &d) in self.grid.iter().enumerate() {
            if d == 0 && self.cands[cell] == 0 {
                return Next::End(End::Contradiction {
                    what: format!("{} has no candidate left", geo.cell_name(cell)),
                });
            }
        }
        for unit in 0..geo.units() {
            let mut placed = 0u64;
            let mut union = 0u64;
            for &c in geo.unit_cells(unit) {
                let c = usize::from(c);
                match self.grid[c] {
                    0 => union |= self.cands[c],
                    d => placed |= bit(d),
                }
            }
            let missing = full & !placed & !union;
            if missing != 0 {
                return Next::End(End::Contradiction {
                    what: format!(
                        "{} has no place left in {}",
                        missing.trailing_zeros() + 1,
                        geo.unit_name(unit)
                    ),
                });
            }
        }
        if self.grid.iter().all(|&d| d != 0) {
            return Next::End(End::Solved(self.grid.clone()));
        }
        let found = self
            .naked_single()
            .or_else(|| self.hidden_single())
            .or_else(|| self.pointing())
            .or_else(|| self.claiming())
            .or_else(|| {
                (2..=4)
                    .find_map(|size| self.subset(size, false).or_else(|| self.subset(size, true)))
            });
        if let Some(step) = found {
            return Next::Step(step);
        }
        match self.matching() {
            Err(unit) => Next::End(End::Contradiction {
                what: format!(
                    "{} cannot be completed (all-different)",
                    geo.unit_name(unit)
                ),
            }),
            Ok(Some(step)) => Next::Step(step),
            Ok(None) => {
                let cell = (0..self.grid.len())
                    .filter(|&c| self.grid[c] == 0)
                    .min_by_key(|&c| self.cands[c].count_ones())
                    .expect("an empty cell, as the grid is not full");
                Next::End(End::Guess {
                    cell,
                    candidates: digits_of(self.cands[cell]),
                })
            }
        }
    }

    fn naked_single(&self) -> Option<Step> {
        (0..self.grid.len())
            .find(|&c| self.grid[c] == 0 && is_single(self.cands[c]))
            .map(|cell| Step::Place {
                cell,
                digit: self.cands[cell].trailing_zeros() as u8 + 1,
                reason: Reason::NakedSingle,
            })
    }

    fn hidden_single(&self) -> Option<Step> {
        (0..self.geo.units()).find_map(|unit| {
            let open = self.open(unit);
            let union = open.iter().fold(0, |u, &(_, m)| u | m);
            Bits(union).find_map(|v| {
                let mut places = open.iter().filter(|&&(_, m)| m & (1 << v) != 0);
                match (places.next(), places.next()) {
                    (Some(&(cell, _)), None) => Some(Step::Place {
                        cell,
                        digit: v as u8 + 1,
                        reason: Reason::HiddenSingle { unit },
                    }),
                    _ => None,
                }
            })
        })
    }

    /// The box-line step for digit `v + 1` confined to the segment where
    /// `box_unit` and `line` meet: pointing (it leaves the rest of the
    /// line) or claiming (it leaves the rest of the box), if that removes
    /// anything.
    fn box_line_step(
        &self,
        box_unit: usize,
        line: usize,
        v: usize,
        pointing: bool,
    ) -> Option<Step> {
        let geo = self.geo;
        let digit = v as u8 + 1;
        let (to, from, reason) = if pointing {
            let reason = Reason::Pointing {
                box_unit,
                line,
                digit,
            };
            (line, box_unit, reason)
        } else {
            let reason = Reason::Claiming {
                line,
                box_unit,
                digit,
            };
            (box_unit, line, reason)
        };
        let outside = geo
            .unit_cells(to)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| !geo.cell_units(c).contains(&from));
        let removed = self.hits(outside, 1 << v);
        (!removed.is_empty()).then_some(Step::Eliminate { removed, reason })
    }

    /// The first box where a digit's places lie in one row or column of
    /// it and that line has the digit elsewhere (rows before columns).
    fn pointing(&self) -> Option<Step> {
        let geo = self.geo;
        let (s, n) = (geo.side, geo.box_side);
        (0..s).find_map(|b| {
            let box_unit = 2 * s + b;
            let (band, stack) = (b / n, b % n);
            let (rows, columns) = confined_in_box(geo, &self.cands, box_unit);
            let union = rows[..n].iter().fold(0, |u, &d| u | d);
            let union = columns[..n].iter().fold(union, |u, &d| u | d);
            Bits(union).find_map(|v| {
                let row = rows[..n].iter().position(|&d| d & 1 << v != 0);
                let column = columns[..n].iter().position(|&d| d & 1 << v != 0);
                let lines = [row.map(|i| band * n + i), column.map(|j| s + stack * n + j)];
                lines
                    .into_iter()
                    .flatten()
                    .find_map(|line| self.box_line_step(box_unit, line, v, true))
            })
        })
    }

    /// The first row or column where a digit's places lie in one box and
    /// that box has the digit elsewhere.
    fn claiming(&self) -> Option<Step> {
        let geo = self.geo;
        let n = geo.box_side;
        (0..2 * geo.side).find_map(|line| {
            let only = confined_in_line(geo, &self.cands, line);
            let union = only[..n].iter().fold(0, |u, &d| u | d);
            Bits(union).find_map(|v| {
                let segment = only[..n].iter().position(|&d| d & 1 << v != 0)?;
                let box_unit = segment_box(geo, line, segment);
                self.box_line_step(box_unit, line, v, false)
            })
        })
    }

    /// The first unit with a naked subset of `size` (as many cells holding
    /// as many digits between them, which other cells still have) or, with
    /// `hidden`, a hidden one (as many digits with only as many places,
    /// which still have other digits).
    fn subset(&self, size: usize, hidden: bool) -> Option<Step> {
        (0..self.geo.units()).find_map(|unit| {
            let open = self.open(unit);
            let masks: Vec<u64> = open.iter().map(|&(_, m)| m).collect();
            let mut step = None;
            // `inside`: the subset's cells, as indices into `open`.
            let mut describe = |inside: u64, digits: u64| {
                if inside.count_ones() as usize != size || digits.count_ones() as usize != size {
                    return false;
                }
                let cells: Vec<usize> = Bits(inside).map(|i| open[i].0).collect();
                let removed = if hidden {
                    self.hits(cells.iter().copied(), !digits)
                } else {
                    let others = open.iter().map(|&(c, _)| c).filter(|c| !cells.contains(c));
                    self.hits(others, digits)
                };
                if removed.is_empty() {
                    return false;
                }
                let reason = Reason::subset(hidden, unit, cells, digits_of(digits));
                step = Some(Step::Eliminate { removed, reason });
                true
            };
            if hidden {
                let union = masks.iter().fold(0, |u, &m| u | m);
                hidden_subsets(&masks, union, size, |digits, inside| {
                    describe(inside, digits)
                });
            } else {
                naked_subsets(&masks, size, describe);
            }
            step
        })
    }

    /// The first unit where all-different removes something; `Err(unit)`
    /// when a unit cannot be filled at all.
    fn matching(&self) -> Result<Option<Step>, usize> {
        let mut masks = [0u64; 64];
        let mut at = [0u16; 64];
        for unit in 0..self.geo.units() {
            let Some(k) = unit_matching(self.geo, &self.cands, unit, &mut masks, &mut at)
                .map_err(|_| unit)?
            else {
                continue;
            };
            let mut removed: Vec<(usize, u8)> = Vec::new();
            for (&kept, &cell) in masks[..k].iter().zip(&at[..k]) {
                let cell = usize::from(cell);
                removed.extend(
                    digits_of(self.cands[cell] & !kept)
                        .into_iter()
                        .map(|d| (cell, d)),
                );
            }
            removed.sort_unstable();
            return Ok(Some(Step::Eliminate {
                removed,
                reason: Reason::Matching { unit },
            }));
        }
        Ok(None)
    }
}

/// Solves `cells` (0 for empty, else `1..=s`, one per cell) the way a
/// person would, taking at every step the simplest rule that applies:
/// naked single, hidden single (rows, columns, boxes), pointing, claiming,
/// naked then hidden subsets of size 2, 3, 4, and last all-different
/// matching. A placement also removes its digit from the peers'
/// candidates; an elimination always removes something.
///
/// Stops when the grid is full, when only a guess is left, or at a
/// contradiction (givens that clash, a cell with no candidate, a digit
/// with no place in a unit, a unit that cannot be completed).
///
/// # Panics
/// If `cells` does not have one entry per cell.
pub fn explain(geometry: &Geometry, cells: &[u8]) -> Explanation {
    let mut board = match Board::new(geometry, cells) {
        Ok(board) => board,
        Err(what) => {
            return Explanation {
                steps: Vec::new(),
                end: End::Contradiction { what },
            }
        }
    };
    let mut steps = Vec::new();
    loop {
        match board.next() {
            Next::Step(step) => {
                board.apply(&step);
                steps.push(step);
            }
            Next::End(end) => return Explanation { steps, end },
        }
    }
}

/// The first step [`explain`] would take (what a game's hint button
/// shows); `None` when the puzzle is solved, needs a guess or has no
/// solution.
///
/// # Panics
/// If `cells` does not have one entry per cell.
pub fn hint(geometry: &Geometry, cells: &[u8]) -> Option<Step> {
    match Board::new(geometry, cells).ok()?.next() {
        Next::Step(step) => Some(step),
        Next::End(_) => None,
    }
}
