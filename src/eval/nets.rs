//! The nets each game evaluates with, as the protocol layers (USI, CECP, `serve`) hand them
//! to their search threads when the options change.

use super::nnue::features::NetGame;
use super::nnue::Network;
use super::shogi_choice::EvalChoice;
use crate::rules::variants::Variant;
use crate::search::chance::ChanceSearcher;
use crate::search::Searcher;
use std::sync::Arc;

/// The game whose nets `variant` evaluates with (the Madness: shogi's board; `None`: the game
/// has no net).
pub fn net_game_of(variant: Variant) -> Option<NetGame> {
    match variant {
        Variant::Shogi | Variant::Madness => Some(NetGame::Shogi),
        Variant::Chushogi => Some(NetGame::Chu),
        Variant::Chukagamigi => Some(NetGame::Kagamigi),
        Variant::Shogammon => Some(NetGame::Shogammon),
        Variant::Minishogi => None,
    }
}

/// What each game that has a built-in net evaluates with when no file is named
/// ([`EvalChoice`] per game; `Default`: the engine's defaults, as the USI options have them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalChoices {
    pub shogi: EvalChoice,
    pub madness: EvalChoice,
    pub chu: EvalChoice,
    pub kagamigi: EvalChoice,
    pub shogammon: EvalChoice,
}

impl Default for EvalChoices {
    fn default() -> Self {
        EvalChoices {
            shogi: EvalChoice::SHOGI_DEFAULT,
            madness: EvalChoice::MADNESS_DEFAULT,
            chu: EvalChoice::CHU_DEFAULT,
            kagamigi: EvalChoice::KAGAMIGI_DEFAULT,
            shogammon: EvalChoice::SHOGAMMON_DEFAULT,
        }
    }
}

impl EvalChoices {
    /// The hand-written evaluation in every game.
    pub const HAND_WRITTEN: EvalChoices = EvalChoices {
        shogi: EvalChoice::HandWritten,
        madness: EvalChoice::HandWritten,
        chu: EvalChoice::HandWritten,
        kagamigi: EvalChoice::HandWritten,
        shogammon: EvalChoice::HandWritten,
    };
}

/// Each game's net (`None`: its hand-written evaluation): standard shogi's, the Central
/// Madness's board's, the 12×12 games' and Shogammon's.
#[derive(Clone, Default)]
pub struct BoardNets {
    pub shogi: Option<Arc<Network>>,
    pub madness: Option<Arc<Network>>,
    pub chu: Option<Arc<Network>>,
    pub kagamigi: Option<Arc<Network>>,
    pub shogammon: Option<Arc<Network>>,
}

impl BoardNets {
    /// The nets the command-line tools evaluate with: each game's as `choices` say (as the USI
    /// options `ShogiEval`, `MadnessEval`, `ChuEval`, `KagamigiEval` and `ShogammonEval`),
    /// and the net `file` (any game's) in its game's place: for every game but the Madness
    /// whatever its choice says, for the Madness's board under its choice net (as `EvalFile`,
    /// `ChuEvalFile`, `KagamigiEvalFile`, `ShogammonEvalFile`).
    pub fn chosen(choices: EvalChoices, file: Option<Arc<Network>>) -> BoardNets {
        let of_game = |game: NetGame| file.clone().filter(|net| net.features.game() == game);
        let shogi_file = of_game(NetGame::Shogi);
        BoardNets {
            shogi: shogi_file
                .clone()
                .or_else(|| choices.shogi.built_in(NetGame::Shogi)),
            madness: choices.madness.madness_net(shogi_file.as_ref()),
            chu: of_game(NetGame::Chu).or_else(|| choices.chu.built_in(NetGame::Chu)),
            kagamigi: of_game(NetGame::Kagamigi)
                .or_else(|| choices.kagamigi.built_in(NetGame::Kagamigi)),
            shogammon: of_game(NetGame::Shogammon)
                .or_else(|| choices.shogammon.built_in(NetGame::Shogammon)),
        }
    }

    /// Hands the alpha-beta searcher its games' nets (the Madness's and Shogammon's go to
    /// the chance searcher, [`BoardNets::give_to_chance`]).
    pub fn give_to(&self, searcher: &mut Searcher) {
        searcher.set_network(self.shogi.clone());
        searcher.set_game_network(NetGame::Chu, self.chu.clone());
        searcher.set_game_network(NetGame::Kagamigi, self.kagamigi.clone());
    }

    /// Hands the chance searcher its games' nets: the Madness's board's and Shogammon's.
    pub fn give_to_chance(&self, searcher: &mut ChanceSearcher) {
        searcher.set_network(self.madness.clone());
        searcher.set_shogammon_network(self.shogammon.clone());
    }
}
