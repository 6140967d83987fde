//! Check detection for a move before it is played (`gives_check`), used by move ordering,
//! check extensions and the mate solver. Direct checks look at the moved piece's attacks
//! from its new square; discovered checks look at the sliders the move uncovers.

use super::position::Position;
use super::{Kind, Piece};
use crate::rules::bitboard::Bitboard;
use crate::rules::dropshogi::DropPiece;
use crate::rules::moves::Move;

impl Position {
    /// True if playing the legal move `mv` checks the opponent's king.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(enemy_king) = self.king_square(them) else {
            return false;
        };
        let t = self.tables();
        let to = mv.to();
        let (landed, occupied) = match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                (Piece::new(us, kind), self.occupied().with(to))
            }
            Some(from) => {
                let piece = self.piece_at(from).expect("a piece to move");
                (piece.landing(mv), self.occupied().without(from).with(to))
            }
        };
        if t.attacks(landed, to, occupied).contains(enemy_king) {
            return true;
        }
        let Some(from) = mv.from() else {
            return false;
        };
        let ours = self.pieces_of(us).without(from);
        let sliders = (t.rook_attacks(enemy_king, occupied)
            & (self.pieces_of_kind(Kind::Rook) | self.pieces_of_kind(Kind::Dragon)))
            | (t.bishop_attacks(enemy_king, occupied)
                & (self.pieces_of_kind(Kind::Bishop) | self.pieces_of_kind(Kind::Horse)))
            | (t.lance_attacks(them, enemy_king, occupied) & self.pieces_of_kind(Kind::Lance));
        (sliders & ours).any()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::rules::moves::MoveList;

    /// Compares `gives_check` with playing the move and looking, over a small tree.
    fn agree_below(pos: &mut Position, depth: u32) -> u64 {
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let mut checked = 0;
        for mv in moves {
            let predicted = pos.gives_check(mv);
            pos.play(mv);
            assert_eq!(
                predicted,
                pos.in_check(),
                "{} after {:?}",
                pos.to_sfen(),
                mv
            );
            checked += 1;
            if depth > 1 {
                checked += agree_below(pos, depth - 1);
            }
            pos.unplay();
        }
        checked
    }

    #[test]
    fn gives_check_matches_playing_the_move() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "4k4/4p4/4L4/9/4R4/9/2B6/9/4K4 b GSNLP 1",
            "8l/7k1/6P2/5B3/9/9/9/9/K8 b RGSN 1",
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            assert!(agree_below(&mut pos, 3) > 0);
        }
    }
}
