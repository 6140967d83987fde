//! Which training positions are quiet, the one definition `gensfen --quiet-only` (at the
//! source) and `nnue-features --quiet-only` (on records already written) share: a position
//! is noisy when its side to move is in check (a royal attacked, in the 12×12 games) or the
//! move its search chose captures. A static evaluation, which a net is, cannot see the
//! exchange such a move begins, so the search's score there teaches it what it cannot know;
//! the search calls the evaluation only after its quiescence search has played the captures.

use crate::eval::board12::TablePosition;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::Position;
use crate::search::game::SearchGame;

/// Standard shogi (and the Central Madness's board): in check, or `mv` captures.
pub fn shogi_is_noisy(pos: &Position, mv: Move) -> bool {
    pos.in_check() || (!mv.is_drop() && pos.piece_at(mv.to()).is_some())
}

/// A 12×12 game: a royal of the side to move attacked, or `mv` captures (a Lion's double
/// move counts each piece it takes).
pub fn board12_is_noisy<P: TablePosition + SearchGame>(pos: &P, mv: Move) -> bool {
    SearchGame::in_check(pos) || !pos.effect(mv).captures.is_empty()
}
