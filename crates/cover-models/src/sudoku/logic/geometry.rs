//! The units of a grid of one size: rows, columns and boxes, the cells of
//! each, the units of each cell, and their names for people. The box
//! formula is written here once ([`box_of`]).

use std::sync::Arc;

use crate::sudoku::symbols::Size;

/// The units of one size: rows, columns and boxes, and their names.
#[derive(Debug, Clone)]
pub struct Geometry {
    size: Size,
    pub(super) side: usize,
    pub(super) box_side: usize,
    /// `side` cells per unit, unit after unit; a box row-major inside.
    unit_cells: Arc<[u16]>,
    /// The row, column and box unit of each cell (3·64 units fit a byte).
    pub(super) cell_units: Arc<[[u8; 3]]>,
    /// The other cells of each cell's units, `peer_count` per cell, in
    /// row-major order.
    peers: Arc<[u16]>,
    peer_count: usize,
}

/// The box (numbered row by row from 0) of the cell at `row` and `column`
/// in a grid of boxes `box_side` cells wide.
#[inline]
pub const fn box_of(box_side: usize, row: usize, column: usize) -> usize {
    row / box_side * box_side + column / box_side
}

impl Geometry {
    /// The geometry of `size`.
    pub fn new(size: Size) -> Geometry {
        let n = size.box_side();
        let s = size.side();
        let mut unit_cells = Vec::with_capacity(3 * s * s);
        for r in 0..s {
            unit_cells.extend((0..s).map(|c| (r * s + c) as u16));
        }
        for c in 0..s {
            unit_cells.extend((0..s).map(|r| (r * s + c) as u16));
        }
        for b in 0..s {
            // The first cell of box `b`.
            let (r0, c0) = (b / n * n, b % n * n);
            for i in 0..n {
                unit_cells.extend((0..n).map(|j| ((r0 + i) * s + c0 + j) as u16));
            }
        }
        let cell_units = (0..s * s)
            .map(|cell| {
                let (r, c) = (cell / s, cell % s);
                [r as u8, (s + c) as u8, (2 * s + box_of(n, r, c)) as u8]
            })
            .collect::<Arc<[[u8; 3]]>>();
        // Row and column (2·(s-1)) plus the box cells in neither ((n-1)²).
        let peer_count = 2 * (s - 1) + (n - 1) * (n - 1);
        let mut peers = Vec::with_capacity(s * s * peer_count);
        for (cell, units) in cell_units.iter().enumerate() {
            let start = peers.len();
            for &u in units {
                let u = usize::from(u);
                peers.extend(
                    unit_cells[u * s..(u + 1) * s]
                        .iter()
                        .filter(|&&o| usize::from(o) != cell),
                );
            }
            peers[start..].sort_unstable();
            let mut kept = start;
            for i in start..peers.len() {
                if i == start || peers[i] != peers[kept - 1] {
                    peers[kept] = peers[i];
                    kept += 1;
                }
            }
            peers.truncate(kept);
            debug_assert_eq!(kept - start, peer_count);
        }
        Geometry {
            size,
            side: s,
            box_side: n,
            unit_cells: unit_cells.into(),
            cell_units,
            peers: peers.into(),
            peer_count,
        }
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The number of cells in a unit, and of digits.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of units, `3·side`: rows `0..side`, then columns
    /// `side..2·side`, then boxes `2·side..3·side`.
    pub fn units(&self) -> usize {
        3 * self.side
    }

    /// The cells of `unit`: a row left to right, a column top to bottom, a
    /// box row by row.
    pub fn unit_cells(&self, unit: usize) -> &[u16] {
        &self.unit_cells[unit * self.side..(unit + 1) * self.side]
    }

    /// The row, column and box units of `cell`.
    pub fn cell_units(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }

    /// The cells that share a unit with `cell`, row-major.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    /// Whether two different cells share a unit.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.cell_units[a], self.cell_units[b]);
        a != b && (x[0] == y[0] || x[1] == y[1] || x[2] == y[2])
    }

    /// The box side (3 for 9×9).
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// `unit` for people: "row 3", "column 5", "box 2" (counted from 1).
    pub fn unit_name(&self, unit: usize) -> String {
        let s = self.side;
        match unit / s {
            0 => format!("row {}", unit + 1),
            1 => format!("column {}", unit - s + 1),
            _ => format!("box {}", unit - 2 * s + 1),
        }
    }

    /// `cell` for people: "r3c5" (counted from 1).
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.side + 1, cell % self.side + 1)
    }
}
