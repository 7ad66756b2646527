//! Wings: a few cells whose candidates force a digit out of every cell
//! that sees all the cells where it could end up.
//!
//! - XY-Wing (SE 4.2): a bivalue pivot `xy` seeing pincers `xz` and `yz`;
//!   `z` goes from the cells seeing both pincers.
//! - XYZ-Wing (SE 4.4): the pivot `xyz`; `z` goes from the cells seeing all
//!   three.
//! - W-Wing (not in SE; 4.4 here, after XYZ-Wing as HoDoKu orders them):
//!   two bivalue cells `xy` joined by a strong link on `x`; `y` goes from
//!   the cells seeing both.
//! - WXYZ- to TUVWXYZ-Wing (SE 5.5–5.6, 6.2–6.4, 6.6, 7.5): an almost
//!   locked set of 3 to 6 cells in one unit (one digit more than cells) and
//!   a bivalue cell `xz` outside it, seeing every cell of the set that
//!   holds `x`; `z` goes from the cells seeing all its places in the wing.
//!   When `z` is restricted as well (doubly linked), both digits go from
//!   the cells seeing their places and the set's other digits are locked.
//!   SE rates the 4- and 5-digit wings by the most candidates in one cell
//!   of the set: middling counts are harder (`WXYZWingHint`).

use super::board::Board;
use super::step::{Candidate, Step, Technique};

/// The digits of a mask, as `1..` digits.
fn digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

/// Cells holding `digit` that see every cell of `cells` (and are none).
fn common_victims(board: &Board, cells: &[usize], digit: u8, out: &mut Vec<Candidate>) {
    let geometry = board.geometry();
    let Some(&first) = cells.first() else {
        return;
    };
    for &peer in geometry.peers(first) {
        let c = usize::from(peer);
        if board.has(c, digit)
            && !cells.contains(&c)
            && cells[1..].iter().all(|&o| geometry.sees(c, o))
            && !out
                .iter()
                .any(|v| usize::from(v.cell) == c && v.digit == digit)
        {
            out.push(Candidate::new(c, digit));
        }
    }
}

fn wing_step(technique: Technique, rating: u16, cells: &[usize], digits: u64) -> Step {
    let mut step = Step::new(technique, rating);
    step.pattern.cells = cells.iter().map(|&c| c as u16).collect();
    step.pattern.digits = digits;
    step
}

/// XY-Wings (SE 4.2).
pub(super) fn xy_wing(board: &Board, found: &mut Vec<Step>) {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    for pivot in 0..cells {
        let xy = board.candidates(pivot);
        if xy.count_ones() != 2 {
            continue;
        }
        let peers = geometry.peers(pivot);
        for (i, &a) in peers.iter().enumerate() {
            let xz = board.candidates(usize::from(a));
            if xz.count_ones() != 2 || (xz & xy).count_ones() != 1 {
                continue;
            }
            for &b in &peers[i + 1..] {
                let yz = board.candidates(usize::from(b));
                let z = xz & yz;
                if yz.count_ones() != 2
                    || z.count_ones() != 1
                    || z & xy != 0
                    || xy | xz | yz != xy | z
                {
                    continue;
                }
                let z_digit = z.trailing_zeros() as u8 + 1;
                let pincers = [usize::from(a), usize::from(b)];
                let mut eliminations = Vec::new();
                common_victims(board, &pincers, z_digit, &mut eliminations);
                eliminations.retain(|e| usize::from(e.cell) != pivot);
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = wing_step(
                    Technique::XYWing,
                    42,
                    &[pivot, pincers[0], pincers[1]],
                    xy | z,
                );
                step.pattern.candidates = vec![
                    Candidate::new(pincers[0], z_digit),
                    Candidate::new(pincers[1], z_digit),
                ];
                step.eliminations = eliminations;
                found.push(step);
            }
        }
    }
}

/// XYZ-Wings (SE 4.4).
pub(super) fn xyz_wing(board: &Board, found: &mut Vec<Step>) {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    for pivot in 0..cells {
        let xyz = board.candidates(pivot);
        if xyz.count_ones() != 3 {
            continue;
        }
        let peers = geometry.peers(pivot);
        for (i, &a) in peers.iter().enumerate() {
            let xz = board.candidates(usize::from(a));
            if xz.count_ones() != 2 || xz & !xyz != 0 {
                continue;
            }
            for &b in &peers[i + 1..] {
                let yz = board.candidates(usize::from(b));
                let z = xz & yz;
                if yz.count_ones() != 2 || yz & !xyz != 0 || z.count_ones() != 1 {
                    continue;
                }
                let z_digit = z.trailing_zeros() as u8 + 1;
                let wing = [pivot, usize::from(a), usize::from(b)];
                let mut eliminations = Vec::new();
                common_victims(board, &wing, z_digit, &mut eliminations);
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = wing_step(Technique::XYZWing, 44, &wing, xyz);
                step.pattern.candidates =
                    wing.iter().map(|&c| Candidate::new(c, z_digit)).collect();
                step.eliminations = eliminations;
                found.push(step);
            }
        }
    }
}

/// W-Wings (not in SE: teaching only, 4.4).
pub(super) fn w_wing(board: &Board, found: &mut Vec<Step>) {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    let bivalues: Vec<usize> = (0..cells)
        .filter(|&c| board.candidates(c).count_ones() == 2)
        .collect();
    for (i, &a) in bivalues.iter().enumerate() {
        let mask = board.candidates(a);
        for &b in &bivalues[i + 1..] {
            if board.candidates(b) != mask || geometry.sees(a, b) {
                continue;
            }
            for link in digits(mask) {
                let other = digits(mask & !(1 << (link - 1))).next().unwrap_or(link);
                let mut eliminations = Vec::new();
                common_victims(board, &[a, b], other, &mut eliminations);
                if eliminations.is_empty() {
                    continue;
                }
                // A unit where `link` has two places, one seeing each cell.
                let bridge = (0..geometry.units()).find_map(|unit| {
                    let positions = board.positions(unit, link);
                    if positions.count_ones() != 2 {
                        return None;
                    }
                    let unit_cells = geometry.unit_cells(unit);
                    let p = usize::from(unit_cells[positions.trailing_zeros() as usize]);
                    let q = usize::from(unit_cells[63 - positions.leading_zeros() as usize]);
                    if [p, q].iter().any(|c| *c == a || *c == b) {
                        return None;
                    }
                    if geometry.sees(p, a) && geometry.sees(q, b) {
                        Some((unit, p, q))
                    } else if geometry.sees(q, a) && geometry.sees(p, b) {
                        Some((unit, q, p))
                    } else {
                        None
                    }
                });
                let Some((unit, p, q)) = bridge else {
                    continue;
                };
                let mut step = wing_step(Technique::WWing, 44, &[a, b, p, q], mask);
                step.pattern.units = vec![unit as u16];
                step.pattern.candidates = vec![
                    Candidate::new(a, link),
                    Candidate::new(p, link),
                    Candidate::new(q, link),
                    Candidate::new(b, link),
                ];
                step.eliminations = eliminations;
                found.push(step);
            }
        }
    }
}

/// The almost locked set wings with a set of `size` cells, sorted as SE
/// sorts them: by value, then most eliminations first.
fn als_wings(board: &Board, size: usize, found: &mut Vec<Step>) {
    let first = found.len();
    als_wings_in_scan_order(board, size, found);
    found[first..].sort_by_key(|s| (s.rating, std::cmp::Reverse(s.eliminations.len())));
}

fn als_wings_in_scan_order(board: &Board, size: usize, found: &mut Vec<Step>) {
    let geometry = board.geometry();
    let cells = board.side() * board.side();
    let bivalues: Vec<usize> = (0..cells)
        .filter(|&c| board.candidates(c).count_ones() == 2)
        .collect();
    if bivalues.is_empty() {
        return;
    }
    let mut set = Vec::with_capacity(size);
    for unit in 0..geometry.units() {
        // The unit's empty cells that could belong to such a set.
        let open: Vec<usize> = geometry
            .unit_cells(unit)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| (2..=size + 1).contains(&(board.candidates(c).count_ones() as usize)))
            .collect();
        if open.len() < size {
            continue;
        }
        let context = Wing {
            board,
            unit,
            size,
            bivalues: &bivalues,
        };
        context.choose(&open, 0, 0, &mut set, found);
    }
}

/// One unit's search for almost locked set wings.
struct Wing<'a, 'g> {
    board: &'a Board<'g>,
    unit: usize,
    size: usize,
    bivalues: &'a [usize],
}

impl Wing<'_, '_> {
    /// Adds cells of `open` from `from` on to `set`, keeping at most
    /// `size + 1` digits, and tries each full set.
    fn choose(
        &self,
        open: &[usize],
        from: usize,
        digits: u64,
        set: &mut Vec<usize>,
        found: &mut Vec<Step>,
    ) {
        if set.len() == self.size {
            if digits.count_ones() as usize == self.size + 1 {
                self.pincers(set, digits, found);
            }
            return;
        }
        let needed = self.size - set.len();
        for i in from..=open.len().saturating_sub(needed) {
            let union = digits | self.board.candidates(open[i]);
            if union.count_ones() as usize > self.size + 1 {
                continue;
            }
            set.push(open[i]);
            self.choose(open, i + 1, union, set, found);
            set.pop();
        }
    }

    /// Each bivalue cell that makes `set` a wing.
    fn pincers(&self, set: &[usize], union: u64, found: &mut Vec<Step>) {
        let geometry = self.board.geometry();
        // A set in two units (a row inside a box) is taken in the first.
        let first = set[0];
        let shared: Vec<usize> = geometry
            .units_of(first)
            .iter()
            .map(|&u| usize::from(u))
            .filter(|&u| set.iter().all(|&c| geometry.in_unit(c, u)))
            .collect();
        if shared.iter().min() != Some(&self.unit) {
            return;
        }
        let holders = |digit: u8| {
            set.iter()
                .copied()
                .filter(move |&c| self.board.has(c, digit))
        };
        for &pincer in self.bivalues {
            let mask = self.board.candidates(pincer);
            if mask & !union != 0 || set.contains(&pincer) {
                continue;
            }
            let restricted: Vec<u8> = digits(mask)
                .filter(|&d| holders(d).all(|c| geometry.sees(c, pincer)))
                .collect();
            if restricted.is_empty() {
                continue;
            }
            let double = restricted.len() == 2;
            let mut eliminations = Vec::new();
            for z in digits(mask) {
                if !double && restricted.contains(&z) {
                    continue;
                }
                let mut wing: Vec<usize> = holders(z).collect();
                wing.push(pincer);
                common_victims(self.board, &wing, z, &mut eliminations);
            }
            if double {
                // The set is locked: its other digits stay in it.
                for w in digits(union & !mask) {
                    let wing: Vec<usize> = holders(w).collect();
                    common_victims(self.board, &wing, w, &mut eliminations);
                }
            }
            eliminations
                .retain(|e| !set.contains(&usize::from(e.cell)) && usize::from(e.cell) != pincer);
            if eliminations.is_empty() {
                continue;
            }
            let most = set
                .iter()
                .map(|&c| self.board.candidates(c).count_ones())
                .max()
                .unwrap_or(2) as i32;
            let (technique, rating) = match self.size {
                3 => (Technique::WXYZWing, 55 + 1 - (3 - most).abs()),
                4 => (Technique::VWXYZWing, 62 + 2 - (3 - most).abs()),
                5 => (Technique::UVWXYZWing, 66),
                _ => (Technique::TUVWXYZWing, 75),
            };
            let mut cells = set.to_vec();
            cells.push(pincer);
            let mut step = wing_step(technique, rating as u16, &cells, union);
            step.pattern.units = vec![self.unit as u16];
            step.pattern.candidates = restricted
                .iter()
                .flat_map(|&x| {
                    holders(x)
                        .chain([pincer])
                        .map(move |c| Candidate::new(c, x))
                })
                .collect();
            step.eliminations = eliminations;
            found.push(step);
        }
    }
}

/// WXYZ-Wings: a 3-cell set (SE 5.5–5.6).
pub(super) fn wxyz_wing(board: &Board, found: &mut Vec<Step>) {
    als_wings(board, 3, found);
}

/// VWXYZ-Wings: a 4-cell set (SE 6.2–6.4).
pub(super) fn vwxyz_wing(board: &Board, found: &mut Vec<Step>) {
    als_wings(board, 4, found);
}

/// UVWXYZ-Wings: a 5-cell set (SE 6.6).
pub(super) fn uvwxyz_wing(board: &Board, found: &mut Vec<Step>) {
    als_wings(board, 5, found);
}

/// TUVWXYZ-Wings: a 6-cell set (SE 7.5, tried among the chains).
pub(super) fn tuvwxyz_wing(board: &Board, found: &mut Vec<Step>) {
    als_wings(board, 6, found);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        assert_sound, board_before, findings_along_path, fires_and_rates, nine, solution, walk,
    };
    use super::super::{Catalogue, Rating, Technique};

    /// Puzzles of se_rated.txt that SE rates by one of these wings: the
    /// wing's technique and value, which is the puzzle's rating.
    const RATED: &[(Technique, u16, &str)] = &[
        (
            Technique::XYWing,
            42,
            "300416005001308000000000040910020064500603002280040073040000000000201400100564009",
        ),
        (
            Technique::XYZWing,
            44,
            "900000708006004000300705040031609400000050000007403180060207004000800500709000001",
        ),
        (
            Technique::WXYZWing,
            55,
            "020000000000520061080001009000003507056070120807200000400100080230049000000000030",
        ),
        (
            Technique::WXYZWing,
            56,
            "600040052900605100050021000034000010205000307090000280000130060001507008560090001",
        ),
        (
            Technique::VWXYZWing,
            62,
            "071000920006000700080102050800000005000704000020080090000000000049508670030040010",
        ),
        (
            Technique::VWXYZWing,
            63,
            "800309000300050400056042000084020000003405800000080710000290340008030006000106002",
        ),
        (
            Technique::VWXYZWing,
            64,
            "030000060007000300900000004001508600705000409600907005100000008060080070008403200",
        ),
    ];

    #[test]
    fn each_wing_fires_soundly_and_rates_its_puzzle_as_se_does() {
        for &(technique, value, line) in RATED {
            let step = fires_and_rates(technique, value, line);
            assert!(!step.pattern.cells.is_empty() && step.pattern.digits != 0);
        }
    }

    #[test]
    fn w_wings_teach_soundly() {
        let line =
            "014000280008000600090503070100607004000050000300000008040805010006020800000090000";
        let (_, step) = board_before(&nine(), line, Catalogue::Teaching, |s| {
            s.technique == Technique::WWing
        })
        .expect("a W-Wing");
        assert_sound(&step, &solution(line));
        assert_eq!(step.pattern.cells.len(), 4);
        walk(line, Catalogue::Teaching);
    }

    #[test]
    fn uvwxyz_wings_fire_soundly_along_a_path() {
        // SE 1.17 and later rate this puzzle 6.6 by a UVWXYZ-Wing; the
        // rating set (1.15.10's) lacks it, so only its finder is checked.
        let line =
            "040068005060030000100000807009800003050000070300007900702000004000070050900480010";
        let found = findings_along_path(line, Catalogue::Rating, super::uvwxyz_wing);
        assert!(found
            .iter()
            .any(|s| s.technique == Technique::UVWXYZWing && s.rating == Rating(66)));
    }

    #[test]
    fn tuvwxyz_wings_fire_soundly_along_a_path() {
        // Its 7-digit sets abound on a fresh board.
        let line =
            "910700020004020000300090010000019704095070830807530000080050006000080500050003098";
        let found = findings_along_path(line, Catalogue::Rating, super::tuvwxyz_wing);
        assert!(found
            .iter()
            .any(|s| s.technique == Technique::TUVWXYZWing && s.rating == Rating(75)));
    }
}
