//! Where a move generator puts what it finds: a [`MoveList`] receives the moves, a
//! [`MoveCounter`] only counts them by popcount without building them (perft's last ply).
//! Generic over the bitboard, so every variant's generator writes into the same sinks.

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::KindId;

/// A receiver of generated moves, given one at a time or as target sets.
pub trait MoveSink<B: Bitboard> {
    /// One move.
    fn push(&mut self, mv: Move);
    /// A move from `from` to each square of `targets`, all promoting or all not.
    fn push_targets(&mut self, from: Square, targets: B, promote: bool);
    /// A drop of `kind` on each square of `targets`.
    fn push_drops(&mut self, kind: KindId, targets: B);
}

impl<B: Bitboard> MoveSink<B> for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
    #[inline]
    fn push_targets(&mut self, from: Square, targets: B, promote: bool) {
        for to in targets.squares() {
            MoveList::push(self, Move::normal(from, to, promote));
        }
    }
    #[inline]
    fn push_drops(&mut self, kind: KindId, targets: B) {
        for to in targets.squares() {
            MoveList::push(self, Move::drop(kind, to));
        }
    }
}

/// Counts moves without building them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCounter(pub u64);

impl<B: Bitboard> MoveSink<B> for MoveCounter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }
    #[inline]
    fn push_targets(&mut self, _from: Square, targets: B, _promote: bool) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn push_drops(&mut self, _kind: KindId, targets: B) {
        self.0 += targets.count() as u64;
    }
}
