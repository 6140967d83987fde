//! Perft: counting the leaves of the legal-move tree, the standard proof that a move
//! generator is exact. Generic over [`Game`]; the last ply is counted from the move list
//! without playing the moves ("bulk counting").

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
