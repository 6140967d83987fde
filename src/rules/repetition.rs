//! Sennichite as shogi and Chu Kagamigi judge it (RULES.md §1.6, §3.3): the fourth
//! occurrence of a position (board, hands, side to move) ends the game; a side that gave
//! check with every one of its moves in the cycle loses, otherwise it is a draw.
//!
//! Written once over [`History`], which each such variant's position implements.

use crate::rules::game::{Game, Outcome};
use crate::rules::geometry::Color;

/// How many times a position must occur for sennichite.
pub const REPETITIONS_TO_END: usize = 4;

/// What the repetition rule needs to look back over a game.
pub trait History: Game {
    /// Moves played since the position was set up.
    fn moves_played(&self) -> usize;
    /// The hash of the position `back` moves ago (0 = now).
    fn hash_before(&self, back: usize) -> Option<u64>;
    fn side_to_move(&self) -> Color;
    fn in_check(&self) -> bool;
}

/// The result if the current position has now occurred for the fourth time.
pub fn fourfold_repetition<G: History>(game: &G) -> Option<Outcome> {
    let now = game.hash();
    // Earlier occurrences with the same side to move are an even number of moves back.
    let earlier: Vec<usize> = (1..=game.moves_played())
        .filter(|back| back % 2 == 0 && game.hash_before(*back) == Some(now))
        .collect();
    if earlier.len() + 1 < REPETITIONS_TO_END {
        return None;
    }
    let cycle = earlier[REPETITIONS_TO_END - 2];
    // Walk back over the cycle, noting for each side whether every move it made checked.
    let mut replay = game.clone();
    let mut always_checked = [true; 2];
    for _ in 0..cycle {
        let checked = replay.in_check();
        replay.unplay();
        if !checked {
            always_checked[replay.side_to_move().index()] = false;
        }
    }
    match always_checked {
        [true, false] => Some(Outcome::Win(Color::Gote)),
        [false, true] => Some(Outcome::Win(Color::Sente)),
        _ => Some(Outcome::Draw),
    }
}
