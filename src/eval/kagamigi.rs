//! Chu Kagamigi's evaluation weights and its reading of a position for the 12×12 table
//! evaluator (`board12`).
//!
//! No values for these pieces exist anywhere, so they are measured: each kind's mobility
//! (average reach on a board a third full) turned into centipawns with the exponent fitted
//! on standard shogi (`mobility`). A piece in hand is worth a tenth more than on the board,
//! as in shogi. Square bonuses push the small pieces forward and keep the king back; king
//! safety counts pieces near each king.

use super::board12::{self, Effect, SquareRole, TableEvaluator, TablePosition, TableWeights};
use super::mobility::measured_values;
use crate::rules::geometry::{Board12x12, Color, Square};
use crate::rules::moves::Move;
use crate::rules::piece::PieceRules;
use crate::rules::variants::kagamigi::{pieces, Kind, Position};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

/// The exchange value of a kind (move ordering, SEE, quiescence margins).
#[inline]
pub fn value(kind: Kind) -> i32 {
    if kind == Kind::King {
        20000
    } else {
        Position::values()[kind.index()]
    }
}

/// The standard Chu Kagamigi evaluator, built on first use.
pub fn evaluator() -> &'static TableEvaluator {
    static EVALUATOR: OnceLock<TableEvaluator> = OnceLock::new();
    EVALUATOR.get_or_init(TableEvaluator::new::<Position>)
}

impl TableWeights for Position {
    const KINDS: usize = Kind::COUNT;
    const TEMPO: i32 = 25;

    /// Measured values per kind (`Kind::index`); the king's is 0 (it is never exchanged).
    fn values() -> &'static [i32] {
        static VALUES: OnceLock<Vec<i32>> = OnceLock::new();
        VALUES.get_or_init(|| {
            let rules: Vec<&PieceRules> = pieces().iter().collect();
            let mut values = measured_values::<Board12x12>(&rules);
            values[Kind::King.index()] = 0;
            values
        })
    }

    /// A tenth more than on the board (hand kinds only; 0 for the others).
    fn hand_values() -> &'static [i32] {
        static HAND: OnceLock<Vec<i32>> = OnceLock::new();
        HAND.get_or_init(|| {
            let board = Self::values();
            (0..Kind::COUNT)
                .map(|k| {
                    if k < Kind::HAND_COUNT {
                        board[k] + board[k] / 10
                    } else {
                        0
                    }
                })
                .collect()
        })
    }

    fn square_bonus(kind: usize, rank_from_far: usize, file: usize) -> i32 {
        let kind = Kind::ALL[kind];
        let role = if kind == Kind::King {
            SquareRole::Royal
        } else if kind.can_promote() && Self::values()[kind.index()] < 400 {
            SquareRole::SmallPromotable
        } else {
            SquareRole::Other
        };
        board12::square_bonus(role, rank_from_far, file)
    }

    fn attack(kind: usize) -> [i32; 3] {
        if kind == Kind::King.index() {
            return [0; 3];
        }
        let v = Self::values()[kind];
        [(v / 10).min(90), (v / 16).min(60), (v / 32).min(30)]
    }

    fn defend(kind: usize) -> [i32; 3] {
        let v = Self::values()[kind];
        if kind != Kind::King.index() && v < 700 {
            [25, 12, 0]
        } else {
            [0; 3]
        }
    }
}

impl TablePosition for Position {
    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    fn for_each_piece(&self, f: impl FnMut(Square, Color, usize)) {
        board12::each_piece_by_kind(Kind::COUNT, |c, k| self.pieces(c, Kind::ALL[k]), f);
    }

    #[inline]
    fn royal(&self, color: Color) -> Option<Square> {
        self.king_square(color)
    }

    #[inline]
    fn is_royal(kind: usize) -> bool {
        kind == Kind::King.index()
    }

    #[inline]
    fn hand_count(&self, color: Color, kind: usize) -> u32 {
        if kind < Kind::HAND_COUNT {
            self.hand(color).count(Kind::ALL[kind]) as u32
        } else {
            0
        }
    }

    #[inline]
    fn hand_kind(kind: usize) -> Option<usize> {
        Kind::ALL[kind].in_hand().map(Kind::index)
    }

    #[inline]
    fn effect(&self, mv: Move) -> Effect {
        let to = mv.to();
        match mv.from() {
            None => {
                let kind = mv.dropped_kind().expect("a drop").0 as usize;
                Effect {
                    moved: None,
                    dropped: Some(kind),
                    to,
                    landed: kind,
                    captures: ArrayVec::new(),
                }
            }
            Some(from) => {
                let moved = self.piece_at(from).expect("a piece to move").kind();
                let landed = self.landing_piece(mv).kind();
                let mut captures = ArrayVec::new();
                if let Some(victim) = self.piece_at(to) {
                    captures.push((to, victim.kind().index()));
                }
                Effect {
                    moved: Some((from, moved.index())),
                    dropped: None,
                    to,
                    landed: landed.index(),
                    captures,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_games::{any_move, check_incremental};

    #[test]
    fn measured_values_rank_the_pieces_sensibly() {
        let v = |k: Kind| Position::values()[k.index()];
        assert_eq!(v(Kind::Pawn), 100);
        assert!(v(Kind::Rook) > v(Kind::Gold));
        assert!(v(Kind::DragonKing) > v(Kind::Rook));
        assert!(v(Kind::DragonHorse) > v(Kind::Bishop));
        assert!(v(Kind::Gold) > v(Kind::Pawn));
    }

    #[test]
    fn incremental_totals_match_a_full_recount() {
        let e = evaluator();
        let updated = check_incremental(e, &Position::startpos(), 8, (8, 200), any_move);
        assert!(updated > 500, "{updated}");
    }

    #[test]
    fn the_start_position_is_balanced_apart_from_tempo() {
        let e = evaluator();
        let pos = Position::startpos();
        assert_eq!(e.score(e.totals(&pos), Color::Sente), 25);
    }
}
