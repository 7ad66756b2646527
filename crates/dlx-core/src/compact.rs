//! [`CompactSolver`]: a second exact-cover engine, for problems whose items
//! each have at most 64 options (every sudoku up to 64×64 is one).
//!
//! It branches by the same rule as [`Solver`](crate::Solver) (an item with
//! the fewest options, its options in input order) over a different
//! representation: nothing is ever relinked. Item and option lists are
//! fixed arrays built once; the search state is small and flat:
//!
//! - `masks[item]`: a bit per option in the item's list (bit `b` is the
//!   item's `b`-th option in input order) that is still live;
//! - `keys[item]`: the item's count of live options packed with its number,
//!   `count << item_bits | item`, so that the first item with the fewest
//!   options is simply the minimum key. An item that is covered (or
//!   secondary) has a key above every count, and is never the minimum.
//!
//! Choosing an option covers its items: every other live option of those
//! items is removed, which clears its bit in each of its other items'
//! masks and lowers their counts (each slot of an item's list keeps the
//! other items of its option, so nothing is looked up twice). While it
//! writes the counts, the step keeps the smallest key it wrote; if that
//! count is 0 the step is a dead end, and if it is 1 the next item is
//! forced, both known without looking at the other items. Only otherwise is
//! the minimum taken over all keys (one pass over a small array the
//! compiler vectorises).
//!
//! Undoing is only needed at real branch points (an item with two or more
//! options); most steps are forced moves. A small state (up to 16 KB:
//! sudoku up to 16×16) is copied before the first option is tried and
//! copied back before each next one; the copies live in one array that
//! grows only when the search goes deeper in branch points than it ever did
//! with this solver. A larger state would need that much memory per open
//! branch point (196 KB for 64×64), so there each write after the first
//! branch point logs the old words on a trail, reserved once at its bound
//! (one entry per incidence and per item), which is written back in reverse
//! ([`Undo`]). Nothing else allocates during a search.
//!
//! Differences from [`Solver`](crate::Solver), all by design: the solution
//! set is the same, but when several items are forced at once, the one
//! taken is not always the first in item order, so the order of solutions
//! and the node counts may differ; [`Stats::updates`] counts option
//! removals (an option leaving all its items' lists at once), not
//! Knuth's link updates. There is no resumable iterator, only visitors; but a
//! search stopped by its node budget can be resumed, or give the untried
//! options of its shallowest branch point away ([`CompactSolver::donate`]),
//! which is how [`crate::first_compact_parallel`] shares one search between
//! threads.
//!
//! The state words are as narrow as the problem allows (16-bit masks and
//! keys for 9×9 and 16×16 sudoku, 32-bit for 25×25, 64-bit masks beyond):
//! the narrower the state, the cheaper each saved copy. 16-bit keys are
//! signed and never negative, so the minimum is one SSE2 instruction
//! (`pminsw`) per eight keys. When all options have four items (sudoku,
//! Latin squares), the search is compiled a second time with the node loop
//! unrolled.
//!
//! Each of these choices was measured, and others tried and dropped: see
//! `docs/measurements.md`.

use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use crate::engine::{
    Control, Deadline, Limits, Outcome, Report, Search, Stats, UnknownOption, Visitor,
};
use crate::problem::Problem;
use crate::propagate::{Domain, Propagator, Slot, Verdict};

/// The most options an item may have for the compact engine.
pub const MAX_ITEM_OPTIONS: usize = 64;

/// The most primary items the compact engine handles (the item number and
/// its count share a 32-bit key).
pub const MAX_COMPACT_ITEMS: usize = 1 << 24;

/// Why [`CompactSolver::new`] refused a problem; use [`Solver`](crate::Solver)
/// for it instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TooWide {
    /// An item has more options than a 64-bit mask holds.
    #[error(
        "item {item} has {options} options; the compact engine handles at most {}",
        MAX_ITEM_OPTIONS
    )]
    Options {
        /// The item.
        item: usize,
        /// How many options it has.
        options: usize,
    },
    /// Too many items for the packed keys.
    #[error(
        "{items} items; the compact engine handles at most {}",
        MAX_COMPACT_ITEMS
    )]
    Items {
        /// How many items the problem has.
        items: usize,
    },
    /// Colours or bounds: the compact engine solves plain exact cover only.
    #[error("the problem has colours or bounds; the compact engine solves plain exact cover only")]
    ColoursOrBounds,
}

/// A bit set of one item's live options.
trait Mask: Copy + Eq + Debug + Send + Sync + 'static {
    /// An incidence of an option and an item, with the mask that clears
    /// the option's bit in the item's mask.
    type Node: Copy + Debug + Send + Sync + 'static;
    const ZERO: Self;
    const BITS: u32;
    fn bit(b: u32) -> Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn lowest(self) -> u32;
    fn without_lowest(self) -> Self;
    fn node(item: u32, b: u32) -> Self::Node;
    fn item_of(node: Self::Node) -> usize;
    fn clear_of(node: Self::Node) -> Self;
    fn to_u64(self) -> u64;
}

/// A packed `(count, item)` key.
trait Key: Copy + Ord + Debug + Send + Sync + 'static {
    const MAX: Self;
    const BITS: u32;
    fn from_u32(v: u32) -> Self;
    fn to_u32(self) -> u32;
    fn minus(self, unit: Self) -> Self;
    /// The smaller of two keys, by arithmetic: `min` compiles to branches
    /// on the data, which mispredict often in the node loop (more
    /// instructions, less time; measured in `docs/measurements.md`).
    fn branchless_min(self, other: Self) -> Self;
}

macro_rules! word {
    ($t:ty, $node:ty, $pack:expr, $item:expr, $clear:expr) => {
        impl Mask for $t {
            type Node = $node;
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(b: u32) -> Self {
                1 << b
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn node(item: u32, b: u32) -> $node {
                $pack(item, b)
            }
            #[inline(always)]
            fn item_of(node: $node) -> usize {
                $item(node)
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
            fn clear_of(node: $node) -> Self {
                $clear(node)
            }
        }
    };
}
// A 16-bit mask's node packs the item (narrow engines have at most 2^16
// item positions; see `CompactSolver::new`) and the clearing mask into one
// word, `item << 16 | clear`. (A 16-bit node was tried and dropped: more
// instructions, no fewer cache misses.)
word!(
    u16,
    u32,
    |item: u32, b: u32| item << 16 | u32::from(!(1u16 << b)),
    |node: u32| (node >> 16) as usize,
    |node: u32| node as u16
);
// Wider masks keep the clearing mask itself.
word!(
    u32,
    (u32, u32),
    |item: u32, b: u32| (item, !(1u32 << b)),
    |node: (u32, u32)| node.0 as usize,
    |node: (u32, u32)| node.1
);
word!(
    u64,
    (u64, u32),
    |item: u32, b: u32| (!(1u64 << b), item),
    |node: (u64, u32)| node.1 as usize,
    |node: (u64, u32)| node.0
);

macro_rules! key {
    ($t:ty) => {
        impl Key for $t {
            const MAX: Self = <$t>::MAX;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_u32(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u32(self) -> u32 {
                self as u32
            }
            #[inline(always)]
            fn minus(self, unit: Self) -> Self {
                self.wrapping_sub(unit)
            }
            #[inline(always)]
            fn branchless_min(self, other: Self) -> Self {
                // Keys are below 2^31, so the difference's sign is the
                // comparison.
                let d = (other as i64) - (self as i64);
                ((self as i64) + (d & (d >> 63))) as $t
            }
        }
    };
}
key!(i16);
key!(u32);

/// How a [`CompactSolver`] undoes a branch point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Undo {
    /// Copy the whole state before trying an item's first option, copy it
    /// back before each next one. Cheapest for small states, but memory
    /// grows with the state times the number of open branch points.
    Copy,
    /// Log each word's old value as it is written (once a branch point is
    /// open) and write the log back in reverse. Memory is fixed: at most
    /// one entry per incidence and per item.
    Trail,
}

/// States larger than this many bytes are not copied at branch points; a
/// trail of old words is kept instead (see `Compact::save`). The copy of a
/// 25×25 sudoku's state is 20 KB, a 64×64's 196 KB.
const TRAIL_ABOVE: usize = 16 * 1024;

/// The scan takes the minimum of this many keys at a time.
const SCAN_BLOCK: usize = 16;

/// `primary` rounded up to a multiple of [`SCAN_BLOCK`].
fn padded(primary: usize) -> usize {
    primary.div_ceil(SCAN_BLOCK) * SCAN_BLOCK
}

/// `index`, checked against `len` in debug builds and with the
/// `bounds-checks` feature (see `Compact::cover`).
#[inline(always)]
fn in_bounds(index: usize, len: usize) -> usize {
    #[cfg(any(debug_assertions, feature = "bounds-checks"))]
    assert!(index < len, "index {index} out of bounds ({len})");
    #[cfg(not(any(debug_assertions, feature = "bounds-checks")))]
    let _ = len;
    index
}

/// The smallest of `keys`, whose length is a multiple of [`SCAN_BLOCK`]
/// (so the loop has no scalar tail, and vectorises).
#[inline(always)]
fn smallest<K: Key>(keys: &[K]) -> K {
    keys.chunks_exact(SCAN_BLOCK)
        .fold([K::MAX; SCAN_BLOCK], |mut low, block| {
            for (l, &k) in low.iter_mut().zip(block) {
                *l = (*l).min(k);
            }
            low
        })
        .into_iter()
        .fold(K::MAX, |a, b| a.min(b))
}

/// [`smallest`] compiled for AVX2: 16 keys per instruction instead of 8
/// (a few percent less time on sudoku; `docs/measurements.md`).
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn smallest_avx2<K: Key>(keys: &[K]) -> K {
    smallest(keys)
}

/// The number of bits needed to write `v`.
fn bits_for(v: usize) -> u32 {
    usize::BITS - v.leading_zeros()
}

/// Searches one problem with the compact representation. Owns its state;
/// make one per thread. Every search starts from the problem's initial
/// state, so one solver serves any number of searches, each with its own
/// given options.
#[derive(Debug, Clone)]
pub struct CompactSolver {
    engine: Engine,
}

#[derive(Debug, Clone)]
enum Engine {
    Narrow(Compact<u16, i16>),
    Medium(Compact<u32, u32>),
    Wide(Compact<u64, u32>),
}

/// Runs `$body` with `$c` bound to the engine, whatever its word sizes.
macro_rules! with_engine {
    ($engine:expr, $c:ident => $body:expr) => {
        match $engine {
            Engine::Narrow($c) => $body,
            Engine::Medium($c) => $body,
            Engine::Wide($c) => $body,
        }
    };
}

/// Calls `$c.$run::<STRIDE, TRAIL, PROP, V>(…)` compiled for `$c`'s
/// options, undo and propagator. Options of four items (sudoku, Latin
/// squares) get a search of their own, with the node loop unrolled; with a
/// propagator the node loop is not the cost, and one generic version of it
/// is enough.
macro_rules! compiled_for {
    ($c:ident, $run:ident::<$v:ident>($($arg:expr),*)) => {
        match ($c.stride, $c.trailing, $c.propagator.0.is_some()) {
            (_, false, true) => $c.$run::<0, false, true, $v>($($arg),*),
            (_, true, true) => $c.$run::<0, true, true, $v>($($arg),*),
            (3, false, false) => $c.$run::<3, false, false, $v>($($arg),*),
            (3, true, false) => $c.$run::<3, true, false, $v>($($arg),*),
            (_, false, false) => $c.$run::<0, false, false, $v>($($arg),*),
            (_, true, false) => $c.$run::<0, true, false, $v>($($arg),*),
        }
    };
}

impl CompactSolver {
    /// Builds the compact engine for `problem`, or says why it does not
    /// apply (an item with more than [`MAX_ITEM_OPTIONS`] options, or more
    /// than [`MAX_COMPACT_ITEMS`] primary items). Branch points copy the
    /// state when it is small (up to 16 KB: sudoku up to 16×16) and keep a
    /// trail otherwise; see [`Undo`].
    pub fn new(problem: &Problem) -> Result<CompactSolver, TooWide> {
        CompactSolver::build(problem, None)
    }

    /// Like [`CompactSolver::new`], with the way branch points are undone
    /// chosen by the caller (for tests and measurements).
    pub fn with_undo(problem: &Problem, undo: Undo) -> Result<CompactSolver, TooWide> {
        CompactSolver::build(problem, Some(undo))
    }

    fn build(problem: &Problem, undo: Option<Undo>) -> Result<CompactSolver, TooWide> {
        if problem.has_colours() || problem.has_bounds() {
            return Err(TooWide::ColoursOrBounds);
        }
        let items = problem.item_count();
        let primary = problem.primary_count();
        if primary > MAX_COMPACT_ITEMS || items > MAX_COMPACT_ITEMS * 4 {
            return Err(TooWide::Items { items });
        }
        let mut lengths = vec![0usize; items];
        for option in problem.options() {
            for &item in option {
                lengths[item as usize] += 1;
            }
        }
        let widest = lengths.iter().copied().max().unwrap_or(0);
        if widest > MAX_ITEM_OPTIONS {
            let item = lengths.iter().position(|&l| l == widest).unwrap_or(0);
            return Err(TooWide::Options {
                item,
                options: widest,
            });
        }
        // A key is `count << item_bits | item`. A chosen option sets its
        // items' keys to `K::MAX` (as secondary items start), and removing
        // the item's other options lowers that by at most `widest` counts;
        // the count field is made wide enough that such a key never falls
        // below `2 · widest` (so it is never the smallest key of a primary
        // item still to cover) nor below 2 (so it never looks forced).
        let floor = (2 * widest).max(widest + 3);
        let count_bits = bits_for(floor - 1);
        let item_bits = bits_for(primary.saturating_sub(1)).max(1);
        let key_bits = count_bits + item_bits;
        let positions = items + padded(primary) - primary;
        let engine = if widest <= 16 && key_bits <= 15 && positions <= 1 << 16 {
            Engine::Narrow(Compact::new(problem, &lengths, item_bits, undo))
        } else if widest <= 32 {
            Engine::Medium(Compact::new(problem, &lengths, item_bits, undo))
        } else {
            Engine::Wide(Compact::new(problem, &lengths, item_bits, undo))
        };
        Ok(CompactSolver { engine })
    }

    /// The number of options of the problem.
    pub fn option_count(&self) -> usize {
        with_engine!(&self.engine, c => c.option_primary.len())
    }

    /// Attaches `propagator`, run at every search node (see
    /// [`Propagator`]), or detaches it (`None`). Clones of the solver get
    /// copies, so a shared search ([`crate::first_compact_parallel`])
    /// propagates on every thread; it then counts what the serial search
    /// counts, but its first solution may be another (see `Propagator`).
    pub fn set_propagator(&mut self, propagator: Option<Box<dyn Propagator>>) {
        with_engine!(&mut self.engine, c => c.propagator = Slot(propagator));
    }

    /// Whether a propagator is attached.
    pub fn has_propagator(&self) -> bool {
        with_engine!(&self.engine, c => c.propagator.0.is_some())
    }

    /// How branch points are undone.
    pub fn undo(&self) -> Undo {
        let trailing = with_engine!(&self.engine, c => c.trailing);
        if trailing {
            Undo::Trail
        } else {
            Undo::Copy
        }
    }

    /// The width of the state words, in bits (masks, keys): for tests and
    /// benchmarks.
    pub fn word_bits(&self) -> (u32, u32) {
        match &self.engine {
            Engine::Narrow(_) => (u16::BITS, i16::BITS),
            Engine::Medium(_) => (u32::BITS, u32::BITS),
            Engine::Wide(_) => (u64::BITS, u32::BITS),
        }
    }

    /// Runs on the search that its node budget ([`Limits::node_budget`],
    /// which counts the nodes of the whole search, not of this call)
    /// stopped last time, with `limits` and `visitor` in place of the
    /// earlier ones; the counters go on from where they stood. `None` when
    /// the last search did not stop at its node budget.
    pub fn resume<V: Visitor + ?Sized>(
        &mut self,
        limits: &Limits,
        visitor: &mut V,
    ) -> Option<Report> {
        with_engine!(&mut self.engine, c => c.resume(limits, visitor))
    }

    /// Gives away part of a search stopped by its node budget: the options
    /// not tried yet at its shallowest open branch point (the largest part
    /// left, usually), each as a prefix of options that leads to it. They
    /// are no longer part of this search; searching with a prefix as given
    /// options searches exactly its part. Empty when there is nothing to
    /// give.
    ///
    /// The order is the search's: the solutions of the resumed search come
    /// first, then those of the prefixes in order; and a later donation
    /// comes before an earlier one, as it is deeper. Searching a prefix
    /// finds its solutions in the whole search's order too: the state its
    /// forced options leave is the one the whole search had there (the
    /// state depends only on the options chosen), and a branch point is
    /// only ever taken where no item is forced, by the scan of that state.
    /// [`crate::first_compact_parallel`] and
    /// [`crate::count_compact_parallel`] split one search across cores
    /// with this.
    pub fn donate(&mut self) -> Vec<Vec<usize>> {
        with_engine!(&mut self.engine, c => c.donate())
    }
}

crate::engine::inherent_search!(CompactSolver);

impl Search for CompactSolver {
    fn search<V: Visitor + ?Sized>(
        &mut self,
        given: &[usize],
        limits: &Limits,
        visitor: &mut V,
    ) -> Result<Report, UnknownOption> {
        with_engine!(&mut self.engine, c => c.search(given, limits, visitor))
    }
}

/// One branch point: the state before it is saved in the slot of the same
/// number.
#[derive(Debug, Clone, Copy)]
struct Frame<M> {
    /// The item branched on.
    item: u32,
    /// Its options not tried yet.
    rest: M,
    /// How many options were chosen before this branch point.
    chosen: u32,
    /// Primary items left to cover before this branch point.
    remaining: u32,
    /// The length of the trail before this branch point.
    mark: u32,
}

/// The engine for one choice of word sizes.
#[derive(Debug, Clone)]
struct Compact<M: Mask, K> {
    // The problem, fixed.
    /// Primary items are `0..primary`.
    primary: usize,
    /// Item `i`'s options are the slots `item_base[i]..item_base[i + 1]`,
    /// in input order: bit `b` of its mask is slot `item_base[i] + b`.
    item_base: Vec<u32>,
    /// The option in each slot.
    slot_option: Vec<u32>,
    /// The option in slot `s` has the other items (and their bits)
    /// `slot_nodes[slot_base[s]..slot_base[s + 1]]`: what removing it from
    /// the slot's item must update.
    slot_base: Vec<u32>,
    slot_nodes: Vec<M::Node>,
    /// The length of every slot's list when they are all equal (all options
    /// have `stride + 1` items), else 0.
    stride: usize,
    /// Option `o` has the items (and their bits)
    /// `option_nodes[option_base[o]..option_base[o + 1]]`.
    option_base: Vec<u32>,
    option_nodes: Vec<M::Node>,
    /// How many primary items each option covers.
    option_primary: Vec<u32>,
    /// The key of an item whose count is 1 (item 0); keys below it have
    /// count 0, keys from `two` up count 2 or more.
    one: K,
    two: K,
    /// The item field of a key.
    item_field: u32,
    /// The keys the scan reads: the primary items', rounded up to a
    /// multiple of [`SCAN_BLOCK`] (the keys after the items are padding).
    scanned: usize,
    initial_masks: Vec<M>,
    initial_keys: Vec<K>,

    // The search state.
    masks: Vec<M>,
    keys: Vec<K>,
    remaining: u32,
    frames: Vec<Frame<M>>,
    /// Saved `(masks, keys)` of each frame, `items` words per slot.
    saved_masks: Vec<M>,
    saved_keys: Vec<K>,
    /// Whether the processor has AVX2, for [`Compact::scan`].
    avx2: bool,
    /// Whether branch points log writes on the trail instead of copying
    /// the state (for states above [`TRAIL_ABOVE`] bytes).
    trailing: bool,
    /// `(item, old mask, old key)` for each write since the first open
    /// branch point, when trailing. Along one path an option is removed
    /// once and an item covered once, so it never holds more than the
    /// incidences and items together: reserved once, never grown.
    trail: Vec<(u32, M, K)>,
    /// The options chosen so far (given ones not included).
    chosen: Vec<u32>,
    given: Vec<u32>,
    /// The solution reported to visitors.
    solution: Vec<usize>,
    nodes_visited: u64,
    solutions: u64,
    removals: u64,
    /// Whether the last search stopped at its node budget, and so can be
    /// resumed ([`CompactSolver::resume`]) or share its work
    /// ([`CompactSolver::donate`]).
    resumable: bool,
    /// The `low` of the search loop where it stopped.
    low: K,
    /// The node budget and the deadline of the search under way, kept
    /// here for the loop's slow path ([`Compact::due`]), out of its
    /// registers.
    budget: u64,
    deadline: Deadline,
    /// The model's reasoning at each node, if any
    /// ([`CompactSolver::set_propagator`]).
    propagator: Slot,
    /// Options the propagator removed in this search.
    propagated: u64,
}

impl<M: Mask, K: Key> Domain for Compact<M, K> {
    fn option_count(&self) -> usize {
        self.option_primary.len()
    }

    fn is_live(&self, option: usize) -> bool {
        option < self.option_primary.len() && Compact::is_live(self, option)
    }

    fn item_options(&self, item: usize) -> Option<u64> {
        // Secondary items sit after the padding of the scanned keys (an
        // item past the last has no position, and no options to say).
        let position = if item < self.primary {
            item
        } else {
            item.checked_add(self.scanned - self.primary)?
        };
        self.masks.get(position).map(|m| m.to_u64())
    }

    fn chosen(&self, out: &mut Vec<usize>) -> bool {
        out.clear();
        out.extend(self.given.iter().chain(&self.chosen).map(|&o| o as usize));
        true
    }

    /// Takes the option out of its items' masks, counts lowered, as the
    /// removals in `cover` do (and logged on the trail the same way).
    fn remove(&mut self, option: usize) {
        if !Domain::is_live(self, option) {
            return;
        }
        let log = self.trailing && !self.frames.is_empty();
        let (from, to) = (
            self.option_base[option] as usize,
            self.option_base[option + 1] as usize,
        );
        for n in from..to {
            let node = self.option_nodes[n];
            let item = M::item_of(node);
            if log {
                self.trail
                    .push((item as u32, self.masks[item], self.keys[item]));
            }
            self.masks[item] = self.masks[item].and(M::clear_of(node));
            self.keys[item] = self.keys[item].minus(self.one);
        }
        self.propagated += 1;
    }
}

impl<M: Mask, K: Key> Compact<M, K> {
    fn new(problem: &Problem, lengths: &[usize], item_bits: u32, undo: Option<Undo>) -> Self {
        let items = problem.item_count();
        let primary = problem.primary_count();
        // The state arrays hold the primary items, then padding up to a
        // multiple of `SCAN_BLOCK` (keys `K::MAX`, never written), then the
        // secondary items: the scan reads exactly the primary keys and the
        // padding. Items are known by these positions from here on.
        let scanned = padded(primary);
        let pad = scanned - primary;
        let position = |item: usize| if item < primary { item } else { item + pad };
        let positions = items + pad;
        let mut item_base = Vec::with_capacity(positions + 1);
        let mut total = 0u32;
        for pos in 0..positions {
            item_base.push(total);
            total += match pos {
                _ if pos < primary => lengths[pos] as u32,
                _ if pos < scanned => 0,
                _ => lengths[pos - pad] as u32,
            };
        }
        item_base.push(total);
        let slots = total as usize;
        let mut slot_option = vec![0u32; slots];
        let mut slot_item = vec![0u32; slots];
        let mut filled = vec![0u32; positions];
        let mut option_base = Vec::with_capacity(problem.option_count() + 1);
        let mut option_nodes = Vec::with_capacity(problem.incidence_count());
        let mut option_primary = Vec::with_capacity(problem.option_count());
        let mut initial_masks = vec![M::ZERO; positions];
        for (option, option_items) in problem.options().enumerate() {
            option_base.push(option_nodes.len() as u32);
            let mut covers = 0;
            for &item in option_items {
                let i = position(item as usize);
                let b = filled[i];
                filled[i] += 1;
                let slot = (item_base[i] + b) as usize;
                slot_option[slot] = option as u32;
                slot_item[slot] = i as u32;
                initial_masks[i] = initial_masks[i].or(M::bit(b));
                option_nodes.push(M::node(i as u32, b));
                covers += u32::from(i < primary);
            }
            option_primary.push(covers);
        }
        option_base.push(option_nodes.len() as u32);
        // Each slot's list: its option's nodes but the one of the slot's
        // own item.
        let mut slot_base = Vec::with_capacity(slots + 1);
        let mut slot_nodes = Vec::with_capacity(problem.incidence_count() * 3);
        for (&option, &item) in slot_option.iter().zip(&slot_item) {
            slot_base.push(slot_nodes.len() as u32);
            let o = option as usize;
            let nodes = &option_nodes[option_base[o] as usize..option_base[o + 1] as usize];
            slot_nodes.extend(nodes.iter().filter(|&&n| M::item_of(n) != item as usize));
        }
        slot_base.push(slot_nodes.len() as u32);
        let stride = match slot_base.get(1) {
            Some(&first) if slot_base.windows(2).all(|w| w[1] - w[0] == first) => first as usize,
            _ => 0,
        };
        let unit = 1u32 << item_bits;
        let initial_keys = (0..positions)
            .map(|i| {
                if i < primary {
                    K::from_u32(((lengths[i] as u32) * unit) | i as u32)
                } else {
                    K::MAX
                }
            })
            .collect();
        let mut compact = Compact {
            primary,
            item_base,
            slot_option,
            slot_base,
            slot_nodes,
            stride,
            option_base,
            option_nodes,
            option_primary,
            one: K::from_u32(unit),
            two: K::from_u32(2 * unit),
            item_field: item_bits,
            scanned,
            initial_masks,
            initial_keys,
            masks: Vec::new(),
            keys: Vec::new(),
            remaining: primary as u32,
            frames: Vec::new(),
            saved_masks: Vec::new(),
            saved_keys: Vec::new(),
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
            trailing: false,
            trail: Vec::new(),
            chosen: Vec::with_capacity(primary),
            given: Vec::new(),
            solution: Vec::new(),
            nodes_visited: 0,
            solutions: 0,
            removals: 0,
            resumable: false,
            low: K::MAX,
            budget: u64::MAX,
            deadline: Deadline::new(None),
            propagator: Slot::default(),
            propagated: 0,
        };
        compact.masks = compact.initial_masks.clone();
        compact.keys = compact.initial_keys.clone();
        let state = positions * (M::BITS + K::BITS) as usize / 8;
        compact.frames.reserve(primary + 1);
        let undo = undo.unwrap_or(if state > TRAIL_ABOVE {
            Undo::Trail
        } else {
            Undo::Copy
        });
        if undo == Undo::Trail {
            compact.trailing = true;
            compact.trail.reserve(problem.incidence_count() + positions);
        } else {
            // Room for the saved states of a first few branch points (up
            // to about a megabyte); deeper searches grow it once and keep
            // it.
            let slots = (primary + 1).min((1 << 20) / state.max(1)).max(4);
            compact.saved_masks.reserve(slots * positions);
            compact.saved_keys.reserve(slots * positions);
        }
        compact
    }

    /// Whether option `o` can still be chosen: it is still in the list of
    /// its first item (a removed option has left every list, a chosen one
    /// cleared its items' masks).
    fn is_live(&self, o: usize) -> bool {
        let node = self.option_nodes[self.option_base[o] as usize];
        let item = M::item_of(node);
        self.masks[item].and(M::clear_of(node)) != self.masks[item]
    }

    /// Runs the propagator on the current state.
    fn propagate(&mut self) -> Verdict {
        let Some(mut propagator) = self.propagator.0.take() else {
            return Verdict::Live;
        };
        let verdict = propagator.propagate(self);
        self.propagator.0 = Some(propagator);
        verdict
    }

    /// The propagator's item to branch on, if it names a primary item with
    /// live options.
    fn propagator_choice(&mut self) -> Option<usize> {
        let mut propagator = self.propagator.0.take()?;
        let item = propagator.choose(self);
        self.propagator.0 = Some(propagator);
        let item = item?;
        // Covered items have no live options; primary items are the first
        // positions.
        (item < self.primary && self.masks[item] != M::ZERO).then_some(item)
    }

    /// Chooses option `o`: covers each of its items, removing every other
    /// live option of theirs from all their lists. Returns the smallest key
    /// written for an item still to cover (or `K::MAX`).
    #[inline(always)]
    fn cover<const STRIDE: usize, const TRAIL: bool>(&mut self, o: usize) -> K {
        let nodes =
            &self.option_nodes[self.option_base[o] as usize..self.option_base[o + 1] as usize];
        let items = self.masks.len();
        let masks = self.masks.as_mut_ptr();
        let keys = self.keys.as_mut_ptr();
        let (item_base, slot_base, slot_nodes) =
            (&self.item_base, &self.slot_base, &self.slot_nodes);
        // With the trail, every write after the first branch point logs
        // the item's old words first (see `save`).
        let log = TRAIL && !self.frames.is_empty();
        let trail = &mut self.trail;
        let unit = self.one;
        let mut low = K::MAX;
        let mut removals = 0;
        // SAFETY: every index is in bounds, by construction in `new`:
        // - items come from `option_nodes` and `slot_nodes`, which hold
        //   items of the problem, and `masks` and `keys` have one word per
        //   item (two separate vectors, so the pointers never alias);
        // - a slot is `item_base[item] + b` for a bit `b` of the item's
        //   mask, and a mask only ever loses bits of its initial value,
        //   whose bits are `0..length`; so `slot < item_base[item + 1]`,
        //   which is at most the number of slots, and `slot + 1` indexes
        //   `slot_base` (one longer than the slots), whose entries are
        //   ranges of `slot_nodes`.
        // Debug builds (and the `bounds-checks` feature) check each index.
        // Under callgrind, the whole run on magictour_top1465 took 21% fewer
        // instructions than with checked indexing (410M to 324M), the
        // single largest step of the tuning.
        unsafe {
            // Flag the option's items first, so that the keys written for
            // them below can never be taken for the smallest one.
            for &node in nodes {
                let item = in_bounds(M::item_of(node), items);
                if log {
                    trail.push((item as u32, *masks.add(item), *keys.add(item)));
                }
                *keys.add(item) = K::MAX;
            }
            for &node in nodes {
                let item = in_bounds(M::item_of(node), items);
                let mut others = (*masks.add(item)).and(M::clear_of(node));
                *masks.add(item) = M::ZERO;
                let base = *item_base.get_unchecked(item) as usize;
                while others != M::ZERO {
                    let slot = in_bounds(base + others.lowest() as usize, slot_base.len() - 1);
                    others = others.without_lowest();
                    // With a fixed stride every slot has `STRIDE` nodes, at
                    // `slot * STRIDE` (see `stride`), and the loop unrolls.
                    let (from, to) = if STRIDE > 0 {
                        (slot * STRIDE, slot * STRIDE + STRIDE)
                    } else {
                        (
                            *slot_base.get_unchecked(slot) as usize,
                            *slot_base.get_unchecked(slot + 1) as usize,
                        )
                    };
                    for n in
                        in_bounds(from, slot_nodes.len() + 1)..in_bounds(to, slot_nodes.len() + 1)
                    {
                        let node = *slot_nodes.get_unchecked(n);
                        let k = in_bounds(M::item_of(node), items);
                        if log {
                            trail.push((k as u32, *masks.add(k), *keys.add(k)));
                        }
                        *masks.add(k) = (*masks.add(k)).and(M::clear_of(node));
                        let key = (*keys.add(k)).minus(unit);
                        *keys.add(k) = key;
                        low = K::branchless_min(low, key);
                    }
                    removals += 1;
                }
            }
        }
        self.removals += removals;
        self.remaining -= self.option_primary[o];
        low
    }

    /// The option in slot `b` of `item`.
    #[inline(always)]
    fn option_at(&self, item: usize, b: u32) -> u32 {
        self.slot_option[self.item_base[item] as usize + b as usize]
    }

    /// The smallest key of a primary item (`K::MAX` when all are covered).
    /// The keys are padded with `K::MAX` to a multiple of [`SCAN_BLOCK`],
    /// so the loop has no scalar tail.
    #[inline(always)]
    fn scan(&self) -> K {
        let keys = &self.keys[..self.scanned];
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor has AVX2
            // (`is_x86_feature_detected!` in `new`).
            return unsafe { smallest_avx2(keys) };
        }
        smallest(keys)
    }

    /// Saves the state before a branch point on `item`, whose options
    /// `rest` are still to be tried after the first: a copy of the state,
    /// or, with the trail, only where the trail stands.
    fn save<const TRAIL: bool>(&mut self, item: u32, rest: M) {
        let slot = self.frames.len();
        if !TRAIL {
            let items = self.masks.len();
            if self.saved_masks.len() < (slot + 1) * items {
                // A branch depth this solver never reached: grow, once.
                self.saved_masks.resize((slot + 1) * items, M::ZERO);
                self.saved_keys.resize((slot + 1) * items, K::MAX);
            }
            self.saved_masks[slot * items..(slot + 1) * items].copy_from_slice(&self.masks);
            self.saved_keys[slot * items..(slot + 1) * items].copy_from_slice(&self.keys);
        }
        self.frames.push(Frame {
            item,
            rest,
            chosen: self.chosen.len() as u32,
            remaining: self.remaining,
            mark: self.trail.len() as u32,
        });
    }

    /// Restores the state saved in frame `slot`: copies it back, or undoes
    /// the trail down to the frame's mark, newest first.
    fn restore<const TRAIL: bool>(&mut self, slot: usize) {
        if TRAIL {
            let mark = self.frames[slot].mark as usize;
            for &(item, mask, key) in self.trail[mark..].iter().rev() {
                self.masks[item as usize] = mask;
                self.keys[item as usize] = key;
            }
            self.trail.truncate(mark);
        } else {
            let items = self.masks.len();
            self.masks
                .copy_from_slice(&self.saved_masks[slot * items..(slot + 1) * items]);
            self.keys
                .copy_from_slice(&self.saved_keys[slot * items..(slot + 1) * items]);
        }
    }

    /// The options of the shallowest open branch point not tried yet, each
    /// as the prefix that leads to it, in the search's order; they are no
    /// longer part of this search.
    fn donate(&mut self) -> Vec<Vec<usize>> {
        if !self.resumable {
            return Vec::new();
        }
        let Some(at) = self.frames.iter().position(|f| f.rest != M::ZERO) else {
            return Vec::new();
        };
        let Frame {
            item,
            mut rest,
            chosen,
            ..
        } = self.frames[at];
        // The search pops the frame when it backs up to it.
        self.frames[at].rest = M::ZERO;
        let mut prefixes = Vec::new();
        let path: Vec<usize> = self
            .given
            .iter()
            .chain(&self.chosen[..chosen as usize])
            .map(|&o| o as usize)
            .collect();
        while rest != M::ZERO {
            let mut prefix = path.clone();
            prefix.push(self.option_at(item as usize, rest.lowest()) as usize);
            rest = rest.without_lowest();
            prefixes.push(prefix);
        }
        prefixes
    }

    /// Runs the search on from where its node budget stopped it.
    fn resume<V: Visitor + ?Sized>(&mut self, limits: &Limits, visitor: &mut V) -> Option<Report> {
        if !self.resumable {
            return None;
        }
        let low = self.low;
        if limits
            .max_solutions
            .is_some_and(|max| self.solutions >= max)
        {
            // A limit the search has already reached (0 among them).
            return Some(self.report(Outcome::SolutionLimit));
        }
        let outcome = compiled_for!(self, run_from::<V>(limits, visitor, low));
        Some(self.report(outcome))
    }

    /// The report of a search that ended with `outcome`.
    fn report(&mut self, outcome: Outcome) -> Report {
        self.resumable = outcome == Outcome::NodeBudget;
        Report {
            outcome,
            stats: Stats {
                nodes: self.nodes_visited,
                updates: self.removals,
                solutions: self.solutions,
                cleansings: 0,
                propagated: self.propagated,
            },
        }
    }

    fn search<V: Visitor + ?Sized>(
        &mut self,
        given: &[usize],
        limits: &Limits,
        visitor: &mut V,
    ) -> Result<Report, UnknownOption> {
        // Whatever happens, the last search is no longer there to resume.
        self.resumable = false;
        let options = self.option_primary.len();
        if let Some(&option) = given.iter().find(|&&o| o >= options) {
            return Err(UnknownOption { option, options });
        }
        let outcome = compiled_for!(self, search_from::<V>(given, limits, visitor));
        Ok(self.report(outcome))
    }

    /// Resets the state, forces the `given` options and runs the search.
    fn search_from<
        const STRIDE: usize,
        const TRAIL: bool,
        const PROP: bool,
        V: Visitor + ?Sized,
    >(
        &mut self,
        given: &[usize],
        limits: &Limits,
        visitor: &mut V,
    ) -> Outcome {
        self.masks.copy_from_slice(&self.initial_masks);
        self.keys.copy_from_slice(&self.initial_keys);
        self.remaining = self.primary as u32;
        self.frames.clear();
        self.trail.clear();
        self.chosen.clear();
        self.given.clear();
        self.nodes_visited = 0;
        self.solutions = 0;
        self.removals = 0;
        self.propagated = 0;
        if let Some(propagator) = self.propagator.0.as_mut() {
            propagator.begin();
        }
        for &o in given {
            if !self.is_live(o) {
                // The givens conflict: no solution.
                return Outcome::Exhausted;
            }
            self.cover::<STRIDE, TRAIL>(o);
            self.given.push(o as u32);
        }
        self.run::<STRIDE, TRAIL, PROP, V>(limits, visitor)
    }

    /// Reports the current solution; `Some(outcome)` when the search must
    /// end here.
    fn found<V: Visitor + ?Sized>(&mut self, limits: &Limits, visitor: &mut V) -> Option<Outcome> {
        self.nodes_visited += 1;
        self.solutions += 1;
        self.solution.clear();
        self.solution
            .extend(self.given.iter().chain(&self.chosen).map(|&o| o as usize));
        if visitor.solution(&self.solution) == Control::Stop {
            return Some(Outcome::Stopped);
        }
        match limits.max_solutions {
            Some(max) if self.solutions >= max => Some(Outcome::SolutionLimit),
            _ => None,
        }
    }

    /// The search loop, from the state the givens left.
    fn run<const STRIDE: usize, const TRAIL: bool, const PROP: bool, V: Visitor + ?Sized>(
        &mut self,
        limits: &Limits,
        visitor: &mut V,
    ) -> Outcome {
        if limits.max_solutions.is_some_and(|max| max == 0) {
            return Outcome::SolutionLimit;
        }
        if self.remaining == 0 {
            // The givens (or an empty problem) cover every primary item.
            return self.found(limits, visitor).unwrap_or(Outcome::Exhausted);
        }
        self.run_from::<STRIDE, TRAIL, PROP, V>(limits, visitor, K::MAX)
    }

    /// The loop's slow path, at the node where the budget or a read of the
    /// clock is due: the outcome that ends the search, or the node where
    /// the next is due.
    #[cold]
    #[inline(never)]
    fn due(&mut self) -> Result<u64, Outcome> {
        if self.nodes_visited >= self.budget {
            return Err(Outcome::NodeBudget);
        }
        match self.deadline.next_read() {
            None => Err(Outcome::TimeLimit),
            Some(nodes) => Ok(self.nodes_visited.saturating_add(nodes).min(self.budget)),
        }
    }

    /// The search loop, from the current state; `low` is the smallest key
    /// the last step wrote (`K::MAX` asks for a scan).
    fn run_from<const STRIDE: usize, const TRAIL: bool, const PROP: bool, V: Visitor + ?Sized>(
        &mut self,
        limits: &Limits,
        visitor: &mut V,
        mut low: K,
    ) -> Outcome {
        let cancel: Option<&AtomicBool> = limits.cancel.as_deref();
        self.budget = limits.node_budget.unwrap_or(u64::MAX);
        self.deadline = Deadline::new(limits.deadline);
        // The budget and the deadline's clock share the loop's one
        // comparison a node, with `next`, where either is due (the clock
        // is read at once); the rest waits in `self` (a second comparison
        // cost 1.6% more instructions on the 9×9 sets).
        let mut next = self.nodes_visited;
        let item_field = self.item_field;
        let item_mask = (1u32 << item_field) - 1;
        loop {
            // Enter a level.
            if self.nodes_visited >= next {
                match self.due() {
                    Ok(later) => next = later,
                    Err(outcome) => {
                        self.low = low;
                        return outcome;
                    }
                }
            }
            if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Outcome::Cancelled;
            }
            self.nodes_visited += 1;
            let mut key = if low < self.two { low } else { self.scan() };
            if PROP && !(self.one..self.two).contains(&key) {
                // Reason where the search would branch, then look again:
                // it may have removed options of any item. Forced moves
                // are taken without it, as its own rules would. At a dead
                // end it runs too, so that a propagator that learns where
                // dead ends are (for its branching) sees this one.
                key = match self.propagate() {
                    Verdict::Live if key >= self.two => self.scan(),
                    _ => K::from_u32(0),
                };
            }
            // After a step, every primary item still to cover has a count
            // of at least 1 unless that step wrote a 0, which `low` shows.
            let mut dead = key < self.one;
            if !dead {
                let mut item = (key.to_u32() & item_mask) as usize;
                if PROP && key >= self.two {
                    if let Some(chosen) = self.propagator_choice() {
                        item = chosen;
                    }
                }
                let live = self.masks[item];
                let b = live.lowest() as usize;
                let rest = live.without_lowest();
                if rest != M::ZERO {
                    self.save::<TRAIL>(item as u32, rest);
                }
                let o = self.option_at(item, b as u32);
                self.chosen.push(o);
                low = self.cover::<STRIDE, TRAIL>(o as usize);
                if self.remaining == 0 {
                    if let Some(outcome) = self.found(limits, visitor) {
                        return outcome;
                    }
                    dead = true;
                }
            }
            // Back up to the newest branch point with an option left, until
            // one leads somewhere that is not a solution.
            while dead {
                let Some(frame) = self.frames.last_mut() else {
                    return Outcome::Exhausted;
                };
                if frame.rest == M::ZERO {
                    // Its options were given away (`donate`).
                    self.frames.pop();
                    continue;
                }
                let b = frame.rest.lowest() as usize;
                frame.rest = frame.rest.without_lowest();
                let Frame {
                    item,
                    rest,
                    chosen,
                    remaining,
                    ..
                } = *frame;
                let slot = self.frames.len() - 1;
                self.restore::<TRAIL>(slot);
                if rest == M::ZERO {
                    // The last option of this branch point: its state is
                    // not needed again.
                    self.frames.pop();
                }
                self.remaining = remaining;
                self.chosen.truncate(chosen as usize);
                let o = self.option_at(item as usize, b as u32);
                self.chosen.push(o);
                low = self.cover::<STRIDE, TRAIL>(o as usize);
                if self.remaining == 0 {
                    if let Some(outcome) = self.found(limits, visitor) {
                        return outcome;
                    }
                } else {
                    dead = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 scan finds what the plain one finds.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn both_scans_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for blocks in 1..6 {
            for _ in 0..50 {
                let narrow: Vec<i16> = (0..blocks * SCAN_BLOCK)
                    .map(|_| (next() % 30000) as i16)
                    .collect();
                let wide: Vec<u32> = (0..blocks * SCAN_BLOCK).map(|_| next() >> 1).collect();
                // SAFETY: AVX2 was detected above.
                unsafe {
                    assert_eq!(smallest_avx2(&narrow), smallest(&narrow));
                    assert_eq!(smallest_avx2(&wide), smallest(&wide));
                }
            }
        }
    }
    use crate::Solver;

    fn problem(primary: usize, secondary: usize, options: &[&[usize]]) -> Problem {
        let mut builder = Problem::builder(primary, secondary);
        for option in options {
            builder.add_option(option.iter().copied()).unwrap();
        }
        builder.build()
    }

    fn all(solver: &mut CompactSolver, given: &[usize]) -> Vec<Vec<usize>> {
        let mut found = Vec::new();
        solver
            .search(given, &Limits::none(), &mut |s: &[usize]| {
                let mut s = s.to_vec();
                s.sort_unstable();
                found.push(s);
                Control::Continue
            })
            .unwrap();
        found.sort();
        found
    }

    #[test]
    fn knuths_example() {
        // The example of Knuth's DLX paper: one solution, options 0, 3, 4.
        let p = problem(
            7,
            0,
            &[
                &[2, 4, 5],
                &[0, 3, 6],
                &[1, 2, 5],
                &[0, 3],
                &[1, 6],
                &[3, 4, 6],
            ],
        );
        let mut solver = CompactSolver::new(&p).unwrap();
        assert_eq!(all(&mut solver, &[]), [vec![0, 3, 4]]);
        assert_eq!(solver.count(), 1);
        assert_eq!(solver.first_with(&[1]).unwrap(), None);
        assert_eq!(solver.first_with(&[3]).unwrap().map(|s| s.len()), Some(3));
    }

    #[test]
    fn word_sizes_follow_the_problem() {
        let p = problem(2, 0, &[&[0], &[1], &[0, 1]]);
        assert_eq!(CompactSolver::new(&p).unwrap().word_bits(), (16, 16));
        let mut solver = CompactSolver::new(&problem(1, 0, &[&[0][..]; 20])).unwrap();
        assert_eq!(solver.word_bits(), (32, 32));
        assert_eq!(solver.count(), 20);
        // Options {a x} and {a}, 32 of each.
        let alternating: Vec<&[usize]> = (0..64)
            .map(|k| if k % 2 == 0 { &[0, 1][..] } else { &[0][..] })
            .collect();
        let mut solver = CompactSolver::new(&problem(1, 1, &alternating)).unwrap();
        assert_eq!(solver.word_bits(), (64, 32));
        assert_eq!(solver.count(), 64);
        assert_eq!(
            CompactSolver::new(&problem(1, 0, &[&[0][..]; 65])).unwrap_err(),
            TooWide::Options {
                item: 0,
                options: 65
            }
        );
    }

    #[test]
    fn secondary_items_are_covered_at_most_once() {
        // a b | x: {a x}, {b x}, {a}, {b}.
        let p = problem(2, 1, &[&[0, 2], &[1, 2], &[0], &[1]]);
        let mut solver = CompactSolver::new(&p).unwrap();
        assert_eq!(all(&mut solver, &[]), [vec![0, 3], vec![1, 2], vec![2, 3]]);
        assert_eq!(all(&mut solver, &[0]), [vec![0, 3]]);
        assert_eq!(all(&mut solver, &[0, 1]), Vec::<Vec<usize>>::new());
    }

    /// A secondary item whose options are all gone can have a key below a
    /// primary item's count of 16 when the keys fill their 15 bits; the
    /// scan must never see it. Primary items P1..P16 each have options {Pk}
    /// and {x, Pk}, Q has 16 options {Q}, 1000 more primary items have one
    /// option each (so that item numbers take 10 bits), and x is
    /// secondary: (1 + 16) · 16 solutions.
    #[test]
    fn the_scan_never_picks_a_secondary_item() {
        let fillers = 1000;
        let mut b = Problem::builder(17 + fillers, 1);
        let x = 17 + fillers;
        for k in 0..16 {
            b.add_option([k]).unwrap();
            b.add_option([k, x]).unwrap();
        }
        for _ in 0..16 {
            b.add_option([16]).unwrap();
        }
        for f in 17..17 + fillers {
            b.add_option([f]).unwrap();
        }
        let p = b.build();
        assert_eq!(Solver::new(&p).count(), 272);
        let mut solver = CompactSolver::new(&p).unwrap();
        assert_eq!(solver.word_bits(), (16, 16));
        assert_eq!(all(&mut solver, &[]).len(), 272);
    }

    #[test]
    fn edge_cases() {
        let mut solver = CompactSolver::new(&problem(0, 0, &[])).unwrap();
        assert_eq!(solver.first(), Some(vec![]));
        // Only secondary items, no options: the empty solution.
        let mut solver = CompactSolver::new(&problem(0, 2, &[])).unwrap();
        assert_eq!(solver.count(), 1);
        let mut solver = CompactSolver::new(&problem(2, 0, &[&[0]])).unwrap();
        assert_eq!(solver.count(), 0);
        let mut solver = CompactSolver::new(&problem(1, 0, &[&[0]])).unwrap();
        assert_eq!(solver.first_with(&[0]).unwrap(), Some(vec![0]));
        assert_eq!(solver.first_with(&[0, 0]).unwrap(), None, "twice");
        assert_eq!(
            solver.first_with(&[1]),
            Err(UnknownOption {
                option: 1,
                options: 1
            })
        );
        let report = solver.count_with(&[], &Limits::solutions(0)).unwrap();
        assert_eq!(report.outcome, Outcome::SolutionLimit);
    }

    #[test]
    fn limits_and_budget() {
        // Four independent pairs: 16 solutions.
        let mut b = Problem::builder(4, 0);
        for item in 0..4 {
            b.add_option([item]).unwrap();
            b.add_option([item]).unwrap();
        }
        let p = b.build();
        let mut solver = CompactSolver::new(&p).unwrap();
        assert_eq!(solver.count(), 16);
        assert_eq!(Solver::new(&p).count(), 16);
        let report = solver.count_with(&[], &Limits::solutions(5)).unwrap();
        assert_eq!(
            (report.outcome, report.stats.solutions),
            (Outcome::SolutionLimit, 5)
        );
        let limits = Limits {
            node_budget: Some(3),
            ..Limits::none()
        };
        let report = solver.count_with(&[], &limits).unwrap();
        assert_eq!(report.outcome, Outcome::NodeBudget);
        assert!(report.stats.nodes <= 3);
        let flag = std::sync::Arc::new(AtomicBool::new(true));
        let limits = Limits {
            cancel: Some(flag),
            ..Limits::none()
        };
        let report = solver.count_with(&[], &limits).unwrap();
        assert_eq!(report.outcome, Outcome::Cancelled);
        // A deadline already past: stopped at the root.
        let limits = Limits {
            deadline: Some(std::time::Instant::now()),
            ..Limits::none()
        };
        let report = solver.count_with(&[], &limits).unwrap();
        assert_eq!(
            (report.outcome, report.stats.nodes),
            (Outcome::TimeLimit, 0)
        );
        assert!(solver
            .resume(&Limits::none(), &mut |_: &[usize]| Control::Continue)
            .is_none());
        // And the solver still answers the whole search afterwards.
        assert_eq!(solver.count(), 16);
    }
}
