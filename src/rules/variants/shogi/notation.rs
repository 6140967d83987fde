//! SFEN and USI move text for standard shogi (RULES.md §0.2, §0.4).
//!
//! Parsing validates as well as reads: a position is refused if it could not arise under
//! the rules (two kings of one colour, more pieces than a set holds, a piece standing where it
//! could never move, nifu, or the side not to move in check), so the generator never sees
//! an impossible position. A move string is accepted only if it names a legal move.
//!
//! The text is read strictly (the shared grammar in `rules::notation`): 3 or 4 fields; nine
//! ranks of exactly nine squares with runs `1`–`9` (no `0`, no `01`); side `b` or `w`; hands
//! `-` or groups such as `R2b10P` (letters R B G S N L P, each side's kind once, counts from
//! 2 without a leading zero, in any order), never more of a kind in both hands and on the
//! board than the set's 18 pawns, 4 lances, knights, silvers and golds, 2 bishops and rooks;
//! a move number of 1 to 1,000,000 in plain digits (`+5`, `05`, `0` are refused). Moves:
//! `7g7f`, `8h2b+`, `7g7f=` (lishogi's explicit non-promotion), `P*5e`.

use super::position::{Hand, Position};
use super::{Geo, Kind, Piece};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::{
    read_sfen_fields, read_sfen_hands, read_sfen_pieces, write_sfen_board, NotationError,
};

/// The standard start position (RULES.md §1.1).
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The order hand pieces are written in, as USI tools print them.
const HAND_PRINT_ORDER: [Kind; 7] = [
    Kind::Rook,
    Kind::Bishop,
    Kind::Gold,
    Kind::Silver,
    Kind::Knight,
    Kind::Lance,
    Kind::Pawn,
];

fn sfen_error(message: impl Into<String>) -> NotationError {
    NotationError::Sfen(message.into())
}

pub(crate) fn kind_from_letter(letter: char) -> Option<Kind> {
    Kind::ALL
        .into_iter()
        .find(|k| !k.rules().is_promoted && k.rules().letter == letter.to_ascii_uppercase())
}

/// The SFEN text of a piece (`P`, `+p`, …).
pub fn piece_text(piece: Piece) -> String {
    let rules = piece.kind().rules();
    let letter = match piece.color() {
        Color::Sente => rules.letter,
        Color::Gote => rules.letter.to_ascii_lowercase(),
    };
    if rules.is_promoted {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_sfen(START_SFEN).expect("the start SFEN is valid")
    }

    /// Parses a 3- or 4-field SFEN (the move number defaults to 1).
    pub fn from_sfen(text: &str) -> Result<Position, NotationError> {
        Position::from_sfen_with(text, SfenRules::Shogi)
    }

    /// Parses an SFEN under `rules` (Central Madness allows two pawns on a file).
    pub fn from_sfen_with(text: &str, rules: SfenRules) -> Result<Position, NotationError> {
        let fields = read_sfen_fields(text, "hands")?;
        let mut pos = Position::empty();
        let promotion = |k: Kind| k.can_promote().then(|| k.promoted());
        for (square, color, kind) in
            read_sfen_pieces::<Geo, _>(fields.board, kind_from_letter, promotion)?
        {
            pos.put(square, Piece::new(color, kind));
        }
        let hands = parse_hands(fields.third)?;
        pos.finish_setup(fields.side, hands, fields.move_number);
        validate(&pos, rules)?;
        Ok(pos)
    }

    /// The SFEN of this position.
    pub fn to_sfen(&self) -> String {
        let board = write_sfen_board::<Geo>(|sq| self.piece_at(sq).map(piece_text));
        let hands = hands_text([self.hand(Color::Sente), self.hand(Color::Gote)]);
        format!(
            "{board} {} {hands} {}",
            self.side_to_move().sfen_char(),
            self.move_number()
        )
    }

    /// The USI text of a move of this position (`7g7f`, `8h2b+`, `P*5e`).
    pub fn move_to_usi(&self, mv: Move) -> String {
        let to = mv.to().to_usi::<Geo>();
        match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                format!("{}*{to}", kind.rules().letter)
            }
            Some(from) => format!(
                "{}{to}{}",
                from.to_usi::<Geo>(),
                if mv.is_promotion() { "+" } else { "" }
            ),
        }
    }

    /// Parses a USI move and checks that it is legal here. A trailing `=` (lishogi's explicit
    /// "do not promote") is accepted.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, NotationError> {
        let candidate = read_usi_move(text)?;
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        if legal.contains(&candidate) {
            Ok(candidate)
        } else {
            Err(NotationError::Move(format!(
                "{text} is not legal in {}",
                self.to_sfen()
            )))
        }
    }
}

/// Reads the text of a board move or drop (`7g7f`, `8h2b+`, `7g7f=`, `P*5e`) without
/// checking that it is legal anywhere.
pub(crate) fn read_usi_move(text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError::Move(format!("malformed move {text:?}"));
    if let Some((piece, to)) = text.split_once('*') {
        let mut letters = piece.chars();
        let kind = match (letters.next(), letters.next()) {
            (Some(l), None) if l.is_ascii_uppercase() => kind_from_letter(l),
            _ => None,
        }
        .filter(|k| Kind::HAND.contains(k))
        .ok_or_else(bad)?;
        let to = Square::from_usi::<Geo>(to).ok_or_else(bad)?;
        return Ok(Move::drop(kind.id(), to));
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(body) => (body, true),
        None => (text.strip_suffix('=').unwrap_or(text), false),
    };
    let split = body
        .char_indices()
        .find(|(i, c)| *i > 0 && c.is_ascii_digit() && !body.as_bytes()[i - 1].is_ascii_digit())
        .map(|(i, _)| i)
        .ok_or_else(bad)?;
    let from = Square::from_usi::<Geo>(&body[..split]).ok_or_else(bad)?;
    let to = Square::from_usi::<Geo>(&body[split..]).ok_or_else(bad)?;
    Ok(Move::normal(from, to, promote))
}

/// The SFEN hands field (`-` when both hands are empty).
pub(crate) fn hands_text(hands: [Hand; 2]) -> String {
    let mut text = String::new();
    for color in Color::BOTH {
        for kind in HAND_PRINT_ORDER {
            let n = hands[color.index()].count(kind);
            if n > 1 {
                text.push_str(&n.to_string());
            }
            if n > 0 {
                text.push_str(&piece_text(Piece::new(color, kind)));
            }
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

/// Reads a hands field (the grammar of `rules::notation`): counts are bounded by the set, in
/// both hands together, before any table is indexed by them.
pub(crate) fn parse_hands(text: &str) -> Result<[Hand; 2], NotationError> {
    let mut hands = [Hand::default(); 2];
    let hand_kind = |letter: char| {
        let slot = Kind::HAND
            .iter()
            .position(|k| Some(*k) == kind_from_letter(letter))?;
        Some((Kind::HAND[slot], Kind::SET_COUNT[slot]))
    };
    for group in read_sfen_hands(text, hand_kind)? {
        hands[group.color.index()].set(group.kind, group.count);
    }
    Ok(hands)
}

/// Which board rules an SFEN must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenRules {
    /// Standard shogi: at most one unpromoted pawn per side on a file.
    Shogi,
    /// Central Madness (RULES.md §5.3, item 4): madness may leave two pawns on a file.
    DoubledPawnsAllowed,
}

fn validate(pos: &Position, rules: SfenRules) -> Result<(), NotationError> {
    let t = pos.tables();
    for color in Color::BOTH {
        if pos.pieces(color, Kind::King).more_than_one() {
            return Err(sfen_error(format!("{color:?} has two kings")));
        }
        for kind in [Kind::Pawn, Kind::Lance, Kind::Knight] {
            let stranded = pos
                .pieces(color, kind)
                .and_not(t.alive[color.index()][kind.index()]);
            if let Some(sq) = stranded.lowest() {
                return Err(sfen_error(format!(
                    "{} on {} could never move",
                    kind.rules().name,
                    sq.to_usi::<Geo>()
                )));
            }
        }
        let mut files_with_pawn = [false; 9];
        for sq in pos.pieces(color, Kind::Pawn).squares() {
            let f = sq.file::<Geo>().0 as usize;
            if std::mem::replace(&mut files_with_pawn[f], true) && rules == SfenRules::Shogi {
                return Err(sfen_error(format!("two {color:?} pawns on file {}", f + 1)));
            }
        }
    }
    for (slot, kind) in Kind::HAND.iter().enumerate() {
        let on_board = Kind::ALL
            .iter()
            .filter(|k| k.in_hand() == Some(*kind))
            .map(|k| pos.pieces_of_kind(*k).count())
            .sum::<u32>();
        let in_hands: u32 = Color::BOTH
            .iter()
            .map(|c| pos.hand(*c).count(*kind) as u32)
            .sum();
        if on_board + in_hands > Kind::SET_COUNT[slot] as u32 {
            return Err(sfen_error(format!(
                "more than {} {}s",
                Kind::SET_COUNT[slot],
                kind.rules().name
            )));
        }
    }
    let them = pos.side_to_move().flip();
    if let Some(k) = pos.king_square(them) {
        if pos
            .attackers_to(k, pos.side_to_move(), pos.occupied())
            .any()
        {
            return Err(sfen_error("the side not to move is in check"));
        }
    }
    Ok(())
}

crate::rules::notation::game_text_from_usi_notation!(Position);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_round_trips() {
        for sfen in [
            START_SFEN,
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "8k/9/9/9/9/9/9/9/K8 w 2P3p 3",
            "4k4/9/4+P4/9/9/9/9/9/4K4 w RB2G2S2N2L16Prb2g2s2n2l 17",
        ] {
            assert_eq!(Position::from_sfen(sfen).unwrap().to_sfen(), sfen);
        }
    }

    #[test]
    fn bad_sfens_are_refused_with_a_reason() {
        for (sfen, why) in [
            ("", "fields"),
            ("9/9/9 b - 1", "ranks"),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
                "squares",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/10/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "empty-square count",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
                "side",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Q 1",
                "hand",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3R 1",
                "more than",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
                "move number",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
                "letter",
            ),
            ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "never move"),
            ("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1", "two"),
            ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "in check"),
            ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "two kings"),
            ("4k4/9/9/9/9/9/9/9/4+K4 b - 1", "cannot be promoted"),
        ] {
            let err = Position::from_sfen(sfen).expect_err(sfen).to_string();
            assert!(err.contains(why), "{sfen}: {err}");
        }
    }

    /// Issue 12: hands of more pieces than a set holds, however written, were read into the
    /// hash table's index and panicked; now they are refused before any table is indexed.
    #[test]
    fn oversized_hands_are_refused_however_written() {
        let board = "4k4/9/9/9/9/9/9/9/4K4";
        let letters = |n: usize, c: char| c.to_string().repeat(n);
        for hands in [
            "10p10p".to_string(),
            "10P9P".to_string(),
            "10P9p".to_string(),
            letters(19, 'p'),
            letters(20, 'R'),
            "19p".to_string(),
            "3R".to_string(),
            "RRR".to_string(),
            "2Rr".to_string(),
            "18P1p".to_string(),
            "255P".to_string(),
            "99999999999999999999P".to_string(),
        ] {
            let sfen = format!("{board} b {hands} 1");
            assert!(Position::from_sfen(&sfen).is_err(), "{sfen}");
        }
        // Board and hands together: 17 pawns on the board leave room for one in hand.
        let full = "4k4/ppppppppp/9/9/9/9/PPPPPPPP1/9/4K4";
        assert!(Position::from_sfen(&format!("{full} b P 1")).is_ok());
        let err = Position::from_sfen(&format!("{full} b 2P 1")).unwrap_err();
        assert!(err.to_string().contains("more than 18"), "{err}");
    }

    /// Issue 12: the reading is strict (the module header says what is accepted).
    #[test]
    fn lenient_spellings_are_refused() {
        for sfen in [
            "8k/9/9/9/09/9/1gn6/9/K8 b - 1",
            "8k/9/9/9/0/9/9/9/K8 b - 1",
            "8k/9/9/9/018/9/9/9/K8 b - 1",
            "8k/9/9/9/99999999999999999999/9/9/9/K8 b - 1",
            "8k/9/9/9/45/9/9/9/K8 b - 1",
            "8k/9/9/9/9/9/9/9/K8 b - +5",
            "8k/9/9/9/9/9/9/9/K8 b - 05",
            "8k/9/9/9/9/9/9/9/K8 b - 0",
            "8k/9/9/9/9/9/9/9/K8 b - -1",
            "8k/9/9/9/9/9/9/9/K8 b - 1.0",
            "8k/9/9/9/9/9/9/9/K8 b - 4294967295",
            "8k/9/9/9/9/9/9/9/K8 b - 1000001",
            "8k/9/9/9/9/9/9/9/K8 b - 1 1",
            "8k/9/9/9/9/9/9/9/K8 B - 1",
            "8k/9/9/9/9/9/9/9/K8 b P- 1",
            "8k/9/9/9/9/9/9/9/K8 b -P 1",
            "8k/9/9/9/9/9/9/9/K8 b 1P 1",
            "8k/9/9/9/9/9/9/9/K8 b 02P 1",
            "8k/9/9/9/9/9/9/9/K8 b PP 1",
            "8k/9/9/9/9/9/9/9/K8 b 2PP 1",
            "8k/9/9/9/9/9/9/9/K8 b 0P 1",
            "8k/9/9/9/9/9/9/9/K8 b 2 1",
            "8k/9/9/9/9/9/9/9/K8 b +P 1",
        ] {
            assert!(Position::from_sfen(sfen).is_err(), "{sfen}");
        }
        // What stays accepted: any group order, and the largest move number, from which moves
        // can still be played.
        let mut pos = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b pG2s 1000000").unwrap();
        assert_eq!(pos.to_sfen(), "8k/9/9/9/9/9/9/9/K8 b G2sp 1000000");
        pos.play(pos.parse_usi_move("9i9h").unwrap());
        assert_eq!(pos.move_number(), 1_000_001);
    }

    #[test]
    fn moves_print_and_parse() {
        let pos = Position::startpos();
        for text in ["7g7f", "2h1h", "5i4h"] {
            let mv = pos.parse_usi_move(text).unwrap();
            assert_eq!(pos.move_to_usi(mv), text);
        }
        for bad in [
            "7g7e", "P*5e", "7g", "77gf", "7g7f+", "K*5e", "", "10a9a", "7g7f++",
        ] {
            assert!(pos.parse_usi_move(bad).is_err(), "{bad}");
        }
        let hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(hand.parse_usi_move("P*5e").is_ok());
        assert!(hand.parse_usi_move("p*5e").is_err());
        let promo = Position::from_sfen("4k4/9/P8/9/9/9/9/9/4K4 b - 1").unwrap();
        assert!(promo.parse_usi_move("9c9b+").is_ok());
        assert_eq!(
            promo.parse_usi_move("9c9b=").unwrap(),
            promo.parse_usi_move("9c9b").unwrap()
        );
    }
}
