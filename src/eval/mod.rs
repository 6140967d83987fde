//! Evaluation: how good a position is for the side to move, one module per game: `shogi`
//! (standard shogi's tables) and `nnue` (a YaneuraOu net, and Shishi's own for the 12×12
//! games), `shogi_choice` which of them the search uses; `board12`, written once for the
//! 12×12 variants, with their weights in `chu` and `kagamigi`, and `board12_choice` (those
//! tables or a net); `minishogi`; the chance games' `shogammon` and `madness` on the
//! `expected` scale; `mobility` measures piece values from reach; `nets` holds which net
//! each game uses. What they share is here: the centipawn score and each side's running
//! totals.

pub mod board12;
pub mod board12_choice;
pub mod chu;
pub mod expected;
pub mod kagamigi;
pub mod madness;
pub mod minishogi;
pub mod mobility;
pub mod nets;
pub mod nnue;
#[cfg(test)]
pub(crate) mod random_games;
pub mod shogammon;
pub mod shogi;
pub mod shogi_choice;

/// A score in centipawns (a pawn is about 100), from a stated side's point of view.
pub type Centipawns = i32;

/// Each side's evaluation total (material, tables, king safety) from its own point of view,
/// indexed by `Color::index`; the score is the difference plus the tempo bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals(pub [i32; 2]);
