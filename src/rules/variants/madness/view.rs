//! From the referee's truth to what each player may know (docs/ARCHITECTURE.md, "The chance
//! search"; docs/USI.md, "Games with dice and cards"): which tokens each player is sent (the
//! opponent's draws become `draw:?`), a player's view rebuilt from exactly those tokens, and a
//! check that a view agrees with the true state on everything public and knows no hidden card
//! it should not.

use super::token::Token;
use super::turn::{Phase, PlayerView, TrueGame};
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::NotationError;

/// What `player` is sent of `action`, played by the referee at `truth`'s current node:
/// the opponent's draws become `draw:?`, everything else is public.
pub fn visible_to(truth: &TrueGame, action: Move, player: Color) -> Move {
    let drawer = match truth.phase() {
        Phase::Deal(color) => Some(color),
        Phase::Draw => Some(truth.side_to_move()),
        _ => None,
    };
    match (drawer, Token::from_move(action)) {
        (Some(drawer), Some(Token::Draw(_))) if drawer != player => Token::DrawHidden.to_move(),
        _ => action,
    }
}

/// Replays `actions` from `start` (the referee's game) and returns the stream each player
/// is sent, indexed by `Color::index()`. An action that cannot be played is an error.
pub fn filter_stream(start: &TrueGame, actions: &[Move]) -> Result<[Vec<Move>; 2], NotationError> {
    let mut truth = start.clone();
    let mut streams = [Vec::new(), Vec::new()];
    for &action in actions {
        if !truth.accepts(action) {
            return Err(NotationError::Move(format!(
                "{} cannot be played here: {}",
                truth.action_text(action),
                truth.what_comes_next()
            )));
        }
        for player in Color::BOTH {
            streams[player.index()].push(visible_to(&truth, action, player));
        }
        truth.play(action);
    }
    Ok(streams)
}

/// `player`'s view rebuilt from the start of `truth_start` (its SFEN, before the deal) and
/// the tokens the player was sent. An error if a token could not have been sent to it:
/// illegal, or revealing a card it may not see (the opponent's `draw:N`).
pub fn derive_view(
    truth_start: &TrueGame,
    player: Color,
    sent: &[Move],
) -> Result<PlayerView, NotationError> {
    let mut view = PlayerView::from_sfen(truth_start.start_sfen(), player)?;
    for &action in sent {
        if !view.accepts(action) {
            return Err(NotationError::Move(format!(
                "{} may not receive {} here: {}",
                player.name(),
                view.action_text(action),
                view.what_comes_next()
            )));
        }
        view.play(action);
    }
    Ok(view)
}

/// Checks that `view` agrees with `truth` on all public information (board, hands, side to
/// move, phase and turn flags, discards, pile size), knows its own card exactly, and knows
/// the opponent's card only when counting has located it (and then correctly).
pub fn check_view(view: &PlayerView, truth: &TrueGame) -> Result<(), String> {
    let me = view.cards().me;
    let fail = |what: &str| {
        Err(format!(
            "{}'s view differs from the truth: {what}",
            me.name()
        ))
    };
    if view.position() != truth.position() {
        return fail("board, hands or side to move");
    }
    if view.phase() != truth.phase()
        || view.frozen_square() != truth.frozen_square()
        || view.drops_forbidden() != truth.drops_forbidden()
    {
        return fail("turn state");
    }
    let (v, t) = (view.cards(), truth.cards());
    if v.discards != t.discards {
        return fail("discard pile");
    }
    if v.pile_size as u32 != t.pile.total() {
        return fail("draw pile size");
    }
    if v.own != t.held[me.index()] {
        return fail("own card");
    }
    match v.opponent {
        None => {}
        Some(card) if v.opponent_located && t.held[me.flip().index()] == Some(card) => {}
        Some(_) => return fail("it holds the opponent's unplayed card"),
    }
    Ok(())
}
