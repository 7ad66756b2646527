//! Algorithm X over the dancing links: an iterative, resumable search.
//!
//! The search is one loop over `level` and the stack `choice[level]`, with
//! Knuth's labels as the phases of a small state machine (`Forward`: enter a
//! level and pick an item; `Advance`: try the next option of that item;
//! `Recover`: undo the option just tried). Because all state lives in the
//! [`Solver`], the loop can return at a solution and resume later, which is
//! what the [`Solutions`] iterator does; visitors, counting and limits (the
//! words every engine shares, in `engine.rs`) are thin layers over that one
//! loop.
//!
//! Counters are kept at exactly the points `shared/xc/README.md` defines:
//! a search node each time a level is entered (the root included) and each
//! time a solution is found; an update each time an item leaves the active
//! list or a node is unlinked from an item's list.

use std::sync::atomic::Ordering;

use crate::engine::{
    Control, Deadline, Guide, Limits, Outcome, Report, Search, Stats, UnknownOption, Visitor,
};
use crate::links::{index, node_ref, Links, NodeRef};
use crate::problem::Problem;
use crate::propagate::{Domain, Propagator, Slot, Verdict};

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
    #[inline(always)]
    fn prune_live(&mut self, domain: &dyn Domain) -> bool {
        self.0.prune_live(domain)
    }
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
    /// Multiplicities only: `level`'s item is prepared and `choice[level]`
    /// applied nothing yet; restore the item and leave the level (Knuth's
    /// M8).
    Restore,
    /// Multiplicities only: the levels below `level` are applied, `level`
    /// is not; go back up to the level before (Knuth's M9).
    Leave,
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

/// Which search a problem needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Exact cover: Knuth's DLX1.
    Exact,
    /// Colours on secondary items: DLX2 (the same loop, with purification).
    Coloured,
    /// Bounds on primary items (and maybe colours): Knuth's Algorithm M.
    Multiple {
        /// Whether some option gives an item a colour.
        colours: bool,
    },
}

/// A prefix entry (see [`Solver::enumerate_prefixes`]) that stands for no
/// option: at that level, a primary item with bounds took no more options
/// (the last branch of Algorithm M).
pub const CLOSED: usize = usize::MAX;

/// Searches one problem. Owns its links; make one per thread.
///
/// Every search leaves the links exactly as it found them, so a solver can
/// search again and again, with different given options each time.
///
/// Exact cover runs Knuth's DLX1; with colours, DLX2 (the same loop; a
/// chosen option purifies the secondary items it colours); with bounds on
/// primary items, Knuth's Algorithm M (DLX3): it branches on the active
/// primary item with the fewest ways to go on (its options, less the
/// covers it still needs, plus one when it needs none, for taking no more),
/// the first such in item order, and tries its options in order, each one
/// taken out of the item's list once tried so that every solution is
/// found once.
#[derive(Debug, Clone)]
pub struct Solver {
    links: Links,
    kind: Kind,
    /// `choice[l]` is the node of the option tried at level `l` (with
    /// bounds: the item's header when the level takes no more options).
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
    cleansings_at_start: u64,
    limits: Limits,
    /// The check of `limits.deadline`.
    deadline: Deadline,
    /// When set, the loop stops at this level and reports a prefix instead
    /// of entering it.
    split_depth: Option<usize>,
    /// Bounds only: the levels replayed from a prefix, which the search
    /// below it never leaves (0 for an ordinary search).
    floor: usize,
    /// Bounds only, by item index: how many more times each primary item
    /// may be covered (Knuth's BOUND) and how many of those it does not
    /// need (SLACK, the upper bound less the lower).
    bound: Vec<u32>,
    slack: Vec<u32>,
    /// Bounds only: the item branched on at each level, and the first node
    /// of its list when the level began (where its tweaks are undone from).
    level_item: Vec<NodeRef>,
    first_tweaked: Vec<NodeRef>,
    /// The model's reasoning at each node, if it attached one
    /// ([`Solver::set_propagator`]; exact cover only).
    propagator: Slot,
    /// The first nodes of the options the propagator removed, in order,
    /// and where each level's removals begin: undone in reverse when the
    /// search leaves the level.
    removed: Vec<NodeRef>,
    removed_at: Vec<u32>,
    /// Options the propagator removed in this search.
    propagated: u64,
}

/// [`Solver::set_propagator`] on a problem with colours or bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("propagators run on exact cover without colours or bounds")]
pub struct PropagationUnsupported;

/// The linked engine's live options, lent to a propagator.
struct LinkedDomain<'s> {
    links: &'s mut Links,
    removed: &'s mut Vec<NodeRef>,
    /// The givens' first nodes, then the node chosen at each level above.
    forced: &'s [NodeRef],
    choices: &'s [NodeRef],
}

impl Domain for LinkedDomain<'_> {
    fn option_count(&self) -> usize {
        self.links.first_node.len()
    }

    fn is_live(&self, option: usize) -> bool {
        self.links
            .first_node
            .get(option)
            .is_some_and(|&first| self.links.is_live(first))
    }

    fn remove(&mut self, option: usize) {
        let Some(&first) = self.links.first_node.get(option) else {
            return;
        };
        if self.links.is_live(first) {
            self.links.remove_option(first);
            self.removed.push(first);
        }
    }

    fn chosen(&self, out: &mut Vec<usize>) -> bool {
        out.clear();
        let nodes = self.forced.iter().chain(self.choices);
        out.extend(nodes.map(|&node| self.links.option_of(node)));
        true
    }
}

impl Solver {
    /// Builds the links for `problem`.
    pub fn new(problem: &Problem) -> Solver {
        let links = Links::new(problem);
        let kind = match (problem.has_bounds(), problem.has_colours()) {
            (false, false) => Kind::Exact,
            (false, true) => Kind::Coloured,
            (true, colours) => Kind::Multiple { colours },
        };
        // Each level covers at least one primary item, so the search is never
        // deeper than the number of primary items; with bounds, each level
        // takes an option or closes an item. The stack never grows.
        let depth = match kind {
            Kind::Multiple { .. } => problem.option_count() + problem.primary_count() + 1,
            _ => problem.primary_count() + 1,
        };
        let (mut bound, mut slack) = (Vec::new(), Vec::new());
        if let Kind::Multiple { .. } = kind {
            // Indexed by item header index: entry 0 (the root) unused.
            bound = vec![0; problem.primary_count() + 1];
            slack = vec![0; problem.primary_count() + 1];
            for item in 0..problem.primary_count() {
                let bounds = problem.bounds(item).expect("a primary item");
                bound[item + 1] = bounds.upper;
                slack[item + 1] = bounds.upper - bounds.lower;
            }
        }
        let per_level = |on: bool| if on { vec![0; depth] } else { Vec::new() };
        let multiple = matches!(kind, Kind::Multiple { .. });
        Solver {
            links,
            kind,
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
            cleansings_at_start: 0,
            limits: Limits::none(),
            deadline: Deadline::new(None),
            split_depth: None,
            floor: 0,
            bound,
            slack,
            level_item: per_level(multiple),
            first_tweaked: per_level(multiple),
            propagator: Slot::default(),
            removed: Vec::new(),
            removed_at: vec![0; depth],
            propagated: 0,
        }
    }

    /// Attaches `propagator`, which the search then runs at every node (see
    /// [`Propagator`]), or detaches it (`None`). Exact cover only: a
    /// problem with colours or bounds is refused. Clones of the solver get
    /// copies of it ([`Propagator::box_clone`]), so a split search
    /// ([`crate::count_parallel_with`]) propagates on every thread.
    pub fn set_propagator(
        &mut self,
        propagator: Option<Box<dyn Propagator>>,
    ) -> Result<(), PropagationUnsupported> {
        if propagator.is_some() && self.kind != Kind::Exact {
            return Err(PropagationUnsupported);
        }
        // Every option a propagator can remove is linked once: room for all
        // of them, so the search never grows the trail.
        if propagator.is_some() {
            self.removed.reserve(self.option_count());
        }
        self.propagator = Slot(propagator);
        Ok(())
    }

    /// Whether a propagator is attached.
    pub fn has_propagator(&self) -> bool {
        self.propagator.0.is_some()
    }

    /// Runs the propagator at `level`, whose removals begin at
    /// `removed_at[level]`.
    fn propagate(&mut self, level: usize) -> Verdict {
        let Some(propagator) = self.propagator.0.as_mut() else {
            return Verdict::Live;
        };
        let mut domain = LinkedDomain {
            links: &mut self.links,
            removed: &mut self.removed,
            forced: &self.forced,
            choices: &self.choice[..level],
        };
        let verdict = propagator.propagate(&mut domain);
        self.propagated += (self.removed.len() - self.removed_at[level] as usize) as u64;
        verdict
    }

    /// The live options at `level`, as a guide sees them.
    fn domain(&mut self, level: usize) -> LinkedDomain<'_> {
        LinkedDomain {
            links: &mut self.links,
            removed: &mut self.removed,
            forced: &self.forced,
            choices: &self.choice[..level],
        }
    }

    /// The propagator's item to branch on, if it names an active primary
    /// item, at `level`.
    fn propagator_choice(&mut self, level: usize) -> Option<NodeRef> {
        let propagator = self.propagator.0.as_mut()?;
        let domain = LinkedDomain {
            links: &mut self.links,
            removed: &mut self.removed,
            forced: &self.forced,
            choices: &self.choice[..level],
        };
        let item = propagator.choose(&domain)?;
        // Checked before it becomes a link, which could wrap.
        if item >= index(self.links.last_primary()) {
            return None;
        }
        let header = node_ref(item + 1);
        self.links.is_active(header).then_some(header)
    }

    /// Puts back what the propagator removed at `level` (and below it).
    fn unpropagate(&mut self, level: usize) {
        let mark = self.removed_at[level] as usize;
        while self.removed.len() > mark {
            let first = self.removed.pop().expect("longer than the mark");
            self.links.restore_option(first);
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
        limits: &Limits,
    ) -> Result<Solutions<'_>, UnknownOption> {
        self.begin(given, limits.clone())?;
        Ok(Solutions {
            solver: self,
            outcome: None,
        })
    }

    /// Runs the search down to level `depth` only (`depth >= 1`): each time
    /// it would enter level `depth`, it hands the prefix that leads there
    /// to `prefix` instead: the `given` options, then what each level above
    /// took (an option, or [`CLOSED`] where an item with bounds took no
    /// more). Solutions found above that level go to `solution`. Together
    /// the prefixes' subtrees ([`Solver::search_below`]) and those
    /// solutions are the whole search; the report counts only the levels
    /// above `depth`, so the nodes and updates of all parts add up to the
    /// serial search's (without a propagator: with one, each part
    /// propagates its prefix afresh, and only the solutions add up).
    pub fn enumerate_prefixes(
        &mut self,
        given: &[usize],
        depth: usize,
        prefix: impl FnMut(&[usize]),
        solution: impl FnMut(&[usize]),
    ) -> Result<Report, UnknownOption> {
        self.enumerate_below(given, given.len(), depth, prefix, solution)
    }

    /// [`Solver::enumerate_prefixes`] below `start`, a prefix it reported
    /// (with `given_count` given options in front): the prefixes `levels`
    /// levels deeper, each with `start` in front, and the solutions found
    /// on the way. With `levels` 1: `start`'s children, and the report
    /// counts `start`'s own node and covers and the children that are
    /// solutions (not the other children's nodes), so a tree cut at any
    /// prefixes adds up (see `shard.rs`).
    pub fn enumerate_below(
        &mut self,
        start: &[usize],
        given_count: usize,
        levels: usize,
        prefix: impl FnMut(&[usize]),
        solution: impl FnMut(&[usize]),
    ) -> Result<Report, UnknownOption> {
        self.enumerate_within(start, given_count, levels, Limits::none(), prefix, solution)
    }

    /// [`Solver::enumerate_below`] within `limits` (a split that must end
    /// by a deadline, say): a search they stop reports only part of the
    /// prefixes, and its outcome says so.
    pub(crate) fn enumerate_within(
        &mut self,
        start: &[usize],
        given_count: usize,
        levels: usize,
        limits: Limits,
        mut prefix: impl FnMut(&[usize]),
        mut solution: impl FnMut(&[usize]),
    ) -> Result<Report, UnknownOption> {
        assert!(levels >= 1, "a split needs at least one level");
        self.begin_below(start, given_count, limits)?;
        // Levels count from the first level below the givens (exact
        // cover forces the whole start), or from the replayed ones.
        self.split_depth = Some(self.floor + levels);
        let outcome = loop {
            match self.step(&mut Unguided(&mut |_: &[usize]| Control::Continue)) {
                Step::Solution => {
                    self.fill_solution();
                    solution(&self.solution);
                }
                // The loop filled `solution` with the prefix.
                Step::Prefix => prefix(&self.solution),
                Step::End(outcome) => break outcome,
            }
        };
        self.split_depth = None;
        Ok(self.finish(outcome))
    }

    /// Searches the subtree below `prefix`, one that
    /// [`Solver::enumerate_prefixes`] reported with `given_count` given
    /// options in front. Exact cover (with or without colours) forces the
    /// whole prefix as givens; with bounds the levels are replayed, since a
    /// level's subtree also depends on the options tried before at it. The
    /// report counts only the search below the prefix.
    pub fn search_below<V: Visitor + ?Sized>(
        &mut self,
        prefix: &[usize],
        given_count: usize,
        limits: &Limits,
        visitor: &mut V,
    ) -> Result<Report, UnknownOption> {
        self.begin_below(prefix, given_count, limits.clone())?;
        Ok(self.run(&mut Unguided(visitor)))
    }

    /// Knuth's random-probe estimate of the search nodes below `prefix` (a
    /// prefix as [`Solver::search_below`] takes it), its own node
    /// included: the mean over `probes` random walks down the tree, each
    /// worth `1 + d1 + d1·d2 + …` for the branching degrees `d1, d2, …` it
    /// meets (TAOCP 7.2.2, "Estimating the running time"). `random(n)`
    /// draws a branch below `n`.
    pub fn estimate_below(
        &mut self,
        prefix: &[usize],
        given_count: usize,
        probes: usize,
        random: &mut dyn FnMut(u64) -> u64,
    ) -> Result<f64, UnknownOption> {
        let mut total = 0.0;
        for _ in 0..probes.max(1) {
            self.begin_below(prefix, given_count, Limits::none())?;
            let walk = if self.phase == Phase::Done {
                // An empty subtree: nothing below.
                0.0
            } else {
                match self.kind {
                    Kind::Exact => self.probe_exact::<false>(random),
                    Kind::Coloured => self.probe_exact::<true>(random),
                    Kind::Multiple { colours: false } => self.probe_bounded::<false>(random),
                    Kind::Multiple { colours: true } => self.probe_bounded::<true>(random),
                }
            };
            total += walk;
            self.finish(Outcome::Stopped);
        }
        Ok(total / probes.max(1) as f64)
    }

    /// Begins a search below `prefix` (see [`Solver::search_below`]): the
    /// counters start below it.
    fn begin_below(
        &mut self,
        prefix: &[usize],
        given_count: usize,
        limits: Limits,
    ) -> Result<(), UnknownOption> {
        let Kind::Multiple { colours } = self.kind else {
            return self.begin(prefix, limits);
        };
        let (given, path) = prefix.split_at(given_count.min(prefix.len()));
        self.begin(given, limits)?;
        if !self.conflict {
            let replayed = if colours {
                self.replay::<true>(path)
            } else {
                self.replay::<false>(path)
            };
            if !replayed {
                // Not a prefix of this search: its subtree is empty.
                self.phase = Phase::Done;
            }
            self.updates_at_start = self.links.updates;
            self.cleansings_at_start = self.links.cleansings;
        }
        Ok(())
    }

    /// One random walk down from the current node of an exact-cover
    /// search, as [`Solver::estimate_below`] counts it; leaves the levels
    /// it went down applied (at `Forward`), for `finish` to undo.
    fn probe_exact<const XCC: bool>(&mut self, random: &mut dyn FnMut(u64) -> u64) -> f64 {
        let (mut estimate, mut product) = (1.0, 1.0);
        let mut level = self.level;
        while !self.links.all_primary_covered() {
            let best = self
                .links
                .choose_fewest()
                .expect("an active primary item exists");
            let degree = u64::from(self.links.len(best));
            if degree == 0 {
                break;
            }
            product *= degree as f64;
            estimate += product;
            self.links.cover::<XCC>(best);
            let mut node = self.links.down(best);
            for _ in 0..random(degree) {
                node = self.links.down(node);
            }
            self.links.commit::<XCC>(node);
            self.choice[level] = node;
            level += 1;
        }
        self.level = level;
        self.phase = Phase::Forward;
        estimate
    }

    /// [`Solver::probe_exact`] for a search with bounds: each level's
    /// branch is one of its item's ways, the options tried before it
    /// leaving their tweaks, as in [`Solver::replay`].
    fn probe_bounded<const XCC: bool>(&mut self, random: &mut dyn FnMut(u64) -> u64) -> f64 {
        let (mut estimate, mut product) = (1.0, 1.0);
        let mut level = self.level;
        while let Some((item, ways)) = self.choose_bounded() {
            if ways == 0 {
                break;
            }
            product *= ways as f64;
            estimate += product;
            self.prepare_level::<XCC>(level, item);
            let mut branch = random(ways);
            let went_down = loop {
                let node = self.choice[level];
                if !self.try_choice::<XCC>(level) {
                    // The level has fewer branches than its ways (too few
                    // options left): the walk ends here, as the search
                    // would backtrack.
                    self.restore_level::<XCC>(level);
                    break false;
                }
                if branch == 0 || node == item {
                    if node != item {
                        self.apply::<XCC>(node);
                    }
                    break true;
                }
                branch -= 1;
                self.choice[level] = self.links.down(node);
            };
            if !went_down {
                break;
            }
            level += 1;
            self.level = level;
        }
        self.level = level;
        self.phase = Phase::Forward;
        estimate
    }

    /// Whether this solver's links equal `other`'s, node for node (a check
    /// for tests that a search restored everything).
    pub fn links_equal(&self, other: &Solver) -> bool {
        self.links.items == other.links.items
            && self.links.nodes == other.links.nodes
            && self.bound == other.bound
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
        self.deadline = Deadline::new(limits.deadline);
        self.limits = limits;
        self.nodes = 0;
        self.solutions = 0;
        self.propagated = 0;
        if let Some(propagator) = self.propagator.0.as_mut() {
            propagator.begin();
        }
        self.level = 0;
        self.floor = 0;
        self.conflict = false;
        for &option in given {
            let first = self.links.first_node[option];
            if !self.links.option_is_free(first) {
                self.conflict = true;
                break;
            }
            match self.kind {
                Kind::Exact => self.force::<false>(first),
                Kind::Coloured => self.force::<true>(first),
                Kind::Multiple { colours: false } => self.force_bounded::<false>(first),
                Kind::Multiple { colours: true } => self.force_bounded::<true>(first),
            }
            self.forced.push(first);
        }
        // The counters cover the search below the givens: forcing them is
        // not part of it (and so the parts of a split search add up).
        self.updates_at_start = self.links.updates;
        self.cleansings_at_start = self.links.cleansings;
        self.phase = if self.conflict {
            Phase::Done
        } else {
            Phase::Start
        };
        Ok(())
    }

    /// Forcing an option commits all its items: its first one, then the
    /// rest.
    fn force<const XCC: bool>(&mut self, first: NodeRef) {
        self.links.commit_one::<XCC>(first);
        self.links.commit::<XCC>(first);
    }

    /// Undoes [`Solver::force`].
    fn unforce<const XCC: bool>(&mut self, first: NodeRef) {
        self.links.uncommit::<XCC>(first);
        self.links.uncommit_one::<XCC>(first);
    }

    // Each step below and its undo are written out as mirror images, as in
    // Knuth's text: the undo runs the same walk in reverse.

    /// Forcing an option of a problem with bounds: the option leaves every
    /// list (it is taken, once), then each primary item of it counts one
    /// cover more (covered when it may take no more) and each secondary
    /// item is committed.
    fn force_bounded<const XCC: bool>(&mut self, first: NodeRef) {
        self.links.hide::<XCC>(first);
        self.links.remove_node(first);
        let mut q = first;
        loop {
            self.take_item::<XCC>(q);
            q = self.links.next_in_option(q);
            if q == first {
                break;
            }
        }
    }

    /// Undoes [`Solver::force_bounded`].
    fn unforce_bounded<const XCC: bool>(&mut self, first: NodeRef) {
        let mut q = self.links.prev_in_option(first);
        loop {
            self.untake_item::<XCC>(q);
            if q == first {
                break;
            }
            q = self.links.prev_in_option(q);
        }
        self.links.restore_node(first);
        self.links.unhide::<XCC>(first);
    }

    /// Bounds: option node `q` is taken: its primary item has one cover
    /// less to give (and is covered when it has none), its secondary item
    /// is committed.
    fn take_item<const XCC: bool>(&mut self, q: NodeRef) {
        let item = self.links.item_of(q);
        if self.links.is_primary(item) {
            let bound = &mut self.bound[index(item)];
            *bound -= 1;
            if *bound == 0 {
                self.links.cover::<XCC>(item);
            }
        } else {
            self.links.commit_one::<XCC>(q);
        }
    }

    /// Undoes [`Solver::take_item`].
    fn untake_item<const XCC: bool>(&mut self, q: NodeRef) {
        let item = self.links.item_of(q);
        if self.links.is_primary(item) {
            let bound = &mut self.bound[index(item)];
            *bound += 1;
            if *bound == 1 {
                self.links.uncover::<XCC>(item);
            }
        } else {
            self.links.uncommit_one::<XCC>(q);
        }
    }

    /// Undoes whatever the loop and the givens left covered, and reports.
    fn finish(&mut self, outcome: Outcome) -> Report {
        match self.kind {
            Kind::Exact => self.unwind::<false>(),
            Kind::Coloured => self.unwind::<true>(),
            Kind::Multiple { colours: false } => self.unwind_bounded::<false>(),
            Kind::Multiple { colours: true } => self.unwind_bounded::<true>(),
        }
        while let Some(first) = self.forced.pop() {
            match self.kind {
                Kind::Exact => self.unforce::<false>(first),
                Kind::Coloured => self.unforce::<true>(first),
                Kind::Multiple { colours: false } => self.unforce_bounded::<false>(first),
                Kind::Multiple { colours: true } => self.unforce_bounded::<true>(first),
            }
        }
        self.phase = Phase::Done;
        Report {
            outcome,
            stats: Stats {
                nodes: self.nodes,
                updates: self.links.updates - self.updates_at_start,
                solutions: self.solutions,
                cleansings: self.links.cleansings - self.cleansings_at_start,
                propagated: self.propagated,
            },
        }
    }

    /// Undoes the levels the loop has applied when it stopped early.
    fn unwind<const XCC: bool>(&mut self) {
        let applied = match self.phase {
            // At `Forward`, levels below `level` are applied.
            Phase::Forward => self.level,
            // At `Recover` (just after a solution), `level` itself is applied
            // too, its item covered and its option committed.
            Phase::Recover => self.level + 1,
            // At `Advance`, `level`'s item is covered but no option is.
            Phase::Advance => {
                self.links.uncover::<XCC>(self.best);
                self.unpropagate(self.level);
                self.level
            }
            Phase::Start | Phase::Done | Phase::Restore | Phase::Leave => 0,
        };
        for level in (0..applied).rev() {
            let node = self.choice[level];
            self.links.uncommit::<XCC>(node);
            self.links.uncover::<XCC>(self.links.item_of(node));
            self.unpropagate(level);
        }
        debug_assert!(self.removed.is_empty(), "every removal is undone");
        self.level = 0;
        self.phase = Phase::Done;
    }

    /// [`Solver::unwind`] for a search with bounds: finishes the current
    /// level as the loop would, then undoes every level below it.
    fn unwind_bounded<const XCC: bool>(&mut self) {
        let mut applied = match self.phase {
            Phase::Forward | Phase::Leave => self.level,
            // The current level's option applied: undo it, then restore.
            Phase::Recover => {
                self.unapply::<XCC>(self.choice[self.level]);
                self.restore_level::<XCC>(self.level);
                self.level
            }
            // The current level prepared, nothing applied.
            Phase::Advance | Phase::Restore => {
                self.restore_level::<XCC>(self.level);
                self.level
            }
            // Only the replayed levels below the floor remain.
            Phase::Done => self.floor,
            Phase::Start => 0,
        };
        while applied > 0 {
            applied -= 1;
            self.leave_level::<XCC>(applied);
            self.restore_level::<XCC>(applied);
        }
        self.level = 0;
        self.floor = 0;
        self.phase = Phase::Done;
    }

    fn fill_solution(&mut self) {
        self.solution.clear();
        for &first in &self.forced {
            self.solution.push(self.links.option_of(first));
        }
        let levels = match (self.kind, self.phase) {
            (Kind::Multiple { .. }, _) => self.level,
            (_, Phase::Recover) => self.level + 1,
            _ => 0,
        };
        for level in 0..levels {
            let node = self.choice[level];
            if self.is_closed(level, node) {
                continue;
            }
            self.solution.push(self.links.option_of(node));
        }
    }

    /// Whether `node`, the choice at `level`, is no option but the level's
    /// item closed (bounds only).
    fn is_closed(&self, level: usize, node: NodeRef) -> bool {
        matches!(self.kind, Kind::Multiple { .. }) && node == self.level_item[level]
    }

    /// The prefix of the level about to be entered: the givens, then each
    /// level's option or [`CLOSED`].
    fn fill_prefix(&mut self) {
        self.solution.clear();
        for &first in &self.forced {
            self.solution.push(self.links.option_of(first));
        }
        for level in 0..self.level {
            let node = self.choice[level];
            let entry = if self.is_closed(level, node) {
                CLOSED
            } else {
                self.links.option_of(node)
            };
            self.solution.push(entry);
        }
    }

    /// Whether the limits say to stop before entering a level.
    #[inline]
    fn should_stop(&mut self) -> Option<Outcome> {
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
        if self.deadline.passed() {
            return Some(Outcome::TimeLimit);
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
        match self.kind {
            Kind::Exact if self.propagator.0.is_some() => self.step_exact::<G, false, true>(guide),
            Kind::Exact => self.step_exact::<G, false, false>(guide),
            Kind::Coloured => self.step_exact::<G, true, false>(guide),
            Kind::Multiple { colours: false } => self.step_bounded::<G, false>(guide),
            Kind::Multiple { colours: true } => self.step_bounded::<G, true>(guide),
        }
    }

    /// The loop of DLX1, and with `XCC` of DLX2; with `PROP`, the
    /// propagator runs on entering each level.
    #[inline(always)]
    fn step_exact<G: Guide + Follows, const XCC: bool, const PROP: bool>(
        &mut self,
        guide: &mut G,
    ) -> Step {
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
                        self.level = level;
                        self.fill_prefix();
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
                    if PROP {
                        // Reason where the search would branch (or has
                        // found a dead end, which a propagator that learns
                        // from failures wants to see); forced moves are
                        // taken without it, as its own rules would.
                        self.removed_at[level] = self.removed.len() as u32;
                        if self.links.len(best) != 1 {
                            let dead = self.links.len(best) == 0;
                            if self.propagate(level) == Verdict::Dead
                                || dead
                                || G::FOLLOWS && guide.prune_live(&self.domain(level))
                            {
                                self.unpropagate(level);
                                if level == 0 {
                                    phase = Phase::Done;
                                    continue;
                                }
                                level -= 1;
                                best = self.links.item_of(self.choice[level]);
                                phase = Phase::Recover;
                                continue;
                            }
                            best = self
                                .links
                                .choose_fewest()
                                .expect("propagation leaves the active items active");
                            if self.links.len(best) >= 2 {
                                if let Some(item) = self.propagator_choice(level) {
                                    best = item;
                                }
                            }
                        }
                    }
                    self.links.cover::<XCC>(best);
                    self.choice[level] = self.links.down(best);
                    phase = Phase::Advance;
                }
                Phase::Advance => {
                    let node = self.choice[level];
                    if node == best {
                        // Every option of `best` was tried: back up.
                        self.links.uncover::<XCC>(best);
                        if PROP {
                            self.unpropagate(level);
                        }
                        if level == 0 {
                            phase = Phase::Done;
                            continue;
                        }
                        level -= 1;
                        best = self.links.item_of(self.choice[level]);
                        phase = Phase::Recover;
                        continue;
                    }
                    self.links.commit::<XCC>(node);
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
                    self.links.uncommit::<XCC>(node);
                    self.choice[level] = self.links.down(node);
                    phase = Phase::Advance;
                }
                // (`Restore` and `Leave` belong to the bounded loop.)
                Phase::Done | Phase::Restore | Phase::Leave => break Step::End(Outcome::Exhausted),
            }
        };
        self.level = level;
        self.best = best;
        self.phase = phase;
        step
    }

    /// Bounds: the active primary item to branch on, the first with the
    /// fewest ways to go on (see [`Solver`]), and that number; `None` when
    /// no primary item is active.
    fn choose_bounded(&self) -> Option<(NodeRef, u64)> {
        let mut best: Option<(NodeRef, u64)> = None;
        for item in self.links.active_primary() {
            let ways = self.ways(item);
            if best.is_none_or(|(_, fewest)| ways < fewest) {
                best = Some((item, ways));
                if ways == 0 {
                    break;
                }
            }
        }
        best
    }

    /// The number of branches at `item`: with `need` more covers needed,
    /// its first `len - need + 1` options can start them; when it needs
    /// none, all its options and taking no more.
    fn ways(&self, item: NodeRef) -> u64 {
        let len = u64::from(self.links.len(item));
        let i = index(item);
        let need = u64::from(self.bound[i].saturating_sub(self.slack[i]));
        match need {
            0 => len + 1,
            need => (len + 1).saturating_sub(need),
        }
    }

    /// Bounds, Knuth's M4: prepares to branch on `item` at `level`: one
    /// cover fewer left to it (covered when none is left), and where its
    /// list starts now, for undoing tweaks.
    fn prepare_level<const XCC: bool>(&mut self, level: usize, item: NodeRef) {
        self.level_item[level] = item;
        let i = index(item);
        self.bound[i] -= 1;
        if self.bound[i] == 0 {
            self.links.cover::<XCC>(item);
        }
        let first = self.links.down(item);
        self.first_tweaked[level] = first;
        self.choice[level] = first;
    }

    /// Bounds, Knuth's M5: what `level` does with its current choice, once
    /// it is prepared: `Some(true)` when the choice is to be taken (an
    /// option, tweaked out of its item's list first unless the item is an
    /// exact one; or the item closed), `Some(false)` when the level is
    /// done.
    fn try_choice<const XCC: bool>(&mut self, level: usize) -> bool {
        let item = self.level_item[level];
        let node = self.choice[level];
        let i = index(item);
        let (bound, slack) = (self.bound[i], self.slack[i]);
        if bound == 0 && slack == 0 {
            // Exact: as DLX1, the item is covered and its options tried in
            // turn.
            return node != item;
        }
        // Too few options left to give the covers still needed.
        if i64::from(self.links.len(item)) <= i64::from(bound) - i64::from(slack) {
            return false;
        }
        if node != item {
            self.links.tweak::<XCC>(node, bound != 0);
        } else if bound != 0 {
            // Take no more options for the item.
            self.links.deactivate(item);
        }
        true
    }

    /// Bounds, Knuth's M6: applies option node `node`: each other item of
    /// its option is taken (see [`Solver::take_item`]).
    fn apply<const XCC: bool>(&mut self, node: NodeRef) {
        let mut q = self.links.next_in_option(node);
        while q != node {
            self.take_item::<XCC>(q);
            q = self.links.next_in_option(q);
        }
    }

    /// Undoes [`Solver::apply`], right to left.
    fn unapply<const XCC: bool>(&mut self, node: NodeRef) {
        let mut q = self.links.prev_in_option(node);
        while q != node {
            self.untake_item::<XCC>(q);
            q = self.links.prev_in_option(q);
        }
    }

    /// Bounds: undoes what `level`'s choice applied (its option, or the
    /// item's closing), leaving the level prepared.
    fn leave_level<const XCC: bool>(&mut self, level: usize) {
        let node = self.choice[level];
        let item = self.level_item[level];
        if node != item {
            self.unapply::<XCC>(node);
        } else if self.bound[index(item)] != 0 {
            self.links.reactivate(item);
        }
    }

    /// Bounds, Knuth's M8: undoes [`Solver::prepare_level`] and the tweaks
    /// made at `level`.
    fn restore_level<const XCC: bool>(&mut self, level: usize) {
        let item = self.level_item[level];
        let i = index(item);
        let (bound, slack) = (self.bound[i], self.slack[i]);
        if bound == 0 && slack == 0 {
            self.links.uncover::<XCC>(item);
        } else {
            self.links
                .untweak::<XCC>(self.first_tweaked[level], item, bound != 0);
            if bound == 0 {
                self.links.uncover::<XCC>(item);
            }
        }
        self.bound[i] += 1;
    }

    /// Bounds: replays `path` (what each level took, from
    /// [`Solver::enumerate_prefixes`]) from the top, without counting, as
    /// the search would have when it reached that branch: at each level the
    /// options tried before the one taken leave only their tweaks. Returns
    /// whether every step of it was one the search could take; either way
    /// the levels replayed are below the floor, undone when the search
    /// finishes.
    fn replay<const XCC: bool>(&mut self, path: &[usize]) -> bool {
        for (level, &wanted) in path.iter().enumerate() {
            self.level = level;
            self.floor = level;
            let Some((item, ways)) = self.choose_bounded() else {
                return false;
            };
            if ways == 0 {
                return false;
            }
            self.prepare_level::<XCC>(level, item);
            loop {
                let node = self.choice[level];
                let is_wanted = if wanted == CLOSED {
                    node == item
                } else {
                    node != item && self.links.option_of(node) == wanted
                };
                if !self.try_choice::<XCC>(level) {
                    self.restore_level::<XCC>(level);
                    return false;
                }
                if is_wanted {
                    if node != item {
                        self.apply::<XCC>(node);
                    }
                    break;
                }
                if node == item {
                    // Past the last branch without meeting the wanted one.
                    if self.bound[index(item)] != 0 {
                        self.links.reactivate(item);
                    }
                    self.restore_level::<XCC>(level);
                    return false;
                }
                self.choice[level] = self.links.down(node);
            }
        }
        self.level = path.len();
        self.floor = path.len();
        self.phase = Phase::Start;
        true
    }

    /// The loop of Algorithm M (Knuth's DLX3), with `XCC` also colours.
    fn step_bounded<G: Guide + Follows, const XCC: bool>(&mut self, guide: &mut G) -> Step {
        let mut level = self.level;
        let mut phase = self.phase;
        let step = loop {
            match phase {
                Phase::Start => phase = Phase::Forward,
                Phase::Forward => {
                    if let Some(outcome) = self.should_stop() {
                        break Step::End(outcome);
                    }
                    let choice = self.choose_bounded();
                    if choice.is_none() {
                        // Every primary item covered within its bounds (a
                        // solution is reported before the guide is asked,
                        // as in the exact loop).
                        self.nodes += 1;
                        self.solutions += 1;
                        phase = Phase::Leave;
                        break Step::Solution;
                    }
                    if G::FOLLOWS && guide.prune() {
                        phase = Phase::Leave;
                        continue;
                    }
                    if self.split_depth == Some(level) {
                        self.level = level;
                        self.fill_prefix();
                        phase = Phase::Leave;
                        break Step::Prefix;
                    }
                    self.nodes += 1;
                    let Some((item, ways)) = choice else {
                        unreachable!("no item means a solution, above");
                    };
                    if ways == 0 {
                        phase = Phase::Leave;
                        continue;
                    }
                    self.prepare_level::<XCC>(level, item);
                    phase = Phase::Advance;
                }
                Phase::Advance => {
                    if !self.try_choice::<XCC>(level) {
                        phase = Phase::Restore;
                        continue;
                    }
                    let node = self.choice[level];
                    if node != self.level_item[level] {
                        self.apply::<XCC>(node);
                        if G::FOLLOWS {
                            guide.push(self.links.option_of(node));
                        }
                    }
                    level += 1;
                    phase = Phase::Forward;
                }
                Phase::Recover => {
                    let node = self.choice[level];
                    self.unapply::<XCC>(node);
                    self.choice[level] = self.links.down(node);
                    phase = Phase::Advance;
                }
                Phase::Restore => {
                    self.restore_level::<XCC>(level);
                    phase = Phase::Leave;
                }
                Phase::Leave => {
                    if level == self.floor {
                        phase = Phase::Done;
                        continue;
                    }
                    level -= 1;
                    let node = self.choice[level];
                    let item = self.level_item[level];
                    if node == item {
                        if self.bound[index(item)] != 0 {
                            self.links.reactivate(item);
                        }
                        phase = Phase::Restore;
                    } else {
                        if G::FOLLOWS {
                            guide.pop(self.links.option_of(node));
                        }
                        phase = Phase::Recover;
                    }
                }
                Phase::Done => break Step::End(Outcome::Exhausted),
            }
        };
        self.level = level;
        self.phase = phase;
        step
    }
}

crate::engine::inherent_search!(Solver);

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
