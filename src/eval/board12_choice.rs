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
use crate::rules::geometry::{Color, Square};
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
        debug_assert!(net
            .as_ref()
            .is_none_or(|n| P::FEATURE_SETS.contains(&n.features)));
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
        let (net, royals) = match self.net.as_deref() {
            Some(net) if before.net.is_some() => {
                let layout = net.board12_layout();
                let royals = layout.window_royals(pos);
                (Some(layout.changes(pos, mv, royals)), royals)
            }
            _ => (None, [None; 2]),
        };
        Board12Change {
            tables: self.tables().update(pos, mv, before.tables),
            net,
            royals,
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
            (Some(changes), Some(acc), Some(net))
                if change.royals == net.board12_layout().window_royals(pos) =>
            {
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

/// What a move changes: the tables' totals after it (`None`: recount), the net's inputs
/// (`None`: no net), and the royals the net's windows were read around before it (if they
/// are not where they were after it, the net's views are counted again).
#[derive(Clone, Debug)]
pub struct Board12Change {
    tables: Option<Totals>,
    net: Option<RowChanges>,
    royals: [Option<Square>; 2],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::board12::Layout;
    use crate::eval::nnue::features::FeatureSet;
    use crate::eval::nnue::{file, Network};
    use crate::eval::random_games::{pick_preferring, random_games};
    use crate::rules::game::Game;
    use crate::rules::variants::{chu, kagamigi};

    /// Plays `mv` in `pos` with the totals kept by `with_net` and by `tables`, asserts that
    /// both equal the totals counted from scratch after it, and takes it back. Returns
    /// whether the game ended with it.
    fn kept_equals_counted<P: Board12Net + Game>(
        with_net: &Board12Evaluator<P>,
        tables: &Board12Evaluator<P>,
        pos: &mut P,
        mv: Move,
    ) -> bool {
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
        assert_eq!(after, with_net.totals(pos), "move {mv:?}");
        assert_eq!(after_tables, tables.totals(pos), "move {mv:?}");
        pos.unplay();
        over
    }

    /// Along random games (captures preferred, so that double captures, royals taken and
    /// full hands come up), the accumulator of a net of each of the game's feature sets kept
    /// move by move equals the one computed from scratch, and so does the tables' total
    /// where they update. Returns the moves compared.
    fn incremental_equals_scratch<P: Board12Net + Game + Clone>(start: &P, seed: u64) -> usize {
        let mut compared = 0;
        for &features in P::FEATURE_SETS {
            let net = Arc::new(Network::random(features, seed));
            let with_net = Board12Evaluator::<P>::with_net(Some(net));
            let tables = Board12Evaluator::<P>::with_net(None);
            random_games(start, seed, (6, 160), |pos, legal, rng| {
                let mv = pick_preferring(legal, rng, |m| !pos.effect(m).captures.is_empty())?;
                let over = kept_equals_counted(&with_net, &tables, pos, mv);
                compared += 1;
                (!over).then_some(mv)
            });
        }
        compared
    }

    #[test]
    fn chu_accumulators_follow_the_moves() {
        let compared = incremental_equals_scratch(&chu::Position::startpos(), 3);
        assert!(compared > 800, "{compared}");
    }

    /// With the royal windows, every move of a position where a royal can be taken (sente's
    /// King beside gote's Gold, its Crown Prince elsewhere), or move, keeps the accumulator
    /// the recount gives: after the King is taken the windows are read around the Prince.
    #[test]
    fn chu_windows_follow_a_royal_taken_and_moved() {
        let with_net = Board12Evaluator::<chu::Position>::with_net(Some(Arc::new(
            Network::random(FeatureSet::ChuPK, 5),
        )));
        let tables = Board12Evaluator::<chu::Position>::with_net(None);
        for sfen in [
            "11k/12/12/12/12/12/12/12/12/5n6/6g5/6K4+E w - 1",
            "11k/12/12/12/12/12/12/12/12/5n6/6g5/6K4+E b - 1",
        ] {
            let mut pos = chu::Position::from_sfen(sfen).unwrap();
            let mut legal = crate::rules::moves::MoveList::new();
            pos.legal_actions(&mut legal);
            let mut royal_taken = false;
            for &mv in legal.iter() {
                let effect = pos.effect(mv);
                royal_taken |= effect
                    .captures
                    .iter()
                    .any(|&(sq, _)| Some(sq) == pos.royal(Color::Sente));
                kept_equals_counted(&with_net, &tables, &mut pos, mv);
            }
            assert!(royal_taken || sfen.contains(" b "), "{sfen}");
        }
    }

    /// The window inputs of a position counted by hand (`p` the 2 × 39 × 144 P inputs; kind
    /// indices Gold 4, Lion 20; a place is `(files + 2) × 5 + (ranks + 2)` from the royal as
    /// the view sees the board, files counted towards file 12's side for sente, ranks
    /// towards rank l).
    #[test]
    fn chu_window_inputs_counted_by_hand() {
        // Sente: King 6l, Lion 6k; gote: Gold 7j, King 1a (nothing near it).
        let pos =
            chu::Position::from_sfen("11k/12/12/12/12/12/12/12/12/5g6/6N5/6K5 b - 1").unwrap();
        let layout = Layout::CHU_PK;
        let p = 2 * 39 * 144;
        let window = |block: usize, relation: usize, kind: usize, place: usize| {
            p + ((block * 2 + relation) * 39 + kind) * 25 + place
        };
        let windows_of = |view| {
            let mut inputs: Vec<usize> = layout
                .inputs_of(&pos, view)
                .into_iter()
                .filter(|&i| i >= p)
                .collect();
            inputs.sort_unstable();
            inputs
        };
        // Sente sees its Lion a rank before its King (0, −1) and gote's Gold a file to the
        // left and two ranks before it (+1, −2): both in its own royal's block (0).
        let mut sente = vec![window(0, 0, 20, 2 * 5 + 1), window(0, 1, 4, 3 * 5)];
        sente.sort_unstable();
        assert_eq!(windows_of(Color::Sente), sente);
        // Gote sees the board turned round: the same pieces near the other royal (block 1),
        // the Lion (0, +1) the other side's, the Gold (−1, +2) its own.
        let mut gote = vec![window(1, 1, 20, 2 * 5 + 3), window(1, 0, 4, 5 + 4)];
        gote.sort_unstable();
        assert_eq!(windows_of(Color::Gote), gote);
        assert_eq!(layout.inputs(), p + 2 * 2 * 39 * 25);
        assert_eq!(layout.inputs_of(&pos, Color::Sente).len(), 4 + 2);
    }

    #[test]
    fn kagamigi_accumulators_follow_the_moves_and_drops() {
        let compared = incremental_equals_scratch(&kagamigi::Position::startpos(), 4);
        assert!(compared > 400, "{compared}");
    }

    #[test]
    fn the_start_positions_read_the_same_inputs_from_both_sides() {
        fn mirrored<P: Board12Net>(start: &P) {
            let layout = P::FEATURE_SETS[0].layout().unwrap();
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
        // Near the royals, both sides alike: each King (7l, 6a) has 13 pieces within two
        // files and two ranks (4 beside it, 4 of the second rank, 5 of the third).
        let layout = Layout::CHU_PK;
        let start = chu::Position::startpos();
        let [mut sente, mut gote] = Color::BOTH.map(|view| layout.inputs_of(&start, view));
        sente.sort_unstable();
        gote.sort_unstable();
        assert_eq!(sente, gote);
        assert_eq!(sente.len(), 92 + 2 * 13);
        assert!(sente.len() <= crate::eval::nnue::sparse_file::SLOTS);
    }

    #[test]
    fn a_net_is_read_for_its_own_game_only() {
        use crate::eval::nnue::features::NetGame;
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
