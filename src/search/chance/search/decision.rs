//! Decision nodes of the chance search: principal-variation search (fail-soft negamax) over
//! the actions, ordered by the table's move, then (at the root) by the values an earlier
//! iteration gave them, then captures, each by history; the history rewards and the tracked
//! principal variation.

use super::{static_value, ChanceGame, ChanceSearcher, LOSS, PV_PLIES, WIN};
use crate::rules::game::NodeKind;
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};

const HISTORY_BITS: u32 = 18;
pub(super) const HISTORY_SIZE: usize = 1 << HISTORY_BITS;
const HISTORY_MAX: i32 = 1 << 26;
const CAPTURE_BONUS: i32 = 1 << 28;
/// The root's actions searched in an earlier iteration come after the table's move and before
/// every other, by the value (±`Value::WIN`) that iteration gave them.
const ROOT_VALUE_ORDER: i32 = 1 << 30;

/// One action of a decision node waiting to be tried.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    action: Move,
    /// Its index in the node's `legal_actions` list (what the table stores).
    index: u16,
    score: i32,
}

impl ChanceSearcher {
    /// A decision node of `mover` searched from `mover`'s point of view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decision<G: ChanceGame>(
        &mut self,
        game: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        mover: Color,
        ply: usize,
        probing: bool,
    ) -> i32 {
        let key = self.table_key(game.hash(), ply);
        let mut table_index = None;
        if let Some(entry) = self.probe(key) {
            table_index = entry.best_index;
            if self.usable(&entry, depth) {
                let (lower, upper) = Self::entry_bounds(&entry, mover, mover, ply);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }

        let base = self.candidates.len();
        self.scratch.clear();
        game.legal_actions(&mut self.scratch);
        if self.scratch.is_empty() {
            return static_value(game, mover, &self.evals).0;
        }
        if ply == 0 {
            self.root_values.resize(self.scratch.len(), None);
        }
        for (index, &action) in self.scratch.iter().enumerate() {
            let table_move = Some(index) == table_index;
            let root_value = if ply == 0 && !table_move {
                self.root_values[index]
            } else {
                None
            };
            let score = match root_value {
                Some(value) => ROOT_VALUE_ORDER + value,
                None => self.action_score(game, mover, action, table_move),
            };
            self.candidates.push(Candidate {
                action,
                index: index as u16,
                score,
            });
        }
        let count = self.candidates.len() - base;

        let mut best = LOSS - 1;
        let mut best_index = None;
        let mut floor = alpha;
        for tried in 0..count {
            let Candidate { action, index, .. } = self.pick(base + tried);
            let child_depth = depth - game.depth_cost(action).0 as i32;
            game.play(action);
            let next_probe = probing.then_some(mover);
            let value = if tried == 0 || probing {
                self.node(game, child_depth, floor, beta, mover, ply + 1, next_probe)
            } else {
                let scout = self.node(game, child_depth, floor, floor + 1, mover, ply + 1, None);
                if scout > floor && scout < beta {
                    self.node(game, child_depth, floor, beta, mover, ply + 1, None)
                } else {
                    scout
                }
            };
            game.unplay();
            if self.aborted {
                self.candidates.truncate(base);
                return 0;
            }
            if ply == 0 {
                self.root_values[index as usize] = Some(value);
            }
            if value > best {
                best = value;
                best_index = Some(index as usize);
                if value > floor {
                    floor = value;
                    if !probing {
                        self.update_pv(ply, action);
                    }
                    if value >= beta {
                        if !probing {
                            self.reward(mover, action, depth);
                        }
                        break;
                    }
                }
            }
            if probing {
                break;
            }
        }
        self.candidates.truncate(base);

        let bounds = if probing {
            // The first action's value bounds the node from below only.
            if best > alpha {
                (best, WIN)
            } else {
                return best;
            }
        } else if best <= alpha {
            (LOSS, best)
        } else if best >= beta {
            (best, WIN)
        } else {
            (best, best)
        };
        self.store(key, depth, bounds, mover, mover, ply, best_index, false);
        best
    }

    /// Moves the best-scored remaining candidate to `position` and returns it.
    #[inline]
    fn pick(&mut self, position: usize) -> Candidate {
        let mut best = position;
        for i in position + 1..self.candidates.len() {
            if self.candidates[i].score > self.candidates[best].score {
                best = i;
            }
        }
        self.candidates.swap(position, best);
        self.candidates[position]
    }

    fn reward(&mut self, mover: Color, action: Move, depth: i32) {
        let slot = &mut self.history[history_index(mover, action)];
        *slot += depth * depth;
        if *slot > HISTORY_MAX {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, action: Move) {
        if ply + 1 >= PV_PLIES {
            return;
        }
        let child_len = self.pv_len[ply + 1].min(PV_PLIES - 1);
        let (head, tail) = self.pv_moves.split_at_mut((ply + 1) * PV_PLIES);
        let line = &mut head[ply * PV_PLIES..];
        line[0] = Some(action);
        line[1..=child_len].copy_from_slice(&tail[..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The first action the ordering would try at a decision node (table move, capture,
    /// history), and how many actions there are.
    pub(super) fn ordered_first_action<G: ChanceGame>(
        &mut self,
        game: &G,
    ) -> (Option<Move>, usize) {
        let NodeKind::Decision(mover) = game.node_kind() else {
            return (None, 0);
        };
        let mut legal = MoveList::new();
        game.legal_actions(&mut legal);
        let table_index = self
            .probe(self.table_key(game.hash(), 0))
            .and_then(|e| e.best_index);
        let best = legal
            .iter()
            .enumerate()
            .max_by_key(|&(index, &action)| {
                self.action_score(game, mover, action, Some(index) == table_index)
            })
            .map(|(_, &action)| action);
        (best, legal.len())
    }

    /// How early an action is tried: the table's move first, then captures, each by history.
    #[inline]
    pub(super) fn action_score<G: ChanceGame>(
        &self,
        game: &G,
        mover: Color,
        action: Move,
        table_move: bool,
    ) -> i32 {
        if table_move {
            return i32::MAX;
        }
        let history = self.history[history_index(mover, action)];
        if game.is_capture(action) {
            CAPTURE_BONUS + history
        } else {
            history
        }
    }
}

/// The history slot of `action` by `mover` (action bits folded to `HISTORY_BITS`).
#[inline]
fn history_index(mover: Color, action: Move) -> usize {
    let bits = action.bits();
    mover.index() * HISTORY_SIZE + ((bits ^ (bits >> HISTORY_BITS)) as usize & (HISTORY_SIZE - 1))
}
