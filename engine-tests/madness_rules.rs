//! Central Madness information model (docs/ARCHITECTURE.md, "The chance search"): the referee's
//! true state, the token stream each player is sent, and the view each player rebuilds from it.
//!
//! The property: in seeded random games (biased so that madness turns and card plays are
//! frequent, with reshuffles), each player's view agrees with the truth on all public
//! information after every token, never holds the opponent's unplayed card unless counting
//! has located it, and is never sent the value of an opponent's draw.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::rules::game::{Game, NodeKind};
use shishi::rules::geometry::Color;
use shishi::rules::moves::{Move, MoveList};
use shishi::rules::variants::madness::view::{check_view, derive_view, filter_stream};
use shishi::rules::variants::madness::{Phase, PlayerView, Token, TrueGame};

/// Picks a random action of the truth; chance outcomes by weight; decisions prefer card
/// plays and moves onto 5e.
fn pick(game: &TrueGame, rng: &mut StdRng) -> Option<Move> {
    match game.node_kind() {
        NodeKind::Chance(outcomes) => {
            let total: u32 = outcomes.iter().map(|(_, w)| w.0).sum();
            let mut r = rng.gen_range(0..total);
            for (m, w) in outcomes {
                if r < w.0 {
                    return Some(m);
                }
                r -= w.0;
            }
            unreachable!("weights add up")
        }
        NodeKind::Decision(_) => {
            let mut moves = MoveList::new();
            game.legal_actions(&mut moves);
            if moves.is_empty() {
                return None;
            }
            let preferred: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    matches!(Token::from_move(*m), Some(Token::Card(_)))
                        || game.action_text(*m).ends_with("5e")
                })
                .collect();
            Some(if !preferred.is_empty() && rng.gen_bool(0.7) {
                preferred[rng.gen_range(0..preferred.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            })
        }
    }
}

struct Played {
    truth: TrueGame,
    actions: Vec<Move>,
    reshuffles: usize,
    located: usize,
}

/// Plays one random game, checking both views after every action.
fn play_checked(start: &str, seed: u64, plies: usize) -> Played {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut truth = TrueGame::from_sfen(start).unwrap();
    let begin = truth.clone();
    let mut views = [
        PlayerView::from_sfen(start, Color::Sente).unwrap(),
        PlayerView::from_sfen(start, Color::Gote).unwrap(),
    ];
    let mut actions = Vec::new();
    let (mut reshuffles, mut located) = (0, 0);
    for _ in 0..plies {
        let Some(action) = pick(&truth, &mut rng) else {
            break;
        };
        let pile_was_empty = truth.cards().pile.total() == 0;
        let sent = filter_stream(&truth, &[action]).unwrap();
        for player in Color::BOTH {
            let token = sent[player.index()][0];
            let view = &mut views[player.index()];
            assert!(
                view.accepts(token),
                "{player:?} refuses {}",
                view.action_text(token)
            );
            view.play(token);
        }
        truth.play(action);
        actions.push(action);
        if pile_was_empty && matches!(Token::from_move(action), Some(Token::Draw(_))) {
            reshuffles += 1;
        }
        for view in &views {
            check_view(view, &truth).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            located += view.cards().opponent_located as usize;
        }
    }
    // Rebuilding each view from its whole stream gives the same view.
    let streams = filter_stream(&begin, &actions).unwrap();
    for player in Color::BOTH {
        let rebuilt = derive_view(&begin, player, &streams[player.index()]).unwrap();
        assert_eq!(rebuilt.hash(), views[player.index()].hash());
        check_view(&rebuilt, &truth).unwrap();
    }
    Played {
        truth,
        actions,
        reshuffles,
        located,
    }
}

const CENTRE_FIGHT: &str = "lnsgkgsnl/1r5b1/pppp1pppp/9/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b - 1";

#[test]
fn views_agree_with_the_truth_and_leak_nothing() {
    let mut reshuffles = 0;
    let mut located = 0;
    for seed in 0..12 {
        let start = if seed % 2 == 0 {
            CENTRE_FIGHT
        } else {
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        };
        let played = play_checked(start, seed, 600);
        reshuffles += played.reshuffles;
        located += played.located;
        // No stream ever carries the value of the other side's draw.
        let streams = filter_stream(&TrueGame::from_sfen(start).unwrap(), &played.actions).unwrap();
        let mut replay = TrueGame::from_sfen(start).unwrap();
        for (i, &action) in played.actions.iter().enumerate() {
            let drawer = match replay.phase() {
                Phase::Deal(c) => Some(c),
                Phase::Draw => Some(replay.side_to_move()),
                _ => None,
            };
            if let Some(drawer) = drawer {
                let other = drawer.flip();
                assert_eq!(
                    Token::from_move(streams[other.index()][i]),
                    Some(Token::DrawHidden)
                );
                assert_eq!(streams[drawer.index()][i], action);
            } else {
                assert_eq!(streams[0][i], action);
                assert_eq!(streams[1][i], action);
            }
            replay.play(action);
        }
        assert_eq!(replay.hash(), played.truth.hash());
    }
    assert!(reshuffles > 0, "no game reshuffled the deck");
    assert!(located > 0, "no view ever located the opponent's card");
}

#[test]
fn a_stream_that_shows_the_opponents_draw_is_refused() {
    let start = TrueGame::startpos();
    let leak = [
        Token::Draw(shishi::rules::variants::madness::CardValue::new(4).unwrap()).to_move(),
        Token::Draw(shishi::rules::variants::madness::CardValue::new(9).unwrap()).to_move(),
    ];
    assert!(derive_view(&start, Color::Sente, &leak).is_err());
    assert!(derive_view(&start, Color::Gote, &leak).is_err());
    let honest = [leak[0], Token::DrawHidden.to_move()];
    let view = derive_view(&start, Color::Sente, &honest).unwrap();
    assert_eq!(
        view.cards().own,
        Some(shishi::rules::variants::madness::CardValue::new(4).unwrap())
    );
    assert_eq!(view.cards().opponent, None);
}

#[test]
fn the_opponents_card_is_a_chance_node_before_its_choice() {
    // Gote holds 5e. Sente's view: gote's card is unknown until gote must use it.
    let start = TrueGame::from_sfen("4k4/9/9/9/4s4/9/9/9/4K4 b - 1").unwrap();
    let mut truth = start.clone();
    truth.play_texts(["draw:4", "draw:9", "5i4i"]).unwrap();
    let streams = filter_stream(&start, &truth.played_actions().collect::<Vec<_>>()).unwrap();
    let mut view = derive_view(&start, Color::Sente, &streams[0]).unwrap();
    assert_eq!(view.phase(), Phase::MadnessChoice);
    let NodeKind::Chance(outcomes) = view.node_kind() else {
        panic!("the opponent's card must be a chance node");
    };
    // Unseen: the deck minus my 4: three 4s and four of every other value.
    let weights: Vec<(String, u32)> = outcomes
        .iter()
        .map(|(m, w)| (view.action_text(*m), w.0))
        .collect();
    assert_eq!(weights.len(), 10);
    assert_eq!(weights.iter().map(|(_, w)| w).sum::<u32>(), 39);
    assert!(weights.contains(&("draw:4".to_string(), 3)));
    let before = view.hash();
    // A search draws gote's card as 7: then gote decides between c:7 and roll.
    view.play_texts(["draw:7"]).unwrap();
    assert_eq!(view.node_kind(), NodeKind::Decision(Color::Gote));
    let mut list = MoveList::new();
    view.legal_actions(&mut list);
    let texts: Vec<String> = list.iter().map(|m| view.action_text(*m)).collect();
    assert_eq!(texts, ["c:7", "roll"]);
    // After a roll the drawn card is forgotten, so sente's later decisions never see it.
    view.play_texts(["roll"]).unwrap();
    assert_eq!(view.cards().opponent, None);
    view.unplay();
    view.unplay();
    assert_eq!(view.hash(), before);
    // The real stream carries gote's decision straight away.
    let mut real = view.clone();
    real.play_texts(["c:9"]).unwrap();
    assert_eq!(real.phase(), Phase::Draw);
    assert_eq!(real.cards().discards.total(), 1);
    // My own draws are deferred as well in the search: after my card is played, the search's
    // draw outcome leaves my next card hidden until my next madness choice. (A stream sent to
    // me never hides my own card: `draw:?` for my own draw is refused as text.)
    let mut mine = PlayerView::from_sfen("4k4/9/9/9/4G4/9/9/9/4K4 b - 1", Color::Sente).unwrap();
    mine.play_texts(["draw:2", "draw:?", "c:2"]).unwrap();
    let NodeKind::Chance(outcomes) = mine.node_kind() else {
        panic!("my replacement card is a chance node of the search");
    };
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    assert_eq!(mine.action_text(outcomes[0].0), "draw:?");
    mine.play(outcomes[0].0);
    assert_eq!(mine.cards().own, None);
}

/// Walks a view's tree to `depth` decisions: every action unplays to the same hash, every
/// chance node has positive weights, and a hidden card's weights add up to the unseen cards.
fn walk_view(view: &mut PlayerView, depth: u32, nodes: &mut u64) {
    *nodes += 1;
    if depth == 0 {
        return;
    }
    let before = view.hash();
    let (chance, actions): (bool, Vec<Move>) = match view.node_kind() {
        NodeKind::Chance(outcomes) => {
            assert!(!outcomes.is_empty() && outcomes.iter().all(|(_, w)| w.0 > 0));
            if view.phase() == Phase::MadnessChoice {
                let total: u32 = outcomes.iter().map(|(_, w)| w.0).sum();
                assert_eq!(total, view.cards().unseen().total());
            }
            (true, outcomes.into_iter().map(|(m, _)| m).collect())
        }
        NodeKind::Decision(_) => {
            let mut list = MoveList::new();
            view.legal_actions(&mut list);
            (false, list.to_vec())
        }
    };
    for action in actions {
        view.play(action);
        walk_view(view, depth - !chance as u32, nodes);
        view.unplay();
        assert_eq!(view.hash(), before);
    }
}

#[test]
fn a_views_tree_is_searchable() {
    let mut nodes = 0;
    for seed in 0..6 {
        let played = play_checked(CENTRE_FIGHT, 100 + seed, 40 + 15 * seed as usize);
        let start = TrueGame::from_sfen(CENTRE_FIGHT).unwrap();
        let streams = filter_stream(&start, &played.actions).unwrap();
        for player in Color::BOTH {
            let mut view = derive_view(&start, player, &streams[player.index()]).unwrap();
            walk_view(&mut view, 2, &mut nodes);
        }
    }
    assert!(nodes > 1000, "{nodes} nodes");
}
