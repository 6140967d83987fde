//! The `Move` value: one action of any game, packed into 32 bits.
//!
//! Layout: bits 0–7 destination square, bits 8–15 origin square (or the dropped kind's
//! [`KindId`] for a drop), bit 16 promote, bit 17 drop, bit 31 always set so that
//! `Option<Move>` costs nothing extra. Multi-step moves (Chu Shogi's Lion, Horned Falcon and
//! Soaring Eagle) set bit 18 and keep their middle square in bits 19–26. Bit 27 marks a
//! chance outcome (its variant-defined code in bits 0–15, e.g. Shogammon's roll `r:61` is
//! code 61) and bit 28 the decision `pass`; bits 29–30 are free.

use crate::rules::geometry::Square;
use crate::rules::piece::KindId;
use arrayvec::ArrayVec;
use std::num::NonZeroU32;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU32);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 4);

const VALID: u32 = 1 << 31;
const PROMOTE: u32 = 1 << 16;
const DROP: u32 = 1 << 17;
const HAS_MID: u32 = 1 << 18;
const MID_SHIFT: u32 = 19;
const CHANCE: u32 = 1 << 27;
const PASS: u32 = 1 << 28;

/// The most actions any position of any variant can offer (shogi's record is 593; Chu
/// Kagamigi with every piece in one hand drops 24 kinds on up to 142 squares, about 3,400).
pub const MAX_MOVES: usize = 4096;

/// A move list that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Move {
    #[inline]
    fn from_bits(bits: u32) -> Move {
        // VALID is always set, so the value is never zero.
        Move(NonZeroU32::new(bits | VALID).expect("VALID bit set"))
    }

    /// A board move from `from` to `to`, promoting if `promote`.
    #[inline]
    pub fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move::from_bits(to.0 as u32 | (from.0 as u32) << 8 | if promote { PROMOTE } else { 0 })
    }

    /// A two-step move from `from` through `mid` to `to` (Chu Shogi's lion power). `to` may
    /// equal `from` (igui, or jitto when `mid` is empty).
    #[inline]
    pub fn multi(from: Square, mid: Square, to: Square) -> Move {
        Move::from_bits(to.0 as u32 | (from.0 as u32) << 8 | HAS_MID | (mid.0 as u32) << MID_SHIFT)
    }

    /// The middle square of a two-step move.
    #[inline]
    pub fn mid(self) -> Option<Square> {
        (self.0.get() & HAS_MID != 0).then(|| Square((self.0.get() >> MID_SHIFT) as u8))
    }

    /// A chance outcome with a variant-defined `code` (Shogammon: `10 * high die + low die`).
    #[inline]
    pub fn chance(code: u16) -> Move {
        Move::from_bits(code as u32 | CHANCE)
    }

    /// The code of a chance outcome; `None` for any other action.
    #[inline]
    pub fn chance_code(self) -> Option<u16> {
        (self.0.get() & CHANCE != 0).then(|| self.0.get() as u16)
    }

    /// The decision `pass` (Shogammon: the die that cannot be used is lost).
    #[inline]
    pub fn pass() -> Move {
        Move::from_bits(PASS)
    }

    #[inline]
    pub fn is_pass(self) -> bool {
        self.0.get() & PASS != 0
    }

    /// A drop of a piece of `kind` from hand onto `to`.
    #[inline]
    pub fn drop(kind: KindId, to: Square) -> Move {
        Move::from_bits(to.0 as u32 | (kind.0 as u32) << 8 | DROP)
    }

    #[inline]
    pub fn to(self) -> Square {
        Square(self.0.get() as u8)
    }

    /// The origin square of a board move; `None` for a drop.
    #[inline]
    pub fn from(self) -> Option<Square> {
        (!self.is_drop()).then(|| Square((self.0.get() >> 8) as u8))
    }

    /// The kind dropped, for a drop.
    #[inline]
    pub fn dropped_kind(self) -> Option<KindId> {
        self.is_drop().then(|| KindId((self.0.get() >> 8) as u8))
    }

    #[inline]
    pub fn is_drop(self) -> bool {
        self.0.get() & DROP != 0
    }

    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE != 0
    }

    /// The raw packed value (for hashing into tables and compact storage).
    #[inline]
    pub fn bits(self) -> u32 {
        self.0.get()
    }

    /// The move whose [`Move::bits`] are `bits`; `None` for a value no move has (0, or any
    /// value without bit 31).
    #[inline]
    pub fn from_raw(bits: u32) -> Option<Move> {
        (bits & VALID != 0).then(|| Move::from_bits(bits))
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(code) = self.chance_code() {
            return write!(f, "Move(chance {code})");
        }
        if self.is_pass() {
            return write!(f, "Move(pass)");
        }
        match self.dropped_kind() {
            Some(kind) => write!(f, "Move(drop kind {} to {})", kind.0, self.to().0),
            None => match self.mid() {
                Some(mid) => write!(
                    f,
                    "Move({} -> {} -> {})",
                    self.from().map_or(0, |s| s.0),
                    mid.0,
                    self.to().0
                ),
                None => write!(
                    f,
                    "Move({} -> {}{})",
                    self.from().map_or(0, |s| s.0),
                    self.to().0,
                    if self.is_promotion() { " +" } else { "" }
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::normal(Square(80), Square(3), true);
        assert_eq!(m.from(), Some(Square(80)));
        assert_eq!(m.to(), Square(3));
        assert!(m.is_promotion() && !m.is_drop());
        let d = Move::drop(KindId(6), Square(143));
        assert_eq!(d.dropped_kind(), Some(KindId(6)));
        assert_eq!(d.from(), None);
        assert_eq!(d.to(), Square(143));
        assert!(!d.is_promotion());
        assert_ne!(Move::normal(Square(0), Square(0), false), d);
        assert_eq!(m.mid(), None);
        let lion = Move::multi(Square(143), Square(130), Square(143));
        assert_eq!(
            (lion.from(), lion.mid(), lion.to()),
            (Some(Square(143)), Some(Square(130)), Square(143))
        );
        assert!(!lion.is_promotion() && !lion.is_drop());
        assert_ne!(lion, Move::normal(Square(143), Square(143), false));
        assert_ne!(lion, Move::multi(Square(143), Square(131), Square(143)));
        let roll = Move::chance(61);
        assert_eq!(roll.chance_code(), Some(61));
        assert!(!roll.is_pass() && !roll.is_drop() && m.chance_code().is_none());
        assert!(Move::pass().is_pass() && Move::pass().chance_code().is_none());
        assert_ne!(Move::pass(), Move::normal(Square(0), Square(0), false));
        for mv in [m, d, lion, roll, Move::pass()] {
            assert_eq!(Move::from_raw(mv.bits()), Some(mv));
        }
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(Move::from_raw(m.bits() & !VALID), None);
    }
}
