//! Chance-search hooks per variant: each submodule implements [`super::ChanceGame`] for one
//! variant's game (evaluation, capture ordering, depth cost).

pub mod madness;
