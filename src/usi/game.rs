//! The position the USI engine holds, in whichever game `USI_Variant` selected, and the one
//! place that dispatches from that choice to code written once per game: `position` parsing
//! here, searches through [`UsiGame`] (alpha-beta games) or `chance::UsiChanceGame` (dice
//! and cards) in `worker`.

use super::chance::ChanceText;
use super::options::Variant;
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::GameText;
use crate::rules::variants::chu::{self, ChuRules};
use crate::rules::variants::kagamigi;
use crate::rules::variants::madness;
use crate::rules::variants::shogammon::{self, ShogammonDice};
use crate::rules::variants::shogi;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::game::SearchGame;

/// What the USI layer needs of a game beyond search and notation.
pub trait UsiGame: SearchGame + GameText {
    /// Whether the side to move may declare a win now (`bestmove win`); only shogi's
    /// entering-king rule allows it.
    fn can_declare_win(&self, _rule: EnteringKingRule) -> bool {
        false
    }
}

impl UsiGame for shogi::Position {
    fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        shogi::Position::can_declare_win(self, rule)
    }
}

impl UsiGame for chu::Position {}

impl UsiGame for kagamigi::Position {}

/// The rule options that decide how a `position` is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleOptions {
    pub chu_rules: ChuRules,
    pub dice: ShogammonDice,
}

/// A state of one of the five games. Only the Madness's state differs between who holds
/// it: a player's view (`M` = [`madness::PlayerView`]) or the referee's truth
/// ([`madness::TrueGame`]); the other games show everyone everything.
#[derive(Clone, Debug)]
pub enum AnyGame<M> {
    Shogi(Box<shogi::Position>),
    Chu(Box<chu::Position>),
    Kagamigi(Box<kagamigi::Position>),
    Shogammon(Box<shogammon::Position>),
    Madness(Box<M>),
}

impl<M> AnyGame<M> {
    /// The game's name as `USI_Variant` spells it.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Shogi(_) => Variant::Shogi,
            AnyGame::Chu(_) => Variant::Chushogi,
            AnyGame::Kagamigi(_) => Variant::Chukagamigi,
            AnyGame::Shogammon(_) => Variant::Shogammon,
            AnyGame::Madness(_) => Variant::Madness,
        }
    }
}

/// A position of one of the games the engine plays over USI. Shogammon and the Central
/// Madness are chance games (searched by `search::chance`); the Madness position is the
/// engine's own view of the game, never the referee's true state.
pub type UsiPosition = AnyGame<madness::PlayerView>;

/// Runs `$det` with `$pos` bound to a deterministic game's position, or `$chance` with
/// `$cpos` bound to a chance game's position.
macro_rules! with_position {
    ($value:expr, $pos:ident => $det:expr, $cpos:ident => $chance:expr) => {
        match $value {
            $crate::usi::game::UsiPosition::Shogi($pos) => $det,
            $crate::usi::game::UsiPosition::Chu($pos) => $det,
            $crate::usi::game::UsiPosition::Kagamigi($pos) => $det,
            $crate::usi::game::UsiPosition::Shogammon($cpos) => $chance,
            $crate::usi::game::UsiPosition::Madness($cpos) => $chance,
        }
    };
}
pub(crate) use with_position;

impl UsiPosition {
    /// The start position of `variant`.
    pub fn startpos(variant: Variant, rules: RuleOptions) -> UsiPosition {
        UsiPosition::parse(&["startpos"], variant, rules).expect("every start position reads")
    }

    /// Parses the arguments of `position` (`startpos | sfen …` then `moves …`) in `variant`.
    pub fn parse(
        args: &[&str],
        variant: Variant,
        rules: RuleOptions,
    ) -> Result<UsiPosition, String> {
        let moves_at = args.iter().position(|t| *t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let sfen = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => None,
            Some(&"startpos") => {
                return Err(format!(
                    "unexpected {:?} after startpos (expected moves)",
                    setup[1]
                ))
            }
            Some(&"sfen") => Some(setup[1..].join(" ")),
            Some(other) => return Err(format!("expected startpos or sfen, found {other:?}")),
            None => return Err("position needs startpos or sfen".to_string()),
        };
        let err = |e: crate::rules::notation::NotationError| e.to_string();
        let mut position = match (variant, sfen.as_deref()) {
            (Variant::Shogi, None) => UsiPosition::Shogi(Box::new(shogi::Position::startpos())),
            (Variant::Shogi, Some(sfen)) => {
                UsiPosition::Shogi(Box::new(shogi::Position::from_sfen(sfen).map_err(err)?))
            }
            (Variant::Chushogi, None) => {
                UsiPosition::Chu(Box::new(chu::Position::startpos_with(rules.chu_rules)))
            }
            (Variant::Chushogi, Some(sfen)) => UsiPosition::Chu(Box::new(
                chu::Position::from_sfen_with(sfen, rules.chu_rules).map_err(err)?,
            )),
            (Variant::Chukagamigi, None) => {
                UsiPosition::Kagamigi(Box::new(kagamigi::Position::startpos()))
            }
            (Variant::Chukagamigi, Some(sfen)) => {
                UsiPosition::Kagamigi(Box::new(kagamigi::Position::from_sfen(sfen).map_err(err)?))
            }
            (Variant::Shogammon, sfen) => UsiPosition::Shogammon(Box::new(
                shogammon::Position::from_sfen_with(
                    sfen.unwrap_or(shogammon::notation::START_SFEN),
                    rules.dice,
                )
                .map_err(err)?,
            )),
            (Variant::Madness, _) => {
                // The view is that of the player whose card the deal shows: sente's card is
                // the first `draw:` token, gote's the second; `draw:?` hides the opponent's.
                let me = match moves.iter().find(|t| t.starts_with("draw:")) {
                    Some(&"draw:?") => Color::Gote,
                    _ => Color::Sente,
                };
                let text = args.join(" ");
                return madness::PlayerView::from_position_text(&text, madness::ViewCards::new(me))
                    .map(|view| UsiPosition::Madness(Box::new(view)))
                    .map_err(err);
            }
        };
        for (ply, text) in moves.iter().enumerate() {
            let at = |e: String| format!("move {} ({text}): {e}", ply + 1);
            with_position!(&mut position,
                pos => {
                    let mv = pos.parse_move(text).map_err(|e| at(e.to_string()))?;
                    SearchGame::play(pos.as_mut(), mv);
                },
                cpos => {
                    let action = cpos.parse_action_text(text).map_err(at)?;
                    Game::play(cpos.as_mut(), action);
                }
            );
        }
        Ok(position)
    }

    pub fn side_to_move(&self) -> Color {
        with_position!(self,
            pos => SearchGame::side_to_move(pos.as_ref()),
            cpos => cpos.player_to_act())
    }

    /// Reads a legal move (a legal action, in the chance games) of this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        with_position!(self,
            pos => pos.parse_move(text).map_err(|e| e.to_string()),
            cpos => cpos.parse_action_text(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Position;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    fn shogi_position(args: &[&str]) -> Result<Position, String> {
        match UsiPosition::parse(args, Variant::Shogi, RuleOptions::default())? {
            UsiPosition::Shogi(p) => Ok(*p),
            other => panic!("not shogi: {other:?}"),
        }
    }

    #[test]
    fn position_shapes() {
        let p = shogi_position(&words("startpos moves")).unwrap();
        assert_eq!(p, Position::startpos());
        let p = shogi_position(&words(
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f 3c3d",
        ))
        .unwrap();
        assert_eq!(p.moves_played(), 2);
        assert_eq!(p.move_number(), 3);
        let p = shogi_position(&words(
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ))
        .unwrap();
        assert_eq!(p, Position::startpos());
        let hands = shogi_position(&words("sfen 4k4/9/9/9/9/9/9/9/4K4 b 10P8p 1")).unwrap();
        assert_eq!(hands.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b 10P8p 1");
    }

    #[test]
    fn bad_positions_are_refused() {
        for args in [
            "",
            "moves 7g7f",
            "startpos 7g7f",
            "startpos moves 7g7f 7g7f",
            "startpos moves 7g7f xyz",
            "sfen",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "sfen 4k4/9/9/9/9/9/9/9/4K4 x - 1",
            "fen startpos",
        ] {
            assert!(shogi_position(&words(args)).is_err(), "{args:?}");
        }
    }

    #[test]
    fn each_variant_reads_its_own_start_position_and_moves() {
        let chu = UsiPosition::parse(
            &words("startpos moves 7i7h 6d6e"),
            Variant::Chushogi,
            RuleOptions {
                chu_rules: ChuRules::Jcsa,
                ..RuleOptions::default()
            },
        )
        .unwrap();
        match &chu {
            UsiPosition::Chu(p) => {
                assert_eq!(p.moves_played(), 2);
                assert_eq!(p.rules(), ChuRules::Jcsa);
            }
            other => panic!("{other:?}"),
        }
        let kagamigi = UsiPosition::parse(
            &words("startpos"),
            Variant::Chukagamigi,
            RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(kagamigi.variant(), Variant::Chukagamigi);
        assert_eq!(kagamigi.side_to_move(), Color::Sente);
        // A shogi move is no Chu move; a shogi SFEN is no Chu SFEN.
        assert!(UsiPosition::parse(
            &words("startpos moves 7g7f"),
            Variant::Chushogi,
            RuleOptions::default()
        )
        .is_err());
        assert!(UsiPosition::parse(
            &words("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            Variant::Chushogi,
            RuleOptions::default()
        )
        .is_err());
    }
}
