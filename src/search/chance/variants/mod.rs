//! Each chance game's side of the chance search (`ChanceGame`): one module per game.
//! PLACEHOLDER: the evaluations here return an even game until the real ones are merged.

pub mod madness;
pub mod shogammon;
