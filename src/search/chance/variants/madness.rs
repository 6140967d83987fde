//! The chance search on Central Madness: [`ChanceGame`] for [`MadnessGame`] (a player's
//! [`PlayerView`](crate::rules::variants::madness::PlayerView) in play, the referee's
//! [`TrueGame`](crate::rules::variants::madness::TrueGame) in tests) and [`RollOnly`], the
//! same game for a player who never plays its card (the baseline the card-aware player is
//! measured against).
//!
//! Depth: one unit per normal move or drop, none for the madness steps (`c:N`, `roll`,
//! `mad+`/`mad=`), so a horizon always falls between turns' normal moves and the card-or-roll
//! choice is searched to the same depth on both branches: the search compares `c:N` with
//! `roll` (a chance node over the d10) by expectation. Evaluation: [`crate::eval::madness`];
//! the board is the game's shogi board ([`ChanceGame::shogi_board`]), so that the searcher
//! keeps the net's accumulator of it: a normal move or drop updates it, a card or die effect
//! or `mad+` recomputes it, the other tokens leave the board alone.

use crate::eval::madness;
use crate::eval::nnue::{Accumulator, Network};
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::madness::cards::CardModel;
use crate::rules::variants::madness::{MadnessGame, Phase, Token};
use crate::rules::variants::shogi::Position;
use crate::search::chance::{BoardStep, ChanceGame, Depth, LeafEvaluators, Value};

/// The rules' outcome, or a win by an entering-king declaration the player to act could make
/// now under the game's declaration rule.
fn declared<C: CardModel>(game: &MadnessGame<C>) -> Option<Outcome> {
    game.outcome().or_else(|| {
        game.can_declare_win()
            .then(|| Outcome::Win(game.side_to_move()))
    })
}

/// One depth unit for a normal move or drop, none for a madness token.
fn madness_depth_cost(action: Move) -> Depth {
    match Token::from_move(action) {
        Some(_) => Depth(0),
        None => Depth(1),
    }
}

/// Whether the normal move `action` lands on an enemy piece.
fn captures<C: CardModel>(game: &MadnessGame<C>, action: Move) -> bool {
    Token::from_move(action).is_none()
        && !action.is_drop()
        && game
            .position()
            .piece_at(action.to())
            .is_some_and(|p| p.color() != game.side_to_move())
}

/// What `action` does to the board: a normal move or drop plays on it unless it takes the
/// king (the game ends on the board as it stood); a card or die effect and `mad+` edit it;
/// draws, `roll` and `mad=` leave it alone.
fn madness_board_step<C: CardModel>(game: &MadnessGame<C>, action: Move) -> BoardStep {
    match Token::from_move(action) {
        None if game.captures_king(action) => BoardStep::Unchanged,
        None => BoardStep::Shogi(action),
        Some(Token::Card(_) | Token::Die(_) | Token::Promote) => BoardStep::Other,
        Some(Token::Roll | Token::Draw(_) | Token::DrawHidden | Token::Decline) => {
            BoardStep::Unchanged
        }
    }
}

impl<C: CardModel> ChanceGame for MadnessGame<C> {
    fn evaluate(&self, pov: Color, evals: &LeafEvaluators) -> Value {
        madness::evaluate(self, pov, None, &evals.shogi)
    }

    fn shogi_board(&self) -> Option<&Position> {
        Some(self.position())
    }

    fn board_step(&self, action: Move, _net: &Network) -> BoardStep {
        madness_board_step(self, action)
    }

    fn evaluate_with_accumulator(
        &self,
        pov: Color,
        _evals: &LeafEvaluators,
        net: &Network,
        acc: &Accumulator,
    ) -> Value {
        let board = net.score(acc, self.position().side_to_move());
        madness::evaluate_with_board(self, pov, None, board)
    }

    fn is_capture(&self, action: Move) -> bool {
        captures(self, action)
    }

    fn depth_cost(&self, action: Move) -> Depth {
        madness_depth_cost(action)
    }

    fn search_outcome(&self) -> Option<Outcome> {
        declared(self)
    }
}

/// A Madness game in which `roller` never plays its card: at its card-or-roll decisions
/// only `roll` is legal. The other side keeps both choices (the searcher assumes a
/// card-aware opponent). The evaluation values `roller`'s madness at the roll's mean.
#[derive(Clone, Debug)]
pub struct RollOnly<C: CardModel> {
    pub game: MadnessGame<C>,
    pub roller: Color,
}

impl<C: CardModel> RollOnly<C> {
    /// Whether `roller` is at its card-or-roll decision now.
    fn roller_chooses(&self) -> bool {
        self.game.phase() == Phase::MadnessChoice
            && self.game.side_to_move() == self.roller
            && matches!(self.game.node_kind(), NodeKind::Decision(_))
    }
}

impl<C: CardModel> Game for RollOnly<C> {
    fn node_kind(&self) -> NodeKind {
        self.game.node_kind()
    }

    fn legal_actions(&self, out: &mut MoveList) {
        if self.roller_chooses() {
            out.push(Token::Roll.to_move());
        } else {
            self.game.legal_actions(out);
        }
    }

    fn count_legal_actions(&self) -> u64 {
        if self.roller_chooses() {
            1
        } else {
            self.game.count_legal_actions()
        }
    }

    fn play(&mut self, action: Move) {
        self.game.play(action);
    }

    fn unplay(&mut self) {
        self.game.unplay();
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
}

impl<C: CardModel> ChanceGame for RollOnly<C> {
    fn evaluate(&self, pov: Color, evals: &LeafEvaluators) -> Value {
        madness::evaluate(&self.game, pov, Some(self.roller), &evals.shogi)
    }

    fn shogi_board(&self) -> Option<&Position> {
        Some(self.game.position())
    }

    fn board_step(&self, action: Move, _net: &Network) -> BoardStep {
        madness_board_step(&self.game, action)
    }

    fn evaluate_with_accumulator(
        &self,
        pov: Color,
        _evals: &LeafEvaluators,
        net: &Network,
        acc: &Accumulator,
    ) -> Value {
        let board = net.score(acc, self.game.position().side_to_move());
        madness::evaluate_with_board(&self.game, pov, Some(self.roller), board)
    }

    fn is_capture(&self, action: Move) -> bool {
        captures(&self.game, action)
    }

    fn depth_cost(&self, action: Move) -> Depth {
        madness_depth_cost(action)
    }

    fn search_outcome(&self) -> Option<Outcome> {
        declared(&self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shogi_choice::ShogiEvaluator;
    use crate::rules::variants::madness::{PlayerView, TrueGame};
    use crate::search::chance::reference::{expectimax, expectimax_at_ply};
    use crate::search::chance::{ChanceLimits, ChanceResult, ChanceSearcher, ChanceSettings};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Sente's silver on 5e; a gote gold on 5a (value 3 takes it), gote's king on 1a (value
    /// 4 takes it), sente's king on 9i.
    const CENTRE_SILVER: &str = "4g3k/9/9/9/4S4/9/9/9/K8 b - 1";

    fn view(sfen: &str, me: Color, tokens: &str) -> PlayerView {
        let mut game = PlayerView::from_sfen(sfen, me).unwrap();
        game.play_texts(tokens.split_whitespace()).unwrap();
        game
    }

    fn search<G: ChanceGame>(game: &mut G, pov: Color, depth: u32) -> ChanceResult {
        search_with(game, pov, depth, LeafEvaluators::standard())
    }

    /// [`search`] with the board valued by `evals.shogi`'s net, if it has one.
    fn search_with<G: ChanceGame>(
        game: &mut G,
        pov: Color,
        depth: u32,
        evals: &LeafEvaluators,
    ) -> ChanceResult {
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        searcher.set_network(evals.shogi.net.clone());
        let limits = ChanceLimits {
            depth: Some(Depth(depth)),
            ..ChanceLimits::default()
        };
        searcher.search(game, pov, &limits, &Arc::new(AtomicBool::new(false)))
    }

    fn best<G: ChanceGame>(game: &mut G, pov: Color, depth: u32) -> (Move, Value) {
        let result = search(game, pov, depth);
        (result.best[0], result.value)
    }

    fn reference<G: ChanceGame>(game: &mut G, pov: Color, depth: u32) -> Value {
        expectimax(game, Depth(depth), pov).0
    }

    #[test]
    fn madness_steps_are_free_and_normal_moves_cost_one() {
        let game = view(CENTRE_SILVER, Color::Sente, "draw:4 draw:?");
        for token in [Token::Roll, Token::Promote, Token::Decline] {
            assert_eq!(game.depth_cost(token.to_move()), Depth(0));
        }
        let mut after = game.clone();
        after.play(Token::Roll.to_move());
        after.play(
            Token::Die(crate::rules::variants::madness::CardValue::new(7).unwrap()).to_move(),
        );
        let mut normal = MoveList::new();
        after.legal_actions(&mut normal);
        assert!(!normal.is_empty());
        assert!(normal.iter().all(|m| after.depth_cost(*m) == Depth(1)));
    }

    #[test]
    fn the_card_that_takes_the_king_is_played_and_a_useless_one_is_not() {
        // Card 4 takes the king at once: certain win, better than any roll.
        let mut game = view(CENTRE_SILVER, Color::Sente, "draw:4 draw:?");
        let (action, value) = best(&mut game, Color::Sente, 1);
        assert_eq!(game.action_text(action), "c:4");
        assert_eq!(value, Value::win_in(1));
        // Card 7 only slides the silver away to 5i; a roll wins with 4 a tenth of the time.
        let mut game = view(CENTRE_SILVER, Color::Sente, "draw:7 draw:?");
        let (action, _) = best(&mut game, Color::Sente, 1);
        assert_eq!(game.action_text(action), "roll");
        // The roll-only player rolls even holding the winning card.
        let mut roller = RollOnly {
            game: view(CENTRE_SILVER, Color::Sente, "draw:4 draw:?"),
            roller: Color::Sente,
        };
        let (action, value) = best(&mut roller, Color::Sente, 1);
        assert_eq!(roller.game.action_text(action), "roll");
        assert!(value < Value::win_in(1));
    }

    #[test]
    fn the_search_matches_expectimax_on_views_and_the_truth() {
        // Gote's view before sente's choice: a chance node over sente's unseen card.
        let mut game = view(CENTRE_SILVER, Color::Gote, "draw:? draw:2");
        assert!(game.is_chance());
        let value = search(&mut game, Color::Gote, 2).value;
        assert_eq!(value, reference(&mut game, Color::Gote, 2));
        let mut truth = TrueGame::from_sfen(CENTRE_SILVER).unwrap();
        truth.play_texts(["draw:6", "draw:2"]).unwrap();
        let (_, value) = best(&mut truth, Color::Sente, 2);
        assert_eq!(value, reference(&mut truth, Color::Sente, 2));
        let mut roller = RollOnly {
            game: view(CENTRE_SILVER, Color::Sente, "draw:6 draw:?"),
            roller: Color::Sente,
        };
        let (_, value) = best(&mut roller, Color::Sente, 2);
        assert_eq!(value, reference(&mut roller, Color::Sente, 2));
    }

    #[test]
    fn with_the_net_the_search_matches_expectimax_with_the_net() {
        let net = LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net());
        // Gote's view before sente's choice, the truth after the deal, the roll-only player.
        let mut game = view(CENTRE_SILVER, Color::Gote, "draw:? draw:2");
        let value = search_with(&mut game, Color::Gote, 2, &net).value;
        assert_eq!(
            value,
            expectimax_at_ply(&mut game, Depth(2), Color::Gote, 0, &net).0
        );
        assert_ne!(value, search(&mut game, Color::Gote, 2).value);
        let mut truth = TrueGame::from_sfen(CENTRE_SILVER).unwrap();
        truth.play_texts(["draw:6", "draw:2"]).unwrap();
        let value = search_with(&mut truth, Color::Sente, 2, &net).value;
        assert_eq!(
            value,
            expectimax_at_ply(&mut truth, Depth(2), Color::Sente, 0, &net).0
        );
        let mut roller = RollOnly {
            game: view(CENTRE_SILVER, Color::Sente, "draw:6 draw:?"),
            roller: Color::Sente,
        };
        let value = search_with(&mut roller, Color::Sente, 2, &net).value;
        assert_eq!(
            value,
            expectimax_at_ply(&mut roller, Depth(2), Color::Sente, 0, &net).0
        );
    }
}
