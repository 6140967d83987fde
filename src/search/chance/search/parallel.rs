//! Root splitting of the chance search over a rayon pool (the optional parallel mode).
//!
//! At a chance root every outcome is an independent full-window search, so the outcomes are
//! simply shared out. At a decision root the first action (the table's move) is searched by
//! the calling searcher; the other actions are then shared out, each scouted with a null
//! window at the best value so far (a shared α) and re-searched with `(α, U+1)` when it beats
//! it. Each task runs on a helper searcher with its own history and scratch stacks; all share
//! the table, the stop flag, the deadline and a node count.

use super::{
    static_value, ChanceGame, ChanceSearcher, Color, Move, MoveList, NodeKind, OutcomeLine, Weight,
    LOSS, PV_PLIES, WIN,
};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

/// The helpers of one parallel step: lent to tasks one at a time.
struct HelperPool<'a> {
    idle: Mutex<Vec<ChanceSearcher>>,
    /// Makes another helper if every one is busy (a pool thread running two tasks).
    template: &'a ChanceSearcher,
}

impl HelperPool<'_> {
    fn take(&self) -> ChanceSearcher {
        let helper = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        helper.unwrap_or_else(|| self.template.new_helper())
    }

    fn give_back(&self, helper: ChanceSearcher) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(helper);
    }
}

/// What one shared-out root action found.
struct RootActionResult {
    action: Move,
    index: usize,
    value: i32,
    /// Whether `value` is exact (it beat α and was re-searched with a full upper window).
    exact: bool,
    line: Vec<Move>,
}

impl ChanceSearcher {
    /// A helper for this search: same settings, table, limits and node count.
    fn new_helper(&self) -> ChanceSearcher {
        let mut helper = ChanceSearcher::sharing(self.settings, self.table.clone());
        helper.stop = self.stop.clone();
        helper.deadline = self.deadline;
        helper.node_limit = self.node_limit;
        helper.shared_nodes = self.shared_nodes.clone();
        helper.evals = self.evals.clone();
        helper
    }

    /// Runs `task` on the pool with the helpers, then takes them (and any made on the way)
    /// back; marks the search aborted if any task stopped.
    fn with_helpers<R: Send>(
        &mut self,
        pool: &rayon::ThreadPool,
        task: impl FnOnce(&HelperPool) -> Vec<Option<R>> + Send,
    ) -> Option<Vec<R>> {
        let idle = Mutex::new(std::mem::take(&mut self.helpers));
        let results = {
            let helpers = HelperPool {
                idle,
                template: &*self,
            };
            let results = pool.install(|| task(&helpers));
            self.helpers = helpers.idle.into_inner().unwrap_or_else(|e| e.into_inner());
            results
        };
        if results.iter().any(Option::is_none) {
            self.aborted = true;
            return None;
        }
        Some(results.into_iter().flatten().collect())
    }

    /// The outcomes of a chance root, each searched with a full window on the threads of
    /// `pool` (`None` if the search stopped).
    pub(super) fn outcomes_in_parallel<G: ChanceGame>(
        &mut self,
        pool: &rayon::ThreadPool,
        game: &G,
        outcomes: &[(Move, Weight)],
        depth: i32,
        pov: Color,
    ) -> Option<Vec<OutcomeLine>> {
        self.with_helpers(pool, |helpers| {
            outcomes
                .par_iter()
                .filter(|(_, weight)| weight.0 > 0)
                .map(|&(outcome, weight)| {
                    let mut helper = helpers.take();
                    let mut game = game.clone();
                    let line = helper.root_outcome(&mut game, outcome, weight, depth, pov);
                    helpers.give_back(helper);
                    line
                })
                .collect()
        })
    }

    /// The root decision node searched with its actions after the first shared out over
    /// `pool`; the value is from `pov`'s point of view and exact.
    pub(super) fn root_decision_parallel<G: ChanceGame>(
        &mut self,
        pool: &rayon::ThreadPool,
        game: &mut G,
        depth: i32,
        pov: Color,
    ) -> i32 {
        self.pv_len[0] = 0;
        let NodeKind::Decision(mover) = game.node_kind() else {
            return self.node(game, depth, LOSS - 1, WIN + 1, pov, 0, None);
        };
        if self.enter_node() {
            return 0;
        }
        let from_mover = |value: i32| if mover == pov { value } else { -value };
        let key = self.table_key(game.hash(), 0);
        let table_index = self.probe(key).and_then(|entry| entry.best_index);
        let mut legal = MoveList::new();
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            return static_value(game, pov, &self.evals).0;
        }
        let mut ordered: Vec<(Move, usize, i32)> = legal
            .iter()
            .enumerate()
            .map(|(index, &action)| {
                let score = self.action_score(game, mover, action, Some(index) == table_index);
                (action, index, score)
            })
            .collect();
        ordered.sort_by_key(|&(_, _, score)| Reverse(score));

        // The first action, by this searcher, with a full window.
        let (first, first_index, _) = ordered[0];
        let child_depth = depth - game.depth_cost(first).0 as i32;
        game.play(first);
        let (first_value, first_line) = self.below_root_with_line(game, child_depth, mover);
        game.unplay();
        if self.aborted {
            return 0;
        }

        let alpha = AtomicI32::new(first_value);
        let root: &G = game;
        let rest = &ordered[1..];
        let Some(results) = self.with_helpers(pool, |helpers| {
            rest.par_iter()
                .map(|&(action, index, _)| {
                    let mut helper = helpers.take();
                    let mut game = root.clone();
                    let child_depth = depth - game.depth_cost(action).0 as i32;
                    game.play(action);
                    let floor = alpha.load(Ordering::Relaxed);
                    let scout =
                        helper.node(&mut game, child_depth, floor, floor + 1, mover, 1, None);
                    let value = if scout > floor && !helper.aborted {
                        helper.node(&mut game, child_depth, floor, WIN + 1, mover, 1, None)
                    } else {
                        scout
                    };
                    let exact = value > floor && !helper.aborted;
                    let line = if exact {
                        alpha.fetch_max(value, Ordering::Relaxed);
                        helper.principal_line(&mut game, 1)
                    } else {
                        Vec::new()
                    };
                    let aborted = helper.aborted;
                    helpers.give_back(helper);
                    (!aborted).then_some(RootActionResult {
                        action,
                        index,
                        value,
                        exact,
                        line,
                    })
                })
                .collect()
        }) else {
            return 0;
        };

        let mut best = RootActionResult {
            action: first,
            index: first_index,
            value: first_value,
            exact: true,
            line: first_line,
        };
        for result in results {
            if result.exact && result.value > best.value {
                best = result;
            }
        }
        self.store(
            key,
            depth,
            (best.value, best.value),
            mover,
            mover,
            0,
            Some(best.index),
            false,
        );
        let length = best.line.len().min(PV_PLIES - 1);
        for (slot, &action) in self.pv_moves[PV_PLIES..PV_PLIES + length]
            .iter_mut()
            .zip(&best.line)
        {
            *slot = Some(action);
        }
        self.pv_len[1] = length;
        self.update_pv(0, best.action);
        from_mover(best.value)
    }
}
