//! [`super::ChanceGame`] for the variants with chance nodes: one file per variant, each
//! saying how a turn is charged to the depth, which actions capture, and which evaluation
//! scores a position.

pub mod madness;
pub mod shogammon;
