//! Bitboards: one bit per square, in the square numbering of `geometry`.
//!
//! [`Bitboard`] is the interface the rules are written against; [`Bb128`] (one `u128`, enough
//! for 81 squares) serves 9×9 games and [`Bb192`] (three `u64`, enough for 144) serves 12×12.
//! Bits above the board's last square are always zero: there is no unmasked `!`, only
//! [`Bitboard::and_not`].

use crate::rules::geometry::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// The operations every board-sized bit set provides.
pub trait Bitboard:
    Copy
    + Clone
    + Debug
    + Default
    + PartialEq
    + Eq
    + Hash
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + 'static
{
    const EMPTY: Self;
    fn from_square(sq: Square) -> Self;
    fn contains(self, sq: Square) -> bool;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// The lowest-numbered square, if any.
    fn lowest(self) -> Option<Square>;
    /// The highest-numbered square, if any.
    fn highest(self) -> Option<Square>;
    /// `self` without the squares of `other`.
    fn and_not(self, other: Self) -> Self;

    /// Removes and returns the lowest-numbered square, if any.
    #[inline]
    fn pop_lowest(&mut self) -> Option<Square> {
        let sq = self.lowest()?;
        *self = self.without(sq);
        Some(sq)
    }

    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    #[inline]
    fn more_than_one(self) -> bool {
        self.count() > 1
    }

    #[inline]
    fn with(self, sq: Square) -> Self {
        self | Self::from_square(sq)
    }

    #[inline]
    fn without(self, sq: Square) -> Self {
        self.and_not(Self::from_square(sq))
    }

    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates the squares of a bitboard from lowest to highest.
pub struct SquareIter<B>(B);

impl<B: Bitboard> Iterator for SquareIter<B> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lowest()
    }
}

/// A bitboard for boards of up to 128 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb128(pub u128);

impl Bitboard for Bb128 {
    const EMPTY: Self = Bb128(0);

    #[inline]
    fn from_square(sq: Square) -> Self {
        Bb128(1u128 << sq.0)
    }
    #[inline]
    fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.0) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    fn lowest(self) -> Option<Square> {
        (self.0 != 0).then(|| Square(self.0.trailing_zeros() as u8))
    }
    #[inline]
    fn highest(self) -> Option<Square> {
        (self.0 != 0).then(|| Square(127 - self.0.leading_zeros() as u8))
    }
    #[inline]
    fn and_not(self, other: Self) -> Self {
        Bb128(self.0 & !other.0)
    }
    #[inline]
    fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline]
    fn without(self, sq: Square) -> Self {
        Bb128(self.0 & !(1u128 << sq.0))
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        // Split into halves: u128's trailing_zeros compiles to a branchy sequence.
        let low = self.0 as u64;
        let sq = if low != 0 {
            low.trailing_zeros()
        } else {
            64 + ((self.0 >> 64) as u64).trailing_zeros()
        };
        self.0 &= self.0 - 1;
        Some(Square(sq as u8))
    }
}

/// A bitboard for boards of up to 192 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb192(pub [u64; 3]);

impl Bitboard for Bb192 {
    const EMPTY: Self = Bb192([0; 3]);

    #[inline]
    fn from_square(sq: Square) -> Self {
        let mut words = [0; 3];
        words[sq.index() / 64] = 1u64 << (sq.0 % 64);
        Bb192(words)
    }
    #[inline]
    fn contains(self, sq: Square) -> bool {
        (self.0[sq.index() / 64] >> (sq.0 % 64)) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<Square> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| Square((i * 64) as u8 + w.trailing_zeros() as u8))
    }
    #[inline]
    fn highest(self) -> Option<Square> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| Square((i * 64) as u8 + 63 - w.leading_zeros() as u8))
    }
    #[inline]
    fn and_not(self, other: Self) -> Self {
        Bb192([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
        ])
    }
}

macro_rules! bit_operators {
    ($ty:ident, $tr:ident, $method:ident, $assign_tr:ident, $assign_method:ident, $op:tt) => {
        impl $tr for $ty {
            type Output = $ty;
            #[inline]
            fn $method(self, rhs: $ty) -> $ty {
                let mut out = self;
                out $op rhs;
                out
            }
        }
        impl $assign_tr for $ty {
            #[inline]
            fn $assign_method(&mut self, rhs: $ty) {
                self.apply(rhs, |a, b| *a $op b);
            }
        }
    };
}

trait WordwiseApply {
    fn apply(&mut self, rhs: Self, f: impl Fn(&mut u128, u128));
}

impl WordwiseApply for Bb128 {
    #[inline]
    fn apply(&mut self, rhs: Self, f: impl Fn(&mut u128, u128)) {
        f(&mut self.0, rhs.0);
    }
}

impl WordwiseApply for Bb192 {
    #[inline]
    fn apply(&mut self, rhs: Self, f: impl Fn(&mut u128, u128)) {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            let mut wide = *a as u128;
            f(&mut wide, b as u128);
            *a = wide as u64;
        }
    }
}

bit_operators!(Bb128, BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bit_operators!(Bb128, BitOr, bitor, BitOrAssign, bitor_assign, |=);
bit_operators!(Bb128, BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);
bit_operators!(Bb192, BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bit_operators!(Bb192, BitOr, bitor, BitOrAssign, bitor_assign, |=);
bit_operators!(Bb192, BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bitboard>(last: u8) {
        let squares = [Square(0), Square(63), Square(64), Square(last)];
        let mut bb = B::EMPTY;
        for sq in squares {
            bb = bb.with(sq);
        }
        assert_eq!(bb.count(), 4);
        assert_eq!(bb.lowest(), Some(Square(0)));
        assert_eq!(bb.highest(), Some(Square(last)));
        assert_eq!(bb.squares().collect::<Vec<_>>(), squares.to_vec());
        assert!(bb.more_than_one());
        let single = B::from_square(Square(64));
        assert!(!single.more_than_one());
        assert_eq!((bb & single), single);
        assert_eq!(bb.and_not(single).count(), 3);
        assert_eq!(bb ^ single, bb.without(Square(64)));
        assert!(B::EMPTY.lowest().is_none() && B::EMPTY.highest().is_none());
    }

    #[test]
    fn both_widths_behave_alike() {
        exercise::<Bb128>(80);
        exercise::<Bb192>(143);
    }
}
