//! One served game's true state in whichever game of the registry it plays, and the one place
//! that dispatches from the game to code written once per game: the rules through the
//! referee's [`RefereeGame`] (legal decisions, move text, what each player may see, how the
//! rules end the game), positions as a player or the engine sees them through the USI
//! reader ([`UsiPosition`]), and the drawn board through `analyse`'s [`Diagram`].

use crate::cli::analyse::diagram::{Board, Diagram};
use crate::referee::result::GameResult;
use crate::referee::variant::RefereeGame;
use crate::rules::game::{Game, NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::shogammon::ShogammonDice;
use crate::rules::variants::{for_each_game, GameChoice, GameStart, Variant};
use crate::usi::position::{game_state_enum, with_position, RuleOptions, UsiPosition};

/// What a game is set up with: the game, its rule options and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRules {
    pub variant: Variant,
    pub options: RuleOptions,
    /// The start position's SFEN, or `None` for the game's own start position.
    pub start_sfen: Option<String>,
}

impl GameRules {
    /// The game with its rule options.
    fn choice(&self) -> GameChoice {
        GameChoice::new(self.variant, self.options)
    }

    /// The start of a USI `position` command: `startpos` or `sfen <sfen>`.
    pub fn position_words(&self) -> Vec<String> {
        crate::record::position_setup_words(self.start_sfen.as_deref())
    }

    /// The SFEN the game started from.
    pub fn start_sfen_text(&self) -> String {
        match &self.start_sfen {
            Some(sfen) => sfen.clone(),
            None => self.choice().start_sfen().to_string(),
        }
    }
}

for_each_game!(game_state_enum! {
    /// The referee's true state of one game.
    #[derive(Clone, Debug)]
    pub enum TrueState: referee
});

/// Runs `$body` with `$g` bound to the true state as a `RefereeGame`.
macro_rules! with_truth {
    ($value:expr, $g:ident => $body:expr) => {
        for_each_game!(truth_arms! { ($value, $g => $body) })
    };
}

/// [`with_truth!`]'s arms, one per row of the registry.
macro_rules! truth_arms {
    ({ ($value:expr, $g:ident => $body:expr) }
     $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
        match $value {
            $( TrueState::$Name($g) => $body, )*
        }
    };
}

/// Who acts next in a game that is not over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// The rules ended the game.
    Over(GameResult),
    /// Nature: a roll or a card, with the outcomes' weights.
    Chance(Vec<(Move, Weight)>),
    /// This side decides.
    Decision(Color),
}

impl TrueState {
    /// The start of the game `rules` describe; an SFEN the game refuses is an error.
    pub fn new(rules: &GameRules) -> Result<TrueState, String> {
        macro_rules! new_arms {
            ({} $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
                match rules.variant {
                    $( Variant::$Name => TrueState::$Name(Box::new(
                        <$referee as GameStart>::set_up(rules.start_sfen.as_deref(), &rules.options)
                            .map_err(|e| e.to_string())?,
                    )), )*
                }
            };
        }
        Ok(for_each_game!(new_arms! {}))
    }

    /// Who acts next, or how the rules ended the game.
    pub fn next(&self) -> Next {
        with_truth!(self, g => {
            if let Some(end) = g.rules_end() {
                return Next::Over(end);
            }
            match g.node_kind() {
                NodeKind::Chance(outcomes) => Next::Chance(outcomes),
                NodeKind::Decision(side) => Next::Decision(side),
            }
        })
    }

    /// The text of every legal decision of the side to act (empty at a chance node).
    pub fn legal_decisions(&self) -> Vec<String> {
        with_truth!(self, g => {
            if g.is_chance() || g.rules_end().is_some() {
                return Vec::new();
            }
            let mut legal = MoveList::new();
            g.legal_actions(&mut legal);
            legal.iter().map(|&mv| g.move_text(mv)).collect()
        })
    }

    /// Reads a decision of the side to act; anything else (a chance token, an illegal move,
    /// text that is no move) is an error.
    pub fn parse_decision(&self, text: &str) -> Result<Move, String> {
        with_truth!(self, g => {
            if g.is_chance() {
                return Err("the next event is the server's roll or deal".to_string());
            }
            let mv = g.parse_move(text)?;
            let mut legal = MoveList::new();
            g.legal_actions(&mut legal);
            if legal.contains(&mv) {
                Ok(mv)
            } else {
                Err(format!("{text} is not legal here"))
            }
        })
    }

    /// The true text of `mv` and what each side is shown of it (indexed by colour).
    pub fn texts(&self, mv: Move) -> (String, [String; 2]) {
        with_truth!(self, g => (
            g.move_text(mv),
            [g.visible_text(mv, Color::Sente), g.visible_text(mv, Color::Gote)],
        ))
    }

    pub fn play(&mut self, mv: Move) {
        with_truth!(self, g => Game::play(g.as_mut(), mv))
    }

    pub fn unplay(&mut self) {
        with_truth!(self, g => Game::unplay(g.as_mut()))
    }

    /// The current position's SFEN (the board; the Madness's cards are not in it).
    pub fn sfen(&self) -> String {
        with_truth!(self, g => g.sfen())
    }

    /// Whether the side to move may declare an entering-king win now (`None`: no such rule).
    pub fn judge_declaration(&self) -> Option<Result<(), String>> {
        with_truth!(self, g => RefereeGame::judge_declaration(g.as_ref()))
    }

    /// Whether the legal move `mv` leaves the board as it was (Chu's jitto).
    pub fn is_pass(&self, mv: Move) -> bool {
        with_truth!(self, g => g.is_pass(mv))
    }
}

/// The position a player (or the engine playing it) may know: the start position and the
/// tokens that side was shown, read as a USI `position` command is read. In the Madness it
/// is that player's view, which holds no unplayed card of the opponent.
pub fn seen_position(
    rules: &GameRules,
    shown: impl Iterator<Item = String>,
) -> Result<UsiPosition, String> {
    let mut words = rules.position_words();
    words.push("moves".to_string());
    words.extend(shown);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    UsiPosition::parse(&args, rules.variant, rules.options)
}

/// The board of a position as the page draws it.
pub fn board_of(position: &UsiPosition) -> Board {
    with_position!(position, pos => pos.board(), cpos => cpos.board())
}

/// Reads a Chu rule set or a Shogammon dice table by name, as the page sends them.
pub fn rule_options(chu_rules: Option<&str>, dice: Option<&str>) -> Result<RuleOptions, String> {
    let chu_rules = match chu_rules {
        None => ChuRules::default(),
        Some(name) => {
            ChuRules::from_name(name).ok_or_else(|| format!("unknown Chu rule set {name:?}"))?
        }
    };
    let dice = match dice {
        None => ShogammonDice::default(),
        Some(name) => ShogammonDice::parse(name)?,
    };
    Ok(RuleOptions { chu_rules, dice })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(variant: Variant) -> GameRules {
        GameRules {
            variant,
            options: RuleOptions::default(),
            start_sfen: None,
        }
    }

    #[test]
    fn every_game_starts_and_a_decision_plays_and_unplays() {
        for &variant in Variant::ALL {
            let mut truth = TrueState::new(&rules(variant)).unwrap();
            let start = truth.sfen();
            // Let nature act until someone decides, as the session does.
            let mut plays = 0;
            while let Next::Chance(outcomes) = truth.next() {
                truth.play(outcomes[0].0);
                plays += 1;
            }
            assert_eq!(truth.next(), Next::Decision(Color::Sente), "{variant:?}");
            let legal = truth.legal_decisions();
            assert!(!legal.is_empty(), "{variant:?}");
            let mv = truth.parse_decision(&legal[0]).unwrap();
            truth.play(mv);
            truth.unplay();
            for _ in 0..plays {
                truth.unplay();
            }
            assert_eq!(truth.sfen(), start, "{variant:?}");
            assert!(truth.parse_decision("not-a-move").is_err());
        }
    }

    #[test]
    fn the_madness_deal_is_hidden_from_the_other_side() {
        let truth = TrueState::new(&rules(Variant::Madness)).unwrap();
        let Next::Chance(outcomes) = truth.next() else {
            panic!("the deal comes first")
        };
        let (true_text, shown) = truth.texts(outcomes[0].0);
        assert!(true_text.starts_with("draw:") && true_text != "draw:?");
        assert_eq!(shown[Color::Sente.index()], true_text);
        assert_eq!(shown[Color::Gote.index()], "draw:?");
        assert!(
            truth.parse_decision(&true_text).is_err(),
            "a deal is nature's"
        );
    }

    #[test]
    fn rule_options_are_read_by_name() {
        let options = rule_options(Some("jcsa"), Some("knight3")).unwrap();
        assert_eq!(options.chu_rules, ChuRules::Jcsa);
        assert!(rule_options(Some("nonsense"), None).is_err());
        assert!(rule_options(None, Some("P/P/P/P/P/P")).is_err());
    }
}
