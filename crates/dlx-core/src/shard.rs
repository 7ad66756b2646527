//! Shards: one search cut into independent pieces, to be run anywhere (by
//! a batch engine, on many machines) and added up.
//!
//! A [`Shard`] is a prefix of choices (see [`Solver::enumerate_prefixes`]):
//! its subtree, searched by [`Solver::search_below`]. A [`ShardPlan`] cuts
//! the search tree into at least the number of shards asked for, of
//! roughly even size: it starts from the root and keeps expanding the
//! largest piece into its children, sizes estimated by Knuth's random
//! probes ([`Solver::estimate_below`]), rather than cutting at one depth
//! (where a few subtrees hold most of the work). The nodes it expanded
//! are the plan's top ([`ShardPlan::top`]): each counts its own node and
//! the solutions found on it ([`run_top`]). The top and the shards
//! partition the search exactly, so their solutions, nodes and updates add
//! up to the serial search's.
//!
//! A plan belongs to one problem: [`digest`] names it (a SHA-256 of
//! everything that defines the search), so results from another problem
//! can be told apart.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt::Write as _;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use sha2::{Digest as _, Sha256};

use crate::problem::Problem;
use crate::search::{Limits, Report, Solver, Stats, UnknownOption};
use crate::Control;

/// How to cut.
#[derive(Debug, Clone)]
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

/// One piece of the search: the subtree below `prefix`.
#[derive(Debug, Clone, PartialEq)]
pub struct Shard {
    /// What each level above took: an option, or
    /// [`CLOSED`](crate::CLOSED).
    pub prefix: Vec<usize>,
    /// Its estimated search nodes.
    pub estimate: f64,
}

/// A search cut into shards.
#[derive(Debug, Clone)]
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
            hash.update((prefix.len() as u64).to_le_bytes());
            for &option in prefix {
                hash.update((option as u64).to_le_bytes());
            }
        };
        for top in &self.top {
            prefix(&mut hash, b't', top);
        }
        for shard in &self.shards {
            prefix(&mut hash, b's', &shard.prefix);
        }
        hex(&hash.finalize()[..8])
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

/// Cuts the search of `problem` into at least `config.shards` shards (see
/// the module documentation).
pub fn plan(problem: &Problem, config: &ShardConfig) -> Result<ShardPlan, UnknownOption> {
    let mut solver = Solver::new(problem);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut random = |n: u64| rng.random_range(0..n);
    let mut estimate = |solver: &mut Solver, prefix: &[usize]| {
        solver.estimate_below(prefix, 0, config.probes, &mut random)
    };
    let mut pieces = BinaryHeap::new();
    pieces.push(Piece {
        estimate: estimate(&mut solver, &[])?,
        prefix: Vec::new(),
    });
    let mut top = Vec::new();
    let mut top_stats = Stats::default();
    while pieces.len() < config.shards {
        let Some(largest) = pieces.pop() else {
            break;
        };
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
        for prefix in children {
            let estimate = estimate(&mut solver, &prefix)?;
            pieces.push(Piece { estimate, prefix });
        }
    }
    let mut shards: Vec<Shard> = pieces
        .into_iter()
        .map(|piece| Shard {
            prefix: piece.prefix,
            estimate: piece.estimate,
        })
        .collect();
    shards.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    Ok(ShardPlan {
        shards,
        top,
        top_stats,
    })
}

/// Counts the solutions of one shard's subtree: its report's counters are
/// the serial search's below the prefix.
pub fn run_shard(
    solver: &mut Solver,
    prefix: &[usize],
    limits: &Limits,
) -> Result<Report, UnknownOption> {
    solver.search_below(prefix, 0, limits, &mut |_: &[usize]| Control::Continue)
}

/// Counts what the plan's top holds: each expanded prefix's own node, its
/// covers, and the solutions found on it.
pub fn run_top(solver: &mut Solver, top: &[Vec<usize>]) -> Result<Stats, UnknownOption> {
    let mut stats = Stats::default();
    for prefix in top {
        stats += solver.enumerate_below(prefix, 0, 1, |_| {}, |_| {})?.stats;
    }
    Ok(stats)
}

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
    use crate::Search;

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

    #[test]
    fn shards_and_top_add_up_to_the_serial_search() {
        let problem = queens(8);
        let serial = Solver::new(&problem)
            .count_with(&[], &Limits::none())
            .unwrap()
            .stats;
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
                total += run_shard(&mut solver, &shard.prefix, &Limits::none())
                    .unwrap()
                    .stats;
            }
            assert_eq!(total, serial, "{shards} shards");
            assert!(solver.links_equal(&Solver::new(&problem)));
        }
    }

    #[test]
    fn plans_are_the_same_for_the_same_seed() {
        let problem = queens(7);
        let config = ShardConfig {
            shards: 30,
            ..ShardConfig::default()
        };
        let a = plan(&problem, &config).unwrap();
        let b = plan(&problem, &config).unwrap();
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
    fn digests_name_the_problem() {
        let a = digest(&queens(5));
        assert_eq!(a.len(), 64);
        assert_eq!(a, digest(&queens(5)));
        assert_ne!(a, digest(&queens(6)));
    }
}
