//! Chu Kagamigi for the alpha-beta search: a drop game with check and mate like shogi, on
//! the 12×12 board. Checks are detected for the moving piece only (a discovered check is not
//! seen, so it is not extended); the exchange estimate is one recapture deep.

use super::super::game::SearchGame;
use crate::eval::board12::TableEvaluator;
use crate::eval::kagamigi::{evaluator, value};
use crate::eval::Totals;
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::variants::kagamigi::{Kind, Position};

impl SearchGame for Position {
    type Evaluator = TableEvaluator;
    type Totals = Totals;
    type Checks = ();

    const PIECE_SLOTS: usize = 2 * Kind::COUNT;
    const SQUARES: usize = 144;

    forward_to_position!();

    forward_to_evaluator!(TableEvaluator, evaluator());

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline]
    fn has_lost(&self) -> bool {
        false
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

    #[inline]
    fn checks_gives_check(&self, _checks: &(), mv: Move) -> bool {
        SearchGame::gives_check(self, mv)
    }

    #[inline]
    fn moved_slot(&self, mv: Move) -> usize {
        self.moving_piece(mv).index()
    }

    #[inline]
    fn landed_slot(&self, mv: Move) -> usize {
        self.landing_piece(mv).index()
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && self.piece_at(mv.to()).is_some()
    }

    #[inline]
    fn victim_value(&self, mv: Move) -> i32 {
        if mv.is_drop() {
            return 0;
        }
        self.piece_at(mv.to()).map_or(0, |p| value(p.kind()))
    }

    #[inline]
    fn mover_value(&self, mv: Move) -> i32 {
        value(self.moving_piece(mv).kind())
    }

    #[inline]
    fn promotion_gain(&self, mv: Move) -> i32 {
        if !mv.is_promotion() {
            return 0;
        }
        value(self.landing_piece(mv).kind()) - value(self.moving_piece(mv).kind())
    }

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

    #[inline]
    fn promotion_first(&self, mv: Move) -> bool {
        mv.is_promotion()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    #[test]
    fn every_reported_check_is_a_check() {
        let mut rng = StdRng::seed_from_u64(4);
        let mut checks = 0;
        for _ in 0..10 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let mut legal = MoveList::new();
                Position::generate_legal(&pos, &mut legal);
                for &mv in &legal {
                    if SearchGame::gives_check(&pos, mv) {
                        Position::play(&mut pos, mv);
                        assert!(Position::in_check(&pos), "{}", pos.to_sfen());
                        Position::unplay(&mut pos);
                        checks += 1;
                    }
                }
                let Some(&mv) = legal.choose(&mut rng) else {
                    break;
                };
                Position::play(&mut pos, mv);
            }
        }
        assert!(checks > 50, "{checks}");
    }

    #[test]
    fn null_moves_restore_the_position() {
        let mut pos = Position::startpos();
        let before = pos.clone();
        Position::play_null(&mut pos);
        assert_eq!(pos.compute_hash(), Position::hash(&pos));
        Position::unplay_null(&mut pos);
        assert_eq!(pos, before);
    }
}
