//! The chance search on the Central Madness with its board valued by the built-in shogi net:
//! Star1 and Star2 (no table, the exact table, the debug oracle) return exactly the plain
//! expectimax value computed with the same net, on seeded positions from random play, both in
//! the true game and in a player's view (the opponent's card unseen). The net's values stay
//! inside the evaluation's documented range, so the pruning bounds hold with it as with the
//! hand-written evaluation.

use super::{compare_with, random_positions_within, settings};
use crate::eval::shogi_choice::ShogiEvaluator;
use crate::rules::game::{Game, NodeKind};
use crate::rules::geometry::Color;
use crate::rules::variants::madness::{PlayerView, TrueGame};
use crate::search::chance::reference::expectimax_at_ply;
use crate::search::chance::{
    ChanceAlgorithm, ChanceGame, ChanceSettings, Depth, LeafEvaluators, TableReuse,
};

/// Both searches are compared to this depth (normal moves; the madness steps are free).
const DEPTH: u32 = 2;

/// At most this many expectimax nodes at [`DEPTH`] per position (keeps a debug run short).
const MAX_REFERENCE_NODES: u64 = 30_000;

/// `count` positions from random play from `start` whose expectimax tree at [`DEPTH`] is
/// small enough.
fn small_positions<G: ChanceGame>(start: &G, count: usize, seed: u64) -> Vec<(G, Color)> {
    random_positions_within(start, 4 * count, seed, 30)
        .into_iter()
        .filter(|(game, pov)| {
            let mut game = game.clone();
            let (_, nodes) =
                expectimax_at_ply(&mut game, Depth(DEPTH), *pov, 0, LeafEvaluators::standard());
            nodes <= MAX_REFERENCE_NODES
        })
        .take(count)
        .collect()
}

/// Sente's silver on 5e, a gote gold on 5a and gote's king on 1a (the madness can take
/// either), sente's king on 9i: every turn start of sente's has a madness choice and a roll.
const CENTRE_SILVER: &str = "4g3k/9/9/9/4S4/9/9/9/K8 b - 1";

/// Sente's madness choice in the true game (the roll is a chance node in the tree), then
/// positions from random play.
fn true_positions() -> Vec<(TrueGame, Color)> {
    let mut choice = TrueGame::from_sfen(CENTRE_SILVER).unwrap();
    choice.play_texts(["draw:6", "draw:2"]).unwrap();
    let mut positions = vec![(choice.clone(), Color::Sente), (choice, Color::Gote)];
    positions.extend(small_positions(&TrueGame::startpos(), 8, 31));
    positions
}

/// Gote's view before sente's choice (a chance root over sente's unseen card), then
/// positions from random play.
fn view_positions() -> Vec<(PlayerView, Color)> {
    let mut unseen = PlayerView::from_sfen(CENTRE_SILVER, Color::Gote).unwrap();
    unseen.play_texts(["draw:?", "draw:2"]).unwrap();
    let mut positions = vec![(unseen, Color::Gote)];
    positions.extend(small_positions(&PlayerView::startpos(Color::Gote), 8, 32));
    positions
}

/// Whether the net changes the expectimax value of some position (else these tests would
/// not tell the net's search from the tables').
fn net_changes_a_value<G: ChanceGame>(positions: &[(G, Color)]) -> bool {
    positions.iter().any(|(game, pov)| {
        let mut game = game.clone();
        let hand = expectimax_at_ply(&mut game, Depth(DEPTH), *pov, 0, LeafEvaluators::standard());
        let net = expectimax_at_ply(
            &mut game,
            Depth(DEPTH),
            *pov,
            0,
            &LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net()),
        );
        hand.0 != net.0
    })
}

#[test]
fn the_positions_have_chance_roots_and_the_net_changes_values() {
    let truth = true_positions();
    let views = view_positions();
    assert_eq!((truth.len(), views.len()), (10, 9));
    let chance = |kinds: Vec<NodeKind>| {
        kinds
            .iter()
            .filter(|k| matches!(k, NodeKind::Chance(_)))
            .count()
    };
    let chance_roots = chance(truth.iter().map(|(g, _)| g.node_kind()).collect())
        + chance(views.iter().map(|(g, _)| g.node_kind()).collect());
    assert!(chance_roots > 0);
    // The random positions alone, so that the net is seen to matter on full boards.
    assert!(net_changes_a_value(&truth[2..]));
    assert!(net_changes_a_value(&views[1..]));
}

#[test]
fn star1_and_star2_equal_expectimax_with_the_net() {
    let truth = true_positions();
    let views = view_positions();
    for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
        for table in [TableReuse::Off, TableReuse::Exact] {
            let settings = settings(algorithm, table);
            for comparison in [
                compare_with(
                    &truth,
                    settings,
                    DEPTH,
                    &LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net()),
                ),
                compare_with(
                    &views,
                    settings,
                    DEPTH,
                    &LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net()),
                ),
            ] {
                assert_eq!(comparison.differences, 0, "with {settings:?}");
                assert_eq!(comparison.worse_choices, 0, "with {settings:?}");
            }
        }
    }
}

#[test]
fn the_oracle_accepts_every_chance_node_with_the_net() {
    let truth = true_positions();
    let views = view_positions();
    for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
        let settings = ChanceSettings {
            verify_chance_nodes: true,
            ..settings(algorithm, TableReuse::Exact)
        };
        assert_eq!(
            compare_with(
                &truth[..4],
                settings,
                DEPTH,
                &LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net())
            )
            .differences,
            0
        );
        assert_eq!(
            compare_with(
                &views[..4],
                settings,
                DEPTH,
                &LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net())
            )
            .differences,
            0
        );
    }
}
