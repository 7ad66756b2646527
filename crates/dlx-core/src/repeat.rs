//! Repeat cover: choose options so that every primary item is covered at
//! least once, deciding whether at most K options suffice or finding the
//! fewest that do.
//!
//! In a repeat cover, choosing an option removes the items it covers but
//! leaves every other option available, so Algorithm X's links buy little;
//! this module uses flat bitsets instead (one row of `u64` words per
//! option, over the items), which makes "what is still uncovered" a
//! word-wise `and not`.
//!
//! ## How a problem is prepared ([`RepeatSolver::new`])
//! 1. *Reductions*, repeated until nothing changes: an option whose items
//!    are a subset of another option's is dropped (any cover using it can
//!    use the larger one instead; of equal options the first is kept); an
//!    item whose options are a superset of another item's options is
//!    dropped (covering the other item covers it too; of equal items the
//!    first is kept).
//! 2. *Components*: items that share no option are independent problems;
//!    the minimum is the sum of the components' minima.
//! 3. Per component, items are renumbered by how few options cover them,
//!    a greedy cover gives an upper bound and the lower bound below a lower
//!    one.
//!
//! ## The search
//! A depth-first search bounded by K (iterative, with an explicit stack of
//! at most K + 1 levels, so never deeper than the number of items). At each
//! node it branches on the uncovered item with the fewest options still
//! allowed, tries that item's options (most newly covered items first),
//! and after trying an option forbids it in the sibling branches that
//! follow, so every set of options is examined once, not once per order.
//! Among the options of the branching item, one whose uncovered items are a
//! subset of another's is not tried.
//!
//! A node is cut when `depth + h > K`, with `h` an admissible lower bound
//! on the options still needed, the larger of:
//! - the *packing* bound (the classic one of the contest programs): take an
//!   uncovered item, count 1, and mark covered every item of every allowed
//!   option that covers it; repeat. The items counted pairwise share no
//!   option, so each needs an option of its own.
//! - the *fractional* bound: weights on the uncovered items such that the
//!   items of every allowed option weigh at most 1 together; by
//!   linear-programming duality every cover then has at least the total
//!   weight (rounded up) options. Each item starts at `1 / g`, `g` the
//!   most uncovered items an allowed option through it covers (this alone
//!   implies `ceil(uncovered / largest option)`); then, item by item, its
//!   weight is raised by the least capacity its options have left (which
//!   cuts many nodes on hard cases; `docs/measurements.md`).
//!
//! [`RepeatSolver::minimum`] deepens: it decides K = lower bound, lower
//! bound + 1, ... until a cover is found or the greedy cover is shown
//! optimal.

use std::sync::atomic::Ordering;

use crate::engine::{Deadline, Limits, Outcome, Stats};
use crate::problem::Problem;

/// What a repeat-cover search reports.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RepeatReport {
    /// Why the search ended: [`Outcome::Exhausted`] when the answer is
    /// proven, [`Outcome::NodeBudget`], [`Outcome::Cancelled`] or
    /// [`Outcome::TimeLimit`] when a limit stopped it first.
    pub outcome: Outcome,
    /// The cover found, as option numbers of the problem, ascending.
    ///
    /// For [`RepeatSolver::at_most`]: `Some` when at most K options cover
    /// every primary item; `None` with [`Outcome::Exhausted`] when no such
    /// cover exists. For [`RepeatSolver::minimum`]: with
    /// [`Outcome::Exhausted`], a minimum cover (`None` only when some item
    /// no option covers); when stopped early, the best cover known.
    pub cover: Option<Vec<usize>>,
    /// Search nodes (nodes entered, each root included, plus one per cover
    /// found); `updates` counts options forbidden in sibling branches.
    pub stats: Stats,
}

/// A repeat-cover problem, prepared for searching (see the module
/// documentation). Immutable once built; each search allocates its own
/// scratch space, so one solver can answer many questions.
#[derive(Debug, Clone)]
pub struct RepeatSolver {
    /// Some primary item that no option covers.
    uncoverable: bool,
    components: Vec<Component>,
    primary: usize,
    options: usize,
}

/// One connected component of the reduced problem.
#[derive(Debug, Clone)]
struct Component {
    /// Items `0..items`, numbered from the fewest options to the most.
    items: usize,
    /// Words per item bitset.
    words: usize,
    /// Option `o`'s items are the bits of `option_bits[o * words..][..words]`.
    option_bits: Vec<u64>,
    /// Option `o`'s items are `option_item[option_start[o]..option_start[o + 1]]`.
    option_start: Vec<u32>,
    option_item: Vec<u32>,
    /// Item `i`'s options are `item_option[item_start[i]..item_start[i + 1]]`.
    item_start: Vec<u32>,
    item_option: Vec<u32>,
    /// The problem's number of each option.
    original: Vec<u32>,
    /// A lower bound on this component's minimum.
    lower_bound: usize,
    /// A cover found greedily (local option numbers).
    greedy: Vec<u32>,
}

impl RepeatSolver {
    /// Prepares `problem` for repeat cover. Its primary items must each be
    /// covered at least once; secondary items constrain nothing in a repeat
    /// cover and are ignored.
    pub fn new(problem: &Problem) -> RepeatSolver {
        let primary = problem.primary_count();
        // The options' primary items, flat: option `o`'s are
        // `items[starts[o]..starts[o + 1]]`.
        let mut starts = Vec::with_capacity(problem.option_count() + 1);
        let mut items = Vec::with_capacity(problem.incidence_count());
        starts.push(0);
        for option in problem.options() {
            items.extend(option.iter().copied().filter(|&i| (i as usize) < primary));
            starts.push(items.len());
        }
        let options = Options { starts, items };
        let reduced = Reduced::new(primary, &options);
        let components = if reduced.uncoverable {
            Vec::new()
        } else {
            reduced.components()
        };
        RepeatSolver {
            uncoverable: reduced.uncoverable,
            components,
            primary,
            options: options.len(),
        }
    }

    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.primary
    }

    /// The number of options of the problem.
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Whether every primary item is covered by some option (otherwise
    /// there is no cover at all).
    pub fn is_coverable(&self) -> bool {
        !self.uncoverable
    }

    /// The number of independent parts the reduced problem falls into.
    pub fn component_count(&self) -> usize {
        self.components.len()
    }

    /// An admissible lower bound on the size of every cover (the sum of
    /// the components' bounds); `usize::MAX` when there is no cover.
    pub fn lower_bound(&self) -> usize {
        if self.uncoverable {
            return usize::MAX;
        }
        self.components.iter().map(|c| c.lower_bound).sum()
    }

    /// A cover found greedily (option numbers, ascending), or `None` when
    /// there is no cover.
    pub fn greedy_cover(&self) -> Option<Vec<usize>> {
        if self.uncoverable {
            return None;
        }
        let parts: Vec<(usize, &[u32])> = self
            .components
            .iter()
            .enumerate()
            .map(|(k, c)| (k, &c.greedy[..]))
            .collect();
        Some(self.assemble(&parts))
    }

    /// Decides whether at most `k` options cover every primary item, and
    /// finds such a cover when they do, within `limits` (node budget,
    /// cancel flag and deadline; `max_solutions` is ignored).
    pub fn at_most(&self, k: usize, limits: &Limits) -> RepeatReport {
        let mut stats = Stats::default();
        let report = |outcome, cover: Option<Vec<usize>>, stats: Stats| RepeatReport {
            outcome,
            cover,
            stats,
        };
        if self.uncoverable {
            return report(Outcome::Exhausted, None, stats);
        }
        let lower: usize = self.components.iter().map(|c| c.lower_bound).sum();
        let upper: usize = self.components.iter().map(|c| c.greedy.len()).sum();
        if upper <= k {
            return report(Outcome::Exhausted, self.greedy_cover(), stats);
        }
        if lower > k {
            return report(Outcome::Exhausted, None, stats);
        }
        // Settle the components whose size is not yet known one by one,
        // the easiest (smallest gap between the bounds) first. `known[c]`
        // is the size of component c's cover, exact once settled; the
        // others count their lower bound.
        let mut known: Vec<usize> = self.components.iter().map(|c| c.lower_bound).collect();
        let mut covers: Vec<Option<Vec<u32>>> = self
            .components
            .iter()
            .map(|c| (c.greedy.len() == c.lower_bound).then(|| c.greedy.clone()))
            .collect();
        let mut open: Vec<usize> = (0..self.components.len())
            .filter(|&c| covers[c].is_none())
            .collect();
        open.sort_by_key(|&c| {
            let comp = &self.components[c];
            (comp.greedy.len() - comp.lower_bound, c)
        });
        for (position, &c) in open.iter().enumerate() {
            let comp = &self.components[c];
            let others: usize = known.iter().sum::<usize>() - known[c];
            let Some(budget) = k.checked_sub(others) else {
                return report(Outcome::Exhausted, None, stats);
            };
            if budget < comp.lower_bound {
                return report(Outcome::Exhausted, None, stats);
            }
            let last = position + 1 == open.len();
            let found = if last {
                // The last open component only needs "at most budget".
                if comp.greedy.len() <= budget {
                    Ok(Some(comp.greedy.clone()))
                } else {
                    Dfs::new(comp).decide(budget, limits, &mut stats)
                }
            } else {
                comp.minimum_within(budget, limits, &mut stats)
            };
            match found {
                Ok(Some(cover)) => {
                    known[c] = cover.len();
                    covers[c] = Some(cover);
                }
                Ok(None) => return report(Outcome::Exhausted, None, stats),
                Err(outcome) => return report(outcome, None, stats),
            }
        }
        let parts: Vec<(usize, &[u32])> = covers
            .iter()
            .enumerate()
            .map(|(c, cover)| (c, cover.as_deref().expect("every component settled")))
            .collect();
        let cover = self.assemble(&parts);
        debug_assert!(cover.len() <= k);
        report(Outcome::Exhausted, Some(cover), stats)
    }

    /// Finds a minimum cover, within `limits` (node budget, cancel flag
    /// and deadline). When a limit stops the search, the report carries the best
    /// cover known and the outcome says it is not proven minimum.
    pub fn minimum(&self, limits: &Limits) -> RepeatReport {
        let mut stats = Stats::default();
        if self.uncoverable {
            return RepeatReport {
                outcome: Outcome::Exhausted,
                cover: None,
                stats,
            };
        }
        let mut covers: Vec<Vec<u32>> = Vec::with_capacity(self.components.len());
        let mut outcome = Outcome::Exhausted;
        for comp in &self.components {
            if outcome != Outcome::Exhausted {
                covers.push(comp.greedy.clone());
                continue;
            }
            match comp.minimum_within(comp.greedy.len(), limits, &mut stats) {
                Ok(Some(cover)) => covers.push(cover),
                Ok(None) => unreachable!("the greedy cover fits within its own size"),
                Err(stopped) => {
                    outcome = stopped;
                    covers.push(comp.greedy.clone());
                }
            }
        }
        let parts: Vec<(usize, &[u32])> = covers
            .iter()
            .enumerate()
            .map(|(c, cover)| (c, &cover[..]))
            .collect();
        RepeatReport {
            outcome,
            cover: Some(self.assemble(&parts)),
            stats,
        }
    }

    /// The problem's option numbers of the components' covers, ascending.
    fn assemble(&self, parts: &[(usize, &[u32])]) -> Vec<usize> {
        let mut cover: Vec<usize> = parts
            .iter()
            .flat_map(|&(c, local)| {
                let comp = &self.components[c];
                local.iter().map(|&o| comp.original[o as usize] as usize)
            })
            .collect();
        cover.sort_unstable();
        cover
    }
}

// ---------------------------------------------------------------------------
// Bitset helpers.

fn words_for(bits: usize) -> usize {
    bits.div_ceil(64).max(1)
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

fn has_bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn count_bits(bits: &[u64]) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

/// Whether `a ⊆ b`.
fn is_subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// Takes row `r` (whose bits are `row`) out of the transposed matrix
/// `columns` (rows of `words` words): clears bit `r` in the row of each of
/// its ones and lowers that row's `counts` entry. The same step drops an
/// option (from the items' rows) and an item (from the options' rows).
fn leave_columns(r: usize, row: &[u64], columns: &mut [u64], words: usize, counts: &mut [u32]) {
    for c in ones(row) {
        clear_bit(&mut columns[c * words..][..words], r);
        counts[c] -= 1;
    }
}

/// Iterates over the set bits of `bits`, ascending.
fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                w * 64 + bit
            })
        })
    })
}

// ---------------------------------------------------------------------------
// Reductions and components.

/// Options as flat lists of items.
struct Options {
    starts: Vec<usize>,
    items: Vec<u32>,
}

impl Options {
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn get(&self, o: usize) -> &[u32] {
        &self.items[self.starts[o]..self.starts[o + 1]]
    }
}

/// The whole problem after dropping dominated options and implied items.
struct Reduced {
    items: usize,
    options: usize,
    /// Some item that no option covers.
    uncoverable: bool,
    item_alive: Vec<bool>,
    option_alive: Vec<bool>,
    /// Rows over the live items, one per option.
    option_bits: Vec<u64>,
    item_words: usize,
}

impl Reduced {
    fn new(items: usize, options: &Options) -> Reduced {
        let m = options.len();
        let item_words = words_for(items);
        let option_words = words_for(m);
        let mut option_bits = vec![0u64; m * item_words];
        let mut item_bits = vec![0u64; items * option_words];
        for o in 0..m {
            for &i in options.get(o) {
                set_bit(&mut option_bits[o * item_words..][..item_words], i as usize);
                set_bit(
                    &mut item_bits[i as usize * option_words..][..option_words],
                    o,
                );
            }
        }
        let mut item_alive = vec![true; items];
        let mut option_alive: Vec<bool> = (0..m).map(|o| !options.get(o).is_empty()).collect();
        let uncoverable =
            (0..items).any(|i| count_bits(&item_bits[i * option_words..][..option_words]) == 0);
        let mut reduced = Reduced {
            items,
            options: m,
            uncoverable,
            item_alive: Vec::new(),
            option_alive: Vec::new(),
            option_bits: Vec::new(),
            item_words,
        };
        if uncoverable {
            return reduced;
        }
        let mut option_size: Vec<u32> = (0..m)
            .map(|o| count_bits(&option_bits[o * item_words..][..item_words]))
            .collect();
        let mut item_degree: Vec<u32> = (0..items)
            .map(|i| count_bits(&item_bits[i * option_words..][..option_words]))
            .collect();
        loop {
            let mut changed = false;
            // Options: drop `a` when a live `b` covers all of `a`'s items
            // (and more, or as many with a smaller number). Such a `b`
            // covers `a`'s first item, so only that item's options are
            // compared.
            for a in 0..m {
                if !option_alive[a] {
                    continue;
                }
                let row_a = &option_bits[a * item_words..][..item_words];
                let dominated = match ones(row_a).next() {
                    None => true,
                    Some(first) => {
                        ones(&item_bits[first * option_words..][..option_words]).any(|b| {
                            b != a
                                && (option_size[a] < option_size[b]
                                    || (option_size[a] == option_size[b] && b < a))
                                && is_subset(row_a, &option_bits[b * item_words..][..item_words])
                        })
                    }
                };
                if dominated {
                    option_alive[a] = false;
                    changed = true;
                    let row_a = &option_bits[a * item_words..][..item_words];
                    leave_columns(a, row_a, &mut item_bits, option_words, &mut item_degree);
                }
            }
            // Items: drop `j` when a live `i` has only options that cover
            // `j` too (fewer of them, or as many with a smaller number).
            // Such an `i`'s first option covers `j`, so only the items
            // whose first option is one of `j`'s are compared.
            let mut by_first_option: Vec<Vec<usize>> = vec![Vec::new(); m];
            for i in (0..items).filter(|&i| item_alive[i]) {
                if let Some(o) = ones(&item_bits[i * option_words..][..option_words]).next() {
                    by_first_option[o].push(i);
                }
            }
            for j in 0..items {
                if !item_alive[j] {
                    continue;
                }
                let row_j = &item_bits[j * option_words..][..option_words];
                let implied = ones(row_j).any(|o| {
                    by_first_option[o].iter().any(|&i| {
                        i != j
                            && item_alive[i]
                            && (item_degree[i] < item_degree[j]
                                || (item_degree[i] == item_degree[j] && i < j))
                            && is_subset(&item_bits[i * option_words..][..option_words], row_j)
                    })
                });
                if implied {
                    item_alive[j] = false;
                    changed = true;
                    let row_j = &item_bits[j * option_words..][..option_words];
                    leave_columns(j, row_j, &mut option_bits, item_words, &mut option_size);
                }
            }
            if !changed {
                break;
            }
        }
        reduced.item_alive = item_alive;
        reduced.option_alive = option_alive;
        reduced.option_bits = option_bits;
        reduced
    }

    /// Splits the live items and options into connected components.
    fn components(&self) -> Vec<Component> {
        let w = self.item_words;
        let row = |o: usize| &self.option_bits[o * w..][..w];
        // Union-find over items, joined through each live option.
        let mut parent: Vec<usize> = (0..self.items).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for o in (0..self.options).filter(|&o| self.option_alive[o]) {
            let mut items = ones(row(o));
            if let Some(first) = items.next() {
                let root = find(&mut parent, first);
                for i in items {
                    let r = find(&mut parent, i);
                    parent[r] = root;
                }
            }
        }
        // Group live items by root, in order of their first item.
        let mut group_of_root = vec![usize::MAX; self.items];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in (0..self.items).filter(|&i| self.item_alive[i]) {
            let r = find(&mut parent, i);
            if group_of_root[r] == usize::MAX {
                group_of_root[r] = groups.len();
                groups.push(Vec::new());
            }
            groups[group_of_root[r]].push(i);
        }
        let mut group_options: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
        for o in (0..self.options).filter(|&o| self.option_alive[o]) {
            if let Some(first) = ones(row(o)).next() {
                let r = find(&mut parent, first);
                group_options[group_of_root[r]].push(o);
            }
        }
        groups
            .iter()
            .zip(&group_options)
            .map(|(items, opts)| Component::new(items, opts, |o| ones(row(o))))
            .collect()
    }
}

// ---------------------------------------------------------------------------
// One component.

impl Component {
    /// Builds a component from its items (ascending) and options (numbers
    /// of the whole problem); `items_of(o)` lists option `o`'s live items.
    fn new<'a, F, I>(items: &[usize], options: &[usize], items_of: F) -> Component
    where
        F: Fn(usize) -> I,
        I: Iterator<Item = usize> + 'a,
    {
        // Degree of each item within the component, to renumber items from
        // the fewest options to the most (the packing bound takes items in
        // that order).
        let mut order: Vec<(u32, usize)> = items.iter().map(|&i| (0, i)).collect();
        let slot = |i: usize| items.binary_search(&i).expect("the component's item");
        for &o in options {
            for i in items_of(o) {
                order[slot(i)].0 += 1;
            }
        }
        order.sort_unstable();
        let mut local = vec![0u32; items.len()];
        for (k, &(_, i)) in order.iter().enumerate() {
            local[slot(i)] = k as u32;
        }
        let n = order.len();
        let words = words_for(n);
        let mut option_bits = vec![0u64; options.len() * words];
        let mut option_start = Vec::with_capacity(options.len() + 1);
        let mut option_item = Vec::new();
        option_start.push(0u32);
        for (o, &global) in options.iter().enumerate() {
            let mut list: Vec<u32> = items_of(global).map(|i| local[slot(i)]).collect();
            list.sort_unstable();
            for &i in &list {
                set_bit(&mut option_bits[o * words..][..words], i as usize);
            }
            option_item.extend_from_slice(&list);
            option_start.push(option_item.len() as u32);
        }
        // Transpose into item → options.
        let mut item_start = vec![0u32; n + 1];
        for &i in &option_item {
            item_start[i as usize + 1] += 1;
        }
        for i in 0..n {
            item_start[i + 1] += item_start[i];
        }
        let mut fill = item_start.clone();
        let mut item_option = vec![0u32; option_item.len()];
        for o in 0..options.len() {
            for &i in &option_item[option_start[o] as usize..option_start[o + 1] as usize] {
                item_option[fill[i as usize] as usize] = o as u32;
                fill[i as usize] += 1;
            }
        }
        let mut component = Component {
            items: n,
            words,
            option_bits,
            option_start,
            option_item,
            item_start,
            item_option,
            original: options.iter().map(|&o| o as u32).collect(),
            lower_bound: 0,
            greedy: Vec::new(),
        };
        component.greedy = component.greedy_cover();
        let mut dfs = Dfs::new(&component);
        dfs.uncovered[..words].copy_from_slice(&full_set(n, words));
        let bound = dfs.lower_bound(0, usize::MAX);
        component.lower_bound = bound.clamp(1, component.greedy.len());
        component
    }

    fn row(&self, o: usize) -> &[u64] {
        &self.option_bits[o * self.words..][..self.words]
    }

    fn options_of(&self, i: usize) -> &[u32] {
        &self.item_option[self.item_start[i] as usize..self.item_start[i + 1] as usize]
    }

    fn items_of(&self, o: usize) -> &[u32] {
        &self.option_item[self.option_start[o] as usize..self.option_start[o + 1] as usize]
    }

    /// Repeatedly takes the option covering the most uncovered items.
    fn greedy_cover(&self) -> Vec<u32> {
        let mut uncovered = full_set(self.items, self.words);
        let mut cover = Vec::new();
        while uncovered.iter().any(|&w| w != 0) {
            let best = (0..self.original.len())
                .map(|o| {
                    let gain: u32 = self
                        .row(o)
                        .iter()
                        .zip(&uncovered)
                        .map(|(a, u)| (a & u).count_ones())
                        .sum();
                    (gain, std::cmp::Reverse(o))
                })
                .max()
                .expect("a component has options");
            let o = best.1 .0;
            for (u, a) in uncovered.iter_mut().zip(self.row(o)) {
                *u &= !a;
            }
            cover.push(o as u32);
        }
        cover
    }

    /// The smallest cover of at most `budget` options, found by deepening
    /// from the lower bound; `Ok(None)` when every cover is larger.
    fn minimum_within(
        &self,
        budget: usize,
        limits: &Limits,
        stats: &mut Stats,
    ) -> Result<Option<Vec<u32>>, Outcome> {
        let mut dfs = Dfs::new(self);
        for k in self.lower_bound..=budget {
            if k >= self.greedy.len() {
                return Ok(Some(self.greedy.clone()));
            }
            if let Some(cover) = dfs.decide(k, limits, stats)? {
                return Ok(Some(cover));
            }
        }
        Ok(None)
    }
}

/// The bitset of items `0..n`.
fn full_set(n: usize, words: usize) -> Vec<u64> {
    let mut bits = vec![0u64; words];
    for (w, word) in bits.iter_mut().enumerate() {
        let from = w * 64;
        if n >= from + 64 {
            *word = u64::MAX;
        } else if n > from {
            *word = (1u64 << (n - from)) - 1;
        }
    }
    bits
}

// ---------------------------------------------------------------------------
// The bounded search over one component.

/// What the loop does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Enter `level`: check limits, bound, pick an item, list its options.
    Enter,
    /// Try the next option of `level`'s item.
    Try,
    /// Every option of `level` was tried: allow them again and back up.
    Back,
}

/// The scratch state of searches over one component.
struct Dfs<'c> {
    comp: &'c Component,
    /// Whether each option may still be chosen (options tried earlier in a
    /// parent's list are forbidden below their later siblings).
    allowed: Vec<bool>,
    /// For each item, how many allowed options cover it.
    allowed_count: Vec<u32>,
    /// The uncovered items at each level, `words` per level.
    uncovered: Vec<u64>,
    /// Scratch bitset for the packing bound.
    remaining: Vec<u64>,
    /// Scratch: uncovered items each option covers.
    gain: Vec<u32>,
    /// Scratch: capacity each option has left in the fractional bound.
    capacity: Vec<f64>,
    /// The options to try at each level, one after another.
    candidates: Vec<u32>,
    /// Per level: where its candidates start, the next to try, and how
    /// many of them are forbidden at present.
    first: Vec<u32>,
    next: Vec<u32>,
    forbidden_to: Vec<u32>,
    /// The option chosen at each level.
    chosen: Vec<u32>,
    /// Scratch for building a level's candidates: (option, gain).
    scratch: Vec<(u32, u32)>,
}

impl<'c> Dfs<'c> {
    fn new(comp: &'c Component) -> Dfs<'c> {
        let m = comp.original.len();
        let allowed_count = (0..comp.items)
            .map(|i| comp.options_of(i).len() as u32)
            .collect();
        Dfs {
            comp,
            allowed: vec![true; m],
            allowed_count,
            uncovered: vec![0; comp.words],
            remaining: vec![0; comp.words],
            gain: vec![0; m],
            capacity: vec![0.0; m],
            candidates: Vec::new(),
            first: Vec::new(),
            next: Vec::new(),
            forbidden_to: Vec::new(),
            chosen: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn uncovered_at(&self, level: usize) -> &[u64] {
        let w = self.comp.words;
        &self.uncovered[level * w..][..w]
    }

    /// A lower bound on the allowed options needed to cover the items
    /// uncovered at `level`; it stops counting once above `limit`.
    /// `usize::MAX` when some uncovered item has no allowed option.
    fn lower_bound(&mut self, level: usize, limit: usize) -> usize {
        let packing = self.packing_bound(level, limit);
        if packing > limit {
            return packing;
        }
        packing.max(self.fractional_bound(level, limit))
    }

    /// The packing bound: items pairwise without a common allowed option.
    fn packing_bound(&mut self, level: usize, limit: usize) -> usize {
        let comp = self.comp;
        let w = comp.words;
        let start = level * w;
        self.remaining
            .copy_from_slice(&self.uncovered[start..start + w]);
        let mut count = 0;
        for word in 0..w {
            while self.remaining[word] != 0 {
                let item = word * 64 + self.remaining[word].trailing_zeros() as usize;
                count += 1;
                if count > limit {
                    return count;
                }
                let mut any = false;
                for &o in comp.options_of(item) {
                    if self.allowed[o as usize] {
                        any = true;
                        for (r, a) in self.remaining.iter_mut().zip(comp.row(o as usize)) {
                            *r &= !a;
                        }
                    }
                }
                if !any {
                    return usize::MAX;
                }
            }
        }
        count
    }

    /// The fractional bound: weights on the uncovered items such that no
    /// allowed option collects more than 1 (a feasible solution of the
    /// dual of the covering linear program), summed and rounded up. Each
    /// item starts at one over the most uncovered items an allowed option
    /// through it covers; then, item by item, its weight is raised by the
    /// least capacity its options have left. Stops early once above
    /// `limit`.
    fn fractional_bound(&mut self, level: usize, limit: usize) -> usize {
        let comp = self.comp;
        let w = comp.words;
        let start = level * w;
        let uncovered = &self.uncovered[start..start + w];
        for o in 0..comp.original.len() {
            if self.allowed[o] {
                self.gain[o] = comp
                    .row(o)
                    .iter()
                    .zip(uncovered)
                    .map(|(a, u)| (a & u).count_ones())
                    .sum();
                self.capacity[o] = 1.0;
            } else {
                // A forbidden option limits nothing.
                self.gain[o] = 0;
                self.capacity[o] = f64::INFINITY;
            }
        }
        // Rounding errors make no option's load exceed 1 by more than
        // 1e-12 or so, which moves the total by far less than 1e-6;
        // subtracting that keeps the bound admissible.
        let bound = |total: f64| (total - 1e-6).ceil().max(0.0) as usize;
        let mut total = 0.0f64;
        for item in ones(uncovered) {
            let options = comp.options_of(item);
            let mut best = 0;
            for &o in options {
                best = best.max(self.gain[o as usize]);
            }
            if best == 0 {
                return usize::MAX;
            }
            let weight = 1.0 / f64::from(best);
            total += weight;
            for &o in options {
                self.capacity[o as usize] -= weight;
            }
        }
        if bound(total) > limit {
            return bound(total);
        }
        for item in ones(uncovered) {
            let options = comp.options_of(item);
            let mut slack = f64::INFINITY;
            for &o in options {
                let capacity = self.capacity[o as usize];
                if capacity < slack {
                    slack = capacity;
                }
            }
            if slack > 1e-9 {
                total += slack;
                for &o in options {
                    self.capacity[o as usize] -= slack;
                }
            }
        }
        bound(total)
    }

    /// Forbids option `o` below the later siblings of `level`; true when
    /// that leaves some item uncovered at `level` without any option.
    fn forbid(&mut self, o: u32, level: usize) -> bool {
        let comp = self.comp;
        self.allowed[o as usize] = false;
        let w = comp.words;
        let uncovered = &self.uncovered[level * w..][..w];
        let mut dead = false;
        for &i in comp.items_of(o as usize) {
            let count = &mut self.allowed_count[i as usize];
            *count -= 1;
            if *count == 0 && has_bit(uncovered, i as usize) {
                dead = true;
            }
        }
        dead
    }

    fn allow(&mut self, o: u32) {
        self.allowed[o as usize] = true;
        for &i in self.comp.items_of(o as usize) {
            self.allowed_count[i as usize] += 1;
        }
    }

    /// Allows again the options `level` forbade and drops its candidates.
    fn pop_level(&mut self, level: usize) {
        let first = self.first[level] as usize;
        for k in first..self.forbidden_to[level] as usize {
            let o = self.candidates[k];
            self.allow(o);
        }
        self.candidates.truncate(first);
    }

    /// Lists the options to try for `item` at `level`: allowed ones, not
    /// dominated by another on the uncovered items, most gain first.
    fn push_candidates(&mut self, item: usize, level: usize) {
        let comp = self.comp;
        let w = comp.words;
        let uncovered = &self.uncovered[level * w..][..w];
        self.scratch.clear();
        for &o in comp.options_of(item) {
            if self.allowed[o as usize] {
                let gain = comp
                    .row(o as usize)
                    .iter()
                    .zip(uncovered)
                    .map(|(a, u)| (a & u).count_ones())
                    .sum();
                self.scratch.push((o, gain));
            }
        }
        // Most gain first; ties by option number, so that a dominated
        // option always comes after one that dominates it.
        self.scratch
            .sort_unstable_by_key(|&(o, gain)| (std::cmp::Reverse(gain), o));
        let first = self.candidates.len();
        for k in 0..self.scratch.len() {
            let (a, gain_a) = self.scratch[k];
            let row_a = comp.row(a as usize);
            // Only an earlier entry (as much gain or more) can dominate.
            let dominated = self.scratch[..k].iter().any(|&(b, gain_b)| {
                gain_b >= gain_a
                    && row_a
                        .iter()
                        .zip(comp.row(b as usize))
                        .zip(uncovered)
                        .all(|((x, y), u)| x & u & !y == 0)
            });
            if !dominated {
                self.candidates.push(a);
            }
        }
        self.first.push(first as u32);
        self.next.push(first as u32);
        self.forbidden_to.push(first as u32);
    }

    /// Searches for a cover of at most `k` options; `Ok(None)` when none
    /// exists, `Err` when a limit stopped the search. The scratch state is
    /// restored however it ends.
    fn decide(
        &mut self,
        k: usize,
        limits: &Limits,
        stats: &mut Stats,
    ) -> Result<Option<Vec<u32>>, Outcome> {
        let comp = self.comp;
        let w = comp.words;
        let k = k.min(comp.items);
        self.uncovered.clear();
        self.uncovered.resize((k + 1) * w, 0);
        self.uncovered[..w].copy_from_slice(&full_set(comp.items, w));
        self.chosen.clear();
        self.chosen.resize(k, 0);
        self.first.clear();
        self.next.clear();
        self.forbidden_to.clear();
        self.candidates.clear();
        let mut level = 0usize;
        let mut phase = Phase::Enter;
        let mut deadline = Deadline::new(limits.deadline);
        let result = loop {
            match phase {
                Phase::Enter => {
                    if let Some(outcome) = should_stop(limits, stats.nodes, &mut deadline) {
                        break Err(outcome);
                    }
                    stats.nodes += 1;
                    let uncovered = self.uncovered_at(level);
                    if uncovered.iter().all(|&x| x == 0) {
                        stats.nodes += 1;
                        stats.solutions += 1;
                        break Ok(Some(self.chosen[..level].to_vec()));
                    }
                    // The uncovered item with the fewest allowed options.
                    let mut best = (u32::MAX, 0);
                    for item in ones(uncovered) {
                        let count = self.allowed_count[item];
                        if count < best.0 {
                            best = (count, item);
                            if count <= 1 {
                                break;
                            }
                        }
                    }
                    let fails = best.0 == 0 || level >= k || {
                        let bound = self.lower_bound(level, k - level);
                        level + bound > k
                    };
                    if fails {
                        if level == 0 {
                            break Ok(None);
                        }
                        level -= 1;
                        phase = Phase::Try;
                        continue;
                    }
                    self.push_candidates(best.1, level);
                    phase = Phase::Try;
                }
                Phase::Try => {
                    let mut at = self.next[level] as usize;
                    let end = self.candidates.len();
                    // Forbid the option tried last below its later
                    // siblings; if that strands an item, stop here.
                    if at > self.first[level] as usize && self.forbidden_to[level] < at as u32 {
                        let o = self.candidates[at - 1];
                        self.forbidden_to[level] = at as u32;
                        stats.updates += 1;
                        if self.forbid(o, level) {
                            at = end;
                        }
                    }
                    if at >= end {
                        phase = Phase::Back;
                        continue;
                    }
                    let o = self.candidates[at];
                    self.next[level] = at as u32 + 1;
                    self.chosen[level] = o;
                    let (below, above) = self.uncovered.split_at_mut((level + 1) * w);
                    for ((next, cur), a) in above[..w]
                        .iter_mut()
                        .zip(&below[level * w..])
                        .zip(comp.row(o as usize))
                    {
                        *next = cur & !a;
                    }
                    level += 1;
                    phase = Phase::Enter;
                }
                Phase::Back => {
                    self.pop_level(level);
                    self.first.pop();
                    self.next.pop();
                    self.forbidden_to.pop();
                    if level == 0 {
                        break Ok(None);
                    }
                    level -= 1;
                    phase = Phase::Try;
                }
            }
        };
        // Undo what the levels still on the stack forbade.
        while let Some(level) = self.first.len().checked_sub(1) {
            self.pop_level(level);
            self.first.pop();
            self.next.pop();
            self.forbidden_to.pop();
        }
        debug_assert!(self.allowed.iter().all(|&a| a));
        result
    }
}

/// Whether the limits (with `deadline`, their deadline's check) say to
/// stop before entering a node.
fn should_stop(limits: &Limits, nodes: u64, deadline: &mut Deadline) -> Option<Outcome> {
    if limits.node_budget.is_some_and(|budget| nodes >= budget) {
        return Some(Outcome::NodeBudget);
    }
    if limits
        .cancel
        .as_ref()
        .is_some_and(|flag| flag.load(Ordering::Relaxed))
    {
        return Some(Outcome::Cancelled);
    }
    deadline.passed().then_some(Outcome::TimeLimit)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;

    fn problem(items: usize, options: &[&[usize]]) -> Problem {
        let mut builder = Problem::builder(items, 0);
        for option in options {
            builder.add_option(option.iter().copied()).unwrap();
        }
        builder.build()
    }

    /// Whether `cover` (option numbers) covers every primary item of
    /// `problem`, checked from the problem's own option lists.
    fn covers(problem: &Problem, cover: &[usize]) -> bool {
        let mut seen = vec![false; problem.primary_count()];
        for &o in cover {
            for &i in problem.option(o) {
                if (i as usize) < seen.len() {
                    seen[i as usize] = true;
                }
            }
        }
        seen.into_iter().all(|s| s)
    }

    /// The size of a minimum cover by trying every subset of options.
    fn brute_minimum(problem: &Problem) -> Option<usize> {
        let m = problem.option_count();
        (0u32..1 << m)
            .filter(|set| {
                let cover: Vec<usize> = (0..m).filter(|o| set >> o & 1 == 1).collect();
                covers(problem, &cover)
            })
            .map(|set| set.count_ones() as usize)
            .min()
    }

    #[test]
    fn a_small_cover_by_hand() {
        // Items 0..6; options {0,1,2} {2,3} {3,4,5} {0,5} {1,4}.
        let p = problem(6, &[&[0, 1, 2], &[2, 3], &[3, 4, 5], &[0, 5], &[1, 4]]);
        let solver = RepeatSolver::new(&p);
        let report = solver.minimum(&Limits::none());
        assert_eq!(report.outcome, Outcome::Exhausted);
        assert_eq!(report.cover, Some(vec![0, 2]));
        let none = solver.at_most(1, &Limits::none());
        assert_eq!((none.outcome, none.cover), (Outcome::Exhausted, None));
        let two = solver.at_most(2, &Limits::none()).cover.unwrap();
        assert!(two.len() <= 2 && covers(&p, &two));
    }

    #[test]
    fn no_items_need_no_options_and_uncoverable_items_have_no_cover() {
        let solver = RepeatSolver::new(&problem(0, &[]));
        assert_eq!(solver.minimum(&Limits::none()).cover, Some(vec![]));
        assert_eq!(solver.at_most(0, &Limits::none()).cover, Some(vec![]));
        let p = problem(3, &[&[0, 1]]);
        let solver = RepeatSolver::new(&p);
        assert!(!solver.is_coverable());
        assert_eq!(solver.lower_bound(), usize::MAX);
        let report = solver.minimum(&Limits::none());
        assert_eq!((report.outcome, report.cover), (Outcome::Exhausted, None));
        assert_eq!(solver.at_most(5, &Limits::none()).cover, None);
    }

    #[test]
    fn secondary_items_are_ignored() {
        let mut builder = Problem::builder(2, 1);
        builder.add_option([0, 2]).unwrap();
        builder.add_option([1, 2]).unwrap();
        let solver = RepeatSolver::new(&builder.build());
        assert_eq!(solver.minimum(&Limits::none()).cover, Some(vec![0, 1]));
    }

    #[test]
    fn dominated_options_and_implied_items_are_reduced_away() {
        // Option 1 ⊂ option 0; items 1 and 2 are implied by item 0.
        let p = problem(4, &[&[0, 1, 2], &[1, 2], &[3], &[2, 3]]);
        let solver = RepeatSolver::new(&p);
        assert_eq!(solver.minimum(&Limits::none()).cover.unwrap().len(), 2);
        // Two groups that share no option are two components.
        let p = problem(4, &[&[0, 1], &[0], &[2, 3], &[3]]);
        let solver = RepeatSolver::new(&p);
        assert_eq!(solver.component_count(), 2);
        assert_eq!(solver.minimum(&Limits::none()).cover, Some(vec![0, 2]));
    }

    /// A grid of items where option (r, c) covers item (r, c) and its four
    /// neighbours: hard enough that bounds and search both work.
    fn grid(side: usize) -> Problem {
        let mut builder = Problem::builder(side * side, 0);
        for r in 0..side {
            for c in 0..side {
                let mut items = vec![r * side + c];
                if r > 0 {
                    items.push((r - 1) * side + c);
                }
                if r + 1 < side {
                    items.push((r + 1) * side + c);
                }
                if c > 0 {
                    items.push(r * side + c - 1);
                }
                if c + 1 < side {
                    items.push(r * side + c + 1);
                }
                builder.add_option(items).unwrap();
            }
        }
        builder.build()
    }

    #[test]
    fn domination_numbers_of_grids() {
        // The domination numbers of the n×n grid graphs: 1, 2, 3, 4, 7, 10.
        for (side, expected) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 7), (6, 10)] {
            let p = grid(side);
            let solver = RepeatSolver::new(&p);
            let report = solver.minimum(&Limits::none());
            let cover = report.cover.unwrap();
            assert_eq!(cover.len(), expected, "grid {side}");
            assert!(covers(&p, &cover));
            assert!(solver.lower_bound() <= expected);
            assert_eq!(solver.at_most(expected - 1, &Limits::none()).cover, None);
        }
    }

    #[test]
    fn budget_cancel_and_deadline_stop_the_search() {
        let p = grid(7);
        let solver = RepeatSolver::new(&p);
        let limits = Limits {
            node_budget: Some(5),
            ..Limits::none()
        };
        // Deciding one below the minimum (12) needs many nodes.
        let report = solver.at_most(11, &limits);
        assert_eq!(report.outcome, Outcome::NodeBudget);
        assert_eq!(report.cover, None);
        assert!(report.stats.nodes <= 5);
        let report = solver.minimum(&limits);
        assert_eq!(report.outcome, Outcome::NodeBudget);
        assert!(covers(&p, &report.cover.unwrap()), "the best cover known");
        let cancel = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            cancel: Some(cancel),
            ..Limits::none()
        };
        assert_eq!(solver.at_most(11, &limits).outcome, Outcome::Cancelled);
        // A deadline already past stops at the first node.
        let limits = Limits {
            deadline: Some(std::time::Instant::now()),
            ..Limits::none()
        };
        let report = solver.at_most(11, &limits);
        assert_eq!(
            (report.outcome, report.stats.nodes),
            (Outcome::TimeLimit, 0)
        );
        let report = solver.minimum(&limits);
        assert_eq!(report.outcome, Outcome::TimeLimit);
        assert!(covers(&p, &report.cover.unwrap()), "the best cover known");
        // The solver is unchanged: the full search still works.
        assert_eq!(solver.minimum(&Limits::none()).cover.unwrap().len(), 12);
    }

    #[test]
    fn deep_problems_do_not_overflow_the_stack() {
        // 3000 items, each with its own option and a pair option: the
        // minimum is 1500 pairs, found with K = 1500 levels.
        let n = 3000;
        let mut builder = Problem::builder(n, 0);
        for i in (0..n).step_by(2) {
            builder.add_option([i, i + 1]).unwrap();
            builder.add_option([i]).unwrap();
            builder.add_option([i + 1]).unwrap();
        }
        let solver = RepeatSolver::new(&builder.build());
        let report = solver.minimum(&Limits::none());
        assert_eq!(report.cover.unwrap().len(), n / 2);
    }

    /// Random problems: up to 9 items and 10 options of random items.
    fn random_problem() -> impl Strategy<Value = Problem> {
        (0usize..=9).prop_flat_map(|items| {
            let option = proptest::collection::vec(0..items.max(1), 1..=4);
            proptest::collection::vec(option, 0..=10).prop_map(move |options| {
                let mut builder = Problem::builder(items, 0);
                for mut option in options {
                    if items == 0 {
                        continue;
                    }
                    option.sort_unstable();
                    option.dedup();
                    builder.add_option(option).unwrap();
                }
                builder.build()
            })
        })
    }

    /// `solver`'s minimum is the brute force's (a cover of that size, or
    /// none), found by an exhaustive search, and its lower bound is below
    /// it; returns that size.
    fn minimum_is_brute_forces(
        p: &Problem,
        solver: &RepeatSolver,
    ) -> Result<Option<usize>, TestCaseError> {
        let expected = brute_minimum(p);
        let report = solver.minimum(&Limits::none());
        prop_assert_eq!(report.outcome, Outcome::Exhausted);
        match expected {
            None => prop_assert_eq!(report.cover, None),
            Some(size) => {
                let cover = report.cover.unwrap();
                prop_assert_eq!(cover.len(), size);
                prop_assert!(covers(p, &cover));
                prop_assert!(solver.lower_bound() <= size);
            }
        }
        Ok(expected)
    }

    /// Larger random problems (up to 16 items and 16 options, options of
    /// up to 6 items), where the bounds and the reductions cut often.
    fn larger_problem() -> impl Strategy<Value = Problem> {
        (4usize..=16).prop_flat_map(|items| {
            let option = proptest::collection::vec(0..items, 1..=6);
            proptest::collection::vec(option, 4..=16).prop_map(move |options| {
                let mut builder = Problem::builder(items, 0);
                for mut option in options {
                    option.sort_unstable();
                    option.dedup();
                    builder.add_option(option).unwrap();
                }
                builder.build()
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn larger_minima_agree_with_brute_force(p in larger_problem()) {
            let solver = RepeatSolver::new(&p);
            if let Some(size) = minimum_is_brute_forces(&p, &solver)? {
                prop_assert_eq!(solver.at_most(size - 1, &Limits::none()).cover, None);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn minimum_and_decisions_agree_with_brute_force(p in random_problem()) {
            let solver = RepeatSolver::new(&p);
            let expected = minimum_is_brute_forces(&p, &solver)?;
            if expected.is_some() {
                let greedy = solver.greedy_cover().unwrap();
                prop_assert!(covers(&p, &greedy));
            }
            for k in 0..=p.option_count() + 1 {
                let report = solver.at_most(k, &Limits::none());
                prop_assert_eq!(report.outcome, Outcome::Exhausted);
                match (&report.cover, expected) {
                    (Some(cover), Some(size)) => {
                        prop_assert!(size <= k);
                        prop_assert!(cover.len() <= k);
                        prop_assert!(covers(&p, cover));
                    }
                    (None, Some(size)) => prop_assert!(size > k),
                    (None, None) => {}
                    (Some(_), None) => prop_assert!(false, "a cover where none exists"),
                }
            }
        }
    }
}
