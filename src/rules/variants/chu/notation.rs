//! SFEN and USI move text for Chu Shogi, as lishogi writes them (RULES.md §2.1, §2.4).
//!
//! The SFEN's third field is not a hand but the square where a non-Lion took a Lion on the
//! previous move (`-` if none). Moves are `<from><to>[+|=]` or, for the Lion family's double
//! moves, `<from><mid><to>` (`6i5h4g`, igui `6i5h6i`, jitto `6f6g6f`). Both spellings of the
//! same action are accepted (the direct jump `6f6d` and `6f6e6d` through an empty square);
//! the shortest is printed, and jitto is printed through its first empty adjacent square.
//! Parsing validates: an SFEN is refused with a reason if it is malformed or impossible, and a
//! move only if it names a legal move of the position.
//!
//! The SFEN is read strictly (the shared grammar in `rules::notation`): 3 or 4 fields; twelve
//! ranks of exactly twelve squares with runs `1`–`12` (no `0`, no `01`, no `13`); side `b` or
//! `w`; the third field `-` or one square (`6e`, files without a leading zero); a move number
//! of 1 to 1,000,000 in plain digits. There are no hands, so the piece counts are bounded by
//! the board's 144 squares.

use super::position::Position;
use super::{ChuRules, Geo, Kind, Piece};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::{
    legal_or_refused, read_sfen_fields, read_sfen_pieces, sfen_piece_text, write_sfen_board,
    NotationError,
};
use crate::rules::variants::{GameStart, RuleOptions};

/// The start position (lishogi's `initialSfen`, RULES.md §2.1).
pub const START_SFEN: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

fn sfen_error(message: impl Into<String>) -> NotationError {
    NotationError::Sfen(message.into())
}

fn kind_from_letter(letter: char) -> Option<Kind> {
    Kind::ALL
        .into_iter()
        .find(|k| !k.rules().is_promoted && k.rules().letter == letter.to_ascii_uppercase())
}

/// The SFEN text of a piece (`N`, `+o`, …).
pub fn piece_text(piece: Piece) -> String {
    sfen_piece_text(piece.kind().rules(), piece.color())
}

/// Chu reads its rule set.
impl GameStart for Position {
    fn set_up(sfen: Option<&str>, options: &RuleOptions) -> Result<Self, NotationError> {
        Position::from_sfen_with(sfen.unwrap_or(START_SFEN), options.chu_rules)
    }
}

impl Position {
    /// The start position under lishogi's rules.
    pub fn startpos() -> Position {
        Position::startpos_with(ChuRules::default())
    }

    /// The start position under `rules`.
    pub fn startpos_with(rules: ChuRules) -> Position {
        Position::from_sfen_with(START_SFEN, rules).expect("the start SFEN is valid")
    }

    /// Parses a 3- or 4-field Chu SFEN under lishogi's rules.
    pub fn from_sfen(text: &str) -> Result<Position, NotationError> {
        Position::from_sfen_with(text, ChuRules::default())
    }

    /// Parses a 3- or 4-field Chu SFEN (the move number defaults to 1) under `rules`.
    pub fn from_sfen_with(text: &str, rules: ChuRules) -> Result<Position, NotationError> {
        let fields = read_sfen_fields(text, "lion-capture")?;
        let mut pos = Position::empty(rules);
        let promotion = |k: Kind| k.can_promote().then(|| k.promoted());
        for (square, color, kind) in
            read_sfen_pieces::<Geo, _>(fields.board, kind_from_letter, promotion)?
        {
            pos.put(square, Piece::new(color, kind));
        }
        let (side, move_number) = (fields.side, fields.move_number);
        let lion_capture = match fields.third {
            "-" => None,
            text => Some(Square::from_usi::<Geo>(text).ok_or_else(|| {
                sfen_error(format!(
                    "third field must be the last lion-capture square or -, not {text:?} (Chu has no hands)"
                ))
            })?),
        };
        pos.finish_setup(side, lion_capture, move_number);
        validate(&pos)?;
        Ok(pos)
    }

    /// The SFEN of this position.
    pub fn to_sfen(&self) -> String {
        let board = write_sfen_board::<Geo>(|sq| self.piece_at(sq).map(piece_text));
        let record = self
            .lion_capture()
            .map_or_else(|| "-".to_string(), |sq| sq.to_usi::<Geo>());
        format!(
            "{board} {} {record} {}",
            self.side_to_move().sfen_char(),
            self.move_number()
        )
    }

    /// The USI text of a move of this position: `7g7f`, `8h2b+`, `6i5h4g`, `6i5h6i`, `6f6g6f`.
    pub fn move_to_usi(&self, mv: Move) -> String {
        let from = mv.from().map_or_else(String::new, |s| s.to_usi::<Geo>());
        let mid = mv.mid().map_or_else(String::new, |s| s.to_usi::<Geo>());
        format!(
            "{from}{mid}{}{}",
            mv.to().to_usi::<Geo>(),
            if mv.is_promotion() { "+" } else { "" }
        )
    }

    /// Whether `mv` is jitto: a two-step move back to its square through an empty one (a
    /// pass, written `@@@@` in XBoard's notation).
    pub fn is_jitto(&self, mv: Move) -> bool {
        mv.from() == Some(mv.to()) && mv.mid().is_some_and(|mid| self.piece_at(mid).is_none())
    }

    /// A legal jitto of this position, if any; every jitto leaves the same board, so the
    /// first one generated stands for XBoard's null move.
    pub fn jitto(&self) -> Option<Move> {
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        legal.iter().copied().find(|&m| self.is_jitto(m))
    }

    /// Parses a USI move and checks that it is legal here. A trailing `=` ("do not promote")
    /// is accepted; a double move through an empty square is read as the equivalent direct
    /// move (or as this piece's jitto when it ends where it started).
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, NotationError> {
        let bad = |why: &str| NotationError::Move(format!("{text}: {why}"));
        let (body, promote) = match text.strip_suffix('+') {
            Some(body) => (body, true),
            None => (text.strip_suffix('=').unwrap_or(text), false),
        };
        let squares = split_squares(body).ok_or_else(|| bad("malformed move"))?;
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        let us = self.side_to_move();
        let from = squares[0];
        let piece = self
            .piece_at(from)
            .filter(|p| p.color() == us)
            .ok_or_else(|| bad("no piece of the side to move on the origin square"))?;
        let candidate = match squares[..] {
            [_, to] => Move::normal(from, to, promote),
            [_, mid, to] => {
                if promote {
                    return Err(bad("a two-step move cannot promote"));
                }
                if !self.is_lion_path(piece.kind(), us, from, mid, to) {
                    return Err(bad(&format!(
                        "a {} cannot move through {} to {}",
                        piece.kind().rules().name,
                        mid.to_usi::<Geo>(),
                        to.to_usi::<Geo>()
                    )));
                }
                match self.piece_at(mid) {
                    Some(p) if p.color() == us => {
                        return Err(bad("the middle square holds one's own piece"))
                    }
                    Some(_) => Move::multi(from, mid, to),
                    // The piece's jitto: its pass through an empty square, not an igui
                    // (a capture on the middle square) that may come first in the list.
                    None if to == from => legal
                        .iter()
                        .copied()
                        .find(|m| {
                            m.from() == Some(from)
                                && m.to() == from
                                && m.mid().is_some_and(|s| self.piece_at(s).is_none())
                        })
                        .ok_or_else(|| bad("jitto is not possible here"))?,
                    None => Move::normal(from, to, false),
                }
            }
            _ => return Err(bad("malformed move")),
        };
        legal_or_refused(candidate, &legal, text, || self.to_sfen())
    }
}

/// Splits `7g7f` / `12a11b10c` into its squares (2 or 3 of them).
fn split_squares(body: &str) -> Option<Vec<Square>> {
    let mut squares = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let end = digits + rest[digits..].chars().next()?.len_utf8();
        squares.push(Square::from_usi::<Geo>(&rest[..end])?);
        rest = &rest[end..];
    }
    (2..=3).contains(&squares.len()).then_some(squares)
}

fn validate(pos: &Position) -> Result<(), NotationError> {
    for color in Color::BOTH {
        if pos.pieces(color, Kind::King).more_than_one() {
            return Err(sfen_error(format!("{} has two kings", color.name())));
        }
        if pos.pieces(color, Kind::CrownPrince).more_than_one() {
            return Err(sfen_error(format!(
                "{} has two crown princes",
                color.name()
            )));
        }
        if pos.royals(color).is_empty() {
            return Err(sfen_error(format!(
                "{} has no royal (king or crown prince)",
                color.name()
            )));
        }
    }
    if let Some(sq) = pos.lion_capture() {
        if pos
            .piece_at(sq)
            .is_some_and(|p| p.color() == pos.side_to_move())
        {
            return Err(sfen_error(format!(
                "lion-capture square {} holds a piece of the side to move",
                sq.to_usi::<Geo>()
            )));
        }
    }
    Ok(())
}

crate::rules::notation::game_text_from_usi_notation!(Position);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation_checks::*;

    const LONE_LION: &str = "11k/12/12/12/12/6N5/12/12/12/12/12/K11 b - 1";

    #[test]
    fn sfen_round_trips() {
        let promoted =
            "+l+f+c+s+g+e+k+t+x+o+b+a/12/+m+v+r+h+d+q+n+p+i3/12/12/12/12/12/12/12/12/K11 b - 1"
                .replace("+k", "k")
                .replace("+q", "q")
                .replace("+n", "n");
        assert_sfens_round_trip(
            Position::from_sfen,
            Position::to_sfen,
            &[
            START_SFEN,
            "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 7",
            "11k/12/12/9g2/6+o2n2/6R1N3/12/9R2/12/12/12/K11 b 6e 1",
            "12/6k1+e3/6nP4/12/6N5/12/12/12/12/12/12/K4G5+E w - 12",
            promoted.as_str(),
            ],
        );
        // Three fields: the move number defaults to 1.
        let short = Position::from_sfen("11k/12/12/12/12/12/12/12/12/12/12/K11 b -").unwrap();
        assert!(short.to_sfen().ends_with(" b - 1"));
    }

    #[test]
    fn bad_sfens_are_refused_with_a_reason() {
        let ok = "11k/12/12/12/12/12/12/12/12/12/12/K11";
        assert_refused_with_reason(
            Position::from_sfen,
            [
                ("", "fields"),
                ("12/12 b - 1", "ranks"),
                ("11k/12/12/12/12/12/12/12/12/12/12/K10 b - 1", "squares"),
                (
                    "11k/13/12/12/12/12/12/12/12/12/12/K11 b - 1",
                    "empty-square count",
                ),
                ("11k/12/12/12/12/12/12/12/12/12/12/K10Z b - 1", "letter"),
                (
                    "11k/12/12/12/12/12/12/12/12/12/12/K11Z b - 1",
                    "longer than 12",
                ),
                ("10kk/12/12/12/12/12/12/12/12/12/12/K11 b - 1", "two kings"),
                (
                    "11+k/12/12/12/12/12/12/12/12/12/12/K11 b - 1",
                    "cannot be promoted",
                ),
                ("11g/12/12/12/12/12/12/12/12/12/12/K11 b - 1", "no royal"),
                (
                    "10+e+e/12/12/12/12/12/12/12/12/12/12/K11 b - 1",
                    "two crown princes",
                ),
            ],
        );
        let tails = [
            ("x - 1", "side"),
            ("b P 1", "lion-capture square"),
            ("b 13a 1", "lion-capture square"),
            ("b - 0", "move number"),
            ("b 12l 1", "side to move"),
        ];
        assert_refused_with_reason(
            Position::from_sfen,
            tails.map(|(tail, why)| (format!("{ok} {tail}"), why)),
        );
    }

    /// Issue 12: zero and leading-zero runs, overlong digit runs and lenient move numbers
    /// were accepted (or overflowed); the reading is now strict.
    #[test]
    fn lenient_spellings_are_refused() {
        let ranks = |fifth: &str| format!("11k/12/12/12/{fifth}/12/12/12/12/12/12/K11");
        assert_bad_ranks_refused(Position::from_sfen, 12, 'g', ranks);
        assert_bad_move_numbers_refused(Position::from_sfen, &format!("{} b -", ranks("12")));
        let tails = ["b 06e 1", "b e6 1", "W - 1"];
        assert_all_refused(
            Position::from_sfen,
            tails.map(|tail| format!("{} {tail}", ranks("12"))),
        );
        let ok = Position::from_sfen(&format!("{} w 10e 1000000", ranks("12"))).unwrap();
        assert_eq!(ok.move_number(), 1_000_000);
    }

    #[test]
    fn both_spellings_of_a_move_parse_and_the_shortest_prints() {
        let pos = Position::from_sfen(LONE_LION).unwrap();
        let direct = pos.parse_usi_move("6f6d").unwrap();
        assert_eq!(pos.parse_usi_move("6f6e6d").unwrap(), direct);
        assert_eq!(pos.parse_usi_move("6f5e6d").unwrap(), direct);
        assert_eq!(pos.parse_usi_move("6f6d=").unwrap(), direct);
        assert_eq!(pos.move_to_usi(direct), "6f6d");
        // A two-step move back to an adjacent square is the plain step.
        assert_eq!(
            pos.parse_usi_move("6f6e5e").unwrap(),
            pos.parse_usi_move("6f5e").unwrap()
        );
        // Every jitto spelling is the same pass; it prints through the first empty square.
        let pass = pos.parse_usi_move("6f6g6f").unwrap();
        assert_eq!(pos.parse_usi_move("6f7e6f").unwrap(), pass);
        assert_eq!(pos.move_to_usi(pass), "6f5e6f");
        assert_eq!(pass.mid().map(|s| s.to_usi::<Geo>()), Some("5e".into()));
    }

    /// Found by the parser properties (issue 12): a Soaring Eagle that can both igui (take
    /// the gold on 5b and return) and pass (jitto through the empty 3b) had its jitto refused
    /// as "not possible", because the igui came first in the move list.
    #[test]
    fn jitto_is_read_when_an_igui_is_also_possible() {
        let sfen = "lf1s1e1kscfl/acbgtxog3a/m1rhdqdt+D1vm/p1ppppp4p/1v5p1pp1/1p1i1h6/8i1b1/PP1IP3PP1P/M1PPHPP1HXP1/2RB1T3RVM/AV1D1OETSBFA/LFCSGK1G1C1L b - 63";
        let pos = Position::from_sfen(sfen).unwrap();
        let pass = pos
            .parse_usi_move("4c3b4c")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pos.move_to_usi(pass), "4c3b4c");
        let igui = pos.parse_usi_move("4c5b4c").unwrap();
        assert_ne!(igui, pass);
        assert_eq!(pos.move_to_usi(igui), "4c5b4c");
    }

    #[test]
    fn double_moves_print_and_parse() {
        let sfen = "11k/12/12/12/5Rpg4/6NP4/5s6/12/12/12/12/K11 b - 1";
        let pos = Position::from_sfen(sfen).unwrap();
        for text in ["6f6e5e", "6f6e6f", "6f7g8h", "6f6e", "12l11l"] {
            let mv = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(pos.move_to_usi(mv), text);
        }
        for (bad, why) in [
            ("6f6f", "not legal"),
            ("6f4f5f", "cannot move through"),
            ("6f6e6d+", "cannot promote"),
            ("6f5f4f", "own piece"),
            ("6f6e7e", "not legal"),
            ("1a2a", "no piece of the side to move"),
            ("13a1a", "malformed"),
            ("6f", "malformed"),
            ("6f6e5e4d", "malformed"),
            ("", "malformed"),
        ] {
            let err = pos.parse_usi_move(bad).expect_err(bad).to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        // Falcon and Eagle paths are checked against their lion directions.
        let falcon = Position::from_sfen("11k/12/12/12/6p5/6+H5/12/12/12/12/12/K11 b - 1").unwrap();
        assert!(falcon.parse_usi_move("6f6e6d").is_ok());
        assert!(falcon.parse_usi_move("6f6e6f").is_ok());
        assert!(falcon.parse_usi_move("6f6e5d").is_err());
        assert!(falcon.parse_usi_move("6f6g6f").is_err());
    }

    #[test]
    fn promotion_suffixes() {
        let pos = Position::from_sfen("11k/12/12/12/7S4/12/12/12/12/12/12/K11 b - 1").unwrap();
        assert!(pos.parse_usi_move("5e5d+").unwrap().is_promotion());
        assert_promotion_suffixes(&pos, "5e5d");
        assert!(pos.parse_usi_move("5e5f+").is_err());
    }
}
