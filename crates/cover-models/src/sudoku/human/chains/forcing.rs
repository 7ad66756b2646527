//! Forcing chains that follow an assumption both ways or over every
//! choice (SE 7.5–9.x): Nishio (a candidate whose truth leads to a
//! contradiction is false), cell and region forcing chains (what every
//! digit of a cell, or every place of a digit in a unit, forces is true),
//! and in dynamic mode contradiction and double forcing chains (what a
//! candidate forces whether true or false is true).
//!
//! One [`Producer`] stands for each of Sudoku Explainer's chaining rules;
//! the "on" propagation of each candidate is computed once per board and
//! shared by the cell, region and binary deductions.

use crate::sudoku::human::board::Board;
use crate::sudoku::human::step::{Candidate, Technique};

use super::dynamic::{propagate, propagate_into, Implications, Mode, Scratch};
use super::links::{cand_of, cell_of, digit_of, Bits, Context};
use super::{length_increment, Hint};

/// One of Sudoku Explainer's chaining rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Producer {
    /// Cell and region forcing chains over more than two choices.
    pub(super) multiple: bool,
    /// Links read on the grid the assumption changes.
    pub(super) dynamic: bool,
    /// Nishio: digit links only, contradictions only.
    pub(super) nishio: bool,
    /// 0 plain, 1 "+", 2 and up nested.
    pub(super) level: u8,
}

impl Producer {
    fn mode(self) -> Mode {
        Mode {
            dynamic: self.dynamic,
            cell_links: !self.nishio,
            level: self.level,
        }
    }

    /// SE's value before the length increment, in tenths.
    fn base(self) -> u16 {
        if self.level > 0 {
            85 + 5 * u16::from(self.level)
        } else if self.nishio {
            75
        } else if self.dynamic {
            85
        } else {
            80
        }
    }

    fn technique(self, kind: Kind) -> Technique {
        use Technique::*;
        match (self.level, self.nishio, self.dynamic, kind) {
            (2.., ..) => NestedForcingChain,
            (1, ..) => DynamicPlusForcingChain,
            (_, true, ..) => Nishio,
            (_, _, false, Kind::Region) => RegionForcingChain,
            (_, _, false, _) => CellForcingChain,
            (.., Kind::Contradiction) => DynamicContradictionForcingChain,
            (.., Kind::Double) => DynamicDoubleForcingChain,
            (.., Kind::Cell) => DynamicCellForcingChain,
            (.., Kind::Region) => DynamicRegionForcingChain,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Contradiction,
    Double,
    Cell,
    Region,
}

/// The "on" propagation of each candidate, computed when first asked.
struct Cache<'c, 'g> {
    ctx: &'c Context<'g>,
    mode: Mode,
    on: Vec<Option<Implications>>,
    scratch: Scratch,
}

impl Cache<'_, '_> {
    fn ensure(&mut self, cand: u32) {
        if self.on[cand as usize].is_none() {
            let imp = propagate(self.ctx, self.mode, cand, true, &mut self.scratch);
            self.on[cand as usize] = Some(imp);
        }
    }

    fn get(&self, cand: u32) -> &Implications {
        self.on[cand as usize].as_ref().expect("ensured")
    }
}

/// Every finding of `producer` on `board`, in Sudoku Explainer's order.
pub(super) fn find(board: &Board, producer: Producer, hints: &mut Vec<Hint>) {
    let side = board.side();
    let masks = board.all_candidates();
    let cands = masks.len() * side;
    let mode = producer.mode();
    let ctx = Context::new(board.geometry(), masks);
    let mut cache = Cache {
        ctx: &ctx,
        mode,
        on: vec![None; cands],
        scratch: Scratch::new(&ctx),
    };
    let mut seen = Bits::new(2 * cands);
    let mut off = Implications::empty(cands);
    for (cell, &mask) in masks.iter().enumerate() {
        let count = mask.count_ones();
        if board.value(cell) != 0 || !(count > 2 || (count > 1 && producer.dynamic)) {
            continue;
        }
        for digit in digits(masks[cell]) {
            let cand = cand_of(cell, digit, side);
            cache.ensure(cand);
            let contradictions = producer.dynamic || producer.nishio;
            let doubles = count >= 3 && producer.dynamic && !producer.nishio;
            if contradictions || doubles {
                propagate_into(&ctx, mode, cand, false, &mut off, &mut cache.scratch);
                binary(
                    board,
                    producer,
                    cand,
                    cache.get(cand),
                    &off,
                    contradictions,
                    doubles,
                    &mut seen,
                    hints,
                );
            }
            if !producer.nishio {
                regions(board, producer, &mut cache, cell, digit, &mut seen, hints);
            }
        }
        if !producer.nishio {
            let starts: Vec<u32> = digits(masks[cell])
                .map(|d| cand_of(cell, d, side))
                .collect();
            let imps: Vec<&Implications> = starts.iter().map(|&c| cache.get(c)).collect();
            common(board, producer, Kind::Cell, &imps, &mut seen, hints, |h| {
                h.cells = vec![cell as u16];
                h.digits = masks[cell];
            });
        }
    }
}

/// The value of the easiest finding so far: a harder one is not built.
fn easiest(hints: &[Hint]) -> u16 {
    hints.iter().map(Hint::rating).min().unwrap_or(u16::MAX)
}

fn digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

/// What taking `cand` as true means for the board: `on` removes the
/// cell's other digits, `off` removes the candidate.
fn removals(board: &Board, cand: u32, on: bool) -> Vec<Candidate> {
    let side = board.side();
    let cell = cell_of(cand, side);
    let digit = digit_of(cand, side);
    if on {
        digits(board.candidates(cell) & !(1 << (digit - 1)))
            .map(|d| Candidate::new(cell, d))
            .collect()
    } else if board.has(cell, digit) {
        vec![Candidate::new(cell, digit)]
    } else {
        Vec::new()
    }
}

/// Contradictions of `cand` taken on or off, and (`doubles`) what both
/// assumptions force alike.
#[allow(clippy::too_many_arguments)]
fn binary(
    board: &Board,
    producer: Producer,
    cand: u32,
    on: &Implications,
    off: &Implications,
    contradictions: bool,
    doubles: bool,
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
) {
    let side = board.side();
    let cell = cell_of(cand, side) as u16;
    let mut push = |kind,
                    target: u32,
                    target_on: bool,
                    a: (&Implications, u32),
                    b: (&Implications, u32),
                    key,
                    hints: &mut Vec<Hint>| {
        let eliminations = removals(board, target, target_on);
        if eliminations.is_empty() {
            return;
        }
        let complexity = a.0.ancestors(a.1, seen) + b.0.ancestors(b.1, seen);
        if producer.base() + length_increment(complexity) > easiest(hints) {
            return;
        }
        let chains = vec![a.0.chain(a.1, side), b.0.chain(b.1, side)];
        let mut hint = Hint::new(
            producer.technique(kind),
            producer.base(),
            complexity,
            key,
            eliminations,
            chains,
        );
        hint.cells = vec![cell];
        hint.digits = 1 << (digit_of(cand, side) - 1);
        hints.push(hint);
    };
    if contradictions {
        if let Some((x, y)) = on.contradiction {
            push(Kind::Contradiction, cand, false, (on, x), (on, y), 7, hints);
        }
        if let Some((x, y)) = off.contradiction {
            push(
                Kind::Contradiction,
                cand,
                true,
                (off, x),
                (off, y),
                7,
                hints,
            );
        }
    }
    if doubles {
        for want in [true, false] {
            for (i, r) in on.records.iter().enumerate() {
                if r.on != want || on.record_of(r.cand, want) != Some(i as u32) {
                    continue;
                }
                if let Some(j) = off.record_of(r.cand, want) {
                    push(
                        Kind::Double,
                        r.cand,
                        want,
                        (on, i as u32),
                        (off, j),
                        1,
                        hints,
                    );
                }
            }
        }
    }
}

/// Region forcing chains through `digit`'s places in the units of `cell`,
/// each unit taken once: from its first place.
fn regions(
    board: &Board,
    producer: Producer,
    cache: &mut Cache,
    cell: usize,
    digit: u8,
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
) {
    let geometry = board.geometry();
    let side = board.side();
    for unit in cache.ctx.units_of(cell) {
        let places: Vec<usize> = geometry
            .unit_cells(unit)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| board.has(c, digit))
            .collect();
        if places.len() < 2 || (places.len() > 2 && !producer.multiple) || places[0] != cell {
            continue;
        }
        let starts: Vec<u32> = places.iter().map(|&c| cand_of(c, digit, side)).collect();
        for &s in &starts {
            cache.ensure(s);
        }
        let imps: Vec<&Implications> = starts.iter().map(|&c| cache.get(c)).collect();
        common(board, producer, Kind::Region, &imps, seen, hints, |h| {
            h.units = vec![unit as u16];
            h.cells = places.iter().map(|&c| c as u16).collect();
            h.digits = 1 << (digit - 1);
        });
    }
}

/// What every one of `imps` (the choices of a cell or a unit) forces
/// alike: "on"s, then "off"s, in the first choice's order.
fn common(
    board: &Board,
    producer: Producer,
    kind: Kind,
    imps: &[&Implications],
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
    dress: impl Fn(&mut Hint),
) {
    let side = board.side();
    let (first, rest) = imps.split_first().expect("two choices at least");
    for want in [true, false] {
        let mut both = if want {
            first.on.clone()
        } else {
            first.off.clone()
        };
        for imp in rest {
            both.keep(if want { &imp.on } else { &imp.off });
        }
        if both.is_empty() {
            continue;
        }
        for (i, r) in first.records.iter().enumerate() {
            if r.on != want
                || !both.has(r.cand as usize)
                || first.record_of(r.cand, want) != Some(i as u32)
            {
                continue;
            }
            let eliminations = removals(board, r.cand, want);
            if eliminations.is_empty() {
                continue;
            }
            let mut complexity = 0;
            let mut chains = Vec::new();
            for imp in imps {
                let at = imp.record_of(r.cand, want).expect("in every set");
                complexity += imp.ancestors(at, seen);
            }
            if producer.base() + length_increment(complexity) > easiest(hints) {
                continue;
            }
            for imp in imps {
                let at = imp.record_of(r.cand, want).expect("in every set");
                chains.push(imp.chain(at, side));
            }
            let key = if kind == Kind::Cell { 5 } else { 6 };
            let mut hint = Hint::new(
                producer.technique(kind),
                producer.base(),
                complexity,
                key,
                eliminations,
                chains,
            );
            dress(&mut hint);
            hints.push(hint);
        }
    }
}
