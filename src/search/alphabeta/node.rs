//! The alpha-beta search of an inner node: principal-variation search with mate-distance
//! pruning, table cutoffs, reverse futility and null-move pruning, ProbCut, move-count,
//! futility and SEE pruning, check extensions, late-move reductions, and the killer,
//! counter-move and history updates on a cutoff; internal iterative reduction, the
//! table-corrected evaluation, drop mates in one, threats, history pruning, SEE pruning of
//! quiet moves, late-move reductions of captures and promotions, the capture history and
//! singular extensions (with multi-cut) and the table's PV mark where `search::params`
//! switches them on. At depth 0 it hands over to quiescence. Also the best value and move so
//! far, kept the same way by every node and by quiescence.

use super::score::{from_tt, INFINITE, MATE, MATE_BOUND};
use super::table::table_cutoff;
use super::{Worker, MAX_PLY};
use crate::rules::moves::Move;
use crate::search::game::SearchGame;
use crate::search::params::SearchParams;
use crate::search::picker::{Picked, Picker, Stage};
use crate::search::tt::{TtBound, TtHit};
use arrayvec::ArrayVec;
use std::ops::ControlFlow;

/// A node's best value and move so far (fail-soft: the value may stay below alpha, and then
/// no move is best).
#[derive(Clone, Copy)]
pub(super) struct BestSoFar {
    pub(super) value: i32,
    pub(super) mv: Option<Move>,
}

impl BestSoFar {
    /// Nothing searched yet; `value` is the floor (minus infinity, or the stand-pat).
    #[inline]
    pub(super) fn from(value: i32) -> BestSoFar {
        BestSoFar { value, mv: None }
    }

    /// Notes `mv`, searched to the value `v`. True when `v` raised `alpha` (then `mv` is the
    /// best move).
    #[inline]
    pub(super) fn raises_alpha(&mut self, mv: Move, v: i32, alpha: i32) -> bool {
        if v <= self.value {
            return false;
        }
        self.value = v;
        if v <= alpha {
            return false;
        }
        self.mv = Some(mv);
        true
    }
}

/// What ProbCut and the singular-extension search read of the node they serve: its table
/// entry, the depth it is searched to, its beta, its ply, and whether it is expected to fail
/// high (a cut node).
#[derive(Clone, Copy)]
struct NodeContext {
    hit: Option<TtHit>,
    /// The node's static evaluation as the evaluator gives it (`None` in check).
    evaluation: Option<i32>,
    depth: i32,
    beta: i32,
    ply: usize,
    cut: bool,
}

/// The static evaluation `static_eval` corrected by the table entry `hit`: its score where
/// the bound says the true value is beyond the evaluation (above it for a lower bound, below
/// it for an upper bound), except mate scores.
#[inline]
fn corrected_eval(static_eval: i32, hit: &TtHit, ply: usize) -> i32 {
    let s = from_tt(hit.score, ply);
    let beyond = match hit.bound {
        TtBound::Exact => true,
        TtBound::Lower => s > static_eval,
        TtBound::Upper => s < static_eval,
    };
    if beyond && s.abs() < MATE_BOUND {
        s
    } else {
        static_eval
    }
}

impl<G: SearchGame> Worker<'_, G> {
    /// The alpha-beta search of the node at `ply` (not the root).
    pub(super) fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if depth <= 0 {
            if self.shared.drop_mates && ply < MAX_PLY - 4 && self.pos.quiet_mate_in_one() {
                self.nodes += 1;
                self.unflushed += 1;
                self.pv[ply].clear();
                return MATE - ply as i32 - 1;
            }
            return self.qsearch(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        // The shared state outlives this borrow of `self`: its parameters stay readable
        // while `self` is searched mutably.
        let shared = self.shared;
        let params = &shared.params;
        let in_check = match self.enter(ply) {
            ControlFlow::Continue(in_check) => in_check,
            ControlFlow::Break(score) => return score,
        };
        if let Some(v) = self.repetition(ply) {
            return v;
        }
        if ply >= MAX_PLY - 4 {
            return self.static_eval(ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let max_moves = self.shared.max_moves_to_draw;
        if max_moves > 0 && self.pos.move_number() > max_moves {
            // The game is drawn here, unless this is mate.
            return if in_check && !self.pos.has_legal_move() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        // A singular-extension search of this node leaves out one move: the table's entry
        // is not its result, and nothing it finds is stored.
        let excluded = self.stack[ply].excluded;
        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        let tt_pv = SearchParams::on(params.tt_pv) && (pv_node || hit.is_some_and(|h| h.pv));
        self.stack[ply].tt_pv = tt_pv;
        if let Some(score) = hit
            .filter(|h| !pv_node && excluded.is_none() && h.depth >= depth)
            .and_then(|h| table_cutoff(&h, ply, alpha, beta))
        {
            return score;
        }
        // A drop mate in one, looked for where the table knows nothing of the node (in
        // shogi the commonest mate, and cheap to find).
        if !in_check
            && excluded.is_none()
            && hit.is_none()
            && shared.drop_mates
            && SearchParams::on(params.inner_drop_mates)
            && self.pos.quiet_mate_in_one()
        {
            return MATE - ply as i32 - 1;
        }
        let correcting = SearchParams::on(params.correction_history);
        // The move that led here keys the correction history; read only when it is on.
        let previous = if correcting {
            self.played_before(ply, 1)
        } else {
            None
        };
        // The evaluator's number (stored in the table), then the one pruning judges by.
        let evaluation = (!in_check).then(|| self.static_eval_or_table(ply, hit.as_ref()));
        let static_eval = match evaluation {
            None => -INFINITE,
            Some(e) if correcting => {
                (e + self.heuristics.correction(previous)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
            }
            Some(e) => e,
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        // The pruning below judges the position by the table's score where its bound says
        // the true value lies beyond the static evaluation.
        let eval = match hit {
            Some(h) if !in_check && SearchParams::on(params.table_eval) => {
                corrected_eval(static_eval, &h, ply)
            }
            _ => static_eval,
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility: far above beta at low depth (a smaller margin where the
            // evaluation improves).
            let improving_less = if improving {
                params.reverse_futility_improving
            } else {
                0
            };
            let spared_for_quiet_table_move =
                SearchParams::on(params.reverse_futility_noisy_table_move)
                    && tt_move.is_some_and(|m| !self.is_noisy(m));
            if depth <= params.reverse_futility_depth
                && eval - params.reverse_futility_margin * depth + improving_less >= beta
                && beta.abs() < MATE_BOUND
                && !spared_for_quiet_table_move
                && !tt_pv
            {
                return beta + (eval - beta) * params.reverse_futility_return / 100;
            }
            // Razoring: far below alpha, a quiescence search decides whether any capture
            // helps; if none does, that is the node's value.
            if params.razor_margin > 0
                && eval + params.razor_margin * depth * depth < alpha
                && alpha.abs() < MATE_BOUND
            {
                let v = self.qsearch(alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if v < alpha {
                    return v;
                }
            }
            // Null move (zugzwang is rare in shogi, where pieces in hand can always be
            // dropped, and in the big variants).
            if depth >= params.null_move_min_depth
                && eval >= beta
                && self.stack[ply - 1].current.is_some()
                && beta.abs() < MATE_BOUND
                && ply >= self.null_move_min_ply
                && (cut || !SearchParams::on(params.null_move_cut_only))
            {
                let r = params.null_move_base
                    + depth / params.null_move_depth_divisor
                    + ((eval - beta) / params.null_move_eval_divisor)
                        .min(params.null_move_eval_cap);
                self.stack[ply].current = None;
                self.stack[ply].moved = None;
                self.stack[ply + 1].plies_from_null = 0;
                self.stack[ply + 1].totals = self.stack[ply].totals;
                self.pos.play_null();
                self.shared.tt.prefetch(self.pos.hash());
                let v = -self.search(depth - r, -beta, -beta + 1, ply + 1, !cut);
                self.pos.unplay_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    let verify = params.null_move_verify_depth;
                    if verify == 0 || depth < verify || self.null_move_min_ply > 0 {
                        return v;
                    }
                    // Verified by the node's own moves, searched as deep as the null move
                    // was, with no null move near the top of that search.
                    self.null_move_min_ply = ply + (3 * (depth - r).max(0) / 4) as usize;
                    let verified = self.search(depth - r, beta - 1, beta, ply, false);
                    self.null_move_min_ply = 0;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return v;
                    }
                }
            }
        }

        let node = NodeContext {
            hit,
            evaluation,
            depth,
            beta,
            ply,
            cut,
        };
        if !pv_node && !in_check && excluded.is_none() && params.probcut_depth > 0 {
            if let Some(v) = self.probcut(node) {
                return v;
            }
        }

        // Internal iterative reduction: without a table move the ordering is poor and the
        // node probably new; search it a ply shallower (the next iteration finds the move).
        let depth = if params.iir_depth > 0
            && depth >= params.iir_depth
            && tt_move.is_none()
            && excluded.is_none()
        {
            depth - 1
        } else {
            depth
        };

        // Moves are generated only now, and by stages: the cut-offs above rarely need them.
        // (A position without legal moves is lost; not in check it is so rare that the
        // pruning above may miss it.)
        let recent = [self.played_before(ply, 1), self.played_before(ply, 2)];
        let mut picker = Picker::empty();
        picker.start(tt_move, &self.heuristics, ply, &recent);
        let mut legal_moves = 0usize;
        let checks = self.pos.checks();
        let mut best = BestSoFar::from(-INFINITE);
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<(usize, Move), 64> = ArrayVec::new();
        let mut captures: ArrayVec<(usize, Move, usize), 32> = ArrayVec::new();
        let capture_history = SearchParams::on(params.capture_history);
        let table_move_noisy =
            params.lmr_table_noisy != 0 && tt_move.is_some_and(|m| self.is_noisy(m));
        let original_alpha = alpha;
        while let Some(picked) = picker.pick(&self.pos, &self.heuristics, &recent) {
            let mv = picked.mv;
            legal_moves += 1;
            if Some(mv) == excluded {
                continue;
            }
            let capture = self.pos.is_capture(mv);
            let quiet = !mv.is_promotion() && !capture;
            let victim = if capture && capture_history {
                self.pos.victim_slot(mv)
            } else {
                0
            };
            let gives_check = self.pos.checks_gives_check(&checks, mv);
            move_count += 1;
            let moved = self.pos.moved_slot(mv);
            // A threat escapes pruning and is reduced less (looked for only among the later
            // quiet moves, which are the ones pruned and reduced).
            let threat = params.threat_reduction > 0
                && quiet
                && !gives_check
                && move_count > 2
                && self.pos.threatens(mv);
            if best.value > -MATE_BOUND && !in_check && !gives_check && !threat {
                if quiet {
                    // Move-count pruning.
                    let growth = if improving {
                        params.move_count_improving_percent
                    } else {
                        100
                    };
                    let full = params.move_count_base + depth * depth * growth / 100;
                    let limit = (full * params.move_count_percent / 100) as usize;
                    if depth <= params.move_count_depth && move_count > limit {
                        continue;
                    }
                    // Futility pruning, judged at the node's depth or at the depth the move
                    // would be searched to after its late-move reduction; history pruning
                    // at the latter (looked up only where a switch asks for it).
                    let lmr_depth = || depth - 1 - self.reduction(depth, move_count);
                    let futility_depth = if SearchParams::on(params.futility_at_reduced_depth) {
                        lmr_depth().max(0)
                    } else {
                        depth
                    };
                    if futility_depth <= params.futility_depth
                        && eval + params.futility_base + params.futility_margin * futility_depth
                            <= alpha
                    {
                        continue;
                    }
                    if params.history_pruning > 0
                        && picked.stage == Stage::Quiet
                        && picked.score < -params.history_pruning * depth
                        && lmr_depth() <= 3
                    {
                        continue;
                    }
                    // SEE pruning: a quiet move that loses material, more than the margin
                    // times the square of its reduced depth.
                    if params.quiet_see_margin > 0 {
                        let d = lmr_depth().max(0);
                        if d <= params.quiet_see_max_depth
                            && self.pos.see(mv) < -params.quiet_see_margin * d * d
                        {
                            continue;
                        }
                    }
                } else if depth <= params.see_capture_depth
                    && picked.stage == Stage::BadCapture
                    && self.pos.see(mv) < -params.see_capture_margin * depth
                {
                    continue;
                }
            }
            let mut extension = 0;
            if ply < 2 * self.root_depth as usize {
                if params.singular_depth > 0
                    && depth >= params.singular_depth
                    && Some(mv) == tt_move
                    && excluded.is_none()
                {
                    match self.singular(NodeContext { depth, ..node }) {
                        Singular::Extend => extension = 1,
                        Singular::MultiCut(v) => return v,
                        Singular::Shorten => extension = -1,
                        Singular::Plain => {}
                    }
                }
                if extension == 0
                    && gives_check
                    && depth <= params.check_extension_depth
                    && self.pos.see(mv) >= 0
                {
                    extension = 1;
                }
            }
            let new_depth = depth - 1 + extension;
            self.make_searched(mv, ply);
            let mut v;
            if move_count == 1 {
                v = -self.search(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut);
            } else {
                let mut r = 0;
                let late = depth >= params.lmr_min_depth
                    && move_count > 1 + usize::from(pv_node)
                    && !in_check;
                if late && (quiet || params.lmr_noisy_less > 0) {
                    r = self.reduction(depth, move_count);
                    if pv_node {
                        r -= params.lmr_pv_node;
                    }
                    if gives_check {
                        r -= params.lmr_gives_check;
                    }
                    if tt_pv {
                        r -= params.lmr_tt_pv;
                    }
                    if quiet {
                        if !improving {
                            r += params.lmr_not_improving;
                        }
                        if cut {
                            r += params.lmr_cut_node;
                        }
                        match picked.stage {
                            Stage::TableMove | Stage::Killer | Stage::CounterMove => {
                                r -= params.lmr_refutation
                            }
                            _ => r -= picked.score / params.lmr_history_divisor,
                        }
                        if threat {
                            r -= params.threat_reduction;
                        }
                        if table_move_noisy {
                            r += params.lmr_table_noisy;
                        }
                    } else if picked.stage != Stage::BadCapture {
                        // A capture or promotion late in the order: reduced less than a
                        // quiet move, a losing capture as much.
                        r -= params.lmr_noisy_less;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.pos.unplay();
            if self.stopped {
                return 0;
            }
            if best.raises_alpha(mv, v, alpha) {
                if pv_node {
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    let room = MAX_PLY - 1;
                    line.extend(tail[0].iter().copied().take(room));
                }
                if v >= beta {
                    let bonus =
                        (depth * depth * params.history_bonus_scale).min(params.history_bonus_max);
                    let malus = -bonus * params.history_malus_percent / 100;
                    if capture_history {
                        if capture {
                            self.heuristics.update_capture(moved, mv, victim, bonus);
                        }
                        for &(p, q, k) in &captures {
                            self.heuristics.update_capture(p, q, k, malus);
                        }
                    }
                    if quiet {
                        self.heuristics.add_killer(ply, mv);
                        self.heuristics.set_counter(recent[0], mv);
                        self.heuristics.update_quiet(moved, mv, &recent, bonus);
                        for &(p, q) in &quiets {
                            self.heuristics.update_quiet(p, q, &recent, malus);
                        }
                    }
                    break;
                }
                alpha = v;
            }
            if quiet && Some(mv) != best.mv {
                let _ = quiets.try_push((moved, mv));
            }
            if capture && capture_history && Some(mv) != best.mv {
                let _ = captures.try_push((moved, mv, victim));
            }
        }
        if legal_moves == 0 {
            return -MATE + ply as i32;
        }
        if best.value == -INFINITE {
            // Every move was pruned (cannot happen: the first move is always searched).
            best.value = alpha;
        }
        // The correction history learns where the result bounds the value on the far side of
        // the evaluation (not from captures and promotions, whose gain the evaluation cannot
        // see, nor from mates).
        if correcting
            && !in_check
            && excluded.is_none()
            && best.value.abs() < MATE_BOUND
            && best.mv.is_none_or(|m| !self.is_noisy(m))
        {
            // A lower bound at or below the evaluation, or an upper bound at or above it,
            // says nothing of the evaluation's error.
            let lower_below = best.value >= beta && best.value <= static_eval;
            let upper_above = best.value <= original_alpha && best.value >= static_eval;
            if !lower_below && !upper_above {
                self.heuristics.update_correction(
                    previous,
                    best.value - static_eval,
                    depth,
                    params.correction_max,
                );
            }
        }
        if excluded.is_none() {
            self.store_result(key, ply, depth, best, (original_alpha, beta), evaluation);
        }
        best.value
    }

    /// ProbCut at `node` (its static evaluation already in its frame): a capture that wins
    /// at least the margin above beta by exchange, and still scores that much in quiescence
    /// and at depth − 4, shows that the node fails high; the result is stored as a lower
    /// bound 3 plies shallower. `None` when no capture does (or the table already says none
    /// will); `Some(0)` when the search was stopped.
    fn probcut(&mut self, node: NodeContext) -> Option<i32> {
        let params = &self.shared.params;
        let probcut_beta = node.beta + params.probcut_margin;
        if node.depth < params.probcut_depth || node.beta.abs() >= MATE_BOUND {
            return None;
        }
        let reduction = params.probcut_reduction;
        // The depth a cut is stored at: a ply deeper than the verifying search.
        let stored_depth = node.depth - reduction + 1;
        let refuted =
            |h: &TtHit| h.depth >= stored_depth && from_tt(h.score, node.ply) < probcut_beta;
        if node.hit.filter(refuted).is_some() {
            return None;
        }
        let static_eval = self.stack[node.ply].static_eval;
        let mut picker = Picker::empty();
        picker.start_captures(&self.pos, node.hit.and_then(|h| h.mv), false);
        let recent = [None, None];
        while let Some(Picked { mv, .. }) = picker.pick(&self.pos, &self.heuristics, &recent) {
            if !self.pos.is_capture(mv) || self.pos.see(mv) < probcut_beta - static_eval {
                continue;
            }
            self.make_searched(mv, node.ply);
            let mut v = -self.qsearch(-probcut_beta, -probcut_beta + 1, node.ply + 1);
            if v >= probcut_beta {
                let d = node.depth - reduction;
                v = -self.search(d, -probcut_beta, -probcut_beta + 1, node.ply + 1, !node.cut);
            }
            self.pos.unplay();
            if self.stopped {
                return Some(0);
            }
            if v >= probcut_beta {
                let best = BestSoFar {
                    value: v,
                    mv: Some(mv),
                };
                let window = (probcut_beta - 1, probcut_beta);
                let key = self.pos.hash();
                self.store_result(key, node.ply, stored_depth, best, window, node.evaluation);
                return Some(v);
            }
        }
        None
    }

    /// Whether the table move of `node` is singular: every other move, searched to half the
    /// depth, stays below the table's score less a margin. Plain when the entry is not a
    /// usable lower bound.
    fn singular(&mut self, node: NodeContext) -> Singular {
        let table_depth = self.shared.params.singular_table_depth;
        let Some(hit) = node.hit.filter(|h| {
            h.bound != TtBound::Upper
                && h.depth >= node.depth - table_depth
                && from_tt(h.score, node.ply).abs() < MATE_BOUND
        }) else {
            return Singular::Plain;
        };
        let table_score = from_tt(hit.score, node.ply);
        let singular_beta = table_score - self.shared.params.singular_margin * node.depth;
        self.stack[node.ply].excluded = hit.mv;
        let v = self.search(
            (node.depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            node.ply,
            node.cut,
        );
        self.stack[node.ply].excluded = None;
        if v < singular_beta {
            Singular::Extend
        } else if singular_beta >= node.beta {
            Singular::MultiCut(singular_beta)
        } else if table_score >= node.beta {
            Singular::Shorten
        } else {
            Singular::Plain
        }
    }
}

/// What the singular-extension search says of the table move.
enum Singular {
    /// The table move is the only good one: extend it.
    Extend,
    /// Another move also reaches beta: the node fails high with this value.
    MultiCut(i32),
    /// Another move is as good and the table says the node fails high anyway: search the
    /// table move a ply shallower.
    Shorten,
    /// Search the table move as any other.
    Plain,
}
