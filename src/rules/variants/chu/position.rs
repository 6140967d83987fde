//! The state of a Chu Shogi game: board, side to move, the lion-capture record (SFEN field
//! 3), CHU.RUL's one-turn promotion deferral, the rule set, the incremental zobrist hash, and
//! the history needed to take moves back and to judge repetition.
//!
//! The mailbox (`board`) is the source of truth; the colour and kind bitboards are caches of
//! it, kept in step by `play`/`unplay`. Debug builds recompute every cache and the hash after
//! each `play` and `unplay` and panic on any difference.

use super::tables::{tables, Tables, SQUARES};
use super::{ChuRules, Geo, Kind, Piece};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::geometry::{Color, DirectionIndex, Square};
use crate::rules::moves::Move;
use crate::rules::play_record::{play_record_accessors, PlayRecord, UndoEntry};

type Bb = Bb192;

/// What `unplay` needs to restore, pushed by every `play`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub(super) mv: Move,
    pub(super) moved: Piece,
    /// The piece taken on the destination square.
    pub(super) captured: Option<Piece>,
    /// The piece taken on the middle square of a two-step move.
    pub(super) captured_mid: Option<Piece>,
    lion_capture: Option<Square>,
    declined: [Option<Square>; 2],
    pub(super) hash_before: u64,
}

impl UndoEntry for Undo {
    #[inline]
    fn move_and_hash_before(&self) -> (Move, u64) {
        (self.mv, self.hash_before)
    }
}

impl Undo {
    /// Promotions, Pawn and Lance moves and captures: no earlier position can recur
    /// (lishogi's `isIrreversible`).
    pub(super) fn is_irreversible(&self) -> bool {
        self.mv.is_promotion()
            || self.captured.is_some()
            || self.captured_mid.is_some()
            || matches!(self.moved.kind(), Kind::Pawn | Kind::Lance)
    }
}

/// A Chu Shogi position with its move history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    by_color: [Bb; 2],
    by_kind: [Bb; Kind::COUNT],
    side: Color,
    /// The square where, on the previous move, a non-Lion captured a Lion (SFEN field 3).
    lion_capture: Option<Square>,
    /// CHU.RUL: per colour, the square of the piece that declined promotion on entering the
    /// zone on its owner's previous move (valid for that owner's next move only).
    declined: [Option<Square>; 2],
    rules: ChuRules,
    record: PlayRecord<Undo>,
    tables: &'static Tables,
}

impl Position {
    /// An empty board, sente to move; callers fill it through [`Position::put`].
    pub(super) fn empty(rules: ChuRules) -> Position {
        Position {
            board: [None; SQUARES],
            by_color: [Bb::EMPTY; 2],
            by_kind: [Bb::EMPTY; Kind::COUNT],
            side: Color::Sente,
            lion_capture: None,
            declined: [None; 2],
            rules,
            record: PlayRecord::default(),
            tables: tables(),
        }
    }

    /// Sets up the hash after a position was filled square by square.
    pub(super) fn finish_setup(
        &mut self,
        side: Color,
        lion_capture: Option<Square>,
        move_number: u32,
    ) {
        self.side = side;
        self.lion_capture = lion_capture;
        self.record.set_up(move_number, self.compute_hash());
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.toggle(sq, piece);
    }

    /// Flips `piece` on `sq` in the bitboards and the hash (not in the mailbox).
    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        let bb = Bb::from_square(sq);
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.record.toggle(self.tables.key(piece, sq));
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        self.toggle(sq, piece);
        Some(piece)
    }

    #[inline]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    #[inline]
    pub fn rules(&self) -> ChuRules {
        self.rules
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The square recorded in SFEN field 3: where a non-Lion took a Lion on the last move.
    #[inline]
    pub fn lion_capture(&self) -> Option<Square> {
        self.lion_capture
    }

    /// CHU.RUL: the square of `color`'s piece that may not promote on this move without
    /// capturing, having declined on entering the zone on its previous move.
    #[inline]
    pub fn declined(&self, color: Color) -> Option<Square> {
        self.declined[color.index()]
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

    /// `color`'s King and Crown Prince.
    #[inline]
    pub fn royals(&self, color: Color) -> Bb {
        (self.by_kind[Kind::King.index()] | self.by_kind[Kind::CrownPrince.index()])
            & self.by_color[color.index()]
    }

    /// `color`'s Lions and promoted Kirins.
    #[inline]
    pub fn lions(&self, color: Color) -> Bb {
        (self.by_kind[Kind::Lion.index()] | self.by_kind[Kind::PromotedKirin.index()])
            & self.by_color[color.index()]
    }

    play_record_accessors!();

    /// The undo entries of the moves played since set-up, oldest first.
    #[inline]
    pub(super) fn history(&self) -> &[Undo] {
        self.record.undos()
    }

    /// Every piece of `by` that attacks `sq` in one leg (steps, leaps, the Lion's 24 squares,
    /// slides), with `occupied` as the blocking pieces. Pieces count as attackers whether or
    /// not they are in `occupied`, except sliders, which must stand on an occupied square.
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bb) -> Bb {
        let t = self.tables;
        let victim = by.flip();
        let mut attackers = Bb::EMPTY;
        for kind in &t.step_kinds {
            attackers |= t.step_attacks(victim, *kind, sq) & self.by_kind[kind.index()];
        }
        attackers &= self.by_color[by.index()];
        for d in 0..8u8 {
            let hit = t.rays.slide(DirectionIndex(d), sq, occupied) & occupied;
            if let Some(blocker) = hit.lowest() {
                if let Some(p) = self.board[blocker.index()] {
                    if p.color() == by && t.slides_in(by, p.kind(), (d ^ 1) as usize) {
                        attackers = attackers.with(blocker);
                    }
                }
            }
        }
        attackers
    }

    /// Whether any royal of `color` is attacked.
    pub fn in_check(&self, color: Color) -> bool {
        let occupied = self.occupied();
        self.royals(color)
            .squares()
            .any(|r| self.attackers_to(r, color.flip(), occupied).any())
    }

    /// Plays a legal move (one that `movegen` produced for this position).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let hash_before = self.hash();
        let from = mv.from().expect("Chu Shogi has no drops");
        let to = mv.to();
        let mut record = None;
        let mut captured_mid = None;
        let moved = self.take(from).expect("a piece on the origin square");
        if let Some(mid) = mv.mid() {
            captured_mid = self.take(mid);
            if let Some(victim) = captured_mid {
                if victim.kind().is_lion() && !moved.kind().is_lion() {
                    record = Some(mid);
                }
            }
        }
        let captured = self.take(to);
        if let Some(victim) = captured {
            if victim.kind().is_lion() && !moved.kind().is_lion() {
                record = Some(to);
            }
        }
        let landed = moved.landing(mv);
        self.board[to.index()] = Some(landed);
        self.toggle(to, landed);
        let t = self.tables;
        if let Some(old) = self.lion_capture {
            self.record.toggle(t.lion_capture_keys[old.index()]);
        }
        if let Some(new) = record {
            self.record.toggle(t.lion_capture_keys[new.index()]);
        }
        let old_record = std::mem::replace(&mut self.lion_capture, record);
        let old_declined = self.declined;
        let declined = (self.rules == ChuRules::Churul
            && !mv.is_promotion()
            && moved.kind().can_promote()
            && !t.zone[us.index()].contains(from)
            && t.zone[us.index()].contains(to))
        .then_some(to);
        if let Some(old) = self.declined[us.index()] {
            self.record.toggle(t.declined_keys[us.index()][old.index()]);
        }
        if let Some(new) = declined {
            self.record.toggle(t.declined_keys[us.index()][new.index()]);
        }
        self.declined[us.index()] = declined;
        self.side = us.flip();
        self.record.toggle(t.side_key);
        self.record.push(Undo {
            mv,
            moved,
            captured,
            captured_mid,
            lion_capture: old_record,
            declined: old_declined,
            hash_before,
        });
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move played. Panics if there is none.
    pub fn unplay(&mut self) {
        let undo = *self.record.last().expect("a move to take back");
        let from = undo.mv.from().expect("a board move");
        let to = undo.mv.to();
        self.take(to).expect("the moved piece");
        if let Some(victim) = undo.captured {
            self.put(to, victim);
        }
        self.put(from, undo.moved);
        if let (Some(mid), Some(victim)) = (undo.mv.mid(), undo.captured_mid) {
            self.put(mid, victim);
        }
        self.side = self.side.flip();
        self.lion_capture = undo.lion_capture;
        self.declined = undo.declined;
        // Last, as the board's restoring toggled the hash.
        self.record.pop();
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Passes the turn without moving (a null move). For search only: it is no legal move
    /// of the game, and must be taken back with [`Position::unplay_null`]. The lion-capture
    /// record lapses, as after any move that takes no Lion.
    pub fn play_null(&mut self) {
        let us = self.side;
        let t = self.tables;
        let hash_before = self.hash();
        let old_record = self.lion_capture.take();
        if let Some(old) = old_record {
            self.record.toggle(t.lion_capture_keys[old.index()]);
        }
        self.side = us.flip();
        self.record.toggle(t.side_key);
        self.record.push(Undo {
            mv: Move::normal(Square(0), Square(0), false),
            moved: Piece::new(us, Kind::King),
            captured: None,
            captured_mid: None,
            lion_capture: old_record,
            declined: self.declined,
            hash_before,
        });
    }

    /// Takes back a null move played by [`Position::play_null`].
    pub fn unplay_null(&mut self) {
        let undo = self.record.pop().expect("a null move to take back");
        debug_assert!(undo.captured.is_none() && undo.mv.from() == Some(undo.mv.to()));
        self.side = self.side.flip();
        self.lion_capture = undo.lion_capture;
        self.declined = undo.declined;
    }

    /// The zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let t = self.tables;
        let mut hash = 0;
        for sq in Square::all::<Geo>() {
            if let Some(p) = self.board[sq.index()] {
                hash ^= t.key(p, sq);
            }
        }
        if self.side == Color::Gote {
            hash ^= t.side_key;
        }
        if let Some(sq) = self.lion_capture {
            hash ^= t.lion_capture_keys[sq.index()];
        }
        for color in Color::BOTH {
            if let Some(sq) = self.declined[color.index()] {
                hash ^= t.declined_keys[color.index()][sq.index()];
            }
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
        self.record.assert_hash(self.compute_hash());
        for color in Color::BOTH {
            assert!(self.pieces(color, Kind::King).count() <= 1, "two kings");
            assert!(
                self.pieces(color, Kind::CrownPrince).count() <= 1,
                "two crown princes"
            );
        }
    }
}

impl PartialEq for Position {
    /// Two positions are equal when board, side to move, lion-capture record and deferral
    /// agree (history and move number are not part of the position, as for repetition).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.lion_capture == other.lion_capture
            && self.declined == other.declined
            && self.rules == other.rules
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({}, {})", self.to_sfen(), self.rules.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games from the start under every rule set: at every ply the SFEN must
    /// round-trip to an equal position with an equal hash (lishogi and JCSA; CHU.RUL's
    /// one-turn deferral is not part of the SFEN), and unwinding every move must restore the
    /// start exactly. (`play`/`unplay` also check every cache and the hash in debug builds.)
    #[test]
    fn random_games_round_trip_through_sfen_and_unwind() {
        let mut rng = StdRng::seed_from_u64(20261122);
        for rules in ChuRules::ALL {
            let start = Position::startpos_with(rules);
            for _ in 0..12 {
                let mut pos = start.clone();
                let mut moves = MoveList::new();
                for _ in 0..rng.gen_range(40..250) {
                    moves.clear();
                    pos.generate_legal(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures so that Lions meet and royals fall.
                    let captures: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| {
                            pos.piece_at(m.to()).is_some_and(|p| p.color() != pos.side)
                                || m.mid().is_some_and(|s| pos.piece_at(s).is_some())
                        })
                        .collect();
                    let mv = if !captures.is_empty() && rng.gen_bool(0.7) {
                        captures[rng.gen_range(0..captures.len())]
                    } else {
                        moves[rng.gen_range(0..moves.len())]
                    };
                    assert_eq!(pos.parse_usi_move(&pos.move_to_usi(mv)), Ok(mv));
                    pos.play(mv);
                    if rules != ChuRules::Churul && pos.royals(pos.side).any() {
                        let reread = Position::from_sfen_with(&pos.to_sfen(), rules)
                            .expect("own SFEN parses");
                        assert_eq!(reread, pos);
                        assert_eq!(reread.hash(), pos.hash());
                    }
                }
                while pos.moves_played() > 0 {
                    pos.unplay();
                }
                assert_eq!(pos, start);
                assert_eq!(pos.hash(), start.hash());
            }
        }
    }

    #[test]
    fn hash_tells_side_record_and_rules_state_apart() {
        let base = "11k/12/12/12/12/12/12/12/12/12/12/K11";
        let b = Position::from_sfen(&format!("{base} b - 1")).unwrap();
        let w = Position::from_sfen(&format!("{base} w - 1")).unwrap();
        let rec = Position::from_sfen(&format!("{base} b 6f 1")).unwrap();
        assert_ne!(b.hash(), w.hash());
        assert_ne!(b.hash(), rec.hash());
        assert_ne!(w.hash(), rec.hash());
    }

    #[test]
    fn attackers_include_leaps_and_x_rays_only_through_removed_squares() {
        let pos = Position::from_sfen("11k/12/12/12/12/6n5/12/L5N5/12/12/6r5/K11 b - 1").unwrap();
        let sq = |t: &str| Square::from_usi::<Geo>(t).unwrap();
        let occupied = pos.occupied();
        // The gote Lion on 6f reaches 6h by a jump.
        assert!(pos
            .attackers_to(sq("6h"), Color::Gote, occupied)
            .contains(sq("6f")));
        // The rook on 6k sees 6f only once 6h is vacated.
        assert!(!pos
            .attackers_to(sq("6f"), Color::Gote, occupied)
            .contains(sq("6k")));
        assert!(pos
            .attackers_to(sq("6f"), Color::Gote, occupied.without(sq("6h")))
            .contains(sq("6k")));
        assert!(
            pos.in_check(Color::Sente) == pos.attackers_to(sq("12l"), Color::Gote, occupied).any()
        );
    }
}
