//! The nets each game evaluates with, as the protocol layers (USI, CECP, `serve`) hand them
//! to their search threads when the options change.

use super::nnue::features::NetGame;
use super::nnue::{builtin, Network};
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
    /// The nets the command-line tools evaluate with: standard shogi's as `shogi` chooses
    /// and the Madness's board's as `madness` chooses (as the USI options `ShogiEval` and
    /// `MadnessEval`), and the net `file` (any game's) in its game's place: for standard
    /// shogi whatever `shogi` says, for the Madness's board under `madness` net (as
    /// `EvalFile`, `ChuEvalFile`, `KagamigiEvalFile`, `ShogammonEvalFile`).
    pub fn chosen(shogi: EvalChoice, madness: EvalChoice, file: Option<Arc<Network>>) -> BoardNets {
        let of_game = |game: NetGame| file.clone().filter(|net| net.features.game() == game);
        let shogi_file = of_game(NetGame::Shogi);
        BoardNets {
            shogi: shogi_file
                .clone()
                .or_else(|| (shogi == EvalChoice::Net).then(builtin::network)),
            madness: madness.madness_net(shogi_file.as_ref()),
            chu: of_game(NetGame::Chu),
            kagamigi: of_game(NetGame::Kagamigi),
            shogammon: of_game(NetGame::Shogammon),
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
