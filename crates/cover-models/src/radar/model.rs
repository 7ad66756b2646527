//! The coverage problem of one probe: whether at most K stations cover
//! every city within a squared radius, as a repeat cover (cities are
//! items, each station an option covering the cities within reach). It
//! knows neither the input format nor how candidates are chosen.

use dlx_core::{Limits, Outcome, Problem, RepeatSolver, Stats};

use super::parse::RadarCase;

/// What one probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// These stations (0-based, ascending, at most K) cover every city.
    Covered(Vec<usize>),
    /// No K stations cover every city.
    NotCovered,
    /// Another probe of the round made this one useless first.
    Cancelled,
    /// The probe spent its node budget, or met its deadline, undecided.
    GaveUp,
}

/// Decides whether at most K stations cover every city within
/// `squared_radius`, as a repeat cover: cities are items, each station an
/// option covering the cities within reach.
pub fn decide(case: &RadarCase, squared_radius: u64, limits: &Limits) -> (Verdict, Stats) {
    let mut builder = Problem::builder(case.cities.len(), 0);
    let mut station_of_option = Vec::new();
    let mut reach = Vec::new();
    for (s, &station) in case.stations.iter().enumerate() {
        reach.clear();
        for (c, &city) in case.cities.iter().enumerate() {
            if city.squared_distance(station) <= squared_radius {
                reach.push(c);
            }
        }
        if !reach.is_empty() {
            builder
                .add_option(reach.iter().copied())
                .expect("cities are distinct items in range");
            station_of_option.push(s);
        }
    }
    let solver = RepeatSolver::new(&builder.build());
    let k = usize::try_from(case.operators).unwrap_or(usize::MAX);
    let report = solver.at_most(k, limits);
    let verdict = match (report.cover, report.outcome) {
        (Some(cover), _) => {
            let mut stations: Vec<usize> = cover.iter().map(|&o| station_of_option[o]).collect();
            stations.sort_unstable();
            Verdict::Covered(stations)
        }
        (None, Outcome::Exhausted) => Verdict::NotCovered,
        (None, Outcome::NodeBudget | Outcome::TimeLimit) => Verdict::GaveUp,
        (None, _) => Verdict::Cancelled,
    };
    (verdict, report.stats)
}

/// The squared radius `stations` need to cover every city: the largest,
/// over cities, of the squared distance to the nearest of them.
pub fn squared_radius_of(case: &RadarCase, stations: &[usize]) -> u64 {
    case.cities
        .iter()
        .map(|&city| {
            stations
                .iter()
                .map(|&s| city.squared_distance(case.stations[s]))
                .min()
                .unwrap_or(u64::MAX)
        })
        .max()
        .unwrap_or(0)
}
