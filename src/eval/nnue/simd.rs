//! The one place of the net that uses `unsafe` code: the net's hot loops written with x86-64
//! vector instructions, chosen at run time by what the processor has (AVX2, else SSSE3, else
//! the plain Rust of `layers` and of `Row`). The build targets x86-64-v2, so the compiler
//! vectorises plain Rust only to 128 bits and never finds `pmaddubsw`/`pmaddwd` by itself.
//! Three loops live here:
//!
//! - **The affine layers of 32 outputs** (`pmaddubsw`, `pmaddwd`). The first hidden layer is
//!   most of an evaluation's work: the dense AVX2 form measured 0.31 µs a call against 1.1 µs
//!   for the plain loop (a stand-alone benchmark of the 512→32 layer on this machine). The AVX2
//!   form first lists the chunks of 4 inputs that are not all zero (the clamps leave many
//!   zero with some nets), 8 chunks per comparison, through a table of the 256 masks' lane
//!   numbers, then sums only those: no branch per chunk for the processor to mispredict.
//! - **The accumulator update** ([`rows_changed`]): one accumulator half (256 `i16`) set to the
//!   half before a move less the rows it removes plus the rows it adds, in one pass over the
//!   half for any number of rows, eight 256-bit registers at a time.
//! - **The clamp of the accumulator** ([`clamp_half`]) into the first layer's bytes.
//!
//! Why it is sound: the intrinsics are called only inside functions compiled for the
//! feature they need, and those functions are called only after the feature was detected;
//! loads and stores are of slices whose lengths are checked first (32 biases, 4 inputs per
//! chunk, at most [`MAX_CHUNKS`] chunks for the sparse form) or of whole fixed-size arrays,
//! and the aligned forms are used only on types aligned for them ([`Chunk`], 32 bytes, for
//! the weights; `Row`, 64 bytes, for the accumulator's 256 `i16`).
//!
//! Why it is exact: the weights of a chunk of 4 inputs are stored output by output (4 bytes
//! each), so `pmaddubsw` multiplies the 4 inputs (unsigned, at most 127) by one output's 4
//! weights (signed) and adds them in pairs into 16 bits — at most 2 × 127 × 128 = 32 512 in
//! magnitude, so the instruction's saturation never acts — and `pmaddwd` by ones adds the two
//! pairs into 32 bits. Every sum is the integer sum the plain loop computes; a chunk left out
//! is one whose 4 inputs are zero, which adds nothing. The accumulator's 16-bit additions and
//! subtractions wrap, as the plain loop's `wrapping_add`/`wrapping_sub` (and YaneuraOu's).
//! The clamp packs with unsigned saturation (below 0 gives 0) and then takes at most 127:
//! the plain `clamp(0, 127)`.

#![allow(unsafe_code)]

use super::{Row, HALF};

/// Outputs of the layers this module computes.
pub const OUTPUTS: usize = 32;
/// Weight bytes of one chunk of 4 inputs: 4 per output.
pub const CHUNK_BYTES: usize = 4 * OUTPUTS;

/// The weights of one chunk of 4 inputs (per output, its 4 weights), aligned so that the
/// vector forms load them whole (an unaligned 256-bit load is compiled as two halves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Chunk(pub [i8; CHUNK_BYTES]);
/// The most chunks of 4 inputs the sparse form lists (the 512 inputs of the first layer).
pub const MAX_CHUNKS: usize = 128;

/// The sums of a layer of 32 outputs with `biases` and weights `chunks` (per chunk of 4
/// inputs, per output, the 4 weights) for `input` (every input at most 127), or `None` when
/// the processor has no vector instructions for it.
#[inline]
pub fn affine32(biases: &[i32; OUTPUTS], chunks: &[Chunk], input: &[u8]) -> Option<[i32; OUTPUTS]> {
    assert_eq!(input.len(), 4 * chunks.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && x86::fits_sparse(chunks.len()) {
            // SAFETY: AVX2 is present (checked just above); the lengths were checked.
            return Some(unsafe { x86::affine32_sparse_avx2(biases, chunks, input) });
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is present (checked just above); the lengths were checked.
            return Some(unsafe { x86::affine32_ssse3(biases, chunks, input) });
        }
    }
    None
}

/// [`affine32`] by every vector form this processor runs, each form's sums in turn (none
/// where it has none): for tests, which hold each against the plain loop.
#[cfg(test)]
pub fn affine32_every_width(
    biases: &[i32; OUTPUTS],
    chunks: &[Chunk],
    input: &[u8],
) -> Vec<[i32; OUTPUTS]> {
    assert_eq!(input.len(), 4 * chunks.len());
    let mut sums = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && x86::fits_sparse(chunks.len()) {
            // SAFETY: AVX2 is present (checked just above); the lengths were checked.
            sums.push(unsafe { x86::affine32_sparse_avx2(biases, chunks, input) });
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is present (checked just above); the lengths were checked.
            sums.push(unsafe { x86::affine32_ssse3(biases, chunks, input) });
        }
    }
    sums
}

/// Sets `out` to `before` less the rows `removed` plus the rows `added` (wrapping) with
/// vector instructions, in one pass; `false` (and `out` untouched) when the processor has
/// none for it.
#[inline]
pub fn rows_changed(out: &mut Row, before: &Row, removed: &[&Row], added: &[&Row]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked just above); every row holds HALF lanes.
            unsafe { x86::rows_changed_avx2(out, before, removed, added) };
            return true;
        }
    }
    let _ = (out, before, removed, added);
    false
}

/// Writes each of `half`'s 256 sums clamped to 0..=127 into `out` with vector instructions;
/// `false` (and `out` untouched) when the processor has none for it.
#[inline]
pub fn clamp_half(half: &Row, out: &mut [u8; HALF]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked just above); both hold HALF lanes.
            unsafe { x86::clamp_half_avx2(half, out) };
            return true;
        }
    }
    let _ = (half, out);
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Chunk, Row, HALF, MAX_CHUNKS, OUTPUTS};
    use std::arch::x86_64::*;

    /// Chunks of 4 inputs one 256-bit comparison looks at.
    const CHUNKS_PER_TEST: usize = 8;

    /// Whether the sparse form takes a layer of `chunks` chunks of 4 inputs: whole tests of
    /// 8 chunks, and no more than its list holds.
    pub(super) fn fits_sparse(chunks: usize) -> bool {
        chunks.is_multiple_of(CHUNKS_PER_TEST) && chunks <= MAX_CHUNKS
    }

    /// For each mask of 8 bits, the numbers of its set bits in increasing order (the rest 0):
    /// the lanes of a test whose chunks are not zero.
    static SET_LANES: [[u16; CHUNKS_PER_TEST]; 256] = set_lanes();

    const fn set_lanes() -> [[u16; CHUNKS_PER_TEST]; 256] {
        let mut table = [[0u16; CHUNKS_PER_TEST]; 256];
        let mut mask = 0;
        while mask < 256 {
            let (mut bit, mut count) = (0, 0);
            while bit < CHUNKS_PER_TEST {
                if mask & (1 << bit) != 0 {
                    table[mask][count] = bit as u16;
                    count += 1;
                }
                bit += 1;
            }
            mask += 1;
        }
        table
    }

    /// [`super::affine32`] with 256-bit vectors, summing only the chunks that are not zero.
    /// The caller checks AVX2, that `input` holds 4 bytes per chunk and [`fits_sparse`].
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn affine32_sparse_avx2(
        biases: &[i32; OUTPUTS],
        chunks: &[Chunk],
        input: &[u8],
    ) -> [i32; OUTPUTS] {
        // The chunks to sum. Each test stores all 8 of its lane numbers and keeps as many as
        // it found, so the list's end stays within the chunks tested so far.
        let mut nonzero = [0u16; MAX_CHUNKS];
        let mut count = 0;
        let zero = _mm256_setzero_si256();
        for test in 0..chunks.len() / CHUNKS_PER_TEST {
            let bytes = _mm256_loadu_si256(input.as_ptr().add(4 * CHUNKS_PER_TEST * test).cast());
            let zero_lanes =
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bytes, zero)));
            let mask = !zero_lanes as usize & 0xFF;
            let first = _mm_set1_epi16((CHUNKS_PER_TEST * test) as i16);
            let lanes = _mm_loadu_si128(SET_LANES[mask].as_ptr().cast());
            _mm_storeu_si128(
                nonzero.as_mut_ptr().add(count).cast(),
                _mm_add_epi16(first, lanes),
            );
            count += mask.count_ones() as usize;
        }
        const REGS: usize = OUTPUTS / 8;
        let mut acc = [_mm256_setzero_si256(); REGS];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_loadu_si256(biases.as_ptr().add(8 * k).cast());
        }
        let ones = _mm256_set1_epi16(1);
        for &chunk in &nonzero[..count] {
            let chunk = usize::from(chunk);
            let x = input.as_ptr().add(4 * chunk).cast::<i32>().read_unaligned();
            let x = _mm256_set1_epi32(x);
            let w: *const __m256i = chunks.get_unchecked(chunk).0.as_ptr().cast();
            for (k, a) in acc.iter_mut().enumerate() {
                let pairs = _mm256_maddubs_epi16(x, _mm256_load_si256(w.add(k)));
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, ones));
            }
        }
        let mut out = [0i32; OUTPUTS];
        for (k, a) in acc.iter().enumerate() {
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * k).cast(), *a);
        }
        out
    }

    /// [`super::affine32`] with 128-bit vectors, chunk by chunk (zero chunks skipped). The
    /// caller checks SSSE3 and that `input` holds 4 bytes per chunk.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn affine32_ssse3(
        biases: &[i32; OUTPUTS],
        chunks: &[Chunk],
        input: &[u8],
    ) -> [i32; OUTPUTS] {
        const REGS: usize = OUTPUTS / 4;
        let mut acc = [_mm_setzero_si128(); REGS];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm_loadu_si128(biases.as_ptr().add(4 * k).cast());
        }
        let ones = _mm_set1_epi16(1);
        for (x, w) in input.chunks_exact(4).zip(chunks.iter()) {
            let x = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
            if x == 0 {
                continue;
            }
            let x = _mm_set1_epi32(x);
            let w: *const __m128i = w.0.as_ptr().cast();
            for (k, a) in acc.iter_mut().enumerate() {
                let pairs = _mm_maddubs_epi16(x, _mm_load_si128(w.add(k)));
                *a = _mm_add_epi32(*a, _mm_madd_epi16(pairs, ones));
            }
        }
        let mut out = [0i32; OUTPUTS];
        for (k, a) in acc.iter().enumerate() {
            _mm_storeu_si128(out.as_mut_ptr().add(4 * k).cast(), *a);
        }
        out
    }

    /// [`super::rows_changed`] with 256-bit vectors: the half in two blocks of eight
    /// registers (128 lanes), each loaded once from `before` and every row and stored once.
    /// The caller checks AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn rows_changed_avx2(
        out: &mut Row,
        before: &Row,
        removed: &[&Row],
        added: &[&Row],
    ) {
        const LANES: usize = 16;
        const REGS: usize = 8;
        const BLOCK: usize = LANES * REGS;
        const { assert!(HALF.is_multiple_of(BLOCK)) };
        for start in (0..HALF).step_by(BLOCK) {
            let mut v = [_mm256_setzero_si256(); REGS];
            for (k, v) in v.iter_mut().enumerate() {
                *v = _mm256_load_si256(before.0.as_ptr().add(start + LANES * k).cast());
            }
            for row in removed {
                for (k, v) in v.iter_mut().enumerate() {
                    let w = _mm256_load_si256(row.0.as_ptr().add(start + LANES * k).cast());
                    *v = _mm256_sub_epi16(*v, w);
                }
            }
            for row in added {
                for (k, v) in v.iter_mut().enumerate() {
                    let w = _mm256_load_si256(row.0.as_ptr().add(start + LANES * k).cast());
                    *v = _mm256_add_epi16(*v, w);
                }
            }
            for (k, v) in v.iter().enumerate() {
                _mm256_store_si256(out.0.as_mut_ptr().add(start + LANES * k).cast(), *v);
            }
        }
    }

    /// [`super::clamp_half`] with 256-bit vectors: 32 sums at a time packed to unsigned bytes
    /// with saturation (below 0 gives 0), then at most 127. Packing works within each 128-bit
    /// half of the registers, so the four 64-bit quarters are put back in order after it.
    /// The caller checks AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn clamp_half_avx2(half: &Row, out: &mut [u8; HALF]) {
        const LANES: usize = 16;
        let most = _mm256_set1_epi8(127);
        for start in (0..HALF).step_by(2 * LANES) {
            let low = _mm256_load_si256(half.0.as_ptr().add(start).cast());
            let high = _mm256_load_si256(half.0.as_ptr().add(start + LANES).cast());
            let packed = _mm256_packus_epi16(low, high);
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            let clamped = _mm256_min_epu8(ordered, most);
            _mm256_storeu_si256(out.as_mut_ptr().add(start).cast(), clamped);
        }
    }
}
