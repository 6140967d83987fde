//! The root of the search: iterative deepening with aspiration windows over the root move
//! list (with MultiPV), the search of each root move, the main thread's judgement between
//! iterations that searching on is pointless, and the progress reports.

use super::score::{to_score, INFINITE, MATE, MATE_BOUND};
use super::split::{RootSplit, SPLIT_MIN_DEPTH};
use super::{legal_prefix, RootMove, Searched, Worker, MAX_PLY};
use crate::rules::moves::Move;
use crate::search::game::SearchGame;
use crate::search::params::SearchParams;
use crate::search::time;
use crate::search::{Bound, Info};
use std::time::Duration;

impl<'a, G: SearchGame> Worker<'a, G> {
    /// Searches the root moves from `pv_index` on (the earlier ones are other PV lines).
    /// With `split`, the moves after the first are shared out over its pool (root split).
    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
        split: Option<&RootSplit<'a, G>>,
    ) -> i32 {
        let mut best = -INFINITE;
        self.stack[0].in_check = self.pos.in_check();
        self.stack[0].forcing = self.forcing(self.stack[0].in_check);
        for i in pv_index..self.root_moves.len() {
            if i > pv_index {
                if let Some(split) = split.filter(|_| depth >= SPLIT_MIN_DEPTH) {
                    let v = self.split_search(split, depth, alpha, beta, pv_index, i);
                    return best.max(v);
                }
            }
            let mv = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let (v, searched) = match split.filter(|_| depth >= SPLIT_MIN_DEPTH && i == pv_index) {
                Some(split) => self.first_with_helpers(split, mv, depth, alpha, beta),
                None => self.root_move(mv, depth, alpha, beta, i - pv_index),
            };
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            rm.nodes += self.nodes - nodes_before;
            if i == pv_index || v > alpha {
                rm.score = v;
                rm.seldepth = searched.seldepth;
                rm.pv = searched.pv;
            } else {
                rm.score = -INFINITE;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }
    /// Searches one root move, the `index`-th of this PV line's moves (0: the full window).
    /// Returns the score and the move's PV and selective depth (meaningful when the score is
    /// above `alpha` or the move is the first).
    pub(super) fn root_move(
        &mut self,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        index: usize,
    ) -> (i32, Searched) {
        let in_check = self.stack[0].in_check;
        let gives_check = self.pos.gives_check(mv);
        let captures = self.pos.is_capture(mv);
        let extension = i32::from(gives_check && self.pos.see(mv) >= 0);
        let new_depth = depth - 1 + extension;
        // The root notes the piece that moves, where `make_searched` (every other node)
        // notes the piece that lands: they differ for promotions, in the counter-move and
        // continuation entries of ply 1. Noting the landed piece here too changes the
        // accepted search (with the defaults of 2026-11-27 before the move-count change,
        // bench shogi 3 464 051 to 3 469 115), so it waits for a gate.
        self.make_noting(mv, 0, self.pos.moved_slot(mv));
        self.seldepth = self.seldepth.max(1);
        let mut v;
        if index == 0 {
            v = -self.search(new_depth, -beta, -alpha, 1, false);
        } else {
            let quiet = !mv.is_promotion() && !captures;
            let shared = self.shared;
            let params = &shared.params;
            let late = index > params.root_lmr_moves as usize;
            let r = if depth >= params.lmr_min_depth && late && quiet && !in_check && !gives_check {
                (self.reduction(depth, index) - params.root_lmr_less).clamp(0, new_depth - 1)
            } else {
                0
            };
            v = -self.search(new_depth - r, -alpha - 1, -alpha, 1, true);
            if v > alpha && r > 0 {
                v = -self.search(new_depth, -alpha - 1, -alpha, 1, true);
            }
            if v > alpha && v < beta {
                v = -self.search(new_depth, -beta, -alpha, 1, false);
            }
        }
        self.pos.unplay();
        let mut pv = Vec::with_capacity(self.pv[1].len() + 1);
        pv.push(mv);
        pv.extend_from_slice(&self.pv[1]);
        (
            v,
            Searched {
                seldepth: self.seldepth,
                pv,
            },
        )
    }
    /// Iterative deepening. The main thread (`report` given) keeps time and reports; helper
    /// threads start at staggered depths and run until the abort flag rises.
    pub fn iterate(
        &mut self,
        max_depth: i32,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Info)>,
        split: Option<&RootSplit<'a, G>>,
    ) {
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        // The root split serves one PV line only; MultiPV searches on this thread alone.
        let split = split.filter(|_| multipv == 1);
        let mut reported_best = None;
        // Helpers (no timer) search on past `max_depth` until the main thread is done, so
        // that every thread stays busy; only iterations up to `max_depth` count in the vote.
        let last_depth = if self.timer.is_some() {
            max_depth
        } else {
            MAX_PLY as i32 - 8
        };
        let mut depth = 1;
        while depth <= last_depth {
            // Helpers skip every other depth (odd helpers the even ones, even helpers the
            // odd ones past depth 4), so they run ahead of the main thread and fill the
            // shared table with deeper results instead of repeating its work.
            if self.id > 0
                && depth > 2
                && (depth as usize + self.id).is_multiple_of(2)
                && depth != max_depth
            {
                depth += 1;
                continue;
            }
            self.root_depth = depth;
            let iteration_start = self.nodes;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.nodes = 0;
            }
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let previous = self.root_moves[pv_index].previous_score;
                // The first line's window spans the last two iterations' scores: the side to
                // move at the horizon alternates with the depth, and so do the scores.
                let earlier = match self.best_scores {
                    [Some(_), Some(two_back)]
                        if pv_index == 0
                            && SearchParams::on(self.shared.params.aspiration_two_iterations) =>
                    {
                        two_back
                    }
                    _ => previous,
                };
                let shared = self.shared;
                let params = &shared.params;
                let mut delta = params.aspiration_delta;
                let (mut alpha, mut beta) = if depth >= params.aspiration_min_depth
                    && previous.abs() < MATE_BOUND
                    && earlier.abs() < MATE_BOUND
                {
                    (
                        (previous.min(earlier) - delta).max(-INFINITE),
                        (previous.max(earlier) + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let v = self.root_search(depth, alpha, beta, pv_index, split);
                    self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        if let Some(report) = report.as_deref_mut() {
                            let info = self.info(depth, pv_index, v, Bound::Upper);
                            report(&info);
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        if let Some(report) = report.as_deref_mut() {
                            let info = self.info(depth, pv_index, v, Bound::Lower);
                            report(&info);
                        }
                    } else {
                        break;
                    }
                    delta += delta * params.aspiration_growth_percent / 100
                        + params.aspiration_growth_add;
                    if delta > params.aspiration_full_width {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.stopped {
                    // Lines before this one are complete; this one may not be: keep it out.
                    break;
                }
                let done = pv_index.min(self.root_moves.len() - 1);
                self.root_moves[..=done].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                if let Some(report) = report.as_deref_mut() {
                    self.flush_nodes();
                    if self.completed_depth > 0 && Some(self.root_moves[0].mv) != reported_best {
                        // A move that beat the best in the unfinished iteration will be
                        // played: say so.
                        let info = self.info(depth, 0, self.root_moves[0].score, Bound::Lower);
                        report(&info);
                    } else if let Some((completed, rm)) = &self.completed_best {
                        // The last whole iteration's line again, with the nodes and time of
                        // the whole search (a node limit or the clock stopped it mid-way).
                        report(&self.line_info(rm, *completed, 1, rm.score, Bound::Exact));
                    }
                }
                break;
            }
            let changed = self.completed_depth > 0
                && self.best_scores[0].is_some()
                && self.completed_best.as_ref().map(|(_, rm)| rm.mv) != Some(self.root_moves[0].mv);
            self.best_move_changes =
                time::best_move_changes(&self.shared.params, self.best_move_changes, changed);
            self.iteration_nodes = self.nodes - iteration_start;
            self.completed_depth = depth;
            self.best_scores = [Some(self.root_moves[0].score), self.best_scores[0]];
            if depth <= max_depth {
                self.completed_best = Some((depth, self.root_moves[0].clone()));
            }
            if let Some(report) = report.as_deref_mut() {
                self.flush_nodes();
                for k in 0..multipv {
                    let info = self.info(depth, k, self.root_moves[k].score, Bound::Exact);
                    report(&info);
                }
                reported_best = Some(self.root_moves[0].mv);
            }
            if self.timer.is_some() && self.enough(depth) {
                break;
            }
            depth += 1;
        }
    }

    /// The main thread's judgement, after an iteration, that searching on is pointless.
    fn enough(&mut self, depth: i32) -> bool {
        let control = self.shared.control;
        let best = self.root_moves[0].score;
        let Some(timer) = &mut self.timer else {
            return false;
        };
        timer.poll_ponder(control);
        if timer.untimed() {
            return false;
        }
        if best.abs() >= MATE_BOUND && depth >= MATE - best.abs() + 2 {
            return true;
        }
        let elapsed = timer.start.elapsed();
        if let Some(soft) = timer.budget.soft {
            if self.root_moves.len() == 1 {
                return true;
            }
            if Some(soft) == timer.budget.hard {
                // Byoyomi that is lost if unused: think until the hard limit stops the
                // search; the last completed iteration's move stands if it is cut short.
                return false;
            }
            let best_move_share = if self.iteration_nodes == 0 {
                0.0
            } else {
                self.root_moves[0].nodes as f64 / self.iteration_nodes as f64
            };
            let percent = time::soft_stop_percent(
                &self.shared.params,
                self.best_move_changes,
                best_move_share,
            );
            if elapsed.as_secs_f64() >= soft.as_secs_f64() * percent / 100.0 {
                return true;
            }
        }
        false
    }

    /// A progress report of PV line `k`, with the PV cut where it stops being legal.
    pub fn info(&self, depth: i32, k: usize, score: i32, bound: Bound) -> Info {
        self.line_info(&self.root_moves[k], depth, k + 1, score, bound)
    }

    /// The report of root move `rm` as line `multipv`.
    fn line_info(
        &self,
        rm: &RootMove,
        depth: i32,
        multipv: usize,
        score: i32,
        bound: Bound,
    ) -> Info {
        let elapsed = self
            .timer
            .as_ref()
            .map_or(Duration::ZERO, |t| t.start.elapsed());
        Info {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv,
            score: to_score(score),
            bound,
            nodes: self.total_nodes(),
            elapsed,
            hashfull: self.shared.tt.hashfull(),
            pv: legal_prefix(&self.pos, &rm.pv),
        }
    }
}
