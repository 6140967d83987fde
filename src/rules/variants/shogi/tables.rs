//! Precomputed tables for standard shogi: per-piece step attacks compiled from the piece
//! atoms, slider rays, the promotion zones and drop masks, and the zobrist keys.
//!
//! Built once on first use and shared read-only by every position (positions hold a
//! `&'static Tables`, so the hot loop never touches the lazy-initialisation guard).

use super::{Geo, Kind, Piece, Shogi, PIECES};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::board_tables::{add_step, shared_tables};
use crate::rules::dropshogi::drop_tables_from_fields;
use crate::rules::dropshogi::tables::BoardTables;
use crate::rules::geometry::{Color, DirectionIndex, Square};
use crate::rules::piece::MoveAtom;
use crate::rules::rays::Rays;
use arrayvec::ArrayVec;

type Bb = Bb128;
const SQUARES: usize = 81;
/// Indices into `geometry::DIRECTIONS` of the orthogonal and the diagonal directions.
const ROOK_DIRECTIONS: [DirectionIndex; 4] = [
    DirectionIndex(0),
    DirectionIndex(1),
    DirectionIndex(2),
    DirectionIndex(3),
];
const BISHOP_DIRECTIONS: [DirectionIndex; 4] = [
    DirectionIndex(4),
    DirectionIndex(5),
    DirectionIndex(6),
    DirectionIndex(7),
];

/// Every table the shogi rules consult.
pub struct Tables {
    /// Non-sliding attacks (steps and leaps) per colour, kind and square.
    step: [[[Bb; SQUARES]; Kind::COUNT]; 2],
    /// Slide directions per colour and kind.
    slides: [[ArrayVec<DirectionIndex, 8>; Kind::COUNT]; 2],
    pub rays: Rays<Geo>,
    /// Zones, drop masks, files and zobrist keys (hand counts 0 to 18 of the 7 hand kinds).
    pub board: BoardTables<Bb, [[u64; SQUARES]; 2 * Kind::COUNT], SQUARES, 9, 7, 19>,
}

shared_tables!();

impl Tables {
    fn build() -> Tables {
        let mut step = [[[Bb::EMPTY; SQUARES]; Kind::COUNT]; 2];
        let mut slides: [[ArrayVec<DirectionIndex, 8>; Kind::COUNT]; 2] = Default::default();
        for color in Color::BOTH {
            for kind in Kind::ALL {
                for atom in PIECES[kind.index()].atoms {
                    let offset = atom.offset(color);
                    match atom {
                        MoveAtom::Step { .. } | MoveAtom::Leap { .. } => {
                            add_step::<Geo>(&mut step[color.index()][kind.index()], offset)
                        }
                        MoveAtom::Slide { .. } => slides[color.index()][kind.index()]
                            .push(DirectionIndex::of(offset).expect("unit slide")),
                        MoveAtom::RangeSlide { .. } => {
                            unreachable!("standard shogi has no range-limited slides")
                        }
                    }
                }
            }
        }
        Tables {
            step,
            slides,
            rays: Rays::new(),
            board: BoardTables::build::<Geo>(
                |slot| Kind::HAND[slot].rules().forced_promotion_ranks,
                0x5348_4F47_4931,
                [[0; SQUARES]; 2 * Kind::COUNT],
            ),
        }
    }

    /// Steps and leaps of a piece of `color` and `kind` from `sq`.
    #[inline]
    pub fn step_attacks(&self, color: Color, kind: Kind, sq: Square) -> Bb {
        self.step[color.index()][kind.index()][sq.index()]
    }

    /// Everything a piece attacks from `sq` given the occupancy.
    #[inline(always)]
    pub fn attacks(&self, piece: Piece, sq: Square, occupied: Bb) -> Bb {
        let (color, kind) = (piece.color(), piece.kind());
        self.step_attacks(color, kind, sq)
            | self
                .rays
                .slides(&self.slides[color.index()][kind.index()], sq, occupied)
    }

    /// Rook-line attacks from `sq`.
    #[inline]
    pub fn rook_attacks(&self, sq: Square, occupied: Bb) -> Bb {
        self.slides_along(ROOK_DIRECTIONS, sq, occupied)
    }

    /// Bishop-line attacks from `sq`.
    #[inline]
    pub fn bishop_attacks(&self, sq: Square, occupied: Bb) -> Bb {
        self.slides_along(BISHOP_DIRECTIONS, sq, occupied)
    }

    #[inline(always)]
    fn slides_along(&self, dirs: [DirectionIndex; 4], sq: Square, occupied: Bb) -> Bb {
        self.rays.slide(dirs[0], sq, occupied)
            | self.rays.slide(dirs[1], sq, occupied)
            | self.rays.slide(dirs[2], sq, occupied)
            | self.rays.slide(dirs[3], sq, occupied)
    }

    /// Lance attacks of `color` from `sq`.
    #[inline]
    pub fn lance_attacks(&self, color: Color, sq: Square, occupied: Bb) -> Bb {
        self.rays.slide(
            self.slides[color.index()][Kind::Lance.index()][0],
            sq,
            occupied,
        )
    }

    /// The square directly in front of `sq` for `color`, if on the board.
    #[inline]
    pub fn square_ahead(&self, color: Color, sq: Square) -> Option<Square> {
        self.step_attacks(color, Kind::Pawn, sq).lowest()
    }
}

drop_tables_from_fields!(Tables, Shogi);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dropshogi::tables::assert_member_attacks_follow_atoms;

    /// The compiled tables agree with walking each piece's atoms square by square.
    #[test]
    fn tables_agree_with_the_atoms() {
        assert_member_attacks_follow_atoms::<Shogi>(&[(5, 2, 7)]);
    }
}
