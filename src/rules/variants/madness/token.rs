//! The madness-specific atomic actions (docs/USI.md, "Games with dice and cards") and how they
//! are packed into a [`Move`].
//!
//! Encoding: a special token is `Move::normal(Square(TOKEN_BASE + tag), Square(value),
//! false)`, an "origin square" no 9×9 board has (squares are 0..81), so it never collides
//! with a board move or a drop. Tags and values:
//!
//! | token | tag | value |
//! |---|---|---|
//! | `roll` | 1 | 0 |
//! | `r:N` (`r:10` for 0/10) | 2 | N = 1..=10 |
//! | `c:N` | 3 | N = 1..=10 |
//! | `draw:N` | 4 | N = 1..=10 |
//! | `draw:?` | 5 | 0 |
//! | `mad+` | 6 | 0 |
//! | `mad=` | 7 | 0 |
//!
//! Ordinary moves and drops keep the shogi encoding. The text forms `r:0`, `c:0` and
//! `draw:0` are read as 10 (the rules make 0 and 10 the same value) and printed as 10.
//!
//! The text is read strictly: the tokens are exactly `roll`, `draw:?`, `mad+`, `mad=`, or a
//! prefix `r:`, `c:`, `draw:` with a value `0`–`10` in plain digits (`01`, `00`, `+3`,
//! `010` are refused). Anything else starting with `mad` is an error; other text is left to
//! the shogi move reader.

use crate::rules::geometry::Square;
use crate::rules::moves::Move;
use crate::rules::notation::NotationError;

/// The origin-square byte that marks a special token.
pub const TOKEN_BASE: u8 = 0xF0;

/// A card or die value, 1..=10 (10 stands for 0/10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardValue(u8);

impl CardValue {
    /// Every value, 1 to 10.
    pub const ALL: [CardValue; 10] = {
        let mut all = [CardValue(1); 10];
        let mut i = 0;
        while i < 10 {
            all[i] = CardValue(i as u8 + 1);
            i += 1;
        }
        all
    };

    /// The value `n`, with 0 read as 10; `None` outside 0..=10.
    pub fn new(n: u8) -> Option<CardValue> {
        match n {
            0 => Some(CardValue(10)),
            1..=10 => Some(CardValue(n)),
            _ => None,
        }
    }

    /// 1..=10.
    pub fn get(self) -> u8 {
        self.0
    }

    /// 0..10, for tables indexed by value.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

/// A madness action that is not an ordinary move or drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// `roll`: the player chooses the d10 (decision).
    Roll,
    /// `r:N`: the d10 shows N (chance).
    Die(CardValue),
    /// `c:N`: the player plays its card of value N (decision).
    Card(CardValue),
    /// `draw:N`: a card of value N is drawn, or in a player's view, the hidden card a player
    /// holds turns out to be N (chance).
    Draw(CardValue),
    /// `draw:?`: a card is drawn that the receiver may not see (chance).
    DrawHidden,
    /// `mad+`: promote the piece the madness moved (decision).
    Promote,
    /// `mad=`: do not promote it (decision).
    Decline,
}

impl Token {
    fn tag_and_value(self) -> (u8, u8) {
        match self {
            Token::Roll => (1, 0),
            Token::Die(v) => (2, v.get()),
            Token::Card(v) => (3, v.get()),
            Token::Draw(v) => (4, v.get()),
            Token::DrawHidden => (5, 0),
            Token::Promote => (6, 0),
            Token::Decline => (7, 0),
        }
    }

    /// The `Move` that carries this token.
    pub fn to_move(self) -> Move {
        let (tag, value) = self.tag_and_value();
        Move::normal(Square(TOKEN_BASE + tag), Square(value), false)
    }

    /// The token a `Move` carries, or `None` for an ordinary move or drop.
    pub fn from_move(mv: Move) -> Option<Token> {
        let from = mv.from()?;
        let tag = from.0.checked_sub(TOKEN_BASE)?;
        let value = CardValue::new(mv.to().0).filter(|_| mv.to().0 != 0);
        Some(match tag {
            1 => Token::Roll,
            2 => Token::Die(value?),
            3 => Token::Card(value?),
            4 => Token::Draw(value?),
            5 => Token::DrawHidden,
            6 => Token::Promote,
            7 => Token::Decline,
            _ => return None,
        })
    }

    /// The protocol text (`roll`, `r:7`, `c:10`, `draw:3`, `draw:?`, `mad+`, `mad=`).
    pub fn text(self) -> String {
        match self {
            Token::Roll => "roll".to_string(),
            Token::Die(v) => format!("r:{}", v.get()),
            Token::Card(v) => format!("c:{}", v.get()),
            Token::Draw(v) => format!("draw:{}", v.get()),
            Token::DrawHidden => "draw:?".to_string(),
            Token::Promote => "mad+".to_string(),
            Token::Decline => "mad=".to_string(),
        }
    }

    /// Reads a special token; `Ok(None)` if the text is no special token (an ordinary
    /// move, perhaps), an error if it starts like one but is malformed.
    pub fn parse(text: &str) -> Result<Option<Token>, NotationError> {
        let value = |digits: &str| {
            let plain = matches!(digits.len(), 1 | 2)
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'));
            plain
                .then(|| digits.parse::<u8>().ok())
                .flatten()
                .and_then(CardValue::new)
                .ok_or_else(|| NotationError::Move(format!("bad card or die value in {text:?}")))
        };
        Ok(Some(match text {
            "roll" => Token::Roll,
            "draw:?" => Token::DrawHidden,
            "mad+" => Token::Promote,
            "mad=" => Token::Decline,
            _ => {
                if let Some(rest) = text.strip_prefix("r:") {
                    Token::Die(value(rest)?)
                } else if let Some(rest) = text.strip_prefix("c:") {
                    Token::Card(value(rest)?)
                } else if let Some(rest) = text.strip_prefix("draw:") {
                    Token::Draw(value(rest)?)
                } else if text.starts_with("mad") {
                    return Err(NotationError::Move(format!("unknown token {text:?}")));
                } else {
                    return Ok(None);
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_round_trips_through_move_and_text() {
        let mut all = vec![
            Token::Roll,
            Token::DrawHidden,
            Token::Promote,
            Token::Decline,
        ];
        for v in CardValue::ALL {
            all.extend([Token::Die(v), Token::Card(v), Token::Draw(v)]);
        }
        let mut moves = Vec::new();
        for token in all {
            let mv = token.to_move();
            assert_eq!(Token::from_move(mv), Some(token));
            assert_eq!(Token::parse(&token.text()), Ok(Some(token)));
            assert!(!mv.is_drop());
            moves.push(mv);
        }
        moves.sort_by_key(|m| m.bits());
        moves.dedup();
        assert_eq!(moves.len(), 34);
    }

    #[test]
    fn zero_is_ten_and_bad_values_are_errors() {
        let ten = CardValue::new(10).unwrap();
        assert_eq!(Token::parse("r:0"), Ok(Some(Token::Die(ten))));
        assert_eq!(Token::parse("c:10"), Ok(Some(Token::Card(ten))));
        for bad in [
            "r:11", "c:", "draw:x", "r:-1", "draw:+3", "madx", "r:007", "r:01", "c:00", "draw:05",
            "r: 1", "r:1 ", "c:٣",
        ] {
            assert!(Token::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Token::parse("7g7f"), Ok(None));
        assert_eq!(Token::parse("P*5e"), Ok(None));
        assert_eq!(
            Token::from_move(Move::normal(Square(40), Square(3), false)),
            None
        );
    }
}
