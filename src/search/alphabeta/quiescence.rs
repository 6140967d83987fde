//! Quiescence search: captures only (all evasions when in check), with stand-pat, delta
//! pruning and SEE pruning of losing captures, and, where `search::params` switches them on,
//! a limit on the captures searched beyond recaptures and a drop mate in one looked for at
//! every node.

use super::node::BestSoFar;
use super::score::{INFINITE, MATE, MATE_BOUND};
use super::table::table_cutoff;
use super::{Worker, MAX_PLY};
use crate::search::game::SearchGame;
use crate::search::params::SearchParams;
use crate::search::picker::{Picked, Picker};
use std::ops::ControlFlow;

impl<G: SearchGame> Worker<'_, G> {
    /// Quiescence search: captures only (all evasions when in check), with stand-pat.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let in_check = match self.enter(ply) {
            ControlFlow::Continue(in_check) => in_check,
            ControlFlow::Break(score) => return score,
        };
        if ply >= MAX_PLY - 4 {
            return self.static_eval(ply);
        }
        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key);
        if let Some(score) = hit.and_then(|h| table_cutoff(&h, ply, alpha, beta)) {
            return score;
        }
        // The shared state outlives this borrow of `self` (as in `search`).
        let shared = self.shared;
        let params = &shared.params;
        // A quiescence node keeps the PV mark its entry has (it never sets one).
        self.stack[ply].tt_pv = SearchParams::on(params.tt_pv) && hit.is_some_and(|h| h.pv);
        if !in_check
            && hit.is_none()
            && shared.drop_mates
            && SearchParams::on(params.quiescence_drop_mates)
            && self.pos.quiet_mate_in_one()
        {
            return MATE - ply as i32 - 1;
        }
        let stand_pat;
        if in_check {
            stand_pat = -INFINITE;
        } else {
            stand_pat = self.static_eval_or_table(ply, hit.as_ref());
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let original_alpha = alpha;
        let mut best = BestSoFar::from(stand_pat);
        let mut picker = Picker::empty();
        let tt_move = hit
            .and_then(|h| h.mv)
            .filter(|_| SearchParams::on(params.quiescence_table_move));
        picker.start_captures(&self.pos, tt_move, in_check);
        let delta = params.quiescence_delta;
        let max_moves = params.quiescence_max_moves as usize;
        // The square the move into this node went to (a capture there is a recapture).
        let recapture_square = ply
            .checked_sub(1)
            .and_then(|p| self.stack[p].current)
            .map(|last| last.to());
        let mut searched = 0;
        let mut picked = 0;
        let recent = [None, None];
        while let Some(Picked { mv, .. }) = picker.pick(&self.pos, &self.heuristics, &recent) {
            picked += 1;
            if !in_check {
                if max_moves > 0
                    && picked > max_moves
                    && Some(mv.to()) != recapture_square
                    && !self.pos.gives_check(mv)
                {
                    continue;
                }
                let victim = self.pos.victim_value(mv);
                if stand_pat + victim + self.pos.promotion_gain(mv) + delta <= alpha {
                    continue;
                }
                if self.pos.mover_value(mv) > victim && self.pos.see(mv) < 0 {
                    continue;
                }
            } else if searched > 0 && mv.is_drop() && best.value > -MATE_BOUND {
                // Interposing drops after a real defence was found: rarely better.
                continue;
            }
            searched += 1;
            self.stack[ply].current = Some(mv);
            self.make(mv, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.pos.unplay();
            if self.stopped {
                return 0;
            }
            if best.raises_alpha(mv, v, alpha) {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        if in_check && searched == 0 {
            // No evasion: mated.
            return -MATE + ply as i32;
        }
        // (Above `original_alpha` a move raised alpha, so `best.mv` is set: exact.)
        let evaluation = (!in_check).then_some(stand_pat);
        self.store_result(key, ply, 0, best, (original_alpha, beta), evaluation);
        best.value
    }
}
