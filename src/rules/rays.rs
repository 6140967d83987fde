//! Line geometry for any board size: rays in the eight directions, the squares between two
//! aligned squares, the whole line through them, and slider attacks over an occupancy.
//!
//! Slider attacks use the classical ray method: the nearest blocker on a ray is its lowest
//! or highest set bit (depending on whether the direction increases the square index), and
//! everything past it is cut off with that blocker's own ray.

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{DirectionIndex, Geometry, Square, DIRECTIONS};
use std::marker::PhantomData;

/// Precomputed line tables for geometry `G`.
pub struct Rays<G: Geometry> {
    ray: Vec<G::Bb>,
    between: Vec<G::Bb>,
    line: Vec<G::Bb>,
    _geometry: PhantomData<G>,
}

impl<G: Geometry> Rays<G> {
    pub fn new() -> Self {
        let n = G::SQUARES;
        let mut ray = vec![G::Bb::EMPTY; 8 * n];
        for (d, offset) in DIRECTIONS.iter().enumerate() {
            for from in Square::all::<G>() {
                let mut bb = G::Bb::EMPTY;
                let mut sq = from;
                while let Some(next) = sq.offset::<G>(*offset) {
                    bb = bb.with(next);
                    sq = next;
                }
                ray[d * n + from.index()] = bb;
            }
        }
        let mut between = vec![G::Bb::EMPTY; n * n];
        let mut line = vec![G::Bb::EMPTY; n * n];
        for a in Square::all::<G>() {
            for d in 0..8 {
                let opposite = d ^ 1;
                for b in ray[d * n + a.index()].squares() {
                    between[a.index() * n + b.index()] =
                        ray[d * n + a.index()] & ray[opposite * n + b.index()];
                    line[a.index() * n + b.index()] = ray[d * n + a.index()]
                        | ray[opposite * n + a.index()]
                        | G::Bb::from_square(a);
                }
            }
        }
        Rays {
            ray,
            between,
            line,
            _geometry: PhantomData,
        }
    }

    /// Every square from `from` (exclusive) to the edge in direction `dir`.
    #[inline]
    pub fn ray(&self, dir: DirectionIndex, from: Square) -> G::Bb {
        self.ray[dir.0 as usize * G::SQUARES + from.index()]
    }

    /// The squares strictly between `a` and `b` if they share a line, else empty.
    #[inline]
    pub fn between(&self, a: Square, b: Square) -> G::Bb {
        self.between[a.index() * G::SQUARES + b.index()]
    }

    /// The whole board line through `a` and `b` if they share one, else empty.
    #[inline]
    pub fn line(&self, a: Square, b: Square) -> G::Bb {
        self.line[a.index() * G::SQUARES + b.index()]
    }

    /// What sliders on `from` reach along each of `dirs`, together.
    #[inline(always)]
    pub fn slides(&self, dirs: &[DirectionIndex], from: Square, occupied: G::Bb) -> G::Bb {
        let mut bb = G::Bb::EMPTY;
        for &dir in dirs {
            bb |= self.slide(dir, from, occupied);
        }
        bb
    }

    /// What a slider on `from` reaches in direction `dir`, up to and including the first
    /// occupied square.
    #[inline]
    pub fn slide(&self, dir: DirectionIndex, from: Square, occupied: G::Bb) -> G::Bb {
        let ray = self.ray(dir, from);
        let blockers = ray & occupied;
        // Along a direction that increases the square index the nearest blocker is the
        // lowest set bit; computed, not looked up, so constant directions fold away.
        let nearest = if DIRECTIONS[dir.0 as usize].index_delta::<G>() > 0 {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        match nearest {
            Some(blocker) => ray ^ self.ray(dir, blocker),
            None => ray,
        }
    }
}

impl<G: Geometry> Default for Rays<G> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Board12x12, Board9x9};

    fn sq<G: Geometry>(text: &str) -> Square {
        Square::from_usi::<G>(text).unwrap()
    }

    fn check_slides_match_walking<G: Geometry>() {
        let rays = Rays::<G>::new();
        // A fixed scattering of blockers.
        let mut occupied = G::Bb::EMPTY;
        for s in Square::all::<G>().filter(|s| s.0 % 7 == 3 || s.0 % 11 == 5) {
            occupied = occupied.with(s);
        }
        for from in Square::all::<G>() {
            for d in 0..8u8 {
                let dir = DirectionIndex(d);
                let mut expected = G::Bb::EMPTY;
                let mut cur = from;
                while let Some(next) = cur.offset::<G>(dir.offset()) {
                    expected = expected.with(next);
                    if occupied.contains(next) {
                        break;
                    }
                    cur = next;
                }
                assert_eq!(rays.slide(dir, from, occupied), expected);
            }
        }
    }

    #[test]
    fn slides_agree_with_square_by_square_walk() {
        check_slides_match_walking::<Board9x9>();
        check_slides_match_walking::<Board12x12>();
    }

    #[test]
    fn between_and_line() {
        let rays = Rays::<Board9x9>::new();
        let between = rays.between(sq::<Board9x9>("1a"), sq::<Board9x9>("4d"));
        let expected: Vec<_> = ["2b", "3c"].iter().map(|s| sq::<Board9x9>(s)).collect();
        assert_eq!(between.squares().collect::<Vec<_>>(), expected);
        assert!(rays
            .between(sq::<Board9x9>("1a"), sq::<Board9x9>("2c"))
            .is_empty());
        assert_eq!(
            rays.line(sq::<Board9x9>("5e"), sq::<Board9x9>("5a"))
                .count(),
            9
        );
    }
}
