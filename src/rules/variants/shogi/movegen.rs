//! Legal move generation for standard shogi (RULES.md §1.3–1.5): the checkers and pins of
//! its pieces. The rest (king moves, the promotion split, drops with nifu, dead ranks and
//! uchifuzume) is the family's, in `rules::dropshogi::movegen`.
//!
//! Only legal moves are produced, with no make/unmake: checkers and pinned pieces are found
//! first, king moves are tested against the attacks the king would face, other pieces are
//! limited to the check-blocking squares and their pin lines.

use super::position::{Position, Shogi};
use super::Kind;
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::dropshogi::movegen::PinnedPieces;
use crate::rules::geometry::{Color, Square};
use crate::rules::sink::MoveSink;

type Bb = Bb128;

/// Gives every legal move of the side to move to `out`: a checker is blocked between it
/// and the king (a knight's or a step's between is empty), and a pinned piece keeps to its
/// line through the king.
#[inline]
pub(super) fn generate_into<S: MoveSink<Bb>>(pos: &Position, out: &mut S) {
    let t = pos.tables();
    pos.generate_with_pins(
        out,
        |king, checker| t.rays.between(king, checker),
        |us, king, occupied| pos.pinned(us, king, occupied),
    );
}

/// Standard shogi's pinned pieces, each held to the line through its king.
impl PinnedPieces<Shogi> for Bb {
    fn pieces(&self) -> Bb {
        *self
    }

    #[inline]
    fn push_moves<S: MoveSink<Bb>>(
        &self,
        pos: &Position,
        king: Square,
        target: Bb,
        occupied: Bb,
        out: &mut S,
    ) {
        let t = pos.tables();
        for from in self.squares() {
            let piece = pos.piece_at(from).expect("a pinned piece");
            let to_set = t.attacks(piece, from, occupied) & target & t.rays.line(king, from);
            pos.push_board_moves(piece, from, to_set, out);
        }
    }
}

impl Position {
    /// Pieces of `color` that stand alone between its king on `king` and an enemy slider.
    #[inline]
    pub fn pinned(&self, color: Color, king: Square, occupied: Bb) -> Bb {
        self.lone_blockers(king, color.flip(), color, occupied)
    }

    /// The pieces of `owner` that stand alone (with `occupied` the occupied squares) between
    /// `king` and a slider of `by` that reaches it along an empty line: `by`'s rooks, bishops,
    /// their promotions, and lances looking forward at it. With `owner` the king's side these
    /// are the pinned pieces; with `owner` = `by`, the pieces whose move uncovers a check.
    #[inline]
    pub fn lone_blockers(&self, king: Square, by: Color, owner: Color, occupied: Bb) -> Bb {
        let t = self.tables();
        let snipers = (t.rook_attacks(king, Bb::EMPTY)
            & (self.pieces(by, Kind::Rook) | self.pieces(by, Kind::Dragon)))
            | (t.bishop_attacks(king, Bb::EMPTY)
                & (self.pieces(by, Kind::Bishop) | self.pieces(by, Kind::Horse)))
            | (t.lance_attacks(by.flip(), king, Bb::EMPTY) & self.pieces(by, Kind::Lance));
        let mut lone = Bb::EMPTY;
        for sniper in snipers.squares() {
            let blockers = t.rays.between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                lone |= blockers & self.pieces_of(owner);
            }
        }
        lone
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::rules::game::sorted_action_texts;

    fn legal_usi(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        sorted_action_texts(&pos, |m| pos.move_to_usi(m))
    }

    #[test]
    fn start_position_has_thirty_moves() {
        assert_eq!(legal_usi(super::super::notation::START_SFEN).len(), 30);
    }

    #[test]
    fn pawn_drop_mate_is_refused_but_check_is_allowed() {
        // Gote king on 9a beside its own knight; a pawn on 9b is defended by the gold on 8c,
        // which also guards 8b, and the knight cannot reach 9b.
        let mate = "kn7/9/1G7/9/9/9/9/9/8K b P 1";
        assert!(!legal_usi(mate).contains(&"P*9b".to_string()));
        // Without the gold the king can take the pawn: the drop is legal.
        let check = "kn7/9/9/9/9/9/9/9/8K b P 1";
        assert!(legal_usi(check).contains(&"P*9b".to_string()));
    }

    #[test]
    fn nifu_and_dead_ranks_limit_drops() {
        let moves = legal_usi("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        assert!(!moves.iter().any(|m| m.starts_with("P*5")));
        assert!(!moves.contains(&"P*1a".to_string()));
        assert!(!moves.contains(&"L*1a".to_string()));
        assert!(!moves.contains(&"N*1b".to_string()));
        assert!(moves.contains(&"N*1c".to_string()));
        assert!(moves.contains(&"P*1b".to_string()));
    }

    #[test]
    fn forced_and_optional_promotion() {
        let moves = legal_usi("4k4/P8/2N6/8L/9/9/9/9/4K4 b - 1");
        // Pawn to the last rank must promote.
        assert!(moves.contains(&"9b9a+".to_string()));
        assert!(!moves.contains(&"9b9a".to_string()));
        // Knight to rank a must promote.
        assert!(moves.contains(&"7c8a+".to_string()));
        assert!(!moves.contains(&"7c8a".to_string()));
        // Lance may stop unpromoted on rank b or c.
        assert!(moves.contains(&"1d1b".to_string()));
        assert!(moves.contains(&"1d1b+".to_string()));
        assert!(moves.contains(&"1d1c".to_string()));
    }
}
