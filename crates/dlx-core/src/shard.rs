//! Shards: one search cut into independent pieces, to be run anywhere (by
//! a batch engine, on many machines) and added up.
//!
//! A piece of the search is a prefix of choices (see
//! [`Solver::enumerate_prefixes`]): its subtree, searched by
//! [`Solver::search_below`]. A [`ShardPlan`] cuts the search tree into
//! at least the number of shards asked for, of roughly even size, rather
//! than cutting at one depth (where a few subtrees hold most of the
//! work): it starts from the root and keeps cutting the largest piece into
//! its children, sizes estimated by Knuth's random probes
//! ([`Solver::estimate_below`]), until there are enough pieces and none is
//! larger than a shard's share; then it packs neighbouring pieces into
//! [`Shard`]s of about that share each. The nodes it cut are the plan's
//! top ([`ShardPlan::top`]): each counts its own node and the solutions
//! found on it ([`run_top`]). The top and the shards partition the search
//! exactly, so their solutions, nodes and updates add up to the serial
//! search's.
//!
//! A plan belongs to one problem: [`digest`] names it (a SHA-256 of
//! everything that defines the search), so results from another problem
//! can be told apart. [`shard_check`] and [`result_check`] hash the fields
//! of a shard line and of a result line, so that one altered on its way
//! is refused.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt::Write as _;
use std::sync::{Mutex, PoisonError};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use sha2::{Digest as _, Sha256};

use crate::engine::{Control, Limits, Outcome, Report, Stats, UnknownOption};
use crate::problem::Problem;
use crate::search::Solver;

/// How to cut: the default, changed by the `with_` methods.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ShardConfig {
    /// At least this many shards (fewer only when the whole tree has fewer
    /// nodes to cut at).
    pub shards: usize,
    /// Random probes per size estimate.
    pub probes: usize,
    /// The seed of the probes: the same seed gives the same plan.
    pub seed: u64,
}

impl Default for ShardConfig {
    fn default() -> Self {
        ShardConfig {
            shards: 1000,
            probes: 16,
            seed: 1,
        }
    }
}

impl ShardConfig {
    /// This cut, into at least `shards` shards.
    pub fn with_shards(mut self, shards: usize) -> ShardConfig {
        self.shards = shards;
        self
    }

    /// This cut, estimating each size by `probes` random probes.
    pub fn with_probes(mut self, probes: usize) -> ShardConfig {
        self.probes = probes;
        self
    }

    /// This cut, with the probes seeded by `seed`.
    pub fn with_seed(mut self, seed: u64) -> ShardConfig {
        self.seed = seed;
        self
    }
}

/// One piece of the search: the subtrees below its prefixes, neighbours
/// in the search's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Shard {
    /// For each subtree, what each level above it took: an option, or
    /// [`CLOSED`](crate::CLOSED).
    pub prefixes: Vec<Vec<usize>>,
    /// Their estimated search nodes.
    pub estimate: f64,
}

/// A search cut into shards.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ShardPlan {
    /// The shards, in the search's order.
    pub shards: Vec<Shard>,
    /// The prefixes expanded to make them (the root first): each counts
    /// its own node, its covers and the solutions found on it.
    pub top: Vec<Vec<usize>>,
    /// What the top counted when the plan was made (what [`run_top`]
    /// gives again).
    pub top_stats: Stats,
}

impl ShardPlan {
    /// A name for this plan of the problem named `digest` (see [`digest`]):
    /// 16 hexadecimal digits of a SHA-256 of the digest, the top and every
    /// shard's prefix. Two plans of one problem (another number of shards,
    /// another seed) have different names, so that their shards are
    /// never mixed.
    pub fn id(&self, digest: &str) -> String {
        let mut hash = Sha256::new();
        hash.update(b"cover plan 1\0");
        hash.update(digest.as_bytes());
        let prefix = |hash: &mut Sha256, tag: u8, prefix: &[usize]| {
            hash.update([tag]);
            hash_prefix(hash, prefix);
        };
        for top in &self.top {
            prefix(&mut hash, b't', top);
        }
        for shard in &self.shards {
            hash.update([b's']);
            for piece in &shard.prefixes {
                prefix(&mut hash, b'p', piece);
            }
        }
        hex(&hash.finalize()[..8])
    }
}

/// A check of one shard line: 16 hexadecimal digits of a SHA-256 of the
/// plan's name, the shard's number, whether it holds part of the top, and
/// its prefixes, so that a line altered on its way (a digit of a prefix
/// changed) is refused rather than searched into a wrong count.
pub fn shard_check(plan: &str, shard: u64, top: bool, prefixes: &[Vec<usize>]) -> String {
    let mut hash = Sha256::new();
    hash.update(b"cover shard 1\0");
    hash.update((plan.len() as u64).to_le_bytes());
    hash.update(plan.as_bytes());
    hash.update(shard.to_le_bytes());
    hash.update([u8::from(top)]);
    hash.update((prefixes.len() as u64).to_le_bytes());
    for prefix in prefixes {
        hash_prefix(&mut hash, prefix);
    }
    hex(&hash.finalize()[..8])
}

/// A check of one shard's result: 16 hexadecimal digits of a SHA-256 of
/// the problem's digest, the plan's name, the shard's number and the
/// split's number of lines, the counters the shard's search gave
/// (solutions, nodes, updates, cleansings) and the microseconds it took,
/// so that a result altered on its way (a count edited by hand, a number
/// changed) is refused rather than added into a wrong total. Like
/// [`shard_check`], it tells accidents and edits from the lines `run`
/// wrote, not forgeries: anyone can compute it.
pub fn result_check(
    digest: &str,
    plan: &str,
    shard: u64,
    of: u64,
    stats: &Stats,
    micros: u64,
) -> String {
    let mut hash = Sha256::new();
    hash.update(b"cover result 1\0");
    for text in [digest, plan] {
        hash.update((text.len() as u64).to_le_bytes());
        hash.update(text.as_bytes());
    }
    for number in [
        shard,
        of,
        stats.solutions,
        stats.nodes,
        stats.updates,
        stats.cleansings,
        micros,
    ] {
        hash.update(number.to_le_bytes());
    }
    hex(&hash.finalize()[..8])
}

/// Hashes `prefix`: its length, then its options.
fn hash_prefix(hash: &mut Sha256, prefix: &[usize]) {
    hash.update((prefix.len() as u64).to_le_bytes());
    for &option in prefix {
        hash.update(option_word(option).to_le_bytes());
    }
}

/// `bytes` in lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    let mut hex = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// A piece waiting to be cut, by estimated size.
#[derive(Debug, Clone)]
struct Piece {
    estimate: f64,
    prefix: Vec<usize>,
}

impl PartialEq for Piece {
    fn eq(&self, other: &Piece) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Piece {}

impl PartialOrd for Piece {
    fn partial_cmp(&self, other: &Piece) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Piece {
    /// The largest estimate first; ties to the earlier prefix, so that the
    /// plan is the same on every machine.
    fn cmp(&self, other: &Piece) -> Ordering {
        self.estimate
            .total_cmp(&other.estimate)
            .then_with(|| other.prefix.cmp(&self.prefix))
    }
}

/// How many pieces per shard asked for the plan may cut the tree into, at
/// most, while it makes the largest piece no larger than a shard's share:
/// the cost of the probes bounds it.
const PIECES_PER_SHARD: usize = 4;

/// Cuts the search of `problem` into at least `config.shards` shards (see
/// the module documentation).
pub fn plan(problem: &Problem, config: &ShardConfig) -> Result<ShardPlan, UnknownOption> {
    let wanted = config.shards.max(1);
    let mut solver = Solver::new(problem);
    // Solvers for estimating on rayon's threads, made as they are needed.
    let spare_solvers = Mutex::new(Vec::new());
    let estimate_all = |prefixes: Vec<Vec<usize>>| -> Result<Vec<Piece>, UnknownOption> {
        prefixes
            .into_par_iter()
            .map(|prefix| {
                let spare = spare_solvers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop();
                let mut solver = spare.unwrap_or_else(|| Solver::new(problem));
                let estimate = estimate_piece(&mut solver, &prefix, config);
                spare_solvers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(solver);
                Ok(Piece {
                    estimate: estimate?,
                    prefix,
                })
            })
            .collect()
    };
    let mut pieces = BinaryHeap::new();
    let root = estimate_piece(&mut solver, &[], config)?;
    let mut total = root;
    pieces.push(Piece {
        estimate: root,
        prefix: Vec::new(),
    });
    let mut top = Vec::new();
    let mut top_stats = Stats::default();
    // Cut the largest piece until there are enough pieces and none is
    // larger than a shard's share (or the cuts are too many).
    while let Some(largest) = pieces.peek() {
        let share = total / wanted as f64;
        let enough = pieces.len() >= wanted && largest.estimate <= share;
        // A piece estimated at one node has no children (its probes stop
        // at once): when the largest is one, the tree is cut to its leaves.
        let leaves = largest.estimate <= 1.0;
        if enough || leaves || pieces.len() >= wanted * PIECES_PER_SHARD {
            break;
        }
        let largest = pieces.pop().expect("peeked");
        total -= largest.estimate;
        let mut children = Vec::new();
        let report = solver.enumerate_below(
            &largest.prefix,
            0,
            1,
            |child| children.push(child.to_vec()),
            |_| {},
        )?;
        top_stats += report.stats;
        top.push(largest.prefix);
        for piece in estimate_all(children)? {
            total += piece.estimate;
            pieces.push(piece);
        }
    }
    let mut pieces: Vec<Piece> = pieces.into_vec();
    // Lexicographic order of prefixes is the search's order (options in
    // input order, a closed item last).
    pieces.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    Ok(ShardPlan {
        shards: pack(pieces, wanted),
        top,
        top_stats,
    })
}

/// The estimated size of the piece below `prefix`. Its probes are drawn
/// from a seed of its own (the plan's seed and the prefix), so that the
/// estimate, and so the plan, is the same whatever thread makes it and in
/// whatever order.
fn estimate_piece(
    solver: &mut Solver,
    prefix: &[usize],
    config: &ShardConfig,
) -> Result<f64, UnknownOption> {
    let mut hash = Sha256::new();
    hash.update(config.seed.to_le_bytes());
    for &option in prefix {
        hash.update(option_word(option).to_le_bytes());
    }
    let seed: [u8; 32] = hash.finalize().into();
    let mut rng = ChaCha8Rng::from_seed(seed);
    solver.estimate_below(prefix, 0, config.probes, &mut |n| rng.random_range(0..n))
}

/// The most subtrees one shard holds, and the most options in all their
/// prefixes: however tiny the pieces, a shard stays a line of a few
/// hundred kilobytes at most.
const MAX_PREFIXES_PER_SHARD: usize = 1000;
const MAX_OPTIONS_PER_SHARD: usize = 100_000;

/// Packs `pieces` (in search order) into at least `wanted` shards (when
/// there are that many pieces), neighbours together, none larger than an
/// even share of the estimates unless one piece alone is.
fn pack(pieces: Vec<Piece>, wanted: usize) -> Vec<Shard> {
    let total: f64 = pieces.iter().map(|p| p.estimate).sum();
    let mut share = total / wanted as f64;
    loop {
        let mut shards: Vec<Shard> = Vec::new();
        let mut open = Shard {
            prefixes: Vec::new(),
            estimate: 0.0,
        };
        let mut options = 0;
        for piece in &pieces {
            let full = open.prefixes.len() >= MAX_PREFIXES_PER_SHARD
                || options + piece.prefix.len() > MAX_OPTIONS_PER_SHARD;
            if !open.prefixes.is_empty() && (open.estimate + piece.estimate > share || full) {
                options = 0;
                shards.push(std::mem::replace(
                    &mut open,
                    Shard {
                        prefixes: Vec::new(),
                        estimate: 0.0,
                    },
                ));
            }
            options += piece.prefix.len();
            open.prefixes.push(piece.prefix.clone());
            open.estimate += piece.estimate;
        }
        if !open.prefixes.is_empty() {
            shards.push(open);
        }
        // Pieces larger than the share make fewer shards: share less, down
        // to one piece a shard.
        if shards.len() >= wanted || shards.len() == pieces.len() {
            return shards;
        }
        share *= 0.9;
        if share < f64::MIN_POSITIVE {
            // Pieces estimated at nothing (not from `plan`): one a shard.
            return pieces
                .iter()
                .map(|piece| Shard {
                    prefixes: vec![piece.prefix.clone()],
                    estimate: piece.estimate,
                })
                .collect();
        }
    }
}

/// Why a shard cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// A prefix names an option the problem does not have.
    #[error(transparent)]
    UnknownOption(#[from] UnknownOption),
    /// A prefix that leads to no node of the search: its options conflict,
    /// or (with bounds) the levels do not replay. Every prefix of a plan
    /// leads to a node, so the shard is not of this problem's plan.
    #[error("prefix {index} (from 0) is not a node of this problem's search")]
    NotANode {
        /// Which prefix of the shard.
        index: usize,
    },
}

/// What one prefix counted, or why it leads nowhere: a prefix of a plan
/// always counts its own node.
fn counted(stats: Stats, index: usize) -> Result<Stats, ShardError> {
    if stats.nodes == 0 {
        Err(ShardError::NotANode { index })
    } else {
        Ok(stats)
    }
}

/// Counts the solutions of one shard: its counters are the serial
/// search's below its prefixes.
pub fn run_shard(solver: &mut Solver, shard: &[Vec<usize>]) -> Result<Stats, ShardError> {
    run_shard_within(solver, shard, &Limits::none()).map(|report| report.stats)
}

/// [`run_shard`] within `limits`, whose node budget and deadline bound the
/// whole shard: an outcome other than [`Outcome::Exhausted`] says they
/// stopped it, and its counters are then only those of the search made.
pub fn run_shard_within(
    solver: &mut Solver,
    shard: &[Vec<usize>],
    limits: &Limits,
) -> Result<Report, ShardError> {
    let mut stats = Stats::default();
    for (index, prefix) in shard.iter().enumerate() {
        let left = Limits {
            node_budget: limits
                .node_budget
                .map(|budget| budget.saturating_sub(stats.nodes)),
            ..limits.clone()
        };
        let report = solver.search_below(prefix, 0, &left, &mut |_: &[usize]| Control::Continue)?;
        if report.outcome != Outcome::Exhausted {
            stats += report.stats;
            return Ok(Report {
                outcome: report.outcome,
                stats,
            });
        }
        stats += counted(report.stats, index)?;
    }
    Ok(Report {
        outcome: Outcome::Exhausted,
        stats,
    })
}

/// Counts what the plan's top holds: each expanded prefix's own node, its
/// covers, and the solutions found on it.
pub fn run_top(solver: &mut Solver, top: &[Vec<usize>]) -> Result<Stats, ShardError> {
    let mut stats = Stats::default();
    for (index, prefix) in top.iter().enumerate() {
        let report = solver.enumerate_below(prefix, 0, 1, |_| {}, |_| {})?;
        stats += counted(report.stats, index)?;
    }
    Ok(stats)
}

/// An option of a prefix as hashed: [`CLOSED`](crate::CLOSED) as
/// `u64::MAX` on every machine, whatever the width of `usize`.
fn option_word(option: usize) -> u64 {
    if option == crate::CLOSED {
        u64::MAX
    } else {
        option as u64
    }
}

/// What the digest names besides the problem: the search a plan cuts.
/// Change it when the branching rule or the order of options changes, so
/// that shards of one version are refused by another.
const SEARCH_VERSION: &[u8] =
    b"branch on the first primary item with fewest ways, options in input order; v1";

/// A name for `problem`: the SHA-256, in hexadecimal, of everything that
/// defines its search and its answers (items, names, bounds, options and
/// their colours), in a fixed layout, so that it is the same on every
/// machine and for every equal problem.
pub fn digest(problem: &Problem) -> String {
    let mut hash = Sha256::new();
    let number = |hash: &mut Sha256, n: u64| hash.update(n.to_le_bytes());
    let text = |hash: &mut Sha256, t: &str| {
        hash.update((t.len() as u64).to_le_bytes());
        hash.update(t.as_bytes());
    };
    hash.update(b"cover problem 1\0");
    hash.update((SEARCH_VERSION.len() as u64).to_le_bytes());
    hash.update(SEARCH_VERSION);
    number(&mut hash, problem.primary_count() as u64);
    number(&mut hash, problem.secondary_count() as u64);
    for item in 0..problem.item_count() {
        text(&mut hash, problem.item_name(item).unwrap_or(""));
        let bounds = problem
            .bounds(item)
            .unwrap_or(crate::Bounds { lower: 0, upper: 1 });
        number(&mut hash, u64::from(bounds.lower));
        number(&mut hash, u64::from(bounds.upper));
    }
    for colour in 0..problem.colour_count() {
        let colour = crate::problem::colour_numbered(colour as u32 + 1);
        text(&mut hash, problem.colour_name(colour).unwrap_or(""));
    }
    number(&mut hash, problem.option_count() as u64);
    for option in 0..problem.option_count() {
        let items = problem.option(option);
        number(&mut hash, items.len() as u64);
        for (&item, colour) in items.iter().zip(problem.option_colours(option)) {
            number(&mut hash, u64::from(item));
            number(&mut hash, colour.map_or(0, |c| u64::from(c.number())));
        }
    }
    hex(&hash.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counters of the whole search, run serially.
    fn serial_stats(problem: &Problem) -> Stats {
        Solver::new(problem)
            .count_with(&[], &Limits::none())
            .unwrap()
            .stats
    }

    fn queens(n: usize) -> Problem {
        let mut b = Problem::builder(2 * n, 4 * n - 2);
        for r in 0..n {
            for c in 0..n {
                b.add_option([r, n + c, 2 * n + r + c, 4 * n - 1 + (n - 1 - r + c)])
                    .unwrap();
            }
        }
        b.build()
    }

    /// Every field of a result changes its check; the same fields give the
    /// same check.
    #[test]
    fn a_result_check_covers_every_field() {
        let stats = Stats {
            solutions: 92,
            nodes: 1000,
            updates: 5000,
            cleansings: 3,
            ..Stats::default()
        };
        let check = |digest, plan, shard, of, stats: &Stats, micros| {
            result_check(digest, plan, shard, of, stats, micros)
        };
        let base = check("d", "p", 1, 20, &stats, 7);
        assert_eq!(base.len(), 16);
        assert_eq!(base, check("d", "p", 1, 20, &stats, 7));
        let mut changed = vec![
            check("e", "p", 1, 20, &stats, 7),
            check("d", "q", 1, 20, &stats, 7),
            // The two texts are told apart, not run together.
            check("dp", "", 1, 20, &stats, 7),
            check("d", "p", 2, 20, &stats, 7),
            check("d", "p", 1, 21, &stats, 7),
            check("d", "p", 1, 20, &stats, 8),
        ];
        for field in 0..4 {
            let mut other = stats;
            match field {
                0 => other.solutions += 1,
                1 => other.nodes += 1,
                2 => other.updates += 1,
                _ => other.cleansings += 1,
            }
            changed.push(check("d", "p", 1, 20, &other, 7));
        }
        assert!(changed.iter().all(|c| *c != base), "{changed:?}");
    }

    #[test]
    fn shards_and_top_add_up_to_the_serial_search() {
        let problem = queens(8);
        let serial = serial_stats(&problem);
        for shards in [1, 5, 40, 300] {
            let config = ShardConfig {
                shards,
                ..ShardConfig::default()
            };
            let plan = plan(&problem, &config).unwrap();
            assert!(plan.shards.len() >= shards.min(40), "{shards}");
            let mut solver = Solver::new(&problem);
            let mut total = run_top(&mut solver, &plan.top).unwrap();
            assert_eq!(total, plan.top_stats);
            for shard in &plan.shards {
                total += run_shard(&mut solver, &shard.prefixes).unwrap();
            }
            assert_eq!(total, serial, "{shards} shards");
            assert!(solver.links_equal(&Solver::new(&problem)));
        }
    }

    #[test]
    fn a_tree_smaller_than_the_shards_asked_for_is_cut_to_its_leaves() {
        let problem = queens(6);
        let serial = serial_stats(&problem);
        let config = ShardConfig {
            shards: 100_000,
            ..ShardConfig::default()
        };
        let plan = plan(&problem, &config).unwrap();
        // Every leaf a shard: never fewer shards than the tree has leaves.
        assert!(!plan.shards.is_empty());
        assert!(plan.shards.iter().all(|s| s.prefixes.len() == 1));
        let mut solver = Solver::new(&problem);
        let mut total = run_top(&mut solver, &plan.top).unwrap();
        for shard in &plan.shards {
            total += run_shard(&mut solver, &shard.prefixes).unwrap();
        }
        assert_eq!(total, serial);
        // The search counts a node per level entered and one per solution.
        let tree = plan.top.len() + plan.shards.len();
        assert_eq!(tree as u64 + serial.solutions, serial.nodes);
    }

    #[test]
    fn plans_are_the_same_for_the_same_seed_on_any_threads() {
        let problem = queens(7);
        let config = ShardConfig {
            shards: 30,
            ..ShardConfig::default()
        };
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| plan(&problem, &config).unwrap())
        };
        // Whatever the threads that estimate.
        let (a, b) = (on(1), on(3));
        assert_eq!(a.shards, b.shards);
        assert_eq!(a.top, b.top);
        let name = digest(&problem);
        assert_eq!(a.id(&name), b.id(&name));
        assert_eq!(a.id(&name).len(), 16);
        let other = plan(
            &problem,
            &ShardConfig {
                seed: 2,
                ..config.clone()
            },
        )
        .unwrap();
        assert_ne!(other.shards, a.shards, "another seed, another plan");
        assert_ne!(other.id(&name), a.id(&name));
    }

    #[test]
    fn estimates_are_exact_on_a_chain() {
        // Four items, each with one option: a path of five nodes.
        let mut b = Problem::builder(4, 0);
        for item in 0..4 {
            b.add_option([item]).unwrap();
        }
        let problem = b.build();
        let mut solver = Solver::new(&problem);
        let estimate = solver.estimate_below(&[], 0, 4, &mut |n| n - 1).unwrap();
        let nodes = Solver::new(&problem)
            .count_with(&[], &Limits::none())
            .unwrap()
            .stats
            .nodes;
        assert_eq!(estimate, nodes as f64);
    }

    #[test]
    fn a_prefix_that_is_no_node_is_refused() {
        let problem = queens(6);
        let mut solver = Solver::new(&problem);
        // Two queens on one rank: they conflict.
        let conflict = vec![vec![0, 1]];
        assert_eq!(
            run_shard(&mut solver, &conflict),
            Err(ShardError::NotANode { index: 0 })
        );
        assert_eq!(
            run_top(&mut solver, &[vec![], vec![0, 1]]),
            Err(ShardError::NotANode { index: 1 })
        );
        assert!(solver.links_equal(&Solver::new(&problem)));
    }

    #[test]
    fn packing_keeps_order_and_shares() {
        let pieces: Vec<Piece> = [10.0, 1.0, 1.0, 1.0, 1.0, 10.0, 1.0, 3.0]
            .iter()
            .enumerate()
            .map(|(k, &estimate)| Piece {
                estimate,
                prefix: vec![k],
            })
            .collect();
        for wanted in 1..=8 {
            let shards = pack(pieces.clone(), wanted);
            assert!(shards.len() >= wanted, "{wanted}: {shards:?}");
            // Every piece once, in order.
            let order: Vec<usize> = shards
                .iter()
                .flat_map(|s| s.prefixes.iter().map(|p| p[0]))
                .collect();
            assert_eq!(order, (0..8).collect::<Vec<_>>());
            // No shard above the share but a piece alone.
            let share = 28.0 / wanted as f64;
            for shard in &shards {
                assert!(
                    shard.estimate <= share || shard.prefixes.len() == 1,
                    "{wanted}: {shard:?}"
                );
            }
        }
        assert_eq!(
            pack(pieces.clone(), 100).len(),
            8,
            "one piece a shard at most"
        );
    }

    #[test]
    fn digests_name_the_problem() {
        let a = digest(&queens(5));
        assert_eq!(a.len(), 64);
        assert_eq!(a, digest(&queens(5)));
        assert_ne!(a, digest(&queens(6)));
    }
}
