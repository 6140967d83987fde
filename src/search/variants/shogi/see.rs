//! Static exchange evaluation for standard shogi: the material balance of the captures and
//! recaptures a move starts on its destination square, and the exchange value of each kind.

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Position};
use crate::search::game::SearchGame;

/// Piece values for exchanges and ordering, per kind (the king is priceless).
pub const SEE_VALUE: [i32; Kind::COUNT] = [
    100, 330, 400, 530, 800, 950, 580, 20000, 560, 560, 560, 570, 1050, 1250,
];

/// Kinds from least to most valuable, for picking the next recapturer.
const CHEAPEST_FIRST: [Kind; Kind::COUNT] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::ProPawn,
    Kind::ProLance,
    Kind::ProKnight,
    Kind::ProSilver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
    Kind::Horse,
    Kind::Dragon,
    Kind::King,
];

#[inline]
pub fn value(kind: Kind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// The material balance of the exchange `mv` starts on its destination square, assuming
/// both sides recapture with their cheapest piece while it pays (pins are ignored).
pub fn see(pos: &Position, mv: Move) -> i32 {
    let to = mv.to();
    let us = pos.side_to_move();
    let mut occupied = pos.occupied();
    let mover = pos.moving_piece(mv);
    let mut gain = [0i32; 40];
    gain[0] = pos.piece_at(to).map_or(0, |p| value(p.kind())) + SearchGame::promotion_gain(pos, mv);
    let mut on_square = if mv.is_promotion() {
        value(mover.kind().promoted())
    } else {
        value(mover.kind())
    };
    match mv.from() {
        Some(from) => occupied = occupied.without(from),
        None => occupied = occupied.with(to),
    }
    let mut side: Color = us.flip();
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        let mut found = None;
        for kind in CHEAPEST_FIRST {
            if let Some(sq) = (attackers & pos.pieces_of_kind(kind)).lowest() {
                found = Some((sq, kind));
                break;
            }
        }
        let Some((sq, kind)) = found else { break };
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        if gain[d].max(-gain[d - 1]) < 0 {
            break;
        }
        occupied = occupied.without(sq);
        on_square = value(kind);
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_usi_move(text).unwrap()
    }

    #[test]
    fn see_counts_recaptures() {
        // A rook takes a pawn defended by a gold: it loses the rook for a pawn.
        let pos = Position::from_sfen("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert_eq!(see(&pos, mv(&pos, "5h5c")), 100 - 950);
        // An undefended pawn is simply won.
        let pos = Position::from_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert_eq!(
            see(&pos, mv(&pos, "5h5c+")),
            100 + value(Kind::Dragon) - 950
        );
        // A pawn takes a pawn defended by a pawn... which is defended by the lance behind.
        let pos = Position::from_sfen("4k4/9/4l4/4p4/4P4/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(see(&pos, mv(&pos, "5e5d")), 0);
    }
}
