//! Standard shogi as a member of the drop-shogi family (`rules::dropshogi`): the
//! [`DropVariant`] impl that names its board, kinds, tables and storage, and the one hook
//! that is its own, finding the attackers of a square from the attack tables of its eight
//! kinds of movement. The state, make/unmake, the hash and the debug invariants are
//! [`DropPosition`]'s.

use super::impasse::EnteringKingRule;
use super::tables::{tables, Tables};
use super::{notation, Geo, Kind, Piece};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::dropshogi::{self, drop_variant_storage, DropPosition, DropVariant};
use crate::rules::geometry::{Color, Square};
use crate::rules::sink::MoveSink;

type Bb = Bb128;

/// One side's pieces in hand, counted per hand kind (`Kind::HAND` order).
pub type Hand = dropshogi::Hand<Kind, 7>;

/// A standard-shogi position with its move history.
pub type Position = DropPosition<Shogi>;

/// Standard shogi, the member of the drop-shogi family played on 9×9 with fourteen kinds.
pub struct Shogi;

impl DropVariant for Shogi {
    drop_variant_storage!(
        geo: Geo,
        kind: Kind,
        piece: Piece,
        hand: Hand,
        tables: Tables = tables,
        start: notation::START_SFEN,
    );
    type Choices = ();

    #[inline]
    fn attackers_to(pos: &Position, sq: Square, by: Color, occupied: Bb) -> Bb {
        let t = pos.tables();
        let victim = by.flip();
        let kinds = |k: Kind| pos.pieces_of_kind(k);
        let gold_like = kinds(Kind::Gold)
            | kinds(Kind::ProPawn)
            | kinds(Kind::ProLance)
            | kinds(Kind::ProKnight)
            | kinds(Kind::ProSilver);
        let king_steppers = kinds(Kind::King) | kinds(Kind::Horse) | kinds(Kind::Dragon);
        let attackers = (t.step_attacks(victim, Kind::Pawn, sq) & kinds(Kind::Pawn))
            | (t.step_attacks(victim, Kind::Knight, sq) & kinds(Kind::Knight))
            | (t.step_attacks(victim, Kind::Silver, sq) & kinds(Kind::Silver))
            | (t.step_attacks(victim, Kind::Gold, sq) & gold_like)
            | (t.step_attacks(victim, Kind::King, sq) & king_steppers)
            | (t.lance_attacks(victim, sq, occupied) & kinds(Kind::Lance))
            | (t.bishop_attacks(sq, occupied) & (kinds(Kind::Bishop) | kinds(Kind::Horse)))
            | (t.rook_attacks(sq, occupied) & (kinds(Kind::Rook) | kinds(Kind::Dragon)));
        attackers & pos.pieces_of(by)
    }

    /// Cheapest tests first, stopping at the first attacker found.
    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color, occupied: Bb) -> bool {
        let t = pos.tables();
        let victim = by.flip();
        let theirs = pos.pieces_of(by);
        let kinds = |k: Kind| pos.pieces_of_kind(k);
        let near = (t.step_attacks(victim, Kind::Pawn, sq) & kinds(Kind::Pawn))
            | (t.step_attacks(victim, Kind::Knight, sq) & kinds(Kind::Knight))
            | (t.step_attacks(victim, Kind::Silver, sq) & kinds(Kind::Silver))
            | (t.step_attacks(victim, Kind::Gold, sq)
                & (kinds(Kind::Gold)
                    | kinds(Kind::ProPawn)
                    | kinds(Kind::ProLance)
                    | kinds(Kind::ProKnight)
                    | kinds(Kind::ProSilver)))
            | (t.step_attacks(victim, Kind::King, sq)
                & (kinds(Kind::King) | kinds(Kind::Horse) | kinds(Kind::Dragon)));
        if (near & theirs).any() {
            return true;
        }
        let rooks = (kinds(Kind::Rook) | kinds(Kind::Dragon)) & theirs;
        if rooks.any() && (t.rook_attacks(sq, occupied) & rooks).any() {
            return true;
        }
        let bishops = (kinds(Kind::Bishop) | kinds(Kind::Horse)) & theirs;
        if bishops.any() && (t.bishop_attacks(sq, occupied) & bishops).any() {
            return true;
        }
        let lances = kinds(Kind::Lance) & theirs;
        lances.any() && (t.lance_attacks(victim, sq, occupied) & lances).any()
    }

    #[inline]
    fn generate_into<S: MoveSink<Bb>>(pos: &Position, out: &mut S) {
        super::movegen::generate_into(pos, out);
    }

    /// Only a piece pinned to its king by a slider could be barred, and a pinned piece can
    /// never take a pawn standing next to the king it shields.
    fn some_taker_may_capture(
        pos: &Position,
        color: Color,
        king: Square,
        occupied: Bb,
        takers: Bb,
        _sq: Square,
    ) -> bool {
        takers.and_not(pos.pinned(color, king, occupied)).any()
    }

    fn judge_declaration(pos: &Position) -> Option<Result<(), String>> {
        Some(pos.judge_declaration(EnteringKingRule::Csa27))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_tells_side_to_move_and_hands_apart() {
        let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let w = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
        let other_hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap();
        let two = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        let hashes = [b.hash(), w.hash(), other_hand.hash(), two.hash()];
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(hashes[i], hashes[j]);
            }
        }
    }
}
