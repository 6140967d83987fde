//! What every variant's notation shares: the error type (so callers report any variant's
//! mistakes alike) and the grammar of the SFEN board field, which is the same on every
//! board size. What the letters mean, and everything else in an SFEN, each variant reads in
//! its own `variants/*/notation.rs`.

use crate::rules::geometry::{Color, File, Geometry, Rank, Square};
use std::fmt;

/// Why a piece of game notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A malformed or impossible SFEN.
    Sfen(String),
    /// A malformed or illegal move.
    Move(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Sfen(why) => write!(f, "bad sfen: {why}"),
            NotationError::Move(why) => write!(f, "bad move: {why}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// One occupied square as an SFEN board writes it: the letter (uppercase for sente) and
/// whether a `+` preceded it. What the letter means is the variant's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfenPiece {
    pub square: Square,
    pub letter: char,
    pub promoted: bool,
}

impl SfenPiece {
    /// The side the letter's case names.
    pub fn color(self) -> Color {
        if self.letter.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        }
    }
}

fn sfen_error(message: String) -> NotationError {
    NotationError::Sfen(message)
}

/// Reads the board field of an SFEN (RULES.md §0.4) for geometry `G`: ranks from `a`,
/// files from the highest, digits (one or two) for runs of empty squares, `+` before a
/// promoted piece. Checks the shape only; the variant checks the letters.
pub fn read_sfen_board<G: Geometry>(text: &str) -> Result<Vec<SfenPiece>, NotationError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != G::RANKS as usize {
        return Err(sfen_error(format!(
            "board has {} ranks, expected {}",
            ranks.len(),
            G::RANKS
        )));
    }
    let mut pieces = Vec::new();
    for (rank, row) in ranks.iter().enumerate() {
        let width = G::FILES as i32;
        let mut file = width - 1;
        let mut promoted = false;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(first) = c.to_digit(10) {
                let mut run = first;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    run = run * 10 + d;
                    chars.next();
                }
                if promoted || run == 0 || run > G::FILES as u32 {
                    return Err(sfen_error(format!(
                        "bad empty-square count in rank {}",
                        rank + 1
                    )));
                }
                file -= run as i32;
            } else if c == '+' {
                if promoted {
                    return Err(sfen_error("doubled '+'".to_string()));
                }
                promoted = true;
                continue;
            } else if c.is_ascii_alphabetic() {
                if file < 0 {
                    return Err(sfen_error(format!(
                        "rank {} is longer than {width} squares",
                        rank + 1
                    )));
                }
                pieces.push(SfenPiece {
                    square: Square::new::<G>(File(file as u8), Rank(rank as u8)),
                    letter: c,
                    promoted,
                });
                file -= 1;
            } else {
                return Err(sfen_error(format!("unexpected {c:?} in the board")));
            }
            promoted = false;
        }
        if promoted {
            return Err(sfen_error("'+' at the end of a rank".to_string()));
        }
        if file != -1 {
            return Err(sfen_error(format!(
                "rank {} has {} squares, expected {width}",
                rank + 1,
                width - 1 - file
            )));
        }
    }
    Ok(pieces)
}

/// Writes the board field of an SFEN for geometry `G`; `piece_text` gives each occupied
/// square's text (`P`, `+r`, …).
pub fn write_sfen_board<G: Geometry>(piece_text: impl Fn(Square) -> Option<String>) -> String {
    let mut board = String::new();
    for rank in 0..G::RANKS {
        if rank > 0 {
            board.push('/');
        }
        let mut empties = 0;
        for file in (0..G::FILES).rev() {
            match piece_text(Square::new::<G>(File(file), Rank(rank))) {
                None => empties += 1,
                Some(text) => {
                    if empties > 0 {
                        board.push_str(&empties.to_string());
                        empties = 0;
                    }
                    board.push_str(&text);
                }
            }
        }
        if empties > 0 {
            board.push_str(&empties.to_string());
        }
    }
    board
}

/// A position's text forms, as the protocol layers (USI, the command line, the referee)
/// read and write them; each variant implements it from its own `notation.rs`.
pub trait GameText: Sized {
    /// Parses an SFEN (the variant's own fields after the board).
    fn parse_sfen(text: &str) -> Result<Self, NotationError>;
    fn sfen(&self) -> String;
    /// Reads a move in USI notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<crate::rules::moves::Move, NotationError>;
    /// The USI text of a legal move.
    fn move_text(&self, mv: crate::rules::moves::Move) -> String;
}

/// Implements [`GameText`] for a variant's `Position` from its own `from_sfen`, `to_sfen`,
/// `parse_usi_move` and `move_to_usi`.
macro_rules! game_text_from_usi_notation {
    ($position:ty) => {
        impl $crate::rules::notation::GameText for $position {
            fn parse_sfen(text: &str) -> Result<$position, $crate::rules::notation::NotationError> {
                <$position>::from_sfen(text)
            }

            fn sfen(&self) -> String {
                self.to_sfen()
            }

            fn parse_move(
                &self,
                text: &str,
            ) -> Result<$crate::rules::moves::Move, $crate::rules::notation::NotationError> {
                self.parse_usi_move(text)
            }

            fn move_text(&self, mv: $crate::rules::moves::Move) -> String {
                self.move_to_usi(mv)
            }
        }
    };
}
pub(crate) use game_text_from_usi_notation;
