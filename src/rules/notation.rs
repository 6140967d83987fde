//! Errors shared by every variant's notation (SFEN and USI move text).
//!
//! Each variant parses its own text (`variants/*/notation.rs`); this module owns only the
//! error type, so that callers (USI, CLI, referee) report any variant's mistakes alike.

use std::fmt;

/// Why a piece of game notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A malformed or impossible SFEN.
    Sfen(String),
    /// A malformed or illegal move.
    Move(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Sfen(why) => write!(f, "bad sfen: {why}"),
            NotationError::Move(why) => write!(f, "bad move: {why}"),
        }
    }
}

impl std::error::Error for NotationError {}
