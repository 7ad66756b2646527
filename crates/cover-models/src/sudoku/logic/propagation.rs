//! Propagation: a chosen set of [`Rules`] run to a fixpoint on the
//! candidate masks of a search state, every removal reported, a dead end
//! as soon as one shows. What each rule finds is in `rules`; this module
//! owns the order they run in and the units still to look at.

use super::geometry::Geometry;
use super::masks::{is_single, Bits};
use super::rules::{
    confined_in_box, confined_in_line, gather, hidden_subsets, naked_subsets, regin, segment_box,
    unit_matching, Dead,
};

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
    /// A classic grid's three units per cell (empty for a variant).
    cell_units: &'a [[u8; 3]],
    geometry: &'a Geometry,
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
        if let Some(units) = self.cell_units.get(cell) {
            for &u in units {
                self.mark(usize::from(u));
            }
        } else {
            for &u in self.geometry.units_of(cell) {
                self.mark(usize::from(u));
            }
        }
        if left == 0 {
            Err(Dead)
        } else {
            Ok(())
        }
    }

    #[inline(always)]
    fn mark(&mut self, unit: usize) {
        let (word, b) = (unit >> 6, unit & 63);
        self.dirty[word] |= 1 << b;
        self.dirty[self.words + word] |= 1 << b;
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
        assert_eq!(cands.len(), geometry.cells(), "one mask per cell");
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
            geometry,
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
    if rules.box_line && geo.is_classic() {
        // Removes only outside `unit`, so the unit stays settled.
        box_line(geo, ctx, unit)?;
    }
    Ok(())
}

/// All-different on `unit`.
fn settle_matching(geo: &Geometry, ctx: &mut Ctx<'_>, unit: usize) -> Result<(), Dead> {
    let mut masks = [0u64; 64];
    let mut at = [0u16; 64];
    if let Some(k) = unit_matching(geo, ctx.cands, unit, &mut masks, &mut at)? {
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
    let mut dead = false;
    for size in 2..=top {
        naked_subsets(masks, size, |inside, digits| {
            if (digits.count_ones() as usize) < size {
                dead = true;
                return true;
            }
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
    for size in 2..=top {
        hidden_subsets(masks, union, size, |digits, cells| {
            if (cells.count_ones() as usize) < size {
                dead = true;
                return true;
            }
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
/// outside `unit`.
fn box_line(geo: &Geometry, ctx: &mut Ctx<'_>, unit: usize) -> Result<(), Dead> {
    let s = geo.side;
    let n = geo.box_side;
    if unit >= 2 * s {
        let b = unit - 2 * s;
        let (band, stack) = (b / n, b % n);
        // Removals outside the box leave its confinement as it was.
        let (rows, columns) = confined_in_box(geo, ctx.cands, unit);
        for (i, &digits) in rows[..n].iter().enumerate() {
            if digits != 0 {
                let line = geo.unit_cells(band * n + i);
                remove_outside_segment(ctx, line, n, stack, digits)?;
            }
        }
        for (j, &digits) in columns[..n].iter().enumerate() {
            if digits != 0 {
                let line = geo.unit_cells(s + stack * n + j);
                remove_outside_segment(ctx, line, n, band, digits)?;
            }
        }
    } else {
        let is_row = unit < s;
        let inner = (if is_row { unit } else { unit - s }) % n;
        let only = confined_in_line(geo, ctx.cands, unit);
        for (j, &digits) in only[..n].iter().enumerate() {
            if digits == 0 {
                continue;
            }
            let box_cells = geo.unit_cells(segment_box(geo, unit, j));
            if is_row {
                // Box rows other than this one.
                remove_outside_segment(ctx, box_cells, n, inner, digits)?;
            } else {
                // Box columns other than this one.
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
