//! What every search engine of this crate shares with its callers: how a
//! search is asked ([`Search`], given options and [`Limits`]), followed
//! ([`Visitor`], [`Control`], [`Guide`]) and reported ([`Report`],
//! [`Outcome`], [`Stats`], [`UnknownOption`]), and how a deadline is
//! checked at every node for little cost ([`Deadline`]).
//!
//! It owns no algorithm: the linked engine ([`Solver`](crate::Solver)),
//! the compact one ([`CompactSolver`](crate::CompactSolver)), the repeat
//! cover and the split searches speak these words, and none of them is
//! known here.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::propagate::Domain;

/// What the search has done so far. Counters may be added in a later
/// version: start from [`Stats::default`] to make one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Search nodes: levels entered (the root included) plus solutions found.
    pub nodes: u64,
    /// Items taken out of the active list plus nodes unlinked from a list.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Colour constraints satisfied by purifying (problems with colours;
    /// counted as DLX2 counts them: the purified item and each node of its
    /// colour but the chosen one).
    pub cleansings: u64,
    /// Options a [`Propagator`](crate::Propagator) removed (0 without one). Not part of
    /// `updates`, so that those stay Knuth's.
    pub propagated: u64,
}

impl Stats {
    /// The sum of two searches' counters, or `None` if one overflows (the
    /// sum of untrusted reports, say).
    pub fn checked_add(self, other: Stats) -> Option<Stats> {
        Some(Stats {
            nodes: self.nodes.checked_add(other.nodes)?,
            updates: self.updates.checked_add(other.updates)?,
            solutions: self.solutions.checked_add(other.solutions)?,
            cleansings: self.cleansings.checked_add(other.cleansings)?,
            propagated: self.propagated.checked_add(other.propagated)?,
        })
    }
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.cleansings += other.cleansings;
        self.propagated += other.propagated;
    }
}

/// Limits on one search. The default has none; the `with_` methods add
/// one each:
/// ```
/// use std::time::Duration;
/// use dlx_core::Limits;
///
/// let limits = Limits::none()
///     .with_max_solutions(10)
///     .with_node_budget(1_000_000)
///     .with_time_limit(Some(Duration::from_secs(5)));
/// assert_eq!(limits.max_solutions, Some(10));
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
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
    /// Stop before entering a level once this instant has passed
    /// ([`Outcome::TimeLimit`]). An instant rather than a duration, so
    /// that the parts of a search split between threads, or resumed,
    /// share one end. Checked as [`Deadline`] says: the search stops
    /// within one node's work of it, or within a fraction of a
    /// millisecond where nodes are cheap.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Stop after `n` solutions.
    pub fn solutions(n: u64) -> Limits {
        Limits::none().with_max_solutions(n)
    }

    /// These limits, stopping after `max` solutions (`None`: no limit).
    pub fn with_max_solutions(mut self, max: impl Into<Option<u64>>) -> Limits {
        self.max_solutions = max.into();
        self
    }

    /// These limits, within a budget of `nodes` search nodes (`None`: no
    /// budget).
    pub fn with_node_budget(mut self, nodes: impl Into<Option<u64>>) -> Limits {
        self.node_budget = nodes.into();
        self
    }

    /// These limits, stopping as soon as `flag` is raised (`None`: no
    /// flag).
    pub fn with_cancel(mut self, flag: impl Into<Option<Arc<AtomicBool>>>) -> Limits {
        self.cancel = flag.into();
        self
    }

    /// These limits, stopping once `deadline` has passed (`None`: no
    /// deadline). Unlike [`Limits::with_time_limit`], this replaces the
    /// deadline they had.
    pub fn with_deadline(mut self, deadline: impl Into<Option<Instant>>) -> Limits {
        self.deadline = deadline.into();
        self
    }

    /// These limits, with a deadline `limit` from now, or the one they
    /// have if that is sooner (`None` changes nothing; a limit too far
    /// away to be an instant is no limit).
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Limits {
        let deadline = limit.and_then(|limit| Instant::now().checked_add(limit));
        self.deadline = earliest(self.deadline, deadline);
        self
    }
}

/// The sooner of two deadlines, where `None` is never.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Why a search ended. Later versions may add reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The deadline ([`Limits::deadline`]) passed.
    TimeLimit,
}

impl Outcome {
    /// Whether the search explored everything.
    pub fn is_complete(self) -> bool {
        self == Outcome::Exhausted
    }

    /// Whether a bound on the search's cost stopped it before it was done
    /// (its node budget or its deadline): it gave up, and nothing is known
    /// of what it did not reach.
    pub fn gave_up(self) -> bool {
        matches!(self, Outcome::NodeBudget | Outcome::TimeLimit)
    }
}

/// A search's deadline as the engines check it on entering each node,
/// cheap enough for their hot loops: the clock (some 20 ns) is read every
/// `stride` checks, where the stride doubles, up to [`Deadline::MAX_STRIDE`],
/// while reads come less than [`Deadline::FAST`] apart and drops to 1 as
/// soon as they come more than [`Deadline::SLOW`] apart. So where nodes
/// are cheap the clock costs a fraction of a nanosecond a node and the
/// search stops within tens of microseconds; where each node is slow (a
/// scan of 200,000 items) the clock is read at every node and the search
/// stops within one node of the deadline. Only a search whose nodes turn
/// from cheap to slow all at once can run on for up to `MAX_STRIDE` slow
/// nodes. Without a deadline, a check is one test of an `Option`.
#[derive(Debug, Clone)]
pub struct Deadline {
    at: Option<Instant>,
    /// Checks left until the clock is read.
    countdown: u32,
    /// Checks between two reads of the clock.
    stride: u32,
    /// When the clock was last read (`None` before the first read).
    last: Option<Instant>,
}

impl Deadline {
    /// The most checks between two reads of the clock.
    pub const MAX_STRIDE: u32 = 64;
    /// Reads closer than this apart make the stride double.
    pub const FAST: Duration = Duration::from_micros(20);
    /// Reads further than this apart make the stride 1.
    pub const SLOW: Duration = Duration::from_micros(200);

    /// The check of `at` (`None`: never passes). The first check reads
    /// the clock, so a deadline already past stops a search at its root.
    pub fn new(at: Option<Instant>) -> Deadline {
        Deadline {
            at,
            countdown: 1,
            stride: 1,
            last: None,
        }
    }

    /// Whether the deadline has passed (once it has, every later check
    /// says so too).
    #[inline(always)]
    pub fn passed(&mut self) -> bool {
        if self.at.is_none() {
            return false;
        }
        self.countdown -= 1;
        self.countdown == 0 && self.read()
    }

    /// For a loop that counts its nodes itself (and so can fold this into
    /// a comparison it makes anyway): reads the clock now, and says `None`
    /// once the deadline has passed, else after how many nodes to read it
    /// again (`u64::MAX` without a deadline).
    #[cold]
    #[inline(never)]
    pub fn next_read(&mut self) -> Option<u64> {
        if self.at.is_none() {
            return Some(u64::MAX);
        }
        if self.read() {
            return None;
        }
        Some(u64::from(self.stride))
    }

    /// Reads the clock, and sets when to read it next.
    #[cold]
    #[inline(never)]
    fn read(&mut self) -> bool {
        let now = Instant::now();
        if self.at.is_some_and(|at| now >= at) {
            // Read again at the next check, which then passes too.
            self.countdown = 1;
            return true;
        }
        if let Some(last) = self.last {
            let gap = now.saturating_duration_since(last);
            if gap > Self::SLOW {
                self.stride = 1;
            } else if gap < Self::FAST {
                self.stride = (self.stride * 2).min(Self::MAX_STRIDE);
            }
        }
        self.last = Some(now);
        self.countdown = self.stride;
        false
    }
}

/// What a finished search reports (made by [`Report::new`] outside this
/// crate, as later versions may report more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Why it ended.
    pub outcome: Outcome,
    /// Its counters.
    pub stats: Stats,
}

impl Report {
    /// A search that ended for `outcome` after counting `stats`.
    pub fn new(outcome: Outcome, stats: Stats) -> Report {
        Report { outcome, stats }
    }
}

/// A visitor's answer after each solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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

/// What both exact-cover engines, [`Solver`](crate::Solver) and
/// [`CompactSolver`](crate::CompactSolver), do: stream the solutions that
/// contain some given options, and the conveniences built on that. Both
/// engines also have these as inherent methods; the trait is for code
/// generic over the engine.
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

/// [`Search`]'s methods as inherent methods of an engine, so that
/// `solver.count()` works without importing the trait (rustc would
/// otherwise point at `Iterator::count`).
macro_rules! inherent_search {
    ($engine:ty) => {
        impl $engine {
            /// Streams every solution containing the `given` options to
            /// `visitor`, within `limits` ([`Search::search`](crate::Search::search)).
            pub fn search<V: crate::Visitor + ?Sized>(
                &mut self,
                given: &[usize],
                limits: &crate::Limits,
                visitor: &mut V,
            ) -> Result<crate::Report, crate::UnknownOption> {
                <Self as crate::Search>::search(self, given, limits, visitor)
            }

            /// Finds the first solution in the search order
            /// ([`Search::first`](crate::Search::first)).
            pub fn first(&mut self) -> Option<Vec<usize>> {
                <Self as crate::Search>::first(self)
            }

            /// Finds the first solution that contains the `given` options
            /// ([`Search::first_with`](crate::Search::first_with)).
            pub fn first_with(
                &mut self,
                given: &[usize],
            ) -> Result<Option<Vec<usize>>, crate::UnknownOption> {
                <Self as crate::Search>::first_with(self, given)
            }

            /// Counts all solutions ([`Search::count`](crate::Search::count)).
            pub fn count(&mut self) -> u64 {
                <Self as crate::Search>::count(self)
            }

            /// Counts the solutions that contain the `given` options, within
            /// `limits` ([`Search::count_with`](crate::Search::count_with)).
            pub fn count_with(
                &mut self,
                given: &[usize],
                limits: &crate::Limits,
            ) -> Result<crate::Report, crate::UnknownOption> {
                <Self as crate::Search>::count_with(self, given, limits)
            }
        }
    };
}
pub(crate) use inherent_search;

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
    /// (With bounds, an item that takes no more options is closed on a
    /// level of its own, which this can cut too: a partial solution that
    /// needs such levels to be complete is then not reported.)
    fn prune(&mut self) -> bool;
    /// With a [`Propagator`](crate::Propagator) attached
    /// ([`Solver::set_propagator`](crate::Solver::set_propagator), linked
    /// engine): asked at each node where the propagator has run (where the
    /// search would branch), with the options still live; `true` abandons
    /// the node as [`Guide::prune`] does. A bound can use what propagation left (the digits a cell can
    /// still take, say), which `prune`, asked before it, cannot.
    fn prune_live(&mut self, domain: &dyn Domain) -> bool {
        let _ = domain;
        false
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
