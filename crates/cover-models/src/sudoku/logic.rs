//! Sudoku logic on candidate masks: constraint propagation for a search,
//! and step-by-step explanations for people.
//!
//! Every size from 4×4 to 64×64 is handled the same way. Cells are
//! row-major (`r·s + c` for side `s`), digits are `1..=s`, and a candidate
//! mask holds digit `d` in bit `d - 1`, so one `u64` covers a cell of any
//! size.
//!
//! - [`Geometry`]: the units (rows, columns, boxes) of one size and their
//!   names.
//! - [`Propagation::propagate`]: runs a chosen set of [`Rules`] to a
//!   fixpoint on the masks of a search state, reporting each removal; a
//!   solved cell has mask 0 there, and a digit already placed in a unit
//!   has no candidate left in it.
//! - [`explain`], [`hint`]: solve a puzzle as a person would, simplest rule
//!   first, as a list of [`Step`]s that [`Step::describe`] puts in words.
//!
//! Every rule is sound (it never removes a candidate some solution uses)
//! and monotone (whatever it concludes from some masks it still concludes
//! from fewer), so the fixpoint does not depend on the order rules fire in.

use std::sync::Arc;

use super::symbols::Size;

/// The bits of the digits `1..=side`.
fn full_mask(side: usize) -> u64 {
    if side >= 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

/// The bit of `digit` (`1..=64`).
fn bit(digit: u8) -> u64 {
    1u64 << (digit - 1)
}

/// The indices of the set bits of a mask, lowest first.
#[derive(Clone, Copy)]
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

/// The digits (`1..=64`) of a mask, lowest first.
fn digits_of(mask: u64) -> Vec<u8> {
    Bits(mask).map(|b| b as u8 + 1).collect()
}

/// Whether a mask has exactly one bit.
#[inline]
fn is_single(mask: u64) -> bool {
    mask != 0 && mask & (mask - 1) == 0
}

/// The units of one size: rows, columns and boxes, and their names.
#[derive(Debug, Clone)]
pub struct Geometry {
    size: Size,
    side: usize,
    box_side: usize,
    /// `side` cells per unit, unit after unit; a box row-major inside.
    unit_cells: Arc<[u16]>,
    /// The row, column and box unit of each cell (3·64 units fit a byte).
    cell_units: Arc<[[u8; 3]]>,
}

impl Geometry {
    /// The geometry of `size`.
    pub fn new(size: Size) -> Geometry {
        let n = size.box_side();
        let s = size.side();
        let mut unit_cells = Vec::with_capacity(3 * s * s);
        for r in 0..s {
            unit_cells.extend((0..s).map(|c| (r * s + c) as u16));
        }
        for c in 0..s {
            unit_cells.extend((0..s).map(|r| (r * s + c) as u16));
        }
        for b in 0..s {
            let (r0, c0) = ((b / n) * n, (b % n) * n);
            for i in 0..n {
                unit_cells.extend((0..n).map(|j| ((r0 + i) * s + c0 + j) as u16));
            }
        }
        let cell_units = (0..s * s)
            .map(|cell| {
                let (r, c) = (cell / s, cell % s);
                [r as u8, (s + c) as u8, (2 * s + (r / n) * n + c / n) as u8]
            })
            .collect();
        Geometry {
            size,
            side: s,
            box_side: n,
            unit_cells: unit_cells.into(),
            cell_units,
        }
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The number of cells in a unit, and of digits.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of units, `3·side`: rows `0..side`, then columns
    /// `side..2·side`, then boxes `2·side..3·side`.
    pub fn units(&self) -> usize {
        3 * self.side
    }

    /// The cells of `unit`: a row left to right, a column top to bottom, a
    /// box row by row.
    pub fn unit_cells(&self, unit: usize) -> &[u16] {
        &self.unit_cells[unit * self.side..(unit + 1) * self.side]
    }

    /// The row, column and box units of `cell`.
    pub fn cell_units(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }

    /// `unit` for people: "row 3", "column 5", "box 2" (counted from 1).
    pub fn unit_name(&self, unit: usize) -> String {
        let s = self.side;
        match unit / s {
            0 => format!("row {}", unit + 1),
            1 => format!("column {}", unit - s + 1),
            _ => format!("box {}", unit - 2 * s + 1),
        }
    }

    /// `cell` for people: "r3c5" (counted from 1).
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.side + 1, cell % self.side + 1)
    }
}

/// Which rules run, each measurable alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Naked singles (a cell with one candidate: remove it from the peers)
    /// and hidden singles (a digit with one place in a unit: remove that
    /// cell's other candidates).
    pub singles: bool,
    /// Pointing (a digit's places in a box all in one row or column:
    /// remove it from the rest of that line) and claiming (a digit's places
    /// in a line all in one box: remove it from the rest of the box).
    pub box_line: bool,
    /// Naked and hidden subsets of sizes `2..=subsets` (0 or 1: none).
    /// Only cells with at most `subsets` candidates, and digits with at
    /// most `subsets` places, are combined; still, the work grows fast past
    /// 4. Skipped when `matching` is on, which finds all they would.
    pub subsets: u8,
    /// All-different per unit, domain-consistent (Régin): remove every
    /// (cell, digit) of a unit that lies in no perfect matching between
    /// the unit's unsolved cells and its missing digits. Subsumes singles
    /// and subsets.
    pub matching: bool,
    /// The same for each digit's layer: the rows still missing a digit
    /// and the columns still missing it must be matched one to one (a
    /// digit is once in each row and each column), so a (row, column) of
    /// the digit in no perfect matching is removed. This is every fish
    /// (X-wing, swordfish, jellyfish and larger) at once; the units'
    /// matching cannot see them.
    pub layers: bool,
}

impl Rules {
    /// No rule at all.
    pub const NONE: Rules = Rules {
        singles: false,
        box_line: false,
        subsets: 0,
        matching: false,
        layers: false,
    };
    /// Singles, pointing and claiming, and subsets up to triples.
    pub const BASIC: Rules = Rules {
        singles: true,
        box_line: true,
        subsets: 3,
        matching: false,
        layers: false,
    };
    /// Singles, pointing and claiming, and matching (which makes subsets
    /// redundant).
    pub const FULL: Rules = Rules {
        singles: true,
        box_line: true,
        subsets: 0,
        matching: true,
        layers: true,
    };

    fn any(self) -> bool {
        self.singles || self.box_line || self.subsets >= 2 || self.matching || self.layers
    }
}

/// The branch can have no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dead;

/// Scratch state for [`propagate`](Propagation::propagate), so that it
/// never allocates after its first call for a size.
#[derive(Debug, Clone, Default)]
pub struct Propagation {
    /// The units to look at again, one bit each: first for the cheap rules,
    /// then as many words for matching.
    dirty: Vec<u64>,
    /// The unit whose rules found the last dead end.
    failed: Option<usize>,
}

/// The masks being narrowed and everything a removal touches.
struct Ctx<'a> {
    cands: &'a mut [u64],
    cell_units: &'a [[u8; 3]],
    /// Words per dirty set.
    words: usize,
    dirty: &'a mut [u64],
    removed: &'a mut dyn FnMut(usize, u8),
}

/// The two dirty sets of a [`Ctx`].
#[derive(Clone, Copy)]
enum Phase {
    /// Singles, subsets, pointing and claiming.
    Cheap = 0,
    /// All-different.
    Matching = 1,
}

impl Ctx<'_> {
    /// Removes `bits` from `cell`'s candidates, reporting those it held.
    /// Emptying a cell is a dead end: it was unsolved, as only unsolved
    /// cells have candidates.
    #[inline(always)]
    fn remove(&mut self, cell: usize, bits: u64) -> Result<(), Dead> {
        // Most calls remove nothing: keep that test inline and the rest out
        // of the callers' loops.
        if self.cands[cell] & bits == 0 {
            return Ok(());
        }
        self.remove_some(cell, bits)
    }

    #[inline(never)]
    fn remove_some(&mut self, cell: usize, bits: u64) -> Result<(), Dead> {
        let mask = self.cands[cell];
        let hit = mask & bits;
        let left = mask & !hit;
        self.cands[cell] = left;
        for b in Bits(hit) {
            (self.removed)(cell, b as u8 + 1);
        }
        for &u in &self.cell_units[cell] {
            let (word, b) = (usize::from(u) >> 6, u & 63);
            self.dirty[word] |= 1 << b;
            self.dirty[self.words + word] |= 1 << b;
        }
        if left == 0 {
            Err(Dead)
        } else {
            Ok(())
        }
    }

    fn is_dirty(&self, phase: Phase, unit: usize) -> bool {
        self.dirty[phase as usize * self.words + (unit >> 6)] & (1 << (unit & 63)) != 0
    }

    fn clean(&mut self, phase: Phase, unit: usize) {
        self.dirty[phase as usize * self.words + (unit >> 6)] &= !(1 << (unit & 63));
    }

    fn first_dirty(&self, phase: Phase) -> Option<usize> {
        let set = &self.dirty[phase as usize * self.words..][..self.words];
        set.iter()
            .position(|&w| w != 0)
            .map(|k| k * 64 + set[k].trailing_zeros() as usize)
    }
}

impl Propagation {
    /// Scratch state for `geometry`'s size.
    pub fn new(geometry: &Geometry) -> Propagation {
        Propagation {
            dirty: vec![0; 2 * geometry.units().div_ceil(64)],
            failed: None,
        }
    }

    /// Runs `rules` to a fixpoint on `cands` (one mask per cell, `s²` of
    /// them). A cell with mask 0 counts as solved, and a digit with no
    /// candidate in a unit as placed there. Each candidate removed is
    /// cleared and reported once to `removed(cell, digit)` (digit
    /// `1..=s`).
    ///
    /// Returns `Err(Dead)` as soon as no solution can extend the state; it
    /// may stop early then, and the removals reported so far stay made.
    ///
    /// # Panics
    /// If `cands` does not have one mask per cell.
    pub fn propagate(
        &mut self,
        geometry: &Geometry,
        rules: Rules,
        cands: &mut [u64],
        removed: &mut dyn FnMut(usize, u8),
    ) -> Result<(), Dead> {
        assert_eq!(cands.len(), geometry.size().cells(), "one mask per cell");
        if !rules.any() {
            return Ok(());
        }
        let units = geometry.units();
        let words = units.div_ceil(64);
        self.dirty.clear();
        self.dirty.resize(2 * words, 0);
        for (k, word) in self.dirty.iter_mut().enumerate() {
            let first = (k % words) * 64;
            *word = if units - first >= 64 {
                u64::MAX
            } else {
                (1u64 << (units - first)) - 1
            };
        }
        let mut ctx = Ctx {
            cands,
            cell_units: &geometry.cell_units,
            words,
            dirty: &mut self.dirty,
            removed,
        };
        // Matching costs most and only waits for the cheap rules: a unit
        // still changing would have to be matched again.
        self.failed = None;
        loop {
            let (unit, settled) = if let Some(unit) = ctx.first_dirty(Phase::Cheap) {
                (unit, settle_cheap(geometry, rules, &mut ctx, unit))
            } else if let Some(unit) = ctx.first_dirty(Phase::Matching) {
                ctx.clean(Phase::Matching, unit);
                if !rules.matching {
                    continue;
                }
                (unit, settle_matching(geometry, &mut ctx, unit))
            } else if rules.layers {
                // Quiet in every unit: look at the digits' layers, and go
                // on while they remove something.
                match settle_layers(geometry, &mut ctx) {
                    Ok(true) => continue,
                    Ok(false) => return Ok(()),
                    Err(dead) => return Err(dead),
                }
            } else {
                return Ok(());
            };
            if let Err(dead) = settled {
                self.failed = Some(unit);
                return Err(dead);
            }
        }
    }

    /// The unit whose rules proved the last call's dead end (`None` when
    /// it found none): what a branching rule that learns from failures
    /// (weighted degree) counts.
    pub fn failed_unit(&self) -> Option<usize> {
        self.failed
    }
}

/// The unsolved cells of `unit` into `masks` and `at`: their number, and
/// `Err(Dead)` unless they hold as many digits between them. (Each unsolved
/// cell takes one missing digit and each missing digit needs one cell; the
/// digits with a place are among the missing.)
#[inline(always)]
fn gather(
    cells: &[u16],
    cands: &[u64],
    masks: &mut [u64; 64],
    at: &mut [u16; 64],
) -> Result<(usize, u64), Dead> {
    let mut k = 0;
    let mut union = 0u64;
    // Branch-free: which cells are solved is data, and a mispredicted
    // branch per cell cost more than the stores.
    for &c in &cells[..cells.len().min(64)] {
        let m = cands[usize::from(c)];
        masks[k & 63] = m;
        at[k & 63] = c;
        k += usize::from(m != 0);
        union |= m;
    }
    if union.count_ones() as usize != k {
        return Err(Dead);
    }
    Ok((k, union))
}

/// Brings `unit` to its own fixpoint of singles, subsets, pointing and
/// claiming. Singles also run for matching alone: it implies them, so they
/// only reach its fixpoint sooner; subsets it implies too, but they cost
/// more than they save then.
fn settle_cheap(geo: &Geometry, rules: Rules, ctx: &mut Ctx<'_>, unit: usize) -> Result<(), Dead> {
    let cells = geo.unit_cells(unit);
    let mut masks = [0u64; 64];
    let mut at = [0u16; 64];
    let singles_on = rules.singles || rules.matching;
    let subsets_on = rules.subsets >= 2 && !rules.matching;
    loop {
        ctx.clean(Phase::Cheap, unit);
        let (k, union) = gather(cells, ctx.cands, &mut masks, &mut at)?;
        if k == 0 {
            return Ok(());
        }
        if singles_on {
            singles(&masks[..k], &at[..k], ctx)?;
        }
        if subsets_on {
            subsets(
                usize::from(rules.subsets),
                &masks[..k],
                &at[..k],
                union,
                ctx,
            )?;
        }
        if !ctx.is_dirty(Phase::Cheap, unit) {
            break;
        }
    }
    if rules.box_line {
        // Removes only outside `unit`, so the unit stays settled.
        box_line(geo, ctx, unit)?;
    }
    Ok(())
}

/// All-different on `unit`.
fn settle_matching(geo: &Geometry, ctx: &mut Ctx<'_>, unit: usize) -> Result<(), Dead> {
    let mut masks = [0u64; 64];
    let mut at = [0u16; 64];
    let (k, _) = gather(geo.unit_cells(unit), ctx.cands, &mut masks, &mut at)?;
    if k > 0 && regin(&mut masks[..k])? {
        for (&kept, &cell) in masks[..k].iter().zip(&at[..k]) {
            ctx.remove(usize::from(cell), !kept)?;
        }
        // Domain consistency is idempotent: the unit needs no second
        // matching for its own removals (the cheap rules still look).
        ctx.clean(Phase::Matching, unit);
    }
    Ok(())
}

/// Naked and hidden singles of one unit's unsolved cells.
fn singles(masks: &[u64], at: &[u16], ctx: &mut Ctx<'_>) -> Result<(), Dead> {
    let mut lone = 0u64;
    let mut once = 0u64;
    let mut multi = 0u64;
    for &m in masks {
        if is_single(m) {
            if lone & m != 0 {
                return Err(Dead);
            }
            lone |= m;
        }
        multi |= once & m;
        once |= m;
    }
    let hidden = once & !multi;
    if lone == 0 && hidden == 0 {
        return Ok(());
    }
    for (&m, &cell) in masks.iter().zip(at) {
        let cell = usize::from(cell);
        let own = if is_single(m) { m } else { 0 };
        ctx.remove(cell, lone & !own)?;
        let h = m & hidden;
        if h != 0 {
            if !is_single(h) {
                // The only place for two digits.
                return Err(Dead);
            }
            ctx.remove(cell, !h)?;
        }
    }
    Ok(())
}

/// Calls `found(members, union)` for every `size` of `items` (members as
/// a bit set of indices into `items`) whose union has at most `size` bits,
/// in lexicographic order, until `found` returns true; returns whether it
/// did. Pruning on the union keeps the search small: once a partial union
/// is too big, no extension can shrink it.
fn combos(items: &[u64], size: usize, mut found: impl FnMut(u64, u64) -> bool) -> bool {
    let m = items.len();
    if size == 0 || size > m || size > 64 {
        return false;
    }
    let mut idx = [0usize; 64];
    let mut acc = [0u64; 65];
    let mut depth = 0;
    loop {
        if idx[depth] + (size - depth) > m {
            if depth == 0 {
                return false;
            }
            depth -= 1;
            idx[depth] += 1;
            continue;
        }
        let union = acc[depth] | items[idx[depth]];
        if union.count_ones() as usize > size {
            idx[depth] += 1;
            continue;
        }
        if depth + 1 == size {
            let members = idx[..size].iter().fold(0u64, |s, &j| s | 1 << j);
            if found(members, union) {
                return true;
            }
            idx[depth] += 1;
        } else {
            acc[depth + 1] = union;
            idx[depth + 1] = idx[depth] + 1;
            depth += 1;
        }
    }
}

/// Naked and hidden subsets of sizes `2..=max` of one unit's unsolved
/// cells (`union` the digits they hold).
fn subsets(
    max: usize,
    masks: &[u64],
    at: &[u16],
    union: u64,
    ctx: &mut Ctx<'_>,
) -> Result<(), Dead> {
    let k = masks.len();
    // A subset of all the unit's cells or digits removes nothing.
    let top = max.min(k.saturating_sub(1));
    if top < 2 {
        return Ok(());
    }
    let all = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    let mut items = [0u64; 64];
    let mut owner = [0u8; 64];
    let mut count = 0;
    for (i, &m) in masks.iter().enumerate() {
        if m.count_ones() as usize <= top {
            items[count] = m;
            owner[count] = i as u8;
            count += 1;
        }
    }
    let mut dead = false;
    for size in 2..=top {
        combos(&items[..count], size, |members, digits| {
            if (digits.count_ones() as usize) < size {
                dead = true;
                return true;
            }
            let inside = Bits(members).fold(0u64, |s, j| s | 1 << owner[j]);
            for i in Bits(all & !inside) {
                if ctx.remove(usize::from(at[i]), digits).is_err() {
                    dead = true;
                    return true;
                }
            }
            false
        });
        if dead {
            return Err(Dead);
        }
    }
    let mut places = [0u64; 64];
    for (i, &m) in masks.iter().enumerate() {
        for v in Bits(m) {
            places[v] |= 1 << i;
        }
    }
    count = 0;
    for v in Bits(union) {
        if places[v].count_ones() as usize <= top {
            items[count] = places[v];
            owner[count] = v as u8;
            count += 1;
        }
    }
    for size in 2..=top {
        combos(&items[..count], size, |members, cells| {
            if (cells.count_ones() as usize) < size {
                dead = true;
                return true;
            }
            let digits = Bits(members).fold(0u64, |s, j| s | 1 << owner[j]);
            for i in Bits(cells) {
                if ctx.remove(usize::from(at[i]), !digits).is_err() {
                    dead = true;
                    return true;
                }
            }
            false
        });
        if dead {
            return Err(Dead);
        }
    }
    Ok(())
}

/// The digits that occur in exactly one of `parts`, for each part.
fn only_in(parts: &[u64], out: &mut [u64]) {
    let mut once = 0u64;
    let mut multi = 0u64;
    for &p in parts {
        multi |= once & p;
        once |= p;
    }
    for (o, &p) in out.iter_mut().zip(parts) {
        *o = p & !multi;
    }
}

/// Removes `digits` from the cells of `line` outside its segment `skip`
/// (the `n` cells it shares with one box).
#[inline(always)]
fn remove_outside_segment(
    ctx: &mut Ctx<'_>,
    line: &[u16],
    n: usize,
    skip: usize,
    digits: u64,
) -> Result<(), Dead> {
    for (seg, cells) in line.chunks_exact(n).enumerate() {
        if seg != skip {
            for &c in cells {
                ctx.remove(usize::from(c), digits)?;
            }
        }
    }
    Ok(())
}

/// Pointing when `unit` is a box, claiming when it is a line. Removes only
/// outside `unit`. (Loops walk segments rather than dividing indices: a
/// division per cell cost a fifth of the whole propagation.)
fn box_line(geo: &Geometry, ctx: &mut Ctx<'_>, unit: usize) -> Result<(), Dead> {
    let s = geo.side;
    let n = geo.box_side;
    let cells = geo.unit_cells(unit);
    let mut parts = [0u64; 8];
    let mut only = [0u64; 8];
    if unit >= 2 * s {
        let b = unit - 2 * s;
        let (band, stack) = (b / n, b % n);
        for (part, row) in parts.iter_mut().zip(cells.chunks_exact(n)) {
            *part = row.iter().fold(0, |u, &c| u | ctx.cands[usize::from(c)]);
        }
        only_in(&parts[..n], &mut only[..n]);
        for (i, &digits) in only[..n].iter().enumerate() {
            if digits != 0 {
                let line = geo.unit_cells(band * n + i);
                remove_outside_segment(ctx, line, n, stack, digits)?;
            }
        }
        parts = [0; 8];
        for row in cells.chunks_exact(n) {
            for (part, &c) in parts.iter_mut().zip(row) {
                *part |= ctx.cands[usize::from(c)];
            }
        }
        only_in(&parts[..n], &mut only[..n]);
        for (j, &digits) in only[..n].iter().enumerate() {
            if digits != 0 {
                let line = geo.unit_cells(s + stack * n + j);
                remove_outside_segment(ctx, line, n, band, digits)?;
            }
        }
    } else {
        let is_row = unit < s;
        let index = if is_row { unit } else { unit - s };
        for (part, seg) in parts.iter_mut().zip(cells.chunks_exact(n)) {
            *part = seg.iter().fold(0, |u, &c| u | ctx.cands[usize::from(c)]);
        }
        only_in(&parts[..n], &mut only[..n]);
        let (outer, inner) = (index / n, index % n);
        for (j, &digits) in only[..n].iter().enumerate() {
            if digits == 0 {
                continue;
            }
            if is_row {
                // Box rows other than this one.
                let box_cells = geo.unit_cells(2 * s + outer * n + j);
                remove_outside_segment(ctx, box_cells, n, inner, digits)?;
            } else {
                // Box columns other than this one.
                let box_cells = geo.unit_cells(2 * s + j * n + outer);
                for row in box_cells.chunks_exact(n) {
                    for (col, &c) in row.iter().enumerate() {
                        if col != inner {
                            ctx.remove(usize::from(c), digits)?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Grows a matching by one edge from the unmatched cell `root` along an
/// augmenting path found breadth first; false if there is none.
fn augment(
    masks: &[u64],
    root: usize,
    cell_digit: &mut [u8; 64],
    digit_cell: &mut [u8; 64],
    used: &mut u64,
) -> bool {
    // parent[v]: the cell from which digit v was reached.
    let mut parent = [0u8; 64];
    let mut queue = [0u8; 64];
    queue[0] = root as u8;
    let (mut head, mut tail) = (0, 1);
    let mut seen = 0u64;
    while head < tail {
        let x = usize::from(queue[head]);
        head += 1;
        let new = masks[x] & !seen;
        seen |= new;
        let free = new & !*used;
        if free != 0 {
            let mut v = free.trailing_zeros() as usize;
            *used |= 1 << v;
            let mut x = x;
            loop {
                let old = usize::from(cell_digit[x]);
                cell_digit[x] = v as u8;
                digit_cell[v] = x as u8;
                if x == root {
                    return true;
                }
                v = old;
                x = usize::from(parent[v]);
            }
        }
        for v in Bits(new) {
            parent[v] = x as u8;
            // Each matched cell is reached through its own digit only, so
            // it enters the queue once.
            queue[tail] = digit_cell[v];
            tail += 1;
        }
    }
    false
}

/// [`Rules::layers`]: for each digit, matches the rows that still miss it
/// to the columns that still miss it, removing the digit from every cell
/// outside every perfect matching; says whether it removed anything.
fn settle_layers(geo: &Geometry, ctx: &mut Ctx<'_>) -> Result<bool, Dead> {
    let side = geo.side();
    let mut changed = false;
    let mut masks = [0u64; 64];
    let mut rows = [0u8; 64];
    for digit in 0..side {
        let bit = 1u64 << digit;
        let mut k = 0;
        let mut columns = 0u64;
        for row in 0..side {
            let cells = &ctx.cands[row * side..(row + 1) * side];
            let mask = cells
                .iter()
                .enumerate()
                .filter(|&(_, &m)| m & bit != 0)
                .fold(0u64, |mask, (column, _)| mask | 1 << column);
            if mask != 0 {
                masks[k] = mask;
                rows[k] = row as u8;
                k += 1;
                columns |= mask;
            }
        }
        // Rows missing the digit and columns missing it, one to one.
        if columns.count_ones() as usize != k {
            return Err(Dead);
        }
        let before = masks;
        if k > 0 && regin(&mut masks[..k])? {
            for i in 0..k {
                for column in Bits(before[i] & !masks[i]) {
                    ctx.remove(usize::from(rows[i]) * side + column, bit)?;
                    changed = true;
                }
            }
        }
    }
    Ok(changed)
}

/// Narrows the masks of one unit's unsolved cells (at most 64, together
/// holding as many digits as there are cells) to the (cell, digit) pairs
/// that lie in some perfect matching, and says whether that removed
/// anything; `Err(Dead)` when there is no perfect matching.
///
/// With a perfect matching M, a pair (x, v) outside M is in another one
/// iff the cell holding v in M can reach x in the graph "cell y → cell z
/// when y can take z's digit", i.e. iff they share a strongly connected
/// component. The graph is kept on digits (each matched to one cell) so
/// that a node's successors are simply its cell's mask.
fn regin(masks: &mut [u64]) -> Result<bool, Dead> {
    let k = masks.len();
    debug_assert!(k <= 64);
    let mut cell_digit = [0u8; 64];
    let mut digit_cell = [0u8; 64];
    let mut used = 0u64;
    let mut unmatched = 0u64;
    for (i, &m) in masks.iter().enumerate() {
        let free = m & !used;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            cell_digit[i] = v as u8;
            digit_cell[v] = i as u8;
            used |= 1 << v;
        } else {
            unmatched |= 1 << i;
        }
    }
    for root in Bits(unmatched) {
        if !augment(masks, root, &mut cell_digit, &mut digit_cell, &mut used) {
            return Err(Dead);
        }
    }
    // succ[v]: the digits the cell holding v could take instead.
    let mut succ = [0u64; 64];
    for (i, &m) in masks.iter().enumerate() {
        succ[usize::from(cell_digit[i])] = m;
    }
    let mut component = [0u64; 64];
    let mut left = used;
    while left != 0 {
        let root = left.trailing_zeros() as usize;
        // Found components cannot be on a cycle through `root`, so the
        // search stays among the others.
        let mut reach = 1u64 << root;
        let mut frontier = reach;
        while frontier != 0 {
            let next = Bits(frontier).fold(0, |u, v| u | succ[v]) & left & !reach;
            reach |= next;
            frontier = next;
        }
        let mut comp = 1u64 << root;
        loop {
            let before = comp;
            for v in Bits(reach & !comp) {
                if succ[v] & comp != 0 {
                    comp |= 1 << v;
                }
            }
            if comp == before {
                break;
            }
        }
        if comp == used {
            // Most units of a search state are one component: nothing to
            // remove.
            return Ok(false);
        }
        for v in Bits(comp) {
            component[v] = comp;
        }
        left &= !comp;
    }
    let mut changed = false;
    for (i, m) in masks.iter_mut().enumerate() {
        let kept = *m & component[usize::from(cell_digit[i])];
        changed |= kept != *m;
        *m = kept;
    }
    Ok(changed)
}

/// The candidates of a puzzle: for each empty cell the digits that no
/// given in its row, column or box holds; 0 for given cells. A digit
/// outside `1..=s` makes its cell a given that rules nothing out.
///
/// # Panics
/// If `cells` does not have one entry per cell.
pub fn candidates(geometry: &Geometry, cells: &[u8]) -> Vec<u64> {
    let s = geometry.side;
    assert_eq!(cells.len(), s * s, "one entry per cell");
    let mut seen = vec![0u64; geometry.units()];
    for (cell, &d) in cells.iter().enumerate() {
        if d != 0 && usize::from(d) <= s {
            for u in geometry.cell_units(cell) {
                seen[u] |= bit(d);
            }
        }
    }
    let full = full_mask(s);
    cells
        .iter()
        .enumerate()
        .map(|(cell, &d)| {
            if d != 0 {
                0
            } else {
                let [r, c, b] = geometry.cell_units(cell);
                full & !(seen[r] | seen[c] | seen[b])
            }
        })
        .collect()
}

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
            .or_else(|| (2..=4).find_map(|size| self.naked(size).or_else(|| self.hidden(size))));
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

    fn pointing(&self) -> Option<Step> {
        let geo = self.geo;
        let s = geo.side;
        (0..s).find_map(|b| {
            let box_unit = 2 * s + b;
            let open = self.open(box_unit);
            let union = open.iter().fold(0, |u, &(_, m)| u | m);
            Bits(union).find_map(|v| {
                let places: Vec<usize> = open
                    .iter()
                    .filter(|&&(_, m)| m & (1 << v) != 0)
                    .map(|&(c, _)| c)
                    .collect();
                let row = places[0] / s;
                let col = places[0] % s;
                let lines = [
                    (places.iter().all(|&c| c / s == row), row),
                    (places.iter().all(|&c| c % s == col), s + col),
                ];
                lines.into_iter().find_map(|(one, line)| {
                    if !one {
                        return None;
                    }
                    let outside = geo
                        .unit_cells(line)
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| geo.cell_units(c)[2] != box_unit);
                    let removed = self.hits(outside, 1 << v);
                    (!removed.is_empty()).then(|| Step::Eliminate {
                        removed,
                        reason: Reason::Pointing {
                            box_unit,
                            line,
                            digit: v as u8 + 1,
                        },
                    })
                })
            })
        })
    }

    fn claiming(&self) -> Option<Step> {
        let geo = self.geo;
        let s = geo.side;
        (0..2 * s).find_map(|line| {
            let open = self.open(line);
            let union = open.iter().fold(0, |u, &(_, m)| u | m);
            Bits(union).find_map(|v| {
                let mut boxes = open
                    .iter()
                    .filter(|&&(_, m)| m & (1 << v) != 0)
                    .map(|&(c, _)| geo.cell_units(c)[2]);
                let box_unit = boxes.next()?;
                if !boxes.all(|b| b == box_unit) {
                    return None;
                }
                let outside = geo
                    .unit_cells(box_unit)
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| !geo.cell_units(c).contains(&line));
                let removed = self.hits(outside, 1 << v);
                (!removed.is_empty()).then(|| Step::Eliminate {
                    removed,
                    reason: Reason::Claiming {
                        line,
                        box_unit,
                        digit: v as u8 + 1,
                    },
                })
            })
        })
    }

    fn naked(&self, size: usize) -> Option<Step> {
        (0..self.geo.units()).find_map(|unit| {
            let open = self.open(unit);
            let items: Vec<(usize, u64)> = open
                .iter()
                .copied()
                .filter(|&(_, m)| (2..=size).contains(&(m.count_ones() as usize)))
                .collect();
            let masks: Vec<u64> = items.iter().map(|&(_, m)| m).collect();
            let mut step = None;
            combos(&masks, size, |members, digits| {
                if digits.count_ones() as usize != size {
                    return false;
                }
                let cells: Vec<usize> = Bits(members).map(|j| items[j].0).collect();
                let others = open.iter().map(|&(c, _)| c).filter(|c| !cells.contains(c));
                let removed = self.hits(others, digits);
                if removed.is_empty() {
                    return false;
                }
                step = Some(Step::Eliminate {
                    removed,
                    reason: Reason::NakedSubset {
                        unit,
                        cells,
                        digits: digits_of(digits),
                    },
                });
                true
            });
            step
        })
    }

    fn hidden(&self, size: usize) -> Option<Step> {
        (0..self.geo.units()).find_map(|unit| {
            let open = self.open(unit);
            let union = open.iter().fold(0, |u, &(_, m)| u | m);
            // Places as bit sets of indices into `open`.
            let items: Vec<(usize, u64)> = Bits(union)
                .map(|v| {
                    let places = open
                        .iter()
                        .enumerate()
                        .filter(|(_, &(_, m))| m & (1 << v) != 0)
                        .fold(0u64, |p, (i, _)| p | 1 << i);
                    (v, places)
                })
                .filter(|&(_, p)| (2..=size).contains(&(p.count_ones() as usize)))
                .collect();
            let places: Vec<u64> = items.iter().map(|&(_, p)| p).collect();
            let mut step = None;
            combos(&places, size, |members, where_| {
                if where_.count_ones() as usize != size {
                    return false;
                }
                let digits = Bits(members).fold(0u64, |d, j| d | 1 << items[j].0);
                let cells: Vec<usize> = Bits(where_).map(|i| open[i].0).collect();
                let removed = self.hits(cells.iter().copied(), !digits);
                if removed.is_empty() {
                    return false;
                }
                step = Some(Step::Eliminate {
                    removed,
                    reason: Reason::HiddenSubset {
                        unit,
                        cells,
                        digits: digits_of(digits),
                    },
                });
                true
            });
            step
        })
    }

    /// The first unit where all-different removes something; `Err(unit)`
    /// when a unit cannot be filled at all.
    fn matching(&self) -> Result<Option<Step>, usize> {
        for unit in 0..self.geo.units() {
            let open = self.open(unit);
            let before: Vec<u64> = open.iter().map(|&(_, m)| m).collect();
            let mut after = before.clone();
            if regin(&mut after).is_err() {
                return Err(unit);
            }
            let mut removed: Vec<(usize, u8)> = Vec::new();
            for (&(c, _), (&b, &a)) in open.iter().zip(before.iter().zip(&after)) {
                removed.extend(digits_of(b & !a).into_iter().map(|d| (c, d)));
            }
            if !removed.is_empty() {
                removed.sort_unstable();
                return Ok(Some(Step::Eliminate {
                    removed,
                    reason: Reason::Matching { unit },
                }));
            }
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

#[cfg(test)]
mod tests {
    use rand::rngs::ChaCha8Rng;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    use super::*;

    fn geo(n: usize) -> Geometry {
        Geometry::new(Size::new(n).unwrap())
    }

    /// The row, column and box of a cell, by arithmetic (independent of
    /// `Geometry`).
    fn rcb(n: usize, cell: usize) -> (usize, usize, usize) {
        let s = n * n;
        let (r, c) = (cell / s, cell % s);
        (r, c, (r / n) * n + c / n)
    }

    fn sees(n: usize, a: usize, b: usize) -> bool {
        let (ra, ca, ba) = rcb(n, a);
        let (rb, cb, bb) = rcb(n, b);
        a != b && (ra == rb || ca == cb || ba == bb)
    }

    /// Whether `digit` can go in `cell` of `grid` without a clash.
    fn fits(n: usize, grid: &[u8], cell: usize, digit: u8) -> bool {
        (0..grid.len()).all(|o| !(sees(n, cell, o) && grid[o] == digit))
    }

    /// A full valid grid by arithmetic: every row, column and box holds
    /// each digit once.
    fn valid(n: usize, grid: &[u8]) -> bool {
        let s = n * n;
        let mut seen = vec![0u64; 3 * s];
        for (cell, &d) in grid.iter().enumerate() {
            if d == 0 || usize::from(d) > s {
                return false;
            }
            let (r, c, b) = rcb(n, cell);
            for u in [r, s + c, 2 * s + b] {
                if seen[u] & bit(d) != 0 {
                    return false;
                }
                seen[u] |= bit(d);
            }
        }
        true
    }

    /// A random full grid: cells in order, digits in a random order,
    /// backtracking on dead ends.
    fn random_grid(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
        fn fill(n: usize, grid: &mut [u8], cell: usize, rng: &mut ChaCha8Rng) -> bool {
            if cell == grid.len() {
                return true;
            }
            let mut digits: Vec<u8> = (1..=(n * n) as u8).collect();
            digits.shuffle(rng);
            for d in digits {
                if fits(n, grid, cell, d) {
                    grid[cell] = d;
                    if fill(n, grid, cell + 1, rng) {
                        return true;
                    }
                    grid[cell] = 0;
                }
            }
            false
        }
        let mut grid = vec![0; n.pow(4)];
        assert!(fill(n, &mut grid, 0, rng));
        grid
    }

    /// A full grid of any size: the usual pattern with digits relabelled
    /// and rows and columns shuffled inside bands and stacks.
    fn pattern_grid(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
        let s = n * n;
        let mut label: Vec<u8> = (1..=s as u8).collect();
        label.shuffle(rng);
        let order = |rng: &mut ChaCha8Rng| {
            let mut bands: Vec<usize> = (0..n).collect();
            bands.shuffle(rng);
            let mut out = Vec::new();
            for b in bands {
                let mut inner: Vec<usize> = (0..n).collect();
                inner.shuffle(rng);
                out.extend(inner.into_iter().map(|i| b * n + i));
            }
            out
        };
        let rows = order(rng);
        let cols = order(rng);
        let mut grid = vec![0; s * s];
        for r in 0..s {
            for c in 0..s {
                let (pr, pc) = (rows[r], cols[c]);
                grid[r * s + c] = label[(n * (pr % n) + pr / n + pc) % s];
            }
        }
        assert!(valid(n, &grid));
        grid
    }

    /// `grid` with each cell kept with probability `keep`.
    fn blank(grid: &[u8], keep: f64, rng: &mut ChaCha8Rng) -> Vec<u8> {
        grid.iter()
            .map(|&d| if rng.random_bool(keep) { d } else { 0 })
            .collect()
    }

    fn parse(text: &str) -> Vec<u8> {
        text.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    /// Up to `limit` solutions of `grid` whose empty cells take digits of
    /// `masks` only, by plain backtracking (fewest options first).
    fn solutions(n: usize, grid: &[u8], masks: &[u64], limit: usize) -> Vec<Vec<u8>> {
        fn go(n: usize, grid: &mut [u8], masks: &[u64], limit: usize, out: &mut Vec<Vec<u8>>) {
            if out.len() >= limit {
                return;
            }
            let mut best: Option<(usize, Vec<u8>)> = None;
            for cell in 0..grid.len() {
                if grid[cell] != 0 {
                    continue;
                }
                let options: Vec<u8> = digits_of(masks[cell])
                    .into_iter()
                    .filter(|&d| fits(n, grid, cell, d))
                    .collect();
                if best.as_ref().is_none_or(|b| options.len() < b.1.len()) {
                    let stop = options.is_empty();
                    best = Some((cell, options));
                    if stop {
                        break;
                    }
                }
            }
            let Some((cell, options)) = best else {
                out.push(grid.to_vec());
                return;
            };
            for d in options {
                grid[cell] = d;
                go(n, grid, masks, limit, out);
                grid[cell] = 0;
            }
        }
        // Givens must not clash among themselves either.
        for a in 0..grid.len() {
            if grid[a] != 0 && !fits(n, grid, a, grid[a]) {
                return Vec::new();
            }
        }
        let mut out = Vec::new();
        go(n, &mut grid.to_vec(), masks, limit, &mut out);
        out
    }

    /// Candidates by arithmetic, to check `candidates` against.
    fn plain_candidates(n: usize, grid: &[u8]) -> Vec<u64> {
        (0..grid.len())
            .map(|cell| {
                if grid[cell] != 0 {
                    return 0;
                }
                (1..=(n * n) as u8)
                    .filter(|&d| fits(n, grid, cell, d))
                    .fold(0, |m, d| m | bit(d))
            })
            .collect()
    }

    /// Runs `propagate`, checking that what it reports is exactly what it
    /// removed, each once; returns the outcome and the removals.
    fn run(g: &Geometry, rules: Rules, cands: &mut [u64]) -> (Result<(), Dead>, Vec<(usize, u8)>) {
        let before = cands.to_vec();
        let mut removed = Vec::new();
        let result =
            Propagation::new(g).propagate(g, rules, cands, &mut |c, d| removed.push((c, d)));
        let mut expect = before.clone();
        for &(c, d) in &removed {
            assert!(usize::from(d) >= 1 && usize::from(d) <= g.side());
            assert!(expect[c] & bit(d) != 0, "{c} {d} reported twice or absent");
            expect[c] &= !bit(d);
        }
        assert_eq!(expect, cands, "reports match the masks");
        (result, removed)
    }

    /// Every preset and every rule alone.
    fn rule_sets() -> Vec<Rules> {
        let none = Rules::NONE;
        vec![
            none,
            Rules::BASIC,
            Rules::FULL,
            Rules {
                singles: true,
                ..none
            },
            Rules {
                box_line: true,
                ..none
            },
            Rules { subsets: 2, ..none },
            Rules { subsets: 3, ..none },
            Rules { subsets: 4, ..none },
            Rules {
                matching: true,
                ..none
            },
            Rules {
                layers: true,
                ..none
            },
            Rules {
                singles: true,
                subsets: 4,
                matching: true,
                box_line: true,
                layers: true,
            },
        ]
    }

    #[test]
    fn geometry_matches_arithmetic() {
        for n in 2..=8 {
            let g = geo(n);
            let s = n * n;
            assert_eq!(g.units(), 3 * s);
            for unit in 0..g.units() {
                let cells = g.unit_cells(unit);
                assert_eq!(cells.len(), s);
                for &c in cells {
                    let (r, col, b) = rcb(n, usize::from(c));
                    let here = [r, s + col, 2 * s + b];
                    assert!(here.contains(&unit));
                    assert_eq!(g.cell_units(usize::from(c)), here);
                }
                let mut sorted = cells.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), s);
            }
        }
        let g = geo(3);
        assert_eq!(g.unit_name(2), "row 3");
        assert_eq!(g.unit_name(9 + 4), "column 5");
        assert_eq!(g.unit_name(18 + 1), "box 2");
        assert_eq!(g.cell_name(2 * 9 + 4), "r3c5");
        assert_eq!(g.unit_cells(18 + 1)[..4], [3, 4, 5, 12]);
    }

    #[test]
    fn candidates_match_arithmetic() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for n in [2, 3, 4] {
            let g = geo(n);
            for _ in 0..5 {
                let puzzle = blank(&pattern_grid(n, &mut rng), 0.4, &mut rng);
                assert_eq!(candidates(&g, &puzzle), plain_candidates(n, &puzzle));
            }
        }
    }

    /// Rules never remove the digit of a known solution, nor call a
    /// solvable state dead, on random 4×4 and 9×9 puzzles.
    #[test]
    fn sound_on_random_puzzles() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for n in [2, 3] {
            let g = geo(n);
            for round in 0..60 {
                let solution = random_grid(n, &mut rng);
                let keep = [0.0, 0.15, 0.3, 0.45, 0.6][round % 5];
                let puzzle = blank(&solution, keep, &mut rng);
                for rules in rule_sets() {
                    let mut cands = candidates(&g, &puzzle);
                    let (result, removed) = run(&g, rules, &mut cands);
                    assert_eq!(result, Ok(()), "{rules:?} on {puzzle:?}");
                    for &(c, d) in &removed {
                        assert_ne!(solution[c], d, "{rules:?} removed the solution");
                    }
                    for (c, &m) in cands.iter().enumerate() {
                        assert!(puzzle[c] != 0 || m & bit(solution[c]) != 0);
                    }
                }
            }
        }
    }

    /// Larger sizes, up to 64×64 (all 64 bits in use).
    #[test]
    fn sound_on_every_size() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in 2..=8 {
            let g = geo(n);
            let mut empty = vec![full_mask(n * n); n.pow(4)];
            let (result, removed) = run(&g, Rules::FULL, &mut empty);
            assert_eq!(result, Ok(()));
            assert!(removed.is_empty());
            let solution = pattern_grid(n, &mut rng);
            for keep in [0.3, 0.6] {
                let puzzle = blank(&solution, keep, &mut rng);
                for rules in [Rules::FULL, Rules::BASIC] {
                    let mut cands = candidates(&g, &puzzle);
                    let (result, _) = run(&g, rules, &mut cands);
                    assert_eq!(result, Ok(()), "{n} {rules:?}");
                    for (c, &m) in cands.iter().enumerate() {
                        assert!(puzzle[c] != 0 || m & bit(solution[c]) != 0);
                    }
                    let (again, removed) = run(&g, rules, &mut cands);
                    assert_eq!(again, Ok(()));
                    assert!(removed.is_empty(), "{n} {rules:?} not a fixpoint");
                }
            }
        }
    }

    /// The perfect matchings of one unit by brute force: for each cell the
    /// digits it takes in some perfect matching, or `None` without any.
    fn matchable(masks: &[u64]) -> Option<Vec<u64>> {
        fn go(masks: &[u64], i: usize, used: u64, pick: &mut Vec<usize>, out: &mut [u64]) {
            if i == masks.len() {
                for (o, &v) in out.iter_mut().zip(pick.iter()) {
                    *o |= 1 << v;
                }
                return;
            }
            for v in Bits(masks[i] & !used) {
                pick.push(v);
                go(masks, i + 1, used | 1 << v, pick, out);
                pick.pop();
            }
        }
        let union = masks.iter().fold(0, |u, &m| u | m);
        if union.count_ones() as usize != masks.len() {
            return None;
        }
        let mut out = vec![0; masks.len()];
        go(masks, 0, 0, &mut Vec::new(), &mut out);
        (out.iter().all(|&m| m != 0) || masks.is_empty()).then_some(out)
    }

    /// `regin` keeps exactly the pairs of perfect matchings, and fails
    /// exactly when there is none, on random small graphs whose digits are
    /// spread over all 64 bits.
    #[test]
    fn regin_is_exactly_domain_consistent() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for round in 0..20_000 {
            let k = rng.random_range(1..=7usize);
            let mut bits: Vec<usize> = (0..64).collect();
            bits.shuffle(&mut rng);
            let digits = &bits[..k];
            let density = [0.2, 0.35, 0.5, 0.8][round % 4];
            let masks: Vec<u64> = (0..k)
                .map(|_| {
                    let m = digits
                        .iter()
                        .filter(|_| rng.random_bool(density))
                        .fold(0u64, |m, &b| m | 1 << b);
                    if m == 0 {
                        1 << digits[rng.random_range(0..k)]
                    } else {
                        m
                    }
                })
                .collect();
            let mut got = masks.clone();
            match (matchable(&masks), regin(&mut got)) {
                (None, Err(Dead)) => {}
                (Some(want), Ok(changed)) => {
                    assert_eq!(got, want, "{masks:x?}");
                    assert_eq!(changed, want != masks);
                }
                (want, result) => panic!("{masks:x?}: {want:x?} vs {result:?}"),
            }
        }
        // A full 64-cell unit: a chain that forces everything.
        let masks: Vec<u64> = (0..64)
            .map(|i| (1u64 << i) | (1u64 << ((i + 1) % 64)))
            .collect();
        let mut got = masks.clone();
        assert_eq!(regin(&mut got), Ok(false));
        assert_eq!(got, masks, "a single cycle keeps every edge");
        let mut masks = masks;
        masks[63] = 1 << 63;
        let mut got = masks.clone();
        assert_eq!(regin(&mut got), Ok(true));
        assert!(got.iter().enumerate().all(|(i, &m)| m == 1 << i));
    }

    /// Random 4×4 states, some with many solutions and some with extra
    /// candidates struck out at random, against every solution by brute
    /// force.
    #[test]
    fn sound_and_complete_against_brute_force_on_4x4() {
        let n = 2;
        let g = geo(n);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut dead_seen = 0;
        for round in 0..1500 {
            let solution = random_grid(n, &mut rng);
            let keep = [0.0, 0.1, 0.2, 0.3, 0.5][round % 5];
            let puzzle = blank(&solution, keep, &mut rng);
            let mut state = candidates(&g, &puzzle);
            let strike = [0.0, 0.2, 0.4][round % 3];
            for m in state.iter_mut() {
                for b in Bits(*m) {
                    if m.count_ones() > 1 && rng.random_bool(strike) {
                        *m &= !(1 << b);
                    }
                }
            }
            let all = solutions(n, &puzzle, &state, usize::MAX);
            let mut used = [0u64; 16];
            for sol in &all {
                for c in 0..16 {
                    if puzzle[c] == 0 {
                        used[c] |= bit(sol[c]);
                    }
                }
            }
            for rules in rule_sets() {
                let mut cands = state.clone();
                let (result, _) = run(&g, rules, &mut cands);
                if result.is_err() {
                    assert!(all.is_empty(), "{rules:?} killed a live state {state:?}");
                    dead_seen += 1;
                    continue;
                }
                for c in 0..16 {
                    assert_eq!(used[c] & !cands[c], 0, "{rules:?} on {state:?}");
                }
                let (again, removed) = run(&g, rules, &mut cands);
                assert!(again.is_ok() && removed.is_empty(), "{rules:?} fixpoint");
                if rules.matching {
                    for unit in 0..g.units() {
                        let masks: Vec<u64> = g
                            .unit_cells(unit)
                            .iter()
                            .map(|&c| cands[usize::from(c)])
                            .filter(|&m| m != 0)
                            .collect();
                        assert_eq!(matchable(&masks), Some(masks.clone()), "{rules:?}");
                    }
                }
            }
        }
        assert!(dead_seen > 0, "some states should be dead");
    }

    /// The fixpoint does not depend on the order rules run in.
    #[test]
    fn fixpoint_is_order_independent() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let none = Rules::NONE;
        let parts = [
            Rules {
                singles: true,
                ..none
            },
            Rules {
                box_line: true,
                ..none
            },
            Rules { subsets: 3, ..none },
            Rules {
                matching: true,
                ..none
            },
        ];
        for n in [2, 3, 4] {
            let g = geo(n);
            for round in 0..40 {
                let solution = if n == 4 {
                    pattern_grid(n, &mut rng)
                } else {
                    random_grid(n, &mut rng)
                };
                let puzzle = blank(&solution, [0.2, 0.3, 0.4][round % 3], &mut rng);
                for target in [Rules::BASIC, Rules::FULL] {
                    let mut direct = candidates(&g, &puzzle);
                    run(&g, target, &mut direct).0.unwrap();
                    // Only rules the target includes (matching implies
                    // subsets) can go first without going beyond it.
                    for first in parts.into_iter().filter(|p| target.matching || !p.matching) {
                        let mut staged = candidates(&g, &puzzle);
                        run(&g, first, &mut staged).0.unwrap();
                        run(&g, target, &mut staged).0.unwrap();
                        assert_eq!(staged, direct, "{first:?} then {target:?}");
                    }
                }
                // Everything, in any order, reaches the same masks.
                let all = Rules {
                    subsets: 4,
                    ..Rules::FULL
                };
                let mut direct = candidates(&g, &puzzle);
                run(&g, all, &mut direct).0.unwrap();
                let mut order = parts.to_vec();
                order.shuffle(&mut rng);
                let mut staged = candidates(&g, &puzzle);
                for _ in 0..4 {
                    for &rules in &order {
                        run(&g, rules, &mut staged).0.unwrap();
                    }
                }
                run(&g, all, &mut staged).0.unwrap();
                assert_eq!(staged, direct);
            }
        }
    }

    #[test]
    fn clashes_are_dead() {
        let g = geo(3);
        let mut states: Vec<Vec<u64>> = Vec::new();
        // Two 5s in row 1.
        let mut grid = vec![0u8; 81];
        grid[0] = 5;
        grid[8] = 5;
        states.push(candidates(&g, &grid));
        // r1c1 sees 1..=8 in its row and 9 in its column: no candidate, so
        // it looks solved while row 1 still misses a digit.
        let mut grid = vec![0u8; 81];
        grid[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        grid[9 * 4] = 9;
        states.push(candidates(&g, &grid));
        // Two cells of column 1 with the same single candidate.
        let mut cands = vec![full_mask(9); 81];
        cands[0] = bit(4);
        cands[9 * 5] = bit(4);
        states.push(cands);
        // Three cells of box 1 sharing two digits.
        let mut cands = vec![full_mask(9); 81];
        for c in [0, 1, 10] {
            cands[c] = bit(1) | bit(2);
        }
        states.push(cands);
        // Digit 9 with no place in row 3 although no cell is solved.
        let mut cands = vec![full_mask(9); 81];
        for m in &mut cands[18..27] {
            *m &= !bit(9);
        }
        states.push(cands);
        for state in states {
            let mut cands = state.clone();
            assert_eq!(run(&g, Rules::FULL, &mut cands).0, Err(Dead), "{state:?}");
        }
        let mut cands = vec![full_mask(9); 81];
        cands[0] = bit(4);
        cands[9 * 5] = bit(4);
        assert_eq!(run(&g, Rules::BASIC, &mut cands).0, Err(Dead));
    }

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const EASY_SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    const EULER: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    /// Replays an explanation on masks kept by arithmetic, checking that
    /// each step acts on real candidates, that its reason holds, and that
    /// nothing contradicts `solution`.
    fn replay(n: usize, puzzle: &[u8], explanation: &Explanation, solution: Option<&[u8]>) {
        let s = n * n;
        let g = geo(n);
        let mut grid = puzzle.to_vec();
        let mut masks = plain_candidates(n, puzzle);
        let places = |grid: &[u8], masks: &[u64], unit: usize, d: u8| -> Vec<usize> {
            g.unit_cells(unit)
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| grid[c] == 0 && masks[c] & bit(d) != 0)
                .collect()
        };
        for step in &explanation.steps {
            match step {
                Step::Place {
                    cell,
                    digit,
                    reason,
                } => {
                    let (cell, d) = (*cell, *digit);
                    assert_eq!(grid[cell], 0);
                    assert!(masks[cell] & bit(d) != 0, "{step:?}");
                    match reason {
                        Reason::NakedSingle => assert_eq!(masks[cell], bit(d)),
                        Reason::HiddenSingle { unit } => {
                            assert_eq!(places(&grid, &masks, *unit, d), [cell], "{step:?}")
                        }
                        other => panic!("placed by {other:?}"),
                    }
                    if let Some(sol) = solution {
                        assert_eq!(sol[cell], d, "{}", step.describe(&g));
                    }
                    grid[cell] = d;
                    masks[cell] = 0;
                    for (o, m) in masks.iter_mut().enumerate() {
                        if sees(n, cell, o) {
                            *m &= !bit(d);
                        }
                    }
                }
                Step::Eliminate { removed, reason } => {
                    assert!(!removed.is_empty());
                    let in_unit = |unit: usize, c: u16| g.unit_cells(unit).contains(&c);
                    for &(c, d) in removed {
                        assert_eq!(grid[c], 0);
                        assert!(masks[c] & bit(d) != 0, "{step:?}");
                        if let Some(sol) = solution {
                            assert_ne!(sol[c], d, "{}", step.describe(&g));
                        }
                        match reason {
                            Reason::Pointing {
                                box_unit,
                                line,
                                digit,
                            } => {
                                assert_eq!(d, *digit);
                                assert!(in_unit(*line, c as u16) && !in_unit(*box_unit, c as u16));
                                let there = places(&grid, &masks, *box_unit, d);
                                assert!(there.iter().all(|&p| in_unit(*line, p as u16)));
                            }
                            Reason::Claiming {
                                line,
                                box_unit,
                                digit,
                            } => {
                                assert_eq!(d, *digit);
                                assert!(in_unit(*box_unit, c as u16) && !in_unit(*line, c as u16));
                                let there = places(&grid, &masks, *line, d);
                                assert!(there.iter().all(|&p| in_unit(*box_unit, p as u16)));
                            }
                            Reason::NakedSubset {
                                unit,
                                cells,
                                digits,
                            } => {
                                assert_eq!(cells.len(), digits.len());
                                let held = cells.iter().fold(0, |u, &x| u | masks[x]);
                                assert_eq!(held, digits.iter().fold(0, |u, &x| u | bit(x)));
                                assert!(cells.iter().all(|&x| in_unit(*unit, x as u16)));
                                assert!(in_unit(*unit, c as u16) && !cells.contains(&c));
                                assert!(digits.contains(&d));
                            }
                            Reason::HiddenSubset {
                                unit,
                                cells,
                                digits,
                            } => {
                                assert_eq!(cells.len(), digits.len());
                                for &x in digits {
                                    let there = places(&grid, &masks, *unit, x);
                                    assert!(there.iter().all(|p| cells.contains(p)));
                                }
                                assert!(cells.contains(&c) && !digits.contains(&d));
                            }
                            Reason::Matching { unit } => assert!(in_unit(*unit, c as u16)),
                            other => panic!("eliminated by {other:?}"),
                        }
                    }
                    for &(c, d) in removed {
                        masks[c] &= !bit(d);
                    }
                }
            }
        }
        match &explanation.end {
            End::Solved(done) => {
                assert_eq!(done, &grid);
                assert!(valid(n, done));
                assert!(puzzle.iter().zip(done).all(|(&p, &d)| p == 0 || p == d));
            }
            End::Guess { cell, candidates } => {
                assert_eq!(grid[*cell], 0);
                assert_eq!(*candidates, digits_of(masks[*cell]));
                let fewest = (0..s * s)
                    .filter(|&c| grid[c] == 0)
                    .map(|c| masks[c].count_ones())
                    .min();
                assert_eq!(fewest, Some(candidates.len() as u32));
            }
            End::Contradiction { .. } => assert!(solution.is_none()),
        }
    }

    #[test]
    fn explains_easy_puzzles() {
        let g = geo(3);
        let puzzle = parse(EASY);
        let explanation = explain(&g, &puzzle);
        assert_eq!(explanation.end, End::Solved(parse(EASY_SOLUTION)));
        replay(3, &puzzle, &explanation, Some(&parse(EASY_SOLUTION)));
        let first = explanation.steps[0].describe(&g);
        assert!(
            first.contains(" = ") && first.contains(": the only "),
            "{first}"
        );
        assert_eq!(hint(&g, &puzzle), Some(explanation.steps[0].clone()));

        let puzzle = parse(EULER);
        let solution = solutions(3, &puzzle, &plain_candidates(3, &puzzle), 2);
        assert_eq!(solution.len(), 1);
        let explanation = explain(&g, &puzzle);
        assert_eq!(explanation.end, End::Solved(solution[0].clone()));
        replay(3, &puzzle, &explanation, Some(&solution[0]));

        assert_eq!(hint(&g, &parse(EASY_SOLUTION)), None);
        assert_eq!(
            explain(&g, &parse(EASY_SOLUTION)),
            Explanation {
                steps: Vec::new(),
                end: End::Solved(parse(EASY_SOLUTION))
            }
        );
    }

    #[test]
    fn explains_a_hard_puzzle_soundly() {
        let g = geo(3);
        let puzzle = parse(HARD);
        let all = solutions(3, &puzzle, &plain_candidates(3, &puzzle), 2);
        assert_eq!(all.len(), 1);
        let explanation = explain(&g, &puzzle);
        assert!(
            matches!(explanation.end, End::Solved(_) | End::Guess { .. }),
            "{:?}",
            explanation.end
        );
        replay(3, &puzzle, &explanation, Some(&all[0]));
    }

    /// Random puzzles of 4×4, 9×9 and 16×16, with one or many solutions:
    /// every step agrees with the grid they were made from.
    #[test]
    fn explains_random_puzzles_soundly() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut ends = [0; 3];
        let mut kinds = [0; 7];
        for (n, rounds, keeps) in [
            (2, 300, [0.1, 0.25, 0.4]),
            (3, 60, [0.3, 0.35, 0.45]),
            (4, 150, [0.4, 0.4, 0.45]),
        ] {
            let g = geo(n);
            for round in 0..rounds {
                let solution = if n == 4 {
                    pattern_grid(n, &mut rng)
                } else {
                    random_grid(n, &mut rng)
                };
                let puzzle = blank(&solution, keeps[round % 3], &mut rng);
                let explanation = explain(&g, &puzzle);
                replay(n, &puzzle, &explanation, Some(&solution));
                ends[match explanation.end {
                    End::Solved(_) => 0,
                    End::Guess { .. } => 1,
                    End::Contradiction { .. } => 2,
                }] += 1;
                for step in &explanation.steps {
                    assert!(!step.describe(&g).is_empty());
                    let (Step::Place { reason, .. } | Step::Eliminate { reason, .. }) = step;
                    kinds[match reason {
                        Reason::NakedSingle => 0,
                        Reason::HiddenSingle { .. } => 1,
                        Reason::Pointing { .. } => 2,
                        Reason::Claiming { .. } => 3,
                        Reason::NakedSubset { .. } => 4,
                        Reason::HiddenSubset { .. } => 5,
                        Reason::Matching { .. } => 6,
                    }] += 1;
                }
            }
        }
        // Every rule was met, so the replay checked each kind of reason.
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
        assert_eq!(ends[2], 0);
        assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
    }

    #[test]
    fn contradictions() {
        let g = geo(3);
        let mut puzzle = parse(EASY);
        puzzle[2] = 5;
        let explanation = explain(&g, &puzzle);
        assert!(explanation.steps.is_empty());
        assert_eq!(
            explanation.end,
            End::Contradiction {
                what: "5 appears twice in row 1".into()
            }
        );
        assert_eq!(hint(&g, &puzzle), None);
        let mut grid = vec![0u8; 81];
        grid[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        grid[9 * 4] = 9;
        assert_eq!(
            explain(&g, &grid).end,
            End::Contradiction {
                what: "r1c1 has no candidate left".into()
            }
        );
        // Givens that clash only after some steps.
        let mut puzzle = parse(EASY);
        puzzle[80] = 0;
        puzzle[79] = 0;
        puzzle[2] = 2; // the solution has 4 here
        let explanation = explain(&g, &puzzle);
        assert!(
            matches!(explanation.end, End::Contradiction { .. }),
            "{:?}",
            explanation.end
        );
        replay(3, &puzzle, &explanation, None);
    }

    #[test]
    fn descriptions() {
        let g = geo(3);
        let r3c5 = 2 * 9 + 4;
        let place = |reason| Step::Place {
            cell: r3c5,
            digit: 7,
            reason,
        };
        assert_eq!(
            place(Reason::HiddenSingle { unit: 18 + 1 }).describe(&g),
            "r3c5 = 7: the only place for 7 in box 2"
        );
        assert_eq!(
            place(Reason::NakedSingle).describe(&g),
            "r3c5 = 7: the only digit left in r3c5"
        );
        let pointing = Step::Eliminate {
            removed: vec![(1, 4), (2, 4)],
            reason: Reason::Pointing {
                box_unit: 18,
                line: 0,
                digit: 4,
            },
        };
        assert_eq!(
            pointing.describe(&g),
            "not 4 in r1c2, r1c3: in box 1, 4 can only go in row 1 (pointing)"
        );
        let naked = Step::Eliminate {
            removed: vec![(40, 3), (40, 8)],
            reason: Reason::NakedSubset {
                unit: 4,
                cells: vec![36, 42],
                digits: vec![3, 8],
            },
        };
        assert_eq!(
            naked.describe(&g),
            "not 3, 8 in r5c5: r5c1, r5c7 hold 3, 8 between them in row 5 (naked pair)"
        );
        let hidden = Step::Eliminate {
            removed: vec![(30, 2)],
            reason: Reason::HiddenSubset {
                unit: 3,
                cells: vec![30, 32],
                digits: vec![2, 6],
            },
        };
        assert_eq!(
            hidden.describe(&g),
            "not 2 in r4c4: r4c4 and r4c6 are the only places for 2, 6 in row 4 (hidden pair)"
        );
        let matching = Step::Eliminate {
            removed: vec![(11, 9)],
            reason: Reason::Matching { unit: 1 },
        };
        assert_eq!(
            matching.describe(&g),
            "not 9 in r2c3: row 2 cannot be completed otherwise (all-different)"
        );
        let triple = Step::Eliminate {
            removed: vec![(3, 1), (4, 1), (4, 2), (5, 1), (5, 2)],
            reason: Reason::HiddenSubset {
                unit: 0,
                cells: vec![0, 1, 2],
                digits: vec![3, 4, 5],
            },
        };
        assert_eq!(
            triple.describe(&g),
            "not 1 in r1c4; 1, 2 in r1c5, r1c6: r1c1, r1c2 and r1c3 are the only places \
             for 3, 4, 5 in row 1 (hidden triple)"
        );
        let letters = |d: u8| (b'A' + d - 1) as char;
        assert_eq!(
            pointing.describe_with(&g, &letters),
            "not D in r1c2, r1c3: in box 1, D can only go in row 1 (pointing)"
        );
        assert_eq!(
            place(Reason::HiddenSingle { unit: 18 + 1 }).describe_with(&g, &letters),
            "r3c5 = G: the only place for G in box 2"
        );
    }
}
