//! What every variant's notation shares: the error type (so callers report any variant's
//! mistakes alike) and the grammar of an SFEN that is the same in every game: the field
//! count, the board field on any board size, the side to move, the move number and the shape
//! of a hands field. What the letters mean, and what a variant adds, each variant reads in
//! its own `variants/*/notation.rs`.
//!
//! The reading is strict, so that one position has one accepted text up to the order of the
//! hand groups (README, "SFEN text accepted"):
//! * 3 or 4 fields separated by whitespace: board, side, a variant's third field, and an
//!   optional move number (1 when absent).
//! * Board: exactly `G::RANKS` ranks separated by `/`, each exactly `G::FILES` squares wide.
//!   An empty-square run is written in decimal digits without a leading zero, 1 to the board
//!   width (`9` on 9×9, up to `12` on 12×12); `0`, `01`, `09`, `10` on 9×9 are refused. A
//!   `+` comes just before a letter.
//! * Side: `b` or `w`.
//! * Move number: plain decimal digits (no sign, no leading zero), 1 to
//!   [`MAX_MOVE_NUMBER`].
//! * Hands: `-`, or groups `[count]letter` (uppercase sente, lowercase gote) in any order,
//!   each piece kind of each side at most once, the count absent for one piece and otherwise
//!   2 or more without a leading zero, and no more pieces of a kind in both hands together
//!   than a set holds (the variant then adds the board's pieces to that count).

use crate::rules::geometry::{Color, File, Geometry, Rank, Square};
use crate::rules::moves::Move;
use crate::rules::piece::PieceRules;
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

/// The arguments of a USI `position` command, split: `startpos` or `sfen <fields…>`, then
/// `moves <tokens…>`. Every game reads its `position` through this one reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionArgs<'a> {
    /// The SFEN after `sfen` (its words joined by one space), or `None` for `startpos`.
    pub sfen: Option<String>,
    /// The tokens after `moves`, in order.
    pub moves: Vec<&'a str>,
}

impl<'a> PositionArgs<'a> {
    /// Splits the words of `position`'s arguments; an unknown setup word or a word between
    /// `startpos` and `moves` is refused.
    pub fn read(args: &[&'a str]) -> Result<PositionArgs<'a>, NotationError> {
        let (setup, moves) = match args.iter().position(|t| *t == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let sfen = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => None,
            Some(&"startpos") => {
                return Err(NotationError::Sfen(format!(
                    "unexpected {:?} after startpos (expected moves)",
                    setup[1]
                )))
            }
            Some(&"sfen") => Some(setup[1..].join(" ")),
            Some(other) => {
                return Err(NotationError::Sfen(format!(
                    "expected startpos or sfen, found {other:?}"
                )))
            }
            None => {
                return Err(NotationError::Sfen(
                    "position needs startpos or sfen".to_string(),
                ))
            }
        };
        Ok(PositionArgs {
            sfen,
            moves: moves.to_vec(),
        })
    }
}

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

/// The largest move number an SFEN may carry. Far above any real game, and far enough
/// below `u32::MAX` that playing moves from it never overflows the counter.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// The fields of an SFEN: the board and the variant's third field still as text, the side to
/// move and the move number read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfenFields<'a> {
    pub board: &'a str,
    pub side: Color,
    /// The hands (shogi, Chu Kagamigi, Shogammon) or the lion-capture square (Chu).
    pub third: &'a str,
    pub move_number: u32,
}

/// Splits an SFEN into its 3 or 4 fields and reads the side and the move number;
/// `third_name` names the third field in the error message.
pub fn read_sfen_fields<'a>(
    text: &'a str,
    third_name: &str,
) -> Result<SfenFields<'a>, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side, third, move_number) = match fields[..] {
        [board, side, third] => (board, side, third, None),
        [board, side, third, number] => (board, side, third, Some(number)),
        _ => {
            return Err(sfen_error(format!(
                "expected 3 or 4 fields (board side {third_name} [move]), found {}",
                fields.len()
            )))
        }
    };
    let side = match side {
        "b" => Color::Sente,
        "w" => Color::Gote,
        other => {
            return Err(sfen_error(format!(
                "side to move must be b or w, not {other:?}"
            )))
        }
    };
    let move_number = match move_number {
        Some(text) => read_move_number(text)?,
        None => 1,
    };
    Ok(SfenFields {
        board,
        side,
        third,
        move_number,
    })
}

/// Whether `text` is a decimal number as the SFEN writes one: ASCII digits only, no sign and
/// no leading zero (so not `0` either).
fn is_plain_number(text: &str) -> bool {
    !text.is_empty() && !text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit())
}

/// Reads an SFEN move number: 1 to [`MAX_MOVE_NUMBER`] in plain digits.
pub fn read_move_number(text: &str) -> Result<u32, NotationError> {
    is_plain_number(text)
        .then(|| text.parse::<u32>().ok())
        .flatten()
        .filter(|n| *n <= MAX_MOVE_NUMBER)
        .ok_or_else(|| {
            sfen_error(format!(
                "bad move number {text:?} (expected 1 to {MAX_MOVE_NUMBER} in plain digits)"
            ))
        })
}

/// One group of an SFEN hands field: a side's pieces of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfenHandGroup<K> {
    pub color: Color,
    pub kind: K,
    pub count: u8,
}

/// Reads the hands field of an SFEN (the grammar in the module header). `hand_kind` takes an
/// uppercase letter and gives the kind it names in hand with the number of that kind a set
/// holds, or `None` if no piece with that letter can be in hand.
pub fn read_sfen_hands<K: Copy + PartialEq>(
    text: &str,
    hand_kind: impl Fn(char) -> Option<(K, u8)>,
) -> Result<Vec<SfenHandGroup<K>>, NotationError> {
    let mut groups: Vec<SfenHandGroup<K>> = Vec::new();
    if text == "-" {
        return Ok(groups);
    }
    let mut rest = text;
    while !rest.is_empty() {
        let digits = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
        let mut after = rest[digits.len()..].chars();
        let Some(letter) = after.next() else {
            return Err(sfen_error(format!("hands {text:?} end with a number")));
        };
        rest = after.as_str();
        let (kind, set_size) = hand_kind(letter.to_ascii_uppercase())
            .filter(|_| letter.is_ascii_alphabetic())
            .ok_or_else(|| sfen_error(format!("bad hand piece {letter:?} in {text:?}")))?;
        let count = if digits.is_empty() {
            1
        } else if !is_plain_number(digits) || digits == "1" {
            return Err(sfen_error(format!(
                "bad hand count {digits:?} in {text:?} (a single piece has no count; \
                 other counts are 2 or more without a leading zero)"
            )));
        } else {
            match digits.parse::<u8>() {
                Ok(n) if n <= set_size => n,
                _ => {
                    return Err(sfen_error(format!(
                        "hand count too large in {text:?}: {digits}{letter}, and a set holds no \
                         more than {set_size}"
                    )))
                }
            }
        };
        let color = if letter.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        if groups.iter().any(|g| g.color == color && g.kind == kind) {
            return Err(sfen_error(format!(
                "{letter} is written twice in the hands {text:?} (write the count once)"
            )));
        }
        let both_hands = count as u32
            + groups
                .iter()
                .filter(|g| g.kind == kind)
                .map(|g| g.count as u32)
                .sum::<u32>();
        if both_hands > set_size as u32 {
            return Err(sfen_error(format!(
                "hand count too large in {text:?}: {both_hands} {} in both hands, and a set \
                 holds no more than {set_size}",
                letter.to_ascii_uppercase()
            )));
        }
        groups.push(SfenHandGroup { color, kind, count });
    }
    if groups.is_empty() {
        return Err(sfen_error(
            "empty hands field (write - for no pieces)".to_string(),
        ));
    }
    Ok(groups)
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
            if c.is_ascii_digit() {
                let mut digits = String::from(c);
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    digits.push(d);
                }
                let run = is_plain_number(&digits)
                    .then(|| digits.parse::<u8>().ok())
                    .flatten()
                    .filter(|run| !promoted && *run <= G::FILES)
                    .ok_or_else(|| {
                        sfen_error(format!(
                            "bad empty-square count {digits} in rank {} (1 to {width} without a \
                             leading zero)",
                            rank + 1
                        ))
                    })?;
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

/// The kind an SFEN board square names: `from_letter` reads its letter (either case) as an
/// unpromoted kind, and a `+` before it asks for `promotion` of that kind, which is `None`
/// for a kind that cannot promote.
pub fn sfen_kind<K>(
    placed: SfenPiece,
    from_letter: impl Fn(char) -> Option<K>,
    promotion: impl Fn(K) -> Option<K>,
) -> Result<K, NotationError> {
    let c = placed.letter;
    let kind = from_letter(c).ok_or_else(|| sfen_error(format!("unknown piece letter {c:?}")))?;
    if placed.promoted {
        promotion(kind).ok_or_else(|| sfen_error(format!("+{c} cannot be promoted")))
    } else {
        Ok(kind)
    }
}

/// Reads the board field for geometry `G` into (square, side, kind) triples, the kinds read
/// as [`sfen_kind`] does.
pub fn read_sfen_pieces<G: Geometry, K>(
    text: &str,
    from_letter: impl Fn(char) -> Option<K>,
    promotion: impl Fn(K) -> Option<K>,
) -> Result<Vec<(Square, Color, K)>, NotationError> {
    read_sfen_board::<G>(text)?
        .into_iter()
        .map(|placed| {
            let kind = sfen_kind(placed, &from_letter, &promotion)?;
            Ok((placed.square, placed.color(), kind))
        })
        .collect()
}

/// The SFEN text of a piece of kind `rules` and colour `color`: its letter, lowercase for
/// gote, after a `+` if the kind is a promoted one (`P`, `+p`, …).
pub fn sfen_piece_text(rules: &PieceRules, color: Color) -> String {
    let letter = match color {
        Color::Sente => rules.letter,
        Color::Gote => rules.letter.to_ascii_lowercase(),
    };
    if rules.is_promoted {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

/// `candidate` if it is among the `legal` moves; otherwise the error that `text` is not
/// legal in the position `position` writes.
pub fn legal_or_refused(
    candidate: Move,
    legal: &[Move],
    text: &str,
    position: impl FnOnce() -> String,
) -> Result<Move, NotationError> {
    if legal.contains(&candidate) {
        Ok(candidate)
    } else {
        Err(NotationError::Move(format!(
            "{text} is not legal in {}",
            position()
        )))
    }
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
