//! What the games are: boards, pieces, positions, legal moves, notation and perft.
//! No I/O, no threads, no evaluation; everything above this layer depends on it, never the
//! reverse.

pub mod betza;
pub mod bitboard;
pub mod board_tables;
pub mod compiled_atoms;
pub mod dropshogi;
pub mod game;
pub mod geometry;
pub mod moves;
pub mod notation;
#[cfg(test)]
pub(crate) mod notation_checks;
pub mod perft;
pub mod piece;
pub mod play_record;
pub mod rays;
pub mod repetition;
pub mod sink;
pub mod variants;
pub mod xboard_moves;
pub mod zobrist;
