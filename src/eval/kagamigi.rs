//! Chu Kagamigi's evaluation weights and its reading of a position for the 12×12 table
//! evaluator (`board12`).
//!
//! No values for these pieces exist anywhere, so they are measured: each kind's mobility
//! (average reach on a board a third full) turned into centipawns with the exponent fitted
//! on standard shogi (`mobility`). A piece in hand is worth a tenth more than on the board,
//! as in shogi. Square bonuses push the small pieces forward and keep the king back; king
//! safety counts pieces near each king.

use super::board12::{self, Effect, TableCells, TablePosition, TableWeights};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::piece::PieceRules;
use crate::rules::variants::kagamigi::{pieces, Kind, Position};
use arrayvec::ArrayVec;

/// The measured values and the evaluator, built on first use.
static CELLS: TableCells = TableCells::new();

/// The exchange value of a kind (move ordering, SEE, quiescence margins).
#[inline]
pub fn value(kind: Kind) -> i32 {
    if kind == Kind::King {
        20000
    } else {
        Position::values()[kind.index()]
    }
}

impl TableWeights for Position {
    const TEMPO: i32 = 25;

    const CELLS: &'static TableCells = &CELLS;

    fn rules() -> Vec<&'static PieceRules> {
        pieces().iter().collect()
    }

    /// The king's value is 0 (it is never exchanged).
    fn adjust_values(values: &mut [i32]) {
        values[Kind::King.index()] = 0;
    }

    /// A tenth more than on the board (hand kinds only; 0 for the others).
    fn hand_value(kind: usize, board: i32) -> i32 {
        if kind < Kind::HAND_COUNT {
            board + board / 10
        } else {
            0
        }
    }

    #[inline]
    fn is_royal(kind: usize) -> bool {
        kind == Kind::King.index()
    }

    fn can_promote(kind: usize) -> bool {
        Kind::ALL[kind].can_promote()
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
    board12::table_position_pieces!();

    #[inline]
    fn royal(&self, color: Color) -> Option<Square> {
        self.king_square(color)
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
    use crate::eval::random_games::{any_move, assert_values_rank, check_incremental};

    #[test]
    fn measured_values_rank_the_pieces_sensibly() {
        use Kind::*;
        assert_values_rank(
            |k: Kind| Position::values()[k.index()],
            Pawn,
            &[
                (Rook, Gold),
                (DragonKing, Rook),
                (DragonHorse, Bishop),
                (Gold, Pawn),
            ],
        );
    }

    #[test]
    fn incremental_totals_match_a_full_recount() {
        let e = Position::evaluator();
        let updated = check_incremental(e, &Position::startpos(), 8, (8, 200), any_move);
        assert!(updated > 500, "{updated}");
    }
}
