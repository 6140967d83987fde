//! SFEN and USI move text for every drop variant (RULES.md §0.2, §0.4), with one- or
//! two-digit files (`7g7f`, `12l12k`, `U*10e`) as the board's geometry says.
//!
//! Parsing validates as well as reads: a position is refused if it could not arise under
//! the rules (two kings of one colour, more pieces than a set holds, a piece standing where
//! it could never move, nifu, or the side not to move in check), so the generator never sees
//! an impossible position. A move string is accepted only if it names a legal move.
//!
//! The text is read strictly (the shared grammar in `rules::notation`): 3 or 4 fields; the
//! board's ranks with runs of empty squares (no `0`, no `01`, none longer than a rank); side
//! `b` or `w`; hands `-` or groups such as `R2b10P` (each side's kind once, counts from 2
//! without a leading zero, in any order), never more of a kind in both hands and on the board
//! than the set holds; a move number of 1 to 1,000,000 in plain digits. Moves: `7g7f`,
//! `8h2b+`, `7g7f=` (lishogi's explicit non-promotion), `P*5e`.

use super::{Bb, DropKind, DropPiece, DropPosition, DropTables, DropVariant, HandCounts};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::{
    legal_or_refused, read_sfen_fields, read_sfen_hands, read_sfen_pieces, sfen_piece_text,
    write_sfen_board, GameText, NotationError,
};
use crate::rules::variants::{GameStart, RuleOptions};

fn sfen_error(message: impl Into<String>) -> NotationError {
    NotationError::Sfen(message.into())
}

/// The unpromoted kind written with `letter` (either case).
pub fn kind_from_letter<K: DropKind>(letter: char) -> Option<K> {
    K::KINDS
        .iter()
        .copied()
        .find(|k| !k.rules().is_promoted && k.rules().letter == letter.to_ascii_uppercase())
}

/// The SFEN text of a piece (`P`, `+p`, …).
pub fn piece_text<P: DropPiece>(piece: P) -> String {
    sfen_piece_text(piece.kind().rules(), piece.color())
}

/// Which board rules an SFEN must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenRules {
    /// Shogi's: at most one unpromoted pawn per side on a file.
    Shogi,
    /// Central Madness (RULES.md §5.3, item 4): madness may leave two pawns on a file.
    DoubledPawnsAllowed,
}

impl<V: DropVariant> DropPosition<V> {
    /// The start position.
    pub fn startpos() -> Self {
        Self::from_sfen(V::START_SFEN).expect("the start SFEN is valid")
    }

    /// Parses a 3- or 4-field SFEN (the move number defaults to 1).
    pub fn from_sfen(text: &str) -> Result<Self, NotationError> {
        Self::from_sfen_with(text, SfenRules::Shogi)
    }

    /// Parses an SFEN under `rules` (Central Madness allows two pawns on a file).
    pub fn from_sfen_with(text: &str, rules: SfenRules) -> Result<Self, NotationError> {
        let fields = read_sfen_fields(text, "hands")?;
        let mut pos = Self::empty();
        let promotion = |k: V::Kind| k.can_promote().then(|| k.promoted());
        for (square, color, kind) in
            read_sfen_pieces::<V::Geo, _>(fields.board, kind_from_letter::<V::Kind>, promotion)?
        {
            pos.put(square, V::Piece::new(color, kind));
        }
        let hands = parse_hands::<V::Kind, V::Hand>(fields.third)?;
        pos.finish_setup(fields.side, hands, fields.move_number);
        validate(&pos, rules)?;
        Ok(pos)
    }

    /// The SFEN of this position.
    pub fn to_sfen(&self) -> String {
        let board = write_sfen_board::<V::Geo>(|sq| self.piece_at(sq).map(piece_text));
        let hands =
            hands_text::<V::Piece, V::Hand>([self.hand(Color::Sente), self.hand(Color::Gote)]);
        format!(
            "{board} {} {hands} {}",
            self.side_to_move().sfen_char(),
            self.move_number()
        )
    }

    /// The USI text of a move of this position (`7g7f`, `10c10a+`, `P*5e`).
    pub fn move_to_usi(&self, mv: Move) -> String {
        let to = mv.to().to_usi::<V::Geo>();
        match mv.from() {
            None => {
                let kind = V::Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                format!("{}*{to}", kind.rules().letter)
            }
            Some(from) => format!(
                "{}{to}{}",
                from.to_usi::<V::Geo>(),
                if mv.is_promotion() { "+" } else { "" }
            ),
        }
    }

    /// Parses a USI move and checks that it is legal here. A trailing `=` (lishogi's explicit
    /// "do not promote") is accepted.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, NotationError> {
        let candidate = read_usi_move::<V>(text)?;
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        legal_or_refused(candidate, &legal, text, || self.to_sfen())
    }
}

/// A drop-shogi member has no rule options to read.
impl<V: DropVariant> GameStart for DropPosition<V> {
    fn set_up(sfen: Option<&str>, _: &RuleOptions) -> Result<Self, NotationError> {
        Self::from_sfen(sfen.unwrap_or(V::START_SFEN))
    }
}

impl<V: DropVariant> GameText for DropPosition<V> {
    fn parse_sfen(text: &str) -> Result<Self, NotationError> {
        Self::from_sfen(text)
    }

    fn sfen(&self) -> String {
        self.to_sfen()
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        self.parse_usi_move(text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.move_to_usi(mv)
    }
}

/// Reads the text of a board move or drop (`7g7f`, `8h2b+`, `7g7f=`, `P*5e`, `12a11b`)
/// without checking that it is legal anywhere.
pub fn read_usi_move<V: DropVariant>(text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError::Move(format!("malformed move {text:?}"));
    if let Some((piece, to)) = text.split_once('*') {
        let mut letters = piece.chars();
        let kind = match (letters.next(), letters.next()) {
            (Some(l), None) if l.is_ascii_uppercase() => kind_from_letter::<V::Kind>(l),
            _ => None,
        }
        .filter(|k| V::Kind::HAND_KINDS.contains(k))
        .ok_or_else(bad)?;
        let to = Square::from_usi::<V::Geo>(to).ok_or_else(bad)?;
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
    let from = Square::from_usi::<V::Geo>(&body[..split]).ok_or_else(bad)?;
    let to = Square::from_usi::<V::Geo>(&body[split..]).ok_or_else(bad)?;
    Ok(Move::normal(from, to, promote))
}

/// The SFEN hands field (`-` when both hands are empty), in the kinds' print order.
pub fn hands_text<P: DropPiece, H: HandCounts<P::Kind>>(hands: [H; 2]) -> String {
    let mut text = String::new();
    for color in Color::BOTH {
        for &kind in P::Kind::HAND_PRINT_ORDER {
            let n = hands[color.index()].count(kind);
            if n > 1 {
                text.push_str(&n.to_string());
            }
            if n > 0 {
                text.push_str(&piece_text(P::new(color, kind)));
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
pub fn parse_hands<K: DropKind, H: HandCounts<K>>(text: &str) -> Result<[H; 2], NotationError> {
    let mut hands = [H::default(); 2];
    let hand_kind = |letter: char| {
        kind_from_letter::<K>(letter)
            .filter(|k| K::HAND_KINDS.contains(k))
            .map(|k| (k, k.set_count()))
    };
    for group in read_sfen_hands(text, hand_kind)? {
        hands[group.color.index()].set(group.kind, group.count);
    }
    Ok(hands)
}

fn validate<V: DropVariant>(pos: &DropPosition<V>, rules: SfenRules) -> Result<(), NotationError> {
    let t = pos.tables();
    for color in Color::BOTH {
        if pos.pieces(color, V::Kind::KING).more_than_one() {
            return Err(sfen_error(format!("{} has two kings", color.name())));
        }
        for &kind in V::Kind::HAND_KINDS {
            if kind.rules().forced_promotion_ranks == 0 {
                continue;
            }
            let stranded: Bb<V> = pos.pieces(color, kind).and_not(t.alive(color, kind));
            if let Some(sq) = stranded.lowest() {
                return Err(sfen_error(format!(
                    "{} on {} could never move",
                    kind.rules().name,
                    sq.to_usi::<V::Geo>()
                )));
            }
        }
        let mut files_with_pawn = 0u32;
        for sq in pos.pieces(color, V::Kind::PAWN).squares() {
            let f = sq.file::<V::Geo>().0;
            let seen = files_with_pawn & (1 << f) != 0;
            files_with_pawn |= 1 << f;
            if seen && rules == SfenRules::Shogi {
                return Err(sfen_error(format!(
                    "two {} pawns on file {}",
                    color.name(),
                    f + 1
                )));
            }
        }
    }
    for &kind in V::Kind::HAND_KINDS {
        let on_board = V::Kind::KINDS
            .iter()
            .filter(|k| k.in_hand() == Some(kind))
            .map(|k| pos.pieces_of_kind(*k).count())
            .sum::<u32>();
        let in_hands: u32 = Color::BOTH
            .iter()
            .map(|c| pos.hand(*c).count(kind) as u32)
            .sum();
        let set = kind.set_count() as u32;
        if on_board + in_hands > set {
            return Err(sfen_error(format!(
                "more than {set} {}s",
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
