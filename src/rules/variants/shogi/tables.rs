//! Precomputed tables for standard shogi: per-piece step attacks compiled from the piece
//! atoms, slider rays, the promotion zones and drop masks, and the zobrist keys.
//!
//! Built once on first use and shared read-only by every position (positions hold a
//! `&'static Tables`, so the hot loop never touches the lazy-initialisation guard).

use super::{Geo, Kind, Piece, Shogi, PIECES};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::board_tables::{
    self, add_step, all_squares, file_squares, shared_tables, zone_flags, zones,
};
use crate::rules::dropshogi::drop_tables_from_fields;
use crate::rules::geometry::{Color, DirectionIndex, Square};
use crate::rules::piece::MoveAtom;
use crate::rules::rays::Rays;
use crate::rules::zobrist::KeyStream;
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
    /// The promotion zone of each colour.
    pub zone: [Bb; 2],
    /// The same, as a per-square flag (cheaper than a bitboard test for one square).
    pub in_zone: [[bool; SQUARES]; 2],
    /// Squares where a piece of this colour and kind may be dropped or may stand
    /// unpromoted (not on its dead ranks), indexed by hand kind.
    pub alive: [[Bb; 7]; 2],
    /// Each file's squares.
    pub file: [Bb; 9],
    pub board_keys: [[u64; SQUARES]; 2 * Kind::COUNT],
    pub hand_keys: [[[u64; 19]; 7]; 2],
    pub side_key: u64,
    /// All 81 squares.
    pub all: Bb,
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
        let zone = zones::<Geo>();
        let alive = Color::BOTH.map(|color| {
            Kind::HAND
                .map(|kind| board_tables::alive::<Geo>(color, kind.rules().forced_promotion_ranks))
        });
        let mut keys = KeyStream::new(0x5348_4F47_4931);
        let mut board_keys = [[0; SQUARES]; 2 * Kind::COUNT];
        keys.fill(board_keys.as_flattened_mut());
        let mut hand_keys = [[[0; 19]; 7]; 2];
        keys.fill_hand_counts(hand_keys.as_flattened_mut().as_flattened_mut(), 19);
        Tables {
            step,
            slides,
            rays: Rays::new(),
            zone,
            in_zone: zone_flags::<Geo, SQUARES>(&zone),
            alive,
            file: std::array::from_fn(file_squares::<Geo>),
            board_keys,
            hand_keys,
            side_key: keys.next_key(),
            all: all_squares::<Geo>(),
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

    /// The compiled tables agree with walking each piece's atoms square by square.
    #[test]
    fn tables_agree_with_the_atoms() {
        let t = tables();
        board_tables::assert_attacks_follow_atoms::<Geo, Kind>(
            &Kind::ALL,
            |kind| kind.rules().atoms,
            |color, kind, from, occupied| t.attacks(Piece::new(color, kind), from, occupied),
            &[(5, 2, 7)],
        );
    }
}
