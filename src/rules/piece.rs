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

impl PieceRules {
    /// The record of an unpromoted, non-royal kind that never promotes, is never held in hand
    /// and is never forced to promote; the methods below add what a kind has beyond that.
    pub const fn new(name: &'static str, letter: char, atoms: &'static [MoveAtom]) -> PieceRules {
        PieceRules {
            name,
            letter,
            atoms,
            promotes_to: None,
            demotes_to: None,
            is_promoted: false,
            is_royal: false,
            droppable: false,
            forced_promotion_ranks: 0,
        }
    }

    /// Promotes to `kind`.
    pub const fn promoting_to(self, kind: KindId) -> PieceRules {
        PieceRules {
            promotes_to: Some(kind),
            ..self
        }
    }

    /// Is a promoted form.
    pub const fn promoted(self) -> PieceRules {
        PieceRules {
            is_promoted: true,
            ..self
        }
    }

    /// Is royal.
    pub const fn royal(self) -> PieceRules {
        PieceRules {
            is_royal: true,
            ..self
        }
    }

    /// Goes to hand as `kind` when captured; `droppable` if it is that kind itself.
    pub const fn held_as(self, kind: KindId, droppable: bool) -> PieceRules {
        PieceRules {
            demotes_to: Some(kind),
            droppable,
            ..self
        }
    }

    /// A drop game's kind that promotes to `to` and goes to hand as itself (`kind`).
    pub const fn promoting_in_hand(
        name: &'static str,
        letter: char,
        atoms: &'static [MoveAtom],
        kind: KindId,
        to: KindId,
    ) -> PieceRules {
        PieceRules::new(name, letter, atoms)
            .promoting_to(to)
            .held_as(kind, true)
    }

    /// A drop game's promoted kind, which goes to hand as `base` when captured.
    pub const fn promoted_from(
        name: &'static str,
        letter: char,
        atoms: &'static [MoveAtom],
        base: KindId,
    ) -> PieceRules {
        PieceRules::new(name, letter, atoms)
            .promoted()
            .held_as(base, false)
    }

    /// Must promote on its last `ranks` ranks.
    pub const fn forced_on_last(self, ranks: u8) -> PieceRules {
        PieceRules {
            forced_promotion_ranks: ranks,
            ..self
        }
    }
}

/// The move atoms several games' pieces are made of, written once: owner-relative
/// constructors and the king, gold, silver, rook and bishop movements shogi and Chu Shogi
/// share (each in the order the tables were always built in).
pub mod atoms {
    use super::MoveAtom;

    pub const fn step(forward: i8, left: i8) -> MoveAtom {
        Reach::Step.toward(forward, left)
    }
    pub const fn leap(forward: i8, left: i8) -> MoveAtom {
        Reach::Leap.toward(forward, left)
    }
    pub const fn slide(forward: i8, left: i8) -> MoveAtom {
        Reach::Slide.toward(forward, left)
    }

    /// How an atom reaches along its direction.
    #[derive(Clone, Copy)]
    pub enum Reach {
        Step,
        Leap,
        Slide,
    }

    impl Reach {
        /// The atom of this reach toward `(forward, left)`.
        pub const fn toward(self, forward: i8, left: i8) -> MoveAtom {
            match self {
                Reach::Step => MoveAtom::Step { forward, left },
                Reach::Leap => MoveAtom::Leap { forward, left },
                Reach::Slide => MoveAtom::Slide { forward, left },
            }
        }

        /// One atom of this reach per `(forward, left)` direction, in order.
        pub const fn each<const N: usize>(self, directions: [(i8, i8); N]) -> [MoveAtom; N] {
            let mut out = [self.toward(0, 0); N];
            let mut i = 0;
            while i < N {
                out[i] = self.toward(directions[i].0, directions[i].1);
                i += 1;
            }
            out
        }
    }

    /// Forward, backward, left, right.
    pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    /// Forward-left, forward-right, backward-left, backward-right.
    pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    /// `first` followed by `then`, as one array of `N` atoms (`N` must be their total).
    pub const fn joined<const A: usize, const B: usize, const N: usize>(
        first: [MoveAtom; A],
        then: [MoveAtom; B],
    ) -> [MoveAtom; N] {
        assert!(A + B == N);
        let mut out = [step(0, 0); N];
        let mut i = 0;
        while i < N {
            out[i] = if i < A { first[i] } else { then[i - A] };
            i += 1;
        }
        out
    }

    pub const KING: [MoveAtom; 8] =
        joined(Reach::Step.each(ORTHOGONAL), Reach::Step.each(DIAGONAL));
    pub const GOLD: [MoveAtom; 6] =
        Reach::Step.each([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1)]);
    pub const SILVER: [MoveAtom; 5] =
        Reach::Step.each([(1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]);
    pub const ROOK: [MoveAtom; 4] = Reach::Slide.each(ORTHOGONAL);
    pub const BISHOP: [MoveAtom; 4] = Reach::Slide.each(DIAGONAL);
    /// Bishop slides and orthogonal steps (shogi's horse, Chu's dragon horse).
    pub const HORSE: [MoveAtom; 8] = joined(BISHOP, Reach::Step.each(ORTHOGONAL));
    /// Rook slides and diagonal steps (shogi's dragon, Chu's dragon king).
    pub const DRAGON: [MoveAtom; 8] = joined(ROOK, Reach::Step.each(DIAGONAL));
}

/// Declares a game's piece-kind enum, `#[repr(u8)]` with its kinds in index order, and the
/// `COUNT`, `ALL`, `index`, `id` and `from_index` every game's kinds have. With `promotion:
/// below P, offset O` the kinds below index `P` promote to the kind `O` further on and the
/// kinds from `O` on are promoted (`PROMOTION_OFFSET`, `can_promote`, `is_promoted`,
/// `promoted`, and a test that the game's `rules()` records agree); with `in_hand_except:
/// King` too, a captured piece goes to hand as its base kind, the royal `King` never
/// (`in_hand`, and a test that `rules()` agrees).
macro_rules! piece_kinds {
    (
        $(#[$meta:meta])* $vis:vis enum $kind:ident { $($name:ident),+ $(,)? }
        $(promotion: below $promoting:expr, offset $offset:expr;)?
        $(in_hand_except: $royal:ident;)?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        $vis enum $kind {
            $($name),+
        }

        impl $kind {
            pub const COUNT: usize = [$($kind::$name),+].len();
            pub const ALL: [$kind; $kind::COUNT] = [$($kind::$name),+];

            #[inline]
            pub fn from_index(index: u8) -> Option<$kind> {
                $kind::ALL.get(index as usize).copied()
            }

            #[inline]
            pub fn index(self) -> usize {
                self as usize
            }

            #[inline]
            pub const fn id(self) -> $crate::rules::piece::KindId {
                $crate::rules::piece::KindId(self as u8)
            }
        }

        $(
            impl $kind {
                /// How far a promoted kind stands after its base kind.
                pub const PROMOTION_OFFSET: u8 = $offset;

                #[inline]
                pub fn can_promote(self) -> bool {
                    (self as u8) < $promoting
                }

                #[inline]
                pub fn is_promoted(self) -> bool {
                    (self as u8) >= $kind::PROMOTION_OFFSET
                }

                /// The promoted form; only meaningful when `can_promote`.
                #[inline]
                pub fn promoted(self) -> $kind {
                    debug_assert!(self.can_promote());
                    $kind::ALL[self.index() + $kind::PROMOTION_OFFSET as usize]
                }
            }

            /// The game's rule records (its `rules()`) agree with the promotion layout.
            #[cfg(test)]
            mod piece_kinds_promotion_tests {
                use super::$kind;

                #[test]
                fn rule_records_follow_the_promotion_layout() {
                    for (i, kind) in $kind::ALL.into_iter().enumerate() {
                        assert_eq!(kind.index(), i);
                        let rules = kind.rules();
                        let promotes_to = kind.can_promote().then(|| kind.promoted().id());
                        assert_eq!(rules.promotes_to, promotes_to, "{kind:?}");
                        assert_eq!(rules.is_promoted, kind.is_promoted(), "{kind:?}");
                        if kind.can_promote() {
                            let up = kind.promoted();
                            assert!(up.is_promoted() && !up.can_promote(), "{kind:?}");
                            assert_eq!(up.rules().letter, rules.letter, "{kind:?}");
                        }
                    }
                }
            }
        )?

        $(
            impl $kind {
                /// The kind a captured piece of this kind becomes in hand (`None` for the
                /// royal kind).
                #[inline]
                pub fn in_hand(self) -> Option<$kind> {
                    match self {
                        $kind::$royal => None,
                        k if k.is_promoted() => {
                            Some($kind::ALL[k.index() - $kind::PROMOTION_OFFSET as usize])
                        }
                        k => Some(k),
                    }
                }
            }

            /// The game's rule records send every captured piece to hand as `in_hand` says.
            #[cfg(test)]
            mod piece_kinds_in_hand_tests {
                use super::$kind;

                #[test]
                fn rule_records_hold_captured_pieces_as_their_base_kind() {
                    for kind in $kind::ALL {
                        assert_eq!(kind.rules().demotes_to, kind.in_hand().map($kind::id));
                        if kind.can_promote() {
                            assert_eq!(kind.promoted().in_hand(), Some(kind), "{kind:?}");
                        }
                    }
                }
            }
        )?
    };
}
pub(crate) use piece_kinds;

/// Declares a coloured piece of kind `$kind` stored in one non-zero byte (`1 + kind + stride ×
/// colour`, so `Option<Piece>` is one byte too; every kind index must be below `stride - 1`),
/// with `new`, `kind` (one table load), `color`, a dense `index` over colour and kind for
/// tables indexed by coloured piece, and `Debug`.
macro_rules! one_byte_piece {
    ($(#[$meta:meta])* $vis:vis struct $piece:ident($kind:ident), stride: $stride:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        $vis struct $piece(std::num::NonZeroU8);

        impl $piece {
            /// The kind encoded by each byte modulo the stride: decoding is one table load
            /// with no bounds check.
            const KIND_OF_BYTE: [$kind; $stride] = {
                assert!($kind::COUNT < $stride);
                let mut table = [$kind::ALL[0]; $stride];
                let mut i = 0;
                while i < $kind::COUNT {
                    table[1 + i] = $kind::ALL[i];
                    i += 1;
                }
                table
            };

            #[inline]
            pub fn new(color: $crate::rules::geometry::Color, kind: $kind) -> $piece {
                let byte = 1 + kind as u8 + $stride * color as u8;
                $piece(std::num::NonZeroU8::new(byte).expect("never zero"))
            }

            #[inline]
            pub fn kind(self) -> $kind {
                Self::KIND_OF_BYTE[(self.0.get() & ($stride - 1)) as usize]
            }

            #[inline]
            pub fn color(self) -> $crate::rules::geometry::Color {
                if self.0.get() > $stride {
                    $crate::rules::geometry::Color::Gote
                } else {
                    $crate::rules::geometry::Color::Sente
                }
            }

            /// A dense index below `2 × COUNT` for tables indexed by coloured piece.
            #[inline]
            pub fn index(self) -> usize {
                self.color().index() * $kind::COUNT + self.kind().index()
            }
        }

        impl std::fmt::Debug for $piece {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{:?} {:?}", self.color(), self.kind())
            }
        }

        #[cfg(test)]
        mod one_byte_piece_tests {
            use super::{$kind, $piece};
            use $crate::rules::geometry::Color;

            #[test]
            fn pieces_pack_into_one_byte() {
                assert_eq!(std::mem::size_of::<Option<$piece>>(), 1);
                for color in Color::BOTH {
                    for kind in $kind::ALL {
                        let p = $piece::new(color, kind);
                        assert_eq!((p.color(), p.kind()), (color, kind));
                    }
                }
            }
        }
    };
}
pub(crate) use one_byte_piece;
