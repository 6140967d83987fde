//! The root of the chance search: iterative deepening under the limits, with the result of
//! each completed iteration (and the best action of an interrupted one that finished some),
//! and chance roots (every outcome searched with a full window for exact per-outcome values).

use super::super::window::round_div;
use super::super::{
    static_value, terminal_value, ChanceGame, ChanceResult, Depth, OutcomeLine, Value,
};
use super::{ChanceSearcher, Request, LOSS, MAX_PLY, WIN};
use crate::rules::game::{NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

impl ChanceSearcher {
    pub(super) fn iterate<G: ChanceGame>(
        &mut self,
        game: &mut G,
        request: Request<'_>,
        pool: Option<&rayon::ThreadPool>,
    ) -> ChanceResult {
        let Request {
            pov,
            limits,
            stop,
            report,
        } = request;
        let start = Instant::now();
        self.table.new_search();
        self.begin(start, limits, stop);
        let parallel = pool.is_some() && !self.helpers.is_empty();
        self.shared_nodes = parallel.then(|| Arc::new(AtomicU64::new(0)));
        let mut helpers = std::mem::take(&mut self.helpers);
        for helper in &mut helpers {
            helper.begin(start, limits, stop);
            helper.shared_nodes = self.shared_nodes.clone();
        }
        self.helpers = helpers;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.0.clamp(1, MAX_PLY as u32 - 1));

        let mut result = ChanceResult {
            pov,
            value: if game.search_outcome().is_some() {
                game.search_outcome()
                    .map_or(Value::DRAW, |o| terminal_value(o, pov, 0))
            } else {
                static_value(game, pov, &self.evals)
            },
            depth: Depth(0),
            best: Vec::new(),
            pv: Vec::new(),
            outcomes: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
            interrupted: false,
            partial: false,
        };
        let chance_root = matches!(game.node_kind(), NodeKind::Chance(_));
        if game.search_outcome().is_none() {
            if !chance_root {
                // Something to play even if the first iteration is cut short.
                let (best, _) = self.ordered_first_action(game);
                result.best.extend(best);
                result.pv.extend(best);
            }
            for depth in 1..=max_depth {
                if self.stopped_by_flag() {
                    result.interrupted = true;
                    break;
                }
                let outcomes = match game.node_kind() {
                    NodeKind::Chance(outcomes) => Some(outcomes),
                    NodeKind::Decision(_) => None,
                };
                let depth_units = depth as i32;
                let (value, lines) = match (outcomes, pool.filter(|_| parallel)) {
                    (Some(outcomes), pool) => {
                        self.root_chance(game, &outcomes, depth_units, pov, pool)
                    }
                    (None, None) => (
                        self.node(game, depth_units, LOSS - 1, WIN + 1, pov, 0, None),
                        Vec::new(),
                    ),
                    (None, Some(pool)) => (
                        self.root_decision_parallel(pool, game, depth_units, pov),
                        Vec::new(),
                    ),
                };
                if self.aborted {
                    result.interrupted = true;
                    if !chance_root {
                        self.take_partial_iteration(game, &mut result);
                    }
                    break;
                }
                result.value = Value(value);
                result.depth = Depth(depth);
                result.outcomes = lines;
                if !chance_root {
                    self.take_root_line(game, &mut result);
                }
                result.nodes = self.total_nodes();
                result.elapsed = start.elapsed();
                report(&result);
                if self.should_stop_iterating() {
                    break;
                }
            }
        }
        result.nodes = self.total_nodes();
        result.elapsed = start.elapsed();
        self.stop = None;
        self.shared_nodes = None;
        for helper in &mut self.helpers {
            helper.stop = None;
            helper.shared_nodes = None;
        }
        result
    }

    /// After an iteration at a decision root was cut short: if one or more root actions were
    /// searched to the end in it (the first is the last iteration's choice, each later one
    /// kept only where it beat the best before it, with a full window), the best of them
    /// replaces the last completed iteration's choice: it is the better one by the deeper
    /// search among the actions that search compared. `result.value` and `result.depth` stay
    /// those of the last completed iteration. The sequential search only: the root split
    /// (`root_decision_parallel`) records no line before it completes.
    fn take_partial_iteration<G: ChanceGame>(&mut self, game: &mut G, result: &mut ChanceResult) {
        if self.pv_len[0] > 0 && self.take_root_line(game, result) {
            result.partial = true;
        }
    }

    /// The root's principal line and the turn it begins into `result`, if the PV or the table
    /// names one (else the earlier choice is kept); whether it did.
    fn take_root_line<G: ChanceGame>(&mut self, game: &mut G, result: &mut ChanceResult) -> bool {
        let pv = self.principal_line(game, 0);
        if pv.is_empty() {
            return false;
        }
        result.best = self.turn_prefix(game, &pv);
        result.pv = pv;
        true
    }

    /// A chance root: every outcome searched with a full window, for exact per-outcome values
    /// (shared out over `pool` if there is one).
    fn root_chance<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcomes: &[(Move, Weight)],
        depth: i32,
        pov: Color,
        pool: Option<&rayon::ThreadPool>,
    ) -> (i32, Vec<OutcomeLine>) {
        if self.enter_node() {
            return (0, Vec::new());
        }
        let lines = match pool {
            Some(pool) => self.outcomes_in_parallel(pool, game, outcomes, depth, pov),
            None => outcomes
                .iter()
                .filter(|(_, w)| w.0 > 0)
                .map(|&(outcome, weight)| self.root_outcome(game, outcome, weight, depth, pov))
                .collect(),
        };
        match lines {
            Some(lines) => (self.combine_root_outcomes(game, &lines, depth, pov), lines),
            None => (0, Vec::new()),
        }
    }

    /// One outcome of a chance root searched with a full window (`None` if the search
    /// stopped).
    pub(super) fn root_outcome<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcome: Move,
        weight: Weight,
        depth: i32,
        pov: Color,
    ) -> Option<OutcomeLine> {
        game.play(outcome);
        let (value, pv) = self.below_root_with_line(game, depth, pov);
        game.unplay();
        (!self.aborted).then_some(OutcomeLine {
            outcome,
            weight,
            value: Value(value),
            pv,
        })
    }

    /// The node one ply below the root (the current state of `game`) searched with a full
    /// window: its value from `pov`'s view and its principal line (empty if the search
    /// stopped).
    pub(super) fn below_root_with_line<G: ChanceGame>(
        &mut self,
        game: &mut G,
        depth: i32,
        pov: Color,
    ) -> (i32, Vec<Move>) {
        let value = self.node(game, depth, LOSS - 1, WIN + 1, pov, 1, None);
        let line = if self.aborted {
            Vec::new()
        } else {
            self.principal_line(game, 1)
        };
        (value, line)
    }

    /// The value of a chance root from its outcomes' exact values (stored in the table).
    pub(super) fn combine_root_outcomes<G: ChanceGame>(
        &mut self,
        game: &G,
        lines: &[OutcomeLine],
        depth: i32,
        pov: Color,
    ) -> i32 {
        let total: i64 = lines.iter().map(|l| l.weight.0 as i64).sum();
        if total == 0 {
            return static_value(game, pov, &self.evals).0;
        }
        let sum: i64 = lines
            .iter()
            .map(|l| l.weight.0 as i64 * l.value.0 as i64)
            .sum();
        let value = round_div(sum, total) as i32;
        let key = self.table_key(game.hash(), 0);
        self.store(key, depth, (value, value), pov, Color::Sente, 0, None, true);
        value
    }
}
