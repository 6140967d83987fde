//! The table-building code every game's precomputed tables share, written once and generic
//! over the geometry: a move atom's steps from every square, the per-square masks (all
//! squares, files, promotion zones, the squares at some distance from a colour's far edge)
//! and, for tests, the attacks found by walking a piece's atoms square by square. Each game's
//! `tables` module decides how it stores the results; only its build code calls these. Also
//! the `tables()` function through which each game shares its tables (`shared_tables!`).

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, File, Geometry, Offset, Square};
#[cfg(test)]
use crate::rules::piece::MoveAtom;

/// Declares a game's `tables()`: its `Tables`, built by `Tables::build` on the first call and
/// shared read-only from then on (positions keep the `&'static Tables`, so the hot loop never
/// touches the lazy-initialisation guard).
macro_rules! shared_tables {
    () => {
        /// The shared tables (built on first call).
        pub fn tables() -> &'static Tables {
            static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
            TABLES.get_or_init(Tables::build)
        }
    };
}

pub(crate) use shared_tables;

/// Adds to `per_square[from]`, for every square `from`, the square `offset` away if it is on
/// the board: one step or leap of an atom from everywhere.
pub fn add_step<G: Geometry>(per_square: &mut [G::Bb], offset: Offset) {
    for from in Square::all::<G>() {
        if let Some(to) = from.offset::<G>(offset) {
            per_square[from.index()] |= G::Bb::from_square(to);
        }
    }
}

/// The squares whose distance from `color`'s far edge (0 on its last rank) satisfies `keep`.
pub fn by_distance_from_far_edge<G: Geometry>(color: Color, keep: impl Fn(u8) -> bool) -> G::Bb {
    let mut bb = G::Bb::EMPTY;
    for sq in Square::all::<G>() {
        if keep(sq.rank::<G>().distance_from_far_edge::<G>(color)) {
            bb |= G::Bb::from_square(sq);
        }
    }
    bb
}

/// Every square of the board.
pub fn all_squares<G: Geometry>() -> G::Bb {
    by_distance_from_far_edge::<G>(Color::Sente, |_| true)
}

/// Each colour's promotion zone (its `ZONE_DEPTH` farthest ranks).
pub fn zones<G: Geometry>() -> [G::Bb; 2] {
    Color::BOTH.map(|color| by_distance_from_far_edge::<G>(color, |d| d < G::ZONE_DEPTH))
}

/// The zones as one flag per colour and square (cheaper than a bitboard test for one square).
pub fn zone_flags<G: Geometry, const SQUARES: usize>(zones: &[G::Bb; 2]) -> [[bool; SQUARES]; 2] {
    zones.map(|zone| std::array::from_fn(|i| zone.contains(Square(i as u8))))
}

/// Where a piece of `color` that must promote on its last `forced_ranks` ranks may be dropped
/// or stand unpromoted.
pub fn alive<G: Geometry>(color: Color, forced_ranks: u8) -> G::Bb {
    by_distance_from_far_edge::<G>(color, |d| d >= forced_ranks)
}

/// The squares of file `file` (0 is USI file 1).
pub fn file_squares<G: Geometry>(file: usize) -> G::Bb {
    let mut bb = G::Bb::EMPTY;
    for sq in Square::all::<G>().filter(|sq| sq.file::<G>() == File(file as u8)) {
        bb |= G::Bb::from_square(sq);
    }
    bb
}

/// Checks a game's compiled `attacks` against walking the atoms of each kind square by
/// square, for both colours, every square and each of a few occupancy patterns.
#[cfg(test)]
pub fn assert_attacks_follow_atoms<G: Geometry, K: Copy + std::fmt::Debug>(
    kinds: &[K],
    atoms: impl Fn(K) -> &'static [MoveAtom],
    attacks: impl Fn(Color, K, Square, G::Bb) -> G::Bb,
    patterns: &[(u8, u8, u8)],
) {
    for &(modulus, remainder, every) in patterns {
        let mut occupied = G::Bb::EMPTY;
        for sq in Square::all::<G>().filter(|s| s.0 % modulus == remainder || s.0 % every == 0) {
            occupied |= G::Bb::from_square(sq);
        }
        for color in Color::BOTH {
            for &kind in kinds {
                for from in Square::all::<G>() {
                    let mut walked = G::Bb::EMPTY;
                    for atom in atoms(kind) {
                        for to in atom.targets::<G>(from, color, |s| occupied.contains(s)) {
                            walked |= G::Bb::from_square(to);
                        }
                    }
                    let compiled = attacks(color, kind, from, occupied);
                    assert_eq!(compiled, walked, "{color:?} {kind:?} {from:?}");
                }
            }
        }
    }
}
