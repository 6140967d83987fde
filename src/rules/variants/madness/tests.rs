//! Rule tests of Central Madness (RULES.md §5), one position per rule. Every game starts
//! with the deal (`draw:N draw:M`), then the tokens of the turn.

use super::cards::{CardCounts, CardModel, TrueCards, ViewCards};
use super::token::{CardValue, Token};
use super::turn::{Phase, TrueGame};
use crate::rules::dropshogi::notation::piece_text;
use crate::rules::game::{sorted_action_texts, Game, NodeKind, Outcome};
use crate::rules::geometry::{Color, Square};
use crate::rules::variants::shogi::{Geo, Kind, Position};

fn after(sfen: &str, tokens: &str) -> TrueGame {
    let mut game = TrueGame::from_sfen(sfen).unwrap();
    game.play_texts(tokens.split_whitespace())
        .unwrap_or_else(|e| panic!("{tokens}: {e}"));
    game
}

fn sq(text: &str) -> Square {
    Square::from_usi::<Geo>(text).unwrap()
}

fn piece_on(game: &TrueGame, square: &str) -> Option<String> {
    game.position().piece_at(sq(square)).map(piece_text)
}

fn actions(game: &TrueGame) -> Vec<String> {
    sorted_action_texts(game, |m| game.action_text(m))
}

fn value(n: u8) -> CardValue {
    CardValue::new(n).unwrap()
}

/// A sente gold alone on 5e; kings on 7a (gote) and 3i (sente), off every slide path.
const LONE_GOLD: &str = "2k6/9/9/9/4G4/9/9/9/6K2 b - 1";

#[test]
fn madness_phase_only_with_own_piece_on_the_centre() {
    let game = after(LONE_GOLD, "draw:4 draw:9");
    assert_eq!(game.phase(), Phase::MadnessChoice);
    assert_eq!(actions(&game), ["c:4", "roll"]);
    // Gote to move with sente's gold on 5e: no madness for gote.
    let gote = after("2k6/9/9/9/4G4/9/9/9/6K2 w - 1", "draw:4 draw:9");
    assert_eq!(gote.phase(), Phase::Normal);
    assert!(!actions(&gote).iter().any(|a| a == "roll"));
    // Empty centre.
    assert_eq!(
        after(super::super::shogi::notation::START_SFEN, "draw:1 draw:2").phase(),
        Phase::Normal
    );
}

#[test]
fn the_eight_directions_are_absolute() {
    let expected = ["9e", "9a", "5a", "1a", "1e", "1i", "5i", "9i"];
    for (v, to) in (1..=8).zip(expected) {
        let game = after(LONE_GOLD, &format!("draw:4 draw:9 roll r:{v}"));
        assert_eq!(piece_on(&game, to).as_deref(), Some("G"), "r:{v}");
        assert_eq!(piece_on(&game, "5e"), None);
        assert_eq!(game.frozen_square(), Some(sq(to)));
        assert_eq!(game.phase(), Phase::Normal);
    }
    // The same directions for gote: value 3 (south) goes toward rank a.
    let gote = after("2k6/9/9/9/4g4/9/9/9/6K2 w - 1", "draw:4 draw:9 roll r:3");
    assert_eq!(piece_on(&gote, "5a").as_deref(), Some("g"));
}

#[test]
fn slide_stops_on_capture_before_a_friend_and_fails_when_blocked() {
    // West: captures the dragon on 2e, which goes to hand as a rook.
    let capture = after("2k6/9/9/9/4G2+r1/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:5");
    assert_eq!(piece_on(&capture, "2e").as_deref(), Some("G"));
    assert_eq!(capture.position().hand(Color::Sente).count(Kind::Rook), 1);
    // A friendly pawn on 2e: stops on 3e.
    let friend = after("2k6/9/9/9/4G2P1/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:5");
    assert_eq!(piece_on(&friend, "3e").as_deref(), Some("G"));
    assert_eq!(piece_on(&friend, "2e").as_deref(), Some("P"));
    // A friend on the first square: the effect fails and the gold may still move.
    let failed = after("2k6/9/9/9/4GP3/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:5");
    assert_eq!(piece_on(&failed, "5e").as_deref(), Some("G"));
    assert_eq!(failed.frozen_square(), None);
    assert!(actions(&failed).contains(&"5e5d".to_string()));
}

#[test]
fn capturing_the_enemy_king_by_madness_wins() {
    let game = after("k8/9/9/9/4G4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:2");
    assert_eq!(game.phase(), Phase::Over(Color::Sente));
    assert_eq!(game.outcome(), Some(Outcome::Win(Color::Sente)));
    assert!(actions(&game).is_empty());
}

#[test]
fn promotion_is_optional_in_the_zone_and_forced_on_dead_squares() {
    let silver = after("k8/9/9/9/4S4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:3");
    assert_eq!(silver.phase(), Phase::Promotion(sq("5a")));
    assert_eq!(actions(&silver), ["mad+", "mad="]);
    let mut promoted = silver.clone();
    promoted.play_texts(["mad+"]).unwrap();
    assert_eq!(piece_on(&promoted, "5a").as_deref(), Some("+S"));
    assert_eq!(promoted.phase(), Phase::Normal);
    let mut kept = silver.clone();
    kept.play_texts(["mad="]).unwrap();
    assert_eq!(piece_on(&kept, "5a").as_deref(), Some("S"));
    // Pawn and lance on the last rank, knight on rank b: promoted without asking.
    for (letter, to) in [("P", "5a"), ("L", "5a")] {
        let game = after(
            &format!("k8/9/9/9/4{letter}4/9/9/9/6K2 b - 1"),
            "draw:4 draw:9 roll r:3",
        );
        assert_eq!(game.phase(), Phase::Normal);
        assert_eq!(piece_on(&game, to), Some(format!("+{letter}")));
    }
    let knight = after("k3G4/9/9/9/4N4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:3");
    assert_eq!(piece_on(&knight, "5b").as_deref(), Some("+N"));
    // Outside the zone nothing is asked: a silver sliding west to 1e.
    let outside = after("k8/9/9/9/4S4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:5");
    assert_eq!(outside.phase(), Phase::Normal);
    // Gote's zone is ranks g-i: north takes gote's silver to 5i.
    let gote = after("k8/9/9/9/4s4/9/9/9/6K2 w - 1", "draw:4 draw:9 roll r:7");
    assert_eq!(gote.phase(), Phase::Promotion(sq("5i")));
}

#[test]
fn nine_flips_the_piece_and_fails_on_gold_and_king() {
    let up = after("k8/9/9/9/4S4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:9");
    assert_eq!(piece_on(&up, "5e").as_deref(), Some("+S"));
    assert_eq!(up.frozen_square(), Some(sq("5e")));
    assert!(!actions(&up).iter().any(|a| a.starts_with("5e")));
    let down = after("k8/9/9/9/4+R4/9/9/9/6K2 b - 1", "draw:4 draw:9 roll r:9");
    assert_eq!(piece_on(&down, "5e").as_deref(), Some("R"));
    for letter in ["G", "K"] {
        let same = after(
            &format!("k8/9/9/9/4{letter}4/9/9/9/9 b - 1"),
            "draw:4 draw:9 roll r:9",
        );
        assert_eq!(piece_on(&same, "5e").as_deref(), Some(letter));
        assert_eq!(same.frozen_square(), None);
        assert!(actions(&same).iter().any(|a| a.starts_with("5e")));
    }
}

#[test]
fn ten_sends_the_piece_to_hand_and_forbids_drops() {
    let game = after("k8/9/9/9/4+R4/9/9/9/6K2 b G 1", "draw:4 draw:9 roll r:10");
    assert_eq!(piece_on(&game, "5e"), None);
    assert_eq!(game.position().hand(Color::Sente).count(Kind::Rook), 1);
    assert!(game.drops_forbidden());
    assert!(!actions(&game).iter().any(|a| a.contains('*')));
    assert!(actions(&game).contains(&"3i3h".to_string()));
    // The own king sent to hand loses at once; a card of value 10 does the same.
    let king = after("k8/9/9/9/4K4/9/9/9/9 b - 1", "draw:10 draw:9 c:10");
    assert_eq!(king.outcome(), Some(Outcome::Win(Color::Gote)));
}

#[test]
fn doubled_pawns_by_madness_stay_but_pawn_drops_on_the_file_do_not() {
    let game = after("k8/9/9/9/4P4/9/P8/9/6K2 b P 1", "draw:4 draw:9 roll r:1");
    assert_eq!(piece_on(&game, "9e").as_deref(), Some("P"));
    assert_eq!(piece_on(&game, "9g").as_deref(), Some("P"));
    let sfen = game.position().to_sfen();
    assert!(Position::from_sfen(&sfen).is_err(), "shogi refuses nifu");
    assert!(TrueGame::from_sfen(&sfen).is_ok(), "madness accepts it");
    let acts = actions(&game);
    assert!(!acts.iter().any(|a| a.starts_with("P*9")));
    assert!(acts.contains(&"P*5e".to_string()));
}

#[test]
fn mate_is_judged_after_the_madness_phase() {
    // Sente is mated by the rook on 1a at the start of the turn (shogi agrees).
    let sfen = "k7r/9/9/9/4G4/9/9/6g2/8K b - 1";
    assert_eq!(Position::from_sfen(sfen).unwrap().count_legal(), 0);
    let start = after(sfen, "draw:4 draw:9");
    assert_eq!(start.phase(), Phase::MadnessChoice);
    assert_eq!(start.outcome(), None);
    // West: the gold blocks on 1e; the king may then step to 1h.
    let saved = after(sfen, "draw:4 draw:9 roll r:5");
    assert_eq!(saved.outcome(), None);
    assert_eq!(actions(&saved), ["1i1h"]);
    // East: no help, sente has no legal normal move and loses.
    let lost = after(sfen, "draw:4 draw:9 roll r:1");
    assert_eq!(lost.outcome(), Some(Outcome::Win(Color::Gote)));
}

#[test]
fn madness_that_exposes_the_king_must_be_answered() {
    // The gold on 5e shields the king on 5i from the rook on 5a.
    let game = after("k3r4/9/9/9/4G4/9/P8/9/4K4 b - 1", "draw:4 draw:9 roll r:1");
    let acts = actions(&game);
    assert!(!acts.is_empty());
    assert!(acts.iter().all(|a| a.starts_with("5i")), "{acts:?}");
    assert!(!acts.contains(&"9g9f".to_string()));
}

#[test]
fn a_king_left_en_prise_by_madness_can_be_captured() {
    // Moving the gold off 5e opens the rook's file to the gote king on 5a.
    let game = after("4k4/9/9/9/4G4/9/9/9/K3R4 b - 1", "draw:4 draw:9 roll r:1");
    let acts = actions(&game);
    assert!(acts.contains(&"5i5a".to_string()) && acts.contains(&"5i5a+".to_string()));
    let mut won = game.clone();
    won.play_texts(["5i5a+"]).unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Color::Sente)));
    won.unplay();
    assert_eq!(won.hash(), game.hash());
}

#[test]
fn the_final_board_shows_the_piece_that_took_the_king_where_it_landed() {
    let on = |board: &Position, square: &str| board.piece_at(sq(square)).map(piece_text);
    // A slide onto the king, by the d10 or by a card: the gold stands on 9a.
    for tokens in ["draw:4 draw:9 roll r:2", "draw:2 draw:9 c:2"] {
        let game = after("k8/9/9/9/4G4/9/9/9/6K2 b - 1", tokens);
        assert_eq!(game.phase(), Phase::Over(Color::Sente), "{tokens}");
        let board = game.final_board();
        assert_eq!(on(&board, "9a").as_deref(), Some("G"), "{tokens}");
        assert_eq!(on(&board, "5e"), None, "{tokens}");
        // The rules' own position is left as the rules keep it.
        assert_eq!(piece_on(&game, "5e").as_deref(), Some("G"));
        assert_eq!(piece_on(&game, "9a").as_deref(), Some("k"));
    }
    // A normal move onto the king, promoting.
    let mut won = after("4k4/9/9/9/4G4/9/9/9/K3R4 b - 1", "draw:4 draw:9 roll r:1");
    won.play_texts(["5i5a+"]).unwrap();
    let board = won.final_board();
    assert_eq!(on(&board, "5a").as_deref(), Some("+R"));
    assert_eq!(on(&board, "5i"), None);
    // Sente's own king sent off by a 10: nothing was taken, the board stands.
    let lost = after("k8/9/9/9/4K4/9/9/9/9 b - 1", "draw:4 draw:9 roll r:10");
    assert_eq!(lost.phase(), Phase::Over(Color::Gote));
    assert_eq!(lost.final_board().to_sfen(), lost.position().to_sfen());
    // A game under way: the board as it stands.
    let going = after(LONE_GOLD, "draw:4 draw:9 roll r:2");
    assert_eq!(going.final_board().to_sfen(), going.position().to_sfen());
}

#[test]
fn cards_are_dealt_played_discarded_and_replaced() {
    let start = after(LONE_GOLD, "draw:4 draw:9");
    assert_eq!(start.cards().held, [Some(value(4)), Some(value(9))]);
    assert_eq!(start.cards().pile.total(), 38);
    assert!(start.parse_action("c:9").is_err(), "sente holds a 4");
    let played = after(LONE_GOLD, "draw:4 draw:9 c:4");
    assert_eq!(played.phase(), Phase::Draw);
    assert_eq!(played.cards().discards.count(value(4)), 1);
    assert_eq!(played.cards().held[0], None);
    // Only three 4s and three 9s are left in the pile.
    let NodeKind::Chance(outcomes) = played.node_kind() else {
        panic!("a draw is chance");
    };
    let weight = |n| {
        outcomes
            .iter()
            .find(|(m, _)| *m == Token::Draw(value(n)).to_move())
            .map(|(_, w)| w.0)
    };
    assert_eq!(
        (weight(4), weight(9), weight(1)),
        (Some(3), Some(3), Some(4))
    );
    let drawn = after(LONE_GOLD, "draw:4 draw:9 c:4 draw:1");
    assert_eq!(drawn.cards().held[0], Some(value(1)));
    assert_eq!(drawn.phase(), Phase::Normal);
    // Once all four 4s are out, a 4 cannot be drawn.
    let mut cards = drawn.cards().to_owned();
    assert!(cards.accepts_draw(Color::Gote, Token::Draw(value(4))));
    for _ in 0..3 {
        cards.pile.remove(value(4));
    }
    assert!(!cards.accepts_draw(Color::Gote, Token::Draw(value(4))));
}

#[test]
fn an_empty_pile_is_refilled_from_the_discards() {
    let mut cards = TrueCards {
        pile: CardCounts::default(),
        discards: CardCounts::DECK,
        held: [None, Some(value(3))],
    };
    cards.discards.remove(value(3));
    cards.discards.remove(value(7));
    cards.held[0] = Some(value(7));
    cards.discard(Color::Sente, value(7));
    assert_eq!(cards.draw_outcomes(Color::Sente).len(), 10);
    cards.apply_draw(Color::Sente, Token::Draw(value(7)));
    assert_eq!(cards.discards.total(), 0);
    assert_eq!(cards.pile.total(), 38);
    assert_eq!(cards.pile.count(value(3)), 3);
}

#[test]
fn my_reshuffle_locates_the_opponents_card_in_my_view() {
    let mut view = ViewCards::new(Color::Sente);
    view.own = Some(value(7));
    view.discards = CardCounts::DECK;
    view.discards.remove(value(7));
    view.discards.remove(value(3));
    view.pile_size = 0;
    assert_eq!(view.unseen().total(), 1);
    view.discard(Color::Sente, value(7));
    view.apply_draw(Color::Sente, Token::Draw(value(5)));
    assert_eq!(view.opponent, Some(value(3)));
    assert!(view.opponent_located);
    assert_eq!(view.pile_size, 38);
    // A roll keeps a located card; a played one is public and gone.
    view.after_roll(Color::Gote);
    assert_eq!(view.opponent, Some(value(3)));
    view.discard(Color::Gote, value(3));
    assert_eq!(view.opponent, None);
}

#[test]
fn hash_covers_cards_and_madness_flags() {
    let a = after(LONE_GOLD, "draw:4 draw:9");
    let b = after(LONE_GOLD, "draw:5 draw:9");
    let rolled = after(LONE_GOLD, "draw:4 draw:9 roll");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), rolled.hash());
    // Same board after the gold failed vs. after it was flipped back is impossible; compare
    // frozen against not frozen on one board: a gold slid east vs. a gold set there.
    let slid = after(LONE_GOLD, "draw:4 draw:9 roll r:1");
    let placed = after("2k6/9/9/9/G8/9/9/9/6K2 b - 1", "draw:4 draw:9");
    assert_eq!(slid.position(), placed.position());
    assert_ne!(slid.hash(), placed.hash());
}

#[test]
fn every_action_unplays_exactly() {
    let mut game = after(LONE_GOLD, "");
    let start_hash = game.hash();
    let tokens = ["draw:4", "draw:9", "c:4", "draw:1", "3i3h"];
    let mut hashes = vec![start_hash];
    for t in tokens {
        game.play_texts([t]).unwrap();
        hashes.push(game.hash());
    }
    for expected in hashes.iter().rev().skip(1) {
        game.unplay();
        assert_eq!(game.hash(), *expected);
    }
    assert_eq!(
        game.position(),
        TrueGame::from_sfen(LONE_GOLD).unwrap().position()
    );
}

#[test]
fn fourfold_repetition_of_turn_starts_is_a_draw() {
    let cycle = ["9i9h", "1a2a", "9h9i", "2a1a"];
    let mut game = after("8k/9/9/9/9/9/9/9/K8 b - 1", "draw:1 draw:2");
    for (i, mv) in cycle.iter().cycle().take(12).enumerate() {
        assert_eq!(game.outcome(), None, "after {i} moves");
        game.play_texts([*mv]).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_hash_tells_repetition_counts_apart() {
    // A search table keyed by the hash must not answer for the fourth occurrence (a draw)
    // with what it stored for an earlier one.
    let cycle = ["9i9h", "1a2a", "9h9i", "2a1a"];
    let mut game = after("8k/9/9/9/9/9/9/9/K8 b - 1", "draw:1 draw:2");
    let mut hashes = vec![game.hash()];
    for mv in cycle.iter().cycle().take(12) {
        game.play_texts([*mv]).unwrap();
        if game.played_actions().count() % 4 == 2 {
            hashes.push(game.hash());
        }
    }
    let start = after("8k/9/9/9/9/9/9/9/K8 b - 1", "draw:1 draw:2");
    assert_eq!(game.position(), start.position());
    assert_eq!(hashes.len(), 4);
    for i in 0..4 {
        for j in 0..i {
            assert_ne!(hashes[i], hashes[j], "occurrences {j} and {i}");
        }
    }
    for _ in 0..12 {
        game.unplay();
    }
    assert_eq!(game.hash(), hashes[0]);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let game = after(LONE_GOLD, "draw:4 draw:9");
    for bad in [
        "", "r:3", "draw:3", "mad+", "5e5d", "c:11", "zz", "P*5e", "9z9y", "c:x",
    ] {
        assert!(game.parse_action(bad).is_err(), "{bad}");
    }
    for sfen in [
        "",
        "9/9 b - 1",
        "k8/9/9/9/9/9/9/9/9 x - 1",
        "kk7/9/9/9/9/9/9/9/K8 b - 1",
        // Issue 12: oversized hands panicked in the hash; lenient spellings were accepted.
        "4k4/9/9/9/9/9/9/9/4K4 b 10p10p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b ppppppppppppppppppp 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RRRRRRRRRRRRRRRRRRRR 1",
        "8k/9/9/9/09/9/1gn6/9/K8 b - 1",
        "8k/9/9/9/9/9/9/9/K8 b - +5",
    ] {
        assert!(TrueGame::from_sfen(sfen).is_err(), "{sfen}");
        let text = format!("sfen {sfen} moves draw:4 draw:9");
        assert!(
            TrueGame::from_position_text(&text, TrueCards::default()).is_err(),
            "{text}"
        );
    }
}

#[test]
fn pawn_drop_mate_is_judged_by_trying_replies_when_madness_left_the_king_in_check() {
    // The gold on 5e blocks the bishop's diagonal to the gote king on 9a. A pawn on 9b
    // (guarded by the gold on 9c) checks the king, which cannot move; gote's silver can take
    // the pawn, which answers a lone pawn check.
    let sfen = "kn7/9/Gs7/9/4G4/5B3/9/9/8K b P 1";
    let blocked = after(sfen, "draw:9 draw:2 c:9");
    assert_eq!(
        piece_on(&blocked, "5e").as_deref(),
        Some("G"),
        "9 fails on a gold"
    );
    let blocked = after(sfen, "draw:9 draw:2 c:9 draw:1");
    assert!(actions(&blocked).contains(&"P*9b".to_string()));
    // East: the gold leaves 5e and the bishop now attacks the king too. Taking the pawn no
    // longer answers both checks, so the drop would mate and is refused; the bishop may
    // take the king instead.
    let open = after(sfen, "draw:9 draw:2 roll r:1");
    let acts = actions(&open);
    assert!(!acts.contains(&"P*9b".to_string()), "{acts:?}");
    assert!(acts.contains(&"4f9a+".to_string()) && acts.contains(&"4f9a".to_string()));
}

#[test]
fn position_text_round_trips_and_refuses_bad_input() {
    use super::cards::ViewCards;
    use super::turn::PlayerView;
    let game = TrueGame::from_position_text(
        "startpos moves draw:4 draw:9 5g5f 3c3d 5f5e 4a3b",
        TrueCards::default(),
    )
    .unwrap();
    assert_eq!(game.phase(), Phase::MadnessChoice);
    let text = game.position_text();
    assert!(
        text.ends_with("moves draw:4 draw:9 5g5f 3c3d 5f5e 4a3b"),
        "{text}"
    );
    let again = TrueGame::from_position_text(&text, TrueCards::default()).unwrap();
    assert_eq!(again.hash(), game.hash());
    let sente = PlayerView::from_position_text(
        "startpos moves draw:4 draw:? 5g5f",
        ViewCards::new(Color::Sente),
    )
    .unwrap();
    assert_eq!(sente.cards().own, Some(value(4)));
    let sfen = TrueGame::from_position_text(
        &format!("sfen {LONE_GOLD} moves draw:1 draw:2 c:1"),
        TrueCards::default(),
    )
    .unwrap();
    assert_eq!(piece_on(&sfen, "9e").as_deref(), Some("G"));
    for bad in [
        "",
        "startpos moves draw:4 draw:4 draw:4",
        "startpos draw:4",
        "sfen 9/9 b - 1",
        "startpos moves draw:4 draw:9 5e5d",
        "foo",
        "sfen",
        "startpos moves draw:? draw:?",
    ] {
        assert!(
            TrueGame::from_position_text(bad, TrueCards::default()).is_err(),
            "{bad}"
        );
    }
    // A view refuses to hide its own card: neither card shown, or a later own draw hidden.
    let both_hidden = "startpos moves draw:? draw:?";
    for me in [Color::Sente, Color::Gote] {
        assert!(PlayerView::from_position_text(both_hidden, ViewCards::new(me)).is_err());
    }
    let played_card = "startpos moves draw:4 draw:? 5g5f 3c3d 5f5e 4a3b c:4 mad=";
    let view = PlayerView::from_position_text(played_card, ViewCards::new(Color::Sente)).unwrap();
    assert_eq!(view.phase(), Phase::Draw);
    let redraw = |token: &str| {
        PlayerView::from_position_text(
            &format!("{played_card} {token}"),
            ViewCards::new(Color::Sente),
        )
    };
    assert!(redraw("draw:1").is_ok());
    assert!(redraw("draw:?").is_err());
    // A view refuses the opponent's card value.
    assert!(PlayerView::from_position_text(
        "startpos moves draw:4 draw:9",
        ViewCards::new(Color::Sente)
    )
    .is_err());
}

/// RULES.md §5.4: the entering-king declaration takes the place of the normal move, with
/// standard shogi's conditions judged after the madness phase. Sente has nine pieces in the
/// enemy camp and 28 points; its silver on 5e slides toward rank a with a 3 and stops on 5b.
#[test]
fn a_declaration_is_judged_after_the_madness_phase() {
    use crate::rules::variants::shogi::impasse::EnteringKingRule;
    const ENTERING: &str = "+R+BGGGG1K1/SSS6/9/9/4S4/pppppppp1/9/9/4k4 b 10Prb4n4l 1";
    let choice = after(ENTERING, "draw:3 draw:9");
    assert_eq!(choice.phase(), Phase::MadnessChoice);
    assert!(choice.judge_declaration().is_err());
    let promotion = after(ENTERING, "draw:3 draw:9 c:3");
    assert!(matches!(promotion.phase(), Phase::Promotion(_)));
    assert!(!promotion.can_declare_win());
    let normal = after(ENTERING, "draw:3 draw:9 c:3 mad= draw:5");
    assert_eq!(normal.phase(), Phase::Normal);
    assert_eq!(piece_on(&normal, "5b").as_deref(), Some("S"));
    assert_eq!(normal.judge_declaration(), Ok(()));
    let mut none = normal.clone();
    none.set_declaration_rule(EnteringKingRule::None);
    assert!(!none.can_declare_win());
    // A 7 slides the silver the other way, taking gote's pawn on 5f: still nine pieces in
    // the camp, no declaration.
    let away = after(ENTERING, "draw:7 draw:9 c:7 draw:5");
    assert_eq!(away.phase(), Phase::Normal);
    assert_eq!(piece_on(&away, "5f").as_deref(), Some("S"));
    assert!(away.judge_declaration().is_err());
}
