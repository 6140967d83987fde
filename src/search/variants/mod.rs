//! The [`super::game::SearchGame`] implementation of each variant: one module per game.

pub mod chu;
pub mod kagamigi;
pub mod shogi;
