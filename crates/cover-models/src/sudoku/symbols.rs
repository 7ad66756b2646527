//! Sizes and symbols: which n²×n² sudoku a puzzle is, and which characters
//! write its digits.
//!
//! Digits are numbered `1..=side` inside the crate; a [`Symbols`] maps
//! them to and from the characters of the input. Each size has default
//! symbols (1-4, 1-9, A-P as in POJ 3076, A-Y, 0-9A-Z); 49×49 and 64×64
//! have none and are written with numbers or with symbols given by the
//! user. 16×16 and 25×25 are also commonly written in other sets
//! ([`Symbols::common_for`]: 1-9A-G and 0-9A-F, 1-9A-P), which the reader
//! tells apart by the characters of each puzzle. Empty cells are `.`, `-`,
//! `_`, and `0` when `0` is not a symbol.

use std::fmt;

use thiserror::Error;

/// The box side `n` of an n²×n² sudoku, from 2 (4×4) to 8 (64×64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size(u8);

impl Size {
    /// The smallest box side.
    pub const MIN_BOX: usize = 2;
    /// The largest box side.
    pub const MAX_BOX: usize = 8;

    /// The size with boxes of `box_side`×`box_side` cells, if supported.
    pub fn new(box_side: usize) -> Option<Size> {
        (Self::MIN_BOX..=Self::MAX_BOX)
            .contains(&box_side)
            .then_some(Size(box_side as u8))
    }

    /// The size whose rows have `side` cells (4, 9, 16, ..., 64).
    pub fn from_side(side: usize) -> Option<Size> {
        Self::all().find(|s| s.side() == side)
    }

    /// The size whose grid has `cells` cells (16, 81, 256, ..., 4096).
    pub fn from_cells(cells: usize) -> Option<Size> {
        Self::all().find(|s| s.cells() == cells)
    }

    /// Every supported size, smallest first.
    pub fn all() -> impl Iterator<Item = Size> {
        (Self::MIN_BOX..=Self::MAX_BOX).map(|n| Size(n as u8))
    }

    /// The box side `n`.
    pub fn box_side(self) -> usize {
        self.0 as usize
    }

    /// The number of cells in a row, column or box, `n²` (also the number
    /// of digits).
    pub fn side(self) -> usize {
        self.box_side() * self.box_side()
    }

    /// The number of cells, `n⁴`.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}", self.side())
    }
}

/// Whether `c` marks an empty cell when the symbols are `symbols`.
pub fn is_empty_marker(c: char, symbols: &Symbols) -> bool {
    matches!(c, '.' | '-' | '_') || (c == '0' && symbols.digit(c).is_none())
}

/// The characters that write digits `1..=side` of one size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbols {
    chars: Vec<char>,
    /// The symbols as bytes, when they are all ASCII.
    bytes: Option<Vec<u8>>,
    /// For each byte of a compact line, the cell it writes: its digit, 0
    /// for an empty-cell marker, [`NOT_A_CELL`] otherwise. (Boxed: the
    /// command-line arguments hold a `Symbols`.)
    cells: Box<[u8; 256]>,
}

/// In [`Symbols::cell_of_byte`]'s table: the byte writes no cell.
pub const NOT_A_CELL: u8 = u8::MAX;

/// Why a symbol string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SymbolsError {
    /// The number of symbols is not the side of a supported sudoku.
    #[error("{0} symbols: a sudoku needs 4, 9, 16, 25, 36, 49 or 64 (one per digit)")]
    Count(usize),
    /// A symbol appears twice.
    #[error("symbol {0:?} appears twice")]
    Repeated(char),
    /// A character that cannot be a symbol: it marks empty cells or
    /// separates cells or trailing text.
    #[error(
        "{0:?} cannot be a symbol (`.`, `-`, `_` mark empty cells; white space, `,`, `:`, `|`, `+` and `#` separate)"
    )]
    Reserved(char),
}

impl Symbols {
    /// Symbols from a string of one character per digit, in digit order
    /// (`123456789ABCDEFG`).
    pub fn new(text: &str) -> Result<Symbols, SymbolsError> {
        let chars: Vec<char> = text.chars().collect();
        if Size::from_side(chars.len()).is_none() {
            return Err(SymbolsError::Count(chars.len()));
        }
        let mut cells = Box::new([NOT_A_CELL; 256]);
        for (k, &c) in chars.iter().enumerate() {
            if c.is_whitespace() || ".-_,:|+#".contains(c) || c.is_control() {
                return Err(SymbolsError::Reserved(c));
            }
            if chars[..k].contains(&c) {
                return Err(SymbolsError::Repeated(c));
            }
            if c.is_ascii() {
                cells[c as usize] = k as u8 + 1;
            }
        }
        let bytes = chars
            .iter()
            .map(|&c| u8::try_from(c).ok().filter(u8::is_ascii))
            .collect();
        // Empty-cell markers: `.`, `-`, `_`, and `0` when it is no symbol.
        for marker in *b".-_0" {
            if cells[marker as usize] == NOT_A_CELL {
                cells[marker as usize] = 0;
            }
        }
        Ok(Symbols {
            chars,
            bytes,
            cells,
        })
    }

    /// The default symbols of `size`: 1-4 (4×4), 1-9 (9×9), A-P (16×16, as
    /// POJ 3076), A-Y (25×25), 0-9A-Z (36×36); none for 49×49 and 64×64.
    pub fn default_for(size: Size) -> Option<Symbols> {
        let text = match size.side() {
            4 => "1234",
            9 => "123456789",
            16 => "ABCDEFGHIJKLMNOP",
            25 => "ABCDEFGHIJKLMNOPQRSTUVWXY",
            36 => "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            _ => return None,
        };
        Some(Symbols::new(text).expect("the default symbols are valid"))
    }

    /// The symbol sets a puzzle of `size` may be written in without
    /// `--symbols`, the default first, in the order the reader prefers
    /// them when a puzzle's characters fit several: 16×16 A-P, 1-9A-G,
    /// 0-9A-F; 25×25 A-Y, 1-9A-P; the default alone for the other sizes
    /// (none for 49×49 and 64×64).
    pub fn common_for(size: Size) -> Vec<Symbols> {
        let others: &[&str] = match size.side() {
            16 => &["123456789ABCDEFG", "0123456789ABCDEF"],
            25 => &["123456789ABCDEFGHIJKLMNOP"],
            _ => &[],
        };
        Symbols::default_for(size)
            .into_iter()
            .chain(
                others
                    .iter()
                    .map(|text| Symbols::new(text).expect("the common symbols are valid")),
            )
            .collect()
    }

    /// Whether `0` is one of the symbols (else it marks an empty cell).
    pub fn zero_is_symbol(&self) -> bool {
        self.cells[b'0' as usize] != 0
    }

    /// The characters that mark an empty cell, for messages: `. - _ or 0`,
    /// or `. - _` when `0` is a symbol.
    pub fn empty_markers(&self) -> &'static str {
        if self.zero_is_symbol() {
            ". - _"
        } else {
            ". - _ or 0"
        }
    }

    /// The size these symbols are for.
    pub fn size(&self) -> Size {
        Size::from_side(self.chars.len()).expect("checked in new")
    }

    /// What byte `b` of a line of one character per cell writes: its
    /// digit (`1..=side`), 0 for an empty cell, [`NOT_A_CELL`] for any
    /// other byte (bytes past ASCII among them).
    #[inline]
    pub fn cell_of_byte(&self, b: u8) -> u8 {
        self.cells[b as usize]
    }

    /// The digit (`1..=side`) that `c` writes, if it is a symbol.
    #[inline]
    pub fn digit(&self, c: char) -> Option<u8> {
        if c.is_ascii() {
            match self.cells[c as usize] {
                0 | NOT_A_CELL => None,
                d => Some(d),
            }
        } else {
            self.chars.iter().position(|&s| s == c).map(|k| k as u8 + 1)
        }
    }

    /// The symbol of `digit` (`1..=side`).
    #[inline]
    pub fn symbol(&self, digit: u8) -> char {
        self.chars[digit as usize - 1]
    }

    /// The symbols as ASCII bytes in digit order, when they all are ASCII.
    pub fn ascii_symbols(&self) -> Option<&[u8]> {
        self.bytes.as_deref()
    }

    /// The symbols in digit order, as a string (`123456789`).
    pub fn as_string(&self) -> String {
        self.chars.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte table says what `digit` and `is_empty_marker` say, byte
    /// for byte, whether `0` is a symbol or not.
    #[test]
    fn the_byte_table_agrees_with_the_characters() {
        for text in [
            "123456789",
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "ABCD",
            "αβγδ",
        ] {
            let symbols = Symbols::new(text).unwrap();
            for b in 0..=255u8 {
                let c = char::from(b);
                let want = match symbols.digit(c) {
                    Some(d) if b.is_ascii() => d,
                    None if b.is_ascii() && is_empty_marker(c, &symbols) => 0,
                    _ => NOT_A_CELL,
                };
                assert_eq!(symbols.cell_of_byte(b), want, "{text}: byte {b}");
            }
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(Size::from_side(9).map(Size::box_side), Some(3));
        assert_eq!(Size::from_cells(256).map(Size::side), Some(16));
        assert_eq!(Size::from_cells(80), None);
        assert_eq!(Size::from_side(81), None);
        assert_eq!(Size::new(9), None);
        assert_eq!(Size::new(8).unwrap().cells(), 4096);
        assert_eq!(Size::new(3).unwrap().to_string(), "9×9");
        assert_eq!(Size::all().count(), 7);
    }

    #[test]
    fn default_symbols() {
        for size in Size::all() {
            match Symbols::default_for(size) {
                Some(symbols) => assert_eq!(symbols.size(), size),
                None => assert!(size.side() > 36),
            }
        }
        let p = Symbols::default_for(Size::new(4).unwrap()).unwrap();
        assert_eq!(p.digit('A'), Some(1));
        assert_eq!(p.digit('P'), Some(16));
        assert_eq!(p.digit('1'), None);
        assert_eq!(p.symbol(16), 'P');
        let z = Symbols::default_for(Size::new(6).unwrap()).unwrap();
        assert_eq!(z.digit('0'), Some(1));
        assert!(!is_empty_marker('0', &z));
        let nine = Symbols::default_for(Size::new(3).unwrap()).unwrap();
        assert!(is_empty_marker('0', &nine) && is_empty_marker('.', &nine));
        assert!(!is_empty_marker('5', &nine));
    }

    #[test]
    fn custom_symbols() {
        let s = Symbols::new("123456789ABCDEFG").unwrap();
        assert_eq!(s.size().side(), 16);
        assert_eq!(
            (s.digit('A'), s.digit('G'), s.digit('H')),
            (Some(10), Some(16), None)
        );
        let greek = Symbols::new("αβγδ").unwrap();
        assert_eq!(greek.digit('δ'), Some(4));
        assert_eq!(greek.symbol(2), 'β');
        assert_eq!(Symbols::new("12345678"), Err(SymbolsError::Count(8)));
        assert_eq!(Symbols::new("1231"), Err(SymbolsError::Repeated('1')));
        assert_eq!(Symbols::new("12.4"), Err(SymbolsError::Reserved('.')));
        assert_eq!(Symbols::new("12 4"), Err(SymbolsError::Reserved(' ')));
        assert_eq!(Symbols::new(""), Err(SymbolsError::Count(0)));
    }
}
