//! Fast "does this move give check?" for the search: the squares from which each kind would
//! check the enemy king, and the pieces whose move would uncover a check, are computed once
//! per node, so each move costs two bit tests instead of fresh attack computations
//! (`Position::gives_check` stays the reference; a test compares the two).

use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Position};

/// Per-node check information for the side to move.
pub struct CheckInfo {
    king: Option<Square>,
    /// Squares from which a piece of each kind of ours would attack the enemy king.
    check_squares: [Bb128; Kind::COUNT],
    /// Our pieces that alone block one of our sliders from the enemy king.
    discoverers: Bb128,
}

/// `us`'s pieces that alone stand between the enemy king on `king` and one of `us`'s sliders
/// (with `occupied` the occupied squares): moving one of them may uncover a check.
#[inline]
pub fn discoverers_of(pos: &Position, us: Color, king: Square, occupied: Bb128) -> Bb128 {
    pos.lone_blockers(king, us, us, occupied)
}

impl CheckInfo {
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let mut check_squares = [Bb128::EMPTY; Kind::COUNT];
        let mut discoverers = Bb128::EMPTY;
        let king = pos.king_square(them);
        if let Some(k) = king {
            let t = pos.tables();
            let occupied = pos.occupied();
            let step = |kind: Kind| t.step_attacks(them, kind, k);
            let rook = t.rook_attacks(k, occupied);
            let bishop = t.bishop_attacks(k, occupied);
            let gold = step(Kind::Gold);
            // Attack patterns are point-symmetric between the colours.
            check_squares[Kind::Pawn.index()] = step(Kind::Pawn);
            check_squares[Kind::Lance.index()] = t.lance_attacks(them, k, occupied);
            check_squares[Kind::Knight.index()] = step(Kind::Knight);
            check_squares[Kind::Silver.index()] = step(Kind::Silver);
            check_squares[Kind::Bishop.index()] = bishop;
            check_squares[Kind::Rook.index()] = rook;
            for kind in [
                Kind::Gold,
                Kind::ProPawn,
                Kind::ProLance,
                Kind::ProKnight,
                Kind::ProSilver,
            ] {
                check_squares[kind.index()] = gold;
            }
            let king_steps = step(Kind::King);
            check_squares[Kind::Horse.index()] = bishop | king_steps;
            check_squares[Kind::Dragon.index()] = rook | king_steps;
            discoverers = discoverers_of(pos, us, k, occupied);
        }
        CheckInfo {
            king,
            check_squares,
            discoverers,
        }
    }

    /// True if the legal move `mv` checks the enemy king.
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        let Some(k) = self.king else {
            return false;
        };
        let to = mv.to();
        match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                self.check_squares[kind.index()].contains(to)
            }
            Some(from) => {
                let landed = pos.landing_piece(mv).kind();
                (landed != Kind::King && self.check_squares[landed.index()].contains(to))
                    || (self.discoverers.contains(from)
                        && !pos.tables().rays.line(k, from).contains(to))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_games::random_games;
    use rand::seq::SliceRandom;

    #[test]
    fn agrees_with_the_rules_over_random_games() {
        let mut compared = 0;
        for sfen in [
            crate::rules::variants::shogi::notation::START_SFEN,
            "4k4/4p4/4L4/9/4R4/9/2B6/9/4K4 b GSNLP 1",
        ] {
            let start = Position::from_sfen(sfen).unwrap();
            random_games(&start, 11, (40, 150), |pos, legal, rng| {
                let info = CheckInfo::new(pos);
                for &mv in legal {
                    assert_eq!(
                        info.gives_check(pos, mv),
                        pos.gives_check(mv),
                        "{} {}",
                        pos.to_sfen(),
                        pos.move_to_usi(mv)
                    );
                    compared += 1;
                }
                legal.choose(rng).copied()
            });
        }
        assert!(compared > 100_000);
    }
}
