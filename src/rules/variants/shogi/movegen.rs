//! Legal move generation for standard shogi (RULES.md §1.3–1.5).
//!
//! Only legal moves are produced, with no make/unmake: checkers and pinned pieces are found
//! first, king moves are tested against the attacks the king would face, other pieces are
//! limited to the check-blocking squares and their pin lines, and drops obey nifu, dead
//! ranks and uchifuzume. Uchifuzume is judged analytically (can the king step out, or can an
//! unpinned piece take the pawn?), which is exact because a dropped pawn checks only from the
//! adjacent square and so can be neither blocked nor answered by a drop.
//!
//! The generator writes into a [`MoveSink`]: a [`MoveList`] receives the moves, a
//! [`MoveCounter`] only counts them (by popcount, without building moves), which is what
//! perft needs on its last ply.

use super::position::Position;
use super::{Kind, Piece};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::sink::{MoveCounter, MoveSink};

type Bb = Bb128;

impl Position {
    /// Appends every legal move of the side to move to `out`.
    pub fn generate_legal(&self, out: &mut MoveList) {
        self.generate_into(out);
    }

    /// The number of legal moves of the side to move.
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate_into(&mut counter);
        counter.0
    }

    /// Gives every legal move of the side to move to `out`.
    pub fn generate_into<S: MoveSink<Bb>>(&self, out: &mut S) {
        let us = self.side_to_move();
        let t = self.tables();
        let occupied = self.occupied();
        let ours = self.pieces_of(us);
        let king = self.king_square(us);
        let mut target = t.all.and_not(ours);
        let mut drop_target = t.all.and_not(occupied);
        let mut pinned = Bb::EMPTY;
        if let Some(k) = king {
            let checkers = self.attackers_to(k, us.flip(), occupied);
            self.push_king_moves(k, out);
            if checkers.more_than_one() {
                return;
            }
            if let Some(checker) = checkers.lowest() {
                drop_target = t.rays.between(k, checker);
                target = drop_target.with(checker);
            }
            pinned = self.pinned(us, k, occupied);
        }
        let movers = ours.and_not(self.pieces_of_kind(Kind::King));
        for from in movers.and_not(pinned).squares() {
            let piece = self.piece_at(from).expect("a piece on an occupied square");
            let to_set = t.attacks(piece, from, occupied) & target;
            self.push_board_moves(piece, from, to_set, out);
        }
        if let (true, Some(k)) = (pinned.any(), king) {
            for from in pinned.squares() {
                let piece = self.piece_at(from).expect("a pinned piece");
                let to_set = t.attacks(piece, from, occupied) & target & t.rays.line(k, from);
                self.push_board_moves(piece, from, to_set, out);
            }
        }
        self.push_drops(drop_target, out);
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Pieces of `color` that stand alone between its king on `king` and an enemy slider.
    pub fn pinned(&self, color: Color, king: Square, occupied: Bb) -> Bb {
        let t = self.tables();
        let them = color.flip();
        let snipers = (t.rook_attacks(king, Bb::EMPTY)
            & (self.pieces(them, Kind::Rook) | self.pieces(them, Kind::Dragon)))
            | (t.bishop_attacks(king, Bb::EMPTY)
                & (self.pieces(them, Kind::Bishop) | self.pieces(them, Kind::Horse)))
            | (t.lance_attacks(color, king, Bb::EMPTY) & self.pieces(them, Kind::Lance));
        let mut pinned = Bb::EMPTY;
        for sniper in snipers.squares() {
            let blockers = t.rays.between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.pieces_of(color);
            }
        }
        pinned
    }

    fn push_king_moves<S: MoveSink<Bb>>(&self, king: Square, out: &mut S) {
        let us = self.side_to_move();
        let t = self.tables();
        let without_king = self.occupied().without(king);
        let steps = t
            .step_attacks(us, Kind::King, king)
            .and_not(self.pieces_of(us));
        for to in steps.squares() {
            if !self.is_attacked(to, us.flip(), without_king) {
                out.push(Move::normal(king, to, false));
            }
        }
    }

    /// Pushes the moves of `piece` from `from` to each square of `to_set`, with and without
    /// promotion as the zone and the dead ranks allow.
    #[inline]
    pub(crate) fn push_board_moves<S: MoveSink<Bb>>(
        &self,
        piece: Piece,
        from: Square,
        to_set: Bb,
        out: &mut S,
    ) {
        let kind = piece.kind();
        if !kind.can_promote() {
            out.push_targets(from, to_set, false);
            return;
        }
        let t = self.tables();
        let us = piece.color();
        let promoting = if t.in_zone[us.index()][from.index()] {
            to_set
        } else {
            to_set & t.zone[us.index()]
        };
        out.push_targets(from, promoting, true);
        out.push_targets(from, to_set & t.alive[us.index()][kind.index()], false);
    }

    fn push_drops<S: MoveSink<Bb>>(&self, drop_target: Bb, out: &mut S) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || drop_target.is_empty() {
            return;
        }
        let t = self.tables();
        for kind in Kind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut squares = drop_target & t.alive[us.index()][kind.index()];
            if kind == Kind::Pawn {
                for pawn in self.pieces(us, Kind::Pawn).squares() {
                    squares = squares.and_not(t.file[pawn.file::<super::Geo>().0 as usize]);
                }
                if let Some(mating) = self.uchifuzume_square(squares) {
                    squares = squares.without(mating);
                }
            }
            out.push_drops(kind.id(), squares);
        }
    }

    /// The square among `candidates` where a pawn drop would give mate (illegal), if any.
    fn uchifuzume_square(&self, candidates: Bb) -> Option<Square> {
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
            .step_attacks(them, Kind::King, enemy_king)
            .and_not(self.pieces_of(them));
        for to in escapes.squares() {
            if !self.is_attacked(to, us, without_king) {
                return None;
            }
        }
        // Can another piece take the pawn without exposing its king?
        let takers = self
            .attackers_to(sq, them, occupied)
            .and_not(self.pieces_of_kind(Kind::King));
        let pinned = self.pinned(them, enemy_king, occupied);
        if takers.and_not(pinned).any() {
            return None;
        }
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::rules::moves::MoveList;

    fn legal_usi(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let mut text: Vec<String> = moves.iter().map(|m| pos.move_to_usi(*m)).collect();
        text.sort();
        text
    }

    #[test]
    fn start_position_has_thirty_moves() {
        assert_eq!(legal_usi(super::super::notation::START_SFEN).len(), 30);
    }

    #[test]
    fn pawn_drop_mate_is_refused_but_check_is_allowed() {
        // Gote king on 9a beside its own knight; a pawn on 9b is defended by the gold on 8c,
        // which also guards 8b, and the knight cannot reach 9b.
        let mate = "kn7/9/1G7/9/9/9/9/9/8K b P 1";
        assert!(!legal_usi(mate).contains(&"P*9b".to_string()));
        // Without the gold the king can take the pawn: the drop is legal.
        let check = "kn7/9/9/9/9/9/9/9/8K b P 1";
        assert!(legal_usi(check).contains(&"P*9b".to_string()));
    }

    #[test]
    fn nifu_and_dead_ranks_limit_drops() {
        let moves = legal_usi("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        assert!(!moves.iter().any(|m| m.starts_with("P*5")));
        assert!(!moves.contains(&"P*1a".to_string()));
        assert!(!moves.contains(&"L*1a".to_string()));
        assert!(!moves.contains(&"N*1b".to_string()));
        assert!(moves.contains(&"N*1c".to_string()));
        assert!(moves.contains(&"P*1b".to_string()));
    }

    #[test]
    fn forced_and_optional_promotion() {
        let moves = legal_usi("4k4/P8/2N6/8L/9/9/9/9/4K4 b - 1");
        // Pawn to the last rank must promote.
        assert!(moves.contains(&"9b9a+".to_string()));
        assert!(!moves.contains(&"9b9a".to_string()));
        // Knight to rank a must promote.
        assert!(moves.contains(&"7c8a+".to_string()));
        assert!(!moves.contains(&"7c8a".to_string()));
        // Lance may stop unpromoted on rank b or c.
        assert!(moves.contains(&"1d1b".to_string()));
        assert!(moves.contains(&"1d1b+".to_string()));
        assert!(moves.contains(&"1d1c".to_string()));
    }
}
