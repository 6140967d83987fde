//! The state of a drop-shogi game, written once for every member of the family: board,
//! hands, side to move, rule choices, the incremental zobrist hash, and the history needed
//! to take moves back and to judge repetition.
//!
//! The mailbox (`board`) is the source of truth; the colour and kind bitboards are caches of
//! it, kept in step by `play`/`unplay`. Debug builds recompute every cache and the hash after
//! each `play` and `unplay` and panic on any difference.

use super::{Bb, DropKind, DropPiece, DropTables, DropVariant, HandCounts};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::play_record::{play_record_accessors, PlayRecord, UndoEntry};
use std::marker::PhantomData;

/// One side's pieces in hand, counted per hand kind (`N` hand kinds, in slot order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hand<K, const N: usize>([u8; N], PhantomData<K>);

impl<K, const N: usize> Default for Hand<K, N> {
    fn default() -> Self {
        Hand([0; N], PhantomData)
    }
}

impl<K: DropKind, const N: usize> Hand<K, N> {
    #[inline]
    pub fn count(self, kind: K) -> u8 {
        self.0[kind.index()]
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; N]
    }

    #[inline]
    pub(crate) fn add(&mut self, kind: K) {
        self.0[kind.index()] += 1;
    }

    #[inline]
    pub(crate) fn remove(&mut self, kind: K) {
        self.0[kind.index()] -= 1;
    }

    pub(crate) fn set(&mut self, kind: K, count: u8) {
        self.0[kind.index()] = count;
    }
}

impl<K: DropKind, const N: usize> HandCounts<K> for Hand<K, N> {
    #[inline]
    fn count(self, kind: K) -> u8 {
        Hand::count(self, kind)
    }
    #[inline]
    fn is_empty(self) -> bool {
        Hand::is_empty(self)
    }
    #[inline]
    fn add(&mut self, kind: K) {
        Hand::add(self, kind)
    }
    #[inline]
    fn remove(&mut self, kind: K) {
        Hand::remove(self, kind)
    }
    fn set(&mut self, kind: K, count: u8) {
        Hand::set(self, kind, count)
    }
}

/// What `unplay` needs to restore, pushed by every `play`.
struct Undo<V: DropVariant> {
    mv: Move,
    captured: Option<V::Piece>,
    hash_before: u64,
}

impl<V: DropVariant> Clone for Undo<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: DropVariant> Copy for Undo<V> {}

impl<V: DropVariant> UndoEntry for Undo<V> {
    #[inline]
    fn move_and_hash_before(&self) -> (Move, u64) {
        (self.mv, self.hash_before)
    }
}

/// A position of drop-shogi variant `V` with its move history.
pub struct DropPosition<V: DropVariant> {
    board: V::Mailbox,
    by_color: [Bb<V>; 2],
    by_kind: V::KindSets,
    hands: [V::Hand; 2],
    side: Color,
    record: PlayRecord<Undo<V>>,
    choices: V::Choices,
    tables: &'static V::Tables,
}

impl<V: DropVariant> Clone for DropPosition<V> {
    fn clone(&self) -> Self {
        DropPosition {
            board: self.board,
            by_color: self.by_color,
            by_kind: self.by_kind,
            hands: self.hands,
            side: self.side,
            record: self.record.clone(),
            choices: self.choices,
            tables: self.tables,
        }
    }
}

impl<V: DropVariant> DropPosition<V> {
    /// An empty board, sente to move; callers fill it through [`DropPosition::put`].
    pub(crate) fn empty() -> Self {
        DropPosition {
            board: V::EMPTY_MAILBOX,
            by_color: [Bb::<V>::EMPTY; 2],
            by_kind: V::EMPTY_KIND_SETS,
            hands: [V::Hand::default(); 2],
            side: Color::Sente,
            record: PlayRecord::default(),
            choices: V::Choices::default(),
            tables: V::tables(),
        }
    }

    /// Sets up the hash after a position was filled square by square.
    pub(crate) fn finish_setup(&mut self, side: Color, hands: [V::Hand; 2], move_number: u32) {
        self.side = side;
        self.hands = hands;
        self.record.set_up(move_number, self.compute_hash());
    }

    pub(crate) fn put(&mut self, sq: Square, piece: V::Piece) {
        debug_assert!(self.board.as_ref()[sq.index()].is_none());
        self.board.as_mut()[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] |= Bb::<V>::from_square(sq);
        self.by_kind.as_mut()[piece.kind().index()] |= Bb::<V>::from_square(sq);
    }

    /// The rule choices this game is played under.
    #[inline]
    pub fn choices(&self) -> V::Choices {
        self.choices
    }

    /// Plays this game under other rule choices (they change no state, only which moves are
    /// legal from now on).
    pub fn set_choices(&mut self, choices: V::Choices) {
        self.choices = choices;
    }

    #[inline]
    pub fn tables(&self) -> &'static V::Tables {
        self.tables
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<V::Piece> {
        self.board.as_ref()[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> V::Hand {
        self.hands[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bb<V> {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bb<V> {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces_of_kind(&self, kind: V::Kind) -> Bb<V> {
        self.by_kind.as_ref()[kind.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: V::Kind) -> Bb<V> {
        self.by_color[color.index()] & self.by_kind.as_ref()[kind.index()]
    }

    /// The square of `color`'s king, if it has one (tsume positions may lack the attacker's).
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.pieces(color, V::Kind::KING).lowest()
    }

    play_record_accessors!();

    /// The piece that makes the legal move `mv` (for a drop, the dropped piece).
    #[inline]
    pub fn moving_piece(&self, mv: Move) -> V::Piece {
        match mv.from() {
            None => V::Piece::new(
                self.side,
                V::Kind::from_index(mv.dropped_kind().expect("a drop").0).expect("a kind"),
            ),
            Some(from) => self.piece_at(from).expect("a piece to move"),
        }
    }

    /// The piece the legal move `mv` leaves on its destination.
    #[inline]
    pub fn landing_piece(&self, mv: Move) -> V::Piece {
        self.moving_piece(mv).landing(mv)
    }

    /// Every piece of `by` that attacks `sq`, with `occupied` as the blocking pieces.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bb<V>) -> Bb<V> {
        V::attackers_to(self, sq, by, occupied)
    }

    /// True if any piece of `by` attacks `sq` (as [`DropPosition::attackers_to`], but
    /// stopping at the first attacker found).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bb<V>) -> bool {
        V::is_attacked(self, sq, by, occupied)
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bb<V> {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bb::<V>::EMPTY,
        }
    }

    /// Whether the side to move is in check: [`DropPosition::checkers`] without listing
    /// them (the attack test stops at the first checker).
    #[inline]
    pub fn in_check(&self) -> bool {
        let in_check = match self.king_square(self.side) {
            Some(k) => self.is_attacked(k, self.side.flip(), self.occupied()),
            None => false,
        };
        debug_assert_eq!(
            in_check,
            self.checkers().any(),
            "the two attack tests disagree"
        );
        in_check
    }

    /// Plays a legal move (one that the move generator produced for this position).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let t = self.tables;
        let hash_before = self.hash();
        let to = mv.to();
        let to_bb = Bb::<V>::from_square(to);
        let mut captured = None;
        match mv.from() {
            None => {
                let kind = V::Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                let count = self.hands[us.index()].count(kind) as usize;
                self.record
                    .toggle(t.hand_key(us, kind, count) ^ t.hand_key(us, kind, count - 1));
                self.hands[us.index()].remove(kind);
                let piece = V::Piece::new(us, kind);
                self.board.as_mut()[to.index()] = Some(piece);
                self.by_color[us.index()] |= to_bb;
                self.by_kind.as_mut()[kind.index()] |= to_bb;
                self.record.toggle(t.board_key(piece, to));
            }
            Some(from) => {
                let piece = self.board.as_ref()[from.index()].expect("a piece on the origin");
                let from_bb = Bb::<V>::from_square(from);
                if let Some(victim) = self.board.as_ref()[to.index()] {
                    captured = Some(victim);
                    self.by_color[victim.color().index()] ^= to_bb;
                    self.by_kind.as_mut()[victim.kind().index()] ^= to_bb;
                    self.record.toggle(t.board_key(victim, to));
                    let gained = victim.kind().in_hand().expect("kings are never captured");
                    let count = self.hands[us.index()].count(gained) as usize;
                    self.record
                        .toggle(t.hand_key(us, gained, count) ^ t.hand_key(us, gained, count + 1));
                    self.hands[us.index()].add(gained);
                }
                let landed = piece.landing(mv);
                let board = self.board.as_mut();
                board[from.index()] = None;
                board[to.index()] = Some(landed);
                self.by_color[us.index()] ^= from_bb | to_bb;
                let by_kind = self.by_kind.as_mut();
                by_kind[piece.kind().index()] ^= from_bb;
                by_kind[landed.kind().index()] ^= to_bb;
                self.record
                    .toggle(t.board_key(piece, from) ^ t.board_key(landed, to));
            }
        }
        self.side = us.flip();
        self.record.toggle(t.side_key());
        self.record.push(Undo {
            mv,
            captured,
            hash_before,
        });
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move played. Panics if there is none.
    pub fn unplay(&mut self) {
        let undo = self.record.pop().expect("a move to take back");
        let us = self.side.flip();
        let to = undo.mv.to();
        let to_bb = Bb::<V>::from_square(to);
        let landed = self.board.as_ref()[to.index()].expect("the moved piece");
        match undo.mv.from() {
            None => {
                self.board.as_mut()[to.index()] = None;
                self.by_color[us.index()] ^= to_bb;
                self.by_kind.as_mut()[landed.kind().index()] ^= to_bb;
                self.hands[us.index()].add(landed.kind());
            }
            Some(from) => {
                let from_bb = Bb::<V>::from_square(from);
                let piece = if undo.mv.is_promotion() {
                    V::Piece::new(us, landed.kind().in_hand().expect("promoted piece"))
                } else {
                    landed
                };
                let board = self.board.as_mut();
                board[from.index()] = Some(piece);
                board[to.index()] = undo.captured;
                self.by_color[us.index()] ^= from_bb | to_bb;
                let by_kind = self.by_kind.as_mut();
                by_kind[piece.kind().index()] ^= from_bb;
                by_kind[landed.kind().index()] ^= to_bb;
                if let Some(victim) = undo.captured {
                    self.by_color[victim.color().index()] ^= to_bb;
                    self.by_kind.as_mut()[victim.kind().index()] ^= to_bb;
                    self.hands[us.index()].remove(victim.kind().in_hand().expect("not a king"));
                }
            }
        }
        self.side = us;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Passes the turn without moving (a null move). For search only: it is no legal move
    /// of the game, and must be taken back with [`DropPosition::unplay_null`].
    pub fn play_null(&mut self) {
        self.record.push(Undo {
            mv: Move::normal(Square(0), Square(0), false),
            captured: None,
            hash_before: self.hash(),
        });
        self.side = self.side.flip();
        self.record.toggle(self.tables.side_key());
    }

    /// Takes back a null move played by [`DropPosition::play_null`].
    pub fn unplay_null(&mut self) {
        let undo = self.record.pop().expect("a null move to take back");
        debug_assert!(undo.captured.is_none() && undo.mv.from() == Some(undo.mv.to()));
        self.side = self.side.flip();
    }

    /// The zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let t = self.tables;
        let mut hash = 0;
        for sq in Square::all::<V::Geo>() {
            if let Some(p) = self.piece_at(sq) {
                hash ^= t.board_key(p, sq);
            }
        }
        for color in Color::BOTH {
            for &kind in V::Kind::HAND_KINDS {
                hash ^= t.hand_key(color, kind, self.hands[color.index()].count(kind) as usize);
            }
        }
        if self.side == Color::Gote {
            hash ^= t.side_key();
        }
        hash
    }

    /// Panics if any cache disagrees with the mailbox or the hash with a recomputation.
    pub fn assert_consistent(&self) {
        let mut by_color = [Bb::<V>::EMPTY; 2];
        let mut by_kind = V::EMPTY_KIND_SETS;
        for sq in Square::all::<V::Geo>() {
            if let Some(p) = self.piece_at(sq) {
                by_color[p.color().index()] |= Bb::<V>::from_square(sq);
                by_kind.as_mut()[p.kind().index()] |= Bb::<V>::from_square(sq);
            }
        }
        assert_eq!(by_color, self.by_color, "colour bitboards out of step");
        assert_eq!(by_kind, self.by_kind, "kind bitboards out of step");
        self.record.assert_hash(self.compute_hash());
        for color in Color::BOTH {
            assert!(self.pieces(color, V::Kind::KING).count() <= 1, "two kings");
        }
    }
}

/// Board edits outside the shogi move rules, for variants whose turns change the board in
/// other ways (Central Madness). They keep the caches and the hash in step but push no
/// history: the caller undoes them itself, in reverse order.
impl<V: DropVariant> DropPosition<V> {
    /// Puts `piece` (or nothing) on `sq`, replacing whatever stood there.
    pub fn set_square(&mut self, sq: Square, piece: Option<V::Piece>) {
        let t = self.tables;
        let bb = Bb::<V>::from_square(sq);
        if let Some(old) = self.board.as_mut()[sq.index()].take() {
            self.by_color[old.color().index()] ^= bb;
            self.by_kind.as_mut()[old.kind().index()] ^= bb;
            self.record.toggle(t.board_key(old, sq));
        }
        if let Some(new) = piece {
            self.board.as_mut()[sq.index()] = Some(new);
            self.by_color[new.color().index()] |= bb;
            self.by_kind.as_mut()[new.kind().index()] |= bb;
            self.record.toggle(t.board_key(new, sq));
        }
    }

    /// Adds one piece of hand kind `kind` to `color`'s hand (`gain`), or takes one away.
    pub fn change_hand(&mut self, color: Color, kind: V::Kind, gain: bool) {
        let t = self.tables;
        let count = self.hands[color.index()].count(kind) as usize;
        let after = if gain { count + 1 } else { count - 1 };
        self.record
            .toggle(t.hand_key(color, kind, count) ^ t.hand_key(color, kind, after));
        if gain {
            self.hands[color.index()].add(kind);
        } else {
            self.hands[color.index()].remove(kind);
        }
    }
}

impl<V: DropVariant> PartialEq for DropPosition<V> {
    /// Two positions are equal when board, hands and side to move agree (history, move
    /// number and rule choices are not part of the position, as for repetition).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl<V: DropVariant> std::fmt::Debug for DropPosition<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::dropshogi::{DropPosition, DropVariant};
    use crate::rules::moves::MoveList;
    use crate::rules::variants::{kagamigi::Kagamigi, shogi::Shogi};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games from the start: at every ply the move counter agrees with the move list
    /// and the SFEN round-trips to an equal position with an equal hash; unwinding every move
    /// restores the start exactly. (`play`/`unplay` also check every cache and the hash
    /// themselves in debug builds.)
    fn random_games_round_trip<V: DropVariant>(games: usize) {
        let mut rng = StdRng::seed_from_u64(20261122);
        let start = DropPosition::<V>::startpos();
        for _ in 0..games {
            let mut pos = start.clone();
            let mut moves = MoveList::new();
            for _ in 0..rng.gen_range(20..200) {
                moves.clear();
                pos.generate_legal(&mut moves);
                assert_eq!(pos.count_legal(), moves.len() as u64, "{}", pos.to_sfen());
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.gen_range(0..moves.len())]);
                let reread = DropPosition::<V>::from_sfen(&pos.to_sfen()).expect("own SFEN");
                assert_eq!(reread, pos);
                assert_eq!(reread.hash(), pos.hash());
                assert_eq!(reread.to_sfen(), pos.to_sfen());
            }
            while pos.moves_played() > 0 {
                pos.unplay();
            }
            assert_eq!(pos, start);
            assert_eq!(pos.hash(), start.hash());
            assert_eq!(pos.to_sfen(), start.to_sfen());
        }
    }

    #[test]
    fn shogi_random_games_round_trip_through_sfen_and_unwind() {
        random_games_round_trip::<Shogi>(60);
    }

    #[test]
    fn kagamigi_random_games_round_trip_through_sfen_and_unwind() {
        random_games_round_trip::<Kagamigi>(30);
    }
}
