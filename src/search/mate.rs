//! The tsume (mate) solver behind `go mate`: proves or refutes a forced mate by checks.

use super::Control;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::Position;
use std::time::Duration;

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced mate: the attacker's and defender's moves, ending in mate.
    Mate(Vec<Move>),
    /// Proven: no forced mate by checks exists.
    NoMate,
    /// Neither proven nor refuted within the time or when stopped.
    Timeout,
}

/// Searches for a mate by the side to move, within `limit` (None = until `control` stops).
pub fn solve(_position: &Position, _limit: Option<Duration>, _control: &Control) -> MateAnswer {
    MateAnswer::Timeout
}
