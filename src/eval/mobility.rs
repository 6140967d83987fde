//! Piece values measured from how far pieces reach, for the variants without established
//! values (Chu Kagamigi) and as a cross-check for Chu Shogi.
//!
//! A piece's *mobility* is the average number of squares it attacks from every square of the
//! board, with the other squares occupied at random with a given density (blocked sliders
//! stop at the first occupied square, which they attack). Value then follows a power law,
//! `value = 100 × (mobility / pawn mobility)^exponent`, whose exponent is fitted on standard
//! shogi, where the values are well known ([`fit_exponent`]); the fitted exponent carries over
//! to the other variants.

use crate::rules::geometry::{Board9x9, Color, Geometry, Square};
use crate::rules::piece::PieceRules;
use crate::rules::variants::shogi::Kind as ShogiKind;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// How many random boards mobility is averaged over.
const SAMPLES: usize = 16;

/// The average number of squares `piece` attacks on `G`'s board from each square, with the
/// other squares occupied with probability `density` (the same boards for every piece).
pub fn mobility<G: Geometry>(piece: &PieceRules, density: f64) -> f64 {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    let mut total = 0usize;
    let mut count = 0usize;
    for _ in 0..SAMPLES {
        let occupied: Vec<bool> = (0..G::SQUARES).map(|_| rng.gen_bool(density)).collect();
        for from in Square::all::<G>() {
            let mut reached = vec![false; G::SQUARES];
            for atom in piece.atoms {
                for sq in atom.targets::<G>(from, Color::Sente, |s| occupied[s.index()]) {
                    reached[sq.index()] = true;
                }
            }
            total += reached.iter().filter(|&&r| r).count();
            count += 1;
        }
    }
    total as f64 / count as f64
}

/// The value of a piece of mobility `m` when a pawn's mobility is `pawn`.
pub fn value_of(m: f64, pawn: f64, exponent: f64) -> i32 {
    (100.0 * (m / pawn).powf(exponent)).round() as i32
}

/// The exponent (searched in steps of 0.01) that best fits `known` values, as the smallest
/// sum of squared log ratios between predicted and known values. `known` pairs a mobility
/// with its accepted value; `pawn` is the pawn's mobility.
pub fn fit_exponent(known: &[(f64, i32)], pawn: f64) -> f64 {
    let error = |e: f64| -> f64 {
        known
            .iter()
            .map(|&(m, v)| {
                let predicted = value_of(m, pawn, e).max(1) as f64;
                (predicted / v as f64).ln().powi(2)
            })
            .sum()
    };
    let mut best = (f64::INFINITY, 1.0);
    for step in 10..=200 {
        let e = step as f64 / 100.0;
        let err = error(e);
        if err < best.0 {
            best = (err, e);
        }
    }
    best.1
}

/// The board density at which mobility is measured: about a third of the squares occupied,
/// as in a middle game.
pub const DENSITY: f64 = 0.35;

/// Standard shogi's accepted values, silver to dragon in increasing order: what the
/// exponent is fitted on.
const SHOGI_VALUES: [(ShogiKind, i32); 6] = [
    (ShogiKind::Silver, 530),
    (ShogiKind::Gold, 580),
    (ShogiKind::Bishop, 800),
    (ShogiKind::Rook, 950),
    (ShogiKind::Horse, 1050),
    (ShogiKind::Dragon, 1250),
];

/// The exponent fitted on standard shogi's accepted values ([`SHOGI_VALUES`]) at [`DENSITY`].
pub fn shogi_exponent() -> f64 {
    let pawn = mobility::<Board9x9>(ShogiKind::Pawn.rules(), DENSITY);
    let known: Vec<(f64, i32)> = SHOGI_VALUES
        .iter()
        .map(|&(k, v)| (mobility::<Board9x9>(k.rules(), DENSITY), v))
        .collect();
    fit_exponent(&known, pawn)
}

/// Values for every piece of a variant on `G`'s board, measured at [`DENSITY`] with the
/// shogi-fitted exponent; `pieces[0]` must be the pawn (value 100).
pub fn measured_values<G: Geometry>(pieces: &[&PieceRules]) -> Vec<i32> {
    let exponent = shogi_exponent();
    let pawn = mobility::<G>(pieces[0], DENSITY);
    pieces
        .iter()
        .map(|p| value_of(mobility::<G>(p, DENSITY), pawn, exponent))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Kind;

    #[test]
    fn sliders_reach_further_on_emptier_boards_and_steppers_do_not_care() {
        let rook = Kind::Rook.rules();
        let gold = Kind::Gold.rules();
        assert!(mobility::<Board9x9>(rook, 0.2) > mobility::<Board9x9>(rook, 0.6));
        let g1 = mobility::<Board9x9>(gold, 0.2);
        let g2 = mobility::<Board9x9>(gold, 0.6);
        assert!((g1 - g2).abs() < 1e-9);
        // A gold in the middle reaches 6 squares, fewer on the edges.
        assert!(g1 > 4.0 && g1 < 6.0, "{g1}");
    }

    #[test]
    fn the_fitted_exponent_reproduces_shogi_values_in_order() {
        let density = 0.35;
        let pawn = mobility::<Board9x9>(Kind::Pawn.rules(), density);
        let known: Vec<(f64, i32)> = SHOGI_VALUES
            .iter()
            .map(|&(k, v)| (mobility::<Board9x9>(k.rules(), density), v))
            .collect();
        let e = fit_exponent(&known, pawn);
        assert!(e > 0.3 && e < 1.5, "exponent {e}");
        let predicted: Vec<i32> = known.iter().map(|&(m, _)| value_of(m, pawn, e)).collect();
        // Silver < Gold < Bishop < Rook < Horse < Dragon.
        for w in predicted.windows(2) {
            assert!(w[0] <= w[1], "{predicted:?}");
        }
    }
}
