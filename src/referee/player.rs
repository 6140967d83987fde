//! What the arbiter asks of an engine, whatever protocol it speaks: start a game, answer
//! one move request before a deadline, hear the result, quit. `usi_client.rs` and
//! `cecp_client.rs` implement it.

use super::process::{EngineError, EngineProcess};
use super::tc::{Clocks, Millis, TimeControl};
use crate::rules::geometry::Color;
use std::time::Instant;

/// An engine's evaluation, from the point of view of the side it moved for (records
/// note it beside each move).
pub use crate::record::finished_game::Score;

/// What the engine did with its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move in USI notation (CECP moves are converted by the client; XBoard's null move
    /// `@@@@` is left for the variant to read).
    Move(String),
    Resign,
    /// Declares a win by entering king (`bestmove win`).
    Win,
    /// Claimed a result instead of moving (CECP result line), with the claim text.
    Claim(String),
}

/// The answer to one move request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub reply: Reply,
    pub elapsed: Millis,
    pub score: Option<Score>,
}

/// Everything an engine needs to pick a move.
pub struct Turn<'a> {
    /// `startpos` or `sfen …` (the base of the game, before the opening moves).
    pub base: &'a str,
    /// Every move since the base, opening moves included, in USI notation.
    pub moves: &'a [String],
    /// Which of `moves` are passes (Chu's jitto), which XBoard writes as its null move.
    pub passes: &'a [bool],
    pub side: Color,
    /// Both sides' clocks, each under its own time control.
    pub clocks: &'a Clocks,
    /// When the referee stops waiting.
    pub deadline: Instant,
}

/// The result as one engine sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerResult {
    Win,
    Loss,
    Draw,
}

/// An engine seat in a match.
pub trait Player: Send {
    /// The name used in records and summaries.
    fn name(&self) -> &str;
    /// Prepares a new game (starting the process first if needed). `base` as in [`Turn`];
    /// `control` is this seat's own time control in the game.
    fn new_game(&mut self, base: &str, control: TimeControl) -> Result<(), EngineError>;
    /// Asks for a move.
    fn play(&mut self, turn: &Turn) -> Result<Answer, EngineError>;
    /// Tells the engine how the game ended (errors are ignored: the game is over).
    fn game_over(&mut self, result: PlayerResult);
    /// The engine process of the seat, when it runs one (`None`: a player inside this
    /// process, as the tests have); [`Player::reset`] and [`Player::quit`] end it.
    fn process_slot(&mut self) -> Option<&mut Option<EngineProcess>> {
        None
    }
    /// Kills the process so that the next `new_game` starts a fresh one (after a crash,
    /// hang or protocol error).
    fn reset(&mut self) {
        if let Some(slot) = self.process_slot() {
            // Dropping the process kills it.
            *slot = None;
        }
    }
    /// Ends the process politely.
    fn quit(&mut self) {
        if let Some(slot) = self.process_slot() {
            EngineProcess::quit_slot(slot);
        }
    }
}
