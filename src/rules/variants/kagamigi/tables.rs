//! Precomputed tables for Chu Kagamigi: per-piece step/leap attacks and slide lists
//! compiled from the Betza-built atoms, each piece's reach along the eight lines (for
//! attack detection from the target square), range-limited rays, zones, drop masks, file
//! masks and zobrist keys.
//!
//! Built once on first use and shared read-only by every position.

use super::{pieces, Geo, Kagamigi, Kind, Piece};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::board_tables::{add_step, shared_tables};
use crate::rules::dropshogi::drop_tables_from_fields;
use crate::rules::dropshogi::tables::BoardTables;
use crate::rules::geometry::{Color, DirectionIndex, Offset, Square, DIRECTIONS};
use crate::rules::piece::MoveAtom;
use crate::rules::rays::Rays;
use arrayvec::ArrayVec;

type Bb = Bb192;
const SQUARES: usize = 144;
/// A reach that covers the whole board (an unlimited slide).
pub const UNLIMITED: u8 = 12;
/// The largest hand count (all 24 pawns).
pub const MAX_HAND: usize = 24;

/// Every table the Chu Kagamigi rules consult.
pub struct Tables {
    /// Single steps and leaps per colour, kind and square.
    step: Vec<Bb>,
    /// Leaps of more than one square only (D, A, N), per colour, kind and square.
    leap: Vec<Bb>,
    /// Slides of two or more squares per colour and kind: direction and range.
    slides: [[ArrayVec<(DirectionIndex, u8), 8>; Kind::COUNT]; 2],
    /// How far each colour's kind reaches along each board direction (0 = not at all,
    /// 1 = a step, [`UNLIMITED`] = a slide).
    pub reach: [[[u8; 8]; Kind::COUNT]; 2],
    /// The kinds with leaps of more than one square.
    pub leapers: ArrayVec<Kind, { Kind::COUNT }>,
    /// `within[(max - 2) * 8 + dir][sq]`: the first `max` squares of the ray.
    within: Vec<[Bb; SQUARES]>,
    /// Chebyshev distance between two squares.
    distance: Vec<u8>,
    pub rays: Rays<Geo>,
    /// Zones, drop masks, files and zobrist keys (the board's in a vector: 46 kinds of 144
    /// squares would crowd the stack while the tables are built).
    pub board:
        BoardTables<Bb, Vec<[u64; SQUARES]>, SQUARES, 12, { Kind::HAND_COUNT }, { MAX_HAND + 1 }>,
}

shared_tables!();

#[inline]
fn slot(color: Color, kind: Kind, sq: Square) -> usize {
    (color.index() * Kind::COUNT + kind.index()) * SQUARES + sq.index()
}

/// The per-square entries of `color`'s `kind` in a table indexed by [`slot`].
fn squares_of(table: &mut [Bb], color: Color, kind: Kind) -> &mut [Bb] {
    &mut table[slot(color, kind, Square(0))..][..SQUARES]
}

impl Tables {
    fn build() -> Tables {
        let n = 2 * Kind::COUNT * SQUARES;
        let mut step = vec![Bb::EMPTY; n];
        let mut leap = vec![Bb::EMPTY; n];
        let mut slides: [[ArrayVec<(DirectionIndex, u8), 8>; Kind::COUNT]; 2] =
            std::array::from_fn(|_| std::array::from_fn(|_| ArrayVec::new()));
        let mut reach = [[[0u8; 8]; Kind::COUNT]; 2];
        let mut leapers = ArrayVec::new();
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let mut is_leaper = false;
                for atom in pieces()[kind.index()].atoms {
                    let offset = atom.offset(color);
                    let unit = DirectionIndex::of(offset);
                    let range = match atom {
                        MoveAtom::Step { .. } | MoveAtom::Leap { .. } => 1,
                        MoveAtom::Slide { .. } => UNLIMITED,
                        MoveAtom::RangeSlide { max, .. } => (*max).min(UNLIMITED),
                    };
                    match unit {
                        Some(dir) => {
                            let r = &mut reach[color.index()][kind.index()][dir.0 as usize];
                            *r = (*r).max(range);
                        }
                        None => {
                            assert!(
                                matches!(atom, MoveAtom::Leap { .. } | MoveAtom::Step { .. }),
                                "{kind:?}: only leaps may be non-unit"
                            );
                            is_leaper = true;
                            add_step::<Geo>(squares_of(&mut leap, color, kind), offset);
                            add_step::<Geo>(squares_of(&mut step, color, kind), offset);
                        }
                    }
                }
                for (d, offset) in DIRECTIONS.iter().enumerate() {
                    match reach[color.index()][kind.index()][d] {
                        0 => {}
                        1 => add_step::<Geo>(squares_of(&mut step, color, kind), *offset),
                        r => slides[color.index()][kind.index()].push((DirectionIndex(d as u8), r)),
                    }
                }
                if is_leaper && color == Color::Sente {
                    leapers.push(kind);
                }
            }
        }
        let rays = Rays::<Geo>::new();
        let mut within = Vec::new();
        for max in 2..=UNLIMITED {
            for offset in DIRECTIONS.iter() {
                let mut per_square = [Bb::EMPTY; SQUARES];
                for from in Square::all::<Geo>() {
                    let mut sq = from;
                    for _ in 0..max {
                        match sq.offset::<Geo>(*offset) {
                            Some(next) => {
                                per_square[from.index()] |= Bb::from_square(next);
                                sq = next;
                            }
                            None => break,
                        }
                    }
                }
                within.push(per_square);
            }
        }
        let mut distance = vec![0u8; SQUARES * SQUARES];
        for a in Square::all::<Geo>() {
            for b in Square::all::<Geo>() {
                let df = (a.file::<Geo>().0 as i8 - b.file::<Geo>().0 as i8).unsigned_abs();
                let dr = (a.rank::<Geo>().0 as i8 - b.rank::<Geo>().0 as i8).unsigned_abs();
                distance[a.index() * SQUARES + b.index()] = df.max(dr);
            }
        }
        Tables {
            step,
            leap,
            slides,
            reach,
            leapers,
            within,
            distance,
            rays,
            board: BoardTables::build::<Geo>(
                |slot| Kind::ALL[slot].rules().forced_promotion_ranks,
                0x4B41_4741_4D49,
                vec![[0u64; SQUARES]; 2 * Kind::COUNT],
            ),
        }
    }

    /// Steps and leaps of a piece of `color` and `kind` from `sq`.
    #[inline]
    pub fn step_attacks(&self, color: Color, kind: Kind, sq: Square) -> Bb {
        self.step[slot(color, kind, sq)]
    }

    /// Leaps of more than one square of a piece of `color` and `kind` from `sq`.
    #[inline]
    pub fn leap_attacks(&self, color: Color, kind: Kind, sq: Square) -> Bb {
        self.leap[slot(color, kind, sq)]
    }

    /// The Chebyshev distance between two squares.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> u8 {
        self.distance[a.index() * SQUARES + b.index()]
    }

    /// Everything a piece attacks from `sq` given the occupancy. Always inlined, so that the
    /// 24-byte result stays in registers instead of going through the stack.
    #[inline(always)]
    pub fn attacks(&self, piece: Piece, sq: Square, occupied: Bb) -> Bb {
        let (color, kind) = (piece.color(), piece.kind());
        let mut bb = self.step_attacks(color, kind, sq);
        for &(dir, max) in &self.slides[color.index()][kind.index()] {
            let slide = self.rays.slide(dir, sq, occupied);
            bb |= if max >= UNLIMITED {
                slide
            } else {
                slide & self.within[(max as usize - 2) * 8 + dir.0 as usize][sq.index()]
            };
        }
        bb
    }

    /// The square one step forward of `sq` for `color`, if on the board.
    #[inline]
    pub fn square_ahead(&self, color: Color, sq: Square) -> Option<Square> {
        sq.offset::<Geo>(Offset::for_owner(1, 0, color))
    }
}

drop_tables_from_fields!(Tables, Kagamigi);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dropshogi::tables::assert_member_attacks_follow_atoms;

    /// The compiled tables agree with walking each piece's atoms square by square.
    #[test]
    fn tables_agree_with_the_atoms() {
        assert_member_attacks_follow_atoms::<Kagamigi>(&[(5, 2, 7), (3, 1, 11), (13, 4, 17)]);
        let t = tables();
        let leapers: Vec<Kind> = t.leapers.to_vec();
        assert_eq!(
            leapers,
            vec![
                Kind::Knight,
                Kind::Phoenix,
                Kind::Kirin,
                Kind::SilverPashtun,
                Kind::GoldPashtun
            ]
        );
    }
}
