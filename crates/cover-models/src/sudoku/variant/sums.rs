//! The propagator of killer cages' sums and thermometers, run by dlx-core's
//! hook at every branching node of a [`VariantSolver`](super::VariantSolver)
//! whose rules have a cage with a sum.
//!
//! This module owns the reasoning on digits: which digits the free cells
//! of a sum can still take, given the digits placed; the bounds a
//! thermometer's order puts on each cell; and the sums the rules imply
//! without stating them ([`derived_sums`]: a region's cells outside the
//! cages inside it, the cells of the cages that cross it outside it). It
//! reads the engine's state (a cell's digit from the chosen options, its
//! candidates from the live ones) and must not know how the problem was
//! encoded beyond "each option places one digit in one cell", nor any
//! file format.
//!
//! Distinct digits inside a cage are the encoding's business (a secondary
//! item per cage and digit); its sum is this module's. Forced moves are
//! taken by the engine without asking, so a solution may still break a sum
//! its last moves completed: the solver checks each solution too.

use std::collections::HashSet;
use std::sync::OnceLock;

use dlx_core::{Domain, Problem, Propagator, Verdict};

/// The largest number of digits with a table of digit sets by size and
/// sum ([`sets`]); past it, a distinct sum is reasoned on by bounds.
const TABLE_DIGITS: usize = 16;

/// The most cells of a derived sum: larger ones narrow little and cost a
/// pass each at every node.
const DERIVED_CELLS: usize = 4;

/// The most cells of any sum: a cage has at most the digits' count.
const MAX_CELLS: usize = 64;

/// The most regions in one area of [`derived_sums`].
const AREA_REGIONS: usize = 4;

/// The sets of distinct digits of `1..=digits` by size and sum, as masks
/// (digit `d` in bit `d − 1`): `masks[starts[slot]..starts[slot + 1]]`.
struct Sets {
    /// The largest sum, `digits · (digits + 1) / 2`.
    top: usize,
    starts: Vec<u32>,
    masks: Vec<u64>,
}

impl Sets {
    fn new(digits: usize) -> Sets {
        let top = digits * (digits + 1) / 2;
        let slot = |count: usize, sum: usize| count * (top + 1) + sum;
        let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); (digits + 1) * (top + 1)];
        for mask in 0u64..1 << digits {
            let sum: usize = (0..digits)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| b + 1)
                .sum();
            buckets[slot(mask.count_ones() as usize, sum)].push(mask);
        }
        let mut starts = Vec::with_capacity(buckets.len() + 1);
        let mut masks = Vec::new();
        for bucket in buckets {
            starts.push(masks.len() as u32);
            masks.extend(bucket);
        }
        starts.push(masks.len() as u32);
        Sets { top, starts, masks }
    }

    /// The sets of `count` digits summing to `sum`.
    fn of(&self, count: usize, sum: usize) -> &[u64] {
        if sum > self.top {
            return &[];
        }
        let slot = count * (self.top + 1) + sum;
        &self.masks[self.starts[slot] as usize..self.starts[slot + 1] as usize]
    }
}

/// The table for `digits` (at most [`TABLE_DIGITS`]), built once per run.
fn sets(digits: usize) -> &'static Sets {
    static TABLES: [OnceLock<Sets>; TABLE_DIGITS + 1] =
        [const { OnceLock::new() }; TABLE_DIGITS + 1];
    TABLES[digits].get_or_init(|| Sets::new(digits))
}

/// Cells whose digits add up to `total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sum {
    pub(super) cells: Vec<usize>,
    pub(super) total: u32,
    /// Whether the digits are distinct (a cage, or cells of one region).
    pub(super) distinct: bool,
}

/// The sums the rules imply: for each area (one full region, or up to
/// [`AREA_REGIONS`] disjoint full regions consecutive in `regions`' order,
/// such as adjacent rows), the cells of the area outside the cages inside
/// it (innies: the area's total less those cages' sums) and the cells
/// outside the area of the cages that cross it, when those cover the area
/// (outies: their sums less the area's total). Only cages that share no
/// cell with another cage count; sums of more than [`DERIVED_CELLS`]
/// cells, and the cages themselves, are left out.
pub(super) fn derived_sums(regions: &[Vec<usize>], cages: &[Sum], digits: usize) -> Vec<Sum> {
    let frame = regions
        .iter()
        .flatten()
        .chain(cages.iter().flat_map(|c| &c.cells))
        .map(|&c| c + 1)
        .max()
        .unwrap_or(0);
    let full: Vec<&Vec<usize>> = regions.iter().filter(|r| r.len() == digits).collect();
    let region_total = (digits * (digits + 1) / 2) as u32;
    // The cage of each cell, among the cages that overlap no other.
    let mut cage_of: Vec<Option<usize>> = vec![None; frame];
    let mut overlapped = vec![false; cages.len()];
    for (i, cage) in cages.iter().enumerate() {
        for &cell in &cage.cells {
            if let Some(j) = cage_of[cell] {
                overlapped[i] = true;
                overlapped[j] = true;
            }
            cage_of[cell] = Some(i);
        }
    }
    for cage in cage_of.iter_mut() {
        if cage.is_some_and(|i| overlapped[i]) {
            *cage = None;
        }
    }
    // The regions of each cell, for telling whether cells are distinct.
    let mut regions_of: Vec<Vec<usize>> = vec![Vec::new(); frame];
    for (r, region) in regions.iter().enumerate() {
        for &cell in region {
            regions_of[cell].push(r);
        }
    }
    let distinct = |cells: &[usize]| {
        cells.iter().enumerate().all(|(i, &a)| {
            cells[i + 1..]
                .iter()
                .all(|&b| regions_of[a].iter().any(|r| regions_of[b].contains(r)))
        })
    };
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    let mut derived = Vec::new();
    let mut keep = |mut cells: Vec<usize>, total: u32, derived: &mut Vec<Sum>| {
        cells.sort_unstable();
        // A cage's own cells: the cage says it already.
        let first = cage_of[cells[0]];
        let whole_cage = first.is_some_and(|i| cages[i].cells.len() == cells.len())
            && cells.iter().all(|&c| cage_of[c] == first);
        if whole_cage {
            return;
        }
        if !seen.insert(cells.clone()) {
            return;
        }
        let distinct = distinct(&cells);
        derived.push(Sum {
            cells,
            total,
            distinct,
        });
    };
    // Grown region by region from each first region, the area keeps: its
    // cells, how many cells of each cage it holds, the cages it touches
    // and their sums, and the count and sums of the cages inside it.
    let mut in_area = vec![false; frame];
    let mut held = vec![0usize; cages.len()];
    let mut area: Vec<usize> = Vec::new();
    let mut touched: Vec<usize> = Vec::new();
    for first in 0..full.len() {
        for &cell in &area {
            in_area[cell] = false;
        }
        for &cage in &touched {
            held[cage] = 0;
        }
        area.clear();
        touched.clear();
        let (mut touched_sum, mut inner_sum, mut inner_cells, mut uncaged) = (0, 0, 0, 0);
        for (count, region) in full[first..].iter().take(AREA_REGIONS).enumerate() {
            if region.iter().any(|&c| in_area[c]) {
                break;
            }
            for &cell in region.iter() {
                in_area[cell] = true;
                area.push(cell);
                let Some(cage) = cage_of[cell] else {
                    uncaged += 1;
                    continue;
                };
                if held[cage] == 0 {
                    touched.push(cage);
                    touched_sum += cages[cage].total;
                }
                held[cage] += 1;
                if held[cage] == cages[cage].cells.len() {
                    inner_sum += cages[cage].total;
                    inner_cells += held[cage];
                }
            }
            let area_total = region_total * (count as u32 + 1);
            let innies = area.len() - inner_cells;
            if (1..=DERIVED_CELLS).contains(&innies) && inner_sum <= area_total {
                let cells = area
                    .iter()
                    .copied()
                    .filter(|&c| cage_of[c].is_none_or(|i| held[i] < cages[i].cells.len()))
                    .collect();
                keep(cells, area_total - inner_sum, &mut derived);
            }
            let outies: usize = touched
                .iter()
                .map(|&i| cages[i].cells.len() - held[i])
                .sum();
            if uncaged == 0 && (1..=DERIVED_CELLS).contains(&outies) && touched_sum >= area_total {
                let cells = touched
                    .iter()
                    .flat_map(|&i| cages[i].cells.iter().copied())
                    .filter(|&c| !in_area[c])
                    .collect();
                keep(cells, touched_sum - area_total, &mut derived);
            }
        }
    }
    derived
}

/// The reasoning on sums and thermometers (see the module's docs).
#[derive(Clone)]
pub(super) struct SumPropagator {
    digits: usize,
    /// The cell and digit each option places.
    placement: Vec<(u16, u8)>,
    /// The cells a sum or thermometer reads, each once.
    watched: Vec<usize>,
    /// By frame cell, the rules on it: sum `i` is rule `i`, thermometer
    /// `j` rule `sums.len() + j`.
    rules_of: Vec<Vec<u32>>,
    /// The rules to look at again (a stack), whether each is on it, and
    /// the rule being looked at.
    queue: Vec<u32>,
    queued: Vec<bool>,
    current: u32,
    /// By rule: one plus the dead ends it found in this search.
    weights: Vec<u32>,
    /// By frame cell: its item, and its options in input order (bit `b` of
    /// the item's live options is `options[b]`), with their digits.
    item: Vec<usize>,
    options: Vec<Vec<u32>>,
    option_digits: Vec<Vec<u8>>,
    sums: Vec<Sum>,
    thermos: Vec<Vec<usize>>,
    /// The regions (rows, columns, boxes, extras: distinct digits), and
    /// by frame cell the regions it is in as a bit set (empty when there
    /// are more than 128 regions: no reasoning on regions then).
    regions: Vec<Vec<usize>>,
    regions_of: Vec<u128>,
    /// The table of digit sets, when the digits are few enough.
    sets: Option<&'static Sets>,
    // Scratch, by frame cell: the digit placed (0: none) and the digits
    // still possible (the placed one alone for a placed cell).
    chosen: Vec<usize>,
    value: Vec<u8>,
    mask: Vec<u64>,
}

impl SumPropagator {
    /// The propagator of `sums` and `thermos` over `problem`, whose option
    /// `o` places `placement[o]` and covers its cell's item first (an item
    /// in no other cell's options).
    pub(super) fn new(
        problem: &Problem,
        placement: Vec<(u16, u8)>,
        digits: usize,
        sums: Vec<Sum>,
        thermos: Vec<Vec<usize>>,
        regions: Vec<Vec<usize>>,
    ) -> SumPropagator {
        let frame = placement
            .iter()
            .map(|&(cell, _)| cell as usize + 1)
            .chain(sums.iter().flat_map(|s| &s.cells).map(|&c| c + 1))
            .chain(thermos.iter().flatten().map(|&c| c + 1))
            .chain(regions.iter().flatten().map(|&c| c + 1))
            .max()
            .unwrap_or(0);
        let mut regions_of = vec![0u128; frame];
        if regions.len() <= 128 {
            for (r, region) in regions.iter().enumerate() {
                for &cell in region {
                    regions_of[cell] |= 1 << r;
                }
            }
        }
        let mut item = vec![usize::MAX; frame];
        let mut options = vec![Vec::new(); frame];
        let mut option_digits = vec![Vec::new(); frame];
        for (o, &(cell, digit)) in placement.iter().enumerate() {
            let cell = cell as usize;
            item[cell] = problem.option(o)[0] as usize;
            options[cell].push(o as u32);
            option_digits[cell].push(digit);
        }
        let mut watched: Vec<usize> = sums
            .iter()
            .flat_map(|s| s.cells.iter())
            .chain(thermos.iter().flatten())
            .copied()
            .collect();
        watched.sort_unstable();
        watched.dedup();
        let mut rules_of = vec![Vec::new(); frame];
        let rules = sums.iter().map(|s| &s.cells).chain(&thermos);
        for (rule, cells) in rules.enumerate() {
            for &cell in cells {
                rules_of[cell].push(rule as u32);
            }
        }
        let rules = sums.len() + thermos.len();
        SumPropagator {
            digits,
            placement,
            watched,
            rules_of,
            queue: Vec::with_capacity(rules),
            queued: vec![false; rules],
            current: u32::MAX,
            weights: vec![1; rules],
            item,
            options,
            option_digits,
            sums,
            thermos,
            regions,
            regions_of,
            sets: (digits <= TABLE_DIGITS).then(|| sets(digits)),
            chosen: Vec::new(),
            value: vec![0; frame],
            mask: vec![0; frame],
        }
    }

    /// The same propagator for `problem`, this one's options reordered:
    /// its option `o` is this one's `order[o]`.
    pub(super) fn reordered(&self, problem: &Problem, order: &[usize]) -> SumPropagator {
        SumPropagator::new(
            problem,
            order.iter().map(|&o| self.placement[o]).collect(),
            self.digits,
            self.sums.clone(),
            self.thermos.clone(),
            self.regions.clone(),
        )
    }

    /// Reads each watched cell's digit or candidates from `domain`.
    fn read(&mut self, domain: &dyn Domain) {
        for &cell in &self.watched {
            self.value[cell] = 0;
        }
        if domain.chosen(&mut self.chosen) {
            for &o in &self.chosen {
                let (cell, digit) = self.placement[o];
                self.value[cell as usize] = digit;
            }
        }
        for &cell in &self.watched {
            let digit = self.value[cell];
            self.mask[cell] = if digit != 0 {
                1 << (digit - 1)
            } else if self.options[cell].is_empty() {
                // The givens left it no digit (and it has no item to ask).
                0
            } else {
                let digits = &self.option_digits[cell];
                let live = domain.item_options(self.item[cell]).unwrap_or_else(|| {
                    let options = &self.options[cell];
                    (0..options.len())
                        .filter(|&b| domain.is_live(options[b] as usize))
                        .fold(0, |m, b| m | 1 << b)
                });
                let mut mask = 0u64;
                let mut bits = live;
                while bits != 0 {
                    mask |= 1 << (digits[bits.trailing_zeros() as usize] - 1);
                    bits &= bits - 1;
                }
                mask
            };
        }
    }

    /// Narrows `cell`'s candidates to `keep`: removes the options of the
    /// digits dropped. `false` when none is left.
    fn narrow(&mut self, domain: &mut dyn Domain, cell: usize, keep: u64) -> bool {
        let dropped = self.mask[cell] & !keep;
        if dropped == 0 {
            return true;
        }
        self.mask[cell] &= keep;
        for (b, &digit) in self.option_digits[cell].iter().enumerate() {
            if dropped >> (digit - 1) & 1 == 1 {
                domain.remove(self.options[cell][b] as usize);
            }
        }
        // The other rules on this cell must look again.
        for &rule in &self.rules_of[cell] {
            if rule != self.current && !self.queued[rule as usize] {
                self.queued[rule as usize] = true;
                self.queue.push(rule);
            }
        }
        self.mask[cell] != 0
    }

    /// Reasons on sum `index`. `None`: the node is dead; else whether a
    /// candidate was removed.
    fn sum(&mut self, domain: &mut dyn Domain, index: usize) -> Option<bool> {
        let sum = &self.sums[index];
        let mut placed = 0usize;
        let mut union = 0u64;
        // The free cells' candidates, packed.
        let mut free_masks = [0u64; MAX_CELLS];
        let mut free = 0usize;
        for &cell in &sum.cells {
            match self.value[cell] {
                0 => {
                    union |= self.mask[cell];
                    free_masks[free] = self.mask[cell];
                    free += 1;
                }
                digit => placed += digit as usize,
            }
        }
        let free_masks = &free_masks[..free];
        let total = sum.total as usize;
        if placed > total {
            return None;
        }
        let target = total - placed;
        if free == 0 {
            return (target == 0).then_some(false);
        }
        // Per cell, the digits that some way of making the sum puts there;
        // and the digits every way needs (distinct digits only).
        let mut required = 0u64;
        let allowed = match (sum.distinct, self.sets) {
            (true, Some(table)) => {
                // Sets of distinct digits with one digit in each free cell.
                let mut allowed = 0u64;
                required = !0;
                for &set in table.of(free, target) {
                    if set & !union == 0 && free_masks.iter().all(|&m| m & set != 0) {
                        allowed |= set;
                        required &= set;
                    }
                }
                if allowed == 0 {
                    return None;
                }
                Allowed::Same(allowed)
            }
            (true, None) => Allowed::Same(self.by_bounds(union, free, target)),
            (false, _) => match self.by_reach(index, target) {
                Some(per_cell) => Allowed::Each(per_cell),
                None => return Some(false),
            },
        };
        let mut changed = false;
        for i in 0..self.sums[index].cells.len() {
            let cell = self.sums[index].cells[i];
            if self.value[cell] != 0 {
                continue;
            }
            let keep = match allowed {
                Allowed::Same(mask) => mask,
                Allowed::Each(ref masks) => masks[i],
            };
            if self.mask[cell] & !keep != 0 {
                changed = true;
                if !self.narrow(domain, cell, keep) {
                    return None;
                }
            }
        }
        // A digit the sum needs, whose places in it all lie in one region,
        // is in none of that region's other cells.
        let mut needed = required;
        while needed != 0 {
            let bit = needed & needed.wrapping_neg();
            needed &= needed - 1;
            let mut shared = !0u128;
            let mut places = 0;
            for &cell in &self.sums[index].cells {
                if self.value[cell] == 0 && self.mask[cell] & bit != 0 {
                    shared &= self.regions_of[cell];
                    places += 1;
                }
            }
            if places == 0 {
                return None;
            }
            while shared != 0 {
                let region = shared.trailing_zeros() as usize;
                shared &= shared - 1;
                for i in 0..self.regions[region].len() {
                    let cell = self.regions[region][i];
                    if self.value[cell] == 0
                        && self.mask[cell] & bit != 0
                        && !self.sums[index].cells.contains(&cell)
                    {
                        changed = true;
                        if !self.narrow(domain, cell, !bit) {
                            return None;
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// The digits of `union` that can be one of `count` distinct digits of
    /// `union` summing to `target`, by the least and greatest sums of the
    /// others (for digits past the table).
    fn by_bounds(&self, union: u64, count: usize, target: usize) -> u64 {
        let digits: Vec<usize> = (1..=self.digits)
            .filter(|d| union >> (d - 1) & 1 == 1)
            .collect();
        if digits.len() < count {
            return 0;
        }
        let mut allowed = 0u64;
        for &d in &digits {
            let others = digits.iter().filter(|&&e| e != d);
            let least: usize = others.clone().take(count - 1).sum();
            let most: usize = others.rev().take(count - 1).sum();
            if target >= d && (least..=most).contains(&(target - d)) {
                allowed |= 1 << (d - 1);
            }
        }
        allowed
    }

    /// For a sum whose digits may repeat (a derived one, of at most
    /// [`DERIVED_CELLS`] cells): each cell's digits `d` such that the
    /// other cells can make `total − d`, by the sums each reaches (bit
    /// sets of sums, so `None`, no narrowing, when a sum could pass 127).
    fn by_reach(&self, index: usize, target: usize) -> Option<[u64; DERIVED_CELLS]> {
        let cells = &self.sums[index].cells;
        let n = cells.len();
        if n > DERIVED_CELLS || n * self.digits > 127 {
            return None;
        }
        let mut allowed = [0u64; DERIVED_CELLS];
        if target > 127 {
            return Some(allowed);
        }
        // A free cell's digits as the sums it makes (a placed cell makes
        // 0: `target` counts it already), and sums of sets of sums.
        let reach = |cell: usize| match self.value[cell] {
            0 => u128::from(self.mask[cell]) << 1,
            _ => 1,
        };
        let add = |a: u128, mut b: u128| -> u128 {
            let mut out = 0u128;
            while b != 0 {
                out |= a << b.trailing_zeros();
                b &= b - 1;
            }
            out
        };
        let mut before = [0u128; DERIVED_CELLS + 1];
        before[0] = 1;
        for i in 0..n {
            before[i + 1] = add(before[i], reach(cells[i]));
        }
        if before[n] >> target & 1 == 0 {
            return Some(allowed);
        }
        let mut after = 1u128;
        for i in (0..n).rev() {
            let others = add(before[i], after);
            let mut mask = self.mask[cells[i]];
            while mask != 0 {
                let d = mask.trailing_zeros() as usize + 1;
                if d <= target && others >> (target - d) & 1 == 1 {
                    allowed[i] |= 1 << (d - 1);
                }
                mask &= mask - 1;
            }
            after = add(after, reach(cells[i]));
        }
        Some(allowed)
    }

    /// Reasons on thermometer `index`: each cell above the least digit its
    /// predecessors allow, below the greatest its successors allow.
    fn thermo(&mut self, domain: &mut dyn Domain, index: usize) -> Option<bool> {
        let length = self.thermos[index].len();
        let mut changed = false;
        // Digits above the lowest of the previous cell.
        let mut floor = 0u32;
        for i in 0..length {
            let cell = self.thermos[index][i];
            let keep = (!0u64).checked_shl(floor).unwrap_or(0);
            if self.mask[cell] & !keep != 0 {
                changed = true;
                if !self.narrow(domain, cell, keep) {
                    return None;
                }
            }
            floor = self.mask[cell].trailing_zeros() + 1;
        }
        let mut ceiling = 64u32;
        for i in (0..length).rev() {
            let cell = self.thermos[index][i];
            let keep = if ceiling == 0 {
                0
            } else {
                !0u64 >> (64 - ceiling)
            };
            if self.mask[cell] & !keep != 0 {
                changed = true;
                if !self.narrow(domain, cell, keep) {
                    return None;
                }
            }
            ceiling = 63 - self.mask[cell].leading_zeros();
        }
        Some(changed)
    }
}

/// The digits a sum leaves its free cells.
enum Allowed {
    /// The same for every cell (distinct digits).
    Same(u64),
    /// Cell by cell, in the sum's order.
    Each([u64; DERIVED_CELLS]),
}

impl Propagator for SumPropagator {
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        self.read(domain);
        if self.watched.iter().any(|&cell| self.mask[cell] == 0) {
            return Verdict::Dead;
        }
        // To a fixpoint: every rule once, then those whose cells another
        // narrowed (a rule's own narrowing is complete in one pass: what
        // fitted before it fits after).
        let rules = (self.sums.len() + self.thermos.len()) as u32;
        self.queue.clear();
        self.queue.extend((0..rules).rev());
        self.queued.fill(true);
        while let Some(rule) = self.queue.pop() {
            self.queued[rule as usize] = false;
            self.current = rule;
            let index = rule as usize;
            let live = if index < self.sums.len() {
                self.sum(domain, index)
            } else {
                self.thermo(domain, index - self.sums.len())
            };
            if live.is_none() {
                self.current = u32::MAX;
                self.weights[index] = self.weights[index].saturating_add(1);
                return Verdict::Dead;
            }
        }
        self.current = u32::MAX;
        Verdict::Live
    }

    fn begin(&mut self) {
        self.weights.fill(1);
    }

    /// The free cell with the fewest candidates per unit of weight (the
    /// summed weights of its rules: dom/wdeg).
    fn choose(&mut self, _domain: &dyn Domain) -> Option<usize> {
        let mut best: Option<(usize, u64, u64)> = None;
        for &cell in &self.watched {
            let size = u64::from(self.mask[cell].count_ones());
            if self.value[cell] != 0 || size < 2 {
                continue;
            }
            let weight: u64 = self.rules_of[cell]
                .iter()
                .map(|&r| u64::from(self.weights[r as usize]))
                .sum();
            if best.is_none_or(|(_, s, w)| size * w < s * weight) {
                best = Some((cell, size, weight));
            }
        }
        best.map(|(cell, _, _)| self.item[cell])
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        Box::new(self.clone())
    }
}

impl std::fmt::Debug for SumPropagator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SumPropagator")
            .field("digits", &self.digits)
            .field("sums", &self.sums)
            .field("thermos", &self.thermos)
            .finish_non_exhaustive()
    }
}
