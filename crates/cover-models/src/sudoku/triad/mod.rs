//! The triad engine: 9×9 sudoku as boxes and bands of bit masks,
//! reasoned about a vector at a time.
//!
//! The idea is Tom Dillon's (tdoku, "dpll triad simd"): besides the
//! cells, name the *triads*, the three cells a row shares with a box (a
//! minirow) or a column with a box (a minicol), and say of each digit
//! whether it lies in a triad. Then every rule of the game is a
//! cardinality constraint over a few literals, and the usual sudoku
//! techniques (naked and hidden singles, locked candidates both ways,
//! and a minirow's three digits) all fall out of one step: when a
//! constraint has as many literals left as it needs, they are all true.
//! This module is a reimplementation from that description, with its own
//! tables and its own schedule (a worklist, not mutual recursion).
//!
//! **A box** is sixteen lanes of nine bits (digit `d` is bit `d - 1`), a
//! 4×4 matrix: lane `(i, j)`, `i, j < 3`, holds the digits cell `(i, j)`
//! of the box may take; lane `(i, 3)` the digits that may be *absent*
//! from minirow `i`, lane `(3, j)` those that may be absent from minicol
//! `j`; lane `(3, 3)` is 0. Per digit, each of the first three rows and
//! columns of the matrix holds exactly one true literal (the digit is in
//! one cell of the minirow, or absent from it), and of the three
//! absent-lanes of the last row (or column) exactly two are true (the
//! digit is in one minicol of the box); a cell holds at least one digit
//! and a triad lane at least six (a minirow holds three digits, so six
//! are absent). `box_pass` applies most of these: a lane with its
//! minimum left asserts them all (and one below it is a dead end), a
//! digit left in one lane of a row or column of the matrix asserts it
//! there, and a digit placed in a cell leaves the rest of the box and
//! the triads of its minirow and minicol. What it leaves out (a digit
//! with no lane left in a row, two cells asserting one digit; in the last
//! row, two lanes left asserting both) the bands find or never need: the
//! first two leave a digit without a configuration, and the last is
//! what a band's configurations say anyway.
//!
//! **A band** is three boxes in a row (or a column) and, per digit, the
//! ways its three triads can sit there: one in each box and one in each
//! row of the band, so one of six permutations (*configurations*,
//! `SIGMA`). A band is eight lanes, lane `k < 6` the digits that may
//! still take configuration `k`. `band_update` turns the configurations
//! into the digits each triad may hold, asserts the three digits of a
//! triad that has only three left (removing their other
//! configurations), and restricts its three boxes: a minirow's cells to
//! its triad's digits, its absent-lane to the digits that have a triad
//! elsewhere in the box.
//!
//! Boxes tell their bands what they learnt (a digit placed in a minirow,
//! or absent from it, rules out configurations), bands tell boxes; a
//! worklist of the units that changed runs to a fixpoint (`propagate`)
//! in phases, every changed band and then every changed box
//! (`box_phase`), so that the units of a phase, which do not read each
//! other's results, overlap in the processor. Givens enter as masks of their boxes and eliminations
//! of their bands, and the bands go first. Then, unless every band has
//! one configuration per digit (solved), it
//! guesses in the band with the fewest configurations, on the digit with
//! the fewest, its first configuration: the board with that configuration
//! is searched now, the board without it is pushed on a stack of copies
//! (binary branching, no recursion, the stack reserved once). Each
//! solution is found once, so counts are exact.
//!
//! The vector operations are those of `lanes`: a portable
//! implementation on arrays and, on x86-64 (detected at run time), one on
//! AVX2 registers and one with AVX-512 (`x86`); all give identical
//! answers and statistics (tested). It knows nothing of exact cover,
//! files or output: grids in (digits `1..=9`, 0 for empty, row by row),
//! solutions handed to a callback.
//!
//! Where it stands against the `sudoku` crate and tdoku, and what was
//! tried and dropped: `docs/measurements.md`.

mod lanes;
#[cfg(target_arch = "x86_64")]
mod x86;

use dlx_core::{Control, Limits, Outcome};

use super::bit_search::{guess_allowed, search_entry_points, solution_found, BitStats};
use lanes::{Half, Lanes16, Lanes8, Portable, Shuffle, Wide, NONE};

const CELLS: usize = 81;
/// All nine digits.
const ALL: u16 = 0x1ff;
/// Bands 0..3 are the rows of boxes, 3..6 the columns.
const BANDS: usize = 6;
/// The boxes of each band, by their position in it.
const BAND_BOXES: [[usize; 3]; BANDS] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
];
/// A configuration: for the boxes at positions 0, 1, 2 of a band, the
/// triad (row of the band, or column) a digit takes in each.
const SIGMA: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];
/// The deepest the stack can go: a guess is pushed as the branch of a
/// digit's configuration in a band that it fixes, and a fixed digit is
/// never guessed on again below it, so a line of pushed guesses is at
/// most 6 × 9 long.
const MOST_GUESSES: usize = BANDS * 9;

/// Lane `(i, j)` of a box's 4×4 matrix.
const fn lane(i: usize, j: usize) -> usize {
    4 * i + j
}

/// Whether box lane `lane` is a cell's.
const fn is_cell(lane: usize) -> bool {
    lane % 4 < 3 && lane / 4 < 3
}

/// Lanes holding `value` where `pick[lane]`, else 0.
const fn lanes_where(pick: [bool; 16], value: u16) -> Lanes16 {
    let mut out = [0; 16];
    let mut d = 0;
    while d < 16 {
        if pick[d] {
            out[d] = value;
        }
        d += 1;
    }
    Lanes16(out)
}

/// Which lanes are cells, absent-from-minirow triads, absent-from-minicol
/// triads.
const fn kinds() -> [[bool; 16]; 3] {
    let mut out = [[false; 16]; 3];
    let mut d = 0;
    while d < 16 {
        out[0][d] = is_cell(d);
        out[1][d] = d % 4 == 3 && d / 4 < 3;
        out[2][d] = d / 4 == 3 && d % 4 < 3;
        d += 1;
    }
    out
}

/// The tables of the engine, computed at compile time from the layouts
/// above.
struct Tables {
    /// A box with every digit everywhere (lane `(3, 3)` is not a literal).
    empty_box: Lanes16,
    cell_lanes: Lanes16,
    minirow_lanes: Lanes16,
    minicol_lanes: Lanes16,
    triad_lanes: Lanes16,
    /// The fewest digits a lane may keep: a cell 1, a triad lane 6.
    minimum: Lanes16,
    /// Lane `(i, j)` from `(i, j ^ 2)`, and from `(i, j ^ 1)`: with the
    /// two, a row of the matrix meets every lane of itself.
    row_partner: Shuffle,
    row_neighbour: Shuffle,
    /// Lane `(i, j)` from `(i ^ 1, j)` (rows `i ^ 2` are the other half).
    column_neighbour: Shuffle,
    /// A band's triads laid out per box: group `p` of four lanes holds in
    /// lane `e` the digits whose triad in box `p` may be `e` (the OR of
    /// the two configurations that put it there, taken from the first and
    /// from the second shuffle), and all digits in lane 3.
    first_config: Shuffle,
    second_config: Shuffle,
    group_corners: Lanes16,
    /// 3 in the triad lanes of that layout: a triad holds three digits.
    threes: Lanes16,
    /// Lane `e` of each group from lane `e + 1` and `e + 2` (mod 3).
    next_in_group: Shuffle,
    after_next_in_group: Shuffle,
    /// From that layout back to configurations: lane `k` from group 0's
    /// lane `SIGMA[k][0]` and (in the other half) group 2's lane
    /// `SIGMA[k][2]`, and from group 1's `SIGMA[k][1]`.
    by_config_low: Shuffle,
    by_config_middle: Shuffle,
    /// Per box lane: the lanes a digit placed there leaves (the other
    /// cells, the absent-lanes of its triads), and the lane itself.
    peers: [Lanes16; 16],
    own: [Lanes16; 16],
    /// For a box at position `p` of a band and a triad `e`: the
    /// configurations that put the box's triad elsewhere.
    elsewhere: [[Lanes8; 3]; 3],
    /// From a group spread over a whole box ([`Wide::spread_group`]) to the
    /// mask of that box, for rows of boxes (0) and columns (1): cells of
    /// triad `e` keep the digits of lane `e`; its absent-lane keeps those
    /// of the other two triads; the other orientation's lanes keep all.
    restrict_first: [Shuffle; 2],
    restrict_second: [Shuffle; 2],
    /// Per box, from its triads gathered ([`Wide::gather_triads`]) to the
    /// configurations of its row band (low half) and column band (high
    /// half) that they rule out: a digit absent from triad `e` rules out
    /// the configurations that put it at `e`; a digit placed in triad `e`
    /// rules out those that put it at the other two.
    absent_to_configs: [Shuffle; 9],
    present_to_configs_next: [Shuffle; 9],
    present_to_configs_after: [Shuffle; 9],
}

/// The lane of `gather_triads`'s output where triad `e` of the row band
/// (`vertical == false`) or of the column band is.
const fn gathered(vertical: bool, e: usize) -> i8 {
    if vertical {
        8 + e as i8
    } else {
        2 * e as i8 + 1
    }
}

const fn tables() -> Tables {
    let [cells, minirows, minicols] = kinds();
    let mut triads = [false; 16];
    let mut minimum = [0u16; 16];
    let mut d = 0;
    while d < 16 {
        triads[d] = minirows[d] || minicols[d];
        minimum[d] = if cells[d] {
            1
        } else if triads[d] {
            6
        } else {
            0
        };
        d += 1;
    }
    let mut row_partner = [NONE; 16];
    let mut row_neighbour = [NONE; 16];
    let mut column_neighbour = [NONE; 16];
    let mut d = 0;
    while d < 16 {
        let (i, j) = (d / 4, d % 4);
        row_partner[d] = lane(i, j ^ 2) as i8;
        row_neighbour[d] = lane(i, j ^ 1) as i8;
        column_neighbour[d] = lane(i ^ 1, j) as i8;
        d += 1;
    }
    // The band layouts: group p, lane e at 4p + e.
    let mut first = [NONE; 16];
    let mut second = [NONE; 16];
    let mut corners = [false; 16];
    let mut threes = [0u16; 16];
    let mut next = [NONE; 16];
    let mut after = [NONE; 16];
    let mut p = 0;
    while p < 3 {
        corners[lane(p, 3)] = true;
        let mut e = 0;
        while e < 3 {
            let d = lane(p, e);
            // The two configurations that put the triad of box p at e.
            let half = (d / 8 * 8) as i8;
            let mut k = 0;
            while k < 6 {
                if SIGMA[k][p] == e {
                    if first[d] == NONE {
                        first[d] = half + k as i8;
                    } else {
                        second[d] = half + k as i8;
                    }
                }
                k += 1;
            }
            threes[d] = 3;
            next[d] = lane(p, (e + 1) % 3) as i8;
            after[d] = lane(p, (e + 2) % 3) as i8;
            e += 1;
        }
        p += 1;
    }
    let mut low = [NONE; 16];
    let mut middle = [NONE; 16];
    let mut k = 0;
    while k < 6 {
        low[k] = lane(0, SIGMA[k][0]) as i8;
        low[8 + k] = lane(2, SIGMA[k][2]) as i8;
        middle[k] = lane(1, SIGMA[k][1]) as i8;
        k += 1;
    }
    // The masks of boxes; sources are lanes 0..4 of the destination's half
    // (every group holds the same four values).
    let mut restrict_first = [[NONE; 16]; 2];
    let mut restrict_second = [[NONE; 16]; 2];
    let mut d = 0;
    while d < 16 {
        let base = (d / 8 * 8) as i8;
        let mut o = 0;
        while o < 2 {
            // The triad of this lane's orientation, and whether it is a
            // cell, the absent-lane of that triad, or of the other kind.
            let (along, across) = if o == 0 {
                (d / 4, d % 4)
            } else {
                (d % 4, d / 4)
            };
            if along < 3 && across < 3 {
                restrict_first[o][d] = base + along as i8;
            } else if along < 3 {
                restrict_first[o][d] = base + ((along + 1) % 3) as i8;
                restrict_second[o][d] = base + ((along + 2) % 3) as i8;
            } else {
                restrict_first[o][d] = base + 3;
            }
            o += 1;
        }
        d += 1;
    }
    let mut absent = [[NONE; 16]; 9];
    let mut present_next = [[NONE; 16]; 9];
    let mut present_after = [[NONE; 16]; 9];
    let mut x = 0;
    while x < 9 {
        // The box's position in its row band and in its column band.
        let (row_p, column_p) = (x % 3, x / 3);
        let mut k = 0;
        while k < 6 {
            let (h, v) = (SIGMA[k][row_p], SIGMA[k][column_p]);
            absent[x][k] = gathered(false, h);
            present_next[x][k] = gathered(false, (h + 1) % 3);
            present_after[x][k] = gathered(false, (h + 2) % 3);
            absent[x][8 + k] = gathered(true, v);
            present_next[x][8 + k] = gathered(true, (v + 1) % 3);
            present_after[x][8 + k] = gathered(true, (v + 2) % 3);
            k += 1;
        }
        x += 1;
    }
    let mut peers = [Lanes16([0; 16]); 16];
    let mut own = [Lanes16([0; 16]); 16];
    let mut l = 0;
    while l < 16 {
        own[l].0[l] = 0xffff;
        let (i, j) = (l / 4, l % 4);
        let mut d = 0;
        while d < 16 {
            let (di, dj) = (d / 4, d % 4);
            let peer = (cells[d] && d != l) || (minirows[d] && di == i) || (minicols[d] && dj == j);
            if is_cell(l) && peer {
                peers[l].0[d] = 0xffff;
            }
            d += 1;
        }
        l += 1;
    }
    let mut elsewhere = [[Lanes8([0; 8]); 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut k = 0;
            while k < 6 {
                if SIGMA[k][p] != e {
                    elsewhere[p][e].0[k] = 0xffff;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    let mut absent_to_configs = [Shuffle([0; 32]); 9];
    let mut present_to_configs_next = [Shuffle([0; 32]); 9];
    let mut present_to_configs_after = [Shuffle([0; 32]); 9];
    let mut x = 0;
    while x < 9 {
        absent_to_configs[x] = Shuffle::new(absent[x]);
        present_to_configs_next[x] = Shuffle::new(present_next[x]);
        present_to_configs_after[x] = Shuffle::new(present_after[x]);
        x += 1;
    }
    let mut literals = [true; 16];
    literals[lane(3, 3)] = false;
    Tables {
        empty_box: lanes_where(literals, ALL),
        cell_lanes: lanes_where(cells, 0xffff),
        minirow_lanes: lanes_where(minirows, 0xffff),
        minicol_lanes: lanes_where(minicols, 0xffff),
        triad_lanes: lanes_where(triads, 0xffff),
        minimum: Lanes16(minimum),
        row_partner: Shuffle::new(row_partner),
        row_neighbour: Shuffle::new(row_neighbour),
        column_neighbour: Shuffle::new(column_neighbour),
        first_config: Shuffle::new(first),
        second_config: Shuffle::new(second),
        group_corners: lanes_where(corners, ALL),
        threes: Lanes16(threes),
        next_in_group: Shuffle::new(next),
        after_next_in_group: Shuffle::new(after),
        by_config_low: Shuffle::new(low),
        by_config_middle: Shuffle::new(middle),
        peers,
        own,
        elsewhere,
        restrict_first: [
            Shuffle::new(restrict_first[0]),
            Shuffle::new(restrict_first[1]),
        ],
        restrict_second: [
            Shuffle::new(restrict_second[0]),
            Shuffle::new(restrict_second[1]),
        ],
        absent_to_configs,
        present_to_configs_next,
        present_to_configs_after,
    }
}

static T: Tables = tables();

/// A position: the boxes and the bands' configurations.
#[derive(Clone, Copy)]
struct Board<W: Wide> {
    boxes: [W; 9],
    configs: [W::Half; BANDS],
}

/// Per lane, the bits that occur in two or more lanes of its group, where
/// `first` and `second` pair each lane with the other lanes of its group
/// (the partner, then the partners of the pair).
#[inline(always)]
fn in_two_or_more<W: Wide>(x: W, first: impl Fn(W) -> W, second: impl Fn(W) -> W) -> W {
    let partner = first(x);
    let (one, two) = (x.or(partner), x.and(partner));
    let other_pair = second(one);
    two.or(second(two)).or(one.and(other_pair))
}

/// Per lane, the bits of every lane of its group (pairs as above).
#[inline(always)]
fn union<W: Wide>(x: W, first: impl Fn(W) -> W, second: impl Fn(W) -> W) -> W {
    let pair = x.or(first(x));
    pair.or(second(pair))
}

#[inline(always)]
fn row_partner<W: Wide>(x: W) -> W {
    x.shuffle(&T.row_partner)
}

#[inline(always)]
fn row_neighbour<W: Wide>(x: W) -> W {
    x.shuffle(&T.row_neighbour)
}

#[inline(always)]
fn column_neighbour<W: Wide>(x: W) -> W {
    x.shuffle(&T.column_neighbour)
}

/// One pass of the box rules over `cells`: what it asserts, what that
/// strikes, and the box after; `None` at a dead end.
#[inline(always)]
fn box_pass<W: Wide>(cells: W, cell_lanes: W, minimum: W) -> Option<(W, W, W)> {
    let counts = cells.popcounts();
    if counts.any_below(minimum) {
        return None;
    }
    // A lane down to its minimum asserts what it has; so does a digit
    // left in one lane of a row or a column of the matrix.
    let in_rows = in_two_or_more(cells, row_partner, row_neighbour);
    let in_columns = in_two_or_more(cells, W::swap_halves, column_neighbour);
    let asserted = cells
        .and(counts.equal(minimum))
        .or(cells.and_not(in_rows.and(in_columns)));
    // A digit placed leaves the rest of the box, and the absent-lanes of
    // its minirow and minicol; its cell keeps only it.
    let placed = asserted.and(cell_lanes);
    let minirow = union(placed, row_partner, row_neighbour);
    let minicol = union(placed, W::swap_halves, column_neighbour);
    let anywhere = union(minirow, W::swap_halves, column_neighbour);
    let struck = anywhere
        .and(cell_lanes)
        .or(minirow.and(W::load(&T.minirow_lanes)))
        .or(minicol.and(W::load(&T.minicol_lanes)))
        .or(placed.nonzero())
        .xor(placed);
    Some((asserted, struck, cells.and_not(struck)))
}

/// The boxes of `boxes` (bit `x` for box `x`) to their fixpoints, then what their
/// bands learn from them. Each box takes one pass first, all of them in
/// a row without a branch on what it found; then the boxes that changed
/// go on to their fixpoints; then the messages. `false` at a dead end.
#[inline(always)]
fn box_phase<W: Wide>(
    board: &mut Board<W>,
    pending: &mut [W::Half; BANDS],
    boxes: u32,
    dirty: &mut u32,
    updates: &mut u64,
) -> bool {
    let cell_lanes = W::load(&T.cell_lanes);
    let minimum = W::load(&T.minimum);
    let mut asserted = [cell_lanes; 9];
    let mut struck = [cell_lanes; 9];
    let mut again = 0u32;
    let mut left = boxes;
    while left != 0 {
        let x = left.trailing_zeros() as usize;
        left &= left - 1;
        *updates += 1;
        let cells = board.boxes[x];
        let Some((a, s, next)) = box_pass(cells, cell_lanes, minimum) else {
            return false;
        };
        (asserted[x], struck[x], board.boxes[x]) = (a, s, next);
        again |= u32::from(!next.same(cells)) << x;
    }
    while again != 0 {
        let x = again.trailing_zeros() as usize;
        again &= again - 1;
        let mut cells = board.boxes[x];
        loop {
            let Some((a, s, next)) = box_pass(cells, cell_lanes, minimum) else {
                return false;
            };
            if next.same(cells) {
                (asserted[x], struck[x]) = (a, s);
                break;
            }
            cells = next;
        }
        board.boxes[x] = cells;
    }
    let mut left = boxes;
    while left != 0 {
        let x = left.trailing_zeros() as usize;
        left &= left - 1;
        send(board, pending, x, asserted[x], struck[x], dirty);
    }
    true
}

/// What box `x`'s bands learn from what it asserts and strikes.
#[inline(always)]
fn send<W: Wide>(
    board: &Board<W>,
    pending: &mut [W::Half; BANDS],
    x: usize,
    asserted: W,
    struck: W,
    dirty: &mut u32,
) {
    // Absent from a triad: not the configurations that put it there. In a
    // triad (struck from its absent-lane): not those that put it elsewhere.
    let triads = W::load(&T.triad_lanes);
    let absent = asserted.and(triads).gather_triads();
    let present = struck.and(triads).gather_triads();
    let ruled_out = absent
        .shuffle(&T.absent_to_configs[x])
        .or(present.shuffle(&T.present_to_configs_next[x]))
        .or(present.shuffle(&T.present_to_configs_after[x]));
    for (band, message) in [(x / 3, ruled_out.low()), (3 + x % 3, ruled_out.high())] {
        pending[band] = pending[band].or(message);
        *dirty |= u32::from(message.intersects(board.configs[band])) << (BAND_BITS + band);
    }
}

/// The digits each triad of a band may hold, laid out per box (see
/// [`Tables::first_config`]).
#[inline(always)]
fn triads_of<W: Wide>(configs: W::Half) -> W {
    let both = W::broadcast(configs);
    both.shuffle(&T.first_config)
        .or(both.shuffle(&T.second_config))
        .or(W::load(&T.group_corners))
}

/// Band `band` with its pending eliminations: a triad with three digits
/// left holds them; then its boxes are restricted to what the
/// configurations allow. `false` at a dead end.
#[inline(always)]
fn band_update<W: Wide>(
    board: &mut Board<W>,
    pending: &mut [W::Half; BANDS],
    band: usize,
    dirty: &mut u32,
) -> bool {
    let mut configs = board.configs[band].and_not(pending[band]);
    pending[band] = W::Half::zero();
    let triads = triads_of::<W>(configs);
    let counts = triads.popcounts();
    let threes = W::load(&T.threes);
    if counts.any_below(threes) {
        return false;
    }
    // Computed whether or not a triad is full: a branch on it costs more.
    let full = triads.and(counts.equal(threes));
    let elsewhere = full
        .shuffle(&T.next_in_group)
        .or(full.shuffle(&T.after_next_in_group));
    let by_config = elsewhere
        .shuffle(&T.by_config_low)
        .or(elsewhere.shuffle(&T.by_config_middle));
    configs = configs.and_not(by_config.low().or(by_config.high()));
    let triads = triads_of::<W>(configs);
    if configs.or_lanes() != ALL {
        return false;
    }
    board.configs[band] = configs;
    let o = usize::from(band >= 3);
    let [x0, x1, x2] = BAND_BOXES[band];
    restrict(board, x0, triads.spread_group::<0>(), o, dirty);
    restrict(board, x1, triads.spread_group::<1>(), o, dirty);
    restrict(board, x2, triads.spread_group::<2>(), o, dirty);
    true
}

/// Box `x` keeps what its band's triads `spread` allow (orientation `o`).
#[inline(always)]
fn restrict<W: Wide>(board: &mut Board<W>, x: usize, spread: W, o: usize, dirty: &mut u32) {
    let mask = spread
        .shuffle(&T.restrict_first[o])
        .or(spread.shuffle(&T.restrict_second[o]));
    let old = board.boxes[x];
    let new = old.and(mask);
    board.boxes[x] = new;
    // Without a branch: whether it changed is anyone's guess.
    *dirty |= box_bit(x) * u32::from(!new.same(old));
}

/// The units marked in `dirty` (bands at bits `0..6`, boxes above) and
/// whatever they change, to a fixpoint. `false` at a dead end.
#[inline(always)]
fn propagate<W: Wide>(
    board: &mut Board<W>,
    pending: &mut [W::Half; BANDS],
    mut dirty: u32,
    updates: &mut u64,
) -> bool {
    loop {
        let mut bands = dirty & BAND_MASK;
        dirty &= !BAND_MASK;
        while bands != 0 {
            let band = bands.trailing_zeros() as usize - BAND_BITS;
            bands &= bands - 1;
            *updates += 1;
            if !band_update(board, pending, band, &mut dirty) {
                return false;
            }
        }
        let boxes = (dirty & BOX_MASK) >> BOX_BITS;
        if boxes == 0 {
            return true;
        }
        dirty = 0;
        if !box_phase(board, pending, boxes, &mut dirty, updates) {
            return false;
        }
    }
}

const BOX_MASK: u32 = ((1 << 9) - 1) << BOX_BITS;
const BAND_MASK: u32 = ((1 << BANDS) - 1) << BAND_BITS;

/// Where boxes and bands are in the worklist's bits.
const BOX_BITS: usize = 0;
const BAND_BITS: usize = 9;

#[inline(always)]
fn box_bit(x: usize) -> u32 {
    1 << (BOX_BITS + x)
}

#[inline(always)]
fn band_bit(band: usize) -> u32 {
    1 << (BAND_BITS + band)
}

/// A guess: one configuration of one digit in `band`.
struct Guess {
    band: usize,
    /// The digit's other configurations, struck when the guess is taken.
    others: Lanes8,
    /// The guessed configuration, struck in the other branch.
    guessed: Lanes8,
}

/// The guess to make, or `None` when every band has one configuration
/// per digit (solved).
#[inline(always)]
fn choose<W: Wide>(board: &Board<W>) -> Option<Guess> {
    let mut best = None;
    let mut fewest = u32::MAX;
    for (band, configs) in board.configs.iter().enumerate() {
        let n = configs.count_ones();
        if n > 9 && n < fewest {
            (best, fewest) = (Some(band), n);
        }
    }
    let band = best?;
    let mut lanes = Lanes8([0; 8]);
    board.configs[band].store(&mut lanes);
    // Per digit, whether it has one configuration or more, two or more...
    let (mut one, mut two, mut three, mut four) = (0u16, 0u16, 0u16, 0u16);
    for &c in &lanes.0[..6] {
        four |= three & c;
        three |= two & c;
        two |= one & c;
        one |= c;
    }
    let digits = [two & !three, three & !four, four]
        .into_iter()
        .find(|&d| d != 0)
        .unwrap_or(two);
    let bit = digits & digits.wrapping_neg();
    let lane = lanes.0.iter().position(|&c| c & bit != 0).unwrap_or(0);
    let mut others = Lanes8(lanes.0.map(|c| c & bit));
    others.0[lane] = 0;
    let mut guessed = Lanes8([0; 8]);
    guessed.0[lane] = bit;
    Some(Guess {
        band,
        others,
        guessed,
    })
}

/// The solved board as a grid.
#[inline(always)]
fn write<W: Wide>(board: &Board<W>, grid: &mut [u8; CELLS]) {
    let mut lanes = Lanes16([0; 16]);
    for (x, cells) in board.boxes.iter().enumerate() {
        cells.store(&mut lanes);
        for i in 0..3 {
            for j in 0..3 {
                let digits = lanes.0[lane(i, j)];
                debug_assert_eq!(digits.count_ones(), 1, "a solved box");
                grid[(x / 3 * 3 + i) * 9 + x % 3 * 3 + j] = digits.trailing_zeros() as u8 + 1;
            }
        }
    }
}

/// A branch left for later: a board at its fixpoint and the configuration
/// to strike from it. Stored as plain lanes, whichever vectors search.
#[derive(Clone, Copy)]
struct Saved {
    boxes: [Lanes16; 9],
    configs: [Lanes8; BANDS],
    band: usize,
    struck: Lanes8,
}

impl Saved {
    const EMPTY: Saved = Saved {
        boxes: [Lanes16([0; 16]); 9],
        configs: [Lanes8([0; 8]); BANDS],
        band: 0,
        struck: Lanes8([0; 8]),
    };
}

/// What a search is asked.
struct Task<'a> {
    cells: &'a [u8],
    struck: Option<(usize, u8)>,
    limits: &'a Limits,
}

/// The search, with the vectors `W`. Inlined into its caller so that the
/// AVX2 entry point compiles it all for AVX2.
#[inline(always)]
fn search_with<W: Wide, F>(
    stack: &mut [Saved; MOST_GUESSES],
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    let mut stats = BitStats::default();
    let limits = task.limits;
    if limits.max_solutions == Some(0) {
        return (Outcome::SolutionLimit, stats);
    }
    let mut board = Board::<W> {
        boxes: [W::load(&T.empty_box); 9],
        configs: [W::Half::load(&Lanes8([ALL, ALL, ALL, ALL, ALL, ALL, 0, 0])); BANDS],
    };
    let mut pending = [W::Half::zero(); BANDS];
    let mut dirty = 0;
    // A given leaves its cell only its digit and takes the digit from the
    // rest of its box and from the absent-lanes of its triads; its bands
    // lose the configurations that put it in other triads. The bands
    // spread that first.
    for (cell, &digit) in task.cells.iter().enumerate() {
        assert!(digit <= 9, "digits are 0..=9");
        if digit != 0 {
            let (r, c) = (cell / 9, cell % 9);
            let (x, l, bit) = (r / 3 * 3 + c / 3, lane(r % 3, c % 3), 1u16 << (digit - 1));
            board.boxes[x] = board.boxes[x]
                .and_not(W::load(&T.peers[l]).and(W::splat(bit)))
                .and_not(W::load(&T.own[l]).and(W::splat(!bit)));
            let (row_band, column_band) = (x / 3, 3 + x % 3);
            let digit = W::Half::splat(bit);
            pending[row_band] =
                pending[row_band].or(W::Half::load(&T.elsewhere[x % 3][r % 3]).and(digit));
            pending[column_band] =
                pending[column_band].or(W::Half::load(&T.elsewhere[x / 3][c % 3]).and(digit));
            dirty |= box_bit(x) | band_bit(row_band) | band_bit(column_band);
        }
    }
    if let Some((cell, digit)) = task.struck {
        let (r, c) = (cell / 9, cell % 9);
        let (x, l) = (r / 3 * 3 + c / 3, lane(r % 3, c % 3));
        board.boxes[x] = board.boxes[x].and_not(W::load(&T.own[l]).and(W::splat(1 << (digit - 1))));
        dirty |= box_bit(x);
    }
    let budget = limits.node_budget.unwrap_or(u64::MAX);
    let cancel = limits.cancel.as_deref();
    let mut deadline = dlx_core::Deadline::new(limits.deadline);
    // The stack's boards are written and read in place (no copies through
    // a temporary); `depth` of them are live.
    let mut depth = 0;
    loop {
        if propagate(&mut board, &mut pending, dirty, &mut stats.rounds) {
            match choose(&board) {
                None => {
                    write(&board, grid);
                    if let Some(end) = solution_found(&mut stats, limits, visit, grid) {
                        return (end, stats);
                    }
                }
                Some(guess) => {
                    if let Some(end) = guess_allowed(&mut stats, budget, cancel, &mut deadline) {
                        return (end, stats);
                    }
                    let saved = &mut stack[depth];
                    depth += 1;
                    for (to, from) in saved.boxes.iter_mut().zip(&board.boxes) {
                        from.store(to);
                    }
                    for (to, from) in saved.configs.iter_mut().zip(&board.configs) {
                        from.store(to);
                    }
                    (saved.band, saved.struck) = (guess.band, guess.guessed);
                    pending[guess.band] = W::Half::load(&guess.others);
                    dirty = band_bit(guess.band);
                    continue;
                }
            }
        }
        if depth == 0 {
            return (Outcome::Exhausted, stats);
        }
        depth -= 1;
        let saved = &stack[depth];
        for (to, from) in board.boxes.iter_mut().zip(&saved.boxes) {
            *to = W::load(from);
        }
        for (to, from) in board.configs.iter_mut().zip(&saved.configs) {
            *to = W::Half::load(from);
        }
        pending = [W::Half::zero(); BANDS];
        pending[saved.band] = W::Half::load(&saved.struck);
        dirty = band_bit(saved.band);
    }
}

/// Which implementation of the vector operations a [`TriadSolver`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Vectors {
    /// Arrays, on any target.
    Portable,
    /// AVX2 registers (x86-64 with AVX2 and POPCNT, detected at run time).
    Avx2,
    /// AVX-512 instructions on 256-bit registers (x86-64 with AVX-512 F,
    /// VL, BW and BITALG, detected at run time).
    Avx512,
}

impl Vectors {
    /// The fastest this machine has.
    pub fn detect() -> Vectors {
        #[cfg(target_arch = "x86_64")]
        {
            if x86::has_avx512() {
                return Vectors::Avx512;
            }
            if x86::has_avx2() {
                return Vectors::Avx2;
            }
        }
        Vectors::Portable
    }

    /// Whether this machine can run them.
    pub fn available(self) -> bool {
        self <= Vectors::detect()
    }
}

/// The triad engine for 9×9; make one per thread and reuse it (its stack
/// is allocated once).
#[derive(Debug, Clone)]
pub struct TriadSolver {
    stack: Box<[Saved; MOST_GUESSES]>,
    grid: [u8; CELLS],
    vectors: Vectors,
}

impl std::fmt::Debug for Saved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Saved").field("band", &self.band).finish()
    }
}

impl Default for TriadSolver {
    fn default() -> Self {
        TriadSolver::new()
    }
}

impl TriadSolver {
    /// A solver with the fastest vectors this machine has.
    pub fn new() -> TriadSolver {
        TriadSolver::with_vectors(Vectors::detect())
    }

    /// A solver with `vectors`, or the portable ones if this machine lacks
    /// them (see [`TriadSolver::vectors`]).
    pub fn with_vectors(vectors: Vectors) -> TriadSolver {
        let vectors = if vectors.available() {
            vectors
        } else {
            Vectors::Portable
        };
        TriadSolver {
            stack: Box::new([Saved::EMPTY; MOST_GUESSES]),
            grid: [0; CELLS],
            vectors,
        }
    }

    /// The vectors it runs.
    pub fn vectors(&self) -> Vectors {
        self.vectors
    }

    search_entry_points! {
        via run;
        /// Searches the 9×9 puzzle `cells` (81 digits `0..=9`, 0 for empty),
        /// handing each solution to `visit` until it says stop or `limits`
        /// end the search (`node_budget` counts guesses). Givens that clash
        /// make a puzzle without solutions. The statistics' `rounds` count
        /// the updates of a box or a band.
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`.
        fn search;
        /// [`TriadSolver::search`] of `cells` with `digit` struck from the
        /// candidates of cell `cell`: the solutions where that cell holds
        /// another digit (none if it is a given with that digit).
        ///
        /// # Panics
        /// If `cells` is not 81 digits `0..=9`, or `cell` or `digit` is out of
        /// range.
        fn search_without;
    }

    pub(in crate::sudoku) fn run<F>(
        &mut self,
        cells: &[u8],
        struck: Option<(usize, u8)>,
        limits: &Limits,
        mut visit: F,
    ) -> (Outcome, BitStats)
    where
        F: FnMut(&[u8]) -> Control,
    {
        assert_eq!(cells.len(), CELLS, "a 9×9 grid");
        let task = Task {
            cells,
            struck,
            limits,
        };
        match self.vectors {
            Vectors::Portable => {
                search_with::<Portable, F>(&mut self.stack, &mut self.grid, &task, &mut visit)
            }
            #[cfg(target_arch = "x86_64")]
            vectors => x86::search(vectors, &mut self.stack, &mut self.grid, &task, &mut visit),
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("only the portable vectors are available"),
        }
    }
}

#[cfg(test)]
mod tests;
