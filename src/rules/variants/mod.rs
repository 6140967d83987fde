//! The registry of games: every game Shishi plays is one row of [`for_each_game!`], and
//! every layer dispatches from that list (the [`Variant`] names and [`GameSpec`] facts made
//! here, the referee's and the USI layer's position types, which search runs). Each game's
//! own module owns its pieces, position, move generation and notation, and implements
//! [`crate::rules::game::Game`] and [`GameStart`].

pub mod chu;
pub mod kagamigi;
pub mod madness;
pub mod minishogi;
pub mod shogammon;
pub mod shogi;

use crate::rules::notation::NotationError;
use crate::rules::xboard_moves::BoardSize;
use chu::ChuRules;
use shogammon::ShogammonDice;
use std::fmt;

/// Calls `$callback! { $args ROWS }` with one row per game:
/// `Name = [Search, RefereeState, PlayerState] { GameSpec fields };`. `Search` is a
/// [`Search`] variant; `RefereeState` is what the referee (and `shishi serve`) holds, the
/// whole truth; `PlayerState` is what an engine holds over USI or CECP (the same type in
/// games of perfect information). A game's evaluator is the one its `PlayerState`'s search
/// impl names (`search/variants/`, `usi/chance.rs`).
///
/// Adding a game is one row here plus the game's own module.
macro_rules! for_each_game {
    ($($callback:tt)::+ ! $args:tt) => {
        $($callback)::+! { $args
            /// Standard shogi (`standard` is lishogi's name for it).
            Shogi = [
                AlphaBeta,
                $crate::rules::variants::shogi::Position,
                $crate::rules::variants::shogi::Position
            ] {
                name: "shogi",
                aliases: &["standard"],
                cecp_name: Some("shogi"),
                files: 9,
                ranks: 9,
                drops: true,
                start_sfen: $crate::rules::variants::shogi::notation::START_SFEN,
                move_limit: 320,
                rule_options: &[],
            };
            /// Chu Shogi, under the rule set `ChuRules` chooses.
            Chushogi = [
                AlphaBeta,
                $crate::rules::variants::chu::Position,
                $crate::rules::variants::chu::Position
            ] {
                name: "chushogi",
                aliases: &[],
                cecp_name: Some("chu"),
                files: 12,
                ranks: 12,
                drops: false,
                start_sfen: $crate::rules::variants::chu::notation::START_SFEN,
                move_limit: 1000,
                rule_options: &[$crate::rules::variants::RuleOption::ChuRules],
            };
            /// Chu Kagamigi (over CECP an engine-defined variant, docs/XBOARD.md).
            Chukagamigi = [
                AlphaBeta,
                $crate::rules::variants::kagamigi::Position,
                $crate::rules::variants::kagamigi::Position
            ] {
                name: "chukagamigi",
                aliases: &[],
                cecp_name: Some("chukagamigi"),
                files: 12,
                ranks: 12,
                drops: true,
                start_sfen: $crate::rules::variants::kagamigi::notation::START_SFEN,
                move_limit: 1000,
                rule_options: &[],
            };
            /// Shogammon: the dice are nature's (RULES.md §4: a draw after 300 turns per
            /// side; a turn is a roll and two actions, hence 1800 plies).
            Shogammon = [
                Chance,
                $crate::rules::variants::shogammon::Position,
                $crate::rules::variants::shogammon::Position
            ] {
                name: "shogammon",
                aliases: &[],
                cecp_name: None,
                files: 9,
                ranks: 9,
                drops: true,
                start_sfen: $crate::rules::variants::shogammon::notation::START_SFEN,
                move_limit: 1800,
                rule_options: &[$crate::rules::variants::RuleOption::ShogammonDice],
            };
            /// Shogi of the Central Madness: the referee deals and rolls, and each player
            /// sees only its own cards (its move limit counts tokens, up to four a turn).
            Madness = [
                Chance,
                $crate::rules::variants::madness::TrueGame,
                $crate::rules::variants::madness::PlayerView
            ] {
                name: "madness",
                aliases: &[],
                cecp_name: None,
                files: 9,
                ranks: 9,
                drops: true,
                start_sfen: $crate::rules::variants::shogi::notation::START_SFEN,
                move_limit: 1000,
                rule_options: &[],
            };
            /// Minishogi (5×5), a drop-shogi family member built from its piece table.
            Minishogi = [
                AlphaBeta,
                $crate::rules::variants::minishogi::Position,
                $crate::rules::variants::minishogi::Position
            ] {
                name: "minishogi",
                aliases: &[],
                cecp_name: Some("minishogi"),
                files: 5,
                ranks: 5,
                drops: true,
                start_sfen: $crate::rules::variants::minishogi::START_SFEN,
                move_limit: 300,
                rule_options: &[],
            };
        }
    };
}
pub(crate) use for_each_game;

/// Which search plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The alpha-beta search of the deterministic games (`search::alphabeta`).
    AlphaBeta,
    /// The expectiminimax search of the dice and card games (`search::chance`).
    Chance,
}

/// A rule option a game is played under, beyond its name (a USI option of the same name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOption {
    /// Chu Shogi's rule set ([`ChuRules`]).
    ChuRules,
    /// Shogammon's die → piece table ([`ShogammonDice`]).
    ShogammonDice,
}

impl RuleOption {
    /// The option's name, as USI and the record headers spell it.
    pub fn name(self) -> &'static str {
        match self {
            RuleOption::ChuRules => "ChuRules",
            RuleOption::ShogammonDice => "ShogammonDice",
        }
    }

    /// The option's value in `options`, as text.
    pub fn value(self, options: &RuleOptions) -> String {
        match self {
            RuleOption::ChuRules => options.chu_rules.name().to_string(),
            RuleOption::ShogammonDice => options.dice.to_string(),
        }
    }
}

/// The values of every rule option; each game reads those its row names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleOptions {
    pub chu_rules: ChuRules,
    pub dice: ShogammonDice,
}

/// What a game is, beyond its rules: one row of the registry.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec {
    pub variant: Variant,
    pub search: Search,
    /// The name as `USI_Variant`, `--variant` and the records spell it.
    pub name: &'static str,
    /// Other names a GUI may send for it.
    pub aliases: &'static [&'static str],
    /// The CECP `variant` name, or `None` when the game is not offered over CECP.
    pub cecp_name: Option<&'static str>,
    pub files: u8,
    pub ranks: u8,
    /// Whether captured pieces are held and dropped (XBoard writes holdings).
    pub drops: bool,
    pub start_sfen: &'static str,
    /// The plies after which `shishi match` draws a game unless told otherwise.
    pub move_limit: usize,
    /// The rule options that choose among the game's rule sets.
    pub rule_options: &'static [RuleOption],
}

impl GameSpec {
    /// The board's size, as move coordinates are converted with it.
    pub fn board(&self) -> BoardSize {
        BoardSize {
            files: self.files,
            ranks: self.ranks,
        }
    }
}

macro_rules! define_registry {
    ({} $(
        $(#[$meta:meta])*
        $Name:ident = [$search:ident, $referee:ty, $player:ty] { $($field:ident: $value:expr),* $(,)? };
    )*) => {
        /// The games, named as `USI_Variant` and `--variant` spell them (see [`GameSpec`]).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum Variant {
            #[default]
            $( $(#[$meta])* $Name, )*
        }

        impl Variant {
            /// Every game, in the registry's order.
            pub const ALL: &'static [Variant] = &[$(Variant::$Name),*];
        }

        /// The registry's rows, indexed by [`Variant`].
        static GAMES: &[GameSpec] = &[$(
            GameSpec { variant: Variant::$Name, search: Search::$search, $($field: $value),* }
        ),*];
    };
}
for_each_game!(define_registry! {});

impl Variant {
    /// The game's row of the registry.
    pub fn spec(self) -> &'static GameSpec {
        &GAMES[self as usize]
    }

    /// The name as USI and the command line spell it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Reads a name or an alias (case-insensitive).
    pub fn from_name(text: &str) -> Option<Variant> {
        let text = text.trim().to_ascii_lowercase();
        GAMES
            .iter()
            .find(|g| g.name == text || g.aliases.contains(&text.as_str()))
            .map(|g| g.variant)
    }

    /// The game a CECP `variant` name stands for (`None` for games not offered over CECP).
    pub fn from_cecp_name(text: &str) -> Option<Variant> {
        GAMES
            .iter()
            .find(|g| {
                g.cecp_name
                    .is_some_and(|n| n.eq_ignore_ascii_case(text.trim()))
            })
            .map(|g| g.variant)
    }

    /// The games offered over CECP, the default (standard shogi) first.
    pub fn cecp_games() -> impl Iterator<Item = Variant> {
        GAMES
            .iter()
            .filter(|g| g.cecp_name.is_some())
            .map(|g| g.variant)
    }
}

/// A game with the rule options it is played under: what a match, a served game or an
/// opening file is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameChoice {
    pub variant: Variant,
    pub options: RuleOptions,
}

impl From<Variant> for GameChoice {
    fn from(variant: Variant) -> GameChoice {
        GameChoice {
            variant,
            options: RuleOptions::default(),
        }
    }
}

impl GameChoice {
    pub fn new(variant: Variant, options: RuleOptions) -> GameChoice {
        GameChoice { variant, options }
    }

    /// Chu Shogi under the rule set `rules`.
    pub fn chu(rules: ChuRules) -> GameChoice {
        GameChoice::new(
            Variant::Chushogi,
            RuleOptions {
                chu_rules: rules,
                ..RuleOptions::default()
            },
        )
    }

    pub fn spec(self) -> &'static GameSpec {
        self.variant.spec()
    }

    /// The start position's SFEN.
    pub fn start_sfen(self) -> &'static str {
        self.spec().start_sfen
    }

    /// The rule options this game reads, each with its value.
    pub fn rule_settings(self) -> impl Iterator<Item = (RuleOption, String)> {
        self.spec()
            .rule_options
            .iter()
            .map(move |&option| (option, option.value(&self.options)))
    }
}

impl fmt::Display for GameChoice {
    /// The name, then the rule options that differ from the default (`chushogi (ChuRules
    /// jcsa)`); Chu names its rule set always.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.variant.name())?;
        let settings: Vec<String> = self
            .rule_settings()
            .filter(|(option, value)| {
                *option == RuleOption::ChuRules || *value != option.value(&RuleOptions::default())
            })
            .map(|(option, value)| format!("{} {value}", option.name()))
            .collect();
        if !settings.is_empty() {
            write!(f, " ({})", settings.join(", "))?;
        }
        Ok(())
    }
}

/// How a game's state is set up: its start position or an SFEN, under the rule options.
pub trait GameStart: Sized {
    /// The position `sfen` describes (the game's start position for `None`).
    fn set_up(sfen: Option<&str>, options: &RuleOptions) -> Result<Self, NotationError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_indexed_by_variant_and_names_each_game_once() {
        for (i, &variant) in Variant::ALL.iter().enumerate() {
            assert_eq!(variant as usize, i);
            assert_eq!(variant.spec().variant, variant);
            assert_eq!(Variant::from_name(variant.name()), Some(variant));
            if let Some(cecp) = variant.spec().cecp_name {
                assert_eq!(Variant::from_cecp_name(cecp), Some(variant));
            }
        }
        assert_eq!(Variant::from_name("Standard"), Some(Variant::Shogi));
        assert_eq!(Variant::from_name("chess"), None);
        assert_eq!(Variant::from_cecp_name("CHU"), Some(Variant::Chushogi));
        assert_eq!(Variant::from_cecp_name("normal"), None);
    }

    #[test]
    fn a_choice_names_its_rule_set() {
        let chu = GameChoice::chu(ChuRules::Jcsa);
        assert_eq!(chu.to_string(), "chushogi (ChuRules jcsa)");
        assert_eq!(
            GameChoice::from(Variant::Shogammon).to_string(),
            "shogammon"
        );
        assert_eq!(GameChoice::from(Variant::Shogi).to_string(), "shogi");
    }
}
