//! Evaluation of Central Madness positions: the standard shogi evaluation of the board
//! ([`ShogiEvaluator`]: the hand-written tables, or a shogi net when `MadnessEval` chose one and
//! it fits the board) plus what the piece on 5e promises its owner, mapped onto the chance
//! search's bounded expected-result scale with a logistic.
//!
//! Board: both evaluations give centipawns for the side to move. The net needs both kings on
//! the board ([`Network::fits`](super::nnue::Network::fits)); with a king in hand the tables
//! value the board. Evaluated alone, the board is valued from scratch; the chance search
//! keeps the net's accumulator from action to action
//! (`crate::search::chance::net_board`) and hands the board's value to the `_with_board`
//! forms, which give the same values.
//!
//! Madness term: a piece X on 5e acts at its owner's next turn start. Each value 1–10 has an
//! immediate material effect for the owner (a slide that captures a piece and may promote,
//! a flip, X sent to hand; capturing the enemy king or losing one's own is decisive). The
//! roll is worth the mean over the ten values; a known card is worth the better of playing
//! it and rolling; an unknown card is that averaged over the unseen cards. The term counts in
//! full when the owner is about to choose, and at [`PENDING_PERCENT`] when the next turn's
//! madness is still a move away (the opponent may dislodge X first).

use super::shogi::Weights;
use super::shogi_choice::ShogiEvaluator;
use super::Centipawns;
use crate::eval::expected::Value;
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Color;
use crate::rules::variants::madness::cards::CardModel;
use crate::rules::variants::madness::slide_destination;
use crate::rules::variants::madness::{CardValue, MadnessGame, Phase, CENTER};
use crate::rules::variants::shogi::{Kind, Position};

/// What the owner of 5e gains from an effect that captures the enemy king, or loses from
/// one that sends its own king to hand (counted as decisive material).
pub const DECISIVE: Centipawns = 6_000;

/// How much of the madness term counts when the owner of 5e is not choosing now.
pub const PENDING_PERCENT: i32 = 50;

/// The immediate gain of value `v`'s effect for `owner`'s piece on 5e, in centipawns.
pub fn effect_gain(pos: &Position, owner: Color, v: CardValue) -> Centipawns {
    let Some(x) = pos.piece_at(CENTER).filter(|p| p.color() == owner) else {
        return 0;
    };
    let weights = weights();
    let board = |k: Kind| weights.board[k.index()];
    let hand = |k: Kind| k.in_hand().map_or(0, |h| weights.hand[h.index()]);
    let kind = x.kind();
    match v.get() {
        1..=8 => {
            let Some(to) = slide_destination(pos, owner, v) else {
                return 0;
            };
            let capture = match pos.piece_at(to) {
                Some(victim) if victim.kind() == Kind::King => return DECISIVE,
                Some(victim) => board(victim.kind()) + hand(victim.kind()),
                None => 0,
            };
            let t = pos.tables();
            let zone = t.board.zone[owner.index()].contains(to);
            let promotion = if kind.can_promote() && zone {
                (board(kind.promoted()) - board(kind)).max(0)
            } else {
                0
            };
            capture + promotion
        }
        9 => {
            if kind.can_promote() {
                board(kind.promoted()) - board(kind)
            } else if kind.rules().is_promoted {
                kind.in_hand().map_or(0, |base| board(base) - board(kind))
            } else {
                0
            }
        }
        _ if kind == Kind::King => -DECISIVE,
        _ => hand(kind) - board(kind),
    }
}

fn weights() -> &'static Weights {
    static WEIGHTS: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
    WEIGHTS.get_or_init(Weights::default)
}

/// The gains of the ten values for `owner`'s piece on 5e, indexed by `CardValue::index`.
fn gains(pos: &Position, owner: Color) -> [Centipawns; 10] {
    CardValue::ALL.map(|v| effect_gain(pos, owner, v))
}

/// The mean gain of a d10.
fn roll_gain(gains: &[Centipawns; 10]) -> Centipawns {
    gains.iter().sum::<i32>() / 10
}

/// What the madness at `owner`'s next choice is worth to it: the roll, or the better of
/// card and roll for its card (averaged over the unseen cards when the model does not know
/// it). `roll_only` marks a player that never plays its card.
fn choice_gain<C: CardModel>(
    game: &MadnessGame<C>,
    owner: Color,
    gains: &[Centipawns; 10],
    roll_only: bool,
) -> Centipawns {
    let roll = roll_gain(gains);
    if roll_only {
        return roll;
    }
    let with_card = |v: CardValue| gains[v.index()].max(roll);
    if let Some(card) = game.cards().card_of(owner) {
        return with_card(card);
    }
    let outcomes = game.cards().reveal_outcomes(owner);
    let total: u32 = outcomes.iter().map(|(_, w)| w.0).sum();
    if total == 0 {
        return roll;
    }
    let mut sum = 0i64;
    for (action, weight) in &outcomes {
        if let Some(crate::rules::variants::madness::Token::Draw(v)) =
            crate::rules::variants::madness::Token::from_move(*action)
        {
            sum += with_card(v) as i64 * weight.0 as i64;
        }
    }
    (sum / total as i64) as Centipawns
}

/// The evaluation of `game` in centipawns from `pov`'s point of view: the board by the
/// standard shogi evaluation `shogi` (its net where the net fits the board, else its tables)
/// plus the madness term. `roll_only` names a player who never plays its card (its madness
/// counts at the roll's mean).
pub fn evaluate_cp<C: CardModel>(
    game: &MadnessGame<C>,
    pov: Color,
    roll_only: Option<Color>,
    shogi: &ShogiEvaluator,
) -> Centipawns {
    evaluate_cp_with_board(game, pov, roll_only, shogi.evaluate(game.position()))
}

/// [`evaluate_cp`] with the board already valued: `board` is the standard shogi evaluation
/// of the position for its side to move (the chance search computes it from the net's
/// accumulator).
pub fn evaluate_cp_with_board<C: CardModel>(
    game: &MadnessGame<C>,
    pov: Color,
    roll_only: Option<Color>,
    board: Centipawns,
) -> Centipawns {
    let pos = game.position();
    let board = if pos.side_to_move() == pov {
        board
    } else {
        -board
    };
    let Some(owner) = pos.piece_at(CENTER).map(|p| p.color()) else {
        return board;
    };
    let mover = pos.side_to_move();
    let table = gains(pos, owner);
    let madness = match game.phase() {
        Phase::MadnessChoice => choice_gain(game, owner, &table, roll_only == Some(owner)),
        Phase::Roll => roll_gain(&table),
        Phase::Over(_) | Phase::Deal(_) => 0,
        // This turn's madness is over (X may still be on 5e for its owner's next turn).
        Phase::Promotion(_) | Phase::Draw | Phase::Normal => {
            let full = choice_gain(game, owner, &table, roll_only == Some(owner));
            // The owner's next turn comes after the mover's move if the mover is the
            // opponent, else after two moves: weigh it less either way.
            let percent = if owner == mover {
                PENDING_PERCENT / 2
            } else {
                PENDING_PERCENT
            };
            full * percent / 100
        }
    };
    let madness = if owner == pov { madness } else { -madness };
    board + madness
}

/// The static value of `game` for `pov` on the chance search's scale, the board valued by
/// `shogi`.
pub fn evaluate<C: CardModel>(
    game: &MadnessGame<C>,
    pov: Color,
    roll_only: Option<Color>,
    shogi: &ShogiEvaluator,
) -> Value {
    Value::from_centipawns(evaluate_cp(game, pov, roll_only, shogi))
}

/// [`evaluate`] with the board already valued (see [`evaluate_cp_with_board`]).
pub fn evaluate_with_board<C: CardModel>(
    game: &MadnessGame<C>,
    pov: Color,
    roll_only: Option<Color>,
    board: Centipawns,
) -> Value {
    Value::from_centipawns(evaluate_cp_with_board(game, pov, roll_only, board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::variants::madness::TrueGame;

    fn dealt(sfen: &str, cards: &str) -> TrueGame {
        let mut game = TrueGame::from_sfen(sfen).unwrap();
        game.play_texts(cards.split_whitespace()).unwrap();
        game
    }

    #[test]
    fn effects_are_valued_from_the_centre() {
        // Sente's silver on 5e; a gote gold on 5a (south, toward rank a: value 3), gote's
        // king on 1a (south-west diagonal: value 4), sente's king on 9i.
        let game = dealt("4g3k/9/9/9/4S4/9/9/9/K8 b - 1", "draw:7 draw:3");
        let pos = game.position();
        let gold = Weights::default().board[Kind::Gold.index()]
            + Weights::default().hand[Kind::Gold.in_hand().unwrap().index()];
        let silver = |k: Kind| Weights::default().board[k.index()];
        let promote = silver(Kind::ProSilver) - silver(Kind::Silver);
        let three = CardValue::new(3).unwrap();
        // A slide into the zone promotes only when promoting gains (a fit may value the
        // promoted silver below the silver).
        assert_eq!(effect_gain(pos, Color::Sente, three), gold + promote.max(0));
        assert_eq!(
            effect_gain(pos, Color::Sente, CardValue::new(4).unwrap()),
            DECISIVE
        );
        // North slides to 5i: no capture, no zone.
        assert_eq!(
            effect_gain(pos, Color::Sente, CardValue::new(7).unwrap()),
            0
        );
        // 9 promotes the silver; 10 sends it to hand.
        assert_eq!(
            effect_gain(pos, Color::Sente, CardValue::new(9).unwrap()),
            promote
        );
        let to_hand =
            Weights::default().hand[Kind::Silver.in_hand().unwrap().index()] - silver(Kind::Silver);
        assert_eq!(
            effect_gain(pos, Color::Sente, CardValue::new(10).unwrap()),
            to_hand
        );
        // Gote owns nothing on 5e.
        assert_eq!(effect_gain(pos, Color::Gote, three), 0);
    }

    #[test]
    fn a_good_card_is_worth_more_than_a_bad_one_and_the_scale_is_bounded() {
        let sfen = "4g3k/9/9/9/4S4/9/9/9/K8 b - 1";
        let good = dealt(sfen, "draw:4 draw:3");
        let bad = dealt(sfen, "draw:7 draw:8");
        let hand = ShogiEvaluator::standard();
        assert_eq!(good.phase(), Phase::MadnessChoice);
        let (g, b) = (
            evaluate_cp(&good, Color::Sente, None, hand),
            evaluate_cp(&bad, Color::Sente, None, hand),
        );
        assert!(g > b, "{g} {b}");
        // A roll-only player values its card at the roll's mean.
        assert_eq!(
            evaluate_cp(&good, Color::Sente, Some(Color::Sente), hand),
            evaluate_cp(&bad, Color::Sente, Some(Color::Sente), hand)
        );
        assert_eq!(
            evaluate_cp(&good, Color::Gote, None, hand),
            -evaluate_cp(&good, Color::Sente, None, hand)
        );
        assert_eq!(Value::from_centipawns(0), Value(0));
        assert_eq!(Value::from_centipawns(1_000_000), Value::EVAL_MAX);
        assert_eq!(
            Value::from_centipawns(-1_000_000),
            Value(-Value::EVAL_MAX.0)
        );
        assert!(
            Value::from_centipawns(300).0 > 0
                && Value::from_centipawns(300).0 < Value::from_centipawns(600).0
        );
        let _ = good.node_kind();
    }

    #[test]
    fn the_net_values_the_board_and_the_madness_term_is_added_as_before() {
        let net = crate::eval::nnue::builtin::network();
        let hand = ShogiEvaluator::standard();
        // Sente's silver on 5e with a card that takes the gold (3): the madness term counts.
        let game = dealt("4g3k/9/9/9/4S4/9/9/9/K8 b - 1", "draw:3 draw:7");
        let pos = game.position();
        for pov in Color::BOTH {
            let sign = if pos.side_to_move() == pov { 1 } else { -1 };
            // The madness term: the hand-written value less its board.
            let term =
                evaluate_cp(&game, pov, None, hand) - sign * super::super::shogi::evaluate(pos);
            assert_ne!(term, 0, "{pov:?}");
            let expected = sign * net.evaluate(pos) + term;
            assert_eq!(
                evaluate_cp(&game, pov, None, &ShogiEvaluator::builtin_net()),
                expected
            );
            assert_eq!(
                evaluate(&game, pov, None, &ShogiEvaluator::builtin_net()),
                Value::from_centipawns(expected)
            );
            assert_ne!(
                evaluate(&game, pov, None, &ShogiEvaluator::builtin_net()),
                evaluate(&game, pov, None, hand),
                "{pov:?}"
            );
        }
    }

    #[test]
    fn a_board_the_net_cannot_read_is_valued_by_the_tables() {
        // No sente king on the board: the net needs both kings there. (A king in hand cannot
        // be written in an SFEN, and in play a king sent to hand ends the game.)
        let game = dealt("4g3k/9/9/9/4S4/9/9/9/9 b - 1", "draw:3 draw:7");
        assert!(!crate::eval::nnue::Network::fits(game.position()));
        let hand = ShogiEvaluator::standard();
        for pov in Color::BOTH {
            assert_eq!(
                evaluate_cp(&game, pov, None, &ShogiEvaluator::builtin_net()),
                evaluate_cp(&game, pov, None, hand)
            );
        }
        // The same board with the king on 9i is the net's.
        let kings = dealt("4g3k/9/9/9/4S4/9/9/9/K8 b - 1", "draw:3 draw:7");
        assert_ne!(
            evaluate_cp(&kings, Color::Sente, None, &ShogiEvaluator::builtin_net()),
            evaluate_cp(&kings, Color::Sente, None, hand)
        );
    }
}
