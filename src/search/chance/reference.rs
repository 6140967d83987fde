//! Plain expectimax: the value of a chance-game tree with no pruning, no table and no
//! ordering. It is the definition the pruning searches must reproduce exactly, and the
//! baseline for node counts.
//!
//! It is written as max/min from a fixed colour (unlike the negamax of `search`): decisions
//! of `pov` take the maximum, the other colour's the minimum, and a chance node the weighted
//! average of its outcomes rounded to the nearest integer (halves away from zero), as in
//! `window`.

use super::window::round_div;
use super::{static_value, terminal_value, ChanceGame, Depth, LeafEvaluators, Value};
use crate::rules::game::NodeKind;
use crate::rules::geometry::Color;
use crate::rules::moves::MoveList;

/// The expectimax value of `game` searched `depth` units deep, from `pov`'s point of view,
/// and the number of nodes visited, with the hand-written evaluations.
pub fn expectimax<G: ChanceGame>(game: &mut G, depth: Depth, pov: Color) -> (Value, u64) {
    expectimax_at_ply(game, depth, pov, 0, LeafEvaluators::standard())
}

/// [`expectimax`] of a node `ply` actions below the root (terminal scores count from the
/// root), leaves valued with the evaluations `evals` (see [`ChanceGame::evaluate`]).
pub fn expectimax_at_ply<G: ChanceGame>(
    game: &mut G,
    depth: Depth,
    pov: Color,
    ply: usize,
    evals: &LeafEvaluators,
) -> (Value, u64) {
    let mut nodes = 0;
    let value = node_value(game, depth.0 as i64, ply, pov, evals, &mut nodes);
    (value, nodes)
}

fn node_value<G: ChanceGame>(
    game: &mut G,
    depth: i64,
    ply: usize,
    pov: Color,
    evals: &LeafEvaluators,
    nodes: &mut u64,
) -> Value {
    *nodes += 1;
    if let Some(outcome) = game.search_outcome() {
        return terminal_value(outcome, pov, ply);
    }
    if depth <= 0 || ply >= Value::MAX_PLY as usize {
        return static_value(game, pov, evals);
    }
    match game.node_kind() {
        NodeKind::Decision(mover) => {
            let mut actions = MoveList::new();
            game.legal_actions(&mut actions);
            let mut best: Option<Value> = None;
            for &action in &actions {
                let cost = game.depth_cost(action).0 as i64;
                game.play(action);
                let value = node_value(game, depth - cost, ply + 1, pov, evals, nodes);
                game.unplay();
                best = Some(match best {
                    None => value,
                    Some(b) if mover == pov => b.max(value),
                    Some(b) => b.min(value),
                });
            }
            best.unwrap_or_else(|| static_value(game, pov, evals))
        }
        NodeKind::Chance(outcomes) => {
            let total: i64 = outcomes.iter().map(|(_, w)| w.0 as i64).sum();
            if total == 0 {
                return static_value(game, pov, evals);
            }
            let mut sum = 0i64;
            for &(outcome, weight) in &outcomes {
                game.play(outcome);
                sum +=
                    weight.0 as i64 * node_value(game, depth, ply + 1, pov, evals, nodes).0 as i64;
                game.unplay();
            }
            Value(round_div(sum, total) as i32)
        }
    }
}
