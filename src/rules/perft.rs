//! Perft: counting the leaves of the legal-move tree, the standard proof that a move
//! generator is exact. Generic over [`Game`]; the last ply is counted from the move list
//! without playing the moves ("bulk counting").
//!
//! Games with chance nodes are counted over decisions for given outcomes
//! ([`perft_given_outcomes`]): along every path, the i-th chance node met takes the i-th
//! given outcome, and chance nodes are not plies.

use crate::rules::game::Game;
use crate::rules::moves::{Move, MoveList};

/// The number of leaf nodes `depth` plies below `game`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return game.count_legal_actions(),
        _ => {}
    }
    let mut moves = MoveList::new();
    game.legal_actions(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        game.play(mv);
        total += perft(game, depth - 1);
        game.unplay();
    }
    total
}

/// Perft split by the first move: one `(move, leaves)` pair per legal move.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    game.legal_actions(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.play(mv);
            let n = perft(game, depth.saturating_sub(1));
            game.unplay();
            (mv, n)
        })
        .collect()
}

/// A path met more chance nodes than outcomes were given before reaching the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomesExhausted {
    /// How many outcomes were given.
    pub given: usize,
}

impl std::fmt::Display for OutcomesExhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a chance node was reached after all {} given outcomes were used",
            self.given
        )
    }
}

/// The number of decision leaves `depth` decisions below `game`; the i-th chance node on a
/// path takes `outcomes[i]` (which must be one of that node's outcomes).
pub fn perft_given_outcomes<G: Game>(
    game: &mut G,
    outcomes: &[Move],
    depth: u32,
) -> Result<u64, OutcomesExhausted> {
    given_outcomes_walk(game, outcomes, 0, depth)
}

fn given_outcomes_walk<G: Game>(
    game: &mut G,
    outcomes: &[Move],
    used: usize,
    depth: u32,
) -> Result<u64, OutcomesExhausted> {
    if depth == 0 {
        return Ok(1);
    }
    if game.is_chance() {
        let outcome = *outcomes.get(used).ok_or(OutcomesExhausted {
            given: outcomes.len(),
        })?;
        game.play(outcome);
        let n = given_outcomes_walk(game, outcomes, used + 1, depth);
        game.unplay();
        return n;
    }
    if depth == 1 {
        return Ok(game.count_legal_actions());
    }
    let mut moves = MoveList::new();
    game.legal_actions(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        game.play(mv);
        let n = given_outcomes_walk(game, outcomes, used, depth - 1);
        game.unplay();
        total += n?;
    }
    Ok(total)
}

/// [`perft_given_outcomes`] split by the first decision. Chance nodes before it take their
/// outcomes first; the returned count of outcomes used says how many (the caller prints the
/// decisions of the position after them).
pub fn divide_given_outcomes<G: Game>(
    game: &mut G,
    outcomes: &[Move],
    depth: u32,
) -> Result<(usize, Vec<(Move, u64)>), OutcomesExhausted> {
    let mut used = 0;
    while depth > 0 && game.is_chance() {
        let Some(outcome) = outcomes.get(used) else {
            (0..used).for_each(|_| game.unplay());
            return Err(OutcomesExhausted {
                given: outcomes.len(),
            });
        };
        game.play(*outcome);
        used += 1;
    }
    let mut moves = MoveList::new();
    game.legal_actions(&mut moves);
    let mut rows = Vec::new();
    let mut result = Ok(());
    for &mv in moves.iter() {
        game.play(mv);
        let n = given_outcomes_walk(game, outcomes, used, depth.saturating_sub(1));
        game.unplay();
        match n {
            Ok(n) => rows.push((mv, n)),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    (0..used).for_each(|_| game.unplay());
    result.map(|()| (used, rows))
}
