//! The parts of legal move generation every drop variant shares (RULES.md §1.3–1.5): king
//! moves tested against the attacks the king would face, the promotion split (zone,
//! optional and forced promotion), and drops with nifu, dead ranks and uchifuzume.
//!
//! Each member's `DropVariant::generate_into` finds its checkers and pins (which depend on
//! its pieces: standard shogi's pins come from three slider kinds, Chu Kagamigi's from any
//! piece reaching along a line, leapers included) and calls these for the rest, through
//! `DropPosition::generate_with_pins`: the whole generator, asking the member only where a
//! check may be blocked and which pieces are pinned ([`PinnedPieces`]). Uchifuzume
//! is judged analytically: a dropped pawn checks only from the adjacent square, so the only
//! answers are a king step or a capture of the pawn by a piece its pin (if any) allows.
//!
//! The generator writes into a [`MoveSink`]: a [`MoveList`] receives the moves, a
//! [`MoveCounter`] only counts them (by popcount, without building moves), which is what
//! perft needs on its last ply.

use super::{Bb, DropKind, DropPiece, DropPosition, DropTables, DropVariant, HandCounts};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Geometry;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::sink::{MoveCounter, MoveFinder, MovePart, MoveSink, PartSink};

/// The pieces of one side that stand alone between its king and an enemy piece reaching
/// along that line, as a member with fast tables finds them.
pub trait PinnedPieces<V: DropVariant> {
    /// Every pinned piece.
    fn pieces(&self) -> Bb<V>;

    /// Gives the moves of the pinned pieces of the side to move in `pos`, whose king stands
    /// on `king`, to the squares of `target` their pins allow.
    fn push_moves<S: MoveSink<Bb<V>>>(
        &self,
        pos: &DropPosition<V>,
        king: Square,
        target: Bb<V>,
        occupied: Bb<V>,
        out: &mut S,
    );
}

impl<V: DropVariant> DropPosition<V> {
    /// Gives every legal move of the side to move to `out`, for a member that finds its
    /// checkers and pins fast: the king's moves; unless in double check, the other pieces'
    /// moves to any square but their own (in check: the checker's square or one of
    /// `interpose(king, checker)`, where a piece may step between), the pinned pieces (found
    /// by `pins(side, king, occupied)`) only as their pins allow; then the drops (in check,
    /// only between).
    #[inline(always)]
    pub(crate) fn generate_with_pins<S: MoveSink<Bb<V>>, P: PinnedPieces<V>>(
        &self,
        out: &mut S,
        interpose: impl Fn(Square, Square) -> Bb<V>,
        pins: impl Fn(Color, Square, Bb<V>) -> P,
    ) {
        let us = self.side_to_move();
        let t = self.tables();
        let occupied = self.occupied();
        let ours = self.pieces_of(us);
        let king = self.king_square(us);
        let mut target = t.all().and_not(ours);
        let mut drop_target = t.all().and_not(occupied);
        let mut pinned = None;
        if let Some(k) = king {
            let checkers = self.attackers_to(k, us.flip(), occupied);
            self.push_king_moves(k, out);
            if checkers.more_than_one() {
                return;
            }
            if let Some(checker) = checkers.lowest() {
                drop_target = interpose(k, checker);
                target = drop_target.with(checker);
            }
            pinned = Some((k, pins(us, k, occupied)));
        }
        let mut movers = ours.and_not(self.pieces_of_kind(V::Kind::KING));
        if let Some((_, pinned)) = &pinned {
            movers = movers.and_not(pinned.pieces());
        }
        for from in movers.squares() {
            let piece = self.piece_at(from).expect("a piece on an occupied square");
            let to_set = t.attacks(piece, from, occupied) & target;
            self.push_board_moves(piece, from, to_set, out);
        }
        if let Some((k, pinned)) = &pinned {
            pinned.push_moves(self, *k, target, occupied, out);
        }
        self.push_drops(drop_target, out);
    }

    /// Appends every legal move of the side to move to `out`.
    pub fn generate_legal(&self, out: &mut MoveList) {
        V::generate_into(self, out);
    }

    /// Gives every legal move of the side to move to `out`.
    #[inline]
    pub fn generate_into<S: MoveSink<Bb<V>>>(&self, out: &mut S) {
        V::generate_into(self, out);
    }

    /// Appends the legal moves of the side to move that belong to `part` (the two parts
    /// together are [`DropPosition::generate_legal`]'s moves).
    pub fn generate_part(&self, part: MovePart, out: &mut MoveList) {
        let them = self.pieces_of(self.side_to_move().flip());
        let all = self.tables().all();
        V::generate_into(
            self,
            &mut PartSink::new(out, part, them, self.occupied(), all),
        );
    }

    /// Whether `mv`, any move code (a table's move may come from another position), is a
    /// legal move of the side to move here, found without generating the moves: the piece
    /// must reach the square (with a promotion choice the zone allows), a drop must be one
    /// the drop rules allow, and the move must not leave the king attacked.
    pub fn is_legal(&self, mv: Move) -> bool {
        let to = mv.to();
        if mv.mid().is_some() || to.index() >= V::Geo::SQUARES {
            return false;
        }
        let us = self.side_to_move();
        let t = self.tables();
        let occupied = self.occupied();
        let mut finder = MoveFinder::new(mv);
        let Some(from) = mv.from() else {
            if mv.is_promotion() || occupied.contains(to) {
                return false;
            }
            self.push_drops(Bb::<V>::from_square(to), &mut finder);
            return finder.found
                && self
                    .king_square(us)
                    .is_none_or(|k| !self.is_attacked(k, us.flip(), occupied.with(to)));
        };
        if from.index() >= V::Geo::SQUARES || self.pieces_of(us).contains(to) {
            return false;
        }
        let Some(piece) = self.piece_at(from).filter(|p| p.color() == us) else {
            return false;
        };
        let reach = t.attacks(piece, from, occupied) & Bb::<V>::from_square(to);
        if piece.kind() == V::Kind::KING {
            return reach.any()
                && !mv.is_promotion()
                && !self.is_attacked(to, us.flip(), occupied.without(from));
        }
        self.push_board_moves(piece, from, reach, &mut finder);
        let after = occupied.without(from).with(to);
        finder.found
            && self.king_square(us).is_none_or(|k| {
                self.attackers_to(k, us.flip(), after)
                    .without(to)
                    .is_empty()
            })
    }

    /// The number of legal moves of the side to move.
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter::default();
        V::generate_into(self, &mut counter);
        counter.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Pushes the king's steps to squares the enemy does not attack.
    pub(crate) fn push_king_moves<S: MoveSink<Bb<V>>>(&self, king: Square, out: &mut S) {
        let us = self.side_to_move();
        let t = self.tables();
        let without_king = self.occupied().without(king);
        let steps = t
            .step_attacks(us, V::Kind::KING, king)
            .and_not(self.pieces_of(us));
        for to in steps.squares() {
            if !self.is_attacked(to, us.flip(), without_king) {
                out.push(Move::normal(king, to, false));
            }
        }
    }

    /// Pushes the moves of `piece` from `from` to each square of `to_set`, with and without
    /// promotion as the zone, the rule choices and the dead ranks allow.
    #[inline]
    pub(crate) fn push_board_moves<S: MoveSink<Bb<V>>>(
        &self,
        piece: V::Piece,
        from: Square,
        to_set: Bb<V>,
        out: &mut S,
    ) {
        let kind = piece.kind();
        if !kind.can_promote() {
            out.push_targets(from, to_set, false);
            return;
        }
        let t = self.tables();
        let us = piece.color();
        let promoting = if t.in_zone(us, from) && V::promotes_leaving_zone(self.choices()) {
            to_set
        } else {
            to_set & t.zone(us)
        };
        out.push_targets(from, promoting, true);
        out.push_targets(from, to_set & t.alive(us, kind), false);
    }

    /// Pushes the drops of the side to move on the squares of `drop_target`.
    pub(crate) fn push_drops<S: MoveSink<Bb<V>>>(&self, drop_target: Bb<V>, out: &mut S) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || drop_target.is_empty() || !out.wants_drops() {
            return;
        }
        let t = self.tables();
        for &kind in V::Kind::HAND_KINDS {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut squares = drop_target & t.alive(us, kind);
            if kind == V::Kind::PAWN {
                for pawn in self.pieces(us, kind).squares() {
                    squares = squares.and_not(t.file(pawn.file::<V::Geo>().0 as usize));
                }
                if let Some(mating) = self.uchifuzume_square(squares) {
                    squares = squares.without(mating);
                }
            }
            out.push_drops(kind.id(), squares);
        }
    }

    /// The square among `candidates` where a pawn drop would give mate (illegal), if any.
    fn uchifuzume_square(&self, candidates: Bb<V>) -> Option<Square> {
        let us = self.side_to_move();
        let them = us.flip();
        let t = self.tables();
        let enemy_king = self.king_square(them)?;
        let sq = t.square_ahead(them, enemy_king)?;
        if !candidates.contains(sq) {
            return None;
        }
        let occupied = self.occupied().with(sq);
        // Can the king step to safety (taking the pawn counts, if the pawn is undefended)?
        let without_king = occupied.without(enemy_king);
        let escapes = t
            .step_attacks(them, V::Kind::KING, enemy_king)
            .and_not(self.pieces_of(them));
        for to in escapes.squares() {
            if !self.is_attacked(to, us, without_king) {
                return None;
            }
        }
        // Can another piece take the pawn without exposing its king?
        let takers = self
            .attackers_to(sq, them, occupied)
            .and_not(self.pieces_of_kind(V::Kind::KING));
        if takers.any() && V::some_taker_may_capture(self, them, enemy_king, occupied, takers, sq) {
            return None;
        }
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DropPosition, DropVariant};
    use crate::rules::game::random_games;
    use crate::rules::moves::{Move, MoveList};
    use crate::rules::sink::MovePart;
    use crate::rules::variants::{kagamigi, shogi};
    use rand::seq::SliceRandom;
    use rand::Rng;

    fn sorted(moves: &MoveList) -> Vec<u32> {
        let mut bits: Vec<u32> = moves.iter().map(|m| m.bits()).collect();
        bits.sort_unstable();
        bits
    }

    /// Over random games: the captures and the other moves together are the legal moves,
    /// and `is_legal` says yes to each legal move and no to the moves of earlier positions
    /// (one and two plies back, and their promotion twins) that are not legal here.
    fn parts_and_legality_agree<V: DropVariant>(start: DropPosition<V>, seed: u64) {
        let mut earlier: [Vec<Move>; 2] = Default::default();
        let (mut refused, mut positions) = (0, 0);
        random_games(&start, seed, (20, 100), |pos, legal, rng| {
            let (mut captures, mut quiets) = (MoveList::new(), MoveList::new());
            pos.generate_part(MovePart::Captures, &mut captures);
            pos.generate_part(MovePart::Quiets, &mut quiets);
            assert!(captures.iter().all(|m| pos.piece_at(m.to()).is_some()));
            assert!(quiets.iter().all(|m| pos.piece_at(m.to()).is_none()));
            let mut both = captures.clone();
            both.extend(quiets.iter().copied());
            assert_eq!(sorted(&both), sorted(legal), "{}", pos.to_sfen());
            for &mv in legal.iter() {
                assert!(
                    pos.is_legal(mv),
                    "{} {}",
                    pos.to_sfen(),
                    pos.move_to_usi(mv)
                );
            }
            for &mv in earlier.iter().flatten() {
                let twin = match mv.from() {
                    Some(from) => Move::normal(from, mv.to(), !mv.is_promotion()),
                    None => mv,
                };
                for m in [mv, twin] {
                    let expected = legal.contains(&m);
                    assert_eq!(pos.is_legal(m), expected, "{} {:?}", pos.to_sfen(), m);
                    refused += usize::from(!expected);
                }
            }
            positions += 1;
            let mv = *legal.choose(rng)?;
            earlier.swap(0, 1);
            earlier[0] = legal
                .iter()
                .copied()
                .filter(|_| rng.gen_bool(0.3))
                .collect();
            Some(mv)
        });
        assert!(
            positions > 1000 && refused > 10_000,
            "{positions} {refused}"
        );
    }

    #[test]
    fn shogi_parts_and_legality_agree_with_the_generator() {
        parts_and_legality_agree(shogi::Position::startpos(), 11);
    }

    #[test]
    fn kagamigi_parts_and_legality_agree_with_the_generator() {
        parts_and_legality_agree(kagamigi::Position::startpos(), 12);
    }
}
