//! Shogammon as a [`ChanceGame`]: one depth unit per whole turn (the action that uses the
//! turn's last die, or its last `pass`, costs 1; the first action of a turn and the first
//! half of a point capture cost 0), captures by board moves onto enemy pieces tried first,
//! and the evaluation of `eval::shogammon`.

use crate::eval::nnue::shogammon::{self, InputStep};
use crate::eval::nnue::{Accumulator, Network};
use crate::eval::shogammon::{evaluate_with_net, evaluate_with_output};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogammon::Position;
use crate::search::chance::{BoardStep, ChanceGame, Depth, LeafEvaluators, Value};
use std::sync::Arc;

impl ChanceGame for Position {
    fn evaluate(&self, pov: Color, evals: &LeafEvaluators) -> Value {
        evaluate_with_net(self, pov, evals.shogammon.as_deref())
    }

    fn kept_net<'a>(&self, evals: &'a LeafEvaluators) -> Option<&'a Arc<Network>> {
        evals.shogammon.as_ref()
    }

    fn accumulate(&self, net: &Network) -> Option<Accumulator> {
        Some(net.accumulate_shogammon(self))
    }

    fn board_step(&self, action: Move, net: &Network) -> BoardStep {
        match shogammon::changes(self, action, net.features) {
            InputStep::Unchanged => BoardStep::Unchanged,
            InputStep::Rows(rows) => BoardStep::Rows(rows),
            InputStep::Recompute => BoardStep::Other,
        }
    }

    fn evaluate_with_accumulator(
        &self,
        pov: Color,
        _evals: &LeafEvaluators,
        net: &Network,
        acc: &Accumulator,
    ) -> Value {
        evaluate_with_output(self, pov, net.score(acc, self.side_to_move()))
    }

    /// A board move onto an enemy single or point (the first half of a point capture too).
    fn is_capture(&self, action: Move) -> bool {
        if action.is_pass() || action.from().is_none() || action.chance_code().is_some() {
            return false;
        }
        self.top(action.to())
            .is_some_and(|p| p.color() != self.side_to_move())
    }

    fn depth_cost(&self, _action: Move) -> Depth {
        Depth(u32::from(self.dice_left().dice().count() == 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::{Game, NodeKind};

    fn after(sfen: &str, tokens: &[&str]) -> Position {
        let mut pos = Position::from_sfen(sfen).unwrap();
        for token in tokens {
            let action = pos.parse_action(token).unwrap();
            pos.play(action);
        }
        pos
    }

    #[test]
    fn a_turn_costs_one_unit_on_its_last_action() {
        let start = crate::rules::variants::shogammon::notation::START_SFEN;
        let rolled = after(start, &["r:61"]);
        let first = rolled.parse_action("7g7f").unwrap();
        assert_eq!(rolled.depth_cost(first), Depth(0));
        let second = after(start, &["r:61", "7g7f"]);
        let last = second.parse_action("5i5h").unwrap();
        assert_eq!(second.depth_cost(last), Depth(1));
        // Both dice unusable: pass, then pass; only the second ends the turn.
        let stuck = after("4k4/9/9/9/9/9/9/9/4K4 b - 1", &["r:22"]);
        assert_eq!(stuck.depth_cost(Move::pass()), Depth(0));
        let stuck = after("4k4/9/9/9/9/9/9/9/4K4 b - 1", &["r:22", "pass"]);
        assert_eq!(stuck.depth_cost(Move::pass()), Depth(1));
        let mut ended = stuck.clone();
        ended.play(Move::pass());
        assert!(matches!(ended.node_kind(), NodeKind::Chance(_)));
    }

    #[test]
    fn captures_are_moves_onto_enemy_pieces() {
        let pos = after("4k4/9/9/9/4p4/4P4/9/9/4K4 b - 1", &["r:61"]);
        assert!(pos.is_capture(pos.parse_action("5f5e").unwrap()));
        assert!(!pos.is_capture(pos.parse_action("5i4h").unwrap()));
        let stacking = after("4k4/9/9/9/9/4P4/4K4/9/9 b - 1", &["r:61"]);
        assert!(!stacking.is_capture(stacking.parse_action("5g5f").unwrap()));
    }
}
