//! What the referee needs of each game beyond the rules' [`Game`] trait: start positions
//! and SFENs, USI move text (each game's own `notation` module), the USI options that
//! select the game, and how the rules alone end a game, with the reason named for the
//! record.
//!
//! The arbiter, openings and records are generic over [`RefereeGame`]; [`with_referee_game!`]
//! picks the implementation once per game from the registry (`rules::variants`), so no
//! part of the referee is copied per game. At a `NodeKind::Chance` node the arbiter draws
//! for nature and records the outcome's `move_text` as a token (`r:61`), so a chance game
//! needs only this trait.

use super::result::{GameResult, Reason};
use crate::rules::bitboard::Bitboard;
use crate::rules::dropshogi::{DropPosition, DropVariant};
use crate::rules::game::{Game, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::{chu, madness, shogammon, GameChoice, GameStart, Variant};
use crate::rules::xboard_moves::XBOARD_NULL_MOVE;

/// Runs `$body` with `$G` the referee's state type of the game `$variant` (a [`Variant`]).
macro_rules! with_referee_game {
    ($variant:expr, $G:ident => $body:expr) => {
        $crate::rules::variants::for_each_game!(
            $crate::referee::variant::referee_game_arms! { ($variant, $G => $body) }
        )
    };
}
pub(crate) use with_referee_game;

/// [`with_referee_game!`]'s arms, one per row of the registry.
macro_rules! referee_game_arms {
    ({ ($variant:expr, $G:ident => $body:expr) }
     $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
        match $variant {
            $( $crate::rules::variants::Variant::$Name => {
                type $G = $referee;
                $body
            } )*
        }
    };
}
pub(crate) use referee_game_arms;

/// The `setoption` pairs a USI engine gets before `isready` to play `game`: `USI_Variant`
/// and the game's rule options. Standard shogi sends none, so that engines that know no
/// `USI_Variant` work as before.
pub fn usi_options(game: GameChoice) -> Vec<(String, String)> {
    if game.variant == Variant::Shogi {
        return Vec::new();
    }
    std::iter::once(("USI_Variant".to_string(), game.variant.name().to_string()))
        .chain(
            game.rule_settings()
                .map(|(option, value)| (option.name().to_string(), value)),
        )
        .collect()
}

/// A variant's position as the referee drives it.
pub trait RefereeGame: Game + GameStart {
    /// The start position under `game`'s rule options.
    fn start(game: GameChoice) -> Self {
        Self::set_up(None, &game.options).expect("every start position reads")
    }
    /// Parses an SFEN under `game`'s rule options.
    fn from_sfen(text: &str, game: GameChoice) -> Result<Self, String> {
        Self::set_up(Some(text), &game.options).map_err(|e| e.to_string())
    }
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

impl RefereeGame for chu::Position {
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
    use crate::rules::variants::chu::ChuRules;

    /// Plays `action` in `game` and checks that it ended the game: sente took the last royal.
    fn sente_takes_the_last_royal<G: RefereeGame>(game: &mut G, action: &str) {
        let mv = game.parse_move(action).unwrap();
        game.play(mv);
        let end = game.rules_end().unwrap();
        assert_eq!(
            (end.winner, end.reason),
            (Some(Color::Sente), Reason::RoyalCapture),
            "{action}"
        );
    }

    #[test]
    fn usi_options_select_the_game_and_the_chu_rules() {
        assert!(usi_options(Variant::Shogi.into()).is_empty());
        let chu = usi_options(GameChoice::chu(ChuRules::Jcsa));
        assert_eq!(
            chu,
            vec![
                ("USI_Variant".to_string(), "chushogi".to_string()),
                ("ChuRules".to_string(), "jcsa".to_string())
            ]
        );
        assert_eq!(
            usi_options(Variant::Chukagamigi.into())[0].1,
            "chukagamigi".to_string()
        );
        assert_eq!(
            usi_options(Variant::Shogammon.into()),
            vec![
                ("USI_Variant".to_string(), "shogammon".to_string()),
                ("ShogammonDice".to_string(), "default".to_string())
            ]
        );
    }

    #[test]
    fn chu_judges_royal_capture_and_reads_the_xboard_null_move() {
        let variant = GameChoice::chu(ChuRules::Lishogi);
        // A lone sente Lion next to the gote king takes it.
        let mut pos = <chu::Position as RefereeGame>::from_sfen(
            "11g/12/12/12/12/6k5/6N5/12/12/12/12/K10G b - 1",
            variant,
        )
        .unwrap();
        assert_eq!(pos.rules_end(), None);
        sente_takes_the_last_royal(&mut pos, "6g6f");
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
        let pos = <chu::Position as RefereeGame>::start(GameChoice::chu(ChuRules::Churul));
        assert_eq!(pos.rules(), ChuRules::Churul);
        assert_eq!(pos.sfen(), GameChoice::chu(ChuRules::Churul).start_sfen());
    }

    #[test]
    fn the_madness_referee_judges_a_declaration_after_the_madness_phase() {
        use madness::TrueGame;
        let variant = GameChoice::from(Variant::Madness);
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
        let variant = GameChoice::from(Variant::Madness);
        assert_eq!(usi_options(variant)[0].1, "madness".to_string());
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
        sente_takes_the_last_royal(&mut game, "c:4");
    }
}
