//! The vector operations the triad engine is written in, and their
//! portable implementation.
//!
//! A box of the board is sixteen 16-bit lanes ([`Wide`]) and a band eight
//! ([`Half`]): the shapes of an AVX2 register and of an SSE one. The
//! operations are the ones those instructions do cheaply, named for what
//! the engine uses them for, so that the x86 implementations (AVX2 and
//! AVX-512, in `super::x86`) are one instruction or a few per operation.
//! Their meaning is this file's portable implementation, which works on
//! arrays and runs anywhere: all must give identical lanes for every
//! input the engine can make, whose lanes are below `0x8000` (the
//! portable code asserts it in debug builds where the x86 code compares
//! signed words); the engine's tests run every flavour the machine has
//! and compare every answer and count.
//!
//! Lane shuffles stay within a half, as `pshufb` does; what crosses the
//! halves says so ([`Wide::swap_halves`], [`Wide::spread_group`],
//! [`Wide::gather_triads`]). A [`Shuffle`] is written once as a lane map
//! and kept in `pshufb`'s byte form, which both implementations read.

/// Sixteen lanes as stored, aligned for a 256-bit load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Lanes16(pub [u16; 16]);

/// Eight lanes as stored, aligned for a 128-bit load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Lanes8(pub [u16; 8]);

/// A lane shuffle within each half: destination lane `d` takes source lane
/// `map[d]` of the same half, or 0 where the map says `NONE`. Kept as the
/// `pshufb` control bytes (a lane is two bytes; `0x80` writes zero).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct Shuffle(pub [u8; 32]);

/// In a lane map: this lane is zero.
pub(crate) const NONE: i8 = -1;

impl Shuffle {
    /// The shuffle of a lane map (absolute lanes `0..16`).
    ///
    /// # Panics
    /// At compile time, if a lane would come from the other half.
    pub(crate) const fn new(map: [i8; 16]) -> Shuffle {
        let mut bytes = [0x80u8; 32];
        let mut d = 0;
        while d < 16 {
            let s = map[d];
            if s != NONE {
                assert!(
                    s >= 0 && s < 16 && (s as usize) / 8 == d / 8,
                    "a lane of the same half"
                );
                let within = (s as u8 % 8) * 2;
                bytes[2 * d] = within;
                bytes[2 * d + 1] = within + 1;
            }
            d += 1;
        }
        Shuffle(bytes)
    }

    /// Where destination lane `d` comes from within its half, if anywhere.
    #[inline(always)]
    pub(crate) fn source(&self, d: usize) -> Option<usize> {
        let byte = self.0[2 * d];
        (byte & 0x80 == 0).then_some((d & 8) | usize::from(byte >> 1))
    }
}

/// Sixteen 16-bit lanes: a box, or a band's triads laid out per box.
pub(crate) trait Wide: Copy {
    /// Eight lanes: a band.
    type Half: Half;
    fn load(lanes: &Lanes16) -> Self;
    fn store(self, out: &mut Lanes16);
    /// Every lane `x`.
    fn splat(x: u16) -> Self;
    /// Both halves `half`.
    fn broadcast(half: Self::Half) -> Self;
    /// Lanes `0..8`.
    fn low(self) -> Self::Half;
    /// Lanes `8..16`.
    fn high(self) -> Self::Half;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
    /// `0xffff` in the lanes where the two are equal, else 0.
    fn equal(self, other: Self) -> Self;
    /// `0xffff` in the lanes that are not 0 (lanes below `0x8000`).
    fn nonzero(self) -> Self;
    /// Each lane's number of set bits.
    fn popcounts(self) -> Self;
    /// Whether some lane is below `other`'s (lanes below `0x8000`).
    fn any_below(self, other: Self) -> bool;
    fn is_zero(self) -> bool;
    fn same(self, other: Self) -> bool;
    fn shuffle(self, control: &Shuffle) -> Self;
    /// Lanes `8..16` and `0..8` exchanged (a box's rows 0, 1 with 2, 3).
    fn swap_halves(self) -> Self;
    /// Every group of four lanes a copy of group `G` (`0..4`).
    fn spread_group<const G: i32>(self) -> Self;
    /// The triads of a box next to those of its band: lanes 3, 7 and 11
    /// to 1, 3 and 5; lanes 12, 13, 14 to 8, 9, 10 (the others unspecified).
    fn gather_triads(self) -> Self;
}

/// Eight 16-bit lanes: a band's configurations.
pub(crate) trait Half: Copy {
    fn load(lanes: &Lanes8) -> Self;
    fn store(self, out: &mut Lanes8);
    /// Every lane `x`.
    fn splat(x: u16) -> Self;
    fn zero() -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
    fn intersects(self, other: Self) -> bool;
    /// The lanes OR-ed together.
    fn or_lanes(self) -> u16;
    /// The set bits of all lanes.
    fn count_ones(self) -> u32;
}

/// The portable implementation: plain arrays, any target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable([u16; 16]);

/// The portable half.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PortableHalf([u16; 8]);

impl Portable {
    #[inline(always)]
    fn map(self, f: impl Fn(u16) -> u16) -> Portable {
        Portable(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, other: Portable, f: impl Fn(u16, u16) -> u16) -> Portable {
        let mut out = [0; 16];
        for (o, (&a, &b)) in out.iter_mut().zip(self.0.iter().zip(&other.0)) {
            *o = f(a, b);
        }
        Portable(out)
    }
}

impl Wide for Portable {
    type Half = PortableHalf;

    #[inline(always)]
    fn load(lanes: &Lanes16) -> Self {
        Portable(lanes.0)
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes16) {
        out.0 = self.0;
    }
    #[inline(always)]
    fn splat(x: u16) -> Self {
        Portable([x; 16])
    }
    #[inline(always)]
    fn broadcast(half: PortableHalf) -> Self {
        let mut out = [0; 16];
        out[..8].copy_from_slice(&half.0);
        out[8..].copy_from_slice(&half.0);
        Portable(out)
    }
    #[inline(always)]
    fn low(self) -> PortableHalf {
        let mut out = [0; 8];
        out.copy_from_slice(&self.0[..8]);
        PortableHalf(out)
    }
    #[inline(always)]
    fn high(self) -> PortableHalf {
        let mut out = [0; 8];
        out.copy_from_slice(&self.0[8..]);
        PortableHalf(out)
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self.zip(other, |a, b| a & b)
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self.zip(other, |a, b| a | b)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.zip(other, |a, b| a ^ b)
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        self.zip(other, |a, b| a & !b)
    }
    #[inline(always)]
    fn equal(self, other: Self) -> Self {
        self.zip(other, |a, b| if a == b { 0xffff } else { 0 })
    }
    #[inline(always)]
    fn nonzero(self) -> Self {
        debug_assert!(
            self.0.iter().all(|&a| a < 0x8000),
            "a signed compare on x86"
        );
        self.map(|a| if a != 0 { 0xffff } else { 0 })
    }
    #[inline(always)]
    fn popcounts(self) -> Self {
        self.map(|a| a.count_ones() as u16)
    }
    #[inline(always)]
    fn any_below(self, other: Self) -> bool {
        debug_assert!(
            self.0.iter().chain(&other.0).all(|&a| a < 0x8000),
            "a signed compare on x86"
        );
        self.0.iter().zip(&other.0).any(|(a, b)| a < b)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0 == [0; 16]
    }
    #[inline(always)]
    fn same(self, other: Self) -> bool {
        self.0 == other.0
    }
    #[inline(always)]
    fn shuffle(self, control: &Shuffle) -> Self {
        let mut out = [0; 16];
        for (d, o) in out.iter_mut().enumerate() {
            if let Some(s) = control.source(d) {
                *o = self.0[s];
            }
        }
        Portable(out)
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        let mut out = self.0;
        out.rotate_left(8);
        Portable(out)
    }
    #[inline(always)]
    fn spread_group<const G: i32>(self) -> Self {
        const { assert!(0 <= G && G < 4, "one of four groups") };
        let g = G as usize * 4;
        let group = [self.0[g], self.0[g + 1], self.0[g + 2], self.0[g + 3]];
        let mut out = [0; 16];
        for (d, o) in out.iter_mut().enumerate() {
            *o = group[d % 4];
        }
        Portable(out)
    }
    #[inline(always)]
    fn gather_triads(self) -> Self {
        // As `vpermd` with the pairs 1, 3, 5, 0, 6, 7, 0, 0.
        const PAIRS: [usize; 8] = [1, 3, 5, 0, 6, 7, 0, 0];
        let mut out = [0; 16];
        for (d, &s) in PAIRS.iter().enumerate() {
            out[2 * d] = self.0[2 * s];
            out[2 * d + 1] = self.0[2 * s + 1];
        }
        Portable(out)
    }
}

impl Half for PortableHalf {
    #[inline(always)]
    fn load(lanes: &Lanes8) -> Self {
        PortableHalf(lanes.0)
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes8) {
        out.0 = self.0;
    }
    #[inline(always)]
    fn splat(x: u16) -> Self {
        PortableHalf([x; 8])
    }
    #[inline(always)]
    fn zero() -> Self {
        PortableHalf([0; 8])
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o &= b;
        }
        PortableHalf(out)
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o |= b;
        }
        PortableHalf(out)
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o &= !b;
        }
        PortableHalf(out)
    }
    #[inline(always)]
    fn intersects(self, other: Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    #[inline(always)]
    fn or_lanes(self) -> u16 {
        self.0.iter().fold(0, |acc, &a| acc | a)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.0.iter().map(|a| a.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_keep_to_their_half() {
        let mut map = [NONE; 16];
        map[0] = 7;
        map[9] = 15;
        map[3] = 3;
        let s = Shuffle::new(map);
        assert_eq!(s.source(0), Some(7));
        assert_eq!(s.source(9), Some(15));
        assert_eq!(s.source(3), Some(3));
        assert_eq!(s.source(1), None);
        let lanes = Portable(std::array::from_fn(|i| 100 + i as u16));
        let out = lanes.shuffle(&s).0;
        assert_eq!((out[0], out[9], out[3], out[1]), (107, 115, 103, 0));
    }

    #[test]
    fn cross_half_moves() {
        let lanes = Portable(std::array::from_fn(|i| i as u16));
        assert_eq!(lanes.swap_halves().0[0], 8);
        assert_eq!(lanes.spread_group::<2>().0, [8, 9, 10, 11].repeat(4)[..]);
        let g = lanes.gather_triads().0;
        assert_eq!(
            (g[1], g[3], g[5], g[8], g[9], g[10]),
            (3, 7, 11, 12, 13, 14)
        );
    }
}
