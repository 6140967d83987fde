//! Chance nodes of the chance search: Star1 and Star2 over the outcomes.
//!
//! A chance node first reads what is free: terminal outcomes and (with `outcome_prepass`)
//! the table bounds of each outcome. Star2 then probes: an outcome whose decision belongs to
//! `pov` is searched on its first move only (through consecutive decisions of that player),
//! which bounds it from below, aimed at the node's fail-high threshold; an outcome whose
//! decision belongs to the other colour is probed the same way for an upper bound, aimed at
//! the fail-low threshold. Star1 finally searches every unresolved outcome with the window
//! `(max(a_i, L-1), min(b_i, U+1))`, cutting as soon as the sums prove a fail high or low.

use super::super::window::{bounds_from_result, round_div, ChanceWindow};
use super::super::{
    static_value, terminal_value, ChanceAlgorithm, ChanceGame, ProbeWindow, TableReuse,
};
use super::{ChanceSearcher, LOSS, WIN};
use crate::rules::game::{NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;

/// What follows an outcome of a chance node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Successor {
    /// Decided already (terminal, or both bounds known).
    Resolved,
    Decision(Color),
    /// Another chance node.
    Chance,
}

/// One outcome of a chance node being searched, with its bounds from `pov`'s view.
#[derive(Clone, Copy)]
pub(super) struct OutcomeSlot {
    outcome: Move,
    weight: i64,
    lo: i32,
    hi: i32,
    successor: Successor,
}

impl ChanceSearcher {
    /// A chance node searched from `pov`'s point of view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chance<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcomes: &[(Move, Weight)],
        depth: i32,
        alpha: i32,
        beta: i32,
        pov: Color,
        ply: usize,
    ) -> i32 {
        let key = self.table_key(game.hash(), ply);
        if let Some(entry) = self.probe(key) {
            if self.usable(&entry, depth) {
                let (lower, upper) = Self::entry_bounds(&entry, Color::Sente, pov, ply);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        let algorithm = self.settings.algorithm;
        let (alpha, beta) = if algorithm == ChanceAlgorithm::Expectimax {
            (LOSS - 1, WIN + 1)
        } else {
            (alpha, beta)
        };

        let base = self.slots.len();
        let mut total = 0i64;
        for &(outcome, Weight(weight)) in outcomes {
            if weight > 0 {
                total += weight as i64;
                self.slots.push(OutcomeSlot {
                    outcome,
                    weight: weight as i64,
                    lo: LOSS,
                    hi: WIN,
                    successor: Successor::Chance,
                });
            }
        }
        if total == 0 {
            return static_value(game, pov, &self.evals).0;
        }
        // Heavier outcomes first (stable: ties keep the game's order).
        self.slots[base..].sort_by_key(|slot| std::cmp::Reverse(slot.weight));
        let end = self.slots.len();
        let mut window = ChanceWindow::new(alpha, beta, total, LOSS, WIN);

        // Phase 0: terminal outcomes and the table's bounds of each outcome.
        let prepass = self.settings.outcome_prepass && self.settings.table != TableReuse::Off;
        // Each look at an outcome counts as a node visit.
        for i in base..end {
            if self.enter_node() {
                self.slots.truncate(base);
                return 0;
            }
            let slot = self.slots[i];
            game.play(slot.outcome);
            let (mut lo, mut hi) = (slot.lo, slot.hi);
            let successor;
            if let Some(result) = game.search_outcome() {
                let value = terminal_value(result, pov, ply + 1).0;
                (lo, hi, successor) = (value, value, Successor::Resolved);
            } else {
                let (stored_as, kind) = match game.node_kind() {
                    NodeKind::Decision(mover) => (mover, Successor::Decision(mover)),
                    NodeKind::Chance(_) => (Color::Sente, Successor::Chance),
                };
                successor = kind;
                if prepass {
                    let child_key = self.table_key(game.hash(), ply + 1);
                    if let Some(entry) = self.table.probe(child_key) {
                        if self.usable(&entry, depth) {
                            (lo, hi) = Self::entry_bounds(&entry, stored_as, pov, ply + 1);
                            if lo > hi {
                                (lo, hi) = (LOSS, WIN);
                            }
                        }
                    }
                }
            }
            game.unplay();
            window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
            let slot = &mut self.slots[i];
            (slot.lo, slot.hi) = (lo, hi);
            slot.successor = if lo == hi {
                Successor::Resolved
            } else {
                successor
            };
        }
        if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
            return value;
        }

        // Phase 1 (Star2): probe each outcome's first action.
        if algorithm == ChanceAlgorithm::Star2 {
            for i in base..end {
                let slot = self.slots[i];
                let Successor::Decision(mover) = slot.successor else {
                    continue;
                };
                let harvest = self.settings.probe == ProbeWindow::Harvest;
                let (a, b) = if mover == pov {
                    let b = window.fail_high_threshold(slot.weight, slot.lo);
                    if harvest {
                        (slot.lo as i64 - 1, b.min(WIN as i64 + 1))
                    } else if b > slot.hi as i64 {
                        continue;
                    } else {
                        (b - 1, b)
                    }
                } else {
                    let a = window.fail_low_threshold(slot.weight, slot.hi);
                    if harvest {
                        (a.max(LOSS as i64 - 1), slot.hi as i64 + 1)
                    } else if a < slot.lo as i64 {
                        continue;
                    } else {
                        (a, a + 1)
                    }
                };
                game.play(slot.outcome);
                let value = self.node(game, depth, a as i32, b as i32, pov, ply + 1, Some(mover));
                game.unplay();
                if self.aborted {
                    self.slots.truncate(base);
                    return 0;
                }
                // The first action's value bounds the outcome from the mover's side only.
                let (lo, hi) = if mover == pov && value as i64 > a {
                    (slot.lo.max(value), slot.hi)
                } else if mover != pov && (value as i64) < b {
                    (slot.lo, slot.hi.min(value))
                } else {
                    continue;
                };
                let (lo, hi) = if lo <= hi {
                    (lo, hi)
                } else {
                    (slot.lo, slot.hi)
                };
                window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
                (self.slots[i].lo, self.slots[i].hi) = (lo, hi);
                if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
                    return value;
                }
            }
        }

        // Phase 2 (Star1, or every outcome with a full window for expectimax).
        for i in base..end {
            let slot = self.slots[i];
            if slot.lo == slot.hi {
                continue;
            }
            let (a, b) = window.child_window(slot.weight, (slot.lo, slot.hi), LOSS, WIN);
            game.play(slot.outcome);
            let value = self.node(game, depth, a, b, pov, ply + 1, None);
            game.unplay();
            if self.aborted {
                self.slots.truncate(base);
                return 0;
            }
            let (found_lo, found_hi) = bounds_from_result(value, (a, b));
            let (mut lo, mut hi) = (slot.lo.max(found_lo), slot.hi.min(found_hi));
            if lo > hi {
                // Bounds from deeper table entries disagree: trust the fresh result.
                (lo, hi) = (found_lo.max(LOSS), found_hi.min(WIN));
            }
            window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
            (self.slots[i].lo, self.slots[i].hi) = (lo, hi);
            if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
                return value;
            }
        }
        self.slots.truncate(base);
        let value = if window.sum_lo == window.sum_hi {
            window.exact()
        } else {
            // Only after inconsistent table bounds: the midpoint of what is known.
            debug_assert!(matches!(
                self.settings.table,
                TableReuse::DeepEnough | TableReuse::SameDepth
            ));
            round_div(window.sum_lo + window.sum_hi, 2 * window.total) as i32
        };
        self.store(
            key,
            depth,
            (value, value),
            pov,
            Color::Sente,
            ply,
            None,
            true,
        );
        value
    }

    /// If the sums prove a fail high or low, stores the bounds, pops the outcomes and returns
    /// the fail-soft bound.
    fn chance_cut(
        &mut self,
        window: &ChanceWindow,
        key: u64,
        depth: i32,
        pov: Color,
        ply: usize,
        base: usize,
    ) -> Option<i32> {
        let value = if window.fails_high() {
            window.lower_bound()
        } else if window.fails_low() {
            window.upper_bound()
        } else {
            return None;
        };
        self.slots.truncate(base);
        let bounds = (window.lower_bound(), window.upper_bound());
        self.store(key, depth, bounds, pov, Color::Sente, ply, None, true);
        Some(value)
    }
}
