//! The triad engine's vector operations on x86-64 registers, in two
//! flavours detected at run time: AVX2 (with POPCNT), and AVX-512 on
//! 256-bit registers (AVX-512 F, VL, BW and BITALG), which counts a
//! lane's bits in one instruction, compares into mask registers, and lets
//! the compiler fuse chains of logic into ternary-logic instructions.
//!
//! Each operation of [`Wide`] and [`Half`] is the instruction or the few
//! that the portable implementation in [`super::lanes`] describes; the
//! engine's tests run every flavour this machine has on the same puzzles
//! and compare every answer and statistic. `cargo xtask bench bits`
//! measures what each pays against the portable twin.
//!
//! # Safety
//! The intrinsics need the features of their flavour; executing them on a
//! processor without those is undefined behaviour. Values of [`Ymm`] and
//! [`Xmm`] are private to this module and made only inside
//! [`search_avx2`] and [`search_avx512`] (`Ymm<false>` and `Ymm<true>`
//! respectively), whose one caller, [`search`], runs each only after
//! [`has_avx2`] or [`has_avx512`] said the processor has its features.
//! So every `unsafe` block below runs on such a processor (an AVX-512
//! instruction only in `Ymm<true>`, inside `search_avx512`); no other
//! code, tests included, may make or use these values. And the
//! intrinsics in them read and write only their own registers and the
//! aligned lanes they are handed ([`Lanes16`] is 32-byte aligned,
//! [`Lanes8`] 16-byte aligned, [`Shuffle`] 32-byte).

use std::arch::x86_64::*;

use dlx_core::{Control, Outcome};

use super::lanes::{Half, Lanes16, Lanes8, Shuffle, Wide};
use super::{search_with, Saved, Task, Vectors, CELLS, MOST_GUESSES};
use crate::sudoku::BitStats;

/// Whether this processor has AVX2 and POPCNT.
pub(super) fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
}

/// Whether this processor has the AVX-512 features [`Ymm<true>`] uses
/// (and AVX2).
pub(super) fn has_avx512() -> bool {
    has_avx2()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512bitalg")
}

/// The search on x86 registers of the flavour `vectors`.
///
/// # Panics
/// If `vectors` is portable, or the processor lacks its features (the
/// solver checked when it was made, so this does not happen).
pub(super) fn search<F>(
    vectors: Vectors,
    stack: &mut [Saved; MOST_GUESSES],
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    match vectors {
        Vectors::Avx512 => {
            assert!(has_avx512(), "AVX-512 F, VL, BW, BITALG");
            // SAFETY: the processor has every feature `search_avx512` is
            // compiled for.
            unsafe { search_avx512(stack, grid, task, visit) }
        }
        Vectors::Avx2 => {
            assert!(has_avx2(), "AVX2 and POPCNT");
            // SAFETY: the processor has every feature `search_avx2` is
            // compiled for.
            unsafe { search_avx2(stack, grid, task, visit) }
        }
        Vectors::Portable => unreachable!("the portable search is not here"),
    }
}

/// [`search_with`] compiled for AVX2: everything it calls is inlined
/// into it, so the intrinsics compile to single instructions.
///
/// # Safety
/// The processor must have AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn search_avx2<F>(
    stack: &mut [Saved; MOST_GUESSES],
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    search_with::<Ymm<false>, F>(stack, grid, task, visit)
}

/// [`search_with`] compiled for AVX-512 on 256-bit registers.
///
/// # Safety
/// The processor must have what [`has_avx512`] checks.
#[target_feature(enable = "avx2,popcnt,avx512f,avx512vl,avx512bw,avx512bitalg")]
unsafe fn search_avx512<F>(
    stack: &mut [Saved; MOST_GUESSES],
    grid: &mut [u8; CELLS],
    task: &Task,
    visit: &mut F,
) -> (Outcome, BitStats)
where
    F: FnMut(&[u8]) -> Control,
{
    search_with::<Ymm<true>, F>(stack, grid, task, visit)
}

/// Sixteen lanes in a 256-bit register; `V4` when AVX-512 may be used
/// (see the module's safety note).
#[derive(Clone, Copy)]
struct Ymm<const V4: bool>(__m256i);

/// Eight lanes in a 128-bit register (see the module's safety note).
#[derive(Clone, Copy)]
struct Xmm(__m128i);

impl<const V4: bool> Wide for Ymm<V4> {
    type Half = Xmm;

    #[inline(always)]
    fn load(lanes: &Lanes16) -> Self {
        // SAFETY: see the module's note; `Lanes16` is 32-byte aligned.
        unsafe { Ymm(_mm256_load_si256(lanes.0.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes16) {
        // SAFETY: see the module's note; `Lanes16` is 32-byte aligned.
        unsafe { _mm256_store_si256(out.0.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat(x: u16) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_set1_epi16(x as i16)) }
    }
    #[inline(always)]
    fn broadcast(half: Xmm) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_broadcastsi128_si256(half.0)) }
    }
    #[inline(always)]
    fn low(self) -> Xmm {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm256_castsi256_si128(self.0)) }
    }
    #[inline(always)]
    fn high(self) -> Xmm {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm256_extracti128_si256::<1>(self.0)) }
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_and_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_or_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_xor_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_andnot_si256(other.0, self.0)) }
    }
    #[inline(always)]
    fn equal(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_cmpeq_epi16(self.0, other.0)) }
    }
    #[inline(always)]
    fn nonzero(self) -> Self {
        // A signed comparison: lanes are below 0x8000.
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_cmpgt_epi16(self.0, _mm256_setzero_si256())) }
    }
    #[inline(always)]
    fn popcounts(self) -> Self {
        if V4 {
            // SAFETY: see the module's note (AVX-512 BITALG and VL).
            return unsafe { Ymm(_mm256_popcnt_epi16(self.0)) };
        }
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
            Ymm(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)))
        }
    }
    #[inline(always)]
    fn any_below(self, other: Self) -> bool {
        if V4 {
            // SAFETY: see the module's note (AVX-512 BW and VL).
            return unsafe { _mm256_cmplt_epu16_mask(self.0, other.0) != 0 };
        }
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
        if V4 {
            // SAFETY: see the module's note (AVX-512 BW and VL).
            return unsafe { _mm256_cmpneq_epi16_mask(self.0, other.0) == 0 };
        }
        self.xor(other).is_zero()
    }
    #[inline(always)]
    fn shuffle(self, control: &Shuffle) -> Self {
        // SAFETY: see the module's note; `Shuffle` is 32-byte aligned.
        unsafe {
            let control = _mm256_load_si256(control.0.as_ptr().cast());
            Ymm(_mm256_shuffle_epi8(self.0, control))
        }
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Ymm(_mm256_permute4x64_epi64::<0x4e>(self.0)) }
    }
    #[inline(always)]
    fn spread_group<const G: i32>(self) -> Self {
        const { assert!(0 <= G && G < 4, "one of four groups") };
        // SAFETY: see the module's note.
        unsafe {
            Ymm(match G {
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
            Ymm(_mm256_permutevar8x32_epi32(self.0, pairs))
        }
    }
}

impl Half for Xmm {
    #[inline(always)]
    fn load(lanes: &Lanes8) -> Self {
        // SAFETY: see the module's note; `Lanes8` is 16-byte aligned.
        unsafe { Xmm(_mm_load_si128(lanes.0.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, out: &mut Lanes8) {
        // SAFETY: see the module's note; `Lanes8` is 16-byte aligned.
        unsafe { _mm_store_si128(out.0.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat(x: u16) -> Self {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm_set1_epi16(x as i16)) }
    }
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm_setzero_si128()) }
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm_and_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm_or_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: see the module's note.
        unsafe { Xmm(_mm_andnot_si128(other.0, self.0)) }
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
