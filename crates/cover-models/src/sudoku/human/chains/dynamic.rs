//! The propagation of one assumption ("this candidate is true", or
//! "false") to everything it forces, as Sudoku Explainer's chaining does
//! it: a queue of "on" and "off" nodes, each kept with its parents so the
//! chains can be drawn and their complexity counted.
//!
//! Static mode reads the links of the grid as it is; dynamic mode takes
//! each "off" out of a working copy so later links see the changed grid
//! (then a node also rests on the candidates already taken out, its hidden
//! parents). From level 1 ("+"), when the queue runs dry the set-based
//! rules of [`super::plus`] (locking, hidden and naked pairs, X-Wing) run
//! on the hypothetical grid for more "off"s; from level 2 (nested), when
//! those find nothing, cycles and forcing X/XY chains run there too, from
//! level 3 static cell and region forcing chains, and at level 4 dynamic
//! forcing chains instead.

use std::collections::VecDeque;

use super::links::{cell_of, digit_of, Bits, Context, Grid, Reason};
use super::plus;
use super::plus::Deduction;
use crate::sudoku::human::step::{Candidate, Node};

/// How a propagation follows links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mode {
    /// Whether each "off" changes the grid later links read.
    pub(super) dynamic: bool,
    /// Whether links inside a cell count (Nishio follows only a digit's
    /// places).
    pub(super) cell_links: bool,
    /// 0 plain; 1 adds the set-based rules when the queue runs dry; 2
    /// adds cycles and forcing chains on the hypothetical grid after them;
    /// 3 static cell and region forcing chains after those; 4 dynamic
    /// forcing chains right after the set-based rules.
    pub(super) level: u8,
}

const NONE: u32 = u32::MAX;

/// One node of a propagation: a candidate on or off and where its parents
/// sit in [`Implications::parents`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Record {
    pub(super) cand: u32,
    pub(super) on: bool,
    first: u32,
    len: u32,
    /// Why an "on" holds: the last digit of a cell, the last place in a
    /// unit; `None` for the assumption and rule deductions.
    pub(super) reason: Option<Reason>,
    /// For a deduction of a nested chain: its index in
    /// [`Implications::nested`].
    nested: Option<u32>,
}

/// What an assumption forces: its nodes in the order found (the first is
/// the assumption), the sets of candidates forced on and off, and the
/// contradiction that stopped it, if any.
#[derive(Debug, Clone)]
pub(super) struct Implications {
    pub(super) records: Vec<Record>,
    parents: Vec<u32>,
    at_on: Vec<u32>,
    at_off: Vec<u32>,
    pub(super) on: Bits,
    pub(super) off: Bits,
    /// The complexity of each nested chain a deduction came from.
    nested: Vec<usize>,
    /// The records of a candidate found both on and off.
    pub(super) contradiction: Option<(u32, u32)>,
}

impl Implications {
    /// No nodes yet, over `cands` candidates.
    pub(super) fn empty(cands: usize) -> Implications {
        Implications {
            records: Vec::new(),
            parents: Vec::new(),
            at_on: vec![NONE; cands],
            at_off: vec![NONE; cands],
            on: Bits::new(cands),
            off: Bits::new(cands),
            nested: Vec::new(),
            contradiction: None,
        }
    }

    /// Forgets every node, keeping the storage.
    pub(super) fn clear(&mut self) {
        for r in &self.records {
            let c = r.cand as usize;
            self.at_on[c] = NONE;
            self.at_off[c] = NONE;
            self.on.remove(c);
            self.off.remove(c);
        }
        self.records.clear();
        self.parents.clear();
        self.nested.clear();
        self.contradiction = None;
    }

    /// Adds a node; `indexed` ones join the sets (a contradiction's second
    /// node does not).
    pub(super) fn push(&mut self, cand: u32, on: bool, parents: &[u32], indexed: bool) -> u32 {
        let id = self.records.len() as u32;
        self.records.push(Record {
            cand,
            on,
            first: self.parents.len() as u32,
            len: parents.len() as u32,
            reason: None,
            nested: None,
        });
        self.parents.extend_from_slice(parents);
        if indexed {
            let c = cand as usize;
            if on {
                self.on.insert(c);
                self.at_on[c] = id;
            } else {
                self.off.insert(c);
                self.at_off[c] = id;
            }
        }
        id
    }

    /// Notes why the "on" of `record` holds.
    pub(super) fn because(&mut self, record: u32, reason: Reason) {
        self.records[record as usize].reason = Some(reason);
    }

    /// The record of `cand` forced `on` (or off), if it is.
    pub(super) fn record_of(&self, cand: u32, on: bool) -> Option<u32> {
        let at = if on { &self.at_on } else { &self.at_off }[cand as usize];
        (at != NONE).then_some(at)
    }

    pub(super) fn parents_of(&self, record: u32) -> &[u32] {
        let r = self.records[record as usize];
        &self.parents[r.first as usize..(r.first + r.len) as usize]
    }

    /// How many distinct nodes `record` rests on, itself included: Sudoku
    /// Explainer's complexity of a chain.
    pub(super) fn ancestors(&self, record: u32, seen: &mut Bits) -> usize {
        let mut stack = vec![record];
        let mut count = 0;
        let mut touched = Vec::new();
        let mut nested = Vec::new();
        while let Some(r) = stack.pop() {
            let rec = self.records[r as usize];
            let node = rec.cand as usize * 2 + usize::from(rec.on);
            if seen.has(node) {
                continue;
            }
            seen.insert(node);
            touched.push(node);
            count += 1;
            // A nested chain counts once, however many of its deductions
            // the conclusion rests on.
            if let Some(n) = rec.nested {
                if !nested.contains(&n) {
                    nested.push(n);
                    count += self.nested[n as usize];
                }
            }
            stack.extend_from_slice(self.parents_of(r));
        }
        seen.clear_all(&touched);
        count
    }

    /// The chain from the assumption to `record`, along first parents
    /// (each recorded before its child, so the walk ends).
    pub(super) fn chain(&self, record: u32, side: usize) -> Vec<Node> {
        let mut nodes = Vec::new();
        let mut r = record;
        loop {
            let rec = self.records[r as usize];
            nodes.push(node(rec.cand, rec.on, side));
            match self.parents_of(r).first() {
                Some(&p) => r = p,
                None => break,
            }
        }
        nodes.reverse();
        nodes
    }
}

/// A candidate as a chain node.
pub(super) fn node(cand: u32, on: bool, side: usize) -> Node {
    Node {
        candidate: Candidate::new(cell_of(cand, side), digit_of(cand, side)),
        on,
    }
}

/// The working storage of propagations, kept from one to the next.
#[derive(Debug, Clone)]
pub(super) struct Scratch {
    grid: Grid,
    pending_on: VecDeque<u32>,
    pending_off: VecDeque<u32>,
    offs: Vec<u32>,
    ons: Vec<(u32, Reason)>,
    parents: Vec<u32>,
    hidden: Vec<u32>,
    advanced: Vec<Deduction>,
}

impl Scratch {
    pub(super) fn new(ctx: &Context) -> Scratch {
        Scratch {
            grid: ctx.source.clone(),
            pending_on: VecDeque::new(),
            pending_off: VecDeque::new(),
            offs: Vec::new(),
            ons: Vec::new(),
            parents: Vec::new(),
            hidden: Vec::new(),
            advanced: Vec::new(),
        }
    }
}

/// Propagates `start` taken `on` (or off) on the board of `ctx` by
/// `mode`, up to the first contradiction.
pub(super) fn propagate(
    ctx: &Context,
    mode: Mode,
    start: u32,
    on: bool,
    scratch: &mut Scratch,
) -> Implications {
    let mut imp = Implications::empty(ctx.source.masks.len() * ctx.side);
    propagate_into(ctx, mode, start, on, &mut imp, scratch);
    imp
}

/// [`propagate`] into `imp`, which is cleared first.
pub(super) fn propagate_into(
    ctx: &Context,
    mode: Mode,
    start: u32,
    on: bool,
    imp: &mut Implications,
    scratch: &mut Scratch,
) {
    imp.clear();
    let Scratch {
        grid,
        pending_on,
        pending_off,
        offs,
        ons,
        parents,
        hidden,
        advanced,
    } = scratch;
    grid.copy_from(&ctx.source);
    pending_on.clear();
    pending_off.clear();
    let first = imp.push(start, on, &[], true);
    if on {
        pending_on.push_back(first);
    } else {
        pending_off.push_back(first);
    }
    loop {
        if let Some(p) = pending_on.pop_front() {
            offs.clear();
            let cand = imp.records[p as usize].cand;
            ctx.on_to_off(grid, cand, mode.cell_links, offs);
            for &c in offs.iter() {
                if let Some(conj) = imp.record_of(c, true) {
                    let off = imp.push(c, false, &[p], false);
                    imp.contradiction = Some((conj, off));
                    return;
                }
                if !imp.off.has(c as usize) {
                    let r = imp.push(c, false, &[p], true);
                    pending_off.push_back(r);
                }
            }
            continue;
        }
        if let Some(p) = pending_off.pop_front() {
            let cand = imp.records[p as usize].cand;
            ons.clear();
            ctx.off_to_on(grid, cand, mode.cell_links, true, ons);
            for &(c, reason) in ons.iter() {
                parents.clear();
                parents.push(p);
                if mode.dynamic {
                    hidden.clear();
                    ctx.hidden_parents(grid, c, reason, cand, hidden);
                    // Each hidden parent was taken out by a processed "off".
                    parents.extend(hidden.iter().filter_map(|&h| imp.record_of(h, false)));
                }
                if let Some(conj) = imp.record_of(c, false) {
                    let r = imp.push(c, true, parents, false);
                    imp.contradiction = Some((r, conj));
                    return;
                }
                if !imp.on.has(c as usize) {
                    let r = imp.push(c, true, parents, true);
                    imp.because(r, reason);
                    pending_on.push_back(r);
                }
            }
            if mode.dynamic {
                ctx.remove(grid, cand);
            }
            continue;
        }
        if mode.level == 0 {
            break;
        }
        advanced.clear();
        plus::deductions(ctx.geometry, &ctx.source.masks, &grid.masks, advanced);
        if advanced.is_empty() && (2..4).contains(&mode.level) {
            super::cycles::nested_deductions(
                ctx.geometry,
                &ctx.source.masks,
                &grid.masks,
                ctx.deadline,
                advanced,
            );
        }
        if advanced.is_empty() && mode.level >= 3 {
            // Level 3 nests static cell and region chains; 4 dynamic ones.
            super::forcing::nested_deductions(
                ctx.geometry,
                &ctx.source.masks,
                &grid.masks,
                mode.level >= 4,
                ctx.deadline,
                advanced,
            );
        }
        let mut grew = false;
        for (c, rule_parents, complexity) in advanced.iter() {
            if imp.off.has(*c as usize) {
                continue;
            }
            parents.clear();
            parents.extend(rule_parents.iter().filter_map(|&q| imp.record_of(q, false)));
            let r = imp.push(*c, false, parents, true);
            if *complexity > 0 {
                imp.records[r as usize].nested = Some(imp.nested.len() as u32);
                imp.nested.push(*complexity);
            }
            pending_off.push_back(r);
            grew = true;
        }
        if !grew {
            break;
        }
    }
}

impl Bits {
    /// Takes the listed members out again.
    pub(super) fn clear_all(&mut self, members: &[usize]) {
        for &m in members {
            self.remove(m);
        }
    }
}
