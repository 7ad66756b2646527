//! `cargo xtask bench [xc] [PROBLEM ...]`: counts all solutions of
//! problems of `../shared/xc/` (default: four) with the engine and with
//! the contest template's DLX ([`Classic`]) in this process, next to the
//! counts and DLX1 times of `REFERENCE.md`; fails when a count differs.
//! The ratio to [`Classic`] holds on a busy machine where times drift.
//! Details: `docs/measurements.md`.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use cover_models::exact::Instances;
use dlx_core::{Limits, Problem, Solver};

use super::harness::{fixed, read_reference, xc_dir, Table};
use crate::flags::Flags;

/// The exact-cover problems timed by default.
const DEFAULT_PROBLEMS: &[&str] = &["queens14", "queens15", "langford12", "pentomino_6x10"];

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &[], &[])?;
    let dir = xc_dir();
    if !dir.is_dir() {
        println!("bench: {} is not here; nothing to time", dir.display());
        return Ok(());
    }
    let reference = read_reference(&dir.join("REFERENCE.md"))?;
    let names: Vec<String> = match flags.positional() {
        [] => DEFAULT_PROBLEMS.iter().map(|s| s.to_string()).collect(),
        names => names.to_vec(),
    };
    let table = Table::new(
        "problem -16|solutions 10|nodes 11|updates 12|seconds 8|classic s 9|ratio 7|dlx1 s 7|\
        ratio 7|Mupd/s 8",
    );
    let mut all_match = true;
    for name in names {
        let path = dir.join(format!("{name}.dlx"));
        let file = std::fs::File::open(&path).with_context(|| format!("{}", path.display()))?;
        let instance = Instances::new(std::io::BufReader::new(file), None)
            .next()
            .context("no problem in file")??;
        let mut solver = Solver::new(&instance.problem);
        let start = Instant::now();
        let stats = solver.count_with(&[], &Limits::none())?.stats;
        let seconds = start.elapsed().as_secs_f64();
        let mut classic = Classic::new(&instance.problem);
        let start = Instant::now();
        let classic_count = classic.count();
        let classic_seconds = start.elapsed().as_secs_f64();
        let mut mark = String::new();
        if (classic_count, classic.nodes) != (stats.solutions, stats.nodes) {
            mark.push_str(" MISMATCH with the classic search");
        }
        let dlx1 = match reference.iter().find(|r| r.name == name) {
            Some(r) => {
                if (r.solutions, r.nodes, r.updates)
                    != (stats.solutions, stats.nodes, stats.updates)
                {
                    mark.push_str(" MISMATCH with REFERENCE.md");
                }
                r.seconds
            }
            None => f64::NAN,
        };
        all_match &= mark.is_empty();
        table.row(&[
            &name,
            &stats.solutions,
            &stats.nodes,
            &stats.updates,
            &fixed(seconds, 3),
            &fixed(classic_seconds, 3),
            &fixed(seconds / classic_seconds, 2),
            &fixed(dlx1, 2),
            &fixed(seconds / dlx1, 2),
            &fixed(stats.updates as f64 / seconds / 1e6, 1),
            &mark,
        ]);
    }
    if !all_match {
        bail!("some counts differ from REFERENCE.md");
    }
    Ok(())
}

/// The contest template's DLX, the classic structure of the seed programs
/// (`shared/seeds/000_*.txt`): arrays `L R U D C S`, recursion, the
/// smallest-column rule; secondary columns are left out of the header
/// row, so they are never chosen. A yardstick, not part of the product.
pub struct Classic {
    l: Vec<usize>,
    r: Vec<usize>,
    u: Vec<usize>,
    d: Vec<usize>,
    c: Vec<usize>,
    s: Vec<usize>,
    /// Search nodes, counted as `shared/xc/README.md` says (levels entered
    /// and solutions), to show both programs ran the same search.
    pub nodes: u64,
    solutions: u64,
    /// Stop when this many solutions are found.
    limit: u64,
}

impl Classic {
    /// Builds the arrays: node 0 is the root, columns are `1..=items`, then
    /// each row's nodes in a circular left-right list.
    pub fn new(problem: &Problem) -> Classic {
        let mut x = Classic {
            l: Vec::new(),
            r: Vec::new(),
            u: Vec::new(),
            d: Vec::new(),
            c: Vec::new(),
            s: Vec::new(),
            nodes: 0,
            solutions: 0,
            limit: u64::MAX,
        };
        x.reset(problem.item_count(), problem.primary_count());
        for option in problem.options() {
            x.add_row(option.iter().map(|&item| item as usize));
        }
        x
    }

    /// Empties the structure for a new problem of `columns` items, the
    /// first `primary` of them primary (the contest programs' `init`; the
    /// arrays keep their memory, as the programs' static arrays do).
    pub fn reset(&mut self, columns: usize, primary: usize) {
        for v in [
            &mut self.l,
            &mut self.r,
            &mut self.u,
            &mut self.d,
            &mut self.c,
        ] {
            v.clear();
        }
        self.s.clear();
        self.s.resize(columns + 1, 0);
        for i in 0..=columns {
            self.u.push(i);
            self.d.push(i);
            self.c.push(i);
            if i <= primary {
                self.l.push(if i == 0 { primary } else { i - 1 });
                self.r.push(if i == primary { 0 } else { i + 1 });
            } else {
                self.l.push(i);
                self.r.push(i);
            }
        }
    }

    /// Adds a row of the given items (from 0), in a circle.
    pub fn add_row(&mut self, items: impl Iterator<Item = usize>) {
        let first = self.c.len();
        for item in items {
            let column = item + 1;
            let p = self.c.len();
            self.c.push(column);
            self.u.push(self.u[column]);
            self.d.push(column);
            let up = self.u[column];
            self.d[up] = p;
            self.u[column] = p;
            self.s[column] += 1;
            self.l.push(p.saturating_sub(1).max(first));
            self.r.push(p + 1);
        }
        // Close the circle.
        let last = self.c.len() - 1;
        self.l[first] = last;
        self.r[last] = first;
    }

    fn remove(&mut self, c: usize) {
        let (l, r) = (self.l[c], self.r[c]);
        self.l[r] = l;
        self.r[l] = r;
        let mut i = self.d[c];
        while i != c {
            let mut j = self.r[i];
            while j != i {
                let (u, d) = (self.u[j], self.d[j]);
                self.u[d] = u;
                self.d[u] = d;
                self.s[self.c[j]] -= 1;
                j = self.r[j];
            }
            i = self.d[i];
        }
    }

    fn resume(&mut self, c: usize) {
        let mut i = self.u[c];
        while i != c {
            let mut j = self.l[i];
            while j != i {
                let (u, d) = (self.u[j], self.d[j]);
                self.u[d] = j;
                self.d[u] = j;
                self.s[self.c[j]] += 1;
                j = self.l[j];
            }
            i = self.u[i];
        }
        let (l, r) = (self.l[c], self.r[c]);
        self.l[r] = c;
        self.r[l] = c;
    }

    fn dance(&mut self) {
        self.nodes += 1;
        let mut c = self.r[0];
        let mut i = c;
        while i != 0 {
            if self.s[i] < self.s[c] {
                c = i;
            }
            i = self.r[i];
        }
        self.remove(c);
        let mut row = self.d[c];
        while row != c {
            let mut j = self.r[row];
            while j != row {
                self.remove(self.c[j]);
                j = self.r[j];
            }
            if self.r[0] == 0 {
                self.nodes += 1;
                self.solutions += 1;
            } else {
                self.dance();
            }
            let mut j = self.l[row];
            while j != row {
                self.resume(self.c[j]);
                j = self.l[j];
            }
            if self.solutions >= self.limit {
                // Unwind as the contest programs do: restore and return.
                break;
            }
            row = self.d[row];
        }
        self.resume(c);
    }

    /// Counts all solutions.
    pub fn count(&mut self) -> u64 {
        self.count_to(u64::MAX)
    }

    /// Counts solutions, stopping at `limit` (1: whether there is one, as
    /// the contest sudoku programs search).
    pub fn count_to(&mut self, limit: u64) -> u64 {
        self.limit = limit;
        self.solutions = 0;
        self.nodes = 0;
        if self.r[0] == 0 {
            return 1;
        }
        self.dance();
        self.solutions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_queens_like_the_engine() {
        for n in 1..=8 {
            let queens = cover_models::queens::Queens::new(n).unwrap();
            let expected = dlx_core::Solver::new(queens.problem())
                .count_with(&[], &dlx_core::Limits::none())
                .unwrap()
                .stats;
            let mut classic = Classic::new(queens.problem());
            assert_eq!(classic.count(), expected.solutions, "n = {n}");
            assert_eq!(classic.nodes, expected.nodes, "n = {n}");
            let first = classic.count_to(1);
            assert_eq!(first, expected.solutions.min(1), "n = {n}");
            // And the links are whole again: a full count still works.
            assert_eq!(classic.count(), expected.solutions, "n = {n}");
        }
    }
}
