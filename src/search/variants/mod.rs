//! The [`super::game::SearchGame`] implementation of each variant: one module per game.
//! [`forward_search_game!`] writes the trait items that only call the position's own methods
//! or the evaluator's, [`drop_game_exchange!`] the piece and exchange questions of the games with
//! drops, [`generation_by_part!`] the generation by part (theirs and Chu's),
//! [`drop_game_direct_checks!`] the check and exchange estimates of the drop games that have no
//! check tables of their own.

/// Inside an `impl SearchGame for Position`, everything that only forwards: the table sizes
/// of a game with the piece kinds `$kind` on the board `$geo` (a slot per colour and kind, a
/// square per square), the evaluation types and methods that call the evaluator `$evaluator`
/// (`totals`, `update`, `score`, with `$default` the evaluator the search uses unless told
/// otherwise; `tables and net`: a 12×12 game's `Board12Evaluator`; left out when only kinds
/// and board are given), and the methods that call the
/// position's inherent methods of the same name (board state, history, make/unmake, null
/// moves).
macro_rules! forward_search_game {
    (kinds: $kind:ty, board: $geo:ty, tables and net) => {
        forward_search_game!(kinds: $kind, board: $geo);

        type Evaluator = crate::eval::board12_choice::Board12Evaluator<Position>;
        type Totals = crate::eval::board12_choice::Board12Totals;
        type EvalChange = crate::eval::board12_choice::Board12Change;

        /// The game's tables, without a net.
        fn default_evaluator() -> &'static Self::Evaluator {
            static TABLES: std::sync::OnceLock<
                crate::eval::board12_choice::Board12Evaluator<Position>,
            > = std::sync::OnceLock::new();
            TABLES.get_or_init(|| crate::eval::board12_choice::Board12Evaluator::with_net(None))
        }

        #[inline]
        fn eval_totals(&self, evaluator: &Self::Evaluator) -> Self::Totals {
            evaluator.totals(self)
        }

        #[inline]
        fn eval_change(
            &self,
            evaluator: &Self::Evaluator,
            mv: crate::rules::moves::Move,
            before: &Self::Totals,
        ) -> Self::EvalChange {
            evaluator.change(self, mv, before)
        }

        #[inline]
        fn eval_apply(
            &self,
            evaluator: &Self::Evaluator,
            change: Self::EvalChange,
            before: &Self::Totals,
            after: &mut Self::Totals,
        ) {
            evaluator.apply(self, change, before, after);
        }

        #[inline]
        fn eval_score(
            evaluator: &Self::Evaluator,
            totals: &Self::Totals,
            side_to_move: crate::rules::geometry::Color,
        ) -> i32 {
            evaluator.score(totals, side_to_move)
        }
    };
    (kinds: $kind:ty, board: $geo:ty, $evaluator:ty, $default:expr) => {
        forward_search_game!(kinds: $kind, board: $geo);

        type Evaluator = $evaluator;
        type Totals = crate::eval::Totals;
        /// The totals after the move, or `None` when they must be recounted.
        type EvalChange = Option<crate::eval::Totals>;

        #[inline]
        fn default_evaluator() -> &'static $evaluator {
            $default
        }

        #[inline]
        fn eval_totals(&self, evaluator: &$evaluator) -> crate::eval::Totals {
            evaluator.totals(self)
        }

        #[inline]
        fn eval_change(
            &self,
            evaluator: &$evaluator,
            mv: crate::rules::moves::Move,
            before: &crate::eval::Totals,
        ) -> Option<crate::eval::Totals> {
            evaluator.update(self, mv, *before)
        }

        #[inline]
        fn eval_apply(
            &self,
            evaluator: &$evaluator,
            change: Option<crate::eval::Totals>,
            _before: &crate::eval::Totals,
            after: &mut crate::eval::Totals,
        ) {
            *after = change.unwrap_or_else(|| evaluator.totals(self));
        }

        #[inline]
        fn eval_score(
            evaluator: &$evaluator,
            totals: &crate::eval::Totals,
            side_to_move: crate::rules::geometry::Color,
        ) -> i32 {
            evaluator.score(*totals, side_to_move)
        }
    };
    (kinds: $kind:ty, board: $geo:ty) => {
        const PIECE_SLOTS: usize = 2 * <$kind>::COUNT;
        const SQUARES: usize = <$geo as crate::rules::geometry::Geometry>::SQUARES;

        #[inline]
        fn side_to_move(&self) -> crate::rules::geometry::Color {
            Position::side_to_move(self)
        }

        #[inline]
        fn hash(&self) -> u64 {
            Position::hash(self)
        }

        #[inline]
        fn hash_before(&self, back: usize) -> Option<u64> {
            Position::hash_before(self, back)
        }

        #[inline]
        fn moves_played(&self) -> usize {
            Position::moves_played(self)
        }

        #[inline]
        fn move_number(&self) -> u32 {
            Position::move_number(self)
        }

        #[inline]
        fn generate_legal(&self, out: &mut crate::rules::moves::MoveList) {
            Position::generate_legal(self, out);
        }

        #[inline]
        fn has_legal_move(&self) -> bool {
            Position::has_legal_move(self)
        }

        #[inline]
        fn play(&mut self, mv: crate::rules::moves::Move) {
            Position::play(self, mv);
        }

        #[inline]
        fn unplay(&mut self) {
            Position::unplay(self);
        }

        #[inline]
        fn play_null(&mut self) {
            Position::play_null(self);
        }

        #[inline]
        fn unplay_null(&mut self) {
            Position::unplay_null(self);
        }
    };
}

/// Inside an `impl SearchGame for Position` of a drop game without check tables of its own
/// (a `DropPosition` whose tables answer `attacks`): check is detected for the moving piece
/// only (a discovered check is not seen, so it is not extended), and the exchange estimate is
/// one recapture deep, by `$value` (a kind's value).
macro_rules! drop_game_direct_checks {
    ($value:path) => {
        type Checks = ();

        #[inline]
        fn in_check(&self) -> bool {
            Position::in_check(self)
        }

        /// Direct checks by the moved (or dropped) piece.
        fn gives_check(&self, mv: crate::rules::moves::Move) -> bool {
            use crate::rules::bitboard::Bitboard;
            let Some(king) = self.king_square(Position::side_to_move(self).flip()) else {
                return false;
            };
            let mut occupied = self.occupied().with(mv.to());
            if let Some(from) = mv.from() {
                occupied = occupied.without(from);
            }
            crate::rules::dropshogi::DropTables::attacks(
                self.tables(),
                self.landing_piece(mv),
                mv.to(),
                occupied,
            )
            .contains(king)
        }

        #[inline]
        fn checks(&self) {}

        fn see(&self, mv: crate::rules::moves::Move) -> i32 {
            use crate::rules::bitboard::Bitboard;
            let gain = SearchGame::victim_value(self, mv) + SearchGame::promotion_gain(self, mv);
            let mut occupied = self.occupied().with(mv.to());
            if let Some(from) = mv.from() {
                occupied = occupied.without(from);
            }
            let them = Position::side_to_move(self).flip();
            if self.attackers_to(mv.to(), them, occupied).any() {
                gain - $value(self.landing_piece(mv).kind())
            } else {
                gain
            }
        }
    };
}

/// Inside an `impl SearchGame for Position` of a game with drops (a `DropPosition`; a drop
/// captures nothing): the moving, landing and captured piece's slots, the capture test, and
/// the exchange values of the victim, the mover and a promotion, by `$value` (a kind's value).
macro_rules! drop_game_exchange {
    ($value:path) => {
        #[inline]
        fn moved_slot(&self, mv: crate::rules::moves::Move) -> usize {
            self.moving_piece(mv).index()
        }

        #[inline]
        fn landed_slot(&self, mv: crate::rules::moves::Move) -> usize {
            self.landing_piece(mv).index()
        }

        #[inline]
        fn mover_value(&self, mv: crate::rules::moves::Move) -> i32 {
            $value(self.moving_piece(mv).kind())
        }

        #[inline]
        fn promotion_gain(&self, mv: crate::rules::moves::Move) -> i32 {
            if !mv.is_promotion() {
                return 0;
            }
            $value(self.landing_piece(mv).kind()) - $value(self.moving_piece(mv).kind())
        }

        #[inline]
        fn is_capture(&self, mv: crate::rules::moves::Move) -> bool {
            !mv.is_drop() && self.piece_at(mv.to()).is_some()
        }

        #[inline]
        fn victim_slot(&self, mv: crate::rules::moves::Move) -> usize {
            self.piece_at(mv.to()).map_or(0, |p| p.index())
        }

        #[inline]
        fn victim_value(&self, mv: crate::rules::moves::Move) -> i32 {
            if mv.is_drop() {
                return 0;
            }
            self.piece_at(mv.to()).map_or(0, |p| $value(p.kind()))
        }
    };
}

/// Inside an `impl SearchGame for Position` whose position generates its moves by part and
/// tests a single move's legality itself (the games with drops, `DropPosition`; Chu): they
/// let the move picker leave the quiet moves ungenerated until it reaches them.
macro_rules! generation_by_part {
    () => {
        const GENERATES_BY_PART: bool = true;

        #[inline]
        fn generate_part(
            &self,
            part: crate::rules::sink::MovePart,
            out: &mut crate::rules::moves::MoveList,
        ) {
            Position::generate_part(self, part, out);
        }

        #[inline]
        fn is_legal(&self, mv: crate::rules::moves::Move) -> bool {
            Position::is_legal(self, mv)
        }
    };
}

pub mod chu;
pub mod kagamigi;
pub mod minishogi;
pub mod shogi;

#[cfg(test)]
mod tests {
    use super::super::game::SearchGame;
    use crate::eval::random_games::random_games;
    use crate::rules::game::Game;
    use crate::rules::variants::{chu, kagamigi, minishogi, shogi};
    use rand::seq::SliceRandom;
    use std::fmt::Debug;

    /// Every move `drop_game_direct_checks!` reports as a check gives check, in random games
    /// of `plies` plies from `start`; returns how many it reported.
    fn reported_checks_are_checks<G: SearchGame + Game + Debug>(start: &G, plies: usize) -> usize {
        let mut checks = 0;
        random_games(start, 4, (10, plies), |pos, legal, rng| {
            for &mv in legal {
                if SearchGame::gives_check(pos, mv) {
                    SearchGame::play(pos, mv);
                    assert!(SearchGame::in_check(pos), "{pos:?}");
                    SearchGame::unplay(pos);
                    checks += 1;
                }
            }
            legal.choose(rng).copied()
        });
        checks
    }

    #[test]
    fn every_reported_check_is_a_check() {
        let kagamigi = reported_checks_are_checks(&kagamigi::Position::startpos(), 150);
        assert!(kagamigi > 50, "{kagamigi}");
        let minishogi = reported_checks_are_checks(&minishogi::Position::startpos(), 80);
        assert!(minishogi > 20, "{minishogi}");
    }

    /// A null move changes the hash, incrementally as a recount (`recount`) sees it, and
    /// taking it back restores the position.
    fn null_move_round_trip<G: SearchGame + PartialEq + Debug>(mut pos: G, recount: fn(&G) -> u64) {
        let before = pos.clone();
        pos.play_null();
        assert_ne!(pos.hash(), before.hash());
        assert_eq!(recount(&pos), pos.hash());
        pos.unplay_null();
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
    }

    #[test]
    fn null_moves_restore_the_position() {
        null_move_round_trip(shogi::Position::startpos(), shogi::Position::compute_hash);
        null_move_round_trip(chu::Position::startpos(), chu::Position::compute_hash);
        null_move_round_trip(
            kagamigi::Position::startpos(),
            kagamigi::Position::compute_hash,
        );
    }
}
