//! The evaluation the 12×12 games' search uses: the hand-written tables (`board12`'s
//! [`TableEvaluator`]), corrected, when one is loaded for the game (`ChuEvalFile`,
//! `KagamigiEvalFile`), by a net of Shishi's own features (`nnue::board12`), whose output
//! is added to the tables'; and the state it carries from ply to ply ([`Board12Totals`]:
//! the tables' totals and the net's accumulator). One type per game
//! (`Board12Evaluator<P>`), so the search finds each game's evaluation by its type.

use super::board12::{TableEvaluator, TablePosition};
use super::nnue::board12::Board12Net;
use super::nnue::{Accumulator, Network, RowChanges};
use super::Totals;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use std::marker::PhantomData;
use std::sync::Arc;

/// A 12×12 game's tables, and the net that replaces them when there is one.
pub struct Board12Evaluator<P> {
    pub net: Option<Arc<Network>>,
    game: PhantomData<fn() -> P>,
}

impl<P> Clone for Board12Evaluator<P> {
    fn clone(&self) -> Self {
        Board12Evaluator {
            net: self.net.clone(),
            game: PhantomData,
        }
    }
}

impl<P: Board12Net> Board12Evaluator<P> {
    /// The game's tables with `net` (`None`: the tables alone).
    pub fn with_net(net: Option<Arc<Network>>) -> Board12Evaluator<P> {
        debug_assert!(net.as_ref().is_none_or(|n| n.features == P::FEATURES));
        Board12Evaluator {
            net,
            game: PhantomData,
        }
    }

    /// The game's tables, built the first time a search of the game needs them (measuring the
    /// pieces' values takes a tenth of a second, which a session of another game need not
    /// spend).
    #[inline]
    fn tables(&self) -> &'static TableEvaluator {
        P::evaluator()
    }

    /// Whether `self` evaluates with the very net `net` (both without counts as the same).
    pub fn has_net(&self, net: &Option<Arc<Network>>) -> bool {
        super::nnue::same_net(&self.net, net)
    }

    /// The totals of `pos` from scratch.
    pub fn totals(&self, pos: &P) -> Board12Totals {
        Board12Totals {
            tables: self.tables().totals(pos),
            net: self.net.as_deref().map(|net| net.accumulate_board12(pos)),
        }
    }

    /// What `mv` (not yet played) changes in the totals of `pos`.
    #[inline]
    pub fn change(&self, pos: &P, mv: Move, before: &Board12Totals) -> Board12Change {
        Board12Change {
            tables: self.tables().update(pos, mv, before.tables),
            net: match self.net.as_deref() {
                Some(net) if before.net.is_some() => Some(net.board12_layout().changes(pos, mv)),
                _ => None,
            },
        }
    }

    /// Writes into `after` the totals of `pos`, reached by a move with `change` from a
    /// position whose totals are `before`.
    #[inline]
    pub fn apply(
        &self,
        pos: &P,
        change: Board12Change,
        before: &Board12Totals,
        after: &mut Board12Totals,
    ) {
        after.tables = change.tables.unwrap_or_else(|| self.tables().totals(pos));
        match (change.net, &before.net, self.net.as_deref()) {
            (Some(changes), Some(acc), Some(net)) => {
                let out = after.net.get_or_insert_with(Accumulator::default);
                net.update_rows(&changes, acc, out);
            }
            (_, _, Some(net)) => after.net = Some(net.accumulate_board12(pos)),
            (_, _, None) => after.net = None,
        }
    }

    /// The score of `totals` for `side_to_move`: the tables', plus the net's correction.
    #[inline]
    pub fn score(&self, totals: &Board12Totals, side_to_move: Color) -> i32 {
        let tables = self.tables().score(totals.tables, side_to_move);
        match (&totals.net, self.net.as_deref()) {
            (Some(acc), Some(net)) => tables + net.score(acc, side_to_move),
            _ => tables,
        }
    }

    /// The static evaluation of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &P) -> i32 {
        self.score(&self.totals(pos), TablePosition::side_to_move(pos))
    }
}

/// The evaluation state of a 12×12 position: the tables' totals, and the net's accumulator
/// when there is a net.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Board12Totals {
    pub tables: Totals,
    pub net: Option<Accumulator>,
}

/// What a move changes: the tables' totals after it (`None`: recount), and the net's inputs
/// (`None`: no net).
#[derive(Clone, Debug)]
pub struct Board12Change {
    tables: Option<Totals>,
    net: Option<RowChanges>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{file, Network};
    use crate::eval::random_games::{pick_preferring, random_games};
    use crate::rules::game::Game;
    use crate::rules::variants::{chu, kagamigi};

    /// Along random games (captures preferred, so that double captures and full hands come
    /// up), the net's accumulator kept move by move equals the one computed from scratch,
    /// and so does the tables' total where they update. Returns the moves compared.
    fn incremental_equals_scratch<P: Board12Net + Game + Clone>(start: &P, seed: u64) -> usize {
        let net = Arc::new(Network::random(P::FEATURES, seed));
        let with_net = Board12Evaluator::<P>::with_net(Some(net));
        let tables = Board12Evaluator::<P>::with_net(None);
        let mut compared = 0;
        random_games(start, seed, (6, 160), |pos, legal, rng| {
            let mv = pick_preferring(legal, rng, |m| !pos.effect(m).captures.is_empty())?;
            let mut after = Board12Totals::default();
            let mut after_tables = Board12Totals::default();
            let before = with_net.totals(pos);
            let before_tables = tables.totals(pos);
            let change = with_net.change(pos, mv, &before);
            let change_tables = tables.change(pos, mv, &before_tables);
            pos.play(mv);
            with_net.apply(pos, change, &before, &mut after);
            tables.apply(pos, change_tables, &before_tables, &mut after_tables);
            let over = pos.outcome().is_some();
            assert_eq!(after, with_net.totals(pos), "seed {seed}, move {mv:?}");
            assert_eq!(after_tables, tables.totals(pos), "seed {seed}, move {mv:?}");
            compared += 1;
            pos.unplay();
            (!over).then_some(mv)
        });
        compared
    }

    #[test]
    fn chu_accumulators_follow_the_moves() {
        let compared = incremental_equals_scratch(&chu::Position::startpos(), 3);
        assert!(compared > 400, "{compared}");
    }

    #[test]
    fn kagamigi_accumulators_follow_the_moves_and_drops() {
        let compared = incremental_equals_scratch(&kagamigi::Position::startpos(), 4);
        assert!(compared > 400, "{compared}");
    }

    #[test]
    fn the_start_positions_read_the_same_inputs_from_both_sides() {
        fn mirrored<P: Board12Net>(start: &P) {
            let layout = P::FEATURES.layout().unwrap();
            let mut sente = layout.inputs_of(start, Color::Sente);
            let mut gote = layout.inputs_of(start, Color::Gote);
            sente.sort_unstable();
            gote.sort_unstable();
            assert_eq!(sente, gote);
            assert!(sente.iter().all(|&i| i < layout.board_inputs()));
            let mut distinct = sente.clone();
            distinct.dedup();
            assert_eq!(distinct.len(), sente.len(), "one input per piece");
        }
        mirrored(&chu::Position::startpos());
        mirrored(&kagamigi::Position::startpos());
    }

    #[test]
    fn a_net_is_read_for_its_own_game_only() {
        use crate::eval::nnue::features::{FeatureSet, NetGame};
        let bytes = file::write(&Network::random(FeatureSet::ChuP, 9));
        let net = file::parse_for(&bytes, NetGame::Chu).expect("a Chu net reads as one");
        assert_eq!(net.features, FeatureSet::ChuP);
        assert_eq!(net.transformer.weights.len(), 2 * 39 * 144);
        let pos = chu::Position::startpos();
        let again = Network::random(FeatureSet::ChuP, 9);
        assert_eq!(net.evaluate_board12(&pos), again.evaluate_board12(&pos));
        let err = file::parse_for(&bytes, NetGame::Shogi).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a chu-p_256x2-32-32 net evaluates chushogi, not shogi"
        );
        let shogi = file::write(&Network::random(FeatureSet::Kp, 9));
        assert!(file::parse_for(&shogi, NetGame::Kagamigi).is_err());
    }
}
