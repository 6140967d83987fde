//! What the mate solver needs of a game ([`MateGame`]): the alpha-beta interface
//! ([`SearchGame`]: moves, check, play/unplay), a per-node check recogniser, and the id under
//! which the transposition table knows a position. Standard shogi keys positions by board
//! and attacker hand, so that hand dominance carries proofs and disproofs between hands
//! (`table`); Chu Kagamigi, whose 24 hand kinds do not fit that packing, and minishogi key
//! them by the whole zobrist hash (hands included) and use no dominance.

use super::checks::CheckInfo;
use super::table::{AttackerHand, BoardKey, NodeId};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::GameText;
use crate::rules::variants::{kagamigi, minishogi, shogi};
use crate::search::game::SearchGame;

/// A game with drops and checkmate that `go mate` can solve.
pub trait MateGame: SearchGame + GameText {
    /// What a node computes once to recognise the attacker's checks.
    type CheckFilter;
    /// The check recogniser of the side to move; `None` when the other side has no king
    /// (no move checks).
    fn check_filter(&self) -> Option<Self::CheckFilter>;
    /// Whether the legal move `mv` gives check.
    fn filter_gives_check(&self, filter: &Self::CheckFilter, mv: Move) -> bool;
    /// The table id of this position.
    fn node_id(&self, attacker: Color) -> NodeId;
    /// The table id after the legal move `mv` (`id` is this position's).
    fn node_id_after(&mut self, _id: NodeId, attacker: Color, mv: Move) -> NodeId {
        self.play(mv);
        let id = self.node_id(attacker);
        self.unplay();
        id
    }
}

impl MateGame for shogi::Position {
    type CheckFilter = CheckInfo;

    fn check_filter(&self) -> Option<CheckInfo> {
        CheckInfo::new(self)
    }

    #[inline]
    fn filter_gives_check(&self, filter: &CheckInfo, mv: Move) -> bool {
        filter.gives_check(self, mv)
    }

    fn node_id(&self, attacker: Color) -> NodeId {
        NodeId::of(self, attacker)
    }

    #[inline]
    fn node_id_after(&mut self, id: NodeId, attacker: Color, mv: Move) -> NodeId {
        id.after(self, attacker, mv)
    }
}

/// `MateGame` for drop games whose search detects checks without tables of their own
/// (`Checks = ()`): the table keys a position by its whole zobrist hash, hands included, so
/// no hand dominance is used.
macro_rules! mate_game_keyed_by_hash {
    ($($position:ty),+) => {$(
        impl MateGame for $position {
            type CheckFilter = <$position as SearchGame>::Checks;

            // `Checks` is `()` today; the call keeps working if it gains data.
            #[allow(clippy::unit_arg)]
            fn check_filter(&self) -> Option<Self::CheckFilter> {
                Some(self.checks())
            }

            #[inline]
            fn filter_gives_check(&self, filter: &Self::CheckFilter, mv: Move) -> bool {
                self.checks_gives_check(filter, mv)
            }

            fn node_id(&self, _attacker: Color) -> NodeId {
                NodeId {
                    board: BoardKey(SearchGame::hash(self)),
                    hand: AttackerHand::default(),
                }
            }
        }
    )+};
}

mate_game_keyed_by_hash!(kagamigi::Position, minishogi::Position);
