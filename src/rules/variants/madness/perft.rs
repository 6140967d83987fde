//! Perft over decisions with scripted chance outcomes (`shishi perft --variant madness
//! --chance ...`).
//!
//! Depth counts decisions only; chance nodes are passed through. The script holds two
//! queues, read in order along each path from the root: die rolls (`r:N`) and card draws
//! (`draw:N`, used by every draw and every reveal of a hidden card). At a chance node the
//! next outcome of its queue is played; if that outcome is impossible there (no such card
//! left) the path counts 0 leaves; once a queue is used up, every outcome of the node is
//! expanded (each counted as a separate path). A decision node with no actions is a leaf
//! only at depth 0, so finished games count 0 below it.

use super::token::Token;
use crate::rules::game::{Game, NodeKind};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::NotationError;

/// The scripted chance outcomes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChanceScript {
    pub rolls: Vec<Move>,
    pub draws: Vec<Move>,
}

impl ChanceScript {
    /// Reads `r:3,draw:7,r:10` (commas or spaces; empty text = no script).
    pub fn parse(text: &str) -> Result<ChanceScript, NotationError> {
        let mut script = ChanceScript::default();
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            match Token::parse(item)? {
                Some(t @ Token::Die(_)) => script.rolls.push(t.to_move()),
                Some(t @ Token::Draw(_)) => script.draws.push(t.to_move()),
                _ => {
                    return Err(NotationError::Move(format!(
                        "{item:?} is no chance outcome (use r:N or draw:N)"
                    )))
                }
            }
        }
        Ok(script)
    }
}

/// Where each queue of the script stands on the current path.
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    rolls: usize,
    draws: usize,
}

/// Leaves `depth` decisions below `game`, chance outcomes taken from `script`.
pub fn perft_decisions<G: Game>(game: &mut G, depth: u32, script: &ChanceScript) -> u64 {
    count(game, depth, script, Cursor::default())
}

/// Perft split by the first decision or scripted outcome: one `(action, leaves)` pair per
/// child of the root.
pub fn divide_decisions<G: Game>(
    game: &mut G,
    depth: u32,
    script: &ChanceScript,
) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for (action, cursor, decision) in children(game, script, Cursor::default()) {
        game.play(action);
        let below = if decision {
            depth.saturating_sub(1)
        } else {
            depth
        };
        out.push((action, count(game, below, script, cursor)));
        game.unplay();
    }
    out
}

/// The children to visit: `(action, cursor after it, is a decision)`.
fn children<G: Game>(game: &G, script: &ChanceScript, cursor: Cursor) -> Vec<(Move, Cursor, bool)> {
    match game.node_kind() {
        NodeKind::Decision(_) => {
            let mut moves = MoveList::new();
            game.legal_actions(&mut moves);
            moves.into_iter().map(|m| (m, cursor, true)).collect()
        }
        NodeKind::Chance(outcomes) => {
            let is_roll = outcomes
                .first()
                .is_some_and(|(m, _)| matches!(Token::from_move(*m), Some(Token::Die(_))));
            let (queue, at) = if is_roll {
                (&script.rolls, cursor.rolls)
            } else {
                (&script.draws, cursor.draws)
            };
            let mut next = cursor;
            if is_roll {
                next.rolls += 1;
            } else {
                next.draws += 1;
            }
            match queue.get(at) {
                Some(wanted) => outcomes
                    .iter()
                    .filter(|(m, _)| m == wanted)
                    .map(|(m, _)| (*m, next, false))
                    .collect(),
                None => outcomes.iter().map(|(m, _)| (*m, cursor, false)).collect(),
            }
        }
    }
}

fn count<G: Game>(game: &mut G, depth: u32, script: &ChanceScript, cursor: Cursor) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 && matches!(game.node_kind(), NodeKind::Decision(_)) {
        return game.count_legal_actions();
    }
    let mut total = 0;
    for (action, next, decision) in children(game, script, cursor) {
        game.play(action);
        total += count(game, depth - decision as u32, script, next);
        game.unplay();
    }
    total
}
