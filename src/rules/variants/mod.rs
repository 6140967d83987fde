//! One module per game. Each owns its pieces, position, move generation and notation, and
//! implements [`crate::rules::game::Game`].

pub mod chu;
pub mod kagamigi;
pub mod madness;
pub mod shogammon;
pub mod shogi;
