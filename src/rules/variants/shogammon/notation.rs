//! Shogammon text: the SFEN with points and the action tokens (RULES.md §4.6, docs/USI.md).
//!
//! The SFEN is shogi's with one addition: a point is written `(XY)`, lower piece first, each
//! with its own `+` (`(K+P)`: a king under a tokin). An SFEN describes a position at the
//! start of a turn, before the roll; a position inside a turn is that SFEN plus the tokens
//! played since (`r:61 7g7f`), as every record is written (docs/USI.md). Its move number counts
//! turns. Tokens: `r:ab` a roll (either order read, higher die first written), board moves
//! and drops in USI notation, and `pass`.
//!
//! The SFEN is read strictly, as shogi's (the shared grammar in `rules::notation`): 3 or 4
//! fields; nine ranks of exactly nine squares (a point is one square) with runs `1`–`9`;
//! side `b` or `w`; shogi's hands field (each side's kind once, counts from 2 without a
//! leading zero, in any order); a turn number of 1 to 1,000,000 in plain digits. A point is
//! `(` two pieces of one colour `)`, each with its own `+`, never nested, never after a `+`.
//! No more pieces of a kind on the board (both layers) and in hand than a shogi set holds,
//! and one king a side. A roll is `r:` and two digits 1–6 in either order (`r:16` = `r:61`).

use super::dice::{Roll, ShogammonDice};
use super::position::Position;
use super::Geo;
use crate::rules::bitboard::Bitboard;
use crate::rules::dropshogi::notation::{
    hands_text, kind_from_letter, parse_hands, piece_text, read_usi_move,
};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::{
    legal_or_refused, read_sfen_board, read_sfen_fields, sfen_kind, write_sfen_board, NotationError,
};
use crate::rules::variants::shogi::{Kind, Piece, Shogi};
use crate::rules::variants::{GameStart, RuleOptions};

/// The start position: shogi's (RULES.md §4.1), sente to roll.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The letter standing in for a `(..)` group while the shared board grammar reads the rest
/// (no shogi piece uses it).
const POINT_PLACEHOLDER: char = 'X';

fn sfen_error(message: impl Into<String>) -> NotationError {
    NotationError::Sfen(message.into())
}

/// Reads one piece of a point group (`+P`, `k`).
fn read_group_piece(chars: &mut std::str::Chars<'_>, group: &str) -> Result<Piece, NotationError> {
    let bad = || sfen_error(format!("bad point ({group})"));
    let mut c = chars.next().ok_or_else(bad)?;
    let promoted = c == '+';
    if promoted {
        c = chars.next().ok_or_else(bad)?;
    }
    let kind = kind_from_letter::<Kind>(c).ok_or_else(bad)?;
    let kind = match (promoted, kind.can_promote()) {
        (false, _) => kind,
        (true, true) => kind.promoted(),
        (true, false) => return Err(bad()),
    };
    let color = if c.is_ascii_uppercase() {
        Color::Sente
    } else {
        Color::Gote
    };
    Ok(Piece::new(color, kind))
}

/// Splits the `(..)` groups out of a board field: the board with a placeholder letter for
/// each group, and each group's (lower, upper) pieces in text order.
fn extract_points(board: &str) -> Result<(String, Vec<(Piece, Piece)>), NotationError> {
    if board.contains(POINT_PLACEHOLDER) || board.contains(POINT_PLACEHOLDER.to_ascii_lowercase()) {
        return Err(sfen_error(format!(
            "unknown piece letter {POINT_PLACEHOLDER:?}"
        )));
    }
    let mut plain = String::new();
    let mut points = Vec::new();
    let mut rest = board;
    while let Some(open) = rest.find('(') {
        plain.push_str(&rest[..open]);
        if plain.ends_with('+') {
            return Err(sfen_error(
                "'+' before a point; promote the piece inside it",
            ));
        }
        let close = rest[open..]
            .find(')')
            .ok_or_else(|| sfen_error("unclosed '(' in the board"))?;
        let group = &rest[open + 1..open + close];
        let mut chars = group.chars();
        let lower = read_group_piece(&mut chars, group)?;
        let upper = read_group_piece(&mut chars, group)?;
        if chars.next().is_some() {
            return Err(sfen_error(format!("a point holds two pieces: ({group})")));
        }
        if lower.color() != upper.color() {
            return Err(sfen_error(format!("a point of two colours: ({group})")));
        }
        points.push((lower, upper));
        plain.push(POINT_PLACEHOLDER);
        rest = &rest[open + close + 1..];
    }
    if rest.contains(')') {
        return Err(sfen_error("')' without '(' in the board"));
    }
    plain.push_str(rest);
    Ok((plain, points))
}

/// Shogammon reads its die table.
impl GameStart for Position {
    fn set_up(sfen: Option<&str>, options: &RuleOptions) -> Result<Self, NotationError> {
        Position::from_sfen_with(sfen.unwrap_or(START_SFEN), options.dice)
    }
}

impl Position {
    /// The start position with the default die table.
    pub fn startpos() -> Position {
        Position::from_sfen(START_SFEN).expect("the start SFEN is valid")
    }

    /// Parses an SFEN (3 or 4 fields) with the default die table.
    pub fn from_sfen(text: &str) -> Result<Position, NotationError> {
        Position::from_sfen_with(text, ShogammonDice::default())
    }

    /// Parses an SFEN (3 or 4 fields; the move number defaults to 1) with a die table.
    pub fn from_sfen_with(text: &str, dice: ShogammonDice) -> Result<Position, NotationError> {
        let fields = read_sfen_fields(text, "hands")?;
        let mut pos = Position::empty(dice);
        let (plain, points) = extract_points(fields.board)?;
        let mut points = points.into_iter();
        for placed in read_sfen_board::<Geo>(&plain)? {
            if placed.letter == POINT_PLACEHOLDER {
                if placed.promoted {
                    return Err(sfen_error("'+' before a point"));
                }
                let (lower, upper) = points
                    .next()
                    .ok_or_else(|| sfen_error("more placeholders than points"))?;
                pos.put(placed.square, upper, Some(lower));
                continue;
            }
            let promotion = |k: Kind| k.can_promote().then(|| k.promoted());
            let kind = sfen_kind(placed, kind_from_letter::<Kind>, promotion)?;
            pos.put(placed.square, Piece::new(placed.color(), kind), None);
        }
        let hands = parse_hands::<Kind, _>(fields.third)?;
        pos.finish_setup(fields.side, hands, fields.move_number);
        validate(&pos)?;
        Ok(pos)
    }

    /// The SFEN of the board, hands, side and turn number. Inside a turn (dice left) the
    /// dice are not part of it: see the module header.
    pub fn to_sfen(&self) -> String {
        let board = write_sfen_board::<Geo>(|sq| {
            let top = self.top(sq)?;
            Some(match self.bottom(sq) {
                Some(lower) => format!("({}{})", piece_text(lower), piece_text(top)),
                None => piece_text(top),
            })
        });
        format!(
            "{board} {} {} {}",
            self.side_to_move().sfen_char(),
            hands_text::<Piece, _>([self.hand(Color::Sente), self.hand(Color::Gote)]),
            self.turn_number()
        )
    }

    /// The token of an action: `r:61`, `pass`, `7g7f`, `8h2b+`, `P*5e`.
    pub fn action_to_usi(&self, action: Move) -> String {
        if let Some(roll) = Roll::from_move(action) {
            return roll.token();
        }
        if action.is_pass() {
            return "pass".to_string();
        }
        let to = action.to().to_usi::<Geo>();
        match (
            action.from(),
            action.dropped_kind().and_then(|k| Kind::from_index(k.0)),
        ) {
            (Some(from), _) => format!(
                "{}{to}{}",
                from.to_usi::<Geo>(),
                if action.is_promotion() { "+" } else { "" }
            ),
            (None, Some(kind)) => format!("{}*{to}", kind.rules().letter),
            (None, None) => format!("?{to}"),
        }
    }

    /// Reads a token and checks that it is a legal action here.
    pub fn parse_action(&self, text: &str) -> Result<Move, NotationError> {
        let candidate = if text.starts_with("r:") {
            Roll::parse_token(text)
                .ok_or_else(|| NotationError::Move(format!("malformed roll {text:?}")))?
                .to_move()
        } else if text == "pass" {
            Move::pass()
        } else {
            read_usi_move::<Shogi>(text)?
        };
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        legal_or_refused(candidate, &legal, text, || self.describe())
    }
}

/// Refuses positions that could not arise: not one king per side, more pieces than a set,
/// a piece that could never move, or two unpromoted pawns of a side on a file (points
/// included, RULES.md §4.4 ruling #19).
fn validate(pos: &Position) -> Result<(), NotationError> {
    let t = pos.tables();
    let mut kings = [0; 2];
    let mut set_counts = [0u32; 7];
    let mut pawn_files = [[false; 9]; 2];
    for sq in Square::all::<Geo>() {
        for piece in [pos.top(sq), pos.bottom(sq)].into_iter().flatten() {
            let us = piece.color();
            match piece.kind().in_hand() {
                None => kings[us.index()] += 1,
                Some(base) => set_counts[base.index()] += 1,
            }
            let kind = piece.kind();
            if kind.can_promote() && !t.board.alive[us.index()][kind.index()].contains(sq) {
                return Err(sfen_error(format!(
                    "{} on {} could never move",
                    kind.rules().name,
                    sq.to_usi::<Geo>()
                )));
            }
            if kind == Kind::Pawn {
                let file = sq.file::<Geo>().0 as usize;
                if std::mem::replace(&mut pawn_files[us.index()][file], true) {
                    return Err(sfen_error(format!(
                        "two {} pawns on file {}",
                        us.name(),
                        file + 1
                    )));
                }
            }
        }
    }
    if kings != [1, 1] {
        return Err(sfen_error("each side needs exactly one king"));
    }
    for (slot, kind) in Kind::HAND.iter().enumerate() {
        let total = set_counts[slot]
            + Color::BOTH
                .iter()
                .map(|c| pos.hand(*c).count(*kind) as u32)
                .sum::<u32>();
        if total > Kind::SET_COUNT[slot] as u32 {
            return Err(sfen_error(format!(
                "more than {} {}s",
                Kind::SET_COUNT[slot],
                kind.rules().name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation_checks::*;

    #[test]
    fn sfen_with_points_round_trips() {
        assert_sfens_round_trip(
            Position::from_sfen,
            Position::to_sfen,
            &[
                START_SFEN,
                "4k4/9/9/9/4(K+P)4/9/9/9/9 w - 5",
                "(lk)8/9/9/9/9/9/9/9/(P+B)3K4 b RG2p 12",
                "4k4/9/9/9/9/9/9/9/(G+R)(SK)(+L+N)6 b - 1",
            ],
        );
        let pos = Position::from_sfen("4k4/9/9/9/4(K+P)4/9/9/9/9 b - 1").unwrap();
        let e5 = Square::from_usi::<Geo>("5e").unwrap();
        assert_eq!(pos.bottom(e5).map(|p| p.kind()), Some(Kind::King));
        assert_eq!(pos.top(e5).map(|p| p.kind()), Some(Kind::ProPawn));
    }

    #[test]
    fn bad_sfens_are_refused_with_a_reason() {
        assert_refused_with_reason(
            Position::from_sfen,
            [
                ("", "fields"),
                ("4k4/9/9/9/4(K+P/9/9/9/9 b - 1", "unclosed"),
                ("4k4/9/9/9/4K+P)4/9/9/9/9 b - 1", "without"),
                ("4k4/9/9/9/4(KPP)4/9/9/9/9 b - 1", "two pieces"),
                ("4k4/9/9/9/4(K)4/9/9/9/9 b - 1", "bad point"),
                ("4k4/9/9/9/4(Kp)4/9/9/9/9 b - 1", "two colours"),
                ("4k4/9/9/9/4+(KP)4/9/9/9/9 b - 1", "'+' before"),
                ("4k4/9/9/9/4(+KP)4/9/9/9/9 b - 1", "bad point"),
                ("4k4/9/9/9/4X4/9/9/9/9 b - 1", "letter"),
                ("4k4/9/9/9/4(KQ)4/9/9/9/9 b - 1", "bad point"),
                ("4k4/9/9/9/3(KG)(GK)4/9/9/9/9 b - 1", "one king"),
                ("(kP)3K4/9/9/9/9/9/9/9/9 b - 1", "two colours"),
                ("(PK)3k4/9/9/9/9/9/9/9/9 b - 1", "never move"),
                ("4k4/9/9/9/4(KP)4/4P4/9/9/9 b - 1", "two"),
                ("4k4/9/9/9/4K4/9/9/9/9 b 19P 1", "hand count"),
                ("4k4/9/9/9/4(K+B)4/9/9/9/9 b 2B 1", "more than"),
                ("4k4/9/9/9/4(K+B)4/9/9/9/9 b - 0", "move number"),
                ("4k4/9/9/9/4(K+B)4/9/9/9/9 x - 1", "side"),
                ("4k4/9/9/9/4(K+B)5/9/9/9/9 b - 1", "squares"),
            ],
        );
    }

    #[test]
    fn tokens_print_and_parse() {
        let mut pos = Position::startpos();
        for bad in ["7g7f", "pass", "r:71", "r:", "", "roll"] {
            assert!(pos.parse_action(bad).is_err(), "{bad}");
        }
        let roll = pos.parse_action("r:16").unwrap();
        assert_eq!(pos.action_to_usi(roll), "r:61");
        pos.play(roll);
        for bad in [
            "r:61", "pass", "8h2b", "7g7e", "P*5e", "7g7f+", "10a9a", "7g", "5i5h5g",
        ] {
            assert!(pos.parse_action(bad).is_err(), "{bad}");
        }
        for text in ["7g7f", "5i5h", "5i4i"] {
            let action = pos.parse_action(text).unwrap();
            assert_eq!(pos.action_to_usi(action), text);
        }
        let hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut hand = hand;
        hand.play(hand.parse_action("r:44").unwrap());
        let drop = hand.parse_action("G*5e").unwrap();
        assert_eq!(hand.action_to_usi(drop), "G*5e");
        assert!(
            hand.parse_action("G*5i").is_err(),
            "drops only on empty squares"
        );
        let promo = Position::from_sfen("4k4/9/P8/9/9/9/9/9/4K4 b - 1").unwrap();
        let mut promo = promo;
        promo.play(Roll::parse_token("r:11").unwrap().to_move());
        assert_eq!(
            promo.action_to_usi(promo.parse_action("9c9b+").unwrap()),
            "9c9b+"
        );
        assert_eq!(
            promo.parse_action("9c9b=").unwrap(),
            promo.parse_action("9c9b").unwrap()
        );
    }

    /// Issue 12: hands of more pieces than a set holds, written as groups or repeated
    /// letters, panicked in the hash; the SFEN is also read strictly like shogi's.
    #[test]
    fn oversized_hands_and_lenient_spellings_are_refused() {
        let board = "4k4/9/9/9/4(K+P)4/9/9/9/9";
        let (pawns, rooks) = ("p".repeat(19), "R".repeat(20));
        let oversized = ["10p10p", "10P9P", pawns.as_str(), rooks.as_str(), "18p"];
        assert_bad_hands_refused(Position::from_sfen, board, &oversized);
        assert_bad_move_numbers_refused(Position::from_sfen, &format!("{board} b -"));
        assert!(Position::from_sfen(&format!("{board} b 17p 1")).is_ok());
        assert_all_refused(
            Position::from_sfen,
            [
                "4k4/9/9/9/04(K+P)4/9/9/9/9 b - 1",
                "4k4/9/9/9/4(K+P)04/9/9/9/9 b - 1",
                "4k4/9/9/9/4((K+P))4/9/9/9/9 b - 1",
                "4k4/9/9/9/4(K(+P))4/9/9/9/9 b - 1",
            ],
        );
    }

    /// Mangled SFENs and tokens are refused or accepted, never a panic.
    #[test]
    fn mangled_text_never_panics() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        let seeds = [
            "(lk)8/9/9/9/9/9/9/9/(P+B)3K4 b RG2p 12",
            "4k4/9/9/9/4(gp)G3/4P4/9/9/4K4 b - 1",
        ];
        let alphabet: Vec<char> = "()+/-0123456789abKkPpGgrR: *é".chars().collect();
        for _ in 0..20_000 {
            let mut text: Vec<char> = seeds[rng.gen_range(0..2)].chars().collect();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..text.len());
                match rng.gen_range(0..3) {
                    0 => {
                        text.remove(at);
                    }
                    1 => text.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                    _ => text[at] = alphabet[rng.gen_range(0..alphabet.len())],
                }
            }
            let text: String = text.into_iter().collect();
            if let Ok(pos) = Position::from_sfen(&text) {
                assert_eq!(Position::from_sfen(&pos.to_sfen()).unwrap(), pos, "{text}");
            }
        }
        let mut pos = Position::startpos();
        pos.play(Roll::parse_token("r:52").unwrap().to_move());
        for token in [
            "r:é", "é", "P*", "*5e", "5", "5i5h+=", "+", "r:5é", "pass ", "B*5e+",
        ] {
            assert!(pos.parse_action(token).is_err(), "{token}");
        }
    }
}
