//! The sudoku grid checker for every size `n² × n²`, written from the
//! rules: rows, columns and boxes each hold `1..=side` once, and the
//! givens stay.
//!
//! It knows no engine and no puzzle format: cells come as digits.

/// Cells: 0 empty, 1..=side a digit; `side` = n² (4, 9, 16, 25, …). Ok when `solution` is a full
/// grid, every row, column and box a permutation, and it keeps every given of `puzzle`.
pub fn check_solution(puzzle: &[u8], solution: &[u8], side: usize) -> Result<(), String> {
    let n = (1..=side).find(|n| n * n >= side).unwrap_or(0);
    if side == 0 || n * n != side {
        return Err(format!("side {side} is not a square"));
    }
    if puzzle.len() != side * side || solution.len() != side * side {
        return Err(format!(
            "{} cells and {} in the solution, for {} expected",
            puzzle.len(),
            solution.len(),
            side * side
        ));
    }
    if let Some(cell) = (0..side * side).find(|&c| puzzle[c] != 0 && puzzle[c] != solution[c]) {
        return Err(format!(
            "cell {} changes the given {}",
            cell + 1,
            puzzle[cell]
        ));
    }
    let units = [
        (
            "row",
            &(|u: usize, k: usize| u * side + k) as &dyn Fn(usize, usize) -> usize,
        ),
        ("column", &|u, k| k * side + u),
        ("box", &|u, k| {
            (u / n * n + k / n) * side + u % n * n + k % n
        }),
    ];
    for (unit, cell_at) in units {
        for u in 0..side {
            let mut seen = vec![false; side + 1];
            for k in 0..side {
                let digit = usize::from(solution[cell_at(u, k)]);
                if !(1..=side).contains(&digit) || std::mem::replace(&mut seen[digit], true) {
                    return Err(format!(
                        "{unit} {} is not a permutation of 1..={side}",
                        u + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid grid of box side `n`: the classic shifted pattern.
    fn grid(n: usize) -> Vec<u8> {
        let side = n * n;
        (0..side * side)
            .map(|c| ((c / side % n * n + c / side / n + c % side) % side + 1) as u8)
            .collect()
    }

    #[test]
    fn accepts_valid_grids_of_every_size() {
        for n in 1..=5 {
            let solution = grid(n);
            let mut puzzle = vec![0; solution.len()];
            puzzle[0] = solution[0];
            assert_eq!(check_solution(&puzzle, &solution, n * n), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn rejects_broken_grids_and_lost_givens() {
        let solution = grid(3);
        let mut puzzle = vec![0; 81];
        puzzle[5] = solution[5] % 9 + 1;
        assert!(check_solution(&puzzle, &solution, 9)
            .unwrap_err()
            .contains("cell 6"));
        let mut swapped = solution.clone();
        swapped.swap(0, 1);
        assert!(check_solution(&[0; 81], &swapped, 9)
            .unwrap_err()
            .contains("column 1"));
        let mut empty = solution.clone();
        empty[40] = 0;
        assert!(check_solution(&[0; 81], &empty, 9).is_err());
        // Rows and columns right, boxes wrong: a cyclic Latin square.
        let latin: Vec<u8> = (0..81).map(|c| ((c / 9 + c % 9) % 9 + 1) as u8).collect();
        assert!(check_solution(&[0; 81], &latin, 9)
            .unwrap_err()
            .contains("box"));
        assert!(check_solution(&[0; 80], &solution, 9).is_err());
        assert!(check_solution(&[0; 36], &[1; 36], 6).is_err());
    }
}
