//! Bidirectional cycles and forcing X/XY chains (SE 6.5–7.x): from one
//! candidate taken true, alternating weak and strong links (a digit's two
//! places in a unit; with Y links, a cell's two digits too) either come
//! back to it (a cycle: whatever sees an "on" and an "off" node of the
//! same digit goes), or reach its negation (a forcing chain: the start is
//! false), or, from the start taken false, reach it (it is true).

use std::time::Instant;

use crate::sudoku::human::board::Board;
use crate::sudoku::human::step::{Candidate, Technique};

use super::dynamic::Implications;
use super::links::{cand_of, cell_of, digit_of, Bits, Context, Reason};
use super::plus::Deduction;
use super::{max_complexity, Hint};
use crate::sudoku::logic::Geometry;

/// Which links a search follows.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Links {
    y: bool,
    x: bool,
}

/// Every cycle and forcing chain of `board`, in Sudoku Explainer's order:
/// X links alone, then Y links alone, then both.
pub(super) fn find(board: &Board, hints: &mut Vec<Hint>) {
    let ctx = Context::new(board.geometry(), board.all_candidates(), board.deadline());
    search(&ctx, None, hints);
}

/// The eliminations of every cycle and forcing chain on the hypothetical
/// grid `masks` of a nested propagation from `source`, with their rule
/// parents (the removed candidates the chains' links need gone) and
/// complexity; those needing none are left to the simpler finders.
pub(super) fn nested_deductions(
    geometry: &Geometry,
    source: &[u64],
    masks: &[u64],
    deadline: Option<Instant>,
    out: &mut Vec<Deduction>,
) {
    let ctx = Context::new(geometry, masks, deadline);
    let mut hints = Vec::new();
    search(&ctx, Some(source), &mut hints);
    hints.sort_by(Hint::se_order);
    for hint in hints.iter().filter(|h| !h.rule_parents.is_empty()) {
        for e in &hint.eliminations {
            let cand = cand_of(usize::from(e.cell), e.digit, ctx.side);
            out.push((cand, hint.rule_parents.clone(), hint.complexity));
        }
    }
}

/// [`find`] on the grid of `ctx`; with `outer`, each hint also gets its
/// rule parents against that grid.
fn search(ctx: &Context, outer: Option<&[u64]>, hints: &mut Vec<Hint>) {
    let masks = &ctx.source.masks;
    let mut searcher = Searcher {
        ctx,
        outer,
        imp: Implications::empty(masks.len() * ctx.side),
        bound: u16::MAX,
        lists: Lists::default(),
    };
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        Links { y: true, x: true },
    ] {
        for (cell, &mask) in masks.iter().enumerate() {
            let count = mask.count_ones();
            if count < 2 || (!links.x && count > 2) {
                continue;
            }
            if ctx.out_of_time() {
                return;
            }
            for digit in mask_digits(mask) {
                let start = cand_of(cell, digit, ctx.side);
                cycles_from(&mut searcher, start, links, hints);
                if links.x {
                    forcing_chain_from(&mut searcher, start, true, links, hints);
                    forcing_chain_from(&mut searcher, start, false, links, hints);
                }
            }
        }
    }
}

fn mask_digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

/// One search over the grid of `ctx`: the propagation storage it reuses
/// and the easiest value found so far (longer chains need not be
/// searched; a nested search, with `outer`, wants every finding).
struct Searcher<'c, 'g> {
    ctx: &'c Context<'g>,
    outer: Option<&'c [u64]>,
    imp: Implications,
    bound: u16,
    lists: Lists,
}

/// The frontiers and link buffers of a breadth-first search, kept from
/// one start to the next.
#[derive(Default)]
struct Lists {
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    current: Vec<u32>,
    closing: Vec<u32>,
    offs: Vec<u32>,
    ons: Vec<(u32, Reason)>,
}

impl Lists {
    fn clear(&mut self) {
        self.pending_on.clear();
        self.pending_off.clear();
        self.current.clear();
        self.closing.clear();
    }
}

/// Whether a node of `cand` taken off lies on `record`'s chain of first
/// parents, `record` itself excepted.
fn follows(imp: &Implications, record: u32, cand: u32) -> bool {
    let mut r = record;
    while let Some(&p) = imp.parents_of(r).first() {
        let rec = imp.records[p as usize];
        if rec.cand == cand && !rec.on {
            return true;
        }
        r = p;
    }
    false
}

/// The cycles through `start` taken on, found breadth first: "off" nodes
/// are kept once per path (not once per candidate) so a loop can close.
fn cycles_from(searcher: &mut Searcher, start: u32, links: Links, hints: &mut Vec<Hint>) {
    let (ctx, outer) = (searcher.ctx, searcher.outer);
    let (imp, bound) = (&mut searcher.imp, &mut searcher.bound);
    let geometry = ctx.geometry;
    let masks = &ctx.source.masks;
    let side = ctx.side;
    let (technique, base, sort_key) = match (links.x, links.y) {
        (true, false) => (Technique::XCycle, 65, 2),
        (false, _) => (Technique::Cycle, 65, 3),
        (true, true) => (Technique::Cycle, 70, 4),
    };
    let Some(longest) = max_complexity(base, *bound) else {
        return;
    };
    imp.clear();
    let root = imp.push(start, true, &[], true);
    let lists = &mut searcher.lists;
    lists.clear();
    let Lists {
        pending_on,
        pending_off,
        current,
        closing,
        offs: buf,
        ons,
    } = lists;
    pending_on.push(root);
    let mut length = 0;
    // A loop closed in this round has `length` nodes.
    while (!pending_on.is_empty() || !pending_off.is_empty()) && length + 2 <= longest {
        length += 2;
        std::mem::swap(current, pending_on);
        for &p in current.iter() {
            buf.clear();
            ctx.on_to_off(&ctx.source, imp.records[p as usize].cand, links.y, buf);
            for &c in buf.iter() {
                if !follows(imp, p, c) {
                    pending_off.push(imp.push(c, false, &[p], true));
                }
            }
        }
        current.clear();
        std::mem::swap(current, pending_off);
        for &p in current.iter() {
            ons.clear();
            ctx.off_to_on(
                &ctx.source,
                imp.records[p as usize].cand,
                links.y,
                links.x,
                ons,
            );
            for &(c, reason) in ons.iter() {
                if length >= 4 && c == start {
                    let r = imp.push(c, true, &[p], false);
                    imp.because(r, reason);
                    closing.push(r);
                }
                if !imp.on.has(c as usize) {
                    let r = imp.push(c, true, &[p], true);
                    imp.because(r, reason);
                    pending_on.push(r);
                }
            }
        }
        current.clear();
    }
    let mut seen = Bits::new(2 * masks.len() * side);
    for &end in closing.iter() {
        // The cycle's nodes: from the closing node back to the start.
        let mut nodes = Vec::new();
        let mut r = end;
        while let Some(&p) = imp.parents_of(r).first() {
            nodes.push(imp.records[r as usize]);
            r = p;
        }
        let mut in_cycle = vec![false; masks.len()];
        for n in &nodes {
            in_cycle[cell_of(n.cand, side)] = true;
        }
        let mut forth = Bits::new(masks.len() * side);
        let mut back = Bits::new(masks.len() * side);
        for n in &nodes {
            let digit = digit_of(n.cand, side);
            for &peer in geometry.peers(cell_of(n.cand, side)) {
                let peer = usize::from(peer);
                if !in_cycle[peer] && masks[peer] >> (digit - 1) & 1 == 1 {
                    let c = cand_of(peer, digit, side) as usize;
                    if n.on {
                        forth.insert(c);
                    } else {
                        back.insert(c);
                    }
                }
            }
        }
        forth.keep(&back);
        if forth.is_empty() {
            continue;
        }
        let eliminations = members(&forth, side);
        let chain = imp.chain(end, side);
        let hint = Hint::new(
            technique,
            base,
            imp.ancestors(end, &mut seen),
            sort_key,
            eliminations,
            vec![chain],
        );
        keep(ctx, imp, end, outer, bound, hint, hints);
    }
}

/// Keeps a finding whose conclusion is record `at`: a nested search (with
/// `outer`) gives it its rule parents; a plain one lowers the bound past
/// which longer chains are not worth searching.
fn keep(
    ctx: &Context,
    imp: &Implications,
    at: u32,
    outer: Option<&[u64]>,
    bound: &mut u16,
    mut hint: Hint,
    hints: &mut Vec<Hint>,
) {
    match outer {
        Some(outer) => hint.rule_parents = rule_parents(ctx, imp, at, outer),
        None => *bound = (*bound).min(hint.rating()),
    }
    hints.push(hint);
}

/// The candidates of a set, in order.
pub(super) fn members(set: &Bits, side: usize) -> Vec<Candidate> {
    let len = set.len();
    (0..len)
        .filter(|&c| set.has(c))
        .map(|c| Candidate::new(cell_of(c as u32, side), digit_of(c as u32, side)))
        .collect()
}

/// The forcing chain from `start` taken `on` to its negation, if any.
fn forcing_chain_from(
    searcher: &mut Searcher,
    start: u32,
    on: bool,
    links: Links,
    hints: &mut Vec<Hint>,
) {
    let (ctx, outer) = (searcher.ctx, searcher.outer);
    let (imp, bound) = (&mut searcher.imp, &mut searcher.bound);
    let masks = &ctx.source.masks;
    let side = ctx.side;
    let (technique, base, sort_key) = if links.y {
        (Technique::Aic, 70, 4)
    } else {
        (Technique::XChain, 66, 2)
    };
    let Some(longest) = max_complexity(base, *bound) else {
        return;
    };
    // Nodes made in this phase lie `depth` links from the start; a
    // conclusion there rests on `depth + 1` nodes.
    let mut depth = 0;
    imp.clear();
    let root = imp.push(start, on, &[], true);
    let lists = &mut searcher.lists;
    lists.clear();
    let Lists {
        pending_on,
        pending_off,
        current,
        offs: buf,
        ons,
        ..
    } = lists;
    if on {
        pending_on.push(root);
    } else {
        pending_off.push(root);
    }
    let mut target = None;
    'search: while !pending_on.is_empty() || !pending_off.is_empty() {
        if !pending_on.is_empty() {
            if depth + 2 > longest {
                break;
            }
            depth += 1;
        }
        std::mem::swap(current, pending_on);
        for &p in current.iter() {
            buf.clear();
            ctx.on_to_off(&ctx.source, imp.records[p as usize].cand, links.y, buf);
            for &c in buf.iter() {
                if on && c == start {
                    target = Some(imp.push(c, false, &[p], false));
                    break 'search;
                }
                if !imp.off.has(c as usize) {
                    pending_off.push(imp.push(c, false, &[p], true));
                }
            }
        }
        if !pending_off.is_empty() {
            if depth + 2 > longest {
                break;
            }
            depth += 1;
        }
        current.clear();
        std::mem::swap(current, pending_off);
        for &p in current.iter() {
            ons.clear();
            ctx.off_to_on(
                &ctx.source,
                imp.records[p as usize].cand,
                links.y,
                true,
                ons,
            );
            for &(c, reason) in ons.iter() {
                if !on && c == start {
                    let r = imp.push(c, true, &[p], false);
                    imp.because(r, reason);
                    target = Some(r);
                    break 'search;
                }
                if !imp.on.has(c as usize) {
                    let r = imp.push(c, true, &[p], true);
                    imp.because(r, reason);
                    pending_on.push(r);
                }
            }
        }
        current.clear();
    }
    let Some(target) = target else {
        return;
    };
    let cell = cell_of(start, side);
    let digit = digit_of(start, side);
    let eliminations: Vec<Candidate> = if on {
        vec![Candidate::new(cell, digit)]
    } else {
        mask_digits(masks[cell] & !(1 << (digit - 1)))
            .map(|d| Candidate::new(cell, d))
            .collect()
    };
    let mut seen = Bits::new(2 * masks.len() * side);
    let complexity = imp.ancestors(target, &mut seen);
    let chain = imp.chain(target, side);
    let hint = Hint::new(
        technique,
        base,
        complexity,
        sort_key,
        eliminations,
        vec![chain],
    );
    keep(ctx, imp, target, outer, bound, hint, hints);
}

/// The candidates of `outer` gone from the grid of `ctx` that the "on"s
/// `target` rests on needed gone: a cell's removed digits for its last
/// digit, a unit's removed places for its last place.
pub(super) fn rule_parents(
    ctx: &Context,
    imp: &Implications,
    target: u32,
    outer: &[u64],
) -> Vec<u32> {
    let side = ctx.side;
    let masks = &ctx.source.masks;
    let mut found = Vec::new();
    let mut done = vec![false; imp.records.len()];
    let mut stack = vec![target];
    while let Some(r) = stack.pop() {
        if std::mem::replace(&mut done[r as usize], true) {
            continue;
        }
        let rec = imp.records[r as usize];
        let cell = cell_of(rec.cand, side);
        let digit = digit_of(rec.cand, side);
        match rec.reason {
            Some(Reason::Cell) if rec.on => {
                for d in mask_digits(outer[cell] & !masks[cell]) {
                    found.push(cand_of(cell, d, side));
                }
            }
            Some(Reason::Unit(unit)) if rec.on => {
                let bit = 1u64 << (digit - 1);
                for &x in ctx.geometry.unit_cells(unit) {
                    let x = usize::from(x);
                    if outer[x] & bit != 0 && masks[x] & bit == 0 {
                        found.push(cand_of(x, digit, side));
                    }
                }
            }
            _ => {}
        }
        stack.extend_from_slice(imp.parents_of(r));
    }
    found.sort_unstable();
    found.dedup();
    found
}
