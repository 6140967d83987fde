//! The nets each game evaluates with, as the protocol layers (USI, CECP, `serve`) hand them
//! to their search threads when the options change.

use super::nnue::features::NetGame;
use super::nnue::Network;
use crate::search::chance::ChanceSearcher;
use crate::search::Searcher;
use std::sync::Arc;

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
