//! The parts of legal move generation every drop variant shares (RULES.md §1.3–1.5): king
//! moves tested against the attacks the king would face, the promotion split (zone,
//! optional and forced promotion), and drops with nifu, dead ranks and uchifuzume.
//!
//! Each member's `DropVariant::generate_into` finds its checkers and pins (which depend on
//! its pieces: standard shogi's pins come from three slider kinds, Chu Kagamigi's from any
//! piece reaching along a line, leapers included) and calls these for the rest. Uchifuzume
//! is judged analytically: a dropped pawn checks only from the adjacent square, so the only
//! answers are a king step or a capture of the pawn by a piece its pin (if any) allows.
//!
//! The generator writes into a [`MoveSink`]: a [`MoveList`] receives the moves, a
//! [`MoveCounter`] only counts them (by popcount, without building moves), which is what
//! perft needs on its last ply.

use super::{Bb, DropKind, DropPiece, DropPosition, DropTables, DropVariant, HandCounts};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveList};
use crate::rules::sink::{MoveCounter, MoveSink};

impl<V: DropVariant> DropPosition<V> {
    /// Appends every legal move of the side to move to `out`.
    pub fn generate_legal(&self, out: &mut MoveList) {
        V::generate_into(self, out);
    }

    /// Gives every legal move of the side to move to `out`.
    #[inline]
    pub fn generate_into<S: MoveSink<Bb<V>>>(&self, out: &mut S) {
        V::generate_into(self, out);
    }

    /// The number of legal moves of the side to move.
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter::default();
        V::generate_into(self, &mut counter);
        counter.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Pushes the king's steps to squares the enemy does not attack.
    pub(crate) fn push_king_moves<S: MoveSink<Bb<V>>>(&self, king: Square, out: &mut S) {
        let us = self.side_to_move();
        let t = self.tables();
        let without_king = self.occupied().without(king);
        let steps = t
            .step_attacks(us, V::Kind::KING, king)
            .and_not(self.pieces_of(us));
        for to in steps.squares() {
            if !self.is_attacked(to, us.flip(), without_king) {
                out.push(Move::normal(king, to, false));
            }
        }
    }

    /// Pushes the moves of `piece` from `from` to each square of `to_set`, with and without
    /// promotion as the zone, the rule choices and the dead ranks allow.
    #[inline]
    pub(crate) fn push_board_moves<S: MoveSink<Bb<V>>>(
        &self,
        piece: V::Piece,
        from: Square,
        to_set: Bb<V>,
        out: &mut S,
    ) {
        let kind = piece.kind();
        if !kind.can_promote() {
            out.push_targets(from, to_set, false);
            return;
        }
        let t = self.tables();
        let us = piece.color();
        let promoting = if t.in_zone(us, from) && V::promotes_leaving_zone(self.choices()) {
            to_set
        } else {
            to_set & t.zone(us)
        };
        out.push_targets(from, promoting, true);
        out.push_targets(from, to_set & t.alive(us, kind), false);
    }

    /// Pushes the drops of the side to move on the squares of `drop_target`.
    pub(crate) fn push_drops<S: MoveSink<Bb<V>>>(&self, drop_target: Bb<V>, out: &mut S) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || drop_target.is_empty() {
            return;
        }
        let t = self.tables();
        for &kind in V::Kind::HAND_KINDS {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut squares = drop_target & t.alive(us, kind);
            if kind == V::Kind::PAWN {
                for pawn in self.pieces(us, kind).squares() {
                    squares = squares.and_not(t.file(pawn.file::<V::Geo>().0 as usize));
                }
                if let Some(mating) = self.uchifuzume_square(squares) {
                    squares = squares.without(mating);
                }
            }
            out.push_drops(kind.id(), squares);
        }
    }

    /// The square among `candidates` where a pawn drop would give mate (illegal), if any.
    fn uchifuzume_square(&self, candidates: Bb<V>) -> Option<Square> {
        let us = self.side_to_move();
        let them = us.flip();
        let t = self.tables();
        let enemy_king = self.king_square(them)?;
        let sq = t.square_ahead(them, enemy_king)?;
        if !candidates.contains(sq) {
            return None;
        }
        let occupied = self.occupied().with(sq);
        // Can the king step to safety (taking the pawn counts, if the pawn is undefended)?
        let without_king = occupied.without(enemy_king);
        let escapes = t
            .step_attacks(them, V::Kind::KING, enemy_king)
            .and_not(self.pieces_of(them));
        for to in escapes.squares() {
            if !self.is_attacked(to, us, without_king) {
                return None;
            }
        }
        // Can another piece take the pawn without exposing its king?
        let takers = self
            .attackers_to(sq, them, occupied)
            .and_not(self.pieces_of_kind(V::Kind::KING));
        if takers.any() && V::some_taker_may_capture(self, them, enemy_king, occupied, takers, sq) {
            return None;
        }
        Some(sq)
    }
}
