//! Radar (HDU 2295), checked from the problem statement: the reader of the
//! input, the checker of a `--json` answer (at most K stations reaching
//! every city within the printed radius, the radius correctly rounded) and
//! a brute force over every set of stations for small cases.
//!
//! It must not know `cover radar`'s parser, model or search.

use serde_json::Value;

/// Cases with at most this many stations are solved again by brute force.
pub const BRUTE_FORCE_STATIONS: usize = 12;

/// A case as the checker reads it.
#[derive(Debug, Clone)]
pub struct Case {
    /// City coordinates.
    pub cities: Vec<(i64, i64)>,
    /// Station coordinates.
    pub stations: Vec<(i64, i64)>,
    /// At most this many stations.
    pub k: usize,
}

/// Reads well-formed HDU 2295 input (the valid fixtures).
pub fn read_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut words = text.split_whitespace();
    let mut number = || -> Result<i64, String> {
        let word = words.next().ok_or("the input ends early")?;
        word.parse()
            .map_err(|_| format!("{word:?} is not a number"))
    };
    let t = number()?;
    let mut cases = Vec::new();
    for _ in 0..t {
        let (n, m, k) = (number()?, number()?, number()?);
        let mut cities = Vec::new();
        for _ in 0..n {
            cities.push((number()?, number()?));
        }
        let mut stations = Vec::new();
        for _ in 0..m {
            stations.push((number()?, number()?));
        }
        cases.push(Case {
            cities,
            stations,
            k: k as usize,
        });
    }
    Ok(cases)
}

fn squared(a: (i64, i64), b: (i64, i64)) -> u64 {
    let (dx, dy) = ((a.0 - b.0) as i128, (a.1 - b.1) as i128);
    (dx * dx + dy * dy) as u64
}

/// The squared radius that the stations `chosen` (0-based) need.
fn needed(case: &Case, chosen: &[usize]) -> Option<u64> {
    case.cities
        .iter()
        .map(|&c| chosen.iter().map(|&s| squared(c, case.stations[s])).min())
        .try_fold(0, |worst, d| d.map(|d| worst.max(d)))
}

/// The smallest squared radius over every set of at most K stations;
/// `None` when no set reaches every city, or when there are more than 20
/// stations (too many sets to try).
pub fn brute_force(case: &Case) -> Option<u64> {
    if case.cities.is_empty() {
        return Some(0);
    }
    let m = case.stations.len();
    if m > 20 {
        return None;
    }
    (1u32..1 << m)
        .filter(|set| set.count_ones() as usize <= case.k)
        .filter_map(|set| {
            let chosen: Vec<usize> = (0..m).filter(|s| set >> s & 1 == 1).collect();
            needed(case, &chosen)
        })
        .min()
}

/// Whether `text` is sqrt(`squared`) rounded to 6 decimals: with `text`
/// = m / 10⁶, (2m - 1)² < 4 · squared · 10¹² < (2m + 1)².
pub fn is_rounded_root(text: &str, squared: u64) -> bool {
    let Some((whole, fraction)) = text.split_once('.') else {
        return false;
    };
    if fraction.len() != 6 {
        return false;
    }
    let Ok(micros) = format!("{whole}{fraction}").parse::<u128>() else {
        return false;
    };
    let target = 4 * u128::from(squared) * 1_000_000_000_000;
    let below = (2 * micros).saturating_sub(1).pow(2);
    let above = (2 * micros + 1).pow(2);
    (micros == 0 || below < target) && target < above
}

/// Checks one `--json` record of a valid case.
pub fn check_record(case: &Case, record: &Value) -> Result<(), String> {
    if case.stations.is_empty() && !case.cities.is_empty() {
        return match record["status"].as_str() {
            Some("no_solution") => Ok(()),
            other => Err(format!("cities and no station, but status {other:?}")),
        };
    }
    if record["status"] != "solved" {
        return Err(format!("status {}, expected \"solved\"", record["status"]));
    }
    let r2 = record["squared_radius"]
        .as_u64()
        .ok_or("no squared_radius")?;
    let text = record["radius_text"].as_str().ok_or("no radius_text")?;
    if !is_rounded_root(text, r2) {
        return Err(format!("{text} is not sqrt({r2}) rounded to 6 decimals"));
    }
    let stations = crate::json_numbers(&record["stations"], "station")?;
    if stations.len() > case.k {
        return Err(format!("{} stations, K = {}", stations.len(), case.k));
    }
    if stations.iter().any(|&s| s == 0 || s > case.stations.len()) {
        return Err(format!(
            "stations {stations:?} out of 1..={}",
            case.stations.len()
        ));
    }
    let chosen: Vec<usize> = stations.iter().map(|s| s - 1).collect();
    match needed(case, &chosen) {
        Some(need) if need <= r2 => {}
        _ => {
            return Err(format!(
                "stations {stations:?} leave a city beyond R² = {r2}"
            ))
        }
    }
    if case.stations.len() <= BRUTE_FORCE_STATIONS {
        let best = brute_force(case).ok_or("no set of stations works")?;
        if best != r2 {
            return Err(format!("R² = {r2}, but the smallest is {best}"));
        }
    }
    Ok(())
}

/// Checks the whole `--json` output of `cover radar` on `input`: one
/// record per case, each passing [`check_record`] and printing the radius
/// of `radii` (one line per case, as the `.out` files hold them). Returns
/// one message per fault, each naming its case; none when all is well.
pub fn check_json_output(input: &str, stdout: &str, radii: &str) -> Vec<String> {
    let cases = match read_cases(input) {
        Ok(cases) => cases,
        Err(e) => return vec![format!("reading the cases: {e}")],
    };
    let lines: Vec<&str> = stdout.lines().collect();
    let mut faults = Vec::new();
    if lines.len() != cases.len() {
        faults.push(format!("{} records for {} cases", lines.len(), cases.len()));
    }
    for (k, ((case, line), radius)) in cases.iter().zip(lines).zip(radii.lines()).enumerate() {
        let check = || -> Result<(), String> {
            let record: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
            check_record(case, &record)?;
            if record["status"] == "solved" && record["radius_text"] != radius.trim() {
                return Err(format!(
                    "radius {}, expected {radius}",
                    record["radius_text"]
                ));
            }
            Ok(())
        };
        if let Err(m) = check() {
            faults.push(format!("case {}: {m}", k + 1));
        }
    }
    faults
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Case {
        Case {
            cities: vec![(3, 4), (3, 1), (5, 4)],
            stations: vec![(1, 1), (2, 2), (3, 3)],
            k: 2,
        }
    }

    #[test]
    fn the_checker_accepts_the_sample_answer_and_rejects_wrong_ones() {
        let good = serde_json::json!({
            "status": "solved", "squared_radius": 5,
            "radius_text": "2.236068", "stations": [2, 3]
        });
        assert_eq!(check_record(&sample(), &good), Ok(()));
        let wrong = [
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236067", "stations": [2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [1, 2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [1]}),
            serde_json::json!({"status": "solved", "squared_radius": 8,
                "radius_text": "2.828427", "stations": [2, 3]}),
            serde_json::json!({"status": "solved", "squared_radius": 5,
                "radius_text": "2.236068", "stations": [0, 4]}),
            serde_json::json!({"status": "no_solution"}),
        ];
        for record in wrong {
            assert!(
                check_record(&sample(), &record).is_err(),
                "accepted {record}"
            );
        }
    }

    #[test]
    fn whole_outputs_are_checked_case_by_case() {
        let input = "2\n3 3 2\n3 4\n3 1\n5 4\n1 1\n2 2\n3 3\n1 0 1\n0 0\n";
        let good = "{\"status\":\"solved\",\"squared_radius\":5,\"radius_text\":\"2.236068\",\"stations\":[2,3]}\n\
                    {\"status\":\"no_solution\"}\n";
        let radii = "2.236068\n0.000000\n";
        assert!(check_json_output(input, good, radii).is_empty());
        let faults = check_json_output(input, good, "2.000000\n0.000000\n");
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert!(faults[0].starts_with("case 1: radius"), "{faults:?}");
        let first_only = good.lines().next().unwrap();
        assert_eq!(
            check_json_output(input, first_only, radii),
            ["1 records for 2 cases"]
        );
        assert!(check_json_output("1\n1 x", good, radii)[0].starts_with("reading"));
    }

    #[test]
    fn rounding_and_brute_force() {
        assert!(is_rounded_root("0.000000", 0));
        assert!(is_rounded_root("1.414214", 2));
        assert!(!is_rounded_root("1.414213", 2));
        assert!(!is_rounded_root("1.41421", 2));
        assert!(is_rounded_root(
            "2000000000.000000",
            4_000_000_000_000_000_000
        ));
        assert_eq!(brute_force(&sample()), Some(5));
        let many = Case {
            stations: vec![(0, 0); 21],
            ..sample()
        };
        assert_eq!(brute_force(&many), None, "too many sets to try");
    }
}
