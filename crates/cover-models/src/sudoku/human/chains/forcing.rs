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

use std::time::Instant;

use crate::sudoku::human::board::Board;
use crate::sudoku::human::step::{Candidate, Technique};

use super::cycles::rule_parents;
use super::dynamic::{propagate, propagate_into, Implications, Mode, Scratch};
use super::links::{cand_of, cell_of, digit_of, Bits, Context};
use super::plus::Deduction;
use super::{length_increment, Hint};
use crate::sudoku::logic::Geometry;

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
    /// Nishio: one digit's links, contradictions only (7.5+).
    pub(super) const NISHIO: Producer = Producer {
        multiple: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };

    /// Static cell and region forcing chains (8.0+).
    pub(super) const MULTIPLE: Producer = Producer {
        multiple: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };

    /// Dynamic forcing chains of every kind at `level` (0 plain, 1 "+",
    /// 2 and up nested).
    pub(super) const fn dynamic(level: u8) -> Producer {
        Producer {
            multiple: true,
            dynamic: true,
            nishio: false,
            level,
        }
    }

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

/// What a search looks at: the grid, the rule, and in a nested search the
/// grid before the outer assumption.
#[derive(Clone, Copy)]
struct Scope<'c, 'g> {
    ctx: &'c Context<'g>,
    producer: Producer,
    outer: Option<&'c [u64]>,
}

/// Every finding of `producer` on `board`, in Sudoku Explainer's order.
pub(super) fn find(board: &Board, producer: Producer, hints: &mut Vec<Hint>) {
    let ctx = Context::new(board.geometry(), board.all_candidates(), board.deadline());
    search(&ctx, producer, None, hints);
}

/// The eliminations of every cell and region forcing chain (static, or
/// with `dynamic` every dynamic one) on the hypothetical grid `masks` of
/// a nested propagation from `source`, with their rule parents and
/// complexity (SE's nesting levels 3 and 4).
pub(super) fn nested_deductions(
    geometry: &Geometry,
    source: &[u64],
    masks: &[u64],
    dynamic: bool,
    deadline: Option<Instant>,
    out: &mut Vec<Deduction>,
) {
    let ctx = Context::new(geometry, masks, deadline);
    let producer = if dynamic {
        Producer::dynamic(0)
    } else {
        Producer::MULTIPLE
    };
    let mut hints = Vec::new();
    search(&ctx, producer, Some(source), &mut hints);
    hints.sort_by(Hint::se_order);
    for hint in hints.iter().filter(|h| !h.rule_parents.is_empty()) {
        for e in &hint.eliminations {
            let cand = cand_of(usize::from(e.cell), e.digit, ctx.side);
            out.push((cand, hint.rule_parents.clone(), hint.complexity));
        }
    }
}

/// [`find`] on the grid of `ctx`; with `outer` (a nested search), every
/// finding, each with its rule parents against that grid.
fn search(ctx: &Context, producer: Producer, outer: Option<&[u64]>, hints: &mut Vec<Hint>) {
    let scope = Scope {
        ctx,
        producer,
        outer,
    };
    let side = ctx.side;
    let masks = &ctx.source.masks;
    let cands = masks.len() * side;
    let mode = producer.mode();
    let mut cache = Cache {
        ctx,
        mode,
        on: vec![None; cands],
        scratch: Scratch::new(ctx),
    };
    let mut seen = Bits::new(2 * cands);
    let mut off = Implications::empty(cands);
    for (cell, &mask) in masks.iter().enumerate() {
        let count = mask.count_ones();
        if !(count > 2 || (count > 1 && producer.dynamic)) {
            continue;
        }
        if ctx.out_of_time() {
            return;
        }
        for digit in digits(masks[cell]) {
            let cand = cand_of(cell, digit, side);
            cache.ensure(cand);
            let contradictions = producer.dynamic || producer.nishio;
            let doubles = count >= 3 && producer.dynamic && !producer.nishio;
            if contradictions || doubles {
                propagate_into(ctx, mode, cand, false, &mut off, &mut cache.scratch);
                binary(
                    scope,
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
                regions(scope, &mut cache, cell, digit, &mut seen, hints);
            }
        }
        if !producer.nishio {
            let starts: Vec<u32> = digits(masks[cell])
                .map(|d| cand_of(cell, d, side))
                .collect();
            let imps: Vec<&Implications> = starts.iter().map(|&c| cache.get(c)).collect();
            common(scope, Kind::Cell, &imps, &mut seen, hints, |h| {
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
fn removals(ctx: &Context, cand: u32, on: bool) -> Vec<Candidate> {
    let side = ctx.side;
    let cell = cell_of(cand, side);
    let digit = digit_of(cand, side);
    if on {
        digits(ctx.source.masks[cell] & !(1 << (digit - 1)))
            .map(|d| Candidate::new(cell, d))
            .collect()
    } else if ctx.source.masks[cell] >> (digit - 1) & 1 == 1 {
        vec![Candidate::new(cell, digit)]
    } else {
        Vec::new()
    }
}

/// Contradictions of `cand` taken on or off, and (`doubles`) what both
/// assumptions force alike.
#[allow(clippy::too_many_arguments)]
fn binary(
    scope: Scope,
    cand: u32,
    on: &Implications,
    off: &Implications,
    contradictions: bool,
    doubles: bool,
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
) {
    let Scope {
        ctx,
        producer,
        outer,
    } = scope;
    let side = ctx.side;
    let cell = cell_of(cand, side) as u16;
    let mut push = |kind,
                    target: u32,
                    target_on: bool,
                    a: (&Implications, u32),
                    b: (&Implications, u32),
                    key,
                    hints: &mut Vec<Hint>| {
        let eliminations = removals(ctx, target, target_on);
        if eliminations.is_empty() {
            return;
        }
        let complexity = a.0.ancestors(a.1, seen) + b.0.ancestors(b.1, seen);
        if outer.is_none() && producer.base() + length_increment(complexity) > easiest(hints) {
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
        if let Some(outer) = outer {
            let mut parents = rule_parents(ctx, a.0, a.1, outer);
            parents.extend(rule_parents(ctx, b.0, b.1, outer));
            parents.sort_unstable();
            parents.dedup();
            hint.rule_parents = parents;
        }
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
    scope: Scope,
    cache: &mut Cache,
    cell: usize,
    digit: u8,
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
) {
    let Scope { ctx, producer, .. } = scope;
    let geometry = ctx.geometry;
    let side = ctx.side;
    for unit in cache.ctx.units_of(cell) {
        let places: Vec<usize> = geometry
            .unit_cells(unit)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| ctx.source.masks[c] >> (digit - 1) & 1 == 1)
            .collect();
        if places.len() < 2 || (places.len() > 2 && !producer.multiple) || places[0] != cell {
            continue;
        }
        let starts: Vec<u32> = places.iter().map(|&c| cand_of(c, digit, side)).collect();
        for &s in &starts {
            cache.ensure(s);
        }
        let imps: Vec<&Implications> = starts.iter().map(|&c| cache.get(c)).collect();
        common(scope, Kind::Region, &imps, seen, hints, |h| {
            h.units = vec![unit as u16];
            h.cells = places.iter().map(|&c| c as u16).collect();
            h.digits = 1 << (digit - 1);
        });
    }
}

/// What every one of `imps` (the choices of a cell or a unit) forces
/// alike: "on"s, then "off"s, in the first choice's order.
fn common(
    scope: Scope,
    kind: Kind,
    imps: &[&Implications],
    seen: &mut Bits,
    hints: &mut Vec<Hint>,
    dress: impl Fn(&mut Hint),
) {
    let Scope {
        ctx,
        producer,
        outer,
    } = scope;
    let side = ctx.side;
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
            let eliminations = removals(ctx, r.cand, want);
            if eliminations.is_empty() {
                continue;
            }
            let mut complexity = 0;
            let mut chains = Vec::new();
            for imp in imps {
                let at = imp.record_of(r.cand, want).expect("in every set");
                complexity += imp.ancestors(at, seen);
            }
            if outer.is_none() && producer.base() + length_increment(complexity) > easiest(hints) {
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
            if let Some(outer) = outer {
                let mut parents = assumption_parents(ctx, kind, &hint, outer);
                for imp in imps {
                    let at = imp.record_of(r.cand, want).expect("in every set");
                    parents.extend(rule_parents(ctx, imp, at, outer));
                }
                parents.sort_unstable();
                parents.dedup();
                hint.rule_parents = parents;
            }
            hints.push(hint);
        }
    }
}

/// In a nested search, what the choices of a cell or unit rest on: the
/// digits of the cell, or the places of the digit in the unit, that the
/// outer assumption took out of `outer`.
fn assumption_parents(ctx: &Context, kind: Kind, hint: &Hint, outer: &[u64]) -> Vec<u32> {
    let side = ctx.side;
    let masks = &ctx.source.masks;
    let mut found = Vec::new();
    match kind {
        Kind::Cell => {
            let cell = usize::from(hint.cells[0]);
            for d in digits(outer[cell] & !masks[cell]) {
                found.push(cand_of(cell, d, side));
            }
        }
        Kind::Region => {
            let unit = usize::from(hint.units[0]);
            let digit = hint.digits.trailing_zeros() as u8 + 1;
            let bit = 1u64 << (digit - 1);
            for &x in ctx.geometry.unit_cells(unit) {
                let x = usize::from(x);
                if outer[x] & bit != 0 && masks[x] & bit == 0 {
                    found.push(cand_of(x, digit, side));
                }
            }
        }
        Kind::Contradiction | Kind::Double => {}
    }
    found
}
