//! Sudoku reasoning as the engine's [`Propagator`]: the rules of
//! [`logic`](super::logic) run on the candidates the search has left.
//!
//! At each search node the propagator reads every cell's candidates from
//! the live options (a digit is a candidate of a cell while the option
//! that puts it there is live; a filled cell has none), runs the chosen
//! [`Rules`] to their fixpoint, and removes the option of every candidate
//! they eliminate. The engine undoes the removals when it backs up. It
//! knows the model only through a table from (cell, digit) to option, so
//! the sudoku model ([`Model`](super::Model), option `cell·s + d − 1`) and
//! the target sudoku model (options in score order) share it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use dlx_core::{Domain, Propagator, Verdict};

use super::logic::{Geometry, Propagation, Rules};
use super::symbols::Size;

/// How much reasoning `cover sudoku` does between choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// By size, from measurements (see [`Level::rules_for`]).
    #[default]
    Auto,
    /// None: the plain exact-cover search.
    None,
    /// Singles, box-line interactions, naked and hidden pairs and triples.
    Basic,
    /// Singles, box-line interactions and domain-consistent all-different
    /// per unit (Régin's matching).
    Full,
    /// Exactly these rules (to measure a rule alone).
    Rules(Rules),
}

impl Level {
    /// The rules this level runs on a grid of `size`; `None` for no
    /// propagator at all. `Auto` is the fastest level for the size on the
    /// public sets: none for 4×4 and 9×9, full from 16×16 on.
    pub fn rules_for(self, size: Size) -> Option<Rules> {
        match self {
            Level::Auto if size.box_side() >= 4 => Some(Rules::FULL),
            Level::Auto | Level::None => None,
            Level::Basic => Some(Rules::BASIC),
            Level::Full => Some(Rules::FULL),
            Level::Rules(rules) => Some(rules),
        }
    }

    /// The level's name, as `--propagate` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Auto => "auto",
            Level::None => "none",
            Level::Basic => "basic",
            Level::Full => "full",
            Level::Rules(_) => "rules",
        }
    }
}

/// The sudoku rules as a propagator for one grid size and one numbering of
/// the options.
#[derive(Clone)]
pub struct SudokuPropagator {
    geometry: Arc<Geometry>,
    rules: Rules,
    /// `option_of[cell · s + d − 1]`: the option that puts `d` in `cell`.
    option_of: Arc<[u32]>,
    work: Propagation,
    candidates: Vec<u64>,
    /// Whether the items of cells are the first `s²` items, in cell order
    /// (the sudoku model's), so that [`Propagator::choose`] can name them.
    cells_first: bool,
    /// Per unit: one plus the dead ends its rules found in this search
    /// (weighted degree: cells of units that fail often are branched on
    /// first).
    weights: Vec<u32>,
    /// Which restart of a search the next one is (0: a search of its own),
    /// set by the solver that restarts ([`SudokuPropagator::restarts`]).
    restart: Arc<AtomicU32>,
    /// The restart this search is, which perturbs the branching's ties.
    noise: u32,
}

impl SudokuPropagator {
    /// A propagator running `rules` on grids of `geometry`, whose options
    /// are numbered by `option_of` (indexed `cell · s + d − 1`).
    pub fn new(geometry: Arc<Geometry>, rules: Rules, option_of: Arc<[u32]>) -> SudokuPropagator {
        let cells = geometry.size().cells();
        assert_eq!(
            option_of.len(),
            cells * geometry.size().side(),
            "one option per cell and digit"
        );
        SudokuPropagator {
            work: Propagation::new(&geometry),
            weights: vec![1; geometry.units()],
            geometry,
            rules,
            option_of,
            candidates: vec![0; cells],
            cells_first: false,
            restart: Arc::default(),
            noise: 0,
        }
    }

    /// The counter a solver sets before each search to restart one: a
    /// search begun with it at `k > 0` keeps the failure weights the
    /// earlier searches learnt and breaks the branching's ties another way
    /// (by `k`); at 0 a search starts afresh. (Restarts are the usual cure
    /// for the heavy tails of a branching that learns: a bad early choice
    /// is left behind, what it taught is kept.)
    pub fn restarts(&self) -> Arc<AtomicU32> {
        Arc::clone(&self.restart)
    }

    /// For the sudoku model, whose option `cell · s + d − 1` puts `d` in
    /// `cell`.
    pub fn for_model(size: Size, rules: Rules) -> SudokuPropagator {
        let options = (0..(size.cells() * size.side()) as u32).collect();
        let mut propagator = SudokuPropagator::new(Arc::new(Geometry::new(size)), rules, options);
        propagator.cells_first = true;
        propagator
    }

    /// The candidates of each cell as the last call left them (bit `d − 1`
    /// for digit `d`; 0 for a filled cell).
    pub fn candidates(&self) -> &[u64] {
        &self.candidates
    }

    /// Reads the candidates of every cell from `domain`: with the sudoku
    /// model's numbering, a cell's item lists its digits in order, so the
    /// engine's mask of the item is the cell's candidates (a word per
    /// cell instead of a call per option: half the time of a 25×25 node
    /// went into reading, option by option).
    fn read(&mut self, domain: &dyn Domain) {
        let side = self.geometry.size().side();
        if self.cells_first && domain.item_options(0).is_some() {
            for (cell, mask) in self.candidates.iter_mut().enumerate() {
                *mask = domain.item_options(cell).unwrap_or(0);
            }
            return;
        }
        for (cell, mask) in self.candidates.iter_mut().enumerate() {
            let options = &self.option_of[cell * side..(cell + 1) * side];
            *mask = options
                .iter()
                .enumerate()
                .filter(|&(_, &o)| domain.is_live(o as usize))
                .fold(0, |m, (d, _)| m | 1 << d);
        }
    }
}

impl Propagator for SudokuPropagator {
    fn begin(&mut self) {
        self.noise = self.restart.load(Ordering::Relaxed);
        if self.noise == 0 {
            self.weights.fill(1);
        }
    }

    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict {
        self.read(domain);
        let side = self.geometry.size().side();
        let option_of = &self.option_of;
        let result = self.work.propagate(
            &self.geometry,
            self.rules,
            &mut self.candidates,
            &mut |cell, digit| {
                domain.remove(option_of[cell * side + usize::from(digit) - 1] as usize)
            },
        );
        match result {
            Ok(()) => Verdict::Live,
            Err(_) => {
                if let Some(unit) = self.work.failed_unit() {
                    self.weights[unit] = self.weights[unit].saturating_add(1);
                }
                Verdict::Dead
            }
        }
    }

    /// The unsolved cell with the fewest candidates per unit of weight
    /// (dom/wdeg: the candidates over the summed weights of its row,
    /// column and box), the first such in row-major order. Branching
    /// where the rules keep failing finds the contradictions of a wrong
    /// guess sooner: on the Gecode 25×25 puzzles it is what makes full
    /// propagation finish at all.
    fn choose(&mut self, _domain: &dyn Domain) -> Option<usize> {
        if !self.cells_first {
            return None;
        }
        let mut best: Option<(usize, u64, u64)> = None;
        for (cell, &mask) in self.candidates.iter().enumerate() {
            let size = u64::from(mask.count_ones());
            if size < 2 {
                continue;
            }
            let weight: u64 = self
                .geometry
                .cell_units(cell)
                .iter()
                .map(|&u| u64::from(self.weights[u]))
                .sum();
            // Sixteenths of a weight, the fraction drawn per restart.
            let weight = weight * 16 + jitter(cell, self.noise);
            // size / weight < best_size / best_weight, in integers.
            if best.is_none_or(|(_, s, w)| size * w < s * weight) {
                best = Some((cell, size, weight));
            }
        }
        best.map(|(cell, _, _)| cell)
    }

    fn box_clone(&self) -> Box<dyn Propagator> {
        // A copy for another solver has a restart counter of its own.
        let mut copy = self.clone();
        copy.restart = Arc::default();
        Box::new(copy)
    }
}

/// A fraction in `0..16` drawn from `cell` and `restart` (0 on the first
/// search, so it branches as without restarts).
fn jitter(cell: usize, restart: u32) -> u64 {
    if restart == 0 {
        return 0;
    }
    let mut x = (cell as u64) << 32 | u64::from(restart);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (x ^ (x >> 31)) & 15
}
