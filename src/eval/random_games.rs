//! Test support for the engine layers (evaluation and search): seeded random games over any
//! [`Game`] (the rules layer's, `rules::game::random_games`), visiting every position
//! reached, and the check, run over such games, that an evaluation's incremental update
//! agrees with a full recount.

use super::board12::{TableEvaluator, TablePosition};
use super::shogi::Evaluator;
use super::Totals;
use crate::rules::game::Game;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::Position as ShogiPosition;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

pub(crate) use crate::rules::game::random_games;

/// A random legal move, one satisfying `prefer` if there is one.
pub(crate) fn pick_preferring(
    legal: &MoveList,
    rng: &mut StdRng,
    prefer: impl Fn(Move) -> bool,
) -> Option<Move> {
    let preferred: Vec<Move> = legal.iter().copied().filter(|&m| prefer(m)).collect();
    preferred.choose(rng).or_else(|| legal.choose(rng)).copied()
}

/// A random legal move (a `pick` for [`check_incremental`]).
pub(crate) fn any_move<P>(_: &P, legal: &MoveList, rng: &mut StdRng) -> Option<Move> {
    legal.choose(rng).copied()
}

/// An evaluation whose totals are kept incrementally along the game.
pub(crate) trait Incremental<P> {
    /// The totals counted from scratch.
    fn recount(&self, pos: &P) -> Totals;
    /// The totals after the legal move `mv` from those before it (`None`: recount).
    fn update(&self, pos: &P, mv: Move, before: Totals) -> Option<Totals>;
}

impl Incremental<ShogiPosition> for Evaluator {
    fn recount(&self, pos: &ShogiPosition) -> Totals {
        self.totals(pos)
    }

    fn update(&self, pos: &ShogiPosition, mv: Move, before: Totals) -> Option<Totals> {
        Evaluator::update(self, pos, mv, before)
    }
}

impl<P: TablePosition> Incremental<P> for TableEvaluator {
    fn recount(&self, pos: &P) -> Totals {
        self.totals(pos)
    }

    fn update(&self, pos: &P, mv: Move, before: Totals) -> Option<Totals> {
        TableEvaluator::update(self, pos, mv, before)
    }
}

/// Over `games` random games of at most `plies` moves from `start` (seeded with `seed`,
/// moves chosen by `pick`), compares after every move that does not end the game the totals
/// `evaluator` updates from those before the move (where it updates) with a full recount,
/// and returns how many were compared.
pub(crate) fn check_incremental<P: Game + Clone>(
    evaluator: &impl Incremental<P>,
    start: &P,
    seed: u64,
    games_and_plies: (usize, usize),
    pick: impl Fn(&P, &MoveList, &mut StdRng) -> Option<Move>,
) -> usize {
    let mut compared = 0;
    random_games(start, seed, games_and_plies, |pos, legal, rng| {
        let mv = pick(pos, legal, rng)?;
        let updated = evaluator.update(pos, mv, evaluator.recount(pos));
        pos.play(mv);
        let over = pos.outcome().is_some();
        if let Some(updated) = updated.filter(|_| !over) {
            let after = pos.hash();
            assert_eq!(
                updated,
                evaluator.recount(pos),
                "seed {seed}, position {after:x}"
            );
            compared += 1;
        }
        pos.unplay();
        (!over).then_some(mv)
    });
    compared
}

/// Checks measured piece values: `pawn` is worth 100, and the first kind of each pair in
/// `ranked` more than the second.
pub(crate) fn assert_values_rank<K: Copy + std::fmt::Debug>(
    value: impl Fn(K) -> i32,
    pawn: K,
    ranked: &[(K, K)],
) {
    assert_eq!(value(pawn), 100);
    for &(more, less) in ranked {
        assert!(value(more) > value(less), "{more:?} above {less:?}");
    }
}
