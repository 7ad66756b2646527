//! The coverage problem of one probe: whether at most K stations cover
//! every city within a squared radius, as a repeat cover (cities are
//! items, each station an option covering the cities within reach; cities
//! reached alike are one item, stations reaching alike one option). It
//! knows neither the input format nor how candidates are chosen.

use std::collections::{HashMap, HashSet};

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
///
/// Cities reached by the same stations are one item, and stations that
/// reach the same cities one option (the first of them): covering one
/// such city covers the others, and such stations are interchangeable, so
/// the answer is the same, and the problem has at most as many items as
/// the M stations' circles cut the plane into (O(M²)) and as many options
/// as the N cities' circles do (O(N²)), however many cities and stations
/// there are. (The engine's own reductions would drop them too, but
/// comparing items pairwise, in time quadratic in N.) Building it takes
/// O(N·M).
pub fn decide(case: &RadarCase, squared_radius: u64, limits: &Limits) -> (Verdict, Stats) {
    let (items, reach) = coverage(case, squared_radius);
    let mut builder = Problem::builder(items, 0);
    let mut station_of_option = Vec::new();
    for s in 0..case.stations.len() {
        let cities = &reach.items[reach.starts[s] as usize..reach.starts[s + 1] as usize];
        if !cities.is_empty() {
            builder
                .add_option(cities.iter().map(|&item| item as usize))
                .expect("items are distinct and in range");
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

/// The items each station reaches: station `s`'s are
/// `items[starts[s]..starts[s + 1]]`, ascending; none for a station that
/// reaches the same items as one before it.
struct Reach {
    starts: Vec<u32>,
    items: Vec<u32>,
}

/// The coverage within `squared_radius`, with cities reached by the same
/// stations made one item (numbered in order of their first city): the
/// number of items, and the items each station reaches (none for a station
/// reaching the same as an earlier one).
fn coverage(case: &RadarCase, squared_radius: u64) -> (usize, Reach) {
    let m = case.stations.len();
    let words = m.div_ceil(64).max(1);
    let mut row = vec![0u64; words];
    let mut item_of_row: HashMap<Box<[u64]>, u32> = HashMap::new();
    // Each item's row of stations, one after another: N·M / 8 bytes at
    // most.
    let mut rows: Vec<u64> = Vec::new();
    for &city in &case.cities {
        for (word, stations) in row.iter_mut().zip(case.stations.chunks(64)) {
            *word = 0;
            for (bit, &station) in stations.iter().enumerate() {
                *word |= u64::from(city.squared_distance(station) <= squared_radius) << bit;
            }
        }
        if !item_of_row.contains_key(&row[..]) {
            item_of_row.insert(row.clone().into_boxed_slice(), item_of_row.len() as u32);
            rows.extend_from_slice(&row);
        }
    }
    // Station by station, its items in order (reading a bit of each row:
    // the rows are small, and the items are written in sequence), and as
    // a column of bits, hashed to find stations that reach alike.
    let mut starts = Vec::with_capacity(m + 1);
    let mut items = Vec::new();
    let mut column = vec![0u64; item_of_row.len().div_ceil(64)];
    let mut columns: HashSet<Box<[u64]>> = HashSet::new();
    starts.push(0);
    for s in 0..m {
        let (word, bit) = (s / 64, s % 64);
        let from = items.len();
        column.fill(0);
        for (item, row) in rows.chunks(words).enumerate() {
            if row[word] >> bit & 1 == 1 {
                items.push(item as u32);
                column[item / 64] |= 1 << (item % 64);
            }
        }
        if columns.contains(&column[..]) {
            items.truncate(from);
        } else {
            columns.insert(column.clone().into_boxed_slice());
        }
        starts.push(items.len() as u32);
    }
    (item_of_row.len(), Reach { starts, items })
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::radar::search::tests::case;

    /// The probe's question without merging cities or stations: every
    /// city an item, every station that reaches one an option.
    fn undeduplicated(case: &RadarCase, squared_radius: u64) -> bool {
        let mut builder = Problem::builder(case.cities.len(), 0);
        for &station in &case.stations {
            let reach: Vec<usize> = (0..case.cities.len())
                .filter(|&c| case.cities[c].squared_distance(station) <= squared_radius)
                .collect();
            if !reach.is_empty() {
                builder.add_option(reach).unwrap();
            }
        }
        let k = case.operators as usize;
        RepeatSolver::new(&builder.build())
            .at_most(k, &Limits::none())
            .cover
            .is_some()
    }

    #[test]
    fn cities_and_stations_that_reach_alike_are_merged() {
        // Four cities, two places; three stations, two alike.
        let c = case(
            &[(0, 0), (0, 0), (9, 9), (9, 9)],
            &[(0, 1), (0, 1), (9, 8)],
            2,
        );
        let (items, reach) = coverage(&c, 1);
        assert_eq!(items, 2);
        // The second station reaches what the first does: no items.
        assert_eq!((reach.starts, reach.items), (vec![0, 1, 1, 2], vec![0, 1]));
        assert_eq!(
            decide(&c, 1, &Limits::none()).0,
            Verdict::Covered(vec![0, 2])
        );
        assert_eq!(decide(&c, 0, &Limits::none()).0, Verdict::NotCovered);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Merging decides as the whole problem does, and a cover it finds
        /// reaches every city.
        #[test]
        fn merging_decides_as_the_whole_problem(
            cities in proptest::collection::vec((0i64..=6, 0i64..=6), 0..=40),
            stations in proptest::collection::vec((0i64..=6, 0i64..=6), 1..=12),
            k in 1u64..=5,
            r2 in 0u64..=40,
        ) {
            let c = case(&cities, &stations, k);
            let (verdict, _) = decide(&c, r2, &Limits::none());
            prop_assert_eq!(matches!(verdict, Verdict::Covered(_)), undeduplicated(&c, r2));
            if let Verdict::Covered(chosen) = verdict {
                prop_assert!(chosen.len() as u64 <= k);
                prop_assert!(squared_radius_of(&c, &chosen) <= r2);
            }
        }
    }
}
