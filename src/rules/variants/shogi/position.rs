//! The state of a standard-shogi game: board, hands, side to move, the incremental zobrist
//! hash, and the history needed to take moves back and to judge repetition.
//!
//! The mailbox (`board`) is the source of truth; the colour and kind bitboards are caches of
//! it, kept in step by `play`/`unplay`. Debug builds recompute every cache and the hash after
//! each `play` and `unplay` and panic on any difference.

use super::tables::{tables, Tables};
use super::{Geo, Kind, Piece};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;

type Bb = Bb128;

/// One side's pieces in hand, counted per hand kind (`Kind::HAND` order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

impl Hand {
    #[inline]
    pub fn count(self, kind: Kind) -> u8 {
        self.0[kind.index()]
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 7]
    }

    #[inline]
    pub(crate) fn add(&mut self, kind: Kind) {
        self.0[kind.index()] += 1;
    }

    #[inline]
    pub(crate) fn remove(&mut self, kind: Kind) {
        self.0[kind.index()] -= 1;
    }

    pub(crate) fn set(&mut self, kind: Kind, count: u8) {
        self.0[kind.index()] = count;
    }
}

/// What `unplay` needs to restore, pushed by every `play`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    hash_before: u64,
}

/// A standard-shogi position with its move history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bb; 2],
    by_kind: [Bb; Kind::COUNT],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    hash: u64,
    history: Vec<Undo>,
    tables: &'static Tables,
}

impl Position {
    /// An empty board, sente to move; callers fill it through [`Position::put`].
    pub(super) fn empty() -> Position {
        let tables = tables();
        Position {
            board: [None; 81],
            by_color: [Bb::EMPTY; 2],
            by_kind: [Bb::EMPTY; Kind::COUNT],
            hands: [Hand::default(); 2],
            side: Color::Sente,
            move_number: 1,
            hash: 0,
            history: Vec::new(),
            tables,
        }
    }

    /// Sets up the hash after a position was filled square by square.
    pub(super) fn finish_setup(&mut self, side: Color, hands: [Hand; 2], move_number: u32) {
        self.side = side;
        self.hands = hands;
        self.move_number = move_number;
        self.hash = self.compute_hash();
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] |= Bb::from_square(sq);
        self.by_kind[piece.kind().index()] |= Bb::from_square(sq);
    }

    #[inline]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bb {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bb {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces_of_kind(&self, kind: Kind) -> Bb {
        self.by_kind[kind.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bb {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The square of `color`'s king, if it has one (tsume positions may lack the attacker's).
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.pieces(color, Kind::King).lowest()
    }

    /// The SFEN move number: 1 at the start, +1 per move played.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How many moves have been played since the position was set up.
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// The moves played since set-up, oldest first.
    pub fn played_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The hash of the position `back` moves ago (0 = now).
    pub fn hash_before(&self, back: usize) -> Option<u64> {
        match back {
            0 => Some(self.hash),
            n => self
                .history
                .len()
                .checked_sub(n)
                .map(|i| self.history[i].hash_before),
        }
    }

    /// Every piece of `by` that attacks `sq`, with `occupied` as the blocking pieces.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bb) -> Bb {
        let t = self.tables;
        let victim = by.flip();
        let kinds = &self.by_kind;
        let gold_like = kinds[Kind::Gold.index()]
            | kinds[Kind::ProPawn.index()]
            | kinds[Kind::ProLance.index()]
            | kinds[Kind::ProKnight.index()]
            | kinds[Kind::ProSilver.index()];
        let king_steppers =
            kinds[Kind::King.index()] | kinds[Kind::Horse.index()] | kinds[Kind::Dragon.index()];
        let attackers = (t.step_attacks(victim, Kind::Pawn, sq) & kinds[Kind::Pawn.index()])
            | (t.step_attacks(victim, Kind::Knight, sq) & kinds[Kind::Knight.index()])
            | (t.step_attacks(victim, Kind::Silver, sq) & kinds[Kind::Silver.index()])
            | (t.step_attacks(victim, Kind::Gold, sq) & gold_like)
            | (t.step_attacks(victim, Kind::King, sq) & king_steppers)
            | (t.lance_attacks(victim, sq, occupied) & kinds[Kind::Lance.index()])
            | (t.bishop_attacks(sq, occupied)
                & (kinds[Kind::Bishop.index()] | kinds[Kind::Horse.index()]))
            | (t.rook_attacks(sq, occupied)
                & (kinds[Kind::Rook.index()] | kinds[Kind::Dragon.index()]));
        attackers & self.by_color[by.index()]
    }

    /// True if any piece of `by` attacks `sq` (as [`Position::attackers_to`], but stopping
    /// at the first attacker found, cheapest tests first).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bb) -> bool {
        let t = self.tables;
        let victim = by.flip();
        let theirs = self.by_color[by.index()];
        let kinds = &self.by_kind;
        let near = (t.step_attacks(victim, Kind::Pawn, sq) & kinds[Kind::Pawn.index()])
            | (t.step_attacks(victim, Kind::Knight, sq) & kinds[Kind::Knight.index()])
            | (t.step_attacks(victim, Kind::Silver, sq) & kinds[Kind::Silver.index()])
            | (t.step_attacks(victim, Kind::Gold, sq)
                & (kinds[Kind::Gold.index()]
                    | kinds[Kind::ProPawn.index()]
                    | kinds[Kind::ProLance.index()]
                    | kinds[Kind::ProKnight.index()]
                    | kinds[Kind::ProSilver.index()]))
            | (t.step_attacks(victim, Kind::King, sq)
                & (kinds[Kind::King.index()]
                    | kinds[Kind::Horse.index()]
                    | kinds[Kind::Dragon.index()]));
        if (near & theirs).any() {
            return true;
        }
        let rooks = (kinds[Kind::Rook.index()] | kinds[Kind::Dragon.index()]) & theirs;
        if rooks.any() && (t.rook_attacks(sq, occupied) & rooks).any() {
            return true;
        }
        let bishops = (kinds[Kind::Bishop.index()] | kinds[Kind::Horse.index()]) & theirs;
        if bishops.any() && (t.bishop_attacks(sq, occupied) & bishops).any() {
            return true;
        }
        let lances = kinds[Kind::Lance.index()] & theirs;
        lances.any() && (t.lance_attacks(victim, sq, occupied) & lances).any()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bb {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bb::EMPTY,
        }
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Plays a legal move (one that `movegen` produced for this position).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let t = self.tables;
        let hash_before = self.hash;
        let to = mv.to();
        let to_bb = Bb::from_square(to);
        let mut captured = None;
        match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                let count = self.hands[us.index()].count(kind) as usize;
                self.hash ^= t.hand_keys[us.index()][kind.index()][count]
                    ^ t.hand_keys[us.index()][kind.index()][count - 1];
                self.hands[us.index()].remove(kind);
                let piece = Piece::new(us, kind);
                self.board[to.index()] = Some(piece);
                self.by_color[us.index()] |= to_bb;
                self.by_kind[kind.index()] |= to_bb;
                self.hash ^= t.board_keys[piece.index()][to.index()];
            }
            Some(from) => {
                let piece = self.board[from.index()].expect("a piece on the origin square");
                let from_bb = Bb::from_square(from);
                if let Some(victim) = self.board[to.index()] {
                    captured = Some(victim);
                    self.by_color[victim.color().index()] ^= to_bb;
                    self.by_kind[victim.kind().index()] ^= to_bb;
                    self.hash ^= t.board_keys[victim.index()][to.index()];
                    let gained = victim.kind().in_hand().expect("kings are never captured");
                    let count = self.hands[us.index()].count(gained) as usize;
                    self.hash ^= t.hand_keys[us.index()][gained.index()][count]
                        ^ t.hand_keys[us.index()][gained.index()][count + 1];
                    self.hands[us.index()].add(gained);
                }
                let landed = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promoted())
                } else {
                    piece
                };
                self.board[from.index()] = None;
                self.board[to.index()] = Some(landed);
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_kind[piece.kind().index()] ^= from_bb;
                self.by_kind[landed.kind().index()] ^= to_bb;
                self.hash ^= t.board_keys[piece.index()][from.index()]
                    ^ t.board_keys[landed.index()][to.index()];
            }
        }
        self.side = us.flip();
        self.hash ^= t.side_key;
        self.move_number += 1;
        self.history.push(Undo {
            mv,
            captured,
            hash_before,
        });
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move played. Panics if there is none.
    pub fn unplay(&mut self) {
        let undo = self.history.pop().expect("a move to take back");
        let us = self.side.flip();
        let to = undo.mv.to();
        let to_bb = Bb::from_square(to);
        let landed = self.board[to.index()].expect("the moved piece");
        match undo.mv.from() {
            None => {
                self.board[to.index()] = None;
                self.by_color[us.index()] ^= to_bb;
                self.by_kind[landed.kind().index()] ^= to_bb;
                self.hands[us.index()].add(landed.kind());
            }
            Some(from) => {
                let from_bb = Bb::from_square(from);
                let piece = if undo.mv.is_promotion() {
                    Piece::new(us, landed.kind().in_hand().expect("promoted piece"))
                } else {
                    landed
                };
                self.board[from.index()] = Some(piece);
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_kind[piece.kind().index()] ^= from_bb;
                self.by_kind[landed.kind().index()] ^= to_bb;
                self.board[to.index()] = undo.captured;
                if let Some(victim) = undo.captured {
                    self.by_color[victim.color().index()] ^= to_bb;
                    self.by_kind[victim.kind().index()] ^= to_bb;
                    self.hands[us.index()].remove(victim.kind().in_hand().expect("not a king"));
                }
            }
        }
        self.side = us;
        self.move_number -= 1;
        self.hash = undo.hash_before;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// The zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let t = self.tables;
        let mut hash = 0;
        for sq in Square::all::<Geo>() {
            if let Some(p) = self.board[sq.index()] {
                hash ^= t.board_keys[p.index()][sq.index()];
            }
        }
        for color in Color::BOTH {
            for kind in Kind::HAND {
                hash ^= t.hand_keys[color.index()][kind.index()]
                    [self.hands[color.index()].count(kind) as usize];
            }
        }
        if self.side == Color::Gote {
            hash ^= t.side_key;
        }
        hash
    }

    /// Panics if any cache disagrees with the mailbox or the hash with a recomputation.
    pub fn assert_consistent(&self) {
        let mut by_color = [Bb::EMPTY; 2];
        let mut by_kind = [Bb::EMPTY; Kind::COUNT];
        for sq in Square::all::<Geo>() {
            if let Some(p) = self.board[sq.index()] {
                by_color[p.color().index()] |= Bb::from_square(sq);
                by_kind[p.kind().index()] |= Bb::from_square(sq);
            }
        }
        assert_eq!(by_color, self.by_color, "colour bitboards out of step");
        assert_eq!(by_kind, self.by_kind, "kind bitboards out of step");
        assert_eq!(
            self.compute_hash(),
            self.hash,
            "incremental hash out of step"
        );
        for color in Color::BOTH {
            assert!(self.pieces(color, Kind::King).count() <= 1, "two kings");
        }
    }
}

/// Board edits outside the shogi move rules, for variants whose turns change the board in
/// other ways (Central Madness). They keep the caches and the hash in step but push no
/// history: the caller undoes them itself, in reverse order.
impl Position {
    /// Puts `piece` (or nothing) on `sq`, replacing whatever stood there.
    pub fn set_square(&mut self, sq: Square, piece: Option<Piece>) {
        let t = self.tables;
        let bb = Bb::from_square(sq);
        if let Some(old) = self.board[sq.index()].take() {
            self.by_color[old.color().index()] ^= bb;
            self.by_kind[old.kind().index()] ^= bb;
            self.hash ^= t.board_keys[old.index()][sq.index()];
        }
        if let Some(new) = piece {
            self.board[sq.index()] = Some(new);
            self.by_color[new.color().index()] |= bb;
            self.by_kind[new.kind().index()] |= bb;
            self.hash ^= t.board_keys[new.index()][sq.index()];
        }
    }

    /// Adds one piece of hand kind `kind` to `color`'s hand (`gain`), or takes one away.
    pub fn change_hand(&mut self, color: Color, kind: Kind, gain: bool) {
        let t = self.tables;
        let count = self.hands[color.index()].count(kind) as usize;
        let after = if gain { count + 1 } else { count - 1 };
        self.hash ^= t.hand_keys[color.index()][kind.index()][count]
            ^ t.hand_keys[color.index()][kind.index()][after];
        if gain {
            self.hands[color.index()].add(kind);
        } else {
            self.hands[color.index()].remove(kind);
        }
    }
}

impl PartialEq for Position {
    /// Two positions are equal when board, hands and side to move agree (history and move
    /// number are not part of the position, as for repetition).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Position {
    /// Passes the turn without moving (a null move). For search only: it is no legal move
    /// of the game, and must be taken back with [`Position::unplay_null`].
    pub fn play_null(&mut self) {
        self.history.push(Undo {
            mv: Move::normal(Square(0), Square(0), false),
            captured: None,
            hash_before: self.hash,
        });
        self.side = self.side.flip();
        self.hash ^= self.tables.side_key;
        self.move_number += 1;
    }

    /// Takes back a null move played by [`Position::play_null`].
    pub fn unplay_null(&mut self) {
        let undo = self.history.pop().expect("a null move to take back");
        debug_assert!(undo.captured.is_none() && undo.mv.from() == Some(undo.mv.to()));
        self.side = self.side.flip();
        self.hash = undo.hash_before;
        self.move_number -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games from the start: at every ply the move counter must agree with the move
    /// list, the SFEN must round-trip to an equal position with an equal hash, and unwinding every move must restore the start exactly.
    /// (`play`/`unplay` also check every cache and the hash themselves in debug builds.)
    #[test]
    fn random_games_round_trip_through_sfen_and_unwind() {
        let mut rng = StdRng::seed_from_u64(20261122);
        let start = Position::startpos();
        for _ in 0..60 {
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
                let reread = Position::from_sfen(&pos.to_sfen()).expect("own SFEN parses");
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
    fn hash_tells_side_to_move_and_hands_apart() {
        let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let w = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
        let other_hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap();
        let two = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        let hashes = [b.hash(), w.hash(), other_hand.hash(), two.hash()];
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(hashes[i], hashes[j]);
            }
        }
    }
}
