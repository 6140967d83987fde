//! The search's use of the transposition table: when a stored entry settles a node's window,
//! and how a node's result is stored (with its bound).

use super::node::BestSoFar;
use super::score::{from_tt, to_tt};
use super::Worker;
use crate::search::game::SearchGame;
use crate::search::tt::{TtBound, TtHit};

/// The stored score of `hit`, brought to `ply`, if its bound settles the window
/// `(alpha, beta)`: an exact score, a lower bound at or above `beta`, or an upper bound at or
/// below `alpha`.
#[inline]
pub(super) fn table_cutoff(hit: &TtHit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(hit.score, ply);
    let usable = match hit.bound {
        TtBound::Exact => true,
        TtBound::Lower => s >= beta,
        TtBound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

impl<G: SearchGame> Worker<'_, G> {
    /// Stores the result `best` of the node at `ply`, searched `depth` deep with
    /// the window `(alpha, beta)`: a lower bound at or above `beta`, exact when a move raised
    /// `alpha`, else an upper bound. `eval` is the node's static evaluation as the evaluator gives
    /// it (before any correction history; `None` in check). The entry carries the frame's PV
    /// mark.
    #[inline]
    pub(super) fn store_result(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        BestSoFar {
            value: best,
            mv: best_move,
        }: BestSoFar,
        (alpha, beta): (i32, i32),
        eval: Option<i32>,
    ) {
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > alpha && best_move.is_some() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let entry = TtHit {
            mv: best_move,
            score: to_tt(best, ply),
            eval,
            depth,
            bound,
            pv: self.stack[ply].tt_pv,
        };
        self.shared.tt.store_entry(key, entry);
    }
}
