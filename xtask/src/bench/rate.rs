//! `cargo xtask bench rate`: the human-logic solver's rating
//! ([`cover_models::sudoku::human::rate`], SE's default technique set)
//! against Sudoku Explainer's on `se_rated.txt` (hash, puzzle, SE rating a
//! line): puzzles solved by logic, Spearman's rank correlation, the share
//! rated exactly as SE up to 6.2, a table by SE band, and the time on one
//! thread; beside it, when a jar is given (`--serate JAR` or `SERATE_JAR`,
//! built by `xtask/peers/serate.sh`), SE's own `serate` on the same
//! puzzles, its agreement with the file and the speed ratio.
//!
//! `--complete` checks completeness instead: every puzzle of
//! `se_rated.txt`, `magictour_top1465` and `forum_hardest_1106` solved by
//! logic, each path checked step by step by [`cover_check::path`] against
//! the solution found by search. Details: `docs/measurements.md`.
//!
//! A puzzle the solver leaves unsolved is ranked as SE ranks one it cannot
//! solve, 20.0, above every rating; means of our ratings and their
//! distance to SE's are over the solved ones.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_check::path::{check_path, Claim, PathStep};
use cover_models::sudoku::human::{rate, Catalogue, Rated};
use cover_models::sudoku::logic::Geometry;
use cover_models::sudoku::{Engine, Puzzle, Size, Solver};
use dlx_core::{Control, Limits};

use super::harness::{self, fixed, sudoku_set, Table};
use crate::flags::Flags;
use crate::paths;

/// The file of SE-rated puzzles, under `paths::datasets()`.
const SE_RATED: &str = "sudoku9/se_rated.txt";

/// What an unsolved puzzle is ranked as (SE's rating of a puzzle it
/// cannot solve), in tenths.
const UNSOLVED: u16 = 200;

/// The highest SE rating whose agreement the issue measures, in tenths.
const EXACT_UP_TO: u16 = 62;

/// Puzzles per band with `--quick`.
const QUICK_PER_BAND: usize = 3;

/// The bar: all of `se_rated.txt` rated within this on one thread.
const BAR_SECONDS: f64 = 30.0;

/// One puzzle of `se_rated.txt`.
#[derive(Debug, Clone, PartialEq)]
struct SePuzzle {
    /// The line in the file, from 1.
    line: usize,
    /// 81 cells, 0 empty.
    cells: Vec<u8>,
    /// SE's rating in tenths.
    se: u16,
}

/// The puzzles of `se_rated.txt`'s text: `hash puzzle rating` a line,
/// `#` comments and blank lines skipped.
fn parse_se_rated(text: &str) -> Result<Vec<SePuzzle>> {
    let mut puzzles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = (|| -> Result<SePuzzle> {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [_, grid, rating] = fields[..] else {
                bail!("{} fields, expected hash, puzzle, rating", fields.len());
            };
            let cells = grid
                .bytes()
                .map(|b| match b {
                    b'0'..=b'9' => Ok(b - b'0'),
                    b'.' => Ok(0),
                    _ => bail!("{:?} is not a cell", b as char),
                })
                .collect::<Result<Vec<u8>>>()?;
            if cells.len() != 81 {
                bail!("{} cells, expected 81", cells.len());
            }
            Ok(SePuzzle {
                line: number + 1,
                cells,
                se: tenths(rating)?,
            })
        })()
        .with_context(|| format!("se_rated.txt line {}", number + 1))?;
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// A rating written with one decimal ("6.2") in tenths.
fn tenths(text: &str) -> Result<u16> {
    let value: f64 = text.parse().with_context(|| format!("rating {text:?}"))?;
    if !(0.0..=20.0).contains(&value) {
        bail!("rating {text} is outside 0.0..=20.0");
    }
    Ok((value * 10.0).round() as u16)
}

/// The band of an SE rating in tenths: its whole part (2 for 2.5..=2.9).
fn band(se: u16) -> u16 {
    se / 10
}

/// `per_band` puzzles of each band, spread over the band in file order
/// (the file is sorted by rating, so the sample spans the band's ratings);
/// every puzzle when `per_band` is `None`.
fn sample(puzzles: &[SePuzzle], per_band: Option<usize>) -> Vec<SePuzzle> {
    let Some(per_band) = per_band else {
        return puzzles.to_vec();
    };
    let mut bands: Vec<u16> = puzzles.iter().map(|p| band(p.se)).collect();
    bands.dedup();
    let mut chosen = Vec::new();
    for b in bands {
        let members: Vec<&SePuzzle> = puzzles.iter().filter(|p| band(p.se) == b).collect();
        let take = per_band.min(members.len());
        chosen.extend((0..take).map(|i| members[i * members.len() / take].clone()));
    }
    chosen
}

/// The ranks of `values` from 1, ties given the average of their ranks.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end: their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Spearman's rank correlation of `a` and `b` (Pearson's on their
/// average ranks); `None` when either is constant or they are shorter
/// than 2.
fn spearman(a: &[f64], b: &[f64]) -> Option<f64> {
    assert_eq!(a.len(), b.len(), "paired values");
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - mean) * (y - mean);
        va += (x - mean) * (x - mean);
        vb += (y - mean) * (y - mean);
    }
    (va > 0.0 && vb > 0.0).then(|| cov / (va * vb).sqrt())
}

/// One puzzle rated by us (and by serate when run).
struct Rating {
    /// The puzzle's line in `se_rated.txt`.
    line: usize,
    se: u16,
    /// Our rating in tenths, [`UNSOLVED`] when not solved.
    ours: u16,
    solved: bool,
    time: Duration,
    /// serate's rating and time on it, when run.
    serate: Option<(u16, Duration)>,
}

/// The 9×9 geometry.
fn nine() -> Geometry {
    Geometry::new(Size::new(3).expect("9×9"))
}

/// Rates each puzzle on this thread, each timed.
fn rate_ours(puzzles: &[SePuzzle]) -> Vec<Rating> {
    let geometry = nine();
    puzzles
        .iter()
        .map(|p| {
            let start = Instant::now();
            let rated = rate(&geometry, &p.cells, Catalogue::Rating);
            let time = start.elapsed();
            Rating {
                line: p.line,
                se: p.se,
                ours: if rated.solved {
                    rated.rating.0
                } else {
                    UNSOLVED
                },
                solved: rated.solved,
                time,
                serate: None,
            }
        })
        .collect()
}

/// serate's time for one puzzle as it prints it (`%e`): `1.23s`,
/// `2m05s`, `1h02m`.
fn serate_time(text: &str) -> Option<Duration> {
    let (mut seconds, mut number) = (0.0, String::new());
    for c in text.chars() {
        let unit = match c {
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => {
                number.push(c);
                continue;
            }
        };
        seconds += number.parse::<f64>().ok()? * unit;
        number.clear();
    }
    number.is_empty().then(|| Duration::from_secs_f64(seconds))
}

/// Runs serate from `jar` on `puzzles` on one thread (pinned to CPU 0
/// when `taskset` is here): each puzzle's rating and time, and the whole
/// run's time (the JVM's start included).
fn run_serate(jar: &Path, puzzles: &[SePuzzle]) -> Result<(Vec<(u16, Duration)>, Duration)> {
    let mut text = String::new();
    for p in puzzles {
        let line: String = p.cells.iter().map(|&d| char::from(b'0' + d)).collect();
        writeln!(text, "{line}")?;
    }
    let input = harness::write_scratch("rate", "serate-input.txt", &text)?;
    let java_args = [
        "-Xrs".to_owned(),
        "-Xmx500m".to_owned(),
        "-cp".to_owned(),
        jar.display().to_string(),
        "diuf.sudoku.test.serate".to_owned(),
        "--threads=1".to_owned(),
        "--format=%n %r %e".to_owned(),
        format!("--input={}", input.display()),
    ];
    let taskset = Path::new("/usr/bin/taskset");
    let run = if taskset.is_file() {
        let args: Vec<String> = ["-c", "0", "java"]
            .map(String::from)
            .into_iter()
            .chain(java_args)
            .collect();
        harness::run(taskset, &args, b"", &[0])?
    } else {
        harness::run(Path::new("java"), &java_args, b"", &[0])?
    };
    let mut found = Vec::new();
    for line in run.stdout.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, rating, time] = fields[..] else {
            bail!("serate printed {line:?}, expected ordinal, rating, time");
        };
        let time = serate_time(time).with_context(|| format!("serate's time {time:?}"))?;
        found.push((tenths(rating)?, time));
    }
    if found.len() != puzzles.len() {
        bail!("serate rated {} of {} puzzles", found.len(), puzzles.len());
    }
    Ok((found, run.elapsed))
}

/// The jar of serate: `--serate JAR`, else `$SERATE_JAR`; `None` when
/// neither is given.
fn serate_jar(flags: &Flags) -> Result<Option<PathBuf>> {
    let jar = flags
        .value("--serate")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("SERATE_JAR").map(PathBuf::from));
    match jar {
        Some(jar) if !jar.is_file() => bail!("no serate jar at {}", jar.display()),
        jar => Ok(jar),
    }
}

/// A share as a percentage with one decimal; "-" of nothing.
fn percent(part: usize, whole: usize) -> String {
    match whole {
        0 => "-".into(),
        _ => fixed(100.0 * part as f64 / whole as f64, 1),
    }
}

/// The mean of `values` with two decimals; "-" of none.
fn mean(values: impl Iterator<Item = f64>) -> String {
    let (sum, count) = values.fold((0.0, 0), |(s, n), v| (s + v, n + 1));
    match count {
        0 => "-".into(),
        _ => fixed(sum / f64::from(count), 2),
    }
}

/// How many of the puzzles furthest from SE's rating are listed.
const LISTED: usize = 5;

/// Whether a rating in tenths is within a tenth of SE's.
fn near(ours: u16, se: u16) -> bool {
    ours.abs_diff(se) <= 1
}

/// Prints the comparison of `ratings` with SE's and with serate's.
fn report(ratings: &[Rating], whole_file: bool) {
    let n = ratings.len();
    let solved = ratings.iter().filter(|r| r.solved).count();
    println!("solved by logic: {solved} of {n}");
    let se: Vec<f64> = ratings.iter().map(|r| f64::from(r.se)).collect();
    let ours: Vec<f64> = ratings.iter().map(|r| f64::from(r.ours)).collect();
    match spearman(&ours, &se) {
        Some(rho) => println!("Spearman, ours and SE: {rho:.3} (bar ≥ 0.90, goal ≥ 0.97)"),
        None => println!("Spearman, ours and SE: undefined (a constant rating)"),
    }
    let easy: Vec<&Rating> = ratings.iter().filter(|r| r.se <= EXACT_UP_TO).collect();
    let exact = easy.iter().filter(|r| r.ours == r.se).count();
    let within = easy.iter().filter(|r| near(r.ours, r.se)).count();
    println!(
        "SE ≤ {}: {} puzzles, rated exactly as SE {}% (bar ≥ 70%, goal ≥ 90%), within ±0.1 {}%",
        f64::from(EXACT_UP_TO) / 10.0,
        easy.len(),
        percent(exact, easy.len()),
        percent(within, easy.len())
    );
    let with_serate = ratings.iter().all(|r| r.serate.is_some());
    if with_serate {
        let agree = ratings
            .iter()
            .filter(|r| r.serate.is_some_and(|(s, _)| s == r.se))
            .count();
        let same = ratings
            .iter()
            .filter(|r| r.serate.is_some_and(|(s, _)| s == r.ours))
            .count();
        println!(
            "serate agrees with the file on {agree} of {n} ({}%), with ours on {same} ({}%)",
            percent(agree, n),
            percent(same, n)
        );
    }

    let mut columns = String::from(
        "SE band -8|count 6|solved 7|exact % 8|±0.1 % 7|mean SE 8|mean ours 10|mean diff 10|ours ms 9",
    );
    if with_serate {
        columns += "|serate = SE % 13|serate ms 10|ratio 7";
    }
    let table = Table::new(&columns);
    let mut bands: Vec<u16> = ratings.iter().map(|r| band(r.se)).collect();
    bands.sort_unstable();
    bands.dedup();
    for b in bands {
        let rows: Vec<&Rating> = ratings.iter().filter(|r| band(r.se) == b).collect();
        let count = rows.len();
        let solved: Vec<&&Rating> = rows.iter().filter(|r| r.solved).collect();
        let ours_time: Duration = rows.iter().map(|r| r.time).sum();
        let mut cells: Vec<String> = vec![
            format!("{b}.x"),
            count.to_string(),
            solved.len().to_string(),
            percent(rows.iter().filter(|r| r.ours == r.se).count(), count),
            percent(rows.iter().filter(|r| near(r.ours, r.se)).count(), count),
            mean(rows.iter().map(|r| f64::from(r.se) / 10.0)),
            mean(solved.iter().map(|r| f64::from(r.ours) / 10.0)),
            mean(
                solved
                    .iter()
                    .map(|r| f64::from(r.ours.abs_diff(r.se)) / 10.0),
            ),
            fixed(ours_time.as_secs_f64() * 1e3, 1),
        ];
        if with_serate {
            let serate: Vec<(u16, Duration)> = rows.iter().filter_map(|r| r.serate).collect();
            let agree = rows
                .iter()
                .filter(|r| r.serate.is_some_and(|(s, _)| s == r.se))
                .count();
            let serate_time: Duration = serate.iter().map(|&(_, t)| t).sum();
            cells.push(percent(agree, count));
            cells.push(fixed(serate_time.as_secs_f64() * 1e3, 0));
            cells.push(ratio(serate_time, ours_time));
        }
        let cells: Vec<&dyn std::fmt::Display> = cells.iter().map(|c| c as _).collect();
        table.row(&cells);
    }
    let total: Duration = ratings.iter().map(|r| r.time).sum();
    println!(
        "ours: {n} puzzles in {:.3} s, {:.1} puzzles/s, one thread",
        total.as_secs_f64(),
        n as f64 / total.as_secs_f64().max(1e-9)
    );
    if whole_file {
        let met = total.as_secs_f64() <= BAR_SECONDS;
        println!(
            "bar: all of se_rated.txt in ≤ {BAR_SECONDS} s: {}",
            if met { "met" } else { "not met" }
        );
    }
}

/// Lists the [`LISTED`] puzzles whose rating is furthest from SE's.
fn list_furthest(ratings: &[Rating]) {
    let mut furthest: Vec<&Rating> = ratings.iter().filter(|r| r.ours != r.se).collect();
    furthest.sort_by_key(|r| std::cmp::Reverse(r.ours.abs_diff(r.se)));
    for r in furthest.iter().take(LISTED) {
        let ours = match r.solved {
            true => format!("{:.1}", f64::from(r.ours) / 10.0),
            false => "unsolved".into(),
        };
        println!(
            "  far from SE: se_rated.txt line {}: SE {:.1}, ours {ours}",
            r.line,
            f64::from(r.se) / 10.0
        );
    }
}

/// `slow / fast` as "12.3×"; "-" when `fast` took no measurable time.
fn ratio(slow: Duration, fast: Duration) -> String {
    match fast.as_secs_f64() {
        f if f > 0.0 => format!("{:.1}×", slow.as_secs_f64() / f),
        _ => "-".into(),
    }
}

/// `cargo xtask bench rate [--quick] [--sample N] [--serate JAR] [--complete]`.
pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--sample", "--serate"], &["--quick", "--complete"])?;
    if !flags.positional().is_empty() {
        bail!("bench rate takes no names: {:?}", flags.positional());
    }
    if flags.switch("--complete") {
        return complete(flags.switch("--quick"));
    }
    let path = paths::datasets().join(SE_RATED);
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!(
            "bench rate: skipped, {} is not here (set COVER_SHARED to the shared folder)",
            path.display()
        );
        return Ok(());
    };
    let all = parse_se_rated(&text)?;
    let per_band = match flags.value("--sample") {
        Some(_) => Some(flags.parsed("--sample", 0usize)?),
        None if flags.switch("--quick") => Some(QUICK_PER_BAND),
        None => None,
    };
    let puzzles = sample(&all, per_band);
    let jar = serate_jar(&flags)?;
    println!(
        "bench rate: {} of the {} puzzles of {SE_RATED}{}, SE's default set (Catalogue::Rating), one thread",
        puzzles.len(),
        all.len(),
        per_band.map_or(String::new(), |n| format!(" ({n} per band)")),
    );
    let mut ratings = rate_ours(&puzzles);
    if let Some(jar) = &jar {
        println!("serate: {} on the same puzzles, --threads=1", jar.display());
        let (serate, wall) = run_serate(jar, &puzzles)?;
        for (rating, found) in ratings.iter_mut().zip(serate) {
            rating.serate = Some(found);
        }
        let ours: Duration = ratings.iter().map(|r| r.time).sum();
        let own: Duration = ratings
            .iter()
            .filter_map(|r| r.serate)
            .map(|(_, t)| t)
            .sum();
        println!(
            "serate: {} puzzles in {:.3} s by its own clock ({:.3} s with the JVM's start), \
             {:.1} puzzles/s; ours is {} as fast (by serate's own clock)",
            puzzles.len(),
            own.as_secs_f64(),
            wall.as_secs_f64(),
            puzzles.len() as f64 / own.as_secs_f64().max(1e-9),
            ratio(own, ours)
        );
    }
    report(&ratings, per_band.is_none());
    list_furthest(&ratings);
    Ok(())
}

/// The files `--complete` solves: a name, and the file under
/// `paths::datasets()` or the catalogue's set.
const COMPLETE_FILES: &[&str] = &["se_rated", "magictour_top1465", "forum_hardest_1106"];

/// Puzzles per file with `--complete --quick`.
const QUICK_COMPLETE: usize = 50;

/// The puzzles of a file of [`COMPLETE_FILES`] as cells; `None` (and a
/// line saying so) when it is not here.
fn complete_puzzles(name: &str, first: Option<usize>) -> Result<Option<Vec<Vec<u8>>>> {
    if name == "se_rated" {
        let path = paths::datasets().join(SE_RATED);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("se_rated: not here ({})", path.display());
            return Ok(None);
        };
        let puzzles = parse_se_rated(&text)?.into_iter().map(|p| p.cells);
        return Ok(Some(puzzles.take(first.unwrap_or(usize::MAX)).collect()));
    }
    let loaded = sudoku_set(name).load(first)?;
    Ok(loaded.map(|l| l.puzzles.into_iter().map(|p: Puzzle| p.cells).collect()))
}

/// The one solution of `cells` by search; an error when there is none or
/// more than one (uniqueness techniques assume one).
fn solution(solver: &mut Solver, cells: &[u8]) -> Result<Vec<u8>> {
    let text: String = cells.iter().map(|&d| char::from(b'0' + d)).collect();
    let mut puzzles = cover_models::sudoku::Puzzles::new(text.as_bytes(), None);
    let puzzle = puzzles.next().context("a puzzle")??;
    let mut found = Vec::new();
    solver.solve(&puzzle, &Limits::solutions(2), |grid| {
        found.push(grid.to_vec());
        Control::Continue
    });
    match <[Vec<u8>; 1]>::try_from(found) {
        Ok([one]) => Ok(one),
        Err(found) => bail!("{} solutions, expected one", found.len()),
    }
}

/// A logical path as the checker takes it.
fn path_of(rated: &Rated) -> Vec<PathStep> {
    let pairs = |list: &[cover_models::sudoku::human::Candidate]| {
        list.iter()
            .map(|c| (usize::from(c.cell), c.digit))
            .collect()
    };
    rated
        .steps
        .iter()
        .map(|s| PathStep {
            placements: pairs(&s.placements),
            eliminations: pairs(&s.eliminations),
        })
        .collect()
}

/// `--complete`: each file solved by logic, every path checked against
/// the solution by search; fails on a wrong step.
fn complete(quick: bool) -> Result<()> {
    let first = quick.then_some(QUICK_COMPLETE);
    println!(
        "bench rate --complete: every puzzle solved by logic (SE's default set), each path \
         checked against the solution by search{}",
        first.map_or(String::new(), |n| format!("; the first {n} of each file"))
    );
    let geometry = nine();
    let mut solver = Solver::new(Engine::Auto);
    let table = Table::new("file -20|puzzles 8|solved 7|unsolved 9|wrong 6|rate s 8|puzzles/s 10");
    let mut failures = Vec::new();
    let (mut unsolved_total, mut files) = (0, 0);
    for &name in COMPLETE_FILES {
        let Some(puzzles) = complete_puzzles(name, first)? else {
            continue;
        };
        files += 1;
        let (mut solved, mut wrong, mut time) = (0, 0, Duration::ZERO);
        for (index, cells) in puzzles.iter().enumerate() {
            let truth = solution(&mut solver, cells)
                .with_context(|| format!("{name} puzzle {}", index + 1))?;
            let start = Instant::now();
            let rated = rate(&geometry, cells, Catalogue::Rating);
            time += start.elapsed();
            let claim = if rated.solved {
                Claim::Complete
            } else {
                Claim::Partial
            };
            match check_path(cells, &truth, 9, &path_of(&rated), claim) {
                Ok(()) => solved += usize::from(rated.solved),
                Err(error) => {
                    wrong += 1;
                    failures.push(format!("{name} puzzle {}: {error}", index + 1));
                }
            }
        }
        let unsolved = puzzles.len() - solved - wrong;
        unsolved_total += unsolved;
        table.row(&[
            &name,
            &puzzles.len(),
            &solved,
            &unsolved,
            &wrong,
            &fixed(time.as_secs_f64(), 3),
            &fixed(puzzles.len() as f64 / time.as_secs_f64().max(1e-9), 1),
        ]);
    }
    println!(
        "goal: every puzzle solved by logic: {}",
        match (files, unsolved_total) {
            (0, _) => "not measured, no file here (set COVER_SHARED to the shared folder)".into(),
            (_, 0) => "met".to_owned(),
            (_, n) => format!("not met ({n} unsolved)"),
        }
    );
    harness::fail_on(&failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_se_rated_lines_and_names_a_bad_one() {
        let grid = "1".repeat(40) + &".".repeat(41);
        let text = format!(
            "# header\n\nab12 {grid} 6.2\ncd34 {} 9.3\n",
            grid.replace('.', "0")
        );
        let puzzles = parse_se_rated(&text).unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!((puzzles[0].line, puzzles[0].se), (3, 62));
        assert_eq!(puzzles[1].se, 93);
        assert_eq!(puzzles[0].cells, puzzles[1].cells);
        assert_eq!(puzzles[0].cells.iter().filter(|&&c| c == 0).count(), 41);
        let error = parse_se_rated("x 123 2.5\n").unwrap_err();
        assert_eq!(error.to_string(), "se_rated.txt line 1");
        assert!(parse_se_rated(&format!("x {grid} high\n")).is_err());
        assert!(parse_se_rated(&format!("x {grid}\n")).is_err());
    }

    #[test]
    fn ties_share_their_average_rank() {
        assert_eq!(ranks(&[3.0, 1.0, 2.0]), [3.0, 1.0, 2.0]);
        assert_eq!(ranks(&[5.0, 1.0, 5.0, 5.0]), [3.0, 1.0, 3.0, 3.0]);
        assert_eq!(ranks(&[2.0, 2.0]), [1.5, 1.5]);
    }

    #[test]
    fn spearman_is_one_for_the_same_order_and_undefined_for_a_constant() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(spearman(&a, &[10.0, 20.0, 30.0, 40.0]), Some(1.0));
        assert_eq!(spearman(&a, &[4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(spearman(&a, &[7.0; 4]), None);
        // With ties 1 − 6·Σd²/(n(n²−1)) is off; Pearson's on the average
        // ranks [1, 2, 3, 4] and [1.5, 1.5, 3, 4] is 4.5/√22.5.
        let rho = spearman(&a, &[1.0, 1.0, 2.0, 3.0]).unwrap();
        assert!((rho - 0.948_683).abs() < 1e-6, "{rho}");
    }

    #[test]
    fn samples_spread_over_each_band() {
        let puzzles: Vec<SePuzzle> = [25, 26, 28, 30, 32, 34, 36, 38, 40]
            .into_iter()
            .map(|se| SePuzzle {
                line: 0,
                cells: vec![],
                se,
            })
            .collect();
        let picked = |n| -> Vec<u16> { sample(&puzzles, n).iter().map(|p| p.se).collect() };
        assert_eq!(picked(Some(2)), [25, 26, 30, 34, 40]);
        assert_eq!(picked(Some(9)).len(), 9);
        assert_eq!(picked(None).len(), 9);
    }

    #[test]
    fn reads_serates_times() {
        assert_eq!(serate_time("0.03s"), Some(Duration::from_millis(30)));
        assert_eq!(serate_time("2m05s"), Some(Duration::from_secs(125)));
        assert_eq!(serate_time("1h02m"), Some(Duration::from_secs(3720)));
        assert_eq!(serate_time("12"), None);
        assert_eq!(serate_time("xs"), None);
    }

    #[test]
    fn paths_keep_the_steps_cells_and_digits() {
        use cover_models::sudoku::human::{Candidate, Rating as SeRating, Step, Technique};
        let mut step = Step::new(Technique::NakedSingle, 23);
        step.placements.push(Candidate::new(5, 3));
        step.eliminations.push(Candidate::new(7, 4));
        let rated = Rated {
            rating: SeRating(23),
            steps: vec![step],
            grid: vec![],
            solved: false,
        };
        assert_eq!(
            path_of(&rated),
            [PathStep {
                placements: vec![(5, 3)],
                eliminations: vec![(7, 4)]
            }]
        );
    }
}
