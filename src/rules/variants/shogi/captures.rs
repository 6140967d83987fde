//! Captures-only move generation for quiescence search: the legal captures of a side that
//! is not in check, each with its promotion when one is possible (the unpromoted twin of a
//! promotable capture is left out, it is almost never better). The full generator in
//! `movegen` stays the reference; tests compare the two.

use super::position::Position;
use super::Kind;
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveList};

impl Position {
    /// Appends the legal captures of the side to move, which must not be in check.
    pub fn generate_captures(&self, out: &mut MoveList) {
        debug_assert!(!self.in_check());
        let us = self.side_to_move();
        let them = us.flip();
        let t = self.tables();
        let occupied = self.occupied();
        let enemies = self.pieces_of(them);
        let king = self.king_square(us);
        let pinned = match king {
            Some(k) => self.pinned(us, k, occupied),
            None => Default::default(),
        };
        let zone = t.board.zone[us.index()];
        for from in self.pieces_of(us).squares() {
            let piece = self.piece_at(from).expect("a piece on an occupied square");
            let kind = piece.kind();
            let mut to_set = t.attacks(piece, from, occupied) & enemies;
            if to_set.is_empty() {
                continue;
            }
            if kind == Kind::King {
                let without_king = occupied.without(from);
                for to in to_set.squares() {
                    if self.attackers_to(to, them, without_king).is_empty() {
                        out.push(Move::normal(from, to, false));
                    }
                }
                continue;
            }
            if let (true, Some(k)) = (pinned.contains(from), king) {
                to_set &= t.rays.line(k, from);
            }
            if !kind.can_promote() {
                for to in to_set.squares() {
                    out.push(Move::normal(from, to, false));
                }
                continue;
            }
            let promoting = if zone.contains(from) {
                to_set
            } else {
                to_set & zone
            };
            for to in promoting.squares() {
                out.push(Move::normal(from, to, true));
            }
            // Unpromoted captures only where promotion is impossible (such squares are never
            // dead ranks, which lie inside the zone).
            for to in to_set.and_not(promoting).squares() {
                out.push(Move::normal(from, to, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::rules::moves::{Move, MoveList};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    fn check(pos: &Position) {
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        let mut caps = MoveList::new();
        pos.generate_captures(&mut caps);
        for m in &caps {
            assert!(
                legal.contains(m),
                "{} not legal in {}",
                pos.move_to_usi(*m),
                pos.to_sfen()
            );
            assert!(pos.piece_at(m.to()).is_some());
        }
        for m in &legal {
            if m.is_drop() || pos.piece_at(m.to()).is_none() {
                continue;
            }
            let twin = Move::normal(m.from().unwrap(), m.to(), true);
            assert!(
                caps.contains(m) || caps.contains(&twin),
                "{} missing in {}",
                pos.move_to_usi(*m),
                pos.to_sfen()
            );
        }
    }

    #[test]
    fn captures_agree_with_the_full_generator_over_random_games() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let mut legal = MoveList::new();
                pos.generate_legal(&mut legal);
                let Some(mv) = legal.choose(&mut rng) else {
                    break;
                };
                if !pos.in_check() {
                    check(&pos);
                    checked += 1;
                }
                pos.play(*mv);
            }
        }
        assert!(checked > 3000);
    }
}
