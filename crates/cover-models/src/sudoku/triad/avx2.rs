//! The triad engine's vector operations on AVX2 registers (x86-64), used
//! when the processor has AVX2 and POPCNT (detected at run time).
//!
//! Each operation of [`Wide`] and [`Half`] is the instruction or the few
//! that the portable implementation in [`super::lanes`] describes; the
//! engine's tests run both on the same puzzles and compare every answer
//! and statistic. `cargo xtask bench bits` measures what this pays: the
//! portable twin takes about twice the time (see the engine's status in
//! the README).
//!
//! # Safety
//! The intrinsics need AVX2; executing them on a processor without it is
//! undefined behaviour. Values of [`Avx2`] and [`Sse`] are private to
//! this module and made only inside [`search_avx2`], whose one caller,
//! [`search`], runs it only after [`available`] said the processor has
//! AVX2 and POPCNT. So every `unsafe` block below runs on such a
//! processor, and the intrinsics in them read and write only their own
//! registers and the aligned lanes they are handed ([`Lanes16`] is
//! 32-byte aligned, [`Lanes8`] 16-byte aligned, [`Shuffle`] 32-byte).

use std::arch::x86_64::*;

use dlx_core::{Control, Outcome};

use super::lanes::{Half, Lanes16, Lanes8, Shuffle, Wide};
use super::{search_with, Saved, Task, CELLS};
use crate::sudoku::BitStats;

/// Whether this processor has what [`search`] needs.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
}

/// The search on AVX2 registers.
///
/// # Panics
/// If the processor lacks AVX2 or POPCNT (the solver checked when it was
/// made, so this does not happen).
pub(super) fn search<F>(
    stack: &mut Vec<Saved>,
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    assert!(available(), "AVX2 and POPCNT");
    // SAFETY: the processor has AVX2 and POPCNT, all that
    // `search_avx2` is compiled for.
    unsafe { search_avx2(stack, grid, task, visit) }
}

/// [`search_with`] compiled for AVX2: everything it calls is inlined
/// into it, so the intrinsics compile to single instructions.
#[target_feature(enable = "avx2,popcnt")]
fn search_avx2<F>(
    stack: &mut Vec<Saved>,
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    search_with::<Avx2, F>(stack, grid, task, visit)
}

/// Sixteen lanes in an AVX2 register (see the module's safety note).
#[derive(Clone, Copy)]
struct Avx2(__m256i);

/// Eight lanes in an SSE register (see the module's safety note).
#[derive(Clone, Copy)]
struct Sse(__m128i);

impl Wide for Avx2 {
    type Half = Sse;

    #[inline(always)]
    fn load(lanes: &Lanes16) -> Self {
        // SAFETY: see the module's note; `Lanes16` is 32-byte aligned.
        unsafe { Avx2(_mm256_load_si256(lanes.0.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes16) {
        // SAFETY: see the module's note; `Lanes16` is 32-byte aligned.
        unsafe { _mm256_store_si256(out.0.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn broadcast(half: Sse) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_broadcastsi128_si256(half.0)) }
    }
    #[inline(always)]
    fn low(self) -> Sse {
        // SAFETY: see the module's note.
        unsafe { Sse(_mm256_castsi256_si128(self.0)) }
    }
    #[inline(always)]
    fn high(self) -> Sse {
        // SAFETY: see the module's note.
        unsafe { Sse(_mm256_extracti128_si256::<1>(self.0)) }
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_and_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_or_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_xor_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_andnot_si256(other.0, self.0)) }
    }
    #[inline(always)]
    fn equal(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_cmpeq_epi16(self.0, other.0)) }
    }
    #[inline(always)]
    fn nonzero(self) -> Self {
        // A signed comparison: lanes are below 0x8000.
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_cmpgt_epi16(self.0, _mm256_setzero_si256())) }
    }
    #[inline(always)]
    fn popcounts(self) -> Self {
        // SAFETY: see the module's note.
        unsafe {
            // Each byte's two nibbles looked up, then the two bytes of a
            // lane added by a multiply-add with ones.
            let table = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                2, 3, 3, 4,
            );
            let nibble = _mm256_set1_epi8(0x0f);
            let low = _mm256_shuffle_epi8(table, _mm256_and_si256(self.0, nibble));
            let high = _mm256_shuffle_epi8(
                table,
                _mm256_and_si256(_mm256_srli_epi16::<4>(self.0), nibble),
            );
            let bytes = _mm256_add_epi8(low, high);
            Avx2(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)))
        }
    }
    #[inline(always)]
    fn any_below(self, other: Self) -> bool {
        // SAFETY: see the module's note.
        unsafe {
            let below = _mm256_cmpgt_epi16(other.0, self.0);
            _mm256_testz_si256(below, below) == 0
        }
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: see the module's note.
        unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
    }
    #[inline(always)]
    fn same(self, other: Self) -> bool {
        self.xor(other).is_zero()
    }
    #[inline(always)]
    fn shuffle(self, control: &Shuffle) -> Self {
        // SAFETY: see the module's note; `Shuffle` is 32-byte aligned.
        unsafe {
            let control = _mm256_load_si256(control.0.as_ptr().cast());
            Avx2(_mm256_shuffle_epi8(self.0, control))
        }
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Avx2(_mm256_permute4x64_epi64::<0x4e>(self.0)) }
    }
    #[inline(always)]
    fn spread_group<const G: i32>(self) -> Self {
        // SAFETY: see the module's note.
        unsafe {
            Avx2(match G {
                0 => _mm256_permute4x64_epi64::<0x00>(self.0),
                1 => _mm256_permute4x64_epi64::<0x55>(self.0),
                2 => _mm256_permute4x64_epi64::<0xaa>(self.0),
                _ => _mm256_permute4x64_epi64::<0xff>(self.0),
            })
        }
    }
    #[inline(always)]
    fn gather_triads(self) -> Self {
        // SAFETY: see the module's note.
        unsafe {
            let pairs = _mm256_setr_epi32(1, 3, 5, 0, 6, 7, 0, 0);
            Avx2(_mm256_permutevar8x32_epi32(self.0, pairs))
        }
    }
}

impl Half for Sse {
    #[inline(always)]
    fn load(lanes: &Lanes8) -> Self {
        // SAFETY: see the module's note; `Lanes8` is 16-byte aligned.
        unsafe { Sse(_mm_load_si128(lanes.0.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes8) {
        // SAFETY: see the module's note; `Lanes8` is 16-byte aligned.
        unsafe { _mm_store_si128(out.0.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: see the module's note.
        unsafe { Sse(_mm_setzero_si128()) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Sse(_mm_or_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Sse(_mm_andnot_si128(other.0, self.0)) }
    }
    #[inline(always)]
    fn intersects(self, other: Self) -> bool {
        // SAFETY: see the module's note (SSE4.1 comes with AVX2).
        unsafe { _mm_testz_si128(self.0, other.0) == 0 }
    }
    #[inline(always)]
    fn or_lanes(self) -> u16 {
        // SAFETY: see the module's note.
        unsafe {
            let x = _mm_or_si128(self.0, _mm_srli_si128::<8>(self.0));
            let x = _mm_or_si128(x, _mm_srli_si128::<4>(x));
            let x = _mm_or_si128(x, _mm_srli_si128::<2>(x));
            _mm_cvtsi128_si32(x) as u16
        }
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        // SAFETY: see the module's note.
        unsafe {
            let low = _mm_cvtsi128_si64(self.0) as u64;
            let high = _mm_extract_epi64::<1>(self.0) as u64;
            low.count_ones() + high.count_ones()
        }
    }
}
