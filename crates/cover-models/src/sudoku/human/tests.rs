//! Tests of the solver as a whole: paths checked against the solution.

use super::testing::walk;
use super::Catalogue;

#[test]
fn an_empty_catalogue_leaves_a_puzzle_unsolved_and_sound() {
    let rated = walk(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        Catalogue::Rating,
    );
    assert!(rated.rating.0 <= 200);
}
