//! Standard shogi for the alpha-beta search: the [`SearchGame`] implementation, its static
//! exchange evaluation (`see`), fast check detection (`checks`), the drop-mate probe
//! that quiescence alone would miss, and what makes a quiet move a threat.

pub mod checks;
pub mod see;

use super::super::game::SearchGame;
use crate::eval::shogi_choice::{ShogiChange, ShogiEvaluator, ShogiTotals};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use checks::CheckInfo;
use see::value;

/// The kinds whose drops next to the enemy king `quiet_mate_in_one` tries: a pawn-drop mate is
/// illegal, and a knight never checks from a square next to the king.
const DROP_MATE_KINDS: [Kind; 5] = [
    Kind::Rook,
    Kind::Gold,
    Kind::Silver,
    Kind::Bishop,
    Kind::Lance,
];

impl SearchGame for Position {
    type Checks = CheckInfo;

    forward_search_game!(kinds: Kind, board: Geo);

    type Evaluator = ShogiEvaluator;
    type Totals = ShogiTotals;
    type EvalChange = ShogiChange;

    // Issue 38's tree setting won its gate here (docs/STRENGTH.md).
    const TREE_SETTING: bool = true;

    #[inline]
    fn default_evaluator() -> &'static ShogiEvaluator {
        ShogiEvaluator::standard()
    }

    fn evaluates_by_net(evaluator: &ShogiEvaluator) -> bool {
        evaluator.net.is_some()
    }

    #[inline]
    fn eval_totals(&self, evaluator: &ShogiEvaluator) -> ShogiTotals {
        evaluator.totals(self)
    }

    #[inline]
    fn eval_change(
        &self,
        evaluator: &ShogiEvaluator,
        mv: Move,
        before: &ShogiTotals,
    ) -> ShogiChange {
        evaluator.change(self, mv, before)
    }

    #[inline]
    fn eval_apply(
        &self,
        evaluator: &ShogiEvaluator,
        change: ShogiChange,
        before: &ShogiTotals,
        after: &mut ShogiTotals,
    ) {
        evaluator.apply(self, change, before, after);
    }

    #[inline]
    fn eval_score(evaluator: &ShogiEvaluator, totals: &ShogiTotals, side_to_move: Color) -> i32 {
        evaluator.score(totals, side_to_move)
    }

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline]
    fn generate_captures(&self, out: &mut MoveList) {
        Position::generate_captures(self, out);
    }

    #[inline]
    fn gives_check(&self, mv: Move) -> bool {
        Position::gives_check(self, mv)
    }

    #[inline]
    fn checks(&self) -> CheckInfo {
        CheckInfo::new(self)
    }

    #[inline]
    fn checks_gives_check(&self, checks: &CheckInfo, mv: Move) -> bool {
        checks.gives_check(self, mv)
    }

    drop_game_exchange!(value);
    generation_by_part!();

    #[inline]
    fn see(&self, mv: Move) -> i32 {
        see::see(self, mv)
    }

    #[inline]
    fn promotion_first(&self, mv: Move) -> bool {
        // A silver is often better unpromoted.
        mv.is_promotion() && self.moving_piece(mv).kind() != Kind::Silver
    }

    fn threatens(&self, mv: Move) -> bool {
        let them = Position::side_to_move(self).flip();
        let piece = self.landing_piece(mv);
        let to = mv.to();
        let mut occupied = self.occupied().with(to);
        if let Some(from) = mv.from() {
            occupied = occupied.without(from);
        }
        let attacked = self.tables().attacks(piece, to, occupied) & self.pieces_of(them);
        if attacked.is_empty() {
            return false;
        }
        let mover = value(piece.kind());
        let targets = attacked.squares().any(|sq| {
            let victim = self.piece_at(sq).map_or(Kind::King, |p| p.kind());
            victim != Kind::King && (value(victim) > mover || !self.is_attacked(sq, them, occupied))
        });
        targets && see::see(self, mv) >= 0
    }

    /// True if the side to move, not in check, mates at once with a drop next to the enemy
    /// king on a square it already defends (the commonest mate, invisible to a quiescence
    /// search of captures). Pawn drops are left out: a pawn-drop mate is illegal.
    fn quiet_mate_in_one(&mut self) -> bool {
        let us = Position::side_to_move(self);
        let hand = self.hand(us);
        if hand.is_empty() {
            return false;
        }
        let Some(king) = self.king_square(us.flip()) else {
            return false;
        };
        let them = us.flip();
        let t = self.tables();
        let occupied = self.occupied();
        let around = t.step_attacks(us, Kind::King, king).and_not(occupied);
        // For each kind in hand, the empty squares next to the king from which it would give
        // check: table lookups that settle most nodes before any attack test.
        let mut checking = [Bb128::EMPTY; DROP_MATE_KINDS.len()];
        let mut next_to_king = Bb128::EMPTY;
        for (squares, kind) in checking.iter_mut().zip(DROP_MATE_KINDS) {
            if hand.count(kind) > 0 {
                *squares = t.attacks(Piece::new(them, kind), king, occupied)
                    & around
                    & t.board.alive[us.index()][kind.index()];
                next_to_king |= *squares;
            }
        }
        if next_to_king.is_empty() || Position::in_check(self) {
            return false;
        }
        // A dropped piece the king can take back mates nothing: keep the squares we defend.
        let mut defended = Bb128::EMPTY;
        for sq in next_to_king.squares() {
            if self.is_attacked(sq, us, occupied) {
                defended = defended.with(sq);
            }
        }
        // The squares the king could step to: its neighbours its own side does not hold.
        let neighbours = t
            .step_attacks(them, Kind::King, king)
            .and_not(self.pieces_of(them));
        let without_king = occupied.without(king);
        for (squares, kind) in checking.into_iter().zip(DROP_MATE_KINDS) {
            for sq in (squares & defended).squares() {
                // A neighbour the dropped piece does not cover and no piece of ours attacks
                // (seen through the king's square) is an escape: no need to play the drop.
                let dropped = Piece::new(us, kind);
                let blocked = without_king.with(sq);
                let open = neighbours
                    .without(sq)
                    .and_not(t.attacks(dropped, sq, blocked));
                if open.squares().any(|to| !self.is_attacked(to, us, blocked)) {
                    continue;
                }
                let mv = Move::drop(kind.id(), sq);
                Position::play(self, mv);
                let mated = !Position::has_legal_move(self);
                Position::unplay(self);
                if mated {
                    return true;
                }
            }
        }
        false
    }
}
