//! Pieces as data: the move atoms a piece kind is built from, and the per-kind rule record
//! (atoms, promotion, droppability) that every variant's piece table is made of.
//!
//! Atoms are owner-relative (`forward`, `left`), so one table serves both colours; the
//! geometry turns them into board-absolute offsets. Fast generators compile these atoms into
//! attack tables once; simple reference generators walk them directly with
//! [`MoveAtom::targets`].

use crate::rules::geometry::{Color, Geometry, Offset, Square};

/// One component of a piece's movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveAtom {
    /// One step to an adjacent square.
    Step { forward: i8, left: i8 },
    /// A jump to the given displacement, ignoring what stands between.
    Leap { forward: i8, left: i8 },
    /// Any number of unit steps in a direction, stopping at the first occupied square.
    Slide { forward: i8, left: i8 },
    /// Like `Slide`, but at most `max` steps.
    RangeSlide { forward: i8, left: i8, max: u8 },
}

impl MoveAtom {
    /// The owner-relative unit (or leap) displacement of this atom.
    pub fn relative(self) -> (i8, i8) {
        match self {
            MoveAtom::Step { forward, left }
            | MoveAtom::Leap { forward, left }
            | MoveAtom::Slide { forward, left }
            | MoveAtom::RangeSlide { forward, left, .. } => (forward, left),
        }
    }

    /// The board-absolute displacement of one step of this atom for `owner`.
    pub fn offset(self, owner: Color) -> Offset {
        let (forward, left) = self.relative();
        Offset::for_owner(forward, left, owner)
    }

    /// How many steps of `offset` this atom may take (slides: unlimited).
    pub fn max_steps(self) -> u8 {
        match self {
            MoveAtom::Step { .. } | MoveAtom::Leap { .. } => 1,
            MoveAtom::Slide { .. } => u8::MAX,
            MoveAtom::RangeSlide { max, .. } => max,
        }
    }

    /// Squares this atom reaches from `from` for `owner`, given which squares are occupied.
    /// Occupied squares are included (they may hold a capture); the caller filters own pieces.
    pub fn targets<G: Geometry>(
        self,
        from: Square,
        owner: Color,
        occupied: impl Fn(Square) -> bool,
    ) -> Vec<Square> {
        let offset = self.offset(owner);
        let mut out = Vec::new();
        let mut sq = from;
        for _ in 0..self.max_steps() {
            match sq.offset::<G>(offset) {
                Some(next) => {
                    out.push(next);
                    if occupied(next) {
                        break;
                    }
                    sq = next;
                }
                None => break,
            }
        }
        out
    }
}

/// A variant-independent index of a piece kind inside its variant's piece table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KindId(pub u8);

/// Everything the rules need to know about one piece kind.
#[derive(Clone, Copy, Debug)]
pub struct PieceRules {
    pub name: &'static str,
    /// The SFEN letter of the unpromoted form (uppercase); promoted forms print as `+` and it.
    pub letter: char,
    pub atoms: &'static [MoveAtom],
    /// The kind this one promotes to, if any.
    pub promotes_to: Option<KindId>,
    /// The kind a captured piece of this kind turns into in hand, if it may be held.
    pub demotes_to: Option<KindId>,
    pub is_promoted: bool,
    pub is_royal: bool,
    /// May be dropped from hand (in a variant with drops).
    pub droppable: bool,
    /// For pieces that could never move again: how many ranks from the far edge they must
    /// promote on (1 = last rank, 2 = last two ranks); 0 if never forced.
    pub forced_promotion_ranks: u8,
}
