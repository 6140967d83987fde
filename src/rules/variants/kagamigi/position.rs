//! Chu Kagamigi as a member of the drop-shogi family (`rules::dropshogi`): the
//! [`DropVariant`] impl that names its board, kinds, tables, storage and rule choices, and
//! the hook that is its own, finding the attackers of a square by looking along the eight
//! lines for the nearest piece and asking how far it reaches, then at the few leapers. The
//! state, make/unmake, the hash and the debug invariants are [`DropPosition`]'s.

use super::tables::{tables, Tables};
use super::{notation, Geo, KagamigiRules, Kind, Piece, PromotionRule};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::dropshogi::{self, drop_variant_storage, DropPosition, DropVariant};
use crate::rules::geometry::{Color, DirectionIndex, Square, DIRECTIONS};
use crate::rules::sink::MoveSink;

type Bb = Bb192;

/// One side's pieces in hand, counted per hand kind (`Kind` order).
pub type Hand = dropshogi::Hand<Kind, { Kind::HAND_COUNT }>;

/// A Chu Kagamigi position with its move history.
pub type Position = DropPosition<Kagamigi>;

/// Chu Kagamigi, the member of the drop-shogi family played on 12×12 with 46 kinds.
pub struct Kagamigi;

impl DropVariant for Kagamigi {
    drop_variant_storage!(
        geo: Geo,
        kind: Kind,
        piece: Piece,
        hand: Hand,
        tables: Tables = tables,
        start: notation::START_SFEN,
    );
    type Choices = KagamigiRules;

    /// Squares of `occupied` with no piece on the board block without attacking.
    #[inline]
    fn attackers_to(pos: &Position, sq: Square, by: Color, occupied: Bb) -> Bb {
        let mut attackers = Bb::EMPTY;
        for d in 0..8 {
            if let Some(b) = pos.nearest(d, sq, occupied) {
                if let Some(p) = pos.piece_at(b) {
                    if p.color() == by && pos.line_reaches(p, d ^ 1, b, sq) {
                        attackers |= Bb::from_square(b);
                    }
                }
            }
        }
        let t = pos.tables();
        for &kind in &t.leapers {
            attackers |= t.leap_attacks(by.flip(), kind, sq) & pos.pieces(by, kind);
        }
        attackers
    }

    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color, occupied: Bb) -> bool {
        let t = pos.tables();
        for &kind in &t.leapers {
            if (t.leap_attacks(by.flip(), kind, sq) & pos.pieces(by, kind)).any() {
                return true;
            }
        }
        for d in 0..8 {
            if let Some(b) = pos.nearest(d, sq, occupied) {
                if let Some(p) = pos.piece_at(b) {
                    if p.color() == by && pos.line_reaches(p, d ^ 1, b, sq) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Always inlined, so that a move counter stays in a register (perft's last ply).
    #[inline(always)]
    fn generate_into<S: MoveSink<Bb>>(pos: &Position, out: &mut S) {
        super::movegen::generate_into(pos, out);
    }

    /// A pinned taker may take only along its pin line (a leaper pinned on a line may not
    /// leave it either).
    fn some_taker_may_capture(
        pos: &Position,
        color: Color,
        king: Square,
        occupied: Bb,
        takers: Bb,
        sq: Square,
    ) -> bool {
        let pins = pos.pins(color, king, occupied);
        takers.squares().any(|taker| match pins.allowed(taker) {
            None => true,
            Some(allowed) => allowed.contains(sq),
        })
    }

    #[inline]
    fn promotes_leaving_zone(rules: KagamigiRules) -> bool {
        rules.promotion == PromotionRule::StartOrEnd
    }
}

impl Position {
    /// The rule choices this game is played under.
    #[inline]
    pub fn rules(&self) -> KagamigiRules {
        self.choices()
    }

    /// Plays this game under other rule choices (they change no state, only which moves are
    /// legal from now on).
    pub fn set_rules(&mut self, rules: KagamigiRules) {
        self.set_choices(rules);
    }

    /// The nearest square of `occupied` from `sq` in direction `d`, if any.
    #[inline(always)]
    pub(super) fn nearest(&self, d: usize, sq: Square, occupied: Bb) -> Option<Square> {
        let blockers = self.tables().rays.ray(DirectionIndex(d as u8), sq) & occupied;
        if DIRECTIONS[d].index_delta::<Geo>() > 0 {
            blockers.lowest()
        } else {
            blockers.highest()
        }
    }

    /// True if `piece`, standing on `from`, reaches as far as `sq` along board direction `d`
    /// (the caller has checked that nothing stands between).
    #[inline(always)]
    fn line_reaches(&self, piece: Piece, d: usize, from: Square, sq: Square) -> bool {
        let t = self.tables();
        t.reach[piece.color().index()][piece.kind().index()][d] >= t.distance(from, sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `attackers_to` agrees with asking every piece whether its attacks reach the square.
    #[test]
    fn attackers_agree_with_each_pieces_attacks() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut pos = Position::startpos();
        let mut moves = MoveList::new();
        for _ in 0..300 {
            moves.clear();
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]);
            let occ = pos.occupied();
            for sq in Square::all::<Geo>() {
                for by in Color::BOTH {
                    let mut expected = Bb::EMPTY;
                    for from in pos.pieces_of(by).squares() {
                        let p = pos.piece_at(from).unwrap();
                        if pos.tables().attacks(p, from, occ).contains(sq) {
                            expected = expected.with(from);
                        }
                    }
                    assert_eq!(pos.attackers_to(sq, by, occ), expected, "{sq:?}");
                    assert_eq!(pos.is_attacked(sq, by, occ), expected.any());
                }
            }
        }
    }
}
