//! Single-digit patterns as Sudoku Explainer rates them: chains of two,
//! three or four strong links on one digit (SE's "strong links" family).
//!
//! A strong link is a unit where the digit's places split into two
//! groups, one of which must hold it: two cells (a conjugate pair); or, in
//! SE's grouped form, a line whose places lie in two boxes, or a box whose
//! places lie on one row and one column (an empty rectangle) or on two
//! rows or two columns. Consecutive links are joined by a weak link: the
//! end of one and the start of the next share a unit, so one true stops
//! the other. Then the chain's first start or its last end holds the
//! digit, and a cell seeing both loses it. When the two ends see each
//! other too, the chain is a loop and each of its weak links eliminates.
//!
//! With two links these are the Skyscraper (parallel lines), Two-String
//! Kite (a row and a column), Turbot Fish (a box) and Empty Rectangle
//! (grouped); with three and four, SE's 3 and 4 Strong-Linked Fish.
//! Values: 4.0, 5.4, 5.8 for two, three, four links over parallel lines;
//! +0.1 with a box or with both line kinds, +0.2 with a box and both line
//! kinds, +0.3 when any link is grouped (as SE's `StrongLinksHint`).
//! SE's conventions are kept where they change what is found: a box's
//! conjugate pair on one line is left to the line, a unit with more than
//! `2·box_side` places gives no link, the units of the links hold no
//! place in common, and a chain's victims lie outside its units.

use crate::sudoku::logic::Geometry;

use super::board::Board;
use super::step::{Candidate, Node as ChainNode, Step, Technique};

/// The most cells in one group: a box-line segment (the box side, at most
/// 8 for masks of 64 digits).
const MAX_GROUP: usize = 8;

/// No unit: a group's cells share no row (or column, or box).
const NONE: u16 = u16::MAX;

/// One end of a strong link: cells of one digit in a row or column
/// segment of one box (or a single cell).
#[derive(Debug, Clone, Copy)]
struct Group {
    cells: [u16; MAX_GROUP],
    len: u8,
    /// The row, column and box all its cells share ([`NONE`] if not).
    units: [u16; 3],
}

impl Group {
    fn new(geometry: &Geometry, cells: &[u16]) -> Group {
        let mut group = Group {
            cells: [0; MAX_GROUP],
            len: cells.len() as u8,
            units: geometry.cell_units(usize::from(cells[0])).map(|u| u as u16),
        };
        group.cells[..cells.len()].copy_from_slice(cells);
        for &cell in &cells[1..] {
            let units = geometry.cell_units(usize::from(cell));
            for (shared, unit) in group.units.iter_mut().zip(units) {
                if usize::from(*shared) != unit {
                    *shared = NONE;
                }
            }
        }
        group
    }

    fn cells(&self) -> &[u16] {
        &self.cells[..usize::from(self.len)]
    }

    /// The unit two disjoint groups share, tried as SE does: column, row,
    /// box.
    fn shared_unit(&self, other: &Group) -> Option<u16> {
        [1, 0, 2]
            .into_iter()
            .find(|&k| self.units[k] != NONE && self.units[k] == other.units[k])
            .map(|k| self.units[k])
    }

    /// Whether `cell` (not in the group) sees each of its cells.
    fn seen_by(&self, geometry: &Geometry, cell: usize) -> bool {
        self.cells()
            .iter()
            .all(|&c| geometry.sees(cell, usize::from(c)))
    }

    fn contains(&self, cell: u16) -> bool {
        self.cells().contains(&cell)
    }
}

/// The kind of unit a link lives in, as a bit for the rating's mix.
const ROW: u8 = 1;
const COLUMN: u8 = 2;
const BOX: u8 = 4;

/// A strong link of one digit: one of its two groups holds the digit.
#[derive(Debug, Clone, Copy)]
struct Link {
    unit: u16,
    kind: u8,
    ends: [Group; 2],
    /// Whether it is one of SE's grouped links (three places or more).
    grouped: bool,
}

/// The strong links of `digit` on `board`, SE's grouped ones included.
fn strong_links(board: &Board, digit: u8) -> Vec<Link> {
    let geometry = board.geometry();
    let s = board.side();
    let n = geometry.box_side();
    let mut links = Vec::new();
    for unit in 0..geometry.units() {
        let cells = geometry.unit_cells(unit);
        let positions = board.positions(unit, digit);
        let count = positions.count_ones() as usize;
        if count < 2 || count > 2 * n || n > MAX_GROUP {
            continue;
        }
        let places: Vec<u16> = (0..s)
            .filter(|i| positions >> i & 1 == 1)
            .map(|i| cells[i])
            .collect();
        let kind = match unit / s {
            0 => ROW,
            1 => COLUMN,
            _ => BOX,
        };
        let mut push = |a: &[u16], b: &[u16], grouped: bool| {
            if a.is_empty() || b.is_empty() || a.len() > MAX_GROUP || b.len() > MAX_GROUP {
                return;
            }
            let ends = [Group::new(geometry, a), Group::new(geometry, b)];
            // Groups must sit on one line of one box to act as one node.
            if ends
                .iter()
                .any(|g| g.units[2] == NONE || (g.units[0] == NONE && g.units[1] == NONE))
            {
                return;
            }
            let same = |l: &Link| {
                let (x, y) = (l.ends[0].cells(), l.ends[1].cells());
                (x == a && y == b) || (x == b && y == a)
            };
            if !links
                .iter()
                .any(|l: &Link| l.unit == unit as u16 && same(l))
            {
                links.push(Link {
                    unit: unit as u16,
                    kind,
                    ends,
                    grouped,
                });
            }
        };
        if count == 2 {
            let (a, b) = (usize::from(places[0]), usize::from(places[1]));
            let (ua, ub) = (geometry.cell_units(a), geometry.cell_units(b));
            // SE leaves a box's pair on one line to that line.
            if kind == BOX && (ua[0] == ub[0] || ua[1] == ub[1]) {
                continue;
            }
            push(&places[..1], &places[1..], false);
            continue;
        }
        if kind != BOX {
            // A line: the places in exactly two boxes, a group in each.
            let first_box = geometry.cell_units(usize::from(places[0]))[2];
            let (a, b): (Vec<u16>, Vec<u16>) = places
                .iter()
                .partition(|&&c| geometry.cell_units(usize::from(c))[2] == first_box);
            let Some(&second) = b.first() else {
                continue;
            };
            let second_box = geometry.cell_units(usize::from(second))[2];
            if b.iter()
                .all(|&c| geometry.cell_units(usize::from(c))[2] == second_box)
            {
                push(&a, &b, true);
            }
            continue;
        }
        // A box: an empty rectangle on a row and a column through a heart
        // cell, the heart's place (if any) joining either group.
        for &heart in cells {
            let hu = geometry.cell_units(usize::from(heart));
            let on_row: Vec<u16> = places
                .iter()
                .copied()
                .filter(|&c| c != heart && geometry.cell_units(usize::from(c))[0] == hu[0])
                .collect();
            let on_column: Vec<u16> = places
                .iter()
                .copied()
                .filter(|&c| c != heart && geometry.cell_units(usize::from(c))[1] == hu[1])
                .collect();
            let heart_placed = places.contains(&heart);
            if on_row.len() + on_column.len() + usize::from(heart_placed) != count
                || on_row.is_empty()
                || on_column.is_empty()
            {
                continue;
            }
            if heart_placed {
                let mut row = on_row.clone();
                row.push(heart);
                row.sort_unstable();
                push(&row, &on_column, true);
                let mut column = on_column.clone();
                column.push(heart);
                column.sort_unstable();
                push(&on_row, &column, true);
            } else {
                push(&on_row, &on_column, true);
            }
        }
        // Or the places on exactly two rows (or two columns) of the box.
        for k in 0..2 {
            let first = geometry.cell_units(usize::from(places[0]))[k];
            let (a, b): (Vec<u16>, Vec<u16>) = places
                .iter()
                .partition(|&&c| geometry.cell_units(usize::from(c))[k] == first);
            let Some(&other) = b.first() else {
                continue;
            };
            let second = geometry.cell_units(usize::from(other))[k];
            if b.iter()
                .all(|&c| geometry.cell_units(usize::from(c))[k] == second)
            {
                push(&a, &b, true);
            }
        }
    }
    links
}

/// Whether two links' units hold a place of the digit in common.
fn overlap(board: &Board, digit: u8, a: &Link, b: &Link) -> bool {
    let geometry = board.geometry();
    let (ua, ub) = (usize::from(a.unit), usize::from(b.unit));
    geometry.unit_cells(ua).iter().any(|&c| {
        let c = usize::from(c);
        board.has(c, digit) && geometry.cell_units(c).contains(&ub)
    })
}

/// SE's value of a chain of `count` links of `kinds` (bits), grouped or
/// not, in tenths.
fn value(count: usize, kinds: u8, grouped: bool) -> u16 {
    let base = match count {
        2 => 40,
        3 => 54,
        _ => 58,
    };
    let lines_mixed = kinds & (ROW | COLUMN) == ROW | COLUMN;
    let boxed = kinds & BOX != 0;
    base + match (grouped, boxed, lines_mixed) {
        (true, _, _) => 3,
        (false, true, true) => 2,
        (false, false, false) => 0,
        _ => 1,
    }
}

/// The technique a chain of `count` links is named by.
fn technique(count: usize, kinds: u8, links: &[(usize, usize)], all: &[Link]) -> Technique {
    match count {
        2 if links
            .iter()
            .any(|&(l, _)| all[l].grouped && all[l].kind == BOX) =>
        {
            Technique::EmptyRectangle
        }
        2 if kinds & BOX != 0 => Technique::TurbotFish,
        2 if kinds == ROW | COLUMN => Technique::TwoStringKite,
        2 => Technique::Skyscraper,
        3 => Technique::ThreeStrongLinks,
        _ => Technique::FourStrongLinks,
    }
}

/// Chains of `count` strong links on every digit, sorted as SE sorts
/// them: by value, then most eliminations first.
fn strong_link_chains(board: &Board, count: usize, found: &mut Vec<Step>) {
    let first = found.len();
    strong_link_chains_in_scan_order(board, count, found);
    found[first..].sort_by_key(|s| (s.rating, std::cmp::Reverse(s.eliminations.len())));
}

fn strong_link_chains_in_scan_order(board: &Board, count: usize, found: &mut Vec<Step>) {
    let s = board.side();
    for digit in 1..=s as u8 {
        let links = strong_links(board, digit);
        if links.len() < count {
            continue;
        }
        // Which pairs of links may sit in one chain.
        let m = links.len();
        let mut apart = vec![false; m * m];
        for i in 0..m {
            for j in i + 1..m {
                let ok = !overlap(board, digit, &links[i], &links[j]);
                apart[i * m + j] = ok;
                apart[j * m + i] = ok;
            }
        }
        let mut search = Search {
            board,
            digit,
            count,
            links: &links,
            apart: &apart,
            chain: Vec::with_capacity(count),
            shared: Vec::with_capacity(count),
            found,
        };
        for first in 0..m {
            for side in 0..2 {
                search.chain.push((first, side));
                search.extend();
                search.chain.pop();
            }
        }
    }
}

/// The depth-first search for chains of one digit's links.
struct Search<'a, 'g> {
    board: &'a Board<'g>,
    digit: u8,
    count: usize,
    links: &'a [Link],
    apart: &'a [bool],
    /// The links so far, each with the index of its starting group.
    chain: Vec<(usize, usize)>,
    /// The unit each weak link between consecutive links shares.
    shared: Vec<u16>,
    found: &'a mut Vec<Step>,
}

impl Search<'_, '_> {
    fn start(&self, i: usize) -> &Group {
        let (l, side) = self.chain[i];
        &self.links[l].ends[side]
    }

    fn end(&self, i: usize) -> &Group {
        let (l, side) = self.chain[i];
        &self.links[l].ends[1 - side]
    }

    fn extend(&mut self) {
        if self.chain.len() == self.count {
            self.conclude();
            return;
        }
        let m = self.links.len();
        let last = *self.end(self.chain.len() - 1);
        for next in 0..m {
            if self
                .chain
                .iter()
                .any(|&(l, _)| l == next || !self.apart[l * m + next])
            {
                continue;
            }
            for side in 0..2 {
                let Some(unit) = last.shared_unit(&self.links[next].ends[side]) else {
                    continue;
                };
                self.chain.push((next, side));
                self.shared.push(unit);
                self.extend();
                self.shared.pop();
                self.chain.pop();
            }
        }
    }

    /// Whether `cell` lies in one of the chain's units (`and_shared`: or in
    /// a unit of its weak links).
    fn in_units(&self, cell: usize, and_shared: bool) -> bool {
        let units = self.board.geometry().cell_units(cell);
        let hit = |u: u16| units.contains(&usize::from(u));
        self.chain.iter().any(|&(l, _)| hit(self.links[l].unit))
            || (and_shared && self.shared.iter().any(|&u| hit(u)))
    }

    /// Cells outside the chain's units holding the digit and seeing every
    /// cell of both groups.
    fn victims(&self, a: &Group, b: &Group, and_shared: bool, out: &mut Vec<Candidate>) {
        let geometry = self.board.geometry();
        for &cell in geometry.peers(usize::from(a.cells[0])) {
            let c = usize::from(cell);
            if self.board.has(c, self.digit)
                && !a.contains(cell)
                && !b.contains(cell)
                && a.seen_by(geometry, c)
                && b.seen_by(geometry, c)
                && !self.in_units(c, and_shared)
                && !out.iter().any(|v| v.cell == cell)
            {
                out.push(Candidate::new(c, self.digit));
            }
        }
    }

    fn conclude(&mut self) {
        let n = self.count;
        let (first, last) = (self.chain[0], self.chain[n - 1]);
        let ring = self.start(0).shared_unit(self.end(n - 1));
        let mut eliminations = Vec::new();
        if let Some(closing) = ring {
            // Each loop once: from its lowest link, that link's first side.
            if self.chain.iter().any(|&(l, _)| l < first.0) || first.1 != 0 {
                return;
            }
            self.victims(self.start(0), self.end(n - 1), false, &mut eliminations);
            for i in 0..n - 1 {
                self.victims(self.end(i), self.start(i + 1), false, &mut eliminations);
            }
            self.shared.push(closing);
        } else {
            // Each open chain once, not also backwards.
            if first.0 > last.0 {
                return;
            }
            self.victims(self.start(0), self.end(n - 1), true, &mut eliminations);
        }
        if !eliminations.is_empty() {
            let step = self.step(eliminations);
            self.found.push(step);
        }
        if ring.is_some() {
            self.shared.pop();
        }
    }

    fn step(&self, eliminations: Vec<Candidate>) -> Step {
        let kinds = self
            .chain
            .iter()
            .fold(0, |k, &(l, _)| k | self.links[l].kind);
        let grouped = self.chain.iter().any(|&(l, _)| self.links[l].grouped);
        let mut step = Step::new(
            technique(self.count, kinds, &self.chain, self.links),
            value(self.count, kinds, grouped),
        );
        step.eliminations = eliminations;
        let p = &mut step.pattern;
        p.digits = 1 << (self.digit - 1);
        let mut chain = Vec::new();
        for i in 0..self.count {
            p.units.push(self.links[self.chain[i].0].unit);
            for (group, on) in [(self.start(i), false), (self.end(i), true)] {
                for &cell in group.cells() {
                    let candidate = Candidate::new(usize::from(cell), self.digit);
                    p.cells.push(cell);
                    p.candidates.push(candidate);
                    chain.push(ChainNode { candidate, on });
                }
            }
        }
        p.units.extend(&self.shared);
        p.chains.push(chain);
        step
    }
}

/// Skyscraper, Two-String Kite, Turbot Fish and Empty Rectangle: chains of
/// two strong links (SE 4.0–4.3).
pub(super) fn two_strong_links(board: &Board, found: &mut Vec<Step>) {
    strong_link_chains(board, 2, found);
}

/// Chains of three strong links (SE 5.4–5.7).
pub(super) fn three_strong_links(board: &Board, found: &mut Vec<Step>) {
    strong_link_chains(board, 3, found);
}

/// Chains of four strong links (SE 5.8–6.1).
pub(super) fn four_strong_links(board: &Board, found: &mut Vec<Step>) {
    strong_link_chains(board, 4, found);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_sound, findings_along_path, fires_and_rates};
    use super::super::{Catalogue, Technique};

    /// Puzzles of se_rated.txt that SE rates by one of these chains: the
    /// chain's technique and value, which is the puzzle's rating.
    const RATED: &[(Technique, u16, &str)] = &[
        (
            Technique::Skyscraper,
            40,
            "030870020806000003000003040001709008700020004400305100040600000200000407010082050",
        ),
        (
            Technique::TwoStringKite,
            41,
            "040790300073048009000500000860000001005000800100000052000009000400360520006027010",
        ),
        (
            Technique::TurbotFish,
            41,
            "003054000506000100070002000030000010102040805090000020000800070008000502000620400",
        ),
        (
            Technique::EmptyRectangle,
            43,
            "007000209000500000082704600070900001009000800200007040008402590000009000501000400",
        ),
        (
            Technique::TwoStringKite,
            43,
            "900080002003450700020907010008000240240000053057000100030705080005049300800010005",
        ),
        (
            Technique::ThreeStrongLinks,
            54,
            "040000000800000027750019000009130000008000300000042500000250014170000008000000050",
        ),
        (
            Technique::ThreeStrongLinks,
            55,
            "000105000010000070805030104006000800050301040000090000000080000067209310002407500",
        ),
        (
            Technique::ThreeStrongLinks,
            57,
            "005083000020400670040002005608000010300010006010000207400100090081009060000840100",
        ),
    ];

    #[test]
    fn each_chain_fires_soundly_and_rates_its_puzzle_as_se_does() {
        for &(technique, value, line) in RATED {
            let step = fires_and_rates(technique, value, line);
            assert!(!step.pattern.chains.is_empty() && !step.pattern.units.is_empty());
        }
    }

    #[test]
    fn every_size_keeps_the_true_digits() {
        use super::super::{als, colouring, next_step, wings, Board, Step};
        use crate::sudoku::logic::Geometry;
        use crate::sudoku::Size;
        let finders: [fn(&Board, &mut Vec<Step>); 14] = [
            super::two_strong_links,
            super::three_strong_links,
            super::four_strong_links,
            wings::xy_wing,
            wings::xyz_wing,
            wings::w_wing,
            wings::wxyz_wing,
            wings::vwxyz_wing,
            wings::uvwxyz_wing,
            wings::tuvwxyz_wing,
            colouring::simple_colouring,
            colouring::multi_colouring,
            als::als_xz,
            als::als_xy_wing,
        ];
        for n in [2, 4] {
            let s = n * n;
            let geometry = Geometry::new(Size::new(n).unwrap());
            // A valid grid by the shifted-band pattern; about half its cells
            // kept. Every solution of the puzzle keeps each sound
            // technique's eliminations, so this grid's digits stay.
            let grid: Vec<u8> = (0..s * s)
                .map(|c| ((n * (c / s % n) + c / s / n + c % s) % s + 1) as u8)
                .collect();
            let mut seed = 12345u32;
            let puzzle: Vec<u8> = grid
                .iter()
                .map(|&d| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    if seed >> 16 & 1 == 0 {
                        d
                    } else {
                        0
                    }
                })
                .collect();
            let mut board = Board::new(&geometry, &puzzle);
            let mut fired = 0;
            for _ in 0..50 {
                for find in finders {
                    let mut found = Vec::new();
                    find(&board, &mut found);
                    fired += found.len();
                    for step in &found {
                        assert_sound(step, &grid);
                    }
                }
                let Some(step) = next_step(&board, Catalogue::Rating) else {
                    break;
                };
                board.apply(&step);
            }
            assert!(n == 2 || fired > 0, "nothing fired on {s}×{s}");
        }
    }

    #[test]
    fn four_strong_links_fire_soundly_along_a_path() {
        // SE 7.8; a 4-link loop on 3 comes before the chains in teaching.
        let line =
            "000024300070600040604005800409000010100030008080000604001500906040009070006710000";
        let found = findings_along_path(line, Catalogue::Teaching, super::four_strong_links);
        assert!(found
            .iter()
            .any(|s| s.technique == Technique::FourStrongLinks && s.rating.0 >= 58));
    }
}
