//! Which game a match plays, and what the referee needs of each variant beyond the rules'
//! [`Game`] trait: start positions and SFENs, USI move text (each variant's own
//! `notation` module), the USI options that select the game, the CECP variant name, and
//! how the rules alone end a game, with the reason named for the record.
//!
//! The arbiter, openings and records are generic over [`RefereeGame`]; [`MatchVariant`]
//! picks the implementation once per game, so no part of the referee is copied per
//! variant. At a `NodeKind::Chance` node the arbiter draws for nature and records the
//! outcome's `move_text` as a token (`r:61`), so a chance variant needs only this trait.

use super::arbiter::{GameResult, Reason};
use crate::rules::bitboard::Bitboard;
use crate::rules::dropshogi::{DropPosition, DropVariant};
use crate::rules::game::{Game, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::chu::{self, ChuRules};
use crate::rules::variants::kagamigi;
use crate::rules::variants::madness;
use crate::rules::variants::shogammon;
use crate::rules::variants::shogi;
use crate::rules::xboard_moves::XBOARD_NULL_MOVE;
use std::fmt;

/// The game of a match, with the rule set the referee judges by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MatchVariant {
    /// Standard shogi (entering-king declarations judged by the CSA 27-point rule).
    #[default]
    Shogi,
    /// Chu Shogi under the given rule set, which USI engines are told as `ChuRules`.
    Chu(ChuRules),
    /// Chu Kagamigi with the default rulings.
    Kagamigi,
    /// Shogammon with the default die → piece table; the referee rolls the dice.
    Shogammon,
    /// Shogi of the Central Madness: the referee deals and rolls, and each engine is sent
    /// only what its player may see (the opponent's draws as `draw:?`).
    Madness,
}

impl MatchVariant {
    /// The `USI_Variant` value (docs/USI.md, "Choosing the game").
    pub fn usi_name(self) -> &'static str {
        match self {
            MatchVariant::Shogi => "shogi",
            MatchVariant::Chu(_) => "chushogi",
            MatchVariant::Kagamigi => "chukagamigi",
            MatchVariant::Shogammon => "shogammon",
            MatchVariant::Madness => "madness",
        }
    }

    /// The `setoption` pairs a USI engine gets before `isready` to play this game. Standard
    /// shogi sends none, so that engines that know no `USI_Variant` work as before.
    pub fn usi_options(self) -> Vec<(String, String)> {
        let variant = ("USI_Variant".to_string(), self.usi_name().to_string());
        match self {
            MatchVariant::Shogi => Vec::new(),
            MatchVariant::Chu(rules) => {
                vec![variant, ("ChuRules".to_string(), rules.name().to_string())]
            }
            MatchVariant::Kagamigi | MatchVariant::Shogammon | MatchVariant::Madness => {
                vec![variant]
            }
        }
    }

    /// The CECP `variant` name, or `None` when no CECP engine plays the game.
    pub fn cecp_name(self) -> Option<&'static str> {
        match self {
            MatchVariant::Shogi => Some("shogi"),
            MatchVariant::Chu(_) => Some("chu"),
            // Shishi's engine-defined variant (`shishi --xboard`, docs/XBOARD.md).
            MatchVariant::Kagamigi => Some("chukagamigi"),
            MatchVariant::Shogammon | MatchVariant::Madness => None,
        }
    }

    /// The board's files and ranks.
    pub fn board_size(self) -> (u8, u8) {
        match self {
            MatchVariant::Shogi | MatchVariant::Shogammon | MatchVariant::Madness => (9, 9),
            MatchVariant::Chu(_) | MatchVariant::Kagamigi => (12, 12),
        }
    }

    /// The start position's SFEN.
    pub fn start_sfen(self) -> &'static str {
        match self {
            MatchVariant::Shogi | MatchVariant::Madness => shogi::notation::START_SFEN,
            MatchVariant::Shogammon => shogammon::notation::START_SFEN,
            MatchVariant::Chu(_) => chu::notation::START_SFEN,
            MatchVariant::Kagamigi => kagamigi::notation::START_SFEN,
        }
    }
}

impl fmt::Display for MatchVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchVariant::Chu(rules) => write!(f, "chushogi (ChuRules {})", rules.name()),
            other => f.write_str(other.usi_name()),
        }
    }
}

/// A variant's position as the referee drives it.
pub trait RefereeGame: Game + Sized {
    /// The start position under `variant`'s rule set.
    fn start(variant: MatchVariant) -> Self;
    /// Parses an SFEN under `variant`'s rule set.
    fn from_sfen(text: &str, variant: MatchVariant) -> Result<Self, String>;
    fn sfen(&self) -> String;
    /// Reads a move (USI text; the variant may accept other spellings) and checks that it
    /// is legal here.
    fn parse_move(&self, text: &str) -> Result<Move, String>;
    /// The USI text of a legal move.
    fn move_text(&self, mv: Move) -> String;
    /// What `player` is sent of the action `mv` (legal here, not yet played): the whole
    /// move in games of perfect information; a hidden card as `draw:?` in the Madness.
    fn visible_text(&self, mv: Move, _player: Color) -> String {
        self.move_text(mv)
    }
    fn to_move(&self) -> Color;
    /// Whether a legal move leaves the board as it was (Chu's jitto).
    fn is_pass(&self, _mv: Move) -> bool {
        false
    }
    /// The end of the game by the rules alone, with its reason.
    fn rules_end(&self) -> Option<GameResult>;
    /// Judges `bestmove win` for the side to move: `None` if the variant has no such
    /// declaration, else whether it is valid (with the reason it is not).
    fn judge_declaration(&self) -> Option<Result<(), String>> {
        None
    }
}

fn ended(winner: Option<Color>, reason: Reason, detail: &str) -> GameResult {
    GameResult {
        winner,
        reason,
        detail: detail.to_string(),
    }
}

/// Repetition as shogi and Chu Kagamigi judge it: a draw, or a loss for perpetual check.
fn fourfold(outcome: Outcome) -> GameResult {
    match outcome {
        Outcome::Draw => ended(None, Reason::Repetition, "fourfold repetition"),
        Outcome::Win(w) => ended(
            Some(w),
            Reason::PerpetualCheck,
            "fourfold repetition with perpetual check",
        ),
    }
}

/// No legal move: checkmate if in check, else the stalemated side still loses.
fn no_move(loser: Color, in_check: bool) -> GameResult {
    if in_check {
        ended(Some(loser.flip()), Reason::Checkmate, "checkmate")
    } else {
        ended(Some(loser.flip()), Reason::NoLegalMove, "no legal move")
    }
}

/// Standard shogi and Chu Kagamigi (and any drop-shogi family member): the family's notation
/// and game end, and the member's entering-king declaration, if it has one.
impl<V: DropVariant> RefereeGame for DropPosition<V> {
    fn start(_: MatchVariant) -> Self {
        DropPosition::startpos()
    }
    fn from_sfen(text: &str, _: MatchVariant) -> Result<Self, String> {
        DropPosition::from_sfen(text).map_err(|e| e.to_string())
    }
    fn sfen(&self) -> String {
        self.to_sfen()
    }
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        self.parse_usi_move(text).map_err(|e| e.to_string())
    }
    fn move_text(&self, mv: Move) -> String {
        self.move_to_usi(mv)
    }
    fn to_move(&self) -> Color {
        self.side_to_move()
    }
    fn rules_end(&self) -> Option<GameResult> {
        let outcome = self.outcome()?;
        Some(if !self.has_legal_move() {
            no_move(self.side_to_move(), self.in_check())
        } else {
            fourfold(outcome)
        })
    }
    fn judge_declaration(&self) -> Option<Result<(), String>> {
        V::judge_declaration(self)
    }
}

impl RefereeGame for shogammon::Position {
    fn start(_: MatchVariant) -> Self {
        shogammon::Position::startpos()
    }
    fn from_sfen(text: &str, _: MatchVariant) -> Result<Self, String> {
        shogammon::Position::from_sfen(text).map_err(|e| e.to_string())
    }
    fn sfen(&self) -> String {
        self.to_sfen()
    }
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let action = self.parse_action(text).map_err(|e| e.to_string())?;
        // Only a decision of the side to move: never a roll played for nature.
        if self.is_chance() {
            return Err(format!("{text}: the dice are the referee's to roll"));
        }
        Ok(action)
    }
    fn move_text(&self, mv: Move) -> String {
        self.action_to_usi(mv)
    }
    fn to_move(&self) -> Color {
        self.side_to_move()
    }
    fn rules_end(&self) -> Option<GameResult> {
        match self.outcome()? {
            Outcome::Win(winner) => Some(ended(
                Some(winner),
                Reason::RoyalCapture,
                "the king was captured",
            )),
            Outcome::Draw => Some(ended(None, Reason::MoveLimit, "drawn by the rules")),
        }
    }
}

impl RefereeGame for madness::TrueGame {
    fn start(_: MatchVariant) -> Self {
        madness::TrueGame::startpos()
    }
    fn from_sfen(text: &str, _: MatchVariant) -> Result<Self, String> {
        madness::TrueGame::from_sfen(text).map_err(|e| e.to_string())
    }
    fn sfen(&self) -> String {
        self.position().to_sfen()
    }
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let mv = self.parse_action(text).map_err(|e| e.to_string())?;
        // Only a decision of the side to move: never a chance token played for nature.
        let mut legal = MoveList::new();
        if !self.is_chance() {
            self.legal_actions(&mut legal);
        }
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(format!("{text} is not a decision of the player to act"))
        }
    }
    fn move_text(&self, mv: Move) -> String {
        self.action_text(mv)
    }
    fn visible_text(&self, mv: Move, player: Color) -> String {
        self.action_text(madness::view::visible_to(self, mv, player))
    }
    fn to_move(&self) -> Color {
        self.side_to_move()
    }
    fn rules_end(&self) -> Option<GameResult> {
        let outcome = self.outcome()?;
        Some(match (self.phase(), outcome) {
            (madness::Phase::Over(winner), _) => ended(
                Some(winner),
                Reason::RoyalCapture,
                "a king was captured, or sent to hand by its own madness",
            ),
            (madness::Phase::Normal, Outcome::Win(winner)) if self.count_legal_actions() == 0 => {
                no_move(winner.flip(), self.position().in_check())
            }
            (_, outcome) => fourfold(outcome),
        })
    }
    fn judge_declaration(&self) -> Option<Result<(), String>> {
        Some(madness::TrueGame::judge_declaration(self))
    }
}

fn chu_rules(variant: MatchVariant) -> ChuRules {
    match variant {
        MatchVariant::Chu(rules) => rules,
        _ => ChuRules::default(),
    }
}

impl RefereeGame for chu::Position {
    fn start(variant: MatchVariant) -> Self {
        chu::Position::startpos_with(chu_rules(variant))
    }
    fn from_sfen(text: &str, variant: MatchVariant) -> Result<Self, String> {
        chu::Position::from_sfen_with(text, chu_rules(variant)).map_err(|e| e.to_string())
    }
    fn sfen(&self) -> String {
        self.to_sfen()
    }
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        if text == XBOARD_NULL_MOVE {
            return self
                .jitto()
                .ok_or_else(|| format!("{text} (jitto): no piece can pass here"));
        }
        self.parse_usi_move(text).map_err(|e| e.to_string())
    }
    fn move_text(&self, mv: Move) -> String {
        self.move_to_usi(mv)
    }
    fn to_move(&self) -> Color {
        self.side_to_move()
    }
    fn is_pass(&self, mv: Move) -> bool {
        self.is_jitto(mv)
    }
    fn rules_end(&self) -> Option<GameResult> {
        let us = self.side_to_move();
        if self.royals(us).is_empty() {
            return Some(ended(
                Some(us.flip()),
                Reason::RoyalCapture,
                "the last royal was captured",
            ));
        }
        if !self.has_legal_move() {
            return Some(no_move(us, false));
        }
        if let Some(outcome) = self.bare_king_outcome() {
            return Some(match outcome {
                Outcome::Win(w) => ended(
                    Some(w),
                    Reason::BareKing,
                    &format!("bare king ({} rules)", self.rules().name()),
                ),
                Outcome::Draw => ended(
                    None,
                    Reason::BareKing,
                    &format!(
                        "neither side can win: bare kings ({} rules)",
                        self.rules().name()
                    ),
                ),
            });
        }
        self.repetition_outcome().map(|outcome| match outcome {
            Outcome::Draw => ended(None, Reason::Repetition, "fourfold repetition"),
            Outcome::Win(w) => ended(
                Some(w),
                Reason::RepetitionLoss,
                &format!(
                    "fourfold repetition, lost by the side the {} rules blame",
                    self.rules().name()
                ),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_options_select_the_game_and_the_chu_rules() {
        assert!(MatchVariant::Shogi.usi_options().is_empty());
        let chu = MatchVariant::Chu(ChuRules::Jcsa).usi_options();
        assert_eq!(
            chu,
            vec![
                ("USI_Variant".to_string(), "chushogi".to_string()),
                ("ChuRules".to_string(), "jcsa".to_string())
            ]
        );
        assert_eq!(
            MatchVariant::Kagamigi.usi_options()[0].1,
            "chukagamigi".to_string()
        );
        assert_eq!(MatchVariant::Kagamigi.cecp_name(), Some("chukagamigi"));
        assert_eq!(MatchVariant::Shogammon.cecp_name(), None);
    }

    #[test]
    fn chu_judges_royal_capture_and_reads_the_xboard_null_move() {
        let variant = MatchVariant::Chu(ChuRules::Lishogi);
        // A lone sente Lion next to the gote king takes it.
        let mut pos = <chu::Position as RefereeGame>::from_sfen(
            "11g/12/12/12/12/6k5/6N5/12/12/12/12/K10G b - 1",
            variant,
        )
        .unwrap();
        assert_eq!(pos.rules_end(), None);
        let take = pos.parse_move("6g6f").unwrap();
        pos.play(take);
        let end = pos.rules_end().unwrap();
        assert_eq!(
            (end.winner, end.reason),
            (Some(Color::Sente), Reason::RoyalCapture)
        );
        // Jitto spelt as XBoard's null move is one of the Lion's passes.
        let pos = <chu::Position as RefereeGame>::from_sfen(
            "11k/12/12/12/12/6N5/12/12/12/12/12/K11 b - 1",
            variant,
        )
        .unwrap();
        let pass = pos.parse_move(XBOARD_NULL_MOVE).unwrap();
        assert_eq!(pass.from(), Some(pass.to()));
        assert!(pos.is_pass(pass));
        assert!(!pos.is_pass(pos.parse_move("6f6e").unwrap()));
        assert_eq!(pos.parse_move("6f6g6f").unwrap(), pass);
        let no_lion = <chu::Position as RefereeGame>::start(variant);
        assert!(no_lion.parse_move(XBOARD_NULL_MOVE).is_err());
    }

    #[test]
    fn the_rule_set_reaches_the_chu_position() {
        let pos = <chu::Position as RefereeGame>::start(MatchVariant::Chu(ChuRules::Churul));
        assert_eq!(pos.rules(), ChuRules::Churul);
        assert_eq!(pos.sfen(), MatchVariant::Chu(ChuRules::Churul).start_sfen());
    }

    #[test]
    fn the_madness_referee_judges_a_declaration_after_the_madness_phase() {
        use madness::TrueGame;
        let variant = MatchVariant::Madness;
        let entering = "+R+BGGGG1K1/SSS6/9/9/4S4/pppppppp1/9/9/4k4 b 10Prb4n4l 1";
        let mut game = <TrueGame as RefereeGame>::from_sfen(entering, variant).unwrap();
        for token in ["draw:3", "draw:9"] {
            game.play(game.parse_action(token).unwrap());
        }
        assert!(matches!(
            RefereeGame::judge_declaration(&game),
            Some(Err(_))
        ));
        for token in ["c:3", "mad=", "draw:5"] {
            game.play(game.parse_action(token).unwrap());
        }
        assert_eq!(RefereeGame::judge_declaration(&game), Some(Ok(())));
    }

    #[test]
    fn the_madness_referee_reads_only_decisions_and_hides_the_opponents_draws() {
        use madness::TrueGame;
        let variant = MatchVariant::Madness;
        assert_eq!(variant.usi_options()[0].1, "madness".to_string());
        let mut game = <TrueGame as RefereeGame>::start(variant);
        assert_eq!(game.sfen(), variant.start_sfen());
        // The deal is nature's: no engine may play it, and each sees only its own card.
        assert!(game.parse_move("draw:3").is_err());
        let sente_card = game.parse_action("draw:3").unwrap();
        assert_eq!(game.visible_text(sente_card, Color::Sente), "draw:3");
        assert_eq!(game.visible_text(sente_card, Color::Gote), "draw:?");
        game.play(sente_card);
        let gote_card = game.parse_action("draw:5").unwrap();
        assert_eq!(game.visible_text(gote_card, Color::Sente), "draw:?");
        assert_eq!(game.visible_text(gote_card, Color::Gote), "draw:5");
        game.play(gote_card);
        // No madness without a piece on 5e: only a normal move is a decision here.
        for wrong in ["c:3", "roll", "r:4", "mad+", "draw:?", "5e5d"] {
            assert!(game.parse_move(wrong).is_err(), "{wrong}");
        }
        let mv = game.parse_move("7g7f").unwrap();
        assert_eq!(game.visible_text(mv, Color::Gote), "7g7f");
        assert_eq!(game.rules_end(), None);

        // Sente's silver on 5e holds card 4, which slides it onto gote's king on 1a.
        let mut game =
            <TrueGame as RefereeGame>::from_sfen("4g3k/9/9/9/4S4/9/9/9/K8 b - 1", variant).unwrap();
        game.play_texts(["draw:4", "draw:1"]).unwrap();
        assert!(
            game.parse_move("c:1").is_err(),
            "gote's card is not sente's"
        );
        assert!(game.parse_move("r:4").is_err(), "a die is nature's");
        let card = game.parse_move("c:4").unwrap();
        game.play(card);
        let end = game.rules_end().unwrap();
        assert_eq!(
            (end.winner, end.reason),
            (Some(Color::Sente), Reason::RoyalCapture)
        );
    }
}
