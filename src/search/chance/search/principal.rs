//! The lines the chance search reports: the principal line from a node up to the first chance
//! node (the tracked PV, extended by table moves), and the part of it that is one turn.

use super::super::{ChanceGame, TableReuse};
use super::{ChanceSearcher, PV_PLIES};
use crate::rules::game::NodeKind;
use crate::rules::moves::{Move, MoveList};

impl ChanceSearcher {
    /// The principal line from the node at `ply` (the current state of `game`) up to the
    /// first chance node: the tracked PV, extended by table moves where a table hit cut it.
    pub(super) fn principal_line<G: ChanceGame>(&mut self, game: &mut G, ply: usize) -> Vec<Move> {
        let mut line: Vec<Move> = self.pv_moves[ply * PV_PLIES..]
            .iter()
            .take(self.pv_len[ply].min(PV_PLIES))
            .map_while(|m| *m)
            .collect();
        let mut played = 0;
        let mut legal = MoveList::new();
        // Replay the tracked part, checking legality.
        let mut valid = 0;
        for &action in &line {
            if game.search_outcome().is_some() || !matches!(game.node_kind(), NodeKind::Decision(_))
            {
                break;
            }
            legal.clear();
            game.legal_actions(&mut legal);
            if !legal.contains(&action) {
                break;
            }
            game.play(action);
            played += 1;
            valid += 1;
        }
        line.truncate(valid);
        // Extend by table moves.
        while line.len() < PV_PLIES && self.settings.table != TableReuse::Off {
            if game.search_outcome().is_some() || !matches!(game.node_kind(), NodeKind::Decision(_))
            {
                break;
            }
            let Some(index) = self
                .table
                .probe(self.table_key(game.hash(), ply + played))
                .and_then(|e| e.best_index)
            else {
                break;
            };
            legal.clear();
            game.legal_actions(&mut legal);
            let Some(&action) = legal.get(index) else {
                break;
            };
            game.play(action);
            played += 1;
            line.push(action);
        }
        for _ in 0..played {
            game.unplay();
        }
        line
    }

    /// The leading actions of `line` made by the mover of the current node, before any
    /// chance node or decision of the other colour.
    pub(super) fn turn_prefix<G: ChanceGame>(&self, game: &mut G, line: &[Move]) -> Vec<Move> {
        let NodeKind::Decision(mover) = game.node_kind() else {
            return Vec::new();
        };
        let mut turn = Vec::new();
        for &action in line {
            if game.search_outcome().is_some() || game.node_kind() != NodeKind::Decision(mover) {
                break;
            }
            game.play(action);
            turn.push(action);
        }
        for _ in 0..turn.len() {
            game.unplay();
        }
        turn
    }
}
