//! One search split across cores.
//!
//! The first levels of the search are run serially with
//! [`Solver::enumerate_prefixes`]: every way to reach level `depth` is a
//! prefix (a list of options), and the subtree below each prefix is an
//! independent subproblem, searched by forcing the prefix as given options.
//! Rayon runs the subproblems on all cores, one solver per worker thread.
//! The depth grows until there are enough prefixes to balance the load
//! ([`SplitConfig::min_prefixes`]).
//!
//! Because forcing a prefix leaves the links exactly as the serial search
//! has them below that prefix, and the counters of a search with givens do
//! not count the forcing, the parts' nodes, updates and solutions add up to
//! the serial search's exactly.
//!
//! The compact engine shares instead of splitting up front
//! ([`first_compact_parallel`], [`count_compact_parallel`]): a search runs
//! alone for a while (most end there), then, whenever a thread is idle,
//! gives it the untried options of its shallowest open branch point
//! ([`CompactSolver::donate`]), and so on recursively. Parts are ordered by
//! their place in the serial search and taken earliest first, so the first
//! solution found in the earliest part is the serial search's first
//! solution, and little work is spent past it. A split up front does badly
//! there: the cut itself explores the whole top of the tree, which the
//! serial search never needs to (measured in `docs/measurements.md`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::compact::CompactSolver;
use crate::engine::{Control, Limits, Outcome, Report, Stats, UnknownOption};
use crate::problem::Problem;
use crate::search::Solver;

/// How to split: the default, changed by the `with_` methods.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SplitConfig {
    /// Grow the split depth until there are at least this many prefixes
    /// (or the search is no deeper). The default, 2048, keeps two threads
    /// busy to the end on 15 queens; forcing a prefix costs microseconds.
    pub min_prefixes: usize,
    /// Never split deeper than this.
    pub max_depth: usize,
    /// Stop when this flag is raised (checked on entering each level).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop once this instant has passed ([`Outcome::TimeLimit`]): the
    /// split and every part check it on entering each level.
    pub deadline: Option<Instant>,
    /// Where to count the subproblems done, for a progress display.
    pub progress: Option<Arc<SplitProgress>>,
}

/// How far a split search has got: another thread may read these while
/// the search runs.
#[derive(Debug, Default)]
pub struct SplitProgress {
    /// Subproblems finished.
    pub parts_done: AtomicU64,
    /// Subproblems in all (0 until the split is known).
    pub parts_total: AtomicU64,
}

impl Default for SplitConfig {
    fn default() -> Self {
        SplitConfig {
            min_prefixes: 2048,
            max_depth: 12,
            cancel: None,
            deadline: None,
            progress: None,
        }
    }
}

/// The prefixes of a split, and what the levels above them found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Split {
    /// The split depth.
    pub depth: usize,
    /// Each prefix: the given options, then what each level above `depth`
    /// took: an option, or [`CLOSED`](crate::CLOSED) (see
    /// [`Solver::enumerate_prefixes`]). Search one with
    /// [`Solver::search_below`].
    pub prefixes: Vec<Vec<usize>>,
    /// Solutions found above the split depth.
    pub shallow_solutions: Vec<Vec<usize>>,
    /// The counters of the levels above the split depth.
    pub stats: Stats,
}

/// Splits the search for solutions containing `given` into prefixes, as
/// deep as `config` asks.
pub fn split(
    problem: &Problem,
    given: &[usize],
    config: &SplitConfig,
) -> Result<Split, UnknownOption> {
    split_with(&mut Solver::new(problem), given, config)
}

/// [`split`] with `solver` (and its propagator, if it has one: the levels
/// above the split depth are then propagated as the serial search's).
pub fn split_with(
    solver: &mut Solver,
    given: &[usize],
    config: &SplitConfig,
) -> Result<Split, UnknownOption> {
    Ok(split_within(solver, given, config)?.0)
}

/// [`split_with`], and whether [`SplitConfig::deadline`] passed while it
/// split: then the split is only part of the search (the search gives up).
fn split_within(
    solver: &mut Solver,
    given: &[usize],
    config: &SplitConfig,
) -> Result<(Split, bool), UnknownOption> {
    let limits = Limits {
        deadline: config.deadline,
        ..Limits::none()
    };
    let mut depth = 1;
    let mut shallower: Option<Split> = None;
    loop {
        let mut prefixes = Vec::new();
        let mut shallow_solutions = Vec::new();
        let report = solver.enumerate_within(
            given,
            given.len(),
            depth,
            limits.clone(),
            |p| prefixes.push(p.to_vec()),
            |s| shallow_solutions.push(s.to_vec()),
        )?;
        let split = Split {
            depth,
            prefixes,
            shallow_solutions,
            stats: report.stats,
        };
        if report.outcome == Outcome::TimeLimit {
            return Ok((split, true));
        }
        let count = split.prefixes.len();
        let deep_enough = count >= config.min_prefixes || depth >= config.max_depth;
        // No prefix means the whole search ended above `depth`: deeper
        // splits would find the same.
        if deep_enough || count == 0 {
            // A level that multiplies the prefixes many times over costs
            // each part its forcing: keep the level above when it has
            // enough for the threads already (a double word square 4×4
            // grew from 1,878 prefixes to 31,999, and its count on two
            // threads took 0.53 s of processor against 0.16 s alone).
            if let Some(above) = shallower {
                let plenty = above.prefixes.len() * 4 >= config.min_prefixes;
                if count > 4 * config.min_prefixes && plenty {
                    return Ok((above, false));
                }
            }
            return Ok((split, false));
        }
        shallower = Some(split);
        depth += 1;
    }
}

/// Counts the solutions containing `given` on all of rayon's threads.
/// The report's counters equal the serial search's.
pub fn count_parallel(
    problem: &Problem,
    given: &[usize],
    config: &SplitConfig,
) -> Result<Report, UnknownOption> {
    search_parallel(problem, given, config, |_: &[usize]| Control::Continue)
}

/// Streams every solution containing `given` to `visitor`, from all of
/// rayon's threads at once (so in no fixed order). The visitor returning
/// [`Control::Stop`] stops every thread soon after.
pub fn search_parallel<V>(
    problem: &Problem,
    given: &[usize],
    config: &SplitConfig,
    visitor: V,
) -> Result<Report, UnknownOption>
where
    V: Fn(&[usize]) -> Control + Sync,
{
    search_parallel_with(&Solver::new(problem), given, config, visitor)
}

/// Counts as [`count_parallel`] does, with clones of `solver` (so with its
/// propagator, [`Solver::set_propagator`], on every thread). With a
/// propagator the count is the serial search's; the nodes are not, since
/// each part propagates its prefix afresh.
pub fn count_parallel_with(
    solver: &Solver,
    given: &[usize],
    config: &SplitConfig,
) -> Result<Report, UnknownOption> {
    search_parallel_with(solver, given, config, |_: &[usize]| Control::Continue)
}

/// [`search_parallel`] with clones of `solver` (see
/// [`count_parallel_with`]).
pub fn search_parallel_with<V>(
    solver: &Solver,
    given: &[usize],
    config: &SplitConfig,
    visitor: V,
) -> Result<Report, UnknownOption>
where
    V: Fn(&[usize]) -> Control + Sync,
{
    let (split, timed_out) = split_within(&mut solver.clone(), given, config)?;
    let stop = Arc::new(AtomicBool::new(false));
    let mut stats = split.stats;
    if timed_out {
        // Some prefixes and solutions were not reached: nothing is known.
        return Ok(Report {
            outcome: Outcome::TimeLimit,
            stats,
        });
    }
    for solution in &split.shallow_solutions {
        if visitor(solution) == Control::Stop {
            stop.store(true, Ordering::Relaxed);
            return Ok(Report {
                outcome: Outcome::Stopped,
                stats,
            });
        }
    }
    let external_cancel = config.cancel.clone();
    if let Some(progress) = &config.progress {
        let total = split.prefixes.len() as u64;
        progress.parts_total.store(total, Ordering::Relaxed);
    }
    let limits = Limits {
        cancel: Some(Arc::clone(&stop)),
        deadline: config.deadline,
        ..Limits::none()
    };
    let parts: Vec<Report> = split
        .prefixes
        .par_iter()
        .map_init(
            || solver.clone(),
            |solver, prefix| {
                if external_cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed))
                {
                    stop.store(true, Ordering::Relaxed);
                }
                let mut visit = |solution: &[usize]| {
                    let external = external_cancel
                        .as_ref()
                        .is_some_and(|c| c.load(Ordering::Relaxed));
                    if external || visitor(solution) == Control::Stop {
                        stop.store(true, Ordering::Relaxed);
                        return Control::Stop;
                    }
                    Control::Continue
                };
                let report = solver
                    .search_below(prefix, given.len(), &limits, &mut visit)
                    .expect("prefixes name options of this problem");
                if let Some(progress) = &config.progress {
                    progress.parts_done.fetch_add(1, Ordering::Relaxed);
                }
                report
            },
        )
        .collect();
    let mut outcome = Outcome::Exhausted;
    let mut timed_out = false;
    for part in &parts {
        stats += part.stats;
        if part.outcome != Outcome::Exhausted {
            outcome = part.outcome;
        }
        timed_out |= part.outcome == Outcome::TimeLimit;
    }
    if outcome != Outcome::Exhausted {
        let cancelled = external_cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        outcome = if cancelled {
            Outcome::Cancelled
        } else if timed_out {
            Outcome::TimeLimit
        } else {
            Outcome::Stopped
        };
    }
    Ok(Report { outcome, stats })
}

/// How [`first_compact_parallel`] and [`count_compact_parallel`] share one
/// search between threads: the default, changed by the `with_` methods.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ShareConfig {
    /// Search alone this many nodes before sharing: most searches end
    /// sooner, and then nothing is shared (nor cloned).
    pub solo_nodes: u64,
    /// Then look for idle threads to share with every this many nodes.
    pub slice_nodes: u64,
    /// Stop when this flag is raised: checked on entering each level while
    /// the search is alone, then between slices. A first-solution search
    /// so stopped reports no solution.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop once this instant has passed ([`Outcome::TimeLimit`]),
    /// checked by every part on entering each level. A first-solution
    /// search so stopped reports no solution, as a cancelled one.
    pub deadline: Option<Instant>,
}

impl Default for ShareConfig {
    fn default() -> Self {
        ShareConfig {
            solo_nodes: 20_000,
            slice_nodes: 1_000,
            cancel: None,
            deadline: None,
        }
    }
}

impl SplitConfig {
    /// This split, grown until it has at least `prefixes` prefixes.
    pub fn with_min_prefixes(mut self, prefixes: usize) -> SplitConfig {
        self.min_prefixes = prefixes;
        self
    }

    /// This split, never deeper than `depth` levels.
    pub fn with_max_depth(mut self, depth: usize) -> SplitConfig {
        self.max_depth = depth;
        self
    }

    /// This split, stopped as soon as `flag` is raised.
    pub fn with_cancel(mut self, flag: impl Into<Option<Arc<AtomicBool>>>) -> SplitConfig {
        self.cancel = flag.into();
        self
    }

    /// This split, stopped once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: impl Into<Option<Instant>>) -> SplitConfig {
        self.deadline = deadline.into();
        self
    }

    /// This split, counting the subproblems done in `progress`.
    pub fn with_progress(mut self, progress: impl Into<Option<Arc<SplitProgress>>>) -> SplitConfig {
        self.progress = progress.into();
        self
    }
}

impl ShareConfig {
    /// This sharing, after `nodes` nodes searched alone.
    pub fn with_solo_nodes(mut self, nodes: u64) -> ShareConfig {
        self.solo_nodes = nodes;
        self
    }

    /// This sharing, looking for idle threads every `nodes` nodes.
    pub fn with_slice_nodes(mut self, nodes: u64) -> ShareConfig {
        self.slice_nodes = nodes;
        self
    }

    /// This sharing, stopped as soon as `flag` is raised.
    pub fn with_cancel(mut self, flag: impl Into<Option<Arc<AtomicBool>>>) -> ShareConfig {
        self.cancel = flag.into();
        self
    }

    /// This sharing, stopped once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: impl Into<Option<Instant>>) -> ShareConfig {
        self.deadline = deadline.into();
        self
    }
}

/// A part's place in the serial search: parts compare as the search meets
/// them. The whole search is `[]`; the `j`-th prefix of the `n`-th
/// donation of part `k` is `k ++ [u32::MAX - n, j]` (a part's own
/// remaining work comes before all it gave away, and a later donation,
/// being deeper, before an earlier one).
type Place = Vec<u32>;

/// What a shared search is for.
#[derive(Debug, Clone, Copy)]
enum Goal {
    /// The first solution in the serial search's order.
    First,
    /// The number of solutions, up to a limit.
    Count(Option<u64>),
}

/// The state the threads of one shared search share.
struct Board<'a> {
    goal: Goal,
    config: &'a ShareConfig,
    /// Parts waiting for a thread, in the search's order.
    queue: Mutex<BTreeMap<Place, Vec<usize>>>,
    /// Threads working on a part.
    busy: AtomicUsize,
    /// Threads waiting for a part.
    hungry: AtomicUsize,
    /// `Goal::First`: the earliest solution found, with its part's place.
    best: Mutex<Option<(Place, Vec<usize>)>>,
    /// `Goal::Count`: the solutions counted.
    total: AtomicU64,
    /// The count reached its limit, the caller cancelled, or the deadline
    /// passed.
    stop: Arc<AtomicBool>,
    /// A part ended at the deadline: the search is not whole.
    timed_out: AtomicBool,
    /// The counters of the parts done.
    stats: Mutex<Stats>,
}

/// Locks `mutex`, whatever a panicking thread left in it (a panic in a
/// part ends the whole search anyway).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Board<'_> {
    /// Whether the part at `place` can no longer matter.
    fn moot(&self, place: &Place) -> bool {
        if self.stop.load(Ordering::SeqCst) {
            return true;
        }
        if let Some(cancel) = &self.config.cancel {
            if cancel.load(Ordering::Relaxed) {
                self.stop.store(true, Ordering::SeqCst);
                return true;
            }
        }
        matches!(self.goal, Goal::First)
            && lock(&self.best)
                .as_ref()
                .is_some_and(|(best, _)| best < place)
    }

    /// The limits of the next `slice` nodes of a search that has taken
    /// `nodes`.
    fn slice(&self, nodes: u64, slice: u64) -> Limits {
        Limits {
            max_solutions: match self.goal {
                Goal::First => Some(1),
                Goal::Count(limit) => limit,
            },
            node_budget: Some(nodes.saturating_add(slice.max(1))),
            cancel: Some(Arc::clone(&self.stop)),
            deadline: self.config.deadline,
        }
    }

    /// Notes how a part's search ended: one that met the deadline stops
    /// the others.
    fn ended(&self, report: &Report) {
        if report.outcome == Outcome::TimeLimit {
            self.timed_out.store(true, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// What a part does with each solution it finds.
    fn visitor<'b>(&'b self, place: &'b Place) -> impl FnMut(&[usize]) -> Control + 'b {
        move |solution: &[usize]| match self.goal {
            Goal::First => {
                let mut best = lock(&self.best);
                if best.as_ref().is_none_or(|(b, _)| place < b) {
                    *best = Some((place.clone(), solution.to_vec()));
                }
                Control::Stop
            }
            Goal::Count(limit) => {
                let total = self.total.fetch_add(1, Ordering::SeqCst) + 1;
                if limit.is_some_and(|l| total >= l) {
                    self.stop.store(true, Ordering::SeqCst);
                    return Control::Stop;
                }
                Control::Continue
            }
        }
    }

    /// Searches the part at `place` slice by slice, giving work away
    /// whenever a thread is hungry.
    fn work(&self, solver: &mut CompactSolver, place: &Place, start: Start<'_>) {
        let mut visit = self.visitor(place);
        let slice = self.config.slice_nodes;
        let mut report = match start {
            Start::Fresh(prefix) => solver
                .search(prefix, &self.slice(0, slice), &mut visit)
                .expect("prefixes name options of this problem"),
            Start::Resume(nodes) => solver
                .resume(&self.slice(nodes, slice), &mut visit)
                .expect("the search was stopped by its budget"),
        };
        let mut donations = 0;
        while report.outcome == Outcome::NodeBudget && !self.moot(place) {
            let hungry = self.hungry.load(Ordering::SeqCst);
            if hungry > 0 && lock(&self.queue).len() < hungry {
                let prefixes = solver.donate();
                if !prefixes.is_empty() {
                    let mut queue = lock(&self.queue);
                    for (j, prefix) in prefixes.into_iter().enumerate() {
                        let mut at = place.clone();
                        at.extend([u32::MAX - donations, j as u32]);
                        queue.insert(at, prefix);
                    }
                    donations += 1;
                }
            }
            let limits = self.slice(report.stats.nodes, slice);
            report = solver
                .resume(&limits, &mut visit)
                .expect("the search was stopped by its budget");
        }
        self.ended(&report);
        *lock(&self.stats) += report.stats;
    }

    /// Takes parts in order and works on them until no part is left and
    /// no thread is busy (so none can give any away).
    fn serve(&self, solver: &mut CompactSolver) {
        loop {
            let part = {
                let mut queue = lock(&self.queue);
                let part = loop {
                    match queue.pop_first() {
                        Some((place, prefix)) if !self.moot(&place) => break Some((place, prefix)),
                        Some(_) => continue,
                        None => break None,
                    }
                };
                if part.is_some() {
                    self.busy.fetch_add(1, Ordering::SeqCst);
                } else if self.busy.load(Ordering::SeqCst) == 0 {
                    return;
                }
                part
            };
            match part {
                Some((place, prefix)) => {
                    self.work(solver, &place, Start::Fresh(&prefix));
                    self.busy.fetch_sub(1, Ordering::SeqCst);
                }
                None => {
                    self.hungry.fetch_add(1, Ordering::SeqCst);
                    // Run another task of the pool meanwhile if there is
                    // one (the next puzzle, say), else give up the core.
                    if !matches!(rayon::yield_now(), Some(rayon::Yield::Executed)) {
                        std::thread::yield_now();
                    }
                    self.hungry.fetch_sub(1, Ordering::SeqCst);
                }
            }
        }
    }
}

/// Where a part's search starts.
enum Start<'p> {
    /// From scratch, with these given options.
    Fresh(&'p [usize]),
    /// Where the solver's search stopped, after this many nodes.
    Resume(u64),
}

impl<'c> Board<'c> {
    fn new(goal: Goal, config: &'c ShareConfig) -> Board<'c> {
        Board {
            goal,
            config,
            queue: Mutex::default(),
            busy: AtomicUsize::new(0),
            hungry: AtomicUsize::new(0),
            best: Mutex::default(),
            total: AtomicU64::new(0),
            stop: Arc::default(),
            timed_out: AtomicBool::new(false),
            stats: Mutex::default(),
        }
    }

    /// Goes on with the search `solver` began (`stopped` is its report),
    /// with all of rayon's threads if its node budget stopped it.
    fn go_on(&self, solver: &mut CompactSolver, stopped: &Report) {
        let root = Place::new();
        if stopped.outcome != Outcome::NodeBudget || self.moot(&root) {
            self.ended(stopped);
            *lock(&self.stats) += stopped.stats;
            return;
        }
        let threads = rayon::current_num_threads();
        let mut clones: Vec<CompactSolver> = (1..threads).map(|_| solver.clone()).collect();
        // Busy before any helper starts, or a helper could find nothing to
        // do and no one busy, and leave.
        self.busy.fetch_add(1, Ordering::SeqCst);
        rayon::scope(|scope| {
            for clone in &mut clones {
                scope.spawn(move |_| self.serve(clone));
            }
            self.work(solver, &root, Start::Resume(stopped.stats.nodes));
            self.busy.fetch_sub(1, Ordering::SeqCst);
            self.serve(solver);
        });
    }

    /// Whether the caller raised the cancel flag.
    fn cancelled(&self) -> bool {
        self.config
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst))
    }

    /// The first solution and the report of a finished [`Goal::First`].
    /// A cancelled search, or one that met its deadline, gives no
    /// solution: one found by a later part need not be the serial first
    /// while earlier parts were cut short.
    fn first(self) -> (Option<Vec<usize>>, Report) {
        let cancelled = self.cancelled();
        let timed_out = self.timed_out.load(Ordering::SeqCst);
        let mut stats = self.stats.into_inner().unwrap_or_else(|e| e.into_inner());
        let first = self
            .best
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .map(|(_, solution)| solution)
            .filter(|_| !cancelled && !timed_out);
        stats.solutions = u64::from(first.is_some());
        let outcome = match first {
            Some(_) => Outcome::SolutionLimit,
            None if cancelled => Outcome::Cancelled,
            None if timed_out => Outcome::TimeLimit,
            None => Outcome::Exhausted,
        };
        (first, Report { outcome, stats })
    }

    /// The report of a finished [`Goal::Count`].
    fn count(self, limit: Option<u64>) -> Report {
        let cancelled = self.cancelled();
        let mut stats = self.stats.into_inner().unwrap_or_else(|e| e.into_inner());
        let total = self.total.into_inner();
        stats.solutions = limit.map_or(total, |l| total.min(l));
        let outcome = if limit.is_some_and(|l| total >= l) {
            Outcome::SolutionLimit
        } else if cancelled {
            Outcome::Cancelled
        } else if self.timed_out.load(Ordering::SeqCst) {
            Outcome::TimeLimit
        } else {
            Outcome::Exhausted
        };
        Report { outcome, stats }
    }
}

/// Searches from `given` alone for [`ShareConfig::solo_nodes`] nodes (to
/// the end with one thread), then goes on with all threads.
fn share<'c>(
    solver: &mut CompactSolver,
    given: &[usize],
    goal: Goal,
    config: &'c ShareConfig,
) -> Result<Board<'c>, UnknownOption> {
    let board = Board::new(goal, config);
    let solo = if rayon::current_num_threads() > 1 {
        config.solo_nodes
    } else {
        u64::MAX
    };
    let root = Place::new();
    // Alone, the search needs no stop flag of the board's (its visitor
    // stops it), only the caller's.
    let limits = Limits {
        cancel: config.cancel.clone(),
        ..board.slice(0, solo)
    };
    let report = solver.search(given, &limits, &mut board.visitor(&root))?;
    board.go_on(solver, &report);
    Ok(board)
}

/// The first solution containing `given` that [`CompactSolver::search`]
/// finds, found with all of rayon's threads: the search runs alone for
/// [`ShareConfig::solo_nodes`] nodes; if it is not done by then, idle
/// threads take the untried options of its shallowest open branch point
/// ([`CompactSolver::donate`]), and so on, as long as threads are idle.
/// Parts are taken in the search's order, and the answer is the solution
/// of the earliest part that has one (a part found to come after a found
/// solution is dropped; the parts before it run to the end). So the answer
/// is the serial search's, whatever the threads do. The report's nodes
/// and updates are all the work done, and vary from run to run. `solver`
/// searches first and is cloned for each other thread.
pub fn first_compact_parallel(
    solver: &mut CompactSolver,
    given: &[usize],
    config: &ShareConfig,
) -> Result<(Option<Vec<usize>>, Report), UnknownOption> {
    Ok(share(solver, given, Goal::First, config)?.first())
}

/// Like [`first_compact_parallel`], for a search that `solver` began
/// alone, with a solution limit of 1, and that its node budget stopped
/// (`stopped` is its report; for a search that ended otherwise, this is
/// `(None, stopped)`): it goes on from where it stopped, sharing with all
/// of rayon's threads. So a caller can search alone with its own visitor
/// and buffers, and share only the rare long searches.
pub fn first_compact_resumed(
    solver: &mut CompactSolver,
    stopped: &Report,
    config: &ShareConfig,
) -> (Option<Vec<usize>>, Report) {
    if stopped.outcome != Outcome::NodeBudget {
        return (None, *stopped);
    }
    let board = Board::new(Goal::First, config);
    board.go_on(solver, stopped);
    board.first()
}

/// Counts the solutions containing `given` with the compact engine and
/// all of rayon's threads, shared as in [`first_compact_parallel`],
/// stopping at `limit` when given: the same count as
/// [`CompactSolver::count_with`]. The report's nodes and updates are all
/// the work done; with a limit they vary from run to run.
pub fn count_compact_parallel(
    solver: &mut CompactSolver,
    given: &[usize],
    limit: Option<u64>,
    config: &ShareConfig,
) -> Result<Report, UnknownOption> {
    Ok(share(solver, given, Goal::Count(limit), config)?.count(limit))
}

/// Like [`count_compact_parallel`], for a search that `solver` began alone
/// with the solution limit `limit`, and that its node budget stopped
/// (`stopped` is its report, whose solutions are counted in; a search that
/// ended otherwise is returned as it ended).
pub fn count_compact_resumed(
    solver: &mut CompactSolver,
    stopped: &Report,
    limit: Option<u64>,
    config: &ShareConfig,
) -> Report {
    if stopped.outcome != Outcome::NodeBudget {
        return *stopped;
    }
    let board = Board::new(Goal::Count(limit), config);
    board.total.store(stopped.stats.solutions, Ordering::SeqCst);
    board.go_on(solver, stopped);
    board.count(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 8 queens as exact cover: ranks and files primary, diagonals
    /// secondary.
    fn queens(n: usize) -> Problem {
        let mut b = Problem::builder(2 * n, 2 * (2 * n - 1));
        for r in 0..n {
            for c in 0..n {
                b.add_option([
                    r,
                    n + c,
                    2 * n + r + c,
                    2 * n + (2 * n - 1) + (n - 1 - r + c),
                ])
                .unwrap();
            }
        }
        b.build()
    }

    #[test]
    fn parts_add_up_to_the_serial_search() {
        for n in 1..=8 {
            let problem = queens(n);
            let serial = Solver::new(&problem)
                .count_with(&[], &Limits::none())
                .unwrap();
            for min_prefixes in [1, 4, 50, 10_000] {
                let config = SplitConfig {
                    min_prefixes,
                    ..SplitConfig::default()
                };
                let parallel = count_parallel(&problem, &[], &config).unwrap();
                assert_eq!(parallel, serial, "n = {n}, min_prefixes = {min_prefixes}");
            }
        }
    }

    #[test]
    fn streamed_solutions_are_the_serial_ones() {
        let problem = queens(6);
        let mut serial = Vec::new();
        Solver::new(&problem)
            .search(&[], &Limits::none(), &mut |s: &[usize]| {
                let mut s = s.to_vec();
                s.sort();
                serial.push(s);
                Control::Continue
            })
            .unwrap();
        let found = std::sync::Mutex::new(Vec::new());
        let report = search_parallel(&problem, &[], &SplitConfig::default(), |s: &[usize]| {
            let mut s = s.to_vec();
            s.sort();
            found.lock().unwrap().push(s);
            Control::Continue
        })
        .unwrap();
        let mut found = found.into_inner().unwrap();
        serial.sort();
        found.sort();
        assert_eq!(found, serial);
        assert_eq!(report.stats.solutions, 4);
    }

    #[test]
    fn a_visitor_stop_stops_everything() {
        let problem = queens(8);
        let report = search_parallel(&problem, &[], &SplitConfig::default(), |_: &[usize]| {
            Control::Stop
        })
        .unwrap();
        assert_eq!(report.outcome, Outcome::Stopped);
        assert!(report.stats.solutions >= 1);
    }
}
