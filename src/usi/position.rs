//! The position the USI engine holds, in whichever game `USI_Variant` selected
//! ([`UsiPosition`], one arm per row of the registry `rules::variants`), how each game reads
//! a `position` command ([`ReadPosition`]), and [`with_position!`], which dispatches to
//! code written once per kind of game: searches through [`UsiGame`] (alpha-beta games) or
//! `chance::UsiChanceGame` (dice and cards) in `worker`.

use super::chance::ChanceText;
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::{GameText, PositionArgs};
use crate::rules::variants::chu;
use crate::rules::variants::kagamigi;
use crate::rules::variants::madness;
use crate::rules::variants::minishogi;
use crate::rules::variants::shogammon;
use crate::rules::variants::shogi;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
pub use crate::rules::variants::RuleOptions;
use crate::rules::variants::{for_each_game, GameStart, Variant};
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

impl UsiGame for minishogi::Position {}

/// How a game's player state reads a `position` command, once [`PositionArgs`] has split it.
pub trait ReadPosition: Sized {
    fn read_position(args: &PositionArgs, options: &RuleOptions) -> Result<Self, String>;
}

/// Move number `ply` (from 1) of a `position` command, named in an error.
fn at_move(ply: usize, text: &str, error: String) -> String {
    format!("move {ply} ({text}): {error}")
}

/// The deterministic games: the SFEN, then each move read and played.
impl<G: UsiGame + GameStart> ReadPosition for G {
    fn read_position(args: &PositionArgs, options: &RuleOptions) -> Result<G, String> {
        let mut pos = G::set_up(args.sfen.as_deref(), options).map_err(|e| e.to_string())?;
        for (ply, text) in args.moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| at_move(ply + 1, text, e.to_string()))?;
            SearchGame::play(&mut pos, mv);
        }
        Ok(pos)
    }
}

impl ReadPosition for shogammon::Position {
    fn read_position(args: &PositionArgs, options: &RuleOptions) -> Result<Self, String> {
        let mut pos = shogammon::Position::set_up(args.sfen.as_deref(), options)
            .map_err(|e| e.to_string())?;
        for (ply, text) in args.moves.iter().enumerate() {
            let action = pos
                .parse_action_text(text)
                .map_err(|e| at_move(ply + 1, text, e))?;
            Game::play(&mut pos, action);
        }
        Ok(pos)
    }
}

/// The view is that of the player whose card the deal shows: sente's card is the first
/// `draw:` token, gote's the second; `draw:?` hides the opponent's.
impl ReadPosition for madness::PlayerView {
    fn read_position(args: &PositionArgs, _: &RuleOptions) -> Result<Self, String> {
        let me = match args.moves.iter().find(|t| t.starts_with("draw:")) {
            Some(&"draw:?") => Color::Gote,
            _ => Color::Sente,
        };
        let mut view = match &args.sfen {
            None => madness::PlayerView::startpos(me),
            Some(sfen) => madness::PlayerView::from_sfen(sfen, me).map_err(|e| e.to_string())?,
        };
        view.play_texts(args.moves.iter().copied())
            .map_err(|e| e.to_string())?;
        Ok(view)
    }
}

/// Defines an enum with one boxed state per game of the registry, and its `variant()`:
/// `referee` picks each row's referee state, `player` its player state.
macro_rules! game_state_enum {
    ({ $(#[$attr:meta])* $vis:vis enum $Enum:ident: $side:ident }
     $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
        $(#[$attr])*
        $vis enum $Enum {
            $( $Name(Box<$crate::usi::position::game_state_enum!(@pick $side, $referee, $player)>), )*
        }

        impl $Enum {
            /// The game this is a state of.
            pub fn variant(&self) -> $crate::rules::variants::Variant {
                match self {
                    $( $Enum::$Name(_) => $crate::rules::variants::Variant::$Name, )*
                }
            }
        }
    };
    (@pick referee, $referee:ty, $player:ty) => { $referee };
    (@pick player, $referee:ty, $player:ty) => { $player };
}
pub(crate) use game_state_enum;

for_each_game!(game_state_enum! {
    /// A position of one of the games the engine plays over USI: the player's state, which
    /// in the Central Madness is the engine's own view of the game, never the referee's
    /// true state. Shogammon and the Madness are chance games (searched by
    /// `search::chance`).
    #[derive(Clone, Debug)]
    pub enum UsiPosition: player
});

/// Runs `$det` with `$pos` bound to a deterministic game's position, or `$chance` with
/// `$cpos` bound to a chance game's position (each row's [`Search`] decides which).
macro_rules! with_position {
    ($value:expr, $pos:ident => $det:expr, $cpos:ident => $chance:expr) => {
        $crate::rules::variants::for_each_game!($crate::usi::position::position_arms! {
            ($value, $pos => $det, $cpos => $chance)
        })
    };
}
pub(crate) use with_position;

/// [`with_position!`]'s arms, one per row of the registry.
macro_rules! position_arms {
    ({ ($value:expr, $pos:ident => $det:expr, $cpos:ident => $chance:expr) }
     $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
        match $value {
            $( $crate::usi::position::UsiPosition::$Name(state) => {
                $crate::usi::position::position_arms!(@$search state, $pos => $det, $cpos => $chance)
            } )*
        }
    };
    (@AlphaBeta $state:ident, $pos:ident => $det:expr, $cpos:ident => $chance:expr) => {{
        let $pos = $state;
        $det
    }};
    (@Chance $state:ident, $pos:ident => $det:expr, $cpos:ident => $chance:expr) => {{
        let $cpos = $state;
        $chance
    }};
}
pub(crate) use position_arms;

/// [`UsiPosition::parse`]'s arms: each game's player state read by its [`ReadPosition`].
macro_rules! read_arms {
    ({ ($variant:expr, $args:expr, $options:expr) }
     $( $(#[$meta:meta])* $Name:ident = [$search:ident, $referee:ty, $player:ty] $spec:tt; )*) => {
        match $variant {
            $( Variant::$Name => UsiPosition::$Name(Box::new(
                <$player as ReadPosition>::read_position($args, $options)?,
            )), )*
        }
    };
}

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
        let args = PositionArgs::read(args).map_err(|e| e.to_string())?;
        Ok(for_each_game!(read_arms! { (variant, &args, &rules) }))
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
    use crate::rules::variants::chu::ChuRules;
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
            UsiPosition::Chushogi(p) => {
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
