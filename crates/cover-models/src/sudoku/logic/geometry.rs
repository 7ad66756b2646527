//! The units of a grid: the cells of each, the units of each cell, each
//! cell's peers, and their names for people. Two ways in: the classic grid
//! of one [`Size`] ([`Geometry::new`]: rows, columns and square boxes, the
//! box formula written here once, [`box_of`]) and any variant
//! ([`Geometry::from_rules`]: every region of exactly `side` cells is a
//! unit, so rectangular boxes, jigsaw pieces, diagonals and windows too).
//!
//! This module owns which cells are units and peers; it must not know any
//! technique. A variant's other rules (cages, thermometers,
//! non-consecutive) are kept as [`Geometry::rules`] for the techniques that
//! read them.

use std::sync::Arc;

use crate::sudoku::symbols::Size;
use crate::sudoku::variant::{classic_box, Rules};

/// What a unit is, for its name and for the techniques whose value or
/// validity depends on it (a hidden single in a box is worth less than in
/// a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box or jigsaw piece: one of the regions that tile the grid.
    Box,
    /// Any other region of `side` cells (diagonal, window, extra region, a
    /// full cage).
    Extra,
}

/// Why [`Geometry::from_rules`] refused some rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The first regions are not the rows and columns.
    #[error("human logic needs every row and every column as a region (the first 2·side regions)")]
    NoRowsAndColumns,
    /// Overlapping grids (Samurai): cells outside every grid, and units
    /// smaller than the frame.
    #[error("human logic reads one grid filling its frame, not overlapping grids such as Samurai")]
    OverlappingGrids,
    /// A puzzle given with it has the wrong number of cells.
    #[error("a puzzle of {got} cells on a grid of {expected}")]
    CellCount {
        /// The grid's cells.
        expected: usize,
        /// The puzzle's.
        got: usize,
    },
}

/// The units of one grid, each cell's units and peers, and their names.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The classic size, `None` for a variant.
    size: Option<Size>,
    pub(super) side: usize,
    /// The square box's side of a classic grid, 0 for a variant.
    pub(super) box_side: usize,
    /// `side` cells per unit, unit after unit; a box row-major inside.
    unit_cells: Arc<[u16]>,
    kinds: Arc<[UnitKind]>,
    /// For people: each unit's name (a variant's only; a classic grid's are
    /// computed).
    names: Arc<[String]>,
    /// The row, column and box unit of each cell (3·64 units fit a byte);
    /// classic grids only, empty for a variant: the propagation's and
    /// [`Geometry::sees`]' fast path.
    pub(super) cell_units: Arc<[[u8; 3]]>,
    /// Every unit of each cell, increasing: `units_of[units_start[c]..
    /// units_start[c + 1]]`.
    units_start: Arc<[u32]>,
    units_of: Arc<[u16]>,
    /// The other cells that cannot share a digit with each cell, row-major:
    /// `peers[peers_start[c]..peers_start[c + 1]]`.
    peers_start: Arc<[u32]>,
    peers: Arc<[u16]>,
    /// Peers per cell when every cell has as many (a classic grid), else
    /// 0: the hot [`Geometry::peers`] then multiplies instead of looking
    /// its range up.
    peer_stride: usize,
    /// A variant's rules (cages, thermometers, pair rules).
    rules: Option<Arc<Rules>>,
}

/// The box (numbered row by row from 0) of the cell at `row` and `column`
/// in a grid of boxes `box_side` cells wide.
#[inline]
pub const fn box_of(box_side: usize, row: usize, column: usize) -> usize {
    row / box_side * box_side + column / box_side
}

/// Sorts each cell's list and removes repeats, into the start-indexed form.
fn compress(lists: Vec<Vec<u16>>) -> (Arc<[u32]>, Arc<[u16]>) {
    let mut start = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::new();
    start.push(0u32);
    for mut list in lists {
        list.sort_unstable();
        list.dedup();
        flat.extend(list);
        start.push(flat.len() as u32);
    }
    (start.into(), flat.into())
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
        let units_lists = cell_units
            .iter()
            .map(|units| units.iter().map(|&u| u16::from(u)).collect())
            .collect();
        let kinds = [UnitKind::Row, UnitKind::Column, UnitKind::Box]
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k, s))
            .collect();
        let mut geometry = Geometry::assemble(s, unit_cells, kinds, units_lists, Vec::new());
        geometry.size = Some(size);
        geometry.box_side = n;
        geometry.cell_units = cell_units;
        geometry
    }

    /// The geometry of a variant: every region of exactly `side` cells (and
    /// every cage of `side` cells) is a unit; two cells are peers when they
    /// share a region of any size, a cage or a thermometer, or anti-knight
    /// or anti-king forbids them to be equal. Rules that are exactly a classic grid of a
    /// [`Size`] give [`Geometry::new`]'s geometry, fast paths included.
    ///
    /// ```
    /// use cover_models::sudoku::logic::Geometry;
    /// use cover_models::sudoku::variant::Rules;
    /// let x = Geometry::from_rules(&Rules::classic(9).with_diagonals()).unwrap();
    /// assert_eq!(x.units(), 29);
    /// assert_eq!(x.units_of(0).len(), 4);
    /// ```
    pub fn from_rules(rules: &Rules) -> Result<Geometry, GeometryError> {
        let s = rules.side();
        if rules.digits() != s || !(0..rules.cells()).all(|c| rules.is_cell(c)) {
            return Err(GeometryError::OverlappingGrids);
        }
        let regions = rules.regions();
        let is_line = |i: usize, region: &[usize]| {
            region.len() == s
                && region.iter().enumerate().all(|(j, &c)| {
                    if i < s {
                        c == i * s + j
                    } else {
                        c == j * s + (i - s)
                    }
                })
        };
        if regions.len() < 2 * s || !(0..2 * s).all(|i| is_line(i, &regions[i])) {
            return Err(GeometryError::NoRowsAndColumns);
        }
        if let Some(size) = Size::from_side(s) {
            if rules == &Rules::classic(s) {
                return Ok(Geometry::new(size));
            }
        }
        let cells = s * s;
        // Units: full regions, then full cages, each set once.
        let mut seen_sets = std::collections::HashSet::new();
        let mut unit_cells = Vec::new();
        let mut kinds = Vec::new();
        let mut units_lists: Vec<Vec<u16>> = vec![Vec::new(); cells];
        let mut peer_lists: Vec<Vec<u16>> = vec![Vec::new(); cells];
        let link = |members: &[usize], peer_lists: &mut Vec<Vec<u16>>| {
            for &a in members {
                peer_lists[a].extend(members.iter().filter(|&&b| b != a).map(|&b| b as u16));
            }
        };
        let tiling = tiling_regions(rules);
        let cage_cells: Vec<&[usize]> = rules.cages().iter().map(|c| c.cells.as_slice()).collect();
        for (i, region) in regions
            .iter()
            .map(Vec::as_slice)
            .chain(cage_cells.iter().copied())
            .enumerate()
        {
            link(region, &mut peer_lists);
            if region.len() != s {
                continue;
            }
            let mut key = region.to_vec();
            key.sort_unstable();
            if !seen_sets.insert(key) {
                continue;
            }
            let unit = kinds.len() as u16;
            let kind = match i {
                i if i < s => UnitKind::Row,
                i if i < 2 * s => UnitKind::Column,
                i if tiling.contains(&i) => UnitKind::Box,
                _ => UnitKind::Extra,
            };
            kinds.push(kind);
            unit_cells.extend(region.iter().map(|&c| c as u16));
            for &c in region {
                units_lists[c].push(unit);
            }
        }
        // A thermometer's digits increase, so they differ too.
        for thermo in rules.thermos() {
            link(thermo, &mut peer_lists);
        }
        for (a, b) in rules.pair_rules() {
            peer_lists[a].push(b as u16);
            peer_lists[b].push(a as u16);
        }
        let names = unit_names(s, &kinds, &unit_cells);
        let mut geometry = Geometry::assemble(s, unit_cells, kinds, units_lists, peer_lists);
        geometry.names = names.into();
        geometry.rules = Some(Arc::new(rules.clone()));
        Ok(geometry)
    }

    /// The tables shared by both constructors: `extra_peers` are peers
    /// beyond the cells sharing a unit.
    fn assemble(
        side: usize,
        unit_cells: Vec<u16>,
        kinds: Vec<UnitKind>,
        units_lists: Vec<Vec<u16>>,
        mut extra_peers: Vec<Vec<u16>>,
    ) -> Geometry {
        extra_peers.resize(side * side, Vec::new());
        for (cell, units) in units_lists.iter().enumerate() {
            for &u in units {
                let u = usize::from(u);
                extra_peers[cell].extend(
                    unit_cells[u * side..(u + 1) * side]
                        .iter()
                        .filter(|&&o| usize::from(o) != cell),
                );
            }
        }
        let (units_start, units_of) = compress(units_lists);
        let (peers_start, peers) = compress(extra_peers);
        let first = peers_start.get(1).map_or(0, |&n| n as usize);
        let uniform = peers_start
            .windows(2)
            .all(|w| (w[1] - w[0]) as usize == first);
        Geometry {
            peer_stride: if uniform { first } else { 0 },
            size: None,
            side,
            box_side: 0,
            unit_cells: unit_cells.into(),
            kinds: kinds.into(),
            names: Arc::new([]),
            cell_units: Arc::new([]),
            units_start,
            units_of,
            peers_start,
            peers,
            rules: None,
        }
    }

    /// The size of a classic grid.
    ///
    /// # Panics
    /// On a variant's geometry ([`Geometry::classic_size`] is the fallible
    /// form).
    pub fn size(&self) -> Size {
        self.size
            .expect("Geometry::size is for classic grids; a variant has no Size")
    }

    /// The size when the grid is classic (rows, columns, square boxes and
    /// nothing else), else `None`.
    pub fn classic_size(&self) -> Option<Size> {
        self.size
    }

    /// Whether the grid is classic: rows, columns and square boxes, three
    /// units per cell, no other rule. Techniques that rely on that shape
    /// (boxes crossing lines in bands, uniqueness patterns) ask this.
    #[inline]
    pub fn is_classic(&self) -> bool {
        self.size.is_some()
    }

    /// A variant's rules (`None` for a classic grid).
    pub fn rules(&self) -> Option<&Rules> {
        self.rules.as_deref()
    }

    /// The number of cells in a unit, and of digits.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of cells, `side²`.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// The number of units: rows `0..side`, then columns `side..2·side`,
    /// then the others (a classic grid's boxes `2·side..3·side`).
    pub fn units(&self) -> usize {
        self.kinds.len()
    }

    /// What `unit` is.
    #[inline]
    pub fn unit_kind(&self, unit: usize) -> UnitKind {
        self.kinds[unit]
    }

    /// The cells of `unit`: a row left to right, a column top to bottom, a
    /// box row by row, another region in its rules' order.
    #[inline]
    pub fn unit_cells(&self, unit: usize) -> &[u16] {
        &self.unit_cells[unit * self.side..(unit + 1) * self.side]
    }

    /// The row, column and box units of `cell` in a classic grid.
    ///
    /// # Panics
    /// On a variant's geometry: [`Geometry::units_of`] lists any grid's.
    #[inline]
    pub fn cell_units(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }

    /// Every unit of `cell`, in increasing order (its row, its column, then
    /// the others).
    #[inline]
    pub fn units_of(&self, cell: usize) -> &[u16] {
        let (a, b) = (self.units_start[cell], self.units_start[cell + 1]);
        &self.units_of[a as usize..b as usize]
    }

    /// Whether `cell` lies in `unit`.
    #[inline]
    pub fn in_unit(&self, cell: usize, unit: usize) -> bool {
        self.units_of(cell).contains(&(unit as u16))
    }

    /// The cells that cannot hold the same digit as `cell` (those sharing
    /// a unit with it, and in a variant those sharing a smaller region, a
    /// cage or a thermometer, or a knight's or king's move away under those rules),
    /// row-major.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        if self.peer_stride != 0 {
            let n = self.peer_stride;
            return &self.peers[cell * n..(cell + 1) * n];
        }
        let (a, b) = (self.peers_start[cell], self.peers_start[cell + 1]);
        &self.peers[a as usize..b as usize]
    }

    /// Whether two different cells are peers ([`Geometry::peers`]).
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        if let (Some(x), Some(y)) = (self.cell_units.get(a), self.cell_units.get(b)) {
            return a != b && (x[0] == y[0] || x[1] == y[1] || x[2] == y[2]);
        }
        a != b && self.peers(a).binary_search(&(b as u16)).is_ok()
    }

    /// The box side of a classic grid (3 for 9×9); 0 for a variant.
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// `unit` for people: "row 3", "column 5", "box 2" (counted from 1);
    /// a variant's "diagonal", "window 2", "region 1".
    pub fn unit_name(&self, unit: usize) -> String {
        if let Some(name) = self.names.get(unit) {
            return name.clone();
        }
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

/// The indices (into [`Rules::regions`]) of the regions right after the
/// rows and columns that tile the grid (boxes or jigsaw pieces), if they do.
fn tiling_regions(rules: &Rules) -> Vec<usize> {
    let s = rules.side();
    let regions = rules.regions();
    let mut covered = vec![false; s * s];
    let mut found = Vec::new();
    for (i, region) in regions.iter().enumerate().skip(2 * s) {
        if region.len() != s || region.iter().any(|&c| covered[c]) {
            break;
        }
        for &c in region {
            covered[c] = true;
        }
        found.push(i);
        if found.len() == s {
            return found;
        }
    }
    Vec::new()
}

/// The names of a variant's units: rows and columns as usual, the tiling
/// regions "box k" (rectangular) or "piece k" (jigsaw), the main diagonals
/// by name, 3×3 squares off the boxes "window k", the rest "region k".
fn unit_names(side: usize, kinds: &[UnitKind], unit_cells: &[u16]) -> Vec<String> {
    let rectangular = |cells: &[u16]| {
        let rows = cells.iter().map(|&c| usize::from(c) / side);
        let columns = cells.iter().map(|&c| usize::from(c) % side);
        let (r0, r1) = (rows.clone().min(), rows.max());
        let (c0, c1) = (columns.clone().min(), columns.max());
        match (r0, r1, c0, c1) {
            (Some(r0), Some(r1), Some(c0), Some(c1)) => (r1 - r0 + 1) * (c1 - c0 + 1) == side,
            _ => false,
        }
    };
    let boxes_rectangular = kinds
        .iter()
        .enumerate()
        .filter(|&(_, &k)| k == UnitKind::Box)
        .all(|(u, _)| rectangular(&unit_cells[u * side..(u + 1) * side]));
    let (mut boxes, mut windows, mut regions) = (0, 0, 0);
    kinds
        .iter()
        .enumerate()
        .map(|(u, kind)| {
            let cells = &unit_cells[u * side..(u + 1) * side];
            let on = |f: &dyn Fn(usize) -> usize| {
                let mut sorted: Vec<usize> = cells.iter().map(|&c| usize::from(c)).collect();
                sorted.sort_unstable();
                sorted.iter().enumerate().all(|(i, &c)| c == f(i))
            };
            match kind {
                UnitKind::Row => format!("row {}", u + 1),
                UnitKind::Column => format!("column {}", u - side + 1),
                UnitKind::Box => {
                    boxes += 1;
                    if boxes_rectangular {
                        format!("box {boxes}")
                    } else {
                        format!("piece {boxes}")
                    }
                }
                UnitKind::Extra if on(&|i| i * side + i) => "the main diagonal".to_string(),
                UnitKind::Extra if on(&|i| (i + 1) * side - 1 - i) => {
                    "the anti-diagonal".to_string()
                }
                UnitKind::Extra
                    if classic_box(side).is_some_and(|(r, c)| r == c) && rectangular(cells) =>
                {
                    windows += 1;
                    format!("window {windows}")
                }
                UnitKind::Extra => {
                    regions += 1;
                    format!("region {regions}")
                }
            }
        })
        .collect()
}
