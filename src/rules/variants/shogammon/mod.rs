//! Shogammon (RULES.md §4): shogi pieces on the shogi board, two dice per turn, friendly
//! stacking into two-piece "points", no check, and victory by capturing the king.
//!
//! The pieces, their attack tables, promotion zones and drop masks are standard shogi's
//! (`variants::shogi`); this module adds only what the dice change. The submodules own one
//! question each: `dice` the die → piece table ([`ShogammonDice`]) and the roll encoding,
//! `position` the state (two layers per square, dice still to use, a half-done point
//! capture) with make/unmake and the hash, `movegen` which die actions are legal, `notation`
//! SFEN with points and the action tokens, `game` the [`crate::rules::game::Game`] trait.
//!
//! # Actions as `Move` values (docs/USI.md tokens)
//! * A turn starts with a chance node: the 21 rolls, `Move::chance(10 * high + low)` (`r:61`
//!   is code 61, `r:33` code 33; weight 1 for doubles, 2 otherwise). See [`Roll`].
//! * Then exactly two decisions of the same player, one per die (doubles also give two):
//!   a board move or drop (`Move::normal` / `Move::drop`, the die it uses is the one its
//!   piece maps to), or `Move::pass()` (token `pass`), which loses the largest die still to
//!   use that has no legal action now. After the second decision the other side is to roll.
//! * Which first actions are legal depends on [`DiceUse`]: RULES.md §4.3's ordered duty (the
//!   default) or backgammon's "as many dice as possible, else the larger".
//! * Capturing the king ends the game at once (`outcome()`), even with a die left.

pub mod dice;
mod game;
pub mod movegen;
pub mod notation;
pub mod position;

pub use dice::{DiceUse, Die, Roll, ShogammonDice};
pub use position::Position;

/// The board of Shogammon (the shogi board).
pub type Geo = crate::rules::geometry::Board9x9;
