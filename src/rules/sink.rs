//! Where a move generator puts what it finds: a [`MoveList`] receives the moves, a
//! [`MoveCounter`] only counts them by popcount without building them (perft's last ply), a
//! [`PartSink`] passes on only the captures or only the other moves ([`MovePart`]), for a
//! search that generates them in stages. Generic over the bitboard, so every variant's
//! generator writes into the same sinks.

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
    /// Whether this sink keeps drops at all (a generator may skip finding them if not).
    #[inline]
    fn wants_drops(&self) -> bool {
        true
    }
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

/// One of the two parts the legal moves fall into: those that capture and those that do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovePart {
    /// Board moves onto an enemy piece (every promotion choice).
    Captures,
    /// Board moves onto an empty square, and drops.
    Quiets,
}

/// Passes on to a [`MoveList`] only the moves of one [`MovePart`]: board moves are kept by
/// their destination (`targets`: the enemy pieces for captures, the empty squares for the
/// other moves), drops only with the quiet part.
pub struct PartSink<'a, B> {
    out: &'a mut MoveList,
    targets: B,
    drops: bool,
}

impl<'a, B: Bitboard> PartSink<'a, B> {
    /// A sink for the `part` of a position whose enemy pieces are `enemies` and whose
    /// occupied squares are `occupied`, on a board whose squares are `all`.
    #[inline]
    pub fn new(out: &'a mut MoveList, part: MovePart, enemies: B, occupied: B, all: B) -> Self {
        match part {
            MovePart::Captures => PartSink {
                out,
                targets: enemies,
                drops: false,
            },
            MovePart::Quiets => PartSink {
                out,
                targets: all.and_not(occupied),
                drops: true,
            },
        }
    }
}

impl<B: Bitboard> MoveSink<B> for PartSink<'_, B> {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self.targets.contains(mv.to()) {
            self.out.push(mv);
        }
    }
    #[inline]
    fn push_targets(&mut self, from: Square, targets: B, promote: bool) {
        <MoveList as MoveSink<B>>::push_targets(self.out, from, targets & self.targets, promote);
    }
    #[inline]
    fn push_drops(&mut self, kind: KindId, targets: B) {
        if self.drops {
            <MoveList as MoveSink<B>>::push_drops(self.out, kind, targets);
        }
    }
    #[inline]
    fn wants_drops(&self) -> bool {
        self.drops
    }
}

/// Looks for one move among those generated, without keeping any.
pub struct MoveFinder {
    wanted: Move,
    pub found: bool,
}

impl MoveFinder {
    /// A finder of `wanted`.
    #[inline]
    pub fn new(wanted: Move) -> MoveFinder {
        MoveFinder {
            wanted,
            found: false,
        }
    }
}

impl<B: Bitboard> MoveSink<B> for MoveFinder {
    #[inline]
    fn push(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
    #[inline]
    fn push_targets(&mut self, from: Square, targets: B, promote: bool) {
        let w = self.wanted;
        self.found |= w.from() == Some(from)
            && w.is_promotion() == promote
            && w.mid().is_none()
            && targets.contains(w.to());
    }
    #[inline]
    fn push_drops(&mut self, kind: KindId, targets: B) {
        self.found |=
            self.wanted.dropped_kind() == Some(kind) && targets.contains(self.wanted.to());
    }
}
