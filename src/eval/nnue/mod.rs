//! NNUE evaluation of standard shogi with YaneuraOu's `halfkp_256x2-32-32` and
//! `kp_256x2-32-32` nets (its `nn.bin`), computing exactly the value YaneuraOu's NNUE
//! edition computes.
//!
//! The net: a feature transformer turns the features of each side's view (HalfKP or K+P,
//! `features`; the two architectures differ only there)
//! into 256 sums (`i16`, the *accumulator* half of that side), kept up to date move by move;
//! the side to move's half and then the other's, clamped to 0..=127, feed two hidden layers
//! of 32 and an output (`layers`). The file format and the hashes that identify it are in
//! `file`. This module owns the [`Network`] (its weights), the [`Accumulator`] and its
//! refresh and incremental update, and the evaluation of a position. The same layers and
//! file serve Shishi's own nets for the 12×12 games, whose features are in `board12` and
//! whose trainer's file is `sparse_file`.

pub mod board12;
pub mod builtin;
pub mod feature_file;
pub mod features;
pub mod file;
pub mod layers;
pub mod shogammon;
mod simd;
pub mod sparse_file;

use crate::rules::geometry::Color;
use crate::rules::variants::shogi::Position;
use arrayvec::ArrayVec;
use features::{Changes, FeatureSet};
use layers::{clipped_relu, to_centipawns, Affine, HIDDEN, L1_INPUTS};
use std::sync::Arc;

/// Width of one accumulator half (the transformer's outputs per perspective).
pub const HALF: usize = 256;

/// One row of transformer weights, or one accumulator half: 256 `i16`, cache-line aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HALF]);

impl Default for Row {
    fn default() -> Self {
        Row([0; HALF])
    }
}

impl Row {
    /// Adds `w` (wrapping, as YaneuraOu's 16-bit vector additions do).
    #[inline]
    fn add(&mut self, w: &Row) {
        for (a, &b) in self.0.iter_mut().zip(w.0.iter()) {
            *a = a.wrapping_add(b);
        }
    }

    /// Sets this row to `before` less the rows `removed` plus the rows `added` (wrapping), in
    /// one pass with vector instructions where the processor has them (`simd`), else by
    /// [`Row::set_changed_plain`].
    #[inline]
    fn set_changed(&mut self, before: &Row, removed: &[&Row], added: &[&Row]) {
        if !simd::rows_changed(self, before, removed, added) {
            self.set_changed_plain(before, removed, added);
        }
    }

    /// [`Row::set_changed`] in plain Rust. A move of standard shogi changes one or two inputs
    /// of a view (two with a capture, or the king's with K+P): those are done in one pass,
    /// each element loaded once from every row and stored once, where row-by-row additions
    /// load and store the row for each.
    #[inline]
    fn set_changed_plain(&mut self, before: &Row, removed: &[&Row], added: &[&Row]) {
        match (removed, added) {
            (&[r], &[a]) => self.set_changed_by([r], [a], before),
            (&[r0, r1], &[a0, a1]) => self.set_changed_by([r0, r1], [a0, a1], before),
            _ => {
                *self = *before;
                for row in removed {
                    self.sub(row);
                }
                for row in added {
                    self.add(row);
                }
            }
        }
    }

    /// [`Row::set_changed`] for `N` rows out and `N` in, in one pass.
    #[inline(always)]
    fn set_changed_by<const N: usize>(
        &mut self,
        removed: [&Row; N],
        added: [&Row; N],
        before: &Row,
    ) {
        for (i, out) in self.0.iter_mut().enumerate() {
            let mut v = before.0[i];
            for k in 0..N {
                v = v.wrapping_sub(removed[k].0[i]).wrapping_add(added[k].0[i]);
            }
            *out = v;
        }
    }

    /// Subtracts `w` (wrapping).
    #[inline]
    fn sub(&mut self, w: &Row) {
        for (a, &b) in self.0.iter_mut().zip(w.0.iter()) {
            *a = a.wrapping_sub(b);
        }
    }
}

/// The feature transformer: biases and one weight row per input.
#[derive(Clone)]
pub struct FeatureTransformer {
    pub biases: Row,
    pub weights: Vec<Row>,
}

impl FeatureTransformer {
    /// All zero, ready to be filled: a row per input of `features`.
    pub fn zeroed(features: FeatureSet) -> FeatureTransformer {
        FeatureTransformer {
            biases: Row::default(),
            weights: vec![Row::default(); features.inputs()],
        }
    }
}

/// Writes each of `half`'s sums clamped to 0..=127 into `out` (the first layer's input), with
/// vector instructions where the processor has them.
#[inline]
fn clamp_half(half: &Row, out: &mut [u8; HALF]) {
    if !simd::clamp_half(half, out) {
        clamp_half_plain(half, out);
    }
}

/// [`clamp_half`] in plain Rust.
#[inline]
fn clamp_half_plain(half: &Row, out: &mut [u8; HALF]) {
    for (o, &a) in out.iter_mut().zip(half.0.iter()) {
        *o = a.clamp(0, 127) as u8;
    }
}

/// Whether `a` and `b` are the very same net (the same allocation; both none counts as the
/// same): what the searchers compare before forgetting their tables.
pub fn same_net(a: &Option<Arc<Network>>, b: &Option<Arc<Network>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    }
}

/// What a move changes in the inputs of a net of Shishi's own (the 12×12 games', Shogammon's):
/// the inputs that go and those that come, each as a pair (sente's view, gote's view).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowChanges {
    pub removed: arrayvec::ArrayVec<[usize; 2], { RowChanges::CAPACITY }>,
    pub added: arrayvec::ArrayVec<[usize; 2], { RowChanges::CAPACITY }>,
}

impl RowChanges {
    /// The most rows one move or action removes (or adds): six for the 12×12 games (a Lion's
    /// double capture) and Shogammon's P inputs (a point taken), three times as many with
    /// `ShogammonPK` (each board row with its two king-relative rows); `ChuPK` removes at
    /// most nine (three pieces, each with its two window rows).
    pub const CAPACITY: usize = 18;
}

/// The two accumulator halves of a position, indexed by perspective (`Color::index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Accumulator(pub [Row; 2]);

/// A loaded net.
#[derive(Clone)]
pub struct Network {
    /// What the transformer's rows stand for (the architecture).
    pub features: FeatureSet,
    pub transformer: FeatureTransformer,
    pub first: Affine<L1_INPUTS, HIDDEN>,
    pub second: Affine<HIDDEN, HIDDEN>,
    pub output: Affine<HIDDEN, 1>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", file::architecture_name(self.features))
    }
}

impl Network {
    /// Whether the net can evaluate `pos`: both feature sets need both kings.
    #[inline]
    pub fn fits(pos: &Position) -> bool {
        pos.king_square(Color::Sente).is_some() && pos.king_square(Color::Gote).is_some()
    }

    /// `half` recomputed from the transformer inputs `inputs`.
    /// The rows are added a batch at a time, each batch in one pass over the half.
    fn refresh_from(&self, inputs: impl IntoIterator<Item = usize>, half: &mut Row) {
        *half = self.transformer.biases;
        let mut batch = ArrayVec::<&Row, 32>::new();
        let mut inputs = inputs.into_iter().peekable();
        while inputs.peek().is_some() {
            batch.clear();
            batch.extend(
                inputs
                    .by_ref()
                    .take(32)
                    .map(|i| &self.transformer.weights[i]),
            );
            let sum = *half;
            half.set_changed(&sum, &[], &batch);
        }
    }

    /// Recomputes `perspective`'s half of `acc` from the pieces of `pos`.
    pub fn refresh(&self, pos: &Position, perspective: Color, acc: &mut Accumulator) {
        self.refresh_from(
            self.features.inputs_of(pos, perspective),
            &mut acc.0[perspective.index()],
        );
    }

    /// Both halves computed from scratch.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        self.accumulate_views(|view| self.features.inputs_of(pos, view))
    }

    /// Both halves from scratch, each view's from the inputs `inputs_of` gives for it.
    fn accumulate_views<I: IntoIterator<Item = usize>>(
        &self,
        inputs_of: impl Fn(Color) -> I,
    ) -> Accumulator {
        let mut acc = Accumulator::default();
        for view in Color::BOTH {
            self.refresh_from(inputs_of(view), &mut acc.0[view.index()]);
        }
        acc
    }

    /// The accumulator of the position reached by a move with `changes` from a position
    /// whose accumulator is `before`; `after` is that position (HalfKP recomputes the view of
    /// a king that moved from it; K+P only swaps that king's input in both views).
    #[inline]
    pub fn update(
        &self,
        after: &Position,
        changes: &Changes,
        before: &Accumulator,
        out: &mut Accumulator,
    ) {
        let w = &self.transformer.weights;
        for color in Color::BOTH {
            let view = color.index();
            let offset = match self.features {
                FeatureSet::HalfKp => {
                    if changes.king_moved == Some(color) {
                        self.refresh(after, color, out);
                        continue;
                    }
                    let Some(king) = after.king_square(color) else {
                        out.0[view] = before.0[view];
                        continue;
                    };
                    features::king_offset(color, king)
                }
                // K+P; the other games' sets never see a shogi move.
                FeatureSet::Kp
                | FeatureSet::ChuP
                | FeatureSet::ChuPK
                | FeatureSet::KagamigiP
                | FeatureSet::ShogammonP
                | FeatureSet::ShogammonPK => 0,
            };
            let mut removed = ArrayVec::<&Row, 3>::new();
            let mut added = ArrayVec::<&Row, 3>::new();
            for [old, new] in changes.pieces() {
                removed.push(&w[offset + usize::from(old[view].0)]);
                added.push(&w[offset + usize::from(new[view].0)]);
            }
            if self.features == FeatureSet::Kp && changes.king_moved.is_some() {
                let [old, new] = changes.king();
                removed.push(&w[usize::from(old[view].0)]);
                added.push(&w[usize::from(new[view].0)]);
            }
            out.0[view].set_changed(&before.0[view], &removed, &added);
        }
    }

    /// The numbering of this 12×12 net's inputs (panics for a shogi net: the games choose
    /// their nets by [`FeatureSet::game`]).
    #[inline]
    pub fn board12_layout(&self) -> board12::Layout {
        self.features
            .layout()
            .expect("a 12×12 game's net evaluates a 12×12 position")
    }

    /// Both halves of the 12×12 position `pos` from scratch (a net of `P`'s feature set).
    pub fn accumulate_board12<P: board12::Board12Net>(&self, pos: &P) -> Accumulator {
        debug_assert!(P::FEATURE_SETS.contains(&self.features));
        let layout = self.board12_layout();
        self.accumulate_views(|view| layout.inputs_of(pos, view))
    }

    /// The accumulator of the position (of a 12×12 game, or Shogammon) reached by a move with
    /// `changes` from one whose accumulator is `before`.
    #[inline]
    pub fn update_rows(&self, changes: &RowChanges, before: &Accumulator, out: &mut Accumulator) {
        let w = &self.transformer.weights;
        for view in 0..2 {
            let removed: ArrayVec<&Row, { RowChanges::CAPACITY }> =
                changes.removed.iter().map(|pair| &w[pair[view]]).collect();
            let added: ArrayVec<&Row, { RowChanges::CAPACITY }> =
                changes.added.iter().map(|pair| &w[pair[view]]).collect();
            out.0[view].set_changed(&before.0[view], &removed, &added);
        }
    }

    /// The evaluation of the 12×12 position `pos` for the side to move, from scratch.
    pub fn evaluate_board12<P: board12::Board12Net>(&self, pos: &P) -> i32 {
        self.score(&self.accumulate_board12(pos), pos.side_to_move())
    }

    /// Both halves of the Shogammon position `pos` from scratch (a Shogammon net).
    pub fn accumulate_shogammon(
        &self,
        pos: &crate::rules::variants::shogammon::Position,
    ) -> Accumulator {
        debug_assert_eq!(self.features.game(), features::NetGame::Shogammon);
        self.accumulate_views(|view| shogammon::inputs_of(pos, view, self.features))
    }

    /// The net's output for the Shogammon position `pos` (centipawns on the logistic scale
    /// of `eval::expected`, the side to move's view), from scratch.
    pub fn evaluate_shogammon(&self, pos: &crate::rules::variants::shogammon::Position) -> i32 {
        self.score(&self.accumulate_shogammon(pos), pos.side_to_move())
    }

    /// The evaluation (centipawns, `side_to_move`'s view) of a position whose accumulator
    /// is `acc`.
    #[inline]
    pub fn score(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let mut input = [0u8; L1_INPUTS];
        let (ours, theirs) = input.split_at_mut(HALF);
        for (out, color) in [(ours, side_to_move), (theirs, side_to_move.flip())] {
            let out: &mut [u8; HALF] = out.try_into().expect("two halves");
            clamp_half(&acc.0[color.index()], out);
        }
        let first = clipped_relu(&self.first.propagate(&input));
        let second = clipped_relu(&self.second.propagate(&first));
        to_centipawns(self.output.propagate(&second)[0])
    }

    /// The evaluation of `pos` for the side to move, from scratch (YaneuraOu's `e`).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(&self.accumulate(pos), pos.side_to_move())
    }

    /// A net of `features` with random weights from `seed`, the same on every machine,
    /// scaled so that its clamps and layers all take part (the test nets; it plays nothing
    /// well).
    pub fn random(features: FeatureSet, seed: u64) -> Network {
        let mut state = seed;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut uniform = |low: i64, high: i64| low + (next() % (high - low + 1) as u64) as i64;
        let mut transformer = FeatureTransformer::zeroed(features);
        for b in transformer.biases.0.iter_mut() {
            *b = uniform(-20, 80) as i16;
        }
        for row in transformer.weights.iter_mut() {
            for w in row.0.iter_mut() {
                *w = uniform(-24, 24) as i16;
            }
        }
        let mut affine = |inputs: usize, outputs: usize, w: i64, bias: (i64, i64)| {
            let biases: Vec<i32> = (0..outputs)
                .map(|_| uniform(bias.0, bias.1) as i32)
                .collect();
            let rows: Vec<Vec<i8>> = (0..outputs)
                .map(|_| (0..inputs).map(|_| uniform(-w, w) as i8).collect())
                .collect();
            (biases, rows)
        };
        let (b1, r1) = affine(L1_INPUTS, HIDDEN, 8, (-2000, 4000));
        let (b2, r2) = affine(HIDDEN, HIDDEN, 32, (-1000, 3000));
        let (b3, r3) = affine(HIDDEN, 1, 64, (-3000, 3000));
        fn layer<const IN: usize, const OUT: usize>(
            b: Vec<i32>,
            r: Vec<Vec<i8>>,
        ) -> Affine<IN, OUT> {
            let biases: [i32; OUT] = b.try_into().expect("OUT biases");
            let rows: Vec<[i8; IN]> = r
                .into_iter()
                .map(|row| row.try_into().expect("IN weights"))
                .collect();
            Affine::from_rows(biases, &rows)
        }
        Network {
            features,
            transformer,
            first: layer(b1, r1),
            second: layer(b2, r2),
            output: layer(b3, r3),
        }
    }
}

#[cfg(test)]
mod tests;
