//! Chu Kagamigi for the alpha-beta search: a drop game with check and mate like shogi, on
//! the 12×12 board. Checks are detected for the moving piece only (a discovered check is not
//! seen, so it is not extended); the exchange estimate is one recapture deep.

use super::super::game::SearchGame;
use crate::eval::board12::{TableEvaluator, TableWeights};
use crate::eval::kagamigi::value;
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::variants::kagamigi::{Geo, Kind, Position};

impl SearchGame for Position {
    type Checks = ();

    forward_search_game!(kinds: Kind, board: Geo, TableEvaluator, Position::evaluator());

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    /// Direct checks by the moved (or dropped) piece.
    fn gives_check(&self, mv: Move) -> bool {
        let Some(king) = self.king_square(Position::side_to_move(self).flip()) else {
            return false;
        };
        let mut occupied = self.occupied().with(mv.to());
        if let Some(from) = mv.from() {
            occupied = occupied.without(from);
        }
        self.tables()
            .attacks(self.landing_piece(mv), mv.to(), occupied)
            .contains(king)
    }

    #[inline]
    fn checks(&self) {}

    drop_game_exchange!(value);
    drop_game_generation!();

    fn see(&self, mv: Move) -> i32 {
        let gain = SearchGame::victim_value(self, mv) + SearchGame::promotion_gain(self, mv);
        let mut occupied = self.occupied().with(mv.to());
        if let Some(from) = mv.from() {
            occupied = occupied.without(from);
        }
        let them = Position::side_to_move(self).flip();
        if self.attackers_to(mv.to(), them, occupied).any() {
            gain - value(self.landing_piece(mv).kind())
        } else {
            gain
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_games::random_games;
    use rand::seq::SliceRandom;

    #[test]
    fn every_reported_check_is_a_check() {
        let mut checks = 0;
        random_games(&Position::startpos(), 4, (10, 150), |pos, legal, rng| {
            for &mv in legal {
                if SearchGame::gives_check(pos, mv) {
                    Position::play(pos, mv);
                    assert!(Position::in_check(pos), "{}", pos.to_sfen());
                    Position::unplay(pos);
                    checks += 1;
                }
            }
            legal.choose(rng).copied()
        });
        assert!(checks > 50, "{checks}");
    }
}
