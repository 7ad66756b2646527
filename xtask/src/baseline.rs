//! The contest template's Dancing Links, as a baseline that `cargo xtask
//! bench` runs in the same process as the engine, so that the ratio between
//! the two holds on a busy machine where absolute times do not.
//!
//! This is the classic structure of the seed programs
//! (`shared/seeds/000_*.txt`): six parallel arrays `L R U D` (links),
//! `C` (column of a node), `S` (column sizes), recursion, `remove` and
//! `resume` of a column, and the smallest-column rule. Secondary columns
//! are simply left out of the header row, so they are never chosen but are
//! still removed when a row that holds them is chosen. It counts all
//! solutions; it is a yardstick, not part of the product.

use dlx_core::Problem;

/// The contest-style structure for one problem.
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
}

impl Classic {
    /// Builds the arrays: node 0 is the root, columns are `1..=items`, then
    /// each row's nodes in a circular left-right list.
    pub fn new(problem: &Problem) -> Classic {
        let columns = problem.item_count();
        let total = 1 + columns + problem.incidence_count();
        let mut x = Classic {
            l: vec![0; total],
            r: vec![0; total],
            u: vec![0; total],
            d: vec![0; total],
            c: vec![0; total],
            s: vec![0; columns + 1],
            nodes: 0,
            solutions: 0,
        };
        let primary = problem.primary_count();
        for i in 0..=columns {
            x.u[i] = i;
            x.d[i] = i;
            x.c[i] = i;
            if i <= primary {
                x.l[i] = if i == 0 { primary } else { i - 1 };
                x.r[i] = if i == primary { 0 } else { i + 1 };
            } else {
                x.l[i] = i;
                x.r[i] = i;
            }
        }
        let mut next = columns + 1;
        for option in problem.options() {
            let first = next;
            for &item in option {
                let column = item as usize + 1;
                let p = next;
                next += 1;
                x.c[p] = column;
                x.u[p] = x.u[column];
                x.d[p] = column;
                x.d[x.u[column]] = p;
                x.u[column] = p;
                x.s[column] += 1;
            }
            // The row's nodes are `first..next`, in a circle.
            let last = next - 1;
            for p in first..next {
                x.l[p] = if p == first { last } else { p - 1 };
                x.r[p] = if p == last { first } else { p + 1 };
            }
        }
        x
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
            row = self.d[row];
        }
        self.resume(c);
    }

    /// Counts all solutions.
    pub fn count(&mut self) -> u64 {
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
        }
    }
}
