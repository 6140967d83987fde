//! Precomputed tables for standard shogi: per-piece step attacks compiled from the piece
//! atoms, slider rays, the promotion zones and drop masks, and the zobrist keys.
//!
//! Built once on first use and shared read-only by every position (positions hold a
//! `&'static Tables`, so the hot loop never touches the lazy-initialisation guard).

use super::{Geo, Kind, Piece, Shogi, PIECES};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::board_tables::shared_tables;
use crate::rules::compiled_atoms::CompiledAtoms;
use crate::rules::dropshogi::drop_tables_from_fields;
use crate::rules::dropshogi::tables::BoardTables;
use crate::rules::geometry::{Color, DirectionIndex, Square};
use crate::rules::rays::Rays;

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
    /// Steps, leaps and slide directions per colour and kind (the step table inline).
    atoms: CompiledAtoms<Geo, [[Bb; SQUARES]; Kind::COUNT], { Kind::COUNT }, SQUARES>,
    pub rays: Rays<Geo>,
    /// Zones, drop masks, files and zobrist keys (hand counts 0 to 18 of the 7 hand kinds).
    pub board: BoardTables<Bb, [[u64; SQUARES]; 2 * Kind::COUNT], SQUARES, 9, 7, 19>,
}

shared_tables!();

impl Tables {
    fn build() -> Tables {
        Tables {
            atoms: CompiledAtoms::build([[[Bb::EMPTY; SQUARES]; Kind::COUNT]; 2], |kind| {
                PIECES[kind].atoms
            }),
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
        self.atoms.step_attacks(color, kind.index(), sq)
    }

    /// Everything a piece attacks from `sq` given the occupancy.
    #[inline(always)]
    pub fn attacks(&self, piece: Piece, sq: Square, occupied: Bb) -> Bb {
        let (color, kind) = (piece.color(), piece.kind().index());
        self.atoms.attacks(&self.rays, color, kind, sq, occupied)
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
        let forward = self.atoms.slides(color, Kind::Lance.index())[0];
        self.rays.slide(forward, sq, occupied)
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
