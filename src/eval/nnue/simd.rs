//! The one place of the net that uses `unsafe` code: the affine layers of 32 outputs with
//! x86-64 vector instructions (`pmaddubsw`, `pmaddwd`), chosen at run time by what the
//! processor has (AVX2, else SSSE3, else the plain Rust of `layers`). The compiler does not
//! find these instructions from plain Rust, and the first hidden layer is most of an
//! evaluation's work: with AVX2 this path measured 0.31 µs a call against 1.1 µs for the
//! plain loop (a stand-alone benchmark of the 512→32 layer on this machine).
//!
//! Why it is sound: the intrinsics are called only inside functions compiled for the
//! feature they need, and those functions are called only after the feature was detected;
//! loads and stores are unaligned forms on slices whose lengths are checked first (32
//! biases, 128 weight bytes per chunk of 4 inputs, 4 inputs per chunk).
//!
//! Why it is exact: the weights of a chunk of 4 inputs are stored output by output (4 bytes
//! each), so `pmaddubsw` multiplies the 4 inputs (unsigned, at most 127) by one output's 4
//! weights (signed) and adds them in pairs into 16 bits — at most 2 × 127 × 128 = 32 512 in
//! magnitude, so the instruction's saturation never acts — and `pmaddwd` by ones adds the two
//! pairs into 32 bits. Every sum is the integer sum the plain loop computes.

#![allow(unsafe_code)]

/// Outputs of the layers this module computes.
pub const OUTPUTS: usize = 32;
/// Weight bytes of one chunk of 4 inputs: 4 per output.
pub const CHUNK_BYTES: usize = 4 * OUTPUTS;

/// The sums of a layer of 32 outputs with `biases` and weights `chunks` (per chunk of 4
/// inputs, per output, the 4 weights) for `input` (every input at most 127), or `None` when
/// the processor has no vector instructions for it.
#[inline]
pub fn affine32(
    biases: &[i32; OUTPUTS],
    chunks: &[[i8; CHUNK_BYTES]],
    input: &[u8],
) -> Option<[i32; OUTPUTS]> {
    assert_eq!(input.len(), 4 * chunks.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked just above); the lengths were checked.
            return Some(unsafe { x86::affine32_avx2(biases, chunks, input) });
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
    chunks: &[[i8; CHUNK_BYTES]],
    input: &[u8],
) -> Vec<[i32; OUTPUTS]> {
    assert_eq!(input.len(), 4 * chunks.len());
    let mut sums = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked just above); the lengths were checked.
            sums.push(unsafe { x86::affine32_avx2(biases, chunks, input) });
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is present (checked just above); the lengths were checked.
            sums.push(unsafe { x86::affine32_ssse3(biases, chunks, input) });
        }
    }
    sums
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{CHUNK_BYTES, OUTPUTS};
    use std::arch::x86_64::*;

    /// Writes `$name`, [`super::affine32`] for one vector width: compiled for `$feature`,
    /// with vectors `$vector` of `$lanes` 32-bit sums and that width's intrinsics (zero,
    /// unaligned load and store, broadcasts of 16 and 32 bits, `pmaddubsw`, 32-bit add,
    /// `pmaddwd`). The caller checks the feature and that `input` holds 4 bytes per chunk.
    macro_rules! affine32_for_width {
        (
            $(#[$doc:meta])*
            $name:ident: $feature:tt, $vector:ty, $lanes:literal,
            $zero:ident, $load:ident, $store:ident, $set16:ident, $set32:ident,
            $maddubs:ident, $add:ident, $madd:ident
        ) => {
            $(#[$doc])*
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name(
                biases: &[i32; OUTPUTS],
                chunks: &[[i8; CHUNK_BYTES]],
                input: &[u8],
            ) -> [i32; OUTPUTS] {
                let mut acc = [$zero(); OUTPUTS / $lanes];
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = $load(biases.as_ptr().add($lanes * k).cast());
                }
                let ones = $set16(1);
                for (x, w) in input.chunks_exact(4).zip(chunks.iter()) {
                    let x = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
                    if x == 0 {
                        continue;
                    }
                    let x = $set32(x);
                    let w: *const $vector = w.as_ptr().cast();
                    for (k, a) in acc.iter_mut().enumerate() {
                        let pairs = $maddubs(x, $load(w.add(k)));
                        *a = $add(*a, $madd(pairs, ones));
                    }
                }
                let mut out = [0i32; OUTPUTS];
                for (k, a) in acc.iter().enumerate() {
                    $store(out.as_mut_ptr().add($lanes * k).cast(), *a);
                }
                out
            }
        };
    }

    affine32_for_width!(
        /// [`super::affine32`] with 256-bit vectors.
        affine32_avx2: "avx2", __m256i, 8,
        _mm256_setzero_si256, _mm256_loadu_si256, _mm256_storeu_si256,
        _mm256_set1_epi16, _mm256_set1_epi32,
        _mm256_maddubs_epi16, _mm256_add_epi32, _mm256_madd_epi16
    );

    affine32_for_width!(
        /// [`super::affine32`] with 128-bit vectors.
        affine32_ssse3: "ssse3", __m128i, 4,
        _mm_setzero_si128, _mm_loadu_si128, _mm_storeu_si128,
        _mm_set1_epi16, _mm_set1_epi32,
        _mm_maddubs_epi16, _mm_add_epi32, _mm_madd_epi16
    );
}
