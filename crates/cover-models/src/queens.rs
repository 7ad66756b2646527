//! N queens as exact cover, in Knuth's formulation.
//!
//! Primary items are the ranks `r0..r(N-1)` and the files `c0..c(N-1)`, each
//! listed in "organ-pipe" order (middle first: for N = 4, `r2 r1 r3 r0`),
//! which makes the smallest-item rule branch on the most constrained lines
//! first; secondary items are the diagonals `aK` (K = rank + file) and `bK`
//! (K = N - 1 - rank + file), covered at most once. Option `rank * N + file`
//! puts a queen on that square. [`Queens::knuth_text`] writes the same
//! problem in Knuth's text format, byte for byte as `shared/xc/queensN.dlx`.

use std::fmt::Write as _;

use dlx_core::{Problem, ProblemBuilder};
use thiserror::Error;

/// The largest board, for memory: its problem has `5N² + 6N` nodes, some
/// 24 bytes each with the links of a search, so 1800×1800 (16.2 million
/// nodes) takes about 400 MB; 4096×4096 took 2 GB.
pub const MAX_N: usize = 1800;

/// A board size that cannot be modelled.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QueensError {
    /// N = 0.
    #[error("the board needs at least one square (N >= 1)")]
    Empty,
    /// N above [`MAX_N`].
    #[error("N = {0} is too large (at most {max})", max = MAX_N)]
    TooLarge(usize),
}

/// The N-queens problem for one N.
#[derive(Debug, Clone)]
pub struct Queens {
    n: usize,
    problem: Problem,
}

/// `0..n` in organ-pipe order, middle first: `n / 2`, then one below, one
/// above, two below, two above, ... (for 4: 2 1 3 0; for 5: 2 1 3 0 4).
pub fn organ_pipe(n: usize) -> Vec<usize> {
    let middle = n / 2;
    let mut order = Vec::with_capacity(n);
    if n == 0 {
        return order;
    }
    order.push(middle);
    for step in 1..=middle {
        order.push(middle - step);
        if middle + step < n {
            order.push(middle + step);
        }
    }
    order
}

impl Queens {
    /// Builds the problem for an N×N board.
    pub fn new(n: usize) -> Result<Queens, QueensError> {
        if n == 0 {
            return Err(QueensError::Empty);
        }
        if n > MAX_N {
            return Err(QueensError::TooLarge(n));
        }
        let diagonals = 2 * n - 1;
        // Item numbers: ranks then files in organ-pipe order, then the a
        // and b diagonals in order.
        let mut rank_item = vec![0; n];
        let mut file_item = vec![0; n];
        for (position, line) in organ_pipe(n).into_iter().enumerate() {
            rank_item[line] = position;
            file_item[line] = n + position;
        }
        let mut builder = ProblemBuilder::new(2 * n, 2 * diagonals);
        for (rank, &rank_item) in rank_item.iter().enumerate() {
            for (file, &file_item) in file_item.iter().enumerate() {
                let a = 2 * n + rank + file;
                let b = 2 * n + diagonals + (n - 1 - rank + file);
                builder
                    .add_option([rank_item, file_item, a, b])
                    .expect("every queens option names four distinct items");
            }
        }
        Ok(Queens {
            n,
            problem: builder.build(),
        })
    }

    /// The board size N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The option that puts a queen on (`rank`, `file`).
    pub fn option(&self, rank: usize, file: usize) -> usize {
        rank * self.n + file
    }

    /// The file of the queen in each rank, from a solution's options.
    pub fn board(&self, solution: &[usize]) -> Vec<usize> {
        let mut files = vec![usize::MAX; self.n];
        for &option in solution {
            files[option / self.n] = option % self.n;
        }
        files
    }

    /// The problem in Knuth's text format.
    pub fn knuth_text(&self) -> String {
        let n = self.n;
        let mut names: Vec<String> = Vec::new();
        names.extend(organ_pipe(n).iter().map(|i| format!("r{i}")));
        names.extend(organ_pipe(n).iter().map(|j| format!("c{j}")));
        names.push("|".to_owned());
        names.extend((0..2 * n - 1).map(|k| format!("a{k}")));
        names.extend((0..2 * n - 1).map(|k| format!("b{k}")));
        let mut text = names.join(" ");
        text.push('\n');
        for rank in 0..n {
            for file in 0..n {
                let (a, b) = (rank + file, n - 1 - rank + file);
                writeln!(text, "r{rank} c{file} a{a} b{b}").expect("writing to a String");
            }
        }
        text
    }

    /// The ways to start a symmetry-reduced count: each is a given option
    /// (a queen on the first rank) and a weight. A board and its mirror
    /// image have their first-rank queens in mirrored files, so counting
    /// the queens in the left half twice, and the middle file of an odd
    /// board once, counts every board exactly once.
    pub fn symmetric_starts(&self) -> Vec<(usize, u64)> {
        let n = self.n;
        let mut starts: Vec<(usize, u64)> =
            (0..n / 2).map(|file| (self.option(0, file), 2)).collect();
        if n % 2 == 1 {
            starts.push((self.option(0, n / 2), 1));
        }
        starts
    }
}

/// Draws a board: one line per rank, `Q` for the queen and `.` elsewhere.
pub fn draw(files: &[usize]) -> String {
    let n = files.len();
    let mut text = String::with_capacity(n * (n + 1));
    for &file in files {
        for column in 0..n {
            text.push(if column == file { 'Q' } else { '.' });
        }
        text.push('\n');
    }
    text
}

/// Whether `files` (the file of the queen in each rank) is a solution: one
/// queen per rank and file, no two on a diagonal. Independent of the model
/// and the engine, for tests and checks.
pub fn is_solution(files: &[usize]) -> bool {
    let n = files.len();
    for (rank, &file) in files.iter().enumerate() {
        if file >= n {
            return false;
        }
        for (other_rank, &other_file) in files.iter().enumerate().skip(rank + 1) {
            let same_file = file == other_file;
            let diagonal = file.abs_diff(other_file) == other_rank - rank;
            if same_file || diagonal {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use dlx_core::{Control, Limits, Solver};

    use super::*;

    /// OEIS A000170.
    const COUNTS: [u64; 11] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];

    #[test]
    fn organ_pipe_orders() {
        assert_eq!(organ_pipe(1), [0]);
        assert_eq!(organ_pipe(4), [2, 1, 3, 0]);
        assert_eq!(organ_pipe(5), [2, 1, 3, 0, 4]);
        for n in 0..=20 {
            let mut sorted = organ_pipe(n);
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn counts_and_every_board_is_valid() {
        for (k, &expected) in COUNTS.iter().enumerate() {
            let queens = Queens::new(k + 1).unwrap();
            let mut solver = Solver::new(queens.problem());
            let mut count = 0;
            solver
                .search(&[], &Limits::none(), &mut |s: &[usize]| {
                    assert!(is_solution(&queens.board(s)), "{:?}", queens.board(s));
                    count += 1;
                    Control::Continue
                })
                .unwrap();
            assert_eq!(count, expected, "N = {}", k + 1);
        }
    }

    #[test]
    fn symmetric_count_equals_plain_count() {
        for (k, &expected) in COUNTS.iter().enumerate() {
            let queens = Queens::new(k + 1).unwrap();
            let mut solver = Solver::new(queens.problem());
            let total: u64 = queens
                .symmetric_starts()
                .into_iter()
                .map(|(option, weight)| {
                    weight
                        * solver
                            .count_with(&[option], &Limits::none())
                            .unwrap()
                            .stats
                            .solutions
                })
                .sum();
            assert_eq!(total, expected, "N = {}", k + 1);
        }
    }

    #[test]
    fn knuth_text_of_four() {
        let text = Queens::new(4).unwrap().knuth_text();
        let first = text.lines().next().unwrap();
        assert_eq!(
            first,
            "r2 r1 r3 r0 c2 c1 c3 c0 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6"
        );
        assert_eq!(text.lines().nth(1), Some("r0 c0 a0 b3"));
        assert_eq!(text.lines().count(), 17);
    }

    #[test]
    fn checker_rejects_bad_boards() {
        assert!(is_solution(&[1, 3, 0, 2]));
        assert!(!is_solution(&[0, 1, 2, 3]));
        assert!(!is_solution(&[1, 1, 0, 2]));
        assert!(!is_solution(&[1, 3, 0, 4]));
        assert_eq!(draw(&[1, 3, 0, 2]), ".Q..\n...Q\nQ...\n..Q.\n");
    }

    #[test]
    fn sizes_out_of_range() {
        assert_eq!(Queens::new(0).unwrap_err(), QueensError::Empty);
        assert_eq!(
            Queens::new(MAX_N + 1).unwrap_err(),
            QueensError::TooLarge(MAX_N + 1)
        );
    }
}
