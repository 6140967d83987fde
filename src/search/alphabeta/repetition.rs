//! Repetitions on the game and search path: which moves were forcing (checks, in shogi) and
//! the score of a position that occurred before (a draw, unless one side checked on every
//! one of its moves of the cycle).

use super::score::PERPETUAL_WIN;
use super::Worker;
use crate::search::game::SearchGame;

/// How far back a repetition is looked for, in plies.
pub(super) const REPETITION_WINDOW: usize = 32;

impl<G: SearchGame> Worker<'_, G> {
    /// Whether the move into the position `back` plies before the node at `ply` was forcing
    /// (a check, in shogi).
    #[inline]
    fn was_forcing(&self, ply: usize, back: usize) -> bool {
        if back <= ply {
            self.stack[ply - back].forcing
        } else {
            self.game_checks.get(back - ply).copied().unwrap_or(false)
        }
    }

    /// Whether the move into the current position was forcing, given its check flag.
    #[inline]
    pub(super) fn forcing(&self, in_check: bool) -> bool {
        if G::FORCING_IS_CHECK {
            in_check
        } else {
            self.pos.last_move_was_forcing()
        }
    }

    /// The score of the node at `ply` if its position occurred before on the game or search
    /// path: a draw, unless one side checked on every one of its moves of the cycle (it loses).
    #[inline]
    pub(super) fn repetition(&self, ply: usize) -> Option<i32> {
        let limit = self.stack[ply].plies_from_null.min(REPETITION_WINDOW);
        if limit < 4 {
            return None;
        }
        let key = self.pos.hash();
        let mut back = 4;
        while back <= limit {
            if self.pos.hash_before(back) == Some(key) {
                let mut they_checked = true;
                let mut we_checked = true;
                for i in 0..back {
                    let checked = self.was_forcing(ply, i);
                    if i % 2 == 0 {
                        they_checked &= checked;
                    } else {
                        we_checked &= checked;
                    }
                }
                return Some(match (they_checked, we_checked) {
                    (true, false) => PERPETUAL_WIN - ply as i32,
                    (false, true) => -(PERPETUAL_WIN - ply as i32),
                    _ => 0,
                });
            }
            back += 2;
        }
        None
    }
}
