//! Shogi of the Central Madness (RULES.md §5): standard shogi plus a madness phase whenever
//! the player to move has a piece on 5e, driven by a d10 or a hidden card from a 40-card deck.
//!
//! The board, the piece kinds, the attack tables, normal move generation and drops are those
//! of [`crate::rules::variants::shogi`]; this module adds the turn structure and the cards.
//! Submodules: `token` the atomic actions (docs/USI.md tokens) and their `Move` encoding,
//! `cards` the two card models (the referee's true deck and one player's view), `turn` the
//! turn state machine and the [`Game`](crate::rules::game::Game) implementation, `view`
//! deriving a player's view from the tokens it was sent and filtering a true token stream,
//! `perft` counting decisions with scripted chance outcomes.
//!
//! A game is a start position plus a token list. Node order within a turn (see `turn`):
//! `[madness: (c:N [mad±] draw:M) | (roll r:N [mad±])] normal-move`, and two `draw:` tokens
//! deal the cards before the first turn (sente's card, then gote's).
//!
//! Information model (docs/ARCHITECTURE.md, "The chance search"): [`TrueGame`] is the referee's
//! state, every card known, draws are chance nodes weighted by the draw pile. [`PlayerView`] is
//! one player's: every draw is a one-outcome chance node `draw:?` (the referee's stream carries
//! the value of the player's own draws, which the view also accepts there), and a card the view
//! does not know becomes a chance node of `draw:N` outcomes, weighted by the unseen cards,
//! placed at its holder's `MadnessChoice`, just before the card-or-roll decision. The
//! opponent's card drawn there is forgotten again if the opponent rolls, so our later decisions
//! never see it; a card located by counting (after a reshuffle we caused) is kept.

pub mod cards;
pub mod perft;
pub mod token;
pub mod turn;
pub mod view;

#[cfg(test)]
mod tests;

pub use cards::{CardCounts, TrueCards, ViewCards};
pub use token::{CardValue, Token};
pub use turn::{MadnessGame, Phase, PlayerView, TrueGame};

use crate::rules::geometry::{Color, Offset, Square};
use crate::rules::variants::shogi::{Geo, Position};

/// The centre square 5e (file index 4, rank index 4 on the 9×9 board).
pub const CENTER: Square = Square(4 * 9 + 4);

/// The board-absolute direction of a madness slide for values 1–8 (RULES.md §5.2):
/// E, SE, S, SW, W, NW, N, NE. North is toward sente (rank +1), east is sente's left
/// (file +1). The same for both players.
pub const MAD_DIRECTIONS: [Offset; 8] = [
    Offset::new(1, 0),
    Offset::new(1, -1),
    Offset::new(0, -1),
    Offset::new(-1, -1),
    Offset::new(-1, 0),
    Offset::new(-1, 1),
    Offset::new(0, 1),
    Offset::new(1, 1),
];

/// Where `owner`'s piece on 5e stops sliding toward value `v`'s direction (1..=8): the
/// first enemy piece (captured), else the last empty square before a friendly piece or the
/// edge; `None` if the first step is blocked (the effect fails).
pub fn slide_destination(pos: &Position, owner: Color, v: CardValue) -> Option<Square> {
    let dir = MAD_DIRECTIONS[v.index()];
    let mut at = CENTER;
    let mut last_empty = None;
    while let Some(next) = at.offset::<Geo>(dir) {
        match pos.piece_at(next) {
            None => {
                last_empty = Some(next);
                at = next;
            }
            Some(p) if p.color() == owner => return last_empty,
            Some(_) => return Some(next),
        }
    }
    last_empty
}
