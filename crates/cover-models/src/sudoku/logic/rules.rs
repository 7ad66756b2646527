//! The rules of sudoku logic on one unit's candidate masks, written once
//! and used both by the propagation (which applies everything they find)
//! and by the explanation (which takes the first finding and describes
//! it): subsets, box-line confinement, and all-different by matching.

use super::geometry::Geometry;
use super::masks::Bits;

/// The branch can have no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dead;

/// The unsolved cells of `unit` into `masks` and `at`: their number, and
/// `Err(Dead)` unless they hold as many digits between them. (Each unsolved
/// cell takes one missing digit and each missing digit needs one cell; the
/// digits with a place are among the missing.)
#[inline(always)]
pub(super) fn gather(
    cells: &[u16],
    cands: &[u64],
    masks: &mut [u64; 64],
    at: &mut [u16; 64],
) -> Result<(usize, u64), Dead> {
    let mut k = 0;
    let mut union = 0u64;
    // Branch-free: which cells are solved is data, and a mispredicted
    // branch per cell cost more than the stores.
    for &c in &cells[..cells.len().min(64)] {
        let m = cands[usize::from(c)];
        masks[k & 63] = m;
        at[k & 63] = c;
        k += usize::from(m != 0);
        union |= m;
    }
    if union.count_ones() as usize != k {
        return Err(Dead);
    }
    Ok((k, union))
}

/// Calls `found(members, union)` for every `size` of `items` (members as
/// a bit set of indices into `items`) whose union has at most `size` bits,
/// in lexicographic order, until `found` returns true; returns whether it
/// did. Pruning on the union keeps the search small: once a partial union
/// is too big, no extension can shrink it.
fn combos(items: &[u64], size: usize, mut found: impl FnMut(u64, u64) -> bool) -> bool {
    let m = items.len();
    if size == 0 || size > m || size > 64 {
        return false;
    }
    let mut idx = [0usize; 64];
    let mut acc = [0u64; 65];
    let mut depth = 0;
    loop {
        if idx[depth] + (size - depth) > m {
            if depth == 0 {
                return false;
            }
            depth -= 1;
            idx[depth] += 1;
            continue;
        }
        let union = acc[depth] | items[idx[depth]];
        if union.count_ones() as usize > size {
            idx[depth] += 1;
            continue;
        }
        if depth + 1 == size {
            let members = idx[..size].iter().fold(0u64, |s, &j| s | 1 << j);
            if found(members, union) {
                return true;
            }
            idx[depth] += 1;
        } else {
            acc[depth + 1] = union;
            idx[depth + 1] = idx[depth] + 1;
            depth += 1;
        }
    }
}

/// The digits that occur in exactly one of `parts`, for each part.
fn only_in(parts: &[u64], out: &mut [u64]) {
    let mut once = 0u64;
    let mut multi = 0u64;
    for &p in parts {
        multi |= once & p;
        once |= p;
    }
    for (o, &p) in out.iter_mut().zip(parts) {
        *o = p & !multi;
    }
}

/// Grows a matching by one edge from the unmatched cell `root` along an
/// augmenting path found breadth first; false if there is none.
fn augment(
    masks: &[u64],
    root: usize,
    cell_digit: &mut [u8; 64],
    digit_cell: &mut [u8; 64],
    used: &mut u64,
) -> bool {
    // parent[v]: the cell from which digit v was reached.
    let mut parent = [0u8; 64];
    let mut queue = [0u8; 64];
    queue[0] = root as u8;
    let (mut head, mut tail) = (0, 1);
    let mut seen = 0u64;
    while head < tail {
        let x = usize::from(queue[head]);
        head += 1;
        let new = masks[x] & !seen;
        seen |= new;
        let free = new & !*used;
        if free != 0 {
            let mut v = free.trailing_zeros() as usize;
            *used |= 1 << v;
            let mut x = x;
            loop {
                let old = usize::from(cell_digit[x]);
                cell_digit[x] = v as u8;
                digit_cell[v] = x as u8;
                if x == root {
                    return true;
                }
                v = old;
                x = usize::from(parent[v]);
            }
        }
        for v in Bits(new) {
            parent[v] = x as u8;
            // Each matched cell is reached through its own digit only, so
            // it enters the queue once.
            queue[tail] = digit_cell[v];
            tail += 1;
        }
    }
    false
}

/// Narrows the masks of one unit's unsolved cells (at most 64, together
/// holding as many digits as there are cells) to the (cell, digit) pairs
/// that lie in some perfect matching, and says whether that removed
/// anything; `Err(Dead)` when there is no perfect matching.
///
/// With a perfect matching M, a pair (x, v) outside M is in another one
/// iff the cell holding v in M can reach x in the graph "cell y → cell z
/// when y can take z's digit", i.e. iff they share a strongly connected
/// component. The graph is kept on digits (each matched to one cell) so
/// that a node's successors are simply its cell's mask.
pub(super) fn regin(masks: &mut [u64]) -> Result<bool, Dead> {
    let k = masks.len();
    debug_assert!(k <= 64);
    let mut cell_digit = [0u8; 64];
    let mut digit_cell = [0u8; 64];
    let mut used = 0u64;
    let mut unmatched = 0u64;
    for (i, &m) in masks.iter().enumerate() {
        let free = m & !used;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            cell_digit[i] = v as u8;
            digit_cell[v] = i as u8;
            used |= 1 << v;
        } else {
            unmatched |= 1 << i;
        }
    }
    for root in Bits(unmatched) {
        if !augment(masks, root, &mut cell_digit, &mut digit_cell, &mut used) {
            return Err(Dead);
        }
    }
    // succ[v]: the digits the cell holding v could take instead.
    let mut succ = [0u64; 64];
    for (i, &m) in masks.iter().enumerate() {
        succ[usize::from(cell_digit[i])] = m;
    }
    let mut component = [0u64; 64];
    let mut left = used;
    while left != 0 {
        let root = left.trailing_zeros() as usize;
        // Found components cannot be on a cycle through `root`, so the
        // search stays among the others.
        let mut reach = 1u64 << root;
        let mut frontier = reach;
        while frontier != 0 {
            let next = Bits(frontier).fold(0, |u, v| u | succ[v]) & left & !reach;
            reach |= next;
            frontier = next;
        }
        let mut comp = 1u64 << root;
        loop {
            let before = comp;
            for v in Bits(reach & !comp) {
                if succ[v] & comp != 0 {
                    comp |= 1 << v;
                }
            }
            if comp == before {
                break;
            }
        }
        if comp == used {
            // Most units of a search state are one component: nothing to
            // remove.
            return Ok(false);
        }
        for v in Bits(comp) {
            component[v] = comp;
        }
        left &= !comp;
    }
    let mut changed = false;
    for (i, m) in masks.iter_mut().enumerate() {
        let kept = *m & component[usize::from(cell_digit[i])];
        changed |= kept != *m;
        *m = kept;
    }
    Ok(changed)
}

/// The naked subsets of `size` among one unit's unsolved cells (`masks`):
/// calls `found(cells, digits)` (cells as a bit set of indices into
/// `masks`) for every `size` cells holding at most `size` digits between
/// them, in lexicographic order, until it returns true; returns whether it
/// did. Fewer digits than cells is a dead end, for the caller to say.
pub(super) fn naked_subsets(
    masks: &[u64],
    size: usize,
    mut found: impl FnMut(u64, u64) -> bool,
) -> bool {
    let mut items = [0u64; 64];
    let mut owner = [0u8; 64];
    let mut count = 0;
    for (i, &m) in masks.iter().enumerate().take(64) {
        // A cell with more digits is in no such subset.
        if m.count_ones() as usize <= size {
            items[count] = m;
            owner[count] = i as u8;
            count += 1;
        }
    }
    combos(&items[..count], size, |members, digits| {
        found(Bits(members).fold(0u64, |s, j| s | 1 << owner[j]), digits)
    })
}

/// The hidden subsets of `size` in one unit (`masks` its unsolved cells,
/// `union` the digits they hold): calls `found(digits, cells)` (cells as
/// a bit set of indices into `masks`) for every `size` digits with at
/// most `size` places between them, in lexicographic order, until it
/// returns true; returns whether it did. Fewer places than digits is a
/// dead end, for the caller to say.
pub(super) fn hidden_subsets(
    masks: &[u64],
    union: u64,
    size: usize,
    mut found: impl FnMut(u64, u64) -> bool,
) -> bool {
    let mut places = [0u64; 64];
    for (i, &m) in masks.iter().enumerate().take(64) {
        for v in Bits(m) {
            places[v] |= 1 << i;
        }
    }
    let mut items = [0u64; 64];
    let mut owner = [0u8; 64];
    let mut count = 0;
    for v in Bits(union) {
        if places[v].count_ones() as usize <= size {
            items[count] = places[v];
            owner[count] = v as u8;
            count += 1;
        }
    }
    combos(&items[..count], size, |members, cells| {
        found(Bits(members).fold(0u64, |s, j| s | 1 << owner[j]), cells)
    })
}

/// The candidates of `cells` split in `n` segments, OR-ed per segment:
/// `by_column` false takes consecutive runs of `n` cells (a line's
/// segments, a box's rows), true every `n`-th cell (a box's columns).
/// (It walks runs rather than dividing indices: a division per cell cost
/// a fifth of the whole propagation.)
#[inline(always)]
fn segment_digits(cands: &[u64], cells: &[u16], n: usize, by_column: bool) -> [u64; 8] {
    let mut parts = [0u64; 8];
    if by_column {
        for run in cells.chunks_exact(n) {
            for (part, &c) in parts.iter_mut().zip(run) {
                *part |= cands[usize::from(c)];
            }
        }
    } else {
        for (part, run) in parts.iter_mut().zip(cells.chunks_exact(n)) {
            *part = run.iter().fold(0, |u, &c| u | cands[usize::from(c)]);
        }
    }
    parts
}

/// Box-line confinement seen from box `box_unit`: per row of the box
/// (`.0`) and per column of it (`.1`), the digits whose places in the box
/// all lie there (pointing: they leave the rest of that line).
#[inline(always)]
pub(super) fn confined_in_box(
    geo: &Geometry,
    cands: &[u64],
    box_unit: usize,
) -> ([u64; 8], [u64; 8]) {
    let n = geo.box_side;
    let cells = geo.unit_cells(box_unit);
    let mut rows = [0u64; 8];
    let mut columns = [0u64; 8];
    only_in(&segment_digits(cands, cells, n, false)[..n], &mut rows[..n]);
    only_in(
        &segment_digits(cands, cells, n, true)[..n],
        &mut columns[..n],
    );
    (rows, columns)
}

/// Box-line confinement seen from row or column `line`: per segment (the
/// `n` cells it shares with one box, in order), the digits whose places
/// in the line all lie there (claiming: they leave the rest of that box).
#[inline(always)]
pub(super) fn confined_in_line(geo: &Geometry, cands: &[u64], line: usize) -> [u64; 8] {
    let n = geo.box_side;
    let mut only = [0u64; 8];
    only_in(
        &segment_digits(cands, geo.unit_cells(line), n, false)[..n],
        &mut only[..n],
    );
    only
}

/// The box that segment `segment` of row or column `line` lies in.
pub(super) fn segment_box(geo: &Geometry, line: usize, segment: usize) -> usize {
    let (s, n) = (geo.side, geo.box_side);
    if line < s {
        2 * s + line / n * n + segment
    } else {
        2 * s + segment * n + (line - s) / n
    }
}

/// All-different on `unit`: its unsolved cells into `at` and their masks
/// narrowed to the (cell, digit) pairs of some perfect matching into
/// `masks`; `Some(k)`, their number, when that removed anything.
/// `Err(Dead)` when the unit cannot be completed.
pub(super) fn unit_matching(
    geo: &Geometry,
    cands: &[u64],
    unit: usize,
    masks: &mut [u64; 64],
    at: &mut [u16; 64],
) -> Result<Option<usize>, Dead> {
    let (k, _) = gather(geo.unit_cells(unit), cands, masks, at)?;
    Ok((k > 0 && regin(&mut masks[..k])?).then_some(k))
}
