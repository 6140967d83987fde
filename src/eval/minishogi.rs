//! How good a minishogi position is: a hand-written evaluation of material (a piece in hand
//! worth more than on the board, since on 5×5 every square is near a king), pawns and small
//! pieces pushed forward, and each king's guard (its own pieces next to it) against the
//! enemy pieces next to it. The board has 25 squares, so the totals are recounted after
//! every move rather than updated.

use super::Totals;
use crate::rules::dropshogi::DropPiece;
use crate::rules::geometry::{Color, Geometry, Square};
use crate::rules::moves::Move;
use crate::rules::variants::minishogi::{Geo, Kind, Position};

/// The centipawn value of each kind on the board, by kind index (the king's is never
/// exchanged; its exchange value is [`value`]'s).
const BOARD_VALUE: [i32; Kind::COUNT] = [
    // Pawn, Silver, Gold, Bishop, Rook, King,
    120, 500, 560, 640, 780, 0, // Tokin, ProSilver, Horse, Dragon
    580, 560, 920, 1100,
];

/// A piece in hand is worth this many percent of its board value more.
const HAND_BONUS_PERCENT: i32 = 15;
/// Per rank a pawn, silver or gold stands ahead of its own first rank.
const ADVANCE: i32 = 10;
/// Per own piece (not the king) next to one's king.
const GUARD: i32 = 25;
/// Per enemy piece next to one's king.
const THREAT: i32 = 35;
/// Bonus for having the move.
const TEMPO: i32 = 20;

/// The exchange value of a kind (move ordering, SEE, quiescence margins).
#[inline]
pub fn value(kind: Kind) -> i32 {
    if kind == Kind::King {
        20000
    } else {
        BOARD_VALUE[kind as usize]
    }
}

/// The minishogi evaluator (it has no settings: the weights are the constants above).
#[derive(Debug, Default)]
pub struct MinishogiEvaluator;

static EVALUATOR: MinishogiEvaluator = MinishogiEvaluator;

impl MinishogiEvaluator {
    /// The evaluator the search uses.
    pub fn standard() -> &'static MinishogiEvaluator {
        &EVALUATOR
    }

    /// Each side's total from its own point of view.
    pub fn totals(&self, pos: &Position) -> Totals {
        let mut totals = [0i32; 2];
        let kings = Color::BOTH.map(|c| pos.king_square(c));
        for sq in Square::all::<Geo>() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let (color, kind) = (piece.color(), piece.kind());
            let own = &mut totals[color.index()];
            *own += BOARD_VALUE[kind as usize];
            if matches!(kind, Kind::Pawn | Kind::Silver | Kind::Gold) {
                let from_home =
                    Geo::RANKS - 1 - sq.rank::<Geo>().distance_from_far_edge::<Geo>(color);
                *own += ADVANCE * i32::from(from_home);
            }
            if kind == Kind::King {
                continue;
            }
            for side in Color::BOTH {
                if kings[side.index()].is_some_and(|king| next_to(king, sq)) {
                    totals[side.index()] += if side == color { GUARD } else { -THREAT };
                }
            }
        }
        for color in Color::BOTH {
            let hand = pos.hand(color);
            for kind in [
                Kind::Pawn,
                Kind::Silver,
                Kind::Gold,
                Kind::Bishop,
                Kind::Rook,
            ] {
                let board = BOARD_VALUE[kind as usize];
                totals[color.index()] +=
                    i32::from(hand.count(kind)) * (board + board * HAND_BONUS_PERCENT / 100);
            }
        }
        Totals(totals)
    }

    /// Always `None`: the search recounts after the move.
    pub fn update(&self, _pos: &Position, _mv: Move, _before: Totals) -> Option<Totals> {
        None
    }

    /// The score for `side_to_move`.
    pub fn score(&self, totals: Totals, side_to_move: Color) -> i32 {
        totals.0[side_to_move.index()] - totals.0[side_to_move.flip().index()] + TEMPO
    }

    /// The evaluation of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(self.totals(pos), pos.side_to_move())
    }
}

/// Whether two different squares touch (a king step apart).
fn next_to(a: Square, b: Square) -> bool {
    let files = a.file::<Geo>().0.abs_diff(b.file::<Geo>().0);
    let ranks = a.rank::<Geo>().0.abs_diff(b.rank::<Geo>().0);
    a != b && files <= 1 && ranks <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_level_but_for_the_tempo() {
        let pos = Position::startpos();
        let totals = MinishogiEvaluator::standard().totals(&pos);
        assert_eq!(totals.0[0], totals.0[1]);
        assert_eq!(MinishogiEvaluator::standard().evaluate(&pos), TEMPO);
    }

    #[test]
    fn material_and_hands_count() {
        let e = MinishogiEvaluator::standard();
        // Sente has both rooks, one in hand: it is well ahead, from either side's view.
        let pos = Position::from_sfen("1bsgk/4p/5/P4/KGSBR b R 1").unwrap();
        assert!(e.evaluate(&pos) > 500, "{}", e.evaluate(&pos));
        let pos = Position::from_sfen("1bsgk/4p/5/P4/KGSBR w R 1").unwrap();
        assert!(e.evaluate(&pos) < -500, "{}", e.evaluate(&pos));
    }
}
