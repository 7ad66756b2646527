//! N queens, checked from the rules: a board places one queen per rank and
//! file and no two on a diagonal; the counts are OEIS A000170.
//!
//! It must not know the engines nor `cover queens`' models.

/// OEIS A000170: the number of N-queens solutions, N = 1, 2, ...
pub const A000170: [u64; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// Whether `files` (the file of the queen in each rank) places N queens
/// with none attacking another.
pub fn check_board(files: &[usize]) -> Result<(), String> {
    let n = files.len();
    for (rank, &file) in files.iter().enumerate() {
        if file >= n {
            return Err(format!("rank {rank}: file {file} is off the board"));
        }
        for (later, &other) in files.iter().enumerate().skip(rank + 1) {
            if other == file {
                return Err(format!("ranks {rank} and {later} share file {file}"));
            }
            if other.abs_diff(file) == later - rank {
                return Err(format!("ranks {rank} and {later} share a diagonal"));
            }
        }
    }
    Ok(())
}

/// Reads a text board (`Q` and `.`, one line per rank) into files.
pub fn read_board(lines: &[&str], n: usize) -> Result<Vec<usize>, String> {
    if lines.len() != n {
        return Err(format!("a board of {} lines, expected {n}", lines.len()));
    }
    lines
        .iter()
        .map(|line| {
            let queens: Vec<usize> = line.match_indices('Q').map(|(i, _)| i).collect();
            if line.len() != n || line.chars().any(|c| c != 'Q' && c != '.') {
                return Err(format!("line {line:?} is not {n} of `Q` and `.`"));
            }
            match queens[..] {
                [file] => Ok(file),
                _ => Err(format!("line {line:?} has {} queens", queens.len())),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_can_fail() {
        assert!(check_board(&[1, 3, 0, 2]).is_ok());
        assert!(check_board(&[0, 2, 4, 1, 3]).is_ok());
        assert!(check_board(&[0, 1, 2, 3]).is_err(), "diagonal");
        assert!(check_board(&[1, 1, 0, 2]).is_err(), "same file");
        assert!(check_board(&[1, 3, 0, 9]).is_err(), "off the board");
    }

    #[test]
    fn boards_are_read_strictly() {
        assert_eq!(
            read_board(&[".Q..", "...Q", "Q...", "..Q."], 4),
            Ok(vec![1, 3, 0, 2])
        );
        assert!(read_board(&[".Q..", "...Q", "Q..."], 4).is_err());
        assert!(read_board(&[".QQ.", "...Q", "Q...", "..Q."], 4).is_err());
        assert!(read_board(&[".Q.", "...Q", "Q...", "..Q."], 4).is_err());
        assert!(read_board(&[".X..", "...Q", "Q...", "..Q."], 4).is_err());
    }
}
