//! Algorithm X over the dancing links: an iterative, resumable search.
//!
//! The search is one loop over `level` and the stack `choice[level]`, with
//! Knuth's labels as the phases of a small state machine (`Forward`: enter a
//! level and pick an item; `Advance`: try the next option of that item;
//! `Recover`: undo the option just tried). Because all state lives in the
//! [`Solver`], the loop can return at a solution and resume later, which is
//! what the [`Solutions`] iterator does; visitors, counting and limits are
//! thin layers over that one loop.
//!
//! Counters are kept at exactly the points `shared/xc/README.md` defines:
//! a search node each time a level is entered (the root included) and each
//! time a solution is found; an update each time an item leaves the active
//! list or a node is unlinked from an item's list.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::links::{Links, NodeRef};
use crate::problem::Problem;

/// What the search has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Search nodes: levels entered (the root included) plus solutions found.
    pub nodes: u64,
    /// Items taken out of the active list plus nodes unlinked from a list.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
    }
}

/// Limits on one search. The default has none.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop after this many solutions.
    pub max_solutions: Option<u64>,
    /// Stop before entering a level once this many search nodes were
    /// visited. The budget bounds the levels entered: solutions found on
    /// the last level entered still count as nodes.
    pub node_budget: Option<u64>,
    /// Stop as soon as another thread sets this flag (checked on entering a
    /// level).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Stop after `n` solutions.
    pub fn solutions(n: u64) -> Limits {
        Limits {
            max_solutions: Some(n),
            ..Limits::default()
        }
    }
}

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every branch was explored: the solution count is exact.
    Exhausted,
    /// The `max_solutions` limit was reached.
    SolutionLimit,
    /// The node budget was spent.
    NodeBudget,
    /// The cancel flag was raised.
    Cancelled,
    /// The visitor asked to stop.
    Stopped,
}

impl Outcome {
    /// Whether the search explored everything.
    pub fn is_complete(self) -> bool {
        self == Outcome::Exhausted
    }
}

/// What a finished search reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Why it ended.
    pub outcome: Outcome,
    /// Its counters.
    pub stats: Stats,
}

/// A visitor's answer after each solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Keep searching.
    Continue,
    /// Stop now; the solver is restored as after any search.
    Stop,
}

/// Receives solutions as the search finds them, without storing them.
pub trait Visitor {
    /// Called once per solution with the chosen options: the given options
    /// first, then one per level in the order they were chosen.
    fn solution(&mut self, options: &[usize]) -> Control;
}

impl<F: FnMut(&[usize]) -> Control> Visitor for F {
    fn solution(&mut self, options: &[usize]) -> Control {
        self(options)
    }
}

/// What both exact-cover engines, [`Solver`] and
/// [`CompactSolver`](crate::CompactSolver), do: stream the solutions that
/// contain some given options, and the conveniences built on that. Bring
/// it into scope (`use dlx_core::Search;`) to call any of these.
pub trait Search {
    /// Streams every solution containing the `given` options to `visitor`,
    /// within `limits`: each solution lists the given options first, then
    /// the chosen ones in the order they were chosen. An option number out
    /// of range is an error; givens that conflict simply give no solution.
    fn search<V: Visitor + ?Sized>(
        &mut self,
        given: &[usize],
        limits: &Limits,
        visitor: &mut V,
    ) -> Result<Report, UnknownOption>;

    /// Finds the first solution in the search order.
    fn first(&mut self) -> Option<Vec<usize>> {
        self.first_with(&[]).ok().flatten()
    }

    /// Finds the first solution that contains the `given` options; `None`
    /// when there is none (in particular when the givens conflict).
    fn first_with(&mut self, given: &[usize]) -> Result<Option<Vec<usize>>, UnknownOption> {
        let mut found = None;
        self.search(given, &Limits::solutions(1), &mut |options: &[usize]| {
            found = Some(options.to_vec());
            Control::Stop
        })?;
        Ok(found)
    }

    /// Counts all solutions.
    fn count(&mut self) -> u64 {
        self.count_with(&[], &Limits::none())
            .map(|r| r.stats.solutions)
            .unwrap_or(0)
    }

    /// Counts the solutions that contain the `given` options, within
    /// `limits`.
    fn count_with(&mut self, given: &[usize], limits: &Limits) -> Result<Report, UnknownOption> {
        self.search(given, limits, &mut |_: &[usize]| Control::Continue)
    }
}

/// A visitor that also follows the search as it goes, so that it can cut
/// branches: branch and bound, or any other model-specific pruning, without
/// the engine knowing the model.
///
/// The engine calls [`Guide::push`] after it adds an option to the partial
/// solution and [`Guide::pop`] before it takes that option back, in strict
/// stack order; the given options are not pushed (the guide knows them).
/// Before entering each level it asks [`Guide::prune`]: `true` abandons the
/// partial solution as it stands, as if no option of the next item worked.
/// Solutions still arrive through [`Visitor::solution`].
pub trait Guide: Visitor {
    /// `option` joined the partial solution.
    fn push(&mut self, option: usize);
    /// `option`, the last one pushed, left the partial solution.
    fn pop(&mut self, option: usize);
    /// Whether nothing below the current partial solution is wanted.
    fn prune(&mut self) -> bool;
}

/// The guide of an ordinary search: it follows nothing and cuts nothing,
/// and compiles away.
struct Unguided<'v, V: ?Sized>(&'v mut V);

impl<V: Visitor + ?Sized> Visitor for Unguided<'_, V> {
    #[inline(always)]
    fn solution(&mut self, options: &[usize]) -> Control {
        self.0.solution(options)
    }
}

/// Whether a guide type wants to hear of each option (the `Unguided` one
/// does not, so the plain search does not even look the options up).
trait Follows {
    const FOLLOWS: bool;
}

impl<V: Visitor + ?Sized> Follows for Unguided<'_, V> {
    const FOLLOWS: bool = false;
}

impl<V: Visitor + ?Sized> Guide for Unguided<'_, V> {
    #[inline(always)]
    fn push(&mut self, _: usize) {}
    #[inline(always)]
    fn pop(&mut self, _: usize) {}
    #[inline(always)]
    fn prune(&mut self) -> bool {
        false
    }
}

/// A user's guide, which hears of every option.
struct Guided<'g, G: ?Sized>(&'g mut G);

impl<G: Guide + ?Sized> Visitor for Guided<'_, G> {
    #[inline(always)]
    fn solution(&mut self, options: &[usize]) -> Control {
        self.0.solution(options)
    }
}

impl<G: Guide + ?Sized> Follows for Guided<'_, G> {
    const FOLLOWS: bool = true;
}

impl<G: Guide + ?Sized> Guide for Guided<'_, G> {
    #[inline(always)]
    fn push(&mut self, option: usize) {
        self.0.push(option)
    }
    #[inline(always)]
    fn pop(&mut self, option: usize) {
        self.0.pop(option)
    }
    #[inline(always)]
    fn prune(&mut self) -> bool {
        self.0.prune()
    }
}

/// A given option that cannot be forced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("given option {option} does not exist (the problem has {options} options)")]
pub struct UnknownOption {
    /// The option as given.
    pub option: usize,
    /// How many options the problem has.
    pub options: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the first step (givens are in place).
    Start,
    /// Enter `level`: choose an item and cover it.
    Forward,
    /// Try the option `choice[level]` of the current item.
    Advance,
    /// Undo the option `choice[level]`, then advance to the next.
    Recover,
    /// Nothing left to explore.
    Done,
}

/// What one run of the loop ended with.
enum Step {
    Solution,
    /// The search reached the split depth: the options chosen so far are a
    /// prefix whose subtree is left to someone else (see `split.rs`).
    Prefix,
    End(Outcome),
}

/// Searches one problem. Owns its links; make one per thread.
///
/// Every search leaves the links exactly as it found them, so a solver can
/// search again and again, with different given options each time.
#[derive(Debug, Clone)]
pub struct Solver {
    links: Links,
    /// `choice[l]` is the node of the option tried at level `l`.
    choice: Vec<NodeRef>,
    level: usize,
    /// The item branched on at `level`.
    best: NodeRef,
    phase: Phase,
    /// The given options' first nodes, in the order they were forced.
    forced: Vec<NodeRef>,
    /// Whether the givens conflict (the search then has no solutions).
    conflict: bool,
    /// Options of the current solution, reported to visitors.
    solution: Vec<usize>,
    nodes: u64,
    solutions: u64,
    updates_at_start: u64,
    limits: Limits,
    /// When set, the loop stops at this level and reports a prefix instead
    /// of entering it.
    split_depth: Option<usize>,
}

impl Solver {
    /// Builds the links for `problem`.
    pub fn new(problem: &Problem) -> Solver {
        let links = Links::new(problem);
        // Each level covers at least one primary item, so the search is never
        // deeper than the number of primary items; the stack never grows.
        let depth = problem.primary_count() + 1;
        Solver {
            links,
            choice: vec![0; depth],
            level: 0,
            best: 0,
            phase: Phase::Done,
            forced: Vec::new(),
            conflict: false,
            solution: Vec::new(),
            nodes: 0,
            solutions: 0,
            updates_at_start: 0,
            limits: Limits::none(),
            split_depth: None,
        }
    }

    /// The number of options of the problem.
    pub fn option_count(&self) -> usize {
        self.links.first_node.len()
    }

    /// Like [`Solver::search`], with a [`Guide`] that follows every choice
    /// and may cut branches (branch and bound).
    pub fn search_guided<G: Guide + ?Sized>(
        &mut self,
        given: &[usize],
        limits: &Limits,
        guide: &mut G,
    ) -> Result<Report, UnknownOption> {
        self.begin(given, limits.clone())?;
        Ok(self.run(&mut Guided(guide)))
    }

    /// Runs a begun search to its end, handing solutions to `guide`.
    fn run<G: Guide + Follows>(&mut self, guide: &mut G) -> Report {
        let outcome = loop {
            match self.step(guide) {
                Step::Solution => {
                    self.fill_solution();
                    if guide.solution(&self.solution) == Control::Stop {
                        break Outcome::Stopped;
                    }
                }
                Step::Prefix => unreachable!("no split depth is set"),
                Step::End(outcome) => break outcome,
            }
        };
        self.finish(outcome)
    }

    /// An iterator over all solutions containing the `given` options, within
    /// `limits`. Dropping it restores the solver.
    pub fn solutions(
        &mut self,
        given: &[usize],
        limits: Limits,
    ) -> Result<Solutions<'_>, UnknownOption> {
        self.begin(given, limits)?;
        Ok(Solutions {
            solver: self,
            outcome: None,
        })
    }

    /// Runs the search down to level `depth` only (`depth >= 1`): each time
    /// it would enter level `depth`, it hands the options chosen on levels
    /// `0..depth` to `prefix` instead, and solutions found above that level
    /// to `solution`. Together the prefixes' subtrees and those solutions
    /// are the whole search; the report counts only the levels above
    /// `depth`. Searching each prefix as givens then gives the rest: the
    /// nodes and updates of all parts add up to the serial search's.
    pub fn enumerate_prefixes(
        &mut self,
        given: &[usize],
        depth: usize,
        mut prefix: impl FnMut(&[usize]),
        mut solution: impl FnMut(&[usize]),
    ) -> Result<Report, UnknownOption> {
        assert!(depth >= 1, "a split needs at least one level");
        self.begin(given, Limits::none())?;
        self.split_depth = Some(depth);
        let outcome = loop {
            match self.step(&mut Unguided(&mut |_: &[usize]| Control::Continue)) {
                Step::Solution => {
                    self.fill_solution();
                    solution(&self.solution);
                }
                Step::Prefix => {
                    self.fill_solution();
                    prefix(&self.solution);
                }
                Step::End(outcome) => break outcome,
            }
        };
        self.split_depth = None;
        Ok(self.finish(outcome))
    }

    /// Whether this solver's links equal `other`'s, node for node (a check
    /// for tests that a search restored everything).
    pub fn links_equal(&self, other: &Solver) -> bool {
        self.links.items == other.links.items && self.links.nodes == other.links.nodes
    }

    /// Checks the links' internal consistency (for tests and debugging).
    pub fn sanity_check(&self) -> Result<(), String> {
        self.links.sanity_check()
    }

    /// Forces the `given` options and prepares the loop.
    fn begin(&mut self, given: &[usize], limits: Limits) -> Result<(), UnknownOption> {
        debug_assert!(self.forced.is_empty(), "a search is already under way");
        let options = self.option_count();
        if let Some(&option) = given.iter().find(|&&o| o >= options) {
            return Err(UnknownOption { option, options });
        }
        self.limits = limits;
        self.nodes = 0;
        self.solutions = 0;
        self.level = 0;
        self.conflict = false;
        for &option in given {
            let first = self.links.first_node[option];
            if !self.links.option_is_free(first) {
                self.conflict = true;
                break;
            }
            // Forcing an option covers all its items: its first item
            // directly, the rest through `commit`.
            self.links.cover(self.links.item_of(first));
            self.links.commit(first);
            self.forced.push(first);
        }
        // The counters cover the search below the givens: forcing them is
        // not part of it (and so the parts of a split search add up).
        self.updates_at_start = self.links.updates;
        self.phase = if self.conflict {
            Phase::Done
        } else {
            Phase::Start
        };
        Ok(())
    }

    /// Undoes whatever the loop and the givens left covered, and reports.
    fn finish(&mut self, outcome: Outcome) -> Report {
        self.unwind();
        while let Some(first) = self.forced.pop() {
            self.links.uncommit(first);
            self.links.uncover(self.links.item_of(first));
        }
        self.phase = Phase::Done;
        Report {
            outcome,
            stats: Stats {
                nodes: self.nodes,
                updates: self.links.updates - self.updates_at_start,
                solutions: self.solutions,
            },
        }
    }

    /// Undoes the levels the loop has applied when it stopped early.
    fn unwind(&mut self) {
        let applied = match self.phase {
            // At `Forward`, levels below `level` are applied.
            Phase::Forward => self.level,
            // At `Recover` (just after a solution), `level` itself is applied
            // too, its item covered and its option committed.
            Phase::Recover => self.level + 1,
            // At `Advance`, `level`'s item is covered but no option is.
            Phase::Advance => {
                self.links.uncover(self.best);
                self.level
            }
            Phase::Start | Phase::Done => 0,
        };
        for level in (0..applied).rev() {
            let node = self.choice[level];
            self.links.uncommit(node);
            self.links.uncover(self.links.item_of(node));
        }
        self.level = 0;
        self.phase = Phase::Done;
    }

    fn fill_solution(&mut self) {
        self.solution.clear();
        for &first in &self.forced {
            self.solution.push(self.links.option_of(first));
        }
        if self.phase == Phase::Recover {
            for &node in &self.choice[..=self.level] {
                self.solution.push(self.links.option_of(node));
            }
        }
    }

    /// Whether the limits say to stop before entering a level.
    #[inline]
    fn should_stop(&self) -> Option<Outcome> {
        if let Some(budget) = self.limits.node_budget {
            if self.nodes >= budget {
                return Some(Outcome::NodeBudget);
            }
        }
        if let Some(flag) = &self.limits.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(Outcome::Cancelled);
            }
        }
        None
    }

    /// Runs the loop until the next solution or the end, telling `guide`
    /// of every choice when it follows them.
    fn step<G: Guide + Follows>(&mut self, guide: &mut G) -> Step {
        if let Some(max) = self.limits.max_solutions {
            if self.solutions >= max {
                return Step::End(Outcome::SolutionLimit);
            }
        }
        let mut level = self.level;
        let mut best = self.best;
        let mut phase = self.phase;
        let step = loop {
            match phase {
                Phase::Start => {
                    if let Some(outcome) = self.should_stop() {
                        break Step::End(outcome);
                    }
                    if self.links.all_primary_covered() {
                        // The givens (or an empty problem) already cover
                        // every primary item: one solution, at no level.
                        self.nodes += 1;
                        self.solutions += 1;
                        self.level = 0;
                        self.phase = Phase::Done;
                        return Step::Solution;
                    }
                    phase = Phase::Forward;
                }
                Phase::Forward => {
                    if let Some(outcome) = self.should_stop() {
                        break Step::End(outcome);
                    }
                    if G::FOLLOWS && guide.prune() {
                        // The guide wants nothing below this partial
                        // solution: a dead end, as if the next item had no
                        // options.
                        if level == 0 {
                            phase = Phase::Done;
                            continue;
                        }
                        level -= 1;
                        best = self.links.item_of(self.choice[level]);
                        phase = Phase::Recover;
                        continue;
                    }
                    if self.split_depth == Some(level) {
                        // Leave this subtree to whoever takes the prefix:
                        // back to the level above, as after a solution.
                        level -= 1;
                        best = self.links.item_of(self.choice[level]);
                        phase = Phase::Recover;
                        break Step::Prefix;
                    }
                    self.nodes += 1;
                    best = self
                        .links
                        .choose_fewest()
                        .expect("an active primary item exists on entering a level");
                    self.links.cover(best);
                    self.choice[level] = self.links.down(best);
                    phase = Phase::Advance;
                }
                Phase::Advance => {
                    let node = self.choice[level];
                    if node == best {
                        // Every option of `best` was tried: back up.
                        self.links.uncover(best);
                        if level == 0 {
                            phase = Phase::Done;
                            continue;
                        }
                        level -= 1;
                        best = self.links.item_of(self.choice[level]);
                        phase = Phase::Recover;
                        continue;
                    }
                    self.links.commit(node);
                    if G::FOLLOWS {
                        guide.push(self.links.option_of(node));
                    }
                    if self.links.all_primary_covered() {
                        self.nodes += 1;
                        self.solutions += 1;
                        phase = Phase::Recover;
                        break Step::Solution;
                    }
                    level += 1;
                    phase = Phase::Forward;
                }
                Phase::Recover => {
                    let node = self.choice[level];
                    if G::FOLLOWS {
                        guide.pop(self.links.option_of(node));
                    }
                    self.links.uncommit(node);
                    self.choice[level] = self.links.down(node);
                    phase = Phase::Advance;
                }
                Phase::Done => break Step::End(Outcome::Exhausted),
            }
        };
        self.level = level;
        self.best = best;
        self.phase = phase;
        step
    }
}

impl Search for Solver {
    /// The links are restored when this returns, however the search ended.
    fn search<V: Visitor + ?Sized>(
        &mut self,
        given: &[usize],
        limits: &Limits,
        visitor: &mut V,
    ) -> Result<Report, UnknownOption> {
        self.begin(given, limits.clone())?;
        Ok(self.run(&mut Unguided(visitor)))
    }
}

/// An iterator over solutions; see [`Solver::solutions`]. Each item is the
/// list of chosen options, in the order the search chose them.
pub struct Solutions<'s> {
    solver: &'s mut Solver,
    outcome: Option<Report>,
}

impl Solutions<'_> {
    /// Stops the search (if it has not ended) and reports why it ended.
    pub fn finish(mut self) -> Report {
        self.end(Outcome::Stopped)
    }

    fn end(&mut self, outcome: Outcome) -> Report {
        if let Some(report) = self.outcome {
            return report;
        }
        let report = self.solver.finish(outcome);
        self.outcome = Some(report);
        report
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        if self.outcome.is_some() {
            return None;
        }
        match self
            .solver
            .step(&mut Unguided(&mut |_: &[usize]| Control::Continue))
        {
            Step::Solution => {
                self.solver.fill_solution();
                Some(self.solver.solution.clone())
            }
            Step::Prefix => unreachable!("no split depth is set"),
            Step::End(outcome) => {
                self.end(outcome);
                None
            }
        }
    }
}

impl Drop for Solutions<'_> {
    fn drop(&mut self) {
        self.end(Outcome::Stopped);
    }
}
