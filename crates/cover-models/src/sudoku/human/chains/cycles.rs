//! Bidirectional cycles and forcing X/XY chains (SE 6.5–7.x): from one
//! candidate taken true, alternating weak and strong links (a digit's two
//! places in a unit; with Y links, a cell's two digits too) either come
//! back to it (a cycle: whatever sees an "on" and an "off" node of the
//! same digit goes), or reach its negation (a forcing chain: the start is
//! false), or, from the start taken false, reach it (it is true).

use crate::sudoku::human::board::Board;
use crate::sudoku::human::step::{Candidate, Technique};

use super::dynamic::Implications;
use super::links::{cand_of, cell_of, digit_of, Bits, Context};
use super::Hint;

/// Which links a search follows.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Links {
    y: bool,
    x: bool,
}

/// Every cycle and forcing chain of `board`, in Sudoku Explainer's order:
/// X links alone, then Y links alone, then both.
pub(super) fn find(board: &Board, hints: &mut Vec<Hint>) {
    let masks = board.all_candidates();
    let ctx = Context::new(board.geometry(), masks);
    let mut imp = Implications::empty(masks.len() * board.side());
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        Links { y: true, x: true },
    ] {
        for cell in 0..masks.len() {
            let count = masks[cell].count_ones();
            if board.value(cell) != 0 || count < 2 || (!links.x && count > 2) {
                continue;
            }
            for digit in mask_digits(masks[cell]) {
                let start = cand_of(cell, digit, board.side());
                cycles_from(board, &ctx, &mut imp, start, links, hints);
                if links.x {
                    forcing_chain_from(board, &ctx, &mut imp, start, true, links, hints);
                    forcing_chain_from(board, &ctx, &mut imp, start, false, links, hints);
                }
            }
        }
    }
}

fn mask_digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
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
fn cycles_from(
    board: &Board,
    ctx: &Context,
    imp: &mut Implications,
    start: u32,
    links: Links,
    hints: &mut Vec<Hint>,
) {
    let geometry = board.geometry();
    let masks = board.all_candidates();
    let side = board.side();
    imp.clear();
    let root = imp.push(start, true, &[], true);
    let mut pending_on = vec![root];
    let mut pending_off = Vec::new();
    let mut closing = Vec::new();
    let mut buf = Vec::new();
    let mut ons = Vec::new();
    let mut length = 0;
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 2;
        for p in std::mem::take(&mut pending_on) {
            buf.clear();
            ctx.on_to_off(&ctx.source, imp.records[p as usize].cand, links.y, &mut buf);
            for &c in &buf {
                if !follows(imp, p, c) {
                    pending_off.push(imp.push(c, false, &[p], true));
                }
            }
        }
        for p in std::mem::take(&mut pending_off) {
            ons.clear();
            ctx.off_to_on(
                &ctx.source,
                imp.records[p as usize].cand,
                links.y,
                links.x,
                &mut ons,
            );
            for &(c, _) in &ons {
                if length >= 4 && c == start {
                    closing.push(imp.push(c, true, &[p], false));
                }
                if !imp.on.has(c as usize) {
                    pending_on.push(imp.push(c, true, &[p], true));
                }
            }
        }
    }
    let mut seen = Bits::new(2 * masks.len() * side);
    for end in closing {
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
                if !in_cycle[peer] && board.has(peer, digit) {
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
        let (technique, base, sort_key) = match (links.x, links.y) {
            (true, false) => (Technique::XCycle, 65, 2),
            (false, _) => (Technique::Cycle, 65, 3),
            (true, true) => (Technique::Cycle, 70, 4),
        };
        let chain = imp.chain(end, side);
        hints.push(Hint::new(
            technique,
            base,
            imp.ancestors(end, &mut seen),
            sort_key,
            eliminations,
            vec![chain],
        ));
    }
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
    board: &Board,
    ctx: &Context,
    imp: &mut Implications,
    start: u32,
    on: bool,
    links: Links,
    hints: &mut Vec<Hint>,
) {
    let masks = board.all_candidates();
    let side = board.side();
    imp.clear();
    let root = imp.push(start, on, &[], true);
    let (mut pending_on, mut pending_off) = if on {
        (vec![root], vec![])
    } else {
        (vec![], vec![root])
    };
    let mut buf = Vec::new();
    let mut ons = Vec::new();
    let mut target = None;
    'search: while !pending_on.is_empty() || !pending_off.is_empty() {
        for p in std::mem::take(&mut pending_on) {
            buf.clear();
            ctx.on_to_off(&ctx.source, imp.records[p as usize].cand, links.y, &mut buf);
            for &c in &buf {
                if on && c == start {
                    target = Some(imp.push(c, false, &[p], false));
                    break 'search;
                }
                if !imp.off.has(c as usize) {
                    pending_off.push(imp.push(c, false, &[p], true));
                }
            }
        }
        for p in std::mem::take(&mut pending_off) {
            ons.clear();
            ctx.off_to_on(
                &ctx.source,
                imp.records[p as usize].cand,
                links.y,
                true,
                &mut ons,
            );
            for &(c, _) in &ons {
                if !on && c == start {
                    target = Some(imp.push(c, true, &[p], false));
                    break 'search;
                }
                if !imp.on.has(c as usize) {
                    pending_on.push(imp.push(c, true, &[p], true));
                }
            }
        }
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
    let (technique, base, sort_key) = if links.y {
        (Technique::Aic, 70, 4)
    } else {
        (Technique::XChain, 66, 2)
    };
    let mut seen = Bits::new(2 * masks.len() * side);
    let complexity = imp.ancestors(target, &mut seen);
    let chain = imp.chain(target, side);
    hints.push(Hint::new(
        technique,
        base,
        complexity,
        sort_key,
        eliminations,
        vec![chain],
    ));
}
