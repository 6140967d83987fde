//! Chu Shogi's evaluation weights and its reading of a Chu position for the 12×12 table
//! evaluator (`board12`).
//!
//! Piece values are measured from mobility (`mobility`: average reach on a board a third
//! full, with the exponent fitted on standard shogi); pieces with lion power get a quarter
//! more for their double moves and double captures, which mobility does not see. Royals are
//! worth a fixed 2000 each: losing one of two is a heavy loss, losing the last ends the game
//! (the search knows that). Square bonuses push the small pieces towards the promotion zone
//! and keep the royals back; royal safety counts pieces near each royal.

use super::board12::{self, Effect, TableCells, TablePosition, TableWeights};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::piece::PieceRules;
use crate::rules::variants::chu::{Kind, Position};
use arrayvec::ArrayVec;

/// The value of a royal (King or Crown Prince) on the board.
const ROYAL: i32 = 2000;

/// The measured values and the evaluator, built on first use.
static CELLS: TableCells = TableCells::new();

/// The exchange value of a kind (move ordering, SEE, quiescence margins).
#[inline]
pub fn value(kind: Kind) -> i32 {
    Position::values()[kind.index()]
}

impl TableWeights for Position {
    const TEMPO: i32 = 20;

    const CELLS: &'static TableCells = &CELLS;

    fn rules() -> Vec<&'static PieceRules> {
        Kind::ALL.iter().map(|k| k.rules()).collect()
    }

    /// Royals are worth [`ROYAL`]; pieces with lion power a quarter more than measured.
    fn adjust_values(values: &mut [i32]) {
        for kind in Kind::ALL {
            let v = &mut values[kind.index()];
            if kind.is_royal() {
                *v = ROYAL;
            } else if kind.has_lion_power() {
                *v += *v / 4;
            }
        }
    }

    /// Nothing is held in hand.
    fn hand_value(_kind: usize, _board: i32) -> i32 {
        0
    }

    #[inline]
    fn is_royal(kind: usize) -> bool {
        Kind::ALL[kind].is_royal()
    }

    fn can_promote(kind: usize) -> bool {
        Kind::ALL[kind].can_promote()
    }

    fn attack(kind: usize) -> [i32; 3] {
        let kind = Kind::ALL[kind];
        if kind.is_royal() {
            return [0; 3];
        }
        let v = value(kind);
        [(v / 12).min(80), (v / 20).min(50), (v / 40).min(25)]
    }

    fn defend(kind: usize) -> [i32; 3] {
        match Kind::ALL[kind] {
            Kind::Gold | Kind::Silver | Kind::Copper | Kind::Leopard | Kind::BlindTiger => {
                [25, 12, 0]
            }
            Kind::DrunkElephant | Kind::PromotedSilver | Kind::PromotedGold => [25, 12, 0],
            _ => [0; 3],
        }
    }
}

impl TablePosition for Position {
    board12::table_position_pieces!();

    #[inline]
    fn royal(&self, color: Color) -> Option<Square> {
        self.pieces(color, Kind::King)
            .lowest()
            .or_else(|| self.pieces(color, Kind::CrownPrince).lowest())
    }

    #[inline]
    fn hand_count(&self, _color: Color, _kind: usize) -> u32 {
        0
    }

    #[inline]
    fn hand_kind(_kind: usize) -> Option<usize> {
        None
    }

    #[inline]
    fn effect(&self, mv: Move) -> Effect {
        effect(self, mv)
    }
}

/// What a Chu move (possibly a lion double move) does.
#[inline]
pub fn effect(pos: &Position, mv: Move) -> Effect {
    let from = mv.from().expect("Chu Shogi has no drops");
    let moved = pos.piece_at(from).expect("a piece to move");
    let landed = moved.landing(mv).kind().index();
    let mut captures = ArrayVec::new();
    if let Some(mid) = mv.mid() {
        if let Some(victim) = pos.piece_at(mid) {
            captures.push((mid, victim.kind().index()));
        }
    }
    if mv.to() != from {
        if let Some(victim) = pos.piece_at(mv.to()) {
            captures.push((mv.to(), victim.kind().index()));
        }
    }
    Effect {
        moved: Some((from, moved.kind().index())),
        dropped: None,
        to: mv.to(),
        landed,
        captures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_games::{assert_values_rank, check_incremental, pick_preferring};
    use crate::rules::moves::MoveList;
    use rand::rngs::StdRng;

    #[test]
    fn measured_values_rank_the_pieces_sensibly() {
        use Kind::*;
        assert_values_rank(
            value,
            Pawn,
            &[
                (Gold, Copper),
                (Rook, Lance),
                (DragonKing, Rook),
                (FreeKing, DragonKing),
                (Lion, Rook),
                (SoaringEagle, DragonHorse),
            ],
        );
    }

    #[test]
    fn incremental_totals_match_a_full_recount() {
        let e = Position::evaluator();
        // Prefer captures so that lion double captures come up.
        let captures_first = |pos: &Position, legal: &MoveList, rng: &mut StdRng| {
            pick_preferring(legal, rng, |m| !effect(pos, m).captures.is_empty())
        };
        let updated = check_incremental(e, &Position::startpos(), 5, (8, 200), captures_first);
        assert!(updated > 500, "{updated}");
    }
}
