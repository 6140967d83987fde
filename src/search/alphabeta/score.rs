//! The search's score scale: centipawns for the side to move, mates as `MATE - plies`, the
//! perpetual-check win; its conversion to the interface's [`Score`] and to and from the
//! transposition table's node-relative form.

use super::MAX_PLY;
use crate::search::Score;

/// The score of delivering mate now; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32000;
pub const INFINITE: i32 = MATE + 1;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a repetition the opponent reached by checking on every move (they lose).
pub const PERPETUAL_WIN: i32 = 30000;

/// A score of the internal scale turned into the interface's [`Score`].
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

#[inline]
pub(super) fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline]
pub(super) fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}
