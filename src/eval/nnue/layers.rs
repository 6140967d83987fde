//! The layers after the feature transformer: the clipping of the two accumulator halves into
//! the 512 bytes the network reads, the affine layers (`i32` biases, `i8` weights, `i32`
//! sums), the clipped ReLU between them (a right shift by the weight scale bits, clamped to
//! 0..=127), and the final scaling to centipawns (a division by `FV_SCALE` that truncates
//! toward zero, as C++'s does, clamped to YaneuraOu's largest evaluation).
//!
//! Every sum is exact integer arithmetic, so the order in which the terms are added does not
//! matter: the weights are kept input-major here (by pairs of inputs) so that each pair adds
//! two contiguous columns to all outputs, a loop over fixed-size arrays that the compiler
//! turns into vector instructions, and pairs of zero inputs (common after the clamps) cost
//! nothing.

use super::simd;

/// Width of the first hidden layer's input: the two halves of the transformed features.
pub const L1_INPUTS: usize = 512;
/// Width of both hidden layers.
pub const HIDDEN: usize = 32;
/// The weights' fixed-point scale: a hidden sum is shifted right by this many bits.
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// The output's divisor (YaneuraOu's `FV_SCALE`, default 16).
pub const FV_SCALE: i32 = 16;
/// YaneuraOu's largest evaluation (`VALUE_MAX_EVAL`: 32000 − 246 − 1).
pub const MAX_EVAL: i32 = 31753;

/// An affine layer of `IN` inputs and `OUT` outputs.
#[derive(Clone)]
pub struct Affine<const IN: usize, const OUT: usize> {
    biases: [i32; OUT],
    /// The weights by pairs of inputs, widened to `i16`: `pairs[k][0][j]` multiplies input
    /// `2k` into output `j`, `pairs[k][1][j]` input `2k + 1`.
    pairs: Box<[[[i16; OUT]; 2]]>,
    /// For layers of 32 outputs, the weights by chunks of 4 inputs for `simd`: per output,
    /// its 4 weights.
    chunks: Box<[simd::Chunk]>,
}

impl<const IN: usize, const OUT: usize> Affine<IN, OUT> {
    /// A layer from its biases and its output-major weight rows (the file's order).
    pub fn from_rows(biases: [i32; OUT], rows: &[[i8; IN]]) -> Self {
        const { assert!(IN.is_multiple_of(2), "inputs are taken by pairs") };
        let mut pairs = vec![[[0i16; OUT]; 2]; IN / 2].into_boxed_slice();
        for (j, row) in rows.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                pairs[i / 2][i % 2][j] = i16::from(w);
            }
        }
        let mut chunks = vec![simd::Chunk([0; simd::CHUNK_BYTES]); IN / 4].into_boxed_slice();
        if OUT == simd::OUTPUTS && IN.is_multiple_of(4) {
            for (j, row) in rows.iter().enumerate() {
                for (i, &w) in row.iter().enumerate() {
                    chunks[i / 4].0[4 * j + i % 4] = w;
                }
            }
        }
        Affine {
            biases,
            pairs,
            chunks,
        }
    }

    /// Appends the biases and the output-major weights, as the file holds them.
    pub fn write(&self, out: &mut Vec<u8>) {
        for b in self.biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for j in 0..OUT {
            for pair in self.pairs.iter() {
                out.push(pair[0][j] as u8);
                out.push(pair[1][j] as u8);
            }
        }
    }

    /// The layer's sums for `input` (every input at most 127, as the clamps before a layer
    /// leave them). Inputs are taken two at a time: the two products of a weight (−128 to
    /// 127) and an input (0 to 127) sum to at most 32 258 in magnitude, exact in 16 bits,
    /// so the inner loop multiplies and adds 16-bit lanes and widens once per pair.
    #[inline]
    pub fn propagate(&self, input: &[u8; IN]) -> [i32; OUT] {
        if OUT == simd::OUTPUTS && IN.is_multiple_of(4) {
            let biases: &[i32; simd::OUTPUTS] = self.biases.as_slice().try_into().expect("32");
            if let Some(sums) = simd::affine32(biases, &self.chunks, input) {
                return sums.as_slice().try_into().expect("32");
            }
        }
        self.propagate_plain(input)
    }

    /// [`Affine::propagate`] in plain Rust, whatever the processor.
    #[inline]
    pub fn propagate_plain(&self, input: &[u8; IN]) -> [i32; OUT] {
        let mut out = self.biases;
        for (xs, [wa, wb]) in input.chunks_exact(2).zip(self.pairs.iter()) {
            debug_assert!(xs[0] <= 127 && xs[1] <= 127);
            let (a, b) = (i16::from(xs[0]), i16::from(xs[1]));
            if a == 0 && b == 0 {
                continue;
            }
            for ((o, &x), &y) in out.iter_mut().zip(wa.iter()).zip(wb.iter()) {
                let sum = x.wrapping_mul(a).wrapping_add(y.wrapping_mul(b));
                *o = o.wrapping_add(i32::from(sum));
            }
        }
        out
    }
}

/// The clipped ReLU: each sum shifted right by [`WEIGHT_SCALE_BITS`] and clamped to 0..=127.
#[inline]
pub fn clipped_relu<const N: usize>(sums: &[i32; N]) -> [u8; N] {
    let mut out = [0u8; N];
    for (o, &s) in out.iter_mut().zip(sums.iter()) {
        *o = (s >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8;
    }
    out
}

/// The network's output sum scaled to centipawns: divided by [`FV_SCALE`] (truncating
/// toward zero) and clamped to ±[`MAX_EVAL`].
#[inline]
pub fn to_centipawns(output: i32) -> i32 {
    (output / FV_SCALE).clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector path (when the processor has one) and every vector form the processor
    /// runs (AVX2 and SSSE3 here) give the plain loop's sums, inputs and weights at their
    /// extremes included, whole chunks of zero inputs among the rest.
    #[test]
    fn vector_and_plain_layers_agree() {
        let mut seed = 7u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 8) as u8
        };
        let rows: Vec<[i8; 512]> = (0..32)
            .map(|j| std::array::from_fn(|i| if (i + j) % 5 == 0 { -128 } else { next() as i8 }))
            .collect();
        let biases: [i32; 32] = std::array::from_fn(|j| j as i32 * 1000 - 16_000);
        let layer = Affine::<512, 32>::from_rows(biases, &rows);
        for round in 0..200 {
            // Some chunks of 4 inputs wholly zero (as the clamps leave most), the rest mixed.
            let zero_chunks: [bool; 128] =
                std::array::from_fn(|_| usize::from(next()) % 4 != round % 4);
            let input: [u8; 512] = std::array::from_fn(|i| match (round + i) % 4 {
                _ if zero_chunks[i / 4] => 0,
                0 => 0,
                1 => 127,
                _ => next() & 127,
            });
            let plain = layer.propagate_plain(&input);
            assert_eq!(layer.propagate(&input), plain);
            let biases: &[i32; 32] = &layer.biases;
            for sums in simd::affine32_every_width(biases, &layer.chunks, &input) {
                assert_eq!(sums, plain);
            }
        }
    }

    #[test]
    fn division_truncates_toward_zero_and_clamps() {
        assert_eq!(to_centipawns(-17), -1);
        assert_eq!(to_centipawns(-15), 0);
        assert_eq!(to_centipawns(31), 1);
        assert_eq!(to_centipawns(i32::MAX), MAX_EVAL);
        assert_eq!(to_centipawns(i32::MIN), -MAX_EVAL);
    }

    #[test]
    fn clipped_relu_shifts_arithmetically_and_clamps() {
        assert_eq!(
            clipped_relu(&[-1, 63, 64, 127 * 64 + 63, 128 * 64, -100_000]),
            [0, 0, 1, 127, 127, 0]
        );
    }

    #[test]
    fn affine_layers_read_rows_and_sum_columns() {
        let rows = [[1i8, -2, 3, -128], [-128, 127, 0, -128]];
        let layer = Affine::<4, 2>::from_rows([10, -10], &rows);
        assert_eq!(
            layer.propagate(&[1, 2, 3, 127]),
            [10 + 1 - 4 + 9 - 128 * 127, -10 - 128 + 254 - 128 * 127]
        );
        let mut bytes = Vec::new();
        layer.write(&mut bytes);
        assert_eq!(&bytes[8..], &[1, 0xFE, 3, 0x80, 0x80, 127, 0, 0x80]);
    }
}
