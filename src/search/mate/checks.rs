//! Fast check detection for the attacker's moves of one node: the squares from which each
//! piece kind would check the enemy king, and the attacker's pieces whose move could uncover
//! a check, computed once per node so that filtering the legal moves down to checks costs a
//! bit test per move. Moves of a possible discoverer fall back to `Position::gives_check`.

use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Piece, Position};
use crate::search::variants::shogi::checks::discoverers_of;

/// What the attacker to move needs to know to recognise its checks.
pub struct CheckInfo {
    /// Per landed kind: the squares where a piece of that kind would attack the king.
    check_squares: [Bb128; Kind::COUNT],
    /// Attacker pieces standing alone between the enemy king and an attacker slider.
    discoverers: Bb128,
}

impl CheckInfo {
    /// `None` when the side not to move has no king (no move can check).
    pub(super) fn new(position: &Position) -> Option<CheckInfo> {
        let us = position.side_to_move();
        let them = us.flip();
        let king = position.king_square(them)?;
        let t = position.tables();
        let occupied = position.occupied();
        let mut check_squares = [Bb128::EMPTY; Kind::COUNT];
        let hand = position.hand(us);
        for kind in Kind::ALL {
            // Only kinds the attacker could land: in hand, on the board, or by promotion.
            let present = position.pieces(us, kind).any()
                || (Kind::HAND.contains(&kind) && hand.count(kind) > 0)
                || kind
                    .in_hand()
                    .is_some_and(|base| base != kind && position.pieces(us, base).any());
            if kind != Kind::King && present {
                // A piece attacks the king from X exactly when the king, moving as the same
                // kind of the other colour, would attack X.
                check_squares[kind.index()] = t.attacks(Piece::new(them, kind), king, occupied);
            }
        }
        Some(CheckInfo {
            check_squares,
            discoverers: discoverers_of(position, us, king, occupied),
        })
    }

    /// True if the legal move `mv` checks (same answer as `Position::gives_check`).
    #[inline]
    pub(super) fn gives_check(&self, position: &Position, mv: Move) -> bool {
        let to = mv.to();
        let answer = match mv.from() {
            Some(from) if self.discoverers.contains(from) => position.gives_check(mv),
            // A drop or a move that discovers nothing: the piece it leaves checks or not.
            _ => self.check_squares[position.landing_piece(mv).kind().index()].contains(to),
        };
        debug_assert_eq!(answer, position.gives_check(mv), "{position:?} {mv:?}");
        answer
    }
}
