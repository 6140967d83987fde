//! A coloured piece of any member of the family in one non-zero byte (`1 + kind + 64 ×
//! colour`, so `Option<ColoredPiece<K>>` is one byte too), for members that need no piece
//! type of their own. Up to 63 kinds.

use super::{DropKind, DropPiece};
use crate::rules::geometry::Color;
use std::marker::PhantomData;
use std::num::NonZeroU8;

/// A piece of kind `K` and a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColoredPiece<K>(NonZeroU8, PhantomData<K>);

impl<K: DropKind> DropPiece for ColoredPiece<K> {
    type Kind = K;

    #[inline]
    fn new(color: Color, kind: K) -> Self {
        debug_assert!(kind.index() < 63 && K::KINDS.len() < 64);
        let byte = 1 + kind.index() as u8 + 64 * color as u8;
        ColoredPiece(NonZeroU8::new(byte).expect("never zero"), PhantomData)
    }

    #[inline]
    fn kind(self) -> K {
        K::KINDS[(self.0.get() & 63) as usize - 1]
    }

    #[inline]
    fn color(self) -> Color {
        if self.0.get() > 64 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    #[inline]
    fn index(self) -> usize {
        self.color().index() * K::KINDS.len() + self.kind().index()
    }
}

impl<K: DropKind> std::fmt::Debug for ColoredPiece<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {:?}", self.color(), self.kind())
    }
}
