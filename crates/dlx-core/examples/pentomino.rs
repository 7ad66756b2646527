//! The twelve pentominoes packed into a 6×10 rectangle, as exact cover:
//! one primary item per piece and per cell, one option per placement of
//! a piece (each of its rotations and reflections, at each position).
//!
//! The rectangle has four symmetries (itself, two reflections, a half
//! turn), so every packing comes in four copies. Allowing the X piece,
//! which all four leave unchanged, only centred in the upper left
//! quarter keeps exactly one of them (its centre then never lies on an
//! axis of a 6×10 board): 2,339 packings, against 9,356 in all.
//!
//! Run with `cargo run --release -p dlx-core --example pentomino`.

use dlx_core::{Control, Limits, Problem, Solver};

/// Each piece as cells `(row, column)` of one orientation.
const PIECES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations of `cells`: the eight rotations and
/// reflections, each moved to row 0 and column 0, duplicates dropped.
fn orientations(cells: &[(i32, i32); 5]) -> Vec<Vec<(i32, i32)>> {
    let mut all: Vec<Vec<(i32, i32)>> = Vec::new();
    for turn in 0..8 {
        let mut shape: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if turn >= 4 { (r, -c) } else { (r, c) };
                match turn % 4 {
                    0 => (r, c),
                    1 => (c, -r),
                    2 => (-r, -c),
                    _ => (-c, r),
                }
            })
            .collect();
        let top = shape.iter().map(|p| p.0).min().unwrap_or(0);
        let left = shape.iter().map(|p| p.1).min().unwrap_or(0);
        for p in &mut shape {
            *p = (p.0 - top, p.1 - left);
        }
        shape.sort_unstable();
        if !all.contains(&shape) {
            all.push(shape);
        }
    }
    all
}

/// The packings of a `rows`×`columns` board (60 cells), each
/// placement an option named by its piece and cells. With
/// `break_symmetry`, the X is centred only in the upper left quarter.
fn problem(rows: i32, columns: i32, break_symmetry: bool) -> (Problem, Vec<(char, Vec<usize>)>) {
    let cell_count = (rows * columns) as usize;
    let mut builder = Problem::builder(PIECES.len() + cell_count, 0);
    let mut placements = Vec::new();
    for (piece, (name, cells)) in PIECES.iter().enumerate() {
        for shape in orientations(cells) {
            for top in 0..rows {
                for left in 0..columns {
                    let placed: Vec<(i32, i32)> =
                        shape.iter().map(|&(r, c)| (r + top, c + left)).collect();
                    if placed.iter().any(|&(r, c)| r >= rows || c >= columns) {
                        continue;
                    }
                    // The X's centre is its cell with the middle row
                    // and column: (top + 1, left + 1).
                    if break_symmetry
                        && *name == 'X'
                        && (2 * (top + 1) >= rows - 1 || 2 * (left + 1) >= columns - 1)
                    {
                        continue;
                    }
                    let cells: Vec<usize> = placed
                        .iter()
                        .map(|&(r, c)| (r * columns + c) as usize)
                        .collect();
                    let items =
                        std::iter::once(piece).chain(cells.iter().map(|c| PIECES.len() + c));
                    builder.add_option(items).expect("a valid placement");
                    placements.push((*name, cells));
                }
            }
        }
    }
    (builder.build(), placements)
}

/// The board of one solution, a piece letter per cell.
fn draw(columns: usize, placements: &[(char, Vec<usize>)], chosen: &[usize]) -> String {
    let mut board = vec!['.'; 60];
    for &option in chosen {
        let (name, cells) = &placements[option];
        for &cell in cells {
            board[cell] = *name;
        }
    }
    board
        .chunks(columns)
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() {
    let (problem, placements) = problem(6, 10, true);
    let mut solver = Solver::new(&problem);
    let mut first = None;
    let report = solver
        .search(&[], &Limits::none(), &mut |chosen: &[usize]| {
            first.get_or_insert_with(|| chosen.to_vec());
            Control::Continue
        })
        .expect("no givens");
    println!(
        "{} options; {} packings up to symmetry ({} nodes, {} updates)",
        problem.option_count(),
        report.stats.solutions,
        report.stats.nodes,
        report.stats.updates
    );
    if let Some(chosen) = first {
        println!("the first:\n{}", draw(10, &placements, &chosen));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pieces_have_their_known_orientation_counts() {
        let counts: Vec<usize> = PIECES
            .iter()
            .map(|(_, cells)| orientations(cells).len())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    }

    #[test]
    fn a_6_by_10_board_has_2339_packings_up_to_symmetry() {
        let (broken, placements) = problem(6, 10, true);
        let mut solver = Solver::new(&broken);
        let mut checked = 0u64;
        solver
            .search(&[], &Limits::none(), &mut |chosen: &[usize]| {
                // Every cell covered by one piece, every piece used once.
                let board = draw(10, &placements, chosen);
                assert!(!board.contains('.'), "{board}");
                let mut pieces: Vec<char> = chosen.iter().map(|&o| placements[o].0).collect();
                pieces.sort_unstable();
                assert_eq!(pieces.iter().collect::<String>(), "FILNPTUVWXYZ");
                checked += 1;
                Control::Continue
            })
            .unwrap();
        assert_eq!(checked, 2339);
        let (whole, _) = problem(6, 10, false);
        assert_eq!(Solver::new(&whole).count(), 4 * 2339);
    }
}
