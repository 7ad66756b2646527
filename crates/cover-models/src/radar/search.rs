//! The search over candidate radii: the smallest R² with which K stations
//! cover every city. It knows neither the input format nor the engine
//! (the probes ask [`decide`]), and never starts threads.
//!
//! ## Why the answer is exact
//! A city is covered when its squared distance to an operated station is
//! at most R². Coverage changes only at the squared distances of
//! city–station pairs, so the smallest R is the square root of one of
//! them, and whether K stations suffice is monotone in R. [`solve`]
//! therefore searches over those integers (no floating point), asking a
//! repeat-cover question per candidate ("do at most K stations cover every
//! city?", [`dlx_core::RepeatSolver::at_most`]): a *probe*.
//!
//! ## The search over candidates
//! - Lower end: every city needs its nearest station, so R² is at least
//!   the largest of the cities' nearest squared distances; when K stations
//!   reach all those nearest stations, that is the answer. (One pass over
//!   the city–station pairs: nothing in a case's preparation is more than
//!   O(N·M), besides sorting at most 2²² candidates.)
//! - Upper end: farthest-first (pick the station that best serves all
//!   cities, then repeatedly the station nearest to the worst-served city)
//!   gives K stations and their radius.
//! - Rounds: the distinct candidates strictly between the ends are split
//!   evenly by `width` probes. The caller runs a round's [`Probe`]s, in
//!   parallel if it likes; a probe that finishes cancels the others it
//!   makes useless (a covered probe those above it, an uncovered one those
//!   below). A cover found at a probe also lowers the upper end to the
//!   radius that cover really needs, which is often below the probe.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use dlx_core::{Limits, Stats};
use thiserror::Error;

use super::model::{decide, squared_radius_of, Verdict};
use super::parse::RadarCase;

/// Above this many city–station pairs between the ends of the search, the
/// candidates of a round are a sample of them rather than all of them (so
/// memory stays bounded however large the case).
const MAX_LISTED_CANDIDATES: u64 = 1 << 22;

/// Why a case has no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NoAnswer {
    /// Cities but no station: no radius covers them.
    #[error("{0} cities and no station: no radius covers them")]
    NoStations(usize),
    /// Every probe of a round was cancelled from outside (see
    /// [`Probe::cancel`]), so the search stopped unfinished.
    #[error("the search was stopped before the answer was proven")]
    Stopped,
    /// The probes spent the node budget, or met the deadline, before the
    /// answer was decided.
    #[error("the probes reached the node budget of {budget} or the deadline before the answer was decided")]
    GaveUp {
        /// The budget of each probe, in search nodes.
        budget: u64,
        /// The search counters of the probes made.
        stats: Stats,
    },
}

/// The answer to one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RadarAnswer {
    /// R², the smallest squared radius with which at most K stations cover
    /// every city.
    pub squared_radius: u64,
    /// Stations (0-based, ascending) that cover every city within R: at
    /// most K of them.
    pub stations: Vec<usize>,
    /// The candidate radii probed (repeat-cover questions asked), the
    /// cancelled ones included.
    pub probes: u64,
    /// The probes cancelled because another probe of their round made them
    /// useless.
    pub cancelled: u64,
    /// The rounds of probes.
    pub rounds: u64,
    /// The search counters of all probes together.
    pub stats: Stats,
}

/// A probe's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeResult {
    /// The squared radius probed.
    pub squared_radius: u64,
    /// What it found.
    pub verdict: Verdict,
    /// Its search counters.
    pub stats: Stats,
}

/// One candidate squared radius to decide; [`Probe::run`] decides it. The
/// probes of a round may run on any threads, in any order.
pub struct Probe<'a> {
    case: &'a RadarCase,
    /// The squared radius probed.
    pub squared_radius: u64,
    /// This probe's place in the round (the round is in ascending order).
    index: usize,
    /// Every probe's cancel flag, in round order.
    flags: &'a [Arc<AtomicBool>],
    /// The most search nodes the probe may take.
    node_budget: Option<u64>,
    /// When the probe gives up, whatever its nodes.
    deadline: Option<Instant>,
}

impl Probe<'_> {
    /// Asks this probe to stop (or not to start). A caller that wants to
    /// give up on a case cancels every probe of the round; [`solve`] then
    /// ends with [`NoAnswer::Stopped`].
    pub fn cancel(&self) {
        self.flags[self.index].store(true, Ordering::Relaxed);
    }

    /// Decides whether at most K stations cover every city within the
    /// probe's squared radius; on finishing, cancels the probes of the
    /// round that the answer makes useless.
    pub fn run(&self) -> ProbeResult {
        let cancel = Arc::clone(&self.flags[self.index]);
        if cancel.load(Ordering::Relaxed) {
            return ProbeResult {
                squared_radius: self.squared_radius,
                verdict: Verdict::Cancelled,
                stats: Stats::default(),
            };
        }
        let limits = Limits::none()
            .with_cancel(Some(cancel))
            .with_node_budget(self.node_budget)
            .with_deadline(self.deadline);
        let (verdict, stats) = decide(self.case, self.squared_radius, &limits);
        match verdict {
            // Covered here: every probe above is covered too.
            Verdict::Covered(_) => {
                for flag in &self.flags[self.index + 1..] {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            // Not covered here: every probe below is not covered either.
            Verdict::NotCovered => {
                for flag in &self.flags[..self.index] {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            Verdict::Cancelled | Verdict::GaveUp => {}
        }
        ProbeResult {
            squared_radius: self.squared_radius,
            verdict,
            stats,
        }
    }
}

/// Solves `case`. Each round's probes (at most `width` of them, at least
/// one) are handed to `run_round`, which must return their results in the
/// same order; it may run them in parallel.
pub fn solve<F>(case: &RadarCase, width: usize, run_round: F) -> Result<RadarAnswer, NoAnswer>
where
    F: FnMut(&[Probe<'_>]) -> Vec<ProbeResult>,
{
    solve_within(case, width, None, None, run_round)
}

/// [`solve`], giving up once the probes have taken `node_budget` search
/// nodes in all: each probe of a round may take what the rounds before
/// left, and one that spends it undecided ends the search with
/// [`NoAnswer::GaveUp`], unless the other probes of its round made it
/// useless. (So a case takes at most `width` times the budget; which
/// candidates are probed depends on `width`, so whether a case gives up
/// may too.) Past `deadline` every probe gives up, and so does the case.
pub fn solve_within<F>(
    case: &RadarCase,
    width: usize,
    node_budget: Option<u64>,
    deadline: Option<Instant>,
    mut run_round: F,
) -> Result<RadarAnswer, NoAnswer>
where
    F: FnMut(&[Probe<'_>]) -> Vec<ProbeResult>,
{
    let mut answer = RadarAnswer {
        squared_radius: 0,
        stations: Vec::new(),
        probes: 0,
        cancelled: 0,
        rounds: 0,
        stats: Stats::default(),
    };
    if case.cities.is_empty() {
        return Ok(answer);
    }
    if case.stations.is_empty() {
        return Err(NoAnswer::NoStations(case.cities.len()));
    }
    let k = usize::try_from(case.operators)
        .unwrap_or(usize::MAX)
        .clamp(1, case.stations.len());
    // The lower end: every city's nearest station, found once per city
    // (O(N·M); the radius they need is the largest of those distances).
    let mut low = 0;
    let mut is_nearest = vec![false; case.stations.len()];
    for &city in &case.cities {
        let (squared, s) = (0..case.stations.len())
            .map(|s| (city.squared_distance(case.stations[s]), s))
            .min()
            .expect("there are stations");
        low = low.max(squared);
        is_nearest[s] = true;
    }
    let nearest: Vec<usize> = (0..case.stations.len())
        .filter(|&s| is_nearest[s])
        .collect();
    if nearest.len() <= k {
        answer.squared_radius = low;
        answer.stations = nearest;
        return Ok(answer);
    }
    // The upper end: farthest-first.
    let mut best = farthest_first(case, k);
    let mut high = squared_radius_of(case, &best);
    // Invariant: the answer lies in [low, high], and `best` reaches high.
    let width = width.max(1);
    // The distinct squared distances in [low, high], ascending, once there
    // are few enough of them to list.
    let mut listed: Option<Vec<u64>> = None;
    while low < high {
        if listed.is_none() {
            listed = list_candidates(case, low, high);
        }
        let sampled;
        let candidates: &[u64] = match &listed {
            Some(all) => {
                let from = all.partition_point(|&d| d < low);
                let to = all.partition_point(|&d| d < high);
                &all[from..to]
            }
            None => {
                sampled = sample_candidates(case, low, high);
                &sampled
            }
        };
        if candidates.is_empty() {
            break;
        }
        let left = node_budget.map(|budget| budget.saturating_sub(answer.stats.nodes));
        if left == Some(0) || deadline.is_some_and(|at| Instant::now() >= at) {
            return Err(NoAnswer::GaveUp {
                budget: node_budget.unwrap_or(u64::MAX),
                stats: answer.stats,
            });
        }
        let values = spread(candidates, width);
        let flags: Vec<Arc<AtomicBool>> = values
            .iter()
            .map(|_| Arc::new(AtomicBool::new(false)))
            .collect();
        let probes: Vec<Probe<'_>> = values
            .iter()
            .enumerate()
            .map(|(index, &squared_radius)| Probe {
                case,
                squared_radius,
                index,
                flags: &flags,
                node_budget: left,
                deadline,
            })
            .collect();
        let results = run_round(&probes);
        assert_eq!(results.len(), probes.len(), "one result per probe");
        answer.rounds += 1;
        if results.iter().all(|r| r.verdict == Verdict::Cancelled) {
            // Probes only cancel others when they finish: all cancelled
            // means the caller stopped the round.
            return Err(NoAnswer::Stopped);
        }
        // The probes that spent their budget: they matter only if the
        // answer may still lie at or above them and below `high`.
        let mut undecided = Vec::new();
        for result in results {
            answer.stats += result.stats;
            answer.probes += 1;
            match result.verdict {
                Verdict::Covered(stations) => {
                    let needed = squared_radius_of(case, &stations);
                    debug_assert!(needed <= result.squared_radius);
                    if needed < high {
                        high = needed;
                        best = stations;
                    }
                }
                Verdict::NotCovered => low = low.max(result.squared_radius + 1),
                Verdict::Cancelled => answer.cancelled += 1,
                Verdict::GaveUp => undecided.push(result.squared_radius),
            }
        }
        if undecided.iter().any(|&r| low <= r && r < high) {
            return Err(NoAnswer::GaveUp {
                budget: node_budget.unwrap_or(u64::MAX),
                stats: answer.stats,
            });
        }
    }
    answer.squared_radius = high;
    answer.stations = best;
    Ok(answer)
}

/// Solves `case` probing one candidate at a time, on this thread.
pub fn solve_serial(case: &RadarCase) -> Result<RadarAnswer, NoAnswer> {
    solve(case, 1, |probes| probes.iter().map(Probe::run).collect())
}

/// K stations by farthest-first: the station whose farthest city is
/// nearest, then repeatedly the station nearest to the city worst served
/// so far.
fn farthest_first(case: &RadarCase, k: usize) -> Vec<usize> {
    let first = (0..case.stations.len())
        .min_by_key(|&s| {
            let farthest = case
                .cities
                .iter()
                .map(|&c| c.squared_distance(case.stations[s]))
                .max()
                .unwrap_or(0);
            (farthest, s)
        })
        .expect("there are stations");
    let mut chosen = vec![first];
    let mut served: Vec<u64> = case
        .cities
        .iter()
        .map(|&c| c.squared_distance(case.stations[first]))
        .collect();
    while chosen.len() < k {
        let (worst, _) = served
            .iter()
            .enumerate()
            .max_by_key(|&(c, &d)| (d, std::cmp::Reverse(c)))
            .expect("there are cities");
        let city = case.cities[worst];
        let station = (0..case.stations.len())
            .min_by_key(|&s| (city.squared_distance(case.stations[s]), s))
            .expect("there are stations");
        if chosen.contains(&station) {
            // The worst-served city already has its nearest station: the
            // radius cannot get smaller by adding stations.
            break;
        }
        chosen.push(station);
        for (d, &c) in served.iter_mut().zip(&case.cities) {
            *d = (*d).min(c.squared_distance(case.stations[station]));
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The city–station pairs whose squared distance `d` has `low <= d < high`.
fn pairs_between(case: &RadarCase, low: u64, high: u64) -> impl Iterator<Item = u64> + '_ {
    case.cities.iter().flat_map(move |&c| {
        case.stations
            .iter()
            .map(move |&s| c.squared_distance(s))
            .filter(move |&d| low <= d && d < high)
    })
}

/// The distinct squared distances `d` of city–station pairs with
/// `low <= d < high`, ascending; `None` when there are more than
/// [`MAX_LISTED_CANDIDATES`] such pairs.
fn list_candidates(case: &RadarCase, low: u64, high: u64) -> Option<Vec<u64>> {
    let count = pairs_between(case, low, high).count() as u64;
    if count > MAX_LISTED_CANDIDATES {
        return None;
    }
    let mut values: Vec<u64> = pairs_between(case, low, high).collect();
    values.sort_unstable();
    values.dedup();
    Some(values)
}

/// An evenly spread sample of about [`MAX_LISTED_CANDIDATES`] of the
/// squared distances in `low..high`, ascending and distinct.
fn sample_candidates(case: &RadarCase, low: u64, high: u64) -> Vec<u64> {
    let count = pairs_between(case, low, high).count() as u64;
    let step = count.div_ceil(MAX_LISTED_CANDIDATES).max(1);
    let mut values: Vec<u64> = pairs_between(case, low, high)
        .step_by(step as usize)
        .collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// Up to `width` values of `sorted` that split it into equal parts.
fn spread(sorted: &[u64], width: usize) -> Vec<u64> {
    let n = sorted.len();
    let parts = width.min(n);
    let mut values: Vec<u64> = (1..=parts).map(|j| sorted[j * n / (parts + 1)]).collect();
    values.dedup();
    values
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::radar::parse::{
        format_radius, parse_error, read, InputError, ParseError, ParseErrorKind, Point,
    };

    /// A case of these cities, stations and K, at line 1.
    pub(in crate::radar) fn case(
        cities: &[(i64, i64)],
        stations: &[(i64, i64)],
        k: u64,
    ) -> RadarCase {
        let points = |list: &[(i64, i64)]| list.iter().map(|&(x, y)| Point { x, y }).collect();
        RadarCase {
            cities: points(cities),
            stations: points(stations),
            operators: k,
            line: 1,
        }
    }

    /// The smallest squared radius by trying every set of at most K
    /// stations at every candidate, with nothing shared with the solver
    /// but the input.
    fn brute_force(case: &RadarCase) -> Option<u64> {
        let m = case.stations.len();
        let mut best: Option<u64> = None;
        if case.cities.is_empty() {
            return Some(0);
        }
        for set in 1u32..1 << m {
            if set.count_ones() as u64 > case.operators {
                continue;
            }
            let need = case
                .cities
                .iter()
                .map(|c| {
                    (0..m)
                        .filter(|s| set >> s & 1 == 1)
                        .map(|s| {
                            let (dx, dy) = (c.x - case.stations[s].x, c.y - case.stations[s].y);
                            (dx * dx + dy * dy) as u64
                        })
                        .min()
                        .unwrap()
                })
                .max()
                .unwrap();
            best = Some(best.map_or(need, |b| b.min(need)));
        }
        best
    }

    #[test]
    fn no_cities_and_no_stations() {
        let answer = solve_serial(&case(&[], &[(1, 1)], 1)).unwrap();
        assert_eq!((answer.squared_radius, answer.stations.len()), (0, 0));
        let answer = solve_serial(&case(&[], &[], 1)).unwrap();
        assert_eq!(answer.squared_radius, 0);
        assert_eq!(
            solve_serial(&case(&[(0, 0)], &[], 3)),
            Err(NoAnswer::NoStations(1))
        );
    }

    #[test]
    fn edge_cases_by_hand() {
        // All points identical.
        let c = case(&[(7, 7), (7, 7)], &[(7, 7), (7, 7)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 0);
        // K at least M: every city to its nearest station.
        let c = case(&[(0, 0), (10, 0)], &[(1, 0), (8, 0)], 5);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 4);
        // Collinear: one station in the middle beats two at the ends.
        let c = case(&[(0, 0), (10, 0), (20, 0)], &[(0, 0), (10, 0), (20, 0)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 100);
        // Corners of the square.
        let corners = [(0, 0), (0, 1000), (1000, 0), (1000, 1000)];
        let c = case(&corners, &[(500, 500), (0, 0)], 1);
        assert_eq!(solve_serial(&c).unwrap().squared_radius, 500_000);
    }

    #[test]
    fn wide_rounds_find_the_same_answer() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 1001) as i64
        };
        let cities: Vec<(i64, i64)> = (0..30).map(|_| (next(), next())).collect();
        let stations: Vec<(i64, i64)> = (0..30).map(|_| (next(), next())).collect();
        let c = case(&cities, &stations, 5);
        let serial = solve_serial(&c).unwrap();
        for width in [2, 3, 7] {
            let wide = solve(&c, width, |probes| probes.iter().map(Probe::run).collect()).unwrap();
            assert_eq!(wide.squared_radius, serial.squared_radius);
            assert!(wide.stations.len() <= 5);
            assert_eq!(squared_radius_of(&c, &wide.stations), wide.squared_radius);
        }
    }

    #[test]
    fn the_hdu_sample() {
        let cases = read("1\n3 3 2\n3 4\n3 1\n5 4\n1 1\n2 2\n3 3\n");
        assert_eq!(cases.len(), 1);
        let case = cases[0].as_ref().unwrap();
        assert_eq!(case.line, 2);
        let answer = solve_serial(case).unwrap();
        assert_eq!(answer.squared_radius, 5);
        assert_eq!(format_radius(answer.squared_radius), "2.236068");
        assert!(answer.stations.len() <= 2);
        assert_eq!(squared_radius_of(case, &answer.stations), 5);
    }

    #[test]
    fn points_may_be_spread_over_lines_in_any_way() {
        // Any way but T's, which stands alone.
        let cases = read("2\n1 1 1\n0 0 3 4\n\n1 1\n1\n0 0\n0 0\n");
        assert_eq!(cases.len(), 2);
        let a = cases[0].as_ref().unwrap();
        assert_eq!(a.cities, [Point { x: 0, y: 0 }]);
        assert_eq!(a.stations, [Point { x: 3, y: 4 }]);
        assert_eq!(solve_serial(a).unwrap().squared_radius, 25);
        assert_eq!(cases[1].as_ref().unwrap().line, 5);
    }

    #[test]
    fn too_many_pairs_is_an_error_and_the_next_case_is_read() {
        // 2049 × 2048 pairs: one too many. The points are read, not kept.
        let mut input = String::from("2\n2049 2048 3\n");
        for k in 0..(2049 + 2048) {
            input.push_str(&format!("{k} {k}\n"));
        }
        input.push_str("1 1 1\n0 0\n3 4\n");
        let cases = read(&input);
        assert_eq!(cases.len(), 2);
        let too_many = ParseErrorKind::TooManyPairs {
            cities: 2049,
            stations: 2048,
        };
        assert_eq!(
            *parse_error(&cases[0]),
            ParseError {
                line: 2,
                kind: too_many,
                fatal: false
            }
        );
        assert_eq!(
            solve_serial(cases[1].as_ref().unwrap())
                .unwrap()
                .squared_radius,
            25
        );
        // 2048 × 2048 is allowed.
        assert!(read("1\n2048 2048 1\n").iter().all(|c| !matches!(
            c,
            Err(InputError::Parse(ParseError {
                kind: ParseErrorKind::TooManyPairs { .. },
                ..
            }))
        )));
    }

    fn random_case() -> impl Strategy<Value = RadarCase> {
        let point = (0i64..=12, 0i64..=12);
        (
            proptest::collection::vec(point.clone(), 0..=8),
            proptest::collection::vec(point, 1..=8),
            1u64..=9,
        )
            .prop_map(|(cities, stations, k)| case(&cities, &stations, k))
    }

    /// Many cities on few places (so many reached alike) and up to 12
    /// stations, for `cover_check`'s brute force.
    fn crowded_case() -> impl Strategy<Value = RadarCase> {
        let point = (0i64..=20, 0i64..=20);
        (
            proptest::collection::vec(point.clone(), 0..=60),
            proptest::collection::vec(point, 1..=12),
            1u64..=4,
        )
            .prop_map(|(cities, stations, k)| case(&cities, &stations, k))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The answer is `cover_check`'s brute force's (every set of at
        /// most K stations), and the stations chosen need no more.
        #[test]
        fn answers_agree_with_the_checkers_brute_force(c in crowded_case(), width in 1usize..=3) {
            let answer = solve(&c, width, |probes| probes.iter().map(Probe::run).collect()).unwrap();
            let pairs = |points: &[Point]| points.iter().map(|p| (p.x, p.y)).collect();
            let checked = cover_check::radar::Case {
                cities: pairs(&c.cities),
                stations: pairs(&c.stations),
                k: c.operators as usize,
            };
            prop_assert_eq!(Some(answer.squared_radius), cover_check::radar::brute_force(&checked));
            prop_assert!(answer.stations.len() as u64 <= c.operators);
            prop_assert!(squared_radius_of(&c, &answer.stations) <= answer.squared_radius);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The answer equals the brute force's; the chosen stations (at
        /// most K) reach every city within it; and no K stations reach
        /// every city within the next smaller candidate.
        #[test]
        fn answers_agree_with_brute_force(c in random_case(), width in 1usize..=4) {
            let answer = solve(&c, width, |probes| probes.iter().map(Probe::run).collect()).unwrap();
            prop_assert_eq!(Some(answer.squared_radius), brute_force(&c));
            prop_assert!(answer.stations.len() as u64 <= c.operators);
            prop_assert!(answer.stations.windows(2).all(|w| w[0] < w[1]));
            let reach = c.cities.iter().all(|city| answer.stations.iter().any(|&s| {
                let (dx, dy) = (city.x - c.stations[s].x, city.y - c.stations[s].y);
                (dx * dx + dy * dy) as u64 <= answer.squared_radius
            }));
            prop_assert!(reach);
            let smaller = c.cities.iter().flat_map(|city| c.stations.iter().map(move |s| {
                let (dx, dy) = (city.x - s.x, city.y - s.y);
                (dx * dx + dy * dy) as u64
            })).filter(|&d| d < answer.squared_radius).max();
            if let Some(smaller) = smaller {
                let (verdict, _) = decide(&c, smaller, &Limits::none());
                prop_assert_eq!(verdict, Verdict::NotCovered);
                // Independently: no K stations reach every city within it.
                prop_assert!(brute_force(&c).unwrap() > smaller);
            }
        }
    }
}
