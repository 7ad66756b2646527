//! `cargo xtask bench radar`: `cover radar`'s exact search, serial and
//! parallel, against a port of the contest program (a float bisection with
//! a repeat-cover DLX, [`contest`]) on 20 seeded random HDU 2295 cases
//! (also written to `target/bench-radar/` for other programs); every
//! answer must equal the contest's. Then larger cases, each stopped after
//! a time limit. `--quick`: fewer repeats, a smaller table. Details:
//! `docs/measurements.md`.

use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use cover_models::radar::{
    format_radius, solve, solve_serial, NoAnswer, Point, Probe, ProbeResult, RadarAnswer, RadarCase,
};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::harness::{best_of, fixed, write_scratch, Table};
use crate::flags::Flags;

/// The seed of the headline file.
const SEED: u64 = 2295;

pub fn run(args: &[String]) -> Result<()> {
    let quick = Flags::parse(args, &[], &["--quick"])?.switch("--quick");
    let threads = rayon::current_num_threads();
    println!("bench radar: {threads} threads");

    // The headline file.
    let cases = random_cases(SEED, 20, 50, 50, 4..=12);
    let path = write_scratch("radar", "hdu2295_20x50.in", &to_input(&cases))?;
    println!(
        "file: {} (20 cases, N = M = 50, K 4..12, seed {SEED})",
        path.display()
    );
    let repeats = if quick { 1 } else { 5 };
    let (contest_time, contest) = best_of(repeats.min(3), || {
        cases
            .iter()
            .map(contest::solve)
            .collect::<Vec<(String, u64)>>()
    });
    let (serial_time, serial) = best_of(repeats, || {
        cases
            .iter()
            .map(|c| solve_serial(c).expect("cases have stations"))
            .collect::<Vec<RadarAnswer>>()
    });
    let (parallel_time, parallel) = best_of(repeats, || {
        cases
            .par_iter()
            .map(|c| solve_parallel(c, threads, None).expect("cases have stations"))
            .collect::<Vec<RadarAnswer>>()
    });
    let mut mismatches = 0;
    for (k, (((c, _), s), p)) in contest.iter().zip(&serial).zip(&parallel).enumerate() {
        let [s, p] = [s, p].map(|answer| format_radius(answer.squared_radius));
        if *c != s || s != p {
            mismatches += 1;
            println!("case {}: contest {c}, serial {s}, parallel {p}", k + 1);
        }
    }
    let probes = |answers: &[RadarAnswer]| answers.iter().map(|a| a.probes).sum::<u64>();
    let nodes = |answers: &[RadarAnswer]| answers.iter().map(|a| a.stats.nodes).sum::<u64>();
    let table = Table::new("solver -10|seconds 10|speedup 9|probes 8|nodes 10");
    let row = |name: &str, time: Duration, probes: u64, nodes: &dyn Display| {
        let speedup = fixed(contest_time.as_secs_f64() / time.as_secs_f64(), 1);
        table.row(&[
            &name,
            &fixed(time.as_secs_f64(), 4),
            &speedup,
            &probes,
            nodes,
        ]);
    };
    row(
        "contest",
        contest_time,
        contest.iter().map(|(_, p)| p).sum(),
        &"-",
    );
    row("serial", serial_time, probes(&serial), &nodes(&serial));
    row(
        "parallel",
        parallel_time,
        probes(&parallel),
        &nodes(&parallel),
    );
    if mismatches > 0 {
        bail!("{mismatches} answers differ from the contest program's");
    }
    println!("all 20 answers equal the contest program's");

    // The table.
    let (sizes, per_cell, limit): (&[usize], usize, Duration) = if quick {
        (&[100], 1, Duration::from_secs(5))
    } else {
        (&[100, 200, 400], 3, Duration::from_secs(60))
    };
    println!();
    println!(
        "larger cases: {per_cell} per cell, solved one at a time with {threads} probes per round; \
         a case is stopped after {} s",
        limit.as_secs()
    );
    let table = Table::new("N=M 5|K 4|total s 12|slowest s 12|probes 8|nodes 12|stopped 10");
    for &n in sizes {
        for k in [5u64, 10, 20] {
            let cases = random_cases(SEED + n as u64 * 100 + k, per_cell, n, n, k..=k);
            let (mut total, mut slowest) = (Duration::ZERO, Duration::ZERO);
            let (mut probes, mut nodes, mut stopped) = (0, 0, 0);
            for case in &cases {
                let start = Instant::now();
                let result = solve_parallel(case, threads, Some(start + limit));
                let time = start.elapsed();
                total += time;
                slowest = slowest.max(time);
                match result {
                    Ok(answer) => {
                        probes += answer.probes;
                        nodes += answer.stats.nodes;
                    }
                    Err(NoAnswer::Stopped) => stopped += 1,
                    Err(e) => bail!("{e}"),
                }
            }
            table.row(&[
                &n,
                &k,
                &fixed(total.as_secs_f64(), 3),
                &fixed(slowest.as_secs_f64(), 3),
                &probes,
                &nodes,
                &stopped,
            ]);
        }
    }
    Ok(())
}

/// `count` random cases with `n` cities and `m` stations in the square
/// 0..=1000, K drawn from `operators`.
fn random_cases(
    seed: u64,
    count: usize,
    n: usize,
    m: usize,
    operators: std::ops::RangeInclusive<u64>,
) -> Vec<RadarCase> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let k = rng.random_range(operators.clone());
            let mut point = || Point {
                x: rng.random_range(0..=1000),
                y: rng.random_range(0..=1000),
            };
            let cities = (0..n).map(|_| point()).collect();
            let stations = (0..m).map(|_| point()).collect();
            RadarCase {
                cities,
                stations,
                operators: k,
                line: 0,
            }
        })
        .collect()
}

/// The cases in HDU 2295's input format.
fn to_input(cases: &[RadarCase]) -> String {
    let mut text = format!("{}\n", cases.len());
    for case in cases {
        text += &format!(
            "{} {} {}\n",
            case.cities.len(),
            case.stations.len(),
            case.operators
        );
        for p in case.cities.iter().chain(&case.stations) {
            text += &format!("{} {}\n", p.x, p.y);
        }
    }
    text
}

/// Solves `case` as `cover radar` does: `width` probes per round on
/// rayon's threads; with a deadline, every probe is cancelled once it
/// passes.
fn solve_parallel(
    case: &RadarCase,
    width: usize,
    deadline: Option<Instant>,
) -> Result<RadarAnswer, NoAnswer> {
    solve(case, width, |probes: &[Probe<'_>]| {
        let Some(deadline) = deadline else {
            return probes.par_iter().map(Probe::run).collect();
        };
        let finished = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if Instant::now() >= deadline {
                        probes.iter().for_each(Probe::cancel);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let results: Vec<ProbeResult> = probes.par_iter().map(Probe::run).collect();
            finished.store(true, Ordering::Relaxed);
            results
        })
    })
}

/// A port of the seed's contest program (HDU 2295): bisection of R over
/// floating point, each step a repeat-cover DLX with the classic A* bound.
mod contest {
    use cover_models::radar::RadarCase;

    /// The linked structure of the contest program: columns are cities,
    /// rows are stations; `u, d, l, r` the four links of each node.
    struct Dlx {
        u: Vec<usize>,
        d: Vec<usize>,
        l: Vec<usize>,
        r: Vec<usize>,
        col: Vec<usize>,
        /// Nodes per column.
        s: Vec<usize>,
        /// The last node of each row, if any.
        h: Vec<Option<usize>>,
        /// Marks for the bound.
        v: Vec<bool>,
        /// K.
        all: usize,
    }

    impl Dlx {
        fn new(rows: usize, columns: usize, all: usize) -> Dlx {
            let mut dlx = Dlx {
                u: (0..=columns).collect(),
                d: (0..=columns).collect(),
                l: (0..=columns).map(|i| i.wrapping_sub(1)).collect(),
                r: (0..=columns).map(|i| i + 1).collect(),
                col: (0..=columns).collect(),
                s: vec![0; columns + 1],
                h: vec![None; rows + 1],
                v: vec![false; columns + 1],
                all,
            };
            dlx.l[0] = columns;
            dlx.r[columns] = 0;
            dlx
        }

        fn push(&mut self, row: usize, c: usize) {
            let size = self.u.len();
            self.d.push(self.d[c]);
            self.u.push(c);
            self.col.push(c);
            let below = self.d[c];
            self.u[below] = size;
            self.d[c] = size;
            self.s[c] += 1;
            match self.h[row] {
                None => {
                    self.h[row] = Some(size);
                    self.l.push(size);
                    self.r.push(size);
                }
                Some(h) => {
                    self.l.push(h);
                    self.r.push(self.r[h]);
                    let right = self.r[h];
                    self.l[right] = size;
                    self.r[h] = size;
                }
            }
        }

        /// Removes node `c`'s column from the horizontal lists.
        fn del(&mut self, c: usize) {
            let mut i = self.d[c];
            while i != c {
                let (left, right) = (self.l[i], self.r[i]);
                self.r[left] = right;
                self.l[right] = left;
                i = self.d[i];
            }
        }

        fn reback(&mut self, c: usize) {
            let mut i = self.u[c];
            while i != c {
                let (left, right) = (self.l[i], self.r[i]);
                self.r[left] = i;
                self.l[right] = i;
                i = self.u[i];
            }
        }

        /// The classic bound.
        fn dep(&mut self) -> usize {
            self.v.iter_mut().for_each(|v| *v = false);
            let mut deep = 0;
            let mut i = self.r[0];
            while i != 0 {
                if !self.v[i] {
                    deep += 1;
                    self.v[i] = true;
                    let mut j = self.d[i];
                    while j != i {
                        let mut k = self.r[j];
                        while k != j {
                            self.v[self.col[k]] = true;
                            k = self.r[k];
                        }
                        j = self.d[j];
                    }
                }
                i = self.r[i];
            }
            deep
        }

        fn dancing(&mut self, depth: usize) -> bool {
            if depth + self.dep() > self.all {
                return false;
            }
            let mut c = self.r[0];
            if c == 0 {
                return depth <= self.all;
            }
            let mut i = self.r[0];
            while i != 0 {
                if self.s[i] < self.s[c] {
                    c = i;
                }
                i = self.r[i];
            }
            let mut i = self.d[c];
            while i != c {
                self.del(i);
                let mut j = self.r[i];
                while j != i {
                    self.del(j);
                    j = self.r[j];
                }
                if self.dancing(depth + 1) {
                    return true;
                }
                let mut j = self.l[i];
                while j != i {
                    self.reback(j);
                    j = self.l[j];
                }
                self.reback(i);
                i = self.d[i];
            }
            false
        }
    }

    /// The contest program's answer for one case, as it prints it, and
    /// the number of bisection steps (probes) it took.
    pub fn solve(case: &RadarCase) -> (String, u64) {
        let eps = 1e-8;
        let (mut lt, mut rt) = (0.0f64, 1e8f64);
        let (n, m) = (case.cities.len(), case.stations.len());
        let mut probes = 0;
        while rt - lt >= eps {
            probes += 1;
            let mut dlx = Dlx::new(m, n, case.operators as usize);
            let mid = (rt + lt) / 2.0;
            for (i, station) in case.stations.iter().enumerate() {
                for (j, city) in case.cities.iter().enumerate() {
                    if (city.squared_distance(*station) as f64) < mid * mid - eps {
                        dlx.push(i + 1, j + 1);
                    }
                }
            }
            if dlx.dancing(0) {
                rt = mid - eps;
            } else {
                lt = mid + eps;
            }
        }
        (format!("{lt:.6}"), probes)
    }
}
